//! One behaviour suite for every backend: each case takes an `Arc<dyn Store>` and is run
//! against a real SQLite file and against a fresh schema on the real PostgreSQL server.

mod common;

use std::sync::Arc;

use common::*;
use serde_json::json;
use turnstile_store::*;

type Case = fn(Arc<dyn Store>) -> futures::future::BoxFuture<'static, ()>;

/// Generates one SQLite and one PostgreSQL test per case.
macro_rules! suite {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let db = super::SqliteDb::new();
                    let store = db.open().await;
                    assert_eq!(store.backend(), "sqlite");
                    let case: super::Case = |s| Box::pin(super::$case(s));
                    case(store).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    use super::SchemaStores as _;
                    let Some(schema) = super::PgSchema::new("t").await else { return };
                    let store = schema.open().await;
                    assert_eq!(store.backend(), "postgres");
                    let case: super::Case = |s| Box::pin(super::$case(s));
                    case(store).await;
                }
            )*
        }
    };
}

suite!(
    content_round_trip_and_immutability,
    matches_and_token_search_newest_first,
    append_and_log_paging,
    json_appends_store_the_text_as_given,
    sequence_conflicts_leave_the_log_unchanged,
    command_id_conflict_leaves_the_log_unchanged,
    racing_appends_have_exactly_one_winner,
    append_many_isolates_a_conflicting_entry,
    rejections_are_remembered_beside_the_log,
    snapshots_latest_first,
    leases_acquire_renew_expire_take_over,
    commits_are_notified,
    archive_keeps_everything_readable,
    out_of_range_numbers_are_invalid,
    names_given_at_creation_are_kept_beside_claimed_ones,
);

async fn content_round_trip_and_immutability(store: Arc<dyn Store>) {
    let c = content("sokoban", "sha256:r1", 1);
    assert_eq!(
        store.get_content("sokoban", "sha256:r1").await.unwrap(),
        None
    );
    assert_eq!(store.put_content(&c).await.unwrap(), PutOutcome::Inserted);
    assert_eq!(
        store.get_content("sokoban", "sha256:r1").await.unwrap(),
        Some(c.clone())
    );
    // Same bundle again: a no-op (even with another timestamp).
    let mut again = c.clone();
    again.created_at_ms = 99;
    assert_eq!(
        store.put_content(&again).await.unwrap(),
        PutOutcome::AlreadyPresent
    );
    // Different bytes under the same revision: conflict, and the stored bundle stays.
    let err = store
        .put_content(&content("sokoban", "sha256:r1", 2))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "conflict");
    assert_eq!(err.conflict().unwrap().uniqueness(), "content_revision");
    assert_eq!(
        store.get_content("sokoban", "sha256:r1").await.unwrap(),
        Some(c.clone())
    );
    // Same revision string for another game is another bundle.
    assert_eq!(
        store
            .put_content(&content("connect4", "sha256:r1", 2))
            .await
            .unwrap(),
        PutOutcome::Inserted
    );

    // The current revision pointer.
    assert_eq!(store.current_revision("sokoban").await.unwrap(), None);
    let err = store
        .set_current_revision("sokoban", "sha256:nope")
        .await
        .unwrap_err();
    assert_eq!(err.code(), "not_found");
    store
        .put_content(&content("sokoban", "sha256:r2", 3))
        .await
        .unwrap();
    store
        .set_current_revision("sokoban", "sha256:r1")
        .await
        .unwrap();
    assert_eq!(
        store.current_revision("sokoban").await.unwrap().as_deref(),
        Some("sha256:r1")
    );
    store
        .set_current_revision("sokoban", "sha256:r2")
        .await
        .unwrap();
    assert_eq!(
        store.current_revision("sokoban").await.unwrap().as_deref(),
        Some("sha256:r2")
    );
    assert_eq!(store.current_revision("connect4").await.unwrap(), None);
    store.ping().await.unwrap();
}

