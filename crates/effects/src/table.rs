//! Effect rows checked against a game and compiled: the [`EffectTable`] the executor runs.
//!
//! Compiling is where content meets the game: formulas are compiled against the game's
//! variables, names (triggers, resources, statuses, streams, handlers, owner kinds) are
//! looked up in its [`EffectVocabulary`] and [`HandlerRegistry`], and combinations that can
//! only be mistakes are refused. Every problem of every row is reported, at the row's file
//! and row and column (or JSON pointer).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Serialize, Serializer};
use turnstile_core::determinism::Chance;
use turnstile_core::{BundleSource, ContentProblem};
use turnstile_formula::{Formula, FormulaError, FormulaText, Type};
use turnstile_sheets::{Loaded, Located, Names, RowLoader, RowOrigin};

use crate::game::{GameOperation, GameVocabulary, Named, Plain};
use crate::handlers::HandlerRegistry;
use crate::host::EffectHost;
use crate::row::{Amount, Condition, Duration, EffectRow, Operation, OwnerRef, Scope, Trigger};
use crate::vocabulary::{EffectVocabulary, ResourceKind, HEALTH};

/// The most rows one table may hold.
pub const MAX_ROWS: usize = 1 << 20;

/// An owner's key in an [`EffectTable`]: found once by name, then used to list owners
/// without looking names up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OwnerKey(u32);

/// Why a row was refused at load. Every variant has a stable [`code`](LoadError::code).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// Two rows of one owner with the same `order`.
    #[error("`{owner}` already has a row with order {order} (at {first}); each row of an owner has its own order")]
    DuplicateOrder {
        /// The owner.
        owner: String,
        /// The order.
        order: u32,
        /// Where the first one is.
        first: String,
    },
    /// An owner kind the game does not declare.
    #[error("`{kind}` is not an owner kind of this game: use one of {known}")]
    UnknownOwnerKind {
        /// The kind.
        kind: String,
        /// The declared kinds.
        known: Names,
    },
    /// A custom trigger the game does not declare.
    #[error("`{name}` is neither a built-in trigger nor one this game declares; built-in: {built_in}; declared: {known}")]
    UnknownTrigger {
        /// The name.
        name: String,
        /// The built-in triggers.
        built_in: Names,
        /// The declared custom triggers.
        known: Names,
    },
    /// A formula that does not compile against the game's variables.
    #[error("the formula `{text}` does not compile: {error} ({code})", code = error.code())]
    Formula {
        /// The formula.
        text: String,
        /// Why.
        error: FormulaError,
    },
    /// An amount formula that does not give an integer.
    #[error("the amount `{text}` gives a {found}, but an amount is a whole number")]
    AmountNotInteger {
        /// The formula.
        text: String,
        /// Its type.
        found: Type,
    },
    /// A stream the game does not declare.
    #[error("`{name}` is not a random stream of this game: use one of {known}")]
    UnknownStream {
        /// The name.
        name: String,
        /// The declared streams.
        known: Names,
    },
    /// A status the game does not declare.
    #[error("`{name}` is not a status of this game: use one of {known}")]
    UnknownStatus {
        /// The name.
        name: String,
        /// The declared statuses.
        known: Names,
    },
    /// A resource the game does not declare.
    #[error("`{name}` is not a resource of this game: use one of {known}")]
    UnknownResource {
        /// The name.
        name: String,
        /// The declared resources.
        known: Names,
    },
    /// `Damage` or `Heal` in a game without a `health` state resource.
    #[error(
        "`{operation}` changes `health`, which this game does not declare as a state resource"
    )]
    NoHealth {
        /// The operation.
        operation: String,
    },
    /// A handler id nothing is registered under.
    #[error("no handler is registered as `{id}`; registered: {known}")]
    UnknownHandler {
        /// The id.
        id: String,
        /// The registered ids.
        known: Names,
    },
    /// A lasting duration on a change that happens at once.
    #[error("{operation} changes the world at once and stays changed, so its duration is `Permanent`; only a change of a rule resource lasts `{duration}`")]
    DurationNotApplicable {
        /// The operation (and resource), in words.
        operation: String,
        /// The duration written.
        duration: String,
    },
    /// A `Passive` row whose operation would pile up at every rebuild.
    #[error("a `Passive` row is applied again at every rebuild, so it may only change a rule resource (`GainResource`/`SpendResource` of a Rule resource) or call a `Custom` handler, not {operation}")]
    PassiveOperation {
        /// The operation.
        operation: String,
    },
    /// A `Passive` row with a `Chance`.
    #[error("a `Passive` row is checked again at every rebuild, and a `Chance` would draw again each time: roll the chance in a triggered row")]
    PassiveChance,
    /// A `Passive` row with a duration other than `Permanent`.
    #[error("a `Passive` row lasts while its owner is present: its duration is `Permanent`, not `{duration}`")]
    PassiveDuration {
        /// The duration written.
        duration: String,
    },
    /// A scope that can give no target for this trigger.
    #[error("scope `{scope}` needs an event, and a `Passive` row has none: use `Self`, `Owner`, `Opponent` or `AllSeats`")]
    ScopeNotApplicable {
        /// The scope.
        scope: String,
    },
    /// `SetRule` in a row that is not `Passive`.
    #[error("`SetRule` holds while its owner is present, so its trigger is `Passive`; a triggered rule change is `GainResource` with a duration")]
    SetRuleNotPassive,
    /// Too many rows.
    #[error("a table holds at most {limit} rows")]
    TooManyRows {
        /// The limit.
        limit: usize,
    },
}

