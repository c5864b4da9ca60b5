//! Why a command was refused, as a stable code and a sentence for a person.
//!
//! Two families share one shape. A *rule rejection* comes from a game's rules (`wall`,
//! `not_your_turn`, `solved`) and is remembered under its command id, so that a retry gets the
//! same answer. A *refusal* comes from the runtime before the rules are asked (a stale sequence,
//! an unknown seat); it is never remembered, so the client may retry the same id after
//! refreshing. Either way nothing changes: not the state, not the sequence, not a random stream.

use crate::ids::{Seat, Sequence, Tick};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// A rule rejection: a stable snake_case code and a message for a person.
///
/// Codes are part of the public API (clients switch on them); messages are not and may be
/// reworded. Games build them with [`Rejection::new`] from their own error enums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejection {
    /// Stable code, `snake_case`.
    pub code: Cow<'static, str>,
    /// What was wrong, for a person.
    pub message: String,
}

impl Rejection {
    /// A rejection with a static code.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Rejection {
            code: Cow::Borrowed(code),
            message: message.into(),
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Rejection {}

/// Everything that can stop a command from becoming a receipt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum CommandRefusal {
    /// The game's rules reject the action.
    #[error("{0}")]
    Rule(Rejection),
    /// The client acted on a stale view: its `expectedSequence` is not the match's sequence.
    #[error("stale sequence: the command expected sequence {expected}, the match is at {current}")]
    StaleSequence {
        /// What the command said.
        expected: Sequence,
        /// Where the match is.
        current: Sequence,
    },
    /// The client acted on a stale view of the current activation.
    #[error(
        "stale step: the command expected step {expected}, the activation is at step {current}"
    )]
    StaleStep {
        /// What the command said.
        expected: u64,
        /// Where the activation is.
        current: u64,
    },
    /// The seat does not exist in this match.
    #[error("unknown seat {seat}: the match has {seats} seat(s), numbered from 0")]
    UnknownSeat {
        /// The seat named.
        seat: Seat,
        /// How many seats the match has.
        seats: u16,
    },
    /// A player action arrived with no seat.
    #[error("this action needs a seat; only system commands (Timeout, ClockResumed) have none")]
    SeatRequired,
    /// A system action arrived with a seat.
    #[error("this action is a system command and must not name a seat")]
    SystemOnly,
    /// The envelope's tick is earlier than the last receipt's.
    #[error("tick {tick} is before the match's last tick {last}; a match's clock never goes back")]
    TickWentBackwards {
        /// The envelope's tick.
        tick: Tick,
        /// The last receipt's tick.
        last: Tick,
    },
    /// A command id was reused for a different command.
    #[error("command id {command_id:?} was already used for a different command")]
    CommandIdReused {
        /// The id.
        command_id: String,
    },
    /// The command id is empty, too long or has characters outside printable ASCII.
    #[error("invalid command id: {reason}")]
    InvalidCommandId {
        /// Why.
        reason: String,
    },
}

impl CommandRefusal {
    /// The stable code of this refusal; for a rule rejection, the game's own code.
    pub fn code(&self) -> &str {
        match self {
            CommandRefusal::Rule(r) => &r.code,
            CommandRefusal::StaleSequence { .. } => "stale_sequence",
            CommandRefusal::StaleStep { .. } => "stale_step",
            CommandRefusal::UnknownSeat { .. } => "unknown_seat",
            CommandRefusal::SeatRequired => "seat_required",
            CommandRefusal::SystemOnly => "system_only",
            CommandRefusal::TickWentBackwards { .. } => "tick_went_backwards",
            CommandRefusal::CommandIdReused { .. } => "command_id_reused",
            CommandRefusal::InvalidCommandId { .. } => "invalid_command_id",
        }
    }

    /// True for a rule rejection, the only kind remembered under its command id.
    pub fn is_rule(&self) -> bool {
        matches!(self, CommandRefusal::Rule(_))
    }
}

impl From<Rejection> for CommandRefusal {
    fn from(r: Rejection) -> Self {
        CommandRefusal::Rule(r)
    }
}
