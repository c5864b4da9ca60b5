//! Why a level text was rejected, with the file, level, line and column it came from.

use thiserror::Error;

/// One problem of one level, located in its source text.
///
/// Displayed as `file:line:col: level N: message`. Lines and columns count from 1; columns count
/// characters, not bytes. Problems that concern a whole level (no player, no boxes, too few goals)
/// point at the level's first row, column 1.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}:{line}:{column}: level {level}: {kind}")]
pub struct LevelError {
    /// The file name the parser was given.
    pub file: String,
    /// The level's position in its file, from 1 (always 1 for the numeric format).
    pub level: u32,
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, in characters.
    pub column: u32,
    /// What is wrong.
    pub kind: LevelErrorKind,
}

impl LevelError {
    /// The stable snake_case code of this problem (the kind's code).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

/// What is wrong with a level. Each variant has a stable [`code`](LevelErrorKind::code).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LevelErrorKind {
    /// The level has no player (`@`, `+`, `2` or `-2`).
    #[error("no player")]
    NoPlayer,
    /// A player beyond the first; reported at each extra player.
    #[error("several players: another player is at line {first_line}, column {first_column}")]
    SeveralPlayers {
        /// Line of the first player.
        first_line: u32,
        /// Column of the first player.
        first_column: u32,
    },
    /// A character that is no XSB board character.
    #[error("unknown character {character:?}")]
    UnknownCharacter {
        /// The character found.
        character: char,
    },
    /// Fewer goals than boxes: the level can never be solved.
    #[error("fewer goals ({goals}) than boxes ({boxes})")]
    FewerGoalsThanBoxes {
        /// Goals counted.
        goals: u32,
        /// Boxes counted.
        boxes: u32,
    },
    /// The level has no box.
    #[error("no boxes")]
    NoBoxes,
    /// The player's region is not closed by walls; reported at the first (row-major) cell of the
    /// region that touches the outside.
    #[error("the player's region is open: this cell touches the outside of the level")]
    OpenRegion,
    /// A box off any goal, outside the player's region, so it can never be pushed.
    #[error("box outside the player's region")]
    BoxOutsideRegion,
    /// An empty goal outside the player's region, so it can never be filled.
    #[error("goal outside the player's region")]
    GoalOutsideRegion,
    /// A row of a numeric grid whose width differs from the first row's.
    #[error("row has {values} values, the first row has {expected}")]
    NumericRaggedRow {
        /// Values in this row.
        values: u32,
        /// Values in the first row.
        expected: u32,
    },
    /// A value of a numeric grid that is not an integer at all (`x`, `1.5`, an empty cell).
    #[error("value {value:?} is not an integer (a cell is one of -3, -2, -1, 0, 1, 2, 3)")]
    NumericNotInteger {
        /// The value as written (cut to 16 characters).
        value: String,
    },
    /// A value of a numeric grid outside the table (-3, -2, -1, 0, 1, 2, 3).
    #[error("value {value:?} is not one of -3, -2, -1, 0, 1, 2, 3")]
    NumericBadValue {
        /// The value as written (cut to 16 characters).
        value: String,
    },
    /// A character of a Hexoban level between hex cells: the level's first board character
    /// fixes which grid entries are cells (those whose column plus row has its parity).
    #[error(
        "a character between hex cells: this level's cells are where column + row is {parity}"
    )]
    HexOffLattice {
        /// `even` or `odd` (counting lines and columns from 1, as messages do).
        parity: &'static str,
    },
    /// A level without rows: a `Title:` with no board, or a numeric file without values.
    #[error("empty level: no board rows")]
    EmptyLevel,
    /// A level wider or taller than [`crate::MAX_SIDE`] cells.
    #[error("level too large: at most {max_side} rows of at most {max_side} cells")]
    TooLarge {
        /// The limit, [`crate::MAX_SIDE`].
        max_side: u16,
    },
}

impl LevelErrorKind {
    /// The stable snake_case code of this kind.
    pub fn code(&self) -> &'static str {
        match self {
            LevelErrorKind::NoPlayer => "no_player",
            LevelErrorKind::SeveralPlayers { .. } => "several_players",
            LevelErrorKind::UnknownCharacter { .. } => "unknown_character",
            LevelErrorKind::FewerGoalsThanBoxes { .. } => "fewer_goals_than_boxes",
            LevelErrorKind::NoBoxes => "no_boxes",
            LevelErrorKind::OpenRegion => "open_region",
            LevelErrorKind::BoxOutsideRegion => "box_outside_region",
            LevelErrorKind::GoalOutsideRegion => "goal_outside_region",
            LevelErrorKind::NumericRaggedRow { .. } => "numeric_ragged_row",
            LevelErrorKind::NumericNotInteger { .. } => "numeric_not_integer",
            LevelErrorKind::NumericBadValue { .. } => "numeric_bad_value",
            LevelErrorKind::HexOffLattice { .. } => "hex_off_lattice",
            LevelErrorKind::EmptyLevel => "empty_level",
            LevelErrorKind::TooLarge { .. } => "too_large",
        }
    }
}

/// A problem found while reading one level, before the file name and level number are known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    pub line: u32,
    pub column: u32,
    pub kind: LevelErrorKind,
}

impl Problem {
    pub(crate) fn new(line: u32, column: u32, kind: LevelErrorKind) -> Problem {
        Problem { line, column, kind }
    }
}

/// Turns a level's problems into [`LevelError`]s, sorted by line and column (stable, so problems
/// at the same place keep the order they were found in).
pub(crate) fn locate(mut problems: Vec<Problem>, file: &str, level: u32) -> Vec<LevelError> {
    problems.sort_by_key(|p| (p.line, p.column));
    problems
        .into_iter()
        .map(|p| LevelError {
            file: file.to_string(),
            level,
            line: p.line,
            column: p.column,
            kind: p.kind,
        })
        .collect()
}
