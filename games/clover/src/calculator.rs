//! The score calculator's input: a JSON description of a played hand (cards, held cards,
//! jokers in slot order with editions and counters, hand levels, hands/discards/money left,
//! boss, deck), scored on the shipped content — for `turnstile clover score` and for
//! cross-checking with the genre's other calculators (docs/clover.md has the format).

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
    /// Enhancement.
    #[serde(default)]
    pub enhancement: Enhancement,
    /// Edition.
    #[serde(default)]
    pub edition: Edition,
    /// Seal.
    #[serde(default)]
    pub seal: Seal,
    /// Permanent extra chips.
    #[serde(default)]
    pub perma_bonus: u32,
}

/// A joker as the calculator reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JokerInput {
    /// Catalog id (`harlequin`).
    pub id: String,
    /// Edition.
    #[serde(default)]
    pub edition: Edition,
    /// Its counter (scaling jokers).
    #[serde(default)]
    pub counter: i64,
}

/// The whole description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HandInput {
    /// Played cards, left to right (at most 5).
    pub played: Vec<CardInput>,
    /// Cards held in hand, left to right.
    #[serde(default)]
    pub held: Vec<CardInput>,
    /// Jokers in slot order.
    #[serde(default)]
    pub jokers: Vec<JokerInput>,
    /// Hand levels by name (`flush`: 3); missing hands are level 1.
    #[serde(default)]
    pub levels: BTreeMap<String, u32>,
    /// Hands left (after this one).
    #[serde(default)]
    pub hands_left: i64,
    /// Discards left.
    #[serde(default)]
    pub discards_left: i64,
    /// Money.
    #[serde(default)]
    pub money: i64,
    /// The boss blind being played (`millstone`), if any.
    #[serde(default)]
    pub boss: Option<String>,
    /// The deck (`plain` when empty).
    #[serde(default)]
    pub deck: Option<String>,
    /// Seed for chance rolls (`calculator` when empty).
    #[serde(default)]
    pub seed: Option<String>,
}

/// Why a description could not be scored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} ({code})")]
pub struct CalcError {
    /// Stable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

fn bad(code: &'static str, message: impl Into<String>) -> CalcError {
    CalcError {
        code,
        message: message.into(),
    }
}

fn card(input: &CardInput) -> Result<Card, CalcError> {
    let rank = match input.rank.as_str() {
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
                    format!("`{other}` is not a rank: write 2..10, J, Q, K or A"),
                )
            })?,
    };
    Ok(Card {
        rank,
        suit: input.suit,
        enhancement: input.enhancement,
        edition: input.edition,
        seal: input.seal,
        perma_bonus: input.perma_bonus,
    })
}

/// Scores a description with the shipped content (or `content`).
pub fn score_input(
    input: &HandInput,
    content: &Content,
    record: bool,
) -> Result<ScoreReceipt, CalcError> {
    let seed = input.seed.as_deref().unwrap_or("calculator");
    let deck = input.deck.as_deref().unwrap_or("plain");
    if !content.catalog.contains_key(&format!("deck:{deck}")) {
        return Err(bad("unknown_deck", format!("no deck `{deck}`")));
    }
    let mut run = RunState::new(seed, 1, deck).map_err(|e| bad("bad_seed", e.message))?;
    for j in &input.jokers {
        let mut joker: Joker = content
            .joker(&j.id)
            .ok_or_else(|| bad("unknown_joker", format!("no joker `{}`", j.id)))?;
        joker.edition = j.edition;
        joker.counter = j.counter;
        run.jokers.push(joker);
    }
    for (name, level) in &input.levels {
        let hand = HandType::from_name(name)
            .ok_or_else(|| bad("unknown_hand", format!("no hand `{name}`")))?;
        run.levels[hand.index()] = *level;
    }
    if let Some(boss) = &input.boss {
        let owner = format!("boss:{boss}");
        if !content.catalog.contains_key(&owner) {
            return Err(bad("unknown_boss", format!("no boss `{boss}`")));
        }
        run.boss = Some(owner);
        run.boss_active = true;
    }
    crate::run::rebuild(&mut run, content).map_err(|e| bad("effect", e.to_string()))?;
    run.hands_left = input.hands_left;
    run.discards_left = input.discards_left;
    run.money = input.money;
    let played = input
        .played
        .iter()
        .map(card)
        .collect::<Result<Vec<_>, _>>()?;
    let held = input.held.iter().map(card).collect::<Result<Vec<_>, _>>()?;
    score_hand(&mut run, content, &played, &held, record).map_err(|e| bad(e.code(), e.to_string()))
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
