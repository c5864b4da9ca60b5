//! The run's state and its face to the effect executor: [`RunState`] implements
//! `turnstile_effects::EffectHost`. It says who is present for each moment, in the order the
//! rules fix (deck, stake, vouchers, boss, jokers, tags for rebuilds; the card's own
//! enhancement, seal and edition then the jokers for a scored card; ...), what the formula
//! variables are worth, and how the scoring tally, money, levels and rules change.
//!
//! Rules (hand size, discards, detection rules, boss debuffs, ...) are rule resources: never
//! changed in place, rebuilt from defaults by the executor's layers (docs/clover.md).

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::{Chance, Fixed, StreamTable, Streams};
use turnstile_effects::{
    Change, EffectHost, EffectLedger, EffectState, HostError, OperationError, OwnerInstance,
    OwnerKey, StatusBoard, Target, ThingId,
};
use turnstile_formula::{Type, Value, VariableSchema};

use crate::cards::{Card, Suit};
use crate::hands::{Detected, HandType};
use crate::indices::{len_i64, len_u32};
use crate::vocabulary::{
    CloverScope, CloverTrigger, CloverVocabulary, CompiledCloverOperation, Event, Owners,
    RowContext, ScaleMode, Trigger,
};

/// The named random streams of clover: the spec's ten, then one per further purpose.
pub const STREAMS: StreamTable = StreamTable::new(STREAM_NAMES);

/// The names of [`STREAMS`], in order.
pub const STREAM_NAMES: &[&str] = &[
    "shuffle",
    "shop_slot",
    "shop_rarity",
    "shop_voucher",
    "pack",
    "joker_proc",
    "card_proc",
    "boss",
    "tag",
    "misprint",
    "edition",
    "sticker",
    "consumable_proc",
    "round_target",
    "deck_gen",
    "shop_pick",
    "creation",
    "boss_proc",
];

/// The rule resources, with their defaults (layer 1). Index = position.
pub const RULES: &[(&str, i64)] = &[
    ("hand_size", 8),
    ("hands", 4),
    ("discards", 3),
    ("joker_slots", 5),
    ("consumable_slots", 2),
    ("four_fingers", 0),
    ("shortcut", 0),
    ("smeared", 0),
    ("all_faces", 0),
    ("splash", 0),
    ("halve_base", 0),
    ("debuff_spades", 0),
    ("debuff_hearts", 0),
    ("debuff_clubs", 0),
    ("debuff_diamonds", 0),
    ("debuff_faces", 0),
    ("min_cards", 0),
    ("chance_factor", 1),
    ("interest_cap", 25),
    ("shop_slots", 2),
    ("reroll_cost", 5),
    ("small_blind_reward", 3),
    ("blind_scaling", 1),
    ("interest", 1),
    ("blind_multiplier", 1),
    ("boss_blind_mult", 2),
    ("eternal_stickers", 0),
    ("perishable_stickers", 0),
    ("rental_stickers", 0),
    ("rental_fee", 3),
    ("rental_price", 1),
    ("perishable_rounds", 5),
    ("pack_slots", 2),
    ("boss_rerolls", 0),
    ("boss_reroll_cost", 10),
    ("joker_weight", 20),
    ("tarot_weight", 4),
    ("planet_weight", 4),
    ("spectral_weight", 0),
    ("hand_reward", 1),
    ("discard_reward", 0),
    ("observatory", 0),
    ("deck_shape", 0),
    ("debt_limit", 0),
    ("free_rerolls", 0),
    ("discount", 0),
    ("duplicates", 0),
    ("unique_hands", 0),
    ("one_hand_type", 0),
    ("hook_discards", 0),
    ("draw_count", 0),
    ("telescope", 0),
    ("free_planets", 0),
    ("no_boss", 0),
    ("voucher_slots", 1),
    ("arcana_spectrals", 0),
    ("disable_joker", 0),
    ("debuff_played_ante", 0),
    ("edition_rate", 1),
    ("card_weight", 0),
    ("card_extras", 0),
    ("face_down_first", 0),
    ("face_down_after_play", 0),
    ("face_down_faces", 0),
    ("face_down_odds", 0),
];

/// A rule resource by name, checked by the compiler: `run.rule(Rule::JokerSlots)`, so a
/// misspelt rule is a build error, not a silent 0. Its index is its place in [`RULES`] (a
/// test checks that the two lists agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// `hand_size` (default 8).
    HandSize,
    /// `hands` (default 4).
    Hands,
    /// `discards` (default 3).
    Discards,
    /// `joker_slots` (default 5).
    JokerSlots,
    /// `consumable_slots` (default 2).
    ConsumableSlots,
    /// `four_fingers` (default 0).
    FourFingers,
    /// `shortcut` (default 0).
    Shortcut,
    /// `smeared` (default 0).
    Smeared,
    /// `all_faces` (default 0).
    AllFaces,
    /// `splash` (default 0).
    Splash,
    /// `halve_base` (default 0).
    HalveBase,
    /// `debuff_spades` (default 0).
    DebuffSpades,
    /// `debuff_hearts` (default 0).
    DebuffHearts,
    /// `debuff_clubs` (default 0).
    DebuffClubs,
    /// `debuff_diamonds` (default 0).
    DebuffDiamonds,
    /// `debuff_faces` (default 0).
    DebuffFaces,
    /// `min_cards` (default 0).
    MinCards,
    /// `chance_factor` (default 1).
    ChanceFactor,
    /// `interest_cap` (default 25).
    InterestCap,
    /// `shop_slots` (default 2).
    ShopSlots,
    /// `reroll_cost` (default 5).
    RerollCost,
    /// `small_blind_reward` (default 3).
    SmallBlindReward,
    /// `blind_scaling` (default 1).
    BlindScaling,
    /// `interest` (default 1).
    Interest,
    /// `blind_multiplier` (default 1).
    BlindMultiplier,
    /// `boss_blind_mult` (default 2).
    BossBlindMult,
    /// `eternal_stickers` (default 0).
    EternalStickers,
    /// `perishable_stickers` (default 0).
    PerishableStickers,
    /// `rental_stickers` (default 0).
    RentalStickers,
    /// `rental_fee` (default 3).
    RentalFee,
    /// `rental_price` (default 1).
    RentalPrice,
    /// `perishable_rounds` (default 5).
    PerishableRounds,
    /// `pack_slots` (default 2).
    PackSlots,
    /// `boss_rerolls` (default 0): 0 none, 1 once per ante, 2 or more unlimited.
    BossRerolls,
    /// `boss_reroll_cost` (default 10): the price of a boss reroll.
    BossRerollCost,
    /// `joker_weight` (default 20): the shop's weight for a joker slot.
    JokerWeight,
    /// `tarot_weight` (default 4): for a tarot.
    TarotWeight,
    /// `planet_weight` (default 4): for a planet.
    PlanetWeight,
    /// `spectral_weight` (default 0): for a spectral.
    SpectralWeight,
    /// `hand_reward` (default 1): money per unused hand at the end of a round.
    HandReward,
    /// `discard_reward` (default 0): money per unused discard at the end of a round.
    DiscardReward,
    /// `observatory` (default 0): 1: each held planet of the hand played gives x1.5.
    Observatory,
    /// `deck_shape` (default 0): the starting deck — 0 the 52, 1 without faces, 2 26 spades
    /// and 26 hearts, 3 52 random cards (on `deck_gen`).
    DeckShape,
    /// `debt_limit` (default 0): how far below $0 money may be spent.
    DebtLimit,
    /// `free_rerolls` (default 0): shop rerolls that cost nothing, per shop.
    FreeRerolls,
    /// `discount` (default 0): percent off every shop price.
    Discount,
    /// `duplicates` (default 0): 1: jokers already owned may be offered again.
    Duplicates,
    /// `unique_hands` (default 0): 1: a poker hand already played this round is not allowed.
    UniqueHands,
    /// `one_hand_type` (default 0): 1: only the first poker hand played this round is allowed.
    OneHandType,
    /// `hook_discards` (default 0): held cards discarded at random after each hand played.
    HookDiscards,
    /// `draw_count` (default 0): when above 0, cards drawn after a play or discard (instead of filling the hand).
    DrawCount,
    /// `telescope` (default 0): 1: a Celestial pack's first card is the planet of the most
    /// played poker hand (once a hand has been played).
    Telescope,
    /// `free_planets` (default 0): 1: planet cards and Celestial packs in the shop cost $0.
    FreePlanets,
    /// `no_boss` (default 0): 1: a boss blind starts without its boss's rules (the boss is
    /// still drawn and shown, its target is a plain boss blind's).
    NoBoss,
    /// `voucher_slots` (default 1): vouchers a shop offers (a voucher tag adds one for its
    /// shop).
    VoucherSlots,
    /// `arcana_spectrals` (default 0): the chance, in %, that each card of a tarot (Arcana)
    /// pack is a spectral card instead.
    ArcanaSpectrals,
    /// `disable_joker` (default 0): 1: when the blind starts and after every hand, one joker
    /// drawn on `boss_proc` is disabled (debuffed) until the next draw.
    DisableJoker,
    /// `debuff_played_ante` (default 0): 1: cards played earlier this ante are debuffed.
    DebuffPlayedAnte,
    /// `edition_rate` (default 1): how often shop and pack jokers come with an edition (the
    /// foil, holographic and polychrome chances are multiplied by it).
    EditionRate,
    /// `card_weight` (default 0): the shop slot weight of playing cards for sale (beside
    /// `joker_weight` and the others).
    CardWeight,
    /// `card_extras` (default 0): 1: playing cards for sale may be enhanced, have an edition
    /// and a seal, as a Standard pack's do.
    CardExtras,
    /// `face_down_first` (default 0): 1: the blind's first hand is drawn face down.
    FaceDownFirst,
    /// `face_down_after_play` (default 0): 1: the cards drawn after a hand is played are drawn
    /// face down.
    FaceDownAfterPlay,
    /// `face_down_faces` (default 0): 1: face cards are drawn face down.
    FaceDownFaces,
    /// `face_down_odds` (default 0): when above 0, each card drawn is face down with a chance of
    /// 1 in this many (times `chance_factor`), rolled on `boss_proc`.
    FaceDownOdds,
}

