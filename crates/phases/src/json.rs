//! Reading a sequence file so that a duplicated key is a reported problem, not a silent choice.
//!
//! JSON parsers disagree about `{"entryPhaseId": "a", "entryPhaseId": "b"}` (serde's derive
//! refuses it, `serde_json::Value` keeps the last, others keep the first). The spec asks for a
//! duplicate `entryPhaseId` to be rejected with every other problem, so the file is first read
//! into an ordered tree that keeps every key, duplicates are reported with their JSON pointer,
//! and the rest of validation goes on with the first occurrence of each key.
//!
//! The tree has no floating-point numbers: a number that is not an integer is refused while
//! reading, since nothing in a phase sequence takes one.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use turnstile_core::{ContentProblem, Location};

use crate::definition::PhaseSequenceDefinition;

/// A JSON value with its object keys in file order, duplicates kept.
enum Node {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Text(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value without fractional numbers")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Uint(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Text(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::Text(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Node>()? {
            entries.push((key, value));
        }
        Ok(Node::Object(entries))
    }
}

impl Node {
    /// Pushes a problem for every key that appears twice in one object, at the pointer of
    /// the repeated occurrence.
    fn duplicates(
        &self,
        file: &str,
        sequence: &str,
        pointer: &mut String,
        problems: &mut Vec<ContentProblem>,
    ) {
        match self {
            Node::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    item.duplicates(file, sequence, pointer, problems);
                    pointer.truncate(len);
                }
            }
            Node::Object(entries) => {
                for (i, (key, value)) in entries.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&escape_pointer_token(key));
                    if entries[..i].iter().any(|(k, _)| k == key) {
                        problems.push(ContentProblem::new(
                            file,
                            Location::Pointer {
                                pointer: pointer.clone(),
                            },
                            "duplicate_key",
                            format!(
                                "{sequence}key `{key}` appears more than once in this object; \
                                 JSON readers disagree on which one counts, so write it once \
                                 (validation went on with the first)"
                            ),
                        ));
                    }
                    value.duplicates(file, sequence, pointer, problems);
                    pointer.truncate(len);
                }
            }
            Node::Null | Node::Bool(_) | Node::Int(_) | Node::Uint(_) | Node::Text(_) => {}
        }
    }

    /// The same value as a `serde_json::Value`, keeping the first occurrence of each key.
    fn into_value(self) -> serde_json::Value {
        match self {
            Node::Null => serde_json::Value::Null,
            Node::Bool(b) => serde_json::Value::Bool(b),
            Node::Int(n) => serde_json::Value::from(n),
            Node::Uint(n) => serde_json::Value::from(n),
            Node::Text(s) => serde_json::Value::String(s),
            Node::Array(items) => {
                serde_json::Value::Array(items.into_iter().map(Node::into_value).collect())
            }
            Node::Object(entries) => {
                let mut map = serde_json::Map::new();
                for (key, value) in entries {
                    if !map.contains_key(&key) {
                        map.insert(key, value.into_value());
                    }
                }
                serde_json::Value::Object(map)
            }
        }
    }
}

/// Escapes a key as one reference token of a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
pub(crate) fn escape_pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn json_problem(file: &str, error: &serde_json::Error) -> ContentProblem {
    let code = if error.is_syntax() || error.is_eof() {
        "malformed_json"
    } else {
        "invalid_value"
    };
    let at = if error.line() == 0 {
        Location::File
    } else {
        Location::LineColumn {
            line: u32::try_from(error.line()).unwrap_or(u32::MAX),
            column: u32::try_from(error.column()).unwrap_or(u32::MAX),
        }
    };
    ContentProblem::new(file, at, code, error.to_string())
}

/// Reads a sequence file's text into a definition.
///
/// Returns the definition (when its shape could be read) and the problems found on the way:
/// a syntax error or a value of the wrong type stops reading (and is the only problem, with
/// its line and column); duplicated keys are reported with their pointers and reading goes on
/// with the first occurrence of each.
pub(crate) fn read_definition(
    file: &str,
    text: &str,
) -> (Option<PhaseSequenceDefinition>, Vec<ContentProblem>) {
    let tree: Node = match serde_json::from_str(text) {
        Ok(tree) => tree,
        Err(error) => return (None, vec![json_problem(file, &error)]),
    };
    let mut problems = Vec::new();
    // Name the sequence when the file says which it is (its first `sequenceId`).
    let sequence = match &tree {
        Node::Object(entries) => entries
            .iter()
            .find_map(|(key, value)| match (key.as_str(), value) {
                ("sequenceId", Node::Text(id)) => Some(format!("sequence `{id}`: ")),
                _ => None,
            })
            .unwrap_or_default(),
        _ => String::new(),
    };
    tree.duplicates(file, &sequence, &mut String::new(), &mut problems);
    if problems.is_empty() {
        // Typed parsing from the text itself, so shape errors carry a line and column.
        match serde_json::from_str(text) {
            Ok(definition) => (Some(definition), problems),
            Err(error) => (None, vec![json_problem(file, &error)]),
        }
    } else {
        match serde_json::from_value(tree.into_value()) {
            Ok(definition) => (Some(definition), problems),
            Err(error) => {
                problems.push(json_problem(file, &error));
                (None, problems)
            }
        }
    }
}
