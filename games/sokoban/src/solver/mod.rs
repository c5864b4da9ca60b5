//! The Sokoban solver: push-level search with deadlock pruning, hints and a deadlock check.
//!
//! Pure and deterministic: no I/O, no clock, no hash maps. With one thread, the same level,
//! position and [`SolveOptions`] always give the same [`SolveOutcome`]; time limits belong to the
//! caller, who raises [`SolveOptions::cancel`] when time is up (the search checks it every few
//! dozen nodes). See docs/sokoban-solver.md for how the search works and how strong it is.
//!
//! The API other parts of Turnstile call:
//!
//! * [`solve`]: a solution (LURD, moves, pushes) from any position, satisficing or optimal in
//!   pushes or moves ([`Optimality`]), within a node and memory budget.
//! * [`hint`]: the next push from a position (the box, where it goes, and the walk to it).
//! * [`deadlocked`]: a cheap "still solvable?" check beyond dead squares.
//! * [`optimize`]: shortens a known solution.
//!
//! Every solution [`solve`] returns has been replayed through [`crate::Board`] (the rules the
//! game and the server run) from the given position, and ends solved with the stated moves and
//! pushes; a solution that would not is reported as [`NotSolvedReason::Rejected`], never as
//! solved.
//!
//! ```
//! use turnstile_sokoban::{parse_collection, solver};
//!
//! let collection = parse_collection("; tiny\n######\n#@$ .#\n######\n", "tiny.xsb");
//! let level = collection.levels[0].as_ref().unwrap();
//! let start = solver::start_position(level);
//! let outcome = solver::solve(level, &start, &solver::SolveOptions::default()).unwrap();
//! let solution = outcome.solution().unwrap();
//! assert_eq!((solution.lurd.as_str(), solution.moves, solution.pushes), ("RR", 2, 2));
//! ```

mod corral;
mod deadlock;
mod features;
mod freeze;
mod graph;
mod matching;
mod optimize;
mod rooms;
mod search;

pub use optimize::{optimize, OptimizeError, Optimized};

use crate::board::{Board, Position};
use crate::grid::{Cell, Tile};
use crate::level::Level;
use crate::lurd::apply_lurd;
use graph::{CellGraph, NONE};
use search::{Ending, Limits, Push, Report, Strategy};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use thiserror::Error;

/// What a solution must be optimal in, if anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimality {
    /// The fewest pushes (moves are then short, but not minimized).
    Pushes,
    /// The fewest moves, walks included (for small levels: the search keeps exact player cells).
    Moves,
}

impl Optimality {
    /// `pushes` or `moves`.
    pub fn name(self) -> &'static str {
        match self {
            Optimality::Pushes => "pushes",
            Optimality::Moves => "moves",
        }
    }
}

/// The budget and the goal of a search.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Nodes (positions) to expand at most, per thread.
    pub node_budget: u64,
    /// Bytes the search's tables may hold, shared among the threads. Running out ends the
    /// search cleanly with [`NotSolvedReason::Memory`].
    pub memory_limit_bytes: u64,
    /// `None` for any solution (fast), or what the solution must be optimal in.
    pub optimal: Option<Optimality>,
    /// Raised by the caller to stop the search ([`NotSolvedReason::Cancelled`]).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Searches run in parallel, each with its own strategy (a portfolio); the first solution
    /// wins. With more than one the result may differ between runs. 0 counts as 1.
    pub threads: u32,
}

impl Default for SolveOptions {
    /// One million nodes, 512 MiB, any solution, one thread, no cancel flag.
    fn default() -> Self {
        SolveOptions {
            node_budget: 1_000_000,
            memory_limit_bytes: 512 << 20,
            optimal: None,
            cancel: None,
            threads: 1,
        }
    }
}

/// A verified solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Solution {
    /// The moves in LURD (lower case walks, upper case pushes), from the position solved.
    pub lurd: String,
    /// Moves in `lurd`.
    pub moves: u32,
    /// Pushes in `lurd`.
    pub pushes: u32,
    /// What the solution is proven optimal in, if anything.
    pub optimal: Option<Optimality>,
}

