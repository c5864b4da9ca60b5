//! Sokoban through the engine: content bundles, the match runtime, receipts, snapshots and
//! replays. The pure rules have their own tests (rules.rs, plan.rs, ...); these check the game
//! contract around them.

use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use turnstile_core::{
    CommandEnvelope, ContentBundle, Fingerprint, Game, MatchStatus, Seat, Viewer,
};
use turnstile_runtime::{read_bundle_dir, verify, Match, MatchSpec, ReplayFile, SeatSpec};
use turnstile_sokoban::{
    parse_collection, parse_lurd, Direction, Sokoban, SokobanAction, SokobanConfig, SokobanContent,
    SokobanEvent,
};

const MICROBAN: &str = include_str!("../content/levels/microban.xsb");
const MICROBAN_1: &str = "dlUrrrdLullddrUluRuulDrddrruLdlUU";

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn microban() -> Arc<ContentBundle<SokobanContent>> {
    let levels = parse_collection(MICROBAN, "microban.xsb")
        .valid_levels()
        .cloned()
        .collect();
    Arc::new(ContentBundle::new("sokoban", SokobanContent::single("microban", levels)).unwrap())
}

fn new_match(level: u32) -> Match<Sokoban> {
    Match::new(
        microban(),
        MatchSpec {
            config: SokobanConfig {
                collection: "microban".into(),
                level,
                xsb: None,
                topology: None,
            },
            seed: "sokoban".into(),
            seats: vec![SeatSpec::human()],
            tick_rate: 10,
        },
    )
    .unwrap()
}

fn submit(m: &mut Match<Sokoban>, action: SokobanAction) -> Result<Vec<SokobanEvent>, String> {
    // Every command gets a fresh id: a rejected one is remembered under its id.
    static NEXT_ID: AtomicU64 = AtomicU64::new(0);
    let seq = m.sequence();
    m.submit(CommandEnvelope {
        command_id: format!("c{}", NEXT_ID.fetch_add(1, Ordering::Relaxed)),
        seat: Some(Seat(0)),
        expected_sequence: seq,
        expected_step: None,
        tick: seq,
        action,
    })
    .map(|a| a.receipt.events.clone())
    .map_err(|r| r.code().to_owned())
}

fn mv(direction: Direction) -> SokobanAction {
    SokobanAction::Move { direction }
}

fn play_lurd(m: &mut Match<Sokoban>, lurd: &str) {
    for step in parse_lurd(lurd).unwrap() {
        submit(m, mv(step.direction)).unwrap();
    }
}

#[test]
fn the_bundled_content_loads_and_its_revision_is_stable_under_reformatting() {
    let source = read_bundle_dir(&manifest_dir().join("content")).unwrap();
    let content = Sokoban::load_content(&source).unwrap();
    let ids: Vec<&str> = content.collections.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["microban", "microban-ii", "hexoban"]);
    assert_eq!(content.collections[0].levels.len(), 155);
    assert_eq!(content.collections[1].levels.len(), 135);
    // Reformatting the manifest does not change the revision.
    let revision = ContentBundle::new("sokoban", content).unwrap().revision;
    let mut reformatted = source.clone();
    let manifest = String::from_utf8(source.files["bundle.json"].clone()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    reformatted.insert("bundle.json", serde_json::to_vec(&value).unwrap());
    let again = Sokoban::load_content(&reformatted).unwrap();
    assert_eq!(
        ContentBundle::new("sokoban", again).unwrap().revision,
        revision
    );
}

