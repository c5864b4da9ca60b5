//! Bots: seats played by code, through the same resolver as people.
//!
//! A bot sees what its seat may see and chooses among the resolver's legal candidates, so it
//! can never play an illegal move. Its randomness comes from its own generator, seeded from
//! (match seed, `bot:<seat>`), outside the match state: its choices reach the state only as
//! recorded commands, and a replay needs no bot to reproduce them. Bots are bounded by depth or
//! node count, never by time, so the same position always gets the same answer.

use turnstile_core::determinism::{stream::bot_stream, Pcg32, StreamError};
use turnstile_core::{Game, LegalActionResolver, Seat, Tick};

/// A player made of code.
pub trait Bot<G: Game>: Send {
    /// The bot's name as written in seat specs (`random`, `strong`).
    fn name(&self) -> &'static str;
    /// Chooses an action for `seat`, or `None` when it has no legal action.
    fn choose(
        &mut self,
        resolver: &LegalActionResolver<'_, G>,
        state: &G::State,
        seat: Seat,
        tick: Tick,
    ) -> Option<G::Action>;
}

/// The generator a bot at `seat` draws from, derived from the match seed and `bot:<seat>`.
pub fn bot_generator(match_seed: &str, seat: Seat) -> Result<Pcg32, StreamError> {
    bot_stream(match_seed, u32::from(seat.0))
}

/// Plays a uniformly random legal candidate.
pub struct RandomBot {
    rng: Pcg32,
}

impl RandomBot {
    /// A random bot for `seat` of a match with this seed.
    pub fn new(match_seed: &str, seat: Seat) -> Result<Self, StreamError> {
        Ok(RandomBot {
            rng: bot_generator(match_seed, seat)?,
        })
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(
        &mut self,
        resolver: &LegalActionResolver<'_, G>,
        state: &G::State,
        seat: Seat,
        tick: Tick,
    ) -> Option<G::Action> {
        let mut candidates = resolver.candidates(state, seat, tick).ok()?;
        let n = u32::try_from(candidates.len()).ok().filter(|n| *n > 0)?;
        let pick = self.rng.below(n).ok()?;
        Some(candidates.swap_remove(pick as usize))
    }
}
