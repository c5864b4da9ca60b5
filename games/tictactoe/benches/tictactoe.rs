//! Tic-Tac-Toe's hot paths (see `common`): random games per second, bare and with receipts; the
//! perfect bot's full search from the empty board and after two moves.

#[path = "../../mnk/benches/variant_benches.rs"]
mod common;

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use turnstile_mnk::Cell;
use turnstile_tictactoe::{bundled, TicTacToeRules};

fn benches(c: &mut Criterion) {
    let bundle = Arc::new(bundled().unwrap());
    common::games::<TicTacToeRules>(c, &bundle);
    let positions = [
        ("empty board", vec![]),
        ("after two moves", vec![Cell::new(0, 0), Cell::new(1, 1)]),
    ];
    common::search::<TicTacToeRules>(c, &bundle, &positions);
}

criterion_group!(tictactoe, benches);
criterion_main!(tictactoe);
