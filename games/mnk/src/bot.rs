//! The strong bot of every m,n,k-game: it asks the resolver for the legal moves, searches them
//! with [`Searcher`] on the variant's own compact position, and breaks ties between equally good
//! moves with its own generator, seeded from (match seed, `bot:<seat>`).
//!
//! This is the bot's policy; the runtime's `Bot` adapter that seats it in matches lives with the
//! other sample bots in `turnstile-samples`, so this crate knows no runtime.

use std::marker::PhantomData;

use turnstile_core::determinism::stream::bot_stream;
use turnstile_core::determinism::{Pcg32, StreamError};
use turnstile_core::{LegalActionResolver, Seat, Tick};
use turnstile_kit::{Action, KitState};

use crate::board::Board;
use crate::search::{Limits, Position, SearchReport, Searcher};
use crate::{Mnk, MnkGame, Variant};

/// A variant a strong bot can play: how to see its board as a search [`Position`], and how far
/// to search by default.
pub trait Searchable: Variant {
    /// The compact position the search runs on.
    type Position: Position;
    /// The default search limits of [`StrongBot`].
    const LIMITS: Limits;
    /// The position on `board` with `to_move` to play.
    fn position(board: &Board, to_move: Seat) -> Self::Position;
    /// The search's code of a move; `None` for a move the position can't express.
    fn move_code(mv: &Self::Move) -> Option<u8>;
}

/// Alpha-beta with a transposition table, bounded by depth and nodes, ties drawn at random.
pub struct StrongBot<V> {
    rng: Pcg32,
    limits: Limits,
    searcher: Searcher,
    last: Option<SearchReport>,
    variant: PhantomData<fn() -> V>,
}

impl<V: Searchable> StrongBot<V> {
    /// A strong bot for `seat` of the match with this seed, with the variant's default limits.
    pub fn new(match_seed: &str, seat: Seat) -> Result<Self, StreamError> {
        Ok(StrongBot {
            rng: bot_stream(match_seed, u32::from(seat.0))?,
            limits: V::LIMITS,
            searcher: Searcher::new(V::LIMITS.table_bits),
            last: None,
            variant: PhantomData,
        })
    }

    /// The same bot, searching within `limits`.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        if limits.table_bits != self.limits.table_bits {
            self.searcher = Searcher::new(limits.table_bits);
        }
        self.limits = limits;
        self
    }

    /// What the last search found (score, tied moves, depth, nodes).
    pub fn last_report(&self) -> Option<&SearchReport> {
        self.last.as_ref()
    }
}

impl<V: Searchable> StrongBot<V> {
    /// The best move for `seat` among the resolver's candidates at `tick`, ties drawn from the
    /// bot's generator; `None` when the seat has no move.
    pub fn choose(
        &mut self,
        resolver: &LegalActionResolver<'_, MnkGame<V>>,
        state: &KitState<Mnk<V>>,
        seat: Seat,
        tick: Tick,
    ) -> Option<Action<Mnk<V>>> {
        let coded: Vec<(u8, Action<Mnk<V>>)> = resolver
            .candidates(state, seat, tick)
            .ok()?
            .into_iter()
            .filter_map(|action| match &action {
                Action::Play(mv) => V::move_code(mv).map(|code| (code, action)),
                _ => None,
            })
            .collect();
        let codes: Vec<u8> = coded.iter().map(|(code, _)| *code).collect();
        let root = V::position(state.board(), seat);
        let report = self.searcher.search(&root, &codes, self.limits)?;
        let tied = report.best.as_slice();
        let pick = tied[self.rng.below(u32::try_from(tied.len()).ok()?).ok()? as usize];
        self.last = Some(report);
        coded
            .into_iter()
            .find(|(code, _)| *code == pick)
            .map(|(_, action)| action)
    }
}
