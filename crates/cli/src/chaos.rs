//! `turnstile chaos`: failure campaigns against real server processes, and the checks that say
//! whether anything acknowledged was lost or applied twice.
//!
//! - `chaos cycles --database D --cycles N` starts `turnstile serve` on `D` (SQLite file or
//!   PostgreSQL URL), plays Sokoban matches against it, and `kill -9`s and restarts the server
//!   `N` times under that load; then it runs the checks below.
//! - `chaos drive --node URL… --out DIR` only drives the load (through every node given, in
//!   turn) and records every acknowledged command in `DIR`, for a campaign whose failures come
//!   from elsewhere (tests/ha/run.sh kills PostgreSQL primaries under it).
//! - `chaos check --node URL --out DIR` checks what `drive` recorded: every acknowledged command
//!   is in its match's log exactly once at the sequence it was acknowledged with, every log is
//!   gapless, every match's replay verifies, and (with `--kills FILE`) writes resumed within
//!   `--max-resume` seconds of each failure.
//!
//! The client side of "acknowledged": a command counts only when a node answered 200 with its
//! receipt. A command whose answer was lost (a 503, a reset connection, a timeout) is in doubt,
//! and the driver retries it with the same command id and expected sequence — on any node —
//! until it is answered: the server's idempotency then returns the receipt it committed
//! (`turnstile-repeat: true`) or commits it now, never both. Only loopback addresses are
//! targeted, every loop is bounded in time, and everything stops by itself.

use crate::exit::Outcome;
use clap::Subcommand;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use turnstile_runtime::{GameRegistry, ReplayFile};

/// The most matches one campaign drives.
const MAX_MATCHES: u32 = 1_000;
/// The longest a campaign's load may run, in seconds.
const MAX_SECONDS: u64 = 3_600;
/// The most kill cycles of one `chaos cycles`.
const MAX_CYCLES: u32 = 10_000;
/// How long an in-doubt command is retried after the load stopped before it is given up.
const GRACE: Duration = Duration::from_secs(90);
/// How long one request may take before its answer counts as lost.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a restarted server may take to listen.
const START_TIMEOUT: Duration = Duration::from_secs(120);

/// `turnstile chaos …`.
#[derive(Subcommand)]
pub enum ChaosCommand {
    /// N kill -9 cycles of `turnstile serve` under load, then the checks (exit 1 on a failure).
    Cycles {
        /// A SQLite file or a `postgres://` URL (created or migrated by the server).
        #[arg(long)]
        database: String,
        /// How many times the server is killed with SIGKILL and restarted.
        #[arg(long, default_value_t = 10)]
        cycles: u32,
        /// Milliseconds of load between a restart and the next kill.
        #[arg(long, default_value_t = 1000)]
        cycle_ms: u64,
        /// Matches played at once.
        #[arg(long, default_value_t = 16)]
        matches: u32,
        /// Where the acknowledged commands, replays and the server's log go.
        #[arg(long)]
        out: PathBuf,
    },
    /// Drive load through the given nodes and record every acknowledged command in OUT.
    Drive {
        /// A node's base URL on loopback (repeatable; commands go to each in turn).
        #[arg(long = "node", required = true)]
        nodes: Vec<String>,
        /// Matches played at once.
        #[arg(long, default_value_t = 16)]
        matches: u32,
        /// The longest the load runs, in seconds.
        #[arg(long, default_value_t = 60)]
        duration: u64,
        /// Stop starting new commands as soon as this file exists.
        #[arg(long)]
        stop_file: Option<PathBuf>,
        /// The campaign folder (matches.json, acks.jsonl, drive.json).
        #[arg(long)]
        out: PathBuf,
    },
    /// Check a recorded campaign against the store (exit 1 when a check fails).
    Check {
        /// A node's base URL on loopback.
        #[arg(long)]
        node: String,
        /// The campaign folder `drive` wrote.
        #[arg(long)]
        out: PathBuf,
        /// A file of failure times (Unix milliseconds, one a line) to measure resumption from.
        #[arg(long)]
        kills: Option<PathBuf>,
        /// The longest writes may take to resume after a failure, in seconds.
        #[arg(long, default_value_t = 30)]
        max_resume: u64,
    },
}

