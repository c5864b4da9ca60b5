//! Pig's rules behind the match lifecycle: the match state, what each command does, and the
//! [`Table`] — the one value that is both the lifecycle's [`LifecycleHooks`] (what happens
//! when a seat's activation starts or ends, at a round's end, when a seat times out too often)
//! and the phase graph's [`PhaseHost`] (the variables conditions read, the named effects phases
//! run). Everything timed — deadlines, Timeout, Skip, forfeits, the order of seats, rounds — is
//! the lifecycle's; everything about the flow of a turn is the phase content's.

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::{StreamTable, Streams};
use turnstile_core::{CommandContext, Fingerprint, Seat, Tick};
use turnstile_formula::{Value, VariableSource};
use turnstile_lifecycle::{
    LifecycleError, LifecycleHooks, LifecycleState, RoundHook, END_TURN_REASON,
};
use turnstile_phases::{
    EdgeContext, EffectMoment, ExitReason, HostFailure, PhaseCommand, PhaseDefinition,
    PhaseGraphReducer, PhaseOutcome, PhaseRecord, PhaseRole, PhaseState,
};
use turnstile_turns::{SkipReason, TurnEndReason, TurnEvent, TurnStatus};

use crate::content::{initiative_schema, PigContent, COMMAND_TYPES};
use crate::{PigAction, PigEvent, PigResult};

/// A refusal or failure of the rules: a stable code and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    /// Stable code, `snake_case`.
    pub code: &'static str,
    /// For a person.
    pub message: String,
}

impl RuleError {
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> RuleError {
        RuleError {
            code,
            message: message.into(),
        }
    }
}

/// Whether a seat is still in the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Standing {
    /// At the table.
    Playing,
    /// Resigned.
    Resigned,
    /// Timed out `forfeitAfterTimeouts` times in a row.
    Forfeited,
}

/// A Pig match: scores, the turn in progress, the phase cursor, the die's stream and the
/// lifecycle. Content is never copied in: the phase state and the commanders name it by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PigState {
    /// Banked scores, in seat order.
    pub scores: Vec<i64>,
    /// Who is still in, in seat order.
    pub standing: Vec<Standing>,
    /// The points of the turn in progress, lost on a bust.
    pub turn_total: i64,
    /// The die rolled last this turn (0: none yet).
    pub last_roll: i64,
    /// Dice rolled in the whole match: a preview whose count moved rolled one.
    pub rolls: u32,
    /// Dice rolled this turn (conditions read it as `actions_taken`).
    pub rolls_this_turn: u32,
    /// Activations begun in the match (conditions read it as `turn` and `activation`).
    pub turn: u64,
    /// The round the last activation or round hook was in.
    pub round: u64,
    /// The seat whose activation is in progress.
    pub active: Option<Seat>,
    /// The turn's place in the phase graph.
    pub phase: PhaseState,
    /// The die.
    pub streams: Streams,
    /// How the match ended.
    pub result: Option<PigResult>,
    /// Clock, commanders, rounds.
    pub lifecycle: LifecycleState,
    /// The current activation's deadline (derived from the lifecycle after every command).
    pub deadline_tick: Option<Tick>,
}

impl PigState {
    /// The index of the current (or last) activation: what a `Timeout` names.
    pub fn turn_index(&self) -> u64 {
        self.lifecycle.turn_index()
    }

    /// The system command a server submits when the current activation's deadline passes:
    /// `(timeout:<turn index>, the deadline, Timeout)`; `None` while nothing is timed.
    pub fn pending_timeout(&self) -> Option<(String, Tick, PigAction)> {
        let deadline = self.deadline_tick?;
        let turn_index = self.turn_index();
        Some((
            turnstile_turns::timeout_command_id(turn_index),
            deadline,
            PigAction::Timeout { turn_index },
        ))
    }

