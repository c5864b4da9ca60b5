//! Preview equals commit, over the real API (docs/server.md, "Preview, then commit").
//!
//! - In an untimed match the tick enters no state, so an action previewed at one tick and
//!   committed (unchanged, at the same sequence) at a later one reaches the previewed state
//!   fingerprint bit for bit, with the previewed events.
//! - A commit that carries its preview (`preview: {sequence, fingerprint}`) is refused with 409
//!   `preview_stale` and the fresh preview when the match moved on, or — timed matches — when
//!   the turn clock moved since; nothing is committed. Never a silently different result.
//! - The property, over every registered game and every config its content offers: random
//!   legal actions, each previewed over HTTP and then committed with its preview, match.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

/// A small deterministic generator (xorshift), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// A parameter value of a legal action's range, sent exactly as listed (legal actions list
/// integers as JSON integers, so a listed value goes back verbatim).
fn pick_param(range: &Value, rng: &mut Rng) -> Value {
    match range["kind"].as_str().unwrap() {
        "integer" => {
            let (min, max) = (
                range["min"].as_i64().unwrap(),
                range["max"].as_i64().unwrap(),
            );
            json!(min + rng.below((max - min + 1) as usize) as i64)
        }
        "oneOf" => {
            let values = range["values"].as_array().unwrap();
            values[rng.below(values.len())].clone()
        }
        "cells" => {
            let cells = range["cells"].as_array().unwrap();
            cells[rng.below(cells.len())].clone()
        }
        "subsetOf" => {
            let items = range["items"].as_array().unwrap();
            let min = range["min"].as_u64().unwrap() as usize;
            let max = (range["max"].as_u64().unwrap() as usize).min(items.len());
            let n = min + rng.below(max.saturating_sub(min) + 1);
            let mut left: Vec<&Value> = items.iter().collect();
            let mut chosen = Vec::new();
            for _ in 0..n {
                let i = rng.below(left.len());
                chosen.push(left.remove(i).clone());
            }
            json!(chosen)
        }
        other => panic!("unknown range kind {other}"),
    }
}

/// A concrete action of one of `kinds` (never a resignation, which would end the walk).
fn pick_action(kinds: &[Value], rng: &mut Rng) -> Option<Value> {
    let kinds: Vec<&Value> = kinds.iter().filter(|k| k["kind"] != "resign").collect();
    if kinds.is_empty() {
        return None;
    }
    let kind = kinds[rng.below(kinds.len())];
    let mut action = json!({ "type": kind["kind"] });
    for p in kind["params"].as_array().unwrap() {
        action[p["name"].as_str().unwrap()] = pick_param(&p["range"], rng);
    }
    Some(action)
}

/// Every config a game's content offers, as match-creation bodies' `config` and seat counts.
fn configs(game: &Value) -> Vec<(Value, u64)> {
    let options = &game["configOptions"];
    let seats = game["seats"]["min"].as_u64().unwrap_or(1);
    if let Some(turn_configs) = options["turnConfigs"].as_object() {
        return turn_configs
            .keys()
            .map(|id| (json!({ "turnConfig": id }), seats))
            .collect();
    }
    if let (Some(sequences), Some(clocks)) = (
        options["phaseSequences"].as_array(),
        options["clocks"].as_array(),
    ) {
        let mut out = Vec::new();
        for s in sequences {
            for c in clocks {
                out.push((json!({ "phaseSequence": s, "clock": c }), seats));
            }
        }
        // And one match of the most seats.
        let most = options["seats"]["max"].as_u64().unwrap_or(seats);
        out.push((
            json!({ "phaseSequence": sequences[0], "clock": clocks[0] }),
            most,
        ));
        return out;
    }
    if let Some(collections) = options["collections"].as_array() {
        return collections
            .iter()
            .map(|c| (json!({ "collection": c["id"], "level": 1 }), seats))
            .collect();
    }
    vec![(Value::Null, seats)]
}

async fn snapshot(s: &TestServer, id: &str, token: &str) -> Value {
    let (status, snap) = s.get(&format!("/api/v1/matches/{id}"), Some(token)).await;
    assert_eq!(status, 200, "{snap}");
    snap
}

