//! The push-level search: best-first over positions, with a Zobrist transposition table.
//!
//! A node is a position after some pushes: the sorted boxes and the player, normalized to the
//! smallest cell of the region the player can reach (positions that differ only by where the
//! player stands in that region are one node), or the player's exact cell when the search
//! minimizes moves. Expanding a node finds the player's region, then tries every push of every
//! box the player can get behind. A push is pruned when it puts a box on a dead square, freezes
//! a box off a goal, or leaves no perfect matching of boxes to goals (see [`super::freeze`] and
//! [`super::matching`]); every one of these prunings is sound, so a search that runs out of
//! nodes to expand has proved the position unsolvable.
//!
//! The search is pure: it reads no clock. It stops on its node budget, on its memory budget
//! (the bytes of its own tables, checked before they grow), or when its cancel flag is raised.

use super::corral::Corrals;
use super::deadlock::{bit, signature, CorralDeadlocks};
use super::features::{FeatureCell, Features};
use super::freeze::freeze_deadlock;
use super::graph::{CellGraph, NONE};
use super::matching::Matcher;
use super::rooms::{PathScratch, Rooms};
use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};

/// How nodes are ordered, and what a solution is optimal in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strategy {
    /// Greedy best-first on the lower bound (ties: fewer pushes so far). Fast, not optimal.
    Greedy,
    /// Greedy best-first within each feature-space cell ([`super::features`]), the cells taken
    /// in turn, one expansion each (FESS's cycle). Not optimal.
    Features,
    /// Weighted A*: pushes so far plus `w` times the lower bound.
    Weighted(u32),
    /// A* on pushes with the admissible matching bound: push-optimal.
    PushOptimal,
    /// A* on moves (walks included) over exact player cells: move-optimal.
    MoveOptimal,
}

impl Strategy {
    /// Whether nodes keep the player's exact cell (only when moves are minimized).
    fn exact_player(self) -> bool {
        self == Strategy::MoveOptimal
    }

    /// Whether the search must finish the node before a solution is final (A* goal test on
    /// expansion), rather than stop at the first solved position generated.
    fn optimal(self) -> bool {
        matches!(self, Strategy::PushOptimal | Strategy::MoveOptimal)
    }
}

/// When a search stops short of a solution.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits<'a> {
    /// Nodes to expand at most.
    pub nodes: u64,
    /// Bytes the search's own tables may hold.
    pub memory: u64,
    /// Raised by someone else to stop the search (any one of them).
    pub cancel: &'a [&'a AtomicBool],
    /// Only solutions cheaper than this (pushes, or moves for [`Strategy::MoveOptimal`]).
    pub below: Option<u32>,
}

/// One push of a solution: the box's cell before it and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Push {
    pub from: u16,
    pub dir: u8,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The pushes of a solution, in order.
    Found(Vec<Push>),
    /// Every reachable node was expanded: no solution (below the bound, if one was given).
    Exhausted,
    /// The node budget ran out.
    NodeBudget,
    /// The memory budget ran out.
    Memory,
    /// The cancel flag was raised.
    Cancelled,
}

/// A search's ending and its effort.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    pub ending: Ending,
    /// Nodes expanded.
    pub nodes: u64,
    /// Distinct nodes stored.
    pub stored: u64,
}

/// An open node's place in a queue: its priority (two keys, smaller first) and its index.
type OpenEntry = Reverse<(u32, u32, u32)>;

/// No parent: the root.
const ROOT: u32 = u32::MAX;

/// The search's tables. Node `i`'s boxes are `boxes[i * count .. (i + 1) * count]`.
struct Search<'g> {
    graph: &'g CellGraph,
    strategy: Strategy,
    count: usize,
    boxes: Vec<u16>,
    player: Vec<u16>,
    parent: Vec<u32>,
    push: Vec<Push>,
    cost: Vec<u32>,
    bound: Vec<u32>,
    hash: Vec<u64>,
    /// Open addressing: node index + 1, 0 for empty.
    table: Vec<u32>,
    open: BinaryHeap<OpenEntry>,
    /// For [`Strategy::Features`]: the open nodes of each feature-space cell (`open` stays
    /// empty), the cell expanded last, and the level's rooms that give the packing feature.
    cells: BTreeMap<FeatureCell, BinaryHeap<OpenEntry>>,
    cursor: Option<FeatureCell>,
    plan: Option<&'g Rooms>,
    features: Features,
    memory: u64,
    // Scratch space for expansions.
    occupied: Vec<bool>,
    seen: Vec<u32>,
    walk: Vec<u16>,
    generation: u32,
    /// The region of the node being expanded, marked with `stamp`.
    region: Vec<u32>,
    stamp: u32,
    queue: Vec<u16>,
    matcher: Matcher,
    stack: Vec<u16>,
    corrals: Corrals,
    deadlocks: CorralDeadlocks,
    /// The level's goal rooms, when this search uses goal macros, and scratch space for
    /// their push paths.
    rooms: Option<&'g Rooms>,
    paths: PathScratch,
    /// The level's goal rooms, for the packing advisor ([`Rooms::advise`]): every satisficing
    /// search, with cuts or without (the advisor's child is one more child, no cut).
    advisor: Option<&'g Rooms>,
    /// The pushes of each node reached by a goal or tunnel macro (its `push` says [`MACRO`]).
    macros: BTreeMap<u32, Vec<Push>>,
    /// Per cell, when this search uses tunnel macros: bit `d` set when the cell is a one-wide
    /// tunnel along direction `d`'s axis (every neighbour off that axis is a wall). Empty
    /// otherwise.
    tunnel: Vec<u32>,
    /// Nodes expanded so far.
    nodes: u64,
    /// Children and nodes found dead by a kept corral pattern ([`CorralDeadlocks::matches`]):
    /// what the tests read to see that the patterns are used.
    pattern_cuts: u64,
    /// An entry popped when the search paused ([`Search::run`]): the next one to expand.
    held: Option<OpenEntry>,
    /// Scratch space for a child's boxes.
    child: Vec<u16>,
    /// The node whose matching `matcher` keeps ([`ROOT`] for none), and the node being
    /// expanded: a node whose parent's matching is kept is matched by one augmenting path
    /// from it ([`Matcher::advance`]), which a search that dives from parent to child meets
    /// at most expansions.
    matched_node: u32,
    expanding: u32,
    /// Scratch space for the kept matching's boxes.
    before: Vec<u16>,
    /// The two smallest cells of the region of the node being expanded ([`NONE`] if fewer),
    /// and its articulation points (cells marked with the region's stamp), found when a child
    /// first needs them: a push into the region that does not cut it leaves the rest of it to
    /// the child, so the child's player needs no flood of its own ([`Search::child_player`]).
    least: [u16; 2],
    cut: Vec<u32>,
    cuts_known: bool,
    /// Depth-first numbering of [`Search::floor_dfs`]: numbers go on from `clock` across
    /// expansions, so `disc[c]` above the value `clock` had when the numbering began marks
    /// `c` visited in the current one (no clearing per expansion); `low` holds the low links.
    disc: Vec<u32>,
    low: Vec<u32>,
    clock: u32,
    dfs: Vec<(u16, u8, u16)>,
    /// Per cell, from [`Search::floor_dfs`]: the last number of its subtree, its depth-first
    /// parent ([`NONE`] for an area's first cell), its area's first cell, and how many of its
    /// subtrees have no way around it; and the number of areas.
    fin: Vec<u32>,
    dfs_parent: Vec<u16>,
    area_id: Vec<u16>,
    splits: Vec<u32>,
    areas: u32,
    /// The connectivity feature of the next node stored, when the expansion knows it
    /// ([`Search::child_areas`]); else [`Features::cell`] floods the floor.
    next_areas: Option<u32>,
}

