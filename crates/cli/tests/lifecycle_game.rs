//! A game on the match lifecycle with no front-end of its own (Pig, docs/writing-a-game.md
//! section 9) is played, benched and reported by the real binary through the registry alone:
//! `turnstile play pig` with bots in every seat plays a blitz match to its end, `turnstile
//! bench pig` prints its JSON line, and `turnstile content report pig` reports its bundle.

use std::process::{Command, Output, Stdio};

fn turnstile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn pig_is_played_benched_and_reported_with_no_code_of_its_own() {
    let out = turnstile(&[
        "play",
        "pig",
        "--seat",
        "0=bot:random",
        "--seat",
        "1=bot:random",
        "--turn-config",
        "blitz",
        "--seed",
        "cli",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("The match is over"), "{text}");

    let out = turnstile(&["bench", "pig", "--commands", "200"]);
    assert_eq!(out.status.code(), Some(0));
    let line: serde_json::Value =
        serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().unwrap()).unwrap();
    assert_eq!(line["game"], "pig");
    assert!(line["commands"].as_u64().unwrap() >= 200, "{line}");

    let out = turnstile(&["content", "report", "pig"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("files of kind phases: 1"), "{text}");
}
