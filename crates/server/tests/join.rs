//! Open seats: a match created with `{"kind": "open"}` seats is listed by `GET
//! /api/v1/matches?open=true` (no tokens, no seed), `POST …/join` hands each open seat to exactly
//! one claimant with its token and name, and every refusal has its code — on SQLite and on
//! PostgreSQL.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};
use turnstile_server::{Rate, ServerConfig};

fn join_path(id: &str) -> String {
    format!("/api/v1/matches/{id}/join")
}

fn code(body: &Value) -> Option<&str> {
    body["error"]["code"].as_str()
}

async fn open_seats(db: Db) {
    let s = TestServer::start(&db).await;
    let (status, created) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "open"}]}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["matchId"].as_str().unwrap().to_owned();
    let host = created["seats"][0]["token"].as_str().unwrap().to_owned();
    let spectator = created["spectatorToken"].as_str().unwrap().to_owned();
    assert_eq!(created["seats"][1]["kind"], "open", "{created}");
    assert_eq!(
        created["seats"][1]["token"],
        Value::Null,
        "no token until claimed"
    );

    // Listed for everyone, without a token: the seats, which are open, no secrets.
    let (status, list) = s.get("/api/v1/matches?open=true", None).await;
    assert_eq!(status, 200, "{list}");
    let listed = list["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["matchId"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("the open match is listed: {list}"));
    assert_eq!(listed["game"], "connect4");
    assert_eq!(listed["openSeats"], json!([1]));
    assert_eq!(listed["seats"][0]["kind"], "human");
    assert_eq!(listed["seats"][1]["kind"], "open");
    let text = list.to_string();
    assert!(
        !text.contains(&host) && !text.contains(&spectator) && !text.contains("tsk_"),
        "a listing holds no token: {text}"
    );
    let (_, snap) = s.get(&format!("/api/v1/matches/{id}"), Some(&host)).await;
    assert_eq!(snap["seats"][1]["kind"], "open", "{snap}");
    // the game filter
    let (_, other) = s.get("/api/v1/matches?open=true&game=sokoban", None).await;
    assert!(
        other["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["game"] == "sokoban"),
        "{other}"
    );

    // Bad names are refused, not cut to fit; nothing is claimed by them.
    for name in ["", "   ", "a\u{7}b", &"x".repeat(41)] {
        let (status, body) = s.post(&join_path(&id), None, &json!({"name": name})).await;
        assert_eq!(
            (status, code(&body)),
            (400, Some("invalid_player_name")),
            "{name:?}: {body}"
        );
    }

    // The join: seat 1, its token, the name given.
    let (status, joined) = s
        .post(&join_path(&id), None, &json!({"name": "  Ada  "}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 1);
    assert_eq!(joined["name"], "Ada");
    assert_eq!(joined["game"], "connect4");
    let guest = joined["token"].as_str().unwrap().to_owned();
    assert!(guest.starts_with("tsk_"));

    // Everyone sees the seat taken and named; the guest's token is seat 1's.
    let (_, snap) = s
        .get(&format!("/api/v1/matches/{id}"), Some(&spectator))
        .await;
    assert_eq!(snap["seats"][1]["kind"], "human", "{snap}");
    assert_eq!(snap["seats"][1]["name"], "Ada", "{snap}");
    let (_, mine) = s.get(&format!("/api/v1/matches/{id}"), Some(&guest)).await;
    assert_eq!(mine["viewer"], json!({"kind": "seat", "seat": 1}), "{mine}");
    let drop = |column: u64| json!({"type": "drop", "column": column});
    let (status, r) = s.command(&id, &host, "h1", 0, drop(3)).await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = s.command(&id, &guest, "g1", 1, drop(4)).await;
    assert_eq!(status, 200, "the guest plays seat 1: {r}");
    assert_eq!(r["seat"], 1);
    // found by search with the guest's token
    let (_, found) = s
        .post("/api/v1/matches/search", None, &json!({"tokens": [guest]}))
        .await;
    assert_eq!(found["matches"][0]["matchId"], id, "{found}");
    assert_eq!(found["matches"][0]["seats"], json!([1]));

    // No longer listed; a second join finds no seat.
    let (_, list) = s.get("/api/v1/matches?open=true", None).await;
    assert!(
        list["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["matchId"] != id),
        "{list}"
    );
    let (status, body) = s.post(&join_path(&id), None, &json!({})).await;
    assert_eq!((status, code(&body)), (409, Some("no_open_seat")), "{body}");

    // A match created without open seats has none; an unknown match is 404.
    let (plain, _, _) = s
        .create(json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let (status, body) = s.post(&join_path(&plain), None, &json!({})).await;
    assert_eq!((status, code(&body)), (409, Some("no_open_seat")), "{body}");
    let (status, body) = s.post(&join_path("m_nope"), None, &json!({})).await;
    assert_eq!(
        (status, code(&body)),
        (404, Some("unknown_match")),
        "{body}"
    );

    // An ended match gives no seat (and is no longer listed).
    let (status, created) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "open"}]}),
        )
        .await;
    assert_eq!(status, 201);
    let ended = created["matchId"].as_str().unwrap().to_owned();
    let t = created["seats"][0]["token"].as_str().unwrap().to_owned();
    let (status, body) = s
        .post(
            &format!("/api/v1/matches/{ended}/resign"),
            Some(&t),
            &json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = s.post(&join_path(&ended), None, &json!({})).await;
    assert_eq!((status, code(&body)), (422, Some("match_over")), "{body}");
    let (_, list) = s.get("/api/v1/matches?open=true", None).await;
    assert!(
        list["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["matchId"] != ended),
        "{list}"
    );

    // The listing's own refusals.
    for (query, status, expected) in [
        ("", 400, "invalid_query"),
        ("?open=false", 400, "open_only"),
        ("?open=true&limit=0", 400, "invalid_limit"),
        ("?open=true&limit=101", 400, "invalid_limit"),
        ("?open=true&game=chess", 404, "unknown_game"),
    ] {
        let (got, body) = s.get(&format!("/api/v1/matches{query}"), None).await;
        assert_eq!(
            (got, code(&body)),
            (status, Some(expected)),
            "{query}: {body}"
        );
    }
    // An open seat cannot name a bot.
    let (status, body) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "open", "bot": "strong"}]}),
        )
        .await;
    assert_eq!(
        (status, code(&body)),
        (400, Some("invalid_seats")),
        "{body}"
    );
    s.stop().await;
}
on_both_backends!(an_open_seat_is_listed_claimed_once_and_played, open_seats);

