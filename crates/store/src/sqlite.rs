//! The SQLite backend: one writer thread that group-commits, reader connections for queries.
//!
//! Every write — appends, and everything else — goes through a channel to one dedicated
//! thread owning the only write connection. The thread takes whatever is queued (up to
//! [`SqliteOptions::max_batch`] jobs), runs each in its own savepoint inside one
//! `BEGIN IMMEDIATE` transaction, commits once, and only then answers every job. So under load
//! many commands share one fsync (group commit), and a job that fails (a conflict) is rolled
//! back to its savepoint without disturbing the others. Reads run on a small pool of
//! connections on tokio's blocking threads; WAL lets them proceed while the writer writes.
//!
//! Durability: `journal_mode=WAL` and, by default, `synchronous=FULL` — the WAL is fsynced at
//! every commit, so an acknowledged append survives both `kill -9` and power loss (on a disk
//! that honours fsync). With [`Synchronous::Normal`] it survives `kill -9` (the commit is in
//! the OS's page cache) but the last commits before a power loss may be lost (never
//! corrupted). See `docs/storage.md`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::{params, Connection, ErrorCode, OptionalExtension, Row};
use serde_json::Value;
use tokio::sync::{broadcast, oneshot};

use crate::error::{json_text, parse_json, to_i64, to_u64};
use crate::migrations;
use crate::policy::{
    decide_claim, decide_lease, decode_lease, decode_log, decode_match, decode_seats,
    decode_snapshot, encode_token_hashes, granted_lease, open_seats_at_creation, ClaimDecision,
    LeaseDecision, PreparedAppend, RawLog, RawSnapshot, LOG_COLUMNS, MATCH_COLUMNS,
    SNAPSHOT_COLUMNS,
};
use crate::records::*;
use crate::{Conflict, Store, StoreError, StoreResult};

/// SQLite's `synchronous` setting for the writer connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    /// fsync the WAL at every commit: acknowledged commits survive process crash and power
    /// loss. The default.
    #[default]
    Full,
    /// fsync only at checkpoints: acknowledged commits survive a process crash (`kill -9`);
    /// a power loss may roll back the last commits (the database stays consistent).
    Normal,
}

/// Tuning of [`SqliteStore`].
#[derive(Debug, Clone)]
pub struct SqliteOptions {
    /// The writer's `synchronous` setting.
    pub synchronous: Synchronous,
    /// How long a connection waits for a lock held by another process before `unavailable`.
    pub busy_timeout: Duration,
    /// The most write jobs one transaction takes from the queue.
    pub max_batch: usize,
    /// How many idle reader connections are kept.
    pub readers: usize,
    /// Capacity of the notification channel (per subscriber backlog).
    pub notification_capacity: usize,
    /// How often a background thread checkpoints the WAL into the database file (`PASSIVE`:
    /// it never blocks the writer), keeping that work off the commit path. The writer still
    /// checkpoints by itself past [`SqliteOptions::writer_checkpoint_pages`].
    pub checkpoint_interval: Duration,
    /// The writer's own `wal_autocheckpoint`, a safety net if the background checkpoints fall
    /// behind (pages of 4 KiB).
    pub writer_checkpoint_pages: u32,
}

impl Default for SqliteOptions {
    fn default() -> Self {
        SqliteOptions {
            synchronous: Synchronous::Full,
            busy_timeout: Duration::from_secs(5),
            max_batch: 1024,
            readers: 4,
            notification_capacity: 4096,
            checkpoint_interval: Duration::from_millis(200),
            writer_checkpoint_pages: 16_384,
        }
    }
}

/// The SQLite store: a database file, single node. Cheap to clone (shared handle).
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    options: SqliteOptions,
    writer: Mutex<Option<mpsc::Sender<Box<dyn WriteJob>>>>,
    writer_thread: Mutex<Option<JoinHandle<()>>>,
    checkpointer: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
    readers: Mutex<Vec<Connection>>,
    notify: broadcast::Sender<Notification>,
    /// Write transactions the writer committed ([`Store::commits`]).
    commits: Arc<AtomicU64>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Closing the channel lets the writer finish what is queued and exit; joining it
        // means a reopen of the same file right after finds everything committed and closed.
        if let Ok(mut writer) = self.writer.lock() {
            writer.take();
        }
        let handle = self.writer_thread.lock().ok().and_then(|mut h| h.take());
        if let Some(handle) = handle {
            let _ = handle.join();
        }
        let checkpointer = self.checkpointer.lock().ok().and_then(|mut c| c.take());
        if let Some((stop, handle)) = checkpointer {
            drop(stop);
            let _ = handle.join();
        }
    }
}

/// Maps a rusqlite error: lock timeouts, I/O and a full disk are `unavailable`, damage is
/// `corrupt`, the rest `backend`.
fn sql_err(e: rusqlite::Error) -> StoreError {
    match &e {
        rusqlite::Error::SqliteFailure(f, _) => match f.code {
            ErrorCode::DatabaseBusy
            | ErrorCode::DatabaseLocked
            | ErrorCode::CannotOpen
            | ErrorCode::SystemIoFailure
            | ErrorCode::DiskFull
            | ErrorCode::OutOfMemory
            | ErrorCode::PermissionDenied
            | ErrorCode::ReadOnly
            | ErrorCode::FileLockingProtocolFailed => StoreError::Unavailable(e.to_string()),
            ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase => {
                StoreError::Corrupt(e.to_string())
            }
            _ => StoreError::Backend(e.to_string()),
        },
        _ => StoreError::Backend(e.to_string()),
    }
}

