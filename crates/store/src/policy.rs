//! The store's policy, once for every backend: how records are encoded into and decoded from
//! the columns both databases share, how an append is prepared and why one is refused, and
//! who gets a lease. The backends only run SQL; keeping the decisions here means SQLite and
//! PostgreSQL cannot drift apart (one node on SQLite and a cluster on PostgreSQL must agree
//! on every refusal and every lease a client can observe).

use crate::error::{json_text, parse_json, to_i64, to_u64};
use crate::records::*;
use crate::{Conflict, StoreError, StoreResult};

/// The columns of `matches`, in the order [`decode_match`] takes them.
pub(crate) const MATCH_COLUMNS: &str = "id, game, config, revision, seed, seats, tick_rate, \
    seat_token_hashes, spectator_token_hash, created_at_ms, status, outcome, last_activity_ms";

/// The columns of `command_log`, in the order [`decode_log`] takes them.
pub(crate) const LOG_COLUMNS: &str =
    "sequence, command_id, tick, envelope, receipt, recorded_at_ms";

/// The columns of `snapshots`, in the order [`decode_snapshot`] takes them.
pub(crate) const SNAPSHOT_COLUMNS: &str =
    "sequence, tick, state_fingerprint, last_receipt_hash, state";

pub(crate) fn decode_token_hashes(text: &str) -> StoreResult<Vec<Option<String>>> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Corrupt(format!("stored seat token hashes: {e}")))
}

pub(crate) fn encode_token_hashes(hashes: &[Option<String>]) -> String {
    serde_json::to_string(hashes).unwrap_or_else(|_| "[]".to_owned())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn decode_match(
    id: String,
    game: String,
    config: &str,
    revision: String,
    seed: String,
    seats: &str,
    tick_rate: i64,
    seat_token_hashes: &str,
    spectator_token_hash: Option<String>,
    created_at_ms: i64,
    status: &str,
    outcome: Option<&str>,
    last_activity_ms: i64,
) -> StoreResult<MatchRecord> {
    Ok(MatchRecord {
        config: parse_json("match config", config)?,
        seats: parse_json("match seats", seats)?,
        tick_rate: u32::try_from(tick_rate)
            .map_err(|_| StoreError::Corrupt(format!("stored tick rate {tick_rate}")))?,
        seat_token_hashes: decode_token_hashes(seat_token_hashes)?,
        status: MatchStatus::parse(status)
            .ok_or_else(|| StoreError::Corrupt(format!("stored match status {status:?}")))?,
        outcome: outcome
            .map(|o| parse_json("match outcome", o))
            .transpose()?,
        id,
        game,
        revision,
        seed,
        spectator_token_hash,
        created_at_ms,
        last_activity_ms,
    })
}

/// A log row as both databases hand it back: sequence, command id, tick, envelope, receipt,
/// recorded-at.
pub(crate) type RawLog = (i64, String, i64, String, String, i64);

/// Decodes a log row.
pub(crate) fn decode_log(raw: RawLog) -> StoreResult<LogRecord> {
    Ok(LogRecord {
        sequence: to_u64("sequence", raw.0)?,
        command_id: raw.1,
        tick: to_u64("tick", raw.2)?,
        envelope: parse_json("envelope", &raw.3)?,
        receipt: parse_json("receipt", &raw.4)?,
        recorded_at_ms: raw.5,
    })
}

/// A snapshot row: sequence, tick, state fingerprint, last receipt hash, state.
pub(crate) type RawSnapshot = (i64, i64, String, Option<String>, String);

/// Decodes a snapshot row.
pub(crate) fn decode_snapshot(raw: RawSnapshot) -> StoreResult<SnapshotRecord> {
    Ok(SnapshotRecord {
        sequence: to_u64("snapshot sequence", raw.0)?,
        tick: to_u64("snapshot tick", raw.1)?,
        state_fingerprint: raw.2,
        last_receipt_hash: raw.3,
        state: parse_json("snapshot state", &raw.4)?,
    })
}

/// Decodes a lease row: match id, node id, expiry (wall-clock ms), last heartbeat tick.
pub(crate) fn decode_lease(raw: (String, String, i64, i64)) -> StoreResult<LeaseRecord> {
    Ok(LeaseRecord {
        match_id: raw.0,
        node_id: raw.1,
        expires_at_ms: raw.2,
        last_heartbeat_tick: to_u64("heartbeat tick", raw.3)?,
    })
}

/// What [`crate::Store::try_acquire_lease`] does, given the lease stored now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LeaseDecision {
    /// Another node holds an unexpired lease: answer `Held`, write nothing.
    Held(LeaseRecord),
    /// Write the caller's lease; `previous` is the expired (or released) lease it replaces —
    /// another node's, or an earlier process of this node's — and `None` when the caller
    /// merely renews its own live lease.
    Take {
        /// The lease replaced after it lapsed, for the takeover's ClockResumed.
        previous: Option<LeaseRecord>,
    },
}

