//! The shape of a row type, read from its JSON Schema: which fields it has, which are
//! required, which are polymorphic (and their `$type` variants), and what kind of scalar each
//! leaf holds. It is what lets a sheet type each cell by its target (an integer column, a
//! `Fixed` column, a text column) instead of guessing, and what lets both the sheet and the
//! JSON form report a problem at the exact cell or member.
//!
//! Only the subset of JSON Schema that `schemars` writes for serde types is understood:
//! `$ref` into `$defs`, `type` (with `"null"` for options), `properties`, `required`,
//! `additionalProperties`, `oneOf`/`anyOf`, a single `allOf`, `enum`, `const`, `items`,
//! `minimum`/`maximum`, the integer `format`s, `format: "fixed"` (see
//! [`crate::FixedSchema`]) and `format: "chance"` (see [`crate::ChanceSchema`]). Anything else reads as "no constraint", where a cell's type is
//! inferred (docs/sheets.md, "Typing cells").

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// An index into [`Shapes`].
pub(crate) type ShapeId = usize;

/// An id that reads as [`Shape::Any`]: for values whose keys and types are free.
pub(crate) const ANY: ShapeId = usize::MAX;

/// The range of an integer shape, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IntRange {
    pub min: i128,
    pub max: i128,
}

impl IntRange {
    /// The range of `i64`.
    pub(crate) const I64: IntRange = IntRange {
        min: i64::MIN as i128,
        max: i64::MAX as i128,
    };
}

/// One node of a row type's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Shape {
    /// No constraint: cells are typed by inference.
    Any,
    /// JSON `null` only.
    Null,
    /// An integer in a range.
    Int(IntRange),
    /// A `Fixed` number, written as decimal text.
    Fixed,
    /// A `Chance`, written as a fraction `num/den`.
    Chance,
    /// `true` or `false`.
    Bool,
    /// Text; when `choices` is given, only those values.
    Text { choices: Option<Vec<String>> },
    /// A list (JSON only: a sheet cell cannot hold one).
    Array(ShapeId),
    /// An object with arbitrary keys, each value of one shape.
    Map(ShapeId),
    /// An object with named fields.
    Object(ObjectShape),
    /// A polymorphic object: the `tag` member names the variant.
    Tagged(TaggedShape),
    /// One of several alternatives (scalars, or scalars and one object-like shape).
    Union(Vec<ShapeId>),
    /// The inner shape or `null`.
    Nullable(ShapeId),
    /// The same as another node (a `$ref`).
    Ref(ShapeId),
}

/// The fields of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ObjectShape {
    /// A name for messages (the schema's title or definition name).
    pub name: String,
    pub fields: Vec<Field>,
}

impl ObjectShape {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    pub fn field_names(&self) -> Vec<String> {
        self.fields.iter().map(|f| f.name.clone()).collect()
    }
}

/// One field of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field {
    pub name: String,
    pub shape: ShapeId,
    pub required: bool,
}

/// A polymorphic object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TaggedShape {
    /// The discriminating member, `$type` for our types.
    pub tag: String,
    /// Each variant's name and its other fields.
    pub variants: Vec<(String, ObjectShape)>,
}

impl TaggedShape {
    pub fn variant(&self, name: &str) -> Option<&ObjectShape> {
        self.variants
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, o)| o)
    }

    pub fn variant_names(&self) -> Vec<String> {
        self.variants.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The shape of field `name` in the first variant that has it.
    pub fn any_field(&self, name: &str) -> Option<&Field> {
        self.variants.iter().find_map(|(_, o)| o.field(name))
    }
}

/// A row type's shape: an arena of nodes (so recursive types are fine) and its root.
#[derive(Debug, Clone)]
pub(crate) struct Shapes {
    nodes: Vec<Shape>,
    pub root: ShapeId,
    /// The root type's name, for messages.
    pub name: String,
}

impl Shapes {
    /// Reads the shape of a root schema document (as `schemars` writes it).
    pub fn from_schema(schema: &Value) -> Shapes {
        let defs = schema
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let name = schema
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("the row")
            .to_owned();
        let mut builder = Builder {
            nodes: Vec::new(),
            defs,
            resolved: BTreeMap::new(),
        };
        let root = builder.compile(schema, &name);
        Shapes {
            nodes: builder.nodes,
            root,
            name,
        }
    }

