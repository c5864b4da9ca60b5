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
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "EffectRow")]
pub struct EffectRow {
    /// The owning thing, by kind and id: `card:fireball`, `status:poison`, `phase:main`.
    pub owner: OwnerRef,
    /// The row's place among its owner's rows, from 0; rows of one owner run in this order.
    pub order: u32,
    /// When the row is looked at.
    pub trigger: Trigger,
    /// What must hold for the row to act. `Always` is written out: an empty condition is a
    /// load error, so that "no condition" and "forgot to fill it in" never look alike.
    pub condition: Condition,
    /// What the row does.
    pub operation: Operation,
    /// To whom it does it.
    pub scope: Scope,
    /// How long its change lasts.
    pub duration: Duration,
}

/// The columns of an effect sheet, in the order this project writes them.
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
    "operation.factor",
    "operation.hand",
    "operation.kind",
    "operation.id",
    "operation.rule",
    "operation.value",
    "operation.mode",
    "scope",
    "duration",
];

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

/// The thing a row belongs to, by kind and id: `joker:greedy`, `card:fireball`.
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
/// The built-in triggers are the moments every turn-based game has; a game names its own
/// moments (`OnUnitDies`) as custom triggers, which it declares in its
/// [`crate::EffectVocabulary`] — an undeclared name is a load error, so a typo never becomes
/// a trigger that nothing fires. Later versions add built-ins (clover's `OnCardScored`,
/// `OnHandPlayed`, ...); see docs/effects.md, "Growing the executor".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Trigger {
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
    /// Scoring (clover): after the hand is detected, before base values are read — level-ups,
    /// scaling counters (clover-facts.md step 2).
    BeforeScoring,
    /// Scoring: a scored card is evaluated (once per repetition); the event's target is the card.
    OnCardScored,
    /// Scoring: a card held in hand is evaluated (once per repetition); target is the card.
    OnCardHeld,
    /// Scoring: asked once per scored card before it is evaluated; its `Retrigger` rows add
    /// repetitions.
    OnScoredRepeat,
    /// Scoring: asked once per held card; its `Retrigger` rows add repetitions (only applied
    /// when the card produced an effect).
    OnHeldRepeat,
    /// Scoring: a joker's main effect, joker slots left to right (after its foil/holographic).
    OnHandPlayed,
    /// Scoring: right after a joker's main effect, what other jokers grant it; target is it.
    OnJokerEffect,
    /// Scoring: after a joker's effect and what others grant it (its polychrome).
    OnJokerDone,
    /// Scoring: the final steps of consumables and the deck, before chips × mult.
    OnFinalScore,
    /// After chips × mult: destruction (glass breaking) and other after-effects.
    AfterScoring,
    /// Cards are discarded; target is each discarded card.
    OnDiscard,
    /// The owner is bought.
    OnBuy,
    /// The owner is sold.
    OnSell,
    /// The owner (a consumable, a tag) is used or taken.
    OnUse,
    /// A shop opens.
    OnShopEnter,
    /// A boss blind is beaten.
    OnBossDefeated,
    /// A moment the game names and declares.
    Custom(String),
}

