//! The lifecycle's order of hooks, initiative, skips, joins, departures, Timeout and Skip,
//! driven through a recording game: each test would fail if one of those rules broke.

use turnstile_core::Seat;
use turnstile_formula::{Type, Value, VariableSchema};
use turnstile_lifecycle::{
    LifecycleError, LifecycleHooks, LifecycleRules, LifecycleState, RoundHook, END_TURN_REASON,
};
use turnstile_phases::ExitReason;
use turnstile_turns::{SkipReason, TurnEndReason, TurnEvent};

/// A game that records every hook call; seats have a `speed` the initiative reads.
#[derive(Default)]
struct Recorder {
    log: Vec<String>,
    speed: Vec<i64>,
    stunned: Vec<Seat>,
    departures: Vec<Seat>,
    over: bool,
    events: Vec<TurnEvent<(), ()>>,
}

impl LifecycleHooks for Recorder {
    fn initiative_variables(&self, seat: Seat) -> Vec<Value> {
        vec![
            Value::Int(i64::from(seat.0)),
            Value::Int(self.speed.get(usize::from(seat.0)).copied().unwrap_or(0)),
        ]
    }
    fn can_act(&mut self, seat: Seat) -> Result<(), SkipReason> {
        if self.stunned.contains(&seat) {
            return Err(SkipReason::Stunned);
        }
        Ok(())
    }
    fn activation_skipped(
        &mut self,
        seat: Seat,
        reason: &SkipReason,
    ) -> Result<(), LifecycleError> {
        self.log.push(format!("skipped {} {reason:?}", seat.0));
        self.stunned.retain(|s| *s != seat);
        Ok(())
    }
    fn round(
        &mut self,
        hook: RoundHook,
        round: u64,
        effects: &[String],
    ) -> Result<(), LifecycleError> {
        self.log.push(format!("{hook:?} {round} {effects:?}"));
        Ok(())
    }
    fn start_activation(&mut self, seat: Seat, _round: u64) -> Result<(), LifecycleError> {
        self.log.push(format!("start {}", seat.0));
        Ok(())
    }
    fn end_activation(&mut self, seat: Seat, reason: &ExitReason) -> Result<(), LifecycleError> {
        self.log.push(format!("end {} {reason:?}", seat.0));
        Ok(())
    }
    fn forfeit(&mut self, seat: Seat, timeouts: u32) -> Result<(), LifecycleError> {
        self.log.push(format!("forfeit {} {timeouts}", seat.0));
        self.departures.push(seat);
        Ok(())
    }
    fn take_departures(&mut self) -> Vec<Seat> {
        std::mem::take(&mut self.departures)
    }
    fn is_over(&self) -> bool {
        self.over
    }
    fn turn_events(&mut self, events: Vec<TurnEvent<(), ()>>) {
        self.events.extend(events);
    }
}

fn schema() -> VariableSchema {
    VariableSchema::from_declarations([("seat", Type::Int), ("owner.speed", Type::Int)]).unwrap()
}

fn rules(json: &str) -> LifecycleRules {
    let rules: LifecycleRules = serde_json::from_str(json).unwrap();
    assert!(rules.validate(&schema()).is_empty());
    rules
}

const TIMED: &str = r#"{
  "clocks": { "blitz": { "usesTimer": true, "turnDurationTicks": 10, "isSkippable": true,
                         "forfeitAfterTimeouts": 2 } },
  "defaultClock": "blitz",
  "initiative": "owner.speed",
  "recomputeAt": "everyRound",
  "startRoundEffects": ["refill"],
  "endRoundEffects": ["sudden-death"]
}"#;

fn started(seats: u16, rules: &LifecycleRules, game: &mut Recorder) -> LifecycleState {
    let all: Vec<Seat> = (0..seats).map(Seat).collect();
    let mut state = LifecycleState::new(all.iter().copied(), rules);
    let clock = rules.clock(None).unwrap();
    state
        .drive(rules, &schema(), game, |t, d| {
            for s in &all {
                t.add_commander(LifecycleState::commander(*s, &clock))?;
            }
            t.start_loop(d).map(|_| ())
        })
        .unwrap();
    state
}

fn end_turn(state: &mut LifecycleState, rules: &LifecycleRules, game: &mut Recorder) {
    state
        .drive(rules, &schema(), game, |t, d| {
            t.end_turn(d, TurnEndReason::Custom(END_TURN_REASON.into()))
        })
        .unwrap();
}

#[test]
fn initiative_orders_the_round_and_round_hooks_frame_it() {
    let rules = rules(TIMED);
    let mut game = Recorder {
        speed: vec![1, 5, 3],
        ..Recorder::default()
    };
    let mut state = started(3, &rules, &mut game);
    end_turn(&mut state, &rules, &mut game);
    end_turn(&mut state, &rules, &mut game);
    end_turn(&mut state, &rules, &mut game);
    assert_eq!(
        game.log,
        [
            "StartRound 1 [\"refill\"]",
            "start 1",
            "end 1 EndTurnAction",
            "start 2",
            "end 2 EndTurnAction",
            "start 0",
            "end 0 EndTurnAction",
            "EndRound 1 [\"sudden-death\"]",
            "StartRound 2 [\"refill\"]",
            "start 1",
        ]
    );
}

