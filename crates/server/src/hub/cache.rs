//! The loaded-match cache: one slot per match this node knows, loaded from the store's latest
//! snapshot and log on first use, caught up with other nodes' commits, and forgotten when idle.

use super::*;
use crate::auth::{self, Role};
use turnstile_runtime::SeatKind;

/// How many log records one store read takes.
const LOG_PAGE: u32 = 5_000;

/// The code of a match this build cannot resume because an older release wrote it
/// (docs/storage.md, "Matches an older release wrote"). Every route but the match view and
/// the replay answers it (422); those two are served from the stored record and log.
pub(crate) const FORMAT_RETIRED: &str = "format_retired";

/// The outcome kind recorded for a live match closed because it is [`FORMAT_RETIRED`].
pub(crate) const RETIRED_OUTCOME: &str = "aborted";

/// The refusal for a match this build cannot resume; `what` says which step failed.
fn format_retired(what: &str) -> ApiError {
    ApiError::rejected(
        "format_retired",
        format!(
            "this match was written by an older release and this build cannot {what}; a live \
             one is closed without a winner (outcome `aborted`); its view and replay stay \
             readable"
        ),
    )
}

/// A match loaded in memory on this node.
pub(crate) struct Loaded {
    /// The match.
    pub(crate) m: Box<dyn ErasedMatch>,
    /// Its clock on this node.
    pub(crate) clock: MatchClock,
    /// The Timeout last tried, with the sequence it was tried at (not tried again unchanged).
    pub(crate) attempted_timeout: Option<(String, Sequence)>,
}

/// The lifecycle the store records beside the game's own status.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Lifecycle {
    /// Active, finished or archived.
    pub(crate) status: MatchStatus,
    /// The outcome recorded (by the game's end, or by a resignation the game has no action
    /// for).
    pub(crate) outcome: Option<Value>,
}

/// One match on this node.
pub(crate) struct Slot {
    /// The match id.
    pub(crate) id: String,
    /// Its record as created (token hashes, game, seats). Seats claimed later (`POST
    /// …/join`) are in `seat_hashes`, not here.
    pub(crate) record: MatchRecord,
    /// The seats' token hashes as this node last read them: the record's, plus the open seats
    /// claimed since (by this node, or by another one and read back from the store).
    seat_hashes: StdMutex<Vec<Option<String>>>,
    /// The names seats were given (at creation or when claimed), as last read.
    names: StdMutex<BTreeMap<u16, String>>,
    /// Its stored lifecycle.
    pub(crate) lifecycle: StdMutex<Lifecycle>,
    /// The loaded match; `None` until loaded, or after a failed write (reload on next use).
    pub(crate) state: Arc<Mutex<Option<Loaded>>>,
    /// Live receipts.
    pub(crate) live: broadcast::Sender<Arc<Committed>>,
    /// Wakes the driver after a commit.
    pub(crate) wake: Notify,
    /// The highest sequence this node knows committed.
    pub(crate) known_sequence: AtomicU64,
    /// Whether this node holds the match's lease (and so runs its timers and bots).
    pub(crate) holder: AtomicBool,
    /// Whether a driver task runs for it.
    pub(crate) driving: AtomicBool,
    /// Commands from people so far (a bot chain restarts at each).
    pub(crate) person_commands: AtomicU64,
    /// Whether every rule rejection of this match went through this node (so memory is the
    /// whole idempotency table); otherwise unknown command ids are looked up in the store.
    pub(crate) rejections_complete: AtomicBool,
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
            seat_hashes: StdMutex::new(record.seat_token_hashes.clone()),
            names: StdMutex::new(BTreeMap::new()),
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
    pub(crate) fn lifecycle(&self) -> Lifecycle {
        self.lifecycle
            .lock()
            .map(|l| l.clone())
            .unwrap_or(Lifecycle {
                status: MatchStatus::Active,
                outcome: None,
            })
    }

    pub(super) fn set_lifecycle(&self, lifecycle: Lifecycle) {
        if let Ok(mut l) = self.lifecycle.lock() {
            *l = lifecycle;
        }
    }

    /// The match's redactor, once it was loaded.
    pub(crate) fn redactor(&self) -> Option<Arc<dyn ReceiptRedactor>> {
        self.redactor.lock().ok().and_then(|r| r.clone())
    }

    /// The seats as created.
    pub(crate) fn seat_specs(&self) -> Vec<SeatSpec> {
        serde_json::from_value(self.record.seats.clone()).unwrap_or_default()
    }