    pub fn get(&self, id: ShapeId) -> &Shape {
        self.nodes.get(id).unwrap_or(&Shape::Any)
    }

    /// Follows references and `Nullable` wrappers to the node that says something; also
    /// tells whether `null` is allowed on the way. (Bounded, so a reference cycle that
    /// says nothing ends as well.)
    pub fn strip(&self, mut id: ShapeId) -> (ShapeId, bool) {
        let mut nullable = false;
        for _ in 0..=self.nodes.len() {
            match self.get(id) {
                Shape::Nullable(inner) => {
                    nullable = true;
                    id = *inner;
                }
                Shape::Ref(inner) => id = *inner,
                _ => break,
            }
        }
        (id, nullable)
    }

    /// The object-like shape of `id` (for a group of columns or a JSON object): itself, or
    /// the object-like alternative of a union.
    pub fn object_like(&self, id: ShapeId) -> Option<ShapeId> {
        let (id, _) = self.strip(id);
        match self.get(id) {
            Shape::Any | Shape::Map(_) | Shape::Object(_) | Shape::Tagged(_) => Some(id),
            Shape::Union(alternatives) => alternatives.iter().find_map(|a| {
                let (a, _) = self.strip(*a);
                matches!(
                    self.get(a),
                    Shape::Any | Shape::Map(_) | Shape::Object(_) | Shape::Tagged(_)
                )
                .then_some(a)
            }),
            _ => None,
        }
    }

    /// Whether a single cell can hold a value of shape `id`.
    pub fn takes_cell(&self, id: ShapeId) -> bool {
        let (id, _) = self.strip(id);
        match self.get(id) {
            Shape::Any
            | Shape::Null
            | Shape::Int(_)
            | Shape::Fixed
            | Shape::Chance
            | Shape::Bool
            | Shape::Text { .. } => true,
            Shape::Union(alternatives) => alternatives.iter().any(|a| self.takes_cell(*a)),
            Shape::Array(_)
            | Shape::Map(_)
            | Shape::Object(_)
            | Shape::Tagged(_)
            | Shape::Nullable(_)
            | Shape::Ref(_) => false,
        }
    }

    /// What a value of shape `id` is, in words, for messages ("an integer", "one of `A`, `B`").
    pub fn describe(&self, id: ShapeId) -> String {
        let (id, _) = self.strip(id);
        match self.get(id) {
            Shape::Any => "a value".into(),
            Shape::Null => "nothing".into(),
            Shape::Int(range) => {
                if range.min >= 0 {
                    "a whole number, 0 or more".into()
                } else {
                    "an integer".into()
                }
            }
            Shape::Fixed => "a fixed-point number like `1.5`".into(),
            Shape::Chance => "a chance like `1/4`".into(),
            Shape::Bool => "`true` or `false`".into(),
            Shape::Text { choices: Some(c) } => {
                format!("one of {}", crate::error::Names(c.clone()))
            }
            Shape::Text { choices: None } => "text".into(),
            Shape::Array(_) => "a list".into(),
            Shape::Map(_) | Shape::Object(_) => "an object".into(),
            Shape::Tagged(t) => format!(
                "a value whose `{}` is one of {}",
                t.tag,
                crate::error::Names(t.variant_names())
            ),
            Shape::Union(alternatives) => {
                let parts: Vec<String> = alternatives.iter().map(|a| self.describe(*a)).collect();
                parts.join(" or ")
            }
            Shape::Nullable(_) | Shape::Ref(_) => "a value".into(),
        }
    }
}

struct Builder {
    nodes: Vec<Shape>,
    defs: Map<String, Value>,
    resolved: BTreeMap<String, ShapeId>,
}

impl Builder {
    fn push(&mut self, shape: Shape) -> ShapeId {
        self.nodes.push(shape);
        self.nodes.len() - 1
    }

    fn compile(&mut self, schema: &Value, name: &str) -> ShapeId {
        let shape = self.shape_of(schema, name);
        self.push(shape)
    }

    fn reference(&mut self, reference: &str) -> ShapeId {
        let name = reference
            .strip_prefix("#/$defs/")
            .or_else(|| reference.strip_prefix("#/definitions/"))
            .unwrap_or(reference)
            .to_owned();
        if let Some(id) = self.resolved.get(&name) {
            return *id;
        }
        // Reserve the slot first, so that a type that refers to itself terminates.
        let id = self.push(Shape::Any);
        self.resolved.insert(name.clone(), id);
        if let Some(def) = self.defs.get(&name).cloned() {
            let shape = self.shape_of(&def, &name);
            if let Some(slot) = self.nodes.get_mut(id) {
                *slot = shape;
            }
        }
        id
    }

