//! Playing cards: ranks, suits, enhancements, editions and seals, with the genre's rank chips
//! (clover-facts.md, "Rank chips"). Plain data; what an enhancement, edition or seal *does* is
//! written as effect rows in `content/cards.tsv`, not here.

use serde::{Deserialize, Serialize};

/// A suit, in the genre's flush order (Spades, Hearts, Clubs, Diamonds).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum Suit {
    /// Spades.
    Spades,
    /// Hearts.
    Hearts,
    /// Clubs.
    Clubs,
    /// Diamonds.
    Diamonds,
}

impl Suit {
    /// All four, in flush order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

    /// 0..=3 in flush order.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit this one counts as under the "smeared" rule (Hearts=Diamonds, Spades=Clubs).
    pub const fn smeared(self) -> Suit {
        match self {
            Suit::Diamonds => Suit::Hearts,
            Suit::Clubs => Suit::Spades,
            other => other,
        }
    }
}

/// An enhancement of a playing card.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Default,
    schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum Enhancement {
    /// None.
    #[default]
    None,
    /// +30 chips.
    Bonus,
    /// +4 mult.
    Mult,
    /// Counts as every suit.
    Wild,
    /// ×2 mult, may break after the hand.
    Glass,
    /// ×1.5 mult while held.
    Steel,
    /// +50 chips, no rank, no suit, always scores.
    Stone,
    /// $3 at the end of the round while held.
    Gold,
    /// Chances of +20 mult and $20.
    Lucky,
}

impl Enhancement {
    /// Every enhancement, in declaration order (`None` first: an enhancement's index here is
    /// `as usize`).
    pub const ALL: [Enhancement; 9] = [
        Enhancement::None,
        Enhancement::Bonus,
        Enhancement::Mult,
        Enhancement::Wild,
        Enhancement::Glass,
        Enhancement::Steel,
        Enhancement::Stone,
        Enhancement::Gold,
        Enhancement::Lucky,
    ];

    /// The eight a card can be given (every one but `None`), what random enhancements are
    /// drawn from.
    pub const GIVEN: [Enhancement; 8] = [
        Enhancement::Bonus,
        Enhancement::Mult,
        Enhancement::Wild,
        Enhancement::Glass,
        Enhancement::Steel,
        Enhancement::Stone,
        Enhancement::Gold,
        Enhancement::Lucky,
    ];

    /// The owner id of its effect rows (`enhancement:<id>`); `None` has none.
    pub const fn owner(self) -> Option<&'static str> {
        match self {
            Enhancement::None => None,
            Enhancement::Bonus => Some("enhancement:bonus"),
            Enhancement::Mult => Some("enhancement:mult"),
            Enhancement::Wild => Some("enhancement:wild"),
            Enhancement::Glass => Some("enhancement:glass"),
            Enhancement::Steel => Some("enhancement:steel"),
            Enhancement::Stone => Some("enhancement:stone"),
            Enhancement::Gold => Some("enhancement:gold"),
            Enhancement::Lucky => Some("enhancement:lucky"),
        }
    }
}

/// An edition (playing cards and jokers).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Default,
    schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum Edition {
    /// None.
    #[default]
    None,
    /// +50 chips.
    Foil,
    /// +10 mult.
    Holographic,
    /// ×1.5 mult.
    Polychrome,
    /// +1 joker slot.
    Negative,
}

impl Edition {
    /// Whether it is no edition (for serde's `skip_serializing_if`).
    pub fn is_none(edition: &Edition) -> bool {
        *edition == Edition::None
    }

    /// The owner id of its effect rows.
    pub const fn owner(self) -> Option<&'static str> {
        match self {
            Edition::None => None,
            Edition::Foil => Some("edition:foil"),
            Edition::Holographic => Some("edition:holographic"),
            Edition::Polychrome => Some("edition:polychrome"),
            Edition::Negative => Some("edition:negative"),
        }
    }
}

/// A seal.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    Default,
    schemars::JsonSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum Seal {
    /// None.
    #[default]
    None,
    /// +$3 when scored.
    Gold,
    /// Retrigger once.
    Red,
    /// Planet of the last hand at round end, if held.
    Blue,
    /// Tarot when discarded.
    Purple,
}

impl Seal {
    /// The owner id of its effect rows.
    pub const fn owner(self) -> Option<&'static str> {
        match self {
            Seal::None => None,
            Seal::Gold => Some("seal:gold"),
            Seal::Red => Some("seal:red"),
            Seal::Blue => Some("seal:blue"),
            Seal::Purple => Some("seal:purple"),
        }
    }
}

