//! `turnstile sokoban solve` and `turnstile sokoban optimize`: the solver on the command line.
//!
//! The solver itself reads no clock; the time limit is kept here, by a watchdog thread that
//! raises the search's cancel flag. Every solution is replayed once more through a
//! [`Match`] of the Sokoban game (the code path the server runs) before it is printed as solved.

use crate::exit::Outcome;
use crate::sokoban_file::LevelFile;
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use turnstile_core::{CommandEnvelope, Seat};
use turnstile_runtime::{Match, MatchSpec, SeatSpec, DEFAULT_TICK_RATE};
use turnstile_sokoban::solver::{self, NotSolvedReason, Optimality, SolveOptions};
use turnstile_sokoban::{parse_lurd, Level, Sokoban, SokobanAction};

/// `--optimal` / `--metric`: pushes or moves.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Metric {
    /// The fewest pushes.
    Pushes,
    /// The fewest moves.
    Moves,
}

impl From<Metric> for Optimality {
    fn from(m: Metric) -> Self {
        match m {
            Metric::Pushes => Optimality::Pushes,
            Metric::Moves => Optimality::Moves,
        }
    }
}

/// The search budget shared by both commands.
pub struct Budget {
    /// Seconds per level.
    pub time_limit: u64,
    /// Nodes per level and thread (no limit when absent).
    pub nodes: Option<u64>,
    /// The memory limit in GiB, as written (`2`, `0.5`).
    pub memory_limit: String,
    /// Parallel searches.
    pub threads: u32,
}

/// What `solve` was asked.
pub struct SolveArgs<'a> {
    /// The level file.
    pub file: &'a Path,
    /// One level (from 1), or every level.
    pub level: Option<u32>,
    /// Budgets.
    pub budget: Budget,
    /// Optimal in what, if anything.
    pub optimal: Option<Metric>,
    /// One JSON object per level on standard output.
    pub json: bool,
}

/// Parses a GiB figure (`2`, `0.5`, `1.25`) into bytes without floating point.
fn gib_bytes(text: &str) -> Result<u64, Outcome> {
    let bad = || {
        Outcome::usage(format!(
            "--memory-limit {text:?}: expected a positive number of GiB such as 2 or 0.5"
        ))
    };
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if (whole.is_empty() && fraction.is_empty())
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
        || fraction.len() > 6
    {
        return Err(bad());
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let scale = 10u64.pow(fraction.len() as u32);
    let fraction: u64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().map_err(|_| bad())?
    };
    let bytes = whole
        .checked_mul(1 << 30)
        .and_then(|w| w.checked_add(fraction * (1 << 30) / scale))
        .ok_or_else(bad)?;
    if bytes == 0 {
        return Err(bad());
    }
    Ok(bytes)
}

/// The most parallel searches `--threads` may ask for: each holds its own tables, so more than
/// this would split the memory budget into slivers.
const MAX_THREADS: u32 = 16;

impl Budget {
    fn options(&self, optimal: Option<Optimality>) -> Result<SolveOptions, Outcome> {
        if self.threads == 0 || self.threads > MAX_THREADS {
            return Err(Outcome::usage(format!(
                "--threads must be between 1 and {MAX_THREADS} (one search per thread), not {}",
                self.threads
            )));
        }
        if self.time_limit == 0 {
            return Err(Outcome::usage("--time-limit must be at least 1 second"));
        }
        Ok(SolveOptions {
            node_budget: self.nodes.unwrap_or(u64::MAX),
            memory_limit_bytes: gib_bytes(&self.memory_limit)?,
            optimal,
            cancel: None,
            threads: self.threads,
        })
    }

    /// Runs `work` with a fresh cancel flag that a watchdog raises after the time limit.
    fn timed<T>(
        &self,
        options: &SolveOptions,
        work: impl FnOnce(&SolveOptions) -> T,
    ) -> (T, Duration) {
        let cancel = Arc::new(AtomicBool::new(false));
        let options = SolveOptions {
            cancel: Some(cancel.clone()),
            ..options.clone()
        };
        let (finished, wait) = mpsc::channel::<()>();
        let limit = Duration::from_secs(self.time_limit);
        let watchdog = std::thread::spawn(move || {
            if wait.recv_timeout(limit).is_err() {
                cancel.store(true, Ordering::Relaxed);
            }
        });
        let started = Instant::now();
        let result = work(&options);
        let took = started.elapsed();
        let _ = finished.send(());
        let _ = watchdog.join();
        (result, took)
    }
}

