//! The m,n,k-game as a Turnstile [`Game`]: written once, for every [`Variant`].
//!
//! A variant says what differs between Tic-Tac-Toe and Connect Four — the board size, the line
//! length, the action JSON, and where a move puts its piece (anywhere open, or the lowest open
//! cell of a column) — and [`MnkGame<V>`] is the game: content, state, legality, turns, timers,
//! results and views, shared by both.

use std::fmt::Debug;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};
use turnstile_core::{
    ActionKind, BundleSource, CommandContext, ContentBundle, ContentProblem, Game, MatchSetup,
    MatchStatus, Outcome, ParamSpec, Rejection, Seat, SetupError, Tick, Viewer,
};
use turnstile_turns::{
    Commander, MatchTurns, NoSignals, TurnConfigId, TurnError, TurnEvent, TurnStatus,
};

use crate::mnk::board::{Board, Cell};
use crate::mnk::content::{load_rules, Rules, RULES_KIND};
use crate::mnk::error::RuleError;
use crate::mnk::referee;

/// The seats of every m,n,k match, in turn order: seat 0 moves first.
pub const SEATS: [Seat; 2] = [Seat(0), Seat(1)];

/// The other seat.
pub fn opponent(seat: Seat) -> Seat {
    Seat(seat.0 ^ 1)
}

/// What an action asks for, whatever its JSON looks like in a given game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command<M> {
    /// Place a piece: the turn framework's `Play`, with the game's move as its data.
    Play(M),
    /// Give up the rest of the turn, when the turn config is skippable.
    Skip,
    /// Give up the match; the other seat wins. Either seat, at any time.
    Resign,
    /// The system's `Timeout` for the turn with this match-wide index (command id
    /// `timeout:<turn index>`; the runtime does not check the id, the rules check the index).
    Timeout {
        /// The turn the server saw time out.
        turn_index: u64,
    },
    /// The system's `ClockResumed` (command id `clock-resumed:<sequence>`), recorded by a node
    /// that took the match over after an outage: every running deadline moves later by
    /// `takeover_tick − max(last_heartbeat_tick, clock tick)`, so the outage counts against
    /// no one.
    ClockResumed {
        /// The previous node's last heartbeat tick: where the outage began.
        last_heartbeat_tick: Tick,
        /// The tick at which the new node took over.
        takeover_tick: Tick,
    },
}

/// What makes one m,n,k-game differ from another.
pub trait Variant: Send + Sync + 'static {
    /// The game id (`tictactoe`, `connect4`).
    const ID: &'static str;
    /// Columns.
    const WIDTH: u16;
    /// Rows.
    const HEIGHT: u16;
    /// How many pieces in a row win.
    const LINE: u16;
    /// The action kind a move is listed as in legal actions, and its JSON `type`.
    const PLAY_KIND: &'static str;

    /// A move: the data of the framework's `Play` command (a column, a cell).
    type Move: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync + 'static;
    /// The game's actions as they travel in envelopes.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync + 'static;

    /// What an action asks for.
    fn command(action: &Self::Action) -> Command<Self::Move>;
    /// The action that asks for `command` (the inverse of [`Variant::command`]).
    fn action(command: Command<Self::Move>) -> Self::Action;
    /// The cell a move puts its piece on, or why it can't be played on this board.
    fn target(board: &Board, mv: &Self::Move) -> Result<Cell, RuleError>;
    /// Every move that can be played on this board, in a stable order.
    fn moves(board: &Board) -> Vec<Self::Move>;
    /// The parameters of the [`PLAY_KIND`](Variant::PLAY_KIND) action kind on this board, with
    /// the values allowed now.
    fn play_params(board: &Board) -> Vec<ParamSpec>;
}

/// An m,n,k-game: two seats take turns placing pieces until one has [`Variant::LINE`] in a row,
/// the board is full, a seat resigns, or a seat times out too often.
pub struct MnkGame<V>(PhantomData<fn() -> V>);

/// A match's configuration: which of the content's turn configs it uses. Every field is
/// optional; unknown fields are refused.
///
/// ```json
/// { "turnConfig": "blitz" }
/// ```
///
/// There are no other overrides on purpose: the board is the game, and timers are content, so a
/// match's timing is pinned by its content revision.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchConfig {
    /// The turn config of every turn; the content's `defaultTurnConfig` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_config: Option<TurnConfigId>,
}

