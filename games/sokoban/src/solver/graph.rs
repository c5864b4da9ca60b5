//! The solver's view of a level: its walkable cells as a graph with a per-board direction list.
//!
//! The search never looks at grid coordinates. It works on *compact* cells (the cells of the
//! player's region, numbered `0..len`) and a neighbour table indexed by `(cell, direction)`, so a
//! board with another topology (six directions on a hexagonal board) only needs another
//! constructor here. Everything derived once per level lives here too: goals, dead squares, push
//! distances to every goal, and the Zobrist keys of the transposition table.

use crate::grid::{Cell, Direction, Tile};
use crate::level::Level;

/// "No neighbour": a wall, or beyond the region.
pub(crate) const NONE: u16 = u16::MAX;
/// An unreachable distance.
pub(crate) const FAR: u16 = u16::MAX;

/// One level as the solver sees it. See the [module documentation](self).
#[derive(Clone, Debug)]
pub(crate) struct CellGraph {
    /// Directions per cell (4 on a square board).
    pub dirs: usize,
    /// The lower-case solution letter of each direction.
    pub letters: Vec<u8>,
    /// The opposite of each direction.
    pub opposite: Vec<u8>,
    /// Pairs of opposite directions (one entry per axis), for freeze checks.
    pub axes: Vec<(u8, u8)>,
    /// `neighbour[cell * dirs + d]`: the compact neighbour, or [`NONE`].
    pub neighbour: Vec<u16>,
    /// Compact cell → level cell.
    pub level_cell: Vec<Cell>,
    /// Level cell index → compact cell, or [`NONE`].
    pub compact: Vec<u16>,
    /// Per compact cell: a goal.
    pub goal: Vec<bool>,
    /// The goals, as compact cells.
    pub goals: Vec<u16>,
    /// Per compact cell: a box here can never reach any goal.
    pub dead: Vec<bool>,
    /// `distance[goal_index][cell]`: pushes to bring a lone box from `cell` to that goal
    /// (other boxes ignored, the player's side respected), or [`FAR`].
    pub distance: Vec<Vec<u16>>,
    /// Zobrist keys of a box on each cell.
    pub box_key: Vec<u64>,
    /// Zobrist keys of the (normalized or exact) player on each cell.
    pub player_key: Vec<u64>,
}

/// For the solver's unit tests: a level's boxes as compact cells, in the level's order.
#[cfg(test)]
impl CellGraph {
    pub(crate) fn boxes_of(&self, level: &Level) -> Vec<u16> {
        level
            .boxes()
            .iter()
            .map(|b| self.compact[b.index()])
            .collect()
    }
}

impl CellGraph {
    /// The graph of a level: the cells of the player's region (reached from `player` through
    /// walkable tiles, boxes ignored) and the board's directions in its topology's order (up,
    /// right, down, left on a square board; Hexoban's six on a hex board), so the search is
    /// the same code for both.
    pub(crate) fn square(level: &Level, player: Cell) -> CellGraph {
        let width = i32::from(level.width());
        let height = i32::from(level.height());
        let tiles = level.tiles();
        let topology = level.topology();
        let directions = topology.directions();
        let step = |i: usize, d: Direction| -> Option<usize> {
            let (dx, dy) = topology.delta(d);
            // Cell indices are below MAX_SIDE², far inside i32.
            let (x, y) = (i as i32 % width + dx, i as i32 / width + dy);
            ((0..width).contains(&x) && (0..height).contains(&y)).then(|| (y * width + x) as usize)
        };
        let letters = directions.iter().map(|d| d.lurd_byte(false)).collect();
        let opposite = directions
            .iter()
            .map(|d| {
                let back = d.opposite();
                // Every topology's direction list holds each direction's opposite.
                directions.iter().position(|&e| e == back).unwrap_or(0) as u8
            })
            .collect();
        CellGraph::build(
            tiles,
            player.index(),
            directions.len(),
            letters,
            opposite,
            &|i| directions.iter().map(|&d| step(i, d)).collect(),
        )
    }

