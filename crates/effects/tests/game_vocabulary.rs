//! A game the engine has never heard of declares its own vocabulary and runs rows with it:
//! an orchard of trees in a row, with a trigger of its own (`OnHarvest`), scopes of its own
//! (`EveryTree`, `NextTree`) and operations of its own (`Grow`, `Prune`). Its rows load from a
//! sheet like any game's, its mistakes are refused at their row and column, its steps carry
//! its names, and the report lists what it declares.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use turnstile_core::determinism::{Fixed, StreamTable, Streams};
use turnstile_core::Seat;
use turnstile_effects::{
    effect_columns, effect_loader, Amount, Change, CompiledAmount, CompiledFactor, EffectHost,
    EffectLedger, EffectRow, EffectState, EffectTable, EffectVocabulary, Event, Executor,
    GameOperation, GameScope, GameVocabulary, HandlerRegistry, HostError, Named, Operation,
    OperationCompiler, OperationError, OwnerInstance, Owners, RegistryError, ResourceKind,
    RowContext, Scope, StatusBoard, Step, Target, ThingId, Trigger,
};
use turnstile_formula::{FormulaText, Type, Value, VariableSchema};

/// The orchard's vocabulary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Orchard;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum OrchardTrigger {
    OnHarvest,
    OnFrost,
}

impl Named for OrchardTrigger {
    const ALL: &'static [OrchardTrigger] = &[OrchardTrigger::OnHarvest, OrchardTrigger::OnFrost];

    fn name(self) -> &'static str {
        match self {
            OrchardTrigger::OnHarvest => "OnHarvest",
            OrchardTrigger::OnFrost => "OnFrost",
        }
    }

    fn description(self) -> &'static str {
        match self {
            OrchardTrigger::OnHarvest => "The fruit is picked.",
            OrchardTrigger::OnFrost => "A frost night.",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum OrchardScope {
    EveryTree,
    NextTree,
    Picked,
}

impl Named for OrchardScope {
    const ALL: &'static [OrchardScope] = &[
        OrchardScope::EveryTree,
        OrchardScope::NextTree,
        OrchardScope::Picked,
    ];

    fn name(self) -> &'static str {
        match self {
            OrchardScope::EveryTree => "EveryTree",
            OrchardScope::NextTree => "NextTree",
            OrchardScope::Picked => "Picked",
        }
    }

    fn description(self) -> &'static str {
        match self {
            OrchardScope::EveryTree => "Every tree, first to last.",
            OrchardScope::NextTree => "The tree after the owner's, if any.",
            OrchardScope::Picked => "The tree being picked (the event's target).",
        }
    }
}