/// Per cell, bit `d` set when every neighbour of the cell off direction `d`'s axis is a wall:
/// a box there can only move along that axis, so a box pushed into such a cell is pushed on
/// (a *tunnel macro*).
fn tunnel_cells(graph: &CellGraph) -> Vec<u32> {
    (0..graph.len() as u16)
        .map(|c| {
            (0..graph.dirs)
                .filter(|&d| {
                    let o = usize::from(graph.opposite[d]);
                    (0..graph.dirs).all(|e| e == d || e == o || graph.next(c, e) == NONE)
                })
                .fold(0u32, |bits, d| bits | 1 << d)
        })
        .collect()
}

/// Boxes the packing advisor tries per goal it advises ([`Rooms::advise`]): the nearest few by
/// lone-box distance. Measured 2026-12-08 on XSokoban 1–30 at 300,000 nodes: 2 solve 8 levels,
/// 5 and 20 solve 9 (the same nine), and every failed try costs a push-path search.
const ADVISOR_TRIES: usize = 5;

/// The direction of a node's push that stands for a goal macro's pushes.
const MACRO: u8 = u8::MAX;

/// Searches from `boxes` (compact cells, any order) and `player` (a compact cell).
///
/// Satisficing strategies use the level's goal rooms ([`Rooms`]): goal macros and leaving
/// packed rooms alone. Those may cut away every solution, so when such a search runs out of
/// positions it searches again without them, with the nodes left, and only that search's
/// exhaustion proves the level unsolvable.
pub(crate) fn search(
    graph: &CellGraph,
    boxes: &[u16],
    player: u16,
    strategy: Strategy,
    limits: &Limits<'_>,
) -> Report {
    mixed(graph, boxes, player, &[(strategy, 1)], limits).1
}

/// Expansions a search of [`mixed`] makes per turn and unit of its share: small enough that
/// a level one strategy solves quickly is not held up by the others' long turns, large enough
/// that switching costs nothing measurable.
const TURN: u64 = 1024;

/// Several searches on one thread, taking turns: each strategy of `shares` runs `share ·`
/// [`TURN`] expansions in turn, all of them drawing on one node budget and splitting the
/// memory budget equally. Stops at the first solution, or at the first proof of
/// unsolvability (any one search's exhaustion is a proof: each repeats itself without cuts
/// first, as [`search`] says); a search that runs out of memory drops out and the others go
/// on. Returns the strategy that ended it (the first one when the budget or every search ran
/// out) and the effort of all of them. Deterministic: turns are counted in nodes, not time.
pub(crate) fn mixed(
    graph: &CellGraph,
    boxes: &[u16],
    player: u16,
    shares: &[(Strategy, u64)],
    limits: &Limits<'_>,
) -> (Strategy, Report) {
    let satisficing = shares.iter().any(|(s, _)| !s.optimal());
    let (rooms, tunnel) = if satisficing {
        (Rooms::new(graph), tunnel_cells(graph))
    } else {
        (Rooms::default(), Vec::new())
    };
    let tunnels = tunnel.iter().any(|&bits| bits != 0);
    let memory = limits.memory / shares.len().max(1) as u64;
    let start = Start {
        graph,
        boxes,
        player,
        rooms: &rooms,
        tunnel: &tunnel,
        memory,
        below: limits.below,
    };
    let mut runs: Vec<Run<'_>> = shares
        .iter()
        .map(|&(strategy, _)| {
            let cuts = !strategy.optimal() && (rooms.any() || tunnels);
            Run::new(&start, strategy, cuts)
        })
        .collect();
    let total = |runs: &[Run<'_>]| runs.iter().map(Run::nodes).sum::<u64>();
    let stored = |runs: &[Run<'_>]| runs.iter().map(Run::stored).sum::<u64>();
    loop {
        let mut live = false;
        for (r, &(strategy, share)) in shares.iter().enumerate() {
            let used = total(&runs);
            // A search may end as it stores its root, before any turn.
            if runs[r].ending.is_none() && used < limits.nodes {
                live = true;
                let turn = if shares.len() == 1 {
                    u64::MAX
                } else {
                    share.max(1).saturating_mul(TURN)
                };
                runs[r].step(&start, limits, turn.min(limits.nodes - used));
            }
            let ending = runs[r].ending.clone();
            if let Some(ending @ (Ending::Found(_) | Ending::Exhausted | Ending::Cancelled)) =
                ending
            {
                let report = Report {
                    ending,
                    nodes: total(&runs),
                    stored: stored(&runs),
                };
                return (strategy, report);
            }
        }
        let used = total(&runs);
        if !live || used >= limits.nodes {
            let memory_out = runs.iter().all(|r| r.ending == Some(Ending::Memory));
            let report = Report {
                ending: if memory_out {
                    Ending::Memory
                } else {
                    Ending::NodeBudget
                },
                nodes: used,
                stored: stored(&runs),
            };
            return (shares[0].0, report);
        }
    }
}

/// What every search of one level starts from.
struct Start<'a> {
    graph: &'a CellGraph,
    boxes: &'a [u16],
    player: u16,
    rooms: &'a Rooms,
    tunnel: &'a [u32],
    /// Each search's memory budget.
    memory: u64,
    below: Option<u32>,
}

/// One strategy's search in progress: first with its cuts (goal and tunnel macros) when the
/// level has any, then, if that search runs out of positions, again without them.
struct Run<'a> {
    strategy: Strategy,
    search: Search<'a>,
    /// Whether `search` is the search without cuts that repeats one with them.
    fallback: bool,
    /// Whether `search` uses cuts (so its exhaustion proves nothing).
    cuts: bool,
    /// The nodes of the search with cuts, once it has given way to the fallback.
    earlier: u64,
    earlier_stored: u64,
    ending: Option<Ending>,
}

