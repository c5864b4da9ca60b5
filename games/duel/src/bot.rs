//! A greedy Duel bot: it asks the resolver for its legal candidates, previews each as its own
//! seat sees it, and plays the one whose preview scores best (opponent's health down, its own
//! up, units on the board weighed by health), ending the turn when no play improves on doing nothing. Bounded: one preview per
//! candidate, no search, so the same position always gets the same answer.

use turnstile_core::{CommandContext, Game, LegalActionResolver, Seat, Tick, Viewer};

use crate::{Duel, DuelAction, DuelView};

/// The score of a view for `seat`: its health minus twice the opponent's, plus its units
/// against the opponent's, a won match best.
pub fn score(view: &DuelView, seat: Seat) -> i64 {
    if let Some(result) = &view.result {
        return if result.winners.contains(&seat) {
            i64::MAX / 2
        } else {
            i64::MIN / 2
        };
    }
    let mine = view.seats.get(usize::from(seat.0));
    let theirs = view.seats.get(usize::from(1 - seat.0.min(1)));
    let health = |s: Option<&crate::SeatView>| s.map_or(0, |s| s.health);
    // A unit is worth 4 plus twice the health it has left, to its controller and (as a threat)
    // against its opponent, so trading units in combat scores.
    let board = |s: Option<&crate::SeatView>| {
        s.map_or(0, |s| {
            s.board
                .iter()
                .map(|u| u.health.saturating_mul(2).saturating_add(4))
                .fold(0i64, i64::saturating_add)
        })
    };
    let hand = |s: Option<&crate::SeatView>| s.map_or(0, |s| i64::from(s.hand_count));
    // A channelled spell is damage on its way, which a preview does not show yet: count it
    // as a strong card still to come.
    let channel =
        |s: Option<&crate::SeatView>| s.map_or(0, |s| i64::from(s.channel.is_some()) * 12);
    health(mine) - 2 * health(theirs) + board(mine) - board(theirs) + hand(mine) + channel(mine)
        - channel(theirs)
}

/// Chooses the best-previewed candidate for `seat`, or `None` with no legal action.
pub fn choose_greedy(
    resolver: &LegalActionResolver<'_, Duel>,
    state: &<Duel as Game>::State,
    seat: Seat,
    tick: Tick,
) -> Option<DuelAction> {
    let candidates = resolver.candidates(state, seat, tick).ok()?;
    let ctx = CommandContext {
        seat: Some(seat),
        tick,
    };
    let mut best: Option<(i64, DuelAction)> = None;
    for action in candidates {
        let Ok(Ok(preview)) = resolver.preview(state, ctx, &action, Viewer::Seat(seat)) else {
            continue;
        };
        let mut value = score(&preview.view, seat);
        // Prefer acting to ending the turn at equal value, passing to ending.
        if matches!(action, DuelAction::PlayCard { .. }) {
            value = value.saturating_add(1);
        }
        if best.as_ref().is_none_or(|(b, _)| value > *b) {
            best = Some((value, action));
        }
    }
    best.map(|(_, a)| a)
}
