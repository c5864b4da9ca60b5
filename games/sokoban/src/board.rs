//! The rules in motion: a mutable position with moves, pushes, undo, redo and restart.
//!
//! A [`Board`] is built from a [`Level`] and is made for speed: one flag byte per cell (wall,
//! goal, box, dead square), the player's cell index, the four neighbour offsets precomputed, a
//! running count of boxes off their goals, and the history as one byte per move. [`Board::step`]
//! allocates nothing (the history vector grows amortized).
//!
//! # History model
//!
//! The history is a timeline of *entries*, each undone and redone as one:
//!
//! * a single move ([`Board::step`]),
//! * a whole path of moves ([`Board::apply_path`], used for tap-to-move),
//! * a restart ([`Board::restart`]).
//!
//! Restart is an entry like any other: it puts the level back to its start and sets the counters
//! to zero, and [`Board::undo`] right after it brings back the position, counters and history
//! from before the restart (so an accidental restart costs nothing). Undoing further walks back
//! through the moves made before the restart. Any new move, path or restart clears the redo
//! stack. Undo, redo and restart all work after the level is solved; undo un-solves it.
//!
//! [`Board::record`] writes the history and the redo stack as a compact, canonical
//! [`BoardRecord`], and [`Board::from_record`] rebuilds the exact same board from it and the level:
//! the form for snapshots and state fingerprints.
//!
//! The counters ([`Board::moves`], [`Board::pushes`]) and the exported LURD
//! ([`crate::export_lurd`]) describe the moves since the last restart: the path from the level's
//! start to the current position.
//!
//! # Limits
//!
//! The history holds at most [`MAX_HISTORY`] entries' worth of moves; a move beyond that is
//! rejected with [`MoveRejection::HistoryFull`].

use crate::deadlock::{DeadSquareEvent, DeadSquares};
use crate::grid::{Cell, Direction, Tile, Topology};
use crate::level::Level;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The longest history a board keeps, in moves (restarts count as one each).
pub const MAX_HISTORY: u32 = 1 << 24;

/// Cell flag: nothing may stand here (a wall, or outside the level).
pub(crate) const WALL: u8 = 1;
/// Cell flag: a goal.
pub(crate) const GOAL: u8 = 2;
/// Cell flag: a box stands here.
pub(crate) const BOX: u8 = 4;
/// Cell flag: a dead square (see [`crate::deadlock`]).
pub(crate) const DEAD: u8 = 8;
/// Cell flag: outside the level (always together with WALL; only rendering tells them apart).
const OUTSIDE: u8 = 16;

/// History byte flag: this move continues the entry of the move before it (a path).
const CONTINUES: u8 = 0x80;
/// History byte of a restart entry.
const RESTART: u8 = b'!';

/// Why a move was rejected. A rejected move changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveRejection {
    /// A wall (or the level's edge) is in the way.
    #[error("a wall is in the way")]
    Wall,
    /// The box in the way can't move: a wall or another box is behind it.
    #[error("the box is blocked by a wall or another box")]
    BoxBlocked,
    /// The level is solved; only undo, redo and restart remain.
    #[error("the level is solved")]
    Solved,
    /// The history is full ([`MAX_HISTORY`] moves).
    #[error("the history is full")]
    HistoryFull,
    /// The board has no such direction (a diagonal on a square board, up or down on a hex one).
    #[error("this board has no such direction")]
    NoSuchDirection,
}

impl MoveRejection {
    /// The stable snake_case code of this rejection.
    pub fn code(self) -> &'static str {
        match self {
            MoveRejection::Wall => "wall",
            MoveRejection::BoxBlocked => "box_blocked",
            MoveRejection::Solved => "solved",
            MoveRejection::HistoryFull => "history_full",
            MoveRejection::NoSuchDirection => "no_such_direction",
        }
    }
}

/// Why an undo, redo or restart was rejected. A rejection changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryRejection {
    /// Nothing has been done (or everything is undone).
    #[error("nothing to undo")]
    NothingToUndo,
    /// Nothing has been undone since the last move.
    #[error("nothing to redo")]
    NothingToRedo,
    /// The level is already at its start (no move since the start or the last restart).
    #[error("nothing to restart: the level is at its start")]
    NothingToRestart,
    /// The history is full ([`MAX_HISTORY`] moves).
    #[error("the history is full")]
    HistoryFull,
}

