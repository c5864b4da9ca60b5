//! Matches seen without their game's types: what a server (or any host that learns the game
//! from a request) drives.
//!
//! [`ErasedMatch`] wraps a typed [`Match`] of one registered game and speaks JSON at its edges:
//! commands arrive with their action as JSON, receipts, views, previews, timelines and replays
//! leave as JSON, **redacted for a [`Viewer`]** — a seat's receipt carries the events
//! [`Game::redact_event`] lets it see and only its own view fingerprint; a spectator's only the
//! public ones; the referee's everything. Nothing here reads a clock or platform randomness:
//! ticks come in as arguments, bots draw from their `bot:<seat>` generators.
//!
//! Every JSON value that leaves goes through the canonical serializer first
//! ([`canonical_value`]), so the bytes a host stores are the bytes fingerprints see.

use crate::bots::{Bot, RandomBot};
use crate::matches::{
    sealed_events, LogEntry, Match, MatchError, MatchSpec, SeatKind, SeatSpec, Snapshot,
};
use crate::replay::{canonical_value, ReplayEntry, ReplayError, ReplayFile, ENGINE_VERSION};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;
use turnstile_core::content::EmbeddedBundle;
use turnstile_core::{
    ActionKind, CommandEnvelope, CommandRefusal, ContentBundle, Fingerprint, Game, MatchSecret,
    MatchStatus, Receipt, ReceiptFormat, Rejection, Seat, Sequence, Tick, Viewer,
};

/// Makes a bot of game `G` for one seat of a match: `(match seed, seat) → bot`.
pub type BotFactory<G> = Arc<
    dyn Fn(&str, Seat) -> Result<Box<dyn Bot<G>>, Box<dyn std::error::Error + Send + Sync>>
        + Send
        + Sync,
>;

/// The hooks a registration adds to a game: its bots, system actions and descriptions. Shared
/// (behind an `Arc`) by every match of the game.
pub struct GameHooks<G: Game> {
    pub(crate) bots: BTreeMap<String, BotFactory<G>>,
    pub(crate) timeout: Option<TimeoutHook<G>>,
    pub(crate) clock_resumed: Option<ClockResumedHook<G>>,
    pub(crate) resign: Option<ResignHook<G>>,
    pub(crate) default_config: Option<G::Config>,
    pub(crate) config_schema: Option<Value>,
    pub(crate) config_options: Option<ConfigOptionsHook<G>>,
}

/// `(state) → turn index` and `(turn index) → Timeout action`.
pub(crate) type TimeoutHook<G> = (
    Arc<dyn Fn(&<G as Game>::State) -> u64 + Send + Sync>,
    Arc<dyn Fn(u64) -> <G as Game>::Action + Send + Sync>,
);
/// `(last heartbeat tick, takeover tick) → ClockResumed action`.
pub(crate) type ClockResumedHook<G> = Arc<dyn Fn(Tick, Tick) -> <G as Game>::Action + Send + Sync>;
/// `(seat) → Resign action`.
pub(crate) type ResignHook<G> = Arc<dyn Fn(Seat) -> <G as Game>::Action + Send + Sync>;
/// `(content) → the config options it offers, as JSON`.
pub(crate) type ConfigOptionsHook<G> = Arc<dyn Fn(&<G as Game>::Content) -> Value + Send + Sync>;

impl<G: Game> Default for GameHooks<G> {
    fn default() -> Self {
        let mut bots: BTreeMap<String, BotFactory<G>> = BTreeMap::new();
        bots.insert(
            "random".into(),
            Arc::new(|seed: &str, seat: Seat| {
                let bot: Box<dyn Bot<G>> = Box::new(RandomBot::new(seed, seat)?);
                Ok(bot)
            }),
        );
        GameHooks {
            bots,
            timeout: None,
            clock_resumed: None,
            resign: None,
            default_config: None,
            config_schema: None,
            config_options: None,
        }
    }
}

/// Why an erased operation could not be carried out. Codes are stable.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ErasedError {
    /// The config JSON is not this game's config.
    #[error("invalid config: {0}")]
    InvalidConfig(String),
    /// A seat names a bot this game does not have.
    #[error("seat {seat}: no bot {bot:?}; this game has {known}")]
    UnknownBot {
        /// The seat.
        seat: Seat,
        /// The name asked for.
        bot: String,
        /// The names it has.
        known: String,
    },
    /// A bot seat names no bot.
    #[error("seat {0} is a bot seat but names no bot")]
    BotMissing(Seat),
    /// The bot could not be made (its generator could not be derived from the seed).
    #[error("seat {seat}: the bot could not be made: {message}")]
    BotFailed {
        /// The seat.
        seat: Seat,
        /// Why.
        message: String,
    },
    /// The match could not be created or restored.
    #[error("{0}")]
    Match(#[from] MatchError),
    /// The stored bundle does not load as this game's content, or its revision differs.
    #[error("invalid bundle: {0}")]
    Bundle(String),
    /// A stored snapshot, envelope or receipt does not match this game's types.
    #[error("invalid stored entry: {0}")]
    Entry(String),
    /// The bundle belongs to another game.
    #[error("the bundle is for {bundle:?}, not {game:?}")]
    WrongGame {
        /// The bundle's game.
        bundle: String,
        /// This game.
        game: String,
    },
    /// A value has no canonical form (a defect in the game).
    #[error("no canonical form: {0}")]
    Canonical(String),
}

