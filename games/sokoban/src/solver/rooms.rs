//! Goal rooms and goal macros: fill a room of goals in an order that never walls off a goal.
//!
//! Large levels keep their goals in a room with a narrow way in. A best-first search pushes the
//! first box it brings to the nearest goal of the room, which is usually the one by the door,
//! and then spends its whole budget behind the box it just parked there. Programs that solve
//! such levels (Rolling Stone's *goal macros*, Junghanns and Schaeffer) decide the filling order
//! once per level and then treat "bring a box through the door to the next goal of the order"
//! as one move.
//!
//! * A **room** is a connected group of goal cells; its **area** is the room plus its
//!   *pockets*, floor cells the goals enclose (components of the floor, the goals taken as
//!   walls, smaller than the room and not the largest: XSokoban 9 has one). Its **doors** are
//!   the floor cells outside the area next to it. The player can't start a pull in a pocket,
//!   a box pulled into one has not left the room, and a macro's box may cross one.
//! * Its **packing order** is found backwards: start with a box on every goal of the room and
//!   the player outside, take out one box that can be *pulled* through a door (the others
//!   standing where they are), and repeat. Filling the room in the reverse order of taking out
//!   leaves, at every step, a way from the door to the next goal. When no box can be taken out
//!   at some step, the room gets no order and no macros.
//! * A **goal macro** applies when a box stands on a door of a room whose first `k` goals of
//!   the order hold boxes and whose other goals are empty: it pushes that box from the door to
//!   goal `k + 1` (a push path found here, around every other box). The search then generates
//!   only that move, and it never pushes the boxes of a room that is packed so far.
//!
//! * The **packing advisor** (FESS's, Shoham and Schaeffer 2020) is no cut but one more
//!   child per position: a box anywhere (the few nearest first) pushed around the other boxes
//!   as they stand all the way to a room's next goal in its order, or to an empty goal outside
//!   the ordered rooms ([`Rooms::advise`]). A position so reached packs one more box and lands
//!   in the next packing cell of the feature-space search at once, where push by push the box
//!   would need its whole way in nodes first.
//!
//! Both restrictions may cut away every solution of an odd level, so a search that used them
//! and ran out of positions proves nothing: [`super::search`] then searches again without them.
//! Used by the satisficing strategies only; optimal searches keep every push.

use super::graph::{CellGraph, NONE};
use super::search::Push;

/// The goal rooms of a level that have a packing order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rooms {
    rooms: Vec<Room>,
    /// Per compact cell: the room whose goal it is, plus one; 0 for none.
    room_of: Vec<u32>,
    /// Per compact cell: the room whose area it is (its goals and the pockets they enclose),
    /// plus one; 0 for none. A goal macro's box stays inside its room's area.
    area_of: Vec<u32>,
    /// Per compact cell: the rooms whose door it is.
    door_of: Vec<Vec<u32>>,
}

/// One room: its goals in filling order.
#[derive(Clone, Debug)]
struct Room {
    order: Vec<u16>,
}

impl Rooms {
    /// Finds the rooms of the level and their packing orders. Rooms of a single goal are left
    /// out: a macro would save nothing there.
    pub(crate) fn new(graph: &CellGraph) -> Rooms {
        let len = graph.len();
        let mut room_of = vec![0u32; len];
        let mut area_of = vec![0u32; len];
        let mut door_of = vec![Vec::new(); len];
        let mut rooms = Vec::new();
        let mut group_of = vec![u32::MAX; len];
        let mut groups: Vec<Vec<u16>> = Vec::new();
        for &g in &graph.goals {
            if group_of[usize::from(g)] != u32::MAX {
                continue;
            }
            let id = groups.len() as u32;
            let mut group = vec![g];
            group_of[usize::from(g)] = id;
            let mut head = 0;
            while let Some(&c) = group.get(head) {
                head += 1;
                for d in 0..graph.dirs {
                    let n = graph.next(c, d);
                    if n != NONE
                        && graph.goal[usize::from(n)]
                        && group_of[usize::from(n)] == u32::MAX
                    {
                        group_of[usize::from(n)] = id;
                        group.push(n);
                    }
                }
            }
            groups.push(group);
        }
        for group in groups {
            if group.len() < 2 {
                continue;
            }
            let outside = outside_of(graph, &group);
            let Some(order) = packing_order(graph, &group, &outside) else {
                continue;
            };
            let number = rooms.len() as u32;
            for &g in &group {
                room_of[usize::from(g)] = number + 1;
            }
            // The area: the goals and the pockets they enclose (every cell not outside).
            for (c, area) in area_of.iter_mut().enumerate() {
                if !outside[c] && *area == 0 {
                    *area = number + 1;
                }
            }
            // Doors are the outside cells beside the area.
            for c in 0..len as u16 {
                if area_of[usize::from(c)] != number + 1 {
                    continue;
                }
                for d in 0..graph.dirs {
                    let n = graph.next(c, d);
                    if n != NONE && outside[usize::from(n)] {
                        let doors = &mut door_of[usize::from(n)];
                        if !doors.contains(&number) {
                            doors.push(number);
                        }
                    }
                }
            }
            rooms.push(Room { order });
        }
        Rooms {
            rooms,
            room_of,
            area_of,
            door_of,
        }
    }

