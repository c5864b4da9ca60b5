//! The variables a phase-edge condition may read: the context of spec/phases.md
//! ("Conditions"), declared explicitly for one game's resources and tags.
//!
//! A formula resolves every name to a slot when it is compiled, so the schema must be known at
//! publish time. The engine fixes the standard names; a game adds the resources and tags it
//! has. [`phase_condition_schema`] builds that schema in a documented slot order, so a host can
//! fill a slice of values in the same order.

use turnstile_formula::{SchemaError, Type, Value, VariableSchema};

/// The standard variables every phase context offers, all `Int`, in slot order from 0.
///
/// | slot | name | meaning |
/// |---|---|---|
/// | 0 | `turn` | the turn number |
/// | 1 | `round` | the round number |
/// | 2 | `activation` | the activation number |
/// | 3 | `actions_taken` | commands the current activation has accepted |
/// | 4 | `phase_order` | the current phase's `order` |
///
/// The command being judged is not an integer code: each command type the game has is a
/// `Bool` named `command.<TYPE>` (see [`phase_condition_schema`]), so a condition names the
/// type as content does everywhere else (`command.PLAY_CARD`).
pub const STANDARD_VARIABLES: [&str; 5] = [
    "turn",
    "round",
    "activation",
    "actions_taken",
    "phase_order",
];

/// The scopes whose canonical resources a condition may read, in slot order.
pub const RESOURCE_SCOPES: [&str; 4] = ["source", "owner", "target", "run"];

/// The schema of phase-edge conditions for a game with these `resources`, `tags` and
/// `command_types`.
///
/// Slots, in order: the five [`STANDARD_VARIABLES`] (`Int`); then, for each scope of
/// [`RESOURCE_SCOPES`] in turn, `scope.resource` for each resource (`Int`); then
/// `tag_<tag>` for each tag (`Bool`); then `command.<TYPE>` for each command type (`Bool`:
/// the command being judged is of that type; all false when none is). A host fills the
/// command slots with [`command_flags`].
///
/// ```
/// use turnstile_phases::phase_condition_schema;
/// let schema = phase_condition_schema(&["hp", "mana"], &["spell"], &["PLAY_CARD", "END_TURN"]).unwrap();
/// assert_eq!(schema.get("round").map(|d| d.slot), Some(1));
/// assert_eq!(schema.get("source.hp").map(|d| d.slot), Some(5));
/// assert_eq!(schema.get("run.mana").map(|d| d.slot), Some(12));
/// assert_eq!(schema.get("tag_spell").map(|d| d.slot), Some(13));
/// assert_eq!(schema.get("command.END_TURN").map(|d| d.slot), Some(15));
/// ```
pub fn phase_condition_schema(
    resources: &[&str],
    tags: &[&str],
    command_types: &[&str],
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
    for command in command_types {
        schema.declare(&format!("command.{command}"), Type::Bool)?;
    }
    Ok(schema)
}

/// The values of the `command.<TYPE>` slots, in `command_types` order, for the command being
/// judged (`None`: no command, every flag false).
pub fn command_flags<'t>(
    command_types: &'t [&'t str],
    command: Option<&'t str>,
) -> impl Iterator<Item = Value> + 't {
    command_types
        .iter()
        .map(move |t| Value::Bool(command == Some(*t)))
}
