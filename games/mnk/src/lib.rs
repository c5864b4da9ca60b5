//! The m,n,k-game kernel: two seats alternate placing pieces on an m × n board until one has k
//! in a row. Tic-Tac-Toe is the 3,3,3-game; Connect Four is the 7,6,4-game with gravity. Both
//! are a [`Variant`] of the one [`MnkGame`], so their rules, results and bots are written once,
//! here — and everything a turn-based game repeats (turn configs, timers, `Timeout`,
//! `ClockResumed`, forfeits, `Skip`, `Resign`, events, status) is the game kit's
//! (`turnstile-kit`), not this crate's.
//!
//! - [`board`]: the grid, landing cells under gravity, lines of k;
//! - [`Mnk<V>`]: the kernel as a [`KitGame`]: a move's target, placing it, a line or a full board;
//! - [`bot`]: the strong bot's policy over [`search`], a bounded alpha-beta with a
//!   transposition table.
//!
//! A variant says what differs: the board size, the line length, the action's `type` and field,
//! and where a move puts its piece (anywhere open, or the lowest open cell of a column). Its
//! actions are the kit's one generic [`Action`]: no variant writes an action enum.
//!
//! **What this crate must never do.** No I/O, no clock, no floats, hash maps or platform
//! randomness (bots draw only from their own `bot:<seat>` generator), no `usize` in state, no
//! panics on input from outside, and no knowledge of a particular grid outside its `Variant`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod board;
pub mod bot;
pub mod error;
pub mod search;

use std::fmt::Debug;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};
use turnstile_core::{BundleSource, ContentBundle, ContentProblem, ParamSpec, Seat};
use turnstile_kit::{GameEvents, KitGame, KitWin};

pub use board::{Board, Cell, LineStarts};
pub use bot::{Searchable, StrongBot};
pub use error::RuleError;
pub use turnstile_kit::{
    embedded_source, opponent, Action, Kit, KitEvent, KitState, KitView, MatchConfig, MatchResult,
    Rules, RESIGNED, SEATS,
};

/// An m,n,k-game of variant `V`, as the engine's `Game`.
pub type MnkGame<V> = Kit<Mnk<V>>;
/// The state of a match of variant `V`.
pub type MnkState<V> = KitState<Mnk<V>>;

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
    /// The field of the move action that holds the move (`cell`, `column`).
    const PLAY_FIELD: &'static str;

    /// A move: the data of the framework's `Play` command (a column, a cell).
    type Move: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Eq + Send + Sync + 'static;

    /// The variant's content bundle (its turn configs), compiled in.
    fn bundled_source() -> BundleSource;
    /// The cell a move puts its piece on, or why it can't be played on this board.
    fn target(board: &Board, mv: &Self::Move) -> Result<Cell, RuleError>;
    /// Every move that can be played on this board, in a stable order.
    fn moves(board: &Board) -> impl Iterator<Item = Self::Move>;
    /// The parameters of the [`PLAY_KIND`](Variant::PLAY_KIND) action kind on this board, with
    /// the values allowed now.
    fn play_params(board: &Board) -> Vec<ParamSpec>;
}

/// The m,n,k kernel of variant `V` as a [`KitGame`] (a marker; never built).
pub struct Mnk<V>(PhantomData<fn() -> V>);

impl<V: Variant> Mnk<V> {
    /// Where the variant's winning lines can start: built at compile time, for the bitboard
    /// test of every move.
    const LINE_STARTS: LineStarts = LineStarts::new(V::WIDTH, V::HEIGHT, V::LINE);
}

// By hand: derived impls would ask the variant marker for them too.
impl<V> Debug for Mnk<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Mnk")
    }
}
impl<V> Clone for Mnk<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Mnk<V> {}
impl<V> PartialEq for Mnk<V> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<V> Eq for Mnk<V> {}

/// How the board ends a match: a line, or a full board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum MnkWin {
    /// `seat` completed a line.
    Won {
        /// The line's cells, from one end to the other.
        line: Vec<Cell>,
        /// The winner.
        seat: Seat,
    },
    /// The board filled up with no line.
    Draw,
}

impl KitWin for MnkWin {
    fn winner(&self) -> Option<Seat> {
        match self {
            MnkWin::Won { seat, .. } => Some(*seat),
            MnkWin::Draw => None,
        }
    }

    fn outcome_kind(&self) -> &'static str {
        match self {
            MnkWin::Won { .. } => "win",
            MnkWin::Draw => "draw",
        }
    }
}

/// The kernel's own event: `seat`'s piece is now on `[column, row]` (for a drop: where the disc
/// came to rest). In JSON `{"type": "piecePlaced", "column": 3, "row": 5, "seat": 0}`, written
/// by hand with its keys in canonical (sorted) order.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum MnkEvent {
    /// A piece was placed.
    PiecePlaced {
        /// Whose piece.
        seat: Seat,
        /// From the left, from 0.
        column: u16,
        /// From the top, from 0.
        row: u16,
    },
}