    /// The seats still at the table.
    pub fn playing(&self) -> Vec<Seat> {
        (0u16..)
            .zip(&self.standing)
            .filter(|(_, s)| **s == Standing::Playing)
            .map(|(i, _)| Seat(i))
            .collect()
    }
}

/// The lifecycle's hooks and the phase graph's host: Pig's rules for one command.
pub struct Table<'a> {
    content: &'a PigContent,
    state: &'a mut PigState,
    events: Vec<PigEvent>,
    departures: Vec<Seat>,
}

impl<'a> Table<'a> {
    fn new(content: &'a PigContent, state: &'a mut PigState) -> Table<'a> {
        Table {
            content,
            state,
            events: Vec::new(),
            departures: Vec::new(),
        }
    }

    fn seat_index(&self, seat: Seat) -> Option<usize> {
        let i = usize::from(seat.0);
        (i < self.state.scores.len()).then_some(i)
    }

    /// Moves the phase cursor through one reducer operation and records its transitions.
    fn phases(
        &mut self,
        op: impl FnOnce(
            &PhaseGraphReducer<'_>,
            &PhaseState,
            &mut Self,
        ) -> Result<PhaseOutcome<()>, turnstile_phases::PhaseError>,
    ) -> Result<bool, LifecycleError> {
        let content = self.content;
        let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
        let from = self.state.phase.clone();
        let start = self.events.len();
        let outcome = op(&reducer, &from, self)
            .map_err(|e| LifecycleError::new("phase_failed", e.to_string()))?;
        // The effects' events were pushed as they ran; the transitions that caused them go
        // before them, so a client reads "moved to `banked`" and then "banked 11".
        let moves: Vec<PigEvent> = outcome
            .records
            .iter()
            .filter_map(|record| match record {
                PhaseRecord::Transition(t) => Some(PigEvent::PhaseChanged {
                    edge: t.edge_id.clone(),
                    from: t.from.clone(),
                    to: t.to.clone(),
                }),
                _ => None,
            })
            .collect();
        let at = start.min(self.events.len());
        self.events.splice(at..at, moves);
        self.state.phase = outcome.state;
        Ok(outcome.activation_ended)
    }

    /// The highest score among the seats still in, and who has it.
    fn leaders(&self) -> Vec<Seat> {
        let playing = self.state.playing();
        let best = playing
            .iter()
            .filter_map(|s| self.state.scores.get(usize::from(s.0)))
            .max()
            .copied();
        playing
            .into_iter()
            .filter(|s| self.state.scores.get(usize::from(s.0)).copied() == best)
            .collect()
    }

    fn finish(&mut self, kind: &str, winners: Vec<Seat>) {
        if self.state.result.is_none() {
            let result = PigResult {
                kind: kind.into(),
                winners,
            };
            self.events.push(PigEvent::MatchEnded {
                result: result.clone(),
            });
            self.state.result = Some(result);
        }
    }

    /// A seat leaves the match; the last seat at the table wins.
    fn depart(&mut self, seat: Seat, standing: Standing, kind: &str) {
        if let Some(i) = self.seat_index(seat) {
            if let Some(s) = self.state.standing.get_mut(i) {
                *s = standing;
            }
            self.departures.push(seat);
        }
        if let [last] = self.state.playing().as_slice() {
            let last = *last;
            self.finish(kind, vec![last]);
        }
    }

    /// One named effect (content::EFFECTS), for the acting seat.
    fn effect(&mut self, effect: &str) -> Result<(), RuleError> {
        let seat = self.state.active;
        match effect {
            "reset-turn-total" => {
                self.state.turn_total = 0;
                self.state.last_roll = 0;
            }
            "bank-turn-total" => {
                let banked = std::mem::take(&mut self.state.turn_total);
                if let Some(seat) = seat {
                    if let Some(score) = self.state.scores.get_mut(usize::from(seat.0)) {
                        *score = score.saturating_add(banked);
                        let score = *score;
                        self.events.push(PigEvent::Banked {
                            seat,
                            banked,
                            score,
                        });
                    }
                }
            }
            "lose-turn-total" => {
                let lost = std::mem::take(&mut self.state.turn_total);
                if let Some(seat) = seat {
                    self.events.push(PigEvent::TurnTotalLost { seat, lost });
                }
            }
            "finish-at-target" => {
                let target = self.content.rules.target;
                if self.state.scores.iter().any(|s| *s >= target) {
                    let leaders = self.leaders();
                    self.finish("win", leaders);
                }
            }
            "finish-at-round-limit" => {
                if self.state.round >= self.content.rules.max_rounds {
                    let leaders = self.leaders();
                    self.finish("roundLimit", leaders);
                }
            }
            other => {
                return Err(RuleError::new(
                    "unknown_effect",
                    format!("Pig has no effect `{other}`"),
                ))
            }
        }
        Ok(())
    }
}

