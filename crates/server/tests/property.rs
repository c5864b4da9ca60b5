//! Random bodies thrown at the command endpoint: the answer is always one of the API's error
//! shapes or a receipt, nothing panics, and the match changes only when a body was a legal
//! command — checked against a model (the same commands applied to a `Match` in memory).

mod common;

use common::{Db, TestServer};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};
use std::sync::Arc;
use turnstile_core::{CommandEnvelope, ContentBundle, Fingerprint, Game, Seat};
use turnstile_runtime::{Match, MatchSpec, SeatSpec};
use turnstile_sokoban::{Sokoban, SokobanAction, SokobanConfig};

fn arb_action() -> impl Strategy<Value = Value> {
    let direction = prop_oneof![
        Just(json!("up")),
        Just(json!("down")),
        Just(json!("left")),
        Just(json!("right")),
        Just(json!("sideways")),
        Just(json!(3)),
    ];
    prop_oneof![
        direction
            .clone()
            .prop_map(|d| json!({"type": "move", "direction": d})),
        Just(json!({"type": "undo"})),
        Just(json!({"type": "redo"})),
        Just(json!({"type": "restart"})),
        (0u16..9, 0u16..9).prop_map(|(x, y)| json!({"type": "walkTo", "to": [x, y]})),
        (0u16..9, 0u16..9, 0u16..9, 0u16..9)
            .prop_map(|(a, b, c, d)| json!({"type": "pushTo", "from": [a, b], "to": [c, d]})),
        Just(json!({"type": "move"})),
        Just(json!({"type": "fly", "x": 1})),
        Just(json!(null)),
        Just(json!([1, 2])),
    ]
}

/// Stands for "the match's current sequence" in generated bodies.
const CURRENT: u64 = 999_999;

/// A body: mostly well-formed commands with random actions and sequences, some garbage.
fn arb_body() -> impl Strategy<Value = Vec<u8>> {
    let id = prop_oneof![
        4 => "[a-z]{1,6}".prop_map(Value::from),
        1 => Just(json!("")),
        1 => Just(json!("has space")),
        1 => Just(json!(7)),
    ];
    let sequence = prop_oneof![3 => Just(CURRENT), 1 => 0u64..4];
    let extra = proptest::bool::weighted(0.1);
    let well_formed = (
        id,
        sequence,
        arb_action(),
        proptest::option::of(0u16..3),
        extra,
    )
        .prop_map(|(id, seq, action, seat, extra)| {
            let mut body = json!({"commandId": id, "expectedSequence": seq, "action": action});
            if let Some(seat) = seat {
                body["seat"] = json!(seat);
            }
            if extra {
                body["unexpected"] = json!(true);
            }
            serde_json::to_vec(&body).unwrap()
        });
    prop_oneof![
        8 => well_formed,
        1 => proptest::collection::vec(any::<u8>(), 0..64),
        1 => "[{}\\[\\]\":,a-z0-9 ]{0,40}".prop_map(String::into_bytes),
    ]
}

struct Model {
    m: Match<Sokoban>,
}

