//! The score calculator's input: a JSON description of a played hand (cards, held cards,
//! jokers in slot order with editions and counters, held consumables and vouchers, hand levels
//! and play counts, hands/discards/money at the moment of scoring, boss, deck), scored on the
//! shipped content — for `turnstile clover score` and for cross-checking with the genre's
//! other calculators (docs/clover.md has the format and every default).
//!
//! Every omitted field takes the value a fresh run on the chosen deck has when its first hand
//! is scored (docs/clover.md lists them), so leaving a field out never fires a joker that
//! watches it by accident: an omitted `discardsLeft` is the deck's full discards, not 0.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Edition, Enhancement, Seal, Suit};
use crate::content::Content;
use crate::hands::HandType;
use crate::score::{score_hand, ScoreReceipt};
use crate::state::{Joker, RunState};

/// A card as the calculator reads it: rank `"2"`..`"10"`, `"J"`, `"Q"`, `"K"`, `"A"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardInput {
    /// The rank.
    pub rank: String,
    /// The suit.
    pub suit: Suit,
    /// Enhancement (default none).
    #[serde(default)]
    pub enhancement: Enhancement,
    /// Edition (default none).
    #[serde(default)]
    pub edition: Edition,
    /// Seal (default none).
    #[serde(default)]
    pub seal: Seal,
    /// Permanent extra chips (default 0).
    #[serde(default)]
    pub perma_bonus: u32,
    /// Debuffed whatever the boss says (default false): a card an earlier effect debuffed, such
    /// as one the boss of a previous hand marked. The boss's own debuffs apply on top.
    #[serde(default)]
    pub debuffed: bool,
}

/// A joker as the calculator reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JokerInput {
    /// Catalog id (`harlequin`).
    pub id: String,
    /// Edition (default none).
    #[serde(default)]
    pub edition: Edition,
    /// Its counter (scaling jokers; default 0, a joker as bought).
    #[serde(default)]
    pub counter: i64,
    /// Perishable rounds left (default: not perishable); 0 means debuffed.
    #[serde(default)]
    pub perishable: Option<u32>,
}

/// The whole description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HandInput {
    /// Played cards, left to right (1 to 5).
    pub played: Vec<CardInput>,
    /// Cards held in hand, left to right (default none).
    #[serde(default)]
    pub held: Vec<CardInput>,
    /// Jokers in slot order (default none).
    #[serde(default)]
    pub jokers: Vec<JokerInput>,
    /// Consumables held, as `kind:id` (`planet:pluto`, `tarot:the_hermit`; default none).
    #[serde(default)]
    pub consumables: Vec<String>,
    /// Vouchers redeemed, as ids (`observatory`; default none).
    #[serde(default)]
    pub vouchers: Vec<String>,
    /// Hand levels by hand (`flush`: 3); missing hands are level 1.
    #[serde(default)]
    pub levels: BTreeMap<String, u32>,
    /// Times each hand was played earlier in the run (`pair`: 4); missing hands 0. The hand
    /// being scored is counted by the scoring itself.
    #[serde(default)]
    pub times_played: BTreeMap<String, u32>,
    /// Hands left at the moment of scoring, the scored hand already spent (default: the deck's
    /// hands per round minus one, as when a round's first hand is scored).
    #[serde(default)]
    pub hands_left: Option<i64>,
    /// Discards left at the moment of scoring (default: the deck's discards per round).
    #[serde(default)]
    pub discards_left: Option<i64>,
    /// Money at the moment of scoring (default: $4, a new run's money).
    #[serde(default)]
    pub money: Option<i64>,
    /// The boss blind being played (`millstone`), if any (default none).
    #[serde(default)]
    pub boss: Option<String>,
    /// The deck (default `plain`).
    #[serde(default)]
    pub deck: Option<String>,
    /// Seed for chance rolls (default `calculator`).
    #[serde(default)]
    pub seed: Option<String>,
    /// The round's card, which the effigy multiplies (default the ace of spades).
    #[serde(default)]
    pub round_card: Option<RoundCardInput>,
    /// The round's suit, which the relic multiplies (default spades).
    #[serde(default)]
    pub round_suit: Option<Suit>,
}

/// A card as a round target: a rank and a suit, nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoundCardInput {
    /// `2`..`10`, `J`, `Q`, `K`, `A`.
    pub rank: String,
    /// The suit.
    pub suit: Suit,
}

/// Why a description could not be scored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} ({code})")]
pub struct CalcError {
    /// Stable code.
    pub code: &'static str,
    /// What is wrong, without the code (the `Display` form appends it once).
    pub message: String,
}