impl Rule {
    /// Every rule, in [`RULES`] order.
    pub const ALL: [Rule; 65] = [
        Rule::HandSize,
        Rule::Hands,
        Rule::Discards,
        Rule::JokerSlots,
        Rule::ConsumableSlots,
        Rule::FourFingers,
        Rule::Shortcut,
        Rule::Smeared,
        Rule::AllFaces,
        Rule::Splash,
        Rule::HalveBase,
        Rule::DebuffSpades,
        Rule::DebuffHearts,
        Rule::DebuffClubs,
        Rule::DebuffDiamonds,
        Rule::DebuffFaces,
        Rule::MinCards,
        Rule::ChanceFactor,
        Rule::InterestCap,
        Rule::ShopSlots,
        Rule::RerollCost,
        Rule::SmallBlindReward,
        Rule::BlindScaling,
        Rule::Interest,
        Rule::BlindMultiplier,
        Rule::BossBlindMult,
        Rule::EternalStickers,
        Rule::PerishableStickers,
        Rule::RentalStickers,
        Rule::RentalFee,
        Rule::RentalPrice,
        Rule::PerishableRounds,
        Rule::PackSlots,
        Rule::BossRerolls,
        Rule::BossRerollCost,
        Rule::JokerWeight,
        Rule::TarotWeight,
        Rule::PlanetWeight,
        Rule::SpectralWeight,
        Rule::HandReward,
        Rule::DiscardReward,
        Rule::Observatory,
        Rule::DeckShape,
        Rule::DebtLimit,
        Rule::FreeRerolls,
        Rule::Discount,
        Rule::Duplicates,
        Rule::UniqueHands,
        Rule::OneHandType,
        Rule::HookDiscards,
        Rule::DrawCount,
        Rule::Telescope,
        Rule::FreePlanets,
        Rule::NoBoss,
        Rule::VoucherSlots,
        Rule::ArcanaSpectrals,
        Rule::DisableJoker,
        Rule::DebuffPlayedAnte,
        Rule::EditionRate,
        Rule::CardWeight,
        Rule::CardExtras,
        Rule::FaceDownFirst,
        Rule::FaceDownAfterPlay,
        Rule::FaceDownFaces,
        Rule::FaceDownOdds,
    ];

    /// The rule's name, as rows write it.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::HandSize => "hand_size",
            Rule::Hands => "hands",
            Rule::Discards => "discards",
            Rule::JokerSlots => "joker_slots",
            Rule::ConsumableSlots => "consumable_slots",
            Rule::FourFingers => "four_fingers",
            Rule::Shortcut => "shortcut",
            Rule::Smeared => "smeared",
            Rule::AllFaces => "all_faces",
            Rule::Splash => "splash",
            Rule::HalveBase => "halve_base",
            Rule::DebuffSpades => "debuff_spades",
            Rule::DebuffHearts => "debuff_hearts",
            Rule::DebuffClubs => "debuff_clubs",
            Rule::DebuffDiamonds => "debuff_diamonds",
            Rule::DebuffFaces => "debuff_faces",
            Rule::MinCards => "min_cards",
            Rule::ChanceFactor => "chance_factor",
            Rule::InterestCap => "interest_cap",
            Rule::ShopSlots => "shop_slots",
            Rule::RerollCost => "reroll_cost",
            Rule::SmallBlindReward => "small_blind_reward",
            Rule::BlindScaling => "blind_scaling",
            Rule::Interest => "interest",
            Rule::BlindMultiplier => "blind_multiplier",
            Rule::BossBlindMult => "boss_blind_mult",
            Rule::EternalStickers => "eternal_stickers",
            Rule::PerishableStickers => "perishable_stickers",
            Rule::RentalStickers => "rental_stickers",
            Rule::RentalFee => "rental_fee",
            Rule::RentalPrice => "rental_price",
            Rule::PerishableRounds => "perishable_rounds",
            Rule::PackSlots => "pack_slots",
            Rule::BossRerolls => "boss_rerolls",
            Rule::BossRerollCost => "boss_reroll_cost",
            Rule::JokerWeight => "joker_weight",
            Rule::TarotWeight => "tarot_weight",
            Rule::PlanetWeight => "planet_weight",
            Rule::SpectralWeight => "spectral_weight",
            Rule::HandReward => "hand_reward",
            Rule::DiscardReward => "discard_reward",
            Rule::Observatory => "observatory",
            Rule::DeckShape => "deck_shape",
            Rule::DebtLimit => "debt_limit",
            Rule::FreeRerolls => "free_rerolls",
            Rule::Discount => "discount",
            Rule::Duplicates => "duplicates",
            Rule::UniqueHands => "unique_hands",
            Rule::OneHandType => "one_hand_type",
            Rule::HookDiscards => "hook_discards",
            Rule::DrawCount => "draw_count",
            Rule::Telescope => "telescope",
            Rule::FreePlanets => "free_planets",
            Rule::NoBoss => "no_boss",
            Rule::VoucherSlots => "voucher_slots",
            Rule::ArcanaSpectrals => "arcana_spectrals",
            Rule::DisableJoker => "disable_joker",
            Rule::DebuffPlayedAnte => "debuff_played_ante",
            Rule::EditionRate => "edition_rate",
            Rule::CardWeight => "card_weight",
            Rule::CardExtras => "card_extras",
            Rule::FaceDownFirst => "face_down_first",
            Rule::FaceDownAfterPlay => "face_down_after_play",
            Rule::FaceDownFaces => "face_down_faces",
            Rule::FaceDownOdds => "face_down_odds",
        }
    }
}

/// How a run's rule values are written: `{name: value}` for each rule whose value differs from
/// its [`RULES`] default, names sorted. Read back from that map (a rule left out is at its
/// default; an unknown name is an error) or from the list every rule was once written as
/// (rules version 1 and before: values in [`RULES`] order, the rules added since at their
/// defaults).
pub mod rules_encoding {
    use std::collections::BTreeMap;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    use super::{rule_index, RULES};

    /// Writes the rules that differ from their defaults.
    pub fn serialize<S: Serializer>(rules: &[i64], out: S) -> Result<S::Ok, S::Error> {
        let changed: BTreeMap<&str, i64> = RULES
            .iter()
            .zip(rules)
            .filter(|((_, default), value)| *default != **value)
            .map(|((name, _), value)| (*name, *value))
            .collect();
        out.collect_map(changed)
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Changed(BTreeMap<String, i64>),
        Every(Vec<i64>),
    }

    /// Reads either form back into every rule's value.
    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<Vec<i64>, D::Error> {
        let mut rules: Vec<i64> = RULES.iter().map(|(_, v)| *v).collect();
        match Written::deserialize(input)? {
            Written::Changed(changed) => {
                for (name, value) in changed {
                    let at = rule_index(&name)
                        .ok_or_else(|| D::Error::custom(format!("unknown rule `{name}`")))?;
                    rules[at] = value;
                }
            }
            Written::Every(values) => {
                if values.len() > rules.len() {
                    return Err(D::Error::custom(format!(
                        "{} rule values for {} rules",
                        values.len(),
                        rules.len()
                    )));
                }
                rules[..values.len()].copy_from_slice(&values);
            }
        }
        Ok(rules)
    }
}

/// The index of rule `name` in [`RULES`].
pub fn rule_index(name: &str) -> Option<usize> {
    RULES.iter().position(|(n, _)| *n == name)
}

/// The formula variables effect rows may read, in slot order.
pub const VARIABLES: &[(&str, Type)] = &[
    ("card.rank", Type::Int),
    ("card.spades", Type::Bool),
    ("card.hearts", Type::Bool),
    ("card.clubs", Type::Bool),
    ("card.diamonds", Type::Bool),
    ("card.face", Type::Bool),
    ("card.first", Type::Bool),
    ("card.firstFace", Type::Bool),
    ("card.chips", Type::Int),
    ("hand.type", Type::Int),
    ("hand.hasPair", Type::Bool),
    ("hand.hasTwoPair", Type::Bool),
    ("hand.hasThree", Type::Bool),
    ("hand.hasFour", Type::Bool),
    ("hand.hasStraight", Type::Bool),
    ("hand.hasFlush", Type::Bool),
    ("hand.played", Type::Int),
    ("run.discardsLeft", Type::Int),
    ("run.handsLeft", Type::Int),
    ("run.money", Type::Int),
    ("run.jokers", Type::Int),
    ("held.lowestChips", Type::Int),
    ("held.allDark", Type::Bool),
    ("scored.suits", Type::Int),
    ("scored.clubAndOther", Type::Bool),
    ("self.counter", Type::Int),
    ("target.rarity", Type::Int),
    ("card.enhanced", Type::Bool),
    ("hand.timesPlayed", Type::Int),
    ("card.enhancement", Type::Int),
    ("card.seal", Type::Int),
    ("scored.count", Type::Int),
    ("scored.faces", Type::Int),
    ("held.count", Type::Int),
    ("run.ante", Type::Int),
    ("run.jokerSlots", Type::Int),
    ("hand.level", Type::Int),
    ("round.handsPlayed", Type::Int),
    ("run.discardsPerRound", Type::Int),
    ("held.isLowest", Type::Bool),
    ("used.planet", Type::Bool),
    ("used.tarot", Type::Bool),
    ("run.consumables", Type::Int),
    ("rule.chanceFactor", Type::Int),
    ("score.chips", Type::Int),
    ("score.mult", Type::Int),
    ("card.edition", Type::Int),
    ("run.round", Type::Int),
    ("scored.hasFace", Type::Bool),
    ("used.tag", Type::Bool),
    ("run.handsPlayed", Type::Int),
    ("rule.observatory", Type::Int),
    ("hand.mostPlayed", Type::Bool),
    ("deck.left", Type::Int),
    ("deck.steel", Type::Int),
    ("deck.stone", Type::Int),
    ("deck.nines", Type::Int),
    ("deck.enhanced", Type::Int),
    ("hand.playedThisRound", Type::Bool),
    ("run.skips", Type::Int),
    ("run.unusedDiscards", Type::Int),
    ("card.roundCard", Type::Bool),
    ("card.roundSuit", Type::Bool),
    ("card.roundDiscardSuit", Type::Bool),
    ("card.roundDiscardRank", Type::Bool),
    ("hand.roundHand", Type::Bool),
    ("jokers.otherSellValue", Type::Int),
    ("scored.aces", Type::Int),
    ("deck.belowStart", Type::Int),
    ("run.planetsUsed", Type::Int),
    ("held.faces", Type::Int),
    ("held.first", Type::Bool),
    ("target.sellValue", Type::Int),
    ("target.eternal", Type::Bool),
    ("card.luckyHit", Type::Bool),
    ("card.destroyed", Type::Bool),
    ("round.scoredPercent", Type::Int),
    ("round.rescued", Type::Bool),
    ("self.leaving", Type::Bool),
    ("run.bossActive", Type::Bool),
    ("round.discardsUsed", Type::Int),
];

