//! The PostgreSQL backend: a small connection pool for queries and commits, one dedicated
//! `LISTEN` connection for commit notifications, migrations under an advisory lock.
//!
//! Several nodes may share one database. Uniqueness of `(match, sequence)` and
//! `(match, command id)` is enforced by the database, and every append is one statement that
//! inserts only if the sequence is next (`INSERT … SELECT … WHERE … ON CONFLICT DO NOTHING`),
//! touches the match's last activity and `pg_notify`s `turnstile_commits` with
//! `'<match id>:<sequence>'` — all committed together, so a notification is never sent for a
//! record that is not durable, and every node's listener hears every commit.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, PoolError, RecyclingMethod};
use futures::StreamExt;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, NoTls, Row};

use crate::error::{json_text, parse_json, to_i64, to_u64};
use crate::migrations;
use crate::policy::{
    decide_claim, decide_lease, decode_lease, decode_log, decode_match, decode_seats,
    decode_snapshot, encode_token_hashes, granted_lease, open_seats_at_creation, ClaimDecision,
    LeaseDecision, PreparedAppend, LOG_COLUMNS, MATCH_COLUMNS, SNAPSHOT_COLUMNS,
};
use crate::records::*;
use crate::{Conflict, Store, StoreError, StoreResult, COMMIT_CHANNEL};

/// Tuning of [`PostgresStore`].
#[derive(Debug, Clone)]
pub struct PostgresOptions {
    /// How many pooled connections queries and commits use.
    pub pool_size: usize,
    /// How long to wait for a connection (to connect, or from the pool) before `unavailable`.
    pub connect_timeout: Duration,
    /// Capacity of the notification channel (per subscriber backlog).
    pub notification_capacity: usize,
    /// A schema to use instead of the connection's default search path (`-c search_path=`):
    /// it must exist. Lets one database hold several independent Turnstile stores (tests);
    /// their commit notifications then travel on `turnstile_commits_<schema>`, so they don't
    /// hear each other.
    pub schema: Option<String>,
    /// How many group-commit tasks append concurrently (each on its own connection).
    pub committers: usize,
    /// The most log entries one group-commit transaction takes.
    pub max_batch: usize,
}

impl Default for PostgresOptions {
    fn default() -> Self {
        PostgresOptions {
            pool_size: 8,
            connect_timeout: Duration::from_secs(5),
            notification_capacity: 4096,
            schema: None,
            committers: 2,
            max_batch: 512,
        }
    }
}

/// The PostgreSQL store. Cheap to clone (shared handle); dropping the last handle stops its
/// listener.
#[derive(Clone)]
pub struct PostgresStore {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    description: String,
    notify: broadcast::Sender<Notification>,
    listener: tokio::task::JoinHandle<()>,
    appends: mpsc::UnboundedSender<AppendJob>,
    committers: Vec<tokio::task::JoinHandle<()>>,
    /// Append batches the committers committed ([`Store::commits`]).
    commits: Arc<AtomicU64>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.listener.abort();
        for c in &self.committers {
            c.abort();
        }
    }
}

/// A key for `pg_advisory_xact_lock` held while migrating ("turnstil").
const MIGRATION_LOCK: i64 = 0x7475_726e_7374_696c;

/// Maps a tokio-postgres error: connection trouble is `unavailable`, data damage `corrupt`,
/// the rest `backend`.
fn pg_err(e: tokio_postgres::Error) -> StoreError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        return match &code[..2] {
            // connection exception, insufficient resources, operator intervention
            "08" | "53" | "57" => StoreError::Unavailable(e.to_string()),
            // serialization failure, deadlock: retryable
            "40" => StoreError::Unavailable(e.to_string()),
            "XX" if code == "XX001" || code == "XX002" => StoreError::Corrupt(e.to_string()),
            _ => StoreError::Backend(format!("{e}: {}", db.message())),
        };
    }
    let text = e.to_string();
    if text.starts_with("error deserializing") {
        StoreError::Corrupt(text)
    } else if text.starts_with("error serializing") {
        StoreError::Invalid(text)
    } else {
        // closed connection, I/O, connect failure, timeout
        StoreError::Unavailable(match std::error::Error::source(&e) {
            Some(source) => format!("{text}: {source}"),
            None => text,
        })
    }
}

fn pool_err(e: PoolError) -> StoreError {
    match e {
        PoolError::Backend(e) => pg_err(e),
        PoolError::Timeout(t) => {
            StoreError::Unavailable(format!("timed out waiting for a connection ({t:?})"))
        }
        other => StoreError::Unavailable(other.to_string()),
    }
}

/// The URL without its password, for printing.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            format!("{scheme}://{user}@{host}{tail}")
        }
        None => url.to_owned(),
    }
}

fn parse_payload(payload: &str) -> Option<CommitNotice> {
    let (match_id, sequence) = payload.rsplit_once(':')?;
    Some(CommitNotice {
        match_id: match_id.to_owned(),
        sequence: sequence.parse().ok()?,
    })
}

