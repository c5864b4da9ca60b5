//! Sokoban's pure rules, as spec/sokoban.md states them: levels, moves, history, LURD, planners.
//!
//! Everything here is deterministic and does no I/O: parsers take the text and a file name for
//! their messages; no floats, no hash maps.
//!
//! * [`level`]: the [`Level`] type, the XSB collection parser [`parse_collection`] and the seed's
//!   numeric grid [`parse_numeric`], validation with [`LevelError`]s that name file, level, line
//!   and column.
//! * [`board`]: [`Board`], the fast mutable position: [`Board::step`], paths as one undo entry,
//!   undo, redo, restart (itself undoable), counters, and [`BoardRecord`] snapshots.
//! * [`lurd`]: LURD import ([`apply_lurd`]) and export ([`export_lurd`]).
//! * [`plan`]: tap-to-move, [`walk_path`] and [`push_path`].
//! * [`game`]: [`Sokoban`], the [`turnstile_core::Game`] the runtime, CLI and server drive.
//! * [`deadlock`]: [`DeadSquares`], reported by [`Board::step`] as a [`DeadSquareEvent`].
//!
//! ```
//! use turnstile_sokoban::{parse_collection, Board, Direction};
//!
//! let collection = parse_collection("; tiny\n#####\n#@$.#\n#####\n", "tiny.xsb");
//! let level = collection.levels[0].as_ref().unwrap();
//! assert_eq!(level.title(), Some("tiny"));
//! let mut board = Board::new(level);
//! let outcome = board.step(Direction::Right).unwrap();
//! assert!(outcome.pushed() && outcome.solved);
//! assert_eq!(turnstile_sokoban::export_lurd(&board), "R");
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod board;
pub mod deadlock;
pub mod game;
pub mod grid;
pub mod level;
pub mod lurd;
pub mod plan;
pub mod solver;

pub use board::{
    Board, BoardRecord, BoxPush, HistoryEntry, HistoryOutcome, HistoryRejection, MoveRejection,
    PathOutcome, PathRejection, Position, RecordError, RecordPart, StepOutcome, MAX_HISTORY,
};
pub use deadlock::{DeadSquareEvent, DeadSquares};
pub use game::{
    Collection, Sokoban, SokobanAction, SokobanConfig, SokobanContent, SokobanEvent, SokobanPlan,
    SokobanState, SokobanView, Xy,
};
pub use grid::{Cell, Direction, Tile, Topology};
pub use level::{
    parse_collection, parse_hex_collection, parse_level_file, parse_numeric, Level, LevelError,
    LevelErrorKind, LevelFormat, ParsedCollection, MAX_SIDE,
};
pub use lurd::{
    apply_lurd, export_lurd, format_lurd, parse_lurd, parse_moves, LurdError, LurdOutcome, LurdStep,
};
pub use plan::{push_path, reachable_cells, walk_path, PlanError};
