//! Pig's content: the numbers of the game (`rules.json`: the target, the round limit, the die,
//! the seat range and the whole match lifecycle — clocks, initiative, round hooks) and the turn
//! as a phase graph (`phases/*.json`), each validated at load with every problem reported, and
//! the small vocabulary of named effects the phases and round hooks may run.
//!
//! Nothing here is rules code: a designer changes the target, the clocks, who acts first or how
//! a turn flows by editing data, and the loader says what is wrong before any match runs.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use turnstile_core::content::{revision_of, MANIFEST_FILE};
use turnstile_core::{BundleManifest, BundleSource, ContentProblem, Fingerprint, Location};
use turnstile_formula::{Type, VariableSchema};
use turnstile_lifecycle::LifecycleRules;
use turnstile_phases::{
    phase_condition_schema, PhaseCatalog, PhaseSequenceDefinition, ValidationContext,
};

/// The file kinds a Pig bundle names.
pub const CONTENT_KINDS: &[&str] = &["rules", "phases"];

/// The random streams: one, the die.
pub const STREAMS: &[&str] = &["dice"];

/// The command types phase content may name (`allowedActions`, `commandTypes`).
pub const COMMAND_TYPES: &[&str] = &["ROLL", "HOLD", "SKIP", "RESIGN"];

/// The per-seat numbers phase conditions read as `owner.<name>` (and `source.`, `target.`,
/// `run.`, all the acting seat's): its banked score, this turn's total, the last die rolled.
pub const PHASE_RESOURCES: &[&str] = &["score", "turn_total", "last_roll"];

/// The effects a phase's entry or exit and a round hook may name, and what each does:
///
/// | effect | does |
/// |---|---|
/// | `reset-turn-total` | the acting seat starts its turn at 0, with no die rolled |
/// | `bank-turn-total` | the turn total is added to the acting seat's score |
/// | `lose-turn-total` | the turn total is lost |
/// | `finish-at-target` | (end of round) a seat at or past the target: the highest score wins |
/// | `finish-at-round-limit` | (end of round) the last round was played: the highest score wins |
pub const EFFECTS: &[&str] = &[
    "reset-turn-total",
    "bank-turn-total",
    "lose-turn-total",
    "finish-at-target",
    "finish-at-round-limit",
];

/// The variables the initiative formula reads, in slot order: the seat number, the round and
/// the seat's banked score.
pub const INITIATIVE_VARIABLES: &[(&str, Type)] = &[
    ("seat", Type::Int),
    ("round", Type::Int),
    ("owner.score", Type::Int),
];

/// The schema of [`INITIATIVE_VARIABLES`].
pub fn initiative_schema() -> VariableSchema {
    VariableSchema::from_declarations(INITIATIVE_VARIABLES.iter().copied()).unwrap_or_default()
}

/// How many seats a match may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeatRange {
    /// The fewest (2 or more).
    pub min: u16,
    /// The most (at least `min`).
    pub max: u16,
}

/// `rules.json`: Pig's numbers and its match lifecycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "PigRules")]
pub struct PigRules {
    /// The score that ends the match at the end of the round it is reached in (1 or more).
    pub target: i64,
    /// The most rounds a match lasts; after the last, the highest score wins (1 or more).
    pub max_rounds: u64,
    /// The die's faces, numbered from 1 (2 or more; a 1 busts, as the phases say).
    pub die_faces: u32,
    /// The seat counts a match may have.
    pub seats: SeatRange,
    /// Clocks, initiative and round hooks (docs/lifecycle.md).
    pub lifecycle: LifecycleRules,
}

/// Phase definitions kept with the catalog validated from them; serialized as the definitions.
#[derive(Debug, Clone)]
pub struct CompiledPhases {
    /// The definitions, in file order.
    pub definitions: Vec<PhaseSequenceDefinition>,
    /// The validated catalog.
    pub catalog: Arc<PhaseCatalog>,
}

impl PartialEq for CompiledPhases {
    fn eq(&self, other: &Self) -> bool {
        self.definitions == other.definitions
    }
}

