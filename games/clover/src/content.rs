//! clover's content: the catalog (every joker, planet, tarot, spectral, boss, tag, voucher,
//! deck and stake, with its name, rarity and cost) and the effect rows that give each its
//! behaviour, loaded from the sheets and JSON rows under `games/clover/content/` (listed in
//! `bundle.json`). The shipped content is embedded, so the calculator needs no files.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use turnstile_core::ContentProblem;
use turnstile_effects::{
    effect_loader, EffectReport, EffectVocabulary, HandlerRegistry, ResourceKind,
};
use turnstile_sheets::RowLoader;

use crate::handlers::handlers;
use crate::hands::HandType;
use crate::state::{variable_schema, Copies, CreationPools, Joker, RunState, RULES, STREAMS};
use crate::vocabulary::{CloverOperation, CloverTrigger, CloverVocabulary, EffectTable, Trigger};

/// One catalog entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CatalogEntry {
    /// `joker`, `planet`, `tarot`, `spectral`, `boss`, `tag`, `voucher`, `deck`, `stake`.
    pub kind: String,
    /// The id (`kind:id` owns its rows).
    pub id: String,
    /// The display name.
    pub name: String,
    /// Jokers: 1 common, 2 uncommon, 3 rare, 4 legendary; others 0.
    #[serde(default)]
    pub rarity: u8,
    /// Shop price in dollars.
    #[serde(default)]
    pub cost: u32,
    /// Jokers: what it copies.
    #[serde(default)]
    pub copies: Option<Copies>,
    /// Bosses: the lowest ante it appears at.
    #[serde(default)]
    pub min_ante: Option<u32>,
    /// Bosses: a showdown boss (only at antes 8, 16, ...; pays the showdown reward).
    #[serde(default)]
    pub showdown: bool,
    /// Packs: what the pack holds (`joker`, `tarot`, `planet`, `spectral`, `card`).
    #[serde(default)]
    pub holds: Option<String>,
    /// Packs: how many cards it shows.
    #[serde(default)]
    pub shown: u8,
    /// Packs: how many of them may be taken.
    #[serde(default)]
    pub picks: u8,
    /// Packs: its weight in the shop's pack draw, in hundredths (the genre's 0.25 is 25).
    #[serde(default)]
    pub weight: u32,
    /// Vouchers: the voucher that must be owned before this one is offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<String>,
    /// One line of rules text.
    pub text: String,
}

/// clover's `bundle.json`: which files hold effect rows and which the catalog. The loader
/// reads every sheet and JSON file of the bundle by its own shape, so this type is what the
/// manifest's JSON Schema (`clover-bundle`) is generated from, and a test reads the shipped
/// manifest with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CloverManifest {
    /// `clover`.
    pub game: String,
    /// The files, by role.
    pub files: CloverManifestFiles,
}

/// The files of a clover bundle, by role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CloverManifestFiles {
    /// Files of effect rows: sheets (`*.tsv`) or JSON lists (`run.json`, schema `clover-run`).
    pub effects: Vec<String>,
    /// The catalog sheet (rows of schema `clover-catalog`).
    pub catalog: String,
}

/// The JSON Schemas of clover's content file types, for `turnstile content schema`: a catalog
/// row (`catalog.tsv`), the JSON list of effect rows (`run.json`; the sheets of effect rows
/// follow the engine's `effect-row`), and the manifest.
pub const SCHEMAS: &[turnstile_sheets::SchemaEntry] = &[
    turnstile_sheets::SchemaEntry::of::<CatalogEntry>("clover-catalog"),
    turnstile_sheets::SchemaEntry::of::<Vec<crate::vocabulary::EffectRow>>("clover-run"),
    turnstile_sheets::SchemaEntry::of::<CloverManifest>("clover-bundle"),
];

/// Which schema a file of clover's bundle follows, by its path under `content/`: the catalog,
/// the run file and the manifest have [`SCHEMAS`] of their own; every other sheet holds effect
/// rows (the engine's `effect-row`).
pub fn content_schema_of(path: &str) -> Option<&'static str> {
    match path {
        "bundle.json" => Some("clover-bundle"),
        "catalog.tsv" => Some("clover-catalog"),
        "run.json" => Some("clover-run"),
        _ if path.ends_with(".tsv") => Some("effect-row"),
        _ => None,
    }
}

