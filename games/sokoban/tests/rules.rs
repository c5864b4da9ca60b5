//! One test per rule of spec/sokoban.md (moves, pushes, walls, solved, history, counters, LURD).

mod common;

use common::{at, board, level};
use turnstile_sokoban::{
    apply_lurd, export_lurd, parse_lurd, parse_numeric, BoxPush, Direction, HistoryEntry,
    HistoryRejection, LurdError, LurdStep, MoveRejection, PathRejection, Tile,
};
use Direction::{Down, Left, Right, Up};

/// A room with one box between the player and its goal, and a wall stub below.
const ROOM: &str = "
#######
#     #
# @$ .#
#   # #
#######
";

/// Boxes in a row and a box against a wall.
const BLOCKS: &str = "
#######
#@$$ .#
#  $#.#
#    .#
#######
";

/// One box, two goals.
const MORE_GOALS: &str = "
######
#@$ .#
#   .#
######
";

/// The seed's example level (seed 003), in its numeric format.
const SEED: &str = "1,1,1,1,1,1,1
1,3,1,-1,1,0,1
-1,0,1,2,1,1,-1
1,1,1,3,1,3,1
1,1,0,-1,1,1,1
";

#[test]
fn walking_moves_the_player_onto_free_floor() {
    let mut b = board(ROOM);
    let outcome = b.step(Up).unwrap();
    assert_eq!(outcome.player_from, at(&b, 2, 2));
    assert_eq!(outcome.player_to, at(&b, 2, 1));
    assert_eq!(b.player(), at(&b, 2, 1));
    assert_eq!(outcome.push, None);
    assert!(!outcome.pushed() && !outcome.solved);
    assert_eq!((b.moves(), b.pushes()), (1, 0));
}

#[test]
fn walking_onto_a_goal_is_allowed() {
    let mut b = board(ROOM);
    for d in [Up, Right, Right, Right, Down] {
        b.step(d).unwrap();
    }
    assert_eq!(b.player(), at(&b, 5, 2));
    assert!(b.is_goal(b.player()));
    assert_eq!(b.to_rows()[2], "#  $ +#");
}

#[test]
fn a_push_moves_box_and_player_one_cell() {
    let mut b = board(ROOM);
    let outcome = b.step(Right).unwrap();
    let push = BoxPush {
        from: at(&b, 3, 2),
        to: at(&b, 4, 2),
    };
    assert_eq!(outcome.push, Some(push));
    assert_eq!(outcome.player_to, at(&b, 3, 2));
    assert!(b.has_box(at(&b, 4, 2)) && !b.has_box(at(&b, 3, 2)));
    assert_eq!((b.moves(), b.pushes()), (1, 1));
    assert_eq!(outcome.dead, None, "the box can still reach the goal");
    assert_eq!(b.to_rows()[2], "#  @$.#");
}

#[test]
fn a_wall_rejects_the_move_and_changes_nothing() {
    let mut b = board(ROOM);
    b.step(Left).unwrap();
    let before = b.clone();
    assert_eq!(b.step(Left), Err(MoveRejection::Wall));
    assert_eq!(b, before);
    assert_eq!(MoveRejection::Wall.code(), "wall");
}

#[test]
fn the_grid_edge_of_a_numeric_level_rejects_as_a_wall() {
    // Seed row 3 has floor in its first column: walk there, then off the grid's edge.
    let level = parse_numeric(SEED, "seed.txt").unwrap();
    let mut b = turnstile_sokoban::Board::new(&level);
    for d in [Left, Down, Left, Left] {
        b.step(d).unwrap();
    }
    assert_eq!(b.player(), at(&b, 1, 4), "seed cell (0, 3)");
    let before = b.clone();
    assert_eq!(b.step(Left), Err(MoveRejection::Wall));
    b.step(Down).unwrap();
    assert_eq!(
        b.step(Down),
        Err(MoveRejection::Wall),
        "below the seed's last row"
    );
    b.undo().unwrap();
    assert_eq!(b, {
        let mut expected = before.clone();
        expected.step(Down).unwrap();
        expected.undo().unwrap();
        expected
    });
}

#[test]
fn a_box_against_a_wall_is_blocked() {
    let mut b = board(BLOCKS);
    b.step(Down).unwrap();
    b.step(Right).unwrap();
    let before = b.clone();
    assert_eq!(b.step(Right), Err(MoveRejection::BoxBlocked));
    assert_eq!(b, before);
    assert_eq!(MoveRejection::BoxBlocked.code(), "box_blocked");
}

