//! Salted commitments: how a hidden value enters a receipt hash or a state fingerprint without
//! being recoverable by trying values (receipt format 2, docs/commitments.md).
//!
//! Format 1 hashed hidden values in the clear: a redacted receipt kept the hash of the
//! unredacted one, so filling a redacted card with each of a deck's 32 card ids and hashing
//! found the one that matched. Format 2 hashes a *commitment* instead,
//! `SHA-256(canonical {"salt": salt, "value": value})`, whose salt derives from the match's
//! [`MatchSecret`] and the value's position (purpose, sequence, index). Without the secret a
//! commitment is a random-looking 32 bytes whatever the value's domain; with it (released in the
//! full replay when the match ends) anyone recomputes every commitment bit for bit.

use serde::{Deserialize, Serialize};
use turnstile_determinism::{CanonicalError, Fingerprint};

/// The receipt/state format this engine writes: 3 since receipts leave signals out and states
/// are fingerprinted in their lean form (docs/replay.md, "Formats").
pub const RECEIPT_FORMAT: u64 = 3;

/// Which rules turn a receipt's hidden parts into hashed bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReceiptFormat {
    /// Format 1 (releases before commitments): hidden values hashed in the clear. Read, never
    /// written by new matches.
    V1,
    /// Format 2: hidden events and hidden-information states enter hashes as salted
    /// commitments. Read, never written by new matches.
    V2,
    /// Format 3: as format 2, and a receipt leaves out the events that are signals (bookkeeping
    /// only the rules need, [`Game::is_signal`](crate::Game::is_signal)), and a state is
    /// fingerprinted in the game's lean form ([`Game::fingerprint_form`](crate::Game::fingerprint_form)).
    V3,
}

impl ReceiptFormat {
    /// The format's number in replay files.
    pub fn number(self) -> u64 {
        match self {
            ReceiptFormat::V1 => 1,
            ReceiptFormat::V2 => 2,
            ReceiptFormat::V3 => 3,
        }
    }

    /// The format with this number, if this engine reads it.
    pub fn from_number(number: u64) -> Option<Self> {
        match number {
            1 => Some(ReceiptFormat::V1),
            2 => Some(ReceiptFormat::V2),
            3 => Some(ReceiptFormat::V3),
            _ => None,
        }
    }

    /// Whether hidden parts enter hashes as salted commitments (format 2 on).
    pub fn seals_hidden(self) -> bool {
        self >= ReceiptFormat::V2
    }

    /// Whether receipts record the deadline the command left (format 2 on).
    pub fn records_deadline(self) -> bool {
        self >= ReceiptFormat::V2
    }

    /// Whether receipts leave signals out and states are fingerprinted in their lean form
    /// (format 3 on).
    pub fn is_lean(self) -> bool {
        self >= ReceiptFormat::V3
    }
}

/// A match's commitment secret: every salt of the match derives from it. It is derived from the
/// match seed, which already decides every hidden value of the match (deck orders, draws,
/// chance), is kept server-side with the match and released with the full replay when the match
/// ends — so the secret is exactly as secret as the hidden values themselves, no more and no
/// less, and needs no storage of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MatchSecret(Fingerprint);

impl std::fmt::Debug for MatchSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the secret itself: debug output ends up in logs.
        f.write_str("MatchSecret(..)")
    }
}

#[derive(Serialize)]
struct SecretInput<'a> {
    purpose: &'a str,
    seed: &'a str,
}

#[derive(Serialize)]
struct SaltInput<'a> {
    index: u64,
    purpose: &'a str,
    secret: &'a Fingerprint,
    sequence: u64,
}

#[derive(Serialize)]
struct CommitmentInput<'a, T: ?Sized> {
    salt: &'a Fingerprint,
    value: &'a T,
}

/// What a salt is for; part of the salt's input, so that two purposes never share a salt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaltPurpose {
    /// The state after the receipt with this sequence (`before`/`after`, snapshots, previews).
    State,
    /// The event at this index of the receipt with this sequence.
    Event,
}