/// One walk: up to `steps` random legal actions of whichever seat may act, each previewed and
/// then committed with its preview.
async fn walk(
    s: &TestServer,
    game: &str,
    hidden: bool,
    config: &Value,
    seats: u64,
    seed: u64,
    steps: usize,
) {
    let mut body = json!({
        "game": game,
        "seed": format!("preview-{seed}"),
        "seats": (0..seats).map(|_| json!({"kind": "human"})).collect::<Vec<_>>(),
    });
    if !config.is_null() {
        body["config"] = config.clone();
    }
    let (id, tokens, _) = s.create(body).await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    // Every seat opens the board, so a timed clock starts (docs/turns.md, "Fair clocks").
    for t in &tokens {
        snapshot(s, &id, t).await;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (seed + 1));
    let what = format!("{game} {config} seats {seats} seed {seed}");
    let mut committed = 0;
    for _ in 0..steps * 4 {
        if committed == steps {
            break;
        }
        let snap = snapshot(s, &id, &tokens[0]).await;
        if snap["status"] != "active" {
            break;
        }
        // A seat that may act now, and one of its actions the rules accept in preview.
        let mut found = None;
        for (seat, token) in tokens.iter().enumerate() {
            let (status, legal) = s.get(&m("/legal-actions"), Some(token)).await;
            assert_eq!(status, 200, "{what}: {legal}");
            for _ in 0..8 {
                let Some(action) = pick_action(legal["actions"].as_array().unwrap(), &mut rng)
                else {
                    break;
                };
                let (status, preview) = s
                    .post(&m("/preview"), Some(token), &json!({ "action": action }))
                    .await;
                if status == 200 {
                    found = Some((seat, token.clone(), action, preview));
                    break;
                }
                assert!(
                    status == 422 || status == 400,
                    "{what}: preview of {action} answered {status}: {preview}"
                );
            }
            if found.is_some() {
                break;
            }
        }
        let Some((seat, token, action, preview)) = found else {
            break;
        };
        let untimed = snap["deadlineTick"].is_null() && snap["clockStart"].is_null();
        let sequence = preview["sequence"].as_u64().unwrap();
        let (status, receipt) = s
            .post(
                &m("/commands"),
                Some(&token),
                &json!({
                    "commandId": format!("p{committed}-{seat}-{sequence}"),
                    "expectedSequence": sequence,
                    "action": action,
                    "preview": { "sequence": sequence, "fingerprint": preview["fingerprint"] },
                }),
            )
            .await;
        match status {
            200 => {
                assert_eq!(receipt["sequence"], sequence + 1, "{what}");
                assert_eq!(receipt["action"], action, "{what}");
                assert_eq!(
                    receipt["after"], preview["stateFingerprint"],
                    "{what}: committed {action} reached another state than its preview"
                );
                // A hidden-information game's preview leaves out what the seat may not know
                // yet (draws, chance); the state fingerprint above is the check there.
                if !hidden {
                    assert_eq!(
                        receipt["events"], preview["events"],
                        "{what}: committed {action} did other things than its preview showed"
                    );
                }
                committed += 1;
            }
            409 if receipt["error"]["code"] == "preview_stale" => {
                // Only a timed match's clock may move between preview and commit; the fresh
                // preview is for a later tick, and nothing was committed.
                assert!(
                    !untimed,
                    "{what}: untimed preview of {action} went stale: {receipt}"
                );
                let fresh = &receipt["error"]["details"]["preview"];
                assert!(
                    fresh["tick"].as_u64() > preview["tick"].as_u64()
                        || fresh["sequence"] != preview["sequence"],
                    "{what}: {receipt}"
                );
                assert_eq!(
                    snapshot(s, &id, &token).await["sequence"],
                    sequence,
                    "{what}"
                );
            }
            _ if untimed => panic!("{what}: commit of previewed {action}: {status} {receipt}"),
            // A timed turn ended (a Timeout) between the preview and the commit.
            _ => assert!(status == 409 || status == 422, "{what}: {status} {receipt}"),
        }
    }
    assert!(committed > 0, "{what}: no previewed action was committed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_and_config_commits_what_its_preview_showed() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (status, games) = s.get("/api/v1/games", None).await;
    assert_eq!(status, 200);
    let games = games["games"].as_array().unwrap().clone();
    assert!(games.len() >= 7, "{games:?}");
    let mut walks = 0;
    for game in &games {
        let id = game["id"].as_str().unwrap();
        for (config, seats) in configs(game) {
            for seed in 0..2 {
                let hidden = game["hiddenInformation"] == true;
                walk(&s, id, hidden, &config, seats, seed, 6).await;
                walks += 1;
            }
        }
    }
    assert!(walks >= 30, "{walks} walks");
    s.stop().await;
}

/// The case: Connect Four, untimed, previewed at one tick and committed many ticks
/// later — the same state fingerprint and events.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untimed_preview_holds_at_a_later_tick() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(json!({
            "game": "connect4", "config": {"turnConfig": "untimed"}, "tickRate": 1000,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }))
        .await;
    let t0 = tokens[0].clone().unwrap();
    let t1 = tokens[1].clone().unwrap();
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    for (n, (token, column)) in [(&t0, 3), (&t1, 3), (&t0, 2)].into_iter().enumerate() {
        let (status, r) = s
            .command(
                &id,
                token,
                &format!("c{n}"),
                n as u64,
                json!({"type": "drop", "column": column}),
            )
            .await;
        assert_eq!(status, 200, "{r}");
    }
    let action = json!({"type": "drop", "column": 4});
    let (status, preview) = s
        .post(&m("/preview"), Some(&t1), &json!({ "action": action }))
        .await;
    assert_eq!(status, 200, "{preview}");
    // Time passes: at 1000 ticks a second, 30 ms are well over 14 ticks.
    tokio::time::sleep(Duration::from_millis(30)).await;
    let (status, receipt) = s.command(&id, &t1, "c3", 3, action.clone()).await;
    assert_eq!(status, 200, "{receipt}");
    assert!(
        receipt["tick"].as_u64().unwrap() > preview["tick"].as_u64().unwrap() + 14,
        "the commit came later: {} vs {}",
        receipt["tick"],
        preview["tick"]
    );
    assert_eq!(receipt["after"], preview["stateFingerprint"]);
    assert_eq!(receipt["events"], preview["events"]);
    assert!(
        receipt["deadlineTick"].is_null(),
        "no turn can time out: {receipt}"
    );
    s.stop().await;
}

