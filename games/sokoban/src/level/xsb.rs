//! Reads XSB level collections: many levels per file, comments, titles, run-length rows.
//!
//! The accepted format:
//!
//! * Levels are separated by blank lines (lines of only whitespace). Lines end in LF or CRLF;
//!   trailing whitespace is ignored.
//! * A line starting with `;` is a comment. The comment line right before a level's first row
//!   (metadata lines may stand between them) names the level, with the text after `;`, trimmed:
//!   `; Microban 155 'The Dungeon'`.
//! * A `Key: value` line (key starting with a letter) is metadata; `Title: name` names the level
//!   it stands in (before or after the rows) and wins over a comment. `Comment:` alone opens a
//!   multi-line comment closed by `Comment-End:` (or `Comment_End:`). Other keys (`Author:`, ...)
//!   are tolerated and ignored.
//! * Any other line is a board row: `#` wall, ` ` `-` `_` floor, `.` goal, `@` player, `+` player
//!   on goal, `$` box, `*` box on goal. Digits repeat the character after them (`3#2 $` is
//!   `###  $`; a count with nothing after it repeats trimmed floor and adds nothing), and `|`
//!   separates rows within one line.
//! * A block with a `Title:` but no rows is an [`EmptyLevel`](LevelErrorKind::EmptyLevel); a
//!   block of only comments and metadata (a file header) is not a level.

use super::error::{locate, Problem};
use super::{line_number, LevelErrorKind, RawLevel, MAX_SIDE};
use crate::grid::{Tile, Topology};
use crate::level::{Level, LevelError};

/// Every level of an XSB file, in file order (level N of the file is `levels[N - 1]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedCollection {
    /// Each level, or every problem found in it.
    pub levels: Vec<Result<Level, Vec<LevelError>>>,
}

impl ParsedCollection {
    /// The valid levels, in file order.
    pub fn valid_levels(&self) -> impl Iterator<Item = &Level> {
        self.levels.iter().filter_map(|l| l.as_ref().ok())
    }

    /// Every problem of every level, in file order.
    pub fn errors(&self) -> impl Iterator<Item = &LevelError> {
        self.levels
            .iter()
            .filter_map(|l| l.as_ref().err())
            .flatten()
    }
}

/// Parses an XSB collection (see the [module documentation](self) for the format). `file` names
/// the text in errors. Never fails as a whole: each level is valid or carries its problems.
pub fn parse_collection(text: &str, file: &str) -> ParsedCollection {
    parse_collection_in(text, file, Topology::Square)
}

/// Parses a Hexoban collection (`.hsb`): the XSB syntax above, with hex cells stored in every
/// other entry of each level's grid (even rows use even columns, odd rows odd columns; the
/// level's first board character fixes the parity, so files counting from 0 or from 1 both
/// read). A character between cells is a [`HexOffLattice`](LevelErrorKind::HexOffLattice)
/// problem.
pub fn parse_hex_collection(text: &str, file: &str) -> ParsedCollection {
    parse_collection_in(text, file, Topology::Hex)
}

fn parse_collection_in(text: &str, file: &str, topology: Topology) -> ParsedCollection {
    let mut reader = CollectionReader {
        file,
        levels: Vec::new(),
        block: Block::with_topology(topology),
    };
    let mut in_long_comment = false;
    // The last comment line of the current block, unless a board row came after it.
    let mut previous_comment: Option<&str> = None;
    for (index, line) in text.split('\n').enumerate() {
        let line_no = line_number(index);
        let line = line.trim_end();
        let content = line.trim_start();
        if in_long_comment {
            in_long_comment = !is_comment_end(content);
            continue;
        }
        if content.is_empty() {
            reader.finish_block();
            previous_comment = None;
            continue;
        }
        reader.block.first_line.get_or_insert(line_no);
        if let Some(comment) = content.strip_prefix(';') {
            previous_comment = Some(comment.trim());
            continue;
        }
        if let Some((key, value)) = metadata(content) {
            if key.eq_ignore_ascii_case("title") {
                reader.block.title = Some(value.to_string());
            } else if key.eq_ignore_ascii_case("comment") && value.is_empty() {
                in_long_comment = true;
            }
            continue;
        }
        if reader.block.rows.is_empty() {
            reader.block.name = previous_comment.map(str::to_string);
        }
        reader.block.rows.add_line(line, line_no);
        previous_comment = None;
    }
    reader.finish_block();
    ParsedCollection {
        levels: reader.levels,
    }
}

/// Splits a metadata line `Key: value` (key: a letter, then letters, digits, ` `, `-`, `_`).
pub(crate) fn metadata(content: &str) -> Option<(&str, &str)> {
    let (key, value) = content.split_once(':')?;
    let mut chars = key.chars();
    let starts_with_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let key_chars_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    (starts_with_letter && key_chars_ok).then(|| (key.trim(), value.trim()))
}

/// Whether a line closes a multi-line `Comment:` block.
fn is_comment_end(content: &str) -> bool {
    metadata(content).is_some_and(|(key, _)| {
        key.eq_ignore_ascii_case("comment-end") || key.eq_ignore_ascii_case("comment_end")
    })
}

/// Collects the levels of one file.
struct CollectionReader<'a> {
    file: &'a str,
    levels: Vec<Result<Level, Vec<LevelError>>>,
    block: Block,
}