/// Why a search ended without a solution.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum NotSolvedReason {
    /// Every position reachable without a deadlock was searched: the position can't be solved.
    #[error("unsolvable: every position reachable from here was searched")]
    Unsolvable,
    /// The node budget ran out.
    #[error("the node budget ran out")]
    NodeBudget,
    /// The memory budget ran out.
    #[error("the memory budget ran out")]
    Memory,
    /// The caller raised the cancel flag (a time limit, usually).
    #[error("cancelled")]
    Cancelled,
    /// The search produced a solution the rules refused: a solver bug, never shown as solved.
    #[error("internal error: the solution found did not verify: {detail}")]
    Rejected {
        /// What the rules said.
        detail: String,
    },
}

impl NotSolvedReason {
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            NotSolvedReason::Unsolvable => "unsolvable",
            NotSolvedReason::NodeBudget => "node_budget",
            NotSolvedReason::Memory => "memory",
            NotSolvedReason::Cancelled => "cancelled",
            NotSolvedReason::Rejected { .. } => "solution_rejected",
        }
    }
}

/// What [`solve`] found, and the effort it took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveOutcome {
    /// The solution, or why there is none.
    pub result: Result<Solution, NotSolvedReason>,
    /// Nodes expanded (summed over threads).
    pub nodes: u64,
    /// Distinct positions stored (summed over threads).
    pub stored: u64,
    /// The strategy whose result this is (`features`, `weighted-3`, `astar-pushes`, ...).
    pub strategy: String,
}

impl SolveOutcome {
    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&Solution> {
        self.result.as_ref().ok()
    }
}

/// A position that does not fit the level.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "code")]
pub enum PositionError {
    /// The player is not on a floor cell of the level's region.
    #[error("the player's cell {cell} is not a floor cell of the level")]
    PlayerOffFloor {
        /// The player's cell index.
        cell: u16,
    },
    /// A box is neither on the region's floor nor one of the level's sealed-off boxes.
    #[error("box cell {cell} is not a floor cell of the level")]
    BoxOffFloor {
        /// The box's cell index.
        cell: u16,
    },
    /// Two boxes, or a box and the player, share a cell.
    #[error("cell {cell} holds two things (boxes or a box and the player)")]
    Overlap {
        /// The cell.
        cell: u16,
    },
    /// The number of boxes differs from the level's.
    #[error("the position has {found} boxes; the level has {expected}")]
    BoxCount {
        /// The level's boxes.
        expected: u32,
        /// The position's boxes.
        found: u32,
    },
}

impl PositionError {
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            PositionError::PlayerOffFloor { .. } => "position_player_off_floor",
            PositionError::BoxOffFloor { .. } => "position_box_off_floor",
            PositionError::Overlap { .. } => "position_overlap",
            PositionError::BoxCount { .. } => "position_box_count",
        }
    }
}

/// The level's start position.
pub fn start_position(level: &Level) -> Position {
    Position {
        player: level.player(),
        boxes: level.boxes().to_vec(),
    }
}

/// A position checked against its level, in the search's compact cells.
struct Problem {
    graph: CellGraph,
    boxes: Vec<u16>,
    player: u16,
    /// The position as a level of its own (its start), for verification through [`Board`].
    level: Level,
}

/// `position` on the level's cell graph: the player's compact cell and the boxes' (boxes sealed
/// off from the player's region left out), or why the position does not fit the level.
fn compact_position(
    graph: &CellGraph,
    level: &Level,
    position: &Position,
) -> Result<(u16, Vec<u16>), PositionError> {
    let expected = level.boxes().len();
    if position.boxes.len() != expected {
        return Err(PositionError::BoxCount {
            expected: expected as u32,
            found: position.boxes.len() as u32,
        });
    }
    let compact = |cell: Cell| graph.compact.get(cell.index()).copied().unwrap_or(NONE);
    let player = compact(position.player);
    if player == NONE {
        return Err(PositionError::PlayerOffFloor {
            cell: position.player.0,
        });
    }
    let mut taken = vec![false; level.tiles().len()];
    taken[position.player.index()] = true;
    let mut boxes = Vec::with_capacity(expected);
    for &b in &position.boxes {
        let c = compact(b);
        // Sealed-off boxes never move: they must stay where the level put them.
        if c == NONE && !(level.boxes().contains(&b) && level.tile(b) == Tile::Goal) {
            return Err(PositionError::BoxOffFloor { cell: b.0 });
        }
        if std::mem::replace(&mut taken[b.index()], true) {
            return Err(PositionError::Overlap { cell: b.0 });
        }
        if c != NONE {
            boxes.push(c);
        }
    }
    Ok((player, boxes))
}

