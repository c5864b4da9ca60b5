//! The effect row of spec/effects.md in its content form: what a designer writes in a sheet
//! or a JSON rows file, and what a content revision fingerprints. Nothing here is compiled or
//! checked against a game yet; [`crate::EffectTable::compile`] does that.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use turnstile_core::determinism::Chance;
use turnstile_formula::FormulaText;

use crate::game::{GameOperation, GameScope, GameVocabulary, Named, Plain};

/// One effect row: an owner's reaction to a trigger.
///
/// | column | meaning |
/// |---|---|
/// | `owner` | the owning thing, `kind:id` (`card:fireball`, `status:poison`) |
/// | `order` | the order of the row within its owner, from 0 |
/// | `trigger` | when the row is looked at |
/// | `condition.$type` ... | what must hold then; `Always` is written out |
/// | `operation.$type` ... | what it does |
/// | `scope` | to whom |
/// | `duration` | how long the change lasts |
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, bound = "")]
#[schemars(title = "EffectRow", rename = "EffectRow", bound = "")]
pub struct EffectRow<V: GameVocabulary = Plain> {
    /// The owning thing, by kind and id: `card:fireball`, `status:poison`, `phase:main`.
    pub owner: OwnerRef,
    /// The row's place among its owner's rows, from 0; rows of one owner run in this order.
    pub order: u32,
    /// When the row is looked at.
    pub trigger: Trigger<V>,
    /// What must hold for the row to act. `Always` is written out: an empty condition is a
    /// load error, so that "no condition" and "forgot to fill it in" never look alike.
    pub condition: Condition,
    /// What the row does.
    pub operation: Operation<V>,
    /// To whom it does it.
    pub scope: Scope<V>,
    /// How long its change lasts.
    pub duration: Duration,
}

/// The engine's columns of an effect sheet, in the order this project writes them. A game's
/// operations add theirs ([`GameOperation::COLUMNS`]); [`effect_columns`] gives them all.
pub const EFFECT_COLUMNS: &[&str] = &[
    "owner",
    "order",
    "trigger",
    "condition.$type",
    "condition.formula",
    "condition.status",
    "condition.atLeast",
    "condition.chance",
    "condition.stream",
    "operation.$type",
    "operation.amount",
    "operation.count",
    "operation.resource",
    "operation.status",
    "operation.stacks",
    "operation.durationTurns",
    "operation.handler",
    "operation.rule",
    "operation.value",
    "scope",
    "duration",
];

/// Every column of an effect sheet of a game with vocabulary `V`: the engine's operation
/// columns, then the game's ones it does not share with them, then `scope` and `duration`.
pub fn effect_columns<V: GameVocabulary>() -> Vec<&'static str> {
    let split = EFFECT_COLUMNS.len() - 2;
    let mut columns: Vec<&'static str> = EFFECT_COLUMNS[..split].to_vec();
    for column in V::Operation::COLUMNS {
        if !columns.contains(column) {
            columns.push(column);
        }
    }
    columns.extend_from_slice(&EFFECT_COLUMNS[split..]);
    columns
}

/// Why an owner reference is not `kind:id`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad_owner: `{text}` is not an owner: write `kind:id`, the kind in lower case letters, digits and `_` starting with a letter (`card`, `status`), the id in letters, digits, `_`, `-` and `.` (`fireball`)")]
pub struct OwnerRefError {
    /// The text found.
    pub text: String,
}

impl OwnerRefError {
    /// The stable code, `bad_owner`.
    pub const fn code(&self) -> &'static str {
        "bad_owner"
    }
}

/// The thing a row belongs to, by kind and id: `unit:archer`, `card:fireball`.
///
/// Written as `kind:id`. The kind says what sort of thing it is (the game declares its
/// kinds); the id names it in content. Code never branches on an id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OwnerRef {
    text: String,
    colon: usize,
}

impl OwnerRef {
    /// An owner reference from its kind and id.
    pub fn new(kind: &str, id: &str) -> Result<OwnerRef, OwnerRefError> {
        format!("{kind}:{id}").parse()
    }

