//! Scoring a played hand in the full order of clover-facts.md ("Evaluation order, in full"),
//! on the one effect executor: every change is a row that acted, and every row that acted is
//! a step of the receipt, in order.
//!
//! 1. detect (rules apply inside detection); 2. `BeforeScoring` over the jokers; 3. base values
//!    from the level, then the boss's halving rule; 4. each scoring card left to right:
//!    `OnScoredRepeat` gathers repetitions (red seal, jokers), then per repetition
//!    `OnCardScored` over the card's own base, enhancement, seal, edition, then the jokers;
//! 5. each held card: `OnCardHeld` (enhancement, then jokers), repeated by `OnHeldRepeat`
//!    only when it produced an effect; 6. each joker: its edition's `OnHandPlayed` rows
//!    (foil, holographic), its own `OnHandPlayed` rows, `OnJokerEffect` over all jokers (what
//!    they grant it), its edition's `OnJokerDone` rows (polychrome); then `OnFinalScore`
//!    (consumables, deck); 7. `floor(chips × mult)` once, saturating and reported; then
//!    `AfterScoring` per scored card (glass breaking).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::fixed::mul_int;
use turnstile_core::determinism::Fixed;
use turnstile_effects::{EffectError, Executor, Number, Step, StepKind, Target};

use crate::cards::{Card, Edition, Enhancement, Seal};
use crate::content::Content;
use crate::hands::{detect, DetectionRules, HandType};
use crate::state::{KeyCache, RunState, Scoring, Thing};
use crate::vocabulary::{CloverTrigger, Event, Trigger};

/// The receipt of one scored hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreReceipt {
    /// The detected hand (`None` when nothing was played).
    pub hand: Option<HandType>,
    /// Whether the boss forbade the hand (it scores 0).
    pub not_allowed: bool,
    /// Indices of the scoring cards, played order.
    pub scoring: Vec<u32>,
    /// Chips before the multiplication.
    pub chips: i64,
    /// Mult before the multiplication.
    pub mult: Fixed,
    /// `floor(chips × mult)`.
    pub score: i64,
    /// Whether any step (or the product) saturated.
    pub saturated: bool,
    /// Played cards destroyed after scoring (glass), indices.
    pub destroyed: Vec<u32>,
    /// Every step, in order (empty when steps were not recorded).
    pub steps: Vec<Step>,
}

/// Why scoring stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The executor stopped.
    #[error("{0}")]
    Effect(#[from] EffectError),
    /// More than 5 cards played.
    #[error("at most 5 cards may be played, not {0} (too_many_cards)")]
    TooManyCards(u32),
}

impl ScoreError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            ScoreError::Effect(e) => e.code(),
            ScoreError::TooManyCards(_) => "too_many_cards",
        }
    }
}

/// Looks the fixed owners' keys up once.
pub(crate) fn key_cache(content: &Content, run: &RunState) -> KeyCache {
    let t = &content.effects;
    let k = |s: Option<&str>| s.and_then(|s| t.owner_key(s));
    let enh = Enhancement::ALL;
    let ed = [
        Edition::None,
        Edition::Foil,
        Edition::Holographic,
        Edition::Polychrome,
        Edition::Negative,
    ];
    let seals = [Seal::None, Seal::Gold, Seal::Red, Seal::Blue, Seal::Purple];
    // Each joker's owner name is written once and serves both lookups.
    let (jokers, joker_masks): (Vec<_>, Vec<_>) = run
        .jokers
        .iter()
        .map(|j| {
            let owner = format!("joker:{}", j.id);
            (
                t.owner_key(&owner),
                content.trigger_masks.get(&owner).copied().unwrap_or(0),
            )
        })
        .unzip();
    KeyCache {
        base: t.owner_key("card:base"),
        enhancement: enh.map(|e| k(e.owner())),
        edition: ed.map(|e| k(e.owner())),
        seal: seals.map(|e| k(e.owner())),
        jokers,
        joker_masks,
        pools: Some(content.pools.clone()),
        built_for: Some((run.jokers.iter().map(|j| j.id.clone()).collect(), t.len())),
    }
}

/// The cache `run` holds if it was built for the same jokers and table, else a new one.
fn cached_keys(content: &Content, run: &mut RunState) -> KeyCache {
    let keys = std::mem::take(&mut run.scoring.keys);
    let fresh = match &keys.built_for {
        Some((ids, rows)) => {
            *rows != content.effects.len()
                || ids.len() != run.jokers.len()
                || ids.iter().zip(&run.jokers).any(|(a, b)| *a != b.id)
        }
        None => true,
    };
    if fresh {
        key_cache(content, run)
    } else {
        keys
    }
}

