//! The grid of an m,n,k-game: which seat holds each cell, where a dropped piece lands, and
//! whether a piece just placed completes a line.
//!
//! Coordinates are screen coordinates, the same for every game and client: `column` from the
//! left and `row` from the **top**, both from 0, written `[column, row]` in JSON (the shape of
//! [`ParamRange::Cells`](turnstile_core::ParamRange::Cells)). Under gravity a piece falls towards
//! the largest row.

use serde::{Deserialize, Serialize};
use turnstile_core::Seat;

/// One cell of the grid. In JSON, `[column, row]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "[u16; 2]", into = "[u16; 2]")]
pub struct Cell {
    /// From the left, from 0.
    pub column: u16,
    /// From the top, from 0.
    pub row: u16,
}

impl Cell {
    /// The cell at `column`, `row`.
    pub const fn new(column: u16, row: u16) -> Cell {
        Cell { column, row }
    }

    /// `[column, row]`, as [`ParamRange::Cells`](turnstile_core::ParamRange::Cells) lists cells.
    pub const fn pair(self) -> [u16; 2] {
        [self.column, self.row]
    }
}

impl From<[u16; 2]> for Cell {
    fn from([column, row]: [u16; 2]) -> Cell {
        Cell { column, row }
    }
}

impl From<Cell> for [u16; 2] {
    fn from(cell: Cell) -> [u16; 2] {
        cell.pair()
    }
}

/// The four directions a line can run in: across, down, and the two diagonals.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A `width × height` grid of cells, each empty or held by a seat. In JSON,
/// `{"width": 7, "height": 6, "cells": [null, 0, 1, …]}`, row by row from the top-left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    width: u16,
    height: u16,
    cells: Vec<Option<Seat>>,
}

impl Board {
    /// An empty grid.
    pub fn new(width: u16, height: u16) -> Board {
        Board {
            width,
            height,
            cells: vec![None; usize::from(width) * usize::from(height)],
        }
    }

    /// A board from its [rows](Board::rows), top first: `.` for open, a seat's digit for its
    /// piece. `None` for ragged rows, other characters, or more than `u16::MAX` cells a side.
    /// For tests, tools and examples; the rules never need it.
    pub fn from_rows(rows: &[&str]) -> Option<Board> {
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut board = Board::new(u16::try_from(width).ok()?, u16::try_from(rows.len()).ok()?);
        for (cell, c) in board
            .cells_in_order()
            .zip(rows.iter().flat_map(|r| r.chars()))
        {
            match c {
                '.' => {}
                digit => {
                    let seat = u16::try_from(digit.to_digit(10)?).ok()?;
                    board.place(cell, Seat(seat));
                }
            }
        }
        rows.iter()
            .all(|r| r.chars().count() == width)
            .then_some(board)
    }

    /// Columns.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Whether a board read back from storage has this size, the right number of cells and only
    /// pieces of seats below `seats`.
    pub fn is_well_formed(&self, width: u16, height: u16, seats: u16) -> bool {
        self.width == width
            && self.height == height
            && self.cells.len() == usize::from(width) * usize::from(height)
            && self.cells.iter().flatten().all(|seat| seat.0 < seats)
    }