/// Runs a chaos subcommand.
pub fn run(registry: &GameRegistry, command: ChaosCommand) -> Outcome {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return Outcome::input(format!("cannot start the async runtime: {e}")),
    };
    match command {
        ChaosCommand::Cycles {
            database,
            cycles,
            cycle_ms,
            matches,
            out,
        } => {
            if cycles == 0 || cycles > MAX_CYCLES {
                return Outcome::usage(format!("--cycles must be 1 to {MAX_CYCLES}"));
            }
            if !(100..=60_000).contains(&cycle_ms) {
                return Outcome::usage("--cycle-ms must be 100 to 60000");
            }
            if let Err(e) = check_matches(matches) {
                return e;
            }
            runtime.block_on(run_cycles(
                registry, &database, cycles, cycle_ms, matches, &out,
            ))
        }
        ChaosCommand::Drive {
            nodes,
            matches,
            duration,
            stop_file,
            out,
        } => {
            let nodes = match nodes
                .iter()
                .map(String::as_str)
                .map(loopback_base)
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(nodes) => nodes,
                Err(e) => return Outcome::usage(e),
            };
            if let Err(e) = check_matches(matches) {
                return e;
            }
            if duration == 0 || duration > MAX_SECONDS {
                return Outcome::usage(format!("--duration must be 1 to {MAX_SECONDS} seconds"));
            }
            runtime.block_on(run_drive(nodes, matches, duration, stop_file, &out))
        }
        ChaosCommand::Check {
            node,
            out,
            kills,
            max_resume,
        } => {
            let node = match loopback_base(&node) {
                Ok(n) => n,
                Err(e) => return Outcome::usage(e),
            };
            runtime.block_on(run_check(
                registry,
                &node,
                &out,
                kills.as_deref(),
                max_resume,
            ))
        }
    }
}

fn check_matches(matches: u32) -> Result<(), Outcome> {
    if matches == 0 || matches > MAX_MATCHES {
        return Err(Outcome::usage(format!(
            "--matches must be 1 to {MAX_MATCHES}"
        )));
    }
    Ok(())
}

/// A node's base URL, `http://` on a loopback address (anything else is refused).
fn loopback_base(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("--node {url:?}: give http://127.0.0.1:PORT"))?;
    let authority = rest.trim_end_matches('/');
    crate::loadtest_cmd::loopback(authority).map(|addr| format!("http://{addr}"))
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// One match of a campaign.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Played {
    match_id: String,
    token: String,
}

/// One acknowledged command: a node answered 200 with its receipt.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Ack {
    match_id: String,
    command_id: String,
    sequence: u64,
    /// When the attempt that was answered was sent (Unix ms).
    sent_at_ms: u64,
    /// When its answer arrived (Unix ms).
    acked_at_ms: u64,
    /// How many attempts the command took (more than 1: retried after a lost answer).
    attempts: u32,
    /// Answered as a repeat: an earlier attempt had committed it.
    repeat: bool,
}

/// What the drivers saw, summed over matches.
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Tally {
    acknowledged: u64,
    repeats: u64,
    retried_commands: u64,
    rule_rejections: u64,
    unavailable_503: u64,
    transport_errors: u64,
    throttled: u64,
    /// Answers that contradict the protocol (a stale sequence for a command in flight, a
    /// reused id, a receipt at an unexpected sequence, other statuses): each is a failure.
    anomalies: u64,
    /// Commands still in doubt when the grace period ended (not acknowledged).
    unresolved: u64,
    max_attempts: u32,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.acknowledged += o.acknowledged;
        self.repeats += o.repeats;
        self.retried_commands += o.retried_commands;
        self.rule_rejections += o.rule_rejections;
        self.unavailable_503 += o.unavailable_503;
        self.transport_errors += o.transport_errors;
        self.throttled += o.throttled;
        self.anomalies += o.anomalies;
        self.unresolved += o.unresolved;
        self.max_attempts = self.max_attempts.max(o.max_attempts);
    }
}

/// The nodes commands go to; `cycles` swaps the address after each restart.
type Nodes = Arc<RwLock<Vec<String>>>;

fn node_at(nodes: &Nodes, i: u64) -> String {
    let nodes = nodes.read().unwrap_or_else(|e| e.into_inner());
    let n = nodes.len().max(1) as u64;
    nodes
        .get(usize::try_from(i % n).unwrap_or(0))
        .cloned()
        .unwrap_or_default()
}

