//! Durable append throughput and latency: the number behind "acknowledged means durable" at
//! load. First a load report (N matches, one task each appending as fast as its commits are
//! acknowledged, for a fixed time: commands/s and latency p50/p99/p999), then criterion's
//! measurement of one round of 100 concurrent appends.
//!
//! `cargo bench -p turnstile-store --bench append` — SQLite in a temp dir (default
//! `synchronous=FULL`), and PostgreSQL when reachable (`TURNSTILE_TEST_POSTGRES`, default
//! `postgres://postgres@127.0.0.1:5432/test`; `TURNSTILE_SKIP_POSTGRES=1` skips it).
//! `TURNSTILE_BENCH_SECONDS` (default 5) sets each load run's length,
//! `TURNSTILE_BENCH_MATCHES` (default `1,100,1000`) the concurrency levels,
//! `TURNSTILE_BENCH_BACKENDS` (default `sqlite,sqlite-normal,postgres`) what is measured
//! (`sqlite-normal`: SQLite with `synchronous=NORMAL`, for the price of power-loss safety).

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use serde_json::json;
use turnstile_store::*;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// A log record about the size of a real receipt (~700 bytes of JSON).
fn record(sequence: u64, match_id: &str) -> LogRecord {
    LogRecord {
        sequence,
        command_id: format!("{match_id}-{sequence}"),
        tick: sequence * 2,
        envelope: json!({"commandId": format!("{match_id}-{sequence}"), "seat": 0,
            "expectedSequence": sequence - 1, "tick": sequence * 2,
            "action": {"type": "Play", "data": {"move": "r", "column": 3}}}),
        receipt: json!({"sequence": sequence, "commandId": format!("{match_id}-{sequence}"),
            "seat": 0, "tick": sequence * 2, "action": {"type": "Play", "data": {"move": "r"}},
            "events": [{"type": "PlayCommandReceived", "seat": 0},
                       {"type": "TurnEnded", "reason": "Play"}, {"type": "TurnActivated", "seat": 1}],
            "before": "sha256:6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b",
            "after": "sha256:d4735e3a265e16eee03f59718b9b5d03019c07d8b6c51f90da3a666eec13ab35",
            "views": ["sha256:4e07408562bedb8b60ce05c1decfe3ad16b72230967de01f640b7e4729b49fce",
                      "sha256:4b227777d4dd1fc61c6f884f48641d02b4d121d3fd328cb08b5531fcacdabf8a"],
            "previous": "sha256:ef2d127de37b942baad06145e54b0c619a1f22327b2ebbcfbec78f5564afe39d",
            "hash": "sha256:e7f6c011776e8db7cd330b54174fd76f7d0216b612387a5ffcfb81e6f0919683"}),
        recorded_at_ms: 1_700_000_000_000,
    }
}

async fn seed(store: &dyn Store, matches: usize) -> Vec<String> {
    store
        .put_content(&ContentRecord {
            game: "bench".to_owned(),
            revision: "sha256:r".to_owned(),
            bundle: json!({}),
            created_at_ms: 0,
        })
        .await
        .expect("content");
    let mut ids = Vec::with_capacity(matches);
    for i in 0..matches {
        let id = format!("m{i}");
        store
            .create_match(&MatchRecord {
                id: id.clone(),
                game: "bench".to_owned(),
                config: json!({}),
                revision: "sha256:r".to_owned(),
                seed: "s".to_owned(),
                seats: json!([]),
                tick_rate: 10,
                seat_token_hashes: vec![Some(format!("h{i}"))],
                spectator_token_hash: None,
                created_at_ms: 0,
                status: MatchStatus::Active,
                outcome: None,
                last_activity_ms: 0,
            })
            .await
            .expect("match");
        ids.push(id);
    }
    ids
}

/// N tasks, one per match, each appending its next command as soon as the previous one was
/// acknowledged, for `duration`. Returns (commands/s, sorted latencies in µs).
async fn load(store: Arc<dyn Store>, matches: usize, duration: Duration) -> (u64, Vec<u64>) {
    let ids = seed(&*store, matches).await;
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for id in ids {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut s = 1;
            while Instant::now() < deadline {
                let t = Instant::now();
                store.append(&id, &record(s, &id)).await.expect("append");
                latencies.push(u64::try_from(t.elapsed().as_micros()).unwrap_or(u64::MAX));
                s += 1;
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.expect("task"));
    }
    let elapsed_ms = u64::try_from(start.elapsed().as_millis())
        .unwrap_or(1)
        .max(1);
    all.sort_unstable();
    (all.len() as u64 * 1000 / elapsed_ms, all)
}

