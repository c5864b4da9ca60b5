//! Random command streams — legal moves from the resolver, random illegal ones, time jumps,
//! timeouts due or not, skips and resignations — keep every promise of the engine, and their
//! replay re-executes to identical fingerprints.

mod common;

use proptest::prelude::*;
use turnstile_kit::arbitrary_command;
use turnstile_mnk::Cell;
use turnstile_runtime::testing::check_random_script;

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
        let driver = common::driver_seeded(config, &seed);
        check_random_script(driver, &script, |code, state| arbitrary_command(code, state, arbitrary_cell))
            .map_err(TestCaseError::fail)?;
    }
}