impl GameScope for OrchardScope {
    fn needs_event(self) -> bool {
        self == OrchardScope::Picked
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]
enum OrchardOperation {
    /// Makes the target tree taller.
    Grow {
        /// By how much.
        amount: Amount,
    },
    /// Scales the target tree's height by a factor, floored.
    Prune {
        /// The factor.
        #[schemars(with = "String")]
        factor: FormulaText,
    },
}

impl GameOperation for OrchardOperation {
    const NAMES: &'static [&'static str] = &["Grow", "Prune"];
    const COLUMNS: &'static [&'static str] = &["operation.amount", "operation.factor"];

    fn kind(&self) -> &'static str {
        match self {
            OrchardOperation::Grow { .. } => "Grow",
            OrchardOperation::Prune { .. } => "Prune",
        }
    }

    fn describe(name: &str) -> Option<&'static str> {
        match name {
            "Grow" => Some("Makes the target tree taller."),
            "Prune" => Some("Scales the target tree's height by a factor, floored."),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
enum CompiledOrchard {
    Grow(CompiledAmount),
    Prune(CompiledFactor),
}

impl GameVocabulary for Orchard {
    type Trigger = OrchardTrigger;
    type Scope = OrchardScope;
    type Operation = OrchardOperation;
    type Compiled = CompiledOrchard;

    fn compile(
        operation: &OrchardOperation,
        compiler: &mut OperationCompiler<'_>,
    ) -> Option<CompiledOrchard> {
        compiler.subject("height");
        match operation {
            OrchardOperation::Grow { amount } => compiler
                .amount("operation.amount", amount)
                .map(CompiledOrchard::Grow),
            OrchardOperation::Prune { factor } => compiler
                .factor("operation.factor", factor)
                .map(CompiledOrchard::Prune),
        }
    }
}

const STREAMS: StreamTable = StreamTable::new(&["weather"]);

/// Trees `0..n` are things; tree `i` is `ThingId(i)`. Seat 0 is the grower.
#[derive(Debug, Clone)]
struct Grove {
    heights: Vec<i64>,
    /// The owners present, in order: owner, its tree.
    present: Vec<(String, u32)>,
    streams: Streams,
    statuses: StatusBoard,
    ledger: EffectLedger,
    water: i64,
}

impl Grove {
    fn new(heights: &[i64]) -> Grove {
        Grove {
            heights: heights.to_vec(),
            present: Vec::new(),
            streams: Streams::new("orchard", &STREAMS).unwrap(),
            statuses: StatusBoard::default(),
            ledger: EffectLedger::new(),
            water: 0,
        }
    }

    fn tree(&mut self, target: Target) -> Result<&mut i64, HostError> {
        match target {
            Target::Thing(ThingId(i)) => self
                .heights
                .get_mut(i as usize)
                .ok_or_else(|| HostError::not_applicable("a tree operation", target)),
            Target::Seat(_) => Err(HostError::not_applicable("a tree operation", target)),
        }
    }
}

impl EffectHost for Grove {
    type Vocabulary = Orchard;

    fn seat_count(&self) -> u16 {
        1
    }

    fn round(&self) -> u32 {
        0
    }

    fn owners(&self, _event: &Event<Orchard>, owners: &mut Owners<'_, Orchard>) {
        for (owner, tree) in &self.present {
            owners.push(owner, Target::Thing(ThingId(*tree)), Some(Seat(0)));
        }
    }

    fn variable(&self, context: &RowContext<'_, Orchard>, slot: u16) -> Option<Value> {
        match (slot, context.target) {
            (0, Target::Thing(ThingId(i))) => self.heights.get(i as usize).copied().map(Value::Int),
            _ => None,
        }
    }

    fn streams(&mut self) -> &mut Streams {
        &mut self.streams
    }

    fn resource(&self, target: Target, resource: &str) -> Option<i64> {
        (target == Target::Seat(Seat(0)) && resource == "water").then_some(self.water)
    }

    fn set_resource(
        &mut self,
        target: Target,
        resource: &str,
        value: i64,
    ) -> Result<(), HostError> {
        if target == Target::Seat(Seat(0)) && resource == "water" {
            self.water = value;
            Ok(())
        } else {
            Err(HostError::no_resource(target, resource))
        }
    }

    fn effects(&mut self) -> EffectState<'_> {
        EffectState {
            statuses: &mut self.statuses,
            ledger: &mut self.ledger,
        }
    }

    fn reset_rules(&mut self) {}

    fn draw(
        &mut self,
        target: Target,
        _count: i64,
        _caused: &mut Vec<Event<Orchard>>,
    ) -> Result<Change, HostError> {
        Err(HostError::not_applicable("Draw", target))
    }

    fn scope_targets(
        &self,
        scope: OrchardScope,
        owner: &OwnerInstance,
        event: &Event<Orchard>,
        out: &mut Vec<Target>,
    ) {
        let count = u32::try_from(self.heights.len()).unwrap_or(u32::MAX);
        match scope {
            OrchardScope::EveryTree => out.extend((0..count).map(|i| Target::Thing(ThingId(i)))),
            OrchardScope::NextTree => {
                if let Target::Thing(ThingId(i)) = owner.anchor {
                    if i + 1 < count {
                        out.push(Target::Thing(ThingId(i + 1)));
                    }
                }
            }
            OrchardScope::Picked => out.extend(event.target),
        }
    }

    fn operate(
        &mut self,
        operation: &CompiledOrchard,
        context: &RowContext<'_, Orchard>,
        _caused: &mut Vec<Event<Orchard>>,
    ) -> Result<Change, OperationError> {
        match operation {
            CompiledOrchard::Grow(amount) => {
                let amount = amount.eval(&*self, context)?;
                let tree = self.tree(context.target)?;
                let before = *tree;
                *tree = before.saturating_add(amount);
                Ok(Change::int(before, *tree))
            }
            CompiledOrchard::Prune(factor) => {
                let factor = factor.eval(&*self, context)?;
                let tree = self.tree(context.target)?;
                let before = *tree;
                *tree = Fixed::from_int(before).mul(factor).value.floor_int();
                Ok(Change::int(before, *tree))
            }
        }
    }
}

fn vocabulary() -> EffectVocabulary {
    let variables = VariableSchema::from_declarations([("height", Type::Int)]).unwrap();
    let mut vocabulary = EffectVocabulary::new(variables);
    vocabulary
        .owner_kind("tree")
        .unwrap()
        .resource("water", ResourceKind::State)
        .unwrap()
        .streams_of(&STREAMS)
        .unwrap();
    vocabulary
}

