//! What a game adds to the engine's vocabulary: its own triggers, scopes and operations, as
//! Rust types the executor is generic over (docs/effects.md, "A game's own vocabulary").
//!
//! The engine knows only what every turn-based game shares — resources, statuses, draws,
//! chances, durations, rule layers, `Custom` handlers, and the moments and scopes of seats
//! and turns. Everything else a game names is declared by implementing [`GameVocabulary`]
//! for a marker type: an enum of triggers, an enum of scopes, an enum of operations and what
//! an operation compiles to. Rows name them in the same cells as the engine's own
//! (`trigger`, `scope`, `operation.$type`), they are checked at load like the engine's own,
//! and the executor hands a game operation to [`crate::EffectHost::operate`] — a `match` on
//! the game's enum, with no boxing and no lookup by name while rows run.
//!
//! A game with nothing of its own uses [`Plain`].

use std::fmt;
use std::hash::Hash;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, DeserializeOwned};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::table::OperationCompiler;

/// A closed set of names a game declares: its triggers or its scopes. Each value has the
/// name content writes and a sentence saying what it means (for `turnstile content report`
/// and the game's docs).
pub trait Named:
    Copy + fmt::Debug + PartialEq + Eq + PartialOrd + Ord + Hash + Send + Sync + 'static
{
    /// Every value, in the order docs list them.
    const ALL: &'static [Self];

    /// The name as content writes it (`OnUnitDies`).
    fn name(self) -> &'static str;

    /// What it means, in one or two sentences.
    fn description(self) -> &'static str;

    /// The value named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|value| value.name() == name)
    }
}

/// A game's scope: a set of targets only the game can list (its host's
/// [`crate::EffectHost::scope_targets`] lists them).
pub trait GameScope: Named {
    /// Whether the scope's targets come from the event (a `Passive` row, which has no event,
    /// may not use it).
    fn needs_event(self) -> bool;
}

/// A game's operations in content form: an enum tagged by `$type`, as the engine's own are
/// (`#[serde(tag = "$type", rename_all_fields = "camelCase", deny_unknown_fields)]`, with a
/// JSON Schema whose `oneOf` lists one object per variant). Its variants' names must differ
/// from the engine's operations.
pub trait GameOperation:
    Clone
    + fmt::Debug
    + PartialEq
    + Eq
    + Serialize
    + DeserializeOwned
    + JsonSchema
    + Send
    + Sync
    + 'static
{
    /// Every variant's name, as `operation.$type` writes it.
    const NAMES: &'static [&'static str];

    /// The columns of its fields in a sheet (`operation.factor`), in the order the game
    /// writes them; they come after the engine's operation columns.
    const COLUMNS: &'static [&'static str];

    /// This variant's name.
    fn kind(&self) -> &'static str;

    /// What the variant named `name` does, in words, for the report and the docs; `None`
    /// for a name that is not a variant.
    fn describe(name: &str) -> Option<&'static str>;
}

/// A game's own vocabulary, declared on a marker type (`struct MyGame;`): the types the
/// engine's rows, tables, events and executor are generic over.
///
/// ```
/// use turnstile_effects::{GameVocabulary, Plain};
///
/// // A game that declares nothing of its own.
/// fn uses<V: GameVocabulary>() {}
/// uses::<Plain>();
/// ```
///
/// docs/effects.md, "A game's own vocabulary", walks through a whole declaration.
pub trait GameVocabulary:
    Copy + fmt::Debug + Default + PartialEq + Eq + PartialOrd + Ord + Hash + Send + Sync + 'static
{
    /// The game's triggers: moments only it has.
    type Trigger: Named;
    /// The game's scopes: targets only it can list.
    type Scope: GameScope;
    /// The game's operations, in content form.
    type Operation: GameOperation;
    /// A game operation checked and compiled: what [`crate::EffectHost::operate`] receives.
    type Compiled: Clone + fmt::Debug + Send + Sync + 'static;

    /// Checks and compiles one operation. Problems go to `compiler` with the field they
    /// are in (`operation.amount`), so they are reported at their row and column; return
    /// `None` when one was reported.
    fn compile(
        operation: &Self::Operation,
        compiler: &mut OperationCompiler<'_>,
    ) -> Option<Self::Compiled>;
}

/// The vocabulary of a game that declares nothing of its own: no trigger, scope or
/// operation beyond the engine's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Plain;

/// A type with no values: [`Plain`]'s triggers, scopes and operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Nothing {}

impl Named for Nothing {
    const ALL: &'static [Nothing] = &[];

    fn name(self) -> &'static str {
        match self {}
    }

    fn description(self) -> &'static str {
        match self {}
    }
}

impl GameScope for Nothing {
    fn needs_event(self) -> bool {
        match self {}
    }
}

impl Serialize for Nothing {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

impl<'de> Deserialize<'de> for Nothing {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Nothing, D::Error> {
        Err(de::Error::custom(
            "this game declares no operation of its own",
        ))
    }
}

impl JsonSchema for Nothing {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Nothing".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "oneOf": [] })
    }
}

impl GameOperation for Nothing {
    const NAMES: &'static [&'static str] = &[];
    const COLUMNS: &'static [&'static str] = &[];

    fn kind(&self) -> &'static str {
        match *self {}
    }

    fn describe(_: &str) -> Option<&'static str> {
        None
    }
}

impl GameVocabulary for Plain {
    type Trigger = Nothing;
    type Scope = Nothing;
    type Operation = Nothing;
    type Compiled = Nothing;

    fn compile(operation: &Nothing, _: &mut OperationCompiler<'_>) -> Option<Nothing> {
        match *operation {}
    }
}
