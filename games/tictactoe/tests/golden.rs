//! The golden replay: a scripted blitz match — a timeout, a skip, a late command, a win — whose
//! replay file is committed, so its fingerprints never change without a deliberate, explained
//! revision. `TURNSTILE_BLESS=1 cargo test -p turnstile-tictactoe --test golden` rewrites it.

mod common;

use common::{cell, Command, Moves};
use turnstile_core::Seat;
use turnstile_mnk::{KitState, MatchConfig, MatchResult};
use turnstile_runtime::testing::{check_golden, read_or_bless, replay_text, Driver};
use turnstile_tictactoe::TicTacToe;

const GOLDEN: &str = "tests/golden/blitz.replay.json";

fn scripted() -> Driver<TicTacToe> {
    let mut d = Driver::new(
        common::bundle(),
        MatchConfig::with_turn_config("blitz"),
        "golden",
    )
    .unwrap()
    .with_timeouts(KitState::pending_timeout);
    d.play(0, 4, cell(1, 1)).unwrap();
    d.time_out().unwrap().unwrap(); // seat 1 lets turn 2 run out at 34
    d.play(0, 40, cell(0, 0)).unwrap();
    d.submit(Some(Seat(1)), 45, Command::Skip).unwrap();
    d.play(0, 90, cell(2, 2)).unwrap_err(); // too late: turn 5 ended at 75
    d.play(1, 90, cell(2, 2)).unwrap(); // seat 1's turn 6 began at 75
    d.play(0, 91, cell(2, 0)).unwrap();
    d.play(1, 95, cell(0, 2)).unwrap();
    d.play(0, 99, cell(1, 0)).unwrap(); // the top row: seat 0 wins
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
    assert_eq!(report.verified, 8);
}
