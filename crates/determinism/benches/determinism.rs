//! Criterion benchmarks of the determinism kit's hot paths: draws, shuffles, stream
//! derivation, Fixed arithmetic, canonical serialization and fingerprints.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use serde::Serialize;
use turnstile_determinism::canonical::{from_json_text, to_canonical_vec, CanonicalWriter};
use turnstile_determinism::stream::{StreamTable, Streams};
use turnstile_determinism::{derive_stream, Chance, Fingerprint, Fingerprinter, Fixed, Pcg32};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Joker {
    id: u32,
    edition: &'static str,
    mult: Fixed,
}

/// A small match-state-like value, about 300 bytes of canonical JSON.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Sample {
    sequence: u64,
    tick: u64,
    seat: u32,
    phase: &'static str,
    score: Fixed,
    chips: i64,
    money: i64,
    hand: Vec<u32>,
    jokers: Vec<Joker>,
    lucky: Chance,
    streams: Streams,
}

fn sample() -> Sample {
    const TABLE: StreamTable = StreamTable::new(&["shuffle", "joker_proc"]);
    Sample {
        sequence: 1234,
        tick: 98_765,
        seat: 1,
        phase: "scoring",
        score: Fixed::from_raw(123_456_789),
        chips: 4_500,
        money: 27,
        hand: vec![3, 17, 22, 41, 50],
        jokers: vec![
            Joker {
                id: 7,
                edition: "foil",
                mult: Fixed::from_raw(15_000),
            },
            Joker {
                id: 12,
                edition: "base",
                mult: Fixed::from_raw(20_000),
            },
        ],
        lucky: Chance::new(1, 4).unwrap(),
        streams: Streams::new("bench-seed", &TABLE).unwrap(),
    }
}

fn generator(c: &mut Criterion) {
    let mut rng = Pcg32::new(42, 54);
    c.bench_function("pcg32/next_u32", |b| b.iter(|| black_box(rng.next_u32())));
    c.bench_function("pcg32/below_6", |b| {
        b.iter(|| black_box(rng.below(black_box(6))))
    });
    c.bench_function("pcg32/below_2^31+1", |b| {
        b.iter(|| black_box(rng.below(black_box((1 << 31) + 1))))
    });
    let mut deck: Vec<u32> = (0..52).collect();
    c.bench_function("pcg32/shuffle_52", |b| {
        b.iter(|| {
            rng.shuffle(black_box(&mut deck)).unwrap();
        })
    });
    let chance = Chance::new(1, 4).unwrap();
    c.bench_function("chance/roll", |b| {
        b.iter(|| black_box(black_box(chance).roll(&mut rng)))
    });
    c.bench_function("stream/derive_stream", |b| {
        b.iter(|| {
            black_box(derive_stream(
                black_box("demo-seed"),
                black_box("joker_proc"),
            ))
        })
    });
}

fn fixed(c: &mut Criterion) {
    let a = Fixed::from_raw(-15_000);
    let d = Fixed::from_raw(3_333);
    c.bench_function("fixed/mul", |b| {
        b.iter(|| black_box(black_box(a).mul(black_box(d))))
    });
    c.bench_function("fixed/div", |b| {
        b.iter(|| black_box(black_box(a).div(black_box(d))))
    });
    c.bench_function("fixed/parse", |b| {
        b.iter(|| black_box(black_box("-1234.5678").parse::<Fixed>()))
    });
}

fn canonical(c: &mut Criterion) {
    let value = sample();
    let bytes = to_canonical_vec(&value).unwrap();
    assert!(
        (250..400).contains(&bytes.len()),
        "sample is {} bytes",
        bytes.len()
    );
    c.bench_function("canonical/to_vec_300B", |b| {
        b.iter(|| black_box(to_canonical_vec(black_box(&value)).unwrap()))
    });
    let mut writer = CanonicalWriter::new();
    c.bench_function("canonical/reused_writer_300B", |b| {
        b.iter(|| black_box(writer.write(black_box(&value)).unwrap().len()))
    });
    let text = String::from_utf8(bytes).unwrap();
    c.bench_function("canonical/from_json_text_300B", |b| {
        b.iter(|| black_box(from_json_text(black_box(&text)).unwrap()))
    });
    c.bench_function("fingerprint/of_300B", |b| {
        b.iter(|| black_box(Fingerprint::of(black_box(&value)).unwrap()))
    });
    let mut fingerprinter = Fingerprinter::new();
    c.bench_function("fingerprint/reused_300B", |b| {
        b.iter(|| black_box(fingerprinter.fingerprint(black_box(&value)).unwrap()))
    });
}

criterion_group!(benches, generator, fixed, canonical);
criterion_main!(benches);
