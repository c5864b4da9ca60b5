//! Prometheus metrics, kept by hand: counters and one histogram, rendered as text.
//!
//! - `turnstile_commands_total{outcome}` — commands by outcome: `accepted`, `repeat`,
//!   `rejected` (a rule rejection, 422), `refused` (any other refusal);
//! - `turnstile_rejections_total{code}` — rule rejections and refusals by their stable code;
//! - `turnstile_command_duration_seconds` — a histogram of command latency, from the request
//!   to the answer (the durable commit included);
//! - `turnstile_live_matches` — matches loaded in this node;
//! - `turnstile_resumed_matches_total` — active matches loaded (and their leases tried) by
//!   the background resume after start, so a restart's time until all are loaded is visible;
//! - `turnstile_http_requests_total{status}` — answers by status;
//! - `turnstile_store_log_pages_read_total` — pages of match logs this node read back from the
//!   store (loading a match, catching up with another node's commits): a node alone, serving
//!   its matches, reads none while it plays them — its own commits are already in memory;
//! - `turnstile_store_commits_total` — the store's group commits ([`Store::commits`]: durable
//!   writes, each shared by any number of commands);
//! - `process_resident_memory_bytes` and `process_cpu_seconds_total` — the server process's
//!   resident memory and CPU time, under the names Prometheus gives them, read when asked
//!   (Linux; left out where the system does not tell).
//!
//! [`Store::commits`]: turnstile_store::Store::commits
//!
//! Durations are counted in integer microseconds and printed as decimal seconds, so no float
//! arithmetic happens anywhere.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Histogram bucket bounds, in microseconds.
const BUCKETS_US: [u64; 14] = [
    250, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
    2_500_000, 10_000_000,
];

/// The node's metrics.
#[derive(Debug, Default)]
pub struct Metrics {
    commands: Mutex<BTreeMap<&'static str, u64>>,
    rejections: Mutex<BTreeMap<String, u64>>,
    statuses: Mutex<BTreeMap<u16, u64>>,
    buckets: [AtomicU64; BUCKETS_US.len()],
    count: AtomicU64,
    sum_us: AtomicU64,
    live_matches: AtomicU64,
    resumed: AtomicU64,
    log_pages_read: AtomicU64,
}

/// What the process uses now: resident memory and CPU time, each `None` where the system
/// does not tell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcessUsage {
    /// Resident memory in bytes ([`resident_bytes`]).
    pub resident_bytes: Option<u64>,
    /// CPU time, user and system, of every thread, in microseconds.
    pub cpu_micros: Option<u64>,
}

impl ProcessUsage {
    /// Read now.
    pub fn now() -> ProcessUsage {
        ProcessUsage {
            resident_bytes: resident_bytes(),
            cpu_micros: cpu_micros(),
        }
    }
}

/// The process's resident memory in bytes (`VmRSS` of `/proc/self/status`); `None` where there
/// is no such file (not Linux). The one reading of it: `turnstile bench`'s memory line uses it
/// too.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kilobytes.checked_mul(1024)
}

/// The process's CPU time (every thread, user and system) in microseconds.
pub fn cpu_micros() -> Option<u64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let seconds = u64::try_from(t.tv_sec).ok()?;
    let micros = u64::try_from(t.tv_nsec / 1_000).ok()?;
    seconds.checked_mul(1_000_000)?.checked_add(micros)
}

fn seconds(us: u64) -> String {
    format!("{}.{:06}", us / 1_000_000, us % 1_000_000)
}

fn bump<K: Ord>(map: &Mutex<BTreeMap<K, u64>>, key: K) {
    if let Ok(mut map) = map.lock() {
        *map.entry(key).or_insert(0) += 1;
    }
}

impl Metrics {
    /// Counts a command by outcome.
    pub fn command(&self, outcome: &'static str, took: Duration) {
        bump(&self.commands, outcome);
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS_US) {
            if us <= bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
    }