#[test]
fn two_boxes_in_a_row_are_blocked() {
    let mut b = board(BLOCKS);
    let before = b.clone();
    assert_eq!(b.step(Right), Err(MoveRejection::BoxBlocked));
    assert_eq!(b, before);
}

#[test]
fn solved_when_every_box_is_on_a_goal_even_with_more_goals_than_boxes() {
    let mut b = board(MORE_GOALS);
    assert!(!b.step(Right).unwrap().solved);
    assert!(!b.is_solved());
    let outcome = b.step(Right).unwrap();
    assert!(outcome.solved && b.is_solved());
}

#[test]
fn a_level_with_every_box_on_a_goal_from_the_start_is_solved() {
    let mut b = board("\n#####\n#@*.#\n#####\n");
    assert!(b.is_solved());
    assert_eq!(b.step(Right), Err(MoveRejection::Solved));
}

#[test]
fn every_move_is_rejected_after_solving_and_changes_nothing() {
    let mut b = board(MORE_GOALS);
    apply_lurd(&mut b, "RR").unwrap();
    let before = b.clone();
    for d in Direction::ALL {
        assert_eq!(b.step(d), Err(MoveRejection::Solved));
        assert_eq!(b, before);
    }
    assert_eq!(
        b.apply_path(&[Left]),
        Err(PathRejection {
            index: 0,
            reason: MoveRejection::Solved
        })
    );
    assert_eq!(b, before);
    assert_eq!(MoveRejection::Solved.code(), "solved");
}

#[test]
fn undo_after_solving_unsolves_and_redo_solves_again() {
    let mut b = board(MORE_GOALS);
    apply_lurd(&mut b, "RR").unwrap();
    let undone = b.undo().unwrap();
    assert_eq!(
        undone.entry,
        HistoryEntry::Moves {
            moves: 1,
            pushes: 1
        }
    );
    assert!(!undone.solved && !b.is_solved());
    assert!(b.has_box(at(&b, 3, 1)));
    assert_eq!((b.moves(), b.pushes()), (1, 1));
    b.step(Down).unwrap(); // the level plays on after an undo
    assert_eq!(
        b.redo(),
        Err(HistoryRejection::NothingToRedo),
        "a new move cleared redo"
    );
    b.undo().unwrap();
    b.step(Right).unwrap();
    b.undo().unwrap();
    let redone = b.redo().unwrap();
    assert!(redone.solved && b.is_solved());
    assert_eq!((b.moves(), b.pushes()), (2, 2));
}

#[test]
fn restart_after_solving_goes_back_to_the_start_and_is_undoable() {
    let mut b = board(MORE_GOALS);
    let start = b.position();
    apply_lurd(&mut b, "RR").unwrap();
    let solved = b.clone();
    let restarted = b.restart().unwrap();
    assert_eq!(restarted.entry, HistoryEntry::Restart);
    assert!(!restarted.solved);
    assert_eq!(b.position(), start);
    assert_eq!((b.moves(), b.pushes()), (0, 0));
    assert_eq!(export_lurd(&b), "");
    assert_eq!(b.restart(), Err(HistoryRejection::NothingToRestart));

    // Undo brings back the solved position, counters and history.
    assert_eq!(b.undo().unwrap().entry, HistoryEntry::Restart);
    assert!(b.is_solved());
    assert_eq!((b.moves(), b.pushes()), (2, 2));
    assert_eq!(export_lurd(&b), "RR");
    assert_eq!(b.position(), solved.position());

    // Redo restarts again; a new move after the restart clears redo.
    assert_eq!(b.redo().unwrap().entry, HistoryEntry::Restart);
    assert_eq!(b.position(), start);
    b.step(Down).unwrap();
    assert_eq!(b.redo(), Err(HistoryRejection::NothingToRedo));
    assert_eq!(export_lurd(&b), "d");
    // Undo walks back through the restart into the moves before it.
    b.undo().unwrap();
    b.undo().unwrap();
    assert_eq!(export_lurd(&b), "RR");
    b.undo().unwrap();
    b.undo().unwrap();
    assert_eq!(b.position(), start);
    assert_eq!(b.undo(), Err(HistoryRejection::NothingToUndo));
}

