//! A Duel match's state, actions and events, and the rules that move it: playing cards, the
//! stack and priority, and the activation lifecycle (exit, end hooks, next actor, start
//! hooks, phase entry) composed in one command.

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::{StreamTable, Streams};
use turnstile_core::{CommandContext, Rejection, Seat, Tick};
use turnstile_effects::{EffectLedger, Event, StatusBoard, Step, Target, ThingId, Trigger};
use turnstile_formula::Value;
use turnstile_lifecycle::{
    LifecycleError, LifecycleHooks, LifecycleState, RoundHook, END_TURN_REASON,
};
use turnstile_phases::{
    presets::CLOSES_WINDOW_TAG, ActivationStep, ExitReason, PassOutcome, PhaseCommand,
    PhaseGraphReducer, PhaseRecord, PhaseState, PriorityWindow, StackEntry, WindowAfter,
};
use turnstile_turns::{SkipReason, TurnEndReason, TurnEvent, TurnStatus, TurnType};

use crate::content::DuelContent;
use crate::host::{Host, Resolving, RuleError};
use crate::{card_tags, CHANNEL_TAG, ENDS_TURN_TAG};
use crate::{CLOCK_RESUMED, END_TURN, JOIN, PASS_PRIORITY, PLAY_CARD, RESIGN, SKIP, TIMEOUT};

/// One card in a zone: a thing id (unique in the match) and the card it is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardInstance {
    /// The thing id, numbered at setup in deck-list order (before the shuffle).
    pub thing: u32,
    /// The card id.
    pub card_id: String,
    /// The seat a card played from the hand aims at, while it waits on the stack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Seat>,
}

/// A unit on a board: its thing id, its card, and the health it has left. Its attack is read
/// from the card in the pinned content, like every other definition.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnitInstance {
    /// The thing id of the card it came from.
    pub thing: u32,
    /// The card id.
    pub card_id: String,
    /// Health left; the unit dies (to its owner's discard pile) at 0.
    pub health: i64,
}

impl UnitInstance {
    /// The card it came from, as it goes to the discard pile.
    pub fn card(&self) -> CardInstance {
        CardInstance {
            thing: self.thing,
            card_id: self.card_id.clone(),
            target: None,
        }
    }
}

/// One seat's side of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatState {
    /// Health; the seat loses at 0.
    pub health: i64,
    /// The most health healing restores.
    pub max_health: i64,
    /// Mana to pay card costs; refreshed at activation start.
    pub mana: i64,
    /// The mana a refresh restores to.
    pub max_mana: i64,
    /// Cards in hand (hidden from the other seat).
    pub hand: Vec<CardInstance>,
    /// The deck, top first (its order hidden from everyone).
    pub deck: Vec<CardInstance>,
    /// The discard pile, public.
    pub discard: Vec<CardInstance>,
    /// Units in play, left to right, public.
    pub board: Vec<UnitInstance>,
    /// How many draws found the deck empty.
    pub fatigue: u32,
    /// Whether the seat is at the table: waiting to join, playing, or out.
    pub standing: Standing,
    /// What every striking unit of the seat adds to its attack: a **rule** resource, never
    /// changed in place but rebuilt from the effect ledger (a Banner Bearer's lasting bonus
    /// is layer 2: it stays after the unit that gave it dies). 0 is not written.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub attack_bonus: i64,
    /// A `channel` card the seat has played and not yet released: its next activation is a
    /// `Countdown` (play on hold), at whose end the card resolves. Public: it was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
}

/// A delayed spell being channelled (the `channel` tag).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Channel {
    /// The card, with the seat it aims at.
    pub card: CardInstance,
    /// Whether the countdown activation has begun (the card resolves when it ends).
    pub counting: bool,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// Whether a seat is at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Standing {
    /// A late seat that has not joined yet: not in the turn order, not a target.
    Waiting,
    /// In the match: takes activations, can be targeted.
    Playing,
    /// Eliminated (health 0, resigned, forfeited, never joined): takes no more turns.
    Out,
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DuelResult {
    /// `health_zero`, `resign` or `turn_limit`.
    pub kind: String,
    /// The winners (none for a draw).
    pub winners: Vec<Seat>,
}

/// A Duel match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DuelState {
    /// Both seats.
    pub seats: Vec<SeatState>,
    /// The turn owner.
    pub active: Seat,
    /// Activations started so far.
    pub turn: u32,
    /// The round: both seats' activations.
    pub round: u32,
    /// The phase cursor (sequence id, content revision, cursor only).
    pub phase: PhaseState,
    /// Priority and the stack, held apart from the turn.
    pub priority: PriorityWindow<CardInstance>,
    /// Commands the current activation has accepted (`expectedStep`).
    pub step: ActivationStep,
    /// Statuses with durations.
    pub statuses: StatusBoard,
    /// Lingering rule changes (none in the default content).
    pub ledger: EffectLedger,
    /// The match's random streams.
    pub streams: Streams,
    /// The result, once over.
    pub result: Option<DuelResult>,
    /// The match lifecycle: the turn clock, the commander loop, the round marks.
    pub lifecycle: LifecycleState,
    /// The current activation's deadline under the pinned clock, derived after every command
    /// (`Game::deadline_tick` is not given the content).
    pub deadline_tick: Option<Tick>,
}

impl DuelState {
    /// The seats at the table now, in seat order.
    pub fn playing(&self) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|i| {
                self.seats
                    .get(*i)
                    .is_some_and(|s| s.standing == Standing::Playing)
            })
            .filter_map(|i| u16::try_from(i).ok().map(Seat))
            .collect()
    }

    /// The standing of `seat` (`Out` for a seat the match does not have).
    pub fn standing(&self, seat: Seat) -> Standing {
        self.seats
            .get(usize::from(seat.0))
            .map_or(Standing::Out, |s| s.standing)
    }

    /// The seat a play or a unit of `seat` strikes unless told otherwise: the next seat after
    /// it, in seat order, that is at the table.
    pub fn next_foe(&self, seat: Seat) -> Option<Seat> {
        let n = u16::try_from(self.seats.len()).unwrap_or(u16::MAX);
        (1..n)
            .map(|k| Seat((seat.0 + k) % n.max(1)))
            .find(|s| self.standing(*s) == Standing::Playing)
    }

    /// The match-wide activation index: what a `Timeout` names.
    pub fn turn_index(&self) -> u64 {
        self.lifecycle.turn_index()
    }
}