fn client() -> Result<reqwest::Client, Outcome> {
    reqwest::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .build()
        .map_err(|e| Outcome::input(format!("cannot build an HTTP client: {e}")))
}

/// Creates a Sokoban match (Microban level 1), retrying while the node is unavailable.
async fn create(client: &reqwest::Client, nodes: &Nodes) -> Result<Played, String> {
    let started = Instant::now();
    let mut i = 0;
    loop {
        i += 1;
        let base = node_at(nodes, i);
        let sent = client
            .post(format!("{base}/api/v1/matches"))
            .json(
                &json!({"game": "sokoban", "config": {"collection": "microban", "level": 1},
                          "seats": [{"kind": "human"}]}),
            )
            .send()
            .await;
        if let Ok(response) = sent {
            let status = response.status();
            let body: Value = response.json().await.unwrap_or_default();
            if status.is_success() {
                return Ok(Played {
                    match_id: body["matchId"].as_str().unwrap_or_default().to_owned(),
                    token: body["seats"][0]["token"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                });
            }
            if status.as_u16() != 503 {
                return Err(format!(
                    "creating a match answered {status}: {body} (start the server with --create-rate 0)"
                ));
            }
        }
        if started.elapsed() > START_TIMEOUT {
            return Err("no node could create a match".to_owned());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Plays one match until `stop`: a move, then an undo, and so on; each command retried with
/// its own id until it is answered (or the grace period after `stop` ends).
async fn play(
    client: reqwest::Client,
    nodes: Nodes,
    played: Played,
    lane: u64,
    stop: Arc<AtomicBool>,
    acks: tokio::sync::mpsc::UnboundedSender<Ack>,
) -> Tally {
    const DIRECTIONS: [&str; 4] = ["left", "right", "up", "down"];
    let mut tally = Tally::default();
    let mut sequence = 0u64;
    let mut direction = 0usize;
    let mut undo_next = false;
    let mut n = 0u64;
    let mut stopped_at: Option<Instant> = None;
    let url = |base: &str| format!("{base}/api/v1/matches/{}/commands", played.match_id);
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let command_id = format!("ch-{n}");
        let action = if undo_next {
            json!({"type": "undo"})
        } else {
            json!({"type": "move", "direction": DIRECTIONS[direction]})
        };
        let body = json!({"commandId": command_id, "expectedSequence": sequence, "action": action});
        let mut attempts = 0u32;
        let mut backoff = Duration::from_millis(20);
        loop {
            attempts += 1;
            tally.max_attempts = tally.max_attempts.max(attempts);
            if stop.load(Ordering::Relaxed) {
                let since = *stopped_at.get_or_insert_with(Instant::now);
                if since.elapsed() > GRACE {
                    tally.unresolved += 1;
                    return tally;
                }
            }
            let base = node_at(&nodes, lane + n + u64::from(attempts));
            let sent_at_ms = unix_ms();
            let answer = client
                .post(url(&base))
                .bearer_auth(&played.token)
                .json(&body)
                .send()
                .await;
            let retry = match answer {
                Err(_) => {
                    tally.transport_errors += 1;
                    true
                }
                Ok(response) => {
                    let status = response.status().as_u16();
                    let repeat = response
                        .headers()
                        .get("turnstile-repeat")
                        .is_some_and(|v| v.as_bytes() == b"true");
                    match response.json::<Value>().await {
                        // The body was cut off: the answer is lost, the command in doubt.
                        Err(_) => {
                            tally.transport_errors += 1;
                            true
                        }
                        Ok(answer) => match status {
                            200 => {
                                let acked = answer["sequence"].as_u64().unwrap_or(0);
                                if acked != sequence + 1 {
                                    tally.anomalies += 1;
                                }
                                let _ = acks.send(Ack {
                                    match_id: played.match_id.clone(),
                                    command_id: command_id.clone(),
                                    sequence: acked,
                                    sent_at_ms,
                                    acked_at_ms: unix_ms(),
                                    attempts,
                                    repeat,
                                });
                                tally.acknowledged += 1;
                                tally.repeats += u64::from(repeat);
                                tally.retried_commands += u64::from(attempts > 1);
                                sequence = acked;
                                undo_next = !undo_next;
                                false
                            }
                            422 => {
                                tally.rule_rejections += 1;
                                direction = (direction + 1) % DIRECTIONS.len();
                                false
                            }
                            503 => {
                                tally.unavailable_503 += 1;
                                true
                            }
                            429 => {
                                tally.throttled += 1;
                                true
                            }
                            _ => {
                                // 409 for a command that only this driver sends means the log
                                // holds something the driver never saw acknowledged: follow it
                                // (the check reports what is there) and count the anomaly.
                                tally.anomalies += 1;
                                eprintln!(
                                    "chaos: {} {command_id}: unexpected {status}: {answer}",
                                    played.match_id
                                );
                                if let Some(current) =
                                    answer["error"]["details"]["currentSequence"].as_u64()
                                {
                                    sequence = current;
                                }
                                false
                            }
                        },
                    }
                }
            };
            if !retry {
                break;
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_millis(250));
        }
    }
    tally
}

/// Writes acknowledgements to `acks.jsonl` as they come, so a campaign cut short keeps them.
fn ack_writer(
    path: &Path,
) -> std::io::Result<(
    tokio::sync::mpsc::UnboundedSender<Ack>,
    std::thread::JoinHandle<Vec<Ack>>,
)> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Ack>();
    let handle = std::thread::spawn(move || {
        let mut all = Vec::new();
        while let Some(ack) = rx.blocking_recv() {
            if let Ok(line) = serde_json::to_string(&ack) {
                let _ = writeln!(file, "{line}");
            }
            all.push(ack);
        }
        let _ = file.flush();
        all
    });
    Ok((tx, handle))
}

/// The load of a campaign: `matches` matches played at once until `stop` is set.
struct Load {
    players: tokio::task::JoinSet<Tally>,
    stop: Arc<AtomicBool>,
    writer: std::thread::JoinHandle<Vec<Ack>>,
}

async fn start_load(
    nodes: &Nodes,
    matches: u32,
    out: &Path,
) -> Result<(Vec<Played>, Load), Outcome> {
    std::fs::create_dir_all(out)
        .map_err(|e| Outcome::input(format!("cannot create {}: {e}", out.display())))?;
    let client = client()?;
    let mut played = Vec::new();
    for _ in 0..matches {
        played.push(create(&client, nodes).await.map_err(Outcome::input)?);
    }
    let list = serde_json::to_string_pretty(&played).unwrap_or_default();
    std::fs::write(out.join("matches.json"), list)
        .map_err(|e| Outcome::input(format!("cannot write matches.json: {e}")))?;
    let (acks, writer) = ack_writer(&out.join("acks.jsonl"))
        .map_err(|e| Outcome::input(format!("cannot write acks.jsonl: {e}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    let mut players = tokio::task::JoinSet::new();
    for (lane, m) in played.iter().enumerate() {
        players.spawn(play(
            client.clone(),
            Arc::clone(nodes),
            m.clone(),
            lane as u64,
            Arc::clone(&stop),
            acks.clone(),
        ));
    }
    Ok((
        played,
        Load {
            players,
            stop,
            writer,
        },
    ))
}

impl Load {
    /// Stops new commands, waits for in-doubt ones to be answered, returns the tally.
    async fn finish(mut self) -> (Tally, Vec<Ack>) {
        self.stop.store(true, Ordering::Relaxed);
        let mut total = Tally::default();
        while let Some(joined) = self.players.join_next().await {
            if let Ok(t) = joined {
                total.add(&t);
            } else {
                total.anomalies += 1;
            }
        }
        let acks = tokio::task::spawn_blocking(move || self.writer.join().unwrap_or_default())
            .await
            .unwrap_or_default();
        (total, acks)
    }
}

async fn run_drive(
    nodes: Vec<String>,
    matches: u32,
    duration_s: u64,
    stop_file: Option<PathBuf>,
    out: &Path,
) -> Outcome {
    let nodes: Nodes = Arc::new(RwLock::new(nodes));
    let (_, load) = match start_load(&nodes, matches, out).await {
        Ok(x) => x,
        Err(e) => return e,
    };
    let started = Instant::now();
    let until = started + Duration::from_secs(duration_s);
    while Instant::now() < until && !stop_file.as_deref().is_some_and(Path::exists) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (tally, _) = load.finish().await;
    let report = json!({"nodes": *nodes.read().unwrap_or_else(|e| e.into_inner()),
                        "matches": matches,
                        "loadMillis": u64::try_from(started.elapsed().as_millis()).unwrap_or(0),
                        "tally": tally});
    let text = report.to_string();
    println!("{text}");
    if let Err(e) = std::fs::write(out.join("drive.json"), &text) {
        return Outcome::input(format!("cannot write drive.json: {e}"));
    }
    if tally.anomalies > 0 || tally.unresolved > 0 {
        return Outcome::check_failed(format!(
            "{} anomalies, {} commands never answered",
            tally.anomalies, tally.unresolved
        ));
    }
    Outcome::ok()
}

/// GET with retries while the node is unavailable (bounded): the body as sent.
async fn get_text(client: &reqwest::Client, url: &str, token: &str) -> Result<String, String> {
    let started = Instant::now();
    loop {
        if let Ok(r) = client.get(url).bearer_auth(token).send().await {
            let status = r.status().as_u16();
            if let Ok(body) = r.text().await {
                if status == 200 {
                    return Ok(body);
                }
                if status != 503 {
                    return Err(format!("GET {url}: {status} {body}"));
                }
            }
        }
        if started.elapsed() > START_TIMEOUT {
            return Err(format!("GET {url}: no answer"));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn get_json(client: &reqwest::Client, url: &str, token: &str) -> Result<Value, String> {
    let text = get_text(client, url, token).await?;
    serde_json::from_str(&text).map_err(|e| format!("GET {url}: {e}"))
}

async fn timeline(client: &reqwest::Client, base: &str, m: &Played) -> Result<Vec<Value>, String> {
    let mut receipts = Vec::new();
    let mut after = 0;
    loop {
        let url = format!(
            "{base}/api/v1/matches/{}/timeline?after={after}",
            m.match_id
        );
        let page = get_json(client, &url, &m.token).await?;
        receipts.extend(page["receipts"].as_array().cloned().unwrap_or_default());
        match page["nextAfter"].as_u64() {
            Some(next) => after = next,
            None => return Ok(receipts),
        }
    }
}

/// What the checks found.
#[derive(Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Findings {
    matches: u64,
    receipts: u64,
    acknowledged: u64,
    replays_verified: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    resume_millis: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_resume_millis: Option<u64>,
    problems: Vec<String>,
}

/// The log of one match against what was acknowledged in it.
fn check_log(m: &Played, receipts: &[Value], acks: &[&Ack], problems: &mut Vec<String>) {
    let id = &m.match_id;
    for (i, r) in receipts.iter().enumerate() {
        if r["sequence"].as_u64() != Some(i as u64 + 1) {
            problems.push(format!(
                "{id}: receipt {} has sequence {} (a gap)",
                i + 1,
                r["sequence"]
            ));
            break;
        }
    }
    let mut seen = BTreeMap::new();
    for r in receipts {
        let cid = r["commandId"].as_str().unwrap_or_default();
        *seen.entry(cid).or_insert(0u32) += 1;
    }
    for (cid, count) in &seen {
        if *count > 1 {
            problems.push(format!("{id}: command {cid} is in the log {count} times"));
        }
    }
    let mut sequences: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    for a in acks {
        sequences
            .entry(a.command_id.as_str())
            .or_default()
            .insert(a.sequence);
        let at = usize::try_from(a.sequence.saturating_sub(1)).unwrap_or(usize::MAX);
        let found = receipts.get(at).and_then(|r| r["commandId"].as_str());
        if found != Some(a.command_id.as_str()) {
            problems.push(format!(
                "{id}: acknowledged {} at sequence {} is missing (the log has {found:?} there)",
                a.command_id, a.sequence
            ));
        }
    }
    // A repeat answers the same sequence again; two sequences for one id would mean it was
    // applied twice.
    for (cid, at) in sequences {
        if at.len() > 1 {
            problems.push(format!("{id}: {cid} acknowledged at sequences {at:?}"));
        }
    }
}

/// For each failure time, how long until a command sent after it was acknowledged.
fn resumption(kills: &[u64], acks: &[Ack]) -> Vec<Option<u64>> {
    let mut by_sent: Vec<&Ack> = acks.iter().collect();
    by_sent.sort_by_key(|a| a.sent_at_ms);
    kills
        .iter()
        .map(|&k| {
            by_sent
                .iter()
                .filter(|a| a.sent_at_ms >= k)
                .map(|a| a.acked_at_ms.saturating_sub(k))
                .min()
        })
        .collect()
}

async fn resign_and_verify(
    registry: &GameRegistry,
    client: &reqwest::Client,
    base: &str,
    m: &Played,
    out: &Path,
) -> Result<(), String> {
    let started = Instant::now();
    loop {
        let r = client
            .post(format!("{base}/api/v1/matches/{}/resign", m.match_id))
            .bearer_auth(&m.token)
            .json(&json!({}))
            .send()
            .await;
        match r {
            Ok(r) if r.status().is_success() => break,
            // Already over (a re-run of the check): the replay is there all the same.
            Ok(r) if r.status().as_u16() == 422 || r.status().as_u16() == 409 => break,
            Ok(r) if r.status().as_u16() != 503 => {
                return Err(format!("{}: resign answered {}", m.match_id, r.status()))
            }
            _ if started.elapsed() > START_TIMEOUT => {
                return Err(format!("{}: resign got no answer", m.match_id))
            }
            _ => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
    let url = format!("{base}/api/v1/matches/{}/replay", m.match_id);
    let text = get_text(client, &url, &m.token).await?;
    let dir = out.join("replays");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!("{}.replay.json", m.match_id));
    std::fs::write(&path, &text).map_err(|e| e.to_string())?;
    let file = ReplayFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let report = registry
        .verify_replay(&file)
        .map_err(|e| format!("{}: {e} ({})", path.display(), e.code()))?;
    match report.divergence {
        Some(d) => Err(format!(
            "{}: DIVERGED after {} receipts: {d}",
            path.display(),
            report.verified
        )),
        None => Ok(()),
    }
}

/// Runs every check of a campaign folder against `base`.
async fn check_campaign(
    registry: &GameRegistry,
    base: &str,
    out: &Path,
    played: &[Played],
    acks: &[Ack],
    kills: &[u64],
    max_resume_s: u64,
) -> Result<Findings, Outcome> {
    let client = client()?;
    let mut findings = Findings {
        matches: played.len() as u64,
        acknowledged: acks.len() as u64,
        ..Findings::default()
    };
    let mut by_match: BTreeMap<&str, Vec<&Ack>> = BTreeMap::new();
    for a in acks {
        by_match.entry(a.match_id.as_str()).or_default().push(a);
    }
    for m in played {
        let receipts = match timeline(&client, base, m).await {
            Ok(r) => r,
            Err(e) => {
                findings.problems.push(e);
                continue;
            }
        };
        findings.receipts += receipts.len() as u64;
        let mine = by_match.remove(m.match_id.as_str()).unwrap_or_default();
        check_log(m, &receipts, &mine, &mut findings.problems);
        match resign_and_verify(registry, &client, base, m, out).await {
            Ok(()) => findings.replays_verified += 1,
            Err(e) => findings.problems.push(e),
        }
    }
    for (id, _) in by_match {
        findings
            .problems
            .push(format!("{id}: acknowledged but not a campaign match"));
    }
    for (k, resumed) in kills.iter().zip(resumption(kills, acks)) {
        match resumed {
            Some(ms) => {
                findings.resume_millis.push(ms);
                if ms > max_resume_s * 1000 {
                    findings.problems.push(format!(
                        "writes resumed {ms} ms after the failure at {k}, over {max_resume_s} s"
                    ));
                }
            }
            None => findings.problems.push(format!(
                "no write was acknowledged after the failure at {k}"
            )),
        }
    }
    findings.max_resume_millis = findings.resume_millis.iter().copied().max();
    Ok(findings)
}

fn read_campaign(out: &Path) -> Result<(Vec<Played>, Vec<Ack>), Outcome> {
    let text = std::fs::read_to_string(out.join("matches.json"))
        .map_err(|e| Outcome::input(format!("cannot read {}/matches.json: {e}", out.display())))?;
    let played: Vec<Played> =
        serde_json::from_str(&text).map_err(|e| Outcome::input(format!("matches.json: {e}")))?;
    let text = std::fs::read_to_string(out.join("acks.jsonl"))
        .map_err(|e| Outcome::input(format!("cannot read {}/acks.jsonl: {e}", out.display())))?;
    let mut acks = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        acks.push(
            serde_json::from_str(line)
                .map_err(|e| Outcome::input(format!("acks.jsonl line {}: {e}", i + 1)))?,
        );
    }
    Ok((played, acks))
}

fn read_kills(path: &Path) -> Result<Vec<u64>, Outcome> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Outcome::input(format!("cannot read {}: {e}", path.display())))?;
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, l)| {
            l.parse().map_err(|_| {
                Outcome::input(format!(
                    "{} line {}: {l:?} is not Unix milliseconds",
                    path.display(),
                    i + 1
                ))
            })
        })
        .collect()
}

fn report(findings: &Findings, extra: Value) -> Outcome {
    let mut report = serde_json::to_value(findings).unwrap_or_default();
    if let (Some(r), Some(e)) = (report.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            r.insert(k.clone(), v.clone());
        }
    }
    println!("{report}");
    if findings.problems.is_empty() {
        Outcome::ok()
    } else {
        Outcome::check_failed(format!(
            "{} problem(s): {}",
            findings.problems.len(),
            findings.problems.join("; ")
        ))
    }
}

async fn run_check(
    registry: &GameRegistry,
    base: &str,
    out: &Path,
    kills: Option<&Path>,
    max_resume_s: u64,
) -> Outcome {
    let (played, acks) = match read_campaign(out) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let kills = match kills.map(read_kills).transpose() {
        Ok(k) => k.unwrap_or_default(),
        Err(e) => return e,
    };
    match check_campaign(registry, base, out, &played, &acks, &kills, max_resume_s).await {
        Ok(findings) => report(&findings, json!({"kills": kills.len()})),
        Err(e) => e,
    }
}

/// A `turnstile serve` child process of `chaos cycles`.
struct ServerProcess {
    child: Child,
    base: String,
}

/// Starts this binary's `serve` on `database` and waits until it listens.
fn spawn_server(database: &str, log: &Path) -> Result<ServerProcess, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let stderr = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| format!("cannot open {}: {e}", log.display()))?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--command-rate", "0"])
        .args(["--create-rate", "0", "--database", database])
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("cannot start turnstile serve: {e}"))?;
    let Some(stdout) = child.stdout.take() else {
        return Err("no stdout from turnstile serve".to_owned());
    };
    let (tx, rx) = std::sync::mpsc::channel();
    // Reads the address, then keeps draining stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut sent = false;
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if !sent {
                if let Some(rest) = line.split("listening on ").nth(1) {
                    let base = rest
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned();
                    let _ = tx.send(base);
                    sent = true;
                }
            }
        }
    });
    match rx.recv_timeout(START_TIMEOUT) {
        Ok(base) => Ok(ServerProcess { child, base }),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!(
                "turnstile serve did not listen within {START_TIMEOUT:?} (see {})",
                log.display()
            ))
        }
    }
}

