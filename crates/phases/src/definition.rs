//! The phase graph as content data: [`PhaseSequenceDefinition`] and its parts, in exactly the
//! JSON shape of spec/phases.md ("Definition").
//!
//! These types are plain data. They hold what a designer wrote, nothing compiled and nothing
//! checked; [`crate::validate_sequence`] turns one into a [`crate::PhaseSequence`] the reducer
//! can run, or lists everything wrong with it. Unknown fields are refused when parsing, so a
//! typo (`"trigers"`) never silently drops a rule.

use serde::{Deserialize, Serialize};
use turnstile_formula::FormulaText;

/// One phase sequence: the phases an activation moves through, and the edges between them.
///
/// ```json
/// { "sequenceId": "classic-style", "version": 1, "entryPhaseId": "activation_start",
///   "maxAutomaticTransitions": 16, "phases": [ ... ] }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhaseSequenceDefinition {
    /// The sequence's id, by which a match's phase state names it (`classic-style`).
    pub sequence_id: String,
    /// The author's version number of this sequence. Informative: a match pins the content
    /// revision, which changes with any change of meaning.
    #[serde(default)]
    pub version: u32,
    /// The phase every activation enters first. Empty when the file omits it, so that the
    /// validator can report it with every other problem instead of failing the parse.
    #[serde(default)]
    pub entry_phase_id: String,
    /// How many `Automatic` transitions one reducer operation may take; `1..=1024`.
    /// Signed, so that a negative value is reported by the validator, not as a parse error.
    pub max_automatic_transitions: i64,
    /// The phases, in the order the author wrote them.
    pub phases: Vec<PhaseDefinition>,
}

/// One phase of a sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhaseDefinition {
    /// Its id, unique in the sequence (`action`); a phase state's cursor names it.
    pub phase_id: String,
    /// What the phase means to an activation.
    pub role: PhaseRole,
    /// Its place in the activation, offered to conditions as `phase_order`.
    #[serde(default)]
    pub order: i64,
    /// Action types allowed in this phase by type (`PLAY_CARD`, `END_TURN`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_actions: Vec<String>,
    /// Tags that allow an action in this phase when the card or ability behind it carries one
    /// (`spell`, `response`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_command_tags: Vec<String>,
    /// Effects run, in order, when an activation enters this phase: references (effect ids)
    /// the host resolves against its content and runs on the one effect executor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entry_effects: Vec<String>,
    /// Effects run, in order, when an activation leaves this phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exit_effects: Vec<String>,
    /// The ways out of this phase.
    #[serde(default)]
    pub edges: Vec<EdgeDefinition>,
}

/// What a phase means to an activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PhaseRole {
    /// Where an activation begins.
    Start,
    /// Where it does its work.
    Middle,
    /// Where it has ended: an activation whose cursor rests on an `End` phase is over.
    End,
}

impl PhaseRole {
    /// The role as content spells it.
    pub const fn name(self) -> &'static str {
        match self {
            PhaseRole::Start => "Start",
            PhaseRole::Middle => "Middle",
            PhaseRole::End => "End",
        }
    }

    /// Every role, in order.
    pub const ALL: [PhaseRole; 3] = [PhaseRole::Start, PhaseRole::Middle, PhaseRole::End];
}

/// One edge: a way from its phase to `targetPhaseId`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EdgeDefinition {
    /// Its id, unique in the sequence; transitions name it.
    pub edge_id: String,
    /// The phase it leads to.
    pub target_phase_id: String,
    /// What fires it.
    pub trigger: EdgeTrigger,
    /// Among edges that can fire, the highest priority wins; a tie at the highest is an error.
    #[serde(default)]
    pub priority: i64,
    /// A condition that must hold for the edge to fire; absent means always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<FormulaText>,
    /// For `Command` edges: the command types it fires on. With `commandTags`, a command
    /// matches when its type is listed **or** it carries a listed tag; with neither, every
    /// command matches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_types: Vec<String>,
    /// For `Command` edges: the tags it fires on (see `commandTypes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_tags: Vec<String>,
}

impl EdgeDefinition {
    /// Whether the edge declares any command filter.
    pub fn has_filter(&self) -> bool {
        !self.command_types.is_empty() || !self.command_tags.is_empty()
    }

    /// Whether a command of `command_type` carrying `tags` passes this edge's filters: no
    /// filter, or its type listed, or one of its tags listed.
    pub fn matches_command(&self, command_type: &str, tags: &[&str]) -> bool {
        !self.has_filter()
            || self.command_types.iter().any(|t| t == command_type)
            || tags
                .iter()
                .any(|tag| self.command_tags.iter().any(|t| t == tag))
    }

    /// Whether some command could pass both edges' filters.
    ///
    /// A command has one type but any set of tags, and a tag can ride on any type. So two
    /// filters are disjoint only when both list types alone and share none; any tag filter
    /// overlaps with any other non-empty filter.
    pub fn filters_overlap(&self, other: &EdgeDefinition) -> bool {
        if !self.has_filter() || !other.has_filter() {
            return true;
        }
        if !self.command_tags.is_empty() || !other.command_tags.is_empty() {
            return true;
        }
        self.command_types
            .iter()
            .any(|t| other.command_types.contains(t))
    }
}

/// What fires an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EdgeTrigger {
    /// With no input, whenever the reducer settles; counts against `maxAutomaticTransitions`.
    Automatic,
    /// After a legal command has been fully computed.
    Command,
    /// When the activation is ending: an end-turn action, an accepted Skip, a Timeout, or a
    /// game rule. Takes the activation to an `End` phase.
    ActivationExit,
}

impl EdgeTrigger {
    /// The trigger as content spells it.
    pub const fn name(self) -> &'static str {
        match self {
            EdgeTrigger::Automatic => "Automatic",
            EdgeTrigger::Command => "Command",
            EdgeTrigger::ActivationExit => "ActivationExit",
        }
    }
}
