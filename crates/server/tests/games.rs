//! The hidden-information games over the real API, on both backends: Duel under each of its
//! three phase presets, played through `legal-actions` by both seats, with every response a seat
//! or a spectator can get scanned for the other seat's hand; clover's deck order, upcoming
//! draws and chance outcomes kept from its player, and its score steps in the resolution.

mod common;

use common::{read_events, Db, TestServer};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// Every response one viewer collected, with what it must never hold.
struct Seen {
    /// The seat whose hand must stay hidden (`None`: both, for a spectator).
    hidden_seat: Option<u64>,
    responses: Vec<Value>,
}

/// Walks `v`: no draw of a hidden seat names its card, no view shows a hidden seat's hand, and
/// no card instance (`thing`) of `hidden_things` appears anywhere.
fn assert_hides(v: &Value, hidden_seat: Option<u64>, hidden_things: &BTreeSet<u64>, path: &str) {
    let hidden = |seat: Option<u64>| match (hidden_seat, seat) {
        (None, Some(_)) => true,
        (Some(h), Some(s)) => h == s,
        _ => false,
    };
    match v {
        Value::Object(map) => {
            if map.get("kind").and_then(Value::as_str) == Some("cardDrawn")
                && hidden(map.get("seat").and_then(Value::as_u64))
            {
                assert!(
                    map.get("card").is_none_or(Value::is_null),
                    "{path}: a hidden seat's draw names its card: {v}"
                );
            }
            if let Some(thing) = map.get("thing").and_then(Value::as_u64) {
                assert!(
                    !hidden_things.contains(&thing),
                    "{path}: card instance {thing} of a hidden hand: {v}"
                );
            }
            if let Some(seats) = map.get("seats").and_then(Value::as_array) {
                for (i, s) in seats.iter().enumerate() {
                    if s.get("handCount").is_some() && hidden(Some(i as u64)) {
                        assert!(
                            s["hand"].is_null(),
                            "{path}: the view shows seat {i}'s hand: {s}"
                        );
                    }
                }
            }
            for (k, x) in map {
                assert_hides(x, hidden_seat, hidden_things, &format!("{path}/{k}"));
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                assert_hides(x, hidden_seat, hidden_things, &format!("{path}/{i}"));
            }
        }
        _ => {}
    }
}

/// Whether `v` holds, anywhere, a draw of `seat` that names its card.
fn names_a_draw_of(v: &Value, seat: u64) -> bool {
    match v {
        Value::Object(map) => {
            (map.get("kind").and_then(Value::as_str) == Some("cardDrawn")
                && map.get("seat").and_then(Value::as_u64) == Some(seat)
                && map.get("card").is_some_and(Value::is_string))
                || map.values().any(|x| names_a_draw_of(x, seat))
        }
        Value::Array(items) => items.iter().any(|x| names_a_draw_of(x, seat)),
        _ => false,
    }
}

/// The instance ids of the cards in `seat`'s hand, read with that seat's own token.
async fn hand_things(s: &TestServer, id: &str, token: &str, seat: usize) -> BTreeSet<u64> {
    let (status, snap) = s.get(&format!("/api/v1/matches/{id}"), Some(token)).await;
    assert_eq!(status, 200, "{snap}");
    snap["view"]["seats"][seat]["hand"]
        .as_array()
        .unwrap_or_else(|| panic!("seat {seat} sees its own hand: {snap}"))
        .iter()
        .map(|c| c["thing"].as_u64().unwrap())
        .collect()
}

/// A concrete action from a legal kind: the first value of each parameter's range, verbatim
/// (values are typed as the action takes them).
fn concrete(kind: &Value) -> Value {
    let mut action = json!({ "type": kind["kind"] });
    for p in kind["params"].as_array().into_iter().flatten() {
        action[p["name"].as_str().unwrap()] = p["range"]["values"][0].clone();
    }
    action
}

