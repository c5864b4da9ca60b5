//! The grid of an m,n,k-game: which seat holds each cell, where a dropped piece lands, and
//! whether a piece just placed completes a line.
//!
//! Coordinates are screen coordinates, the same for every game and client: `column` from the
//! left and `row` from the **top**, both from 0, written `[column, row]` in JSON (the shape of
//! [`ParamRange::Cells`](turnstile_core::ParamRange::Cells)). Under gravity a piece falls towards
//! the largest row.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
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

/// Where a line of one length can start on a board of one size, per direction, as bit masks:
/// what [`Board::holds_line`] tests a seat's bitboard against. Built once per variant, at
/// compile time ([`LineStarts::new`] is a `const fn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineStarts {
    /// Per direction (across, down, diagonal down-right, diagonal down-left): the bit-index
    /// step from one cell of a line to the next, and the cells a line of `length` can start on
    /// going that way without leaving the grid.
    directions: [(u32, u64); 4],
    length: u16,
}

impl LineStarts {
    /// The starts of lines of `length` on a `width` × `height` grid. A grid of more than
    /// [`MAX_CELLS`] cells, or a length of 0, has none: no line is ever found there by
    /// [`Board::holds_line`] (the walk of [`Board::line_through`] decides alone).
    pub const fn new(width: u16, height: u16, length: u16) -> Self {
        // (dx, dy) with dy >= 0, so each step is a forward shift of the bit index.
        const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
        let mut directions = [(0u32, 0u64); 4];
        let (w, h, k) = (width as i32, height as i32, length as i32);
        if w * h <= MAX_CELLS as i32 && k > 0 {
            let mut d = 0;
            while d < 4 {
                let (dx, dy) = STEPS[d];
                let mut first_cells = 0u64;
                let mut row = 0;
                while row < h {
                    let mut column = 0;
                    while column < w {
                        let (last_column, last_row) = (column + (k - 1) * dx, row + (k - 1) * dy);
                        if last_column >= 0 && last_column < w && last_row < h {
                            first_cells |= 1 << (row * w + column);
                        }
                        column += 1;
                    }
                    row += 1;
                }
                directions[d] = ((dy * w + dx) as u32, first_cells);
                d += 1;
            }
        }
        Self { directions, length }
    }
}

/// The most cells a board may have: one bit each in a `u64`.
pub const MAX_CELLS: u32 = 64;

/// The seats a board holds pieces of: 0 and 1.
const BOARD_SEATS: u16 = 2;

/// A `width × height` grid of cells, each empty or held by seat 0 or 1, at most
/// [`MAX_CELLS`] cells. In JSON, `{"width": 7, "height": 6, "cells": [null, 0, 1, …]}`, row by
/// row from the top-left.
///
/// Inside, each seat's pieces are one bit per cell (bit `row × width + column`), so a board is
/// a small `Copy` value: judging a command on a copy of the state costs nothing for the board,
/// and an open cell, a landing cell or a full board is a mask away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    width: u16,
    height: u16,
    /// Bit `row × width + column` of `discs[s]` is set when seat `s` holds that cell.
    discs: [u64; BOARD_SEATS as usize],
    /// A board read back from storage that no grid of [`MAX_CELLS`] cells and seats 0 and 1
    /// can be: the wrong number of cells, too many cells, or a piece of another seat. Only its
    /// size is kept, so that [`Board::is_well_formed`] refuses it.
    malformed: bool,
}

impl Board {
    /// An empty grid. At most [`MAX_CELLS`] cells: a game's board size is a constant, and a
    /// bigger one is a defect of the game.
    pub fn new(width: u16, height: u16) -> Board {
        assert!(
            u32::from(width) * u32::from(height) <= MAX_CELLS,
            "a board has at most {MAX_CELLS} cells, not {width} × {height}"
        );
        Board {
            width,
            height,
            discs: [0; BOARD_SEATS as usize],
            malformed: false,
        }
    }