async fn matches_and_token_search_newest_first(store: Arc<dyn Store>) {
    // A match needs its content stored first.
    let err = store
        .create_match(&new_match("m0", 1, &[]))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "not_found");

    store
        .put_content(&content("sokoban", "sha256:r1", 1))
        .await
        .unwrap();
    let mut a = new_match("a", 1_000, &[Some("h1"), Some("h2")]);
    a.spectator_token_hash = Some("spec".to_owned());
    let b = new_match("b", 3_000, &[Some("h1"), None]);
    let c = new_match("c", 2_000, &[Some("h3"), Some("h1")]);
    let d = new_match("d", 2_000, &[Some("h1"), Some("h1")]); // same created_at as c
    for m in [&a, &b, &c, &d] {
        store.create_match(m).await.unwrap();
    }
    assert_eq!(store.get_match("a").await.unwrap(), Some(a.clone()));
    assert_eq!(store.get_match("b").await.unwrap(), Some(b.clone()));
    assert_eq!(store.get_match("zz").await.unwrap(), None);

    let err = store.create_match(&a).await.unwrap_err();
    assert_eq!(err.conflict().unwrap().uniqueness(), "match_id");

    let ids = |v: Vec<MatchRecord>| v.into_iter().map(|m| m.id).collect::<Vec<_>>();
    // Newest first, ties by id descending, each match once.
    assert_eq!(
        ids(store
            .find_matches_by_token_hashes(&["h1".to_owned()])
            .await
            .unwrap()),
        ["b", "d", "c", "a"]
    );
    assert_eq!(
        ids(store
            .find_matches_by_token_hashes(&["h3".to_owned(), "spec".to_owned(), "none".to_owned()])
            .await
            .unwrap()),
        ["c", "a"]
    );
    assert!(store
        .find_matches_by_token_hashes(&[])
        .await
        .unwrap()
        .is_empty());

    // Status and outcome.
    assert_eq!(
        ids(store.list_active_matches().await.unwrap()),
        ["a", "c", "d", "b"]
    );
    let outcome = json!({"winner": 0, "reason": "solved"});
    store
        .set_match_status("c", MatchStatus::Finished, Some(&outcome), 5_000)
        .await
        .unwrap();
    let got = store.get_match("c").await.unwrap().unwrap();
    assert_eq!(got.status, MatchStatus::Finished);
    assert_eq!(got.outcome, Some(outcome));
    assert_eq!(got.last_activity_ms, 5_000);
    assert_eq!(
        ids(store.list_active_matches().await.unwrap()),
        ["a", "d", "b"]
    );
    let err = store
        .set_match_status("zz", MatchStatus::Finished, None, 1)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "not_found");
}

async fn append_and_log_paging(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    seed_match(&*store, "other").await;
    assert_eq!(store.last_sequence("m").await.unwrap(), 0);
    for s in 1..=25 {
        store
            .append("m", &record(s, &format!("c{s}")))
            .await
            .unwrap();
    }
    store.append("other", &record(1, "c1")).await.unwrap();
    assert_eq!(store.last_sequence("m").await.unwrap(), 25);
    assert_eq!(store.last_sequence("nope").await.unwrap(), 0);

    let page1 = store.log("m", 0, 10).await.unwrap();
    assert_eq!(page1.len(), 10);
    assert_eq!(page1[0], record(1, "c1"));
    assert_eq!(page1[9], record(10, "c10"));
    let page3 = store.log("m", 20, 10).await.unwrap();
    assert_eq!(
        page3.iter().map(|r| r.sequence).collect::<Vec<_>>(),
        [21, 22, 23, 24, 25]
    );
    assert!(store.log("m", 25, 10).await.unwrap().is_empty());
    assert!(store.log("nope", 0, 10).await.unwrap().is_empty());
    let all = store.log("m", 0, 1000).await.unwrap();
    assert_eq!(all.len(), 25);
    for (i, r) in all.iter().enumerate() {
        let s = u64::try_from(i).unwrap() + 1;
        assert_eq!(*r, record(s, &format!("c{s}")));
    }

    assert_eq!(
        store.command("m", "c7").await.unwrap(),
        Some(record(7, "c7"))
    );
    assert_eq!(store.command("m", "c99").await.unwrap(), None);
    assert_eq!(store.command("other", "c7").await.unwrap(), None);

    // The last append raised the match's last activity.
    assert_eq!(
        store
            .get_match("m")
            .await
            .unwrap()
            .unwrap()
            .last_activity_ms,
        record(25, "x").recorded_at_ms
    );

    let err = store.append("nope", &record(1, "c1")).await.unwrap_err();
    assert_eq!(err.code(), "not_found");
}