impl CollectionReader<'_> {
    /// Ends the current block of non-blank lines, turning it into a level if it is one.
    fn finish_block(&mut self) {
        let topology = self.block.rows.topology;
        let block = std::mem::replace(&mut self.block, Block::with_topology(topology));
        let Some(first_line) = block.first_line else {
            return;
        };
        let number = u32::try_from(self.levels.len()).map_or(u32::MAX, |n| n.saturating_add(1));
        let level = if block.rows.is_empty() {
            if block.title.is_none() {
                return; // only comments and metadata: a header or a note, not a level
            }
            Err(vec![Problem::new(
                first_line,
                1,
                LevelErrorKind::EmptyLevel,
            )])
        } else {
            block
                .rows
                .into_level(block.title.or(block.name), first_line)
        };
        self.levels
            .push(level.map_err(|problems| locate(problems, self.file, number)));
    }
}

/// The lines of one block (lines between blank lines).
#[derive(Default)]
struct Block {
    first_line: Option<u32>,
    title: Option<String>,
    /// The comment right before the first row.
    name: Option<String>,
    rows: RowBlock,
}

impl Block {
    fn with_topology(topology: Topology) -> Block {
        Block {
            rows: RowBlock::with_topology(topology),
            ..Block::default()
        }
    }
}

/// One decoded board row: each cell's character and its source column.
struct Row {
    line: u32,
    cells: Vec<(char, u32)>,
}

/// The board rows of one level, decoded from run-length and `|` notation.
#[derive(Default)]
pub(crate) struct RowBlock {
    rows: Vec<Row>,
    problems: Vec<Problem>,
    too_large: bool,
    /// Square (XSB) or hexagonal (`.hsb`) cells.
    pub(crate) topology: Topology,
}

impl RowBlock {
    /// An empty block of rows for a board of that topology.
    pub(crate) fn with_topology(topology: Topology) -> RowBlock {
        RowBlock {
            topology,
            ..RowBlock::default()
        }
    }

    fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Decodes one board line (which may hold several `|`-separated rows).
    pub(crate) fn add_line(&mut self, line: &str, line_no: u32) {
        let mut row = Row {
            line: line_no,
            cells: Vec::new(),
        };
        let mut count: u32 = 0;
        let mut counting = false;
        for (index, character) in line.chars().enumerate() {
            let column = line_number(index);
            if let Some(digit) = character.to_digit(10) {
                count = count.saturating_mul(10).saturating_add(digit);
                counting = true;
                continue;
            }
            let repeat = if std::mem::take(&mut counting) {
                std::mem::take(&mut count)
            } else {
                1
            };
            if character == '|' {
                let next = Row {
                    line: line_no,
                    cells: Vec::new(),
                };
                self.push_row(std::mem::replace(&mut row, next));
                continue;
            }
            for _ in 0..repeat {
                if row.cells.len() >= usize::from(MAX_SIDE) {
                    self.flag_too_large(line_no, column);
                    break;
                }
                row.cells.push((character, column));
            }
        }
        self.push_row(row);
    }

    fn push_row(&mut self, row: Row) {
        if self.rows.len() >= usize::from(MAX_SIDE) {
            self.flag_too_large(row.line, 1);
        } else {
            self.rows.push(row);
        }
    }

    fn flag_too_large(&mut self, line: u32, column: u32) {
        if !std::mem::replace(&mut self.too_large, true) {
            let kind = LevelErrorKind::TooLarge { max_side: MAX_SIDE };
            self.problems.push(Problem::new(line, column, kind));
        }
    }

    /// Builds the raw grid and validates it.
    pub(crate) fn into_level(
        mut self,
        title: Option<String>,
        first_line: u32,
    ) -> Result<Level, Vec<Problem>> {
        if self.too_large {
            return Err(self.problems);
        }
        let width = self.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
        let height = self.rows.len();
        let mut raw = RawLevel {
            width,
            height,
            tiles: vec![Tile::Outside; width * height],
            boxes: vec![false; width * height],
            players: Vec::new(),
            source: vec![(0, 0); width * height],
            first_line: self.rows.first().map_or(first_line, |r| r.line),
            topology: self.topology,
        };
        // On a hex board only one parity of x + y holds cells: the first board character's.
        let lattice = (self.topology == Topology::Hex)
            .then(|| {
                self.rows.iter().enumerate().find_map(|(y, row)| {
                    let x = row.cells.iter().position(|&(c, _)| c != ' ')?;
                    Some((x + y) % 2)
                })
            })
            .flatten();
        for (y, row) in self.rows.iter().enumerate() {
            for (x, &(character, column)) in row.cells.iter().enumerate() {
                let i = y * width + x;
                raw.source[i] = (row.line, column);
                if lattice.is_some_and(|parity| (x + y) % 2 != parity) {
                    if character != ' ' {
                        // Messages count from 1: an entry at 0-based (x, y) is at column
                        // x + 1 of line y + 1, which keeps the sum's parity.
                        let parity = if lattice == Some(0) { "even" } else { "odd" };
                        let kind = LevelErrorKind::HexOffLattice { parity };
                        self.problems.push(Problem::new(row.line, column, kind));
                    }
                    continue; // between cells: stays outside
                }
                let (tile, has_box, has_player) = match character {
                    '#' => (Tile::Wall, false, false),
                    ' ' | '-' | '_' => (Tile::Floor, false, false),
                    '.' => (Tile::Goal, false, false),
                    '@' => (Tile::Floor, false, true),
                    '+' => (Tile::Goal, false, true),
                    '$' => (Tile::Floor, true, false),
                    '*' => (Tile::Goal, true, false),
                    _ => {
                        let kind = LevelErrorKind::UnknownCharacter { character };
                        self.problems.push(Problem::new(row.line, column, kind));
                        (Tile::Floor, false, false)
                    }
                };
                raw.tiles[i] = tile;
                raw.boxes[i] = has_box;
                if has_player {
                    raw.players.push(i);
                }
            }
        }
        raw.validate(title, self.problems)
    }
}