/// The variable schema of [`VARIABLES`].
pub fn variable_schema() -> VariableSchema {
    VariableSchema::from_declarations(VARIABLES.iter().copied()).unwrap_or_default()
}

/// How a copying joker finds what it copies.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum Copies {
    /// It copies nothing.
    #[default]
    None,
    /// It acts as its right neighbour.
    Right,
    /// It acts as the leftmost joker.
    Leftmost,
}

/// A joker in a slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Joker {
    /// Its content id (`joker:<id>` owns its rows).
    pub id: String,
    /// Its edition.
    #[serde(default)]
    pub edition: crate::cards::Edition,
    /// Its own counter (scaling jokers).
    #[serde(default)]
    pub counter: i64,
    /// 1 common, 2 uncommon, 3 rare, 4 legendary.
    #[serde(default = "one")]
    pub rarity: u8,
    /// Whether it copies another joker.
    #[serde(default)]
    pub copies: Copies,
    /// Eternal sticker: it cannot be sold or destroyed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub eternal: bool,
    /// Perishable sticker: the rounds it still works; at 0 it is debuffed (does nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perishable: Option<u32>,
    /// Rental sticker: bought for `rental_price`, costs `rental_fee` at every round's end.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rental: bool,
    /// What selling it pays: half its catalog cost (at least $1; a rental joker half the
    /// rental price), plus what `AddSellValue` rows gave it since.
    #[serde(default)]
    pub sell_value: i64,
    /// Disabled by a boss for the coming hand (`disable_joker`): debuffed until the boss
    /// disables another or leaves.
    #[serde(default, skip_serializing_if = "is_false")]
    pub disabled: bool,
}

impl Joker {
    /// Whether it is debuffed (a perishable joker whose rounds ran out, or one a boss
    /// disabled): its rows never act.
    pub fn debuffed(&self) -> bool {
        self.perishable == Some(0) || self.disabled
    }

    /// Gives it the stickers polled for it; `rounds` is what a perishable sticker starts at.
    pub fn stick(&mut self, stickers: Stickers, rounds: u32) {
        self.eternal = stickers.eternal;
        self.perishable = stickers.perishable.then_some(rounds);
        self.rental = stickers.rental;
        self.edition = stickers.edition;
    }
}

/// What a joker offered in the shop or a pack comes with: the stickers polled for it (stakes
/// 4, 7, 8) and its edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stickers {
    /// Cannot be sold or destroyed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub eternal: bool,
    /// Debuffed after `perishable_rounds` rounds.
    #[serde(default, skip_serializing_if = "is_false")]
    pub perishable: bool,
    /// Costs `rental_fee` per round; bought for `rental_price`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rental: bool,
    /// Its edition (polled at `edition_rate`; it raises the price).
    #[serde(default, skip_serializing_if = "crate::cards::Edition::is_none")]
    pub edition: crate::cards::Edition,
}

impl Stickers {
    /// Whether it has none.
    pub fn is_none(&self) -> bool {
        *self == Stickers::default()
    }
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn one() -> u8 {
    1
}

/// What `CreateCard` chooses from, taken from the content once: the owner refs of each
/// consumable kind, the jokers by rarity, and the planet of each poker hand (the planet whose
/// `OnUse` row levels that hand up).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CreationPools {
    /// `planet:<id>`, in id order.
    pub planets: Vec<String>,
    /// `tarot:<id>`, in id order.
    pub tarots: Vec<String>,
    /// `spectral:<id>`, in id order.
    pub spectrals: Vec<String>,
    /// Joker templates by rarity 1 (common), 2 (uncommon), 3 (rare), 4 (legendary), in id
    /// order.
    pub jokers: [Vec<Joker>; 4],
    /// The planet of each hand (`planet:<id>`), lowest hand first.
    pub planet_of_hand: Vec<Option<String>>,
}

impl CreationPools {
    fn consumables(&self, kind: &str) -> Option<&[String]> {
        match kind {
            "planet" => Some(&self.planets),
            "tarot" => Some(&self.tarots),
            "spectral" => Some(&self.spectrals),
            _ => None,
        }
    }
}

/// What a thing id names in a run: a played card, a held card or a joker slot, by its index.
/// The engine's ids are numbers — played cards from 1000, held cards from 2000, joker slots from
/// 3000 (step lists and the web client read them so) — and this is the only place that knows
/// the offsets: code decodes an id with [`Thing::of`] and builds one with [`Thing::target`], so
/// an id of one kind can never be read as an index of another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    /// The played card at this index.
    Played(usize),
    /// The held card at this index (while a discard or a consumable resolves: those cards).
    Held(usize),
    /// The joker slot at this index.
    Slot(usize),
}

impl Thing {
    const PLAYED: u32 = 1000;
    const HELD: u32 = 2000;
    const SLOT: u32 = 3000;
    /// How many ids each kind has.
    const SPAN: u32 = 1000;

    /// The thing a target names, if it names one.
    pub fn of(target: Target) -> Option<Thing> {
        let Target::Thing(ThingId(n)) = target else {
            return None;
        };
        let index = (n % Self::SPAN) as usize;
        match n / Self::SPAN {
            1 => Some(Thing::Played(index)),
            2 => Some(Thing::Held(index)),
            3 => Some(Thing::Slot(index)),
            _ => None,
        }
    }

    /// The target naming it. An index past its kind's span (never reached: five played cards,
    /// a hand, a row of jokers) names nothing rather than another kind's thing.
    pub fn target(self) -> Target {
        let (base, index) = match self {
            Thing::Played(i) => (Self::PLAYED, i),
            Thing::Held(i) => (Self::HELD, i),
            Thing::Slot(i) => (Self::SLOT, i),
        };
        let id = u32::try_from(index)
            .ok()
            .filter(|i| *i < Self::SPAN)
            .map_or(u32::MAX, |i| base + i);
        Target::Thing(ThingId(id))
    }
}

/// The tally and context of the hand being scored (not serialized: it lives for one score).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scoring {
    /// The played cards, in played order.
    pub played: Vec<Card>,
    /// The cards held in hand.
    pub held: Vec<Card>,
    /// Debuffed played cards.
    pub debuffed: Vec<bool>,
    /// Debuffed held cards.
    pub held_debuffed: Vec<bool>,
    /// The detection.
    pub detected: Detected,
    /// Chips so far.
    pub chips: i64,
    /// Mult so far.
    pub mult: Fixed,
    /// Whether any step saturated.
    pub saturated: bool,
    /// Repetitions gathered for the card being evaluated.
    pub repetitions: i64,
    /// The first scoring face card's index.
    pub first_face: Option<usize>,
    /// Played cards destroyed after scoring (indices).
    pub destroyed: Vec<usize>,
    /// The owner an `OnUse`/`OnBuy`/`OnSell` event is about.
    pub acting: Option<String>,
    /// Cached owner keys: `card:base`, enhancements, editions, seals.
    pub(crate) keys: KeyCache,
    /// The `smeared` rule, read once per score.
    pub smeared: bool,
    /// The `all_faces` rule, read once per score.
    pub all_faces: bool,
    /// Layer 1 of a rebuild: the rule defaults with the stake's rows applied, for the stake
    /// they were computed for (`run::stake_layer` fills it; a rebuild resets to it).
    pub(crate) stake_rules: Option<(u8, Vec<i64>)>,
    /// While `stake_rules` is computed: only stakes are listed for `Passive`.
    pub(crate) stake_only: bool,
    /// How many cards (the first of `held`) a consumable is being used on.
    pub selected: usize,
    /// Held cards destroyed by a consumable (indices into `held`).
    pub destroyed_held: Vec<usize>,
    /// Joker slots destroyed during a resolution (removed once it is over).
    pub destroyed_jokers: Vec<usize>,
    /// What the run's deck holds, as the game tells it before a hand or a round's end.
    pub deck: DeckCounts,
    /// Whether the hand being scored was already played this round.
    pub repeat_hand: bool,
    /// Whether a Lucky card's chance paid in the evaluation of the scored card now being
    /// evaluated (reset before each evaluation, read by `card.luckyHit`).
    pub lucky_hit: bool,
    /// While `OnRoundLost` resolves: how much of the blind's target the round scored, in %.
    pub round_percent: i64,
    /// While `OnRoundLost` resolves: the `rescue` resource (above 0: the run is saved).
    pub rescue: i64,
    /// While a tag's `OnUse` resolves: the `boss_redraw` resource (above 0: the ante's boss
    /// is drawn again once it is over).
    pub boss_redraw: i64,
    /// Playing cards `AddCard` rows made, waiting for the game to add them to the run's deck
    /// (and hand); the game takes them after every action.
    pub created: Vec<NewCard>,
    /// While a joker's `OnSell` resolves: its slot (it is leaving, so a copy may take it).
    pub selling: Option<usize>,
    /// While a consumable is used: the hand's cards (indices into `held`) in an order drawn
    /// on `creation`, for `RandomHandCard` rows (empty when the consumable has none).
    pub random_order: Vec<usize>,
}

/// Counts of the run's deck that rows read (`deck.*`): the game sets them from its cards
/// before scoring a hand and before a round's end; a bare [`RunState`] has none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeckCounts {
    /// Cards left to draw this blind.
    pub left: i64,
    /// Steel cards the run owns.
    pub steel: i64,
    /// Stone cards the run owns.
    pub stone: i64,
    /// Nines the run owns.
    pub nines: i64,
    /// Enhanced cards the run owns.
    pub enhanced: i64,
    /// Cards the run owns.
    pub size: i64,
}

impl DeckCounts {
    /// The counts of the run's `cards`, `left` of them still to draw.
    pub fn of(cards: &[Card], left: usize) -> DeckCounts {
        let count = |f: &dyn Fn(&Card) -> bool| cards.iter().filter(|c| f(c)).count() as i64;
        DeckCounts {
            left: left as i64,
            steel: count(&|c| c.enhancement == crate::cards::Enhancement::Steel),
            stone: count(&|c| c.is_stone()),
            nines: count(&|c| !c.is_stone() && c.rank == 9),
            enhanced: count(&|c| c.enhancement != crate::cards::Enhancement::None),
            size: len_i64(cards.len()),
        }
    }
}

/// A joker rarity from a roll below 100: 70 common, 25 uncommon, 5 rare.
pub fn rarity_of_roll(roll: u32) -> u8 {
    if roll < 70 {
        1
    } else if roll < 95 {
        2
    } else {
        3
    }
}

