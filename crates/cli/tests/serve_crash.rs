//! `turnstile serve` survives `kill -9`: the real binary on a SQLite file takes concurrent
//! commands on several matches, is killed mid-load, and restarted on the same file. Every
//! command it acknowledged is in the log at the sequence it was acknowledged with, no command
//! is there twice, the log has no gap, and the replay of every match verifies
//! (`turnstile replay verify`). Also: `content publish --database`, and `loadtest` refusing
//! anything but loopback.

mod common;

use common::{http_client, serve};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

type Acks = Arc<Mutex<BTreeMap<String, Vec<(u64, String)>>>>;

async fn drive(
    client: reqwest::Client,
    base: String,
    id: String,
    token: String,
    acks: Acks,
    until: Instant,
) {
    let mut sequence = 0u64;
    let mut n = 0u64;
    let mut undo = false;
    let dirs = ["left", "right", "up", "down"];
    let mut dir = 0;
    while Instant::now() < until {
        n += 1;
        let command_id = format!("{id}-{n}");
        let action = if undo {
            json!({"type": "undo"})
        } else {
            json!({"type": "move", "direction": dirs[dir]})
        };
        let response = client
            .post(format!("{base}/api/v1/matches/{id}/commands"))
            .bearer_auth(&token)
            .json(&json!({"commandId": command_id, "expectedSequence": sequence, "action": action}))
            .send()
            .await;
        let Ok(response) = response else {
            return; // the server is gone
        };
        let status = response.status().as_u16();
        let Ok(body) = response.json::<Value>().await else {
            return;
        };
        match status {
            200 => {
                let acked = body["sequence"].as_u64().unwrap();
                assert_eq!(acked, sequence + 1);
                acks.lock()
                    .unwrap()
                    .entry(id.clone())
                    .or_default()
                    .push((acked, command_id));
                sequence = acked;
                undo = !undo;
            }
            422 => dir = (dir + 1) % dirs.len(),
            other => panic!("unexpected {other}: {body}"),
        }
    }
}

/// Creates a match; returns its id and the first seat's token.
async fn create(client: &reqwest::Client, base: &str, body: Value) -> (String, String) {
    let created: Value = client
        .post(format!("{base}/api/v1/matches"))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    (
        created["matchId"].as_str().unwrap().to_owned(),
        created["seats"][0]["token"].as_str().unwrap().to_owned(),
    )
}

