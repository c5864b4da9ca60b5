//! `turnstile play duel [--seats 2|3|4] [--clock untimed|standard|blitz] [--preset P]
//! [--seat N=human|bot:random|bot:strong]...`: Duel in the terminal, line by line, for 2 to 4
//! seats (numbered from 0, as in the API). It shows the acting seat's own view only (the hand
//! numbered from 1 with each card's name, cost, kind and text; every board, health, mana,
//! statuses, phase, priority and stack), in the cards' names as the web client words them, and
//! every command goes to a real `Match` through the one resolver, as on the server;
//! `bot:strong` is the registry's [`StrongDuelBot`].
//!
//! Time, as in `play.rs`: untimed clocks stamp every command tick 0; a timed clock reads ticks
//! at this edge from a monotonic clock, and an activation whose deadline has passed is timed
//! out as the server would (a system `Timeout` stamped with the deadline tick) when the next
//! line has been read.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

use turnstile_core::{CommandEnvelope, Game, Seat, Tick, Viewer};
use turnstile_duel::{CardKind, Duel, DuelAction, DuelConfig, DuelContent, DuelEvent, DuelView};
use turnstile_runtime::{Bot, Match, MatchSpec, RandomBot, SeatSpec, DEFAULT_TICK_RATE};
use turnstile_samples::StrongDuelBot;

use crate::exit::Outcome;

/// What `turnstile play duel` was asked for.
pub struct DuelPlay<'a> {
    /// The `--seat N=WHO` arguments.
    pub seats: &'a [String],
    /// `--seats`: how many seats (2 to 4; 2 when absent).
    pub seat_count: Option<u16>,
    /// The match seed.
    pub seed: &'a str,
    /// `--preset`: the phase sequence.
    pub preset: Option<String>,
    /// `--clock`: a clock of the content (its default when absent).
    pub clock: Option<String>,
}

/// Parses `N=human|bot:random|bot:strong` for seats `0..count`; unnamed seats are human.
fn parse_seats(args: &[String], count: u16) -> Result<Vec<&'static str>, String> {
    let mut players: Vec<Option<&'static str>> = vec![None; usize::from(count)];
    for arg in args {
        let (seat, who) = arg
            .split_once('=')
            .ok_or_else(|| format!("--seat {arg:?}: expected N=human|bot:random|bot:strong"))?;
        let index = match seat.trim().parse::<usize>() {
            Ok(index) if index < players.len() => index,
            _ => {
                return Err(format!(
                    "--seat {arg:?}: this match has seats 0 to {}",
                    count.saturating_sub(1)
                ))
            }
        };
        let player = match who.trim() {
            "human" => "human",
            "bot:random" => "bot:random",
            "bot:strong" => "bot:strong",
            other => {
                return Err(format!(
                    "--seat {arg:?}: unknown player {other:?}; expected human, bot:random or bot:strong"
                ))
            }
        };
        if players[index].replace(player).is_some() {
            return Err(format!("--seat {index} is given twice"));
        }
    }
    Ok(players.into_iter().map(|p| p.unwrap_or("human")).collect())
}

/// The match's ticks at this edge: tick 0 throughout when no timer runs.
struct EdgeClock {
    start: Instant,
    timed: bool,
}

impl EdgeClock {
    /// The tick to stamp now; never before the match's last receipt.
    fn now(&self, last: Tick) -> Tick {
        if !self.timed {
            return last;
        }
        let millis = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        last.max(millis.saturating_mul(u64::from(DEFAULT_TICK_RATE)) / 1000)
    }
}