impl ErasedError {
    /// The stable code.
    pub fn code(&self) -> &str {
        match self {
            ErasedError::InvalidConfig(_) => "invalid_config",
            ErasedError::UnknownBot { .. } => "unknown_bot",
            ErasedError::BotMissing(_) => "bot_missing",
            ErasedError::BotFailed { .. } => "bot_failed",
            ErasedError::Match(e) => e.code(),
            ErasedError::Bundle(_) => "invalid_bundle",
            ErasedError::Entry(_) => "invalid_entry",
            ErasedError::WrongGame { .. } => "wrong_game",
            ErasedError::Canonical(_) => "not_canonical",
        }
    }
}

fn canonical<T: Serialize>(value: &T) -> Result<Value, ErasedError> {
    canonical_value(value).map_err(|e| ErasedError::Canonical(e.to_string()))
}

/// A canonical form that could not be written: the match is broken (never for a sound game).
fn canonical_refusal(e: ErasedError) -> ErasedRefusal {
    ErasedRefusal::Refused(CommandRefusal::Rule(Rejection::new(
        "match_broken",
        e.to_string(),
    )))
}

/// The canonical text [`canonical`] parses, for a caller that writes it out as it is.
fn canonical_text<T: Serialize>(value: &T) -> Result<String, ErasedError> {
    turnstile_core::determinism::canonical::to_canonical_string(value)
        .map_err(|e| ErasedError::Canonical(ReplayError::Malformed(e.to_string()).to_string()))
}

/// Why a command was not accepted, seen without the game's types.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErasedRefusal {
    /// The action JSON is not one of this game's actions (wrong type, unknown field): a
    /// transport-level problem, never remembered.
    #[error("invalid action: {0}")]
    InvalidAction(String),
    /// The runtime or the rules refused it; only [`CommandRefusal::Rule`] is remembered.
    #[error("{0}")]
    Refused(CommandRefusal),
}

impl ErasedRefusal {
    /// The stable code.
    pub fn code(&self) -> &str {
        match self {
            ErasedRefusal::InvalidAction(_) => "invalid_action",
            ErasedRefusal::Refused(r) => r.code(),
        }
    }
}

/// A typed content bundle behind its game id and revision.
#[derive(Clone)]
pub struct ErasedBundle {
    game: &'static str,
    revision: Fingerprint,
    inner: Arc<dyn Any + Send + Sync>,
}

impl std::fmt::Debug for ErasedBundle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ErasedBundle")
            .field("game", &self.game)
            .field("revision", &self.revision)
            .finish_non_exhaustive()
    }
}

impl ErasedBundle {
    /// Wraps a typed bundle of game `G`.
    pub fn new<G: Game>(bundle: Arc<ContentBundle<G::Content>>) -> Self {
        ErasedBundle {
            game: G::ID,
            revision: bundle.revision,
            inner: bundle,
        }
    }

    /// The game id.
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// The revision.
    pub fn revision(&self) -> Fingerprint {
        self.revision
    }

    /// The typed bundle, when it is game `G`'s.
    pub fn typed<G: Game>(&self) -> Result<Arc<ContentBundle<G::Content>>, ErasedError> {
        self.inner
            .clone()
            .downcast::<ContentBundle<G::Content>>()
            .map_err(|_| ErasedError::WrongGame {
                bundle: self.game.into(),
                game: G::ID.into(),
            })
    }
}

/// A bundle compiled from source files: its revision and its stored form, the canonical JSON
/// `{"content": ..., "game": ...}` that replays embed and the revision fingerprints.
#[derive(Debug, Clone)]
pub struct CompiledBundle {
    /// The loaded bundle.
    pub bundle: ErasedBundle,
    /// The canonical JSON to store and serve.
    pub json: Value,
}

/// Everything a match is created from besides content, as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErasedSpec {
    /// The game's config.
    pub config: Value,
    /// The seed.
    pub seed: String,
    /// The seats.
    pub seats: Vec<SeatSpec>,
    /// Ticks per second.
    pub tick_rate: u32,
}

/// A command as the host submits it: everything of an envelope, the action still JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ErasedCommand {
    /// The idempotency key.
    pub command_id: String,
    /// The seat (`None` for system commands).
    pub seat: Option<Seat>,
    /// The sequence the client last saw.
    pub expected_sequence: Sequence,
    /// The step the client last saw, when it cares.
    pub expected_step: Option<u64>,
    /// The tick the host stamped.
    pub tick: Tick,
    /// The game's action.
    pub action: Value,
}

/// An accepted command: the entry to store, and whether it was a repeat.
#[derive(Debug, Clone, PartialEq)]
pub struct ErasedAccepted {
    /// The receipt's sequence.
    pub sequence: Sequence,
    /// True when the command id had been seen: nothing was applied again.
    pub repeat: bool,
    /// The envelope and the full receipt, canonical JSON.
    pub entry: ReplayEntry,
}

/// [`ErasedAccepted`] with the entry as canonical JSON text: the same bytes
/// [`ErasedAccepted::entry`]'s values are parsed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErasedAcceptedJson {
    /// The receipt's sequence.
    pub sequence: Sequence,
    /// True when the command id had been seen: nothing was applied again.
    pub repeat: bool,
    /// The envelope, canonical JSON.
    pub envelope: String,
    /// The full receipt, canonical JSON.
    pub receipt: String,
}

/// A system command the host should submit: its id, the tick to stamp, and the action.
#[derive(Debug, Clone, PartialEq)]
pub struct SystemCommand {
    /// `timeout:<turn index>` or `clock-resumed:<sequence>`.
    pub command_id: String,
    /// The tick to stamp (for a timeout, the deadline).
    pub tick: Tick,
    /// The action.
    pub action: Value,
}

