//! `turnstile play clover [--seed TEXT] [--seat 0=bot] [--replay FILE]`: a clover run in the
//! terminal, line by line. It shows what the player's view holds — ante, blind and target,
//! money, hands and discards, jokers with their stickers, consumables, the hand, the shop and
//! its packs, an open pack — and reads one command per line. Every command goes to a real
//! `Match` through the one resolver, as on the server; with `--seat 0=bot` the game's greedy
//! bot plays and the screen narrates. `--replay FILE` writes the match's replay (format 1,
//! `turnstile replay verify` checks it) when the run ends or the player quits.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::Arc;

use turnstile_clover::cards::{Card, Edition, Enhancement, Seal};
use turnstile_clover::game::{CloverEvent, CloverView, Phase};
use turnstile_clover::run::{Blind, PackItem};
use turnstile_clover::{bot_action, Clover, CloverAction, CloverConfig, CloverContent, Content};
use turnstile_core::{CommandEnvelope, ContentBundle, MatchStatus, Seat, Viewer};
use turnstile_runtime::{Match, MatchSpec, ReplayFile, SeatSpec, DEFAULT_TICK_RATE};

use crate::exit::Outcome;

/// A bot run stops here even if it never loses (endless mode): the screen is for watching.
const BOT_COMMAND_LIMIT: u64 = 5_000;

const HELP: &str = "\
commands (numbers are the ones shown in brackets):
  blind:  s select the blind, k skip it for a tag
  play:   p 1 2 3 play those cards, d 4 5 discard them
  shop:   b N buy offer N, o N open pack N, sell N sell joker N, r reroll, l leave
  pack:   t N take card N, x skip the rest
  always: u N use consumable N, h help, q quit";

/// Who plays: a person at this keyboard, or the greedy bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Player {
    Human,
    Bot,
}

fn parse_seats(seats: &[String]) -> Result<Player, String> {
    let mut player = Player::Human;
    for arg in seats {
        let (seat, who) = arg
            .split_once('=')
            .ok_or_else(|| format!("--seat {arg:?}: expected 0=human or 0=bot"))?;
        if seat.trim() != "0" {
            return Err(format!("--seat {arg:?}: clover has one seat, 0"));
        }
        player = match who.trim() {
            "human" => Player::Human,
            "bot" | "bot:greedy" => Player::Bot,
            other => return Err(format!("--seat {arg:?}: no player {other:?} (human, bot)")),
        };
    }
    Ok(player)
}

/// Plays a clover run on standard input and output.
pub fn run(seats: &[String], seed: Option<String>, replay: Option<&Path>) -> Outcome {
    let stdin = io::stdin();
    let stdout = io::stdout();
    play(seats, seed, replay, &mut stdin.lock(), &mut stdout.lock())
}

