//! Tap-to-move planners: walk to a tile, or push one box to a tile, as a list of moves.
//!
//! Both are pure functions of the board and fully deterministic; apply their result with
//! [`Board::apply_path`] to make it one history entry.
//!
//! * [`walk_path`]: the shortest walk (no pushes), by breadth-first search trying directions in
//!   the fixed order up, right, down, left; among shortest walks it returns the one that order
//!   discovers first.
//! * [`push_path`]: pushes one box to a target with the fewest pushes, then the fewest moves
//!   (walking plus pushing). It searches states (box cell, side the player pushes from) with
//!   Dijkstra's algorithm on the cost (pushes, moves) compared lexicographically; walking between
//!   pushes is measured by breadth-first search with the other boxes as obstacles. Ties are broken
//!   by the smallest state (box cell, then direction in up, right, down, left order), so the
//!   same board always yields the same plan.

use crate::board::{Board, BOX, WALL};
use crate::grid::{Cell, Direction};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use thiserror::Error;

/// Why a plan could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlanError {
    /// The target can't be reached (by walking, or by pushing the box there).
    #[error("no path to the target")]
    NoPath,
    /// [`push_path`] was asked to push a box from a cell with no box.
    #[error("no box on that cell")]
    NotABox,
}

impl PlanError {
    /// The stable snake_case code of this error.
    pub fn code(self) -> &'static str {
        match self {
            PlanError::NoPath => "no_path",
            PlanError::NotABox => "not_a_box",
        }
    }
}

/// Marks an unvisited cell in the search arrays.
const UNSEEN: u32 = u32::MAX;

/// The shortest walk (no pushes) from the player to `target`; empty when the player is there.
pub fn walk_path(board: &Board, target: Cell) -> Result<Vec<Direction>, PlanError> {
    let flags = board.flags();
    if target.index() >= flags.len() {
        return Err(PlanError::NoPath);
    }
    let blocked = |i: usize| flags[i] & (WALL | BOX) != 0;
    let mut walker = Walker::new(board);
    walker
        .walk(board.player().index(), target.index(), blocked)
        .ok_or(PlanError::NoPath)
}

/// Every cell the player can walk to without pushing, the player's own cell included, in
/// index order: the range of a tap-to-walk.
pub fn reachable_cells(board: &Board) -> Vec<Cell> {
    let flags = board.flags();
    let blocked = |i: usize| flags[i] & (WALL | BOX) != 0;
    let mut walker = Walker::new(board);
    walker.distances(board.player().index(), blocked, &[]);
    (0..flags.len())
        .filter(|&i| walker.distance(i).is_some())
        .map(Cell::from_index)
        .collect()
}

/// Moves that push the box on `box_cell` to `target` with the fewest pushes, then the fewest
/// moves; the other boxes stay where they are. Empty when the box is already there.
pub fn push_path(board: &Board, box_cell: Cell, target: Cell) -> Result<Vec<Direction>, PlanError> {
    let flags = board.flags();
    let n = flags.len();
    if box_cell.index() >= n || flags[box_cell.index()] & BOX == 0 {
        return Err(PlanError::NotABox);
    }
    if target == box_cell {
        return Ok(Vec::new());
    }
    let origin = box_cell.index();
    // Walls and the other boxes; the moving box is added per search.
    let fixed = |i: usize| flags[i] & WALL != 0 || (flags[i] & BOX != 0 && i != origin);
    // A box on the grid's edge is a decorative one, sealed off from the player.
    let directions = board.directions();
    let k = directions.len();
    let on_edge = directions
        .iter()
        .any(|&d| board.neighbour(box_cell, d).is_none());
    if on_edge || target.index() >= n || fixed(target.index()) {
        return Err(PlanError::NoPath);
    }
    let offsets = board.offsets();
    let side = |b: usize, d: usize| b.wrapping_add_signed(-offsets[d]);

    // State s = box * k + d: the box on `box`, the player next to it ready to push it in
    // the board's direction number d.
    let mut cost = vec![(UNSEEN, UNSEEN); n * k];
    let mut parent = vec![UNSEEN; n * k];
    let mut heap = BinaryHeap::new();
    let mut walker = Walker::new(board);

    walker.distances(
        board.player().index(),
        |i| fixed(i) || i == origin,
        &sides(origin, k, &side),
    );
    for d in 0..k {
        if let Some(moves) = walker.distance(side(origin, d)) {
            let s = origin * k + d;
            cost[s] = (0, moves);
            heap.push(Reverse((0, moves, s as u32)));
        }
    }

    let mut goal_state = None;
    while let Some(Reverse((pushes, moves, s))) = heap.pop() {
        let s = s as usize;
        if cost[s] != (pushes, moves) {
            continue; // stale entry
        }
        let (b, d) = (s / k, s % k);
        if b == target.index() {
            goal_state = Some(s);
            break;
        }
        let mut relax = |next: usize, next_cost: (u32, u32)| {
            if next_cost < cost[next] {
                cost[next] = next_cost;
                parent[next] = s as u32;
                heap.push(Reverse((next_cost.0, next_cost.1, next as u32)));
            }
        };
        // Push: the box moves on, the player takes its cell (the same side of the new cell).
        let pushed_to = b.wrapping_add_signed(offsets[d]);
        if !fixed(pushed_to) {
            relax(pushed_to * k + d, (pushes + 1, moves + 1));
        }
        // Walk around the box to push it another way.
        walker.distances(side(b, d), |i| fixed(i) || i == b, &sides(b, k, &side));
        for other in (0..k).filter(|&o| o != d) {
            if let Some(walk) = walker.distance(side(b, other)) {
                relax(b * k + other, (pushes, moves + walk));
            }
        }
    }
    let Some(mut s) = goal_state else {
        return Err(PlanError::NoPath);
    };

    // Follow the parents back to a start state, then expand walks and pushes forwards.
    let mut chain = vec![s];
    while parent[s] != UNSEEN {
        s = parent[s] as usize;
        chain.push(s);
    }
    chain.reverse();
    let mut path = Vec::new();
    let mut from = board.player().index();
    let mut box_at = origin;
    for &s in &chain {
        let (b, d) = (s / k, s % k);
        if b != box_at {
            // A push from the previous state's side: the player now stands where the box was.
            path.push(directions[d]);
            from = box_at;
            box_at = b;
            continue;
        }
        let walk = walker.walk(from, side(b, d), |i| fixed(i) || i == b);
        path.extend(walk.ok_or(PlanError::NoPath)?);
        from = side(b, d);
    }
    Ok(path)
}