    /// Whether `cell` is on the grid.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.column < self.width && cell.row < self.height
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell)
            .then(|| usize::from(cell.row) * usize::from(self.width) + usize::from(cell.column))
    }

    /// Who holds `cell`; `None` when it is empty or off the grid.
    pub fn get(&self, cell: Cell) -> Option<Seat> {
        self.index(cell).and_then(|i| self.cells[i])
    }

    /// Whether `cell` is on the grid and empty.
    pub fn is_open(&self, cell: Cell) -> bool {
        self.index(cell).is_some_and(|i| self.cells[i].is_none())
    }

    /// Puts `seat`'s piece on `cell`. The caller has checked that the cell is open.
    pub fn place(&mut self, cell: Cell, seat: Seat) {
        debug_assert!(self.is_open(cell), "placing on {cell:?}, which is not open");
        if let Some(i) = self.index(cell) {
            self.cells[i] = Some(seat);
        }
    }

    /// Whether every cell is held.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// The open cells, row by row from the top-left.
    pub fn open_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells_in_order()
            .filter(move |cell| self.get(*cell).is_none())
    }

    /// Every cell, row by row from the top-left, with who holds it.
    pub fn cells(&self) -> impl Iterator<Item = (Cell, Option<Seat>)> + '_ {
        self.cells_in_order().zip(self.cells.iter().copied())
    }

    fn cells_in_order(&self) -> impl Iterator<Item = Cell> {
        let width = self.width;
        (0..self.height).flat_map(move |row| (0..width).map(move |column| Cell { column, row }))
    }

    /// Where a piece dropped into `column` lands: the lowest open cell of the column, `None` when
    /// the column is full or off the grid.
    pub fn landing_cell(&self, column: u16) -> Option<Cell> {
        (0..self.height)
            .rev()
            .map(|row| Cell { column, row })
            .find(|cell| self.is_open(*cell))
    }

    /// The line of at least `length` pieces of the same seat running through `cell`, if there is
    /// one: the whole run, from one end to the other, in the first direction (across, down,
    /// diagonal down-right, diagonal up-right) that has one.
    pub fn line_through(&self, cell: Cell, length: u16) -> Option<Vec<Cell>> {
        let seat = self.get(cell)?;
        DIRECTIONS.iter().find_map(|&(dx, dy)| {
            let same = |c: Option<Cell>| c.filter(|c| self.get(*c) == Some(seat));
            let mut start = cell;
            while let Some(previous) = same(self.offset(start, -dx, -dy)) {
                start = previous;
            }
            let run: Vec<Cell> =
                std::iter::successors(Some(start), |c| same(self.offset(*c, dx, dy))).collect();
            (run.len() >= usize::from(length)).then_some(run)
        })
    }

    fn offset(&self, cell: Cell, dx: i32, dy: i32) -> Option<Cell> {
        let column = u16::try_from(i32::from(cell.column) + dx).ok()?;
        let row = u16::try_from(i32::from(cell.row) + dy).ok()?;
        let moved = Cell { column, row };
        self.contains(moved).then_some(moved)
    }

    /// The rows from the top, one character a cell: `.` for open, the seat number for a piece.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(usize::from(self.width.max(1)))
            .map(|row| {
                row.iter()
                    .map(|cell| match cell {
                        None => '.',
                        Some(seat) => char::from_digit(u32::from(seat.0), 36).unwrap_or('?'),
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn lines_are_found_in_every_direction_and_reported_whole() {
        let b = board(&["0000.", ".....", "....."]);
        assert_eq!(b.line_through(Cell::new(1, 0), 3).unwrap().len(), 4);
        assert_eq!(b.line_through(Cell::new(1, 0), 5), None);
        let b = board(&["1..", "1..", "1.."]);
        assert_eq!(
            b.line_through(Cell::new(0, 2), 3).unwrap(),
            vec![Cell::new(0, 0), Cell::new(0, 1), Cell::new(0, 2)]
        );
        let b = board(&["0..", ".0.", "..0"]);
        assert!(b.line_through(Cell::new(1, 1), 3).is_some());
        let b = board(&["..0", ".0.", "0.."]);
        assert_eq!(
            b.line_through(Cell::new(2, 0), 3).unwrap(),
            vec![Cell::new(0, 2), Cell::new(1, 1), Cell::new(2, 0)]
        );
        let b = board(&["0.1", "...", "1.0"]);
        assert_eq!(b.line_through(Cell::new(0, 0), 2), None);
        assert_eq!(
            b.line_through(Cell::new(2, 1), 2),
            None,
            "an open cell has no line"
        );
    }

    #[test]
    fn pieces_land_on_the_lowest_open_cell() {
        let b = board(&["...", "1..", "0.1"]);
        assert_eq!(b.landing_cell(0), Some(Cell::new(0, 0)));
        assert_eq!(b.landing_cell(1), Some(Cell::new(1, 2)));
        assert_eq!(b.landing_cell(2), Some(Cell::new(2, 1)));
        assert_eq!(b.landing_cell(3), None);
        let full = board(&["0", "1"]);
        assert_eq!(full.landing_cell(0), None);
        assert!(full.is_full());
    }

    #[test]
    fn rows_and_json_are_from_the_top_left() {
        let b = board(&["0.", ".1"]);
        assert_eq!(b.rows(), vec!["0.", ".1"]);
        assert_eq!(
            serde_json::to_string(&b).unwrap(),
            r#"{"width":2,"height":2,"cells":[0,null,null,1]}"#
        );
        assert_eq!(serde_json::to_string(&Cell::new(3, 5)).unwrap(), "[3,5]");
        assert!(b.is_well_formed(2, 2, 2));
        assert!(!b.is_well_formed(2, 2, 1));
        assert!(!b.is_well_formed(3, 2, 2));
        assert_eq!(
            Board::from_rows(&b.rows().iter().map(String::as_str).collect::<Vec<_>>()),
            Some(b)
        );
        assert_eq!(Board::from_rows(&["0.", "."]), None, "ragged");
        assert_eq!(Board::from_rows(&["0x"]), None);
    }
}