/// Plays a clover run reading commands from `input` and writing the screen to `out`.
fn play(
    seats: &[String],
    seed: Option<String>,
    replay: Option<&Path>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Outcome {
    let player = match parse_seats(seats) {
        Ok(p) => p,
        Err(message) => return Outcome::usage(message),
    };
    let seed = seed.unwrap_or_else(|| "clover".to_owned());
    let content = match CloverContent::shipped() {
        Ok(c) => c,
        Err(problems) => {
            return Outcome::input(format!(
                "clover's shipped content does not load: {} problem(s)",
                problems.len()
            ))
        }
    };
    let bundle = match ContentBundle::new("clover", content) {
        Ok(b) => Arc::new(b),
        Err(e) => return Outcome::input(format!("clover's content bundle: {e:?}")),
    };
    let spec = MatchSpec {
        config: CloverConfig::default(),
        seed: seed.clone(),
        seats: vec![SeatSpec::human()],
        tick_rate: DEFAULT_TICK_RATE,
    };
    let mut game = match Match::<Clover>::new(bundle.clone(), spec) {
        Ok(g) => g,
        Err(e) => return Outcome::usage(format!("cannot start the run: {e} ({})", e.code())),
    };
    let catalog = bundle.content.content();
    say(
        out,
        format!(
            "clover, seed {seed:?}, {} — type h for help.",
            if player == Player::Bot {
                "the greedy bot plays"
            } else {
                "you play"
            }
        ),
    );
    let mut issued = 0u64;
    let mut shown = None;
    let outcome = loop {
        if game.status() != MatchStatus::Active {
            let view = game.view(Viewer::Seat(Seat(0)));
            say(
                out,
                format!(
                    "Run over at ante {} with ${}{}.",
                    view.ante,
                    view.money,
                    if view.won {
                        " (won at ante 8 first)"
                    } else {
                        ""
                    }
                ),
            );
            break Outcome::ok();
        }
        if shown != Some(game.sequence()) {
            let _ = write!(
                out,
                "{}",
                render(&game.view(Viewer::Seat(Seat(0))), catalog)
            );
            shown = Some(game.sequence());
        }
        let action = match player {
            Player::Bot => {
                if issued >= BOT_COMMAND_LIMIT {
                    say(
                        out,
                        format!("The bot stops after {BOT_COMMAND_LIMIT} commands."),
                    );
                    break Outcome::ok();
                }
                match bot_action(catalog, game.state()) {
                    Some(action) => {
                        say(out, format!("bot> {}", describe(&action)));
                        action
                    }
                    None => break Outcome::check_failed("the bot found no action"),
                }
            }
            Player::Human => {
                let _ = write!(out, "{}> ", prompt(game.state().phase));
                let _ = out.flush();
                let mut line = String::new();
                match input.read_line(&mut line) {
                    Ok(0) => {
                        say(out, String::new());
                        break Outcome::ok();
                    }
                    Ok(_) => {}
                    Err(e) => break Outcome::input(format!("cannot read standard input: {e}")),
                }
                match parse(&line) {
                    Parsed::Quit => break Outcome::ok(),
                    Parsed::Help => {
                        say(out, HELP.to_owned());
                        continue;
                    }
                    Parsed::Unknown(why) => {
                        say(out, format!("? {why} (h for help)"));
                        continue;
                    }
                    Parsed::Action(action) => action,
                }
            }
        };
        issued += 1;
        let envelope = CommandEnvelope {
            command_id: format!("cli-{issued}"),
            seat: Some(Seat(0)),
            expected_sequence: game.sequence(),
            expected_step: None,
            tick: 0,
            action,
        };
        match game.submit(envelope) {
            Ok(accepted) => {
                for event in &accepted.receipt.events {
                    if let Some(line) = narrate(event, catalog) {
                        say(out, format!("  {line}"));
                    }
                }
            }
            Err(refusal) => {
                if player == Player::Bot {
                    break Outcome::check_failed(format!(
                        "the bot's command was refused: {refusal}"
                    ));
                }
                say(out, format!("refused: {refusal} ({})", refusal.code()));
            }
        }
    };
    if let Some(path) = replay {
        let written = ReplayFile::of_match(&game)
            .map_err(|e| e.to_string())
            .and_then(|file| file.to_json().map_err(|e| e.to_string()))
            .and_then(|json| std::fs::write(path, json).map_err(|e| e.to_string()));
        match written {
            Ok(()) => say(out, format!("replay written to {}", path.display())),
            Err(e) => return Outcome::input(format!("{}: {e}", path.display())),
        }
    }
    outcome
}

fn say(out: &mut dyn Write, text: String) {
    let _ = writeln!(out, "{text}");
}

enum Parsed {
    Action(CloverAction),
    Help,
    Quit,
    Unknown(String),
}

/// The numbers after a command word, turned from the 1-based numbers shown into indices.
fn indices(words: &[&str]) -> Result<Vec<u8>, String> {
    if words.is_empty() {
        return Err("give one or more numbers".into());
    }
    words
        .iter()
        .map(|w| match w.parse::<u8>() {
            Ok(n) if n >= 1 => Ok(n - 1),
            _ => Err(format!("{w:?} is not a number from 1")),
        })
        .collect()
}

fn one(words: &[&str]) -> Result<u8, String> {
    match indices(words)?.as_slice() {
        [n] => Ok(*n),
        _ => Err("give one number".into()),
    }
}

fn parse(line: &str) -> Parsed {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&word, rest)) = words.split_first() else {
        return Parsed::Unknown("empty line".into());
    };
    let action = match word {
        "q" | "quit" => return Parsed::Quit,
        "h" | "help" | "?" => return Parsed::Help,
        "s" | "select" if rest.is_empty() => Ok(CloverAction::SelectBlind),
        "k" | "skip" if rest.is_empty() => Ok(CloverAction::SkipBlind),
        "p" | "play" => indices(rest).map(|cards| CloverAction::Play { cards }),
        "d" | "discard" => indices(rest).map(|cards| CloverAction::Discard { cards }),
        "b" | "buy" => one(rest).map(|slot| CloverAction::Buy { slot }),
        "o" | "open" => one(rest).map(|slot| CloverAction::OpenPack { slot }),
        "sell" => one(rest).map(|slot| CloverAction::Sell { slot }),
        "r" | "reroll" if rest.is_empty() => Ok(CloverAction::Reroll),
        "rb" | "rerollboss" if rest.is_empty() => Ok(CloverAction::RerollBoss),
        "l" | "leave" if rest.is_empty() => Ok(CloverAction::LeaveShop),
        "t" | "take" => one(rest).map(|index| CloverAction::PickPack { index }),
        "x" if rest.is_empty() => Ok(CloverAction::SkipPack),
        "u" | "use" => match rest.split_first() {
            Some((first, more)) => one(&[*first]).and_then(|index| {
                let cards = if more.is_empty() {
                    Ok(Vec::new())
                } else {
                    indices(more)
                };
                cards.map(|cards| CloverAction::Use { index, cards })
            }),
            None => one(rest).map(|index| CloverAction::Use {
                index,
                cards: Vec::new(),
            }),
        },
        other => Err(format!("unknown command {other:?}")),
    };
    match action {
        Ok(a) => Parsed::Action(a),
        Err(why) => Parsed::Unknown(why),
    }
}

