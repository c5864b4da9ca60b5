//! Writing typed rows back out in content form — a JSON rows array or a sheet — so that tools
//! can export content and tests can prove that both forms load to the same rows.
//!
//! Content form differs from serde's output in one place: a `Fixed` is written as decimal
//! text (`"1.5"`), as content files hold it, not as the canonical raw count (`15000`). A value
//! that could not be read back unchanged from a sheet cell (text with a tab, a line break or
//! surrounding spaces, empty text, text that a cell would read as a number, a list) is refused
//! rather than written wrong.

use serde::Serialize;
use serde_json::{Map, Value};
use turnstile_core::determinism::{Chance, Fixed};

use crate::cells::type_cell;
use crate::error::SheetError;
use crate::shape::{Shape, ShapeId, Shapes, ANY};

/// `value` (serde's output for a row) in content form.
pub(crate) fn content_value(shapes: &Shapes, value: Value) -> Value {
    convert(shapes, shapes.root, value)
}

fn convert(shapes: &Shapes, shape: ShapeId, value: Value) -> Value {
    let (id, _) = shapes.strip(shape);
    match (shapes.get(id), value) {
        // serde writes a `Fixed` as its raw count (a number, or a string of digits beyond
        // 2^53 - 1); read it back the kit's way and write the decimal text.
        (Shape::Fixed, value) => match serde_json::from_value::<Fixed>(value.clone()) {
            Ok(fixed) => Value::String(fixed.to_string()),
            Err(_) => value,
        },
        // And a `Chance` as its fraction text, `1/4`.
        (Shape::Chance, value) => match serde_json::from_value::<Chance>(value.clone()) {
            Ok(chance) => Value::String(chance.to_string()),
            Err(_) => value,
        },
        (Shape::Array(inner), Value::Array(items)) => Value::Array(
            items
                .into_iter()
                .map(|v| convert(shapes, *inner, v))
                .collect(),
        ),
        (Shape::Map(inner), Value::Object(members)) => Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (k, convert(shapes, *inner, v)))
                .collect(),
        ),
        (Shape::Object(object), Value::Object(members)) => Value::Object(
            members
                .into_iter()
                .map(|(k, v)| {
                    let shape = object.field(&k).map_or(ANY, |f| f.shape);
                    let v = convert(shapes, shape, v);
                    (k, v)
                })
                .collect(),
        ),
        (Shape::Tagged(tagged), Value::Object(members)) => {
            let variant = members
                .get(&tagged.tag)
                .and_then(Value::as_str)
                .and_then(|name| tagged.variant(name))
                .cloned();
            Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| {
                        let shape = variant
                            .as_ref()
                            .and_then(|o| o.field(&k))
                            .map_or(ANY, |f| f.shape);
                        let v = convert(shapes, shape, v);
                        (k, v)
                    })
                    .collect(),
            )
        }
        (Shape::Union(alternatives), value) => {
            // An integer reads as the integer alternative first; only convert when the
            // union has no integer alternative.
            let has_int = alternatives
                .iter()
                .any(|a| matches!(shapes.get(shapes.strip(*a).0), Shape::Int(_)));
            match alternatives
                .iter()
                .find(|a| matches!(shapes.get(shapes.strip(**a).0), Shape::Fixed))
            {
                Some(fixed) if !has_int => convert(shapes, *fixed, value),
                _ => {
                    let object = shapes.object_like(id);
                    match (object, value) {
                        (Some(o), v @ Value::Object(_)) => convert(shapes, o, v),
                        (_, v) => v,
                    }
                }
            }
        }
        (_, value) => value,
    }
}