    fn shape_of(&mut self, schema: &Value, name: &str) -> Shape {
        let Some(object) = schema.as_object() else {
            // `true`, `false` or nonsense: no constraint we can use.
            return Shape::Any;
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            return Shape::Ref(self.reference(reference));
        }
        if let Some(all) = object.get("allOf").and_then(Value::as_array) {
            if let [single] = all.as_slice() {
                return self.shape_of(single, name);
            }
            return self.merge_all(all, name);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(alternatives) = object.get(key).and_then(Value::as_array) {
                return self.union(alternatives, name);
            }
        }
        if let Some(value) = object.get("const") {
            return match value.as_str() {
                Some(text) => Shape::Text {
                    choices: Some(vec![text.to_owned()]),
                },
                None => Shape::Any,
            };
        }
        if let Some(values) = object.get("enum").and_then(Value::as_array) {
            let strings: Option<Vec<String>> = values
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect();
            return match strings {
                Some(choices) => Shape::Text {
                    choices: Some(choices),
                },
                None => Shape::Any,
            };
        }
        match object.get("type") {
            Some(Value::String(ty)) => self.typed(ty, object, name),
            Some(Value::Array(types)) => {
                let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
                let nullable = names.contains(&"null");
                let others: Vec<&str> = names.into_iter().filter(|t| *t != "null").collect();
                let inner = match others.as_slice() {
                    [] => Shape::Null,
                    [one] => self.typed(one, object, name),
                    many => {
                        let ids = many
                            .iter()
                            .map(|t| {
                                let shape = self.typed(t, object, name);
                                self.push(shape)
                            })
                            .collect();
                        Shape::Union(ids)
                    }
                };
                if nullable {
                    let id = self.push(inner);
                    Shape::Nullable(id)
                } else {
                    inner
                }
            }
            _ if object.contains_key("properties") => self.typed("object", object, name),
            _ => Shape::Any,
        }
    }

    fn typed(&mut self, ty: &str, object: &Map<String, Value>, name: &str) -> Shape {
        match ty {
            "integer" | "number" => Shape::Int(int_range(object)),
            "boolean" => Shape::Bool,
            "null" => Shape::Null,
            "string" => match object.get("format").and_then(Value::as_str) {
                Some(crate::FIXED_FORMAT) => Shape::Fixed,
                Some(crate::CHANCE_FORMAT) => Shape::Chance,
                _ => Shape::Text { choices: None },
            },
            "array" => {
                let items = object.get("items").cloned().unwrap_or(Value::Bool(true));
                Shape::Array(self.compile(&items, name))
            }
            "object" => {
                let properties = object.get("properties").and_then(Value::as_object);
                match (properties, object.get("additionalProperties")) {
                    (None, Some(extra @ Value::Object(_))) => {
                        let extra = extra.clone();
                        Shape::Map(self.compile(&extra, name))
                    }
                    (None, _) => Shape::Any,
                    (Some(properties), _) => Shape::Object(self.object(properties, object, name)),
                }
            }
            _ => Shape::Any,
        }
    }

    fn object(
        &mut self,
        properties: &Map<String, Value>,
        object: &Map<String, Value>,
        name: &str,
    ) -> ObjectShape {
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let fields = properties
            .iter()
            .map(|(field, schema)| Field {
                name: field.clone(),
                shape: self.compile(schema, field),
                required: required.contains(&field.as_str()),
            })
            .collect();
        ObjectShape {
            name: name.to_owned(),
            fields,
        }
    }

    fn merge_all(&mut self, all: &[Value], name: &str) -> Shape {
        let mut merged = ObjectShape {
            name: name.to_owned(),
            fields: Vec::new(),
        };
        for part in all {
            let shape = self.shape_of(part, name);
            match shape {
                Shape::Object(o) => merged.fields.extend(o.fields),
                _ => return Shape::Any,
            }
        }
        Shape::Object(merged)
    }

