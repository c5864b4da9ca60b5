//! The one legality boundary.
//!
//! Every question of the form "may this seat do this now?" — listing the legal actions,
//! previewing one, applying one, a bot choosing one, the HTTP API — goes through
//! [`LegalActionResolver`]. It adds the checks every game shares (does the seat exist, is a
//! system action coming from the system) in front of the game's own rules, so that enumeration
//! and application can never disagree.

use crate::game::{ActionKind, CommandContext, Game};
use crate::ids::{Seat, Viewer};
use crate::rejection::CommandRefusal;
use turnstile_determinism::{CanonicalError, Fingerprint};

/// Legality for one game over one pinned content revision and seat count.
pub struct LegalActionResolver<'a, G: Game> {
    content: &'a G::Content,
    seats: u16,
}

/// What a preview shows: the state after the action, as the asking viewer may see it without
/// learning the future ([`Game::preview_view`], [`Game::preview_event`]).
#[derive(Debug, Clone)]
pub struct Preview<G: Game> {
    /// The view after the action.
    pub view: G::View,
    /// Its fingerprint.
    pub view_fingerprint: Fingerprint,
    /// The full state fingerprint after the action: committing the same action at the same
    /// sequence and tick yields exactly this. In format 2 a hidden-information game's state
    /// fingerprint is a salted commitment, so nothing hidden can be tested against it.
    pub state_fingerprint: Fingerprint,
    /// The events, as the viewer may see them.
    pub events: Vec<G::Event>,
}

impl<'a, G: Game> LegalActionResolver<'a, G> {
    /// A resolver over pinned content for a match with `seats` seats.
    pub fn new(content: &'a G::Content, seats: u16) -> Self {
        LegalActionResolver { content, seats }
    }

    /// The content it judges against.
    pub fn content(&self) -> &'a G::Content {
        self.content
    }

    fn check_seat(&self, seat: Seat) -> Result<(), CommandRefusal> {
        if seat.0 < self.seats {
            Ok(())
        } else {
            Err(CommandRefusal::UnknownSeat {
                seat,
                seats: self.seats,
            })
        }
    }

    /// The action kinds `seat` may take now.
    pub fn legal_actions(
        &self,
        state: &G::State,
        seat: Seat,
    ) -> Result<Vec<ActionKind>, CommandRefusal> {
        self.check_seat(seat)?;
        Ok(G::legal_actions(self.content, state, seat))
    }

    /// Concrete legal actions `seat` could submit now at `tick`: the game's candidates, each
    /// judged by [`LegalActionResolver::check`], so a bot can only ever choose a legal one.
    pub fn candidates(
        &self,
        state: &G::State,
        seat: Seat,
        tick: crate::Tick,
    ) -> Result<Vec<G::Action>, CommandRefusal> {
        self.check_seat(seat)?;
        let ctx = CommandContext {
            seat: Some(seat),
            tick,
        };
        Ok(G::enumerate_actions(self.content, state, seat)
            .into_iter()
            .filter(|action| self.check(state, ctx, action).is_ok())
            .collect())
    }

    /// Judges an action, changing nothing.
    pub fn check(
        &self,
        state: &G::State,
        ctx: CommandContext,
        action: &G::Action,
    ) -> Result<G::Plan, CommandRefusal> {
        self.check_sender(ctx, action)?;
        G::check(self.content, state, ctx, action).map_err(CommandRefusal::Rule)
    }

    /// The checks every game shares: a seat's command names a seat of the match and is not a
    /// system action; a system action comes from no seat.
    fn check_sender(&self, ctx: CommandContext, action: &G::Action) -> Result<(), CommandRefusal> {
        match (ctx.seat, G::is_system_action(action)) {
            (Some(seat), false) => self.check_seat(seat),
            (None, true) => Ok(()),
            (Some(_), true) => Err(CommandRefusal::SystemOnly),
            (None, false) => Err(CommandRefusal::SeatRequired),
        }
    }

    /// Judges and, when legal, applies an action, returning its events; on refusal `state` is
    /// untouched.
    pub fn apply(
        &self,
        state: &mut G::State,
        ctx: CommandContext,
        action: &G::Action,
    ) -> Result<Vec<G::Event>, CommandRefusal> {
        let mut events = Vec::new();
        self.apply_into(state, ctx, action, &mut events)?;
        Ok(events)
    }

    /// [`apply`](Self::apply) appending the events to `events`, for loops that reuse one list
    /// (bots' playouts, benchmarks, re-execution): [`Game::apply`], which a game may make
    /// allocation-free. On refusal neither `state` nor `events` changes.
    pub fn apply_into(
        &self,
        state: &mut G::State,
        ctx: CommandContext,
        action: &G::Action,
        events: &mut Vec<G::Event>,
    ) -> Result<(), CommandRefusal> {
        self.check_sender(ctx, action)?;
        G::apply(self.content, state, ctx, action, events).map_err(CommandRefusal::Rule)
    }

    /// [`apply_into`](Self::apply_into) appending only the events that are not signals
    /// ([`Game::apply_lean`]): what a format-3 match runs, since its receipts leave signals
    /// out. On refusal neither `state` nor `events` changes.
    pub fn apply_lean_into(
        &self,
        state: &mut G::State,
        ctx: CommandContext,
        action: &G::Action,
        events: &mut Vec<G::Event>,
    ) -> Result<(), CommandRefusal> {
        self.check_sender(ctx, action)?;
        G::apply_lean(self.content, state, ctx, action, events).map_err(CommandRefusal::Rule)
    }

    /// Runs an action on a copy and shows `viewer` the result, with the plain (format 1) state
    /// fingerprint.
    pub fn preview(
        &self,
        state: &G::State,
        ctx: CommandContext,
        action: &G::Action,
        viewer: Viewer,
    ) -> Result<Result<Preview<G>, CanonicalError>, CommandRefusal> {
        self.preview_sealed(state, ctx, action, viewer, &|next| Fingerprint::of(next))
    }

    /// [`LegalActionResolver::preview`] with the state fingerprint computed by `seal` — the
    /// match's own rule (a salted commitment in format 2), so that the fingerprint a preview
    /// shows is the one a commit would write and no more brute-forceable than it.
    pub fn preview_sealed(
        &self,
        state: &G::State,
        ctx: CommandContext,
        action: &G::Action,
        viewer: Viewer,
        seal: &dyn Fn(&G::State) -> Result<Fingerprint, CanonicalError>,
    ) -> Result<Result<Preview<G>, CanonicalError>, CommandRefusal> {
        let mut next = state.clone();
        let events = self.apply(&mut next, ctx, action)?;
        let view = G::preview_view(self.content, state, &next, viewer);
        let fingerprints = Fingerprint::of(&view).and_then(|v| seal(&next).map(|s| (v, s)));
        Ok(
            fingerprints.map(|(view_fingerprint, state_fingerprint)| Preview {
                events: G::preview_events(self.content, state, &next, &events, viewer),
                view,
                view_fingerprint,
                state_fingerprint,
            }),
        )
    }
}
