//! Game-tree search for the strong bots: negamax with alpha-beta pruning, a transposition table
//! and iterative deepening, bounded by depth and by node count — never by time, so the same
//! position always gets the same answer on any machine.
//!
//! A game plugs in through [`Position`], a small copyable position whose moves are integer codes
//! (a column, a cell index). Scores are integers from the point of view of the side to move: a
//! win `p` plies from the root scores `WIN - p` (sooner is better), a loss `-(WIN - p)`, a draw
//! 0, and a position at the depth limit what [`Position::evaluate`] says.
//!
//! [`Searcher::search`] returns **every** root move that reaches the best score, so the caller
//! can break ties with its own generator: each root move is searched with the window
//! `(best − 1, +∞)`, in which a move as good as the best so far gets its exact score.

/// The most moves a position may have.
pub const MAX_MOVES: usize = 16;

/// The score of a win at the root; a win `p` plies away scores `WIN - p`.
pub const WIN: i32 = 1_000_000;

/// Deeper than any search here goes; scores beyond `WIN - MAX_PLY` are wins, not evaluations.
pub const MAX_PLY: i32 = 1_000;

const INFINITY: i32 = WIN + 1;
const NO_MOVE: u8 = u8::MAX;

/// A short list of move codes, without allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moves {
    codes: [u8; MAX_MOVES],
    len: u8,
}

impl Default for Moves {
    fn default() -> Self {
        Moves {
            codes: [NO_MOVE; MAX_MOVES],
            len: 0,
        }
    }
}

impl Moves {
    /// An empty list.
    pub fn new() -> Moves {
        Moves::default()
    }

    /// Appends a move; a move beyond [`MAX_MOVES`] is a defect of the game, dropped.
    pub fn push(&mut self, code: u8) {
        debug_assert!(
            usize::from(self.len) < MAX_MOVES,
            "more than {MAX_MOVES} moves"
        );
        if let Some(slot) = self.codes.get_mut(usize::from(self.len)) {
            *slot = code;
            self.len += 1;
        }
    }

    /// The moves, in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.codes[..usize::from(self.len)]
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A position as the search sees it. The side to move is implicit in the position.
pub trait Position: Copy {
    /// The legal moves, most promising first (the order alpha-beta prunes best with).
    fn moves(&self) -> Moves;
    /// The position after the side to move plays `code`.
    fn play(&self, code: u8) -> Self;
    /// Whether playing `code` wins at once for the side to move.
    fn wins(&self, code: u8) -> bool;
    /// A key that tells positions apart (collisions only cost strength, never legality).
    fn key(&self) -> u64;
    /// A heuristic score for the side to move at the depth limit, with magnitude below
    /// `WIN - MAX_PLY`.
    fn evaluate(&self) -> i32;
}

/// How far a search may go. The first iteration (depth 1) always completes; a deeper iteration
/// that runs out of nodes is discarded and the last complete one answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: u8,
    /// The most positions visited in one search.
    pub nodes: u64,
    /// The transposition table holds `2^table_bits` entries.
    pub table_bits: u8,
}

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchReport {
    /// The best score, for the side to move at the root.
    pub score: i32,
    /// Every root move reaching it, in search order.
    pub best: Moves,
    /// The depth of the iteration that answered.
    pub depth: u8,
    /// Positions visited, over all iterations.
    pub nodes: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true score is at least the stored one.
    Lower,
    /// The true score is at most the stored one.
    Upper,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u64,
    score: i32,
    /// 0 marks an empty slot: entries are stored only at depth 1 and deeper.
    depth: u8,
    bound: Bound,
    best: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: 0,
    bound: Bound::Exact,
    best: NO_MOVE,
};

/// A reusable searcher: the table is allocated once and cleared at the start of every search.
#[derive(Debug, Clone)]
pub struct Searcher {
    table: Vec<Entry>,
    shift: u32,
    nodes: u64,
    budget: u64,
    aborted: bool,
}

impl Searcher {
    /// A searcher with a table of `2^table_bits` entries (clamped to 4..=24 bits).
    pub fn new(table_bits: u8) -> Searcher {
        let bits = u32::from(table_bits.clamp(4, 24));
        Searcher {
            table: vec![EMPTY; 1 << bits],
            shift: 64 - bits,
            nodes: 0,
            budget: 0,
            aborted: false,
        }
    }

    /// Searches `root`, considering only the root moves in `candidates` (the legal ones the
    /// resolver listed). `None` when none of them is a move of `root`.
    pub fn search<P: Position>(
        &mut self,
        root: &P,
        candidates: &[u8],
        limits: Limits,
    ) -> Option<SearchReport> {
        let mut order = Moves::new();
        for code in root.moves().as_slice() {
            if candidates.contains(code) {
                order.push(*code);
            }
        }
        if order.is_empty() {
            return None;
        }
        self.table.fill(EMPTY);
        self.nodes = 0;
        let mut report = None;
        for depth in 1..=limits.depth.max(1) {
            self.budget = if depth == 1 { u64::MAX } else { limits.nodes };
            self.aborted = false;
            let (score, best) = self.root(root, &order, depth);
            if self.aborted {
                break;
            }
            report = Some(SearchReport {
                score,
                best,
                depth,
                nodes: self.nodes,
            });
            if score.abs() > WIN - MAX_PLY {
                break; // a forced result: deeper iterations find the same
            }
        }
        report
    }