impl HistoryRejection {
    /// The stable snake_case code of this rejection.
    pub fn code(self) -> &'static str {
        match self {
            HistoryRejection::NothingToUndo => "nothing_to_undo",
            HistoryRejection::NothingToRedo => "nothing_to_redo",
            HistoryRejection::NothingToRestart => "nothing_to_restart",
            HistoryRejection::HistoryFull => "history_full",
        }
    }
}

/// A move of a path was rejected; the whole path was rejected and nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("move {index} of the path: {reason}")]
pub struct PathRejection {
    /// The 0-based index of the rejected move in the path.
    pub index: u32,
    /// Why it was rejected.
    pub reason: MoveRejection,
}

impl PathRejection {
    /// The stable code: the rejected move's code.
    pub fn code(&self) -> &'static str {
        self.reason.code()
    }
}

/// A board's history and redo stack as text: its snapshot form (the level is kept apart).
///
/// Each entry is written as a LURD letter (a single move), as letters in parentheses (a path of
/// two or more moves, undone as one), or as `!` (a restart). `history` lists entries from the
/// oldest; `redo` lists them in the order [`Board::redo`] would redo them. The form is canonical:
/// equal boards give equal records.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRecord {
    /// The history, oldest entry first.
    pub history: String,
    /// The redo stack, next entry to redo first.
    pub redo: String,
}

/// Which part of a [`BoardRecord`] a problem was found in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordPart {
    /// [`BoardRecord::history`].
    History,
    /// [`BoardRecord::redo`].
    Redo,
}

impl std::fmt::Display for RecordPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RecordPart::History => "history",
            RecordPart::Redo => "redo",
        })
    }
}

/// Why a [`BoardRecord`] does not fit a level. Offsets count characters from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// Not in the record's syntax (an unknown character, an unclosed or too short path).
    #[error("{part} character {offset}: malformed board record")]
    Malformed {
        /// The part of the record.
        part: RecordPart,
        /// Offset of the entry.
        offset: u32,
    },
    /// The entry can't be played there: a rejected move, a push written as a walk or the
    /// reverse, a restart with nothing to restart.
    #[error("{part} character {offset}: the entry can't be played here ({reason})")]
    Illegal {
        /// The part of the record.
        part: RecordPart,
        /// Offset of the entry.
        offset: u32,
        /// The code of the rejection (`wall`, `push_mismatch`, `nothing_to_restart`, ...).
        reason: &'static str,
    },
}

impl RecordError {
    /// The stable snake_case code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            RecordError::Malformed { .. } => "record_malformed",
            RecordError::Illegal { .. } => "record_illegal",
        }
    }
}

/// A box moved by a push.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxPush {
    /// Where the box stood.
    pub from: Cell,
    /// Where it stands now.
    pub to: Cell,
}

/// What one accepted move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepOutcome {
    /// The direction moved.
    pub direction: Direction,
    /// The player's cell before the move.
    pub player_from: Cell,
    /// The player's cell after the move.
    pub player_to: Cell,
    /// The box pushed, if the move was a push.
    pub push: Option<BoxPush>,
    /// Set when the push left the box on a dead square.
    pub dead: Option<DeadSquareEvent>,
    /// Whether the level is solved after the move.
    pub solved: bool,
}

impl StepOutcome {
    /// Whether the move pushed a box.
    pub fn pushed(&self) -> bool {
        self.push.is_some()
    }

    /// The move in LURD (upper case for a push).
    pub fn lurd(&self) -> char {
        self.direction.lurd(self.pushed())
    }
}

/// What an accepted path did: one outcome per move applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathOutcome {
    /// The moves applied, in order. A path stops where the level becomes solved, so this can be
    /// shorter than the path given.
    pub steps: Vec<StepOutcome>,
    /// Whether the level is solved after the path.
    pub solved: bool,
}

/// Which kind of history entry an undo, redo or restart concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum HistoryEntry {
    /// One move or one path of moves.
    Moves {
        /// Moves in the entry.
        moves: u32,
        /// Pushes among them.
        pushes: u32,
    },
    /// A restart.
    Restart,
}

