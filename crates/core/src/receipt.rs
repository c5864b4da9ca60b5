//! Receipts: the engine's signed statement of what one accepted command did.
//!
//! A receipt names the command (sequence, id, seat, tick, action), what it caused (events), the
//! state fingerprints before and after, the fingerprint of each viewer's view after, and a hash
//! chained to the previous receipt's. The hash covers exactly
//! `{sequence, commandId, seat, tick, action, events, before, after, previous}` in canonical JSON,
//! so anyone holding a log can recompute the chain and see that nothing was changed, dropped or
//! reordered.
//!
//! From format 2 on, `events` in the hashed fields is the *sealed* list
//! ([`Sealed`](crate::commitment::Sealed)): an event some viewer may not see whole enters the
//! hash as its salted commitment, so a redacted receipt can carry the commitment and its holder
//! still recompute the hash, while nobody can test guesses of the hidden value against it
//! (docs/commitments.md). Games without hidden events hash exactly as in format 1.

use crate::ids::{Seat, Sequence, Tick};
use serde::{Deserialize, Serialize};
use turnstile_determinism::canonical::CanonicalWriter;
use turnstile_determinism::{CanonicalError, Fingerprint, Fingerprinter};

/// The view fingerprints after a command: one per seat, and the spectators'.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewFingerprints {
    /// Seat `i`'s view at index `i`.
    pub seats: Vec<Fingerprint>,
    /// What a spectator sees.
    pub spectator: Fingerprint,
}

/// One accepted command and its consequences.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt<A, E> {
    /// Position in the log, from 1.
    pub sequence: Sequence,
    /// The command's idempotency key.
    pub command_id: String,
    /// The seat it spoke for; `null` for system commands.
    pub seat: Option<Seat>,
    /// The tick it was accepted at: the server's tick for the match when it stamped the
    /// command (a Timeout's deadline for a Timeout).
    pub tick: Tick,
    /// The current turn's deadline after the command (format 2; `None` when no turn can time
    /// out now, and always in format 1): with `tick` and the match's tick rate, what a client
    /// needs for the fair timer (spec/turns.md) from the receipt alone. Hashed when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_tick: Option<Tick>,
    /// The action as accepted.
    pub action: A,
    /// What happened, in order.
    pub events: Vec<E>,
    /// State fingerprint before.
    pub before: Fingerprint,
    /// State fingerprint after.
    pub after: Fingerprint,
    /// View fingerprints after.
    pub views: ViewFingerprints,
    /// The previous receipt's hash, `null` for the first.
    pub previous: Option<Fingerprint>,
    /// This receipt's hash.
    pub hash: Fingerprint,
}

/// The fields a receipt hash covers, borrowed; `events` is the full list in format 1 and the
/// sealed list in format 2.
///
/// The fields are declared in canonical key order (`action`, `after`, `before`, `commandId`,
/// `deadlineTick`, `events`, `previous`, `seat`, `sequence`, `tick`): the canonical writer
/// sorts whatever order they come in, so the hashed bytes are the same either way, but in
/// this order they are written once, in place, instead of being written and then reordered
/// (a copy of the ~600 bytes and a sort, for every receipt).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HashedFields<'a, A, E> {
    /// The action.
    pub action: &'a A,
    /// State fingerprint after.
    pub after: &'a Fingerprint,
    /// State fingerprint before.
    pub before: &'a Fingerprint,
    /// The command id.
    pub command_id: &'a str,
    /// The deadline after the command, left out when `None` (so format-1 hashes are unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline_tick: Option<Tick>,
    /// The events as hashed (full in format 1, sealed in format 2).
    pub events: &'a [E],
    /// The previous hash.
    pub previous: Option<&'a Fingerprint>,
    /// The seat, `null` for system commands.
    pub seat: Option<Seat>,
    /// Position in the log.
    pub sequence: Sequence,
    /// The tick.
    pub tick: Tick,
}