    fn root<P: Position>(&mut self, root: &P, order: &Moves, depth: u8) -> (i32, Moves) {
        let mut best = -INFINITY;
        let mut tied = Moves::new();
        for &code in order.as_slice() {
            let score = if root.wins(code) {
                WIN - 1
            } else {
                // The window (best − 1, +∞): a move as good as the best gets its exact score.
                -self.negamax(&root.play(code), depth - 1, -INFINITY, 1 - best, 1)
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                tied = Moves::new();
                tied.push(code);
            } else if score == best {
                tied.push(code);
            }
        }
        (best, tied)
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn negamax<P: Position>(
        &mut self,
        position: &P,
        depth: u8,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return 0;
        }
        let moves = position.moves();
        if moves.is_empty() {
            return 0;
        }
        if moves.as_slice().iter().any(|&code| position.wins(code)) {
            return WIN - (ply + 1);
        }
        if depth == 0 {
            return position.evaluate();
        }
        let key = position.key();
        let slot = self.slot(key);
        let mut first = NO_MOVE;
        let entry = self.table[slot];
        if entry.depth > 0 && entry.key == key {
            first = entry.best;
            if entry.depth >= depth {
                let score = from_table(entry.score, ply);
                let cutoff = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cutoff {
                    return score;
                }
            }
        }
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        let tried_first = moves.as_slice().contains(&first).then_some(first);
        let rest = moves.as_slice().iter().copied().filter(|&c| c != first);
        for code in tried_first.into_iter().chain(rest) {
            let score = -self.negamax(&position.play(code), depth - 1, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = code;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha_before {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            key,
            score: to_table(best, ply),
            depth,
            bound,
            best: best_move,
        };
        best
    }
}

/// Win scores are stored as distances from the node, so a table hit at another ply reads the
/// same win correctly.
fn to_table(score: i32, ply: i32) -> i32 {
    if score > WIN - MAX_PLY {
        score + ply
    } else if score < -(WIN - MAX_PLY) {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if score > WIN - MAX_PLY {
        score - ply
    } else if score < -(WIN - MAX_PLY) {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim with one heap: take 1 or 2; whoever takes the last object wins.
    #[derive(Clone, Copy)]
    struct Nim(u8);

    impl Position for Nim {
        fn moves(&self) -> Moves {
            let mut moves = Moves::new();
            for take in 1..=2u8.min(self.0) {
                moves.push(take);
            }
            moves
        }
        fn play(&self, code: u8) -> Nim {
            Nim(self.0 - code)
        }
        fn wins(&self, code: u8) -> bool {
            code == self.0
        }
        fn key(&self) -> u64 {
            u64::from(self.0)
        }
        fn evaluate(&self) -> i32 {
            0
        }
    }

    const DEEP: Limits = Limits {
        depth: 40,
        nodes: 1 << 20,
        table_bits: 10,
    };

    #[test]
    fn finds_the_winning_move_and_the_fastest_win() {
        let mut searcher = Searcher::new(10);
        // 4 objects: take 1, leaving a multiple of 3; the win comes at ply 3.
        let report = searcher.search(&Nim(4), &[1, 2], DEEP).unwrap();
        assert_eq!(report.best.as_slice(), &[1]);
        assert_eq!(report.score, WIN - 3);
        // 2 objects: take both at once (ply 1) rather than later.
        let report = searcher.search(&Nim(2), &[1, 2], DEEP).unwrap();
        assert_eq!(
            (report.best.as_slice(), report.score),
            (&[2u8][..], WIN - 1)
        );
    }

    #[test]
    fn reports_every_equally_good_move_and_respects_candidates() {
        let mut searcher = Searcher::new(10);
        // 6 objects: every move loses against perfect play, so both moves tie.
        let report = searcher.search(&Nim(6), &[1, 2], DEEP).unwrap();
        assert_eq!(report.best.as_slice(), &[1, 2]);
        assert!(report.score < -(WIN - MAX_PLY));
        let report = searcher.search(&Nim(4), &[2], DEEP).unwrap();
        assert_eq!(report.best.as_slice(), &[2]);
        assert_eq!(searcher.search(&Nim(4), &[7], DEEP), None);
    }

    #[test]
    fn a_node_budget_keeps_the_last_complete_iteration() {
        let mut searcher = Searcher::new(10);
        let tight = Limits { nodes: 3, ..DEEP };
        let report = searcher.search(&Nim(30), &[1, 2], tight).unwrap();
        assert_eq!(report.depth, 1);
        let again = searcher.search(&Nim(30), &[1, 2], tight).unwrap();
        assert_eq!(report, again, "the same position gets the same answer");
    }
}