/// Phase-condition variables, in the slot order of `phase_condition_schema`.
pub struct Slots(Vec<Value>);

impl VariableSource for Slots {
    fn get(&self, slot: u16) -> Option<Value> {
        self.0.as_slice().get(usize::from(slot)).copied()
    }
}

impl turnstile_phases::PhaseHost for Table<'_> {
    type Step = ();

    fn variables(&self, context: &EdgeContext<'_>) -> impl VariableSource {
        let s = &*self.state;
        let score = s
            .active
            .and_then(|seat| s.scores.get(usize::from(seat.0)))
            .copied()
            .unwrap_or(0);
        let mut values = vec![
            Value::Int(i64::try_from(s.turn).unwrap_or(i64::MAX)),
            Value::Int(i64::try_from(s.round).unwrap_or(i64::MAX)),
            Value::Int(i64::try_from(s.turn).unwrap_or(i64::MAX)),
            Value::Int(i64::from(s.rolls_this_turn)),
            Value::Int(context.phase.order),
        ];
        // `source`, `owner`, `target` and `run` are all the acting seat in Pig.
        for _scope in 0..4 {
            values.extend([
                Value::Int(score),
                Value::Int(s.turn_total),
                Value::Int(s.last_roll),
            ]);
        }
        values.extend(turnstile_phases::command_flags(
            COMMAND_TYPES,
            context.command.map(|c| c.command_type),
        ));
        Slots(values)
    }

    fn run_effects(
        &mut self,
        _phase: &PhaseDefinition,
        _moment: EffectMoment,
        effects: &[String],
    ) -> Result<Vec<()>, HostFailure> {
        for effect in effects {
            self.effect(effect)
                .map_err(|e| HostFailure::new(e.code, e.message))?;
        }
        Ok(Vec::new())
    }

    fn state_fingerprint(&mut self) -> Result<Fingerprint, HostFailure> {
        Fingerprint::of(&*self.state).map_err(|e| HostFailure::new("not_canonical", e.to_string()))
    }
}

