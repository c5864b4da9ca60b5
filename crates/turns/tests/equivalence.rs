//! The envelope-tick model is exactly the seed's per-frame model: jumping the clock with
//! `advance_to` to each command's tick gives the same states, events, refusals and signals as a
//! naive loop of one `step` per tick, over random schedules of ticks and commands.

use proptest::prelude::*;
use turnstile_core::{Seat, Tick};
use turnstile_turns::{
    Commander, CommanderId, EntityId, MatchTurns, RecomputeAt, ResetTurn, SkipReason, TurnConfig,
    TurnConfigId, TurnConfigs, TurnData, TurnEndReason, TurnError, TurnEvent, TurnSignals,
    TurnStatus, TurnType, Turns,
};

const CYCLE: [Option<&str>; 6] = [
    Some("short"),
    Some("timed"),
    None,
    Some("forfeit"),
    Some("skippable"),
    Some("untimed"),
];

fn configs() -> TurnConfigs {
    let id = TurnConfigId::new;
    TurnConfigs::new()
        .with(id("short"), TurnConfig::timed(1))
        .with(id("timed"), TurnConfig::timed(7))
        .with(
            id("forfeit"),
            TurnConfig {
                forfeit_after_timeouts: Some(2),
                ..TurnConfig::timed(3)
            },
        )
        .with(id("skippable"), TurnConfig::timed(5).skippable())
        .with(
            id("untimed"),
            TurnConfig {
                is_skippable: true,
                ..TurnConfig::default()
            },
        )
}

/// Game logic with some of everything: passing turns round-robin with changing configs,
/// countdown turns, plays that end at once or resolve later, commanders that can't act and
/// changing priorities.
#[derive(Debug, Clone, Default, PartialEq)]
struct Game {
    log: Vec<String>,
    asked_to_act: u32,
    recomputed: u32,
}

impl TurnSignals<u32, ()> for Game {
    fn on_turn_began(&mut self, turns: &mut Turns<'_, u32, ()>) {
        let index = turns.clock().turn_index();
        self.log
            .push(format!("began {index} at {}", turns.clock().last_tick()));
        if index % 5 == 0 {
            turns.set_type(TurnType::Countdown).unwrap();
        }
    }

    fn on_turn_ended(
        &mut self,
        turns: &mut Turns<'_, u32, ()>,
        turn: &TurnData,
        reason: &TurnEndReason,
    ) {
        let index = turns.clock().turn_index();
        self.log.push(format!(
            "ended {index} {reason:?} at {} after {}",
            turns.clock().last_tick(),
            turn.ticks
        ));
        if turns.forfeit_due(turn) {
            self.log.push("forfeit due".into());
        }
        if turns.order().is_running() {
            return;
        }
        let next = turn.player.map_or(0, |s| (s.0 + 1) % 3);
        let config = CYCLE[(index % 6) as usize].map(TurnConfigId::new);
        let reset = ResetTurn::new()
            .with_player(Some(Seat(next)))
            .with_config(config)
            .with_type(TurnType::Play);
        turns.begin_turn(self, reset).unwrap();
    }

    fn on_play_command(&mut self, turns: &mut Turns<'_, u32, ()>, seat: Seat, data: &u32) {
        self.log.push(format!("play {} {data}", seat.0));
        if data % 3 == 0 {
            turns.end_turn(self, TurnEndReason::Play).unwrap();
        }
    }

    fn on_skip_command(&mut self, _turns: &mut Turns<'_, u32, ()>, seat: Seat, _data: &()) {
        self.log.push(format!("skip {}", seat.0));
    }

    fn can_act(&mut self, commander: &Commander) -> Result<(), SkipReason> {
        self.asked_to_act += 1;
        if self.asked_to_act % 5 == 0 {
            Err(SkipReason::Custom(format!("{} rests", commander.id)))
        } else {
            Ok(())
        }
    }

    fn recompute_priority(&mut self, commander: &Commander) -> i32 {
        self.recomputed += 1;
        commander.priority + i32::try_from(self.recomputed % 3).unwrap() - 1
    }
}

#[derive(Debug, Clone)]
enum Action {
    Wait,
    Play(u16, u32),
    Skip(u16),
    Resolve,
    Resume,
    Pause,
    Timeout(u64),
    Outage(u64, u64),
    Add(u8, u16, i32),
    Remove(u8),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        3 => Just(Action::Wait),
        4 => (0u16..3, 0u32..6).prop_map(|(s, d)| Action::Play(s, d)),
        2 => (0u16..3).prop_map(Action::Skip),
        2 => Just(Action::Resolve),
        1 => Just(Action::Resume),
        1 => Just(Action::Pause),
        2 => (0u64..3).prop_map(Action::Timeout),
        1 => (0u64..4, 0u64..20).prop_map(|(back, gap)| Action::Outage(back, gap)),
        1 => (0u8..6, 0u16..3, -3i32..4).prop_map(|(n, s, p)| Action::Add(n, s, p)),
        1 => (0u8..6).prop_map(Action::Remove),
    ]
}

