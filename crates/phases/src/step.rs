//! `expectedStep`: the count of commands the current activation has accepted, which guards
//! commands inside an activation as `expectedSequence` guards them in a match.
//!
//! A client that acted on a stale view of the activation (another seat responded, a window
//! resolved) is refused with `stale_step` — the runtime's 409 — and nothing changes.

use serde::{Deserialize, Serialize};
use turnstile_core::CommandRefusal;

/// The step of the current activation: commands it has accepted so far, from 0.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ActivationStep {
    step: u64,
}

impl ActivationStep {
    /// Step 0: a new activation.
    pub const fn new() -> ActivationStep {
        ActivationStep { step: 0 }
    }

    /// The number of commands the current activation has accepted.
    pub const fn current(&self) -> u64 {
        self.step
    }

    /// Checks a command's `expectedStep`, if it gave one: `stale_step` unless it equals the
    /// current step. A command without one is not checked.
    pub fn check(&self, expected: Option<u64>) -> Result<(), CommandRefusal> {
        match expected {
            Some(expected) if expected != self.step => Err(CommandRefusal::StaleStep {
                expected,
                current: self.step,
            }),
            _ => Ok(()),
        }
    }

    /// A command of the current activation was accepted (whichever seat sent it: responses
    /// and passes in a window count too).
    pub fn accept(&mut self) {
        self.step = self.step.saturating_add(1);
    }

    /// A new activation begins: back to 0.
    pub fn begin_activation(&mut self) {
        self.step = 0;
    }
}