fn handlers() -> HandlerRegistry<Grove> {
    HandlerRegistry::new()
}

fn columns() -> Vec<&'static str> {
    effect_columns::<Orchard>()
}

/// A sheet of the orchard's columns from rows given by column name.
fn sheet(rows: &[&[(&str, &str)]]) -> String {
    let columns = columns();
    let mut text = columns.join("\t");
    text.push('\n');
    for row in rows {
        let cells: Vec<&str> = columns
            .iter()
            .map(|c| row.iter().find(|(k, _)| k == c).map_or("", |(_, v)| *v))
            .collect();
        text.push_str(&cells.join("\t"));
        text.push('\n');
    }
    text
}

fn load(text: &str) -> Result<EffectTable<Orchard>, Vec<String>> {
    let loaded = effect_loader::<Orchard>().sheet("orchard.tsv", text);
    let mut lines: Vec<String> = loaded.problems.iter().map(ToString::to_string).collect();
    match EffectTable::compile(loaded.rows, &vocabulary(), &handlers()) {
        Ok(table) if lines.is_empty() => Ok(table),
        Ok(_) => Err(lines),
        Err(problems) => {
            lines.extend(problems.iter().map(ToString::to_string));
            Err(lines)
        }
    }
}

const GROW_ALL: &[(&str, &str)] = &[
    ("owner", "tree:apple"),
    ("order", "0"),
    ("trigger", "OnHarvest"),
    ("condition.$type", "Always"),
    ("operation.$type", "Grow"),
    ("operation.amount", "2"),
    ("scope", "EveryTree"),
    ("duration", "Permanent"),
];

const DOUBLE_NEXT: &[(&str, &str)] = &[
    ("owner", "tree:apple"),
    ("order", "1"),
    ("trigger", "OnHarvest"),
    ("condition.$type", "Formula"),
    ("condition.formula", "height > 3"),
    ("operation.$type", "Grow"),
    ("operation.amount", "height"),
    ("scope", "NextTree"),
    ("duration", "Permanent"),
];

const PRUNE_PICKED: &[(&str, &str)] = &[
    ("owner", "tree:pear"),
    ("order", "0"),
    ("trigger", "OnHarvest"),
    ("condition.$type", "Always"),
    ("operation.$type", "Prune"),
    ("operation.factor", "0.5"),
    ("scope", "Picked"),
    ("duration", "Permanent"),
];

const WATER_ON_FROST: &[(&str, &str)] = &[
    ("owner", "tree:pear"),
    ("order", "1"),
    ("trigger", "OnFrost"),
    ("condition.$type", "Always"),
    ("operation.$type", "GainResource"),
    ("operation.resource", "water"),
    ("operation.amount", "5"),
    ("scope", "Owner"),
    ("duration", "Permanent"),
];

fn orchard() -> EffectTable<Orchard> {
    load(&sheet(&[
        GROW_ALL,
        DOUBLE_NEXT,
        PRUNE_PICKED,
        WATER_ON_FROST,
    ]))
    .unwrap_or_else(|problems| panic!("{problems:#?}"))
}

fn harvest(grove: &mut Grove, table: &EffectTable<Orchard>, picked: u32) -> Vec<Step> {
    let handlers = handlers();
    let mut steps = Vec::new();
    let event = Event::new(Trigger::Game(OrchardTrigger::OnHarvest))
        .by(Seat(0))
        .at(Target::Thing(ThingId(picked)));
    Executor::new(table, &handlers)
        .resolve(grove, event, &mut steps)
        .unwrap();
    steps
}

