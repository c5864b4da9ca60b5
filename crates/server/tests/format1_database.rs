//! Issue 11.9, nothing stranded: a database the previous release wrote
//! (`tests/fixtures/format1/format1.sqlite`, see its README) opens with this build — a copy on
//! SQLite, and the same records copied into a fresh PostgreSQL schema through the store's API.
//! Its live matches whose rules still read their logs (Connect Four, Tic-Tac-Toe, Sokoban)
//! resume and take a legal command; those an older format wrote that this build cannot
//! re-execute (clover's old hand names, Duel's bundle announcing `POWER`) are closed when the
//! server starts, with the outcome `aborted` and the reason `format_retired`, durably (a
//! second start finds them closed), visible in the match view and in the replay; nothing
//! answers `internal`; new matches of every game can still be created.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use turnstile_runtime::ReplayFile;
use turnstile_store::{MatchStatus, Store};

/// The games whose format-1 logs this build no longer re-executes.
const RETIRED_GAMES: [&str; 2] = ["clover", "duel"];

fn fixture_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/format1")
}

fn manifest() -> Vec<Value> {
    let text = std::fs::read_to_string(fixture_dir().join("manifest.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["matches"].as_array().unwrap().clone()
}

/// A copy of the fixture database in a temp dir (the fixture itself is never opened).
fn sqlite_copy() -> Db {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        fixture_dir().join("format1.sqlite"),
        dir.path().join("turnstile.db"),
    )
    .unwrap();
    Db::Sqlite(dir)
}

/// The fixture's records, read through the store's API from a copy, written into `target`:
/// content and current revisions, the manifest's matches, their logs and snapshots.
async fn copy_into(target: &Arc<dyn Store>) {
    let copy = sqlite_copy();
    let source = copy.open().await;
    let mut games = std::collections::BTreeSet::new();
    for entry in manifest() {
        let id = entry["matchId"].as_str().unwrap();
        let record = source.get_match(id).await.unwrap().unwrap();
        let content = source
            .get_content(&record.game, &record.revision)
            .await
            .unwrap()
            .unwrap();
        target.put_content(&content).await.unwrap();
        if games.insert(record.game.clone()) {
            let current = source
                .current_revision(&record.game)
                .await
                .unwrap()
                .unwrap();
            let stored = source
                .get_content(&record.game, &current)
                .await
                .unwrap()
                .unwrap();
            target.put_content(&stored).await.unwrap();
            target
                .set_current_revision(&record.game, &current)
                .await
                .unwrap();
        }
        target.create_match(&record).await.unwrap();
        for r in source.log(id, 0, 10_000).await.unwrap() {
            target.append(id, &r).await.unwrap();
        }
        for snap in source.snapshots(id, 100).await.unwrap().into_iter().rev() {
            target.put_snapshot(id, &snap).await.unwrap();
        }
    }
}

/// Commands built from the seat's listed actions: each kind but a resignation, its first
/// parameter at each listed value (up to 8), the others at their first — at least one of them
/// is legal for the seat to move (a compact listing may pair values the rules refuse).
async fn listed_actions(s: &TestServer, id: &str, token: &str) -> Vec<Value> {
    let (status, legal) = s
        .get(&format!("/api/v1/matches/{id}/legal-actions"), Some(token))
        .await;
    assert_eq!(status, 200, "{legal}");
    let values = |range: &Value| -> Vec<Value> {
        match range["kind"].as_str() {
            Some("oneOf") => range["values"].as_array().cloned().unwrap_or_default(),
            Some("cells") => range["cells"].as_array().cloned().unwrap_or_default(),
            Some("integer") => vec![range["min"].clone(), range["max"].clone()],
            other => panic!("a range this test does not build: {other:?}"),
        }
    };
    let mut out = Vec::new();
    for kind in legal["actions"].as_array().cloned().unwrap_or_default() {
        if kind["kind"]
            .as_str()
            .is_some_and(|k| k.eq_ignore_ascii_case("resign"))
        {
            continue;
        }
        let params = kind["params"].as_array().cloned().unwrap_or_default();
        let mut base = json!({"type": kind["kind"]});
        for p in params.iter().skip(1) {
            base[p["name"].as_str().unwrap()] = values(&p["range"])[0].clone();
        }
        match params.first() {
            None => out.push(base),
            Some(first) => {
                for v in values(&first["range"]).into_iter().take(8) {
                    let mut action = base.clone();
                    action[first["name"].as_str().unwrap()] = v;
                    out.push(action);
                }
            }
        }
    }
    out
}

/// Asserts what a closed format-1 match shows: the view, the replay, and the typed refusals.
async fn assert_retired(s: &TestServer, entry: &Value) {
    let id = entry["matchId"].as_str().unwrap();
    let token = entry["tokens"][0].as_str().unwrap();
    let live = entry["state"] == "live";
    for t in [token, entry["spectatorToken"].as_str().unwrap()] {
        let (status, m) = s.get(&format!("/api/v1/matches/{id}"), Some(t)).await;
        assert_eq!(status, 200, "{id}: {m}");
        assert_eq!(m["status"], "finished", "{m}");
        assert_eq!(m["retired"]["code"], "format_retired", "{m}");
        assert_eq!(m["view"], Value::Null, "{m}");
        assert_eq!(m["sequence"], entry["sequence"], "{m}");
        if live {
            assert_eq!(m["outcome"]["kind"], "aborted", "{m}");
            assert_eq!(m["outcome"]["winners"], json!([]), "{m}");
            assert_eq!(m["outcome"]["reason"]["code"], "format_retired", "{m}");
        } else {
            // An ended match keeps the outcome it ended with.
            assert_ne!(m["outcome"]["kind"], "aborted", "{m}");
        }
    }
    let (status, replay) = s
        .get(&format!("/api/v1/matches/{id}/replay"), Some(token))
        .await;
    assert_eq!(status, 200, "{id}: {replay}");
    assert_eq!(replay["format"], 1);
    assert_eq!(replay["retired"]["code"], "format_retired");
    assert_eq!(
        replay["entries"].as_array().unwrap().len() as u64,
        entry["sequence"].as_u64().unwrap()
    );
    if live {
        assert_eq!(replay["outcome"]["reason"]["code"], "format_retired");
    }
    // The replay file reads; verifying it refuses with a typed error or a divergence, never ok.
    let file: ReplayFile = serde_json::from_value(replay).unwrap();
    match common::registry().verify_replay(&file) {
        Err(e) => assert!(!e.code().is_empty()),
        Ok(report) => assert!(report.divergence.is_some(), "{id}: a false ok"),
    }
    // Everything else is a typed refusal, not a defect.
    let (status, r) = s
        .command(
            id,
            token,
            "after-retirement",
            entry["sequence"].as_u64().unwrap(),
            json!({"type": "END_TURN"}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (422, Some("format_retired")),
        "{r}"
    );
    for path in ["legal-actions", "timeline"] {
        let (status, r) = s
            .get(&format!("/api/v1/matches/{id}/{path}"), Some(token))
            .await;
        assert_eq!(
            (status, r["error"]["code"].as_str()),
            (422, Some("format_retired")),
            "{path}: {r}"
        );
    }
}

async fn old_database(db: Db) {
    let store = db.open().await;
    let s = TestServer::start_on(store.clone(), common::test_config()).await;
    let matches = manifest();

    // At start, before any request names them, the live matches an older format wrote are
    // closed in the store.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    for entry in matches.iter().filter(|e| e["state"] == "live") {
        let id = entry["matchId"].as_str().unwrap();
        let game = entry["game"].as_str().unwrap();
        if !RETIRED_GAMES.contains(&game) {
            continue;
        }
        loop {
            let record = store.get_match(id).await.unwrap().unwrap();
            if record.status == MatchStatus::Finished {
                let outcome = record.outcome.unwrap();
                assert_eq!(outcome["kind"], "aborted", "{game}: {outcome}");
                assert_eq!(outcome["reason"]["code"], "format_retired", "{outcome}");
                assert!(
                    outcome["reason"]["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("older release")),
                    "{outcome}"
                );
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{game} {id} was not closed at start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    for entry in &matches {
        let id = entry["matchId"].as_str().unwrap();
        let game = entry["game"].as_str().unwrap();
        let live = entry["state"] == "live";
        if live && RETIRED_GAMES.contains(&game) {
            assert_retired(&s, entry).await;
            continue;
        }
        let token = entry["tokens"][0].as_str().unwrap();
        let (status, m) = s.get(&format!("/api/v1/matches/{id}"), Some(token)).await;
        assert_eq!(status, 200, "{game} {id}: {m}");
        assert_eq!(m["status"], entry["status"], "{m}");
        assert_eq!(m["sequence"], entry["sequence"], "{m}");
        if !live {
            // An ended match either re-executes (the fixture's Sokoban and Connect Four ones)
            // or is shown retired (its Duel and clover ones, and its Tic-Tac-Toe one, whose
            // format-1 log no longer re-executes to the end); either way with the outcome it
            // ended with, and its replay. Only live matches must continue.
            if m.get("retired").is_some() {
                assert_retired(&s, entry).await;
            } else {
                let (status, replay) = s
                    .get(&format!("/api/v1/matches/{id}/replay"), Some(token))
                    .await;
                assert_eq!(status, 200, "{replay}");
            }
            continue;
        }
        assert!(m.get("retired").is_none(), "{m}");
        // A live match continues: the seat to move sends a legal command, accepted in the
        // format its log was written in.
        let mut moved = false;
        let sequence = entry["sequence"].as_u64().unwrap();
        'seats: for t in entry["tokens"].as_array().unwrap() {
            let t = t.as_str().unwrap();
            for (i, action) in listed_actions(&s, id, t).await.into_iter().enumerate() {
                let (status, r) = s
                    .command(
                        id,
                        t,
                        &format!("after-upgrade-{i}"),
                        sequence,
                        action.clone(),
                    )
                    .await;
                if status == 200 {
                    assert_eq!(r["sequence"].as_u64(), Some(sequence + 1), "{r}");
                    moved = true;
                    break 'seats;
                }
                assert_eq!(status, 422, "{game} {action}: {r}");
            }
        }
        assert!(moved, "{game} {id}: no seat could move");
    }

    // New matches of every game start (the retired games' current revision moved to this
    // build's content).
    for (game, seats) in [
        ("clover", 1),
        ("duel", 2),
        ("connect4", 2),
        ("tictactoe", 2),
        ("sokoban", 1),
    ] {
        let seats = vec![json!({"kind": "human"}); seats];
        let (status, created) = s
            .post(
                "/api/v1/matches",
                None,
                &json!({"game": game, "seats": seats}),
            )
            .await;
        assert_eq!(status, 201, "{game}: {created}");
        let id = created["matchId"].as_str().unwrap();
        let token = created["seats"][0]["token"].as_str().unwrap();
        let (status, m) = s.get(&format!("/api/v1/matches/{id}"), Some(token)).await;
        assert_eq!(status, 200, "{m}");
        assert!(m["view"].is_object(), "{m}");
    }
    s.stop().await;

    // A second start: the closed matches stay closed (the outcome is in the store), the
    // continued ones kept their command.
    let s = TestServer::start_on(db.open().await, common::test_config()).await;
    for entry in &matches {
        let id = entry["matchId"].as_str().unwrap();
        let game = entry["game"].as_str().unwrap();
        let token = entry["tokens"][0].as_str().unwrap();
        let (status, m) = s.get(&format!("/api/v1/matches/{id}"), Some(token)).await;
        assert_eq!(status, 200, "{m}");
        if RETIRED_GAMES.contains(&game) {
            assert_eq!(m["status"], "finished", "{m}");
            if entry["state"] == "live" {
                assert_eq!(m["outcome"]["reason"]["code"], "format_retired", "{m}");
            }
        } else if entry["state"] == "live" {
            assert_eq!(
                m["sequence"].as_u64(),
                Some(entry["sequence"].as_u64().unwrap() + 1),
                "{m}"
            );
        }
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_format_1_sqlite_database_resumes_or_closes_every_match() {
    old_database(sqlite_copy()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_format_1_database_copied_into_postgres_resumes_or_closes_every_match() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    copy_into(&db.open().await).await;
    old_database(db).await;
}