    /// Whether the match was created with seats left open to be claimed (a human seat
    /// without a token).
    pub(crate) fn joinable(&self) -> bool {
        let specs = self.seat_specs();
        self.record
            .seat_token_hashes
            .iter()
            .zip(&specs)
            .any(|(hash, spec)| hash.is_none() && spec.kind == SeatKind::Human)
    }

    /// The seats still open as this node last read them.
    pub(crate) fn open_seats(&self) -> Vec<u16> {
        let specs = self.seat_specs();
        self.seat_hashes()
            .iter()
            .zip(&specs)
            .enumerate()
            .filter(|(_, (hash, spec))| hash.is_none() && spec.kind == SeatKind::Human)
            .filter_map(|(i, _)| u16::try_from(i).ok())
            .collect()
    }

    /// The seats' token hashes as this node last read them.
    pub(crate) fn seat_hashes(&self) -> Vec<Option<String>> {
        self.seat_hashes
            .lock()
            .map(|h| h.clone())
            .unwrap_or_else(|_| self.record.seat_token_hashes.clone())
    }

    /// The names seats were given, at creation or by the players who claimed them.
    pub(crate) fn names(&self) -> BTreeMap<u16, String> {
        self.names.lock().map(|n| n.clone()).unwrap_or_default()
    }

    /// Records a claim this node made or read back.
    pub(crate) fn set_claimed(&self, hashes: Vec<Option<String>>, names: BTreeMap<u16, String>) {
        if let Ok(mut h) = self.seat_hashes.lock() {
            // A claim only ever fills a seat; never forget one seen before.
            for (i, hash) in hashes.into_iter().enumerate() {
                if let (Some(slot), Some(hash)) = (h.get_mut(i), hash) {
                    *slot = Some(hash);
                }
            }
        }
        if let Ok(mut n) = self.names.lock() {
            n.extend(names);
        }
    }
}

impl Hub {
    /// The slots loaded now.
    pub(crate) fn slots(&self) -> Vec<Arc<Slot>> {
        self.slots
            .lock()
            .map(|s| s.values().cloned().collect())
            .unwrap_or_default()
    }

    /// A loaded slot, if any.
    pub(crate) fn loaded_slot(&self, id: &str) -> Option<Arc<Slot>> {
        self.slots.lock().ok().and_then(|s| s.get(id).cloned())
    }

