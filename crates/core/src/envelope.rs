//! Command envelopes: an action together with who sends it, against which sequence, and when.

use crate::ids::{Seat, Sequence, Tick};
use crate::rejection::CommandRefusal;
use serde::{Deserialize, Serialize};

/// The longest command id accepted, in bytes.
pub const MAX_COMMAND_ID_LEN: usize = 128;

/// A command as submitted: the action plus everything the runtime checks before the rules see
/// it. The tick is stamped by the server (or, in a replay, read from the log), never trusted
/// from a client's clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandEnvelope<A> {
    /// The client's idempotency key, unique per match.
    pub command_id: String,
    /// The seat the command speaks for; `null` for system commands.
    pub seat: Option<Seat>,
    /// The match sequence the client last saw.
    pub expected_sequence: Sequence,
    /// The activation step the client last saw, when it cares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_step: Option<u64>,
    /// The match tick at which the command was accepted.
    pub tick: Tick,
    /// The game's action.
    pub action: A,
}

/// Checks that a command id is usable as an idempotency key: 1 to 128 bytes of printable ASCII.
pub fn check_command_id(id: &str) -> Result<(), CommandRefusal> {
    let reason = if id.is_empty() {
        "it is empty"
    } else if id.len() > MAX_COMMAND_ID_LEN {
        "it is longer than 128 bytes"
    } else if !id.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
        "it may hold only printable ASCII without spaces"
    } else {
        return Ok(());
    };
    Err(CommandRefusal::InvalidCommandId {
        reason: reason.into(),
    })
}