impl Model {
    fn new() -> Model {
        let source = common::sokoban_source();
        let content = Sokoban::load_content(&source).unwrap();
        let bundle = Arc::new(ContentBundle::new("sokoban", content).unwrap());
        let spec = MatchSpec {
            config: SokobanConfig {
                collection: "microban".into(),
                level: 1,
                xsb: None,
                topology: None,
            },
            seed: "s".into(),
            seats: vec![SeatSpec::human()],
            tick_rate: 10,
        };
        Model {
            m: Match::new(bundle, spec).unwrap(),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_bodies_change_the_match_only_when_legal() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(json!({"game": "sokoban", "config": {"collection": "microban", "level": 1}, "seats": [{"kind": "human"}]}))
        .await;
    let token = tokens[0].clone().unwrap();
    let path = format!("/api/v1/matches/{id}/commands");
    let handle = tokio::runtime::Handle::current();
    let model = std::sync::Mutex::new(Model::new());
    let seen = std::sync::Mutex::new(std::collections::BTreeMap::<u16, u32>::new());
    let mut runner = TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = proptest::collection::vec(arb_body(), 1..4);
    let result = tokio::task::block_in_place(|| {
        runner.run(&strategy, |bodies| {
            let mut model = model.lock().unwrap();
            for body in bodies {
                let before = handle
                    .block_on(s.get(&format!("/api/v1/matches/{id}"), Some(&token)))
                    .1;
                let body = match serde_json::from_slice::<Value>(&body) {
                    Ok(mut v) if v.get("expectedSequence") == Some(&json!(CURRENT)) => {
                        v["expectedSequence"] = before["sequence"].clone();
                        serde_json::to_vec(&v).unwrap()
                    }
                    _ => body,
                };
                let (status, answer) =
                    handle.block_on(s.post_raw(&path, Some(&token), body.clone()));
                let after = handle
                    .block_on(s.get(&format!("/api/v1/matches/{id}"), Some(&token)))
                    .1;
                *seen.lock().unwrap().entry(status).or_insert(0) += 1;
                // What the model says this body is.
                let parsed: Option<Value> = serde_json::from_slice(&body).ok();
                let legal = parsed.as_ref().and_then(|v| {
                    let obj = v.as_object()?;
                    if obj.keys().any(|k| {
                        !["commandId", "expectedSequence", "action", "seat"].contains(&k.as_str())
                    }) {
                        return None;
                    }
                    if obj.get("seat").is_some_and(|s| s != &json!(0)) {
                        return None;
                    }
                    let command_id = obj.get("commandId")?.as_str()?.to_owned();
                    let expected = obj.get("expectedSequence")?.as_u64()?;
                    let action: SokobanAction =
                        serde_json::from_value(obj.get("action")?.clone()).ok()?;
                    Some((command_id, expected, action))
                });
                match status {
                    200 => {
                        let (command_id, expected, action) = legal
                            .clone()
                            .expect("a 200 for a body the model can't read");
                        let receipt = model
                            .m
                            .submit(CommandEnvelope {
                                command_id,
                                seat: Some(Seat(0)),
                                expected_sequence: expected,
                                expected_step: None,
                                tick: answer["tick"].as_u64().unwrap(),
                                action,
                            })
                            .expect("the model accepts what the server accepted")
                            .receipt
                            .clone();
                        prop_assert_eq!(answer["hash"].as_str().unwrap(), receipt.hash.to_string());
                        prop_assert_eq!(
                            &after["view"],
                            &serde_json::to_value(
                                model.m.view(turnstile_core::Viewer::Seat(Seat(0)))
                            )
                            .unwrap()
                        );
                    }
                    400 | 401 | 403 | 409 | 422 => {
                        prop_assert!(answer["error"]["code"].is_string(), "{}", answer);
                        prop_assert!(answer["error"]["details"].is_object());
                        prop_assert_eq!(&before["sequence"], &after["sequence"]);
                        prop_assert_eq!(&before["viewFingerprint"], &after["viewFingerprint"]);
                        if status == 422 {
                            // The model agrees it is illegal (or a repeat of a rejected id).
                            if let Some((command_id, expected, action)) = legal.clone() {
                                let fp = Fingerprint::of(model.m.state()).unwrap();
                                let tick = model.m.last_tick();
                                let refused = model.m.submit(CommandEnvelope {
                                    command_id,
                                    seat: Some(Seat(0)),
                                    expected_sequence: expected,
                                    expected_step: None,
                                    tick,
                                    action,
                                });
                                prop_assert!(refused.is_err());
                                prop_assert_eq!(Fingerprint::of(model.m.state()).unwrap(), fp);
                            }
                        }
                    }
                    other => prop_assert!(
                        false,
                        "unexpected status {} for {:?}: {}",
                        other,
                        String::from_utf8_lossy(&body),
                        answer
                    ),
                }
            }
            Ok(())
        })
    });
    result.unwrap();
    let seen = seen.into_inner().unwrap();
    for status in [200, 400, 409, 422] {
        assert!(
            seen.get(&status).copied().unwrap_or(0) > 0,
            "no {status} among {seen:?}"
        );
    }
    s.stop().await;
}