#[test]
fn restart_at_the_start_is_rejected() {
    let mut b = board(ROOM);
    let before = b.clone();
    assert_eq!(b.restart(), Err(HistoryRejection::NothingToRestart));
    assert_eq!(b, before);
    b.step(Up).unwrap();
    b.undo().unwrap();
    let before = b.clone();
    assert_eq!(
        b.restart(),
        Err(HistoryRejection::NothingToRestart),
        "everything is undone"
    );
    assert_eq!(b, before, "the redo stack survives the rejection");
    assert_eq!(
        HistoryRejection::NothingToRestart.code(),
        "nothing_to_restart"
    );
}

#[test]
fn counters_count_moves_and_pushes_and_undo_decrements_them() {
    let mut b = board(ROOM);
    b.step(Up).unwrap(); // walk
    b.step(Down).unwrap(); // walk
    b.step(Right).unwrap(); // push
    assert_eq!((b.moves(), b.pushes()), (3, 1));
    assert!(b.step(Right).unwrap().solved); // push onto the goal
    assert_eq!((b.moves(), b.pushes()), (4, 2));
    b.undo().unwrap();
    assert_eq!((b.moves(), b.pushes()), (3, 1));
    b.undo().unwrap();
    assert_eq!((b.moves(), b.pushes()), (2, 0));
    b.redo().unwrap();
    assert_eq!((b.moves(), b.pushes()), (3, 1));
}

#[test]
fn undo_and_redo_with_empty_stacks_are_rejected() {
    let mut b = board(ROOM);
    let before = b.clone();
    assert_eq!(b.undo(), Err(HistoryRejection::NothingToUndo));
    assert_eq!(b.redo(), Err(HistoryRejection::NothingToRedo));
    assert_eq!(b, before);
    assert!(!b.can_undo() && !b.can_redo());
}

#[test]
fn a_path_is_one_history_entry() {
    let mut b = board(ROOM);
    let outcome = b.apply_path(&[Up, Down, Right]).unwrap();
    assert_eq!(outcome.steps.len(), 3);
    assert!(outcome.steps[2].pushed() && !outcome.solved);
    assert_eq!(export_lurd(&b), "udR");
    let undone = b.undo().unwrap();
    assert_eq!(
        undone.entry,
        HistoryEntry::Moves {
            moves: 3,
            pushes: 1
        }
    );
    assert_eq!((b.moves(), b.pushes(), b.player()), (0, 0, at(&b, 2, 2)));
    assert!(!b.can_undo());
    let redone = b.redo().unwrap();
    assert_eq!(
        redone.entry,
        HistoryEntry::Moves {
            moves: 3,
            pushes: 1
        }
    );
    assert_eq!(export_lurd(&b), "udR");
    assert!(!b.can_redo());
}

#[test]
fn a_rejected_path_changes_nothing_and_names_the_move() {
    let mut b = board(ROOM);
    b.step(Up).unwrap();
    b.undo().unwrap();
    let before = b.clone();
    let rejection = b.apply_path(&[Down, Right, Right, Up]).unwrap_err();
    assert_eq!(
        rejection,
        PathRejection {
            index: 2,
            reason: MoveRejection::Wall
        }
    );
    assert_eq!(rejection.code(), "wall");
    assert_eq!(
        b, before,
        "position, counters, history and redo are untouched"
    );
}

#[test]
fn a_path_stops_where_the_level_becomes_solved() {
    let mut b = board(MORE_GOALS);
    let outcome = b.apply_path(&[Right, Right, Down, Left]).unwrap();
    assert_eq!(outcome.steps.len(), 2);
    assert!(outcome.solved);
    assert_eq!(export_lurd(&b), "RR");
}

#[test]
fn lurd_parsing_ignores_whitespace_and_reads_case_as_push() {
    let steps = parse_lurd(" lU\n r\tD ").unwrap();
    let expected = [
        LurdStep {
            direction: Left,
            push: false,
        },
        LurdStep {
            direction: Up,
            push: true,
        },
        LurdStep {
            direction: Right,
            push: false,
        },
        LurdStep {
            direction: Down,
            push: true,
        },
    ];
    assert_eq!(steps, expected);
    assert_eq!(turnstile_sokoban::format_lurd(&steps), "lUrD");
}

