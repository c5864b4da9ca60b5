//! Reads the seed's numeric level grid: comma-separated integers, one row per line.
//!
//! | value | tile |
//! |---|---|
//! | `-1` | wall |
//! | `1` | floor |
//! | `0` | goal |
//! | `2` | player |
//! | `3` | box |
//! | `-2` | player on a goal |
//! | `-3` | box on a goal |
//!
//! Whitespace around values and blank lines are ignored; lines end in LF or CRLF. The grid's
//! edge counts as wall: the level type makes that explicit by surrounding the grid with one ring
//! of walls, so the value in column `x`, row `y` (from 0) of the text is cell `(x + 1, y + 1)`
//! of the [`Level`].

use super::error::{locate, Problem};
use super::{line_number, LevelErrorKind, RawLevel, MAX_SIDE};
use crate::grid::Tile;
use crate::level::{Level, LevelError};

/// One value of the grid: what it decodes to (`None` when it is not in the table) and where.
struct Value {
    decoded: Option<(Tile, bool, bool)>,
    line: u32,
    column: u32,
}

/// Parses a numeric grid (see the [module documentation](self)). `file` names the text in
/// errors; the level number in errors is always 1. Every problem is reported.
pub fn parse_numeric(text: &str, file: &str) -> Result<Level, Vec<LevelError>> {
    read(text).map_err(|problems| locate(problems, file, 1))
}

fn read(text: &str) -> Result<Level, Vec<Problem>> {
    // Rows and columns of values; the ring of walls takes two of MAX_SIDE.
    let max_values = usize::from(MAX_SIDE) - 2;
    let mut problems = Vec::new();
    let mut rows: Vec<(u32, Vec<Value>)> = Vec::new();
    for (index, line) in text.split('\n').enumerate() {
        let line_no = line_number(index);
        if line.trim().is_empty() {
            continue;
        }
        if rows.len() >= max_values {
            let kind = LevelErrorKind::TooLarge { max_side: MAX_SIDE };
            problems.push(Problem::new(line_no, 1, kind));
            return Err(problems);
        }
        let values = read_row(line, line_no, &mut problems);
        if values.len() > max_values {
            let kind = LevelErrorKind::TooLarge { max_side: MAX_SIDE };
            problems.push(Problem::new(line_no, 1, kind));
            return Err(problems);
        }
        rows.push((line_no, values));
    }
    let Some((first_line, first_row)) = rows.first() else {
        problems.push(Problem::new(1, 1, LevelErrorKind::EmptyLevel));
        return Err(problems);
    };
    let (first_line, expected) = (*first_line, first_row.len());
    for (line, values) in &rows {
        if values.len() != expected {
            // Both counts are at most MAX_SIDE.
            let kind = LevelErrorKind::NumericRaggedRow {
                values: values.len() as u32,
                expected: expected as u32,
            };
            problems.push(Problem::new(*line, 1, kind));
        }
    }

    // Surround the grid with walls; short rows are padded with walls too.
    let width = rows.iter().map(|(_, v)| v.len()).max().unwrap_or(0) + 2;
    let height = rows.len() + 2;
    let mut raw = RawLevel {
        width,
        height,
        tiles: vec![Tile::Wall; width * height],
        boxes: vec![false; width * height],
        players: Vec::new(),
        source: vec![(0, 0); width * height],
        first_line,
        topology: crate::grid::Topology::Square,
    };
    for (y, (_, values)) in rows.iter().enumerate() {
        for (x, value) in values.iter().enumerate() {
            let i = (y + 1) * width + (x + 1);
            raw.source[i] = (value.line, value.column);
            // A bad value (already reported) counts as floor so the other checks still run.
            let (tile, has_box, has_player) = value.decoded.unwrap_or((Tile::Floor, false, false));
            raw.tiles[i] = tile;
            raw.boxes[i] = has_box;
            if has_player {
                raw.players.push(i);
            }
        }
    }
    raw.validate(None, problems)
}

/// Splits one line at commas and decodes each value, reporting bad ones.
fn read_row(line: &str, line_no: u32, problems: &mut Vec<Problem>) -> Vec<Value> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut values = Vec::new();
    let mut column: usize = 0; // 0-based char column where the current field starts
    for field in line.split(',') {
        let leading = field.chars().take_while(|c| c.is_whitespace()).count();
        let written = field.trim();
        let value_column = line_number(column + leading);
        let decoded = decode(written);
        if decoded.is_none() {
            let value: String = written.chars().take(16).collect();
            // An integer outside the table and a cell that is no integer at all are different
            // mistakes (a typo in a value, or text that is not a numeric grid).
            let kind = if written.parse::<i64>().is_ok() {
                LevelErrorKind::NumericBadValue { value }
            } else {
                LevelErrorKind::NumericNotInteger { value }
            };
            problems.push(Problem::new(line_no, value_column, kind));
        }
        values.push(Value {
            decoded,
            line: line_no,
            column: value_column,
        });
        column += field.chars().count() + 1;
        if values.len() > usize::from(MAX_SIDE) {
            break; // the caller reports the row as too large
        }
    }
    values
}

/// Decodes one value of the table: (tile, box, player).
fn decode(written: &str) -> Option<(Tile, bool, bool)> {
    let value: i8 = written.parse().ok()?;
    Some(match value {
        -1 => (Tile::Wall, false, false),
        1 => (Tile::Floor, false, false),
        0 => (Tile::Goal, false, false),
        2 => (Tile::Floor, false, true),
        3 => (Tile::Floor, true, false),
        -2 => (Tile::Goal, false, true),
        -3 => (Tile::Goal, true, false),
        _ => return None,
    })
}
