//! `turnstile sokoban check` and `turnstile sokoban verify`.

use crate::exit::Outcome;
use crate::sokoban_file::LevelFile;
use std::path::{Path, PathBuf};
use turnstile_core::{CommandEnvelope, Seat};
use turnstile_runtime::{Match, MatchSpec, ReplayFile, SeatSpec, DEFAULT_TICK_RATE};
use turnstile_sokoban::{parse_lurd, Sokoban, SokobanAction, SokobanEvent};

/// Validates every level of every file: one line per invalid level, then a summary.
pub fn check(files: &[PathBuf]) -> Outcome {
    let (mut valid, mut invalid, mut unreadable) = (0u32, 0u32, 0u32);
    for path in files {
        let file = match LevelFile::read(path) {
            Ok(file) => file,
            Err(outcome) => {
                unreadable += 1;
                if let Some(message) = outcome.message {
                    eprintln!("turnstile: {message}");
                }
                continue;
            }
        };
        if file.levels.is_empty() {
            println!("{}: no levels", path.display());
            invalid += 1;
        }
        for (i, level) in file.levels.iter().enumerate() {
            match level {
                Ok(_) => valid += 1,
                Err(errors) => {
                    invalid += 1;
                    let reasons: Vec<String> = errors
                        .iter()
                        .map(|e| format!("{}:{}: {}", e.line, e.column, e.kind))
                        .collect();
                    println!(
                        "{}: level {}: {}",
                        path.display(),
                        i + 1,
                        reasons.join("; ")
                    );
                }
            }
        }
    }
    println!(
        "{} level(s) in {} file(s): {valid} valid, {invalid} invalid{}",
        valid + invalid,
        files.len(),
        if unreadable > 0 {
            format!(", {unreadable} file(s) unreadable")
        } else {
            String::new()
        }
    );
    if unreadable > 0 {
        Outcome::input(format!("{unreadable} file(s) could not be read"))
    } else if invalid > 0 {
        Outcome::check_failed(format!("{invalid} invalid level(s)"))
    } else {
        Outcome::ok()
    }
}

/// Replays a LURD solution through a match; exit 0 only if it solves the level.
pub fn verify(path: &Path, level: u32, solution: &str, replay_out: Option<&Path>) -> Outcome {
    let file = match LevelFile::read(path) {
        Ok(file) => file,
        Err(outcome) => return outcome,
    };
    let config = match file.config(level) {
        Ok(config) => config,
        Err(outcome) => return outcome,
    };
    let steps = match parse_lurd(solution) {
        Ok(steps) => steps,
        Err(e) => return Outcome::input(format!("the solution is not LURD: {e}")),
    };
    let spec = MatchSpec {
        config,
        seed: String::new(),
        seats: vec![SeatSpec::human()],
        tick_rate: DEFAULT_TICK_RATE,
    };
    let mut m = match Match::<Sokoban>::new(file.bundle.clone(), spec) {
        Ok(m) => m,
        Err(e) => return Outcome::check_failed(e.to_string()),
    };
    let mut failure = None;
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
        let letter = step.direction.lurd(step.push);
        match m.submit(envelope) {
            Err(refusal) => {
                failure = Some(format!(
                    "move {} ({letter}) was rejected: {} ({})",
                    i + 1,
                    refusal,
                    refusal.code()
                ));
                break;
            }
            Ok(accepted) => {
                let pushed = accepted.receipt.events.iter().any(|e| {
                    matches!(
                        e,
                        SokobanEvent::Moved {
                            pushed: Some(_),
                            ..
                        }
                    )
                });
                if pushed != step.push {
                    failure = Some(format!(
                        "move {} ({letter}) {} a box, but LURD writes a {} in {}",
                        i + 1,
                        if pushed { "pushed" } else { "did not push" },
                        if step.push { "push" } else { "walk" },
                        if step.push {
                            "upper case"
                        } else {
                            "lower case"
                        },
                    ));
                    break;
                }
            }
        }
    }
    if let Some(out) = replay_out {
        let written = ReplayFile::of_match(&m)
            .and_then(|r| r.to_json())
            .map_err(|e| e.to_string())
            .and_then(|text| std::fs::write(out, text + "\n").map_err(|e| e.to_string()));
        if let Err(e) = written {
            return Outcome::input(format!("cannot write {}: {e}", out.display()));
        }
        // say where it went: a relative path lands in the current folder, which surprises
        let shown = std::fs::canonicalize(out).unwrap_or_else(|_| out.to_path_buf());
        eprintln!("replay written to {}", shown.display());
    }
    let view = m.view(turnstile_core::Viewer::Seat(Seat(0)));
    let name = format!(
        "{} level {level}{}",
        path.display(),
        view.title.map(|t| format!(" ({t})")).unwrap_or_default()
    );
    match failure {
        Some(why) => Outcome::check_failed(format!("{name}: not solved: {why}")),
        None if view.solved => {
            println!(
                "{name}: solved in {}, {}",
                counted(view.moves, "move", "moves"),
                counted(view.pushes, "push", "pushes")
            );
            Outcome::ok()
        }
        None => Outcome::check_failed(format!(
            "{name}: not solved after {}, {}",
            counted(view.moves, "move", "moves"),
            counted(view.pushes, "push", "pushes")
        )),
    }
}

/// "1 push", "2 pushes": a count with its noun in the right number.
pub(crate) fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}
