//! Tap-to-move planners and dead squares, checked by hand and against brute-force searches.

mod common;

use common::{at, board, level};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use turnstile_sokoban::{
    push_path, walk_path, Board, Cell, DeadSquareEvent, DeadSquares, Direction, PlanError,
};
use Direction::{Down, Left, Right, Up};

/// An open room: many shortest walks, so the tie order shows.
const OPEN: &str = "
#######
#@    #
#     #
#  $ .#
#######
";

/// The box sits at the mouth of a corridor. Pushing it one cell left takes 1 push after a long
/// walk around (21 moves); pushing it out into the room and back would take 5 pushes but only
/// 9 moves. Fewest pushes wins.
const CORRIDOR: &str = "
##########
#        #
# ###### #
#+$    # #
###    # #
  #      #
  ########
";

/// Several boxes and some inner walls, for the brute-force comparisons.
const MAZE: &str = "
 #######
##  .  #
#  $#$ ##
# . @ $.#
##  #  #
 #.$   #
 #######
";

#[test]
fn walk_path_is_shortest_and_prefers_up_right_down_left() {
    let b = board(OPEN);
    assert_eq!(walk_path(&b, at(&b, 3, 2)).unwrap(), [Right, Right, Down]);
    assert_eq!(walk_path(&b, at(&b, 5, 3)).unwrap().len(), 6);
    assert_eq!(walk_path(&b, b.player()).unwrap(), []);
}

#[test]
fn walk_path_goes_around_boxes_and_walls() {
    let b = board(OPEN);
    // (2,3) -> (4,3) with the box on (3,3) in between: around it, 4 moves.
    let mut walker = b.clone();
    walker
        .apply_path(&walk_path(&b, at(&b, 2, 3)).unwrap())
        .unwrap();
    let path = walk_path(&walker, at(&walker, 4, 3)).unwrap();
    assert_eq!(path.len(), 4);
    let outcome = walker.apply_path(&path).unwrap();
    assert!(outcome.steps.iter().all(|s| !s.pushed()));
    assert_eq!(walker.player(), at(&walker, 4, 3));
}

#[test]
fn walk_path_to_an_unreachable_tile_is_no_path() {
    let b = board(CORRIDOR);
    assert_eq!(
        walk_path(&b, at(&b, 0, 0)),
        Err(PlanError::NoPath),
        "a wall"
    );
    assert_eq!(
        walk_path(&b, at(&b, 2, 3)),
        Err(PlanError::NoPath),
        "the box's cell"
    );
    assert_eq!(
        walk_path(&b, at(&b, 0, 5)),
        Err(PlanError::NoPath),
        "outside"
    );
    assert_eq!(
        walk_path(&b, Cell(9999)),
        Err(PlanError::NoPath),
        "beyond the grid"
    );
    assert_eq!(PlanError::NoPath.code(), "no_path");
    // Walled in by boxes: nothing is reachable but the player's own cell.
    let boxed = board("\n#####\n#.$.#\n#$@$#\n#.$.#\n#####\n");
    assert_eq!(walk_path(&boxed, at(&boxed, 1, 1)), Err(PlanError::NoPath));
}

#[test]
fn walk_path_matches_breadth_first_distances_everywhere() {
    for text in [OPEN, CORRIDOR, MAZE] {
        let b = board(text);
        let distances = bfs_distances(&b);
        for (i, &distance) in distances.iter().enumerate() {
            let target = Cell(i as u16);
            match (walk_path(&b, target), distance) {
                (Ok(path), Some(d)) => {
                    assert_eq!(path.len() as u32, d);
                    let mut walker = b.clone();
                    walker.apply_path(&path).unwrap();
                    assert_eq!(walker.player(), target);
                    assert_eq!(walker.pushes(), 0);
                }
                (Err(PlanError::NoPath), None) => {}
                (plan, expected) => panic!("cell {i}: {plan:?}, expected {expected:?}"),
            }
        }
    }
}

