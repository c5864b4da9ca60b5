//! The variables a context offers to formulas: names, types, and the slot each resolves to.
//!
//! A phase edge, an effect row and a content formula each evaluate against their own context;
//! each context publishes a [`VariableSchema`]. Compiling a formula against it rejects unknown
//! names (with their position) and replaces every name by its slot, so evaluation indexes
//! instead of looking names up.

use std::collections::BTreeMap;

use crate::error::SchemaError;
use crate::lexer::{is_valid_name, RESERVED};
use crate::value::Type;
use crate::MAX_VARIABLES;

/// One declared variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableDeclaration {
    /// Its name (`round`, `source.hp`).
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Its slot: the index of its value in the context, in declaration order from 0.
    pub slot: u16,
}

/// The variables a context offers: each name with its type and slot.
///
/// Slots are given in declaration order (the first variable is slot 0), so a context that
/// stores its values in a slice in the same order can hand that slice to
/// [`crate::Formula::eval`] directly.
///
/// ```
/// use turnstile_formula::{Type, VariableSchema};
/// let mut schema = VariableSchema::new();
/// assert_eq!(schema.declare("round", Type::Int), Ok(0));
/// assert_eq!(schema.declare("source.hp", Type::Int), Ok(1));
/// assert_eq!(schema.declare("round", Type::Int).unwrap_err().code(), "duplicate_variable");
/// assert_eq!(schema.declare("and", Type::Bool).unwrap_err().code(), "reserved_name");
/// assert_eq!(schema.get("source.hp").map(|d| d.slot), Some(1));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariableSchema {
    declarations: Vec<VariableDeclaration>,
    by_name: BTreeMap<String, u16>,
}

impl VariableSchema {
    /// An empty schema.
    pub fn new() -> VariableSchema {
        VariableSchema::default()
    }

    /// A schema declaring each `(name, type)` in order.
    pub fn from_declarations<'n>(
        declarations: impl IntoIterator<Item = (&'n str, Type)>,
    ) -> Result<VariableSchema, SchemaError> {
        let mut schema = VariableSchema::new();
        for (name, ty) in declarations {
            schema.declare(name, ty)?;
        }
        Ok(schema)
    }

    /// Declares a variable and returns its slot (the next free one).
    pub fn declare(&mut self, name: &str, ty: Type) -> Result<u16, SchemaError> {
        if RESERVED.contains(&name) {
            return Err(SchemaError::ReservedName { name: name.into() });
        }
        if !is_valid_name(name) {
            return Err(SchemaError::InvalidName { name: name.into() });
        }
        if self.by_name.contains_key(name) {
            return Err(SchemaError::DuplicateVariable { name: name.into() });
        }
        let slot = u16::try_from(self.declarations.len())
            .ok()
            .filter(|_| self.declarations.len() < MAX_VARIABLES)
            .ok_or(SchemaError::TooManyVariables {
                limit: MAX_VARIABLES,
            })?;
        self.declarations.push(VariableDeclaration {
            name: name.into(),
            ty,
            slot,
        });
        self.by_name.insert(name.into(), slot);
        Ok(slot)
    }

    /// The declaration of `name`, if any.
    pub fn get(&self, name: &str) -> Option<&VariableDeclaration> {
        let slot = *self.by_name.get(name)?;
        self.declarations.get(usize::from(slot))
    }

    /// The declaration at `slot`, if any.
    pub fn by_slot(&self, slot: u16) -> Option<&VariableDeclaration> {
        self.declarations.get(usize::from(slot))
    }

    /// Every declaration, in slot order.
    pub fn declarations(&self) -> &[VariableDeclaration] {
        &self.declarations
    }

    /// How many variables are declared.
    pub fn len(&self) -> usize {
        self.declarations.len()
    }

    /// Whether no variable is declared.
    pub fn is_empty(&self) -> bool {
        self.declarations.is_empty()
    }
}
