//! LURD, the notation Sokoban solutions are exchanged in: import, check and export.
//!
//! `l u r d` are steps left, up, right and down; upper case marks a step that pushes a box.
//! Whitespace (including line breaks) is ignored; any other character is an error naming its
//! 0-based character offset.
//!
//! Hexoban solutions use the same scheme with six letters: `l` west, `r` east, `u` north-west,
//! `n` north-east, `s` south-west, `d` south-east ([`Topology::read_letter`]); a board's
//! solutions are read in its own letters ([`apply_lurd`]).

use crate::board::{Board, MoveRejection};
use crate::grid::{Direction, Topology};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One step of a LURD string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LurdStep {
    /// Where the player steps.
    pub direction: Direction,
    /// Whether the step is written as a push (upper case).
    pub push: bool,
}

/// Why a LURD string was refused. Offsets count characters from 0; `step` counts LURD steps
/// from 0 (whitespace excluded).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LurdError {
    /// A character that is neither a LURD letter nor whitespace.
    #[error("character {offset}: {character:?} is not a step of this board ({letters}, upper case to push)")]
    UnknownCharacter {
        /// Offset of the character.
        offset: u32,
        /// The character.
        character: char,
        /// The board's letters.
        letters: &'static str,
    },
    /// The step's case disagrees with what happened: lower case but it pushed, or upper case
    /// but it didn't.
    #[error("character {offset} (step {step}): {}", mismatch(.written_push))]
    PushMismatch {
        /// Offset of the step's character.
        offset: u32,
        /// Index of the step.
        step: u32,
        /// Whether the step was written in upper case.
        written_push: bool,
    },
    /// The move was rejected by the rules.
    #[error("character {offset} (step {step}): {reason}")]
    MoveRejected {
        /// Offset of the step's character.
        offset: u32,
        /// Index of the step.
        step: u32,
        /// Why the rules rejected it.
        reason: MoveRejection,
    },
}

impl LurdError {
    /// The stable snake_case code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            LurdError::UnknownCharacter { .. } => "lurd_unknown_character",
            LurdError::PushMismatch { .. } => "lurd_push_mismatch",
            LurdError::MoveRejected { .. } => "lurd_move_rejected",
        }
    }
}

/// Describes a push mismatch.
fn mismatch(written_push: &bool) -> &'static str {
    if *written_push {
        "written as a push (upper case), but the move pushes nothing"
    } else {
        "written as a walk (lower case), but the move pushes a box"
    }
}

/// What an applied LURD string did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LurdOutcome {
    /// Steps applied.
    pub moves: u32,
    /// Pushes among them.
    pub pushes: u32,
    /// Whether the level is solved afterwards.
    pub solved: bool,
}

/// Parses a LURD string of the square board into steps.
pub fn parse_lurd(text: &str) -> Result<Vec<LurdStep>, LurdError> {
    parse_moves(text, Topology::Square)
}

/// Parses a solution string in a topology's letters (LURD, or Hexoban's `l r u n s d`).
pub fn parse_moves(text: &str, topology: Topology) -> Result<Vec<LurdStep>, LurdError> {
    Ok(parse_with_offsets(text, topology)?
        .into_iter()
        .map(|(step, _)| step)
        .collect())
}

/// Writes steps as LURD.
pub fn format_lurd(steps: &[LurdStep]) -> String {
    steps.iter().map(|s| s.direction.lurd(s.push)).collect()
}

/// The board's moves since the start or the last restart, as LURD: the path from the level's
/// start to the current position.
pub fn export_lurd(board: &Board) -> String {
    board.current_lurd()
}

/// Applies a LURD string to a board, checking that each step's case matches whether it pushed.
///
/// All or nothing: on any error the board is left exactly as it was (redo stack included).
/// Each step becomes its own history entry, so an imported solution can be undone step by step.
pub fn apply_lurd(board: &mut Board, text: &str) -> Result<LurdOutcome, LurdError> {
    let steps = parse_with_offsets(text, board.topology())?;
    let saved_redo = board.take_redo();
    let mut outcome = LurdOutcome {
        moves: 0,
        pushes: 0,
        solved: board.is_solved(),
    };
    for (index, &(step, offset)) in steps.iter().enumerate() {
        let step_index = u32::try_from(index).unwrap_or(u32::MAX);
        let error = match board.step(step.direction) {
            Ok(done) if done.pushed() == step.push => {
                outcome.moves += 1;
                outcome.pushes += u32::from(done.pushed());
                outcome.solved = done.solved;
                continue;
            }
            Ok(_) => {
                outcome.moves += 1; // roll this one back too
                LurdError::PushMismatch {
                    offset,
                    step: step_index,
                    written_push: step.push,
                }
            }
            Err(reason) => LurdError::MoveRejected {
                offset,
                step: step_index,
                reason,
            },
        };
        for _ in 0..outcome.moves {
            // Every step applied above is one history entry.
            let _ = board.undo();
        }
        board.restore_redo(saved_redo);
        return Err(error);
    }
    if steps.is_empty() {
        board.restore_redo(saved_redo);
    }
    Ok(outcome)
}

/// Parses LURD, keeping each step's character offset.
fn parse_with_offsets(text: &str, topology: Topology) -> Result<Vec<(LurdStep, u32)>, LurdError> {
    let mut steps = Vec::with_capacity(text.len());
    for (index, character) in text.chars().enumerate() {
        let offset = u32::try_from(index).unwrap_or(u32::MAX);
        if character.is_whitespace() {
            continue;
        }
        match topology.read_letter(character) {
            Some((direction, push)) => steps.push((LurdStep { direction, push }, offset)),
            None => {
                return Err(LurdError::UnknownCharacter {
                    offset,
                    character,
                    letters: topology.letters(),
                })
            }
        }
    }
    Ok(steps)
}
