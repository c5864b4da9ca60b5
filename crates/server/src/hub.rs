//! The matches this node serves, and the one path every command takes.
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

use crate::clock::MatchClock;
use crate::config::ServerConfig;
use crate::edge::{Clock, Entropy};
use crate::error::ApiError;
use crate::limits::Limiter;
use crate::metrics::Metrics;
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;
use tokio::sync::{broadcast, watch, Mutex, Notify, OwnedMutexGuard};
use turnstile_core::{
    CommandRefusal, MatchStatus as GameStatus, Outcome, Rejection, Seat, Sequence, Tick,
};
use turnstile_runtime::{
    ErasedBundle, ErasedCommand, ErasedMatch, ErasedRefusal, ErasedSpec, GameRegistry,
    ReceiptRedactor, ReplayEntry, SeatSpec,
};
use turnstile_store::{
    Conflict, LeaseOutcome, LogRecord, MatchRecord, MatchStatus, RejectionRecord, SnapshotRecord,
    Store, StoreError,
};

/// How many log records one store read takes.
const LOG_PAGE: u32 = 5_000;

/// One committed receipt, as live streams get it (full; each stream redacts for its viewer).
#[derive(Debug, Clone)]
pub struct Committed {
    /// Its sequence.
    pub sequence: Sequence,
    /// The full receipt.
    pub receipt: Value,
}

/// Where a command comes from: people are rate-limited and reset the bot chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A seat's client.
    Person,
    /// A bot seat, driven by this node.
    Bot,
    /// A system command (Timeout, ClockResumed).
    System,
}

/// A command on its way in.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The idempotency key.
    pub command_id: String,
    /// The seat, `None` for system commands.
    pub seat: Option<Seat>,
    /// What the client last saw.
    pub expected_sequence: Sequence,
    /// The step the client last saw.
    pub expected_step: Option<u64>,
    /// The action JSON.
    pub action: Value,
    /// A tick to stamp instead of the clock's (a Timeout's deadline), still raised to the last
    /// receipt's tick.
    pub tick: Option<Tick>,
    /// Who sends it.
    pub origin: Origin,
}

/// An answered command.
#[derive(Debug, Clone)]
pub struct Answered {
    /// The receipt's sequence.
    pub sequence: Sequence,
    /// The full receipt; the route redacts it for the caller.
    pub receipt: Value,
    /// True when the command id had been answered before.
    pub repeat: bool,
}

/// A match loaded in memory on this node.
pub struct Loaded {
    /// The match.
    pub m: Box<dyn ErasedMatch>,
    /// Its clock on this node.
    pub clock: MatchClock,
    /// The Timeout last tried, with the sequence it was tried at (not tried again unchanged).
    pub attempted_timeout: Option<(String, Sequence)>,
}

/// The lifecycle the store records beside the game's own status.
#[derive(Debug, Clone, PartialEq)]
pub struct Lifecycle {
    /// Active, finished or archived.
    pub status: MatchStatus,
    /// The outcome recorded (by the game's end, or by a resignation the game has no action
    /// for).
    pub outcome: Option<Value>,
}

/// One match on this node.
pub struct Slot {
    /// The match id.
    pub id: String,
    /// Its record as created (token hashes, game, seats).
    pub record: MatchRecord,
    /// Its stored lifecycle.
    pub lifecycle: StdMutex<Lifecycle>,
    /// The loaded match; `None` until loaded, or after a failed write (reload on next use).
    pub state: Arc<Mutex<Option<Loaded>>>,
    /// Live receipts.
    pub live: broadcast::Sender<Arc<Committed>>,
    /// Wakes the driver after a commit.
    pub wake: Notify,
    /// The highest sequence this node knows committed.
    pub known_sequence: AtomicU64,
    /// Whether this node holds the match's lease (and so runs its timers and bots).
    pub holder: AtomicBool,
    /// Whether a driver task runs for it.
    pub driving: AtomicBool,
    /// Commands from people so far (a bot chain restarts at each).
    pub person_commands: AtomicU64,
    /// Whether every rule rejection of this match went through this node (so memory is the
    /// whole idempotency table); otherwise unknown command ids are looked up in the store.
    pub rejections_complete: AtomicBool,
    redactor: StdMutex<Option<Arc<dyn ReceiptRedactor>>>,
}

