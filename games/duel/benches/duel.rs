//! Duel's hot paths: a whole bot-played match re-submitted command by command through the
//! runtime (rules, phases, effects and receipts: commands per second), the legal candidates
//! of a position, and previews of every candidate as its seat sees it.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use turnstile_core::{CommandContext, Seat, Viewer};
use turnstile_duel::Duel;
use turnstile_runtime::Match;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("duel");
    group
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for preset in common::PRESETS {
        let played = common::bot_match(preset, "bench", true);
        let envelopes: Vec<_> = played.log().iter().map(|e| e.envelope.clone()).collect();
        group.throughput(Throughput::Elements(envelopes.len() as u64));
        group.bench_function(format!("commands with receipts/{preset}"), |b| {
            b.iter(|| {
                let mut m =
                    Match::<Duel>::new(common::bundle(), common::spec(preset, "bench")).unwrap();
                for envelope in &envelopes {
                    m.submit(envelope.clone()).unwrap();
                }
                m.sequence()
            })
        });
    }
    let m = Match::<Duel>::new(common::bundle(), common::spec("priority-window", "bench")).unwrap();
    let resolver = m.resolver();
    let candidates = resolver.candidates(m.state(), Seat(0), 0).unwrap();
    group.throughput(Throughput::Elements(1));
    group.bench_function("legal candidates", |b| {
        b.iter(|| resolver.candidates(m.state(), Seat(0), 0).unwrap().len())
    });
    // The compact listing players and the API receive: action kinds with parameter ranges.
    group.bench_function("legal action kinds", |b| {
        b.iter(|| resolver.legal_actions(m.state(), Seat(0)).unwrap().len())
    });
    group.throughput(Throughput::Elements(candidates.len() as u64));
    let ctx = CommandContext {
        seat: Some(Seat(0)),
        tick: 0,
    };
    group.bench_function("previews", |b| {
        b.iter(|| {
            for action in &candidates {
                resolver
                    .preview(m.state(), ctx, action, Viewer::Seat(Seat(0)))
                    .unwrap()
                    .unwrap();
            }
        })
    });
    group.finish();
}

criterion_group!(duel, benches);
criterion_main!(duel);