impl LifecycleHooks for Table<'_> {
    fn initiative_variables(&self, seat: Seat) -> Vec<Value> {
        let score = self.state.scores.get(usize::from(seat.0)).copied();
        vec![
            Value::Int(i64::from(seat.0)),
            Value::Int(i64::try_from(self.state.round).unwrap_or(i64::MAX)),
            Value::Int(score.unwrap_or(0)),
        ]
    }

    fn can_act(&mut self, seat: Seat) -> Result<(), SkipReason> {
        match self
            .seat_index(seat)
            .and_then(|i| self.state.standing.get(i))
        {
            Some(Standing::Playing) => Ok(()),
            _ => Err(SkipReason::Custom("left".into())),
        }
    }

    fn activation_skipped(&mut self, _: Seat, _: &SkipReason) -> Result<(), LifecycleError> {
        Ok(())
    }

    fn round(
        &mut self,
        hook: RoundHook,
        round: u64,
        effects: &[String],
    ) -> Result<(), LifecycleError> {
        self.state.round = round;
        if hook == RoundHook::EndRound {
            self.events.push(PigEvent::RoundEnded {
                round,
                scores: self.state.scores.clone(),
            });
        }
        for effect in effects {
            self.effect(effect)
                .map_err(|e| LifecycleError::new(e.code, e.message))?;
        }
        Ok(())
    }

    fn start_activation(&mut self, seat: Seat, round: u64) -> Result<(), LifecycleError> {
        self.state.active = Some(seat);
        self.state.round = round;
        self.state.turn = self.state.turn.saturating_add(1);
        self.state.rolls_this_turn = 0;
        self.events.push(PigEvent::TurnStarted { seat, round });
        self.phases(|reducer, phase, table| reducer.enter(phase, table))?;
        Ok(())
    }

    fn end_activation(&mut self, seat: Seat, reason: &ExitReason) -> Result<(), LifecycleError> {
        // A ROLL that busts or a HOLD has already brought the turn to an `End` phase; a Skip,
        // a Timeout or a departure leaves it here, through the `ActivationExit` edges.
        let content = self.content;
        let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
        let resting = reducer
            .resolve(&self.state.phase)
            .map_err(|e| LifecycleError::new("phase_failed", e.to_string()))?
            .phase()
            .role
            == PhaseRole::End;
        if !resting {
            self.phases(|reducer, phase, table| reducer.activation_exit(phase, reason, table))?;
        }
        self.events.push(PigEvent::TurnEnded {
            seat,
            reason: reason.clone(),
        });
        self.state.active = None;
        Ok(())
    }

    fn forfeit(&mut self, seat: Seat, timeouts: u32) -> Result<(), LifecycleError> {
        self.events.push(PigEvent::Forfeited { seat, timeouts });
        self.depart(seat, Standing::Forfeited, "timeout");
        Ok(())
    }

    fn take_departures(&mut self) -> Vec<Seat> {
        std::mem::take(&mut self.departures)
    }

    fn is_over(&self) -> bool {
        self.state.result.is_some()
    }

    fn turn_events(&mut self, events: Vec<TurnEvent<(), ()>>) {
        self.events
            .extend(events.into_iter().map(|event| PigEvent::Turn { event }));
    }
}

/// Takes the lifecycle out of `state`, so the table can borrow the rest while it runs.
fn take_lifecycle(state: &mut PigState) -> LifecycleState {
    let empty = LifecycleState {
        turns: turnstile_turns::MatchTurns::new([]),
        rounds: turnstile_lifecycle::RoundMarks::default(),
    };
    std::mem::replace(&mut state.lifecycle, empty)
}

/// Runs one lifecycle operation with the table behind every hook; a hook's failure fails the
/// command.
fn drive<R>(
    table: &mut Table<'_>,
    lifecycle: &mut LifecycleState,
    op: impl FnOnce(
        &mut turnstile_turns::Turns<'_, (), ()>,
        &mut turnstile_lifecycle::Lifecycle<'_, Table<'_>>,
    ) -> Result<R, turnstile_turns::TurnError>,
) -> Result<R, RuleError> {
    let content = table.content;
    lifecycle
        .drive(&content.rules.lifecycle, &initiative_schema(), table, op)
        .map_err(|e| RuleError::new(known_code(&e.code), e.message))
}

/// The turn framework's, the lifecycle's and the phases' stable codes, as `'static` codes.
fn known_code(code: &str) -> &'static str {
    const CODES: &[&str] = &[
        "turn_not_active",
        "not_your_turn",
        "not_skippable",
        "stale_timeout",
        "unknown_turn",
        "timeout_not_due",
        "tick_went_backwards",
        "turn_in_progress",
        "unknown_seat",
        "unknown_turn_config",
        "bad_initiative",
        "initiative_out_of_range",
        "phase_failed",
        "unknown_effect",
    ];
    CODES
        .iter()
        .find(|c| **c == code)
        .copied()
        .unwrap_or("lifecycle_failed")
}