/// Keeps one `LISTEN turnstile_commits` connection up, forever (until aborted): forwards
/// every notification, reconnects with backoff when the connection drops, and sends `Gap`
/// after each reconnection.
async fn listen_loop(
    config: tokio_postgres::Config,
    channel: String,
    notify: broadcast::Sender<Notification>,
    mut ready: Option<oneshot::Sender<StoreResult<()>>>,
) {
    let mut listened_before = false;
    let mut backoff = Duration::from_millis(50);
    loop {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (tx, mut rx) = mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(Ok(message)) = messages.next().await {
                        if let AsyncMessage::Notification(n) = message {
                            if tx.send(n).is_err() {
                                break;
                            }
                        }
                    }
                });
                match client.batch_execute(&format!("LISTEN {channel}")).await {
                    Ok(()) => {
                        if listened_before {
                            let _ = notify.send(Notification::Gap);
                        }
                        listened_before = true;
                        backoff = Duration::from_millis(50);
                        if let Some(ready) = ready.take() {
                            let _ = ready.send(Ok(()));
                        }
                        while let Some(n) = rx.recv().await {
                            if let Some(notice) = parse_payload(n.payload()) {
                                let _ = notify.send(Notification::Commit(notice));
                            }
                        }
                    }
                    Err(e) => {
                        if let Some(ready) = ready.take() {
                            let _ = ready.send(Err(pg_err(e)));
                        }
                    }
                }
                drop(client);
                driver.abort();
            }
            Err(e) => {
                if let Some(ready) = ready.take() {
                    let _ = ready.send(Err(pg_err(e)));
                }
            }
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(2));
    }
}

async fn migrate(pool: &Pool, schema: Option<&str>) -> StoreResult<()> {
    let mig = |e: tokio_postgres::Error| match pg_err(e) {
        StoreError::Backend(m) => StoreError::Migration(m),
        other => other,
    };
    let mut client = pool.get().await.map_err(pool_err)?;
    let tx = client.transaction().await.map_err(pg_err)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(mig)?;
    // A schema named by the operator is created on first use, like the tables in it (the name
    // was checked to be letters, digits and underscores).
    if let Some(schema) = schema {
        tx.batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
            .await
            .map_err(mig)?;
    }
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS turnstile_schema_version (
             version    bigint      NOT NULL PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .await
    .map_err(mig)?;
    let current: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0)::bigint FROM turnstile_schema_version",
            &[],
        )
        .await
        .map_err(mig)?
        .get(0);
    if current > migrations::CURRENT {
        return Err(StoreError::Migration(format!(
            "the database's schema version {current} is newer than this build's ({})",
            migrations::CURRENT
        )));
    }
    for (version, sql) in migrations::POSTGRES {
        if *version <= current {
            continue;
        }
        tx.batch_execute(sql)
            .await
            .map_err(|e| StoreError::Migration(format!("migration {version}: {}", mig(e))))?;
        tx.execute(
            "INSERT INTO turnstile_schema_version (version) VALUES ($1)",
            &[version],
        )
        .await
        .map_err(mig)?;
    }
    tx.commit().await.map_err(mig)
}

impl PostgresStore {
    /// Connects to `url`, runs pending migrations (under an advisory lock, so nodes starting
    /// together don't race) and starts the `LISTEN` connection. Must run inside a tokio
    /// runtime. `unavailable` if the server cannot be reached.
    pub async fn open(url: &str, options: PostgresOptions) -> StoreResult<PostgresStore> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Invalid(format!("bad PostgreSQL URL: {e}")))?;
        config.connect_timeout(options.connect_timeout);
        config.keepalives(true);
        config.keepalives_idle(Duration::from_secs(30));
        if config.get_application_name().is_none() {
            config.application_name("turnstile");
        }
        if let Some(schema) = &options.schema {
            if schema.is_empty()
                || !schema
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Err(StoreError::Invalid(format!(
                    "schema name {schema:?} must be ASCII letters, digits and underscores"
                )));
            }
            config.options(format!("-c search_path={schema}"));
        }
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(1))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(options.connect_timeout))
            .create_timeout(Some(options.connect_timeout))
            .recycle_timeout(Some(options.connect_timeout))
            .build()
            .map_err(|e| StoreError::Invalid(format!("connection pool: {e}")))?;
        migrate(&pool, options.schema.as_deref()).await?;

        let (notify, _) = broadcast::channel(options.notification_capacity.max(16));
        let (ready_tx, ready_rx) = oneshot::channel();
        let channel = match &options.schema {
            Some(schema) => format!("{COMMIT_CHANNEL}_{schema}"),
            None => COMMIT_CHANNEL.to_owned(),
        };
        let append_sql: Arc<str> = APPEND_SQL.replace(COMMIT_CHANNEL, &channel).into();
        let listener = tokio::spawn(listen_loop(config, channel, notify.clone(), Some(ready_tx)));
        let ready = tokio::time::timeout(options.connect_timeout, ready_rx).await;
        match ready {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => {
                listener.abort();
                return Err(e);
            }
            _ => {
                listener.abort();
                return Err(StoreError::Unavailable(
                    "the LISTEN connection did not come up in time".to_owned(),
                ));
            }
        }
        let (appends, queue) = mpsc::unbounded_channel();
        let queue = Arc::new(tokio::sync::Mutex::new(queue));
        let commits = Arc::new(AtomicU64::new(0));
        let committers = (0..options.committers.max(1))
            .map(|_| {
                tokio::spawn(committer(
                    pool.clone(),
                    Arc::clone(&append_sql),
                    Arc::clone(&queue),
                    options.max_batch.max(1),
                    Arc::clone(&commits),
                ))
            })
            .collect();
        Ok(PostgresStore {
            inner: Arc::new(Inner {
                appends,
                committers,
                pool,
                description: redact(url),
                notify,
                listener,
                commits,
            }),
        })
    }

    async fn enqueue(
        &self,
        entries: Vec<StoreResult<PreparedAppend>>,
    ) -> StoreResult<Vec<AppendOutcome>> {
        let (reply, answer) = oneshot::channel();
        self.inner
            .appends
            .send(AppendJob { entries, reply })
            .map_err(|_| StoreError::Unavailable("the committer has stopped".to_owned()))?;
        answer
            .await
            .map_err(|_| StoreError::Unavailable("the committer has stopped".to_owned()))?
    }

    async fn client(&self) -> StoreResult<Object> {
        self.inner.pool.get().await.map_err(pool_err)
    }
}