impl Serialize for MnkEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let MnkEvent::PiecePlaced { seat, column, row } = self;
        let mut object = serializer.serialize_struct("MnkEvent", 4)?;
        object.serialize_field("column", column)?;
        object.serialize_field("row", row)?;
        object.serialize_field("seat", seat)?;
        object.serialize_field("type", "piecePlaced")?;
        object.end()
    }
}

/// What everyone sees of the board: in JSON `{"rows": ["..0....", …]}`, the rows from the
/// top, one character a cell (`.` open, `0` or `1` a seat's piece).
///
/// It keeps the board (a small `Copy` value) and writes the rows as it is serialized, so that
/// the view fingerprinted for every receipt builds no strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MnkBoardView {
    board: Board,
}

impl MnkBoardView {
    /// The rows from the top, as [`Board::rows`].
    pub fn rows(&self) -> Vec<String> {
        self.board.rows()
    }
}

impl Serialize for MnkBoardView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("MnkBoardView", 1)?;
        object.serialize_field("rows", &board::RowList(&self.board))?;
        object.end()
    }
}

impl<V: Variant> KitGame for Mnk<V> {
    const ID: &'static str = V::ID;
    const PLAY_KIND: &'static str = V::PLAY_KIND;
    const PLAY_FIELD: &'static str = V::PLAY_FIELD;

    type Move = V::Move;
    type Board = Board;
    type Target = Cell;
    type Event = MnkEvent;
    type Win = MnkWin;
    type Error = RuleError;
    type BoardView = MnkBoardView;

    fn bundled_source() -> BundleSource {
        V::bundled_source()
    }

    fn start() -> Board {
        Board::new(V::WIDTH, V::HEIGHT)
    }

    fn well_formed(board: &Board) -> bool {
        board.is_well_formed(V::WIDTH, V::HEIGHT, 2)
    }

    fn check(board: &Board, _: Seat, mv: &V::Move) -> Result<Cell, RuleError> {
        V::target(board, mv)
    }

    /// Places the piece; a line through it wins, a full board draws.
    fn apply(
        board: &mut Board,
        seat: Seat,
        cell: Cell,
        events: &mut GameEvents<'_, Self>,
    ) -> Option<MnkWin> {
        board.place(cell, seat);
        events.push(MnkEvent::PiecePlaced {
            seat,
            column: cell.column,
            row: cell.row,
        });
        // Before this piece the seat held no line (the match would have ended), so a line now
        // runs through it: the bitboard test says whether to walk for its cells at all.
        let line = if board.holds_line(seat, &Self::LINE_STARTS) {
            board.line_through(cell, V::LINE)
        } else {
            None
        };
        if let Some(line) = line {
            Some(MnkWin::Won { seat, line })
        } else if board.is_full() {
            Some(MnkWin::Draw)
        } else {
            None
        }
    }

    fn moves(board: &Board, _: Seat) -> impl Iterator<Item = V::Move> {
        V::moves(board)
    }

    fn play_params(board: &Board) -> Vec<ParamSpec> {
        V::play_params(board)
    }

    fn view(board: &Board) -> MnkBoardView {
        MnkBoardView { board: *board }
    }

    fn fingerprint_board(board: &Board) -> impl Serialize + '_ {
        board.lean()
    }

    /// The view's one field, `rows` (between the kit's `result` and `toMove`), by hand.
    const WRITES_VIEW_FIELDS: bool = true;

    fn write_view_fields(
        board: &Board,
        writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
    ) -> Result<(), turnstile_core::determinism::CanonicalError> {
        writer.raw(b",\"rows\":");
        board::write_rows(board, writer);
        Ok(())
    }
}

/// Loads a bundle of variant `V` and computes its revision.
pub fn load_bundle<V: Variant>(
    source: &BundleSource,
) -> Result<ContentBundle<Rules>, Vec<ContentProblem>> {
    turnstile_kit::load_bundle::<Mnk<V>>(source)
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
        PiecePlaced { seat: Seat, column: u16, row: u16 },
    }

    #[test]
    fn the_board_view_writes_the_rows_it_would_list() {
        let board = Board::from_rows(&["0.1", "..1"]).unwrap();
        let view = MnkBoardView { board };
        let text = serde_json::to_string(&view).unwrap();
        assert_eq!(text, r#"{"rows":["0.1","..1"]}"#);
        #[derive(Serialize)]
        struct Listed {
            rows: Vec<String>,
        }
        assert_eq!(
            text,
            serde_json::to_string(&Listed { rows: view.rows() }).unwrap()
        );
    }

    #[test]
    fn the_event_serializes_like_the_derived_form_with_sorted_keys() {
        let event = MnkEvent::PiecePlaced {
            seat: Seat(0),
            column: 3,
            row: 5,
        };
        let derived = Derived::PiecePlaced {
            seat: Seat(0),
            column: 3,
            row: 5,
        };
        let ours = serde_json::to_value(&event).unwrap();
        assert_eq!(ours, serde_json::to_value(&derived).unwrap());
        let back: MnkEvent = serde_json::from_value(ours).unwrap();
        assert_eq!(back, event);
        let canonical =
            turnstile_core::determinism::canonical::to_canonical_string(&event).unwrap();
        assert_eq!(serde_json::to_string(&event).unwrap(), canonical);
    }
}