fn percentile(sorted: &[u64], per_mille: usize) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = (sorted.len() * per_mille / 1000).min(sorted.len() - 1);
    // Reporting only: microseconds to milliseconds for display.
    #[allow(clippy::float_arithmetic)]
    let ms = sorted[i] as f64 / 1000.0;
    ms
}

fn pg_url() -> Option<String> {
    if std::env::var("TURNSTILE_SKIP_POSTGRES").is_ok_and(|v| v == "1") {
        return None;
    }
    Some(
        std::env::var("TURNSTILE_TEST_POSTGRES")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned()),
    )
}

/// Opens a fresh store: a new SQLite file, or a new schema on PostgreSQL. The guard keeps the
/// temp dir alive / drops the schema.
async fn fresh(backend: &str) -> Option<(Arc<dyn Store>, Box<dyn std::any::Any>)> {
    match backend {
        "sqlite" | "sqlite-normal" => {
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("bench.db");
            let synchronous = if backend == "sqlite" {
                Synchronous::Full
            } else {
                Synchronous::Normal
            };
            let options = OpenOptions {
                sqlite: SqliteOptions {
                    synchronous,
                    ..SqliteOptions::default()
                },
                ..OpenOptions::default()
            };
            let store = open_with(&path.to_string_lossy(), options)
                .await
                .expect("open sqlite");
            Some((store, Box::new(dir)))
        }
        _ => {
            let url = pg_url()?;
            let (client, conn) = match tokio_postgres::connect(&url, tokio_postgres::NoTls).await {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("PostgreSQL at {url} unreachable ({e}); skipping it");
                    return None;
                }
            };
            tokio::spawn(conn);
            let schema = format!("bench_{}", std::process::id());
            client
                .batch_execute(&format!(
                    "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
                ))
                .await
                .expect("schema");
            let options = OpenOptions {
                postgres: PostgresOptions {
                    schema: Some(schema.clone()),
                    pool_size: 16,
                    ..PostgresOptions::default()
                },
                ..OpenOptions::default()
            };
            let store = open_with(&url, options).await.expect("open postgres");
            Some((store, Box::new((client, schema))))
        }
    }
}

fn load_report(rt: &tokio::runtime::Runtime) {
    let seconds: u64 = std::env::var("TURNSTILE_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let levels: Vec<usize> = std::env::var("TURNSTILE_BENCH_MATCHES")
        .unwrap_or_else(|_| "1,100,1000".to_owned())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let backends: Vec<String> = std::env::var("TURNSTILE_BENCH_BACKENDS")
        .unwrap_or_else(|_| "sqlite,sqlite-normal,postgres".to_owned())
        .split(',')
        .map(|s| s.trim().to_owned())
        .collect();
    println!("durable appends, {seconds} s per run, 2 tokio workers");
    println!("backend        matches  commands/s   p50 ms   p99 ms  p999 ms");
    for backend in backends.iter().map(String::as_str) {
        for &matches in &levels {
            let result = rt.block_on(async {
                let (store, guard) = fresh(backend).await?;
                let r = load(Arc::clone(&store), matches, Duration::from_secs(seconds)).await;
                drop(store);
                if let Ok(pg) = guard.downcast::<(tokio_postgres::Client, String)>() {
                    let (client, schema) = *pg;
                    let _ = client
                        .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
                        .await;
                }
                Some(r)
            });
            let Some((per_second, latencies)) = result else {
                continue;
            };
            println!(
                "{backend:<14} {matches:>7} {per_second:>11} {:>8.2} {:>8.2} {:>8.2}",
                percentile(&latencies, 500),
                percentile(&latencies, 990),
                percentile(&latencies, 999),
            );
        }
    }
}

fn bench_round(c: &mut Criterion, rt: &tokio::runtime::Runtime) {
    let (store, _guard) = rt.block_on(fresh("sqlite")).expect("sqlite");
    let ids = rt.block_on(seed(&*store, 100));
    let next = Arc::new(std::sync::atomic::AtomicU64::new(1));
    let mut group = c.benchmark_group("append");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("sqlite/100 matches, one durable append each", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let s = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let mut tasks = Vec::with_capacity(ids.len());
                    for id in &ids {
                        let (store, id) = (Arc::clone(&store), id.clone());
                        tasks.push(tokio::spawn(async move {
                            store.append(&id, &record(s, &id)).await.expect("append");
                        }));
                    }
                    for t in tasks {
                        t.await.expect("task");
                    }
                }
                start.elapsed()
            })
        })
    });
    group.finish();
}

fn main() {
    let rt = runtime();
    load_report(&rt);
    let mut c = Criterion::default().configure_from_args();
    bench_round(&mut c, &rt);
    c.final_summary();
}
