//! The `Turns` handle: every change to the turn state, with the signals that let game logic act
//! inside the transition and the events that tell clients what happened.
//!
//! A handle borrows a [`MatchTurns`] and the pinned [`TurnConfigs`] for one command. Operations
//! take the game's [`TurnSignals`] and call them synchronously, in order; a signal receives the
//! same handle, so game logic can end the turn, begin the next one or reset it right there —
//! exactly as the seed's signals do — and the events of everything that happened accumulate in
//! one list for the receipt.
//!
//! Two limits keep game logic from spinning inside one command: signals nest at most
//! [`MAX_SIGNAL_DEPTH`] deep, and at most [`MAX_ACTIVATIONS_PER_OPERATION`] turns begin within one
//! top-level operation. Crossing either is a sticky fault: the operation, and every later one on
//! the same handle, returns the error, and the runtime discards the copy it was working on.

use turnstile_core::{Seat, Tick};

use crate::command::TurnCommand;
use crate::config::TurnConfigs;
use crate::data::{ResetTurn, TurnData, TurnEndReason, TurnStatus, TurnType};
use crate::error::TurnError;
use crate::event::{TurnEvent, TurnEventSink};
use crate::ids::CommanderId;
use crate::order::{Commander, LoopOutcome, RecomputeAt, SkipReason, TurnOrder};
use crate::state::{MatchTurns, TurnClock};
use std::marker::PhantomData;

/// How deep signals may nest (a signal calling an operation that calls a signal …).
pub const MAX_SIGNAL_DEPTH: u32 = 32;

/// How many turns may begin within one top-level operation (a time jump that ends many short
/// turns, or game logic that ends every turn as soon as it begins).
pub const MAX_ACTIVATIONS_PER_OPERATION: u32 = 1024;

/// How game logic hooks the framework. Every method has a default that does nothing (or allows
/// everything), so a game implements only what it needs.
///
/// Signals run synchronously inside the transition and may call operations on the handle they
/// receive, passing themselves as the signals again:
///
/// ```
/// use turnstile_core::Seat;
/// use turnstile_turns::{TurnData, TurnEndReason, TurnSignals, Turns, ResetTurn};
///
/// struct ConnectFour { /* board … */ seats: u16 }
///
/// impl TurnSignals<u8, ()> for ConnectFour {
///     fn on_play_command(&mut self, turns: &mut Turns<'_, u8, ()>, _seat: Seat, _column: &u8) {
///         // drop the disc … the move is complete at once:
///         let _ = turns.end_turn(self, TurnEndReason::Play);
///     }
///     fn on_turn_ended(&mut self, turns: &mut Turns<'_, u8, ()>, turn: &TurnData, _: &TurnEndReason) {
///         // passing the turn is game logic: the next seat plays.
///         let next = Seat(turn.player.map_or(0, |s| (s.0 + 1) % self.seats));
///         let _ = turns.begin_turn(self, ResetTurn::new().with_player(Some(next)));
///     }
/// }
/// ```
pub trait TurnSignals<P, S, K = Vec<TurnEvent<P, S>>> {
    /// A turn began (the seed 001 begin-turn hook: draw a card, tick poison). The new turn is
    /// `turns.clock().current()`, its index `turns.clock().turn_index()`.
    fn on_turn_began(&mut self, _turns: &mut Turns<'_, P, S, K>) {}

    /// A turn ended with `reason`; `turn` is its data as it ended (already accumulated into its
    /// seat; the turn index still names it). Passing the turn to the next seat happens here,
    /// unless a running [`TurnOrder`] does it.
    fn on_turn_ended(
        &mut self,
        _turns: &mut Turns<'_, P, S, K>,
        _turn: &TurnData,
        _reason: &TurnEndReason,
    ) {
    }

    /// A `Play` from `seat` was accepted; the turn is now `Resolving`. End it with
    /// [`TurnEndReason::Play`] for a move complete at once, or later with [`Turns::resolve`].
    fn on_play_command(&mut self, _turns: &mut Turns<'_, P, S, K>, _seat: Seat, _data: &P) {}

    /// A `Skip` from `seat` was accepted; the turn ends with `Skip` when this returns (unless the
    /// game ended it already).
    fn on_skip_command(&mut self, _turns: &mut Turns<'_, P, S, K>, _seat: Seat, _data: &S) {}

    /// The turn order asks whether `commander` can act now (alive, not stunned). A refusal skips
    /// it for this round and is recorded as [`TurnEvent::CommanderSkipped`].
    fn can_act(&mut self, _commander: &Commander) -> Result<(), SkipReason> {
        Ok(())
    }

    /// The turn order asks for `commander`'s priority, at the boundary set by [`RecomputeAt`].
    fn recompute_priority(&mut self, commander: &Commander) -> i32 {
        commander.priority
    }
}

/// Signals that do nothing: for tests, tools, and games that drive turns from outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NoSignals;

impl<P, S, K> TurnSignals<P, S, K> for NoSignals {}

/// A handle that changes a [`MatchTurns`] for one command and collects the events. Get one with
/// [`MatchTurns::turns`]; take the events with [`Turns::into_events`].
///
/// Operations that validate their input refuse without changing anything.
#[derive(Debug)]
pub struct Turns<'a, P, S, K = Vec<TurnEvent<P, S>>> {
    state: &'a mut MatchTurns,
    configs: &'a TurnConfigs,
    events: K,
    marker: PhantomData<fn(P, S)>,
    depth: u32,
    activations: u32,
    follow_up: bool,
    fault: Option<TurnError>,
}

impl<'a, P, S> Turns<'a, P, S> {
    pub(crate) fn new(state: &'a mut MatchTurns, configs: &'a TurnConfigs) -> Self {
        // A command's transition usually makes several events (a turn ends, the next begins):
        // room for them up front.
        Self::with_sink(state, configs, Vec::with_capacity(8))
    }
}

impl<P, S> Turns<'_, P, S> {
    /// The events so far.
    pub fn events(&self) -> &[TurnEvent<P, S>] {
        &self.events
    }

    /// Takes the events so far, leaving the list empty.
    pub fn take_events(&mut self) -> Vec<TurnEvent<P, S>> {
        std::mem::take(&mut self.events)
    }

    /// Removes the events so far, in order, keeping the list's storage for the next ones: for
    /// game logic that interleaves its own events with the framework's many times per command.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, TurnEvent<P, S>> {
        self.events.drain(..)
    }

