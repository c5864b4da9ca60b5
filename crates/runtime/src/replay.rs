//! Replay files (formats 1, 2 and 3) and their verification, full or as one seat holds them.
//!
//! A replay holds everything needed to re-execute a match on its own: the game, config, seats,
//! seed, tick rate, the content bundle embedded in its typed form, and every accepted command's
//! envelope beside the receipt the server gave for it. [`verify`] re-executes the envelopes on a
//! fresh match and compares every receipt field — fingerprints and the hash chain included —
//! stopping at the first divergence, which it names with the expected and actual values.
//!
//! The file is JSON written through the canonical serializer and then indented, so every
//! integer is exact (large ones as decimal strings) and any client can read it.
//!
//! Format 2 differs from format 1 only in how hidden parts enter hashes (salted commitments,
//! docs/commitments.md); format 3 differs from format 2 only in leaving signals out of
//! receipts and fingerprinting states in their lean form (docs/replay.md, "Formats"). The
//! file's shape is the same in all three, and older files still verify, under the rules they
//! were written with. A *redacted* replay — a seat's own timeline, downloaded
//! while the match is live, without the seed — is checked by [`verify_redacted`] as far as its
//! holder can: the chain, and what it could not check is said.

use crate::matches::{Match, MatchError, MatchSpec, SeatSpec};
use crate::value_match;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;
use turnstile_core::content::{revision_of, EmbeddedBundle};
use turnstile_core::determinism::canonical::{self, CanonicalWriter};
use turnstile_core::{
    CommandEnvelope, ContentBundle, Fingerprint, Game, MatchStatus, Outcome, Receipt,
    ReceiptFormat, Sequence, RECEIPT_FORMAT,
};

/// The replay format this engine writes; it reads this one and formats 1 and 2.
pub const REPLAY_FORMAT: u64 = RECEIPT_FORMAT;

/// The engine version written into replays.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A replay file as JSON, before the game's types are known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayFile {
    /// [`REPLAY_FORMAT`], or 1 for a match an older release wrote.
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
    /// The game's rules version when the file was written (`Game::RULES_VERSION`); left out
    /// while 0, and 0 in files written before the field existed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rules: u32,
    /// The content, as `{content, game}`.
    pub bundle: Value,
    /// Every accepted command, in order.
    pub entries: Vec<ReplayEntry>,
    /// How the match ended, once it has (every end is a receipt: a win, a resignation, a
    /// forfeit); `replay verify` re-derives it and reports a divergence `outcome` when the
    /// rules say otherwise. Left out while the match runs and in files written before it
    /// existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
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
    #[error("unknown replay format {0}; this engine reads formats 1 to {REPLAY_FORMAT}")]
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
    /// Written under rules this build no longer re-executes (`Game::OLDEST_RULES`).
    #[error(
        "written under {game} rules version {file}, which this release retired: it re-executes \
         versions {oldest} to {current} only (the game's page, \"Rules versions\", says what \
         changed; the release that wrote the file still verifies it)"
    )]
    RulesRetired {
        /// The game.
        game: String,
        /// The version the file records.
        file: u32,
        /// The oldest version this build runs.
        oldest: u32,
        /// The version this build writes.
        current: u32,
    },
    /// Written by a newer release, under rules this build does not know.
    #[error(
        "written under {game} rules version {file}, newer than this release's {current}: \
         verify it with the release that wrote it or a later one"
    )]
    RulesUnknown {
        /// The game.
        game: String,
        /// The version the file records.
        file: u32,
        /// The version this build writes.
        current: u32,
    },
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
            ReplayError::RulesRetired { .. } => "rules_retired",
            ReplayError::RulesUnknown { .. } => "rules_unknown",
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
    /// How the re-executed match ended (`None` while it runs, or after a divergence).
    pub outcome: Option<Outcome>,
}

impl ReplayFile {
    /// Parses replay text, checking its format number.
    pub fn parse(text: &str) -> Result<ReplayFile, ReplayError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| ReplayError::Malformed(e.to_string()))?;
        ReplayFile::from_json(value)
    }

    /// [`ReplayFile::parse`] for text already read as JSON (a caller that looked at the tree
    /// first, e.g. for `"redacted"`, need not parse the text again).
    pub fn from_json(value: Value) -> Result<ReplayFile, ReplayError> {
        match value.get("format").and_then(Value::as_u64) {
            Some(n) if ReceiptFormat::from_number(n).is_some() => {}
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
            format: m.format().number(),
            engine: ENGINE_VERSION.into(),
            game: G::ID.into(),
            config: canonical_value(&spec.config)?,
            seats: spec.seats.clone(),
            seed: spec.seed.clone(),
            tick_rate: spec.tick_rate,
            revision: m.bundle().revision,
            rules: G::RULES_VERSION,
            bundle: canonical_value(&bundle)?,
            entries,
            outcome: match m.status() {
                MatchStatus::Finished { outcome } => Some(outcome),
                MatchStatus::Active => None,
            },
        })
    }
}