/// What a seat may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "SCREAMING_SNAKE_CASE",
    rename_all_fields = "camelCase"
)]
pub enum DuelAction {
    /// Play the card at this index of the hand.
    PlayCard {
        /// The hand index, from 0.
        hand: u16,
        /// The seat it aims at; absent: the next seat at the table (see
        /// [`DuelState::next_foe`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Seat>,
    },
    /// End the activation.
    EndTurn,
    /// Pass priority in a response window.
    PassPriority,
    /// Give up the rest of the activation, when the match's clock is skippable; it leaves the
    /// activation through the phase graph's `ActivationExit` like `END_TURN`, with reason `Skip`.
    Skip,
    /// A late seat takes its place at the table; it enters the turn order at the next round.
    Join,
    /// Concede.
    Resign,
    /// The system's `Timeout` of the activation with this match-wide index
    /// (command id `timeout:<turn index>`).
    Timeout {
        /// The activation the server saw time out.
        turn_index: u64,
    },
    /// The system's `ClockResumed` after an outage: deadlines move later by the outage.
    ClockResumed {
        /// The previous node's last heartbeat tick.
        last_heartbeat_tick: Tick,
        /// The tick the new node took over at.
        takeover_tick: Tick,
    },
}

impl DuelAction {
    /// The action's type as phases name it.
    pub fn action_type(&self) -> &'static str {
        match self {
            DuelAction::PlayCard { .. } => PLAY_CARD,
            DuelAction::EndTurn => END_TURN,
            DuelAction::PassPriority => PASS_PRIORITY,
            DuelAction::Skip => SKIP,
            DuelAction::Join => JOIN,
            DuelAction::Resign => RESIGN,
            DuelAction::Timeout { .. } => TIMEOUT,
            DuelAction::ClockResumed { .. } => CLOCK_RESUMED,
        }
    }

    /// A play of the card at `hand` at the default target.
    pub fn play(hand: u16) -> DuelAction {
        DuelAction::PlayCard { hand, target: None }
    }
}

/// What happened, in order. Drawn card ids are redacted for everyone but the drawer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum DuelEvent {
    /// A seat's activation began.
    ActivationStarted {
        /// The turn owner.
        seat: Seat,
        /// The activation number.
        turn: u32,
        /// The round.
        round: u32,
    },
    /// A seat's activation ended.
    ActivationEnded {
        /// The turn owner.
        seat: Seat,
        /// Why.
        reason: ExitReason,
    },
    /// A card was drawn; `card` is `None` in what another seat or a spectator receives.
    CardDrawn {
        /// The drawer.
        seat: Seat,
        /// The card, for the drawer only.
        card: Option<String>,
    },
    /// A card drawn into a full hand was discarded face up.
    CardBurned {
        /// The drawer.
        seat: Seat,
        /// The card.
        card: String,
    },
    /// A draw found the deck empty.
    Fatigue {
        /// The drawer.
        seat: Seat,
        /// The damage dealt.
        damage: i64,
    },
    /// A card was played (paid and revealed).
    CardPlayed {
        /// Who played it.
        seat: Seat,
        /// The card.
        card: String,
        /// Its thing id.
        thing: u32,
        /// Mana paid.
        cost: u32,
        /// Whether it went on the stack rather than resolving at once.
        stacked: bool,
    },
    /// A card's effects resolved.
    CardResolved {
        /// Its controller.
        seat: Seat,
        /// The card.
        card: String,
    },
    /// A `channel` card was set aside: its controller's next activation is a countdown, at
    /// whose end it resolves.
    CardChanneled {
        /// Its controller.
        seat: Seat,
        /// The card.
        card: String,
    },
    /// A stacked card was discarded unresolved because the activation ended.
    CardFizzled {
        /// Its controller.
        seat: Seat,
        /// The card.
        card: String,
    },
    /// Steps of the one effect executor.
    Effects {
        /// The steps.
        steps: Vec<Step>,
    },
    /// Phase transitions and the effects they ran.
    Phase {
        /// The reducer's records.
        records: Vec<PhaseRecord<Step>>,
    },
    /// A seat passed priority.
    PriorityPassed {
        /// Who passed.
        seat: Seat,
        /// Who holds priority now.
        holder: Seat,
    },
    /// A unit struck, at the end of its controller's activation.
    UnitAttacked {
        /// Its controller.
        seat: Seat,
        /// The attacking unit's thing id.
        unit: u32,
        /// Its card.
        card: String,
        /// The unit struck (its thing id), or `None` when the opposing seat was struck.
        defender: Option<u32>,
        /// The damage dealt (0 when a shield absorbed it).
        damage: i64,
    },
    /// A unit reached 0 health and went to its owner's discard pile.
    UnitDied {
        /// Its controller.
        seat: Seat,
        /// Its thing id.
        unit: u32,
        /// Its card.
        card: String,
    },
    /// A status ran out.
    StatusExpired {
        /// The bearer.
        seat: Seat,
        /// The status.
        status: String,
    },
    /// A seat resigned.
    Resigned {
        /// Who.
        seat: Seat,
    },
    /// A late seat took its place; it acts from the next round.
    SeatJoined {
        /// Who.
        seat: Seat,
    },
    /// A seat left the match: `health_zero`, `resign`, `timeout` (forfeit) or `did_not_join`.
    SeatEliminated {
        /// Who.
        seat: Seat,
        /// Why.
        reason: String,
    },
    /// The turn framework: activations began and ended (with reasons), the clock, the
    /// commander loop (rounds, joins, skipped commanders, initiative).
    Turn {
        /// The framework's event.
        event: TurnEvent<(), ()>,
    },
    /// The match ended.
    MatchEnded {
        /// How.
        result: DuelResult,
    },
}