impl LoadError {
    /// The stable, documented code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            LoadError::DuplicateOrder { .. } => "duplicate_order",
            LoadError::UnknownOwnerKind { .. } => "unknown_owner_kind",
            LoadError::UnknownTrigger { .. } => "unknown_trigger",
            LoadError::Formula { .. } => "bad_formula",
            LoadError::AmountNotInteger { .. } => "amount_not_integer",
            LoadError::UnknownStream { .. } => "unknown_stream",
            LoadError::UnknownStatus { .. } => "unknown_status",
            LoadError::UnknownResource { .. } => "unknown_resource",
            LoadError::NoHealth { .. } => "no_health",
            LoadError::UnknownHandler { .. } => "unknown_handler",
            LoadError::DurationNotApplicable { .. } => "duration_not_applicable",
            LoadError::PassiveOperation { .. } => "passive_operation",
            LoadError::PassiveChance => "passive_chance",
            LoadError::PassiveDuration { .. } => "passive_duration",
            LoadError::ScopeNotApplicable { .. } => "scope_not_applicable",
            LoadError::TooManyRows { .. } => "too_many_rows",
            LoadError::SetRuleNotPassive => "set_rule_not_passive",
        }
    }
}

/// An amount, compiled: a number, or a formula giving an `Int` (evaluated with
/// [`CompiledAmount::eval`] when the row acts).
#[derive(Debug, Clone)]
pub struct CompiledAmount(pub(crate) AmountForm);

#[derive(Debug, Clone)]
pub(crate) enum AmountForm {
    Value(i64),
    Formula(Formula),
}

/// A condition, compiled.
#[derive(Debug, Clone)]
pub(crate) enum CompiledCondition {
    Always,
    Formula(Formula),
    Chance {
        chance: Chance,
        stream: Arc<str>,
        /// Checked before the roll; no draw when it fails.
        guard: Option<Formula>,
    },
    HasStatus {
        status: Arc<str>,
        at_least: i64,
    },
}

/// An operation, compiled.
#[derive(Debug, Clone)]
pub(crate) enum CompiledOperation<V: GameVocabulary> {
    Damage(CompiledAmount),
    Heal(CompiledAmount),
    Draw(CompiledAmount),
    GainResource {
        resource: Arc<str>,
        kind: ResourceKind,
        amount: CompiledAmount,
    },
    SpendResource {
        resource: Arc<str>,
        kind: ResourceKind,
        amount: CompiledAmount,
    },
    ApplyStatus {
        status: Arc<str>,
        stacks: CompiledAmount,
        duration_turns: Option<u32>,
    },
    RemoveStatus {
        status: Arc<str>,
        stacks: Option<CompiledAmount>,
    },
    Custom {
        handler: Arc<str>,
        amount: Option<CompiledAmount>,
    },
    SetRule {
        rule: Arc<str>,
        value: CompiledAmount,
    },
    Game(V::Compiled),
}