fn prompt(phase: Phase) -> &'static str {
    match phase {
        Phase::SelectBlind => "blind (s select, k skip)",
        Phase::Playing => "hand (p N.. play, d N.. discard)",
        Phase::Shop => "shop (b N, o N, sell N, r, l)",
        Phase::Pack => "pack (t N take, x skip)",
        Phase::Lost | Phase::Resigned => "over",
    }
}

fn describe(action: &CloverAction) -> String {
    let shown = |v: &[u8]| {
        v.iter()
            .map(|i| (u32::from(*i) + 1).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    match action {
        CloverAction::SelectBlind => "select the blind".into(),
        CloverAction::SkipBlind => "skip the blind".into(),
        CloverAction::Play { cards } => format!("play {}", shown(cards)),
        CloverAction::Discard { cards } => format!("discard {}", shown(cards)),
        CloverAction::Buy { slot } => format!("buy offer {}", u32::from(*slot) + 1),
        CloverAction::Sell { slot } => format!("sell joker {}", u32::from(*slot) + 1),
        CloverAction::Use { index, cards } if cards.is_empty() => {
            format!("use consumable {}", u32::from(*index) + 1)
        }
        CloverAction::Use { index, cards } => format!(
            "use consumable {} on {}",
            u32::from(*index) + 1,
            shown(cards)
        ),
        CloverAction::RerollBoss => "reroll the boss".into(),
        CloverAction::Reroll => "reroll".into(),
        CloverAction::OpenPack { slot } => format!("open pack {}", u32::from(*slot) + 1),
        CloverAction::PickPack { index } => format!("take card {}", u32::from(*index) + 1),
        CloverAction::SkipPack => "skip the pack".into(),
        CloverAction::LeaveShop => "leave the shop".into(),
        CloverAction::Resign => "give the run up".into(),
    }
}

/// A catalog entry's display name (`kind:id` when unknown).
fn name(catalog: &Content, owner: &str) -> String {
    catalog
        .catalog
        .get(owner)
        .map_or_else(|| owner.to_owned(), |e| e.name.clone())
}

fn price(catalog: &Content, owner: &str) -> u32 {
    catalog.catalog.get(owner).map_or(0, |e| e.cost)
}

/// `KH` plus what is special about it: `KH[glass,red seal]`.
fn card_text(card: &Card) -> String {
    let mut extras = Vec::new();
    if card.enhancement != Enhancement::None {
        extras.push(format!("{:?}", card.enhancement).to_lowercase());
    }
    if card.edition != Edition::None {
        extras.push(format!("{:?}", card.edition).to_lowercase());
    }
    if card.seal != Seal::None {
        extras.push(format!(
            "{} seal",
            format!("{:?}", card.seal).to_lowercase()
        ));
    }
    if extras.is_empty() {
        card.label()
    } else {
        format!("{}[{}]", card.label(), extras.join(","))
    }
}

/// The deck as the web client shows it: during a blind the cards left to draw of the deck's
/// size ("43 / 52"), the draws going down as cards are drawn; between blinds (nothing drawn
/// yet) the deck's size alone.
fn deck_counter(phase: Phase, left: u32, size: u32) -> String {
    if phase == Phase::Playing {
        format!("{left} / {size}")
    } else {
        size.to_string()
    }
}

fn numbered<T>(items: &[T], text: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        return "none".into();
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| format!("[{}] {}", i + 1, text(item)))
        .collect::<Vec<_>>()
        .join("  ")
}

fn render(view: &CloverView, catalog: &Content) -> String {
    let mut s = String::new();
    let blind = match view.blind {
        Blind::Small => "small blind".to_owned(),
        Blind::Big => "big blind".to_owned(),
        Blind::Boss => format!(
            "boss blind {}",
            view.boss
                .as_deref()
                .map_or_else(|| "(not yet drawn)".to_owned(), |b| name(catalog, b))
        ),
    };
    let where_ = if view.phase == Phase::Playing {
        format!("{blind}: {} / {} chips", view.scored, view.target)
    } else {
        format!("next: {blind}")
    };
    s.push_str(&format!(
        "\n— ante {}, {where_} — ${} — hands {}, discards {}, deck {}\n",
        view.ante,
        view.money,
        view.hands_left,
        view.discards_left,
        deck_counter(view.phase, view.deck_count, view.deck_size)
    ));
    if view.phase == Phase::SelectBlind {
        // The ante's blinds, the boss named in advance (and what a reroll of it costs).
        let blinds: Vec<String> = view
            .blinds
            .iter()
            .map(|b| {
                let what = b.name.clone().unwrap_or_else(|| format!("{:?}", b.blind));
                let done = if b.done { ", done" } else { "" };
                format!("{what} {} chips{done}", b.target)
            })
            .collect();
        let reroll = view
            .boss_reroll_cost
            .map_or_else(String::new, |c| format!(" (rb: reroll the boss for ${c})"));
        s.push_str(&format!("  blinds: {}{reroll}\n", blinds.join(" · ")));
    }
    s.push_str(&format!(
        "  jokers: {}\n",
        numbered(&view.jokers, |j| {
            let mut t = name(catalog, &format!("joker:{}", j.id));
            if j.eternal {
                t.push_str(" (eternal)");
            }
            if let Some(rounds) = j.perishable {
                t.push_str(&format!(" (perishable: {rounds} rounds)"));
            }
            if j.rental {
                t.push_str(" (rental)");
            }
            t
        })
    ));
    s.push_str(&format!(
        "  consumables: {}\n",
        numbered(&view.consumables, |c| name(catalog, c))
    ));
    match view.phase {
        Phase::Playing => {
            s.push_str(&format!(
                "  hand: {}\n",
                numbered(&view.hand, |card| card
                    .as_ref()
                    .map_or_else(|| "(face down)".to_owned(), card_text))
            ));
        }
        Phase::Shop | Phase::Pack => {
            s.push_str(&format!(
                "  shop: {}\n",
                numbered(&view.shop, |o| {
                    let mut t = format!("{} ${}", name(catalog, &o.item), price(catalog, &o.item));
                    if o.stickers.eternal {
                        t.push_str(" eternal");
                    }
                    if o.stickers.perishable {
                        t.push_str(" perishable");
                    }
                    if o.stickers.rental {
                        t.push_str(" rental ($1)");
                    }
                    t
                })
            ));
            s.push_str(&format!(
                "  packs: {}\n",
                numbered(&view.packs, |p| format!(
                    "{} ${}",
                    name(catalog, p),
                    price(catalog, p)
                ))
            ));
            if let Some(pack) = &view.pack {
                s.push_str(&format!(
                    "  open {} (take {} more): {}\n",
                    name(catalog, &pack.pack),
                    pack.picks_left,
                    numbered(&pack.items, |i| item_text(i, catalog))
                ));
            }
        }
        Phase::SelectBlind | Phase::Lost | Phase::Resigned => {}
    }
    s
}

fn item_text(item: &PackItem, catalog: &Content) -> String {
    match item {
        PackItem::Owned { item, stickers } => {
            let mut t = name(catalog, item);
            if !stickers.is_none() {
                t.push_str(&format!(" {stickers:?}"));
            }
            t
        }
        PackItem::Card { card } => card_text(card),
    }
}

fn narrate(event: &CloverEvent, catalog: &Content) -> Option<String> {
    Some(match event {
        CloverEvent::BlindStarted { blind, target } => {
            format!("{blind:?} blind: score {target} chips")
        }
        CloverEvent::BossRerolled { boss, money } => {
            format!("the boss is now {} (${money} left)", name(catalog, boss))
        }
        CloverEvent::BlindSkipped { tag } => {
            format!(
                "blind skipped for the {}",
                name(catalog, &format!("tag:{tag}"))
            )
        }
        CloverEvent::HandScored {
            hand,
            score: Some(score),
            total: Some(total),
            steps,
            ..
        } => format!(
            "{} scores {score} ({total} this blind, {} steps)",
            hand.map_or("nothing", |h| h.name()),
            steps.len()
        ),
        CloverEvent::HandScored { hand, .. } => format!(
            "{} would score by chance",
            hand.map_or("nothing", |h| h.name())
        ),
        CloverEvent::Discarded { count } => format!(
            "{} discarded",
            crate::sokoban_cmd::counted(*count, "card", "cards")
        ),
        CloverEvent::BlindBeaten { money } => format!("blind beaten; you have ${money}"),
        CloverEvent::RunLost => "the blind was not beaten: the run is lost".into(),
        CloverEvent::RunSaved { by } => format!(
            "the last hand fell short, but the {} saved the run (no blind reward)",
            name(catalog, by)
        ),
        CloverEvent::RunResigned => "the run was given up".into(),
        CloverEvent::RunWon => "ante 8 beaten: the run is won (endless play goes on)".into(),
        CloverEvent::PackOpened { pack, .. } => format!("{} opened", name(catalog, pack)),
        CloverEvent::PackPicked { item } => format!("took {}", item_text(item, catalog)),
        CloverEvent::PackClosed => "pack closed".into(),
        CloverEvent::ShopChanged | CloverEvent::ShopLeft => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn scripted(seats: &[&str], script: &str) -> (Outcome, String) {
        seeded("cli-clover", seats, script)
    }

    fn seeded(seed: &str, seats: &[&str], script: &str) -> (Outcome, String) {
        let mut out = Vec::new();
        let outcome = play(
            &args(seats),
            Some(seed.into()),
            None,
            &mut script.as_bytes(),
            &mut out,
        );
        (outcome, String::from_utf8(out).unwrap())
    }

    #[test]
    fn seats_are_one_human_or_the_bot() {
        assert_eq!(parse_seats(&[]).unwrap(), Player::Human);
        assert_eq!(deck_counter(Phase::Playing, 44, 52), "44 / 52");
        assert_eq!(deck_counter(Phase::SelectBlind, 0, 52), "52");
        assert_eq!(parse_seats(&args(&["0=bot"])).unwrap(), Player::Bot);
        assert_eq!(parse_seats(&args(&["0=bot:greedy"])).unwrap(), Player::Bot);
        for bad in ["1=bot", "0=bot:strong", "bot"] {
            assert!(parse_seats(&args(&[bad])).is_err(), "{bad}");
        }
        let (outcome, _) = scripted(&["1=human"], "");
        assert_eq!(outcome.code, crate::exit::USAGE);
    }

    #[test]
    fn commands_are_typed_from_1() {
        assert!(matches!(
            parse("p 1 3 5"),
            Parsed::Action(CloverAction::Play { cards }) if cards == vec![0, 2, 4]
        ));
        assert!(matches!(
            parse("o 2"),
            Parsed::Action(CloverAction::OpenPack { slot: 1 })
        ));
        assert!(matches!(
            parse("t 1"),
            Parsed::Action(CloverAction::PickPack { index: 0 })
        ));
        assert!(matches!(parse("p 0"), Parsed::Unknown(_)));
        assert!(matches!(parse("b 1 2"), Parsed::Unknown(_)));
        assert!(matches!(parse("dance"), Parsed::Unknown(_)));
    }

    #[test]
    fn the_bot_plays_a_whole_run_to_the_end() {
        // A seed on which the bot reaches ante 4 and opens packs (which seed does moves with
        // the content: every card added changes what the shop's draws pick).
        let (outcome, text) = seeded("probe0", &["0=bot"], "");
        assert_eq!(outcome.code, crate::exit::OK, "{text}");
        assert!(text.contains("Run over at ante"), "{text}");
        assert!(text.contains("bot> open pack"), "the bot opens packs");
        assert!(text.contains("packs: [1] Buffoon Pack $4"), "{text}");
    }

    #[test]
    fn a_person_selects_plays_discards_and_is_refused_politely() {
        let (outcome, text) = scripted(&[], "s\nd 1 2\np 1 2 3 4 5\nb 1\nfly\np 9\nq\n");
        assert_eq!(outcome.code, crate::exit::OK);
        assert!(text.contains("Small blind: score 300 chips"), "{text}");
        assert!(text.contains("2 cards discarded"), "{text}");
        assert!(text.contains("scores"), "{text}");
        assert!(text.contains("refused:"), "buying while playing: {text}");
        assert!(text.contains("unknown command \"fly\""), "{text}");
        assert!(text.contains("hand: [1] "), "{text}");
    }
}
