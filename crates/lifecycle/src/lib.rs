//! Turnstile's match lifecycle, written once: commanders taking activations in initiative
//! order, the turn clock with its deadlines, Timeout, Skip and forfeits, rounds with
//! `StartRound`/`EndRound` hooks, pending joins at the loop boundary, leaving at once, and
//! commanders skipped when they can't act — composed from `turnstile-turns` (the clock and the
//! commander loop) and handed to the game as a handful of hooks.
//!
//! A game declares its lifecycle in content ([`LifecycleRules`]: clocks, initiative formula,
//! when it is recomputed, round effects), keeps a [`LifecycleState`] in its match state, and
//! implements [`LifecycleHooks`]: what happens when an activation starts or ends (with the
//! phase graph's [`ExitReason`], so a Timeout or a Skip leaves the activation through the
//! `ActivationExit` edges like an end-turn action does), what a round hook's effects do (on the
//! game's one effect executor), whether a seat can act now, and its initiative variables.
//! Every operation on the turns — a seat's end of turn, a Skip, the system Timeout and
//! ClockResumed, a join, the clock's advance to the envelope's tick — goes through
//! [`LifecycleState::drive`], which wires the hooks to the turn framework's signals, so the
//! game writes no glue: the order of one activation change is always
//!
//! ```text
//! end of turn (reason) -> EndActivation hook (phase exit, statuses, ...)
//!   -> forfeit hook, when the seat timed out too often
//!   -> EndRound hook, when the round's last activation ended
//!   -> the turn order's boundary: pending joins, initiative recomputed, RoundStarted
//!   -> the next commander that can act (can_act; a refusal is the skipped hook and an event)
//!   -> StartRound hook, when a round begins -> StartActivation hook (draw, phase entry)
//! ```
//!
//! **What this crate must never do.** Read a clock (ticks come in as arguments), know a game,
//! run effects itself (hooks do, on the game's executor), or hold content in state: the state
//! is the turn framework's plus two round marks. It never panics on outside input: a hook's
//! failure is sticky and fails the whole operation, which the game then discards.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod game;
mod rules;

pub use game::LifecycleGame;
pub use rules::{LifecycleProblem, LifecycleRules};

use serde::{Deserialize, Serialize};
use turnstile_core::{Seat, Tick};
use turnstile_formula::{Formula, Value, VariableSchema, VariableSource};
use turnstile_phases::ExitReason;
use turnstile_turns::{
    Commander, CommanderId, MatchTurns, SkipReason, TurnConfigId, TurnData, TurnEndReason,
    TurnError, TurnEvent, TurnSignals, TurnStatus, TurnType, Turns,
};

/// The turn end reason of an explicit end-turn action; it leaves the activation as
/// [`ExitReason::EndTurnAction`].
pub const END_TURN_REASON: &str = "endTurn";

/// Which round hook runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RoundHook {
    /// Before a round's first activation.
    StartRound,
    /// After a round's last activation.
    EndRound,
}

/// A hook's failure: a stable code and a message. It fails the operation that ran the hook.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message} ({code})")]
pub struct LifecycleError {
    /// Stable code, `snake_case`.
    pub code: String,
    /// What went wrong, for a person.
    pub message: String,
}

impl LifecycleError {
    /// An error.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        LifecycleError {
            code: code.into(),
            message: message.into(),
        }
    }
}

impl From<TurnError> for LifecycleError {
    fn from(e: TurnError) -> Self {
        LifecycleError::new(e.code(), e.to_string())
    }
}

