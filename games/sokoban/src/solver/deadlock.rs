//! Corral deadlocks: a small search over a corral's boxes alone proves the corral can't be
//! cleared.
//!
//! Take the boxes of a PI-corral (its fence and the boxes inside, see [`super::corral`]) and
//! drop every other box. Removing boxes never makes a position harder: every push sequence of
//! the full position, with the pushes of the removed boxes left out, is still playable. So if
//! no push sequence of the corral's boxes alone puts all of them on goals, no sequence of the
//! full position does either, and the position is dead. The check is a breadth-first search
//! over those boxes (dead squares and freeze deadlocks pruned, both sound), bounded by a small
//! number of positions; it answers "alive" as soon as a box leaves the corral (from then on the
//! corral is gone and proving anything would take a full search), when every box stands on a
//! goal, or when the bound runs out, so "dead" is only ever said of a search that exhausted every
//! position. Answers are kept per (boxes, player region), so a corral met again costs a lookup.
//!
//! Sound, so it is used by every strategy that finds corrals, optimal ones included.
//!
//! **Patterns** (2026-12-07, sixth session). A corral found dead is a fact about its boxes and
//! the player's region around them alone, not about the rest of the position: any position
//! that has a box on each of those cells and the player in that region (the region measured
//! with only those boxes on the board) drops to the same small position when the other boxes
//! are removed, so it is dead too. Each dead corral is kept as such a pattern (its boxes and
//! that region, at most [`PATTERNS`] of them), indexed by its cells, and the search looks up
//! every new child in them ([`CorralDeadlocks::matches`]) before it matches or stores it; a
//! corral check only runs on a node being expanded and only for the corral it picks, so
//! without the patterns the same dead group of boxes is expanded again in every position
//! around it, under other fences or with the player elsewhere in the same region.

use super::freeze::freeze_deadlock;
use super::graph::{CellGraph, NONE};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Positions a corral's search may visit before it gives up (answering "alive").
const BUDGET: usize = 400;
/// Answers kept at most; beyond that, new ones are not stored (the check still runs).
const CACHE: usize = 1 << 16;

/// Dead corrals kept as patterns at most (a few hundred bytes each on a large level); beyond
/// that, new ones are not kept (the corral check still runs).
const PATTERNS: usize = 1 << 13;

/// A dead corral as a pattern: its boxes (sorted) and, one bit per cell, the player's region
/// around them with no other box on the board.
#[derive(Clone, Debug)]
struct Pattern {
    boxes: Vec<u16>,
    region: Vec<u64>,
}

/// A 64-bit summary of a set of box cells: bit `c % 64` for each cell `c`. A pattern whose
/// summary has a bit the position's lacks can't be held by it; the lookup tests that first, on
/// the summaries stored beside each cell's pattern numbers, so most patterns cost one AND and
/// no visit to the pattern itself (without it XSokoban 4 took about 1.5 times as long per node
/// at 200,000 nodes as without patterns; with it, about 1.07 times).
pub(crate) fn signature(boxes: &[u16]) -> u64 {
    boxes.iter().fold(0, |sig, &b| sig | bit(b))
}

/// The bit of cell `c` in a [`signature`].
pub(crate) fn bit(c: u16) -> u64 {
    1 << (c % 64)
}

/// The corral deadlock check's scratch space and its answers so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct CorralDeadlocks {
    /// (sorted boxes, then the normalized player) → dead.
    answers: BTreeMap<Vec<u16>, bool>,
    /// The dead corrals found so far, and per cell the patterns with a box there (each with
    /// its boxes' [`signature`]).
    patterns: Vec<Pattern>,
    by_cell: Vec<Vec<(u64, u32)>>,
    occupied: Vec<bool>,
    seen: Vec<u32>,
    mark: u32,
    queue: Vec<u16>,
    stack: Vec<u16>,
}

impl CorralDeadlocks {
    /// Whether `boxes` (sorted) alone, with the player on `player`, can never all reach goals
    /// without one of them leaving the corral (`inside(c)`: `c` is in the corral or on its
    /// fence). `true` is a proof; `false` promises nothing.
    pub(crate) fn dead(
        &mut self,
        graph: &CellGraph,
        boxes: &[u16],
        player: u16,
        inside: &dyn Fn(u16) -> bool,
    ) -> bool {
        if self.occupied.len() != graph.len() {
            self.occupied = vec![false; graph.len()];
            self.seen = vec![0; graph.len()];
        }
        if boxes.iter().all(|&b| graph.goal[usize::from(b)]) {
            return false; // the corral waits for boxes from outside: nothing to prove here
        }
        let start = self.state(graph, boxes, player);
        if let Some(&dead) = self.answers.get(&start) {
            return dead;
        }
        let dead = self.search(graph, &start, inside);
        if dead {
            self.learn(graph, boxes, player);
        }
        if self.answers.len() < CACHE {
            self.answers.insert(start, dead);
        }
        dead
    }