async fn racing_claims(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, _, _) = s
        .create(
            json!({"game": "sokoban", "config": {"collection": "microban", "level": 1},
                       "seats": [{"kind": "open"}]}),
        )
        .await;
    let path = join_path(&id);
    let claims = (0..8).map(|i| {
        let (s, path) = (&s, path.clone());
        async move { s.post(&path, None, &json!({"name": format!("p{i}")})).await }
    });
    let answers = futures::future::join_all(claims).await;
    let won: Vec<&Value> = answers
        .iter()
        .filter(|(status, _)| *status == 200)
        .map(|(_, b)| b)
        .collect();
    assert_eq!(
        won.len(),
        1,
        "exactly one claimant gets the seat: {answers:?}"
    );
    assert!(
        answers
            .iter()
            .filter(|(status, _)| *status != 200)
            .all(|(status, b)| *status == 409 && code(b) == Some("no_open_seat")),
        "{answers:?}"
    );
    let token = won[0]["token"].as_str().unwrap();
    let (status, r) = s
        .command(
            &id,
            token,
            "c1",
            0,
            json!({"type": "move", "direction": "right"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    s.stop().await;
}
on_both_backends!(racing_claimants_get_one_seat, racing_claims);

async fn late_seat(db: Db) {
    let s = TestServer::start(&db).await;
    let (id, tokens, _) = s
        .create(json!({"game": "duel", "config": {"lateSeats": [2]},
                       "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "open"}]}))
        .await;
    assert!(tokens[2].is_none());
    let (status, joined) = s
        .post(&join_path(&id), None, &json!({"name": "Late"}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seat"], 2, "the late seat is the open one");
    let late = joined["token"].as_str().unwrap();
    let (_, legal) = s
        .get(&format!("/api/v1/matches/{id}/legal-actions"), Some(late))
        .await;
    assert!(
        legal["actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["kind"] == "JOIN"),
        "the late seat may join the game: {legal}"
    );
    let (status, r) = s
        .command(&id, late, "join", 0, json!({"type": "JOIN"}))
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["seat"], 2);
    let (_, snap) = s.get(&format!("/api/v1/matches/{id}"), Some(late)).await;
    assert_eq!(snap["seats"][2]["name"], "Late", "{snap}");
    s.stop().await;
}
on_both_backends!(a_late_duel_seat_is_claimed_then_joins, late_seat);

/// The creator names its seat in the create body: the name comes back in the answer, in every
/// viewer's snapshot and in the open-match list, beside the joiner's; it survives a restart (it
/// is stored with the match); names on seats that cannot take one, and bad names, are refused.
async fn creation_names(db: Db) {
    let s = TestServer::start(&db).await;
    let (status, created) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "connect4", "seats": [{"kind": "human", "name": "  Ada "}, {"kind": "open"}]}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["seats"][0]["name"], "Ada", "trimmed: {created}");
    assert_eq!(created["seats"][1]["name"], Value::Null, "{created}");
    let id = created["matchId"].as_str().unwrap().to_owned();
    let host = created["seats"][0]["token"].as_str().unwrap().to_owned();
    let spectator = created["spectatorToken"].as_str().unwrap().to_owned();
    let (_, snap) = s
        .get(&format!("/api/v1/matches/{id}"), Some(&spectator))
        .await;
    assert_eq!(snap["seats"][0]["name"], "Ada", "{snap}");
    let (_, list) = s.get("/api/v1/matches?open=true", None).await;
    let listed = list["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["matchId"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("listed: {list}"));
    assert_eq!(listed["seats"][0]["name"], "Ada", "{listed}");
    let (status, joined) = s.post(&join_path(&id), None, &json!({"name": "Bob"})).await;
    assert_eq!(status, 200, "{joined}");
    let (_, snap) = s.get(&format!("/api/v1/matches/{id}"), Some(&host)).await;
    assert_eq!(
        (&snap["seats"][0]["name"], &snap["seats"][1]["name"]),
        (&json!("Ada"), &json!("Bob")),
        "{snap}"
    );

    // a match against a bot keeps its name too, across a restart of the node
    let (status, vs_bot) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "connect4", "seats": [{"kind": "human", "name": "Cleo"}, {"kind": "bot", "bot": "random"}]}),
        )
        .await;
    assert_eq!(status, 201, "{vs_bot}");
    let bot_match = vs_bot["matchId"].as_str().unwrap().to_owned();
    let cleo = vs_bot["seats"][0]["token"].as_str().unwrap().to_owned();
    s.stop().await;
    let s = TestServer::start(&db).await;
    for (m, token, seat, name) in [
        (&id, &host, 0, "Ada"),
        (&id, &host, 1, "Bob"),
        (&bot_match, &cleo, 0, "Cleo"),
    ] {
        let (status, snap) = s.get(&format!("/api/v1/matches/{m}"), Some(token)).await;
        assert_eq!(status, 200, "{snap}");
        assert_eq!(snap["seats"][seat]["name"], name, "after a restart: {snap}");
    }
    assert_eq!(
        s.get(&format!("/api/v1/matches/{bot_match}"), Some(&cleo))
            .await
            .1["seats"][1]["name"],
        Value::Null,
        "a bot has no name of its own"
    );

    // refusals: a name only on a human seat; names as a join's are checked
    for seats in [
        json!([{"kind": "human"}, {"kind": "bot", "bot": "random", "name": "Robo"}]),
        json!([{"kind": "human"}, {"kind": "open", "name": "Later"}]),
    ] {
        let (status, body) = s
            .post(
                "/api/v1/matches",
                None,
                &json!({"game": "connect4", "seats": seats}),
            )
            .await;
        assert_eq!(
            (status, code(&body)),
            (400, Some("invalid_seats")),
            "{seats}: {body}"
        );
    }
    for name in ["", "   ", "a\u{7}b", &"x".repeat(41)] {
        let (status, body) = s
            .post(
                "/api/v1/matches",
                None,
                &json!({"game": "connect4", "seats": [{"kind": "human", "name": name}, {"kind": "human"}]}),
            )
            .await;
        assert_eq!(
            (status, code(&body)),
            (400, Some("invalid_player_name")),
            "{name:?}: {body}"
        );
    }
    // 40 characters is the limit, counted in characters, not bytes
    let (status, body) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "connect4", "seats": [{"kind": "human", "name": "é".repeat(40)}, {"kind": "human"}]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    s.stop().await;
}
on_both_backends!(names_given_at_creation_are_kept_and_shown, creation_names);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joins_are_rate_limited_like_match_creation() {
    let db = Db::sqlite();
    let s = TestServer::start_with(
        &db,
        ServerConfig {
            create_rate: Rate {
                per_second: 1,
                burst: 2,
            },
            ..common::test_config()
        },
    )
    .await;
    let (id, _, _) = s
        .create(json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "open"}]}))
        .await;
    // the creation took one of the two; one join is allowed, the next is refused
    let (status, body) = s.post(&join_path(&id), None, &json!({})).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = s.post(&join_path(&id), None, &json!({})).await;
    assert_eq!((status, code(&body)), (429, Some("rate_limited")), "{body}");
    s.stop().await;
}
