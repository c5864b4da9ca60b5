//! Judging one command: time first, then the turn framework, then the game — on a copy, so a
//! rejection leaves the match untouched.
//!
//! [`judge`] is all of `Game::check`. It clones the state, advances the turn clock to the
//! envelope's tick (a turn whose deadline is at or before it ends with `Time` first, and the
//! command is judged after that), applies the command through the turn framework with a
//! [`Referee`] as the game logic behind the framework's signals, and returns the new state with
//! every event in the order it happened. `Game::commit` then only swaps the state in.

use turnstile_core::{CommandContext, Seat, Tick};
use turnstile_turns::{MatchTurns, TurnData, TurnEndReason, TurnSignals, Turns};

use crate::action::Action;
use crate::content::Rules;
use crate::error::KitError;
use crate::event::{GameEvents, KitEvent, MatchResult};
use crate::state::KitState;
use crate::KitGame;

/// The end reason of a turn cut short by its owner's resignation.
pub const RESIGNED: &str = "resigned";

/// A checked action: the state after it and what happened, ready to commit.
#[derive(Debug, Clone)]
pub struct KitPlan<G: KitGame> {
    pub(crate) state: KitState<G>,
    pub(crate) events: Vec<KitEvent<G>>,
}

/// The current turn's deadline under the pinned turn configs.
pub(crate) fn deadline(turns: &MatchTurns, rules: &Rules) -> Option<Tick> {
    turns
        .clock()
        .deadline_tick(&rules.turn_configs)
        .ok()
        .flatten()
}

/// Judges `action` against `state`: the plan (new state and events) or why not.
pub(crate) fn judge<G: KitGame>(
    rules: &Rules,
    state: &KitState<G>,
    ctx: CommandContext,
    action: &Action<G>,
) -> Result<KitPlan<G>, KitError<G::Error>> {
    // A move makes about ten events; room for them up front.
    let mut events = Vec::with_capacity(16);
    let state = judge_into(rules, state, ctx, action, &mut events)?;
    Ok(KitPlan { state, events })
}

/// Judges `action` against `state` on a copy, recording every event into `events` as it
/// happens (game and turn events interleaved, in order): the state after it, or why not — and
/// then `events` is as it was.
pub(crate) fn judge_into<G: KitGame>(
    rules: &Rules,
    state: &KitState<G>,
    ctx: CommandContext,
    action: &Action<G>,
    events: &mut Vec<KitEvent<G>>,
) -> Result<KitState<G>, KitError<G::Error>> {
    if state.result.is_some() {
        return Err(KitError::MatchOver);
    }
    let recorded = events.len();
    let clock_runs = state.turns.can_time_out(&rules.turn_configs);
    let mut next = state.clone();
    match play_on(rules, &mut next, clock_runs, ctx, action, events, true) {
        Ok(()) => Ok(next),
        Err(e) => {
            events.truncate(recorded);
            Err(e)
        }
    }
}

/// [`judge_into`], carried out on `state` itself: the copy kept is the state before, put back
/// if the command is refused — the same one copy, and no moving the judged state into place.
/// With `keep_signals` false the turn framework makes no signals (`Game::apply_lean`); the
/// rest is the same.
pub(crate) fn apply_in_place<G: KitGame>(
    rules: &Rules,
    state: &mut KitState<G>,
    ctx: CommandContext,
    action: &Action<G>,
    events: &mut Vec<KitEvent<G>>,
    keep_signals: bool,
) -> Result<(), KitError<G::Error>> {
    if state.result.is_some() {
        return Err(KitError::MatchOver);
    }
    let recorded = events.len();
    let clock_runs = state.turns.can_time_out(&rules.turn_configs);
    if plays_untimed(clock_runs, state, action) {
        // Nothing to put back: see `plays_untimed`.
        return play_on(rules, state, clock_runs, ctx, action, events, keep_signals).inspect_err(
            |_| {
                events.truncate(recorded);
            },
        );
    }
    let before = state.clone();
    play_on(rules, state, clock_runs, ctx, action, events, keep_signals).inspect_err(|_| {
        *state = before;
        events.truncate(recorded);
    })
}

/// Whether `action` is a `Play` in a match whose clock can't run out (`clock_runs` is false),
/// while a turn is in progress: the common move, which needs no copy of the state to be refused safely.
///
/// Why. With no timer anywhere, the clock does not advance, so every refusal of a `Play` comes
/// before anything changes: the seat is required, the turn must be the seat's `Play` turn
/// (`check_play`), and the game's `check` must pass. After them each step is one that cannot
/// fail: the turn in progress becomes `Resolving` and ends with `Play` (it is in progress), the
/// game's `apply` cannot fail, and the next commander's turn begins — one activation, signals
/// three deep, and its config resolves, since `can_time_out` answered `false` only after
/// resolving the config of the current turn and of every commander. The test driver checks
/// every game's `apply` against check-then-commit on refusals too, on timed and untimed
/// configs.
fn plays_untimed<G: KitGame>(clock_runs: bool, state: &KitState<G>, action: &Action<G>) -> bool {
    !clock_runs && matches!(action, Action::Play(_)) && state.turns.clock().turn_in_progress()
}

