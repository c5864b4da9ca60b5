//! Pig on Turnstile: the press-your-luck dice game for 2 to 4 seats, built on the match
//! lifecycle (`turnstile-lifecycle`) and declared mostly in data — the guide's second
//! walk-through (docs/writing-a-game.md, section 9).
//!
//! On its turn a seat rolls a die as often as it likes: every roll but a 1 adds to its turn
//! total; a 1 busts (the turn total is lost and the turn ends); holding banks the turn total.
//! When a round ends with a seat at or past the target, the highest score wins — every seat has
//! had as many turns, the fair form of the rule.
//!
//! What is data (`games/pig/content/`): the target, the round limit, the die, the seat range,
//! the clocks (untimed, standard, blitz), the initiative formula (trailing seats roll first
//! each round), the round hooks that end the match, and the turn itself as a phase graph —
//! `ROLL` only before the first roll, a conditional, higher-priority edge that busts on a 1,
//! `HOLD` banking, and `ActivationExit` edges that lose the turn total on a Skip or a Timeout.
//! What is code: what a roll and each named effect do (`rules.rs`), views and previews here.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod content;
pub mod rules;

use serde::{Deserialize, Serialize};
use turnstile_core::{
    ActionKind, BundleSource, CommandContext, ContentBundle, ContentProblem, Game, MatchSetup,
    MatchStatus, Outcome, Rejection, Seat, SetupError, Tick, Viewer,
};
use turnstile_lifecycle::LifecycleGame;
use turnstile_phases::ExitReason;
use turnstile_turns::TurnEvent;

pub use content::{PigContent, PigRules};
pub use rules::{PigState, Standing};

/// The game id.
pub const GAME_ID: &str = "pig";

/// The JSON Schemas of Pig's content files (`turnstile content schema` writes them). Its phase
/// files follow the engine's `phase-sequence` schema.
pub const SCHEMAS: &[turnstile_sheets::SchemaEntry] =
    &[turnstile_sheets::SchemaEntry::of::<PigRules>("pig-rules")];

/// A match's configuration: `{"phaseSequence": "pig", "clock": "blitz", "seats": 3}`, every
/// field optional (`turnConfig` is read as `clock`, so the generic terminal player's
/// `--turn-config` chooses the clock).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PigConfig {
    /// The phase sequence of the content (its first when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase_sequence: Option<String>,
    /// The clock: one of the content's `lifecycle.clocks` (its default when absent).
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "turnConfig")]
    pub clock: Option<String>,
    /// How many seats, within the content's range (any of it when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<u16>,
}

/// What a seat (or the system) may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PigAction {
    /// Roll the die.
    Roll,
    /// Bank the turn total and end the turn.
    Hold,
    /// End the turn without banking, when the clock is skippable.
    Skip,
    /// Leave the match, at any time.
    Resign,
    /// System: the turn's deadline passed.
    Timeout {
        /// The activation it ends.
        turn_index: u64,
    },
    /// System: a node took the match over after an outage; deadlines move later.
    ClockResumed {
        /// The last heartbeat before the outage.
        last_heartbeat_tick: Tick,
        /// When the match was taken over.
        takeover_tick: Tick,
    },
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PigResult {
    /// `win` (a round ended with a seat at the target), `roundLimit`, `resigned`, `timeout`.
    pub kind: String,
    /// The seats with the highest score (several on a tie), or the last seat in.
    pub winners: Vec<Seat>,
}

/// What a command did, for clients.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum PigEvent {
    /// A seat's turn began.
    TurnStarted {
        /// Who rolls.
        seat: Seat,
        /// The round.
        round: u64,
    },
    /// The die showed `die`.
    Rolled {
        /// Who rolled.
        seat: Seat,
        /// The face.
        die: i64,
        /// The turn total after it (unchanged by a 1).
        turn_total: i64,
    },
    /// The turn total went to the score.
    Banked {
        /// Who.
        seat: Seat,
        /// Points banked.
        banked: i64,
        /// The score after.
        score: i64,
    },
    /// The turn total was lost (a bust, a Skip, a Timeout).
    TurnTotalLost {
        /// Who.
        seat: Seat,
        /// Points lost.
        lost: i64,
    },
    /// The turn moved along an edge of its phase graph.
    PhaseChanged {
        /// The edge.
        edge: String,
        /// From this phase.
        from: String,
        /// To this one.
        to: String,
    },
    /// A seat's turn ended.
    TurnEnded {
        /// Whose.
        seat: Seat,
        /// Why, as the phase graph saw it.
        reason: ExitReason,
    },
    /// A round ended.
    RoundEnded {
        /// Which.
        round: u64,
        /// The scores, in seat order.
        scores: Vec<i64>,
    },
    /// A seat resigned.
    Resigned {
        /// Who.
        seat: Seat,
    },
    /// A seat timed out too often in a row and is out.
    Forfeited {
        /// Who.
        seat: Seat,
        /// Timeouts in a row.
        timeouts: u32,
    },
    /// The match is over.
    MatchEnded {
        /// How.
        result: PigResult,
    },
    /// The turn framework's event (turn began or ended, round, commander skipped).
    Turn {
        /// The event.
        event: TurnEvent<(), ()>,
    },
}

