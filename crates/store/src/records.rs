//! The records the store keeps and hands back: plain data, JSON payloads left opaque.

use serde_json::Value;

/// A content bundle, immutable once stored, addressed by `(game, revision)`.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentRecord {
    /// The game's registry name.
    pub game: String,
    /// The bundle's revision (`sha256:...`, the fingerprint of its canonical form).
    pub revision: String,
    /// The bundle, as the engine serializes it.
    pub bundle: Value,
    /// When it was first stored (wall-clock ms). Ignored when comparing a re-put.
    pub created_at_ms: i64,
}

/// Whether [`crate::Store::put_content`] stored something new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutOutcome {
    /// The bundle was stored.
    Inserted,
    /// An equal bundle was already stored under this revision; nothing changed.
    AlreadyPresent,
}

/// The lifecycle of a match in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchStatus {
    /// Being played; timers and bots are armed for it after a restart.
    Active,
    /// Ended (outcome recorded); still served read-only.
    Finished,
    /// Idle past the configured age; kept, replay readable, no longer loaded at start.
    Archived,
}

impl MatchStatus {
    /// `active`, `finished` or `archived` — what the database column holds.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Active => "active",
            MatchStatus::Finished => "finished",
            MatchStatus::Archived => "archived",
        }
    }

    /// The inverse of [`MatchStatus::as_str`].
    pub fn parse(text: &str) -> Option<MatchStatus> {
        match text {
            "active" => Some(MatchStatus::Active),
            "finished" => Some(MatchStatus::Finished),
            "archived" => Some(MatchStatus::Archived),
            _ => None,
        }
    }
}

impl std::fmt::Display for MatchStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A match: what is needed to rebuild it (with its log) and to find it by token.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRecord {
    /// The match id (chosen by the server).
    pub id: String,
    /// The game's registry name.
    pub game: String,
    /// The match config, as the engine serializes it.
    pub config: Value,
    /// The pinned content revision; `(game, revision)` must be stored.
    pub revision: String,
    /// The match seed, as the replay format writes it.
    pub seed: String,
    /// The seats, as the engine serializes them.
    pub seats: Value,
    /// Ticks per second of this match's clock.
    pub tick_rate: u32,
    /// One entry per seat, in seat order: the hash of that seat's token, `None` for a seat
    /// without a token (a bot). Never the tokens themselves.
    pub seat_token_hashes: Vec<Option<String>>,
    /// The hash of the spectator token, if the match has one.
    pub spectator_token_hash: Option<String>,
    /// When the match was created (wall-clock ms at the edge); listing order.
    pub created_at_ms: i64,
    /// The lifecycle status.
    pub status: MatchStatus,
    /// The outcome once the match ended, as the engine serializes it.
    pub outcome: Option<Value>,
    /// The last time anything was recorded for the match (wall-clock ms): creation, an
    /// append, a status change. [`crate::Store::archive_idle`] reads it.
    pub last_activity_ms: i64,
}

/// A match with seats left open to be claimed ([`crate::Store::list_open_matches`]).
#[derive(Debug, Clone, PartialEq)]
pub struct OpenMatch {
    /// The match.
    pub record: MatchRecord,
    /// Its seats still open, in seat order.
    pub open_seats: Vec<u16>,
}

/// What [`crate::Store::claim_seat`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatClaim {
    /// This seat is now the claimant's (its token hash recorded, the seat no longer open).
    Claimed(u16),
    /// The match is active but has no open seat left (another claimant took the last one).
    NoOpenSeat,
    /// The match is finished or archived: nothing is claimed.
    NotActive,
}

/// One accepted command in a match's log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogRecord {
    /// The receipt's sequence: 1 for the first command, then +1 each.
    pub sequence: u64,
    /// The command id (the idempotency key, unique per match).
    pub command_id: String,
    /// The tick the command was stamped with.
    pub tick: u64,
    /// The command envelope, as the engine serializes it.
    pub envelope: Value,
    /// The receipt, as the engine serializes it.
    pub receipt: Value,
    /// When the server committed it (wall-clock ms); raises the match's last activity.
    pub recorded_at_ms: i64,
}

/// A [`LogRecord`] whose envelope and receipt are JSON text already (the engine's canonical
/// form), for [`crate::Store::append_json`]: stored as given, so the command path neither
/// parses them into values nor serializes them again. The text must be JSON; it is what a
/// later [`crate::Store::log`] parses back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonLogRecord {
    /// The receipt's sequence: 1 for the first command, then +1 each.
    pub sequence: u64,
    /// The command id (the idempotency key, unique per match).
    pub command_id: String,
    /// The tick the command was stamped with.
    pub tick: u64,
    /// The command envelope, JSON text.
    pub envelope: String,
    /// The receipt, JSON text.
    pub receipt: String,
    /// When the server committed it (wall-clock ms); raises the match's last activity.
    pub recorded_at_ms: i64,
}

/// What happened to one entry of [`crate::Store::append_many`].
pub type AppendOutcome = Result<(), crate::StoreError>;

/// A rule rejection remembered under its command id (the idempotency table).
#[derive(Debug, Clone, PartialEq)]
pub struct RejectionRecord {
    /// The command id.
    pub command_id: String,
    /// The seat the command spoke for (`None` for a system command).
    pub seat: Option<u32>,
    /// The fingerprint of the command's action, so a reused id with a different action can be
    /// told apart.
    pub action_fingerprint: String,
    /// The rejection (code, message, details), as the engine serializes it.
    pub rejection: Value,
    /// When it was remembered (wall-clock ms).
    pub recorded_at_ms: i64,
}

/// A snapshot of a match's state after `sequence`, for loading without replaying everything.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRecord {
    /// The sequence of the last command applied (0: the initial state).
    pub sequence: u64,
    /// The match tick at that point.
    pub tick: u64,
    /// The state fingerprint after `sequence`.
    pub state_fingerprint: String,
    /// The hash of the receipt at `sequence` (`None` at sequence 0).
    pub last_receipt_hash: Option<String>,
    /// The state, as the engine serializes it.
    pub state: Value,
}

/// A lease on a match: which node serves it, until when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseRecord {
    /// The match.
    pub match_id: String,
    /// The holder.
    pub node_id: String,
    /// Wall-clock ms at which the lease lapses (0 once released).
    pub expires_at_ms: i64,
    /// The match tick at the holder's last heartbeat.
    pub last_heartbeat_tick: u64,
}

/// The answer of [`crate::Store::try_acquire_lease`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaseOutcome {
    /// The caller holds the lease now.
    Acquired {
        /// The lease as now stored.
        lease: LeaseRecord,
        /// The lease it replaced, when that one had expired or was released (its holder may
        /// be the caller itself, after a restart): the match was unserved since
        /// `previous.last_heartbeat_tick`, so the server records `ClockResumed`. `None` when
        /// there was no lease or the caller's own lease was still running.
        previous: Option<LeaseRecord>,
    },
    /// Another node holds an unexpired lease.
    Held(LeaseRecord),
}

/// One commit, as notified to subscribers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitNotice {
    /// The match.
    pub match_id: String,
    /// The sequence just committed.
    pub sequence: u64,
}

/// What [`crate::Store::subscribe`] receivers get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notification {
    /// A record was committed (by this node or another).
    Commit(CommitNotice),
    /// The notification connection was lost and re-established: commits in between may not
    /// have been notified. Reload (from the log) every match you follow.
    Gap,
}