impl Problem {
    fn new(level: &Level, position: &Position) -> Result<Problem, PositionError> {
        let graph = CellGraph::square(level, level.player());
        let (player, boxes) = compact_position(&graph, level, position)?;
        let level = level_at(level, position).ok_or(PositionError::PlayerOffFloor {
            cell: position.player.0,
        })?;
        Ok(Problem {
            graph,
            boxes,
            player,
            level,
        })
    }

    /// Turns pushes into LURD: before each push, the shortest walk to the cell behind the box
    /// (ties broken by the direction order). `None` if a push is impossible (a bug).
    fn lurd(&self, pushes: &[Push]) -> Option<String> {
        let graph = &self.graph;
        let mut occupied = vec![false; graph.len()];
        for &b in &self.boxes {
            occupied[usize::from(b)] = true;
        }
        let mut player = self.player;
        let mut out = Vec::new();
        for push in pushes {
            let behind = graph.next(
                push.from,
                usize::from(graph.opposite[usize::from(push.dir)]),
            );
            let to = graph.next(push.from, usize::from(push.dir));
            if behind == NONE || to == NONE || !occupied[usize::from(push.from)] {
                return None;
            }
            out.extend(walk(graph, &occupied, player, behind)?);
            if occupied[usize::from(to)] {
                return None;
            }
            out.push(graph.letters[usize::from(push.dir)].to_ascii_uppercase());
            occupied[usize::from(push.from)] = false;
            occupied[usize::from(to)] = true;
            player = push.from;
        }
        String::from_utf8(out).ok()
    }

    /// Replays `lurd` through the rules from the position; the solution if it ends solved.
    fn verify(
        &self,
        lurd: String,
        optimal: Option<Optimality>,
    ) -> Result<Solution, NotSolvedReason> {
        let mut board = Board::new(&self.level);
        let rejected = |detail: String| NotSolvedReason::Rejected { detail };
        let outcome = apply_lurd(&mut board, &lurd).map_err(|e| rejected(e.to_string()))?;
        let stated_pushes = lurd.bytes().filter(u8::is_ascii_uppercase).count() as u32;
        if !board.is_solved() {
            return Err(rejected("the level is not solved at the end".into()));
        }
        if outcome.moves != lurd.len() as u32 || outcome.pushes != stated_pushes {
            return Err(rejected(
                "moves or pushes differ from the solution's".into(),
            ));
        }
        Ok(Solution {
            lurd,
            moves: outcome.moves,
            pushes: outcome.pushes,
            optimal,
        })
    }

    /// A verified solution from a search's pushes.
    fn solution(
        &self,
        pushes: &[Push],
        optimal: Option<Optimality>,
    ) -> Result<Solution, NotSolvedReason> {
        let lurd = self.lurd(pushes).ok_or_else(|| NotSolvedReason::Rejected {
            detail: "a push of the search can't be played".into(),
        })?;
        self.verify(lurd, optimal)
    }
}

/// The shortest walk (lower-case letters) from `from` to `to` around the boxes.
fn walk(graph: &CellGraph, occupied: &[bool], from: u16, to: u16) -> Option<Vec<u8>> {
    if from == to {
        return Some(Vec::new());
    }
    let mut came = vec![NONE; graph.len()];
    let mut via = vec![0u8; graph.len()];
    came[usize::from(from)] = from;
    let mut queue = vec![from];
    let mut head = 0;
    while let Some(&c) = queue.get(head) {
        head += 1;
        for d in 0..graph.dirs {
            let n = graph.next(c, d);
            if n == NONE || occupied[usize::from(n)] || came[usize::from(n)] != NONE {
                continue;
            }
            came[usize::from(n)] = c;
            via[usize::from(n)] = d as u8;
            if n == to {
                let mut letters = Vec::new();
                let mut at = to;
                while at != from {
                    letters.push(graph.letters[usize::from(via[usize::from(at)])]);
                    at = came[usize::from(at)];
                }
                letters.reverse();
                return Some(letters);
            }
            queue.push(n);
        }
    }
    None
}

