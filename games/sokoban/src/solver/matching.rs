//! The lower bound: a minimum-cost assignment of boxes to distinct goals (Hungarian method).
//!
//! Each box must end on its own goal, so the cheapest perfect matching of boxes to goals, with a
//! lone box's push distance as the cost, never overestimates the pushes left: an admissible
//! bound for push-optimal A*. When no perfect matching exists at all (two boxes that can only
//! reach the same single goal), the position is a *bipartite deadlock*.

use super::graph::{CellGraph, FAR};

/// The cost standing in for "unreachable"; a matching this expensive does not exist.
const BLOCKED: i64 = 1 << 32;

/// Reusable buffers for [`Matcher::bound`], so a search allocates them once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matcher {
    u: Vec<i64>,
    v: Vec<i64>,
    owner: Vec<usize>,
    way: Vec<usize>,
    min_v: Vec<i64>,
    used: Vec<bool>,
}

impl Matcher {
    /// The minimum total push distance of `boxes` to distinct goals, or `None` when some box
    /// can't be given a goal of its own (a bipartite deadlock).
    ///
    /// The shortest-augmenting-path form of the Hungarian method, O(boxes² · goals).
    pub(crate) fn bound(&mut self, graph: &CellGraph, boxes: &[u16]) -> Option<u32> {
        let n = boxes.len();
        let m = graph.goals.len();
        if n > m {
            return None;
        }
        let cost = |i: usize, j: usize| -> i64 {
            let d = graph.distance[j][usize::from(boxes[i])];
            if d == FAR {
                BLOCKED
            } else {
                i64::from(d)
            }
        };
        // Rows are boxes (1..=n), columns goals (1..=m); index 0 is the virtual start.
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.owner.clear();
        self.owner.resize(m + 1, 0);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for i in 1..=n {
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
        let total: i64 = (1..=m)
            .filter(|&j| self.owner[j] != 0)
            .map(|j| cost(self.owner[j] - 1, j - 1))
            .sum();
        (total < BLOCKED).then(|| u32::try_from(total).unwrap_or(u32::MAX))
    }
}