// ----- row helpers -----------------------------------------------------------------------

fn match_of(r: &Row) -> StoreResult<MatchRecord> {
    let get = |e: tokio_postgres::Error| StoreError::Corrupt(e.to_string());
    decode_match(
        r.try_get(0).map_err(get)?,
        r.try_get(1).map_err(get)?,
        r.try_get::<_, &str>(2).map_err(get)?,
        r.try_get(3).map_err(get)?,
        r.try_get(4).map_err(get)?,
        r.try_get::<_, &str>(5).map_err(get)?,
        r.try_get(6).map_err(get)?,
        r.try_get::<_, &str>(7).map_err(get)?,
        r.try_get(8).map_err(get)?,
        r.try_get(9).map_err(get)?,
        r.try_get::<_, &str>(10).map_err(get)?,
        r.try_get::<_, Option<&str>>(11).map_err(get)?,
        r.try_get(12).map_err(get)?,
    )
}

fn log_of(r: &Row) -> StoreResult<LogRecord> {
    let get = |e: tokio_postgres::Error| StoreError::Corrupt(e.to_string());
    decode_log((
        r.try_get(0).map_err(get)?,
        r.try_get(1).map_err(get)?,
        r.try_get(2).map_err(get)?,
        r.try_get(3).map_err(get)?,
        r.try_get(4).map_err(get)?,
        r.try_get(5).map_err(get)?,
    ))
}

fn snapshot_of(r: &Row) -> StoreResult<SnapshotRecord> {
    let get = |e: tokio_postgres::Error| StoreError::Corrupt(e.to_string());
    decode_snapshot((
        r.try_get(0).map_err(get)?,
        r.try_get(1).map_err(get)?,
        r.try_get(2).map_err(get)?,
        r.try_get(3).map_err(get)?,
        r.try_get(4).map_err(get)?,
    ))
}

fn lease_of(match_id: &str, r: &Row) -> StoreResult<LeaseRecord> {
    let get = |e: tokio_postgres::Error| StoreError::Corrupt(e.to_string());
    decode_lease((
        match_id.to_owned(),
        r.try_get(0).map_err(get)?,
        r.try_get(1).map_err(get)?,
        r.try_get(2).map_err(get)?,
    ))
}

/// One statement: insert if the match exists and the sequence is next, touch the match, and
/// notify — all or nothing. Returns a row only when the record was inserted.
const APPEND_SQL: &str = "
WITH ins AS (
    INSERT INTO command_log
        (match_id, sequence, command_id, tick, envelope, receipt, recorded_at_ms)
    SELECT $1::text, $2::bigint, $3::text, $4::bigint, $5::text, $6::text, $7::bigint
    WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1::text)
      AND (SELECT COALESCE(MAX(sequence), 0) FROM command_log WHERE match_id = $1::text)
          = $2::bigint - 1
    ON CONFLICT DO NOTHING
    RETURNING match_id, sequence
), touch AS (
    UPDATE matches SET last_activity_ms = GREATEST(last_activity_ms, $7::bigint)
    WHERE id = $1::text AND EXISTS (SELECT 1 FROM ins)
)
SELECT ins.sequence, pg_notify('turnstile_commits', ins.match_id || ':' || ins.sequence::text)::text
FROM ins";

/// Why an append inserted nothing.
const CLASSIFY_SQL: &str = "
SELECT EXISTS (SELECT 1 FROM matches WHERE id = $1::text),
       EXISTS (SELECT 1 FROM command_log WHERE match_id = $1::text AND command_id = $2::text),
       (SELECT COALESCE(MAX(sequence), 0) FROM command_log WHERE match_id = $1::text)::bigint";

impl PreparedAppend {
    /// The parameters of [`APPEND_SQL`].
    fn params(&self) -> [&(dyn ToSql + Sync); 7] {
        [
            &self.match_id,
            &self.sequence_i64,
            &self.command_id,
            &self.tick,
            &self.envelope,
            &self.receipt,
            &self.recorded_at_ms,
        ]
    }
}

/// A group-commit job: the entries of one `append` (one) or `append_many` (several), all
/// committed in the same transaction.
struct AppendJob {
    entries: Vec<StoreResult<PreparedAppend>>,
    reply: oneshot::Sender<StoreResult<Vec<AppendOutcome>>>,
}

