//! Duel: a two-seat card combat game on Turnstile, playable under each phase preset
//! (`classic-style`, `hearthstone-style`, `priority-window`, chosen in the match config).
//!
//! It exists to prove the engine's content pipeline end to end: cards, statuses and decks are
//! data; every card, status and phase effect is an effect row run by the one executor
//! (`turnstile-effects`); the phase graph (`turnstile-phases`) is the filter inside the one
//! `LegalActionResolver`; priority and the stack are the phases crate's `PriorityWindow`; and
//! hands and deck order are hidden from everyone who may not see them. Rules: docs/duel.md.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bot;
pub mod content;
mod host;
pub mod schema;
pub mod state;
mod view;

use serde::{Deserialize, Serialize};
use turnstile_core::{
    ActionKind, BundleSource, CommandContext, ContentBundle, ContentProblem, Game, MatchSetup,
    MatchStatus, Outcome, ParamRange, ParamSpec, Rejection, Seat, SetupError, Viewer,
};
use turnstile_phases::PhaseGraphReducer;

pub use content::{
    CardDefinition, CardKind, DeckDefinition, DuelContent, DuelRules, StatusDefinition,
};
pub use host::{Host, RuleError};
pub use state::{
    CardInstance, DuelAction, DuelEvent, DuelResult, DuelState, SeatState, UnitInstance,
};
pub use view::{DuelView, SeatView};

/// The game id.
pub const GAME_ID: &str = "duel";
/// Play a card from the hand.
pub const PLAY_CARD: &str = "PLAY_CARD";
/// End the activation.
pub const END_TURN: &str = "END_TURN";
/// Pass priority in a response window.
pub const PASS_PRIORITY: &str = "PASS_PRIORITY";
/// Concede (allowed in every phase, to either seat, priority or not).
pub const RESIGN: &str = "RESIGN";

/// The phase presets a match config may choose.
pub const PRESETS: [&str; 3] = ["classic-style", "hearthstone-style", "priority-window"];

/// The JSON Schemas of Duel's content file types, for `turnstile content schema`.
pub const SCHEMAS: &[turnstile_sheets::SchemaEntry] = &[
    turnstile_sheets::SchemaEntry::of::<CardDefinition>("duel-card"),
    turnstile_sheets::SchemaEntry::of::<StatusDefinition>("duel-status"),
    turnstile_sheets::SchemaEntry::of::<DeckDefinition>("duel-deck"),
    turnstile_sheets::SchemaEntry::of::<DuelRules>("duel-rules"),
    turnstile_sheets::SchemaEntry::of::<schema::PhaseSequenceSchema>("phase-sequence"),
];

/// A match's configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DuelConfig {
    /// The phase sequence of the content to play under.
    #[serde(default = "default_sequence")]
    pub phase_sequence: String,
    /// The decks of seat 0 and seat 1 (empty: the content's decks in id order).
    #[serde(default)]
    pub decks: Vec<String>,
}

fn default_sequence() -> String {
    PRESETS[0].to_owned()
}

impl Default for DuelConfig {
    fn default() -> Self {
        DuelConfig {
            phase_sequence: default_sequence(),
            decks: Vec::new(),
        }
    }
}

impl DuelConfig {
    /// The default decks under a phase sequence.
    pub fn with_sequence(sequence: &str) -> DuelConfig {
        DuelConfig {
            phase_sequence: sequence.into(),
            decks: Vec::new(),
        }
    }
}

/// The game.
#[derive(Debug, Clone, Copy)]
pub struct Duel;

/// The default content, loaded and fingerprinted.
pub fn bundled() -> Result<ContentBundle<DuelContent>, Vec<ContentProblem>> {
    let content = Duel::load_content(&content::bundled_source())?;
    ContentBundle::new(GAME_ID, content).map_err(|p| vec![p])
}

/// A command checked and computed: the next state and its events.
#[derive(Debug)]
pub struct DuelPlan {
    state: Box<DuelState>,
    events: Vec<DuelEvent>,
}

fn card_tags<'c>(
    content: &'c DuelContent,
    state: &DuelState,
    seat: Seat,
    hand: u16,
) -> Vec<&'c str> {
    state
        .seats
        .get(usize::from(seat.0))
        .and_then(|s| s.hand.get(usize::from(hand)))
        .and_then(|c| content.card(&c.card_id))
        .map(|c| c.tag_list().collect())
        .unwrap_or_default()
}

/// The legality checks before anything is computed: the match is on, the phase state resolves
/// against the pinned content, the seat holds priority, the phase allows the action by type or
/// by a tag of the card behind it.
fn filter(
    content: &DuelContent,
    state: &DuelState,
    seat: Seat,
    action: &DuelAction,
) -> Result<(), Rejection> {
    if state.result.is_some() {
        return Err(Rejection::new("match_over", "the match is over"));
    }
    if *action == DuelAction::Resign {
        return Ok(());
    }
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let resolved = reducer
        .resolve(&state.phase)
        .map_err(|e| Rejection::new(e.code(), e.to_string()))?;
    state.priority.check(seat)?;
    let tags = match action {
        DuelAction::PlayCard { hand } => card_tags(content, state, seat, *hand),
        _ => Vec::new(),
    };
    resolved.filter().allows(action.action_type(), &tags)?;
    Ok(())
}