    /// The kind (`card`).
    pub fn kind(&self) -> &str {
        &self.text[..self.colon]
    }

    /// The id (`fireball`).
    pub fn id(&self) -> &str {
        &self.text[self.colon + 1..]
    }

    /// The whole reference, `kind:id`.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl FromStr for OwnerRef {
    type Err = OwnerRefError;

    fn from_str(text: &str) -> Result<OwnerRef, OwnerRefError> {
        let error = || OwnerRefError { text: text.into() };
        let (kind, id) = text.split_once(':').ok_or_else(error)?;
        let kind_ok = kind.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && kind
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        let id_ok = !id.is_empty()
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
        if !kind_ok || !id_ok {
            return Err(error());
        }
        Ok(OwnerRef {
            text: text.to_owned(),
            colon: kind.len(),
        })
    }
}

impl fmt::Display for OwnerRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for OwnerRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for OwnerRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<OwnerRef, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(de::Error::custom)
    }
}

impl JsonSchema for OwnerRef {
    fn schema_name() -> Cow<'static, str> {
        "OwnerRef".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^[a-z][a-z0-9_]*:[A-Za-z0-9_.-]+$",
            "description": "The owning thing, `kind:id`: `card:fireball`, `status:poison`, `phase:main`."
        })
    }
}

/// When a row is looked at.
///
/// The engine's triggers are the moments every turn-based game has. A game adds its own
/// moments in two ways: typed, as its [`GameVocabulary::Trigger`] (`Game`), or by name, as
/// custom triggers it declares in its [`crate::EffectVocabulary`] (`Custom`) — an undeclared
/// name is a load error, so a typo never becomes a trigger that nothing fires.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Trigger<V: GameVocabulary = Plain> {
    /// A phase is entered (its entry effects).
    OnPhaseEnter,
    /// A phase is left (its exit effects).
    OnPhaseExit,
    /// A card is played.
    OnCardPlayed,
    /// A seat's turn starts.
    OnTurnStart,
    /// A seat's turn ends.
    OnTurnEnd,
    /// A round starts.
    OnRoundStart,
    /// A round ends.
    OnRoundEnd,
    /// A status ticks on its bearer (once per status, each time the game ticks statuses).
    OnStatusTick,
    /// Not a moment: the row holds while its owner is present, and is applied whenever the
    /// rules are rebuilt.
    Passive,
    /// A moment the game declares as a type ([`GameVocabulary::Trigger`]).
    Game(V::Trigger),
    /// A moment the game names and declares in its [`crate::EffectVocabulary`].
    Custom(String),
}

/// The engine's own triggers: name and meaning, in the order docs list them.
pub const ENGINE_TRIGGERS: &[(&str, &str)] = &[
    ("OnPhaseEnter", "A phase is entered (its entry effects)."),
    ("OnPhaseExit", "A phase is left (its exit effects)."),
    ("OnCardPlayed", "A card is played."),
    ("OnTurnStart", "A seat's turn starts."),
    ("OnTurnEnd", "A seat's turn ends."),
    ("OnRoundStart", "A round starts."),
    ("OnRoundEnd", "A round ends."),
    (
        "OnStatusTick",
        "A status ticks on its bearer (once per status, each time the game ticks statuses).",
    ),
    (
        "Passive",
        "Not a moment: the row holds while its owner is present, and is applied whenever the rules are rebuilt.",
    ),
];

impl<V: GameVocabulary> Trigger<V> {
    /// The engine's trigger named `name`, if it is one.
    fn engine(name: &str) -> Option<Trigger<V>> {
        Some(match name {
            "OnPhaseEnter" => Trigger::OnPhaseEnter,
            "OnPhaseExit" => Trigger::OnPhaseExit,
            "OnCardPlayed" => Trigger::OnCardPlayed,
            "OnTurnStart" => Trigger::OnTurnStart,
            "OnTurnEnd" => Trigger::OnTurnEnd,
            "OnRoundStart" => Trigger::OnRoundStart,
            "OnRoundEnd" => Trigger::OnRoundEnd,
            "OnStatusTick" => Trigger::OnStatusTick,
            "Passive" => Trigger::Passive,
            _ => return None,
        })
    }