/// A record whose JSON is text already: the same log as `append` of its values, the same
/// conflicts, and the trait's default (parse, then `append`) agrees with the backend's own.
async fn json_appends_store_the_text_as_given(store: Arc<dyn Store>) {
    fn as_json(r: &LogRecord) -> JsonLogRecord {
        JsonLogRecord {
            sequence: r.sequence,
            command_id: r.command_id.clone(),
            tick: r.tick,
            envelope: serde_json::to_string(&r.envelope).unwrap(),
            receipt: serde_json::to_string(&r.receipt).unwrap(),
            recorded_at_ms: r.recorded_at_ms,
        }
    }
    seed_match(&*store, "m").await;
    seed_match(&*store, "v").await;
    for s in 1..=4 {
        let r = record(s, &format!("c{s}"));
        store.append_json("m", as_json(&r)).await.unwrap();
        store.append("v", &r).await.unwrap();
    }
    assert_eq!(
        store.log("m", 0, 100).await.unwrap(),
        store.log("v", 0, 100).await.unwrap()
    );
    assert_eq!(
        store.command("m", "c3").await.unwrap(),
        Some(record(3, "c3"))
    );
    let err = store
        .append_json("m", as_json(&record(4, "new")))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        StoreError::Conflict(Conflict::Sequence {
            last_sequence: 4,
            ..
        })
    ));
    let err = store
        .append_json("m", as_json(&record(5, "c1")))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        StoreError::Conflict(Conflict::CommandId { .. })
    ));
    assert_eq!(store.last_sequence("m").await.unwrap(), 4);
    // The last append raised the match's last activity, as `append` does.
    assert_eq!(
        store
            .get_match("m")
            .await
            .unwrap()
            .unwrap()
            .last_activity_ms,
        record(4, "x").recorded_at_ms
    );
    assert_eq!(
        store
            .append_json("nope", as_json(&record(1, "c1")))
            .await
            .unwrap_err()
            .code(),
        "not_found"
    );
}

async fn sequence_conflicts_leave_the_log_unchanged(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    for s in 1..=3 {
        store
            .append("m", &record(s, &format!("c{s}")))
            .await
            .unwrap();
    }
    let before = store.log("m", 0, 100).await.unwrap();
    // Taken, a gap, zero, and going back: each is a sequence conflict naming the last one.
    for s in [3, 5, 0, 1] {
        let err = store
            .append("m", &record(s.max(1), &format!("new{s}")).with_sequence(s))
            .await
            .unwrap_err();
        assert_eq!(
            err,
            StoreError::Conflict(Conflict::Sequence {
                match_id: "m".to_owned(),
                sequence: s,
                last_sequence: 3
            }),
            "sequence {s}"
        );
    }
    assert_eq!(store.log("m", 0, 100).await.unwrap(), before);
    assert_eq!(store.command("m", "new3").await.unwrap(), None);
    // The next one still goes in.
    store.append("m", &record(4, "c4")).await.unwrap();
    assert_eq!(store.last_sequence("m").await.unwrap(), 4);
}

trait WithSequence {
    fn with_sequence(self, s: u64) -> Self;
}

impl WithSequence for LogRecord {
    fn with_sequence(mut self, s: u64) -> Self {
        self.sequence = s;
        self
    }
}

async fn command_id_conflict_leaves_the_log_unchanged(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    store.append("m", &record(1, "c1")).await.unwrap();
    store.append("m", &record(2, "c2")).await.unwrap();
    let before = store.log("m", 0, 100).await.unwrap();
    // A reused command id at the next sequence: command id conflict.
    let err = store.append("m", &record(3, "c1")).await.unwrap_err();
    assert_eq!(
        err,
        StoreError::Conflict(Conflict::CommandId {
            match_id: "m".to_owned(),
            command_id: "c1".to_owned()
        })
    );
    assert_eq!(err.code(), "conflict");
    assert_eq!(err.conflict().unwrap().uniqueness(), "match_command_id");
    // Both rules broken: the command id wins (the caller answers with the stored receipt).
    let err = store.append("m", &record(2, "c2")).await.unwrap_err();
    assert_eq!(err.conflict().unwrap().uniqueness(), "match_command_id");
    assert_eq!(store.log("m", 0, 100).await.unwrap(), before);
    // The same id in another match is fine.
    seed_match(&*store, "n").await;
    store.append("n", &record(1, "c1")).await.unwrap();
}

