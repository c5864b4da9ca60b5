//! The lower bound: a minimum-cost assignment of boxes to distinct goals (Hungarian method).
//!
//! Each box must end on its own goal, so the cheapest perfect matching of boxes to goals, with a
//! lone box's push distance as the cost, never overestimates the pushes left: an admissible
//! bound for push-optimal A*. When no perfect matching exists at all (two boxes that can only
//! reach the same single goal), the position is a *bipartite deadlock*.

use super::graph::{CellGraph, FAR};

/// The cost standing in for "unreachable"; a matching this expensive does not exist.
const BLOCKED: i64 = 1 << 32;

/// Reusable buffers for the Hungarian method, and the last full solution (its duals and
/// assignment), from which [`Matcher::moved`] re-matches a position that differs by one box.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matcher {
    u: Vec<i64>,
    v: Vec<i64>,
    owner: Vec<usize>,
    way: Vec<usize>,
    min_v: Vec<i64>,
    used: Vec<bool>,
    saved_u: Vec<i64>,
    saved_v: Vec<i64>,
    saved_owner: Vec<usize>,
    /// The costs of the last [`Matcher::bound`]'s boxes, row-major (box `i`, goal `j` at
    /// `i * goals + j`): every child re-matches against these, so the distance tables are read
    /// once per parent instead of once per augmenting step.
    matrix: Vec<i64>,
    /// The costs of the moved box in [`Matcher::moved`].
    row: Vec<i64>,
    /// Solutions of positions [`Matcher::moved`] matched, kept for when they are expanded
    /// ([`Matcher::keep`], [`Matcher::restore`]): a direct-mapped table, slot `key % slots`
    /// holding `key + 1` in `kept_key` (0: empty) and the duals and assignment in `kept`
    /// (`stride` numbers each). Empty until [`Matcher::enable_keeping`].
    kept_key: Vec<u32>,
    kept: Vec<i32>,
    stride: usize,
}

/// The row, in a solution whose row `k` is a moved box, that row `r` of the moved position's
/// sorted order comes from (the moved box now sorting at `p`).
fn old_row(r: usize, k: usize, p: usize) -> usize {
    if r == p {
        return k;
    }
    let q = if r > p { r - 1 } else { r };
    if q >= k {
        q + 1
    } else {
        q
    }
}

/// The cost of box `i` (standing on `cell`) going to goal `j`.
#[inline]
fn cost_of(graph: &CellGraph, cell: u16, j: usize) -> i64 {
    let d = graph.distance[j][usize::from(cell)];
    if d == FAR {
        BLOCKED
    } else {
        i64::from(d)
    }
}

impl Matcher {
    /// The minimum total push distance of `boxes` to distinct goals, or `None` when some box
    /// can't be given a goal of its own (a bipartite deadlock). Keeps the solution for
    /// [`Matcher::moved`].
    ///
    /// The shortest-augmenting-path form of the Hungarian method, O(boxes² · goals).
    pub(crate) fn bound(&mut self, graph: &CellGraph, boxes: &[u16]) -> Option<u32> {
        let n = boxes.len();
        let m = graph.goals.len();
        if n > m {
            return None;
        }
        // Rows are boxes (1..=n), columns goals (1..=m); index 0 is the virtual start.
        let mut matrix = std::mem::take(&mut self.matrix);
        matrix.clear();
        matrix.extend(
            boxes
                .iter()
                .flat_map(|&b| (0..m).map(move |j| cost_of(graph, b, j))),
        );
        let bound = self.full(n, m, &|i, j| matrix[i * m + j]);
        self.matrix = matrix;
        self.saved_u.clone_from(&self.u);
        self.saved_v.clone_from(&self.v);
        self.saved_owner.clone_from(&self.owner);
        bound
    }

    /// A full matching of `n` rows to `m` columns.
    fn full<F: Fn(usize, usize) -> i64>(&mut self, n: usize, m: usize, cost: &F) -> Option<u32> {
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.owner.clear();
        self.owner.resize(m + 1, 0);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for i in 1..=n {
            self.augment(i, m, cost);
        }
        self.total(m, cost)
    }

