//! The done-when of issue 11, through the product: a 3-seat Duel under the blitz clock played
//! over HTTP against `turnstile serve` — seat 2 a late joiner (`lateSeats`, its token from the
//! match creation) that JOINs mid-match, turns left to time out (the server's own Timeout at
//! the deadline), a stunned seat skipped by the turn loop (`can_act`) — and its full replay
//! verifies with `turnstile replay verify`, which re-derives the outcome.
//!
//! Time is the server's real clock at 50 ticks a second (blitz: 150 ticks, 3 s a turn): the
//! test waits only for the timeouts it wants, and every assertion is about what the receipts
//! say, never about how long anything took.

mod common;

use common::{http_client, serve};
use serde_json::{json, Value};
use std::process::Command;
use std::time::{Duration, Instant};

struct Client {
    http: reqwest::Client,
    base: String,
    id: String,
    tokens: Vec<String>,
}

impl Client {
    async fn get(&self, seat: usize, path: &str) -> Value {
        self.http
            .get(format!("{}/api/v1/matches/{}{path}", self.base, self.id))
            .bearer_auth(&self.tokens[seat])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    async fn command(&self, seat: usize, n: usize, sequence: u64, action: Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}/api/v1/matches/{}/commands", self.base, self.id))
            .bearer_auth(&self.tokens[seat])
            .json(&json!({"commandId": format!("c{n}"), "expectedSequence": sequence, "action": action}))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap())
    }

    /// Every receipt so far, as seat 0 may see it.
    async fn receipts(&self) -> Vec<Value> {
        let mut all = Vec::new();
        let mut after = 0;
        loop {
            let page = self.get(0, &format!("/timeline?after={after}")).await;
            all.extend(page["receipts"].as_array().unwrap().iter().cloned());
            match page["nextAfter"].as_u64() {
                Some(next) => after = next,
                None => return all,
            }
        }
    }
}