async fn racing_appends_have_exactly_one_winner(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    race_rounds(&store, &store, "m", 30).await;
}

/// Two writers (tasks; or two nodes) race for each sequence: exactly one wins each round, the
/// loser gets a sequence conflict, the log has no gaps and only winners.
pub async fn race_rounds(a: &Arc<dyn Store>, b: &Arc<dyn Store>, match_id: &str, rounds: u64) {
    let start = a.last_sequence(match_id).await.unwrap();
    let mut winners = Vec::new();
    for s in start + 1..=start + rounds {
        let (a2, b2, m1, m2) = (
            Arc::clone(a),
            Arc::clone(b),
            match_id.to_owned(),
            match_id.to_owned(),
        );
        let barrier = Arc::new(tokio::sync::Barrier::new(2));
        let (ba, bb) = (Arc::clone(&barrier), Arc::clone(&barrier));
        let ta = tokio::spawn(async move {
            ba.wait().await;
            a2.append(&m1, &record(s, &format!("a{s}"))).await
        });
        let tb = tokio::spawn(async move {
            bb.wait().await;
            b2.append(&m2, &record(s, &format!("b{s}"))).await
        });
        let (ra, rb) = (ta.await.unwrap(), tb.await.unwrap());
        match (&ra, &rb) {
            (Ok(()), Err(e)) | (Err(e), Ok(())) => {
                assert_eq!(e.conflict().unwrap().uniqueness(), "match_sequence", "{e}");
            }
            other => panic!("round {s}: expected exactly one winner, got {other:?}"),
        }
        winners.push(if ra.is_ok() {
            format!("a{s}")
        } else {
            format!("b{s}")
        });
    }
    let log = a.log(match_id, start, 10_000).await.unwrap();
    assert_eq!(
        log.iter().map(|r| r.command_id.clone()).collect::<Vec<_>>(),
        winners
    );
    for (i, r) in log.iter().enumerate() {
        assert_eq!(r.sequence, start + 1 + u64::try_from(i).unwrap());
    }
}

async fn append_many_isolates_a_conflicting_entry(store: Arc<dyn Store>) {
    for m in ["a", "b", "c"] {
        seed_match(&*store, m).await;
    }
    let mut rx = store.subscribe();
    store.append("b", &record(1, "b1")).await.unwrap();
    let entries = vec![
        ("c".to_owned(), record(1, "c1")),
        ("a".to_owned(), record(1, "a1")),
        ("b".to_owned(), record(1, "b1-again")), // sequence 1 of b is taken
        ("a".to_owned(), record(2, "a2")),       // follows a1 in the same batch
        ("nope".to_owned(), record(1, "x")),     // unknown match
        ("c".to_owned(), record(2, "c1")),       // command id reused within the batch
    ];
    let outcomes = store.append_many(&entries).await.unwrap();
    assert_eq!(outcomes.len(), entries.len());
    assert_eq!(outcomes[0], Ok(()));
    assert_eq!(outcomes[1], Ok(()));
    assert_eq!(
        outcomes[2]
            .as_ref()
            .unwrap_err()
            .conflict()
            .unwrap()
            .uniqueness(),
        "match_sequence"
    );
    assert_eq!(outcomes[3], Ok(()));
    assert_eq!(outcomes[4].as_ref().unwrap_err().code(), "not_found");
    assert_eq!(
        outcomes[5]
            .as_ref()
            .unwrap_err()
            .conflict()
            .unwrap()
            .uniqueness(),
        "match_command_id"
    );
    let ids = |v: Vec<LogRecord>| v.into_iter().map(|r| r.command_id).collect::<Vec<_>>();
    assert_eq!(ids(store.log("a", 0, 10).await.unwrap()), ["a1", "a2"]);
    assert_eq!(ids(store.log("b", 0, 10).await.unwrap()), ["b1"]);
    assert_eq!(ids(store.log("c", 0, 10).await.unwrap()), ["c1"]);
    // Committed entries (and only those) are notified, in some order (b1 by its append).
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < 4 {
        match tokio::time::timeout(std::time::Duration::from_secs(10), rx.recv())
            .await
            .expect("no notification within 10 s")
        {
            Ok(Notification::Commit(n)) => assert!(seen.insert((n.match_id, n.sequence))),
            other => panic!("unexpected {other:?}"),
        }
    }
    let expected = [("a", 1), ("a", 2), ("b", 1), ("c", 1)].map(|(m, s)| (m.to_owned(), s));
    assert_eq!(seen, expected.into_iter().collect());
    assert!(store.append_many(&[]).await.unwrap().is_empty());
}