#[test]
fn push_path_pushes_from_the_far_side_after_the_shortest_walk() {
    let b = board(OPEN);
    // The box on (3,3) to (4,3): walk to (2,3) (3 moves), push right once.
    let path = push_path(&b, at(&b, 3, 3), at(&b, 4, 3)).unwrap();
    assert_eq!(counts(&b, &path, at(&b, 4, 3)), (1, 4));
    // Nothing can push a box off the bottom wall.
    let path = push_path(&b, at(&b, 3, 3), at(&b, 3, 1));
    assert_eq!(
        path,
        Err(PlanError::NoPath),
        "a box along the bottom wall never leaves it"
    );
}

#[test]
fn push_path_takes_fewest_pushes_before_fewest_moves() {
    let b = board(CORRIDOR);
    let path = push_path(&b, at(&b, 2, 3), at(&b, 1, 3)).unwrap();
    assert_eq!(counts(&b, &path, at(&b, 1, 3)), (1, 21));
    assert_eq!(
        brute_force_push(&b, at(&b, 2, 3), at(&b, 1, 3)),
        Some((1, 21))
    );
}

#[test]
fn push_path_takes_fewest_moves_among_fewest_pushes() {
    // The box goes one down and one right: right-then-down costs 5 moves, down-then-right 7.
    let b = board("\n######\n#    #\n# $  #\n#@ . #\n######\n");
    let path = push_path(&b, at(&b, 2, 2), at(&b, 3, 3)).unwrap();
    assert_eq!(path, [Up, Right, Up, Right, Down]);
    assert_eq!(counts(&b, &path, at(&b, 3, 3)), (2, 5));
    assert_eq!(
        brute_force_push(&b, at(&b, 2, 2), at(&b, 3, 3)),
        Some((2, 5))
    );
}