    /// A board from its [rows](Board::rows), top first: `.` for open, `0` or `1` for a seat's
    /// piece. `None` for ragged rows, other characters, or more than [`MAX_CELLS`] cells.
    /// For tests, tools and examples; the rules never need it.
    pub fn from_rows(rows: &[&str]) -> Option<Board> {
        let width = u16::try_from(rows.first().map_or(0, |r| r.chars().count())).ok()?;
        let height = u16::try_from(rows.len()).ok()?;
        if u32::from(width) * u32::from(height) > MAX_CELLS
            || !rows.iter().all(|r| r.chars().count() == usize::from(width))
        {
            return None;
        }
        let mut board = Board::new(width, height);
        for (cell, c) in board
            .cells_in_order()
            .zip(rows.iter().flat_map(|r| r.chars()))
        {
            match c {
                '.' => {}
                '0' => board.place(cell, Seat(0)),
                '1' => board.place(cell, Seat(1)),
                _ => return None,
            }
        }
        Some(board)
    }

    /// Columns.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u16 {
        self.height
    }

    fn cell_count(&self) -> u32 {
        u32::from(self.width) * u32::from(self.height)
    }

    /// Every cell's bit.
    fn all(&self) -> u64 {
        match self.cell_count() {
            64.. => u64::MAX,
            n => (1 << n) - 1,
        }
    }

    /// Whether a board read back from storage has this size, the right number of cells and only
    /// pieces of seats below `seats`.
    pub fn is_well_formed(&self, width: u16, height: u16, seats: u16) -> bool {
        !self.malformed
            && self.width == width
            && self.height == height
            && (self.discs.iter().enumerate()).all(|(seat, d)| *d == 0 || seat < usize::from(seats))
    }

    /// Whether `cell` is on the grid.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.column < self.width && cell.row < self.height
    }

    /// The bit of `cell`, if it is on the grid.
    fn bit(&self, cell: Cell) -> Option<u64> {
        self.contains(cell)
            .then(|| 1 << (u32::from(cell.row) * u32::from(self.width) + u32::from(cell.column)))
    }

    /// Who holds `cell`; `None` when it is empty or off the grid.
    pub fn get(&self, cell: Cell) -> Option<Seat> {
        let bit = self.bit(cell)?;
        (0..BOARD_SEATS)
            .find(|&s| self.discs[usize::from(s)] & bit != 0)
            .map(Seat)
    }

    /// Whether `cell` is on the grid and empty.
    pub fn is_open(&self, cell: Cell) -> bool {
        self.bit(cell)
            .is_some_and(|bit| (self.discs[0] | self.discs[1]) & bit == 0)
    }

    /// Puts `seat`'s piece (seat 0 or 1) on `cell`. The caller has checked that the cell is
    /// open.
    pub fn place(&mut self, cell: Cell, seat: Seat) {
        debug_assert!(self.is_open(cell), "placing on {cell:?}, which is not open");
        debug_assert!(
            seat.0 < BOARD_SEATS,
            "a board holds seats 0 and 1, not {seat}"
        );
        if let (Some(bit), Some(discs)) = (self.bit(cell), self.discs.get_mut(usize::from(seat.0)))
        {
            *discs |= bit;
        }
    }

    /// Whether every cell is held.
    pub fn is_full(&self) -> bool {
        (self.discs[0] | self.discs[1]) & self.all() == self.all()
    }

    /// The open cells, row by row from the top-left.
    pub fn open_cells(&self) -> impl ExactSizeIterator<Item = Cell> + '_ {
        // The open cells' bits, lowest first: bit `row × width + column`, so row by row from
        // the top-left. Exact-sized, so collecting them allocates once.
        let open = self.all() & !(self.discs[0] | self.discs[1]);
        let width = u32::from(self.width.max(1));
        OpenCells { bits: open }.map(move |index| Cell {
            // Both fit: the index is below the board's cells, at most 64.
            column: (index % width) as u16,
            row: (index / width) as u16,
        })
    }

    /// Every cell, row by row from the top-left, with who holds it.
    pub fn cells(&self) -> impl Iterator<Item = (Cell, Option<Seat>)> + '_ {
        self.cells_in_order()
            .map(move |cell| (cell, self.get(cell)))
    }

    fn cells_in_order(&self) -> impl Iterator<Item = Cell> {
        let width = self.width;
        (0..self.height).flat_map(move |row| (0..width).map(move |column| Cell { column, row }))
    }

    /// The bits of the first column's cells, bottom row highest.
    fn first_column(&self) -> u64 {
        let width = u32::from(self.width);
        let mut bits = 0;
        for row in 0..u32::from(self.height) {
            bits |= 1 << (row * width);
        }
        bits
    }

    /// Where a piece dropped into `column` lands: the lowest open cell of the column, `None` when
    /// the column is full or off the grid.
    pub fn landing_cell(&self, column: u16) -> Option<Cell> {
        if column >= self.width {
            return None;
        }
        let occupied = (self.discs[0] | self.discs[1]) >> column;
        let open = !occupied & self.first_column();
        // The lowest open cell is the open bit of the largest row.
        let bit = open.checked_ilog2()?;
        let row = u16::try_from(bit / u32::from(self.width)).ok()?;
        Some(Cell { column, row })
    }

    /// The columns with an open cell (where a dropped piece would land), from the left.
    pub fn open_columns(&self) -> impl ExactSizeIterator<Item = u16> {
        // A column is full when every row holds a piece there: AND the rows together.
        let occupied = self.discs[0] | self.discs[1];
        let width = u32::from(self.width);
        let row = 1u64.checked_shl(width).map_or(u64::MAX, |bit| bit - 1);
        let full =
            (0..u32::from(self.height)).fold(row, |full, r| full & (occupied >> (r * width)));
        // Exact-sized, so collecting them allocates once. Both fit: a column is below 64.
        OpenCells { bits: row & !full }.map(|column| column as u16)
    }

    /// Whether `seat` holds a line of the [`LineStarts`]' length anywhere on the board: a few
    /// shifts and ANDs of its bitboard per direction, no walk. A line through a cell is a line,
    /// so a `false` here means [`line_through`](Self::line_through) finds none either; the
    /// move that places a piece asks this first, and walks only on `true` (the winning move,
    /// or a board that held a line before).
    // `#[inline]`: with the variant's `LineStarts` a constant, the loops unroll into a fixed
    // run of shifts and ANDs of known masks.
    #[inline]
    pub fn holds_line(&self, seat: Seat, starts: &LineStarts) -> bool {
        let Some(&mine) = self.discs.get(usize::from(seat.0)) else {
            return false;
        };
        starts.directions.iter().any(|&(step, first_cells)| {
            let mut run = mine & first_cells;
            let mut shift = 0;
            for _ in 1..starts.length {
                shift += step;
                run &= mine.checked_shr(shift).unwrap_or(0);
            }
            run != 0
        })
    }

    /// The line of at least `length` pieces of the same seat running through `cell`, if there is
    /// one: the whole run, from one end to the other, in the first direction (across, down,
    /// diagonal down-right, diagonal up-right) that has one.
    pub fn line_through(&self, cell: Cell, length: u16) -> Option<Vec<Cell>> {
        let seat = self.get(cell)?;
        let mine = self.discs[usize::from(seat.0)];
        // Fewer pieces than a line holds: no line (most of a game's first moves).
        if mine.count_ones() < u32::from(length) {
            return None;
        }
        let (width, height) = (u32::from(self.width), u32::from(self.height));
        let (column, row) = (u32::from(cell.column), u32::from(cell.row));
        let index = row * width + column;
        // How many of the seat's pieces follow `cell` in a row towards (dx, dy): at most as many
        // steps as the grid allows that way, each one bit index further.
        let reach = |dx: i32, dy: i32| {
            let room = |d: i32, at: u32, size: u32| match d {
                1 => size - 1 - at,
                -1 => at,
                _ => u32::MAX,
            };
            let limit = room(dx, column, width).min(room(dy, row, height));
            // Two's complement: adding it moves the index back as well as forward.
            let step = (dy * i32::from(self.width) + dx) as u32;
            let (mut at, mut steps) = (index, 0);
            while steps < limit {
                at = at.wrapping_add(step);
                if mine & (1 << at) == 0 {
                    break;
                }
                steps += 1;
            }
            steps
        };
        DIRECTIONS.iter().find_map(|&(dx, dy)| {
            let back = reach(-dx, -dy);
            let run = back + 1 + reach(dx, dy);
            // Only a win builds the list: from the far end behind `cell` to the far end ahead.
            (run >= u32::from(length)).then(|| {
                let at = |i: u32, d: i32, from: u16| {
                    let offset = i32::try_from(i).ok()? - i32::try_from(back).ok()?;
                    u16::try_from(i32::from(from) + offset * d).ok()
                };
                (0..run)
                    .filter_map(|i| {
                        Some(Cell {
                            column: at(i, dx, cell.column)?,
                            row: at(i, dy, cell.row)?,
                        })
                    })
                    .collect()
            })
        })
    }

    /// The characters of `rows`, one a cell — `.` for open, `0` or `1` for a seat's piece (a
    /// board holds no other), as [`Board::rows`] writes them — in `buf`; a board of more
    /// cells than `buf` holds (only a malformed one read back from storage, which `attach`
    /// refuses) is cut short there.
    pub(crate) fn text<'b>(
        &self,
        buf: &'b mut [u8; MAX_CELLS as usize],
        rows: std::ops::Range<u16>,
    ) -> &'b str {
        // A cell's character from its two bits (seat 0's, seat 1's), seat 0 first as `get`
        // looks; both boards are shifted along cell by cell, no branch a cell: this runs for
        // every receipt's state and view.
        const GLYPHS: [u8; 4] = [b'.', b'0', b'1', b'0'];
        let cells = rows.len().saturating_mul(usize::from(self.width));
        let filled = cells.min(buf.len());
        let first = u32::from(rows.start) * u32::from(self.width);
        let mut seat0 = self.discs[0].checked_shr(first).unwrap_or(0);
        let mut seat1 = self.discs[1].checked_shr(first).unwrap_or(0);
        for slot in &mut buf[..filled] {
            *slot =
                GLYPHS[usize::from(u8::try_from((seat0 & 1) | ((seat1 & 1) << 1)).unwrap_or(0))];
            seat0 >>= 1;
            seat1 >>= 1;
        }
        // Only `.`, `0` and `1` were written: ASCII.
        core::str::from_utf8(&buf[..filled]).unwrap_or("")
    }

    /// The rows from the top, one character a cell: `.` for open, the seat number for a piece.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|row| {
                let mut text = String::with_capacity(usize::from(self.width));
                text.extend(
                    (0..self.width).map(|column| match self.get(Cell { column, row }) {
                        None => '.',
                        Some(seat) => char::from_digit(u32::from(seat.0), 36).unwrap_or('?'),
                    }),
                );
                text
            })
            .collect()
    }
}

