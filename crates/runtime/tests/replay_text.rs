//! Verifying a replay from its text gives exactly what verifying its tree gives: the same
//! reports, divergences and errors, for intact, tampered and malformed files alike.

mod tally;

use serde_json::json;
use tally::{new_match, Tally, TallyAction};
use turnstile_core::{CommandEnvelope, Fingerprint, Seat};
use turnstile_runtime::{verify, Match, ReplayFile, ReplayText, Verifier};

fn play_some(m: &mut Match<Tally>, n: u64) {
    for i in 0..n {
        let seq = m.sequence();
        let action = if i % 4 == 1 {
            TallyAction::Draw
        } else {
            TallyAction::Add { n: 2 }
        };
        m.submit(CommandEnvelope {
            command_id: format!("c{i}"),
            seat: Some(Seat((seq % 2) as u16)),
            expected_sequence: seq,
            expected_step: None,
            tick: i,
            action,
        })
        .unwrap();
    }
}

/// Both readings of `text`, which must agree, and what they found.
fn both(text: &str) -> String {
    let tree = ReplayFile::parse(text).and_then(|file| verify::<Tally>(&file));
    let from_text =
        ReplayText::parse(text).and_then(|replay| Verifier::<Tally>::new().verify_text(&replay));
    assert_eq!(from_text, tree, "text and tree disagree on {text}");
    format!("{tree:?}")
}

#[test]
fn an_intact_replay_verifies_the_same_from_text_pretty_or_compact() {
    let mut m = new_match("text");
    play_some(&mut m, 9);
    let file = ReplayFile::of_match(&m).unwrap();
    let pretty = file.to_json().unwrap();
    let compact =
        serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&pretty).unwrap())
            .unwrap();
    for text in [&pretty, &compact] {
        let report = ReplayText::parse(text)
            .and_then(|r| Verifier::<Tally>::new().verify_text(&r))
            .unwrap();
        assert_eq!(report.divergence, None);
        assert_eq!(report.verified, 9);
        assert_eq!(
            report.final_fingerprint.as_ref(),
            Some(m.state_fingerprint())
        );
        both(text);
    }
}

#[test]
fn tampered_replays_diverge_alike_from_text() {
    let mut m = new_match("tamper");
    play_some(&mut m, 6);
    let good = ReplayFile::of_match(&m).unwrap();
    let edits: Vec<fn(&mut ReplayFile)> = vec![
        |f| f.entries[3].receipt["events"][0]["n"] = json!(7),
        |f| f.entries[2].receipt["hash"] = json!(Fingerprint::of(&1u8).unwrap()),
        |f| f.entries[2].receipt["previous"] = json!(null),
        |f| f.entries[1].receipt["views"]["spectator"] = json!(Fingerprint::of(&2u8).unwrap()),
        |f| f.entries[0].receipt["commandId"] = json!("other"),
        |f| f.entries[0].receipt["sequence"] = json!("1"),
        |f| f.entries[4].receipt = json!({"nonsense": true}),
        |f| f.seed = "another".into(),
        |f| f.bundle["content"]["target"] = json!(31),
        |f| f.entries[1].envelope["action"] = json!({"type": "add", "n": 1}),
        |f| f.entries[4].envelope["seat"] = json!(1),
        |f| f.entries[0].envelope = json!({"nonsense": true}),
        |f| f.entries[5].envelope["commandId"] = json!("c0"),
        |f| {
            f.entries.remove(2);
        },
        |f| {
            f.outcome =
                Some(serde_json::from_value(json!({"kind": "win", "winners": [0]})).unwrap())
        },
        |f| f.game = "chess".into(),
        |f| f.rules = 3,
        |f| f.format = 1,
    ];
    for (i, edit) in edits.into_iter().enumerate() {
        let mut file = good.clone();
        edit(&mut file);
        let found = both(&file.to_json().unwrap());
        assert!(
            found.contains("Some(Divergence") || found.starts_with("Err"),
            "edit {i} went unnoticed: {found}"
        );
    }
}

#[test]
fn a_field_the_receipt_type_does_not_have_is_ignored_alike() {
    // Decoding ignores unknown fields, so the tree reader never saw this; nor does the text.
    let mut m = new_match("extra");
    play_some(&mut m, 3);
    let mut file = ReplayFile::of_match(&m).unwrap();
    file.entries[0].receipt["extra"] = json!(1);
    assert!(both(&file.to_json().unwrap()).contains("divergence: None"));
}

#[test]
fn malformed_texts_are_the_same_errors() {
    let mut m = new_match("bad");
    play_some(&mut m, 2);
    let good = ReplayFile::of_match(&m).unwrap().to_json().unwrap();
    let texts = [
        "{".to_string(),
        r#"{"format": 4}"#.to_string(),
        r#"{"format": 1}"#.to_string(),
        r#"{"format": "3"}"#.to_string(),
        "[]".to_string(),
        good.replacen("\"entries\": [", "\"entries\": 7, \"x\": [", 1),
        good.replacen("\"envelope\"", "\"envelope\": 1, \"e\"", 1),
        good.replacen("\"seed\"", "\"seed\": \"a\", \"seed\"", 1),
        format!("{good} trailing"),
    ];
    for text in &texts {
        both(text);
    }
}
