//! `turnstile loadtest --addr 127.0.0.1:PORT --matches N --duration S`: bounded load against a
//! server on this machine, reported as one JSON object.
//!
//! It only ever targets loopback addresses (anything else is refused), creates `N` Sokoban
//! matches (Microban level 1, one human seat each), then plays them all at once for `S`
//! seconds — each match a sequential client: a move, then an undo, then the move again, every
//! command durable before the next — and stops by itself. It reports accepted commands per
//! second and their latency percentiles (p50, p99, p99.9, in microseconds). Start the server
//! with `--command-rate 0 --create-rate 0` so its rate limits do not throttle the test.
//!
//! The clients are light on purpose, since they share the machine's cores with the server:
//! one thread drives every match, each over its own keep-alive connection with a hand-written
//! HTTP/1.1 exchange (request head formatted once, the body written into a reused buffer, the
//! answer framed by its `Content-Length` and parsed only when it is a 409).
//!
//! Around the load it reads the server's `/metrics` (before and after) and its own CPU clock,
//! and reports what the load cost: the server's CPU microseconds per command, the load
//! generator's (which shares the machine), the store's group commits during the load and per
//! second (durable writes: fsyncs on SQLite; commands over commits is what group commit
//! shared), and the server's resident memory with every match loaded. A figure the server does not report (no `/proc` on its system) is `null`.

use crate::exit::Outcome;
use serde::Serialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most matches one run may drive.
pub const MAX_MATCHES: u32 = 5_000;
/// The longest run, in seconds.
pub const MAX_SECONDS: u64 = 600;

/// What `turnstile loadtest` was asked.
pub struct LoadArgs {
    /// The server's address (loopback only).
    pub addr: String,
    /// Concurrent matches.
    pub matches: u32,
    /// Seconds of load.
    pub duration_s: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Latency {
    p50: u64,
    p99: u64,
    p999: u64,
    max: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    addr: String,
    game: &'static str,
    matches: u32,
    duration_millis: u64,
    commands: u64,
    commands_per_second: u64,
    rejected: u64,
    conflicts: u64,
    throttled: u64,
    errors: u64,
    latency_micros: Latency,
    server: ServerUsage,
    load_generator_cpu_micros_per_command: Option<u64>,
}

/// What the load cost the server, from its `/metrics` before and after.
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct ServerUsage {
    cpu_micros_per_command: Option<u64>,
    commits: Option<u64>,
    commits_per_second: Option<u64>,
    resident_bytes: Option<u64>,
}

/// The figures read off one `/metrics` exposition.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Sample {
    cpu_micros: Option<u64>,
    commits: Option<u64>,
    resident_bytes: Option<u64>,
}

/// The value of the unlabelled series `name` in a Prometheus text exposition, in millionths
/// (`2.5` is 2 500 000), read without floats; `None` when it is absent or not a plain
/// non-negative decimal.
fn series_millionths(text: &str, name: &str) -> Option<u64> {
    let value = text.lines().find_map(|l| {
        l.strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(' '))
            .map(str::trim)
    })?;
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    if fraction.len() > 6 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let fraction: u64 = format!("{fraction:0<6}").parse().ok()?;
    whole.checked_mul(1_000_000)?.checked_add(fraction)
}

fn sample(text: &str) -> Sample {
    Sample {
        cpu_micros: series_millionths(text, "process_cpu_seconds_total"),
        commits: series_millionths(text, "turnstile_store_commits_total").map(|m| m / 1_000_000),
        resident_bytes: series_millionths(text, "process_resident_memory_bytes")
            .map(|m| m / 1_000_000),
    }
}

/// The server's `/metrics` now. Each read opens its own connection: a connection pooled since
/// the matches were created sits idle through the load, and the server closes idle keep-alive
/// connections after its header-read timeout (10 s by default) — a read after a 10 s load
/// would race that close and report nothing.
async fn read_metrics(base: &str) -> Sample {
    let Ok(client) = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(30))
        .build()
    else {
        return Sample::default();
    };
    let Ok(response) = client.get(format!("{base}/metrics")).send().await else {
        return Sample::default();
    };
    sample(&response.text().await.unwrap_or_default())
}