/// Takes queued jobs (up to `max_batch` entries) and commits each batch in one transaction:
/// the inserts are pipelined on one connection, refusals are classified inside the
/// transaction, and the batch's NOTIFYs go out with its commit. One fsync — and one turn at
/// the NOTIFY queue lock, which serializes notifying commits database-wide — per batch
/// instead of per command.
async fn committer(
    pool: Pool,
    append_sql: Arc<str>,
    queue: Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<AppendJob>>>,
    max_batch: usize,
    commits: Arc<AtomicU64>,
) {
    loop {
        let mut jobs = Vec::new();
        {
            let mut queue = queue.lock().await;
            match queue.recv().await {
                Some(job) => jobs.push(job),
                None => return,
            }
            let mut entries = jobs[0].entries.len();
            while entries < max_batch {
                match queue.try_recv() {
                    Ok(job) => {
                        entries += job.entries.len();
                        jobs.push(job);
                    }
                    Err(_) => break,
                }
            }
        }
        let entries: Vec<&StoreResult<PreparedAppend>> =
            jobs.iter().flat_map(|j| j.entries.iter()).collect();
        match commit_batch(&pool, &append_sql, &entries).await {
            Ok(outcomes) => {
                commits.fetch_add(1, Ordering::Relaxed);
                let mut outcomes = outcomes.into_iter();
                for job in jobs {
                    let mine: Vec<AppendOutcome> =
                        outcomes.by_ref().take(job.entries.len()).collect();
                    let _ = job.reply.send(Ok(mine));
                }
            }
            Err(e) => {
                for job in jobs {
                    let _ = job.reply.send(Err(e.clone()));
                }
            }
        }
    }
}

/// One append as one autocommitted statement, classified (and retried if it read a log that
/// changed under it) when it inserted nothing.
async fn append_alone(
    client: &Object,
    append_sql: &str,
    a: &PreparedAppend,
) -> StoreResult<AppendOutcome> {
    let insert = client.prepare_cached(append_sql).await.map_err(pg_err)?;
    let classify = client.prepare_cached(CLASSIFY_SQL).await.map_err(pg_err)?;
    for _ in 0..5 {
        let rows = client
            .query(&insert, &a.params()[..])
            .await
            .map_err(pg_err)?;
        if !rows.is_empty() {
            return Ok(Ok(()));
        }
        let row = client
            .query_one(&classify, &[&a.match_id, &a.command_id])
            .await
            .map_err(pg_err)?;
        let last = to_u64("sequence", row.get(2))?;
        if let Some(refusal) = a.refusal(row.get(0), row.get(1), last) {
            return Ok(Err(refusal));
        }
    }
    Ok(Err(StoreError::Unavailable(format!(
        "append to match {} kept racing with other writers; retry",
        a.match_id
    ))))
}

/// Commits `entries` in one transaction; one outcome per entry, in order.
async fn commit_batch(
    pool: &Pool,
    append_sql: &str,
    entries: &[&StoreResult<PreparedAppend>],
) -> StoreResult<Vec<AppendOutcome>> {
    let mut outcomes: Vec<Option<AppendOutcome>> = entries
        .iter()
        .map(|e| e.as_ref().err().map(|e| Err(e.clone())))
        .collect();
    // Lock rows in one global order (match id), keeping each match's entries in slice order,
    // so two batches (two nodes) can never deadlock.
    let mut order: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].is_ok()).collect();
    let key = |i: usize| {
        entries[i]
            .as_ref()
            .map(|a| a.match_id.as_str())
            .unwrap_or("")
    };
    order.sort_by(|&a, &b| key(a).cmp(key(b)));
    let valid: Vec<(usize, &PreparedAppend)> = order
        .iter()
        .filter_map(|&i| entries[i].as_ref().ok().map(|a| (i, a)))
        .collect();
    if valid.is_empty() {
        return Ok(outcomes.into_iter().map(|o| o.unwrap_or(Ok(()))).collect());
    }

    let mut client = pool.get().await.map_err(pool_err)?;
    if let [(i, a)] = valid[..] {
        // A batch of one: a single statement in autocommit is already atomic (insert, touch,
        // notify), and one round trip instead of three.
        outcomes[i] = Some(append_alone(&client, append_sql, a).await?);
        return Ok(outcomes
            .into_iter()
            .map(|o| o.unwrap_or_else(|| Err(StoreError::Backend("entry skipped".to_owned()))))
            .collect());
    }
    let tx = client.transaction().await.map_err(pg_err)?;
    let insert = tx.prepare_cached(append_sql).await.map_err(pg_err)?;
    // Pipelined: every insert is sent before the first answer is awaited; the server runs
    // them in order, each seeing the ones before it.
    let params: Vec<[&(dyn ToSql + Sync); 7]> = valid.iter().map(|(_, a)| a.params()).collect();
    let inserted =
        futures::future::join_all(params.iter().map(|p| tx.query(&insert, &p[..]))).await;
    let mut refused = Vec::new();
    for ((i, a), rows) in valid.iter().zip(inserted) {
        if rows.map_err(pg_err)?.is_empty() {
            refused.push((*i, *a));
        } else {
            outcomes[*i] = Some(Ok(()));
        }
    }
    // Why was each refused? Usually a conflict; rarely the insert read a log that another
    // node changed under it, and then it is simply tried again.
    let classify = tx.prepare_cached(CLASSIFY_SQL).await.map_err(pg_err)?;
    for (i, a) in refused {
        let mut outcome = None;
        for _ in 0..5 {
            let row = tx
                .query_one(&classify, &[&a.match_id, &a.command_id])
                .await
                .map_err(pg_err)?;
            let last = to_u64("sequence", row.get(2))?;
            if let Some(refusal) = a.refusal(row.get(0), row.get(1), last) {
                outcome = Some(Err(refusal));
                break;
            }
            let rows = tx.query(&insert, &a.params()[..]).await.map_err(pg_err)?;
            if !rows.is_empty() {
                outcome = Some(Ok(()));
                break;
            }
        }
        outcomes[i] = Some(outcome.unwrap_or_else(|| {
            Err(StoreError::Unavailable(format!(
                "append to match {} kept racing with other writers; retry",
                a.match_id
            )))
        }));
    }
    tx.commit().await.map_err(pg_err)?;
    Ok(outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|| Err(StoreError::Backend("entry skipped".to_owned()))))
        .collect())
}

