//! The optimizer: shortens a known solution without changing where it starts.
//!
//! Three passes, each kept only when it verifies and is no worse in the metric asked for:
//!
//! 1. **Loops.** The solution's pushes are replayed; whenever a position (boxes and the
//!    player's region) comes back, the pushes between its two visits are cut.
//! 2. **Walks.** Between consecutive pushes the player walks the shortest path (the pushes and
//!    their order unchanged), so moves never grow.
//! 3. **Search.** An optimal search ([`Strategy::PushOptimal`] or [`Strategy::MoveOptimal`])
//!    seeded with the solution's length as an upper bound: it only keeps nodes that could lead
//!    to something strictly shorter. Finishing without one proves the solution optimal.

use super::graph::NONE;
use super::search::{self, Ending, Limits, Push, Strategy};
use super::{NotSolvedReason, Optimality, PositionError, Problem, Solution, SolveOptions};
use crate::board::Position;
use crate::level::Level;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use thiserror::Error;

/// A shortened solution and what each pass gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Optimized {
    /// The best solution found (the original when nothing shorter was).
    pub solution: Solution,
    /// Moves and pushes of the solution given.
    pub original: (u32, u32),
    /// Moves and pushes after removing loops and re-planning walks.
    pub replanned: (u32, u32),
    /// Whether the search finished and proved `solution` optimal in the metric.
    pub proven_optimal: bool,
    /// Nodes the search expanded.
    pub nodes: u64,
}

/// Why a solution can't be optimized.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptimizeError {
    /// The position does not fit the level.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The moves given do not solve the level from the position.
    #[error("the solution given does not solve the level: {0}")]
    NotASolution(String),
}

impl OptimizeError {
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            OptimizeError::Position(e) => e.code(),
            OptimizeError::NotASolution(_) => "not_a_solution",
        }
    }
}

/// Shortens `lurd`, a solution of `level` from `position`, in `metric` (the other count breaks
/// ties). The search pass uses `options`' node and memory budgets and cancel flag.
pub fn optimize(
    level: &Level,
    position: &Position,
    lurd: &str,
    metric: Optimality,
    options: &SolveOptions,
) -> Result<Optimized, OptimizeError> {
    let problem = Problem::new(level, position)?;
    let compact: String = lurd.chars().filter(|c| !c.is_whitespace()).collect();
    let original = problem
        .verify(compact.clone(), None)
        .map_err(|e| OptimizeError::NotASolution(detail(e)))?;
    let pushes = pushes_of(&problem, &compact)
        .ok_or_else(|| OptimizeError::NotASolution("a step leaves the level".into()))?;
    let pushes = without_loops(&problem, &pushes);
    let rank = |s: &Solution| match metric {
        Optimality::Pushes => (s.pushes, s.moves),
        Optimality::Moves => (s.moves, s.pushes),
    };
    let mut best = original.clone();
    if let Ok(replanned) = problem.solution(&pushes, None) {
        if rank(&replanned) <= rank(&best) {
            best = replanned;
        }
    }
    let replanned = (best.moves, best.pushes);
    let strategy = match metric {
        Optimality::Pushes => Strategy::PushOptimal,
        Optimality::Moves => Strategy::MoveOptimal,
    };
    let flags: Vec<&AtomicBool> = options.cancel.as_deref().into_iter().collect();
    let limits = Limits {
        nodes: options.node_budget,
        memory: options.memory_limit_bytes,
        cancel: &flags,
        below: Some(rank(&best).0),
    };
    let report = search::search(
        &problem.graph,
        &problem.boxes,
        problem.player,
        strategy,
        &limits,
    );
    let mut proven_optimal = report.ending == Ending::Exhausted;
    if let Ending::Found(found) = &report.ending {
        if let Ok(shorter) = problem.solution(found, Some(metric)) {
            if rank(&shorter) < rank(&best) {
                best = shorter;
                proven_optimal = true;
            }
        }
    }
    if proven_optimal {
        best.optimal = Some(metric);
    }
    Ok(Optimized {
        solution: best,
        original: (original.moves, original.pushes),
        replanned,
        proven_optimal,
        nodes: report.nodes,
    })
}

fn detail(reason: NotSolvedReason) -> String {
    match reason {
        NotSolvedReason::Rejected { detail } => detail,
        other => other.to_string(),
    }
}

/// The pushes of a (verified) LURD solution, in compact cells.
fn pushes_of(problem: &Problem, lurd: &str) -> Option<Vec<Push>> {
    let graph = &problem.graph;
    let mut occupied = vec![false; graph.len()];
    for &b in &problem.boxes {
        occupied[usize::from(b)] = true;
    }
    let mut player = problem.player;
    let mut pushes = Vec::new();
    for letter in lurd.bytes() {
        let lower = letter.to_ascii_lowercase();
        let d = graph.letters.iter().position(|&l| l == lower)?;
        let to = graph.next(player, d);
        if to == NONE {
            return None;
        }
        if occupied[usize::from(to)] {
            let beyond = graph.next(to, d);
            if beyond == NONE {
                return None;
            }
            occupied[usize::from(to)] = false;
            occupied[usize::from(beyond)] = true;
            pushes.push(Push {
                from: to,
                dir: d as u8,
            });
        }
        player = to;
    }
    Some(pushes)
}

/// Cuts the pushes between two visits of the same position (boxes and player region).
fn without_loops(problem: &Problem, pushes: &[Push]) -> Vec<Push> {
    let graph = &problem.graph;
    let mut boxes = problem.boxes.clone();
    let mut player = problem.player;
    let key = |boxes: &[u16], player: u16| {
        let mut sorted = boxes.to_vec();
        sorted.sort_unstable();
        (sorted, region_min(problem, boxes, player))
    };
    // The kept pushes and, per kept prefix, its position.
    let mut kept: Vec<Push> = Vec::new();
    let mut seen: BTreeMap<(Vec<u16>, u16), usize> = BTreeMap::new();
    let mut trail = vec![key(&boxes, player)];
    seen.insert(trail[0].clone(), 0);
    for push in pushes {
        let Some(k) = boxes.iter().position(|&b| b == push.from) else {
            return pushes.to_vec();
        };
        boxes[k] = graph.next(push.from, usize::from(push.dir));
        player = push.from;
        kept.push(*push);
        let here = key(&boxes, player);
        if let Some(&at) = seen.get(&here) {
            // Back where we were after `at` pushes: drop the loop.
            for dropped in trail.drain(at + 1..) {
                seen.remove(&dropped);
            }
            kept.truncate(at);
        } else {
            seen.insert(here.clone(), trail.len());
            trail.push(here);
        }
    }
    kept
}

/// The smallest cell of the player's region around `boxes`.
fn region_min(problem: &Problem, boxes: &[u16], player: u16) -> u16 {
    let graph = &problem.graph;
    let mut occupied = vec![false; graph.len()];
    for &b in boxes {
        occupied[usize::from(b)] = true;
    }
    let mut seen = vec![false; graph.len()];
    seen[usize::from(player)] = true;
    let mut stack = vec![player];
    let mut smallest = player;
    while let Some(c) = stack.pop() {
        smallest = smallest.min(c);
        for d in 0..graph.dirs {
            let n = graph.next(c, d);
            if n != NONE && !occupied[usize::from(n)] && !seen[usize::from(n)] {
                seen[usize::from(n)] = true;
                stack.push(n);
            }
        }
    }
    smallest
}
