//! The command line's promises: exit codes (0 success, 1 a check failed, 2 usage, 3 input or
//! I/O) and messages that say what, where and why — run against the real binary.

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

/// Runs the binary and checks its exit code and that stdout+stderr contain every `needle`.
fn check(args: &[&str], code: i32, needles: &[&str]) {
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
}

const MICROBAN: &str = "games/sokoban/content/levels/microban.xsb";
const GOLDEN: &str = "games/sokoban/tests/golden/microban-1.replay.json";
const SOLUTION: &str = "dlUrrrdLullddrUluRuulDrddrruLdlUU";

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("turnstile-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn replay_verify_exit_codes() {
    check(&["replay", "verify", GOLDEN], 0, &["ok, 35 receipt(s)"]);
    // A tampered event: a divergence naming its sequence, field, expected and actual values.
    let text = std::fs::read_to_string(root().join(GOLDEN)).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["entries"][4]["receipt"]["events"][0]["player"] = serde_json::json!([9, 9]);
    let tampered = temp("tampered.json");
    std::fs::write(&tampered, value.to_string()).unwrap();
    check(
        &["replay", "verify", tampered.to_str().unwrap()],
        1,
        &[
            "DIVERGED after 4",
            "sequence 5: events differs",
            "expected",
            "actual",
        ],
    );
    let malformed = temp("malformed.json");
    std::fs::write(&malformed, "{ not json").unwrap();
    check(
        &["replay", "verify", malformed.to_str().unwrap()],
        3,
        &["malformed_replay"],
    );
    value["format"] = serde_json::json!(7);
    let unknown = temp("format7.json");
    std::fs::write(&unknown, value.to_string()).unwrap();
    check(
        &["replay", "verify", unknown.to_str().unwrap()],
        3,
        &["unknown replay format 7"],
    );
    value["format"] = serde_json::json!(1);
    value["game"] = serde_json::json!("chess");
    let game = temp("chess.json");
    std::fs::write(&game, value.to_string()).unwrap();
    check(
        &["replay", "verify", game.to_str().unwrap()],
        3,
        &["unknown game \"chess\""],
    );
    check(
        &["replay", "verify", "no/such/file.json"],
        3,
        &["cannot read"],
    );
    // A clover run of the rules before version 1 (docs/replay.md, "Rules versions"): refused
    // by its version, with the code once, not blamed on its bundle.
    check(
        &[
            "replay",
            "verify",
            "games/clover/tests/fixtures/rules0-plain.replay.json",
        ],
        3,
        &["clover rules version 0", "retired", "(rules_retired)"],
    );
}

#[test]
fn sokoban_verify_exit_codes_and_replay_out() {
    let out = temp("m1.json");
    check(
        &[
            "sokoban",
            "verify",
            MICROBAN,
            "--level",
            "1",
            "--solution",
            SOLUTION,
            "--replay-out",
            out.to_str().unwrap(),
        ],
        0,
        &[
            "solved in 33 moves, 8 pushes",
            "replay written to ",
            "m1.json",
        ],
    );
    check(
        &["replay", "verify", out.to_str().unwrap()],
        0,
        &["33 receipt(s)"],
    );
    check(
        &[
            "sokoban",
            "verify",
            MICROBAN,
            "--level",
            "1",
            "--solution",
            "dlU",
        ],
        1,
        &["not solved after 3 moves, 1 push"],
    );
    let one = turnstile(&[
        "sokoban",
        "verify",
        MICROBAN,
        "--level",
        "1",
        "--solution",
        "dlU",
    ]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&one.stdout),
        String::from_utf8_lossy(&one.stderr)
    );
    assert!(!said.contains("1 pushes"), "one push is singular: {said}");
    check(
        &[
            "sokoban",
            "verify",
            MICROBAN,
            "--level",
            "1",
            "--solution",
            "rrr",
        ],
        1,
        &["move 3 (r) was rejected", "wall"],
    );
    check(
        &[
            "sokoban",
            "verify",
            MICROBAN,
            "--level",
            "1",
            "--solution",
            "dlu",
        ],
        1,
        &["move 3 (u) pushed a box"],
    );
    check(
        &[
            "sokoban",
            "verify",
            MICROBAN,
            "--level",
            "1",
            "--solution",
            "dlx",
        ],
        3,
        &["not LURD"],
    );
    check(
        &[
            "sokoban",
            "verify",
            MICROBAN,
            "--level",
            "156",
            "--solution",
            "u",
        ],
        2,
        &["levels 1 to 155"],
    );
    check(
        &[
            "sokoban",
            "verify",
            "no/such.xsb",
            "--level",
            "1",
            "--solution",
            "u",
        ],
        3,
        &["cannot read"],
    );
}

