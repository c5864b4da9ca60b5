//! Why an m,n,k-game refuses a move: where it would go is off the board or taken. The kit's
//! refusals (`match_over`, the turn framework's) are `turnstile_kit::KitError`'s.

use crate::board::Cell;
use turnstile_core::Seat;
use turnstile_kit::RuleCode;

/// A rule rejection. [`RuleError::code`] is stable; clients switch on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
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
}

impl RuleCode for RuleError {
    /// The stable snake_case code.
    fn code(&self) -> &'static str {
        match self {
            RuleError::ColumnOutOfRange { .. } | RuleError::CellOutOfRange { .. } => "out_of_range",
            RuleError::ColumnFull { .. } => "column_full",
            RuleError::CellOccupied { .. } => "cell_occupied",
        }
    }
}
