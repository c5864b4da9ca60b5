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
use crate::event::{KitEvent, MatchResult};
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
    if state.result.is_some() {
        return Err(KitError::MatchOver);
    }
    let mut next = state.clone();
    let KitState {
        board,
        turns,
        result,
        ..
    } = &mut next;
    let mut referee = Referee::<G> {
        board,
        result,
        target: None,
        // A move makes about ten events; room for them up front.
        events: Vec::with_capacity(16),
        game_events: Vec::new(),
    };
    let mut handle = turns.turns::<G::Move, ()>(&rules.turn_configs);
    referee.apply(&mut handle, ctx, action)?;
    referee.flush(&mut handle);
    let events = referee.events;
    next.deadline_tick = deadline(&next.turns, rules);
    Ok(KitPlan {
        state: next,
        events,
    })
}

/// The game logic behind the turn framework's signals for one command.
struct Referee<'a, G: KitGame> {
    board: &'a mut G::Board,
    result: &'a mut Option<MatchResult<G::Win>>,
    /// What the `Play` being applied will do, found before the framework accepts it.
    target: Option<G::Target>,
    /// Every event so far, game and turn events interleaved in the order they happened.
    events: Vec<KitEvent<G>>,
    /// The game's events of the move being applied, before they join `events`.
    game_events: Vec<G::Event>,
}

type Handle<'t, G> = Turns<'t, <G as KitGame>::Move, ()>;

impl<G: KitGame> Referee<'_, G> {
    fn apply(
        &mut self,
        turns: &mut Handle<'_, G>,
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
                self.target = Some(G::check(self.board, seat, mv).map_err(KitError::Game)?);
                turns.play(self, seat, mv.clone())?;
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
        turns: &mut Handle<'_, G>,
        ctx: CommandContext,
    ) -> Result<Seat, KitError<G::Error>> {
        // An untimed match keeps no tick in its state: the tick decides nothing there, and
        // leaving it out makes a preview's state fingerprint the commit's (docs/turns.md).
        if turns.state().can_time_out(turns.configs()) {
            turns.advance_to(self, ctx.tick)?;
        }
        if self.result.is_some() {
            // The clock ran out on a seat due to forfeit: the match ended before this command.
            return Err(KitError::MatchOver);
        }
        ctx.seat.ok_or(KitError::SeatRequired)
    }

    /// Moves the framework's events so far into the list, keeping the order of events.
    fn flush(&mut self, turns: &mut Handle<'_, G>) {
        self.events
            .extend(turns.drain_events().map(|event| KitEvent::Turn { event }));
    }

    /// Ends the match: records the result and stops the turn loop, so no further turn begins.
    fn finish(&mut self, turns: &mut Handle<'_, G>, result: MatchResult<G::Win>) {
        *self.result = Some(result.clone());
        self.flush(turns);
        self.events.push(KitEvent::match_ended(result));
        // Only a fault already raised can make this fail; the command then fails with it.
        let _ = turns.stop_loop();
    }
}

impl<G: KitGame> TurnSignals<G::Move, ()> for Referee<'_, G> {
    /// Carries the move out, ends the match when the game says so, and ends the turn with
    /// `Play`: a move is complete at once.
    fn on_play_command(&mut self, turns: &mut Handle<'_, G>, seat: Seat, _: &G::Move) {
        if let Some(target) = self.target.take() {
            let won = G::apply(self.board, seat, target, &mut self.game_events);
            self.flush(turns);
            self.events
                .extend(self.game_events.drain(..).map(KitEvent::Game));
            if let Some(win) = won {
                self.finish(turns, MatchResult::Game(win));
            }
        }
        // A failure here is a sticky fault of the handle; the command fails with it.
        let _ = turns.end_turn(self, TurnEndReason::Play);
    }

    /// A seat whose turns timed out `forfeitAfterTimeouts` times in a row forfeits. Otherwise
    /// the running turn order passes the turn to the other seat by itself.
    fn on_turn_ended(
        &mut self,
        turns: &mut Handle<'_, G>,
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
