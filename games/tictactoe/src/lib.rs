//! Tic-Tac-Toe on Turnstile: the 3,3,3 variant of the m,n,k kernel (`turnstile-mnk`).
//!
//! [`TicTacToe`] is a complete [`Game`](turnstile_core::Game) on the game kit: content (turn
//! configs) loaded with every problem reported, two seats taking turns, timers with `Timeout`
//! and forfeits, `Skip` under skippable configs, `Resign`, wins, draws, a view that hides
//! nothing — all of it the kit's and the kernel's. This crate holds only what is Tic-Tac-Toe's:
//! a mark goes on any open cell ([`TicTacToeRules`]), and the 9-bit position the perfect
//! [`StrongBot`] searches ([`TicTacToePosition`]).
//!
//! **What this crate must never do.** No I/O (content is embedded at compile time and parsed
//! from bytes), no clock, no floats, hash maps or platform randomness, and no rule the kernel
//! should hold for every m,n,k-game.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod game;
mod position;

pub use game::{TicTacToeAction, TicTacToeRules};
pub use position::TicTacToePosition;

use turnstile_core::{BundleSource, ContentBundle, ContentProblem};
use turnstile_mnk as mnk;

/// Tic-Tac-Toe, the game: register it with `registry.register::<TicTacToe>()`.
pub type TicTacToe = mnk::MnkGame<TicTacToeRules>;

/// The perfect Tic-Tac-Toe bot (a full alpha-beta search; ties drawn from `bot:<seat>`).
pub type StrongBot = mnk::StrongBot<TicTacToeRules>;

/// The bundle in `games/tictactoe/content/`, compiled in so that it works from any directory.
pub fn bundled_source() -> BundleSource {
    mnk::embedded_source(
        include_bytes!("../content/bundle.json"),
        include_bytes!("../content/rules.json"),
    )
}

/// The embedded bundle, loaded and with its revision.
pub fn bundled() -> Result<ContentBundle<mnk::Rules>, Vec<ContentProblem>> {
    mnk::load_bundle::<TicTacToeRules>(&bundled_source())
}
