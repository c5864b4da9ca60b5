//! Turnstile's storage: one [`Store`] trait, two backends (SQLite by default, PostgreSQL for
//! several nodes), migrations run at open.
//!
//! The store is the durability boundary of invariant 7 ("acknowledged means durable"): the
//! server answers a command only after [`Store::append`] (or [`Store::append_many`]) returned
//! `Ok` for its receipt. Everything the store holds is opaque to it — envelopes, receipts,
//! bundles and states are `serde_json::Value`s that the engine already made canonical; the
//! store keeps them as JSON text and hands back exactly what it was given.
//!
//! # What the store guarantees
//!
//! - **The command log is append-only and gapless.** A record for match `m` is accepted only if
//!   its sequence is `last sequence of m + 1` (the first is 1) and its command id is new for
//!   `m`. Anything else is [`StoreError::Conflict`] naming which uniqueness was hit, and the log
//!   is unchanged. Two writers racing for the same sequence — two tasks, or two nodes on one
//!   PostgreSQL database — resolve to exactly one winner; the loser gets `Conflict`.
//! - **Content is immutable**: re-putting a `(game, revision)` with the same bundle is a no-op,
//!   with a different bundle a `Conflict`.
//! - **Nothing is deleted.** Idle matches are archived, their log stays readable.
//! - **Errors are typed** with stable [`StoreError::code`]s; a lost or refused connection is
//!   `unavailable` (the server answers 503) and the store recovers by itself when the database
//!   returns.
//!
//! # Choosing a backend
//!
//! [`open`] takes what the user typed after `--database`: a `postgres://` or `postgresql://`
//! URL opens [`PostgresStore`]; anything else is a SQLite file path ([`SqliteStore`]), created
//! if missing (its parent directory must exist). SQLite is single-node: commit notifications
//! reach only subscribers in the same process. See `docs/storage.md`.

#![deny(missing_docs)]

mod error;
mod migrations;
mod policy;
mod postgres;
mod records;
mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;
use tokio::sync::broadcast;

pub use error::{Conflict, StoreError, StoreResult};
pub use postgres::{PostgresOptions, PostgresStore};
pub use records::{
    AppendOutcome, CommitNotice, ContentRecord, JsonLogRecord, LeaseOutcome, LeaseRecord,
    LogRecord, MatchRecord, MatchStatus, Notification, OpenMatch, PutOutcome, RejectionRecord,
    SeatClaim, SnapshotRecord,
};
pub use sqlite::{SqliteOptions, SqliteStore, Synchronous};

/// The PostgreSQL channel commit notifications travel on (`NOTIFY turnstile_commits,
/// '<match id>:<sequence>'`).
pub const COMMIT_CHANNEL: &str = "turnstile_commits";

