//! The hardened edges of the server: requests refused with a catalogued JSON code (a path that
//! is not UTF-8, a body that is not declared JSON, a human seat naming a bot), `Connection:
//! close` after a refused body, server settings refused before anything is created, and a
//! reused command id refused on every node — also when two nodes race.

mod common;

use common::{Db, TestServer};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::Arc;

fn sokoban() -> Value {
    json!({"game": "sokoban", "config": {"collection": "microban", "level": 1}, "seats": [{"kind": "human"}]})
}

fn mv(direction: &str) -> Value {
    json!({ "type": "move", "direction": direction })
}

fn code(v: &Value) -> String {
    v["error"]["code"].as_str().unwrap_or("").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_json_with_catalogued_codes() {
    let db = Db::sqlite();
    let mut config = common::test_config();
    config.max_body_bytes = 2048;
    let s = TestServer::start_with(&db, config).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();

    // A path segment that is not UTF-8: JSON, not axum's plain text.
    let response = s
        .http
        .get(s.url("/api/v1/matches/%ff"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let v: Value = response.json().await.unwrap();
    assert_eq!(code(&v), "invalid_path", "{v}");

    // A body not declared as JSON: 415, and nothing was created or applied.
    let body = serde_json::to_vec(&sokoban()).unwrap();
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut request = s.http.post(s.url("/api/v1/matches")).body(body.clone());
        if let Some(t) = content_type {
            request = request.header("content-type", t);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 415, "{content_type:?}");
        let v: Value = response.json().await.unwrap();
        assert_eq!(code(&v), "unsupported_media_type");
    }
    let command = serde_json::to_vec(
        &json!({"commandId": "c1", "expectedSequence": 0, "action": mv("right")}),
    )
    .unwrap();
    let response = s
        .http
        .post(s.url(&format!("/api/v1/matches/{id}/commands")))
        .bearer_auth(&token)
        .header("content-type", "text/plain")
        .body(command.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415);
    assert_eq!(
        s.sequence(&id, &token).await,
        0,
        "a refused body applies nothing"
    );
    // With a charset parameter it is JSON.
    let response = s
        .http
        .post(s.url(&format!("/api/v1/matches/{id}/commands")))
        .bearer_auth(&token)
        .header("content-type", "application/json; charset=utf-8")
        .body(command)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);

    // A human seat that names a bot is refused, not silently made human.
    let (status, v) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "tictactoe", "seats": [{"kind": "human", "bot": "random"}, {"kind": "human"}]}),
        )
        .await;
    assert_eq!((status, code(&v)), (400, "invalid_seats".into()), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("seat 0"),
        "{v}"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_body_closes_the_connection_and_says_so() {
    let db = Db::sqlite();
    let mut config = common::test_config();
    config.max_body_bytes = 1024;
    let s = TestServer::start_with(&db, config).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let addr = s.base.trim_start_matches("http://").to_owned();
    let answer = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        let body = format!(
            "{{\"commandId\":\"big\",\"expectedSequence\":0,\"action\":{{\"type\":\"undo\",\"pad\":\"{}\"}}}}",
            "x".repeat(4096)
        );
        let request = format!(
            "POST /api/v1/matches/{id}/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(request.as_bytes());
        let mut answer = Vec::new();
        // The server closes after answering: read_to_end returns instead of timing out.
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).to_ascii_lowercase()
    })
    .await
    .unwrap();
    assert!(answer.starts_with("http/1.1 413"), "{answer}");
    assert!(answer.contains("connection: close"), "{answer}");
    assert!(answer.contains("body_too_large"), "{answer}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_server_settings_are_refused_before_anything_is_stored() {
    let db = Db::sqlite();
    let store: Arc<dyn turnstile_store::Store> = db.open().await;
    for (config, named) in [
        (
            turnstile_server::ServerConfig {
                node_id: Some(String::new()),
                ..common::test_config()
            },
            "node id",
        ),
        (
            turnstile_server::ServerConfig {
                cors_origins: vec!["not a url".into()],
                ..common::test_config()
            },
            "not a url",
        ),
    ] {
        let Err(e) =
            turnstile_server::Server::start(common::registry(), store.clone(), config).await
        else {
            panic!("a bad setting started a server");
        };
        assert_eq!(e.code(), "invalid_server_setting");
        assert!(e.to_string().contains(named), "{e}");
    }
    assert_eq!(
        store.current_revision("sokoban").await.unwrap(),
        None,
        "nothing was published before the refusal"
    );
}