async fn all_receipts(client: &reqwest::Client, base: &str, id: &str, token: &str) -> Vec<Value> {
    let mut receipts = Vec::new();
    let mut after = 0;
    loop {
        let page: Value = client
            .get(format!("{base}/api/v1/matches/{id}/timeline?after={after}"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let got = page["receipts"].as_array().unwrap().clone();
        receipts.extend(got);
        match page["nextAfter"].as_u64() {
            Some(next) => after = next,
            None => return receipts,
        }
    }
}

#[test]
fn a_killed_server_loses_no_acknowledged_command_and_applies_none_twice() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("turnstile.db");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let client = http_client();
    let mut server = serve(&db);
    let base = server.base.clone();
    let matches: Vec<(String, String)> = runtime.block_on(async {
        let mut matches = Vec::new();
        for _ in 0..6 {
            let body = json!({"game": "sokoban", "config": {"collection": "microban", "level": 1},
                              "seats": [{"kind": "human"}]});
            matches.push(create(&client, &base, body).await);
        }
        matches
    });

    // Load, then kill -9 in the middle of it.
    let acks: Acks = Arc::default();
    let until = Instant::now() + Duration::from_secs(20);
    let drivers: Vec<_> = matches
        .iter()
        .map(|(id, token)| {
            runtime.spawn(drive(
                client.clone(),
                base.clone(),
                id.clone(),
                token.clone(),
                acks.clone(),
                until,
            ))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    for d in drivers {
        runtime.block_on(d).unwrap();
    }
    let acks = acks.lock().unwrap().clone();
    let acknowledged: usize = acks.values().map(Vec::len).sum();
    assert!(
        acknowledged > 20,
        "the load ran: {acknowledged} commands acknowledged"
    );

    // Restart on the same file: everything acknowledged is there, once, in order.
    let mut server = serve(&db);
    let base = server.base.clone();
    runtime.block_on(async {
        for (id, token) in &matches {
            let receipts = all_receipts(&client, &base, id, token).await;
            let sequences: Vec<u64> = receipts.iter().map(|r| r["sequence"].as_u64().unwrap()).collect();
            assert_eq!(sequences, (1..=receipts.len() as u64).collect::<Vec<_>>(), "no gap");
            let ids: Vec<&str> = receipts.iter().map(|r| r["commandId"].as_str().unwrap()).collect();
            assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), ids.len(), "no command twice");
            for (sequence, command_id) in acks.get(id).into_iter().flatten() {
                let at = usize::try_from(*sequence - 1).unwrap();
                assert_eq!(ids.get(at).copied(), Some(command_id.as_str()), "acknowledged {command_id} at {sequence}");
            }
            // The match goes on where it stopped.
            let next = receipts.len() as u64;
            let (status, _) = {
                let r = client
                    .post(format!("{base}/api/v1/matches/{id}/commands"))
                    .bearer_auth(token)
                    .json(&json!({"commandId": "after-restart", "expectedSequence": next, "action": {"type": "restart"}}))
                    .send()
                    .await
                    .unwrap();
                (r.status().as_u16(), r.text().await.unwrap())
            };
            assert!(status == 200 || status == 422, "{status}");
            // End it, fetch the full replay, verify it with the binary.
            let resigned = client
                .post(format!("{base}/api/v1/matches/{id}/resign"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap();
            assert_eq!(resigned.status(), 200);
            let replay = client
                .get(format!("{base}/api/v1/matches/{id}/replay"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let file = dir.path().join(format!("{id}.replay.json"));
            std::fs::write(&file, replay).unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_turnstile"))
                .args(["replay", "verify"])
                .arg(&file)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "replay of {id} verifies: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    });
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

#[test]
fn content_is_published_into_a_database_and_loadtest_stays_on_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let bundle = dir.path().join("bundle");
    std::fs::create_dir_all(&bundle).unwrap();
    std::fs::write(
        bundle.join("bundle.json"),
        r#"{"game": "sokoban", "files": [{"id": "tiny", "kind": "levels", "path": "tiny.xsb"}]}"#,
    )
    .unwrap();
    std::fs::write(bundle.join("tiny.xsb"), "; Tiny\n#####\n#@$.#\n#####\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args(["content", "publish"])
        .arg(&bundle)
        .arg("--database")
        .arg(&db)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let published: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(published["game"], "sokoban");
    assert_eq!(published["current"], true);

    let out = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args([
            "loadtest",
            "--addr",
            "10.1.2.3:8080",
            "--matches",
            "1",
            "--duration",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only targets this machine"));
}

/// The time a match spends unserved after `kill -9` does not count against the seat to move:
/// the restarted process records `ClockResumed` (no seat, id `clock-resumed:<sequence>`) that
/// moves the running deadline by the outage, and the turn times out only that much later.
#[test]
fn a_restart_after_kill_9_resumes_the_turn_clock_without_the_outage() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("turnstile.db");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = http_client();
    let mut server = serve(&db);
    let base = server.base.clone();
    // Blitz: 30 ticks a turn; 10 ticks a second, so 3 s.
    let (id, token) = runtime.block_on(create(
        &client,
        &base,
        json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 10,
               "seats": [{"kind": "human"}, {"kind": "human"}]}),
    ));
    std::thread::sleep(Duration::from_millis(500));
    server.child.kill().unwrap(); // SIGKILL: the lease is left behind, not released
    server.child.wait().unwrap();
    // Longer than the whole turn: without ClockResumed it would have timed out at once.
    std::thread::sleep(Duration::from_millis(4000));
    let mut server = serve(&db);
    let base = server.base.clone();
    let receipts = runtime.block_on(async {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let receipts = all_receipts(&client, &base, &id, &token).await;
            if receipts.len() >= 2 || Instant::now() > until {
                return receipts;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    assert!(
        receipts.len() >= 2,
        "resumed, then timed out: {receipts:#?}"
    );
    let resumed = &receipts[0];
    assert_eq!(resumed["commandId"], "clock-resumed:0", "{resumed}");
    assert_eq!(resumed["seat"], Value::Null);
    let event = resumed["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "clockResumed" || e["type"] == "clockResumed")
        .unwrap_or_else(|| panic!("a clockResumed event: {resumed}"));
    let event = if event["type"] == "clockResumed" {
        event
    } else {
        &event["event"]
    };
    let shift = event["shiftTicks"].as_u64().unwrap();
    assert!(
        shift >= 40,
        "the outage (over 4 s, 10 ticks a second) is shifted out: {event}"
    );
    assert!(
        resumed["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| !e.to_string().contains("turnEnded")),
        "no turn ended during the outage: {resumed}"
    );
    let timeout = &receipts[1];
    assert_eq!(timeout["commandId"], "timeout:1", "{timeout}");
    assert_eq!(
        timeout["tick"].as_u64().unwrap(),
        30 + shift,
        "the deadline moved by exactly the shift"
    );
}
