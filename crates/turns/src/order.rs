//! Turn order: commanders — actors that take turns — visited round by round by priority.
//!
//! This module holds the order's state and its pure bookkeeping (registration, the visiting order
//! of a round, removal). Driving it — asking the game whether a commander can act, recomputing
//! priorities, beginning each activation of the current turn — is done by
//! [`Turns`](crate::Turns), which owns the signals.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::cmp::Reverse;
use std::sync::Arc;
use turnstile_core::Seat;

use crate::error::TurnError;
use crate::ids::{CommanderId, EntityId, TurnConfigId};

/// An actor that takes turns: a player's hero, one of several units, a monster run by the game.
///
/// Fields are declared in the order canonical JSON writes their keys (sorted), so that
/// fingerprinting, done for every receipt, never has to reorder them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Commander {
    /// The config of the commander's turns (`None`: no timer, not skippable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<TurnConfigId>,
    /// The entity the commander's turns are about.
    pub entity: Option<EntityId>,
    /// Unique within the turn order.
    pub id: CommanderId,
    /// Higher goes first within a round.
    pub priority: i32,
    /// The seat whose commands drive this commander's turns; `None` for an actor run by game logic
    /// (every seat's `Play` is then refused with `not_your_turn`).
    pub seat: Option<Seat>,
}

impl Commander {
    /// A commander with no entity and no config.
    pub fn new(id: impl Into<String>, seat: Option<Seat>, priority: i32) -> Self {
        Self::with_id(CommanderId::new(id), seat, priority)
    }

    /// [`Commander::new`] with an id already made, whose text it shares (a game that creates
    /// the same commanders for every match makes their ids once).
    pub fn with_id(id: CommanderId, seat: Option<Seat>, priority: i32) -> Self {
        Self {
            id,
            seat,
            entity: None,
            priority,
            config: None,
        }
    }

    /// The same commander, about `entity`.
    pub fn with_entity(mut self, entity: EntityId) -> Self {
        self.entity = Some(entity);
        self
    }

    /// The same commander, whose turns use `config`.
    pub fn with_config(mut self, config: TurnConfigId) -> Self {
        self.config = Some(config);
        self
    }
}

/// Why a commander could not act when its turn came (the game's answer to
/// [`TurnSignals::can_act`](crate::TurnSignals::can_act)).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SkipReason {
    /// Out of hit points.
    Dead,
    /// Stunned.
    Stunned,
    /// Frozen.
    Frozen,
    /// A game's own reason.
    Custom(String),
}

/// When the game's priorities are recomputed (through
/// [`TurnSignals::recompute_priority`](crate::TurnSignals::recompute_priority)).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "camelCase")]
pub enum RecomputeAt {
    /// Priorities change only when the game sets them.
    #[default]
    Never,
    /// At every round boundary, before the round's order is fixed.
    EveryRound,
    /// Before every pick of the next commander (and at every round boundary): the rest of the
    /// round is re-sorted, so initiative that changes mid-round takes effect at once.
    EveryActivation,
}

/// What an attempt to begin the next activation came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "outcome",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum LoopOutcome {
    /// This commander's turn began.
    Activated {
        /// The commander now acting.
        commander: CommanderId,
    },
    /// No commander is registered, even after the pending ones joined: nothing to do.
    Idle,
    /// A whole round went by and no commander could act; the loop waits at the next boundary
    /// until the game advances it again.
    Stalled {
        /// The round in which nobody acted.
        round: u64,
    },
    /// A turn is in progress; the loop continues when it ends.
    Waiting,
}

/// A commander in the order, with the registration number that breaks priority ties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    /// The commander.
    pub commander: Commander,
    /// Its position in the order of `add` calls, from 0; unique within the order.
    pub registration: u64,
}

impl Registration {
    fn visiting_key(&self) -> (Reverse<i32>, u64, &CommanderId) {
        (
            Reverse(self.commander.priority),
            self.registration,
            &self.commander.id,
        )
    }
}

/// The commanders still to act in this round, in visiting order. Up to four live inside the
/// state (every shipped game has two), so copying the state for a command allocates nothing.
pub(crate) type Remaining = SmallVec<[CommanderId; 4]>;

/// The commander loop's state: who is registered, who waits to join, what is left of the round,
/// who is acting.
///
/// The registered commanders rarely change (a join, a removal, a new priority) while the rest
/// changes with every turn, so they are shared between copies of the state and copied only when
/// one of them changes.
///
/// Fields are declared in the order canonical JSON writes their keys (sorted), so that
/// fingerprinting, done for every receipt, never has to reorder them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct TurnOrder {
    pub(crate) acting: Option<CommanderId>,
    pub(crate) next_registration: u64,
    pub(crate) pending: Vec<Registration>,
    pub(crate) recompute_at: RecomputeAt,
    #[serde(with = "shared_list")]
    pub(crate) registered: Arc<Vec<Registration>>,
    pub(crate) remaining: Remaining,
    pub(crate) round: u64,
    pub(crate) running: bool,
}

impl TurnOrder {
    /// An empty order that recomputes priorities at `recompute_at`.
    pub fn new(recompute_at: RecomputeAt) -> Self {
        Self {
            recompute_at,
            ..Self::default()
        }
    }

    /// When priorities are recomputed.
    pub fn recompute_at(&self) -> RecomputeAt {
        self.recompute_at
    }

    /// Registered commanders (in the loop), in registration order.
    pub fn commanders(&self) -> impl Iterator<Item = &Commander> {
        self.registered.iter().map(|r| &r.commander)
    }