/// The level with its start replaced by `position` (walls and goals unchanged).
fn level_at(level: &Level, position: &Position) -> Option<Level> {
    let width = usize::from(level.width());
    let mut grid: Vec<Vec<u8>> = level
        .to_rows()
        .into_iter()
        .map(|row| {
            let mut row = row.into_bytes();
            row.resize(width, b' ');
            for c in &mut row {
                *c = match *c {
                    b'$' | b'@' => b' ',
                    b'*' | b'+' => b'.',
                    other => other,
                };
            }
            row
        })
        .collect();
    let mut put = |cell: Cell, on_floor: u8, on_goal: u8| {
        let (x, y) = level.xy(cell);
        let c = grid.get_mut(usize::from(y))?.get_mut(usize::from(x))?;
        *c = if *c == b'.' { on_goal } else { on_floor };
        Some(())
    };
    put(position.player, b'@', b'+')?;
    for &b in &position.boxes {
        put(b, b'$', b'*')?;
    }
    let rows: Vec<String> = grid
        .into_iter()
        .map(|row| String::from_utf8_lossy(&row).into_owned())
        .collect();
    let title = level.title().map(str::to_owned);
    let at = Level::from_rows_in(level.topology(), title, &rows, "position").ok()?;
    (at.width() == level.width() && at.height() == level.height()).then_some(at)
}

/// The searches of a portfolio of `threads` threads: each thread's strategies, with their
/// shares of its turns ([`search::mixed`]).
fn portfolio(optimal: Option<Optimality>, threads: u32) -> Vec<Vec<(Strategy, u64)>> {
    match optimal {
        Some(Optimality::Pushes) => vec![vec![(Strategy::PushOptimal, 1)]],
        Some(Optimality::Moves) => vec![vec![(Strategy::MoveOptimal, 1)]],
        // Four strategies of different greed, the feature-space search first, sharing its
        // thread with greedy best-first (see docs/sokoban-solver.md: each solves levels the
        // other does not); a fifth thread and beyond add weighted searches with ever greedier
        // weights (4, 5, ...), so every thread asked for runs a search.
        None => (0..threads.max(1))
            .map(|t| match t {
                0 => mixed_shares(),
                1 => vec![(Strategy::Weighted(3), 1)],
                2 => vec![(Strategy::Weighted(2), 1)],
                3 => vec![(Strategy::PushOptimal, 1)],
                more => vec![(Strategy::Weighted(more), 1)],
            })
            .collect(),
    }
}

/// The one-thread search: the feature-space search three turns in four, greedy best-first
/// the fourth. Measured 2026-12-07 (docs/sokoban-solver.md): greedy solves some levels within
/// a quarter of the budget that the feature-space search misses (XSokoban 68 and 79), and the
/// feature-space search loses no level measured to its smaller share.
fn mixed_shares() -> Vec<(Strategy, u64)> {
    vec![(Strategy::Features, 3), (Strategy::Greedy, 1)]
}

fn strategy_name(strategy: Strategy) -> String {
    match strategy {
        Strategy::Greedy => "greedy".into(),
        Strategy::Features => "features".into(),
        Strategy::Weighted(w) => format!("weighted-{w}"),
        Strategy::PushOptimal => "astar-pushes".into(),
        Strategy::MoveOptimal => "astar-moves".into(),
    }
}

