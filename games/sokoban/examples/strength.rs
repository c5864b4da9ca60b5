//! The solver's strength at a fixed node budget: solved levels of a collection, independent of
//! the machine's speed and load (the search is deterministic on one thread).
//!
//! ```sh
//! cargo run --release -p turnstile-sokoban --example strength -- FILE.xsb NODES [FIRST-LAST] [THREADS]
//! ```
//!
//! `THREADS` (default 1) runs the portfolio of `SolveOptions::threads`, each search with the
//! whole node budget: a level counts as solved when any of them solves it within `NODES`.
//!
//! Prints one line per level (solved or not, pushes, nodes) and a total; `bench/solver/run.sh`
//! gives the wall-clock table of docs/sokoban-solver.md, this gives the load-free one.

use std::io::Write;
use std::process::ExitCode;
use turnstile_sokoban::{parse_collection, solver};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(nodes)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!("usage: strength FILE.xsb NODES [FIRST-LAST] [THREADS]");
        return ExitCode::from(2);
    };
    let range = args.get(3).and_then(|r| {
        let (a, b) = r.split_once('-')?;
        Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?))
    });
    let threads = args.get(4).and_then(|t| t.parse::<u32>().ok()).unwrap_or(1);
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(3);
        }
    };
    let collection = parse_collection(&text, file);
    let options = solver::SolveOptions {
        node_budget: nodes,
        memory_limit_bytes: 2 << 30,
        threads,
        ..solver::SolveOptions::default()
    };
    // A closed stdout (`| head`) ends the run quietly instead of panicking.
    let mut out = std::io::stdout().lock();
    let (mut solved, mut asked, mut total_nodes) = (0, 0, 0u64);
    for (i, level) in collection.levels.iter().enumerate() {
        let number = i + 1;
        if range.is_some_and(|(a, b)| number < a || number > b) {
            continue;
        }
        let Ok(level) = level else { continue };
        asked += 1;
        let start = solver::start_position(level);
        let Ok(outcome) = solver::solve(level, &start, &options) else {
            continue;
        };
        total_nodes += outcome.nodes;
        let line = match &outcome.result {
            Ok(s) => {
                solved += 1;
                writeln!(out, "{number}\tsolved\t{}\t{}", s.pushes, outcome.nodes)
            }
            Err(reason) => writeln!(out, "{number}\t{}\t-\t{}", reason.code(), outcome.nodes),
        };
        if line.is_err() {
            return ExitCode::SUCCESS;
        }
    }
    let _ = writeln!(out, "total\t{solved}/{asked}\tnodes\t{total_nodes}");
    ExitCode::SUCCESS
}