/// A view with its fingerprint.
#[derive(Debug, Clone, PartialEq)]
pub struct ErasedView {
    /// The view.
    pub view: Value,
    /// Its fingerprint.
    pub fingerprint: Fingerprint,
}

/// A preview, as the asking viewer may see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ErasedPreview {
    /// The view after the action.
    pub view: Value,
    /// Its fingerprint.
    pub view_fingerprint: Fingerprint,
    /// The full state fingerprint after the action.
    pub state_fingerprint: Fingerprint,
    /// The events as the viewer may see them.
    pub events: Value,
    /// The preview's own fingerprint: canonical `{action, events, stateFingerprint}` —
    /// the action, what it set off (transitions and effects, as the viewer may see them) and
    /// the state it reaches (spec/phases.md). A commit that carries it is refused
    /// (`preview_stale`) unless it would do exactly this.
    pub fingerprint: Fingerprint,
}

/// What a game offers, for listings.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameDescription {
    /// The id.
    pub id: &'static str,
    /// Whether seats see different things.
    pub hidden_information: bool,
    /// The bots it offers by name.
    pub bots: Vec<String>,
    /// Whether the server times turns out (the game registered a Timeout action).
    pub timeouts: bool,
    /// Whether the game records `ClockResumed` after an outage.
    pub clock_resumed: bool,
    /// Whether the game has its own Resign action.
    pub resign: bool,
    /// The config used when a request gives none.
    pub default_config: Option<Value>,
    /// A JSON Schema of the config, when the game supplies one.
    pub config_schema: Option<Value>,
}

/// A match of some registered game, driven through JSON.
pub trait ErasedMatch: Send {
    /// The game id.
    fn game(&self) -> &'static str;
    /// The pinned revision.
    fn revision(&self) -> Fingerprint;
    /// The bundle it pins.
    fn bundle(&self) -> ErasedBundle;
    /// What it was created from.
    fn spec(&self) -> &ErasedSpec;
    /// The number of seats.
    fn seat_count(&self) -> u16;
    /// The last receipt's sequence.
    fn sequence(&self) -> Sequence;
    /// The activation step.
    fn step(&self) -> u64;
    /// The last receipt's tick.
    fn last_tick(&self) -> Tick;
    /// The last receipt's hash.
    fn last_hash(&self) -> Option<Fingerprint>;
    /// The state fingerprint.
    fn state_fingerprint(&self) -> Fingerprint;
    /// Whether the game is over.
    fn status(&self) -> MatchStatus;
    /// When the current turn times out, if it can.
    fn deadline_tick(&self) -> Option<Tick>;

    /// Submits a command. `Ok` means the receipt is in the match's log (and must now be stored
    /// before anyone is told); `Err` means nothing changed.
    fn submit(&mut self, command: ErasedCommand) -> Result<ErasedAccepted, ErasedRefusal>;
    /// [`ErasedMatch::submit`] with the entry as canonical JSON text rather than values: what
    /// a server stores and answers as is, so nothing is parsed back on the command path.
    fn submit_json(&mut self, command: ErasedCommand) -> Result<ErasedAcceptedJson, ErasedRefusal>;
    /// Re-executes entries committed elsewhere (another node), checking every receipt.
    fn apply_entries(&mut self, entries: &[ReplayEntry]) -> Result<(), ErasedError>;
    /// The rule rejection remembered under `command_id`, if any.
    fn rejection(&self, command_id: &str) -> Option<Rejection>;
    /// Whether `command_id` was accepted.
    fn is_accepted(&self, command_id: &str) -> bool;
    /// The fingerprint of an action (what the idempotency table keeps to tell a true repeat
    /// from a reused id).
    fn action_fingerprint(&self, action: &Value) -> Result<Fingerprint, ErasedRefusal>;
    /// A redactor for this match's receipts that does not borrow the match.
    fn redactor(&self) -> Arc<dyn ReceiptRedactor>;
    /// Remembers a rule rejection read back from storage; `action` is the rejected action's
    /// fingerprint ([`ErasedMatch::action_fingerprint`]).
    fn remember_rejection(
        &mut self,
        command_id: &str,
        seat: Option<Seat>,
        action: Fingerprint,
        rejection: Rejection,
    );

    /// What `viewer` may see now.
    fn view(&self, viewer: Viewer) -> Result<ErasedView, ErasedError>;
    /// The receipt with this sequence, redacted for `viewer`.
    fn receipt(&self, sequence: Sequence, viewer: Viewer) -> Option<Value>;
    /// [`ErasedMatch::receipt`] as canonical JSON text, without building a [`Value`]: what a
    /// server answers a command with, written straight into the response.
    fn receipt_json(&self, sequence: Sequence, viewer: Viewer) -> Option<String>;
    /// The receipt of an accepted command id, redacted for `viewer`.
    fn receipt_by_command(&self, command_id: &str, viewer: Viewer) -> Option<Value>;
    /// Up to `limit` receipts after `after`, redacted for `viewer`.
    fn timeline(&self, after: Sequence, limit: usize, viewer: Viewer) -> Vec<Value>;
    /// Redacts a stored (full) receipt for `viewer`.
    fn redact_receipt(&self, receipt: &Value, viewer: Viewer) -> Result<Value, ErasedError>;
    /// The action kinds `seat` may take now.
    fn legal_actions(&self, seat: Seat) -> Result<Vec<ActionKind>, CommandRefusal>;
    /// The concrete actions `seat` could take at `tick` that pass the rules now (the resolver's
    /// candidates, as bots see them), as JSON: what a generic front-end numbers for a person.
    fn candidates(&self, seat: Seat, tick: Tick) -> Result<Vec<Value>, CommandRefusal>;
    /// Previews `action` for `seat` at `tick`, changing nothing.
    fn preview(
        &self,
        action: &Value,
        seat: Seat,
        tick: Tick,
    ) -> Result<ErasedPreview, ErasedRefusal>;
    /// The replay as `viewer` may have it: the full file (seed, every receipt) for the referee,
    /// otherwise the viewer's redacted timeline without the seed.
    fn replay(&self, viewer: Viewer) -> Result<Value, ErasedError>;
    /// The full replay file.
    fn full_replay(&self) -> Result<ReplayFile, ErasedError>;
    /// A snapshot of the state now, as JSON, for storage.
    fn snapshot(&self) -> Result<Value, ErasedError>;