/// Runs a parameterless statement through the statement cache (no re-parsing per call).
fn exec(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

fn gone() -> StoreError {
    StoreError::Unavailable("the SQLite writer thread has stopped".to_owned())
}

// ----- the writer ------------------------------------------------------------------------

/// One queued write: runs inside the batch transaction, answers after the commit.
trait WriteJob: Send {
    /// Runs the job's statements (inside its own savepoint).
    fn run(&mut self, conn: &Connection);
    /// Answers the caller, given how the batch's commit went.
    fn finish(self: Box<Self>, commit: &StoreResult<()>, notify: &broadcast::Sender<Notification>);
}

type JobOutput<T> = StoreResult<(T, Vec<CommitNotice>)>;

struct Job<T, F> {
    work: Option<F>,
    output: Option<JobOutput<T>>,
    reply: oneshot::Sender<StoreResult<T>>,
}

impl<T, F> WriteJob for Job<T, F>
where
    T: Send,
    F: FnOnce(&Connection) -> JobOutput<T> + Send,
{
    fn run(&mut self, conn: &Connection) {
        let Some(work) = self.work.take() else { return };
        if let Err(e) = exec(conn, "SAVEPOINT job") {
            self.output = Some(Err(sql_err(e)));
            return;
        }
        let output = work(conn);
        let end = if output.is_ok() {
            exec(conn, "RELEASE job")
        } else {
            exec(conn, "ROLLBACK TO job").and_then(|()| exec(conn, "RELEASE job"))
        };
        self.output = Some(match end {
            Ok(()) => output,
            Err(e) => Err(sql_err(e)),
        });
    }

    fn finish(self: Box<Self>, commit: &StoreResult<()>, notify: &broadcast::Sender<Notification>) {
        let answer = match (self.output, commit) {
            (Some(Ok((value, notices))), Ok(())) => {
                for n in notices {
                    // No subscriber is fine.
                    let _ = notify.send(Notification::Commit(n));
                }
                Ok(value)
            }
            // The job's own error (e.g. a conflict) stands whatever the commit did.
            (Some(Err(e)), _) => Err(e),
            (_, Err(e)) => Err(e.clone()),
            (None, Ok(())) => Err(StoreError::Backend("write job did not run".to_owned())),
        };
        let _ = self.reply.send(answer);
    }
}

/// Checkpoints the WAL every `interval` until `stop` is dropped.
fn checkpoint_loop(conn: Connection, stop: mpsc::Receiver<()>, interval: Duration) {
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(interval) {
        // Busy or failing checkpoints are retried at the next tick; the writer's own
        // autocheckpoint is the backstop.
        let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
    }
}

fn writer_loop(
    conn: Connection,
    rx: mpsc::Receiver<Box<dyn WriteJob>>,
    max_batch: usize,
    notify: broadcast::Sender<Notification>,
    commits: Arc<AtomicU64>,
) {
    let max_batch = max_batch.max(1);
    while let Ok(first) = rx.recv() {
        let mut jobs = vec![first];
        while jobs.len() < max_batch {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let commit = match exec(&conn, "BEGIN IMMEDIATE") {
            Err(e) => Err(sql_err(e)),
            Ok(()) => {
                for job in jobs.iter_mut() {
                    job.run(&conn);
                }
                match exec(&conn, "COMMIT") {
                    Ok(()) => {
                        commits.fetch_add(1, Ordering::Relaxed);
                        Ok(())
                    }
                    Err(e) => {
                        let _ = conn.execute_batch("ROLLBACK");
                        Err(sql_err(e))
                    }
                }
            }
        };
        for job in jobs {
            job.finish(&commit, &notify);
        }
    }
}

// ----- opening ---------------------------------------------------------------------------

fn configure(conn: &Connection, options: &SqliteOptions) -> StoreResult<()> {
    conn.busy_timeout(options.busy_timeout).map_err(sql_err)?;
    conn.execute_batch("PRAGMA foreign_keys = ON;")
        .map_err(sql_err)?;
    Ok(())
}

fn open_connection(path: &Path, options: &SqliteOptions) -> StoreResult<Connection> {
    let conn = Connection::open(path).map_err(|e| {
        StoreError::Unavailable(format!(
            "cannot open SQLite database {}: {e}",
            path.display()
        ))
    })?;
    configure(&conn, options)?;
    Ok(conn)
}

fn migrate(conn: &mut Connection) -> StoreResult<()> {
    let mig = |e: rusqlite::Error| StoreError::Migration(e.to_string());
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS turnstile_schema_version (
             version INTEGER NOT NULL PRIMARY KEY,
             applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
         )",
    )
    .map_err(|e| match sql_err(e) {
        StoreError::Backend(m) => StoreError::Migration(m),
        other => other,
    })?;
    for (version, sql) in migrations::SQLITE {
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(sql_err)?;
        let current: i64 = tx
            .query_row(
                "SELECT COALESCE(MAX(version), 0) FROM turnstile_schema_version",
                [],
                |r| r.get(0),
            )
            .map_err(mig)?;
        if current > migrations::CURRENT {
            return Err(StoreError::Migration(format!(
                "the database's schema version {current} is newer than this build's ({})",
                migrations::CURRENT
            )));
        }
        if current >= *version {
            continue;
        }
        tx.execute_batch(sql)
            .map_err(|e| StoreError::Migration(format!("migration {version}: {e}")))?;
        tx.execute(
            "INSERT INTO turnstile_schema_version (version) VALUES (?1)",
            [version],
        )
        .map_err(mig)?;
        tx.commit().map_err(mig)?;
    }
    Ok(())
}

impl SqliteStore {
    /// Opens (creating if missing) the database file at `path`, sets WAL mode and runs
    /// pending migrations. The parent directory must exist.
    pub async fn open(path: &Path, options: SqliteOptions) -> StoreResult<SqliteStore> {
        let path = path.to_path_buf();
        let opened = tokio::task::spawn_blocking(move || Self::open_blocking(path, options))
            .await
            .map_err(|e| StoreError::Backend(format!("open task failed: {e}")))?;
        opened
    }

    /// [`SqliteStore::open`] for callers outside a runtime (tools, tests).
    pub fn open_blocking(path: PathBuf, options: SqliteOptions) -> StoreResult<SqliteStore> {
        if path.as_os_str().is_empty() {
            return Err(StoreError::Invalid("empty SQLite path".to_owned()));
        }
        if let Some(parent) = path.parent() {
            if !parent.as_os_str().is_empty() && !parent.is_dir() {
                return Err(StoreError::Unavailable(format!(
                    "cannot open SQLite database {}: directory {} does not exist",
                    path.display(),
                    parent.display()
                )));
            }
        }
        let mut conn = open_connection(&path, &options)?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(sql_err)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Unavailable(format!(
                "SQLite database {} cannot use WAL mode (journal_mode is {mode})",
                path.display()
            )));
        }
        let sync = match options.synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        conn.execute_batch(&format!(
            "PRAGMA synchronous = {sync}; PRAGMA wal_autocheckpoint = {};",
            options.writer_checkpoint_pages
        ))
        .map_err(sql_err)?;
        migrate(&mut conn)?;
        let checkpoint_conn = open_connection(&path, &options)?;
        checkpoint_conn
            .execute_batch(&format!("PRAGMA synchronous = {sync};"))
            .map_err(sql_err)?;

        let (notify, _) = broadcast::channel(options.notification_capacity.max(16));
        let (tx, rx) = mpsc::channel::<Box<dyn WriteJob>>();
        let max_batch = options.max_batch;
        let thread_notify = notify.clone();
        let commits = Arc::new(AtomicU64::new(0));
        let thread_commits = Arc::clone(&commits);
        let handle = std::thread::Builder::new()
            .name("turnstile-sqlite-writer".to_owned())
            .spawn(move || writer_loop(conn, rx, max_batch, thread_notify, thread_commits))
            .map_err(|e| StoreError::Unavailable(format!("cannot start the writer thread: {e}")))?;
        let (stop, stopped) = mpsc::channel();
        let interval = options.checkpoint_interval;
        let checkpointer = std::thread::Builder::new()
            .name("turnstile-sqlite-checkpoint".to_owned())
            .spawn(move || checkpoint_loop(checkpoint_conn, stopped, interval))
            .map_err(|e| {
                StoreError::Unavailable(format!("cannot start the checkpoint thread: {e}"))
            })?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                path,
                options,
                writer: Mutex::new(Some(tx)),
                writer_thread: Mutex::new(Some(handle)),
                checkpointer: Mutex::new(Some((stop, checkpointer))),
                readers: Mutex::new(Vec::new()),
                notify,
                commits,
            }),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Queues a write and waits for its answer (after the batch's commit).
    async fn write<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> JobOutput<T> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job: Box<dyn WriteJob> = Box::new(Job {
            work: Some(work),
            output: None,
            reply,
        });
        {
            let writer = self.inner.writer.lock().map_err(|_| gone())?;
            writer
                .as_ref()
                .ok_or_else(gone)?
                .send(job)
                .map_err(|_| gone())?;
        }
        answer.await.map_err(|_| gone())?
    }

    /// Runs a read on a reader connection on a blocking thread.
    async fn read<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || {
            let pooled = inner.readers.lock().ok().and_then(|mut r| r.pop());
            let conn = match pooled {
                Some(c) => c,
                None => {
                    let c = open_connection(&inner.path, &inner.options)?;
                    c.execute_batch("PRAGMA query_only = ON;")
                        .map_err(sql_err)?;
                    c
                }
            };
            let result = work(&conn);
            if let Ok(mut readers) = inner.readers.lock() {
                if readers.len() < inner.options.readers {
                    readers.push(conn);
                }
            }
            result
        })
        .await
        .map_err(|e| StoreError::Backend(format!("read task failed: {e}")))?
    }
}