impl<'a> Run<'a> {
    fn new(start: &Start<'a>, strategy: Strategy, cuts: bool) -> Run<'a> {
        let mut run = Run {
            strategy,
            search: Search::new(start, strategy, cuts),
            fallback: false,
            cuts,
            earlier: 0,
            earlier_stored: 0,
            ending: None,
        };
        run.begin(start);
        run
    }

    /// Stores the root of `search`; an ending found there is handled as [`Run::step`]'s.
    fn begin(&mut self, start: &Start<'a>) {
        if let Some(ending) = self.search.start(start.boxes, start.player, start.below) {
            self.finish(start, ending);
        }
    }

    fn nodes(&self) -> u64 {
        self.earlier + self.search.nodes
    }

    fn stored(&self) -> u64 {
        self.earlier_stored.max(self.search.parent.len() as u64)
    }

    /// Expands at most `quota` more nodes (a fallback that begins on the way gets the rest).
    fn step(&mut self, start: &Start<'a>, limits: &Limits<'_>, quota: u64) {
        let mut left = quota;
        while self.ending.is_none() && left > 0 {
            let before = self.nodes();
            let pause = self.search.nodes.saturating_add(left);
            match self.search.run(limits, pause) {
                Some(ending) => self.finish(start, ending),
                None => break, // paused: the quota is spent
            }
            left = left.saturating_sub(self.nodes() - before);
        }
    }

    /// Records how `search` ended: an exhausted search with cuts gives way to the same
    /// strategy without them.
    fn finish(&mut self, start: &Start<'a>, ending: Ending) {
        if ending == Ending::Exhausted && self.cuts && !self.fallback {
            self.earlier = self.search.nodes;
            self.earlier_stored = self.search.parent.len() as u64;
            self.fallback = true;
            self.search = Search::new(start, self.strategy, false);
            self.begin(start);
            return;
        }
        self.ending = Some(ending);
    }
}

impl<'a> Search<'a> {
    /// An empty search of `strategy`, with the cuts of `start` (goal rooms, tunnel macros)
    /// when `cuts` says so; [`Strategy::Features`] reads the rooms' packing orders either way.
    fn new(start: &Start<'a>, strategy: Strategy, cuts: bool) -> Search<'a> {
        let graph = start.graph;
        let count = start.boxes.len();
        Search {
            graph,
            strategy,
            count,
            boxes: Vec::new(),
            player: Vec::new(),
            parent: Vec::new(),
            push: Vec::new(),
            cost: Vec::new(),
            bound: Vec::new(),
            hash: Vec::new(),
            table: vec![0; 1 << 12],
            open: BinaryHeap::new(),
            cells: BTreeMap::new(),
            cursor: None,
            plan: (strategy == Strategy::Features).then_some(start.rooms),
            features: Features::default(),
            memory: start.memory,
            occupied: vec![false; graph.len()],
            seen: vec![0; graph.len()],
            walk: vec![0; graph.len()],
            generation: 0,
            region: vec![0; graph.len()],
            stamp: 0,
            queue: Vec::with_capacity(graph.len()),
            matcher: Matcher::default(),
            stack: Vec::new(),
            corrals: Corrals::default(),
            deadlocks: CorralDeadlocks::default(),
            rooms: (cuts && start.rooms.any()).then_some(start.rooms),
            paths: PathScratch::default(),
            advisor: (!strategy.optimal()).then_some(start.rooms),
            macros: BTreeMap::new(),
            tunnel: if cuts && start.tunnel.iter().any(|&bits| bits != 0) {
                start.tunnel.to_vec()
            } else {
                Vec::new()
            },
            nodes: 0,
            pattern_cuts: 0,
            held: None,
            child: vec![0; count],
            matched_node: ROOT,
            expanding: ROOT,
            before: Vec::with_capacity(count),
            least: [NONE; 2],
            cut: vec![0; graph.len()],
            cuts_known: false,
            disc: vec![0; graph.len()],
            low: vec![0; graph.len()],
            clock: 0,
            dfs: Vec::new(),
            fin: vec![0; graph.len()],
            dfs_parent: vec![NONE; graph.len()],
            area_id: vec![0; graph.len()],
            splits: vec![0; graph.len()],
            areas: 0,
            next_areas: None,
        }
    }

    /// Stores the root, `boxes` (any order) with the player on `player`; or the ending when
    /// the root already decides the search.
    fn start(&mut self, boxes: &[u16], player: u16, below: Option<u32>) -> Option<Ending> {
        let graph = self.graph;
        let mut start: Vec<u16> = boxes.to_vec();
        start.sort_unstable();
        if start.iter().all(|&b| graph.goal[usize::from(b)]) {
            return Some(Ending::Found(Vec::new()));
        }
        if start.iter().any(|&b| graph.dead[usize::from(b)]) {
            return Some(Ending::Exhausted);
        }
        let Some(h) = self.matcher.bound(graph, &start) else {
            return Some(Ending::Exhausted);
        };
        if below.is_some_and(|b| h >= b) {
            return Some(Ending::Exhausted);
        }
        // Kept matchings (about a quarter of a kilobyte each on a 20-box level) when the memory
        // budget has room for them eight times over.
        let slots = 1 << 15;
        let stride = (start.len() + 1) + 2 * (graph.goals.len() + 1);
        if (slots * (1 + stride) * 4 * 8) as u64 <= self.memory {
            self.matcher
                .enable_keeping(slots, start.len(), graph.goals.len());
        }
        let root_player = self.normalize(&start, player);
        if !self.insert(&start, root_player, ROOT, Push { from: 0, dir: 0 }, 0, h) {
            return Some(Ending::Memory);
        }
        self.matched_node = 0;
        None
    }

    /// Expands nodes until the search ends (its ending) or `pause` nodes have been expanded
    /// (`None`; the next call goes on exactly where this one stopped).
    fn run(&mut self, limits: &Limits<'_>, pause: u64) -> Option<Ending> {
        let mut child = std::mem::take(&mut self.child);
        let ending = loop {
            let Some(Reverse((key, k2, index))) = self.held.take().or_else(|| self.pop()) else {
                break Some(Ending::Exhausted);
            };
            let i = index as usize;
            if self.key(i).0 != key {
                continue; // a stale entry: the node was reached more cheaply since
            }
            if self.strategy.optimal() && self.solved(i) {
                break Some(Ending::Found(self.pushes(i)));
            }
            if self.nodes >= limits.nodes {
                break Some(Ending::NodeBudget);
            }
            if self.nodes >= pause {
                self.held = Some(Reverse((key, k2, index)));
                break None;
            }
            if self.nodes % 64 == 0 && limits.cancel.iter().any(|c| c.load(Ordering::Relaxed)) {
                break Some(Ending::Cancelled);
            }
            self.nodes += 1;
            match self.expand(i, &mut child, limits.below) {
                Expansion::Done => {}
                Expansion::Solved(j) => break Some(Ending::Found(self.pushes(j))),
                Expansion::OutOfMemory => break Some(Ending::Memory),
            }
        };
        self.child = child;
        ending
    }
}

/// What expanding one node led to.
enum Expansion {
    Done,
    Solved(usize),
    OutOfMemory,
}

impl Search<'_> {
    /// The node's priority: smaller first.
    fn key(&self, i: usize) -> (u32, u32) {
        let (g, h) = (self.cost[i], self.bound[i]);
        match self.strategy {
            Strategy::Greedy | Strategy::Features => (h, g),
            Strategy::Weighted(w) => (g.saturating_add(h.saturating_mul(w)), h),
            Strategy::PushOptimal | Strategy::MoveOptimal => (g.saturating_add(h), h),
        }
    }

