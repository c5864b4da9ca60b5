//! Tic-Tac-Toe as an m,n,k-game: the 3,3,3-game. A seat marks any open cell; three in a row —
//! across, down or diagonal — wins; a full board without a line is a draw.

use serde::{Deserialize, Serialize};
use turnstile_core::{ParamRange, ParamSpec, Tick};

use crate::mnk::{Board, Cell, Command, RuleError, Variant};

/// An action of Tic-Tac-Toe, as JSON: `{"type": "mark", "cell": [1, 2]}`, `{"type": "skip"}`,
/// `{"type": "resign"}`, and the system's `{"type": "timeout", "turnIndex": 7}` and
/// `{"type": "clockResumed", "lastHeartbeatTick": 40, "takeoverTick": 95}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum TicTacToeAction {
    /// Put the seat's mark on `cell`, `[column, row]` from the top-left.
    Mark {
        /// The cell.
        cell: Cell,
    },
    /// Give up the rest of the turn (skippable turn configs only).
    Skip,
    /// Give up the match.
    Resign,
    /// The system's timeout of turn `turn_index` (command id `timeout:<turn index>`).
    Timeout {
        /// The match-wide index of the turn that timed out.
        turn_index: u64,
    },
    /// The system's resumption of the clock after an outage (command id
    /// `clock-resumed:<sequence>`): running deadlines move later by the outage.
    ClockResumed {
        /// The previous node's last heartbeat tick.
        last_heartbeat_tick: Tick,
        /// The tick at which another node took the match over.
        takeover_tick: Tick,
    },
}

/// The rules that make an m,n,k-game Tic-Tac-Toe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicTacToeRules;

impl Variant for TicTacToeRules {
    const ID: &'static str = "tictactoe";
    const WIDTH: u16 = 3;
    const HEIGHT: u16 = 3;
    const LINE: u16 = 3;
    const PLAY_KIND: &'static str = "mark";

    type Move = Cell;
    type Action = TicTacToeAction;

    fn command(action: &TicTacToeAction) -> Command<Cell> {
        match action {
            TicTacToeAction::Mark { cell } => Command::Play(*cell),
            TicTacToeAction::Skip => Command::Skip,
            TicTacToeAction::Resign => Command::Resign,
            TicTacToeAction::Timeout { turn_index } => Command::Timeout {
                turn_index: *turn_index,
            },
            TicTacToeAction::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => Command::ClockResumed {
                last_heartbeat_tick: *last_heartbeat_tick,
                takeover_tick: *takeover_tick,
            },
        }
    }

    fn action(command: Command<Cell>) -> TicTacToeAction {
        match command {
            Command::Play(cell) => TicTacToeAction::Mark { cell },
            Command::Skip => TicTacToeAction::Skip,
            Command::Resign => TicTacToeAction::Resign,
            Command::Timeout { turn_index } => TicTacToeAction::Timeout { turn_index },
            Command::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => TicTacToeAction::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            },
        }
    }

    /// The cell itself, when it is on the board and open.
    fn target(board: &Board, cell: &Cell) -> Result<Cell, RuleError> {
        if !board.contains(*cell) {
            return Err(RuleError::CellOutOfRange {
                cell: *cell,
                width: board.width(),
                height: board.height(),
            });
        }
        match board.get(*cell) {
            Some(seat) => Err(RuleError::CellOccupied { cell: *cell, seat }),
            None => Ok(*cell),
        }
    }

    fn moves(board: &Board) -> Vec<Cell> {
        board.open_cells().collect()
    }

    /// `cell`, one of the open cells.
    fn play_params(board: &Board) -> Vec<ParamSpec> {
        vec![ParamSpec {
            name: "cell".into(),
            range: ParamRange::Cells {
                cells: board.open_cells().map(Cell::pair).collect(),
            },
        }]
    }
}
