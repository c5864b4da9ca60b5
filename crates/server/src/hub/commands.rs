//! The command path: idempotency, expectations, the resolver, and the commit to the store
//! before anyone is answered; a failed append reloads from the store.

use super::*;

/// One committed receipt, as live streams get it (full; each stream redacts for its viewer).
#[derive(Debug, Clone)]
pub(crate) struct Committed {
    /// Its sequence.
    pub(crate) sequence: Sequence,
    /// The full receipt.
    pub(crate) receipt: Value,
}

/// Where a command comes from: people are rate-limited and reset the bot chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A seat's client.
    Person,
    /// A bot seat, driven by this node.
    Bot,
    /// A system command (Timeout, ClockResumed).
    System,
}

/// A command on its way in.
#[derive(Debug, Clone)]
pub(crate) struct Submission {
    /// The idempotency key.
    pub(crate) command_id: String,
    /// The seat, `None` for system commands.
    pub(crate) seat: Option<Seat>,
    /// What the client last saw.
    pub(crate) expected_sequence: Sequence,
    /// The step the client last saw.
    pub(crate) expected_step: Option<u64>,
    /// The action JSON.
    pub(crate) action: Value,
    /// A tick to stamp instead of the clock's (a Timeout's deadline), still raised to the last
    /// receipt's tick.
    pub(crate) tick: Option<Tick>,
    /// Who sends it.
    pub(crate) origin: Origin,
}

/// An answered command.
#[derive(Debug, Clone)]
pub(crate) struct Answered {
    /// The receipt's sequence.
    pub(crate) sequence: Sequence,
    /// The full receipt as the match wrote it (canonical JSON text, the bytes stored); the
    /// route redacts it for the caller.
    pub(crate) receipt: String,
    /// True when the command id had been answered before.
    pub(crate) repeat: bool,
}

impl Answered {
    /// The full receipt as a value (parsed when a route needs one: not on the command path).
    pub(crate) fn receipt_value(&self) -> Result<Value, ApiError> {
        serde_json::from_str(&self.receipt).map_err(|_| ApiError::internal("read the receipt"))
    }
}

/// The answer to a refusal that is not a rule rejection.
pub(crate) fn refusal_error(refusal: &ErasedRefusal, sequence: Sequence, step: u64) -> ApiError {
    match refusal {
        ErasedRefusal::InvalidAction(message) => ApiError::bad_request(
            "invalid_action",
            format!("the action is not one of this game's actions: {message}"),
        ),
        ErasedRefusal::Refused(r) => match r {
            CommandRefusal::Rule(rejection) => {
                ApiError::rejected(rejection.code.to_string(), rejection.message.clone())
            }
            CommandRefusal::StaleSequence { .. } | CommandRefusal::StaleStep { .. } => {
                ApiError::conflict(
                    if matches!(r, CommandRefusal::StaleStep { .. }) {
                        "stale_step"
                    } else {
                        "stale_sequence"
                    },
                    r.to_string(),
                    sequence,
                    step,
                )
            }
            CommandRefusal::CommandIdReused { .. } => {
                ApiError::new(ErrorKind::Conflict, "command_id_reused", r.to_string())
                    .with_details(json!({ "currentSequence": sequence, "currentStep": step }))
            }
            CommandRefusal::InvalidCommandId { .. } => {
                ApiError::bad_request("invalid_command_id", r.to_string())
            }
            CommandRefusal::UnknownSeat { .. } => {
                ApiError::forbidden("unknown_seat", r.to_string())
            }
            other => ApiError::rejected(other.code().to_owned(), other.to_string()),
        },
    }
}

impl Hub {
    /// What every commit (ours or another node's) sets off: live streams and the driver.
    pub(super) fn after_commit(&self, slot: &Slot, sequence: Sequence, receipt: &Value) {
        self.after_commit_with(slot, sequence, || Some(receipt.clone()));
    }

    /// [`Hub::after_commit`] for a receipt given as JSON text (this node's own commits): it is
    /// parsed only when a live stream is there to take it.
    pub(super) fn after_commit_json(&self, slot: &Slot, sequence: Sequence, receipt: &str) {
        self.after_commit_with(slot, sequence, || serde_json::from_str(receipt).ok());
    }

