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

/// Open seats on two nodes: claimants racing on both get the seat once, and the winner's token
/// works on the node that had loaded the match before the claim.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_never_give_one_open_seat_twice() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    let a = TestServer::start(&db).await;
    let b = TestServer::start(&db).await;
    for round in 0..5 {
        let (id, _, spectator) = a
            .create(
                json!({"game": "sokoban", "config": {"collection": "microban", "level": 1},
                           "seats": [{"kind": "open"}]}),
            )
            .await;
        // node B loads the match (and its seats) before anyone claims
        assert_eq!(b.sequence(&id, &spectator).await, 0);
        let path = format!("/api/v1/matches/{id}/join");
        let names: Vec<Value> = ["a1", "b1", "a2", "b2"]
            .iter()
            .map(|n| json!({ "name": n }))
            .collect();
        let (ra, rb, rc, rd) = tokio::join!(
            a.post(&path, None, &names[0]),
            b.post(&path, None, &names[1]),
            a.post(&path, None, &names[2]),
            b.post(&path, None, &names[3]),
        );
        let answers = [ra, rb, rc, rd];
        let won: Vec<&Value> = answers
            .iter()
            .filter(|r| r.0 == 200)
            .map(|r| &r.1)
            .collect();
        assert_eq!(
            won.len(),
            1,
            "round {round}: one seat, one claimant: {answers:?}"
        );
        assert!(
            answers
                .iter()
                .filter(|r| r.0 != 200)
                .all(|r| r.0 == 409 && r.1["error"]["code"] == "no_open_seat"),
            "round {round}: {answers:?}"
        );
        let token = won[0]["token"].as_str().unwrap();
        let name = won[0]["name"].as_str().unwrap();
        // the claim is known on both nodes: a command through each, the name on each
        let (status, r) = b.command(&id, token, "b", 0, mv("right")).await;
        assert_eq!(status, 200, "round {round}: {r}");
        let (status, r) = a.command(&id, token, "a", 1, mv("left")).await;
        assert_eq!(status, 200, "round {round}: {r}");
        for node in [&a, &b] {
            let (_, snap) = node
                .get(&format!("/api/v1/matches/{id}"), Some(token))
                .await;
            assert_eq!(snap["seats"][0]["name"], name, "round {round}: {snap}");
            assert_eq!(snap["seats"][0]["kind"], "human", "round {round}: {snap}");
        }
    }
    a.stop().await;
    b.stop().await;
}

/// Fair clocks across nodes: seat 0 says ready to node A, seat 1 to node B; the clock starts
/// once, as one logged `clock-resumed:0`, and both nodes see it running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ready_marks_on_two_nodes_start_the_clock_once() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    let config = || turnstile_server::ServerConfig {
        clock_start_wait: std::time::Duration::from_secs(600),
        ..common::test_config()
    };
    let a = TestServer::start_with(&db, config()).await;
    let b = TestServer::start_with(&db, config()).await;
    let (id, tokens, _) = a
        .create(
            json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 10,
                       "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let ready = format!("/api/v1/matches/{id}/ready");
    let (status, body) = a.post(&ready, Some(&t0), &json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["clockRunning"], false, "{body}");
    // node B counts node A's mark: it waits for seat 1 only
    let (_, on_b) = b.get(&format!("/api/v1/matches/{id}"), Some(&t1)).await;
    assert_eq!(on_b["clockStart"]["ready"], json!([0]), "{on_b}");
    assert_eq!(on_b["clockStart"]["waitingFor"], json!([1]), "{on_b}");
    assert_eq!(on_b["deadlineTick"], Value::Null, "{on_b}");
    // seat 1 on node B: the clock starts there
    let (status, body) = b.post(&ready, Some(&t1), &json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["clockRunning"], true, "{body}");
    // saying ready again on either node starts nothing more
    for (node, token) in [(&a, &t0), (&b, &t1), (&a, &t1)] {
        let (status, body) = node.post(&ready, Some(token), &json!({})).await;
        assert_eq!(status, 200, "{body}");
    }
    let m = a
        .wait_for(&id, &t0, 10, |m| m["deadlineTick"].is_u64())
        .await;
    assert!(m.get("clockStart").is_none(), "{m}");
    let (_, page) = b
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&t0))
        .await;
    let starts: Vec<&Value> = page["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["commandId"]
                .as_str()
                .is_some_and(|c| c.starts_with("clock-resumed"))
        })
        .collect();
    assert_eq!(starts.len(), 1, "one start: {page}");
    assert_eq!(
        page["receipts"][0]["commandId"], "clock-resumed:0",
        "{page}"
    );
    assert_eq!(page["receipts"][0]["seat"], Value::Null);
    a.stop().await;
    b.stop().await;
}
