//! The engine's game-agnostic test kit (`turnstile_runtime::testing`) on Pig: random command
//! scripts — legal rolls and holds previewed then committed, time passing, due and stale
//! timeouts, skips, resignations and commands from seats that may not exist — keep every
//! promise under every clock at 2, 3 and 4 seats, and their replays verify; random bots play
//! every clock and seat count to the end.

mod common;

use common::*;
use proptest::prelude::*;
use turnstile_core::Seat;
use turnstile_pig::{PigAction, PigState};
use turnstile_runtime::testing::{check_random_script, random_match};

/// Any command a client (or a confused server) might send: mostly illegal ones.
fn arbitrary(code: u32, state: &PigState) -> (Option<Seat>, PigAction) {
    let seat = u16::try_from(code % 6).unwrap_or(0);
    let seat = (seat < 5).then_some(Seat(seat));
    let action = match (code / 6) % 7 {
        0 => PigAction::Roll,
        1 => PigAction::Hold,
        2 => PigAction::Skip,
        3 if code % 5 == 0 => PigAction::Resign,
        3 => PigAction::Roll,
        4 => PigAction::Timeout {
            turn_index: state.turn_index(),
        },
        5 => PigAction::Timeout {
            turn_index: u64::from(code % 4),
        },
        _ => PigAction::ClockResumed {
            last_heartbeat_tick: u64::from(code % 50),
            takeover_tick: u64::from(code % 90),
        },
    };
    (seat, action)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_scripts_keep_every_promise_and_replay(
        clock in prop::sample::select(vec!["untimed", "standard", "blitz"]),
        seats in 2u16..=4,
        seed in 0u32..1000,
        script in prop::collection::vec(any::<u32>(), 1..120),
    ) {
        let d = driver(clock, seats, &format!("prop-{seed}"));
        check_random_script(d, &script, arbitrary).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn random_bots_play_every_clock_and_seat_count_to_the_end() {
    for clock in ["untimed", "standard", "blitz"] {
        for seats in 2..=4 {
            let commands = random_match::<turnstile_pig::Pig>(
                bundle(),
                config(clock, seats),
                &format!("bots-{clock}-{seats}"),
            )
            .unwrap_or_else(|e| panic!("{clock} {seats}: {e}"));
            assert!(commands > 10, "{clock} {seats}: {commands} commands");
        }
    }
}