/// The seat that may act now (the priority holder), and its legal action kinds.
async fn acting(c: &Client) -> Option<(usize, Vec<Value>)> {
    for seat in 0..c.tokens.len() {
        let legal = c.get(seat, "/legal-actions").await;
        let kinds: Vec<Value> = legal["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| !matches!(k["kind"].as_str(), Some("RESIGN" | "JOIN")))
            .cloned()
            .collect();
        if !kinds.is_empty() {
            return Some((seat, kinds));
        }
    }
    None
}

/// The hand index of a Stun Bolt the seat may play now, if any.
fn stun_bolt(view: &Value, seat: usize, kinds: &[Value]) -> Option<u64> {
    let hand = view["seats"][seat]["hand"].as_array()?;
    let play = kinds.iter().find(|k| k["kind"] == "PLAY_CARD")?;
    let allowed: Vec<u64> = play["params"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == "hand")?["range"]["values"]
        .as_array()?
        .iter()
        .filter_map(|v| v.as_str().and_then(|s| s.parse().ok()).or(v.as_u64()))
        .collect();
    hand.iter()
        .enumerate()
        .find(|(i, card)| card["card"] == "stun_bolt" && allowed.contains(&(*i as u64)))
        .map(|(i, _)| i as u64)
}

fn has_event(receipts: &[Value], test: impl Fn(&Value) -> bool) -> bool {
    receipts
        .iter()
        .flat_map(|r| r["events"].as_array().cloned().unwrap_or_default())
        .any(|e| test(&e))
}

#[test]
fn a_three_seat_blitz_duel_with_timeouts_a_stun_skip_and_a_late_joiner_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = serve(&dir.path().join("turnstile.db"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let http = http_client();
    let base = server.base.clone();
    let replay = runtime.block_on(async {
        let created: Value = http
            .post(format!("{base}/api/v1/matches"))
            .json(&json!({
                "game": "duel",
                "seed": "blitz-three",
                "tickRate": 50,
                "config": {"phaseSequence": "classic-style", "clock": "blitz", "lateSeats": [2],
                           "decks": ["ember", "ember", "ember"]},
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
            }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let c = Client {
            http: http.clone(),
            base: base.clone(),
            id: created["matchId"].as_str().unwrap().to_owned(),
            tokens: created["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_owned())
                .collect(),
        };
        // Every seat opens the board, so the fair clock starts.
        for seat in 0..3 {
            c.get(seat, "").await;
        }
        let mut timeouts_wanted = 2;
        let mut joined = false;
        let mut stunned = false;
        let mut n = 0;
        let until = Instant::now() + Duration::from_secs(240);
        while Instant::now() < until {
            let snap = c.get(0, "").await;
            if snap["status"] != "active" {
                break;
            }
            let sequence = snap["sequence"].as_u64().unwrap();
            let receipts = c.receipts().await;
            stunned = has_event(&receipts, |e| e.to_string().contains("commanderSkipped"));
            let timeouts = receipts
                .iter()
                .filter(|r| r["commandId"].as_str().unwrap().starts_with("timeout:"))
                .count();
            if timeouts >= 2 && stunned && joined {
                break;
            }
            n += 1;
            // The late seat joins a few commands in.
            if !joined && n >= 3 {
                let (status, r) = c.command(2, n, sequence, json!({"type": "JOIN"})).await;
                assert_eq!(status, 200, "JOIN: {r}");
                joined = true;
                continue;
            }
            let Some((seat, kinds)) = acting(&c).await else {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            // Now and then the acting seat lets its clock run out: the server times it out.
            if timeouts_wanted > 0 && n % 5 == 4 {
                let before = sequence;
                let deadline = Instant::now() + Duration::from_secs(15);
                loop {
                    let r = c.receipts().await;
                    if r.iter()
                        .skip(before as usize)
                        .any(|r| r["commandId"].as_str().unwrap().starts_with("timeout:"))
                    {
                        break;
                    }
                    assert!(Instant::now() < deadline, "the server timed nobody out");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                timeouts_wanted -= 1;
                continue;
            }
            let view = c.get(seat, "").await["view"].clone();
            let action = match stun_bolt(&view, seat, &kinds) {
                Some(hand) => {
                    // Aim at the next seat still playing.
                    let target = (1..3)
                        .map(|d| (seat + d) % 3)
                        .find(|s| view["seats"][*s]["standing"] == "playing")
                        .unwrap_or((seat + 1) % 3);
                    json!({"type": "PLAY_CARD", "hand": hand, "target": target})
                }
                None if kinds.iter().any(|k| k["kind"] == "END_TURN") => {
                    json!({"type": "END_TURN"})
                }
                None if kinds.iter().any(|k| k["kind"] == "PASS_PRIORITY") => {
                    json!({"type": "PASS_PRIORITY"})
                }
                None => json!({"type": kinds[0]["kind"]}),
            };
            let (status, r) = c.command(seat, n, sequence, action.clone()).await;
            // A deadline may pass between reading and sending: the command is then late.
            assert!(
                status == 200 || status == 409 || status == 422,
                "{action}: {status} {r}"
            );
        }
        let receipts = c.receipts().await;
        assert!(joined, "seat 2 joined");
        assert!(
            has_event(&receipts, |e| e["type"] == "seatJoined" && e["seat"] == 2),
            "the late seat's join is a receipt"
        );
        assert!(
            receipts
                .iter()
                .filter(|r| r["commandId"].as_str().unwrap().starts_with("timeout:")
                    && r["seat"].is_null())
                .count()
                >= 2,
            "the server's own timeouts are receipts"
        );
        assert!(stunned, "a stunned seat was skipped by the turn loop");
        // End it: every seat but one resigns.
        for seat in 0..2 {
            let _ = http
                .post(format!("{base}/api/v1/matches/{}/resign", c.id))
                .bearer_auth(&c.tokens[seat])
                .send()
                .await
                .unwrap();
        }
        let snap = c.get(2, "").await;
        assert_eq!(snap["status"], "finished", "{snap}");
        http.get(format!("{base}/api/v1/matches/{}/replay", c.id))
            .bearer_auth(&c.tokens[0])
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    });
    let file = dir.path().join("duel-blitz-three.replay.json");
    std::fs::write(&file, &replay).unwrap();
    let parsed: Value = serde_json::from_str(&replay).unwrap();
    assert_eq!(parsed["seats"].as_array().unwrap().len(), 3);
    assert!(
        parsed["outcome"].is_object(),
        "the replay says how it ended"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_turnstile"))
        .args(["replay", "verify"])
        .arg(&file)
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{printed}");
    assert!(
        printed.contains(": ok,") && printed.contains("outcome"),
        "{printed}"
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}
