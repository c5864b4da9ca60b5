//! Replay files (format 1) and their verification.
//!
//! A replay holds everything needed to re-execute a match on its own: the game, config, seats,
//! seed, tick rate, the content bundle embedded in its typed form, and every accepted command's
//! envelope beside the receipt the server gave for it. [`verify`] re-executes the envelopes on a
//! fresh match and compares every receipt field — fingerprints and the hash chain included —
//! stopping at the first divergence, which it names with the expected and actual values.
//!
//! The file is JSON written through the canonical serializer and then indented, so every
//! integer is exact (large ones as decimal strings) and any client can read it.

use crate::matches::{Match, MatchError, MatchSpec, SeatSpec};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;
use turnstile_core::content::{revision_of, EmbeddedBundle};
use turnstile_core::determinism::canonical;
use turnstile_core::{CommandEnvelope, ContentBundle, Fingerprint, Game, Receipt, Sequence};

/// The replay format this engine writes and reads.
pub const REPLAY_FORMAT: u64 = 1;

/// The engine version written into replays.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A replay file as JSON, before the game's types are known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayFile {
    /// Always [`REPLAY_FORMAT`].
    pub format: u64,
    /// The engine version that wrote it.
    pub engine: String,
    /// The game id.
    pub game: String,
    /// The game's config.
    pub config: Value,
    /// The seats.
    pub seats: Vec<SeatSpec>,
    /// The match seed.
    pub seed: String,
    /// Ticks per second.
    pub tick_rate: u32,
    /// The content revision the match pinned.
    pub revision: Fingerprint,
    /// The content, as `{content, game}`.
    pub bundle: Value,
    /// Every accepted command, in order.
    pub entries: Vec<ReplayEntry>,
}

/// One accepted command in a replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayEntry {
    /// The envelope as received.
    pub envelope: Value,
    /// The receipt as given.
    pub receipt: Value,
}

/// Why a replay could not be checked at all (exit code 3 on the command line).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The text is not JSON or not a replay's shape.
    #[error("malformed replay: {0}")]
    Malformed(String),
    /// A format this engine does not read.
    #[error("unknown replay format {0}; this engine reads format {REPLAY_FORMAT}")]
    UnknownFormat(u64),
    /// A game this build does not know.
    #[error("unknown game {0:?}; this build knows {1}")]
    UnknownGame(String, String),
    /// The embedded bundle does not load.
    #[error("the embedded bundle is invalid: {0}")]
    Bundle(String),
    /// The config, an envelope or a receipt does not match the game's types.
    #[error("{0}")]
    Entry(String),
    /// The match could not be created.
    #[error("cannot create the match: {0}")]
    Setup(#[from] MatchError),
}

impl ReplayError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            ReplayError::Malformed(_) => "malformed_replay",
            ReplayError::UnknownFormat(_) => "unknown_format",
            ReplayError::UnknownGame(..) => "unknown_game",
            ReplayError::Bundle(_) => "invalid_bundle",
            ReplayError::Entry(_) => "invalid_entry",
            ReplayError::Setup(_) => "setup_failed",
        }
    }
}

/// The first place a replay and its re-execution disagree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Divergence {
    /// The sequence of the divergent receipt (0 for the match header, such as the revision).
    pub sequence: Sequence,
    /// The field, e.g. `after` or `hash`.
    pub field: String,
    /// What the file says.
    pub expected: String,
    /// What re-execution gives.
    pub actual: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sequence {}: {} differs\n  expected {}\n  actual   {}",
            self.sequence, self.field, self.expected, self.actual
        )
    }
}

/// The result of checking a replay that could be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    /// The game.
    pub game: String,
    /// Receipts checked and matching.
    pub verified: u64,
    /// The final state fingerprint reached.
    pub final_fingerprint: Option<Fingerprint>,
    /// The first divergence, if any.
    pub divergence: Option<Divergence>,
}