/// A board in its lean form, for format-3 state fingerprints ([`Board::lean`]): `{"cells":
/// "..0.1..", "width": 7}`, one character per cell row by row — `.` for an empty cell, `0` or
/// `1` for the seat holding it (a board holds no other) — so the height follows from the
/// length. Complete (each cell's holder reads back unambiguously) and about a quarter of the
/// serde form's bytes.
pub struct LeanBoard<'a>(&'a Board);

impl Board {
    /// This board in its lean form.
    pub fn lean(&self) -> LeanBoard<'_> {
        LeanBoard(self)
    }
}

impl Serialize for LeanBoard<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut board = serializer.serialize_struct("Board", 2)?;
        // On the stack: this runs for every receipt, and a board has at most 64 cells.
        let mut buf = [0u8; MAX_CELLS as usize];
        board.serialize_field("cells", self.0.text(&mut buf, 0..self.0.height))?;
        board.serialize_field("width", &self.0.width)?;
        board.end()
    }
}

/// The view of a board: its rows from the top, as [`Board::rows`] gives them, written as a JSON
/// list of strings straight from the board (no list of strings is built: views are
/// fingerprinted for every receipt).
pub struct RowList<'a>(pub(crate) &'a Board);

impl Serialize for RowList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let board = self.0;
        let mut list = serializer.serialize_seq(Some(usize::from(board.height)))?;
        let mut buf = [0u8; MAX_CELLS as usize];
        for row in 0..board.height {
            list.serialize_element(board.text(&mut buf, row..row + 1))?;
        }
        list.end()
    }
}