    /// Whether the level has any room with an order (else macros never apply).
    pub(crate) fn any(&self) -> bool {
        !self.rooms.is_empty()
    }

    /// How far room `r` is packed: `Some(k)` when exactly its first `k` goals of the order
    /// hold boxes, `None` when its boxes stand otherwise.
    fn packed(&self, r: usize, occupied: &[bool]) -> Option<usize> {
        let order = &self.rooms[r].order;
        let k = order
            .iter()
            .take_while(|&&g| occupied[usize::from(g)])
            .count();
        order[k..]
            .iter()
            .all(|&g| !occupied[usize::from(g)])
            .then_some(k)
    }

    /// The packing feature of a position with `boxes` (sorted): for every room with an order,
    /// how many of its first goals in that order hold boxes; for every goal outside such a
    /// room, one when it holds a box. A box on a room's goal out of order counts for nothing,
    /// since it may have to leave again.
    pub(crate) fn packed_boxes(&self, graph: &CellGraph, boxes: &[u16]) -> u32 {
        let holds = |g: u16| boxes.binary_search(&g).is_ok();
        let rooms: usize = self
            .rooms
            .iter()
            .map(|room| room.order.iter().take_while(|&&g| holds(g)).count())
            .sum();
        let loose = boxes
            .iter()
            .filter(|&&b| {
                graph.goal[usize::from(b)]
                    && self.room_of.get(usize::from(b)).is_none_or(|&r| r == 0)
            })
            .count();
        (rooms + loose) as u32
    }

    /// Whether the box on `cell` belongs to a room packed so far (a box the search leaves
    /// alone).
    pub(crate) fn settled(&self, cell: u16, occupied: &[bool]) -> bool {
        match self.room_of[usize::from(cell)] {
            0 => false,
            r => self.packed(r as usize - 1, occupied).is_some(),
        }
    }

    /// The goal macro of this position, if one applies: a box on a door of a room packed so
    /// far is pushed to the room's next goal. `boxes` are the position's boxes, marked in
    /// `occupied`; `reachable(c)` tells whether the player reaches `c` now. Returns the box's
    /// index in `boxes`, its goal, and the pushes of the way there.
    pub(crate) fn macro_move(
        &self,
        graph: &CellGraph,
        boxes: &[u16],
        occupied: &mut [bool],
        reachable: &dyn Fn(u16) -> bool,
        scratch: &mut PathScratch,
    ) -> Option<(usize, u16, Vec<Push>)> {
        for (k, &b) in boxes.iter().enumerate() {
            for &r in &self.door_of[usize::from(b)] {
                let r = r as usize;
                let Some(filled) = self.packed(r, occupied) else {
                    continue;
                };
                let Some(&target) = self.rooms[r].order.get(filled) else {
                    continue;
                };
                let allowed = |c: u16| c == b || self.area_of[usize::from(c)] == r as u32 + 1;
                if let Some(path) =
                    push_path(graph, occupied, b, target, &allowed, reachable, scratch)
                {
                    return Some((k, target, path));
                }
            }
        }
        None
    }