/// Runs `action` through the turn framework on `state`, which it changes as it goes: on a
/// refusal `state` and `events` may be half-changed, so callers work on a copy or keep one.
///
/// `clock_runs` is `state.turns.can_time_out(..)` of the state before the command, asked once by
/// the caller: the clock advances to the command's tick only then. A kit match keeps its two
/// commanders and their configs from setup on, so a clock that can't run before the command
/// can't after it either, and the deadline stays none.
fn play_on<G: KitGame>(
    rules: &Rules,
    state: &mut KitState<G>,
    clock_runs: bool,
    ctx: CommandContext,
    action: &Action<G>,
    events: &mut Vec<KitEvent<G>>,
    keep_signals: bool,
) -> Result<(), KitError<G::Error>> {
    let KitState {
        board,
        turns,
        result,
        ..
    } = state;
    let mut referee = Referee::<G> {
        board,
        result,
        clock_runs,
    };
    let mut handle = turns
        .turns_into::<G::Move, (), _>(&rules.turn_configs, GameEvents::new(events, keep_signals));
    referee.apply(&mut handle, ctx, action)?;
    drop(handle);
    state.deadline_tick = if clock_runs {
        deadline(&state.turns, rules)
    } else {
        None
    };
    Ok(())
}

/// The game logic behind the turn framework's signals for one command. Its events go where the
/// handle records the framework's ([`GameEvents`]), so both are in the order they happened.
struct Referee<'a, G: KitGame> {
    board: &'a mut G::Board,
    result: &'a mut Option<MatchResult<G::Win>>,
    /// Whether any turn of the match can time out (`MatchTurns::can_time_out` before the
    /// command): only then does the clock advance to the command's tick.
    clock_runs: bool,
}

type Handle<'t, 'e, G> = Turns<'t, <G as KitGame>::Move, (), GameEvents<'e, G>>;

impl<G: KitGame> Referee<'_, G> {
    fn apply(
        &mut self,
        turns: &mut Handle<'_, '_, G>,
        ctx: CommandContext,
        action: &Action<G>,
    ) -> Result<(), KitError<G::Error>> {
        match action {
            // A Timeout is checked before the clock moves: it must name the turn that is
            // running, and its own advance records that turn's `Time` end.
            Action::Timeout { turn_index } => turns.timeout(self, *turn_index, ctx.tick)?,
            // Also before the clock moves: the clock must not count the outage, so it may only
            // advance to the outage's start, which `resume_clock` does itself.
            Action::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => turns.resume_clock(self, *last_heartbeat_tick, *takeover_tick)?,
            Action::Play(mv) => {
                let seat = self.advance(turns, ctx)?;
                turns.state().check_play(seat)?;
                let target = G::check(self.board, seat, mv).map_err(KitError::Game)?;
                // The move is complete at once, and the referee's signals do nothing for a
                // turn that ends with `Play`: the turn framework's one-step path, the same
                // transition as `play` under signals that carry the move out and end the turn
                // (`Turns::play_at_once`; crates/turns/tests/play_at_once.rs holds them equal).
                let (board, result) = (&mut *self.board, &mut *self.result);
                turns.play_at_once(seat, mv, |sink| match G::apply(board, seat, target, sink) {
                    Some(win) => {
                        Self::record_result(result, sink, MatchResult::Game(win));
                        true
                    }
                    None => false,
                })?;
            }
            Action::Skip => {
                let seat = self.advance(turns, ctx)?;
                turns.skip(self, seat, ())?;
            }
            Action::Resign => {
                let seat = self.advance(turns, ctx)?;
                self.finish(turns, MatchResult::Resigned { seat });
                if turns.clock().turn_in_progress() {
                    turns.end_turn(self, TurnEndReason::Custom(RESIGNED.into()))?;
                }
            }
        }
        Ok(())
    }

    /// Runs the clock up to the command's tick, before a seat's command is judged; returns the
    /// seat.
    fn advance(
        &mut self,
        turns: &mut Handle<'_, '_, G>,
        ctx: CommandContext,
    ) -> Result<Seat, KitError<G::Error>> {
        // An untimed match keeps no tick in its state: the tick decides nothing there, and
        // leaving it out makes a preview's state fingerprint the commit's (docs/turns.md).
        if self.clock_runs {
            turns.advance_to(self, ctx.tick)?;
        }
        if self.result.is_some() {
            // The clock ran out on a seat due to forfeit: the match ended before this command.
            return Err(KitError::MatchOver);
        }
        ctx.seat.ok_or(KitError::SeatRequired)
    }

    /// Ends the match: records the result and stops the turn loop, so no further turn begins.
    fn finish(&mut self, turns: &mut Handle<'_, '_, G>, result: MatchResult<G::Win>) {
        Self::record_result(self.result, turns.sink(), result);
        // Only a fault already raised can make this fail; the command then fails with it.
        let _ = turns.stop_loop();
    }

    /// The match's result, kept in the state and recorded as its end (the stop of the loop is
    /// the caller's).
    fn record_result(
        slot: &mut Option<MatchResult<G::Win>>,
        sink: &mut GameEvents<'_, G>,
        result: MatchResult<G::Win>,
    ) {
        *slot = Some(result.clone());
        sink.record_end(result);
    }
}

impl<'e, G: KitGame> TurnSignals<G::Move, (), GameEvents<'e, G>> for Referee<'_, G> {
    /// A seat whose turns timed out `forfeitAfterTimeouts` times in a row forfeits. Otherwise
    /// the running turn order passes the turn to the other seat by itself.
    fn on_turn_ended(
        &mut self,
        turns: &mut Handle<'_, '_, G>,
        turn: &TurnData,
        reason: &TurnEndReason,
    ) {
        if *reason != TurnEndReason::Time || self.result.is_some() || !turns.forfeit_due(turn) {
            return;
        }
        if let Some(seat) = turn.player {
            let timeouts = turns.clock().timeouts_in_a_row(seat);
            self.finish(turns, MatchResult::Forfeited { seat, timeouts });
        }
    }
}
