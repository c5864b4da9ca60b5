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
    MatchStatus, Outcome, ParamRange, ParamSpec, ParamValue, Rejection, Seat, SetupError, Viewer,
};
use turnstile_lifecycle::LifecycleState;
use turnstile_phases::PhaseGraphReducer;

pub use content::{
    CardDefinition, CardKind, DeckDefinition, DuelContent, DuelRules, StatusDefinition,
};
pub use host::{Host, RuleError};
pub use state::{
    CardInstance, Channel, DuelAction, DuelEvent, DuelResult, DuelState, SeatState, Standing,
    UnitInstance,
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
/// Concede (allowed in every phase, to every seat, priority or not).
pub const RESIGN: &str = "RESIGN";
/// Give up the rest of the activation (when the clock is skippable).
pub const SKIP: &str = "SKIP";
/// A late seat takes its place.
pub const JOIN: &str = "JOIN";
/// The system's Timeout.
pub const TIMEOUT: &str = "TIMEOUT";
/// The system's ClockResumed.
pub const CLOCK_RESUMED: &str = "CLOCK_RESUMED";

/// The card tag that makes its owner's play a turn-framework `Play`: the activation is
/// `Resolving` while the card (and any response stacked on it) resolves, then ends `Resolved`.
pub const ENDS_TURN_TAG: &str = "ends_turn";

/// The card tag of a delayed spell: played, it is set aside; its controller's next
/// activation is a `Countdown` (play on hold: only `END_TURN`, `SKIP`, `RESIGN`), and the card
/// resolves when that activation ends.
pub const CHANNEL_TAG: &str = "channel";

/// The clocks the shipped content offers (`lifecycle.clocks` of `rules.json`).
pub const CLOCKS: [&str; 3] = ["untimed", "standard", "blitz"];

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

/// Which of [`SCHEMAS`] a file of Duel's bundle follows, by its path under `content/` (the
/// effect rows under `effects/` follow the engine's `effect-row`; `bundle.json` is a plain
/// manifest, which the engine's own schema covers).
pub fn content_schema_of(path: &str) -> Option<&'static str> {
    match path {
        "rules.json" => Some("duel-rules"),
        "cards.tsv" => Some("duel-card"),
        "statuses.json" => Some("duel-status"),
        "decks.json" => Some("duel-deck"),
        _ if path.starts_with("phases/") => Some("phase-sequence"),
        _ if path.starts_with("effects/") => Some("effect-row"),
        _ => None,
    }
}

/// A match's configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DuelConfig {
    /// The phase sequence of the content to play under.
    #[serde(default = "default_sequence")]
    pub phase_sequence: String,
    /// The decks of the seats, in seat order: one per seat, or none for the content's decks
    /// in id order, cycling (any other count is refused with `deck_count`).
    #[serde(default)]
    pub decks: Vec<String>,
    /// The clock (a turn config of the content's `lifecycle.clocks`); absent: its default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// Seats that start out waiting and join later with `JOIN` (late players); seat 0 never.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub late_seats: Vec<u16>,
}

fn default_sequence() -> String {
    PRESETS[0].to_owned()
}

impl Default for DuelConfig {
    fn default() -> Self {
        DuelConfig {
            phase_sequence: default_sequence(),
            decks: Vec::new(),
            clock: None,
            late_seats: Vec::new(),
        }
    }
}

impl DuelConfig {
    /// The default decks under a phase sequence.
    pub fn with_sequence(sequence: &str) -> DuelConfig {
        DuelConfig {
            phase_sequence: sequence.into(),
            ..DuelConfig::default()
        }
    }