#[test]
fn a_broken_bundle_reports_every_problem_with_its_place() {
    let source = read_bundle_dir(&manifest_dir().join("tests/fixtures/bundles/broken")).unwrap();
    let problems = Sokoban::load_content(&source).unwrap_err();
    let lines: Vec<String> = problems.iter().map(|p| format!("{p}")).collect();
    assert_eq!(
        lines,
        ["bundle.json#/files/2/path: \"levels/missing.xsb\" is not in the bundle (missing_file)",],
        "manifest problems come first and stop the load"
    );
    // With the manifest fixed, every level problem of every file is listed.
    let mut fixed = source.clone();
    let manifest = String::from_utf8(source.files["bundle.json"].clone())
        .unwrap()
        .replace("levels/missing.xsb", "levels/one.xsb");
    fixed.insert("bundle.json", manifest.into_bytes());
    let problems = Sokoban::load_content(&fixed).unwrap_err();
    let codes: Vec<(&str, String, &str)> = problems
        .iter()
        .map(|p| (p.file.as_str(), p.at.to_string(), p.code.as_str()))
        .collect();
    assert!(
        codes.contains(&("levels/one.xsb", ":8:5".into(), "several_players")),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("levels/two.txt", ":1:1".into(), "no_boxes")),
        "{codes:?}"
    );
    assert!(
        codes
            .iter()
            .any(|c| c.0 == "levels/two.txt" && c.2 == "numeric_bad_value"),
        "{codes:?}"
    );
    assert!(
        codes
            .iter()
            .any(|c| c.0 == "levels/two.txt" && c.2 == "numeric_ragged_row"),
        "{codes:?}"
    );
    // The file named twice is reported twice: each collection is loaded on its own.
    assert_eq!(codes.iter().filter(|c| c.2 == "several_players").count(), 2);
}

#[test]
fn setup_names_unknown_collections_and_levels() {
    let spec = |collection: &str, level| MatchSpec {
        config: SokobanConfig {
            collection: collection.into(),
            level,
            xsb: None,
            topology: None,
        },
        seed: String::new(),
        seats: vec![SeatSpec::human()],
        tick_rate: 10,
    };
    let err = Match::<Sokoban>::new(microban(), spec("nope", 1)).unwrap_err();
    assert_eq!(err.code(), "unknown_collection");
    for level in [0, 156] {
        let err = Match::<Sokoban>::new(microban(), spec("microban", level)).unwrap_err();
        assert_eq!(err.code(), "unknown_level");
        assert!(err.to_string().contains("1 to 155"), "{err}");
    }
    let two_seats = MatchSpec {
        seats: vec![SeatSpec::human(), SeatSpec::human()],
        ..spec("microban", 1)
    };
    assert_eq!(
        Match::<Sokoban>::new(microban(), two_seats)
            .unwrap_err()
            .code(),
        "seat_count"
    );
}

#[test]
fn each_move_is_a_receipt_with_counters_and_finishing_a_solved_level_ends_the_match() {
    let mut m = new_match(1);
    let events = submit(&mut m, mv(Direction::Down)).unwrap();
    assert_eq!(
        events,
        [
            SokobanEvent::Moved {
                lurd: 'd',
                player: [2, 4],
                pushed: None
            },
            SokobanEvent::Counters {
                moves: 1,
                pushes: 0,
                solved: false
            },
        ]
    );
    assert_eq!(
        submit(&mut m, mv(Direction::Left)).unwrap()[0],
        SokobanEvent::Moved {
            lurd: 'l',
            player: [1, 4],
            pushed: None
        }
    );
    // Back to the start and play the known solution.
    submit(&mut m, SokobanAction::Restart).unwrap();
    play_lurd(&mut m, MICROBAN_1);
    let last = &m.log().last().unwrap().receipt.events;
    assert!(last.contains(&SokobanEvent::Solved {
        moves: 33,
        pushes: 8,
        lurd: MICROBAN_1.into()
    }));
    // A solved level stays open (for undo) until the player moves on.
    assert_eq!(m.status(), MatchStatus::Active);
    // Moves are rejected once solved, but undo, redo and restart still work.
    let before = *m.state_fingerprint();
    assert_eq!(submit(&mut m, mv(Direction::Up)).unwrap_err(), "solved");
    assert_eq!(
        submit(&mut m, SokobanAction::WalkTo { to: [1, 1] }).unwrap_err(),
        "solved"
    );
    assert_eq!(m.state_fingerprint(), &before);
    submit(&mut m, SokobanAction::Undo).unwrap();
    assert_eq!(
        submit(&mut m, SokobanAction::Finish).unwrap_err(),
        "not_solved"
    );
    assert_eq!(m.status(), MatchStatus::Active);
    submit(&mut m, SokobanAction::Redo).unwrap();
    assert_eq!(m.status(), MatchStatus::Active);
    // Moving on is a receipt of its own, with the outcome; then the match is over.
    let finished = submit(&mut m, SokobanAction::Finish).unwrap();
    assert_eq!(
        finished,
        [SokobanEvent::Finished {
            moves: 33,
            pushes: 8,
            lurd: MICROBAN_1.into()
        }]
    );
    assert_eq!(
        m.status(),
        MatchStatus::Finished {
            outcome: turnstile_core::Outcome {
                kind: "solved".into(),
                winners: vec![Seat(0)]
            }
        }
    );
    assert!(m.view(Viewer::Seat(Seat(0))).finished);
}

