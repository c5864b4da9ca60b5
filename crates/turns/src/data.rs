//! One turn's data — owner, entity, config, type, status, number, ticks — and its operations.
//!
//! These are the seed's `TurnData` methods restated: changing the type or status emits an event
//! only when the value really changes, accumulating folds a finished turn into a seat's totals,
//! and one `reset` with optional fields replaces the seed's overloads. They are pure data
//! operations; the lifecycle around them (turn index, signals, the timer) lives in
//! [`Turns`](crate::Turns).

use serde::{Deserialize, Serialize};
use turnstile_core::Seat;

use crate::event::{TurnEvent, TurnEventSink};
use crate::ids::{EntityId, TurnConfigId};

/// Which interactions a turn suggests are allowed now. The framework enforces one thing with it:
/// a `Play` command is accepted only during a `Play` turn.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum TurnType {
    /// A player may act (play a card, take a shot).
    #[default]
    Play,
    /// Play is on hold: a pause between turns, an intro, a countdown.
    Countdown,
    /// A game's own kind of turn (`"shop"`, `"draft"`); the framework treats it like `Countdown`
    /// for commands (no `Play`), and the game interprets it.
    Custom(String),
}

/// Which logic acts on a turn's data.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "camelCase")]
pub enum TurnStatus {
    /// No timer, no commands. A finished turn is `Inactive`.
    #[default]
    Inactive,
    /// The timer runs (if the config uses one) and the owner's commands are accepted.
    Active,
    /// A `Play` was received and game logic is resolving it: the timer is stopped and commands are
    /// refused until the game reports the resolution done.
    Resolving,
}

/// Why a turn ended.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TurnEndReason {
    /// The timer ran out.
    Time,
    /// An accepted `Skip` command.
    Skip,
    /// The game ended the turn as part of accepting a `Play` (a move complete at once).
    Play,
    /// The game ended the turn when the resolution that followed a `Play` finished.
    Resolved,
    /// The turn's commander left the turn order mid-turn.
    Removed,
    /// A game's own reason (`"resigned"`, `"forfeited"`).
    Custom(String),
}

/// One turn's data: the global current turn, or a seat's accumulated totals.
///
/// As the current turn, `ticks` counts this turn's active timed ticks and `number` is untouched;
/// as a seat's data, `ticks` is the seat's total active timed ticks and `number` its count of
/// finished turns (see [`TurnData::accumulate`]).
///
/// Fields are declared in the order canonical JSON writes their keys (sorted), so that
/// fingerprinting, done for every receipt, never has to reorder them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct TurnData {
    /// The turn's config; `None` means no timer and not skippable.
    pub config: Option<TurnConfigId>,
    /// The entity this turn is about, if any.
    pub entity: Option<EntityId>,
    /// How many turns were accumulated into this data.
    pub number: u32,
    /// The seat this turn belongs to, if any (a turn for the environment has none).
    pub player: Option<Seat>,
    /// Which logic acts on the data.
    pub status: TurnStatus,
    /// Active timed ticks.
    pub ticks: u32,
    /// Which interactions the turn suggests (`type` in JSON).
    #[serde(rename = "type")]
    pub turn_type: TurnType,
}

impl TurnData {
    /// Fresh data owned by `seat`: what every seat starts a match with.
    pub fn for_seat(seat: Seat) -> Self {
        Self {
            player: Some(seat),
            ..Self::default()
        }
    }

    // `#[inline]` on `set_type`, `set_status` and `reset`: they run on every turn of every
    // move, and once this crate grew its hand-written event writers, thin LTO stopped inlining
    // them into the transition (+68 instructions a bare Connect Four move, measured with
    // callgrind; docs/benchmarks.md).

