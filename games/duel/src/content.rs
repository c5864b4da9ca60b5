//! Duel's content: the types of every content file (cards, statuses, decks, rules, effect rows,
//! phase sequences), how a bundle is read into them, and the compiled forms the rules run on.
//!
//! Everything a designer changes is here as data. The compiled effect table and phase catalog
//! are kept next to the rows and definitions they came from; a [`DuelContent`] serializes as
//! that data alone (so the content revision fingerprints what the designer wrote) and
//! deserializing recompiles it against Duel's vocabulary.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use turnstile_core::content::{revision_of, MANIFEST_FILE};
use turnstile_core::{BundleManifest, BundleSource, ContentProblem, Fingerprint, Location};
use turnstile_effects::{EffectRow, EffectTable, EffectVocabulary, HandlerRegistry, ResourceKind};
use turnstile_formula::{Type, VariableSchema};
use turnstile_lifecycle::LifecycleRules;
use turnstile_phases::{
    phase_condition_schema, PhaseCatalog, PhaseSequenceDefinition, ValidationContext,
};
use turnstile_sheets::{Located, RowLoader, RowOrigin, RowPlace};

use crate::host::Host;

/// The file kinds a Duel bundle may list in its manifest.
pub const CONTENT_KINDS: &[&str] = &["rules", "cards", "statuses", "decks", "effects", "phases"];

/// The named random streams of a match: `deck` shuffles the decks at setup.
pub const STREAMS: &[&str] = &["deck"];

/// The variables effect-row formulas may read, in slot order.
pub const EFFECT_VARIABLES: &[(&str, Type)] = &[
    ("round", Type::Int),
    ("turn", Type::Int),
    ("target.health", Type::Int),
    ("target.mana", Type::Int),
    ("target.max_mana", Type::Int),
    ("target.hand", Type::Int),
    ("owner.stacks", Type::Int),
];

/// Seat resources phase-edge conditions may read (`owner.health`, `source.mana`...).
pub const PHASE_RESOURCES: &[&str] = &["health", "mana", "max_mana"];

/// Card tags phase-edge conditions may read as `tag_<tag>`.
pub const PHASE_TAGS: &[&str] = &["spell", "response", "unit"];

/// Every command type a seat can send: what a phase may allow (`allowedActions`), an edge
/// may fire on (`commandTypes`) and a condition may name (`command.<TYPE>`). A phase file
/// naming any other type is refused at load (`unknown_command_type`), so no preset announces
/// a capability Duel lacks.
pub const COMMAND_TYPES: &[&str] = &[
    crate::PLAY_CARD,
    crate::END_TURN,
    crate::PASS_PRIORITY,
    crate::SKIP,
    crate::JOIN,
    crate::RESIGN,
];

/// The custom trigger on which named effects (`effect:<effectId>`) run, whether a phase's entry
/// or exit lists them or an activation hook runs them.
pub const RUN_TRIGGER: &str = "OnRun";

/// What kind of card a card is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum CardKind {
    /// Resolves and goes to the discard pile.
    Spell,
    /// Resolves, then stays on its controller's board, where its rows react to turn events.
    Unit,
}

/// A card: one row of `cards.tsv`. What it does is in the effect rows owned by `card:<cardId>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "DuelCard")]
pub struct CardDefinition {
    /// The card's id, referenced by decks and by effect rows (`card:<cardId>`).
    pub card_id: String,
    /// Its name, for people.
    pub name: String,
    /// Mana paid to play it.
    pub cost: u32,
    /// Spell or unit.
    pub kind: CardKind,
    /// A unit's attack: the damage it deals when it strikes (at the end of its controller's
    /// activation). Units only; a spell leaves the cell empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<u32>,
    /// A unit's health when it enters the board; at 0 it dies. Units only (1 or more); a
    /// spell leaves the cell empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<u32>,
    /// Tags, separated by spaces: `spell`, `response`, `unit`. A phase allows a card by tag.
    #[serde(default)]
    pub tags: String,
    /// Rules text, for people.
    #[serde(default)]
    pub text: String,
}

impl CardDefinition {
    /// The card's tags, in the order written.
    pub fn tag_list(&self) -> impl Iterator<Item = &str> + '_ {
        self.tags.split_whitespace()
    }
}

