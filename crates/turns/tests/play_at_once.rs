//! `Turns::play_at_once` is `Turns::play` under signals that carry the move out and end the
//! turn with `Play` (every other signal the default): over random turn orders and random
//! schedules of commands, time, joins, removals and priority changes, the one-step path and the
//! general one reach the same turn states, record the same events (with a sink that keeps
//! signals and one that keeps none) and refuse the same commands with the same errors.

use proptest::prelude::*;
use turnstile_core::{Seat, Tick};
use turnstile_turns::{
    Commander, CommanderId, EntityId, MatchTurns, NoSignals, RecomputeAt, TurnConfig, TurnConfigId,
    TurnConfigs, TurnEndReason, TurnError, TurnEvent, TurnEventSink, TurnSignals, Turns,
};

const CONFIGS: [Option<&str>; 4] = [Some("untimed"), Some("timed"), None, Some("skippable")];

fn configs() -> TurnConfigs {
    let id = TurnConfigId::new;
    TurnConfigs::new()
        .with(id("untimed"), TurnConfig::default())
        .with(id("timed"), TurnConfig::timed(4))
        .with(id("skippable"), TurnConfig::timed(6).skippable())
}

/// A sink that keeps no signals (what a format-3 match records), holding the rest in order.
#[derive(Debug, Default, PartialEq)]
struct Lean(Vec<TurnEvent<u32, ()>>);

impl TurnEventSink<u32, ()> for Lean {
    fn record(&mut self, event: TurnEvent<u32, ()>) {
        self.0.push(event);
    }

    fn keeps_signals(&self) -> bool {
        false
    }
}

/// What the game's move records, and whether it ends the match: data divisible by 7 wins.
fn carry_out<K: TurnEventSink<u32, ()>>(data: u32) -> impl FnOnce(&mut K) -> bool {
    move |sink: &mut K| {
        // Any event stands for the game's own: this one names the move.
        sink.record(TurnEvent::CommanderPriorityChanged {
            commander: CommanderId::new("the game"),
            previous: 0,
            current: i32::try_from(data).unwrap_or(i32::MAX),
        });
        data % 7 == 0
    }
}

/// The signals `play_at_once` stands for, written as a game would write them.
struct Reference(u32);

impl<K: TurnEventSink<u32, ()>> TurnSignals<u32, (), K> for Reference {
    fn on_play_command(&mut self, turns: &mut Turns<'_, u32, (), K>, _seat: Seat, _data: &u32) {
        if carry_out::<K>(self.0)(turns.sink()) {
            let _ = turns.stop_loop();
        }
        let _ = turns.end_turn(self, TurnEndReason::Play);
    }
}

#[derive(Debug, Clone)]
enum Step {
    Play(u16, u32),
    Skip(u16),
    Wait(u64),
    Add(u8, u16, i32),
    Remove(u8),
    Priority(u8, i32),
    StopLoop,
    StartLoop,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => (0u16..3, 0u32..30).prop_map(|(s, d)| Step::Play(s, d)),
        1 => (0u16..3).prop_map(Step::Skip),
        2 => (0u64..8).prop_map(Step::Wait),
        1 => (0u8..5, 0u16..3, -2i32..3).prop_map(|(n, s, p)| Step::Add(n, s, p)),
        1 => (0u8..5).prop_map(Step::Remove),
        1 => (0u8..5, -2i32..3).prop_map(|(n, p)| Step::Priority(n, p)),
        1 => Just(Step::StopLoop),
        1 => Just(Step::StartLoop),
    ]
}

fn commander(n: u8, seat: u16, priority: i32, config: Option<&str>) -> Commander {
    let mut c = Commander::new(format!("c{n}"), Some(Seat(seat)), priority);
    if n % 2 == 1 {
        c = c.with_entity(EntityId(u64::from(n)));
    }
    if let Some(config) = config {
        c = c.with_config(TurnConfigId::new(config));
    }
    c
}

#[derive(Debug, PartialEq)]
struct Run<K> {
    state: MatchTurns,
    events: K,
    results: Vec<Result<(), TurnError>>,
}

/// Plays `schedule` from a loop of `start` commanders; `Play` goes through `play_at_once` when
/// `at_once`, through `play` with [`Reference`] otherwise.
fn run<K: TurnEventSink<u32, ()> + Default>(
    recompute: RecomputeAt,
    start: &[(u8, u16, i32, usize)],
    schedule: &[Step],
    at_once: bool,
) -> Run<K> {
    let configs = configs();
    let mut state = MatchTurns::new([Seat(0), Seat(1), Seat(2)]).with_priority_recompute(recompute);
    let mut results = Vec::new();
    let mut turns = state.turns_into::<u32, (), K>(&configs, K::default());
    for &(n, seat, priority, config) in start {
        results.push(turns.add_commander(commander(n, seat, priority, CONFIGS[config % 4])));
    }
    results.push(turns.start_loop(&mut NoSignals).map(|_| ()));
    let mut tick: Tick = 0;
    for step in schedule {
        let result = match step {
            Step::Play(seat, data) => {
                if at_once {
                    turns.play_at_once(Seat(*seat), data, carry_out::<K>(*data))
                } else {
                    turns.play(&mut Reference(*data), Seat(*seat), *data)
                }
            }
            Step::Skip(seat) => turns.skip(&mut NoSignals, Seat(*seat), ()),
            Step::Wait(ticks) => {
                tick += ticks;
                turns.advance_to(&mut NoSignals, tick)
            }
            Step::Add(n, seat, priority) => turns.add_commander(commander(
                *n,
                *seat,
                *priority,
                CONFIGS[usize::from(*n) % 4],
            )),
            Step::Remove(n) => {
                turns.remove_commander(&mut NoSignals, &CommanderId::new(format!("c{n}")))
            }
            Step::Priority(n, priority) => {
                turns.set_priority(&CommanderId::new(format!("c{n}")), *priority)
            }
            Step::StopLoop => turns.stop_loop(),
            Step::StartLoop => turns.start_loop(&mut NoSignals).map(|_| ()),
        };
        results.push(result);
    }
    let events = turns.into_sink();
    Run {
        state,
        events,
        results,
    }
}

