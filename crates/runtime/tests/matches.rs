//! The runtime's promises, checked on the small "Tally" game: receipts and their chain,
//! idempotency, refusals that change nothing, snapshots, replays and their verification.

mod tally;

use proptest::prelude::*;
use tally::{new_match, Tally, TallyAction};
use turnstile_core::{CommandContext, CommandEnvelope, CommandRefusal, Fingerprint, Seat, Viewer};
use turnstile_runtime::{verify, Match, ReplayError, ReplayFile};

fn env(
    id: &str,
    seat: u16,
    seq: u64,
    tick: u64,
    action: TallyAction,
) -> CommandEnvelope<TallyAction> {
    CommandEnvelope {
        command_id: id.into(),
        seat: Some(Seat(seat)),
        expected_sequence: seq,
        expected_step: None,
        tick,
        action,
    }
}

/// Everything observable about a match, to show that a refusal changed none of it.
fn observe(m: &Match<Tally>) -> (Fingerprint, u64, usize, u64) {
    (
        *m.state_fingerprint(),
        m.sequence(),
        m.log().len(),
        m.last_tick(),
    )
}

#[test]
fn receipts_are_numbered_from_one_and_chained() {
    let mut m = new_match("chain");
    let initial = *m.state_fingerprint();
    m.submit(env("a", 0, 0, 1, TallyAction::Add { n: 3 }))
        .unwrap();
    m.submit(env("b", 1, 1, 2, TallyAction::Draw)).unwrap();
    m.submit(env("c", 0, 2, 2, TallyAction::Add { n: 9 }))
        .unwrap();
    let log = m.log();
    assert_eq!(
        log.iter().map(|e| e.receipt.sequence).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(log[0].receipt.before, initial);
    assert_eq!(log[0].receipt.previous, None);
    for pair in log.windows(2) {
        assert_eq!(
            pair[1].receipt.previous.as_ref(),
            Some(&pair[0].receipt.hash)
        );
        assert_eq!(pair[1].receipt.before, pair[0].receipt.after);
    }
    // Format 2: a receipt with a hidden event (the draw) hashes its sealed list; the others
    // hash their events as they are.
    for entry in log {
        let hash = match m.sealed(&entry.receipt).unwrap() {
            Some(sealed) => entry
                .receipt
                .compute_sealed_hash_with(&sealed, &mut Default::default())
                .unwrap(),
            None => entry.receipt.compute_hash().unwrap(),
        };
        assert_eq!(hash, entry.receipt.hash);
    }
    assert!(
        m.sealed(&log[1].receipt).unwrap().is_some(),
        "the draw is sealed"
    );
    assert_ne!(
        log[1].receipt.hash,
        log[1].receipt.compute_hash().unwrap(),
        "the hidden card does not enter the hash in the clear"
    );
    assert_eq!(&log[2].receipt.after, m.state_fingerprint());
    // A hidden-information state's fingerprint is a salted commitment, not its plain hash.
    assert_eq!(
        m.state_fingerprint(),
        &m.fingerprint_state_at(3, m.state()).unwrap()
    );
    assert_ne!(m.state_fingerprint(), &Fingerprint::of(m.state()).unwrap());
    assert_eq!(m.sequence(), 3);
}

#[test]
fn receipts_carry_each_viewers_view_fingerprint() {
    let mut m = new_match("views");
    let r = m
        .submit(env("a", 0, 0, 0, TallyAction::Draw))
        .unwrap()
        .receipt
        .clone();
    assert_eq!(r.views.seats.len(), 2);
    assert_eq!(
        r.views.seats[0],
        Fingerprint::of(&m.view(Viewer::Seat(Seat(0)))).unwrap()
    );
    assert_eq!(
        r.views.seats[1],
        Fingerprint::of(&m.view(Viewer::Seat(Seat(1)))).unwrap()
    );
    assert_eq!(
        r.views.spectator,
        Fingerprint::of(&m.view(Viewer::Spectator)).unwrap()
    );
    // Seat 0 holds a secret card that seat 1 does not see.
    assert_ne!(r.views.seats[0], r.views.seats[1]);
    assert_eq!(r.views.seats[1], r.views.spectator);
}

#[test]
fn a_stale_sequence_is_refused_changes_nothing_and_is_not_remembered() {
    let mut m = new_match("stale");
    m.submit(env("a", 0, 0, 0, TallyAction::Add { n: 1 }))
        .unwrap();
    let before = observe(&m);
    let err = m
        .submit(env("b", 1, 0, 0, TallyAction::Add { n: 1 }))
        .unwrap_err();
    assert_eq!(
        err,
        CommandRefusal::StaleSequence {
            expected: 0,
            current: 1
        }
    );
    assert_eq!(err.code(), "stale_sequence");
    assert_eq!(observe(&m), before);
    // Not remembered: the same id succeeds once the client refreshed.
    m.submit(env("b", 1, 1, 0, TallyAction::Add { n: 1 }))
        .unwrap();
}

#[test]
fn a_rule_rejection_is_remembered_under_its_command_id() {
    let mut m = new_match("remember");
    let before = observe(&m);
    let err = m
        .submit(env("x", 1, 0, 0, TallyAction::Add { n: 2 }))
        .unwrap_err();
    assert_eq!(err.code(), "not_your_turn");
    assert_eq!(observe(&m), before);
    m.submit(env("a", 0, 0, 0, TallyAction::Add { n: 1 }))
        .unwrap();
    // Now seat 1 is to move, yet the same command id still answers with the original rejection.
    let again = m
        .submit(env("x", 1, 1, 0, TallyAction::Add { n: 2 }))
        .unwrap_err();
    assert_eq!(again, err);
    assert_eq!(m.sequence(), 1);
    // Reusing the id for another action is refused as such.
    let reused = m.submit(env("x", 1, 1, 0, TallyAction::Draw)).unwrap_err();
    assert_eq!(reused.code(), "command_id_reused");
}

#[test]
fn a_repeated_command_id_returns_the_original_receipt_without_applying_again() {
    let mut m = new_match("repeat");
    let first = m
        .submit(env("a", 0, 0, 5, TallyAction::Add { n: 4 }))
        .unwrap()
        .receipt
        .clone();
    let state = observe(&m);
    // Even with a now-stale expected sequence, the repeat gets the original receipt.
    let again = m
        .submit(env("a", 0, 0, 5, TallyAction::Add { n: 4 }))
        .unwrap();
    assert!(again.repeat);
    assert_eq!(again.receipt, &first);
    assert_eq!(observe(&m), state);
    let reused = m
        .submit(env("a", 0, 1, 5, TallyAction::Add { n: 5 }))
        .unwrap_err();
    assert_eq!(reused.code(), "command_id_reused");
}

#[test]
fn transport_refusals_have_stable_codes_and_change_nothing() {
    let mut m = new_match("refusals");
    m.submit(env("a", 0, 0, 10, TallyAction::Add { n: 1 }))
        .unwrap();
    let before = observe(&m);
    let cases: Vec<(CommandEnvelope<TallyAction>, &str)> = vec![
        (
            env("t", 1, 1, 9, TallyAction::Add { n: 1 }),
            "tick_went_backwards",
        ),
        (
            env("u", 7, 1, 10, TallyAction::Add { n: 1 }),
            "unknown_seat",
        ),
        (
            env("", 1, 1, 10, TallyAction::Add { n: 1 }),
            "invalid_command_id",
        ),
        (
            env("has space", 1, 1, 10, TallyAction::Add { n: 1 }),
            "invalid_command_id",
        ),
        (
            env(&"x".repeat(129), 1, 1, 10, TallyAction::Add { n: 1 }),
            "invalid_command_id",
        ),
        (
            CommandEnvelope {
                seat: None,
                ..env("n", 1, 1, 10, TallyAction::Add { n: 1 })
            },
            "seat_required",
        ),
        (
            CommandEnvelope {
                expected_step: Some(3),
                ..env("s", 1, 1, 10, TallyAction::Add { n: 1 })
            },
            "stale_step",
        ),
        (
            env("r", 1, 1, 10, TallyAction::Add { n: 10 }),
            "out_of_range",
        ),
    ];
    for (envelope, code) in cases {
        let err = m.submit(envelope).unwrap_err();
        assert_eq!(err.code(), code, "{err}");
        assert_eq!(observe(&m), before, "{code} changed the match");
    }
    // A matching expected step is accepted.
    m.submit(CommandEnvelope {
        expected_step: Some(0),
        ..env("ok", 1, 1, 10, TallyAction::Add { n: 1 })
    })
    .unwrap();
}

#[test]
fn timeline_pages_after_a_sequence() {
    let mut m = new_match("timeline");
    for i in 0..6u64 {
        m.submit(env(
            &format!("c{i}"),
            (i % 2) as u16,
            i,
            i,
            TallyAction::Add { n: 1 },
        ))
        .unwrap();
    }
    let page = m.timeline(2, 3);
    assert_eq!(
        page.iter().map(|e| e.receipt.sequence).collect::<Vec<_>>(),
        [3, 4, 5]
    );
    assert!(m.timeline(6, 10).is_empty());
    assert_eq!(m.timeline(4, 100).len(), 2);
}

#[test]
fn snapshots_restore_to_the_same_match() {
    let mut m = new_match("snap").with_snapshot_every(4);
    for i in 0..10u64 {
        let action = if i % 3 == 0 {
            TallyAction::Draw
        } else {
            TallyAction::Add { n: 1 }
        };
        m.submit(env(&format!("c{i}"), (i % 2) as u16, i, i, action))
            .unwrap();
    }
    let seqs: Vec<u64> = m.snapshots().iter().map(|s| s.sequence).collect();
    assert_eq!(seqs, [0, 4, 8]);
    let snap = m.snapshots()[2].clone();
    let (earlier, later) = m.log().split_at(8);
    let restored = Match::restore(
        m.bundle().clone(),
        m.spec().clone(),
        snap,
        earlier.to_vec(),
        later.to_vec(),
    )
    .unwrap();
    assert_eq!(restored.state_fingerprint(), m.state_fingerprint());
    assert_eq!(restored.sequence(), 10);
    assert_eq!(restored.log(), m.log());
    // A tampered snapshot is refused.
    let mut bad = m.snapshots()[1].clone();
    bad.state.total += 1;
    let (earlier, later) = m.log().split_at(4);
    let err = Match::restore(
        m.bundle().clone(),
        m.spec().clone(),
        bad,
        earlier.to_vec(),
        later.to_vec(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "restore_failed");
}

#[test]
fn previewing_and_committing_give_the_same_fingerprint() {
    let mut m = new_match("preview");
    let ctx = CommandContext {
        seat: Some(Seat(0)),
        tick: 3,
    };
    // The match's own state rule: a salted commitment for this hidden-information game.
    let seal = |next: &tally::TallyState| m.fingerprint_state_at(1, next);
    let preview = m
        .resolver()
        .preview_sealed(
            m.state(),
            ctx,
            &TallyAction::Draw,
            Viewer::Seat(Seat(1)),
            &seal,
        )
        .unwrap()
        .unwrap();
    let receipt = m
        .submit(env("p", 0, 0, 3, TallyAction::Draw))
        .unwrap()
        .receipt
        .clone();
    assert_eq!(preview.state_fingerprint, receipt.after);
    assert_eq!(preview.view_fingerprint, receipt.views.seats[1]);
    // The other seat's preview hides the drawn card.
    assert_eq!(
        preview.events,
        vec![tally::TallyEvent::Drew {
            seat: Seat(0),
            card: None
        }]
    );
}

fn play_some(m: &mut Match<Tally>, n: u64) {
    for i in 0..n {
        let seq = m.sequence();
        let seat = (seq % 2) as u16;
        let action = if i % 4 == 1 {
            TallyAction::Draw
        } else {
            TallyAction::Add { n: 2 }
        };
        m.submit(env(&format!("c{i}"), seat, seq, i, action))
            .unwrap();
    }
}

#[test]
fn a_replay_round_trips_and_verifies() {
    let mut m = new_match("replay");
    play_some(&mut m, 8);
    let text = ReplayFile::of_match(&m).unwrap().to_json().unwrap();
    let file = ReplayFile::parse(&text).unwrap();
    let report = verify::<Tally>(&file).unwrap();
    assert_eq!(report.divergence, None);
    assert_eq!(report.verified, 8);
    assert_eq!(
        report.final_fingerprint.as_ref(),
        Some(m.state_fingerprint())
    );
}

#[test]
fn verify_names_the_first_divergence() {
    let mut m = new_match("tamper");
    play_some(&mut m, 6);
    let good = ReplayFile::of_match(&m).unwrap();

    let mut events = good.clone();
    events.entries[3].receipt["events"][0]["n"] = serde_json::json!(7);
    let d = verify::<Tally>(&events).unwrap().divergence.unwrap();
    assert_eq!((d.sequence, d.field.as_str()), (4, "events"));

    let mut hash = good.clone();
    hash.entries[2].receipt["hash"] = serde_json::json!(Fingerprint::of(&1u8).unwrap());
    let d = verify::<Tally>(&hash).unwrap().divergence.unwrap();
    assert_eq!((d.sequence, d.field.as_str()), (3, "hash"));

    let mut seed = good.clone();
    seed.seed = "another".into();
    let d = verify::<Tally>(&seed).unwrap().divergence.unwrap();
    assert_eq!((d.sequence, d.field.as_str()), (1, "before"));

    let mut revision = good.clone();
    revision.bundle["content"]["target"] = serde_json::json!(31);
    let d = verify::<Tally>(&revision).unwrap().divergence.unwrap();
    assert_eq!((d.sequence, d.field.as_str()), (0, "revision"));

    let mut action = good.clone();
    action.entries[1].envelope["action"] = serde_json::json!({"type": "add", "n": 1});
    let d = verify::<Tally>(&action).unwrap().divergence.unwrap();
    assert_eq!(d.sequence, 2);

    let mut refused = good;
    refused.entries[4].envelope["seat"] = serde_json::json!(1);
    let d = verify::<Tally>(&refused).unwrap().divergence.unwrap();
    assert_eq!((d.sequence, d.field.as_str()), (5, "accepted"));
    assert!(d.actual.contains("not_your_turn"), "{}", d.actual);
}

#[test]
fn unreadable_replays_are_errors_not_divergences() {
    assert_eq!(
        ReplayFile::parse("{").unwrap_err().code(),
        "malformed_replay"
    );
    assert_eq!(
        ReplayFile::parse(r#"{"format": 4}"#).unwrap_err(),
        ReplayError::UnknownFormat(4)
    );
    assert_eq!(
        ReplayFile::parse(r#"{"format": 1}"#).unwrap_err().code(),
        "malformed_replay"
    );
    let mut m = new_match("x");
    play_some(&mut m, 2);
    let mut file = ReplayFile::of_match(&m).unwrap();
    file.entries[0].envelope = serde_json::json!({"nonsense": true});
    assert_eq!(verify::<Tally>(&file).unwrap_err().code(), "invalid_entry");
    file.game = "chess".into();
    assert_eq!(verify::<Tally>(&file).unwrap_err().code(), "unknown_game");
}

#[test]
fn a_file_of_rules_this_build_does_not_run_is_refused_before_re_execution() {
    let mut m = new_match("rules");
    play_some(&mut m, 3);
    let mut file = ReplayFile::of_match(&m).unwrap();
    // Tally declares no rules version: files say none, and one that says 0 verifies.
    assert_eq!(file.rules, 0);
    let text: serde_json::Value = serde_json::from_str(&file.to_json().unwrap()).unwrap();
    assert_eq!(text.get("rules"), None, "a version 0 file writes no field");
    assert_eq!(verify::<Tally>(&file).unwrap().divergence, None);
    // A newer release's file is refused with its own code, not reported as tampering.
    file.rules = 3;
    let e = verify::<Tally>(&file).unwrap_err();
    assert_eq!(e.code(), "rules_unknown");
    assert_eq!(
        e,
        ReplayError::RulesUnknown {
            game: "tally".into(),
            file: 3,
            current: 0
        }
    );
    let round = ReplayFile::parse(&file.to_json().unwrap()).unwrap();
    assert_eq!(round.rules, 3, "the version survives a round trip");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random command streams, legal or not, replay to identical fingerprints; every refusal
    /// leaves the match exactly as it was.
    #[test]
    fn random_commands_replay_identically(
        seed in "[a-z]{0,8}",
        script in proptest::collection::vec((0u16..3, 0i64..12, any::<bool>(), 0u64..3), 0..60),
    ) {
        let mut m = new_match(&seed);
        let mut tick = 0;
        for (i, (seat, n, draw, dt)) in script.into_iter().enumerate() {
            tick += dt;
            let action = if draw { TallyAction::Draw } else { TallyAction::Add { n } };
            let before = observe(&m);
            let seq = m.sequence();
            match m.submit(env(&format!("c{i}"), seat, seq, tick, action)) {
                Ok(a) => prop_assert!(!a.repeat),
                Err(_) => prop_assert_eq!(observe(&m), before),
            }
        }
        let file = ReplayFile::parse(&ReplayFile::of_match(&m).unwrap().to_json().unwrap()).unwrap();
        let report = verify::<Tally>(&file).unwrap();
        prop_assert_eq!(report.divergence, None);
        prop_assert_eq!(report.final_fingerprint.as_ref(), Some(m.state_fingerprint()));
    }
}