// ----- row helpers -----------------------------------------------------------------------

struct RawMatch {
    id: String,
    game: String,
    config: String,
    revision: String,
    seed: String,
    seats: String,
    tick_rate: i64,
    seat_token_hashes: String,
    spectator_token_hash: Option<String>,
    created_at_ms: i64,
    status: String,
    outcome: Option<String>,
    last_activity_ms: i64,
}

fn raw_match(r: &Row<'_>) -> rusqlite::Result<RawMatch> {
    Ok(RawMatch {
        id: r.get(0)?,
        game: r.get(1)?,
        config: r.get(2)?,
        revision: r.get(3)?,
        seed: r.get(4)?,
        seats: r.get(5)?,
        tick_rate: r.get(6)?,
        seat_token_hashes: r.get(7)?,
        spectator_token_hash: r.get(8)?,
        created_at_ms: r.get(9)?,
        status: r.get(10)?,
        outcome: r.get(11)?,
        last_activity_ms: r.get(12)?,
    })
}

fn match_of(raw: RawMatch) -> StoreResult<MatchRecord> {
    decode_match(
        raw.id,
        raw.game,
        &raw.config,
        raw.revision,
        raw.seed,
        &raw.seats,
        raw.tick_rate,
        &raw.seat_token_hashes,
        raw.spectator_token_hash,
        raw.created_at_ms,
        &raw.status,
        raw.outcome.as_deref(),
        raw.last_activity_ms,
    )
}