/// The cells around a box (one per direction), where the player pushes it from.
fn sides(b: usize, k: usize, side: &impl Fn(usize, usize) -> usize) -> Vec<usize> {
    (0..k).map(|d| side(b, d)).collect()
}

/// Breadth-first search over cells, reusing its arrays between searches.
///
/// Searches start on a cell of the player's region and enter only unblocked cells, which walls
/// enclose (the level's invariant), so neighbour indices never leave the grid.
struct Walker {
    /// The board's directions and their index offsets, in the same order.
    directions: &'static [Direction],
    offsets: Vec<isize>,
    /// Per cell: the search it was last seen in.
    seen_in: Vec<u32>,
    /// Per cell: distance from the start in that search.
    distance: Vec<u32>,
    /// Per cell: the direction it was entered by.
    entered_by: Vec<u8>,
    search: u32,
    queue: Vec<usize>,
}

impl Walker {
    fn new(board: &Board) -> Walker {
        let cells = board.flags().len();
        Walker {
            directions: board.directions(),
            offsets: board.offsets(),
            seen_in: vec![0; cells],
            distance: vec![0; cells],
            entered_by: vec![0; cells],
            search: 0,
            queue: Vec::with_capacity(cells),
        }
    }

    /// Searches from `start` until every cell of `wanted` is reached (or every reachable cell
    /// is; an empty `wanted` asks for all of them). Neighbours are tried in up, right, down, left order.
    fn distances(&mut self, start: usize, blocked: impl Fn(usize) -> bool, wanted: &[usize]) {
        self.search += 1;
        let search = self.search;
        self.queue.clear();
        self.seen_in[start] = search;
        self.distance[start] = 0;
        self.queue.push(start);
        // No wanted cell means: visit everything reachable.
        let mut missing = if wanted.is_empty() {
            usize::MAX
        } else {
            wanted
                .iter()
                .filter(|&&w| w != start && !blocked(w))
                .count()
        };
        let mut head = 0;
        while head < self.queue.len() && missing > 0 {
            let cell = self.queue[head];
            head += 1;
            for (d, &offset) in self.offsets.iter().enumerate() {
                let next = cell.wrapping_add_signed(offset);
                if self.seen_in[next] == search || blocked(next) {
                    continue;
                }
                self.seen_in[next] = search;
                self.distance[next] = self.distance[cell] + 1;
                self.entered_by[next] = d as u8;
                self.queue.push(next);
                if wanted.contains(&next) {
                    missing -= 1;
                }
            }
        }
    }

    /// The distance to a cell found by the last search, if it was reached.
    fn distance(&self, cell: usize) -> Option<u32> {
        (self.seen_in.get(cell) == Some(&self.search)).then(|| self.distance[cell])
    }

    /// The shortest walk from `start` to `target`, if there is one.
    fn walk(
        &mut self,
        start: usize,
        target: usize,
        blocked: impl Fn(usize) -> bool,
    ) -> Option<Vec<Direction>> {
        self.distances(start, &blocked, &[target]);
        let length = self.distance(target)?;
        let mut path = vec![Direction::Up; length as usize];
        let mut cell = target;
        for slot in path.iter_mut().rev() {
            let d = usize::from(self.entered_by[cell]);
            *slot = self.directions[d];
            cell = cell.wrapping_add_signed(-self.offsets[d]);
        }
        debug_assert_eq!(cell, start);
        Some(path)
    }
}