/// [`RowList`]'s canonical bytes by hand: `[` the rows as strings `]` (the characters need no
/// escaping, but are written through the escaping writer all the same).
pub(crate) fn write_rows(
    board: &Board,
    writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
) {
    writer.raw(b"[");
    let mut buf = [0u8; MAX_CELLS as usize];
    for row in 0..board.height {
        if row > 0 {
            writer.raw(b",");
        }
        writer.string(board.text(&mut buf, row..row + 1));
    }
    writer.raw(b"]");
}

/// The cells of a board as JSON writes them: row by row, `null` or the seat.
struct CellList<'a>(&'a Board);

impl Serialize for CellList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.cells().map(|(_, holder)| holder))
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut board = serializer.serialize_struct("Board", 3)?;
        board.serialize_field("width", &self.width)?;
        board.serialize_field("height", &self.height)?;
        board.serialize_field("cells", &CellList(self))?;
        board.end()
    }
}

/// A board as JSON holds it, before it is checked.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredBoard {
    width: u16,
    height: u16,
    cells: Vec<Option<Seat>>,
}

impl<'de> Deserialize<'de> for Board {
    /// Any size and any seats read back: a board that can't be held (see `malformed`) keeps
    /// its size and is refused by [`Board::is_well_formed`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Board, D::Error> {
        let StoredBoard {
            width,
            height,
            cells,
        } = StoredBoard::deserialize(deserializer)?;
        let count = u32::from(width) * u32::from(height);
        let mut board = Board {
            width,
            height,
            discs: [0; BOARD_SEATS as usize],
            malformed: count > MAX_CELLS || cells.len() != count as usize,
        };
        if board.malformed {
            return Ok(board);
        }
        for (i, holder) in cells.iter().enumerate() {
            match holder {
                None => {}
                Some(seat) if seat.0 < BOARD_SEATS => board.discs[usize::from(seat.0)] |= 1 << i,
                Some(_) => board.malformed = true,
            }
        }
        Ok(board)
    }
}