    /// The Timeout the host should submit when its clock reaches the deadline.
    fn timeout_command(&self) -> Option<SystemCommand>;
    /// The ClockResumed the host should record after taking the match over, if the game has one.
    fn clock_resumed_command(
        &self,
        last_heartbeat_tick: Tick,
        takeover_tick: Tick,
    ) -> Option<SystemCommand>;
    /// The game's own Resign action for `seat`, if it has one.
    fn resign_action(&self, seat: Seat) -> Option<Value>;
    /// The seats played by bots.
    fn bot_seats(&self) -> Vec<Seat>;
    /// The bot of `seat` chooses an action at `tick` (through the resolver), if it has one.
    fn bot_action(&mut self, seat: Seat, tick: Tick) -> Option<Value>;
}

/// The typed implementation of [`ErasedMatch`].
pub(crate) struct TypedMatch<G: Game> {
    inner: Match<G>,
    spec: ErasedSpec,
    hooks: Arc<GameHooks<G>>,
    bots: BTreeMap<Seat, Box<dyn Bot<G>>>,
}

/// A receipt as one viewer may see it: the events it may see and its own view fingerprint.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReceiptFor<'a, A, E> {
    sequence: Sequence,
    command_id: &'a str,
    seat: Option<Seat>,
    tick: Tick,
    /// The deadline after the command (hashed when present).
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline_tick: Option<Tick>,
    action: &'a A,
    events: Vec<E>,
    /// The list the hash covers when some event is hidden from some viewer (format 2): public
    /// events as themselves, hidden ones as their salted commitments.
    #[serde(skip_serializing_if = "Option::is_none")]
    sealed: Option<Vec<turnstile_core::Sealed<E>>>,
    before: &'a Fingerprint,
    after: &'a Fingerprint,
    views: ViewFor,
    previous: Option<&'a Fingerprint>,
    hash: &'a Fingerprint,
}

/// One viewer's view fingerprint after a command.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ViewFor {
    viewer: Viewer,
    fingerprint: Fingerprint,
}

fn parse_config<G: Game>(config: &Value) -> Result<G::Config, ErasedError> {
    G::Config::deserialize(config).map_err(|e| ErasedError::InvalidConfig(e.to_string()))
}

fn typed_entry<G: Game>(entry: &ReplayEntry) -> Result<LogEntry<G>, ErasedError> {
    let envelope = CommandEnvelope::<G::Action>::deserialize(&entry.envelope)
        .map_err(|e| ErasedError::Entry(format!("envelope: {e}")))?;
    let receipt = Receipt::<G::Action, G::Event>::deserialize(&entry.receipt)
        .map_err(|e| ErasedError::Entry(format!("receipt: {e}")))?;
    Ok(LogEntry { envelope, receipt })
}

fn make_bots<G: Game>(
    hooks: &GameHooks<G>,
    seed: &str,
    seats: &[SeatSpec],
) -> Result<BTreeMap<Seat, Box<dyn Bot<G>>>, ErasedError> {
    let mut bots = BTreeMap::new();
    for (index, spec) in seats.iter().enumerate() {
        if spec.kind != SeatKind::Bot {
            continue;
        }
        let seat = Seat(u16::try_from(index).unwrap_or(u16::MAX));
        let name = spec.bot.as_deref().ok_or(ErasedError::BotMissing(seat))?;
        let factory = hooks
            .bots
            .get(name)
            .ok_or_else(|| ErasedError::UnknownBot {
                seat,
                bot: name.into(),
                known: hooks.bots.keys().cloned().collect::<Vec<_>>().join(", "),
            })?;
        let bot = factory(seed, seat).map_err(|e| ErasedError::BotFailed {
            seat,
            message: e.to_string(),
        })?;
        bots.insert(seat, bot);
    }
    Ok(bots)
}

impl<G: Game> TypedMatch<G> {
    fn typed_spec(spec: &ErasedSpec) -> Result<MatchSpec<G::Config>, ErasedError> {
        Ok(MatchSpec {
            config: parse_config::<G>(&spec.config)?,
            seed: spec.seed.clone(),
            seats: spec.seats.clone(),
            tick_rate: spec.tick_rate,
        })
    }

    /// Creates a match at sequence 0.
    pub(crate) fn create(
        hooks: Arc<GameHooks<G>>,
        bundle: &ErasedBundle,
        mut spec: ErasedSpec,
    ) -> Result<Self, ErasedError> {
        let typed = Self::typed_spec(&spec)?;
        // Store the config in its canonical typed form, so defaults are written out.
        spec.config = canonical(&typed.config)?;
        let bots = make_bots(&hooks, &spec.seed, &spec.seats)?;
        let inner = Match::new(bundle.typed::<G>()?, typed)?;
        Ok(TypedMatch {
            inner,
            spec,
            hooks,
            bots,
        })
    }

