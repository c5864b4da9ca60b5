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
pub struct Event {
    /// Which trigger it fires.
    pub trigger: Trigger,
    /// The seat it is about: who played the card, whose turn starts.
    pub seat: Option<Seat>,
    /// What caused it: the card played, the attacking unit.
    pub source: Option<Target>,
    /// What it was aimed at: the target chosen for a played card.
    pub target: Option<Target>,
}

impl Event {
    /// An event firing `trigger`, about no seat, source or target yet.
    pub fn new(trigger: Trigger) -> Event {
        Event {
            trigger,
            seat: None,
            source: None,
            target: None,
        }
    }

    /// The same event about `seat`.
    pub fn by(mut self, seat: Seat) -> Event {
        self.seat = Some(seat);
        self
    }

    /// The same event caused by `source`.
    pub fn from(mut self, source: Target) -> Event {
        self.source = Some(source);
        self
    }

    /// The same event aimed at `target`.
    pub fn at(mut self, target: Target) -> Event {
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
pub struct Owners<'a> {
    table: &'a EffectTable,
    list: &'a mut Vec<OwnerInstance>,
}

impl<'a> Owners<'a> {
    pub(crate) fn new(table: &'a EffectTable, list: &'a mut Vec<OwnerInstance>) -> Owners<'a> {
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
    pub fn table(&self) -> &EffectTable {
        self.table
    }
}

/// Where a row is acting, as a host sees it when it hands out variable values.
#[derive(Debug, Clone, Copy)]
pub struct RowContext<'a> {
    /// The event being resolved (for a rebuild: a `Passive` event).
    pub event: &'a Event,
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
    /// How many seats the game has; seats are `0..seat_count`.
    fn seat_count(&self) -> u16;

    /// The current round, for durations (`ThisRound`, `NextRound`).
    fn round(&self) -> u32;

