//! PI-corral pruning: when some area the player can't reach must be entered, push into it first.
//!
//! A *corral* is an area the player can't reach, fenced by boxes. It is an *I-corral* when no
//! push of a fence box can go out of it, now or after other boxes move (checked conservatively:
//! a push out counts unless its target is a wall, a dead square or a box of this corral, or the
//! player's side is inside the corral), and a
//! *PI-corral* when, in addition, the player can make every push of a fence box into it (stands
//! on the right side of each). If such a corral still needs work (a box in it or on its fence is
//! off a goal, or a goal in it is empty), any solution must push one of its fence boxes into it
//! before it matters what happens elsewhere, so the search may try only those pushes. This is
//! the classic pruning of YASS and Sokolution; it keeps every solution's push count reachable,
//! so push-optimal search stays optimal (move-optimal search does not use it).

use super::graph::{CellGraph, NONE};

/// The PI-corral [`Corrals::fence`] picked.
#[derive(Clone, Debug)]
pub(crate) struct PiCorral {
    /// The boxes on its fence: the only ones the search needs to push.
    pub fence: Vec<u16>,
    /// Every box of the corral, fence and inside, sorted: the boxes of its deadlock check.
    pub boxes: Vec<u16>,
    /// Its number in [`Corrals`]' area map (valid until the next [`Corrals::fence`]).
    number: u32,
}

/// Scratch space for [`Corrals::fence`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Corrals {
    /// Corral number + 1 per cell, 0 for none.
    area: Vec<u32>,
    queue: Vec<u16>,
    fence: Vec<u16>,
    inner: Vec<u16>,
}

impl Corrals {
    /// The boxes whose pushes the search may restrict itself to: the fence of the PI-corral
    /// with the fewest pushes, or `None` to try every push. `reachable(c)` tells whether the
    /// player reaches cell `c`; `occupied` marks the boxes.
    pub(crate) fn fence(
        &mut self,
        graph: &CellGraph,
        occupied: &[bool],
        reachable: &dyn Fn(u16) -> bool,
    ) -> Option<PiCorral> {
        self.area.clear();
        self.area.resize(graph.len(), 0);
        let mut best: Option<(usize, PiCorral)> = None;
        let mut number = 0u32;
        for start in 0..graph.len() as u16 {
            let s = usize::from(start);
            if reachable(start) || occupied[s] || self.area[s] != 0 {
                continue;
            }
            number += 1;
            // Flood the corral: empty cells, and boxes with no reachable neighbour (inside it).
            self.queue.clear();
            self.fence.clear();
            self.inner.clear();
            self.queue.push(start);
            self.area[s] = number;
            let mut needs_work = false;
            let mut head = 0;
            while let Some(&c) = self.queue.get(head) {
                head += 1;
                let cu = usize::from(c);
                if occupied[cu] != graph.goal[cu] {
                    needs_work = true; // a box off a goal, or an empty goal
                }
                for d in 0..graph.dirs {
                    let n = graph.next(c, d);
                    if n == NONE || self.area[usize::from(n)] == number {
                        continue;
                    }
                    let nu = usize::from(n);
                    if occupied[nu] {
                        let on_fence = (0..graph.dirs).any(|e| {
                            let m = graph.next(n, e);
                            m != NONE && !occupied[usize::from(m)] && reachable(m)
                        });
                        if on_fence {
                            if !self.fence.contains(&n) {
                                self.fence.push(n);
                            }
                            continue;
                        }
                        self.inner.push(n);
                    } else if reachable(n) {
                        continue;
                    }
                    self.area[nu] = number;
                    self.queue.push(n);
                }
            }
            if self.fence.is_empty() {
                continue;
            }
            if self.fence.iter().any(|&b| !graph.goal[usize::from(b)]) {
                needs_work = true;
            }
            if !needs_work {
                continue;
            }
            // I and P: every possible push of a fence box goes in, and every push in is possible.
            let mut pushes = 0;
            let mut pi = true;
            'fence: for &b in &self.fence {
                for d in 0..graph.dirs {
                    let to = graph.next(b, d);
                    let behind = graph.next(b, usize::from(graph.opposite[d]));
                    if to == NONE || behind == NONE {
                        continue;
                    }
                    let (tu, bu) = (usize::from(to), usize::from(behind));
                    let ours =
                        |c: u16| self.area[usize::from(c)] == number || self.fence.contains(&c);
                    if self.area[tu] == number && !occupied[tu] {
                        if occupied[bu] || !reachable(behind) {
                            pi = false; // a push in the player can't make now
                            break 'fence;
                        }
                        if !graph.dead[tu] {
                            pushes += 1;
                        }
                        continue;
                    }
                    // A push out, now or once other boxes move: the target is outside the
                    // corral and free (or held by a box that may leave), the player's side is
                    // not inside the corral.
                    let target_may_free = !occupied[tu] || !ours(to);
                    if target_may_free && !graph.dead[tu] && !ours(behind) {
                        pi = false;
                        break 'fence;
                    }
                }
            }
            if pi && pushes > 0 && best.as_ref().is_none_or(|(p, _)| pushes < *p) {
                let mut boxes: Vec<u16> = self.fence.iter().chain(&self.inner).copied().collect();
                boxes.sort_unstable();
                let corral = PiCorral {
                    fence: self.fence.clone(),
                    boxes,
                    number,
                };
                best = Some((pushes, corral));
            }
        }
        best.map(|(_, corral)| corral)
    }

    /// Whether cell `c` is inside `corral` or on its fence.
    pub(crate) fn holds(&self, corral: &PiCorral, c: u16) -> bool {
        self.area[usize::from(c)] == corral.number || corral.fence.contains(&c)
    }
}
