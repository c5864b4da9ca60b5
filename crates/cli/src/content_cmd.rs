//! `turnstile content validate DIR`.

use crate::exit::Outcome;
use std::path::Path;
use turnstile_runtime::{read_bundle_dir, GameRegistry};

/// Loads a bundle folder and reports every problem in it.
pub fn validate(registry: &GameRegistry, dir: &Path) -> Outcome {
    let source = match read_bundle_dir(dir) {
        Ok(source) => source,
        Err(e) => return Outcome::input(e.to_string()),
    };
    match registry.validate_content(&source) {
        Ok((game, revision)) => {
            println!(
                "{}: valid {game} bundle, {} file(s), revision {revision}",
                dir.display(),
                source.files.len()
            );
            Outcome::ok()
        }
        Err(problems) => {
            for p in &problems {
                println!("{}/{p}", dir.display());
            }
            Outcome::check_failed(format!(
                "{}: {} problem(s) in the bundle",
                dir.display(),
                problems.len()
            ))
        }
    }
}
