//! Phase graphs for Turnstile: an activation's phases as data, validated when content is
//! published, and driven by a pure reducer (spec/phases.md; the teaching page is
//! docs/phases.md).
//!
//! | piece | types | what it is for |
//! |---|---|---|
//! | definition | [`PhaseSequenceDefinition`], [`PhaseDefinition`], [`EdgeDefinition`] | the spec's JSON shape, plain data |
//! | validator | [`load_sequence`], [`validate_sequence`], [`PhaseCatalog::load`] | every publishing rule, every problem at once, as `ContentProblem`s with JSON pointers |
//! | state | [`PhaseState`] | `{sequenceId, contentRevision, cursor}`, resolved before anything runs |
//! | reducer | [`PhaseGraphReducer`], [`PhaseHost`] | `enter`, `command`, `activation_exit` → [`PhaseOutcome`] with [`PhaseTransition`]s |
//! | legality | [`PhaseFilter`] | "is this action allowed in the current phase?", for the one `LegalActionResolver` |
//! | response windows | [`PriorityWindow`], [`ActivationStep`] | priority apart from the turn, the stack, `no_priority`, `expectedStep` |
//! | presets | [`presets`] | `classic-style`, `hearthstone-style`, `priority-window` |
//!
//! # What this crate must never do
//!
//! - run an effect: entry and exit effects are references handed in order to the host, which
//!   runs them on the one effect executor (`crates/effects`);
//! - copy a definition into state, or act on a state that does not resolve against the pinned
//!   content (the mismatch is an error before anything runs);
//! - choose between tied edges, loop without bound, or panic on content or state from outside;
//! - decide legality anywhere but through [`PhaseFilter`], called from the game's check behind
//!   the `LegalActionResolver`;
//! - use floats, hash maps, a clock, randomness, I/O or `unsafe`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod definition;
mod filter;
mod json;
pub mod presets;
mod priority;
mod reducer;
mod schema;
mod sequence;
mod state;
mod step;
mod validate;

pub use definition::{
    EdgeDefinition, EdgeTrigger, PhaseDefinition, PhaseRole, PhaseSequenceDefinition,
};
pub use filter::{PhaseFilter, PhaseRejection, ACTION_NOT_ALLOWED_IN_PHASE};
pub use priority::{
    PassOutcome, PriorityError, PriorityWindow, StackEntry, WindowAfter, MAX_STACK_DEPTH,
    RESPONSE_TAG,
};
pub use reducer::{
    phase_fingerprint, EdgeContext, EffectMoment, ExitReason, HostFailure, PhaseCommand,
    PhaseError, PhaseGraphReducer, PhaseHost, PhaseOutcome, PhaseRecord, PhaseTransition,
};
pub use schema::{command_flags, phase_condition_schema, RESOURCE_SCOPES, STANDARD_VARIABLES};
pub use sequence::{PhaseCatalog, PhaseSequence};
pub use state::{PhaseState, PhaseStateError, ResolvedPhase};
pub use step::ActivationStep;
pub use validate::{
    load_sequence, validate_sequence, ValidationContext, AUTOMATIC_TRANSITIONS_RANGE,
    MAX_EDGES_PER_PHASE, MAX_PHASES,
};
