//! clover's `Custom` handlers — the places where behaviour would live in code, counted by
//! `content report`. clover ships none: every effect is a row of generic or clover-declared
//! operations (the random mult of the smudge is an `AddMult` drawn on `misprint`, the plasma
//! deck's balance two `Reset` rows of `AddMult` and `AddChips`). The registry stays so a
//! designer's experiment can register one, and the report shows it.

use turnstile_effects::HandlerRegistry;

use crate::state::RunState;

/// The registry of clover's handlers (empty).
pub fn handlers() -> HandlerRegistry<RunState> {
    HandlerRegistry::new()
}
