//! `turnstile bench <game|all>`: end-to-end throughput, printed as JSON lines.
//!
//! Each line names the game, what was measured, how many commands, how long they took and the
//! rate. Set-up (parsing content, creating matches, building replay files) happens before the
//! clock starts, so the figures are for the measured work alone. The wall clock lives here, at
//! the edge, and never in rules. Criterion's `cargo bench` owns the micro-benchmarks.

use crate::exit::Outcome;
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use turnstile_core::{CommandEnvelope, ContentBundle, Seat};
use turnstile_runtime::{verify, Match, MatchSpec, ReplayFile, SeatSpec};
use turnstile_sokoban::{
    parse_collection, parse_lurd, Board, Direction, Sokoban, SokobanAction, SokobanConfig,
    SokobanContent,
};

/// The games with an end-to-end benchmark.
const GAMES: &[&str] = &["sokoban"];

/// One measured figure.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Figure {
    game: &'static str,
    bench: &'static str,
    what: &'static str,
    commands: u64,
    seconds: String,
    per_second: u64,
}

fn figure(
    game: &'static str,
    bench: &'static str,
    what: &'static str,
    commands: u64,
    took: Duration,
) -> Figure {
    let nanos = took.as_nanos().max(1);
    Figure {
        game,
        bench,
        what,
        commands,
        seconds: format!("{}.{:06}", took.as_secs(), took.subsec_micros()),
        per_second: u64::try_from(u128::from(commands) * 1_000_000_000 / nanos).unwrap_or(u64::MAX),
    }
}

/// Runs the benchmarks of one game, or of all.
pub fn run(game: &str, commands: u64) -> Outcome {
    let games: Vec<&str> = match game {
        "all" => GAMES.to_vec(),
        g if GAMES.contains(&g) => vec![g],
        other => {
            return Outcome::usage(format!(
                "no benchmark for {other:?}; choose one of {} or all",
                GAMES.join(", ")
            ))
        }
    };
    for g in games {
        let figures = match g {
            "sokoban" => sokoban(commands.max(1)),
            _ => unreachable!("listed in GAMES"),
        };
        for f in figures {
            println!("{}", serde_json::to_string(&f).expect("figures serialize"));
        }
    }
    Outcome::ok()
}

const MICROBAN: &str = include_str!("../../../games/sokoban/content/levels/microban.xsb");
const SOLUTIONS: &str = include_str!("../../../games/sokoban/tests/data/microban-pushopt-bfs.tsv");

/// The known Microban solutions: (level number, moves).
fn solutions() -> Vec<(u32, Vec<Direction>)> {
    SOLUTIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let level = cols.first()?.parse().ok()?;
            let steps = parse_lurd(cols.get(3)?).ok()?;
            Some((level, steps.into_iter().map(|s| s.direction).collect()))
        })
        .collect()
}

/// Sokoban: the known Microban solutions, played one after another until `commands` moves.
fn sokoban(commands: u64) -> Vec<Figure> {
    let levels: Vec<_> = parse_collection(MICROBAN, "microban.xsb")
        .valid_levels()
        .cloned()
        .collect();
    // The known solutions, cycled until they add up to `commands` moves.
    let known = solutions();
    let mut solutions: Vec<(u32, Vec<Direction>)> = Vec::new();
    let mut total = 0u64;
    for (level, steps) in known.iter().cycle() {
        if total >= commands {
            break;
        }
        total += steps.len() as u64;
        solutions.push((*level, steps.clone()));
    }

    // Bare rules: Board::step alone.
    let mut boards: Vec<(Board, &[Direction])> = solutions
        .iter()
        .map(|(level, steps)| (Board::new(&levels[*level as usize - 1]), steps.as_slice()))
        .collect();
    let start = Instant::now();
    let mut moves = 0u64;
    for (board, steps) in &mut boards {
        for &d in steps.iter() {
            let outcome = board.step(d).expect("known solutions are legal");
            std::hint::black_box(outcome);
        }
        moves += steps.len() as u64;
    }
    let bare = figure(
        "sokoban",
        "bare_moves",
        "Board::step on known solutions",
        moves,
        start.elapsed(),
    );
    drop(boards);

    // Receipted: every move a command through Match::submit, with fingerprints and hashes.
    let bundle = Arc::new(
        ContentBundle::new("sokoban", SokobanContent::single("microban", levels))
            .expect("content fingerprints"),
    );
    let new_match = |level: u32| {
        Match::<Sokoban>::new(
            bundle.clone(),
            MatchSpec {
                config: SokobanConfig {
                    collection: "microban".into(),
                    level,
                },
                seed: String::new(),
                seats: vec![SeatSpec::human()],
                tick_rate: 10,
            },
        )
        .expect("bundled levels set up")
    };
    let envelopes: Vec<Vec<CommandEnvelope<SokobanAction>>> = solutions
        .iter()
        .map(|(_, steps)| {
            steps
                .iter()
                .enumerate()
                .map(|(i, &direction)| CommandEnvelope {
                    command_id: format!("m{i}"),
                    seat: Some(Seat(0)),
                    expected_sequence: i as u64,
                    expected_step: None,
                    tick: i as u64,
                    action: SokobanAction::Move { direction },
                })
                .collect()
        })
        .collect();
    let mut matches: Vec<Match<Sokoban>> = solutions
        .iter()
        .map(|(level, _)| new_match(*level))
        .collect();
    let start = Instant::now();
    let mut receipted = 0u64;
    for (m, envelopes) in matches.iter_mut().zip(&envelopes) {
        for envelope in envelopes {
            m.submit(envelope.clone())
                .expect("known solutions are legal");
        }
        receipted += envelopes.len() as u64;
    }
    let with_receipts = figure(
        "sokoban",
        "receipted_commands",
        "Match::submit with fingerprints, view fingerprints and chained receipt hashes",
        receipted,
        start.elapsed(),
    );

    // Replay verification: each match's replay file, bundle decoding and revision included.
    let replays: Vec<ReplayFile> = matches
        .iter()
        .map(|m| ReplayFile::of_match(m).expect("replays serialize"))
        .collect();
    drop(matches);
    let start = Instant::now();
    let mut verified = 0u64;
    for replay in &replays {
        let report = verify::<Sokoban>(replay).expect("replays verify");
        assert!(report.divergence.is_none(), "a fresh replay diverged");
        verified += report.verified;
    }
    let replay = figure(
        "sokoban",
        "replay_verify",
        "turnstile replay verify: typed decode, re-execution and comparison of every receipt",
        verified,
        start.elapsed(),
    );
    vec![bare, with_receipts, replay]
}