fn phase_error(e: impl std::fmt::Display, code: &'static str) -> RuleError {
    RuleError::new(code, e.to_string())
}

impl From<RuleError> for Rejection {
    fn from(e: RuleError) -> Rejection {
        Rejection::new(e.code, e.message)
    }
}

fn lifecycle_error(e: LifecycleError) -> RuleError {
    RuleError::new(known_code(&e.code), e.message)
}

/// The turn framework's and the lifecycle's stable codes, as `'static` rule codes.
fn known_code(code: &str) -> &'static str {
    const CODES: &[&str] = &[
        "turn_not_active",
        "not_your_turn",
        "resolving",
        "not_play_turn",
        "not_skippable",
        "stale_timeout",
        "unknown_turn",
        "timeout_not_due",
        "tick_went_backwards",
        "turn_in_progress",
        "duplicate_commander",
        "unknown_commander",
        "unknown_seat",
        "unknown_turn_config",
        "signal_depth_exceeded",
        "activation_limit_exceeded",
        "nested_clock_advance",
        "bad_initiative",
        "initiative_out_of_range",
        "effect_failed",
        "phase_failed",
    ];
    CODES
        .iter()
        .find(|c| **c == code)
        .copied()
        .unwrap_or("lifecycle_failed")
}

/// What a match is set up with.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    /// The phase sequence.
    pub sequence_id: &'a str,
    /// Each seat's deck, in seat order.
    pub decks: &'a [&'a str],
    /// Seats that start out waiting to join.
    pub late_seats: &'a [Seat],
    /// The clock every activation runs under.
    pub clock: Option<&'a str>,
    /// The match seed.
    pub seed: &'a str,
}

/// Sets a match up: decks numbered and shuffled on the `deck` stream, starting hands drawn by
/// the seats at the table, their commanders registered, the loop started (the first
/// activation begins).
pub fn setup(content: &DuelContent, setup: Setup<'_>) -> Result<DuelState, RuleError> {
    static TABLE: StreamTable = StreamTable::new(crate::content::STREAMS);
    let mut streams =
        Streams::new(setup.seed, &TABLE).map_err(|e| RuleError::new("bad_seed", e.to_string()))?;
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let phase = reducer
        .initial_state(setup.sequence_id)
        .map_err(|e| RuleError::new(e.code(), e.to_string()))?;
    let lifecycle_rules = &content.rules.lifecycle;
    let clock = lifecycle_rules
        .clock(setup.clock)
        .map_err(|p| RuleError::new("unknown_clock", p.message))?;
    let mut seats = Vec::new();
    let mut thing = 0u32;
    for (i, deck_id) in setup.decks.iter().enumerate() {
        let deck = content
            .decks
            .get(*deck_id)
            .ok_or_else(|| RuleError::new("unknown_deck", format!("no deck `{deck_id}`")))?;
        let mut cards: Vec<CardInstance> = deck
            .cards
            .iter()
            .map(|card_id| {
                thing += 1;
                CardInstance {
                    thing,
                    card_id: card_id.clone(),
                    target: None,
                }
            })
            .collect();
        streams
            .shuffle("deck", &mut cards)
            .map_err(|e| RuleError::new("stream", e.to_string()))?;
        let health = i64::from(content.rules.starting_health);
        let late = setup.late_seats.iter().any(|s| usize::from(s.0) == i);
        seats.push(SeatState {
            health,
            max_health: health,
            mana: 0,
            max_mana: 0,
            hand: Vec::new(),
            deck: cards,
            discard: Vec::new(),
            board: Vec::new(),
            fatigue: 0,
            attack_bonus: 0,
            channel: None,
            standing: if late {
                Standing::Waiting
            } else {
                Standing::Playing
            },
        });
    }
    let all: Vec<Seat> = (0..seats.len())
        .filter_map(|i| u16::try_from(i).ok().map(Seat))
        .collect();
    let mut state = DuelState {
        seats,
        active: Seat(0),
        turn: 0,
        round: 0,
        phase,
        priority: PriorityWindow::new(all.clone(), Seat(0))
            .map_err(|e| RuleError::new(e.code(), e.to_string()))?,
        step: ActivationStep::new(),
        statuses: StatusBoard::new(),
        ledger: EffectLedger::new(),
        streams,
        result: None,
        lifecycle: LifecycleState::new(all.iter().copied(), lifecycle_rules),
        deadline_tick: None,
    };
    let starting = state.playing();
    let mut lifecycle = take_lifecycle(&mut state);
    let mut host = Host::new(content, &mut state);
    for (k, seat) in starting.iter().enumerate() {
        draw_starting_hand(&mut host, *seat, k > 0)?;
    }
    let schema = crate::content::initiative_schema();
    lifecycle
        .drive(lifecycle_rules, &schema, &mut host, |turns, driver| {
            for seat in &starting {
                turns.add_commander(LifecycleState::commander(*seat, &clock))?;
            }
            turns.start_loop(driver).map(|_| ())
        })
        .map_err(lifecycle_error)?;
    drop(host);
    put_lifecycle(content, &mut state, lifecycle);
    Ok(state)
}

fn draw_starting_hand(host: &mut Host<'_>, seat: Seat, bonus: bool) -> Result<(), RuleError> {
    let rules = &host.content.rules;
    let n = rules.starting_hand.saturating_add(if bonus {
        rules.second_seat_bonus_cards
    } else {
        0
    });
    let mut caused = Vec::new();
    turnstile_effects::EffectHost::draw(host, Target::Seat(seat), i64::from(n), &mut caused)
        .map_err(|e| RuleError::new("setup_draw", e.to_string()))?;
    Ok(())
}

