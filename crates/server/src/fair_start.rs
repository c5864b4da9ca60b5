//! Fair clocks: a timed match's clock starts when every human seat has opened the board (said
//! "ready", `POST /api/v1/matches/{id}/ready`), not when the match was created, so the first
//! player does not lose their turn's time while the page loads or the other player finds the
//! link. After `ServerConfig::clock_start_wait` it starts anyway, so an absent player cannot
//! stall a match (a wait of zero turns fair starts off: clocks run from creation).
//!
//! The start is a logged system command: the game's own `ClockResumed` from the match's
//! creation tick to the start tick (`clock-resumed:0`), the same command a node records after an
//! outage — time before it does not count against anyone, and the replay reproduces it with no
//! clock. While a match waits, the server arms no Timeout, its bots do not move, and snapshots
//! show no deadline but who is still awaited (`clockStart`).
//!
//! Only matches that can shift their clock (a game with `ClockResumed`), are timed (a deadline
//! now), have at least one human seat and nothing in their log yet wait. Ready marks are kept
//! in the store (`ready_marks`, both backends), so they are shared by every node of a cluster
//! and survive a restart: a seat ready on node A and a seat ready on node B start the clock
//! once — whichever node takes the last mark records the start, and the log's uniqueness
//! (sequence 1, command id `clock-resumed:0`) refuses a second start from the other node.
//! Each node keeps the marks it last read in memory, so deciding whether a match waits (the
//! driver, the snapshot) reads no database.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use tokio::sync::OwnedMutexGuard;
use turnstile_runtime::SeatKind;

use crate::error::ApiError;
use crate::hub::{Hub, Loaded, Origin, Slot, Submission};

/// The seats that said ready, per match, as this node last read them from the store.
#[derive(Default)]
pub struct FairStart {
    ready: Mutex<BTreeMap<String, BTreeSet<u16>>>,
}

/// A match whose clock waits for its people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// The human seats.
    pub humans: Vec<u16>,
    /// The human seats that have opened the board.
    pub ready: Vec<u16>,
    /// The match tick at which the clock starts anyway.
    pub starts_by_tick: u64,
}

impl FairStart {
    /// Marks `seat` ready in `match_id`, in the store, and remembers every seat marked so far
    /// (on any node).
    pub async fn mark(&self, hub: &Hub, match_id: &str, seat: u16) -> Result<(), ApiError> {
        let seats = hub.store.mark_ready(match_id, seat).await?;
        self.remember(match_id, seats);
        Ok(())
    }

    /// Reads the marks of `match_id` from the store again (marks taken on other nodes).
    pub async fn refresh(&self, hub: &Hub, match_id: &str) -> Result<(), ApiError> {
        let seats = hub.store.ready_seats(match_id).await?;
        self.remember(match_id, seats);
        Ok(())
    }

    fn remember(&self, match_id: &str, seats: Vec<u16>) {
        if let Ok(mut all) = self.ready.lock() {
            all.entry(match_id.to_owned()).or_default().extend(seats);
        }
    }

    fn ready_of(&self, match_id: &str) -> BTreeSet<u16> {
        self.ready
            .lock()
            .ok()
            .and_then(|all| all.get(match_id).cloned())
            .unwrap_or_default()
    }

    fn forget(&self, match_id: &str) {
        if let Ok(mut all) = self.ready.lock() {
            all.remove(match_id);
        }
    }
}

/// The human seats of a match whose clock starts fairly (fair starts on — a wait above zero —,
/// nothing in the log yet, a deadline running, a game that can shift its clock, at least one
/// human seat); `None` for every other match, whose clock runs from its creation.
pub fn applies(hub: &Hub, slot: &Slot, loaded: &Loaded) -> Option<Vec<u16>> {
    let m = &loaded.m;
    if hub.config.clock_start_wait.is_zero() || m.sequence() != 0 || m.timeout_command().is_none() {
        return None;
    }
    m.clock_resumed_command(m.last_tick(), m.last_tick())?;
    let humans: Vec<u16> = slot
        .seat_specs()
        .into_iter()
        .enumerate()
        .filter(|(_, s)| s.kind == SeatKind::Human)
        .filter_map(|(i, _)| u16::try_from(i).ok())
        .collect();
    (!humans.is_empty()).then_some(humans)
}

/// Whether `loaded`'s clock still waits for its people (and for whom), `None` when it runs.
pub fn waiting(hub: &Hub, slot: &Slot, loaded: &Loaded) -> Option<Waiting> {
    let humans = applies(hub, slot, loaded)?;
    let m = &loaded.m;
    let ready = hub.fair_start.ready_of(&slot.id);
    let ready: Vec<u16> = humans
        .iter()
        .copied()
        .filter(|s| ready.contains(s))
        .collect();
    if ready.len() == humans.len() {
        return None;
    }
    let wait_ticks = hub
        .config
        .clock_start_wait
        .as_millis()
        .saturating_mul(u128::from(loaded.clock.tick_rate()))
        / 1000;
    let starts_by_tick = m
        .last_tick()
        .saturating_add(u64::try_from(wait_ticks).unwrap_or(u64::MAX));
    if loaded.clock.tick_at(hub.now()) >= starts_by_tick {
        return None;
    }
    Some(Waiting {
        humans,
        ready,
        starts_by_tick,
    })
}

/// Starts the clock of a match that waited (everyone is ready, or the wait is over): records
/// the game's `ClockResumed` from the last tick (the creation tick) to now. Does nothing for a
/// match that never waited or already started. Returns whether a start was recorded.
pub async fn start_clock(
    hub: &Hub,
    slot: &Slot,
    guard: &mut OwnedMutexGuard<Option<Loaded>>,
) -> bool {
    let Some(loaded) = guard.as_ref() else {
        return false;
    };
    if applies(hub, slot, loaded).is_none() {
        hub.fair_start.forget(&slot.id);
        return false;
    }
    let m = &loaded.m;
    let from = m.last_tick();
    let now = loaded.clock.stamp(from, hub.now());
    let Some(command) = m.clock_resumed_command(from, now) else {
        return false;
    };
    let submission = Submission {
        command_id: command.command_id,
        seat: None,
        expected_sequence: 0,
        expected_step: None,
        action: command.action,
        tick: Some(command.tick),
        origin: Origin::System,
    };
    let started = match hub.submit_locked(slot, guard, submission).await {
        Ok(_) => true,
        Err(e) => {
            tracing::info!(match_id = %slot.id, code = %e.code, "clock start not recorded");
            false
        }
    };
    hub.fair_start.forget(&slot.id);
    slot.wake.notify_one();
    started
}
