//! A match's phase state — three names and nothing else — and resolving it against the pinned
//! content before anything runs.
//!
//! Invariant 4 of the design: state holds ids and cursors, never copies of definitions. A
//! saved [`PhaseState`] names its sequence, the content revision it was made under and the
//! phase it rests in; every operation first resolves all three against the pinned catalog, and
//! any mismatch is a typed [`PhaseStateError`] returned before a condition is evaluated or an
//! effect runs.

use serde::{Deserialize, Serialize};
use turnstile_core::Fingerprint;

use crate::definition::PhaseDefinition;
use crate::filter::PhaseFilter;
use crate::sequence::{PhaseCatalog, PhaseSequence};

/// Where a match stands in its phase graph: `{sequenceId, contentRevision, cursor}`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhaseState {
    /// The sequence the match runs.
    pub sequence_id: String,
    /// The revision of the content bundle the state was made under.
    pub content_revision: Fingerprint,
    /// The id of the phase the activation rests in.
    pub cursor: String,
}

/// Why a phase state does not resolve against the pinned content. Nothing has run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(
    tag = "code",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum PhaseStateError {
    /// The state names a sequence the pinned content does not publish.
    #[error(
        "the phase state names sequence `{sequence_id}`, which the pinned content does not publish"
    )]
    UnknownSequence {
        /// The sequence named.
        sequence_id: String,
    },
    /// The state was made under another content revision than the one pinned.
    #[error(
        "the phase state was made under content revision {state}, but the match pins {pinned}"
    )]
    RevisionMismatch {
        /// The state's revision.
        state: Fingerprint,
        /// The pinned revision.
        pinned: Fingerprint,
    },
    /// The cursor names no phase of the sequence.
    #[error("the phase cursor `{cursor}` names no phase of sequence `{sequence_id}`")]
    UnknownCursor {
        /// The sequence.
        sequence_id: String,
        /// The cursor.
        cursor: String,
    },
}

impl PhaseStateError {
    /// The stable code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            PhaseStateError::UnknownSequence { .. } => "unknown_sequence",
            PhaseStateError::RevisionMismatch { .. } => "revision_mismatch",
            PhaseStateError::UnknownCursor { .. } => "unknown_cursor",
        }
    }
}

/// A phase state resolved against pinned content: its sequence and current phase.
#[derive(Clone, Copy, Debug)]
pub struct ResolvedPhase<'c> {
    pub(crate) sequence: &'c PhaseSequence,
    pub(crate) index: u16,
}

impl<'c> ResolvedPhase<'c> {
    /// Resolves `state` in `catalog` pinned at `revision`: the sequence, then the revision,
    /// then the cursor, failing on the first that does not match.
    pub fn resolve(
        catalog: &'c PhaseCatalog,
        revision: Fingerprint,
        state: &PhaseState,
    ) -> Result<ResolvedPhase<'c>, PhaseStateError> {
        let sequence =
            catalog
                .get(&state.sequence_id)
                .ok_or_else(|| PhaseStateError::UnknownSequence {
                    sequence_id: state.sequence_id.clone(),
                })?;
        if state.content_revision != revision {
            return Err(PhaseStateError::RevisionMismatch {
                state: state.content_revision,
                pinned: revision,
            });
        }
        let index =
            sequence
                .index_of(&state.cursor)
                .ok_or_else(|| PhaseStateError::UnknownCursor {
                    sequence_id: state.sequence_id.clone(),
                    cursor: state.cursor.clone(),
                })?;
        Ok(ResolvedPhase { sequence, index })
    }

    /// The sequence.
    pub fn sequence(&self) -> &'c PhaseSequence {
        self.sequence
    }

    /// The current phase.
    pub fn phase(&self) -> &'c PhaseDefinition {
        self.sequence.phase_at(self.index)
    }

    /// The filter legality applies in the current phase.
    pub fn filter(&self) -> PhaseFilter<'c> {
        PhaseFilter::new(self.sequence.sequence_id(), self.phase())
    }
}