/// Takes the lifecycle out of `state`, so the host can borrow the rest while it runs.
fn take_lifecycle(state: &mut DuelState) -> LifecycleState {
    let empty = LifecycleState {
        turns: turnstile_turns::MatchTurns::new([]),
        rounds: turnstile_lifecycle::RoundMarks::default(),
    };
    std::mem::replace(&mut state.lifecycle, empty)
}

/// Puts the lifecycle back and derives the deadline from it.
fn put_lifecycle(content: &DuelContent, state: &mut DuelState, lifecycle: LifecycleState) {
    state.deadline_tick = if state.result.is_none() {
        lifecycle.deadline_tick(&content.rules.lifecycle)
    } else {
        None
    };
    state.lifecycle = lifecycle;
}

/// Runs `action` on `state` (a copy: on an error the caller drops it).
pub fn apply(
    content: &DuelContent,
    state: &mut DuelState,
    ctx: CommandContext,
    action: &DuelAction,
) -> Result<Vec<DuelEvent>, RuleError> {
    let mut lifecycle = take_lifecycle(state);
    let mut host = Host::new(content, state);
    let result = run(&mut host, &mut lifecycle, ctx, action);
    let events = std::mem::take(&mut host.events);
    drop(host);
    put_lifecycle(content, state, lifecycle);
    result.map(|()| events)
}

fn drive<R>(
    host: &mut Host<'_>,
    lifecycle: &mut LifecycleState,
    op: impl FnOnce(
        &mut turnstile_turns::Turns<'_, (), ()>,
        &mut turnstile_lifecycle::Lifecycle<'_, Host<'_>>,
    ) -> Result<R, turnstile_turns::TurnError>,
) -> Result<R, RuleError> {
    let content = host.content;
    let schema = crate::content::initiative_schema();
    let result = lifecycle
        .drive(&content.rules.lifecycle, &schema, host, op)
        .map_err(lifecycle_error);
    if let Some(e) = host.failure.take() {
        return Err(e);
    }
    result
}

fn run(
    host: &mut Host<'_>,
    lifecycle: &mut LifecycleState,
    ctx: CommandContext,
    action: &DuelAction,
) -> Result<(), RuleError> {
    match action {
        DuelAction::Timeout { turn_index } => {
            let turn_index = *turn_index;
            return drive(host, lifecycle, |t, d| t.timeout(d, turn_index, ctx.tick));
        }
        DuelAction::ClockResumed {
            last_heartbeat_tick,
            takeover_tick,
        } => {
            let (from, to) = (*last_heartbeat_tick, *takeover_tick);
            return drive(host, lifecycle, |t, d| t.resume_clock(d, from, to));
        }
        _ => {}
    }
    let seat = ctx
        .seat
        .ok_or_else(|| RuleError::new("seat_required", "this action needs a seat"))?;
    // Time first: an activation whose deadline is at or before the command's tick has ended
    // with `Time`, recorded in this command's receipt, and the command is judged after it.
    // An untimed match keeps no tick in its state (the tick decides nothing there), so a
    // preview's state fingerprint is the commit's (docs/turns.md, "Previews and ticks").
    if lifecycle
        .turns
        .can_time_out(&host.content.rules.lifecycle.clocks)
    {
        drive(host, lifecycle, |t, d| t.advance_to(d, ctx.tick))?;
    }
    if host.state.result.is_some() {
        return Err(RuleError::new("match_over", "the match is over"));
    }
    crate::filter(host.content, host.state, lifecycle, seat, action)
        .map_err(|r| RuleError::new(known_rejection(r.code), r.message))?;
    match action {
        DuelAction::Resign => {
            host.events.push(DuelEvent::Resigned { seat });
            eliminate(host, seat, "resign");
            decide(host, "resign");
        }
        DuelAction::Join => {
            if let Some(s) = host.state.seats.get_mut(usize::from(seat.0)) {
                s.standing = Standing::Playing;
            }
            host.events.push(DuelEvent::SeatJoined { seat });
            draw_starting_hand(host, seat, true)?;
            let clock = host
                .content
                .rules
                .lifecycle
                .clock(None)
                .map_err(|p| RuleError::new("unknown_clock", p.message))?;
            let clock = lifecycle
                .turns
                .clock()
                .current()
                .config
                .clone()
                .unwrap_or(clock);
            drive(host, lifecycle, |t, _| {
                t.add_commander(LifecycleState::commander(seat, &clock))
            })?;
            return Ok(());
        }
        DuelAction::PlayCard { hand, target } => {
            // The turn owner's own play of an `ends_turn` card is the turn framework's Play:
            // the activation turns `Resolving` (its clock stops, the owner's commands are
            // refused) until the card resolves, at once or when the response window's stack
            // does; then the turn ends with `Resolved`.
            let ends = !host.state.priority.is_open()
                && card_tags(host.content, host.state, seat, *hand).contains(&ENDS_TURN_TAG);
            if ends {
                drive(host, lifecycle, |t, d| t.play(d, seat, ()))?;
            }
            play_card(host, seat, *hand, *target)?;
        }
        DuelAction::PassPriority => pass_priority(host, seat)?,
        DuelAction::EndTurn => {
            host.state.step.accept();
            return drive(host, lifecycle, |t, d| {
                t.end_turn(d, TurnEndReason::Custom(END_TURN_REASON.into()))
            });
        }
        DuelAction::Skip => {
            host.state.step.accept();
            return drive(host, lifecycle, |t, d| t.skip(d, seat, ()));
        }
        DuelAction::Timeout { .. } | DuelAction::ClockResumed { .. } => {}
    }
    // Seats a play or a resignation took out of the match leave the loop now.
    drive(host, lifecycle, |_, _| Ok(()))?;
    // A `Resolving` activation whose stack is empty has finished resolving: it ends.
    if host.state.result.is_none()
        && !host.state.priority.is_open()
        && lifecycle.turns.clock().turn_in_progress()
        && lifecycle.turns.clock().current().status == TurnStatus::Resolving
    {
        drive(host, lifecycle, |t, d| t.resolve(d))?;
    }
    resume_stalled(host, lifecycle)
}

