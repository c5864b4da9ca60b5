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
    /// The admin token for publishing content over HTTP, from `--admin-token` (visible in
    /// `ps`).
    pub admin_token: Option<String>,
    /// `--admin-token-file`: a file holding the admin token.
    pub admin_token_file: Option<std::path::PathBuf>,
    /// The value of [`ADMIN_TOKEN_ENV`], if set.
    pub admin_token_env: Option<std::ffi::OsString>,
    /// `--header-timeout` seconds.
    pub header_timeout: u64,
    /// `--idle-timeout` seconds.
    pub idle_timeout: u64,
    /// `--max-connections`.
    pub max_connections: usize,
    /// `--streams-per-token`.
    pub streams_per_token: usize,
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

/// The environment variable that may hold the admin token (not visible in `ps`, unlike
/// `--admin-token`).
pub const ADMIN_TOKEN_ENV: &str = "TURNSTILE_ADMIN_TOKEN";

/// The admin token from exactly one of `--admin-token`, `--admin-token-file` and
/// [`ADMIN_TOKEN_ENV`] (none: publishing off). Two sources are refused rather than one chosen
/// silently; a file is read whole, its one trailing line break dropped; an empty token, an
/// unreadable file or a value that is not UTF-8 is refused, naming where it came from.
fn admin_token(args: &ServeArgs) -> Result<Option<String>, String> {
    let mut sources = Vec::new();
    if let Some(token) = &args.admin_token {
        sources.push(("--admin-token", token.clone()));
    }
    if let Some(path) = &args.admin_token_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "--admin-token-file {}: cannot read the admin token: {e}",
                path.display()
            )
        })?;
        let token = text
            .strip_suffix('\n')
            .map(|t| t.strip_suffix('\r').unwrap_or(t))
            .unwrap_or(&text);
        if token.contains('\n') {
            return Err(format!(
                "--admin-token-file {}: the file has more than one line; it must hold the token alone",
                path.display()
            ));
        }
        sources.push(("--admin-token-file", token.to_owned()));
    }
    if let Some(value) = &args.admin_token_env {
        let token = value
            .to_str()
            .ok_or_else(|| format!("{ADMIN_TOKEN_ENV} is not valid UTF-8"))?;
        sources.push((ADMIN_TOKEN_ENV, token.to_owned()));
    }
    match sources.as_slice() {
        [] => Ok(None),
        [(from, token)] => {
            if token.trim().is_empty() {
                Err(format!(
                    "the admin token from {from} is empty; give one, or none to turn publishing off"
                ))
            } else {
                Ok(Some(token.clone()))
            }
        }
        many => Err(format!(
            "the admin token is given {} ways ({}); give it one way",
            many.len(),
            many.iter()
                .map(|(from, _)| *from)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The longest header or idle timeout `serve` takes: a day (longer is a mistake, not a limit).
const MAX_TIMEOUT_SECS: u64 = 86_400;

/// The connection limits as flags name them: each at least 1, timeouts at most a day.
fn check_limits(args: &ServeArgs) -> Result<(), String> {
    for (flag, value, what) in [
        (
            "--header-timeout",
            args.header_timeout,
            "seconds a client has to send a request head",
        ),
        (
            "--idle-timeout",
            args.idle_timeout,
            "seconds a connection may stay silent",
        ),
        (
            "--max-connections",
            u64::try_from(args.max_connections).unwrap_or(u64::MAX),
            "connections open at once",
        ),
        (
            "--streams-per-token",
            u64::try_from(args.streams_per_token).unwrap_or(u64::MAX),
            "live streams per token",
        ),
    ] {
        if value == 0 {
            return Err(format!(
                "{flag} 0: it is the {what}, and must be at least 1"
            ));
        }
    }
    for (flag, secs) in [
        ("--header-timeout", args.header_timeout),
        ("--idle-timeout", args.idle_timeout),
    ] {
        if secs > MAX_TIMEOUT_SECS {
            return Err(format!(
                "{flag} {secs}: a timeout is at most {MAX_TIMEOUT_SECS} seconds (a day)"
            ));
        }
    }
    Ok(())
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
        // Every setting is checked, and the address bound, before the database is opened: a
        // mistake is reported without creating a database file or touching a schema.
        if let Err(why) = check_limits(&args) {
            return Outcome::input(why);
        }
        let admin_token = match admin_token(&args) {
            Ok(token) => token,
            Err(why) => return Outcome::input(why),
        };
        if args.create_rate % 60 != 0 {
            return Outcome::input(format!(
                "--create-rate {} is not a whole number per second; give a multiple of 60 per minute (60, 120, ...) or 0 for unlimited",
                args.create_rate
            ));
        }
        let hints = turnstile_server::Hints::default().with(
            "sokoban",
            std::sync::Arc::new(|view: &serde_json::Value, budget: u64| {
                turnstile_samples::sokoban_hint(view, budget)
                    .map_err(|(code, message)| turnstile_server::HintRefusal { code, message })
            }),
        );
        let config = ServerConfig {
            hints,
            admin_token,
            header_read_timeout: std::time::Duration::from_secs(args.header_timeout),
            idle_timeout: std::time::Duration::from_secs(args.idle_timeout),
            max_connections: args.max_connections,
            max_streams_per_token: args.streams_per_token,
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
                    per_second: args.create_rate / 60,
                    burst: args.create_rate,
                }
            },
            trust_forwarded_for: args.trust_forwarded_for,
            node_id: args.node_id,
            dev: args.dev,
            clock_start_wait: std::time::Duration::from_secs(args.clock_start_wait),
            ..ServerConfig::default()
        };
        if let Err(why) = config.validate() {
            return Outcome::input(format!("cannot start the server: {why}"));
        }
        let listener = match tokio::net::TcpListener::bind(&args.addr).await {
            Ok(l) => l,
            Err(e) => return Outcome::input(format!("cannot listen on {}: {e}", args.addr)),
        };
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
        let server =
            match Server::start(turnstile_samples::registry(), Arc::clone(&store), config).await {
                Ok(server) => server,
                Err(e) => return Outcome::input(format!("cannot start the server: {e}")),
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
