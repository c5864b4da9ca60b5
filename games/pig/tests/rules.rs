//! Pig's rules through `Match::submit`: rolling and the conditional bust edge, holding only
//! after a roll, the dice from the seed's `dice` stream, Timeout and Skip leaving a turn through
//! the phase graph's `ActivationExit` edges, forfeits, resignation at 3 seats, the end of the
//! match at the end of a round (round hooks), the round limit, the initiative formula, refusals
//! with their codes that change nothing, and previews that never show the die.

mod common;

use common::*;
use turnstile_core::{
    determinism::derive_stream, CommandContext, Game, LegalActionResolver, MatchStatus, Seat,
    Viewer,
};
use turnstile_phases::ExitReason;
use turnstile_pig::{Pig, PigAction, PigEvent, Standing};

/// Rolls for the acting seat until its turn ends or it has `enough` points; returns the last
/// roll's events.
fn roll_until(d: &mut turnstile_runtime::testing::Driver<Pig>, enough: i64) -> Vec<PigEvent> {
    let seat = acting(d);
    for _ in 0..100 {
        let events = act(d, seat, 0, PigAction::Roll);
        if d.state().active != Some(Seat(seat)) || d.state().turn_total >= enough {
            return events;
        }
    }
    panic!("100 rolls without a bust or {enough} points");
}

#[test]
fn a_roll_adds_the_die_and_a_one_busts_through_the_conditional_edge() {
    let mut d = driver("untimed", 2, "bust");
    let mut total = 0;
    let mut first = true;
    loop {
        let events = act(&mut d, 0, 0, PigAction::Roll);
        let rolled = die(&events).unwrap();
        assert!((1..=6).contains(&rolled));
        if rolled == 1 {
            // The higher-priority conditional edge fires, never the unconditional one; then
            // the next seat's turn enters the graph.
            let bust = if first {
                "first-roll-bust"
            } else {
                "roll-bust"
            };
            assert_eq!(edges(&events), [bust, "start-to-first-roll"]);
            assert!(game_events(&events).contains(&PigEvent::TurnTotalLost {
                seat: Seat(0),
                lost: total
            }));
            assert!(game_events(&events).contains(&PigEvent::TurnEnded {
                seat: Seat(0),
                reason: ExitReason::EndTurnAction
            }));
            assert_eq!(d.state().scores, vec![0, 0]);
            assert_eq!(acting(&d), 1);
            assert_eq!(d.state().phase.cursor, "first_roll");
            break;
        }
        total += rolled;
        assert_eq!(d.state().turn_total, total);
        let expected: Vec<String> = if first {
            vec!["first-roll-scores".into()]
        } else {
            vec![]
        };
        assert_eq!(edges(&events), expected);
        assert_eq!(d.state().phase.cursor, "rolling");
        first = false;
    }
}

#[test]
fn hold_is_allowed_only_after_a_roll_and_banks_the_turn_total() {
    for seed in ["hold-a", "hold-b", "hold-c", "hold-d"] {
        let mut d = driver("untimed", 2, seed);
        assert_eq!(
            d.refusal(Some(0), 0, PigAction::Hold),
            Ok("action_not_allowed_in_phase".into())
        );
        let events = act(&mut d, 0, 0, PigAction::Roll);
        if die(&events) == Some(1) {
            continue;
        }
        let total = d.state().turn_total;
        let events = act(&mut d, 0, 0, PigAction::Hold);
        assert_eq!(edges(&events), ["hold", "start-to-first-roll"]);
        assert!(game_events(&events).contains(&PigEvent::Banked {
            seat: Seat(0),
            banked: total,
            score: total
        }));
        assert_eq!(d.state().scores, vec![total, 0]);
        assert_eq!(acting(&d), 1);
        return;
    }
    panic!("every seed rolled a 1 first");
}

#[test]
fn the_dice_are_the_seed_s_dice_stream() {
    let mut d = driver("untimed", 2, "dice");
    let mut stream = derive_stream("dice", "dice").unwrap();
    for _ in 0..40 {
        let seat = acting(&d);
        let events = act(&mut d, seat, 0, PigAction::Roll);
        let expected = i64::from(stream.below(6).unwrap()) + 1;
        assert_eq!(die(&events), Some(expected));
        if d.state().phase.cursor == "rolling" && d.state().turn_total >= 10 {
            act(&mut d, seat, 0, PigAction::Hold);
        }
    }
}

#[test]
fn refusals_have_codes_and_change_nothing() {
    let mut d = driver("untimed", 3, "refusals");
    assert_eq!(
        d.refusal(Some(1), 0, PigAction::Roll),
        Ok("not_your_turn".into())
    );
    assert_eq!(
        d.refusal(Some(7), 0, PigAction::Roll),
        Ok("unknown_seat".into())
    );
    assert_eq!(
        d.refusal(None, 0, PigAction::Roll),
        Ok("seat_required".into())
    );
    assert_eq!(
        d.refusal(None, 0, PigAction::Timeout { turn_index: 1 }),
        Ok("timeout_not_due".into())
    );
    act(&mut d, 2, 0, PigAction::Resign);
    assert_eq!(
        d.refusal(Some(2), 0, PigAction::Resign),
        Ok("seat_out".into())
    );
}

