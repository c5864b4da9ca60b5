//! Tic-Tac-Toe as the strong bot searches it: two 9-bit masks, cells numbered `row × 3 + column`.
//! The whole game tree is small enough to search to the end, so the strong bot plays perfectly.

use turnstile_core::Seat;

use turnstile_mnk::search::{Limits, Moves, Position};
use turnstile_mnk::{Board, Cell, Searchable};

use crate::game::TicTacToeRules;

/// The eight lines of three, as masks.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Centre first, then corners, then edges: the order that finds good moves soonest.
const ORDER: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// A Tic-Tac-Toe position: the pieces of the side to move and of the other side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicTacToePosition {
    mover: u16,
    other: u16,
}

impl TicTacToePosition {
    /// The position on `board` with `to_move` to play.
    pub fn new(board: &Board, to_move: Seat) -> TicTacToePosition {
        let mut position = TicTacToePosition { mover: 0, other: 0 };
        for (cell, holder) in board.cells() {
            let Some(bit) = code(cell).map(|c| 1u16 << c) else {
                continue;
            };
            match holder {
                Some(seat) if seat == to_move => position.mover |= bit,
                Some(_) => position.other |= bit,
                None => {}
            }
        }
        position
    }
}

/// A cell's number, `row × 3 + column`.
fn code(cell: Cell) -> Option<u8> {
    (cell.column < 3 && cell.row < 3).then(|| (cell.row * 3 + cell.column) as u8)
}

impl Position for TicTacToePosition {
    fn moves(&self) -> Moves {
        let taken = self.mover | self.other;
        let mut moves = Moves::new();
        for code in ORDER {
            if taken & (1 << code) == 0 {
                moves.push(code);
            }
        }
        moves
    }

    fn play(&self, code: u8) -> TicTacToePosition {
        TicTacToePosition {
            mover: self.other,
            other: self.mover | 1 << code,
        }
    }

    fn wins(&self, code: u8) -> bool {
        let mine = self.mover | 1 << code;
        LINES.iter().any(|line| mine & line == *line)
    }

    fn key(&self) -> u64 {
        u64::from(self.mover) | u64::from(self.other) << 9
    }

    /// Never reached: the search always goes to the end of the game.
    fn evaluate(&self) -> i32 {
        0
    }
}

impl Searchable for TicTacToeRules {
    type Position = TicTacToePosition;
    /// The whole game (9 plies): perfect play in a few thousand positions.
    const LIMITS: Limits = Limits {
        depth: 9,
        nodes: 1 << 20,
        table_bits: 12,
    };

    fn position(board: &Board, to_move: Seat) -> TicTacToePosition {
        TicTacToePosition::new(board, to_move)
    }

    fn move_code(cell: &Cell) -> Option<u8> {
        code(*cell)
    }
}
