//! Connect Four's content wires the turn framework as the kernel's tests describe (see
//! turnstile-tictactoe's tests/turns.rs): here, the bundled configs' timings and forfeits.

mod common;

use common::driver;
use common::{Command, Moves};
use turnstile_core::Seat;
use turnstile_kit::turn_ends;
use turnstile_mnk::MatchResult;
use turnstile_turns::TurnEndReason;

#[test]
fn blitz_turns_last_50_ticks_and_two_timeouts_in_a_row_forfeit() {
    let mut d = driver("blitz");
    assert_eq!(d.state().deadline_tick(), Some(50));
    assert_eq!(
        d.refusal(Some(0), 50, Command::Play(3)).unwrap(),
        "not_your_turn"
    );
    let receipt = d.time_out().unwrap().unwrap();
    assert_eq!(
        turn_ends(&receipt.events),
        vec![(1, Some(Seat(0)), TurnEndReason::Time)]
    );
    d.submit(Some(Seat(1)), 60, Command::Skip).unwrap();
    assert_eq!(d.time_out().unwrap().unwrap().tick, 110);
    assert_eq!(
        d.state().result(),
        Some(&MatchResult::Forfeited {
            seat: Seat(0),
            timeouts: 2
        })
    );
}

#[test]
fn timed_turns_last_300_ticks_and_are_not_skippable() {
    let mut d = driver("timed");
    assert_eq!(d.state().deadline_tick(), Some(300));
    assert_eq!(
        d.refusal(Some(0), 0, Command::Skip).unwrap(),
        "not_skippable"
    );
    d.play(0, 299, 3).unwrap();
    assert_eq!(d.state().deadline_tick(), Some(599));
    assert_eq!(driver("untimed").state().deadline_tick(), None);
}
