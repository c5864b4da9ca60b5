//! Nim on the game kit: one pile of 21 stones; a seat takes 1 to 3 a turn; whoever takes the
//! last stone wins. Turn configs (untimed, timed, blitz), timeouts, forfeits, skip, resign,
//! events, status and the random bot are the kit's; this file is only what is Nim's.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use serde::{Deserialize, Serialize};
use turnstile_core::{ParamRange, ParamSpec, Seat};
use turnstile_kit::{GameEvents, Kit, KitGame, KitWin, RuleCode};

/// Stones on the pile when a match starts.
pub const STONES: u16 = 21;
/// The most stones one turn may take.
pub const MAX_TAKE: u16 = 3;

/// Nim as an engine game: `register_kit_game::<Nim>(&mut registry)` serves it.
pub type NimGame = Kit<Nim>;

/// Nim's rules for the kit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nim;

/// The pile: the whole of Nim's state, and what everyone sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    /// Stones left.
    pub stones: u16,
}

/// What a take did: `{"type": "stonesTaken", "seat": 0, "count": 2, "left": 19}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum NimEvent {
    /// `seat` took `count` stones, leaving `left`.
    StonesTaken {
        /// Who took them.
        seat: Seat,
        /// How many.
        count: u16,
        /// Stones left on the pile.
        left: u16,
    },
}

/// How Nim ends: `{"kind": "lastStone", "seat": 1}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum NimWin {
    /// `seat` took the last stone and wins.
    LastStone {
        /// The winner.
        seat: Seat,
    },
}

impl KitWin for NimWin {
    fn winner(&self) -> Option<Seat> {
        let NimWin::LastStone { seat } = self;
        Some(*seat)
    }

    fn outcome_kind(&self) -> &'static str {
        "win"
    }
}

/// Why a take is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NimError {
    /// Fewer than 1 or more than [`MAX_TAKE`] stones.
    #[error("a turn takes 1 to {MAX_TAKE} stones, not {0}")]
    OutOfRange(u16),
    /// More stones than the pile holds.
    #[error("the pile holds {left} stones, fewer than {count}")]
    NotEnoughStones {
        /// Stones asked for.
        count: u16,
        /// Stones left.
        left: u16,
    },
}

impl RuleCode for NimError {
    fn code(&self) -> &'static str {
        match self {
            NimError::OutOfRange(_) => "out_of_range",
            NimError::NotEnoughStones { .. } => "not_enough_stones",
        }
    }
}

impl KitGame for Nim {
    const ID: &'static str = "nim";
    const PLAY_KIND: &'static str = "take";
    const PLAY_FIELD: &'static str = "count";

    type Move = u16;
    type Board = Pile;
    type Target = u16;
    type Event = NimEvent;
    type Win = NimWin;
    type Error = NimError;
    type BoardView = Pile;

    fn start() -> Pile {
        Pile { stones: STONES }
    }

    fn well_formed(pile: &Pile) -> bool {
        pile.stones <= STONES
    }

    fn check(pile: &Pile, _: Seat, count: &u16) -> Result<u16, NimError> {
        match *count {
            count if !(1..=MAX_TAKE).contains(&count) => Err(NimError::OutOfRange(count)),
            count if count > pile.stones => Err(NimError::NotEnoughStones {
                count,
                left: pile.stones,
            }),
            count => Ok(count),
        }
    }

    fn apply(
        pile: &mut Pile,
        seat: Seat,
        count: u16,
        events: &mut GameEvents<'_, Self>,
    ) -> Option<NimWin> {
        pile.stones -= count;
        let left = pile.stones;
        events.push(NimEvent::StonesTaken { seat, count, left });
        (left == 0).then_some(NimWin::LastStone { seat })
    }

    fn moves(pile: &Pile, _: Seat) -> impl Iterator<Item = u16> {
        1..=MAX_TAKE.min(pile.stones)
    }

    fn play_params(pile: &Pile) -> Vec<ParamSpec> {
        let max = i64::from(MAX_TAKE.min(pile.stones));
        let range = ParamRange::Integer { min: 1, max };
        vec![ParamSpec {
            name: "count".into(),
            range,
        }]
    }

    fn view(pile: &Pile) -> Pile {
        pile.clone()
    }
}