/// The storage of a Turnstile server: content, matches, the command log, the idempotency table
/// for rule rejections, snapshots, leases and commit notifications.
///
/// Dyn-compatible: the server holds an `Arc<dyn Store>`. All methods are cancel-safe in the
/// sense that matters: a write whose future is dropped either committed entirely or not at all
/// (the caller then reads to find out).
///
/// Times (`*_ms`) are wall-clock milliseconds since the Unix epoch taken by the caller at the
/// edge; the store never reads a clock itself, so tests control time. Ticks and sequences are
/// the engine's `u64`s, stored as 64-bit signed integers (a value above `i64::MAX` is
/// [`StoreError::Invalid`]).
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// `"sqlite"` or `"postgres"`.
    fn backend(&self) -> &'static str;

    /// What this store is connected to, fit to print at start: the SQLite file's path, or the
    /// PostgreSQL URL without its password.
    fn describe(&self) -> String;

    /// Group commits since the store was opened: each one durable write that any number of
    /// commands shared — SQLite: every transaction of the writer (one WAL fsync at
    /// `synchronous=FULL`); PostgreSQL: every batch of command-log appends (one commit
    /// record flushed). Commands acknowledged over commits is what group commit saves
    /// (`turnstile_store_commits_total` in `/metrics`).
    fn commits(&self) -> u64;

    /// A cheap round trip to the database: `Ok` when it answers, `unavailable` otherwise
    /// (`/healthz`).
    async fn ping(&self) -> StoreResult<()>;

    // ----- content -------------------------------------------------------------------------

    /// Stores a content bundle under `(game, revision)`. Re-putting an equal bundle is
    /// [`PutOutcome::AlreadyPresent`]; a different one is
    /// `Conflict(Conflict::ContentRevision)` and the stored bundle stays.
    async fn put_content(&self, record: &ContentRecord) -> StoreResult<PutOutcome>;

    /// The bundle stored under `(game, revision)`, if any.
    async fn get_content(&self, game: &str, revision: &str) -> StoreResult<Option<ContentRecord>>;

    /// Points `game`'s current revision (what new matches pin) at `revision`, which must be
    /// stored (`not_found` otherwise). Running matches keep the revision they pinned.
    async fn set_current_revision(&self, game: &str, revision: &str) -> StoreResult<()>;

    /// `game`'s current revision, if one was ever set.
    async fn current_revision(&self, game: &str) -> StoreResult<Option<String>>;

    // ----- matches -------------------------------------------------------------------------

    /// Creates a match. Its `(game, revision)` content must be stored (`not_found` otherwise);
    /// an existing id is `Conflict(Conflict::MatchId)`.
    async fn create_match(&self, record: &MatchRecord) -> StoreResult<()> {
        self.create_match_with_names(record, &[]).await
    }

    /// Creates a match as [`Store::create_match`] does, and records the display names its
    /// creator gave seats (`(seat, name)`, read back by [`Store::seat_names`]) in the same
    /// transaction, so a match never exists without the names it was created with.
    async fn create_match_with_names(
        &self,
        record: &MatchRecord,
        names: &[(u16, String)],
    ) -> StoreResult<()>;

    /// The match with this id, if any (whatever its status).
    async fn get_match(&self, match_id: &str) -> StoreResult<Option<MatchRecord>>;

    /// Every match in which one of `token_hashes` is a seat's or the spectator token hash,
    /// newest first (`created_at_ms` descending, then id descending), each match once.
    async fn find_matches_by_token_hashes(
        &self,
        token_hashes: &[String],
    ) -> StoreResult<Vec<MatchRecord>>;

    /// Sets a match's status and outcome (`outcome` replaces the stored one, `None` clears it)
    /// and raises its last activity to `now_ms`. `not_found` for an unknown match.
    async fn set_match_status(
        &self,
        match_id: &str,
        status: MatchStatus,
        outcome: Option<&serde_json::Value>,
        now_ms: i64,
    ) -> StoreResult<()>;

    /// Every match whose status is `active`, oldest first — what a restarted node re-arms
    /// timers and bots for.
    async fn list_active_matches(&self) -> StoreResult<Vec<MatchRecord>>;

    /// Archives every match not yet archived whose last activity is before `idle_before_ms`
    /// (a timestamp, not an age) and returns their ids. Nothing is deleted: the log, snapshots
    /// and content of an archived match stay readable.
    async fn archive_idle(&self, idle_before_ms: i64) -> StoreResult<Vec<String>>;

    // ----- open seats and fair starts (shared by every node) -------------------------------

    /// Claims the lowest open seat of `match_id` for the token `token_hash`, with the
    /// player's `name` if given: in one transaction, so two claimants (on two nodes) never
    /// get the same seat. A seat is open when the match was created with a human seat and no
    /// token for it ([`MatchRecord::seat_token_hashes`] `None`). `not_found` for an unknown
    /// match.
    async fn claim_seat(
        &self,
        match_id: &str,
        token_hash: &str,
        name: Option<&str>,
        now_ms: i64,
    ) -> StoreResult<SeatClaim>;

    /// Active matches with an open seat, newest first, at most `limit`.
    async fn list_open_matches(&self, limit: u32) -> StoreResult<Vec<OpenMatch>>;

    /// The names players gave seats of `match_id` (at creation or when claiming them), in
    /// seat order.
    async fn seat_names(&self, match_id: &str) -> StoreResult<Vec<(u16, String)>>;

    /// Records that `seat` of `match_id` has opened its board (idempotent) and returns every
    /// seat marked so far, in seat order — on whichever node each mark was taken.
    async fn mark_ready(&self, match_id: &str, seat: u16) -> StoreResult<Vec<u16>>;

    /// The seats of `match_id` marked ready so far, in seat order.
    async fn ready_seats(&self, match_id: &str) -> StoreResult<Vec<u16>>;

    // ----- the command log -----------------------------------------------------------------

    /// Appends one accepted command, committed durably before this returns `Ok`, then
    /// notifies subscribers (this node's and, on PostgreSQL, every node's).
    ///
    /// Errors: `not_found` if the match does not exist; `Conflict(Conflict::CommandId)` if the
    /// command id is already in this match's log (checked first: the caller answers with the
    /// stored receipt); `Conflict(Conflict::Sequence)` if `record.sequence` is not the match's
    /// last sequence + 1 (it carries the current last sequence). On these errors the log is
    /// unchanged.
    ///
    /// `unavailable` is different: the connection may have died between `COMMIT` and its
    /// answer, so the record may or may not be committed. Answer 503 and reload the match
    /// from the log (snapshot + log) before accepting its next command; a client retrying
    /// the same command id then gets the stored receipt if it did commit.
    async fn append(&self, match_id: &str, record: &LogRecord) -> StoreResult<()>;

    /// [`Store::append`] of a record whose envelope and receipt are JSON text already: the
    /// same checks, errors and durability, the text stored as given. The backends here write
    /// it straight through; this default parses it and calls [`Store::append`] (text that is
    /// not JSON is `invalid`).
    async fn append_json(&self, match_id: &str, record: JsonLogRecord) -> StoreResult<()> {
        let parse = |what: &str, text: &str| {
            serde_json::from_str(text)
                .map_err(|e| StoreError::Invalid(format!("the {what} to append is not JSON: {e}")))
        };
        let record = LogRecord {
            sequence: record.sequence,
            envelope: parse("envelope", &record.envelope)?,
            receipt: parse("receipt", &record.receipt)?,
            command_id: record.command_id,
            tick: record.tick,
            recorded_at_ms: record.recorded_at_ms,
        };
        self.append(match_id, &record).await
    }

    /// Group commit: appends commands of (usually) different matches in one transaction.
    ///
    /// The outer `Err` means the batch as a whole failed (e.g. `unavailable`): nothing was
    /// committed — or, if the connection died during `COMMIT`, possibly everything; treat it
    /// like `unavailable` from [`Store::append`] for every match in the batch. Otherwise there is one [`AppendOutcome`] per entry, in order: the entries
    /// that were accepted are all committed, and an entry that conflicts (same checks as
    /// [`Store::append`]) is skipped without affecting the others. Entries for the same match
    /// are applied in slice order, so `(m, 5), (m, 6)` both succeed on a log ending at 4.
    async fn append_many(&self, entries: &[(String, LogRecord)])
        -> StoreResult<Vec<AppendOutcome>>;

    /// Records of `match_id` with `sequence > after_sequence`, ascending, at most `limit`.
    /// An unknown match yields an empty list.
    async fn log(
        &self,
        match_id: &str,
        after_sequence: u64,
        limit: u32,
    ) -> StoreResult<Vec<LogRecord>>;

    /// The log record of `command_id` in `match_id`, if it was accepted.
    async fn command(&self, match_id: &str, command_id: &str) -> StoreResult<Option<LogRecord>>;

    /// The last sequence in `match_id`'s log (0 when empty or unknown).
    async fn last_sequence(&self, match_id: &str) -> StoreResult<u64>;

    // ----- the idempotency table for rule rejections ---------------------------------------

    /// Remembers a rule rejection under its command id (beside the log, not in it).
    /// `Conflict(Conflict::Rejection)` if this command id's rejection is already remembered
    /// (the caller answers with [`Store::rejection`]); `not_found` for an unknown match.
    async fn remember_rejection(&self, match_id: &str, record: &RejectionRecord)
        -> StoreResult<()>;

    /// The remembered rejection of `command_id` in `match_id`, if any.
    async fn rejection(
        &self,
        match_id: &str,
        command_id: &str,
    ) -> StoreResult<Option<RejectionRecord>>;

    // ----- snapshots -----------------------------------------------------------------------

    /// Stores a snapshot of `match_id` at `record.sequence`. Snapshots are deterministic, so a
    /// second snapshot at the same sequence (another node's) is ignored; `not_found` for an
    /// unknown match.
    async fn put_snapshot(&self, match_id: &str, record: &SnapshotRecord) -> StoreResult<()>;

    /// The snapshot with the highest sequence, if any.
    async fn latest_snapshot(&self, match_id: &str) -> StoreResult<Option<SnapshotRecord>>;

    /// Up to `limit` snapshots, highest sequence first (fall back to an older one if the
    /// latest fails to load).
    async fn snapshots(&self, match_id: &str, limit: u32) -> StoreResult<Vec<SnapshotRecord>>;

    // ----- leases --------------------------------------------------------------------------

    /// Tries to take the lease on `match_id` for `node_id` until `now_ms + ttl_ms`, recording
    /// `heartbeat_tick` as the last heartbeat.
    ///
    /// Succeeds if nobody holds it, the holder's lease expired (`expires_at_ms <= now_ms`) or
    /// was released, or `node_id` already holds it. [`LeaseOutcome::Acquired::previous`] is the
    /// prior lease when it was expired or released — its `last_heartbeat_tick` is what the
    /// server's `ClockResumed` shifts the clock from. If another node holds an unexpired lease
    /// the result is [`LeaseOutcome::Held`] with that lease.
    async fn try_acquire_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<LeaseOutcome>;

    /// Heartbeat: extends `node_id`'s lease to `now_ms + ttl_ms` and records `heartbeat_tick`.
    /// Returns the renewed lease, or `None` if `node_id` does not hold the lease any more
    /// (another node took it, or it was released) — the node must then stop serving the match.
    async fn renew_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<Option<LeaseRecord>>;

    /// Releases `node_id`'s lease (e.g. at shutdown): it expires at once but keeps its last
    /// heartbeat tick, so the next node still records `ClockResumed`. Returns whether
    /// `node_id` held it.
    async fn release_lease(&self, match_id: &str, node_id: &str) -> StoreResult<bool>;

    /// The current lease row of `match_id` (expired or not), if any.
    async fn lease(&self, match_id: &str) -> StoreResult<Option<LeaseRecord>>;

    // ----- notifications -------------------------------------------------------------------

    /// A receiver of [`Notification`]s: one `Commit` per appended record, from every node on
    /// PostgreSQL (a dedicated `LISTEN` connection that reconnects by itself and then sends
    /// `Gap`), from this process only on SQLite. A receiver that falls behind gets
    /// `RecvError::Lagged`, which means the same as `Gap`: reload the matches you follow.
    fn subscribe(&self) -> broadcast::Receiver<Notification>;
}

