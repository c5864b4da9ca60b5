//! The common case of a two-seat turn-based game, written once: a game supplies its moves, its
//! starting board, its check and apply, its outcome and its legal moves, and [`Kit<G>`] makes it
//! a complete [`Game`](turnstile_core::Game).
//!
//! What the kit does for every game, so that no game repeats it:
//!
//! - **content**: the `rules` file of turn configs with a default ([`content`]), loaded with
//!   every problem reported, or the [`STANDARD_RULES`] when a game ships none;
//! - **turns**: one commander per seat on the turn framework, seat 0 first; the clock advanced to
//!   each command's tick before it is judged (a move at the deadline is late);
//! - **system actions**: `Timeout { turnIndex }` (command id `timeout:<turn index>`) ends a
//!   timed-out turn, `ClockResumed` moves running deadlines later by an outage;
//!   `forfeitAfterTimeouts` timeouts in a row forfeit the match;
//! - **Skip** under skippable configs, and **Resign** for either seat at any time (the m,n,k
//!   kernel's resignation, unchanged: a game action, the other seat wins);
//! - **events** in the order things happened: the game's own, the turn framework's wrapped as
//!   `{"type": "turn", "event": …}`, and `matchEnded` with the result and the winner;
//! - **status, deadlines and attach**: the outcome for the engine, the current deadline carried
//!   in the state (for the server's timers), and the checks a stored state must pass;
//! - **actions**: one generic [`Action`] type — the game's move as `{"type": PLAY_KIND,
//!   PLAY_FIELD: move}`, plus `skip`, `resign`, `timeout`, `clockResumed` — so no game writes
//!   an action enum or its mappings; `enumerate_actions` lists the moves, so the runtime's random
//!   bot plays any kit game.
//!
//! It sits below the runtime (it depends on `turnstile-core` and `turnstile-turns` only), so a
//! game on the kit knows no runtime, server or store. Registering a kit game with its bots and
//! system actions in one call is `turnstile_samples::register_kit_game`.
//!
//! **What this crate must never do.** No I/O, no clock (time arrives as envelope ticks), no
//! floats, hash maps or platform randomness, and no panics on input from outside: every refusal
//! is a typed [`KitError`] with a stable code.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod action;
pub mod content;
mod error;
mod event;
pub mod events;
mod game;
mod referee;
mod state;

use std::fmt::{Debug, Display};

use serde::de::DeserializeOwned;
use serde::Serialize;
use turnstile_core::{BundleSource, ParamSpec, Seat};

pub use action::{arbitrary_command, Action};
pub use content::{
    embedded_source, load_rules, standard_source, Rules, RULES_KIND, RULES_PATH, STANDARD_RULES,
};
pub use error::KitError;
pub use event::{GameEvents, KitEvent, MatchResult};
pub use events::{game_events, turn_begins, turn_ends};
pub use game::{load_bundle, Kit, MatchConfig};
pub use referee::{KitPlan, RESIGNED};
pub use state::{KitState, KitView, SEATS};
pub use turnstile_turns::TurnConfigId;

/// The other seat of a two-seat match.
pub fn opponent(seat: Seat) -> Seat {
    Seat(seat.0 ^ 1)
}

/// A game's own refusal: a stable snake_case code and a message saying what and why.
pub trait RuleCode: Display {
    /// The stable code clients switch on.
    fn code(&self) -> &'static str;
}