    /// Pushes, in execution order, every present owner whose rows may react to `event`.
    /// For a `Passive` event (a rebuild), every present owner.
    fn owners(&self, event: &Event, owners: &mut Owners<'_>);

    /// The value of the variable at `slot` of the vocabulary's schema, for a row acting in
    /// `context`; `None` when it has none (an evaluation error). Called while a formula is
    /// evaluated: it must not allocate.
    fn variable(&self, context: &RowContext<'_>, slot: u16) -> Option<Value>;

    /// The match's named random streams (`Chance` conditions draw from them).
    fn streams(&mut self) -> &mut Streams;

    /// The value of `resource` on `target`, or `None` when the target has none.
    fn resource(&self, target: Target, resource: &str) -> Option<i64>;

    /// Sets `resource` on `target`.
    fn set_resource(&mut self, target: Target, resource: &str, value: i64)
        -> Result<(), HostError>;

    /// The statuses of the world.
    fn statuses(&self) -> &StatusBoard;

    /// The statuses of the world, to change.
    fn statuses_mut(&mut self) -> &mut StatusBoard;

    /// The lingering effects of the match (part of its state).
    fn ledger(&self) -> &EffectLedger;

    /// The lingering effects, to change.
    fn ledger_mut(&mut self) -> &mut EffectLedger;

    /// Resets every rule resource to its default (and the game's own base layers: stake,
    /// difficulty). Called first by every rebuild.
    fn reset_rules(&mut self);

    /// The target seat draws `count` cards; the change is the size of its hand.
    fn draw(
        &mut self,
        target: Target,
        count: i64,
        caused: &mut Vec<Event>,
    ) -> Result<Change, HostError>;

    /// `Damage`: lowers `health` by `amount`, not below 0.
    fn damage(
        &mut self,
        target: Target,
        amount: i64,
        caused: &mut Vec<Event>,
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
        caused: &mut Vec<Event>,
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
        caused: &mut Vec<Event>,
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
        caused: &mut Vec<Event>,
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
        caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        Ok(self
            .statuses_mut()
            .apply(target, status, stacks, duration_turns))
    }

    /// `RemoveStatus`: takes stacks off (all of them when `stacks` is `None`).
    fn remove_status(
        &mut self,
        target: Target,
        status: &str,
        stacks: Option<i64>,
        caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let _ = caused;
        Ok(self.statuses_mut().remove(target, status, stacks))
    }

    // ---- Scoring and run operations (clover). Each refuses by default, so a game without
    // ---- scoring compiles unchanged; a scoring game overrides the ones it uses.

    /// The targets of the scopes the executor cannot resolve alone (`AllJokers`,
    /// `LeftNeighbour`, `RightNeighbour`), in order. By default: `ScoredCard` and `HeldCard`
    /// are the event's target, `Run` is the owner's seat (seat 0 without one), the rest none.
    fn scope_targets(
        &self,
        scope: crate::row::Scope,
        owner: &OwnerInstance,
        event: &Event,
        out: &mut Vec<Target>,
    ) {
        use crate::row::Scope;
        match scope {
            Scope::ScoredCard | Scope::HeldCard => out.extend(event.target),
            Scope::Run => out.push(Target::Seat(owner.seat.unwrap_or(Seat(0)))),
            _ => {}
        }
    }

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

    /// `AddChips`: adds chips to the hand being scored.
    fn add_chips(&mut self, target: Target, amount: i64) -> Result<Change, HostError> {
        let _ = amount;
        Err(HostError::not_applicable("AddChips", target))
    }

    /// `AddMult`: adds whole mult to the hand being scored.
    fn add_mult(&mut self, target: Target, amount: i64) -> Result<Change, HostError> {
        let _ = amount;
        Err(HostError::not_applicable("AddMult", target))
    }

    /// `MulMult`: multiplies the mult of the hand being scored.
    fn mul_mult(
        &mut self,
        target: Target,
        factor: turnstile_core::determinism::Fixed,
    ) -> Result<Change, HostError> {
        let _ = factor;
        Err(HostError::not_applicable("MulMult", target))
    }

    /// `AddMoney`: adds money.
    fn add_money(&mut self, target: Target, amount: i64) -> Result<Change, HostError> {
        let _ = amount;
        Err(HostError::not_applicable("AddMoney", target))
    }

    /// `Retrigger`: adds repetitions to the card being evaluated.
    fn retrigger(&mut self, target: Target, count: i64) -> Result<Change, HostError> {
        let _ = count;
        Err(HostError::not_applicable("Retrigger", target))
    }

    /// `LevelUpHand`: raises a hand's level (`None`: the hand being played).
    fn level_up_hand(
        &mut self,
        target: Target,
        hand: Option<&str>,
        count: i64,
    ) -> Result<Change, HostError> {
        let _ = (hand, count);
        Err(HostError::not_applicable("LevelUpHand", target))
    }

    /// `CreateCard`: creates a card of a kind.
    fn create_card(
        &mut self,
        target: Target,
        kind: &str,
        id: Option<&str>,
        caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let _ = (kind, id, caused);
        Err(HostError::not_applicable("CreateCard", target))
    }

    /// `Destroy`: destroys the target.
    fn destroy(&mut self, target: Target, caused: &mut Vec<Event>) -> Result<Change, HostError> {
        let _ = caused;
        Err(HostError::not_applicable("Destroy", target))
    }

    /// `SetRule` (rebuild only): sets a rule resource. By default through `set_resource`.
    fn set_rule(&mut self, target: Target, rule: &str, value: i64) -> Result<Change, HostError> {
        let before = self
            .resource(target, rule)
            .ok_or_else(|| HostError::no_resource(target, rule))?;
        self.set_resource(target, rule, value)?;
        Ok(Change::int(before, value))
    }

    /// `ScaleSelf`: changes the owner's own counter (`owner` is its instance).
    fn scale_self(
        &mut self,
        owner: &OwnerInstance,
        amount: i64,
        mode: crate::row::ScaleMode,
    ) -> Result<Change, HostError> {
        let _ = (amount, mode);
        Err(HostError::not_applicable("ScaleSelf", owner.anchor))
    }
}