#[test]
fn sokoban_check_reports_every_invalid_level() {
    check(
        &["sokoban", "check", MICROBAN],
        0,
        &["155 level(s) in 1 file(s): 155 valid, 0 invalid"],
    );
    check(
        &[
            "sokoban",
            "check",
            MICROBAN,
            "games/sokoban/tests/fixtures/bundles/broken/levels/one.xsb",
            "games/sokoban/tests/fixtures/bundles/broken/levels/two.txt",
        ],
        1,
        &[
            "one.xsb: level 2: 8:5: several players",
            "two.txt: level 1: 1:1: no boxes",
            "158 level(s) in 3 file(s): 156 valid, 2 invalid",
        ],
    );
    check(
        &["sokoban", "check", "no/such.xsb"],
        3,
        &["cannot read", "1 file(s) unreadable"],
    );
}

#[test]
fn content_validate_exit_codes() {
    check(
        &["content", "validate", "games/sokoban/content"],
        0,
        &["valid sokoban bundle", "revision sha256:"],
    );
    check(
        &[
            "content",
            "validate",
            "games/sokoban/tests/fixtures/bundles/broken",
        ],
        1,
        &["bundle.json#/files/2/path", "missing_file"],
    );
    check(&["content", "validate", "no/such/dir"], 3, &["cannot read"]);
    check(
        &["content", "validate", "games/sokoban/content/levels"],
        3,
        &["no bundle.json"],
    );
}

#[test]
fn usage_errors_exit_with_2() {
    check(&["sokoban"], 2, &["Usage"]);
    check(&["sokoban", "verify", MICROBAN], 2, &["--level"]);
    check(&["bench", "chess"], 2, &["no benchmark for \"chess\""]);
    check(&["frobnicate"], 2, &["unrecognized subcommand"]);
}