/// Issue 15, point 5: the "still solvable?" check reports a freeze — two boxes side by side
/// against a wall, one off its goal — which no dead-square test sees.
#[test]
fn a_push_that_freezes_a_box_off_its_goal_is_reported_as_deadlocked() {
    let text = "#######\n#.  . #\n# $$  #\n#@    #\n#######\n";
    let levels = parse_collection(text, "freeze.xsb")
        .valid_levels()
        .cloned()
        .collect();
    let bundle =
        Arc::new(ContentBundle::new("sokoban", SokobanContent::single("freeze", levels)).unwrap());
    let mut m = Match::new(
        bundle,
        MatchSpec {
            config: SokobanConfig {
                collection: "freeze".into(),
                level: 1,
                xsb: None,
                topology: None,
            },
            seed: "sokoban".into(),
            seats: vec![SeatSpec::human()],
            tick_rate: 10,
        },
    )
    .unwrap();
    let deadlock = |events: &[SokobanEvent]| {
        events
            .iter()
            .find(|e| matches!(e, SokobanEvent::Deadlocked { .. }))
            .cloned()
    };
    // One box against the top wall still slides to a goal on that wall: no warning.
    for step in parse_lurd("rUdr").unwrap() {
        let events = submit(&mut m, mv(step.direction)).unwrap();
        assert_eq!(deadlock(&events), None, "{events:?}");
    }
    // The second box beside it: both are frozen off their goals.
    let events = submit(&mut m, mv(Direction::Up)).unwrap();
    assert_eq!(
        deadlock(&events),
        Some(SokobanEvent::Deadlocked {
            reason: "freeze".into(),
            cell: Some([2, 1]),
        })
    );
    // Undo brings back a solvable position, and its receipt carries no warning.
    let events = submit(&mut m, SokobanAction::Undo).unwrap();
    assert_eq!(deadlock(&events), None);
}