impl ReplayFile {
    /// Parses replay text, checking its format number.
    pub fn parse(text: &str) -> Result<ReplayFile, ReplayError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| ReplayError::Malformed(e.to_string()))?;
        match value.get("format").and_then(Value::as_u64) {
            Some(REPLAY_FORMAT) => {}
            Some(other) => return Err(ReplayError::UnknownFormat(other)),
            None => {
                return Err(ReplayError::Malformed(
                    "missing or non-integer `format` field".into(),
                ))
            }
        }
        serde_json::from_value(value).map_err(|e| ReplayError::Malformed(e.to_string()))
    }

    /// Writes the replay as indented JSON whose integers are exact.
    pub fn to_json(&self) -> Result<String, ReplayError> {
        serde_json::to_string_pretty(&canonical_value(self)?)
            .map_err(|e| ReplayError::Malformed(e.to_string()))
    }

    /// The full replay of a match: seed and every unredacted receipt.
    pub fn of_match<G: Game>(m: &Match<G>) -> Result<ReplayFile, ReplayError> {
        let spec = m.spec();
        let bundle = EmbeddedBundle {
            content: &m.bundle().content,
            game: G::ID.to_string(),
        };
        let entries = m
            .log()
            .iter()
            .map(|e| {
                Ok(ReplayEntry {
                    envelope: canonical_value(&e.envelope)?,
                    receipt: canonical_value(&e.receipt)?,
                })
            })
            .collect::<Result<Vec<_>, ReplayError>>()?;
        Ok(ReplayFile {
            format: REPLAY_FORMAT,
            engine: ENGINE_VERSION.into(),
            game: G::ID.into(),
            config: canonical_value(&spec.config)?,
            seats: spec.seats.clone(),
            seed: spec.seed.clone(),
            tick_rate: spec.tick_rate,
            revision: m.bundle().revision,
            bundle: canonical_value(&bundle)?,
            entries,
        })
    }
}

/// A typed value as JSON, through the canonical serializer, so that large integers become
/// strings exactly as fingerprints see them.
pub fn canonical_value<T: Serialize>(value: &T) -> Result<Value, ReplayError> {
    let bytes =
        canonical::to_canonical_vec(value).map_err(|e| ReplayError::Malformed(e.to_string()))?;
    serde_json::from_slice(&bytes).map_err(|e| ReplayError::Malformed(e.to_string()))
}

fn typed<T: serde::de::DeserializeOwned>(value: &Value, what: &str) -> Result<T, ReplayError> {
    T::deserialize(value).map_err(|e| ReplayError::Entry(format!("{what}: {e}")))
}

fn show<T: Serialize>(value: &T) -> String {
    canonical::to_canonical_vec(value)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|e| format!("<not canonical: {e}>"))
}

/// Loads the embedded bundle of a replay as game `G`'s typed content, checking its revision.
pub fn embedded_bundle<G: Game>(
    file: &ReplayFile,
) -> Result<(ContentBundle<G::Content>, Option<Divergence>), ReplayError> {
    let embedded: EmbeddedBundle<G::Content> = EmbeddedBundle::deserialize(&file.bundle)
        .map_err(|e| ReplayError::Bundle(e.to_string()))?;
    if embedded.game != G::ID {
        return Err(ReplayError::Bundle(format!(
            "the embedded bundle is for {:?}, the replay for {:?}",
            embedded.game,
            G::ID
        )));
    }
    let bundle = ContentBundle::new(G::ID, embedded.content)
        .map_err(|p| ReplayError::Bundle(p.to_string()))?;
    let divergence = (bundle.revision != file.revision).then(|| Divergence {
        sequence: 0,
        field: "revision".into(),
        expected: file.revision.to_string(),
        actual: bundle.revision.to_string(),
    });
    debug_assert_eq!(
        revision_of(G::ID, &bundle.content).ok().as_ref(),
        Some(&bundle.revision)
    );
    Ok((bundle, divergence))
}

