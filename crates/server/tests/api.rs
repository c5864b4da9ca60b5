//! The API suite, against a real server on a loopback port over a real store — every test runs
//! on a SQLite file and on a PostgreSQL schema: every route, every error status with its code,
//! 409s with the current sequence and step, idempotent repeats (receipts and rule rejections),
//! redaction of hidden information, the event stream and its resumption, timers, bots, content
//! publishing, and a restart that finds everything intact.

mod common;

use common::{read_events, Db, TestServer, ADMIN};
use serde_json::{json, Value};
use std::time::Duration;
use turnstile_runtime::ReplayFile;
use turnstile_server::ServerConfig;

fn sokoban() -> Value {
    json!({ "game": "sokoban", "config": { "collection": "microban", "level": 1 }, "seats": [{ "kind": "human" }] })
}

fn mv(direction: &str) -> Value {
    json!({ "type": "move", "direction": direction })
}

async fn sokoban_flow(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, spectator) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");

    // A snapshot at sequence 0, as the seat sees it.
    let (status, snap) = s.get(&m(""), Some(&token)).await;
    assert_eq!(status, 200, "{snap}");
    assert_eq!(snap["sequence"], 0);
    assert_eq!(snap["viewer"], json!({"kind": "seat", "seat": 0}));
    assert_eq!(snap["status"], "active");
    assert!(snap.get("seed").is_none(), "no seed before the end");

    // Legal actions, then a rule rejection, remembered: the same answer again.
    let (status, legal) = s.get(&m("/legal-actions"), Some(&token)).await;
    assert_eq!(status, 200);
    let kinds: Vec<&str> = legal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"move"), "{legal}");
    let (status, rejected) = s.command(&id, &token, "c-left", 0, mv("left")).await;
    assert_eq!(status, 422, "{rejected}");
    assert_eq!(rejected["error"]["code"], "box_blocked");
    let (status, again) = s.command(&id, &token, "c-left", 0, mv("left")).await;
    assert_eq!((status, &again), (422, &rejected));
    // The same id with another action is a reuse, not a repeat.
    let (status, reused) = s.command(&id, &token, "c-left", 0, mv("right")).await;
    assert_eq!(status, 409);
    assert_eq!(reused["error"]["code"], "command_id_reused");

    // Preview, then commit the same action: the previewed state fingerprint.
    let (status, preview) = s
        .post(
            &m("/preview"),
            Some(&token),
            &json!({ "action": mv("right") }),
        )
        .await;
    assert_eq!(status, 200, "{preview}");
    let (status, receipt) = s.command(&id, &token, "c1", 0, mv("right")).await;
    assert_eq!(status, 200, "{receipt}");
    assert_eq!(receipt["sequence"], 1);
    assert_eq!(receipt["seat"], 0);
    assert_eq!(
        receipt["views"]["viewer"],
        json!({"kind": "seat", "seat": 0})
    );
    if preview["tick"] == receipt["tick"] {
        assert_eq!(preview["stateFingerprint"], receipt["after"]);
    }
    let (status, snap) = s.get(&m(""), Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(snap["viewFingerprint"], receipt["views"]["fingerprint"]);

    // A repeat returns the original receipt, marked, and applies nothing.
    let response = s
        .http
        .post(s.url(&m("/commands")))
        .bearer_auth(&token)
        .json(&json!({ "commandId": "c1", "expectedSequence": 0, "action": mv("right") }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["turnstile-repeat"], "true");
    assert_eq!(response.json::<Value>().await.unwrap(), receipt);
    assert_eq!(s.sequence(&id, &token).await, 1);

    // A stale sequence: 409 with where the match is; nothing changes.
    let (status, stale) = s.command(&id, &token, "c2", 0, mv("left")).await;
    assert_eq!(status, 409);
    assert_eq!(stale["error"]["code"], "stale_sequence");
    assert_eq!(
        stale["error"]["details"],
        json!({"currentSequence": 1, "currentStep": 0})
    );
    let (status, stale) = s
        .post(&m("/commands"), Some(&token), &json!({ "commandId": "c2", "expectedSequence": 1, "expectedStep": 5, "action": mv("left") }))
        .await;
    assert_eq!(status, 409);
    assert_eq!(stale["error"]["code"], "stale_step");
    assert_eq!(
        stale["error"]["details"],
        json!({"currentSequence": 1, "currentStep": 0})
    );
    // The same id, retried after refreshing, is accepted: transport refusals are not remembered.
    let (status, _) = s.command(&id, &token, "c2", 1, mv("left")).await;
    assert_eq!(status, 200);
    for (i, d) in ["right", "left", "right"].iter().enumerate() {
        let (status, r) = s
            .command(&id, &token, &format!("c{}", i + 3), 2 + i as u64, mv(d))
            .await;
        assert_eq!(status, 200, "{r}");
    }

    // The timeline, paged; redacted for the spectator too.
    let (status, page) = s.get(&m("/timeline?after=0&limit=2"), Some(&token)).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["receipts"].as_array().unwrap().len(), 2);
    assert_eq!(page["nextAfter"], 2);
    assert_eq!(page["sequence"], 5);
    let (status, page) = s.get(&m("/timeline?after=2"), Some(&spectator)).await;
    assert_eq!(status, 200);
    let seqs: Vec<u64> = page["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sequence"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, [3, 4, 5]);
    assert_eq!(
        page["receipts"][0]["views"]["viewer"],
        json!({"kind": "spectator"})
    );
    assert_eq!(page["nextAfter"], Value::Null);
    let (status, bad) = s.get(&m("/timeline?after=x"), Some(&token)).await;
    assert_eq!(
        (status, bad["error"]["code"].as_str()),
        (400, Some("invalid_query"))
    );

    // The resolution of one command, step by step.
    let (status, resolution) = s.get(&m("/resolutions/c1"), Some(&token)).await;
    assert_eq!(status, 200, "{resolution}");
    assert_eq!(resolution["sequence"], 1);
    assert_eq!(resolution["steps"][0]["index"], 0);
    assert_eq!(resolution["receipt"], receipt);
    let (status, missing) = s.get(&m("/resolutions/nope"), Some(&token)).await;
    assert_eq!(
        (status, missing["error"]["code"].as_str()),
        (404, Some("unknown_command"))
    );

    // The replay during the match: redacted, no seed.
    let (status, replay) = s.get(&m("/replay"), Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(replay["redacted"], true);
    assert_eq!(replay["seed"], Value::Null);
    assert_eq!(replay["entries"].as_array().unwrap().len(), 5);

    // Resign: Sokoban's own resign action, a receipt like any command.
    let (status, resigned) = s.post(&m("/resign"), Some(&token), &json!({})).await;
    assert_eq!(status, 200, "{resigned}");
    assert_eq!(resigned["status"], "finished");
    assert_eq!(
        resigned["outcome"],
        json!({"kind": "resigned", "winners": []})
    );
    assert_eq!(resigned["receipt"]["commandId"], "resign:0");
    assert_eq!(resigned["receipt"]["sequence"], 6);
    let (status, over) = s.command(&id, &token, "c-late", 6, mv("left")).await;
    assert_eq!(
        (status, over["error"]["code"].as_str()),
        (422, Some("match_over"))
    );
    let (status, snap) = s.get(&m(""), Some(&token)).await;
    assert_eq!(status, 200);
    assert!(
        snap["seed"].is_string(),
        "the seed is released at the end: {snap}"
    );

    // After the end: the full replay, which verifies.
    let (status, replay) = s.get(&m("/replay"), Some(&spectator)).await;
    assert_eq!(status, 200);
    assert!(replay.get("redacted").is_none());
    let file: ReplayFile = serde_json::from_value(replay).unwrap();
    let report = common::registry().verify_replay(&file).unwrap();
    assert_eq!(report.verified, 6, "the five moves and the resignation");
    assert!(report.divergence.is_none());
    assert_eq!(
        report.outcome.map(|o| o.kind).as_deref(),
        Some("resigned"),
        "the verifier re-derives how the match ended"
    );

    // Search by tokens: newest first, with the roles the tokens hold.
    let (id2, tokens2, _) = s.create(sokoban()).await;
    let (status, found) = s
        .post(
            "/api/v1/matches/search",
            None,
            &json!({ "tokens": [token, tokens2[0], spectator, "tsk_nobody"] }),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    let ids: Vec<&str> = found["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["matchId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [id2.as_str(), id.as_str()]);
    assert_eq!(found["matches"][1]["seats"], json!([0]));
    assert_eq!(found["matches"][1]["spectator"], true);
    assert_eq!(found["matches"][1]["status"], "finished");
    s.stop().await;
}
on_both_backends!(a_sokoban_match_through_every_route, sokoban_flow);

/// The command path hands the store and the answer the match's canonical JSON text, never a
/// value parsed and written again: the answer is the seat's receipt as the timeline redacts
/// it, a repeat answers the same bytes, and the log holds exactly the text a value of that
/// receipt serializes to — what was stored before the text went straight through — and it
/// reads back as the referee's receipt.
async fn command_answers_and_stored_receipts(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let send = |command_id: &'static str, expected: u64, action: Value| {
        let request = s
            .http
            .post(s.url(&format!("/api/v1/matches/{id}/commands")))
            .bearer_auth(&token)
            .json(
                &json!({ "commandId": command_id, "expectedSequence": expected, "action": action }),
            );
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let json = response
                .headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap().to_owned());
            (status, json, response.bytes().await.unwrap())
        }
    };
    let (status, content_type, first) = send("c-1", 0, mv("right")).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&first));
    assert_eq!(content_type.as_deref(), Some("application/json"));
    let (status, _, second) = send("c-2", 1, mv("left")).await;
    assert_eq!(status, 200);
    let (status, _, repeated) = send("c-1", 0, mv("right")).await;
    assert_eq!(status, 200);
    assert_eq!(repeated, first, "a repeat answers the same bytes");

    let (status, timeline) = s
        .get(
            &format!("/api/v1/matches/{id}/timeline?after=0"),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{timeline}");
    let answered: Vec<Value> = [&first, &second]
        .iter()
        .map(|b| serde_json::from_slice(b).unwrap())
        .collect();
    assert_eq!(timeline["receipts"].as_array().unwrap(), &answered);

    let store = s.server.store().clone();
    let log = store.log(&id, 0, 10).await.unwrap();
    assert_eq!(log.len(), 2);
    for (i, record) in log.iter().enumerate() {
        assert_eq!(record.receipt["commandId"], answered[i]["commandId"]);
        assert_eq!(record.receipt["hash"], answered[i]["hash"]);
        assert_eq!(record.envelope["commandId"], answered[i]["commandId"]);
    }
    if let Db::Sqlite(_) = db {
        // The bytes in the file: what serializing the stored values gives, as before.
        let path = db.path();
        let stored: Vec<(String, String)> = tokio::task::spawn_blocking(move || {
            let c = rusqlite::Connection::open(path).unwrap();
            let mut q = c
                .prepare("SELECT envelope, receipt FROM command_log ORDER BY sequence")
                .unwrap();
            q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        })
        .await
        .unwrap();
        for (record, (envelope, receipt)) in log.iter().zip(&stored) {
            assert_eq!(envelope, &serde_json::to_string(&record.envelope).unwrap());
            assert_eq!(receipt, &serde_json::to_string(&record.receipt).unwrap());
        }
    }
    s.stop().await;
}
on_both_backends!(
    command_answers_are_the_timeline_receipts_and_the_log_keeps_canonical_text,
    command_answers_and_stored_receipts
);