fn log_of(r: &Row<'_>) -> rusqlite::Result<RawLog> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
    ))
}

fn snapshot_of(r: &Row<'_>) -> rusqlite::Result<RawSnapshot> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
}

fn lease_of(match_id: &str, r: &Row<'_>) -> rusqlite::Result<(String, String, i64, i64)> {
    Ok((match_id.to_owned(), r.get(0)?, r.get(1)?, r.get(2)?))
}

fn ready_in(conn: &Connection, match_id: &str) -> StoreResult<Vec<u16>> {
    let mut stmt = conn
        .prepare_cached("SELECT seat FROM ready_marks WHERE match_id = ?1 ORDER BY seat")
        .map_err(sql_err)?;
    let seats = stmt
        .query_map([match_id], |r| r.get::<_, i64>(0))
        .map_err(sql_err)?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(sql_err)?;
    decode_seats(seats)
}

fn match_exists(conn: &Connection, match_id: &str) -> StoreResult<bool> {
    conn.prepare_cached("SELECT 1 FROM matches WHERE id = ?1")
        .and_then(|mut s| s.exists([match_id]))
        .map_err(sql_err)
}

fn require_match(conn: &Connection, match_id: &str) -> StoreResult<()> {
    if match_exists(conn, match_id)? {
        Ok(())
    } else {
        Err(StoreError::NotFound(format!("match {match_id}")))
    }
}

fn last_sequence_in(conn: &Connection, match_id: &str) -> StoreResult<u64> {
    let last: i64 = conn
        .prepare_cached("SELECT COALESCE(MAX(sequence), 0) FROM command_log WHERE match_id = ?1")
        .and_then(|mut s| s.query_row([match_id], |r| r.get(0)))
        .map_err(sql_err)?;
    to_u64("sequence", last)
}

