//! Scoring throughput of clover: hands scored per second with five jokers and retriggers
//! (red seals, a retrigger joker, a held-card retrigger), without and with the step list;
//! and a scripted run segment (rounds, shop, rebuilds) per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use turnstile_clover::run::{self, Blind};
use turnstile_clover::{benchmark, score_hand, Content, RunState};

fn scoring(c: &mut Criterion) {
    let content = Content::shipped().unwrap();
    let (base, played, held) = benchmark::scoring_workload(&content).unwrap();
    let mut group = c.benchmark_group("clover_scoring");
    group.throughput(Throughput::Elements(1));
    group.bench_function("five_jokers_retriggers_no_steps", |b| {
        let mut r = base.clone();
        b.iter(|| {
            black_box(
                score_hand(&mut r, &content, &played, &held, false)
                    .unwrap()
                    .score,
            )
        })
    });
    group.bench_function("five_jokers_retriggers_with_steps", |b| {
        let mut r = base.clone();
        b.iter(|| {
            black_box(
                score_hand(&mut r, &content, &played, &held, true)
                    .unwrap()
                    .steps
                    .len(),
            )
        })
    });
    group.finish();
    let mut group = c.benchmark_group("clover_run");
    group.throughput(Throughput::Elements(1));
    group.bench_function("scripted_ante", |b| {
        b.iter(|| {
            let mut r = RunState::new("bench-run", 1, "plain").unwrap();
            run::start_run(&mut r, &content).unwrap();
            r.money = 50;
            for blind in [Blind::Small, Blind::Big, Blind::Boss] {
                run::start_round(&mut r, &content, blind).unwrap();
                for _ in 0..3 {
                    let deck = run::shuffled_deck(&mut r);
                    black_box(
                        score_hand(&mut r, &content, &deck[..5], &deck[5..8], false).unwrap(),
                    );
                }
                run::end_round(&mut r, &content, blind, &[]).unwrap();
                let offers = run::enter_shop(&mut r, &content).unwrap();
                black_box(offers);
            }
            black_box(r.money)
        })
    });
    let shipped = turnstile_clover::CloverContent::shipped().unwrap();
    group.bench_function("whole_bot_run", |b| {
        let mut n = 0u64;
        b.iter(|| {
            n += 1;
            black_box(benchmark::bot_run(&shipped, &format!("bot-{n}")).unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, scoring);
criterion_main!(benches);
