//! Where a typed row came from, so that problems found after loading — a formula that does
//! not compile, an unknown handler id — still name the file and the row and column (or JSON
//! pointer) the designer has to fix.

use std::sync::Arc;

use turnstile_core::{ContentProblem, Location};

/// The place of one row in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RowPlace {
    /// A sheet row: its line number, from 1 (the header is row 1).
    Sheet {
        /// The row (line) number.
        row: u32,
    },
    /// An element of a JSON rows array: its index, from 0.
    Json {
        /// The array index.
        index: u32,
    },
}

/// The file and place a row came from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowOrigin {
    /// The file, relative to the bundle root.
    pub file: Arc<str>,
    /// Where in it.
    pub place: RowPlace,
}

impl RowOrigin {
    /// The location of `field` of this row: a field path with dots, as the sheet's column is
    /// named (`condition.formula`). In a sheet that is the row and that column; in JSON, the
    /// pointer `/<index>/condition/formula`.
    pub fn at(&self, field: &str) -> Location {
        match self.place {
            RowPlace::Sheet { row } => Location::RowColumn {
                row,
                column: field.to_owned(),
            },
            RowPlace::Json { index } => Location::Pointer {
                pointer: json_pointer(index, field),
            },
        }
    }

    /// A problem at `field` of this row.
    pub fn problem(
        &self,
        field: &str,
        code: impl Into<String>,
        message: impl Into<String>,
    ) -> ContentProblem {
        ContentProblem::new(&*self.file, self.at(field), code, message)
    }
}

/// The JSON pointer (RFC 6901) of `field` (dotted) inside element `index`.
pub(crate) fn json_pointer(index: u32, field: &str) -> String {
    let mut pointer = format!("/{index}");
    for part in field.split('.').filter(|p| !p.is_empty()) {
        pointer.push('/');
        pointer.push_str(&escape_pointer(part));
    }
    pointer
}

/// Escapes one JSON pointer token (`~` → `~0`, `/` → `~1`).
pub(crate) fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A typed row and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<T> {
    /// The row.
    pub value: T,
    /// Its file and place.
    pub origin: RowOrigin,
}

/// The rows of one or more files, with every problem found in them.
///
/// Loading never stops at the first problem: a bad row is reported and skipped, and the
/// good rows are kept, so that a later stage (compiling formulas, checking ids) can report
/// its own problems in the same pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded<T> {
    /// The rows that loaded, in file order.
    pub rows: Vec<Located<T>>,
    /// Every problem found, in file order.
    pub problems: Vec<ContentProblem>,
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Loaded {
            rows: Vec::new(),
            problems: Vec::new(),
        }
    }
}

impl<T> Loaded<T> {
    /// The rows when there was no problem, else every problem.
    pub fn into_result(self) -> Result<Vec<Located<T>>, Vec<ContentProblem>> {
        if self.problems.is_empty() {
            Ok(self.rows)
        } else {
            Err(self.problems)
        }
    }

    /// Appends another file's rows and problems.
    pub fn extend(&mut self, other: Loaded<T>) {
        self.rows.extend(other.rows);
        self.problems.extend(other.problems);
    }

    /// Only the rows, dropping their origins (for tests and tools).
    pub fn values(&self) -> Vec<&T> {
        self.rows.iter().map(|r| &r.value).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape() {
        assert_eq!(json_pointer(3, "condition.$type"), "/3/condition/$type");
        assert_eq!(json_pointer(0, "a~b.c/d"), "/0/a~0b/c~1d");
        assert_eq!(json_pointer(1, ""), "/1");
    }
}