/// The debuff rules, read once per score.
struct Debuffs<'a> {
    suits: [bool; 4],
    faces: bool,
    all_faces: bool,
    /// The cards played earlier this ante, when they are debuffed (`debuff_played_ante`).
    played_before: &'a [Card],
}

impl Debuffs<'_> {
    fn of(run: &RunState) -> Debuffs<'_> {
        Debuffs {
            suits: [
                run.rule(crate::state::Rule::DebuffSpades) != 0,
                run.rule(crate::state::Rule::DebuffHearts) != 0,
                run.rule(crate::state::Rule::DebuffClubs) != 0,
                run.rule(crate::state::Rule::DebuffDiamonds) != 0,
            ],
            faces: run.rule(crate::state::Rule::DebuffFaces) != 0,
            all_faces: run.rule(crate::state::Rule::AllFaces) != 0,
            played_before: if run.rule(crate::state::Rule::DebuffPlayedAnte) != 0 {
                &run.ante_played
            } else {
                &[]
            },
        }
    }

    /// A card is debuffed by its own mark, by a suit rule for its printed suit, by any suit
    /// rule when it is Wild (a Wild card is every suit, so it shares every suit's debuff), or
    /// by the face rule, or by having been played earlier this ante under that rule. Stone
    /// cards have no suit.
    fn debuffed(&self, card: &Card) -> bool {
        let wild = card.enhancement == Enhancement::Wild;
        card.debuffed
            || self.played_before.contains(card)
            || (!card.is_stone()
                && (self.suits[card.suit.index()] || (wild && self.suits.iter().any(|&s| s))))
            || (self.faces && card.is_face(self.all_faces))
    }
}

/// The rules poker hands are detected under, as the run's rules stand.
fn detection_rules(run: &RunState) -> DetectionRules {
    DetectionRules {
        four_fingers: run.rule(crate::state::Rule::FourFingers) != 0,
        shortcut: run.rule(crate::state::Rule::Shortcut) != 0,
        smeared: run.rule(crate::state::Rule::Smeared) != 0,
        splash: run.rule(crate::state::Rule::Splash) != 0,
    }
}

/// The poker hand `cards` make under the run's rules and debuffs (a discard's hand).
pub(crate) fn detect_in_run(run: &RunState, cards: &[Card]) -> crate::hands::Detected {
    let rules_now = Debuffs::of(run);
    let debuffs: Vec<bool> = cards.iter().map(|c| rules_now.debuffed(c)).collect();
    detect(cards, &debuffs, detection_rules(run))
}

fn synthetic(owner: &str, operation: &str, before: Number, after: Number) -> Step {
    Step {
        kind: StepKind::Instant,
        owner: Arc::from(owner),
        anchor: Target::Seat(turnstile_core::Seat(0)),
        row: 0,
        trigger: Arc::from("Base"),
        operation: Arc::from(operation),
        subject: None,
        target: Target::Seat(turnstile_core::Seat(0)),
        before,
        after,
    }
}