/// The indices of a mask's set bits, lowest first.
struct OpenCells {
    bits: u64,
}

impl Iterator for OpenCells {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.bits == 0 {
            return None;
        }
        let index = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for OpenCells {}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    /// The text a cell is written as, from `get` alone: what `text` must give, cell by cell.
    fn text_by_get(board: &Board, rows: std::ops::Range<u16>) -> String {
        rows.flat_map(|row| (0..board.width).map(move |column| Cell { column, row }))
            .map(|cell| match board.get(cell) {
                None => '.',
                Some(seat) => char::from(b'0' + u8::try_from(seat.0).unwrap()),
            })
            .collect()
    }

    proptest::proptest! {
        /// `text` (written from the bitboards for every receipt's state and view) says what
        /// `get` says of every cell, for the whole board and row by row, on every shape of
        /// board up to 64 cells — and a cell both seats claim (only in a malformed board read
        /// back) reads as seat 0's, as `get` has it.
        #[test]
        fn text_is_what_get_says_of_every_cell(
            width in 1u16..=16,
            height in 1u16..=16,
            seat0 in proptest::prelude::any::<u64>(),
            seat1 in proptest::prelude::any::<u64>(),
        ) {
            proptest::prop_assume!(u32::from(width) * u32::from(height) <= MAX_CELLS);
            let mut board = Board::new(width, height);
            board.discs = [seat0 & board.all(), seat1 & board.all()];
            let mut buf = [0u8; MAX_CELLS as usize];
            proptest::prop_assert_eq!(board.text(&mut buf, 0..height), text_by_get(&board, 0..height));
            for row in 0..height {
                proptest::prop_assert_eq!(
                    board.text(&mut buf, row..row + 1),
                    text_by_get(&board, row..row + 1)
                );
            }
            board.discs[1] &= !board.discs[0];
            proptest::prop_assert_eq!(board.rows().concat(), text_by_get(&board, 0..height));
        }
    }