impl Trigger {
    /// The built-in triggers, in the order docs list them.
    pub const BUILT_IN: &'static [Trigger] = &[
        Trigger::OnPhaseEnter,
        Trigger::OnPhaseExit,
        Trigger::OnCardPlayed,
        Trigger::OnTurnStart,
        Trigger::OnTurnEnd,
        Trigger::OnRoundStart,
        Trigger::OnRoundEnd,
        Trigger::OnStatusTick,
        Trigger::Passive,
        Trigger::BeforeScoring,
        Trigger::OnCardScored,
        Trigger::OnCardHeld,
        Trigger::OnScoredRepeat,
        Trigger::OnHeldRepeat,
        Trigger::OnHandPlayed,
        Trigger::OnJokerEffect,
        Trigger::OnJokerDone,
        Trigger::OnFinalScore,
        Trigger::AfterScoring,
        Trigger::OnDiscard,
        Trigger::OnBuy,
        Trigger::OnSell,
        Trigger::OnUse,
        Trigger::OnShopEnter,
        Trigger::OnBossDefeated,
    ];

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
            Trigger::BeforeScoring => "BeforeScoring",
            Trigger::OnCardScored => "OnCardScored",
            Trigger::OnCardHeld => "OnCardHeld",
            Trigger::OnScoredRepeat => "OnScoredRepeat",
            Trigger::OnHeldRepeat => "OnHeldRepeat",
            Trigger::OnHandPlayed => "OnHandPlayed",
            Trigger::OnJokerEffect => "OnJokerEffect",
            Trigger::OnJokerDone => "OnJokerDone",
            Trigger::OnFinalScore => "OnFinalScore",
            Trigger::AfterScoring => "AfterScoring",
            Trigger::OnDiscard => "OnDiscard",
            Trigger::OnBuy => "OnBuy",
            Trigger::OnSell => "OnSell",
            Trigger::OnUse => "OnUse",
            Trigger::OnShopEnter => "OnShopEnter",
            Trigger::OnBossDefeated => "OnBossDefeated",
            Trigger::Custom(name) => name,
        }
    }

    /// The trigger named `name`: a built-in one, else a custom one.
    pub fn from_name(name: &str) -> Trigger {
        Trigger::BUILT_IN
            .iter()
            .find(|t| t.name() == name)
            .cloned()
            .unwrap_or_else(|| Trigger::Custom(name.to_owned()))
    }

    /// Whether this is a custom trigger.
    pub fn is_custom(&self) -> bool {
        matches!(self, Trigger::Custom(_))
    }
}

