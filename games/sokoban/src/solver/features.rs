//! Feature space: where a position stands in the plan, for a search that spreads its effort.
//!
//! A greedy best-first search on the matching bound spends its whole budget under the few
//! positions whose bound is lowest, and on the large levels that bound misleads it: it parks
//! boxes on the goals nearest the door, or closes the player out of half the level, and every
//! cheaper-looking position then lies below that mistake. FESS (Shoham and Schaeffer, "The FESS
//! Algorithm: A Feature Based Approach to Single-Agent Search", 2020) instead projects every
//! position onto a few *features* and, cycling through the feature-space cells that hold
//! positions, expands one position of each in turn, so a position that packs one more box or
//! opens the level up gets its share of the search however its bound looks.
//!
//! Two of FESS's features are computed here:
//!
//! * **packing**: the boxes packed so far in the packing order of the goal rooms
//!   ([`Rooms::packed_boxes`]): for a room with an order, how many of its first goals hold
//!   boxes; for every other goal, whether it holds a box;
//! * **connectivity**: the number of areas the boxes split the player's floor into (1 when the
//!   player can reach every empty cell).
//!
//! Features only order the search; they prune nothing, so they change no proof. The search
//! derives most children's connectivity from its parent's floor instead of flooding
//! ([`super::search`]'s `child_areas`); [`Features::cell`] floods for the rest.

use super::graph::{CellGraph, NONE};
use super::rooms::Rooms;

/// A feature-space cell: `(packing, connectivity)`.
pub(crate) type FeatureCell = (u32, u32);

/// Scratch space for computing features.
#[derive(Clone, Debug, Default)]
pub(crate) struct Features {
    /// Per compact cell: `stamp` when flooded during the current count.
    mark: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
    /// The boxes of the position being projected.
    occupied: Vec<bool>,
}

impl Features {
    /// The feature cell of the position with `boxes` (sorted).
    pub(crate) fn cell(&mut self, graph: &CellGraph, rooms: &Rooms, boxes: &[u16]) -> FeatureCell {
        if self.occupied.len() != graph.len() {
            self.occupied = vec![false; graph.len()];
        }
        let mut occupied = std::mem::take(&mut self.occupied);
        for &b in boxes {
            occupied[usize::from(b)] = true;
        }
        let areas = self.connectivity(graph, &occupied);
        for &b in boxes {
            occupied[usize::from(b)] = false;
        }
        self.occupied = occupied;
        (rooms.packed_boxes(graph, boxes), areas)
    }

    /// The number of connected areas of the empty floor (boxes in `occupied` separate them).
    pub(crate) fn connectivity(&mut self, graph: &CellGraph, occupied: &[bool]) -> u32 {
        if self.mark.len() != graph.len() {
            self.mark = vec![0; graph.len()];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let mut areas = 0;
        for start in 0..graph.len() as u16 {
            if occupied[usize::from(start)] || self.mark[usize::from(start)] == stamp {
                continue;
            }
            areas += 1;
            self.mark[usize::from(start)] = stamp;
            self.queue.clear();
            self.queue.push(start);
            while let Some(c) = self.queue.pop() {
                for d in 0..graph.dirs {
                    let n = graph.next(c, d);
                    if n != NONE && !occupied[usize::from(n)] && self.mark[usize::from(n)] != stamp
                    {
                        self.mark[usize::from(n)] = stamp;
                        self.queue.push(n);
                    }
                }
            }
        }
        areas
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_collection;

    fn graph_of(text: &str) -> CellGraph {
        let level = parse_collection(text, "features.xsb")
            .levels
            .remove(0)
            .unwrap();
        CellGraph::square(&level, level.player())
    }

    fn cell(graph: &CellGraph, x: u16, y: u16, width: u16) -> u16 {
        graph.compact[usize::from(y * width + x)]
    }

    /// A wall of boxes across a corridor splits the floor in two; moving one away joins it.
    #[test]
    fn connectivity_counts_the_areas_boxes_split_the_floor_into() {
        let text = "; split\n#######\n#@ $ .#\n#  $ .#\n#######\n";
        let graph = graph_of(text);
        let mut features = Features::default();
        let mut occupied = vec![false; graph.len()];
        let wall = [cell(&graph, 3, 1, 7), cell(&graph, 3, 2, 7)];
        for &b in &wall {
            occupied[usize::from(b)] = true;
        }
        assert_eq!(features.connectivity(&graph, &occupied), 2);
        occupied[usize::from(wall[0])] = false;
        assert_eq!(features.connectivity(&graph, &occupied), 1);
    }

    /// The packing feature counts a room's goals filled in its order, and stops at the first
    /// empty one: a box on the goal by the door, filled too early, counts for nothing.
    #[test]
    fn packing_counts_goals_filled_in_the_rooms_order() {
        // A dead-end corridor of goals: it fills from the far end (x = 1) to the door (x = 3).
        let text = "; corridor\n########\n#...   #\n####$$ #\n   # $@#\n   #####\n";
        let graph = graph_of(text);
        let rooms = Rooms::new(&graph);
        let mut features = Features::default();
        let far = cell(&graph, 1, 1, 8);
        let middle = cell(&graph, 2, 1, 8);
        let door = cell(&graph, 3, 1, 8);
        let elsewhere = cell(&graph, 5, 1, 8);
        let mut sorted = |cells: &[u16]| {
            let mut boxes = cells.to_vec();
            boxes.sort_unstable();
            features.cell(&graph, &rooms, &boxes).0
        };
        assert_eq!(sorted(&[door, elsewhere, cell(&graph, 6, 2, 8)]), 0);
        assert_eq!(sorted(&[far, door, elsewhere]), 1);
        assert_eq!(sorted(&[far, middle, elsewhere]), 2);
        assert_eq!(sorted(&[far, middle, door]), 3);
    }
}
