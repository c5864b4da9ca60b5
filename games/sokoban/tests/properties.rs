//! Property tests: the parsers never panic on any text, and random play with undo, redo and
//! restart keeps the board's invariants.

mod common;

use proptest::prelude::*;
use turnstile_sokoban::{
    apply_lurd, export_lurd, parse_collection, parse_numeric, push_path, walk_path, Board, Cell,
    Direction, Level,
};

/// Levels to play on: several boxes, goals, inner walls, a decorative box.
const LEVELS: [&str; 3] = [
    "
 #######
##  .  #
#  $#$ ##
# . @ $.#
##  #  #
 #.$   #
 #######
",
    "
#######
#.    #
#  $  #
#@ $ .#
#######
",
    "
#########
#@$ .#*##
#   $.  #
#########
",
];

/// Whatever a level text parses to: valid levels round-trip and can be played.
fn exercise(level: &Level, moves: &[u8]) {
    let rows = level.to_rows();
    let back = Level::from_rows(level.title().map(str::to_string), &rows, "rows").unwrap();
    assert_eq!(&back, level);
    let mut board = Board::new(level);
    assert_eq!(board.to_rows(), rows);
    for &m in moves {
        let _ = board.step(Direction::ALL[usize::from(m % 4)]);
    }
    while board.undo().is_ok() {}
    assert_eq!(board.player(), level.player());
    assert_eq!(board.boxes(), level.boxes());
}

/// Text drawn from the characters the parsers care about.
fn level_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            8 => Just('#'), 2 => Just('@'), 1 => Just('+'), 2 => Just('$'), 1 => Just('*'),
            2 => Just('.'), 6 => Just(' '), 1 => Just('-'), 1 => Just('_'), 3 => Just('\n'),
            1 => Just('|'), 1 => Just(';'), 1 => Just(':'), 1 => Just('\r'), 1 => Just('T'),
            1 => (b'0'..=b'9').prop_map(char::from), 1 => any::<char>(),
        ],
        0..400,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// A small closed room with random content and one player, so that many are valid levels.
fn walled_room() -> impl Strategy<Value = String> {
    (2usize..7, 2usize..6).prop_flat_map(|(w, h)| {
        let cell = prop::sample::select(vec![' ', ' ', ' ', ' ', '#', '$', '.', '.', '*']);
        (prop::collection::vec(cell, w * h), 0..w * h).prop_map(move |(mut cells, player)| {
            cells[player] = if cells[player] == '.' { '+' } else { '@' };
            let mut text = "#".repeat(w + 2) + "\n";
            for row in cells.chunks(w) {
                text.push('#');
                text.extend(row);
                text.push_str("#\n");
            }
            text + &"#".repeat(w + 2) + "\n"
        })
    })
}

