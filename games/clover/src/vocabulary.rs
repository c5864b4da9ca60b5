//! clover's own effect vocabulary: the triggers, scopes and operations of scoring and of a
//! run, which the engine (`turnstile-effects`) does not know. Declared here as types the
//! executor is generic over ([`CloverVocabulary`]); rows write them in the same cells as the
//! engine's (`trigger`, `scope`, `operation.$type`), and the names are the ones content has
//! always used. docs/clover.md, "Clover's effect vocabulary", lists them.
//!
//! The aliases ([`Trigger`], [`Event`], ...) are the engine's generic types with this
//! vocabulary filled in, so the rest of the crate writes `Event::new(..)` as before.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use turnstile_effects::{
    Amount, CompiledAmount, CompiledFactor, GameOperation, GameScope, GameVocabulary, Named,
    OperationCompiler,
};
use turnstile_formula::FormulaText;

use crate::cards::{Edition, Enhancement, Seal, Suit};

/// clover's vocabulary, as the engine's types take it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CloverVocabulary;

/// A trigger of clover's rows: the engine's or clover's own.
pub type Trigger = turnstile_effects::Trigger<CloverVocabulary>;
/// A scope of clover's rows: the engine's or clover's own.
pub type Scope = turnstile_effects::Scope<CloverVocabulary>;
/// An operation of clover's rows: the engine's or clover's own.
pub type Operation = turnstile_effects::Operation<CloverVocabulary>;
/// One of clover's effect rows in content form.
pub type EffectRow = turnstile_effects::EffectRow<CloverVocabulary>;
/// clover's effect rows, compiled.
pub type EffectTable = turnstile_effects::EffectTable<CloverVocabulary>;
/// Something that happened in a run, which rows react to.
pub type Event = turnstile_effects::Event<CloverVocabulary>;
/// The owners a host lists for an event.
pub type Owners<'a> = turnstile_effects::Owners<'a, CloverVocabulary>;
/// Where a row is acting.
pub type RowContext<'a> = turnstile_effects::RowContext<'a, CloverVocabulary>;
/// What a `Custom` handler is told.
pub type HandlerCall<'a> = turnstile_effects::HandlerCall<'a, CloverVocabulary>;

/// clover's own triggers: the moments of scoring (clover-facts.md's evaluation order) and of
/// a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CloverTrigger {
    /// Scoring: after the hand is detected, before base values are read — level-ups,
    /// scaling counters (clover-facts.md step 2).
    BeforeScoring,
    /// Scoring: a scored card is evaluated (once per repetition); the event's target is the card.
    OnCardScored,
    /// Scoring: a card held in hand is evaluated (once per repetition); target is the card.
    OnCardHeld,
    /// Scoring: asked once per scored card before it is evaluated; its `Retrigger` rows add
    /// repetitions.
    OnScoredRepeat,
    /// Scoring: asked once per held card; its `Retrigger` rows add repetitions (only applied
    /// when the card produced an effect).
    OnHeldRepeat,
    /// Scoring: a joker's main effect, joker slots left to right (after its foil/holographic).
    OnHandPlayed,
    /// Scoring: right after a joker's main effect, what other jokers grant it; target is it.
    OnJokerEffect,
    /// Scoring: after a joker's effect and what others grant it (its polychrome).
    OnJokerDone,
    /// Scoring: the final steps of consumables and the deck, before chips × mult.
    OnFinalScore,
    /// After chips × mult: destruction (glass breaking) and other after-effects.
    AfterScoring,
    /// Cards are discarded; target is each discarded card.
    OnDiscard,
    /// The owner is bought.
    OnBuy,
    /// The owner is sold.
    OnSell,
    /// The owner (a consumable, a tag) is used or taken.
    OnUse,
    /// A shop opens.
    OnShopEnter,
    /// A boss blind is beaten.
    OnBossDefeated,
    /// The shop is rerolled.
    OnReroll,
    /// A booster pack is closed with picks left.
    OnPackSkipped,
    /// A booster pack is opened (its contents are drawn).
    OnPackOpened,
    /// Another joker was sold: every joker still owned hears it.
    OnJokerSold,
    /// A blind's last hand fell short (`round.scoredPercent`); gaining `rescue` saves the run.
    OnRoundLost,
    /// A playing card was added to the run's deck (`AddCard`): once per card.
    OnCardAdded,
    /// A playing card was destroyed (glass breaking, a consumable, a joker); the event's
    /// target is the card.
    OnCardDestroyed,
}

