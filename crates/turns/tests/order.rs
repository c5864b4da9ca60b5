//! One test per turn-order rule of spec/turns.md: commanders, rounds, joining, leaving, skipping.

mod common;

use common::{configs, id, Recorder};
use turnstile_core::Seat;
use turnstile_turns::{
    Commander, CommanderId, EntityId, LoopOutcome, MatchTurns, NoSignals, RecomputeAt, ResetTurn,
    SkipReason, TurnEndReason, TurnEvent, TurnStatus, TurnType, Turns,
};

type Event = TurnEvent<u32, ()>;

fn cid(name: &str) -> CommanderId {
    CommanderId::new(name)
}

fn three_seats() -> MatchTurns {
    MatchTurns::new([Seat(0), Seat(1), Seat(2)])
}

/// The seats whose turns began, in order, read from the events.
fn activations(events: &[Event]) -> Vec<Option<u16>> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TurnBegan { player, .. } => Some(player.map(|s| s.0)),
            _ => None,
        })
        .collect()
}

/// Ends the acting commander's turn `n` times, returning the acting commander after each begin.
fn run_turns(turns: &mut Turns<'_, u32, ()>, game: &mut Recorder, n: usize) -> Vec<String> {
    let mut acted = Vec::new();
    for _ in 0..n {
        let acting = turns
            .order()
            .acting()
            .expect("a commander is acting")
            .clone();
        acted.push(acting.to_string());
        turns.end_turn(game, TurnEndReason::Play).unwrap();
    }
    acted
}

#[test]
fn a_round_visits_by_priority_highest_first() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("slow", Some(Seat(0)), 1))
        .unwrap();
    turns
        .add_commander(Commander::new("fast", Some(Seat(1)), 9))
        .unwrap();
    turns
        .add_commander(Commander::new("mid", Some(Seat(2)), 5))
        .unwrap();
    let outcome = turns.start_loop(&mut game).unwrap();
    assert_eq!(
        outcome,
        LoopOutcome::Activated {
            commander: cid("fast")
        }
    );
    assert_eq!(
        run_turns(&mut turns, &mut game, 6),
        ["fast", "mid", "slow", "fast", "mid", "slow"]
    );
    assert_eq!(turns.order().round(), 3);
}

#[test]
fn ties_break_by_registration_order_then_id_never_by_container_order() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    // Same priority: registration order decides, whatever the ids sort like.
    for name in ["zed", "amy", "bob"] {
        turns
            .add_commander(Commander::new(name, Some(Seat(0)), 3))
            .unwrap();
    }
    turns
        .add_commander(Commander::new("boss", None, 4))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    assert_eq!(
        run_turns(&mut turns, &mut game, 4),
        ["boss", "zed", "amy", "bob"]
    );
    let order: Vec<&str> = turns
        .order()
        .visiting_order()
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(order, ["boss", "zed", "amy", "bob"]);

    // Two registrations with equal numbers (a hand-built state) fall back to the id.
    let mut json = serde_json::to_value(turns.state()).unwrap();
    drop(turns);
    for registration in json["order"]["registered"].as_array_mut().unwrap() {
        registration["registration"] = serde_json::json!(0);
    }
    let tied: MatchTurns = serde_json::from_value(json).unwrap();
    let order: Vec<&str> = tied
        .order()
        .visiting_order()
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(order, ["boss", "amy", "bob", "zed"]);
}

#[test]
fn pending_commanders_join_at_the_next_loop_boundary_never_mid_round() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 5))
        .unwrap();
    turns
        .add_commander(Commander::new("b", Some(Seat(1)), 3))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    // Mid-round, a faster commander arrives: it waits for the boundary.
    turns
        .add_commander(Commander::new("c", Some(Seat(2)), 9))
        .unwrap();
    assert_eq!(turns.order().pending().count(), 1);
    assert_eq!(run_turns(&mut turns, &mut game, 2), ["a", "b"]);
    assert_eq!(run_turns(&mut turns, &mut game, 3), ["c", "a", "b"]);
    let events = turns.into_events();
    let joined = events
        .iter()
        .position(|e| matches!(e, Event::CommanderJoined { commander, round: 2 } if commander.as_str() == "c"))
        .expect("c joined at round 2");
    let round_two = events
        .iter()
        .position(|e| *e == Event::RoundStarted { round: 2 })
        .unwrap();
    assert!(joined < round_two);
}