/// A numeric grid: values from -4 to 4, sometimes a stray character.
fn numeric_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::collection::vec(
            prop_oneof![9 => (-4i32..=4).prop_map(|v| v.to_string()), 1 => "[ x,+]{0,3}"],
            0..8,
        ),
        0..8,
    )
    .prop_map(|rows| {
        rows.iter()
            .map(|r| r.join(","))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// One action of a player.
#[derive(Clone, Debug)]
enum Action {
    Step(Direction),
    Undo,
    Redo,
    Restart,
    WalkTo(u16),
    PushTo(u16, u16),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        12 => prop::sample::select(Direction::ALL.to_vec()).prop_map(Action::Step),
        4 => Just(Action::Undo),
        2 => Just(Action::Redo),
        1 => Just(Action::Restart),
        1 => any::<u16>().prop_map(Action::WalkTo),
        1 => (any::<u16>(), any::<u16>()).prop_map(|(b, t)| Action::PushTo(b, t)),
    ]
}

/// Whatever happened, the board must agree with a replay of its exported LURD.
fn assert_consistent(board: &Board, level: &Level) {
    let lurd = export_lurd(board);
    assert_eq!(board.moves() as usize, lurd.len());
    assert_eq!(
        board.pushes() as usize,
        lurd.chars().filter(char::is_ascii_uppercase).count()
    );
    let mut replay = Board::new(level);
    if !lurd.is_empty() {
        apply_lurd(&mut replay, &lurd).unwrap();
    }
    assert_eq!(replay.position(), board.position());
    let record = board.record();
    let rebuilt = Board::from_record(level, &record).unwrap();
    assert_eq!(&rebuilt, board, "the record {record:?} rebuilds the board");
    let boxes = board.boxes();
    assert_eq!(boxes.len(), level.boxes().len());
    assert_eq!(board.is_solved(), boxes.iter().all(|&b| board.is_goal(b)));
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        // Failures are saved next to this file (tests/properties.proptest-regressions); commit them.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_collection_parser_never_panics_on_any_text(text in any::<String>()) {
        let _ = parse_collection(&text, "any.xsb");
    }

    #[test]
    fn the_collection_parser_never_panics_on_level_characters(
        text in level_text(),
        moves in prop::collection::vec(any::<u8>(), 0..40),
    ) {
        for level in parse_collection(&text, "chars.xsb").valid_levels() {
            exercise(level, &moves);
        }
    }

    #[test]
    fn generated_rooms_load_or_explain_why(
        text in walled_room(),
        moves in prop::collection::vec(any::<u8>(), 0..60),
    ) {
        let collection = parse_collection(&text, "room.xsb");
        prop_assert_eq!(collection.levels.len(), 1);
        match &collection.levels[0] {
            Ok(level) => exercise(level, &moves),
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                for e in errors {
                    prop_assert!(e.to_string().starts_with("room.xsb:"));
                }
            }
        }
    }

    #[test]
    fn the_numeric_parser_never_panics_on_any_text(text in any::<String>()) {
        let _ = parse_numeric(&text, "any.txt");
    }

    #[test]
    fn the_numeric_parser_never_panics_on_grids(
        text in numeric_text(),
        moves in prop::collection::vec(any::<u8>(), 0..40),
    ) {
        if let Ok(level) = parse_numeric(&text, "grid.txt") {
            exercise(&level, &moves);
        }
    }

    #[test]
    fn random_play_keeps_the_invariants(
        which in 0..LEVELS.len(),
        actions in prop::collection::vec(action(), 0..120),
    ) {
        let level = common::level(LEVELS[which]);
        let mut board = Board::new(&level);
        let cells = u16::try_from(level.tiles().len()).unwrap();
        for action in actions {
            let before = board.clone();
            let accepted = match action {
                Action::Step(d) => board.step(d).is_ok(),
                Action::Undo => board.undo().is_ok(),
                Action::Redo => board.redo().is_ok(),
                Action::Restart => board.restart().is_ok(),
                Action::WalkTo(t) => walk_path(&board, Cell(t % cells))
                    .is_ok_and(|path| board.apply_path(&path).is_ok_and(|o| !o.steps.is_empty())),
                Action::PushTo(b, t) => push_path(&board, Cell(b % cells), Cell(t % cells))
                    .is_ok_and(|path| board.apply_path(&path).is_ok_and(|o| !o.steps.is_empty())),
            };
            if !accepted {
                prop_assert_eq!(&board, &before, "a rejection changed the board");
            }
            assert_consistent(&board, &level);
        }
        // Undoing everything restores the start; redoing as many entries comes back exactly.
        let end = board.clone();
        let mut undone = 0;
        while board.undo().is_ok() {
            undone += 1;
        }
        prop_assert_eq!(board.position(), Board::new(&level).position());
        prop_assert_eq!((board.moves(), board.pushes()), (0, 0));
        for _ in 0..undone {
            board.redo().unwrap();
        }
        prop_assert_eq!(&board, &end);
    }
}

#[test]
fn generated_rooms_are_often_valid() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let valid = (0..200)
        .filter(|_| {
            let text = walled_room().new_tree(&mut runner).unwrap().current();
            parse_collection(&text, "room.xsb").valid_levels().count() == 1
        })
        .count();
    assert!(valid >= 40, "only {valid} of 200 generated rooms are valid");
}