/// The scoring triggers whose rows a joker may have, each a bit of a joker's trigger mask.
const MASKED_TRIGGERS: [Trigger; 8] = [
    Trigger::Game(CloverTrigger::BeforeScoring),
    Trigger::Game(CloverTrigger::OnCardScored),
    Trigger::Game(CloverTrigger::OnScoredRepeat),
    Trigger::Game(CloverTrigger::OnCardHeld),
    Trigger::Game(CloverTrigger::OnHeldRepeat),
    Trigger::Game(CloverTrigger::OnHandPlayed),
    Trigger::Game(CloverTrigger::OnJokerEffect),
    Trigger::Game(CloverTrigger::AfterScoring),
];

/// The bit of `trigger` in a trigger mask; every bit for a trigger that is not masked (its
/// owners are always listed).
pub(crate) fn trigger_bit(trigger: &Trigger) -> u32 {
    MASKED_TRIGGERS
        .iter()
        .position(|t| t == trigger)
        .map_or(u32::MAX, |i| 1 << i)
}

/// Owner keys looked up once per table, so listing owners costs no string lookups.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct KeyCache {
    pub base: Option<OwnerKey>,
    pub enhancement: [Option<OwnerKey>; 9],
    pub edition: [Option<OwnerKey>; 5],
    pub seal: [Option<OwnerKey>; 5],
    pub jokers: Vec<Option<OwnerKey>>,
    /// Per joker slot, the triggers its own rows answer ([`trigger_bit`]): a joker without
    /// rows for an event is not listed for it. Listing it would change nothing (owners without
    /// rows are skipped) but costs a table lookup per joker per event, the bulk of scoring.
    pub joker_masks: Vec<u32>,
    /// What `CreateCard` chooses from.
    pub pools: Option<std::sync::Arc<CreationPools>>,
    /// What the cache was built for: the joker ids and the table's row count.
    pub built_for: Option<(Vec<String>, usize)>,
}

/// What this round's target-reading jokers look for (the effigy's card, the relic's suit, the
/// keep's discarded suit, the rebate's discarded rank, the errand list's hand). Drawn on
/// `round_target` when the run starts and at every round's end ([`crate::run::draw_round_targets`]),
/// so they are known — and shown — for the whole round, whether or not such a joker is owned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundTargets {
    /// The rank of the card a scored card must be (`card.roundCard`), 2..=14.
    pub card_rank: u8,
    /// The suit of that card.
    pub card_suit: Suit,
    /// The suit scored cards are multiplied for (`card.roundSuit`).
    pub suit: Suit,
    /// The suit discarded cards pay in chips for (`card.roundDiscardSuit`).
    pub discard_suit: Suit,
    /// The rank discarded cards pay money for (`card.roundDiscardRank`), 2..=14.
    pub discard_rank: u8,
    /// The poker hand that pays when played (`hand.roundHand`).
    pub hand: HandType,
}

impl Default for RoundTargets {
    /// The genre's fallbacks when the deck has no card to draw from: the ace of spades.
    fn default() -> Self {
        RoundTargets {
            card_rank: 14,
            card_suit: Suit::Spades,
            suit: Suit::Spades,
            discard_suit: Suit::Spades,
            discard_rank: 14,
            hand: HandType::HighCard,
        }
    }
}

/// A playing card an `AddCard` row made, for the game to add to the run's deck (and hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewCard {
    /// The card.
    pub card: Card,
    /// Into the hand as well.
    pub to_hand: bool,
}

/// The run: everything a fingerprint covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunState {
    /// Stake, 1 (White) .. 8.
    pub stake: u8,
    /// The deck's id (`deck:<id>` owns its rows).
    pub deck: String,
    /// Money.
    pub money: i64,
    /// Ante.
    pub ante: u32,
    /// Round number (from 1).
    pub round: u32,
    /// Hands left this round.
    pub hands_left: i64,
    /// Discards left this round.
    pub discards_left: i64,
    /// Hand levels, lowest hand first (12 entries).
    pub levels: Vec<u32>,
    /// Times each hand was played.
    pub played_counts: Vec<u32>,
    /// Jokers in slot order.
    pub jokers: Vec<Joker>,
    /// Consumables held (owner refs: `planet:...`).
    pub consumables: Vec<String>,
    /// Vouchers bought.
    pub vouchers: Vec<String>,
    /// Tags held (owner refs: `tag:...`).
    pub tags: Vec<String>,
    /// The boss of this ante, if chosen.
    pub boss: Option<String>,
    /// Whether the boss blind is being played (its rules apply only then).
    pub boss_active: bool,
    /// The rule values, [`RULES`] order. Written as the rules that differ from their defaults,
    /// by name ([`rules_encoding`]), so a rule added later that a run never changes leaves the
    /// run's encoding — and its fingerprints — as they were.
    #[serde(with = "rules_encoding")]
    pub rules: Vec<i64>,
    /// Lingering rule changes.
    pub ledger: EffectLedger,
    /// The named streams.
    pub streams: Streams,
    /// The poker hand played last (a blue seal creates its planet).
    #[serde(default)]
    pub last_hand: Option<HandType>,
    /// Shops entered so far (the first one always offers a joker pack).
    #[serde(default)]
    pub shops: u32,
    /// The poker hands played this round, a bit per hand (lowest hand the lowest bit).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub round_hands: u16,
    /// Blinds skipped this run.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub skips: u32,
    /// The cards played this ante (as they were after scoring), for `debuff_played_ante`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ante_played: Vec<Card>,
    /// Copies the next tag taken brings (the `tag_copies` resource: a double tag, the diet
    /// soda joker sold).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub tag_copies: u32,
    /// Discards left unused at the ends of this run's rounds, summed.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub unused_discards: u32,
    /// Whether this ante's boss was rerolled (a once-per-ante reroll is spent).
    #[serde(default, skip_serializing_if = "is_false")]
    pub boss_rerolled: bool,
    /// This round's targets (see [`RoundTargets`]).
    #[serde(default)]
    pub round_targets: RoundTargets,
    /// How many cards the run's deck had when the run started (0 for a bare run).
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub deck_start: i64,
    /// The planet cards used this run, each once (`planet:<id>`), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub planets_used: Vec<String>,
    /// Statuses (clover has none; the host contract asks for a board).
    pub statuses: StatusBoard,
    /// The hand being scored.
    #[serde(skip)]
    pub scoring: Scoring,
}

impl RunState {
    /// A new run at ante 1 on a seed, stake and deck. A stake outside
    /// [`crate::game::STAKES`] is refused (`invalid_stake`), never moved to the nearest one.
    pub fn new(seed: &str, stake: u8, deck: &str) -> Result<RunState, HostError> {
        if !crate::game::STAKES.contains(&stake) {
            return Err(HostError::new(
                "invalid_stake",
                crate::game::stake_range_message(i64::from(stake)),
            ));
        }
        let streams =
            Streams::new(seed, &STREAMS).map_err(|e| HostError::new("bad_seed", e.to_string()))?;
        Ok(RunState {
            stake,
            deck: deck.to_owned(),
            money: 4,
            ante: 1,
            round: 0,
            hands_left: 4,
            discards_left: 3,
            levels: vec![1; 12],
            played_counts: vec![0; 12],
            jokers: Vec::new(),
            consumables: Vec::new(),
            vouchers: Vec::new(),
            tags: Vec::new(),
            boss: None,
            boss_active: false,
            last_hand: None,
            shops: 0,
            boss_rerolled: false,
            round_targets: RoundTargets::default(),
            deck_start: 0,
            planets_used: Vec::new(),
            round_hands: 0,
            skips: 0,
            tag_copies: 0,
            ante_played: Vec::new(),
            unused_discards: 0,
            rules: RULES.iter().map(|(_, v)| *v).collect(),
            ledger: EffectLedger::new(),
            streams,
            statuses: StatusBoard::default(),
            scoring: Scoring::default(),
        })
    }

    /// Removes the jokers a resolution destroyed (highest slot first, so the others keep
    /// their places until then); whether any left.
    pub(crate) fn remove_destroyed_jokers(&mut self) -> bool {
        let mut gone = std::mem::take(&mut self.scoring.destroyed_jokers);
        gone.sort_unstable();
        gone.dedup();
        let any = !gone.is_empty();
        for i in gone.into_iter().rev() {
            if i < self.jokers.len() {
                self.jokers.remove(i);
            }
        }
        any
    }

    /// A shop price after the `discount` rule: `floor(base × (100 − discount) / 100)`, at
    /// least $1 for anything that costs something.
    pub fn price(&self, base: i64) -> i64 {
        let off = self.rule(Rule::Discount).clamp(0, 100);
        if base <= 0 {
            return base.max(0);
        }
        (base.saturating_mul(100 - off) / 100).max(1)
    }

    /// The money that may be spent: what is held plus the `debt_limit` a joker allows.
    pub fn spendable(&self) -> i64 {
        self.money.saturating_add(self.rule(Rule::DebtLimit).max(0))
    }

    /// The value of a rule now.
    pub fn rule(&self, rule: Rule) -> i64 {
        // `rules` always holds every rule (reset from RULES), so the index is in range.
        self.rules.get(rule as usize).copied().unwrap_or(0)
    }

    /// The joker slot a copying joker finally acts as (itself when it copies nothing).
    pub fn effective_slot(&self, slot: usize) -> Option<usize> {
        let mut at = slot;
        for _ in 0..=self.jokers.len() {
            match self.jokers.get(at)?.copies {
                Copies::None => return Some(at),
                Copies::Right => at += 1,
                Copies::Leftmost => {
                    if at == 0 {
                        return None;
                    }
                    at = 0;
                }
            }
        }
        None
    }

    fn push_joker(&self, slot: usize, owners: &mut Owners<'_>, bit: u32) {
        let Some(at) = self.effective_slot(slot) else {
            return;
        };
        if self
            .scoring
            .keys
            .joker_masks
            .get(at)
            .is_some_and(|mask| mask & bit == 0)
        {
            return;
        }
        // A debuffed joker (a perishable one past its rounds) does nothing, and a copy of one
        // copies nothing.
        if self.jokers.get(slot).is_none_or(Joker::debuffed)
            || self.jokers.get(at).is_none_or(Joker::debuffed)
        {
            return;
        }
        let key = match self.scoring.keys.jokers.get(at) {
            Some(Some(key)) => Some(*key),
            Some(None) => None,
            None => self
                .jokers
                .get(at)
                .and_then(|j| owners.table().owner_key(&format!("joker:{}", j.id))),
        };
        if let Some(key) = key {
            owners.push_key(key, Thing::Slot(at).target(), Some(turnstile_core::Seat(0)));
        }
    }

