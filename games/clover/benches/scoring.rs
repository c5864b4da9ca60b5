//! Scoring throughput of clover: hands scored per second with five jokers and retriggers
//! (red seals, a retrigger joker, a held-card retrigger), without and with the step list;
//! and a scripted run segment (rounds, shop, rebuilds) per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use turnstile_clover::cards::{Card, Enhancement, Seal, Suit};
use turnstile_clover::run::{self, Blind};
use turnstile_clover::{bot_action, score_hand, Clover, CloverConfig, Content, RunState};
use turnstile_core::{Game, MatchSetup};

fn setup(content: &Content) -> (RunState, Vec<Card>, Vec<Card>) {
    let mut r = RunState::new("bench", 1, "plain").unwrap();
    for j in [
        "harlequin",
        "mirror_court",
        "rose_pin",
        "crown_keeper",
        "echo_tide",
    ] {
        r.jokers.push(content.joker(j).unwrap());
    }
    run::rebuild(&mut r, content).unwrap();
    let played = vec![
        Card::new(11, Suit::Hearts).sealed(Seal::Red),
        Card::new(12, Suit::Hearts),
        Card::new(13, Suit::Hearts).with(Enhancement::Glass),
        Card::new(4, Suit::Hearts),
        Card::new(9, Suit::Hearts).sealed(Seal::Red),
    ];
    let held = vec![
        Card::new(13, Suit::Spades).with(Enhancement::Steel),
        Card::new(2, Suit::Clubs),
        Card::new(13, Suit::Clubs),
    ];
    (r, played, held)
}

fn scoring(c: &mut Criterion) {
    let content = Content::shipped().unwrap();
    let (base, played, held) = setup(&content);
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
            let seed = format!("bot-{n}");
            let mut s = <Clover as Game>::setup(
                &shipped,
                MatchSetup {
                    config: &CloverConfig::default(),
                    seed: &seed,
                    seats: 1,
                },
            )
            .unwrap();
            let mut steps = 0;
            while let Some(action) = bot_action(&content, &s) {
                s.apply(&content, &action).unwrap();
                steps += 1;
                if steps > 400 {
                    break;
                }
            }
            black_box(s.run.ante)
        })
    });
    group.finish();
}

criterion_group!(benches, scoring);
criterion_main!(benches);
