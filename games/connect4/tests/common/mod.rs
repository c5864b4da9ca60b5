//! Fixtures shared by the Connect Four tests: the bundled content and matches under a named
//! turn config.
#![allow(dead_code)]

use std::sync::Arc;

use turnstile_connect4::{bundled, ConnectFourRules};
use turnstile_core::ContentBundle;
use turnstile_tictactoe::mnk::{MatchConfig, Rules};
use turnstile_tictactoe::testkit::Driver;

pub fn bundle() -> Arc<ContentBundle<Rules>> {
    Arc::new(bundled().expect("the bundled content loads"))
}

/// A match under the content's turn config `config` (`untimed`, `timed`, `blitz`).
pub fn driver(config: &str) -> Driver<ConnectFourRules> {
    Driver::new(bundle(), MatchConfig::with_turn_config(config), "tests").unwrap()
}

/// A full board without four in a row, as drop columns from the first move: every row is
/// `0011001` or `1100110`, alternating up the board.
pub const DRAW: [u16; 42] = [
    4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5, 0, 0,
    0, 0, 0, 6, 6, 6, 6, 6, 6, 0,
];