/// Re-executes a replay of game `G` and compares every receipt.
pub fn verify<G: Game>(file: &ReplayFile) -> Result<VerifyReport, ReplayError> {
    if file.game != G::ID {
        return Err(ReplayError::UnknownGame(file.game.clone(), G::ID.into()));
    }
    let (bundle, divergence) = embedded_bundle::<G>(file)?;
    let mut report = VerifyReport {
        game: G::ID.into(),
        verified: 0,
        final_fingerprint: None,
        divergence,
    };
    if report.divergence.is_some() {
        return Ok(report);
    }
    let spec = MatchSpec {
        config: typed::<G::Config>(&file.config, "config")?,
        seed: file.seed.clone(),
        seats: file.seats.clone(),
        tick_rate: file.tick_rate,
    };
    let mut m = Match::<G>::new(Arc::new(bundle), spec)?;
    for (index, entry) in file.entries.iter().enumerate() {
        let envelope: CommandEnvelope<G::Action> =
            typed(&entry.envelope, &format!("entries[{index}].envelope"))?;
        let expected: Receipt<G::Action, G::Event> =
            typed(&entry.receipt, &format!("entries[{index}].receipt"))?;
        let sequence = index as u64 + 1;
        let actual = match m.submit(envelope) {
            Ok(accepted) => accepted.receipt.clone(),
            Err(refusal) => {
                report.divergence = Some(Divergence {
                    sequence,
                    field: "accepted".into(),
                    expected: "a receipt".into(),
                    actual: format!("refused: {} ({})", refusal.code(), refusal),
                });
                return Ok(report);
            }
        };
        if let Some(d) = compare(sequence, &expected, &actual) {
            report.divergence = Some(d);
            return Ok(report);
        }
        report.verified += 1;
    }
    report.final_fingerprint = Some(*m.state_fingerprint());
    Ok(report)
}

/// The first field in which two receipts differ, in the order a reader would check them.
fn compare<A: Serialize + PartialEq, E: Serialize + PartialEq>(
    sequence: Sequence,
    expected: &Receipt<A, E>,
    actual: &Receipt<A, E>,
) -> Option<Divergence> {
    let d = |field: &str, e: String, a: String| {
        Some(Divergence {
            sequence,
            field: field.into(),
            expected: e,
            actual: a,
        })
    };
    if expected.sequence != actual.sequence {
        return d(
            "sequence",
            expected.sequence.to_string(),
            actual.sequence.to_string(),
        );
    }
    if expected.command_id != actual.command_id {
        return d(
            "commandId",
            expected.command_id.clone(),
            actual.command_id.clone(),
        );
    }
    if expected.seat != actual.seat {
        return d("seat", show(&expected.seat), show(&actual.seat));
    }
    if expected.tick != actual.tick {
        return d("tick", expected.tick.to_string(), actual.tick.to_string());
    }
    if expected.action != actual.action {
        return d("action", show(&expected.action), show(&actual.action));
    }
    if expected.before != actual.before {
        return d(
            "before",
            expected.before.to_string(),
            actual.before.to_string(),
        );
    }
    if expected.events != actual.events {
        return d("events", show(&expected.events), show(&actual.events));
    }
    if expected.after != actual.after {
        return d(
            "after",
            expected.after.to_string(),
            actual.after.to_string(),
        );
    }
    if expected.views != actual.views {
        return d("views", show(&expected.views), show(&actual.views));
    }
    if expected.previous != actual.previous {
        return d("previous", show(&expected.previous), show(&actual.previous));
    }
    // The stored hash must be the hash of the stored fields and of the re-executed ones.
    let recomputed = expected.compute_hash().ok();
    if recomputed.as_ref() != Some(&expected.hash) {
        return d(
            "hash",
            expected.hash.to_string(),
            recomputed.map_or_else(|| "<not canonical>".into(), |h| h.to_string()),
        );
    }
    if expected.hash != actual.hash {
        return d("hash", expected.hash.to_string(), actual.hash.to_string());
    }
    None
}
