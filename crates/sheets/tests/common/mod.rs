//! The row type the sheet tests load: shaped like an effect row (an owner, an order, a
//! trigger from a closed list, polymorphic `condition` and `operation` groups), with one
//! field of every scalar kind a sheet types — integers with ranges, a `Fixed`, text, a truth
//! value, options.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use turnstile_core::determinism::Fixed;

/// One test row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestRow {
    pub owner: String,
    pub order: u32,
    pub trigger: TestTrigger,
    pub condition: TestCondition,
    pub operation: TestOperation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
}

/// When.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum TestTrigger {
    OnCardPlayed,
    OnTurnStart,
    Passive,
}

/// A condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum TestCondition {
    Always,
    Formula { formula: String },
    AtLeast { resource: String, amount: i64 },
}

/// An operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum TestOperation {
    Damage {
        amount: u32,
    },
    AddMult {
        #[schemars(with = "turnstile_sheets::FixedSchema")]
        mult: Fixed,
    },
    ApplyStatus {
        status: String,
        stacks: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration_turns: Option<u32>,
    },
    Custom {
        handler: String,
    },
}

/// The columns of the standard test sheet, in order.
#[allow(dead_code)]
pub const COLUMNS: &[&str] = &[
    "owner",
    "order",
    "trigger",
    "condition.$type",
    "condition.formula",
    "condition.resource",
    "condition.amount",
    "operation.$type",
    "operation.amount",
    "operation.mult",
    "operation.status",
    "operation.stacks",
    "operation.durationTurns",
    "operation.handler",
    "note",
    "hidden",
];