/// A replay file read for verification: the header as in [`ReplayFile`], each entry's envelope
/// and receipt left as the JSON text the file holds.
///
/// Building a JSON tree of every receipt costs about as much as verifying it; the text is
/// enough for the common case, a receipt logged exactly as re-executed (see [`Verifier`]).
/// Text this shape does not fit (including every malformed file) is read as a [`ReplayFile`]
/// instead, so reading and verifying it give the same errors as [`ReplayFile::parse`] and
/// [`verify`].
pub struct ReplayText<'a>(Read<'a>);

enum Read<'a> {
    /// The header (with no entries) and each entry's text.
    Text {
        header: ReplayFile,
        entries: Vec<EntryText<'a>>,
        redacted: bool,
    },
    /// Read as a tree, as [`ReplayFile::parse`] reads it, and whether it says it is redacted.
    Tree(ReplayFile, bool),
}

/// [`ReplayFile`]'s fields as they are read from text, with the entries borrowed.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HeadText<'a> {
    format: u64,
    engine: String,
    game: String,
    config: Value,
    seats: Vec<SeatSpec>,
    seed: String,
    tick_rate: u32,
    revision: Fingerprint,
    #[serde(default)]
    rules: u32,
    bundle: Value,
    #[serde(borrow)]
    entries: Vec<EntryText<'a>>,
    #[serde(default)]
    outcome: Option<Outcome>,
    /// A redacted replay's marker (it has no seed, so it seldom gets this far).
    #[serde(default, borrow)]
    redacted: Option<&'a RawValue>,
}

/// One entry's envelope and receipt as the file's text.
#[derive(Deserialize)]
struct EntryText<'a> {
    #[serde(borrow)]
    envelope: &'a RawValue,
    #[serde(borrow)]
    receipt: &'a RawValue,
}

impl<'a> ReplayText<'a> {
    /// Reads replay text, checking its format number; errors as [`ReplayFile::parse`].
    pub fn parse(text: &'a str) -> Result<ReplayText<'a>, ReplayError> {
        let head = match serde_json::from_str::<HeadText<'a>>(text) {
            Ok(head) if ReceiptFormat::from_number(head.format).is_some() => head,
            // Whatever is wrong, the tree reader says it as it always has.
            _ => {
                let tree: Value = serde_json::from_str(text)
                    .map_err(|e| ReplayError::Malformed(e.to_string()))?;
                let redacted = tree.get("redacted").and_then(Value::as_bool) == Some(true);
                return ReplayFile::from_json(tree)
                    .map(|file| ReplayText(Read::Tree(file, redacted)));
            }
        };
        let header = ReplayFile {
            format: head.format,
            engine: head.engine,
            game: head.game,
            config: head.config,
            seats: head.seats,
            seed: head.seed,
            tick_rate: head.tick_rate,
            revision: head.revision,
            rules: head.rules,
            bundle: head.bundle,
            entries: Vec::new(),
            outcome: head.outcome,
        };
        Ok(ReplayText(Read::Text {
            header,
            entries: head.entries,
            redacted: head.redacted.is_some_and(|r| r.get() == "true"),
        }))
    }

    /// The header: format, game, seats, seed, bundle, outcome (its `entries` may be empty).
    pub fn header(&self) -> &ReplayFile {
        match &self.0 {
            Read::Text { header, .. } => header,
            Read::Tree(file, _) => file,
        }
    }

    /// How many commands the file logs.
    pub fn len(&self) -> usize {
        match &self.0 {
            Read::Text { entries, .. } => entries.len(),
            Read::Tree(file, _) => file.entries.len(),
        }
    }

    /// Whether the file logs no command.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the file says `"redacted": true` (such a replay is checked by
    /// [`verify_redacted`], not by a [`Verifier`]).
    pub fn is_redacted(&self) -> bool {
        match &self.0 {
            Read::Text { redacted, .. } => *redacted,
            Read::Tree(_, redacted) => *redacted,
        }
    }
}

