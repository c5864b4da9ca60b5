//! `turnstile replay verify FILE`.

use crate::exit::Outcome;
use std::path::Path;
use turnstile_runtime::{verify_redacted, GameRegistry, ReplayText};

/// Re-executes a replay file and compares every fingerprint and receipt hash; a redacted replay
/// (one seat's timeline, downloaded while the match is live) is checked as far as its holder
/// can, and what could not be checked is said.
pub fn verify(registry: &GameRegistry, path: &Path) -> Outcome {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return Outcome::input(format!("cannot read {}: {e}", path.display())),
    };
    // A full replay is verified from its text: a JSON tree of every entry would cost about as
    // much as the verification. A redacted replay is read as a tree and checked as far as its
    // holder can.
    let replay = ReplayText::parse(&text);
    if !matches!(&replay, Ok(r) if !r.is_redacted()) {
        let redacted = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .filter(|v| v.get("redacted").and_then(serde_json::Value::as_bool) == Some(true));
        if let Some(value) = redacted {
            return verify_redacted_file(path, &value);
        }
    }
    let replay = match replay {
        Ok(replay) => replay,
        Err(e) => return Outcome::input(format!("{}: {e} ({})", path.display(), e.code())),
    };
    let format = replay.header().format;
    match registry.verify_replay_text(&replay) {
        Err(e) => Outcome::input(format!("{}: {e} ({})", path.display(), e.code())),
        Ok(report) => match report.divergence {
            Some(d) => Outcome::check_failed(format!(
                "{}: DIVERGED after {} matching receipt(s)\n{d}",
                path.display(),
                report.verified
            )),
            None => {
                println!(
                    "{}: ok, {} receipt(s) of {} verified (format {}); final state {}; {}",
                    path.display(),
                    report.verified,
                    report.game,
                    format,
                    report
                        .final_fingerprint
                        .map_or_else(String::new, |f| f.to_string()),
                    match &report.outcome {
                        Some(o) => format!(
                            "outcome {} (winners {:?})",
                            o.kind,
                            o.winners.iter().map(|s| s.0).collect::<Vec<_>>()
                        ),
                        None => "the match had not ended".into(),
                    }
                );
                Outcome::ok()
            }
        },
    }
}

fn verify_redacted_file(path: &Path, value: &serde_json::Value) -> Outcome {
    match verify_redacted(value) {
        Err(e) => Outcome::input(format!("{}: {e} ({})", path.display(), e.code())),
        Ok(report) => match report.divergence {
            Some(d) => Outcome::check_failed(format!(
                "{}: redacted replay DIVERGED after {} chained receipt(s)\n{d}",
                path.display(),
                report.verified
            )),
            None => {
                println!(
                    "{}: ok as far as its viewer {} can check: {} receipt(s) of {} chained \
                     (hashes, previous, before/after, public events)",
                    path.display(),
                    report.viewer,
                    report.verified,
                    report.game,
                );
                println!("not checked without the seed (released when the match ends):");
                for item in &report.unchecked {
                    println!("  - {item}");
                }
                Outcome::ok()
            }
        },
    }
}
