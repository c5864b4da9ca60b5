//! One test per framework rule of spec/turns.md: turn data, timer, time as an input, commands.

mod common;

use common::{configs, id, turn_for, two_seats, Recorder};
use turnstile_core::Seat;
use turnstile_turns::{
    timeout_command_id, EntityId, MatchTurns, NoSignals, ResetTurn, TurnCommand, TurnConfigs,
    TurnData, TurnEndReason, TurnError, TurnEvent, TurnStatus, TurnType,
};

type Event = TurnEvent<u32, ()>;

fn codes<T>(result: Result<T, TurnError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(e) => e.code(),
    }
}

// ----- turn data -------------------------------------------------------------------------------

#[test]
fn set_type_emits_only_on_real_change() {
    let mut data = TurnData::default();
    let mut events: Vec<TurnEvent> = Vec::new();
    assert!(!data.set_type(TurnType::Play, &mut events));
    assert!(events.is_empty());
    assert!(data.set_type(TurnType::Countdown, &mut events));
    assert!(!data.set_type(TurnType::Countdown, &mut events));
    assert_eq!(
        events,
        vec![TurnEvent::TurnTypeChanged {
            previous: TurnType::Play,
            current: TurnType::Countdown
        }]
    );
}

#[test]
fn set_status_emits_only_on_real_change_and_activated_on_becoming_active() {
    let mut data = TurnData::for_seat(Seat(1));
    let mut events: Vec<TurnEvent> = Vec::new();
    assert!(!data.set_status(TurnStatus::Inactive, &mut events));
    assert!(data.set_status(TurnStatus::Active, &mut events));
    assert!(!data.set_status(TurnStatus::Active, &mut events));
    assert!(data.set_status(TurnStatus::Resolving, &mut events));
    assert_eq!(
        events,
        vec![
            TurnEvent::TurnStatusChanged {
                previous: TurnStatus::Inactive,
                current: TurnStatus::Active
            },
            TurnEvent::TurnActivated {
                player: Some(Seat(1)),
                entity: None
            },
            TurnEvent::TurnStatusChanged {
                previous: TurnStatus::Active,
                current: TurnStatus::Resolving
            },
        ]
    );
}

#[test]
fn accumulate_adds_ticks_and_counts_one_turn() {
    let mut seat = TurnData {
        ticks: 5,
        number: 2,
        ..TurnData::for_seat(Seat(0))
    };
    let finished = TurnData {
        ticks: 7,
        number: 40,
        ..TurnData::default()
    };
    seat.accumulate(&finished);
    assert_eq!((seat.ticks, seat.number), (12, 3));
}

#[test]
fn reset_zeroes_ticks_replaces_named_fields_only_and_emits_timer_reset() {
    let mut data = TurnData {
        player: Some(Seat(0)),
        entity: Some(EntityId(4)),
        config: Some(id("timed")),
        ticks: 9,
        number: 3,
        ..TurnData::default()
    };
    let mut events: Vec<TurnEvent> = Vec::new();
    data.reset(ResetTurn::new(), &mut events);
    assert_eq!(data.ticks, 0);
    assert_eq!(
        (data.player, data.entity, data.number),
        (Some(Seat(0)), Some(EntityId(4)), 3)
    );
    assert_eq!(events, vec![TurnEvent::TurnTimerReset]);

    events.clear();
    data.reset(
        ResetTurn::new()
            .with_player(Some(Seat(1)))
            .with_entity(None)
            .with_config(None)
            .with_type(TurnType::Countdown),
        &mut events,
    );
    assert_eq!(data.player, Some(Seat(1)));
    assert_eq!(data.entity, None);
    assert_eq!(data.config, None);
    assert_eq!(data.turn_type, TurnType::Countdown);
    assert_eq!(
        events,
        vec![
            TurnEvent::TurnTimerReset,
            TurnEvent::TurnTypeChanged {
                previous: TurnType::Play,
                current: TurnType::Countdown
            }
        ]
    );
}

// ----- timer -----------------------------------------------------------------------------------