#[test]
fn push_path_matches_a_brute_force_search_for_every_box_and_target() {
    for text in [OPEN, CORRIDOR, MAZE] {
        let b = board(text);
        for box_cell in b.boxes() {
            for i in 0..usize::from(b.width() * b.height()) {
                let target = Cell(i as u16);
                let expected = brute_force_push(&b, box_cell, target);
                match push_path(&b, box_cell, target) {
                    Ok(path) => assert_eq!(
                        Some(counts(&b, &path, target)),
                        expected,
                        "box {box_cell:?} to {target:?}"
                    ),
                    Err(PlanError::NoPath) => {
                        assert_eq!(expected, None, "box {box_cell:?} to {target:?}")
                    }
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }
}

#[test]
fn push_path_is_deterministic() {
    let b = board(MAZE);
    let first: Vec<_> = b
        .boxes()
        .iter()
        .map(|&c| push_path(&b, c, at(&b, 4, 1)))
        .collect();
    let again: Vec<_> = b
        .boxes()
        .iter()
        .map(|&c| push_path(&b, c, at(&b, 4, 1)))
        .collect();
    assert_eq!(first, again);
}

#[test]
fn push_path_needs_a_box_and_a_free_target() {
    let b = board(MAZE);
    assert_eq!(
        push_path(&b, at(&b, 4, 3), at(&b, 4, 1)),
        Err(PlanError::NotABox)
    );
    assert_eq!(PlanError::NotABox.code(), "not_a_box");
    assert_eq!(
        push_path(&b, at(&b, 3, 2), at(&b, 0, 0)),
        Err(PlanError::NoPath),
        "a wall"
    );
    assert_eq!(
        push_path(&b, at(&b, 3, 2), at(&b, 5, 2)),
        Err(PlanError::NoPath),
        "a box"
    );
    assert_eq!(push_path(&b, at(&b, 3, 2), at(&b, 3, 2)), Ok(vec![]));
}

#[test]
fn a_planned_push_is_one_undo_entry() {
    let mut b = board(CORRIDOR);
    let start = b.position();
    let path = push_path(&b, at(&b, 2, 3), at(&b, 1, 3)).unwrap();
    let outcome = b.apply_path(&path).unwrap();
    assert_eq!(outcome.steps.len(), 21);
    assert!(outcome.solved, "the box's target is the level's only goal");
    b.undo().unwrap();
    assert_eq!(b.position(), start);
}

#[test]
fn dead_squares_cover_corners_and_walls_without_goals() {
    let l = level(
        "
#######
#     #
#  $  #
#  @ .#
#######
",
    );
    let dead = DeadSquares::compute(&l);
    let cell = |x, y| l.cell_at(x, y).unwrap();
    for (x, y) in [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (1, 2), (1, 3)] {
        assert!(dead.is_dead(cell(x, y)), "({x}, {y})");
    }
    for (x, y) in [
        (2, 2),
        (3, 2),
        (4, 2),
        (5, 2),
        (2, 3),
        (3, 3),
        (4, 3),
        (5, 3),
        (0, 0),
    ] {
        assert!(!dead.is_dead(cell(x, y)), "({x}, {y})");
    }
    assert_eq!(dead.count(), 7);
    assert_eq!(dead.cells().len(), 7);
}

#[test]
fn a_goal_in_a_corner_is_not_dead() {
    let l = level("\n#####\n#.$@#\n#####\n");
    let dead = DeadSquares::compute(&l);
    assert!(!dead.is_dead(l.cell_at(1, 1).unwrap()));
    assert!(
        dead.is_dead(l.cell_at(3, 1).unwrap()),
        "the corner without goal"
    );
}

#[test]
fn pushing_a_box_into_a_non_goal_corner_reports_a_dead_square() {
    let mut b = board("\n#######\n# $@ .#\n#     #\n#######\n");
    let outcome = b.step(Left).unwrap();
    assert_eq!(outcome.dead, Some(DeadSquareEvent { cell: at(&b, 1, 1) }));
    assert!(b.is_dead(at(&b, 1, 1)));
}

#[test]
fn pushing_a_box_onto_a_dead_square_along_a_wall_reports_it() {
    let mut b = board("\n#######\n#     #\n#  $  #\n#  @ .#\n#######\n");
    let outcome = b.step(Up).unwrap();
    assert_eq!(outcome.dead, Some(DeadSquareEvent { cell: at(&b, 3, 1) }));
    // Undo and push the box elsewhere: a live square, no event.
    b.undo().unwrap();
    b.apply_path(&[Left, Up]).unwrap();
    assert_eq!(b.step(Right).unwrap().dead, None);
}

/// (pushes, moves) of a path, after checking it is legal and ends with the box on `target`.
fn counts(b: &Board, path: &[Direction], target: Cell) -> (u32, u32) {
    let mut played = b.clone();
    played.apply_path(path).unwrap();
    assert!(played.has_box(target), "the box reached its target");
    (played.pushes(), played.moves())
}

/// Walking distances from the player, by an independent breadth-first search.
fn bfs_distances(b: &Board) -> Vec<Option<u32>> {
    let n = usize::from(b.width() * b.height());
    let mut dist = vec![None; n];
    dist[b.player().index()] = Some(0);
    let mut queue = std::collections::VecDeque::from([b.player()]);
    while let Some(c) = queue.pop_front() {
        for d in Direction::ALL {
            if let Some(next) = b.neighbour(c, d) {
                if !b.is_wall(next) && !b.has_box(next) && dist[next.index()].is_none() {
                    dist[next.index()] = Some(dist[c.index()].unwrap() + 1);
                    queue.push_back(next);
                }
            }
        }
    }
    dist
}

/// Fewest (pushes, moves) to bring the box on `box_cell` to `target`, searching every
/// (player, box) state one move at a time; other boxes stay put.
fn brute_force_push(b: &Board, box_cell: Cell, target: Cell) -> Option<(u32, u32)> {
    let blocked = |c: Cell| b.is_wall(c) || (b.has_box(c) && c != box_cell);
    if blocked(target) {
        return None;
    }
    let mut heap = BinaryHeap::from([Reverse((0u32, 0u32, b.player(), box_cell))]);
    let mut done = BTreeSet::new();
    while let Some(Reverse((pushes, moves, player, bx))) = heap.pop() {
        if !done.insert((player, bx)) {
            continue;
        }
        if bx == target {
            return Some((pushes, moves));
        }
        for d in Direction::ALL {
            let Some(next) = b.neighbour(player, d) else {
                continue;
            };
            if blocked(next) {
                continue;
            }
            if next == bx {
                match b.neighbour(bx, d) {
                    Some(beyond) if !blocked(beyond) => {
                        heap.push(Reverse((pushes + 1, moves + 1, next, beyond)))
                    }
                    _ => {}
                }
            } else {
                heap.push(Reverse((pushes, moves + 1, next, bx)));
            }
        }
    }
    None
}
