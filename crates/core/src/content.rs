//! Content bundles: a game's data, parsed into types, validated all at once, and addressed by
//! revision.
//!
//! A bundle is a folder `games/<game>/content/` holding a `bundle.json` manifest and the files it
//! names. This module never touches a disk: the edge (the CLI, the server, a test) reads the
//! folder into a [`BundleSource`], and the game turns it into its typed content. Loading reports
//! **every** problem it finds, each with the file and a JSON pointer, a line and column, or a row
//! and column, never only the first.
//!
//! The revision of a bundle is the fingerprint of the canonical JSON of the *typed* bundle
//! (`{"content": ..., "game": ...}`), so reformatting a file or reordering JSON keys does not
//! change it, while any change of meaning does.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use turnstile_determinism::Fingerprint;

/// The name of the manifest file at the root of every bundle.
pub const MANIFEST_FILE: &str = "bundle.json";

/// The files of a bundle as read from somewhere (a folder, a request body, a test), keyed by
/// their path relative to the bundle root with `/` separators.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BundleSource {
    /// Path → bytes.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl BundleSource {
    /// An empty source.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file.
    pub fn insert(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), bytes.into());
    }

    /// A file's text, or a problem naming it when it is missing or not UTF-8.
    pub fn text(&self, path: &str) -> Result<&str, ContentProblem> {
        let bytes = self.files.get(path).ok_or_else(|| {
            ContentProblem::new(
                path,
                Location::File,
                "missing_file",
                "the manifest names this file but the bundle does not contain it",
            )
        })?;
        std::str::from_utf8(bytes).map_err(|e| {
            ContentProblem::new(
                path,
                Location::File,
                "not_utf8",
                format!(
                    "the file is not UTF-8 text (invalid byte at offset {})",
                    e.valid_up_to()
                ),
            )
        })
    }

    /// Parses a JSON file into `T`, reporting a syntax or type error with its line and column.
    pub fn json<T: DeserializeOwned>(&self, path: &str) -> Result<T, ContentProblem> {
        let text = self.text(path)?;
        serde_json::from_str(text).map_err(|e| {
            ContentProblem::new(
                path,
                Location::LineColumn {
                    line: e.line() as u32,
                    column: e.column() as u32,
                },
                if e.is_syntax() || e.is_eof() {
                    "malformed_json"
                } else {
                    "invalid_value"
                },
                e.to_string(),
            )
        })
    }
}

/// Where in a file a problem is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Location {
    /// The file as a whole (missing, unreadable, not text).
    File,
    /// A JSON pointer (RFC 6901) into a JSON file.
    Pointer {
        /// For example `/files/2/kind`.
        pointer: String,
    },
    /// A line and column of a text file, both from 1.
    LineColumn {
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        column: u32,
    },
    /// A row and named column of a tab-separated sheet; rows from 1, the header being row 1.
    RowColumn {
        /// Row, from 1.
        row: u32,
        /// Column name.
        column: String,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File => Ok(()),
            Location::Pointer { pointer } => write!(f, "#{pointer}"),
            Location::LineColumn { line, column } => write!(f, ":{line}:{column}"),
            Location::RowColumn { row, column } => write!(f, ": row {row}, column {column}"),
        }
    }
}

/// One problem found while loading content.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentProblem {
    /// The file, relative to the bundle root.
    pub file: String,
    /// Where in it.
    pub at: Location,
    /// Stable code, `snake_case`.
    pub code: String,
    /// What is wrong and why, for a person.
    pub message: String,
}

impl ContentProblem {
    /// A problem.
    pub fn new(
        file: impl Into<String>,
        at: Location,
        code: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ContentProblem {
            file: file.into(),
            at,
            code: code.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ContentProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}: {} ({})",
            self.file, self.at, self.message, self.code
        )
    }
}

/// The `bundle.json` manifest: which game the bundle is for and which files it holds.
///
/// ```json
/// { "game": "sokoban", "title": "Bundled levels",
///   "files": [ { "id": "microban", "kind": "levels", "path": "levels/microban.xsb" } ] }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BundleManifest {
    /// The game id the bundle is for.
    pub game: String,
    /// A title for people.
    #[serde(default)]
    pub title: Option<String>,
    /// The files, in the order the game should read them.
    pub files: Vec<ManifestFile>,
}

