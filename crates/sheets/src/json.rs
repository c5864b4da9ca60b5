//! Reading a JSON rows file — an array of row objects — into the same typed rows a sheet
//! gives, checked against the same shape, with every problem located by JSON pointer.
//!
//! The checks are the sheet's, so both forms accept and refuse the same content: a missing
//! required member, a member the type does not have, an unknown `$type`, a parameter that
//! does not belong to the chosen `$type`, a float anywhere, an integer out of range. One rule
//! is stricter than serde alone: a `Fixed` is written as decimal text (`"1.5"`, `"2"`), as in
//! a sheet, because a bare JSON integer would be read as ten-thousandths (`2` is 0.0002).

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;
use turnstile_core::Location;

use crate::cells;
use crate::error::{Names, SheetError};
use crate::located::{escape_pointer, Loaded, Located, RowOrigin, RowPlace};
use crate::shape::{ObjectShape, Shape, ShapeId, Shapes};

/// Loads a JSON rows file. See [`crate::RowLoader::json`].
pub(crate) fn load<T: DeserializeOwned>(shapes: &Shapes, file: &str, text: &str) -> Loaded<T> {
    let mut problems = Vec::new();
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let at = Location::LineColumn {
                line: u32::try_from(e.line()).unwrap_or(u32::MAX),
                column: u32::try_from(e.column()).unwrap_or(u32::MAX),
            };
            let error = SheetError::MalformedJson {
                message: e.to_string(),
            };
            return Loaded {
                rows: Vec::new(),
                problems: vec![error.at(file, at)],
            };
        }
    };
    let Value::Array(items) = value else {
        let error = SheetError::NotAnArray {
            found: kind(&value).into(),
        };
        return Loaded {
            rows: Vec::new(),
            problems: vec![error.at(
                file,
                Location::Pointer {
                    pointer: String::new(),
                },
            )],
        };
    };
    let file_name: Arc<str> = Arc::from(file);
    let mut rows = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let pointer = format!("/{index}");
        let before = problems.len();
        let mut checker = Checker {
            shapes,
            problems: Vec::new(),
        };
        checker.check(shapes.root, &item, &pointer);
        problems.extend(
            checker
                .problems
                .into_iter()
                .map(|(p, e)| e.at(file, Location::Pointer { pointer: p })),
        );
        if problems.len() != before {
            continue;
        }
        match serde_path_to_error::deserialize::<_, T>(item) {
            Ok(value) => rows.push(Located {
                value,
                origin: RowOrigin {
                    file: file_name.clone(),
                    place: RowPlace::Json { index },
                },
            }),
            Err(e) => {
                let mut at = pointer.clone();
                for part in crate::sheet::field_path(e.path())
                    .split('.')
                    .filter(|p| !p.is_empty())
                {
                    at.push('/');
                    at.push_str(&escape_pointer(part));
                }
                let error = SheetError::InvalidValue {
                    message: e.inner().to_string(),
                };
                problems.push(error.at(file, Location::Pointer { pointer: at }));
            }
        }
    }
    Loaded { rows, problems }
}

/// The kind of a JSON value, for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a truth value",
        Value::Number(n) if n.is_f64() => "a floating-point number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

struct Checker<'a> {
    shapes: &'a Shapes,
    problems: Vec<(String, SheetError)>,
}

fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", escape_pointer(key))
}