    /// Ends the handle, returning its events.
    pub fn into_events(self) -> Vec<TurnEvent<P, S>> {
        self.events
    }
}

impl<'a, P, S, K> Turns<'a, P, S, K> {
    pub(crate) fn with_sink(state: &'a mut MatchTurns, configs: &'a TurnConfigs, sink: K) -> Self {
        Self {
            state,
            configs,
            events: sink,
            marker: PhantomData,
            depth: 0,
            activations: 0,
            follow_up: false,
            fault: None,
        }
    }
}

impl<P: Clone, S: Clone, K: TurnEventSink<P, S>> Turns<'_, P, S, K> {
    // ----- reading ------------------------------------------------------------------------

    /// The whole state.
    pub fn state(&self) -> &MatchTurns {
        self.state
    }

    /// The clock.
    pub fn clock(&self) -> &TurnClock {
        &self.state.clock
    }

    /// The turn order.
    pub fn order(&self) -> &TurnOrder {
        &self.state.order
    }

    /// The pinned configs.
    pub fn configs(&self) -> &TurnConfigs {
        self.configs
    }

    /// Where the events go: a game that gave the handle its own sink
    /// ([`MatchTurns::turns_into`]) records its own events there too, between the framework's.
    pub fn sink(&mut self) -> &mut K {
        &mut self.events
    }

    /// Ends the handle, returning its sink.
    pub fn into_sink(self) -> K {
        self.events
    }

    /// The current turn's deadline tick, if its timer runs (see [`TurnClock::deadline_tick`]).
    pub fn deadline_tick(&self) -> Result<Option<Tick>, TurnError> {
        self.state.clock.deadline_tick(self.configs)
    }

    /// Whether `turn`'s seat has timed out at least its config's `forfeitAfterTimeouts` turns in a
    /// row (call it from `on_turn_ended`). What forfeiting means is the game's decision.
    pub fn forfeit_due(&self, turn: &TurnData) -> bool {
        let Some(seat) = turn.player else {
            return false;
        };
        let threshold = self
            .configs
            .resolve_optional(turn.config.as_ref())
            .ok()
            .flatten()
            .and_then(|c| c.forfeit_after_timeouts);
        threshold.is_some_and(|n| self.state.clock.timeouts_in_a_row(seat) >= n)
    }

    // ----- time ---------------------------------------------------------------------------

    /// Advances the clock to `tick` (the tick stamped on the command envelope), before the command
    /// is judged.
    ///
    /// Exactly equivalent to one [`step`](Self::step) per tick: while the current turn's deadline
    /// is at or before `tick`, the turn's ticks run to it and it ends with `Time` (signals run,
    /// and the next turn — begun by the game or the turn order — starts at the deadline); then the
    /// running timer, if any, counts the rest. `tick_went_backwards` if `tick` is before the last
    /// tick; `nested_clock_advance` from inside a signal.
    pub fn advance_to<G>(&mut self, signals: &mut G, tick: Tick) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.advance_to_inner(g, tick))
    }

    /// Advances the clock by exactly one tick — the seed's per-frame `Update`: if the current turn
    /// is `Active` with a timer, `ticks += 1`, and at `turn_duration_ticks` it ends with `Time`.
    /// The reference that [`advance_to`](Self::advance_to) is tested against; a client that
    /// animates tick by tick may use it too.
    pub fn step<G>(&mut self, signals: &mut G) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.step_inner(g))
    }

    /// Applies the system `Timeout` command (id [`timeout_command_id`](crate::timeout_command_id))
    /// for turn `turn_index`, stamped `tick`: the clock advances to `tick`, which ends that turn
    /// with `Time`, so the timeout's receipt records the end.
    ///
    /// Refused, changing nothing, with `stale_timeout` if the turn already ended (a racing node
    /// timed it out, or the owner played), `unknown_turn` if it has not begun, `timeout_not_due`
    /// if its deadline is after `tick` or its timer doesn't run.
    pub fn timeout<G>(
        &mut self,
        signals: &mut G,
        turn_index: u64,
        tick: Tick,
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.timeout_inner(g, turn_index, tick))
    }

    /// Applies the system `ClockResumed` command (id
    /// [`clock_resumed_command_id`](crate::clock_resumed_command_id)) recorded by a node taking a
    /// match over at `takeover_tick` after the previous node's last heartbeat at
    /// `last_heartbeat_tick`.
    ///
    /// The clock first advances to the start of the outage, `max(last_heartbeat_tick, last_tick)`
    /// (a deadline at or before it had passed while the match was served, and ends now); then it
    /// jumps to `takeover_tick` without counting, so every running deadline moves later by the
    /// outage. Emits [`TurnEvent::ClockResumed`].
    pub fn resume_clock<G>(
        &mut self,
        signals: &mut G,
        last_heartbeat_tick: Tick,
        takeover_tick: Tick,
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| {
            t.resume_inner(g, last_heartbeat_tick, takeover_tick)
        })
    }

    // ----- commands -----------------------------------------------------------------------

    /// Applies a player's `Play` or `Skip` (after [`advance_to`](Self::advance_to) the command's
    /// tick). Refusals, checked in this order, change nothing: `turn_not_active`,
    /// `not_your_turn`, `resolving`, then `not_play_turn` or `not_skippable`.
    pub fn command<G>(
        &mut self,
        signals: &mut G,
        seat: Seat,
        command: TurnCommand<P, S>,
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        match command {
            TurnCommand::Play(data) => self.play(signals, seat, data),
            TurnCommand::Skip(data) => self.skip(signals, seat, data),
        }
    }

    /// Accepts a `Play`: emits [`TurnEvent::PlayCommandReceived`], the turn becomes `Resolving`
    /// (its timer stops), then [`TurnSignals::on_play_command`] runs.
    pub fn play<G>(&mut self, signals: &mut G, seat: Seat, data: P) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.play_inner(g, seat, data))
    }

    /// A `Play` that is complete at once: exactly what [`play`](Self::play) does under signals
    /// whose [`on_play_command`](TurnSignals::on_play_command) carries the move out and ends the
    /// turn with [`TurnEndReason::Play`], and whose other signals are the defaults (do nothing,
    /// allow everything) — the kit's every move — in one step, without the signal machinery.
    ///
    /// `carry_out` runs where `on_play_command` would, after the turn became `Resolving`; it
    /// records the game's events into the sink and answers whether the match is over: then
    /// the loop stops (as [`stop_loop`](Self::stop_loop) would) before the turn ends, so no
    /// other turn begins. Otherwise the turn ends and, with the loop running, the next
    /// commander's activation begins. `data` is copied only into a
    /// [`TurnEvent::PlayCommandReceived`], for a sink that keeps signals.
    ///
    /// Refusals are `play`'s, checked before anything changes. Called from inside a signal, it
    /// is `play` itself with those signals (the one path that nests). The test
    /// `play_at_once_is_play_with_signals_that_carry_the_move_out` holds the two paths to the
    /// same states, events and errors.
    pub fn play_at_once(
        &mut self,
        seat: Seat,
        data: &P,
        carry_out: impl FnOnce(&mut K) -> bool,
    ) -> Result<(), TurnError> {
        self.check_fault()?;
        if self.depth > 0 {
            return self.play(&mut AtOnce(Some(carry_out)), seat, data.clone());
        }
        self.state.check_play(seat)?;
        self.activations = 0;
        self.events
            .record_signal(|| TurnEvent::PlayCommandReceived {
                seat,
                data: data.clone(),
            });
        // `set_status_inner(Resolving)`: the turn is `Active` and in progress (`check_play`),
        // so the status changes and no turn opens.
        self.state
            .clock
            .current
            .set_status(TurnStatus::Resolving, &mut self.events);
        if carry_out(&mut self.events) {
            self.state.order.running = false;
        }
        // `end_turn_inner(Play)` with a default `on_turn_ended`: nothing to copy the turn for.
        self.close_turn(&TurnEndReason::Play);
        // `settle`: the default signals begin no turn and end none, so one activation at most.
        if std::mem::take(&mut self.follow_up) && !self.state.clock.in_progress {
            self.advance_loop_inner(&mut NoSignals, false)?;
        }
        self.check_fault()
    }

    /// Accepts a `Skip`: emits [`TurnEvent::SkipCommandReceived`], runs
    /// [`TurnSignals::on_skip_command`], then ends the turn with `Skip` (unless the signal already
    /// ended it).
    pub fn skip<G>(&mut self, signals: &mut G, seat: Seat, data: S) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.skip_inner(g, seat, data))
    }

    /// The game reports the resolution of a `Play` done: the `Resolving` turn ends with
    /// `Resolved`. `not_resolving` otherwise.
    pub fn resolve<G>(&mut self, signals: &mut G) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.resolve_inner(g))
    }

    // ----- turn lifecycle -----------------------------------------------------------------

    /// Ends the turn in progress with `reason`: it becomes `Inactive`, its seat's data
    /// accumulates it, a [`TurnEvent::TurnEnded`] is emitted, the acting commander's turn is over,
    /// and [`TurnSignals::on_turn_ended`] runs. `no_turn_in_progress` if none is.
    pub fn end_turn<G>(&mut self, signals: &mut G, reason: TurnEndReason) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.end_turn_inner(g, reason))
    }

    /// Begins a new turn: [`reset`](Self::reset) with `reset`'s fields and status `Active`. The
    /// turn index is raised, [`TurnEvent::TurnBegan`] emitted and [`TurnSignals::on_turn_began`]
    /// runs. `turn_in_progress` if a turn has not ended yet (end it first, with a reason).
    pub fn begin_turn<G>(&mut self, signals: &mut G, reset: ResetTurn) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.begin_inner(g, reset))
    }

    /// Resets the current turn (see [`TurnData::reset`]): ticks to 0 (a fresh timer), and the
    /// fields `reset` names. The config and seat are checked first (`unknown_turn_config`,
    /// `unknown_seat`). A status of `Active` while no turn is in progress begins a new turn, as
    /// [`begin_turn`](Self::begin_turn) does.
    pub fn reset<G>(&mut self, signals: &mut G, reset: ResetTurn) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.reset_inner(g, reset))
    }

    /// Sets the current turn's type (event only on real change).
    pub fn set_type(&mut self, turn_type: TurnType) -> Result<(), TurnError> {
        self.check_fault()?;
        self.state
            .clock
            .current
            .set_type(turn_type, &mut self.events);
        Ok(())
    }

    /// Sets the current turn's status (events only on real change). `Active` while no turn is in
    /// progress begins a new turn; `Active` on a `Resolving` or paused turn resumes it (same turn
    /// index); `Inactive` pauses the turn without ending it; `Resolving` needs a turn in progress.
    pub fn set_status<G>(&mut self, signals: &mut G, status: TurnStatus) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| t.set_status_inner(g, status))
    }

    // ----- turn order ---------------------------------------------------------------------

    /// Adds a commander to the pending set: it joins the loop at the next round boundary, never in
    /// the middle of a round. Refused with `duplicate_commander`, `unknown_seat` or
    /// `unknown_turn_config`.
    pub fn add_commander(&mut self, commander: Commander) -> Result<(), TurnError> {
        self.check_fault()?;
        if let Some(seat) = commander.seat {
            if !self.state.clock.seats.contains_key(&seat) {
                return Err(TurnError::UnknownSeat { seat });
            }
        }
        self.configs.resolve_optional(commander.config.as_ref())?;
        self.state.order.add_pending(commander)
    }

    /// Removes a commander at once from the loop, the pending set and the rest of the round; if
    /// it was acting, its turn ends with `Removed` (and a running loop moves on).
    pub fn remove_commander<G>(
        &mut self,
        signals: &mut G,
        id: &CommanderId,
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| {
            let was_acting = t.state.order.take_out(id)?;
            t.events.record(TurnEvent::CommanderRemoved {
                commander: id.clone(),
            });
            if was_acting {
                t.end_turn_inner(g, TurnEndReason::Removed)?;
            }
            Ok(())
        })
    }

    /// Sets a commander's priority. The rest of the current round keeps its order unless
    /// priorities are recomputed [every activation](RecomputeAt::EveryActivation).
    pub fn set_priority(&mut self, id: &CommanderId, priority: i32) -> Result<(), TurnError> {
        self.check_fault()?;
        let previous = self.state.order.set_priority(id, priority)?;
        if previous != priority {
            self.events.record(TurnEvent::CommanderPriorityChanged {
                commander: id.clone(),
                previous,
                current: priority,
            });
        }
        Ok(())
    }

    /// Starts the loop: from now on, whenever a turn ends and no other turn is in progress, the
    /// next commander's activation begins. If no turn is in progress, the first one begins now;
    /// otherwise the loop waits for the turn in progress (an intro countdown) to end.
    pub fn start_loop<G>(&mut self, signals: &mut G) -> Result<LoopOutcome, TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| {
            t.state.order.running = true;
            if t.state.clock.in_progress {
                Ok(LoopOutcome::Waiting)
            } else {
                t.advance_loop_inner(g, true)
            }
        })
    }

    /// Stops the loop: the turn in progress continues, but no activation begins by itself.
    pub fn stop_loop(&mut self) -> Result<(), TurnError> {
        self.check_fault()?;
        self.state.order.running = false;
        Ok(())
    }

    /// Begins the next commander's activation now: after an [`Idle`](LoopOutcome::Idle) or
    /// [`Stalled`](LoopOutcome::Stalled) loop, or to drive the order by hand without starting it.
    /// `turn_in_progress` if a turn has not ended.
    ///
    /// Visits the rest of the round, then (at the boundary: pending commanders join, priorities
    /// are recomputed, [`TurnEvent::RoundStarted`]) at most one whole new round: commanders that
    /// can't act are skipped with [`TurnEvent::CommanderSkipped`], and if nobody in that round can,
    /// the loop stops at the next boundary with [`TurnEvent::TurnOrderStalled`] — it never spins.
    /// With no commander at all it returns [`Idle`](LoopOutcome::Idle) and changes nothing.
    pub fn advance_loop<G>(&mut self, signals: &mut G) -> Result<LoopOutcome, TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.run(signals, |t, g| {
            if t.state.clock.in_progress {
                return Err(TurnError::TurnInProgress {
                    turn_index: t.state.clock.turn_index,
                });
            }
            t.advance_loop_inner(g, true)
        })
    }

    // ----- machinery ----------------------------------------------------------------------

    /// Runs one operation: refuses after a fault; at the top level, settles the loop afterwards.
    fn run<G, R>(
        &mut self,
        signals: &mut G,
        op: impl FnOnce(&mut Self, &mut G) -> Result<R, TurnError>,
    ) -> Result<R, TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.check_fault()?;
        let outermost = self.depth == 0;
        if outermost {
            self.activations = 0;
        }
        let result = op(self, signals);
        if outermost && self.fault.is_none() {
            let settled = self.settle(signals);
            if result.is_ok() {
                settled?;
            }
        }
        self.check_fault()?;
        result
    }

    fn check_fault(&self) -> Result<(), TurnError> {
        match &self.fault {
            Some(fault) => Err(fault.clone()),
            None => Ok(()),
        }
    }

    fn fail(&mut self, error: TurnError) -> TurnError {
        if self.fault.is_none() {
            self.fault = Some(error.clone());
        }
        error
    }

    /// Calls one signal one level deeper.
    fn signal<G>(
        &mut self,
        signals: &mut G,
        call: impl FnOnce(&mut G, &mut Self),
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        if self.depth >= MAX_SIGNAL_DEPTH {
            return Err(self.fail(TurnError::SignalDepthExceeded {
                limit: MAX_SIGNAL_DEPTH,
            }));
        }
        self.depth += 1;
        call(signals, self);
        self.depth -= 1;
        self.check_fault()
    }

    /// Counts a turn beginning against the per-operation limit.
    fn count_activation(&mut self) -> Result<(), TurnError> {
        if self.activations >= MAX_ACTIVATIONS_PER_OPERATION {
            return Err(self.fail(TurnError::ActivationLimitExceeded {
                limit: MAX_ACTIVATIONS_PER_OPERATION,
            }));
        }
        self.activations += 1;
        Ok(())
    }

    /// After a turn ended with the loop running and no turn in progress: the next activation.
    /// Iterative, so a chain of turns ending at once never deepens the stack.
    fn settle<G>(&mut self, signals: &mut G) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        while std::mem::take(&mut self.follow_up) {
            if self.state.order.running && !self.state.clock.in_progress {
                self.advance_loop_inner(signals, false)?;
            }
        }
        Ok(())
    }

    fn advance_to_inner<G>(&mut self, signals: &mut G, tick: Tick) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        if self.depth > 0 {
            return Err(TurnError::NestedClockAdvance);
        }
        let last_tick = self.state.clock.last_tick;
        if tick < last_tick {
            return Err(TurnError::TickWentBackwards { last_tick, tick });
        }
        while let Some(deadline) = self.state.clock.deadline_tick(self.configs)? {
            if deadline > tick {
                break;
            }
            let clock = &mut self.state.clock;
            let elapsed = deadline - clock.last_tick;
            clock.current.ticks = clock.current.ticks.saturating_add(saturate_u32(elapsed));
            clock.last_tick = deadline;
            self.end_turn_inner(signals, TurnEndReason::Time)?;
            self.settle(signals)?;
        }
        let running = self.state.clock.timer_running(self.configs)?;
        let clock = &mut self.state.clock;
        if running {
            let elapsed = tick - clock.last_tick;
            clock.current.ticks = clock.current.ticks.saturating_add(saturate_u32(elapsed));
        }
        clock.last_tick = tick;
        Ok(())
    }

    fn step_inner<G>(&mut self, signals: &mut G) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        if self.depth > 0 {
            return Err(TurnError::NestedClockAdvance);
        }
        let duration = self
            .state
            .clock
            .timed_config(self.configs)?
            .map(|c| c.turn_duration_ticks);
        let clock = &mut self.state.clock;
        clock.last_tick = clock.last_tick.saturating_add(1);
        if let Some(duration) = duration {
            clock.current.ticks = clock.current.ticks.saturating_add(1);
            if clock.current.ticks >= duration {
                self.end_turn_inner(signals, TurnEndReason::Time)?;
                self.settle(signals)?;
            }
        }
        Ok(())
    }

    fn timeout_inner<G>(
        &mut self,
        signals: &mut G,
        turn_index: u64,
        tick: Tick,
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        let clock = &self.state.clock;
        clock.check_timeout(turn_index)?;
        if tick < clock.last_tick {
            return Err(TurnError::TickWentBackwards {
                last_tick: clock.last_tick,
                tick,
            });
        }
        let deadline_tick = clock.deadline_tick(self.configs)?;
        if deadline_tick.is_none_or(|deadline| deadline > tick) {
            return Err(TurnError::TimeoutNotDue {
                turn_index,
                tick,
                deadline_tick,
            });
        }
        self.advance_to_inner(signals, tick)
    }

    fn resume_inner<G>(
        &mut self,
        signals: &mut G,
        last_heartbeat_tick: Tick,
        takeover_tick: Tick,
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        if self.depth > 0 {
            return Err(TurnError::NestedClockAdvance);
        }
        if takeover_tick < last_heartbeat_tick {
            return Err(TurnError::ResumeBeforeHeartbeat {
                last_heartbeat_tick,
                takeover_tick,
            });
        }
        let last_tick = self.state.clock.last_tick;
        if takeover_tick < last_tick {
            return Err(TurnError::TickWentBackwards {
                last_tick,
                tick: takeover_tick,
            });
        }
        let outage_start_tick = last_heartbeat_tick.max(last_tick);
        self.advance_to_inner(signals, outage_start_tick)?;
        let shift_ticks = takeover_tick - outage_start_tick;
        let clock = &mut self.state.clock;
        clock.last_tick = takeover_tick;
        clock.paused_ticks = clock.paused_ticks.saturating_add(shift_ticks);
        self.events.record(TurnEvent::ClockResumed {
            outage_start_tick,
            takeover_tick,
            shift_ticks,
        });
        Ok(())
    }

    fn play_inner<G>(&mut self, signals: &mut G, seat: Seat, data: P) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.state.check_play(seat)?;
        self.events
            .record_signal(|| TurnEvent::PlayCommandReceived {
                seat,
                data: data.clone(),
            });
        self.set_status_inner(signals, TurnStatus::Resolving)?;
        self.signal(signals, |g, t| g.on_play_command(t, seat, &data))
    }

    fn skip_inner<G>(&mut self, signals: &mut G, seat: Seat, data: S) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        self.state.check_skip(self.configs, seat)?;
        self.events
            .record_signal(|| TurnEvent::SkipCommandReceived {
                seat,
                data: data.clone(),
            });
        let turn_index = self.state.clock.turn_index;
        self.signal(signals, |g, t| g.on_skip_command(t, seat, &data))?;
        let clock = &self.state.clock;
        if clock.in_progress && clock.turn_index == turn_index {
            self.end_turn_inner(signals, TurnEndReason::Skip)?;
        }
        Ok(())
    }

    fn resolve_inner<G>(&mut self, signals: &mut G) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        let clock = &self.state.clock;
        if !clock.in_progress {
            return Err(TurnError::NoTurnInProgress);
        }
        if clock.current.status != TurnStatus::Resolving {
            return Err(TurnError::NotResolving);
        }
        self.end_turn_inner(signals, TurnEndReason::Resolved)
    }

    fn end_turn_inner<G>(&mut self, signals: &mut G, reason: TurnEndReason) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        if !self.state.clock.in_progress {
            return Err(TurnError::NoTurnInProgress);
        }
        self.close_turn(&reason);
        // The signal gets the turn as it ended, while the handle it holds may begin the next.
        let ended = self.state.clock.current.clone();
        self.signal(signals, |g, t| g.on_turn_ended(t, &ended, &reason))
    }

    /// Ends the turn in progress with `reason`, all but the signal: `Inactive`, folded into its
    /// seat's data, the seat's run of timeouts counted or broken, [`TurnEvent::TurnEnded`],
    /// nobody acting, and a follow-up activation due if the loop runs.
    fn close_turn(&mut self, reason: &TurnEndReason) {
        let clock = &mut self.state.clock;
        clock.in_progress = false;
        clock
            .current
            .set_status(TurnStatus::Inactive, &mut self.events);
        let ended = &clock.current;
        if let Some(seat) = ended.player {
            if let Some(data) = clock.seats.get_mut(&seat) {
                data.accumulate(ended);
            }
            if matches!(reason, TurnEndReason::Time) {
                let count = clock.timeouts_in_a_row.entry(seat).or_insert(0);
                *count = count.saturating_add(1);
            } else if !clock.timeouts_in_a_row.is_empty() {
                // (Empty in every match whose turns never time out: nothing to look up.)
                clock.timeouts_in_a_row.remove(&seat);
            }
        }
        self.events.record(TurnEvent::TurnEnded {
            turn_index: clock.turn_index,
            player: ended.player,
            entity: ended.entity,
            reason: reason.clone(),
            ticks: ended.ticks,
        });
        self.state.order.acting = None;
        if self.state.order.running {
            self.follow_up = true;
        }
    }

    fn begin_inner<G>(&mut self, signals: &mut G, reset: ResetTurn) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        if self.state.clock.in_progress {
            return Err(TurnError::TurnInProgress {
                turn_index: self.state.clock.turn_index,
            });
        }
        self.reset_inner(signals, reset.with_status(TurnStatus::Active))
    }

    fn reset_inner<G>(&mut self, signals: &mut G, mut reset: ResetTurn) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        if let Some(Some(id)) = &reset.config {
            self.configs.resolve(id)?;
        }
        if let Some(Some(seat)) = reset.player {
            if !self.state.clock.seats.contains_key(&seat) {
                return Err(TurnError::UnknownSeat { seat });
            }
        }
        let status = reset.status.take();
        let in_progress = self.state.clock.in_progress;
        if status == Some(TurnStatus::Resolving) && !in_progress {
            return Err(TurnError::NoTurnInProgress);
        }
        let opening = status == Some(TurnStatus::Active) && !in_progress;
        if opening {
            self.count_activation()?;
        }
        self.state.clock.current.reset(reset, &mut self.events);
        match status {
            Some(status) => self.apply_status(signals, status, opening),
            None => Ok(()),
        }
    }

    fn set_status_inner<G>(&mut self, signals: &mut G, status: TurnStatus) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        let clock = &self.state.clock;
        if clock.current.status == status {
            return Ok(());
        }
        if status == TurnStatus::Resolving && !clock.in_progress {
            return Err(TurnError::NoTurnInProgress);
        }
        let opening = status == TurnStatus::Active && !clock.in_progress;
        if opening {
            self.count_activation()?;
        }
        self.apply_status(signals, status, opening)
    }

    /// Sets the status; when `opening`, the turn begins: index raised, `TurnBegan`, signal.
    fn apply_status<G>(
        &mut self,
        signals: &mut G,
        status: TurnStatus,
        opening: bool,
    ) -> Result<(), TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        let clock = &mut self.state.clock;
        clock.current.set_status(status, &mut self.events);
        if !opening {
            return Ok(());
        }
        clock.turn_index = clock.turn_index.saturating_add(1);
        clock.in_progress = true;
        self.events.record(TurnEvent::TurnBegan {
            turn_index: clock.turn_index,
            player: clock.current.player,
            entity: clock.current.entity,
        });
        self.signal(signals, |g, t| g.on_turn_began(t))
    }

    /// The next activation. `report`: whether the caller returns the outcome (the public
    /// operations) or drops it (`settle`): only then is the commander's id copied for it, an
    /// atomic reference count on every turn otherwise (the acting commander takes the id itself).
    fn advance_loop_inner<G>(
        &mut self,
        signals: &mut G,
        report: bool,
    ) -> Result<LoopOutcome, TurnError>
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        let mut fresh_round = false;
        loop {
            if self.state.order.remaining.is_empty() {
                let order = &mut self.state.order;
                if fresh_round {
                    self.events
                        .record(TurnEvent::TurnOrderStalled { round: order.round });
                    return Ok(LoopOutcome::Stalled { round: order.round });
                }
                let round = order.round.saturating_add(1);
                for commander in order.join_pending() {
                    self.events
                        .record(TurnEvent::CommanderJoined { commander, round });
                }
                if order.registered.is_empty() {
                    return Ok(LoopOutcome::Idle);
                }
                order.round = round;
                self.events.record(TurnEvent::RoundStarted { round });
                if order.recompute_at != RecomputeAt::Never {
                    self.recompute_priorities(signals);
                }
                let order = &mut self.state.order;
                order.remaining = order
                    .registered
                    .iter()
                    .map(|r| r.commander.id.clone())
                    .collect();
                order.sort_remaining();
                fresh_round = true;
            } else if self.state.order.recompute_at == RecomputeAt::EveryActivation {
                self.recompute_priorities(signals);
                self.state.order.sort_remaining();
            }
            let id = self.state.order.remaining.remove(0);
            let Some(commander) = self.state.order.find_registered(&id) else {
                continue;
            };
            if let Err(reason) = signals.can_act(commander) {
                self.events.record(TurnEvent::CommanderSkipped {
                    commander: id,
                    reason,
                });
                continue;
            }
            let mut reset = ResetTurn::new()
                .with_player(commander.seat)
                .with_entity(commander.entity)
                .with_type(TurnType::Play);
            // A turn that keeps its config (every turn of a match whose commanders share one)
            // is not given it again: the copy would only count a reference up and the old one
            // down, and its check could not fail — the id resolved when it became the turn's
            // config, under the same pinned configs (or when a stored state was verified).
            if self.state.clock.current.config != commander.config {
                reset = reset.with_config(commander.config.clone());
            }
            let reported = report.then(|| id.clone());
            self.state.order.acting = Some(id);
            if let Err(error) = self.begin_inner(signals, reset) {
                if !self.state.clock.in_progress {
                    self.state.order.acting = None;
                }
                return Err(error);
            }
            return Ok(match reported {
                Some(commander) => LoopOutcome::Activated { commander },
                // Never read: `settle` drops the outcome.
                None => LoopOutcome::Waiting,
            });
        }
    }

    fn recompute_priorities<G>(&mut self, signals: &mut G)
    where
        G: TurnSignals<P, S, K> + ?Sized,
    {
        // Ask first, change after: the registered commanders are shared between copies of the
        // state and are copied only if a priority really changes.
        let changed: Vec<(usize, i32)> = (self.state.order.registered.iter().enumerate())
            .filter_map(|(i, r)| {
                let priority = signals.recompute_priority(&r.commander);
                (priority != r.commander.priority).then_some((i, priority))
            })
            .collect();
        if changed.is_empty() {
            return;
        }
        let registered = std::sync::Arc::make_mut(&mut self.state.order.registered);
        for (i, priority) in changed {
            let commander = &mut registered[i].commander;
            self.events.record(TurnEvent::CommanderPriorityChanged {
                commander: commander.id.clone(),
                previous: commander.priority,
                current: priority,
            });
            commander.priority = priority;
        }
    }
}

/// The signals [`Turns::play_at_once`] stands for, for its one nested call: `on_play_command`
/// carries the move out, stops the loop if the match is over and ends the turn with `Play`;
/// every other signal is the default.
struct AtOnce<F>(Option<F>);

impl<P, S, K, F> TurnSignals<P, S, K> for AtOnce<F>
where
    P: Clone,
    S: Clone,
    K: TurnEventSink<P, S>,
    F: FnOnce(&mut K) -> bool,
{
    fn on_play_command(&mut self, turns: &mut Turns<'_, P, S, K>, _seat: Seat, _data: &P) {
        if let Some(carry_out) = self.0.take() {
            if carry_out(turns.sink()) {
                // Only a fault already raised can make these fail; `play` then fails with it.
                let _ = turns.stop_loop();
            }
        }
        let _ = turns.end_turn(self, TurnEndReason::Play);
    }
}

fn saturate_u32(ticks: u64) -> u32 {
    u32::try_from(ticks).unwrap_or(u32::MAX)
}
