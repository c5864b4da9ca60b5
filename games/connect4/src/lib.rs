//! Connect Four on Turnstile: the 7,6,4 m,n,k-game with gravity.
//!
//! [`ConnectFour`] is the m,n,k kernel (`turnstile-mnk`) on the game kit
//! with [`ConnectFourRules`]: a 7 × 6 board, four in a row, and moves that drop a disc into a
//! column, listed as `drop` actions whose `column` is an integer range (or the open columns
//! when a full one splits them). Content, turns, timers and forfeits, skip, resign, results and
//! views are the kit's and the kernel's, shared with Tic-Tac-Toe. The [`StrongBot`] searches a bitboard
//! ([`ConnectFourPosition`]) with the kernel's bounded alpha-beta, centre columns first.
//!
//! It must never do what the kernel must never do — I/O, clocks, floats, hash maps, platform
//! randomness, `usize` in state, panics on input — and never hold a rule of its own beyond
//! where a disc lands: everything else belongs in the kernel, for both games.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bitboard;
mod game;

pub use bitboard::ConnectFourPosition;
pub use game::{ConnectFourAction, ConnectFourRules};

use turnstile_core::{BundleSource, ContentBundle, ContentProblem};
use turnstile_mnk as mnk;

/// Connect Four, the game: register it with `registry.register::<ConnectFour>()`.
pub type ConnectFour = mnk::MnkGame<ConnectFourRules>;

/// The strong Connect Four bot: depth-9 alpha-beta on a bitboard (at most a million positions a
/// move), ties drawn from `bot:<seat>`.
pub type StrongBot = mnk::StrongBot<ConnectFourRules>;

/// `games/connect4/content/`, compiled in.
pub fn bundled_source() -> BundleSource {
    mnk::embedded_source(
        include_bytes!("../content/bundle.json"),
        include_bytes!("../content/rules.json"),
    )
}

/// [`bundled_source`], loaded, with its revision.
pub fn bundled() -> Result<ContentBundle<mnk::Rules>, Vec<ContentProblem>> {
    mnk::load_bundle::<ConnectFourRules>(&bundled_source())
}
