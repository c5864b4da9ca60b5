//! The step record: one line of a receipt's resolution list for every row that acted —
//! which owner, which row, on what trigger, which operation, on whom, and the value before and
//! after — so that a client can animate a resolution and a reader can audit it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::Fixed;

use crate::host::Target;

/// A value in a step: an integer (health, stacks, a count) or a `Fixed` (a factor).
/// JSON: `{"int": 17}` or `{"fixed": 15000}` (the raw count, as every `Fixed` in canonical
/// JSON), so the two never read alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Number {
    /// An integer.
    Int(i64),
    /// A fixed-point number.
    Fixed(Fixed),
}

/// Why a step happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StepKind {
    /// A row reacting to an event changed the world at once.
    Instant,
    /// A row reacting to an event recorded a lingering change of a rule resource; the
    /// change itself shows in the rebuild steps (`before` and `after` are the current value).
    Recorded,
    /// A rebuild re-applied a `Permanent` lingering change (layer 2).
    Lingering,
    /// A rebuild applied a `Passive` row of a present owner (layer 3).
    Passive,
    /// A rebuild re-applied a change that holds this round only (layer 4).
    Round,
}

/// One row acting on one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// Why it happened.
    pub kind: StepKind,
    /// The row's owner, `kind:id`.
    pub owner: Arc<str>,
    /// The owner's instance.
    pub anchor: Target,
    /// The row's `order`.
    pub row: u32,
    /// The trigger the row fired on.
    pub trigger: Arc<str>,
    /// The operation, as `operation.$type` writes it (`Custom:<handler>` for a handler).
    pub operation: Arc<str>,
    /// The resource or status it changed, when the operation names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Arc<str>>,
    /// On whom.
    pub target: Target,
    /// The value before.
    pub before: Number,
    /// The value after.
    pub after: Number,
}