/// Entries as the file's text, with the canonical writer their receipts are compared through.
struct Texts<'e, 'a> {
    entries: &'e [EntryText<'a>],
    writer: &'e mut CanonicalWriter,
}

impl Texts<'_, '_> {
    /// Entry `index`'s `part` as a tree, for the exact path: decoding from the tree is what
    /// [`ReplayFile`] does, so its errors are the same.
    fn tree(&self, index: usize, part: &str) -> Result<Value, ReplayError> {
        let entry = &self.entries[index];
        let raw = if part == "envelope" {
            entry.envelope
        } else {
            entry.receipt
        };
        serde_json::from_str(raw.get())
            .map_err(|e| ReplayError::Entry(format!("entries[{index}].{part}: {e}")))
    }
}

impl<G: Game> Logged<G> for Texts<'_, '_> {
    fn count(&self) -> usize {
        self.entries.len()
    }
    fn envelope(&self, index: usize) -> Result<CommandEnvelope<G::Action>, ReplayError> {
        // Straight from the text; text that does not decode is read as a tree, for the error
        // the tree reader gives (or, for text only a tree reads, such as a repeated key, the
        // envelope it reads).
        match serde_json::from_str(self.entries[index].envelope.get()) {
            Ok(envelope) => Ok(envelope),
            Err(_) => typed_entry(&self.tree(index, "envelope")?, index, "envelope"),
        }
    }
    fn logged_as(&mut self, index: usize, actual: &Receipt<G::Action, G::Event>) -> bool {
        // The logged text without its indentation is the canonical text of the re-executed
        // receipt, so its tree is the receipt's canonical tree (what a `ReplayFile` compares).
        match self.writer.write(actual) {
            Ok(canonical) => same_json_text(self.entries[index].receipt.get(), canonical),
            Err(_) => false,
        }
    }
    fn receipt(&self, index: usize) -> Result<Receipt<G::Action, G::Event>, ReplayError> {
        typed_entry(&self.tree(index, "receipt")?, index, "receipt")
    }
}

/// Whether JSON `text` is `canonical` once the whitespace between its tokens is dropped
/// (a replay file is canonical JSON, indented).
///
/// Whitespace is dropped only outside strings (inside one it is content), so string boundaries
/// are followed. The texts agree in runs (all but the indentation): each run is found eight
/// bytes at a time, and only its quotes and backslashes are looked at one by one.
fn same_json_text(text: &str, canonical: &[u8]) -> bool {
    let text = text.as_bytes();
    let (mut i, mut j) = (0, 0);
    let mut in_string = false;
    loop {
        let run = common_prefix(&text[i..], &canonical[j..]);
        if !string_state(&text[i..i + run], &mut in_string) {
            // The run ended inside an escape: the escaped byte differs.
            return false;
        }
        i += run;
        j += run;
        match text.get(i) {
            None => return j == canonical.len(),
            Some(b' ' | b'\n' | b'\r' | b'\t') if !in_string => {
                // A line break and the next line's indentation, skipped at once.
                i += text[i..]
                    .iter()
                    .position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
                    .unwrap_or(text.len() - i);
            }
            Some(_) => return false,
        }
    }
}

/// How many leading bytes `a` and `b` share.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut k = 0;
    while k + 8 <= n {
        let x = u64::from_le_bytes(a[k..k + 8].try_into().unwrap_or([0; 8]));
        let y = u64::from_le_bytes(b[k..k + 8].try_into().unwrap_or([0; 8]));
        if x != y {
            return k + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        k += 8;
    }
    while k < n && a[k] == b[k] {
        k += 1;
    }
    k
}

/// Follows string boundaries through `run`, a stretch of valid JSON text: `in_string` says
/// whether it starts, and then ends, inside a string. False when the run ends on an escape's
/// backslash (the escaped byte is not in it).
fn string_state(run: &[u8], in_string: &mut bool) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Whether any byte of a word may be `"` or `\\` (the "has a zero byte" test, which never
    // misses one; a word it flags is looked at byte by byte).
    let special = |word: u64| {
        let quote = word ^ (ONES * 0x22);
        let backslash = word ^ (ONES * 0x5c);
        ((quote.wrapping_sub(ONES) & !quote) | (backslash.wrapping_sub(ONES) & !backslash)) & HIGHS
            != 0
    };
    let mut k = 0;
    while k < run.len() {
        if k + 8 <= run.len() {
            let word = u64::from_le_bytes(run[k..k + 8].try_into().unwrap_or([0; 8]));
            if !special(word) {
                k += 8;
                continue;
            }
        }
        match run[k] {
            b'\\' if *in_string => {
                if k + 1 >= run.len() {
                    return false;
                }
                k += 2;
            }
            b'"' => {
                *in_string = !*in_string;
                k += 1;
            }
            _ => k += 1,
        }
    }
    true
}