/// Reused command ids across two nodes on PostgreSQL: in a race, and one after the other with
/// the second node not yet caught up, a different action under a taken id is 409
/// `command_id_reused` on whichever node loses; the same action is the winner's receipt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reused_command_id_is_refused_on_every_node() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    let a = TestServer::start(&db).await;
    let b = TestServer::start(&db).await;
    let (id, tokens, _) = a.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    // Both nodes load the match.
    assert_eq!(a.sequence(&id, &token).await, 0);
    assert_eq!(b.sequence(&id, &token).await, 0);

    // From Microban 1's start both `right` and `up` are legal; after each race an undo
    // through node A brings the player back, so every round races two legal, different moves.
    let mut sequence = 0u64;
    for round in 0..30 {
        let command_id = format!("same{round}");
        let (ra, rb) = tokio::join!(
            a.command(&id, &token, &command_id, sequence, mv("right")),
            b.command(&id, &token, &command_id, sequence, mv("up")),
        );
        let statuses = [ra.0, rb.0];
        assert_eq!(
            statuses.iter().filter(|s| **s == 200).count(),
            1,
            "round {round}: exactly one node accepts: {ra:?} {rb:?}"
        );
        let loser = if ra.0 == 200 { &rb } else { &ra };
        assert_eq!(
            (loser.0, code(&loser.1)),
            (409, "command_id_reused".into()),
            "round {round}: the loser is told the id is taken, not given the winner's receipt: {loser:?}"
        );
        sequence += 1;
        let (status, v) = a
            .command(
                &id,
                &token,
                &format!("undo{round}"),
                sequence,
                json!({"type": "undo"}),
            )
            .await;
        assert_eq!(status, 200, "{v}");
        sequence += 1;
    }

    // One after the other: A commits, B (behind) gets the same id with another action.
    let (status, _) = a.command(&id, &token, "late", sequence, mv("right")).await;
    assert_eq!(status, 200);
    let (status, v) = b.command(&id, &token, "late", sequence, mv("up")).await;
    assert_eq!((status, code(&v)), (409, "command_id_reused".into()), "{v}");
    // The same id and action on B is the stored receipt, marked as a repeat.
    let response = b
        .http
        .post(b.url(&format!("/api/v1/matches/{id}/commands")))
        .bearer_auth(&token)
        .json(&json!({"commandId": "late", "expectedSequence": sequence, "action": mv("right")}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["turnstile-repeat"], "true");
    sequence += 1;
    assert_eq!(a.sequence(&id, &token).await, sequence);
    assert_eq!(b.sequence(&id, &token).await, sequence);
    a.stop().await;
    b.stop().await;
}