#[test]
fn skip_leaves_the_turn_through_the_activation_exit_edge_and_loses_the_turn_total() {
    let mut d = driver("untimed", 2, "skip");
    let events = roll_until(&mut d, 1);
    if acting(&d) != 0 {
        // Busted at once; seat 1 rolls instead.
        assert_eq!(die(&events), Some(1));
    }
    let seat = acting(&d);
    let total = d.state().turn_total;
    let events = act(&mut d, seat, 0, PigAction::Skip);
    let exit = if total == 0 {
        "first-roll-exit"
    } else {
        "rolling-exit"
    };
    assert_eq!(edges(&events), [exit, "start-to-first-roll"]);
    assert!(game_events(&events).contains(&PigEvent::TurnEnded {
        seat: Seat(seat),
        reason: ExitReason::Skip
    }));
    assert!(game_events(&events).contains(&PigEvent::TurnTotalLost {
        seat: Seat(seat),
        lost: total
    }));
    assert_eq!(d.state().scores, vec![0, 0]);
}

#[test]
fn a_timeout_leaves_the_turn_and_two_in_a_row_forfeit_the_seat() {
    let mut d = driver("blitz", 2, "timeout");
    let deadline = d.state().deadline_tick.expect("blitz is timed");
    assert_eq!(deadline, 60);
    // A roll at the deadline is late: the turn has already ended with Time.
    assert_eq!(
        d.refusal(Some(0), deadline, PigAction::Roll),
        Ok("not_your_turn".into())
    );
    let receipt = d.time_out().unwrap().unwrap();
    assert!(game_events(&receipt.events).contains(&PigEvent::TurnEnded {
        seat: Seat(0),
        reason: ExitReason::Timeout
    }));
    assert_eq!(
        edges(&receipt.events),
        ["first-roll-exit", "start-to-first-roll"]
    );
    assert_eq!(acting(&d), 1);
    // Seat 1 holds after a roll (or busts); seat 0 times out again and forfeits.
    let tick = d.state().deadline_tick.unwrap() - 10;
    let events = act(&mut d, 1, tick, PigAction::Roll);
    if die(&events) != Some(1) {
        act(&mut d, 1, tick, PigAction::Hold);
    }
    assert_eq!(acting(&d), 0);
    let receipt = d.time_out().unwrap().unwrap();
    assert!(game_events(&receipt.events).contains(&PigEvent::Forfeited {
        seat: Seat(0),
        timeouts: 2
    }));
    assert_eq!(
        d.state().standing,
        vec![Standing::Forfeited, Standing::Playing]
    );
    let status = Pig::status(&d.game().bundle().content, d.state());
    let MatchStatus::Finished { outcome } = status else {
        panic!("{status:?}")
    };
    assert_eq!(outcome.kind, "timeout");
    assert_eq!(outcome.winners, vec![Seat(1)]);
    assert_eq!(d.state().deadline_tick, None);
}

#[test]
fn a_seat_that_resigns_mid_turn_leaves_at_once_and_the_others_play_on() {
    let mut d = driver("untimed", 3, "resign");
    let events = act(&mut d, 0, 0, PigAction::Resign);
    assert!(game_events(&events).contains(&PigEvent::Resigned { seat: Seat(0) }));
    assert!(game_events(&events).contains(&PigEvent::TurnEnded {
        seat: Seat(0),
        reason: ExitReason::GameRule {
            rule: "removed".into()
        }
    }));
    assert_eq!(acting(&d), 1);
    assert!(d.is_active());
    // Seat 2 resigns out of turn: seat 1 is the last one in and wins.
    act(&mut d, 2, 0, PigAction::Resign);
    let status = Pig::status(&d.game().bundle().content, d.state());
    let MatchStatus::Finished { outcome } = status else {
        panic!("{status:?}")
    };
    assert_eq!(
        (outcome.kind.as_str(), outcome.winners),
        ("resigned", vec![Seat(1)])
    );
}

#[test]
fn reaching_the_target_ends_the_match_only_when_the_round_ends() {
    let bundle = bundle_with(|rules| rules["target"] = 2.into());
    for seed in 0..20 {
        let mut d = driver_in(bundle.clone(), "untimed", 3, &format!("target-{seed}"));
        let events = act(&mut d, 0, 0, PigAction::Roll);
        if die(&events) == Some(1) {
            continue;
        }
        act(&mut d, 0, 0, PigAction::Hold);
        // Seat 0 is past the target, but seats 1 and 2 still have their turn this round.
        assert!(d.is_active());
        assert_eq!(acting(&d), 1);
        act(&mut d, 1, 0, PigAction::Skip);
        assert!(d.is_active());
        let events = act(&mut d, 2, 0, PigAction::Skip);
        assert!(game_events(&events).contains(&PigEvent::RoundEnded {
            round: 1,
            scores: d.state().scores.clone()
        }));
        let status = Pig::status(&d.game().bundle().content, d.state());
        let MatchStatus::Finished { outcome } = status else {
            panic!("{status:?}")
        };
        assert_eq!(
            (outcome.kind.as_str(), outcome.winners),
            ("win", vec![Seat(0)])
        );
        return;
    }
    panic!("no seed rolled past a 1");
}

