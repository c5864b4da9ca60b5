//! The level type every format loads into, its validation and its compact serde form.
//!
//! A [`Level`] is a rectangular, normalized grid of [`Tile`]s plus the player's start cell and the
//! boxes' start cells. Both text formats ([XSB collections](parse_collection) and the seed's
//! [numeric grid](parse_numeric)) are decoded into the same raw grid and then go through one
//! validator, so a level is valid the same way whatever it came from.
//!
//! # Invariants of a `Level`
//!
//! * `tiles.len() == width * height`, with `1 <= width, height <= MAX_SIDE`.
//! * The player's region (cells connected to the player through non-wall cells, boxes ignored)
//!   is closed by walls: no region cell lies on the grid's edge or next to an [`Tile::Outside`]
//!   cell. Moves therefore never need a bounds check beyond "is it a wall".
//! * Every walkable tile is in the region, except goals holding a decorative box (a box already
//!   on its goal, sealed off behind walls); floor the player can't reach is [`Tile::Outside`].
//! * The grid is cropped to the bounding box of its walls, goals and region.
//! * `boxes` is sorted and non-empty, and there are at least as many goals as boxes.
//!
//! # Serde form
//!
//! `{"title": "...", "rows": ["#####", "#@$.#", "#####"]}`: XSB rows with trailing spaces
//! trimmed (`title` is left out when there is none). Deserializing re-validates, and
//! serialize → deserialize gives back an equal level.

mod error;
pub mod numeric;
pub mod xsb;

pub use error::{LevelError, LevelErrorKind};
pub use numeric::parse_numeric;
pub use xsb::{parse_collection, parse_hex_collection, ParsedCollection};

use crate::grid::{Cell, Tile, Topology};
use crate::solver::DeadlockCheck;
use error::{locate, Problem};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Which text format a level file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelFormat {
    /// XSB collections (see [`parse_collection`]).
    Xsb,
    /// Hexoban collections, `.hsb` (see [`parse_hex_collection`]).
    Hsb,
    /// The seed's numeric grid (see [`parse_numeric`]).
    Numeric,
}

impl LevelFormat {
    /// The format of a level file, from its text: numeric when a line that is neither a
    /// comment (`;`) nor metadata (`Key: value`) holds a comma, since no XSB row does; XSB
    /// otherwise. A mistyped numeric cell (`1,1,x`) is then reported as a cell that is not an
    /// integer instead of an XSB character.
    pub fn detect(text: &str) -> LevelFormat {
        LevelFormat::detect_file(text, "")
    }

    /// The format of a level file from its name and text: a name ending in `.hsb` is a
    /// Hexoban collection (the text can't tell hex cells from square ones); otherwise as
    /// [`LevelFormat::detect`].
    pub fn detect_file(text: &str, file: &str) -> LevelFormat {
        if file.to_ascii_lowercase().ends_with(".hsb") {
            return LevelFormat::Hsb;
        }
        let numeric = text.lines().map(str::trim).any(|line| {
            line.contains(',') && !line.starts_with(';') && xsb::metadata(line).is_none()
        });
        if numeric {
            LevelFormat::Numeric
        } else {
            LevelFormat::Xsb
        }
    }
}

/// Parses a level file in whichever format [`LevelFormat::detect_file`] finds: every level of
/// an XSB or `.hsb` collection, or the one level of a numeric grid. `file` names the text in
/// errors.
pub fn parse_level_file(text: &str, file: &str) -> ParsedCollection {
    match LevelFormat::detect_file(text, file) {
        LevelFormat::Hsb => parse_hex_collection(text, file),
        LevelFormat::Numeric => ParsedCollection {
            levels: vec![parse_numeric(text, file)],
        },
        LevelFormat::Xsb => parse_collection(text, file),
    }
}

/// The largest width and height of a level, in cells (so a cell index fits in a `u16`).
pub const MAX_SIDE: u16 = 250;