    /// Counts a rejection or refusal by code.
    pub fn rejection(&self, code: &str) {
        // Codes are stable and few, but they come from games: bound the label set.
        let key = if code.len() <= 64
            && code
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit())
        {
            code.to_owned()
        } else {
            "other".to_owned()
        };
        bump(&self.rejections, key);
    }

    /// Counts an HTTP answer.
    pub fn status(&self, status: u16) {
        bump(&self.statuses, status);
    }

    /// Sets the number of loaded matches.
    pub fn set_live_matches(&self, n: u64) {
        self.live_matches.store(n, Ordering::Relaxed);
    }

    /// Counts an active match the background resume has loaded.
    pub fn resumed(&self) {
        self.resumed.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a page of a match's log read back from the store.
    pub fn log_page_read(&self) {
        self.log_pages_read.fetch_add(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition, with the store's group commits and the process's use
    /// of memory and CPU as they are now.
    pub fn render(&self, store_commits: u64, process: ProcessUsage) -> String {
        let mut out = String::new();
        out.push_str("# HELP turnstile_store_commits_total Group commits of the store.\n");
        out.push_str("# TYPE turnstile_store_commits_total counter\n");
        out.push_str(&format!("turnstile_store_commits_total {store_commits}\n"));
        if let Some(bytes) = process.resident_bytes {
            out.push_str("# HELP process_resident_memory_bytes Resident memory in bytes.\n");
            out.push_str("# TYPE process_resident_memory_bytes gauge\n");
            out.push_str(&format!("process_resident_memory_bytes {bytes}\n"));
        }
        if let Some(us) = process.cpu_micros {
            out.push_str("# HELP process_cpu_seconds_total CPU time used, user and system.\n");
            out.push_str("# TYPE process_cpu_seconds_total counter\n");
            out.push_str(&format!("process_cpu_seconds_total {}\n", seconds(us)));
        }
        out.push_str("# HELP turnstile_commands_total Commands answered, by outcome.\n");
        out.push_str("# TYPE turnstile_commands_total counter\n");
        if let Ok(map) = self.commands.lock() {
            for (outcome, n) in map.iter() {
                out.push_str(&format!(
                    "turnstile_commands_total{{outcome=\"{outcome}\"}} {n}\n"
                ));
            }
        }
        out.push_str("# HELP turnstile_rejections_total Rejected or refused commands, by code.\n");
        out.push_str("# TYPE turnstile_rejections_total counter\n");
        if let Ok(map) = self.rejections.lock() {
            for (code, n) in map.iter() {
                out.push_str(&format!(
                    "turnstile_rejections_total{{code=\"{code}\"}} {n}\n"
                ));
            }
        }
        out.push_str(
            "# HELP turnstile_command_duration_seconds Command latency, request to durable answer.\n",
        );
        out.push_str("# TYPE turnstile_command_duration_seconds histogram\n");
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS_US) {
            out.push_str(&format!(
                "turnstile_command_duration_seconds_bucket{{le=\"{}\"}} {}\n",
                seconds(bound),
                bucket.load(Ordering::Relaxed)
            ));
        }
        let count = self.count.load(Ordering::Relaxed);
        out.push_str(&format!(
            "turnstile_command_duration_seconds_bucket{{le=\"+Inf\"}} {count}\n"
        ));
        out.push_str(&format!(
            "turnstile_command_duration_seconds_sum {}\n",
            seconds(self.sum_us.load(Ordering::Relaxed))
        ));
        out.push_str(&format!(
            "turnstile_command_duration_seconds_count {count}\n"
        ));
        out.push_str("# HELP turnstile_live_matches Matches loaded in this node.\n");
        out.push_str("# TYPE turnstile_live_matches gauge\n");
        out.push_str(&format!(
            "turnstile_live_matches {}\n",
            self.live_matches.load(Ordering::Relaxed)
        ));
        out.push_str(
            "# HELP turnstile_resumed_matches_total Active matches loaded by the resume after start.\n",
        );
        out.push_str("# TYPE turnstile_resumed_matches_total counter\n");
        out.push_str(&format!(
            "turnstile_resumed_matches_total {}\n",
            self.resumed.load(Ordering::Relaxed)
        ));
        out.push_str(
            "# HELP turnstile_store_log_pages_read_total Pages of match logs read from the store.\n",
        );
        out.push_str("# TYPE turnstile_store_log_pages_read_total counter\n");
        out.push_str(&format!(
            "turnstile_store_log_pages_read_total {}\n",
            self.log_pages_read.load(Ordering::Relaxed)
        ));
        out.push_str("# HELP turnstile_http_requests_total HTTP answers, by status.\n");
        out.push_str("# TYPE turnstile_http_requests_total counter\n");
        if let Ok(map) = self.statuses.lock() {
            for (status, n) in map.iter() {
                out.push_str(&format!(
                    "turnstile_http_requests_total{{status=\"{status}\"}} {n}\n"
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_a_cumulative_histogram() {
        let m = Metrics::default();
        m.command("accepted", Duration::from_micros(300));
        m.command("accepted", Duration::from_millis(3));
        m.rejection("wall");
        m.rejection("Weird Code!");
        m.log_page_read();
        let text = m.render(
            7,
            ProcessUsage {
                resident_bytes: Some(4096),
                cpu_micros: Some(2_500_000),
            },
        );
        assert!(text.contains("turnstile_store_commits_total 7\n"));
        assert!(text.contains("turnstile_store_log_pages_read_total 1\n"));
        assert!(text.contains("process_resident_memory_bytes 4096\n"));
        assert!(text.contains("process_cpu_seconds_total 2.500000\n"));
        let bare = m.render(0, ProcessUsage::default());
        assert!(
            !bare.contains("process_resident_memory_bytes"),
            "absent, not 0"
        );
        assert!(text.contains("turnstile_commands_total{outcome=\"accepted\"} 2"));
        assert!(text.contains("turnstile_rejections_total{code=\"wall\"} 1"));
        assert!(text.contains("turnstile_rejections_total{code=\"other\"} 1"));
        assert!(text.contains("turnstile_command_duration_seconds_bucket{le=\"0.000500\"} 1"));
        assert!(text.contains("turnstile_command_duration_seconds_bucket{le=\"0.005000\"} 2"));
        assert!(text.contains("turnstile_command_duration_seconds_sum 0.003300"));
    }

    #[test]
    fn this_process_reports_its_memory_and_cpu() {
        let before = cpu_micros().expect("a CPU clock");
        // Burn a little CPU so the clock moves.
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        assert_ne!(x, 1);
        assert!(cpu_micros().expect("a CPU clock") > before);
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().expect("VmRSS on Linux") > 1024 * 1024);
        }
    }
}
