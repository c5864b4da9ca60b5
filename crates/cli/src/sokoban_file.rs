//! Level files given on the command line, turned into content a match can pin.
//!
//! A file may hold invalid levels next to valid ones. The match content is the file's valid
//! levels as one collection named after the file; [`LevelFile::config`] maps a level's number in
//! the file (from 1) to its number in that collection, which is what replays record.

use crate::exit::Outcome;
use std::path::Path;
use std::sync::Arc;
use turnstile_core::ContentBundle;
use turnstile_sokoban::{parse_level_file, Level, LevelError, SokobanConfig, SokobanContent};

/// A level file, parsed.
pub struct LevelFile {
    /// The collection id: the file's name without its extension.
    pub id: String,
    /// Every level in file order, valid or not.
    pub levels: Vec<Result<Level, Vec<LevelError>>>,
    /// The valid levels as content.
    pub bundle: Arc<ContentBundle<SokobanContent>>,
}

impl LevelFile {
    /// Reads and parses a file (an I/O error is exit code 3).
    pub fn read(path: &Path) -> Result<LevelFile, Outcome> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Outcome::input(format!("cannot read {}: {e}", path.display())))?;
        let name = path.display().to_string();
        let levels = parse_level_file(&text, &name).levels;
        let id = path
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| !s.is_empty())
            .unwrap_or("levels")
            .to_owned();
        let valid: Vec<Level> = levels
            .iter()
            .filter_map(|l| l.as_ref().ok())
            .cloned()
            .collect();
        let bundle = ContentBundle::new("sokoban", SokobanContent::single(&id, valid))
            .map_err(|p| Outcome::input(p.to_string()))?;
        Ok(LevelFile {
            id,
            levels,
            bundle: Arc::new(bundle),
        })
    }

    /// The match config for level `number` of the file (from 1): a usage error when out of
    /// range, a failed check when that level is invalid.
    pub fn config(&self, number: u32) -> Result<SokobanConfig, Outcome> {
        let count = self.levels.len();
        let index = usize::try_from(number)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|i| *i < count)
            .ok_or_else(|| {
                Outcome::usage(format!(
                    "level {number} does not exist: the file has levels 1 to {count}"
                ))
            })?;
        if let Err(errors) = &self.levels[index] {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            return Err(Outcome::check_failed(format!(
                "level {number} is invalid:\n{}",
                lines.join("\n")
            )));
        }
        let position = self.levels[..index].iter().filter(|l| l.is_ok()).count() as u32 + 1;
        Ok(SokobanConfig {
            collection: self.id.clone(),
            level: position,
        })
    }
}
