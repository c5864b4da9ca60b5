//! What each viewer may see of a Duel match: a seat sees its own hand, counts of the other
//! hand, and no deck order at all; spectators see counts only; drawn card ids reach only the
//! drawer.

use serde::Serialize;
use turnstile_core::{Seat, Tick, Viewer};
use turnstile_effects::StatusEntry;
use turnstile_phases::StackEntry;

use crate::content::DuelContent;
use crate::state::{CardInstance, DuelEvent, DuelResult, DuelState, Standing, UnitInstance};

/// One seat's side as a viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatView {
    /// Health.
    pub health: i64,
    /// Maximum health.
    pub max_health: i64,
    /// Mana.
    pub mana: i64,
    /// Maximum mana.
    pub max_mana: i64,
    /// The hand, for its own seat (and a referee) only.
    pub hand: Option<Vec<CardInstance>>,
    /// Cards in hand.
    pub hand_count: u32,
    /// Cards in the deck (never their order).
    pub deck_count: u32,
    /// The discard pile.
    pub discard: Vec<CardInstance>,
    /// Units in play.
    pub board: Vec<UnitInstance>,
    /// Fatigue so far.
    pub fatigue: u32,
    /// `waiting` (a late seat not joined yet), `playing` or `out`.
    pub standing: Standing,
    /// What the seat's striking units add to their attack (public: it is on the table).
    pub attack_bonus: i64,
    /// The card the seat is channelling, if any (public: it was played face up).
    pub channel: Option<String>,
}

/// A Duel match as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DuelView {
    /// Who is looking.
    pub viewer: Viewer,
    /// The phase sequence.
    pub sequence_id: String,
    /// The current phase.
    pub phase: String,
    /// The turn owner.
    pub active: Seat,
    /// Who holds priority.
    pub priority: Seat,
    /// Whether a response window is open.
    pub window_open: bool,
    /// The stack, bottom first (played cards are public).
    pub stack: Vec<StackEntry<CardInstance>>,
    /// Activations so far.
    pub turn: u32,
    /// The round.
    pub round: u32,
    /// `expectedStep`: commands this activation has accepted.
    pub step: u64,
    /// Both seats.
    pub seats: Vec<SeatView>,
    /// Statuses (public).
    pub statuses: Vec<StatusEntry>,
    /// The result, once over.
    pub result: Option<DuelResult>,
    /// The clock the activations run under (a turn config id of the content).
    pub clock: Option<String>,
    /// When the current activation times out, if its clock runs (the fair timer shows
    /// `deadlineTick − estimated server tick`).
    pub deadline_tick: Option<Tick>,
    /// The match-wide activation index (what a Timeout names).
    pub turn_index: u64,
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The view of `viewer`.
pub fn view(_content: &DuelContent, state: &DuelState, viewer: Viewer) -> DuelView {
    let sees_hand = |seat: usize| match viewer {
        Viewer::Referee => true,
        Viewer::Seat(s) => usize::from(s.0) == seat,
        Viewer::Spectator => false,
    };
    DuelView {
        viewer,
        sequence_id: state.phase.sequence_id.clone(),
        phase: state.phase.cursor.clone(),
        active: state.active,
        priority: state.priority.holder(),
        window_open: state.priority.is_open(),
        stack: state.priority.stack().to_vec(),
        turn: state.turn,
        round: state.round,
        step: state.step.current(),
        seats: state
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView {
                health: s.health,
                max_health: s.max_health,
                mana: s.mana,
                max_mana: s.max_mana,
                attack_bonus: s.attack_bonus,
                channel: s.channel.as_ref().map(|c| c.card.card_id.clone()),
                hand: sees_hand(i).then(|| s.hand.clone()),
                hand_count: count(s.hand.len()),
                deck_count: count(s.deck.len()),
                discard: s.discard.clone(),
                board: s.board.clone(),
                fatigue: s.fatigue,
                standing: s.standing,
            })
            .collect(),
        statuses: state.statuses.entries().to_vec(),
        result: state.result.clone(),
        clock: state
            .lifecycle
            .turns
            .clock()
            .current()
            .config
            .as_ref()
            .map(|c| c.as_str().to_owned()),
        deadline_tick: state.deadline_tick,
        turn_index: state.lifecycle.turn_index(),
    }
}

/// `event` as `viewer` receives it: a drawn card's id only for its drawer (and a referee).
pub fn redact(event: &DuelEvent, viewer: Viewer) -> DuelEvent {
    match event {
        DuelEvent::CardDrawn { seat, card } => {
            let sees = match viewer {
                Viewer::Referee => true,
                Viewer::Seat(s) => s == *seat,
                Viewer::Spectator => false,
            };
            DuelEvent::CardDrawn {
                seat: *seat,
                card: if sees { card.clone() } else { None },
            }
        }
        other => other.clone(),
    }
}

/// The view of `after` in a preview from `before`: like [`view`], except that cards the action
/// would put into the viewer's hand (draws) are counted but not shown, so a preview never
/// reveals the top of a deck.
pub fn preview_view(
    content: &DuelContent,
    before: &DuelState,
    after: &DuelState,
    viewer: Viewer,
) -> DuelView {
    let mut shown = view(content, after, viewer);
    for (i, seat) in shown.seats.iter_mut().enumerate() {
        let (Some(hand), Some(known)) = (seat.hand.as_mut(), before.seats.get(i)) else {
            continue;
        };
        hand.retain(|card| known.hand.iter().any(|k| k.thing == card.thing));
    }
    shown
}

/// `event` as `viewer` receives it in a preview: no drawn card id for anyone but a referee.
pub fn preview_redact(event: &DuelEvent, viewer: Viewer) -> DuelEvent {
    match event {
        DuelEvent::CardDrawn { seat, .. } if viewer != Viewer::Referee => DuelEvent::CardDrawn {
            seat: *seat,
            card: None,
        },
        other => redact(other, viewer),
    }
}