impl Named for CloverTrigger {
    const ALL: &'static [CloverTrigger] = &[
        CloverTrigger::BeforeScoring,
        CloverTrigger::OnCardScored,
        CloverTrigger::OnCardHeld,
        CloverTrigger::OnScoredRepeat,
        CloverTrigger::OnHeldRepeat,
        CloverTrigger::OnHandPlayed,
        CloverTrigger::OnJokerEffect,
        CloverTrigger::OnJokerDone,
        CloverTrigger::OnFinalScore,
        CloverTrigger::AfterScoring,
        CloverTrigger::OnDiscard,
        CloverTrigger::OnBuy,
        CloverTrigger::OnSell,
        CloverTrigger::OnUse,
        CloverTrigger::OnShopEnter,
        CloverTrigger::OnBossDefeated,
        CloverTrigger::OnReroll,
        CloverTrigger::OnPackSkipped,
        CloverTrigger::OnPackOpened,
        CloverTrigger::OnJokerSold,
        CloverTrigger::OnRoundLost,
        CloverTrigger::OnCardAdded,
        CloverTrigger::OnCardDestroyed,
    ];

    fn name(self) -> &'static str {
        match self {
            CloverTrigger::BeforeScoring => "BeforeScoring",
            CloverTrigger::OnCardScored => "OnCardScored",
            CloverTrigger::OnCardHeld => "OnCardHeld",
            CloverTrigger::OnScoredRepeat => "OnScoredRepeat",
            CloverTrigger::OnHeldRepeat => "OnHeldRepeat",
            CloverTrigger::OnHandPlayed => "OnHandPlayed",
            CloverTrigger::OnJokerEffect => "OnJokerEffect",
            CloverTrigger::OnJokerDone => "OnJokerDone",
            CloverTrigger::OnFinalScore => "OnFinalScore",
            CloverTrigger::AfterScoring => "AfterScoring",
            CloverTrigger::OnDiscard => "OnDiscard",
            CloverTrigger::OnBuy => "OnBuy",
            CloverTrigger::OnSell => "OnSell",
            CloverTrigger::OnUse => "OnUse",
            CloverTrigger::OnShopEnter => "OnShopEnter",
            CloverTrigger::OnBossDefeated => "OnBossDefeated",
            CloverTrigger::OnReroll => "OnReroll",
            CloverTrigger::OnPackSkipped => "OnPackSkipped",
            CloverTrigger::OnPackOpened => "OnPackOpened",
            CloverTrigger::OnJokerSold => "OnJokerSold",
            CloverTrigger::OnRoundLost => "OnRoundLost",
            CloverTrigger::OnCardAdded => "OnCardAdded",
            CloverTrigger::OnCardDestroyed => "OnCardDestroyed",
        }
    }

    fn description(self) -> &'static str {
        match self {
            CloverTrigger::BeforeScoring => {
                "Scoring: after the hand is detected, before base values are read (level-ups, scaling counters)."
            }
            CloverTrigger::OnCardScored => {
                "Scoring: a scored card is evaluated (once per repetition); the event's target is the card."
            }
            CloverTrigger::OnCardHeld => {
                "Scoring: a card held in hand is evaluated (once per repetition); the target is the card."
            }
            CloverTrigger::OnScoredRepeat => {
                "Scoring: asked once per scored card before it is evaluated; its `Retrigger` rows add repetitions."
            }
            CloverTrigger::OnHeldRepeat => {
                "Scoring: asked once per held card; its `Retrigger` rows add repetitions (applied only when the card produced an effect)."
            }
            CloverTrigger::OnHandPlayed => {
                "Scoring: a joker's main effect, joker slots left to right (after its foil/holographic)."
            }
            CloverTrigger::OnJokerEffect => {
                "Scoring: right after a joker's main effect, what other jokers grant it; the target is it."
            }
            CloverTrigger::OnJokerDone => {
                "Scoring: after a joker's effect and what others grant it (its polychrome)."
            }
            CloverTrigger::OnFinalScore => {
                "Scoring: the final steps of consumables and the deck, before chips × mult."
            }
            CloverTrigger::AfterScoring => {
                "After chips × mult: destruction (glass breaking) and other after-effects."
            }
            CloverTrigger::OnDiscard => "Cards are discarded; the target is each discarded card.",
            CloverTrigger::OnBuy => "The owner is bought.",
            CloverTrigger::OnSell => "The owner is sold.",
            CloverTrigger::OnUse => "The owner (a consumable, a tag) is used or taken.",
            CloverTrigger::OnShopEnter => "A shop opens.",
            CloverTrigger::OnBossDefeated => "A boss blind is beaten.",
            CloverTrigger::OnReroll => "The shop is rerolled.",
            CloverTrigger::OnPackSkipped => "A booster pack is closed with picks left.",
            CloverTrigger::OnPackOpened => "A booster pack is opened (its contents are drawn).",
            CloverTrigger::OnJokerSold => {
                "Another joker was sold: every joker still owned hears it, after the sold one left."
            }
            CloverTrigger::OnCardDestroyed => {
                "A playing card was destroyed (glass, a consumable, a joker); the target is the card."
            }
            CloverTrigger::OnCardAdded => {
                "A playing card was added to the run's deck (an `AddCard` row), once per card."
            }
            CloverTrigger::OnRoundLost => {
                "A blind's last hand fell short; a row gaining the `rescue` resource saves the run."
            }
        }
    }
}