/// What everyone sees: Pig hides nothing but the die not yet rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PigView {
    /// Banked scores, in seat order.
    pub scores: Vec<i64>,
    /// Who is still in.
    pub standing: Vec<Standing>,
    /// The turn total.
    pub turn_total: i64,
    /// The last die of the turn (0: none yet).
    pub last_roll: i64,
    /// The seat rolling.
    pub to_move: Option<Seat>,
    /// The turn's phase.
    pub phase: String,
    /// The round.
    pub round: u64,
    /// What a `Timeout` names.
    pub turn_index: u64,
    /// When the turn times out.
    pub deadline_tick: Option<Tick>,
    /// The target score.
    pub target: i64,
    /// How it ended.
    pub result: Option<PigResult>,
    /// In a preview: a die would be rolled, and what it shows is not known yet.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub roll_pending: bool,
}

/// A checked command: the state it leads to and its events.
#[derive(Debug)]
pub struct PigPlan {
    state: Box<PigState>,
    events: Vec<PigEvent>,
}

/// The game.
#[derive(Debug, Clone, Copy)]
pub struct Pig;

/// The shipped content, loaded and fingerprinted.
pub fn bundled() -> Result<ContentBundle<PigContent>, Vec<ContentProblem>> {
    let content = content::load(&content::bundled_source())?;
    ContentBundle::new(GAME_ID, content).map_err(|p| vec![p])
}

fn view_of(content: &PigContent, state: &PigState) -> PigView {
    PigView {
        scores: state.scores.clone(),
        standing: state.standing.clone(),
        turn_total: state.turn_total,
        last_roll: state.last_roll,
        to_move: state.active,
        phase: state.phase.cursor.clone(),
        round: state.round,
        turn_index: state.turn_index(),
        deadline_tick: state.deadline_tick,
        target: content.rules.target,
        result: state.result.clone(),
        roll_pending: false,
    }
}

/// Everything the registry needs to serve Pig, so it registers with one line.
impl LifecycleGame for Pig {
    fn bundled_source() -> BundleSource {
        content::bundled_source()
    }

    fn default_config() -> PigConfig {
        PigConfig::default()
    }

    fn config_options(content: &PigContent) -> serde_json::Value {
        content::config_options(content)
    }

    fn turn_index(state: &PigState) -> u64 {
        state.turn_index()
    }

    fn timeout(turn_index: u64) -> PigAction {
        PigAction::Timeout { turn_index }
    }

    fn clock_resumed(last_heartbeat_tick: Tick, takeover_tick: Tick) -> PigAction {
        PigAction::ClockResumed {
            last_heartbeat_tick,
            takeover_tick,
        }
    }

    fn resign(_: Seat) -> PigAction {
        PigAction::Resign
    }

    fn content_schemas() -> Vec<(String, serde_json::Value)> {
        turnstile_sheets::named_schemas(SCHEMAS)
    }

    fn content_schema_of(path: &str) -> Option<&'static str> {
        match path {
            "rules.json" => Some("pig-rules"),
            _ if path.starts_with("phases/") => Some("phase-sequence"),
            _ => None,
        }
    }
}

