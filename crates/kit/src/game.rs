//! [`Kit<G>`]: a [`KitGame`] as the engine's [`Game`] — content, setup, attach, legality,
//! commit, views, status and deadlines, written once for every kit game.

use std::marker::PhantomData;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use turnstile_core::{
    ActionKind, BundleSource, CommandContext, ContentBundle, ContentProblem, Game, MatchSetup,
    MatchStatus, Rejection, Seat, SetupError, Tick, Viewer,
};
use turnstile_turns::{
    Commander, CommanderId, DiscardEvents, MatchTurns, NoSignals, TurnConfigId, TurnError,
};

use crate::action::Action;
use crate::content::{load_rules, Rules, RULES_KIND};
use crate::event::KitEvent;
use crate::referee::{self, KitPlan};
use crate::state::{KitState, KitView, SEATS};
use crate::KitGame;

/// A kit game as an engine [`Game`]: two seats take turns until the game ends the match, a seat
/// resigns, or a seat times out too often.
pub struct Kit<G>(PhantomData<fn() -> G>);

/// A match's configuration: which of the content's turn configs it uses. Every field is
/// optional; unknown fields are refused.
///
/// ```json
/// { "turnConfig": "blitz" }
/// ```
///
/// There are no other overrides on purpose: timers are content, so a match's timing is pinned by
/// its content revision.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MatchConfig {
    /// The turn config of every turn; the content's `defaultTurnConfig` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_config: Option<TurnConfigId>,
}

impl MatchConfig {
    /// A config choosing the turn config `id`.
    pub fn with_turn_config(id: &str) -> MatchConfig {
        MatchConfig {
            turn_config: Some(TurnConfigId::new(id)),
        }
    }
}

/// Loads a bundle of game `G` and computes its revision.
pub fn load_bundle<G: KitGame>(
    source: &BundleSource,
) -> Result<ContentBundle<Rules>, Vec<ContentProblem>> {
    let rules = Kit::<G>::load_content(source)?;
    ContentBundle::new(G::ID, rules).map_err(|p| vec![p])
}

/// The commanders' ids, `seat-0` and `seat-1`: made once, shared by every match (the same text,
/// so nothing a match stores or hashes changes).
fn seat_commander_ids() -> &'static [CommanderId; 2] {
    static IDS: OnceLock<[CommanderId; 2]> = OnceLock::new();
    IDS.get_or_init(|| SEATS.map(|seat| CommanderId::new(format!("seat-{seat}"))))
}

/// The turn state every match under `config` starts from: a commander per seat, registered seat
/// 0 then seat 1 with equal priorities and `config`, and the loop started.
fn starting_turns<G: KitGame>(
    rules: &Rules,
    config: &TurnConfigId,
) -> Result<MatchTurns, TurnError> {
    let mut turns = MatchTurns::new(SEATS);
    // No receipt records the setup: its events are dropped as they come.
    let mut handle = turns.turns_into::<G::Move, (), _>(&rules.turn_configs, DiscardEvents);
    for (seat, id) in SEATS.into_iter().zip(seat_commander_ids()) {
        let commander = Commander::with_id(id.clone(), Some(seat), 0).with_config(config.clone());
        handle.add_commander(commander)?;
    }
    handle.start_loop(&mut NoSignals)?;
    Ok(turns)
}

fn setup_error(e: TurnError) -> SetupError {
    SetupError::new(e.code(), e.to_string())
}

impl<G: KitGame> Kit<G> {
    /// The match-wide index of the current turn: what the server's Timeout names.
    pub fn turn_index(state: &KitState<G>) -> u64 {
        state.turn_index()
    }
}

