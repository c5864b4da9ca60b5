//! Turnstile's determinism kit: the few primitives from which every rule computation,
//! random draw and fingerprint in the engine is built, each specified to the bit
//! (see `spec/determinism.md` and `docs/determinism.md`).
//!
//! | module | what |
//! |---|---|
//! | [`fixed`] | [`Fixed`]: integer fixed-point numbers in ten-thousandths, floor rounding, saturation reported |
//! | [`pcg`] | [`Pcg32`]: the PCG reference generator (XSH-RR), bounded draws and shuffles |
//! | [`stream`] | named random streams derived from a seed string through a pinned hash chain; [`Streams`] |
//! | [`chance`] | [`Chance`]: probabilities as fractions, one draw per roll |
//! | [`canonical`] | canonical JSON bytes (RFC 8785 key order and escaping, exact integers) |
//! | [`fingerprint`] | [`Fingerprint`]: `sha256:` over canonical bytes |
//!
//! # What this crate must never do
//!
//! A second implementation in another language has to reproduce every value this crate
//! computes, so the crate must never:
//!
//! - use floating-point numbers in a value, a computation or an encoding (floats are only
//!   *rejected* here);
//! - depend on iteration order of hash containers, on the platform, the wall clock, thread
//!   scheduling, or any random source other than a [`Pcg32`] derived from a seed;
//! - delegate an output-defining algorithm to a third-party crate whose release could change
//!   it (the generator, the hash chain and the JSON writer are all ours);
//! - panic on input from outside (every failure is a typed error with a stable `code()`);
//! - perform I/O, or use `unsafe`.
//!
//! Changing any output of this crate changes fingerprints of stored matches: it needs a
//! deliberate, explained revision of the spec and of `docs/determinism-vectors.json`.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod canonical;
pub mod chance;
pub mod fingerprint;
pub mod fixed;
pub mod pcg;
pub mod stream;

pub use canonical::CanonicalError;
pub use chance::{Chance, ChanceError};
pub use fingerprint::{Fingerprint, FingerprintError, Fingerprinter};
pub use fixed::{Fixed, FixedError, Saturated};
pub use pcg::{Pcg32, RandomError};
pub use stream::{derive_stream, StreamError, StreamTable, Streams};
