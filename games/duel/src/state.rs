//! A Duel match's state, actions and events, and the rules that move it: playing cards, the
//! stack and priority, and the activation lifecycle (exit, end hooks, next actor, start
//! hooks, phase entry) composed in one command.

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::{StreamTable, Streams};
use turnstile_core::{Rejection, Seat};
use turnstile_effects::{EffectLedger, Event, StatusBoard, Step, Target, ThingId, Trigger};
use turnstile_phases::{
    presets::CLOSES_WINDOW_TAG, ActivationStep, ExitReason, PassOutcome, PhaseCommand,
    PhaseGraphReducer, PhaseRecord, PhaseState, PriorityWindow, StackEntry, WindowAfter,
};

use crate::content::DuelContent;
use crate::host::{Host, Resolving, RuleError};
use crate::{END_TURN, PASS_PRIORITY, PLAY_CARD, RESIGN};

/// One card in a zone: a thing id (unique in the match) and the card it is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardInstance {
    /// The thing id, numbered at setup in deck-list order (before the shuffle).
    pub thing: u32,
    /// The card id.
    pub card_id: String,
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
    },
    /// End the activation.
    EndTurn,
    /// Pass priority in a response window.
    PassPriority,
    /// Concede.
    Resign,
}

impl DuelAction {
    /// The action's type as phases name it.
    pub fn action_type(&self) -> &'static str {
        match self {
            DuelAction::PlayCard { .. } => PLAY_CARD,
            DuelAction::EndTurn => END_TURN,
            DuelAction::PassPriority => PASS_PRIORITY,
            DuelAction::Resign => RESIGN,
        }
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
    /// The match ended.
    MatchEnded {
        /// How.
        result: DuelResult,
    },
}

/// The integer code of a command type, offered to phase conditions as `command_type`.
pub fn command_code(command_type: &str) -> i64 {
    match command_type {
        PLAY_CARD => 1,
        END_TURN => 2,
        PASS_PRIORITY => 3,
        RESIGN => 4,
        _ => 0,
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0.min(1))
}

fn phase_error(e: impl std::fmt::Display, code: &'static str) -> RuleError {
    RuleError::new(code, e.to_string())
}

impl From<RuleError> for Rejection {
    fn from(e: RuleError) -> Rejection {
        Rejection::new(e.code, e.message)
    }
}

/// Sets a match up: decks numbered and shuffled on the `deck` stream, starting hands drawn,
/// the first activation started.
pub fn setup(
    content: &DuelContent,
    sequence_id: &str,
    decks: [&str; 2],
    seed: &str,
) -> Result<DuelState, RuleError> {
    static TABLE: StreamTable = StreamTable::new(crate::content::STREAMS);
    let mut streams =
        Streams::new(seed, &TABLE).map_err(|e| RuleError::new("bad_seed", e.to_string()))?;
    let reducer = PhaseGraphReducer::new(&content.phases.catalog, content.revision);
    let phase = reducer
        .initial_state(sequence_id)
        .map_err(|e| RuleError::new(e.code(), e.to_string()))?;
    let mut seats = Vec::new();
    let mut thing = 0u32;
    for deck_id in decks {
        let deck = content
            .decks
            .get(deck_id)
            .ok_or_else(|| RuleError::new("unknown_deck", format!("no deck `{deck_id}`")))?;
        let mut cards: Vec<CardInstance> = deck
            .cards
            .iter()
            .map(|card_id| {
                thing += 1;
                CardInstance {
                    thing,
                    card_id: card_id.clone(),
                }
            })
            .collect();
        streams
            .shuffle("deck", &mut cards)
            .map_err(|e| RuleError::new("stream", e.to_string()))?;
        let health = i64::from(content.rules.starting_health);
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
        });
    }
    let mut state = DuelState {
        seats,
        active: Seat(0),
        turn: 0,
        round: 1,
        phase,
        priority: PriorityWindow::new(vec![Seat(0), Seat(1)], Seat(0))
            .map_err(|e| RuleError::new(e.code(), e.to_string()))?,
        step: ActivationStep::new(),
        statuses: StatusBoard::new(),
        ledger: EffectLedger::new(),
        streams,
        result: None,
    };
    let mut host = Host::new(content, &mut state);
    for (i, bonus) in [(0u16, 0), (1u16, content.rules.second_seat_bonus_cards)] {
        let n = content.rules.starting_hand.saturating_add(bonus);
        let mut caused = Vec::new();
        turnstile_effects::EffectHost::draw(
            &mut host,
            Target::Seat(Seat(i)),
            i64::from(n),
            &mut caused,
        )
        .map_err(|e| RuleError::new("setup_draw", e.to_string()))?;
    }
    start_activation(&mut host, Seat(0))?;
    Ok(state)
}

