//! Receipt formats 2 and 3 side by side: the same Connect Four match written in each verifies
//! under its own rules, format 2 keeps the turn framework's signals in its receipts and hashes
//! the full state, format 3 leaves the signals out and hashes the lean form — so neither can
//! be mistaken for the other, and an old format-2 file still verifies (docs/replay.md).

mod common;

use serde_json::{json, Value};
use turnstile_connect4::ConnectFour;
use turnstile_core::{CommandEnvelope, Game, ReceiptFormat, Seat};
use turnstile_mnk::MatchConfig;
use turnstile_runtime::{verify, Match, MatchSpec, ReplayFile, SeatSpec};

/// Seat 0 wins along the bottom row: 0 1 0 1 0 1 0 in columns 2 2 3 3 4 4 5.
const COLUMNS: [u16; 7] = [2, 2, 3, 3, 4, 4, 5];

fn played(format: ReceiptFormat) -> Match<ConnectFour> {
    let spec = MatchSpec {
        config: MatchConfig::with_turn_config("untimed"),
        seed: "formats".into(),
        seats: vec![SeatSpec::human(); 2],
        tick_rate: 10,
    };
    let mut m = Match::<ConnectFour>::new_in(common::bundle(), spec, format).unwrap();
    for (n, column) in COLUMNS.into_iter().enumerate() {
        let action: <ConnectFour as Game>::Action =
            serde_json::from_value(json!({"type": "drop", "column": column})).unwrap();
        let envelope = CommandEnvelope {
            command_id: format!("c{n}"),
            seat: Some(Seat(u16::try_from(n % 2).unwrap())),
            expected_sequence: m.sequence(),
            expected_step: None,
            tick: 10 * n as u64,
            action,
        };
        m.submit(envelope).unwrap();
    }
    m
}

/// The turn-framework event types of every receipt, in order.
fn turn_event_types(m: &Match<ConnectFour>) -> Vec<String> {
    m.log()
        .iter()
        .flat_map(|entry| {
            serde_json::to_value(&entry.receipt.events)
                .unwrap()
                .as_array()
                .cloned()
                .unwrap()
        })
        .filter_map(|event: Value| event["event"]["type"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn each_format_verifies_under_its_own_rules() {
    for format in [ReceiptFormat::V2, ReceiptFormat::V3] {
        let m = played(format);
        let text = ReplayFile::of_match(&m).unwrap().to_json().unwrap();
        let file = ReplayFile::parse(&text).unwrap();
        assert_eq!(file.format, format.number());
        let report = verify::<ConnectFour>(&file).unwrap();
        assert!(
            report.divergence.is_none(),
            "{format:?}: {:?}",
            report.divergence
        );
        assert_eq!(report.verified, COLUMNS.len() as u64, "{format:?}");
        assert!(report.outcome.is_some(), "{format:?}: the match ended");
    }
}

#[test]
fn format_3_leaves_signals_out_and_format_2_keeps_them() {
    let (old, new) = (played(ReceiptFormat::V2), played(ReceiptFormat::V3));
    let (old_types, new_types) = (turn_event_types(&old), turn_event_types(&new));
    for signal in [
        "turnStatusChanged",
        "turnActivated",
        "turnTimerReset",
        "playCommandReceived",
    ] {
        assert!(
            old_types.iter().any(|t| t == signal),
            "format 2 keeps {signal}"
        );
        assert!(
            !new_types.iter().any(|t| t == signal),
            "format 3 drops {signal}"
        );
    }
    // What clients render is in both, in the same order.
    let rendered = |types: &[String]| -> Vec<String> {
        types
            .iter()
            .filter(|t| ["turnBegan", "turnEnded", "roundStarted"].contains(&t.as_str()))
            .cloned()
            .collect()
    };
    assert_eq!(rendered(&old_types), rendered(&new_types));
    assert!(!rendered(&new_types).is_empty());
    // The states are the same; their fingerprints are not, from the first one on, which is
    // how a stored match's format is told (detect_format).
    assert_eq!(old.state(), new.state());
    assert_ne!(old.log()[0].receipt.before, new.log()[0].receipt.before);
}
