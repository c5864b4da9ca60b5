//! `StoreError`: every way a storage call can fail, with stable codes the server maps to HTTP.

/// What a [`StoreError`] result is.
pub type StoreResult<T> = Result<T, StoreError>;

/// Which uniqueness rule a write broke. The write changed nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// `(match, sequence)`: the sequence is taken, or is not the next one.
    Sequence {
        /// The match.
        match_id: String,
        /// The sequence the write asked for.
        sequence: u64,
        /// The match's last committed sequence when the write was refused.
        last_sequence: u64,
    },
    /// `(match, command id)`: the command id is already in the match's log.
    CommandId {
        /// The match.
        match_id: String,
        /// The command id.
        command_id: String,
    },
    /// `(game, revision)`: a different bundle is stored under this revision.
    ContentRevision {
        /// The game.
        game: String,
        /// The revision.
        revision: String,
    },
    /// A match with this id exists.
    MatchId {
        /// The match id.
        match_id: String,
    },
    /// `(match, command id)` in the idempotency table: a rejection is already remembered.
    Rejection {
        /// The match.
        match_id: String,
        /// The command id.
        command_id: String,
    },
}

impl Conflict {
    /// A stable name of the uniqueness rule: `match_sequence`, `match_command_id`,
    /// `content_revision`, `match_id` or `rejection_command_id`.
    pub fn uniqueness(&self) -> &'static str {
        match self {
            Conflict::Sequence { .. } => "match_sequence",
            Conflict::CommandId { .. } => "match_command_id",
            Conflict::ContentRevision { .. } => "content_revision",
            Conflict::MatchId { .. } => "match_id",
            Conflict::Rejection { .. } => "rejection_command_id",
        }
    }
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Conflict::Sequence {
                match_id,
                sequence,
                last_sequence,
            } => write!(
                f,
                "sequence {sequence} of match {match_id} is taken or not next (last is {last_sequence})"
            ),
            Conflict::CommandId {
                match_id,
                command_id,
            } => write!(f, "command id {command_id:?} is already in match {match_id}'s log"),
            Conflict::ContentRevision { game, revision } => write!(
                f,
                "a different bundle is stored for game {game} revision {revision}"
            ),
            Conflict::MatchId { match_id } => write!(f, "match {match_id} already exists"),
            Conflict::Rejection {
                match_id,
                command_id,
            } => write!(
                f,
                "a rejection of command id {command_id:?} is already remembered for match {match_id}"
            ),
        }
    }
}

/// Why a storage call failed. [`StoreError::code`] is stable.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum StoreError {
    /// A uniqueness rule refused the write (server: 409); nothing changed.
    #[error("conflict ({uniqueness}): {0}", uniqueness = .0.uniqueness())]
    Conflict(Conflict),
    /// What the call refers to does not exist (server: 404).
    #[error("not found: {0}")]
    NotFound(String),
    /// The database cannot be reached, refused or dropped the connection, is busy past the
    /// timeout, or the disk is full (server: 503). Retrying later may succeed; the store
    /// reconnects by itself.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// Stored data does not read back as written (bad JSON, out-of-range numbers, a damaged
    /// file).
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The schema cannot be brought to this build's version.
    #[error("migration failed: {0}")]
    Migration(String),
    /// The caller passed something the store cannot hold (e.g. a sequence above `i64::MAX`).
    #[error("invalid input to the store: {0}")]
    Invalid(String),
    /// The database reported an error that fits none of the above (a defect, most likely).
    #[error("database error: {0}")]
    Backend(String),
}

impl StoreError {
    /// The stable code: `conflict`, `not_found`, `unavailable`, `corrupt`, `migration`,
    /// `invalid` or `backend`.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::Conflict(_) => "conflict",
            StoreError::NotFound(_) => "not_found",
            StoreError::Unavailable(_) => "unavailable",
            StoreError::Corrupt(_) => "corrupt",
            StoreError::Migration(_) => "migration",
            StoreError::Invalid(_) => "invalid",
            StoreError::Backend(_) => "backend",
        }
    }

    /// The conflict, if this is one.
    pub fn conflict(&self) -> Option<&Conflict> {
        match self {
            StoreError::Conflict(c) => Some(c),
            _ => None,
        }
    }

    /// Whether this is `unavailable` (retry later; answer 503).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }
}

/// Converts a `u64` the engine uses into the `i64` both databases store.
pub(crate) fn to_i64(what: &str, value: u64) -> StoreResult<i64> {
    i64::try_from(value)
        .map_err(|_| StoreError::Invalid(format!("{what} {value} is above i64::MAX")))
}

/// Converts a stored `i64` back into the engine's `u64`.
pub(crate) fn to_u64(what: &str, value: i64) -> StoreResult<u64> {
    u64::try_from(value)
        .map_err(|_| StoreError::Corrupt(format!("stored {what} {value} is negative")))
}

/// Parses stored JSON text.
pub(crate) fn parse_json(what: &str, text: &str) -> StoreResult<serde_json::Value> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Corrupt(format!("stored {what} is not JSON: {e}")))
}

/// Serializes a value for storage.
pub(crate) fn json_text(value: &serde_json::Value) -> String {
    // A `Value` always serializes (its map keys are strings).
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}