impl fmt::Display for Trigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Trigger {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Trigger {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Trigger, D::Error> {
        let name = String::deserialize(deserializer)?;
        if !is_identifier(&name) {
            return Err(de::Error::custom(format_args!(
                "`{name}` is not a trigger name: write letters, digits and `_`, starting with a letter"
            )));
        }
        Ok(Trigger::from_name(&name))
    }
}

impl JsonSchema for Trigger {
    fn schema_name() -> Cow<'static, str> {
        "Trigger".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = Trigger::BUILT_IN.iter().map(Trigger::name).collect();
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
    /// miss.
    Chance {
        /// The probability, `1/4`.
        #[schemars(with = "turnstile_sheets::ChanceSchema")]
        chance: Chance,
        /// The stream it draws from (the game declares its streams).
        stream: String,
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
/// How a game's world changes under each operation is the game's ([`crate::EffectHost`]);
/// the host trait's default methods give the standard meaning written here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub enum Operation {
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
    /// Scoring: adds chips to the hand being scored.
    AddChips {
        /// How many.
        amount: Amount,
    },
    /// Scoring: adds whole mult to the hand being scored (mult is a `Fixed`).
    AddMult {
        /// How much.
        amount: Amount,
    },
    /// Scoring: multiplies the mult by a factor: a decimal (`1.5`) or a formula giving a
    /// `Fixed` or an `Int`. The product is floored to ten-thousandths and saturates.
    MulMult {
        /// The factor.
        #[schemars(with = "turnstile_sheets::FormulaSchema")]
        factor: FormulaText,
    },
    /// Adds money to the run (the owner's seat).
    AddMoney {
        /// How much.
        amount: Amount,
    },
    /// Adds repetitions to the card being evaluated (asked on `OnScoredRepeat`/`OnHeldRepeat`).
    Retrigger {
        /// How many more times.
        count: Amount,
    },
    /// Raises a poker hand's level.
    LevelUpHand {
        /// The hand (`flush`, `pair`, ...); empty: the hand being played.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<String>,
        /// By how many levels.
        count: Amount,
    },
    /// Creates a card of a kind (a consumable, a joker, a playing card).
    CreateCard {
        /// The kind (`tarot`, `planet`, `joker`, ...).
        kind: String,
        /// Which one; empty: the game chooses (on its own stream).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    /// Destroys the target.
    Destroy,
    /// Sets a rule resource to a value (a `Passive` row: while its owner is present).
    SetRule {
        /// The rule resource.
        rule: String,
        /// The value.
        value: Amount,
    },
    /// Changes the owner's own counter (scaling jokers).
    ScaleSelf {
        /// By how much.
        amount: Amount,
        /// `Add` (empty), `Sub` (not below 0) or `Reset` (to the amount).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<ScaleMode>,
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

impl Operation {
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
            Operation::AddChips { .. } => "AddChips",
            Operation::AddMult { .. } => "AddMult",
            Operation::MulMult { .. } => "MulMult",
            Operation::AddMoney { .. } => "AddMoney",
            Operation::Retrigger { .. } => "Retrigger",
            Operation::LevelUpHand { .. } => "LevelUpHand",
            Operation::CreateCard { .. } => "CreateCard",
            Operation::Destroy => "Destroy",
            Operation::SetRule { .. } => "SetRule",
            Operation::ScaleSelf { .. } => "ScaleSelf",
            Operation::Custom { .. } => "Custom",
        }
    }
}

/// How `ScaleSelf` changes the owner's counter.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum ScaleMode {
    /// Adds the amount (saturating).
    Add,
    /// Subtracts the amount, not below 0.
    Sub,
    /// Sets the counter to the amount.
    Reset,
}

/// To whom a row does what it does. Each scope gives its targets in a fixed order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[non_exhaustive]
pub enum Scope {
    /// The owner itself: the thing the host anchored the owner to (a unit in play, a status's
    /// bearer, a seat for a seat-wide thing).
    #[serde(rename = "Self")]
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
    /// Scoring: the scored card being evaluated (the event's target).
    ScoredCard,
    /// Scoring: the held card being evaluated (the event's target).
    HeldCard,
    /// Every joker, slot order (the host lists them).
    AllJokers,
    /// The joker in the slot left of the owner, if any.
    LeftNeighbour,
    /// The joker in the slot right of the owner, if any.
    RightNeighbour,
    /// The run as a whole (the player's seat).
    Run,
}

impl Scope {
    /// The scope's name as content writes it.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Self_ => "Self",
            Scope::Owner => "Owner",
            Scope::Opponent => "Opponent",
            Scope::Target => "Target",
            Scope::AllSeats => "AllSeats",
            Scope::ActingSeat => "ActingSeat",
            Scope::ScoredCard => "ScoredCard",
            Scope::HeldCard => "HeldCard",
            Scope::AllJokers => "AllJokers",
            Scope::LeftNeighbour => "LeftNeighbour",
            Scope::RightNeighbour => "RightNeighbour",
            Scope::Run => "Run",
        }
    }
}

/// How long a row's change lasts (spec/effects.md).
///
/// A change of a game's current values (damage, a card drawn, mana spent) happens at once
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
        let owner: OwnerRef = "joker:greedy".parse().unwrap();
        assert_eq!((owner.kind(), owner.id()), ("joker", "greedy"));
        assert_eq!(owner.to_string(), "joker:greedy");
        assert_eq!(
            OwnerRef::new("card", "fire-ball.2").unwrap().as_str(),
            "card:fire-ball.2"
        );
        for bad in [
            "greedy", ":greedy", "joker:", "Joker:x", "1card:x", "card:a b", "card:a:b",
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
        assert_eq!(Trigger::from_name("OnTurnStart"), Trigger::OnTurnStart);
        assert_eq!(
            Trigger::from_name("OnUnitDies"),
            Trigger::Custom("OnUnitDies".into())
        );
        for trigger in Trigger::BUILT_IN {
            let json = serde_json::to_string(trigger).unwrap();
            assert_eq!(serde_json::from_str::<Trigger>(&json).unwrap(), *trigger);
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
        assert_eq!(serde_json::to_string(&Scope::Self_).unwrap(), "\"Self\"");
        assert_eq!(Scope::Self_.name(), "Self");
    }
}