    /// The bound of the last position given to [`Matcher::bound`] with box `k` moved to `to`:
    /// one augmenting path instead of a full matching, O(boxes · goals), when there are as many
    /// boxes as goals (the freed goal is then the only free one, so the path re-matches it).
    ///
    /// `boxes` must be the boxes last given to [`Matcher::bound`]: their costs are read from the
    /// matrix kept then.
    pub(crate) fn moved(
        &mut self,
        graph: &CellGraph,
        boxes: &[u16],
        k: usize,
        to: u16,
    ) -> Option<u32> {
        let m = graph.goals.len();
        debug_assert_eq!(self.matrix.len(), boxes.len() * m);
        let matrix = std::mem::take(&mut self.matrix);
        let mut row = std::mem::take(&mut self.row);
        row.clear();
        row.extend((0..m).map(|j| cost_of(graph, to, j)));
        let bound = self.rematch(boxes.len(), m, k, &|i: usize, j: usize| {
            if i == k {
                row[j]
            } else {
                matrix[i * m + j]
            }
        });
        self.matrix = matrix;
        self.row = row;
        bound
    }

    /// Matches `boxes` (sorted) like [`Matcher::bound`], when they are the boxes last given
    /// to [`Matcher::bound`] (or to this), `before`, with one box moved: one augmenting path
    /// from the kept solution instead of a full matching, the solution then kept for `boxes`.
    /// The bound is the same as a full matching's (a minimum cost is unique, whichever
    /// optimal assignment and duals reach it).
    pub(crate) fn advance(
        &mut self,
        graph: &CellGraph,
        before: &[u16],
        boxes: &[u16],
    ) -> Option<u32> {
        let n = boxes.len();
        let m = graph.goals.len();
        // The box that left (its row in `before`) and the cell it went to.
        let gone = before.iter().position(|b| boxes.binary_search(b).is_err());
        let came = boxes.iter().position(|b| before.binary_search(b).is_err());
        let (Some(k), Some(p)) = (gone, came) else {
            return self.bound(graph, boxes);
        };
        if n < m || self.matrix.len() != n * m || self.saved_u.len() != n + 1 {
            return self.bound(graph, boxes);
        }
        let to = boxes[p];
        if self.moved(graph, before, k, to).is_none() {
            return self.bound(graph, boxes);
        }
        // Reorder the rows (row `k` of `before` becomes row `p` of `boxes`) and keep the
        // solution as `bound` would.
        let old_row = |r: usize| old_row(r, k, p);
        let mut matrix = std::mem::take(&mut self.matrix);
        let mut sorted = Vec::with_capacity(n * m);
        for r in 0..n {
            if r == p {
                sorted.extend_from_slice(&self.row);
            } else {
                let o = old_row(r);
                sorted.extend_from_slice(&matrix[o * m..(o + 1) * m]);
            }
        }
        std::mem::swap(&mut matrix, &mut sorted);
        self.matrix = matrix;
        let mut new_of = vec![0usize; n + 1];
        self.saved_u.clear();
        self.saved_u.push(self.u[0]);
        for r in 0..n {
            let o = old_row(r);
            new_of[o + 1] = r + 1;
            self.saved_u.push(self.u[o + 1]);
        }
        self.saved_v.clone_from(&self.v);
        self.saved_owner.clear();
        self.saved_owner.extend(
            self.owner
                .iter()
                .map(|&o| if o == 0 { 0 } else { new_of[o] }),
        );
        let matrix = &self.matrix;
        self.total_of(m, &|i, j| matrix[i * m + j])
    }

    /// Keeps up to `slots` (a power of two) solutions for [`Matcher::keep`].
    pub(crate) fn enable_keeping(&mut self, slots: usize, boxes: usize, goals: usize) {
        self.stride = (boxes + 1) + 2 * (goals + 1);
        self.kept_key = vec![0; slots];
        self.kept = vec![0; slots * self.stride];
    }

    /// Bytes the kept solutions take.
    pub(crate) fn kept_bytes(&self) -> usize {
        self.kept_key.len() * 4 + self.kept.len() * 4
    }

