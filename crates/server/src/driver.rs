//! What happens on the server without a request: deadline timers, bot seats, leases, other
//! nodes' commits.
//!
//! A match whose lease this node holds gets one driver task. After every commit (its own or
//! another node's) the driver wakes: first each bot seat may act — through the resolver, as a
//! command like any other, answered only once durable — then it sleeps until the current
//! turn's deadline tick, when it submits the game's system `Timeout` (command id
//! `timeout:<turn index>`, no seat, stamped with the deadline tick). A bot chain is bounded
//! ([`crate::ServerConfig::max_bot_chain`] commands in a row without a command from a person),
//! so a bot-only match of a game that never ends cannot spin forever.
//!
//! Node-wide tasks renew leases, take over matches whose holder died, adopt active matches
//! created by other nodes, follow the store's commit notifications (so live streams on this
//! node see commits made through another), and archive idle matches.

use crate::hub::{Hub, Origin, Slot, Submission};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use turnstile_core::MatchStatus as GameStatus;
use turnstile_runtime::SeatKind;
use turnstile_store::{MatchStatus, Notification};

/// Whether a match has anything to drive: a bot seat, or a game with server-side timeouts.
fn needs_driver(hub: &Hub, slot: &Slot) -> bool {
    slot.seat_specs().iter().any(|s| s.kind == SeatKind::Bot)
        || hub
            .registry
            .get(&slot.record.game)
            .is_some_and(|g| g.describe().timeouts)
}

/// Starts the driver of a match unless one runs (or the match has nothing to drive).
pub fn ensure_driver(hub: &Arc<Hub>, slot: &Arc<Slot>) {
    if !needs_driver(hub, slot) {
        return;
    }
    if slot.driving.swap(true, Ordering::SeqCst) {
        slot.wake.notify_one();
        return;
    }
    let hub = hub.clone();
    let slot = slot.clone();
    tokio::spawn(async move {
        drive(&hub, &slot).await;
        slot.driving.store(false, Ordering::SeqCst);
    });
}

async fn drive(hub: &Arc<Hub>, slot: &Arc<Slot>) {
    let mut shutdown = hub.shutdown.subscribe();
    let mut chain = 0u32;
    let mut people_seen = slot.person_commands.load(Ordering::Relaxed);
    loop {
        if hub.stopping()
            || !slot.holder.load(Ordering::SeqCst)
            || slot.lifecycle().status != MatchStatus::Active
        {
            return;
        }
        let people = slot.person_commands.load(Ordering::Relaxed);
        if people != people_seen {
            chain = 0;
            people_seen = people;
        }
        if chain < hub.config.max_bot_chain {
            match bot_step(hub, slot).await {
                Ok(true) => {
                    chain += 1;
                    tokio::task::yield_now().await;
                    continue;
                }
                Ok(false) => {}
                Err(code) => {
                    tracing::warn!(match_id = %slot.id, code, "bot move failed; retrying later");
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                        _ = shutdown.changed() => return,
                    }
                    continue;
                }
            }
        }
        let deadline = next_deadline(hub, slot).await;
        let sleep = async {
            match deadline {
                Some(at) => tokio::time::sleep(at.saturating_sub(hub.now())).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = slot.wake.notified() => {}
            _ = sleep => fire_timeout(hub, slot).await,
            _ = shutdown.changed() => return,
        }
    }
}