    fn push_jokers(&self, owners: &mut Owners<'_>, bit: u32) {
        for slot in 0..self.jokers.len() {
            self.push_joker(slot, owners, bit);
        }
    }

    fn push_str(owners: &mut Owners<'_>, owner: &str) {
        owners.push(
            owner,
            Target::Seat(turnstile_core::Seat(0)),
            Some(turnstile_core::Seat(0)),
        );
    }

    fn push_cached(owners: &mut Owners<'_>, key: Option<OwnerKey>, anchor: Target) {
        if let Some(key) = key {
            owners.push_key(key, anchor, Some(turnstile_core::Seat(0)));
        }
    }

    /// The card a context speaks of: its target if that is a card, else the event's target.
    fn card_of(&self, context: &RowContext<'_>) -> Option<(Card, bool, usize)> {
        let pick = |t: Target| match Thing::of(t)? {
            Thing::Played(i) => self.scoring.played.get(i).map(|c| (*c, false, i)),
            Thing::Held(i) => self.scoring.held.get(i).map(|c| (*c, true, i)),
            Thing::Slot(_) => None,
        };
        pick(context.target).or_else(|| context.event.target.and_then(pick))
    }

    fn smeared(&self) -> bool {
        self.scoring.smeared
    }

    /// The held card whose rank is lowest (Stone cards have none, debuffed cards do not
    /// count); among equal ranks the rightmost, as the genre picks it.
    fn lowest_held(&self) -> Option<usize> {
        let s = &self.scoring;
        let mut best: Option<(usize, u8)> = None;
        for (i, c) in s.held.iter().enumerate() {
            if c.is_stone() || s.held_debuffed.get(i).copied().unwrap_or(false) {
                continue;
            }
            if best.is_none_or(|(_, r)| c.rank <= r) {
                best = Some((i, c.rank));
            }
        }
        best.map(|(i, _)| i)
    }

    /// The hand being scored.
    pub fn hand(&self) -> HandType {
        self.scoring.detected.hand.unwrap_or(HandType::HighCard)
    }

    fn set_rule_value(&mut self, name: &str, value: i64) -> Result<(), HostError> {
        let i = rule_index(name)
            .ok_or_else(|| HostError::no_resource(Target::Seat(turnstile_core::Seat(0)), name))?;
        if let Some(slot) = self.rules.get_mut(i) {
            *slot = value;
        }
        Ok(())
    }
}

impl EffectHost for RunState {
    type Vocabulary = CloverVocabulary;

