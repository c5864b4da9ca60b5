//! The content every kit game shares: its turn configs and which one a match uses unless its
//! config chooses another. The board is the game's, so it is not content.
//!
//! The bundle names one file of kind `rules`:
//!
//! ```json
//! { "defaultTurnConfig": "untimed",
//!   "turnConfigs": {
//!     "untimed": {},
//!     "timed":   { "usesTimer": true, "turnDurationTicks": 300, "forfeitAfterTimeouts": 3 },
//!     "blitz":   { "usesTimer": true, "turnDurationTicks": 50, "isSkippable": true,
//!                  "forfeitAfterTimeouts": 2 } } }
//! ```
//!
//! Loading reports every problem it finds, each with the file and a JSON pointer: unknown fields,
//! each malformed config, every problem [`TurnConfigs::validate`] finds, a default that names no
//! config. Only a file that is not JSON at all stops at its first (syntax) error.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::OnceLock;
use turnstile_core::{BundleManifest, BundleSource, ContentProblem, Location};
use turnstile_turns::{MatchTurns, TurnConfig, TurnConfigId, TurnConfigs};

/// The file kind of the rules file in the bundle manifest.
pub const RULES_KIND: &str = "rules";

/// The typed, validated content of a kit game's bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rules {
    /// The turn configs a match may choose among, by id.
    pub turn_configs: TurnConfigs,
    /// The config of a match whose config names none.
    pub default_turn_config: TurnConfigId,
    /// Each config's starting turn state, built by the first match made from this content and
    /// copied by every later one. Not content: never serialized, never compared.
    #[serde(skip)]
    pub(crate) starts: StartingTurns,
}

/// The turn state a match starts from under each of a content's turn configs: two commanders
/// registered and the loop started, which every match of the revision builds alike — so it is
/// built once, on first use, and each setup copies it (a few reference counts instead of
/// registering two commanders and running the first activation). Memoization only: a copy is
/// the state the setup would build, byte for byte (the kit's tests compare them).
#[derive(Default, Clone)]
pub(crate) struct StartingTurns(OnceLock<Vec<(TurnConfigId, MatchTurns)>>);

impl StartingTurns {
    /// The starting turn state under `config` (the content's own copy of the id), building
    /// every config's with `build` on first use; `None` for an id the content does not have.
    pub(crate) fn get(
        &self,
        configs: &TurnConfigs,
        config: &TurnConfigId,
        build: impl Fn(&TurnConfigId) -> Option<MatchTurns>,
    ) -> Option<&MatchTurns> {
        let starts = self.0.get_or_init(|| {
            configs
                .iter()
                .filter_map(|(id, _)| Some((id.clone(), build(id)?)))
                .collect()
        });
        starts
            .iter()
            .find(|(id, _)| id == config)
            .map(|(_, turns)| turns)
    }
}

/// A cache is not content: two rules are equal when their configs are.
impl PartialEq for StartingTurns {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for StartingTurns {}

impl std::fmt::Debug for StartingTurns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.0.get().map_or(0, Vec::len);
        write!(f, "StartingTurns({built} built)")
    }
}

const FIELDS: [&str; 2] = ["turnConfigs", "defaultTurnConfig"];

/// The path of the rules file in the bundles of the sample games.
pub const RULES_PATH: &str = "rules.json";

/// The turn configs a game gets when it ships none of its own: `untimed` (the default),
/// `timed` (150 ticks a turn, forfeit after 3 timeouts in a row) and `blitz` (30 ticks,
/// skippable, forfeit after 2).
pub const STANDARD_RULES: &str = r#"{
  "defaultTurnConfig": "untimed",
  "turnConfigs": {
    "untimed": {},
    "timed": { "usesTimer": true, "turnDurationTicks": 150, "forfeitAfterTimeouts": 3 },
    "blitz": { "usesTimer": true, "turnDurationTicks": 30, "isSkippable": true, "forfeitAfterTimeouts": 2 }
  }
}
"#;

/// A bundle for `game` of the [`STANDARD_RULES`] alone: the content of a game that needs no
/// content beyond its turn configs, with no files to ship.
pub fn standard_source(game: &str) -> BundleSource {
    let manifest = serde_json::json!({
        "game": game,
        "title": format!("{game}: the standard turn configs"),
        "files": [{ "id": "rules", "kind": RULES_KIND, "path": RULES_PATH }],
    });
    embedded_source(manifest.to_string().as_bytes(), STANDARD_RULES.as_bytes())
}

/// A bundle compiled into the binary (`include_bytes!` of its `bundle.json` and its rules file
/// at [`RULES_PATH`]), so a game's own content needs no file system at run time.
pub fn embedded_source(manifest: &[u8], rules: &[u8]) -> BundleSource {
    let mut source = BundleSource::new();
    source.insert(turnstile_core::content::MANIFEST_FILE, manifest);
    source.insert(RULES_PATH, rules);
    source
}