/// A factor, compiled: a decimal written in the cell (`1.5`), or a formula giving a `Fixed`
/// or an `Int` (evaluated with [`CompiledFactor::eval`] when the row acts).
#[derive(Debug, Clone)]
pub struct CompiledFactor(pub(crate) FactorForm);

#[derive(Debug, Clone)]
pub(crate) enum FactorForm {
    Value(turnstile_core::determinism::Fixed),
    Formula(Formula),
}

/// A row, compiled, with the names its steps carry (shared, so a step costs no allocation).
#[derive(Debug, Clone)]
pub(crate) struct CompiledRow<V: GameVocabulary> {
    pub owner_ref: OwnerRef,
    pub owner_name: Arc<str>,
    pub order: u32,
    pub trigger: Trigger<V>,
    pub trigger_name: Arc<str>,
    pub condition: CompiledCondition,
    pub operation: CompiledOperation<V>,
    pub operation_name: Arc<str>,
    pub subject: Option<Arc<str>>,
    pub scope: Scope<V>,
    pub duration: Duration,
    pub origin: RowOrigin,
}

/// What a game's [`GameVocabulary::compile`] is given to check and compile one of its
/// operations: the game's names, the compilers of amounts and factors, and the place to
/// report a problem at its column.
pub struct OperationCompiler<'a> {
    vocabulary: &'a EffectVocabulary,
    fail: &'a mut dyn FnMut(&str, LoadError),
    subject: Option<Arc<str>>,
}

impl OperationCompiler<'_> {
    /// The game's names (resources, statuses, streams) and formula variables.
    pub fn vocabulary(&self) -> &EffectVocabulary {
        self.vocabulary
    }

    /// Reports a problem in `field` (`operation.amount`): the row is refused.
    pub fn fail(&mut self, field: &str, error: LoadError) {
        (self.fail)(field, error);
    }

    /// Compiles an amount in `field`; `None` when it was refused (and reported).
    pub fn amount(&mut self, field: &str, amount: &Amount) -> Option<CompiledAmount> {
        match compile_amount(amount, self.vocabulary) {
            Ok(amount) => Some(amount),
            Err(error) => {
                self.fail(field, error);
                None
            }
        }
    }

    /// Compiles a factor in `field`: a decimal (`1.5`), or a formula that gives a `Fixed`
    /// or an `Int`; `None` when it was refused (and reported).
    pub fn factor(&mut self, field: &str, text: &FormulaText) -> Option<CompiledFactor> {
        if let Ok(fixed) = text.as_str().trim().parse() {
            return Some(CompiledFactor(FactorForm::Value(fixed)));
        }
        match compile_formula(text, self.vocabulary, false) {
            Ok(formula) if matches!(formula.ty(), Type::Fixed | Type::Int) => {
                Some(CompiledFactor(FactorForm::Formula(formula)))
            }
            Ok(formula) => {
                self.fail(
                    field,
                    LoadError::AmountNotInteger {
                        text: text.as_str().to_owned(),
                        found: formula.ty(),
                    },
                );
                None
            }
            Err(error) => {
                self.fail(field, error);
                None
            }
        }
    }

    /// Names what the operation changes, for its steps' `subject` (`money`, a hand).
    pub fn subject(&mut self, subject: &str) {
        self.subject = Some(Arc::from(subject));
    }
}

#[derive(Debug, Clone)]
struct OwnerEntry<V: GameVocabulary> {
    /// Row indices by trigger, each list sorted by `order`.
    by_trigger: BTreeMap<Trigger<V>, Vec<u32>>,
}

