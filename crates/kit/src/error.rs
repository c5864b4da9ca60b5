//! Why a kit game refuses a command: the kit's own refusals, the turn framework's passed through
//! with their codes, and the game's.

use turnstile_core::Rejection;
use turnstile_turns::TurnError;

use crate::RuleCode;

/// A rule rejection. [`KitError::code`] is stable; clients switch on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KitError<E> {
    /// The match has a result; nothing more is accepted.
    #[error("the match is over")]
    MatchOver,
    /// A player action arrived without a seat (the resolver refuses this before the rules see
    /// it; kept so the rules never assume it).
    #[error("this action needs a seat")]
    SeatRequired,
    /// The game refused the move (`cell_occupied`, `column_full`, …).
    #[error("{0}")]
    Game(E),
    /// The turn framework refused the command (`not_your_turn`, `not_skippable`,
    /// `stale_timeout`, …).
    #[error("{0}")]
    Turn(#[from] TurnError),
}

impl<E: RuleCode> KitError<E> {
    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            KitError::MatchOver => "match_over",
            KitError::SeatRequired => "seat_required",
            KitError::Game(e) => e.code(),
            KitError::Turn(e) => e.code(),
        }
    }
}

impl<E: RuleCode> From<KitError<E>> for Rejection {
    fn from(e: KitError<E>) -> Rejection {
        Rejection::new(e.code(), e.to_string())
    }
}
