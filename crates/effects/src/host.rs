//! The contract between the executor and a game's world: [`EffectHost`]. The executor
//! decides *which* rows act, in *what order*, on *whom*, and *whether* (conditions, chances,
//! limits); the host says who is present and in what order, what its variables are worth,
//! and how its world changes under each operation.
//!
//! Every operation has a default meaning, written once here, so that two games (or two
//! implementations) agree on what `Damage` or `GainResource` does unless a game says
//! otherwise on purpose (a shield that absorbs damage overrides [`EffectHost::damage`]).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::Streams;
use turnstile_core::Seat;
use turnstile_formula::Value;

use turnstile_formula::EvalError;

use crate::game::{GameVocabulary, Plain};
use crate::ledger::EffectLedger;
use crate::row::{OwnerRef, Trigger};
use crate::status::StatusBoard;
use crate::step::Number;
use crate::table::{EffectTable, OwnerKey};
use crate::vocabulary::{HEALTH, MAX_HEALTH};

/// An instance of a thing in a game's world (a card in play, a unit): a number the game
/// gives, stable within a match.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct ThingId(pub u32);

/// Whom an operation acts on: a seat (a player, a hero) or a thing. JSON: `{"seat": 1}` or
/// `{"thing": 7}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Target {
    /// A seat.
    Seat(Seat),
    /// A thing.
    Thing(ThingId),
}

/// Something that happened, which rows may react to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event<V: GameVocabulary = Plain> {
    /// Which trigger it fires.
    pub trigger: Trigger<V>,
    /// The seat it is about: who played the card, whose turn starts.
    pub seat: Option<Seat>,
    /// What caused it: the card played, the attacking unit.
    pub source: Option<Target>,
    /// What it was aimed at: the target chosen for a played card.
    pub target: Option<Target>,
}

impl<V: GameVocabulary> Event<V> {
    /// An event firing `trigger`, about no seat, source or target yet.
    pub fn new(trigger: Trigger<V>) -> Event<V> {
        Event {
            trigger,
            seat: None,
            source: None,
            target: None,
        }
    }

    /// The same event about `seat`.
    pub fn by(mut self, seat: Seat) -> Event<V> {
        self.seat = Some(seat);
        self
    }

    /// The same event caused by `source`.
    pub fn from(mut self, source: Target) -> Event<V> {
        self.source = Some(source);
        self
    }

    /// The same event aimed at `target`.
    pub fn at(mut self, target: Target) -> Event<V> {
        self.target = Some(target);
        self
    }
}

/// One present owner whose rows may act: which owner (by its key in the table), the
/// instance it is anchored to (what `Self` means for it), and the seat that controls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnerInstance {
    /// The owner's key in the table.
    pub key: OwnerKey,
    /// What `Self` means for this instance: the unit itself, a status's bearer, a seat.
    pub anchor: Target,
    /// The seat that controls it (`Owner` and `Opponent` are counted from it); none for a
    /// thing no seat controls.
    pub seat: Option<Seat>,
}

/// The list a host fills with the owners present for an event, in the order their rows run
/// (slot left to right, board order, seat order: the game's rule, not the executor's).
pub struct Owners<'a, V: GameVocabulary = Plain> {
    table: &'a EffectTable<V>,
    list: &'a mut Vec<OwnerInstance>,
}

impl<'a, V: GameVocabulary> Owners<'a, V> {
    pub(crate) fn new(
        table: &'a EffectTable<V>,
        list: &'a mut Vec<OwnerInstance>,
    ) -> Owners<'a, V> {
        Owners { table, list }
    }

    /// Adds the owner named `owner` (`card:fireball`), anchored to `anchor` and controlled
    /// by `seat`. An owner with no rows in the table is skipped (a plain card with no
    /// effects); returns whether it was added.
    pub fn push(&mut self, owner: &str, anchor: Target, seat: Option<Seat>) -> bool {
        match self.table.owner_key(owner) {
            Some(key) => {
                self.push_key(key, anchor, seat);
                true
            }
            None => false,
        }
    }

    /// Adds an owner by its key (found once with [`EffectTable::owner_key`]).
    pub fn push_key(&mut self, key: OwnerKey, anchor: Target, seat: Option<Seat>) {
        self.list.push(OwnerInstance { key, anchor, seat });
    }

    /// The table the owners are looked up in.
    pub fn table(&self) -> &EffectTable<V> {
        self.table
    }
}