async fn rejections_are_remembered_beside_the_log(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    let r = RejectionRecord {
        command_id: "bad1".to_owned(),
        seat: Some(1),
        action_fingerprint: "sha256:act".to_owned(),
        rejection: json!({"code": "not_your_turn", "message": "wait"}),
        recorded_at_ms: 7,
    };
    assert_eq!(store.rejection("m", "bad1").await.unwrap(), None);
    store.remember_rejection("m", &r).await.unwrap();
    assert_eq!(store.rejection("m", "bad1").await.unwrap(), Some(r.clone()));
    // Remembered once; a second is a conflict and the first stays.
    let mut other = r.clone();
    other.rejection = json!({"code": "other"});
    let err = store.remember_rejection("m", &other).await.unwrap_err();
    assert_eq!(err.conflict().unwrap().uniqueness(), "rejection_command_id");
    assert_eq!(store.rejection("m", "bad1").await.unwrap(), Some(r.clone()));
    // A system command has no seat.
    let sys = RejectionRecord {
        command_id: "timeout:3".to_owned(),
        seat: None,
        ..r.clone()
    };
    store.remember_rejection("m", &sys).await.unwrap();
    assert_eq!(store.rejection("m", "timeout:3").await.unwrap(), Some(sys));
    // Not in the log.
    assert_eq!(store.last_sequence("m").await.unwrap(), 0);
    assert_eq!(store.command("m", "bad1").await.unwrap(), None);
    let err = store.remember_rejection("nope", &r).await.unwrap_err();
    assert_eq!(err.code(), "not_found");
}

async fn snapshots_latest_first(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    assert_eq!(store.latest_snapshot("m").await.unwrap(), None);
    let snap = |s: u64| SnapshotRecord {
        sequence: s,
        tick: s * 3,
        state_fingerprint: format!("sha256:state{s}"),
        last_receipt_hash: (s > 0).then(|| format!("sha256:receipt{s}")),
        state: json!({"player": [1, s], "boxes": [[2, 3]]}),
    };
    for s in [0, 20, 10] {
        store.put_snapshot("m", &snap(s)).await.unwrap();
    }
    assert_eq!(store.latest_snapshot("m").await.unwrap(), Some(snap(20)));
    assert_eq!(
        store.snapshots("m", 10).await.unwrap(),
        vec![snap(20), snap(10), snap(0)]
    );
    assert_eq!(
        store.snapshots("m", 2).await.unwrap(),
        vec![snap(20), snap(10)]
    );
    // A second snapshot at the same sequence (another node's) is ignored.
    let mut dup = snap(20);
    dup.state = json!({"different": true});
    store.put_snapshot("m", &dup).await.unwrap();
    assert_eq!(store.latest_snapshot("m").await.unwrap(), Some(snap(20)));
    assert_eq!(store.latest_snapshot("nope").await.unwrap(), None);
    let err = store.put_snapshot("nope", &snap(1)).await.unwrap_err();
    assert_eq!(err.code(), "not_found");
}

