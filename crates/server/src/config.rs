//! What a server is configured with, and the limits it enforces. Every limit has a default that
//! is safe for a public server; `docs/server.md` lists them.

use crate::limits::Rate;
use std::time::Duration;

/// A server's configuration.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The admin token that may publish content; `None` disables publishing over HTTP.
    pub admin_token: Option<String>,
    /// Origins allowed by CORS; empty = CORS off (no CORS headers at all).
    pub cors_origins: Vec<String>,
    /// The largest request body, in bytes (413 beyond).
    pub max_body_bytes: usize,
    /// The largest content bundle body, in bytes (413 beyond).
    pub max_content_bytes: usize,
    /// Commands per token.
    pub command_rate: Rate,
    /// Match creations per client address.
    pub create_rate: Rate,
    /// Ticks per second of a match that does not ask for a rate.
    pub default_tick_rate: u32,
    /// The highest tick rate a match may ask for.
    pub max_tick_rate: u32,
    /// The most seats a match may have.
    pub max_seats: usize,
    /// A snapshot is stored every this many commands.
    pub snapshot_every: u64,
    /// The most receipts one timeline page holds.
    pub max_page: usize,
    /// How long a lease lasts without a heartbeat.
    pub lease_ttl: Duration,
    /// How often leases are renewed (and unserved matches looked for).
    pub heartbeat_every: Duration,
    /// The most bot commands in a row without a command from a person, per match.
    pub max_bot_chain: u32,
    /// Matches idle longer than this are archived (never deleted).
    pub archive_after: Duration,
    /// Take the client address for rate limits from `X-Forwarded-For` (behind a trusted
    /// reverse proxy only).
    pub trust_forwarded_for: bool,
    /// This node's id in leases; `None` picks one (`local` on SQLite, random on PostgreSQL).
    pub node_id: Option<String>,
    /// Development mode (`serve --dev`): `GET .../state` shows a running match's full state to
    /// any of its tokens (otherwise only once the match has ended). Never on a public server.
    pub dev: bool,
    /// How long a timed match's clock waits for every human seat to open the board before it
    /// starts anyway (`fair_start.rs`); zero turns fair starts off (clocks run from creation).
    pub clock_start_wait: Duration,
    /// The games' hint functions and their limits (`hint.rs`); none by default.
    pub hints: crate::hint::Hints,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            admin_token: None,
            cors_origins: Vec::new(),
            max_body_bytes: 64 * 1024,
            max_content_bytes: 16 * 1024 * 1024,
            command_rate: Rate {
                per_second: 50,
                burst: 100,
            },
            create_rate: Rate {
                per_second: 2,
                burst: 30,
            },
            default_tick_rate: turnstile_runtime::DEFAULT_TICK_RATE,
            max_tick_rate: 1000,
            max_seats: 16,
            snapshot_every: 64,
            max_page: 500,
            lease_ttl: Duration::from_secs(15),
            heartbeat_every: Duration::from_secs(5),
            max_bot_chain: 1000,
            archive_after: Duration::from_secs(30 * 24 * 3600),
            trust_forwarded_for: false,
            node_id: None,
            dev: false,
            clock_start_wait: Duration::ZERO,
            hints: crate::hint::Hints::default(),
        }
    }
}