#[test]
fn a_game_s_own_trigger_scopes_and_operations_load_and_run() {
    let table = orchard();
    assert_eq!(
        table.rows()[0].trigger,
        Trigger::Game(OrchardTrigger::OnHarvest)
    );
    assert_eq!(table.rows()[0].scope, Scope::Game(OrchardScope::EveryTree));
    assert_eq!(
        table.rows()[0].operation,
        Operation::Game(OrchardOperation::Grow {
            amount: Amount::Value(2)
        })
    );
    // The apple tree is tree 0, the pear tree 2 (the middle one has no rows).
    let mut grove = Grove::new(&[1, 0, 9]);
    grove.present = vec![("tree:apple".into(), 0), ("tree:pear".into(), 2)];
    let steps = harvest(&mut grove, &table, 2);
    // apple row 0: every tree +2 → [3, 2, 11]; apple row 1: its next tree is 2 tall, not
    // more than 3, so nothing; pear row 0: the picked tree (2) halved, floored → 5.
    assert_eq!(grove.heights, vec![3, 2, 5]);
    let described: Vec<(String, String, String, Option<String>)> = steps
        .iter()
        .map(|s| {
            (
                s.owner.to_string(),
                s.trigger.to_string(),
                s.operation.to_string(),
                s.subject.as_deref().map(str::to_owned),
            )
        })
        .collect();
    let step = |owner: &str, operation: &str| {
        (
            owner.to_owned(),
            "OnHarvest".to_owned(),
            operation.to_owned(),
            Some("height".to_owned()),
        )
    };
    assert_eq!(
        described,
        vec![
            step("tree:apple", "Grow"),
            step("tree:apple", "Grow"),
            step("tree:apple", "Grow"),
            step("tree:pear", "Prune"),
        ]
    );
    // A second harvest, of tree 0: +2 each → [5, 4, 7]; the next tree is now 4 > 3, so it
    // grows by its own height → 8; the pear prunes the picked tree 0 → 2.
    let steps = harvest(&mut grove, &table, 0);
    assert_eq!(grove.heights, vec![2, 8, 7]);
    assert_eq!(steps.len(), 5);
    // The engine's operations still run beside the game's: a frost waters the seat.
    let handlers = handlers();
    let mut steps = Vec::new();
    Executor::new(&table, &handlers)
        .resolve(
            &mut grove,
            Event::new(Trigger::Game(OrchardTrigger::OnFrost)),
            &mut steps,
        )
        .unwrap();
    assert_eq!(grove.water, 5);
    assert_eq!(steps.len(), 1);
}

