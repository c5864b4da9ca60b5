//! Tic-Tac-Toe as an m,n,k-game: the 3,3,3-game. A seat marks any open cell; three in a row —
//! across, down or diagonal — wins; a full board without a line is a draw.

use turnstile_core::{BundleSource, ParamRange, ParamSpec};
use turnstile_mnk::{Action, Board, Cell, Mnk, RuleError, Variant};

/// An action of Tic-Tac-Toe: the kit's one action type, a mark being
/// `{"type": "mark", "cell": [1, 2]}` (`cell` is `[column, row]` from the top-left).
pub type TicTacToeAction = Action<Mnk<TicTacToeRules>>;

/// The rules that make an m,n,k-game Tic-Tac-Toe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicTacToeRules;

impl Variant for TicTacToeRules {
    const ID: &'static str = "tictactoe";
    const WIDTH: u16 = 3;
    const HEIGHT: u16 = 3;
    const LINE: u16 = 3;
    const PLAY_KIND: &'static str = "mark";
    const PLAY_FIELD: &'static str = "cell";

    fn bundled_source() -> BundleSource {
        crate::bundled_source()
    }

    type Move = Cell;

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

    fn moves(board: &Board) -> impl Iterator<Item = Cell> {
        board.open_cells()
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