impl MatchConfig {
    /// A config choosing the turn config `id`.
    pub fn with_turn_config(id: &str) -> MatchConfig {
        MatchConfig {
            turn_config: Some(TurnConfigId::new(id)),
        }
    }
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum MatchResult {
    /// `seat` completed a line.
    Won {
        /// The line's cells, from one end to the other.
        line: Vec<Cell>,
        /// The winner.
        seat: Seat,
    },
    /// The board filled up with no line.
    Draw,
    /// `seat` resigned; the other seat wins.
    Resigned {
        /// Who resigned.
        seat: Seat,
    },
    /// `seat` let its turn time out `timeouts` times in a row, reaching the turn config's
    /// `forfeitAfterTimeouts`; the other seat wins.
    Forfeited {
        /// Who forfeited.
        seat: Seat,
        /// Timeouts in a row.
        timeouts: u32,
    },
}

impl MatchResult {
    /// The winning seat, if any.
    pub fn winner(&self) -> Option<Seat> {
        match self {
            MatchResult::Won { seat, .. } => Some(*seat),
            MatchResult::Draw => None,
            MatchResult::Resigned { seat } | MatchResult::Forfeited { seat, .. } => {
                Some(opponent(*seat))
            }
        }
    }

    /// The engine's outcome: kind `win`, `draw`, `resigned` or `timeout`.
    pub fn outcome(&self) -> Outcome {
        let kind = match self {
            MatchResult::Won { .. } => "win",
            MatchResult::Draw => "draw",
            MatchResult::Resigned { .. } => "resigned",
            MatchResult::Forfeited { .. } => "timeout",
        };
        Outcome {
            kind: kind.into(),
            winners: self.winner().into_iter().collect(),
        }
    }
}

/// The full state of a match. It holds the board, the turn framework's state (whose commanders
/// name the turn config by id) and the result; nothing is copied from content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MnkState {
    pub(crate) board: Board,
    pub(crate) turns: MatchTurns,
    pub(crate) result: Option<MatchResult>,
    /// Derived from `turns` and the content after every command. [`Game::deadline_tick`] is not
    /// given the content that resolving a turn config needs, so the state carries the answer.
    pub(crate) deadline_tick: Option<Tick>,
}

impl MnkState {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The turn framework's state: clock, per-seat turn data, turn order.
    pub fn turns(&self) -> &MatchTurns {
        &self.turns
    }

    /// How the match ended, once it has.
    pub fn result(&self) -> Option<&MatchResult> {
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
    /// command. `None` when the current turn cannot time out.
    pub fn pending_timeout<M>(&self) -> Option<(String, Tick, Command<M>)> {
        let deadline = self.deadline_tick?;
        let turn_index = self.turn_index();
        Some((
            turnstile_turns::timeout_command_id(turn_index),
            deadline,
            Command::Timeout { turn_index },
        ))
    }
}

/// What a receipt tells clients. In JSON, `{"type": "piecePlaced", ...}`.
///
/// Serialized by hand, with the same JSON as the derived form but each object's keys written in
/// canonical (sorted) order, so that fingerprinting a receipt never has to reorder them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum MnkEvent<M> {
    /// `seat`'s piece is now on `[column, row]` (for a drop: where the disc came to rest).
    PiecePlaced {
        /// Whose piece.
        seat: Seat,
        /// From the left, from 0.
        column: u16,
        /// From the top, from 0.
        row: u16,
    },
    /// The match ended: a line, a full board, a resignation or a forfeit. Nothing is accepted
    /// after it.
    MatchEnded {
        /// How it ended.
        result: MatchResult,
        /// Who won, if anyone.
        winner: Option<Seat>,
    },
    /// Something happened to the turns (began, ended with a reason, status changes, …).
    Turn {
        /// The turn framework's event.
        event: TurnEvent<M, ()>,
    },
}

impl<M: Serialize> Serialize for MnkEvent<M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            MnkEvent::PiecePlaced { seat, column, row } => {
                let mut object = serializer.serialize_struct("MnkEvent", 4)?;
                object.serialize_field("column", column)?;
                object.serialize_field("row", row)?;
                object.serialize_field("seat", seat)?;
                object.serialize_field("type", "piecePlaced")?;
                object.end()
            }
            MnkEvent::MatchEnded { result, winner } => {
                let mut object = serializer.serialize_struct("MnkEvent", 3)?;
                object.serialize_field("result", result)?;
                object.serialize_field("type", "matchEnded")?;
                object.serialize_field("winner", winner)?;
                object.end()
            }
            MnkEvent::Turn { event } => {
                let mut object = serializer.serialize_struct("MnkEvent", 2)?;
                object.serialize_field("event", event)?;
                object.serialize_field("type", "turn")?;
                object.end()
            }
        }
    }
}

impl<M> MnkEvent<M> {
    /// The event that ends a match with `result`, naming its winner.
    pub fn match_ended(result: MatchResult) -> Self {
        let winner = result.winner();
        MnkEvent::MatchEnded { result, winner }
    }
}

