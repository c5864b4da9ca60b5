//! Leases: which node drives a match's timers and bots; renewal, takeover, release, and the
//! ClockResumed a takeover after an outage records.

use super::*;

/// Where a match's outage began and where its clock resumes, in match ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outage {
    /// The match's tick at the latest moment the old holder is known to have been alive.
    pub(crate) start_tick: Tick,
    /// That tick plus the time since then: where the clock resumes.
    pub(crate) takeover_tick: Tick,
}

/// The outage of a match taken over at wall time `now_ms`. The old holder is known to have
/// been alive at its last heartbeat (`heartbeat`: the match tick it wrote and when, `None`
/// for a released lease, whose holder left cleanly) and at its last commit (`last_commit`:
/// tick and wall time) — whichever is later. Measuring from the heartbeat alone over-credited
/// a match that committed after it by the time between the two (up to one heartbeat period).
///
/// What is left over-credited is the time the old holder lived after its last sign of life,
/// under one heartbeat period (it would have renewed its lease otherwise), plus the wall-clock
/// difference between the two nodes; ticks are rounded down, which under-credits by less than
/// one tick.
pub(crate) fn outage(
    heartbeat: (Tick, Option<i64>),
    last_commit: Option<(Tick, i64)>,
    now_ms: i64,
    tick_rate: u32,
) -> Outage {
    let (heartbeat_tick, heartbeat_ms) = heartbeat;
    let commit_tick = last_commit.map_or(0, |(tick, _)| tick);
    let start_tick = heartbeat_tick.max(commit_tick);
    let Some(heartbeat_ms) = heartbeat_ms else {
        // Released: the clock stopped with the old holder, nothing to credit.
        return Outage {
            start_tick,
            takeover_tick: start_tick,
        };
    };
    let alive_ms = last_commit.map_or(heartbeat_ms, |(_, at)| at.max(heartbeat_ms));
    let outage_ms = u64::try_from(now_ms.saturating_sub(alive_ms).max(0)).unwrap_or(0);
    Outage {
        start_tick,
        takeover_tick: start_tick
            .saturating_add(outage_ms.saturating_mul(u64::from(tick_rate)) / 1000),
    }
}

impl Hub {
    /// Takes (or renews) this node's lease on a match; on a takeover after an outage, records
    /// `ClockResumed` where the game has one. Returns whether this node holds the lease.
    pub(crate) async fn claim(&self, slot: &Arc<Slot>) -> Result<bool, ApiError> {
        if slot.lifecycle().status != MatchStatus::Active {
            return Ok(false);
        }
        let mut guard = self.lock(slot).await?;
        let Some(loaded) = guard.as_mut() else {
            return Ok(false);
        };
        let now_mono = self.clock.monotonic();
        let now_ms = self.clock.wall_ms();
        let ttl_ms = i64::try_from(self.config.lease_ttl.as_millis()).unwrap_or(i64::MAX);
        let tick = loaded.clock.stamp(loaded.m.last_tick(), now_mono);
        // A lease this node id still holds although this process never claimed it was left by
        // an earlier process of this node that died (kill -9, a crash): for the clock that is
        // a takeover like any other, though the store sees the same holder.
        let left_by_a_dead_process = if slot.holder.load(Ordering::SeqCst) {
            None
        } else {
            self.store
                .lease(&slot.id)
                .await?
                .filter(|l| l.node_id == self.node_id && l.expires_at_ms > 0)
        };
        let outcome = self
            .store
            .try_acquire_lease(&slot.id, &self.node_id, now_ms, ttl_ms, tick)
            .await?;
        match outcome {
            LeaseOutcome::Held(_) => {
                slot.holder.store(false, Ordering::SeqCst);
                Ok(false)
            }
            LeaseOutcome::Acquired { previous, .. } => {
                let was_holder = slot.holder.swap(true, Ordering::SeqCst);
                let previous = if was_holder {
                    None
                } else {
                    previous.or(left_by_a_dead_process)
                };
                if !was_holder {
                    // Taking over: catch up with whatever the previous holder committed.
                    self.catch_up_locked(slot, &mut guard).await?;
                    if guard.is_none() {
                        self.reload(slot, &mut guard).await?;
                    }
                }
                // The last commit's wall time: with the heartbeat, the latest moment the old
                // holder is known to have been alive.
                let sequence = guard.as_ref().map_or(0, |l| l.m.sequence());
                let last_commit = if previous.is_some() && sequence > 0 {
                    self.store
                        .log(&slot.id, sequence - 1, 1)
                        .await?
                        .first()
                        .map(|r| (r.tick, r.recorded_at_ms))
                } else {
                    None
                };
                if let (Some(previous), Some(loaded)) = (previous, guard.as_mut()) {
                    let renewed_ms = (previous.expires_at_ms > 0)
                        .then(|| previous.expires_at_ms.saturating_sub(ttl_ms));
                    let Outage {
                        start_tick: heartbeat,
                        takeover_tick: takeover,
                    } = outage(
                        (previous.last_heartbeat_tick, renewed_ms),
                        last_commit,
                        now_ms,
                        loaded.clock.tick_rate(),
                    );
                    let resumed = loaded
                        .m
                        .clock_resumed_command(heartbeat, takeover)
                        .filter(|_| takeover > heartbeat);
                    match resumed {
                        Some(command) => {
                            loaded.clock =
                                MatchClock::new(takeover, now_mono, loaded.clock.tick_rate());
                            let sequence = loaded.m.sequence();
                            let submission = Submission {
                                command_id: command.command_id,
                                seat: None,
                                expected_sequence: sequence,
                                expected_step: None,
                                action: command.action,
                                tick: Some(command.tick),
                                origin: Origin::System,
                            };
                            if let Err(e) = self.submit_locked(slot, &mut guard, submission).await {
                                tracing::info!(match_id = %slot.id, code = %e.code, "ClockResumed not recorded");
                            }
                        }
                        None => {
                            // No ClockResumed in this game: the clock simply resumes where it
                            // stood, so the outage does not count either.
                            loaded.clock =
                                MatchClock::new(heartbeat, now_mono, loaded.clock.tick_rate());
                        }
                    }
                }
                Ok(true)
            }
        }
    }

