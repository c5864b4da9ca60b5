//! Micro-benchmarks of Sokoban through the engine: a command with its receipt (fingerprints,
//! view fingerprints, chained hash), and verifying a replay. `turnstile bench sokoban` measures
//! the same paths end to end over the known Microban solutions.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::sync::Arc;
use turnstile_core::{CommandEnvelope, ContentBundle, Seat};
use turnstile_runtime::{verify, Match, MatchSpec, ReplayFile, SeatSpec};
use turnstile_sokoban::{
    parse_collection, parse_lurd, Sokoban, SokobanAction, SokobanConfig, SokobanContent,
};

/// Microban 1 by David W. Skinner (freely distributable with credit), and its known solution.
const MICROBAN_1: &str = "; Microban 1
####
# .#
#  ###
#*@  #
#  $ #
#  ###
####
";
const SOLUTION: &str = "dlUrrrdLullddrUluRuulDrddrruLdlUU";

fn fresh_match() -> Match<Sokoban> {
    let levels = parse_collection(MICROBAN_1, "microban.xsb")
        .valid_levels()
        .cloned()
        .collect();
    let bundle = ContentBundle::new("sokoban", SokobanContent::single("microban", levels)).unwrap();
    Match::new(
        Arc::new(bundle),
        MatchSpec {
            config: SokobanConfig {
                collection: "microban".into(),
                level: 1,
                xsb: None,
                topology: None,
            },
            seed: String::new(),
            seats: vec![SeatSpec::human()],
            tick_rate: 10,
        },
    )
    .unwrap()
}

fn envelopes() -> Vec<CommandEnvelope<SokobanAction>> {
    parse_lurd(SOLUTION)
        .unwrap()
        .into_iter()
        .enumerate()
        .map(|(i, step)| CommandEnvelope {
            command_id: format!("m{i}"),
            seat: Some(Seat(0)),
            expected_sequence: i as u64,
            expected_step: None,
            tick: i as u64,
            action: SokobanAction::Move {
                direction: step.direction,
            },
        })
        .collect()
}

fn receipted(c: &mut Criterion) {
    let envelopes = envelopes();
    let mut group = c.benchmark_group("sokoban_match");
    group.throughput(Throughput::Elements(envelopes.len() as u64));
    group.bench_function("submit_solution_microban_1", |b| {
        b.iter_batched(
            fresh_match,
            |mut m| {
                for e in &envelopes {
                    m.submit(e.clone()).unwrap();
                }
                m
            },
            BatchSize::SmallInput,
        )
    });
    let mut m = fresh_match();
    for e in &envelopes {
        m.submit(e.clone()).unwrap();
    }
    let replay = ReplayFile::of_match(&m).unwrap();
    group.bench_function("verify_replay_microban_1", |b| {
        b.iter(|| verify::<Sokoban>(&replay).unwrap())
    });
    group.finish();
}

criterion_group!(benches, receipted);
criterion_main!(benches);
