//! The state of a kit game's match — the game's board beside the turn framework's state, the
//! result and the current deadline — and the view every viewer gets.

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::canonical::CanonicalWriter;
use turnstile_core::determinism::CanonicalError;
use turnstile_core::{Seat, Tick};
use turnstile_turns::{MatchTurns, TurnConfigId, TurnStatus};

use crate::action::Action;
use crate::event::MatchResult;
use crate::KitGame;

/// The seats of every kit match, in turn order: seat 0 moves first.
pub const SEATS: [Seat; 2] = [Seat(0), Seat(1)];

/// The full state of a match: the game's board, the turn framework's state (whose commanders
/// name the turn config by id) and the result; nothing is copied from content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", bound = "")]
pub struct KitState<G: KitGame> {
    pub(crate) board: G::Board,
    pub(crate) turns: MatchTurns,
    pub(crate) result: Option<MatchResult<G::Win>>,
    /// Derived from `turns` and the content after every command. `Game::deadline_tick` is not
    /// given the content that resolving a turn config needs, so the state carries the answer.
    pub(crate) deadline_tick: Option<Tick>,
}

impl<G: KitGame> KitState<G> {
    /// The game's board.
    pub fn board(&self) -> &G::Board {
        &self.board
    }

    /// The turn framework's state: clock, per-seat turn data, turn order.
    pub fn turns(&self) -> &MatchTurns {
        &self.turns
    }

    /// How the match ended, once it has.
    pub fn result(&self) -> Option<&MatchResult<G::Win>> {
        self.result.as_ref()
    }

    /// The seat whose turn is active, if any.
    pub fn to_move(&self) -> Option<Seat> {
        let current = self.turns.clock().current();
        (current.status == TurnStatus::Active)
            .then_some(current.player)
            .flatten()
    }

    /// The match-wide index of the current (or last) turn: what a `Timeout` names.
    pub fn turn_index(&self) -> u64 {
        self.turns.clock().turn_index()
    }

    /// The tick at which the current turn times out, if its timer runs.
    pub fn deadline_tick(&self) -> Option<Tick> {
        self.deadline_tick
    }

    /// The tick the turn clock stands at.
    pub fn clock_tick(&self) -> Tick {
        self.turns.clock().last_tick()
    }

    /// The system `Timeout` a server should submit once its clock reaches the deadline: the
    /// command id `timeout:<turn index>`, the tick to stamp it with (the deadline) and the
    /// action. `None` when the current turn cannot time out.
    pub fn pending_timeout(&self) -> Option<(String, Tick, Action<G>)> {
        let deadline = self.deadline_tick?;
        let turn_index = self.turn_index();
        Some((
            turnstile_turns::timeout_command_id(turn_index),
            deadline,
            Action::Timeout { turn_index },
        ))
    }
}

/// A kit state in its lean form, for fingerprints of receipt format 3: the board as the game
/// fingerprints it, the
/// turn framework's state in its lean form, and the result and deadline only when there is one.
pub(crate) struct LeanKitState<'a, G: KitGame>(pub(crate) &'a KitState<G>);

impl<G: KitGame> Serialize for LeanKitState<'_, G> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let state = self.0;
        let mut object = serializer.serialize_struct("KitState", 4)?;
        object.serialize_field("board", &G::fingerprint_board(&state.board))?;
        if let Some(deadline) = &state.deadline_tick {
            object.serialize_field("deadlineTick", deadline)?;
        }
        if let Some(result) = &state.result {
            object.serialize_field("result", result)?;
        }
        object.serialize_field("turns", &state.turns.lean())?;
        object.end()
    }
}

/// [`LeanKitState`]'s canonical bytes written by hand (`Game::write_fingerprint_form`, for the
/// state fingerprint of every format-3 receipt): the keys as literals in canonical order, the
/// turn framework's lean form by its own hand-written writer; the board and the result (the
/// game's types) through `serde`. The test driver of `turnstile_runtime::testing` checks these
/// are the serialized form's bytes at every state of every kit game's property tests.
pub(crate) fn write_lean<G: KitGame>(
    state: &KitState<G>,
    writer: &mut CanonicalWriter,
) -> Result<(), CanonicalError> {
    writer.raw(b"{\"board\":");
    writer.value(&G::fingerprint_board(&state.board))?;
    if let Some(deadline) = state.deadline_tick {
        writer.raw(b",\"deadlineTick\":");
        writer.uint(deadline);
    }
    if let Some(result) = &state.result {
        writer.raw(b",\"result\":");
        writer.value(result)?;
    }
    writer.raw(b",\"turns\":");
    state.turns.lean().write_canonical(writer)?;
    writer.raw(b"}");
    Ok(())
}

/// [`KitView`]'s canonical bytes (what `Game::view` gives every viewer, hence its
/// fingerprint for every receipt) by hand, for a game that writes its board view's fields
/// ([`KitGame::WRITES_VIEW_FIELDS`]): the keys are literals in canonical order, the board
/// view's between `result` and `toMove`; the result and the turn config through `serde`.
pub(crate) fn write_view<G: KitGame>(
    state: &KitState<G>,
    writer: &mut CanonicalWriter,
) -> Result<(), CanonicalError> {
    writer.raw(b"{\"deadlineTick\":");
    match state.deadline_tick {
        Some(deadline) => writer.uint(deadline),
        None => writer.raw(b"null"),
    }
    writer.raw(b",\"result\":");
    writer.value(&state.result)?;
    G::write_view_fields(&state.board, writer)?;
    writer.raw(b",\"toMove\":");
    match state.to_move() {
        Some(seat) => writer.uint(u64::from(seat.0)),
        None => writer.raw(b"null"),
    }
    writer.raw(b",\"turnConfig\":");
    writer.value(&state.turns.clock().current().config)?;
    writer.raw(b",\"turnIndex\":");
    writer.uint(state.turn_index());
    writer.raw(b"}");
    Ok(())
}

/// What anyone sees: everything, since kit games hide nothing — the game's board view beside
/// the turn and the result.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", bound = "")]
pub struct KitView<G: KitGame> {
    /// When the current turn times out, if its timer runs.
    pub deadline_tick: Option<Tick>,
    /// How the match ended, once it has.
    pub result: Option<MatchResult<G::Win>>,
    /// The game's own view of the board, its fields beside these.
    #[serde(flatten)]
    pub board: G::BoardView,
    /// The seat whose turn is active.
    pub to_move: Option<Seat>,
    /// The turn config in force.
    pub turn_config: Option<TurnConfigId>,
    /// The match-wide turn index.
    pub turn_index: u64,
}