    /// The *packing advisor* (FESS's): a box anywhere outside a room that can be pushed, around
    /// the other boxes as they stand, all the way to the room's next goal in its order. Tries
    /// the boxes nearest that goal (lone-box push distance) first, at most `tries` of them per
    /// room, so a position costs a few push-path searches at most. When no room's next goal can
    /// be reached so, the same for the goals outside every ordered room (single goals, rooms
    /// with no order): the `tries` nearest pairs of an empty such goal and a box off the goals.
    /// `boxes`, `occupied` and `reachable` as for [`Rooms::macro_move`]. Returns the box's
    /// index in `boxes`, the goal, and the pushes (two or more: a single push is a child the
    /// search makes anyway).
    ///
    /// Unlike a goal macro this cuts nothing: its child is one more child, so proofs stand.
    /// A push path runs through any cell but dead squares, so it may cross a room's goals.
    pub(crate) fn advise(
        &self,
        graph: &CellGraph,
        boxes: &[u16],
        occupied: &mut [bool],
        reachable: &dyn Fn(u16) -> bool,
        scratch: &mut PathScratch,
        tries: usize,
    ) -> Option<(usize, u16, Vec<Push>)> {
        for (r, room) in self.rooms.iter().enumerate() {
            let Some(filled) = self.packed(r, occupied) else {
                continue;
            };
            let Some(&target) = room.order.get(filled) else {
                continue;
            };
            let Some(gi) = graph.goals.iter().position(|&g| g == target) else {
                continue;
            };
            let distance = &graph.distance[gi];
            // Candidates: boxes off this room's goals with a finite lone-box distance, nearest
            // first (ties by index, so the choice is the same on every run).
            let mut near: Vec<(u16, usize)> = boxes
                .iter()
                .enumerate()
                .filter(|&(_, &b)| {
                    self.room_of[usize::from(b)] != r as u32 + 1
                        && distance[usize::from(b)] != super::graph::FAR
                        && distance[usize::from(b)] >= 2
                })
                .map(|(k, &b)| (distance[usize::from(b)], k))
                .collect();
            near.sort_unstable();
            for &(_, k) in near.iter().take(tries) {
                let b = boxes[k];
                if let Some(path) =
                    push_path(graph, occupied, b, target, &|_| true, reachable, scratch)
                {
                    if path.len() >= 2 {
                        return Some((k, target, path));
                    }
                }
            }
        }
        // Goals outside every ordered room: the nearest pairs of an empty goal and a box off
        // the goals, whatever their order.
        let mut near: Vec<(u16, usize, u16)> = Vec::new();
        for (gi, &g) in graph.goals.iter().enumerate() {
            if self.room_of[usize::from(g)] != 0 || occupied[usize::from(g)] {
                continue;
            }
            let distance = &graph.distance[gi];
            for (k, &b) in boxes.iter().enumerate() {
                let d = distance[usize::from(b)];
                if !graph.goal[usize::from(b)] && d != super::graph::FAR && d >= 2 {
                    near.push((d, k, g));
                }
            }
        }
        near.sort_unstable();
        for &(_, k, g) in near.iter().take(tries) {
            if let Some(path) =
                push_path(graph, occupied, boxes[k], g, &|_| true, reachable, scratch)
            {
                if path.len() >= 2 {
                    return Some((k, g, path));
                }
            }
        }
        None
    }
}

/// Scratch space of [`push_path`], kept by the search between calls (this runs at every node
/// where a box stands on a door, and for the packing advisor, so it allocates and clears
/// nothing per call): `visited` and `labelled` hold stamps, a state or row being marked when it
/// holds the current one.
#[derive(Clone, Debug, Default)]
pub(crate) struct PathScratch {
    visited: Vec<u32>,
    visit_stamp: u32,
    states: Vec<(u16, u16)>,
    came: Vec<(usize, Push)>,
    queue: Vec<u16>,
    /// `labels[x * cells + c]`: with the moving box on `x` (the other boxes in place), the
    /// number of the player's area holding `c` (`u16::MAX` on a box); computed once per box
    /// cell and call (`labelled[x]` holds the call's stamp), so the states of one box cell
    /// share one labelling instead of a flood each.
    labels: Vec<u16>,
    labelled: Vec<u32>,
}

impl PathScratch {
    /// Readies the arrays for `graph` and a new call: a fresh visit stamp.
    fn begin(&mut self, graph: &CellGraph) -> u32 {
        let states = graph.len() * graph.dirs;
        if self.visited.len() != states {
            self.visited = vec![0; states];
            self.visit_stamp = 0;
            self.labels = vec![u16::MAX; graph.len() * graph.len()];
            self.labelled = vec![0; graph.len()];
        }
        self.visit_stamp = self.visit_stamp.wrapping_add(1);
        if self.visit_stamp == 0 {
            self.visited.fill(0);
            self.labelled.fill(0);
            self.visit_stamp = 1;
        }
        self.states.clear();
        self.came.clear();
        self.visit_stamp
    }