    /// Keeps the dead corral of `boxes` (sorted) with the player on `player` as a pattern.
    fn learn(&mut self, graph: &CellGraph, boxes: &[u16], player: u16) {
        if self.patterns.len() >= PATTERNS {
            return;
        }
        if self.by_cell.len() != graph.len() {
            self.by_cell = vec![Vec::new(); graph.len()];
        }
        for &b in boxes {
            self.occupied[usize::from(b)] = true;
        }
        let mut region = vec![0u64; graph.len().div_ceil(64)];
        for &c in self.reach(graph, player) {
            region[usize::from(c) / 64] |= 1 << (c % 64);
        }
        for &b in boxes {
            self.occupied[usize::from(b)] = false;
        }
        let id = self.patterns.len() as u32;
        let sig = signature(boxes);
        for &b in boxes {
            self.by_cell[usize::from(b)].push((sig, id));
        }
        self.patterns.push(Pattern {
            boxes: boxes.to_vec(),
            region,
        });
    }

    /// Whether a position is dead by a pattern kept so far that has a box on `moved`: every
    /// box of the pattern stands on a box of the position (`occupied`) and the player's cell
    /// `player` lies in the pattern's region. Only patterns through the box just moved can
    /// newly match a child: with it left out, the parent held the same pattern boxes, and the
    /// cell the player now stands on (the box's old one) joins the parent player's region in
    /// the pattern's board, so the parent matched already. `sig` is the [`signature`] of the
    /// position's boxes or of a superset of them (it only filters). `true` is a proof.
    pub(crate) fn matches(&self, occupied: &[bool], moved: u16, player: u16, sig: u64) -> bool {
        let Some(ids) = self.by_cell.get(usize::from(moved)) else {
            return false;
        };
        ids.iter().any(|&(pattern_sig, id)| {
            if pattern_sig & !sig != 0 {
                return false;
            }
            let pattern = &self.patterns[id as usize];
            pattern.region[usize::from(player) / 64] & 1 << (player % 64) != 0
                && pattern.boxes.iter().all(|&b| occupied[usize::from(b)])
        })
    }

    /// The boxes followed by the smallest cell of the player's region around them.
    fn state(&mut self, graph: &CellGraph, boxes: &[u16], player: u16) -> Vec<u16> {
        for &b in boxes {
            self.occupied[usize::from(b)] = true;
        }
        let smallest = self.reach(graph, player).iter().copied().min();
        for &b in boxes {
            self.occupied[usize::from(b)] = false;
        }
        let mut state = boxes.to_vec();
        state.push(smallest.unwrap_or(player));
        state
    }