#[test]
fn removing_the_acting_commander_ends_its_turn_with_removed_at_once() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 5).with_entity(EntityId(1)))
        .unwrap();
    turns
        .add_commander(Commander::new("b", Some(Seat(1)), 3))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    turns.take_events();
    turns.remove_commander(&mut game, &cid("a")).unwrap();
    let events = turns.take_events();
    assert_eq!(
        events[0],
        Event::CommanderRemoved {
            commander: cid("a")
        }
    );
    assert!(events.contains(&Event::TurnEnded {
        turn_index: 1,
        player: Some(Seat(0)),
        entity: Some(EntityId(1)),
        reason: TurnEndReason::Removed,
        ticks: 0
    }));
    // The loop moved on at once, and "a" never comes back.
    assert_eq!(turns.order().acting(), Some(&cid("b")));
    assert_eq!(run_turns(&mut turns, &mut game, 3), ["b", "b", "b"]);
    assert_eq!(turns.clock().seat(Seat(0)).unwrap().number, 1);
}

#[test]
fn removal_takes_a_commander_out_of_the_pending_set_and_the_rest_of_the_round() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 5))
        .unwrap();
    turns
        .add_commander(Commander::new("b", Some(Seat(1)), 3))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    turns
        .add_commander(Commander::new("late", Some(Seat(2)), 9))
        .unwrap();
    turns.remove_commander(&mut game, &cid("b")).unwrap();
    turns.remove_commander(&mut game, &cid("late")).unwrap();
    assert_eq!(
        turns.order().acting(),
        Some(&cid("a")),
        "removing others leaves the turn alone"
    );
    assert_eq!(run_turns(&mut turns, &mut game, 2), ["a", "a"]);
    assert_eq!(
        turns
            .remove_commander(&mut game, &cid("b"))
            .unwrap_err()
            .code(),
        "unknown_commander"
    );
    assert_eq!(
        turns
            .add_commander(Commander::new("a", None, 0))
            .unwrap_err()
            .code(),
        "duplicate_commander"
    );
}

#[test]
fn a_commander_that_cannot_act_is_skipped_with_an_event() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder {
        refuse: vec![("b".into(), SkipReason::Stunned)],
        ..Recorder::default()
    };
    let mut turns = state.turns(&configs);
    for (name, priority) in [("a", 3), ("b", 2), ("c", 1)] {
        turns
            .add_commander(Commander::new(name, Some(Seat(0)), priority))
            .unwrap();
    }
    turns.start_loop(&mut game).unwrap();
    assert_eq!(run_turns(&mut turns, &mut game, 4), ["a", "c", "a", "c"]);
    let skipped: Vec<Event> = turns
        .events()
        .iter()
        .filter(|e| matches!(e, Event::CommanderSkipped { .. }))
        .cloned()
        .collect();
    assert_eq!(
        skipped,
        vec![
            Event::CommanderSkipped {
                commander: cid("b"),
                reason: SkipReason::Stunned
            };
            2
        ]
    );
    assert_eq!(
        turns.clock().turn_index(),
        5,
        "a skipped commander takes no turn"
    );
}

#[test]
fn a_loop_where_nobody_can_act_stalls_after_one_round_instead_of_spinning() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder {
        refuse: vec![
            ("a".into(), SkipReason::Dead),
            ("b".into(), SkipReason::Frozen),
        ],
        ..Recorder::default()
    };
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 2))
        .unwrap();
    turns
        .add_commander(Commander::new("b", Some(Seat(1)), 1))
        .unwrap();
    assert_eq!(
        turns.start_loop(&mut game).unwrap(),
        LoopOutcome::Stalled { round: 1 }
    );
    assert!(!turns.clock().turn_in_progress());
    assert_eq!(
        turns.events().last(),
        Some(&Event::TurnOrderStalled { round: 1 })
    );
    // The game changes its mind (b thaws); advancing again plays the next round.
    game.refuse.retain(|(id, _)| id != "b");
    assert_eq!(
        turns.advance_loop(&mut game).unwrap(),
        LoopOutcome::Activated {
            commander: cid("b")
        }
    );
    assert_eq!(turns.order().round(), 2);
}

#[test]
fn game_logic_ending_every_turn_at_once_hits_the_activation_limit() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder {
        end_at_once: true,
        ..Recorder::default()
    };
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 1))
        .unwrap();
    let error = turns.start_loop(&mut game).unwrap_err();
    assert_eq!(error.code(), "activation_limit_exceeded");
}

