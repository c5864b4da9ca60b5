//! Connect Four as the strong bot searches it: a bitboard of two `u64`s, so that playing a move,
//! spotting a win and counting threats are a handful of shifts and masks.
//!
//! Column `c` owns bits `7c .. 7c + 5`, bottom row first; bit `7c + 6` is a spare that keeps
//! columns apart, so a carry never runs from one column into the next. `mask` holds every disc,
//! `mover` the discs of the side to move; `mover + mask` is unique to a position (the search's
//! key). After J. Tromp's and P. Pons's Connect Four solvers.

use turnstile_core::Seat;
use turnstile_mnk::search::{Limits, Moves, Position};
use turnstile_mnk::{Board, Searchable};

use crate::game::ConnectFourRules;

const WIDTH: u32 = 7;
const HEIGHT: u32 = 6;
/// Bits per column: the rows and the spare.
const STRIDE: u32 = HEIGHT + 1;

/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut bits = 0;
    let mut column = 0;
    while column < WIDTH {
        bits |= 1 << (column * STRIDE);
        column += 1;
    }
    bits
};
/// Every cell of the board (no spares).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// The centre column, worth holding: most lines run through it.
const CENTRE: u64 = ((1 << HEIGHT) - 1) << (3 * STRIDE);

/// Centre first, then outwards: the order alpha-beta prunes best with.
const ORDER: [u8; 7] = [3, 2, 4, 1, 5, 0, 6];

fn bottom(column: u8) -> u64 {
    1 << (u32::from(column) * STRIDE)
}

fn top(column: u8) -> u64 {
    1 << (HEIGHT - 1 + u32::from(column) * STRIDE)
}

fn column_cells(column: u8) -> u64 {
    ((1 << HEIGHT) - 1) << (u32::from(column) * STRIDE)
}

/// Whether `discs` hold four in a row in any direction.
fn has_line(discs: u64) -> bool {
    // Shift 1: up a column; 7: across; 6 and 8: the diagonals.
    [1, STRIDE, STRIDE - 1, STRIDE + 1].iter().any(|&step| {
        let pairs = discs & (discs >> step);
        pairs & (pairs >> (2 * step)) != 0
    })
}

/// The open cells that would complete four in a row for `discs`.
fn threats(discs: u64, mask: u64) -> u64 {
    // Up a column: three below.
    let mut cells = (discs << 1) & (discs << 2) & (discs << 3);
    for step in [STRIDE, STRIDE - 1, STRIDE + 1] {
        let two_before = (discs << step) & (discs << (2 * step));
        cells |= two_before & (discs << (3 * step));
        cells |= two_before & (discs >> step);
        let two_after = (discs >> step) & (discs >> (2 * step));
        cells |= two_after & (discs << step);
        cells |= two_after & (discs >> (3 * step));
    }
    cells & (BOARD ^ mask)
}

/// A Connect Four position, from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectFourPosition {
    mover: u64,
    mask: u64,
}

impl ConnectFourPosition {
    /// The position on a 7 × 6 `board` with `to_move` to play.
    pub fn new(board: &Board, to_move: Seat) -> ConnectFourPosition {
        let mut position = ConnectFourPosition { mover: 0, mask: 0 };
        for (cell, holder) in board.cells() {
            let (column, row) = (u32::from(cell.column), u32::from(cell.row));
            let Some(seat) = holder.filter(|_| column < WIDTH && row < HEIGHT) else {
                continue;
            };
            let bit = 1u64 << (column * STRIDE + (HEIGHT - 1 - row));
            position.mask |= bit;
            if seat == to_move {
                position.mover |= bit;
            }
        }
        position
    }

    fn can_play(&self, column: u8) -> bool {
        self.mask & top(column) == 0
    }
}

impl Position for ConnectFourPosition {
    fn moves(&self) -> Moves {
        let mut moves = Moves::new();
        for column in ORDER {
            if self.can_play(column) {
                moves.push(column);
            }
        }
        moves
    }

    fn play(&self, column: u8) -> ConnectFourPosition {
        // The other side moves next; its discs are the ones that are not the mover's.
        ConnectFourPosition {
            mover: self.mover ^ self.mask,
            mask: self.mask | (self.mask + bottom(column)),
        }
    }

    fn wins(&self, column: u8) -> bool {
        let landing = (self.mask + bottom(column)) & column_cells(column);
        has_line(self.mover | landing)
    }

    fn key(&self) -> u64 {
        self.mover + self.mask
    }

    /// Four points per open cell that would complete a line (own minus the other side's), one
    /// per disc in the centre column (own minus the other side's).
    fn evaluate(&self) -> i32 {
        let other = self.mover ^ self.mask;
        let count = |bits: u64| bits.count_ones() as i32;
        4 * (count(threats(self.mover, self.mask)) - count(threats(other, self.mask)))
            + count(self.mover & CENTRE)
            - count(other & CENTRE)
    }
}

impl Searchable for ConnectFourRules {
    type Position = ConnectFourPosition;
    /// Nine plies, at most a million positions a move: a few milliseconds a move in a release
    /// build, and no loss to the random bot in the 1000-match test.
    const LIMITS: Limits = Limits {
        depth: 9,
        nodes: 1_000_000,
        table_bits: 16,
    };

    fn position(board: &Board, to_move: Seat) -> ConnectFourPosition {
        ConnectFourPosition::new(board, to_move)
    }

    fn move_code(column: &u16) -> Option<u8> {
        u8::try_from(*column).ok().filter(|c| u32::from(*c) < WIDTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from rows written top first: `0`/`1` discs, `.` open.
    fn board(rows: [&str; 6]) -> Board {
        Board::from_rows(&rows).unwrap()
    }

    #[test]
    fn sees_wins_in_every_direction() {
        let rows = [
            ".......", ".......", ".......", ".......", ".......", "000....",
        ];
        assert!(ConnectFourPosition::new(&board(rows), Seat(0)).wins(3));
        assert!(!ConnectFourPosition::new(&board(rows), Seat(1)).wins(3));
        let rows = [
            ".......", ".......", ".......", "1......", "1......", "1......",
        ];
        assert!(ConnectFourPosition::new(&board(rows), Seat(1)).wins(0));
        let rows = [
            ".......", ".......", ".......", "..01...", ".011...", "0111...",
        ];
        let position = ConnectFourPosition::new(&board(rows), Seat(0));
        assert!(position.wins(3), "diagonal up-right");
        let rows = [
            ".......", ".......", ".......", "...10..", "...110.", "...1110",
        ];
        assert!(
            ConnectFourPosition::new(&board(rows), Seat(0)).wins(3),
            "diagonal down-right"
        );
    }

    #[test]
    fn counts_threats_and_plays_into_the_right_cell() {
        let rows = [
            ".......", ".......", ".......", ".......", ".......", ".000...",
        ];
        let position = ConnectFourPosition::new(&board(rows), Seat(0));
        assert_eq!(threats(position.mover, position.mask).count_ones(), 2);
        let next = position.play(0);
        assert_eq!(next.mover, 0, "the other side has no discs");
        assert_eq!(next.mask.count_ones(), 4);
        assert!(next.moves().as_slice().starts_with(&[3, 2, 4]));
    }
}
