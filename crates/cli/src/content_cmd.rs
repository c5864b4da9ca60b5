//! `turnstile content validate DIR`, `turnstile content schema [--out DIR]` and
//! `turnstile content report GAME`.

use crate::exit::Outcome;
use std::collections::BTreeMap;
use std::path::Path;
use turnstile_core::content::MANIFEST_FILE;
use turnstile_core::{BundleManifest, BundleSource};
use turnstile_effects::EffectReport;
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

/// Prints, for a game's shipped content, its revision, its files by kind, the count of each
/// content kind and of its effect rows, `Custom` rows included (the goal is zero). Every
/// registered game answers; one that ships no bundle (Sokoban reads level files) says so.
pub fn report(registry: &GameRegistry, game: &str) -> Outcome {
    let mut out = Vec::new();
    let outcome = report_lines(registry, game, &mut out);
    for line in out {
        println!("{line}");
    }
    outcome
}

/// The report's lines, into `out`, and the outcome.
fn report_lines(registry: &GameRegistry, game: &str, out: &mut Vec<String>) -> Outcome {
    if registry.get(game).is_none() {
        return Outcome::usage(format!(
            "unknown game {game:?}; this build knows {}",
            registry.ids().join(", ")
        ));
    }
    out.push(format!("game: {game}"));
    match game {
        "duel" => duel_report(registry, out),
        "clover" => clover_report(out),
        _ => registered_report(registry, game, out),
    }
}

/// The revision the registry computes for `source` and its files per manifest kind, or the
/// outcome to return when the shipped source does not load.
fn source_summary(
    registry: &GameRegistry,
    source: &BundleSource,
    out: &mut Vec<String>,
) -> Result<(), Outcome> {
    let revision = match registry.validate_content(source) {
        Ok((_, revision)) => revision,
        Err(problems) => {
            let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Err(Outcome::check_failed(format!(
                "the shipped content is invalid:\n{}",
                lines.join("\n")
            )));
        }
    };
    out.push(format!("revision: {revision}"));
    out.push(format!("files: {}", source.files.len()));
    if let Ok(manifest) = source.json::<BundleManifest>(MANIFEST_FILE) {
        let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
        for file in &manifest.files {
            *by_kind.entry(file.kind.as_str()).or_default() += 1;
        }
        for (kind, n) in by_kind {
            out.push(format!("files of kind {kind}: {n}"));
        }
    }
    Ok(())
}

fn effect_lines(effects: &EffectReport, out: &mut Vec<String>) {
    out.push(format!("effect rows: {}", effects.rows));
    out.push(format!("effect owners: {}", effects.owners));
    for (kind, n) in &effects.rows_by_owner_kind {
        out.push(format!("effect rows owned by {kind}: {n}"));
    }
    for (trigger, n) in &effects.rows_by_trigger {
        out.push(format!("effect rows on trigger {trigger}: {n}"));
    }
    for (operation, n) in &effects.rows_by_operation {
        out.push(format!("effect rows with operation {operation}: {n}"));
    }
    out.push(format!("custom rows: {}", effects.custom_rows));
    for (handler, n) in &effects.custom_rows_by_handler {
        out.push(format!("custom rows with handler {handler}: {n}"));
    }
    // What the game declares beyond the engine's vocabulary, each with the rows using it
    // (0 included: a declared name no row uses is worth seeing).
    out.push(format!(
        "game-declared triggers: {}, scopes: {}, operations: {}",
        effects.game_triggers.len(),
        effects.game_scopes.len(),
        effects.game_operations.len()
    ));
    for (trigger, n) in &effects.game_triggers {
        out.push(format!("game trigger {trigger}: {n} rows"));
    }
    for (scope, n) in &effects.game_scopes {
        out.push(format!("game scope {scope}: {n} rows"));
    }
    for (operation, n) in &effects.game_operations {
        out.push(format!("game operation {operation}: {n} rows"));
    }
    // A game operation that only one row uses is behaviour written for that row: a `Custom`
    // under another name, so it counts as one.
    let single: Vec<&str> = effects
        .game_operations
        .iter()
        .filter(|(_, n)| **n == 1)
        .map(|(operation, _)| operation.as_str())
        .collect();
    out.push(format!(
        "custom rows, single-row game operations included: {}{}",
        u64::from(effects.custom_rows) + single.len() as u64,
        if single.is_empty() {
            String::new()
        } else {
            format!(" ({})", single.join(", "))
        }
    ));
}

