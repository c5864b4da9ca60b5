//! `turnstile clover score FILE|-`: scores a JSON description of a played hand with clover's
//! shipped content and prints the receipt (hand, scoring cards, chips, mult, score, every
//! step in order); `--json` prints the receipt as JSON. The format is docs/clover.md's.

use std::io::Read;

use crate::exit::Outcome;

/// Reads the description from `input` (a path, or `-` for standard input), scores it and
/// prints the receipt. Exit codes: 0 scored, 3 unreadable or invalid input.
pub fn score(input: &str, json: bool) -> Outcome {
    let text = if input == "-" {
        let mut text = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            return Outcome::input(format!("standard input: {e}"));
        }
        text
    } else {
        match std::fs::read_to_string(input) {
            Ok(text) => text,
            Err(e) => return Outcome::input(format!("{input}: {e}")),
        }
    };
    let content = match turnstile_clover::Content::shipped() {
        Ok(content) => content,
        Err(problems) => {
            return Outcome::input(format!(
                "clover's shipped content does not load: {} problem(s), first: {}",
                problems.len(),
                problems
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            ))
        }
    };
    match turnstile_clover::calculator::score_json_text(&text, &content) {
        Ok((_, receipt)) => {
            if json {
                match serde_json::to_string_pretty(&receipt) {
                    Ok(out) => crate::outln!("{out}"),
                    Err(e) => return Outcome::input(e.to_string()),
                }
            } else {
                crate::out!("{}", turnstile_clover::calculator::render_text(&receipt));
            }
            Outcome::ok()
        }
        Err(e) => Outcome::input(format!("{input}: {e}")),
    }
}
