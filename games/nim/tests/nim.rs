//! Nim through `Match::submit`, with the engine's game-agnostic test kit: the last stone wins,
//! refusals carry their codes and change nothing, the timer times a turn out and forfeits, a
//! resignation ends the match, the random bot plays any match to its end, random command
//! scripts keep every promise and replay identically, and a golden replay pins the bytes.

use std::sync::Arc;

use proptest::prelude::*;
use turnstile_core::{ContentBundle, Game, MatchStatus, Seat};
use turnstile_kit::{
    arbitrary_command, game_events, load_bundle, Action, KitEvent, KitGame, KitState, MatchConfig,
    MatchResult, Rules,
};
use turnstile_nim::{Nim, NimEvent, NimGame, NimWin, STONES};
use turnstile_runtime::testing::{
    check_golden, check_random_script, random_match, read_or_bless, replay_text, Driver,
};

fn bundle() -> Arc<ContentBundle<Rules>> {
    Arc::new(load_bundle::<Nim>(&Nim::bundled_source()).expect("the standard rules load"))
}

fn driver(config: &str, seed: &str) -> Driver<NimGame> {
    Driver::new(bundle(), MatchConfig::with_turn_config(config), seed)
        .unwrap()
        .with_timeouts(KitState::pending_timeout)
}

fn take(d: &mut Driver<NimGame>, seat: u16, tick: u64, count: u16) -> Vec<KitEvent<Nim>> {
    let receipt = d.submit(Some(Seat(seat)), tick, Action::Play(count));
    receipt
        .unwrap_or_else(|r| panic!("take {count}: {r}"))
        .events
}

#[test]
fn whoever_takes_the_last_stone_wins() {
    let mut d = driver("untimed", "last");
    // 21 = 3 + 3 + … (seven takes of 3): seat 0 takes the 1st, 3rd, …, 7th.
    for i in 0..6 {
        take(&mut d, i % 2, 0, 3);
    }
    assert_eq!(d.state().board().stones, 3);
    let events = take(&mut d, 0, 0, 3);
    let won = MatchResult::Game(NimWin::LastStone { seat: Seat(0) });
    assert_eq!(
        game_events(&events),
        vec![
            KitEvent::Game(NimEvent::StonesTaken {
                seat: Seat(0),
                count: 3,
                left: 0
            }),
            KitEvent::match_ended(won.clone()),
        ]
    );
    assert_eq!(d.state().result(), Some(&won));
    let status = NimGame::status(&d.game().bundle().content, d.state());
    let MatchStatus::Finished { outcome } = status else {
        panic!("{status:?}")
    };
    assert_eq!(
        (outcome.kind.as_str(), outcome.winners),
        ("win", vec![Seat(0)])
    );
    assert_eq!(
        d.refusal(Some(1), 0, Action::Play(1)),
        Ok("match_over".into())
    );
}

#[test]
fn bad_takes_are_refused_with_their_codes_and_change_nothing() {
    let mut d = driver("untimed", "bad");
    assert_eq!(
        d.refusal(Some(0), 0, Action::Play(0)),
        Ok("out_of_range".into())
    );
    assert_eq!(
        d.refusal(Some(0), 0, Action::Play(4)),
        Ok("out_of_range".into())
    );
    assert_eq!(
        d.refusal(Some(1), 0, Action::Play(1)),
        Ok("not_your_turn".into())
    );
    assert_eq!(
        d.refusal(Some(0), 0, Action::Skip),
        Ok("not_skippable".into())
    );
    for _ in 0..5 {
        let seat = d.state().to_move().unwrap().0;
        take(&mut d, seat, 0, 4 - 1);
    }
    assert_eq!(d.state().board().stones, STONES - 15);
    let seat = d.state().to_move().unwrap().0;
    take(&mut d, seat, 0, 3);
    take(&mut d, 1 - seat, 0, 2);
    // One stone left: taking two is more than the pile holds.
    assert_eq!(
        d.refusal(Some(seat), 0, Action::Play(2)),
        Ok("not_enough_stones".into())
    );
}

#[test]
fn the_blitz_timer_times_a_turn_out_and_two_in_a_row_forfeit() {
    let mut d = driver("blitz", "clock");
    take(&mut d, 0, 5, 1); // seat 1's turn runs from 5 until 35
    let timeout = d.time_out().unwrap().unwrap();
    assert_eq!(timeout.tick, 35);
    assert_eq!(d.state().to_move(), Some(Seat(0)));
    take(&mut d, 0, 40, 1); // seat 1 again, until 70
    d.time_out().unwrap().unwrap();
    assert_eq!(
        d.state().result(),
        Some(&MatchResult::Forfeited {
            seat: Seat(1),
            timeouts: 2
        })
    );
    // A move at or after a deadline is late: the turn has already ended.
    let mut d = driver("blitz", "late");
    assert_eq!(
        d.refusal(Some(0), 30, Action::Play(1)),
        Ok("not_your_turn".into())
    );
}