/// The load's cost from two samples around it.
fn usage(before: Sample, after: Sample, commands: u64, elapsed_ms: u64) -> ServerUsage {
    let delta = |a: Option<u64>, b: Option<u64>| Some(b?.saturating_sub(a?));
    let commits = delta(before.commits, after.commits);
    ServerUsage {
        cpu_micros_per_command: delta(before.cpu_micros, after.cpu_micros)
            .and_then(|us| us.checked_div(commands)),
        commits,
        commits_per_second: commits.map(|c| c.saturating_mul(1000) / elapsed_ms.max(1)),
        resident_bytes: after.resident_bytes,
    }
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    rejected: u64,
    conflicts: u64,
    throttled: u64,
    errors: u64,
}

/// The `q`-th per-mille of sorted values (nearest rank).
fn per_mille(sorted: &[u64], q: u64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let n = sorted.len() as u64;
    let rank = (n * q).div_ceil(1000).clamp(1, n);
    sorted[usize::try_from(rank - 1).unwrap_or(0)]
}

/// Checks the target: a socket address on loopback.
pub fn loopback(addr: &str) -> Result<SocketAddr, String> {
    let parsed: SocketAddr = addr
        .parse()
        .map_err(|_| format!("--addr {addr:?} is not IP:PORT (e.g. 127.0.0.1:8080)"))?;
    if !parsed.ip().is_loopback() {
        return Err(format!(
            "--addr {addr}: the load test only targets this machine (127.0.0.0/8 or [::1])"
        ));
    }
    Ok(parsed)
}

async fn create(client: &reqwest::Client, base: &str) -> Result<(String, String), String> {
    let response = client
        .post(format!("{base}/api/v1/matches"))
        .json(&json!({
            "game": "sokoban",
            "config": { "collection": "microban", "level": 1 },
            "seats": [{ "kind": "human" }]
        }))
        .send()
        .await
        .map_err(|e| format!("cannot create a match: {e}"))?;
    let status = response.status();
    let body: Value = response.json().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!(
            "creating a match answered {status}: {body} (start the server with --create-rate 0)"
        ));
    }
    let id = body["matchId"].as_str().unwrap_or_default().to_owned();
    let token = body["seats"][0]["token"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    Ok((id, token))
}

/// One keep-alive HTTP/1.1 connection that sends a match's commands and reads the answers.
///
/// Hand-written rather than through `reqwest`: the load generator shares the machine's cores
/// with the server it measures, so every microsecond it spends per command is one the server
/// does not get. The request head is formatted once per match; a command only writes its body
/// into a reused buffer, and an answer is read by its `Content-Length` (the only framing this
/// server uses for these answers) without parsing its JSON unless it is a 409.
struct Connection {
    addr: SocketAddr,
    stream: Option<tokio::net::TcpStream>,
    /// The request line and headers up to `Content-Length: ` (exclusive of its value).
    head: Vec<u8>,
    request: Vec<u8>,
    body: Vec<u8>,
    answer: Vec<u8>,
}

/// What one command got back.
struct Answer {
    status: u16,
    /// Where the body starts in [`Connection::answer`].
    body_at: usize,
}

/// The most bytes an answer's head may take before the load generator gives up on it.
const MAX_HEAD: usize = 64 * 1024;
/// The largest answer body the load generator reads.
const MAX_BODY: usize = 16 * 1024 * 1024;

fn invalid(message: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message.to_owned())
}

/// The status code and body length of an answer's head (`head` ends with the blank line).
fn parse_head(head: &[u8]) -> std::io::Result<(u16, usize)> {
    let text = std::str::from_utf8(head).map_err(|_| invalid("answer head is not UTF-8"))?;
    let mut lines = text.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status: u16 = status_line
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| invalid("answer has no HTTP/1.1 status line"))?;
    let mut length = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if name.eq_ignore_ascii_case("content-length") {
            length = value.trim().parse::<usize>().ok();
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(invalid("chunked answers are not expected here"));
        }
    }
    let length = length.ok_or_else(|| invalid("answer has no Content-Length"))?;
    if length > MAX_BODY {
        return Err(invalid("answer body too large"));
    }
    Ok((status, length))
}

