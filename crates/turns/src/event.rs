//! Events: what a receipt tells clients about turns. They never feed back into rules.
//!
//! Game logic reacts to [signals](crate::TurnSignals), called synchronously inside the
//! transition; events are the record of what happened, for rendering and logs.

use serde::{Deserialize, Serialize};
use turnstile_core::{Seat, Tick};

use crate::data::{TurnEndReason, TurnStatus, TurnType};
use crate::ids::{CommanderId, EntityId};
use crate::order::SkipReason;

/// Something that happened to the turn state. `P` and `S` are the game's `Play` and `Skip`
/// command data. In JSON: `{"type": "turnEnded", "turnIndex": 3, ...}`.
///
/// Events about type, status, activation and timer reset describe the [`TurnData`](crate::TurnData)
/// the operation was called on; emitted by [`Turns`](crate::Turns), that is always the match's
/// current turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TurnEvent<P = (), S = ()> {
    /// The turn's type really changed.
    TurnTypeChanged {
        /// The type before.
        previous: TurnType,
        /// The type now.
        current: TurnType,
    },
    /// The turn's status really changed.
    TurnStatusChanged {
        /// The status before.
        previous: TurnStatus,
        /// The status now.
        current: TurnStatus,
    },
    /// The turn became `Active` (a new turn, or a turn resumed after a resolution or a pause).
    TurnActivated {
        /// The turn's owner.
        player: Option<Seat>,
        /// The turn's entity.
        entity: Option<EntityId>,
    },
    /// The turn's ticks went back to 0 (a reset).
    TurnTimerReset,
    /// A new turn began: the match's turn index was raised. Paired with exactly one
    /// [`TurnEvent::TurnEnded`] with the same index.
    TurnBegan {
        /// The match-wide turn index of the new turn (what a `Timeout` names).
        turn_index: u64,
        /// The turn's owner.
        player: Option<Seat>,
        /// The turn's entity.
        entity: Option<EntityId>,
    },
    /// A turn ended.
    TurnEnded {
        /// The match-wide index of the turn that ended.
        turn_index: u64,
        /// The turn's owner.
        player: Option<Seat>,
        /// The turn's entity.
        entity: Option<EntityId>,
        /// Why it ended.
        reason: TurnEndReason,
        /// The turn's active timed ticks.
        ticks: u32,
    },
    /// A `Play` command was accepted.
    PlayCommandReceived {
        /// Who played.
        seat: Seat,
        /// The game's play data.
        data: P,
    },
    /// A `Skip` command was accepted.
    SkipCommandReceived {
        /// Who skipped.
        seat: Seat,
        /// The game's skip data.
        data: S,
    },
    /// A new round of the turn order began.
    RoundStarted {
        /// The round's number, from 1.
        round: u64,
    },
    /// A pending commander joined the loop at a round boundary.
    CommanderJoined {
        /// The commander.
        commander: CommanderId,
        /// The first round it takes part in.
        round: u64,
    },
    /// A commander left the turn order.
    CommanderRemoved {
        /// The commander.
        commander: CommanderId,
    },
    /// A commander's turn came but it could not act.
    CommanderSkipped {
        /// The commander.
        commander: CommanderId,
        /// Why, as the game said.
        reason: SkipReason,
    },
    /// A commander's priority changed.
    CommanderPriorityChanged {
        /// The commander.
        commander: CommanderId,
        /// The priority before.
        previous: i32,
        /// The priority now.
        current: i32,
    },
    /// A whole round went by with no commander able to act; the loop waits for the game.
    TurnOrderStalled {
        /// The round in which nobody acted.
        round: u64,
    },
    /// The clock resumed after an outage; the outage does not count against anyone.
    ClockResumed {
        /// The tick from which the outage no longer counts.
        outage_start_tick: Tick,
        /// The tick at which the clock resumed.
        takeover_tick: Tick,
        /// How far every running deadline moved.
        shift_ticks: u64,
    },
}