/// What anyone sees: everything, since an m,n,k-game hides nothing.
///
/// Fields are declared in the order canonical JSON writes their keys (sorted), so that
/// fingerprinting, done for every receipt, never has to reorder them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MnkView {
    /// When the current turn times out, if its timer runs.
    pub deadline_tick: Option<Tick>,
    /// How the match ended, once it has.
    pub result: Option<MatchResult>,
    /// The rows from the top, one character a cell: `.` open, `0` or `1` a seat's piece.
    pub rows: Vec<String>,
    /// The seat whose turn is active.
    pub to_move: Option<Seat>,
    /// The turn config in force.
    pub turn_config: Option<TurnConfigId>,
    /// The match-wide turn index.
    pub turn_index: u64,
}

/// A checked action: the state after it and what happened, ready to commit.
#[derive(Debug, Clone)]
pub struct MnkPlan<M> {
    pub(crate) state: MnkState,
    pub(crate) events: Vec<MnkEvent<M>>,
}

/// Loads a bundle of game `V` and computes its revision.
pub fn load_bundle<V: Variant>(
    source: &BundleSource,
) -> Result<ContentBundle<Rules>, Vec<ContentProblem>> {
    let rules = MnkGame::<V>::load_content(source)?;
    ContentBundle::new(V::ID, rules).map_err(|p| vec![p])
}

fn setup_error(e: TurnError) -> SetupError {
    SetupError::new(e.code(), e.to_string())
}