/// clover's own scopes: the cards and joker slots of scoring, and the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CloverScope {
    /// Scoring: the scored card being evaluated (the event's target).
    ScoredCard,
    /// Scoring: the held card being evaluated (the event's target).
    HeldCard,
    /// Every joker, slot order.
    AllJokers,
    /// The joker in the slot left of the owner, if any.
    LeftNeighbour,
    /// The joker in the slot right of the owner, if any.
    RightNeighbour,
    /// The run as a whole (the player's seat).
    Run,
    /// The playing cards a consumable is used on (chosen from the hand), left to right.
    Selected,
    /// The owner joker's own slot (a joker that destroys itself).
    ThisJoker,
    /// Scoring: every scoring card of the played hand that is not debuffed, left to right
    /// (what acts on the hand as a whole before its cards score).
    ScoringCards,
    /// A consumable's use: one card of the whole hand at random — the first card, in an order
    /// drawn on `creation` when the consumable is used, that no row destroyed yet.
    RandomHandCard,
}

impl Named for CloverScope {
    const ALL: &'static [CloverScope] = &[
        CloverScope::ScoredCard,
        CloverScope::HeldCard,
        CloverScope::AllJokers,
        CloverScope::LeftNeighbour,
        CloverScope::RightNeighbour,
        CloverScope::Run,
        CloverScope::Selected,
        CloverScope::ThisJoker,
        CloverScope::ScoringCards,
        CloverScope::RandomHandCard,
    ];

    fn name(self) -> &'static str {
        match self {
            CloverScope::ScoredCard => "ScoredCard",
            CloverScope::HeldCard => "HeldCard",
            CloverScope::AllJokers => "AllJokers",
            CloverScope::LeftNeighbour => "LeftNeighbour",
            CloverScope::RightNeighbour => "RightNeighbour",
            CloverScope::Run => "Run",
            CloverScope::Selected => "Selected",
            CloverScope::ThisJoker => "ThisJoker",
            CloverScope::ScoringCards => "ScoringCards",
            CloverScope::RandomHandCard => "RandomHandCard",
        }
    }

    fn description(self) -> &'static str {
        match self {
            CloverScope::ScoredCard => {
                "Scoring: the scored card being evaluated (the event's target)."
            }
            CloverScope::HeldCard => "Scoring: the held card being evaluated (the event's target).",
            CloverScope::AllJokers => "Every joker, slot order.",
            CloverScope::LeftNeighbour => "The joker in the slot left of the owner, if any.",
            CloverScope::RightNeighbour => "The joker in the slot right of the owner, if any.",
            CloverScope::Run => "The run as a whole (the player's seat).",
            CloverScope::Selected => {
                "The playing cards a consumable is used on (chosen from the hand), left to right."
            }
            CloverScope::ThisJoker => "The owner joker's own slot (a joker that destroys itself).",
            CloverScope::ScoringCards => {
                "Scoring: every scoring card of the played hand that is not debuffed, left to right."
            }
            CloverScope::RandomHandCard => {
                "A consumable's use: a card of the whole hand at random, not one a row destroyed already."
            }
        }
    }
}

