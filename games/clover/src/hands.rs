//! The twelve poker hands: their base values and per-level increments, and detection of the
//! played hand and its scoring cards under the detection rules (four-card flushes and
//! straights, straights with one-rank gaps, smeared suits, every card scoring), exactly as
//! clover-facts.md ("Hand detection") fixes them.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Suit};

/// A poker hand, from the lowest (`HighCard`, 0) to the highest (`FlushFive`, 11).
///
/// One spelling everywhere: the content, the API's JSON, the calculator's input and output all
/// write a hand as its snake_case name (`three_of_a_kind`), the same as [`HandType::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandType {
    /// High card.
    HighCard,
    /// Pair.
    Pair,
    /// Two pair.
    TwoPair,
    /// Three of a kind.
    ThreeOfAKind,
    /// Straight.
    Straight,
    /// Flush.
    Flush,
    /// Full house.
    FullHouse,
    /// Four of a kind.
    FourOfAKind,
    /// Straight flush.
    StraightFlush,
    /// Five of a kind (secret).
    FiveOfAKind,
    /// Flush house (secret).
    FlushHouse,
    /// Flush five (secret).
    FlushFive,
}

/// Base chips, base mult, chips per level, mult per level (clover-facts.md's table).
const VALUES: [(i64, i64, i64, i64); 12] = [
    (5, 1, 10, 1),
    (10, 2, 15, 1),
    (20, 2, 20, 1),
    (30, 3, 20, 2),
    (30, 4, 30, 3),
    (35, 4, 15, 2),
    (40, 4, 25, 2),
    (60, 7, 30, 3),
    (100, 8, 40, 4),
    (120, 12, 35, 3),
    (140, 14, 40, 4),
    (160, 16, 50, 3),
];

impl HandType {
    /// All twelve, lowest first.
    pub const ALL: [HandType; 12] = [
        HandType::HighCard,
        HandType::Pair,
        HandType::TwoPair,
        HandType::ThreeOfAKind,
        HandType::Straight,
        HandType::Flush,
        HandType::FullHouse,
        HandType::FourOfAKind,
        HandType::StraightFlush,
        HandType::FiveOfAKind,
        HandType::FlushHouse,
        HandType::FlushFive,
    ];

    /// 0..=11, lowest first.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The hand's one spelling (`two_pair`): content, JSON and the calculator all use it.
    pub const fn name(self) -> &'static str {
        match self {
            HandType::HighCard => "high_card",
            HandType::Pair => "pair",
            HandType::TwoPair => "two_pair",
            HandType::ThreeOfAKind => "three_of_a_kind",
            HandType::Straight => "straight",
            HandType::Flush => "flush",
            HandType::FullHouse => "full_house",
            HandType::FourOfAKind => "four_of_a_kind",
            HandType::StraightFlush => "straight_flush",
            HandType::FiveOfAKind => "five_of_a_kind",
            HandType::FlushHouse => "flush_house",
            HandType::FlushFive => "flush_five",
        }
    }

    /// The hand named `name`.
    pub fn from_name(name: &str) -> Option<HandType> {
        HandType::ALL.into_iter().find(|h| h.name() == name)
    }

    /// Chips and mult at `level` (level 1 is the base; 0 counts as 1).
    pub fn values(self, level: u32) -> (i64, i64) {
        let (chips, mult, l_chips, l_mult) = VALUES[self.index()];
        let extra = i64::from(level.max(1) - 1);
        (
            chips.saturating_add(extra.saturating_mul(l_chips)),
            mult.saturating_add(extra.saturating_mul(l_mult)),
        )
    }
}

/// The rules that change detection (rebuilt rule resources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DetectionRules {
    /// Flushes and straights need 4 cards.
    pub four_fingers: bool,
    /// Straights may skip one missing rank between present ranks.
    pub shortcut: bool,
    /// Hearts=Diamonds, Spades=Clubs.
    pub smeared: bool,
    /// Every played card scores.
    pub splash: bool,
}

/// A detected hand.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Detected {
    /// The hand.
    pub hand: Option<HandType>,
    /// Indices of the scoring cards in played order.
    pub scoring: Vec<usize>,
    /// Contains a pair (a three, four or five of a kind contains one too).
    pub has_pair: bool,
    /// Contains two pair (two exact pairs, or an exact three and an exact pair).
    pub has_two_pair: bool,
    /// Contains three of a kind.
    pub has_three: bool,
    /// Contains four of a kind.
    pub has_four: bool,
    /// Contains a straight.
    pub has_straight: bool,
    /// Contains a flush.
    pub has_flush: bool,
}