/// The lease decision: a live lease of another node wins; a live lease of the caller is
/// renewed; a lapsed or released lease (expiry at or before `now_ms`) is taken over.
pub(crate) fn decide_lease(
    current: Option<LeaseRecord>,
    node_id: &str,
    now_ms: i64,
) -> LeaseDecision {
    match current {
        Some(lease) if lease.expires_at_ms > now_ms && lease.node_id != node_id => {
            LeaseDecision::Held(lease)
        }
        Some(lease) if lease.expires_at_ms > now_ms => LeaseDecision::Take { previous: None },
        other => LeaseDecision::Take { previous: other },
    }
}

/// The lease a successful acquisition or renewal writes.
pub(crate) fn granted_lease(
    match_id: &str,
    node_id: &str,
    now_ms: i64,
    ttl_ms: i64,
    heartbeat_tick: u64,
) -> LeaseRecord {
    LeaseRecord {
        match_id: match_id.to_owned(),
        node_id: node_id.to_owned(),
        expires_at_ms: now_ms.saturating_add(ttl_ms),
        last_heartbeat_tick: heartbeat_tick,
    }
}

/// A log record made ready for the database on the caller's thread (JSON serialized,
/// numbers range-checked), so the single writer thread only writes.
#[derive(Debug, Clone)]
pub(crate) struct PreparedAppend {
    pub(crate) match_id: String,
    pub(crate) sequence: u64,
    pub(crate) sequence_i64: i64,
    pub(crate) command_id: String,
    pub(crate) tick: i64,
    pub(crate) envelope: String,
    pub(crate) receipt: String,
    pub(crate) recorded_at_ms: i64,
}

impl PreparedAppend {
    pub(crate) fn new(match_id: &str, record: &LogRecord) -> StoreResult<PreparedAppend> {
        Ok(PreparedAppend {
            match_id: match_id.to_owned(),
            sequence: record.sequence,
            sequence_i64: to_i64("sequence", record.sequence)?,
            command_id: record.command_id.clone(),
            tick: to_i64("tick", record.tick)?,
            envelope: json_text(&record.envelope),
            receipt: json_text(&record.receipt),
            recorded_at_ms: record.recorded_at_ms,
        })
    }

    /// A record whose JSON is text already: taken as it is.
    pub(crate) fn from_json(match_id: &str, record: JsonLogRecord) -> StoreResult<PreparedAppend> {
        Ok(PreparedAppend {
            match_id: match_id.to_owned(),
            sequence: record.sequence,
            sequence_i64: to_i64("sequence", record.sequence)?,
            command_id: record.command_id,
            tick: to_i64("tick", record.tick)?,
            envelope: record.envelope,
            receipt: record.receipt,
            recorded_at_ms: record.recorded_at_ms,
        })
    }

