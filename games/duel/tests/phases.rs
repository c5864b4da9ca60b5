//! Legality with phases and priority: the phase filter refuses actions the current phase
//! allows neither by type nor by tag; the priority window of the `priority-window` preset
//! (respond, pass, last-in-first-out resolution, reopening, `no_priority`); phase states that
//! do not resolve against the pinned content; `expectedStep` refused as stale by the runtime.

mod common;

use common::{apply, give, play};
use turnstile_core::{CommandEnvelope, CommandRefusal, Game, Seat};
use turnstile_duel::{Duel, DuelAction, DuelEvent};
use turnstile_runtime::Match;

#[test]
fn the_phase_filter_refuses_actions_the_phase_does_not_allow() {
    let b = common::bundle();
    let mut s = common::state(&b.content, "classic-style", "filter");
    assert_eq!(
        apply(&b.content, &mut s, 0, DuelAction::PassPriority).unwrap_err(),
        "action_not_allowed_in_phase"
    );
    // Seat 1 does not hold priority in seat 0's turn.
    assert_eq!(
        apply(&b.content, &mut s, 1, DuelAction::EndTurn).unwrap_err(),
        "no_priority"
    );
    // No legal kind is listed that the filter would refuse.
    let kinds: Vec<String> = Duel::legal_actions(&b.content, &s, Seat(0))
        .into_iter()
        .map(|k| k.kind)
        .collect();
    assert!(!kinds.contains(&"PASS_PRIORITY".to_owned()), "{kinds:?}");
    assert!(kinds.contains(&"END_TURN".to_owned()), "{kinds:?}");
}

#[test]
fn a_response_window_takes_responses_and_passes_and_resolves_last_in_first_out() {
    let b = common::bundle();
    let c = &b.content;
    let mut s = common::state(c, "priority-window", "window");
    give(&mut s, 0, &["spark", "counterspark"], 5);
    give(&mut s, 1, &["fireball", "counterspark"], 5);
    s.seats[1].mana = 5;
    apply(c, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.phase.cursor, "response_window");
    assert!(s.priority.is_open());
    assert_eq!(s.priority.holder(), Seat(1));
    assert_eq!(s.seats[1].health, 30, "the spark waits on the stack");
    // The turn owner without priority is refused; the holder may not end the turn or play a
    // card that is not a response.
    assert_eq!(
        apply(c, &mut s, 0, DuelAction::PassPriority).unwrap_err(),
        "no_priority"
    );
    assert_eq!(
        apply(c, &mut s, 1, DuelAction::EndTurn).unwrap_err(),
        "action_not_allowed_in_phase"
    );
    assert_eq!(
        apply(c, &mut s, 1, play(0)).unwrap_err(),
        "action_not_allowed_in_phase"
    );
    // A response goes on the stack above the spark.
    apply(c, &mut s, 1, play(1)).unwrap();
    assert_eq!(s.priority.stack().len(), 2);
    assert_eq!(s.priority.holder(), Seat(0));
    apply(c, &mut s, 0, DuelAction::PassPriority).unwrap();
    let events = apply(c, &mut s, 1, DuelAction::PassPriority).unwrap();
    // Both passed in a row: the top (the counterspark) resolved, the window reopened.
    assert!(events.iter().any(
        |e| matches!(e, DuelEvent::CardResolved { seat: Seat(1), card } if card == "counterspark")
    ));
    assert_eq!(s.seats[0].health, 29);
    assert_eq!(s.seats[1].health, 30);
    assert!(s.priority.is_open());
    assert_eq!(
        s.priority.holder(),
        Seat(0),
        "priority returns to the turn owner"
    );
    assert_eq!(s.phase.cursor, "response_window");
    apply(c, &mut s, 0, DuelAction::PassPriority).unwrap();
    apply(c, &mut s, 1, DuelAction::PassPriority).unwrap();
    assert_eq!(s.seats[1].health, 28, "then the spark");
    assert!(!s.priority.is_open());
    assert_eq!(
        s.phase.cursor, "action",
        "the closing pass took the closes_window edge"
    );
    assert_eq!(
        s.step.current(),
        6,
        "every accepted command of the activation counts"
    );
    apply(c, &mut s, 0, DuelAction::EndTurn).unwrap();
    assert_eq!(s.step.current(), 0);
}

