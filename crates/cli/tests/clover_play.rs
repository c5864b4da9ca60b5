//! `turnstile play clover`, run as the real binary: the bot plays a whole run and writes a
//! replay that `turnstile replay verify` accepts; a person's scripted lines drive a run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn turnstile(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out: Output = child.wait_with_output().unwrap();
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn the_bot_plays_clover_to_the_end_and_the_replay_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("clover.replay.json");
    let replay = replay.to_str().unwrap();
    let (code, text) = turnstile(
        &[
            "play", "clover", "--seed", "cli-bot", "--seat", "0=bot", "--replay", replay,
        ],
        "",
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("Run over at ante"), "{text}");
    assert!(text.contains("bot> play"), "{text}");
    assert!(text.contains("replay written to"), "{text}");
    let (code, text) = turnstile(&["replay", "verify", replay], "");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok"), "{text}");
}

#[test]
fn a_person_plays_clover_line_by_line() {
    let (code, text) = turnstile(
        &["play", "clover", "--seed", "cli-person"],
        "h\ns\np 1 2 3 4 5\nd 1\nsell 1\nq\n",
    );
    assert_eq!(code, Some(0), "{text}");
    for needle in [
        "b N buy offer N, o N open pack N",
        "Small blind: score 300 chips",
        "hand: [1] ",
        "scores",
        "1 card discarded",
        "refused:",
    ] {
        assert!(text.contains(needle), "no {needle:?} in\n{text}");
    }
    // the deck counter, as the web shows it: the deck's size before the first blind, then the
    // cards left to draw after each draw (8 dealt, 5 played and 5 drawn, 1 discarded and drawn)
    let decks: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split(", deck ").nth(1))
        .collect();
    assert_eq!(decks.first(), Some(&"52"), "{text}");
    for counter in ["44 / 52", "39 / 52", "38 / 52"] {
        assert!(
            decks.contains(&counter),
            "no deck {counter:?} in {decks:?}\n{text}"
        );
    }
}

#[test]
fn bad_clover_seats_are_usage_errors() {
    let (code, text) = turnstile(&["play", "clover", "--seat", "1=bot"], "");
    assert_eq!(code, Some(2), "{text}");
    let (code, text) = turnstile(&["play", "connect4", "--replay", "x.json"], "");
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--replay is for clover"), "{text}");
}