/// What an accepted undo, redo or restart did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryOutcome {
    /// The entry undone, redone or (for restart) added.
    pub entry: HistoryEntry,
    /// Whether the level is solved afterwards.
    pub solved: bool,
}

/// The player and the boxes: what a position is, independent of history.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Position {
    /// The player's cell.
    pub player: Cell,
    /// The boxes' cells, sorted.
    pub boxes: Vec<Cell>,
}

/// A level being played: position, counters and history. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: u16,
    height: u16,
    /// Per cell: WALL | GOAL | BOX | DEAD | OUTSIDE.
    flags: Vec<u8>,
    /// The flags at the level's start, for restart.
    start_flags: Vec<u8>,
    start_player: usize,
    start_boxes_off_goal: u32,
    /// Square or hex cells.
    topology: Topology,
    /// Index offsets by [`Direction::index`] (0 for a direction the topology lacks).
    offsets: [isize; 8],
    player: usize,
    boxes_off_goal: u32,
    moves: u32,
    pushes: u32,
    /// One byte per move (its LURD letter, `| CONTINUES` inside a path) or restart.
    history: Vec<u8>,
    /// Undone bytes, the next to redo last.
    redo: Vec<u8>,
}

impl Board {
    /// Sets up a level at its start, computing its dead squares.
    pub fn new(level: &Level) -> Board {
        Board::with_dead_squares(level, &DeadSquares::compute(level))
    }

    /// Sets up a level at its start with dead squares already computed for it.
    pub fn with_dead_squares(level: &Level, dead: &DeadSquares) -> Board {
        let mut flags: Vec<u8> = level
            .tiles()
            .iter()
            .map(|tile| match tile {
                Tile::Outside => WALL | OUTSIDE,
                Tile::Wall => WALL,
                Tile::Floor => 0,
                Tile::Goal => GOAL,
            })
            .collect();
        for (i, f) in flags.iter_mut().enumerate() {
            if dead.is_dead(Cell::from_index(i)) {
                *f |= DEAD;
            }
        }
        let mut boxes_off_goal = 0;
        for b in level.boxes() {
            flags[b.index()] |= BOX;
            boxes_off_goal += u32::from(flags[b.index()] & GOAL == 0);
        }
        let width = level.width() as isize;
        let topology = level.topology();
        let mut offsets = [0; 8];
        for &d in topology.directions() {
            let (dx, dy) = topology.delta(d);
            offsets[d.index()] = dy as isize * width + dx as isize;
        }
        Board {
            width: level.width(),
            height: level.height(),
            start_flags: flags.clone(),
            flags,
            start_player: level.player().index(),
            start_boxes_off_goal: boxes_off_goal,
            topology,
            offsets,
            player: level.player().index(),
            boxes_off_goal,
            moves: 0,
            pushes: 0,
            history: Vec::with_capacity(1024),
            redo: Vec::new(),
        }
    }

    /// Moves the player one cell, pushing a box if one is in the way.
    ///
    /// Rejected (changing nothing) with [`MoveRejection::Solved`] once the level is solved,
    /// [`MoveRejection::Wall`] when a wall or the level's edge is in the way, and
    /// [`MoveRejection::BoxBlocked`] when the box in the way has a wall or a box behind it.
    /// An accepted move clears the redo stack.
    #[inline]
    pub fn step(&mut self, direction: Direction) -> Result<StepOutcome, MoveRejection> {
        self.step_entry(direction, false)
    }

    /// One move; `continues` marks it as part of the previous move's history entry.
    #[inline]
    fn step_entry(
        &mut self,
        direction: Direction,
        continues: bool,
    ) -> Result<StepOutcome, MoveRejection> {
        let (to, beyond) = self.judge_step(direction)?;
        let from = self.player;
        let to_flags = self.flags[to];
        let mut push = None;
        let mut dead = None;
        if let Some(beyond) = beyond {
            let beyond_flags = self.flags[beyond];
            self.flags[to] = to_flags & !BOX;
            self.flags[beyond] = beyond_flags | BOX;
            self.boxes_off_goal = self.boxes_off_goal + u32::from(to_flags & GOAL != 0)
                - u32::from(beyond_flags & GOAL != 0);
            self.pushes += 1;
            let box_to = Cell::from_index(beyond);
            push = Some(BoxPush {
                from: Cell::from_index(to),
                to: box_to,
            });
            if beyond_flags & DEAD != 0 {
                dead = Some(DeadSquareEvent { cell: box_to });
            }
        }
        self.player = to;
        self.moves += 1;
        let byte = direction.lurd_byte(push.is_some());
        self.history
            .push(if continues { byte | CONTINUES } else { byte });
        self.redo.clear();
        Ok(StepOutcome {
            direction,
            player_from: Cell::from_index(from),
            player_to: Cell::from_index(to),
            push,
            dead,
            solved: self.boxes_off_goal == 0,
        })
    }