    fn after_commit_with(
        &self,
        slot: &Slot,
        sequence: Sequence,
        receipt: impl FnOnce() -> Option<Value>,
    ) {
        slot.known_sequence.fetch_max(sequence, Ordering::SeqCst);
        if slot.live.receiver_count() > 0 {
            if let Some(receipt) = receipt() {
                let _ = slot.live.send(Arc::new(Committed { sequence, receipt }));
            }
        }
        slot.wake.notify_one();
    }

    /// Keeps the store's lifecycle in step with the game's status. The game's status is the
    /// only source: every way a match ends (a resignation too) is a receipt, so the record
    /// follows the game, back to active if a game ever reopened.
    pub(super) fn note_finished(&self, slot: &Slot, m: &dyn ErasedMatch) {
        let lifecycle = slot.lifecycle();
        let (status, outcome) = match m.status() {
            GameStatus::Finished { outcome } if lifecycle.status == MatchStatus::Active => (
                MatchStatus::Finished,
                Some(serde_json::to_value(&outcome).unwrap_or(Value::Null)),
            ),
            GameStatus::Active if lifecycle.status == MatchStatus::Finished => {
                (MatchStatus::Active, None)
            }
            _ => return,
        };
        slot.set_lifecycle(Lifecycle {
            status,
            outcome: outcome.clone(),
        });
        let store = self.store.clone();
        let id = slot.id.clone();
        let now = self.clock.wall_ms();
        tokio::spawn(async move {
            if let Err(e) = store
                .set_match_status(&id, status, outcome.as_ref(), now)
                .await
            {
                tracing::warn!(match_id = %id, error = %e, "could not record the match's status");
            }
        });
    }

    /// The status a client sees: the game's own, or the store's for a match archived while
    /// idle.
    pub(crate) fn status_of(&self, slot: &Slot, m: &dyn ErasedMatch) -> (String, Option<Value>) {
        match m.status() {
            GameStatus::Finished { outcome } => {
                ("finished".into(), serde_json::to_value(&outcome).ok())
            }
            GameStatus::Active => {
                let lifecycle = slot.lifecycle();
                match lifecycle.status {
                    MatchStatus::Active => ("active".into(), None),
                    MatchStatus::Finished => ("finished".into(), lifecycle.outcome),
                    MatchStatus::Archived => ("archived".into(), lifecycle.outcome),
                }
            }
        }
    }

    /// Whether the match has ended (seeds and full replays are released then).
    pub(crate) fn has_ended(&self, slot: &Slot, m: &dyn ErasedMatch) -> bool {
        self.status_of(slot, m).0 == "finished"
    }

    /// Submits a command on a locked match; see the module documentation for the order.
    pub(crate) async fn submit_locked(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
        submission: Submission,
    ) -> Result<Answered, ApiError> {
        let started = self.clock.monotonic();
        let result = self.submit_inner(slot, guard, submission).await;
        let took = self.clock.monotonic().saturating_sub(started);
        match &result {
            Ok(a) if a.repeat => self.metrics.command("repeat", took),
            Ok(_) => self.metrics.command("accepted", took),
            Err(e) => {
                self.metrics.command(
                    if e.kind == ErrorKind::Rejected {
                        "rejected"
                    } else {
                        "refused"
                    },
                    took,
                );
                self.metrics.rejection(&e.code);
            }
        }
        result
    }