impl<A: Serialize, E: Serialize> HashedFields<'_, A, E> {
    /// The hash of these fields.
    pub fn hash_with(
        &self,
        fingerprinter: &mut Fingerprinter,
    ) -> Result<Fingerprint, CanonicalError> {
        fingerprinter.fingerprint_with(|writer| self.write_canonical(writer))
    }

    /// Writes exactly the canonical bytes of these fields' `Serialize` form, by hand: every
    /// receipt is hashed over them, and the shape is fixed. The keys are literals in canonical
    /// order (no ordering bookkeeping, no escaping scan), the fingerprints are copied as their
    /// text, and only the action and the events go through `serde`. A property test holds it
    /// to the `Serialize` form (`tests/hashed_fields.rs`).
    pub fn write_canonical(&self, writer: &mut CanonicalWriter) -> Result<(), CanonicalError> {
        self.write_canonical_with(writer, |event, writer| writer.value(event))
    }

    /// The hash of these fields, each event written by `write_event`, which must write exactly
    /// the event's canonical bytes (a game's [`Game::write_event`](crate::Game::write_event)).
    pub fn hash_with_events(
        &self,
        fingerprinter: &mut Fingerprinter,
        write_event: impl Fn(&E, &mut CanonicalWriter) -> Result<(), CanonicalError>,
    ) -> Result<Fingerprint, CanonicalError> {
        fingerprinter.fingerprint_with(|writer| self.write_canonical_with(writer, write_event))
    }

    /// [`HashedFields::write_canonical`] with each event written by `write_event`.
    pub fn write_canonical_with(
        &self,
        writer: &mut CanonicalWriter,
        write_event: impl Fn(&E, &mut CanonicalWriter) -> Result<(), CanonicalError>,
    ) -> Result<(), CanonicalError> {
        writer.raw(b"{\"action\":");
        writer.value(self.action)?;
        writer.raw(b",\"after\":");
        self.after.write_canonical(writer);
        writer.raw(b",\"before\":");
        self.before.write_canonical(writer);
        writer.raw(b",\"commandId\":");
        writer.string(self.command_id);
        if let Some(deadline) = self.deadline_tick {
            writer.raw(b",\"deadlineTick\":");
            writer.uint(deadline);
        }
        writer.raw(b",\"events\":[");
        for (i, event) in self.events.iter().enumerate() {
            if i > 0 {
                writer.raw(b",");
            }
            write_event(event, writer)?;
        }
        writer.raw(b"]");
        writer.raw(b",\"previous\":");
        match self.previous {
            Some(previous) => previous.write_canonical(writer),
            None => writer.raw(b"null"),
        }
        writer.raw(b",\"seat\":");
        match self.seat {
            Some(seat) => writer.uint(u64::from(seat.0)),
            None => writer.raw(b"null"),
        }
        writer.raw(b",\"sequence\":");
        writer.uint(self.sequence);
        writer.raw(b",\"tick\":");
        writer.uint(self.tick);
        writer.raw(b"}");
        Ok(())
    }
}

impl<A: Serialize, E: Serialize> Receipt<A, E> {
    /// The hash of this receipt's fields with `events` replaced by `sealed` (format 2).
    pub fn compute_sealed_hash_with<S: Serialize>(
        &self,
        sealed: &[S],
        fingerprinter: &mut Fingerprinter,
    ) -> Result<Fingerprint, CanonicalError> {
        HashedFields {
            sequence: self.sequence,
            command_id: &self.command_id,
            seat: self.seat,
            tick: self.tick,
            deadline_tick: self.deadline_tick,
            action: &self.action,
            events: sealed,
            before: &self.before,
            after: &self.after,
            previous: self.previous.as_ref(),
        }
        .hash_with(fingerprinter)
    }

    /// Recomputes this receipt's hash from its fields as format 1 hashed them (every event in
    /// the clear), ignoring the stored `hash`.
    pub fn compute_hash(&self) -> Result<Fingerprint, CanonicalError> {
        self.compute_hash_with(&mut Fingerprinter::new())
    }

    /// [`Receipt::compute_hash`] with a reusable fingerprinter, for hot loops.
    pub fn compute_hash_with(
        &self,
        fingerprinter: &mut Fingerprinter,
    ) -> Result<Fingerprint, CanonicalError> {
        HashedFields {
            sequence: self.sequence,
            command_id: &self.command_id,
            seat: self.seat,
            tick: self.tick,
            deadline_tick: self.deadline_tick,
            action: &self.action,
            events: &self.events,
            before: &self.before,
            after: &self.after,
            previous: self.previous.as_ref(),
        }
        .hash_with(fingerprinter)
    }
}
