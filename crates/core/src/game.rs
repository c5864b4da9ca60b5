//! The contract a game implements, and the vocabulary it shares with the engine.
//!
//! A game is a set of pure functions over its own types. The engine owns everything around
//! them — sequencing, idempotency, fingerprints, receipts, storage, the network — and calls the
//! game only through the [`LegalActionResolver`](crate::LegalActionResolver), so that listing,
//! previewing and applying an action can never disagree.
//!
//! Applying is split in two on purpose. [`Game::check`] looks at the state and either rejects
//! the action or returns a *plan*; [`Game::commit`] carries a plan out and cannot fail. A
//! rejection therefore cannot half-apply anything: `check` only ever sees `&State`.

use crate::content::{BundleSource, ContentProblem};
use crate::ids::{Seat, Tick, Viewer};
use crate::rejection::Rejection;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use turnstile_determinism::canonical::CanonicalWriter;
use turnstile_determinism::CanonicalError;

/// What a game may know about the command it is judging, besides the action itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandContext {
    /// The seat the command speaks for; `None` for system commands.
    pub seat: Option<Seat>,
    /// The tick stamped on the envelope.
    pub tick: Tick,
}

/// Everything a new match is made from, besides content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchSetup<'a, Config> {
    /// The game's own configuration (a level, a preset, a deck).
    pub config: &'a Config,
    /// The match seed; every random stream is derived from it.
    pub seed: &'a str,
    /// How many seats the match has.
    pub seats: u16,
}

/// A problem that stops a match from being created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message} ({code})")]
pub struct SetupError {
    /// Stable code, `snake_case`.
    pub code: String,
    /// What is wrong, for a person.
    pub message: String,
}

impl SetupError {
    /// A setup error.
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        SetupError {
            code: code.into(),
            message: message.into(),
        }
    }
}

/// Whether a match is still being played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum MatchStatus {
    /// Commands are being played.
    Active,
    /// The game has an outcome. Some games still accept commands (Sokoban's undo after solving);
    /// each game's `check` decides.
    Finished {
        /// How it ended.
        outcome: Outcome,
    },
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// Stable code: `solved`, `win`, `draw`, `resigned`, `timeout` or a game's own.
    pub kind: String,
    /// The winning seats (none for a draw; the single player for a solved puzzle).
    pub winners: Vec<Seat>,
}

/// One kind of action a seat may take now, with the ranges of its parameters — compact, never
/// an exploded list of every combination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionKind {
    /// The action's `type` as it appears in JSON (`move`, `undo`, `walkTo`).
    pub kind: String,
    /// Its parameters.
    pub params: Vec<ParamSpec>,
}

impl ActionKind {
    /// An action kind without parameters.
    pub fn bare(kind: &str) -> Self {
        ActionKind {
            kind: kind.into(),
            params: Vec::new(),
        }
    }
}

/// One parameter of an action kind and the values it may take now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParamSpec {
    /// The field name in the action's JSON.
    pub name: String,
    /// The values allowed now.
    pub range: ParamRange,
}

/// One value a parameter may take, in the JSON type of the action's field: an integer field
/// lists integers (`[1, 3]`, never `["1", "3"]`), a string field lists strings.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// An integer (a hand index, a slot, a column, a seat).
    Int(i64),
    /// A string (a direction, an id).
    Text(String),
}

impl From<i64> for ParamValue {
    fn from(n: i64) -> Self {
        ParamValue::Int(n)
    }
}

impl From<u8> for ParamValue {
    fn from(n: u8) -> Self {
        ParamValue::Int(i64::from(n))
    }
}

impl From<u16> for ParamValue {
    fn from(n: u16) -> Self {
        ParamValue::Int(i64::from(n))
    }
}