impl Game for Duel {
    const ID: &'static str = GAME_ID;
    const CONTENT_KINDS: &'static [&'static str] = content::CONTENT_KINDS;
    const STREAMS: &'static [&'static str] = content::STREAMS;
    const HIDDEN_INFORMATION: bool = true;

    type Content = DuelContent;
    type Config = DuelConfig;
    type State = DuelState;
    type Action = DuelAction;
    type Event = DuelEvent;
    type View = DuelView;
    type Plan = DuelPlan;

    fn load_content(source: &BundleSource) -> Result<DuelContent, Vec<ContentProblem>> {
        content::load(source)
    }

    fn seat_range(_content: &DuelContent, _config: &DuelConfig) -> (u16, u16) {
        (2, 2)
    }

    fn setup(
        content: &DuelContent,
        setup: MatchSetup<'_, DuelConfig>,
    ) -> Result<DuelState, SetupError> {
        let config = setup.config;
        if content.phases.catalog.get(&config.phase_sequence).is_none() {
            return Err(SetupError::new(
                "unknown_sequence",
                format!(
                    "the content has no phase sequence `{}`; it has {:?}",
                    config.phase_sequence,
                    content
                        .phases
                        .catalog
                        .sequences()
                        .map(|s| s.sequence_id())
                        .collect::<Vec<_>>()
                ),
            ));
        }
        let ids: Vec<&str> = content.decks.keys().map(String::as_str).collect();
        let pick = |i: usize| -> Result<&str, SetupError> {
            match config.decks.get(i) {
                Some(d) => Ok(d.as_str()),
                None => ids
                    .get(i % ids.len().max(1))
                    .copied()
                    .ok_or_else(|| SetupError::new("no_decks", "the content has no decks")),
            }
        };
        let decks = [pick(0)?, pick(1)?];
        state::setup(content, &config.phase_sequence, decks, setup.seed)
            .map_err(|e| SetupError::new(e.code, e.message))
    }

    fn legal_actions(content: &DuelContent, state: &DuelState, seat: Seat) -> Vec<ActionKind> {
        let mut kinds = Vec::new();
        let playable: Vec<String> = Self::enumerate_actions(content, state, seat)
            .into_iter()
            .filter_map(|a| match a {
                DuelAction::PlayCard { hand }
                    if Self::check(
                        content,
                        state,
                        CommandContext {
                            seat: Some(seat),
                            tick: 0,
                        },
                        &a,
                    )
                    .is_ok() =>
                {
                    Some(hand.to_string())
                }
                _ => None,
            })
            .collect();
        if !playable.is_empty() {
            kinds.push(ActionKind {
                kind: PLAY_CARD.into(),
                params: vec![ParamSpec {
                    name: "hand".into(),
                    range: ParamRange::OneOf { values: playable },
                }],
            });
        }
        for action in [
            DuelAction::EndTurn,
            DuelAction::PassPriority,
            DuelAction::Resign,
        ] {
            if filter(content, state, seat, &action).is_ok() {
                kinds.push(ActionKind::bare(action.action_type()));
            }
        }
        kinds
    }

    fn enumerate_actions(content: &DuelContent, state: &DuelState, seat: Seat) -> Vec<DuelAction> {
        let mut actions = Vec::new();
        if state.result.is_some() {
            return actions;
        }
        let hand = state
            .seats
            .get(usize::from(seat.0))
            .map_or(0, |s| s.hand.len());
        for i in 0..hand {
            if let Ok(hand) = u16::try_from(i) {
                let action = DuelAction::PlayCard { hand };
                if filter(content, state, seat, &action).is_ok() {
                    actions.push(action);
                }
            }
        }
        for action in [DuelAction::PassPriority, DuelAction::EndTurn] {
            if filter(content, state, seat, &action).is_ok() {
                actions.push(action);
            }
        }
        actions
    }

    fn check(
        content: &DuelContent,
        state: &DuelState,
        ctx: CommandContext,
        action: &DuelAction,
    ) -> Result<DuelPlan, Rejection> {
        let seat = ctx
            .seat
            .ok_or_else(|| Rejection::new("seat_required", "Duel has no system actions"))?;
        filter(content, state, seat, action)?;
        let mut next = state.clone();
        let events = state::apply(content, &mut next, seat, action)?;
        Ok(DuelPlan {
            state: Box::new(next),
            events,
        })
    }

    fn commit(
        _content: &DuelContent,
        state: &mut DuelState,
        _ctx: CommandContext,
        plan: DuelPlan,
    ) -> Vec<DuelEvent> {
        *state = *plan.state;
        plan.events
    }

    fn view(content: &DuelContent, state: &DuelState, viewer: Viewer) -> DuelView {
        view::view(content, state, viewer)
    }

    fn redact_event(
        _content: &DuelContent,
        event: &DuelEvent,
        viewer: Viewer,
    ) -> Option<DuelEvent> {
        Some(view::redact(event, viewer))
    }

    fn preview_view(
        content: &DuelContent,
        before: &DuelState,
        after: &DuelState,
        viewer: Viewer,
    ) -> DuelView {
        view::preview_view(content, before, after, viewer)
    }

    fn preview_event(
        _content: &DuelContent,
        event: &DuelEvent,
        viewer: Viewer,
    ) -> Option<DuelEvent> {
        match event {
            // A burned card is the top of a deck: face up once committed, unknown before.
            DuelEvent::CardBurned { .. } if viewer != Viewer::Referee => None,
            _ => Some(view::preview_redact(event, viewer)),
        }
    }

    fn status(_content: &DuelContent, state: &DuelState) -> MatchStatus {
        match &state.result {
            None => MatchStatus::Active,
            Some(r) => MatchStatus::Finished {
                outcome: Outcome {
                    kind: r.kind.clone(),
                    winners: r.winners.clone(),
                },
            },
        }
    }

    fn step(state: &DuelState) -> u64 {
        state.step.current()
    }
}
