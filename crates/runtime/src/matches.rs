//! A match: the authority that turns command envelopes into receipts.
//!
//! [`Match`] holds one game's state over one pinned content revision and runs every command
//! through the same steps, in the order of DESIGN.md's data flow: the command id is checked and
//! looked up (a repeat gets the original answer), the expected sequence and step are compared,
//! the tick may not go back, the [`LegalActionResolver`] judges the action, the game commits it,
//! and a receipt with fingerprints and a chained hash is appended to the log. A refusal at any
//! step changes nothing; only a rule rejection is remembered, under its command id.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use turnstile_core::determinism::{CanonicalError, Fingerprinter};
use turnstile_core::envelope::check_command_id;
use turnstile_core::receipt::HashedFields;
use turnstile_core::{
    ActionKind, CommandContext, CommandEnvelope, CommandRefusal, ContentBundle, Fingerprint, Game,
    LegalActionResolver, MatchSecret, MatchSetup, MatchStatus, Receipt, ReceiptFormat, Rejection,
    SaltPurpose, Sealed, Seat, Sequence, SetupError, Tick, ViewFingerprints, Viewer,
};

/// How often a snapshot is kept unless configured otherwise, in commands.
pub const DEFAULT_SNAPSHOT_EVERY: u64 = 64;

/// The default number of ticks per second.
pub const DEFAULT_TICK_RATE: u32 = 10;

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatSpec {
    /// `human` or `bot`.
    pub kind: SeatKind,
    /// For bots, which one (`random`, `strong`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

impl SeatSpec {
    /// A human seat.
    pub fn human() -> Self {
        SeatSpec {
            kind: SeatKind::Human,
            bot: None,
        }
    }
}

/// Whether a seat is played by a person or by a bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SeatKind {
    /// A person, through a client.
    Human,
    /// A bot, through the same resolver.
    Bot,
}

/// Everything a match is created from besides its content.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchSpec<C> {
    /// The game's configuration.
    pub config: C,
    /// The seed every random stream derives from.
    pub seed: String,
    /// The seats, numbered from 0.
    pub seats: Vec<SeatSpec>,
    /// Ticks per second.
    pub tick_rate: u32,
}

/// Why a match could not be created or can no longer be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MatchError {
    /// The game refused the configuration.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// The number of seats is outside what the game allows.
    #[error("this game takes {min} to {max} seats, not {given}")]
    SeatCount {
        /// Fewest seats allowed.
        min: u16,
        /// Most seats allowed.
        max: u16,
        /// Seats asked for.
        given: usize,
    },
    /// The tick rate is 0.
    #[error("the tick rate must be at least 1 tick per second")]
    TickRate,
    /// The state could not be fingerprinted: a defect in the game (a float, a non-string map
    /// key). The match is stopped rather than run without receipts.
    #[error("the game state has no canonical form: {0}")]
    Canonical(String),
    /// A snapshot does not belong to this match or its log does not continue it.
    #[error("cannot restore: {0}")]
    Restore(String),
}

impl MatchError {
    /// The stable code.
    pub fn code(&self) -> &str {
        match self {
            MatchError::Setup(e) => &e.code,
            MatchError::SeatCount { .. } => "seat_count",
            MatchError::TickRate => "tick_rate",
            MatchError::Canonical(_) => "state_not_canonical",
            MatchError::Restore(_) => "restore_failed",
        }
    }
}

impl From<CanonicalError> for MatchError {
    fn from(e: CanonicalError) -> Self {
        MatchError::Canonical(e.to_string())
    }
}

/// One accepted command as logged: the envelope as received and the receipt it produced.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "G::Action: Serialize, G::Event: Serialize",
    deserialize = "G::Action: serde::de::DeserializeOwned, G::Event: serde::de::DeserializeOwned"
))]
pub struct LogEntry<G: Game> {
    /// What came in.
    pub envelope: CommandEnvelope<G::Action>,
    /// What went out.
    pub receipt: Receipt<G::Action, G::Event>,
}