#[test]
fn priorities_are_recomputed_every_round_when_configured() {
    let configs = configs();
    let mut state = three_seats().with_priority_recompute(RecomputeAt::EveryRound);
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 5))
        .unwrap();
    turns
        .add_commander(Commander::new("b", Some(Seat(1)), 3))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    // b gets a speed buff mid-round: not before the next round.
    game.priorities = vec![("b".into(), 10)];
    assert_eq!(run_turns(&mut turns, &mut game, 4), ["a", "b", "b", "a"]);
    assert!(turns.events().contains(&Event::CommanderPriorityChanged {
        commander: cid("b"),
        previous: 3,
        current: 10
    }));
    assert_eq!(turns.order().get(&cid("b")).unwrap().priority, 10);
}

#[test]
fn priorities_are_recomputed_before_every_activation_when_configured() {
    let configs = configs();
    let mut state = three_seats().with_priority_recompute(RecomputeAt::EveryActivation);
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    for (name, priority) in [("a", 5), ("b", 4), ("c", 3)] {
        turns
            .add_commander(Commander::new(name, Some(Seat(0)), priority))
            .unwrap();
    }
    turns.start_loop(&mut game).unwrap();
    // During a's turn, c becomes faster than b: the rest of this round re-sorts.
    game.priorities = vec![("c".into(), 9)];
    assert_eq!(run_turns(&mut turns, &mut game, 4), ["a", "c", "b", "c"]);

    // With `Never`, the game's answers are never asked for.
    let mut state = three_seats();
    let mut turns = state.turns(&configs);
    for (name, priority) in [("a", 5), ("b", 4), ("c", 3)] {
        turns
            .add_commander(Commander::new(name, Some(Seat(0)), priority))
            .unwrap();
    }
    turns.start_loop(&mut game).unwrap();
    assert_eq!(run_turns(&mut turns, &mut game, 4), ["a", "b", "c", "a"]);
}

#[test]
fn one_activation_resets_the_current_turn_for_the_commanders_seat_and_entity() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(
            Commander::new("knight", Some(Seat(2)), 1)
                .with_entity(EntityId(77))
                .with_config(id("timed")),
        )
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    let current = turns.clock().current().clone();
    assert_eq!(current.player, Some(Seat(2)));
    assert_eq!(current.entity, Some(EntityId(77)));
    assert_eq!(current.config, Some(id("timed")));
    assert_eq!(current.turn_type, TurnType::Play);
    assert_eq!(current.status, TurnStatus::Active);
    assert!(turns.order().is_turn(&cid("knight")));
    // Its turn times out; the seat accumulates it and the next activation begins at the deadline.
    turns.advance_to(&mut game, 25).unwrap();
    assert_eq!(turns.clock().seat(Seat(2)).unwrap().number, 2);
    assert_eq!(turns.clock().seat(Seat(2)).unwrap().ticks, 20);
    assert_eq!(turns.clock().current().ticks, 5);
    assert_eq!(turns.clock().turn_index(), 3);
}

#[test]
fn a_seat_may_own_several_commanders_each_taking_its_own_activation() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("archer", Some(Seat(0)), 3).with_entity(EntityId(1)))
        .unwrap();
    turns
        .add_commander(Commander::new("orc", Some(Seat(1)), 2))
        .unwrap();
    turns
        .add_commander(Commander::new("mage", Some(Seat(0)), 1).with_entity(EntityId(2)))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    let mut entities = Vec::new();
    for _ in 0..3 {
        entities.push(turns.clock().current().entity);
        let seat = turns.clock().current().player.unwrap();
        turns.play(&mut game, seat, 0).unwrap();
        turns.resolve(&mut game).unwrap();
    }
    assert_eq!(entities, [Some(EntityId(1)), None, Some(EntityId(2))]);
    assert_eq!(turns.clock().seat(Seat(0)).unwrap().number, 2);
    assert_eq!(turns.clock().seat(Seat(1)).unwrap().number, 1);
    let began = activations(turns.events());
    assert_eq!(began, [Some(0), Some(1), Some(0), Some(0)]);
}

