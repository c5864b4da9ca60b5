//! The benchmarks every m,n,k-game runs, shared by Tic-Tac-Toe's and Connect Four's bench
//! targets (both include this file by path) — the three figures `turnstile bench
//! connect4|tictactoe` prints too: complete random games on the bare rules (the resolver's
//! `apply` on a state) and the same games through `Match::submit` with receipts, fingerprints
//! and views, with throughput in games; the strong bot's search, with throughput in positions
//! searched.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput};
use turnstile_core::{ContentBundle, Seat};
use turnstile_mnk::{Action, MatchConfig, MnkGame, Rules, Searchable, StrongBot};
use turnstile_runtime::bot_generator;
use turnstile_runtime::testing::{random_receipted_game, BareGames, Driver};

/// Random games per second, bare and through a match: uniformly random moves drawn from the
/// generator of `bot:0` for the seed `bench`, so both paths play the same sequence of games.
pub fn games<V: Searchable>(c: &mut Criterion, bundle: &Arc<ContentBundle<Rules>>) {
    let mut group = c.benchmark_group(format!("{}/random game", V::ID));
    group.throughput(Throughput::Elements(1));
    let generator = || bot_generator("bench", Seat(0)).unwrap();
    let mut rng = generator();
    let mut bare = BareGames::<MnkGame<V>>::new();
    group.bench_function("bare rules", |b| {
        b.iter(|| {
            bare.play(&bundle.content, &MatchConfig::default(), &mut rng)
                .unwrap()
        })
    });
    let mut rng = generator();
    group.bench_function("match with receipts", |b| {
        b.iter(|| {
            random_receipted_game::<MnkGame<V>>(
                bundle.clone(),
                MatchConfig::default(),
                "bench",
                &mut rng,
            )
            .unwrap()
        })
    });
    group.finish();
}

/// One strong-bot move from each named position (reached by playing its moves).
pub fn search<V: Searchable>(
    c: &mut Criterion,
    bundle: &Arc<ContentBundle<Rules>>,
    positions: &[(&str, Vec<V::Move>)],
) {
    let mut group = c.benchmark_group(format!("{}/strong bot", V::ID));
    group.sample_size(20);
    for (name, moves) in positions {
        let mut driver =
            Driver::<MnkGame<V>>::new(bundle.clone(), MatchConfig::default(), "bench").unwrap();
        for mv in moves {
            let seat = driver.state().to_move().unwrap();
            driver
                .submit(Some(seat), 0, Action::Play(mv.clone()))
                .unwrap();
        }
        let seat = driver.state().to_move().unwrap();
        let mut bot = StrongBot::<V>::new("bench", seat).unwrap();
        bot.choose(&driver.game().resolver(), driver.state(), seat, 0);
        let nodes = bot.last_report().map_or(1, |r| r.nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(*name, |b| {
            b.iter(|| black_box(bot.choose(&driver.game().resolver(), driver.state(), seat, 0)))
        });
    }
    group.finish();
}
