//! Why an m,n,k-game refuses a command: its own rules, and the turn framework's refusals passed
//! through with their codes.

use crate::mnk::board::Cell;
use turnstile_core::{Rejection, Seat};
use turnstile_turns::TurnError;

/// A rule rejection. [`RuleError::code`] is stable; clients switch on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The match has a result; nothing more is accepted.
    #[error("the match is over")]
    MatchOver,
    /// A player action arrived without a seat (the resolver refuses this before the rules see
    /// it; kept so the rules never assume it).
    #[error("this action needs a seat")]
    SeatRequired,
    /// A drop into a column that is not on the board.
    #[error("column {column} is not on the board, whose columns are 0 to {last}")]
    ColumnOutOfRange {
        /// The column asked for.
        column: u16,
        /// The last column.
        last: u16,
    },
    /// A drop into a column that has no open cell.
    #[error("column {column} is full")]
    ColumnFull {
        /// The column asked for.
        column: u16,
    },
    /// A mark on a cell that is not on the board.
    #[error("cell [{}, {}] is not on the {width}×{height} board", cell.column, cell.row)]
    CellOutOfRange {
        /// The cell asked for.
        cell: Cell,
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// A mark on a cell that already holds a piece.
    #[error("cell [{}, {}] already holds seat {seat}'s piece", cell.column, cell.row)]
    CellOccupied {
        /// The cell asked for.
        cell: Cell,
        /// Who holds it.
        seat: Seat,
    },
    /// The turn framework refused the command (`not_your_turn`, `not_skippable`,
    /// `stale_timeout`, …).
    #[error("{0}")]
    Turn(#[from] TurnError),
}

impl RuleError {
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::MatchOver => "match_over",
            RuleError::SeatRequired => "seat_required",
            RuleError::ColumnOutOfRange { .. } | RuleError::CellOutOfRange { .. } => "out_of_range",
            RuleError::ColumnFull { .. } => "column_full",
            RuleError::CellOccupied { .. } => "cell_occupied",
            RuleError::Turn(e) => e.code(),
        }
    }
}

impl From<RuleError> for Rejection {
    fn from(e: RuleError) -> Rejection {
        Rejection::new(e.code(), e.to_string())
    }
}