/// How many rows of each sort a table holds: what `turnstile content report` prints.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectReport {
    /// Rows in all.
    pub rows: u32,
    /// Distinct owners.
    pub owners: u32,
    /// Rows per owner kind.
    pub rows_by_owner_kind: BTreeMap<String, u32>,
    /// Rows per trigger.
    pub rows_by_trigger: BTreeMap<String, u32>,
    /// Rows per operation.
    pub rows_by_operation: BTreeMap<String, u32>,
    /// `Custom` rows: each a place where implementations can diverge. The goal is 0.
    pub custom_rows: u32,
    /// `Custom` rows per handler id.
    pub custom_rows_by_handler: BTreeMap<String, u32>,
    /// The triggers the game declares as its own, each with its rows (0 included).
    pub game_triggers: BTreeMap<String, u32>,
    /// The scopes the game declares as its own, each with its rows (0 included).
    pub game_scopes: BTreeMap<String, u32>,
    /// The operations the game declares as its own, each with its rows (0 included).
    pub game_operations: BTreeMap<String, u32>,
}

/// A game's effect rows, checked and compiled: what the executor runs.
///
/// Its serialized form is its rows in content form, in load order — the part of a content
/// bundle its revision fingerprints.
#[derive(Debug, Clone)]
pub struct EffectTable<V: GameVocabulary = Plain> {
    rows: Vec<EffectRow<V>>,
    compiled: Vec<CompiledRow<V>>,
    owners: Vec<OwnerEntry<V>>,
    keys: BTreeMap<String, OwnerKey>,
}

impl<V: GameVocabulary> Serialize for EffectTable<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.rows.serialize(serializer)
    }
}

/// The loader of effect rows from sheets and JSON rows files, for a game whose own
/// vocabulary is `V` (`effect_loader::<Plain>()` for one with none).
pub fn effect_loader<V: GameVocabulary>() -> RowLoader<EffectRow<V>> {
    RowLoader::new()
}

impl<V: GameVocabulary> EffectTable<V> {
    /// Reads the effect rows of `paths` in `source` (sheets or JSON rows files, by name),
    /// and compiles them. Every problem of every file is reported.
    pub fn load<H: EffectHost<Vocabulary = V>>(
        source: &BundleSource,
        paths: &[&str],
        vocabulary: &EffectVocabulary,
        handlers: &HandlerRegistry<H>,
    ) -> Result<EffectTable<V>, Vec<ContentProblem>> {
        let loader = effect_loader::<V>();
        let mut loaded: Loaded<EffectRow<V>> = Loaded::default();
        for path in paths {
            loaded.extend(loader.source(source, path));
        }
        let mut problems = loaded.problems;
        let result = EffectTable::compile(loaded.rows, vocabulary, handlers);
        if let Err(more) = &result {
            problems.extend(more.iter().cloned());
        }
        if problems.is_empty() {
            return result;
        }
        // In reading order: file by file as listed, row by row (a stable sort keeps the
        // order of the problems of one row).
        problems.sort_by_key(|p| {
            let file = paths
                .iter()
                .position(|f| *f == p.file)
                .unwrap_or(usize::MAX);
            (file, row_of(&p.at))
        });
        Err(problems)
    }

    /// Checks rows against the game's vocabulary and handlers and compiles them. Every
    /// problem of every row is reported.
    pub fn compile<H: EffectHost<Vocabulary = V>>(
        rows: Vec<Located<EffectRow<V>>>,
        vocabulary: &EffectVocabulary,
        handlers: &HandlerRegistry<H>,
    ) -> Result<EffectTable<V>, Vec<ContentProblem>> {
        let mut problems = Vec::new();
        if rows.len() > MAX_ROWS {
            let error = LoadError::TooManyRows { limit: MAX_ROWS };
            let problem = match rows.first() {
                Some(row) => row.origin.problem("owner", error.code(), error.to_string()),
                None => ContentProblem::new(
                    "",
                    turnstile_core::Location::File,
                    error.code(),
                    error.to_string(),
                ),
            };
            return Err(vec![problem]);
        }
        let mut table = EffectTable {
            rows: Vec::with_capacity(rows.len()),
            compiled: Vec::with_capacity(rows.len()),
            owners: Vec::new(),
            keys: BTreeMap::new(),
        };
        let mut seen: BTreeMap<(String, u32), RowOrigin> = BTreeMap::new();
        for located in rows {
            let Located { value: row, origin } = located;
            let mut report = |field: &str, error: LoadError| {
                problems.push(origin.problem(field, error.code(), error.to_string()));
            };
            if let Some(first) = seen.get(&(row.owner.as_str().to_owned(), row.order)) {
                report(
                    "order",
                    LoadError::DuplicateOrder {
                        owner: row.owner.to_string(),
                        order: row.order,
                        first: format!("{}{}", first.file, first.at("order")),
                    },
                );
            } else {
                seen.insert((row.owner.as_str().to_owned(), row.order), origin.clone());
            }
            let compiled = compile_row(&row, &origin, vocabulary, handlers, &mut report);
            if let Some(compiled) = compiled {
                table.rows.push(row);
                table.push(compiled);
            }
        }
        for owner in &mut table.owners {
            for list in owner.by_trigger.values_mut() {
                let compiled = &table.compiled;
                list.sort_by_key(|i| compiled.get(*i as usize).map_or(0, |r| r.order));
            }
        }
        if problems.is_empty() {
            Ok(table)
        } else {
            Err(problems)
        }
    }