/// The files of the shipped bundle, by their paths inside `content/` (which `bundle.json`
/// lists too).
pub const EFFECT_FILES: &[(&str, &str)] = &[
    ("cards.tsv", include_str!("../content/cards.tsv")),
    ("jokers.tsv", include_str!("../content/jokers.tsv")),
    ("bosses.tsv", include_str!("../content/bosses.tsv")),
    (
        "consumables.tsv",
        include_str!("../content/consumables.tsv"),
    ),
    ("run.json", include_str!("../content/run.json")),
];

/// The catalog sheet.
pub const CATALOG_FILE: (&str, &str) = ("catalog.tsv", include_str!("../content/catalog.tsv"));

/// Loaded content.
pub struct Content {
    /// Compiled effect rows.
    pub effects: EffectTable,
    /// The `Custom` handlers.
    pub handlers: HandlerRegistry<RunState>,
    /// Catalog entries by `kind:id`.
    pub catalog: BTreeMap<String, CatalogEntry>,
    /// What `CreateCard` chooses from.
    pub pools: Arc<CreationPools>,
    /// Each owner's trigger mask (`crate::state::trigger_bit`), for listing at scoring only
    /// the jokers that can act.
    pub trigger_masks: BTreeMap<String, u32>,
}

impl std::fmt::Debug for Content {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Content")
            .field("rows", &self.effects.len())
            .field("catalog", &self.catalog.len())
            .finish()
    }
}

/// What `turnstile content report clover` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentReport {
    /// Catalog entries per kind.
    pub counts: BTreeMap<String, u32>,
    /// Rows that are `Custom`.
    pub custom_rows: u32,
    /// The effect table's full report.
    pub effects: EffectReport,
}

/// The effect vocabulary of clover.
pub fn vocabulary() -> EffectVocabulary {
    let mut v = EffectVocabulary::new(variable_schema());
    for kind in [
        "card",
        "enhancement",
        "edition",
        "seal",
        "joker",
        "planet",
        "tarot",
        "spectral",
        "boss",
        "tag",
        "voucher",
        "deck",
        "stake",
        "pack",
    ] {
        let _ = v.owner_kind(kind);
    }
    for (name, _) in RULES {
        let _ = v.resource(name, ResourceKind::Rule);
    }
    let _ = v.resource("money", ResourceKind::State);
    let _ = v.resource("ante", ResourceKind::State);
    let _ = v.resource("rescue", ResourceKind::State);
    let _ = v.resource("boss_redraw", ResourceKind::State);
    let _ = v.resource("tag_copies", ResourceKind::State);
    let _ = v.resource("boss_active", ResourceKind::State);
    let _ = v.streams_of(&STREAMS);
    v
}

impl Content {
    /// The shipped content.
    pub fn shipped() -> Result<Content, Vec<ContentProblem>> {
        let mut files: Vec<(&str, &str)> = EFFECT_FILES.to_vec();
        files.push(CATALOG_FILE);
        Content::from_files(&files)
    }

    /// Content from `(path, text)` files: `.tsv`/`.json` effect files and one
    /// `catalog.tsv`.
    pub fn from_files(files: &[(&str, &str)]) -> Result<Content, Vec<ContentProblem>> {
        let loader = effect_loader::<CloverVocabulary>();
        let catalog_loader: RowLoader<CatalogEntry> = RowLoader::new();
        let mut problems = Vec::new();
        let mut rows = Vec::new();
        let mut catalog = BTreeMap::new();
        for (path, text) in files {
            if path.ends_with("catalog.tsv") {
                let loaded = catalog_loader.text(path, text);
                problems.extend(loaded.problems);
                for row in loaded.rows {
                    catalog.insert(format!("{}:{}", row.value.kind, row.value.id), row.value);
                }
            } else {
                let loaded = loader.text(path, text);
                problems.extend(loaded.problems);
                problems.extend(loaded.rows.iter().filter_map(blind_scaling_problem));
                rows.extend(loaded.rows);
            }
        }
        let handlers = handlers();
        let vocabulary = vocabulary();
        let effects = match EffectTable::compile(rows, &vocabulary, &handlers) {
            Ok(t) => Some(t),
            Err(more) => {
                problems.extend(more);
                None
            }
        };
        match effects {
            Some(effects) if problems.is_empty() => {
                let pools = Arc::new(creation_pools(&catalog, &effects));
                let mut trigger_masks = BTreeMap::new();
                for row in effects.rows() {
                    *trigger_masks
                        .entry(row.owner.as_str().to_owned())
                        .or_insert(0u32) |= crate::state::trigger_bit(&row.trigger);
                }
                Ok(Content {
                    effects,
                    handlers,
                    catalog,
                    pools,
                    trigger_masks,
                })
            }
            _ => Err(problems),
        }
    }