/// One file named by a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManifestFile {
    /// The id content refers to this file by (a collection name, a sheet name).
    pub id: String,
    /// What the file holds; each game names the kinds it reads.
    pub kind: String,
    /// The path relative to the bundle root, with `/` separators.
    pub path: String,
}

impl BundleManifest {
    /// Reads and checks the manifest of a source: the game id must be `expected_game` (when
    /// given), ids must be unique, paths relative and present, kinds among `known_kinds`.
    pub fn read(
        source: &BundleSource,
        expected_game: Option<&str>,
        known_kinds: &[&str],
    ) -> Result<BundleManifest, Vec<ContentProblem>> {
        let manifest: BundleManifest = source.json(MANIFEST_FILE).map_err(|p| vec![p])?;
        let mut problems = Vec::new();
        let at = |pointer: String| Location::Pointer { pointer };
        if let Some(game) = expected_game {
            if manifest.game != game {
                problems.push(ContentProblem::new(
                    MANIFEST_FILE,
                    at("/game".into()),
                    "wrong_game",
                    format!(
                        "the bundle is for game {:?}, expected {:?}",
                        manifest.game, game
                    ),
                ));
            }
        }
        let mut seen = BTreeMap::new();
        for (i, file) in manifest.files.iter().enumerate() {
            if let Some(first) = seen.insert(file.id.as_str(), i) {
                problems.push(ContentProblem::new(
                    MANIFEST_FILE,
                    at(format!("/files/{i}/id")),
                    "duplicate_id",
                    format!("file id {:?} is already used by /files/{first}", file.id),
                ));
            }
            if file.id.is_empty() {
                problems.push(ContentProblem::new(
                    MANIFEST_FILE,
                    at(format!("/files/{i}/id")),
                    "empty_id",
                    "a file id must not be empty",
                ));
            }
            if !known_kinds.contains(&file.kind.as_str()) {
                problems.push(ContentProblem::new(
                    MANIFEST_FILE,
                    at(format!("/files/{i}/kind")),
                    "unknown_kind",
                    format!(
                        "unknown file kind {:?}; this game reads {:?}",
                        file.kind, known_kinds
                    ),
                ));
            }
            if file.path.starts_with('/')
                || file.path.contains('\\')
                || file
                    .path
                    .split('/')
                    .any(|part| part == ".." || part.is_empty())
            {
                problems.push(ContentProblem::new(
                    MANIFEST_FILE,
                    at(format!("/files/{i}/path")),
                    "bad_path",
                    format!(
                        "path {:?} must be relative, with `/` separators and no `..`",
                        file.path
                    ),
                ));
            } else if !source.files.contains_key(&file.path) {
                problems.push(ContentProblem::new(
                    MANIFEST_FILE,
                    at(format!("/files/{i}/path")),
                    "missing_file",
                    format!("{:?} is not in the bundle", file.path),
                ));
            }
        }
        if problems.is_empty() {
            Ok(manifest)
        } else {
            Err(problems)
        }
    }
}

/// A typed content bundle with its revision: what a match pins.
///
/// The canonical JSON of this value minus its revision — `{"content": ..., "game": ...}` — is
/// what the revision fingerprints, and what a replay file embeds as its `bundle`.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentBundle<C> {
    /// The game id.
    pub game: String,
    /// The typed content.
    pub content: C,
    /// The fingerprint of the canonical form of `{content, game}`.
    pub revision: Fingerprint,
}

/// The part of a bundle that its revision covers, in the shape replays embed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedBundle<C> {
    /// The typed content.
    pub content: C,
    /// The game id.
    pub game: String,
}

impl<C: Serialize> ContentBundle<C> {
    /// Wraps typed content, computing its revision.
    pub fn new(game: impl Into<String>, content: C) -> Result<Self, ContentProblem> {
        let game = game.into();
        let revision = revision_of(&game, &content)?;
        Ok(ContentBundle {
            game,
            content,
            revision,
        })
    }
}

/// The revision of typed content: the fingerprint of `{"content": content, "game": game}`.
pub fn revision_of<C: Serialize>(game: &str, content: &C) -> Result<Fingerprint, ContentProblem> {
    #[derive(Serialize)]
    struct Ref<'a, C> {
        content: &'a C,
        game: &'a str,
    }
    Fingerprint::of(&Ref { content, game }).map_err(|e| {
        ContentProblem::new(
            MANIFEST_FILE,
            Location::File,
            "not_canonical",
            format!("the typed content has no canonical form: {e}"),
        )
    })
}
