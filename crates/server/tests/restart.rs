//! Fast restart: a node listens before its matches are loaded. The store is wrapped so that
//! reading one match's log waits behind a gate the test holds shut (no sleep decides anything):
//! while that match cannot load — in the background resume and on a request that names it —
//! `/healthz` answers, a match loaded already takes commands, and a new match is created and
//! played. Once the gate opens, the held request is answered and the held match goes on.

mod common;

use async_trait::async_trait;
use common::{Db, TestServer};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, watch};
use turnstile_store::{
    AppendOutcome, ContentRecord, LeaseOutcome, LeaseRecord, LogRecord, MatchRecord, MatchStatus,
    Notification, OpenMatch, PutOutcome, RejectionRecord, SeatClaim, SnapshotRecord, Store,
    StoreResult,
};

/// A store whose reads of one match's log wait until the gate opens.
struct Gated {
    inner: Arc<dyn Store>,
    held: String,
    open: watch::Receiver<bool>,
    /// Reads of the held match's log that reached the gate.
    waiting: AtomicUsize,
}

impl Gated {
    async fn pass(&self, match_id: &str) {
        if match_id != self.held {
            return;
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let mut open = self.open.clone();
        let _ = open.wait_for(|o| *o).await;
    }
}

#[async_trait]
impl Store for Gated {
    fn backend(&self) -> &'static str {
        self.inner.backend()
    }
    fn describe(&self) -> String {
        self.inner.describe()
    }
    fn commits(&self) -> u64 {
        self.inner.commits()
    }
    async fn ping(&self) -> StoreResult<()> {
        self.inner.ping().await
    }
    async fn put_content(&self, record: &ContentRecord) -> StoreResult<PutOutcome> {
        self.inner.put_content(record).await
    }
    async fn get_content(&self, game: &str, revision: &str) -> StoreResult<Option<ContentRecord>> {
        self.inner.get_content(game, revision).await
    }
    async fn set_current_revision(&self, game: &str, revision: &str) -> StoreResult<()> {
        self.inner.set_current_revision(game, revision).await
    }
    async fn current_revision(&self, game: &str) -> StoreResult<Option<String>> {
        self.inner.current_revision(game).await
    }
    async fn create_match_with_names(
        &self,
        record: &MatchRecord,
        names: &[(u16, String)],
    ) -> StoreResult<()> {
        self.inner.create_match_with_names(record, names).await
    }
    async fn get_match(&self, match_id: &str) -> StoreResult<Option<MatchRecord>> {
        self.inner.get_match(match_id).await
    }
    async fn find_matches_by_token_hashes(
        &self,
        token_hashes: &[String],
    ) -> StoreResult<Vec<MatchRecord>> {
        self.inner.find_matches_by_token_hashes(token_hashes).await
    }
    async fn set_match_status(
        &self,
        match_id: &str,
        status: MatchStatus,
        outcome: Option<&Value>,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.inner
            .set_match_status(match_id, status, outcome, now_ms)
            .await
    }
    async fn claim_seat(
        &self,
        match_id: &str,
        token_hash: &str,
        name: Option<&str>,
        now_ms: i64,
    ) -> StoreResult<SeatClaim> {
        self.inner
            .claim_seat(match_id, token_hash, name, now_ms)
            .await
    }
    async fn list_open_matches(&self, limit: u32) -> StoreResult<Vec<OpenMatch>> {
        self.inner.list_open_matches(limit).await
    }
    async fn seat_names(&self, match_id: &str) -> StoreResult<Vec<(u16, String)>> {
        self.inner.seat_names(match_id).await
    }
    async fn mark_ready(&self, match_id: &str, seat: u16) -> StoreResult<Vec<u16>> {
        self.inner.mark_ready(match_id, seat).await
    }
    async fn ready_seats(&self, match_id: &str) -> StoreResult<Vec<u16>> {
        self.inner.ready_seats(match_id).await
    }
    async fn list_active_matches(&self) -> StoreResult<Vec<MatchRecord>> {
        self.inner.list_active_matches().await
    }
    async fn archive_idle(&self, idle_before_ms: i64) -> StoreResult<Vec<String>> {
        self.inner.archive_idle(idle_before_ms).await
    }
    async fn append(&self, match_id: &str, record: &LogRecord) -> StoreResult<()> {
        self.inner.append(match_id, record).await
    }
    async fn append_many(
        &self,
        entries: &[(String, LogRecord)],
    ) -> StoreResult<Vec<AppendOutcome>> {
        self.inner.append_many(entries).await
    }
    async fn log(
        &self,
        match_id: &str,
        after_sequence: u64,
        limit: u32,
    ) -> StoreResult<Vec<LogRecord>> {
        self.pass(match_id).await;
        self.inner.log(match_id, after_sequence, limit).await
    }
    async fn command(&self, match_id: &str, command_id: &str) -> StoreResult<Option<LogRecord>> {
        self.inner.command(match_id, command_id).await
    }
    async fn last_sequence(&self, match_id: &str) -> StoreResult<u64> {
        self.inner.last_sequence(match_id).await
    }
    async fn remember_rejection(
        &self,
        match_id: &str,
        record: &RejectionRecord,
    ) -> StoreResult<()> {
        self.inner.remember_rejection(match_id, record).await
    }
    async fn rejection(
        &self,
        match_id: &str,
        command_id: &str,
    ) -> StoreResult<Option<RejectionRecord>> {
        self.inner.rejection(match_id, command_id).await
    }
    async fn put_snapshot(&self, match_id: &str, record: &SnapshotRecord) -> StoreResult<()> {
        self.inner.put_snapshot(match_id, record).await
    }
    async fn latest_snapshot(&self, match_id: &str) -> StoreResult<Option<SnapshotRecord>> {
        self.inner.latest_snapshot(match_id).await
    }
    async fn snapshots(&self, match_id: &str, limit: u32) -> StoreResult<Vec<SnapshotRecord>> {
        self.inner.snapshots(match_id, limit).await
    }
    async fn try_acquire_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<LeaseOutcome> {
        self.inner
            .try_acquire_lease(match_id, node_id, now_ms, ttl_ms, heartbeat_tick)
            .await
    }
    async fn renew_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<Option<LeaseRecord>> {
        self.inner
            .renew_lease(match_id, node_id, now_ms, ttl_ms, heartbeat_tick)
            .await
    }
    async fn release_lease(&self, match_id: &str, node_id: &str) -> StoreResult<bool> {
        self.inner.release_lease(match_id, node_id).await
    }
    async fn lease(&self, match_id: &str) -> StoreResult<Option<LeaseRecord>> {
        self.inner.lease(match_id).await
    }
    fn subscribe(&self) -> broadcast::Receiver<Notification> {
        self.inner.subscribe()
    }
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_answers_while_a_match_is_still_loading() {
    let db = Db::sqlite();
    // Before the restart: a match with a bot seat (resumed in the background at start, since
    // it has a bot to drive) and a one-seat Sokoban match, each with a commit.
    let first = TestServer::start(&db).await;
    let (held, held_tokens, _) = first
        .create(json!({"game": "tictactoe", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}))
        .await;
    let held_token = held_tokens[0].clone().unwrap();
    let cell = |x: u16, y: u16| json!({"type": "mark", "cell": [x, y]});
    let (status, v) = first.command(&held, &held_token, "h1", 0, cell(1, 1)).await;
    assert_eq!(status, 200, "{v}");
    let sokoban = json!({"game": "sokoban", "config": {"collection": "microban", "level": 1}, "seats": [{"kind": "human"}]});
    let (other, other_tokens, _) = first.create(sokoban.clone()).await;
    let other_token = other_tokens[0].clone().unwrap();
    let mv = |d: &str| json!({"type": "move", "direction": d});
    assert_eq!(
        first
            .command(&other, &other_token, "o1", 0, mv("right"))
            .await
            .0,
        200
    );
    first.stop().await;

    // The restart, with the held match's log behind a shut gate.
    let (open, gate) = watch::channel(false);
    let gated = Arc::new(Gated {
        inner: db.open().await,
        held: held.clone(),
        open: gate,
        waiting: AtomicUsize::new(0),
    });
    let store: Arc<dyn Store> = gated.clone();
    let s = TestServer::start_on(store, common::test_config()).await;

    // A request naming the held match waits for it to load.
    let held_request = {
        let http = s.http.clone();
        let url = s.url(&format!("/api/v1/matches/{held}"));
        let token = held_token.clone();
        tokio::spawn(async move {
            let r = http.get(url).bearer_auth(token).send().await.unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        })
    };
    // Both the background resume and that request reach the gate (polled, not timed: this
    // waits for an event, with a bound only so a broken build fails instead of hanging).
    for _ in 0..1000 {
        if gated.waiting.load(Ordering::SeqCst) >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        gated.waiting.load(Ordering::SeqCst) >= 1,
        "the held match's loading reached the gate"
    );

    // Meanwhile the node answers: health, the other match, a new match.
    let (status, health) = s.get("/healthz", None).await;
    assert_eq!(
        (status, health["status"].as_str()),
        (200, Some("ok")),
        "{health}"
    );
    assert_eq!(s.sequence(&other, &other_token).await, 1);
    let (status, v) = s.command(&other, &other_token, "o2", 1, mv("left")).await;
    assert_eq!(status, 200, "the other match takes commands: {v}");
    let (new, new_tokens, _) = s.create(sokoban).await;
    let new_token = new_tokens[0].clone().unwrap();
    let (status, v) = s.command(&new, &new_token, "n1", 0, mv("right")).await;
    assert_eq!(status, 200, "a new match is played: {v}");
    assert!(
        !held_request.is_finished(),
        "the request on the held match is still waiting for its load"
    );

    // The gate opens: the held request is answered and the held match goes on.
    open.send(true).unwrap();
    let (status, snapshot) = held_request.await.unwrap();
    assert_eq!(status, 200, "{snapshot}");
    assert!(snapshot["sequence"].as_u64().unwrap() >= 1, "{snapshot}");
    let (status, v) = s
        .get(
            &format!("/api/v1/matches/{held}/legal-actions"),
            Some(&held_token),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_ne!(code(&v), "internal");
    s.stop().await;
}
