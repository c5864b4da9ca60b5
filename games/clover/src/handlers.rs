//! clover's `Custom` handlers — the places where behaviour lives in code, counted by
//! `content report`. Each is registered with a description in words, enough to write it
//! again in another language; content names them by id, code never branches on an owner.

use turnstile_core::determinism::Fixed;
use turnstile_effects::{Change, HandlerRegistry, HostError, Number};

use crate::vocabulary::{Event, HandlerCall};

use crate::state::RunState;

/// The registry of clover's handlers.
pub fn handlers() -> HandlerRegistry<RunState> {
    let mut registry = HandlerRegistry::new();
    let _ = registry.register(
        "random_mult",
        "Adds a random whole mult from 0 to the row's amount (inclusive) to the hand being \
         scored: one draw `below(amount + 1)` on the `misprint` stream.",
        random_mult,
    );
    let _ = registry.register(
        "balance_chips_mult",
        "Final step of a deck: with t = floor(chips + mult) (mult in ten-thousandths, floored \
         to a whole number), chips and mult both become floor(t / 2).",
        balance,
    );
    registry
}

fn random_mult(
    host: &mut RunState,
    call: &HandlerCall<'_>,
    _caused: &mut Vec<Event>,
) -> Result<Change, HostError> {
    let top = u32::try_from(call.amount.unwrap_or(0).max(0)).unwrap_or(u32::MAX - 1);
    let roll = host
        .streams
        .below("misprint", top.saturating_add(1))
        .map_err(|e| HostError::new("stream", e.to_string()))?;
    let before = host.scoring.mult;
    host.scoring.mult = before.saturating_add(Fixed::from_int(i64::from(roll)));
    Ok(Change {
        before: Number::Fixed(before),
        after: Number::Fixed(host.scoring.mult),
    })
}

fn balance(
    host: &mut RunState,
    _call: &HandlerCall<'_>,
    _caused: &mut Vec<Event>,
) -> Result<Change, HostError> {
    let before = host.scoring.mult;
    let total = host.scoring.chips.saturating_add(before.floor_int());
    let half = total.div_euclid(2);
    host.scoring.chips = half;
    host.scoring.mult = Fixed::from_int(half);
    Ok(Change {
        before: Number::Fixed(before),
        after: Number::Fixed(host.scoring.mult),
    })
}