    fn push(&mut self, row: CompiledRow<V>) {
        let index = u32::try_from(self.compiled.len()).unwrap_or(u32::MAX);
        let key = match self.keys.get(row.owner_ref.as_str()) {
            Some(key) => *key,
            None => {
                let key = OwnerKey(u32::try_from(self.owners.len()).unwrap_or(u32::MAX));
                self.keys.insert(row.owner_ref.as_str().to_owned(), key);
                self.owners.push(OwnerEntry {
                    by_trigger: BTreeMap::new(),
                });
                key
            }
        };
        if let Some(owner) = self.owners.get_mut(key.0 as usize) {
            owner
                .by_trigger
                .entry(row.trigger.clone())
                .or_default()
                .push(index);
        }
        self.compiled.push(row);
    }

    /// The rows, in content form, in load order.
    pub fn rows(&self) -> &[EffectRow<V>] {
        &self.rows
    }

    /// How many rows it holds.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether it holds no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The key of owner `owner` (`card:fireball`), if it has rows.
    pub fn owner_key(&self, owner: &str) -> Option<OwnerKey> {
        self.keys.get(owner).copied()
    }

    /// The rows of owner `key` for `trigger`, by `order`.
    pub(crate) fn rows_for(&self, key: OwnerKey, trigger: &Trigger<V>) -> &[u32] {
        self.owners
            .get(key.0 as usize)
            .and_then(|o| o.by_trigger.get(trigger))
            .map_or(&[], Vec::as_slice)
    }

    pub(crate) fn row(&self, index: u32) -> Option<&CompiledRow<V>> {
        self.compiled.get(index as usize)
    }

    /// How many `Custom` rows it holds: each one a place where two implementations can
    /// diverge.
    pub fn custom_row_count(&self) -> u32 {
        self.report().custom_rows
    }

    /// Its counts per owner kind, trigger and operation, its `Custom` rows per handler, and
    /// every trigger, scope and operation the game declares with the rows that use it.
    pub fn report(&self) -> EffectReport {
        let mut report = EffectReport {
            rows: u32::try_from(self.rows.len()).unwrap_or(u32::MAX),
            owners: u32::try_from(self.keys.len()).unwrap_or(u32::MAX),
            game_triggers: V::Trigger::ALL
                .iter()
                .map(|t| (t.name().to_owned(), 0))
                .collect(),
            game_scopes: V::Scope::ALL
                .iter()
                .map(|s| (s.name().to_owned(), 0))
                .collect(),
            game_operations: V::Operation::NAMES
                .iter()
                .map(|name| ((*name).to_owned(), 0))
                .collect(),
            ..EffectReport::default()
        };
        for row in &self.rows {
            *report
                .rows_by_owner_kind
                .entry(row.owner.kind().to_owned())
                .or_default() += 1;
            *report
                .rows_by_trigger
                .entry(row.trigger.name().to_owned())
                .or_default() += 1;
            *report
                .rows_by_operation
                .entry(row.operation.kind().to_owned())
                .or_default() += 1;
            if let Trigger::Game(trigger) = &row.trigger {
                *report
                    .game_triggers
                    .entry(trigger.name().to_owned())
                    .or_default() += 1;
            }
            if let Scope::Game(scope) = row.scope {
                *report
                    .game_scopes
                    .entry(scope.name().to_owned())
                    .or_default() += 1;
            }
            if let Operation::Game(operation) = &row.operation {
                *report
                    .game_operations
                    .entry(operation.kind().to_owned())
                    .or_default() += 1;
            }
            if let Operation::Custom { handler, .. } = &row.operation {
                report.custom_rows += 1;
                *report
                    .custom_rows_by_handler
                    .entry(handler.clone())
                    .or_default() += 1;
            }
        }
        report
    }
}