    /// Every trigger that needs no declaration in the [`crate::EffectVocabulary`]: the
    /// engine's, then the game's, in the order docs list them.
    pub fn built_in() -> Vec<Trigger<V>> {
        ENGINE_TRIGGERS
            .iter()
            .filter_map(|(name, _)| Trigger::engine(name))
            .chain(V::Trigger::ALL.iter().copied().map(Trigger::Game))
            .collect()
    }

    /// The trigger's name as content writes it.
    pub fn name(&self) -> &str {
        match self {
            Trigger::OnPhaseEnter => "OnPhaseEnter",
            Trigger::OnPhaseExit => "OnPhaseExit",
            Trigger::OnCardPlayed => "OnCardPlayed",
            Trigger::OnTurnStart => "OnTurnStart",
            Trigger::OnTurnEnd => "OnTurnEnd",
            Trigger::OnRoundStart => "OnRoundStart",
            Trigger::OnRoundEnd => "OnRoundEnd",
            Trigger::OnStatusTick => "OnStatusTick",
            Trigger::Passive => "Passive",
            Trigger::Game(trigger) => trigger.name(),
            Trigger::Custom(name) => name,
        }
    }

    /// The trigger named `name`: the engine's, else the game's, else a custom one.
    pub fn from_name(name: &str) -> Trigger<V> {
        Trigger::engine(name)
            .or_else(|| V::Trigger::from_name(name).map(Trigger::Game))
            .unwrap_or_else(|| Trigger::Custom(name.to_owned()))
    }

    /// Whether this is a custom trigger.
    pub fn is_custom(&self) -> bool {
        matches!(self, Trigger::Custom(_))
    }
}

impl<V: GameVocabulary> fmt::Display for Trigger<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<V: GameVocabulary> Serialize for Trigger<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de, V: GameVocabulary> Deserialize<'de> for Trigger<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Trigger<V>, D::Error> {
        let name = String::deserialize(deserializer)?;
        if !is_identifier(&name) {
            return Err(de::Error::custom(format_args!(
                "`{name}` is not a trigger name: write letters, digits and `_`, starting with a letter"
            )));
        }
        Ok(Trigger::from_name(&name))
    }
}

impl<V: GameVocabulary> JsonSchema for Trigger<V> {
    fn schema_name() -> Cow<'static, str> {
        "Trigger".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<String> = Trigger::<V>::built_in()
            .iter()
            .map(|t| t.name().to_owned())
            .collect();
        json_schema!({
            "description": "When the row is looked at: a built-in trigger, or a custom trigger the game declares.",
            "anyOf": [
                { "type": "string", "enum": names },
                { "type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*$" }
            ]
        })
    }
}

/// Whether `name` is letters, digits and `_`, starting with a letter.
pub(crate) fn is_identifier(name: &str) -> bool {
    name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// What must hold for a row to act, checked for each target the row's scope gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub enum Condition {
    /// Always holds. Written out: an empty condition cell is a load error.
    Always,
    /// A formula of the game's variables (docs/formula.md), compiled at load against the
    /// game's schema: `owner.health < 10 and round >= 3`.
    Formula {
        /// The formula's text.
        #[schemars(with = "turnstile_sheets::FormulaSchema")]
        formula: FormulaText,
    },
    /// A chance, rolled on a named stream: exactly one draw each time it is checked, hit or
    /// miss. With a `formula` (a guarded chance: "1 in 4 for each scored 8"), the formula is
    /// checked first and the chance is rolled only when it holds: no draw otherwise, so a
    /// target the guard leaves out never moves the stream.
    Chance {
        /// The probability, `1/4`.
        #[schemars(with = "turnstile_sheets::ChanceSchema")]
        chance: Chance,
        /// The stream it draws from (the game declares its streams).
        stream: String,
        /// The guard: a formula of the game's variables that must hold before the roll.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Option<turnstile_sheets::FormulaSchema>")]
        formula: Option<FormulaText>,
    },
    /// The target bears a status, with at least some stacks.
    HasStatus {
        /// The status.
        status: String,
        /// The fewest stacks that count; 1 when empty.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_least: Option<u32>,
    },
}