    /// Sets the type; emits [`TurnEvent::TurnTypeChanged`] and returns `true` only if it changed.
    #[inline]
    pub fn set_type<P, S>(
        &mut self,
        turn_type: TurnType,
        events: &mut impl TurnEventSink<P, S>,
    ) -> bool {
        if self.turn_type == turn_type {
            return false;
        }
        let previous = std::mem::replace(&mut self.turn_type, turn_type);
        events.record_signal(|| TurnEvent::TurnTypeChanged {
            previous,
            current: self.turn_type.clone(),
        });
        true
    }

    /// Sets the status; emits [`TurnEvent::TurnStatusChanged`] and returns `true` only if it
    /// changed, and also [`TurnEvent::TurnActivated`] when it became `Active`.
    #[inline]
    pub fn set_status<P, S>(
        &mut self,
        status: TurnStatus,
        events: &mut impl TurnEventSink<P, S>,
    ) -> bool {
        if self.status == status {
            return false;
        }
        let previous = std::mem::replace(&mut self.status, status);
        events.record_signal(|| TurnEvent::TurnStatusChanged {
            previous,
            current: status,
        });
        if status == TurnStatus::Active {
            events.record_signal(|| TurnEvent::TurnActivated {
                player: self.player,
                entity: self.entity,
            });
        }
        true
    }

    /// Folds a finished turn into this data: `ticks += from.ticks; number += 1` (both saturate
    /// rather than wrap, so a pathological match can't panic).
    pub fn accumulate(&mut self, from: &TurnData) {
        self.ticks = self.ticks.saturating_add(from.ticks);
        self.number = self.number.saturating_add(1);
    }

    /// Restores `ticks` to 0 and replaces whichever fields `reset` names; emits
    /// [`TurnEvent::TurnTimerReset`], then the type and status events of any real change (so a
    /// client never misses a status change, whatever operation made it).
    #[inline]
    pub fn reset<P, S>(&mut self, reset: ResetTurn, events: &mut impl TurnEventSink<P, S>) {
        let ResetTurn {
            config,
            turn_type,
            status,
            entity,
            player,
        } = reset;
        if let Some(config) = config {
            self.config = config;
        }
        if let Some(entity) = entity {
            self.entity = entity;
        }
        if let Some(player) = player {
            self.player = player;
        }
        self.ticks = 0;
        events.record_signal(|| TurnEvent::TurnTimerReset);
        if let Some(turn_type) = turn_type {
            self.set_type(turn_type, events);
        }
        if let Some(status) = status {
            self.set_status(status, events);
        }
    }
}

/// The one reset operation: `ticks` always go back to 0; every `Some` field replaces the turn's
/// value (`Some(None)` clears an optional one), every `None` keeps it.
///
/// Build it with the `with_*` methods: `ResetTurn::new().with_player(Some(Seat(1)))`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResetTurn {
    /// Replace the config (`Some(None)`: no config, so no timer).
    pub config: Option<Option<TurnConfigId>>,
    /// Replace the type.
    pub turn_type: Option<TurnType>,
    /// Replace the status.
    pub status: Option<TurnStatus>,
    /// Replace the entity.
    pub entity: Option<Option<EntityId>>,
    /// Replace the owner.
    pub player: Option<Option<Seat>>,
}

impl ResetTurn {
    /// A reset of the ticks only; add fields with the `with_*` methods.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also replace the config.
    pub fn with_config(mut self, config: Option<TurnConfigId>) -> Self {
        self.config = Some(config);
        self
    }

    /// Also replace the type.
    pub fn with_type(mut self, turn_type: TurnType) -> Self {
        self.turn_type = Some(turn_type);
        self
    }

    /// Also replace the status.
    pub fn with_status(mut self, status: TurnStatus) -> Self {
        self.status = Some(status);
        self
    }

    /// Also replace the entity.
    pub fn with_entity(mut self, entity: Option<EntityId>) -> Self {
        self.entity = Some(entity);
        self
    }

    /// Also replace the owner.
    pub fn with_player(mut self, player: Option<Seat>) -> Self {
        self.player = Some(player);
        self
    }
}