async fn errors(db: Db) {
    let mut config = common::test_config();
    config.max_body_bytes = 2048;
    config.command_rate = turnstile_server::Rate {
        per_second: 1,
        burst: 3,
    };
    config.create_rate = turnstile_server::Rate {
        per_second: 1,
        burst: 4,
    };
    let s = TestServer::start_with(&db, config).await;
    let (id, tokens, spectator) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let path = format!("/api/v1/matches/{id}/commands");
    let code = |v: &Value| v["error"]["code"].as_str().unwrap_or("").to_owned();
    let shape = |v: &Value| {
        let e = &v["error"];
        assert!(
            e["code"].is_string() && e["message"].is_string() && e["details"].is_object(),
            "{v}"
        );
        let text = v.to_string();
        assert!(
            !text.contains("/tmp") && !text.contains("panicked") && !text.contains(".rs:"),
            "{text}"
        );
    };

    // 400: not JSON, unknown fields, wrong types, a bad command id, an unknown action.
    for (body, expected) in [
        (b"{not json".to_vec(), "malformed_json"),
        (br#"{"commandId":"a","expectedSequence":0,"action":{"type":"move","direction":"up"},"extra":1}"#.to_vec(), "invalid_body"),
        (br#"{"commandId":"a","expectedSequence":"zero","action":{}}"#.to_vec(), "invalid_body"),
        (br#"{"commandId":"has space","expectedSequence":0,"action":{"type":"undo"}}"#.to_vec(), "invalid_command_id"),
        (br#"{"commandId":"a","expectedSequence":0,"action":{"type":"fly"}}"#.to_vec(), "invalid_action"),
    ] {
        let (status, v) = s.post_raw(&path, Some(&token), body).await;
        assert_eq!((status, code(&v)), (400, expected.to_owned()), "{v}");
        shape(&v);
    }
    // 401: no token, a bad token, a token of another match.
    let (status, v) = s.command(&id, "", "a", 0, mv("up")).await;
    assert_eq!((status, code(&v)), (401, "bad_token".into()));
    let (status, v) = s
        .post(
            &path,
            None,
            &json!({"commandId": "a", "expectedSequence": 0, "action": mv("up")}),
        )
        .await;
    assert_eq!((status, code(&v)), (401, "missing_token".into()));
    shape(&v);
    let (status, v) = s.command(&id, "tsk_wrong", "a", 0, mv("up")).await;
    assert_eq!((status, code(&v)), (401, "bad_token".into()));
    // 403: acting for another seat; a spectator acting.
    let (status, v) = s
        .post(
            &path,
            Some(&token),
            &json!({"commandId": "a", "seat": 1, "expectedSequence": 0, "action": mv("up")}),
        )
        .await;
    assert_eq!((status, code(&v)), (403, "seat_mismatch".into()));
    let (status, v) = s.command(&id, &spectator, "a", 0, mv("up")).await;
    assert_eq!((status, code(&v)), (403, "spectator".into()));
    // 404: unknown match, route; 405.
    let (status, v) = s.get("/api/v1/matches/m_nope", Some(&token)).await;
    assert_eq!((status, code(&v)), (404, "unknown_match".into()));
    let (status, v) = s.get("/api/v1/nowhere", None).await;
    assert_eq!((status, code(&v)), (404, "not_found".into()));
    // (GET /api/v1/matches lists open matches; search takes only POST)
    let (status, v) = s.get("/api/v1/matches/search", None).await;
    assert_eq!((status, code(&v)), (405, "method_not_allowed".into()));
    let (status, v) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "chess", "seats": [{"kind": "human"}]}),
        )
        .await;
    assert_eq!((status, code(&v)), (404, "unknown_game".into()));
    // 413: a body over the limit.
    let big = json!({"commandId": "a", "expectedSequence": 0, "action": {"type": "undo", "pad": "x".repeat(4096)}});
    let (status, v) = s.post(&path, Some(&token), &big).await;
    assert_eq!((status, code(&v)), (413, "body_too_large".into()));
    // 422: the game refuses a config; bad seats.
    let (status, v) = s
        .post("/api/v1/matches", None, &json!({"game": "sokoban", "config": {"collection": "microban", "level": 999}, "seats": [{"kind": "human"}]}))
        .await;
    assert_eq!((status, code(&v)), (422, "unknown_level".into()));
    let (status, v) = s
        .post("/api/v1/matches", None, &json!({"game": "sokoban", "config": {"collection": "microban", "level": 1, "x": 1}, "seats": [{"kind": "human"}]}))
        .await;
    assert_eq!((status, code(&v)), (400, "invalid_config".into()));
    // 429: creation per address (burst 4, three used above plus the one match), then commands
    // per token (burst 3).
    let (status, v) = s.post("/api/v1/matches", None, &sokoban()).await;
    assert_eq!((status, code(&v)), (429, "rate_limited".into()), "{v}");
    assert!(v["error"]["details"]["retryAfterSeconds"].as_u64().unwrap() >= 1);
    let mut statuses = Vec::new();
    for i in 0..6 {
        let (status, _) = s
            .command(&id, &token, &format!("r{i}"), 0, mv("left"))
            .await;
        statuses.push(status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert_eq!(
        s.sequence(&id, &token).await,
        0,
        "no refusal changed anything"
    );

    // Publishing: disabled without a token, 401 with a wrong one, 422 for an invalid bundle.
    let files = json!({"files": {"bundle.json": "{\"game\": \"sokoban\", \"files\": [{\"id\": \"x\", \"kind\": \"levels\", \"path\": \"x.xsb\"}]}", "x.xsb": "#####\n#@$ #\n#####\n"}});
    let (status, v) = s
        .post("/api/v1/content/sokoban", Some("nope"), &files)
        .await;
    assert_eq!((status, code(&v)), (401, "bad_token".into()));
    let (status, v) = s.post("/api/v1/content/sokoban", Some(ADMIN), &files).await;
    assert_eq!((status, code(&v)), (422, "invalid_content".into()), "{v}");
    assert!(!v["error"]["details"]["problems"]
        .as_array()
        .unwrap()
        .is_empty());
    s.stop().await;
}
on_both_backends!(every_error_status_has_its_code, errors);

async fn content(db: Db) {
    let s = TestServer::start(&db).await;
    let (status, games) = s.get("/api/v1/games", None).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    // Every registered game is listed, sorted by id: the registry decides, so a game added to
    // it needs no edit here (the test's own `vault` included).
    let registered = common::registry().ids();
    assert_eq!(ids, registered);
    assert!(
        ids.contains(&"sokoban") && ids.contains(&"vault"),
        "{ids:?}"
    );
    let sokoban_revision = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "sokoban")
        .unwrap()["revision"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, bundle) = s
        .get(&format!("/api/v1/content/sokoban/{sokoban_revision}"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(bundle["current"], true);
    assert_eq!(bundle["bundle"]["game"], "sokoban");

    // A running match keeps its revision when a new one is published.
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let files = json!({"files": {
        "bundle.json": "{\"game\": \"sokoban\", \"files\": [{\"id\": \"tiny\", \"kind\": \"levels\", \"path\": \"tiny.xsb\"}]}",
        "tiny.xsb": "; Tiny\n#####\n#@$.#\n#####\n"
    }});
    let (status, published) = s.post("/api/v1/content/sokoban", Some(ADMIN), &files).await;
    assert_eq!(status, 201, "{published}");
    assert_eq!(published["inserted"], true);
    let new_revision = published["revision"].as_str().unwrap().to_owned();
    assert_ne!(new_revision, sokoban_revision);
    let (status, again) = s.post("/api/v1/content/sokoban", Some(ADMIN), &files).await;
    assert_eq!((status, &again["inserted"]), (201, &json!(false)));
    let (_, snap) = s.get(&format!("/api/v1/matches/{id}"), Some(&token)).await;
    assert_eq!(snap["revision"], sokoban_revision.as_str());
    let (status, _) = s.command(&id, &token, "c1", 0, mv("right")).await;
    assert_eq!(status, 200);
    // New matches pin the new revision.
    let (status, created) = s
        .post("/api/v1/matches", None, &json!({"game": "sokoban", "config": {"collection": "tiny", "level": 1}, "seats": [{"kind": "human"}]}))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["revision"], new_revision.as_str());
    let (status, current) = s.get("/api/v1/content/sokoban/current", None).await;
    assert_eq!((status, &current["revision"]), (200, &json!(new_revision)));
    let (status, missing) = s.get("/api/v1/content/sokoban/sha256:00", None).await;
    assert_eq!(
        (status, missing["error"]["code"].as_str()),
        (404, Some("unknown_revision"))
    );

    // Operations routes.
    let (status, health) = s.get("/healthz", None).await;
    assert_eq!((status, &health["status"]), (200, &json!("ok")));
    let text = metrics_text(&s).await;
    assert!(
        text.contains("turnstile_commands_total{outcome=\"accepted\"}"),
        "{text}"
    );
    assert!(text.contains("turnstile_command_duration_seconds_bucket"));
    assert!(text.contains("turnstile_live_matches"));
    // The command above was committed: the store counts its group commits.
    let commits = counter(&text, "turnstile_store_commits_total");
    assert!(commits >= 1, "{commits}");
    if cfg!(target_os = "linux") {
        assert!(text.contains("\nprocess_resident_memory_bytes "), "{text}");
        assert!(text.contains("\nprocess_cpu_seconds_total "), "{text}");
    }
    let (status, openapi) = s.get("/openapi.json", None).await;
    assert_eq!(status, 200);
    assert!(openapi["paths"]["/api/v1/matches/{matchId}/commands"].is_object());
    let page = s
        .http
        .get(s.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("<title>Turnstile"), "{page}");
    s.stop().await;
}
on_both_backends!(
    content_is_published_by_revision_and_matches_keep_theirs,
    content
);

/// Every secret of seat 1 is spelled `SECRET1x…`; none may reach seat 0 or the spectator.
async fn redaction(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, spectator) = s
        .create(json!({"game": "vault", "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    let mut seen0 = Vec::new();
    let mut seen_spectator = Vec::new();
    // Streams opened before anything happens see every receipt live.
    let live0 = s
        .http
        .get(s.url(&m("/events")))
        .bearer_auth(&t0)
        .send()
        .await
        .unwrap();
    let live_spectator = s
        .http
        .get(s.url(&m("/events")))
        .bearer_auth(&spectator)
        .send()
        .await
        .unwrap();
    let mut seq = 0;
    for round in 0..4 {
        let (status, r) = s
            .command(&id, &t0, &format!("a{round}"), seq, json!({"type": "draw"}))
            .await;
        assert_eq!(status, 200, "{r}");
        seen0.push(r);
        seq += 1;
        let (status, r) = s
            .command(&id, &t1, &format!("b{round}"), seq, json!({"type": "draw"}))
            .await;
        assert_eq!(status, 200, "{r}");
        assert!(
            r.to_string().contains("SECRET1x"),
            "seat 1 sees its own secret: {r}"
        );
        seq += 1;
    }
    // Seat 0 tries to act out of turn, previews, asks for everything.
    seen0.push(
        s.command(&id, &t0, "x", seq - 1, json!({"type": "draw"}))
            .await
            .1,
    );
    seen0.push(
        s.post(
            &m("/preview"),
            Some(&t0),
            &json!({"action": {"type": "draw"}}),
        )
        .await
        .1,
    );
    for path in ["", "/legal-actions", "/timeline?after=0", "/replay"] {
        seen0.push(s.get(&m(path), Some(&t0)).await.1);
        seen_spectator.push(s.get(&m(path), Some(&spectator)).await.1);
    }
    for round in 0..4 {
        for c in [format!("a{round}"), format!("b{round}")] {
            seen0.push(s.get(&m(&format!("/resolutions/{c}")), Some(&t0)).await.1);
            seen_spectator.push(
                s.get(&m(&format!("/resolutions/{c}")), Some(&spectator))
                    .await
                    .1,
            );
        }
    }
    let resumed = s
        .http
        .get(s.url(&m("/events")))
        .bearer_auth(&t0)
        .header("last-event-id", "0")
        .send()
        .await
        .unwrap();
    seen0.extend(
        read_events(resumed, 8, 10)
            .await
            .into_iter()
            .map(|(_, v)| v),
    );
    seen0.extend(read_events(live0, 8, 10).await.into_iter().map(|(_, v)| v));
    seen_spectator.extend(
        read_events(live_spectator, 8, 10)
            .await
            .into_iter()
            .map(|(_, v)| v),
    );
    assert!(seen0.len() > 30);
    for v in &seen0 {
        let text = v.to_string();
        assert!(
            !text.contains("SECRET1x"),
            "seat 0 saw a secret of seat 1: {text}"
        );
    }
    assert!(
        seen0.iter().any(|v| v.to_string().contains("SECRET0x")),
        "seat 0 sees its own"
    );
    for v in &seen_spectator {
        assert!(
            !v.to_string().contains("SECRET"),
            "the spectator saw a secret: {v}"
        );
    }
    // Receipts name only the caller's view fingerprint.
    let (_, page) = s.get(&m("/timeline?after=0"), Some(&t0)).await;
    for r in page["receipts"].as_array().unwrap() {
        assert_eq!(r["views"]["viewer"], json!({"kind": "seat", "seat": 0}));
        assert!(r["views"].get("seats").is_none());
    }
    // After the end, the full replay holds every secret (and the seed).
    let (status, _) = s.post(&m("/resign"), Some(&t1), &json!({})).await;
    assert_eq!(status, 200);
    let (_, replay) = s.get(&m("/replay"), Some(&t0)).await;
    assert!(replay["seed"].is_string());
    assert!(replay.to_string().contains("SECRET1x"));
    s.stop().await;
}
on_both_backends!(
    no_response_to_a_seat_holds_another_seats_hidden_information,
    redaction
);

async fn events(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let path = format!("/api/v1/matches/{id}/events");
    let live = s
        .http
        .get(s.url(&path))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(live.status(), 200);
    let moves = ["right", "left", "right", "left", "right"];
    for (i, d) in moves.iter().enumerate() {
        let (status, _) = s
            .command(&id, &token, &format!("c{i}"), i as u64, mv(d))
            .await;
        assert_eq!(status, 200);
    }
    let got = read_events(live, 5, 10).await;
    assert_eq!(got.iter().map(|e| e.0).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    assert_eq!(got[0].1["commandId"], "c0");
    // Resume after 2: the missed receipts from the store, then live ones.
    let resumed = s
        .http
        .get(s.url(&path))
        .bearer_auth(&token)
        .header("last-event-id", "2")
        .send()
        .await
        .unwrap();
    let s2 = &s;
    let id2 = id.clone();
    let token2 = token.clone();
    let more = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        (id2, token2)
    });
    let (id2, token2) = more.await.unwrap();
    let (status, _) = s2.command(&id2, &token2, "c5", 5, mv("left")).await;
    assert_eq!(status, 200);
    let got = read_events(resumed, 4, 10).await;
    assert_eq!(got.iter().map(|e| e.0).collect::<Vec<_>>(), [3, 4, 5, 6]);
    // `?after=` works the same for clients that cannot set the header.
    let resumed = s
        .http
        .get(s.url(&format!("{path}?after=4")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let got = read_events(resumed, 2, 10).await;
    assert_eq!(got.iter().map(|e| e.0).collect::<Vec<_>>(), [5, 6]);
    // The stream is authenticated like every route.
    let denied = s.http.get(s.url(&path)).send().await.unwrap();
    assert_eq!(denied.status(), 401);
    let bad = s
        .http
        .get(s.url(&path))
        .bearer_auth(&token)
        .header("last-event-id", "x")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    s.stop().await;
}
on_both_backends!(the_event_stream_resumes_from_last_event_id, events);

/// Tic-Tac-Toe's blitz turns last 30 ticks; at 100 ticks a second the server times a turn out
/// after 0.3 s with a system command `timeout:<turn index>`.
async fn timeouts(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(
            json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 100,
                       "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let token = tokens[0].clone().unwrap();
    let stream = s
        .http
        .get(s.url(&format!("/api/v1/matches/{id}/events?after=0")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let got = read_events(stream, 1, 10).await;
    assert_eq!(got.len(), 1, "a timeout within 10 s");
    let receipt = &got[0].1;
    assert_eq!(receipt["commandId"], "timeout:1");
    assert_eq!(receipt["seat"], Value::Null);
    assert_eq!(receipt["tick"], 30, "stamped with the deadline tick");
    // Two timeouts in a row forfeit blitz: the match ends by itself.
    let m = s
        .wait_for(&id, &token, 10, |m| m["status"] == "finished")
        .await;
    assert_eq!(m["outcome"]["kind"], "timeout");
    let (_, replay) = s
        .get(&format!("/api/v1/matches/{id}/replay"), Some(&token))
        .await;
    let file: ReplayFile = serde_json::from_value(replay).unwrap();
    assert!(common::registry()
        .verify_replay(&file)
        .unwrap()
        .divergence
        .is_none());
    s.stop().await;
}
on_both_backends!(deadline_timers_submit_timeouts, timeouts);

async fn bots(db: Db) {
    let s = TestServer::start(&db).await;
    // Tic-Tac-Toe, the strong bot against the random one: it plays to the end by itself.
    let (id, _, spectator) = s
        .create(json!({"game": "tictactoe", "seats": [{"kind": "bot", "bot": "strong"}, {"kind": "bot", "bot": "random"}]}))
        .await;
    let m = s
        .wait_for(&id, &spectator, 60, |m| m["status"] == "finished")
        .await;
    assert_ne!(
        m["outcome"]["winners"],
        json!([1]),
        "the perfect bot never loses: {m}"
    );
    // Connect Four: a person against the strong bot, which answers every move.
    let (id, tokens, _) = s
        .create(json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "strong"}]}))
        .await;
    let token = tokens[0].clone().unwrap();
    let (status, r) = s
        .command(&id, &token, "d1", 0, json!({"type": "drop", "column": 3}))
        .await;
    assert_eq!(status, 200, "{r}");
    let m = s.wait_for(&id, &token, 60, |m| m["sequence"] == 2).await;
    assert_eq!(m["view"]["toMove"], 0);
    let (_, page) = s
        .get(
            &format!("/api/v1/matches/{id}/timeline?after=1"),
            Some(&token),
        )
        .await;
    assert_eq!(page["receipts"][0]["seat"], 1);
    assert_eq!(page["receipts"][0]["commandId"], "bot:1:2");
    // Connect Four, random bots only: a whole game.
    let (id, _, spectator) = s
        .create(json!({"game": "connect4", "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}))
        .await;
    s.wait_for(&id, &spectator, 60, |m| m["status"] == "finished")
        .await;
    // An unknown bot is refused at creation.
    let (status, v) = s
        .post("/api/v1/matches", None, &json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "genius"}]}))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (422, Some("unknown_bot"))
    );
    s.stop().await;
}
on_both_backends!(bot_seats_play_by_themselves, bots);

async fn restart(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let moves = ["right", "left", "right"];
    for (i, d) in moves.iter().enumerate() {
        assert_eq!(
            s.command(&id, &token, &format!("c{i}"), i as u64, mv(d))
                .await
                .0,
            200
        );
    }
    let (_, rejected) = s.command(&id, &token, "bad", 3, mv("up")).await;
    let (_, before) = s
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&token))
        .await;
    // A timed Tic-Tac-Toe match whose timer must be re-armed after the restart.
    let (ttt, ttt_tokens, _) = s
        .create(
            json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 20,
                       "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let ttt_token = ttt_tokens[0].clone().unwrap();
    s.stop().await;

    let s = TestServer::start(&db).await;
    let (status, after) = s
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&token))
        .await;
    assert_eq!(status, 200);
    assert_eq!(after["receipts"], before["receipts"]);
    // Repeats are still answered from the store: the receipt, and the remembered rejection.
    let (status, repeat) = s.command(&id, &token, "c1", 1, mv("left")).await;
    assert_eq!((status, &repeat), (200, &before["receipts"][1]));
    let (status, again) = s.command(&id, &token, "bad", 3, mv("up")).await;
    assert_eq!((status, &again), (422, &rejected));
    assert_eq!(s.command(&id, &token, "c3", 3, mv("left")).await.0, 200);
    // The timer fired after the restart.
    let m = s
        .wait_for(&ttt, &ttt_token, 15, |m| {
            m["sequence"].as_u64().unwrap_or(0) >= 1
        })
        .await;
    assert!(m["sequence"].as_u64().unwrap() >= 1);
    s.stop().await;
}
on_both_backends!(a_restart_finds_every_match_intact, restart);