#[test]
fn rule_rejections_name_their_reason_and_change_nothing() {
    let mut m = new_match(1);
    let before = (*m.state_fingerprint(), m.sequence());
    for (action, code) in [
        (SokobanAction::Undo, "nothing_to_undo"),
        (SokobanAction::Redo, "nothing_to_redo"),
        (SokobanAction::Restart, "nothing_to_restart"),
        (SokobanAction::WalkTo { to: [0, 0] }, "no_path"),
        (SokobanAction::WalkTo { to: [99, 0] }, "off_board"),
        (
            SokobanAction::PushTo {
                from: [2, 2],
                to: [2, 1],
            },
            "not_a_box",
        ),
        (
            SokobanAction::PushTo {
                from: [1, 3],
                to: [3, 1],
            },
            "no_path",
        ),
        (
            SokobanAction::PushTo {
                from: [1, 3],
                to: [1, 3],
            },
            "no_path",
        ),
    ] {
        assert_eq!(submit(&mut m, action).unwrap_err(), code, "{action:?}");
        assert_eq!((*m.state_fingerprint(), m.sequence()), before, "{action:?}");
    }
    // Level 1: the player starts at [2,3]; a wall stands at [5,3]; the box at [3,4] has a wall
    // at [5,4] two cells to its right.
    submit(&mut m, mv(Direction::Right)).unwrap();
    submit(&mut m, mv(Direction::Right)).unwrap();
    let at_wall = *m.state_fingerprint();
    assert_eq!(submit(&mut m, mv(Direction::Right)).unwrap_err(), "wall");
    assert_eq!(m.state_fingerprint(), &at_wall);
    submit(&mut m, SokobanAction::WalkTo { to: [2, 4] }).unwrap();
    submit(&mut m, mv(Direction::Right)).unwrap(); // pushes the box to [4,4]
    assert_eq!(
        submit(&mut m, mv(Direction::Right)).unwrap_err(),
        "box_blocked"
    );
}

#[test]
fn tap_to_move_is_one_command_one_receipt_and_one_undo() {
    let mut m = new_match(1);
    let events = submit(&mut m, SokobanAction::WalkTo { to: [4, 3] }).unwrap();
    let SokobanEvent::Expanded { lurd } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(lurd.len(), 2, "the shortest walk: {lurd}");
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, SokobanEvent::Moved { .. }))
            .count(),
        2
    );
    assert_eq!(m.view(Viewer::Seat(Seat(0))).player, [4, 3]);
    // The box at [3,4] pushed to [1,4]: fewest pushes (2), then fewest moves.
    let events = submit(
        &mut m,
        SokobanAction::PushTo {
            from: [3, 4],
            to: [1, 4],
        },
    )
    .unwrap();
    let SokobanEvent::Expanded { lurd } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(
        lurd.chars().filter(char::is_ascii_uppercase).count(),
        2,
        "{lurd}"
    );
    assert!(
        m.view(Viewer::Spectator).rows[4].starts_with("#$"),
        "{:?}",
        m.view(Viewer::Spectator).rows
    );
    // One undo reverts the whole push plan.
    let undone = submit(&mut m, SokobanAction::Undo).unwrap();
    assert!(
        matches!(
            undone[0],
            SokobanEvent::Undone {
                pushes: 2,
                restart: false,
                ..
            }
        ),
        "{undone:?}"
    );
    assert_eq!(m.view(Viewer::Seat(Seat(0))).player, [4, 3]);
}

#[test]
fn a_push_onto_a_dead_square_is_reported() {
    let mut m = new_match(1);
    submit(&mut m, mv(Direction::Down)).unwrap();
    let events = submit(&mut m, mv(Direction::Right)).unwrap();
    // The box now stands at [4,4], a non-goal corner.
    assert!(
        events.contains(&SokobanEvent::DeadSquare { cell: [4, 4] }),
        "{events:?}"
    );
    assert!(m.view(Viewer::Spectator).dead_squares.contains(&[4, 4]));
}

#[test]
fn legal_actions_list_kinds_with_ranges() {
    let mut m = new_match(1);
    let kinds = m.legal_actions(Seat(0)).unwrap();
    let names: Vec<&str> = kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(names, ["move", "walkTo", "pushTo", "resign"]);
    let moves = serde_json::to_value(&kinds[0]).unwrap();
    assert_eq!(
        moves["params"][0]["range"]["values"],
        serde_json::json!(["up", "right", "down"])
    );
    submit(&mut m, mv(Direction::Down)).unwrap();
    let names: Vec<String> = m
        .legal_actions(Seat(0))
        .unwrap()
        .into_iter()
        .map(|k| k.kind)
        .collect();
    assert_eq!(
        names,
        ["move", "walkTo", "pushTo", "undo", "restart", "resign"]
    );
    assert_eq!(m.legal_actions(Seat(1)).unwrap_err().code(), "unknown_seat");
    // Every candidate the resolver offers is accepted.
    let candidates = m.resolver().candidates(m.state(), Seat(0), 5).unwrap();
    assert!(candidates.contains(&SokobanAction::Undo));
    assert!(!candidates.contains(&SokobanAction::Redo));
}