/// `turnstile play --help` says what each option does when it is left out, and that what a
/// person types counts from 1 while seats count from 0 (issue 16, point 8).
#[test]
fn play_help_says_what_the_defaults_are() {
    let out = turnstile(&["play", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    // the help may be wrapped anywhere: compare with its whitespace runs made single spaces
    let text = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for needle in [
        "(default: a person in every seat; clover's one seat is a person unless `--seat 0=bot`)",
        "(default: a random one, printed at the start)",
        "(default: the content's own default turn config, `untimed` for the shipped grid games)",
        "(default: classic-style)",
        "Duel 2 to 4, and any other game within the range its content allows (Pig 2 to 4); default: the fewest the game takes",
        "(default: the content's, untimed;",
        "Seats are numbered from 0, as in the API; cards and options you type count from 1",
    ] {
        assert!(text.contains(needle), "no {needle:?} in\n{text}");
    }
    assert!(
        !text.contains("default human"),
        "the old, misleading default line is gone: {text}"
    );
}

#[test]
fn play_without_a_terminal_says_so() {
    check(&["sokoban", "play", MICROBAN], 3, &["needs a terminal"]);
    check(
        &["sokoban", "play", MICROBAN, "--level", "999"],
        2,
        &["levels 1 to 155"],
    );
}

#[test]
fn bench_prints_json_lines() {
    let out = turnstile(&["bench", "sokoban", "--commands", "500"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let benches: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["bench"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        benches,
        [
            "bare_moves",
            "receipted_commands",
            "replay_verify",
            "memory_per_match"
        ]
    );
}

#[test]
fn every_shipped_game_reports_what_a_loaded_match_costs() {
    // Duel and clover included: each game's memory line counts matches and bytes, as numbers.
    for game in ["connect4", "duel", "clover"] {
        let out = turnstile(&["bench", game, "--commands", "50"]);
        assert_eq!(out.status.code(), Some(0), "{game}");
        let text = String::from_utf8(out.stdout).unwrap();
        let memory: serde_json::Value = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|l| l["bench"] == "memory_per_match")
            .unwrap_or_else(|| panic!("{game}: no memory line in {text}"));
        assert_eq!(memory["game"], game);
        assert_eq!(memory["matches"].as_u64(), Some(1000), "{memory}");
        assert!(memory["bytesPerMatch"].is_u64(), "{memory}");
        assert!(memory["commands"].as_u64().unwrap() > 0, "{memory}");
    }
}

#[test]
fn clover_bench_scores_hands_and_plays_whole_bot_runs() {
    let out = turnstile(&["bench", "clover", "--commands", "40"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let line = |bench: &str| {
        lines
            .iter()
            .find(|l| l["bench"] == bench)
            .unwrap_or_else(|| panic!("no {bench} line in {text}"))
    };
    for bench in ["score_hand", "score_hand_steps"] {
        assert_eq!(line(bench)["commands"].as_u64(), Some(40), "{bench}");
        assert!(line(bench)["perSecond"].is_u64(), "{bench}");
    }
    let runs = line("bot_runs");
    assert!(runs["commands"].as_u64().unwrap() >= 40, "{runs}");
    assert!(runs["games"].as_u64().unwrap() >= 1, "{runs}");
    assert!(line("random_games_registered")["games"].is_u64());
}

#[test]
fn grid_game_benches_count_games_moves_and_nodes() {
    for game in ["connect4", "tictactoe"] {
        let out = turnstile(&["bench", game, "--commands", "300"]);
        assert_eq!(out.status.code(), Some(0), "{game}");
        let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let benches: Vec<&str> = lines.iter().map(|l| l["bench"].as_str().unwrap()).collect();
        assert_eq!(
            benches,
            [
                "random_games_bare",
                "random_games_receipted",
                "replay_verify",
                "strong_bot_nodes",
                "receipt_bytes",
                "receipt_bytes",
                "memory_per_match"
            ]
        );
        for line in &lines[..3] {
            assert_eq!(line["game"], game);
            assert!(line["games"].as_u64().unwrap() > 0, "{line}");
            assert!(line["commands"].as_u64().unwrap() >= 300, "{line}");
        }
        assert!(lines[3]["nodes"].as_u64().unwrap() > 0);
        assert!(lines.iter().all(|l| l["seconds"].is_number()), "{lines:?}");
        // The byte lines are counts, not timings: format 3 (signals out of receipts, lean
        // state fingerprints) writes well under half of format 2's bytes per move.
        let (lean, before) = (&lines[4], &lines[5]);
        assert_eq!(
            (lean["format"].as_u64(), before["format"].as_u64()),
            (Some(3), Some(2))
        );
        let total = |l: &serde_json::Value| {
            l["stateBytesPerMove"].as_u64().unwrap() + l["eventBytesPerMove"].as_u64().unwrap()
        };
        assert!(
            total(lean) * 2 < total(before),
            "{game}: format 3 {lean} against format 2 {before}"
        );
    }
}

#[test]
fn clover_score_prints_the_receipt_or_says_why_not() {
    check(
        &["clover", "score", "games/clover/examples/flush.json"],
        0,
        &["hand: flush", "chips: 111", "score: 29220", "steps:"],
    );
    let out = turnstile(&[
        "clover",
        "score",
        "games/clover/examples/flush.json",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let receipt: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(receipt["score"], 29220);
    check(&["clover", "score", "no/such.json"], 3, &["no/such.json"]);
}

#[test]
fn a_closed_standard_output_ends_the_calculator_quietly() {
    // The reader is gone before the binary starts, so its first write meets a broken pipe:
    // the command must end with success and no panic, as `… --json | head` expects.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args([
            "clover",
            "score",
            "games/clover/examples/flush.json",
            "--json",
        ])
        .current_dir(root())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

#[test]
fn calculator_errors_print_their_code_once() {
    let dir = temp("calc");
    let _ = std::fs::create_dir_all(&dir);
    let six = dir.join("six.json");
    let card = r#"{"rank":"2","suit":"spades"}"#;
    std::fs::write(&six, format!(r#"{{"played":[{}]}}"#, [card; 6].join(","))).unwrap();
    let out = turnstile(&["clover", "score", six.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert_eq!(stderr.matches("too_many_cards").count(), 1, "{stderr}");
}

/// `turnstile play duel --seats 3 --clock blitz` with a person in seat 0: the header names the
/// seats, clock and preset; the person's hand is listed from 1 with each card's name, cost and
/// text; quitting ends cleanly. With bots in every seat the match plays to its end.
#[test]
fn duel_plays_three_seats_under_blitz_and_shows_the_hand_from_1() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args([
            "play",
            "duel",
            "--seats",
            "3",
            "--clock",
            "blitz",
            "--seed",
            "cli-duel",
            "--seat",
            "1=bot:strong",
            "--seat",
            "2=bot:random",
        ])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"x\nq\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("Duel for 3 seats under `classic-style`, clock blitz"),
        "{text}"
    );
    assert!(
        text.contains("seat 0 human, seat 1 bot:strong, seat 2 bot:random"),
        "{text}"
    );
    assert!(
        text.contains("seat 2: health 30/30"),
        "three seats shown: {text}"
    );
    // The hand, from 1: "    1. Spark (1 mana, spell): Deal 2 damage to the opponent."
    let first = text
        .lines()
        .find(|l| l.starts_with("    1. "))
        .unwrap_or_else(|| panic!("no hand line in {text}"));
    assert!(
        first.contains(" mana, ") && first.contains("): "),
        "{first}"
    );
    assert!(!text.contains("    0. "), "cards count from 1: {text}");
    assert!(
        text.contains("? p N [T]"),
        "a line that is no command is explained: {text}"
    );

    check(
        &[
            "play",
            "duel",
            "--seats",
            "4",
            "--clock",
            "standard",
            "--preset",
            "priority-window",
            "--seed",
            "cli-duel",
            "--seat",
            "0=bot:random",
            "--seat",
            "1=bot:strong",
            "--seat",
            "2=bot:random",
            "--seat",
            "3=bot:strong",
        ],
        0,
        &["Duel for 4 seats", "Match over:"],
    );
    check(
        &["play", "duel", "--seats", "5"],
        2,
        &["Duel takes 2 to 4 seats"],
    );
    check(
        &["play", "connect4", "--clock", "blitz"],
        2,
        &["--clock and --preset are Duel's"],
    );
    check(
        &["play", "connect4", "--seats", "3"],
        2,
        &["--seats: connect4 is played by 2 seats"],
    );
}

#[test]
fn content_report_lists_each_game_s_own_vocabulary() {
    // clover declares its scoring vocabulary; each name is listed with its rows, 0 included.
    check(
        &["content", "report", "clover"],
        0,
        &[
            "game-declared triggers: 23, scopes: 10, operations: 12",
            "game trigger OnCardScored: ",
            "game scope LeftNeighbour: 0 rows",
            "game operation AddChips: ",
            "game operation AlterCard: 18 rows",
            "custom rows: 0",
            "custom rows, single-row game operations included: 0",
            "catalog entries of kind tarot: 22",
            "catalog entries of kind joker: 150",
            "catalog entries of kind spectral: 18",
            "catalog entries of kind tag: 24",
            "catalog entries of kind planet: 12",
            "catalog entries of kind deck: 15",
            "catalog entries of kind stake: 8",
            "catalog entries of kind boss: 28",
            "catalog entries of kind voucher: 32",
        ],
    );
    // Duel declares none: everything it runs is the engine's.
    check(
        &["content", "report", "duel"],
        0,
        &["game-declared triggers: 0, scopes: 0, operations: 0"],
    );
}