    fn seat_count(&self) -> u16 {
        1
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn owners(&self, event: &Event, owners: &mut Owners<'_>) {
        let seat = Target::Seat(turnstile_core::Seat(0));
        let keys = &self.scoring.keys;
        let bit = trigger_bit(&event.trigger);
        match &event.trigger {
            Trigger::Passive => {
                // Stakes are layer 1 (the defaults a rebuild starts from), computed once per
                // run by a rebuild that lists only them; every other rebuild leaves them out.
                if self.scoring.stake_only {
                    for stake in 1..=self.stake {
                        RunState::push_str(owners, &format!("stake:s{stake}"));
                    }
                    return;
                }
                RunState::push_str(owners, &format!("deck:{}", self.deck));
                for v in &self.vouchers {
                    RunState::push_str(owners, v);
                }
                if self.boss_active {
                    if let Some(boss) = &self.boss {
                        RunState::push_str(owners, boss);
                    }
                }
                self.push_jokers(owners, bit);
                // A negative joker's edition brings a joker slot (even while it is debuffed:
                // the slot is the card's, not its effect's).
                for joker in &self.jokers {
                    if joker.edition == crate::cards::Edition::Negative {
                        RunState::push_str(owners, "edition:negative");
                    }
                }
                for t in &self.tags {
                    RunState::push_str(owners, t);
                }
            }
            Trigger::Game(CloverTrigger::OnCardScored)
            | Trigger::Game(CloverTrigger::OnScoredRepeat)
            | Trigger::Game(CloverTrigger::AfterScoring) => {
                let Some(Thing::Played(i)) = event.target.and_then(Thing::of) else {
                    return;
                };
                let Some(card) = self.scoring.played.get(i) else {
                    return;
                };
                let anchor = Thing::Played(i).target();
                match event.trigger {
                    Trigger::Game(CloverTrigger::OnCardScored) => {
                        RunState::push_cached(owners, keys.base, anchor);
                        RunState::push_cached(
                            owners,
                            keys.enhancement[card.enhancement as usize],
                            anchor,
                        );
                        RunState::push_cached(owners, keys.seal[card.seal as usize], anchor);
                        RunState::push_cached(owners, keys.edition[card.edition as usize], anchor);
                        self.push_jokers(owners, bit);
                    }
                    Trigger::Game(CloverTrigger::OnScoredRepeat) => {
                        RunState::push_cached(owners, keys.seal[card.seal as usize], anchor);
                        self.push_jokers(owners, bit);
                    }
                    _ => {
                        RunState::push_cached(
                            owners,
                            keys.enhancement[card.enhancement as usize],
                            anchor,
                        );
                        self.push_jokers(owners, bit);
                    }
                }
            }
            Trigger::Game(CloverTrigger::OnCardHeld)
            | Trigger::Game(CloverTrigger::OnHeldRepeat)
            | Trigger::OnRoundEnd
            | Trigger::Game(CloverTrigger::OnDiscard)
                if matches!(event.target, Some(Target::Thing(_))) =>
            {
                let Some(Thing::Held(i)) = event.target.and_then(Thing::of) else {
                    return;
                };
                let Some(card) = self.scoring.held.get(i) else {
                    return;
                };
                let anchor = Thing::Held(i).target();
                match event.trigger {
                    Trigger::Game(CloverTrigger::OnCardHeld) => {
                        RunState::push_cached(
                            owners,
                            keys.enhancement[card.enhancement as usize],
                            anchor,
                        );
                        self.push_jokers(owners, bit);
                    }
                    Trigger::Game(CloverTrigger::OnHeldRepeat)
                    | Trigger::Game(CloverTrigger::OnDiscard) => {
                        RunState::push_cached(owners, keys.seal[card.seal as usize], anchor);
                        self.push_jokers(owners, bit);
                    }
                    _ => {
                        RunState::push_cached(
                            owners,
                            keys.enhancement[card.enhancement as usize],
                            anchor,
                        );
                        RunState::push_cached(owners, keys.seal[card.seal as usize], anchor);
                    }
                }
            }
            Trigger::Game(CloverTrigger::OnHandPlayed)
            | Trigger::Game(CloverTrigger::OnJokerDone) => {
                let Some(Thing::Slot(slot)) = event.source.and_then(Thing::of) else {
                    return;
                };
                let Some(joker) = self.jokers.get(slot) else {
                    return;
                };
                let anchor = Thing::Slot(slot).target();
                RunState::push_cached(owners, keys.edition[joker.edition as usize], anchor);
                if event.trigger == Trigger::Game(CloverTrigger::OnHandPlayed) {
                    self.push_joker(slot, owners, bit);
                }
            }
            Trigger::Game(CloverTrigger::OnFinalScore) => {
                for c in &self.consumables {
                    RunState::push_str(owners, c);
                }
                RunState::push_str(owners, &format!("deck:{}", self.deck));
            }
            Trigger::Game(CloverTrigger::OnUse)
            | Trigger::Game(CloverTrigger::OnBuy)
            | Trigger::Game(CloverTrigger::OnSell) => {
                if let Some(source @ Target::Thing(_)) = event.source {
                    if let Some(slot) = joker_slot(source) {
                        self.push_joker(slot, owners, bit);
                    }
                } else if let Some(acting) = &self.scoring.acting {
                    RunState::push_str(owners, acting);
                    // A consumable used or a tag taken is news to the jokers too (their
                    // `OnUse` rows: counters of tarots or planets used, of blinds skipped);
                    // a deck's start is not.
                    if ["planet:", "tarot:", "spectral:", "tag:"]
                        .iter()
                        .any(|k| acting.starts_with(k))
                    {
                        self.push_jokers(owners, bit);
                    }
                }
            }
            Trigger::Game(CloverTrigger::OnShopEnter)
            | Trigger::Game(CloverTrigger::OnBossDefeated) => {
                for v in &self.vouchers {
                    RunState::push_str(owners, v);
                }
                for t in &self.tags {
                    RunState::push_str(owners, t);
                }
                self.push_jokers(owners, bit);
            }
            Trigger::Game(CloverTrigger::BeforeScoring) => {
                // The boss acts first (a toll per card played), then the jokers.
                if self.boss_active {
                    if let Some(boss) = &self.boss {
                        RunState::push_str(owners, boss);
                    }
                }
                self.push_jokers(owners, bit);
            }
            Trigger::OnRoundStart | Trigger::OnRoundEnd => {
                if self.boss_active {
                    if let Some(boss) = &self.boss {
                        RunState::push_str(owners, boss);
                    }
                }
                self.push_jokers(owners, bit);
            }
            _ => {
                let _ = seat;
                self.push_jokers(owners, bit);
            }
        }
    }

    fn variable(&self, context: &RowContext<'_>, slot: u16) -> Option<Value> {
        let s = &self.scoring;
        let d = &s.detected;
        let card = || self.card_of(context);
        let suit = |suit: Suit| {
            card().map(|(c, held, i)| {
                let debuffed = if held {
                    s.held_debuffed.get(i).copied().unwrap_or(false)
                } else {
                    s.debuffed.get(i).copied().unwrap_or(false)
                };
                Value::Bool(c.is_suit(suit, self.smeared(), debuffed))
            })
        };
        let all_faces = s.all_faces;
        Some(match slot {
            0 => Value::Int(card().map_or(
                0,
                |(c, _, _)| if c.is_stone() { 0 } else { i64::from(c.rank) },
            )),
            1 => suit(Suit::Spades).unwrap_or(Value::Bool(false)),
            2 => suit(Suit::Hearts).unwrap_or(Value::Bool(false)),
            3 => suit(Suit::Clubs).unwrap_or(Value::Bool(false)),
            4 => suit(Suit::Diamonds).unwrap_or(Value::Bool(false)),
            5 => Value::Bool(card().is_some_and(|(c, _, _)| c.is_face(all_faces))),
            6 => Value::Bool(
                card().is_some_and(|(_, held, i)| !held && d.scoring.first() == Some(&i)),
            ),
            7 => Value::Bool(card().is_some_and(|(_, held, i)| !held && s.first_face == Some(i))),
            8 => Value::Int(card().map_or(0, |(c, _, _)| c.chips())),
            9 => Value::Int(self.hand().index() as i64),
            10 => Value::Bool(d.has_pair),
            11 => Value::Bool(d.has_two_pair),
            12 => Value::Bool(d.has_three),
            13 => Value::Bool(d.has_four),
            14 => Value::Bool(d.has_straight),
            15 => Value::Bool(d.has_flush),
            16 => Value::Int(len_i64(s.played.len())),
            17 => Value::Int(self.discards_left),
            18 => Value::Int(self.hands_left),
            19 => Value::Int(self.money),
            20 => Value::Int(len_i64(self.jokers.len())),
            21 => Value::Int(
                self.lowest_held()
                    .and_then(|i| s.held.get(i))
                    .map_or(0, |c| c.chips() - i64::from(c.perma_bonus)),
            ),
            22 => Value::Bool(s.held.iter().all(|c| {
                c.is_suit(Suit::Spades, self.smeared(), false)
                    || c.is_suit(Suit::Clubs, self.smeared(), false)
            })),
            23 => {
                let mut present = [false; 4];
                let mut wild = 0i64;
                for &i in &d.scoring {
                    let Some(c) = s.played.get(i) else { continue };
                    // A debuffed card (a Wild one included) counts for no suit here.
                    if c.is_stone() || s.debuffed.get(i).copied().unwrap_or(false) {
                        continue;
                    }
                    if c.enhancement == crate::cards::Enhancement::Wild {
                        wild += 1;
                    } else {
                        present[c.suit.index()] = true;
                    }
                }
                let distinct = present.iter().filter(|p| **p).count() as i64;
                Value::Int((distinct + wild).min(4))
            }
            24 => {
                // Debuffed scoring cards count for no suit.
                let scored: Vec<&Card> = (d.scoring.iter())
                    .filter(|&&i| !s.debuffed.get(i).copied().unwrap_or(false))
                    .filter_map(|&i| s.played.get(i))
                    .collect();
                let club = scored
                    .iter()
                    .any(|c| c.is_suit(Suit::Clubs, self.smeared(), false));
                let other = scored.iter().any(|c| {
                    !c.is_stone()
                        && (c.is_suit(Suit::Spades, self.smeared(), false) && c.suit != Suit::Clubs
                            || c.is_suit(Suit::Hearts, self.smeared(), false)
                            || c.is_suit(Suit::Diamonds, self.smeared(), false))
                });
                Value::Bool(club && other)
            }
            25 => Value::Int(
                joker_slot(context.owner.anchor)
                    .and_then(|slot| self.jokers.get(slot))
                    .map_or(0, |j| j.counter),
            ),
            26 => Value::Int(
                joker_slot(context.target)
                    .and_then(|slot| self.jokers.get(slot))
                    .map_or(0, |j| i64::from(j.rarity)),
            ),
            27 => Value::Bool(
                card().is_some_and(|(c, _, _)| c.enhancement != crate::cards::Enhancement::None),
            ),
            28 => Value::Int(i64::from(
                self.played_counts
                    .get(self.hand().index())
                    .copied()
                    .unwrap_or(0),
            )),
            29 => Value::Int(card().map_or(0, |(c, _, _)| c.enhancement as i64)),
            30 => Value::Int(card().map_or(0, |(c, _, _)| c.seal as i64)),
            31 => Value::Int(len_i64(d.scoring.len())),
            32 => Value::Int(
                (d.scoring.iter())
                    .filter(|&&i| !s.debuffed.get(i).copied().unwrap_or(false))
                    .filter_map(|&i| s.played.get(i))
                    .filter(|c| c.is_face(all_faces))
                    .count() as i64,
            ),
            33 => Value::Int(len_i64(s.held.len())),
            34 => Value::Int(i64::from(self.ante)),
            35 => Value::Int(self.rule(Rule::JokerSlots)),
            36 => Value::Int(i64::from(
                self.levels.get(self.hand().index()).copied().unwrap_or(1),
            )),
            // Hands played this round before the one being scored (`hands_left` is already
            // spent for it).
            37 => Value::Int((self.rule(Rule::Hands) - self.hands_left - 1).max(0)),
            38 => Value::Int(self.rule(Rule::Discards)),
            39 => Value::Bool(
                card().is_some_and(|(_, held, i)| held && self.lowest_held() == Some(i)),
            ),
            40 => Value::Bool(
                self.scoring
                    .acting
                    .as_deref()
                    .is_some_and(|a| a.starts_with("planet:")),
            ),
            41 => Value::Bool(
                self.scoring
                    .acting
                    .as_deref()
                    .is_some_and(|a| a.starts_with("tarot:")),
            ),
            42 => Value::Int(len_i64(self.consumables.len())),
            43 => Value::Int(self.rule(Rule::ChanceFactor)),
            44 => Value::Int(s.chips),
            45 => Value::Int(s.mult.floor_int()),
            46 => Value::Int(card().map_or(0, |(c, _, _)| c.edition as i64)),
            47 => Value::Int(i64::from(self.round)),
            48 => Value::Bool(
                (d.scoring.iter())
                    .filter(|&&i| !s.debuffed.get(i).copied().unwrap_or(false))
                    .filter_map(|&i| s.played.get(i))
                    .any(|c| c.is_face(all_faces)),
            ),
            49 => Value::Bool(
                self.scoring
                    .acting
                    .as_deref()
                    .is_some_and(|a| a.starts_with("tag:")),
            ),
            50 => Value::Int(self.played_counts.iter().map(|&n| i64::from(n)).sum()),
            51 => Value::Int(self.rule(Rule::Observatory)),
            // Played before more often than (or as often as) every other hand.
            52 => Value::Bool({
                let mine = self
                    .played_counts
                    .get(self.hand().index())
                    .copied()
                    .unwrap_or(0);
                mine > 0 && self.played_counts.iter().all(|&n| n <= mine)
            }),
            53 => Value::Int(s.deck.left),
            54 => Value::Int(s.deck.steel),
            55 => Value::Int(s.deck.stone),
            56 => Value::Int(s.deck.nines),
            57 => Value::Int(s.deck.enhanced),
            // Played earlier this round (the bit of the hand being scored is set after it).
            58 => Value::Bool(self.scoring.repeat_hand),
            59 => Value::Int(i64::from(self.skips)),
            60 => Value::Int(i64::from(self.unused_discards)),
            // The round's targets. A Wild card is every suit (unless debuffed); a stone card
            // has no rank or suit.
            61 => {
                let t = &self.round_targets;
                Value::Bool(
                    card().is_some_and(|(c, _, _)| !c.is_stone() && c.rank == t.card_rank)
                        && suit(t.card_suit) == Some(Value::Bool(true)),
                )
            }
            62 => suit(self.round_targets.suit).unwrap_or(Value::Bool(false)),
            63 => suit(self.round_targets.discard_suit).unwrap_or(Value::Bool(false)),
            64 => Value::Bool(card().is_some_and(|(c, _, _)| {
                !c.is_stone() && c.rank == self.round_targets.discard_rank
            })),
            65 => Value::Bool(self.scoring.detected.hand == Some(self.round_targets.hand)),
            // The sell values of every joker but the owner.
            66 => {
                let own = joker_slot(context.owner.anchor);
                Value::Int(
                    (self.jokers.iter().enumerate())
                        .filter(|(slot, _)| Some(*slot) != own)
                        .fold(0i64, |sum, (_, j)| sum.saturating_add(j.sell_value)),
                )
            }
            // Scoring aces, debuffed and stone cards left out.
            67 => Value::Int(
                (d.scoring.iter())
                    .filter(|&&i| !s.debuffed.get(i).copied().unwrap_or(false))
                    .filter_map(|&i| s.played.get(i))
                    .filter(|c| !c.is_stone() && c.rank == 14)
                    .count() as i64,
            ),
            // Cards the deck has lost since the run started (0 while the game has not told
            // the deck's size, so in the calculator).
            68 => Value::Int(if s.deck.size == 0 {
                0
            } else {
                (self.deck_start - s.deck.size).max(0)
            }),
            69 => Value::Int(len_i64(self.planets_used.len())),
            // Face cards held (while a discard resolves, the discarded cards are the held
            // ones, so this counts the faces discarded at once).
            70 => Value::Int(s.held.iter().filter(|c| c.is_face(all_faces)).count() as i64),
            // The event is about the first held card: a row that should act once per discard,
            // not once per discarded card, asks for it.
            71 => Value::Bool(card().is_some_and(|(_, held, i)| held && i == 0)),
            74 => Value::Bool(self.scoring.lucky_hit),
            76 => Value::Int(self.scoring.round_percent),
            77 => Value::Bool(self.scoring.rescue > 0),
            79 => Value::Bool(self.boss_active),
            // Discards used this round before the one resolving (the game counts the
            // discard off before it resolves).
            80 => Value::Int((self.rule(Rule::Discards) - self.discards_left - 1).max(0)),
            // The owner joker is being destroyed in this resolution (an eternal one never is).
            78 => Value::Bool(
                joker_slot(context.owner.anchor)
                    .is_some_and(|slot| self.scoring.destroyed_jokers.contains(&slot)),
            ),
            75 => Value::Bool(
                card().is_some_and(|(_, held, i)| !held && self.scoring.destroyed.contains(&i)),
            ),
            // The target joker's sell value and eternal sticker (0 and false off a joker).
            72 | 73 => {
                let joker = joker_slot(context.target).and_then(|slot| self.jokers.get(slot));
                if slot == 72 {
                    Value::Int(joker.map_or(0, |j| j.sell_value))
                } else {
                    Value::Bool(joker.is_some_and(|j| j.eternal))
                }
            }
            _ => return None,
        })
    }

    fn streams(&mut self) -> &mut Streams {
        &mut self.streams
    }

    fn resource(&self, _target: Target, resource: &str) -> Option<i64> {
        if resource == "money" {
            return Some(self.money);
        }
        if resource == "ante" {
            return Some(i64::from(self.ante));
        }
        if resource == "rescue" {
            return Some(self.scoring.rescue);
        }
        if resource == "boss_redraw" {
            return Some(self.scoring.boss_redraw);
        }
        if resource == "tag_copies" {
            return Some(i64::from(self.tag_copies));
        }
        if resource == "boss_active" {
            return Some(i64::from(self.boss_active));
        }
        rule_index(resource).and_then(|i| self.rules.get(i).copied())
    }

    fn set_resource(
        &mut self,
        _target: Target,
        resource: &str,
        value: i64,
    ) -> Result<(), HostError> {
        if resource == "money" {
            self.money = value;
            return Ok(());
        }
        if resource == "rescue" {
            self.scoring.rescue = value;
            return Ok(());
        }
        if resource == "boss_redraw" {
            self.scoring.boss_redraw = value;
            return Ok(());
        }
        if resource == "boss_active" {
            // A row may turn the boss off, never on.
            if value > i64::from(self.boss_active) || value < 0 {
                return Err(HostError::new(
                    "bad_value",
                    format!("boss_active cannot become {value}: rows only turn a boss off"),
                ));
            }
            self.boss_active = value == 1;
            return Ok(());
        }
        if resource == "tag_copies" {
            self.tag_copies = u32::try_from(value).map_err(|_| {
                HostError::new("bad_value", format!("tag_copies cannot be {value}"))
            })?;
            return Ok(());
        }
        if resource == "ante" {
            // An ante below 1 is ante 1 (the blind table starts there); one past `u32` is
            // refused rather than cut down.
            self.ante = u32::try_from(value.max(1))
                .map_err(|_| HostError::new("bad_value", format!("ante cannot be {value}")))?;
            return Ok(());
        }
        self.set_rule_value(resource, value)
    }

    fn effects(&mut self) -> EffectState<'_> {
        EffectState {
            statuses: &mut self.statuses,
            ledger: &mut self.ledger,
        }
    }