#[test]
fn lurd_parsing_names_the_offset_of_an_unknown_character() {
    let error = parse_lurd("lu rx").unwrap_err();
    assert_eq!(
        error,
        LurdError::UnknownCharacter {
            offset: 4,
            character: 'x',
            letters: "l u r d",
        }
    );
    assert_eq!(error.code(), "lurd_unknown_character");
    assert_eq!(
        error.to_string(),
        "character 4: 'x' is not a step of this board (l u r d, upper case to push)"
    );
}

#[test]
fn a_lurd_solution_imports_and_exports() {
    let mut b = board(ROOM);
    let outcome = apply_lurd(&mut b, "ud RR").unwrap();
    assert_eq!(
        (outcome.moves, outcome.pushes, outcome.solved),
        (4, 2, true)
    );
    assert_eq!(export_lurd(&b), "udRR");
    b.undo().unwrap();
    assert_eq!(
        export_lurd(&b),
        "udR",
        "each imported step is its own undo entry"
    );
}

#[test]
fn a_lower_case_step_that_pushes_is_a_mismatch_and_changes_nothing() {
    let mut b = board(ROOM);
    let before = b.clone();
    let error = apply_lurd(&mut b, "ud r").unwrap_err();
    assert_eq!(
        error,
        LurdError::PushMismatch {
            offset: 3,
            step: 2,
            written_push: false
        }
    );
    assert_eq!(error.code(), "lurd_push_mismatch");
    assert_eq!(b, before);
}

#[test]
fn an_upper_case_step_that_does_not_push_is_a_mismatch() {
    let mut b = board(ROOM);
    let before = b.clone();
    let error = apply_lurd(&mut b, "U").unwrap_err();
    assert_eq!(
        error,
        LurdError::PushMismatch {
            offset: 0,
            step: 0,
            written_push: true
        }
    );
    assert_eq!(b, before);
}

#[test]
fn a_lurd_step_the_rules_reject_fails_the_import_atomically() {
    let mut b = board(ROOM);
    b.step(Up).unwrap();
    b.undo().unwrap(); // leaves something to redo
    let before = b.clone();
    let error = apply_lurd(&mut b, "RRr").unwrap_err();
    let expected = LurdError::MoveRejected {
        offset: 2,
        step: 2,
        reason: MoveRejection::Solved,
    };
    assert_eq!(error, expected);
    assert_eq!(error.code(), "lurd_move_rejected");
    assert_eq!(b, before);
    assert!(b.can_redo());
}

#[test]
fn export_lists_moves_since_the_last_restart() {
    let mut b = board(ROOM);
    apply_lurd(&mut b, "ulr").unwrap();
    b.restart().unwrap();
    apply_lurd(&mut b, "Rd").unwrap();
    assert_eq!(export_lurd(&b), "Rd");
}

#[test]
fn the_seed_example_loads_with_the_seed_meaning() {
    let level = parse_numeric(SEED, "seed.txt").unwrap();
    assert_eq!(
        (level.width(), level.height()),
        (9, 7),
        "7x5 plus a ring of walls"
    );
    let values: Vec<Vec<i32>> = SEED
        .lines()
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let mut boxes = Vec::new();
    let mut goals = Vec::new();
    for (y, row) in values.iter().enumerate() {
        for (x, &value) in row.iter().enumerate() {
            let cell = level.cell_at(x as u16 + 1, y as u16 + 1).unwrap();
            let expected_tile = match value {
                -1 => Tile::Wall,
                0 | -2 | -3 => Tile::Goal,
                _ => Tile::Floor,
            };
            assert_eq!(level.tile(cell), expected_tile, "seed cell ({x}, {y})");
            if value == 2 || value == -2 {
                assert_eq!(level.player(), cell);
            }
            if value == 3 || value == -3 {
                boxes.push(cell);
            }
            if expected_tile == Tile::Goal {
                goals.push(cell);
            }
        }
    }
    assert_eq!(level.player(), level.cell_at(4, 3).unwrap(), "seed (3, 2)");
    assert_eq!(level.boxes(), boxes.as_slice());
    assert_eq!(boxes.len(), 3);
    assert_eq!(level.goals(), goals);
    assert_eq!(goals.len(), 3);
    for x in 0..9 {
        for y in [0, 6] {
            assert_eq!(level.tile(level.cell_at(x, y).unwrap()), Tile::Wall);
        }
    }
    for y in 0..7 {
        for x in [0, 8] {
            assert_eq!(level.tile(level.cell_at(x, y).unwrap()), Tile::Wall);
        }
    }
    assert_eq!(
        level.to_rows(),
        [
            "#########",
            "#       #",
            "# $ # . #",
            "##. @  ##",
            "#   $ $ #",
            "#  .#   #",
            "#########"
        ]
    );
}

