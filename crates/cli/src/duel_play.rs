//! `turnstile play duel [--preset classic-style|hearthstone-style|priority-window]`: Duel in
//! the terminal, line by line. It shows the seat's own view only (the hand numbered from 1 with
//! each card's name, cost, kind and text; both boards, health, mana, statuses, phase, priority
//! and stack), in the cards' names as the web client words them, and every command goes to a
//! real `Match` through the one resolver, as on the server; `bot:strong` is the registry's
//! [`StrongDuelBot`].

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use turnstile_core::{CommandEnvelope, Game, Seat, Viewer};
use turnstile_duel::{CardKind, Duel, DuelAction, DuelConfig, DuelContent, DuelEvent, DuelView};
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
        "Commands: p N (play card N of your hand, counted from 1), e (end turn), s (pass priority), r (resign), q (quit)."
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
                        describe(
                            &a,
                            &game.view(Viewer::Referee),
                            seat,
                            &game.bundle().content
                        )
                    );
                    a
                }
                None => return Outcome::check_failed("a bot found no legal action"),
            }
        } else {
            print!(
                "{}",
                render(&game.view(Viewer::Seat(seat)), seat, &game.bundle().content)
            );
            print!("seat {seat}> ");
            let _ = io::stdout().flush();
            let Some(Ok(line)) = lines.next() else {
                return Outcome::ok();
            };
            match parse(&line) {
                Parsed::Quit => return Outcome::ok(),
                Parsed::Unknown => {
                    println!("? p N (a card of your hand, from 1), e, s, r or q");
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
                        .and_then(|e| narrate(e, &bundle.content))
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
        // people count the hand from 1; the action's index is from 0
        (Some("p"), Some(n)) => match n.parse::<u16>() {
            Ok(k) if k >= 1 => Parsed::Action(DuelAction::PlayCard { hand: k - 1 }),
            _ => Parsed::Unknown,
        },
        (Some("e"), None) => Parsed::Action(DuelAction::EndTurn),
        (Some("s"), None) => Parsed::Action(DuelAction::PassPriority),
        (Some("r"), None) => Parsed::Action(DuelAction::Resign),
        (Some("q"), None) => Parsed::Quit,
        _ => Parsed::Unknown,
    }
}

/// A card's name from the content (its id when the content lacks it).
fn card_name(content: &DuelContent, id: &str) -> String {
    content
        .cards
        .get(id)
        .map_or_else(|| id.replace('_', " "), |c| c.name.clone())
}

/// A card as a line of the hand: "Spark (1 mana, spell): Deal 2 damage to the opponent."
fn card_line(content: &DuelContent, id: &str) -> String {
    let Some(c) = content.cards.get(id) else {
        return id.replace('_', " ");
    };
    let kind = match c.kind {
        CardKind::Spell => "spell".to_owned(),
        CardKind::Unit => format!("unit {}/{}", c.attack.unwrap_or(0), c.health.unwrap_or(0)),
    };
    let response = if c.tag_list().any(|t| t == "response") {
        ", response"
    } else {
        ""
    };
    let text = if c.text.is_empty() {
        String::new()
    } else {
        format!(": {}", c.text)
    };
    format!("{} ({} mana, {kind}{response}){text}", c.name, c.cost)
}

fn describe(action: &DuelAction, view: &DuelView, seat: Seat, content: &DuelContent) -> String {
    match action {
        DuelAction::PlayCard { hand } => view.seats[usize::from(seat.0)]
            .hand
            .as_ref()
            .and_then(|h| h.get(usize::from(*hand)))
            .map_or_else(|| "a card".to_owned(), |c| card_line(content, &c.card_id)),
        DuelAction::EndTurn => "end turn".to_owned(),
        DuelAction::PassPriority => "pass".to_owned(),
        other => other.action_type().to_lowercase().replace('_', " "),
    }
}

fn narrate(event: &DuelEvent, content: &DuelContent) -> Option<String> {
    let name = |id: &str| card_name(content, id);
    Some(match event {
        DuelEvent::ActivationStarted { seat, turn, .. } => format!("turn {turn}: seat {seat}"),
        DuelEvent::CardDrawn { seat, card } => match card {
            Some(c) => format!("seat {seat} draws {}", name(c)),
            None => format!("seat {seat} draws a card"),
        },
        DuelEvent::CardBurned { seat, card } => {
            format!("seat {seat} burns {} (hand full)", name(card))
        }
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
                "seat {seat} plays {}{}",
                name(card),
                if *stacked { " (on the stack)" } else { "" }
            )
        }
        DuelEvent::CardResolved { card, .. } => format!("{} resolves", name(card)),
        DuelEvent::CardFizzled { card, .. } => format!("{} fizzles", name(card)),
        DuelEvent::PriorityPassed { seat, holder } => {
            format!("seat {seat} passes; seat {holder} may answer")
        }
        DuelEvent::UnitAttacked {
            seat,
            card,
            defender,
            damage,
            ..
        } => match defender {
            Some(_) => format!("seat {seat}'s {} strikes a unit for {damage}", name(card)),
            None => format!(
                "seat {seat}'s {} strikes the opponent for {damage}",
                name(card)
            ),
        },
        DuelEvent::UnitDied { seat, card, .. } => format!("seat {seat}'s {} dies", name(card)),
        DuelEvent::StatusExpired { seat, status } => format!("{status} on seat {seat} expires"),
        DuelEvent::Resigned { seat } => format!("seat {seat} resigns"),
        DuelEvent::MatchEnded { result } => format!("match over: {}", result.kind),
        _ => return None,
    })
}

fn render(view: &DuelView, seat: Seat, content: &DuelContent) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "\n— turn {}, seat {} to act, {} phase{}\n",
        view.turn,
        view.active,
        view.phase.replace('_', " "),
        if view.window_open {
            format!(", response window open: seat {} may answer", view.priority)
        } else {
            String::new()
        }
    ));
    for entry in &view.stack {
        out.push_str(&format!(
            "  stack: {} (seat {})\n",
            card_name(content, &entry.item.card_id),
            entry.seat
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
            .map(|u| format!("{} ({} health)", card_name(content, &u.card_id), u.health))
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
            out.push_str(&format!(
                "    {}. {}\n",
                i + 1,
                card_line(content, &c.card_id)
            ));
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
    fn the_hand_is_typed_from_1_and_shown_with_names_costs_and_text() {
        assert!(matches!(
            parse("p 1"),
            Parsed::Action(DuelAction::PlayCard { hand: 0 })
        ));
        assert!(matches!(
            parse("p 3"),
            Parsed::Action(DuelAction::PlayCard { hand: 2 })
        ));
        assert!(matches!(parse("p 0"), Parsed::Unknown), "0 is no card");
        let bundle = turnstile_duel::bundled().expect("content");
        let (id, card) = bundle.content.cards.iter().next().expect("a card");
        let line = card_line(&bundle.content, id);
        assert!(line.starts_with(&card.name), "{line}");
        assert!(line.contains(&format!("{} mana", card.cost)), "{line}");
        assert!(line.contains(&card.text), "{line}");
        assert_eq!(card_line(&bundle.content, "no_such_card"), "no such card");
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