/// A validated, normalized Sokoban level. See the [module documentation](self) for its
/// invariants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    title: Option<String>,
    width: u16,
    height: u16,
    tiles: Vec<Tile>,
    player: Cell,
    boxes: Vec<Cell>,
    topology: Topology,
    /// The level's deadlock check, built on first use and shared by its copies.
    deadlocks: DeadlockCache,
}

/// A level's [`DeadlockCheck`], built the first time a position of it is checked: the game
/// checks after every move, and building the level's cell graph (dead squares, goal distances)
/// was most of that check's cost. Memoization only: not part of the level's value, so never
/// compared, serialized or hashed.
#[derive(Clone, Default)]
struct DeadlockCache(OnceLock<Arc<DeadlockCheck>>);

impl PartialEq for DeadlockCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for DeadlockCache {}

impl fmt::Debug for DeadlockCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "DeadlockCache(built)"
        } else {
            "DeadlockCache(empty)"
        })
    }
}

impl Level {
    /// The level's deadlock check (the cheap "still solvable?" test of
    /// [`solver::deadlocked`](crate::solver::deadlocked)), built on first use and kept.
    pub fn deadlock_check(&self) -> &DeadlockCheck {
        self.deadlocks
            .0
            .get_or_init(|| Arc::new(DeadlockCheck::new(self)))
    }

    /// Square (Sokoban) or hexagonal (Hexoban) cells.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// The level's name, from a `Title:` line or the comment line right before it.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Width of the grid in cells.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height of the grid in cells.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// All tiles, row-major.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile of one cell ([`Tile::Outside`] for a cell beyond the grid).
    pub fn tile(&self, cell: Cell) -> Tile {
        self.tiles
            .get(cell.index())
            .copied()
            .unwrap_or(Tile::Outside)
    }

    /// The player's start cell.
    pub fn player(&self) -> Cell {
        self.player
    }

    /// The boxes' start cells, sorted (decorative boxes included).
    pub fn boxes(&self) -> &[Cell] {
        &self.boxes
    }

    /// The goal cells, sorted.
    pub fn goals(&self) -> Vec<Cell> {
        (0..self.tiles.len())
            .filter(|&i| self.tiles[i] == Tile::Goal)
            .map(Cell::from_index)
            .collect()
    }

    /// The cell at column `x`, row `y`, if it is on the grid.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<Cell> {
        (x < self.width && y < self.height)
            .then(|| Cell::from_index(usize::from(y) * usize::from(self.width) + usize::from(x)))
    }

    /// The column and row of a cell.
    pub fn xy(&self, cell: Cell) -> (u16, u16) {
        (cell.0 % self.width, cell.0 / self.width)
    }

    /// The level in XSB, one string per row, trailing spaces trimmed (its serde form).
    pub fn to_rows(&self) -> Vec<String> {
        let width = usize::from(self.width);
        let mut has_box = vec![false; self.tiles.len()];
        for b in &self.boxes {
            has_box[b.index()] = true;
        }
        self.tiles
            .chunks(width)
            .enumerate()
            .map(|(y, row)| {
                let row: String = row
                    .iter()
                    .enumerate()
                    .map(|(x, &tile)| {
                        let i = y * width + x;
                        xsb_char(tile, has_box[i], i == self.player.index())
                    })
                    .collect();
                row.trim_end_matches(' ').to_string()
            })
            .collect()
    }

    /// Builds a level from XSB rows (as in the serde form; run-length rows are accepted too).
    /// `file` names the source in errors, whose lines are the rows' positions from 1.
    pub fn from_rows<S: AsRef<str>>(
        title: Option<String>,
        rows: &[S],
        file: &str,
    ) -> Result<Level, Vec<LevelError>> {
        Level::from_rows_in(Topology::Square, title, rows, file)
    }

    /// [`Level::from_rows`] for a board of either topology (hex rows in the `.hsb` layout).
    pub fn from_rows_in<S: AsRef<str>>(
        topology: Topology,
        title: Option<String>,
        rows: &[S],
        file: &str,
    ) -> Result<Level, Vec<LevelError>> {
        let mut block = xsb::RowBlock::with_topology(topology);
        for (i, row) in rows.iter().enumerate() {
            block.add_line(row.as_ref(), line_number(i));
        }
        block
            .into_level(title, 1)
            .map_err(|problems| locate(problems, file, 1))
    }
}