/// Rows in content form as a JSON rows array, pretty, with a final newline.
pub(crate) fn write_json<T: Serialize>(shapes: &Shapes, rows: &[T]) -> Result<String, SheetError> {
    let values = rows
        .iter()
        .map(|row| to_value(row).map(|v| content_value(shapes, v)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut text = serde_json::to_string_pretty(&Value::Array(values)).map_err(|e| {
        SheetError::InvalidValue {
            message: e.to_string(),
        }
    })?;
    text.push('\n');
    Ok(text)
}

fn to_value<T: Serialize>(row: &T) -> Result<Value, SheetError> {
    serde_json::to_value(row).map_err(|e| SheetError::InvalidValue {
        message: e.to_string(),
    })
}

/// Rows as a sheet with the given columns, in that order.
pub(crate) fn write_sheet<T: Serialize>(
    shapes: &Shapes,
    rows: &[T],
    columns: &[&str],
) -> Result<String, SheetError> {
    let mut text = columns.join("\t");
    text.push('\n');
    for row in rows {
        let value = content_value(shapes, to_value(row)?);
        let mut cells: Vec<(String, String)> = Vec::new();
        flatten(shapes, shapes.root, &value, "", &mut cells)?;
        let mut line = Vec::with_capacity(columns.len());
        for column in columns {
            let cell = cells
                .iter()
                .find(|(c, _)| c == column)
                .map(|(_, t)| t.clone())
                .unwrap_or_default();
            line.push(cell);
        }
        for (column, _) in &cells {
            if !columns.contains(&column.as_str()) {
                return Err(SheetError::Unwritable {
                    column: column.clone(),
                    reason: "the sheet has no such column".into(),
                });
            }
        }
        if line.first().is_some_and(|c| c.starts_with('#')) {
            return Err(SheetError::Unwritable {
                column: columns.first().map(|c| (*c).to_owned()).unwrap_or_default(),
                reason: "a row starting with `#` would read as a comment".into(),
            });
        }
        text.push_str(&line.join("\t"));
        text.push('\n');
    }
    Ok(text)
}

fn join(path: &str, part: &str) -> String {
    if path.is_empty() {
        part.to_owned()
    } else {
        format!("{path}.{part}")
    }
}

fn flatten(
    shapes: &Shapes,
    shape: ShapeId,
    value: &Value,
    path: &str,
    out: &mut Vec<(String, String)>,
) -> Result<(), SheetError> {
    let unwritable = |reason: &str| SheetError::Unwritable {
        column: path.to_owned(),
        reason: reason.to_owned(),
    };
    match value {
        Value::Null => Ok(()),
        Value::Array(_) => Err(unwritable("a list cannot be written in a sheet")),
        Value::Object(members) => {
            let (id, _) = shapes.strip(shape);
            let object = shapes.object_like(id).map(|o| shapes.get(o).clone());
            for (key, member) in members {
                let field_shape = match &object {
                    Some(Shape::Object(o)) => o.field(key).map_or(ANY, |f| f.shape),
                    Some(Shape::Tagged(t)) => {
                        if *key == t.tag {
                            ANY
                        } else {
                            variant_field(t, members, key)
                        }
                    }
                    Some(Shape::Map(inner)) => *inner,
                    _ => ANY,
                };
                flatten(shapes, field_shape, member, &join(path, key), out)?;
            }
            Ok(())
        }
        scalar => {
            let text = match scalar {
                Value::String(s) => s.clone(),
                Value::Bool(b) => b.to_string(),
                other => other.to_string(),
            };
            if text.is_empty() {
                return Err(unwritable("empty text reads as an empty cell"));
            }
            if text.contains(['\t', '\n', '\r']) {
                return Err(unwritable("a cell cannot hold a tab or a line break"));
            }
            if text.trim() != text {
                return Err(unwritable("a cell's surrounding spaces are not kept"));
            }
            if shape != ANY && type_cell(shapes, shape, &text).as_ref() != Ok(scalar) {
                return Err(unwritable("the cell would read back as another value"));
            }
            out.push((path.to_owned(), text));
            Ok(())
        }
    }
}

fn variant_field(
    tagged: &crate::shape::TaggedShape,
    members: &Map<String, Value>,
    key: &str,
) -> ShapeId {
    members
        .get(&tagged.tag)
        .and_then(Value::as_str)
        .and_then(|name| tagged.variant(name))
        .and_then(|o| o.field(key))
        .map_or(ANY, |f| f.shape)
}