    /// Whether [`Board::step`] would accept a move, changing nothing: the same judgement
    /// `step` itself makes, so checking and moving can never disagree.
    #[inline]
    pub fn check_step(&self, direction: Direction) -> Result<(), MoveRejection> {
        self.judge_step(direction).map(|_| ())
    }

    /// The one judgement of a move: the player's target cell and, for a push, the cell the box
    /// goes to.
    #[inline]
    fn judge_step(&self, direction: Direction) -> Result<(usize, Option<usize>), MoveRejection> {
        if self.boxes_off_goal == 0 {
            return Err(MoveRejection::Solved);
        }
        if self.history.len() >= MAX_HISTORY as usize {
            return Err(MoveRejection::HistoryFull);
        }
        if !self.topology.has(direction) {
            return Err(MoveRejection::NoSuchDirection);
        }
        let offset = self.offsets[direction.index()];
        // The level's invariant (the region is closed by walls) keeps these on the grid.
        let to = self.player.wrapping_add_signed(offset);
        let to_flags = self.flags[to];
        if to_flags & WALL != 0 {
            return Err(MoveRejection::Wall);
        }
        if to_flags & BOX == 0 {
            return Ok((to, None));
        }
        let beyond = to.wrapping_add_signed(offset);
        if self.flags[beyond] & (WALL | BOX) != 0 {
            return Err(MoveRejection::BoxBlocked);
        }
        Ok((to, Some(beyond)))
    }

    /// Whether [`Board::restart`] would be accepted, changing nothing.
    pub fn check_restart(&self) -> Result<(), HistoryRejection> {
        match self.history.last() {
            None | Some(&RESTART) => Err(HistoryRejection::NothingToRestart),
            Some(_) if self.history.len() >= MAX_HISTORY as usize => {
                Err(HistoryRejection::HistoryFull)
            }
            Some(_) => Ok(()),
        }
    }

    /// Applies a path of moves as one history entry (one undo), all or nothing: if any move is
    /// rejected, nothing changes and the rejection names the move's index. The path stops where
    /// the level becomes solved; moves after that are not applied (see
    /// [`PathOutcome::steps`]). An empty path changes nothing and adds no entry.
    pub fn apply_path(&mut self, path: &[Direction]) -> Result<PathOutcome, PathRejection> {
        let mut steps = Vec::with_capacity(path.len());
        let saved_redo = std::mem::take(&mut self.redo);
        for (index, &direction) in path.iter().enumerate() {
            if index > 0 && self.is_solved() {
                break;
            }
            match self.step_entry(direction, index > 0) {
                Ok(outcome) => steps.push(outcome),
                Err(reason) => {
                    for _ in 0..index {
                        if let Some(byte) = self.history.pop() {
                            self.unapply(byte);
                        }
                    }
                    self.redo = saved_redo;
                    // A path longer than u32::MAX would have hit HistoryFull first.
                    return Err(PathRejection {
                        index: index as u32,
                        reason,
                    });
                }
            }
        }
        if steps.is_empty() {
            self.redo = saved_redo;
        }
        Ok(PathOutcome {
            steps,
            solved: self.is_solved(),
        })
    }

