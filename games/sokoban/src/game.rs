//! Sokoban as a Turnstile game: content, configuration, actions, events, views and the
//! [`Game`] implementation that the runtime, the command line and the server drive.
//!
//! The state holds cursors and history, never the level: `{collection, level, history, redo}`
//! in its canonical form, with the live [`Board`] rebuilt from the pinned content when a stored
//! state is attached ([`Game::attach`]). Each command is one undo step — a single move, a
//! walk or push planned by the engine (tap-to-move), a restart — and its receipt lists the moves
//! it made, the counters and whether the level is solved.

use crate::board::{Board, BoardRecord, HistoryEntry, HistoryRejection, StepOutcome};
use crate::grid::Topology;
use crate::grid::{Cell, Direction};
use crate::level::{parse_collection, parse_hex_collection, parse_numeric, Level, LevelError};
use crate::lurd::export_lurd;
use crate::plan::{push_path, walk_path};
use crate::solver::DeadlockKind;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use turnstile_core::{
    ActionKind, BundleManifest, BundleSource, CommandContext, ContentProblem, Game, Location,
    MatchSetup, MatchStatus, Outcome, ParamRange, ParamSpec, ParamValue, Rejection, Seat,
    SetupError, Viewer,
};

/// The Sokoban game.
pub struct Sokoban;

/// A cell as clients see it: `[x, y]`, column then row, from 0 at the top left.
pub type Xy = [u16; 2];

/// Typed Sokoban content: level collections by id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SokobanContent {
    /// The collections, in manifest order.
    pub collections: Vec<Collection>,
}

/// One level collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Collection {
    /// The id the manifest gives it.
    pub id: String,
    /// Its levels, numbered from 1 in file order.
    pub levels: Vec<Level>,
}

impl SokobanContent {
    /// A collection by id.
    pub fn collection(&self, id: &str) -> Option<&Collection> {
        self.collections.iter().find(|c| c.id == id)
    }

    /// A level by collection id and number (from 1).
    pub fn level(&self, collection: &str, level: u32) -> Option<&Level> {
        let index = usize::try_from(level.checked_sub(1)?).ok()?;
        self.collection(collection)?.levels.get(index)
    }

    /// Content made of one collection, for playing a file from the command line.
    pub fn single(id: &str, levels: Vec<Level>) -> Self {
        SokobanContent {
            collections: vec![Collection {
                id: id.into(),
                levels,
            }],
        }
    }
}

/// Which level a match plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SokobanConfig {
    /// The collection id (for a pasted level, a name the client chooses, such as `pasted`).
    pub collection: String,
    /// The level, from 1 in file order (1 for a pasted level).
    pub level: u32,
    /// A level pasted by the player, in XSB (or `.hsb` with `topology: "hex"`): played instead
    /// of the content's, validated like a shipped level, at most [`MAX_PASTED_BYTES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xsb: Option<String>,
    /// The pasted level's topology (square when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,
}

/// The largest pasted level text, in bytes.
pub const MAX_PASTED_BYTES: usize = 16 * 1024;

impl SokobanConfig {
    /// A config for level `level` of a content collection.
    pub fn new(collection: &str, level: u32) -> SokobanConfig {
        SokobanConfig {
            collection: collection.to_owned(),
            level,
            xsb: None,
            topology: None,
        }
    }
}

/// Reads a pasted level: one valid level, its problems with line and column otherwise.
fn pasted_level(text: &str, topology: Topology) -> Result<Level, SetupError> {
    if text.len() > MAX_PASTED_BYTES {
        return Err(SetupError::new(
            "level_too_long",
            format!(
                "the pasted level has {} bytes; at most {MAX_PASTED_BYTES}",
                text.len()
            ),
        ));
    }
    let parsed = match topology {
        Topology::Square => parse_collection(text, "pasted"),
        Topology::Hex => parse_hex_collection(text, "pasted"),
    };
    match parsed.levels.as_slice() {
        [Ok(level)] => Ok(level.clone()),
        [Err(errors)] => {
            let lines: Vec<String> = errors
                .iter()
                .map(|e| {
                    format!(
                        "line {}, column {}: {} ({})",
                        e.line,
                        e.column,
                        e.kind,
                        e.code()
                    )
                })
                .collect();
            Err(SetupError::new("invalid_level", lines.join("; ")))
        }
        levels => Err(SetupError::new(
            "pasted_level_count",
            format!("paste exactly one level; the text holds {}", levels.len()),
        )),
    }
}

