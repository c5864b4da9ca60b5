//! The phase filter: the question the one `LegalActionResolver` asks of a phase graph — "is
//! this action allowed in the current phase?" — answered with a typed, stable rejection.
//!
//! This module decides nothing else and is called from nowhere else: a game that uses a phase
//! graph calls [`PhaseFilter::allows`] from its own `Game::check` (which only the resolver
//! calls), so listing, previewing and applying agree by construction.

use turnstile_core::Rejection;

use crate::definition::PhaseDefinition;

/// The stable code of a [`PhaseRejection`].
pub const ACTION_NOT_ALLOWED_IN_PHASE: &str = "action_not_allowed_in_phase";

/// Which actions the current phase allows: those whose type it lists in `allowedActions`, and
/// those whose card or ability carries a tag it lists in `allowedCommandTags`.
#[derive(Clone, Copy, Debug)]
pub struct PhaseFilter<'c> {
    sequence_id: &'c str,
    phase: &'c PhaseDefinition,
}

impl<'c> PhaseFilter<'c> {
    /// The filter of `phase` in sequence `sequence_id`.
    pub fn new(sequence_id: &'c str, phase: &'c PhaseDefinition) -> PhaseFilter<'c> {
        PhaseFilter { sequence_id, phase }
    }

    /// The phase it filters by.
    pub fn phase(&self) -> &'c PhaseDefinition {
        self.phase
    }

    /// Whether an action of `action_type`, whose card or ability carries `tags`, is allowed:
    /// by its type, or by one of its tags. A phase that lists neither allows nothing.
    ///
    /// ```
    /// use turnstile_phases::{PhaseDefinition, PhaseFilter, PhaseRole};
    /// let phase = PhaseDefinition {
    ///     phase_id: "action".into(), role: PhaseRole::Middle, order: 20,
    ///     allowed_actions: vec!["PLAY_CARD".into()], allowed_command_tags: vec!["spell".into()],
    ///     entry_effects: vec![], exit_effects: vec![], edges: vec![],
    /// };
    /// let filter = PhaseFilter::new("classic-style", &phase);
    /// assert!(filter.allows("PLAY_CARD", &[]).is_ok());
    /// assert!(filter.allows("POWER", &["spell"]).is_ok());
    /// assert_eq!(filter.allows("POWER", &["unit"]).unwrap_err().code(), "action_not_allowed_in_phase");
    /// ```
    pub fn allows(&self, action_type: &str, tags: &[&str]) -> Result<(), PhaseRejection> {
        let by_type = self.phase.allowed_actions.iter().any(|a| a == action_type);
        let by_tag = tags
            .iter()
            .any(|tag| self.phase.allowed_command_tags.iter().any(|t| t == tag));
        if by_type || by_tag {
            Ok(())
        } else {
            Err(PhaseRejection {
                sequence_id: self.sequence_id.to_owned(),
                phase_id: self.phase.phase_id.clone(),
                action_type: action_type.to_owned(),
                tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            })
        }
    }

    /// The action types the phase allows by type, for listing legal action kinds.
    pub fn allowed_actions(&self) -> &'c [String] {
        &self.phase.allowed_actions
    }

    /// The tags that allow an action in this phase.
    pub fn allowed_command_tags(&self) -> &'c [String] {
        &self.phase.allowed_command_tags
    }
}

/// An action the current phase does not allow (`action_not_allowed_in_phase`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{action_type}` is not allowed in phase `{phase_id}` of sequence `{sequence_id}`: the phase \
     allows it neither by type nor by a tag{}",
    if tags.is_empty() { String::new() } else { format!(" (its tags: {})", tags.join(", ")) }
)]
pub struct PhaseRejection {
    /// The sequence.
    pub sequence_id: String,
    /// The current phase.
    pub phase_id: String,
    /// The action's type.
    pub action_type: String,
    /// The tags of the card or ability behind it.
    pub tags: Vec<String>,
}

impl PhaseRejection {
    /// The stable code: `action_not_allowed_in_phase`.
    pub const fn code(&self) -> &'static str {
        ACTION_NOT_ALLOWED_IN_PHASE
    }
}

impl From<PhaseRejection> for Rejection {
    fn from(rejection: PhaseRejection) -> Rejection {
        Rejection::new(ACTION_NOT_ALLOWED_IN_PHASE, rejection.to_string())
    }
}
