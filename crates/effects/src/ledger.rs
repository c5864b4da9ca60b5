//! The lingering effects of a match: changes of rule resources that outlive the moment their
//! row acted (`Permanent`, `ThisRound`, `NextRound`). They are never applied in place; every
//! rebuild re-applies the ones that hold, in layer order (docs/effects.md, "Rules are
//! rebuilt"), so a rule cannot rot by being forgotten, doubled or left behind.

use serde::{Deserialize, Serialize};

use crate::host::Target;
use crate::row::Duration;

/// Which way a lingering effect moves its resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LingeringOperation {
    /// `GainResource`.
    GainResource,
    /// `SpendResource`.
    SpendResource,
}

/// One recorded change of a rule resource, with the rounds it holds in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LingeringEffect {
    /// The row's owner, `kind:id`.
    pub owner: String,
    /// The owner's instance.
    pub anchor: Target,
    /// The row's `order`.
    pub row: u32,
    /// The trigger it fired on.
    pub trigger: String,
    /// Whom it changes.
    pub target: Target,
    /// Gain or spend.
    pub operation: LingeringOperation,
    /// Which rule resource.
    pub resource: String,
    /// By how much, evaluated once when the row acted (at least 0).
    pub amount: i64,
    /// The row's duration.
    pub duration: Duration,
    /// The first round it holds in.
    pub from_round: u32,
    /// The last round it holds in (`u32::MAX` for `Permanent`).
    pub until_round: u32,
}

impl LingeringEffect {
    /// The rounds a change made in `round` holds in: `ThisRound` that round,
    /// `NextRound` the next one only, `Permanent` from that round on.
    pub fn window(duration: Duration, round: u32) -> (u32, u32) {
        match duration {
            Duration::Permanent => (round, u32::MAX),
            Duration::ThisRound => (round, round),
            Duration::NextRound => {
                let next = round.saturating_add(1);
                (next, next)
            }
        }
    }

    /// Whether it holds in `round`.
    pub fn holds_in(&self, round: u32) -> bool {
        self.from_round <= round && round <= self.until_round
    }
}

/// The lingering effects of a match, in the order they were recorded. Part of the match
/// state (it serializes canonically).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EffectLedger {
    entries: Vec<LingeringEffect>,
}

impl EffectLedger {
    /// An empty ledger.
    pub fn new() -> EffectLedger {
        EffectLedger::default()
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> &[LingeringEffect] {
        &self.entries
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn record(&mut self, effect: LingeringEffect) {
        self.entries.push(effect);
    }

    /// Drops the entries whose last round is before `round`.
    pub fn prune(&mut self, round: u32) {
        self.entries.retain(|e| e.until_round >= round);
    }
}
