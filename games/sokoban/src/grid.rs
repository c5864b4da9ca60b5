//! The vocabulary every other module speaks: cells of a level's grid, directions, the board's
//! topology (square or hexagonal), tiles.

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

/// A direction the player moves in.
///
/// The first four are the square board's, in the seed's order (and numbering `0..4`): up,
/// right, down, left. A hexagonal board ([`Topology::Hex`]) moves west ([`Direction::Left`]),
/// east ([`Direction::Right`]) and along the four diagonals. Planners try a board's directions
/// in [`Topology::directions`] order, which makes their tie-breaks deterministic.
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
    /// Hexoban's north-west (`u` in a Hexoban solution).
    UpLeft = 4,
    /// Hexoban's north-east (`n` in a Hexoban solution).
    UpRight = 5,
    /// Hexoban's south-west (`s` in a Hexoban solution).
    DownLeft = 6,
    /// Hexoban's south-east (`d` in a Hexoban solution).
    DownRight = 7,
}

impl Direction {
    /// All four directions in the engine's fixed order: up, right, down, left.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];

    /// Hexoban's six directions, in the order its planners try them: west, north-west,
    /// north-east, east, south-east, south-west (clockwise from west).
    pub const HEX: [Direction; 6] = [
        Direction::Left,
        Direction::UpLeft,
        Direction::UpRight,
        Direction::Right,
        Direction::DownRight,
        Direction::DownLeft,
    ];

    /// The direction's name as written in JSON actions: `up`, `right`, `down`, `left`, and for
    /// Hexoban `up_left`, `up_right`, `down_left`, `down_right`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Right => "right",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::UpLeft => "up_left",
            Direction::UpRight => "up_right",
            Direction::DownLeft => "down_left",
            Direction::DownRight => "down_right",
        }
    }

    /// The direction's number in `0..8` (up 0, right 1, down 2, left 3, then the diagonals).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Right => Direction::Left,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
        }
    }

    /// The solution letter for a step in this direction: lower case for a walk, upper case for
    /// a push. The square board's are LURD's; Hexoban's diagonals are `u` (north-west), `n`
    /// (north-east), `s` (south-west) and `d` (south-east), so `u` and `d` mean different
    /// moves on the two topologies: a board's letters are read with
    /// [`Topology::read_letter`].
    #[inline]
    pub fn lurd(self, push: bool) -> char {
        char::from(self.lurd_byte(push))
    }

    /// The solution letter as an ASCII byte.
    #[inline]
    pub(crate) fn lurd_byte(self, push: bool) -> u8 {
        let lower = [b'u', b'r', b'd', b'l', b'u', b'n', b's', b'd'][self.index()];
        if push {
            lower.to_ascii_uppercase()
        } else {
            lower
        }
    }

    /// Reads a LURD letter of the square board: the direction and whether it is written as a
    /// push (upper case).
    pub fn from_lurd(letter: char) -> Option<(Direction, bool)> {
        Topology::Square.read_letter(letter)
    }

    /// The square board's step as `(dx, dy)` in grid coordinates (y grows downwards); see
    /// [`Topology::delta`] for a board's own.
    pub fn delta(self) -> (i32, i32) {
        Topology::Square.delta(self)
    }
}

/// The shape of a board's cells: square (Sokoban) or hexagonal (Hexoban).
///
/// Both store cells in one row-major grid. A hexagonal level keeps the `.hsb` layout: hex cells
/// use every other entry of the grid (cells whose `x + y` has one parity), so west and east are
/// two columns away and the four diagonals one row and one column away. The entries between
/// hex cells are [`Tile::Outside`]. Content chooses the topology (an `.hsb` file, or a level
/// form with `"topology": "hex"`); the rules are the same code for both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topology {
    /// Square cells, four directions.
    #[default]
    Square,
    /// Hexagonal cells in the `.hsb` layout, six directions.
    Hex,
}

impl Topology {
    /// The directions a player moves in on this board, in the order planners try them.
    pub fn directions(self) -> &'static [Direction] {
        match self {
            Topology::Square => &Direction::ALL,
            Topology::Hex => &Direction::HEX,
        }
    }

    /// Whether this board has the direction.
    pub fn has(self, direction: Direction) -> bool {
        match self {
            Topology::Square => direction.index() < 4,
            Topology::Hex => !matches!(direction, Direction::Up | Direction::Down),
        }
    }

    /// A step in a direction as `(dx, dy)` in grid coordinates (y grows downwards). On a hex
    /// board west and east are two columns away; `Up` and `Down`, which it lacks, map to
    /// `(0, 0)`, never used.
    pub fn delta(self, direction: Direction) -> (i32, i32) {
        match (self, direction) {
            (Topology::Square, Direction::Up) => (0, -1),
            (Topology::Square, Direction::Right) => (1, 0),
            (Topology::Square, Direction::Down) => (0, 1),
            (Topology::Square, Direction::Left) => (-1, 0),
            (Topology::Hex, Direction::Right) => (2, 0),
            (Topology::Hex, Direction::Left) => (-2, 0),
            (_, Direction::UpLeft) => (-1, -1),
            (_, Direction::UpRight) => (1, -1),
            (_, Direction::DownLeft) => (-1, 1),
            (_, Direction::DownRight) => (1, 1),
            (Topology::Hex, Direction::Up | Direction::Down) => (0, 0),
        }
    }

    /// Reads a solution letter of this board: LURD on the square board, `l r u n s d` on the
    /// hex board; upper case for a push.
    pub fn read_letter(self, letter: char) -> Option<(Direction, bool)> {
        let direction = match (self, letter.to_ascii_lowercase()) {
            (_, 'l') => Direction::Left,
            (_, 'r') => Direction::Right,
            (Topology::Square, 'u') => Direction::Up,
            (Topology::Square, 'd') => Direction::Down,
            (Topology::Hex, 'u') => Direction::UpLeft,
            (Topology::Hex, 'n') => Direction::UpRight,
            (Topology::Hex, 's') => Direction::DownLeft,
            (Topology::Hex, 'd') => Direction::DownRight,
            _ => return None,
        };
        Some((direction, letter.is_ascii_uppercase()))
    }

    /// The letters this board's solutions are written in, for messages.
    pub fn letters(self) -> &'static str {
        match self {
            Topology::Square => "l u r d",
            Topology::Hex => "l r u n s d",
        }
    }

    /// Whether this is the square board (serde leaves the default out, so square levels,
    /// views and states keep their form and fingerprints).
    pub fn is_square(&self) -> bool {
        *self == Topology::Square
    }

    /// The name written in level forms and views: `square` or `hex`.
    pub fn name(self) -> &'static str {
        match self {
            Topology::Square => "square",
            Topology::Hex => "hex",
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