/// What a game on the kit supplies: everything that is its own, nothing the kit already does.
///
/// The implementing type is a marker (`struct Nim;`); the kit never builds a value of it.
pub trait KitGame: Debug + Clone + Copy + PartialEq + Eq + Send + Sync + 'static {
    /// The game id (`nim`, `tictactoe`).
    const ID: &'static str;
    /// The action `type` of a move (`take`, `mark`), also its kind in legal actions.
    const PLAY_KIND: &'static str;
    /// The field of the move action that holds [`KitGame::Move`] (`count`, `cell`).
    const PLAY_FIELD: &'static str;

    /// A move: the data of the turn framework's `Play`.
    type Move: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Eq + Send + Sync + 'static;
    /// The game's own part of the state (a board, a pile).
    type Board: Serialize
        + DeserializeOwned
        + Clone
        + Debug
        + PartialEq
        + Eq
        + Send
        + Sync
        + 'static;
    /// What a checked move will do, found by [`KitGame::check`] and carried out by
    /// [`KitGame::apply`] (a landing cell; often the move itself).
    type Target: Clone + Debug + Send + Sync + 'static;
    /// The game's own events: each serializes to a JSON object with a `type` other than
    /// `turn` and `matchEnded`.
    type Event: Serialize
        + DeserializeOwned
        + Clone
        + Debug
        + PartialEq
        + Eq
        + Send
        + Sync
        + 'static;
    /// How the game itself ends a match (a line, a draw, the last stone): a JSON object with a
    /// `kind` other than `resigned` and `forfeited`.
    type Win: KitWin;
    /// Why a move is refused.
    type Error: RuleCode + Debug + Clone + PartialEq + Send + Sync + 'static;
    /// What every viewer sees of the board (kit games hide nothing).
    type BoardView: Serialize + Clone + Debug + Send + Sync + 'static;

    /// The content bundle the game ships (its `rules` file of turn configs); by default the
    /// [`STANDARD_RULES`], so a game with nothing else to configure ships no files.
    fn bundled_source() -> BundleSource {
        standard_source(Self::ID)
    }
    /// The board a match starts on.
    fn start() -> Self::Board;
    /// Whether a stored board could have come from play (checked when a match is attached).
    fn well_formed(_board: &Self::Board) -> bool {
        true
    }
    /// What `seat`'s move would do on `board`, or why it can't be played.
    fn check(board: &Self::Board, seat: Seat, mv: &Self::Move)
        -> Result<Self::Target, Self::Error>;
    /// Carries out a checked move, pushing the game's events; `Some` when it ends the match.
    fn apply(
        board: &mut Self::Board,
        seat: Seat,
        target: Self::Target,
        events: &mut GameEvents<'_, Self>,
    ) -> Option<Self::Win>;
    /// Every move `seat` may play on `board`, in a stable order (for bots and tests). An
    /// iterator, so that the kit collects the actions straight into one list (one allocation
    /// a listing, what a random or searching bot pays per position).
    fn moves(board: &Self::Board, seat: Seat) -> impl Iterator<Item = Self::Move>;
    /// The parameters of the [`PLAY_KIND`](KitGame::PLAY_KIND) action with the values allowed
    /// now, for clients.
    fn play_params(board: &Self::Board) -> Vec<ParamSpec>;
    /// What viewers see of the board.
    fn view(board: &Self::Board) -> Self::BoardView;
    /// The board as format-3 state fingerprints hash it: complete (two boards that differ
    /// give different forms), never read back. The default is the board's own serde form.
    fn fingerprint_board(board: &Self::Board) -> impl Serialize + '_ {
        board
    }
    /// Whether [`write_view_fields`](KitGame::write_view_fields) writes the board view's
    /// fields (the default: no, and the view is serialized).
    const WRITES_VIEW_FIELDS: bool = false;
    /// Writes the fields of [`view`](KitGame::view)'s board view by hand, for the view
    /// fingerprint of every receipt: each as `,"key":value` (comma first), in canonical order,
    /// exactly the entries its `Serialize` form gives. Called only when
    /// [`WRITES_VIEW_FIELDS`](KitGame::WRITES_VIEW_FIELDS) is set, which a game may do only for
    /// a board view whose keys all sort after `result` and before `toMove`, the kit's fields
    /// it sits between. The test driver of `turnstile_runtime::testing` checks the view
    /// written this way is the serialized one at every state of every game's property tests.
    fn write_view_fields(
        _board: &Self::Board,
        _writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
    ) -> Result<(), turnstile_core::determinism::CanonicalError> {
        Ok(())
    }
}

/// How a game itself ends a match: who won, and the engine's outcome kind.
pub trait KitWin:
    Serialize + DeserializeOwned + Clone + Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// The seat this result names as the winner, if any.
    fn winner(&self) -> Option<Seat>;
    /// The engine's outcome kind (`win`, `draw`).
    fn outcome_kind(&self) -> &'static str;
}