async fn leases_acquire_renew_expire_take_over(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    let lease = |node: &str, expires: i64, tick: u64| LeaseRecord {
        match_id: "m".to_owned(),
        node_id: node.to_owned(),
        expires_at_ms: expires,
        last_heartbeat_tick: tick,
    };
    assert_eq!(store.lease("m").await.unwrap(), None);
    // Free: acquired, nothing to resume from.
    assert_eq!(
        store
            .try_acquire_lease("m", "A", 1_000, 100, 5)
            .await
            .unwrap(),
        LeaseOutcome::Acquired {
            lease: lease("A", 1_100, 5),
            previous: None
        }
    );
    // Held by A: B is refused and told who holds it.
    assert_eq!(
        store
            .try_acquire_lease("m", "B", 1_050, 100, 9)
            .await
            .unwrap(),
        LeaseOutcome::Held(lease("A", 1_100, 5))
    );
    // Only the holder renews.
    assert_eq!(
        store.renew_lease("m", "B", 1_060, 100, 9).await.unwrap(),
        None
    );
    assert_eq!(
        store.renew_lease("m", "A", 1_080, 100, 7).await.unwrap(),
        Some(lease("A", 1_180, 7))
    );
    // A re-acquiring its running lease: no resume.
    assert_eq!(
        store
            .try_acquire_lease("m", "A", 1_090, 100, 7)
            .await
            .unwrap(),
        LeaseOutcome::Acquired {
            lease: lease("A", 1_190, 7),
            previous: None
        }
    );
    // Still held exactly at the boundary minus one; expired at it.
    assert!(matches!(
        store
            .try_acquire_lease("m", "B", 1_189, 100, 20)
            .await
            .unwrap(),
        LeaseOutcome::Held(_)
    ));
    // Expired: B takes over and learns A's last heartbeat tick (for ClockResumed).
    assert_eq!(
        store
            .try_acquire_lease("m", "B", 1_190, 100, 20)
            .await
            .unwrap(),
        LeaseOutcome::Acquired {
            lease: lease("B", 1_290, 20),
            previous: Some(lease("A", 1_190, 7))
        }
    );
    // A lost it: cannot renew, cannot take it back while B's runs, cannot release it.
    assert_eq!(
        store.renew_lease("m", "A", 1_200, 100, 8).await.unwrap(),
        None
    );
    assert!(matches!(
        store
            .try_acquire_lease("m", "A", 1_200, 100, 8)
            .await
            .unwrap(),
        LeaseOutcome::Held(_)
    ));
    assert!(!store.release_lease("m", "A").await.unwrap());
    // B releases: expires at once, keeps its heartbeat tick; B cannot renew a released lease.
    assert!(store.release_lease("m", "B").await.unwrap());
    assert_eq!(store.lease("m").await.unwrap(), Some(lease("B", 0, 20)));
    assert!(!store.release_lease("m", "B").await.unwrap());
    assert_eq!(
        store.renew_lease("m", "B", 1_210, 100, 21).await.unwrap(),
        None
    );
    // The next holder still resumes the clock from B's last heartbeat.
    assert_eq!(
        store
            .try_acquire_lease("m", "A", 1_220, 100, 30)
            .await
            .unwrap(),
        LeaseOutcome::Acquired {
            lease: lease("A", 1_320, 30),
            previous: Some(lease("B", 0, 20))
        }
    );
    let err = store
        .try_acquire_lease("nope", "A", 0, 1, 0)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "not_found");
}

async fn commits_are_notified(store: Arc<dyn Store>) {
    seed_match(&*store, "m:1").await;
    let mut rx = store.subscribe();
    for s in 1..=3 {
        store
            .append("m:1", &record(s, &format!("c{s}")))
            .await
            .unwrap();
    }
    for s in 1..=3 {
        assert_eq!(
            next_commit(&mut rx, "m:1").await,
            CommitNotice {
                match_id: "m:1".to_owned(),
                sequence: s
            }
        );
    }
    // A refused append notifies nothing: the next notice is the next commit.
    assert!(store.append("m:1", &record(3, "again")).await.is_err());
    store.append("m:1", &record(4, "c4")).await.unwrap();
    assert_eq!(next_commit(&mut rx, "m:1").await.sequence, 4);
}