impl Condition {
    /// The variant's name, as `condition.$type` writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Condition::Always => "Always",
            Condition::Formula { .. } => "Formula",
            Condition::Chance { .. } => "Chance",
            Condition::HasStatus { .. } => "HasStatus",
        }
    }
}

/// A whole number in a row: written as digits (`3`) or as a formula of the game's variables
/// that gives an integer (`owner.stacks * 2`), evaluated when the row acts. A value below
/// zero counts as zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Amount {
    /// A fixed number.
    Value(u32),
    /// A formula, compiled at load (it must give an `Int`).
    Formula(FormulaText),
}

impl Serialize for Amount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Amount::Value(n) => serializer.serialize_u32(*n),
            Amount::Formula(text) => serializer.serialize_str(text.as_str()),
        }
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Amount, D::Error> {
        struct AmountVisitor;

        impl Visitor<'_> for AmountVisitor {
            type Value = Amount;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number from 0 to 4294967295, or a formula")
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Amount, E> {
                u32::try_from(v)
                    .map(Amount::Value)
                    .map_err(|_| E::custom(format_args!("{v} is more than 4294967295")))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Amount, E> {
                u64::try_from(v)
                    .map_err(|_| E::custom(format_args!("{v} is below 0")))
                    .and_then(|v| self.visit_u64(v))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Amount, E> {
                if v.trim().is_empty() {
                    return Err(E::custom("an amount formula must not be empty"));
                }
                Ok(Amount::Formula(FormulaText(v.to_owned())))
            }
        }

        deserializer.deserialize_any(AmountVisitor)
    }
}

impl JsonSchema for Amount {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Amount".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A whole number, or a formula that gives one (`owner.stacks * 2`); below zero counts as zero.",
            "anyOf": [
                { "type": "integer", "format": "uint32", "minimum": 0 },
                { "type": "string", "minLength": 1 }
            ]
        })
    }
}

impl From<u32> for Amount {
    fn from(n: u32) -> Amount {
        Amount::Value(n)
    }
}

/// What a row does to each target.
///
/// The engine's operations are listed here; a game adds its own as its
/// [`GameVocabulary::Operation`] (`Game`), written in the same `operation.$type` cell. How a
/// game's world changes under each operation is the game's ([`crate::EffectHost`]); the
/// host trait's default methods give the standard meaning written here.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Operation<V: GameVocabulary = Plain> {
    /// Lowers the target's `health` by the amount, not below 0.
    Damage {
        /// How much.
        amount: Amount,
    },
    /// Raises the target's `health` by the amount, not above its `max_health` when it has one.
    Heal {
        /// How much.
        amount: Amount,
    },
    /// The target seat draws cards.
    Draw {
        /// How many.
        count: Amount,
    },
    /// Raises a resource of the target.
    GainResource {
        /// The resource (the game declares its resources).
        resource: String,
        /// How much.
        amount: Amount,
    },
    /// Lowers a resource of the target, not below 0.
    SpendResource {
        /// The resource.
        resource: String,
        /// How much.
        amount: Amount,
    },
    /// Puts stacks of a status on the target.
    ApplyStatus {
        /// The status (the game declares its statuses).
        status: String,
        /// How many stacks.
        stacks: Amount,
        /// For how many of its bearer's status ticks it lasts; empty: until removed.
        duration_turns: Option<u32>,
    },
    /// Takes stacks of a status off the target.
    RemoveStatus {
        /// The status.
        status: String,
        /// How many stacks; empty: all of them.
        stacks: Option<Amount>,
    },
    /// Sets a rule resource to a value (a `Passive` row: while its owner is present).
    SetRule {
        /// The rule resource.
        rule: String,
        /// The value.
        value: Amount,
    },
    /// Runs the handler registered in code under this id: the escape hatch for what cannot
    /// be written as data. Counted and reported; the goal is none.
    Custom {
        /// The handler's id, as registered.
        handler: String,
        /// A number handed to the handler, if it takes one.
        amount: Option<Amount>,
    },
    /// An operation the game declares ([`GameVocabulary::Operation`]).
    Game(V::Operation),
}