/// Scores `played` with `held` in hand, against the run's jokers, levels, rules and money.
/// With `record` false no step list is kept (the receipt's `steps` is empty).
pub fn score_hand(
    run: &mut RunState,
    content: &Content,
    played: &[Card],
    held: &[Card],
    record: bool,
) -> Result<ScoreReceipt, ScoreError> {
    if played.len() > 5 {
        return Err(ScoreError::TooManyCards(crate::indices::len_u32(
            played.len(),
        )));
    }
    let keys = cached_keys(content, run);
    let rules_now = Debuffs::of(run);
    let debuffs: Vec<bool> = played.iter().map(|c| rules_now.debuffed(c)).collect();
    let held_debuffs: Vec<bool> = held.iter().map(|c| rules_now.debuffed(c)).collect();
    let rules = detection_rules(run);
    let detected = detect(played, &debuffs, rules);
    let all_faces = run.rule(crate::state::Rule::AllFaces) != 0;
    let first_face = detected
        .scoring
        .iter()
        .copied()
        .find(|&i| played[i].is_face(all_faces) && !debuffs[i]);
    let mut old = std::mem::take(&mut run.scoring);
    old.played.clear();
    old.played.extend_from_slice(played);
    old.held.clear();
    old.held.extend_from_slice(held);
    old.destroyed.clear();
    run.scoring = Scoring {
        played: old.played,
        held: old.held,
        debuffed: debuffs,
        held_debuffed: held_debuffs,
        detected,
        chips: 0,
        mult: Fixed::ZERO,
        saturated: false,
        repetitions: 0,
        first_face,
        destroyed: old.destroyed,
        acting: None,
        keys,
        smeared: rules.smeared,
        all_faces,
        stake_rules: old.stake_rules,
        stake_only: false,
        selected: 0,
        destroyed_held: Vec::new(),
        destroyed_jokers: Vec::new(),
        deck: old.deck,
        repeat_hand: false,
        lucky_hit: false,
        round_percent: 0,
        rescue: 0,
        boss_redraw: 0,
        created: old.created,
        selling: None,
        random_order: Vec::new(),
    };
    let mut steps = Vec::new();
    let Some(hand) = run.scoring.detected.hand else {
        return Ok(receipt(run, None, false, 0, steps));
    };
    // What this round played before: a boss may forbid a repeat (`unique_hands`) or any hand
    // but the round's first (`one_hand_type`).
    let bit = 1u16 << hand.index();
    let repeat = run.round_hands & bit != 0;
    let other = run.round_hands != 0 && run.round_hands & bit == 0;
    run.scoring.repeat_hand = repeat;
    run.round_hands |= bit;
    // A minimum below zero asks for nothing; one past `usize` for more than can be played.
    let not_allowed = usize::try_from(run.rule(crate::state::Rule::MinCards).max(0))
        .unwrap_or(usize::MAX)
        > played.len()
        || (repeat && run.rule(crate::state::Rule::UniqueHands) != 0)
        || (other && run.rule(crate::state::Rule::OneHandType) != 0);
    if not_allowed {
        return Ok(receipt(run, Some(hand), true, 0, steps));
    }
    let mut exec = Executor::new(&content.effects, &content.handlers).recording(record);
    let seat = turnstile_core::Seat(0);
    macro_rules! fire {
        ($event:expr) => {{
            let r = exec.resolve(run, $event, &mut steps)?;
            if !record {
                steps.clear();
            }
            r
        }};
    }
    // Events no present owner has rows for are not fired: they could change nothing.
    let jokers_answer = |run: &RunState, trigger: &Trigger| {
        let keys = &run.scoring.keys;
        keys.joker_masks.len() != run.jokers.len()
            || keys
                .joker_masks
                .iter()
                .any(|m| m & crate::state::trigger_bit(trigger) != 0)
    };
    // 2. Before.
    let boss_before = run.boss_active
        && run.boss.as_ref().is_some_and(|b| {
            content.trigger_masks.get(b).copied().unwrap_or(0)
                & crate::state::trigger_bit(&Trigger::Game(CloverTrigger::BeforeScoring))
                != 0
        });
    if boss_before || jokers_answer(run, &Trigger::Game(CloverTrigger::BeforeScoring)) {
        fire!(Event::new(Trigger::Game(CloverTrigger::BeforeScoring)).by(seat));
    }
    run.last_hand = Some(hand);
    if let Some(count) = run.played_counts.get_mut(hand.index()) {
        *count = count.saturating_add(1);
    }
    // 3. Base values, then the boss's halving.
    let (chips, mult) = hand.values(run.levels.get(hand.index()).copied().unwrap_or(1));
    run.scoring.chips = chips;
    run.scoring.mult = Fixed::from_int(mult);
    if record {
        steps.push(synthetic(
            &format!("hand:{}", hand.name()),
            "Base",
            Number::Int(0),
            Number::Int(chips),
        ));
        steps.push(synthetic(
            &format!("hand:{}", hand.name()),
            "BaseMult",
            Number::Fixed(Fixed::ZERO),
            Number::Fixed(run.scoring.mult),
        ));
    }
    if run.rule(crate::state::Rule::HalveBase) != 0 {
        let before = run.scoring.mult;
        let halved_mult = ((mult + 1).div_euclid(2)).max(1);
        let halved_chips = ((chips + 1).div_euclid(2)).max(0);
        run.scoring.mult = Fixed::from_int(halved_mult);
        run.scoring.chips = halved_chips;
        if record {
            let boss = run.boss.clone().unwrap_or_default();
            steps.push(synthetic(
                &boss,
                "HalveChips",
                Number::Int(chips),
                Number::Int(halved_chips),
            ));
            steps.push(synthetic(
                &boss,
                "HalveMult",
                Number::Fixed(before),
                Number::Fixed(run.scoring.mult),
            ));
        }
    }
    let repeats = jokers_answer(run, &Trigger::Game(CloverTrigger::OnScoredRepeat));
    // 4. Scoring cards.
    let scoring = run.scoring.detected.scoring.clone();
    for &i in &scoring {
        if run.scoring.debuffed.get(i).copied().unwrap_or(false) {
            continue;
        }
        let card = Thing::Played(i).target();
        run.scoring.repetitions = 1;
        let seal = run.scoring.played[i].seal as usize;
        if repeats || run.scoring.keys.seal[seal].is_some() {
            fire!(Event::new(Trigger::Game(CloverTrigger::OnScoredRepeat))
                .by(seat)
                .at(card));
        }
        let reps = run.scoring.repetitions.clamp(1, 64);
        for _ in 0..reps {
            run.scoring.lucky_hit = false;
            fire!(Event::new(Trigger::Game(CloverTrigger::OnCardScored))
                .by(seat)
                .at(card));
        }
    }
    // 5. Held cards.
    let held_jokers = jokers_answer(run, &Trigger::Game(CloverTrigger::OnCardHeld));
    for i in 0..run.scoring.held.len() {
        if run.scoring.held_debuffed.get(i).copied().unwrap_or(false) {
            continue;
        }
        let enhancement = run.scoring.held[i].enhancement as usize;
        if !held_jokers && run.scoring.keys.enhancement[enhancement].is_none() {
            continue;
        }
        let card = Thing::Held(i).target();
        let first = fire!(Event::new(Trigger::Game(CloverTrigger::OnCardHeld))
            .by(seat)
            .at(card));
        if first.steps == 0 {
            continue;
        }
        run.scoring.repetitions = 1;
        fire!(Event::new(Trigger::Game(CloverTrigger::OnHeldRepeat))
            .by(seat)
            .at(card));
        let reps = run.scoring.repetitions.clamp(1, 64);
        for _ in 1..reps {
            fire!(Event::new(Trigger::Game(CloverTrigger::OnCardHeld))
                .by(seat)
                .at(card));
        }
    }
    // 6. Jokers, then consumables and the deck.
    let joker_effects = jokers_answer(run, &Trigger::Game(CloverTrigger::OnJokerEffect));
    for slot in 0..run.jokers.len() {
        let joker = Thing::Slot(slot).target();
        let edition = run.jokers[slot].edition as usize;
        let acts = run
            .effective_slot(slot)
            .and_then(|at| run.scoring.keys.joker_masks.get(at))
            .is_none_or(|m| {
                m & crate::state::trigger_bit(&Trigger::Game(CloverTrigger::OnHandPlayed)) != 0
            });
        if acts || run.scoring.keys.edition[edition].is_some() {
            fire!(Event::new(Trigger::Game(CloverTrigger::OnHandPlayed))
                .by(seat)
                .from(joker));
        }
        if joker_effects {
            fire!(Event::new(Trigger::Game(CloverTrigger::OnJokerEffect))
                .by(seat)
                .at(joker));
        }
        if run.scoring.keys.edition[edition].is_some() {
            fire!(Event::new(Trigger::Game(CloverTrigger::OnJokerDone))
                .by(seat)
                .from(joker));
        }
    }
    fire!(Event::new(Trigger::Game(CloverTrigger::OnFinalScore)).by(seat));
    // 7. chips × mult, once.
    let product = mul_int(run.scoring.chips, run.scoring.mult);
    run.scoring.saturated |= product.saturated;
    let score = product.value.max(0);
    let jokers_after = jokers_answer(run, &Trigger::Game(CloverTrigger::AfterScoring));
    for &i in &scoring {
        let enhancement = run.scoring.played[i].enhancement as usize;
        if jokers_after || run.scoring.keys.enhancement[enhancement].is_some() {
            let card = Thing::Played(i).target();
            fire!(Event::new(Trigger::Game(CloverTrigger::AfterScoring))
                .by(seat)
                .at(card));
        }
    }
    let receipt = receipt(run, Some(hand), false, score, steps);
    // A joker that destroyed itself (melted, eaten) leaves once the hand is scored.
    run.remove_destroyed_jokers();
    Ok(receipt)
}

fn receipt(
    run: &RunState,
    hand: Option<HandType>,
    not_allowed: bool,
    score: i64,
    steps: Vec<Step>,
) -> ScoreReceipt {
    let s = &run.scoring;
    ScoreReceipt {
        hand,
        not_allowed,
        scoring: s.detected.scoring.iter().map(|&i| i as u32).collect(),
        chips: if not_allowed { 0 } else { s.chips },
        mult: if not_allowed { Fixed::ZERO } else { s.mult },
        score,
        saturated: s.saturated,
        destroyed: s.destroyed.iter().map(|&i| i as u32).collect(),
        steps,
    }
}
