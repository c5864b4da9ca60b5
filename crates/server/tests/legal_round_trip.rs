//! Legal actions round-trip: for every game the server registers (read from `GET
//! /api/v1/games`, so a new game is covered without touching this file), random walks of legal
//! commands, and at every position every listed action — each listed value sent back verbatim,
//! as the listing typed it — previewed through the HTTP API by the seat it was listed for.
//!
//! A kind with one parameter (or none) is an exact listing: every value must be accepted (200).
//! A kind with several parameters lists each parameter's range on its own (the compact form, e.g.
//! Sokoban's `pushTo` lists the boxes and the floor), so a combination may be refused by the
//! rules (422 with the game's code), but never as malformed: a 400 — an integer listed as a
//! string, say — fails the test for any kind.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};

/// A small deterministic generator (xorshift), so a failing walk is reproduced by its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % u64::try_from(n.max(1)).unwrap()).unwrap()
    }
}

/// The most values taken from one parameter's range, and the most actions built from one kind.
const PER_PARAM: usize = 12;
const PER_KIND: usize = 48;

/// Up to `PER_PARAM` entries of `list`, spread over it (all of them when it is short).
fn spread(list: &[Value]) -> Vec<Value> {
    if list.len() <= PER_PARAM {
        return list.to_vec();
    }
    (0..PER_PARAM)
        .map(|i| list[i * list.len() / PER_PARAM].clone())
        .collect()
}

/// The values a listed range offers, verbatim (never converted): each value of `oneOf`, the
/// ends and middle of `integer`, cells of `cells`, a few subsets of `subsetOf`.
fn values_of(range: &Value) -> Vec<Value> {
    let list = |key: &str| range[key].as_array().cloned().unwrap_or_default();
    match range["kind"].as_str() {
        Some("oneOf") => spread(&list("values")),
        Some("cells") => spread(&list("cells")),
        Some("integer") => {
            let (min, max) = (
                range["min"].as_i64().unwrap(),
                range["max"].as_i64().unwrap(),
            );
            let mut v = vec![min, min + (max - min) / 2, max];
            v.dedup();
            v.into_iter().map(Value::from).collect()
        }
        Some("subsetOf") => {
            let items = list("items");
            let min = usize::try_from(range["min"].as_u64().unwrap()).unwrap();
            let max = usize::try_from(range["max"].as_u64().unwrap()).unwrap();
            let mut subsets = vec![
                items[..min.min(items.len())].to_vec(),
                items[..max.min(items.len())].to_vec(),
                items[items.len().saturating_sub(min.max(1))..].to_vec(),
            ];
            subsets.dedup();
            subsets.into_iter().map(Value::from).collect()
        }
        other => panic!("a range kind this test does not know: {other:?} in {range}"),
    }
}

/// Every action (up to `PER_KIND`) a listed kind describes: the product of its parameters'
/// values, each placed in the action verbatim.
fn actions_of(kind: &Value) -> Vec<Value> {
    let mut actions = vec![json!({"type": kind["kind"]})];
    for param in kind["params"].as_array().unwrap() {
        let name = param["name"].as_str().unwrap();
        let values = values_of(&param["range"]);
        let mut next = Vec::new();
        for action in &actions {
            for value in &values {
                let mut a = action.clone();
                a[name] = value.clone();
                next.push(a);
            }
        }
        actions = next;
        actions.truncate(PER_KIND);
    }
    actions
}

fn is_resign(action: &Value) -> bool {
    action["type"]
        .as_str()
        .is_some_and(|t| t.eq_ignore_ascii_case("resign"))
}

/// One walk of `steps` commands on a new match of `game`; returns the actions previewed.
async fn walk(s: &TestServer, game: &Value, seed: u64, steps: usize) -> usize {
    let id = game["id"].as_str().unwrap();
    let seats = game["seats"]["min"].as_u64().unwrap_or(1);
    let mut body = json!({
        "game": id,
        "seed": format!("round-trip-{seed}"),
        "seats": (0..seats).map(|_| json!({"kind": "human"})).collect::<Vec<_>>(),
    });
    if !game["defaultConfig"].is_null() {
        body["config"] = game["defaultConfig"].clone();
    }
    let (match_id, tokens, _) = s.create(body).await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (seed + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut previewed = 0;
    for step in 0..steps {
        let mut accepted: Vec<(usize, Value)> = Vec::new();
        let mut sequence = None;
        for (seat, token) in tokens.iter().enumerate() {
            let token = token.as_deref().unwrap();
            let (status, legal) = s
                .get(
                    &format!("/api/v1/matches/{match_id}/legal-actions"),
                    Some(token),
                )
                .await;
            assert_eq!(status, 200, "{id} seed {seed} step {step}: {legal}");
            sequence = legal["sequence"].as_u64();
            for kind in legal["actions"].as_array().unwrap() {
                let exact = kind["params"].as_array().unwrap().len() <= 1;
                for action in actions_of(kind) {
                    let (status, answer) = s
                        .post(
                            &format!("/api/v1/matches/{match_id}/preview"),
                            Some(token),
                            &json!({"action": action, "seat": seat}),
                        )
                        .await;
                    previewed += 1;
                    let where_ = format!(
                        "{id} seed {seed} step {step} seat {seat}: {action} (listed as {kind})"
                    );
                    assert_ne!(
                        status, 400,
                        "{where_}: a listed action sent back verbatim was malformed: {answer}"
                    );
                    if exact {
                        assert_eq!(
                            status, 200,
                            "{where_}: a listed action was refused: {answer}"
                        );
                    } else {
                        assert!(
                            status == 200 || status == 422,
                            "{where_}: {status} {answer}"
                        );
                    }
                    if status == 200 {
                        accepted.push((seat, action));
                    }
                }
            }
        }
        // Play on with an accepted action, resigning only when nothing else is open.
        let playing: Vec<&(usize, Value)> =
            accepted.iter().filter(|(_, a)| !is_resign(a)).collect();
        let Some(&(seat, ref action)) = (if playing.is_empty() {
            accepted.first()
        } else {
            Some(playing[rng.below(playing.len())])
        }) else {
            break;
        };
        let token = tokens[seat].as_deref().unwrap();
        let (status, receipt) = s
            .command(
                &match_id,
                token,
                &format!("walk-{step}"),
                sequence.unwrap(),
                action.clone(),
            )
            .await;
        assert_eq!(
            status, 200,
            "{id} seed {seed} step {step}: a previewed action was not committed: {action} {receipt}"
        );
        let (_, m) = s
            .get(&format!("/api/v1/matches/{match_id}"), Some(token))
            .await;
        if m["status"] != "active" {
            break;
        }
    }
    previewed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_listed_action_sent_back_verbatim_is_accepted_in_every_game() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (status, games) = s.get("/api/v1/games", None).await;
    assert_eq!(status, 200);
    let games = games["games"].as_array().unwrap().clone();
    assert!(games.len() >= 6, "the registry's games: {games:?}");
    for game in &games {
        let mut previewed = 0;
        for seed in 0..3 {
            previewed += walk(&s, game, seed, 14).await;
        }
        assert!(
            previewed > 10,
            "{}: the walks previewed only {previewed} actions",
            game["id"]
        );
    }
    s.stop().await;
}