    /// Undoes the last history entry: a move, a whole path, or a restart.
    pub fn undo(&mut self) -> Result<HistoryOutcome, HistoryRejection> {
        let Some(&last) = self.history.last() else {
            return Err(HistoryRejection::NothingToUndo);
        };
        let entry = if last == RESTART {
            self.history.pop();
            self.redo.push(RESTART);
            self.replay_since_restart();
            HistoryEntry::Restart
        } else {
            let (mut moves, mut pushes) = (0, 0);
            while let Some(byte) = self.history.pop() {
                self.unapply(byte);
                self.redo.push(byte);
                moves += 1;
                pushes += u32::from(is_push(byte));
                if byte & CONTINUES == 0 {
                    break;
                }
            }
            HistoryEntry::Moves { moves, pushes }
        };
        Ok(HistoryOutcome {
            entry,
            solved: self.is_solved(),
        })
    }

    /// Redoes the entry undone last.
    pub fn redo(&mut self) -> Result<HistoryOutcome, HistoryRejection> {
        let Some(first) = self.redo.pop() else {
            return Err(HistoryRejection::NothingToRedo);
        };
        let entry = if first == RESTART {
            self.history.push(RESTART);
            self.reset_to_start();
            HistoryEntry::Restart
        } else {
            let (mut moves, mut pushes) = (1, u32::from(is_push(first)));
            self.apply(first);
            self.history.push(first);
            while let Some(&byte) = self.redo.last() {
                if byte == RESTART || byte & CONTINUES == 0 {
                    break;
                }
                self.redo.pop();
                self.apply(byte);
                self.history.push(byte);
                moves += 1;
                pushes += u32::from(is_push(byte));
            }
            HistoryEntry::Moves { moves, pushes }
        };
        Ok(HistoryOutcome {
            entry,
            solved: self.is_solved(),
        })
    }

    /// Puts the level back to its start, as one history entry that [`Board::undo`] reverts.
    /// Rejected when there is no move since the start or the last restart. Clears the redo
    /// stack.
    pub fn restart(&mut self) -> Result<HistoryOutcome, HistoryRejection> {
        self.check_restart()?;
        self.history.push(RESTART);
        self.redo.clear();
        self.reset_to_start();
        Ok(HistoryOutcome {
            entry: HistoryEntry::Restart,
            solved: self.is_solved(),
        })
    }

