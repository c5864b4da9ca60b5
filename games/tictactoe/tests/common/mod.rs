//! Fixtures shared by the Tic-Tac-Toe tests: the bundled content and matches under a named
//! turn config.
#![allow(dead_code)]

use std::sync::Arc;

use turnstile_core::ContentBundle;
use turnstile_tictactoe::mnk::{Cell, MatchConfig, Rules};
use turnstile_tictactoe::testkit::Driver;
use turnstile_tictactoe::{bundled, TicTacToeRules};

pub fn bundle() -> Arc<ContentBundle<Rules>> {
    Arc::new(bundled().expect("the bundled content loads"))
}

/// A match under the content's turn config `config` (`untimed`, `timed`, `blitz`).
pub fn driver(config: &str) -> Driver<TicTacToeRules> {
    Driver::new(bundle(), MatchConfig::with_turn_config(config), "tests").unwrap()
}

pub fn cell(column: u16, row: u16) -> Cell {
    Cell::new(column, row)
}

/// The cells, for `Driver::play_all`.
pub fn cells(list: &[(u16, u16)]) -> Vec<Cell> {
    list.iter().map(|&(c, r)| cell(c, r)).collect()
}