impl Connection {
    fn new(addr: SocketAddr, path: &str, token: &str) -> Connection {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: "
        )
        .into_bytes();
        Connection {
            addr,
            stream: None,
            head,
            request: Vec::with_capacity(512),
            body: Vec::with_capacity(160),
            answer: Vec::with_capacity(4096),
        }
    }

    /// Sends the command in `self.body` and reads its answer (reconnecting first if the
    /// connection was closed). On an error the connection is dropped, so the next command
    /// starts on a fresh one.
    async fn exchange(&mut self) -> std::io::Result<Answer> {
        use std::io::Write as _;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        self.request.clear();
        self.request.extend_from_slice(&self.head);
        let _ = write!(self.request, "{}\r\n\r\n", self.body.len());
        self.request.extend_from_slice(&self.body);
        let result = async {
            if self.stream.is_none() {
                let stream = tokio::net::TcpStream::connect(self.addr).await?;
                stream.set_nodelay(true)?;
                self.stream = Some(stream);
            }
            let stream = self
                .stream
                .as_mut()
                .ok_or_else(|| invalid("no connection"))?;
            stream.write_all(&self.request).await?;
            self.answer.clear();
            let mut scanned = 0;
            let (status, head_end, length) = loop {
                if let Some(at) = self.answer[scanned..]
                    .windows(4)
                    .position(|w| w == b"\r\n\r\n")
                {
                    let head_end = scanned + at + 4;
                    let (status, length) = parse_head(&self.answer[..head_end])?;
                    break (status, head_end, length);
                }
                scanned = self.answer.len().saturating_sub(3);
                if self.answer.len() > MAX_HEAD {
                    return Err(invalid("answer head too long"));
                }
                if stream.read_buf(&mut self.answer).await? == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
            };
            while self.answer.len() < head_end + length {
                if stream.read_buf(&mut self.answer).await? == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
            }
            // Nothing is pipelined, so anything past the body is a broken answer.
            if self.answer.len() != head_end + length {
                return Err(invalid("bytes after the answer"));
            }
            Ok(Answer {
                status,
                body_at: head_end,
            })
        };
        let answered = tokio::time::timeout(Duration::from_secs(30), result)
            .await
            .unwrap_or_else(|_| Err(std::io::ErrorKind::TimedOut.into()));
        if answered.is_err() {
            self.stream = None;
        }
        answered
    }
}

/// Writes one command's body (`commandId`, `expectedSequence`, `action`).
fn command_body(out: &mut Vec<u8>, n: u64, sequence: u64, action: &str) {
    use std::io::Write as _;
    out.clear();
    let _ = write!(
        out,
        "{{\"commandId\":\"lt-{n}\",\"expectedSequence\":{sequence},\"action\":{action}}}"
    );
}