/// The match state: which level, and the board with its history.
#[derive(Debug, Clone, PartialEq)]
pub struct SokobanState {
    collection: String,
    level: u32,
    board: BoardSlot,
    /// Set by [`SokobanAction::Finish`]: the player moved on from the solved level, and the
    /// match is over. Until then a solved level stays open for undo.
    finished: bool,
    /// Set by [`SokobanAction::Resign`]: the player gave the level up, and the match is over
    /// with outcome `resigned` and no winner.
    resigned: bool,
    /// A pasted level, played instead of the content's (it is part of the state because no
    /// content holds it).
    pasted: Option<Box<Level>>,
}

/// A live board, or the record of one read back from storage and not yet attached.
#[derive(Debug, Clone)]
enum BoardSlot {
    Live(Box<Board>),
    Stored(BoardRecord),
}

impl PartialEq for BoardSlot {
    fn eq(&self, other: &Self) -> bool {
        self.record() == other.record()
    }
}

impl BoardSlot {
    fn record(&self) -> BoardRecord {
        match self {
            BoardSlot::Live(board) => board.record(),
            BoardSlot::Stored(record) => record.clone(),
        }
    }
}

/// The canonical form of a state: cursors and history only.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StateRecord {
    collection: String,
    level: u32,
    history: String,
    redo: String,
    /// Left out while false, so states of unfinished matches keep their form and fingerprints.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    finished: bool,
    /// Left out while false, like `finished`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    resigned: bool,
    /// A pasted level (left out for content levels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pasted: Option<Level>,
}

