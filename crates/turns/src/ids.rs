//! Names for what a turn points at: entities, turn configs and commanders.
//!
//! They are newtypes so that a config id can never be passed where a commander id is expected,
//! and so that serialized state holds plain integers and strings, never a `usize`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A game entity a turn or a commander refers to (a unit, a ball, a hero).
///
/// The framework never looks inside; it carries the id so that game logic and clients can find the
/// entity the turn is about.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(transparent)]
pub struct EntityId(pub u64);

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The id of a [`TurnConfig`](crate::TurnConfig) in the match's pinned content.
///
/// State holds this id, never a copy of the config; it is resolved against
/// [`TurnConfigs`](crate::TurnConfigs) whenever the config's values are needed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct TurnConfigId(pub String);

impl TurnConfigId {
    /// A config id from its name in the content (`"blitz"`, `"countdown-3s"`).
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id as written in the content.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TurnConfigId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The id of a [`Commander`](crate::Commander) in a [`TurnOrder`](crate::TurnOrder), unique within
/// the order (`"hero"`, `"goblin-3"`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct CommanderId(pub String);

impl CommanderId {
    /// A commander id from its name.
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CommanderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