    /// Labels the player's areas with the moving box on `b` (marked in `occupied` with the
    /// other boxes) into row `b` of `labels`, and marks the row as done for call `visit`.
    fn label(&mut self, graph: &CellGraph, occupied: &[bool], b: u16, visit: u32) {
        let len = graph.len();
        let row = &mut self.labels[usize::from(b) * len..(usize::from(b) + 1) * len];
        row.fill(u16::MAX);
        let mut area = 0u16;
        for start in 0..len as u16 {
            if occupied[usize::from(start)] || row[usize::from(start)] != u16::MAX {
                continue;
            }
            row[usize::from(start)] = area;
            self.queue.clear();
            self.queue.push(start);
            while let Some(c) = self.queue.pop() {
                for d in 0..graph.dirs {
                    let n = graph.next(c, d);
                    if n != NONE && !occupied[usize::from(n)] && row[usize::from(n)] == u16::MAX {
                        row[usize::from(n)] = area;
                        self.queue.push(n);
                    }
                }
            }
            area += 1;
        }
        self.labelled[usize::from(b)] = visit;
    }
}

/// The pushes that bring the box on `from` to `to`, the box staying on cells `allowed` accepts,
/// around the other boxes marked in `occupied` (which this leaves as it found it);
/// `reachable` tells where the player can walk before the first push.
fn push_path(
    graph: &CellGraph,
    occupied: &mut [bool],
    from: u16,
    to: u16,
    allowed: &dyn Fn(u16) -> bool,
    reachable: &dyn Fn(u16) -> bool,
    scratch: &mut PathScratch,
) -> Option<Vec<Push>> {
    // Breadth-first over (box cell, the player's cell after the push); before each push the
    // player's walk is checked with the box in place. `START` stands for the position given.
    // A state is known by its box cell and the direction of the push that led there (the
    // player stands behind), marked in `visited`; the player's region of the state being
    // expanded is its area in the labelling of its box cell (`labels`: one labelling per box
    // cell, shared by the up to four states there, instead of one flood per state; flat
    // arrays, no scans of lists, since this runs at most nodes).
    const START: usize = usize::MAX;
    occupied[usize::from(from)] = false;
    let visit = scratch.begin(graph);
    let mut stamp = 0u32;
    let mut found = None;
    let mut at = START;
    loop {
        let (b, flooded) = if at == START {
            (from, false)
        } else {
            let (b, player) = scratch.states[at];
            occupied[usize::from(b)] = true;
            if scratch.labelled[usize::from(b)] != visit {
                scratch.label(graph, occupied, b, visit);
            }
            stamp = u32::from(scratch.labels[usize::from(b) * graph.len() + usize::from(player)]);
            (b, true)
        };
        occupied[usize::from(b)] = true;
        for d in 0..graph.dirs {
            let behind = graph.next(b, usize::from(graph.opposite[d]));
            let next = graph.next(b, d);
            if behind == NONE || next == NONE || occupied[usize::from(next)] || !allowed(next) {
                continue;
            }
            if graph.dead[usize::from(next)] || occupied[usize::from(behind)] {
                continue;
            }
            let can_stand = if flooded {
                u32::from(scratch.labels[usize::from(b) * graph.len() + usize::from(behind)])
                    == stamp
            } else {
                reachable(behind)
            };
            let state = usize::from(next) * graph.dirs + d;
            if !can_stand || scratch.visited[state] == visit {
                continue;
            }
            scratch.visited[state] = visit;
            scratch.states.push((next, b));
            scratch.came.push((
                at,
                Push {
                    from: b,
                    dir: d as u8,
                },
            ));
            if next == to {
                found = Some(scratch.states.len() - 1);
                break;
            }
        }
        occupied[usize::from(b)] = false;
        at = if at == START { 0 } else { at + 1 };
        if found.is_some() || at >= scratch.states.len() {
            break;
        }
    }
    occupied[usize::from(from)] = true;
    let mut at = found?;
    let mut pushes = Vec::new();
    loop {
        let (parent, push) = scratch.came[at];
        pushes.push(push);
        if parent == START {
            break;
        }
        at = parent;
    }
    pushes.reverse();
    Some(pushes)
}