    /// Keeps, under `key`, the solution [`Matcher::moved`] just found for its position with
    /// box `k` moved (the moved box sorting at `p` among that position's boxes), so that
    /// [`Matcher::restore`] can take it up without matching again.
    pub(crate) fn keep(&mut self, key: u32, k: usize, p: usize) {
        if self.kept_key.is_empty() {
            return;
        }
        let slots = self.kept_key.len();
        let slot = key as usize & (slots - 1);
        let n = self.u.len() - 1;
        let m = self.v.len() - 1;
        if (n + 1) + 2 * (m + 1) != self.stride {
            self.kept_key[slot] = 0;
            return;
        }
        let data = &mut self.kept[slot * self.stride..(slot + 1) * self.stride];
        let mut new_of = [0usize; 256];
        let fits = |x: i64| i32::try_from(x).ok();
        let mut ok = n < new_of.len();
        if ok {
            data[0] = fits(self.u[0]).unwrap_or(0);
            for r in 0..n {
                let o = old_row(r, k, p);
                new_of[o + 1] = r + 1;
                match fits(self.u[o + 1]) {
                    Some(x) => data[1 + r] = x,
                    None => ok = false,
                }
            }
            for j in 0..=m {
                match fits(self.v[j]) {
                    Some(x) => data[n + 1 + j] = x,
                    None => ok = false,
                }
                let owner = self.owner[j];
                data[n + m + 2 + j] = if owner == 0 { 0 } else { new_of[owner] as i32 };
            }
        }
        self.kept_key[slot] = if ok { key.wrapping_add(1) } else { 0 };
    }

    /// Takes up the solution kept under `key` for `boxes` (sorted) as [`Matcher::bound`]
    /// would leave it: `None` when none is kept, else the bound.
    pub(crate) fn restore(
        &mut self,
        graph: &CellGraph,
        key: u32,
        boxes: &[u16],
    ) -> Option<Option<u32>> {
        if self.kept_key.is_empty() {
            return None;
        }
        let slot = key as usize & (self.kept_key.len() - 1);
        let n = boxes.len();
        let m = graph.goals.len();
        if self.kept_key[slot] != key.wrapping_add(1) || (n + 1) + 2 * (m + 1) != self.stride {
            return None;
        }
        let data = &self.kept[slot * self.stride..(slot + 1) * self.stride];
        self.saved_u.clear();
        self.saved_u
            .extend(data[..=n].iter().map(|&x| i64::from(x)));
        self.saved_v.clear();
        self.saved_v
            .extend(data[n + 1..n + m + 2].iter().map(|&x| i64::from(x)));
        self.saved_owner.clear();
        self.saved_owner
            .extend(data[n + m + 2..].iter().map(|&x| x as usize));
        let mut matrix = std::mem::take(&mut self.matrix);
        matrix.clear();
        matrix.extend(
            boxes
                .iter()
                .flat_map(|&b| (0..m).map(move |j| cost_of(graph, b, j))),
        );
        self.matrix = matrix;
        let matrix = &self.matrix;
        Some(self.total_of(m, &|i, j| matrix[i * m + j]))
    }

    /// The cost of the kept solution.
    fn total_of<F: Fn(usize, usize) -> i64>(&self, m: usize, cost: &F) -> Option<u32> {
        let total: i64 = (1..=m)
            .filter(|&j| self.saved_owner[j] != 0)
            .map(|j| cost(self.saved_owner[j] - 1, j - 1))
            .sum();
        (total < BLOCKED).then(|| u32::try_from(total).unwrap_or(u32::MAX))
    }

    /// [`Matcher::moved`] over `n` boxes, `m` goals and the changed costs `cost`.
    fn rematch<F: Fn(usize, usize) -> i64>(
        &mut self,
        n: usize,
        m: usize,
        k: usize,
        cost: &F,
    ) -> Option<u32> {
        if n < m {
            // With spare goals, the freed goal's dual may be negative while it stays unmatched,
            // which one augmenting path does not repair: match from scratch.
            return self.full(n, m, cost);
        }
        self.u.clone_from(&self.saved_u);
        self.v.clone_from(&self.saved_v);
        self.owner.clone_from(&self.saved_owner);
        let row = k + 1;
        for j in 1..=m {
            if self.owner[j] == row {
                self.owner[j] = 0;
            }
        }
        // Keep the duals feasible for the changed row, then re-insert it.
        self.u[row] = (1..=m)
            .map(|j| cost(k, j - 1) - self.v[j])
            .min()
            .unwrap_or(0);
        self.augment(row, m, cost);
        self.total(m, cost)
    }

