//! Helpers shared by Duel's tests: the bundled content, states with chosen hands, a runtime
//! match driven by bots, and replay text.
#![allow(dead_code)]

use std::sync::Arc;

use turnstile_core::{
    CommandContext, CommandEnvelope, ContentBundle, Game, LegalActionResolver, MatchSetup, Seat,
};
use turnstile_duel::{
    bot, bundled, CardInstance, Duel, DuelAction, DuelConfig, DuelContent, DuelEvent, DuelState,
};
use turnstile_runtime::Bot;
use turnstile_runtime::{Match, MatchSpec, RandomBot, ReplayFile, SeatSpec};

pub const PRESETS: [&str; 3] = turnstile_duel::PRESETS;

pub fn bundle() -> Arc<ContentBundle<DuelContent>> {
    Arc::new(bundled().unwrap_or_else(|p| panic!("{p:?}")))
}

pub fn state(content: &DuelContent, preset: &str, seed: &str) -> DuelState {
    Duel::setup(
        content,
        MatchSetup {
            config: &DuelConfig::with_sequence(preset),
            seed,
            seats: 2,
        },
    )
    .unwrap()
}

/// Replaces `seat`'s hand with these cards (thing ids from 900) and gives it `mana`.
pub fn give(state: &mut DuelState, seat: u16, cards: &[&str], mana: i64) {
    let s = &mut state.seats[usize::from(seat)];
    s.hand = cards
        .iter()
        .enumerate()
        .map(|(i, c)| CardInstance {
            thing: 900 + u32::from(seat) * 50 + i as u32,
            card_id: (*c).to_owned(),
        })
        .collect();
    s.mana = mana;
}

pub fn ctx(seat: u16) -> CommandContext {
    CommandContext {
        seat: Some(Seat(seat)),
        tick: 0,
    }
}

pub fn apply(
    content: &DuelContent,
    state: &mut DuelState,
    seat: u16,
    action: DuelAction,
) -> Result<Vec<DuelEvent>, String> {
    LegalActionResolver::<Duel>::new(content, 2)
        .apply(state, ctx(seat), &action)
        .map_err(|e| e.code().to_owned())
}

pub fn play(hand: u16) -> DuelAction {
    DuelAction::PlayCard { hand }
}

pub fn spec(preset: &str, seed: &str) -> MatchSpec<DuelConfig> {
    MatchSpec {
        config: DuelConfig::with_sequence(preset),
        seed: seed.into(),
        seats: vec![SeatSpec::human(), SeatSpec::human()],
        tick_rate: 10,
    }
}

/// Whoever may act: the priority holder.
pub fn actor(state: &DuelState) -> Seat {
    state.priority.holder()
}

/// Plays a match to its end with a random bot for seat 0 and the greedy bot for seat 1 (or
/// random for both), through the runtime: every command a receipt.
pub fn bot_match(preset: &str, seed: &str, greedy: bool) -> Match<Duel> {
    let mut m = Match::<Duel>::new(bundle(), spec(preset, seed)).unwrap();
    let mut bots = [
        RandomBot::new(seed, Seat(0)).unwrap(),
        RandomBot::new(seed, Seat(1)).unwrap(),
    ];
    for n in 0..5000u64 {
        if m.state().result.is_some() {
            break;
        }
        let seat = actor(m.state());
        let action = {
            let resolver = m.resolver();
            if greedy && seat == Seat(1) {
                bot::choose_greedy(&resolver, m.state(), seat, n)
            } else {
                <RandomBot as Bot<Duel>>::choose(
                    &mut bots[usize::from(seat.0)],
                    &resolver,
                    m.state(),
                    seat,
                    n,
                )
            }
        }
        .expect("the seat with priority always has a legal action");
        let step = m.step();
        m.submit(CommandEnvelope {
            command_id: format!("c{n}"),
            seat: Some(seat),
            expected_sequence: m.sequence(),
            expected_step: Some(step),
            tick: n,
            action,
        })
        .unwrap();
    }
    m
}

pub fn replay_text(m: &Match<Duel>) -> String {
    ReplayFile::of_match(m).unwrap().to_json().unwrap()
}
