//! Connect Four's hot paths, with the benchmarks every m,n,k-game runs (`games/mnk/benches/variant_benches.rs`): random games per second, bare and with receipts; the strong bot's search
//! in the opening and in a middle game.

#[path = "../../mnk/benches/variant_benches.rs"]
mod common;

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use turnstile_connect4::{bundled, ConnectFourRules};

fn benches(c: &mut Criterion) {
    let bundle = Arc::new(bundled().unwrap());
    common::games::<ConnectFourRules>(c, &bundle);
    let positions = [
        ("opening", vec![]),
        ("middle game", vec![3, 3, 2, 4, 4, 2, 5, 1]),
    ];
    common::search::<ConnectFourRules>(c, &bundle, &positions);
}

criterion_group!(connect4, benches);
criterion_main!(connect4);