fn bad(code: &'static str, message: impl Into<String>) -> CalcError {
    CalcError {
        code,
        message: message.into(),
    }
}

/// The ids among `known` nearest to `wanted` by edit distance (at most three, closest first),
/// as a sentence to append to an "unknown id" message.
fn nearest<'a>(wanted: &str, known: impl Iterator<Item = &'a str>) -> String {
    let mut scored: Vec<(usize, &str)> = known
        .map(|id| (strsim::levenshtein(wanted, id), id))
        .collect();
    scored.sort();
    let close: Vec<String> = scored
        .iter()
        .take(3)
        .filter(|(d, id)| *d <= id.len().max(wanted.len()) / 2 + 1)
        .map(|(_, id)| format!("`{id}`"))
        .collect();
    if close.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", close.join(", "))
    }
}

/// The catalog ids of one kind (`joker`, `boss`, …).
fn ids_of<'c>(content: &'c Content, kind: &'c str) -> impl Iterator<Item = &'c str> + 'c {
    content
        .catalog
        .keys()
        .filter_map(move |key| key.strip_prefix(kind)?.strip_prefix(':'))
}

fn hand_named(name: &str, field: &str) -> Result<HandType, CalcError> {
    HandType::from_name(name).ok_or_else(|| {
        bad(
            "unknown_hand",
            format!(
                "`{field}` names no hand `{name}`{}",
                nearest(name, HandType::ALL.iter().map(|h| h.name()))
            ),
        )
    })
}

fn card(input: &CardInput, field: &str, at: usize) -> Result<Card, CalcError> {
    let rank = rank_of(&input.rank, &format!("{field}[{at}]"))?;
    Ok(Card {
        rank,
        suit: input.suit,
        enhancement: input.enhancement,
        edition: input.edition,
        seal: input.seal,
        perma_bonus: input.perma_bonus,
        debuffed: input.debuffed,
        face_down: false,
    })
}

/// A rank as written (`2`..`10`, `J`, `Q`, `K`, `A`), for the field `at`.
fn rank_of(text: &str, at: &str) -> Result<u8, CalcError> {
    Ok(match text {
        "A" | "a" => 14,
        "K" | "k" => 13,
        "Q" | "q" => 12,
        "J" | "j" => 11,
        other => other
            .parse::<u8>()
            .ok()
            .filter(|r| (2..=10).contains(r))
            .ok_or_else(|| {
                bad(
                    "bad_rank",
                    format!("{at}: `{other}` is not a rank: write 2..10, J, Q, K or A"),
                )
            })?,
    })
}

