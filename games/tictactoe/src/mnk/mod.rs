//! The m,n,k-game kernel: two seats alternate placing pieces on an m × n board until one has k
//! in a row. Tic-Tac-Toe is the 3,3,3-game; Connect Four is the 7,6,4-game with gravity. Both
//! are a [`Variant`] of the one [`MnkGame`], so their rules, turns, timers, results and bots are
//! written once, here.
//!
//! - [`board`]: the grid, landing cells under gravity, lines of k;
//! - [`content`]: the `rules` file (turn configs and the default one), loaded with every problem;
//! - [`game`]: the [`Variant`] trait and the [`Game`](turnstile_core::Game) implementation;
//! - `referee`: judging one command — the clock first, then the turn framework, then the board;
//! - [`bot`]: the strong bot over [`search`](crate::search).
//!
//! How a match runs on the turn framework: one commander per seat, equal priorities, registered
//! seat 0 then seat 1, every turn under the match's turn config; the commander loop passes the
//! turn whenever one ends (`Play`, `Skip`, `Time`). A seat's `Play` drops or marks a piece and
//! ends its turn with `Play`; `Skip` is accepted only under a skippable config; the system
//! `Timeout { turnIndex }` ends a timed-out turn with `Time` (the seat loses that turn), and after
//! the config's `forfeitAfterTimeouts` timeouts in a row the seat forfeits. The system
//! `ClockResumed { lastHeartbeatTick, takeoverTick }`, recorded by a server node that takes the
//! match over after an outage, moves the running deadline later by the outage. `Resign` is open to
//! either seat at any time; the other seat wins. The match ends with the loop stopped, and every
//! later command is refused with `match_over`.

pub mod board;
pub mod bot;
pub mod content;
pub mod error;
pub mod game;
mod referee;

pub use board::{Board, Cell};
pub use bot::{Searchable, StrongBot};
pub use content::{embedded_source, load_rules, Rules, RULES_KIND, RULES_PATH};
pub use error::RuleError;
pub use game::{
    load_bundle, opponent, Command, MatchConfig, MatchResult, MnkEvent, MnkGame, MnkPlan, MnkState,
    MnkView, Variant, SEATS,
};
pub use referee::RESIGNED;