impl From<usize> for ParamValue {
    fn from(n: usize) -> Self {
        ParamValue::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<&str> for ParamValue {
    fn from(s: &str) -> Self {
        ParamValue::Text(s.to_owned())
    }
}

impl From<String> for ParamValue {
    fn from(s: String) -> Self {
        ParamValue::Text(s)
    }
}

/// The values a parameter may take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ParamRange {
    /// Any integer in `min..=max`.
    Integer {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// One of these values, each written as the action's field takes it (a JSON integer for
    /// an integer field, a string for a string field), so a listed value sent back verbatim is
    /// accepted.
    OneOf {
        /// The choices.
        values: Vec<ParamValue>,
    },
    /// One of these board cells, as `[x, y]` with `x` the column and `y` the row, from 0.
    Cells {
        /// The cells.
        cells: Vec<[u16; 2]>,
    },
    /// A subset of these items with `min..=max` members (the field is a JSON list of them).
    SubsetOf {
        /// The items, typed as in [`ParamRange::OneOf`].
        items: Vec<ParamValue>,
        /// Fewest members.
        min: u32,
        /// Most members.
        max: u32,
    },
}

/// A game: content, state, actions and rules, all pure.
///
/// Every associated type serializes: state and views are fingerprinted through canonical JSON,
/// actions and events travel in envelopes and receipts. None may hold floats, hash maps or
/// `usize` (see `spec/determinism.md`).
pub trait Game: Sized + Send + Sync + 'static {
    /// The game's id in URLs, bundles and replays (`sokoban`).
    const ID: &'static str;
    /// The file kinds its bundle manifest may name.
    const CONTENT_KINDS: &'static [&'static str];
    /// The names of its random streams; drawing from any other is an error.
    const STREAMS: &'static [&'static str];

    /// Whether viewers may see different things. A game without hidden information (Sokoban,
    /// Connect Four) says `false`, and the engine computes one view for every viewer.
    const HIDDEN_INFORMATION: bool = true;

    /// The version of the game's *rules*, as replay files record it (`rules`, left out while
    /// 0). Content travels inside every replay, so a content change never needs it; a change
    /// to the Rust rules that makes an older match re-execute differently (a new random
    /// stream, a draw moved to another moment, a rule read from content that older bundles
    /// do not have) bumps it, and the game's page says what changed.
    const RULES_VERSION: u32 = 0;

    /// The oldest rules version this build still re-executes. `replay verify` refuses a file
    /// written under an older one with `rules_retired` (and one from a newer release with
    /// `rules_unknown`) instead of reporting a divergence that is nobody's tampering. Keeping
    /// it at 0 promises that every replay the game ever wrote still verifies.
    const OLDEST_RULES: u32 = 0;

    /// Typed, validated content.
    type Content: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// The game's own match configuration.
    type Config: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// The full match state, random streams included.
    type State: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// An action a seat (or the system) may submit.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// What a receipt tells clients happened.
    type Event: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// What one viewer may see of a state.
    type View: Serialize + Clone + Debug + Send + Sync;
    /// A checked action, ready to commit.
    type Plan;

    /// Parses and validates a bundle, reporting every problem.
    fn load_content(source: &BundleSource) -> Result<Self::Content, Vec<ContentProblem>>;

    /// The seat counts this game allows with this config (inclusive range).
    fn seat_range(content: &Self::Content, config: &Self::Config) -> (u16, u16);

    /// The state of a new match.
    fn setup(
        content: &Self::Content,
        setup: MatchSetup<'_, Self::Config>,
    ) -> Result<Self::State, SetupError>;

    /// Checks a state read back from storage (a snapshot) against the pinned content, and
    /// rebuilds whatever the state derives from content without serializing it (a level's wall
    /// map, say). A state whose cursors do not resolve in the content fails here, before
    /// anything executes. The default accepts the state as it is.
    fn attach(_content: &Self::Content, _state: &mut Self::State) -> Result<(), SetupError> {
        Ok(())
    }

    /// True for actions only the system may submit (`Timeout`, `ClockResumed`).
    fn is_system_action(_action: &Self::Action) -> bool {
        false
    }

    /// The action kinds `seat` may take now.
    fn legal_actions(content: &Self::Content, state: &Self::State, seat: Seat) -> Vec<ActionKind>;

    /// Concrete actions `seat` could submit now, for bots and tests. Listing every combination
    /// is the game's choice: where they are too many, a game lists a representative subset.
    /// The resolver keeps only those that pass [`Game::check`], so a game may list generously.
    /// The default lists none (a game without bots).
    fn enumerate_actions(
        _content: &Self::Content,
        _state: &Self::State,
        _seat: Seat,
    ) -> Vec<Self::Action> {
        Vec::new()
    }

    /// [`enumerate_actions`](Self::enumerate_actions) into a list the caller keeps: `out` is
    /// cleared, then holds the same actions in the same order. A bot or a benchmark that picks a
    /// move every command reuses one list and allocates nothing for it once it has grown; a game
    /// whose listing is hot overrides this (the kit does), and the default simply moves the
    /// list [`enumerate_actions`](Self::enumerate_actions) makes into `out`.
    fn enumerate_actions_into(
        content: &Self::Content,
        state: &Self::State,
        seat: Seat,
        out: &mut Vec<Self::Action>,
    ) {
        out.clear();
        out.append(&mut Self::enumerate_actions(content, state, seat));
    }

    /// Judges an action without changing anything.
    fn check(
        content: &Self::Content,
        state: &Self::State,
        ctx: CommandContext,
        action: &Self::Action,
    ) -> Result<Self::Plan, Rejection>;

    /// Carries out a checked plan. Must not fail: everything that could go wrong was found by
    /// [`Game::check`].
    fn commit(
        content: &Self::Content,
        state: &mut Self::State,
        ctx: CommandContext,
        plan: Self::Plan,
    ) -> Vec<Self::Event>;

    /// Judges `action` and, when it is legal, carries it out on `state`, appending its events to
    /// `events`; when it is refused, neither `state` nor `events` changes.
    ///
    /// The provided body is [`check`](Game::check) then [`commit`](Game::commit), and that is
    /// what it means. A game overrides it only to go faster — recording events straight into
    /// the caller's list, reusing its storage move after move, with no plan built in between —
    /// and an override must accept, refuse, change and record exactly what check-then-commit
    /// would (the game's tests compare the two). The resolver's
    /// [`apply_into`](crate::LegalActionResolver::apply_into) calls it.
    fn apply(
        content: &Self::Content,
        state: &mut Self::State,
        ctx: CommandContext,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Rejection> {
        let plan = Self::check(content, state, ctx, action)?;
        events.extend(Self::commit(content, state, ctx, plan));
        Ok(())
    }

    /// [`apply`](Game::apply) appending only the events that are not signals
    /// ([`Game::is_signal`]): the list a format-3 receipt records, which is all a match of
    /// that format reads. The provided body is `apply` followed by dropping the signals it
    /// appended, and that is what it means; a game overrides it only so as not to make the
    /// signals at all (the kit's turn framework then never builds them). An override must
    /// accept, refuse, change and record exactly what the provided body would — the test
    /// driver (`turnstile_runtime::testing::Driver`) compares them before every command of
    /// every game's property test. The resolver's
    /// [`apply_lean_into`](crate::LegalActionResolver::apply_lean_into) calls it.
    fn apply_lean(
        content: &Self::Content,
        state: &mut Self::State,
        ctx: CommandContext,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Rejection> {
        let from = events.len();
        Self::apply(content, state, ctx, action, events)?;
        retain_appended(events, from, |event| !Self::is_signal(event));
        Ok(())
    }

    /// What `viewer` may see.
    fn view(content: &Self::Content, state: &Self::State, viewer: Viewer) -> Self::View;

    /// What `viewer` may learn from an event: the event itself (the default, for games without
    /// hidden information), a redacted copy, or nothing.
    fn redact_event(
        _content: &Self::Content,
        event: &Self::Event,
        _viewer: Viewer,
    ) -> Option<Self::Event> {
        Some(event.clone())
    }

    /// What `viewer` may see of `after` in a preview of an action taken from `before`. A
    /// preview must not leak the future: whatever the action would reveal that the viewer does
    /// not know now — a card it would draw, a shuffle, a chance outcome — stays hidden. The
    /// default, the plain view of `after`, is right for games where actions reveal nothing.
    fn preview_view(
        content: &Self::Content,
        _before: &Self::State,
        after: &Self::State,
        viewer: Viewer,
    ) -> Self::View {
        Self::view(content, after, viewer)
    }

    /// What `viewer` may learn from an event in a preview; the default is
    /// [`Game::redact_event`]. A game hides here what the event would reveal only once
    /// committed (the card a seat draws).
    fn preview_event(
        content: &Self::Content,
        event: &Self::Event,
        viewer: Viewer,
    ) -> Option<Self::Event> {
        Self::redact_event(content, event, viewer)
    }

    /// What `viewer` may learn from the events of a previewed action taken from `before` to
    /// `after`. The default asks [`Game::preview_event`] of each event; a game overrides it
    /// when whether an event may be shown depends on the states — an outcome that rode on a
    /// chance roll shows only in what the two states tell apart.
    fn preview_events(
        content: &Self::Content,
        _before: &Self::State,
        _after: &Self::State,
        events: &[Self::Event],
        viewer: Viewer,
    ) -> Vec<Self::Event> {
        events
            .iter()
            .filter_map(|e| Self::preview_event(content, e, viewer))
            .collect()
    }

    /// Whether the match is over.
    fn status(content: &Self::Content, state: &Self::State) -> MatchStatus;

    /// The number of commands the current activation has accepted (`expectedStep`); games
    /// without activations keep the default 0.
    fn step(_state: &Self::State) -> u64 {
        0
    }

    /// The tick at which the current turn times out, if it can.
    fn deadline_tick(_state: &Self::State) -> Option<Tick> {
        None
    }

    /// Whether `event` is a *signal*: bookkeeping that only the rules need (a turn's status
    /// moving to `Resolving` and back, its timer reset, a command received). A receipt of
    /// format 3 leaves signals out, so receipts carry what a client renders and no more;
    /// older formats keep them, so their replays re-execute bit for bit. The default keeps
    /// every event.
    ///
    /// Must never depend on anything but the event itself: the same event is a signal in
    /// every match, or a replay could not tell which events its receipts should hold.
    fn is_signal(_event: &Self::Event) -> bool {
        false
    }

    /// The form of `state` that format-3 fingerprints hash: the same information as the
    /// state, written without what is at its default (empty lists, `null`s, zero counters).
    /// It must be *complete* — two states that differ in anything the rules can ever read
    /// must give different forms — and is never read back, only hashed. The default is the
    /// state itself; a game overrides it when its serialized state is mostly defaults.
    fn fingerprint_form(state: &Self::State) -> impl Serialize + '_ {
        state
    }

    /// Writes exactly the canonical bytes of [`Game::fingerprint_form`] into `writer`: what a
    /// format-3 state fingerprint of a game without hidden information hashes, for every
    /// receipt. The default serializes the form; a game overrides it only to write the same
    /// bytes faster, by hand (the kit does, for its states). `turnstile_runtime::testing`'s
    /// driver checks the two agree at every state of every game's property tests.
    fn write_fingerprint_form(
        state: &Self::State,
        writer: &mut CanonicalWriter,
    ) -> Result<(), CanonicalError> {
        writer.value(&Self::fingerprint_form(state))
    }

    /// Writes exactly the canonical bytes of `event`'s `Serialize` form into `writer`: what a
    /// receipt's hash covers of each event that is not sealed. The default serializes it; a game
    /// overrides it only to write the same bytes faster, by hand (the kit does, for turn
    /// events). `turnstile_runtime::testing`'s driver checks the two agree for every event of
    /// every game's property tests.
    fn write_event(
        event: &Self::Event,
        writer: &mut CanonicalWriter,
    ) -> Result<(), CanonicalError> {
        writer.value(event)
    }

    /// Writes exactly the canonical bytes of [`Game::view`]'s `Serialize` form for `viewer`
    /// into `writer`: what a receipt's view fingerprints hash, for every receipt. The default
    /// serializes the view; a game overrides it only to write the same bytes faster, by hand
    /// (the kit does, when its game writes its board view's fields).
    /// `turnstile_runtime::testing`'s driver checks the two agree at every state of every
    /// game's property tests.
    fn write_view(
        content: &Self::Content,
        state: &Self::State,
        viewer: Viewer,
        writer: &mut CanonicalWriter,
    ) -> Result<(), CanonicalError> {
        writer.value(&Self::view(content, state, viewer))
    }
}

/// Keeps, of the events from index `from` on, those `keep` accepts, in order; the ones before
/// `from` are the caller's and stay as they are. In place: no second list.
pub(crate) fn retain_appended<E>(events: &mut Vec<E>, from: usize, keep: impl Fn(&E) -> bool) {
    let mut kept = from;
    for i in from..events.len() {
        if keep(&events[i]) {
            events.swap(kept, i);
            kept += 1;
        }
    }
    events.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::retain_appended;

    #[test]
    fn retain_appended_filters_only_the_appended_events_in_order() {
        let mut events = vec![1, 3, 5, 2, 4, 7, 6];
        // The first two are the caller's: kept even though odd.
        retain_appended(&mut events, 2, |e| e % 2 == 0);
        assert_eq!(events, vec![1, 3, 2, 4, 6]);
        let mut none = vec![9, 8];
        retain_appended(&mut none, 2, |_| false);
        assert_eq!(none, vec![9, 8]);
        retain_appended(&mut none, 0, |_| false);
        assert!(none.is_empty());
    }
}