    /// The same config under `clock`.
    pub fn with_clock(mut self, clock: &str) -> DuelConfig {
        self.clock = Some(clock.into());
        self
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

pub(crate) fn card_tags<'c>(
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

/// The legality checks before anything is computed: the match is on, the seat is at the table
/// (or, for `JOIN`, waiting and in time), an activation is running, the phase state resolves
/// against the pinned content, the seat holds priority, the phase allows the action by type or
/// by a tag of the card behind it. `RESIGN` is never illegal; `SKIP` is the turn framework's
/// (the acting seat, a skippable clock, no response window open).
pub(crate) fn filter(
    content: &DuelContent,
    state: &DuelState,
    lifecycle: &LifecycleState,
    seat: Seat,
    action: &DuelAction,
) -> Result<(), Rejection> {
    if state.result.is_some() {
        return Err(Rejection::new("match_over", "the match is over"));
    }
    let standing = state.standing(seat);
    match action {
        DuelAction::Timeout { .. } | DuelAction::ClockResumed { .. } => {
            return Err(Rejection::new(
                "system_action",
                "only the system submits Timeout and ClockResumed",
            ))
        }
        DuelAction::Resign if standing != Standing::Out => return Ok(()),
        DuelAction::Join => {
            if standing != Standing::Waiting {
                return Err(Rejection::new(
                    "not_late",
                    format!("seat {} is not waiting to join", seat.0),
                ));
            }
            return Ok(());
        }
        _ => {}
    }
    if standing != Standing::Playing {
        return Err(Rejection::new(
            "not_at_the_table",
            format!("seat {} is not at the table", seat.0),
        ));
    }
    // A `Resolving` activation takes no command but the priority window's (spec/turns.md:
    // responses and passes are the one exception); the holder check below decides who.
    let resolving_window = state.priority.is_open()
        && lifecycle.turns.clock().current().status == turnstile_turns::TurnStatus::Resolving;
    if lifecycle.acting().is_none() || !(lifecycle.is_active() || resolving_window) {
        return Err(Rejection::new(
            "turn_not_active",
            "no activation is running, or it is resolving a play",
        ));
    }
    if *action == DuelAction::Skip {
        lifecycle
            .check_skip(&content.rules.lifecycle, seat)
            .map_err(|e| Rejection::new(e.code(), e.to_string()))?;
        if state.priority.is_open() {
            return Err(Rejection::new(
                "window_open",
                "a response window is open: pass priority first",
            ));
        }
        return Ok(());
    }
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let resolved = reducer
        .resolve(&state.phase)
        .map_err(|e| Rejection::new(e.code(), e.to_string()))?;
    state.priority.check(seat)?;
    if matches!(action, DuelAction::PlayCard { .. })
        && lifecycle.turns.clock().current().turn_type == turnstile_turns::TurnType::Countdown
    {
        return Err(Rejection::new(
            "not_play_turn",
            format!(
                "seat {} is channelling a card: this activation is a countdown, so end or skip it",
                seat.0
            ),
        ));
    }
    let tags = match action {
        DuelAction::PlayCard { hand, .. } => card_tags(content, state, seat, *hand),
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
        (2, 4)
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
        let (low, high) = Self::seat_range(content, config);
        if setup.seats < low || setup.seats > high {
            return Err(SetupError::new(
                "seat_count",
                format!("Duel takes {low} to {high} seats, not {}", setup.seats),
            ));
        }
        // One deck per seat, or none (the content's decks): a deck more or fewer than the
        // seats is a mistake in the config, not something to pad or cut silently.
        if !config.decks.is_empty() && config.decks.len() != usize::from(setup.seats) {
            return Err(SetupError::new(
                "deck_count",
                format!(
                    "`decks` names {} deck(s) for {} seats; give one deck per seat, in seat order, or leave `decks` out for the content's decks",
                    config.decks.len(),
                    setup.seats
                ),
            ));
        }
        let mut decks = Vec::new();
        for i in 0..usize::from(setup.seats) {
            decks.push(pick(i)?);
        }
        let mut late = Vec::new();
        for s in &config.late_seats {
            if *s == 0 || *s >= setup.seats || late.contains(&Seat(*s)) {
                return Err(SetupError::new(
                    "bad_late_seat",
                    format!(
                        "late seat {s}: a late seat is one of 1..{} (seat 0 starts the match), each named once",
                        setup.seats
                    ),
                ));
            }
            late.push(Seat(*s));
        }
        state::setup(
            content,
            state::Setup {
                sequence_id: &config.phase_sequence,
                decks: &decks,
                late_seats: &late,
                clock: config.clock.as_deref(),
                seed: setup.seed,
            },
        )
        .map_err(|e| SetupError::new(e.code, e.message))
    }

    fn attach(content: &DuelContent, state: &mut DuelState) -> Result<(), SetupError> {
        state
            .lifecycle
            .turns
            .verify(&content.rules.lifecycle.clocks)
            .map_err(|e| SetupError::new(e.code(), e.to_string()))?;
        let deadline = if state.result.is_none() {
            state.lifecycle.deadline_tick(&content.rules.lifecycle)
        } else {
            None
        };
        if deadline != state.deadline_tick {
            return Err(SetupError::new(
                "inconsistent_state",
                "the stored deadline tick is not the turn clock's",
            ));
        }
        Ok(())
    }

    fn is_system_action(action: &DuelAction) -> bool {
        matches!(
            action,
            DuelAction::Timeout { .. } | DuelAction::ClockResumed { .. }
        )
    }

    fn legal_actions(content: &DuelContent, state: &DuelState, seat: Seat) -> Vec<ActionKind> {
        let mut kinds = Vec::new();
        let playable: Vec<ParamValue> = Self::enumerate_actions(content, state, seat)
            .into_iter()
            .filter_map(|a| match a {
                DuelAction::PlayCard { hand, target: None }
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
                    Some(ParamValue::from(hand))
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
        if !kinds.is_empty() && state.playing().len() > 2 {
            if let Some(kind) = kinds.first_mut() {
                kind.params.push(ParamSpec {
                    name: "target".into(),
                    range: ParamRange::OneOf {
                        values: state
                            .playing()
                            .into_iter()
                            .filter(|s| *s != seat)
                            .map(|s| ParamValue::from(s.0))
                            .collect(),
                    },
                });
            }
        }
        for action in [
            DuelAction::EndTurn,
            DuelAction::PassPriority,
            DuelAction::Skip,
            DuelAction::Join,
            DuelAction::Resign,
        ] {
            if filter(content, state, &state.lifecycle, seat, &action).is_ok() {
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
                let action = DuelAction::play(hand);
                if filter(content, state, &state.lifecycle, seat, &action).is_ok() {
                    actions.push(action);
                    // With several opponents, each may be aimed at.
                    let foes: Vec<Seat> =
                        state.playing().into_iter().filter(|s| *s != seat).collect();
                    if foes.len() > 1 {
                        for foe in foes {
                            actions.push(DuelAction::PlayCard {
                                hand,
                                target: Some(foe),
                            });
                        }
                    }
                }
            }
        }
        for action in [
            DuelAction::Join,
            DuelAction::PassPriority,
            DuelAction::EndTurn,
        ] {
            if filter(content, state, &state.lifecycle, seat, &action).is_ok() {
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
        let mut next = state.clone();
        let events = state::apply(content, &mut next, ctx, action)?;
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

    fn deadline_tick(state: &DuelState) -> Option<turnstile_core::Tick> {
        state.deadline_tick
    }
}