impl Slot {
    fn new(record: MatchRecord, rejections_complete: bool) -> Self {
        let (live, _) = broadcast::channel(256);
        Slot {
            id: record.id.clone(),
            lifecycle: StdMutex::new(Lifecycle {
                status: record.status,
                outcome: record.outcome.clone(),
            }),
            record,
            state: Arc::new(Mutex::new(None)),
            live,
            wake: Notify::new(),
            known_sequence: AtomicU64::new(0),
            holder: AtomicBool::new(false),
            driving: AtomicBool::new(false),
            person_commands: AtomicU64::new(0),
            rejections_complete: AtomicBool::new(rejections_complete),
            redactor: StdMutex::new(None),
        }
    }

    /// The stored lifecycle now.
    pub fn lifecycle(&self) -> Lifecycle {
        self.lifecycle
            .lock()
            .map(|l| l.clone())
            .unwrap_or(Lifecycle {
                status: MatchStatus::Active,
                outcome: None,
            })
    }

    fn set_lifecycle(&self, lifecycle: Lifecycle) {
        if let Ok(mut l) = self.lifecycle.lock() {
            *l = lifecycle;
        }
    }

    /// The match's redactor, once it was loaded.
    pub fn redactor(&self) -> Option<Arc<dyn ReceiptRedactor>> {
        self.redactor.lock().ok().and_then(|r| r.clone())
    }

    /// The seats as created.
    pub fn seat_specs(&self) -> Vec<SeatSpec> {
        serde_json::from_value(self.record.seats.clone()).unwrap_or_default()
    }
}

/// Everything a node shares between requests.
pub struct Hub {
    /// The games.
    pub registry: Arc<GameRegistry>,
    /// The storage.
    pub store: Arc<dyn Store>,
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Randomness.
    pub entropy: Arc<dyn Entropy>,
    /// Configuration.
    pub config: ServerConfig,
    /// This node's id in leases.
    pub node_id: String,
    /// Metrics.
    pub metrics: Metrics,
    /// Per-token command limits.
    pub command_limiter: Limiter,
    /// Per-address creation limits.
    pub create_limiter: Limiter,
    /// Set to true at shutdown.
    pub shutdown: watch::Sender<bool>,
    /// The seats that opened their board, for fair clock starts (`fair_start.rs`).
    pub fair_start: crate::fair_start::FairStart,
    slots: StdMutex<BTreeMap<String, Arc<Slot>>>,
    bundles: StdMutex<BTreeMap<(String, String), ErasedBundle>>,
}

fn seat_of(index: u32) -> Option<Seat> {
    u16::try_from(index).ok().map(Seat)
}

fn entry_of(record: &LogRecord) -> ReplayEntry {
    ReplayEntry {
        envelope: record.envelope.clone(),
        receipt: record.receipt.clone(),
    }
}

/// The answer to a refusal that is not a rule rejection.
pub fn refusal_error(refusal: &ErasedRefusal, sequence: Sequence, step: u64) -> ApiError {
    match refusal {
        ErasedRefusal::InvalidAction(message) => ApiError::bad_request(
            "invalid_action",
            format!("the action is not one of this game's actions: {message}"),
        ),
        ErasedRefusal::Refused(r) => match r {
            CommandRefusal::Rule(rejection) => {
                ApiError::rejected(rejection.code.to_string(), rejection.message.clone())
            }
            CommandRefusal::StaleSequence { .. } | CommandRefusal::StaleStep { .. } => {
                ApiError::conflict(
                    if matches!(r, CommandRefusal::StaleStep { .. }) {
                        "stale_step"
                    } else {
                        "stale_sequence"
                    },
                    r.to_string(),
                    sequence,
                    step,
                )
            }
            CommandRefusal::CommandIdReused { .. } => {
                ApiError::new(StatusCode::CONFLICT, "command_id_reused", r.to_string())
                    .with_details(json!({ "currentSequence": sequence, "currentStep": step }))
            }
            CommandRefusal::InvalidCommandId { .. } => {
                ApiError::bad_request("invalid_command_id", r.to_string())
            }
            CommandRefusal::UnknownSeat { .. } => {
                ApiError::forbidden("unknown_seat", r.to_string())
            }
            other => ApiError::rejected(other.code().to_owned(), other.to_string()),
        },
    }
}