#[test]
fn timer_ends_the_turn_with_time_at_its_deadline_and_the_seat_accumulates() {
    let configs = configs();
    let mut state = two_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns.advance_to(&mut game, 5).unwrap();
    turns
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();
    assert_eq!(turns.deadline_tick().unwrap(), Some(15));
    turns.advance_to(&mut game, 14).unwrap();
    assert_eq!(turns.clock().current().ticks, 9);
    assert!(turns.clock().turn_in_progress());
    turns.take_events();
    turns.advance_to(&mut game, 20).unwrap();
    let events = turns.into_events();
    assert_eq!(
        events,
        vec![
            Event::TurnStatusChanged {
                previous: TurnStatus::Active,
                current: TurnStatus::Inactive
            },
            Event::TurnEnded {
                turn_index: 1,
                player: Some(Seat(0)),
                entity: None,
                reason: TurnEndReason::Time,
                ticks: 10
            },
        ]
    );
    let seat = state.clock().seat(Seat(0)).unwrap();
    assert_eq!((seat.ticks, seat.number), (10, 1));
    assert_eq!(state.clock().last_tick(), 20);
    assert_eq!(game.log, vec!["began 1 Some(0)", "ended 1 Some(0) Time"]);
}

#[test]
fn a_command_stamped_exactly_at_the_deadline_is_late() {
    let configs = configs();
    // One tick before the deadline: accepted.
    let mut state = two_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();
    turns.advance_to(&mut game, 9).unwrap();
    assert_eq!(codes(turns.play(&mut game, Seat(0), 1)), "ok");

    // At the deadline: the timer is checked first, the turn has ended with Time.
    let mut state = two_seats();
    let mut turns = state.turns(&configs);
    turns
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();
    let deadline = turns.deadline_tick().unwrap().unwrap();
    assert_eq!(deadline, 10);
    turns.advance_to(&mut game, deadline).unwrap();
    assert_eq!(codes(turns.play(&mut game, Seat(0), 1)), "turn_not_active");
    assert!(turns.events().iter().any(|e| matches!(
        e,
        Event::TurnEnded {
            reason: TurnEndReason::Time,
            ..
        }
    )));
}

#[test]
fn a_turn_without_config_never_times_out() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    turns.begin_turn(&mut NoSignals, turn_for(0, None)).unwrap();
    assert_eq!(turns.deadline_tick().unwrap(), None);
    turns.advance_to(&mut NoSignals, 1_000_000).unwrap();
    assert!(turns.clock().turn_in_progress());
    assert_eq!(turns.clock().current().ticks, 0);
}

#[test]
fn a_turn_whose_config_has_no_timer_never_times_out() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    turns
        .begin_turn(&mut NoSignals, turn_for(0, Some("untimed")))
        .unwrap();
    assert_eq!(turns.deadline_tick().unwrap(), None);
    turns.advance_to(&mut NoSignals, 1_000_000).unwrap();
    assert!(turns.clock().turn_in_progress());
    assert_eq!(turns.clock().current().ticks, 0);
}

#[test]
fn an_unknown_config_id_is_refused_before_anything_runs() {
    let configs = configs();
    let mut state = two_seats();
    let before = state.clone();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    let error = turns
        .begin_turn(&mut game, turn_for(0, Some("nope")))
        .unwrap_err();
    assert_eq!(error.code(), "unknown_turn_config");
    assert!(turns.events().is_empty());
    drop(turns);
    assert_eq!(state, before);
    assert!(game.log.is_empty());

    // A loaded state naming a config the pinned content lacks fails verification.
    let mut state = two_seats();
    state
        .turns::<u32, ()>(&configs)
        .begin_turn(&mut NoSignals, turn_for(0, Some("timed")))
        .unwrap();
    assert_eq!(state.verify(&configs), Ok(()));
    assert_eq!(
        codes(state.verify(&TurnConfigs::new())),
        "unknown_turn_config"
    );
}

#[test]
fn ticks_never_go_backwards() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    turns
        .begin_turn(&mut NoSignals, turn_for(0, Some("timed")))
        .unwrap();
    turns.advance_to(&mut NoSignals, 7).unwrap();
    let error = turns.advance_to(&mut NoSignals, 6).unwrap_err();
    assert_eq!(
        error,
        TurnError::TickWentBackwards {
            last_tick: 7,
            tick: 6
        }
    );
    assert_eq!(error.code(), "tick_went_backwards");
    assert_eq!(turns.clock().last_tick(), 7);
    assert_eq!(turns.clock().current().ticks, 7);
    assert_eq!(
        codes(turns.timeout(&mut NoSignals, 1, 6)),
        "tick_went_backwards"
    );
    // The same tick again is fine: several commands share a tick.
    assert_eq!(codes(turns.advance_to(&mut NoSignals, 7)), "ok");
}