    /// Why this append was refused, given what the database holds now; `None` if nothing
    /// refuses it.
    pub(crate) fn refusal(
        &self,
        match_exists: bool,
        command_taken: bool,
        last_sequence: u64,
    ) -> Option<StoreError> {
        if !match_exists {
            return Some(StoreError::NotFound(format!("match {}", self.match_id)));
        }
        if command_taken {
            return Some(StoreError::Conflict(Conflict::CommandId {
                match_id: self.match_id.clone(),
                command_id: self.command_id.clone(),
            }));
        }
        if Some(self.sequence) != last_sequence.checked_add(1) {
            return Some(StoreError::Conflict(Conflict::Sequence {
                match_id: self.match_id.clone(),
                sequence: self.sequence,
                last_sequence,
            }));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lease(node: &str, expires_at_ms: i64) -> LeaseRecord {
        LeaseRecord {
            match_id: "m".into(),
            node_id: node.into(),
            expires_at_ms,
            last_heartbeat_tick: 7,
        }
    }

    #[test]
    fn a_live_lease_of_another_node_is_held() {
        let current = lease("a", 1_000);
        assert_eq!(
            decide_lease(Some(current.clone()), "b", 999),
            LeaseDecision::Held(current)
        );
    }

    #[test]
    fn a_live_lease_of_the_caller_is_renewed_without_a_previous_holder() {
        assert_eq!(
            decide_lease(Some(lease("a", 1_000)), "a", 999),
            LeaseDecision::Take { previous: None }
        );
    }

    #[test]
    fn a_lapsed_or_released_lease_is_taken_over_and_reported() {
        for (node, expiry) in [("a", 1_000), ("b", 1_000), ("a", 0)] {
            let current = lease(node, expiry);
            assert_eq!(
                decide_lease(Some(current.clone()), "b", 1_000),
                LeaseDecision::Take {
                    previous: Some(current)
                }
            );
        }
        assert_eq!(
            decide_lease(None, "b", 5),
            LeaseDecision::Take { previous: None }
        );
    }

    fn record(sequence: u64) -> LogRecord {
        LogRecord {
            sequence,
            command_id: "c1".into(),
            tick: 3,
            envelope: serde_json::json!({"a": 1}),
            receipt: serde_json::json!({"b": 2}),
            recorded_at_ms: 9,
        }
    }

    #[test]
    fn append_refusals_come_in_one_order() {
        let a = PreparedAppend::new("m", &record(4)).expect("prepares");
        assert!(matches!(
            a.refusal(false, true, 9),
            Some(StoreError::NotFound(_))
        ));
        assert!(matches!(
            a.refusal(true, true, 9),
            Some(StoreError::Conflict(Conflict::CommandId { .. }))
        ));
        assert!(matches!(
            a.refusal(true, false, 9),
            Some(StoreError::Conflict(Conflict::Sequence {
                last_sequence: 9,
                sequence: 4,
                ..
            }))
        ));
        assert!(a.refusal(true, false, 3).is_none());
    }

    #[test]
    fn a_prepared_append_decodes_back_to_its_record() {
        let r = record(4);
        let a = PreparedAppend::new("m", &r).expect("prepares");
        let back = decode_log((
            a.sequence_i64,
            a.command_id.clone(),
            a.tick,
            a.envelope.clone(),
            a.receipt.clone(),
            a.recorded_at_ms,
        ))
        .expect("decodes");
        assert_eq!(back, r);
    }

    #[test]
    fn out_of_range_numbers_are_refused_not_wrapped() {
        let mut r = record(u64::MAX);
        assert!(matches!(
            PreparedAppend::new("m", &r),
            Err(StoreError::Invalid(_))
        ));
        r.sequence = 1;
        assert!(matches!(
            decode_log((-1, "c".into(), 0, "{}".into(), "{}".into(), 0)),
            Err(StoreError::Corrupt(_))
        ));
    }
}

/// The seats a new match leaves open to be claimed (`POST …/join`): each human seat created
/// without a token. A bot seat has no token either, so the kind tells them apart (`seats` is
/// the engine's seat list, `[{"kind": "human" | "bot", ...}]`).
pub(crate) fn open_seats_at_creation(record: &MatchRecord) -> Vec<u16> {
    let kinds: Vec<Option<&str>> = record
        .seats
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .map(|s| s.get("kind").and_then(serde_json::Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    record
        .seat_token_hashes
        .iter()
        .enumerate()
        .filter(|(i, hash)| hash.is_none() && kinds.get(*i).copied().flatten() == Some("human"))
        .filter_map(|(i, _)| u16::try_from(i).ok())
        .collect()
}

/// What a seat claim writes, decided from the match row (locked by the backend for the
/// transaction) and its lowest open seat.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ClaimDecision {
    /// Write nothing and answer this.
    Refuse(SeatClaim),
    /// Give `seat` to the claimant: store `hashes` (the seat's token hash set) and drop the
    /// seat from `open_seats`.
    Take {
        /// The seat claimed.
        seat: u16,
        /// The new `seat_token_hashes` column.
        hashes: String,
    },
}

/// Decides a claim: only an active match gives seats, and only a seat still open (no token
/// hash yet — a row in `open_seats` whose hash is set would be a corrupt store).
pub(crate) fn decide_claim(
    status: &str,
    hashes: &str,
    lowest_open: Option<i64>,
    token_hash: &str,
) -> StoreResult<ClaimDecision> {
    if MatchStatus::parse(status) != Some(MatchStatus::Active) {
        return Ok(ClaimDecision::Refuse(SeatClaim::NotActive));
    }
    let Some(seat) = lowest_open else {
        return Ok(ClaimDecision::Refuse(SeatClaim::NoOpenSeat));
    };
    let seat =
        u16::try_from(seat).map_err(|_| StoreError::Corrupt(format!("stored open seat {seat}")))?;
    let mut hashes = decode_token_hashes(hashes)?;
    match hashes.get_mut(usize::from(seat)) {
        Some(slot @ None) => *slot = Some(token_hash.to_owned()),
        _ => {
            return Err(StoreError::Corrupt(format!(
                "open seat {seat} already has a token or does not exist"
            )))
        }
    }
    Ok(ClaimDecision::Take {
        seat,
        hashes: encode_token_hashes(&hashes),
    })
}

/// Seat numbers as both databases hand them back, checked.
pub(crate) fn decode_seats(raw: Vec<i64>) -> StoreResult<Vec<u16>> {
    raw.into_iter()
        .map(|s| u16::try_from(s).map_err(|_| StoreError::Corrupt(format!("stored seat {s}"))))
        .collect()
}
