//! The fair timer: what a client shows a player, accounting for lag. It never changes the
//! authoritative timer.
//!
//! The server publishes `tickRate`, the current server tick and the deadline tick. A player's
//! command reaches the server about half a round trip after it is sent, and the client's own input
//! offset later still; so the tick at which a command sent *now* will be judged is estimated as
//!
//! ```text
//! estimated_tick = server_tick + ceil(round_trip_millis × tick_rate / 2000) + input_offset_ticks
//! remaining      = max(deadline_tick − estimated_tick, 0)
//! ```
//!
//! Half the round trip is rounded **up** to whole ticks: the display errs towards showing a player
//! slightly less time than they have, never more. All arithmetic is on integers and saturates.

use turnstile_core::Tick;

/// Half a measured round trip, in whole ticks, rounded up: `ceil(round_trip_millis × tick_rate /
/// 2000)`. A tick rate of 0 (no clock) gives 0.
pub fn half_round_trip_ticks(round_trip_millis: u32, tick_rate: u32) -> u64 {
    let product = u64::from(round_trip_millis) * u64::from(tick_rate);
    product.div_ceil(2000)
}

/// The ticks a player should be shown as remaining before `deadline_tick`:
/// `max(deadline − (server_tick + ⌈rtt/2⌉ + input_offset), 0)`.
///
/// `server_tick` is the client's best knowledge of the server tick now (the last published tick,
/// advanced by the local time elapsed since it was received). `input_offset_ticks` is the delay the
/// client adds before sending an input.
pub fn fair_remaining_ticks(
    deadline_tick: Tick,
    server_tick: Tick,
    round_trip_millis: u32,
    tick_rate: u32,
    input_offset_ticks: u32,
) -> u64 {
    let estimated = server_tick
        .saturating_add(half_round_trip_ticks(round_trip_millis, tick_rate))
        .saturating_add(u64::from(input_offset_ticks));
    deadline_tick.saturating_sub(estimated)
}

/// Converts ticks to whole milliseconds for display, rounding down: `ticks × 1000 / tick_rate`.
/// `None` for a tick rate of 0.
pub fn ticks_to_millis(ticks: u64, tick_rate: u32) -> Option<u64> {
    if tick_rate == 0 {
        return None;
    }
    let millis = u128::from(ticks) * 1000 / u128::from(tick_rate);
    Some(u64::try_from(millis).unwrap_or(u64::MAX))
}

/// [`fair_remaining_ticks`] in whole milliseconds (rounded down), for a countdown display.
/// `None` for a tick rate of 0.
pub fn fair_remaining_millis(
    deadline_tick: Tick,
    server_tick: Tick,
    round_trip_millis: u32,
    tick_rate: u32,
    input_offset_ticks: u32,
) -> Option<u64> {
    let ticks = fair_remaining_ticks(
        deadline_tick,
        server_tick,
        round_trip_millis,
        tick_rate,
        input_offset_ticks,
    );
    ticks_to_millis(ticks, tick_rate)
}