#[test]
fn the_round_limit_ends_the_match_with_the_leaders_winning_together() {
    let bundle = bundle_with(|rules| rules["maxRounds"] = 1.into());
    let mut d = driver_in(bundle, "untimed", 2, "limit");
    act(&mut d, 0, 0, PigAction::Skip);
    act(&mut d, 1, 0, PigAction::Skip);
    let status = Pig::status(&d.game().bundle().content, d.state());
    let MatchStatus::Finished { outcome } = status else {
        panic!("{status:?}")
    };
    assert_eq!(outcome.kind, "roundLimit");
    assert_eq!(outcome.winners, vec![Seat(0), Seat(1)]);
}

#[test]
fn the_trailing_seat_rolls_first_in_the_next_round() {
    for seed in 0..20 {
        let mut d = driver("untimed", 3, &format!("initiative-{seed}"));
        let events = act(&mut d, 0, 0, PigAction::Roll);
        if die(&events) == Some(1) {
            continue;
        }
        act(&mut d, 0, 0, PigAction::Hold);
        act(&mut d, 1, 0, PigAction::Skip);
        act(&mut d, 2, 0, PigAction::Skip);
        // Round 2 by `0 - owner.score`: seats 1 and 2 (0 points) before seat 0; ties by seat.
        assert_eq!(d.state().round, 2);
        assert_eq!(acting(&d), 1);
        act(&mut d, 1, 0, PigAction::Skip);
        assert_eq!(acting(&d), 2);
        act(&mut d, 2, 0, PigAction::Skip);
        assert_eq!(acting(&d), 0);
        return;
    }
    panic!("no seed rolled past a 1");
}

#[test]
fn a_preview_never_shows_the_die_or_what_follows_from_it() {
    let bundle = bundle();
    let d = driver("untimed", 2, "preview");
    let content = &bundle.content;
    let resolver = LegalActionResolver::<Pig>::new(content, 2);
    let ctx = CommandContext {
        seat: Some(Seat(0)),
        tick: 0,
    };
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let preview = resolver
            .preview(d.state(), ctx, &PigAction::Roll, viewer)
            .unwrap()
            .unwrap();
        let view = serde_json::to_value(&preview.view).unwrap();
        assert_eq!(view["rollPending"], true);
        assert_eq!(view["lastRoll"], 0);
        assert_eq!(view["turnTotal"], 0);
        assert_eq!(view["phase"], "first_roll");
        assert!(
            !preview
                .events
                .iter()
                .any(|e| matches!(e, PigEvent::Rolled { .. } | PigEvent::PhaseChanged { .. })),
            "{:?}",
            preview.events
        );
    }
    // A preview that rolls no die shows its result.
    let preview = resolver
        .preview(d.state(), ctx, &PigAction::Skip, Viewer::Spectator)
        .unwrap()
        .unwrap();
    assert_eq!(serde_json::to_value(&preview.view).unwrap()["toMove"], 1);
}

#[test]
fn content_problems_are_all_reported_at_their_pointers() {
    let mut source = turnstile_pig::content::bundled_source();
    let mut rules: serde_json::Value =
        serde_json::from_str(source.text("rules.json").unwrap()).unwrap();
    rules["target"] = 0.into();
    rules["dieFaces"] = 1.into();
    rules["lifecycle"]["initiative"] = "owner.health".into();
    rules["lifecycle"]["endRoundEffects"] = serde_json::json!(["fireworks"]);
    source.insert("rules.json", rules.to_string().into_bytes());
    let phases = source
        .text("phases/pig.json")
        .unwrap()
        .replace("\"bank-turn-total\"", "\"bank-twice\"");
    source.insert("phases/pig.json", phases.into_bytes());
    let problems = turnstile_pig::content::load(&source).unwrap_err();
    let found: Vec<String> = problems
        .iter()
        .map(|p| format!("{} {:?} {}", p.file, p.at, p.code))
        .collect();
    for (file, pointer, code) in [
        ("rules.json", "/target", "bad_rule_value"),
        ("rules.json", "/dieFaces", "bad_rule_value"),
        ("rules.json", "/lifecycle/initiative", "bad_initiative"),
        (
            "rules.json",
            "/lifecycle/endRoundEffects/0",
            "unknown_effect",
        ),
        (
            "phases/pig.json",
            "/phases/4/entryEffects/0",
            "unknown_effect",
        ),
    ] {
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(file) && f.contains(pointer) && f.ends_with(code)),
            "{file}#{pointer} ({code}) in {found:#?}"
        );
    }
}