/// A playing card. `rank` is 2..=14 (11 J, 12 Q, 13 K, 14 A).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Card {
    /// 2..=14.
    pub rank: u8,
    /// The printed suit.
    pub suit: Suit,
    /// Its enhancement.
    #[serde(default)]
    pub enhancement: Enhancement,
    /// Its edition.
    #[serde(default)]
    pub edition: Edition,
    /// Its seal.
    #[serde(default)]
    pub seal: Seal,
    /// Chips added permanently (by effects that grow a card).
    #[serde(default)]
    pub perma_bonus: u32,
    /// Debuffed on its own, whatever the boss's rules say (the calculator's per-card debuff);
    /// left out of the canonical form while false, so states and receipts are unchanged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub debuffed: bool,
    /// Drawn face down (a boss's rule): hidden from its own player while it is in the hand,
    /// where the view shows `null` in its place. Only a hand card carries it: a card turns
    /// face up as it leaves the hand (played, discarded, the blind over), so the run's deck
    /// never holds one. Left out of the canonical form while false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
}

impl Card {
    /// A plain card.
    pub const fn new(rank: u8, suit: Suit) -> Card {
        Card {
            rank,
            suit,
            enhancement: Enhancement::None,
            edition: Edition::None,
            seal: Seal::None,
            perma_bonus: 0,
            debuffed: false,
            face_down: false,
        }
    }

    /// The card turned face up: what it is once it leaves the hand, and the form every
    /// comparison with the run's deck uses.
    pub const fn face_up(mut self) -> Card {
        self.face_down = false;
        self
    }

    /// With an enhancement.
    pub const fn with(mut self, enhancement: Enhancement) -> Card {
        self.enhancement = enhancement;
        self
    }

    /// With an edition.
    pub const fn edition(mut self, edition: Edition) -> Card {
        self.edition = edition;
        self
    }

    /// With a seal.
    pub const fn sealed(mut self, seal: Seal) -> Card {
        self.seal = seal;
        self
    }

    /// Whether it is a Stone card (no rank, no suit).
    pub const fn is_stone(&self) -> bool {
        matches!(self.enhancement, Enhancement::Stone)
    }

    /// The rank chips: 2..10 their number, faces 10, ace 11; Stone 0; plus `perma_bonus`.
    pub fn chips(&self) -> i64 {
        let base = if self.is_stone() {
            0
        } else {
            match self.rank {
                14 => 11,
                11..=13 => 10,
                r => i64::from(r),
            }
        };
        base + i64::from(self.perma_bonus)
    }

    /// Whether the card counts as `suit` (wild: every suit unless debuffed; stone: none).
    pub fn is_suit(&self, suit: Suit, smeared: bool, debuffed: bool) -> bool {
        if self.is_stone() {
            return false;
        }
        if self.enhancement == Enhancement::Wild && !debuffed {
            return true;
        }
        if smeared {
            self.suit.smeared() == suit.smeared()
        } else {
            self.suit == suit
        }
    }

    /// Whether it is a face card (J, Q, K; every card with the "every card a face" rule).
    pub fn is_face(&self, all_faces: bool) -> bool {
        all_faces || (!self.is_stone() && (11..=13).contains(&self.rank))
    }

    /// Short text: `AS`, `10H`, `QD`.
    pub fn label(&self) -> String {
        let rank = match self.rank {
            14 => "A".to_owned(),
            13 => "K".to_owned(),
            12 => "Q".to_owned(),
            11 => "J".to_owned(),
            r => r.to_string(),
        };
        let suit = match self.suit {
            Suit::Spades => "S",
            Suit::Hearts => "H",
            Suit::Clubs => "C",
            Suit::Diamonds => "D",
        };
        format!("{rank}{suit}")
    }
}

/// The standard 52-card deck, Spades..Diamonds, 2..A.
pub fn standard_deck() -> Vec<Card> {
    let mut deck = Vec::with_capacity(52);
    for suit in Suit::ALL {
        for rank in 2..=14u8 {
            deck.push(Card::new(rank, suit));
        }
    }
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_chips_follow_the_table() {
        let chips: Vec<i64> = (2..=14u8)
            .map(|r| Card::new(r, Suit::Spades).chips())
            .collect();
        assert_eq!(chips, vec![2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]);
        assert_eq!(
            Card::new(14, Suit::Spades).with(Enhancement::Stone).chips(),
            0
        );
        assert_eq!(standard_deck().len(), 52);
    }

    #[test]
    fn wild_and_smeared_suits() {
        let wild = Card::new(5, Suit::Clubs).with(Enhancement::Wild);
        assert!(wild.is_suit(Suit::Hearts, false, false));
        assert!(!wild.is_suit(Suit::Hearts, false, true));
        assert!(Card::new(5, Suit::Diamonds).is_suit(Suit::Hearts, true, false));
        assert!(!Card::new(5, Suit::Diamonds)
            .with(Enhancement::Stone)
            .is_suit(Suit::Diamonds, false, false));
    }
}