#[test]
fn a_stored_state_is_attached_to_its_content_before_anything_runs() {
    let mut m = new_match(2).with_snapshot_every(3);
    for d in [
        Direction::Right,
        Direction::Down,
        Direction::Down,
        Direction::Left,
    ] {
        let _ = submit(&mut m, mv(d));
    }
    let snapshot = m.snapshots().last().unwrap().clone();
    // Through JSON, as storage would keep it.
    let json = serde_json::to_string(&snapshot).unwrap();
    let stored: turnstile_runtime::Snapshot<Sokoban> = serde_json::from_str(&json).unwrap();
    assert!(
        stored.state.board().is_none(),
        "a stored state is detached until attached"
    );
    let at = stored.sequence as usize;
    let restored = Match::restore(
        m.bundle().clone(),
        m.spec().clone(),
        stored.clone(),
        m.log()[..at].to_vec(),
        m.log()[at..].to_vec(),
    )
    .unwrap();
    assert_eq!(restored.state_fingerprint(), m.state_fingerprint());
    // A history that does not fit the level fails before anything executes.
    let mut bad = stored;
    let mut value = serde_json::to_value(&bad.state).unwrap();
    value["history"] = serde_json::json!("uuuuuuuuuuuu");
    bad.state = serde_json::from_value(value).unwrap();
    let err = Match::restore(
        m.bundle().clone(),
        m.spec().clone(),
        bad,
        Vec::new(),
        Vec::new(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "record_illegal");
}

/// The golden replay: Microban 1 solved by its known solution. Its fingerprints are committed;
/// a change to any of them (an encoding, the rules, the content) fails here and must be a
/// deliberate, explained revision (regenerate with TURNSTILE_BLESS=1).
#[test]
fn the_golden_replay_never_changes_silently() {
    let mut m = new_match(1);
    let mut actions: Vec<SokobanAction> = parse_lurd(MICROBAN_1)
        .unwrap()
        .into_iter()
        .map(|step| mv(step.direction))
        .collect();
    actions.extend([SokobanAction::Undo, SokobanAction::Redo]);
    for (i, action) in actions.into_iter().enumerate() {
        let seq = m.sequence();
        m.submit(CommandEnvelope {
            command_id: format!("golden-{i}"),
            seat: Some(Seat(0)),
            expected_sequence: seq,
            expected_step: None,
            tick: 3 * seq,
            action,
        })
        .unwrap();
    }
    let text = ReplayFile::of_match(&m).unwrap().to_json().unwrap() + "\n";
    let path = manifest_dir().join("tests/golden/microban-1.replay.json");
    if std::env::var_os("TURNSTILE_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == text,
        "the golden replay changed; see {}",
        path.display()
    );
    let report = verify::<Sokoban>(&ReplayFile::parse(&committed).unwrap()).unwrap();
    assert_eq!(report.divergence, None);
    assert_eq!(report.verified, 35);
}

fn action_strategy() -> impl Strategy<Value = SokobanAction> {
    let dir = prop_oneof![
        Just(Direction::Up),
        Just(Direction::Right),
        Just(Direction::Down),
        Just(Direction::Left)
    ];
    prop_oneof![
        6 => dir.prop_map(|direction| SokobanAction::Move { direction }),
        1 => Just(SokobanAction::Undo),
        1 => Just(SokobanAction::Redo),
        1 => Just(SokobanAction::Restart),
        1 => (0u16..12, 0u16..12).prop_map(|(x, y)| SokobanAction::WalkTo { to: [x, y] }),
        1 => (0u16..8, 0u16..8, 0u16..8, 0u16..8)
            .prop_map(|(a, b, c, d)| SokobanAction::PushTo { from: [a, b], to: [c, d] }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random command sequences replay to identical fingerprints, and a rejected command
    /// changes nothing.
    #[test]
    fn random_commands_replay_to_identical_fingerprints(
        level in 1u32..=20,
        actions in proptest::collection::vec(action_strategy(), 0..80),
    ) {
        let mut m = new_match(level);
        for action in actions {
            let before = (*m.state_fingerprint(), m.sequence(), m.log().len());
            if submit(&mut m, action).is_err() {
                prop_assert_eq!((*m.state_fingerprint(), m.sequence(), m.log().len()), before);
            }
        }
        prop_assert_eq!(m.state_fingerprint(), &Fingerprint::of(m.state()).unwrap());
        let text = ReplayFile::of_match(&m).unwrap().to_json().unwrap();
        let report = verify::<Sokoban>(&ReplayFile::parse(&text).unwrap()).unwrap();
        prop_assert_eq!(report.divergence, None);
        prop_assert_eq!(report.final_fingerprint.as_ref(), Some(m.state_fingerprint()));
    }
}

fn pasted(
    xsb: &str,
    topology: Option<turnstile_sokoban::Topology>,
) -> Result<Match<Sokoban>, String> {
    Match::new(
        microban(),
        MatchSpec {
            config: SokobanConfig {
                collection: "pasted".into(),
                level: 1,
                xsb: Some(xsb.into()),
                topology,
            },
            seed: "sokoban".into(),
            seats: vec![SeatSpec::human()],
            tick_rate: 10,
        },
    )
    .map_err(|e| match e {
        turnstile_runtime::MatchError::Setup(s) => format!("{}: {}", s.code, s.message),
        other => other.to_string(),
    })
}

/// Issue 15, point 6: a pasted level is a match whose config carries the level text; it is
/// validated like a shipped level, errors with line and column, and its state carries it.
#[test]
fn a_pasted_level_is_played_validated_and_kept_in_the_state() {
    let mut m = pasted("; mine\n#####\n#@$.#\n#####\n", None).unwrap();
    let events = submit(&mut m, mv(Direction::Right)).unwrap();
    assert!(events
        .iter()
        .any(|e| matches!(e, SokobanEvent::Solved { .. })));
    // The state names the pasted level, so a stored match attaches without any content.
    let state = serde_json::to_value(m.state()).unwrap();
    assert_eq!(state["pasted"]["rows"][1], "#@$.#");
    let mut back: turnstile_sokoban::SokobanState = serde_json::from_value(state).unwrap();
    let empty = SokobanContent::single("none", Vec::new());
    Sokoban::attach(&empty, &mut back).unwrap();
    assert!(back.board().unwrap().is_solved());

    let error = pasted("#####\n#@$ #\n#####\n", None).err().unwrap();
    assert!(
        error.starts_with("invalid_level: line 1, column 1: fewer goals"),
        "{error}"
    );
    let error = pasted("#####\n#@$x#\n#####\n", None).err().unwrap();
    assert!(
        error.contains("line 2, column 4: unknown character 'x'"),
        "{error}"
    );
    let error = pasted("#####\n#@$.#\n#####\n\n#####\n#@$.#\n#####\n", None)
        .err()
        .unwrap();
    assert!(error.starts_with("pasted_level_count"), "{error}");
    let long = format!("#####\n#@$.#\n#####\n;{}\n", "x".repeat(20_000));
    assert!(pasted(&long, None)
        .err()
        .unwrap()
        .starts_with("level_too_long"));
    // A pasted Hexoban level.
    let mut hex = pasted(
        " # # # #\n# @ $ . #\n # # # #\n",
        Some(turnstile_sokoban::Topology::Hex),
    )
    .unwrap();
    let events = submit(&mut hex, mv(Direction::Right)).unwrap();
    assert!(events
        .iter()
        .any(|e| matches!(e, SokobanEvent::Solved { .. })));
}
