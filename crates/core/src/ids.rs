//! Identifiers that every layer shares: seats, ticks, sequences.
//!
//! They are plain integers with names, so that a seat number can never be passed where a
//! sequence is expected, and so that persisted state never holds a `usize`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table, numbered from 0 as in the HTTP API.
///
/// A seat is who a command speaks for. System commands (a `Timeout`, a `ClockResumed`) have no
/// seat; they carry `Option<Seat>::None`, written `null` in envelopes, receipts and hashes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct Seat(pub u16);

impl Seat {
    /// The seat's number, as used in URLs and the command line.
    pub fn index(self) -> u16 {
        self.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A point on a match's clock, in ticks since the match began.
///
/// Time enters the rules only as ticks stamped on command envelopes; there is no wall clock.
pub type Tick = u64;

/// The position of a receipt in a match's log: the first accepted command has sequence 1, and a
/// new match is at sequence 0.
pub type Sequence = u64;

/// Who is looking at a match: a seat sees its own hidden information, a spectator only what is
/// public, and the referee (replays of finished matches, the server's own bookkeeping) everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "seat")]
pub enum Viewer {
    /// One seat's view.
    Seat(Seat),
    /// Public information only.
    Spectator,
    /// Everything, hidden information included.
    Referee,
}