/// The row (sheet) or element (JSON) a location points into, for sorting.
fn row_of(at: &turnstile_core::Location) -> u64 {
    match at {
        turnstile_core::Location::File => 0,
        turnstile_core::Location::RowColumn { row, .. } => u64::from(*row),
        turnstile_core::Location::LineColumn { line, .. } => u64::from(*line),
        turnstile_core::Location::Pointer { pointer } => pointer
            .split('/')
            .nth(1)
            .and_then(|first| first.parse::<u64>().ok())
            .map_or(0, |index| index + 1),
    }
}

fn compile_formula(
    text: &FormulaText,
    vocabulary: &EffectVocabulary,
    condition: bool,
) -> Result<Formula, LoadError> {
    let compiled = if condition {
        text.compile_condition(vocabulary.variables())
    } else {
        text.compile(vocabulary.variables())
    };
    compiled.map_err(|error| LoadError::Formula {
        text: text.as_str().to_owned(),
        error,
    })
}

fn compile_amount(
    amount: &Amount,
    vocabulary: &EffectVocabulary,
) -> Result<CompiledAmount, LoadError> {
    match amount {
        Amount::Value(n) => Ok(CompiledAmount(AmountForm::Value(i64::from(*n)))),
        Amount::Formula(text) => {
            let formula = compile_formula(text, vocabulary, false)?;
            if formula.ty() != Type::Int {
                return Err(LoadError::AmountNotInteger {
                    text: text.as_str().to_owned(),
                    found: formula.ty(),
                });
            }
            Ok(CompiledAmount(AmountForm::Formula(formula)))
        }
    }
}

