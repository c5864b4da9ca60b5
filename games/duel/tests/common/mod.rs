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

/// The bundled content without its initiative formula: seats act in seat order every round.
pub fn fixed_order_bundle() -> Arc<ContentBundle<DuelContent>> {
    let mut b = (*bundle()).clone();
    b.content.rules.lifecycle.initiative = None;
    Arc::new(b)
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
            target: None,
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
    DuelAction::play(hand)
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

/// How a scripted match is played: its config, seat count, and which seats the greedy bot
/// plays (the others play randomly).
pub struct Script {
    pub config: DuelConfig,
    pub seats: u16,
    pub greedy: Vec<Seat>,
    /// Every this many commands, the driver lets the acting seat's clock run out and submits
    /// the system Timeout at the deadline (timed clocks only; 0: never).
    pub timeout_every: u64,
    /// Every this many commands, the acting seat Skips instead (skippable clocks; 0: never).
    pub skip_every: u64,
}

impl Script {
    pub fn new(preset: &str, clock: &str, seats: u16) -> Script {
        Script {
            config: DuelConfig::with_sequence(preset).with_clock(clock),
            seats,
            greedy: vec![Seat(1)],
            timeout_every: 23,
            skip_every: 17,
        }
    }
}

/// Plays a scripted match through the runtime: bots act for the priority holder at 3 ticks a
/// command; late seats JOIN a few commands in; now and then the clock runs out (a system
/// Timeout stamped at the deadline) or the acting seat Skips. Every command is a receipt;
/// nothing is refused.
pub fn scripted_match(script: &Script, seed: &str) -> Match<Duel> {
    let spec = MatchSpec {
        config: script.config.clone(),
        seed: seed.into(),
        seats: (0..script.seats).map(|_| SeatSpec::human()).collect(),
        tick_rate: 10,
    };
    let mut m = Match::<Duel>::new(bundle(), spec).unwrap();
    let mut bots: Vec<RandomBot> = (0..script.seats)
        .map(|s| RandomBot::new(seed, Seat(s)).unwrap())
        .collect();
    let mut tick = 0u64;
    for n in 0..20_000u64 {
        if m.state().result.is_some() {
            break;
        }
        let waiting = m
            .state()
            .seats
            .iter()
            .position(|s| s.standing == turnstile_duel::Standing::Waiting);
        let acting = m.state().lifecycle.acting();
        let window = m.state().priority.is_open();
        // A seat's command comes 3 ticks after the last, before its clock runs out.
        let mut seat_tick = tick + 3;
        if let Some(d) = m.state().deadline_tick {
            seat_tick = seat_tick
                .min(d.saturating_sub(1))
                .max(m.state().lifecycle.turns.clock().last_tick());
        }
        let (seat, action) = if let (Some(w), true) = (waiting, n >= 4) {
            (Some(Seat(w as u16)), DuelAction::Join)
        } else if script.timeout_every > 0
            && n % script.timeout_every == script.timeout_every - 1
            && m.state().deadline_tick.is_some()
        {
            tick = m.state().deadline_tick.unwrap();
            (
                None,
                DuelAction::Timeout {
                    turn_index: m.state().turn_index(),
                },
            )
        } else if script.skip_every > 0
            && n % script.skip_every == script.skip_every - 1
            && !window
            && acting.is_some_and(|a| {
                m.state()
                    .lifecycle
                    .check_skip(&m.bundle().content.rules.lifecycle, a)
                    .is_ok()
            })
        {
            (acting, DuelAction::Skip)
        } else {
            let seat = actor(m.state());
            let resolver = m.resolver();
            let action = if script.greedy.contains(&seat) {
                bot::choose_greedy(&resolver, m.state(), seat, seat_tick)
            } else {
                <RandomBot as Bot<Duel>>::choose(
                    &mut bots[usize::from(seat.0)],
                    &resolver,
                    m.state(),
                    seat,
                    seat_tick,
                )
            }
            .unwrap_or_else(|| {
                panic!(
                    "seat {seat:?} holds priority with no legal action: {:?}",
                    m.state()
                )
            });
            (Some(seat), action)
        };
        if seat.is_some() {
            tick = seat_tick;
        }
        let command_id = match &action {
            DuelAction::Timeout { turn_index } => turnstile_turns::timeout_command_id(*turn_index),
            _ => format!("c{n}"),
        };
        let step = m.step();
        m.submit(CommandEnvelope {
            command_id,
            seat,
            expected_sequence: m.sequence(),
            expected_step: seat.map(|_| step),
            tick,
            action: action.clone(),
        })
        .unwrap_or_else(|e| panic!("command {n} {action:?} from {seat:?} refused: {e:?}"));
    }
    m
}

pub fn replay_text(m: &Match<Duel>) -> String {
    ReplayFile::of_match(m).unwrap().to_json().unwrap()
}