    fn union(&mut self, alternatives: &[Value], name: &str) -> Shape {
        let mut nullable = false;
        let mut shapes = Vec::new();
        for alternative in alternatives {
            let mut shape = self.shape_of(alternative, name);
            // See through references and options, so that variants kept in `$defs` still
            // combine into one polymorphic shape.
            for _ in 0..=self.nodes.len() {
                match shape {
                    Shape::Ref(inner) => {
                        shape = self.nodes.get(inner).cloned().unwrap_or(Shape::Any);
                    }
                    Shape::Nullable(inner) => {
                        nullable = true;
                        shape = self.nodes.get(inner).cloned().unwrap_or(Shape::Any);
                    }
                    _ => break,
                }
            }
            match shape {
                Shape::Null => nullable = true,
                other => shapes.push(other),
            }
        }
        let inner = self.combine(shapes, name);
        if nullable {
            let id = self.push(inner);
            Shape::Nullable(id)
        } else {
            inner
        }
    }

    /// Alternatives into one shape: a polymorphic object when every alternative is an object
    /// with the same constant member, one text choice list when every alternative is text,
    /// else a union.
    fn combine(&mut self, mut shapes: Vec<Shape>, name: &str) -> Shape {
        if shapes.len() == 1 {
            return shapes.pop().unwrap_or(Shape::Any);
        }
        if let Some(tagged) = self.tagged(&shapes, name) {
            return Shape::Tagged(tagged);
        }
        if !shapes.is_empty() && shapes.iter().all(|s| matches!(s, Shape::Text { .. })) {
            let mut all: Option<Vec<String>> = Some(Vec::new());
            for shape in &shapes {
                match (shape, all.as_mut()) {
                    (Shape::Text { choices: Some(c) }, Some(list)) => list.extend(c.clone()),
                    _ => all = None,
                }
            }
            if let Some(choices) = all {
                return Shape::Text {
                    choices: Some(choices),
                };
            }
            // Any text at all is accepted; keep the alternatives for descriptions.
        }
        let ids = shapes.into_iter().map(|s| self.push(s)).collect();
        Shape::Union(ids)
    }

    fn tagged(&self, shapes: &[Shape], _name: &str) -> Option<TaggedShape> {
        let objects: Vec<&ObjectShape> = shapes
            .iter()
            .map(|s| match s {
                Shape::Object(o) => Some(o),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let first = objects.first()?;
        // The discriminator: a member that is a single constant in every alternative.
        let tag = first
            .fields
            .iter()
            .map(|f| f.name.clone())
            .find(|candidate| {
                objects
                    .iter()
                    .all(|o| self.constant(o, candidate).is_some())
            })?;
        let variants = objects
            .iter()
            .map(|o| {
                let variant = self.constant(o, &tag).unwrap_or_default();
                let mut rest = (*o).clone();
                rest.fields.retain(|f| f.name != tag);
                rest.name = variant.clone();
                (variant, rest)
            })
            .collect();
        Some(TaggedShape { tag, variants })
    }

    fn constant(&self, object: &ObjectShape, field: &str) -> Option<String> {
        let field = object.field(field)?;
        match self.nodes.get(field.shape)? {
            Shape::Text { choices: Some(c) } if c.len() == 1 => c.first().cloned(),
            _ => None,
        }
    }
}

fn int_range(object: &Map<String, Value>) -> IntRange {
    let mut range = match object.get("format").and_then(Value::as_str) {
        Some("int8") => IntRange {
            min: i128::from(i8::MIN),
            max: i128::from(i8::MAX),
        },
        Some("int16") => IntRange {
            min: i128::from(i16::MIN),
            max: i128::from(i16::MAX),
        },
        Some("int32") => IntRange {
            min: i128::from(i32::MIN),
            max: i128::from(i32::MAX),
        },
        Some("uint8") => IntRange {
            min: 0,
            max: i128::from(u8::MAX),
        },
        Some("uint16") => IntRange {
            min: 0,
            max: i128::from(u16::MAX),
        },
        Some("uint32") => IntRange {
            min: 0,
            max: i128::from(u32::MAX),
        },
        Some("uint64") | Some("uint") => IntRange {
            min: 0,
            max: i128::from(u64::MAX),
        },
        _ => IntRange::I64,
    };
    if let Some(min) = object.get("minimum").and_then(as_i128) {
        range.min = range.min.max(min);
    }
    if let Some(max) = object.get("maximum").and_then(as_i128) {
        range.max = range.max.min(max);
    }
    range
}

fn as_i128(value: &Value) -> Option<i128> {
    value
        .as_i64()
        .map(i128::from)
        .or_else(|| value.as_u64().map(i128::from))
}