/// Scores a description with the shipped content (or `content`).
pub fn score_input(
    input: &HandInput,
    content: &Content,
    record: bool,
) -> Result<ScoreReceipt, CalcError> {
    if input.played.is_empty() {
        return Err(bad(
            "no_cards_played",
            "`played` is empty: a hand is 1 to 5 played cards",
        ));
    }
    let seed = input.seed.as_deref().unwrap_or("calculator");
    let deck = input.deck.as_deref().unwrap_or("plain");
    if !content.catalog.contains_key(&format!("deck:{deck}")) {
        return Err(bad(
            "unknown_deck",
            format!("no deck `{deck}`{}", nearest(deck, ids_of(content, "deck"))),
        ));
    }
    let mut run = RunState::new(seed, 1, deck).map_err(|e| bad("bad_seed", e.message))?;
    for j in &input.jokers {
        let mut joker: Joker = content.joker(&j.id).ok_or_else(|| {
            bad(
                "unknown_joker",
                format!(
                    "no joker `{}`{}",
                    j.id,
                    nearest(&j.id, ids_of(content, "joker"))
                ),
            )
        })?;
        joker.edition = j.edition;
        joker.counter = j.counter;
        joker.perishable = j.perishable;
        run.jokers.push(joker);
    }
    for held in &input.consumables {
        let kind = held.split(':').next().unwrap_or_default();
        let consumable = matches!(kind, "tarot" | "planet" | "spectral");
        if !consumable || !content.catalog.contains_key(held) {
            let known = ["tarot", "planet", "spectral"]
                .into_iter()
                .flat_map(|k| content.catalog.keys().filter(move |key| key.starts_with(k)));
            return Err(bad(
                "unknown_consumable",
                format!(
                    "no consumable `{held}` (write kind:id, e.g. planet:pluto){}",
                    nearest(held, known.map(String::as_str))
                ),
            ));
        }
        run.consumables.push(held.clone());
    }
    for voucher in &input.vouchers {
        let owner = format!("voucher:{voucher}");
        if !content.catalog.contains_key(&owner) {
            return Err(bad(
                "unknown_voucher",
                format!(
                    "no voucher `{voucher}`{}",
                    nearest(voucher, ids_of(content, "voucher"))
                ),
            ));
        }
        run.vouchers.push(owner);
    }
    for (name, level) in &input.levels {
        if *level == 0 {
            return Err(bad(
                "bad_level",
                format!("`levels.{name}` is 0: hand levels start at 1"),
            ));
        }
        run.levels[hand_named(name, "levels")?.index()] = *level;
    }
    for (name, times) in &input.times_played {
        run.played_counts[hand_named(name, "timesPlayed")?.index()] = *times;
    }
    if let Some(boss) = &input.boss {
        let owner = format!("boss:{boss}");
        if !content.catalog.contains_key(&owner) {
            return Err(bad(
                "unknown_boss",
                format!("no boss `{boss}`{}", nearest(boss, ids_of(content, "boss"))),
            ));
        }
        run.boss = Some(owner);
        run.boss_active = true;
    }
    if let Some(target) = &input.round_card {
        run.round_targets.card_rank = rank_of(&target.rank, "roundCard")?;
        run.round_targets.card_suit = target.suit;
    }
    if let Some(suit) = input.round_suit {
        run.round_targets.suit = suit;
    }
    crate::run::rebuild(&mut run, content).map_err(|e| coded(e.code(), &e))?;
    // The moment of scoring: the scored hand is spent, discards and money are as given, or as
    // they stand when a fresh round's first hand is scored on this deck.
    run.hands_left = input
        .hands_left
        .unwrap_or_else(|| run.rule(crate::state::Rule::Hands).max(1) - 1);
    run.discards_left = input
        .discards_left
        .unwrap_or_else(|| run.rule(crate::state::Rule::Discards).max(0));
    if let Some(money) = input.money {
        run.money = money;
    }
    let played = (input.played.iter().enumerate())
        .map(|(i, c)| card(c, "played", i))
        .collect::<Result<Vec<_>, _>>()?;
    let held = (input.held.iter().enumerate())
        .map(|(i, c)| card(c, "held", i))
        .collect::<Result<Vec<_>, _>>()?;
    score_hand(&mut run, content, &played, &held, record).map_err(|e| coded(e.code(), &e))
}

/// An error from the scoring or the run whose message may already end in its code: keep the
/// message, drop that ending, so the code is printed once.
fn coded(code: &'static str, error: &dyn std::fmt::Display) -> CalcError {
    let text = error.to_string();
    let suffix = format!(" ({code})");
    bad(code, text.strip_suffix(&suffix).unwrap_or(&text))
}

/// Parses and scores JSON text.
pub fn score_json_text(
    text: &str,
    content: &Content,
) -> Result<(HandInput, ScoreReceipt), CalcError> {
    let input: HandInput =
        serde_json::from_str(text).map_err(|e| bad("bad_json", e.to_string()))?;
    let receipt = score_input(&input, content, true)?;
    Ok((input, receipt))
}

/// The receipt as text for people.
pub fn render_text(receipt: &ScoreReceipt) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let hand = receipt.hand.map_or("nothing", |h| h.name());
    let _ = writeln!(
        out,
        "hand: {hand}{}",
        if receipt.not_allowed {
            " (not allowed)"
        } else {
            ""
        }
    );
    let scoring: Vec<String> = receipt.scoring.iter().map(|i| i.to_string()).collect();
    let _ = writeln!(out, "scoring cards: {}", scoring.join(" "));
    let _ = writeln!(out, "chips: {}", receipt.chips);
    let _ = writeln!(out, "mult: {}", receipt.mult);
    let _ = writeln!(
        out,
        "score: {}{}",
        receipt.score,
        if receipt.saturated {
            " (saturated)"
        } else {
            ""
        }
    );
    if !receipt.destroyed.is_empty() {
        let d: Vec<String> = receipt.destroyed.iter().map(|i| i.to_string()).collect();
        let _ = writeln!(out, "destroyed: {}", d.join(" "));
    }
    let _ = writeln!(out, "steps:");
    for (n, s) in receipt.steps.iter().enumerate() {
        let num = |v: &turnstile_effects::Number| match v {
            turnstile_effects::Number::Int(i) => i.to_string(),
            turnstile_effects::Number::Fixed(f) => format!("x{f}"),
        };
        let _ = writeln!(
            out,
            "  {:>3}. {} row {} {} {}: {} -> {}",
            n + 1,
            s.owner,
            s.row,
            s.trigger,
            s.operation,
            num(&s.before),
            num(&s.after)
        );
    }
    out
}
