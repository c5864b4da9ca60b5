//! Shared helpers of the server tests: the real databases (a SQLite file in a temp dir, a
//! fresh schema on the PostgreSQL server), the games registered the way a binary would, a
//! server on a loopback port, and a small HTTP client.

#![allow(dead_code)]

pub mod vault;

use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use turnstile_runtime::GameRegistry;
use turnstile_server::{Rate, Server, ServerConfig};
use turnstile_store::{OpenOptions, PostgresOptions, Store};

pub const ADMIN: &str = "admin-secret";

#[allow(unused_imports)] // the property test uses it
pub use turnstile_samples::sokoban_source;

/// The sample games as the binary registers them, plus Vault, the hidden-information test
/// game.
pub fn registry() -> GameRegistry {
    let mut registry = turnstile_samples::registry();
    registry
        .register::<vault::Vault>()
        .with_content(vault::source())
        .with_default_config(vault::VaultConfig::default())
        .with_resign(|_| vault::VaultAction::Resign);
    registry
}

pub fn test_config() -> ServerConfig {
    ServerConfig {
        admin_token: Some(ADMIN.into()),
        command_rate: Rate::UNLIMITED,
        create_rate: Rate::UNLIMITED,
        lease_ttl: Duration::from_secs(3),
        heartbeat_every: Duration::from_millis(500),
        ..ServerConfig::default()
    }
}

#[allow(unused_imports)] // each test file uses its own part
pub use turnstile_testkit::{pg_url, skip_postgres, OutageProxy, PgSchema};

/// A real database: a SQLite file in a temp dir, or a fresh PostgreSQL schema (dropped after).
pub enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(PgSchema),
}

impl Db {
    pub fn sqlite() -> Db {
        Db::Sqlite(tempfile::tempdir().unwrap())
    }

    /// A fresh schema; `None` when `TURNSTILE_SKIP_POSTGRES=1`.
    pub async fn postgres() -> Option<Db> {
        PgSchema::new("srv").await.map(Db::Postgres)
    }

    pub fn path(&self) -> String {
        match self {
            Db::Sqlite(dir) => dir
                .path()
                .join("turnstile.db")
                .to_string_lossy()
                .into_owned(),
            Db::Postgres(pg) => pg.url.clone(),
        }
    }

    /// Opens this database through another URL (a proxy in front of PostgreSQL).
    pub async fn open_url(&self, url: &str) -> Arc<dyn Store> {
        match self {
            Db::Sqlite(_) => self.open().await,
            Db::Postgres(pg) => turnstile_store::open_with(
                url,
                OpenOptions {
                    postgres: PostgresOptions {
                        schema: Some(pg.schema.clone()),
                        connect_timeout: Duration::from_secs(2),
                        ..PostgresOptions::default()
                    },
                    ..OpenOptions::default()
                },
            )
            .await
            .unwrap(),
        }
    }

    pub async fn open(&self) -> Arc<dyn Store> {
        match self {
            Db::Sqlite(_) => turnstile_store::open(&self.path()).await.unwrap(),
            Db::Postgres(pg) => turnstile_store::open_with(
                &pg.url,
                OpenOptions {
                    postgres: PostgresOptions {
                        schema: Some(pg.schema.clone()),
                        connect_timeout: Duration::from_secs(3),
                        ..PostgresOptions::default()
                    },
                    ..OpenOptions::default()
                },
            )
            .await
            .unwrap(),
        }
    }
}

/// A server on a loopback port.
pub struct TestServer {
    pub base: String,
    pub server: Server,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    pub http: reqwest::Client,
}

impl TestServer {
    pub async fn start(db: &Db) -> TestServer {
        Self::start_with(db, test_config()).await
    }

    pub async fn start_with(db: &Db, config: ServerConfig) -> TestServer {
        Self::start_on(db.open().await, config).await
    }

    pub async fn start_on(store: Arc<dyn Store>, config: ServerConfig) -> TestServer {
        let server = Server::start(registry(), store, config).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = server.clone();
        let task = tokio::spawn(async move {
            let _ = serving
                .serve(listener, async move {
                    let _ = stopped.await;
                })
                .await;
        });
        TestServer {
            base,
            server,
            stop: Some(stop),
            task: Some(task),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
        }
    }

    /// Stops serving and releases the node's leases.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut request = self.http.get(self.url(path));
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        self.post_raw(path, token, serde_json::to_vec(body).unwrap())
            .await
    }

    pub async fn post_raw(&self, path: &str, token: Option<&str>, body: Vec<u8>) -> (u16, Value) {
        let mut request = self
            .http
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body);
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// Creates a match; returns (id, seat tokens, spectator token).
    pub async fn create(&self, body: Value) -> (String, Vec<Option<String>>, String) {
        let (status, created) = self.post("/api/v1/matches", None, &body).await;
        assert_eq!(status, 201, "{created}");
        let tokens = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().map(str::to_owned))
            .collect();
        (
            created["matchId"].as_str().unwrap().to_owned(),
            tokens,
            created["spectatorToken"].as_str().unwrap().to_owned(),
        )
    }

    pub async fn command(
        &self,
        id: &str,
        token: &str,
        command_id: &str,
        expected: u64,
        action: Value,
    ) -> (u16, Value) {
        self.post(
            &format!("/api/v1/matches/{id}/commands"),
            Some(token),
            &json!({ "commandId": command_id, "expectedSequence": expected, "action": action }),
        )
        .await
    }

    pub async fn sequence(&self, id: &str, token: &str) -> u64 {
        let (status, m) = self
            .get(&format!("/api/v1/matches/{id}"), Some(token))
            .await;
        assert_eq!(status, 200, "{m}");
        m["sequence"].as_u64().unwrap()
    }

    /// Waits until `check` holds for the match snapshot, or panics after `secs`.
    pub async fn wait_for(
        &self,
        id: &str,
        token: &str,
        secs: u64,
        check: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let (status, m) = self
                .get(&format!("/api/v1/matches/{id}"), Some(token))
                .await;
            assert_eq!(status, 200, "{m}");
            if check(&m) {
                return m;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "condition not reached: {m}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Reads SSE events from a streaming response until `n` events arrived (or `secs` passed):
/// `(id, data)` pairs.
pub async fn read_events(response: reqwest::Response, n: usize, secs: u64) -> Vec<(u64, Value)> {
    use futures::StreamExt;
    let mut stream = response.bytes_stream();
    let mut buffer = String::new();
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while events.len() < n {
        let chunk = match tokio::time::timeout_at(deadline, stream.next()).await {
            Ok(Some(Ok(chunk))) => chunk,
            _ => break,
        };
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer[..end].to_owned();
            buffer.drain(..end + 2);
            let mut id = None;
            let mut data = String::new();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("id:") {
                    id = v.trim().parse().ok();
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push_str(v.trim_start());
                }
            }
            if let Some(id) = id {
                events.push((id, serde_json::from_str(&data).unwrap_or(Value::Null)));
            }
        }
    }
    events
}

/// Runs `body` against SQLite and against PostgreSQL, as two tests.
#[macro_export]
macro_rules! on_both_backends {
    ($name:ident, $body:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = $crate::common::Db::sqlite();
                super::$body(db).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(db) = $crate::common::Db::postgres().await else {
                    return;
                };
                super::$body(db).await;
            }
        }
    };
}