/// A typed value as JSON, through the canonical serializer, so that large integers become
/// strings exactly as fingerprints see them.
pub fn canonical_value<T: Serialize>(value: &T) -> Result<Value, ReplayError> {
    let bytes =
        canonical::to_canonical_vec(value).map_err(|e| ReplayError::Malformed(e.to_string()))?;
    serde_json::from_slice(&bytes).map_err(|e| ReplayError::Malformed(e.to_string()))
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Whether game `G`'s rules of this build re-execute a file written under `rules`.
pub fn check_rules<G: Game>(rules: u32) -> Result<(), ReplayError> {
    if rules > G::RULES_VERSION {
        return Err(ReplayError::RulesUnknown {
            game: G::ID.into(),
            file: rules,
            current: G::RULES_VERSION,
        });
    }
    if rules < G::OLDEST_RULES {
        return Err(ReplayError::RulesRetired {
            game: G::ID.into(),
            file: rules,
            oldest: G::OLDEST_RULES,
            current: G::RULES_VERSION,
        });
    }
    Ok(())
}

fn typed<T: serde::de::DeserializeOwned>(value: &Value, what: &str) -> Result<T, ReplayError> {
    T::deserialize(value).map_err(|e| ReplayError::Entry(format!("{what}: {e}")))
}

/// [`typed`] for one part of entry `index`, naming it (`entries[3].receipt`) only on error: a
/// replay has thousands of entries, and the name is needed only for the one that fails.
fn typed_entry<T: serde::de::DeserializeOwned>(
    value: &Value,
    index: usize,
    part: &str,
) -> Result<T, ReplayError> {
    T::deserialize(value).map_err(|e| ReplayError::Entry(format!("entries[{index}].{part}: {e}")))
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
    let divergence = revision_divergence(&file.revision, &bundle.revision);
    debug_assert_eq!(
        revision_of(G::ID, &bundle.content).ok().as_ref(),
        Some(&bundle.revision)
    );
    Ok((bundle, divergence))
}

/// The header divergence of a file whose revision is not its embedded bundle's.
fn revision_divergence(file: &Fingerprint, bundle: &Fingerprint) -> Option<Divergence> {
    (file != bundle).then(|| Divergence {
        sequence: 0,
        field: "revision".into(),
        expected: file.to_string(),
        actual: bundle.to_string(),
    })
}

/// Re-executes a replay of game `G` and compares every receipt.
///
/// To check many files, a [`Verifier`] keeps what one file's check leaves for the next.
pub fn verify<G: Game>(file: &ReplayFile) -> Result<VerifyReport, ReplayError> {
    Verifier::<G>::new().verify(file)
}

/// A file's bundle as loaded for verification, and the header divergence if the file's
/// revision is not the bundle's.
type Loaded<G> = (Arc<ContentBundle<<G as Game>::Content>>, Option<Divergence>);

/// Verifies replays of game `G` one after another, as [`verify`] does each, amortizing the
/// per-file work across files: the embedded bundle last decoded, validated and fingerprinted
/// is kept, and a file embedding the very same bundle (the same JSON tree) reuses it instead of
/// decoding, validating and hashing it again. Matches are mostly played on a handful of
/// content revisions, so a run over a folder of replays pays for each bundle about once.
pub struct Verifier<G: Game> {
    /// The last embedded bundle as the file held it, and what it loaded to.
    bundle: Option<(Value, Arc<ContentBundle<G::Content>>)>,
    /// One set of canonical buffers for every stored hash recomputed (on the exact path).
    fingerprinter: turnstile_core::determinism::Fingerprinter,
    /// The canonical text of each re-executed receipt, compared with a file's text.
    writer: CanonicalWriter,
}

impl<G: Game> Default for Verifier<G> {
    fn default() -> Self {
        Verifier {
            bundle: None,
            fingerprinter: turnstile_core::determinism::Fingerprinter::new(),
            writer: CanonicalWriter::new(),
        }
    }
}

impl<G: Game> Verifier<G> {
    /// A verifier with nothing kept yet.
    pub fn new() -> Self {
        Verifier::default()
    }

    /// The file's bundle, loaded (or the one kept, when the file embeds the same tree), and
    /// the header divergence if the file's revision is not the bundle's.
    fn bundle(&mut self, file: &ReplayFile) -> Result<Loaded<G>, ReplayError> {
        if let Some((tree, bundle)) = &self.bundle {
            // Equal trees decode to equal content: what was validated and fingerprinted for
            // the kept bundle holds for this one.
            if *tree == file.bundle {
                let divergence = revision_divergence(&file.revision, &bundle.revision);
                return Ok((bundle.clone(), divergence));
            }
        }
        let (bundle, divergence) = embedded_bundle::<G>(file)?;
        let bundle = Arc::new(bundle);
        self.bundle = Some((file.bundle.clone(), bundle.clone()));
        Ok((bundle, divergence))
    }

    /// The checks of a file's header before re-execution, and its bundle.
    fn header(&mut self, file: &ReplayFile) -> Result<Loaded<G>, ReplayError> {
        if file.game != G::ID {
            return Err(ReplayError::UnknownGame(file.game.clone(), G::ID.into()));
        }
        // Before the bundle: an older release's bundle may name what today's rules no longer
        // have, and "invalid bundle" would blame the file for the release's change.
        check_rules::<G>(file.rules)?;
        self.bundle(file)
    }

    /// Re-executes a replay of game `G` and compares every receipt ([`verify`]).
    pub fn verify(&mut self, file: &ReplayFile) -> Result<VerifyReport, ReplayError> {
        let (bundle, divergence) = self.header(file)?;
        verify_with::<G>(
            file,
            file.entries.as_slice(),
            bundle,
            divergence,
            &mut self.fingerprinter,
        )
    }

    /// [`Verifier::verify`] for a file read as [`ReplayText`]: the same checks, reports and
    /// errors, with each receipt compared as text.
    pub fn verify_text(&mut self, replay: &ReplayText<'_>) -> Result<VerifyReport, ReplayError> {
        let (header, entries) = match &replay.0 {
            Read::Tree(file, _) => return self.verify(file),
            Read::Text {
                header, entries, ..
            } => (header, entries),
        };
        let (bundle, divergence) = self.header(header)?;
        let texts = Texts {
            entries,
            writer: &mut self.writer,
        };
        verify_with::<G>(header, texts, bundle, divergence, &mut self.fingerprinter)
    }
}

/// The logged entries of a replay, as JSON trees ([`ReplayFile`]) or as the file's text
/// ([`ReplayText`]): what the verification loop reads of them.
trait Logged<G: Game> {
    /// How many entries there are.
    fn count(&self) -> usize;
    /// Entry `index`'s envelope in the game's types.
    fn envelope(&self, index: usize) -> Result<CommandEnvelope<G::Action>, ReplayError>;
    /// Whether entry `index` logged exactly `actual`. A "no" is only a hint: the exact path
    /// decodes the receipt and finds the difference (or none).
    fn logged_as(&mut self, index: usize, actual: &Receipt<G::Action, G::Event>) -> bool;
    /// Entry `index`'s receipt in the game's types.
    fn receipt(&self, index: usize) -> Result<Receipt<G::Action, G::Event>, ReplayError>;
}

impl<G: Game> Logged<G> for &[ReplayEntry] {
    fn count(&self) -> usize {
        self.len()
    }
    fn envelope(&self, index: usize) -> Result<CommandEnvelope<G::Action>, ReplayError> {
        typed_entry(&self[index].envelope, index, "envelope")
    }
    fn logged_as(&mut self, index: usize, actual: &Receipt<G::Action, G::Event>) -> bool {
        // The logged tree is the canonical form of the re-executed receipt, hash included, so
        // decoding it would give that receipt back and every field would compare equal.
        value_match::matches(actual, &self[index].receipt)
    }
    fn receipt(&self, index: usize) -> Result<Receipt<G::Action, G::Event>, ReplayError> {
        typed_entry(&self[index].receipt, index, "receipt")
    }
}

/// [`Verifier::verify`] once the bundle is loaded: `file` gives the header (its entries are
/// not read), `entries` the log.
fn verify_with<G: Game>(
    file: &ReplayFile,
    mut entries: impl Logged<G>,
    bundle: Arc<ContentBundle<G::Content>>,
    divergence: Option<Divergence>,
    fingerprinter: &mut turnstile_core::determinism::Fingerprinter,
) -> Result<VerifyReport, ReplayError> {
    let mut report = VerifyReport {
        game: G::ID.into(),
        verified: 0,
        final_fingerprint: None,
        divergence,
        outcome: None,
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
    let format =
        ReceiptFormat::from_number(file.format).ok_or(ReplayError::UnknownFormat(file.format))?;
    let mut m = Match::<G>::new_in(bundle, spec, format)?;
    for index in 0..entries.count() {
        let envelope = entries.envelope(index)?;
        let sequence = index as u64 + 1;
        // Only whether it was accepted is kept: the receipt is read from the log below, as
        // the old path always did (a repeated command id answers with an earlier receipt).
        let submitted = m.submit(envelope).map(|_| ());
        // The common case, a receipt logged exactly as re-executed, is settled without decoding
        // it.
        if submitted.is_ok()
            && m.log()
                .last()
                .is_some_and(|e| entries.logged_as(index, &e.receipt))
        {
            report.verified += 1;
            continue;
        }
        // Anything else takes the exact path, which decodes the logged receipt (so a receipt
        // that does not fit the game's types is an error before any divergence) and names the
        // first differing field.
        let expected = entries.receipt(index)?;
        if let Err(refusal) = submitted {
            report.divergence = Some(Divergence {
                sequence,
                field: "accepted".into(),
                expected: "a receipt".into(),
                actual: format!("refused: {} ({})", refusal.code(), refusal),
            });
            return Ok(report);
        }
        // The receipt just appended, compared in place (no copy of it is made).
        let Some(actual) = m.log().last().map(|e| &e.receipt) else {
            return Err(ReplayError::Entry(format!(
                "entries[{index}]: accepted without a receipt in the log"
            )));
        };
        // The stored hash must be the hash of the stored fields, sealed by the match's rules.
        // It is recomputed only when it differs from the re-executed one: `compare` reaches the
        // hash only when every hashed field equals the re-executed receipt's, and the match
        // hashed exactly those values, so an equal stored hash *is* the hash of the stored
        // fields. Skipping it halves the hashing of a verification.
        let recompute = || {
            m.sealed(&expected)
                .and_then(|sealed| match sealed {
                    Some(sealed) => expected.compute_sealed_hash_with(&sealed, fingerprinter),
                    None => expected.compute_hash_with(fingerprinter),
                })
                .ok()
        };
        if let Some(d) = compare(sequence, &expected, actual, recompute) {
            report.divergence = Some(d);
            return Ok(report);
        }
        report.verified += 1;
    }
    report.final_fingerprint = Some(*m.state_fingerprint());
    let outcome = match m.status() {
        MatchStatus::Finished { outcome } => Some(outcome),
        MatchStatus::Active => None,
    };
    if file.outcome.is_some() && file.outcome != outcome {
        report.divergence = Some(Divergence {
            sequence: m.sequence(),
            field: "outcome".into(),
            expected: show(&file.outcome),
            actual: show(&outcome),
        });
        return Ok(report);
    }
    report.outcome = outcome;
    Ok(report)
}

/// The first field in which two receipts differ, in the order a reader would check them.
fn compare<A: Serialize + PartialEq, E: Serialize + PartialEq>(
    sequence: Sequence,
    expected: &Receipt<A, E>,
    actual: &Receipt<A, E>,
    recompute: impl FnOnce() -> Option<Fingerprint>,
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
    if expected.deadline_tick != actual.deadline_tick {
        return d(
            "deadlineTick",
            show(&expected.deadline_tick),
            show(&actual.deadline_tick),
        );
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
    if expected.hash == actual.hash {
        // Every hashed field is the re-executed one and so is the hash the match computed
        // over them: the stored hash is the hash of the stored fields.
        return None;
    }
    let recomputed = recompute();
    if recomputed.as_ref() != Some(&expected.hash) {
        return d(
            "hash",
            expected.hash.to_string(),
            recomputed.map_or_else(|| "<not canonical>".into(), |h| h.to_string()),
        );
    }
    d("hash", expected.hash.to_string(), actual.hash.to_string())
}

/// The hashed fields of a receipt as JSON values (a redacted replay's holder has no types).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HashedFields<'a> {
    sequence: u64,
    command_id: &'a Value,
    seat: &'a Value,
    tick: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline_tick: Option<&'a Value>,
    action: &'a Value,
    events: &'a [Value],
    before: &'a Fingerprint,
    after: &'a Fingerprint,
    previous: Option<&'a Fingerprint>,
}

/// What checking a redacted replay found: how far its holder could check it, and what it could
/// not check without the seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RedactedReport {
    /// The game.
    pub game: String,
    /// Whose timeline it is (`{"seat": 0}` or `"spectator"`).
    pub viewer: Value,
    /// Receipts whose chain checked.
    pub verified: u64,
    /// The first place the chain breaks, if any.
    pub divergence: Option<Divergence>,
    /// What a holder without the seed cannot check, in words.
    pub unchecked: Vec<String>,
}

fn field<'a>(value: &'a Value, name: &str, at: &str) -> Result<&'a Value, ReplayError> {
    value
        .get(name)
        .ok_or_else(|| ReplayError::Entry(format!("{at}: missing `{name}`")))
}