    pub(super) async fn submit_inner(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
        submission: Submission,
    ) -> Result<Answered, ApiError> {
        let Some(loaded) = guard.as_mut() else {
            return Err(ApiError::internal("load the match"));
        };
        // Commits made through another node: catch up before judging a newer expectation.
        // (Repeats of known command ids are answered by the match itself, before any check.)
        if submission.expected_sequence > loaded.m.sequence()
            && !loaded.m.is_accepted(&submission.command_id)
        {
            self.catch_up_locked(slot, guard).await?;
        }
        let Some(loaded) = guard.as_mut() else {
            return Err(ApiError::internal("load the match"));
        };
        if !slot.rejections_complete.load(Ordering::Relaxed)
            && loaded.m.rejection(&submission.command_id).is_none()
            && !loaded.m.is_accepted(&submission.command_id)
            && turnstile_core::envelope::check_command_id(&submission.command_id).is_ok()
        {
            if let Some(stored) = self
                .store
                .rejection(&slot.id, &submission.command_id)
                .await?
            {
                let rejection: Rejection = serde_json::from_value(stored.rejection.clone())
                    .unwrap_or_else(|_| Rejection::new("rejected", "rejected"));
                if let Ok(fp) = stored.action_fingerprint.parse() {
                    loaded.m.remember_rejection(
                        &stored.command_id,
                        stored.seat.and_then(seat_of),
                        fp,
                        rejection,
                    );
                }
            }
        }
        let lifecycle = slot.lifecycle();
        let known = loaded.m.rejection(&submission.command_id).is_some()
            || loaded.m.is_accepted(&submission.command_id);
        if lifecycle.status == MatchStatus::Archived && !known {
            return Err(ApiError::new(
                ErrorKind::Conflict,
                "match_archived",
                "the match was archived after being idle; its replay stays readable",
            ));
        }
        let tick = match submission.tick {
            Some(t) => t.max(loaded.m.last_tick()),
            None => loaded
                .clock
                .stamp(loaded.m.last_tick(), self.clock.monotonic()),
        };
        let was_rejected = loaded.m.rejection(&submission.command_id).is_some();
        let command = ErasedCommand {
            command_id: submission.command_id.clone(),
            seat: submission.seat,
            expected_sequence: submission.expected_sequence,
            expected_step: submission.expected_step,
            tick,
            action: submission.action.clone(),
        };
        // The entry comes as the canonical JSON text the store keeps and the answer is made
        // from: no value is built, parsed or serialized again on the way (the profile of a
        // loaded server had that round trip among its larger costs).
        match loaded.m.submit_json(command) {
            Ok(accepted) if accepted.repeat => Ok(Answered {
                sequence: accepted.sequence,
                receipt: accepted.receipt,
                repeat: true,
            }),
            Ok(accepted) => {
                let sequence = accepted.sequence;
                let record = JsonLogRecord {
                    sequence,
                    command_id: submission.command_id.clone(),
                    tick,
                    envelope: accepted.envelope,
                    receipt: accepted.receipt.clone(),
                    recorded_at_ms: self.clock.wall_ms(),
                };
                match self.store.append_json(&slot.id, record).await {
                    Ok(()) => {
                        if submission.origin == Origin::Person {
                            slot.person_commands.fetch_add(1, Ordering::Relaxed);
                        }
                        self.after_commit_json(slot, sequence, &accepted.receipt);
                        self.note_finished(slot, loaded.m.as_ref());
                        if sequence % self.config.snapshot_every.max(1) == 0 {
                            self.store_snapshot(slot, loaded.m.as_ref());
                        }
                        Ok(Answered {
                            sequence,
                            receipt: accepted.receipt,
                            repeat: false,
                        })
                    }
                    Err(e) => {
                        // Memory ran ahead of the store: forget it, reload on next use.
                        **guard = None;
                        self.append_failed(slot, guard, &submission, e).await
                    }
                }
            }
            Err(ErasedRefusal::Refused(CommandRefusal::Rule(rejection))) => {
                if !was_rejected {
                    let fingerprint = loaded.m.action_fingerprint(&submission.action);
                    if let Ok(fingerprint) = fingerprint {
                        let record = RejectionRecord {
                            command_id: submission.command_id.clone(),
                            seat: submission.seat.map(|s| u32::from(s.0)),
                            action_fingerprint: fingerprint.to_string(),
                            rejection: serde_json::to_value(&rejection).unwrap_or(Value::Null),
                            recorded_at_ms: self.clock.wall_ms(),
                        };
                        match self.store.remember_rejection(&slot.id, &record).await {
                            Ok(()) | Err(StoreError::Conflict(Conflict::Rejection { .. })) => {}
                            Err(e) => {
                                **guard = None;
                                return Err(e.into());
                            }
                        }
                    }
                }
                Err(ApiError::rejected(
                    rejection.code.to_string(),
                    rejection.message.clone(),
                ))
            }
            Err(refusal) => Err(refusal_error(
                &refusal,
                loaded.m.sequence(),
                loaded.m.step(),
            )),
        }
    }