    pub(super) fn insert_slot(&self, slot: Slot) -> Arc<Slot> {
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
    pub(crate) async fn bundle(
        &self,
        game: &str,
        revision: &str,
    ) -> Result<ErasedBundle, ApiError> {
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
        // Content this build stored loads (it was checked when it was published), so a stored
        // bundle that does not is an older release's: Duel's presets of format 1 announce
        // `POWER`, which the rebuilt Duel refuses.
        let bundle = registered
            .load_bundle(&record.bundle, expected.as_ref())
            .map_err(|e| {
                tracing::warn!(game, revision, error = %e, "stored bundle does not load");
                format_retired("load its stored content")
            })?;
        if let Ok(mut cache) = self.bundles.lock() {
            cache.insert(key, bundle.clone());
        }
        Ok(bundle)
    }

    /// The slot of a match, from memory or the store (not yet loaded); 404 if unknown.
    pub(crate) async fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
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

    /// Reads the seats claimed since the match was created (on any node) back from the
    /// store: only matches created with open seats have any.
    pub(crate) async fn refresh_seats(&self, slot: &Slot) -> Result<(), ApiError> {
        if !slot.joinable() {
            return Ok(());
        }
        let record = self.store.get_match(&slot.id).await?.ok_or_else(|| {
            ApiError::not_found("unknown_match", format!("no match {:?}", slot.id))
        })?;
        let names = self.store.seat_names(&slot.id).await?.into_iter().collect();
        slot.set_claimed(record.seat_token_hashes, names);
        Ok(())
    }

    /// Who a token hash is in a match: a seat (also one claimed on another node since this
    /// node loaded the match) or the spectator; 401 `bad_token` otherwise.
    pub(crate) async fn role(&self, slot: &Slot, token_hash: &str) -> Result<Role, ApiError> {
        let find = |hashes: &[Option<String>]| {
            auth::role_in(
                hashes,
                slot.record.spectator_token_hash.as_deref(),
                token_hash,
            )
        };
        if let Some(role) = find(&slot.seat_hashes()) {
            return Ok(role);
        }
        if !slot.open_seats().is_empty() {
            self.refresh_seats(slot).await?;
            if let Some(role) = find(&slot.seat_hashes()) {
                return Ok(role);
            }
        }
        Err(ApiError::unauthorized(
            "bad_token",
            "the token names no seat or spectator of this match",
        ))
    }

    /// Authenticates a request's bearer token against a match.
    pub(crate) async fn authenticate(
        &self,
        slot: &Slot,
        headers: &axum::http::HeaderMap,
    ) -> Result<Role, ApiError> {
        let token = auth::bearer(headers)?;
        self.role(slot, &auth::hash_token(token)).await
    }

    /// Registers a match just created by this node, already loaded.
    pub(crate) fn adopt(&self, record: MatchRecord, loaded: Loaded) -> Arc<Slot> {
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
    pub(crate) async fn lock(
        &self,
        slot: &Arc<Slot>,
    ) -> Result<OwnedMutexGuard<Option<Loaded>>, ApiError> {
        let mut guard = slot.state.clone().lock_owned().await;
        if guard.is_none() {
            let loaded = match self.load(slot).await {
                Ok(loaded) => loaded,
                Err(e) if e.code == FORMAT_RETIRED => {
                    self.retire(slot, &e).await?;
                    return Err(e);
                }
                Err(e) => return Err(e),
            };
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
    pub(crate) async fn read_log(
        &self,
        id: &str,
        after: Sequence,
    ) -> Result<Vec<LogRecord>, StoreError> {
        let mut records = Vec::new();
        let mut after = after;
        loop {
            let page = self.store.log(id, after, LOG_PAGE).await?;
            self.metrics.log_page_read();
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
    pub(super) async fn load(&self, slot: &Slot) -> Result<Loaded, ApiError> {
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
        // The names seats were given (at creation, or by a joiner on any node) come back with
        // the match, so a restarted node still shows them.
        let names = self.store.seat_names(&slot.id).await?.into_iter().collect();
        slot.set_claimed(Vec::new(), names);
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
                // A log this build wrote re-executes (every command was checked by these rules
                // when it was accepted); one that does not was written under older rules — a
                // format-1 clover log names hands this build spells differently.
                let mut m = game.new_match(&bundle, spec).map_err(|e| {
                    tracing::warn!(match_id = %slot.id, error = %e, "stored match does not set up");
                    format_retired("set the match up")
                })?;
                m.apply_entries(&entries).map_err(|e| {
                    tracing::warn!(match_id = %slot.id, error = %e, "stored log does not replay");
                    format_retired("re-execute its log")
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
    pub(crate) async fn catch_up_locked(
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

    /// Forgets a match that has ended, when nobody streams it and nothing holds its lock; it is
    /// loaded again from the store on its next request.
    pub(super) fn unload_if_idle(&self, slot: &Arc<Slot>) {
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

    /// Closes a live match that cannot be resumed because an older release wrote it: the
    /// outcome `{kind: "aborted", winners: [], reason: {code: "format_retired", message}}` is
    /// recorded in the store (the same column every outcome is in, on both backends), so it
    /// survives restarts, every node reads it, and the match is no longer listed as active,
    /// resumed or driven. A match that had ended keeps the outcome it had.
    pub(crate) async fn retire(&self, slot: &Slot, why: &ApiError) -> Result<(), ApiError> {
        if slot.lifecycle().status != MatchStatus::Active {
            return Ok(());
        }
        let outcome = json!({
            "kind": RETIRED_OUTCOME,
            "winners": [],
            "reason": {"code": why.code, "message": why.message},
        });
        self.store
            .set_match_status(
                &slot.id,
                MatchStatus::Finished,
                Some(&outcome),
                self.clock.wall_ms(),
            )
            .await?;
        tracing::warn!(match_id = %slot.id, "closed a match an older release wrote (format_retired)");
        slot.set_lifecycle(Lifecycle {
            status: MatchStatus::Finished,
            outcome: Some(outcome),
        });
        Ok(())
    }

    /// Matches of this node's store that are active and not loaded yet.
    pub(crate) async fn adopt_active(&self) -> Result<Vec<Arc<Slot>>, ApiError> {
        let mut added = Vec::new();
        for record in self.store.list_active_matches().await? {
            if self.loaded_slot(&record.id).is_none() {
                added.push(self.insert_slot(Slot::new(record, false)));
            }
        }
        Ok(added)
    }
}