    fn boxes_of(&self, i: usize) -> &[u16] {
        &self.boxes[i * self.count..(i + 1) * self.count]
    }

    fn solved(&self, i: usize) -> bool {
        self.boxes_of(i)
            .iter()
            .all(|&b| self.graph.goal[usize::from(b)])
    }

    /// The pushes from the root to node `i`.
    fn pushes(&self, mut i: usize) -> Vec<Push> {
        let mut pushes = Vec::new();
        while self.parent[i] != ROOT {
            match (self.push[i].dir, self.macros.get(&(i as u32))) {
                (MACRO, Some(path)) => pushes.extend(path.iter().rev()),
                _ => pushes.push(self.push[i]),
            }
            i = self.parent[i] as usize;
        }
        pushes.reverse();
        pushes
    }

    /// Marks the cells the player reaches from `from` (boxes in `occupied` block), recording
    /// walking distances in `walk`. Returns the smallest cell reached.
    fn reach(&mut self, from: u16) -> u16 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.generation = 1;
        }
        let mark = self.generation;
        self.queue.clear();
        self.queue.push(from);
        self.seen[usize::from(from)] = mark;
        self.walk[usize::from(from)] = 0;
        let mut smallest = from;
        let mut head = 0;
        while let Some(&c) = self.queue.get(head) {
            head += 1;
            smallest = smallest.min(c);
            for d in 0..self.graph.dirs {
                let n = self.graph.next(c, d);
                if n != NONE && !self.occupied[usize::from(n)] && self.seen[usize::from(n)] != mark
                {
                    self.seen[usize::from(n)] = mark;
                    self.walk[usize::from(n)] = self.walk[usize::from(c)] + 1;
                    self.queue.push(n);
                }
            }
        }
        smallest
    }

    /// The player as stored in a node: exact, or the smallest cell of its region.
    fn normalize(&mut self, boxes: &[u16], player: u16) -> u16 {
        if self.strategy.exact_player() {
            return player;
        }
        for &b in boxes {
            self.occupied[usize::from(b)] = true;
        }
        let smallest = self.reach(player);
        for &b in boxes {
            self.occupied[usize::from(b)] = false;
        }
        smallest
    }

    fn hash_of(&self, boxes: &[u16], player: u16) -> u64 {
        boxes
            .iter()
            .fold(self.graph.player_key[usize::from(player)], |h, &b| {
                h ^ self.graph.box_key[usize::from(b)]
            })
    }

    /// The node holding this position, if stored, and the table slot where it is or would go.
    fn find(&self, boxes: &[u16], player: u16, hash: u64) -> (Option<usize>, usize) {
        let mask = self.table.len() - 1;
        let mut slot = (hash as usize) & mask;
        loop {
            match self.table[slot] {
                0 => return (None, slot),
                entry => {
                    let i = entry as usize - 1;
                    if self.hash[i] == hash && self.player[i] == player && self.boxes_of(i) == boxes
                    {
                        return (Some(i), slot);
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Bytes held by the tables, and what one more node costs.
    fn bytes(&self) -> u64 {
        // Feature cells queue each node once, outside `open`: 12 bytes, charged twice because
        // each cell's heap grows by doubling on its own (no one capacity to read here).
        let queued = if self.plan.is_some() { 24 } else { 0 };
        let per_node = self.count * 2 + 2 + 4 + 4 + 4 + 4 + 8 + queued;
        (self.parent.capacity() * per_node
            + self.table.len() * 4
            + self.open.capacity() * 12
            + self.graph.len() * 8
            + self.matcher.kept_bytes()) as u64
    }

    /// Whether growing a table by `extra` bytes stays within the memory budget.
    fn affordable(&self, extra: usize) -> bool {
        self.bytes().saturating_add(extra as u64) <= self.memory
    }

    /// Stores a new node and queues it; `false` when the memory budget forbids it.
    fn insert(
        &mut self,
        boxes: &[u16],
        player: u16,
        parent: u32,
        push: Push,
        g: u32,
        h: u32,
    ) -> bool {
        let areas = self.next_areas.take();
        let per_node = self.count * 2 + 26 + if self.plan.is_some() { 24 } else { 0 };
        if self.parent.len() == self.parent.capacity() {
            let more = (self.parent.capacity() / 2).max(1024);
            if !self.affordable(more * per_node) {
                return false;
            }
            self.boxes.reserve_exact(more * self.count);
            self.player.reserve_exact(more);
            self.parent.reserve_exact(more);
            self.push.reserve_exact(more);
            self.cost.reserve_exact(more);
            self.bound.reserve_exact(more);
            self.hash.reserve_exact(more);
        }
        if self.open.len() == self.open.capacity() {
            let more = (self.open.capacity() / 2).max(1024);
            if !self.affordable(more * 12) {
                return false;
            }
            self.open.reserve_exact(more);
        }
        if (self.parent.len() + 1) * 2 > self.table.len() {
            if !self.affordable(self.table.len() * 8) {
                return false;
            }
            self.grow_table();
        }
        let hash = self.hash_of(boxes, player);
        let (_, slot) = self.find(boxes, player, hash);
        let i = self.parent.len();
        self.table[slot] = i as u32 + 1;
        self.boxes.extend_from_slice(boxes);
        self.player.push(player);
        self.parent.push(parent);
        self.push.push(push);
        self.cost.push(g);
        self.bound.push(h);
        self.hash.push(hash);
        let (k1, k2) = self.key(i);
        match self.plan {
            Some(plan) => {
                let cell = match areas {
                    Some(areas) => (plan.packed_boxes(self.graph, boxes), areas),
                    None => self.features.cell(self.graph, plan, boxes),
                };
                self.cells
                    .entry(cell)
                    .or_default()
                    .push(Reverse((k1, k2, i as u32)));
            }
            None => self.open.push(Reverse((k1, k2, i as u32))),
        }
        true
    }

    /// The next open node: the best of `open`, or for [`Strategy::Features`] the best of the
    /// feature-space cell after the one expanded last (in the cells' order, round and round),
    /// so every cell that holds open nodes gets one expansion per cycle.
    fn pop(&mut self) -> Option<OpenEntry> {
        if self.plan.is_none() {
            return self.open.pop();
        }
        use std::ops::Bound::{Excluded, Unbounded};
        let after = self.cursor.map_or(Unbounded, Excluded);
        let cell = self
            .cells
            .range((after, Unbounded))
            .next()
            .or_else(|| self.cells.iter().next())
            .map(|(&cell, _)| cell)?;
        self.cursor = Some(cell);
        let heap = self.cells.get_mut(&cell)?;
        let entry = heap.pop();
        if heap.is_empty() {
            self.cells.remove(&cell);
        }
        entry
    }

    fn grow_table(&mut self) {
        let size = self.table.len() * 2;
        let mut table = vec![0u32; size];
        for (i, &hash) in self.hash.iter().enumerate() {
            let mut slot = (hash as usize) & (size - 1);
            while table[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            table[slot] = i as u32 + 1;
        }
        self.table = table;
    }

    /// Generates the children of node `i`.
    fn expand(&mut self, i: usize, child: &mut [u16], below: Option<u32>) -> Expansion {
        let graph = self.graph;
        let current: Vec<u16> = self.boxes_of(i).to_vec();
        self.expanding = i as u32;
        let g = self.cost[i];
        for &b in &current {
            self.occupied[usize::from(b)] = true;
        }
        // A node stored before a dead pattern that holds in it was learned is dead as well
        // (any cell of the player's region stands for the region).
        let sig = signature(&current);
        if current.iter().any(|&b| {
            self.deadlocks
                .matches(&self.occupied, b, self.player[i], sig)
        }) {
            self.pattern_cuts += 1;
            for &b in &current {
                self.occupied[usize::from(b)] = false;
            }
            return Expansion::Done;
        }
        self.reach(self.player[i]);
        // Child normalization reuses the reach buffers: keep this node's region apart.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.region.fill(0);
            self.cut.fill(0);
            self.stamp = 1;
        }
        let mark = self.stamp;
        self.least = [NONE; 2];
        for &c in &self.queue {
            self.region[usize::from(c)] = mark;
            if c < self.least[0] {
                self.least = [c, self.least[0]];
            } else if c < self.least[1] {
                self.least[1] = c;
            }
        }
        self.cuts_known = false;
        // PI-corral pruning (not for move-optimal search: it may reorder walks).
        let fence = if self.strategy.exact_player() {
            None
        } else {
            let mut corrals = std::mem::take(&mut self.corrals);
            let region = &self.region;
            let fence = corrals.fence(graph, &self.occupied, &|c| region[usize::from(c)] == mark);
            // A corral whose boxes alone can't be cleared: the node is dead.
            let dead = fence.as_ref().is_some_and(|corral| {
                self.deadlocks
                    .dead(graph, &corral.boxes, self.player[i], &|c| {
                        corrals.holds(corral, c)
                    })
            });
            self.corrals = corrals;
            if dead {
                for &b in &current {
                    self.occupied[usize::from(b)] = false;
                }
                return Expansion::Done;
            }
            fence.map(|corral| corral.fence)
        };
        // The parent's matching, re-used by every child (one box differs), is made only when
        // the first new child needs a bound: children already stored keep theirs. A stored node
        // always has a perfect matching (its bound is finite), so none is skipped by waiting.
        let mut matched = None;
        if let Some(rooms) = self.rooms {
            let region = &self.region;
            let found = rooms.macro_move(
                graph,
                &current,
                &mut self.occupied,
                &|c| region[usize::from(c)] == mark,
                &mut self.paths,
            );
            if let Some((k, goal, path)) = found {
                let result = self.expand_macro(i, &current, child, k, goal, path, &mut matched);
                for &b in &current {
                    self.occupied[usize::from(b)] = false;
                }
                return result;
            }
        }
        // The packing advisor: one more child, a box brought all the way to the next goal of a
        // room's packing order, or to an empty goal outside the rooms (see [`Rooms::advise`]).
        // Not where a PI-corral restricts the pushes: that corral must be dealt with first.
        if let (Some(rooms), None) = (self.advisor, &fence) {
            let region = &self.region;
            let found = rooms.advise(
                graph,
                &current,
                &mut self.occupied,
                &|c| region[usize::from(c)] == mark,
                &mut self.paths,
                ADVISOR_TRIES,
            );
            if let Some((k, goal, path)) = found {
                // A box frozen off its goal by the advised box makes a dead child.
                self.occupied[usize::from(current[k])] = false;
                self.occupied[usize::from(goal)] = true;
                let frozen = freeze_deadlock(graph, &self.occupied, goal, &mut self.stack);
                self.occupied[usize::from(goal)] = false;
                self.occupied[usize::from(current[k])] = true;
                if !frozen {
                    match self.expand_macro(i, &current, child, k, goal, path, &mut matched) {
                        Expansion::Done => {}
                        other => {
                            for &b in &current {
                                self.occupied[usize::from(b)] = false;
                            }
                            return other;
                        }
                    }
                }
            }
        }
        let mut result = Expansion::Done;
        'boxes: for (k, &b) in current.iter().enumerate() {
            if fence.as_ref().is_some_and(|f| !f.contains(&b)) {
                continue;
            }
            if self.rooms.is_some_and(|r| r.settled(b, &self.occupied)) {
                continue; // a box of a room packed so far stays where the order put it
            }
            for d in 0..graph.dirs {
                let behind = graph.next(b, usize::from(graph.opposite[d]));
                if behind == NONE || self.region[usize::from(behind)] != mark {
                    continue;
                }
                let mut to = graph.next(b, d);
                if to == NONE || self.occupied[usize::from(to)] || graph.dead[usize::from(to)] {
                    continue;
                }
                // Tunnel macro: a box in a one-wide tunnel can only go on or back, so it goes
                // on, to the tunnel's end (or a goal, or whatever stops it) in one move.
                let mut path: Vec<Push> = Vec::new();
                while self
                    .tunnel
                    .get(usize::from(to))
                    .is_some_and(|&bits| bits & 1 << d != 0)
                    && !graph.goal[usize::from(to)]
                {
                    let on = graph.next(to, d);
                    if on == NONE || self.occupied[usize::from(on)] || graph.dead[usize::from(on)] {
                        break;
                    }
                    if path.is_empty() {
                        path.push(Push {
                            from: b,
                            dir: d as u8,
                        });
                    }
                    path.push(Push {
                        from: to,
                        dir: d as u8,
                    });
                    to = on;
                }
                self.occupied[usize::from(b)] = false;
                self.occupied[usize::from(to)] = true;
                // After the push the player stands where the box was before its last push.
                let stands = path.last().map_or(b, |p| p.from);
                // A dead corral kept as a pattern holds here: the child is dead already.
                let mut frozen = freeze_deadlock(graph, &self.occupied, to, &mut self.stack);
                // The parent's boxes and `to`: a superset of the child's, as the filter needs.
                if !frozen
                    && self
                        .deadlocks
                        .matches(&self.occupied, to, stands, sig | bit(to))
                {
                    self.pattern_cuts += 1;
                    frozen = true;
                }
                self.occupied[usize::from(to)] = false;
                self.occupied[usize::from(b)] = true;
                if frozen {
                    continue;
                }
                place(&current, k, to, child);
                let step = if self.strategy.exact_player() {
                    // Exact players skip normalization, so `walk` is still this node's.
                    u32::from(self.walk[usize::from(behind)]) + 1
                } else {
                    path.len().max(1) as u32
                };
                let child_g = g + step;
                // The child's player: normalized over the child's boxes.
                let known = if path.is_empty() {
                    self.child_player(b, to, mark)
                } else {
                    None // a tunnel macro's player walked through cells outside the region
                };
                let player = match known {
                    Some(player) => player,
                    None => {
                        for &c in &current {
                            self.occupied[usize::from(c)] = false;
                        }
                        let player = self.normalize(child, stands);
                        for &c in &current {
                            self.occupied[usize::from(c)] = true;
                        }
                        player
                    }
                };
                let hash = self.hash_of(child, player);
                let push = Push {
                    from: b,
                    dir: if path.is_empty() { d as u8 } else { MACRO },
                };
                // Look the child up before matching it: a position seen before keeps its bound,
                // so most children (transpositions) cost no matching at all.
                match self.find(child, player, hash).0 {
                    Some(j) => {
                        if self.strategy.optimal()
                            && child_g < self.cost[j]
                            && below.is_none_or(|limit| child_g + self.bound[j] < limit)
                        {
                            self.cost[j] = child_g;
                            self.parent[j] = i as u32;
                            self.push[j] = push;
                            let (k1, k2) = self.key(j);
                            self.open.push(Reverse((k1, k2, j as u32)));
                        }
                    }
                    None => {
                        let Some(h) = self.child_bound(&mut matched, &current, k, to) else {
                            continue;
                        };
                        if below.is_some_and(|limit| child_g + h >= limit) {
                            continue;
                        }
                        if self.plan.is_some() && path.is_empty() {
                            if !self.cuts_known {
                                self.floor_dfs(mark);
                                self.cuts_known = true;
                            }
                            self.next_areas = Some(self.child_areas(b, to));
                        }
                        if !self.insert(child, player, i as u32, push, child_g, h) {
                            result = Expansion::OutOfMemory;
                            break 'boxes;
                        }
                        let p = child.binary_search(&to).unwrap_or(k);
                        self.matcher.keep(self.parent.len() as u32 - 1, k, p);
                        if !path.is_empty() {
                            self.macros
                                .insert(self.parent.len() as u32 - 1, std::mem::take(&mut path));
                        }
                        if !self.strategy.optimal() && h == 0 {
                            result = Expansion::Solved(self.parent.len() - 1);
                            break 'boxes;
                        }
                    }
                }
            }
        }
        for &b in &current {
            self.occupied[usize::from(b)] = false;
        }
        result
    }
}

impl Search<'_> {
    /// The bound of `current` with box `k` moved to `to`, matching `current` itself first if
    /// `matched` says it is not yet (`None`); `Some(false)` records that it has no perfect
    /// matching, so no child has one either.
    fn child_bound(
        &mut self,
        matched: &mut Option<bool>,
        current: &[u16],
        k: usize,
        to: u16,
    ) -> Option<u32> {
        let ok = match *matched {
            Some(ok) => ok,
            None => {
                let ok = self.match_current(current);
                *matched = Some(ok);
                ok
            }
        };
        if !ok {
            return None;
        }
        self.matcher.moved(self.graph, current, k, to)
    }

    /// The normalized player of the child where the box on `b` was pushed one cell to `to`
    /// (the player now on `b`), from the region of the node being expanded (stamped `mark`;
    /// `occupied` marks its boxes): unless `to` cuts that region apart, the child's region is
    /// the region without `to`, plus `b`, plus whatever `b` opens up outside it, so only that
    /// last part is flooded. `None` when `to` is an articulation point of the region (flood
    /// the child in full then). The same cell as [`Search::normalize`] gives, cheaper.
    fn child_player(&mut self, b: u16, to: u16, mark: u32) -> Option<u16> {
        if self.strategy.exact_player() {
            return None;
        }
        if self.region[usize::from(to)] == mark {
            if !self.cuts_known {
                self.floor_dfs(mark);
                self.cuts_known = true;
            }
            if self.cut[usize::from(to)] == mark {
                return None;
            }
        }
        let graph = self.graph;
        let mut smallest = if self.least[0] == to {
            self.least[1]
        } else {
            self.least[0]
        };
        // Flood from `b` through cells outside the region (`to` now holds the box).
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.generation = 1;
        }
        let seen = self.generation;
        self.queue.clear();
        self.queue.push(b);
        self.seen[usize::from(b)] = seen;
        while let Some(c) = self.queue.pop() {
            smallest = smallest.min(c);
            for d in 0..graph.dirs {
                let n = graph.next(c, d);
                if n == NONE
                    || n == to
                    || self.occupied[usize::from(n)]
                    || self.region[usize::from(n)] == mark
                    || self.seen[usize::from(n)] == seen
                {
                    continue;
                }
                self.seen[usize::from(n)] = seen;
                self.queue.push(n);
            }
        }
        Some(smallest)
    }

    /// A depth-first search (Tarjan's low links) over the empty floor of the node being
    /// expanded (`occupied` marks its boxes), every area in turn: marks with `mark` in `cut`
    /// the articulation points (cells whose removal splits their area), counts the areas in
    /// `areas`, and leaves the numbering (`disc`, `low`, `fin`, `dfs_parent`, `area_id`,
    /// `splits`) that [`Search::child_areas`] reads.
    fn floor_dfs(&mut self, mark: u32) {
        let graph = self.graph;
        let len = graph.len();
        if self.clock > u32::MAX - 2 * len as u32 - 2 {
            self.disc.fill(0);
            self.clock = 0;
        }
        let base = self.clock;
        let mut t = base;
        let mut areas = 0;
        for root in 0..len as u16 {
            if self.occupied[usize::from(root)] || self.disc[usize::from(root)] > base {
                continue;
            }
            areas += 1;
            t += 1;
            self.disc[usize::from(root)] = t;
            self.low[usize::from(root)] = t;
            self.splits[usize::from(root)] = 0;
            self.dfs_parent[usize::from(root)] = NONE;
            self.area_id[usize::from(root)] = root;
            self.dfs.clear();
            self.dfs.push((root, 0, NONE));
            while let Some(top) = self.dfs.last_mut() {
                let (c, d, from) = *top;
                if usize::from(d) < graph.dirs {
                    top.1 += 1;
                    let n = graph.next(c, usize::from(d));
                    if n == NONE || self.occupied[usize::from(n)] {
                        continue;
                    }
                    if self.disc[usize::from(n)] <= base {
                        t += 1;
                        self.disc[usize::from(n)] = t;
                        self.low[usize::from(n)] = t;
                        self.splits[usize::from(n)] = 0;
                        self.dfs_parent[usize::from(n)] = c;
                        self.area_id[usize::from(n)] = root;
                        self.dfs.push((n, 0, c));
                    } else if n != from {
                        let low = self.low[usize::from(c)].min(self.disc[usize::from(n)]);
                        self.low[usize::from(c)] = low;
                    }
                } else {
                    self.dfs.pop();
                    self.fin[usize::from(c)] = t;
                    if from != NONE {
                        let low = self.low[usize::from(from)].min(self.low[usize::from(c)]);
                        self.low[usize::from(from)] = low;
                        if self.low[usize::from(c)] >= self.disc[usize::from(from)] {
                            self.splits[usize::from(from)] += 1;
                        }
                    }
                }
            }
        }
        // The first cell of an area cuts it when it has two subtrees; any other cell when one
        // of its subtrees has no way around it.
        for c in 0..len {
            if self.occupied[c] {
                continue;
            }
            let root = self.dfs_parent[c] == NONE;
            let cuts = if root {
                self.splits[c] > 1
            } else {
                self.splits[c] > 0
            };
            if cuts {
                self.cut[c] = mark;
            }
        }
        self.areas = areas;
        self.clock = t;
    }

    /// The number of areas of the empty floor after the box on `b` is pushed one cell to
    /// `to`, from [`Search::floor_dfs`]'s numbering of the node being expanded: the area of
    /// `to` falls into as many pieces as `to` has subtrees with no way around it (plus the part
    /// above it unless it is its area's first cell), and `b`, now empty, joins the pieces
    /// around it into one. The same count as a flood of the child's floor.
    fn child_areas(&self, b: u16, to: u16) -> u32 {
        let graph = self.graph;
        let t = usize::from(to);
        let top = self.dfs_parent[t] == NONE;
        let pieces = self.splits[t] + u32::from(!top);
        // Which piece (or other area) a cell beside `b` belongs to: a cell in a subtree of
        // `to` that no way leads around is its own piece, named by that subtree's first cell;
        // everything else keeps its area, named by the area's first cell.
        let piece = |w: u16| -> u16 {
            let dw = self.disc[usize::from(w)];
            for d in 0..graph.dirs {
                let c = graph.next(to, d);
                if c == NONE
                    || self.occupied[usize::from(c)]
                    || self.dfs_parent[usize::from(c)] != to
                {
                    continue;
                }
                let (dc, fc) = (self.disc[usize::from(c)], self.fin[usize::from(c)]);
                if dc <= dw && dw <= fc && self.low[usize::from(c)] >= self.disc[t] {
                    return c;
                }
            }
            self.area_id[usize::from(w)]
        };
        let mut seen = [NONE; 8];
        let mut distinct = 0u32;
        for d in 0..graph.dirs {
            let n = graph.next(b, d);
            if n == NONE || n == to || self.occupied[usize::from(n)] {
                continue;
            }
            let p = piece(n);
            if !seen[..distinct as usize].contains(&p) {
                seen[distinct as usize] = p;
                distinct += 1;
            }
        }
        self.areas + pieces - distinct
    }

    /// Matches `current`, the boxes of the node being expanded: from its parent's matching
    /// when the matcher keeps that one, else in full.
    fn match_current(&mut self, current: &[u16]) -> bool {
        let i = self.expanding;
        let parent = self.parent[i as usize];
        let found = if let Some(found) = self.matcher.restore(self.graph, i, current) {
            found
        } else if parent != ROOT && parent == self.matched_node {
            let mut before = std::mem::take(&mut self.before);
            before.clear();
            before.extend_from_slice(self.boxes_of(parent as usize));
            let found = self.matcher.advance(self.graph, &before, current);
            self.before = before;
            found
        } else {
            self.matcher.bound(self.graph, current)
        };
        self.matched_node = i;
        found.is_some()
    }

    /// Generates the one child of node `i` that a goal macro leads to: box `k` of `current`
    /// pushed along `path` to `goal`. `occupied` marks `current` and is left so; `matched` is
    /// [`Search::child_bound`]'s.
    #[allow(clippy::too_many_arguments)]
    fn expand_macro(
        &mut self,
        i: usize,
        current: &[u16],
        child: &mut [u16],
        k: usize,
        goal: u16,
        path: Vec<Push>,
        matched: &mut Option<bool>,
    ) -> Expansion {
        let Some(h) = self.child_bound(matched, current, k, goal) else {
            return Expansion::Done;
        };
        place(current, k, goal, child);
        // The player ends where the box stood before the last push.
        let last = path.last().map_or(current[k], |p| p.from);
        for &c in current {
            self.occupied[usize::from(c)] = false;
        }
        let player = self.normalize(child, last);
        for &c in current {
            self.occupied[usize::from(c)] = true;
        }
        let hash = self.hash_of(child, player);
        if self.find(child, player, hash).0.is_some() {
            return Expansion::Done;
        }
        let g = self.cost[i] + path.len() as u32;
        let push = Push {
            from: current[k],
            dir: MACRO,
        };
        if !self.insert(child, player, i as u32, push, g, h) {
            return Expansion::OutOfMemory;
        }
        let j = self.parent.len() - 1;
        let p = child.binary_search(&goal).unwrap_or(k);
        self.matcher.keep(j as u32, k, p);
        self.macros.insert(j as u32, path);
        if h == 0 {
            Expansion::Solved(j)
        } else {
            Expansion::Done
        }
    }
}

/// Writes `boxes` with box `k` moved to `to` into `child`, kept sorted.
fn place(boxes: &[u16], k: usize, to: u16, child: &mut [u16]) {
    child.copy_from_slice(boxes);
    child[k] = to;
    let mut j = k;
    while j > 0 && child[j - 1] > child[j] {
        child.swap(j - 1, j);
        j -= 1;
    }
    while j + 1 < child.len() && child[j + 1] < child[j] {
        child.swap(j, j + 1);
        j += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `take` levels of Microban I from the shared data folder.
    fn microban(take: usize) -> Vec<crate::level::Level> {
        let levels = crate::solver::test_data::microban().levels;
        levels.into_iter().take(take).flatten().collect()
    }

    /// Dead corrals found while searching are kept as patterns and cut children and nodes
    /// later in the same search (2026-12-07): fails if the search stops learning them or
    /// stops looking them up.
    #[test]
    fn dead_corral_patterns_cut_later_positions() {
        let mut cuts = 0;
        for level in microban(60) {
            let graph = CellGraph::square(&level, level.player());
            let boxes: Vec<u16> = graph.boxes_of(&level);
            let player = graph.compact[level.player().index()];
            let (rooms, tunnel) = (Rooms::new(&graph), tunnel_cells(&graph));
            let start = Start {
                graph: &graph,
                boxes: &boxes,
                player,
                rooms: &rooms,
                tunnel: &tunnel,
                memory: 64 << 20,
                below: None,
            };
            let mut search = Search::new(&start, Strategy::Features, false);
            if search.start(&boxes, player, None).is_some() {
                continue;
            }
            let limits = Limits {
                nodes: 2_000,
                memory: 64 << 20,
                cancel: &[],
                below: None,
            };
            search.run(&limits, u64::MAX);
            cuts += search.pattern_cuts;
        }
        assert!(cuts > 0, "no position was cut by a dead corral pattern");
    }
}
