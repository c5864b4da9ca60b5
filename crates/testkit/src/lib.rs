//! What the storage and server tests share, so there is one way to reach the real databases:
//! the PostgreSQL test server's URL, a fresh schema on it per test (dropped afterwards), unique
//! names, and [`OutageProxy`], a TCP proxy in front of the server that a test cuts to play an
//! outage without touching the shared server.
//!
//! A dev-dependency only. It must never depend on a Turnstile crate: the store tests use it,
//! and a dev-dependency cycle would give them a second, incompatible copy of the store's types.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// The PostgreSQL server the tests use: `TURNSTILE_TEST_POSTGRES`, else the project's standard
/// `postgres://postgres@127.0.0.1:5432/test`.
pub fn pg_url() -> String {
    std::env::var("TURNSTILE_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// Whether `TURNSTILE_SKIP_POSTGRES=1` asks to skip the PostgreSQL tests (they fail otherwise
/// when the server is unreachable, so a missing database is never a silent pass).
pub fn skip_postgres() -> bool {
    std::env::var("TURNSTILE_SKIP_POSTGRES").is_ok_and(|v| v == "1")
}

/// A name no other test of any process running now uses (process id, time, a counter).
pub fn unique_suffix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000_000,
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// A fresh schema on the test server, named `<prefix>_<unique suffix>`, dropped (with
/// everything in it) when this is dropped.
#[derive(Debug)]
pub struct PgSchema {
    /// The server's URL.
    pub url: String,
    /// The schema's name.
    pub schema: String,
}

impl PgSchema {
    /// Creates the schema; panics if PostgreSQL is unreachable, or returns `None` when
    /// [`skip_postgres`].
    pub async fn new(prefix: &str) -> Option<PgSchema> {
        if skip_postgres() {
            eprintln!("TURNSTILE_SKIP_POSTGRES=1: skipping a PostgreSQL test");
            return None;
        }
        let url = pg_url();
        let schema = format!("{prefix}_{}", unique_suffix());
        let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "PostgreSQL at {url} is unreachable ({e}); start it, or set \
                     TURNSTILE_SKIP_POSTGRES=1 to skip the PostgreSQL tests"
                )
            });
        let driver = tokio::spawn(conn);
        client
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .unwrap_or_else(|e| panic!("CREATE SCHEMA {schema}: {e}"));
        drop(client);
        let _ = driver.await;
        Some(PgSchema { url, schema })
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let (url, schema) = (self.url.clone(), self.schema.clone());
        // Drop may run inside a runtime, which can't block on another: clean up on a thread
        // with a runtime of its own.
        let _ = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async move {
                if let Ok((client, conn)) =
                    tokio_postgres::connect(&url, tokio_postgres::NoTls).await
                {
                    let driver = tokio::spawn(conn);
                    let _ = client
                        .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
                        .await;
                    drop(client);
                    let _ = driver.await;
                }
            });
        })
        .join();
    }
}

/// A TCP proxy on loopback in front of the PostgreSQL test server at 127.0.0.1:5432: stores
/// opened through [`OutageProxy::url`] lose the database when [`OutageProxy::cut`] is called,
/// and get it back when a new proxy is started on the same port.
pub struct OutageProxy {
    /// The loopback port it listens on.
    pub port: u16,
    connections: Arc<Mutex<JoinSet<()>>>,
    acceptor: Option<tokio::task::JoinHandle<()>>,
}

impl OutageProxy {
    /// Starts on `port` (0: any free one).
    pub async fn start(port: u16) -> OutageProxy {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .unwrap_or_else(|e| panic!("bind 127.0.0.1:{port}: {e}"));
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
        let connections = Arc::new(Mutex::new(JoinSet::new()));
        let conns = Arc::clone(&connections);
        let acceptor = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if let Ok(mut set) = conns.lock() {
                    set.spawn(async move {
                        if let Ok(mut outbound) = TcpStream::connect("127.0.0.1:5432").await {
                            let _ =
                                tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                        }
                    });
                }
            }
        });
        OutageProxy {
            port,
            connections,
            acceptor: Some(acceptor),
        }
    }

    /// Whether the test server can be proxied (the proxy forwards to 127.0.0.1:5432 only).
    pub fn usable() -> bool {
        pg_url().contains("127.0.0.1:5432")
    }

    /// `url` with its host and port replaced by this proxy's.
    pub fn url(&self, url: &str) -> String {
        url.replace("127.0.0.1:5432", &format!("127.0.0.1:{}", self.port))
    }

    /// Refuses new connections and drops every open one.
    pub async fn cut(&mut self) {
        if let Some(a) = self.acceptor.take() {
            a.abort();
            let _ = a.await;
        }
        if let Ok(mut set) = self.connections.lock() {
            set.abort_all();
        }
    }
}
