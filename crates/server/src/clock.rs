//! A match's clock on this node: ticks from the monotonic clock, anchored where the match's
//! time stood when this node started serving it.
//!
//! The server stamps each command with `max(last receipt's tick, clock tick)`, so a match's
//! tick never goes backwards. The anchor is the match's tick when this node loaded it (the
//! last receipt's tick, the last heartbeat's, or the takeover tick after an outage), so time
//! while no node served the match does not count against anyone.

use std::time::Duration;
use turnstile_core::Tick;

/// Ticks of one match, on this node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchClock {
    anchor_tick: Tick,
    anchor: Duration,
    tick_rate: u32,
}

impl MatchClock {
    /// A clock that reads `anchor_tick` at monotonic time `anchor`, running at `tick_rate`
    /// ticks per second (at least 1).
    pub fn new(anchor_tick: Tick, anchor: Duration, tick_rate: u32) -> Self {
        MatchClock {
            anchor_tick,
            anchor,
            tick_rate: tick_rate.max(1),
        }
    }

    /// Ticks per second.
    pub fn tick_rate(&self) -> u32 {
        self.tick_rate
    }

    /// The tick at monotonic time `now`.
    pub fn tick_at(&self, now: Duration) -> Tick {
        let elapsed_ms =
            u64::try_from(now.saturating_sub(self.anchor).as_millis()).unwrap_or(u64::MAX);
        let ticks = elapsed_ms.saturating_mul(u64::from(self.tick_rate)) / 1000;
        self.anchor_tick.saturating_add(ticks)
    }

    /// The stamp for a command at `now` after a receipt at `last`: `max(last, tick_at(now))`.
    pub fn stamp(&self, last: Tick, now: Duration) -> Tick {
        last.max(self.tick_at(now))
    }

    /// The monotonic time at which the clock reaches `tick` (the anchor time for ticks before
    /// the anchor).
    pub fn when(&self, tick: Tick) -> Duration {
        let ticks = tick.saturating_sub(self.anchor_tick);
        let ms = ticks
            .saturating_mul(1000)
            .div_ceil(u64::from(self.tick_rate));
        self.anchor.saturating_add(Duration::from_millis(ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_grow_with_time_from_the_anchor_and_never_go_back() {
        let c = MatchClock::new(100, Duration::from_secs(5), 10);
        assert_eq!(c.tick_at(Duration::from_secs(5)), 100);
        assert_eq!(c.tick_at(Duration::from_millis(5_250)), 102);
        assert_eq!(c.tick_at(Duration::from_secs(1)), 100, "before the anchor");
        assert_eq!(c.stamp(150, Duration::from_secs(6)), 150);
        assert_eq!(c.stamp(100, Duration::from_secs(6)), 110);
        assert_eq!(c.when(110), Duration::from_secs(6));
        assert_eq!(c.when(50), Duration::from_secs(5));
        assert!(c.tick_at(c.when(123)) >= 123);
    }
}
