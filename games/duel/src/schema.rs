//! The JSON Schema of phase-sequence files. `turnstile-phases` (which this crate may not
//! change) does not derive `JsonSchema`, so this module mirrors its definition types field for
//! field, with the same serde attributes; the test `mirror_reads_every_preset_as_phases_does`
//! in `tests/content.rs` checks that both read the presets alike. Replace it with a derive in
//! `turnstile-phases` when that crate grows one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A phase sequence file (`spec/phases.md`, "Definition").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "PhaseSequenceDefinition")]
pub struct PhaseSequenceSchema {
    /// The id a phase state names.
    pub sequence_id: String,
    /// The author's number; informative.
    #[serde(default)]
    pub version: u32,
    /// Where every activation begins.
    #[serde(default)]
    pub entry_phase_id: String,
    /// The most Automatic transitions one operation may take (1..=1024).
    pub max_automatic_transitions: i64,
    /// The phases.
    pub phases: Vec<PhaseSchema>,
}

/// A phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhaseSchema {
    /// Unique in the sequence.
    pub phase_id: String,
    /// Start, Middle or End.
    pub role: PhaseRoleSchema,
    /// Offered to conditions as `phase_order`.
    #[serde(default)]
    pub order: i64,
    /// Action types allowed here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_actions: Vec<String>,
    /// Tags that allow the card or ability carrying one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_command_tags: Vec<String>,
    /// Effect ids run on entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entry_effects: Vec<String>,
    /// Effect ids run on exit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exit_effects: Vec<String>,
    /// Ways out.
    #[serde(default)]
    pub edges: Vec<EdgeSchema>,
}

/// A phase's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum PhaseRoleSchema {
    /// Where activations begin.
    Start,
    /// In between.
    Middle,
    /// An activation on an End phase is over.
    End,
}

/// What fires an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum EdgeTriggerSchema {
    /// With no input.
    Automatic,
    /// After a legal command.
    Command,
    /// When the activation ends.
    ActivationExit,
}

/// An edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EdgeSchema {
    /// Unique in the sequence.
    pub edge_id: String,
    /// The phase it leads to.
    pub target_phase_id: String,
    /// What fires it.
    pub trigger: EdgeTriggerSchema,
    /// Highest wins.
    #[serde(default)]
    pub priority: i64,
    /// A formula (docs/formula.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Command edges only: which command types fire it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_types: Vec<String>,
    /// Command edges only: which tags fire it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_tags: Vec<String>,
}