impl Serialize for CompiledPhases {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.definitions.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for CompiledPhases {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let definitions = Vec::<PhaseSequenceDefinition>::deserialize(deserializer)?;
        compile(definitions.into_iter().map(|d| ("content.json".into(), d)))
            .map_err(|p| serde::de::Error::custom(problem_lines(&p)))
    }
}

/// Everything a Pig match is played with. Serialized as the designer's data; the revision the
/// phase state pins is recomputed from it when read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", from = "ContentData")]
pub struct PigContent {
    /// `revision_of("pig", content)`, pinned by every phase state.
    #[serde(skip_serializing)]
    pub revision: Fingerprint,
    /// The rules.
    pub rules: PigRules,
    /// The phase sequences.
    pub phases: CompiledPhases,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContentData {
    rules: PigRules,
    phases: CompiledPhases,
}

impl From<ContentData> for PigContent {
    fn from(d: ContentData) -> PigContent {
        PigContent::new(d.rules, d.phases)
    }
}

impl PigContent {
    /// Content from its parts, its revision computed.
    pub fn new(rules: PigRules, phases: CompiledPhases) -> PigContent {
        let mut content = PigContent {
            revision: Fingerprint::from_digest([0; 32]),
            rules,
            phases,
        };
        if let Ok(revision) = revision_of(crate::GAME_ID, &content) {
            content.revision = revision;
        }
        content
    }

