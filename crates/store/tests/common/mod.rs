//! Shared helpers of the store tests: sample records, and real databases to run them on — a
//! SQLite file in a temp dir, and a fresh schema on the PostgreSQL server.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use turnstile_store::*;

pub fn content(game: &str, revision: &str, n: i64) -> ContentRecord {
    ContentRecord {
        game: game.to_owned(),
        revision: revision.to_owned(),
        bundle: json!({"levels": [{"id": "l1", "rows": ["#####", "#@$.#"]}], "n": n, "big": 18446744073709551615u64}),
        created_at_ms: 1_000,
    }
}

pub fn new_match(id: &str, created_at_ms: i64, seat_hashes: &[Option<&str>]) -> MatchRecord {
    MatchRecord {
        id: id.to_owned(),
        game: "sokoban".to_owned(),
        config: json!({"collection": "microban", "level": 1}),
        revision: "sha256:r1".to_owned(),
        seed: "0123456789abcdef".to_owned(),
        seats: json!([{"name": "alice"}, {"name": "bot", "bot": "random"}]),
        tick_rate: 10,
        seat_token_hashes: seat_hashes.iter().map(|h| h.map(str::to_owned)).collect(),
        spectator_token_hash: None,
        created_at_ms,
        status: MatchStatus::Active,
        outcome: None,
        last_activity_ms: created_at_ms,
    }
}

pub fn record(sequence: u64, command_id: &str) -> LogRecord {
    LogRecord {
        sequence,
        command_id: command_id.to_owned(),
        tick: sequence * 3,
        envelope: json!({"commandId": command_id, "seat": 0, "expectedSequence": sequence - 1,
                         "action": {"move": "u", "weights": [1, -2, 3]}, "text": "é\"\\\n"}),
        receipt: json!({"sequence": sequence, "hash": format!("sha256:{sequence:064x}"),
                        "events": [{"type": "Moved"}], "after": "sha256:ab"}),
        recorded_at_ms: 10_000 + i64::try_from(sequence).unwrap_or(0),
    }
}

/// Creates the content and a match `id` with no tokens.
pub async fn seed_match(store: &dyn Store, id: &str) {
    let _ = store
        .put_content(&content("sokoban", "sha256:r1", 1))
        .await
        .unwrap();
    store
        .create_match(&new_match(id, 1_000, &[Some("h-a"), None]))
        .await
        .unwrap();
}

// ----- SQLite ----------------------------------------------------------------------------

pub struct SqliteDb {
    pub dir: tempfile::TempDir,
}

impl SqliteDb {
    pub fn new() -> SqliteDb {
        SqliteDb {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> String {
        self.dir
            .path()
            .join("turnstile.db")
            .to_string_lossy()
            .into_owned()
    }

    pub async fn open(&self) -> Arc<dyn Store> {
        open(&self.path()).await.unwrap()
    }
}

// ----- PostgreSQL ------------------------------------------------------------------------

#[allow(unused_imports)] // each test file uses its own part
pub use turnstile_testkit::{pg_url, skip_postgres, unique_suffix, OutageProxy, PgSchema};

/// Opening stores on a test schema.
pub trait SchemaStores {
    /// Options that put a store in this schema.
    fn options(&self) -> OpenOptions;
    /// Opens a store (a "node") on this schema.
    async fn open(&self) -> Arc<dyn Store>;
}

impl SchemaStores for PgSchema {
    fn options(&self) -> OpenOptions {
        OpenOptions {
            postgres: PostgresOptions {
                schema: Some(self.schema.clone()),
                connect_timeout: Duration::from_secs(3),
                ..PostgresOptions::default()
            },
            ..OpenOptions::default()
        }
    }

    async fn open(&self) -> Arc<dyn Store> {
        open_with(&self.url, self.options()).await.unwrap()
    }
}

/// Waits for the next `Commit` of `match_id` (skipping others' and `Gap`s).
pub async fn next_commit(
    rx: &mut tokio::sync::broadcast::Receiver<Notification>,
    match_id: &str,
) -> CommitNotice {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match rx.recv().await {
                Ok(Notification::Commit(n)) if n.match_id == match_id => return n,
                Ok(_) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(e) => panic!("notification channel closed: {e}"),
            }
        }
    })
    .await
    .expect("no commit notification within 10 s")
}