/// A saved state from which a match loads without replaying its whole log.
#[derive(Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    bound(
        serialize = "G::State: Serialize",
        deserialize = "G::State: serde::de::DeserializeOwned"
    )
)]
pub struct Snapshot<G: Game> {
    /// The sequence of the last receipt included.
    pub sequence: Sequence,
    /// The tick of that receipt.
    pub tick: Tick,
    /// Its hash, which the next receipt chains to.
    pub last_hash: Option<Fingerprint>,
    /// The state fingerprint, checked on load.
    pub fingerprint: Fingerprint,
    /// The state.
    pub state: G::State,
}

/// What the match remembers under a command id.
#[derive(Debug, Clone, PartialEq)]
enum Remembered {
    /// Accepted: the receipt at this index of the log.
    Accepted(usize),
    /// Rejected by a rule; the seat and action fingerprint tell a true repeat from a reuse.
    Rejected {
        rejection: Rejection,
        seat: Option<Seat>,
        action: Fingerprint,
    },
}

/// The answer to an accepted command.
pub struct Accepted<'m, G: Game> {
    /// The receipt.
    pub receipt: &'m Receipt<G::Action, G::Event>,
    /// True when the command id had been seen: this is the original receipt, nothing was
    /// applied again.
    pub repeat: bool,
}

// Derives would demand `G: Clone + Debug + PartialEq` of the marker type; these ask only of the
// associated types that are actually stored.
impl<G: Game> Clone for LogEntry<G> {
    fn clone(&self) -> Self {
        LogEntry {
            envelope: self.envelope.clone(),
            receipt: self.receipt.clone(),
        }
    }
}

impl<G: Game> PartialEq for LogEntry<G> {
    fn eq(&self, other: &Self) -> bool {
        self.envelope == other.envelope && self.receipt == other.receipt
    }
}

impl<G: Game> std::fmt::Debug for LogEntry<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogEntry")
            .field("envelope", &self.envelope)
            .field("receipt", &self.receipt)
            .finish()
    }
}

impl<G: Game> Clone for Snapshot<G> {
    fn clone(&self) -> Self {
        Snapshot {
            sequence: self.sequence,
            tick: self.tick,
            last_hash: self.last_hash,
            fingerprint: self.fingerprint,
            state: self.state.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Snapshot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("sequence", &self.sequence)
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

impl<G: Game> std::fmt::Debug for Accepted<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accepted")
            .field("receipt", self.receipt)
            .field("repeat", &self.repeat)
            .finish()
    }
}

/// A match of game `G`.
pub struct Match<G: Game> {
    bundle: Arc<ContentBundle<G::Content>>,
    spec: MatchSpec<G::Config>,
    seats: u16,
    state: G::State,
    state_fingerprint: Fingerprint,
    sequence: Sequence,
    last_tick: Tick,
    last_hash: Option<Fingerprint>,
    log: Vec<LogEntry<G>>,
    remembered: BTreeMap<String, Remembered>,
    snapshots: Vec<Snapshot<G>>,
    snapshot_every: u64,
    /// Set when the game produced a state without a canonical form; no command runs after.
    broken: Option<String>,
    /// Reused canonical buffers: fingerprinting is most of a command's cost.
    fingerprinter: Fingerprinter,
    /// How hidden parts, signals and states enter hashes (format 3 for new matches; 1 or 2 for
    /// matches of an older release, read back and continued as they were written).
    format: ReceiptFormat,
    /// The match's commitment secret (from the seed).
    secret: MatchSecret,
}

impl<G: Game> Clone for Match<G> {
    fn clone(&self) -> Self {
        Match {
            bundle: self.bundle.clone(),
            spec: self.spec.clone(),
            seats: self.seats,
            state: self.state.clone(),
            state_fingerprint: self.state_fingerprint,
            sequence: self.sequence,
            last_tick: self.last_tick,
            last_hash: self.last_hash,
            log: self.log.clone(),
            remembered: self.remembered.clone(),
            snapshots: self.snapshots.clone(),
            snapshot_every: self.snapshot_every,
            broken: self.broken.clone(),
            fingerprinter: Fingerprinter::new(),
            format: self.format,
            secret: self.secret,
        }
    }
}

impl<G: Game> std::fmt::Debug for Match<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Match")
            .field("game", &G::ID)
            .field("sequence", &self.sequence)
            .field("state_fingerprint", &self.state_fingerprint)
            .finish_non_exhaustive()
    }
}