fn recompute() -> impl Strategy<Value = RecomputeAt> {
    prop_oneof![
        Just(RecomputeAt::Never),
        Just(RecomputeAt::EveryRound),
        Just(RecomputeAt::EveryActivation),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn play_at_once_is_play_with_signals_that_carry_the_move_out(
        recompute in recompute(),
        start in prop::collection::vec((0u8..5, 0u16..3, -2i32..3, 0usize..4), 1..4),
        schedule in prop::collection::vec(step(), 0..40),
    ) {
        let general = run::<Vec<TurnEvent<u32, ()>>>(recompute, &start, &schedule, false);
        let at_once = run::<Vec<TurnEvent<u32, ()>>>(recompute, &start, &schedule, true);
        prop_assert_eq!(&at_once, &general);
        let general = run::<Lean>(recompute, &start, &schedule, false);
        let at_once = run::<Lean>(recompute, &start, &schedule, true);
        prop_assert_eq!(&at_once, &general);
        prop_assert_eq!(at_once.state.verify(&configs()), Ok(()));
    }
}

/// Guards the property against passing vacuously: a fixed schedule plays moves that pass the
/// turn, one refused, and one that ends the match, and both paths agree on each.
#[test]
fn the_property_sees_passes_refusals_and_an_ending() {
    let start = [(0, 0, 0, 0), (1, 1, 0, 0)];
    let schedule = [
        Step::Play(0, 1),
        Step::Play(0, 2),
        Step::Play(1, 3),
        Step::Play(0, 14),
        Step::Play(1, 5),
    ];
    let general = run::<Vec<TurnEvent<u32, ()>>>(RecomputeAt::Never, &start, &schedule, false);
    let at_once = run::<Vec<TurnEvent<u32, ()>>>(RecomputeAt::Never, &start, &schedule, true);
    assert_eq!(at_once, general);
    let results = &at_once.results[3..];
    assert_eq!(results[0], Ok(()));
    assert_eq!(results[1], Err(TurnError::NotYourTurn { seat: Seat(0) }));
    assert_eq!(results[2], Ok(()));
    assert_eq!(results[3], Ok(()), "seat 0 plays the winning 14");
    assert!(results[4].is_err(), "no turn begins after the match ended");
    assert!(!at_once.state.order().is_running());
    let turn_ends = at_once
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                TurnEvent::TurnEnded {
                    reason: TurnEndReason::Play,
                    ..
                }
            )
        })
        .count();
    assert_eq!(turn_ends, 3);
}

/// Inside a signal, `play_at_once` is `play` with the same signals (the path that nests): a
/// game that answers every turn's beginning for seat 1 with a move at once.
#[test]
fn nested_in_a_signal_it_is_play() {
    struct AutoPlay {
        at_once: bool,
    }
    impl TurnSignals<u32, ()> for AutoPlay {
        fn on_turn_began(&mut self, turns: &mut Turns<'_, u32, ()>) {
            if turns.clock().current().player != Some(Seat(1)) {
                return;
            }
            let data = 3;
            let _ = if self.at_once {
                turns.play_at_once(Seat(1), &data, carry_out(data))
            } else {
                turns.play(&mut Reference(data), Seat(1), data)
            };
        }
    }
    let configs = configs();
    let play = |at_once: bool| {
        let mut state = MatchTurns::new([Seat(0), Seat(1)]);
        let mut turns = state.turns(&configs);
        for (n, seat) in [(0, 0), (1, 1)] {
            turns
                .add_commander(commander(n, seat, 0, Some("untimed")))
                .unwrap();
        }
        let mut game = AutoPlay { at_once };
        turns.start_loop(&mut game).unwrap();
        // Seat 0 passes by hand; seat 1's turn begins inside this operation, and its signal
        // plays at once, one level deep.
        let result = turns.end_turn(&mut game, TurnEndReason::Custom("pass".into()));
        let events = turns.into_events();
        (result, events, state)
    };
    let (result, events, state) = play(true);
    assert_eq!(result, Ok(()));
    assert_eq!((result, &events, &state), {
        let (r, e, s) = play(false);
        (r, &e.clone(), &s.clone())
    });
    // Seat 0 passed, seat 1 answered at once inside its turn's beginning, and seat 0 is to
    // move again.
    assert!(events.iter().any(|e| matches!(
        e,
        TurnEvent::TurnEnded {
            player: Some(Seat(1)),
            reason: TurnEndReason::Play,
            ..
        }
    )));
    assert_eq!(state.clock().current().player, Some(Seat(0)));
    assert_eq!(state.clock().turn_index(), 3);
}