/// Reads the manifest (which must name exactly one `rules` file) and the rules file of a bundle
/// for `game`, reporting every problem.
pub fn load_rules(source: &BundleSource, game: &str) -> Result<Rules, Vec<ContentProblem>> {
    let manifest = BundleManifest::read(source, Some(game), &[RULES_KIND])?;
    let paths: Vec<&str> = manifest
        .files
        .iter()
        .filter(|f| f.kind == RULES_KIND)
        .map(|f| f.path.as_str())
        .collect();
    let path = match paths.as_slice() {
        [path] => *path,
        _ => {
            return Err(vec![ContentProblem::new(
                turnstile_core::content::MANIFEST_FILE,
                pointer("/files"),
                "rules_file_count",
                format!(
                    "the manifest must name exactly one file of kind {RULES_KIND:?}, it names {}",
                    paths.len()
                ),
            )])
        }
    };
    let value: Value = source.json(path).map_err(|p| vec![p])?;
    RulesChecker {
        path,
        problems: Vec::new(),
    }
    .check(&value)
}

fn pointer(pointer: impl Into<String>) -> Location {
    Location::Pointer {
        pointer: pointer.into(),
    }
}

/// Escapes one JSON pointer token (RFC 6901).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Collects every problem of one rules file.
struct RulesChecker<'a> {
    path: &'a str,
    problems: Vec<ContentProblem>,
}

impl RulesChecker<'_> {
    fn problem(&mut self, at: impl Into<String>, code: &str, message: impl Into<String>) {
        self.problems
            .push(ContentProblem::new(self.path, pointer(at), code, message));
    }

    fn check(mut self, value: &Value) -> Result<Rules, Vec<ContentProblem>> {
        let Some(top) = value.as_object() else {
            self.problem(
                "",
                "invalid_value",
                "the rules file must hold a JSON object",
            );
            return Err(self.problems);
        };
        for key in top.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
            self.problem(
                format!("/{}", escape(key)),
                "unknown_field",
                format!("unknown field {key:?}; the rules file has {FIELDS:?}"),
            );
        }
        let configs = self.turn_configs(top);
        let default = self.default_turn_config(top);
        match (configs, default) {
            (Some(turn_configs), Some(default_turn_config)) if self.problems.is_empty() => {
                // The table's own copy of the default id (`default_turn_config` checked that the
                // table has it): every match set up under the default then finds its config by
                // address, never by comparing text.
                let default_turn_config = turn_configs
                    .id(&default_turn_config)
                    .cloned()
                    .unwrap_or(default_turn_config);
                Ok(Rules {
                    turn_configs,
                    default_turn_config,
                    starts: StartingTurns::default(),
                })
            }
            _ => Err(self.problems),
        }
    }

    fn turn_configs(&mut self, top: &Map<String, Value>) -> Option<TurnConfigs> {
        let Some(value) = top.get("turnConfigs") else {
            self.problem("", "missing_field", "the rules file needs \"turnConfigs\"");
            return None;
        };
        let Some(table) = value.as_object() else {
            self.problem(
                "/turnConfigs",
                "invalid_value",
                "\"turnConfigs\" must be an object of config id → turn config",
            );
            return None;
        };
        if table.is_empty() {
            self.problem(
                "/turnConfigs",
                "no_turn_configs",
                "a game needs at least one turn config",
            );
        }
        let mut configs = TurnConfigs::new();
        for (id, config) in table {
            match TurnConfig::deserialize(config) {
                Ok(config) => {
                    configs.insert(TurnConfigId::new(id.as_str()), config);
                }
                Err(e) => self.problem(
                    format!("/turnConfigs/{}", escape(id)),
                    "invalid_value",
                    format!("turn config {id:?}: {e}"),
                ),
            }
        }
        if let Err(found) = configs.validate() {
            for p in found {
                self.problem(
                    format!("/turnConfigs{}", p.pointer()),
                    p.code(),
                    p.to_string(),
                );
            }
        }
        Some(configs)
    }

    /// The default config id, checked against the ids of the table as written (so a config that
    /// is malformed is reported once, not again as an unknown default).
    fn default_turn_config(&mut self, top: &Map<String, Value>) -> Option<TurnConfigId> {
        let Some(value) = top.get("defaultTurnConfig") else {
            self.problem(
                "",
                "missing_field",
                "the rules file needs \"defaultTurnConfig\"",
            );
            return None;
        };
        let Some(id) = value.as_str() else {
            self.problem(
                "/defaultTurnConfig",
                "invalid_value",
                "\"defaultTurnConfig\" must be the id of a turn config",
            );
            return None;
        };
        let table = top.get("turnConfigs").and_then(Value::as_object);
        if table.is_some_and(|t| !t.contains_key(id)) {
            self.problem(
                "/defaultTurnConfig",
                "unknown_turn_config",
                format!("{id:?} is not one of the \"turnConfigs\""),
            );
        }
        Some(TurnConfigId::new(id))
    }
}
