//! The server's own command ids (`timeout:`, `bot:`, `clock-resumed:`, `resign:`) cannot be
//! chosen by a client: each is refused with `reserved_command_id`, and the system command that
//! needs the id still happens — a player can suppress neither a timeout, a bot move, a clock
//! resumption nor another seat's resignation.

mod common;

use common::{read_events, Db, TestServer};
use serde_json::{json, Value};

fn drop_in(column: u8) -> Value {
    json!({"type": "drop", "column": column})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_cannot_take_the_servers_command_ids() {
    let db = Db::sqlite();
    let s = TestServer::start(&db).await;

    // A bot's next id, taken first: refused, and the bot still answers under its own id.
    let (id, tokens, _) = s
        .create(json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}))
        .await;
    let token = tokens[0].clone().unwrap();
    for reserved in [
        "bot:1:2",
        "BOT:1:2",
        "timeout:1",
        "clock-resumed:1",
        "resign:1",
    ] {
        let (status, refused) = s.command(&id, &token, reserved, 0, drop_in(3)).await;
        assert_eq!(status, 400, "{reserved}: {refused}");
        assert_eq!(refused["error"]["code"], "reserved_command_id", "{refused}");
        assert_eq!(s.sequence(&id, &token).await, 0, "nothing applied");
    }
    let (status, r) = s.command(&id, &token, "d1", 0, drop_in(3)).await;
    assert_eq!(status, 200, "{r}");
    s.wait_for(&id, &token, 30, |m| m["sequence"] == 2).await;
    let (_, page) = s
        .get(
            &format!("/api/v1/matches/{id}/timeline?after=1"),
            Some(&token),
        )
        .await;
    assert_eq!(page["receipts"][0]["commandId"], "bot:1:2");

    // A timeout's id, taken first: refused, and the turn still times out.
    let (id, tokens, _) = s
        .create(
            json!({"game": "tictactoe", "config": {"turnConfig": "blitz"}, "tickRate": 100,
                       "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
    let token = tokens[0].clone().unwrap();
    let cell = json!({"type": "mark", "cell": [1, 1]});
    let (status, refused) = s.command(&id, &token, "timeout:1", 0, cell).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (400, Some("reserved_command_id"))
    );
    let stream = s
        .http
        .get(s.url(&format!("/api/v1/matches/{id}/events?after=0")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let got = read_events(stream, 1, 10).await;
    assert_eq!(
        got[0].1["commandId"], "timeout:1",
        "the timeout still fired"
    );

    // Another seat's resignation id, taken first by a move: refused; that seat still resigns,
    // under its own id, through the resign route (which refuses a reserved id as well).
    let (id, tokens, _) = s
        .create(json!({"game": "connect4", "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let (status, _) = s.command(&id, &t0, "resign:1", 0, drop_in(0)).await;
    assert_eq!(status, 400);
    let (status, refused) = s
        .post(
            &format!("/api/v1/matches/{id}/resign"),
            Some(&t0),
            &json!({"commandId": "clock-resumed:0"}),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (400, Some("reserved_command_id"))
    );
    let (status, resigned) = s
        .post(
            &format!("/api/v1/matches/{id}/resign"),
            Some(&t1),
            &json!({}),
        )
        .await;
    assert_eq!(status, 200, "{resigned}");
    assert_eq!(resigned["receipt"]["commandId"], "resign:1");
    assert_eq!(resigned["status"], "finished");
    s.stop().await;
}