/// What the game does at each point of the lifecycle. Every hook runs synchronously inside the
/// operation, in the order the crate documentation shows.
pub trait LifecycleHooks {
    /// The initiative formula's variables for `seat`'s commander, in the slot order of the
    /// schema the formula was validated with.
    fn initiative_variables(&self, seat: Seat) -> Vec<Value>;
    /// Whether `seat` can take its activation now (alive, not stunned). A refusal skips it for
    /// this round; [`LifecycleHooks::activation_skipped`] is then called.
    fn can_act(&mut self, seat: Seat) -> Result<(), SkipReason>;
    /// `seat`'s activation was skipped for `reason` (a stun counts down here).
    fn activation_skipped(&mut self, seat: Seat, reason: &SkipReason)
        -> Result<(), LifecycleError>;
    /// A round hook, with the effects content lists for it.
    fn round(
        &mut self,
        hook: RoundHook,
        round: u64,
        effects: &[String],
    ) -> Result<(), LifecycleError>;
    /// The kind of turn `seat`'s activation that begins now is, asked before
    /// [`LifecycleHooks::start_activation`]: `Play` (the default) while the seat may act, or
    /// `Countdown` while its play is on hold (Duel: a seat channelling a delayed spell). The
    /// turn framework records the type (a `TurnTypeChanged` event when it changes).
    fn turn_type(&mut self, _seat: Seat) -> TurnType {
        TurnType::Play
    }
    /// `seat`'s activation began (refresh, draw, phase entry).
    fn start_activation(&mut self, seat: Seat, round: u64) -> Result<(), LifecycleError>;
    /// `seat`'s activation is ending for `reason` (phase exit, end-of-turn effects, statuses).
    fn end_activation(&mut self, seat: Seat, reason: &ExitReason) -> Result<(), LifecycleError>;
    /// `seat` timed out `timeouts` turns in a row, reaching its clock's `forfeitAfterTimeouts`.
    fn forfeit(&mut self, seat: Seat, timeouts: u32) -> Result<(), LifecycleError>;
    /// Seats that left the match (eliminated, forfeited) since the last call; their commanders
    /// leave the loop at once.
    fn take_departures(&mut self) -> Vec<Seat>;
    /// Whether the match is over: the loop then stops.
    fn is_over(&self) -> bool;
    /// The turn framework's events so far, handed over in order before each hook runs, so the
    /// game's event list keeps the order things happened in.
    fn turn_events(&mut self, events: Vec<TurnEvent<(), ()>>);
}

/// How far the round hooks have run: the last round `StartRound` and `EndRound` ran for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundMarks {
    /// The last round whose `StartRound` hook ran.
    pub started: u64,
    /// The last round whose `EndRound` hook ran.
    pub ended: u64,
}

/// A match's lifecycle state: the turn framework's clock and commander loop, and the round
/// marks. Content (clocks, initiative) is never copied in: commanders name their clock by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LifecycleState {
    /// The clock, the per-seat turn data and the commander loop.
    pub turns: MatchTurns,
    /// How far the round hooks have run.
    pub rounds: RoundMarks,
}

/// A seat's commander id: `seat-<n>`.
pub fn commander_id(seat: Seat) -> CommanderId {
    CommanderId::new(format!("seat-{}", seat.0))
}

impl LifecycleState {
    /// A match of `seats`, nobody registered yet, initiative recomputed as `rules` says.
    pub fn new(seats: impl IntoIterator<Item = Seat>, rules: &LifecycleRules) -> Self {
        LifecycleState {
            turns: MatchTurns::new(seats).with_priority_recompute(rules.recompute_at),
            rounds: RoundMarks::default(),
        }
    }

    /// The commander of `seat`, taking its activations under `clock`.
    pub fn commander(seat: Seat, clock: &TurnConfigId) -> Commander {
        Commander::new(commander_id(seat).as_str(), Some(seat), 0).with_config(clock.clone())
    }

    /// The seat whose activation is in progress, if any.
    pub fn acting(&self) -> Option<Seat> {
        let clock = self.turns.clock();
        clock
            .turn_in_progress()
            .then(|| clock.current().player)
            .flatten()
    }

    /// Whether the current activation is `Active` (its owner's commands are accepted).
    pub fn is_active(&self) -> bool {
        self.turns.clock().current().status == TurnStatus::Active
    }

    /// The match-wide index of the current (or last) activation: what a `Timeout` names.
    pub fn turn_index(&self) -> u64 {
        self.turns.clock().turn_index()
    }

    /// The round the commander loop is in.
    pub fn round(&self) -> u64 {
        self.turns.order().round()
    }

    /// The tick at which the current activation times out, if its clock runs.
    pub fn deadline_tick(&self, rules: &LifecycleRules) -> Option<Tick> {
        self.turns
            .clock()
            .deadline_tick(&rules.clocks)
            .ok()
            .flatten()
    }