/// The engine's operations in content form: what `Operation`'s serde and JSON Schema are
/// made of (a game's operations are added beside them). Kept apart from [`Operation`] so the
/// derived `$type` tagging, field names and schema stay exactly what content writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]
enum EngineOperation {
    /// Lowers the target's `health` by the amount, not below 0.
    Damage {
        /// How much.
        amount: Amount,
    },
    /// Raises the target's `health` by the amount, not above its `max_health` when it has one.
    Heal {
        /// How much.
        amount: Amount,
    },
    /// The target seat draws cards.
    Draw {
        /// How many.
        count: Amount,
    },
    /// Raises a resource of the target.
    GainResource {
        /// The resource (the game declares its resources).
        resource: String,
        /// How much.
        amount: Amount,
    },
    /// Lowers a resource of the target, not below 0.
    SpendResource {
        /// The resource.
        resource: String,
        /// How much.
        amount: Amount,
    },
    /// Puts stacks of a status on the target.
    ApplyStatus {
        /// The status (the game declares its statuses).
        status: String,
        /// How many stacks.
        stacks: Amount,
        /// For how many of its bearer's status ticks it lasts; empty: until removed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_turns: Option<u32>,
    },
    /// Takes stacks of a status off the target.
    RemoveStatus {
        /// The status.
        status: String,
        /// How many stacks; empty: all of them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stacks: Option<Amount>,
    },
    /// Sets a rule resource to a value (a `Passive` row: while its owner is present).
    SetRule {
        /// The rule resource.
        rule: String,
        /// The value.
        value: Amount,
    },
    /// Runs the handler registered in code under this id: the escape hatch for what cannot
    /// be written as data. Counted and reported; the goal is none.
    Custom {
        /// The handler's id, as registered.
        handler: String,
        /// A number handed to the handler, if it takes one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        amount: Option<Amount>,
    },
}

/// The engine's operations: name and meaning, in the order docs list them.
pub const ENGINE_OPERATIONS: &[(&str, &str)] = &[
    ("Damage", "Lowers the target's `health` by the amount, not below 0."),
    (
        "Heal",
        "Raises the target's `health` by the amount, not above its `max_health` when it has one.",
    ),
    ("Draw", "The target seat draws cards."),
    ("GainResource", "Raises a resource of the target."),
    ("SpendResource", "Lowers a resource of the target, not below 0."),
    ("ApplyStatus", "Puts stacks of a status on the target."),
    ("RemoveStatus", "Takes stacks of a status off the target."),
    (
        "SetRule",
        "Sets a rule resource to a value (a `Passive` row: while its owner is present).",
    ),
    (
        "Custom",
        "Runs the handler registered in code under this id: the escape hatch for what cannot be written as data.",
    ),
];

