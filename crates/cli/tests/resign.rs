//! Resignation is a receipt in every game, through the product: for each game `turnstile
//! serve` lists, a match resigned over HTTP (`POST /resign`) holds the resignation's receipt
//! (command id `resign:<seat>`) and the match's outcome in its replay; `turnstile replay
//! verify` re-executes it and prints the outcome it re-derived; and the same file with the
//! outcome tampered with fails verification (exit 1, divergence `outcome`).

mod common;

use common::{http_client, serve};
use serde_json::{json, Value};
use std::process::Command;

fn verify(file: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args(["replay", "verify"])
        .arg(file)
        .output()
        .unwrap();
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn every_game_resigns_with_a_receipt_that_replay_verify_rederives() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = serve(&dir.path().join("turnstile.db"));
    let base = server.base.clone();
    let client = http_client();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let games: Value = client
            .get(format!("{base}/api/v1/games"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let games = games["games"].as_array().unwrap().clone();
        assert!(games.len() >= 6, "every sample game is served: {games:?}");
        for game in &games {
            let id = game["id"].as_str().unwrap();
            assert_eq!(game["resign"], true, "{id} has a resign action");
            let seats = game["seats"]["min"].as_u64().unwrap_or(1);
            let body = json!({
                "game": id,
                "seed": format!("resign-{id}"),
                "seats": (0..seats).map(|_| json!({"kind": "human"})).collect::<Vec<_>>(),
            });
            let created: Value = client
                .post(format!("{base}/api/v1/matches"))
                .json(&body)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let m = created["matchId"].as_str().unwrap().to_owned();
            let token = created["seats"][0]["token"].as_str().unwrap().to_owned();

            let response = client
                .post(format!("{base}/api/v1/matches/{m}/resign"))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200, "{id}");
            let resigned: Value = response.json().await.unwrap();
            assert_eq!(resigned["status"], "finished", "{id}: {resigned}");
            let outcome = resigned["outcome"].clone();
            assert!(outcome["kind"].is_string(), "{id}: {resigned}");
            assert!(
                !outcome["winners"].as_array().unwrap().contains(&json!(0)),
                "{id}: the resigning seat does not win: {outcome}"
            );
            assert_eq!(resigned["receipt"]["commandId"], "resign:0", "{id}");
            assert_eq!(resigned["receipt"]["seat"], 0, "{id}");

            // The full replay (the match has ended): the resignation is its last receipt,
            // and the outcome is recorded beside the entries.
            let text = client
                .get(format!("{base}/api/v1/matches/{m}/replay"))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let mut replay: Value = serde_json::from_str(&text).unwrap();
            let entries = replay["entries"].as_array().unwrap();
            let last = &entries.last().unwrap_or_else(|| panic!("{id}: no entry"))["receipt"];
            assert_eq!(last["commandId"], "resign:0", "{id}");
            assert_eq!(last["sequence"], resigned["receipt"]["sequence"], "{id}");
            assert_eq!(replay["outcome"], outcome, "{id}");

            let file = dir.path().join(format!("{id}.replay.json"));
            std::fs::write(&file, &text).unwrap();
            let (code, printed) = verify(&file);
            assert_eq!(code, Some(0), "{id}: {printed}");
            let kind = outcome["kind"].as_str().unwrap();
            assert!(
                printed.contains(&format!("outcome {kind}")),
                "{id}: the verifier prints the outcome it re-derived: {printed}"
            );

            // A replay claiming another outcome does not verify.
            replay["outcome"] = json!({"kind": "solved", "winners": [0]});
            let forged = dir.path().join(format!("{id}.forged.replay.json"));
            std::fs::write(&forged, serde_json::to_string(&replay).unwrap()).unwrap();
            let (code, printed) = verify(&forged);
            assert_eq!(code, Some(1), "{id}: {printed}");
            assert!(
                printed.contains("DIVERGED") && printed.contains("outcome"),
                "{id}: {printed}"
            );

            // Nothing more is accepted.
            let late = client
                .post(format!("{base}/api/v1/matches/{m}/resign"))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            assert_eq!(late.status(), 422, "{id}");
        }
    });
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}
