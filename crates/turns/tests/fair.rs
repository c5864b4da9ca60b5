//! The fair timer: remaining = max(deadline − (server tick + ⌈rtt/2⌉ + input offset), 0), in ticks.

use proptest::prelude::*;
use turnstile_turns::{
    fair_remaining_millis, fair_remaining_ticks, half_round_trip_ticks, ticks_to_millis,
};

/// `check((deadline, server, rtt_ms, tick_rate, offset), expected_ticks)`.
fn check(input: (u64, u64, u32, u32, u32), expected: u64) {
    let (deadline, server, rtt, rate, offset) = input;
    assert_eq!(
        fair_remaining_ticks(deadline, server, rtt, rate, offset),
        expected,
        "{input:?}"
    );
}

#[test]
fn fair_timer_cases() {
    // No lag: the simulation's own remaining time.
    check((100, 70, 0, 10, 0), 30);
    // 200 ms round trip at 10 ticks/s: half is exactly one tick.
    check((100, 70, 200, 10, 0), 29);
    // 250 ms: half is 1.25 ticks, rounded up to 2 (show a little less, never more).
    check((100, 70, 250, 10, 0), 28);
    // The input offset counts too.
    check((100, 70, 200, 10, 3), 26);
    // At 60 ticks/s, 50 ms of round trip is 1.5 ticks → 2.
    check((600, 0, 50, 60, 0), 598);
    // Past the deadline, or eaten by lag: 0, never negative.
    check((100, 120, 0, 10, 0), 0);
    check((100, 99, 400, 10, 0), 0);
    // No clock (tick rate 0): no lag in ticks.
    check((100, 70, 500, 0, 0), 30);
    // Extremes saturate instead of overflowing.
    check((u64::MAX, u64::MAX - 1, u32::MAX, u32::MAX, u32::MAX), 0);
    check((u64::MAX, 0, 0, 10, 0), u64::MAX);
}

#[test]
fn half_round_trip_rounds_up_to_whole_ticks() {
    assert_eq!(half_round_trip_ticks(0, 10), 0);
    assert_eq!(half_round_trip_ticks(1, 10), 1);
    assert_eq!(half_round_trip_ticks(200, 10), 1);
    assert_eq!(half_round_trip_ticks(201, 10), 2);
    assert_eq!(
        half_round_trip_ticks(u32::MAX, u32::MAX),
        (u64::from(u32::MAX) * u64::from(u32::MAX)).div_ceil(2000)
    );
}

#[test]
fn millis_for_display_round_down() {
    assert_eq!(ticks_to_millis(25, 10), Some(2500));
    assert_eq!(ticks_to_millis(1, 60), Some(16));
    assert_eq!(ticks_to_millis(5, 0), None);
    assert_eq!(ticks_to_millis(u64::MAX, 1), Some(u64::MAX));
    assert_eq!(fair_remaining_millis(100, 70, 200, 10, 0), Some(2900));
    assert_eq!(fair_remaining_millis(100, 70, 200, 0, 0), None);
}

proptest! {
    #[test]
    fn the_fair_timer_never_shows_more_than_the_simulation(
        deadline in 0u64..1_000_000,
        server in 0u64..1_000_000,
        rtt in 0u32..10_000,
        more_rtt in 0u32..10_000,
        rate in 0u32..240,
        offset in 0u32..20,
    ) {
        let shown = fair_remaining_ticks(deadline, server, rtt, rate, offset);
        prop_assert!(shown <= deadline.saturating_sub(server));
        // More lag never shows more time.
        prop_assert!(fair_remaining_ticks(deadline, server, rtt + more_rtt, rate, offset) <= shown);
    }
}