/// A unit needs an attack and a health of at least 1; a spell has neither (it never enters
/// the board, so a number there would promise what never happens).
fn unit_stat_problems(card: &CardDefinition, origin: &RowOrigin) -> Vec<ContentProblem> {
    let mut problems = Vec::new();
    match card.kind {
        CardKind::Unit => {
            if card.attack.is_none() {
                problems.push(origin.problem(
                    "attack",
                    "missing_unit_stat",
                    format!(
                        "unit `{}` needs an attack: write 0 or more (the damage it deals when it strikes)",
                        card.card_id
                    ),
                ));
            }
            if card.health.is_none_or(|h| h == 0) {
                problems.push(origin.problem(
                    "health",
                    "missing_unit_stat",
                    format!(
                        "unit `{}` needs a health of 1 or more (a unit at 0 health dies)",
                        card.card_id
                    ),
                ));
            }
        }
        CardKind::Spell => {
            for (column, value) in [("attack", card.attack), ("health", card.health)] {
                if value.is_some() {
                    problems.push(origin.problem(
                        column,
                        "spell_stat",
                        format!(
                            "card `{}` is a Spell, which never enters the board; only units have {column}: leave the cell empty",
                            card.card_id
                        ),
                    ));
                }
            }
        }
    }
    problems
}

/// A status: one element of `statuses.json`. Its rows are owned by `status:<statusId>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "DuelStatus")]
pub struct StatusDefinition {
    /// The status id, as effect rows name it.
    pub status_id: String,
    /// What it does, for people.
    #[serde(default)]
    pub description: String,
    /// While borne, its bearer's activations are skipped (stun).
    #[serde(default)]
    pub skips_activation: bool,
    /// A hit on its bearer is absorbed whole and costs one stack (shield).
    #[serde(default)]
    pub absorbs_hits: bool,
}

/// A deck: one element of `decks.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "DuelDeck")]
pub struct DeckDefinition {
    /// The deck id, as a match config names it.
    pub deck_id: String,
    /// Card ids, repeats allowed; shuffled at setup from the match seed.
    pub cards: Vec<String>,
}

/// The numbers of the rules: `rules.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "DuelRules")]
pub struct DuelRules {
    /// Health (and maximum health) of each seat at setup.
    pub starting_health: u32,
    /// Cards each seat draws at setup.
    pub starting_hand: u32,
    /// Extra cards the second seat draws at setup.
    #[serde(default)]
    pub second_seat_bonus_cards: u32,
    /// Most cards in a hand; a card drawn beyond it is burned (discarded, shown to all).
    pub hand_limit: u32,
    /// Most units on one seat's board; a unit cannot be played onto a full board.
    pub board_limit: u32,
    /// After this many activations the match ends in a draw.
    pub max_turns: u32,
    /// A seat the match config names as late may join (`JOIN`) until the end of this round;
    /// after it, a seat that has not joined is out of the match.
    #[serde(default = "default_late_join_until_round")]
    pub late_join_until_round: u32,
    /// The match lifecycle: clocks, initiative, round hooks (`turnstile-lifecycle`).
    pub lifecycle: LifecycleRules,
}

fn default_late_join_until_round() -> u32 {
    3
}

/// The variables the initiative formula (`lifecycle.initiative`) may read, in slot order:
/// the commander's seat number, the round, and its seat's health, maximum health and units.
pub const INITIATIVE_VARIABLES: &[(&str, Type)] = &[
    ("seat", Type::Int),
    ("round", Type::Int),
    ("owner.health", Type::Int),
    ("owner.max_health", Type::Int),
    ("owner.board", Type::Int),
];

/// The schema of [`INITIATIVE_VARIABLES`].
pub fn initiative_schema() -> VariableSchema {
    VariableSchema::from_declarations(INITIATIVE_VARIABLES.iter().copied()).unwrap_or_default()
}

/// Rows kept with the table compiled from them; serialized as the rows.
#[derive(Debug, Clone)]
pub struct CompiledEffects {
    /// The table.
    pub table: Arc<EffectTable>,
}

impl PartialEq for CompiledEffects {
    fn eq(&self, other: &Self) -> bool {
        self.table.rows() == other.table.rows()
    }
}

impl Serialize for CompiledEffects {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.table.rows().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for CompiledEffects {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let rows = Vec::<EffectRow>::deserialize(deserializer)?;
        compile_effects(located(rows, "content.json"), &[])
            .map_err(|p| serde::de::Error::custom(problem_lines(&p)))
    }
}

