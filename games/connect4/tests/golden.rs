//! The golden replay: a scripted Connect Four match under the `timed` config — a late command,
//! a timeout, a resignation refused after the end — whose replay file is committed, so its
//! fingerprints never change without a deliberate, explained revision.
//! `TURNSTILE_BLESS=1 cargo test -p turnstile-connect4 --test golden` rewrites it.

mod common;

use common::{Command, Moves};
use turnstile_connect4::ConnectFour;
use turnstile_core::Seat;
use turnstile_mnk::{KitState, MatchConfig, MatchResult};
use turnstile_runtime::testing::{check_golden, read_or_bless, replay_text, Driver};

const GOLDEN: &str = "tests/golden/timed.replay.json";

fn scripted() -> Driver<ConnectFour> {
    let mut d = Driver::new(
        common::bundle(),
        MatchConfig::with_turn_config("timed"),
        "golden",
    )
    .unwrap()
    .with_timeouts(KitState::pending_timeout);
    d.play(0, 12, 3).unwrap();
    d.play(1, 40, 3).unwrap();
    d.play(0, 41, 4).unwrap();
    d.time_out().unwrap().unwrap(); // seat 1 lets turn 4 run out at 341
    d.play(0, 350, 2).unwrap();
    d.play(1, 700, 5).unwrap_err(); // too late: turn 6 ended at 650, seat 0 is to move
    d.play(0, 700, 5).unwrap(); // 2, 3, 4, 5 across the bottom row
    d.submit(Some(Seat(1)), 701, Command::Resign).unwrap_err();
    assert_eq!(
        d.state().result().and_then(MatchResult::winner),
        Some(Seat(0))
    );
    d
}

#[test]
fn the_golden_replay_is_reproduced_byte_for_byte_and_verifies() {
    let game = scripted().into_game();
    let fresh = replay_text(&game).unwrap();
    let committed = read_or_bless(env!("CARGO_MANIFEST_DIR"), GOLDEN, &fresh);
    let report = check_golden(&committed, &game).unwrap_or_else(|e| panic!("{GOLDEN}: {e}"));
    assert_eq!(report.verified, 6);
}
