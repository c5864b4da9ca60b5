//! Connect Four as an m,n,k-game: the 7,6,4-game with gravity. A seat drops a disc into a
//! column; it lands on the lowest open cell; four in a row — across, down or either diagonal —
//! wins; a full board without a line is a draw.

use serde::{Deserialize, Serialize};
use turnstile_core::{ParamRange, ParamSpec, Tick};
use turnstile_tictactoe::mnk::{Board, Cell, Command, RuleError, Variant};

/// An action of Connect Four, as JSON: `{"type": "drop", "column": 3}`, `{"type": "skip"}`,
/// `{"type": "resign"}`, and the system's `{"type": "timeout", "turnIndex": 7}` and
/// `{"type": "clockResumed", "lastHeartbeatTick": 40, "takeoverTick": 95}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum ConnectFourAction {
    /// Drop the seat's disc into `column`, from 0 at the left.
    Drop {
        /// The column.
        column: u16,
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

/// The rules that make an m,n,k-game Connect Four.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectFourRules;

impl Variant for ConnectFourRules {
    const ID: &'static str = "connect4";
    const WIDTH: u16 = 7;
    const HEIGHT: u16 = 6;
    const LINE: u16 = 4;
    const PLAY_KIND: &'static str = "drop";

    /// A column.
    type Move = u16;
    type Action = ConnectFourAction;

    fn command(action: &ConnectFourAction) -> Command<u16> {
        match action {
            ConnectFourAction::Drop { column } => Command::Play(*column),
            ConnectFourAction::Skip => Command::Skip,
            ConnectFourAction::Resign => Command::Resign,
            ConnectFourAction::Timeout { turn_index } => Command::Timeout {
                turn_index: *turn_index,
            },
            ConnectFourAction::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => Command::ClockResumed {
                last_heartbeat_tick: *last_heartbeat_tick,
                takeover_tick: *takeover_tick,
            },
        }
    }

    fn action(command: Command<u16>) -> ConnectFourAction {
        match command {
            Command::Play(column) => ConnectFourAction::Drop { column },
            Command::Skip => ConnectFourAction::Skip,
            Command::Resign => ConnectFourAction::Resign,
            Command::Timeout { turn_index } => ConnectFourAction::Timeout { turn_index },
            Command::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => ConnectFourAction::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            },
        }
    }

    /// Where the disc comes to rest: the lowest open cell of the column.
    fn target(board: &Board, column: &u16) -> Result<Cell, RuleError> {
        if *column >= board.width() {
            return Err(RuleError::ColumnOutOfRange {
                column: *column,
                last: board.width().saturating_sub(1),
            });
        }
        board
            .landing_cell(*column)
            .ok_or(RuleError::ColumnFull { column: *column })
    }

    fn moves(board: &Board) -> Vec<u16> {
        open_columns(board)
    }

    /// `column`: an `Integer` range when the open columns are contiguous (always at the start),
    /// otherwise `OneOf` the open columns written in decimal.
    fn play_params(board: &Board) -> Vec<ParamSpec> {
        let open = open_columns(board);
        let range = match (open.first(), open.last()) {
            (Some(&min), Some(&max)) if usize::from(max - min) + 1 == open.len() => {
                ParamRange::Integer {
                    min: i64::from(min),
                    max: i64::from(max),
                }
            }
            _ => ParamRange::OneOf {
                values: open.iter().map(u16::to_string).collect(),
            },
        };
        vec![ParamSpec {
            name: "column".into(),
            range,
        }]
    }
}

/// The columns that are not full, from the left.
fn open_columns(board: &Board) -> Vec<u16> {
    let mut open = Vec::with_capacity(usize::from(board.width()));
    open.extend(board.open_columns());
    open
}
