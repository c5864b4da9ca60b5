//! SQLite-only behaviour: the file survives a reopen and a `kill -9`, a missing directory or a
//! newer schema is a clear error, damaged rows are `corrupt`, two handles on one file race
//! safely.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use serde_json::json;
use turnstile_store::*;

#[tokio::test]
async fn a_reopened_file_keeps_everything() {
    let db = SqliteDb::new();
    let c = content("sokoban", "sha256:r1", 1);
    let m = new_match("m", 1_000, &[Some("h1")]);
    {
        let store = db.open().await;
        store.put_content(&c).await.unwrap();
        store
            .set_current_revision("sokoban", "sha256:r1")
            .await
            .unwrap();
        store.create_match(&m).await.unwrap();
        for s in 1..=5 {
            store
                .append("m", &record(s, &format!("c{s}")))
                .await
                .unwrap();
        }
        store
            .remember_rejection(
                "m",
                &RejectionRecord {
                    command_id: "bad".to_owned(),
                    seat: Some(0),
                    action_fingerprint: "f".to_owned(),
                    rejection: json!({"code": "x"}),
                    recorded_at_ms: 1,
                },
            )
            .await
            .unwrap();
        store
            .try_acquire_lease("m", "node", 0, 10, 4)
            .await
            .unwrap();
    }
    let store = db.open().await;
    assert_eq!(
        store.get_content("sokoban", "sha256:r1").await.unwrap(),
        Some(c)
    );
    assert_eq!(
        store.current_revision("sokoban").await.unwrap().as_deref(),
        Some("sha256:r1")
    );
    let mut expected = m.clone();
    expected.last_activity_ms = record(5, "x").recorded_at_ms;
    assert_eq!(store.get_match("m").await.unwrap(), Some(expected));
    assert_eq!(store.log("m", 0, 100).await.unwrap().len(), 5);
    assert!(store.rejection("m", "bad").await.unwrap().is_some());
    assert_eq!(
        store.lease("m").await.unwrap().unwrap().last_heartbeat_tick,
        4
    );
    // Migrations ran once: a third open is just as fine.
    drop(store);
    let store = db.open().await;
    store.append("m", &record(6, "c6")).await.unwrap();
    assert!(store.describe().ends_with("turnstile.db"));
}

#[tokio::test]
async fn a_missing_directory_is_a_clear_unavailable_error() {
    let db = SqliteDb::new();
    let path = db.dir.path().join("no/such/dir/turnstile.db");
    let err = match open(&path.to_string_lossy()).await {
        Ok(_) => panic!("opened a database in a missing directory"),
        Err(e) => e,
    };
    assert_eq!(err.code(), "unavailable");
    assert!(err.to_string().contains("does not exist"), "{err}");
    // A directory where the file should be.
    let err = match open(&db.dir.path().to_string_lossy()).await {
        Ok(_) => panic!("opened a directory as a database"),
        Err(e) => e,
    };
    assert_eq!(err.code(), "unavailable", "{err}");
}

#[tokio::test]
async fn a_newer_schema_is_a_migration_error() {
    let db = SqliteDb::new();
    drop(db.open().await);
    let conn = rusqlite::Connection::open(db.path()).unwrap();
    conn.execute(
        "INSERT INTO turnstile_schema_version (version) VALUES (99)",
        [],
    )
    .unwrap();
    drop(conn);
    let err = match open(&db.path()).await {
        Ok(_) => panic!("opened a database from the future"),
        Err(e) => e,
    };
    assert_eq!(err.code(), "migration");
    assert!(err.to_string().contains("99"), "{err}");
}