/// Plays Duel in the terminal.
pub fn run(play: DuelPlay<'_>) -> Outcome {
    let bundle = match turnstile_duel::bundled() {
        Ok(b) => Arc::new(b),
        Err(p) => return Outcome::input(format!("the bundled Duel content is invalid: {p:?}")),
    };
    let count = play.seat_count.unwrap_or(2);
    let (low, high) = Duel::seat_range(&bundle.content, &DuelConfig::default());
    if count < low || count > high {
        return Outcome::usage(format!("--seats {count}: Duel takes {low} to {high} seats"));
    }
    let players = match parse_seats(play.seats, count) {
        Ok(players) => players,
        Err(message) => return Outcome::usage(message),
    };
    let rules = &bundle.content.rules.lifecycle;
    let clock_id = play
        .clock
        .clone()
        .unwrap_or_else(|| rules.default_clock.to_string());
    let Some(clock_config) = rules
        .clock(Some(clock_id.as_str()))
        .ok()
        .and_then(|id| rules.clocks.get(&id))
    else {
        let known: Vec<&str> = rules.clocks.iter().map(|(id, _)| id.as_str()).collect();
        return Outcome::usage(format!(
            "--clock {clock_id}: unknown clock; Duel's content has {}",
            known.join(", ")
        ));
    };
    let clock = EdgeClock {
        start: Instant::now(),
        timed: clock_config.uses_timer,
    };
    let preset = play
        .preset
        .unwrap_or_else(|| turnstile_duel::PRESETS[0].to_owned());
    let seed = play.seed;
    let spec = MatchSpec {
        config: DuelConfig::with_sequence(&preset).with_clock(&clock_id),
        seed: seed.into(),
        seats: vec![SeatSpec::human(); usize::from(count)],
        tick_rate: DEFAULT_TICK_RATE,
    };
    let mut game = match Match::<Duel>::new(bundle, spec) {
        Ok(g) => g,
        Err(e) => return Outcome::usage(format!("{e} ({})", e.code())),
    };
    let sitting: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(i, who)| format!("seat {i} {who}"))
        .collect();
    println!(
        "Duel for {count} seats under `{preset}`, clock {clock_id}, seed {seed}; {}.",
        sitting.join(", ")
    );
    println!(
        "Commands: p N (play card N of your hand, counted from 1), p N T (aim it at seat T), e (end turn), s (pass priority), k (skip the turn, when the clock allows), r (resign), q (quit)."
    );
    let mut bots: Vec<Option<Box<dyn Bot<Duel>>>> = Vec::with_capacity(players.len());
    for (i, who) in players.iter().enumerate() {
        let seat = Seat(u16::try_from(i).unwrap_or(u16::MAX));
        bots.push(match *who {
            "bot:random" => match RandomBot::new(seed, seat) {
                Ok(b) => Some(Box::new(b)),
                Err(e) => return Outcome::usage(e.to_string()),
            },
            "bot:strong" => Some(Box::new(StrongDuelBot)),
            _ => None,
        });
    }
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut n = 0u64;
    loop {
        if let Some(result) = &game.state().result {
            println!("Match over: {} — winners {:?}", result.kind, result.winners);
            return Outcome::ok();
        }
        // A deadline passed while the last line was awaited: time the activation out, as the
        // server does.
        if let Some(deadline) = game.state().deadline_tick {
            if deadline <= clock.now(game.last_tick()) {
                let turn_index = game.state().turn_index();
                let envelope = CommandEnvelope {
                    command_id: format!("timeout:{turn_index}"),
                    seat: None,
                    expected_sequence: game.sequence(),
                    expected_step: None,
                    tick: deadline,
                    action: DuelAction::Timeout { turn_index },
                };
                let seat = game.state().active;
                if let Err(refusal) = game.submit(envelope) {
                    return Outcome::check_failed(format!("the timeout was refused: {refusal}"));
                }
                println!("  seat {seat} ran out of time");
                continue;
            }
        }
        let seat = game.state().priority.holder();
        let tick = clock.now(game.last_tick());
        n += 1;
        let action = if let Some(bot) = bots.get_mut(usize::from(seat.0)).and_then(Option::as_mut) {
            match bot.choose(&game.resolver(), game.state(), seat, tick) {
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
            let left = game
                .state()
                .deadline_tick
                .map(|d| {
                    format!(
                        " ({}s left)",
                        d.saturating_sub(tick) / u64::from(DEFAULT_TICK_RATE)
                    )
                })
                .unwrap_or_default();
            print!("seat {seat}{left}> ");
            let _ = io::stdout().flush();
            let Some(Ok(line)) = lines.next() else {
                return Outcome::ok();
            };
            match parse(&line) {
                Parsed::Quit => return Outcome::ok(),
                Parsed::Unknown => {
                    println!("? p N [T] (a card of your hand, from 1; a target seat, from 0), e, s, k, r or q");
                    continue;
                }
                Parsed::Action(a) => a,
            }
        };
        let tick = clock.now(game.last_tick());
        if game.state().deadline_tick.is_some_and(|d| d <= tick) {
            println!("  too late: the turn's time ran out");
            continue; // the loop times the activation out first
        }
        let envelope = CommandEnvelope {
            command_id: format!("cli-{n}"),
            seat: Some(seat),
            expected_sequence: game.sequence(),
            expected_step: Some(game.step()),
            tick,
            action,
        };
        let bundle = game.bundle().clone();
        // Narrate as a person at this keyboard may see: the acting seat when a person acts,
        // else the first human seat (a spectator when only bots play).
        let viewer = if bots.get(usize::from(seat.0)).is_some_and(Option::is_none) {
            Viewer::Seat(seat)
        } else {
            bots.iter()
                .position(Option::is_none)
                .map_or(Viewer::Spectator, |i| {
                    Viewer::Seat(Seat(u16::try_from(i).unwrap_or(u16::MAX)))
                })
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
    match (words.next(), words.next(), words.next(), words.next()) {
        // people count the hand from 1; the action's index is from 0; seats are from 0
        (Some("p"), Some(n), target, None) => {
            let target = match target.map(str::parse::<u16>) {
                None => None,
                Some(Ok(t)) => Some(Seat(t)),
                Some(Err(_)) => return Parsed::Unknown,
            };
            match n.parse::<u16>() {
                // no target: the rules aim at the next seat at the table
                Ok(k) if k >= 1 => Parsed::Action(DuelAction::PlayCard {
                    hand: k - 1,
                    target,
                }),
                _ => Parsed::Unknown,
            }
        }
        (Some("e"), None, ..) => Parsed::Action(DuelAction::EndTurn),
        (Some("s"), None, ..) => Parsed::Action(DuelAction::PassPriority),
        (Some("k"), None, ..) => Parsed::Action(DuelAction::Skip),
        (Some("r"), None, ..) => Parsed::Action(DuelAction::Resign),
        (Some("q"), None, ..) => Parsed::Quit,
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
        DuelAction::PlayCard { hand, .. } => view.seats[usize::from(seat.0)]
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
        DuelEvent::CardChanneled { seat, card } => format!(
            "seat {seat} channels {}: its next turn is a countdown, then it resolves",
            name(card)
        ),
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
            "  seat {i}{}: health {}/{}, mana {}/{}, hand {}, deck {}, board [{}], statuses [{}]{}\n",
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
            statuses.join(", "),
            s.channel
                .as_ref()
                .map(|c| format!(", channelling {}", card_name(content, c)))
                .unwrap_or_default()
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

    fn bots(count: u16) -> Vec<String> {
        (0..count)
            .map(|i| {
                let who = if i % 2 == 0 {
                    "bot:random"
                } else {
                    "bot:strong"
                };
                format!("{i}={who}")
            })
            .collect()
    }

    fn bot_play(seats: &[String], count: u16, preset: &str, clock: &str) -> Outcome {
        run(DuelPlay {
            seats,
            seat_count: Some(count),
            seed: "cli",
            preset: Some(preset.to_owned()),
            clock: Some(clock.to_owned()),
        })
    }

    /// `turnstile play duel --seats N --clock C --preset P` with bots in every seat plays to
    /// the end under every preset, clock and seat count without reading input (a bot that
    /// found no legal action, or a refused command looping forever, would fail or hang this).
    #[test]
    fn bots_play_a_whole_match_under_every_preset_clock_and_seat_count() {
        // Each preset meets each clock once, and each at 2, 3 and 4 seats.
        for (i, preset) in turnstile_duel::PRESETS.iter().enumerate() {
            for count in 2..=4u16 {
                let clock = turnstile_duel::CLOCKS[(i + usize::from(count)) % 3];
                let seats = bots(count);
                let outcome = bot_play(&seats, count, preset, clock);
                assert_eq!(
                    outcome.code, 0,
                    "{count} {preset} {clock}: {:?}",
                    outcome.message
                );
            }
        }
    }

    #[test]
    fn a_seat_count_or_clock_duel_lacks_and_a_seat_past_the_count_are_usage_errors() {
        let seats = bots(2);
        let outcome = bot_play(&seats, 5, "classic-style", "blitz");
        assert_eq!(outcome.code, crate::exit::USAGE);
        assert!(outcome.message.unwrap_or_default().contains("2 to 4 seats"));
        let outcome = bot_play(&seats, 2, "classic-style", "bullet");
        assert_eq!(outcome.code, crate::exit::USAGE);
        let message = outcome.message.unwrap_or_default();
        assert!(
            message.contains("bullet") && message.contains("blitz"),
            "{message}"
        );
        let seats = vec!["3=bot:random".to_owned()];
        let outcome = bot_play(&seats, 3, "classic-style", "untimed");
        assert_eq!(outcome.code, crate::exit::USAGE);
        assert!(outcome.message.unwrap_or_default().contains("seats 0 to 2"));
    }

    #[test]
    fn the_hand_is_typed_from_1_and_shown_with_names_costs_and_text() {
        assert!(matches!(
            parse("p 1"),
            Parsed::Action(DuelAction::PlayCard { hand: 0, .. })
        ));
        assert!(matches!(
            parse("p 3"),
            Parsed::Action(DuelAction::PlayCard { hand: 2, .. })
        ));
        assert!(matches!(parse("p 0"), Parsed::Unknown), "0 is no card");
        assert!(matches!(
            parse("p 2 3"),
            Parsed::Action(DuelAction::PlayCard {
                hand: 1,
                target: Some(Seat(3))
            })
        ));
        assert!(matches!(parse("k"), Parsed::Action(DuelAction::Skip)));
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
        let seats = bots(2);
        let outcome = bot_play(&seats, 2, "chess-style", "untimed");
        assert_eq!(outcome.code, crate::exit::USAGE);
        let message = outcome.message.unwrap_or_default();
        assert!(message.contains("unknown_sequence"), "{message}");
        assert!(message.contains("hearthstone-style"), "{message}");
    }
}