/// The `/metrics` text.
async fn metrics_text(s: &TestServer) -> String {
    s.http
        .get(s.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// An unlabelled counter's value in the `/metrics` text.
fn counter(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

/// The `turnstile_store_log_pages_read_total` counter as `/metrics` shows it.
async fn log_pages_read(s: &TestServer) -> u64 {
    counter(
        &metrics_text(s).await,
        "turnstile_store_log_pages_read_total",
    )
}

/// The store announces this node's own commits too, usually before the command that made them
/// has noted them. The node must recognise them as already in memory: playing a match alone
/// reads nothing back from the store (without the check, about one log read a command).
async fn own_commits(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let before = log_pages_read(&s).await;
    for i in 0..40u64 {
        let action = if i % 2 == 0 {
            mv("right")
        } else {
            json!({"type": "undo"})
        };
        let (status, answer) = s.command(&id, &token, &format!("c{i}"), i, action).await;
        assert_eq!(status, 200, "{answer}");
    }
    // Let the commit notifications of the last commands be handled.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let read = log_pages_read(&s).await - before;
    assert!(
        read <= 2,
        "{read} log pages read back while playing 40 commands alone"
    );
    s.stop().await;
}
on_both_backends!(a_node_does_not_read_back_its_own_commits, own_commits);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cors_is_off_by_default_and_allows_only_configured_origins() {
    let db = Db::sqlite();
    let off = TestServer::start(&db).await;
    let response = off
        .http
        .get(off.url("/api/v1/games"))
        .header("origin", "https://play.example")
        .send()
        .await
        .unwrap();
    assert!(response
        .headers()
        .get("access-control-allow-origin")
        .is_none());
    off.stop().await;

    let mut config = common::test_config();
    config.cors_origins = vec!["https://play.example".into()];
    let on = TestServer::start_with(&db, config).await;
    let preflight = on
        .http
        .request(
            reqwest::Method::OPTIONS,
            on.url("/api/v1/matches/m_x/commands"),
        )
        .header("origin", "https://play.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization,content-type",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "https://play.example"
    );
    let other = on
        .http
        .get(on.url("/api/v1/games"))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none());
    on.stop().await;
}

/// The debug panel's full state: hidden while a match runs (it holds what seats may not see),
/// given once it has ended, and at any time by a server started with `serve --dev`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_full_state_is_hidden_until_the_end_unless_the_server_is_in_dev_mode() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (id, tokens, spectator) = s.create(sokoban()).await;
    let t0 = tokens[0].clone().unwrap();
    let state = format!("/api/v1/matches/{id}/state");
    let (status, body) = s.get(&state, Some(&t0)).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"]["code"], "state_hidden", "{body}");
    let (status, _) = s.get(&state, None).await;
    assert_eq!(status, 401, "a token is needed");
    // solve Microban 1 and move on (finish): the match ends and its state is given to every
    // token
    let mut seq = 0;
    for c in "dlUrrrdLullddrUluRuulDrddrruLdlUU".chars() {
        let direction = match c.to_ascii_lowercase() {
            'l' => "left",
            'u' => "up",
            'r' => "right",
            _ => "down",
        };
        let (status, r) = s
            .command(&id, &t0, &format!("c{seq}"), seq, mv(direction))
            .await;
        assert_eq!(status, 200, "{r}");
        seq = r["sequence"].as_u64().unwrap();
    }
    let (status, r) = s
        .command(&id, &t0, "finish", seq, json!({ "type": "finish" }))
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, body) = s.get(&state, Some(&spectator)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["ended"], true);
    assert_eq!(body["sequence"], 34);
    assert!(body["state"].is_object(), "{body}");
    s.stop().await;

    let dev = TestServer::start_with(
        &db,
        ServerConfig {
            dev: true,
            ..common::test_config()
        },
    )
    .await;
    let (id, tokens, _) = dev.create(sokoban()).await;
    let (status, body) = dev
        .get(&format!("/api/v1/matches/{id}/state"), tokens[0].as_deref())
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["ended"], false);
    assert_eq!(body["sequence"], 0);
    dev.stop().await;
}