/// Runs `action` for `seat` on `state` (a copy: on an error the caller drops it).
pub fn apply(
    content: &DuelContent,
    state: &mut DuelState,
    seat: Seat,
    action: &DuelAction,
) -> Result<Vec<DuelEvent>, RuleError> {
    let mut host = Host::new(content, state);
    match action {
        DuelAction::Resign => {
            host.events.push(DuelEvent::Resigned { seat });
            finish(&mut host, "resign", vec![other(seat)]);
        }
        DuelAction::PlayCard { hand } => play_card(&mut host, seat, *hand)?,
        DuelAction::PassPriority => pass_priority(&mut host, seat)?,
        DuelAction::EndTurn => {
            host.state.step.accept();
            end_activation(&mut host, ExitReason::EndTurnAction)?;
            next_activation(&mut host)?;
        }
    }
    Ok(host.events)
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

/// Ends the match when a seat is at 0 health; true when it is over.
fn check_health(host: &mut Host<'_>) -> bool {
    if host.state.result.is_some() {
        return true;
    }
    let dead: Vec<bool> = host.state.seats.iter().map(|s| s.health <= 0).collect();
    match (dead.first().copied(), dead.get(1).copied()) {
        (Some(true), Some(true)) => finish(host, "health_zero", Vec::new()),
        (Some(true), _) => finish(host, "health_zero", vec![Seat(1)]),
        (_, Some(true)) => finish(host, "health_zero", vec![Seat(0)]),
        _ => return false,
    }
    true
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

fn resolve_card(host: &mut Host<'_>, card: CardInstance, seat: Seat) -> Result<(), RuleError> {
    let previous = std::mem::replace(&mut host.resolving, Resolving::Card(card.clone(), seat));
    let result = host.resolve(
        Event::new(Trigger::OnCardPlayed)
            .by(seat)
            .from(Target::Thing(ThingId(card.thing)))
            .at(Target::Seat(other(seat))),
    );
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

fn play_card(host: &mut Host<'_>, seat: Seat, hand: u16) -> Result<(), RuleError> {
    let content = host.content;
    let s = host
        .state
        .seats
        .get_mut(usize::from(seat.0))
        .ok_or_else(|| RuleError::new("unknown_seat", "no such seat"))?;
    let index = usize::from(hand);
    let card =
        s.hand.get(index).cloned().ok_or_else(|| {
            RuleError::new("no_such_card", format!("the hand has no card {hand}"))
        })?;
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

/// The game rule that ends the activation of a seat bearing a status that skips activations.
const SKIPS_ACTIVATION: &str = "skips_activation";

fn attack_of(content: &DuelContent, unit: &UnitInstance) -> i64 {
    content
        .card(&unit.card_id)
        .and_then(|c| c.attack)
        .map_or(0, i64::from)
}

/// Combat, at the end of `seat`'s activation: each of its units with an attack above 0, left
/// to right, strikes the first unit of the opposing board, which strikes back at once; with
/// that board empty, it strikes the opposing seat (a shield absorbs the hit as it absorbs a
/// spell's). A unit at 0 health dies to its owner's discard pile. Deterministic and public:
/// it reads only the boards and the pinned cards.
fn combat(host: &mut Host<'_>, seat: Seat) -> Result<(), RuleError> {
    let content = host.content;
    let foe = other(seat);
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
        let attack = attack_of(content, &attacker);
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
                let back = attack_of(content, &defender);
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

/// Ends the current activation: the stack fizzles, `ActivationExit` takes the phases to their
/// end, the turn owner's units see `OnTurnEnd`, its statuses tick and count down.
fn end_activation(host: &mut Host<'_>, reason: ExitReason) -> Result<(), RuleError> {
    let seat = host.state.active;
    for entry in host.state.priority.abandon() {
        host.events.push(DuelEvent::CardFizzled {
            seat: entry.seat,
            card: entry.item.card_id.clone(),
        });
        if let Some(s) = host.state.seats.get_mut(usize::from(entry.seat.0)) {
            s.discard.push(entry.item);
        }
    }
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
    let stunned = matches!(&reason, ExitReason::GameRule { rule } if rule == SKIPS_ACTIVATION);
    host.events
        .push(DuelEvent::ActivationEnded { seat, reason });
    if !stunned {
        combat(host, seat)?;
    }
    host.resolve(Event::new(Trigger::OnTurnEnd).by(seat))?;
    host.resolve(
        Event::new(Trigger::OnStatusTick)
            .by(seat)
            .at(Target::Seat(seat)),
    )?;
    for status in host.state.statuses.tick(Target::Seat(seat)) {
        host.events.push(DuelEvent::StatusExpired { seat, status });
    }
    check_health(host);
    Ok(())
}

/// Starts the next seat's activation, skipping (and ending) those of a seat that bears a
/// status that skips activations.
fn next_activation(host: &mut Host<'_>) -> Result<(), RuleError> {
    for _ in 0..8 {
        if host.state.result.is_some() {
            return Ok(());
        }
        let next = other(host.state.active);
        if next == Seat(0) {
            host.state.round = host.state.round.saturating_add(1);
        }
        start_activation(host, next)?;
        let skips = host.state.statuses.on(Target::Seat(next)).any(|e| {
            host.content
                .statuses
                .get(&e.status)
                .is_some_and(|s| s.skips_activation)
        });
        if !skips || host.state.result.is_some() {
            return Ok(());
        }
        end_activation(
            host,
            ExitReason::GameRule {
                rule: SKIPS_ACTIVATION.into(),
            },
        )?;
    }
    Ok(())
}

/// StartActivation: refresh and draw (unless the phases do them), the phase entry, the
/// owner's units' `OnTurnStart`.
fn start_activation(host: &mut Host<'_>, seat: Seat) -> Result<(), RuleError> {
    host.state.turn = host.state.turn.saturating_add(1);
    if host.state.turn > host.content.rules.max_turns {
        finish(host, "turn_limit", Vec::new());
        return Ok(());
    }
    host.state.active = seat;
    host.state.step.begin_activation();
    host.state
        .priority
        .begin_turn(seat)
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
    if check_health(host) {
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
    if check_health(host) {
        return Ok(());
    }
    host.resolve(Event::new(Trigger::OnTurnStart).by(seat))?;
    check_health(host);
    Ok(())
}