impl GameScope for CloverScope {
    fn needs_event(self) -> bool {
        // The evaluated card is the event's target; slots and the run are always there.
        matches!(self, CloverScope::ScoredCard | CloverScope::HeldCard)
    }
}

/// How `ScaleSelf` changes the owner's counter.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum ScaleMode {
    /// Adds the amount (saturating).
    Add,
    /// Subtracts the amount, not below 0.
    Sub,
    /// Sets the counter to the amount.
    Reset,
}

/// clover's own operations, in content form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum CloverOperation {
    /// Scoring: adds chips to the hand being scored.
    AddChips {
        /// How many.
        amount: Amount,
        /// `Add` (empty), `Sub` (not below 0) or `Reset` (chips become the amount).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<ScaleMode>,
        /// A stream: the amount is then the top of one uniform draw from 0 to it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draw: Option<String>,
    },
    /// Scoring: adds whole mult to the hand being scored (mult is a `Fixed`).
    AddMult {
        /// How much.
        amount: Amount,
        /// `Add` (empty), `Sub` (not below 0) or `Reset` (mult becomes the amount).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<ScaleMode>,
        /// A stream: the amount is then the top of one uniform draw from 0 to it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draw: Option<String>,
    },
    /// Scoring: multiplies the mult by a factor: a decimal (`1.5`) or a formula giving a
    /// `Fixed` or an `Int`. The product is floored to ten-thousandths and saturates.
    MulMult {
        /// The factor.
        #[schemars(with = "turnstile_sheets::FormulaSchema")]
        factor: FormulaText,
    },
    /// Adds money to the run (the owner's seat).
    AddMoney {
        /// How much.
        amount: Amount,
    },
    /// Adds repetitions to the card being evaluated (asked on `OnScoredRepeat`/`OnHeldRepeat`).
    Retrigger {
        /// How many more times.
        count: Amount,
    },
    /// Raises a poker hand's level.
    LevelUpHand {
        /// The hand (`flush`, `pair`, ...); empty: the hand being played.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hand: Option<String>,
        /// By how many levels.
        count: Amount,
        /// `Add` (empty) raises, `Sub` lowers (never below level 1), `Reset` sets the level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<ScaleMode>,
    },
    /// Creates a card of a kind (a consumable, a joker, a playing card).
    CreateCard {
        /// The kind (`tarot`, `planet`, `joker`, ...).
        kind: String,
        /// Which one; empty: the game chooses (on its own stream).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// A joker's rarity (1 common … 4 legendary); empty: drawn 70/25/5 on `creation`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rarity: Option<u8>,
        /// A joker's edition (a negative one needs no free slot); empty: none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        edition: Option<Edition>,
    },
    /// Destroys the target.
    Destroy,
    /// Changes a playing card (a card a consumable was used on): each field given replaces
    /// the card's, and `rank` moves its rank up (an ace goes round to 2).
    AlterCard {
        /// The new enhancement.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        enhancement: Option<Enhancement>,
        /// The new seal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seal: Option<Seal>,
        /// The new suit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        suit: Option<Suit>,
        /// The new edition.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        edition: Option<Edition>,
        /// Ranks up by this many.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rank: Option<u8>,
        /// Chips the card keeps for good (added to its rank chips whenever it scores).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bonus: Option<u16>,
    },
    /// Raises what selling the target joker pays (a negative amount lowers it, not below 0).
    AddSellValue {
        /// By how much.
        amount: Amount,
    },
    /// Adds playing cards to the run's deck for good (and with `toHand` to the hand): copies
    /// of the target playing card, or new cards whose rank and suit are drawn on `creation`.
    AddCard {
        /// How many (at most 52).
        count: Amount,
        /// Copies of the target card (a played, held or chosen card).
        #[serde(default, skip_serializing_if = "is_false")]
        copy: bool,
        /// The new cards' enhancement.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        enhancement: Option<Enhancement>,
        /// The new cards' seal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seal: Option<Seal>,
        /// A seal drawn for each (uniform among the four, on `creation`).
        #[serde(default, skip_serializing_if = "is_false")]
        any_seal: bool,
        /// An enhancement drawn for each (uniform among the eight, on `creation`).
        #[serde(default, skip_serializing_if = "is_false")]
        any_enhancement: bool,
        /// The ranks a new card's rank is drawn from (empty: all thirteen).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ranks: Option<RankSet>,
        /// Into the hand as well (beyond the hand size), not only the deck.
        #[serde(default, skip_serializing_if = "is_false")]
        to_hand: bool,
    },
    /// Changes the owner's own counter (scaling jokers).
    ScaleSelf {
        /// By how much.
        amount: Amount,
        /// `Add` (empty), `Sub` (not below 0) or `Reset` (to the amount).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<ScaleMode>,
    },
}