/// Lets one bot seat act, if any has a legal action. `Ok(true)` when a bot command committed.
async fn bot_step(hub: &Arc<Hub>, slot: &Arc<Slot>) -> Result<bool, String> {
    let mut guard = hub.lock(slot).await.map_err(|e| e.code.to_string())?;
    let Some(loaded) = guard.as_ref() else {
        return Ok(false);
    };
    if loaded.m.status() != GameStatus::Active || slot.lifecycle().status != MatchStatus::Active {
        return Ok(false);
    }
    // bots wait with the clock for the people to open their boards
    if crate::fair_start::waiting(hub, slot, loaded).is_some() {
        return Ok(false);
    }
    let seats = loaded.m.bot_seats();
    for seat in seats {
        let now = hub.now();
        // Searching may take a while (a strong bot): off the async threads, lock held.
        let (back, chosen) = tokio::task::spawn_blocking(move || {
            let chosen = guard.as_mut().and_then(|l| {
                let tick = l.clock.stamp(l.m.last_tick(), now);
                let sequence = l.m.sequence();
                l.m.bot_action(seat, tick).map(|a| (a, tick, sequence))
            });
            (guard, chosen)
        })
        .await
        .map_err(|_| "bot_panicked".to_string())?;
        guard = back;
        if let Some((action, tick, sequence)) = chosen {
            let submission = Submission {
                command_id: format!("bot:{seat}:{}", sequence + 1),
                seat: Some(seat),
                expected_sequence: sequence,
                expected_step: None,
                action,
                tick: Some(tick),
                origin: Origin::Bot,
            };
            return match hub.submit_locked(slot, &mut guard, submission).await {
                Ok(answer) => Ok(!answer.repeat),
                Err(e) if e.is_server_error() => Err(e.code.to_string()),
                Err(e) => {
                    tracing::info!(match_id = %slot.id, %seat, code = %e.code, "bot command refused");
                    Ok(false)
                }
            };
        }
    }
    Ok(false)
}

/// When (monotonic) the current turn's Timeout falls due, if it can and was not tried yet; for
/// a match whose clock waits for its people, when the wait ends.
async fn next_deadline(hub: &Arc<Hub>, slot: &Arc<Slot>) -> Option<Duration> {
    let guard = hub.lock(slot).await.ok()?;
    let loaded = guard.as_ref()?;
    if let Some(waiting) = crate::fair_start::waiting(hub, slot, loaded) {
        return Some(loaded.clock.when(waiting.starts_by_tick));
    }
    let command = loaded.m.timeout_command()?;
    if loaded.attempted_timeout.as_ref() == Some(&(command.command_id.clone(), loaded.m.sequence()))
    {
        return None;
    }
    Some(loaded.clock.when(command.tick))
}

async fn fire_timeout(hub: &Arc<Hub>, slot: &Arc<Slot>) {
    let Ok(mut guard) = hub.lock(slot).await else {
        return;
    };
    let Some(loaded) = guard.as_mut() else {
        return;
    };
    // A match whose clock waited: the wait is over (or everyone came), start it first.
    if crate::fair_start::applies(hub, slot, loaded).is_some()
        && crate::fair_start::waiting(hub, slot, loaded).is_none()
    {
        crate::fair_start::start_clock(hub, slot, &mut guard).await;
        return;
    }
    let Some(loaded) = guard.as_mut() else {
        return;
    };
    if crate::fair_start::waiting(hub, slot, loaded).is_some() {
        return;
    }
    let Some(command) = loaded.m.timeout_command() else {
        return;
    };
    if loaded.clock.tick_at(hub.now()) < command.tick {
        return;
    }
    let sequence = loaded.m.sequence();
    let attempt = (command.command_id.clone(), sequence);
    if loaded.attempted_timeout.as_ref() == Some(&attempt) {
        return;
    }
    loaded.attempted_timeout = Some(attempt);
    let submission = Submission {
        command_id: command.command_id,
        seat: None,
        expected_sequence: sequence,
        expected_step: None,
        action: command.action,
        tick: Some(command.tick),
        origin: Origin::System,
    };
    match hub.submit_locked(slot, &mut guard, submission).await {
        Ok(_) => {}
        Err(e) => {
            tracing::info!(match_id = %slot.id, code = %e.code, "timeout not applied");
            if e.is_server_error() {
                // Not durable: allow another try.
                if let Some(loaded) = guard.as_mut() {
                    loaded.attempted_timeout = None;
                }
            }
        }
    }
}