fn commander(n: u8, seat: u16, priority: i32) -> Commander {
    let mut c = Commander::new(format!("c{n}"), Some(Seat(seat)), priority)
        .with_entity(EntityId(u64::from(n)));
    if let Some(config) = CYCLE[usize::from(n) % CYCLE.len()] {
        c = c.with_config(TurnConfigId::new(config));
    }
    c
}

#[derive(Debug, PartialEq)]
struct Run {
    state: MatchTurns,
    events: Vec<TurnEvent<u32, ()>>,
    results: Vec<Result<(), TurnError>>,
    game: Game,
}

/// Plays a schedule; `per_tick` walks the clock one `step` at a time, otherwise it jumps.
fn play(loop_mode: bool, schedule: &[(u64, Action)], per_tick: bool) -> Run {
    let configs = configs();
    let mut state = MatchTurns::new([Seat(0), Seat(1), Seat(2)])
        .with_priority_recompute(RecomputeAt::EveryActivation);
    let mut game = Game::default();
    let mut results = Vec::new();
    let mut turns = state.turns(&configs);
    if loop_mode {
        for n in 0..3 {
            turns
                .add_commander(commander(n, u16::from(n), i32::from(n)))
                .unwrap();
        }
        turns.start_loop(&mut game).unwrap();
    } else {
        turns
            .begin_turn(
                &mut game,
                ResetTurn::new()
                    .with_player(Some(Seat(0)))
                    .with_config(Some(TurnConfigId::new("timed"))),
            )
            .unwrap();
    }
    let mut tick: Tick = 0;
    for (delta, action) in schedule {
        tick += delta;
        if per_tick {
            while turns.clock().last_tick() < tick {
                turns.step(&mut game).unwrap();
            }
        } else {
            turns.advance_to(&mut game, tick).unwrap();
        }
        let result = match action {
            Action::Wait => Ok(()),
            Action::Play(seat, data) => turns.play(&mut game, Seat(*seat), *data),
            Action::Skip(seat) => turns.skip(&mut game, Seat(*seat), ()),
            Action::Resolve => turns.resolve(&mut game),
            Action::Resume => turns.set_status(&mut game, TurnStatus::Active),
            Action::Pause => turns.set_status(&mut game, TurnStatus::Inactive),
            Action::Timeout(back) => {
                let index = turns.clock().turn_index().saturating_sub(*back);
                turns.timeout(&mut game, index, tick)
            }
            Action::Outage(back, gap) => {
                let heartbeat = tick.saturating_sub(*back);
                let result = turns.resume_clock(&mut game, heartbeat, tick + gap);
                tick += gap;
                result
            }
            Action::Add(n, seat, priority) => turns.add_commander(commander(*n, *seat, *priority)),
            Action::Remove(n) => {
                turns.remove_commander(&mut game, &CommanderId::new(format!("c{n}")))
            }
        };
        results.push(result);
    }
    let events = turns.into_events();
    Run {
        state,
        events,
        results,
        game,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn jumping_the_clock_equals_one_update_per_tick(
        loop_mode in any::<bool>(),
        schedule in prop::collection::vec((0u64..25, action()), 0..40),
    ) {
        let jumped = play(loop_mode, &schedule, false);
        let stepped = play(loop_mode, &schedule, true);
        prop_assert_eq!(&jumped, &stepped);
        prop_assert_eq!(jumped.state.verify(&configs()), Ok(()));
    }
}

#[test]
fn the_property_sees_timeouts_chains_and_refusals() {
    // Guard against a vacuous property: a fixed schedule ends two turns by time in one jump,
    // and refuses commands.
    let schedule = vec![
        (30, Action::Wait),
        (1, Action::Skip(2)),
        (1, Action::Play(2, 3)),
        (10, Action::Timeout(0)),
    ];
    let jumped = play(false, &schedule, false);
    assert_eq!(jumped, play(false, &schedule, true));
    let time_ends = jumped
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                TurnEvent::TurnEnded {
                    reason: TurnEndReason::Time,
                    ..
                }
            )
        })
        .count();
    assert!(time_ends >= 2, "{:#?}", jumped.events);
    assert!(jumped.results.iter().any(|r| r.is_err()));

    // In loop mode, commanders' turns time out inside one jump and the next begins at the deadline.
    let schedule = vec![
        (40, Action::Wait),
        (3, Action::Remove(2)),
        (20, Action::Wait),
    ];
    let jumped = play(true, &schedule, false);
    assert_eq!(jumped, play(true, &schedule, true));
    let began = jumped
        .game
        .log
        .iter()
        .filter(|l| l.starts_with("began"))
        .count();
    assert!(began >= 4, "{:#?}", jumped.game.log);
    assert!(jumped
        .events
        .iter()
        .any(|e| matches!(e, TurnEvent::CommanderSkipped { .. })));
}
