//! Pins the published commitment vectors (docs/commitment-vectors.json): the match secret, salts,
//! commitments, a sealed event list and a format-2 receipt hash, computed by the rules of
//! docs/commitments.md. Another implementation checks itself against the same file; a change of
//! any byte here fails this test (re-bless with `TURNSTILE_BLESS=1` only for a new format).

use serde_json::{json, Value};
use turnstile_core::{
    Fingerprint, MatchSecret, Receipt, SaltPurpose, Sealed, Seat, ViewFingerprints,
};

fn vectors() -> Value {
    let seed = "vector-seed";
    let secret = MatchSecret::from_seed(seed).unwrap();
    let drawn = json!({"kind": "cardDrawn", "seat": 1, "card": "fireball"});
    let ended = json!({"kind": "turnEnded", "seat": 0});
    let salts: Vec<Value> = [
        (SaltPurpose::State, 0u64, 0u64, "state"),
        (SaltPurpose::Event, 1, 0, "event"),
        (SaltPurpose::Event, 7, 2, "event"),
    ]
    .iter()
    .map(|(p, seq, i, name)| {
        json!({"purpose": name, "sequence": seq, "index": i,
               "salt": secret.salt(*p, *seq, *i).unwrap().to_string()})
    })
    .collect();
    let commitment = secret.commit(SaltPurpose::Event, 1, 0, &drawn).unwrap();
    let state = json!({"decks": [["drain", "fireball"], ["cleanse"]], "turn": 3});
    let state_commitment = secret.commit(SaltPurpose::State, 1, 0, &state).unwrap();
    let sealed: Vec<Sealed<Value>> =
        vec![Sealed::Hidden { commitment }, Sealed::Public(ended.clone())];
    let receipt = Receipt::<Value, Value> {
        sequence: 1,
        command_id: "c1".into(),
        seat: Some(Seat(0)),
        tick: 4,
        // Untimed: no deadline, so the hash is the one the vectors were published with.
        deadline_tick: None,
        action: json!({"type": "END_TURN"}),
        events: vec![drawn.clone(), ended],
        before: secret
            .commit(SaltPurpose::State, 0, 0, &json!({"turn": 2}))
            .unwrap(),
        after: state_commitment,
        views: ViewFingerprints {
            seats: vec![Fingerprint::of(&json!({"seat": 0})).unwrap()],
            spectator: Fingerprint::of(&json!({})).unwrap(),
        },
        previous: None,
        hash: Fingerprint::of(&json!(null)).unwrap(),
    };
    let hash = receipt
        .compute_sealed_hash_with(
            &sealed,
            &mut turnstile_core::determinism::Fingerprinter::new(),
        )
        .unwrap();
    json!({
        "about": "Turnstile receipt format 2 commitments; see docs/commitments.md",
        "seed": seed,
        "secret": secret.as_fingerprint().to_string(),
        "salts": salts,
        "eventCommitment": {"sequence": 1, "index": 0, "value": drawn,
                            "commitment": commitment.to_string()},
        "stateCommitment": {"sequence": 1, "value": state,
                            "commitment": state_commitment.to_string()},
        "receipt": {
            "sequence": 1, "commandId": "c1", "seat": 0, "tick": 4,
            "action": receipt.action, "before": receipt.before.to_string(),
            "after": receipt.after.to_string(), "previous": null,
            "sealed": serde_json::to_value(&sealed).unwrap(),
            "hash": hash.to_string(),
            "formatOneHash": receipt.compute_hash().unwrap().to_string(),
        },
    })
}

#[test]
fn the_published_commitment_vectors_hold() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/commitment-vectors.json"
    );
    let computed = vectors();
    if std::env::var_os("TURNSTILE_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&computed).unwrap() + "\n";
        std::fs::write(path, text).unwrap();
    }
    let published: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("docs/commitment-vectors.json"))
            .unwrap();
    assert_eq!(published, computed);
    // The format-2 hash is not the format-1 hash: the hidden draw no longer enters in the clear.
    assert_ne!(
        published["receipt"]["hash"],
        published["receipt"]["formatOneHash"]
    );
}