#[tokio::test]
async fn damaged_rows_read_as_corrupt() {
    let db = SqliteDb::new();
    let store = db.open().await;
    seed_match(&*store, "m").await;
    store.append("m", &record(1, "c1")).await.unwrap();
    let conn = rusqlite::Connection::open(db.path()).unwrap();
    conn.execute("UPDATE command_log SET receipt = '{not json'", [])
        .unwrap();
    conn.execute("UPDATE matches SET status = 'paused'", [])
        .ok(); // the CHECK refuses it
    drop(conn);
    let err = store.log("m", 0, 10).await.unwrap_err();
    assert_eq!(err.code(), "corrupt", "{err}");
    assert_eq!(
        store.command("m", "c1").await.unwrap_err().code(),
        "corrupt"
    );
    assert_eq!(
        store.get_match("m").await.unwrap().unwrap().status,
        MatchStatus::Active
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_handles_on_one_file_race_safely() {
    let db = SqliteDb::new();
    let a = db.open().await;
    let b = db.open().await;
    seed_match(&*a, "m").await;
    let mut wins = 0;
    for s in 1..=20u64 {
        let (a2, b2) = (Arc::clone(&a), Arc::clone(&b));
        let ta = tokio::spawn(async move { a2.append("m", &record(s, &format!("a{s}"))).await });
        let tb = tokio::spawn(async move { b2.append("m", &record(s, &format!("b{s}"))).await });
        let (ra, rb) = (ta.await.unwrap(), tb.await.unwrap());
        assert!(ra.is_ok() != rb.is_ok(), "round {s}: {ra:?} {rb:?}");
        let loser = ra.err().or(rb.err()).unwrap();
        assert_eq!(loser.conflict().unwrap().uniqueness(), "match_sequence");
        wins += 1;
    }
    assert_eq!(b.last_sequence("m").await.unwrap(), wins);
}

// ----- kill -9 --------------------------------------------------------------------------

const CHILD_ENV: &str = "TURNSTILE_STORE_CRASH_CHILD_DB";
const CRASH_MATCHES: usize = 8;

/// The child half of the crash test: appends in a loop on several matches at once and prints
/// `ack <match> <sequence>` after each acknowledged append. Does nothing in a normal run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crash_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let store = open(&path).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..CRASH_MATCHES {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let m = format!("m{i}");
            let mut s = 1;
            loop {
                store
                    .append(&m, &record(s, &format!("{m}-c{s}")))
                    .await
                    .unwrap();
                println!("ack {m} {s}");
                s += 1;
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

#[tokio::test]
async fn acknowledged_appends_survive_kill_9() {
    let db = SqliteDb::new();
    {
        let store = db.open().await;
        for i in 0..CRASH_MATCHES {
            seed_match(&*store, &format!("m{i}")).await;
        }
    }
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["crash_child", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, db.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut acks: Vec<(String, u64)> = Vec::new();
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            // Only whole lines count: a torn last line was not acknowledged.
            let Some(text) = line.strip_suffix('\n') else {
                break;
            };
            if let Some(rest) = text.strip_prefix("ack ") {
                let (m, s) = rest.split_once(' ').unwrap();
                acks.push((m.to_owned(), s.parse().unwrap()));
            }
        }
        acks
    });
    // Let it run under load, then kill it mid-flight.
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(1_500));
    child.kill().unwrap(); // SIGKILL on Unix
    let status = child.wait().unwrap();
    assert!(!status.success());
    let acks = reader.join().unwrap();
    assert!(
        acks.len() >= 50,
        "the child acknowledged only {} appends in {:?}",
        acks.len(),
        started.elapsed()
    );

    let store = db.open().await;
    let mut acked_max = [0u64; CRASH_MATCHES];
    for (m, s) in &acks {
        let i: usize = m[1..].parse().unwrap();
        acked_max[i] = acked_max[i].max(*s);
    }
    for (i, max) in acked_max.iter().enumerate() {
        let m = format!("m{i}");
        let log = store.log(&m, 0, 1_000_000).await.unwrap();
        assert!(
            log.len() as u64 >= *max,
            "match {m}: acknowledged up to {max}, found {}",
            log.len()
        );
        for (j, r) in log.iter().enumerate() {
            let s = j as u64 + 1;
            assert_eq!(*r, record(s, &format!("{m}-c{s}")), "match {m} record {s}");
        }
    }
    let conn = rusqlite::Connection::open(db.path()).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    eprintln!(
        "kill -9 after {} acknowledged appends: all present and intact",
        acks.len()
    );
}