#[test]
fn resolving_stops_the_timer_until_the_game_reports_resolved() {
    let configs = configs();
    let mut state = two_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();
    turns.advance_to(&mut game, 4).unwrap();
    turns.play(&mut game, Seat(0), 7).unwrap();
    assert_eq!(turns.clock().current().status, TurnStatus::Resolving);
    assert_eq!(turns.deadline_tick().unwrap(), None);
    turns.advance_to(&mut game, 500).unwrap();
    assert_eq!(turns.clock().current().ticks, 4);
    assert!(turns.clock().turn_in_progress());
}

#[test]
fn the_turn_index_rises_at_every_new_turn_but_not_when_a_turn_resumes() {
    let configs = configs();
    let mut state = two_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    assert_eq!(turns.clock().turn_index(), 0);
    turns
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();
    assert_eq!(turns.clock().turn_index(), 1);
    turns.play(&mut game, Seat(0), 1).unwrap();
    // Resolution done, same player acts again: a resume, not a new turn.
    turns.set_status(&mut game, TurnStatus::Active).unwrap();
    assert_eq!(turns.clock().turn_index(), 1);
    // Pausing and resuming does not end the turn either.
    turns.set_status(&mut game, TurnStatus::Inactive).unwrap();
    turns.set_status(&mut game, TurnStatus::Active).unwrap();
    assert_eq!(turns.clock().turn_index(), 1);
    turns
        .end_turn(&mut game, TurnEndReason::Custom("resigned".into()))
        .unwrap();
    assert_eq!(
        codes(turns.end_turn(&mut game, TurnEndReason::Skip)),
        "no_turn_in_progress"
    );
    turns.set_status(&mut game, TurnStatus::Active).unwrap();
    assert_eq!(turns.clock().turn_index(), 2);
    assert_eq!(
        codes(turns.begin_turn(&mut game, turn_for(1, None))),
        "turn_in_progress"
    );
    assert_eq!(
        game.log,
        vec![
            "began 1 Some(0)",
            "play 0 1",
            "ended 1 Some(0) Custom(\"resigned\")",
            "began 2 Some(0)"
        ]
    );
}

#[test]
fn within_one_jump_the_next_turn_starts_at_the_previous_deadline() {
    let configs = configs();
    let mut state = two_seats();
    let mut game = Recorder {
        pass_to_next: Some((2, Some("timed".into()))),
        ..Recorder::default()
    };
    let mut turns = state.turns(&configs);
    turns
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();
    // Deadlines at 10, 20, 30: a jump to 25 ends two turns and leaves the third 5 ticks in.
    turns.advance_to(&mut game, 25).unwrap();
    assert_eq!(turns.clock().turn_index(), 3);
    assert_eq!(turns.clock().current().player, Some(Seat(0)));
    assert_eq!(turns.clock().current().ticks, 5);
    assert_eq!(turns.deadline_tick().unwrap(), Some(30));
    assert_eq!(turns.clock().seat(Seat(0)).unwrap().ticks, 10);
    assert_eq!(turns.clock().seat(Seat(1)).unwrap().ticks, 10);
}

// ----- the Timeout command, ClockResumed -------------------------------------------------------

#[test]
fn the_timeout_command_names_the_turn_index_and_records_its_time_end() {
    let configs = configs();
    let mut state = two_seats();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();
    let index = turns.clock().turn_index();
    assert_eq!(timeout_command_id(index), "timeout:1");
    let deadline = turns.deadline_tick().unwrap().unwrap();
    turns.take_events();
    turns.timeout(&mut game, index, deadline).unwrap();
    assert!(turns.events().contains(&Event::TurnEnded {
        turn_index: 1,
        player: Some(Seat(0)),
        entity: None,
        reason: TurnEndReason::Time,
        ticks: 10
    }));
}

