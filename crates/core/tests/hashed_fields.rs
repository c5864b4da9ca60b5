//! A receipt's hashed fields written by hand (`HashedFields::write_canonical`, what every
//! receipt hash covers) against the canonical form of their derived `Serialize`: byte for
//! byte the same over random fields — actions and events of any JSON shape, fingerprints,
//! commands ids that need escaping, integers on both sides of 2^53, absent seats, deadlines
//! and previous hashes. If the hand-written writer ever differed, every receipt hash would.

use proptest::prelude::*;
use serde_json::Value;
use turnstile_core::determinism::canonical::{to_canonical_vec, CanonicalWriter};
use turnstile_core::determinism::Fingerprinter;
use turnstile_core::receipt::HashedFields;
use turnstile_core::{Fingerprint, Seat};

/// Any JSON value without a float, keys and strings with characters that need escaping.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "[a-z\"\\\\\n\u{e000}\u{1f600}]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z\"\u{fb33}\u{1f600}]{0,4}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn fingerprint() -> impl Strategy<Value = Fingerprint> {
    any::<[u8; 32]>().prop_map(Fingerprint::from_digest)
}

/// Integers on both sides of 2^53 − 1, where the canonical rule starts quoting them.
fn integer() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..20, any::<u64>(), (1u64 << 53) - 3..(1u64 << 53) + 3]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hand_written_hashed_fields_are_the_serialized_ones(
        action in json(),
        events in prop::collection::vec(json(), 0..5),
        after in fingerprint(),
        before in fingerprint(),
        previous in proptest::option::of(fingerprint()),
        command_id in "[ -~\"\\\\\n\u{e9}]{0,12}",
        deadline_tick in proptest::option::of(integer()),
        seat in proptest::option::of(any::<u16>()),
        sequence in integer(),
        tick in integer(),
    ) {
        let fields = HashedFields {
            action: &action,
            after: &after,
            before: &before,
            command_id: &command_id,
            deadline_tick,
            events: &events,
            previous: previous.as_ref(),
            seat: seat.map(Seat),
            sequence,
            tick,
        };
        let by_serde = to_canonical_vec(&fields).unwrap();
        let mut writer = CanonicalWriter::new();
        let by_hand = writer.write_with(|w| fields.write_canonical(w)).unwrap().to_vec();
        prop_assert_eq!(String::from_utf8_lossy(&by_hand), String::from_utf8_lossy(&by_serde));
        // The hash every receipt carries is of exactly these bytes.
        let mut fingerprinter = Fingerprinter::new();
        prop_assert_eq!(
            fields.hash_with(&mut fingerprinter).unwrap(),
            Fingerprint::of_bytes(&by_serde)
        );
        prop_assert_eq!(
            fields
                .hash_with_events(&mut fingerprinter, |event, w| w.value(event))
                .unwrap(),
            Fingerprint::of_bytes(&by_serde)
        );
    }
}
