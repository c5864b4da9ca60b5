//! The hot paths of a Connect Four match, each in a loop of its own, for profilers
//! (`perf record`, `valgrind --tool=callgrind`) and quick before/after timings without building
//! the whole command line: `cargo run --release -p turnstile-connect4 --example hotpaths --
//! [bare|bare-signals|receipted|verify|parse|text|all] [moves]`.
//!
//! The workloads are `turnstile bench connect4`'s (docs/benchmarks.md): uniformly random games
//! from the generator of `bot:0` for the seed `bench`, on the bare rules (the resolver's
//! `apply_lean_into`, as a format-3 match runs a command; `bare-signals`: `apply_into`, every
//! signal made), through `Match::submit` (receipts, fingerprints, hashes), and the verification
//! of those matches' replay files (one `Verifier` for all of them) — as trees (`verify`), or
//! from their text as `turnstile replay verify` reads them (`text`, reading included), beside
//! the reading of the text into trees alone (`parse`). It prints one line per path: moves,
//! nanoseconds a move, moves a second. The wall clock is read here, at the edge, never in rules.

use std::sync::Arc;
use std::time::Instant;

use turnstile_connect4::ConnectFour;
use turnstile_core::{CommandEnvelope, Game, Seat};
use turnstile_mnk::MatchConfig;
use turnstile_runtime::testing::BareGames;
use turnstile_runtime::{
    bot_generator, Match, MatchSpec, ReplayFile, ReplayText, SeatSpec, Verifier,
};

fn report(path: &str, moves: u64, start: Instant) {
    let nanos = start.elapsed().as_nanos().max(1);
    let per_move = nanos / u128::from(moves.max(1));
    let per_second = u128::from(moves) * 1_000_000_000 / nanos;
    println!("{path}: {moves} moves, {per_move} ns a move, {per_second} moves/s");
}

/// One random game through a match, as `random_receipted_game` plays it.
fn receipted_game(
    bundle: &Arc<turnstile_core::ContentBundle<turnstile_mnk::Rules>>,
    rng: &mut turnstile_core::determinism::Pcg32,
) -> Match<ConnectFour> {
    let spec = MatchSpec {
        config: MatchConfig::default(),
        seed: "bench".into(),
        seats: vec![SeatSpec::human(); 2],
        tick_rate: 10,
    };
    let mut game = Match::<ConnectFour>::new(bundle.clone(), spec).expect("a match");
    let mut moves = 0u64;
    while game.state().result().is_none() {
        let seat = game.state().to_move().expect("a seat to move");
        let mut actions = ConnectFour::enumerate_actions(&bundle.content, game.state(), seat);
        let n = u32::try_from(actions.len()).expect("few actions");
        let action = actions.swap_remove(rng.below(n).expect("a bound") as usize);
        let envelope = CommandEnvelope {
            command_id: format!("m{moves}"),
            seat: Some(seat),
            expected_sequence: game.sequence(),
            expected_step: None,
            tick: 0,
            action,
        };
        game.submit(envelope).expect("a legal move");
        moves += 1;
    }
    game
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "all".into());
    let moves: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200_000);
    let bundle = Arc::new(turnstile_connect4::bundled().expect("the bundled content loads"));
    let generator = || bot_generator("bench", Seat(0)).expect("a generator");
    if path == "bare" || path == "all" {
        let mut rng = generator();
        let mut games = BareGames::<ConnectFour>::new();
        let (start, mut done) = (Instant::now(), 0u64);
        while done < moves.saturating_mul(10) {
            done += u64::from(
                games
                    .play(&bundle.content, &MatchConfig::default(), &mut rng)
                    .expect("a game"),
            );
        }
        report("bare", done, start);
    }
    if path == "bare-signals" || path == "all" {
        let mut rng = generator();
        let mut games = BareGames::<ConnectFour>::new();
        let (start, mut done) = (Instant::now(), 0u64);
        while done < moves.saturating_mul(10) {
            done += u64::from(
                games
                    .play_with_signals(&bundle.content, &MatchConfig::default(), &mut rng)
                    .expect("a game"),
            );
        }
        report("bare-signals", done, start);
    }
    if path == "receipted" || path == "all" {
        let mut rng = generator();
        let (start, mut done) = (Instant::now(), 0u64);
        while done < moves {
            done += receipted_game(&bundle, &mut rng).sequence();
        }
        report("receipted", done, start);
    }
    if path == "verify" || path == "all" {
        let mut rng = generator();
        let (mut files, mut logged) = (Vec::new(), 0u64);
        while logged < moves.min(100_000) {
            let game = receipted_game(&bundle, &mut rng);
            logged += game.sequence();
            files.push(ReplayFile::of_match(&game).expect("a replay file"));
        }
        // One verifier for all the files, as `turnstile bench` runs it: the shared embedded
        // bundle is decoded and validated once.
        let mut verifier = Verifier::<ConnectFour>::new();
        let (start, mut done) = (Instant::now(), 0u64);
        for file in &files {
            let report = verifier.verify(file).expect("a replay");
            assert!(report.divergence.is_none(), "a fresh replay diverged");
            done += report.verified;
        }
        report("verify", done, start);
    }
    if path == "parse" || path == "text" || path == "all" {
        // From the files' text: `parse` reads each into a `ReplayFile` (a JSON tree of every
        // entry) and stops there; `text` does what `turnstile replay verify` does, reading each
        // as a `ReplayText` and verifying it, entries compared as text.
        let mut rng = generator();
        let (mut texts, mut logged) = (Vec::new(), 0u64);
        while logged < moves.min(100_000) {
            let game = receipted_game(&bundle, &mut rng);
            logged += game.sequence();
            let file = ReplayFile::of_match(&game).expect("a replay file");
            texts.push(file.to_json().expect("replay text"));
        }
        if path != "text" {
            let start = Instant::now();
            for text in &texts {
                ReplayFile::parse(text).expect("a replay");
            }
            report("parse", logged, start);
        }
        if path != "parse" {
            let mut verifier = Verifier::<ConnectFour>::new();
            let (start, mut done) = (Instant::now(), 0u64);
            for text in &texts {
                let replay = ReplayText::parse(text).expect("a replay");
                let report = verifier.verify_text(&replay).expect("a replay");
                assert!(report.divergence.is_none(), "a fresh replay diverged");
                done += report.verified;
            }
            report("text", done, start);
        }
    }
}