/// Solves the level from `position`. See the [module documentation](self).
///
/// Errors only when the position does not fit the level; every other ending (no solution within
/// the budgets, proven unsolvable, cancelled) is a [`SolveOutcome`] with a [`NotSolvedReason`].
pub fn solve(
    level: &Level,
    position: &Position,
    options: &SolveOptions,
) -> Result<SolveOutcome, PositionError> {
    let problem = Problem::new(level, position)?;
    let strategies = portfolio(options.optimal, options.threads.max(1));
    let done = AtomicBool::new(false);
    let memory = options.memory_limit_bytes / strategies.len() as u64;
    let run = |shares: &[(Strategy, u64)], stop_others: bool| -> (Strategy, Report) {
        let mut flags: Vec<&AtomicBool> = vec![&done];
        if let Some(c) = &options.cancel {
            flags.push(c);
        }
        let limits = Limits {
            nodes: options.node_budget,
            memory,
            cancel: &flags,
            below: None,
        };
        let (strategy, report) = search::mixed(
            &problem.graph,
            &problem.boxes,
            problem.player,
            shares,
            &limits,
        );
        if stop_others && matches!(report.ending, Ending::Found(_) | Ending::Exhausted) {
            done.store(true, Ordering::Relaxed);
        }
        (strategy, report)
    };
    let reports: Vec<(Strategy, Report)> = if strategies.len() == 1 {
        vec![run(&strategies[0], false)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = strategies
                .iter()
                .map(|s| scope.spawn(move || run(s, true)))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        })
    };
    let nodes = reports.iter().map(|(_, r)| r.nodes).sum();
    let stored = reports.iter().map(|(_, r)| r.stored).sum();
    let user_cancelled = options
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed));
    // Prefer a solution (the fewest pushes, then moves), then a proof, then the budget that ran out.
    let mut best: Option<(Strategy, Result<Solution, NotSolvedReason>)> = None;
    for (strategy, report) in &reports {
        if let Ending::Found(pushes) = &report.ending {
            let optimal = match strategy {
                Strategy::PushOptimal => Some(Optimality::Pushes),
                Strategy::MoveOptimal => Some(Optimality::Moves),
                _ => None,
            };
            let candidate = problem.solution(pushes, optimal);
            let better = match (&best, &candidate) {
                (None, _) => true,
                (Some((_, Err(_))), Ok(_)) => true,
                (Some((_, Ok(a))), Ok(b)) => (b.pushes, b.moves) < (a.pushes, a.moves),
                _ => false,
            };
            if better {
                best = Some((*strategy, candidate));
            }
        }
    }
    let (strategy, result) = best.unwrap_or_else(|| {
        let pick = |ending: &Ending| reports.iter().find(|(_, r)| &r.ending == ending);
        if let Some((s, _)) = pick(&Ending::Exhausted) {
            (*s, Err(NotSolvedReason::Unsolvable))
        } else if let Some((s, _)) = pick(&Ending::Memory) {
            (*s, Err(NotSolvedReason::Memory))
        } else if let Some((s, _)) = pick(&Ending::NodeBudget) {
            (*s, Err(NotSolvedReason::NodeBudget))
        } else {
            let _ = user_cancelled;
            (reports[0].0, Err(NotSolvedReason::Cancelled))
        }
    });
    Ok(SolveOutcome {
        result,
        nodes,
        stored,
        strategy: strategy_name(strategy),
    })
}

/// Why a position can't be solved any more, found by [`deadlocked`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum DeadlockKind {
    /// A box stands on a square from which no push sequence reaches any goal.
    DeadSquare {
        /// The box's cell.
        cell: Cell,
    },
    /// A box off its goal can never move again (walls and other stuck boxes hold it).
    Freeze {
        /// A frozen box off its goal.
        cell: Cell,
    },
    /// The boxes can't all get goals of their own: some share the only goals they can reach.
    Bipartite,
}

impl DeadlockKind {
    /// The stable snake_case code.
    pub fn code(self) -> &'static str {
        match self {
            DeadlockKind::DeadSquare { .. } => "dead_square",
            DeadlockKind::Freeze { .. } => "freeze",
            DeadlockKind::Bipartite => "bipartite",
        }
    }
}

/// Whether the position is certainly unsolvable by a cheap check (no search): a box on a dead
/// square, a frozen box off its goal, or no matching of boxes to goals. `None` does not promise
/// the position is solvable; [`solve`] can prove that.
///
/// Builds the level's cell graph (dead squares, goal distances) on every call; a caller that
/// checks many positions of one level keeps a [`DeadlockCheck`] instead, as the game does.
pub fn deadlocked(
    level: &Level,
    position: &Position,
) -> Result<Option<DeadlockKind>, PositionError> {
    DeadlockCheck::new(level).check(level, position)
}

/// [`deadlocked`] for many positions of one level: the level's cell graph, dead squares and
/// goal distances are built once, by [`DeadlockCheck::new`], and each
/// [`check`](DeadlockCheck::check) costs only the position's own work. The Sokoban game keeps
/// one per level of its content (`Level::deadlock_check`), so the "still solvable?" check after
/// every move builds nothing.
pub struct DeadlockCheck {
    graph: CellGraph,
}

impl std::fmt::Debug for DeadlockCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeadlockCheck({} cells)", self.graph.len())
    }
}

impl DeadlockCheck {
    /// The check for `level`'s positions.
    pub fn new(level: &Level) -> DeadlockCheck {
        DeadlockCheck {
            graph: CellGraph::square(level, level.player()),
        }
    }

    /// [`deadlocked`] of `position`, which must be a position of the level this check was built
    /// for (`level` is that level).
    pub fn check(
        &self,
        level: &Level,
        position: &Position,
    ) -> Result<Option<DeadlockKind>, PositionError> {
        let (_, boxes) = compact_position(&self.graph, level, position)?;
        Ok(deadlock_of(&self.graph, &boxes))
    }
}

