//! Reading a sheet into typed rows: the header checked against the row type's shape, then
//! each row built into a JSON object tree — `condition.$type` and `condition.formula` become
//! `{"condition": {"$type": ..., "formula": ...}}` — with every cell typed by its target,
//! then handed to serde. Every problem of every row is reported, each at its row and column.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use turnstile_core::{ContentProblem, Location};

use crate::cells::type_cell;
use crate::error::{Names, SheetError};
use crate::located::{Loaded, Located, RowOrigin, RowPlace};
use crate::shape::{ObjectShape, Shape, ShapeId, Shapes, ANY};
use crate::tsv::{split_sheet, RawRow};

/// A column or a group of columns at one level of the column tree.
#[derive(Debug, Clone)]
enum Node {
    /// One column, by its index in the header.
    Leaf(usize),
    /// Columns `name.part...`, by part.
    Group(Vec<(String, Node)>),
}

impl Node {
    fn leaves(&self, out: &mut Vec<usize>) {
        match self {
            Node::Leaf(i) => out.push(*i),
            Node::Group(children) => children.iter().for_each(|(_, c)| c.leaves(out)),
        }
    }

    fn child(&self, name: &str) -> Option<&Node> {
        match self {
            Node::Group(children) => children.iter().find(|(n, _)| n == name).map(|(_, c)| c),
            Node::Leaf(_) => None,
        }
    }
}

/// The checked header: the column names and the tree of the columns kept.
struct Columns {
    names: Vec<String>,
    tree: Node,
    /// Columns reported missing by the header check: rows do not repeat it.
    missing: BTreeSet<String>,
}