impl Hub {
    /// A hub over a registry and a store.
    pub fn new(
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
            slots: StdMutex::new(BTreeMap::new()),
            bundles: StdMutex::new(BTreeMap::new()),
        }
    }

    /// Whether the node is shutting down.
    pub fn stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// The slots loaded now.
    pub fn slots(&self) -> Vec<Arc<Slot>> {
        self.slots
            .lock()
            .map(|s| s.values().cloned().collect())
            .unwrap_or_default()
    }

    /// A loaded slot, if any.
    pub fn loaded_slot(&self, id: &str) -> Option<Arc<Slot>> {
        self.slots.lock().ok().and_then(|s| s.get(id).cloned())
    }

    fn insert_slot(&self, slot: Slot) -> Arc<Slot> {
        let mut slots = match self.slots.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let slot = slots
            .entry(slot.id.clone())
            .or_insert_with(|| Arc::new(slot))
            .clone();
        self.metrics
            .set_live_matches(u64::try_from(slots.len()).unwrap_or(u64::MAX));
        slot
    }

    /// A typed bundle by game and revision, from the cache or the store.
    pub async fn bundle(&self, game: &str, revision: &str) -> Result<ErasedBundle, ApiError> {
        let key = (game.to_owned(), revision.to_owned());
        if let Some(b) = self.bundles.lock().ok().and_then(|b| b.get(&key).cloned()) {
            return Ok(b);
        }
        let registered = self
            .registry
            .get(game)
            .ok_or_else(|| ApiError::not_found("unknown_game", format!("no game {game:?}")))?;
        let record = self
            .store
            .get_content(game, revision)
            .await?
            .ok_or_else(|| {
                ApiError::not_found(
                    "unknown_revision",
                    format!("no content revision {revision} of {game}"),
                )
            })?;
        let expected = revision.parse().ok();
        let bundle = registered
            .load_bundle(&record.bundle, expected.as_ref())
            .map_err(|e| {
                tracing::error!(game, revision, error = %e, "stored bundle does not load");
                ApiError::internal("load the stored content")
            })?;
        if let Ok(mut cache) = self.bundles.lock() {
            cache.insert(key, bundle.clone());
        }
        Ok(bundle)
    }

    /// The slot of a match, from memory or the store (not yet loaded); 404 if unknown.
    pub async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self.loaded_slot(id) {
            return Ok(slot);
        }
        if id.is_empty() || id.len() > 128 {
            return Err(ApiError::not_found("unknown_match", "no such match"));
        }
        let record = self
            .store
            .get_match(id)
            .await?
            .ok_or_else(|| ApiError::not_found("unknown_match", format!("no match {id:?}")))?;
        let slot = self.insert_slot(Slot::new(record, false));
        Ok(slot)
    }

    /// Registers a match just created by this node, already loaded.
    pub fn adopt(&self, record: MatchRecord, loaded: Loaded) -> Arc<Slot> {
        let slot = Slot::new(record, self.store.backend() == "sqlite");
        if let Ok(mut r) = slot.redactor.lock() {
            *r = Some(loaded.m.redactor());
        }
        if let Ok(mut state) = slot.state.try_lock() {
            *state = Some(loaded);
        }
        self.insert_slot(slot)
    }

    /// Locks a slot's match, loading it from the store if needed.
    pub async fn lock(
        &self,
        slot: &Arc<Slot>,
    ) -> Result<OwnedMutexGuard<Option<Loaded>>, ApiError> {
        let mut guard = slot.state.clone().lock_owned().await;
        if guard.is_none() {
            let loaded = self.load(slot).await?;
            slot.known_sequence
                .fetch_max(loaded.m.sequence(), Ordering::SeqCst);
            if let Ok(mut r) = slot.redactor.lock() {
                *r = Some(loaded.m.redactor());
            }
            *guard = Some(loaded);
        }
        Ok(guard)
    }

    /// Reads a match's whole log from the store.
    async fn read_log(&self, id: &str, after: Sequence) -> Result<Vec<LogRecord>, StoreError> {
        let mut records = Vec::new();
        let mut after = after;
        loop {
            let page = self.store.log(id, after, LOG_PAGE).await?;
            let n = page.len();
            if let Some(last) = page.last() {
                after = last.sequence;
            }
            records.extend(page);
            if n < LOG_PAGE as usize {
                return Ok(records);
            }
        }
    }

    /// Loads a match from its latest snapshot and its log.
    async fn load(&self, slot: &Slot) -> Result<Loaded, ApiError> {
        let record = &slot.record;
        let bundle = self.bundle(&record.game, &record.revision).await?;
        let game = self
            .registry
            .get(&record.game)
            .ok_or_else(|| ApiError::internal("find the match's game in this build"))?;
        let spec = ErasedSpec {
            config: record.config.clone(),
            seed: record.seed.clone(),
            seats: slot.seat_specs(),
            tick_rate: record.tick_rate,
        };
        let log = self.read_log(&slot.id, 0).await?;
        let entries: Vec<ReplayEntry> = log.iter().map(entry_of).collect();
        let snapshots = self.store.snapshots(&slot.id, 3).await?;
        let mut restored = None;
        for snap in snapshots {
            let Ok(at) = usize::try_from(snap.sequence) else {
                continue;
            };
            if at > entries.len() {
                continue;
            }
            match game.restore_match(
                &bundle,
                spec.clone(),
                &snap.state,
                &entries[..at],
                &entries[at..],
            ) {
                Ok(m) => {
                    restored = Some(m);
                    break;
                }
                Err(e) => {
                    tracing::warn!(match_id = %slot.id, sequence = snap.sequence, error = %e, "snapshot does not restore; trying an older one");
                }
            }
        }
        let m = match restored {
            Some(m) => m,
            None => {
                let mut m = game.new_match(&bundle, spec).map_err(|e| {
                    tracing::error!(match_id = %slot.id, error = %e, "stored match does not set up");
                    ApiError::internal("rebuild the match")
                })?;
                m.apply_entries(&entries).map_err(|e| {
                    tracing::error!(match_id = %slot.id, error = %e, "stored log does not replay");
                    ApiError::internal("replay the match's log")
                })?;
                m
            }
        };
        let now = self.clock.monotonic();
        let mut anchor = m.last_tick();
        if let Ok(Some(lease)) = self.store.lease(&slot.id).await {
            anchor = anchor.max(lease.last_heartbeat_tick);
            // While another node serves the match, estimate its clock from the heartbeat.
            if lease.node_id != self.node_id && lease.expires_at_ms > self.clock.wall_ms() {
                let ttl = i64::try_from(self.config.lease_ttl.as_millis()).unwrap_or(i64::MAX);
                let since = self
                    .clock
                    .wall_ms()
                    .saturating_sub(lease.expires_at_ms.saturating_sub(ttl));
                let since = u64::try_from(since.max(0)).unwrap_or(0);
                anchor = anchor.saturating_add(since * u64::from(record.tick_rate) / 1000);
            }
        }
        Ok(Loaded {
            clock: MatchClock::new(anchor, now, record.tick_rate),
            m,
            attempted_timeout: None,
        })
    }

    /// Brings a loaded match up to the store's log (commits made by another node).
    pub async fn catch_up_locked(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
    ) -> Result<(), ApiError> {
        let Some(loaded) = guard.as_mut() else {
            return Ok(());
        };
        let from = loaded.m.sequence();
        let records = self.read_log(&slot.id, from).await?;
        if records.is_empty() {
            return Ok(());
        }
        let entries: Vec<ReplayEntry> = records.iter().map(entry_of).collect();
        if let Err(e) = loaded.m.apply_entries(&entries) {
            tracing::warn!(match_id = %slot.id, error = %e, "catching up failed; reloading");
            **guard = None;
            return Err(ApiError::internal("catch up with the stored log"));
        }
        for record in &records {
            self.after_commit(slot, record.sequence, &record.receipt);
        }
        if let Some(loaded) = guard.as_mut() {
            self.note_finished(slot, loaded.m.as_ref());
        }
        Ok(())
    }

    /// What every commit (ours or another node's) sets off: live streams and the driver.
    fn after_commit(&self, slot: &Slot, sequence: Sequence, receipt: &Value) {
        slot.known_sequence.fetch_max(sequence, Ordering::SeqCst);
        if slot.live.receiver_count() > 0 {
            let _ = slot.live.send(Arc::new(Committed {
                sequence,
                receipt: receipt.clone(),
            }));
        }
        slot.wake.notify_one();
    }

    /// Keeps the store's lifecycle in step with the game's status. A game may leave its
    /// finished state again (Sokoban's undo after solving), so the record follows it back to
    /// active — except for a resignation the server recorded for a game without a resign
    /// action, which only the server can end and nothing reopens.
    fn note_finished(&self, slot: &Slot, m: &dyn ErasedMatch) {
        let lifecycle = slot.lifecycle();
        let (status, outcome) = match m.status() {
            GameStatus::Finished { outcome } if lifecycle.status == MatchStatus::Active => (
                MatchStatus::Finished,
                Some(serde_json::to_value(&outcome).unwrap_or(Value::Null)),
            ),
            GameStatus::Active
                if lifecycle.status == MatchStatus::Finished
                    && !is_server_resignation(lifecycle.outcome.as_ref()) =>
            {
                (MatchStatus::Active, None)
            }
            _ => return,
        };
        slot.set_lifecycle(Lifecycle {
            status,
            outcome: outcome.clone(),
        });
        let store = self.store.clone();
        let id = slot.id.clone();
        let now = self.clock.wall_ms();
        tokio::spawn(async move {
            if let Err(e) = store
                .set_match_status(&id, status, outcome.as_ref(), now)
                .await
            {
                tracing::warn!(match_id = %id, error = %e, "could not record the match's status");
            }
        });
    }

    /// The status a client sees: the game's own, or the outcome the server recorded for a
    /// resignation the game has no action for.
    pub fn status_of(&self, slot: &Slot, m: &dyn ErasedMatch) -> (String, Option<Value>) {
        match m.status() {
            GameStatus::Finished { outcome } => {
                ("finished".into(), serde_json::to_value(&outcome).ok())
            }
            GameStatus::Active => {
                let lifecycle = slot.lifecycle();
                match lifecycle.status {
                    MatchStatus::Active => ("active".into(), None),
                    MatchStatus::Finished => ("finished".into(), lifecycle.outcome),
                    MatchStatus::Archived => ("archived".into(), lifecycle.outcome),
                }
            }
        }
    }

    /// Whether the match has ended (seeds and full replays are released then).
    pub fn has_ended(&self, slot: &Slot, m: &dyn ErasedMatch) -> bool {
        self.status_of(slot, m).0 == "finished"
    }

    /// Submits a command on a locked match; see the module documentation for the order.
    pub async fn submit_locked(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
        submission: Submission,
    ) -> Result<Answered, ApiError> {
        let started = self.clock.monotonic();
        let result = self.submit_inner(slot, guard, submission).await;
        let took = self.clock.monotonic().saturating_sub(started);
        match &result {
            Ok(a) if a.repeat => self.metrics.command("repeat", took),
            Ok(_) => self.metrics.command("accepted", took),
            Err(e) => {
                self.metrics.command(
                    if e.status == StatusCode::UNPROCESSABLE_ENTITY {
                        "rejected"
                    } else {
                        "refused"
                    },
                    took,
                );
                self.metrics.rejection(&e.code);
            }
        }
        result
    }

    async fn submit_inner(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
        submission: Submission,
    ) -> Result<Answered, ApiError> {
        let Some(loaded) = guard.as_mut() else {
            return Err(ApiError::internal("load the match"));
        };
        // Commits made through another node: catch up before judging a newer expectation.
        // (Repeats of known command ids are answered by the match itself, before any check.)
        if submission.expected_sequence > loaded.m.sequence()
            && !loaded.m.is_accepted(&submission.command_id)
        {
            self.catch_up_locked(slot, guard).await?;
        }
        let Some(loaded) = guard.as_mut() else {
            return Err(ApiError::internal("load the match"));
        };
        if !slot.rejections_complete.load(Ordering::Relaxed)
            && loaded.m.rejection(&submission.command_id).is_none()
            && !loaded.m.is_accepted(&submission.command_id)
            && turnstile_core::envelope::check_command_id(&submission.command_id).is_ok()
        {
            if let Some(stored) = self
                .store
                .rejection(&slot.id, &submission.command_id)
                .await?
            {
                let rejection: Rejection = serde_json::from_value(stored.rejection.clone())
                    .unwrap_or_else(|_| Rejection::new("rejected", "rejected"));
                if let Ok(fp) = stored.action_fingerprint.parse() {
                    loaded.m.remember_rejection(
                        &stored.command_id,
                        stored.seat.and_then(seat_of),
                        fp,
                        rejection,
                    );
                }
            }
        }
        let lifecycle = slot.lifecycle();
        let known = loaded.m.rejection(&submission.command_id).is_some()
            || loaded.m.is_accepted(&submission.command_id);
        if lifecycle.status == MatchStatus::Archived && !known {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "match_archived",
                "the match was archived after being idle; its replay stays readable",
            ));
        }
        if lifecycle.status == MatchStatus::Finished
            && loaded.m.status() == GameStatus::Active
            && is_server_resignation(lifecycle.outcome.as_ref())
            && !known
        {
            return Err(ApiError::rejected(
                "match_over",
                "the match has ended (a seat resigned); it accepts no more commands",
            ));
        }
        let tick = match submission.tick {
            Some(t) => t.max(loaded.m.last_tick()),
            None => loaded
                .clock
                .stamp(loaded.m.last_tick(), self.clock.monotonic()),
        };
        let was_rejected = loaded.m.rejection(&submission.command_id).is_some();
        let command = ErasedCommand {
            command_id: submission.command_id.clone(),
            seat: submission.seat,
            expected_sequence: submission.expected_sequence,
            expected_step: submission.expected_step,
            tick,
            action: submission.action.clone(),
        };
        match loaded.m.submit(command) {
            Ok(accepted) if accepted.repeat => Ok(Answered {
                sequence: accepted.sequence,
                receipt: accepted.entry.receipt,
                repeat: true,
            }),
            Ok(accepted) => {
                let record = LogRecord {
                    sequence: accepted.sequence,
                    command_id: submission.command_id.clone(),
                    tick,
                    envelope: accepted.entry.envelope,
                    receipt: accepted.entry.receipt,
                    recorded_at_ms: self.clock.wall_ms(),
                };
                match self.store.append(&slot.id, &record).await {
                    Ok(()) => {
                        if submission.origin == Origin::Person {
                            slot.person_commands.fetch_add(1, Ordering::Relaxed);
                        }
                        self.after_commit(slot, record.sequence, &record.receipt);
                        self.note_finished(slot, loaded.m.as_ref());
                        if record.sequence % self.config.snapshot_every.max(1) == 0 {
                            self.store_snapshot(slot, loaded.m.as_ref());
                        }
                        Ok(Answered {
                            sequence: record.sequence,
                            receipt: record.receipt,
                            repeat: false,
                        })
                    }
                    Err(e) => {
                        // Memory ran ahead of the store: forget it, reload on next use.
                        **guard = None;
                        self.append_failed(slot, guard, &submission, e).await
                    }
                }
            }
            Err(ErasedRefusal::Refused(CommandRefusal::Rule(rejection))) => {
                if !was_rejected {
                    let fingerprint = loaded.m.action_fingerprint(&submission.action);
                    if let Ok(fingerprint) = fingerprint {
                        let record = RejectionRecord {
                            command_id: submission.command_id.clone(),
                            seat: submission.seat.map(|s| u32::from(s.0)),
                            action_fingerprint: fingerprint.to_string(),
                            rejection: serde_json::to_value(&rejection).unwrap_or(Value::Null),
                            recorded_at_ms: self.clock.wall_ms(),
                        };
                        match self.store.remember_rejection(&slot.id, &record).await {
                            Ok(()) | Err(StoreError::Conflict(Conflict::Rejection { .. })) => {}
                            Err(e) => {
                                **guard = None;
                                return Err(e.into());
                            }
                        }
                    }
                }
                Err(ApiError::rejected(
                    rejection.code.to_string(),
                    rejection.message.clone(),
                ))
            }
            Err(refusal) => Err(refusal_error(
                &refusal,
                loaded.m.sequence(),
                loaded.m.step(),
            )),
        }
    }

    /// After a failed append: find out what the store holds and answer accordingly.
    async fn append_failed(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
        submission: &Submission,
        error: StoreError,
    ) -> Result<Answered, ApiError> {
        match error {
            StoreError::Conflict(Conflict::CommandId { .. }) => {
                // Another node accepted this command id first: answer with its receipt.
                let stored = self.store.command(&slot.id, &submission.command_id).await?;
                let reloaded = self.reload(slot, guard).await;
                match (stored, reloaded) {
                    (Some(record), _) => Ok(Answered {
                        sequence: record.sequence,
                        receipt: record.receipt,
                        repeat: true,
                    }),
                    (None, _) => Err(ApiError::internal("read back a committed command")),
                }
            }
            StoreError::Conflict(Conflict::Sequence { last_sequence, .. }) => {
                // Another node committed this sequence first: reload and report where we are.
                let (sequence, step) = match self.reload(slot, guard).await {
                    Ok(()) => guard
                        .as_ref()
                        .map(|l| (l.m.sequence(), l.m.step()))
                        .unwrap_or((last_sequence, 0)),
                    Err(_) => (last_sequence, 0),
                };
                Err(ApiError::conflict(
                    "stale_sequence",
                    format!(
                        "another command was committed first; the match is at sequence {sequence}"
                    ),
                    sequence,
                    step,
                ))
            }
            other => Err(other.into()),
        }
    }

    /// Reloads a match from the store into a locked slot, and tells live streams what they
    /// missed.
    async fn reload(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
    ) -> Result<(), ApiError> {
        let before = slot.known_sequence.load(Ordering::SeqCst);
        let loaded = self.load(slot).await?;
        let now = loaded.m.sequence();
        for s in before.saturating_add(1)..=now {
            if let Some(receipt) = loaded.m.receipt(s, turnstile_core::Viewer::Referee) {
                self.after_commit(slot, s, &receipt);
            }
        }
        self.note_finished(slot, loaded.m.as_ref());
        **guard = Some(loaded);
        Ok(())
    }

    fn store_snapshot(&self, slot: &Slot, m: &dyn ErasedMatch) {
        let Ok(state) = m.snapshot() else {
            return;
        };
        let record = SnapshotRecord {
            sequence: m.sequence(),
            tick: m.last_tick(),
            state_fingerprint: m.state_fingerprint().to_string(),
            last_receipt_hash: m.last_hash().map(|h| h.to_string()),
            state,
        };
        let store = self.store.clone();
        let id = slot.id.clone();
        tokio::spawn(async move {
            if let Err(e) = store.put_snapshot(&id, &record).await {
                tracing::warn!(match_id = %id, error = %e, "snapshot not stored");
            }
        });
    }

    /// Ends a match for a resignation the game has no action for: the outcome names every
    /// other seat as winner, kind `resigned`.
    pub async fn resign_generic(
        &self,
        slot: &Slot,
        seat: Seat,
        seats: u16,
    ) -> Result<Value, ApiError> {
        let outcome = Outcome {
            kind: "resigned".into(),
            winners: (0..seats).map(Seat).filter(|s| *s != seat).collect(),
        };
        let value = serde_json::to_value(&outcome).unwrap_or(Value::Null);
        self.store
            .set_match_status(
                &slot.id,
                MatchStatus::Finished,
                Some(&value),
                self.clock.wall_ms(),
            )
            .await?;
        slot.set_lifecycle(Lifecycle {
            status: MatchStatus::Finished,
            outcome: Some(value.clone()),
        });
        slot.wake.notify_one();
        Ok(value)
    }

    /// Takes (or renews) this node's lease on a match; on a takeover after an outage, records
    /// `ClockResumed` where the game has one. Returns whether this node holds the lease.
    pub async fn claim(&self, slot: &Arc<Slot>) -> Result<bool, ApiError> {
        if slot.lifecycle().status != MatchStatus::Active {
            return Ok(false);
        }
        let mut guard = self.lock(slot).await?;
        let Some(loaded) = guard.as_mut() else {
            return Ok(false);
        };
        let now_mono = self.clock.monotonic();
        let now_ms = self.clock.wall_ms();
        let ttl_ms = i64::try_from(self.config.lease_ttl.as_millis()).unwrap_or(i64::MAX);
        let tick = loaded.clock.stamp(loaded.m.last_tick(), now_mono);
        // A lease this node id still holds although this process never claimed it was left by
        // an earlier process of this node that died (kill -9, a crash): for the clock that is
        // a takeover like any other, though the store sees the same holder.
        let left_by_a_dead_process = if slot.holder.load(Ordering::SeqCst) {
            None
        } else {
            self.store
                .lease(&slot.id)
                .await?
                .filter(|l| l.node_id == self.node_id && l.expires_at_ms > 0)
        };
        let outcome = self
            .store
            .try_acquire_lease(&slot.id, &self.node_id, now_ms, ttl_ms, tick)
            .await?;
        match outcome {
            LeaseOutcome::Held(_) => {
                slot.holder.store(false, Ordering::SeqCst);
                Ok(false)
            }
            LeaseOutcome::Acquired { previous, .. } => {
                let was_holder = slot.holder.swap(true, Ordering::SeqCst);
                let previous = if was_holder {
                    None
                } else {
                    previous.or(left_by_a_dead_process)
                };
                if !was_holder {
                    // Taking over: catch up with whatever the previous holder committed.
                    self.catch_up_locked(slot, &mut guard).await?;
                    if guard.is_none() {
                        self.reload(slot, &mut guard).await?;
                    }
                }
                if let (Some(previous), Some(loaded)) = (previous, guard.as_mut()) {
                    let heartbeat = previous.last_heartbeat_tick.max(loaded.m.last_tick());
                    let outage_ms = if previous.expires_at_ms > 0 {
                        u64::try_from(
                            now_ms
                                .saturating_sub(previous.expires_at_ms.saturating_sub(ttl_ms))
                                .max(0),
                        )
                        .unwrap_or(0)
                    } else {
                        0
                    };
                    let takeover = heartbeat
                        .saturating_add(outage_ms * u64::from(loaded.clock.tick_rate()) / 1000);
                    let resumed = loaded
                        .m
                        .clock_resumed_command(previous.last_heartbeat_tick, takeover)
                        .filter(|_| takeover > heartbeat);
                    match resumed {
                        Some(command) => {
                            loaded.clock =
                                MatchClock::new(takeover, now_mono, loaded.clock.tick_rate());
                            let sequence = loaded.m.sequence();
                            let submission = Submission {
                                command_id: command.command_id,
                                seat: None,
                                expected_sequence: sequence,
                                expected_step: None,
                                action: command.action,
                                tick: Some(command.tick),
                                origin: Origin::System,
                            };
                            if let Err(e) = self.submit_locked(slot, &mut guard, submission).await {
                                tracing::info!(match_id = %slot.id, code = %e.code, "ClockResumed not recorded");
                            }
                        }
                        None => {
                            // No ClockResumed in this game: the clock simply resumes where it
                            // stood, so the outage does not count either.
                            loaded.clock =
                                MatchClock::new(heartbeat, now_mono, loaded.clock.tick_rate());
                        }
                    }
                }
                Ok(true)
            }
        }
    }

    /// Answers from the store's log when a receipt is not in memory (used by repeats).
    pub async fn stored_command(
        &self,
        slot: &Slot,
        command_id: &str,
    ) -> Result<Option<LogRecord>, ApiError> {
        Ok(self.store.command(&slot.id, command_id).await?)
    }

    /// Renews held leases (dropping those lost) and tries to take unheld ones. Returns the
    /// slots newly held.
    pub async fn heartbeat(&self) -> Vec<Arc<Slot>> {
        let mut gained = Vec::new();
        let ttl_ms = i64::try_from(self.config.lease_ttl.as_millis()).unwrap_or(i64::MAX);
        for slot in self.slots() {
            if slot.lifecycle().status != MatchStatus::Active {
                if slot.holder.swap(false, Ordering::SeqCst) {
                    let _ = self.store.release_lease(&slot.id, &self.node_id).await;
                }
                self.unload_if_idle(&slot);
                continue;
            }
            if slot.holder.load(Ordering::SeqCst) {
                let tick = {
                    let guard = slot.state.lock().await;
                    guard
                        .as_ref()
                        .map(|l| l.clock.stamp(l.m.last_tick(), self.clock.monotonic()))
                };
                let Some(tick) = tick else {
                    continue;
                };
                match self
                    .store
                    .renew_lease(&slot.id, &self.node_id, self.clock.wall_ms(), ttl_ms, tick)
                    .await
                {
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        tracing::info!(match_id = %slot.id, "lease lost to another node");
                        slot.holder.store(false, Ordering::SeqCst);
                        slot.wake.notify_one();
                    }
                    Err(e) => tracing::warn!(match_id = %slot.id, error = %e, "lease not renewed"),
                }
            } else {
                match self.claim(&slot).await {
                    Ok(true) => gained.push(slot),
                    Ok(false) => {}
                    Err(e) => {
                        tracing::debug!(match_id = %slot.id, code = %e.code, "lease not taken")
                    }
                }
            }
        }
        gained
    }

    /// Forgets a match that has ended, when nobody streams it and nothing holds its lock; it is
    /// loaded again from the store on its next request.
    fn unload_if_idle(&self, slot: &Arc<Slot>) {
        if slot.live.receiver_count() > 0 || slot.state.try_lock().is_err() {
            return;
        }
        if let Ok(mut slots) = self.slots.lock() {
            // The map's handle plus ours: nobody else is using this slot.
            if Arc::strong_count(slot) <= 2 {
                slots.remove(&slot.id);
                self.metrics
                    .set_live_matches(u64::try_from(slots.len()).unwrap_or(u64::MAX));
            }
        }
    }

    /// Releases every lease this node holds (at shutdown), so another node or the next start
    /// takes over at once.
    pub async fn release_all(&self) {
        for slot in self.slots() {
            if slot.holder.swap(false, Ordering::SeqCst) {
                let _ = self.store.release_lease(&slot.id, &self.node_id).await;
            }
        }
    }

    /// Matches of this node's store that are active and not loaded yet.
    pub async fn adopt_active(&self) -> Result<Vec<Arc<Slot>>, ApiError> {
        let mut added = Vec::new();
        for record in self.store.list_active_matches().await? {
            if self.loaded_slot(&record.id).is_none() {
                added.push(self.insert_slot(Slot::new(record, false)));
            }
        }
        Ok(added)
    }

    /// Whether a new seat index is within the match.
    pub fn check_seat(&self, seat: u16, seats: u16) -> Result<(), ApiError> {
        if seat < seats {
            Ok(())
        } else {
            Err(ApiError::forbidden("unknown_seat", "no such seat"))
        }
    }

    /// Wall-clock ms now.
    pub fn wall_ms(&self) -> i64 {
        self.clock.wall_ms()
    }

    /// Monotonic now.
    pub fn now(&self) -> Duration {
        self.clock.monotonic()
    }
}

/// Whether a recorded outcome is a resignation the server recorded itself (for a game without
/// a resign action): `{"kind": "resigned", ...}` while the game reports no outcome of its own.
fn is_server_resignation(outcome: Option<&Value>) -> bool {
    outcome.and_then(|o| o.get("kind")).and_then(Value::as_str) == Some("resigned")
}
