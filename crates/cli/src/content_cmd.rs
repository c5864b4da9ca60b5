//! `turnstile content validate DIR`, `turnstile content schema [--out DIR]` and
//! `turnstile content report GAME`.

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

/// Writes every content schema (see `content_schemas.rs`) into `out` (default
/// `docs/schemas`), one `<name>.schema.json` each.
pub fn schema(out: Option<&Path>) -> Outcome {
    let dir = out.unwrap_or_else(|| Path::new(crate::content_schemas::SCHEMA_DIR));
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Outcome::input(format!("{}: {e}", dir.display()));
    }
    for document in crate::content_schemas::documents() {
        let path = dir.join(document.file_name());
        if let Err(e) = std::fs::write(&path, document.to_text()) {
            return Outcome::input(format!("{}: {e}", path.display()));
        }
        println!("{}", path.display());
    }
    Outcome::ok()
}

/// Prints, for a game's bundled content, the count of each content kind and of its effect
/// rows, `Custom` rows included (the goal is zero).
pub fn report(registry: &GameRegistry, game: &str) -> Outcome {
    if registry.get(game).is_none() {
        return Outcome::usage(format!(
            "unknown game {game:?}; this build knows {}",
            registry.ids().join(", ")
        ));
    }
    match game {
        "duel" => {
            let bundle = match turnstile_duel::bundled() {
                Ok(b) => b,
                Err(p) => {
                    return Outcome::check_failed(format!("the bundled content is invalid: {p:?}"))
                }
            };
            let c = &bundle.content;
            let effects = c.effects.table.report();
            println!("game: duel");
            println!("revision: {}", bundle.revision);
            println!("cards: {}", c.cards.len());
            println!("statuses: {}", c.statuses.len());
            println!("decks: {}", c.decks.len());
            println!("phase sequences: {}", c.phases.definitions.len());
            println!("effect rows: {}", effects.rows);
            println!("effect owners: {}", effects.owners);
            for (kind, n) in &effects.rows_by_owner_kind {
                println!("effect rows owned by {kind}: {n}");
            }
            for (operation, n) in &effects.rows_by_operation {
                println!("effect rows with operation {operation}: {n}");
            }
            println!("custom rows: {}", effects.custom_rows);
            for (handler, n) in &effects.custom_rows_by_handler {
                println!("custom rows with handler {handler}: {n}");
            }
            Outcome::ok()
        }
        other => {
            println!("game: {other}");
            println!("effect rows: 0");
            println!("custom rows: 0");
            Outcome::ok()
        }
    }
}