/// A commit carrying a preview of an older sequence is refused with the fresh preview, and
/// nothing is committed; carrying the fresh one, it commits exactly that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_preview_is_refused_with_the_fresh_one() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(
            json!({"game": "sokoban", "config": {"collection": "microban", "level": 1},
                       "seats": [{"kind": "human"}]}),
        )
        .await;
    let token = tokens[0].clone().unwrap();
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    let left = json!({"type": "move", "direction": "right"});
    let (status, old) = s
        .post(&m("/preview"), Some(&token), &json!({ "action": left }))
        .await;
    assert_eq!(status, 200, "{old}");
    let (status, r) = s
        .command(
            &id,
            &token,
            "c1",
            0,
            json!({"type": "move", "direction": "down"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let claim = |p: &Value| json!({ "sequence": p["sequence"], "fingerprint": p["fingerprint"] });
    let (status, stale) = s
        .post(
            &m("/commands"),
            Some(&token),
            &json!({"commandId": "c2", "expectedSequence": 1, "action": left, "preview": claim(&old)}),
        )
        .await;
    assert_eq!(status, 409, "{stale}");
    assert_eq!(stale["error"]["code"], "preview_stale");
    let fresh = stale["error"]["details"]["preview"].clone();
    assert_eq!(fresh["sequence"], 1);
    assert_ne!(fresh["stateFingerprint"], old["stateFingerprint"]);
    assert_eq!(s.sequence(&id, &token).await, 1, "nothing was committed");
    let (status, receipt) = s
        .post(
            &m("/commands"),
            Some(&token),
            &json!({"commandId": "c2", "expectedSequence": 1, "action": left, "preview": claim(&fresh)}),
        )
        .await;
    assert_eq!(status, 200, "{receipt}");
    assert_eq!(receipt["after"], fresh["stateFingerprint"]);
    s.stop().await;
}

/// Timed: the turn clock is part of the state, so a preview holds for the tick it assumed. A
/// commit that insists on it after the clock moved is refused with the fresh preview (for the
/// tick the commit would have); a commit without the claim is judged at its own tick.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_preview_holds_for_its_tick_only() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(json!({
            "game": "connect4", "config": {"turnConfig": "timed"}, "tickRate": 1000,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }))
        .await;
    let t0 = tokens[0].clone().unwrap();
    let t1 = tokens[1].clone().unwrap();
    snapshot(&s, &id, &t0).await;
    snapshot(&s, &id, &t1).await;
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    let action = json!({"type": "drop", "column": 3});
    let (status, preview) = s
        .post(&m("/preview"), Some(&t0), &json!({ "action": action }))
        .await;
    assert_eq!(status, 200, "{preview}");
    tokio::time::sleep(Duration::from_millis(30)).await;
    let (status, stale) = s
        .post(
            &m("/commands"),
            Some(&t0),
            &json!({"commandId": "c1", "expectedSequence": 0, "action": action,
                    "preview": {"sequence": 0, "fingerprint": preview["fingerprint"]}}),
        )
        .await;
    assert_eq!(status, 409, "{stale}");
    assert_eq!(stale["error"]["code"], "preview_stale");
    let fresh = &stale["error"]["details"]["preview"];
    assert_eq!(fresh["sequence"], 0, "the match did not move on");
    assert!(fresh["tick"].as_u64() > preview["tick"].as_u64(), "{stale}");
    assert_ne!(fresh["fingerprint"], preview["fingerprint"]);
    assert_eq!(s.sequence(&id, &t0).await, 0, "nothing was committed");
    let (status, receipt) = s.command(&id, &t0, "c1", 0, action).await;
    assert_eq!(status, 200, "{receipt}");
    // The receipt carries the server tick and the deadline it left (the next turn's), what
    // the fair timer needs; the snapshot says the same.
    let deadline = receipt["deadlineTick"]
        .as_u64()
        .expect("a timed receipt has a deadline");
    assert!(deadline > receipt["tick"].as_u64().unwrap(), "{receipt}");
    let snap = snapshot(&s, &id, &t1).await;
    if snap["sequence"] == 1 {
        assert_eq!(snap["deadlineTick"].as_u64(), Some(deadline), "{snap}");
    } else {
        // A loaded machine let the next turn (0.3 s) time out before the snapshot: the
        // snapshot then shows a later turn's deadline, never an earlier one.
        assert!(snap["deadlineTick"].as_u64() > Some(deadline), "{snap}");
    }
    assert!(
        snap["serverTick"].as_u64() >= receipt["tick"].as_u64(),
        "{snap}"
    );
    s.stop().await;
}