    /// Counts per kind and `Custom` rows.
    pub fn report(&self) -> ContentReport {
        let mut counts = BTreeMap::new();
        for entry in self.catalog.values() {
            *counts.entry(entry.kind.clone()).or_insert(0) += 1;
        }
        let effects = self.effects.report();
        ContentReport {
            counts,
            custom_rows: effects.custom_rows,
            effects,
        }
    }

    /// Entries of one kind, in id order.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a CatalogEntry> + 'a {
        self.catalog.values().filter(move |e| e.kind == kind)
    }

    /// A joker instance for catalog id `id`.
    pub fn joker(&self, id: &str) -> Option<Joker> {
        let entry = self.catalog.get(&format!("joker:{id}"))?;
        Some(joker_of(entry))
    }
}

/// The blind scalings the target table has rows for (clover-facts.md, "Blinds").
pub const BLIND_SCALINGS: std::ops::RangeInclusive<u32> = 1..=3;

/// A `SetRule` of `blind_scaling` to a number the blind table has no row for: refused at
/// load, naming the row, rather than read as the nearest row when a blind is set.
fn blind_scaling_problem(
    row: &turnstile_sheets::Located<crate::vocabulary::EffectRow>,
) -> Option<ContentProblem> {
    match &row.value.operation {
        crate::vocabulary::Operation::SetRule {
            rule,
            value: turnstile_effects::Amount::Value(n),
        } if rule == "blind_scaling" && !BLIND_SCALINGS.contains(n) => Some(row.origin.problem(
            "operation.value",
            "blind_scaling_out_of_range",
            format!(
                "`blind_scaling` is set to {n}; the blind table has rows for scalings {} to {} only",
                BLIND_SCALINGS.start(),
                BLIND_SCALINGS.end()
            ),
        )),
        crate::vocabulary::Operation::SetRule {
            rule,
            value: turnstile_effects::Amount::Formula(_),
        } if rule == "blind_scaling" => Some(row.origin.problem(
            "operation.value",
            "blind_scaling_out_of_range",
            format!(
                "`blind_scaling` must be set to a number from {} to {}, not a formula (the blind table has a row per scaling)",
                BLIND_SCALINGS.start(),
                BLIND_SCALINGS.end()
            ),
        )),
        _ => None,
    }
}

fn joker_of(entry: &CatalogEntry) -> Joker {
    Joker {
        id: entry.id.clone(),
        edition: crate::cards::Edition::None,
        counter: 0,
        rarity: entry.rarity,
        copies: entry.copies.unwrap_or_default(),
        eternal: false,
        perishable: None,
        rental: false,
        sell_value: (i64::from(entry.cost) / 2).max(1),
        disabled: false,
    }
}

/// The pools `CreateCard` draws from. The planet of a hand is read from the rows: the planet
/// whose `OnUse` row levels that hand up (so a designer who adds a planet adds no code).
fn creation_pools(
    catalog: &BTreeMap<String, CatalogEntry>,
    effects: &EffectTable,
) -> CreationPools {
    let refs = |kind: &str| -> Vec<String> {
        catalog
            .values()
            .filter(|e| e.kind == kind)
            .map(|e| format!("{}:{}", e.kind, e.id))
            .collect()
    };
    let jokers = |rarity: u8| -> Vec<Joker> {
        catalog
            .values()
            .filter(|e| e.kind == "joker" && e.rarity == rarity)
            .map(joker_of)
            .collect()
    };
    let mut planet_of_hand = vec![None; HandType::ALL.len()];
    for row in effects.rows() {
        let owner = row.owner.as_str();
        if !owner.starts_with("planet:") || row.trigger != Trigger::Game(CloverTrigger::OnUse) {
            continue;
        }
        if let crate::vocabulary::Operation::Game(CloverOperation::LevelUpHand {
            hand: Some(hand),
            ..
        }) = &row.operation
        {
            if let Some(h) = HandType::from_name(hand) {
                planet_of_hand[h.index()].get_or_insert_with(|| owner.to_owned());
            }
        }
    }
    CreationPools {
        planets: refs("planet"),
        tarots: refs("tarot"),
        spectrals: refs("spectral"),
        jokers: [jokers(1), jokers(2), jokers(3), jokers(4)],
        planet_of_hand,
    }
}

/// The shipped content's report: counts per kind and the number of `Custom` rows (for
/// `turnstile content report clover`).
pub fn content_report() -> Result<ContentReport, Vec<ContentProblem>> {
    Ok(Content::shipped()?.report())
}
