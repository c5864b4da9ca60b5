//! `turnstile sokoban solve` and `optimize` against the real binary: output, JSON and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn turnstile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

/// Runs the binary; checks the exit code and that stdout+stderr hold every needle.
fn check(args: &[&str], code: i32, needles: &[&str]) -> String {
    let out = turnstile(args);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(code), "turnstile {args:?}\n{text}");
    for needle in needles {
        assert!(
            text.contains(needle),
            "turnstile {args:?}: no {needle:?} in\n{text}"
        );
    }
    text
}

const MICROBAN: &str = "games/sokoban/content/levels/microban.xsb";

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("turnstile-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn solve_one_level_prints_a_verified_solution() {
    let text = check(
        &[
            "sokoban",
            "solve",
            MICROBAN,
            "--level",
            "1",
            "--time-limit",
            "5",
        ],
        0,
        &["level 1", "solved", "moves", "pushes", "nodes"],
    );
    let lurd = text
        .lines()
        .nth(1)
        .expect("the LURD line")
        .trim()
        .to_owned();
    check(
        &[
            "sokoban",
            "verify",
            MICROBAN,
            "--level",
            "1",
            "--solution",
            &lurd,
        ],
        0,
        &["solved"],
    );
}

#[test]
fn solve_json_gives_one_object_per_level_and_exit_1_when_one_is_not_solved() {
    // Level 1 solves; level 2 can't (the box is stuck in the corridor behind the other one).
    let file = temp(
        "two.xsb",
        "; easy\n#####\n#@$.#\n#####\n\n; stuck\n########\n#@$$ ..#\n########\n",
    );
    let file = file.to_str().unwrap();
    let out = turnstile(&["sokoban", "solve", file, "--json", "--time-limit", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0]["solved"], true);
    assert_eq!(lines[0]["lurd"], "R");
    assert_eq!(
        (lines[0]["moves"].as_u64(), lines[0]["pushes"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(lines[1]["solved"], false);
    assert_eq!(lines[1]["reason"], "unsolvable");
    assert!(lines[1]["nodes"].is_u64() && lines[1]["timeMs"].is_u64());
}

#[test]
fn solve_optimal_pushes_and_memory_and_usage_errors() {
    check(
        &[
            "sokoban",
            "solve",
            MICROBAN,
            "--level",
            "2",
            "--optimal",
            "pushes",
        ],
        0,
        &["pushes-optimal"],
    );
    // A budget too small for any table: a clean "not solved", exit 1, no abort.
    check(
        &[
            "sokoban",
            "solve",
            "games/sokoban/content/levels/microban.xsb",
            "--level",
            "150",
            "--memory-limit",
            "0.00001",
        ],
        1,
        &["not solved (memory"],
    );
    check(
        &["sokoban", "solve", MICROBAN, "--level", "9999"],
        2,
        &["does not exist"],
    );
    check(
        &[
            "sokoban",
            "solve",
            MICROBAN,
            "--level",
            "1",
            "--memory-limit",
            "lots",
        ],
        2,
        &["--memory-limit"],
    );
    // Too many threads is refused, never quietly cut down to the portfolio's size.
    check(
        &[
            "sokoban",
            "solve",
            MICROBAN,
            "--level",
            "1",
            "--threads",
            "17",
        ],
        2,
        &["--threads must be between 1 and 16", "not 17"],
    );
    // Five threads run five searches (the fifth a weighted-4 one); the first to finish wins.
    check(
        &[
            "sokoban",
            "solve",
            MICROBAN,
            "--level",
            "1",
            "--threads",
            "5",
        ],
        0,
        &["solved"],
    );
    check(&["sokoban", "solve", "no/such.xsb"], 3, &["cannot read"]);
}

#[test]
fn optimize_shortens_a_padded_solution() {
    let file = temp(
        "room.xsb",
        "; room\n#######\n#     #\n#@$  .#\n#     #\n#######\n",
    );
    let file = file.to_str().unwrap();
    check(
        &[
            "sokoban",
            "optimize",
            file,
            "--level",
            "1",
            "--solution",
            "RurrdLulldRRR",
        ],
        0,
        &[
            "13 moves, 5 pushes",
            "3 moves, 3 pushes, moves-optimal",
            "RRR",
        ],
    );
    check(
        &[
            "sokoban",
            "optimize",
            file,
            "--level",
            "1",
            "--solution",
            "RR",
        ],
        1,
        &["not_a_solution"],
    );
}
