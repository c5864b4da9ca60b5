//! Two server nodes on one PostgreSQL database: racing commands resolve to exactly one winner
//! through the store's uniqueness; a live stream on node B sees commits made through node A;
//! when node A stops, node B takes its matches over (timers included).

mod common;

use common::{read_events, Db, TestServer};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn mv(direction: &str) -> Value {
    json!({ "type": "move", "direction": direction })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_serve_the_same_matches() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    let a = TestServer::start(&db).await;
    let b = TestServer::start(&db).await;
    assert_ne!(a.server.node_id(), b.server.node_id());
    let (id, tokens, spectator) = a
        .create(json!({"game": "sokoban", "config": {"collection": "microban", "level": 1}, "seats": [{"kind": "human"}]}))
        .await;
    let token = tokens[0].clone().unwrap();

    // Node B streams the match; commands go through node A.
    let stream = b
        .http
        .get(b.url(&format!("/api/v1/matches/{id}/events")))
        .bearer_auth(&spectator)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    for (i, d) in ["right", "left", "right"].iter().enumerate() {
        let (status, r) = a
            .command(&id, &token, &format!("a{i}"), i as u64, mv(d))
            .await;
        assert_eq!(status, 200, "{r}");
    }
    let seen = read_events(stream, 3, 15).await;
    assert_eq!(
        seen.iter().map(|e| e.0).collect::<Vec<_>>(),
        [1, 2, 3],
        "node B streamed node A's commits"
    );

    // Node B accepts the next command, having caught up.
    let (status, r) = b.command(&id, &token, "b3", 3, mv("left")).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["sequence"], 4);

    // Races: the same expected sequence on both nodes at once, different command ids.
    let mut sequence = 4u64;
    for round in 0..10 {
        let dir = if round % 2 == 0 { "right" } else { "left" };
        let (ida, idb) = (format!("ra{round}"), format!("rb{round}"));
        let (ra, rb) = tokio::join!(
            a.command(&id, &token, &ida, sequence, mv(dir)),
            b.command(&id, &token, &idb, sequence, mv(dir)),
        );
        let statuses = [ra.0, rb.0];
        assert_eq!(
            statuses.iter().filter(|s| **s == 200).count(),
            1,
            "round {round}: {ra:?} {rb:?}"
        );
        let loser = if ra.0 == 200 { &rb } else { &ra };
        assert_eq!(loser.0, 409, "{loser:?}");
        assert_eq!(loser.1["error"]["code"], "stale_sequence");
        assert_eq!(loser.1["error"]["details"]["currentSequence"], sequence + 1);
        sequence += 1;
    }
    // The same command id on both nodes at once: one receipt, both answers carry it.
    let (ra, rb) = tokio::join!(
        a.command(&id, &token, "same", sequence, mv("right")),
        b.command(&id, &token, "same", sequence, mv("right")),
    );
    assert_eq!((ra.0, rb.0), (200, 200), "{ra:?} {rb:?}");
    assert_eq!(ra.1, rb.1);
    sequence += 1;

    // Both nodes agree on the log: every command once, in one order.
    let (_, ta) = a
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&token))
        .await;
    let (_, tb) = b
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&token))
        .await;
    assert_eq!(ta["receipts"], tb["receipts"]);
    let ids: Vec<&str> = ta["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["commandId"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len() as u64, sequence);
    assert_eq!(
        ids.iter().collect::<BTreeSet<_>>().len(),
        ids.len(),
        "no command applied twice"
    );

    // A timed match created on A: when A stops, B takes it over and its timer fires there.
    let (ttt, ttt_tokens, _) = a
        .create(
            json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 10,
                       "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let ttt_token = ttt_tokens[0].clone().unwrap();
    a.stop().await;
    let m = b
        .wait_for(&ttt, &ttt_token, 30, |m| {
            m["sequence"].as_u64().unwrap_or(0) >= 1
        })
        .await;
    assert!(m["sequence"].as_u64().unwrap() >= 1);
    let (_, page) = b
        .get(&format!("/api/v1/matches/{ttt}/timeline"), Some(&ttt_token))
        .await;
    assert_eq!(page["receipts"][0]["commandId"], "timeout:1");
    b.stop().await;
}
