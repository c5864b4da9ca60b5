//! Golden replays: scripted Pig matches compared byte for byte with the committed files under
//! `tests/golden/`, each of which must also verify. A 3-seat blitz match has rolls, a hold (or
//! a bust), a server Timeout, a Skip and a resignation; a 4-seat untimed match plays a round,
//! starts the next in initiative order and ends with three resignations. After a deliberate, explained change,
//! `TURNSTILE_BLESS=1 cargo test -p turnstile-pig --test golden` rewrites them.

mod common;

use common::*;
use turnstile_pig::{Pig, PigAction};
use turnstile_runtime::testing::{check_golden, read_or_bless, replay_text, Driver};

fn check(golden: &str, d: &Driver<Pig>) -> u64 {
    let game = d.game();
    let fresh = replay_text(game).unwrap();
    let committed = read_or_bless(env!("CARGO_MANIFEST_DIR"), golden, &fresh);
    let report = check_golden(&committed, game).unwrap_or_else(|e| panic!("{golden}: {e}"));
    report.verified
}

#[test]
fn three_seats_under_blitz() {
    let mut d = driver("blitz", 3, "golden-blitz");
    // Seat 0 rolls until it has 8 points or busts, and holds if it can.
    let mut tick = 5;
    for _ in 0..20 {
        if acting(&d) != 0 {
            break;
        }
        act(&mut d, 0, tick, PigAction::Roll);
        tick += 3;
        if acting(&d) == 0 && d.state().turn_total >= 8 {
            act(&mut d, 0, tick, PigAction::Hold);
            break;
        }
    }
    // Seat 1 lets its turn run out: the server's Timeout.
    assert_eq!(acting(&d), 1);
    d.time_out().unwrap().unwrap();
    // Seat 2 rolls once and skips (a bust ends its turn instead).
    tick = d.game().last_tick() + 4;
    act(&mut d, 2, tick, PigAction::Roll);
    if acting(&d) == 2 {
        act(&mut d, 2, tick + 2, PigAction::Skip);
    }
    // Seat 1 resigns out of turn; seats 0 and 2 play on.
    let tick = d.game().last_tick() + 1;
    act(&mut d, 1, tick, PigAction::Resign);
    assert!(d.is_active());
    let verified = check("tests/golden/blitz-3.replay.json", &d);
    assert!(verified >= 6, "{verified}");
}

#[test]
fn four_seats_untimed() {
    let mut d = driver("untimed", 4, "golden-four");
    // Round 1: each seat rolls once and holds what it rolled (or busts).
    for _ in 0..4 {
        let seat = acting(&d);
        act(&mut d, seat, 0, PigAction::Roll);
        if acting(&d) == seat {
            act(&mut d, seat, 0, PigAction::Hold);
        }
    }
    // Round 2 begins in initiative order (the lowest score first); three seats resign.
    assert_eq!(d.state().round, 2);
    let first = acting(&d);
    for seat in (0..4).filter(|s| *s != first) {
        act(&mut d, seat, 0, PigAction::Resign);
    }
    assert!(!d.is_active());
    check("tests/golden/untimed-4.replay.json", &d);
}