impl<G: KitGame> Game for Kit<G> {
    const ID: &'static str = G::ID;
    const CONTENT_KINDS: &'static [&'static str] = &[RULES_KIND];
    const STREAMS: &'static [&'static str] = &[];
    /// Nothing is hidden: every viewer gets the same view, computed once per receipt.
    const HIDDEN_INFORMATION: bool = false;

    type Content = Rules;
    type Config = MatchConfig;
    type State = KitState<G>;
    type Action = Action<G>;
    type Event = KitEvent<G>;
    type View = KitView<G>;
    type Plan = KitPlan<G>;

    fn load_content(source: &BundleSource) -> Result<Rules, Vec<ContentProblem>> {
        load_rules(source, G::ID)
    }

    fn seat_range(_: &Rules, _: &MatchConfig) -> (u16, u16) {
        (2, 2)
    }

    /// Two commanders, one per seat, equal priorities, registered seat 0 then seat 1, each
    /// taking its turns under the match's turn config; the loop starts, so seat 0's first turn
    /// is active (turn index 1) before any command.
    fn setup(rules: &Rules, setup: MatchSetup<'_, MatchConfig>) -> Result<KitState<G>, SetupError> {
        if setup.seats != 2 {
            return Err(SetupError::new(
                "seat_count",
                format!("{} takes 2 seats, not {}", G::ID, setup.seats),
            ));
        }
        let config = setup
            .config
            .turn_config
            .as_ref()
            .unwrap_or(&rules.default_turn_config);
        // The content's own copy of the id, when it has one: it resolves without comparing text.
        let config = rules.turn_configs.id(config).unwrap_or(config).clone();
        let starting = |config: &TurnConfigId| starting_turns::<G>(rules, config).ok();
        let turns = match rules.starts.get(&rules.turn_configs, &config, starting) {
            Some(turns) => turns.clone(),
            // Not a config of the content: building it says why (`unknown_turn_config`).
            None => starting_turns::<G>(rules, &config).map_err(setup_error)?,
        };
        let deadline_tick = referee::deadline(&turns, rules);
        Ok(KitState {
            board: G::start(),
            turns,
            result: None,
            deadline_tick,
        })
    }

    fn attach(rules: &Rules, state: &mut KitState<G>) -> Result<(), SetupError> {
        if !G::well_formed(&state.board) {
            return Err(SetupError::new(
                "inconsistent_state",
                format!("the stored board is not a {} board", G::ID),
            ));
        }
        state
            .turns
            .verify(&rules.turn_configs)
            .map_err(setup_error)?;
        if state.deadline_tick != referee::deadline(&state.turns, rules) {
            return Err(SetupError::new(
                "inconsistent_state",
                "the stored deadline tick is not the turn clock's",
            ));
        }
        Ok(())
    }

    fn is_system_action(action: &Action<G>) -> bool {
        action.is_system()
    }

    /// While the match runs: the seat to move gets the play kind (with the values open now) and
    /// `skip` when its turn config is skippable; both seats get `resign`. The list reflects the
    /// state as of the last command: a turn whose deadline has passed but whose `Timeout` has not
    /// been applied yet is still listed as running.
    fn legal_actions(rules: &Rules, state: &KitState<G>, seat: Seat) -> Vec<ActionKind> {
        if state.result.is_some() {
            return Vec::new();
        }
        let mut kinds = Vec::new();
        if state.turns.check_play(seat).is_ok() {
            kinds.push(ActionKind {
                kind: G::PLAY_KIND.into(),
                params: G::play_params(&state.board),
            });
        }
        if state.turns.check_skip(&rules.turn_configs, seat).is_ok() {
            kinds.push(ActionKind::bare("skip"));
        }
        kinds.push(ActionKind::bare("resign"));
        kinds
    }

    /// Every move of the seat to move. Never `skip` or `resign`: a bot gains nothing by either,
    /// and a uniformly random bot that could skip would mostly stall. Clients learn of them from
    /// [`legal_actions`](Game::legal_actions).
    fn enumerate_actions(_: &Rules, state: &KitState<G>, seat: Seat) -> Vec<Action<G>> {
        if state.result.is_some() || state.turns.check_play(seat).is_err() {
            return Vec::new();
        }
        G::moves(&state.board, seat).map(Action::Play).collect()
    }

    /// The same moves as [`enumerate_actions`](Game::enumerate_actions), into the caller's list.
    fn enumerate_actions_into(
        _: &Rules,
        state: &KitState<G>,
        seat: Seat,
        out: &mut Vec<Action<G>>,
    ) {
        out.clear();
        if state.result.is_some() || state.turns.check_play(seat).is_err() {
            return;
        }
        out.extend(G::moves(&state.board, seat).map(Action::Play));
    }

    fn check(
        rules: &Rules,
        state: &KitState<G>,
        ctx: CommandContext,
        action: &Action<G>,
    ) -> Result<KitPlan<G>, Rejection> {
        referee::judge::<G>(rules, state, ctx, action).map_err(Rejection::from)
    }

    fn commit(
        _: &Rules,
        state: &mut KitState<G>,
        _: CommandContext,
        plan: KitPlan<G>,
    ) -> Vec<KitEvent<G>> {
        *state = plan.state;
        plan.events
    }

    /// Plays the action on the state itself, recording the events straight into `events`; a
    /// copy of the state before is kept and put back on a refusal. No plan, no list of its own.
    fn apply(
        rules: &Rules,
        state: &mut KitState<G>,
        ctx: CommandContext,
        action: &Action<G>,
        events: &mut Vec<KitEvent<G>>,
    ) -> Result<(), Rejection> {
        referee::apply_in_place::<G>(rules, state, ctx, action, events, true)
            .map_err(Rejection::from)
    }

    /// [`apply`](Self::apply) with a sink that keeps no signals, so the turn framework never
    /// makes them (a turn's status and timer bookkeeping, the command echoes: seven of a
    /// move's ten events).
    fn apply_lean(
        rules: &Rules,
        state: &mut KitState<G>,
        ctx: CommandContext,
        action: &Action<G>,
        events: &mut Vec<KitEvent<G>>,
    ) -> Result<(), Rejection> {
        referee::apply_in_place::<G>(rules, state, ctx, action, events, false)
            .map_err(Rejection::from)
    }

    fn view(_: &Rules, state: &KitState<G>, _: Viewer) -> KitView<G> {
        let current = state.turns.clock().current();
        KitView {
            board: G::view(&state.board),
            to_move: state.to_move(),
            turn_index: state.turn_index(),
            deadline_tick: state.deadline_tick,
            turn_config: current.config.clone(),
            result: state.result.clone(),
        }
    }

    fn status(_: &Rules, state: &KitState<G>) -> MatchStatus {
        match &state.result {
            Some(result) => MatchStatus::Finished {
                outcome: result.outcome(),
            },
            None => MatchStatus::Active,
        }
    }

    fn deadline_tick(state: &KitState<G>) -> Option<Tick> {
        state.deadline_tick
    }

    /// The turn framework's bookkeeping events (status changes, activation, timer reset, the
    /// echo of the command) are signals; turns beginning and ending, rounds, the game's own
    /// events and the match's end are what clients render.
    fn is_signal(event: &KitEvent<G>) -> bool {
        matches!(event, KitEvent::Turn { event } if event.is_signal())
    }

    fn fingerprint_form(state: &KitState<G>) -> impl Serialize + '_ {
        crate::state::LeanKitState(state)
    }

    /// The lean form's bytes by hand: the same as serializing it, at a fraction of the cost.
    fn write_fingerprint_form(
        state: &KitState<G>,
        writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
    ) -> Result<(), turnstile_core::determinism::CanonicalError> {
        crate::state::write_lean(state, writer)
    }

    /// The view by hand when the game writes its board view's fields
    /// ([`KitGame::WRITES_VIEW_FIELDS`]), else serialized: the same bytes either way.
    fn write_view(
        rules: &Rules,
        state: &KitState<G>,
        viewer: Viewer,
        writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
    ) -> Result<(), turnstile_core::determinism::CanonicalError> {
        if !G::WRITES_VIEW_FIELDS {
            return writer.value(&Self::view(rules, state, viewer));
        }
        crate::state::write_view(state, writer)
    }

    /// Turn events by hand, the rest serialized: the same bytes as serializing the event.
    fn write_event(
        event: &KitEvent<G>,
        writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
    ) -> Result<(), turnstile_core::determinism::CanonicalError> {
        event.write_canonical(writer)
    }
}
