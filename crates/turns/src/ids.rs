//! Names for what a turn points at: entities, turn configs and commanders.
//!
//! They are newtypes so that a config id can never be passed where a commander id is expected,
//! and so that serialized state holds plain integers and strings, never a `usize`.
//!
//! The string ids share their text (`Arc<str>`): the turn state is copied for every command a
//! game judges on a copy, and an id copy is then a reference count, not an allocation. In JSON
//! they are plain strings.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// A shared, immutable string id, serialized as a plain string. Copies of one id share one
/// allocation, so comparing them starts with the pointer.
#[derive(Clone, Eq)]
struct SharedId(Arc<str>);

impl std::hash::Hash for SharedId {
    /// The text's hash, as equal text compares equal.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialEq for SharedId {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl PartialOrd for SharedId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SharedId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            std::cmp::Ordering::Equal
        } else {
            self.0.cmp(&other.0)
        }
    }
}

impl SharedId {
    fn new(id: impl Into<String>) -> Self {
        Self(Arc::from(id.into()))
    }
}

impl Default for SharedId {
    fn default() -> Self {
        Self(Arc::from(""))
    }
}

impl fmt::Debug for SharedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for SharedId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SharedId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(SharedId::new)
    }
}

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
pub struct TurnConfigId(SharedId);

impl TurnConfigId {
    /// A config id from its name in the content (`"blitz"`, `"countdown-3s"`).
    pub fn new(id: impl Into<String>) -> Self {
        Self(SharedId::new(id))
    }

    /// The id as written in the content.
    pub fn as_str(&self) -> &str {
        &self.0 .0
    }

    /// Whether both are copies of one id (not merely equal text).
    pub(crate) fn shares_text(&self, other: &TurnConfigId) -> bool {
        Arc::ptr_eq(&self.0 .0, &other.0 .0)
    }
}

impl fmt::Display for TurnConfigId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The id of a [`Commander`](crate::Commander) in a [`TurnOrder`](crate::TurnOrder), unique within
/// the order (`"hero"`, `"goblin-3"`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct CommanderId(SharedId);

impl CommanderId {
    /// A commander id from its name.
    pub fn new(id: impl Into<String>) -> Self {
        Self(SharedId::new(id))
    }

    /// The id as a string.
    pub fn as_str(&self) -> &str {
        &self.0 .0
    }

    /// Whether both are copies of one id (the same shared text): what the order's own copies
    /// are, so looking one up by address first finds it without comparing text.
    pub(crate) fn shares_text(&self, other: &CommanderId) -> bool {
        Arc::ptr_eq(&self.0 .0, &other.0 .0)
    }
}

impl fmt::Display for CommanderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
