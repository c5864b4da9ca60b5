//! Loading m,n,k content: the bundled files load, the revision ignores formatting, and a broken
//! rules file has every problem reported at once with its JSON pointer.

use turnstile_core::{BundleSource, ContentProblem, Game, Location};
use turnstile_runtime::GameRegistry;
use turnstile_tictactoe::{bundled, bundled_source, TicTacToe};

const MANIFEST: &str =
    r#"{"game": "tictactoe", "files": [{"id": "rules", "kind": "rules", "path": "rules.json"}]}"#;

fn source(manifest: &str, rules: &str) -> BundleSource {
    let mut source = BundleSource::new();
    source.insert("bundle.json", manifest);
    source.insert("rules.json", rules);
    source
}

/// Loads `rules` and returns its problems as (code, where).
fn check(rules: &str, expected: &[(&str, &str)]) {
    let problems = TicTacToe::load_content(&source(MANIFEST, rules)).unwrap_err();
    let found: Vec<(String, String)> = problems
        .iter()
        .map(|p| (p.code.clone(), format!("{}{}", p.file, p.at)))
        .collect();
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(code, at)| (code.to_string(), at.to_string()))
        .collect();
    assert_eq!(found, expected, "{problems:#?}");
}

#[test]
fn the_bundled_content_loads_and_the_registry_validates_it() {
    let bundle = bundled().unwrap();
    let rules = &bundle.content;
    assert_eq!(rules.default_turn_config.as_str(), "untimed");
    assert_eq!(rules.turn_configs.len(), 3);
    let mut registry = GameRegistry::new();
    registry.register::<TicTacToe>();
    assert_eq!(
        registry.validate_content(&bundled_source()).unwrap(),
        ("tictactoe", bundle.revision)
    );
}

#[test]
fn the_revision_ignores_formatting_but_not_meaning() {
    let revision = bundled().unwrap().revision;
    let compact = r#"{"turnConfigs":{"blitz":{"turnDurationTicks":30,"usesTimer":true,"isSkippable":true,"forfeitAfterTimeouts":2},"timed":{"forfeitAfterTimeouts":3,"usesTimer":true,"turnDurationTicks":150},"untimed":{}},"defaultTurnConfig":"untimed"}"#;
    let load = |rules: &str| {
        let content = TicTacToe::load_content(&source(MANIFEST, rules)).unwrap();
        turnstile_core::ContentBundle::new("tictactoe", content)
            .unwrap()
            .revision
    };
    assert_eq!(load(compact), revision);
    assert_ne!(load(&compact.replace("150", "151")), revision);
}

#[test]
fn every_problem_is_reported_with_its_pointer() {
    check(
        r#"{
            "turnConfigs": {
                "a/b": { "usesTimer": true, "turnDurationTicks": 0 },
                "lazy": { "forfeitAfterTimeouts": 2 },
                "typo": { "usesTimers": true },
                "zero": { "usesTimer": true, "turnDurationTicks": 5, "forfeitAfterTimeouts": 0 }
            },
            "defaultTurnConfig": "standard",
            "title": "extra"
        }"#,
        &[
            ("unknown_field", "rules.json#/title"),
            ("invalid_value", "rules.json#/turnConfigs/typo"),
            (
                "zero_turn_duration",
                "rules.json#/turnConfigs/a~1b/turnDurationTicks",
            ),
            (
                "forfeit_without_timer",
                "rules.json#/turnConfigs/lazy/forfeitAfterTimeouts",
            ),
            (
                "zero_forfeit_threshold",
                "rules.json#/turnConfigs/zero/forfeitAfterTimeouts",
            ),
            ("unknown_turn_config", "rules.json#/defaultTurnConfig"),
        ],
    );
}

#[test]
fn missing_and_mistyped_fields_are_problems() {
    check(
        "{}",
        &[
            ("missing_field", "rules.json#"),
            ("missing_field", "rules.json#"),
        ],
    );
    check(
        r#"{"turnConfigs": {}, "defaultTurnConfig": 3}"#,
        &[
            ("no_turn_configs", "rules.json#/turnConfigs"),
            ("invalid_value", "rules.json#/defaultTurnConfig"),
        ],
    );
    check(
        r#"{"turnConfigs": [], "defaultTurnConfig": "x"}"#,
        &[("invalid_value", "rules.json#/turnConfigs")],
    );
    check("[1]", &[("invalid_value", "rules.json#")]);
    // A default naming a malformed config is reported once, as the malformed config.
    check(
        r#"{"turnConfigs": {"x": {"usesTimer": "yes"}}, "defaultTurnConfig": "x"}"#,
        &[("invalid_value", "rules.json#/turnConfigs/x")],
    );
}

#[test]
fn a_file_that_is_not_json_stops_at_its_line_and_column() {
    let problems =
        TicTacToe::load_content(&source(MANIFEST, "{\n  \"turnConfigs\": ,\n}")).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].code, "malformed_json");
    assert_eq!(
        problems[0].at,
        Location::LineColumn {
            line: 2,
            column: 18
        }
    );
}

#[test]
fn the_manifest_must_name_one_rules_file_of_this_game() {
    let rules = r#"{"turnConfigs": {"x": {}}, "defaultTurnConfig": "x"}"#;
    let problems = |manifest: &str| -> Vec<ContentProblem> {
        TicTacToe::load_content(&source(manifest, rules)).unwrap_err()
    };
    let wrong = problems(&MANIFEST.replace("tictactoe", "connect4"));
    assert_eq!(wrong[0].code, "wrong_game");
    let none = problems(r#"{"game": "tictactoe", "files": []}"#);
    assert_eq!(
        (none[0].code.as_str(), none[0].at.to_string()),
        ("rules_file_count", "#/files".into())
    );
    let kinds = problems(&MANIFEST.replace(r#""kind": "rules""#, r#""kind": "levels""#));
    assert_eq!(kinds[0].code, "unknown_kind");
}
