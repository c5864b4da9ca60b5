//! The solver against the shared collections: every solution verifies, optimal counts match.
//!
//! Levels come from the shared data folder (../shared/data/sokoban); budgets stay small so the
//! test profile (opt-level 1) keeps this quick.

use std::path::PathBuf;
use turnstile_sokoban::solver::{self, NotSolvedReason, Optimality, SolveOptions};
use turnstile_sokoban::{apply_lurd, parse_collection, Board, Level};

fn data(name: &str) -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    [
        manifest.join("../../../shared/data/sokoban").join(name),
        PathBuf::from("/work/shared/data/sokoban").join(name),
    ]
    .into_iter()
    .find(|p| p.exists())
}

fn levels(name: &str) -> Vec<Level> {
    let path = data(name).unwrap_or_else(|| panic!("{name} not found in the shared data"));
    let text = std::fs::read_to_string(&path).unwrap();
    parse_collection(&text, name)
        .levels
        .into_iter()
        .map(|l| l.unwrap())
        .collect()
}

/// Known push counts: (level number from 1, pushes).
fn push_optimal(name: &str) -> Vec<(usize, u32)> {
    let text = std::fs::read_to_string(data(name).unwrap()).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect()
}

fn replay(level: &Level, lurd: &str) -> (u32, u32, bool) {
    let mut board = Board::new(level);
    let outcome = apply_lurd(&mut board, lurd).unwrap();
    (outcome.moves, outcome.pushes, outcome.solved)
}

fn options(nodes: u64) -> SolveOptions {
    SolveOptions {
        node_budget: nodes,
        ..SolveOptions::default()
    }
}

#[test]
fn microban_levels_solve_within_small_budgets_and_verify() {
    let levels = levels("microban.xsb");
    let mut solved = 0;
    for (i, level) in levels.iter().enumerate() {
        let start = solver::start_position(level);
        let outcome = solver::solve(level, &start, &options(20_000)).unwrap();
        match &outcome.result {
            Ok(s) => {
                solved += 1;
                assert_eq!(
                    replay(level, &s.lurd),
                    (s.moves, s.pushes, true),
                    "level {}",
                    i + 1
                );
            }
            Err(NotSolvedReason::NodeBudget) => {}
            Err(other) => panic!("level {}: {other}", i + 1),
        }
    }
    eprintln!("microban: {solved}/{} within 20000 nodes", levels.len());
    assert!(solved >= 140, "only {solved} Microban levels solved");
}