#[test]
fn a_timeout_for_a_turn_that_already_ended_is_stale_and_never_times_out_the_next_turn() {
    let configs = configs();
    let mut state = two_seats();
    let mut game = Recorder {
        pass_to_next: Some((2, Some("timed".into()))),
        ..Recorder::default()
    };
    state
        .turns(&configs)
        .begin_turn(&mut game, turn_for(0, Some("timed")))
        .unwrap();

    // Node A times out turn 1 at its deadline; turn 2 begins at once.
    let mut turns = state.turns(&configs);
    turns.timeout(&mut game, 1, 10).unwrap();
    drop(turns);
    assert_eq!(state.clock().turn_index(), 2);

    // Node B, racing, submits the same timeout later: stale, and turn 2 is untouched.
    let before = state.clone();
    let mut turns = state.turns(&configs);
    let error = turns.timeout(&mut game, 1, 19).unwrap_err();
    assert_eq!(error, TurnError::StaleTimeout { turn_index: 1 });
    assert_eq!(error.code(), "stale_timeout");
    assert!(turns.events().is_empty());
    drop(turns);
    assert_eq!(state, before);

    // A turn that ended by a Play is stale too.
    let mut turns = state.turns(&configs);
    game.end_play_at_once = true;
    turns.play(&mut game, Seat(1), 3).unwrap();
    assert_eq!(codes(turns.timeout(&mut game, 2, 20)), "stale_timeout");
    assert!(turns.clock().check_timeout(3).is_ok());
}

#[test]
fn a_timeout_before_the_deadline_or_for_a_future_turn_is_refused() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    assert_eq!(codes(turns.timeout(&mut NoSignals, 0, 5)), "unknown_turn");
    turns
        .begin_turn(&mut NoSignals, turn_for(0, Some("timed")))
        .unwrap();
    assert_eq!(codes(turns.timeout(&mut NoSignals, 2, 50)), "unknown_turn");
    let error = turns.timeout(&mut NoSignals, 1, 9).unwrap_err();
    assert_eq!(
        error,
        TurnError::TimeoutNotDue {
            turn_index: 1,
            tick: 9,
            deadline_tick: Some(10)
        }
    );
    assert_eq!(
        turns.clock().last_tick(),
        0,
        "a refused timeout changes nothing"
    );
}

#[test]
fn clock_resumed_shifts_the_clock_so_deadlines_in_an_outage_are_extended() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    turns
        .begin_turn(&mut NoSignals, turn_for(0, Some("timed")))
        .unwrap();
    turns.advance_to(&mut NoSignals, 4).unwrap();
    // Last heartbeat at 6, the node died; another took over at 106.
    turns.take_events();
    turns.resume_clock(&mut NoSignals, 6, 106).unwrap();
    assert_eq!(
        turns.events(),
        &[Event::ClockResumed {
            outage_start_tick: 6,
            takeover_tick: 106,
            shift_ticks: 100
        }]
    );
    assert!(turns.clock().turn_in_progress());
    assert_eq!(turns.clock().current().ticks, 6);
    assert_eq!(turns.deadline_tick().unwrap(), Some(110));
    assert_eq!(turns.clock().paused_ticks(), 100);
    assert_eq!(turns.clock().last_tick(), 106);
}

#[test]
fn clock_resumed_ends_a_turn_whose_deadline_passed_before_the_last_heartbeat() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    turns
        .begin_turn(&mut NoSignals, turn_for(0, Some("timed")))
        .unwrap();
    turns.resume_clock(&mut NoSignals, 10, 50).unwrap();
    assert!(!turns.clock().turn_in_progress());
    assert_eq!(turns.clock().seat(Seat(0)).unwrap().ticks, 10);
    assert_eq!(
        codes(turns.resume_clock(&mut NoSignals, 60, 55)),
        "resume_before_heartbeat"
    );
    assert_eq!(
        codes(turns.resume_clock(&mut NoSignals, 40, 45)),
        "tick_went_backwards"
    );
}

// ----- commands --------------------------------------------------------------------------------

fn active_turn_of_seat_0(config: Option<&str>) -> MatchTurns {
    let mut state = two_seats();
    state
        .turns::<u32, ()>(&configs())
        .begin_turn(&mut NoSignals, turn_for(0, config))
        .unwrap();
    state
}

