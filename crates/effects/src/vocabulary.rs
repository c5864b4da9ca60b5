//! What a game offers its effect rows: the variables formulas may read, its resources (and
//! which of them are rebuilt rules), its statuses, its custom triggers, its random streams and
//! its owner kinds. Rows are checked against it at load, so that a name the game does not
//! have is a load error with its row and column, never a silent no-op at run time.

use std::collections::{BTreeMap, BTreeSet};

use turnstile_formula::VariableSchema;

use crate::row::is_identifier;

/// The resource `Damage` lowers and `Heal` raises.
pub const HEALTH: &str = "health";

/// The resource that caps `Heal`, when a target has it.
pub const MAX_HEALTH: &str = "max_health";

/// The two sorts of resource (docs/effects.md, "Rules are rebuilt").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceKind {
    /// A current value of the world — health, gold, cards in hand. Rows change it at once
    /// and the change stays (`Permanent`).
    State,
    /// A value the rules derive — attack bonus, cost discount, maximum gold. It is never
    /// changed in place: the host resets it to its default at every rebuild, and the
    /// executor re-applies the changes that hold (lingering effects, `Passive` rows, this
    /// round's effects), in that order.
    Rule,
}

/// Why a vocabulary declaration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VocabularyError {
    /// A name declared twice.
    #[error("`{name}` is declared twice as a {what}")]
    Duplicate {
        /// The name.
        name: String,
        /// What sort of name.
        what: &'static str,
    },
    /// A name that is not letters, digits and `_` starting with a letter.
    #[error("`{name}` is not a valid {what} name: write letters, digits and `_`, starting with a letter")]
    BadName {
        /// The name.
        name: String,
        /// What sort of name.
        what: &'static str,
    },
    /// A custom trigger with one of the engine's trigger names.
    #[error("`{name}` is a built-in trigger and cannot be declared as a custom one")]
    BuiltInTrigger {
        /// The name.
        name: String,
    },
}

impl VocabularyError {
    /// The stable code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            VocabularyError::Duplicate { .. } => "duplicate_name",
            VocabularyError::BadName { .. } => "bad_name",
            VocabularyError::BuiltInTrigger { .. } => "built_in_trigger",
        }
    }
}

/// Everything a game's effect rows may name.
///
/// ```
/// use turnstile_effects::{EffectVocabulary, ResourceKind};
/// use turnstile_formula::{Type, VariableSchema};
///
/// let variables = VariableSchema::from_declarations([("round", Type::Int)]).unwrap();
/// let mut vocabulary = EffectVocabulary::new(variables);
/// vocabulary
///     .owner_kind("card").unwrap()
///     .resource("health", ResourceKind::State).unwrap()
///     .resource("attack_bonus", ResourceKind::Rule).unwrap()
///     .status("poison").unwrap()
///     .stream("effect_proc").unwrap()
///     .custom_trigger("OnUnitDies").unwrap();
/// ```
#[derive(Debug, Clone, Default)]
pub struct EffectVocabulary {
    variables: VariableSchema,
    resources: BTreeMap<String, ResourceKind>,
    statuses: BTreeSet<String>,
    custom_triggers: BTreeSet<String>,
    streams: BTreeSet<String>,
    owner_kinds: BTreeSet<String>,
}

fn checked(name: &str, what: &'static str) -> Result<(), VocabularyError> {
    if is_identifier(name) {
        Ok(())
    } else {
        Err(VocabularyError::BadName {
            name: name.into(),
            what,
        })
    }
}

fn insert(
    set: &mut BTreeSet<String>,
    name: &str,
    what: &'static str,
) -> Result<(), VocabularyError> {
    checked(name, what)?;
    if !set.insert(name.to_owned()) {
        return Err(VocabularyError::Duplicate {
            name: name.into(),
            what,
        });
    }
    Ok(())
}

impl EffectVocabulary {
    /// A vocabulary whose formulas read `variables` and that declares nothing else yet.
    pub fn new(variables: VariableSchema) -> EffectVocabulary {
        EffectVocabulary {
            variables,
            ..EffectVocabulary::default()
        }
    }

    /// The variables conditions and amount formulas may read.
    pub fn variables(&self) -> &VariableSchema {
        &self.variables
    }

    /// Declares a resource and its kind.
    pub fn resource(
        &mut self,
        name: &str,
        kind: ResourceKind,
    ) -> Result<&mut EffectVocabulary, VocabularyError> {
        checked(name, "resource")?;
        if self.resources.insert(name.to_owned(), kind).is_some() {
            return Err(VocabularyError::Duplicate {
                name: name.into(),
                what: "resource",
            });
        }
        Ok(self)
    }

    /// Declares a status.
    pub fn status(&mut self, name: &str) -> Result<&mut EffectVocabulary, VocabularyError> {
        insert(&mut self.statuses, name, "status")?;
        Ok(self)
    }

    /// Declares a custom trigger (a moment of the game that has no built-in trigger).
    pub fn custom_trigger(&mut self, name: &str) -> Result<&mut EffectVocabulary, VocabularyError> {
        if !crate::Trigger::<crate::Plain>::from_name(name).is_custom() {
            return Err(VocabularyError::BuiltInTrigger { name: name.into() });
        }
        insert(&mut self.custom_triggers, name, "trigger")?;
        Ok(self)
    }

    /// Declares a random stream that `Chance` conditions may draw from.
    pub fn stream(&mut self, name: &str) -> Result<&mut EffectVocabulary, VocabularyError> {
        insert(&mut self.streams, name, "stream")?;
        Ok(self)
    }

    /// Declares every stream of a game's stream table.
    pub fn streams_of(
        &mut self,
        table: &turnstile_core::determinism::StreamTable,
    ) -> Result<&mut EffectVocabulary, VocabularyError> {
        for name in table.names() {
            self.stream(name)?;
        }
        Ok(self)
    }

    /// Declares an owner kind (`card`, `status`, `phase`).
    pub fn owner_kind(&mut self, kind: &str) -> Result<&mut EffectVocabulary, VocabularyError> {
        insert(&mut self.owner_kinds, kind, "owner kind")?;
        Ok(self)
    }

    /// The kind of resource `name`, if declared.
    pub fn resource_kind(&self, name: &str) -> Option<ResourceKind> {
        self.resources.get(name).copied()
    }

    /// Whether status `name` is declared.
    pub fn has_status(&self, name: &str) -> bool {
        self.statuses.contains(name)
    }

    /// Whether custom trigger `name` is declared.
    pub fn has_custom_trigger(&self, name: &str) -> bool {
        self.custom_triggers.contains(name)
    }

    /// Whether stream `name` is declared.
    pub fn has_stream(&self, name: &str) -> bool {
        self.streams.contains(name)
    }

    /// Whether owner kind `kind` is declared.
    pub fn has_owner_kind(&self, kind: &str) -> bool {
        self.owner_kinds.contains(kind)
    }

    /// The declared names of one sort, for messages.
    pub(crate) fn names(&self, what: &str) -> Vec<String> {
        match what {
            "resource" => self.resources.keys().cloned().collect(),
            "status" => self.statuses.iter().cloned().collect(),
            "trigger" => self.custom_triggers.iter().cloned().collect(),
            "stream" => self.streams.iter().cloned().collect(),
            _ => self.owner_kinds.iter().cloned().collect(),
        }
    }
}