/// Every viewer a redaction can differ for: each seat, then the spectator (the referee sees
/// everything).
fn viewers(seats: u16) -> impl Iterator<Item = Viewer> {
    (0..seats)
        .map(|s| Viewer::Seat(Seat(s)))
        .chain(std::iter::once(Viewer::Spectator))
}

/// The state fingerprint after the receipt with this sequence: the plain fingerprint in
/// format 1 or for a game without hidden information, the salted commitment to the state
/// otherwise (docs/commitments.md). From format 3 on, what is fingerprinted or committed to is
/// the game's lean [`Game::fingerprint_form`] of the state.
pub fn state_fingerprint<G: Game>(
    format: ReceiptFormat,
    secret: &MatchSecret,
    sequence: Sequence,
    state: &G::State,
    fingerprinter: &mut Fingerprinter,
) -> Result<Fingerprint, CanonicalError> {
    match (
        format.is_lean(),
        format.seals_hidden() && G::HIDDEN_INFORMATION,
    ) {
        (false, false) => fingerprinter.fingerprint(state),
        (false, true) => secret.commit(SaltPurpose::State, sequence, 0, state),
        (true, false) => {
            fingerprinter.fingerprint_with(|writer| G::write_fingerprint_form(state, writer))
        }
        (true, true) => secret.commit(SaltPurpose::State, sequence, 0, &G::fingerprint_form(state)),
    }
}

/// The event list a receipt hash covers, when it differs from the events themselves: in
/// format 2, for a game with hidden information, each event some seat or the spectator does not
/// see whole becomes its salted commitment. `None` means the hash covers the events as they are.
pub fn sealed_events<G: Game>(
    content: &G::Content,
    seats: u16,
    format: ReceiptFormat,
    secret: &MatchSecret,
    sequence: Sequence,
    events: &[G::Event],
) -> Result<Option<Vec<Sealed<G::Event>>>, CanonicalError> {
    if !format.seals_hidden() || !G::HIDDEN_INFORMATION {
        return Ok(None);
    }
    let mut any_hidden = false;
    let mut sealed = Vec::with_capacity(events.len());
    for (index, event) in events.iter().enumerate() {
        let public =
            viewers(seats).all(|v| G::redact_event(content, event, v).as_ref() == Some(event));
        if public {
            sealed.push(Sealed::Public(event.clone()));
        } else {
            any_hidden = true;
            sealed.push(Sealed::Hidden {
                commitment: secret.commit(SaltPurpose::Event, sequence, index as u64, event)?,
            });
        }
    }
    Ok(any_hidden.then_some(sealed))
}

impl<G: Game> Match<G> {
    /// Creates a match at sequence 0, writing the current receipt format.
    pub fn new(
        bundle: Arc<ContentBundle<G::Content>>,
        spec: MatchSpec<G::Config>,
    ) -> Result<Self, MatchError> {
        Self::new_in(bundle, spec, ReceiptFormat::V3)
    }

    /// Creates a match at sequence 0 whose receipts follow `format` (format 1 only to
    /// re-execute or continue what an older release wrote).
    pub fn new_in(
        bundle: Arc<ContentBundle<G::Content>>,
        spec: MatchSpec<G::Config>,
        format: ReceiptFormat,
    ) -> Result<Self, MatchError> {
        let (min, max) = G::seat_range(&bundle.content, &spec.config);
        let given = spec.seats.len();
        let seats = u16::try_from(given)
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or(MatchError::SeatCount { min, max, given })?;
        if spec.tick_rate == 0 {
            return Err(MatchError::TickRate);
        }
        let state = G::setup(
            &bundle.content,
            MatchSetup {
                config: &spec.config,
                seed: &spec.seed,
                seats,
            },
        )?;
        let secret = MatchSecret::from_seed(&spec.seed)?;
        let mut fingerprinter = Fingerprinter::new();
        let state_fingerprint =
            state_fingerprint::<G>(format, &secret, 0, &state, &mut fingerprinter)?;
        let mut m = Match {
            bundle,
            spec,
            seats,
            state,
            state_fingerprint,
            sequence: 0,
            last_tick: 0,
            last_hash: None,
            log: Vec::new(),
            remembered: BTreeMap::new(),
            snapshots: Vec::new(),
            snapshot_every: DEFAULT_SNAPSHOT_EVERY,
            broken: None,
            fingerprinter,
            format,
            secret,
        };
        m.take_snapshot();
        Ok(m)
    }