/// Phase definitions kept with the catalog validated from them; serialized as the definitions.
#[derive(Debug, Clone)]
pub struct CompiledPhases {
    /// The definitions, by sequence id.
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
        compile_phases(
            definitions
                .into_iter()
                .map(|d| ("content.json".to_owned(), d))
                .collect(),
        )
        .map_err(|p| serde::de::Error::custom(problem_lines(&p)))
    }
}

/// Everything a Duel match is played with. Serialized as the designer's data; the content
/// revision the phase state pins is recomputed from that data when it is read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", from = "ContentData")]
pub struct DuelContent {
    /// The content revision (`revision_of("duel", content)`), pinned by every phase state.
    #[serde(skip_serializing)]
    pub revision: Fingerprint,
    /// The rules' numbers.
    pub rules: DuelRules,
    /// Cards, by id.
    pub cards: BTreeMap<String, CardDefinition>,
    /// Statuses, by id.
    pub statuses: BTreeMap<String, StatusDefinition>,
    /// Decks, by id.
    pub decks: BTreeMap<String, DeckDefinition>,
    /// Effect rows, compiled.
    pub effects: CompiledEffects,
    /// Phase sequences, validated.
    pub phases: CompiledPhases,
}

/// The serialized form of [`DuelContent`].
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContentData {
    rules: DuelRules,
    cards: BTreeMap<String, CardDefinition>,
    statuses: BTreeMap<String, StatusDefinition>,
    decks: BTreeMap<String, DeckDefinition>,
    effects: CompiledEffects,
    phases: CompiledPhases,
}

impl From<ContentData> for DuelContent {
    fn from(d: ContentData) -> DuelContent {
        DuelContent::new(d.rules, d.cards, d.statuses, d.decks, d.effects, d.phases)
    }
}

impl DuelContent {
    /// Content from its parts, its revision computed.
    pub fn new(
        rules: DuelRules,
        cards: BTreeMap<String, CardDefinition>,
        statuses: BTreeMap<String, StatusDefinition>,
        decks: BTreeMap<String, DeckDefinition>,
        effects: CompiledEffects,
        phases: CompiledPhases,
    ) -> DuelContent {
        let mut content = DuelContent {
            revision: Fingerprint::from_digest([0; 32]),
            rules,
            cards,
            statuses,
            decks,
            effects,
            phases,
        };
        if let Ok(revision) = revision_of(crate::GAME_ID, &content) {
            content.revision = revision;
        }
        content
    }

    /// The card with this id.
    pub fn card(&self, card_id: &str) -> Option<&CardDefinition> {
        self.cards.get(card_id)
    }

    /// Whether any phase of `sequence_id` runs the named effect on entry or exit: the phases
    /// then do that part of the activation, and the game's own hook does not repeat it.
    pub fn sequence_runs(&self, sequence_id: &str, effect_id: &str) -> bool {
        self.phases
            .definitions
            .iter()
            .filter(|d| d.sequence_id == sequence_id)
            .flat_map(|d| d.phases.iter())
            .any(|p| {
                p.entry_effects.iter().any(|e| e == effect_id)
                    || p.exit_effects.iter().any(|e| e == effect_id)
            })
    }

    /// Whether `sequence_id` has a response window: a phase allowing `PASS_PRIORITY`. Under
    /// such a sequence a played card goes on the stack instead of resolving at once.
    pub fn has_response_windows(&self, sequence_id: &str) -> bool {
        self.phases
            .definitions
            .iter()
            .filter(|d| d.sequence_id == sequence_id)
            .flat_map(|d| d.phases.iter())
            .any(|p| p.allowed_actions.iter().any(|a| a == crate::PASS_PRIORITY))
    }
}

/// The vocabulary effect rows are checked against.
pub fn vocabulary() -> EffectVocabulary {
    let variables =
        VariableSchema::from_declarations(EFFECT_VARIABLES.iter().copied()).unwrap_or_default();
    let mut v = EffectVocabulary::new(variables);
    let built = (|| -> Result<(), turnstile_effects::VocabularyError> {
        v.owner_kind("card")?
            .owner_kind("status")?
            .owner_kind("effect")?
            .resource("health", ResourceKind::State)?
            .resource("max_health", ResourceKind::State)?
            .resource("mana", ResourceKind::State)?
            .resource("max_mana", ResourceKind::State)?
            .resource("attack_bonus", ResourceKind::Rule)?
            .status("poison")?
            .status("stun")?
            .status("shield")?
            .stream("deck")?
            .custom_trigger(RUN_TRIGGER)?;
        Ok(())
    })();
    debug_assert!(built.is_ok(), "Duel's vocabulary is well formed");
    v
}

