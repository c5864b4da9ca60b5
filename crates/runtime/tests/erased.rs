//! The erased match layer on the small "Tally" game: registration with bots and hooks, JSON in
//! and out, redaction per viewer, restore from a snapshot, catching up with entries committed
//! elsewhere, remembered rejections.

#[allow(dead_code)] // shared with matches.rs, which uses the rest
mod tally;

use serde_json::{json, Value};
use tally::{Tally, TallyAction};
use turnstile_core::{BundleSource, Fingerprint, Rejection, Seat, Viewer};
use turnstile_runtime::{
    ErasedCommand, ErasedMatch, ErasedRefusal, ErasedSpec, GameRegistry, RandomBot, SeatKind,
    SeatSpec,
};

fn source() -> BundleSource {
    let mut s = BundleSource::new();
    s.insert(
        "bundle.json",
        br#"{"game": "tally", "files": [{"id": "rules", "kind": "rules", "path": "rules.json"}]}"#
            .to_vec(),
    );
    s.insert("rules.json", br#"{"target": 30, "max_add": 9}"#.to_vec());
    s
}

fn registry() -> GameRegistry {
    let mut registry = GameRegistry::new();
    registry
        .register::<Tally>()
        .with_content(source())
        .with_bot("cautious", |seed, seat| {
            Ok(Box::new(RandomBot::new(seed, seat)?))
        })
        .with_resign(|_| TallyAction::Add { n: 1 });
    registry
}

fn spec(seats: Vec<SeatSpec>) -> ErasedSpec {
    ErasedSpec {
        config: json!({"target": null}),
        seed: "erased".into(),
        seats,
        tick_rate: 10,
    }
}

fn command(id: &str, seat: u16, seq: u64, action: Value) -> ErasedCommand {
    ErasedCommand {
        command_id: id.into(),
        seat: Some(Seat(seat)),
        expected_sequence: seq,
        expected_step: None,
        tick: seq,
        action,
    }
}

fn new_match(seats: Vec<SeatSpec>) -> Box<dyn ErasedMatch> {
    let registry = registry();
    let game = registry.get("tally").unwrap();
    let compiled = game.builtin_content().unwrap().unwrap();
    game.new_match(&compiled.bundle, spec(seats)).unwrap()
}

#[test]
fn a_registration_describes_the_game_and_its_bots() {
    let registry = registry();
    let game = registry.get("tally").unwrap();
    let d = game.describe();
    assert_eq!(d.bots, ["cautious", "random"]);
    assert!(d.resign && !d.timeouts && !d.clock_resumed && d.hidden_information);
    let compiled = game.builtin_content().unwrap().unwrap();
    let stored = game
        .load_bundle(&compiled.json, Some(&compiled.bundle.revision()))
        .unwrap();
    assert_eq!(stored.revision(), compiled.bundle.revision());
    assert_eq!(game.seat_range(&stored, &json!({})).unwrap(), (2, 4));
    assert!(game.load_bundle(&json!({"game": "tally"}), None).is_err());
}

#[test]
fn receipts_are_redacted_per_viewer() {
    let mut m = new_match(vec![SeatSpec::human(), SeatSpec::human()]);
    m.submit(command("a", 0, 0, json!({"type": "draw"})))
        .unwrap();
    let full = m.receipt(1, Viewer::Referee).unwrap();
    let own = m.receipt(1, Viewer::Seat(Seat(0))).unwrap();
    let other = m.receipt(1, Viewer::Seat(Seat(1))).unwrap();
    let public = m.receipt(1, Viewer::Spectator).unwrap();
    assert!(full["events"][0]["card"].is_u64());
    assert_eq!(own["events"], full["events"]);
    assert_eq!(other["events"][0]["card"], Value::Null);
    assert_eq!(public["events"][0]["card"], Value::Null);
    assert_eq!(other["views"]["viewer"], json!({"kind": "seat", "seat": 1}));
    assert_eq!(other["views"]["fingerprint"], full["views"]["seats"][1]);
    assert_eq!(public["views"]["fingerprint"], full["views"]["spectator"]);
    assert_eq!(
        m.redactor().redact(&full, Viewer::Seat(Seat(1))).unwrap(),
        other
    );
    assert_eq!(other["hash"], full["hash"]);
    let replay = m.replay(Viewer::Seat(Seat(1))).unwrap();
    assert_eq!(replay["seed"], Value::Null);
    assert_eq!(replay["entries"][0]["receipt"], other);
    assert_eq!(m.full_replay().unwrap().seed, "erased");
}

#[test]
fn refusals_are_typed_and_rule_rejections_remembered() {
    let mut m = new_match(vec![SeatSpec::human(), SeatSpec::human()]);
    let bad = m
        .submit(command("x", 0, 0, json!({"type": "jump"})))
        .unwrap_err();
    assert_eq!(bad.code(), "invalid_action");
    let rejected = m
        .submit(command("r", 1, 0, json!({"type": "draw"})))
        .unwrap_err();
    assert_eq!(rejected.code(), "not_your_turn");
    assert_eq!(m.rejection("r").unwrap().code, "not_your_turn");
    assert_eq!(m.sequence(), 0);
    // A rejection read back from storage is answered without asking the rules.
    let fp = m
        .action_fingerprint(&json!({"type": "add", "n": 1}))
        .unwrap();
    m.remember_rejection(
        "stored",
        Some(Seat(0)),
        fp,
        Rejection::new("remembered", "from the store"),
    );
    let again = m
        .submit(command("stored", 0, 0, json!({"type": "add", "n": 1})))
        .unwrap_err();
    assert!(matches!(again, ErasedRefusal::Refused(ref r) if r.code() == "remembered"));
    let reused = m
        .submit(command("stored", 0, 0, json!({"type": "add", "n": 2})))
        .unwrap_err();
    assert_eq!(reused.code(), "command_id_reused");
}

#[test]
fn restore_and_catch_up_reproduce_the_same_match() {
    let registry = registry();
    let game = registry.get("tally").unwrap();
    let bundle = game.builtin_content().unwrap().unwrap().bundle;
    let mut a = game
        .new_match(&bundle, spec(vec![SeatSpec::human(), SeatSpec::human()]))
        .unwrap();
    let mut entries = Vec::new();
    let mut snapshot = None;
    for i in 0..6u64 {
        let seat = (i % 2) as u16;
        let accepted = a
            .submit(command(
                &format!("c{i}"),
                seat,
                i,
                json!({"type": "add", "n": 2}),
            ))
            .unwrap();
        entries.push(accepted.entry);
        if i == 2 {
            snapshot = Some(a.snapshot().unwrap());
        }
    }
    let restored = game
        .restore_match(
            &bundle,
            a.spec().clone(),
            &snapshot.unwrap(),
            &entries[..3],
            &entries[3..],
        )
        .unwrap();
    assert_eq!(restored.state_fingerprint(), a.state_fingerprint());
    assert_eq!(restored.sequence(), 6);
    let mut b = game.new_match(&bundle, a.spec().clone()).unwrap();
    b.apply_entries(&entries[..4]).unwrap();
    b.apply_entries(&entries).unwrap();
    assert_eq!(b.state_fingerprint(), a.state_fingerprint());
    assert!(b.is_accepted("c5"));
    let mut tampered = entries.clone();
    tampered[5].receipt["after"] = json!(Fingerprint::of(&0u8).unwrap().to_string());
    let mut c = game.new_match(&bundle, a.spec().clone()).unwrap();
    assert_eq!(
        c.apply_entries(&tampered).unwrap_err().code(),
        "restore_failed"
    );
}

#[test]
fn bots_choose_only_among_the_resolvers_candidates() {
    let bot = SeatSpec {
        kind: SeatKind::Bot,
        bot: Some("cautious".into()),
    };
    let mut m = new_match(vec![SeatSpec::human(), bot]);
    assert_eq!(m.bot_seats(), [Seat(1)]);
    assert!(m.bot_action(Seat(1), 0).is_none(), "not its turn");
    m.submit(command("a", 0, 0, json!({"type": "add", "n": 1})))
        .unwrap();
    // Tally lists no candidate actions, so even on its turn the bot has nothing to choose.
    assert!(m.bot_action(Seat(1), 1).is_none());
    assert_eq!(
        m.resign_action(Seat(0)).unwrap(),
        json!({"type": "add", "n": 1})
    );
    let registry = registry();
    let game = registry.get("tally").unwrap();
    let bundle = game.builtin_content().unwrap().unwrap().bundle;
    let unknown = SeatSpec {
        kind: SeatKind::Bot,
        bot: Some("genius".into()),
    };
    let err = game
        .new_match(&bundle, spec(vec![SeatSpec::human(), unknown]))
        .err()
        .unwrap();
    assert_eq!(err.code(), "unknown_bot");
}