impl Game for Pig {
    const ID: &'static str = GAME_ID;
    const CONTENT_KINDS: &'static [&'static str] = content::CONTENT_KINDS;
    const STREAMS: &'static [&'static str] = content::STREAMS;
    // Nothing is secret but the next roll: previews hide it (`preview_view`).
    const HIDDEN_INFORMATION: bool = true;

    type Content = PigContent;
    type Config = PigConfig;
    type State = PigState;
    type Action = PigAction;
    type Event = PigEvent;
    type View = PigView;
    type Plan = PigPlan;

    fn load_content(source: &BundleSource) -> Result<PigContent, Vec<ContentProblem>> {
        content::load(source)
    }

    fn seat_range(content: &PigContent, config: &PigConfig) -> (u16, u16) {
        let seats = content.rules.seats;
        config.seats.map_or((seats.min, seats.max), |n| (n, n))
    }

    fn setup(
        content: &PigContent,
        setup: MatchSetup<'_, PigConfig>,
    ) -> Result<PigState, SetupError> {
        let first = content.sequence_ids().first().copied().unwrap_or_default();
        let sequence = setup.config.phase_sequence.as_deref().unwrap_or(first);
        let clock = setup.config.clock.as_deref();
        rules::setup(content, setup.seats, sequence, clock, setup.seed)
            .map_err(|e| SetupError::new(e.code, e.message))
    }

    fn attach(content: &PigContent, state: &mut PigState) -> Result<(), SetupError> {
        let rules = &content.rules.lifecycle;
        state
            .lifecycle
            .turns
            .verify(&rules.clocks)
            .map_err(|e| SetupError::new(e.code(), e.to_string()))?;
        let reducer =
            turnstile_phases::PhaseGraphReducer::new(&content.phases.catalog, content.revision);
        reducer
            .resolve(&state.phase)
            .map_err(|e| SetupError::new(e.code(), e.to_string()))?;
        Ok(())
    }

    fn is_system_action(action: &PigAction) -> bool {
        matches!(
            action,
            PigAction::Timeout { .. } | PigAction::ClockResumed { .. }
        )
    }

    fn legal_actions(content: &PigContent, state: &PigState, seat: Seat) -> Vec<ActionKind> {
        let mut kinds = Vec::new();
        if state.result.is_some()
            || state.standing.get(usize::from(seat.0)) != Some(&Standing::Playing)
        {
            return kinds;
        }
        for (kind, command) in [("roll", "ROLL"), ("hold", "HOLD")] {
            if rules::allowed(content, state, seat, command) {
                kinds.push(ActionKind::bare(kind));
            }
        }
        if state.lifecycle.acting() == Some(seat)
            && state
                .lifecycle
                .check_skip(&content.rules.lifecycle, seat)
                .is_ok()
        {
            kinds.push(ActionKind::bare("skip"));
        }
        kinds.push(ActionKind::bare("resign"));
        kinds
    }

    fn enumerate_actions(content: &PigContent, state: &PigState, seat: Seat) -> Vec<PigAction> {
        // Bots and tests choose among the rolls and holds; Skip and Resign stay listed as
        // legal kinds only, so a random bot plays the game rather than leaving it.
        [(PigAction::Roll, "ROLL"), (PigAction::Hold, "HOLD")]
            .into_iter()
            .filter(|(_, command)| rules::allowed(content, state, seat, command))
            .map(|(action, _)| action)
            .collect()
    }

    fn check(
        content: &PigContent,
        state: &PigState,
        ctx: CommandContext,
        action: &PigAction,
    ) -> Result<PigPlan, Rejection> {
        let mut next = state.clone();
        let events = rules::apply(content, &mut next, ctx, action)
            .map_err(|e| Rejection::new(e.code, e.message))?;
        Ok(PigPlan {
            state: Box::new(next),
            events,
        })
    }

    fn commit(
        _content: &PigContent,
        state: &mut PigState,
        _ctx: CommandContext,
        plan: PigPlan,
    ) -> Vec<PigEvent> {
        *state = *plan.state;
        plan.events
    }

    fn view(content: &PigContent, state: &PigState, _viewer: Viewer) -> PigView {
        view_of(content, state)
    }

    /// A preview that rolls shows the state before the roll, marked `rollPending`: the die,
    /// and whatever follows from it (a bust, the next seat's turn), is unknown until the roll
    /// is committed. Every other preview shows its result.
    fn preview_view(
        content: &PigContent,
        before: &PigState,
        after: &PigState,
        _viewer: Viewer,
    ) -> PigView {
        if after.rolls == before.rolls {
            return view_of(content, after);
        }
        PigView {
            roll_pending: true,
            ..view_of(content, before)
        }
    }

    /// The events of a rolling preview stop before the `Rolled` event: what happened first
    /// (a deadline that had already passed) is known, the die and its consequences are not.
    fn preview_events(
        _content: &PigContent,
        before: &PigState,
        after: &PigState,
        events: &[PigEvent],
        _viewer: Viewer,
    ) -> Vec<PigEvent> {
        if after.rolls == before.rolls {
            return events.to_vec();
        }
        events
            .iter()
            .take_while(|e| !matches!(e, PigEvent::Rolled { .. }))
            .cloned()
            .collect()
    }

    fn status(_content: &PigContent, state: &PigState) -> MatchStatus {
        match &state.result {
            None => MatchStatus::Active,
            Some(result) => MatchStatus::Finished {
                outcome: Outcome {
                    kind: result.kind.clone(),
                    winners: result.winners.clone(),
                },
            },
        }
    }

    fn deadline_tick(state: &PigState) -> Option<Tick> {
        state.deadline_tick
    }

    fn is_signal(event: &PigEvent) -> bool {
        matches!(event, PigEvent::Turn { event } if event.is_signal())
    }
}