    /// Keeps a snapshot every `n` commands (at least 1).
    pub fn with_snapshot_every(mut self, n: u64) -> Self {
        self.snapshot_every = n.max(1);
        self
    }

    /// The pinned content bundle.
    pub fn bundle(&self) -> &Arc<ContentBundle<G::Content>> {
        &self.bundle
    }

    /// What the match was created from.
    pub fn spec(&self) -> &MatchSpec<G::Config> {
        &self.spec
    }

    /// The number of seats.
    pub fn seat_count(&self) -> u16 {
        self.seats
    }

    /// The current state.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The current state's fingerprint.
    pub fn state_fingerprint(&self) -> &Fingerprint {
        &self.state_fingerprint
    }

    /// The number of seats, numbered from 0.
    pub fn seats(&self) -> u16 {
        self.seats
    }

    /// The last receipt's sequence (0 before the first command).
    pub fn sequence(&self) -> Sequence {
        self.sequence
    }

    /// The tick of the last receipt.
    pub fn last_tick(&self) -> Tick {
        self.last_tick
    }

    /// The game's activation step.
    pub fn step(&self) -> u64 {
        G::step(&self.state)
    }

    /// Whether the game is over.
    pub fn status(&self) -> MatchStatus {
        G::status(&self.bundle.content, &self.state)
    }