impl ServerProcess {
    /// `kill -9`, and wait until the process is gone.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

async fn run_cycles(
    registry: &GameRegistry,
    database: &str,
    cycles: u32,
    cycle_ms: u64,
    matches: u32,
    out: &Path,
) -> Outcome {
    if let Err(e) = std::fs::create_dir_all(out) {
        return Outcome::input(format!("cannot create {}: {e}", out.display()));
    }
    let log = out.join("serve.log");
    let db = database.to_owned();
    let spawn =
        |db: String, log: PathBuf| tokio::task::spawn_blocking(move || spawn_server(&db, &log));
    let mut server = match spawn(db.clone(), log.clone()).await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Outcome::input(e),
        Err(e) => return Outcome::input(e.to_string()),
    };
    let nodes: Nodes = Arc::new(RwLock::new(vec![server.base.clone()]));
    let (played, load) = match start_load(&nodes, matches, out).await {
        Ok(x) => x,
        Err(e) => {
            server.kill();
            return e;
        }
    };
    let started = Instant::now();
    let mut kills = Vec::new();
    let mut restarts = Vec::new();
    for _ in 0..cycles {
        tokio::time::sleep(Duration::from_millis(cycle_ms)).await;
        kills.push(unix_ms());
        server.kill();
        let restarting = Instant::now();
        server = match spawn(db.clone(), log.clone()).await {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                let _ = load.finish().await;
                return Outcome::input(e);
            }
            Err(e) => return Outcome::input(e.to_string()),
        };
        restarts.push(millis(restarting.elapsed()));
        *nodes.write().unwrap_or_else(|e| e.into_inner()) = vec![server.base.clone()];
    }
    tokio::time::sleep(Duration::from_millis(cycle_ms)).await;
    let load_ms = millis(started.elapsed());
    let (tally, acks) = load.finish().await;
    let base = server.base.clone();
    let findings = check_campaign(registry, &base, out, &played, &acks, &kills, MAX_SECONDS).await;
    server.kill();
    let mut findings = match findings {
        Ok(f) => f,
        Err(e) => return e,
    };
    if tally.anomalies > 0 {
        findings.problems.push(format!(
            "{} protocol anomalies (see above)",
            tally.anomalies
        ));
    }
    if tally.unresolved > 0 {
        findings
            .problems
            .push(format!("{} commands never answered", tally.unresolved));
    }
    restarts.sort_unstable();
    let median = restarts.get(restarts.len() / 2).copied().unwrap_or(0);
    let max = restarts.last().copied().unwrap_or(0);
    let backend = if turnstile_store::is_postgres_url(database) {
        "postgres"
    } else {
        "sqlite"
    };
    report(
        &findings,
        json!({"backend": backend, "cycles": cycles, "cycleMillis": cycle_ms,
               "loadMillis": load_ms, "restartMillisMedian": median, "restartMillisMax": max,
               "tally": tally}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(cid: &str, sequence: u64, sent: u64, acked: u64) -> Ack {
        Ack {
            match_id: "m".into(),
            command_id: cid.into(),
            sequence,
            sent_at_ms: sent,
            acked_at_ms: acked,
            attempts: 1,
            repeat: false,
        }
    }

    fn receipt(sequence: u64, cid: &str) -> Value {
        json!({"sequence": sequence, "commandId": cid})
    }

    fn problems(receipts: &[Value], acks: &[Ack]) -> Vec<String> {
        let m = Played {
            match_id: "m".into(),
            token: String::new(),
        };
        let refs: Vec<&Ack> = acks.iter().collect();
        let mut p = Vec::new();
        check_log(&m, receipts, &refs, &mut p);
        p
    }

    #[test]
    fn a_complete_log_passes_and_a_repeat_is_one_command() {
        let log = [receipt(1, "a"), receipt(2, "b"), receipt(3, "c")];
        let mut repeat = ack("b", 2, 5, 6);
        repeat.repeat = true;
        assert!(problems(&log, &[ack("a", 1, 0, 1), ack("b", 2, 2, 3), repeat]).is_empty());
    }

    #[test]
    fn a_lost_acknowledged_command_a_gap_and_a_duplicate_are_each_found() {
        let log = [receipt(1, "a"), receipt(2, "c")];
        let p = problems(&log, &[ack("a", 1, 0, 1), ack("b", 2, 2, 3)]);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].contains("acknowledged b at sequence 2 is missing"),
            "{p:?}"
        );

        let gap = [receipt(1, "a"), receipt(3, "b")];
        assert!(problems(&gap, &[]).iter().any(|p| p.contains("gap")));

        let twice = [receipt(1, "a"), receipt(2, "a")];
        let p = problems(&twice, &[ack("a", 1, 0, 1), ack("a", 2, 2, 3)]);
        assert!(p.iter().any(|p| p.contains("in the log 2 times")), "{p:?}");
        assert!(
            p.iter()
                .any(|p| p.contains("acknowledged at sequences {1, 2}")),
            "{p:?}"
        );
    }

    #[test]
    fn resumption_counts_from_the_failure_to_the_first_command_sent_after_it() {
        // An answer that arrives after the kill for a command sent before it does not count:
        // it may have committed before the failure.
        let acks = [
            ack("a", 1, 90, 105),
            ack("b", 2, 120, 4_100),
            ack("c", 3, 4_200, 4_300),
        ];
        assert_eq!(resumption(&[100], &acks), vec![Some(4_000)]);
        assert_eq!(resumption(&[5_000], &acks), vec![None]);
    }

    #[test]
    fn only_loopback_nodes_are_targets() {
        assert_eq!(
            loopback_base("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert!(loopback_base("http://10.0.0.1:8080").is_err());
        assert!(loopback_base("127.0.0.1:8080").is_err());
        assert!(loopback_base("https://example.org").is_err());
    }
}
