//! The `Custom` escape hatch: handlers written in code, registered under the id that content
//! writes in `operation.handler`. Each is documented in words (so another implementation can
//! be written from the description), an unknown id is a load error, and the number of rows
//! that use them is reported — the goal is none.

use std::collections::BTreeMap;
use std::fmt;

use turnstile_core::Seat;

use crate::game::{GameVocabulary, Plain};
use crate::host::{Change, EffectHost, Event, HostError, OwnerInstance, Target};
use crate::row::{OwnerRef, Trigger};

/// What a handler is told about the row that called it.
#[derive(Debug, Clone, Copy)]
pub struct HandlerCall<'a, V: GameVocabulary = Plain> {
    /// The owner instance whose row calls it.
    pub owner: &'a OwnerInstance,
    /// The owner's reference (for messages; a handler never branches on it).
    pub owner_ref: &'a OwnerRef,
    /// The row's `order`.
    pub row: u32,
    /// The event being resolved.
    pub event: &'a Event<V>,
    /// The trigger.
    pub trigger: &'a Trigger<V>,
    /// The target the row acts on.
    pub target: Target,
    /// The row's `operation.amount`, evaluated, when it has one.
    pub amount: Option<i64>,
}

impl<V: GameVocabulary> HandlerCall<'_, V> {
    /// The seat that controls the owner.
    pub fn seat(&self) -> Option<Seat> {
        self.owner.seat
    }
}

/// A handler: changes the host's world and reports what it changed. Events it pushes into
/// `caused` are resolved after the current event.
pub type HandlerFn<H> = fn(
    &mut H,
    &HandlerCall<'_, <H as EffectHost>::Vocabulary>,
    &mut Vec<Event<<H as EffectHost>::Vocabulary>>,
) -> Result<Change, HostError>;

/// A registered handler.
pub struct Handler<H: EffectHost> {
    /// What it does, in words: enough to write it again without reading its code.
    pub description: String,
    /// The code.
    pub run: HandlerFn<H>,
}

impl<H: EffectHost> fmt::Debug for Handler<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handler")
            .field("description", &self.description)
            .finish()
    }
}

/// Why a handler could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// The id is taken.
    #[error("a handler is already registered as `{id}`")]
    Duplicate {
        /// The id.
        id: String,
    },
    /// The id is not `snake_case` letters, digits and `_` starting with a letter.
    #[error("`{id}` is not a handler id: write lower case letters, digits and `_`, starting with a letter")]
    BadId {
        /// The id.
        id: String,
    },
    /// No description.
    #[error("handler `{id}` has no description; every handler says what it does in words")]
    Undocumented {
        /// The id.
        id: String,
    },
}

impl RegistryError {
    /// The stable code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            RegistryError::Duplicate { .. } => "duplicate_handler",
            RegistryError::BadId { .. } => "bad_handler_id",
            RegistryError::Undocumented { .. } => "undocumented_handler",
        }
    }
}

/// The handlers of a game, by id (in id order).
pub struct HandlerRegistry<H: EffectHost> {
    handlers: BTreeMap<String, Handler<H>>,
}

impl<H: EffectHost> Default for HandlerRegistry<H> {
    fn default() -> Self {
        HandlerRegistry {
            handlers: BTreeMap::new(),
        }
    }
}

impl<H: EffectHost> fmt::Debug for HandlerRegistry<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.handlers.iter()).finish()
    }
}

impl<H: EffectHost> HandlerRegistry<H> {
    /// An empty registry.
    pub fn new() -> HandlerRegistry<H> {
        HandlerRegistry::default()
    }

    /// Registers `run` under `id`, with what it does in words.
    pub fn register(
        &mut self,
        id: &str,
        description: &str,
        run: HandlerFn<H>,
    ) -> Result<&mut HandlerRegistry<H>, RegistryError> {
        let valid = id.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(RegistryError::BadId { id: id.into() });
        }
        if description.trim().is_empty() {
            return Err(RegistryError::Undocumented { id: id.into() });
        }
        if self.handlers.contains_key(id) {
            return Err(RegistryError::Duplicate { id: id.into() });
        }
        self.handlers.insert(
            id.to_owned(),
            Handler {
                description: description.trim().to_owned(),
                run,
            },
        );
        Ok(self)
    }

    /// The handler registered as `id`.
    pub fn get(&self, id: &str) -> Option<&Handler<H>> {
        self.handlers.get(id)
    }

    /// Every handler's id and description, in id order (for `turnstile content report`
    /// and the docs).
    pub fn descriptions(&self) -> impl Iterator<Item = (&str, &str)> {
        self.handlers
            .iter()
            .map(|(id, h)| (id.as_str(), h.description.as_str()))
    }

    /// The registered ids, in order.
    pub fn ids(&self) -> Vec<String> {
        self.handlers.keys().cloned().collect()
    }
}
