//! What Pig's tests share: the shipped bundle (or one with changed rules), a driver that knows
//! Pig's pending Timeout, and a helper that submits a seat's command and returns its events.

#![allow(dead_code)]

use std::sync::Arc;

use turnstile_core::{ContentBundle, Seat};
use turnstile_pig::{content, Pig, PigAction, PigConfig, PigContent, PigEvent, PigState};
use turnstile_runtime::testing::Driver;
use turnstile_runtime::SeatSpec;

pub fn bundle() -> Arc<ContentBundle<PigContent>> {
    Arc::new(turnstile_pig::bundled().expect("the shipped content loads"))
}

/// The shipped bundle with `edit` applied to its rules file's JSON.
pub fn bundle_with(edit: impl FnOnce(&mut serde_json::Value)) -> Arc<ContentBundle<PigContent>> {
    let mut source = content::bundled_source();
    let mut rules: serde_json::Value =
        serde_json::from_str(source.text("rules.json").unwrap()).unwrap();
    edit(&mut rules);
    source.insert("rules.json", rules.to_string().into_bytes());
    let content = content::load(&source).expect("the edited rules load");
    Arc::new(ContentBundle::new("pig", content).unwrap())
}

pub fn config(clock: &str, seats: u16) -> PigConfig {
    PigConfig {
        phase_sequence: None,
        clock: Some(clock.into()),
        seats: Some(seats),
    }
}

pub fn driver_in(
    bundle: Arc<ContentBundle<PigContent>>,
    clock: &str,
    seats: u16,
    seed: &str,
) -> Driver<Pig> {
    Driver::with_seats(
        bundle,
        config(clock, seats),
        seed,
        vec![SeatSpec::human(); usize::from(seats)],
    )
    .unwrap()
    .with_timeouts(PigState::pending_timeout)
}

pub fn driver(clock: &str, seats: u16, seed: &str) -> Driver<Pig> {
    driver_in(bundle(), clock, seats, seed)
}

/// Submits `action` for `seat` at `tick`; panics on a refusal.
pub fn act(d: &mut Driver<Pig>, seat: u16, tick: u64, action: PigAction) -> Vec<PigEvent> {
    d.submit(Some(Seat(seat)), tick, action.clone())
        .unwrap_or_else(|r| panic!("{action:?} by seat {seat}: {r}"))
        .events
}

/// The game's own events (the turn framework's left out).
pub fn game_events(events: &[PigEvent]) -> Vec<PigEvent> {
    events
        .iter()
        .filter(|e| !matches!(e, PigEvent::Turn { .. }))
        .cloned()
        .collect()
}

/// The die a `Rolled` event in `events` shows.
pub fn die(events: &[PigEvent]) -> Option<i64> {
    events.iter().find_map(|e| match e {
        PigEvent::Rolled { die, .. } => Some(*die),
        _ => None,
    })
}

/// The seat rolling now.
pub fn acting(d: &Driver<Pig>) -> u16 {
    d.state().active.expect("a turn is in progress").0
}

/// The edges the turn's phase graph took.
pub fn edges(events: &[PigEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            PigEvent::PhaseChanged { edge, .. } => Some(edge.clone()),
            _ => None,
        })
        .collect()
}