impl GameOperation for CloverOperation {
    const NAMES: &'static [&'static str] = &[
        "AddChips",
        "AddMult",
        "MulMult",
        "AddMoney",
        "Retrigger",
        "LevelUpHand",
        "CreateCard",
        "Destroy",
        "ScaleSelf",
        "AlterCard",
        "AddSellValue",
        "AddCard",
    ];

    const COLUMNS: &'static [&'static str] = &[
        "operation.factor",
        "operation.hand",
        "operation.kind",
        "operation.id",
        "operation.mode",
        "operation.rarity",
        "operation.draw",
        "operation.enhancement",
        "operation.seal",
        "operation.suit",
        "operation.edition",
        "operation.rank",
        "operation.bonus",
        "operation.copy",
        "operation.anySeal",
        "operation.anyEnhancement",
        "operation.ranks",
        "operation.toHand",
    ];

    fn kind(&self) -> &'static str {
        match self {
            CloverOperation::AddChips { .. } => "AddChips",
            CloverOperation::AddMult { .. } => "AddMult",
            CloverOperation::MulMult { .. } => "MulMult",
            CloverOperation::AddMoney { .. } => "AddMoney",
            CloverOperation::Retrigger { .. } => "Retrigger",
            CloverOperation::LevelUpHand { .. } => "LevelUpHand",
            CloverOperation::CreateCard { .. } => "CreateCard",
            CloverOperation::Destroy => "Destroy",
            CloverOperation::ScaleSelf { .. } => "ScaleSelf",
            CloverOperation::AlterCard { .. } => "AlterCard",
            CloverOperation::AddSellValue { .. } => "AddSellValue",
            CloverOperation::AddCard { .. } => "AddCard",
        }
    }

    fn describe(name: &str) -> Option<&'static str> {
        Some(match name {
            "AddChips" => {
                "Scoring: adds chips to the hand being scored (mode Sub takes, Reset sets; with a draw stream, a uniform 0 to the amount)."
            }
            "AddMult" => {
                "Scoring: adds whole mult to the hand being scored (mode Sub takes, Reset sets; with a draw stream, a uniform 0 to the amount)."
            }
            "MulMult" => {
                "Scoring: multiplies the mult by a factor (a decimal or a formula); floored to ten-thousandths, saturating."
            }
            "AddMoney" => "Adds money to the run.",
            "Retrigger" => "Adds repetitions to the card being evaluated.",
            "LevelUpHand" => {
                "Raises a poker hand's level (empty hand: the hand being played); mode Sub lowers it, not below 1."
            }
            "CreateCard" => {
                "Creates a card of a kind when there is room (empty id: chosen on the `creation` stream)."
            }
            "Destroy" => {
                "Destroys the target: a scored card (after scoring), a card a consumable is used on, or a joker (not an eternal one)."
            }
            "ScaleSelf" => "Changes the owner's own counter: Add, Sub (not below 0) or Reset.",
            "AlterCard" => {
                "Changes the target playing card: its enhancement, seal, suit or edition, its rank up by a number, or lasting bonus chips."
            }
            "AddCard" => {
                "Adds playing cards to the run's deck (and the hand): copies of the target card, or new ones drawn on `creation`."
            }
            "AddSellValue" => {
                "Raises what selling the target joker pays (negative: lowers it, not below 0)."
            }
            _ => return None,
        })
    }
}

