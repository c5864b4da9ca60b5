//! [`FormulaText`]: how a formula travels in content files, before it meets its schema.
//!
//! serde deserializes without context, but compiling a formula needs the schema of the
//! context it will run in. So content types hold a `FormulaText` (serialized as the plain
//! string), and the loader compiles each one against the right schema while validating,
//! reporting the error with the file and JSON pointer it came from.

use serde::{Deserialize, Serialize};

use crate::error::FormulaError;
use crate::formula::Formula;
use crate::schema::VariableSchema;

/// A formula's source text as it appears in content: serialized as a plain JSON string,
/// compiled later against a schema.
///
/// ```
/// use turnstile_formula::{FormulaText, Type, VariableSchema};
///
/// #[derive(serde::Deserialize)]
/// struct Edge { condition: FormulaText }
///
/// let edge: Edge = serde_json::from_str(r#"{ "condition": "round >= 3" }"#).unwrap();
/// let schema = VariableSchema::from_declarations([("round", Type::Int)]).unwrap();
/// let condition = edge.condition.compile_condition(&schema).unwrap();
/// assert_eq!(serde_json::to_string(&condition).unwrap(), r#""round >= 3""#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FormulaText(pub String);

impl FormulaText {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// [`Formula::compile`] on this text.
    pub fn compile(&self, schema: &VariableSchema) -> Result<Formula, FormulaError> {
        Formula::compile(&self.0, schema)
    }

    /// [`Formula::compile_condition`] on this text.
    pub fn compile_condition(&self, schema: &VariableSchema) -> Result<Formula, FormulaError> {
        Formula::compile_condition(&self.0, schema)
    }
}

impl From<&str> for FormulaText {
    fn from(text: &str) -> FormulaText {
        FormulaText(text.to_owned())
    }
}

impl From<String> for FormulaText {
    fn from(text: String) -> FormulaText {
        FormulaText(text)
    }
}

impl From<&Formula> for FormulaText {
    fn from(formula: &Formula) -> FormulaText {
        FormulaText(formula.source().to_owned())
    }
}
