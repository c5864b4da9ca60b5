//! Duel's world as the one effect executor and the phase reducer see it: [`Host`] implements
//! `EffectHost` (who is present for an event, resources, draws, shields) and `PhaseHost`
//! (phase entry and exit effects run on the same executor, fingerprints, edge variables).

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::Streams;
use turnstile_core::{Fingerprint, Seat};
use turnstile_effects::{
    Change, EffectHost, EffectState, Event, Executor, HostError, Nothing, OperationError,
    OwnerInstance, Owners, Plain, RowContext, Step, Target, ThingId, Trigger,
};
use turnstile_formula::{Value, VariableSource};
use turnstile_phases::{EdgeContext, EffectMoment, HostFailure, PhaseDefinition, PhaseHost};

use crate::content::{DuelContent, COMMAND_TYPES, PHASE_RESOURCES, PHASE_TAGS, RUN_TRIGGER};
use crate::state::{CardInstance, DuelEvent, DuelState};

/// A refusal or failure of the rules, with a stable code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    /// The stable code.
    pub code: &'static str,
    /// For a person.
    pub message: String,
}

impl RuleError {
    /// An error.
    pub fn new(code: &'static str, message: impl Into<String>) -> RuleError {
        RuleError {
            code,
            message: message.into(),
        }
    }
}

/// What is being resolved right now, so that `owners` can list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Resolving {
    Nothing,
    Card(CardInstance, Seat),
    Named(String),
}

/// The game's world, borrowed for one command.
pub struct Host<'a> {
    pub(crate) content: &'a DuelContent,
    pub(crate) state: &'a mut DuelState,
    pub(crate) events: Vec<DuelEvent>,
    pub(crate) resolving: Resolving,
    /// Seats taken out of the match during this command, for the lifecycle to remove.
    pub(crate) departures: Vec<Seat>,
    /// The first rule error a lifecycle hook met, with its own code.
    pub(crate) failure: Option<RuleError>,
}

impl<'a> Host<'a> {
    /// The host for one command over `state`.
    pub fn new(content: &'a DuelContent, state: &'a mut DuelState) -> Host<'a> {
        Host {
            content,
            state,
            events: Vec::new(),
            resolving: Resolving::Nothing,
            departures: Vec::new(),
            failure: None,
        }
    }

    /// Resolves an event on the one executor, recording its steps as an `effects` event.
    pub(crate) fn resolve(&mut self, event: Event) -> Result<(), RuleError> {
        let steps = self.resolve_steps(event)?;
        if !steps.is_empty() {
            self.events.push(DuelEvent::Effects { steps });
        }
        Ok(())
    }

    fn resolve_steps(&mut self, event: Event) -> Result<Vec<Step>, RuleError> {
        let content = self.content;
        let handlers = crate::content::handlers();
        let mut executor = Executor::new(&content.effects.table, &handlers);
        let mut steps = Vec::new();
        executor
            .resolve(self, event, &mut steps)
            .map_err(|e| RuleError::new("effect_failed", e.to_string()))?;
        Ok(steps)
    }

    /// Rebuilds the rule resources (docs/effects.md, "Rules are rebuilt"): reset, then the
    /// ledger's lasting changes (layer 2), the passive rows, this round's changes. Run at
    /// every round start, so a rule can hold only while the ledger says it does.
    pub(crate) fn rebuild_rules(&mut self) -> Result<(), RuleError> {
        let content = self.content;
        let handlers = crate::content::handlers();
        let mut executor = Executor::new(&content.effects.table, &handlers);
        let mut steps = Vec::new();
        executor
            .rebuild(self, &mut steps)
            .map_err(|e| RuleError::new("effect_failed", e.to_string()))?;
        if !steps.is_empty() {
            self.events.push(DuelEvent::Effects { steps });
        }
        Ok(())
    }

    /// Runs the named effect `effect:<id>` for the active seat.
    pub(crate) fn run_named_steps(&mut self, effect_id: &str) -> Result<Vec<Step>, RuleError> {
        let previous = std::mem::replace(&mut self.resolving, Resolving::Named(effect_id.into()));
        let seat = self.state.active;
        let result = self.resolve_steps(
            Event::new(Trigger::Custom(RUN_TRIGGER.into()))
                .by(seat)
                .at(Target::Seat(seat)),
        );
        self.resolving = previous;
        result
    }

    fn seat_of(&self, target: Target) -> Option<usize> {
        match target {
            Target::Seat(s) => Some(usize::from(s.0)).filter(|i| *i < self.state.seats.len()),
            Target::Thing(_) => None,
        }
    }

    fn absorbs(&self, target: Target) -> bool {
        self.state.statuses.on(target).any(|entry| {
            self.content
                .statuses
                .get(&entry.status)
                .is_some_and(|s| s.absorbs_hits)
        })
    }
}

