//! Every way a turn operation can be refused, with stable snake_case codes.
//!
//! A refusal never half-applies an operation that validates its input: the state is unchanged
//! when one of the command refusals (`not_your_turn` … `resolving`), a clock error or a content
//! error is returned. The two limits (`signal_depth_exceeded`, `activation_limit_exceeded`) can
//! stop game logic part-way; like every rule rejection, the runtime discards the copy it applied
//! the command on.

use turnstile_core::{Seat, Tick};

use crate::ids::{CommanderId, TurnConfigId};

/// A refused turn operation. [`TurnError::code`] is stable and is what clients match on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// A config id does not resolve in the pinned content.
    #[error("turn config `{id}` does not resolve in the pinned content")]
    UnknownTurnConfig {
        /// The id that did not resolve.
        id: TurnConfigId,
    },
    /// A turn or commander names a seat the match does not have.
    #[error("seat {seat} is not a seat of this match")]
    UnknownSeat {
        /// The seat.
        seat: Seat,
    },
    /// A tick earlier than the match's last tick.
    #[error("tick {tick} is before the match's last tick {last_tick}: ticks never go backwards")]
    TickWentBackwards {
        /// The match's last tick.
        last_tick: Tick,
        /// The tick that was refused.
        tick: Tick,
    },
    /// A command from a seat that does not own the current turn.
    #[error("it is not seat {seat}'s turn")]
    NotYourTurn {
        /// The seat that sent the command.
        seat: Seat,
    },
    /// A command while the current turn is `Inactive` (ended, not begun, or paused).
    #[error("the current turn is not active")]
    TurnNotActive,
    /// A `Play` during a turn whose type is not `Play`.
    #[error("the current turn is not a play turn")]
    NotPlayTurn,
    /// A `Skip` during a turn whose config is absent or not skippable.
    #[error("the current turn can't be skipped")]
    NotSkippable,
    /// A command while the previous `Play` is still resolving.
    #[error("the current turn is resolving a play")]
    Resolving,
    /// Reporting a resolution done while nothing is resolving.
    #[error("the current turn is not resolving a play")]
    NotResolving,
    /// Beginning a turn while another is in progress: end it first.
    #[error("turn {turn_index} is still in progress")]
    TurnInProgress {
        /// The turn in progress.
        turn_index: u64,
    },
    /// Ending (or resolving) a turn when none is in progress.
    #[error("no turn is in progress")]
    NoTurnInProgress,
    /// A `Timeout` for a turn that has already ended.
    #[error("turn {turn_index} has already ended")]
    StaleTimeout {
        /// The turn named by the timeout.
        turn_index: u64,
    },
    /// A `Timeout` for a turn that has not begun.
    #[error("turn {turn_index} has not begun (the current turn index is {current})")]
    UnknownTurn {
        /// The turn named by the timeout.
        turn_index: u64,
        /// The match's current turn index.
        current: u64,
    },
    /// A `Timeout` stamped before the turn's deadline (or for a turn whose timer isn't running).
    #[error("turn {turn_index} has not timed out at tick {tick} (deadline {deadline_tick:?})")]
    TimeoutNotDue {
        /// The turn named by the timeout.
        turn_index: u64,
        /// The timeout's tick.
        tick: Tick,
        /// The turn's deadline, if its timer runs.
        deadline_tick: Option<Tick>,
    },
    /// A `ClockResumed` whose takeover tick is before the last heartbeat.
    #[error(
        "takeover tick {takeover_tick} is before the last heartbeat tick {last_heartbeat_tick}"
    )]
    ResumeBeforeHeartbeat {
        /// The last heartbeat tick.
        last_heartbeat_tick: Tick,
        /// The takeover tick.
        takeover_tick: Tick,
    },
    /// Adding a commander whose id is already registered or pending.
    #[error("commander `{id}` is already in the turn order")]
    DuplicateCommander {
        /// The id.
        id: CommanderId,
    },
    /// Naming a commander that is neither registered nor pending.
    #[error("commander `{id}` is not in the turn order")]
    UnknownCommander {
        /// The id.
        id: CommanderId,
    },
    /// Advancing the clock from inside a signal: time only enters at the top of a command.
    #[error("the clock can't be advanced from inside a signal")]
    NestedClockAdvance,
    /// Signals nested deeper than [`MAX_SIGNAL_DEPTH`](crate::MAX_SIGNAL_DEPTH).
    #[error("signals nested deeper than {limit}: game logic keeps ending and beginning turns")]
    SignalDepthExceeded {
        /// The limit.
        limit: u32,
    },
    /// More than [`MAX_ACTIVATIONS_PER_OPERATION`](crate::MAX_ACTIVATIONS_PER_OPERATION) turns
    /// began within one operation.
    #[error("more than {limit} turns began within one operation")]
    ActivationLimitExceeded {
        /// The limit.
        limit: u32,
    },
    /// A deserialized state that breaks the framework's invariants.
    #[error("inconsistent turn state: {detail}")]
    InconsistentState {
        /// What is wrong.
        detail: String,
    },
}

impl TurnError {
    /// The stable snake_case code of the refusal.
    pub fn code(&self) -> &'static str {
        match self {
            Self::UnknownTurnConfig { .. } => "unknown_turn_config",
            Self::UnknownSeat { .. } => "unknown_seat",
            Self::TickWentBackwards { .. } => "tick_went_backwards",
            Self::NotYourTurn { .. } => "not_your_turn",
            Self::TurnNotActive => "turn_not_active",
            Self::NotPlayTurn => "not_play_turn",
            Self::NotSkippable => "not_skippable",
            Self::Resolving => "resolving",
            Self::NotResolving => "not_resolving",
            Self::TurnInProgress { .. } => "turn_in_progress",
            Self::NoTurnInProgress => "no_turn_in_progress",
            Self::StaleTimeout { .. } => "stale_timeout",
            Self::UnknownTurn { .. } => "unknown_turn",
            Self::TimeoutNotDue { .. } => "timeout_not_due",
            Self::ResumeBeforeHeartbeat { .. } => "resume_before_heartbeat",
            Self::DuplicateCommander { .. } => "duplicate_commander",
            Self::UnknownCommander { .. } => "unknown_commander",
            Self::NestedClockAdvance => "nested_clock_advance",
            Self::SignalDepthExceeded { .. } => "signal_depth_exceeded",
            Self::ActivationLimitExceeded { .. } => "activation_limit_exceeded",
            Self::InconsistentState { .. } => "inconsistent_state",
        }
    }
}
