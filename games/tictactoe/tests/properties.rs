//! Random command streams — legal moves from the resolver, random illegal ones, time jumps,
//! timeouts due or not, skips and resignations — keep every promise of the engine, and their
//! replay re-executes to identical fingerprints.

mod common;

use proptest::prelude::*;
use turnstile_tictactoe::mnk::Cell;
use turnstile_tictactoe::testkit::check_random_script;
use turnstile_tictactoe::TicTacToeRules;

/// Any cell, off the board included (columns and rows 0 to 3).
fn arbitrary_cell(code: u32) -> Cell {
    Cell::new((code % 4) as u16, (code / 4 % 4) as u16)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_commands_keep_every_promise_and_replay_identically(
        seed in "[a-z]{0,6}",
        config in prop::sample::select(vec!["untimed", "timed", "blitz"]),
        script in prop::collection::vec(any::<u32>(), 0..80),
    ) {
        check_random_script::<TicTacToeRules>(common::bundle(), config, &seed, &script, arbitrary_cell)
            .map_err(TestCaseError::fail)?;
    }
}
