//! A 3-seat Duel under the blitz clock through the real API, on both backends: the server's
//! timer times an activation out, a seat Skips, a late seat JOINs and enters the turn order at
//! the next round, a seat forfeits on its second timeout, the match ends, and its replay
//! verifies. Each seat's hand stays hidden from the others and from spectators throughout.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};
use turnstile_runtime::ReplayFile;

/// Whether any value under `v` shows the hand of a seat other than `own` (`None`: any hand).
fn shows_other_hand(v: &Value, own: Option<usize>) -> bool {
    match v {
        Value::Object(map) => {
            if let Some(Value::Array(seats)) = map.get("seats") {
                for (i, s) in seats.iter().enumerate() {
                    if Some(i) != own && s.get("hand").is_some_and(|h| !h.is_null()) {
                        return true;
                    }
                }
            }
            map.values().any(|x| shows_other_hand(x, own))
        }
        Value::Array(items) => items.iter().any(|x| shows_other_hand(x, own)),
        _ => false,
    }
}

async fn three_seats(db: Db) {
    let s = TestServer::start(&db).await;
    // Blitz activations last 150 ticks; at 100 ticks a second one times out after 1.5 s.
    let (id, tokens, spectator) = s
        .create(json!({"game": "duel",
                       "config": {"phaseSequence": "classic-style", "clock": "blitz", "lateSeats": [2]},
                       "tickRate": 100,
                       "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}))
        .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let path = |p: &str| format!("/api/v1/matches/{id}{p}");
    let snap = s
        .wait_for(&id, &tokens[0], 10, |m| m["status"] == "active")
        .await;
    assert_eq!(snap["view"]["active"], 0, "{snap}");
    assert_eq!(snap["view"]["seats"][2]["standing"], "waiting", "{snap}");
    assert!(
        snap["deadlineTick"].is_u64() || snap["view"]["deadlineTick"].is_u64(),
        "{snap}"
    );

    // The late seat joins while seat 0 is acting: it will enter at the next round.
    let seq = s.sequence(&id, &tokens[2]).await;
    let (status, receipt) = s
        .command(&id, &tokens[2], "join", seq, json!({"type": "JOIN"}))
        .await;
    assert_eq!(status, 200, "{receipt}");

    // Seat 0 lets its clock run out: the server's Timeout passes the activation to seat 1.
    let snap = s
        .wait_for(&id, &tokens[1], 10, |m| m["view"]["active"] == 1)
        .await;
    assert_eq!(snap["view"]["seats"][2]["standing"], "playing", "{snap}");

    // Seat 1 skips; round 2 begins with seat 0 (ties break by registration), whose second
    // timeout in a row forfeits it; then the joiner's first activation comes after seat 1's.
    let seq = s.sequence(&id, &tokens[1]).await;
    let (status, receipt) = s
        .command(&id, &tokens[1], "skip", seq, json!({"type": "SKIP"}))
        .await;
    assert_eq!(status, 200, "{receipt}");
    let snap = s
        .wait_for(&id, &tokens[1], 10, |m| {
            m["view"]["seats"][0]["standing"] == "out"
        })
        .await;
    assert_eq!(snap["view"]["active"], 1, "{snap}");
    let seq = snap["sequence"].as_u64().unwrap();
    let (status, receipt) = s
        .command(&id, &tokens[1], "end", seq, json!({"type": "END_TURN"}))
        .await;
    assert_eq!(status, 200, "{receipt}");
    let snap = s
        .wait_for(&id, &tokens[2], 10, |m| m["view"]["active"] == 2)
        .await;
    assert!(!shows_other_hand(&snap, Some(2)), "{snap}");
    let (_, watching) = s.get(&path(""), Some(&spectator)).await;
    assert!(!shows_other_hand(&watching, None), "{watching}");

    // The joiner resigns: seat 1 is the last one standing.
    let seq = snap["sequence"].as_u64().unwrap();
    let (status, receipt) = s
        .command(&id, &tokens[2], "resign", seq, json!({"type": "RESIGN"}))
        .await;
    assert_eq!(status, 200, "{receipt}");
    let end = s
        .wait_for(&id, &tokens[1], 10, |m| m["status"] == "finished")
        .await;
    assert_eq!(end["outcome"]["winners"], json!([1]), "{end}");

    let (_, replay) = s.get(&path("/replay"), Some(&tokens[1])).await;
    let file: ReplayFile = serde_json::from_value(replay.clone()).unwrap();
    let report = common::registry().verify_replay(&file).unwrap();
    assert!(report.divergence.is_none(), "{report:?}");
    let text = replay.to_string();
    for expected in [
        "timeout:",
        "\"SKIP\"",
        "\"JOIN\"",
        "seatJoined",
        "seatEliminated",
    ] {
        assert!(text.contains(expected), "the replay holds {expected}");
    }
    s.stop().await;
}
on_both_backends!(
    a_three_seat_blitz_duel_with_timeouts_a_skip_and_a_late_joiner,
    three_seats
);