impl<V: Variant> Game for MnkGame<V> {
    const ID: &'static str = V::ID;
    const CONTENT_KINDS: &'static [&'static str] = &[RULES_KIND];
    const STREAMS: &'static [&'static str] = &[];
    /// Nothing is hidden: every viewer gets the same view, computed once per receipt.
    const HIDDEN_INFORMATION: bool = false;

    type Content = Rules;
    type Config = MatchConfig;
    type State = MnkState;
    type Action = V::Action;
    type Event = MnkEvent<V::Move>;
    type View = MnkView;
    type Plan = MnkPlan<V::Move>;

    fn load_content(source: &BundleSource) -> Result<Rules, Vec<ContentProblem>> {
        load_rules(source, V::ID)
    }

    fn seat_range(_: &Rules, _: &MatchConfig) -> (u16, u16) {
        (2, 2)
    }

    /// Two commanders, one per seat, equal priorities, registered seat 0 then seat 1, each
    /// taking its turns under the match's turn config; the loop starts, so seat 0's first turn
    /// is active (turn index 1) before any command.
    fn setup(rules: &Rules, setup: MatchSetup<'_, MatchConfig>) -> Result<MnkState, SetupError> {
        if setup.seats != 2 {
            return Err(SetupError::new(
                "seat_count",
                format!("{} takes 2 seats, not {}", V::ID, setup.seats),
            ));
        }
        let config = setup
            .config
            .turn_config
            .as_ref()
            .unwrap_or(&rules.default_turn_config);
        // The content's own copy of the id, when it has one: it resolves without comparing text.
        let config = rules.turn_configs.id(config).unwrap_or(config).clone();
        let mut turns = MatchTurns::new(SEATS);
        let mut handle = turns.turns::<V::Move, ()>(&rules.turn_configs);
        for seat in SEATS {
            let commander =
                Commander::new(format!("seat-{seat}"), Some(seat), 0).with_config(config.clone());
            handle.add_commander(commander).map_err(setup_error)?;
        }
        handle.start_loop(&mut NoSignals).map_err(setup_error)?;
        let deadline_tick = referee::deadline(&turns, rules);
        Ok(MnkState {
            board: Board::new(V::WIDTH, V::HEIGHT),
            turns,
            result: None,
            deadline_tick,
        })
    }

    fn attach(rules: &Rules, state: &mut MnkState) -> Result<(), SetupError> {
        if !state.board.is_well_formed(V::WIDTH, V::HEIGHT, 2) {
            return Err(SetupError::new(
                "inconsistent_state",
                format!(
                    "the board is not a {}×{} board of 2 seats",
                    V::WIDTH,
                    V::HEIGHT
                ),
            ));
        }
        state
            .turns
            .verify(&rules.turn_configs)
            .map_err(setup_error)?;
        if state.deadline_tick != referee::deadline(&state.turns, rules) {
            return Err(SetupError::new(
                "inconsistent_state",
                "the stored deadline tick is not the turn clock's",
            ));
        }
        Ok(())
    }

    fn is_system_action(action: &V::Action) -> bool {
        matches!(
            V::command(action),
            Command::Timeout { .. } | Command::ClockResumed { .. }
        )
    }

    /// While the match runs: the seat to move gets the play kind (with the values open now) and
    /// `skip` when its turn config is skippable; both seats get `resign`. The list reflects the
    /// state as of the last command: a turn whose deadline has passed but whose `Timeout` has not
    /// been applied yet is still listed as running.
    fn legal_actions(rules: &Rules, state: &MnkState, seat: Seat) -> Vec<ActionKind> {
        if state.result.is_some() {
            return Vec::new();
        }
        let mut kinds = Vec::new();
        if state.turns.check_play(seat).is_ok() {
            kinds.push(ActionKind {
                kind: V::PLAY_KIND.into(),
                params: V::play_params(&state.board),
            });
        }
        if state.turns.check_skip(&rules.turn_configs, seat).is_ok() {
            kinds.push(ActionKind::bare("skip"));
        }
        kinds.push(ActionKind::bare("resign"));
        kinds
    }

    /// Every move on the board, for the seat to move. Never `skip` or `resign`: a bot gains
    /// nothing by either, and a uniformly random bot that could skip would mostly stall. Clients
    /// learn of them from [`legal_actions`](Game::legal_actions).
    fn enumerate_actions(_: &Rules, state: &MnkState, seat: Seat) -> Vec<V::Action> {
        if state.result.is_some() || state.turns.check_play(seat).is_err() {
            return Vec::new();
        }
        V::moves(&state.board)
            .into_iter()
            .map(|mv| V::action(Command::Play(mv)))
            .collect()
    }

    fn check(
        rules: &Rules,
        state: &MnkState,
        ctx: CommandContext,
        action: &V::Action,
    ) -> Result<MnkPlan<V::Move>, Rejection> {
        referee::judge::<V>(rules, state, ctx, V::command(action)).map_err(Rejection::from)
    }

    fn commit(
        _: &Rules,
        state: &mut MnkState,
        _: CommandContext,
        plan: MnkPlan<V::Move>,
    ) -> Vec<MnkEvent<V::Move>> {
        *state = plan.state;
        plan.events
    }

    fn view(_: &Rules, state: &MnkState, _: Viewer) -> MnkView {
        let current = state.turns.clock().current();
        MnkView {
            rows: state.board.rows(),
            to_move: state.to_move(),
            turn_index: state.turn_index(),
            deadline_tick: state.deadline_tick,
            turn_config: current.config.clone(),
            result: state.result.clone(),
        }
    }

    fn status(_: &Rules, state: &MnkState) -> MatchStatus {
        match &state.result {
            Some(result) => MatchStatus::Finished {
                outcome: result.outcome(),
            },
            None => MatchStatus::Active,
        }
    }

    fn deadline_tick(state: &MnkState) -> Option<Tick> {
        state.deadline_tick
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derived, internally tagged form the hand-written `Serialize` must match.
    #[derive(Serialize)]
    #[serde(
        tag = "type",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )]
    enum Derived {
        PiecePlaced {
            seat: Seat,
            column: u16,
            row: u16,
        },
        MatchEnded {
            result: MatchResult,
            winner: Option<Seat>,
        },
        Turn {
            event: TurnEvent<u16, ()>,
        },
    }

    #[test]
    fn events_serialize_like_the_derived_form_with_sorted_keys() {
        let won = MatchResult::Won {
            seat: Seat(1),
            line: vec![Cell::new(0, 0), Cell::new(1, 1)],
        };
        let pairs: Vec<(MnkEvent<u16>, Derived)> = vec![
            (
                MnkEvent::PiecePlaced {
                    seat: Seat(0),
                    column: 3,
                    row: 5,
                },
                Derived::PiecePlaced {
                    seat: Seat(0),
                    column: 3,
                    row: 5,
                },
            ),
            (
                MnkEvent::match_ended(won.clone()),
                Derived::MatchEnded {
                    result: won,
                    winner: Some(Seat(1)),
                },
            ),
            (
                MnkEvent::Turn {
                    event: TurnEvent::RoundStarted { round: 2 },
                },
                Derived::Turn {
                    event: TurnEvent::RoundStarted { round: 2 },
                },
            ),
        ];
        for (event, derived) in pairs {
            let ours = serde_json::to_value(&event).unwrap();
            assert_eq!(ours, serde_json::to_value(&derived).unwrap());
            let back: MnkEvent<u16> = serde_json::from_value(ours).unwrap();
            assert_eq!(back, event);
            let canonical =
                turnstile_core::determinism::canonical::to_canonical_string(&event).unwrap();
            assert_eq!(serde_json::to_string(&event).unwrap(), canonical);
        }
    }
}