impl<V: GameVocabulary> Operation<V> {
    /// The variant's name, as `operation.$type` writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            Operation::Damage { .. } => "Damage",
            Operation::Heal { .. } => "Heal",
            Operation::Draw { .. } => "Draw",
            Operation::GainResource { .. } => "GainResource",
            Operation::SpendResource { .. } => "SpendResource",
            Operation::ApplyStatus { .. } => "ApplyStatus",
            Operation::RemoveStatus { .. } => "RemoveStatus",
            Operation::SetRule { .. } => "SetRule",
            Operation::Custom { .. } => "Custom",
            Operation::Game(operation) => operation.kind(),
        }
    }

    fn engine(&self) -> Option<EngineOperation> {
        Some(match self.clone() {
            Operation::Damage { amount } => EngineOperation::Damage { amount },
            Operation::Heal { amount } => EngineOperation::Heal { amount },
            Operation::Draw { count } => EngineOperation::Draw { count },
            Operation::GainResource { resource, amount } => {
                EngineOperation::GainResource { resource, amount }
            }
            Operation::SpendResource { resource, amount } => {
                EngineOperation::SpendResource { resource, amount }
            }
            Operation::ApplyStatus {
                status,
                stacks,
                duration_turns,
            } => EngineOperation::ApplyStatus {
                status,
                stacks,
                duration_turns,
            },
            Operation::RemoveStatus { status, stacks } => {
                EngineOperation::RemoveStatus { status, stacks }
            }
            Operation::SetRule { rule, value } => EngineOperation::SetRule { rule, value },
            Operation::Custom { handler, amount } => EngineOperation::Custom { handler, amount },
            Operation::Game(_) => return None,
        })
    }
}

impl<V: GameVocabulary> From<EngineOperation> for Operation<V> {
    fn from(operation: EngineOperation) -> Operation<V> {
        match operation {
            EngineOperation::Damage { amount } => Operation::Damage { amount },
            EngineOperation::Heal { amount } => Operation::Heal { amount },
            EngineOperation::Draw { count } => Operation::Draw { count },
            EngineOperation::GainResource { resource, amount } => {
                Operation::GainResource { resource, amount }
            }
            EngineOperation::SpendResource { resource, amount } => {
                Operation::SpendResource { resource, amount }
            }
            EngineOperation::ApplyStatus {
                status,
                stacks,
                duration_turns,
            } => Operation::ApplyStatus {
                status,
                stacks,
                duration_turns,
            },
            EngineOperation::RemoveStatus { status, stacks } => {
                Operation::RemoveStatus { status, stacks }
            }
            EngineOperation::SetRule { rule, value } => Operation::SetRule { rule, value },
            EngineOperation::Custom { handler, amount } => Operation::Custom { handler, amount },
        }
    }
}

impl<V: GameVocabulary> Serialize for Operation<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match (self, self.engine()) {
            (Operation::Game(operation), _) => operation.serialize(serializer),
            (_, Some(engine)) => engine.serialize(serializer),
            (_, None) => Err(serde::ser::Error::custom("an operation of no known kind")),
        }
    }
}

impl<'de, V: GameVocabulary> Deserialize<'de> for Operation<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Operation<V>, D::Error> {
        // The `$type` decides whose operation it is; the members are then read by that
        // type's own derived code, so its messages (an unknown field, a missing amount) are
        // what they would be alone.
        let value = serde_json::Value::deserialize(deserializer)?;
        let kind = value
            .get("$type")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        if V::Operation::NAMES.contains(&kind) {
            return serde_json::from_value::<V::Operation>(value)
                .map(Operation::Game)
                .map_err(de::Error::custom);
        }
        if !kind.is_empty() && ENGINE_OPERATIONS.iter().all(|(name, _)| *name != kind) {
            let expected: Vec<String> = ENGINE_OPERATIONS
                .iter()
                .map(|(name, _)| *name)
                .chain(V::Operation::NAMES.iter().copied())
                .map(|name| format!("`{name}`"))
                .collect();
            return Err(de::Error::custom(format_args!(
                "unknown variant `{kind}`, expected one of {}",
                expected.join(", ")
            )));
        }
        serde_json::from_value::<EngineOperation>(value)
            .map(Operation::from)
            .map_err(de::Error::custom)
    }
}

