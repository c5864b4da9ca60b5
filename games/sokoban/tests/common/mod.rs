//! Helpers shared by the integration tests: build levels and boards from XSB text, name cells.
#![allow(dead_code)]

use turnstile_sokoban::{parse_collection, Board, Cell, Level};

/// The one level of an XSB text; panics with the problems if it is invalid.
pub fn level(text: &str) -> Level {
    let collection = parse_collection(text, "test.xsb");
    assert_eq!(collection.levels.len(), 1, "expected one level in {text:?}");
    match &collection.levels[0] {
        Ok(level) => level.clone(),
        Err(errors) => panic!("invalid test level: {errors:#?}"),
    }
}

/// A board for the one level of an XSB text.
pub fn board(text: &str) -> Board {
    Board::new(&level(text))
}

/// The cell at column `x`, row `y` of a board.
pub fn at(board: &Board, x: u16, y: u16) -> Cell {
    assert!(x < board.width() && y < board.height());
    Cell(y * board.width() + x)
}
