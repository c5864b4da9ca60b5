//! `turnstile serve`: the server and web client over SQLite (`./turnstile.db` by default) or
//! PostgreSQL, serving the sample games as `turnstile_samples::registry` registers them —
//! Sokoban, Connect Four, Tic-Tac-Toe, Duel and clover, with their content, bots (`random` for
//! all, `strong` for the m,n,k games and Duel, `greedy` for clover) and system actions.

use crate::exit::Outcome;
use std::sync::Arc;
use turnstile_server::{Rate, Server, ServerConfig};

/// What `turnstile serve` was asked.
pub struct ServeArgs {
    /// Where to listen.
    pub addr: String,
    /// A SQLite path or a `postgres://` URL.
    pub database: String,
    /// The admin token for publishing content over HTTP.
    pub admin_token: Option<String>,
    /// CORS origins (none: CORS off).
    pub cors_origins: Vec<String>,
    /// Commands per second per token (0 = unlimited).
    pub command_rate: u32,
    /// Match creations per minute per client address (0 = unlimited).
    pub create_rate: u32,
    /// Trust `X-Forwarded-For` for client addresses (behind a proxy).
    pub trust_forwarded_for: bool,
    /// This node's id in leases.
    pub node_id: Option<String>,
    /// Development mode: running matches' full state through `GET .../state`.
    pub dev: bool,
    /// Seconds a timed match's clock waits for its people before it starts anyway.
    pub clock_start_wait: u64,
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> Outcome {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::WARN)
        .try_init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return Outcome::input(format!("cannot start the async runtime: {e}")),
    };
    runtime.block_on(async move {
        let store = match turnstile_store::open(&args.database).await {
            Ok(store) => store,
            Err(e) => {
                return Outcome::input(format!("cannot open the database {}: {e}", args.database))
            }
        };
        println!(
            "turnstile: database {} ({})",
            store.describe(),
            store.backend()
        );
        let hints = turnstile_server::Hints::default().with(
            "sokoban",
            std::sync::Arc::new(|view: &serde_json::Value, budget: u64| {
                turnstile_samples::sokoban_hint(view, budget)
                    .map_err(|(code, message)| turnstile_server::HintRefusal { code, message })
            }),
        );
        let config = ServerConfig {
            hints,
            admin_token: args.admin_token,
            cors_origins: args.cors_origins,
            command_rate: if args.command_rate == 0 {
                Rate::UNLIMITED
            } else {
                Rate {
                    per_second: args.command_rate,
                    burst: args.command_rate.saturating_mul(2),
                }
            },
            create_rate: if args.create_rate == 0 {
                Rate::UNLIMITED
            } else {
                Rate {
                    per_second: args.create_rate.div_ceil(60),
                    burst: args.create_rate,
                }
            },
            trust_forwarded_for: args.trust_forwarded_for,
            node_id: args.node_id,
            dev: args.dev,
            clock_start_wait: std::time::Duration::from_secs(args.clock_start_wait),
            ..ServerConfig::default()
        };
        let server =
            match Server::start(turnstile_samples::registry(), Arc::clone(&store), config).await {
                Ok(server) => server,
                Err(e) => return Outcome::input(format!("cannot start the server: {e}")),
            };
        let listener = match tokio::net::TcpListener::bind(&args.addr).await {
            Ok(l) => l,
            Err(e) => return Outcome::input(format!("cannot listen on {}: {e}", args.addr)),
        };
        match listener.local_addr() {
            Ok(addr) => println!(
                "turnstile: listening on http://{addr} (node {})",
                server.node_id()
            ),
            Err(_) => println!("turnstile: listening on {}", args.addr),
        }
        match server.serve(listener, shutdown_signal()).await {
            Ok(()) => Outcome::ok(),
            Err(e) => Outcome::input(format!("the server stopped: {e}")),
        }
    })
}