/// The XSB character of a cell.
fn xsb_char(tile: Tile, has_box: bool, has_player: bool) -> char {
    match (tile, has_box, has_player) {
        (Tile::Wall, _, _) => '#',
        (Tile::Goal, true, _) => '*',
        (Tile::Goal, false, true) => '+',
        (Tile::Goal, false, false) => '.',
        (_, true, _) => '$',
        (_, false, true) => '@',
        (Tile::Floor | Tile::Outside, false, false) => ' ',
    }
}

/// A 1-based line number for a 0-based line index, saturating for absurdly long texts.
pub(crate) fn line_number(index: usize) -> u32 {
    u32::try_from(index).map_or(u32::MAX, |i| i.saturating_add(1))
}

/// A level as decoded from text, before validation: a rectangular grid whose short rows are
/// padded with [`Tile::Outside`], with every cell's source position.
#[derive(Debug, Default)]
pub(crate) struct RawLevel {
    pub width: usize,
    pub height: usize,
    /// Wall, Floor, Goal, or Outside for padding.
    pub tiles: Vec<Tile>,
    pub boxes: Vec<bool>,
    /// Player cells in reading order.
    pub players: Vec<usize>,
    /// (line, column) of each cell in the source; (0, 0) for cells with no source.
    pub source: Vec<(u32, u32)>,
    /// The line of the level's first row (where level-wide problems are reported).
    pub first_line: u32,
    /// Which cells are neighbours.
    pub topology: Topology,
}

impl RawLevel {
    /// Validates the raw grid (adding to `problems`, which may already hold decoding problems)
    /// and normalizes it into a [`Level`].
    pub(crate) fn validate(
        self,
        title: Option<String>,
        mut problems: Vec<Problem>,
    ) -> Result<Level, Vec<Problem>> {
        let (w, h) = (self.width, self.height);
        let n = w * h;
        debug_assert_eq!(self.tiles.len(), n);
        if n == 0 {
            problems.push(Problem::new(self.first_line, 1, LevelErrorKind::EmptyLevel));
            return Err(problems);
        }
        let at = |i: usize| self.source[i];
        let level_wide = |kind| Problem::new(self.first_line, 1, kind);

        match self.players.split_first() {
            None => problems.push(level_wide(LevelErrorKind::NoPlayer)),
            Some((&first, rest)) => {
                let (first_line, first_column) = at(first);
                for &p in rest {
                    let (line, column) = at(p);
                    let kind = LevelErrorKind::SeveralPlayers {
                        first_line,
                        first_column,
                    };
                    problems.push(Problem::new(line, column, kind));
                }
            }
        }
        let boxes = count(self.boxes.iter().copied());
        let goals = count(self.tiles.iter().map(|&t| t == Tile::Goal));
        if boxes == 0 {
            problems.push(level_wide(LevelErrorKind::NoBoxes));
        } else if goals < boxes {
            problems.push(level_wide(LevelErrorKind::FewerGoalsThanBoxes {
                goals,
                boxes,
            }));
        }

        let Some(&player) = self.players.first() else {
            return Err(problems);
        };
        let region = self.region(player);
        if let Some(leak) = (0..n).find(|&i| region[i] && self.touches_outside(i)) {
            let (line, column) = at(leak);
            problems.push(Problem::new(line, column, LevelErrorKind::OpenRegion));
        }
        for i in (0..n).filter(|&i| !region[i]) {
            let on_goal = self.tiles[i] == Tile::Goal;
            let kind = match (self.boxes[i], on_goal) {
                (true, false) => LevelErrorKind::BoxOutsideRegion,
                (false, true) => LevelErrorKind::GoalOutsideRegion,
                _ => continue,
            };
            let (line, column) = at(i);
            problems.push(Problem::new(line, column, kind));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(self.normalize(title, &region, player))
    }

    /// Cells connected to `start` through walkable tiles, boxes ignored.
    fn region(&self, start: usize) -> Vec<bool> {
        let mut region = vec![false; self.tiles.len()];
        let mut stack = vec![start];
        region[start] = true;
        while let Some(i) = stack.pop() {
            for j in self.neighbours(i).flatten() {
                if !region[j] && self.tiles[j].is_walkable() {
                    region[j] = true;
                    stack.push(j);
                }
            }
        }
        region
    }

    /// The neighbours of a cell in the topology's directions, `None` beyond the grid.
    fn neighbours(&self, i: usize) -> impl Iterator<Item = Option<usize>> + '_ {
        let (x, y) = ((i % self.width) as i64, (i / self.width) as i64);
        self.topology.directions().iter().map(move |&d| {
            let (dx, dy) = self.topology.delta(d);
            let (nx, ny) = (x + i64::from(dx), y + i64::from(dy));
            let inside =
                (0..self.width as i64).contains(&nx) && (0..self.height as i64).contains(&ny);
            inside.then(|| ny as usize * self.width + nx as usize)
        })
    }