/// Duel's `Custom` handlers: none. Every Duel effect is data.
pub fn handlers<'a>() -> HandlerRegistry<Host<'a>> {
    HandlerRegistry::new()
}

fn located(rows: Vec<EffectRow>, file: &str) -> Vec<Located<EffectRow>> {
    let file: Arc<str> = Arc::from(file);
    rows.into_iter()
        .enumerate()
        .map(|(i, value)| Located {
            value,
            origin: RowOrigin {
                file: file.clone(),
                place: RowPlace::Json {
                    index: u32::try_from(i).unwrap_or(u32::MAX),
                },
            },
        })
        .collect()
}

fn compile_effects(
    rows: Vec<Located<EffectRow>>,
    statuses: &[&str],
) -> Result<CompiledEffects, Vec<ContentProblem>> {
    let mut vocabulary = vocabulary();
    for status in statuses {
        if !vocabulary.has_status(status) {
            let _ = vocabulary.status(status);
        }
    }
    let table = EffectTable::compile(rows, &vocabulary, &handlers())?;
    Ok(CompiledEffects {
        table: Arc::new(table),
    })
}

fn compile_phases(
    definitions: Vec<(String, PhaseSequenceDefinition)>,
) -> Result<CompiledPhases, Vec<ContentProblem>> {
    let schema =
        phase_condition_schema(PHASE_RESOURCES, PHASE_TAGS, COMMAND_TYPES).map_err(|e| {
            vec![ContentProblem::new(
                "",
                Location::File,
                "bad_schema",
                e.to_string(),
            )]
        })?;
    let context = ValidationContext::new(&schema).with_command_types(COMMAND_TYPES);
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

fn pointer(p: String) -> Location {
    Location::Pointer { pointer: p }
}

/// Reads a bundle: every problem of every file, each at its file and row and column or pointer.
pub fn load(source: &BundleSource) -> Result<DuelContent, Vec<ContentProblem>> {
    let manifest = BundleManifest::read(source, Some(crate::GAME_ID), CONTENT_KINDS)?;
    let mut problems = Vec::new();
    let files_of = |kind: &str| -> Vec<String> {
        manifest
            .files
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.path.clone())
            .collect()
    };
    let one_of = |kind: &str, problems: &mut Vec<ContentProblem>| -> Option<String> {
        let files = files_of(kind);
        if files.len() != 1 {
            problems.push(ContentProblem::new(
                MANIFEST_FILE,
                pointer("/files".into()),
                "wrong_file_count",
                format!(
                    "a Duel bundle lists exactly one `{kind}` file, this one lists {}",
                    files.len()
                ),
            ));
        }
        files.into_iter().next()
    };

    // Rules.
    let rules = one_of("rules", &mut problems).and_then(|path| {
        let rules = source
            .json::<DuelRules>(&path)
            .map_err(|p| problems.push(p))
            .ok()?;
        // Numbers that would make every match degenerate: everyone dead at setup, every draw
        // burned, or the match over before its first activation.
        for (field, value, why) in [
            (
                "startingHealth",
                rules.starting_health,
                "a seat at 0 health has lost before the first turn",
            ),
            (
                "handLimit",
                rules.hand_limit,
                "every drawn card would be burned",
            ),
            (
                "maxTurns",
                rules.max_turns,
                "the match would end in a draw before its first activation",
            ),
        ] {
            if value == 0 {
                problems.push(ContentProblem::new(
                    &path,
                    pointer(format!("/{field}")),
                    "bad_rule_value",
                    format!("`{field}` is 0, but it must be 1 or more: {why}"),
                ));
            }
        }
        for p in rules.lifecycle.validate(&initiative_schema()) {
            problems.push(ContentProblem::new(
                &path,
                pointer(format!("/lifecycle{}", p.pointer)),
                &p.code,
                p.message,
            ));
        }
        Some(rules)
    });

    // Statuses.
    let mut statuses = BTreeMap::new();
    if let Some(path) = one_of("statuses", &mut problems) {
        match source.json::<Vec<StatusDefinition>>(&path) {
            Ok(list) => {
                for (i, s) in list.into_iter().enumerate() {
                    if statuses.contains_key(&s.status_id) {
                        problems.push(ContentProblem::new(
                            &path,
                            pointer(format!("/{i}/statusId")),
                            "duplicate_status_id",
                            format!("status `{}` is defined twice", s.status_id),
                        ));
                    }
                    statuses.insert(s.status_id.clone(), s);
                }
            }
            Err(p) => problems.push(p),
        }
    }

    // Cards.
    let mut cards = BTreeMap::new();
    let mut card_origin: BTreeMap<String, RowOrigin> = BTreeMap::new();
    for path in files_of("cards") {
        let loaded = RowLoader::<CardDefinition>::new().source(source, &path);
        problems.extend(loaded.problems);
        for row in loaded.rows {
            let card = row.value;
            if let Some(bad) = card
                .tag_list()
                .find(|t| !t.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
            {
                problems.push(row.origin.problem(
                    "tags",
                    "bad_tag",
                    format!(
                        "tag `{bad}` of card `{}` must be lowercase letters and `_`",
                        card.card_id
                    ),
                ));
            }
            problems.extend(unit_stat_problems(&card, &row.origin));
            if card.card_id.is_empty() {
                problems.push(
                    row.origin
                        .problem("cardId", "empty_id", "a card needs an id"),
                );
            } else if let Some(first) = card_origin.get(&card.card_id) {
                problems.push(row.origin.problem(
                    "cardId",
                    "duplicate_card_id",
                    format!(
                        "card `{}` is already defined at {}{}",
                        card.card_id,
                        first.file,
                        first.at("cardId")
                    ),
                ));
            } else {
                card_origin.insert(card.card_id.clone(), row.origin.clone());
                cards.insert(card.card_id.clone(), card);
            }
        }
    }

    // Decks.
    let mut decks = BTreeMap::new();
    if let Some(path) = one_of("decks", &mut problems) {
        match source.json::<Vec<DeckDefinition>>(&path) {
            Ok(list) => {
                for (i, d) in list.into_iter().enumerate() {
                    if d.cards.is_empty() {
                        problems.push(ContentProblem::new(
                            &path,
                            pointer(format!("/{i}/cards")),
                            "empty_deck",
                            format!("deck `{}` has no cards", d.deck_id),
                        ));
                    }
                    for (j, c) in d.cards.iter().enumerate() {
                        if !cards.contains_key(c) {
                            problems.push(ContentProblem::new(
                                &path,
                                pointer(format!("/{i}/cards/{j}")),
                                "unknown_card",
                                format!(
                                    "deck `{}` names card `{c}`, which cards do not define",
                                    d.deck_id
                                ),
                            ));
                        }
                    }
                    if decks.contains_key(&d.deck_id) {
                        problems.push(ContentProblem::new(
                            &path,
                            pointer(format!("/{i}/deckId")),
                            "duplicate_deck_id",
                            format!("deck `{}` is defined twice", d.deck_id),
                        ));
                    }
                    decks.insert(d.deck_id.clone(), d);
                }
            }
            Err(p) => problems.push(p),
        }
    }

    // Effect rows: sheets (or JSON rows) loaded into the one executor's rows.
    let effect_files = files_of("effects");
    let loader = turnstile_effects::effect_loader::<turnstile_effects::Plain>();
    let mut rows = Vec::new();
    for path in &effect_files {
        let loaded = loader.source(source, path);
        problems.extend(loaded.problems);
        rows.extend(loaded.rows);
    }
    // A row owned by a card or status the content does not define is refused.
    for row in &rows {
        let owner = &row.value.owner;
        let known = match owner.kind() {
            "card" => cards.contains_key(owner.id()),
            "status" => statuses.contains_key(owner.id()),
            _ => true,
        };
        if !known {
            problems.push(row.origin.problem(
                "owner",
                "unknown_owner",
                format!("`{owner}` names no {} of the bundle", owner.kind()),
            ));
        }
    }
    // A chance roll's outcome would show in a preview of the play (the opponent's health
    // after a hit), and Duel's preview hides only draws; until it can hide rolls, Duel content
    // has no `Chance` conditions (docs/duel.md, decision 7).
    for row in &rows {
        if matches!(
            row.value.condition,
            turnstile_effects::Condition::Chance { .. }
        ) {
            problems.push(row.origin.problem(
                "condition.$type",
                "chance_not_supported",
                format!(
                    "row of `{}`: Duel does not take `Chance` conditions, because a preview of the play would show the roll's outcome to the seat before it commits; use `Always`, `Formula` or `HasStatus`",
                    row.value.owner
                ),
            ));
        }
    }
    let status_ids: Vec<&str> = statuses.keys().map(String::as_str).collect();
    let effects = match compile_effects(rows, &status_ids) {
        Ok(e) => Some(e),
        Err(p) => {
            problems.extend(p);
            None
        }
    };

    // Phase sequences, validated by crates/phases, their effect ids checked against the rows.
    let mut definitions = Vec::new();
    let schema =
        phase_condition_schema(PHASE_RESOURCES, PHASE_TAGS, COMMAND_TYPES).unwrap_or_default();
    let context = ValidationContext::new(&schema).with_command_types(COMMAND_TYPES);
    for path in files_of("phases") {
        match source.text(&path) {
            Ok(text) => match turnstile_phases::load_sequence(&path, text, &context) {
                Ok(sequence) => definitions.push((path, sequence.definition().clone())),
                Err(p) => problems.extend(p),
            },
            Err(p) => problems.push(p),
        }
    }
    for (path, d) in &definitions {
        for (i, phase) in d.phases.iter().enumerate() {
            for (moment, list) in [
                ("entryEffects", &phase.entry_effects),
                ("exitEffects", &phase.exit_effects),
            ] {
                for (j, effect) in list.iter().enumerate() {
                    let owner = format!("effect:{effect}");
                    let exists = effects
                        .as_ref()
                        .is_some_and(|e| e.table.owner_key(&owner).is_some());
                    if effects.is_some() && !exists {
                        problems.push(ContentProblem::new(
                            path,
                            pointer(format!("/phases/{i}/{moment}/{j}")),
                            "unknown_effect",
                            format!(
                                "sequence `{}`, phase `{}`: effect `{effect}` has no rows (owner `{owner}`, trigger {RUN_TRIGGER})",
                                d.sequence_id, phase.phase_id
                            ),
                        ));
                    }
                }
            }
        }
    }
    if let (Some(r), Some(e)) = (&rules, &effects) {
        for (field, list) in [
            ("startRoundEffects", &r.lifecycle.start_round_effects),
            ("endRoundEffects", &r.lifecycle.end_round_effects),
        ] {
            for (j, effect) in list.iter().enumerate() {
                let owner = format!("effect:{effect}");
                if e.table.owner_key(&owner).is_none() {
                    problems.push(ContentProblem::new(
                        "rules.json",
                        pointer(format!("/lifecycle/{field}/{j}")),
                        "unknown_effect",
                        format!(
                            "round hook `{field}`: effect `{effect}` has no rows (owner `{owner}`, trigger {RUN_TRIGGER})"
                        ),
                    ));
                }
            }
        }
    }
    let phases = match compile_phases(definitions) {
        Ok(p) => Some(p),
        Err(p) => {
            problems.extend(p);
            None
        }
    };

    match (rules, effects, phases) {
        (Some(rules), Some(effects), Some(phases)) if problems.is_empty() => Ok(DuelContent::new(
            rules, cards, statuses, decks, effects, phases,
        )),
        _ => {
            if problems.is_empty() {
                problems.push(ContentProblem::new(
                    MANIFEST_FILE,
                    Location::File,
                    "incomplete_bundle",
                    "the bundle is missing a part Duel needs",
                ));
            }
            Err(problems)
        }
    }
}

/// The default content, compiled into the crate.
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
    ("cards.tsv", include_str!("../content/cards.tsv")),
    ("statuses.json", include_str!("../content/statuses.json")),
    ("decks.json", include_str!("../content/decks.json")),
    (
        "effects/cards.tsv",
        include_str!("../content/effects/cards.tsv"),
    ),
    (
        "effects/rules.tsv",
        include_str!("../content/effects/rules.tsv"),
    ),
    (
        "phases/classic-style.json",
        include_str!("../content/phases/classic-style.json"),
    ),
    (
        "phases/hearthstone-style.json",
        include_str!("../content/phases/hearthstone-style.json"),
    ),
    (
        "phases/priority-window.json",
        include_str!("../content/phases/priority-window.json"),
    ),
];
