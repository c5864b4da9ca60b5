//! Tic-Tac-Toe's bare rules in a loop, for profilers (`perf record`, `valgrind
//! --tool=callgrind`) and quick before/after timings without building the whole command line:
//! `cargo run --release -p turnstile-tictactoe --example bare_games -- [games]`.
//!
//! The workload is `turnstile bench tictactoe`'s `random_games_bare` (docs/benchmarks.md):
//! uniformly random games from the generator of `bot:0` for the seed `bench`, a fresh state per
//! game, the resolver's `apply_lean_into` per move and the lists kept from game to game — what the peers' comparison counts,
//! where a Tic-Tac-Toe game's setup weighs as much as a few of its moves. It prints games,
//! moves, nanoseconds a game and games a second. The wall clock is read here, at the edge,
//! never in rules.

use std::time::Instant;

use turnstile_core::Seat;
use turnstile_mnk::MatchConfig;
use turnstile_runtime::bot_generator;
use turnstile_runtime::testing::BareGames;
use turnstile_tictactoe::TicTacToe;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let bundle = turnstile_tictactoe::bundled().expect("the bundled content loads");
    let mut rng = bot_generator("bench", Seat(0)).expect("a generator");
    let start = Instant::now();
    let mut moves = 0u64;
    let mut bare = BareGames::<TicTacToe>::new();
    for _ in 0..games {
        moves += u64::from(
            bare.play(&bundle.content, &MatchConfig::default(), &mut rng)
                .expect("a game"),
        );
    }
    let nanos = start.elapsed().as_nanos().max(1);
    let per_game = nanos / u128::from(games.max(1));
    let per_second = u128::from(games) * 1_000_000_000 / nanos;
    println!("bare: {games} games, {moves} moves, {per_game} ns a game, {per_second} games/s");
}