/// The alternatives (`oneOf`) of an enum's schema, or none.
fn alternatives(schema: Schema) -> Vec<serde_json::Value> {
    match schema.to_value() {
        serde_json::Value::Object(mut object) => match object.remove("oneOf") {
            Some(serde_json::Value::Array(list)) => list,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

impl<V: GameVocabulary> JsonSchema for Operation<V> {
    fn schema_name() -> Cow<'static, str> {
        "Operation".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        // One `oneOf` of every variant, the engine's then the game's, so a sheet reads the
        // game's `$type`s and their fields exactly like the engine's.
        let mut variants = alternatives(EngineOperation::json_schema(generator));
        variants.extend(alternatives(V::Operation::json_schema(generator)));
        json_schema!({
            "description": "What a row does to each target: one of the engine's operations, or one the game declares.",
            "oneOf": variants
        })
    }
}

/// To whom a row does what it does. Each scope gives its targets in a fixed order.
///
/// The engine's scopes are seats and the event's own things; a game adds its own as its
/// [`GameVocabulary::Scope`] (`Game`), whose targets its host lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Scope<V: GameVocabulary = Plain> {
    /// The owner itself: the thing the host anchored the owner to (a unit in play, a status's
    /// bearer, a seat for a seat-wide thing).
    Self_,
    /// The seat that controls the owner.
    Owner,
    /// Every seat but the owner's, in seat order.
    Opponent,
    /// The event's target (the target chosen for a played card); none when it has none.
    Target,
    /// Every seat, in seat order.
    AllSeats,
    /// The seat the event is about (who played the card, whose turn starts).
    ActingSeat,
    /// A scope the game declares ([`GameVocabulary::Scope`]); its host lists the targets.
    Game(V::Scope),
}

/// The engine's scopes: name and meaning, in the order docs list them.
pub const ENGINE_SCOPES: &[(&str, &str)] = &[
    (
        "Self",
        "The owner itself: the thing the host anchored the owner to (a unit in play, a status's\nbearer, a seat for a seat-wide thing).",
    ),
    ("Owner", "The seat that controls the owner."),
    ("Opponent", "Every seat but the owner's, in seat order."),
    (
        "Target",
        "The event's target (the target chosen for a played card); none when it has none.",
    ),
    ("AllSeats", "Every seat, in seat order."),
    (
        "ActingSeat",
        "The seat the event is about (who played the card, whose turn starts).",
    ),
];

impl<V: GameVocabulary> Scope<V> {
    /// The scope's name as content writes it.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Self_ => "Self",
            Scope::Owner => "Owner",
            Scope::Opponent => "Opponent",
            Scope::Target => "Target",
            Scope::AllSeats => "AllSeats",
            Scope::ActingSeat => "ActingSeat",
            Scope::Game(scope) => scope.name(),
        }
    }

    /// The scope named `name`: the engine's, else the game's.
    pub fn from_name(name: &str) -> Option<Scope<V>> {
        Some(match name {
            "Self" => Scope::Self_,
            "Owner" => Scope::Owner,
            "Opponent" => Scope::Opponent,
            "Target" => Scope::Target,
            "AllSeats" => Scope::AllSeats,
            "ActingSeat" => Scope::ActingSeat,
            _ => return V::Scope::from_name(name).map(Scope::Game),
        })
    }

    /// Whether its targets come from the event, so that a `Passive` row (which has none)
    /// may not use it.
    pub fn needs_event(self) -> bool {
        match self {
            Scope::Target | Scope::ActingSeat => true,
            Scope::Self_ | Scope::Owner | Scope::Opponent | Scope::AllSeats => false,
            Scope::Game(scope) => scope.needs_event(),
        }
    }
}

impl<V: GameVocabulary> Serialize for Scope<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de, V: GameVocabulary> Deserialize<'de> for Scope<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Scope<V>, D::Error> {
        let name = String::deserialize(deserializer)?;
        Scope::from_name(&name).ok_or_else(|| {
            let expected: Vec<String> = ENGINE_SCOPES
                .iter()
                .map(|(n, _)| *n)
                .chain(V::Scope::ALL.iter().map(|s| s.name()))
                .map(|n| format!("`{n}`"))
                .collect();
            de::Error::custom(format_args!(
                "unknown variant `{name}`, expected one of {}",
                expected.join(", ")
            ))
        })
    }
}

