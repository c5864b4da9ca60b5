//! Rate limits: token buckets per key (a token's hash for commands, a client address for match
//! creation), in integer arithmetic.
//!
//! A bucket holds up to `burst` requests and refills at `per_second`; a request that finds it
//! empty is a 429 with the seconds to wait. A limit of 0 per second turns the limit off. The
//! table is bounded: when it grows past [`MAX_KEYS`], buckets that have refilled completely
//! (indistinguishable from new ones) are dropped.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

/// The most keys kept before full buckets are pruned.
pub const MAX_KEYS: usize = 100_000;

/// How a limit is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests per second refilled; 0 = unlimited.
    pub per_second: u32,
    /// The most requests at once.
    pub burst: u32,
}

impl Rate {
    /// No limit.
    pub const UNLIMITED: Rate = Rate {
        per_second: 0,
        burst: 0,
    };
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Thousandths of a request.
    milli: u64,
    at: Duration,
}

/// A table of buckets under one rate.
#[derive(Debug)]
pub struct Limiter {
    rate: Rate,
    buckets: Mutex<BTreeMap<String, Bucket>>,
}

impl Limiter {
    /// A limiter with this rate.
    pub fn new(rate: Rate) -> Self {
        Limiter {
            rate,
            buckets: Mutex::new(BTreeMap::new()),
        }
    }

    /// Takes one request for `key` at monotonic time `now`: `Ok` or `Err(seconds to wait)`.
    pub fn take(&self, key: &str, now: Duration) -> Result<(), u64> {
        if self.rate.per_second == 0 {
            return Ok(());
        }
        let full = u64::from(self.rate.burst.max(1)) * 1000;
        let per_ms = u64::from(self.rate.per_second);
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() >= MAX_KEYS && !buckets.contains_key(key) {
            buckets.retain(|_, b| {
                let elapsed =
                    u64::try_from(now.saturating_sub(b.at).as_millis()).unwrap_or(u64::MAX);
                b.milli.saturating_add(elapsed.saturating_mul(per_ms)) < full
            });
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            milli: full,
            at: now,
        });
        let elapsed = u64::try_from(now.saturating_sub(bucket.at).as_millis()).unwrap_or(u64::MAX);
        bucket.milli = bucket
            .milli
            .saturating_add(elapsed.saturating_mul(per_ms))
            .min(full);
        bucket.at = now;
        if bucket.milli >= 1000 {
            bucket.milli -= 1000;
            Ok(())
        } else {
            let missing = 1000 - bucket.milli;
            Err(missing.div_ceil(per_ms).div_ceil(1000).max(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refills_at_its_rate() {
        let limiter = Limiter::new(Rate {
            per_second: 2,
            burst: 3,
        });
        let t = Duration::from_secs(10);
        for _ in 0..3 {
            assert_eq!(limiter.take("a", t), Ok(()));
        }
        assert_eq!(limiter.take("a", t), Err(1));
        assert_eq!(limiter.take("b", t), Ok(()), "keys are independent");
        assert_eq!(limiter.take("a", t + Duration::from_millis(500)), Ok(()));
        assert!(limiter.take("a", t + Duration::from_millis(500)).is_err());
    }

    #[test]
    fn zero_per_second_is_unlimited() {
        let limiter = Limiter::new(Rate::UNLIMITED);
        for _ in 0..10_000 {
            assert_eq!(limiter.take("a", Duration::ZERO), Ok(()));
        }
    }
}