/// Detects the hand among `played` (at most 5 cards is the caller's rule); `debuffed[i]` says
/// whether card `i` is debuffed (a debuffed wild card is not every suit).
pub fn detect(played: &[Card], debuffed: &[bool], rules: DetectionRules) -> Detected {
    let n = played.len();
    let mut out = Detected::default();
    if n == 0 {
        return out;
    }
    let need = if rules.four_fingers { 4 } else { 5 };
    // Rank groups (exact sizes), stone cards excluded.
    let mut by_rank: [u8; 15] = [0; 15];
    for c in played.iter().filter(|c| !c.is_stone()) {
        by_rank[usize::from(c.rank.min(14))] += 1;
    }
    let group_of = |size: u8| -> Vec<u8> {
        (2..=14u8)
            .rev()
            .filter(|r| by_rank[usize::from(*r)] == size)
            .collect()
    };
    let fives = group_of(5);
    let fours = group_of(4);
    let threes = group_of(3);
    let pairs = group_of(2);
    // Flush.
    let mut flush: Vec<usize> = Vec::new();
    if n >= need {
        for suit in Suit::ALL {
            let members: Vec<usize> = (0..n)
                .filter(|&i| {
                    played[i].is_suit(
                        suit,
                        rules.smeared,
                        debuffed.get(i).copied().unwrap_or(false),
                    )
                })
                .collect();
            if members.len() >= need {
                flush = members;
                break;
            }
        }
    }
    // Straight.
    let mut straight: Vec<usize> = Vec::new();
    if n >= need {
        let mut present = [false; 15];
        for c in played.iter().filter(|c| !c.is_stone()) {
            present[usize::from(c.rank)] = true;
            if c.rank == 14 {
                present[1] = true;
            }
        }
        let ranks: Vec<usize> = (1..=14).filter(|&r| present[r]).collect();
        let mut best: Vec<usize> = Vec::new();
        let mut run: Vec<usize> = Vec::new();
        for &r in &ranks {
            let joins = run
                .last()
                .is_some_and(|&last| r == last + 1 || (rules.shortcut && r == last + 2));
            if !joins {
                run.clear();
            }
            run.push(r);
            if run.len() >= need && run.len() > best.len() {
                best = run.clone();
            }
        }
        if best.len() >= need {
            straight = (0..n)
                .filter(|&i| {
                    let c = &played[i];
                    !c.is_stone()
                        && best
                            .iter()
                            .any(|&r| r == usize::from(c.rank) || (r == 1 && c.rank == 14))
                })
                .collect();
        }
    }
    let cards_of = |ranks: &[u8]| -> Vec<usize> {
        (0..n)
            .filter(|&i| !played[i].is_stone() && ranks.contains(&played[i].rank))
            .collect()
    };
    out.has_straight = !straight.is_empty();
    out.has_flush = !flush.is_empty();
    out.has_four = !fours.is_empty() || !fives.is_empty();
    out.has_three = out.has_four || !threes.is_empty();
    out.has_pair = out.has_three || !pairs.is_empty();
    out.has_two_pair = pairs.len() >= 2 || (!threes.is_empty() && !pairs.is_empty());
    let full = !threes.is_empty() && !pairs.is_empty();
    let (hand, mut scoring) = if !fives.is_empty() && out.has_flush {
        (HandType::FlushFive, cards_of(&fives))
    } else if full && out.has_flush {
        (HandType::FlushHouse, cards_of(&[threes[0], pairs[0]]))
    } else if !fives.is_empty() {
        (HandType::FiveOfAKind, cards_of(&fives))
    } else if out.has_straight && out.has_flush {
        let mut u = straight.clone();
        u.extend(flush.iter().copied());
        (HandType::StraightFlush, u)
    } else if !fours.is_empty() {
        (HandType::FourOfAKind, cards_of(&fours[..1]))
    } else if full {
        (HandType::FullHouse, cards_of(&[threes[0], pairs[0]]))
    } else if out.has_flush {
        (HandType::Flush, flush.clone())
    } else if out.has_straight {
        (HandType::Straight, straight.clone())
    } else if !threes.is_empty() {
        (HandType::ThreeOfAKind, cards_of(&threes[..1]))
    } else if pairs.len() >= 2 {
        (HandType::TwoPair, cards_of(&pairs[..2]))
    } else if !pairs.is_empty() {
        (HandType::Pair, cards_of(&pairs[..1]))
    } else {
        // The highest card by rank chips, then face order, then suit; stones at the bottom.
        let best = (0..n).filter(|&i| !played[i].is_stone()).max_by_key(|&i| {
            let c = &played[i];
            (
                c.chips() - i64::from(c.perma_bonus),
                c.rank,
                3 - c.suit.index(),
            )
        });
        (HandType::HighCard, best.into_iter().collect())
    };
    if rules.splash {
        scoring = (0..n).collect();
    } else {
        scoring.extend((0..n).filter(|&i| played[i].is_stone()));
    }
    scoring.sort_unstable();
    scoring.dedup();
    out.hand = Some(hand);
    out.scoring = scoring;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Enhancement;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|t| {
                let (rank, suit) = t.split_at(t.len() - 1);
                let rank = match rank {
                    "A" => 14,
                    "K" => 13,
                    "Q" => 12,
                    "J" => 11,
                    r => r.parse().unwrap(),
                };
                let suit = match suit {
                    "S" => Suit::Spades,
                    "H" => Suit::Hearts,
                    "C" => Suit::Clubs,
                    _ => Suit::Diamonds,
                };
                Card::new(rank, suit)
            })
            .collect()
    }

    fn hand(text: &str, rules: DetectionRules) -> (HandType, Vec<usize>) {
        let c = cards(text);
        let d = detect(&c, &vec![false; c.len()], rules);
        (d.hand.unwrap(), d.scoring)
    }

    #[test]
    fn all_twelve_hands() {
        let r = DetectionRules::default();
        assert_eq!(hand("AS", r).0, HandType::HighCard);
        assert_eq!(hand("AS AH 3C", r), (HandType::Pair, vec![0, 1]));
        assert_eq!(
            hand("AS AH 3C 3D 9S", r),
            (HandType::TwoPair, vec![0, 1, 2, 3])
        );
        assert_eq!(hand("AS AH AC 3D 9S", r).0, HandType::ThreeOfAKind);
        assert_eq!(hand("AS 2H 3C 4D 5S", r).0, HandType::Straight);
        assert_eq!(hand("10S JH QC KD AS", r).0, HandType::Straight);
        assert_eq!(hand("QS KH AC 2D 3S", r).0, HandType::HighCard);
        assert_eq!(hand("2S 4S 6S 8S 10S", r).0, HandType::Flush);
        assert_eq!(hand("2S 2H 2C 8S 8D", r).0, HandType::FullHouse);
        assert_eq!(
            hand("2S 2H 2C 2D 8D", r),
            (HandType::FourOfAKind, vec![0, 1, 2, 3])
        );
        assert_eq!(hand("2S 3S 4S 5S 6S", r).0, HandType::StraightFlush);
        assert_eq!(hand("2S 2H 2C 2D 2D", r).0, HandType::FiveOfAKind);
        assert_eq!(hand("2S 2S 2S 8S 8S", r).0, HandType::FlushHouse);
        assert_eq!(hand("2S 2S 2S 2S 2S", r).0, HandType::FlushFive);
        for h in HandType::ALL {
            assert_eq!(HandType::from_name(h.name()), Some(h));
        }
    }

    #[test]
    fn containment_follows_the_facts() {
        let c = cards("2S 2H 2C 2D 8D");
        let d = detect(&c, &[false; 5], DetectionRules::default());
        assert!(d.has_pair && d.has_three && d.has_four && !d.has_two_pair);
        let c = cards("2S 2H 2C 8S 8D");
        assert!(detect(&c, &[false; 5], DetectionRules::default()).has_two_pair);
    }

    #[test]
    fn detection_rules() {
        let four = DetectionRules {
            four_fingers: true,
            ..DetectionRules::default()
        };
        assert_eq!(hand("2S 4S 6S 8S 10H", four).0, HandType::Flush);
        assert_eq!(hand("2S 3H 4C 5D 9S", four).0, HandType::Straight);
        let gap = DetectionRules {
            shortcut: true,
            ..DetectionRules::default()
        };
        assert_eq!(hand("2S 4H 6C 8D 10S", gap).0, HandType::Straight);
        let smeared = DetectionRules {
            smeared: true,
            ..DetectionRules::default()
        };
        assert_eq!(hand("2H 4D 6H 8D 10H", smeared).0, HandType::Flush);
        let splash = DetectionRules {
            splash: true,
            ..DetectionRules::default()
        };
        assert_eq!(hand("AS AH 3C", splash).1, vec![0, 1, 2]);
        let mut c = cards("AS AH 3C");
        c[2] = c[2].with(Enhancement::Stone);
        let d = detect(&c, &[false; 3], DetectionRules::default());
        assert_eq!(d.scoring, vec![0, 1, 2]);
    }

    #[test]
    fn level_values() {
        assert_eq!(HandType::Flush.values(1), (35, 4));
        assert_eq!(HandType::Flush.values(3), (65, 8));
        assert_eq!(HandType::HighCard.values(0), (5, 1));
    }
}
