//! The vocabulary every other module speaks: cells of a level's grid, the four directions, tiles.

use serde::{Deserialize, Serialize};

/// A cell of a level's grid, as a row-major index (`y * width + x`).
///
/// A level has at most [`crate::MAX_SIDE`] × [`crate::MAX_SIDE`] cells, so the index always fits
/// in a `u16`. Use [`crate::Level::cell_at`] and [`crate::Level::xy`] to convert from and to
/// coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cell(pub u16);

impl Cell {
    /// The row-major index of this cell, for indexing per-cell arrays.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Builds a cell from an index the caller knows is below `u16::MAX`.
    #[inline]
    pub(crate) fn from_index(index: usize) -> Cell {
        debug_assert!(index <= usize::from(u16::MAX));
        Cell(index as u16)
    }
}

/// One of the four directions the player moves in.
///
/// The order (and the numbering `0..4`) is the seed's: up, right, down, left. Planners try
/// directions in this order, which makes their tie-breaks deterministic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Direction {
    /// Towards row 0 (`u` in LURD).
    Up = 0,
    /// Towards the last column (`r` in LURD).
    Right = 1,
    /// Towards the last row (`d` in LURD).
    Down = 2,
    /// Towards column 0 (`l` in LURD).
    Left = 3,
}

impl Direction {
    /// All four directions in the engine's fixed order: up, right, down, left.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];

    /// The direction's name as written in JSON actions: `up`, `right`, `down`, `left`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Right => "right",
            Direction::Down => "down",
            Direction::Left => "left",
        }
    }

    /// The direction's number in `0..4` (up 0, right 1, down 2, left 3).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self.index() + 2) % 4]
    }

    /// The LURD letter for a step in this direction: lower case for a walk, upper case for a push.
    #[inline]
    pub fn lurd(self, push: bool) -> char {
        char::from(self.lurd_byte(push))
    }

    /// The LURD letter as an ASCII byte.
    #[inline]
    pub(crate) fn lurd_byte(self, push: bool) -> u8 {
        let lower = [b'u', b'r', b'd', b'l'][self.index()];
        if push {
            lower.to_ascii_uppercase()
        } else {
            lower
        }
    }

    /// Reads a LURD letter: the direction and whether it is written as a push (upper case).
    pub fn from_lurd(letter: char) -> Option<(Direction, bool)> {
        let direction = match letter.to_ascii_lowercase() {
            'u' => Direction::Up,
            'r' => Direction::Right,
            'd' => Direction::Down,
            'l' => Direction::Left,
            _ => return None,
        };
        Some((direction, letter.is_ascii_uppercase()))
    }

    /// The step as `(dx, dy)` in grid coordinates (y grows downwards).
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Right => (1, 0),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
        }
    }
}

/// What a cell of a level is made of; boxes and the player stand on top of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tile {
    /// Beyond the level: padding of ragged rows, and floor the player can never reach.
    /// Nothing ever moves here.
    Outside,
    /// A wall: nothing moves here.
    Wall,
    /// Floor inside the player's region.
    Floor,
    /// A goal (storage location) for a box.
    Goal,
}

impl Tile {
    /// Whether the player or a box may stand on this tile.
    #[inline]
    pub fn is_walkable(self) -> bool {
        matches!(self, Tile::Floor | Tile::Goal)
    }
}
