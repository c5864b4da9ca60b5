//! The contract between Turnstile and a game, and the vocabulary every layer above shares.
//!
//! This crate defines what a game is ([`Game`]), the one place legality is decided
//! ([`LegalActionResolver`]), what travels in and out of a match ([`CommandEnvelope`],
//! [`Receipt`], [`CommandRefusal`]) and how content is loaded and addressed ([`content`]).
//! It re-exports the determinism kit, so a game crate depends on `turnstile-core` alone.
//!
//! It must never do I/O, read a clock, draw from platform randomness, or know any particular
//! game: the runtime, the server and the games sit above it and depend on it, never the reverse.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod commitment;
pub mod content;
pub mod envelope;
pub mod game;
pub mod ids;
pub mod receipt;
pub mod rejection;
pub mod resolver;

pub use commitment::{MatchSecret, ReceiptFormat, SaltPurpose, Sealed, RECEIPT_FORMAT};
pub use content::{BundleManifest, BundleSource, ContentBundle, ContentProblem, Location};
pub use envelope::{is_system_command_id, CommandEnvelope, SYSTEM_COMMAND_ID_PREFIXES};
pub use game::{
    ActionKind, CommandContext, Game, MatchSetup, MatchStatus, Outcome, ParamRange, ParamSpec,
    ParamValue, SetupError,
};
pub use ids::{Seat, Sequence, Tick, Viewer};
pub use receipt::{Receipt, ViewFingerprints};
pub use rejection::{CommandRefusal, Rejection};
pub use resolver::{LegalActionResolver, Preview};
pub use turnstile_determinism as determinism;
pub use turnstile_determinism::Fingerprint;
