//! Turnstile's turn framework: who is acting now, for how long, and what happens when that ends.
//!
//! This crate is the pure bookkeeping behind every turn-based game on Turnstile:
//!
//! - [`TurnData`] — one turn's owner, entity, config, type, status, number and ticks — with the
//!   seed's operations (set type, set status, accumulate, reset) that emit [`TurnEvent`]s only on
//!   real change;
//! - [`TurnConfig`] content (timer, duration, skippable) addressed by [`TurnConfigId`] in a
//!   [`TurnConfigs`] table that refuses unknown ids before anything runs;
//! - a [`TurnClock`] measured in ticks carried by command envelopes: jumping the clock to a tick
//!   with [`Turns::advance_to`] is exactly equivalent to one seed `Update` per tick
//!   ([`Turns::step`]), a turn ends with `Time` at its [deadline](TurnClock::deadline_tick), the
//!   system `Timeout` and `ClockResumed` commands have their state-level operations;
//! - the `Play` and `Skip` [`TurnCommand`]s with typed refusals, [`TurnSignals`] through which game
//!   logic hooks every transition synchronously, and events for clients;
//! - a commander [`TurnOrder`]: actors with priorities that join at loop boundaries, leave at
//!   once, are skipped when they can't act, and take one activation of the current turn each;
//! - the client-side [fair timer](fair_remaining_ticks).
//!
//! Everything is driven through a [`Turns`] handle borrowed from a [`MatchTurns`] state:
//!
//! ```
//! use turnstile_core::Seat;
//! use turnstile_turns::{
//!     MatchTurns, NoSignals, ResetTurn, TurnConfig, TurnConfigId, TurnConfigs, TurnEndReason,
//!     TurnEvent,
//! };
//!
//! let configs = TurnConfigs::new().with(
//!     TurnConfigId::new("blitz"),
//!     TurnConfig { uses_timer: true, turn_duration_ticks: 30, ..TurnConfig::default() },
//! );
//! let mut state = MatchTurns::new([Seat(0), Seat(1)]);
//! let mut turns = state.turns::<(), ()>(&configs);
//! turns
//!     .begin_turn(&mut NoSignals, ResetTurn::new().with_player(Some(Seat(0))).with_config(Some(TurnConfigId::new("blitz"))))
//!     .unwrap();
//! assert_eq!(turns.deadline_tick().unwrap(), Some(30));
//! turns.advance_to(&mut NoSignals, 30).unwrap();
//! let events = turns.into_events();
//! assert!(events.iter().any(|e| matches!(e, TurnEvent::TurnEnded { reason: TurnEndReason::Time, .. })));
//! assert_eq!(state.clock().seat(Seat(0)).unwrap().ticks, 30);
//! ```
//!
//! **What this crate must never do.** It never reads a wall clock, sleeps, spawns, does I/O, uses
//! floats, hash-map iteration order or platform randomness; time enters only as a [`Tick`] argument.
//! It knows no game, no server and no storage: it depends on `turnstile-core` for [`Seat`] and
//! [`Tick`] only. Events it emits are for clients and never feed back into rules. It never panics on
//! input from outside: refusals are typed [`TurnError`]s with stable codes.
//!
//! The teaching page is `docs/turns.md`.
//!
//! [`Seat`]: turnstile_core::Seat
//! [`Tick`]: turnstile_core::Tick

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod command;
mod config;
mod data;
mod error;
mod event;
mod fair;
mod ids;
mod lean;
mod order;
mod state;
mod system;
mod turns;

pub use command::TurnCommand;
pub use config::{ConfigProblem, TurnConfig, TurnConfigs};
pub use data::{ResetTurn, TurnData, TurnEndReason, TurnStatus, TurnType};
pub use error::TurnError;
pub use event::{DiscardEvents, TurnEvent, TurnEventSink};
pub use fair::{
    fair_remaining_millis, fair_remaining_ticks, half_round_trip_ticks, ticks_to_millis,
};
pub use ids::{CommanderId, EntityId, TurnConfigId};
pub use lean::LeanTurns;
pub use order::{Commander, LoopOutcome, RecomputeAt, Registration, SkipReason, TurnOrder};
pub use state::{MatchTurns, TurnClock};
pub use system::{
    clock_resumed_command_id, parse_clock_resumed_command_id, parse_timeout_command_id,
    timeout_command_id,
};
pub use turns::{NoSignals, TurnSignals, Turns, MAX_ACTIVATIONS_PER_OPERATION, MAX_SIGNAL_DEPTH};