    /// Restores a match from a snapshot and its log.
    pub(crate) fn restore(
        hooks: Arc<GameHooks<G>>,
        bundle: &ErasedBundle,
        spec: ErasedSpec,
        snapshot: &Value,
        earlier: &[ReplayEntry],
        later: &[ReplayEntry],
    ) -> Result<Self, ErasedError> {
        let typed = Self::typed_spec(&spec)?;
        let bots = make_bots(&hooks, &spec.seed, &spec.seats)?;
        let snapshot = Snapshot::<G>::deserialize(snapshot)
            .map_err(|e| ErasedError::Entry(format!("snapshot: {e}")))?;
        let earlier = earlier
            .iter()
            .map(typed_entry::<G>)
            .collect::<Result<Vec<_>, _>>()?;
        let later = later
            .iter()
            .map(typed_entry::<G>)
            .collect::<Result<Vec<_>, _>>()?;
        let bundle = bundle.typed::<G>()?;
        let first = earlier.first().or(later.first()).map(|e| e.receipt.before);
        let format = match first {
            Some(before) => detect_format::<G>(&bundle, &typed, &before)?,
            None => ReceiptFormat::V3,
        };
        let inner = Match::restore_in(bundle, typed, snapshot, earlier, later, format)?;
        Ok(TypedMatch {
            inner,
            spec,
            hooks,
            bots,
        })
    }

    fn redact(
        &self,
        receipt: &Receipt<G::Action, G::Event>,
        viewer: Viewer,
    ) -> Result<Value, ErasedError> {
        redact_typed::<G>(&self.sealing(), receipt, viewer)
    }

    /// Submits a command to the typed match: its receipt's sequence and whether it repeated
    /// an accepted one ([`ErasedMatch::submit`] and [`ErasedMatch::submit_json`] share it).
    fn submit_typed(&mut self, command: ErasedCommand) -> Result<(Sequence, bool), ErasedRefusal> {
        let action = Self::parse_action(&command.action)?;
        let envelope = CommandEnvelope {
            command_id: command.command_id,
            seat: command.seat,
            expected_sequence: command.expected_sequence,
            expected_step: command.expected_step,
            tick: command.tick,
            action,
        };
        let accepted = self
            .inner
            .submit(envelope)
            .map_err(ErasedRefusal::Refused)?;
        Ok((accepted.receipt.sequence, accepted.repeat))
    }

    /// The log entry with this sequence, which the match just accepted or repeated.
    fn logged(&self, sequence: Sequence) -> Result<&LogEntry<G>, ErasedRefusal> {
        usize::try_from(sequence.saturating_sub(1))
            .ok()
            .and_then(|index| self.inner.log().get(index))
            .ok_or_else(|| {
                canonical_refusal(ErasedError::Entry(format!(
                    "no log entry at sequence {sequence}"
                )))
            })
    }

    fn sealing(&self) -> Sealing<'_, G> {
        Sealing {
            content: &self.inner.bundle().content,
            seats: self.inner.seat_count(),
            format: self.inner.format(),
            secret: *self.inner.secret(),
        }
    }

    fn parse_action(action: &Value) -> Result<G::Action, ErasedRefusal> {
        G::Action::deserialize(action).map_err(|e| ErasedRefusal::InvalidAction(e.to_string()))
    }
}

fn view_fingerprint<A, E>(receipt: &Receipt<A, E>, viewer: Viewer) -> Option<Fingerprint> {
    match viewer {
        Viewer::Seat(seat) => receipt.views.seats.get(usize::from(seat.0)).copied(),
        Viewer::Spectator | Viewer::Referee => Some(receipt.views.spectator),
    }
}

/// The receipt format of a stored match, told by the `before` of its first receipt: a match an
/// older release wrote in format 1 or 2 continues in that format (its receipts must re-execute
/// bit for bit); everything else is format 3. Formats are tried newest first, so a game whose
/// states fingerprint alike in two formats continues in the newer one — which is sound because
/// such a game keeps every event (a game that declares signals also declares a lean
/// fingerprint form, and its formats differ from the first state on: docs/replay.md).
fn detect_format<G: Game>(
    bundle: &Arc<ContentBundle<G::Content>>,
    spec: &MatchSpec<G::Config>,
    first_before: &Fingerprint,
) -> Result<ReceiptFormat, ErasedError> {
    let v3 = Match::<G>::new_in(bundle.clone(), spec.clone(), ReceiptFormat::V3)?;
    if v3.state_fingerprint() == first_before {
        return Ok(ReceiptFormat::V3);
    }
    let v2 = Match::<G>::new_in(bundle.clone(), spec.clone(), ReceiptFormat::V2)?;
    if v2.state_fingerprint() == first_before {
        return Ok(ReceiptFormat::V2);
    }
    let v1 = Match::<G>::new_in(bundle.clone(), spec.clone(), ReceiptFormat::V1)?;
    Ok(if v1.state_fingerprint() == first_before {
        ReceiptFormat::V1
    } else {
        ReceiptFormat::V3
    })
}

/// What redaction needs to seal a receipt's events for a viewer.
struct Sealing<'a, G: Game> {
    content: &'a G::Content,
    seats: u16,
    format: ReceiptFormat,
    secret: MatchSecret,
}

