//! Benchmarks of the turn framework's hot paths: advancing the clock and a full activation cycle.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use turnstile_core::Seat;
use turnstile_turns::{
    Commander, MatchTurns, ResetTurn, TurnConfig, TurnConfigId, TurnConfigs, TurnData,
    TurnEndReason, TurnSignals, Turns,
};

/// Round-robin game logic: the next seat plays when a turn ends; a play ends the turn at once.
struct RoundRobin {
    seats: u16,
    pass: bool,
}

impl TurnSignals<u32, ()> for RoundRobin {
    fn on_turn_ended(
        &mut self,
        turns: &mut Turns<'_, u32, ()>,
        turn: &TurnData,
        _: &TurnEndReason,
    ) {
        if self.pass {
            let next = Seat(turn.player.map_or(0, |s| (s.0 + 1) % self.seats));
            let reset = ResetTurn::new()
                .with_player(Some(next))
                .with_config(Some(TurnConfigId::new("timed")));
            turns.begin_turn(self, reset).unwrap();
        }
    }

    fn on_play_command(&mut self, turns: &mut Turns<'_, u32, ()>, _: Seat, _: &u32) {
        turns.end_turn(self, TurnEndReason::Play).unwrap();
    }
}

fn configs() -> TurnConfigs {
    TurnConfigs::new().with(TurnConfigId::new("timed"), TurnConfig::timed(10))
}

fn bench_advance_to(c: &mut Criterion) {
    let configs = configs();
    let mut game = RoundRobin {
        seats: 4,
        pass: true,
    };

    c.bench_function("advance_to/one_tick_timer_running", |b| {
        let mut state = MatchTurns::new((0..4).map(Seat));
        let mut turns = state.turns::<u32, ()>(&configs);
        turns
            .begin_turn(
                &mut game,
                ResetTurn::new()
                    .with_player(Some(Seat(0)))
                    .with_config(Some(TurnConfigId::new("timed"))),
            )
            .unwrap();
        drop(turns);
        let mut tick = 0;
        b.iter(|| {
            // Every tenth tick a turn times out and the next seat's begins.
            tick += 1;
            let mut turns = state.turns::<u32, ()>(&configs);
            turns.advance_to(&mut game, black_box(tick)).unwrap();
            black_box(turns.into_events());
        });
    });

    c.bench_function("advance_to/jump_ending_100_turns", |b| {
        b.iter(|| {
            let mut state = MatchTurns::new((0..4).map(Seat));
            let mut turns = state.turns::<u32, ()>(&configs);
            turns
                .begin_turn(
                    &mut game,
                    ResetTurn::new()
                        .with_player(Some(Seat(0)))
                        .with_config(Some(TurnConfigId::new("timed"))),
                )
                .unwrap();
            turns.advance_to(&mut game, black_box(1_000)).unwrap();
            black_box(turns.into_events());
        });
    });
}

fn bench_activation_cycle(c: &mut Criterion) {
    let configs = configs();
    let mut game = RoundRobin {
        seats: 4,
        pass: false,
    };
    c.bench_function("activation_cycle/loop_of_8_commanders", |b| {
        let mut state = MatchTurns::new((0..4).map(Seat));
        let mut turns = state.turns::<u32, ()>(&configs);
        for n in 0..8u16 {
            let commander =
                Commander::new(format!("unit-{n}"), Some(Seat(n % 4)), i32::from(n % 3))
                    .with_config(TurnConfigId::new("timed"));
            turns.add_commander(commander).unwrap();
        }
        turns.start_loop(&mut game).unwrap();
        drop(turns);
        let mut tick = 0;
        b.iter(|| {
            // One activation: the clock moves, the owner plays, the turn ends, the next begins.
            tick += 1;
            let mut turns = state.turns::<u32, ()>(&configs);
            turns.advance_to(&mut game, tick).unwrap();
            let seat = turns.clock().current().player.unwrap();
            turns.play(&mut game, seat, black_box(7)).unwrap();
            black_box(turns.into_events());
        });
    });
}

criterion_group!(benches, bench_advance_to, bench_activation_cycle);
criterion_main!(benches);