fn duel_report(registry: &GameRegistry, out: &mut Vec<String>) -> Outcome {
    if let Err(outcome) = source_summary(registry, &turnstile_duel::content::bundled_source(), out)
    {
        return outcome;
    }
    let bundle = match turnstile_duel::bundled() {
        Ok(b) => b,
        Err(p) => return Outcome::check_failed(format!("the bundled content is invalid: {p:?}")),
    };
    let c = &bundle.content;
    out.push(format!("cards: {}", c.cards.len()));
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for card in c.cards.values() {
        *by_kind.entry(format!("{:?}", card.kind)).or_default() += 1;
    }
    for (kind, n) in by_kind {
        out.push(format!("cards of kind {kind}: {n}"));
    }
    out.push(format!("statuses: {}", c.statuses.len()));
    out.push(format!("decks: {}", c.decks.len()));
    out.push(format!("phase sequences: {}", c.phases.definitions.len()));
    for definition in &c.phases.definitions {
        out.push(format!(
            "phase sequence {}: {} phase(s)",
            definition.sequence_id,
            definition.phases.len()
        ));
    }
    effect_lines(&c.effects.table.report(), out);
    Outcome::ok()
}

fn clover_report(out: &mut Vec<String>) -> Outcome {
    // Clover's shipped files are its effect sheets and catalog, without a bundle manifest, so
    // there is no manifest to summarize or revision to compute from them here.
    out.push(format!(
        "files: {}",
        turnstile_clover::CloverContent::shipped_source()
            .files
            .len()
    ));
    let report = match turnstile_clover::content_report() {
        Ok(r) => r,
        Err(p) => return Outcome::check_failed(format!("the shipped content is invalid: {p:?}")),
    };
    for (kind, n) in &report.counts {
        out.push(format!("catalog entries of kind {kind}: {n}"));
    }
    effect_lines(&report.effects, out);
    Outcome::ok()
}

/// Any other registered game, from what the registry knows of it: its shipped bundle (revision,
/// files by kind), the config options that content offers (turn configs), and no effect rows —
/// its rules are code (a kit game's, or Sokoban's). A game registered without a bundle says so.
fn registered_report(registry: &GameRegistry, game: &str, out: &mut Vec<String>) -> Outcome {
    let Some(registered) = registry.get(game) else {
        return Outcome::usage(format!("unknown game {game:?}"));
    };
    match registered.builtin_source() {
        Some(source) => {
            if let Err(outcome) = source_summary(registry, source, out) {
                return outcome;
            }
            if let Some(Ok(compiled)) = registered.builtin_content() {
                let options = registered.config_options(&compiled.bundle);
                if let Some(configs) = options.get("turnConfigs").and_then(|c| c.as_object()) {
                    let ids: Vec<&str> = configs.keys().map(String::as_str).collect();
                    out.push(format!("turn configs: {}", ids.join(", ")));
                }
            }
            out.push("effect rows: 0 (its rules are code, not effect rows)".to_string());
        }
        None => {
            out.push("shipped content: none (levels and rules come from a bundle folder; `turnstile content validate DIR` checks one)".to_string());
            out.push("effect rows: 0".to_string());
        }
    }
    out.push("custom rows: 0".to_string());
    Outcome::ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(game: &str) -> (Vec<String>, Outcome) {
        let mut out = Vec::new();
        let outcome = report_lines(&crate::registry(), game, &mut out);
        (out, outcome)
    }

    fn value<'a>(out: &'a [String], key: &str) -> Option<&'a str> {
        out.iter()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(": ")))
    }

    /// Every registered game gets a report that loads its shipped content (or says it has
    /// none) with its count of `Custom` rows; the games built on effect rows report their real,
    /// non-zero row counts — the report once printed "effect rows: 0" for clover.
    #[test]
    fn every_registered_game_reports_its_shipped_content() {
        for game in crate::registry().ids() {
            let (out, outcome) = lines(game);
            assert_eq!(outcome.code, 0, "{game}: {out:#?}");
            assert_eq!(value(&out, "game"), Some(game));
            assert!(value(&out, "effect rows").is_some(), "{game}: {out:#?}");
            let custom = value(&out, "custom rows").map(str::parse::<u32>);
            assert!(matches!(custom, Some(Ok(_))), "{game}: {out:#?}");
        }
        for game in ["duel", "clover"] {
            let (out, _) = lines(game);
            let rows: u32 = value(&out, "effect rows").unwrap().parse().unwrap();
            assert!(rows > 0, "{game}: {out:#?}");
        }
        let (duel, _) = lines("duel");
        let cards: u32 = value(&duel, "cards").unwrap().parse().unwrap();
        assert!(cards >= 30);
        assert_eq!(value(&duel, "phase sequences"), Some("3"));
        assert_eq!(
            value(&duel, "custom rows"),
            Some("0"),
            "Duel keeps no behaviour in code"
        );
        assert!(value(&duel, "revision").is_some_and(|r| r.starts_with("sha256:")));
        let (c4, _) = lines("connect4");
        assert_eq!(value(&c4, "files of kind rules"), Some("1"));
    }

    #[test]
    fn an_unknown_game_is_a_usage_error_naming_the_known_ones() {
        let (out, outcome) = lines("chess");
        assert!(out.is_empty());
        assert_eq!(outcome.code, crate::exit::USAGE);
    }
}
