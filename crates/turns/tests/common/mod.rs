//! Shared fixtures for the integration tests: configs, a recording game, small helpers.
#![allow(dead_code)]

use turnstile_core::Seat;
use turnstile_turns::{
    Commander, MatchTurns, ResetTurn, SkipReason, TurnConfig, TurnConfigId, TurnConfigs, TurnData,
    TurnEndReason, TurnSignals, Turns,
};

/// `timed` (10 ticks), `skippable` (10 ticks, skippable), `untimed` (no timer, skippable),
/// `forfeit` (3 ticks, forfeit after 2 timeouts), `short` (1 tick).
pub fn configs() -> TurnConfigs {
    TurnConfigs::new()
        .with(id("timed"), TurnConfig::timed(10))
        .with(id("skippable"), TurnConfig::timed(10).skippable())
        .with(
            id("untimed"),
            TurnConfig {
                uses_timer: false,
                turn_duration_ticks: 5,
                is_skippable: true,
                forfeit_after_timeouts: None,
            },
        )
        .with(
            id("forfeit"),
            TurnConfig {
                forfeit_after_timeouts: Some(2),
                ..TurnConfig::timed(3)
            },
        )
        .with(id("short"), TurnConfig::timed(1))
}

pub fn id(name: &str) -> TurnConfigId {
    TurnConfigId::new(name)
}

pub fn two_seats() -> MatchTurns {
    MatchTurns::new([Seat(0), Seat(1)])
}

/// A reset that begins a turn for `seat` with `config`.
pub fn turn_for(seat: u16, config: Option<&str>) -> ResetTurn {
    ResetTurn::new()
        .with_player(Some(Seat(seat)))
        .with_config(config.map(id))
}

/// A game that records every signal and can be told how to react.
#[derive(Debug, Default, Clone)]
pub struct Recorder {
    /// Every signal, as a line.
    pub log: Vec<String>,
    /// End a turn with `Play` as soon as a play is received.
    pub end_play_at_once: bool,
    /// Pass the turn round-robin among this many seats when a turn ends, with this config.
    pub pass_to_next: Option<(u16, Option<String>)>,
    /// Commanders that can't act, with why.
    pub refuse: Vec<(String, SkipReason)>,
    /// New priorities the game reports when asked.
    pub priorities: Vec<(String, i32)>,
    /// End every turn in `on_turn_began` (a game that keeps skipping).
    pub end_at_once: bool,
}

impl TurnSignals<u32, ()> for Recorder {
    fn on_turn_began(&mut self, turns: &mut Turns<'_, u32, ()>) {
        let clock = turns.clock();
        self.log.push(format!(
            "began {} {:?}",
            clock.turn_index(),
            clock.current().player.map(|s| s.0)
        ));
        if self.end_at_once {
            let _ = turns.end_turn(self, TurnEndReason::Custom("nothing to do".into()));
        }
    }

    fn on_turn_ended(
        &mut self,
        turns: &mut Turns<'_, u32, ()>,
        turn: &TurnData,
        reason: &TurnEndReason,
    ) {
        self.log.push(format!(
            "ended {} {:?} {:?}",
            turns.clock().turn_index(),
            turn.player.map(|s| s.0),
            reason
        ));
        if let Some((seats, config)) = self.pass_to_next.clone() {
            let next = turn.player.map_or(0, |s| (s.0 + 1) % seats);
            let _ = turns.begin_turn(self, turn_for(next, config.as_deref()));
        }
    }

    fn on_play_command(&mut self, turns: &mut Turns<'_, u32, ()>, seat: Seat, data: &u32) {
        self.log.push(format!("play {} {}", seat.0, data));
        if self.end_play_at_once {
            let _ = turns.end_turn(self, TurnEndReason::Play);
        }
    }

    fn on_skip_command(&mut self, _turns: &mut Turns<'_, u32, ()>, seat: Seat, _data: &()) {
        self.log.push(format!("skip {}", seat.0));
    }

    fn can_act(&mut self, commander: &Commander) -> Result<(), SkipReason> {
        match self
            .refuse
            .iter()
            .find(|(id, _)| id == commander.id.as_str())
        {
            Some((_, reason)) => Err(reason.clone()),
            None => Ok(()),
        }
    }

    fn recompute_priority(&mut self, commander: &Commander) -> i32 {
        self.priorities
            .iter()
            .find(|(id, _)| id == commander.id.as_str())
            .map_or(commander.priority, |(_, p)| *p)
    }
}