impl Serialize for SokobanState {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let BoardRecord { history, redo } = self.board.record();
        StateRecord {
            collection: self.collection.clone(),
            level: self.level,
            history,
            redo,
            finished: self.finished,
            resigned: self.resigned,
            pasted: self.pasted.as_deref().cloned(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SokobanState {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let r = StateRecord::deserialize(deserializer)?;
        Ok(SokobanState {
            collection: r.collection,
            level: r.level,
            board: BoardSlot::Stored(BoardRecord {
                history: r.history,
                redo: r.redo,
            }),
            finished: r.finished,
            resigned: r.resigned,
            pasted: r.pasted.map(Box::new),
        })
    }
}

impl SokobanState {
    /// The live board; `None` for a stored state not yet attached to its content.
    pub fn board(&self) -> Option<&Board> {
        match &self.board {
            BoardSlot::Live(board) => Some(board),
            BoardSlot::Stored(_) => None,
        }
    }

    /// The collection id.
    pub fn collection(&self) -> &str {
        &self.collection
    }

    /// The level number, from 1.
    pub fn level(&self) -> u32 {
        self.level
    }
}

/// What a player may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type", deny_unknown_fields)]
pub enum SokobanAction {
    /// One step, pushing a box if one is in the way.
    Move {
        /// `up`, `right`, `down` or `left`.
        direction: Direction,
    },
    /// Walk to a cell along the shortest path, pushing nothing.
    WalkTo {
        /// The target cell.
        to: Xy,
    },
    /// Push the box on `from` to `to` with the fewest pushes, then the fewest moves.
    PushTo {
        /// The box's cell.
        from: Xy,
        /// Where the box should end up.
        to: Xy,
    },
    /// Undo the last command (a move, a planned walk or push, a restart).
    Undo,
    /// Redo the command undone last.
    Redo,
    /// Back to the level's start; itself undoable.
    Restart,
    /// Move on from the solved level: its outcome becomes a receipt and the match ends.
    /// Until then a solved level stays open for undo, redo and restart.
    Finish,
    /// Give the level up: the match ends with outcome `resigned` and no winner, and the
    /// receipt records it (what `POST /resign` submits).
    Resign,
}

/// What happened, for clients.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum SokobanEvent {
    /// The player moved one cell, maybe pushing a box.
    Moved {
        /// The move in LURD (upper case for a push).
        lurd: char,
        /// Where the player now stands.
        player: Xy,
        /// The box pushed, `[from, to]`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pushed: Option<[Xy; 2]>,
    },
    /// A box now stands on a dead square: the level can't be solved from here.
    DeadSquare {
        /// The box's cell.
        cell: Xy,
    },
    /// A planned walk or push expanded to these moves (LURD).
    Expanded {
        /// The moves.
        lurd: String,
    },
    /// The last command was undone.
    Undone {
        /// Moves reverted (0 for a restart).
        moves: u32,
        /// Pushes among them.
        pushes: u32,
        /// Whether the undone command was a restart.
        restart: bool,
    },
    /// The command undone last was redone.
    Redone {
        /// Moves replayed (0 for a restart).
        moves: u32,
        /// Pushes among them.
        pushes: u32,
        /// Whether the redone command was a restart.
        restart: bool,
    },
    /// The level went back to its start.
    Restarted,
    /// Every box stands on a goal.
    Solved {
        /// Moves of the solution.
        moves: u32,
        /// Pushes of the solution.
        pushes: u32,
        /// The solution in LURD.
        lurd: String,
    },
    /// The position after the command can't be solved any more (the solver's cheap deadlock
    /// check: a dead square, a freeze, or boxes that can't all get goals). Undo it.
    Deadlocked {
        /// `dead_square`, `freeze` or `bipartite`.
        reason: String,
        /// The box that shows it, when one does.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cell: Option<Xy>,
    },
    /// The player moved on from the solved level; the match is over.
    Finished {
        /// Moves of the solution.
        moves: u32,
        /// Pushes of the solution.
        pushes: u32,
        /// The solution in LURD (Hexoban letters on a hex board).
        lurd: String,
    },
    /// The player gave the level up; the match is over.
    Resigned {
        /// Moves made since the start or the last restart.
        moves: u32,
        /// Pushes among them.
        pushes: u32,
    },
    /// The counters after the command; always the last event.
    Counters {
        /// Moves since the start or the last restart.
        moves: u32,
        /// Pushes since the start or the last restart.
        pushes: u32,
        /// Whether the level is solved.
        solved: bool,
    },
}

/// What a viewer sees: the board as XSB rows, the counters, and the history as LURD.
/// Sokoban has no hidden information; every viewer sees the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SokobanView {
    /// The collection id.
    pub collection: String,
    /// The level number, from 1.
    pub level: u32,
    /// The level's title.
    pub title: Option<String>,
    /// Width in cells.
    pub width: u16,
    /// Height in cells.
    pub height: u16,
    /// The current board, one XSB string per row.
    pub rows: Vec<String>,
    /// The player's cell.
    pub player: Xy,
    /// Moves since the start or last restart.
    pub moves: u32,
    /// Pushes since the start or last restart.
    pub pushes: u32,
    /// Whether every box is on a goal.
    pub solved: bool,
    /// Whether undo has something to undo.
    pub can_undo: bool,
    /// Whether redo has something to redo.
    pub can_redo: bool,
    /// The moves since the start or last restart, in LURD.
    pub lurd: String,
    /// Cells where a box can never reach a goal (for warnings).
    pub dead_squares: Vec<Xy>,
    /// `hex` for a Hexoban board (its rows keep the `.hsb` layout: hex cells in every other
    /// entry); left out for the square board, whose views are unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,
    /// Whether the player has moved on from the solved level (the match is over); left out
    /// while false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub finished: bool,
}

/// A checked action, ready to commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SokobanPlan {
    /// One move.
    Step(Direction),
    /// A planned path, one undo entry.
    Path(Vec<Direction>),
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// Restart.
    Restart,
    /// Finish the solved level.
    Finish,
    /// Give the level up.
    Resign,
}

/// The file kinds a Sokoban bundle reads: XSB collections, the seed's numeric grid, and
/// Hexoban collections (`.hsb`, hexagonal cells).
pub const KINDS: &[&str] = &["levels", "numeric-level", "hex-levels"];

fn level_problem(path: &str, e: &LevelError) -> ContentProblem {
    ContentProblem::new(
        path,
        Location::LineColumn {
            line: e.line,
            column: e.column,
        },
        e.code(),
        format!("level {}: {}", e.level, e.kind),
    )
}

