//! Judging one command: time first, then the turn framework, then the board — on a copy, so a
//! rejection leaves the match untouched.
//!
//! [`judge`] is all of `Game::check`. It clones the state, advances the turn clock to the
//! envelope's tick (a turn whose deadline is at or before it ends with `Time` first, and the
//! command is judged after that), applies the command through the turn framework with a
//! [`Referee`] as the game logic behind the framework's signals, and returns the new state with
//! every event in the order it happened. `Game::commit` then only swaps the state in.

use turnstile_core::{CommandContext, Seat, Tick};
use turnstile_turns::{MatchTurns, TurnData, TurnEndReason, TurnSignals, Turns};

use crate::mnk::board::{Board, Cell};
use crate::mnk::content::Rules;
use crate::mnk::error::RuleError;
use crate::mnk::game::{Command, MatchResult, MnkEvent, MnkPlan, MnkState, Variant};

/// The end reason of a turn cut short by its owner's resignation.
pub const RESIGNED: &str = "resigned";

/// The current turn's deadline under the pinned turn configs.
pub(crate) fn deadline(turns: &MatchTurns, rules: &Rules) -> Option<Tick> {
    turns
        .clock()
        .deadline_tick(&rules.turn_configs)
        .ok()
        .flatten()
}

/// Judges `command` against `state`: the plan (new state and events) or why not.
pub(crate) fn judge<V: Variant>(
    rules: &Rules,
    state: &MnkState,
    ctx: CommandContext,
    command: Command<V::Move>,
) -> Result<MnkPlan<V::Move>, RuleError> {
    if state.result.is_some() {
        return Err(RuleError::MatchOver);
    }
    let mut next = state.clone();
    let MnkState {
        board,
        turns,
        result,
        ..
    } = &mut next;
    let mut referee = Referee::<V> {
        board,
        result,
        landing: None,
        // A move makes about ten events; room for them up front.
        events: Vec::with_capacity(16),
    };
    let mut handle = turns.turns::<V::Move, ()>(&rules.turn_configs);
    referee.apply(&mut handle, ctx, command)?;
    referee.flush(&mut handle);
    let events = referee.events;
    next.deadline_tick = deadline(&next.turns, rules);
    Ok(MnkPlan {
        state: next,
        events,
    })
}

/// The game logic behind the turn framework's signals for one command.
struct Referee<'a, V: Variant> {
    board: &'a mut Board,
    result: &'a mut Option<MatchResult>,
    /// Where the `Play` being applied puts its piece, found before the framework accepts it.
    landing: Option<Cell>,
    /// Every event so far, game and turn events interleaved in the order they happened.
    events: Vec<MnkEvent<V::Move>>,
}

type Handle<'t, V> = Turns<'t, <V as Variant>::Move, ()>;

impl<V: Variant> Referee<'_, V> {
    fn apply(
        &mut self,
        turns: &mut Handle<'_, V>,
        ctx: CommandContext,
        command: Command<V::Move>,
    ) -> Result<(), RuleError> {
        match command {
            // A Timeout is checked before the clock moves: it must name the turn that is
            // running, and its own advance records that turn's `Time` end.
            Command::Timeout { turn_index } => turns.timeout(self, turn_index, ctx.tick)?,
            // Also before the clock moves: the clock must not count the outage, so it may only
            // advance to the outage's start, which `resume_clock` does itself.
            Command::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => turns.resume_clock(self, last_heartbeat_tick, takeover_tick)?,
            Command::Play(mv) => {
                let seat = self.advance(turns, ctx)?;
                turns.state().check_play(seat)?;
                self.landing = Some(V::target(self.board, &mv)?);
                turns.play(self, seat, mv)?;
            }
            Command::Skip => {
                let seat = self.advance(turns, ctx)?;
                turns.skip(self, seat, ())?;
            }
            Command::Resign => {
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
        turns: &mut Handle<'_, V>,
        ctx: CommandContext,
    ) -> Result<Seat, RuleError> {
        turns.advance_to(self, ctx.tick)?;
        if self.result.is_some() {
            // The clock ran out on a seat due to forfeit: the match ended before this command.
            return Err(RuleError::MatchOver);
        }
        ctx.seat.ok_or(RuleError::SeatRequired)
    }

    /// Moves the framework's events so far into the list, keeping the order of events.
    fn flush(&mut self, turns: &mut Handle<'_, V>) {
        self.events
            .extend(turns.drain_events().map(|event| MnkEvent::Turn { event }));
    }

    fn record(&mut self, turns: &mut Handle<'_, V>, event: MnkEvent<V::Move>) {
        self.flush(turns);
        self.events.push(event);
    }

    /// Ends the match: records the result and stops the turn loop, so no further turn begins.
    fn finish(&mut self, turns: &mut Handle<'_, V>, result: MatchResult) {
        *self.result = Some(result.clone());
        self.record(turns, MnkEvent::match_ended(result));
        // Only a fault already raised can make this fail; the command then fails with it.
        let _ = turns.stop_loop();
    }
}

impl<V: Variant> TurnSignals<V::Move, ()> for Referee<'_, V> {
    /// Places the piece, ends the match on a line or a full board, and ends the turn with
    /// `Play`: a move is complete at once.
    fn on_play_command(&mut self, turns: &mut Handle<'_, V>, seat: Seat, _: &V::Move) {
        if let Some(cell) = self.landing.take() {
            self.board.place(cell, seat);
            self.record(
                turns,
                MnkEvent::PiecePlaced {
                    seat,
                    column: cell.column,
                    row: cell.row,
                },
            );
            if let Some(line) = self.board.line_through(cell, V::LINE) {
                self.finish(turns, MatchResult::Won { seat, line });
            } else if self.board.is_full() {
                self.finish(turns, MatchResult::Draw);
            }
        }
        // A failure here is a sticky fault of the handle; the command fails with it.
        let _ = turns.end_turn(self, TurnEndReason::Play);
    }

    /// A seat whose turns timed out `forfeitAfterTimeouts` times in a row forfeits. Otherwise
    /// the running turn order passes the turn to the other seat by itself.
    fn on_turn_ended(
        &mut self,
        turns: &mut Handle<'_, V>,
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