    /// Whether `seat` may Skip now (its activation is active and its clock is skippable).
    pub fn check_skip(&self, rules: &LifecycleRules, seat: Seat) -> Result<(), TurnError> {
        self.turns.check_skip(&rules.clocks, seat)
    }

    /// Whether `seat` is registered or pending in the loop.
    pub fn has_commander(&self, seat: Seat) -> bool {
        let id = commander_id(seat);
        self.turns.order().get(&id).is_some() || self.turns.order().pending().any(|c| c.id == id)
    }

    /// Runs one operation on the turns with the game's `hooks` behind every signal, then
    /// settles: departed seats leave the loop, a finished match stops it, and the remaining
    /// turn events go to the hooks. A hook's failure (or the turn framework's) fails the whole
    /// operation; the caller discards the copy it ran on.
    pub fn drive<H, R>(
        &mut self,
        rules: &LifecycleRules,
        schema: &VariableSchema,
        hooks: &mut H,
        op: impl FnOnce(&mut Turns<'_, (), ()>, &mut Lifecycle<'_, H>) -> Result<R, TurnError>,
    ) -> Result<R, LifecycleError>
    where
        H: LifecycleHooks,
    {
        let LifecycleState { turns, rounds } = self;
        let initiative = match &rules.initiative {
            Some(text) => Some(Formula::compile(text, schema).map_err(|e| {
                LifecycleError::new("bad_initiative", format!("initiative `{text}`: {e}"))
            })?),
            None => None,
        };
        let mut driver = Lifecycle {
            rules,
            initiative,
            rounds,
            hooks,
            error: None,
        };
        let mut handle = turns.turns::<(), ()>(&rules.clocks);
        let result = op(&mut handle, &mut driver);
        let settled = driver.settle(&mut handle);
        driver.flush(&mut handle);
        if let Some(error) = driver.error.take() {
            return Err(error);
        }
        settled?;
        Ok(result?)
    }
}

/// The lifecycle behind the turn framework's signals, for one operation. Get one through
/// [`LifecycleState::drive`].
pub struct Lifecycle<'a, H> {
    rules: &'a LifecycleRules,
    initiative: Option<Formula>,
    rounds: &'a mut RoundMarks,
    hooks: &'a mut H,
    error: Option<LifecycleError>,
}

struct Slots(Vec<Value>);

impl VariableSource for Slots {
    fn get(&self, slot: u16) -> Option<Value> {
        self.0.as_slice().get(usize::from(slot)).copied()
    }
}

impl<H: LifecycleHooks> Lifecycle<'_, H> {
    /// The game's hooks.
    pub fn hooks(&mut self) -> &mut H {
        self.hooks
    }

    fn fail(&mut self, result: Result<(), LifecycleError>) {
        if let Err(e) = result {
            self.error.get_or_insert(e);
        }
    }

    fn flush(&mut self, turns: &mut Turns<'_, (), ()>) {
        let events = turns.take_events();
        if !events.is_empty() {
            self.hooks.turn_events(events);
        }
    }

    /// Departed seats leave the loop at once; a match that is over stops the loop.
    fn settle(&mut self, turns: &mut Turns<'_, (), ()>) -> Result<(), TurnError> {
        for seat in self.hooks.take_departures() {
            let id = commander_id(seat);
            let known =
                turns.order().get(&id).is_some() || turns.order().pending().any(|c| c.id == id);
            if known {
                turns.remove_commander(self, &id)?;
            }
        }
        if self.hooks.is_over() && turns.order().is_running() {
            turns.stop_loop()?;
        }
        Ok(())
    }

    fn run_round(&mut self, turns: &mut Turns<'_, (), ()>, hook: RoundHook, round: u64) {
        self.flush(turns);
        let effects = match hook {
            RoundHook::StartRound => &self.rules.start_round_effects,
            RoundHook::EndRound => &self.rules.end_round_effects,
        };
        let result = self.hooks.round(hook, round, effects);
        self.fail(result);
        match hook {
            RoundHook::StartRound => self.rounds.started = round,
            RoundHook::EndRound => self.rounds.ended = round,
        }
    }
}

