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

/// The prefixes of the command ids the server gives its own commands: `timeout:<turn>`,
/// `bot:<seat>:<sequence>`, `clock-resumed:<sequence>`, `resign:<seat>`. A client may not
/// choose an id in this namespace: taking `timeout:3` first would make turn 3's timeout a
/// "reused id" and suppress it, and likewise a bot move, a clock resumption or another seat's
/// resignation.
pub const SYSTEM_COMMAND_ID_PREFIXES: &[&str] = &["timeout:", "bot:", "clock-resumed:", "resign:"];

/// Whether `id` lies in the server's own namespace ([`SYSTEM_COMMAND_ID_PREFIXES`]), compared
/// without regard to ASCII case so that `Timeout:3` cannot stand beside `timeout:3` in a log a
/// reader might take for the same.
pub fn is_system_command_id(id: &str) -> bool {
    SYSTEM_COMMAND_ID_PREFIXES.iter().any(|prefix| {
        id.len() >= prefix.len()
            && id.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
    })
}

#[cfg(test)]
mod system_id_tests {
    use super::is_system_command_id;

    #[test]
    fn every_system_prefix_is_reserved_whatever_the_case() {
        for id in [
            "timeout:3",
            "bot:1:2",
            "clock-resumed:0",
            "resign:1",
            "TIMEOUT:3",
            "Bot:x",
        ] {
            assert!(is_system_command_id(id), "{id}");
        }
        for id in ["c1", "timeout", "bot", "resigned", "my-timeout:3", "é"] {
            assert!(!is_system_command_id(id), "{id}");
        }
    }
}