/// A receipt as `viewer` may see it: the full receipt for the referee; otherwise the events
/// [`Game::redact_event`] lets it see, the sealed list its hash covers (when some event is
/// hidden) and only its own view fingerprint.
fn redact_typed<G: Game>(
    sealing: &Sealing<'_, G>,
    receipt: &Receipt<G::Action, G::Event>,
    viewer: Viewer,
) -> Result<Value, ErasedError> {
    let text = redact_typed_canonical::<G>(sealing, receipt, viewer)?;
    serde_json::from_str(&text)
        .map_err(|e| ErasedError::Canonical(ReplayError::Malformed(e.to_string()).to_string()))
}

/// The canonical text of a receipt as `viewer` may see it ([`redact_typed`] before parsing).
fn redact_typed_canonical<G: Game>(
    sealing: &Sealing<'_, G>,
    receipt: &Receipt<G::Action, G::Event>,
    viewer: Viewer,
) -> Result<String, ErasedError> {
    if viewer == Viewer::Referee {
        return canonical_text(receipt);
    }
    let content = sealing.content;
    let events = receipt
        .events
        .iter()
        .filter_map(|e| G::redact_event(content, e, viewer))
        .collect();
    let sealed = sealed_events::<G>(
        content,
        sealing.seats,
        sealing.format,
        &sealing.secret,
        receipt.sequence,
        &receipt.events,
    )
    .map_err(|e| ErasedError::Canonical(e.to_string()))?;
    let fingerprint = view_fingerprint(receipt, viewer)
        .ok_or_else(|| ErasedError::Entry(format!("the receipt has no view for {viewer:?}")))?;
    canonical_text(&ReceiptFor {
        sequence: receipt.sequence,
        command_id: &receipt.command_id,
        seat: receipt.seat,
        tick: receipt.tick,
        deadline_tick: receipt.deadline_tick,
        action: &receipt.action,
        events,
        sealed,
        before: &receipt.before,
        after: &receipt.after,
        views: ViewFor {
            viewer,
            fingerprint,
        },
        previous: receipt.previous.as_ref(),
        hash: &receipt.hash,
    })
}

/// Redacts stored receipts of one match for a viewer, without holding the match: what a live
/// stream uses for receipts it reads back from storage.
pub trait ReceiptRedactor: Send + Sync {
    /// The stored (full) receipt as `viewer` may see it.
    fn redact(&self, receipt: &Value, viewer: Viewer) -> Result<Value, ErasedError>;
}

struct TypedRedactor<G: Game> {
    bundle: Arc<ContentBundle<G::Content>>,
    seats: u16,
    format: ReceiptFormat,
    secret: MatchSecret,
}

impl<G: Game> ReceiptRedactor for TypedRedactor<G> {
    fn redact(&self, receipt: &Value, viewer: Viewer) -> Result<Value, ErasedError> {
        let receipt = Receipt::<G::Action, G::Event>::deserialize(receipt)
            .map_err(|e| ErasedError::Entry(format!("receipt: {e}")))?;
        let sealing = Sealing::<G> {
            content: &self.bundle.content,
            seats: self.seats,
            format: self.format,
            secret: self.secret,
        };
        redact_typed::<G>(&sealing, &receipt, viewer)
    }
}

/// The redacted replay: a viewer's timeline with everything that needs no secret.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RedactedReplay<'a> {
    format: u64,
    engine: &'a str,
    game: &'a str,
    config: &'a Value,
    seats: &'a [SeatSpec],
    seed: Option<&'a str>,
    tick_rate: u32,
    revision: Fingerprint,
    bundle: Value,
    redacted: bool,
    viewer: Viewer,
    entries: Vec<RedactedEntry>,
}

#[derive(Serialize)]
struct RedactedEntry {
    envelope: Value,
    receipt: Value,
}