/// The activation exit of a turn that ended for `reason`.
pub fn exit_reason(reason: &TurnEndReason) -> ExitReason {
    match reason {
        TurnEndReason::Time => ExitReason::Timeout,
        TurnEndReason::Skip => ExitReason::Skip,
        TurnEndReason::Custom(r) if r == END_TURN_REASON => ExitReason::EndTurnAction,
        TurnEndReason::Custom(r) => ExitReason::GameRule { rule: r.clone() },
        TurnEndReason::Play => ExitReason::GameRule {
            rule: "play".into(),
        },
        TurnEndReason::Resolved => ExitReason::GameRule {
            rule: "resolved".into(),
        },
        TurnEndReason::Removed => ExitReason::GameRule {
            rule: "removed".into(),
        },
    }
}

impl<H: LifecycleHooks> TurnSignals<(), ()> for Lifecycle<'_, H> {
    fn on_turn_began(&mut self, turns: &mut Turns<'_, (), ()>) {
        let round = turns.order().round();
        if round > self.rounds.started {
            if self.rounds.started > 0 && self.rounds.ended < self.rounds.started {
                // The round's last commander was skipped after the last activation ended.
                self.run_round(turns, RoundHook::EndRound, self.rounds.started);
            }
            self.run_round(turns, RoundHook::StartRound, round);
        }
        if let Some(seat) = turns.clock().current().player {
            if !self.hooks.is_over() {
                let kind = self.hooks.turn_type(seat);
                let typed = turns.set_type(kind).map_err(LifecycleError::from);
                self.fail(typed);
            }
        }
        self.flush(turns);
        if let Some(seat) = turns.clock().current().player {
            if !self.hooks.is_over() {
                let result = self.hooks.start_activation(seat, round);
                self.fail(result);
            }
        }
        let settled = self.settle(turns).map_err(LifecycleError::from);
        self.fail(settled);
    }

    fn on_turn_ended(
        &mut self,
        turns: &mut Turns<'_, (), ()>,
        turn: &TurnData,
        reason: &TurnEndReason,
    ) {
        self.flush(turns);
        if let Some(seat) = turn.player {
            if !self.hooks.is_over() {
                let result = self.hooks.end_activation(seat, &exit_reason(reason));
                self.fail(result);
            }
            if *reason == TurnEndReason::Time && !self.hooks.is_over() && turns.forfeit_due(turn) {
                let timeouts = turns.clock().timeouts_in_a_row(seat);
                let result = self.hooks.forfeit(seat, timeouts);
                self.fail(result);
            }
        }
        let round = turns.order().round();
        if turns.order().remaining_in_round().is_empty()
            && round > 0
            && self.rounds.ended < round
            && self.rounds.started == round
            && !self.hooks.is_over()
        {
            self.run_round(turns, RoundHook::EndRound, round);
        }
        let settled = self.settle(turns).map_err(LifecycleError::from);
        self.fail(settled);
    }

    fn can_act(&mut self, commander: &Commander) -> Result<(), SkipReason> {
        let Some(seat) = commander.seat else {
            return Ok(());
        };
        let answer = self.hooks.can_act(seat);
        if let Err(reason) = &answer {
            let result = self.hooks.activation_skipped(seat, reason);
            self.fail(result);
        }
        answer
    }

    fn recompute_priority(&mut self, commander: &Commander) -> i32 {
        let (Some(formula), Some(seat)) = (&self.initiative, commander.seat) else {
            return commander.priority;
        };
        let value = formula.eval(&Slots(self.hooks.initiative_variables(seat)));
        match value {
            Ok(Value::Int(v)) => match i32::try_from(v) {
                Ok(p) => p,
                Err(_) => {
                    self.error.get_or_insert(LifecycleError::new(
                        "initiative_out_of_range",
                        format!("the initiative of seat {} is {v}, outside i32", seat.0),
                    ));
                    commander.priority
                }
            },
            Ok(other) => {
                self.error.get_or_insert(LifecycleError::new(
                    "bad_initiative",
                    format!(
                        "the initiative of seat {} is {other:?}, not an integer",
                        seat.0
                    ),
                ));
                commander.priority
            }
            Err(e) => {
                self.error.get_or_insert(LifecycleError::new(
                    "bad_initiative",
                    format!("the initiative of seat {}: {e}", seat.0),
                ));
                commander.priority
            }
        }
    }
}