/// Options for [`open_with`].
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// Used when the target is a SQLite path.
    pub sqlite: SqliteOptions,
    /// Used when the target is a PostgreSQL URL.
    pub postgres: PostgresOptions,
}

/// Whether `target` names a PostgreSQL database (`postgres://` or `postgresql://`).
pub fn is_postgres_url(target: &str) -> bool {
    target.starts_with("postgres://") || target.starts_with("postgresql://")
}

/// Takes Turnstile's own `schema=NAME` parameter out of a PostgreSQL URL's query (the driver
/// would refuse it as unknown): several deployments can then share one database, each in its
/// own schema with its own commit channel. Given twice or empty, the URL is `invalid`.
pub fn split_schema(url: &str) -> StoreResult<(String, Option<String>)> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.to_owned(), None));
    };
    let mut schema = None;
    let mut rest = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("schema", value)) => {
                if value.is_empty() || schema.is_some() {
                    return Err(StoreError::Invalid(format!(
                        "the database URL's schema parameter must be given once, not empty \
                         (got {pair:?})"
                    )));
                }
                schema = Some(value.to_owned());
            }
            _ => rest.push(pair),
        }
    }
    let url = if rest.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", rest.join("&"))
    };
    Ok((url, schema))
}

/// Opens the store `target` names — a `postgres://`/`postgresql://` URL or a SQLite file path
/// (created if missing; its parent directory must exist) — and runs pending migrations. A
/// PostgreSQL URL may carry `?schema=NAME` ([`split_schema`]) to use that schema.
///
/// Must be called inside a tokio runtime. Errors: `unavailable` if the database cannot be
/// reached or the file cannot be opened (the message says why), `migration` if the schema
/// cannot be brought up to date (e.g. it is newer than this build).
pub async fn open(target: &str) -> StoreResult<Arc<dyn Store>> {
    open_with(target, OpenOptions::default()).await
}

/// [`open`] with options.
pub async fn open_with(target: &str, mut options: OpenOptions) -> StoreResult<Arc<dyn Store>> {
    if is_postgres_url(target) {
        let (url, schema) = split_schema(target)?;
        if let Some(schema) = schema {
            options.postgres.schema = Some(schema);
        }
        Ok(Arc::new(PostgresStore::open(&url, options.postgres).await?))
    } else {
        Ok(Arc::new(
            SqliteStore::open(std::path::Path::new(target), options.sqlite).await?,
        ))
    }
}