impl<G: Game> ErasedMatch for TypedMatch<G> {
    fn game(&self) -> &'static str {
        G::ID
    }

    fn revision(&self) -> Fingerprint {
        self.inner.bundle().revision
    }

    fn bundle(&self) -> ErasedBundle {
        ErasedBundle::new::<G>(self.inner.bundle().clone())
    }

    fn spec(&self) -> &ErasedSpec {
        &self.spec
    }

    fn seat_count(&self) -> u16 {
        self.inner.seat_count()
    }

    fn sequence(&self) -> Sequence {
        self.inner.sequence()
    }

    fn step(&self) -> u64 {
        self.inner.step()
    }

    fn last_tick(&self) -> Tick {
        self.inner.last_tick()
    }

    fn last_hash(&self) -> Option<Fingerprint> {
        self.inner.last_hash().copied()
    }

    fn state_fingerprint(&self) -> Fingerprint {
        *self.inner.state_fingerprint()
    }

    fn status(&self) -> MatchStatus {
        self.inner.status()
    }

    fn deadline_tick(&self) -> Option<Tick> {
        self.inner.deadline_tick()
    }

    fn submit(&mut self, command: ErasedCommand) -> Result<ErasedAccepted, ErasedRefusal> {
        let (sequence, repeat) = self.submit_typed(command)?;
        let entry = self.logged(sequence)?;
        Ok(ErasedAccepted {
            sequence,
            repeat,
            entry: ReplayEntry {
                envelope: canonical(&entry.envelope).map_err(canonical_refusal)?,
                receipt: canonical(&entry.receipt).map_err(canonical_refusal)?,
            },
        })
    }

    fn submit_json(&mut self, command: ErasedCommand) -> Result<ErasedAcceptedJson, ErasedRefusal> {
        let (sequence, repeat) = self.submit_typed(command)?;
        let entry = self.logged(sequence)?;
        Ok(ErasedAcceptedJson {
            sequence,
            repeat,
            envelope: canonical_text(&entry.envelope).map_err(canonical_refusal)?,
            receipt: canonical_text(&entry.receipt).map_err(canonical_refusal)?,
        })
    }

    fn apply_entries(&mut self, entries: &[ReplayEntry]) -> Result<(), ErasedError> {
        if self.inner.sequence() == 0 {
            if let Some(first) = entries.first() {
                // A match rebuilt from an older release's log continues in its format.
                let first = typed_entry::<G>(first)?;
                let typed = Self::typed_spec(&self.spec)?;
                let format =
                    detect_format::<G>(self.inner.bundle(), &typed, &first.receipt.before)?;
                if format != self.inner.format() {
                    self.inner = Match::new_in(self.inner.bundle().clone(), typed, format)?;
                }
            }
        }
        for entry in entries {
            let typed = typed_entry::<G>(entry)?;
            if typed.receipt.sequence <= self.inner.sequence() {
                continue;
            }
            let expected = typed.receipt;
            let got = self.inner.submit(typed.envelope).map_err(|r| {
                MatchError::Restore(format!(
                    "command at sequence {} was refused on catching up: {r}",
                    expected.sequence
                ))
            })?;
            if *got.receipt != expected {
                return Err(MatchError::Restore(format!(
                    "receipt {} differs on catching up",
                    expected.sequence
                ))
                .into());
            }
        }
        Ok(())
    }

    fn rejection(&self, command_id: &str) -> Option<Rejection> {
        self.inner.remembered_rejection(command_id).cloned()
    }

    fn is_accepted(&self, command_id: &str) -> bool {
        self.inner.entry_by_command_id(command_id).is_some()
    }

    fn action_fingerprint(&self, action: &Value) -> Result<Fingerprint, ErasedRefusal> {
        let action = Self::parse_action(action)?;
        Fingerprint::of(&action).map_err(|e| ErasedRefusal::InvalidAction(e.to_string()))
    }

    fn redactor(&self) -> Arc<dyn ReceiptRedactor> {
        Arc::new(TypedRedactor::<G> {
            bundle: self.inner.bundle().clone(),
            seats: self.inner.seat_count(),
            format: self.inner.format(),
            secret: *self.inner.secret(),
        })
    }

    fn remember_rejection(
        &mut self,
        command_id: &str,
        seat: Option<Seat>,
        action: Fingerprint,
        rejection: Rejection,
    ) {
        self.inner
            .remember_rejection(command_id.into(), seat, action, rejection);
    }

    fn view(&self, viewer: Viewer) -> Result<ErasedView, ErasedError> {
        let view = self.inner.view(viewer);
        let fingerprint =
            Fingerprint::of(&view).map_err(|e| ErasedError::Canonical(e.to_string()))?;
        Ok(ErasedView {
            view: canonical(&view)?,
            fingerprint,
        })
    }

    fn receipt(&self, sequence: Sequence, viewer: Viewer) -> Option<Value> {
        let index = usize::try_from(sequence.checked_sub(1)?).ok()?;
        let entry = self.inner.log().get(index)?;
        self.redact(&entry.receipt, viewer).ok()
    }

    fn receipt_json(&self, sequence: Sequence, viewer: Viewer) -> Option<String> {
        let index = usize::try_from(sequence.checked_sub(1)?).ok()?;
        let entry = self.inner.log().get(index)?;
        redact_typed_canonical::<G>(&self.sealing(), &entry.receipt, viewer).ok()
    }

    fn receipt_by_command(&self, command_id: &str, viewer: Viewer) -> Option<Value> {
        let entry = self.inner.entry_by_command_id(command_id)?;
        self.redact(&entry.receipt, viewer).ok()
    }

    fn timeline(&self, after: Sequence, limit: usize, viewer: Viewer) -> Vec<Value> {
        self.inner
            .timeline(after, limit)
            .iter()
            .filter_map(|e| self.redact(&e.receipt, viewer).ok())
            .collect()
    }

    fn redact_receipt(&self, receipt: &Value, viewer: Viewer) -> Result<Value, ErasedError> {
        self.redactor().redact(receipt, viewer)
    }

    fn legal_actions(&self, seat: Seat) -> Result<Vec<ActionKind>, CommandRefusal> {
        self.inner.legal_actions(seat)
    }

    fn candidates(&self, seat: Seat, tick: Tick) -> Result<Vec<Value>, CommandRefusal> {
        let candidates = self
            .inner
            .resolver()
            .candidates(self.inner.state(), seat, tick)?;
        Ok(candidates
            .iter()
            .filter_map(|action| canonical(action).ok())
            .collect())
    }

    fn preview(
        &self,
        action: &Value,
        seat: Seat,
        tick: Tick,
    ) -> Result<ErasedPreview, ErasedRefusal> {
        let action = Self::parse_action(action)?;
        let ctx = turnstile_core::CommandContext {
            seat: Some(seat),
            tick,
        };
        let broken = |e: String| {
            ErasedRefusal::Refused(CommandRefusal::Rule(Rejection::new("match_broken", e)))
        };
        let next_sequence = self.inner.sequence() + 1;
        let seal = |next: &G::State| self.inner.fingerprint_state_at(next_sequence, next);
        let preview = self
            .inner
            .resolver()
            .preview_sealed(self.inner.state(), ctx, &action, Viewer::Seat(seat), &seal)
            .map_err(ErasedRefusal::Refused)?
            .map_err(|e| broken(e.to_string()))?;
        let mut shown = preview.events;
        if self.inner.format().is_lean() {
            // What the commit's receipt will hold: signals stay out of both.
            shown.retain(|event| !G::is_signal(event));
        }
        let events = canonical(&shown).map_err(|e| broken(e.to_string()))?;
        let fingerprint = Fingerprint::of(&serde_json::json!({
            "action": canonical(&action).map_err(|e| broken(e.to_string()))?,
            "events": events,
            "stateFingerprint": preview.state_fingerprint.to_string(),
        }))
        .map_err(|e| broken(e.to_string()))?;
        Ok(ErasedPreview {
            view: canonical(&preview.view).map_err(|e| broken(e.to_string()))?,
            view_fingerprint: preview.view_fingerprint,
            state_fingerprint: preview.state_fingerprint,
            events,
            fingerprint,
        })
    }

    fn replay(&self, viewer: Viewer) -> Result<Value, ErasedError> {
        if viewer == Viewer::Referee {
            return canonical(&self.full_replay()?);
        }
        let bundle = EmbeddedBundle {
            content: &self.inner.bundle().content,
            game: G::ID.to_string(),
        };
        let entries = self
            .inner
            .log()
            .iter()
            .map(|e| {
                Ok(RedactedEntry {
                    envelope: canonical(&e.envelope)?,
                    receipt: self.redact(&e.receipt, viewer)?,
                })
            })
            .collect::<Result<Vec<_>, ErasedError>>()?;
        canonical(&RedactedReplay {
            format: self.inner.format().number(),
            engine: ENGINE_VERSION,
            game: G::ID,
            config: &self.spec.config,
            seats: &self.spec.seats,
            seed: None,
            tick_rate: self.spec.tick_rate,
            revision: self.revision(),
            bundle: canonical(&bundle)?,
            redacted: true,
            viewer,
            entries,
        })
    }

    fn full_replay(&self) -> Result<ReplayFile, ErasedError> {
        ReplayFile::of_match(&self.inner).map_err(|e| ErasedError::Canonical(e.to_string()))
    }

    fn snapshot(&self) -> Result<Value, ErasedError> {
        canonical(&self.inner.snapshot_now())
    }

    fn timeout_command(&self) -> Option<SystemCommand> {
        let (turn_index, action) = self.hooks.timeout.as_ref()?;
        let deadline = self.inner.deadline_tick()?;
        let index = turn_index(self.inner.state());
        Some(SystemCommand {
            command_id: format!("timeout:{index}"),
            tick: deadline,
            action: canonical(&action(index)).ok()?,
        })
    }

    fn clock_resumed_command(
        &self,
        last_heartbeat_tick: Tick,
        takeover_tick: Tick,
    ) -> Option<SystemCommand> {
        let hook = self.hooks.clock_resumed.as_ref()?;
        Some(SystemCommand {
            command_id: format!("clock-resumed:{}", self.inner.sequence()),
            tick: takeover_tick,
            action: canonical(&hook(last_heartbeat_tick, takeover_tick)).ok()?,
        })
    }

    fn resign_action(&self, seat: Seat) -> Option<Value> {
        let hook = self.hooks.resign.as_ref()?;
        canonical(&hook(seat)).ok()
    }

    fn bot_seats(&self) -> Vec<Seat> {
        self.bots.keys().copied().collect()
    }

    fn bot_action(&mut self, seat: Seat, tick: Tick) -> Option<Value> {
        let bot = self.bots.get_mut(&seat)?;
        let resolver = self.inner.resolver();
        let action = bot.choose(&resolver, self.inner.state(), seat, tick)?;
        canonical(&action).ok()
    }
}