/// A loop that stalled (every seat at the table stunned for a whole round) is advanced again:
/// each skipped round counts down the stuns, so it starts again within a few rounds.
fn resume_stalled(host: &mut Host<'_>, lifecycle: &mut LifecycleState) -> Result<(), RuleError> {
    for _ in 0..8 {
        if host.state.result.is_some()
            || lifecycle.turns.clock().turn_in_progress()
            || !lifecycle.turns.order().is_running()
        {
            return Ok(());
        }
        drive(host, lifecycle, |t, d| t.advance_loop(d).map(|_| ()))?;
    }
    Ok(())
}

/// A rejection's code, as a `'static` rule code (every code the filter gives is one).
fn known_rejection(code: std::borrow::Cow<'static, str>) -> &'static str {
    match code {
        std::borrow::Cow::Borrowed(c) => c,
        std::borrow::Cow::Owned(_) => "rejected",
    }
}

fn finish(host: &mut Host<'_>, kind: &str, winners: Vec<Seat>) {
    if host.state.result.is_none() {
        let result = DuelResult {
            kind: kind.into(),
            winners,
        };
        host.events.push(DuelEvent::MatchEnded {
            result: result.clone(),
        });
        host.state.result = Some(result);
    }
}

/// Takes `seat` out of the match: it leaves the turn order at once (its activation, if it was
/// acting, ends), a response window it was part of closes (its cards fizzle).
fn eliminate(host: &mut Host<'_>, seat: Seat, reason: &str) {
    let Some(s) = host.state.seats.get_mut(usize::from(seat.0)) else {
        return;
    };
    if s.standing == Standing::Out {
        return;
    }
    s.standing = Standing::Out;
    host.events.push(DuelEvent::SeatEliminated {
        seat,
        reason: reason.into(),
    });
    host.departures.push(seat);
    if host.state.priority.is_open() {
        fizzle_stack(host);
    }
    let playing = host.state.playing();
    if !playing.is_empty() {
        let holder = if playing.contains(&host.state.active) {
            host.state.active
        } else {
            playing.first().copied().unwrap_or(host.state.active)
        };
        if let Ok(window) = PriorityWindow::new(playing, holder) {
            host.state.priority = window;
        }
    }
}

/// Ends the match when at most one seat is at the table and none is waiting to join: the one
/// left wins (`kind` says how the last other left); nobody left is a draw.
fn decide(host: &mut Host<'_>, kind: &str) {
    if host.state.result.is_some() {
        return;
    }
    let playing = host.state.playing();
    let waiting = host
        .state
        .seats
        .iter()
        .any(|s| s.standing == Standing::Waiting);
    if playing.is_empty() || (playing.len() == 1 && !waiting) {
        finish(host, kind, playing);
    }
}

/// Takes every seat at the table at 0 health out of the match and decides it; true when it
/// is over.
fn check_health(host: &mut Host<'_>) -> bool {
    if host.state.result.is_some() {
        return true;
    }
    let dead: Vec<Seat> = host
        .state
        .playing()
        .into_iter()
        .filter(|s| {
            host.state
                .seats
                .get(usize::from(s.0))
                .is_some_and(|x| x.health <= 0)
        })
        .collect();
    if dead.is_empty() {
        return false;
    }
    for seat in dead {
        eliminate(host, seat, "health_zero");
    }
    decide(host, "health_zero");
    host.state.result.is_some()
}

fn command_phase(host: &mut Host<'_>, command_type: &str, tags: &[&str]) -> Result<(), RuleError> {
    let content = host.content;
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let state = host.state.phase.clone();
    let outcome = reducer
        .command(&state, PhaseCommand { command_type, tags }, host)
        .map_err(|e| phase_error(&e, e.code()))?;
    host.state.phase = outcome.state;
    if !outcome.records.is_empty() {
        host.events.push(DuelEvent::Phase {
            records: outcome.records,
        });
    }
    Ok(())
}

/// A played card resolves: a `channel` card is set aside instead (see [`Channel`]), to
/// resolve when its controller's countdown activation ends ([`release_channel`]).
fn resolve_card(host: &mut Host<'_>, card: CardInstance, seat: Seat) -> Result<(), RuleError> {
    let channels = host
        .content
        .card(&card.card_id)
        .is_some_and(|c| c.tag_list().any(|t| t == CHANNEL_TAG));
    if channels {
        if let Some(s) = host.state.seats.get_mut(usize::from(seat.0)) {
            host.events.push(DuelEvent::CardChanneled {
                seat,
                card: card.card_id.clone(),
            });
            s.channel = Some(Channel {
                card,
                counting: false,
            });
        }
        return Ok(());
    }
    run_card(host, card, seat)
}

/// The end of a countdown activation: the channelled card resolves now.
fn release_channel(host: &mut Host<'_>, seat: Seat) -> Result<(), RuleError> {
    let ready = host
        .state
        .seats
        .get(usize::from(seat.0))
        .and_then(|s| s.channel.as_ref())
        .is_some_and(|c| c.counting);
    if !ready {
        return Ok(());
    }
    let channel = host
        .state
        .seats
        .get_mut(usize::from(seat.0))
        .and_then(|s| s.channel.take());
    match channel {
        Some(c) => run_card(host, c.card, seat),
        None => Ok(()),
    }
}

fn run_card(host: &mut Host<'_>, mut card: CardInstance, seat: Seat) -> Result<(), RuleError> {
    // The seat it aimed at, if still at the table; else the next foe of its controller.
    let aimed = card
        .target
        .take()
        .filter(|t| host.state.standing(*t) == Standing::Playing)
        .or_else(|| host.state.next_foe(seat));
    let previous = std::mem::replace(&mut host.resolving, Resolving::Card(card.clone(), seat));
    let mut event = Event::new(Trigger::OnCardPlayed)
        .by(seat)
        .from(Target::Thing(ThingId(card.thing)));
    if let Some(foe) = aimed {
        event = event.at(Target::Seat(foe));
    }
    let result = host.resolve(event);
    host.resolving = previous;
    result?;
    host.events.push(DuelEvent::CardResolved {
        seat,
        card: card.card_id.clone(),
    });
    let unit_health = host
        .content
        .card(&card.card_id)
        .filter(|c| c.kind == crate::content::CardKind::Unit)
        .map(|c| i64::from(c.health.unwrap_or(1)));
    let limit = usize::try_from(host.content.rules.board_limit).unwrap_or(usize::MAX);
    if let Some(s) = host.state.seats.get_mut(usize::from(seat.0)) {
        if let Some(health) = unit_health.filter(|_| s.board.len() < limit) {
            s.board.push(UnitInstance {
                thing: card.thing,
                card_id: card.card_id,
                health,
            });
        } else {
            s.discard.push(card);
        }
    }
    check_health(host);
    Ok(())
}

fn play_card(
    host: &mut Host<'_>,
    seat: Seat,
    hand: u16,
    target: Option<Seat>,
) -> Result<(), RuleError> {
    if let Some(t) = target {
        if t == seat || host.state.standing(t) != Standing::Playing {
            return Err(RuleError::new(
                "bad_target",
                format!("seat {} is not an opponent at the table", t.0),
            ));
        }
    }
    let content = host.content;
    let s = host
        .state
        .seats
        .get_mut(usize::from(seat.0))
        .ok_or_else(|| RuleError::new("unknown_seat", "no such seat"))?;
    let index = usize::from(hand);
    let mut card =
        s.hand.get(index).cloned().ok_or_else(|| {
            RuleError::new("no_such_card", format!("the hand has no card {hand}"))
        })?;
    card.target = target;
    let definition = content
        .card(&card.card_id)
        .ok_or_else(|| RuleError::new("unknown_card", card.card_id.clone()))?;
    let cost = definition.cost;
    if s.mana < i64::from(cost) {
        return Err(RuleError::new(
            "not_enough_mana",
            format!(
                "`{}` costs {cost} mana, the seat has {}",
                card.card_id, s.mana
            ),
        ));
    }
    if s.channel.is_some() && definition.tag_list().any(|t| t == CHANNEL_TAG) {
        return Err(RuleError::new(
            "already_channeling",
            format!(
                "`{}` channels, and the seat is already channelling a card: one at a time",
                card.card_id
            ),
        ));
    }
    if definition.kind == crate::content::CardKind::Unit
        && s.board.len() >= usize::try_from(content.rules.board_limit).unwrap_or(usize::MAX)
    {
        return Err(RuleError::new(
            "board_full",
            "the board has no room for another unit",
        ));
    }
    s.mana -= i64::from(cost);
    s.hand.remove(index);
    let tags: Vec<&str> = definition.tag_list().collect();
    host.state.step.accept();
    let window_open = host.state.priority.is_open();
    let stacked = window_open || content.has_response_windows(&host.state.phase.sequence_id);
    host.events.push(DuelEvent::CardPlayed {
        seat,
        card: card.card_id.clone(),
        thing: card.thing,
        cost,
        stacked,
    });
    if window_open {
        host.state
            .priority
            .respond(seat, &tags, card)
            .map_err(|e| RuleError::new(e.code(), e.to_string()))?;
    } else if stacked {
        host.state
            .priority
            .open(seat, card)
            .map_err(|e| RuleError::new(e.code(), e.to_string()))?;
    } else {
        resolve_card(host, card, seat)?;
        if host.state.result.is_some() {
            return Ok(());
        }
    }
    command_phase(host, PLAY_CARD, &tags)
}

fn pass_priority(host: &mut Host<'_>, seat: Seat) -> Result<(), RuleError> {
    host.state.step.accept();
    let outcome = host
        .state
        .priority
        .pass(seat)
        .map_err(|e| RuleError::new(e.code(), e.to_string()))?;
    match outcome {
        PassOutcome::Passed { holder } => {
            host.events.push(DuelEvent::PriorityPassed { seat, holder });
            command_phase(host, PASS_PRIORITY, &[])
        }
        PassOutcome::Resolved { entry, window } => {
            let StackEntry { seat: owner, item } = entry;
            host.events.push(DuelEvent::PriorityPassed {
                seat,
                holder: host.state.priority.holder(),
            });
            resolve_card(host, item, owner)?;
            if host.state.result.is_some() {
                return Ok(());
            }
            match window {
                WindowAfter::Closed => command_phase(host, PASS_PRIORITY, &[CLOSES_WINDOW_TAG]),
                WindowAfter::Reopened { .. } => command_phase(host, PASS_PRIORITY, &[]),
            }
        }
    }
}

/// A unit's attack: its card's, plus its seat's `attack_bonus` (the rebuilt rule) for a unit
/// that strikes at all (a card with attack 0, a totem, never strikes).
fn attack_of(host: &Host<'_>, side: usize, unit: &UnitInstance) -> i64 {
    let base = host
        .content
        .card(&unit.card_id)
        .and_then(|c| c.attack)
        .map_or(0, i64::from);
    if base <= 0 {
        return base;
    }
    let bonus = host.state.seats.get(side).map_or(0, |s| s.attack_bonus);
    base.saturating_add(bonus.max(0))
}

/// Combat, at the end of `seat`'s activation: each of its units with an attack above 0, left
/// to right, strikes the first unit of the opposing board, which strikes back at once; with
/// that board empty, it strikes the opposing seat (a shield absorbs the hit as it absorbs a
/// spell's). A unit at 0 health dies to its owner's discard pile. Deterministic and public:
/// it reads only the boards and the pinned cards.
fn combat(host: &mut Host<'_>, seat: Seat) -> Result<(), RuleError> {
    let Some(foe) = host.state.next_foe(seat) else {
        return Ok(());
    };
    let (mine, theirs) = (usize::from(seat.0), usize::from(foe.0));
    let attackers: Vec<u32> = host
        .state
        .seats
        .get(mine)
        .map(|s| s.board.iter().map(|u| u.thing).collect())
        .unwrap_or_default();
    for thing in attackers {
        if host.state.result.is_some() {
            return Ok(());
        }
        let Some(attacker) = host
            .state
            .seats
            .get(mine)
            .and_then(|s| s.board.iter().find(|u| u.thing == thing))
            .cloned()
        else {
            continue; // died striking back earlier in this combat
        };
        let attack = attack_of(host, mine, &attacker);
        if attack <= 0 {
            continue;
        }
        let defender = host
            .state
            .seats
            .get(theirs)
            .and_then(|s| s.board.first())
            .cloned();
        match defender {
            Some(defender) => {
                let back = attack_of(host, theirs, &defender);
                host.events.push(DuelEvent::UnitAttacked {
                    seat,
                    unit: attacker.thing,
                    card: attacker.card_id.clone(),
                    defender: Some(defender.thing),
                    damage: attack,
                });
                wound(host, theirs, defender.thing, attack);
                wound(host, mine, attacker.thing, back);
            }
            None => {
                let health = |host: &Host<'_>| host.state.seats.get(theirs).map_or(0, |s| s.health);
                let before = health(host);
                let mut caused = Vec::new();
                turnstile_effects::EffectHost::damage(host, Target::Seat(foe), attack, &mut caused)
                    .map_err(|e| RuleError::new("combat", e.to_string()))?;
                let damage = before.saturating_sub(health(host));
                host.events.push(DuelEvent::UnitAttacked {
                    seat,
                    unit: attacker.thing,
                    card: attacker.card_id.clone(),
                    defender: None,
                    damage,
                });
                check_health(host);
            }
        }
    }
    Ok(())
}

/// Deals `damage` to the unit `thing` on seat index `side`'s board; at 0 health it dies.
fn wound(host: &mut Host<'_>, side: usize, thing: u32, damage: i64) {
    let Some(s) = host.state.seats.get_mut(side) else {
        return;
    };
    let Some(index) = s.board.iter().position(|u| u.thing == thing) else {
        return;
    };
    let Some(unit) = s.board.get_mut(index) else {
        return;
    };
    unit.health = unit.health.saturating_sub(damage.max(0)).max(0);
    if unit.health == 0 {
        let dead = s.board.remove(index);
        s.discard.push(dead.card());
        host.events.push(DuelEvent::UnitDied {
            seat: Seat(u16::try_from(side).unwrap_or(u16::MAX)),
            unit: dead.thing,
            card: dead.card_id,
        });
    }
}

/// The stack is abandoned: its cards fizzle to their controllers' discard piles.
fn fizzle_stack(host: &mut Host<'_>) {
    for entry in host.state.priority.abandon() {
        host.events.push(DuelEvent::CardFizzled {
            seat: entry.seat,
            card: entry.item.card_id.clone(),
        });
        if let Some(s) = host.state.seats.get_mut(usize::from(entry.seat.0)) {
            let mut card = entry.item;
            card.target = None;
            s.discard.push(card);
        }
    }
}

/// EndActivation: the stack fizzles, `ActivationExit` takes the phases to their end; for a
/// seat still at the table its units strike, they see `OnTurnEnd`, its statuses tick and count
/// down.
fn end_activation(host: &mut Host<'_>, seat: Seat, reason: ExitReason) -> Result<(), RuleError> {
    host.state.active = seat;
    fizzle_stack(host);
    let content = host.content;
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let state = host.state.phase.clone();
    let outcome = reducer
        .activation_exit(&state, &reason, host)
        .map_err(|e| phase_error(&e, e.code()))?;
    host.state.phase = outcome.state;
    if !outcome.records.is_empty() {
        host.events.push(DuelEvent::Phase {
            records: outcome.records,
        });
    }
    host.events
        .push(DuelEvent::ActivationEnded { seat, reason });
    if host.state.standing(seat) != Standing::Playing || host.state.result.is_some() {
        return Ok(());
    }
    release_channel(host, seat)?;
    if host.state.result.is_some() {
        return Ok(());
    }
    combat(host, seat)?;
    if host.state.result.is_some() {
        return Ok(());
    }
    host.resolve(Event::new(Trigger::OnTurnEnd).by(seat))?;
    tick_statuses(host, seat)?;
    check_health(host);
    Ok(())
}

/// The bearer's statuses tick (`OnStatusTick`) and count down one of its turns.
fn tick_statuses(host: &mut Host<'_>, seat: Seat) -> Result<(), RuleError> {
    host.resolve(
        Event::new(Trigger::OnStatusTick)
            .by(seat)
            .at(Target::Seat(seat)),
    )?;
    for status in host.state.statuses.tick(Target::Seat(seat)) {
        host.events.push(DuelEvent::StatusExpired { seat, status });
    }
    Ok(())
}

/// StartActivation: a fresh priority window over the seats at the table, refresh and draw
/// (unless the phases do them), the phase entry, the owner's units' `OnTurnStart`.
fn start_activation(host: &mut Host<'_>, seat: Seat) -> Result<(), RuleError> {
    host.state.turn = host.state.turn.saturating_add(1);
    if host.state.turn > host.content.rules.max_turns {
        finish(host, "turn_limit", Vec::new());
        return Ok(());
    }
    host.state.active = seat;
    host.state.step.begin_activation();
    host.state.priority = PriorityWindow::new(host.state.playing(), seat)
        .map_err(|e| RuleError::new(e.code(), e.to_string()))?;
    host.events.push(DuelEvent::ActivationStarted {
        seat,
        turn: host.state.turn,
        round: host.state.round,
    });
    let sequence = host.state.phase.sequence_id.clone();
    for effect in turnstile_phases::presets::PRESET_EFFECTS {
        if !host.content.sequence_runs(&sequence, effect) {
            let steps = host.run_named_steps(effect)?;
            if !steps.is_empty() {
                host.events.push(DuelEvent::Effects { steps });
            }
        }
    }
    // A seat the activation's own steps (a fatigue draw) bring to 0 has lost before any later
    // trigger of the turn could heal it: health is checked after each step of the lifecycle.
    if check_health(host) || host.state.standing(seat) != Standing::Playing {
        return Ok(());
    }
    let content = host.content;
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let state = host.state.phase.clone();
    let outcome = reducer
        .enter(&state, host)
        .map_err(|e| phase_error(&e, e.code()))?;
    host.state.phase = outcome.state;
    if !outcome.records.is_empty() {
        host.events.push(DuelEvent::Phase {
            records: outcome.records,
        });
    }
    if check_health(host) || host.state.standing(seat) != Standing::Playing {
        return Ok(());
    }
    let mut event = Event::new(Trigger::OnTurnStart).by(seat);
    if let Some(foe) = host.state.next_foe(seat) {
        event = event.at(Target::Seat(foe));
    }
    host.resolve(event)?;
    check_health(host);
    Ok(())
}

/// A status that skips activations, borne by `seat`.
fn stunned(host: &Host<'_>, seat: Seat) -> bool {
    host.state.statuses.on(Target::Seat(seat)).any(|e| {
        host.content
            .statuses
            .get(&e.status)
            .is_some_and(|s| s.skips_activation)
    })
}

impl Host<'_> {
    /// Keeps the first rule error of a hook (with its own code) and hands the lifecycle a
    /// failure that stops the operation.
    fn hook(&mut self, result: Result<(), RuleError>) -> Result<(), LifecycleError> {
        result.map_err(|e| {
            let failure = LifecycleError::new(e.code, e.message.clone());
            self.failure.get_or_insert(e);
            failure
        })
    }
}