    /// The phase sequence ids, in file order.
    pub fn sequence_ids(&self) -> Vec<&str> {
        self.phases
            .definitions
            .iter()
            .map(|d| d.sequence_id.as_str())
            .collect()
    }
}

fn condition_schema() -> VariableSchema {
    phase_condition_schema(PHASE_RESOURCES, &[], COMMAND_TYPES).unwrap_or_default()
}

fn compile(
    definitions: impl Iterator<Item = (String, PhaseSequenceDefinition)>,
) -> Result<CompiledPhases, Vec<ContentProblem>> {
    let schema = condition_schema();
    let context = ValidationContext::new(&schema).with_command_types(COMMAND_TYPES);
    let definitions: Vec<_> = definitions.collect();
    let catalog = PhaseCatalog::from_definitions(
        definitions.iter().map(|(f, d)| (f.as_str(), d.clone())),
        &context,
    )?;
    Ok(CompiledPhases {
        definitions: definitions.into_iter().map(|(_, d)| d).collect(),
        catalog: Arc::new(catalog),
    })
}

/// Every problem, one line each.
pub fn problem_lines(problems: &[ContentProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn at(pointer: String) -> Location {
    Location::Pointer { pointer }
}

fn unknown_effect(file: &str, pointer: String, effect: &str) -> ContentProblem {
    ContentProblem::new(
        file,
        at(pointer),
        "unknown_effect",
        format!(
            "Pig has no effect `{effect}`; it has {}",
            EFFECTS.join(", ")
        ),
    )
}

/// Reads a bundle, reporting every problem of every file at its file and JSON pointer.
pub fn load(source: &BundleSource) -> Result<PigContent, Vec<ContentProblem>> {
    let manifest = BundleManifest::read(source, Some(crate::GAME_ID), CONTENT_KINDS)?;
    let mut problems = Vec::new();
    let files = |kind: &str| -> Vec<String> {
        manifest
            .files
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.path.clone())
            .collect()
    };
    let rules_files = files("rules");
    if rules_files.len() != 1 {
        problems.push(ContentProblem::new(
            MANIFEST_FILE,
            at("/files".into()),
            "wrong_file_count",
            format!(
                "a Pig bundle lists exactly one `rules` file, this one lists {}",
                rules_files.len()
            ),
        ));
    }
    let rules = rules_files.first().and_then(|path| {
        let rules = source
            .json::<PigRules>(path)
            .map_err(|p| problems.push(p))
            .ok()?;
        check_rules(path, &rules, &mut problems);
        Some(rules)
    });

    let schema = condition_schema();
    let context = ValidationContext::new(&schema).with_command_types(COMMAND_TYPES);
    let mut definitions = Vec::new();
    for path in files("phases") {
        match source.text(&path) {
            Ok(text) => match turnstile_phases::load_sequence(&path, text, &context) {
                Ok(sequence) => {
                    let d = sequence.definition().clone();
                    for (i, phase) in d.phases.iter().enumerate() {
                        for (moment, list) in [
                            ("entryEffects", &phase.entry_effects),
                            ("exitEffects", &phase.exit_effects),
                        ] {
                            for (j, effect) in list.iter().enumerate() {
                                if !EFFECTS.contains(&effect.as_str()) {
                                    let pointer = format!("/phases/{i}/{moment}/{j}");
                                    problems.push(unknown_effect(&path, pointer, effect));
                                }
                            }
                        }
                    }
                    definitions.push((path, d));
                }
                Err(p) => problems.extend(p),
            },
            Err(p) => problems.push(p),
        }
    }
    if definitions.is_empty() && problems.is_empty() {
        problems.push(ContentProblem::new(
            MANIFEST_FILE,
            at("/files".into()),
            "wrong_file_count",
            "a Pig bundle lists at least one `phases` file",
        ));
    }
    let phases = match compile(definitions.into_iter()) {
        Ok(phases) => Some(phases),
        Err(p) => {
            problems.extend(p);
            None
        }
    };
    match (rules, phases) {
        (Some(rules), Some(phases)) if problems.is_empty() => Ok(PigContent::new(rules, phases)),
        _ => Err(problems),
    }
}

fn check_rules(path: &str, rules: &PigRules, problems: &mut Vec<ContentProblem>) {
    let mut bad = |pointer: &str, message: String| {
        problems.push(ContentProblem::new(
            path,
            at(pointer.into()),
            "bad_rule_value",
            message,
        ));
    };
    if rules.target < 1 {
        bad(
            "/target",
            format!("`target` is {}; it must be 1 or more", rules.target),
        );
    }
    if rules.max_rounds < 1 {
        bad(
            "/maxRounds",
            "`maxRounds` is 0; a match needs a round".into(),
        );
    }
    if rules.die_faces < 2 {
        bad(
            "/dieFaces",
            format!(
                "`dieFaces` is {}; a die needs 2 faces or more",
                rules.die_faces
            ),
        );
    }
    if rules.seats.min < 2 || rules.seats.max < rules.seats.min {
        bad(
            "/seats",
            format!(
                "seats {}..={}: Pig needs at least 2 seats and `max` at least `min`",
                rules.seats.min, rules.seats.max
            ),
        );
    }
    for p in rules.lifecycle.validate(&initiative_schema()) {
        problems.push(ContentProblem::new(
            path,
            at(format!("/lifecycle{}", p.pointer)),
            &p.code,
            p.message,
        ));
    }
    for (field, list) in [
        ("startRoundEffects", &rules.lifecycle.start_round_effects),
        ("endRoundEffects", &rules.lifecycle.end_round_effects),
    ] {
        for (i, effect) in list.iter().enumerate() {
            if !EFFECTS.contains(&effect.as_str()) {
                problems.push(unknown_effect(
                    path,
                    format!("/lifecycle/{field}/{i}"),
                    effect,
                ));
            }
        }
    }
}

/// The shipped bundle (`games/pig/content/`), embedded.
pub fn bundled_source() -> BundleSource {
    let mut source = BundleSource::new();
    for (path, text) in BUNDLED {
        source.insert(*path, text.as_bytes().to_vec());
    }
    source
}

const BUNDLED: &[(&str, &str)] = &[
    ("bundle.json", include_str!("../content/bundle.json")),
    ("rules.json", include_str!("../content/rules.json")),
    (
        "phases/pig.json",
        include_str!("../content/phases/pig.json"),
    ),
];

/// The config options a listing shows: the phase sequences, the clocks and the seat range.
pub fn config_options(content: &PigContent) -> serde_json::Value {
    serde_json::json!({
        "phaseSequences": content.sequence_ids(),
        "clocks": content.rules.lifecycle.clock_ids(),
        "defaultClock": content.rules.lifecycle.default_clock.as_str(),
        "seats": { "min": content.rules.seats.min, "max": content.rules.seats.max },
    })
}