/// Takes the leases of the active matches in the store and starts their drivers (at start).
pub async fn resume_active(hub: &Arc<Hub>) {
    match hub.adopt_active().await {
        Ok(slots) => {
            for slot in slots {
                match hub.claim(&slot).await {
                    Ok(true) => ensure_driver(hub, &slot),
                    Ok(false) => {}
                    // An older release's match that cannot resume was closed as it loaded
                    // (`Hub::retire`): it has its outcome and is not active any more.
                    Err(e) if e.code == crate::hub::FORMAT_RETIRED => {
                        tracing::info!(match_id = %slot.id, "closed at resume: written by an older release")
                    }
                    Err(e) => {
                        tracing::warn!(match_id = %slot.id, code = %e.code, "could not resume match")
                    }
                }
                hub.metrics.resumed();
            }
        }
        Err(e) => tracing::warn!(code = %e.code, "could not list active matches"),
    }
}

/// The node's background tasks: heartbeat (leases, adoption, archiving) and commit
/// notifications.
pub fn spawn_background(hub: &Arc<Hub>) {
    let h = hub.clone();
    tokio::spawn(async move {
        let mut shutdown = h.shutdown.subscribe();
        let mut beat = 0u64;
        loop {
            tokio::select! {
                _ = tokio::time::sleep(h.config.heartbeat_every) => {}
                _ = shutdown.changed() => return,
            }
            beat += 1;
            for slot in h.heartbeat().await {
                ensure_driver(&h, &slot);
            }
            if beat % 6 == 0 {
                resume_active(&h).await;
            }
            if beat % 720 == 1 {
                archive(&h).await;
            }
        }
    });
    let h = hub.clone();
    tokio::spawn(async move {
        let mut shutdown = h.shutdown.subscribe();
        let mut rx = h.store.subscribe();
        loop {
            let message = tokio::select! {
                m = rx.recv() => m,
                _ = shutdown.changed() => return,
            };
            match message {
                Ok(Notification::Commit(notice)) => {
                    if let Some(slot) = h.loaded_slot(&notice.match_id) {
                        if notice.sequence > slot.known_sequence.load(Ordering::SeqCst) {
                            catch_up(&h, &slot, Some(notice.sequence)).await;
                        }
                    }
                }
                Ok(Notification::Gap) | Err(RecvError::Lagged(_)) => {
                    for slot in h.slots() {
                        catch_up(&h, &slot, None).await;
                    }
                }
                Err(RecvError::Closed) => return,
            }
        }
    });
}

/// Catches a loaded match up with the store; `committed` is the sequence a notification
/// announced, if one did.
async fn catch_up(hub: &Arc<Hub>, slot: &Arc<Slot>, committed: Option<u64>) {
    let mut guard = slot.state.clone().lock_owned().await;
    let Some(loaded) = guard.as_ref() else {
        return;
    };
    // This node's own commits are announced too, usually before the command that made them
    // has noted them: once the lock is ours, a match already at that sequence holds it (memory
    // never keeps a sequence the store refused: a failed append unloads the match), so there
    // is nothing to read back.
    if committed.is_some_and(|sequence| loaded.m.sequence() >= sequence) {
        return;
    }
    if let Err(e) = hub.catch_up_locked(slot, &mut guard).await {
        tracing::warn!(match_id = %slot.id, code = %e.code, "could not follow another node's commit");
    }
}

async fn archive(hub: &Arc<Hub>) {
    let age = i64::try_from(hub.config.archive_after.as_millis()).unwrap_or(i64::MAX);
    match hub
        .store
        .archive_idle(hub.wall_ms().saturating_sub(age))
        .await
    {
        Ok(ids) => {
            for id in ids {
                if let Some(slot) = hub.loaded_slot(&id) {
                    if let Ok(mut l) = slot.lifecycle.lock() {
                        l.status = MatchStatus::Archived;
                    }
                }
            }
        }
        Err(e) => tracing::warn!(error = %e, "archiving failed"),
    }
}