impl EffectHost for Host<'_> {
    type Vocabulary = Plain;

    fn seat_count(&self) -> u16 {
        u16::try_from(self.state.seats.len()).unwrap_or(u16::MAX)
    }

    fn round(&self) -> u32 {
        self.state.round
    }

    fn owners(&self, event: &Event, owners: &mut Owners<'_>) {
        match &event.trigger {
            Trigger::OnStatusTick => {
                if let Some(bearer) = event.target {
                    let seat = match bearer {
                        Target::Seat(s) => Some(s),
                        Target::Thing(_) => event.seat,
                    };
                    for entry in self.state.statuses.on(bearer) {
                        owners.push(&format!("status:{}", entry.status), bearer, seat);
                    }
                }
            }
            Trigger::OnCardPlayed => {
                if let Resolving::Card(card, seat) = &self.resolving {
                    owners.push(
                        &format!("card:{}", card.card_id),
                        Target::Thing(ThingId(card.thing)),
                        Some(*seat),
                    );
                }
            }
            Trigger::OnTurnStart | Trigger::OnTurnEnd => {
                if let Some(seat) = event.seat {
                    if let Some(s) = self.state.seats.get(usize::from(seat.0)) {
                        for unit in &s.board {
                            owners.push(
                                &format!("card:{}", unit.card_id),
                                Target::Thing(ThingId(unit.thing)),
                                Some(seat),
                            );
                        }
                    }
                }
            }
            Trigger::Custom(name) if name == RUN_TRIGGER => {
                if let Resolving::Named(effect) = &self.resolving {
                    let seat = self.state.active;
                    owners.push(&format!("effect:{effect}"), Target::Seat(seat), Some(seat));
                }
            }
            _ => {}
        }
    }

    fn variable(&self, context: &RowContext<'_>, slot: u16) -> Option<Value> {
        let seat = || {
            self.seat_of(context.target)
                .and_then(|i| self.state.seats.get(i))
        };
        Some(Value::Int(match slot {
            0 => i64::from(self.state.round),
            1 => i64::from(self.state.turn),
            2 => seat()?.health,
            3 => seat()?.mana,
            4 => seat()?.max_mana,
            5 => i64::try_from(seat()?.hand.len()).unwrap_or(i64::MAX),
            6 => self
                .state
                .statuses
                .stacks(context.owner.anchor, context.owner_ref.id()),
            _ => return None,
        }))
    }

    fn streams(&mut self) -> &mut Streams {
        &mut self.state.streams
    }

    fn resource(&self, target: Target, resource: &str) -> Option<i64> {
        let seat = self.state.seats.get(self.seat_of(target)?)?;
        match resource {
            "health" => Some(seat.health),
            "max_health" => Some(seat.max_health),
            "mana" => Some(seat.mana),
            "max_mana" => Some(seat.max_mana),
            "attack_bonus" => Some(seat.attack_bonus),
            _ => None,
        }
    }

    fn set_resource(
        &mut self,
        target: Target,
        resource: &str,
        value: i64,
    ) -> Result<(), HostError> {
        let index = self
            .seat_of(target)
            .ok_or_else(|| HostError::no_resource(target, resource))?;
        let seat = self
            .state
            .seats
            .get_mut(index)
            .ok_or_else(|| HostError::no_resource(target, resource))?;
        let slot = match resource {
            "health" => &mut seat.health,
            "max_health" => &mut seat.max_health,
            "mana" => &mut seat.mana,
            "max_mana" => &mut seat.max_mana,
            "attack_bonus" => &mut seat.attack_bonus,
            _ => return Err(HostError::no_resource(target, resource)),
        };
        *slot = value;
        Ok(())
    }

    fn effects(&mut self) -> EffectState<'_> {
        EffectState {
            statuses: &mut self.state.statuses,
            ledger: &mut self.state.ledger,
        }
    }

    fn scope_targets(
        &self,
        scope: Nothing,
        _owner: &OwnerInstance,
        _event: &Event,
        _out: &mut Vec<Target>,
    ) {
        match scope {}
    }

    fn operate(
        &mut self,
        operation: &Nothing,
        _context: &RowContext<'_>,
        _caused: &mut Vec<Event>,
    ) -> Result<Change, OperationError> {
        match *operation {}
    }

    /// Rule resources back to their defaults before a rebuild re-applies the ledger (layer
    /// 2) and the passive rows: every seat's `attack_bonus` is 0.
    fn reset_rules(&mut self) {
        for seat in &mut self.state.seats {
            seat.attack_bonus = 0;
        }
    }

    /// Draws from the top of the seat's deck. An empty deck deals fatigue: 1 damage for the
    /// first draw that finds it empty, 2 for the next, and so on. A card drawn into a full
    /// hand is burned (discarded face up).
    fn draw(
        &mut self,
        target: Target,
        count: i64,
        _caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let (Some(index), Target::Seat(seat_id)) = (self.seat_of(target), target) else {
            return Err(HostError::not_applicable("Draw", target));
        };
        let limit = usize::try_from(self.content.rules.hand_limit).unwrap_or(usize::MAX);
        let Some(seat) = self.state.seats.get_mut(index) else {
            return Err(HostError::not_applicable("Draw", target));
        };
        let before = i64::try_from(seat.hand.len()).unwrap_or(i64::MAX);
        for _ in 0..count.max(0) {
            if seat.deck.is_empty() {
                seat.fatigue = seat.fatigue.saturating_add(1);
                let damage = i64::from(seat.fatigue);
                seat.health = seat.health.saturating_sub(damage).max(0);
                self.events.push(DuelEvent::Fatigue {
                    seat: seat_id,
                    damage,
                });
                continue;
            }
            let card = seat.deck.remove(0);
            if seat.hand.len() >= limit {
                self.events.push(DuelEvent::CardBurned {
                    seat: seat_id,
                    card: card.card_id.clone(),
                });
                seat.discard.push(card);
            } else {
                self.events.push(DuelEvent::CardDrawn {
                    seat: seat_id,
                    card: Some(card.card_id.clone()),
                });
                seat.hand.push(card);
            }
        }
        let after = i64::try_from(seat.hand.len()).unwrap_or(i64::MAX);
        Ok(Change::int(before, after))
    }

    /// A status that absorbs hits (shield) takes the whole hit and loses a stack.
    fn damage(
        &mut self,
        target: Target,
        amount: i64,
        _caused: &mut Vec<Event>,
    ) -> Result<Change, HostError> {
        let before = self
            .resource(target, "health")
            .ok_or_else(|| HostError::no_resource(target, "health"))?;
        // A seat away from the table (waiting to join, or out) is not hurt.
        if let Some(i) = self.seat_of(target) {
            if self
                .state
                .seats
                .get(i)
                .is_some_and(|s| s.standing != crate::state::Standing::Playing)
            {
                return Ok(Change::int(before, before));
            }
        }
        if amount > 0 && self.absorbs(target) {
            let absorbing: Vec<String> = self
                .state
                .statuses
                .on(target)
                .filter(|e| {
                    self.content
                        .statuses
                        .get(&e.status)
                        .is_some_and(|s| s.absorbs_hits)
                })
                .map(|e| e.status.clone())
                .collect();
            if let Some(status) = absorbing.first() {
                self.state.statuses.remove(target, status, Some(1));
            }
            return Ok(Change::int(before, before));
        }
        let after = before.saturating_sub(amount).max(0).min(before);
        self.set_resource(target, "health", after)?;
        Ok(Change::int(before, after))
    }
}

