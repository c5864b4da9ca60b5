//! Tic-Tac-Toe on Turnstile — and the m,n,k-game kernel that Connect Four shares.
//!
//! [`TicTacToe`] is a complete [`Game`](turnstile_core::Game): content (turn configs) loaded
//! with every problem reported, two seats taking turns through the turn framework, timers with
//! `Timeout` and forfeits, `Skip` under skippable configs, `Resign`, wins, draws, a view that
//! hides nothing, and bots — the runtime's uniformly random `RandomBot` and a perfect
//! [`StrongBot`]. `docs/writing-a-game.md` walks through it.
//!
//! Most of the game is the [`mnk`] kernel, written once for every m,n,k-game (k in a row on an
//! m × n board): Tic-Tac-Toe is its 3,3,3 [`Variant`](mnk::Variant) ([`TicTacToeRules`]), and
//! `turnstile-connect4` is the 7,6,4 variant with gravity. [`search`] is the bounded alpha-beta
//! both strong bots use; [`testkit`] drives matches for tests, benchmarks and tools.
//!
//! **What this crate must never do.** No I/O (content is embedded at compile time and parsed
//! from bytes), no clock (time arrives as envelope ticks), no floats, hash maps or platform
//! randomness (bots draw only from their own `bot:<seat>` generator), no `usize` in state, and
//! no panics on input from outside: every refusal is a typed rejection with a stable code.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod game;
pub mod mnk;
mod position;
pub mod search;
pub mod testkit;

pub use game::{TicTacToeAction, TicTacToeRules};
pub use position::TicTacToePosition;

use turnstile_core::{BundleSource, ContentBundle, ContentProblem};

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