/// Whether `name` is a column path: parts joined by dots, each an optional `$` and then
/// ASCII letters, digits and `_`.
fn valid_column_name(name: &str) -> bool {
    name.split('.').all(|part| {
        let body = part.strip_prefix('$').unwrap_or(part);
        !body.is_empty() && body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

fn join(path: &str, part: &str) -> String {
    if path.is_empty() {
        part.to_owned()
    } else {
        format!("{path}.{part}")
    }
}

/// The result of building one value of a row.
enum Built {
    /// Every cell of it is empty.
    Absent,
    /// A value.
    Value(Value),
    /// A problem was reported inside it.
    Failed,
}

/// Loads a sheet. See [`crate::RowLoader::sheet`].
pub(crate) fn load<T: DeserializeOwned>(shapes: &Shapes, file: &str, text: &str) -> Loaded<T> {
    let mut reader = Reader {
        shapes,
        file,
        problems: Vec::new(),
    };
    let raw = match split_sheet(text) {
        Ok(raw) => raw,
        Err(e) => {
            return Loaded {
                rows: Vec::new(),
                problems: vec![e.at(file, Location::File)],
            }
        }
    };
    let columns = reader.header(&raw.header, raw.header_row);
    let file_name: Arc<str> = Arc::from(file);
    let mut rows = Vec::new();
    for row in &raw.rows {
        if row.cells.len() != columns.names.len() {
            let column = if row.cells.len() < columns.names.len() {
                columns
                    .names
                    .get(row.cells.len())
                    .cloned()
                    .unwrap_or_default()
            } else {
                format!("#{}", columns.names.len() + 1)
            };
            reader.report(
                row.row,
                &column,
                SheetError::WrongCellCount {
                    found: u32::try_from(row.cells.len()).unwrap_or(u32::MAX),
                    expected: u32::try_from(columns.names.len()).unwrap_or(u32::MAX),
                },
            );
            continue;
        }
        let before = reader.problems.len();
        let value = reader.root(&columns, row);
        if reader.problems.len() != before {
            continue;
        }
        let Some(value) = value else { continue };
        match serde_path_to_error::deserialize::<_, T>(value) {
            Ok(typed) => rows.push(Located {
                value: typed,
                origin: RowOrigin {
                    file: file_name.clone(),
                    place: RowPlace::Sheet { row: row.row },
                },
            }),
            Err(e) => {
                let column = column_of_path(&columns, &field_path(e.path()));
                reader.report(
                    row.row,
                    &column,
                    SheetError::InvalidValue {
                        message: e.inner().to_string(),
                    },
                );
            }
        }
    }
    Loaded {
        rows,
        problems: reader.problems,
    }
}

/// The dotted field path of a serde error path (map keys only).
pub(crate) fn field_path(path: &serde_path_to_error::Path) -> String {
    let mut parts = Vec::new();
    for segment in path.iter() {
        match segment {
            serde_path_to_error::Segment::Map { key } => parts.push(key.clone()),
            serde_path_to_error::Segment::Seq { index } => parts.push(index.to_string()),
            serde_path_to_error::Segment::Enum { .. } | serde_path_to_error::Segment::Unknown => {}
        }
    }
    parts.join(".")
}

/// The column that best shows a field path: the column itself, else the group's `$type`
/// column, else its first column, else the nearest enclosing one.
fn column_of_path(columns: &Columns, path: &str) -> String {
    let mut path = path.to_owned();
    loop {
        if columns.names.contains(&path) {
            return path;
        }
        let prefix = format!("{path}.");
        if let Some(tag) = columns
            .names
            .iter()
            .find(|n| n.starts_with(&prefix) && n[prefix.len()..].starts_with('$'))
        {
            return tag.clone();
        }
        if let Some(first) = columns.names.iter().find(|n| n.starts_with(&prefix)) {
            return first.clone();
        }
        match path.rfind('.') {
            Some(dot) => path.truncate(dot),
            None => return columns.names.first().cloned().unwrap_or_default(),
        }
    }
}

struct Reader<'a> {
    shapes: &'a Shapes,
    file: &'a str,
    problems: Vec<ContentProblem>,
}

impl Reader<'_> {
    fn report(&mut self, row: u32, column: &str, error: SheetError) {
        self.problems.push(error.at(
            self.file,
            Location::RowColumn {
                row,
                column: column.to_owned(),
            },
        ));
    }

    // ----- the header -----

    fn header(&mut self, header: &[&str], header_row: u32) -> Columns {
        let names: Vec<String> = header.iter().map(|s| (*s).to_owned()).collect();
        let mut tree = Node::Group(Vec::new());
        for (index, name) in names.iter().enumerate() {
            let position = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if name.is_empty() {
                let column = format!("#{position}");
                self.report(
                    header_row,
                    &column,
                    SheetError::EmptyColumnName { index: position },
                );
                continue;
            }
            if !valid_column_name(name) {
                self.report(
                    header_row,
                    name,
                    SheetError::BadColumnName { name: name.clone() },
                );
                continue;
            }
            if let Some(first) = names[..index].iter().position(|n| n == name) {
                self.report(
                    header_row,
                    name,
                    SheetError::DuplicateColumn {
                        name: name.clone(),
                        first: u32::try_from(first + 1).unwrap_or(u32::MAX),
                    },
                );
                continue;
            }
            if let Err(other) = insert(&mut tree, name, index, &names) {
                self.report(
                    header_row,
                    name,
                    SheetError::ColumnConflict {
                        name: name.clone(),
                        other,
                    },
                );
            }
        }
        let mut missing = BTreeSet::new();
        let tree = self
            .check(self.shapes.root, tree, "", header_row, &names, &mut missing)
            .unwrap_or(Node::Group(Vec::new()));
        Columns {
            names,
            tree,
            missing,
        }
    }

    fn unknown(&mut self, node: &Node, names: &[String], header_row: u32, hint: &str) {
        let mut leaves = Vec::new();
        node.leaves(&mut leaves);
        for leaf in leaves {
            let name = names.get(leaf).cloned().unwrap_or_default();
            self.report(
                header_row,
                &name,
                SheetError::UnknownColumn {
                    name: name.clone(),
                    target: format!("`{}`", self.shapes.name),
                    hint: hint.to_owned(),
                },
            );
        }
    }

    /// Checks `node` (columns at `path`) against `shape`; returns what is kept.
    fn check(
        &mut self,
        shape: ShapeId,
        node: Node,
        path: &str,
        header_row: u32,
        names: &[String],
        missing: &mut BTreeSet<String>,
    ) -> Option<Node> {
        let shapes = self.shapes;
        match node {
            Node::Leaf(index) => {
                if shapes.takes_cell(shape) {
                    Some(Node::Leaf(index))
                } else {
                    let hint = format!(
                        "; `{path}` is {} and takes several columns, such as {}",
                        shapes.describe(shape),
                        Names(self.parts(shape, path))
                    );
                    self.unknown(&Node::Leaf(index), names, header_row, &hint);
                    None
                }
            }
            Node::Group(children) => {
                let Some(object) = shapes.object_like(shape) else {
                    let hint = format!("; `{path}` is {}, written in one column", {
                        shapes.describe(shape)
                    });
                    self.unknown(&Node::Group(children), names, header_row, &hint);
                    return None;
                };
                let mut kept = Vec::new();
                match shapes.get(object).clone() {
                    Shape::Map(inner) => {
                        for (name, child) in children {
                            let child_path = join(path, &name);
                            if let Some(c) =
                                self.check(inner, child, &child_path, header_row, names, missing)
                            {
                                kept.push((name, c));
                            }
                        }
                    }
                    Shape::Object(o) => {
                        for (name, child) in children {
                            let child_path = join(path, &name);
                            match o.field(&name) {
                                Some(field) => {
                                    if let Some(c) = self.check(
                                        field.shape,
                                        child,
                                        &child_path,
                                        header_row,
                                        names,
                                        missing,
                                    ) {
                                        kept.push((name, c));
                                    }
                                }
                                None => {
                                    let hint = hint_fields(path, &o.field_names());
                                    self.unknown(&child, names, header_row, &hint);
                                }
                            }
                        }
                        for field in o.fields.iter().filter(|f| f.required) {
                            if !kept.iter().any(|(n, _)| *n == field.name) {
                                let column = self.column_for(field.shape, &join(path, &field.name));
                                self.report(
                                    header_row,
                                    &column,
                                    SheetError::MissingColumn {
                                        name: column.clone(),
                                        target: format!("every row of `{}`", shapes.name),
                                        hint: String::new(),
                                    },
                                );
                                missing.insert(column);
                            }
                        }
                    }
                    Shape::Tagged(t) => {
                        for (name, child) in children {
                            let child_path = join(path, &name);
                            if name == t.tag {
                                if matches!(child, Node::Leaf(_)) {
                                    kept.push((name, child));
                                } else {
                                    self.unknown(&child, names, header_row, "");
                                }
                                continue;
                            }
                            match t.any_field(&name) {
                                Some(field) => {
                                    if let Some(c) = self.check(
                                        field.shape,
                                        child,
                                        &child_path,
                                        header_row,
                                        names,
                                        missing,
                                    ) {
                                        kept.push((name, c));
                                    }
                                }
                                None => {
                                    let mut all = vec![t.tag.clone()];
                                    for (_, variant) in &t.variants {
                                        for f in &variant.fields {
                                            if !all.contains(&f.name) {
                                                all.push(f.name.clone());
                                            }
                                        }
                                    }
                                    let hint = hint_fields(path, &all);
                                    self.unknown(&child, names, header_row, &hint);
                                }
                            }
                        }
                        if !kept.iter().any(|(n, _)| *n == t.tag) {
                            let column = join(path, &t.tag);
                            self.report(
                                header_row,
                                &column,
                                SheetError::MissingColumn {
                                    name: column.clone(),
                                    target: format!("`{path}`"),
                                    hint: format!(
                                        "; it names the kind of `{path}`: one of {}",
                                        Names(t.variant_names())
                                    ),
                                },
                            );
                            missing.insert(column);
                        }
                    }
                    _ => kept = children,
                }
                Some(Node::Group(kept))
            }
        }
    }

    /// Example column names for an object-like shape at `path` (for hints).
    fn parts(&self, shape: ShapeId, path: &str) -> Vec<String> {
        let shapes = self.shapes;
        match shapes.object_like(shape).map(|id| shapes.get(id)) {
            Some(Shape::Tagged(t)) => {
                let mut all = vec![join(path, &t.tag)];
                for (_, variant) in t.variants.iter().take(2) {
                    for f in variant.fields.iter().take(2) {
                        let name = join(path, &f.name);
                        if !all.contains(&name) {
                            all.push(name);
                        }
                    }
                }
                all
            }
            Some(Shape::Object(o)) => o
                .fields
                .iter()
                .take(3)
                .map(|f| join(path, &f.name))
                .collect(),
            _ => vec![join(path, "...")],
        }
    }

    /// The column a designer fills for a value of `shape` at `path`: the path itself, or its
    /// `$type` column when the value is polymorphic.
    fn column_for(&self, shape: ShapeId, path: &str) -> String {
        match self.shapes.object_like(shape).map(|id| self.shapes.get(id)) {
            Some(Shape::Tagged(t)) => join(path, &t.tag),
            _ => path.to_owned(),
        }
    }

    // ----- the rows -----

    fn root(&mut self, columns: &Columns, row: &RawRow<'_>) -> Option<Value> {
        let shapes = self.shapes;
        let Node::Group(children) = &columns.tree else {
            return None;
        };
        let root = shapes.object_like(shapes.root)?;
        match shapes.get(root).clone() {
            Shape::Object(o) => {
                let (map, reported) = self.fields(&o, children, "", columns, row);
                let missing = self.require(&o, children, &map, &reported, "", columns, row);
                (!missing && reported.is_empty()).then_some(Value::Object(map))
            }
            _ => match self.build(root, &columns.tree, "", columns, row) {
                Built::Value(v) => Some(v),
                Built::Absent => Some(Value::Object(Map::new())),
                Built::Failed => None,
            },
        }
    }

    fn build(
        &mut self,
        shape: ShapeId,
        node: &Node,
        path: &str,
        columns: &Columns,
        row: &RawRow<'_>,
    ) -> Built {
        let shapes = self.shapes;
        match node {
            Node::Leaf(index) => {
                let cell = row.cells.get(*index).copied().unwrap_or("");
                if cell.is_empty() {
                    return Built::Absent;
                }
                match type_cell(shapes, shape, cell) {
                    Ok(value) => Built::Value(value),
                    Err(e) => {
                        self.report(row.row, path, e);
                        Built::Failed
                    }
                }
            }
            Node::Group(children) => {
                let Some(object) = shapes.object_like(shape) else {
                    return Built::Failed;
                };
                match shapes.get(object).clone() {
                    Shape::Object(o) => {
                        let (map, reported) = self.fields(&o, children, path, columns, row);
                        if map.is_empty() && reported.is_empty() {
                            return Built::Absent;
                        }
                        let missing =
                            self.require(&o, children, &map, &reported, path, columns, row);
                        if missing || !reported.is_empty() {
                            Built::Failed
                        } else {
                            Built::Value(Value::Object(map))
                        }
                    }
                    Shape::Tagged(t) => {
                        let tag_path = join(path, &t.tag);
                        let tag_cell = node
                            .child(&t.tag)
                            .and_then(|n| match n {
                                Node::Leaf(i) => row.cells.get(*i).copied(),
                                Node::Group(_) => None,
                            })
                            .unwrap_or("");
                        let others: Vec<(String, Node)> = children
                            .iter()
                            .filter(|(n, _)| *n != t.tag)
                            .cloned()
                            .collect();
                        let filled = Node::Group(others.clone());
                        let mut leaves = Vec::new();
                        filled.leaves(&mut leaves);
                        let any_filled = leaves
                            .iter()
                            .any(|i| row.cells.get(*i).is_some_and(|c| !c.is_empty()));
                        if tag_cell.is_empty() {
                            if !any_filled {
                                return Built::Absent;
                            }
                            if node.child(&t.tag).is_some() {
                                self.report(
                                    row.row,
                                    &tag_path,
                                    SheetError::EmptyCell {
                                        column: tag_path.clone(),
                                        needed: format!(
                                            "the row fills parameters of `{path}`, so it needs its kind: one of {}",
                                            Names(t.variant_names())
                                        ),
                                    },
                                );
                            }
                            return Built::Failed;
                        }
                        let Some(variant) = t.variant(tag_cell) else {
                            self.report(
                                row.row,
                                &tag_path,
                                SheetError::UnknownType {
                                    value: tag_cell.to_owned(),
                                    field: format!("`{path}`"),
                                    allowed: Names(t.variant_names()),
                                },
                            );
                            return Built::Failed;
                        };
                        let mut failed = false;
                        let mut known = Vec::new();
                        for (name, child) in others {
                            if variant.field(&name).is_some() {
                                known.push((name, child));
                                continue;
                            }
                            let mut leaves = Vec::new();
                            child.leaves(&mut leaves);
                            for leaf in leaves {
                                if row.cells.get(leaf).is_some_and(|c| !c.is_empty()) {
                                    let column =
                                        columns.names.get(leaf).cloned().unwrap_or_default();
                                    self.report(
                                        row.row,
                                        &column,
                                        SheetError::UnexpectedCell {
                                            column: column.clone(),
                                            variant: tag_cell.to_owned(),
                                            allowed: takes(path, variant),
                                        },
                                    );
                                    failed = true;
                                }
                            }
                        }
                        let (mut map, reported) = self.fields(variant, &known, path, columns, row);
                        let missing =
                            self.require(variant, &known, &map, &reported, path, columns, row);
                        if failed || !reported.is_empty() || missing {
                            return Built::Failed;
                        }
                        map.insert(t.tag.clone(), Value::String(tag_cell.to_owned()));
                        Built::Value(Value::Object(map))
                    }
                    Shape::Map(inner) => self.loose(Some(inner), children, path, columns, row),
                    _ => self.loose(None, children, path, columns, row),
                }
            }
        }
    }

    /// A group whose keys are free: every child becomes a member (typed by `inner`, or by
    /// inference).
    fn loose(
        &mut self,
        inner: Option<ShapeId>,
        children: &[(String, Node)],
        path: &str,
        columns: &Columns,
        row: &RawRow<'_>,
    ) -> Built {
        let mut map = Map::new();
        let mut failed = false;
        for (name, child) in children {
            let shape = inner.unwrap_or(ANY);
            match self.build(shape, child, &join(path, name), columns, row) {
                Built::Value(v) => {
                    map.insert(name.clone(), v);
                }
                Built::Absent => {}
                Built::Failed => failed = true,
            }
        }
        if failed {
            Built::Failed
        } else if map.is_empty() {
            Built::Absent
        } else {
            Built::Value(Value::Object(map))
        }
    }

    /// Builds the fields of `object` present among `children`: the members built, and the
    /// names of those whose problem was already reported.
    fn fields(
        &mut self,
        object: &ObjectShape,
        children: &[(String, Node)],
        path: &str,
        columns: &Columns,
        row: &RawRow<'_>,
    ) -> (Map<String, Value>, BTreeSet<String>) {
        let mut map = Map::new();
        let mut failed = BTreeSet::new();
        for (name, child) in children {
            let Some(field) = object.field(name) else {
                continue;
            };
            match self.build(field.shape, child, &join(path, name), columns, row) {
                Built::Value(v) => {
                    map.insert(name.clone(), v);
                }
                Built::Absent => {}
                Built::Failed => {
                    failed.insert(name.clone());
                }
            }
        }
        (map, failed)
    }

    /// Reports each required field of `object` absent from `map` (unless its problem was
    /// reported already, in a cell or on the header); true if any was absent.
    #[allow(clippy::too_many_arguments)]
    fn require(
        &mut self,
        object: &ObjectShape,
        children: &[(String, Node)],
        map: &Map<String, Value>,
        reported: &BTreeSet<String>,
        path: &str,
        columns: &Columns,
        row: &RawRow<'_>,
    ) -> bool {
        let mut failed = false;
        for field in object.fields.iter().filter(|f| f.required) {
            if map.contains_key(&field.name) {
                continue;
            }
            failed = true;
            let field_path = join(path, &field.name);
            let column = self.column_for(field.shape, &field_path);
            let has_column = children.iter().any(|(n, _)| *n == field.name);
            if reported.contains(&field.name) || columns.missing.contains(&column) {
                continue;
            }
            // A group with a cell that failed was reported where it failed.
            let child = children.iter().find(|(n, _)| *n == field.name);
            let error = if has_column {
                let needed = format!(
                    "`{}` needs `{}`: {}",
                    object_title(path, object, self.shapes),
                    field_path,
                    self.shapes.describe(field.shape)
                );
                let column = match child {
                    Some((_, Node::Group(_))) => {
                        // The group's `$type` column, or its first column.
                        let prefix = format!("{field_path}.");
                        columns
                            .names
                            .iter()
                            .find(|n| *n == &column)
                            .or_else(|| columns.names.iter().find(|n| n.starts_with(&prefix)))
                            .cloned()
                            .unwrap_or(column.clone())
                    }
                    _ => column.clone(),
                };
                SheetError::EmptyCell { column, needed }
            } else {
                SheetError::MissingColumn {
                    name: column.clone(),
                    target: format!("`{}`", object_title(path, object, self.shapes)),
                    hint: String::new(),
                }
            };
            let at = match &error {
                SheetError::EmptyCell { column, .. } => column.clone(),
                _ => column,
            };
            self.report(row.row, &at, error);
        }
        failed
    }
}

/// How a message names the object at `path`: the row type at the root, else the variant or
/// type name.
fn object_title(path: &str, object: &ObjectShape, shapes: &Shapes) -> String {
    if path.is_empty() {
        shapes.name.clone()
    } else {
        object.name.clone()
    }
}

/// The parameters a variant takes, for messages.
fn takes(path: &str, variant: &ObjectShape) -> String {
    if variant.fields.is_empty() {
        "no parameters".into()
    } else {
        Names(variant.fields.iter().map(|f| join(path, &f.name)).collect()).to_string()
    }
}

fn hint_fields(path: &str, fields: &[String]) -> String {
    let names: Vec<String> = fields.iter().map(|f| join(path, f)).collect();
    if path.is_empty() {
        format!("; its columns are {}", Names(names))
    } else {
        format!("; `{path}` takes {}", Names(names))
    }
}

/// Inserts column `index` named `name` into the tree; on a clash, the other column's name.
fn insert(tree: &mut Node, name: &str, index: usize, names: &[String]) -> Result<(), String> {
    let parts: Vec<&str> = name.split('.').collect();
    let mut node = tree;
    for (depth, part) in parts.iter().enumerate() {
        let last = depth + 1 == parts.len();
        let Node::Group(children) = node else {
            return Err(leaf_name(node, names));
        };
        let position = children.iter().position(|(n, _)| n == part);
        match (position, last) {
            (Some(i), true) => {
                let existing = &children[i].1;
                let mut leaves = Vec::new();
                existing.leaves(&mut leaves);
                return Err(leaves
                    .first()
                    .and_then(|l| names.get(*l))
                    .cloned()
                    .unwrap_or_default());
            }
            (Some(i), false) => {
                node = &mut children[i].1;
                if let Node::Leaf(_) = node {
                    return Err(leaf_name(node, names));
                }
            }
            (None, true) => {
                children.push(((*part).to_owned(), Node::Leaf(index)));
                return Ok(());
            }
            (None, false) => {
                children.push(((*part).to_owned(), Node::Group(Vec::new())));
                let last_index = children.len() - 1;
                node = &mut children[last_index].1;
            }
        }
    }
    Ok(())
}

fn leaf_name(node: &Node, names: &[String]) -> String {
    match node {
        Node::Leaf(i) => names.get(*i).cloned().unwrap_or_default(),
        Node::Group(_) => String::new(),
    }
}
