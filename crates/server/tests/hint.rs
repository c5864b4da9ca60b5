//! `POST /api/v1/matches/{id}/hint` (issue 15, point 5): the game's hint for a seat, searched
//! off the executor, one search per token at a time, rate-limited, never a receipt.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};
use std::sync::{mpsc, Arc, Mutex};
use turnstile_server::{HintHook, Hints, Rate, ServerConfig};

fn sokoban() -> Value {
    json!({ "game": "sokoban", "config": { "collection": "microban", "level": 1 },
            "seats": [{ "kind": "human" }] })
}

/// The shipped Sokoban hint, as `turnstile serve` registers it.
fn sokoban_hook() -> HintHook {
    Arc::new(|view: &Value, budget: u64| {
        turnstile_samples::sokoban_hint(view, budget)
            .map_err(|(code, message)| turnstile_server::HintRefusal { code, message })
    })
}

fn config(hints: Hints) -> ServerConfig {
    ServerConfig {
        hints,
        ..common::test_config()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_names_the_next_push_and_leaves_no_receipt() {
    let db = Db::sqlite();
    let hints = Hints::new(
        100_000,
        Rate {
            per_second: 1,
            burst: 2,
        },
    )
    .with("sokoban", sokoban_hook());
    let s = TestServer::start_with(&db, config(hints)).await;
    let (id, tokens, spectator) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let hint = format!("/api/v1/matches/{id}/hint");
    let (status, body) = s.post(&hint, Some(&token), &json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["sequence"], 0);
    let h = &body["hint"];
    assert_eq!(h["kind"], "push", "{body}");
    // The hint's moves end in its one push, and playing them pushes that box there.
    let moves = h["moves"].as_str().unwrap();
    assert_eq!(
        moves.chars().filter(char::is_ascii_uppercase).count(),
        1,
        "{moves}"
    );
    assert!(moves.ends_with(|c: char| c.is_ascii_uppercase()), "{moves}");
    assert!(h["pushesLeft"].as_u64().unwrap() >= 1);
    // No receipt: the match is still at sequence 0.
    let (_, snap) = s.get(&format!("/api/v1/matches/{id}"), Some(&token)).await;
    assert_eq!(snap["sequence"], 0);
    // A spectator can't ask; a second hint within the burst works, a third is rate-limited.
    let (status, body) = s.post(&hint, Some(&spectator), &json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("spectator"))
    );
    let (status, _) = s.post(&hint, Some(&token), &json!({})).await;
    assert_eq!(status, 200);
    let (status, body) = s.post(&hint, Some(&token), &json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_hint_while_one_is_searched_is_refused_with_a_code() {
    let db = Db::sqlite();
    // A hook that waits until the test lets it go: the first search is surely still running
    // when the second request arrives.
    let (release, gate) = mpsc::channel::<()>();
    let (started_tx, started) = mpsc::channel::<()>();
    let gate = Arc::new(Mutex::new(gate));
    let started_tx = Arc::new(Mutex::new(started_tx));
    let hook: HintHook = Arc::new(move |_: &Value, _: u64| {
        let _ = started_tx.lock().unwrap().send(());
        let _ = gate.lock().unwrap().recv();
        Ok(json!({ "kind": "already_solved" }))
    });
    let hints = Hints::new(
        10,
        Rate {
            per_second: 100,
            burst: 100,
        },
    )
    .with("sokoban", hook);
    let s = Arc::new(TestServer::start_with(&db, config(hints)).await);
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let hint = format!("/api/v1/matches/{id}/hint");
    let first = {
        let (s, hint, token) = (s.clone(), hint.clone(), token.clone());
        tokio::spawn(async move { s.post(&hint, Some(&token), &json!({})).await })
    };
    tokio::task::spawn_blocking(move || started.recv().unwrap())
        .await
        .unwrap();
    let (status, body) = s.post(&hint, Some(&token), &json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("hint_in_progress"))
    );
    release.send(()).unwrap();
    let (status, body) = first.await.unwrap();
    assert_eq!(status, 200, "{body}");
    // Once it answered, the token may ask again.
    release.send(()).unwrap();
    let (status, _) = s.post(&hint, Some(&token), &json!({})).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_hints_says_so() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let (status, body) = s
        .post(
            &format!("/api/v1/matches/{id}/hint"),
            tokens[0].as_deref(),
            &json!({}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("hints_unavailable"))
    );
    s.stop().await;
}
