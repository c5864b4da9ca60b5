//! Level validation through fixture files: each `name.xsb` (an XSB collection) or `name.csv`
//! (a numeric grid) under tests/fixtures/{valid,invalid}/ sits next to `name.expected`, the
//! report the parser must give for it. Set `UPDATE_EXPECTED=1` to rewrite the expected files
//! (then review the diff).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use turnstile_sokoban::{
    parse_collection, parse_level_file, parse_numeric, Level, LevelError, LevelErrorKind,
};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Every error code a level can be rejected with; each needs an invalid fixture.
const CODES: [&str; 13] = [
    "no_player",
    "several_players",
    "unknown_character",
    "fewer_goals_than_boxes",
    "no_boxes",
    "open_region",
    "box_outside_region",
    "goal_outside_region",
    "numeric_ragged_row",
    "numeric_bad_value",
    "numeric_not_integer",
    "empty_level",
    "too_large",
];

#[test]
fn valid_fixtures_load_as_expected() {
    for (input, expected) in fixtures("valid") {
        let (report, errors) = report(&input);
        assert!(errors.is_empty(), "{}: {errors:?}", input.display());
        check(&input, &expected, &report);
    }
}

#[test]
fn invalid_fixtures_report_every_problem() {
    let mut codes_seen = BTreeSet::new();
    for (input, expected) in fixtures("invalid") {
        let (report, errors) = report(&input);
        assert!(!errors.is_empty(), "{} has no problem", input.display());
        codes_seen.extend(errors.iter().map(LevelError::code));
        check(&input, &expected, &report);
    }
    for code in CODES {
        assert!(codes_seen.contains(code), "no invalid fixture shows {code}");
    }
}

/// Compares a report with the expected file (or rewrites it under `UPDATE_EXPECTED=1`).
fn check(input: &Path, expected_file: &Path, actual: &str) {
    if std::env::var_os("UPDATE_EXPECTED").is_some() {
        std::fs::write(expected_file, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(expected_file)
        .unwrap_or_else(|e| panic!("{}: {e}", expected_file.display()));
    assert_eq!(actual, expected, "report for {}", input.display());
}

/// The fixture inputs of one folder with their expected files, sorted by name.
fn fixtures(folder: &str) -> Vec<(PathBuf, PathBuf)> {
    let dir = Path::new(FIXTURES).join(folder);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("xsb" | "csv")))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no fixtures in {}", dir.display());
    inputs
        .into_iter()
        .map(|input| {
            let expected = input.with_extension("expected");
            (input, expected)
        })
        .collect()
}

/// Parses one fixture; the report lists each level (its summary and rows) or its errors.
fn report(input: &Path) -> (String, Vec<LevelError>) {
    let text = std::fs::read_to_string(input).unwrap();
    let name = input.file_name().unwrap().to_str().unwrap();
    let levels = if name.ends_with(".csv") {
        vec![parse_numeric(&text, name)]
    } else {
        parse_collection(&text, name).levels
    };
    // The format detection the command line uses must pick the same parser as the extension
    // (an empty numeric file has nothing to detect).
    let detectable = !name.ends_with(".csv") || text.contains(',');
    assert!(
        !detectable || parse_level_file(&text, name).levels == levels,
        "{name}: the detected format differs from the extension's"
    );
    let mut report = String::new();
    let mut all_errors = Vec::new();
    for (index, level) in levels.into_iter().enumerate() {
        match level {
            Ok(level) => report.push_str(&describe(index + 1, &level)),
            Err(errors) => {
                for error in &errors {
                    report.push_str(&format!("{error}\n"));
                }
                all_errors.extend(errors);
            }
        }
    }
    (report, all_errors)
}

fn describe(number: usize, level: &Level) -> String {
    let title = level
        .title()
        .map_or("untitled".to_string(), |t| format!("{t:?}"));
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "es" });
    let goals = level.goals().len();
    let mut text = format!(
        "level {number}: ok {title} {}x{}, {}, {goals} goal{}\n",
        level.width(),
        level.height(),
        plural(level.boxes().len(), "box"),
        if goals == 1 { "" } else { "s" },
    );
    for row in level.to_rows() {
        text.push_str(&format!("  {row}\n"));
    }
    text
}

/// Issue 15, point 7: `1,1,x` is a numeric grid with a cell that is not an integer, not an XSB
/// level with an unknown character `,`.
#[test]
fn a_numeric_cell_that_is_no_integer_is_reported_at_its_line_and_column() {
    let levels = parse_level_file("1,2,3\n1,0,x\n", "level.txt").levels;
    let errors = levels[0].as_ref().unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!((e.line, e.column, e.code()), (2, 5, "numeric_not_integer"));
    assert_eq!(
        e.kind,
        LevelErrorKind::NumericNotInteger { value: "x".into() }
    );
    // An integer outside the table keeps its own code.
    let levels = parse_level_file("1,2,3\n1,0,7\n", "level.txt").levels;
    assert_eq!(
        levels[0].as_ref().unwrap_err()[0].code(),
        "numeric_bad_value"
    );
    // Commas in comments and metadata do not make a file numeric.
    let xsb = "; one, two\nTitle: a, b\n#####\n#@$.#\n#####\n";
    let levels = parse_level_file(xsb, "level.xsb").levels;
    assert_eq!(levels[0].as_ref().unwrap().title(), Some("a, b"));
}