#[test]
fn initiative_ties_break_by_registration_and_is_recomputed_at_the_round_boundary() {
    let rules = rules(TIMED);
    let mut game = Recorder {
        speed: vec![2, 2],
        ..Recorder::default()
    };
    let mut state = started(2, &rules, &mut game);
    assert_eq!(state.acting(), Some(Seat(0)), "a tie: registration order");
    game.speed = vec![2, 9];
    end_turn(&mut state, &rules, &mut game);
    assert_eq!(
        state.acting(),
        Some(Seat(1)),
        "the rest of round 1 keeps its order"
    );
    end_turn(&mut state, &rules, &mut game);
    assert_eq!(
        state.acting(),
        Some(Seat(1)),
        "round 2: seat 1 is faster now"
    );
}

#[test]
fn a_seat_that_cannot_act_is_skipped_and_told_why() {
    let rules = rules(TIMED);
    let mut game = Recorder {
        speed: vec![0, 0, 0],
        ..Recorder::default()
    };
    let mut state = started(3, &rules, &mut game);
    game.stunned = vec![Seat(1)];
    end_turn(&mut state, &rules, &mut game);
    assert_eq!(state.acting(), Some(Seat(2)));
    assert!(game.log.contains(&"skipped 1 Stunned".to_owned()));
    assert!(game
        .events
        .iter()
        .any(|e| matches!(e, TurnEvent::CommanderSkipped { .. })));
}

#[test]
fn a_timeout_and_a_skip_leave_the_activation_through_activation_exit() {
    let rules = rules(TIMED);
    let mut game = Recorder {
        speed: vec![0, 0],
        ..Recorder::default()
    };
    let mut state = started(2, &rules, &mut game);
    assert_eq!(state.deadline_tick(&rules), Some(10));
    let index = state.turn_index();
    state
        .drive(&rules, &schema(), &mut game, |t, d| t.timeout(d, index, 10))
        .unwrap();
    assert!(game.log.contains(&"end 0 Timeout".to_owned()));
    assert_eq!(state.acting(), Some(Seat(1)));
    assert_eq!(state.deadline_tick(&rules), Some(20));
    state
        .drive(&rules, &schema(), &mut game, |t, d| t.skip(d, Seat(1), ()))
        .unwrap();
    assert!(game.log.contains(&"end 1 Skip".to_owned()));
    // The same Timeout again is stale and changes nothing.
    let err = state
        .drive(&rules, &schema(), &mut game, |t, d| t.timeout(d, index, 20))
        .unwrap_err();
    assert_eq!(err.code, "stale_timeout");
}

#[test]
fn timing_out_too_often_forfeits_and_the_seat_leaves_at_once() {
    let rules = rules(TIMED);
    let mut game = Recorder {
        speed: vec![0, 0, 0],
        ..Recorder::default()
    };
    let mut state = started(3, &rules, &mut game);
    // Seat 0 times out twice in a row (its two activations), seats 1 and 2 end theirs.
    for _ in 0..2 {
        let (index, deadline) = (state.turn_index(), state.deadline_tick(&rules).unwrap());
        state
            .drive(&rules, &schema(), &mut game, |t, d| {
                t.timeout(d, index, deadline)
            })
            .unwrap();
        if !game.log.iter().any(|l| l.starts_with("forfeit")) {
            end_turn(&mut state, &rules, &mut game);
            end_turn(&mut state, &rules, &mut game);
        }
    }
    assert!(
        game.log.contains(&"forfeit 0 2".to_owned()),
        "{:?}",
        game.log
    );
    assert!(!state.has_commander(Seat(0)));
    assert_eq!(state.acting(), Some(Seat(1)));
}

#[test]
fn a_joiner_waits_for_the_loop_boundary() {
    let rules = rules(TIMED);
    let mut game = Recorder {
        speed: vec![0, 0, 9],
        ..Recorder::default()
    };
    let all = [Seat(0), Seat(1), Seat(2)];
    let mut state = LifecycleState::new(all, &rules);
    let clock = rules.clock(None).unwrap();
    state
        .drive(&rules, &schema(), &mut game, |t, d| {
            t.add_commander(LifecycleState::commander(Seat(0), &clock))?;
            t.add_commander(LifecycleState::commander(Seat(1), &clock))?;
            t.start_loop(d).map(|_| ())
        })
        .unwrap();
    state
        .drive(&rules, &schema(), &mut game, |t, _| {
            t.add_commander(LifecycleState::commander(Seat(2), &clock))
        })
        .unwrap();
    end_turn(&mut state, &rules, &mut game);
    assert_eq!(state.acting(), Some(Seat(1)), "not mid-round");
    end_turn(&mut state, &rules, &mut game);
    assert_eq!(
        state.acting(),
        Some(Seat(2)),
        "joined at the boundary, fastest"
    );
}

#[test]
fn bad_lifecycles_are_refused_with_every_problem() {
    let rules: LifecycleRules = serde_json::from_str(
        r#"{ "clocks": { "x": { "usesTimer": true } }, "defaultClock": "y",
             "initiative": "owner.speed > 1" }"#,
    )
    .unwrap();
    let codes: Vec<String> = rules
        .validate(&schema())
        .into_iter()
        .map(|p| format!("{} {}", p.pointer, p.code))
        .collect();
    assert_eq!(
        codes,
        [
            "/clocks/x/turnDurationTicks zero_turn_duration",
            "/defaultClock unknown_clock",
            "/initiative bad_initiative",
        ]
    );
    assert!(serde_json::from_str::<LifecycleRules>(
        r#"{ "clocks": {}, "defaultClock": "y", "initative": "1" }"#
    )
    .is_err());
}