impl<V: GameVocabulary> JsonSchema for Scope<V> {
    fn schema_name() -> Cow<'static, str> {
        "Scope".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let variants: Vec<serde_json::Value> = ENGINE_SCOPES
            .iter()
            .copied()
            .chain(V::Scope::ALL.iter().map(|s| (s.name(), s.description())))
            .map(|(name, description)| {
                serde_json::json!({ "const": name, "description": description, "type": "string" })
            })
            .collect();
        json_schema!({
            "description": "To whom a row does what it does. Each scope gives its targets in a fixed order.",
            "oneOf": variants
        })
    }
}

/// How long a row's change lasts (spec/effects.md).
///
/// A change of a game's current values (damage, a card drawn, gold spent) happens at once
/// and stays: such rows are `Permanent`. A change of a *rule* resource (docs/effects.md,
/// "Rules are rebuilt") is kept in the [`crate::EffectLedger`] and re-applied at every
/// rebuild while it lasts.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum Duration {
    /// For a `Passive` row: while its owner is present. Otherwise: to the end of the match.
    Permanent,
    /// Until the end of the round it happened in.
    ThisRound,
    /// During the next round only.
    NextRound,
}

impl Duration {
    /// The duration's name as content writes it.
    pub fn name(self) -> &'static str {
        match self {
            Duration::Permanent => "Permanent",
            Duration::ThisRound => "ThisRound",
            Duration::NextRound => "NextRound",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_refs_are_kind_colon_id() {
        let owner: OwnerRef = "unit:archer".parse().unwrap();
        assert_eq!((owner.kind(), owner.id()), ("unit", "archer"));
        assert_eq!(owner.to_string(), "unit:archer");
        assert_eq!(
            OwnerRef::new("card", "fire-ball.2").unwrap().as_str(),
            "card:fire-ball.2"
        );
        for bad in [
            "archer", ":archer", "unit:", "Unit:x", "1card:x", "card:a b", "card:a:b",
        ] {
            assert_eq!(
                bad.parse::<OwnerRef>().unwrap_err().code(),
                "bad_owner",
                "{bad}"
            );
        }
    }

    #[test]
    fn triggers_are_names() {
        assert_eq!(
            Trigger::<Plain>::from_name("OnTurnStart"),
            Trigger::OnTurnStart
        );
        assert_eq!(
            Trigger::<Plain>::from_name("OnUnitDies"),
            Trigger::Custom("OnUnitDies".into())
        );
        for trigger in Trigger::<Plain>::built_in() {
            let json = serde_json::to_string(&trigger).unwrap();
            assert_eq!(serde_json::from_str::<Trigger>(&json).unwrap(), trigger);
        }
        assert!(serde_json::from_str::<Trigger>("\"On Turn\"").is_err());
    }

    #[test]
    fn amounts_are_numbers_or_formulas() {
        assert_eq!(
            serde_json::from_str::<Amount>("3").unwrap(),
            Amount::Value(3)
        );
        assert_eq!(
            serde_json::from_str::<Amount>("\"owner.stacks\"").unwrap(),
            Amount::Formula(FormulaText::from("owner.stacks"))
        );
        assert!(serde_json::from_str::<Amount>("-1").is_err());
        assert!(serde_json::from_str::<Amount>("4294967296").is_err());
        assert!(serde_json::from_str::<Amount>("1.5").is_err());
        assert!(serde_json::from_str::<Amount>("\" \"").is_err());
    }

    #[test]
    fn scope_self_is_written_self() {
        assert_eq!(
            serde_json::to_string(&Scope::<Plain>::Self_).unwrap(),
            "\"Self\""
        );
        assert_eq!(Scope::<Plain>::Self_.name(), "Self");
        assert_eq!(
            serde_json::from_str::<Scope>("\"Self\"").unwrap(),
            Scope::Self_
        );
        assert!(serde_json::from_str::<Scope>("\"Everyone\"").is_err());
    }
}
