//! Random command streams on Connect Four — legal drops from the resolver, drops into any
//! column (full and missing ones included), time jumps, timeouts, skips, resignations — keep
//! every promise of the engine, and their replay re-executes to identical fingerprints.

mod common;

use proptest::prelude::*;
use turnstile_kit::arbitrary_command;
use turnstile_runtime::testing::check_random_script;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_commands_keep_every_promise_and_replay_identically(
        seed in "[a-z]{0,6}",
        config in prop::sample::select(vec!["untimed", "timed", "blitz"]),
        script in prop::collection::vec(any::<u32>(), 0..160),
    ) {
        // Columns 0 to 8: the two past the board are refused as out of range.
        let driver = common::driver_seeded(config, &seed);
        check_random_script(driver, &script, |code, state| {
            arbitrary_command(code, state, |code| (code % 9) as u16)
        })
        .map_err(TestCaseError::fail)?;
    }
}