#[test]
fn a_resignation_ends_the_match_for_the_other_seat() {
    let mut d = driver("timed", "resign");
    take(&mut d, 0, 0, 2);
    d.submit(Some(Seat(0)), 1, Action::Resign).unwrap();
    assert_eq!(
        d.state().result().and_then(MatchResult::winner),
        Some(Seat(1))
    );
}

#[test]
fn random_bots_play_every_config_to_the_end() {
    for config in ["untimed", "timed", "blitz"] {
        for i in 0..20 {
            let config = MatchConfig::with_turn_config(config);
            let moves = random_match::<NimGame>(bundle(), config, &format!("bots-{i}")).unwrap();
            assert!((7..=21).contains(&moves), "{moves}");
        }
    }
}

#[test]
fn the_golden_replay_is_reproduced_byte_for_byte_and_verifies() {
    let mut d = driver("blitz", "golden");
    take(&mut d, 0, 3, 3);
    d.time_out().unwrap().unwrap(); // seat 1 lets turn 2 run out at 33
    take(&mut d, 0, 40, 2);
    d.submit(Some(Seat(1)), 45, Action::Skip).unwrap();
    take(&mut d, 0, 50, 3);
    d.submit(Some(Seat(1)), 52, Action::Resign).unwrap();
    let game = d.into_game();
    let fresh = replay_text(&game).unwrap();
    let golden = "tests/golden/blitz.replay.json";
    let committed = read_or_bless(env!("CARGO_MANIFEST_DIR"), golden, &fresh);
    let report = check_golden(&committed, &game).unwrap_or_else(|e| panic!("{golden}: {e}"));
    assert_eq!(report.verified, 6);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_commands_keep_every_promise_and_replay_identically(
        seed in "[a-z]{0,6}",
        config in prop::sample::select(vec!["untimed", "timed", "blitz"]),
        script in prop::collection::vec(any::<u32>(), 0..80),
    ) {
        // Takes of 0 to 4: the ends are refused as out of range.
        check_random_script(driver(config, &seed), &script, |code, state| {
            arbitrary_command(code, state, |code| (code % 5) as u16)
        })
        .map_err(TestCaseError::fail)?;
    }
}

/// The kit's setup rule, whichever way the state is made (the first match of a content builds
/// each config's starting turns, later ones copy them): a commander per seat, `seat-0` then
/// `seat-1` with equal priorities under the match's turn config, the loop started so seat 0's
/// first turn is active. A copy is not shared state: playing a match to its end leaves the
/// next match's start as it was.
#[test]
fn every_match_starts_from_the_setup_rule_even_after_others_were_played() {
    use turnstile_core::MatchSetup;
    use turnstile_turns::{Commander, MatchTurns, NoSignals, TurnConfigId};

    let bundle = bundle();
    let rules = &bundle.content;
    let expected = |config: &str| {
        let mut turns = MatchTurns::new([Seat(0), Seat(1)]);
        let mut handle = turns.turns::<u16, ()>(&rules.turn_configs);
        for seat in [Seat(0), Seat(1)] {
            let commander = Commander::new(format!("seat-{}", seat.0), Some(seat), 0)
                .with_config(TurnConfigId::new(config));
            handle.add_commander(commander).unwrap();
        }
        handle.start_loop(&mut NoSignals).unwrap();
        drop(handle);
        turns
    };
    let setup = |config: &str| {
        let config = MatchConfig::with_turn_config(config);
        NimGame::setup(
            rules,
            MatchSetup {
                config: &config,
                seed: "start",
                seats: 2,
            },
        )
        .unwrap()
    };
    for round in 0..2 {
        for config in ["untimed", "timed", "blitz"] {
            let state = setup(config);
            assert_eq!(state.turns(), &expected(config), "{config}, round {round}");
            assert_eq!(state.to_move(), Some(Seat(0)));
            // Play a whole match from this start before the next setup copies it again.
            let mut d = Driver::<NimGame>::new(
                bundle.clone(),
                MatchConfig::with_turn_config(config),
                "start",
            )
            .unwrap();
            let mut seat = 0;
            while d.state().result().is_none() {
                take(&mut d, seat, 0, 1);
                seat = 1 - seat;
            }
        }
    }
    let unknown = MatchConfig::with_turn_config("no-such-config");
    let refused = NimGame::setup(
        rules,
        MatchSetup {
            config: &unknown,
            seed: "start",
            seats: 2,
        },
    );
    assert_eq!(refused.unwrap_err().code, "unknown_turn_config");
}
