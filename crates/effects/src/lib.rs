//! Turnstile's effect VM: effect rows as data, and the one executor that runs them
//! (spec/effects.md; the teaching page is docs/effects.md).
//!
//! An effect is a row — owner, order, trigger, condition, operation, scope, duration — kept in
//! a sheet or a JSON rows file, never in code:
//!
//! ```text
//! owner          order  trigger       condition.$type  operation.$type  operation.amount  scope     duration
//! card:fireball  0      OnCardPlayed  Always           Damage           3                 Target    Permanent
//! ```
//!
//! The pieces, in the order content flows through them:
//!
//! | piece | what it is |
//! |---|---|
//! | [`EffectRow`] | a row in content form, read by [`effect_loader`] from sheets and JSON |
//! | [`GameVocabulary`] | the triggers, scopes and operations a game declares as its own types |
//! | [`EffectVocabulary`], [`HandlerRegistry`] | what a game offers rows by name: variables, resources, statuses, custom triggers, streams, `Custom` handlers |
//! | [`EffectTable`] | rows checked against a game and compiled; every problem reported at its row and column |
//! | [`EffectHost`] | the game's world as the executor sees it |
//! | [`Executor`] | runs rows for an event in the fixed order, writes a [`Step`] per row that acts, rebuilds rules |
//! | [`StatusBoard`], [`EffectLedger`] | statuses with durations, lingering rule changes: state a game keeps |
//!
//! There is one executor, and it names no game: every game's rows run on it, each game
//! adding its own triggers, scopes and operations through [`GameVocabulary`] (see
//! docs/effects.md, "A game's own vocabulary"). A test checks that these sources name none
//! of the shipped games' things.
//!
//! # What this crate must never do
//!
//! - branch on an owner's id (behaviour comes from rows; an id only names things in steps);
//! - run rows in any order but the fixed one (host's owner order, then row `order`, then
//!   scope order), or depend on hash-map order;
//! - use floats (integers saturate, factors are `Fixed`), a clock, or randomness other
//!   than the host's named streams (a `Chance` draws exactly once each time it is checked);
//! - run without bound: every resolution is limited in steps and events, and stops with a
//!   typed error past them;
//! - accept content it cannot run: an unknown handler, trigger, resource, status, stream or
//!   variable is a load error, with its row and column;
//! - use `unsafe`, or do I/O.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod executor;
mod game;
mod handlers;
mod host;
mod ledger;
mod row;
mod status;
mod step;
mod table;
mod vocabulary;

pub use executor::{EffectError, Executor, Limits, Resolution};
pub use game::{GameOperation, GameScope, GameVocabulary, Named, Nothing, Plain};
pub use handlers::{Handler, HandlerCall, HandlerFn, HandlerRegistry, RegistryError};
pub use host::{
    Change, EffectHost, EffectState, Event, HostError, OperationError, OwnerInstance, Owners,
    RowContext, Target, ThingId,
};
pub use ledger::{EffectLedger, LingeringEffect, LingeringOperation};
pub use row::{
    effect_columns, Amount, Condition, Duration, EffectRow, Operation, OwnerRef, OwnerRefError,
    Scope, Trigger, EFFECT_COLUMNS, ENGINE_OPERATIONS, ENGINE_SCOPES, ENGINE_TRIGGERS,
};
pub use status::{StatusBoard, StatusEntry};
pub use step::{Number, Step, StepKind};
pub use table::{
    effect_loader, CompiledAmount, CompiledFactor, EffectReport, EffectTable, LoadError,
    OperationCompiler, OwnerKey, MAX_ROWS,
};
pub use vocabulary::{EffectVocabulary, ResourceKind, VocabularyError, HEALTH, MAX_HEALTH};

/// The JSON Schemas this crate publishes, for `turnstile content schema`: the effect row
/// (`docs/schemas/effect-row.schema.json`).
pub const SCHEMAS: &[turnstile_sheets::SchemaEntry] = &[turnstile_sheets::SchemaEntry::of::<
    EffectRow<Plain>,
>("effect-row")];