    proptest::proptest! {
        /// The bitboard test of every move says "a line" exactly when the walk finds a line of
        /// that length through some piece of the seat: on every shape of board up to 64
        /// cells, every length from 1 to 6 and any pieces (lines across, down and along both
        /// diagonals, near every edge — where a wrong mask would join the end of one row to
        /// the start of the next).
        #[test]
        fn holds_line_is_a_line_through_some_piece(
            width in 1u16..=16,
            height in 1u16..=16,
            length in 1u16..=6,
            pieces in proptest::prelude::any::<u64>(),
            thin in proptest::prelude::any::<u64>(),
        ) {
            proptest::prop_assume!(u32::from(width) * u32::from(height) <= MAX_CELLS);
            let mut board = Board::new(width, height);
            // Half the boards sparser, so that both answers come up often.
            board.discs = [pieces & (thin | (thin >> 7)) & board.all(), 0];
            let starts = LineStarts::new(width, height, length);
            let walked = (0..height)
                .flat_map(|row| (0..width).map(move |column| Cell { column, row }))
                .filter(|&cell| board.get(cell) == Some(Seat(0)))
                .any(|cell| board.line_through(cell, length).is_some());
            proptest::prop_assert_eq!(board.holds_line(Seat(0), &starts), walked);
            proptest::prop_assert!(!board.holds_line(Seat(1), &starts));
        }
    }

    #[test]
    fn holds_line_sees_no_line_across_the_end_of_a_row() {
        // Seat 0 holds the last two cells of row 0 and the first two of row 1: consecutive
        // bit indices, but no line of 4 on a 4-wide board.
        let b = board(&["..00", "00..", "...."]);
        assert!(!b.holds_line(Seat(0), &LineStarts::new(4, 3, 4)));
        assert!(b.holds_line(Seat(0), &LineStarts::new(4, 3, 2)));
        let b = board(&["0...", ".0..", "..0."]);
        assert!(b.holds_line(Seat(0), &LineStarts::new(4, 3, 3)));
        let b = board(&["...0", "..0.", ".0.."]);
        assert!(b.holds_line(Seat(0), &LineStarts::new(4, 3, 3)));
        assert!(!b.holds_line(Seat(0), &LineStarts::new(4, 3, 4)));
    }

    #[test]
    fn open_columns_are_the_columns_with_an_open_cell_from_the_left() {
        for rows in [
            &["..."; 3][..],
            &["0.1", "011", "011"],
            &["010", "101", "010"],
            &["0..", "1..", "0.."],
            &[
                ".......", ".......", "...0...", "..010..", ".10110.", "0101100",
            ],
            &[
                "1.1.0.1", "0101010", "1010101", "0101010", "1010101", "0101010",
            ],
            &["0101010"],
            &["........"; 8],
        ] {
            let b = board(rows);
            let expected: Vec<u16> = (0..b.width())
                .filter(|&column| (0..b.height()).any(|row| b.is_open(Cell { column, row })))
                .collect();
            let open = b.open_columns();
            assert_eq!(open.len(), expected.len(), "{rows:?}");
            assert_eq!(open.collect::<Vec<_>>(), expected, "{rows:?}");
        }
    }

    #[test]
    fn open_cells_are_the_open_ones_row_by_row_from_the_top_left() {
        for rows in [
            &["..."; 3][..],
            &["0.1", ".1.", "0.."],
            &["010", "101", "010"],
            &[
                ".......", ".......", "...0...", "..010..", ".10110.", "0101100",
            ],
            &["........"; 8],
        ] {
            let b = board(rows);
            let listed: Vec<Cell> = b.cells_in_order().filter(|c| b.is_open(*c)).collect();
            let open = b.open_cells();
            assert_eq!(open.len(), listed.len(), "{rows:?}");
            assert_eq!(open.collect::<Vec<_>>(), listed, "{rows:?}");
        }
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

    #[test]
    fn the_lean_form_tells_every_board_apart() {
        let lean = |b: &Board| serde_json::to_string(&b.lean()).unwrap();
        assert_eq!(lean(&board(&["0.", ".1"])), r#"{"cells":"0..1","width":2}"#);
        // The same cells in another shape, and every single-cell difference, give other forms.
        assert_ne!(lean(&board(&["0..1"])), lean(&board(&["0.", ".1"])));
        let mut forms = vec![lean(&board(&["..", ".."]))];
        for rows in [["0.", ".."], ["1.", ".."], [".0", ".."], ["..", ".1"]] {
            forms.push(lean(&board(&rows)));
        }
        let count = forms.len();
        forms.sort();
        forms.dedup();
        assert_eq!(forms.len(), count);
    }
}