/// One of clover's operations, compiled: what the run's host carries out.
#[derive(Debug, Clone)]
pub enum CompiledCloverOperation {
    /// `AddChips`.
    AddChips(Tally),
    /// `AddMult`.
    AddMult(Tally),
    /// `MulMult`.
    MulMult(CompiledFactor),
    /// `AddMoney`.
    AddMoney(CompiledAmount),
    /// `Retrigger`.
    Retrigger(CompiledAmount),
    /// `LevelUpHand` (the hand is looked up when it acts, as the name may be any hand).
    LevelUpHand {
        /// The hand's name; `None`: the hand being played.
        hand: Option<Arc<str>>,
        /// By how many levels.
        count: CompiledAmount,
        /// Up, down or to.
        mode: ScaleMode,
    },
    /// `CreateCard`.
    CreateCard {
        /// The kind.
        kind: Arc<str>,
        /// Which one.
        id: Option<Arc<str>>,
        /// A joker's rarity, if fixed.
        rarity: Option<u8>,
        /// A joker's edition, if any.
        edition: Option<Edition>,
    },
    /// `Destroy`.
    Destroy,
    /// `ScaleSelf`.
    ScaleSelf {
        /// By how much.
        amount: CompiledAmount,
        /// How.
        mode: ScaleMode,
    },
    /// `AlterCard`.
    AlterCard(CardChange),
    /// `AddSellValue`.
    AddSellValue(CompiledAmount),
    /// `AddCard`.
    AddCard {
        /// How many.
        count: CompiledAmount,
        /// What the cards are.
        spec: NewCards,
    },
}

/// The ranks `AddCard` draws a new card's rank from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum RankSet {
    /// Jack, queen, king.
    Faces,
    /// The ace.
    Aces,
    /// 2 to 10.
    Numbers,
}

impl RankSet {
    /// The ranks, ascending (ace high: 14).
    pub fn ranks(self) -> &'static [u8] {
        match self {
            RankSet::Faces => &[11, 12, 13],
            RankSet::Aces => &[14],
            RankSet::Numbers => &[2, 3, 4, 5, 6, 7, 8, 9, 10],
        }
    }
}

/// What `AddCard` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NewCards {
    /// Copies of the target card.
    pub copy: bool,
    /// The enhancement given.
    pub enhancement: Option<Enhancement>,
    /// The seal given.
    pub seal: Option<Seal>,
    /// A seal drawn for each.
    pub any_seal: bool,
    /// An enhancement drawn for each.
    pub any_enhancement: bool,
    /// The ranks drawn from (none: all).
    pub ranks: Option<RankSet>,
    /// Into the hand as well.
    pub to_hand: bool,
}

/// A compiled `AddChips`/`AddMult`: the amount, how it applies, and the stream it is drawn
/// on (if drawn).
#[derive(Debug, Clone)]
pub struct Tally {
    /// The amount (or the top of the draw).
    pub amount: CompiledAmount,
    /// Add, Sub or Reset.
    pub mode: ScaleMode,
    /// The stream of the draw.
    pub draw: Option<Arc<str>>,
}

/// What `AlterCard` changes on a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardChange {
    /// The new enhancement.
    pub enhancement: Option<Enhancement>,
    /// The new seal.
    pub seal: Option<Seal>,
    /// The new suit.
    pub suit: Option<Suit>,
    /// The new edition.
    pub edition: Option<Edition>,
    /// Ranks up.
    pub rank: Option<u8>,
    /// Lasting chips added.
    pub bonus: Option<u16>,
}

impl CardChange {
    /// Applies the change to `card`.
    pub fn apply(&self, card: &mut crate::cards::Card) {
        if let Some(e) = self.enhancement {
            card.enhancement = e;
        }
        if let Some(s) = self.seal {
            card.seal = s;
        }
        if let Some(s) = self.suit {
            card.suit = s;
        }
        if let Some(e) = self.edition {
            card.edition = e;
        }
        if let Some(up) = self.rank {
            // Ranks 2..14 (ace high) go round: an ace ranked up by one is a 2.
            let r = u32::from(card.rank.clamp(2, 14)) - 2 + u32::from(up);
            card.rank = crate::indices::rank_of_draw(r);
        }
        if let Some(chips) = self.bonus {
            card.perma_bonus = card.perma_bonus.saturating_add(u32::from(chips));
        }
    }
}