impl LifecycleHooks for Host<'_> {
    fn initiative_variables(&self, seat: Seat) -> Vec<Value> {
        let s = self.state.seats.get(usize::from(seat.0));
        vec![
            Value::Int(i64::from(seat.0)),
            Value::Int(i64::from(self.state.round)),
            Value::Int(s.map_or(0, |s| s.health)),
            Value::Int(s.map_or(0, |s| s.max_health)),
            Value::Int(s.map_or(0, |s| i64::try_from(s.board.len()).unwrap_or(i64::MAX))),
        ]
    }

    fn can_act(&mut self, seat: Seat) -> Result<(), SkipReason> {
        if self.state.standing(seat) != Standing::Playing {
            return Err(SkipReason::Dead);
        }
        if stunned(self, seat) {
            return Err(SkipReason::Stunned);
        }
        Ok(())
    }

    /// A stunned seat's skipped activation counts for its statuses: they tick and count down,
    /// so a one-turn stun skips exactly one activation.
    fn activation_skipped(
        &mut self,
        seat: Seat,
        reason: &SkipReason,
    ) -> Result<(), LifecycleError> {
        if *reason != SkipReason::Stunned || self.state.result.is_some() {
            return Ok(());
        }
        let result = tick_statuses(self, seat).map(|()| {
            check_health(self);
        });
        self.hook(result)
    }

    /// Round effects run once for each seat at the table, in seat order, as that seat
    /// (`ActingSeat`). At the start of a round after `lateJoinUntilRound`, a seat still
    /// waiting is out.
    fn round(
        &mut self,
        hook: RoundHook,
        round: u64,
        effects: &[String],
    ) -> Result<(), LifecycleError> {
        if self.state.result.is_some() {
            return Ok(());
        }
        if hook == RoundHook::StartRound {
            self.state.round = u32::try_from(round).unwrap_or(u32::MAX);
            let rebuilt = self.rebuild_rules();
            self.hook(rebuilt)?;
            if round > u64::from(self.content.rules.late_join_until_round) {
                let waiting: Vec<Seat> = (0..self.state.seats.len())
                    .filter(|i| {
                        self.state
                            .seats
                            .get(*i)
                            .is_some_and(|s| s.standing == Standing::Waiting)
                    })
                    .filter_map(|i| u16::try_from(i).ok().map(Seat))
                    .collect();
                for seat in waiting {
                    eliminate(self, seat, "did_not_join");
                }
                decide(self, "did_not_join");
            }
        }
        let active = self.state.active;
        let mut result = Ok(());
        'effects: for effect in effects {
            for seat in self.state.playing() {
                if self.state.result.is_some() {
                    break 'effects;
                }
                self.state.active = seat;
                match self.run_named_steps(effect) {
                    Ok(steps) if !steps.is_empty() => {
                        self.events.push(DuelEvent::Effects { steps })
                    }
                    Ok(_) => {}
                    Err(e) => {
                        result = Err(e);
                        break 'effects;
                    }
                }
                check_health(self);
            }
        }
        self.state.active = active;
        self.hook(result)
    }

    /// A seat channelling a card takes its next activation as a `Countdown`: it may end or
    /// skip it (or resign), not play; the card resolves when it ends.
    fn turn_type(&mut self, seat: Seat) -> TurnType {
        match self
            .state
            .seats
            .get_mut(usize::from(seat.0))
            .and_then(|s| s.channel.as_mut())
        {
            Some(channel) => {
                channel.counting = true;
                TurnType::Countdown
            }
            None => TurnType::Play,
        }
    }

    fn start_activation(&mut self, seat: Seat, _round: u64) -> Result<(), LifecycleError> {
        let result = start_activation(self, seat);
        self.hook(result)
    }

    fn end_activation(&mut self, seat: Seat, reason: &ExitReason) -> Result<(), LifecycleError> {
        let result = end_activation(self, seat, reason.clone());
        self.hook(result)
    }

    fn forfeit(&mut self, seat: Seat, _timeouts: u32) -> Result<(), LifecycleError> {
        eliminate(self, seat, "timeout");
        decide(self, "timeout");
        Ok(())
    }

    fn take_departures(&mut self) -> Vec<Seat> {
        std::mem::take(&mut self.departures)
    }

    fn is_over(&self) -> bool {
        self.state.result.is_some()
    }

    fn turn_events(&mut self, events: Vec<TurnEvent<(), ()>>) {
        self.events
            .extend(events.into_iter().map(|event| DuelEvent::Turn { event }));
    }
}