    fn total<F: Fn(usize, usize) -> i64>(&self, m: usize, cost: &F) -> Option<u32> {
        let total: i64 = (1..=m)
            .filter(|&j| self.owner[j] != 0)
            .map(|j| cost(self.owner[j] - 1, j - 1))
            .sum();
        (total < BLOCKED).then(|| u32::try_from(total).unwrap_or(u32::MAX))
    }

    /// Matches row `i` along a shortest augmenting path, updating the duals.
    fn augment<F: Fn(usize, usize) -> i64>(&mut self, i: usize, m: usize, cost: &F) {
        self.owner[0] = i;
        let mut j0 = 0;
        self.min_v.clear();
        self.min_v.resize(m + 1, i64::MAX);
        self.used.clear();
        self.used.resize(m + 1, false);
        loop {
            self.used[j0] = true;
            let i0 = self.owner[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            for j in 1..=m {
                if self.used[j] {
                    continue;
                }
                let reduced = cost(i0 - 1, j - 1) - self.u[i0] - self.v[j];
                if reduced < self.min_v[j] {
                    self.min_v[j] = reduced;
                    self.way[j] = j0;
                }
                if self.min_v[j] < delta {
                    delta = self.min_v[j];
                    j1 = j;
                }
            }
            for j in 0..=m {
                if self.used[j] {
                    self.u[self.owner[j]] += delta;
                    self.v[j] -= delta;
                } else {
                    self.min_v[j] -= delta;
                }
            }
            j0 = j1;
            if self.owner[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.owner[j0] = self.owner[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_collection;

    /// Re-matching after one box moves gives exactly the full matching's bound.
    #[test]
    fn one_box_rematch_equals_a_full_matching() {
        let text =
            "; room\n#########\n#.  $  .#\n# $ # $ #\n#.  @  .#\n# $   $ #\n#.  #  .#\n#########\n";
        let level = parse_collection(text, "room.xsb").levels.remove(0).unwrap();
        let graph = CellGraph::square(&level, level.player());
        let mut boxes: Vec<u16> = graph.boxes_of(&level);
        let mut seed = 7u64;
        let mut full = Matcher::default();
        let mut incremental = Matcher::default();
        let mut compared = 0;
        for _ in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (seed >> 33) as usize % boxes.len();
            let to = (seed >> 13) as u16 % graph.len() as u16;
            if boxes.contains(&to) {
                continue;
            }
            if incremental.bound(&graph, &boxes).is_none() {
                boxes[k] = to;
                continue;
            }
            let quick = incremental.moved(&graph, &boxes, k, to);
            boxes[k] = to;
            assert_eq!(quick, full.bound(&graph, &boxes), "boxes {boxes:?}");
            compared += 1;
        }
        assert!(compared > 100);
    }

    /// Advancing the kept solution along a walk of one-box moves gives, at every step, exactly
    /// the full matching's bound, and keeps a solution the next step can advance from.
    #[test]
    fn advancing_along_one_box_moves_equals_full_matchings() {
        let text =
            "; room\n#########\n#.  $  .#\n# $ # $ #\n#.  @  .#\n# $   $ #\n#.  #  .#\n#########\n";
        let level = parse_collection(text, "room.xsb").levels.remove(0).unwrap();
        let graph = CellGraph::square(&level, level.player());
        let mut boxes: Vec<u16> = graph.boxes_of(&level);
        boxes.sort_unstable();
        let mut seed = 11u64;
        let mut full = Matcher::default();
        let mut walker = Matcher::default();
        assert!(walker.bound(&graph, &boxes).is_some());
        let mut compared = 0;
        for _ in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (seed >> 33) as usize % boxes.len();
            let to = (seed >> 13) as u16 % graph.len() as u16;
            if boxes.contains(&to) {
                continue;
            }
            let mut next = boxes.clone();
            next[k] = to;
            next.sort_unstable();
            let expected = full.bound(&graph, &next);
            if expected.is_none() {
                continue;
            }
            assert_eq!(walker.advance(&graph, &boxes, &next), expected, "{next:?}");
            boxes = next;
            compared += 1;
        }
        assert!(compared > 100);
    }
}