/// Replays a LURD solution through a Sokoban match of level `number` of the file: the moves
/// and pushes of the solved match, or why it failed.
fn replay_through_match(file: &LevelFile, number: u32, lurd: &str) -> Result<(u32, u32), String> {
    let config = file
        .config(number)
        .map_err(|o| o.message.unwrap_or_default())?;
    let steps = parse_lurd(lurd).map_err(|e| e.to_string())?;
    let spec = MatchSpec {
        config,
        seed: String::new(),
        seats: vec![SeatSpec::human()],
        tick_rate: DEFAULT_TICK_RATE,
    };
    let mut m = Match::<Sokoban>::new(file.bundle.clone(), spec).map_err(|e| e.to_string())?;
    for (i, step) in steps.iter().enumerate() {
        let seq = m.sequence();
        let envelope = CommandEnvelope {
            command_id: format!("move-{}", i + 1),
            seat: Some(Seat(0)),
            expected_sequence: seq,
            expected_step: None,
            tick: seq,
            action: SokobanAction::Move {
                direction: step.direction,
            },
        };
        m.submit(envelope)
            .map_err(|r| format!("move {} was rejected: {r}", i + 1))?;
    }
    let view = m.view(turnstile_core::Viewer::Seat(Seat(0)));
    if !view.solved {
        return Err("the match is not solved at the end".into());
    }
    Ok((view.moves, view.pushes))
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `turnstile sokoban solve`.
pub fn solve(args: &SolveArgs<'_>) -> Outcome {
    let file = match LevelFile::read(args.file) {
        Ok(file) => file,
        Err(outcome) => return outcome,
    };
    let options = match args.budget.options(args.optimal.map(Into::into)) {
        Ok(options) => options,
        Err(outcome) => return outcome,
    };
    let numbers: Vec<u32> = match args.level {
        Some(n) => {
            if let Err(outcome) = file.config(n) {
                if outcome.code != crate::exit::CHECK_FAILED {
                    return outcome;
                }
            }
            vec![n]
        }
        None => (1..=file.levels.len() as u32).collect(),
    };
    if numbers.is_empty() {
        return Outcome::check_failed(format!("{}: no levels", args.file.display()));
    }
    let bar = if args.level.is_none() {
        let bar =
            ProgressBar::with_draw_target(Some(numbers.len() as u64), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} levels, {msg} [{elapsed}]")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut solved = 0u32;
    for &number in &numbers {
        let index = number as usize - 1;
        let line = match &file.levels[index] {
            Err(errors) => {
                let why: Vec<String> = errors.iter().map(ToString::to_string).collect();
                LevelLine::invalid(number, why.join("; "))
            }
            Ok(level) => solve_one(&file, number, level, &args.budget, &options),
        };
        solved += u32::from(line.solved);
        bar.suspend(|| line.print(args.json));
        bar.inc(1);
        bar.set_message(format!("{solved} solved"));
    }
    bar.finish_and_clear();
    let asked = numbers.len() as u32;
    if !args.json {
        println!(
            "{}: solved {solved} of {asked} level(s) ({} s per level, {} thread(s))",
            args.file.display(),
            args.budget.time_limit,
            args.budget.threads
        );
    }
    if solved == asked {
        Outcome::ok()
    } else {
        Outcome {
            code: crate::exit::CHECK_FAILED,
            message: None,
        }
    }
}

/// One level's result, as printed.
struct LevelLine {
    number: u32,
    title: Option<String>,
    solved: bool,
    lurd: Option<String>,
    moves: u32,
    pushes: u32,
    optimal: Option<&'static str>,
    millis: u64,
    nodes: u64,
    strategy: String,
    reason: Option<(&'static str, String)>,
}

impl LevelLine {
    fn invalid(number: u32, why: String) -> LevelLine {
        LevelLine {
            number,
            title: None,
            solved: false,
            lurd: None,
            moves: 0,
            pushes: 0,
            optimal: None,
            millis: 0,
            nodes: 0,
            strategy: String::new(),
            reason: Some(("invalid_level", why)),
        }
    }

    fn print(&self, json: bool) {
        if json {
            let value = json!({
                "level": self.number,
                "title": self.title,
                "solved": self.solved,
                "lurd": self.lurd,
                "moves": self.solved.then_some(self.moves),
                "pushes": self.solved.then_some(self.pushes),
                "optimal": self.optimal,
                "timeMs": self.millis,
                "nodes": self.nodes,
                "strategy": self.strategy,
                "reason": self.reason.as_ref().map(|r| r.0),
                "detail": self.reason.as_ref().map(|r| r.1.clone()),
            });
            println!("{value}");
            return;
        }
        let name = match &self.title {
            Some(t) => format!("level {} ({t})", self.number),
            None => format!("level {}", self.number),
        };
        match (&self.lurd, &self.reason) {
            (Some(lurd), _) => {
                let optimal = self
                    .optimal
                    .map(|o| format!(", {o}-optimal"))
                    .unwrap_or_default();
                println!(
                    "{name}: solved, {} moves, {} pushes{optimal}, {} ms, {} nodes\n{lurd}",
                    self.moves, self.pushes, self.millis, self.nodes
                );
            }
            (None, Some((code, detail))) => println!(
                "{name}: not solved ({code}: {detail}), {} ms, {} nodes",
                self.millis, self.nodes
            ),
            (None, None) => println!("{name}: not solved"),
        }
    }
}

fn solve_one(
    file: &LevelFile,
    number: u32,
    level: &Level,
    budget: &Budget,
    options: &SolveOptions,
) -> LevelLine {
    let start = solver::start_position(level);
    let (outcome, took) = budget.timed(options, |o| solver::solve(level, &start, o));
    let mut line = LevelLine::invalid(number, String::new());
    line.title = level.title().map(str::to_owned);
    line.millis = millis(took);
    line.reason = None;
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(e) => {
            line.reason = Some((e.code(), e.to_string()));
            return line;
        }
    };
    line.nodes = outcome.nodes;
    line.strategy = outcome.strategy.clone();
    match outcome.result {
        Ok(solution) => match replay_through_match(file, number, &solution.lurd) {
            Ok((moves, pushes)) if (moves, pushes) == (solution.moves, solution.pushes) => {
                line.solved = true;
                line.moves = moves;
                line.pushes = pushes;
                line.optimal = solution.optimal.map(Optimality::name);
                line.lurd = Some(solution.lurd);
            }
            Ok((moves, pushes)) => {
                line.reason = Some((
                    "solution_rejected",
                    format!(
                        "internal error: the match counts {moves} moves, {pushes} pushes; the \
                         solver said {}, {}",
                        solution.moves, solution.pushes
                    ),
                ));
            }
            Err(why) => {
                line.reason = Some((
                    "solution_rejected",
                    format!("internal error: the match refused the solution: {why}"),
                ))
            }
        },
        Err(NotSolvedReason::Cancelled) => {
            line.reason = Some((
                "time_limit",
                format!("no solution within {} s", budget.time_limit),
            ));
        }
        Err(reason) => line.reason = Some((reason.code(), reason.to_string())),
    }
    line
}

/// `turnstile sokoban optimize`.
pub fn optimize(
    path: &Path,
    number: u32,
    lurd: &str,
    metric: Metric,
    budget: &Budget,
    json: bool,
) -> Outcome {
    let file = match LevelFile::read(path) {
        Ok(file) => file,
        Err(outcome) => return outcome,
    };
    if let Err(outcome) = file.config(number) {
        return outcome;
    }
    let Some(Ok(level)) = file.levels.get(number as usize - 1) else {
        return Outcome::check_failed(format!("level {number} is invalid"));
    };
    let options = match budget.options(None) {
        Ok(options) => options,
        Err(outcome) => return outcome,
    };
    let start = solver::start_position(level);
    let (result, took) = budget.timed(&options, |o| {
        solver::optimize(level, &start, lurd, metric.into(), o)
    });
    let optimized = match result {
        Ok(optimized) => optimized,
        Err(e) => return Outcome::check_failed(format!("{} ({})", e, e.code())),
    };
    let s = &optimized.solution;
    match replay_through_match(&file, number, &s.lurd) {
        Ok(counts) if counts == (s.moves, s.pushes) => {}
        Ok(_) | Err(_) => {
            return Outcome::check_failed(
                "internal error: the optimized solution did not verify through the match",
            )
        }
    }
    if json {
        println!(
            "{}",
            json!({
                "level": number,
                "original": {"moves": optimized.original.0, "pushes": optimized.original.1},
                "replanned": {"moves": optimized.replanned.0, "pushes": optimized.replanned.1},
                "moves": s.moves,
                "pushes": s.pushes,
                "lurd": s.lurd,
                "provenOptimal": optimized.proven_optimal,
                "metric": Optimality::from(metric).name(),
                "nodes": optimized.nodes,
                "timeMs": millis(took),
            })
        );
    } else {
        println!(
            "level {number}: {} moves, {} pushes -> loops and walks {} moves, {} pushes -> {} \
             moves, {} pushes{} ({} ms, {} nodes)\n{}",
            optimized.original.0,
            optimized.original.1,
            optimized.replanned.0,
            optimized.replanned.1,
            s.moves,
            s.pushes,
            if optimized.proven_optimal {
                format!(", {}-optimal", Optimality::from(metric).name())
            } else {
                String::new()
            },
            millis(took),
            optimized.nodes,
            s.lurd
        );
    }
    Outcome::ok()
}