/// Where a row is acting, as a host sees it when it hands out variable values.
#[derive(Debug, Clone, Copy)]
pub struct RowContext<'a, V: GameVocabulary = Plain> {
    /// The event being resolved (for a rebuild: a `Passive` event).
    pub event: &'a Event<V>,
    /// The owner instance whose row acts.
    pub owner: &'a OwnerInstance,
    /// The owner's reference, `kind:id`.
    pub owner_ref: &'a OwnerRef,
    /// The row's `order`.
    pub row: u32,
    /// The target the row is looking at.
    pub target: Target,
}

/// What an operation changed: the value before and after (health, stacks, cards in hand...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// Before.
    pub before: Number,
    /// After.
    pub after: Number,
}

impl Change {
    /// An integer change.
    pub fn int(before: i64, after: i64) -> Change {
        Change {
            before: Number::Int(before),
            after: Number::Int(after),
        }
    }
}

/// A host's refusal to carry out an operation (a target without the resource, a seat that
/// cannot draw). A typed code and a message: a content or game defect, surfaced, never a
/// panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} ({code})")]
pub struct HostError {
    /// A stable `snake_case` code.
    pub code: Cow<'static, str>,
    /// For a person.
    pub message: String,
}

impl HostError {
    /// A host error.
    pub fn new(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> HostError {
        HostError {
            code: code.into(),
            message: message.into(),
        }
    }

    /// The target has no such resource.
    pub fn no_resource(target: Target, resource: &str) -> HostError {
        HostError::new(
            "no_resource",
            format!("{target:?} has no resource `{resource}`"),
        )
    }

    /// The operation means nothing for this target (drawing for a unit).
    pub fn not_applicable(operation: &str, target: Target) -> HostError {
        HostError::new(
            "not_applicable",
            format!("`{operation}` does not apply to {target:?}"),
        )
    }
}

/// The effect engine's state inside a game's: its statuses and its lingering effects, lent
/// together by [`EffectHost::effects`]. A view rather than one owned struct, so a game keeps
/// both where its saved state has always had them (its fingerprints stay the same).
#[derive(Debug)]
pub struct EffectState<'a> {
    /// The statuses of the world.
    pub statuses: &'a mut StatusBoard,
    /// The lingering effects of the match (part of its state).
    pub ledger: &'a mut EffectLedger,
}