/// Fair clocks: a timed match's clock starts when every human seat has opened the board (said
/// ready), as a logged system command — the game's `ClockResumed` from the creation tick — so
/// no turn times out while the players arrive; after the server's wait it starts by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_clock_starts_when_every_human_seat_is_ready_or_after_the_wait() {
    let db = Db::sqlite();
    let s = TestServer::start_with(
        &db,
        ServerConfig {
            clock_start_wait: Duration::from_secs(60),
            ..common::test_config()
        },
    )
    .await;
    // Blitz at 100 ticks a second: a turn would time out 0.3 s after creation.
    let (id, tokens, spectator) = s
        .create(
            json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 100,
                   "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let snap = |token: String| {
        let s = &s;
        let id = id.clone();
        async move {
            s.get(&format!("/api/v1/matches/{id}"), Some(&token))
                .await
                .1
        }
    };
    let first = snap(t0.clone()).await;
    assert_eq!(
        first["deadlineTick"],
        Value::Null,
        "no time counts yet: {first}"
    );
    assert_eq!(first["clockStart"]["waitingFor"], json!([0, 1]), "{first}");
    let ready = format!("/api/v1/matches/{id}/ready");
    let (status, body) = s.post(&ready, Some(&t0), &json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["clockRunning"], false);
    assert_eq!(body["clockStart"]["waitingFor"], json!([1]), "{body}");
    // saying it twice changes nothing; a spectator is not a seat
    assert_eq!(s.post(&ready, Some(&t0), &json!({})).await.0, 200);
    let (status, body) = s.post(&ready, Some(&spectator), &json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("spectator"))
    );
    // Over three blitz turns later, nothing has timed out: the clock waits for seat 1.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let waiting = snap(t1.clone()).await;
    assert_eq!(waiting["sequence"], 0, "{waiting}");
    assert_eq!(waiting["clockStart"]["ready"], json!([0]), "{waiting}");
    // Seat 1 opens the board: the clock starts, logged as a system command.
    let (status, body) = s.post(&ready, Some(&t1), &json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["clockRunning"], true, "{body}");
    let (_, page) = s
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&t0))
        .await;
    let start = &page["receipts"][0];
    assert_eq!(start["commandId"], "clock-resumed:0", "{start}");
    assert_eq!(start["seat"], Value::Null);
    let started_at = start["tick"].as_u64().unwrap();
    assert!(
        started_at >= 100,
        "a second of waiting did not count: {start}"
    );
    let running = snap(t0.clone()).await;
    assert!(running.get("clockStart").is_none(), "{running}");
    assert_eq!(
        running["deadlineTick"].as_u64(),
        Some(started_at + 30),
        "the first turn's 30 ticks start now: {running}"
    );
    // and it runs: the first turn times out 30 ticks after the start
    let m = s
        .wait_for(&id, &t0, 10, |m| m["sequence"].as_u64().unwrap_or(0) >= 2)
        .await;
    let (_, page) = s
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&t0))
        .await;
    assert_eq!(page["receipts"][1]["commandId"], "timeout:1", "{m}");
    assert_eq!(page["receipts"][1]["tick"].as_u64(), Some(started_at + 30));
    let (_, replay) = s
        .get(&format!("/api/v1/matches/{id}/replay"), Some(&t0))
        .await;
    // The match is live, so the seat gets its own redacted timeline (format 2): the clock's
    // start and the timeout are in it, in order.
    assert_eq!(replay["redacted"], true, "{replay}");
    s.stop().await;

    // Nobody opens the board: after the wait the clock starts anyway.
    let s = TestServer::start_with(
        &db,
        ServerConfig {
            clock_start_wait: Duration::from_millis(300),
            ..common::test_config()
        },
    )
    .await;
    let (id, tokens, _) = s
        .create(
            json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 100,
                   "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    let t0 = tokens[0].clone().unwrap();
    s.wait_for(&id, &t0, 10, |m| m["sequence"].as_u64().unwrap_or(0) >= 1)
        .await;
    let (_, page) = s
        .get(&format!("/api/v1/matches/{id}/timeline"), Some(&t0))
        .await;
    assert_eq!(
        page["receipts"][0]["commandId"], "clock-resumed:0",
        "{page}"
    );
    assert!(
        page["receipts"][0]["tick"].as_u64().unwrap() >= 30,
        "{page}"
    );
    s.stop().await;
}