/// Turns source files into a compiled bundle of game `G`.
pub(crate) fn compile<G: Game>(
    source: &turnstile_core::BundleSource,
) -> Result<CompiledBundle, Vec<turnstile_core::ContentProblem>> {
    let content = G::load_content(source)?;
    let bundle = ContentBundle::new(G::ID, content).map_err(|p| vec![p])?;
    let json = canonical_value(&EmbeddedBundle {
        content: &bundle.content,
        game: G::ID.to_string(),
    })
    .map_err(|e| {
        vec![turnstile_core::ContentProblem::new(
            turnstile_core::content::MANIFEST_FILE,
            turnstile_core::Location::File,
            "not_canonical",
            e.to_string(),
        )]
    })?;
    Ok(CompiledBundle {
        bundle: ErasedBundle::new::<G>(Arc::new(bundle)),
        json,
    })
}

/// Loads a stored bundle (`{"content", "game"}`) of game `G`, checking its revision when given.
pub(crate) fn load_stored<G: Game>(
    json: &Value,
    expected: Option<&Fingerprint>,
) -> Result<ErasedBundle, ErasedError> {
    let embedded = EmbeddedBundle::<G::Content>::deserialize(json)
        .map_err(|e| ErasedError::Bundle(e.to_string()))?;
    if embedded.game != G::ID {
        return Err(ErasedError::WrongGame {
            bundle: embedded.game,
            game: G::ID.into(),
        });
    }
    let bundle = ContentBundle::new(G::ID, embedded.content)
        .map_err(|p| ErasedError::Bundle(p.to_string()))?;
    if let Some(expected) = expected {
        if bundle.revision != *expected {
            return Err(ErasedError::Bundle(format!(
                "the stored bundle hashes to {}, not {expected}",
                bundle.revision
            )));
        }
    }
    Ok(ErasedBundle::new::<G>(Arc::new(bundle)))
}