/// Why a game operation did not act: the host refused it, or a formula in it failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OperationError {
    /// The host refused.
    #[error(transparent)]
    Host(#[from] HostError),
    /// An amount or factor formula failed while evaluated.
    #[error(transparent)]
    Evaluation(#[from] EvalError),
}

/// A game's world, as the effect executor sees it.
///
/// A game implements this for its state (or a view of it that borrows the state mutably).
/// The required methods answer questions only the game can; the provided ones give each
/// operation its standard meaning in terms of [`EffectHost::resource`],
/// [`EffectHost::set_resource`] and the [`StatusBoard`], and a game overrides one only to
/// mean something else on purpose.
///
/// Every method that changes the world receives `caused`: events it pushes there (a unit's
/// health reached 0: `OnUnitDies`) are resolved after the current event's rows, in the order
/// pushed.
pub trait EffectHost {
    /// The game's own triggers, scopes and operations ([`Plain`] for none).
    type Vocabulary: GameVocabulary;

    /// How many seats the game has; seats are `0..seat_count`.
    fn seat_count(&self) -> u16;

    /// The current round, for durations (`ThisRound`, `NextRound`).
    fn round(&self) -> u32;

    /// Pushes, in execution order, every present owner whose rows may react to `event`.
    /// For a `Passive` event (a rebuild), every present owner.
    fn owners(&self, event: &Event<Self::Vocabulary>, owners: &mut Owners<'_, Self::Vocabulary>);

    /// The value of the variable at `slot` of the vocabulary's schema, for a row acting in
    /// `context`; `None` when it has none (an evaluation error). Called while a formula is
    /// evaluated: it must not allocate.
    fn variable(&self, context: &RowContext<'_, Self::Vocabulary>, slot: u16) -> Option<Value>;

    /// The match's named random streams (`Chance` conditions draw from them).
    fn streams(&mut self) -> &mut Streams;

    /// The value of `resource` on `target`, or `None` when the target has none.
    fn resource(&self, target: Target, resource: &str) -> Option<i64>;

    /// Sets `resource` on `target`.
    fn set_resource(&mut self, target: Target, resource: &str, value: i64)
        -> Result<(), HostError>;

    /// The state the effect engine keeps in the game's: its statuses and its lingering
    /// effects, in one borrow.
    fn effects(&mut self) -> EffectState<'_>;

    /// Resets every rule resource to its default (and the game's own base layers: stake,
    /// difficulty). Called first by every rebuild.
    fn reset_rules(&mut self);

    /// The target seat draws `count` cards; the change is the size of its hand.
    fn draw(
        &mut self,
        target: Target,
        count: i64,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, HostError>;

    /// `Damage`: lowers `health` by `amount`, not below 0.
    fn damage(
        &mut self,
        target: Target,
        amount: i64,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        let before = self
            .resource(target, HEALTH)
            .ok_or_else(|| HostError::no_resource(target, HEALTH))?;
        let after = before.saturating_sub(amount).max(0).min(before);
        self.set_resource(target, HEALTH, after)?;
        Ok(Change::int(before, after))
    }

    /// `Heal`: raises `health` by `amount`, not above `max_health` when the target has one
    /// (and never lowers it).
    fn heal(
        &mut self,
        target: Target,
        amount: i64,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        let before = self
            .resource(target, HEALTH)
            .ok_or_else(|| HostError::no_resource(target, HEALTH))?;
        let mut after = before.saturating_add(amount);
        if let Some(cap) = self.resource(target, MAX_HEALTH) {
            after = after.min(cap).max(before);
        }
        self.set_resource(target, HEALTH, after)?;
        Ok(Change::int(before, after))
    }

    /// `GainResource`: raises `resource` by `amount`, saturating.
    fn gain_resource(
        &mut self,
        target: Target,
        resource: &str,
        amount: i64,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        let before = self
            .resource(target, resource)
            .ok_or_else(|| HostError::no_resource(target, resource))?;
        let after = before.saturating_add(amount);
        self.set_resource(target, resource, after)?;
        Ok(Change::int(before, after))
    }

    /// `SpendResource`: lowers `resource` by `amount`, not below 0 (and never raises it).
    fn spend_resource(
        &mut self,
        target: Target,
        resource: &str,
        amount: i64,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        let before = self
            .resource(target, resource)
            .ok_or_else(|| HostError::no_resource(target, resource))?;
        let after = before.saturating_sub(amount).max(0).min(before);
        self.set_resource(target, resource, after)?;
        Ok(Change::int(before, after))
    }

    /// `ApplyStatus`: adds stacks on the [`StatusBoard`] (see [`StatusBoard::apply`]).
    fn apply_status(
        &mut self,
        target: Target,
        status: &str,
        stacks: i64,
        duration_turns: Option<u32>,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        Ok(self
            .effects()
            .statuses
            .apply(target, status, stacks, duration_turns))
    }

    /// `RemoveStatus`: takes stacks off (all of them when `stacks` is `None`).
    fn remove_status(
        &mut self,
        target: Target,
        status: &str,
        stacks: Option<i64>,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        Ok(self.effects().statuses.remove(target, status, stacks))
    }

    /// The targets of one of the game's own scopes for `owner` and `event`, in the scope's
    /// order.
    fn scope_targets(
        &self,
        scope: <Self::Vocabulary as GameVocabulary>::Scope,
        owner: &OwnerInstance,
        event: &Event<Self::Vocabulary>,
        out: &mut Vec<Target>,
    );

    /// Carries out one of the game's own operations on `context.target` and says what it
    /// changed. Amounts and factors in it are evaluated here
    /// ([`crate::CompiledAmount::eval`]), with this host's variables.
    fn operate(
        &mut self,
        operation: &<Self::Vocabulary as GameVocabulary>::Compiled,
        context: &RowContext<'_, Self::Vocabulary>,
        caused: &mut Vec<Event<Self::Vocabulary>>,
    ) -> Result<Change, OperationError>;

    /// The chance a `Chance` condition rolls, after the game's modifiers (an effect that
    /// doubles all chances doubles the numerator). By default, unchanged.
    fn chance(
        &self,
        chance: turnstile_core::determinism::Chance,
        stream: &str,
    ) -> turnstile_core::determinism::Chance {
        let _ = stream;
        chance
    }

    /// `SetRule` (rebuild only): sets a rule resource. By default through `set_resource`.
    fn set_rule(&mut self, target: Target, rule: &str, value: i64) -> Result<Change, HostError> {
        let before = self
            .resource(target, rule)
            .ok_or_else(|| HostError::no_resource(target, rule))?;
        self.set_resource(target, rule, value)?;
        Ok(Change::int(before, value))
    }
}