#[test]
fn ending_the_activation_with_a_window_open_is_refused_and_a_seat_without_priority_cannot_pass() {
    let b = common::bundle();
    let c = &b.content;
    let mut s = common::state(c, "priority-window", "window2");
    give(&mut s, 0, &["spark"], 1);
    apply(c, &mut s, 0, play(0)).unwrap();
    assert_eq!(
        apply(c, &mut s, 0, DuelAction::EndTurn).unwrap_err(),
        "no_priority"
    );
    apply(c, &mut s, 1, DuelAction::PassPriority).unwrap();
    assert_eq!(
        apply(c, &mut s, 1, DuelAction::PassPriority).unwrap_err(),
        "no_priority"
    );
    assert_eq!(
        apply(c, &mut s, 0, DuelAction::EndTurn).unwrap_err(),
        "action_not_allowed_in_phase"
    );
}

#[test]
fn a_phase_state_that_does_not_resolve_fails_before_anything_runs() {
    let b = common::bundle();
    let c = &b.content;
    let s0 = common::state(c, "classic-style", "resolve");
    let mut s = s0.clone();
    s.phase.cursor = "nowhere".into();
    assert_eq!(
        apply(c, &mut s, 0, DuelAction::EndTurn).unwrap_err(),
        "unknown_cursor"
    );
    let mut s = s0.clone();
    s.phase.content_revision = turnstile_core::Fingerprint::from_digest([7; 32]);
    assert_eq!(
        apply(c, &mut s, 0, DuelAction::EndTurn).unwrap_err(),
        "revision_mismatch"
    );
    let mut s = s0.clone();
    s.phase.sequence_id = "no-such-sequence".into();
    let before = s.clone();
    assert_eq!(
        apply(c, &mut s, 0, DuelAction::EndTurn).unwrap_err(),
        "unknown_sequence"
    );
    assert_eq!(s, before, "nothing changed");
}

#[test]
fn a_stale_expected_step_is_refused_by_the_runtime() {
    // The first seed that deals seat 0 a card it can play on turn 1.
    let (mut m, hand) = (0..50)
        .find_map(|i| {
            let m = Match::<Duel>::new(
                common::bundle(),
                common::spec("priority-window", &format!("step{i}")),
            )
            .unwrap();
            let hand = m.state().seats[0]
                .hand
                .iter()
                .position(|c| m.bundle().content.card(&c.card_id).unwrap().cost <= 1)?;
            Some((m, hand))
        })
        .unwrap();
    let send = |m: &mut Match<Duel>, id: &str, seat: u16, step: u64, action: DuelAction| {
        m.submit(CommandEnvelope {
            command_id: id.into(),
            seat: Some(Seat(seat)),
            expected_sequence: m.sequence(),
            expected_step: Some(step),
            tick: 0,
            action,
        })
        .map(|_| ())
    };
    send(&mut m, "a", 0, 0, play(hand as u16)).unwrap();
    assert_eq!(Duel::step(m.state()), 1);
    let err = send(&mut m, "b", 1, 0, DuelAction::PassPriority).unwrap_err();
    assert!(
        matches!(
            err,
            CommandRefusal::StaleStep {
                expected: 0,
                current: 1
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.code(), "stale_step");
    send(&mut m, "b", 1, 1, DuelAction::PassPriority).unwrap();
}

#[test]
fn legal_actions_list_the_playable_hand_indices_as_a_range() {
    let b = common::bundle();
    let mut s = common::state(&b.content, "classic-style", "kinds");
    give(&mut s, 0, &["fireball", "spark", "meteor", "mend"], 2);
    let kinds = Duel::legal_actions(&b.content, &s, Seat(0));
    let play = kinds.iter().find(|k| k.kind == "PLAY_CARD").unwrap();
    assert_eq!(
        play.params[0].range,
        turnstile_core::ParamRange::OneOf {
            values: vec![1i64.into(), 3i64.into()]
        }
    );
    let names: Vec<&str> = kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(names, ["PLAY_CARD", "END_TURN", "SKIP", "RESIGN"]);
    // Seat 1, without priority, may only resign.
    let names: Vec<String> = Duel::legal_actions(&b.content, &s, Seat(1))
        .into_iter()
        .map(|k| k.kind)
        .collect();
    assert_eq!(names, ["RESIGN"]);
}