    /// After a failed append: find out what the store holds and answer accordingly.
    pub(super) async fn append_failed(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
        submission: &Submission,
        error: StoreError,
    ) -> Result<Answered, ApiError> {
        match error {
            StoreError::Conflict(Conflict::CommandId { .. }) => {
                // Another node accepted this command id first. Whether this is a repeat (the
                // same seat and action: its receipt) or a reuse (409 `command_id_reused`) is
                // the match's own idempotency rule, so ask the reloaded match — never answer
                // with the other command's receipt as if it were this one's.
                self.reload(slot, guard).await?;
                match self.judge_taken_id(guard, submission) {
                    Some(answer) => answer,
                    None => Err(ApiError::internal("read back a committed command")),
                }
            }
            StoreError::Conflict(Conflict::Sequence { last_sequence, .. }) => {
                // Another node committed this sequence first: reload and report where we are —
                // unless what it committed is this very command id, which is then a repeat
                // or a reuse like any other known id.
                let reloaded = self.reload(slot, guard).await;
                if reloaded.is_ok() {
                    if let Some(answer) = self.judge_taken_id(guard, submission) {
                        return answer;
                    }
                }
                let (sequence, step) = match reloaded {
                    Ok(()) => guard
                        .as_ref()
                        .map(|l| (l.m.sequence(), l.m.step()))
                        .unwrap_or((last_sequence, 0)),
                    Err(_) => (last_sequence, 0),
                };
                Err(ApiError::conflict(
                    "stale_sequence",
                    format!(
                        "another command was committed first; the match is at sequence {sequence}"
                    ),
                    sequence,
                    step,
                ))
            }
            other => Err(other.into()),
        }
    }

    /// After a lost race: when the reloaded match holds the submission's command id, submits
    /// it again so the match's idempotency answers — the stored receipt for the same seat and
    /// action, `command_id_reused` for anything else. `None` when the id is not taken.
    fn judge_taken_id(
        &self,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
        submission: &Submission,
    ) -> Option<Result<Answered, ApiError>> {
        let loaded = guard.as_mut()?;
        if !loaded.m.is_accepted(&submission.command_id) {
            return None;
        }
        let command = ErasedCommand {
            command_id: submission.command_id.clone(),
            seat: submission.seat,
            expected_sequence: submission.expected_sequence,
            expected_step: submission.expected_step,
            tick: loaded.m.last_tick(),
            action: submission.action.clone(),
        };
        Some(match loaded.m.submit_json(command) {
            Ok(accepted) if accepted.repeat => Ok(Answered {
                sequence: accepted.sequence,
                receipt: accepted.receipt,
                repeat: true,
            }),
            Ok(_) => {
                // Unreachable by the match's contract (the id is accepted); never keep a
                // second application in memory.
                **guard = None;
                Err(ApiError::internal("judge a repeated command id"))
            }
            Err(refusal) => {
                let (sequence, step) = (loaded.m.sequence(), loaded.m.step());
                Err(refusal_error(&refusal, sequence, step))
            }
        })
    }

    /// Reloads a match from the store into a locked slot, and tells live streams what they
    /// missed.
    pub(super) async fn reload(
        &self,
        slot: &Slot,
        guard: &mut OwnedMutexGuard<Option<Loaded>>,
    ) -> Result<(), ApiError> {
        let before = slot.known_sequence.load(Ordering::SeqCst);
        let loaded = self.load(slot).await?;
        let now = loaded.m.sequence();
        for s in before.saturating_add(1)..=now {
            if let Some(receipt) = loaded.m.receipt(s, turnstile_core::Viewer::Referee) {
                self.after_commit(slot, s, &receipt);
            }
        }
        self.note_finished(slot, loaded.m.as_ref());
        **guard = Some(loaded);
        Ok(())
    }

    pub(super) fn store_snapshot(&self, slot: &Slot, m: &dyn ErasedMatch) {
        let Ok(state) = m.snapshot() else {
            return;
        };
        let record = SnapshotRecord {
            sequence: m.sequence(),
            tick: m.last_tick(),
            state_fingerprint: m.state_fingerprint().to_string(),
            last_receipt_hash: m.last_hash().map(|h| h.to_string()),
            state,
        };
        let store = self.store.clone();
        let id = slot.id.clone();
        tokio::spawn(async move {
            if let Err(e) = store.put_snapshot(&id, &record).await {
                tracing::warn!(match_id = %id, error = %e, "snapshot not stored");
            }
        });
    }
}