async fn require_match(client: &Object, match_id: &str) -> StoreResult<()> {
    let exists = client
        .query_opt("SELECT 1 FROM matches WHERE id = $1", &[&match_id])
        .await
        .map_err(pg_err)?
        .is_some();
    if exists {
        Ok(())
    } else {
        Err(StoreError::NotFound(format!("match {match_id}")))
    }
}

// ----- the trait -------------------------------------------------------------------------

#[async_trait]
impl Store for PostgresStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn describe(&self) -> String {
        self.inner.description.clone()
    }

    fn commits(&self) -> u64 {
        self.inner.commits.load(Ordering::Relaxed)
    }

    async fn ping(&self) -> StoreResult<()> {
        let client = self.client().await?;
        client.simple_query("SELECT 1").await.map_err(pg_err)?;
        Ok(())
    }

    async fn put_content(&self, record: &ContentRecord) -> StoreResult<PutOutcome> {
        let client = self.client().await?;
        let inserted = client
            .execute(
                "INSERT INTO content (game, revision, bundle, created_at_ms)
                 VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                &[
                    &record.game,
                    &record.revision,
                    &json_text(&record.bundle),
                    &record.created_at_ms,
                ],
            )
            .await
            .map_err(pg_err)?;
        if inserted == 1 {
            return Ok(PutOutcome::Inserted);
        }
        let row = client
            .query_one(
                "SELECT bundle FROM content WHERE game = $1 AND revision = $2",
                &[&record.game, &record.revision],
            )
            .await
            .map_err(pg_err)?;
        let stored = parse_json("content bundle", row.get(0))?;
        if stored == record.bundle {
            Ok(PutOutcome::AlreadyPresent)
        } else {
            Err(StoreError::Conflict(Conflict::ContentRevision {
                game: record.game.clone(),
                revision: record.revision.clone(),
            }))
        }
    }

    async fn get_content(&self, game: &str, revision: &str) -> StoreResult<Option<ContentRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT bundle, created_at_ms FROM content WHERE game = $1 AND revision = $2",
                &[&game, &revision],
            )
            .await
            .map_err(pg_err)?;
        row.map(|r| {
            Ok(ContentRecord {
                game: game.to_owned(),
                revision: revision.to_owned(),
                bundle: parse_json("content bundle", r.get(0))?,
                created_at_ms: r.get(1),
            })
        })
        .transpose()
    }

    async fn set_current_revision(&self, game: &str, revision: &str) -> StoreResult<()> {
        let client = self.client().await?;
        let n = client
            .execute(
                "INSERT INTO current_revision (game, revision)
                 SELECT game, revision FROM content WHERE game = $1 AND revision = $2
                 ON CONFLICT (game) DO UPDATE SET revision = excluded.revision",
                &[&game, &revision],
            )
            .await
            .map_err(pg_err)?;
        if n == 0 {
            return Err(StoreError::NotFound(format!(
                "content of game {game} revision {revision}"
            )));
        }
        Ok(())
    }

    async fn current_revision(&self, game: &str) -> StoreResult<Option<String>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT revision FROM current_revision WHERE game = $1",
                &[&game],
            )
            .await
            .map_err(pg_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn create_match_with_names(
        &self,
        m: &MatchRecord,
        names: &[(u16, String)],
    ) -> StoreResult<()> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg_err)?;
        let inserted = tx
            .query(
                &format!(
                    "INSERT INTO matches ({MATCH_COLUMNS})
                     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13
                     WHERE EXISTS (SELECT 1 FROM content WHERE game = $2 AND revision = $4)
                     ON CONFLICT (id) DO NOTHING
                     RETURNING id"
                ),
                &[
                    &m.id,
                    &m.game,
                    &json_text(&m.config),
                    &m.revision,
                    &m.seed,
                    &json_text(&m.seats),
                    &i64::from(m.tick_rate),
                    &encode_token_hashes(&m.seat_token_hashes),
                    &m.spectator_token_hash,
                    &m.created_at_ms,
                    &m.status.as_str(),
                    &m.outcome.as_ref().map(json_text),
                    &m.last_activity_ms,
                ],
            )
            .await
            .map_err(pg_err)?;
        if inserted.is_empty() {
            let exists = tx
                .query_opt("SELECT 1 FROM matches WHERE id = $1", &[&m.id])
                .await
                .map_err(pg_err)?
                .is_some();
            return Err(if exists {
                StoreError::Conflict(Conflict::MatchId {
                    match_id: m.id.clone(),
                })
            } else {
                StoreError::NotFound(format!(
                    "content of game {} revision {} (store it before creating a match)",
                    m.game, m.revision
                ))
            });
        }
        let hashes: Vec<&String> = m
            .seat_token_hashes
            .iter()
            .flatten()
            .chain(m.spectator_token_hash.iter())
            .collect();
        if !hashes.is_empty() {
            tx.execute(
                "INSERT INTO match_tokens (token_hash, match_id)
                 SELECT h, $2 FROM unnest($1::text[]) AS h ON CONFLICT DO NOTHING",
                &[&hashes, &m.id],
            )
            .await
            .map_err(pg_err)?;
        }
        let open: Vec<i64> = open_seats_at_creation(m)
            .into_iter()
            .map(i64::from)
            .collect();
        if !open.is_empty() {
            tx.execute(
                "INSERT INTO open_seats (match_id, seat) SELECT $1, s FROM unnest($2::bigint[]) AS s",
                &[&m.id, &open],
            )
            .await
            .map_err(pg_err)?;
        }
        for (seat, name) in names {
            tx.execute(
                "INSERT INTO seat_names (match_id, seat, name) VALUES ($1, $2, $3)",
                &[&m.id, &i64::from(*seat), name],
            )
            .await
            .map_err(pg_err)?;
        }
        tx.commit().await.map_err(pg_err)
    }

    async fn get_match(&self, match_id: &str) -> StoreResult<Option<MatchRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1"),
                &[&match_id],
            )
            .await
            .map_err(pg_err)?;
        row.as_ref().map(match_of).transpose()
    }

    async fn find_matches_by_token_hashes(
        &self,
        token_hashes: &[String],
    ) -> StoreResult<Vec<MatchRecord>> {
        if token_hashes.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.client().await?;
        let rows = client
            .query(
                &format!(
                    "SELECT {MATCH_COLUMNS} FROM matches WHERE id IN (
                         SELECT match_id FROM match_tokens WHERE token_hash = ANY($1::text[]))
                     ORDER BY created_at_ms DESC, id DESC"
                ),
                &[&token_hashes],
            )
            .await
            .map_err(pg_err)?;
        rows.iter().map(match_of).collect()
    }

    async fn set_match_status(
        &self,
        match_id: &str,
        status: MatchStatus,
        outcome: Option<&Value>,
        now_ms: i64,
    ) -> StoreResult<()> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE matches SET status = $2, outcome = $3,
                     last_activity_ms = GREATEST(last_activity_ms, $4)
                 WHERE id = $1",
                &[
                    &match_id,
                    &status.as_str(),
                    &outcome.map(json_text),
                    &now_ms,
                ],
            )
            .await
            .map_err(pg_err)?;
        if n == 0 {
            return Err(StoreError::NotFound(format!("match {match_id}")));
        }
        Ok(())
    }

    async fn list_active_matches(&self) -> StoreResult<Vec<MatchRecord>> {
        let client = self.client().await?;
        let rows = client
            .query(
                &format!(
                    "SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'active'
                     ORDER BY created_at_ms, id"
                ),
                &[],
            )
            .await
            .map_err(pg_err)?;
        rows.iter().map(match_of).collect()
    }

    async fn claim_seat(
        &self,
        match_id: &str,
        token_hash: &str,
        name: Option<&str>,
        now_ms: i64,
    ) -> StoreResult<SeatClaim> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg_err)?;
        // The match row is locked for the transaction: claimants of one match (on any node)
        // take turns, so each reads the open seats the previous one left.
        let row = tx
            .query_opt(
                "SELECT status, seat_token_hashes FROM matches WHERE id = $1 FOR UPDATE",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?;
        let Some(row) = row else {
            return Err(StoreError::NotFound(format!("match {match_id}")));
        };
        let (status, hashes): (String, String) = (row.get(0), row.get(1));
        let lowest: Option<i64> = tx
            .query_one(
                "SELECT MIN(seat) FROM open_seats WHERE match_id = $1",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?
            .get(0);
        let (seat, hashes) = match decide_claim(&status, &hashes, lowest, token_hash)? {
            ClaimDecision::Refuse(answer) => return Ok(answer),
            ClaimDecision::Take { seat, hashes } => (seat, hashes),
        };
        let seat_number = i64::from(seat);
        tx.execute(
            "DELETE FROM open_seats WHERE match_id = $1 AND seat = $2",
            &[&match_id, &seat_number],
        )
        .await
        .map_err(pg_err)?;
        tx.execute(
            "UPDATE matches SET seat_token_hashes = $2,
                 last_activity_ms = GREATEST(last_activity_ms, $3)
             WHERE id = $1",
            &[&match_id, &hashes, &now_ms],
        )
        .await
        .map_err(pg_err)?;
        tx.execute(
            "INSERT INTO match_tokens (token_hash, match_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&token_hash, &match_id],
        )
        .await
        .map_err(pg_err)?;
        if let Some(name) = name {
            tx.execute(
                "INSERT INTO seat_names (match_id, seat, name) VALUES ($1, $2, $3)
                 ON CONFLICT (match_id, seat) DO UPDATE SET name = excluded.name",
                &[&match_id, &seat_number, &name],
            )
            .await
            .map_err(pg_err)?;
        }
        tx.commit().await.map_err(pg_err)?;
        Ok(SeatClaim::Claimed(seat))
    }

    async fn list_open_matches(&self, limit: u32) -> StoreResult<Vec<OpenMatch>> {
        let client = self.client().await?;
        let rows = client
            .query(
                &format!(
                    "SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'active' AND id IN (
                         SELECT match_id FROM open_seats)
                     ORDER BY created_at_ms DESC, id DESC LIMIT $1"
                ),
                &[&i64::from(limit)],
            )
            .await
            .map_err(pg_err)?;
        let mut open = Vec::new();
        for row in &rows {
            let record = match_of(row)?;
            let seats: Vec<i64> = client
                .query(
                    "SELECT seat FROM open_seats WHERE match_id = $1 ORDER BY seat",
                    &[&record.id],
                )
                .await
                .map_err(pg_err)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            open.push(OpenMatch {
                record,
                open_seats: decode_seats(seats)?,
            });
        }
        Ok(open)
    }

    async fn seat_names(&self, match_id: &str) -> StoreResult<Vec<(u16, String)>> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT seat, name FROM seat_names WHERE match_id = $1 ORDER BY seat",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?;
        let (seats, names): (Vec<i64>, Vec<String>) = rows
            .iter()
            .map(|r| (r.get::<_, i64>(0), r.get::<_, String>(1)))
            .unzip();
        Ok(decode_seats(seats)?.into_iter().zip(names).collect())
    }

    async fn mark_ready(&self, match_id: &str, seat: u16) -> StoreResult<Vec<u16>> {
        let client = self.client().await?;
        let inserted = client
            .execute(
                "INSERT INTO ready_marks (match_id, seat)
                 SELECT id, $2 FROM matches WHERE id = $1
                 ON CONFLICT DO NOTHING",
                &[&match_id, &i64::from(seat)],
            )
            .await
            .map_err(pg_err)?;
        let seats = self.ready_seats(match_id).await?;
        if inserted == 0 && seats.is_empty() {
            return Err(StoreError::NotFound(format!("match {match_id}")));
        }
        Ok(seats)
    }

    async fn ready_seats(&self, match_id: &str) -> StoreResult<Vec<u16>> {
        let client = self.client().await?;
        let seats: Vec<i64> = client
            .query(
                "SELECT seat FROM ready_marks WHERE match_id = $1 ORDER BY seat",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        decode_seats(seats)
    }

    async fn archive_idle(&self, idle_before_ms: i64) -> StoreResult<Vec<String>> {
        let client = self.client().await?;
        let rows = client
            .query(
                "UPDATE matches SET status = 'archived'
                 WHERE status <> 'archived' AND last_activity_ms < $1
                 RETURNING id",
                &[&idle_before_ms],
            )
            .await
            .map_err(pg_err)?;
        let mut ids: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
        ids.sort();
        Ok(ids)
    }

    async fn append(&self, match_id: &str, record: &LogRecord) -> StoreResult<()> {
        let prepared = PreparedAppend::new(match_id, record)?;
        self.enqueue(vec![Ok(prepared)])
            .await?
            .pop()
            .unwrap_or_else(|| Err(StoreError::Backend("no outcome".to_owned())))
    }

    async fn append_json(&self, match_id: &str, record: JsonLogRecord) -> StoreResult<()> {
        let prepared = PreparedAppend::from_json(match_id, record)?;
        self.enqueue(vec![Ok(prepared)])
            .await?
            .pop()
            .unwrap_or_else(|| Err(StoreError::Backend("no outcome".to_owned())))
    }

    async fn append_many(
        &self,
        entries: &[(String, LogRecord)],
    ) -> StoreResult<Vec<AppendOutcome>> {
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        self.enqueue(
            entries
                .iter()
                .map(|(m, r)| PreparedAppend::new(m, r))
                .collect(),
        )
        .await
    }

    async fn log(
        &self,
        match_id: &str,
        after_sequence: u64,
        limit: u32,
    ) -> StoreResult<Vec<LogRecord>> {
        let after = to_i64("sequence", after_sequence)?;
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {LOG_COLUMNS} FROM command_log
                 WHERE match_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3"
            ))
            .await
            .map_err(pg_err)?;
        let rows = client
            .query(&stmt, &[&match_id, &after, &i64::from(limit)])
            .await
            .map_err(pg_err)?;
        rows.iter().map(log_of).collect()
    }

    async fn command(&self, match_id: &str, command_id: &str) -> StoreResult<Option<LogRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!(
                    "SELECT {LOG_COLUMNS} FROM command_log
                     WHERE match_id = $1 AND command_id = $2"
                ),
                &[&match_id, &command_id],
            )
            .await
            .map_err(pg_err)?;
        row.as_ref().map(log_of).transpose()
    }

    async fn last_sequence(&self, match_id: &str) -> StoreResult<u64> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT COALESCE(MAX(sequence), 0)::bigint FROM command_log WHERE match_id = $1",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?;
        to_u64("sequence", row.get(0))
    }

    async fn remember_rejection(&self, match_id: &str, r: &RejectionRecord) -> StoreResult<()> {
        let client = self.client().await?;
        let n = client
            .execute(
                "INSERT INTO rejections
                     (match_id, command_id, seat, action_fingerprint, rejection, recorded_at_ms)
                 SELECT $1, $2, $3, $4, $5, $6
                 WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1)
                 ON CONFLICT DO NOTHING",
                &[
                    &match_id,
                    &r.command_id,
                    &r.seat.map(i64::from),
                    &r.action_fingerprint,
                    &json_text(&r.rejection),
                    &r.recorded_at_ms,
                ],
            )
            .await
            .map_err(pg_err)?;
        if n == 1 {
            return Ok(());
        }
        require_match(&client, match_id).await?;
        Err(StoreError::Conflict(Conflict::Rejection {
            match_id: match_id.to_owned(),
            command_id: r.command_id.clone(),
        }))
    }

    async fn rejection(
        &self,
        match_id: &str,
        command_id: &str,
    ) -> StoreResult<Option<RejectionRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT seat, action_fingerprint, rejection, recorded_at_ms FROM rejections
                 WHERE match_id = $1 AND command_id = $2",
                &[&match_id, &command_id],
            )
            .await
            .map_err(pg_err)?;
        row.map(|r| {
            let seat: Option<i64> = r.get(0);
            Ok(RejectionRecord {
                command_id: command_id.to_owned(),
                seat: seat
                    .map(|s| {
                        u32::try_from(s)
                            .map_err(|_| StoreError::Corrupt(format!("stored seat {s}")))
                    })
                    .transpose()?,
                action_fingerprint: r.get(1),
                rejection: parse_json("rejection", r.get(2))?,
                recorded_at_ms: r.get(3),
            })
        })
        .transpose()
    }

    async fn put_snapshot(&self, match_id: &str, s: &SnapshotRecord) -> StoreResult<()> {
        let sequence = to_i64("snapshot sequence", s.sequence)?;
        let tick = to_i64("snapshot tick", s.tick)?;
        let client = self.client().await?;
        client
            .execute(
                &format!(
                    "INSERT INTO snapshots (match_id, {SNAPSHOT_COLUMNS})
                     SELECT $1, $2, $3, $4, $5, $6
                     WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1)
                     ON CONFLICT DO NOTHING"
                ),
                &[
                    &match_id,
                    &sequence,
                    &tick,
                    &s.state_fingerprint,
                    &s.last_receipt_hash,
                    &json_text(&s.state),
                ],
            )
            .await
            .map_err(pg_err)?;
        require_match(&client, match_id).await
    }

    async fn latest_snapshot(&self, match_id: &str) -> StoreResult<Option<SnapshotRecord>> {
        Ok(self.snapshots(match_id, 1).await?.into_iter().next())
    }

    async fn snapshots(&self, match_id: &str, limit: u32) -> StoreResult<Vec<SnapshotRecord>> {
        let client = self.client().await?;
        let rows = client
            .query(
                &format!(
                    "SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE match_id = $1
                     ORDER BY sequence DESC LIMIT $2"
                ),
                &[&match_id, &i64::from(limit)],
            )
            .await
            .map_err(pg_err)?;
        rows.iter().map(snapshot_of).collect()
    }

    async fn try_acquire_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<LeaseOutcome> {
        let tick = to_i64("heartbeat tick", heartbeat_tick)?;
        let expires_at_ms = now_ms.saturating_add(ttl_ms);
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg_err)?;
        // Lock the match row: concurrent acquisitions of one lease serialize here, so the
        // read-then-write below cannot interleave (the match row always exists first).
        let exists = tx
            .query_opt(
                "SELECT 1 FROM matches WHERE id = $1 FOR UPDATE",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?
            .is_some();
        if !exists {
            return Err(StoreError::NotFound(format!("match {match_id}")));
        }
        let current = tx
            .query_opt(
                "SELECT node_id, expires_at_ms, last_heartbeat_tick FROM leases
                 WHERE match_id = $1",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?
            .map(|r| lease_of(match_id, &r))
            .transpose()?;
        let previous = match decide_lease(current, node_id, now_ms) {
            LeaseDecision::Held(lease) => return Ok(LeaseOutcome::Held(lease)),
            LeaseDecision::Take { previous } => previous,
        };
        tx.execute(
            "INSERT INTO leases (match_id, node_id, expires_at_ms, last_heartbeat_tick)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (match_id) DO UPDATE SET node_id = excluded.node_id,
                 expires_at_ms = excluded.expires_at_ms,
                 last_heartbeat_tick = excluded.last_heartbeat_tick",
            &[&match_id, &node_id, &expires_at_ms, &tick],
        )
        .await
        .map_err(pg_err)?;
        tx.commit().await.map_err(pg_err)?;
        Ok(LeaseOutcome::Acquired {
            lease: granted_lease(match_id, node_id, now_ms, ttl_ms, heartbeat_tick),
            previous,
        })
    }

    async fn renew_lease(
        &self,
        match_id: &str,
        node_id: &str,
        now_ms: i64,
        ttl_ms: i64,
        heartbeat_tick: u64,
    ) -> StoreResult<Option<LeaseRecord>> {
        let tick = to_i64("heartbeat tick", heartbeat_tick)?;
        let expires_at_ms = now_ms.saturating_add(ttl_ms);
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE leases SET expires_at_ms = $3, last_heartbeat_tick = $4
                 WHERE match_id = $1 AND node_id = $2 AND expires_at_ms > 0",
                &[&match_id, &node_id, &expires_at_ms, &tick],
            )
            .await
            .map_err(pg_err)?;
        Ok((n == 1).then(|| granted_lease(match_id, node_id, now_ms, ttl_ms, heartbeat_tick)))
    }

    async fn release_lease(&self, match_id: &str, node_id: &str) -> StoreResult<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE leases SET expires_at_ms = 0
                 WHERE match_id = $1 AND node_id = $2 AND expires_at_ms > 0",
                &[&match_id, &node_id],
            )
            .await
            .map_err(pg_err)?;
        Ok(n == 1)
    }

    async fn lease(&self, match_id: &str) -> StoreResult<Option<LeaseRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT node_id, expires_at_ms, last_heartbeat_tick FROM leases
                 WHERE match_id = $1",
                &[&match_id],
            )
            .await
            .map_err(pg_err)?;
        row.map(|r| lease_of(match_id, &r)).transpose()
    }

    fn subscribe(&self) -> broadcast::Receiver<Notification> {
        self.inner.notify.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_drops_the_password_only() {
        assert_eq!(
            redact("postgres://u:secret@h:5432/db?x=1"),
            "postgres://u@h:5432/db?x=1"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("postgresql://h/db"), "postgresql://h/db");
    }

    #[test]
    fn payloads_parse_with_colons_in_ids() {
        assert_eq!(
            parse_payload("m:a:7"),
            Some(CommitNotice {
                match_id: "m:a".to_owned(),
                sequence: 7
            })
        );
        assert_eq!(parse_payload("nocolon"), None);
        assert_eq!(parse_payload("m:x"), None);
    }
}
