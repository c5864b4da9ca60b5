//! Issue 11's done-when, through the server: a 3-seat Duel under the blitz clock, seat 2 an
//! open late seat (`lateSeats: [2]`) claimed with `POST …/join`, played over HTTP on loopback
//! to its end. On the way one activation ends by the server's own Timeout (the driver's timer
//! at the deadline tick), a stunned seat is skipped by the turn loop (`can_act`), and the late
//! seat's `JOIN` enters it at the next round boundary. The released replay must show each of
//! these and verify through the runtime's `verify_replay`, the path `turnstile replay verify`
//! takes, re-deriving the server's outcome — on SQLite and on PostgreSQL.
//!
//! Time is the server's real clock at [`TICK_RATE`] ticks a second (blitz: 150 ticks a turn).
//! The test waits only for the one timeout it wants; every assertion is about what the receipts
//! say, never about how long anything took. A turn that times out while the test was slow is
//! tolerated (its command is then refused), so a loaded machine changes the path, not the
//! verdict.
//!
//! Why an earlier version of this test (dropped in b2804bf) never passed: it read Duel's events
//! by `type` (Duel's events are tagged `kind`; only the turn framework's nested events use
//! `type`) and hands by `card` (a card instance is `{thing, cardId}`), so it never found the
//! join nor a Stun Bolt to play, and waited out its time.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};
use turnstile_runtime::ReplayFile;

/// 25 ticks a second: a blitz turn lasts 6 s, room enough for a debug build on a loaded
/// machine to answer a few requests, short enough that the one wanted timeout costs little.
const TICK_RATE: u64 = 25;

/// The seeds tried, in order: the first whose opening hands (seats 0 and 1) hold a Stun Bolt is
/// played, so the stun comes by the seats' third activation (3 mana) whatever the content's
/// deck lists are. Each deck holds one Stun Bolt; about a third of seeds deal one.
const SEEDS: u32 = 24;

struct Table<'a> {
    s: &'a TestServer,
    id: String,
    tokens: Vec<Option<String>>,
    spectator: String,
}

impl Table<'_> {
    async fn snapshot(&self, token: &str) -> Value {
        let (status, m) = self
            .s
            .get(&format!("/api/v1/matches/{}", self.id), Some(token))
            .await;
        assert_eq!(status, 200, "{m}");
        m
    }

    fn token(&self, seat: usize) -> &str {
        self.tokens[seat].as_deref().expect("a claimed seat")
    }
}

/// Every event of a replay entry's receipt.
fn events(entry: &Value) -> Vec<Value> {
    entry["receipt"]["events"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The turn framework's event of type `kind` in `events`, if any (Duel wraps them as
/// `{"kind": "turn", "event": {...}}`).
fn turn_events<'a>(events: &'a [Value], kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    events
        .iter()
        .filter(|e| e["kind"] == "turn")
        .map(|e| &e["event"])
        .filter(move |e| e["type"] == kind)
}

/// The hand index of a Stun Bolt `seat` can pay for now, if any.
fn stun_bolt(view: &Value, seat: usize) -> Option<usize> {
    let me = &view["seats"][seat];
    if me["mana"].as_i64()? < 3 {
        return None;
    }
    me["hand"]
        .as_array()?
        .iter()
        .position(|card| card["cardId"] == "stun_bolt")
}

/// Creates 3-seat blitz matches (seat 2 an open late seat) until one deals a Stun Bolt to seat
/// 0 or 1; the others are resigned, so nothing keeps running.
async fn choose_table(s: &TestServer) -> Table<'_> {
    for k in 0..SEEDS {
        let (id, tokens, spectator) = s
            .create(json!({
                "game": "duel",
                "seed": format!("issue-11-blitz-three-{k}"),
                "tickRate": TICK_RATE,
                "config": {"phaseSequence": "classic-style", "clock": "blitz", "lateSeats": [2]},
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "open"}],
            }))
            .await;
        assert!(tokens[2].is_none(), "the late seat is open until claimed");
        let t = Table {
            s,
            id,
            tokens,
            spectator,
        };
        let mut dealt = false;
        for seat in 0..2 {
            let snap = t.snapshot(t.token(seat)).await;
            let view = &snap["view"];
            let hand = view["seats"][seat]["hand"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert!(!hand.is_empty(), "a seat sees its own hand: {view}");
            dealt |= hand.iter().any(|c| c["cardId"] == "stun_bolt");
        }
        if dealt {
            return t;
        }
        for seat in 0..2 {
            let _ = s
                .post(
                    &format!("/api/v1/matches/{}/resign", t.id),
                    Some(t.token(seat)),
                    &json!({}),
                )
                .await;
        }
    }
    panic!("none of {SEEDS} seeds dealt a Stun Bolt to seat 0 or 1");
}