/// Parses one level file of a bundle.
pub fn parse_levels(kind: &str, text: &str, path: &str) -> Result<Vec<Level>, Vec<ContentProblem>> {
    if kind == "numeric-level" {
        return parse_numeric(text, path)
            .map(|level| vec![level])
            .map_err(|errors| errors.iter().map(|e| level_problem(path, e)).collect());
    }
    let parsed = if kind == "hex-levels" {
        parse_hex_collection(text, path)
    } else {
        parse_collection(text, path)
    };
    let problems: Vec<ContentProblem> = parsed.errors().map(|e| level_problem(path, e)).collect();
    if !problems.is_empty() {
        return Err(problems);
    }
    if parsed.levels.is_empty() {
        return Err(vec![ContentProblem::new(
            path,
            Location::File,
            "no_levels",
            "the file holds no level",
        )]);
    }
    Ok(parsed.valid_levels().cloned().collect())
}

fn reject(code: &'static str, message: impl Into<String>) -> Rejection {
    Rejection::new(code, message)
}

fn live(state: &SokobanState) -> Result<&Board, Rejection> {
    state.board().ok_or_else(|| {
        reject(
            "state_detached",
            "the state was read from storage and not attached to its content",
        )
    })
}

fn level_of<'c>(content: &'c SokobanContent, state: &'c SokobanState) -> Option<&'c Level> {
    match &state.pasted {
        Some(level) => Some(level),
        None => content.level(&state.collection, state.level),
    }
}

fn cell_of(level: &Level, xy: Xy, what: &str) -> Result<Cell, Rejection> {
    level.cell_at(xy[0], xy[1]).ok_or_else(|| {
        reject(
            "off_board",
            format!(
                "{what} [{}, {}] is outside the {}×{} board",
                xy[0],
                xy[1],
                level.width(),
                level.height()
            ),
        )
    })
}

fn xy(level: &Level, cell: Cell) -> Xy {
    let (x, y) = level.xy(cell);
    [x, y]
}

fn history_rejection(e: HistoryRejection) -> Rejection {
    reject(e.code(), e.to_string())
}

fn step_events(level: &Level, step: &StepOutcome, events: &mut Vec<SokobanEvent>) {
    events.push(SokobanEvent::Moved {
        lurd: step.lurd(),
        player: xy(level, step.player_to),
        pushed: step.push.map(|p| [xy(level, p.from), xy(level, p.to)]),
    });
    if let Some(dead) = step.dead {
        events.push(SokobanEvent::DeadSquare {
            cell: xy(level, dead.cell),
        });
    }
}

fn entry_counts(entry: HistoryEntry) -> (u32, u32, bool) {
    match entry {
        HistoryEntry::Moves { moves, pushes } => (moves, pushes, false),
        HistoryEntry::Restart => (0, 0, true),
    }
}