/// A new match of `seats` seats under phase sequence `sequence` and clock `clock` (the
/// content's default when `None`): every seat's commander registered, the loop started, so the
/// first activation is in progress.
pub fn setup(
    content: &PigContent,
    seats: u16,
    sequence: &str,
    clock: Option<&str>,
    seed: &str,
) -> Result<PigState, RuleError> {
    static TABLE: StreamTable = StreamTable::new(crate::content::STREAMS);
    let rules = &content.rules;
    if seats < rules.seats.min || seats > rules.seats.max {
        return Err(RuleError::new(
            "seat_count",
            format!(
                "Pig is played by {} to {} seats, not {seats}",
                rules.seats.min, rules.seats.max
            ),
        ));
    }
    let streams =
        Streams::new(seed, &TABLE).map_err(|e| RuleError::new("bad_seed", e.to_string()))?;
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let phase = reducer
        .initial_state(sequence)
        .map_err(|e| RuleError::new("unknown_sequence", e.to_string()))?;
    let clock = rules
        .lifecycle
        .clock(clock)
        .map_err(|p| RuleError::new("unknown_clock", p.message))?;
    let all: Vec<Seat> = (0..seats).map(Seat).collect();
    let mut state = PigState {
        scores: vec![0; usize::from(seats)],
        standing: vec![Standing::Playing; usize::from(seats)],
        turn_total: 0,
        last_roll: 0,
        rolls: 0,
        rolls_this_turn: 0,
        turn: 0,
        round: 0,
        active: None,
        phase,
        streams,
        result: None,
        lifecycle: LifecycleState::new(all.iter().copied(), &rules.lifecycle),
        deadline_tick: None,
    };
    let mut lifecycle = take_lifecycle(&mut state);
    let mut table = Table::new(content, &mut state);
    drive(&mut table, &mut lifecycle, |turns, driver| {
        for seat in &all {
            turns.add_commander(LifecycleState::commander(*seat, &clock))?;
        }
        turns.start_loop(driver).map(|_| ())
    })?;
    drop(table);
    put_lifecycle(content, &mut state, lifecycle);
    Ok(state)
}

/// Puts the lifecycle back and derives the deadline from it.
fn put_lifecycle(content: &PigContent, state: &mut PigState, lifecycle: LifecycleState) {
    state.deadline_tick = if state.result.is_none() {
        lifecycle.deadline_tick(&content.rules.lifecycle)
    } else {
        None
    };
    state.lifecycle = lifecycle;
}

/// Runs `action` on `state` (a copy: on an error the caller drops it) and returns its events.
pub fn apply(
    content: &PigContent,
    state: &mut PigState,
    ctx: CommandContext,
    action: &PigAction,
) -> Result<Vec<PigEvent>, RuleError> {
    let mut lifecycle = take_lifecycle(state);
    let mut table = Table::new(content, state);
    let result = run(&mut table, &mut lifecycle, ctx, action);
    let events = std::mem::take(&mut table.events);
    drop(table);
    put_lifecycle(content, state, lifecycle);
    result.map(|()| events)
}