async fn play(addr: SocketAddr, id: String, token: String, until: Instant) -> Tally {
    const MOVES: [&str; 4] = [
        r#"{"direction":"left","type":"move"}"#,
        r#"{"direction":"right","type":"move"}"#,
        r#"{"direction":"up","type":"move"}"#,
        r#"{"direction":"down","type":"move"}"#,
    ];
    const UNDO: &str = r#"{"type":"undo"}"#;
    let mut connection = Connection::new(addr, &format!("/api/v1/matches/{id}/commands"), &token);
    let mut tally = Tally::default();
    let mut sequence = 0u64;
    let mut direction = 0usize;
    let mut undo_next = false;
    let mut n = 0u64;
    while Instant::now() < until {
        n += 1;
        let action = if undo_next { UNDO } else { MOVES[direction] };
        command_body(&mut connection.body, n, sequence, action);
        let started = Instant::now();
        let Ok(answer) = connection.exchange().await else {
            tally.errors += 1;
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        match answer.status {
            200 => {
                tally
                    .latencies_us
                    .push(u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX));
                sequence += 1;
                undo_next = !undo_next;
            }
            422 => {
                tally.rejected += 1;
                direction = (direction + 1) % MOVES.len();
            }
            409 => {
                tally.conflicts += 1;
                let body: Value = connection
                    .answer
                    .get(answer.body_at..)
                    .and_then(|b| serde_json::from_slice(b).ok())
                    .unwrap_or_default();
                sequence = body["error"]["details"]["currentSequence"]
                    .as_u64()
                    .unwrap_or(sequence);
            }
            429 => {
                tally.throttled += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => {
                tally.errors += 1;
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
    tally
}

/// Runs the load test.
pub fn run(args: LoadArgs) -> Outcome {
    let addr = match loopback(&args.addr) {
        Ok(a) => a,
        Err(e) => return Outcome::usage(e),
    };
    if args.matches == 0 || args.matches > MAX_MATCHES {
        return Outcome::usage(format!("--matches must be 1 to {MAX_MATCHES}"));
    }
    if args.duration_s == 0 || args.duration_s > MAX_SECONDS {
        return Outcome::usage(format!("--duration must be 1 to {MAX_SECONDS} seconds"));
    }
    // One thread drives every match: the clients only write and read sockets, and a single
    // thread does that without the cross-thread wake-ups a work-stealing pool pays per
    // command — CPU the server under test would otherwise lose on a shared machine.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return Outcome::input(format!("cannot start the async runtime: {e}")),
    };
    runtime.block_on(async move {
        let base: Arc<str> = Arc::from(format!("http://{addr}"));
        let client = match reqwest::Client::builder()
            .pool_max_idle_per_host(usize::try_from(args.matches).unwrap_or(usize::MAX))
            .timeout(Duration::from_secs(30))
            .build()
        {
            Ok(c) => c,
            Err(e) => return Outcome::input(format!("cannot build an HTTP client: {e}")),
        };
        let mut matches = Vec::new();
        let mut creating = tokio::task::JoinSet::new();
        for _ in 0..args.matches {
            let (client, base) = (client.clone(), base.clone());
            creating.spawn(async move { create(&client, &base).await });
            if creating.len() >= 64 {
                if let Some(joined) = creating.join_next().await {
                    match joined {
                        Ok(Ok(m)) => matches.push(m),
                        Ok(Err(e)) => return Outcome::input(e),
                        Err(e) => return Outcome::input(e.to_string()),
                    }
                }
            }
        }
        while let Some(joined) = creating.join_next().await {
            match joined {
                Ok(Ok(m)) => matches.push(m),
                Ok(Err(e)) => return Outcome::input(e),
                Err(e) => return Outcome::input(e.to_string()),
            }
        }
        let metrics_before = read_metrics(&base).await;
        let own_cpu_before = turnstile_server::metrics::cpu_micros();
        let started = Instant::now();
        let until = started + Duration::from_secs(args.duration_s);
        let mut players = tokio::task::JoinSet::new();
        for (id, token) in matches {
            players.spawn(play(addr, id, token, until));
        }
        let mut total = Tally::default();
        while let Some(joined) = players.join_next().await {
            if let Ok(t) = joined {
                total.latencies_us.extend(t.latencies_us);
                total.rejected += t.rejected;
                total.conflicts += t.conflicts;
                total.throttled += t.throttled;
                total.errors += t.errors;
            }
        }
        let elapsed_ms = u64::try_from(started.elapsed().as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let own_cpu = own_cpu_before
            .zip(turnstile_server::metrics::cpu_micros())
            .map(|(a, b)| b.saturating_sub(a));
        let metrics_after = read_metrics(&base).await;
        total.latencies_us.sort_unstable();
        let commands = total.latencies_us.len() as u64;
        let report = Report {
            addr: addr.to_string(),
            game: "sokoban",
            matches: args.matches,
            duration_millis: elapsed_ms,
            commands,
            commands_per_second: commands * 1000 / elapsed_ms,
            rejected: total.rejected,
            conflicts: total.conflicts,
            throttled: total.throttled,
            errors: total.errors,
            latency_micros: Latency {
                p50: per_mille(&total.latencies_us, 500),
                p99: per_mille(&total.latencies_us, 990),
                p999: per_mille(&total.latencies_us, 999),
                max: total.latencies_us.last().copied().unwrap_or(0),
            },
            server: usage(metrics_before, metrics_after, commands, elapsed_ms),
            load_generator_cpu_micros_per_command: own_cpu.and_then(|us| us.checked_div(commands)),
        };
        println!("{}", serde_json::to_string(&report).unwrap_or_default());
        Outcome::ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_targets_are_accepted() {
        assert!(loopback("127.0.0.1:8080").is_ok());
        assert!(loopback("127.3.2.1:1").is_ok());
        assert!(loopback("[::1]:8080").is_ok());
        for bad in [
            "10.0.0.1:80",
            "192.168.1.2:8080",
            "8.8.8.8:53",
            "localhost:8080",
            "127.0.0.1",
        ] {
            assert!(loopback(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn metrics_are_read_without_floats_and_missing_ones_are_none() {
        let text = "# HELP x\nturnstile_store_commits_total 1200\nprocess_cpu_seconds_total 3.25\n\
                    process_resident_memory_bytes 52428800\nturnstile_live_matches 3\n";
        let s = sample(text);
        assert_eq!(s.commits, Some(1200));
        assert_eq!(s.cpu_micros, Some(3_250_000));
        assert_eq!(s.resident_bytes, Some(52_428_800));
        assert_eq!(
            series_millionths(text, "process_cpu_seconds"),
            None,
            "a whole name"
        );
        assert_eq!(
            series_millionths("x 1.2345678\n", "x"),
            None,
            "past millionths"
        );
        assert_eq!(series_millionths("x -1\n", "x"), None);
        assert_eq!(sample(""), Sample::default());
        let before = Sample {
            cpu_micros: Some(1_000_000),
            commits: Some(100),
            resident_bytes: Some(1),
        };
        let after = Sample {
            cpu_micros: Some(3_000_000),
            commits: Some(600),
            resident_bytes: Some(9),
        };
        let u = usage(before, after, 10_000, 2_000);
        assert_eq!(u.cpu_micros_per_command, Some(200));
        assert_eq!(u.commits_per_second, Some(250));
        assert_eq!(u.commits, Some(500));
        assert_eq!(u.resident_bytes, Some(9));
        let none = usage(Sample::default(), after, 10_000, 2_000);
        assert_eq!(none.cpu_micros_per_command, None);
        assert_eq!(usage(before, after, 0, 2_000).cpu_micros_per_command, None);
    }

    #[test]
    fn answers_are_framed_by_their_content_length() {
        let head =
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 42\r\n\r\n";
        assert_eq!(parse_head(head).unwrap(), (200, 42));
        let conflict = b"HTTP/1.1 409 Conflict\r\ncontent-length:7\r\n\r\n";
        assert_eq!(parse_head(conflict).unwrap(), (409, 7));
        for bad in [
            &b"HTTP/1.1 200 OK\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n",
            b"HTTP/1.0 200 OK\r\ncontent-length: 3\r\n\r\n",
            b"garbage\r\n\r\n",
            b"HTTP/1.1 200 OK\r\ncontent-length: 99999999999\r\n\r\n",
        ] {
            assert!(parse_head(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn command_bodies_are_the_api_request() {
        let mut body = Vec::new();
        command_body(&mut body, 7, 6, r#"{"type":"undo"}"#);
        let parsed: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            parsed,
            json!({ "commandId": "lt-7", "expectedSequence": 6, "action": { "type": "undo" } })
        );
        command_body(&mut body, 8, 7, r#"{"direction":"left","type":"move"}"#);
        let parsed: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(parsed["action"]["direction"], "left");
        assert_eq!(parsed["commandId"], "lt-8");
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<u64> = (1..=1000).collect();
        assert_eq!(per_mille(&v, 500), 500);
        assert_eq!(per_mille(&v, 990), 990);
        assert_eq!(per_mille(&v, 999), 999);
        assert_eq!(per_mille(&[7], 999), 7);
        assert_eq!(per_mille(&[], 500), 0);
    }
}