#[test]
fn a_game_s_rows_write_back_in_the_form_they_were_read() {
    let table = orchard();
    let json = effect_loader::<Orchard>().write_json(table.rows()).unwrap();
    assert!(json.contains(r#""$type": "Grow""#), "{json}");
    assert!(json.contains(r#""scope": "EveryTree""#), "{json}");
    assert!(json.contains(r#""trigger": "OnHarvest""#), "{json}");
    let again = effect_loader::<Orchard>().json("again.json", &json);
    assert_eq!(again.problems, vec![]);
    let rows: Vec<EffectRow<Orchard>> = again.rows.into_iter().map(|r| r.value).collect();
    assert_eq!(rows, table.rows());
    let text = effect_loader::<Orchard>()
        .write_sheet(table.rows(), &columns())
        .unwrap();
    let table_again = load(&text).unwrap();
    assert_eq!(table_again.rows(), table.rows());
}

#[test]
fn a_game_s_mistakes_are_refused_at_their_row_and_column() {
    let bad_amount: &[(&str, &str)] = &[
        ("owner", "tree:apple"),
        ("order", "0"),
        ("trigger", "OnHarvest"),
        ("condition.$type", "Always"),
        ("operation.$type", "Grow"),
        ("operation.amount", "height > 1"),
        ("scope", "EveryTree"),
        ("duration", "Permanent"),
    ];
    let passive_picked: &[(&str, &str)] = &[
        ("owner", "tree:apple"),
        ("order", "1"),
        ("trigger", "Passive"),
        ("condition.$type", "Always"),
        ("operation.$type", "Grow"),
        ("operation.amount", "1"),
        ("scope", "Picked"),
        ("duration", "Permanent"),
    ];
    let bad_factor: &[(&str, &str)] = &[
        ("owner", "tree:apple"),
        ("order", "2"),
        ("trigger", "OnHarvest"),
        ("condition.$type", "Always"),
        ("operation.$type", "Prune"),
        ("operation.factor", "height > 2"),
        ("scope", "EveryTree"),
        ("duration", "Permanent"),
    ];
    let problems = load(&sheet(&[bad_amount, passive_picked, bad_factor])).unwrap_err();
    // Row 2 is the first data row of the sheet; each problem names its column.
    assert_eq!(
        problems,
        vec![
            "orchard.tsv: row 2, column operation.amount: the amount `height > 1` gives a Bool, but an amount is a whole number (amount_not_integer)",
            "orchard.tsv: row 3, column operation.$type: a `Passive` row is applied again at every rebuild, so it may only change a rule resource (`GainResource`/`SpendResource` of a Rule resource) or call a `Custom` handler, not `Grow` (passive_operation)",
            "orchard.tsv: row 3, column scope: scope `Picked` needs an event, and a `Passive` row has none: use `Self`, `Owner`, `Opponent` or `AllSeats` (scope_not_applicable)",
            "orchard.tsv: row 4, column operation.factor: the amount `height > 2` gives a Bool, but an amount is a whole number (amount_not_integer)",
        ]
    );
    let unknown: &[(&str, &str)] = &[
        ("owner", "tree:apple"),
        ("order", "0"),
        ("trigger", "OnHarvest"),
        ("condition.$type", "Always"),
        ("operation.$type", "Graft"),
        ("scope", "EveryTree"),
        ("duration", "Permanent"),
    ];
    let problems = load(&sheet(&[unknown])).unwrap_err().join("\n");
    assert!(problems.contains("Graft"), "{problems}");
    assert!(
        problems.contains("Grow"),
        "the game's operations are offered: {problems}"
    );
    let unknown_scope: &[(&str, &str)] = &[
        ("owner", "tree:apple"),
        ("order", "0"),
        ("trigger", "OnHarvest"),
        ("condition.$type", "Always"),
        ("operation.$type", "Grow"),
        ("operation.amount", "1"),
        ("scope", "EveryBush"),
        ("duration", "Permanent"),
    ];
    let problems = load(&sheet(&[unknown_scope])).unwrap_err().join("\n");
    assert!(problems.contains("EveryBush"), "{problems}");
    assert!(problems.contains("scope"), "{problems}");
    // The game's trigger needs no declaration; an undeclared custom one is refused.
    let undeclared: &[(&str, &str)] = &[
        ("owner", "tree:apple"),
        ("order", "0"),
        ("trigger", "OnDrought"),
        ("condition.$type", "Always"),
        ("operation.$type", "Grow"),
        ("operation.amount", "1"),
        ("scope", "EveryTree"),
        ("duration", "Permanent"),
    ];
    let problems = load(&sheet(&[undeclared])).unwrap_err().join("\n");
    assert!(problems.contains("unknown_trigger"), "{problems}");
    assert!(
        problems.contains("OnHarvest"),
        "built-ins listed: {problems}"
    );
}

#[test]
fn the_report_lists_what_the_game_declares_with_its_rows() {
    let report = orchard().report();
    assert_eq!(report.rows, 4);
    assert_eq!(
        report.game_triggers.into_iter().collect::<Vec<_>>(),
        vec![("OnFrost".to_owned(), 1), ("OnHarvest".to_owned(), 3)]
    );
    assert_eq!(
        report.game_scopes.into_iter().collect::<Vec<_>>(),
        vec![
            ("EveryTree".to_owned(), 1),
            ("NextTree".to_owned(), 1),
            ("Picked".to_owned(), 1)
        ]
    );
    assert_eq!(
        report.game_operations.into_iter().collect::<Vec<_>>(),
        vec![("Grow".to_owned(), 2), ("Prune".to_owned(), 1)]
    );
    assert_eq!(report.rows_by_operation["GainResource"], 1);
    assert_eq!(report.rows_by_operation["Grow"], 2);
}

#[test]
fn the_schema_and_columns_carry_the_game_s_names() {
    let schema = serde_json::to_string(&schemars::schema_for!(EffectRow<Orchard>)).unwrap();
    for needle in [
        "\"Grow\"",
        "\"Prune\"",
        "\"EveryTree\"",
        "\"OnHarvest\"",
        "\"Damage\"",
    ] {
        assert!(schema.contains(needle), "{needle} missing");
    }
    let columns = columns();
    assert!(columns.contains(&"operation.factor"));
    assert_eq!(columns.last(), Some(&"duration"));
    assert_eq!(
        columns.iter().filter(|c| **c == "operation.amount").count(),
        1
    );
}

fn noop(
    _: &mut Grove,
    _: &turnstile_effects::HandlerCall<'_, Orchard>,
    _: &mut Vec<Event<Orchard>>,
) -> Result<Change, HostError> {
    Ok(Change::int(0, 0))
}

#[test]
fn handler_ids_are_unique_snake_case_and_documented() {
    let mut registry = HandlerRegistry::<Grove>::new();
    registry
        .register("swap_hands", "Swaps the two hands.", noop)
        .unwrap();
    let code = |r: Result<&mut HandlerRegistry<Grove>, RegistryError>| r.unwrap_err().code();
    assert_eq!(
        code(registry.register("swap_hands", "Again.", noop)),
        "duplicate_handler"
    );
    assert_eq!(
        code(registry.register("SwapHands", "Camel.", noop)),
        "bad_handler_id"
    );
    assert_eq!(
        code(registry.register("steal", "  ", noop)),
        "undocumented_handler"
    );
    assert_eq!(
        registry.descriptions().collect::<Vec<_>>(),
        [("swap_hands", "Swaps the two hands.")]
    );
}
