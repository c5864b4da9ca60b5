//! The two player commands the framework knows: `Play` and `Skip`, each carrying the game's data.

use serde::{Deserialize, Serialize};

/// A player's turn command. `P` is the game's play data (a move, a card, a shot), `S` its skip data
/// (often `()`). In JSON: `{"type": "play", "data": {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data", rename_all = "camelCase")]
pub enum TurnCommand<P, S = ()> {
    /// Act in a `Play` turn; the turn becomes `Resolving` until the game ends it.
    Play(P),
    /// Give up the rest of a skippable turn; it ends with `Skip`.
    Skip(S),
}
