//! Matches: commands in, receipts out.
//!
//! The runtime is the authority over one match at a time. [`Match`] applies command envelopes
//! through the game's [`LegalActionResolver`](turnstile_core::LegalActionResolver), writes a
//! receipt for every accepted command, keeps the timeline and snapshots, and answers repeated
//! command ids from memory. [`replay`] writes and verifies replay files; [`GameRegistry`] lets
//! code that knows no game's types reach a game by id, and [`ErasedMatch`] drives its matches
//! through JSON, redacted per viewer.
//!
//! It must never read a clock or a random source of the platform inside a match: ticks arrive on
//! envelopes and randomness comes from the state's named streams. Reading a bundle folder
//! ([`bundle_dir`]) is its only file access; storage and the network live above it.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bots;
pub mod bundle_dir;
pub mod erased;
pub mod matches;
pub mod registry;
pub mod replay;
#[cfg(feature = "testing")]
pub mod testing;
mod value_match;

pub use bots::{bot_generator, Bot, RandomBot};
pub use bundle_dir::{read_bundle_dir, BundleReadError};
pub use erased::{
    BotFactory, CompiledBundle, ErasedAccepted, ErasedAcceptedJson, ErasedBundle, ErasedCommand,
    ErasedError, ErasedMatch, ErasedPreview, ErasedRefusal, ErasedSpec, ErasedView,
    GameDescription, GameHooks, ReceiptRedactor, SystemCommand,
};
pub use matches::{
    sealed_events, state_fingerprint, Accepted, LogEntry, Match, MatchError, MatchSpec, SeatKind,
    SeatSpec, Snapshot, DEFAULT_TICK_RATE,
};
pub use registry::{ContentSchemas, GameRegistration, GameRegistry, RegisteredGame};
pub use replay::{
    canonical_value, check_rules, verify, verify_redacted, Divergence, RedactedReport, ReplayEntry,
    ReplayError, ReplayFile, ReplayText, Verifier, VerifyReport, REPLAY_FORMAT,
};
