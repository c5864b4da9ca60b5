//! The matches this node serves, and the one path every command takes — split by job:
//! [`cache`] keeps the loaded matches (slots, bundles, loading and catching up from the
//! store), [`commands`] is the command path, and [`leases`] decides which node drives which
//! match (and records `ClockResumed` on a takeover).
//!
//! Each match lives in a [`Slot`]: its stored record (token hashes), an async mutex around the
//! loaded [`ErasedMatch`] — so two commands on one match never interleave while different
//! matches run in parallel — a broadcast channel for live streams, and a wake-up for the
//! match's driver (timers and bots).
//!
//! [`Hub::submit_locked`] follows DESIGN.md's data flow: idempotency (memory, then the store's
//! idempotency table when this node may not have seen every rejection), expected sequence and
//! step, a tick stamped `max(last tick, clock)`, the resolver, the receipt — and then the
//! receipt is **committed to the store before anyone is answered**. If the append fails the
//! loaded match is dropped and reloaded from the store on next use, so memory never runs ahead
//! of what is durable; a lost race (another node committed that sequence first) is a 409.

mod cache;
mod commands;
mod leases;

pub(crate) use cache::{Lifecycle, Loaded, Slot, FORMAT_RETIRED};
pub(crate) use commands::{refusal_error, Committed, Origin, Submission};

use crate::clock::MatchClock;
use crate::config::ServerConfig;
use crate::edge::{Clock, Entropy};
use crate::error::ApiError;
use crate::error::ErrorKind;
use crate::limits::Limiter;
use crate::metrics::Metrics;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;
use tokio::sync::{broadcast, watch, Mutex, Notify, OwnedMutexGuard};
use turnstile_core::{CommandRefusal, MatchStatus as GameStatus, Rejection, Seat, Sequence, Tick};
use turnstile_runtime::{
    ErasedBundle, ErasedCommand, ErasedMatch, ErasedRefusal, ErasedSpec, GameRegistry,
    ReceiptRedactor, ReplayEntry, SeatSpec,
};
use turnstile_store::{
    Conflict, JsonLogRecord, LeaseOutcome, LogRecord, MatchRecord, MatchStatus, RejectionRecord,
    SnapshotRecord, Store, StoreError,
};

/// Everything a node shares between requests.
pub(crate) struct Hub {
    /// The games.
    pub(crate) registry: Arc<GameRegistry>,
    /// The storage.
    pub(crate) store: Arc<dyn Store>,
    /// Time.
    pub(crate) clock: Arc<dyn Clock>,
    /// Randomness.
    pub(crate) entropy: Arc<dyn Entropy>,
    /// Configuration.
    pub(crate) config: ServerConfig,
    /// This node's id in leases.
    pub(crate) node_id: String,
    /// Metrics.
    pub(crate) metrics: Metrics,
    /// Per-token command limits.
    pub(crate) command_limiter: Limiter,
    /// Per-address creation limits.
    pub(crate) create_limiter: Limiter,
    /// Set to true at shutdown.
    pub(crate) shutdown: watch::Sender<bool>,
    /// The seats that opened their board, for fair clock starts (`fair_start.rs`).
    pub(crate) fair_start: crate::fair_start::FairStart,
    /// Live streams open per token.
    pub(crate) streams: Arc<crate::streams::StreamCounts>,
    slots: StdMutex<BTreeMap<String, Arc<Slot>>>,
    bundles: StdMutex<BTreeMap<(String, String), ErasedBundle>>,
}

pub(super) fn seat_of(index: u32) -> Option<Seat> {
    u16::try_from(index).ok().map(Seat)
}

pub(crate) fn entry_of(record: &LogRecord) -> ReplayEntry {
    ReplayEntry {
        envelope: record.envelope.clone(),
        receipt: record.receipt.clone(),
    }
}

impl Hub {
    /// A hub over a registry and a store.
    pub(crate) fn new(
        registry: Arc<GameRegistry>,
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        entropy: Arc<dyn Entropy>,
        config: ServerConfig,
        node_id: String,
    ) -> Self {
        let (shutdown, _) = watch::channel(false);
        Hub {
            command_limiter: Limiter::new(config.command_rate),
            create_limiter: Limiter::new(config.create_rate),
            registry,
            store,
            clock,
            entropy,
            config,
            node_id,
            metrics: Metrics::default(),
            shutdown,
            fair_start: crate::fair_start::FairStart::default(),
            streams: Arc::default(),
            slots: StdMutex::new(BTreeMap::new()),
            bundles: StdMutex::new(BTreeMap::new()),
        }
    }

    /// Whether the node is shutting down.
    pub(crate) fn stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Wall-clock ms now.
    pub(crate) fn wall_ms(&self) -> i64 {
        self.clock.wall_ms()
    }

    /// Monotonic now.
    pub(crate) fn now(&self) -> Duration {
        self.clock.monotonic()
    }
}