fn fingerprint_field(
    value: &Value,
    name: &str,
    at: &str,
) -> Result<Option<Fingerprint>, ReplayError> {
    match field(value, name, at)? {
        Value::Null => Ok(None),
        v => Fingerprint::deserialize(v)
            .map(Some)
            .map_err(|e| ReplayError::Entry(format!("{at}.{name}: {e}"))),
    }
}

/// Checks a redacted replay (`"redacted": true`, no seed) as far as its holder can: the
/// revision of the embedded bundle, gapless sequences, each envelope against its receipt, each
/// receipt's hash recomputed from its fields (over `sealed` where present), each `previous`
/// against the hash before it, each `before` against the `after` before it, and every public
/// event of `sealed` standing, in order, in the viewer's `events`. Re-execution, the state
/// fingerprints and hidden events need the seed, released with the full replay when the match
/// ends; the report lists them under `unchecked`.
pub fn verify_redacted(value: &Value) -> Result<RedactedReport, ReplayError> {
    let format = value
        .get("format")
        .and_then(Value::as_u64)
        .ok_or_else(|| ReplayError::Malformed("missing or non-integer `format` field".into()))?;
    if ReceiptFormat::from_number(format).is_none() {
        return Err(ReplayError::UnknownFormat(format));
    }
    let game = field(value, "game", "replay")?
        .as_str()
        .ok_or_else(|| ReplayError::Malformed("`game` is not a string".into()))?
        .to_owned();
    let mut report = RedactedReport {
        game,
        viewer: value.get("viewer").cloned().unwrap_or(Value::Null),
        verified: 0,
        divergence: None,
        unchecked: vec![
            "re-execution of the commands (needs the seed, released when the match ends)".into(),
            "the state fingerprints `before`/`after` beyond their chain (salted commitments to states this seat does not hold)".into(),
            "the hidden events behind each `sealed` commitment (their salts need the seed)".into(),
            "the view fingerprints (a redacted replay carries no views)".into(),
        ],
    };
    let diverge =
        |report: &mut RedactedReport, sequence: u64, field: &str, e: String, a: String| {
            report.divergence = Some(Divergence {
                sequence,
                field: field.into(),
                expected: e,
                actual: a,
            });
        };
    let revision = fingerprint_field(value, "revision", "replay")?
        .ok_or_else(|| ReplayError::Malformed("`revision` is null".into()))?;
    let bundle_revision = Fingerprint::of(field(value, "bundle", "replay")?)
        .map_err(|e| ReplayError::Bundle(e.to_string()))?;
    if bundle_revision != revision {
        diverge(
            &mut report,
            0,
            "revision",
            revision.to_string(),
            bundle_revision.to_string(),
        );
        return Ok(report);
    }
    let entries = field(value, "entries", "replay")?
        .as_array()
        .ok_or_else(|| ReplayError::Malformed("`entries` is not a list".into()))?;
    let mut previous: Option<Fingerprint> = None;
    let mut last_after: Option<Fingerprint> = None;
    for (index, entry) in entries.iter().enumerate() {
        let at = format!("entries[{index}]");
        let sequence = index as u64 + 1;
        let envelope = field(entry, "envelope", &at)?;
        let receipt = field(entry, "receipt", &at)?;
        let got_sequence = field(receipt, "sequence", &at)?.as_u64();
        if got_sequence != Some(sequence) {
            diverge(
                &mut report,
                sequence,
                "sequence",
                sequence.to_string(),
                show(&got_sequence),
            );
            return Ok(report);
        }
        for (name, envelope_name) in [
            ("commandId", "commandId"),
            ("seat", "seat"),
            ("tick", "tick"),
            ("action", "action"),
        ] {
            let r = receipt.get(name).unwrap_or(&Value::Null);
            let e = envelope.get(envelope_name).unwrap_or(&Value::Null);
            if r != e {
                diverge(&mut report, sequence, name, show(e), show(r));
                return Ok(report);
            }
        }
        let before = fingerprint_field(receipt, "before", &at)?;
        let after = fingerprint_field(receipt, "after", &at)?;
        let got_previous = fingerprint_field(receipt, "previous", &at)?;
        if got_previous != previous {
            diverge(
                &mut report,
                sequence,
                "previous",
                show(&previous),
                show(&got_previous),
            );
            return Ok(report);
        }
        if let (Some(last), Some(before)) = (last_after, before) {
            if last != before {
                diverge(
                    &mut report,
                    sequence,
                    "before",
                    last.to_string(),
                    before.to_string(),
                );
                return Ok(report);
            }
        }
        let events = field(receipt, "events", &at)?;
        let hashed = receipt.get("sealed").unwrap_or(events);
        let hashed_list = hashed
            .as_array()
            .ok_or_else(|| ReplayError::Entry(format!("{at}: `sealed`/`events` is not a list")))?;
        if receipt.get("sealed").is_some() {
            // Every public event the hash covers must be shown to the viewer as it is.
            let shown = events
                .as_array()
                .ok_or_else(|| ReplayError::Entry(format!("{at}: `events` is not a list")))?;
            let mut rest = shown.iter();
            for public in hashed_list.iter().filter(|e| e.get("commitment").is_none()) {
                if !rest.any(|e| e == public) {
                    diverge(
                        &mut report,
                        sequence,
                        "events",
                        show(public),
                        "not shown".into(),
                    );
                    return Ok(report);
                }
            }
        }
        let (Some(before), Some(after)) = (before, after) else {
            return Err(ReplayError::Entry(format!(
                "{at}: `before`/`after` is null"
            )));
        };
        let hash = fingerprint_field(receipt, "hash", &at)?
            .ok_or_else(|| ReplayError::Entry(format!("{at}: `hash` is null")))?;
        // The fields exactly as the holder has them: canonical JSON of these values is the
        // canonical JSON of the typed fields the server hashed.
        let null = Value::Null;
        let recomputed = Fingerprint::of(&HashedFields {
            sequence,
            command_id: field(receipt, "commandId", &at)?,
            seat: receipt.get("seat").unwrap_or(&null),
            tick: field(receipt, "tick", &at)?,
            deadline_tick: receipt.get("deadlineTick").filter(|d| !d.is_null()),
            action: field(receipt, "action", &at)?,
            events: hashed_list,
            before: &before,
            after: &after,
            previous: previous.as_ref(),
        })
        .map_err(|e| ReplayError::Entry(format!("{at}: {e}")))?;
        if recomputed != hash {
            diverge(
                &mut report,
                sequence,
                "hash",
                hash.to_string(),
                recomputed.to_string(),
            );
            return Ok(report);
        }
        previous = Some(hash);
        last_after = Some(after);
        report.verified += 1;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::same_json_text;

    #[test]
    fn indentation_is_ignored_and_nothing_else() {
        let canonical =
            br#"{"a":[1,{"b":"x y\" \\"}],"c":"long enough to span words, with , : and ["}"#;
        let pretty = "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x y\\\" \\\\\"\n    }\n  ],\n  \"c\": \"long enough to span words, with , : and [\"\n}\n";
        assert!(same_json_text(pretty, canonical));
        assert!(same_json_text(
            std::str::from_utf8(canonical).unwrap(),
            canonical
        ));
        for other in [
            // A space inside a string counts.
            "{\"a\":[1,{\"b\":\"x  y\\\" \\\\\"}],\"c\":\"long enough to span words, with , : and [\"}",
            "{\"a\":[1,{\"b\":\"xy\\\" \\\\\"}],\"c\":\"long enough to span words, with , : and [\"}",
            // Escapes are not whitespace.
            "{\"a\":[1,{\"b\":\"x y\\\"\\\\\"}],\"c\":\"long enough to span words, with , : and [\"}",
            // Too short, too long.
            "{\"a\":[1,{\"b\":\"x y\\\" \\\\\"}],\"c\":\"long enough to span words, with , : and [\"",
            "{\"a\":[1,{\"b\":\"x y\\\" \\\\\"}],\"c\":\"long enough to span words, with , : and [\"}}",
            "",
        ] {
            assert!(!same_json_text(other, canonical), "{other}");
        }
        assert!(same_json_text(" \n", b""));
        // Long strings with escapes and spaces across word boundaries.
        let canonical = br#"["0123456\"89 abcdef\\","x"]"#;
        assert!(same_json_text(
            "[\n  \"0123456\\\"89 abcdef\\\\\",\n  \"x\"\n]",
            canonical
        ));
        assert!(!same_json_text(
            "[\"0123456\\\"89  abcdef\\\\\",\"x\"]",
            canonical
        ));
    }
}