/// The floor cells outside `room`: every component of the level's floor, the room's goals taken
/// as walls, except *pockets*, components smaller than the room that are not the largest
/// (a floor cell enclosed by goals, as in XSokoban 9). A pocket is reached only through the
/// room, so the player can't start a pull there and a box pulled into it is not out of the
/// room. Ties between components of one size are broken by their smallest cell, so the choice
/// is the same on every run.
fn outside_of(graph: &CellGraph, room: &[u16]) -> Vec<bool> {
    let len = graph.len();
    let mut walls = vec![false; len];
    for &g in room {
        walls[usize::from(g)] = true;
    }
    let mut component = vec![u32::MAX; len];
    let mut sizes: Vec<usize> = Vec::new();
    for c in 0..len as u16 {
        if walls[usize::from(c)] || component[usize::from(c)] != u32::MAX {
            continue;
        }
        let cells = flood(graph, &walls, &[c]);
        let id = sizes.len() as u32;
        let mut size = 0;
        for (cell, &reached) in cells.iter().enumerate() {
            if reached {
                component[cell] = id;
                size += 1;
            }
        }
        sizes.push(size);
    }
    // The largest component, the first of them on a tie.
    let largest = sizes
        .iter()
        .enumerate()
        .max_by_key(|&(id, &size)| (size, std::cmp::Reverse(id)))
        .map(|(id, _)| id as u32);
    (0..len)
        .map(|c| {
            let id = component[c];
            id != u32::MAX && (Some(id) == largest || sizes[id as usize] >= room.len())
        })
        .collect()
}

/// The order in which to fill the goals of `room`, or `None` if taking the boxes out one by
/// one gets stuck; `outside` marks the cells outside the room ([`outside_of`]). See the
/// [module documentation](self).
fn packing_order(graph: &CellGraph, room: &[u16], outside: &[bool]) -> Option<Vec<u16>> {
    let len = graph.len();
    let mut occupied = vec![false; len];
    for &g in room {
        occupied[usize::from(g)] = true;
    }
    let is_out = |c: u16| outside[usize::from(c)];
    let mut left: Vec<u16> = room.to_vec();
    let mut taken_out = Vec::with_capacity(room.len());
    while !left.is_empty() {
        // The player starts outside the room: every floor cell outside it is open to it (other
        // boxes play no part in the order), and so is whatever it reaches from there through
        // the goals already emptied.
        let starts: Vec<u16> = (0..len as u16).filter(|&c| is_out(c)).collect();
        let free = flood(graph, &occupied, &starts);
        let pick = left
            .iter()
            .position(|&g| pull_out(graph, &mut occupied, g, &free, &is_out));
        let i = pick?;
        let g = left.remove(i);
        occupied[usize::from(g)] = false;
        taken_out.push(g);
    }
    taken_out.reverse();
    Some(taken_out)
}

/// The cells the player reaches from any of `starts` around the boxes in `occupied`.
fn flood(graph: &CellGraph, occupied: &[bool], starts: &[u16]) -> Vec<bool> {
    let mut seen = vec![false; graph.len()];
    let mut queue: Vec<u16> = Vec::new();
    for &s in starts {
        if !occupied[usize::from(s)] && !seen[usize::from(s)] {
            seen[usize::from(s)] = true;
            queue.push(s);
        }
    }
    let mut head = 0;
    while let Some(&c) = queue.get(head) {
        head += 1;
        for d in 0..graph.dirs {
            let n = graph.next(c, d);
            if n != NONE && !occupied[usize::from(n)] && !seen[usize::from(n)] {
                seen[usize::from(n)] = true;
                queue.push(n);
            }
        }
    }
    seen
}