#[test]
fn an_empty_loop_ends_its_round_at_once_without_spinning() {
    let configs = configs();
    let mut state = three_seats();
    let before = state.clone();
    let mut turns = state.turns::<u32, ()>(&configs);
    assert_eq!(
        turns.advance_loop(&mut NoSignals).unwrap(),
        LoopOutcome::Idle
    );
    assert!(turns.events().is_empty());
    drop(turns);
    assert_eq!(state, before, "an empty round is not counted");

    // A loop emptied mid-game goes idle too.
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("only", Some(Seat(0)), 1))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    turns.remove_commander(&mut game, &cid("only")).unwrap();
    assert!(!turns.clock().turn_in_progress());
    assert_eq!(turns.order().round(), 1);
    assert_eq!(turns.advance_loop(&mut game).unwrap(), LoopOutcome::Idle);
}

#[test]
fn the_loop_waits_for_a_turn_the_game_put_in_between() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    // An intro countdown runs before the loop starts.
    turns
        .begin_turn(
            &mut game,
            ResetTurn::new()
                .with_player(None)
                .with_type(TurnType::Countdown)
                .with_config(Some(id("timed"))),
        )
        .unwrap();
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 1))
        .unwrap();
    assert_eq!(turns.start_loop(&mut game).unwrap(), LoopOutcome::Waiting);
    assert_eq!(turns.order().acting(), None);
    assert_eq!(
        turns.advance_loop(&mut game).unwrap_err().code(),
        "turn_in_progress"
    );
    turns.advance_to(&mut game, 10).unwrap();
    assert_eq!(turns.order().acting(), Some(&cid("a")));
    assert_eq!(turns.clock().current().turn_type, TurnType::Play);
}

#[test]
fn stopping_the_loop_lets_the_turn_in_progress_finish_and_begins_nothing() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("a", Some(Seat(0)), 1))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    turns.stop_loop().unwrap();
    turns.end_turn(&mut game, TurnEndReason::Play).unwrap();
    assert!(!turns.clock().turn_in_progress());
    assert_eq!(turns.order().acting(), None);
}

#[test]
fn commanders_naming_unknown_seats_or_configs_are_refused() {
    let configs = configs();
    let mut state = three_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    assert_eq!(
        turns
            .add_commander(Commander::new("x", Some(Seat(9)), 1))
            .unwrap_err()
            .code(),
        "unknown_seat"
    );
    assert_eq!(
        turns
            .add_commander(Commander::new("x", Some(Seat(0)), 1).with_config(id("nope")))
            .unwrap_err()
            .code(),
        "unknown_turn_config"
    );
    assert_eq!(turns.order().pending().count(), 0);
}

#[test]
fn a_commander_without_a_seat_refuses_every_seats_play() {
    let configs = configs();
    let mut state = three_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .add_commander(Commander::new("dungeon", None, 1))
        .unwrap();
    turns.start_loop(&mut game).unwrap();
    for seat in 0..3 {
        assert_eq!(
            turns.play(&mut game, Seat(seat), 1).unwrap_err().code(),
            "not_your_turn"
        );
    }
}

/// `can_time_out`: true when the current turn's config or any commander's (here pending) uses
/// a timer; false only when none can. Commanders that share
/// the current turn's config are answered by it (the lookup is skipped, the answer is not).
#[test]
fn a_match_can_time_out_when_the_current_turn_or_any_commander_is_timed() {
    let configs = configs();
    let with = |config: Option<&str>| {
        let c = Commander::new("c", Some(Seat(0)), 1);
        match config {
            Some(name) => c.with_config(id(name)),
            None => c,
        }
    };
    // (current turn's config, commanders' configs, expected)
    type Case<'a> = (Option<&'a str>, &'a [Option<&'a str>], bool);
    let cases: [Case; 6] = [
        (Some("untimed"), &[Some("untimed"), Some("untimed")], false),
        (None, &[None, None], false),
        (Some("untimed"), &[Some("untimed"), Some("timed")], true),
        (Some("untimed"), &[None, Some("short")], true),
        (Some("timed"), &[Some("timed"), Some("timed")], true),
        (None, &[None, Some("untimed"), Some("forfeit")], true),
    ];
    for (current, commanders, expected) in cases {
        let mut state = three_seats();
        let mut turns = state.turns::<u32, ()>(&configs);
        for (n, config) in commanders.iter().enumerate() {
            let mut commander = with(*config);
            commander.id = cid(&format!("c{n}"));
            turns.add_commander(commander).unwrap();
        }
        turns
            .reset(
                &mut NoSignals,
                ResetTurn::new().with_config(current.map(id)),
            )
            .unwrap();
        drop(turns);
        assert_eq!(
            state.can_time_out(&configs),
            expected,
            "current {current:?}, commanders {commanders:?}"
        );
    }
}
