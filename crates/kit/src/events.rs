//! Reading a kit game's event lists: the turns that began and ended, and the game's own events,
//! for tests, tools and front-ends.

use turnstile_core::Seat;
use turnstile_turns::{TurnEndReason, TurnEvent};

use crate::event::KitEvent;
use crate::KitGame;

/// The turns that `events` record ending, as (turn index, player, reason).
pub fn turn_ends<G: KitGame>(events: &[KitEvent<G>]) -> Vec<(u64, Option<Seat>, TurnEndReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            KitEvent::Turn {
                event:
                    TurnEvent::TurnEnded {
                        turn_index,
                        player,
                        reason,
                        ..
                    },
            } => Some((*turn_index, *player, reason.clone())),
            _ => None,
        })
        .collect()
}

/// The turns that `events` record beginning, as (turn index, player).
pub fn turn_begins<G: KitGame>(events: &[KitEvent<G>]) -> Vec<(u64, Option<Seat>)> {
    events
        .iter()
        .filter_map(|e| match e {
            KitEvent::Turn {
                event:
                    TurnEvent::TurnBegan {
                        turn_index, player, ..
                    },
            } => Some((*turn_index, *player)),
            _ => None,
        })
        .collect()
}

/// The events among `events` that are not the turn framework's: the game's own and
/// `matchEnded`.
pub fn game_events<G: KitGame>(events: &[KitEvent<G>]) -> Vec<KitEvent<G>> {
    events
        .iter()
        .filter(|e| !matches!(e, KitEvent::Turn { .. }))
        .cloned()
        .collect()
}