impl Checker<'_> {
    fn report(&mut self, pointer: &str, error: SheetError) {
        self.problems.push((pointer.to_owned(), error));
    }

    fn wrong(&mut self, pointer: &str, shape: ShapeId, value: &Value) {
        let expected = self.shapes.describe(shape);
        self.report(
            pointer,
            SheetError::WrongType {
                expected,
                found: kind(value).into(),
            },
        );
    }

    fn check(&mut self, shape: ShapeId, value: &Value, pointer: &str) {
        let shapes = self.shapes;
        let (id, nullable) = shapes.strip(shape);
        let node = shapes.get(id).clone();
        if value.is_null() {
            if !(nullable || matches!(node, Shape::Null | Shape::Any)) {
                self.wrong(pointer, id, value);
            }
            return;
        }
        match node {
            Shape::Any => self.no_floats(value, pointer),
            Shape::Null => self.wrong(pointer, id, value),
            Shape::Int(range) => match value {
                Value::Number(n) if n.is_f64() => self.report(
                    pointer,
                    SheetError::FloatRejected {
                        text: n.to_string(),
                    },
                ),
                Value::Number(n) => {
                    if let Err(e) = cells::integer(&n.to_string(), range) {
                        self.report(pointer, e);
                    }
                }
                _ => self.wrong(pointer, id, value),
            },
            Shape::Fixed => match value {
                Value::String(text) => {
                    if let Err(e) = cells::fixed(text) {
                        self.report(pointer, e);
                    }
                }
                Value::Number(n) if n.is_f64() => self.report(
                    pointer,
                    SheetError::FloatRejected {
                        text: n.to_string(),
                    },
                ),
                Value::Number(n) => self.report(
                    pointer,
                    SheetError::BadFixed {
                        text: n.to_string(),
                        hint: format!(
                            "; in content a fixed-point number is a string, \"{n}\" (a bare integer would be read as ten-thousandths)"
                        ),
                    },
                ),
                _ => self.wrong(pointer, id, value),
            },
            Shape::Chance => match value {
                Value::String(text) => {
                    if let Err(e) = cells::chance(text) {
                        self.report(pointer, e);
                    }
                }
                _ => self.wrong(pointer, id, value),
            },
            Shape::Bool => {
                if !value.is_boolean() {
                    self.wrong(pointer, id, value);
                }
            }
            Shape::Text { choices } => match value {
                Value::String(text) => {
                    if let Err(e) = cells::text(text, choices.as_ref()) {
                        self.report(pointer, e);
                    }
                }
                _ => self.wrong(pointer, id, value),
            },
            Shape::Array(inner) => match value {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        self.check(inner, item, &format!("{pointer}/{i}"));
                    }
                }
                _ => self.wrong(pointer, id, value),
            },
            Shape::Map(inner) => match value {
                Value::Object(members) => {
                    for (key, member) in members {
                        self.check(inner, member, &child(pointer, key));
                    }
                }
                _ => self.wrong(pointer, id, value),
            },
            Shape::Object(object) => match value {
                Value::Object(_) => self.object(&object, value, pointer, None),
                _ => self.wrong(pointer, id, value),
            },
            Shape::Tagged(tagged) => {
                let Value::Object(members) = value else {
                    self.wrong(pointer, id, value);
                    return;
                };
                let tag_pointer = child(pointer, &tagged.tag);
                match members.get(&tagged.tag) {
                    None => self.report(
                        &tag_pointer,
                        SheetError::MissingField {
                            name: tagged.tag.clone(),
                            needed: format!("the kind, one of {}", Names(tagged.variant_names())),
                        },
                    ),
                    Some(Value::String(name)) => match tagged.variant(name) {
                        Some(variant) => self.object(variant, value, pointer, Some(&tagged.tag)),
                        None => self.report(
                            &tag_pointer,
                            SheetError::UnknownType {
                                value: name.clone(),
                                field: format!("`{}`", pointer_field(pointer)),
                                allowed: Names(tagged.variant_names()),
                            },
                        ),
                    },
                    Some(other) => self.report(
                        &tag_pointer,
                        SheetError::WrongType {
                            expected: format!("one of {}", Names(tagged.variant_names())),
                            found: kind(other).into(),
                        },
                    ),
                }
            }
            Shape::Union(alternatives) => self.union(id, &alternatives, value, pointer),
            Shape::Nullable(_) | Shape::Ref(_) => {}
        }
    }

    fn object(&mut self, object: &ObjectShape, value: &Value, pointer: &str, tag: Option<&str>) {
        let Value::Object(members) = value else {
            return;
        };
        for (key, member) in members {
            if Some(key.as_str()) == tag {
                continue;
            }
            match object.field(key) {
                Some(field) => self.check(field.shape, member, &child(pointer, key)),
                None => self.report(
                    &child(pointer, key),
                    SheetError::UnknownField {
                        name: key.clone(),
                        target: format!("`{}`", object.name),
                    },
                ),
            }
        }
        for field in object.fields.iter().filter(|f| f.required) {
            if !members.contains_key(&field.name) {
                let needed = self.shapes.describe(field.shape);
                self.report(
                    &child(pointer, &field.name),
                    SheetError::MissingField {
                        name: field.name.clone(),
                        needed,
                    },
                );
            }
        }
    }

    fn union(&mut self, id: ShapeId, alternatives: &[ShapeId], value: &Value, pointer: &str) {
        let mut best: Option<Vec<(String, SheetError)>> = None;
        for alternative in alternatives {
            if !self.takes_kind(*alternative, value) {
                continue;
            }
            let mut trial = Checker {
                shapes: self.shapes,
                problems: Vec::new(),
            };
            trial.check(*alternative, value, pointer);
            if trial.problems.is_empty() {
                return;
            }
            best.get_or_insert(trial.problems);
        }
        match best {
            Some(problems) => self.problems.extend(problems),
            None => self.wrong(pointer, id, value),
        }
    }

    /// Whether a value of this JSON kind could be of shape `id` at all.
    fn takes_kind(&self, id: ShapeId, value: &Value) -> bool {
        let (id, nullable) = self.shapes.strip(id);
        match (self.shapes.get(id), value) {
            (_, Value::Null) => nullable,
            (Shape::Any, _) => true,
            (Shape::Int(_), Value::Number(_)) => true,
            (Shape::Fixed, Value::String(_) | Value::Number(_)) => true,
            (Shape::Chance, Value::String(_)) => true,
            (Shape::Bool, Value::Bool(_)) => true,
            (Shape::Text { .. }, Value::String(_)) => true,
            (Shape::Array(_), Value::Array(_)) => true,
            (Shape::Map(_) | Shape::Object(_) | Shape::Tagged(_), Value::Object(_)) => true,
            (Shape::Union(alternatives), _) => {
                alternatives.iter().any(|a| self.takes_kind(*a, value))
            }
            _ => false,
        }
    }

    fn no_floats(&mut self, value: &Value, pointer: &str) {
        match value {
            Value::Number(n) if n.is_f64() => self.report(
                pointer,
                SheetError::FloatRejected {
                    text: n.to_string(),
                },
            ),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.no_floats(item, &format!("{pointer}/{i}"));
                }
            }
            Value::Object(members) => {
                for (key, member) in members {
                    self.no_floats(member, &child(pointer, key));
                }
            }
            _ => {}
        }
    }
}

/// The last token of a pointer, for messages (`/3/condition` → `condition`).
fn pointer_field(pointer: &str) -> &str {
    pointer.rsplit('/').next().unwrap_or(pointer)
}