    fn reset_rules(&mut self) {
        match &self.scoring.stake_rules {
            Some((stake, rules)) if *stake == self.stake && !self.scoring.stake_only => {
                self.rules.clone_from(rules);
            }
            _ => self.rules = RULES.iter().map(|(_, v)| *v).collect(),
        }
    }

    fn draw(
        &mut self,
        target: Target,
        _count: i64,
        _caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        Err(HostError::not_applicable("Draw", target))
    }

    fn scope_targets(
        &self,
        scope: CloverScope,
        owner: &OwnerInstance,
        event: &Event,
        out: &mut Vec<Target>,
    ) {
        let slot = joker_slot(owner.anchor);
        match scope {
            CloverScope::ScoredCard | CloverScope::HeldCard => out.extend(event.target),
            CloverScope::Run => out.push(Target::Seat(turnstile_core::Seat(0))),
            CloverScope::ThisJoker => {
                if slot.is_some() {
                    out.push(owner.anchor);
                }
            }
            CloverScope::Selected => out.extend(
                (0..self.scoring.selected.min(self.scoring.held.len()))
                    .map(|k| Thing::Held(k).target()),
            ),
            CloverScope::AllJokers => {
                out.extend((0..self.jokers.len()).map(|j| Thing::Slot(j).target()))
            }
            CloverScope::RandomHandCard => out.extend(
                (self.scoring.random_order.iter())
                    .find(|i| !self.scoring.destroyed_held.contains(i))
                    .map(|&i| Thing::Held(i).target()),
            ),
            CloverScope::ScoringCards => out.extend(
                (self.scoring.detected.scoring.iter())
                    .filter(|&&i| !self.scoring.debuffed.get(i).copied().unwrap_or(false))
                    .map(|&i| Thing::Played(i).target()),
            ),
            CloverScope::LeftNeighbour => {
                if let Some(j) = slot.filter(|j| *j > 0) {
                    out.push(Thing::Slot(j - 1).target());
                }
            }
            CloverScope::RightNeighbour => {
                if let Some(j) = slot.filter(|j| j + 1 < self.jokers.len()) {
                    out.push(Thing::Slot(j + 1).target());
                }
            }
        }
    }

    fn chance(&self, chance: Chance, _stream: &str) -> Chance {
        // A factor past `u32` makes every chance certain, as the saturated numerator does.
        let factor =
            u32::try_from(self.rule(crate::state::Rule::ChanceFactor).max(1)).unwrap_or(u32::MAX);
        chance.scaled_numerator(factor).value
    }

    fn operate(
        &mut self,
        operation: &CompiledCloverOperation,
        context: &RowContext<'_>,
        caused: &mut Vec<Event>,
    ) -> Result<Change, OperationError> {
        use CompiledCloverOperation as C;
        let target = context.target;
        // A Lucky card's paying chance is an event jokers read (`card.luckyHit`).
        if matches!(operation, C::AddMult(_) | C::AddMoney(_))
            && Some(context.owner.key)
                == self.scoring.keys.enhancement[crate::cards::Enhancement::Lucky as usize]
        {
            self.scoring.lucky_hit = true;
        }
        // Each amount is evaluated first, then the change made: the order the rows have
        // always acted in.
        Ok(match operation {
            C::AddChips(tally) => {
                let amount = self.tally_amount(tally, context)?;
                self.add_chips(target, amount, tally.mode)
            }
            C::AddMult(tally) => {
                let amount = self.tally_amount(tally, context)?;
                self.add_mult(target, amount, tally.mode)
            }
            C::MulMult(factor) => {
                let factor = factor.eval(&*self, context)?;
                self.mul_mult(target, factor)
            }
            C::AddMoney(amount) => {
                let amount = amount.eval(&*self, context)?;
                self.add_money(target, amount)
            }
            C::Retrigger(count) => {
                let count = count.eval(&*self, context)?;
                self.retrigger(target, count)
            }
            C::LevelUpHand { hand, count, mode } => {
                let count = count.eval(&*self, context)?;
                self.level_up_hand(target, hand.as_deref(), count, *mode)?
            }
            C::CreateCard {
                kind,
                id,
                rarity,
                edition,
            } => self.create_card(target, kind, id.as_deref(), (*rarity, *edition), caused)?,
            C::Destroy => self.destroy(target, caused)?,
            C::AlterCard(change) => self.alter_card(target, change)?,
            C::ScaleSelf { amount, mode } => {
                let amount = amount.eval(&*self, context)?;
                self.scale_self(context.owner, amount, *mode)?
            }
            C::AddSellValue(amount) => {
                let amount = amount.eval(&*self, context)?;
                self.add_sell_value(target, amount)?
            }
            C::AddCard { count, spec } => {
                let count = count.eval(&*self, context)?;
                self.add_card(target, spec, count, caused)?
            }
        })
    }
}

/// clover's own operations, as [`EffectHost::operate`] carries them out.
impl RunState {
    /// The amount of an `AddChips`/`AddMult`: its value, or one uniform draw from 0 to it
    /// on the row's stream.
    fn tally_amount(
        &mut self,
        tally: &crate::vocabulary::Tally,
        context: &RowContext<'_>,
    ) -> Result<i64, OperationError> {
        let amount = tally.amount.eval(&*self, context)?;
        let Some(stream) = &tally.draw else {
            return Ok(amount);
        };
        // Draws are below a `u32`: a bound past it is refused, not cut down.
        let top = u32::try_from(amount.max(0))
            .ok()
            .filter(|top| *top < u32::MAX)
            .ok_or_else(|| {
                HostError::new(
                    "bad_value",
                    format!("a random amount up to {amount}: draws go up to 4294967294"),
                )
            })?;
        let roll = self
            .streams
            .below(stream, top.saturating_add(1))
            .map_err(|e| HostError::new("stream", e.to_string()))?;
        Ok(i64::from(roll))
    }

    /// `AddChips`: adds chips to the hand being scored, saturating (and noting it); `Sub`
    /// takes them (not below 0), `Reset` sets them.
    fn add_chips(&mut self, _target: Target, amount: i64, mode: ScaleMode) -> Change {
        let before = self.scoring.chips;
        let (after, over) = match mode {
            ScaleMode::Add => before.overflowing_add(amount),
            ScaleMode::Sub => (before.saturating_sub(amount).max(0), false),
            ScaleMode::Reset => (amount, false),
        };
        let after = if over {
            self.scoring.saturated = true;
            i64::MAX
        } else {
            after
        };
        self.scoring.chips = after;
        Change::int(before, after)
    }

    /// `AddMult`: adds whole mult to the hand being scored, saturating (and noting it);
    /// `Sub` takes it (not below 0), `Reset` sets it.
    fn add_mult(&mut self, _target: Target, amount: i64, mode: ScaleMode) -> Change {
        let before = self.scoring.mult;
        let add = Fixed::checked_from_int(amount).unwrap_or(Fixed::MAX);
        let after = match mode {
            ScaleMode::Add => before.saturating_add(add),
            ScaleMode::Sub => before.saturating_sub(add).max(Fixed::ZERO),
            ScaleMode::Reset => add,
        };
        if mode == ScaleMode::Add && before.checked_add(add).is_none() {
            self.scoring.saturated = true;
        }
        self.scoring.mult = after;
        fixed_change(before, after)
    }

    /// `MulMult`: multiplies the mult of the hand being scored, floored, saturating.
    fn mul_mult(&mut self, _target: Target, factor: Fixed) -> Change {
        let before = self.scoring.mult;
        let product = before.mul(factor);
        self.scoring.saturated |= product.saturated;
        self.scoring.mult = product.value;
        fixed_change(before, product.value)
    }

    /// `AddMoney`: adds money, saturating.
    fn add_money(&mut self, _target: Target, amount: i64) -> Change {
        let before = self.money;
        self.money = before.saturating_add(amount);
        Change::int(before, self.money)
    }

    /// `Retrigger`: adds repetitions to the card being evaluated.
    fn retrigger(&mut self, _target: Target, count: i64) -> Change {
        let before = self.scoring.repetitions;
        self.scoring.repetitions = before.saturating_add(count);
        Change::int(before, self.scoring.repetitions)
    }

    /// `LevelUpHand`: raises a hand's level (`None`: the hand being played).
    fn level_up_hand(
        &mut self,
        target: Target,
        hand: Option<&str>,
        count: i64,
        mode: ScaleMode,
    ) -> Result<Change, HostError> {
        let hand = match hand {
            Some(name) => HandType::from_name(name)
                .ok_or_else(|| HostError::new("unknown_hand", format!("no hand `{name}`")))?,
            None => self.hand(),
        };
        let _ = target;
        let level = self
            .levels
            .get_mut(hand.index())
            .ok_or_else(|| HostError::new("unknown_hand", "no level"))?;
        let before = *level;
        // Levels are `u32` and saturate: a count past it reaches the same top level.
        let count = u32::try_from(count.max(0)).unwrap_or(u32::MAX);
        *level = match mode {
            ScaleMode::Add => level.saturating_add(count),
            ScaleMode::Sub => level.saturating_sub(count).max(1),
            ScaleMode::Reset => count.max(1),
        };
        Ok(Change::int(i64::from(before), i64::from(*level)))
    }

