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
    /// How long a client may take to send a request head; it also bounds how long an idle
    /// keep-alive connection stays open. A connection over it is closed.
    pub header_read_timeout: Duration,
    /// How long a connection may go with no byte moving either way (a stalled body, an answer
    /// never read) before it is closed. Live streams send a keep-alive comment every
    /// [`ServerConfig::stream_keep_alive`], well within it.
    pub idle_timeout: Duration,
    /// The most connections open at once; a connection beyond it is closed on accept.
    pub max_connections: usize,
    /// The most live streams one token may hold open at once (429 `too_many_streams` beyond).
    /// A match's spectator token is one token, shared by everyone it was given to.
    pub max_streams_per_token: usize,
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
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 4096,
            max_streams_per_token: 16,
            dev: false,
            clock_start_wait: Duration::ZERO,
            hints: crate::hint::Hints::default(),
        }
    }
}

impl ServerConfig {
    /// How often a live stream sends a keep-alive comment: every 15 s, or a third of the idle
    /// timeout when that is shorter, so an open stream is never closed as idle.
    pub fn stream_keep_alive(&self) -> Duration {
        (self.idle_timeout / 3)
            .min(Duration::from_secs(15))
            .max(Duration::from_millis(1))
    }

    /// Refuses settings that cannot work, naming the setting and why, before a server starts
    /// (nothing is published or created with a bad setting; nothing is clamped).
    pub fn validate(&self) -> Result<(), String> {
        if self.snapshot_every == 0 {
            return Err("snapshot_every must be at least 1 (a snapshot every N commands)".into());
        }
        if self.max_page == 0 {
            return Err("max_page must be at least 1 (receipts per timeline page)".into());
        }
        if self.header_read_timeout.is_zero() {
            return Err("header_read_timeout must be above zero".into());
        }
        if self.idle_timeout.is_zero() {
            return Err("idle_timeout must be above zero".into());
        }
        if self.max_connections == 0 {
            return Err("max_connections must be at least 1".into());
        }
        if self.max_streams_per_token == 0 {
            return Err("max_streams_per_token must be at least 1".into());
        }
        if let Some(id) = &self.node_id {
            check_node_id(id)?;
        }
        for origin in &self.cors_origins {
            check_origin(origin)?;
        }
        if self.heartbeat_every.is_zero() || self.heartbeat_every >= self.lease_ttl {
            return Err(format!(
                "heartbeat_every ({:?}) must be above zero and below lease_ttl ({:?}), or leases lapse between heartbeats",
                self.heartbeat_every, self.lease_ttl
            ));
        }
        if self
            .admin_token
            .as_deref()
            .is_some_and(|t| t.trim().is_empty())
        {
            return Err("the admin token is empty; give one, or none to disable publishing".into());
        }
        Ok(())
    }
}

/// A node id names this node in every lease row: non-empty, at most 64 characters of
/// `[A-Za-z0-9._-]`, so it reads unambiguously in logs and in the store.
pub fn check_node_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err(
            "the node id is empty; give a name such as `node-a`, or leave it out to get one".into(),
        );
    }
    if id.len() > 64
        || !id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    {
        return Err(format!(
            "the node id {id:?} must be 1-64 characters of letters, digits, `.`, `_` or `-`"
        ));
    }
    Ok(())
}

/// A CORS origin is what a browser sends in `Origin`: `scheme://host[:port]`, with an `http` or
/// `https` scheme and no path, query or trailing slash.
pub fn check_origin(origin: &str) -> Result<(), String> {
    let why = |reason: &str| {
        Err(format!(
            "the CORS origin {origin:?} is not an origin ({reason}); write it as `https://example.com` or `http://localhost:8080`"
        ))
    };
    let Some((scheme, rest)) = origin.split_once("://") else {
        return why("no `scheme://`");
    };
    if scheme != "http" && scheme != "https" {
        return why("the scheme must be http or https");
    }
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || rest.starts_with('[') => (h, Some(p)),
        _ => (rest, None),
    };
    if host.is_empty()
        || !host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']' | b':'))
    {
        return why("the host is empty or has characters a host cannot have");
    }
    if let Some(port) = port {
        if port.parse::<u16>().map_or(true, |p| p == 0) {
            return why("the port is not a number from 1 to 65535");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_checked_not_guessed() {
        for good in [
            "https://example.com",
            "http://localhost:8080",
            "http://127.0.0.1:3000",
        ] {
            assert_eq!(check_origin(good), Ok(()), "{good}");
        }
        for bad in [
            "not a url",
            "example.com",
            "ftp://x",
            "https://",
            "https://a.com/",
            "http://a:0",
            "http://a:99999",
        ] {
            assert!(check_origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn node_ids_are_named() {
        assert!(check_node_id("").unwrap_err().contains("empty"));
        assert!(check_node_id("a b").is_err());
        assert!(check_node_id(&"x".repeat(65)).is_err());
        assert_eq!(check_node_id("node-a.1_b"), Ok(()));
    }

    #[test]
    fn the_defaults_are_valid_and_bad_settings_are_refused() {
        assert_eq!(ServerConfig::default().validate(), Ok(()));
        let bad = [
            ServerConfig {
                node_id: Some(String::new()),
                ..ServerConfig::default()
            },
            ServerConfig {
                cors_origins: vec!["not a url".into()],
                ..ServerConfig::default()
            },
            ServerConfig {
                snapshot_every: 0,
                ..ServerConfig::default()
            },
            ServerConfig {
                heartbeat_every: Duration::from_secs(20),
                ..ServerConfig::default()
            },
            ServerConfig {
                admin_token: Some(" ".into()),
                ..ServerConfig::default()
            },
        ];
        for config in bad {
            assert!(config.validate().is_err(), "{config:?}");
        }
    }
}