/// Phase-condition variables, in the slot order of `phase_condition_schema`.
pub struct PhaseVariables(Vec<Value>);

impl VariableSource for PhaseVariables {
    fn get(&self, slot: u16) -> Option<Value> {
        self.0.as_slice().get(usize::from(slot)).copied()
    }
}

impl PhaseHost for Host<'_> {
    type Step = Step;

    fn variables(&self, context: &EdgeContext<'_>) -> impl VariableSource {
        let s = &*self.state;
        let active = usize::from(s.active.0);
        let other = (active + 1) % s.seats.len().max(1);
        let mut values = vec![
            Value::Int(i64::from(s.turn)),
            Value::Int(i64::from(s.round)),
            Value::Int(i64::from(s.turn)),
            Value::Int(i64::try_from(s.step.current()).unwrap_or(i64::MAX)),
            Value::Int(context.phase.order),
        ];
        for scope in [active, active, other, active] {
            for resource in PHASE_RESOURCES {
                let seat = s.seats.get(scope);
                values.push(Value::Int(seat.map_or(0, |seat| match *resource {
                    "health" => seat.health,
                    "mana" => seat.mana,
                    _ => seat.max_mana,
                })));
            }
        }
        for tag in PHASE_TAGS {
            values.push(Value::Bool(
                context.command.is_some_and(|c| c.tags.contains(tag)),
            ));
        }
        values.extend(turnstile_phases::command_flags(
            COMMAND_TYPES,
            context.command.map(|c| c.command_type),
        ));
        PhaseVariables(values)
    }

    fn run_effects(
        &mut self,
        _phase: &PhaseDefinition,
        _moment: EffectMoment,
        effects: &[String],
    ) -> Result<Vec<Step>, HostFailure> {
        let mut steps = Vec::new();
        for effect in effects {
            steps.extend(
                self.run_named_steps(effect)
                    .map_err(|e| HostFailure::new(e.code, e.message))?,
            );
        }
        Ok(steps)
    }

    fn state_fingerprint(&mut self) -> Result<Fingerprint, HostFailure> {
        Fingerprint::of(&*self.state).map_err(|e| HostFailure::new("not_canonical", e.to_string()))
    }
}
