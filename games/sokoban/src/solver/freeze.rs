//! Freeze deadlocks: boxes that can never move again, found right after the push that froze them.
//!
//! A box can move along an axis (a pair of opposite directions) only if both cells of that axis
//! are free enough: the player must stand on one and the box go to the other. An axis is blocked
//! when either side is a wall, when both sides are dead squares, or when a side holds a box that
//! is itself frozen (checked recursively, with the boxes under examination treated as walls, as
//! the Sokoban wiki's freeze test does; a box found movable is taken back off that list, so a
//! failed branch never blocks another). A box blocked on every axis is frozen; a frozen box off
//! a goal means the level can't be solved any more.

use super::graph::{CellGraph, NONE};

/// Whether the box on `cell` (already placed in `occupied`) is part of a frozen group holding a
/// box off its goal. `stack` is scratch space, left empty.
pub(crate) fn freeze_deadlock(
    graph: &CellGraph,
    occupied: &[bool],
    cell: u16,
    stack: &mut Vec<u16>,
) -> bool {
    stack.clear();
    let mut off_goal = false;
    let frozen = frozen(graph, occupied, cell, stack, &mut off_goal);
    stack.clear();
    frozen && off_goal
}

/// Whether the box on `cell` is frozen; `examining` holds the boxes treated as walls.
/// Sets `off_goal` when a box found frozen on the way stands off a goal.
fn frozen(
    graph: &CellGraph,
    occupied: &[bool],
    cell: u16,
    examining: &mut Vec<u16>,
    off_goal: &mut bool,
) -> bool {
    let (mark, saved) = (examining.len(), *off_goal);
    examining.push(cell);
    for &(a, b) in &graph.axes {
        let one = graph.next(cell, usize::from(a));
        let other = graph.next(cell, usize::from(b));
        let wall = |c: u16| c == NONE || examining.contains(&c);
        if wall(one) || wall(other) {
            continue;
        }
        if graph.dead[usize::from(one)] && graph.dead[usize::from(other)] {
            continue;
        }
        let blocked_by = |c: u16, examining: &mut Vec<u16>, off_goal: &mut bool| {
            occupied[usize::from(c)] && frozen(graph, occupied, c, examining, off_goal)
        };
        if blocked_by(one, examining, off_goal) || blocked_by(other, examining, off_goal) {
            continue;
        }
        // Movable: what was assumed while examining it no longer holds.
        examining.truncate(mark);
        *off_goal = saved;
        return false;
    }
    if !graph.goal[usize::from(cell)] {
        *off_goal = true;
    }
    true
}