impl SaltPurpose {
    fn name(self) -> &'static str {
        match self {
            SaltPurpose::State => "state",
            SaltPurpose::Event => "event",
        }
    }
}

impl MatchSecret {
    /// The secret of the match with this seed:
    /// `SHA-256(canonical {"purpose": "turnstile.match-secret.v2", "seed": seed})`.
    pub fn from_seed(seed: &str) -> Result<Self, CanonicalError> {
        Fingerprint::of(&SecretInput {
            purpose: "turnstile.match-secret.v2",
            seed,
        })
        .map(MatchSecret)
    }

    /// The secret as a fingerprint (for the published vectors; never shown to a seat).
    pub fn as_fingerprint(&self) -> &Fingerprint {
        &self.0
    }

    /// The salt of one position:
    /// `SHA-256(canonical {"index", "purpose", "secret", "sequence"})`.
    pub fn salt(
        &self,
        purpose: SaltPurpose,
        sequence: u64,
        index: u64,
    ) -> Result<Fingerprint, CanonicalError> {
        Fingerprint::of(&SaltInput {
            index,
            purpose: purpose.name(),
            secret: &self.0,
            sequence,
        })
    }

    /// The commitment to `value` at one position: `SHA-256(canonical {"salt", "value"})`.
    pub fn commit<T: Serialize + ?Sized>(
        &self,
        purpose: SaltPurpose,
        sequence: u64,
        index: u64,
        value: &T,
    ) -> Result<Fingerprint, CanonicalError> {
        let salt = self.salt(purpose, sequence, index)?;
        commit_with_salt(&salt, value)
    }
}

/// A commitment with a salt already derived.
pub fn commit_with_salt<T: Serialize + ?Sized>(
    salt: &Fingerprint,
    value: &T,
) -> Result<Fingerprint, CanonicalError> {
    Fingerprint::of(&CommitmentInput { salt, value })
}

/// One element of the event list a format-2 receipt hash covers: an event every viewer sees
/// whole, or the commitment to one that some viewer sees redacted or not at all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Sealed<E> {
    /// Hidden from some viewer: `{"commitment": "sha256:…"}`.
    Hidden {
        /// The salted commitment to the full event.
        commitment: Fingerprint,
    },
    /// Seen whole by every seat and the spectator: hashed as itself.
    Public(E),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn salts_differ_by_purpose_sequence_and_index() {
        let s = MatchSecret::from_seed("seed").unwrap();
        let a = s.salt(SaltPurpose::Event, 1, 0).unwrap();
        assert_ne!(a, s.salt(SaltPurpose::State, 1, 0).unwrap());
        assert_ne!(a, s.salt(SaltPurpose::Event, 2, 0).unwrap());
        assert_ne!(a, s.salt(SaltPurpose::Event, 1, 1).unwrap());
        let other = MatchSecret::from_seed("seed2").unwrap();
        assert_ne!(a, other.salt(SaltPurpose::Event, 1, 0).unwrap());
    }

    #[test]
    fn a_commitment_is_not_the_plain_fingerprint() {
        let s = MatchSecret::from_seed("seed").unwrap();
        let c = s.commit(SaltPurpose::Event, 1, 0, "fireball").unwrap();
        assert_ne!(c, Fingerprint::of("fireball").unwrap());
        assert_eq!(c, s.commit(SaltPurpose::Event, 1, 0, "fireball").unwrap());
        assert_ne!(c, s.commit(SaltPurpose::Event, 1, 0, "drain").unwrap());
    }

    #[test]
    fn sealed_serializes_public_as_itself() {
        let p: Sealed<&str> = Sealed::Public("x");
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"x\"");
        let h: Sealed<&str> = Sealed::Hidden {
            commitment: Fingerprint::of("x").unwrap(),
        };
        assert!(serde_json::to_string(&h)
            .unwrap()
            .starts_with("{\"commitment\":\"sha256:"));
    }
}