impl GameVocabulary for CloverVocabulary {
    type Trigger = CloverTrigger;
    type Scope = CloverScope;
    type Operation = CloverOperation;
    type Compiled = CompiledCloverOperation;

    fn compile(
        operation: &CloverOperation,
        compiler: &mut OperationCompiler<'_>,
    ) -> Option<CompiledCloverOperation> {
        use CompiledCloverOperation as C;
        match operation {
            CloverOperation::AddChips { amount, mode, draw } => {
                tally(compiler, amount, *mode, draw.as_deref()).map(C::AddChips)
            }
            CloverOperation::AddMult { amount, mode, draw } => {
                tally(compiler, amount, *mode, draw.as_deref()).map(C::AddMult)
            }
            CloverOperation::MulMult { factor } => {
                compiler.factor("operation.factor", factor).map(C::MulMult)
            }
            CloverOperation::AddMoney { amount } => {
                compiler.subject("money");
                compiler.amount("operation.amount", amount).map(C::AddMoney)
            }
            CloverOperation::Retrigger { count } => {
                compiler.amount("operation.count", count).map(C::Retrigger)
            }
            CloverOperation::LevelUpHand { hand, count, mode } => {
                if let Some(hand) = hand {
                    compiler.subject(hand);
                }
                compiler
                    .amount("operation.count", count)
                    .map(|count| C::LevelUpHand {
                        hand: hand.as_deref().map(Arc::from),
                        count,
                        mode: mode.unwrap_or(ScaleMode::Add),
                    })
            }
            CloverOperation::CreateCard {
                kind,
                id,
                rarity,
                edition,
            } => {
                compiler.subject(kind);
                Some(C::CreateCard {
                    kind: Arc::from(kind.as_str()),
                    id: id.as_deref().map(Arc::from),
                    rarity: *rarity,
                    edition: *edition,
                })
            }
            CloverOperation::Destroy => Some(C::Destroy),
            CloverOperation::AlterCard {
                enhancement,
                seal,
                suit,
                edition,
                rank,
                bonus,
            } => {
                compiler.subject("card");
                Some(C::AlterCard(CardChange {
                    enhancement: *enhancement,
                    seal: *seal,
                    suit: *suit,
                    edition: *edition,
                    rank: *rank,
                    bonus: *bonus,
                }))
            }
            CloverOperation::AddCard {
                count,
                copy,
                enhancement,
                seal,
                any_seal,
                any_enhancement,
                ranks,
                to_hand,
            } => {
                compiler.subject("deck");
                compiler
                    .amount("operation.count", count)
                    .map(|count| C::AddCard {
                        count,
                        spec: NewCards {
                            copy: *copy,
                            enhancement: *enhancement,
                            seal: *seal,
                            any_seal: *any_seal,
                            any_enhancement: *any_enhancement,
                            ranks: *ranks,
                            to_hand: *to_hand,
                        },
                    })
            }
            CloverOperation::AddSellValue { amount } => {
                compiler.subject("sell_value");
                compiler
                    .amount("operation.amount", amount)
                    .map(C::AddSellValue)
            }
            CloverOperation::ScaleSelf { amount, mode } => {
                compiler.subject("counter");
                compiler
                    .amount("operation.amount", amount)
                    .map(|amount| C::ScaleSelf {
                        amount,
                        mode: mode.unwrap_or(ScaleMode::Add),
                    })
            }
        }
    }
}

fn tally(
    compiler: &mut OperationCompiler<'_>,
    amount: &Amount,
    mode: Option<ScaleMode>,
    draw: Option<&str>,
) -> Option<Tally> {
    if let Some(stream) = draw {
        if !crate::state::STREAM_NAMES.contains(&stream) {
            compiler.fail(
                "operation.draw",
                turnstile_effects::LoadError::UnknownStream {
                    name: stream.to_owned(),
                    known: turnstile_sheets::Names(
                        crate::state::STREAM_NAMES
                            .iter()
                            .map(|s| (*s).to_owned())
                            .collect(),
                    ),
                },
            );
            return None;
        }
    }
    compiler
        .amount("operation.amount", amount)
        .map(|amount| Tally {
            amount,
            mode: mode.unwrap_or(ScaleMode::Add),
            draw: draw.map(Arc::from),
        })
}

fn is_false(b: &bool) -> bool {
    !*b
}
