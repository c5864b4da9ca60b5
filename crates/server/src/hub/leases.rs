//! Leases: which node drives a match's timers and bots; renewal, takeover, release, and the
//! ClockResumed a takeover after an outage records.

use super::*;

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
                if let (Some(previous), Some(loaded)) = (previous, guard.as_mut()) {
                    let heartbeat = previous.last_heartbeat_tick.max(loaded.m.last_tick());
                    let outage_ms = if previous.expires_at_ms > 0 {
                        u64::try_from(
                            now_ms
                                .saturating_sub(previous.expires_at_ms.saturating_sub(ttl_ms))
                                .max(0),
                        )
                        .unwrap_or(0)
                    } else {
                        0
                    };
                    let takeover = heartbeat
                        .saturating_add(outage_ms * u64::from(loaded.clock.tick_rate()) / 1000);
                    let resumed = loaded
                        .m
                        .clock_resumed_command(previous.last_heartbeat_tick, takeover)
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