    /// Registered commanders with their registration numbers, in registration order.
    pub fn registrations(&self) -> &[Registration] {
        &self.registered
    }

    /// Commanders waiting to join at the next round boundary, in registration order.
    pub fn pending(&self) -> impl Iterator<Item = &Commander> {
        self.pending.iter().map(|r| &r.commander)
    }

    /// The commanders still to visit in the current round, in visiting order.
    pub fn remaining_in_round(&self) -> &[CommanderId] {
        &self.remaining
    }

    /// The commander whose turn is in progress, if the current turn is a commander's.
    pub fn acting(&self) -> Option<&CommanderId> {
        self.acting.as_ref()
    }

    /// The seed's `IsTurn`: whether this commander's turn is in progress.
    pub fn is_turn(&self, id: &CommanderId) -> bool {
        self.acting.as_ref() == Some(id)
    }

    /// The current round's number; 0 before the first round.
    pub fn round(&self) -> u64 {
        self.round
    }

    /// Whether the loop runs: after every turn end it begins the next activation by itself.
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// A registered or pending commander.
    pub fn get(&self, id: &CommanderId) -> Option<&Commander> {
        self.find(id).map(|r| &r.commander)
    }

    /// The registered commanders in the order a fresh round would visit them: priority highest
    /// first, then registration order, then id.
    pub fn visiting_order(&self) -> Vec<&Commander> {
        let mut sorted: Vec<&Registration> = self.registered.iter().collect();
        sorted.sort_by(|a, b| a.visiting_key().cmp(&b.visiting_key()));
        sorted.into_iter().map(|r| &r.commander).collect()
    }

    fn find(&self, id: &CommanderId) -> Option<&Registration> {
        self.registered
            .iter()
            .chain(self.pending.iter())
            .find(|r| &r.commander.id == id)
    }

    pub(crate) fn find_registered(&self, id: &CommanderId) -> Option<&Commander> {
        find_registration(&self.registered, id).map(|r| &r.commander)
    }

    pub(crate) fn contains(&self, id: &CommanderId) -> bool {
        self.find(id).is_some()
    }

    /// Puts a validated commander in the pending set.
    pub(crate) fn add_pending(&mut self, commander: Commander) -> Result<(), TurnError> {
        if self.contains(&commander.id) {
            return Err(TurnError::DuplicateCommander { id: commander.id });
        }
        let registration = self.next_registration;
        self.next_registration = self.next_registration.saturating_add(1);
        self.pending.push(Registration {
            commander,
            registration,
        });
        Ok(())
    }

    /// Takes a commander out of the loop, the pending set and the round. Returns whether it was
    /// acting; `acting` itself is cleared when its turn ends.
    pub(crate) fn take_out(&mut self, id: &CommanderId) -> Result<bool, TurnError> {
        if !self.contains(id) {
            return Err(TurnError::UnknownCommander { id: id.clone() });
        }
        if self.registered.iter().any(|r| &r.commander.id == id) {
            Arc::make_mut(&mut self.registered).retain(|r| &r.commander.id != id);
        }
        self.pending.retain(|r| &r.commander.id != id);
        self.remaining.retain(|r| r != id);
        Ok(self.acting.as_ref() == Some(id))
    }

    /// Moves the pending commanders into the loop, in registration order; returns their ids.
    pub(crate) fn join_pending(&mut self) -> Vec<CommanderId> {
        let joined: Vec<CommanderId> = self
            .pending
            .iter()
            .map(|r| r.commander.id.clone())
            .collect();
        if !self.pending.is_empty() {
            let registered = Arc::make_mut(&mut self.registered);
            registered.append(&mut self.pending);
            registered.sort_by_key(|r| r.registration);
        }
        joined
    }

    /// Sorts the rest of the round into visiting order.
    pub(crate) fn sort_remaining(&mut self) {
        let registered = &self.registered;
        let key = |id: &CommanderId| {
            find_registration(registered, id)
                .map(|r| (Reverse(r.commander.priority), r.registration))
        };
        self.remaining
            .sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.cmp(b)));
    }

    /// Sets a commander's priority (registered or pending); returns the previous one.
    pub(crate) fn set_priority(
        &mut self,
        id: &CommanderId,
        priority: i32,
    ) -> Result<i32, TurnError> {
        let registered = self.registered.iter().any(|r| &r.commander.id == id);
        let registration = if registered {
            Arc::make_mut(&mut self.registered).iter_mut()
        } else {
            self.pending.iter_mut()
        }
        .find(|r| &r.commander.id == id)
        .ok_or_else(|| TurnError::UnknownCommander { id: id.clone() })?;
        Ok(std::mem::replace(
            &mut registration.commander.priority,
            priority,
        ))
    }
}

/// The registration of `id` among `registered`, looked up by address first: the ids in the
/// round and in `acting` are copies of the registered ones, so the text is compared only for
/// an id from elsewhere (every id with the same text as a registered one is that commander).
fn find_registration<'r>(
    registered: &'r [Registration],
    id: &CommanderId,
) -> Option<&'r Registration> {
    registered
        .iter()
        .find(|r| r.commander.id.shares_text(id))
        .or_else(|| registered.iter().find(|r| &r.commander.id == id))
}

/// `Arc<Vec<T>>` as a plain JSON list.
mod shared_list {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub(super) fn serialize<S: Serializer, T: Serialize>(
        list: &Arc<Vec<T>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        list.as_slice().serialize(serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        deserializer: D,
    ) -> Result<Arc<Vec<T>>, D::Error> {
        Vec::deserialize(deserializer).map(Arc::new)
    }
}
