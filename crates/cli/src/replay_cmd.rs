//! `turnstile replay verify FILE`.

use crate::exit::Outcome;
use std::path::Path;
use turnstile_runtime::{GameRegistry, ReplayFile};

/// Re-executes a replay file and compares every fingerprint and receipt hash.
pub fn verify(registry: &GameRegistry, path: &Path) -> Outcome {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return Outcome::input(format!("cannot read {}: {e}", path.display())),
    };
    let file = match ReplayFile::parse(&text) {
        Ok(file) => file,
        Err(e) => return Outcome::input(format!("{}: {e} ({})", path.display(), e.code())),
    };
    match registry.verify_replay(&file) {
        Err(e) => Outcome::input(format!("{}: {e} ({})", path.display(), e.code())),
        Ok(report) => match report.divergence {
            Some(d) => Outcome::check_failed(format!(
                "{}: DIVERGED after {} matching receipt(s)\n{d}",
                path.display(),
                report.verified
            )),
            None => {
                println!(
                    "{}: ok, {} receipt(s) of {} verified; final state {}",
                    path.display(),
                    report.verified,
                    report.game,
                    report
                        .final_fingerprint
                        .map_or_else(String::new, |f| f.to_string())
                );
                Outcome::ok()
            }
        },
    }
}