impl Game for Sokoban {
    const ID: &'static str = "sokoban";
    const CONTENT_KINDS: &'static [&'static str] = KINDS;
    const STREAMS: &'static [&'static str] = &[];
    const HIDDEN_INFORMATION: bool = false;

    type Content = SokobanContent;
    type Config = SokobanConfig;
    type State = SokobanState;
    type Action = SokobanAction;
    type Event = SokobanEvent;
    type View = SokobanView;
    type Plan = SokobanPlan;

    fn load_content(source: &BundleSource) -> Result<SokobanContent, Vec<ContentProblem>> {
        let manifest = BundleManifest::read(source, Some(Self::ID), KINDS)?;
        let mut problems = Vec::new();
        let mut collections = Vec::new();
        for file in &manifest.files {
            let levels = source
                .text(&file.path)
                .map_err(|p| vec![p])
                .and_then(|text| parse_levels(&file.kind, text, &file.path));
            match levels {
                Ok(levels) => collections.push(Collection {
                    id: file.id.clone(),
                    levels,
                }),
                Err(mut p) => problems.append(&mut p),
            }
        }
        if problems.is_empty() {
            Ok(SokobanContent { collections })
        } else {
            Err(problems)
        }
    }

    fn seat_range(_: &SokobanContent, _: &SokobanConfig) -> (u16, u16) {
        (1, 1)
    }

    fn setup(
        content: &SokobanContent,
        setup: MatchSetup<'_, SokobanConfig>,
    ) -> Result<SokobanState, SetupError> {
        let config = setup.config;
        if let Some(text) = &config.xsb {
            let level = pasted_level(text, config.topology.unwrap_or_default())?;
            return Ok(SokobanState {
                collection: config.collection.clone(),
                level: 1,
                board: BoardSlot::Live(Box::new(Board::new(&level))),
                finished: false,
                resigned: false,
                pasted: Some(Box::new(level)),
            });
        }
        let collection = content.collection(&config.collection).ok_or_else(|| {
            SetupError::new(
                "unknown_collection",
                format!(
                    "no collection {:?}; the content has {}",
                    config.collection,
                    content
                        .collections
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        let level = content
            .level(&config.collection, config.level)
            .ok_or_else(|| {
                SetupError::new(
                    "unknown_level",
                    format!(
                        "collection {:?} has levels 1 to {}, not {}",
                        config.collection,
                        collection.levels.len(),
                        config.level
                    ),
                )
            })?;
        Ok(SokobanState {
            collection: config.collection.clone(),
            level: config.level,
            board: BoardSlot::Live(Box::new(Board::new(level))),
            finished: false,
            resigned: false,
            pasted: None,
        })
    }

    fn attach(content: &SokobanContent, state: &mut SokobanState) -> Result<(), SetupError> {
        let level = level_of(content, state).ok_or_else(|| {
            SetupError::new(
                "unknown_level",
                format!(
                    "the state names level {} of {:?}, which the pinned content lacks",
                    state.level, state.collection
                ),
            )
        })?;
        let record = state.board.record();
        let board = Board::from_record(level, &record)
            .map_err(|e| SetupError::new(e.code(), e.to_string()))?;
        state.board = BoardSlot::Live(Box::new(board));
        Ok(())
    }

    fn legal_actions(content: &SokobanContent, state: &SokobanState, _: Seat) -> Vec<ActionKind> {
        let (Some(level), Some(board)) = (level_of(content, state), state.board()) else {
            return Vec::new();
        };
        if state.finished || state.resigned {
            return Vec::new();
        }
        let mut kinds = Vec::new();
        if !board.is_solved() {
            let directions: Vec<ParamValue> = board
                .directions()
                .iter()
                .filter(|d| board.check_step(**d).is_ok())
                .map(|d| ParamValue::from(d.name()))
                .collect();
            if !directions.is_empty() {
                kinds.push(ActionKind {
                    kind: "move".into(),
                    params: vec![ParamSpec {
                        name: "direction".into(),
                        range: ParamRange::OneOf { values: directions },
                    }],
                });
            }
            let reachable = crate::plan::reachable_cells(board);
            kinds.push(ActionKind {
                kind: "walkTo".into(),
                params: vec![ParamSpec {
                    name: "to".into(),
                    range: ParamRange::Cells {
                        cells: reachable.iter().map(|c| xy(level, *c)).collect(),
                    },
                }],
            });
            let floor: Vec<Xy> = (0..level.tiles().len())
                .map(Cell::from_index)
                .filter(|c| !board.is_wall(*c))
                .map(|c| xy(level, c))
                .collect();
            kinds.push(ActionKind {
                kind: "pushTo".into(),
                params: vec![
                    ParamSpec {
                        name: "from".into(),
                        range: ParamRange::Cells {
                            cells: board.boxes().iter().map(|c| xy(level, *c)).collect(),
                        },
                    },
                    ParamSpec {
                        name: "to".into(),
                        range: ParamRange::Cells { cells: floor },
                    },
                ],
            });
        }
        if board.can_undo() {
            kinds.push(ActionKind::bare("undo"));
        }
        if board.can_redo() {
            kinds.push(ActionKind::bare("redo"));
        }
        if board.check_restart().is_ok() {
            kinds.push(ActionKind::bare("restart"));
        }
        if board.is_solved() {
            kinds.push(ActionKind::bare("finish"));
        }
        kinds.push(ActionKind::bare("resign"));
        kinds
    }

    fn enumerate_actions(_: &SokobanContent, state: &SokobanState, _: Seat) -> Vec<SokobanAction> {
        let directions = state.board().map_or(&Direction::ALL[..], Board::directions);
        let mut all: Vec<SokobanAction> = directions
            .iter()
            .map(|&direction| SokobanAction::Move { direction })
            .collect();
        all.extend([
            SokobanAction::Undo,
            SokobanAction::Redo,
            SokobanAction::Restart,
            SokobanAction::Finish,
        ]);
        all
    }

    fn check(
        content: &SokobanContent,
        state: &SokobanState,
        _: CommandContext,
        action: &SokobanAction,
    ) -> Result<SokobanPlan, Rejection> {
        let board = live(state)?;
        let level = level_of(content, state)
            .ok_or_else(|| reject("unknown_level", "the pinned content lacks this level"))?;
        if state.finished || state.resigned {
            return Err(reject(
                "match_over",
                "the match has ended (the level was finished or given up); it accepts no more commands",
            ));
        }
        match *action {
            SokobanAction::Move { direction } => board
                .check_step(direction)
                .map(|()| SokobanPlan::Step(direction))
                .map_err(|e| reject(e.code(), e.to_string())),
            SokobanAction::WalkTo { to } => {
                if board.is_solved() {
                    return Err(reject("solved", "the level is solved; undo or restart"));
                }
                let target = cell_of(level, to, "the target")?;
                walk_path(board, target)
                    .map(SokobanPlan::Path)
                    .map_err(|e| reject(e.code(), format!("cannot walk to {to:?}: {e}")))
            }
            SokobanAction::PushTo { from, to } => {
                if board.is_solved() {
                    return Err(reject("solved", "the level is solved; undo or restart"));
                }
                let box_cell = cell_of(level, from, "the box")?;
                let target = cell_of(level, to, "the target")?;
                let path = push_path(board, box_cell, target).map_err(|e| {
                    reject(
                        e.code(),
                        format!("cannot push the box on {from:?} to {to:?}: {e}"),
                    )
                })?;
                if path.is_empty() {
                    return Err(reject("no_path", "the box is already there"));
                }
                Ok(SokobanPlan::Path(path))
            }
            SokobanAction::Undo if board.can_undo() => Ok(SokobanPlan::Undo),
            SokobanAction::Undo => Err(history_rejection(HistoryRejection::NothingToUndo)),
            SokobanAction::Redo if board.can_redo() => Ok(SokobanPlan::Redo),
            SokobanAction::Redo => Err(history_rejection(HistoryRejection::NothingToRedo)),
            SokobanAction::Restart => board
                .check_restart()
                .map(|()| SokobanPlan::Restart)
                .map_err(history_rejection),
            SokobanAction::Finish if board.is_solved() => Ok(SokobanPlan::Finish),
            SokobanAction::Finish => Err(reject(
                "not_solved",
                "the level is not solved: finish moves on from a solved level only",
            )),
            SokobanAction::Resign => Ok(SokobanPlan::Resign),
        }
    }

    fn commit(
        content: &SokobanContent,
        state: &mut SokobanState,
        _: CommandContext,
        plan: SokobanPlan,
    ) -> Vec<SokobanEvent> {
        // The level by field, not through `level_of`, so the board can be borrowed mutably.
        let level: &Level = match &state.pasted {
            Some(level) => level,
            None => content
                .level(&state.collection, state.level)
                .expect("checked: the level resolves"),
        };
        if plan == SokobanPlan::Finish {
            state.finished = true;
            let board = state.board().expect("checked: the board is live");
            return vec![SokobanEvent::Finished {
                moves: board.moves(),
                pushes: board.pushes(),
                lurd: export_lurd(board),
            }];
        }
        if plan == SokobanPlan::Resign {
            state.resigned = true;
            let board = state.board().expect("checked: the board is live");
            return vec![SokobanEvent::Resigned {
                moves: board.moves(),
                pushes: board.pushes(),
            }];
        }
        let BoardSlot::Live(board) = &mut state.board else {
            unreachable!("checked: the board is live")
        };
        let was_solved = board.is_solved();
        let mut events = Vec::with_capacity(3);
        match plan {
            SokobanPlan::Step(direction) => {
                let step = board.step(direction).expect("checked: the move is legal");
                step_events(level, &step, &mut events);
            }
            SokobanPlan::Path(path) => {
                let outcome = board.apply_path(&path).expect("planned on this board");
                events.push(SokobanEvent::Expanded {
                    lurd: outcome.steps.iter().map(StepOutcome::lurd).collect(),
                });
                for step in &outcome.steps {
                    step_events(level, step, &mut events);
                }
            }
            SokobanPlan::Undo => {
                let (moves, pushes, restart) =
                    entry_counts(board.undo().expect("checked: undo possible").entry);
                events.push(SokobanEvent::Undone {
                    moves,
                    pushes,
                    restart,
                });
            }
            SokobanPlan::Redo => {
                let (moves, pushes, restart) =
                    entry_counts(board.redo().expect("checked: redo possible").entry);
                events.push(SokobanEvent::Redone {
                    moves,
                    pushes,
                    restart,
                });
            }
            SokobanPlan::Restart => {
                board.restart().expect("checked: restart possible");
                events.push(SokobanEvent::Restarted);
            }
            SokobanPlan::Finish | SokobanPlan::Resign => unreachable!("handled above"),
        }
        // The "still solvable?" check, after every command that moved something: only a
        // position the cheap checks prove unsolvable gets the event, so receipts of play that
        // stays solvable are unchanged.
        if let Ok(Some(deadlock)) = level.deadlock_check().check(level, &board.position()) {
            let cell = match deadlock {
                DeadlockKind::DeadSquare { cell } | DeadlockKind::Freeze { cell } => {
                    Some(xy(level, cell))
                }
                DeadlockKind::Bipartite => None,
            };
            events.push(SokobanEvent::Deadlocked {
                reason: deadlock.code().to_owned(),
                cell,
            });
        }
        if board.is_solved() && !was_solved {
            events.push(SokobanEvent::Solved {
                moves: board.moves(),
                pushes: board.pushes(),
                lurd: export_lurd(board),
            });
        }
        events.push(SokobanEvent::Counters {
            moves: board.moves(),
            pushes: board.pushes(),
            solved: board.is_solved(),
        });
        events
    }

    fn view(content: &SokobanContent, state: &SokobanState, _: Viewer) -> SokobanView {
        let level = level_of(content, state);
        let board = state.board();
        let (Some(level), Some(board)) = (level, board) else {
            // A detached or mismatched state: show the cursor and nothing else.
            return SokobanView {
                collection: state.collection.clone(),
                level: state.level,
                title: None,
                width: 0,
                height: 0,
                rows: Vec::new(),
                player: [0, 0],
                moves: 0,
                pushes: 0,
                solved: false,
                can_undo: false,
                can_redo: false,
                lurd: String::new(),
                dead_squares: Vec::new(),
                topology: None,
                finished: state.finished,
            };
        };
        SokobanView {
            collection: state.collection.clone(),
            level: state.level,
            title: level.title().map(str::to_owned),
            width: board.width(),
            height: board.height(),
            rows: board.to_rows(),
            player: xy(level, board.player()),
            moves: board.moves(),
            pushes: board.pushes(),
            solved: board.is_solved(),
            can_undo: board.can_undo(),
            can_redo: board.can_redo(),
            lurd: export_lurd(board),
            dead_squares: (0..level.tiles().len())
                .map(Cell::from_index)
                .filter(|c| board.is_dead(*c))
                .map(|c| xy(level, c))
                .collect(),
            topology: (!level.topology().is_square()).then_some(level.topology()),
            finished: state.finished,
        }
    }

    fn status(_: &SokobanContent, state: &SokobanState) -> MatchStatus {
        match state.board() {
            _ if state.resigned => MatchStatus::Finished {
                outcome: Outcome {
                    kind: "resigned".into(),
                    winners: Vec::new(),
                },
            },
            Some(board) if board.is_solved() && state.finished => MatchStatus::Finished {
                outcome: Outcome {
                    kind: "solved".into(),
                    winners: vec![Seat(0)],
                },
            },
            _ => MatchStatus::Active,
        }
    }
}
