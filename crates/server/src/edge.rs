//! The server's side effects that are not storage or the network: the clock and randomness.
//!
//! Both sit behind traits so that everything else is plain logic over their answers. The
//! monotonic clock drives match ticks (a tick never depends on the wall clock jumping); the
//! wall clock only timestamps records and leases, which other nodes must be able to compare.
//! Randomness — seat tokens, match ids, default seeds — comes from the operating system.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Time, read at the edge.
pub trait Clock: Send + Sync + 'static {
    /// Monotonic time since a fixed origin of this process.
    fn monotonic(&self) -> Duration;
    /// Wall-clock milliseconds since the Unix epoch.
    fn wall_ms(&self) -> i64;
}

/// The operating system's clocks.
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose monotonic origin is now.
    pub fn new() -> Self {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn monotonic(&self) -> Duration {
        self.origin.elapsed()
    }

    fn wall_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
            .unwrap_or(0)
    }
}

/// Random bytes, read at the edge.
pub trait Entropy: Send + Sync + 'static {
    /// Fills `buf` with unpredictable bytes, or says why it could not.
    fn fill(&self, buf: &mut [u8]) -> Result<(), String>;
}

/// The operating system's random source (`getrandom`).
#[derive(Debug, Clone, Copy, Default)]
pub struct OsEntropy;

impl Entropy for OsEntropy {
    fn fill(&self, buf: &mut [u8]) -> Result<(), String> {
        getrandom::fill(buf).map_err(|e| e.to_string())
    }
}

/// Lowercase hex of some bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    out
}

/// `n` random bytes as hex.
pub fn random_hex(entropy: &dyn Entropy, n: usize) -> Result<String, String> {
    let mut buf = vec![0u8; n];
    entropy.fill(&mut buf)?;
    Ok(hex(&buf))
}