    /// Whether a cell lies on the grid's edge or next to an outside (padding) cell.
    fn touches_outside(&self, i: usize) -> bool {
        self.neighbours(i)
            .any(|n| n.is_none_or(|j| self.tiles[j] == Tile::Outside))
    }

    /// Turns unreachable floor into outside, crops to the bounding box, builds the level.
    fn normalize(self, title: Option<String>, region: &[bool], player: usize) -> Level {
        let w = self.width;
        let keep = |i: usize| {
            let tile = self.tiles[i];
            tile == Tile::Wall || region[i] || (tile == Tile::Goal && self.boxes[i])
        };
        let kept: Vec<usize> = (0..self.tiles.len()).filter(|&i| keep(i)).collect();
        // `kept` holds at least the player's cell.
        let min_x = kept.iter().map(|&i| i % w).min().unwrap_or(0);
        let max_x = kept.iter().map(|&i| i % w).max().unwrap_or(0);
        let min_y = kept.first().map_or(0, |&i| i / w);
        let max_y = kept.last().map_or(0, |&i| i / w);
        let (new_w, new_h) = (max_x - min_x + 1, max_y - min_y + 1);
        let remap = |i: usize| Cell::from_index((i / w - min_y) * new_w + (i % w - min_x));
        let mut tiles = vec![Tile::Outside; new_w * new_h];
        let mut boxes = Vec::new();
        for &i in &kept {
            tiles[remap(i).index()] = self.tiles[i];
            if self.boxes[i] {
                boxes.push(remap(i));
            }
        }
        boxes.sort_unstable();
        Level {
            title,
            // Both sides are at most MAX_SIDE: the decoders refuse larger grids.
            width: new_w as u16,
            height: new_h as u16,
            tiles,
            player: remap(player),
            boxes,
            topology: self.topology,
            deadlocks: DeadlockCache::default(),
        }
    }
}

/// Counts the `true`s, as a `u32` (grids are far smaller than `u32::MAX` cells).
fn count(flags: impl Iterator<Item = bool>) -> u32 {
    flags.fold(0, |n, f| n + u32::from(f))
}

/// The serde form of a level.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelForm {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    /// Left out for the square board, so square levels keep their form and fingerprints.
    #[serde(default, skip_serializing_if = "Topology::is_square")]
    topology: Topology,
    rows: Vec<String>,
}

impl Serialize for Level {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        LevelForm {
            title: self.title.clone(),
            topology: self.topology,
            rows: self.to_rows(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
        let form = LevelForm::deserialize(deserializer)?;
        Level::from_rows_in(form.topology, form.title, &form.rows, "rows").map_err(|errors| {
            let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
            serde::de::Error::custom(format!("invalid level: {}", messages.join("; ")))
        })
    }
}