/// Plays a Duel match under `preset` for up to `commands` commands, both seats choosing from
/// their legal actions (playing a card when they can, two times in three, else passing or
/// ending the activation); returns the match id, the seat tokens, the spectator token and the
/// command ids accepted.
async fn play_duel(
    s: &TestServer,
    preset: &str,
    commands: usize,
    seen: &mut [Seen; 2],
) -> (String, [String; 2], String, Vec<String>) {
    let (id, tokens, spectator) = s
        .create(json!({"game": "duel", "config": {"phaseSequence": preset},
                       "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let tokens = [tokens[0].clone().unwrap(), tokens[1].clone().unwrap()];
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    let mut accepted = Vec::new();
    for i in 0..commands {
        let (_, snap) = s.get(&m(""), Some(&tokens[0])).await;
        assert_eq!(snap["view"]["sequenceId"], preset, "{snap}");
        if snap["status"] != "active" {
            break;
        }
        seen[0].responses.push(snap.clone());
        let actor = snap["view"]["priority"].as_u64().unwrap() as usize;
        let token = &tokens[actor];
        let (status, legal) = s.get(&m("/legal-actions"), Some(token)).await;
        assert_eq!(status, 200, "{legal}");
        let kinds = legal["actions"].as_array().unwrap().clone();
        let named = |k: &str| kinds.iter().find(|a| a["kind"] == k);
        let kind = named("PLAY_CARD")
            .filter(|_| i % 3 != 2)
            .or_else(|| named("PASS_PRIORITY"))
            .or_else(|| named("END_TURN"))
            .unwrap_or_else(|| panic!("seat {actor} can do nothing: {legal}"));
        let action = concrete(kind);
        let (status, preview) = s
            .post(&m("/preview"), Some(token), &json!({ "action": action }))
            .await;
        assert_eq!(status, 200, "preview of {action}: {preview}");
        let sequence = snap["sequence"].as_u64().unwrap();
        let command_id = format!("{preset}-{i}");
        let (status, receipt) = s
            .command(&id, token, &command_id, sequence, action.clone())
            .await;
        assert_eq!(status, 200, "{action}: {receipt}");
        if actor == 0 {
            seen[0].responses.extend([legal, preview, receipt]);
        }
        accepted.push(command_id);
        // The replay is the caller's redacted timeline only while the match runs (after the
        // end it is the full file), so it is scanned along the way.
        if i % 8 == 0 {
            let (_, snap) = s.get(&m(""), Some(&tokens[0])).await;
            if snap["status"] == "active" {
                seen[0]
                    .responses
                    .push(s.get(&m("/replay"), Some(&tokens[0])).await.1);
                seen[1]
                    .responses
                    .push(s.get(&m("/replay"), Some(&spectator)).await.1);
            }
        }
    }
    (id, tokens, spectator, accepted)
}

async fn duel(db: Db) {
    let s = TestServer::start(&db).await;
    for preset in ["classic-style", "hearthstone-style", "priority-window"] {
        let mut seen = [
            Seen {
                hidden_seat: Some(1),
                responses: Vec::new(),
            },
            Seen {
                hidden_seat: None,
                responses: Vec::new(),
            },
        ];
        let (id, tokens, spectator, accepted) = play_duel(&s, preset, 40, &mut seen).await;
        assert!(
            accepted.len() >= 20,
            "{preset}: {} commands",
            accepted.len()
        );
        let m = |p: &str| format!("/api/v1/matches/{id}{p}");
        for (who, token) in [(0, &tokens[0]), (1, &spectator)] {
            for path in ["", "/legal-actions", "/timeline?after=0"] {
                seen[who]
                    .responses
                    .push(s.get(&m(path), Some(token)).await.1);
            }
            for c in &accepted {
                let (status, r) = s.get(&m(&format!("/resolutions/{c}")), Some(token)).await;
                assert_eq!(status, 200, "{r}");
                seen[who].responses.push(r);
            }
            let stream = s
                .http
                .get(s.url(&m("/events")))
                .bearer_auth(token)
                .header("last-event-id", "0")
                .send()
                .await
                .unwrap();
            let events = read_events(stream, accepted.len(), 20).await;
            assert_eq!(events.len(), accepted.len(), "{preset}: the whole stream");
            seen[who]
                .responses
                .extend(events.into_iter().map(|(_, v)| v));
        }
        // Cards still in a hand were never shown: their instance ids must appear nowhere.
        let hidden1 = hand_things(&s, &id, &tokens[1], 1).await;
        let hidden0 = hand_things(&s, &id, &tokens[0], 0).await;
        for v in &seen[0].responses {
            assert_hides(v, seen[0].hidden_seat, &hidden1, preset);
        }
        let both: BTreeSet<u64> = hidden0.union(&hidden1).copied().collect();
        for v in &seen[1].responses {
            assert_hides(v, seen[1].hidden_seat, &both, preset);
        }
        // The checks can fail: seat 0 does see its own draws.
        assert!(
            seen[0].responses.iter().any(|v| names_a_draw_of(v, 0)),
            "{preset}: seat 0 sees its own draws"
        );
        // After the end, the full replay holds both hands.
        let (_, snap) = s.get(&m(""), Some(&tokens[0])).await;
        if snap["status"] == "active" {
            let (status, r) = s.post(&m("/resign"), Some(&tokens[1]), &json!({})).await;
            assert_eq!(status, 200, "{r}");
        }
        let (_, replay) = s.get(&m("/replay"), Some(&tokens[0])).await;
        assert!(replay["seed"].is_string(), "{preset}: the seed is released");
        assert!(
            names_a_draw_of(&replay, 1),
            "{preset}: the full replay shows seat 1's draws"
        );
    }
    s.stop().await;
}
on_both_backends!(
    duel_under_every_preset_hides_each_hand_from_the_other_seat,
    duel
);

/// clover over the API: its legal actions carry their ranges, a played hand's resolution has
/// the step list, a preview leaves out the cards a discard would draw, and nothing the player
/// gets holds the deck order, a generator state or the seed while the run goes on.
async fn clover(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(json!({"game": "clover", "seats": [{"kind": "human"}], "seed": "api-clover"}))
        .await;
    let token = tokens[0].clone().unwrap();
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    let mut seen = Vec::new();
    let (status, r) = s
        .command(&id, &token, "blind", 0, json!({"type": "selectBlind"}))
        .await;
    assert_eq!(status, 200, "{r}");
    seen.push(r);

    let (_, legal) = s.get(&m("/legal-actions"), Some(&token)).await;
    let play = legal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "play")
        .unwrap_or_else(|| panic!("play is open: {legal}"))
        .clone();
    assert_eq!(play["params"][0]["range"]["kind"], "subsetOf", "{play}");
    assert_eq!(play["params"][0]["range"]["max"], 5);
    seen.push(legal);

    // A discard's preview shows the kept cards only; committed, the hand is full again.
    let (_, before) = s.get(&m(""), Some(&token)).await;
    let hand = before["view"]["hand"].as_array().unwrap().clone();
    let (status, preview) = s
        .post(
            &m("/preview"),
            Some(&token),
            &json!({"action": {"type": "discard", "cards": [0, 1]}}),
        )
        .await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(
        preview["view"]["hand"].as_array().unwrap()[..],
        hand[2..],
        "the previewed hand holds no drawn card"
    );
    seen.extend([before, preview]);
    let (status, r) = s
        .command(
            &id,
            &token,
            "discard",
            1,
            json!({"type": "discard", "cards": [0, 1]}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    seen.push(r);
    let (_, after) = s.get(&m(""), Some(&token)).await;
    assert_eq!(after["view"]["hand"].as_array().unwrap().len(), hand.len());

    let (status, r) = s
        .command(
            &id,
            &token,
            "play",
            2,
            json!({"type": "play", "cards": [0, 1, 2, 3, 4]}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    seen.push(r);
    let (status, resolution) = s.get(&m("/resolutions/play"), Some(&token)).await;
    assert_eq!(status, 200, "{resolution}");
    let scored = resolution["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| &step["event"])
        .find(|e| e["type"] == "handScored")
        .unwrap_or_else(|| panic!("a scored hand: {resolution}"))
        .clone();
    assert!(scored["score"].as_i64().unwrap() > 0, "{scored}");
    assert!(
        !scored["steps"].as_array().unwrap().is_empty(),
        "the resolution lists the score's steps: {scored}"
    );
    seen.push(resolution);
    for path in ["", "/timeline?after=0", "/replay"] {
        seen.push(s.get(&m(path), Some(&token)).await.1);
    }
    for v in &seen {
        let text = v.to_string();
        for secret in ["\"streams\"", "\"state\":", "\"deck\":[", "api-clover"] {
            assert!(
                !text.contains(secret),
                "{secret} reached the player: {text}"
            );
        }
    }
    s.stop().await;
}
on_both_backends!(
    clover_keeps_the_deck_and_the_generators_from_its_player,
    clover
);

/// A seed whose greedy-bot run reaches a hand holding a face-down card, and the bot's actions
/// up to there: found against the shipped content as it is, so content changes move the seed
/// rather than break the test.
fn face_down_run() -> (
    String,
    Vec<turnstile_clover::CloverAction>,
    turnstile_clover::CloverState,
) {
    use turnstile_clover::{bot_action, Clover, CloverConfig, CloverContent};
    use turnstile_core::{Game, MatchSetup};
    let content = CloverContent::shipped().unwrap();
    for i in 0..2_000 {
        let seed = format!("face-down-{i}");
        let mut state = Clover::setup(
            &content,
            MatchSetup {
                config: &CloverConfig::default(),
                seed: &seed,
                seats: 1,
            },
        )
        .unwrap();
        let mut actions = Vec::new();
        while actions.len() < 300 {
            if state.hand.iter().any(|c| c.face_down) && state.hand.iter().any(|c| !c.face_down) {
                return (seed, actions, state);
            }
            let Some(action) = bot_action(content.content(), &state) else {
                break;
            };
            if state.apply(content.content(), &action).is_err() {
                break;
            }
            actions.push(action);
        }
    }
    panic!("no seed of 2000 reaches a face-down card")
}

/// clover's face-down cards over the API: the snapshot shows `null` where a boss drew a card
/// face down, a preview that plays one tells neither its hand nor its score, and the committed
/// play reveals the cards it played.
async fn clover_face_down(db: Db) {
    let (seed, actions, state) = face_down_run();
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(json!({"game": "clover", "seats": [{"kind": "human"}], "seed": seed}))
        .await;
    let token = tokens[0].clone().unwrap();
    let m = |p: &str| format!("/api/v1/matches/{id}{p}");
    for (n, action) in actions.iter().enumerate() {
        let sequence = u64::try_from(n).unwrap();
        let (status, r) = s
            .command(
                &id,
                &token,
                &format!("c{n}"),
                sequence,
                serde_json::to_value(action).unwrap(),
            )
            .await;
        assert_eq!(status, 200, "{action:?}: {r}");
    }
    let (_, snap) = s.get(&m(""), Some(&token)).await;
    let hand = snap["view"]["hand"].as_array().unwrap().clone();
    assert_eq!(hand.len(), state.hand.len());
    for (shown, card) in hand.iter().zip(&state.hand) {
        if card.face_down {
            assert_eq!(*shown, Value::Null, "{snap}");
        } else {
            assert_eq!(*shown, serde_json::to_value(card).unwrap());
        }
    }
    let down = state.hand.iter().position(|c| c.face_down).unwrap();
    let up = state.hand.iter().position(|c| !c.face_down).unwrap();
    let play = json!({"type": "play", "cards": [down, up]});
    let (status, preview) = s
        .post(&m("/preview"), Some(&token), &json!({ "action": play }))
        .await;
    assert_eq!(status, 200, "{preview}");
    let scored = preview["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "handScored")
        .unwrap_or_else(|| panic!("{preview}"));
    assert_eq!(scored["faceDown"], "played", "{scored}");
    assert_eq!(
        (&scored["hand"], &scored["score"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(preview["view"], snap["view"], "the run as it stands");
    let (status, r) = s
        .command(
            &id,
            &token,
            "reveal",
            snap["sequence"].as_u64().unwrap(),
            play,
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let scored = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "handScored")
        .unwrap_or_else(|| panic!("{r}"));
    let mut revealed = vec![state.hand[down].face_up(), state.hand[up].face_up()];
    if up < down {
        revealed.reverse();
    }
    assert_eq!(scored["revealed"], serde_json::to_value(&revealed).unwrap());
    assert!(scored["score"].as_i64().is_some(), "{scored}");
    s.stop().await;
}
on_both_backends!(
    clover_face_down_cards_stay_hidden_over_the_api,
    clover_face_down
);