/// Reads until the server closes the connection; `true` if it did (rather than the 20 s read
/// timeout of the test running out, which would mean the connection was kept).
fn closed_by_server(stream: &mut std::net::TcpStream) -> bool {
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut sink = Vec::new();
    match stream.read_to_end(&mut sink) {
        Ok(_) => true,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_are_closed_after_the_header_timeout() {
    let db = Db::sqlite();
    let mut config = common::test_config();
    config.header_read_timeout = std::time::Duration::from_millis(300);
    let s = TestServer::start_with(&db, config).await;
    let addr = s.base.trim_start_matches("http://").to_owned();
    let all_closed = tokio::task::spawn_blocking(move || {
        let mut streams: Vec<std::net::TcpStream> = (0..20)
            .map(|i| {
                let mut stream = std::net::TcpStream::connect(&addr).unwrap();
                // Half a request head, or nothing at all.
                if i % 2 == 0 {
                    let _ = stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n");
                }
                stream
            })
            .collect();
        streams.iter_mut().all(closed_by_server)
    })
    .await
    .unwrap();
    assert!(
        all_closed,
        "every half-open connection was closed by the server"
    );
    // The node still answers.
    let (status, _) = s.get("/healthz", None).await;
    assert_eq!(status, 200);
    s.stop().await;
}

/// A request whose head arrived but whose body stalls is past the header timeout's reach; the
/// idle timeout closes it. A live stream on the same server, quiet but for its keep-alive
/// comments, outlives several idle timeouts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_body_is_closed_after_the_idle_timeout() {
    let db = Db::sqlite();
    let mut config = common::test_config();
    config.idle_timeout = std::time::Duration::from_millis(400);
    let s = TestServer::start_with(&db, config).await;
    let (id, tokens, _) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let stream = s
        .http
        .get(s.url(&format!("/api/v1/matches/{id}/events")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let addr = s.base.trim_start_matches("http://").to_owned();
    let stalled_closed = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream
            .write_all(
                b"POST /api/v1/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"game\":",
            )
            .unwrap();
        closed_by_server(&mut stream)
    })
    .await
    .unwrap();
    assert!(stalled_closed, "the stalled body's connection was closed");
    // The stream, opened before the stall and quiet since, is still live: a command's receipt
    // arrives on it.
    let (status, _) = s.command(&id, &token, "c1", 0, mv("right")).await;
    assert_eq!(status, 200);
    let events = common::read_events(stream, 1, 10).await;
    assert_eq!(events.len(), 1, "the live stream was not closed as idle");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_are_closed_on_accept() {
    let db = Db::sqlite();
    let mut config = common::test_config();
    config.max_connections = 4;
    let s = TestServer::start_with(&db, config).await;
    let addr = s.base.trim_start_matches("http://").to_owned();
    let over_cap_closed = tokio::task::spawn_blocking(move || {
        let held: Vec<std::net::TcpStream> = (0..4)
            .map(|_| std::net::TcpStream::connect(&addr).unwrap())
            .collect();
        // Give the server time to accept the four (a sleep, not an assertion on time).
        std::thread::sleep(std::time::Duration::from_millis(300));
        let mut extra = std::net::TcpStream::connect(&addr).unwrap();
        let closed = closed_by_server(&mut extra);
        drop(held);
        closed
    })
    .await
    .unwrap();
    assert!(over_cap_closed, "the fifth connection was closed at once");
    // With the held connections gone, requests are served again.
    let mut ok = false;
    for _ in 0..100 {
        if s.http
            .get(s.url("/healthz"))
            .send()
            .await
            .map(|r| r.status() == 200)
            .unwrap_or(false)
        {
            ok = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(ok, "/healthz answers once the cap frees");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_beyond_the_per_token_cap_are_refused_with_a_code() {
    let db = Db::sqlite();
    let mut config = common::test_config();
    config.max_streams_per_token = 2;
    let s = TestServer::start_with(&db, config).await;
    let (id, tokens, spectator) = s.create(sokoban()).await;
    let token = tokens[0].clone().unwrap();
    let open = |t: String| {
        let http = s.http.clone();
        let url = s.url(&format!("/api/v1/matches/{id}/events"));
        async move { http.get(url).bearer_auth(t).send().await.unwrap() }
    };
    let first = open(token.clone()).await;
    let second = open(token.clone()).await;
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (200, 200)
    );
    let third = open(token.clone()).await;
    assert_eq!(third.status(), 429);
    let v: Value = third.json().await.unwrap();
    assert_eq!(code(&v), "too_many_streams", "{v}");
    // Another token has its own places.
    assert_eq!(open(spectator.clone()).await.status(), 200);
    // Closing a stream frees its place (once the server notices the client went away).
    drop(first);
    let mut reopened = false;
    for _ in 0..600 {
        let r = open(token.clone()).await;
        if r.status() == 200 {
            reopened = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(reopened, "a closed stream's place is given back");
    drop(second);
    s.stop().await;
}

/// Match configs are refused, not adjusted: clover's stake outside 1..8 (once clamped to 1 or
/// 8) is 400 `invalid_config` naming the field and the range; a Duel `decks` list whose length
/// is not the seat count (once padded or cut) is 422 `deck_count`. Nothing is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn match_configs_out_of_range_are_refused_not_adjusted() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;
    for stake in [0, 99] {
        let (status, v) = s
            .post(
                "/api/v1/matches",
                None,
                &json!({"game": "clover", "config": {"stake": stake, "deck": "plain"}, "seats": [{"kind": "human"}]}),
            )
            .await;
        assert_eq!((status, code(&v).as_str()), (400, "invalid_config"), "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("`stake` is") && message.contains("1 (White) to 8 (Gold)"),
            "{message}"
        );
    }
    let (status, v) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "duel", "config": {"decks": ["ember", "tide", "ember"]}, "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    assert_eq!((status, code(&v).as_str()), (422, "deck_count"), "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("3 deck(s) for 2 seats"),
        "{v}"
    );
    // One deck per seat, or none, is played.
    for config in [json!({"decks": ["tide", "ember"]}), json!({})] {
        let (status, v) = s
            .post(
                "/api/v1/matches",
                None,
                &json!({"game": "duel", "config": config, "seats": [{"kind": "human"}, {"kind": "human"}]}),
            )
            .await;
        assert_eq!(status, 201, "{v}");
    }
    let (status, v) = s
        .post(
            "/api/v1/matches",
            None,
            &json!({"game": "clover", "config": {"stake": 8, "deck": "plain"}, "seats": [{"kind": "human"}]}),
        )
        .await;
    assert_eq!(status, 201, "stake 8 is played: {v}");
    s.stop().await;
}