    /// Whether every box stands on a goal (more goals than boxes is fine).
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.boxes_off_goal == 0
    }

    /// Moves since the start or the last restart.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Pushes since the start or the last restart.
    pub fn pushes(&self) -> u32 {
        self.pushes
    }

    /// Whether [`Board::undo`] has something to undo.
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }

    /// Whether [`Board::redo`] has something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The player's cell.
    pub fn player(&self) -> Cell {
        Cell::from_index(self.player)
    }

    /// Whether a box stands on a cell.
    pub fn has_box(&self, cell: Cell) -> bool {
        self.flag(cell, BOX)
    }

    /// Whether a cell is a wall or outside the level (or beyond the grid).
    pub fn is_wall(&self, cell: Cell) -> bool {
        self.flags.get(cell.index()).is_none_or(|f| f & WALL != 0)
    }

    /// Whether a cell is a goal.
    pub fn is_goal(&self, cell: Cell) -> bool {
        self.flag(cell, GOAL)
    }

    /// Whether a cell is a dead square (see [`crate::deadlock`]).
    pub fn is_dead(&self, cell: Cell) -> bool {
        self.flag(cell, DEAD)
    }

    /// The boxes' cells, sorted.
    pub fn boxes(&self) -> Vec<Cell> {
        (0..self.flags.len())
            .filter(|&i| self.flags[i] & BOX != 0)
            .map(Cell::from_index)
            .collect()
    }

    /// The current position: player and boxes.
    pub fn position(&self) -> Position {
        Position {
            player: self.player(),
            boxes: self.boxes(),
        }
    }

    /// Width of the grid, as the level's.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Height of the grid, as the level's.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Square or hexagonal cells.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// The directions the player moves in on this board, in the order planners try them:
    /// with [`Board::neighbour`], what a search over this board needs to know of its shape.
    pub fn directions(&self) -> &'static [Direction] {
        self.topology.directions()
    }

    /// The neighbour of a cell in a direction, if it is on the grid (`None` as well for a
    /// direction the board lacks).
    pub fn neighbour(&self, cell: Cell, direction: Direction) -> Option<Cell> {
        if !self.topology.has(direction) {
            return None;
        }
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        let (x, y) = (i32::from(cell.0) % w, i32::from(cell.0) / w);
        let (dx, dy) = self.topology.delta(direction);
        let (nx, ny) = (x + dx, y + dy);
        (cell.index() < self.flags.len() && (0..w).contains(&nx) && (0..h).contains(&ny))
            .then(|| Cell::from_index((ny * w + nx) as usize))
    }

    /// The current position as XSB rows, trailing spaces trimmed.
    pub fn to_rows(&self) -> Vec<String> {
        self.flags
            .chunks(usize::from(self.width))
            .enumerate()
            .map(|(y, row)| {
                let row: String = row
                    .iter()
                    .enumerate()
                    .map(|(x, &f)| {
                        let player = y * usize::from(self.width) + x == self.player;
                        match (f & WALL != 0, f & GOAL != 0, f & BOX != 0, player) {
                            _ if f & OUTSIDE != 0 => ' ',
                            (true, ..) => '#',
                            (_, true, true, _) => '*',
                            (_, true, false, true) => '+',
                            (_, true, false, false) => '.',
                            (_, false, true, _) => '$',
                            (_, false, false, true) => '@',
                            (_, false, false, false) => ' ',
                        }
                    })
                    .collect();
                row.trim_end().to_string()
            })
            .collect()
    }

    /// The history and redo stack in their canonical text form.
    pub fn record(&self) -> BoardRecord {
        BoardRecord {
            history: encode_entries(&self.history),
            redo: encode_entries(&self.redo.iter().rev().copied().collect::<Vec<u8>>()),
        }
    }

    /// Rebuilds a board from its level and [`Board::record`]: replays the history, then plays
    /// the redo entries and undoes them again. Every entry is checked like a new command.
    pub fn from_record(level: &Level, record: &BoardRecord) -> Result<Board, RecordError> {
        let mut board = Board::new(level);
        board.play_entries(&record.history, RecordPart::History)?;
        let redo_entries = board.play_entries(&record.redo, RecordPart::Redo)?;
        for _ in 0..redo_entries {
            // Cannot fail: each of these entries was just played.
            let undone = board.undo();
            debug_assert!(undone.is_ok());
        }
        Ok(board)
    }

    /// Plays the entries of one part of a record; returns how many.
    fn play_entries(&mut self, text: &str, part: RecordPart) -> Result<u32, RecordError> {
        let chars: Vec<char> = text.chars().collect();
        let offset_of = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        let malformed = |i: usize| RecordError::Malformed {
            part,
            offset: offset_of(i),
        };
        let illegal = |i: usize, reason| RecordError::Illegal {
            part,
            offset: offset_of(i),
            reason,
        };
        let mut entries = 0;
        let mut i = 0;
        while i < chars.len() {
            let start = i;
            let letters = match chars[i] {
                '!' => {
                    self.restart().map_err(|r| illegal(start, r.code()))?;
                    i += 1;
                    entries += 1;
                    continue;
                }
                '(' => {
                    let close = chars[i..]
                        .iter()
                        .position(|&c| c == ')')
                        .ok_or(malformed(i))?;
                    i += close + 1;
                    &chars[start + 1..start + close]
                }
                _ => {
                    i += 1;
                    &chars[start..i]
                }
            };
            let mut steps = Vec::with_capacity(letters.len());
            for (k, &letter) in letters.iter().enumerate() {
                let at = if letters.len() > 1 {
                    start + 1 + k
                } else {
                    start
                };
                steps.push(self.topology.read_letter(letter).ok_or(malformed(at))?);
            }
            if chars[start] == '(' && steps.len() < 2 {
                return Err(malformed(start)); // a one-move path is written as its letter
            }
            let directions: Vec<Direction> = steps.iter().map(|&(d, _)| d).collect();
            let outcome = self
                .apply_path(&directions)
                .map_err(|r| illegal(start, r.code()))?;
            if outcome.steps.len() != steps.len() {
                return Err(illegal(start, MoveRejection::Solved.code()));
            }
            if outcome
                .steps
                .iter()
                .zip(&steps)
                .any(|(done, &(_, push))| done.pushed() != push)
            {
                return Err(illegal(start, "push_mismatch"));
            }
            entries += 1;
        }
        Ok(entries)
    }

    /// The moves since the start or the last restart, in LURD.
    pub(crate) fn current_lurd(&self) -> String {
        let start = self
            .history
            .iter()
            .rposition(|&b| b == RESTART)
            .map_or(0, |i| i + 1);
        self.history[start..]
            .iter()
            .map(|&b| char::from(b & !CONTINUES))
            .collect()
    }

    /// Per-cell flags, for the planners.
    pub(crate) fn flags(&self) -> &[u8] {
        &self.flags
    }

    /// Index offsets of [`Board::directions`], in that order.
    pub(crate) fn offsets(&self) -> Vec<isize> {
        self.directions()
            .iter()
            .map(|d| self.offsets[d.index()])
            .collect()
    }

    /// Takes the redo stack out (to restore it if a batch of moves is rolled back).
    pub(crate) fn take_redo(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.redo)
    }

    /// Puts a redo stack back.
    pub(crate) fn restore_redo(&mut self, redo: Vec<u8>) {
        self.redo = redo;
    }

    /// The direction of a history byte (a move, not a restart), read in this board's letters.
    #[inline]
    fn byte_direction(&self, byte: u8) -> Direction {
        self.topology
            .read_letter(char::from(byte & !CONTINUES))
            .map_or(Direction::Left, |(d, _)| d)
    }

    fn flag(&self, cell: Cell, flag: u8) -> bool {
        self.flags.get(cell.index()).is_some_and(|f| f & flag != 0)
    }

    /// Re-applies a recorded move (known to be legal).
    fn apply(&mut self, byte: u8) {
        let offset = self.offsets[self.byte_direction(byte).index()];
        let to = self.player.wrapping_add_signed(offset);
        if is_push(byte) {
            let beyond = to.wrapping_add_signed(offset);
            self.move_box(to, beyond);
            self.pushes += 1;
        }
        debug_assert_eq!(self.flags[to] & (WALL | BOX), 0);
        self.player = to;
        self.moves += 1;
    }

    /// Reverts a recorded move (the last one applied).
    fn unapply(&mut self, byte: u8) {
        let offset = self.offsets[self.byte_direction(byte).index()];
        let back = self.player.wrapping_add_signed(-offset);
        if is_push(byte) {
            let box_cell = self.player.wrapping_add_signed(offset);
            self.move_box(box_cell, self.player);
            self.pushes -= 1;
        }
        self.player = back;
        self.moves -= 1;
    }

    fn move_box(&mut self, from: usize, to: usize) {
        debug_assert!(self.flags[from] & BOX != 0 && self.flags[to] & (WALL | BOX) == 0);
        self.flags[from] &= !BOX;
        self.flags[to] |= BOX;
        self.boxes_off_goal = self.boxes_off_goal + u32::from(self.flags[from] & GOAL != 0)
            - u32::from(self.flags[to] & GOAL != 0);
    }

    fn reset_to_start(&mut self) {
        self.flags.copy_from_slice(&self.start_flags);
        self.player = self.start_player;
        self.boxes_off_goal = self.start_boxes_off_goal;
        self.moves = 0;
        self.pushes = 0;
    }

    /// Rebuilds the position from the start by replaying the moves since the last restart.
    fn replay_since_restart(&mut self) {
        self.reset_to_start();
        let start = self
            .history
            .iter()
            .rposition(|&b| b == RESTART)
            .map_or(0, |i| i + 1);
        for i in start..self.history.len() {
            self.apply(self.history[i]);
        }
    }
}

/// Whether a history byte records a push (upper-case letter).
#[inline]
fn is_push(byte: u8) -> bool {
    (byte & !CONTINUES).is_ascii_uppercase()
}

/// Writes history bytes (oldest first) in the record form: letters, `(`path`)`, `!`.
fn encode_entries(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for (i, &byte) in bytes.iter().enumerate() {
        if byte == RESTART {
            text.push('!');
            continue;
        }
        let next_continues = bytes.get(i + 1).is_some_and(|&next| next & CONTINUES != 0);
        if byte & CONTINUES == 0 && next_continues {
            text.push('(');
        }
        text.push(char::from(byte & !CONTINUES));
        if byte & CONTINUES != 0 && !next_continues {
            text.push(')');
        }
    }
    text
}