    /// Builds the graph from a grid and a neighbour function returning, per direction, the
    /// neighbouring grid index if it is on the grid.
    fn build(
        tiles: &[Tile],
        player: usize,
        dirs: usize,
        letters: Vec<u8>,
        opposite: Vec<u8>,
        neighbours: &dyn Fn(usize) -> Vec<Option<usize>>,
    ) -> CellGraph {
        // The region, in breadth-first order from the player (a deterministic numbering).
        let mut compact = vec![NONE; tiles.len()];
        let mut level_cell = Vec::new();
        if tiles.get(player).is_some_and(|t| t.is_walkable()) {
            compact[player] = 0;
            level_cell.push(Cell::from_index(player));
        }
        let mut head = 0;
        while let Some(&cell) = level_cell.get(head) {
            head += 1;
            for j in neighbours(cell.index()).into_iter().flatten() {
                if compact[j] == NONE && tiles[j].is_walkable() {
                    compact[j] = level_cell.len() as u16;
                    level_cell.push(Cell::from_index(j));
                }
            }
        }
        let len = level_cell.len();
        let mut neighbour = vec![NONE; len * dirs];
        for (c, cell) in level_cell.iter().enumerate() {
            for (d, j) in neighbours(cell.index()).into_iter().enumerate() {
                if let Some(j) = j {
                    neighbour[c * dirs + d] = compact[j];
                }
            }
        }
        let goal: Vec<bool> = level_cell
            .iter()
            .map(|c| tiles[c.index()] == Tile::Goal)
            .collect();
        let goals: Vec<u16> = (0..len as u16).filter(|&c| goal[usize::from(c)]).collect();
        let mut axes = Vec::new();
        for d in 0..dirs as u8 {
            let o = opposite[usize::from(d)];
            if d < o {
                axes.push((d, o));
            }
        }
        let mut graph = CellGraph {
            dirs,
            letters,
            opposite,
            axes,
            neighbour,
            level_cell,
            compact,
            goal,
            goals,
            dead: Vec::new(),
            distance: Vec::new(),
            box_key: Vec::new(),
            player_key: Vec::new(),
        };
        graph.distance = graph
            .goals
            .iter()
            .map(|&g| graph.pull_distances(g))
            .collect();
        graph.dead = (0..len)
            .map(|c| graph.distance.iter().all(|d| d[c] == FAR))
            .collect();
        let mut seed = 0x5eed_50c0_ba11_u64;
        graph.box_key = (0..len).map(|_| splitmix64(&mut seed)).collect();
        graph.player_key = (0..len).map(|_| splitmix64(&mut seed)).collect();
        graph
    }

    /// Number of compact cells.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.level_cell.len()
    }

    /// The neighbour of `cell` in direction `d`, or [`NONE`].
    #[inline]
    pub(crate) fn next(&self, cell: u16, d: usize) -> u16 {
        self.neighbour[usize::from(cell) * self.dirs + d]
    }

    /// Pushes needed to bring a lone box from every cell to `goal`, found backwards by pulls: a
    /// box on `q` can have come from `p = q - d` when the player's cell `p - d` exists too.
    fn pull_distances(&self, goal: u16) -> Vec<u16> {
        let mut distance = vec![FAR; self.len()];
        distance[usize::from(goal)] = 0;
        let mut queue = vec![goal];
        let mut head = 0;
        while let Some(&q) = queue.get(head) {
            head += 1;
            for d in 0..self.dirs {
                let back = usize::from(self.opposite[d]);
                let p = self.next(q, back);
                if p == NONE || distance[usize::from(p)] != FAR {
                    continue;
                }
                if self.next(p, back) != NONE {
                    distance[usize::from(p)] = distance[usize::from(q)] + 1;
                    queue.push(p);
                }
            }
        }
        distance
    }
}

/// SplitMix64: a fixed, portable generator for the Zobrist keys (the same keys on every run).
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