fn run(
    table: &mut Table<'_>,
    lifecycle: &mut LifecycleState,
    ctx: CommandContext,
    action: &PigAction,
) -> Result<(), RuleError> {
    match action {
        PigAction::Timeout { turn_index } => {
            let turn_index = *turn_index;
            return drive(table, lifecycle, |t, d| t.timeout(d, turn_index, ctx.tick));
        }
        PigAction::ClockResumed {
            last_heartbeat_tick,
            takeover_tick,
        } => {
            let (from, to) = (*last_heartbeat_tick, *takeover_tick);
            return drive(table, lifecycle, |t, d| t.resume_clock(d, from, to));
        }
        _ => {}
    }
    let seat = ctx
        .seat
        .ok_or_else(|| RuleError::new("seat_required", "this action needs a seat"))?;
    if table.seat_index(seat).is_none() {
        return Err(RuleError::new(
            "unknown_seat",
            format!("no seat {}", seat.0),
        ));
    }
    // Time first: an activation whose deadline is at or before the command's tick has ended
    // with `Time`. An untimed match keeps no tick in its state, so a preview's fingerprint is
    // its commit's at any later tick.
    let clocks = &table.content.rules.lifecycle.clocks;
    if lifecycle.turns.can_time_out(clocks) {
        drive(table, lifecycle, |t, d| t.advance_to(d, ctx.tick))?;
    }
    if table.state.result.is_some() {
        return Err(RuleError::new("match_over", "the match is over"));
    }
    if table.state.standing.get(usize::from(seat.0)) != Some(&Standing::Playing) {
        return Err(RuleError::new("seat_out", "this seat has left the match"));
    }
    if let PigAction::Resign = action {
        table.events.push(PigEvent::Resigned { seat });
        table.depart(seat, Standing::Resigned, "resigned");
        // The resigning seat leaves the loop now (mid-activation: `removed`).
        return drive(table, lifecycle, |_, _| Ok(()));
    }
    if lifecycle.acting() != Some(seat) || !lifecycle.is_active() {
        return Err(RuleError::new("not_your_turn", "another seat is rolling"));
    }
    if let PigAction::Skip = action {
        lifecycle
            .check_skip(&table.content.rules.lifecycle, seat)
            .map_err(|e| RuleError::new(known_code(e.code()), e.to_string()))?;
        return drive(table, lifecycle, |t, d| t.skip(d, seat, ()));
    }
    let command_type = match action {
        PigAction::Roll => "ROLL",
        _ => "HOLD",
    };
    let content = table.content;
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    reducer
        .resolve(&table.state.phase)
        .map_err(|e| RuleError::new("phase_failed", e.to_string()))?
        .filter()
        .allows(command_type, &[])
        .map_err(|r| RuleError::new("action_not_allowed_in_phase", r.to_string()))?;
    if let PigAction::Roll = action {
        // The die comes from the match's `dice` stream: the same seed rolls the same dice.
        let faces = content.rules.die_faces;
        let die = table
            .state
            .streams
            .below("dice", faces)
            .map_err(|e| RuleError::new("stream", e.to_string()))?;
        let die = i64::from(die) + 1;
        let s = &mut *table.state;
        s.rolls = s.rolls.saturating_add(1);
        s.rolls_this_turn = s.rolls_this_turn.saturating_add(1);
        s.last_roll = die;
        if die != 1 {
            s.turn_total = s.turn_total.saturating_add(die);
        }
        let turn_total = s.turn_total;
        table.events.push(PigEvent::Rolled {
            seat,
            die,
            turn_total,
        });
    }
    let command = PhaseCommand {
        command_type,
        tags: &[],
    };
    let ended = table
        .phases(|reducer, phase, table| reducer.command(phase, command, table))
        .map_err(|e| RuleError::new("phase_failed", e.message))?;
    if ended {
        drive(table, lifecycle, |t, d| {
            t.end_turn(d, TurnEndReason::Custom(END_TURN_REASON.into()))
        })?;
    }
    Ok(())
}

/// Whether `seat` may send `Roll` or `Hold` now, by the phase the turn is in.
pub fn allowed(content: &PigContent, state: &PigState, seat: Seat, command_type: &str) -> bool {
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    state.result.is_none()
        && state.lifecycle.acting() == Some(seat)
        && state.lifecycle.turns.clock().current().status == TurnStatus::Active
        && reducer
            .resolve(&state.phase)
            .is_ok_and(|r| r.filter().allows(command_type, &[]).is_ok())
}