/// A refused command changes nothing and calls no signal.
fn refused(state: &mut MatchTurns, seat: u16, command: TurnCommand<u32, ()>) -> &'static str {
    let configs = configs();
    let before = state.clone();
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    let code = codes(turns.command(&mut game, Seat(seat), command));
    assert!(turns.events().is_empty(), "{code}: a refusal emits nothing");
    drop(turns);
    assert_eq!(*state, before, "{code}: a refusal changes nothing");
    assert!(game.log.is_empty(), "{code}: a refusal calls no signal");
    code
}

#[test]
fn refusal_not_your_turn() {
    let mut state = active_turn_of_seat_0(Some("skippable"));
    assert_eq!(
        refused(&mut state, 1, TurnCommand::Play(1)),
        "not_your_turn"
    );
    assert_eq!(
        refused(&mut state, 1, TurnCommand::Skip(())),
        "not_your_turn"
    );
}

#[test]
fn refusal_turn_not_active() {
    let mut state = two_seats();
    assert_eq!(
        refused(&mut state, 0, TurnCommand::Play(1)),
        "turn_not_active"
    );
    let mut state = active_turn_of_seat_0(Some("skippable"));
    state
        .turns::<u32, ()>(&configs())
        .set_status(&mut NoSignals, TurnStatus::Inactive)
        .unwrap();
    assert_eq!(
        refused(&mut state, 0, TurnCommand::Skip(())),
        "turn_not_active"
    );
}

#[test]
fn refusal_not_play_turn() {
    let mut state = active_turn_of_seat_0(Some("skippable"));
    state
        .turns::<u32, ()>(&configs())
        .set_type(TurnType::Countdown)
        .unwrap();
    assert_eq!(
        refused(&mut state, 0, TurnCommand::Play(1)),
        "not_play_turn"
    );
    state
        .turns::<u32, ()>(&configs())
        .set_type(TurnType::Custom("shop".into()))
        .unwrap();
    assert_eq!(
        refused(&mut state, 0, TurnCommand::Play(1)),
        "not_play_turn"
    );
}

#[test]
fn refusal_not_skippable() {
    let mut state = active_turn_of_seat_0(Some("timed"));
    assert_eq!(
        refused(&mut state, 0, TurnCommand::Skip(())),
        "not_skippable"
    );
    let mut state = active_turn_of_seat_0(None);
    assert_eq!(
        refused(&mut state, 0, TurnCommand::Skip(())),
        "not_skippable"
    );
}

#[test]
fn refusal_resolving() {
    let mut state = active_turn_of_seat_0(Some("skippable"));
    state
        .turns::<u32, ()>(&configs())
        .play(&mut NoSignals, Seat(0), 1)
        .unwrap();
    assert_eq!(refused(&mut state, 0, TurnCommand::Play(2)), "resolving");
    assert_eq!(refused(&mut state, 0, TurnCommand::Skip(())), "resolving");
    assert_eq!(
        refused(&mut state, 1, TurnCommand::Play(2)),
        "not_your_turn"
    );
}

#[test]
fn play_moves_the_turn_to_resolving_until_the_game_reports_resolved() {
    let configs = configs();
    let mut state = active_turn_of_seat_0(Some("timed"));
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    assert_eq!(codes(turns.resolve(&mut game)), "not_resolving");
    turns.play(&mut game, Seat(0), 42).unwrap();
    assert_eq!(turns.clock().current().status, TurnStatus::Resolving);
    turns.resolve(&mut game).unwrap();
    assert_eq!(
        turns.into_events(),
        vec![
            Event::PlayCommandReceived {
                seat: Seat(0),
                data: 42
            },
            Event::TurnStatusChanged {
                previous: TurnStatus::Active,
                current: TurnStatus::Resolving
            },
            Event::TurnStatusChanged {
                previous: TurnStatus::Resolving,
                current: TurnStatus::Inactive
            },
            Event::TurnEnded {
                turn_index: 1,
                player: Some(Seat(0)),
                entity: None,
                reason: TurnEndReason::Resolved,
                ticks: 0
            },
        ]
    );
    assert_eq!(game.log, vec!["play 0 42", "ended 1 Some(0) Resolved"]);
    assert_eq!(state.clock().seat(Seat(0)).unwrap().number, 1);
}