    /// Renews held leases (dropping those lost) and tries to take unheld ones. Returns the
    /// slots newly held.
    pub(crate) async fn heartbeat(&self) -> Vec<Arc<Slot>> {
        let mut gained = Vec::new();
        let ttl_ms = i64::try_from(self.config.lease_ttl.as_millis()).unwrap_or(i64::MAX);
        for slot in self.slots() {
            if slot.lifecycle().status != MatchStatus::Active {
                if slot.holder.swap(false, Ordering::SeqCst) {
                    let _ = self.store.release_lease(&slot.id, &self.node_id).await;
                }
                self.unload_if_idle(&slot);
                continue;
            }
            if slot.holder.load(Ordering::SeqCst) {
                let tick = {
                    let guard = slot.state.lock().await;
                    guard
                        .as_ref()
                        .map(|l| l.clock.stamp(l.m.last_tick(), self.clock.monotonic()))
                };
                let Some(tick) = tick else {
                    continue;
                };
                match self
                    .store
                    .renew_lease(&slot.id, &self.node_id, self.clock.wall_ms(), ttl_ms, tick)
                    .await
                {
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        tracing::info!(match_id = %slot.id, "lease lost to another node");
                        slot.holder.store(false, Ordering::SeqCst);
                        slot.wake.notify_one();
                    }
                    Err(e) => tracing::warn!(match_id = %slot.id, error = %e, "lease not renewed"),
                }
            } else {
                match self.claim(&slot).await {
                    Ok(true) => gained.push(slot),
                    Ok(false) => {}
                    Err(e) => {
                        tracing::debug!(match_id = %slot.id, code = %e.code, "lease not taken")
                    }
                }
            }
        }
        gained
    }

    /// Releases every lease this node holds (at shutdown), so another node or the next start
    /// takes over at once.
    pub(crate) async fn release_all(&self) {
        for slot in self.slots() {
            if slot.holder.swap(false, Ordering::SeqCst) {
                let _ = self.store.release_lease(&slot.id, &self.node_id).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{outage, Outage};

    /// 10 ticks a second: the last heartbeat wrote tick 50 at 1,000 ms, a commit came 4 s
    /// later at tick 90 (5,000 ms), and the takeover is at 11,000 ms.
    #[test]
    fn the_outage_runs_from_the_later_of_the_last_heartbeat_and_the_last_commit() {
        let got = outage((50, Some(1_000)), Some((90, 5_000)), 11_000, 10);
        assert_eq!(
            got,
            Outage {
                start_tick: 90,
                takeover_tick: 150
            },
            "6 s of outage after the commit are credited, not the 10 s since the heartbeat"
        );
        // From the heartbeat alone it would have been 90 + 100 ticks: 4 s over-credited.
        assert!(got.takeover_tick - got.start_tick < 100);
    }

    #[test]
    fn a_heartbeat_after_the_last_commit_is_where_the_outage_starts() {
        assert_eq!(
            outage((120, Some(8_000)), Some((90, 5_000)), 11_000, 10),
            Outage {
                start_tick: 120,
                takeover_tick: 150
            }
        );
        // No commit yet: the heartbeat alone.
        assert_eq!(
            outage((0, Some(8_000)), None, 11_000, 10),
            Outage {
                start_tick: 0,
                takeover_tick: 30
            }
        );
    }

    #[test]
    fn a_released_lease_credits_nothing_and_clocks_never_go_back() {
        assert_eq!(
            outage((40, None), Some((90, 5_000)), 11_000, 10),
            Outage {
                start_tick: 90,
                takeover_tick: 90
            }
        );
        // A takeover clock behind the old node's (skew) credits nothing rather than going back.
        assert_eq!(
            outage((50, Some(9_000)), None, 8_000, 10),
            Outage {
                start_tick: 50,
                takeover_tick: 50
            }
        );
    }
}
