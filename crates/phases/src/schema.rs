//! The variables a phase-edge condition may read: the context of spec/phases.md
//! ("Conditions"), declared explicitly for one game's resources and tags.
//!
//! A formula resolves every name to a slot when it is compiled, so the schema must be known at
//! publish time. The engine fixes the standard names; a game adds the resources and tags it
//! has. [`phase_condition_schema`] builds that schema in a documented slot order, so a host can
//! fill a slice of values in the same order.

use turnstile_formula::{SchemaError, Type, VariableSchema};

/// The standard variables every phase context offers, all `Int`, in slot order from 0.
///
/// | slot | name | meaning |
/// |---|---|---|
/// | 0 | `turn` | the turn number |
/// | 1 | `round` | the round number |
/// | 2 | `activation` | the activation number |
/// | 3 | `actions_taken` | commands the current activation has accepted |
/// | 4 | `phase_order` | the current phase's `order` |
/// | 5 | `command_type` | the game's integer code of the command being judged (0 when none) |
pub const STANDARD_VARIABLES: [&str; 6] = [
    "turn",
    "round",
    "activation",
    "actions_taken",
    "phase_order",
    "command_type",
];

/// The scopes whose canonical resources a condition may read, in slot order.
pub const RESOURCE_SCOPES: [&str; 4] = ["source", "owner", "target", "run"];

/// The schema of phase-edge conditions for a game with these `resources` and `tags`.
///
/// Slots, in order: the six [`STANDARD_VARIABLES`] (`Int`); then, for each scope of
/// [`RESOURCE_SCOPES`] in turn, `scope.resource` for each resource (`Int`); then
/// `tag_<tag>` for each tag (`Bool`).
///
/// ```
/// use turnstile_phases::phase_condition_schema;
/// let schema = phase_condition_schema(&["hp", "mana"], &["spell"]).unwrap();
/// assert_eq!(schema.get("round").map(|d| d.slot), Some(1));
/// assert_eq!(schema.get("source.hp").map(|d| d.slot), Some(6));
/// assert_eq!(schema.get("run.mana").map(|d| d.slot), Some(13));
/// assert_eq!(schema.get("tag_spell").map(|d| d.slot), Some(14));
/// ```
pub fn phase_condition_schema(
    resources: &[&str],
    tags: &[&str],
) -> Result<VariableSchema, SchemaError> {
    let mut schema = VariableSchema::new();
    for name in STANDARD_VARIABLES {
        schema.declare(name, Type::Int)?;
    }
    for scope in RESOURCE_SCOPES {
        for resource in resources {
            schema.declare(&format!("{scope}.{resource}"), Type::Int)?;
        }
    }
    for tag in tags {
        schema.declare(&format!("tag_{tag}"), Type::Bool)?;
    }
    Ok(schema)
}