fn deadlock_of(graph: &CellGraph, boxes: &[u16]) -> Option<DeadlockKind> {
    let cell = |c: u16| graph.level_cell[usize::from(c)];
    if let Some(&b) = boxes.iter().find(|&&b| graph.dead[usize::from(b)]) {
        return Some(DeadlockKind::DeadSquare { cell: cell(b) });
    }
    let mut occupied = vec![false; graph.len()];
    for &b in boxes {
        occupied[usize::from(b)] = true;
    }
    let mut stack = Vec::new();
    for &b in boxes {
        if !graph.goal[usize::from(b)] && freeze::freeze_deadlock(graph, &occupied, b, &mut stack) {
            return Some(DeadlockKind::Freeze { cell: cell(b) });
        }
    }
    if matching::Matcher::default().bound(graph, boxes).is_none() {
        return Some(DeadlockKind::Bipartite);
    }
    None
}

/// The next step towards a solution, found by [`hint`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Hint {
    /// Every box is on a goal already.
    AlreadySolved,
    /// The next push of a verified solution.
    Push {
        /// The box to push.
        box_from: Cell,
        /// Where the push takes it.
        box_to: Cell,
        /// The walk to the box and the push, in LURD (the last letter is the upper-case push).
        moves: String,
        /// Pushes in the whole solution found, this one included.
        pushes_left: u32,
    },
    /// The position can't be solved any more (undo).
    Unsolvable {
        /// The cheap deadlock that shows it, when one does (else the search proved it).
        deadlock: Option<DeadlockKind>,
    },
    /// No solution within the node budget (the position may still be solvable).
    NoSolutionFound {
        /// Why the search stopped.
        reason: NotSolvedReason,
    },
}

/// The next push from `position`, searching at most `node_budget` nodes with the search
/// [`solve`] runs on one thread (deterministic, 256 MiB at most): the first push of the
/// solution it finds.
pub fn hint(level: &Level, position: &Position, node_budget: u64) -> Result<Hint, PositionError> {
    let problem = Problem::new(level, position)?;
    if problem
        .boxes
        .iter()
        .all(|&b| problem.graph.goal[usize::from(b)])
    {
        return Ok(Hint::AlreadySolved);
    }
    if let Some(deadlock) = deadlock_of(&problem.graph, &problem.boxes) {
        return Ok(Hint::Unsolvable {
            deadlock: Some(deadlock),
        });
    }
    let limits = Limits {
        nodes: node_budget,
        memory: 256 << 20,
        cancel: &[],
        below: None,
    };
    // The one-thread search `solve` runs, not greedy alone: at the server's 50,000 nodes it
    // finds a solution — so a hint — from more positions (Microban IV's starts: 83 of 102
    // against greedy's 68; III: 95 against 91; docs/sokoban-solver.md, "Hints").
    let (_, report) = search::mixed(
        &problem.graph,
        &problem.boxes,
        problem.player,
        &mixed_shares(),
        &limits,
    );
    Ok(match report.ending {
        Ending::Found(pushes) => match problem.solution(&pushes, None) {
            Ok(solution) => {
                let first = solution
                    .lurd
                    .bytes()
                    .position(|b| b.is_ascii_uppercase())
                    .unwrap_or(0);
                let push = pushes[0];
                let to = problem.graph.next(push.from, usize::from(push.dir));
                Hint::Push {
                    box_from: problem.graph.level_cell[usize::from(push.from)],
                    box_to: problem.graph.level_cell[usize::from(to)],
                    moves: solution.lurd[..=first].to_owned(),
                    pushes_left: solution.pushes,
                }
            }
            Err(reason) => Hint::NoSolutionFound { reason },
        },
        Ending::Exhausted => Hint::Unsolvable { deadlock: None },
        Ending::Memory => Hint::NoSolutionFound {
            reason: NotSolvedReason::Memory,
        },
        Ending::NodeBudget | Ending::Cancelled => Hint::NoSolutionFound {
            reason: NotSolvedReason::NodeBudget,
        },
    })
}

/// Test data shared by the solver's unit tests.
#[cfg(test)]
pub(crate) mod test_data {
    /// Microban I's levels, from the shared data folder (beside the repository, or at
    /// `/work/shared` where this checkout was made).
    pub(crate) fn microban() -> crate::level::ParsedCollection {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/sokoban/microban.xsb");
        let path = if path.exists() {
            path
        } else {
            std::path::PathBuf::from("/work/shared/data/sokoban/microban.xsb")
        };
        let text = std::fs::read_to_string(path).unwrap();
        crate::level::parse_collection(&text, "microban.xsb")
    }
}