#[test]
fn the_game_may_end_a_play_at_once_with_reason_play() {
    let configs = configs();
    let mut state = active_turn_of_seat_0(Some("timed"));
    let mut game = Recorder {
        end_play_at_once: true,
        pass_to_next: Some((2, Some("timed".into()))),
        ..Recorder::default()
    };
    let mut turns = state.turns(&configs);
    turns.play(&mut game, Seat(0), 3).unwrap();
    assert_eq!(
        game.log,
        vec!["play 0 3", "ended 1 Some(0) Play", "began 2 Some(1)"]
    );
    assert_eq!(turns.clock().current().player, Some(Seat(1)));
    assert_eq!(turns.clock().current().status, TurnStatus::Active);
}

#[test]
fn skip_ends_the_turn_with_skip_after_the_signal() {
    let configs = configs();
    let mut state = active_turn_of_seat_0(Some("skippable"));
    let mut game = Recorder::default();
    let mut turns = state.turns(&configs);
    turns.advance_to(&mut game, 3).unwrap();
    turns.skip(&mut game, Seat(0), ()).unwrap();
    let events = turns.into_events();
    assert_eq!(
        events[0],
        Event::SkipCommandReceived {
            seat: Seat(0),
            data: ()
        }
    );
    assert!(events.contains(&Event::TurnEnded {
        turn_index: 1,
        player: Some(Seat(0)),
        entity: None,
        reason: TurnEndReason::Skip,
        ticks: 3
    }));
    assert_eq!(game.log, vec!["skip 0", "ended 1 Some(0) Skip"]);
    assert_eq!(state.clock().seat(Seat(0)).unwrap().ticks, 3);
}

#[test]
fn signals_run_synchronously_in_order_inside_one_transition() {
    let configs = configs();
    let mut state = two_seats();
    let mut game = Recorder {
        end_play_at_once: true,
        pass_to_next: Some((2, None)),
        ..Recorder::default()
    };
    let mut turns = state.turns(&configs);
    turns.begin_turn(&mut game, turn_for(0, None)).unwrap();
    turns.play(&mut game, Seat(0), 1).unwrap();
    turns.play(&mut game, Seat(1), 2).unwrap();
    assert_eq!(
        game.log,
        vec![
            "began 1 Some(0)",
            "play 0 1",
            "ended 1 Some(0) Play",
            "began 2 Some(1)",
            "play 1 2",
            "ended 2 Some(1) Play",
            "began 3 Some(0)",
        ]
    );
    // Every began pairs with one ended of the same index, in the events too.
    let began: Vec<u64> = turns
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::TurnBegan { turn_index, .. } => Some(*turn_index),
            _ => None,
        })
        .collect();
    assert_eq!(began, vec![1, 2, 3]);
}

#[test]
fn begin_turn_emits_reset_then_status_then_activation_events() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    turns
        .begin_turn(
            &mut NoSignals,
            turn_for(1, Some("timed"))
                .with_entity(Some(EntityId(9)))
                .with_type(TurnType::Countdown),
        )
        .unwrap();
    assert_eq!(
        turns.into_events(),
        vec![
            Event::TurnTimerReset,
            Event::TurnTypeChanged {
                previous: TurnType::Play,
                current: TurnType::Countdown
            },
            Event::TurnStatusChanged {
                previous: TurnStatus::Inactive,
                current: TurnStatus::Active
            },
            Event::TurnActivated {
                player: Some(Seat(1)),
                entity: Some(EntityId(9))
            },
            Event::TurnBegan {
                turn_index: 1,
                player: Some(Seat(1)),
                entity: Some(EntityId(9))
            },
        ]
    );
}

#[test]
fn unknown_seats_are_refused() {
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns::<u32, ()>(&configs);
    assert_eq!(
        codes(turns.begin_turn(&mut NoSignals, turn_for(7, None))),
        "unknown_seat"
    );
    assert!(!turns.clock().turn_in_progress());
}