/// Checks and compiles one row, reporting every problem through `report`.
fn compile_row<V: GameVocabulary, H: EffectHost<Vocabulary = V>>(
    row: &EffectRow<V>,
    origin: &RowOrigin,
    vocabulary: &EffectVocabulary,
    handlers: &HandlerRegistry<H>,
    report: &mut impl FnMut(&str, LoadError),
) -> Option<CompiledRow<V>> {
    let mut ok = true;
    let mut fail = |field: &str, error: LoadError| {
        ok = false;
        report(field, error);
    };
    if !vocabulary.has_owner_kind(row.owner.kind()) {
        fail(
            "owner",
            LoadError::UnknownOwnerKind {
                kind: row.owner.kind().to_owned(),
                known: Names(vocabulary.names("owner kind")),
            },
        );
    }
    if let Trigger::Custom(name) = &row.trigger {
        if !vocabulary.has_custom_trigger(name) {
            fail(
                "trigger",
                LoadError::UnknownTrigger {
                    name: name.clone(),
                    built_in: Names(
                        Trigger::<V>::built_in()
                            .iter()
                            .map(|t| t.name().to_owned())
                            .collect(),
                    ),
                    known: Names(vocabulary.names("trigger")),
                },
            );
        }
    }
    let passive = row.trigger == Trigger::Passive;

    // The condition.
    let condition = match &row.condition {
        Condition::Always => Some(CompiledCondition::Always),
        Condition::Formula { formula } => match compile_formula(formula, vocabulary, true) {
            Ok(f) => Some(CompiledCondition::Formula(f)),
            Err(e) => {
                fail("condition.formula", e);
                None
            }
        },
        Condition::Chance {
            chance,
            stream,
            formula,
        } => {
            if passive {
                fail("condition.$type", LoadError::PassiveChance);
            }
            if !vocabulary.has_stream(stream) {
                fail(
                    "condition.stream",
                    LoadError::UnknownStream {
                        name: stream.clone(),
                        known: Names(vocabulary.names("stream")),
                    },
                );
            }
            let guard = match formula {
                None => Some(None),
                Some(formula) => match compile_formula(formula, vocabulary, true) {
                    Ok(f) => Some(Some(f)),
                    Err(e) => {
                        fail("condition.formula", e);
                        None
                    }
                },
            };
            guard.map(|guard| CompiledCondition::Chance {
                chance: *chance,
                stream: Arc::from(stream.as_str()),
                guard,
            })
        }
        Condition::HasStatus { status, at_least } => {
            if !vocabulary.has_status(status) {
                fail(
                    "condition.status",
                    LoadError::UnknownStatus {
                        name: status.clone(),
                        known: Names(vocabulary.names("status")),
                    },
                );
            }
            Some(CompiledCondition::HasStatus {
                status: Arc::from(status.as_str()),
                at_least: i64::from(at_least.unwrap_or(1).max(1)),
            })
        }
    };

    // The operation.
    let amount = |field: &str, a: &Amount, fail: &mut dyn FnMut(&str, LoadError)| {
        compile_amount(a, vocabulary)
            .map_err(|e| fail(field, e))
            .ok()
    };
    let status_known = |status: &str, fail: &mut dyn FnMut(&str, LoadError)| {
        if !vocabulary.has_status(status) {
            fail(
                "operation.status",
                LoadError::UnknownStatus {
                    name: status.to_owned(),
                    known: Names(vocabulary.names("status")),
                },
            );
        }
    };
    let resource_kind = |resource: &str, fail: &mut dyn FnMut(&str, LoadError)| {
        let kind = vocabulary.resource_kind(resource);
        if kind.is_none() {
            fail(
                "operation.resource",
                LoadError::UnknownResource {
                    name: resource.to_owned(),
                    known: Names(vocabulary.names("resource")),
                },
            );
        }
        kind
    };
    // Whether the operation changes a rule resource (and so may linger), and its subject.
    let mut rule = false;
    let mut subject: Option<Arc<str>> = None;
    let operation = match &row.operation {
        Operation::Damage { amount: a } | Operation::Heal { amount: a } => {
            if vocabulary.resource_kind(HEALTH) != Some(ResourceKind::State) {
                fail(
                    "operation.$type",
                    LoadError::NoHealth {
                        operation: row.operation.kind().to_owned(),
                    },
                );
            }
            subject = Some(Arc::from(HEALTH));
            let a = amount("operation.amount", a, &mut fail);
            match (&row.operation, a) {
                (Operation::Damage { .. }, Some(a)) => Some(CompiledOperation::Damage(a)),
                (_, Some(a)) => Some(CompiledOperation::Heal(a)),
                _ => None,
            }
        }
        Operation::Draw { count } => {
            amount("operation.count", count, &mut fail).map(CompiledOperation::Draw)
        }
        Operation::GainResource {
            resource,
            amount: a,
        }
        | Operation::SpendResource {
            resource,
            amount: a,
        } => {
            let kind = resource_kind(resource, &mut fail);
            rule = kind == Some(ResourceKind::Rule);
            subject = Some(Arc::from(resource.as_str()));
            let a = amount("operation.amount", a, &mut fail);
            match (kind, a) {
                (Some(kind), Some(amount)) => Some(match &row.operation {
                    Operation::GainResource { .. } => CompiledOperation::GainResource {
                        resource: Arc::from(resource.as_str()),
                        kind,
                        amount,
                    },
                    _ => CompiledOperation::SpendResource {
                        resource: Arc::from(resource.as_str()),
                        kind,
                        amount,
                    },
                }),
                _ => None,
            }
        }
        Operation::ApplyStatus {
            status,
            stacks,
            duration_turns,
        } => {
            status_known(status, &mut fail);
            subject = Some(Arc::from(status.as_str()));
            amount("operation.stacks", stacks, &mut fail).map(|stacks| {
                CompiledOperation::ApplyStatus {
                    status: Arc::from(status.as_str()),
                    stacks,
                    duration_turns: *duration_turns,
                }
            })
        }
        Operation::RemoveStatus { status, stacks } => {
            status_known(status, &mut fail);
            subject = Some(Arc::from(status.as_str()));
            match stacks {
                None => Some(CompiledOperation::RemoveStatus {
                    status: Arc::from(status.as_str()),
                    stacks: None,
                }),
                Some(s) => amount("operation.stacks", s, &mut fail).map(|s| {
                    CompiledOperation::RemoveStatus {
                        status: Arc::from(status.as_str()),
                        stacks: Some(s),
                    }
                }),
            }
        }
        Operation::Custom { handler, amount: a } => {
            if handlers.get(handler).is_none() {
                fail(
                    "operation.handler",
                    LoadError::UnknownHandler {
                        id: handler.clone(),
                        known: Names(handlers.ids()),
                    },
                );
            }
            let a = match a {
                None => Some(None),
                Some(a) => amount("operation.amount", a, &mut fail).map(Some),
            };
            a.map(|amount| CompiledOperation::Custom {
                handler: Arc::from(handler.as_str()),
                amount,
            })
        }
        Operation::SetRule { rule: name, value } => {
            let kind = vocabulary.resource_kind(name);
            if kind != Some(ResourceKind::Rule) {
                fail(
                    "operation.rule",
                    LoadError::UnknownResource {
                        name: name.clone(),
                        known: Names(vocabulary.names("resource")),
                    },
                );
            }
            rule = true;
            subject = Some(Arc::from(name.as_str()));
            amount("operation.value", value, &mut fail).map(|value| CompiledOperation::SetRule {
                rule: Arc::from(name.as_str()),
                value,
            })
        }
        Operation::Game(game) => {
            let mut compiler = OperationCompiler {
                vocabulary,
                fail: &mut fail,
                subject: None,
            };
            let compiled = V::compile(game, &mut compiler);
            subject = compiler.subject.take();
            compiled.map(CompiledOperation::Game)
        }
    };
    let is_custom = matches!(row.operation, Operation::Custom { .. });
    if !passive && matches!(row.operation, Operation::SetRule { .. }) {
        fail("trigger", LoadError::SetRuleNotPassive);
    }

    // Triggers, durations and scopes that go together.
    if passive {
        if row.duration != Duration::Permanent {
            fail(
                "duration",
                LoadError::PassiveDuration {
                    duration: row.duration.name().to_owned(),
                },
            );
        }
        if !rule && !is_custom {
            fail(
                "operation.$type",
                LoadError::PassiveOperation {
                    operation: operation_words(&row.operation),
                },
            );
        }
        if row.scope.needs_event() {
            fail(
                "scope",
                LoadError::ScopeNotApplicable {
                    scope: row.scope.name().to_owned(),
                },
            );
        }
    } else if !rule && row.duration != Duration::Permanent {
        fail(
            "duration",
            LoadError::DurationNotApplicable {
                operation: operation_words(&row.operation),
                duration: row.duration.name().to_owned(),
            },
        );
    }

    let operation_name: Arc<str> = match &row.operation {
        Operation::Custom { handler, .. } => Arc::from(format!("Custom:{handler}")),
        other => Arc::from(other.kind()),
    };
    match (ok, condition, operation) {
        (true, Some(condition), Some(operation)) => Some(CompiledRow {
            owner_ref: row.owner.clone(),
            owner_name: Arc::from(row.owner.as_str()),
            order: row.order,
            trigger: row.trigger.clone(),
            trigger_name: Arc::from(row.trigger.name()),
            condition,
            operation,
            operation_name,
            subject,
            scope: row.scope,
            duration: row.duration,
            origin: origin.clone(),
        }),
        _ => None,
    }
}

/// An operation in words for messages: `` `Damage` ``, or
/// `` `GainResource` of the state resource `gold` ``.
fn operation_words<V: GameVocabulary>(operation: &Operation<V>) -> String {
    match operation {
        Operation::GainResource { resource, .. } | Operation::SpendResource { resource, .. } => {
            format!("`{}` of the state resource `{resource}`", operation.kind())
        }
        other => format!("`{}`", other.kind()),
    }
}