#[test]
fn levels_round_trip_through_their_serde_form() {
    use serde_json::json;
    let original = level("; Round trip\n  ####\n###  #\n#@$. #\n######\n");
    let value = serde_json::to_value(&original).unwrap();
    let expected = json!({"title": "Round trip", "rows": ["  ####", "###  #", "#@$. #", "######"]});
    assert_eq!(value, expected);
    let back: turnstile_sokoban::Level = serde_json::from_value(value).unwrap();
    assert_eq!(back, original);
    let untitled = parse_numeric(SEED, "seed.txt").unwrap();
    let value = serde_json::to_value(&untitled).unwrap();
    assert_eq!(value.as_object().unwrap().len(), 1, "no title key: {value}");
    assert_eq!(
        serde_json::from_value::<turnstile_sokoban::Level>(value).unwrap(),
        untitled
    );
}

#[test]
fn deserializing_an_invalid_level_fails_with_its_problems() {
    use serde_json::json;
    let rows = json!({"rows": ["#####", "#@$ #", "#####"]});
    let error = serde_json::from_value::<turnstile_sokoban::Level>(rows)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("rows:1:1: level 1: fewer goals (0) than boxes (1)"),
        "{error}"
    );
    let unknown_field = json!({"rows": ["#####", "#@*.#", "#####"], "x": 1});
    assert!(serde_json::from_value::<turnstile_sokoban::Level>(unknown_field).is_err());
}

#[test]
fn decorative_boxes_count_as_on_their_goals() {
    // The sealed `*` is a box on its goal the player can never reach.
    let mut b = board("\n#########\n#@$ .#*##\n#########\n");
    assert_eq!(b.boxes().len(), 2);
    assert!(!b.is_solved());
    b.step(Right).unwrap();
    assert!(b.step(Right).unwrap().solved);
    assert_eq!(b.to_rows(), ["#########", "#  @*#*##", "#########"]);
}

#[test]
fn a_board_record_lists_entries_and_rebuilds_the_board() {
    use turnstile_sokoban::{Board, BoardRecord, RecordError, RecordPart};
    let level = level(ROOM);
    let mut b = Board::new(&level);
    b.step(Up).unwrap();
    b.step(Down).unwrap();
    b.apply_path(&[Left, Right, Right]).unwrap();
    b.restart().unwrap();
    b.step(Down).unwrap();
    b.apply_path(&[Right, Up]).unwrap();
    b.undo().unwrap();
    b.undo().unwrap();
    let record = b.record();
    let expected = BoardRecord {
        history: "ud(lrR)!".into(),
        redo: "d(rU)".into(),
    };
    assert_eq!(record, expected);
    assert_eq!(Board::from_record(&level, &record).unwrap(), b);
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"history": "ud(lrR)!", "redo": "d(rU)"})
    );

    let bad = |history: &str| {
        Board::from_record(
            &level,
            &BoardRecord {
                history: history.into(),
                redo: String::new(),
            },
        )
    };
    let malformed = |offset| {
        Err(RecordError::Malformed {
            part: RecordPart::History,
            offset,
        })
    };
    assert_eq!(bad("u(lr"), malformed(1));
    assert_eq!(
        bad("u(l)"),
        malformed(1),
        "a one-move path is written as its letter"
    );
    assert_eq!(bad("ux"), malformed(1));
    let illegal = |offset, reason| {
        Err(RecordError::Illegal {
            part: RecordPart::History,
            offset,
            reason,
        })
    };
    assert_eq!(
        bad("ur"),
        Ok(Board::from_record(
            &level,
            &BoardRecord {
                history: "ur".into(),
                redo: String::new()
            }
        )
        .unwrap())
    );
    assert_eq!(bad("r"), illegal(0, "push_mismatch"));
    assert_eq!(bad("!"), illegal(0, "nothing_to_restart"));
    assert_eq!(bad("l(lr)"), illegal(1, "wall"));
    assert_eq!(bad("RRd"), illegal(2, "solved"));
    assert_eq!(
        RecordError::Malformed {
            part: RecordPart::Redo,
            offset: 3
        }
        .to_string(),
        "redo character 3: malformed board record"
    );
}