async fn blitz_three(db: Db) {
    let s = TestServer::start(&db).await;
    let mut t = choose_table(&s).await;

    let mut timed_out: Option<(u64, u64, usize)> = None; // (turn index, deadline, seat)
    let mut join_sequence: Option<u64> = None;
    let mut stunned: Vec<usize> = Vec::new();
    let mut n = 0u32;
    let finished = loop {
        n += 1;
        assert!(n < 600, "the match did not end in 600 steps");
        let snap = t.snapshot(&t.spectator).await;
        if snap["status"] != "active" {
            break snap;
        }
        let sequence = snap["sequence"].as_u64().unwrap();
        let view = &snap["view"];
        let round = view["round"].as_u64().unwrap();
        let active = usize::try_from(view["active"].as_u64().unwrap()).unwrap();

        // In round 2 the late player finds the open seat, claims it, and joins the game.
        if join_sequence.is_none() && round >= 2 {
            let (status, joined) = s
                .post(
                    &format!("/api/v1/matches/{}/join", t.id),
                    None,
                    &json!({"name": "Late"}),
                )
                .await;
            assert_eq!(status, 200, "{joined}");
            assert_eq!(joined["seat"], 2, "{joined}");
            let token = joined["token"].as_str().unwrap().to_owned();
            // A turn may time out between reading the sequence and sending: JOIN again.
            let mut at = sequence;
            for attempt in 0..3 {
                let (status, r) = s
                    .command(
                        &t.id,
                        &token,
                        &format!("join-{attempt}"),
                        at,
                        json!({"type": "JOIN"}),
                    )
                    .await;
                if status == 200 {
                    join_sequence = Some(r["sequence"].as_u64().unwrap());
                    break;
                }
                assert_eq!(status, 409, "{r}");
                at = t.snapshot(&token).await["sequence"].as_u64().unwrap();
            }
            assert!(join_sequence.is_some(), "seat 2's JOIN was taken");
            t.tokens[2] = Some(token);
            continue;
        }

        // Once seat 2 has joined, seat 1 lets its clock run out: the server times it out.
        if timed_out.is_none() && join_sequence.is_some() && active == 1 {
            let turn_index = view["turnIndex"].as_u64().unwrap();
            let deadline = snap["deadlineTick"]
                .as_u64()
                .unwrap_or_else(|| panic!("a blitz turn has a deadline: {snap}"));
            let waited = s
                .wait_for(&t.id, &t.spectator, 60, |m| {
                    m["view"]["turnIndex"].as_u64() != Some(turn_index) || m["status"] != "active"
                })
                .await;
            assert!(waited["sequence"].as_u64().unwrap() > sequence, "{waited}");
            timed_out = Some((turn_index, deadline, active));
            continue;
        }

        // The acting seat: a Stun Bolt at the next seat at the table when it can, else it ends
        // its turn (so health falls only to the sudden-death rule, and the match lasts rounds).
        let Some(token) = t.tokens[active].clone() else {
            panic!("the acting seat {active} has no token: {snap}");
        };
        let mine = t.snapshot(&token).await;
        if mine["sequence"].as_u64() != Some(sequence) {
            continue; // something happened in between (a timeout): look again
        }
        let mine = &mine["view"];
        let target = (1..3)
            .map(|d| (active + d) % 3)
            .find(|s| mine["seats"][*s]["standing"] == "playing");
        let action = match (stun_bolt(mine, active), target) {
            (Some(hand), Some(target)) if stunned.len() < 2 => {
                json!({"type": "PLAY_CARD", "hand": hand, "target": target})
            }
            _ => json!({"type": "END_TURN"}),
        };
        let (status, r) = s
            .command(&t.id, &token, &format!("c{n}"), sequence, action.clone())
            .await;
        match status {
            200 => {
                if action["type"] == "PLAY_CARD" {
                    stunned.push(action["target"].as_u64().unwrap() as usize);
                }
            }
            // The turn timed out between the read and the send: the command is stale or late.
            409 | 422 => {}
            _ => panic!("{action}: {status} {r}"),
        }
    };

    // The match ended by itself (health, under the sudden-death EndRound rule at the latest).
    assert_eq!(finished["status"], "finished", "{finished}");
    let outcome = finished["outcome"].clone();
    assert!(outcome["kind"].is_string(), "{finished}");
    assert!(!stunned.is_empty(), "a Stun Bolt was cast");
    let join_sequence = join_sequence.expect("seat 2 joined");
    let (turn_index, deadline, timed_seat) = timed_out.expect("a turn was left to time out");

    // The full replay, released now the match is over.
    let (status, replay) = s
        .get(
            &format!("/api/v1/matches/{}/replay", t.id),
            Some(t.token(0)),
        )
        .await;
    assert_eq!(status, 200, "{replay}");
    assert_ne!(replay["redacted"], true, "the full file once ended");
    let entries = replay["entries"].as_array().unwrap().clone();
    assert_eq!(replay["seats"].as_array().unwrap().len(), 3);

    // The timeout: the server's own command, no seat, stamped with the deadline tick; its
    // turn ended for `time`.
    let timeout = entries
        .iter()
        .find(|e| e["receipt"]["commandId"] == format!("timeout:{turn_index}"))
        .unwrap_or_else(|| panic!("no receipt timeout:{turn_index}"));
    assert_eq!(timeout["receipt"]["seat"], Value::Null, "{timeout}");
    assert_eq!(timeout["receipt"]["tick"].as_u64(), Some(deadline));
    let ev = events(timeout);
    let ended: Vec<&Value> = turn_events(&ev, "turnEnded").collect();
    assert_eq!(ended.len(), 1, "{ev:?}");
    assert_eq!(ended[0]["reason"], "time");
    assert_eq!(ended[0]["player"].as_u64(), Some(timed_seat as u64));
    assert_eq!(ended[0]["turnIndex"].as_u64(), Some(turn_index));

    // The join: the JOIN receipt (seat 2's own command) says `seatJoined` but starts nothing;
    // the commander enters the loop later, at a round boundary, and only then acts.
    let join = &entries[usize::try_from(join_sequence).unwrap() - 1];
    assert_eq!(join["receipt"]["seat"], 2, "{join}");
    assert_eq!(join["envelope"]["action"]["type"], "JOIN");
    let ev = events(join);
    assert!(
        ev.iter()
            .any(|e| e["kind"] == "seatJoined" && e["seat"] == 2),
        "{ev:?}"
    );
    assert_eq!(turn_events(&ev, "commanderJoined").count(), 0, "{ev:?}");
    let entered = entries
        .iter()
        .position(|e| {
            let ev = events(e);
            let joined = turn_events(&ev, "commanderJoined").any(|j| j["commander"] == "seat-2");
            joined
        })
        .expect("seat 2's commander joined the loop");
    assert!(entered + 1 > usize::try_from(join_sequence).unwrap());
    let ev = events(&entries[entered]);
    assert_eq!(
        turn_events(&ev, "roundStarted").count(),
        1,
        "it enters at the round boundary: {ev:?}"
    );
    let first_turn = entries
        .iter()
        .position(|e| {
            events(e)
                .iter()
                .any(|x| x["kind"] == "activationStarted" && x["seat"] == 2)
        })
        .expect("seat 2 took a turn");
    assert!(first_turn >= entered, "no turn before it entered the loop");

    // The skip: a stunned seat's turn came and the loop skipped it, saying why.
    let skipped: Vec<Value> = entries
        .iter()
        .flat_map(|e| {
            let ev = events(e);
            turn_events(&ev, "commanderSkipped")
                .cloned()
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        skipped.iter().any(|e| e["reason"] == "stunned"
            && stunned
                .iter()
                .any(|s| e["commander"] == format!("seat-{s}"))),
        "a stunned seat was skipped: {skipped:?}, stunned {stunned:?}"
    );

    // The replay verifies and re-derives the outcome the server recorded.
    let file: ReplayFile = serde_json::from_value(replay).unwrap();
    let report = common::registry().verify_replay(&file).unwrap();
    assert!(report.divergence.is_none(), "{:?}", report.divergence);
    assert_eq!(report.verified, entries.len() as u64);
    let derived = report.outcome.expect("the replay says how it ended");
    assert_eq!(json!(derived.kind), outcome["kind"]);
    assert_eq!(
        json!(derived.winners.iter().map(|s| s.0).collect::<Vec<_>>()),
        outcome["winners"]
    );
    s.stop().await;
}
on_both_backends!(
    a_three_seat_blitz_duel_times_out_skips_a_stunned_seat_and_takes_a_late_joiner,
    blitz_three
);