async fn archive_keeps_everything_readable(store: Arc<dyn Store>) {
    store
        .put_content(&content("sokoban", "sha256:r1", 1))
        .await
        .unwrap();
    store
        .create_match(&new_match("old", 100, &[Some("t-old")]))
        .await
        .unwrap();
    store
        .create_match(&new_match("new", 100, &[]))
        .await
        .unwrap();
    store
        .create_match(&new_match("done", 100, &[]))
        .await
        .unwrap();
    store.append("old", &record(1, "c1")).await.unwrap(); // activity 10_001
    store.append("new", &record(1, "c1")).await.unwrap();
    store.append("new", &record(2, "c2")).await.unwrap(); // activity 10_002
    store
        .set_match_status(
            "done",
            MatchStatus::Finished,
            Some(&json!({"draw": true})),
            500,
        )
        .await
        .unwrap();
    store
        .put_snapshot(
            "old",
            &SnapshotRecord {
                sequence: 1,
                tick: 3,
                state_fingerprint: "f".to_owned(),
                last_receipt_hash: None,
                state: json!({}),
            },
        )
        .await
        .unwrap();

    assert_eq!(store.archive_idle(100).await.unwrap(), Vec::<String>::new());
    assert_eq!(store.archive_idle(10_002).await.unwrap(), ["done", "old"]);
    assert_eq!(
        store.archive_idle(10_002).await.unwrap(),
        Vec::<String>::new()
    );

    let old = store.get_match("old").await.unwrap().unwrap();
    assert_eq!(old.status, MatchStatus::Archived);
    let done = store.get_match("done").await.unwrap().unwrap();
    assert_eq!(done.status, MatchStatus::Archived);
    assert_eq!(done.outcome, Some(json!({"draw": true})));
    assert_eq!(
        store.log("old", 0, 10).await.unwrap(),
        vec![record(1, "c1")]
    );
    assert!(store.latest_snapshot("old").await.unwrap().is_some());
    assert!(store
        .get_content("sokoban", "sha256:r1")
        .await
        .unwrap()
        .is_some());
    assert_eq!(
        store
            .find_matches_by_token_hashes(&["t-old".to_owned()])
            .await
            .unwrap()
            .len(),
        1
    );
    let active: Vec<String> = store
        .list_active_matches()
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(active, ["new"]);
}

async fn out_of_range_numbers_are_invalid(store: Arc<dyn Store>) {
    seed_match(&*store, "m").await;
    let err = store
        .append("m", &record(1, "c1").with_sequence(u64::MAX))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "invalid");
    let mut r = record(1, "c1");
    r.tick = u64::from(u32::MAX) << 33;
    assert_eq!(store.append("m", &r).await.unwrap_err().code(), "invalid");
    assert_eq!(store.last_sequence("m").await.unwrap(), 0);
    // The largest storable tick round-trips.
    let mut r = record(1, "c1");
    r.tick = u64::try_from(i64::MAX).unwrap();
    store.append("m", &r).await.unwrap();
    assert_eq!(store.command("m", "c1").await.unwrap(), Some(r));
}

/// The display names a creator gives seats are stored with the match, in its transaction, and
/// read back beside the name a joiner gives when claiming an open seat; a match created without
/// names has none, and a refused creation (an id taken) leaves no names behind.
async fn names_given_at_creation_are_kept_beside_claimed_ones(store: Arc<dyn Store>) {
    store
        .put_content(&content("sokoban", "sha256:r1", 1))
        .await
        .unwrap();
    // seat 0 a named human with a token, seat 1 open for a person to join
    let mut m = new_match("named", 1_000, &[Some("h0"), None]);
    m.seats = json!([{"kind": "human"}, {"kind": "human"}]);
    store
        .create_match_with_names(&m, &[(0, "Ada".to_owned())])
        .await
        .unwrap();
    assert_eq!(
        store.seat_names("named").await.unwrap(),
        vec![(0, "Ada".to_owned())]
    );
    assert_eq!(store.get_match("named").await.unwrap(), Some(m.clone()));
    // the joiner's name joins the creator's, in seat order
    let claim = store
        .claim_seat("named", "h1", Some("Grace"), 2_000)
        .await
        .unwrap();
    assert_eq!(claim, SeatClaim::Claimed(1));
    assert_eq!(
        store.seat_names("named").await.unwrap(),
        vec![(0, "Ada".to_owned()), (1, "Grace".to_owned())]
    );
    // the same id again is refused and changes no name
    let err = store
        .create_match_with_names(&m, &[(0, "Mallory".to_owned())])
        .await
        .unwrap_err();
    assert_eq!(err.conflict().unwrap().uniqueness(), "match_id");
    assert_eq!(
        store.seat_names("named").await.unwrap(),
        vec![(0, "Ada".to_owned()), (1, "Grace".to_owned())]
    );
    // without names (create_match): none
    store
        .create_match(&new_match("plain", 3_000, &[Some("h2")]))
        .await
        .unwrap();
    assert_eq!(store.seat_names("plain").await.unwrap(), vec![]);
}