/// Appends one record inside the writer's transaction (the writer is the only one, so the
/// checks and the insert cannot interleave with another append of this process; other
/// processes are excluded by `BEGIN IMMEDIATE`).
fn append_in(conn: &Connection, a: &PreparedAppend) -> StoreResult<CommitNotice> {
    let (exists, taken, last): (bool, bool, i64) = conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM matches WHERE id = ?1),
                    EXISTS (SELECT 1 FROM command_log WHERE match_id = ?1 AND command_id = ?2),
                    (SELECT COALESCE(MAX(sequence), 0) FROM command_log WHERE match_id = ?1)",
        )
        .and_then(|mut s| {
            s.query_row(params![a.match_id, a.command_id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
        })
        .map_err(sql_err)?;
    if let Some(refusal) = a.refusal(exists, taken, to_u64("sequence", last)?) {
        return Err(refusal);
    }
    conn.prepare_cached(
        "INSERT INTO command_log
             (match_id, sequence, command_id, tick, envelope, receipt, recorded_at_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )
    .and_then(|mut s| {
        s.execute(params![
            a.match_id,
            a.sequence_i64,
            a.command_id,
            a.tick,
            a.envelope,
            a.receipt,
            a.recorded_at_ms
        ])
    })
    .map_err(sql_err)?;
    conn.prepare_cached(
        "UPDATE matches SET last_activity_ms = MAX(last_activity_ms, ?2) WHERE id = ?1",
    )
    .and_then(|mut s| s.execute(params![a.match_id, a.recorded_at_ms]))
    .map_err(sql_err)?;
    Ok(CommitNotice {
        match_id: a.match_id.clone(),
        sequence: a.sequence,
    })
}

// ----- the trait -------------------------------------------------------------------------

#[async_trait]
impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn describe(&self) -> String {
        format!("sqlite:{}", self.inner.path.display())
    }

    fn commits(&self) -> u64 {
        self.inner.commits.load(Ordering::Relaxed)
    }

    async fn ping(&self) -> StoreResult<()> {
        self.read(|c| c.query_row("SELECT 1", [], |_| Ok(())).map_err(sql_err))
            .await?;
        // The writer must be alive too.
        self.write(|_| Ok(((), Vec::new()))).await
    }

    async fn put_content(&self, record: &ContentRecord) -> StoreResult<PutOutcome> {
        let record = record.clone();
        self.write(move |c| {
            let existing: Option<String> = c
                .query_row(
                    "SELECT bundle FROM content WHERE game = ?1 AND revision = ?2",
                    params![record.game, record.revision],
                    |r| r.get(0),
                )
                .optional()
                .map_err(sql_err)?;
            if let Some(text) = existing {
                let stored = parse_json("content bundle", &text)?;
                return if stored == record.bundle {
                    Ok((PutOutcome::AlreadyPresent, Vec::new()))
                } else {
                    Err(StoreError::Conflict(Conflict::ContentRevision {
                        game: record.game.clone(),
                        revision: record.revision.clone(),
                    }))
                };
            }
            c.execute(
                "INSERT INTO content (game, revision, bundle, created_at_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![
                    record.game,
                    record.revision,
                    json_text(&record.bundle),
                    record.created_at_ms
                ],
            )
            .map_err(sql_err)?;
            Ok((PutOutcome::Inserted, Vec::new()))
        })
        .await
    }

    async fn get_content(&self, game: &str, revision: &str) -> StoreResult<Option<ContentRecord>> {
        let (game, revision) = (game.to_owned(), revision.to_owned());
        self.read(move |c| {
            let row: Option<(String, i64)> = c
                .query_row(
                    "SELECT bundle, created_at_ms FROM content WHERE game = ?1 AND revision = ?2",
                    params![game, revision],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(sql_err)?;
            row.map(|(bundle, created_at_ms)| {
                Ok(ContentRecord {
                    bundle: parse_json("content bundle", &bundle)?,
                    game,
                    revision,
                    created_at_ms,
                })
            })
            .transpose()
        })
        .await
    }

    async fn set_current_revision(&self, game: &str, revision: &str) -> StoreResult<()> {
        let (game, revision) = (game.to_owned(), revision.to_owned());
        self.write(move |c| {
            let stored = c
                .prepare_cached("SELECT 1 FROM content WHERE game = ?1 AND revision = ?2")
                .and_then(|mut s| s.exists(params![game, revision]))
                .map_err(sql_err)?;
            if !stored {
                return Err(StoreError::NotFound(format!(
                    "content of game {game} revision {revision}"
                )));
            }
            c.execute(
                "INSERT INTO current_revision (game, revision) VALUES (?1, ?2)
                 ON CONFLICT (game) DO UPDATE SET revision = excluded.revision",
                params![game, revision],
            )
            .map_err(sql_err)?;
            Ok(((), Vec::new()))
        })
        .await
    }

    async fn current_revision(&self, game: &str) -> StoreResult<Option<String>> {
        let game = game.to_owned();
        self.read(move |c| {
            c.query_row(
                "SELECT revision FROM current_revision WHERE game = ?1",
                [game],
                |r| r.get(0),
            )
            .optional()
            .map_err(sql_err)
        })
        .await
    }

    async fn create_match_with_names(
        &self,
        record: &MatchRecord,
        names: &[(u16, String)],
    ) -> StoreResult<()> {
        let m = record.clone();
        let names = names.to_vec();
        self.write(move |c| {
            let stored = c
                .prepare_cached("SELECT 1 FROM content WHERE game = ?1 AND revision = ?2")
                .and_then(|mut s| s.exists(params![m.game, m.revision]))
                .map_err(sql_err)?;
            if !stored {
                return Err(StoreError::NotFound(format!(
                    "content of game {} revision {} (store it before creating a match)",
                    m.game, m.revision
                )));
            }
            if match_exists(c, &m.id)? {
                return Err(StoreError::Conflict(Conflict::MatchId {
                    match_id: m.id.clone(),
                }));
            }
            c.execute(
                &format!(
                    "INSERT INTO matches ({MATCH_COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
                ),
                params![
                    m.id,
                    m.game,
                    json_text(&m.config),
                    m.revision,
                    m.seed,
                    json_text(&m.seats),
                    i64::from(m.tick_rate),
                    encode_token_hashes(&m.seat_token_hashes),
                    m.spectator_token_hash,
                    m.created_at_ms,
                    m.status.as_str(),
                    m.outcome.as_ref().map(json_text),
                    m.last_activity_ms
                ],
            )
            .map_err(sql_err)?;
            let mut insert = c
                .prepare_cached(
                    "INSERT INTO match_tokens (token_hash, match_id) VALUES (?1, ?2)
                     ON CONFLICT DO NOTHING",
                )
                .map_err(sql_err)?;
            for hash in m
                .seat_token_hashes
                .iter()
                .flatten()
                .chain(m.spectator_token_hash.iter())
            {
                insert.execute(params![hash, m.id]).map_err(sql_err)?;
            }
            let mut open = c
                .prepare_cached("INSERT INTO open_seats (match_id, seat) VALUES (?1, ?2)")
                .map_err(sql_err)?;
            for seat in open_seats_at_creation(&m) {
                open.execute(params![m.id, i64::from(seat)])
                    .map_err(sql_err)?;
            }
            let mut named = c
                .prepare_cached("INSERT INTO seat_names (match_id, seat, name) VALUES (?1, ?2, ?3)")
                .map_err(sql_err)?;
            for (seat, name) in &names {
                named
                    .execute(params![m.id, i64::from(*seat), name])
                    .map_err(sql_err)?;
            }
            Ok(((), Vec::new()))
        })
        .await
    }

    async fn get_match(&self, match_id: &str) -> StoreResult<Option<MatchRecord>> {
        let match_id = match_id.to_owned();
        self.read(move |c| {
            let raw = c
                .query_row(
                    &format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?1"),
                    [match_id],
                    raw_match,
                )
                .optional()
                .map_err(sql_err)?;
            raw.map(match_of).transpose()
        })
        .await
    }

    async fn find_matches_by_token_hashes(
        &self,
        token_hashes: &[String],
    ) -> StoreResult<Vec<MatchRecord>> {
        if token_hashes.is_empty() {
            return Ok(Vec::new());
        }
        let hashes =
            serde_json::to_string(token_hashes).map_err(|e| StoreError::Invalid(e.to_string()))?;
        self.read(move |c| {
            let mut stmt = c
                .prepare_cached(&format!(
                    "SELECT {MATCH_COLUMNS} FROM matches WHERE id IN (
                         SELECT match_id FROM match_tokens
                         WHERE token_hash IN (SELECT value FROM json_each(?1)))
                     ORDER BY created_at_ms DESC, id DESC"
                ))
                .map_err(sql_err)?;
            let rows = stmt
                .query_map([hashes], raw_match)
                .map_err(sql_err)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sql_err)?;
            rows.into_iter().map(match_of).collect()
        })
        .await
    }

    async fn set_match_status(
        &self,
        match_id: &str,
        status: MatchStatus,
        outcome: Option<&Value>,
        now_ms: i64,
    ) -> StoreResult<()> {
        let match_id = match_id.to_owned();
        let outcome = outcome.map(json_text);
        self.write(move |c| {
            let n = c
                .execute(
                    "UPDATE matches SET status = ?2, outcome = ?3,
                         last_activity_ms = MAX(last_activity_ms, ?4)
                     WHERE id = ?1",
                    params![match_id, status.as_str(), outcome, now_ms],
                )
                .map_err(sql_err)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("match {match_id}")));
            }
            Ok(((), Vec::new()))
        })
        .await
    }

    async fn list_active_matches(&self) -> StoreResult<Vec<MatchRecord>> {
        self.read(|c| {
            let mut stmt = c
                .prepare_cached(&format!(
                    "SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'active'
                     ORDER BY created_at_ms, id"
                ))
                .map_err(sql_err)?;
            let rows = stmt
                .query_map([], raw_match)
                .map_err(sql_err)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sql_err)?;
            rows.into_iter().map(match_of).collect()
        })
        .await
    }

    async fn claim_seat(
        &self,
        match_id: &str,
        token_hash: &str,
        name: Option<&str>,
        now_ms: i64,
    ) -> StoreResult<SeatClaim> {
        let (match_id, token_hash) = (match_id.to_owned(), token_hash.to_owned());
        let name = name.map(str::to_owned);
        // One write job: the single writer runs it alone inside its transaction, so the read
        // of the lowest open seat and the writes that take it cannot interleave with another
        // claim.
        self.write(move |c| {
            let row: Option<(String, String)> = c
                .query_row(
                    "SELECT status, seat_token_hashes FROM matches WHERE id = ?1",
                    [&match_id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(sql_err)?;
            let Some((status, hashes)) = row else {
                return Err(StoreError::NotFound(format!("match {match_id}")));
            };
            let lowest: Option<i64> = c
                .query_row(
                    "SELECT MIN(seat) FROM open_seats WHERE match_id = ?1",
                    [&match_id],
                    |r| r.get(0),
                )
                .map_err(sql_err)?;
            let (seat, hashes) = match decide_claim(&status, &hashes, lowest, &token_hash)? {
                ClaimDecision::Refuse(answer) => return Ok((answer, Vec::new())),
                ClaimDecision::Take { seat, hashes } => (seat, hashes),
            };
            c.execute(
                "DELETE FROM open_seats WHERE match_id = ?1 AND seat = ?2",
                params![match_id, i64::from(seat)],
            )
            .map_err(sql_err)?;
            c.execute(
                "UPDATE matches SET seat_token_hashes = ?2,
                     last_activity_ms = MAX(last_activity_ms, ?3)
                 WHERE id = ?1",
                params![match_id, hashes, now_ms],
            )
            .map_err(sql_err)?;
            c.execute(
                "INSERT INTO match_tokens (token_hash, match_id) VALUES (?1, ?2)
                 ON CONFLICT DO NOTHING",
                params![token_hash, match_id],
            )
            .map_err(sql_err)?;
            if let Some(name) = name {
                c.execute(
                    "INSERT INTO seat_names (match_id, seat, name) VALUES (?1, ?2, ?3)
                     ON CONFLICT (match_id, seat) DO UPDATE SET name = excluded.name",
                    params![match_id, i64::from(seat), name],
                )
                .map_err(sql_err)?;
            }
            Ok((SeatClaim::Claimed(seat), Vec::new()))
        })
        .await
    }

    async fn list_open_matches(&self, limit: u32) -> StoreResult<Vec<OpenMatch>> {
        self.read(move |c| {
            let mut stmt = c
                .prepare_cached(&format!(
                    "SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'active' AND id IN (
                         SELECT match_id FROM open_seats)
                     ORDER BY created_at_ms DESC, id DESC LIMIT ?1"
                ))
                .map_err(sql_err)?;
            let rows = stmt
                .query_map([i64::from(limit)], raw_match)
                .map_err(sql_err)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sql_err)?;
            let mut seats = c
                .prepare_cached("SELECT seat FROM open_seats WHERE match_id = ?1 ORDER BY seat")
                .map_err(sql_err)?;
            let mut open = Vec::new();
            for raw in rows {
                let record = match_of(raw)?;
                let raw_seats = seats
                    .query_map([&record.id], |r| r.get::<_, i64>(0))
                    .map_err(sql_err)?
                    .collect::<rusqlite::Result<Vec<_>>>()
                    .map_err(sql_err)?;
                open.push(OpenMatch {
                    record,
                    open_seats: decode_seats(raw_seats)?,
                });
            }
            Ok(open)
        })
        .await
    }

    async fn seat_names(&self, match_id: &str) -> StoreResult<Vec<(u16, String)>> {
        let match_id = match_id.to_owned();
        self.read(move |c| {
            let mut stmt = c
                .prepare_cached(
                    "SELECT seat, name FROM seat_names WHERE match_id = ?1 ORDER BY seat",
                )
                .map_err(sql_err)?;
            let rows = stmt
                .query_map([match_id], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
                })
                .map_err(sql_err)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sql_err)?;
            let (seats, names): (Vec<i64>, Vec<String>) = rows.into_iter().unzip();
            Ok(decode_seats(seats)?.into_iter().zip(names).collect())
        })
        .await
    }

    async fn mark_ready(&self, match_id: &str, seat: u16) -> StoreResult<Vec<u16>> {
        let match_id = match_id.to_owned();
        self.write(move |c| {
            require_match(c, &match_id)?;
            c.execute(
                "INSERT INTO ready_marks (match_id, seat) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                params![match_id, i64::from(seat)],
            )
            .map_err(sql_err)?;
            Ok((ready_in(c, &match_id)?, Vec::new()))
        })
        .await
    }

    async fn ready_seats(&self, match_id: &str) -> StoreResult<Vec<u16>> {
        let match_id = match_id.to_owned();
        self.read(move |c| ready_in(c, &match_id)).await
    }

    async fn archive_idle(&self, idle_before_ms: i64) -> StoreResult<Vec<String>> {
        self.write(move |c| {
            let mut stmt = c
                .prepare_cached(
                    "UPDATE matches SET status = 'archived'
                     WHERE status <> 'archived' AND last_activity_ms < ?1
                     RETURNING id",
                )
                .map_err(sql_err)?;
            let mut ids = stmt
                .query_map([idle_before_ms], |r| r.get::<_, String>(0))
                .map_err(sql_err)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sql_err)?;
            ids.sort();
            Ok((ids, Vec::new()))
        })
        .await
    }

    async fn append(&self, match_id: &str, record: &LogRecord) -> StoreResult<()> {
        let prepared = PreparedAppend::new(match_id, record)?;
        self.write(move |c| {
            let notice = append_in(c, &prepared)?;
            Ok(((), vec![notice]))
        })
        .await
    }

    async fn append_json(&self, match_id: &str, record: JsonLogRecord) -> StoreResult<()> {
        let prepared = PreparedAppend::from_json(match_id, record)?;
        self.write(move |c| {
            let notice = append_in(c, &prepared)?;
            Ok(((), vec![notice]))
        })
        .await
    }

    async fn append_many(
        &self,
        entries: &[(String, LogRecord)],
    ) -> StoreResult<Vec<AppendOutcome>> {
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let prepared: Vec<StoreResult<PreparedAppend>> = entries
            .iter()
            .map(|(m, r)| PreparedAppend::new(m, r))
            .collect();
        self.write(move |c| {
            let mut outcomes = Vec::with_capacity(prepared.len());
            let mut notices = Vec::new();
            for entry in &prepared {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        outcomes.push(Err(e.clone()));
                        continue;
                    }
                };
                exec(c, "SAVEPOINT entry").map_err(sql_err)?;
                match append_in(c, entry) {
                    Ok(notice) => {
                        exec(c, "RELEASE entry").map_err(sql_err)?;
                        notices.push(notice);
                        outcomes.push(Ok(()));
                    }
                    Err(e) => {
                        exec(c, "ROLLBACK TO entry")
                            .and_then(|()| exec(c, "RELEASE entry"))
                            .map_err(sql_err)?;
                        outcomes.push(Err(e));
                    }
                }
            }
            Ok((outcomes, notices))
        })
        .await
    }

    async fn log(
        &self,
        match_id: &str,
        after_sequence: u64,
        limit: u32,
    ) -> StoreResult<Vec<LogRecord>> {
        let match_id = match_id.to_owned();
        let after = to_i64("sequence", after_sequence)?;
        self.read(move |c| {
            let mut stmt = c
                .prepare_cached(&format!(
                    "SELECT {LOG_COLUMNS} FROM command_log
                     WHERE match_id = ?1 AND sequence > ?2 ORDER BY sequence LIMIT ?3"
                ))
                .map_err(sql_err)?;
            let rows = stmt
                .query_map(params![match_id, after, i64::from(limit)], log_of)
                .map_err(sql_err)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sql_err)?;
            rows.into_iter().map(decode_log).collect()
        })
        .await
    }

    async fn command(&self, match_id: &str, command_id: &str) -> StoreResult<Option<LogRecord>> {
        let (match_id, command_id) = (match_id.to_owned(), command_id.to_owned());
        self.read(move |c| {
            let raw = c
                .prepare_cached(&format!(
                    "SELECT {LOG_COLUMNS} FROM command_log
                     WHERE match_id = ?1 AND command_id = ?2"
                ))
                .and_then(|mut s| {
                    s.query_row(params![match_id, command_id], log_of)
                        .optional()
                })
                .map_err(sql_err)?;
            raw.map(decode_log).transpose()
        })
        .await
    }

    async fn last_sequence(&self, match_id: &str) -> StoreResult<u64> {
        let match_id = match_id.to_owned();
        self.read(move |c| last_sequence_in(c, &match_id)).await
    }

    async fn remember_rejection(
        &self,
        match_id: &str,
        record: &RejectionRecord,
    ) -> StoreResult<()> {
        let match_id = match_id.to_owned();
        let r = record.clone();
        self.write(move |c| {
            require_match(c, &match_id)?;
            let n = c
                .execute(
                    "INSERT INTO rejections
                         (match_id, command_id, seat, action_fingerprint, rejection, recorded_at_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                     ON CONFLICT DO NOTHING",
                    params![
                        match_id,
                        r.command_id,
                        r.seat.map(i64::from),
                        r.action_fingerprint,
                        json_text(&r.rejection),
                        r.recorded_at_ms
                    ],
                )
                .map_err(sql_err)?;
            if n == 0 {
                return Err(StoreError::Conflict(Conflict::Rejection {
                    match_id: match_id.clone(),
                    command_id: r.command_id.clone(),
                }));
            }
            Ok(((), Vec::new()))
        })
        .await
    }

    async fn rejection(
        &self,
        match_id: &str,
        command_id: &str,
    ) -> StoreResult<Option<RejectionRecord>> {
        let (match_id, command_id) = (match_id.to_owned(), command_id.to_owned());
        self.read(move |c| {
            let raw: Option<(Option<i64>, String, String, i64)> = c
                .query_row(
                    "SELECT seat, action_fingerprint, rejection, recorded_at_ms FROM rejections
                     WHERE match_id = ?1 AND command_id = ?2",
                    params![match_id, command_id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()
                .map_err(sql_err)?;
            raw.map(|(seat, action_fingerprint, rejection, recorded_at_ms)| {
                Ok(RejectionRecord {
                    command_id,
                    seat: seat
                        .map(|s| {
                            u32::try_from(s)
                                .map_err(|_| StoreError::Corrupt(format!("stored seat {s}")))
                        })
                        .transpose()?,
                    action_fingerprint,
                    rejection: parse_json("rejection", &rejection)?,
                    recorded_at_ms,
                })
            })
            .transpose()
        })
        .await
    }

    async fn put_snapshot(&self, match_id: &str, record: &SnapshotRecord) -> StoreResult<()> {
        let match_id = match_id.to_owned();
        let s = record.clone();
        let sequence = to_i64("snapshot sequence", s.sequence)?;
        let tick = to_i64("snapshot tick", s.tick)?;
        self.write(move |c| {
            require_match(c, &match_id)?;
            c.execute(
                &format!(
                    "INSERT INTO snapshots (match_id, {SNAPSHOT_COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING"
                ),
                params![
                    match_id,
                    sequence,
                    tick,
                    s.state_fingerprint,
                    s.last_receipt_hash,
                    json_text(&s.state)
                ],
            )
            .map_err(sql_err)?;
            Ok(((), Vec::new()))
        })
        .await
    }

    async fn latest_snapshot(&self, match_id: &str) -> StoreResult<Option<SnapshotRecord>> {
        Ok(self.snapshots(match_id, 1).await?.into_iter().next())
    }

    async fn snapshots(&self, match_id: &str, limit: u32) -> StoreResult<Vec<SnapshotRecord>> {
        let match_id = match_id.to_owned();
        self.read(move |c| {
            let mut stmt = c
                .prepare_cached(&format!(
                    "SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE match_id = ?1
                     ORDER BY sequence DESC LIMIT ?2"
                ))
                .map_err(sql_err)?;
            let rows = stmt
                .query_map(params![match_id, i64::from(limit)], snapshot_of)
                .map_err(sql_err)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sql_err)?;
            rows.into_iter().map(decode_snapshot).collect()
        })
        .await
    }

    async fn try_acquire_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<LeaseOutcome> {
        let (match_id, node_id) = (match_id.to_owned(), node_id.to_owned());
        let tick = to_i64("heartbeat tick", heartbeat_tick)?;
        let expires_at_ms = now_ms.saturating_add(ttl_ms);
        self.write(move |c| {
            require_match(c, &match_id)?;
            let current = c
                .query_row(
                    "SELECT node_id, expires_at_ms, last_heartbeat_tick FROM leases
                     WHERE match_id = ?1",
                    [&match_id],
                    |r| lease_of(&match_id, r),
                )
                .optional()
                .map_err(sql_err)?
                .map(decode_lease)
                .transpose()?;
            let previous = match decide_lease(current, &node_id, now_ms) {
                LeaseDecision::Held(lease) => return Ok((LeaseOutcome::Held(lease), Vec::new())),
                LeaseDecision::Take { previous } => previous,
            };
            c.execute(
                "INSERT INTO leases (match_id, node_id, expires_at_ms, last_heartbeat_tick)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (match_id) DO UPDATE SET node_id = excluded.node_id,
                     expires_at_ms = excluded.expires_at_ms,
                     last_heartbeat_tick = excluded.last_heartbeat_tick",
                params![match_id, node_id, expires_at_ms, tick],
            )
            .map_err(sql_err)?;
            Ok((
                LeaseOutcome::Acquired {
                    lease: granted_lease(&match_id, &node_id, now_ms, ttl_ms, heartbeat_tick),
                    previous,
                },
                Vec::new(),
            ))
        })
        .await
    }

    async fn renew_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<Option<LeaseRecord>> {
        let (match_id, node_id) = (match_id.to_owned(), node_id.to_owned());
        let tick = to_i64("heartbeat tick", heartbeat_tick)?;
        let expires_at_ms = now_ms.saturating_add(ttl_ms);
        self.write(move |c| {
            let n = c
                .execute(
                    "UPDATE leases SET expires_at_ms = ?3, last_heartbeat_tick = ?4
                     WHERE match_id = ?1 AND node_id = ?2 AND expires_at_ms > 0",
                    params![match_id, node_id, expires_at_ms, tick],
                )
                .map_err(sql_err)?;
            let lease = (n == 1)
                .then(|| granted_lease(&match_id, &node_id, now_ms, ttl_ms, heartbeat_tick));
            Ok((lease, Vec::new()))
        })
        .await
    }

    async fn release_lease(&self, match_id: &str, node_id: &str) -> StoreResult<bool> {
        let (match_id, node_id) = (match_id.to_owned(), node_id.to_owned());
        self.write(move |c| {
            let n = c
                .execute(
                    "UPDATE leases SET expires_at_ms = 0
                     WHERE match_id = ?1 AND node_id = ?2 AND expires_at_ms > 0",
                    params![match_id, node_id],
                )
                .map_err(sql_err)?;
            Ok((n == 1, Vec::new()))
        })
        .await
    }

    async fn lease(&self, match_id: &str) -> StoreResult<Option<LeaseRecord>> {
        let match_id = match_id.to_owned();
        self.read(move |c| {
            c.query_row(
                "SELECT node_id, expires_at_ms, last_heartbeat_tick FROM leases
                 WHERE match_id = ?1",
                [&match_id],
                |r| lease_of(&match_id, r),
            )
            .optional()
            .map_err(sql_err)?
            .map(decode_lease)
            .transpose()
        })
        .await
    }

    fn subscribe(&self) -> broadcast::Receiver<Notification> {
        self.inner.notify.subscribe()
    }
}