#[test]
fn timeouts_in_a_row_make_a_forfeit_due() {
    let configs = configs();
    let mut state = MatchTurns::new([Seat(0)]);
    let mut turns = state.turns::<u32, ()>(&configs);
    let mut due = Vec::new();
    for _ in 0..3 {
        turns
            .begin_turn(&mut NoSignals, turn_for(0, Some("forfeit")))
            .unwrap();
        let snapshot = turns.clock().current().clone();
        let deadline = turns.deadline_tick().unwrap().unwrap();
        turns.advance_to(&mut NoSignals, deadline).unwrap();
        due.push(turns.forfeit_due(&snapshot));
    }
    assert_eq!(due, vec![false, true, true]);
    assert_eq!(turns.clock().timeouts_in_a_row(Seat(0)), 3);
    turns
        .begin_turn(&mut NoSignals, turn_for(0, Some("forfeit")))
        .unwrap();
    turns.end_turn(&mut NoSignals, TurnEndReason::Play).unwrap();
    assert_eq!(turns.clock().timeouts_in_a_row(Seat(0)), 0);
}

#[test]
fn game_logic_that_never_stops_nesting_is_cut_off() {
    struct Ping;
    impl turnstile_turns::TurnSignals<u32, ()> for Ping {
        fn on_turn_ended(
            &mut self,
            turns: &mut turnstile_turns::Turns<'_, u32, ()>,
            _: &TurnData,
            _: &TurnEndReason,
        ) {
            let _ = turns.begin_turn(self, turn_for(0, None));
        }
        fn on_turn_began(&mut self, turns: &mut turnstile_turns::Turns<'_, u32, ()>) {
            let _ = turns.end_turn(self, TurnEndReason::Skip);
        }
    }
    let configs = configs();
    let mut state = two_seats();
    let mut turns = state.turns(&configs);
    let error = turns.begin_turn(&mut Ping, turn_for(0, None)).unwrap_err();
    assert_eq!(error.code(), "signal_depth_exceeded");
    // The handle stays faulted: the runtime discards this copy.
    assert_eq!(
        codes(turns.advance_to(&mut Ping, 1)),
        "signal_depth_exceeded"
    );
}

#[test]
fn the_clock_cannot_be_advanced_from_inside_a_signal() {
    struct Sneaky(Option<TurnError>);
    impl turnstile_turns::TurnSignals<u32, ()> for Sneaky {
        fn on_turn_began(&mut self, turns: &mut turnstile_turns::Turns<'_, u32, ()>) {
            self.0 = turns.advance_to(self, 100).err();
        }
    }
    let configs = configs();
    let mut state = two_seats();
    let mut game = Sneaky(None);
    state
        .turns(&configs)
        .begin_turn(&mut game, turn_for(0, None))
        .unwrap();
    assert_eq!(game.0.map(|e| e.code()), Some("nested_clock_advance"));
    assert_eq!(state.clock().last_tick(), 0);
}

// ----- serialization ---------------------------------------------------------------------------

#[test]
fn state_and_events_serialize_as_camel_case_json_and_round_trip() {
    let configs = configs();
    let mut state = active_turn_of_seat_0(Some("timed"));
    let mut turns = state.turns::<u32, ()>(&configs);
    turns.advance_to(&mut NoSignals, 3).unwrap();
    turns.play(&mut NoSignals, Seat(0), 5).unwrap();
    let events = turns.into_events();
    let json = serde_json::to_value(&state).unwrap();
    assert_eq!(json["clock"]["current"]["type"], "play");
    assert_eq!(json["clock"]["current"]["status"], "resolving");
    assert_eq!(json["clock"]["turnIndex"], 1);
    assert_eq!(json["clock"]["lastTick"], 3);
    let back: MatchTurns = serde_json::from_value(json).unwrap();
    assert_eq!(back, state);
    assert_eq!(back.verify(&configs), Ok(()));

    let json = serde_json::to_value(&events).unwrap();
    assert_eq!(
        json[0],
        serde_json::json!({"type": "playCommandReceived", "seat": 0, "data": 5})
    );
    let back: Vec<Event> = serde_json::from_value(json).unwrap();
    assert_eq!(back, events);
    let command: TurnCommand<u32, ()> =
        serde_json::from_str(r#"{"type":"play","data":4}"#).unwrap();
    assert_eq!(command, TurnCommand::Play(4));
}

#[test]
fn verify_rejects_a_state_that_breaks_the_invariants() {
    let configs = configs();
    let state = active_turn_of_seat_0(Some("timed"));
    let mut json = serde_json::to_value(&state).unwrap();
    json["clock"]["inProgress"] = serde_json::json!(false);
    let broken: MatchTurns = serde_json::from_value(json).unwrap();
    assert_eq!(codes(broken.verify(&configs)), "inconsistent_state");
}
