//! The untyped layer of a sheet: text split into a header and rows of trimmed cells, with
//! blank and comment lines dropped and every row keeping its line number.
//!
//! The dialect is deliberately small, so that what a spreadsheet exports and what a person
//! types in an editor read the same:
//!
//! - lines end in `\n` (a `\r` before it is dropped); a UTF-8 byte-order mark at the very
//!   start is dropped;
//! - cells are separated by tabs; there is no quoting and no escaping (a cell can hold
//!   neither a tab nor a line break, and a `"` is an ordinary character);
//! - leading and trailing whitespace of a cell is not part of it;
//! - a line whose first character is `#` is a comment; a line whose cells are all empty is
//!   blank; both are skipped wherever they are;
//! - the first line that is neither is the header; every later one is a row;
//! - rows are numbered by their line in the file, from 1, so the number in a problem is the
//!   line an editor and the row a spreadsheet show (the header is row 1 when, as in every
//!   sheet we ship, the file starts with it).

use crate::error::SheetError;

/// A sheet split into cells, before any typing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSheet<'t> {
    /// The header's line number, from 1.
    pub header_row: u32,
    /// The header cells, trimmed.
    pub header: Vec<&'t str>,
    /// The rows, in file order.
    pub rows: Vec<RawRow<'t>>,
}

/// One row of a sheet, before any typing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRow<'t> {
    /// Its line number, from 1.
    pub row: u32,
    /// Its cells, trimmed, as many as the line has (not necessarily as many as the header).
    pub cells: Vec<&'t str>,
}

/// Splits `text` into its header and rows. [`SheetError::NoHeader`] when there is no line
/// that is neither blank nor a comment.
pub fn split_sheet(text: &str) -> Result<RawSheet<'_>, SheetError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut header: Option<(u32, Vec<&str>)> = None;
    let mut rows = Vec::new();
    for (index, line) in text.split('\n').enumerate() {
        let row = u32::try_from(index).map_or(u32::MAX, |i| i.saturating_add(1));
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        if cells.iter().all(|c| c.is_empty()) {
            continue;
        }
        if header.is_none() {
            header = Some((row, cells));
        } else {
            rows.push(RawRow { row, cells });
        }
    }
    let (header_row, header) = header.ok_or(SheetError::NoHeader)?;
    Ok(RawSheet {
        header_row,
        header,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_and_comment_lines_keep_row_numbers() {
        let sheet = split_sheet("a\tb\r\n# note\n\n\t \n 1 \t2\n").unwrap();
        assert_eq!(sheet.header_row, 1);
        assert_eq!(sheet.header, ["a", "b"]);
        assert_eq!(sheet.rows.len(), 1);
        assert_eq!(sheet.rows[0].row, 5);
        assert_eq!(sheet.rows[0].cells, ["1", "2"]);
    }

    #[test]
    fn no_header() {
        assert_eq!(split_sheet("# only\n\n"), Err(SheetError::NoHeader));
        assert_eq!(split_sheet(""), Err(SheetError::NoHeader));
    }

    #[test]
    fn byte_order_mark_is_dropped() {
        let sheet = split_sheet("\u{feff}a\n1").unwrap();
        assert_eq!(sheet.header, ["a"]);
    }
}
