//! `turnstile play duel [--preset classic-style|hearthstone-style|priority-window]`: Duel in
//! the terminal, line by line. It shows the seat's own view only (hand with indices, both
//! boards, health, mana, statuses, phase, priority and stack), and every command goes to a real
//! `Match` through the one resolver, as on the server; `bot:strong` is the registry's
//! [`StrongDuelBot`].

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use turnstile_core::{CommandEnvelope, Game, Seat, Viewer};
use turnstile_duel::{Duel, DuelAction, DuelConfig, DuelEvent, DuelView};
use turnstile_runtime::{Bot, Match, MatchSpec, RandomBot, SeatSpec, DEFAULT_TICK_RATE};
use turnstile_samples::StrongDuelBot;

use crate::exit::Outcome;

/// Who plays a seat: `human`, `bot:random` or `bot:strong`.
pub fn run(players: [&'static str; 2], seed: &str, preset: Option<String>) -> Outcome {
    let bundle = match turnstile_duel::bundled() {
        Ok(b) => Arc::new(b),
        Err(p) => return Outcome::input(format!("the bundled Duel content is invalid: {p:?}")),
    };
    let preset = preset.unwrap_or_else(|| turnstile_duel::PRESETS[0].to_owned());
    let spec = MatchSpec {
        config: DuelConfig::with_sequence(&preset),
        seed: seed.into(),
        seats: vec![SeatSpec::human(), SeatSpec::human()],
        tick_rate: DEFAULT_TICK_RATE,
    };
    let mut game = match Match::<Duel>::new(bundle, spec) {
        Ok(g) => g,
        Err(e) => return Outcome::usage(format!("{e} ({})", e.code())),
    };
    println!(
        "Duel under `{preset}`, seed {seed}; seat 0 {}, seat 1 {}.",
        players[0], players[1]
    );
    println!(
        "Commands: p N (play hand card N), e (end turn), s (pass priority), r (resign), q (quit)."
    );
    let mut bots: [Option<Box<dyn Bot<Duel>>>; 2] = [None, None];
    for (i, who) in players.iter().enumerate() {
        let seat = Seat(i as u16);
        bots[i] = match *who {
            "bot:random" => match RandomBot::new(seed, seat) {
                Ok(b) => Some(Box::new(b)),
                Err(e) => return Outcome::usage(e.to_string()),
            },
            "bot:strong" => Some(Box::new(StrongDuelBot)),
            _ => None,
        };
    }
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut n = 0u64;
    loop {
        if let Some(result) = &game.state().result {
            println!("Match over: {} — winners {:?}", result.kind, result.winners);
            return Outcome::ok();
        }
        let seat = game.state().priority.holder();
        n += 1;
        let action = if let Some(bot) = bots[usize::from(seat.0)].as_mut() {
            match bot.choose(&game.resolver(), game.state(), seat, 0) {
                Some(a) => {
                    println!(
                        "seat {seat} (bot) plays {}",
                        describe(&a, &game.view(Viewer::Referee), seat)
                    );
                    a
                }
                None => return Outcome::check_failed("a bot found no legal action"),
            }
        } else {
            print!("{}", render(&game.view(Viewer::Seat(seat)), seat));
            print!("seat {seat}> ");
            let _ = io::stdout().flush();
            let Some(Ok(line)) = lines.next() else {
                return Outcome::ok();
            };
            match parse(&line) {
                Parsed::Quit => return Outcome::ok(),
                Parsed::Unknown => {
                    println!("? p N, e, s, r or q");
                    continue;
                }
                Parsed::Action(a) => a,
            }
        };
        let envelope = CommandEnvelope {
            command_id: format!("cli-{n}"),
            seat: Some(seat),
            expected_sequence: game.sequence(),
            expected_step: Some(game.step()),
            tick: 0,
            action,
        };
        let bundle = game.bundle().clone();
        // Narrate as a person at this keyboard may see: the acting seat when a person acts,
        // else the first human seat (a spectator when only bots play).
        let viewer = if bots[usize::from(seat.0)].is_none() {
            Viewer::Seat(seat)
        } else {
            bots.iter()
                .position(Option::is_none)
                .map_or(Viewer::Spectator, |i| Viewer::Seat(Seat(i as u16)))
        };
        match game.submit(envelope) {
            Ok(accepted) => {
                for e in &accepted.receipt.events {
                    if let Some(line) = Duel::redact_event(&bundle.content, e, viewer)
                        .as_ref()
                        .and_then(narrate)
                    {
                        println!("  {line}");
                    }
                }
            }
            Err(refusal) => println!("refused: {refusal} ({})", refusal.code()),
        }
    }
}

enum Parsed {
    Action(DuelAction),
    Quit,
    Unknown,
}

fn parse(line: &str) -> Parsed {
    let mut words = line.split_whitespace();
    match (words.next(), words.next()) {
        (Some("p"), Some(n)) => n.parse().map_or(Parsed::Unknown, |hand| {
            Parsed::Action(DuelAction::PlayCard { hand })
        }),
        (Some("e"), None) => Parsed::Action(DuelAction::EndTurn),
        (Some("s"), None) => Parsed::Action(DuelAction::PassPriority),
        (Some("r"), None) => Parsed::Action(DuelAction::Resign),
        (Some("q"), None) => Parsed::Quit,
        _ => Parsed::Unknown,
    }
}

fn describe(action: &DuelAction, view: &DuelView, seat: Seat) -> String {
    match action {
        DuelAction::PlayCard { hand } => {
            let card = view.seats[usize::from(seat.0)]
                .hand
                .as_ref()
                .and_then(|h| h.get(usize::from(*hand)))
                .map_or("?", |c| c.card_id.as_str());
            format!("card {card}")
        }
        other => other.action_type().to_lowercase(),
    }
}

fn narrate(event: &DuelEvent) -> Option<String> {
    Some(match event {
        DuelEvent::ActivationStarted { seat, turn, .. } => format!("turn {turn}: seat {seat}"),
        DuelEvent::CardDrawn { seat, card } => match card {
            Some(c) => format!("seat {seat} draws {c}"),
            None => format!("seat {seat} draws a card"),
        },
        DuelEvent::CardBurned { seat, card } => format!("seat {seat} burns {card} (hand full)"),
        DuelEvent::Fatigue { seat, damage } => {
            format!("seat {seat}'s deck is empty: {damage} fatigue")
        }
        DuelEvent::CardPlayed {
            seat,
            card,
            stacked,
            ..
        } => {
            format!(
                "seat {seat} plays {card}{}",
                if *stacked { " (on the stack)" } else { "" }
            )
        }
        DuelEvent::CardResolved { card, .. } => format!("{card} resolves"),
        DuelEvent::CardFizzled { card, .. } => format!("{card} fizzles"),
        DuelEvent::PriorityPassed { seat, holder } => {
            format!("seat {seat} passes; seat {holder} has priority")
        }
        DuelEvent::UnitAttacked {
            seat,
            card,
            defender,
            damage,
            ..
        } => match defender {
            Some(unit) => format!("seat {seat}'s {card} strikes unit #{unit} for {damage}"),
            None => format!("seat {seat}'s {card} strikes the opponent for {damage}"),
        },
        DuelEvent::UnitDied { seat, card, .. } => format!("seat {seat}'s {card} dies"),
        DuelEvent::StatusExpired { seat, status } => format!("{status} on seat {seat} expires"),
        DuelEvent::Resigned { seat } => format!("seat {seat} resigns"),
        DuelEvent::MatchEnded { result } => format!("match over: {}", result.kind),
        _ => return None,
    })
}

fn render(view: &DuelView, seat: Seat) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "\n— turn {} (round {}), seat {} to act, phase `{}` of `{}`, step {}{}\n",
        view.turn,
        view.round,
        view.active,
        view.phase,
        view.sequence_id,
        view.step,
        if view.window_open {
            format!(", response window open, priority: seat {}", view.priority)
        } else {
            String::new()
        }
    ));
    for entry in &view.stack {
        out.push_str(&format!(
            "  stack: {} (seat {})\n",
            entry.item.card_id, entry.seat
        ));
    }
    for (i, s) in view.seats.iter().enumerate() {
        let statuses: Vec<String> = view
            .statuses
            .iter()
            .filter(|e| e.bearer == turnstile_effects::Target::Seat(Seat(i as u16)))
            .map(|e| format!("{}×{}", e.status, e.stacks))
            .collect();
        let board: Vec<String> = s
            .board
            .iter()
            .map(|u| format!("{} #{} ({} health)", u.card_id, u.thing, u.health))
            .collect();
        out.push_str(&format!(
            "  seat {i}{}: health {}/{}, mana {}/{}, hand {}, deck {}, board [{}], statuses [{}]\n",
            if usize::from(seat.0) == i {
                " (you)"
            } else {
                ""
            },
            s.health,
            s.max_health,
            s.mana,
            s.max_mana,
            s.hand_count,
            s.deck_count,
            board.join(", "),
            statuses.join(", ")
        ));
    }
    if let Some(hand) = &view.seats[usize::from(seat.0)].hand {
        for (i, c) in hand.iter().enumerate() {
            out.push_str(&format!("    [{i}] {}\n", c.card_id));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `turnstile play duel --preset P --seat 0=bot:random --seat 1=bot:strong` plays to the
    /// end under every preset without reading input (a bot that found no legal action, or a
    /// refused command looping forever, would fail or hang this).
    #[test]
    fn bots_play_a_whole_match_under_every_preset() {
        for preset in turnstile_duel::PRESETS {
            let outcome = run(["bot:random", "bot:strong"], "cli", Some(preset.to_owned()));
            assert_eq!(outcome.code, 0, "{preset}: {:?}", outcome.message);
        }
    }

    #[test]
    fn an_unknown_preset_is_a_usage_error_naming_the_sequences() {
        let outcome = run(
            ["bot:strong", "bot:strong"],
            "cli",
            Some("chess-style".into()),
        );
        assert_eq!(outcome.code, crate::exit::USAGE);
        let message = outcome.message.unwrap_or_default();
        assert!(message.contains("unknown_sequence"), "{message}");
        assert!(message.contains("hearthstone-style"), "{message}");
    }
}
