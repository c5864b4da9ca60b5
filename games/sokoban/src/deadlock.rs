//! Dead squares: where a pushed box can never reach a goal again, so clients can warn.
//!
//! A square is *live* when a box standing on it, alone on the level, could be pushed onto some
//! goal. Live squares are found backwards from the goals by "pulls": a box on live square `q`
//! could have been pushed there from `p = q - d` when both `p` and the player's square
//! `p - d` are walkable. Every walkable square that is not live is dead. This covers non-goal
//! corners (no push leaves them) and squares along a wall with no goal on that wall.
//!
//! Other boxes and the player's reachability are ignored, so the check is conservative: a box on
//! a dead square can never be solved, but a box on a live square may still be stuck.

use crate::grid::{Cell, Direction, Tile};
use crate::level::Level;
use serde::{Deserialize, Serialize};

/// The dead squares of one level, as a bitmap over its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadSquares {
    bits: Vec<u64>,
}

/// A box was pushed onto a dead square: the level can no longer be solved from here (undo it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeadSquareEvent {
    /// The dead square the box now stands on.
    pub cell: Cell,
}

impl DeadSquares {
    /// Computes the dead squares of a level.
    pub fn compute(level: &Level) -> DeadSquares {
        let tiles = level.tiles();
        let topology = level.topology();
        let (width, height) = (i32::from(level.width()), i32::from(level.height()));
        let step = |i: usize, d: Direction| -> Option<usize> {
            let (dx, dy) = topology.delta(d);
            // Cells are below MAX_SIDE², far inside i32.
            let (x, y) = (i as i32 % width + dx, i as i32 / width + dy);
            ((0..width).contains(&x) && (0..height).contains(&y)).then(|| (y * width + x) as usize)
        };
        let walkable = |i: Option<usize>| i.is_some_and(|i| tiles[i].is_walkable());

        let mut live = vec![false; tiles.len()];
        let mut queue: Vec<usize> = (0..tiles.len())
            .filter(|&i| tiles[i] == Tile::Goal)
            .collect();
        for &goal in &queue {
            live[goal] = true;
        }
        let mut head = 0;
        while let Some(&q) = queue.get(head) {
            head += 1;
            for &d in topology.directions() {
                // The box came from `from`, pushed in direction `d` by a player at `player`.
                let from = step(q, d.opposite());
                let player = from.and_then(|p| step(p, d.opposite()));
                if let (Some(p), true, true) = (from, walkable(from), walkable(player)) {
                    if !live[p] {
                        live[p] = true;
                        queue.push(p);
                    }
                }
            }
        }

        let mut bits = vec![0u64; tiles.len().div_ceil(64)];
        for i in (0..tiles.len()).filter(|&i| tiles[i].is_walkable() && !live[i]) {
            bits[i / 64] |= 1 << (i % 64);
        }
        DeadSquares { bits }
    }

    /// Whether a cell is a dead square (never true for walls, outside cells or goals).
    #[inline]
    pub fn is_dead(&self, cell: Cell) -> bool {
        let i = cell.index();
        self.bits
            .get(i / 64)
            .is_some_and(|word| word & (1 << (i % 64)) != 0)
    }

    /// All dead squares, sorted.
    pub fn cells(&self) -> Vec<Cell> {
        let cells = self.bits.len() * 64;
        (0..cells.min(usize::from(u16::MAX)))
            .map(Cell::from_index)
            .filter(|&c| self.is_dead(c))
            .collect()
    }

    /// How many dead squares the level has.
    pub fn count(&self) -> u32 {
        self.bits.iter().map(|w| w.count_ones()).sum()
    }
}