/// Whether the box on goal `g` can be pulled out of the room (to a cell `is_out` accepts),
/// the other boxes of `occupied` staying put; `free` is where the player can stand first.
fn pull_out(
    graph: &CellGraph,
    occupied: &mut [bool],
    g: u16,
    free: &[bool],
    is_out: &dyn Fn(u16) -> bool,
) -> bool {
    occupied[usize::from(g)] = false;
    // States: the box's cell and the player's cell after a pull.
    let mut seen: Vec<(u16, u16)> = Vec::new();
    let mut states: Vec<(u16, Option<u16>)> = vec![(g, None)];
    let mut head = 0;
    let mut out = false;
    'search: while let Some(&(b, player)) = states.get(head) {
        head += 1;
        occupied[usize::from(b)] = true;
        let stand = match player {
            None => free.to_vec(),
            Some(p) => flood(graph, occupied, &[p]),
        };
        for d in 0..graph.dirs {
            // Pull toward d: the player on b+d steps to b+2d, the box follows to b+d.
            let p = graph.next(b, d);
            if p == NONE || occupied[usize::from(p)] || !stand[usize::from(p)] {
                continue;
            }
            let q = graph.next(p, d);
            if q == NONE || occupied[usize::from(q)] {
                continue;
            }
            if is_out(p) {
                out = true;
                occupied[usize::from(b)] = false;
                break 'search;
            }
            if !seen.contains(&(p, q)) {
                seen.push((p, q));
                states.push((p, Some(q)));
            }
        }
        occupied[usize::from(b)] = false;
    }
    occupied[usize::from(g)] = true;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse_collection;

    fn graph_of(text: &str) -> CellGraph {
        let level = parse_collection(text, "room.xsb").levels.remove(0).unwrap();
        CellGraph::square(&level, level.player())
    }

    /// A dead-end corridor of goals fills from its far end: the goal by the door comes last.
    #[test]
    fn a_corridor_of_goals_fills_from_the_far_end() {
        let graph = graph_of("; corridor\n########\n#...   #\n####$$ #\n   # $@#\n   #####\n");
        let rooms = Rooms::new(&graph);
        assert!(rooms.any());
        let order: Vec<_> = rooms.rooms[0]
            .order
            .iter()
            .map(|&g| graph.level_cell[usize::from(g)])
            .collect();
        // The corridor runs left from its door: the far goal first, the one by the door last.
        let xs: Vec<u16> = order.iter().map(|c| c.0 % 8).collect();
        assert_eq!(xs, vec![1, 2, 3]);
    }

    /// A floor cell enclosed by goals (XSokoban 9's room) is a pocket of the room, not outside
    /// it: no door, the player can't start a pull there, and a macro's box may cross it.
    #[test]
    fn a_floor_cell_enclosed_by_goals_is_part_of_the_room() {
        let text =
            "; pocket\n########\n#   ...#\n# $$. .#\n#  $...#\n#  $$$ #\n#@   $ #\n########\n";
        let level = parse_collection(text, "room.xsb").levels.remove(0).unwrap();
        let graph = CellGraph::square(&level, level.player());
        let rooms = Rooms::new(&graph);
        assert!(rooms.any());
        let pocket = graph.compact[level.cell_at(5, 2).unwrap().index()];
        assert_ne!(pocket, NONE);
        assert!(!graph.goal[usize::from(pocket)]);
        assert!(
            rooms.door_of[usize::from(pocket)].is_empty(),
            "a pocket is no door"
        );
        assert_eq!(rooms.area_of[usize::from(pocket)], 1);
        assert_eq!(
            rooms.room_of[usize::from(pocket)],
            0,
            "a pocket holds no goal"
        );
        assert_eq!(rooms.rooms[0].order.len(), 8);
    }

    /// The packing advisor brings a box that is two or more pushes away to the room's first
    /// goal in its order, in one child holding the pushes of the whole way, and leaves the
    /// position as it found it.
    #[test]
    fn the_packing_advisor_pushes_a_box_to_the_next_goal_of_the_order() {
        let text = "; open\n#######\n#..   #\n#  $  #\n#   $ #\n#@    #\n#######\n";
        let level = parse_collection(text, "room.xsb").levels.remove(0).unwrap();
        let graph = CellGraph::square(&level, level.player());
        let rooms = Rooms::new(&graph);
        assert!(rooms.any());
        let mut boxes: Vec<u16> = graph.boxes_of(&level);
        boxes.sort_unstable();
        let mut occupied = vec![false; graph.len()];
        for &b in &boxes {
            occupied[usize::from(b)] = true;
        }
        let before = occupied.clone();
        let player = graph.compact[level.player().index()];
        let region = flood(&graph, &occupied, &[player]);
        let mut scratch = PathScratch::default();
        let reachable = |c: u16| region[usize::from(c)];
        let (k, goal, path) = rooms
            .advise(&graph, &boxes, &mut occupied, &reachable, &mut scratch, 5)
            .expect("a box can be brought to the first goal");
        assert_eq!(goal, rooms.rooms[0].order[0]);
        assert!(path.len() >= 2, "{path:?}");
        assert_eq!(path[0].from, boxes[k]);
        // The pushes are one way, box cell after box cell, ending on the goal.
        for pair in path.windows(2) {
            assert_eq!(
                graph.next(pair[0].from, usize::from(pair[0].dir)),
                pair[1].from
            );
        }
        let last = path[path.len() - 1];
        assert_eq!(graph.next(last.from, usize::from(last.dir)), goal);
        assert_eq!(occupied, before);
    }

    /// Two goals apart are two single-goal groups: no room, no macro.
    #[test]
    fn lone_goals_make_no_room() {
        let graph = graph_of("; apart\n#######\n#. $ .#\n# $@  #\n#######\n");
        assert!(!Rooms::new(&graph).any());
    }
}