    /// The resolver for this match.
    pub fn resolver(&self) -> LegalActionResolver<'_, G> {
        LegalActionResolver::new(&self.bundle.content, self.seats)
    }

    /// The action kinds `seat` may take now.
    pub fn legal_actions(&self, seat: Seat) -> Result<Vec<ActionKind>, CommandRefusal> {
        self.resolver().legal_actions(&self.state, seat)
    }

    /// What `viewer` may see now.
    pub fn view(&self, viewer: Viewer) -> G::View {
        G::view(&self.bundle.content, &self.state, viewer)
    }

    /// The whole log, oldest first.
    pub fn log(&self) -> &[LogEntry<G>] {
        &self.log
    }

    /// Up to `limit` log entries with sequence greater than `after`.
    pub fn timeline(&self, after: Sequence, limit: usize) -> &[LogEntry<G>] {
        let start = usize::try_from(after)
            .unwrap_or(usize::MAX)
            .min(self.log.len());
        let end = start.saturating_add(limit).min(self.log.len());
        &self.log[start..end]
    }

    /// The snapshots kept so far, oldest first (the first is the initial state).
    pub fn snapshots(&self) -> &[Snapshot<G>] {
        &self.snapshots
    }

    /// Submits a command. On `Ok` the receipt is in the log; on `Err` nothing changed (a rule
    /// rejection is remembered under the command id, so a retry gets the same answer).
    pub fn submit(
        &mut self,
        envelope: CommandEnvelope<G::Action>,
    ) -> Result<Accepted<'_, G>, CommandRefusal> {
        if let Some(why) = &self.broken {
            return Err(CommandRefusal::Rule(Rejection::new(
                "match_broken",
                format!("the match was stopped by an engine defect: {why}"),
            )));
        }
        check_command_id(&envelope.command_id)?;
        if let Some(remembered) = self.remembered.get(&envelope.command_id) {
            return match remembered {
                Remembered::Accepted(index) => {
                    let entry = &self.log[*index];
                    if entry.envelope.seat == envelope.seat
                        && entry.envelope.action == envelope.action
                    {
                        Ok(Accepted {
                            receipt: &entry.receipt,
                            repeat: true,
                        })
                    } else {
                        Err(CommandRefusal::CommandIdReused {
                            command_id: envelope.command_id,
                        })
                    }
                }
                Remembered::Rejected {
                    rejection,
                    seat,
                    action,
                } => {
                    let same = *seat == envelope.seat
                        && Fingerprint::of(&envelope.action).ok().as_ref() == Some(action);
                    if same {
                        Err(CommandRefusal::Rule(rejection.clone()))
                    } else {
                        Err(CommandRefusal::CommandIdReused {
                            command_id: envelope.command_id,
                        })
                    }
                }
            };
        }
        if envelope.expected_sequence != self.sequence {
            return Err(CommandRefusal::StaleSequence {
                expected: envelope.expected_sequence,
                current: self.sequence,
            });
        }
        if let Some(expected) = envelope.expected_step {
            let current = G::step(&self.state);
            if expected != current {
                return Err(CommandRefusal::StaleStep { expected, current });
            }
        }
        if envelope.tick < self.last_tick {
            return Err(CommandRefusal::TickWentBackwards {
                tick: envelope.tick,
                last: self.last_tick,
            });
        }
        let ctx = CommandContext {
            seat: envelope.seat,
            tick: envelope.tick,
        };
        let content = &self.bundle.content;
        let resolver = LegalActionResolver::<G>::new(content, self.seats);
        // `apply_into` is check-then-commit (a game may do it in place, never differently): a
        // refusal leaves the state as it was. Signals are the rules' bookkeeping; format 3
        // receipts carry what clients render, so a lean match asks for no signals at all
        // (`Game::apply_lean`: the same command, the list without them).
        let mut events = Vec::new();
        let applied = if self.format.is_lean() {
            resolver.apply_lean_into(&mut self.state, ctx, &envelope.action, &mut events)
        } else {
            resolver.apply_into(&mut self.state, ctx, &envelope.action, &mut events)
        };
        match applied {
            Ok(()) => {}
            Err(CommandRefusal::Rule(rejection)) => {
                if let Ok(action) = Fingerprint::of(&envelope.action) {
                    self.remembered.insert(
                        envelope.command_id,
                        Remembered::Rejected {
                            rejection: rejection.clone(),
                            seat: ctx.seat,
                            action,
                        },
                    );
                }
                return Err(CommandRefusal::Rule(rejection));
            }
            Err(other) => return Err(other),
        }
        // From here on the command is applied. Everything below is engine work whose only
        // possible failure is a game defect (a state without canonical form), which stops
        // the match instead of producing a receipt that could not be verified.
        match self.seal(envelope, events) {
            Ok(index) => Ok(Accepted {
                receipt: &self.log[index].receipt,
                repeat: false,
            }),
            Err(e) => {
                let why = e.to_string();
                self.broken = Some(why.clone());
                Err(CommandRefusal::Rule(Rejection::new("match_broken", why)))
            }
        }
    }

    /// Fingerprints the committed state, builds and appends the receipt.
    fn seal(
        &mut self,
        envelope: CommandEnvelope<G::Action>,
        events: Vec<G::Event>,
    ) -> Result<usize, CanonicalError> {
        let sequence = self.sequence + 1;
        let after = state_fingerprint::<G>(
            self.format,
            &self.secret,
            sequence,
            &self.state,
            &mut self.fingerprinter,
        )?;
        let views = self.view_fingerprints()?;
        let sealed = sealed_events::<G>(
            &self.bundle.content,
            self.seats,
            self.format,
            &self.secret,
            sequence,
            &events,
        )?;
        let mut receipt = Receipt {
            sequence,
            command_id: envelope.command_id.clone(),
            seat: envelope.seat,
            tick: envelope.tick,
            // Format 2 on records the deadline the command left; format 1 never did, so its
            // replays re-execute to the receipts (and hashes) they hold.
            deadline_tick: if self.format.records_deadline() {
                G::deadline_tick(&self.state)
            } else {
                None
            },
            action: envelope.action.clone(),
            events,
            before: self.state_fingerprint,
            after,
            views,
            previous: self.last_hash,
            hash: after,
        };
        receipt.hash = match &sealed {
            Some(sealed) => receipt.compute_sealed_hash_with(sealed, &mut self.fingerprinter)?,
            // The events as they are, each written by the game's hand-written writer if it has
            // one (`Game::write_event`: the same bytes as serializing it).
            None => HashedFields {
                action: &receipt.action,
                after: &receipt.after,
                before: &receipt.before,
                command_id: &receipt.command_id,
                deadline_tick: receipt.deadline_tick,
                events: &receipt.events,
                previous: receipt.previous.as_ref(),
                seat: receipt.seat,
                sequence: receipt.sequence,
                tick: receipt.tick,
            }
            .hash_with_events(&mut self.fingerprinter, G::write_event)?,
        };
        self.sequence = receipt.sequence;
        self.last_tick = receipt.tick;
        self.last_hash = Some(receipt.hash);
        self.state_fingerprint = after;
        let index = self.log.len();
        self.remembered
            .insert(envelope.command_id.clone(), Remembered::Accepted(index));
        self.log.push(LogEntry { envelope, receipt });
        if self.sequence % self.snapshot_every == 0 {
            self.take_snapshot();
        }
        Ok(index)
    }

    fn view_fingerprints(&mut self) -> Result<ViewFingerprints, CanonicalError> {
        let content = &self.bundle.content;
        let fp = &mut self.fingerprinter;
        // Each view written by the game's hand-written writer if it has one (`Game::write_view`:
        // the same bytes as serializing the view).
        let state = &self.state;
        let spectator =
            fp.fingerprint_with(|w| G::write_view(content, state, Viewer::Spectator, w))?;
        if !G::HIDDEN_INFORMATION {
            return Ok(ViewFingerprints {
                seats: vec![spectator; usize::from(self.seats)],
                spectator,
            });
        }
        let seats = (0..self.seats)
            .map(|s| {
                fp.fingerprint_with(|w| G::write_view(content, state, Viewer::Seat(Seat(s)), w))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ViewFingerprints { seats, spectator })
    }

    fn take_snapshot(&mut self) {
        self.snapshots.push(Snapshot {
            sequence: self.sequence,
            tick: self.last_tick,
            last_hash: self.last_hash,
            fingerprint: self.state_fingerprint,
            state: self.state.clone(),
        });
    }

    /// The receipt format this match writes.
    pub fn format(&self) -> ReceiptFormat {
        self.format
    }

    /// The commitment secret (derived from the seed; never shown to a seat).
    pub fn secret(&self) -> &MatchSecret {
        &self.secret
    }

    /// The state fingerprint `state` would have after the receipt with `sequence`, by this
    /// match's rule (what a preview shows).
    pub fn fingerprint_state_at(
        &self,
        sequence: Sequence,
        state: &G::State,
    ) -> Result<Fingerprint, CanonicalError> {
        state_fingerprint::<G>(
            self.format,
            &self.secret,
            sequence,
            state,
            &mut Fingerprinter::new(),
        )
    }

    /// The event list the hash of `receipt` covers, when it differs from its events.
    pub fn sealed(
        &self,
        receipt: &Receipt<G::Action, G::Event>,
    ) -> Result<Option<Vec<Sealed<G::Event>>>, CanonicalError> {
        sealed_events::<G>(
            &self.bundle.content,
            self.seats,
            self.format,
            &self.secret,
            receipt.sequence,
            &receipt.events,
        )
    }

    /// The hash of the last receipt (`None` before the first command).
    pub fn last_hash(&self) -> Option<&Fingerprint> {
        self.last_hash.as_ref()
    }

    /// The tick at which the current turn times out, if it can.
    pub fn deadline_tick(&self) -> Option<Tick> {
        G::deadline_tick(&self.state)
    }

    /// The log entry of an accepted command, by its command id.
    pub fn entry_by_command_id(&self, command_id: &str) -> Option<&LogEntry<G>> {
        match self.remembered.get(command_id)? {
            Remembered::Accepted(index) => self.log.get(*index),
            Remembered::Rejected { .. } => None,
        }
    }

    /// The rule rejection remembered under a command id, if any.
    pub fn remembered_rejection(&self, command_id: &str) -> Option<&Rejection> {
        match self.remembered.get(command_id)? {
            Remembered::Rejected { rejection, .. } => Some(rejection),
            Remembered::Accepted(_) => None,
        }
    }

    /// Remembers a rule rejection read back from storage, so that a repeat of `command_id`
    /// gets the same answer without the rules being asked again. A command id the match already
    /// knows is left as it is: its first answer stands.
    /// `action` is the fingerprint of the rejected action ([`Fingerprint::of`] the typed
    /// action), which tells a true repeat from a reused id.
    pub fn remember_rejection(
        &mut self,
        command_id: String,
        seat: Option<Seat>,
        action: Fingerprint,
        rejection: Rejection,
    ) {
        self.remembered
            .entry(command_id)
            .or_insert(Remembered::Rejected {
                rejection,
                seat,
                action,
            });
    }

    /// A snapshot of the state as it is now.
    pub fn snapshot_now(&self) -> Snapshot<G> {
        Snapshot {
            sequence: self.sequence,
            tick: self.last_tick,
            last_hash: self.last_hash,
            fingerprint: self.state_fingerprint,
            state: self.state.clone(),
        }
    }

    /// Loads a match from a snapshot and the log entries after it, re-executing those entries
    /// and checking every receipt against the log. `earlier` is the log up to the snapshot (its
    /// receipts answer repeated command ids; nothing in it is re-executed).
    pub fn restore(
        bundle: Arc<ContentBundle<G::Content>>,
        spec: MatchSpec<G::Config>,
        snapshot: Snapshot<G>,
        earlier: Vec<LogEntry<G>>,
        later: Vec<LogEntry<G>>,
    ) -> Result<Self, MatchError> {
        Self::restore_in(bundle, spec, snapshot, earlier, later, ReceiptFormat::V3)
    }

    /// [`Match::restore`] of a match whose receipts follow `format`.
    pub fn restore_in(
        bundle: Arc<ContentBundle<G::Content>>,
        spec: MatchSpec<G::Config>,
        snapshot: Snapshot<G>,
        earlier: Vec<LogEntry<G>>,
        later: Vec<LogEntry<G>>,
        format: ReceiptFormat,
    ) -> Result<Self, MatchError> {
        let mut m = Match::new_in(bundle, spec, format)?;
        let mut snapshot = snapshot;
        G::attach(&m.bundle.content, &mut snapshot.state)?;
        let fingerprint = m.fingerprint_state_at(snapshot.sequence, &snapshot.state)?;
        if fingerprint != snapshot.fingerprint {
            return Err(MatchError::Restore(format!(
                "snapshot at sequence {} has fingerprint {} but its state hashes to {}",
                snapshot.sequence, snapshot.fingerprint, fingerprint
            )));
        }
        if earlier.len() as u64 != snapshot.sequence
            || earlier.last().map(|e| &e.receipt.hash) != snapshot.last_hash.as_ref()
        {
            return Err(MatchError::Restore(format!(
                "the log before the snapshot does not end at sequence {}",
                snapshot.sequence
            )));
        }
        m.state = snapshot.state;
        m.state_fingerprint = snapshot.fingerprint;
        m.sequence = snapshot.sequence;
        m.last_tick = snapshot.tick;
        m.last_hash = snapshot.last_hash;
        m.snapshots.clear();
        for (index, entry) in earlier.iter().enumerate() {
            m.remembered.insert(
                entry.envelope.command_id.clone(),
                Remembered::Accepted(index),
            );
        }
        m.log = earlier;
        m.take_snapshot();
        for entry in later {
            let expected = entry.receipt;
            let got = m.submit(entry.envelope).map_err(|r| {
                MatchError::Restore(format!(
                    "command at sequence {} was refused on reload: {r}",
                    expected.sequence
                ))
            })?;
            if *got.receipt != expected {
                return Err(MatchError::Restore(format!(
                    "receipt {} differs on reload",
                    expected.sequence
                )));
            }
        }
        Ok(m)
    }
}