    /// The player's region from `from` around the boxes in `occupied` (also marked in `seen`
    /// with the current `mark`).
    fn reach(&mut self, graph: &CellGraph, from: u16) -> &[u16] {
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.seen.fill(0);
            self.mark = 1;
        }
        self.queue.clear();
        self.queue.push(from);
        self.seen[usize::from(from)] = self.mark;
        let mut head = 0;
        while let Some(&c) = self.queue.get(head) {
            head += 1;
            for d in 0..graph.dirs {
                let n = graph.next(c, d);
                if n != NONE
                    && !self.occupied[usize::from(n)]
                    && self.seen[usize::from(n)] != self.mark
                {
                    self.seen[usize::from(n)] = self.mark;
                    self.queue.push(n);
                }
            }
        }
        &self.queue
    }

    /// Breadth-first over the corral's positions: `true` when every one was visited without
    /// a way out or to the goals.
    fn search(&mut self, graph: &CellGraph, start: &[u16], inside: &dyn Fn(u16) -> bool) -> bool {
        let count = start.len() - 1;
        let mut visited: BTreeSet<Vec<u16>> = BTreeSet::new();
        let mut queue: VecDeque<Vec<u16>> = VecDeque::new();
        visited.insert(start.to_vec());
        queue.push_back(start.to_vec());
        while let Some(state) = queue.pop_front() {
            let (boxes, player) = (&state[..count], state[count]);
            for &b in boxes {
                self.occupied[usize::from(b)] = true;
            }
            self.reach(graph, player);
            let mark = self.mark;
            let mut alive = false;
            let mut children: Vec<Vec<u16>> = Vec::new();
            'pushes: for (k, &b) in boxes.iter().enumerate() {
                for d in 0..graph.dirs {
                    let behind = graph.next(b, usize::from(graph.opposite[d]));
                    let to = graph.next(b, d);
                    if behind == NONE || self.seen[usize::from(behind)] != mark || to == NONE {
                        continue;
                    }
                    let tu = usize::from(to);
                    if self.occupied[tu] || graph.dead[tu] {
                        continue;
                    }
                    if !inside(to) {
                        alive = true; // a box leaves the corral
                        break 'pushes;
                    }
                    self.occupied[usize::from(b)] = false;
                    self.occupied[tu] = true;
                    let frozen = freeze_deadlock(graph, &self.occupied, to, &mut self.stack);
                    self.occupied[tu] = false;
                    self.occupied[usize::from(b)] = true;
                    if frozen {
                        continue;
                    }
                    let mut child = boxes.to_vec();
                    child[k] = to;
                    child.sort_unstable();
                    if child.iter().all(|&c| graph.goal[usize::from(c)]) {
                        alive = true;
                        break 'pushes;
                    }
                    child.push(b); // the player, normalized below
                    children.push(child);
                }
            }
            for &b in boxes {
                self.occupied[usize::from(b)] = false;
            }
            if alive {
                return false;
            }
            for mut child in children {
                let player = child.pop().unwrap_or(player);
                let child = self.state(graph, &child, player);
                if visited.insert(child.clone()) {
                    if visited.len() > BUDGET {
                        return false; // too big to prove anything
                    }
                    queue.push_back(child);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::corral::Corrals;

    /// Whether any push sequence puts every box on a goal: a plain breadth-first search over
    /// every position (dead squares pruned, nothing else), `None` when it needs more than
    /// `budget` positions.
    fn solvable(graph: &CellGraph, boxes: &[u16], player: u16, budget: usize) -> Option<bool> {
        let mut check = CorralDeadlocks {
            occupied: vec![false; graph.len()],
            seen: vec![0; graph.len()],
            ..CorralDeadlocks::default()
        };
        let mut sorted = boxes.to_vec();
        sorted.sort_unstable();
        let start = check.state(graph, &sorted, player);
        let count = sorted.len();
        let mut visited = BTreeSet::from([start.clone()]);
        let mut queue = VecDeque::from([start]);
        while let Some(state) = queue.pop_front() {
            let (boxes, player) = (&state[..count], state[count]);
            if boxes.iter().all(|&b| graph.goal[usize::from(b)]) {
                return Some(true);
            }
            for &b in boxes {
                check.occupied[usize::from(b)] = true;
            }
            check.reach(graph, player);
            let mark = check.mark;
            let mut children = Vec::new();
            for (k, &b) in boxes.iter().enumerate() {
                for d in 0..graph.dirs {
                    let behind = graph.next(b, usize::from(graph.opposite[d]));
                    let to = graph.next(b, d);
                    if behind == NONE || to == NONE || check.seen[usize::from(behind)] != mark {
                        continue;
                    }
                    if check.occupied[usize::from(to)] || graph.dead[usize::from(to)] {
                        continue;
                    }
                    let mut child = boxes.to_vec();
                    child[k] = to;
                    child.sort_unstable();
                    children.push((child, b));
                }
            }
            for &b in boxes {
                check.occupied[usize::from(b)] = false;
            }
            for (child, player) in children {
                let child = check.state(graph, &child, player);
                if visited.insert(child.clone()) {
                    queue.push_back(child);
                }
            }
            if visited.len() > budget {
                return None;
            }
        }
        Some(false)
    }

    /// Patterns learned from dead corrals match other positions holding the same boxes, and
    /// every position they match on small Microban levels is unsolvable; the check keeps one
    /// `CorralDeadlocks` per level, so later random positions meet patterns learned from
    /// earlier ones (with other boxes around them and the player elsewhere).
    #[test]
    fn positions_holding_a_dead_pattern_are_unsolvable() {
        let levels = crate::solver::test_data::microban().levels;
        let mut seed = 0x9e37_79b9_u64;
        let mut random = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let (mut learned, mut matched, mut proven) = (0, 0, 0);
        for level in levels.iter().take(30).flatten() {
            let graph = CellGraph::square(level, level.player());
            let live: Vec<u16> = (0..graph.len() as u16)
                .filter(|&c| !graph.dead[usize::from(c)])
                .collect();
            let count = level.boxes().len();
            if count > 4 || live.len() < count + 1 {
                continue;
            }
            let mut check = CorralDeadlocks {
                occupied: vec![false; graph.len()],
                seen: vec![0; graph.len()],
                ..CorralDeadlocks::default()
            };
            let mut corrals = Corrals::default();
            for _ in 0..300 {
                let mut boxes: Vec<u16> = Vec::new();
                while boxes.len() < count {
                    let c = live[random(live.len())];
                    if !boxes.contains(&c) {
                        boxes.push(c);
                    }
                }
                boxes.sort_unstable();
                let free: Vec<u16> = (0..graph.len() as u16)
                    .filter(|c| !boxes.contains(c))
                    .collect();
                let player = free[random(free.len())];
                let mut occupied = vec![false; graph.len()];
                for &b in &boxes {
                    occupied[usize::from(b)] = true;
                }
                // First the patterns learned so far: a match must be a dead position.
                let sig = signature(&boxes);
                if boxes
                    .iter()
                    .any(|&b| check.matches(&occupied, b, player, sig))
                {
                    matched += 1;
                    match solvable(&graph, &boxes, player, 200_000) {
                        Some(true) => panic!("a pattern matched a solvable position: {boxes:?}"),
                        Some(false) => proven += 1,
                        None => {}
                    }
                }
                // Then learn from this position's corral, if it is dead.
                for &b in &boxes {
                    check.occupied[usize::from(b)] = true;
                }
                let region: Vec<u16> = check.reach(&graph, player).to_vec();
                for &b in &boxes {
                    check.occupied[usize::from(b)] = false;
                }
                let mut reachable = vec![false; graph.len()];
                for &c in &region {
                    reachable[usize::from(c)] = true;
                }
                let Some(corral) = corrals.fence(&graph, &occupied, &|c| reachable[usize::from(c)])
                else {
                    continue;
                };
                let before = check.patterns.len();
                if check.dead(&graph, &corral.boxes, player, &|c| {
                    corrals.holds(&corral, c)
                }) {
                    learned += check.patterns.len() - before;
                    // The position it was learned from matches its own pattern.
                    assert!(check.matches(&occupied, corral.boxes[0], player, sig));
                }
            }
        }
        assert!(
            proven >= 100,
            "{proven} of {matched} matched positions proven dead ({learned} patterns learned)"
        );
    }

    /// On random positions of small Microban levels, every corral the check calls dead is
    /// unsolvable by a plain exhaustive search (soundness), and the check does find some.
    #[test]
    fn corrals_called_dead_are_unsolvable() {
        let levels = crate::solver::test_data::microban().levels;
        let mut seed = 0x1234_5678_u64;
        let mut random = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let (mut dead, mut proven) = (0, 0);
        for level in levels.iter().take(30).flatten() {
            let graph = CellGraph::square(level, level.player());
            let live: Vec<u16> = (0..graph.len() as u16)
                .filter(|&c| !graph.dead[usize::from(c)])
                .collect();
            let count = level.boxes().len();
            if count > 4 || live.len() < count + 1 {
                continue;
            }
            for _ in 0..300 {
                let mut boxes: Vec<u16> = Vec::new();
                while boxes.len() < count {
                    let c = live[random(live.len())];
                    if !boxes.contains(&c) {
                        boxes.push(c);
                    }
                }
                boxes.sort_unstable();
                let free: Vec<u16> = (0..graph.len() as u16)
                    .filter(|c| !boxes.contains(c))
                    .collect();
                let player = free[random(free.len())];
                let mut occupied = vec![false; graph.len()];
                for &b in &boxes {
                    occupied[usize::from(b)] = true;
                }
                let mut check = CorralDeadlocks {
                    occupied: vec![false; graph.len()],
                    seen: vec![0; graph.len()],
                    ..CorralDeadlocks::default()
                };
                let mut corrals = Corrals::default();
                for &b in &boxes {
                    check.occupied[usize::from(b)] = true;
                }
                let region: Vec<u16> = check.reach(&graph, player).to_vec();
                for &b in &boxes {
                    check.occupied[usize::from(b)] = false;
                }
                let mut reachable = vec![false; graph.len()];
                for &c in &region {
                    reachable[usize::from(c)] = true;
                }
                let Some(corral) = corrals.fence(&graph, &occupied, &|c| reachable[usize::from(c)])
                else {
                    continue;
                };
                if !check.dead(&graph, &corral.boxes, player, &|c| {
                    corrals.holds(&corral, c)
                }) {
                    continue;
                }
                dead += 1;
                match solvable(&graph, &boxes, player, 200_000) {
                    Some(true) => panic!("a solvable position was called dead: {boxes:?}"),
                    Some(false) => proven += 1,
                    None => {}
                }
            }
        }
        assert!(proven >= 5, "{proven} of {dead} dead corrals proven");
    }
}