    /// Creates a card when there is room for it, as the genre does: a consumable kind
    /// (`planet`, `tarot`, `spectral`) into a consumable slot, a `joker` into a joker slot,
    /// `planetOfHand` — the planet of the poker hand played last — into a consumable slot.
    /// Without `id` the card is chosen on the `creation` stream (a joker's rarity 70/25/5
    /// first, owned jokers excluded); without room nothing is created and nothing is drawn.
    fn create_card(
        &mut self,
        _target: Target,
        kind: &str,
        id: Option<&str>,
        (rarity, edition): (Option<u8>, Option<crate::cards::Edition>),
        _caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let pools =
            self.scoring.keys.pools.clone().ok_or_else(|| {
                HostError::new("no_pools", "CreateCard outside a run's resolution")
            })?;
        let stream =
            |e: turnstile_core::determinism::StreamError| HostError::new("stream", e.to_string());
        if kind == "ownedJoker" {
            // A copy of one owned joker drawn on `creation` (never the one being sold, whose
            // slot the copy may take); a negative edition is not copied.
            let selling = self.scoring.selling;
            let occupied = self.jokers.len() - usize::from(selling.is_some());
            let before = len_i64(self.jokers.len());
            let others: Vec<usize> = (0..self.jokers.len())
                .filter(|&i| Some(i) != selling)
                .collect();
            let room = (occupied as i64) < self.rule(crate::state::Rule::JokerSlots);
            let Some(n) = Some(len_u32(others.len())).filter(|n| *n > 0 && room) else {
                return Ok(Change::int(before, before));
            };
            let pick = others[self.streams.below("creation", n).map_err(stream)? as usize];
            let mut copy = self.jokers[pick].clone();
            if copy.edition == crate::cards::Edition::Negative {
                copy.edition = crate::cards::Edition::None;
            }
            self.jokers.push(copy);
            return Ok(Change::int(before, len_i64(self.jokers.len())));
        }
        if kind == "joker" {
            let before = len_i64(self.jokers.len());
            // A negative joker brings its own slot.
            let negative = edition == Some(crate::cards::Edition::Negative);
            if before >= self.rule(crate::state::Rule::JokerSlots) && !negative {
                return Ok(Change::int(before, before));
            }
            let joker = match id {
                Some(id) => pools
                    .jokers
                    .iter()
                    .flatten()
                    .find(|j| j.id == id)
                    .cloned()
                    .ok_or_else(|| HostError::new("unknown_card", format!("no joker `{id}`")))?,
                None => {
                    let rarity = match rarity {
                        Some(r) => r.clamp(1, 4),
                        None => {
                            rarity_of_roll(self.streams.below("creation", 100).map_err(stream)?)
                        }
                    };
                    let pool: Vec<&Joker> = pools.jokers[usize::from(rarity - 1)]
                        .iter()
                        .filter(|j| !self.jokers.iter().any(|o| o.id == j.id))
                        .collect();
                    let n = len_u32(pool.len());
                    if n == 0 {
                        return Ok(Change::int(before, before));
                    }
                    let pick = self.streams.below("creation", n).map_err(stream)? as usize;
                    pool[pick].clone()
                }
            };
            let mut joker = joker;
            if let Some(edition) = edition {
                joker.edition = edition;
            }
            self.jokers.push(joker);
            return Ok(Change::int(before, len_i64(self.jokers.len())));
        }
        let before = len_i64(self.consumables.len());
        if before >= self.rule(crate::state::Rule::ConsumableSlots) {
            return Ok(Change::int(before, before));
        }
        let card = match (kind, id) {
            ("planetOfHand", _) => {
                let Some(planet) = self
                    .last_hand
                    .and_then(|h| pools.planet_of_hand.get(h.index()).cloned().flatten())
                else {
                    return Ok(Change::int(before, before));
                };
                planet
            }
            (kind, Some(id)) => format!("{kind}:{id}"),
            (kind, None) => {
                let pool = pools.consumables(kind).ok_or_else(|| {
                    HostError::new("unknown_kind", format!("cannot create a `{kind}` card"))
                })?;
                let n = len_u32(pool.len());
                if n == 0 {
                    return Ok(Change::int(before, before));
                }
                let pick = self.streams.below("creation", n).map_err(stream)? as usize;
                pool[pick].clone()
            }
        };
        self.consumables.push(card);
        Ok(Change::int(before, len_i64(self.consumables.len())))
    }

    /// `AddCard`: `count` playing cards for the game to add (`Scoring::created`), each
    /// telling the jokers (`OnCardAdded`).
    fn add_card(
        &mut self,
        target: Target,
        spec: &crate::vocabulary::NewCards,
        count: i64,
        caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        use crate::cards::{Enhancement, Seal, Suit};
        if !(0..=52).contains(&count) {
            return Err(HostError::new(
                "bad_count",
                format!("AddCard adds 0 to 52 cards, not {count}"),
            ));
        }
        let source = if spec.copy {
            let card = match Thing::of(target) {
                Some(Thing::Played(i)) => self.scoring.played.get(i),
                Some(Thing::Held(i)) => self.scoring.held.get(i),
                _ => None,
            };
            Some(*card.ok_or_else(|| HostError::not_applicable("AddCard", target))?)
        } else {
            None
        };
        let stream =
            |e: turnstile_core::determinism::StreamError| HostError::new("stream", e.to_string());
        let before = len_i64(self.scoring.created.len());
        for _ in 0..count {
            let mut card = match source {
                Some(card) => card,
                None => {
                    let ranks: &[u8] = spec.ranks.map_or(
                        &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
                        crate::vocabulary::RankSet::ranks,
                    );
                    let n = len_u32(ranks.len());
                    let rank = ranks[self.streams.below("creation", n).map_err(stream)? as usize];
                    let suit =
                        Suit::ALL[self.streams.below("creation", 4).map_err(stream)? as usize];
                    Card::new(rank, suit)
                }
            };
            if spec.any_enhancement {
                card.enhancement =
                    Enhancement::GIVEN[self.streams.below("creation", 8).map_err(stream)? as usize];
            }
            if let Some(enhancement) = spec.enhancement {
                card.enhancement = enhancement;
            }
            if let Some(seal) = spec.seal {
                card.seal = seal;
            }
            if spec.any_seal {
                card.seal = [Seal::Gold, Seal::Red, Seal::Blue, Seal::Purple]
                    [self.streams.below("creation", 4).map_err(stream)? as usize];
            }
            self.scoring.created.push(NewCard {
                card,
                to_hand: spec.to_hand,
            });
            caused.push(Event::new(Trigger::Game(CloverTrigger::OnCardAdded)));
        }
        Ok(Change::int(before, len_i64(self.scoring.created.len())))
    }

    /// `AlterCard`: changes a card a consumable is used on (a held card of the resolution) or
    /// a played card while its hand scores (the game then keeps the change in the run's deck).
    fn alter_card(
        &mut self,
        target: Target,
        change: &crate::vocabulary::CardChange,
    ) -> Result<Change, HostError> {
        match Thing::of(target) {
            Some(Thing::Played(i)) => {
                let card = self
                    .scoring
                    .played
                    .get_mut(i)
                    .ok_or_else(|| HostError::not_applicable("AlterCard", target))?;
                let before = card.chips();
                change.apply(card);
                Ok(Change::int(before, card.chips()))
            }
            Some(Thing::Held(i)) => {
                let card = self
                    .scoring
                    .held
                    .get_mut(i)
                    .ok_or_else(|| HostError::not_applicable("AlterCard", target))?;
                let before = *card;
                change.apply(card);
                Ok(Change::int(i64::from(before.rank), i64::from(card.rank)))
            }
            _ => Err(HostError::not_applicable("AlterCard", target)),
        }
    }

    /// `Destroy`: marks a scored card destroyed (once), or a card a consumable is used on or a
    /// discarded one; a playing card destroyed tells the jokers (`OnCardDestroyed`, about it).
    fn destroy(&mut self, target: Target, caused: &mut Vec<Event>) -> Result<Change, HostError> {
        let told = Event::new(Trigger::Game(CloverTrigger::OnCardDestroyed)).at(target);
        match Thing::of(target) {
            Some(Thing::Slot(i)) => {
                // An eternal joker cannot be destroyed.
                let eternal = self.jokers.get(i).is_none_or(|j| j.eternal);
                if !eternal && !self.scoring.destroyed_jokers.contains(&i) {
                    self.scoring.destroyed_jokers.push(i);
                }
                Ok(Change::int(1, i64::from(eternal)))
            }
            Some(Thing::Held(i)) => {
                if !self.scoring.destroyed_held.contains(&i) {
                    self.scoring.destroyed_held.push(i);
                    caused.push(told);
                }
                Ok(Change::int(1, 0))
            }
            Some(Thing::Played(i)) => {
                if !self.scoring.destroyed.contains(&i) {
                    self.scoring.destroyed.push(i);
                    caused.push(told);
                }
                Ok(Change::int(1, 0))
            }
            _ => Err(HostError::not_applicable("Destroy", target)),
        }
    }

    /// `ScaleSelf`: changes the owner joker's counter.
    fn scale_self(
        &mut self,
        owner: &OwnerInstance,
        amount: i64,
        mode: ScaleMode,
    ) -> Result<Change, HostError> {
        let joker = joker_slot(owner.anchor)
            .and_then(|slot| self.jokers.get_mut(slot))
            .ok_or_else(|| HostError::not_applicable("ScaleSelf", owner.anchor))?;
        let before = joker.counter;
        joker.counter = match mode {
            ScaleMode::Add => before.saturating_add(amount),
            ScaleMode::Sub => before.saturating_sub(amount).max(0),
            ScaleMode::Reset => amount,
        };
        Ok(Change::int(before, joker.counter))
    }
}

impl RunState {
    /// `AddSellValue`: raises (or with a negative amount lowers, not below $0) what selling
    /// the target joker pays.
    fn add_sell_value(&mut self, target: Target, amount: i64) -> Result<Change, HostError> {
        let joker = joker_slot(target)
            .and_then(|slot| self.jokers.get_mut(slot))
            .ok_or_else(|| HostError::not_applicable("AddSellValue", target))?;
        let before = joker.sell_value;
        joker.sell_value = before.saturating_add(amount).max(0);
        Ok(Change::int(before, joker.sell_value))
    }
}

/// The joker slot a target names, if it names one.
pub(crate) fn joker_slot(target: Target) -> Option<usize> {
    match Thing::of(target)? {
        Thing::Slot(slot) => Some(slot),
        _ => None,
    }
}

fn fixed_change(before: Fixed, after: Fixed) -> Change {
    Change {
        before: turnstile_effects::Number::Fixed(before),
        after: turnstile_effects::Number::Fixed(after),
    }
}
