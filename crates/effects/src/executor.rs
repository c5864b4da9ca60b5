//! The one executor: it runs an [`EffectTable`]'s rows against a game's world, in the order
//! the rules fix, and writes a step for every row that acts. Nothing else in the engine runs
//! effects — phase entry and exit effects, cards, statuses and (later) scoring all come here.
//!
//! # The order of execution
//!
//! An event is resolved like this:
//!
//! 1. the host lists the owners present for the event, in its order (slot left to right,
//!    board order — the game's rule);
//! 2. for each owner in that order, its rows for the event's trigger, by `order`;
//! 3. for each row, its scope's targets, in the scope's order (seats ascending);
//! 4. for each target, the condition; if it holds, the operation, and a [`Step`].
//!
//! Events an operation causes (`caused`) are queued and resolved after the current one, in
//! the order they were raised (first in, first out). Owners are listed once per event, when
//! it starts. The whole resolution is bounded by [`Limits`]: past them it stops with a typed
//! error, so effects that trigger each other can never loop forever.
//!
//! # Rebuilding rules
//!
//! [`Executor::rebuild`] re-derives every rule resource from scratch: the host resets them to
//! defaults (layer 1), then the executor applies the `Permanent` lingering effects (layer 2),
//! the `Passive` rows of every present owner (layer 3) and the lingering effects that hold
//! this round only (layer 4) — spec/effects.md's order. A resolution that recorded a
//! lingering effect holding now ends with a rebuild. Rebuilding twice changes nothing.

use std::collections::VecDeque;

use turnstile_core::determinism::StreamError;
use turnstile_core::Seat;
use turnstile_formula::{EvalError, Value, VariableSource};

use crate::game::GameVocabulary;
use crate::handlers::{HandlerCall, HandlerRegistry};
use crate::host::{
    Change, EffectHost, Event, HostError, OperationError, OwnerInstance, Owners, RowContext, Target,
};
use crate::ledger::{LingeringEffect, LingeringOperation};
use crate::row::{Duration, Scope, Trigger};
use crate::step::{Step, StepKind};
use crate::table::{
    AmountForm, CompiledAmount, CompiledCondition, CompiledFactor, CompiledOperation, CompiledRow,
    EffectTable, FactorForm,
};
use crate::vocabulary::ResourceKind;
use turnstile_core::determinism::Fixed;

/// How much one resolution (or one rebuild) may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most steps.
    pub max_steps: u32,
    /// The most events resolved (the first one included).
    pub max_events: u32,
}

impl Default for Limits {
    /// 10 000 steps and 10 000 events.
    fn default() -> Limits {
        Limits {
            max_steps: 10_000,
            max_events: 10_000,
        }
    }
}

/// Why a resolution stopped. The host may be partly changed: run resolutions on a copy of
/// the state, as the match runtime does, and drop it on an error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EffectError {
    /// More steps than [`Limits::max_steps`].
    #[error(
        "the resolution took more than {limit} steps: effects that trigger each other without end?"
    )]
    StepLimit {
        /// The limit.
        limit: u32,
    },
    /// More events than [`Limits::max_events`].
    #[error("the resolution raised more than {limit} events: effects that trigger each other without end?")]
    EventLimit {
        /// The limit.
        limit: u32,
    },
    /// A formula failed while evaluated (a division by zero, a variable the host lacks).
    #[error("{owner} row {row} ({at}): {error} ({code})", code = error.code())]
    Evaluation {
        /// The owner.
        owner: String,
        /// The row's order.
        row: u32,
        /// Where the row is in content.
        at: String,
        /// Why.
        error: EvalError,
    },
    /// A `Chance` drew from a stream the host's streams do not have.
    #[error("{owner} row {row}: {error} ({code})", code = error.code())]
    Stream {
        /// The owner.
        owner: String,
        /// The row's order.
        row: u32,
        /// Why.
        error: StreamError,
    },
    /// The host refused an operation.
    #[error("{owner} row {row} ({at}): {error}")]
    Host {
        /// The owner.
        owner: String,
        /// The row's order.
        row: u32,
        /// Where the row is in content.
        at: String,
        /// Why.
        error: HostError,
    },
    /// A `Custom` row names a handler this registry does not have (the table was compiled
    /// with another registry).
    #[error("no handler `{handler}` in the registry this executor runs with")]
    UnknownHandler {
        /// The id.
        handler: String,
    },
    /// An operation raised an event during a rebuild, where rule changes may not cause any.
    #[error("{owner} row {row} raised an event while the rules were rebuilt; rule changes cause no events")]
    EventDuringRebuild {
        /// The owner.
        owner: String,
        /// The row's order.
        row: u32,
    },
}

impl EffectError {
    /// The stable code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            EffectError::StepLimit { .. } => "step_limit",
            EffectError::EventLimit { .. } => "event_limit",
            EffectError::Evaluation { .. } => "evaluation",
            EffectError::Stream { .. } => "stream",
            EffectError::Host { .. } => "host",
            EffectError::UnknownHandler { .. } => "unknown_handler",
            EffectError::EventDuringRebuild { .. } => "event_during_rebuild",
        }
    }
}

/// What a resolution did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resolution {
    /// Steps written (the rebuild's included).
    pub steps: u32,
    /// Events resolved (the first one included).
    pub events: u32,
    /// Whether it ended with a rebuild.
    pub rebuilt: bool,
}

/// A formula's view of the host: variables by slot, for one row acting on one target.
struct HostVariables<'a, 'c, H: EffectHost + ?Sized> {
    host: &'a H,
    context: &'a RowContext<'c, H::Vocabulary>,
}

impl<H: EffectHost + ?Sized> VariableSource for HostVariables<'_, '_, H> {
    fn get(&self, slot: u16) -> Option<Value> {
        self.host.variable(self.context, slot)
    }
}

/// Whether a step comes from an event or from a rebuild, and so how it is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Resolving an event.
    Event,
    /// Applying `Passive` rows in a rebuild.
    Passive,
}

/// The executor: a compiled table and the game's handlers, plus reusable scratch space.
/// Build one per table (per match, or per command) and call it for each event.
pub struct Executor<'t, H: EffectHost> {
    table: &'t EffectTable<H::Vocabulary>,
    handlers: &'t HandlerRegistry<H>,
    limits: Limits,
    owners: Vec<OwnerInstance>,
    targets: Vec<Target>,
    queue: VecDeque<Event<H::Vocabulary>>,
    caused: Vec<Event<H::Vocabulary>>,
    steps_taken: u32,
    rebuild_needed: bool,
    record: bool,
}

impl<'t, H: EffectHost> Executor<'t, H> {
    /// An executor of `table` with `handlers` and the default [`Limits`].
    pub fn new(
        table: &'t EffectTable<H::Vocabulary>,
        handlers: &'t HandlerRegistry<H>,
    ) -> Executor<'t, H> {
        Executor {
            table,
            handlers,
            limits: Limits::default(),
            owners: Vec::new(),
            targets: Vec::new(),
            queue: VecDeque::new(),
            caused: Vec::new(),
            steps_taken: 0,
            rebuild_needed: false,
            record: true,
        }
    }

    /// Whether steps are written to the caller's list (default: yes). With `false` the rows
    /// act exactly the same and are counted in [`Resolution::steps`], but no [`Step`] is
    /// built — for hot loops (benchmarks, bots' look-ahead) that drop the list anyway.
    pub fn recording(mut self, on: bool) -> Executor<'t, H> {
        self.record = on;
        self
    }

    /// The same executor with other limits.
    pub fn with_limits(mut self, limits: Limits) -> Executor<'t, H> {
        self.limits = limits;
        self
    }

    /// Resolves `event` and every event it causes, appending a [`Step`] to `steps` for each
    /// row that acts. Ends with a rebuild when a lingering effect that holds now was
    /// recorded.
    pub fn resolve(
        &mut self,
        host: &mut H,
        event: Event<H::Vocabulary>,
        steps: &mut Vec<Step>,
    ) -> Result<Resolution, EffectError> {
        self.steps_taken = 0;
        self.rebuild_needed = false;
        self.queue.clear();
        self.queue.push_back(event);
        let mut events = 0u32;
        while let Some(event) = self.queue.pop_front() {
            events += 1;
            if events > self.limits.max_events {
                return Err(EffectError::EventLimit {
                    limit: self.limits.max_events,
                });
            }
            self.resolve_one(host, &event, steps, Mode::Event)?;
        }
        let rebuilt = self.rebuild_needed;
        if rebuilt {
            self.rebuild_within(host, steps)?;
        }
        Ok(Resolution {
            steps: self.steps_taken,
            events,
            rebuilt,
        })
    }

    /// Rebuilds every rule resource from its default and the layers that hold now (see the
    /// module docs), appending a step for each change.
    pub fn rebuild(&mut self, host: &mut H, steps: &mut Vec<Step>) -> Result<(), EffectError> {
        self.steps_taken = 0;
        self.rebuild_within(host, steps)
    }

    fn rebuild_within(&mut self, host: &mut H, steps: &mut Vec<Step>) -> Result<(), EffectError> {
        host.reset_rules();
        let round = host.round();
        host.effects().ledger.prune(round);
        // Layer 2: lingering changes whose cause may be gone, kept for good.
        self.apply_ledger(host, steps, round, true)?;
        // Layer 3: the Passive rows of everything present.
        let passive = Event::new(Trigger::Passive);
        self.resolve_one(host, &passive, steps, Mode::Passive)?;
        // Layer 4: changes for this round only.
        self.apply_ledger(host, steps, round, false)
    }

    fn apply_ledger(
        &mut self,
        host: &mut H,
        steps: &mut Vec<Step>,
        round: u32,
        permanent: bool,
    ) -> Result<(), EffectError> {
        let count = host.effects().ledger.entries().len();
        for index in 0..count {
            let Some(entry) = host.effects().ledger.entries().get(index).cloned() else {
                break;
            };
            if (entry.duration == Duration::Permanent) != permanent || !entry.holds_in(round) {
                continue;
            }
            self.count_step()?;
            let change = match entry.operation {
                LingeringOperation::GainResource => host.gain_resource(
                    entry.target,
                    &entry.resource,
                    entry.amount,
                    &mut self.caused,
                ),
                LingeringOperation::SpendResource => host.spend_resource(
                    entry.target,
                    &entry.resource,
                    entry.amount,
                    &mut self.caused,
                ),
            }
            .map_err(|error| EffectError::Host {
                owner: entry.owner.clone(),
                row: entry.row,
                at: "lingering effect".into(),
                error,
            })?;
            if !self.caused.is_empty() {
                self.caused.clear();
                return Err(EffectError::EventDuringRebuild {
                    owner: entry.owner,
                    row: entry.row,
                });
            }
            let operation = match entry.operation {
                LingeringOperation::GainResource => "GainResource",
                LingeringOperation::SpendResource => "SpendResource",
            };
            steps.push(Step {
                kind: if permanent {
                    StepKind::Lingering
                } else {
                    StepKind::Round
                },
                owner: entry.owner.as_str().into(),
                anchor: entry.anchor,
                row: entry.row,
                trigger: entry.trigger.as_str().into(),
                operation: operation.into(),
                subject: Some(entry.resource.as_str().into()),
                target: entry.target,
                before: change.before,
                after: change.after,
            });
        }
        Ok(())
    }

    fn count_step(&mut self) -> Result<(), EffectError> {
        if self.steps_taken >= self.limits.max_steps {
            return Err(EffectError::StepLimit {
                limit: self.limits.max_steps,
            });
        }
        self.steps_taken += 1;
        Ok(())
    }

    /// Runs the rows of every owner present for `event`.
    fn resolve_one(
        &mut self,
        host: &mut H,
        event: &Event<H::Vocabulary>,
        steps: &mut Vec<Step>,
        mode: Mode,
    ) -> Result<(), EffectError> {
        let table = self.table;
        let mut owners = std::mem::take(&mut self.owners);
        owners.clear();
        host.owners(event, &mut Owners::new(table, &mut owners));
        let result = (|| {
            for owner in &owners {
                for &index in table.rows_for(owner.key, &event.trigger) {
                    let Some(row) = table.row(index) else {
                        continue;
                    };
                    self.run_row(host, event, owner, row, steps, mode)?;
                }
            }
            Ok(())
        })();
        self.owners = owners;
        result
    }

    fn run_row(
        &mut self,
        host: &mut H,
        event: &Event<H::Vocabulary>,
        owner: &OwnerInstance,
        row: &CompiledRow<H::Vocabulary>,
        steps: &mut Vec<Step>,
        mode: Mode,
    ) -> Result<(), EffectError> {
        let mut targets = std::mem::take(&mut self.targets);
        targets.clear();
        match row.scope {
            Scope::Game(scope) => host.scope_targets(scope, owner, event, &mut targets),
            scope => scope_targets(scope, owner, event, host.seat_count(), &mut targets),
        }
        let result = (|| {
            for &target in &targets {
                let context = RowContext {
                    event,
                    owner,
                    owner_ref: &row.owner_ref,
                    row: row.order,
                    target,
                };
                if !self.holds(host, row, &context)? {
                    continue;
                }
                self.act(host, row, &context, steps, mode)?;
            }
            Ok(())
        })();
        self.targets = targets;
        result
    }

    fn holds(
        &mut self,
        host: &mut H,
        row: &CompiledRow<H::Vocabulary>,
        context: &RowContext<'_, H::Vocabulary>,
    ) -> Result<bool, EffectError> {
        match &row.condition {
            CompiledCondition::Always => Ok(true),
            CompiledCondition::Formula(formula) => {
                let variables = HostVariables {
                    host: &*host,
                    context,
                };
                formula
                    .eval_bool(&variables)
                    .map_err(|error| evaluation(row, error))
            }
            CompiledCondition::Chance {
                chance,
                stream,
                guard,
            } => {
                if let Some(guard) = guard {
                    let variables = HostVariables {
                        host: &*host,
                        context,
                    };
                    if !guard
                        .eval_bool(&variables)
                        .map_err(|error| evaluation(row, error))?
                    {
                        return Ok(false);
                    }
                }
                let chance = host.chance(*chance, stream);
                host.streams()
                    .roll(stream, chance)
                    .map_err(|error| EffectError::Stream {
                        owner: row.owner_name.to_string(),
                        row: row.order,
                        error,
                    })
            }
            CompiledCondition::HasStatus { status, at_least } => {
                Ok(host.effects().statuses.stacks(context.target, status) >= *at_least)
            }
        }
    }

    /// Applies a row's operation to one target and writes its step.
    fn act(
        &mut self,
        host: &mut H,
        row: &CompiledRow<H::Vocabulary>,
        context: &RowContext<'_, H::Vocabulary>,
        steps: &mut Vec<Step>,
        mode: Mode,
    ) -> Result<(), EffectError> {
        self.count_step()?;
        let target = context.target;
        let mut kind = match mode {
            Mode::Event => StepKind::Instant,
            Mode::Passive => StepKind::Passive,
        };
        let caused = &mut self.caused;
        let host_error = |error: HostError| EffectError::Host {
            owner: row.owner_name.to_string(),
            row: row.order,
            at: location(row),
            error,
        };
        let change = match &row.operation {
            CompiledOperation::Damage(a) => {
                let amount = amount_of(&*host, row, a, context)?;
                host.damage(target, amount, caused).map_err(host_error)?
            }
            CompiledOperation::Heal(a) => {
                let amount = amount_of(&*host, row, a, context)?;
                host.heal(target, amount, caused).map_err(host_error)?
            }
            CompiledOperation::Draw(a) => {
                let amount = amount_of(&*host, row, a, context)?;
                host.draw(target, amount, caused).map_err(host_error)?
            }
            CompiledOperation::GainResource {
                resource,
                kind: resource_kind,
                amount: a,
            }
            | CompiledOperation::SpendResource {
                resource,
                kind: resource_kind,
                amount: a,
            } => {
                let amount = amount_of(&*host, row, a, context)?;
                let gain = matches!(row.operation, CompiledOperation::GainResource { .. });
                if *resource_kind == ResourceKind::Rule && mode == Mode::Event {
                    // A rule is never changed in place: record it, rebuild applies it. A
                    // target without the resource is refused now, not at a later rebuild.
                    let now = host
                        .resource(target, resource)
                        .ok_or_else(|| HostError::no_resource(target, resource))
                        .map_err(host_error)?;
                    let round = host.round();
                    let (from_round, until_round) = LingeringEffect::window(row.duration, round);
                    if (from_round..=until_round).contains(&round) {
                        self.rebuild_needed = true;
                    }
                    host.effects().ledger.record(LingeringEffect {
                        owner: row.owner_name.to_string(),
                        anchor: context.owner.anchor,
                        row: row.order,
                        trigger: row.trigger_name.to_string(),
                        target,
                        operation: if gain {
                            LingeringOperation::GainResource
                        } else {
                            LingeringOperation::SpendResource
                        },
                        resource: resource.to_string(),
                        amount,
                        duration: row.duration,
                        from_round,
                        until_round,
                    });
                    kind = StepKind::Recorded;
                    Change::int(now, now)
                } else if gain {
                    host.gain_resource(target, resource, amount, caused)
                        .map_err(host_error)?
                } else {
                    host.spend_resource(target, resource, amount, caused)
                        .map_err(host_error)?
                }
            }
            CompiledOperation::ApplyStatus {
                status,
                stacks,
                duration_turns,
            } => {
                let stacks = amount_of(&*host, row, stacks, context)?;
                host.apply_status(target, status, stacks, *duration_turns, caused)
                    .map_err(host_error)?
            }
            CompiledOperation::RemoveStatus { status, stacks } => {
                let stacks = match stacks {
                    Some(s) => Some(amount_of(&*host, row, s, context)?),
                    None => None,
                };
                host.remove_status(target, status, stacks, caused)
                    .map_err(host_error)?
            }
            CompiledOperation::Custom { handler, amount } => {
                let amount = match amount {
                    Some(a) => Some(amount_of(&*host, row, a, context)?),
                    None => None,
                };
                let Some(registered) = self.handlers.get(handler) else {
                    return Err(EffectError::UnknownHandler {
                        handler: handler.to_string(),
                    });
                };
                let call = HandlerCall {
                    owner: context.owner,
                    owner_ref: &row.owner_ref,
                    row: row.order,
                    event: context.event,
                    trigger: &row.trigger,
                    target,
                    amount,
                };
                (registered.run)(host, &call, caused).map_err(host_error)?
            }
            CompiledOperation::SetRule { rule, value } => {
                let value = amount_of(&*host, row, value, context)?;
                host.set_rule(target, rule, value).map_err(host_error)?
            }
            CompiledOperation::Game(operation) => host
                .operate(operation, context, caused)
                .map_err(|error| match error {
                    OperationError::Host(error) => host_error(error),
                    OperationError::Evaluation(error) => evaluation(row, error),
                })?,
        };
        if self.record {
            steps.push(Step {
                kind,
                owner: row.owner_name.clone(),
                anchor: context.owner.anchor,
                row: row.order,
                trigger: row.trigger_name.clone(),
                operation: row.operation_name.clone(),
                subject: row.subject.clone(),
                target,
                before: change.before,
                after: change.after,
            });
        }
        if !self.caused.is_empty() {
            if mode == Mode::Passive {
                self.caused.clear();
                return Err(EffectError::EventDuringRebuild {
                    owner: row.owner_name.to_string(),
                    row: row.order,
                });
            }
            self.queue.extend(self.caused.drain(..));
        }
        Ok(())
    }
}

impl CompiledAmount {
    /// Its value for a row acting in `context` on `host`: below zero counts as zero (and a
    /// formula of another type as zero, which a compiled amount never is).
    pub fn eval<H: EffectHost + ?Sized>(
        &self,
        host: &H,
        context: &RowContext<'_, H::Vocabulary>,
    ) -> Result<i64, EvalError> {
        match &self.0 {
            AmountForm::Value(n) => Ok(*n),
            AmountForm::Formula(formula) => {
                let variables = HostVariables { host, context };
                match formula.eval(&variables)? {
                    Value::Int(n) => Ok(n.max(0)),
                    _ => Ok(0),
                }
            }
        }
    }
}

impl CompiledFactor {
    /// Its value for a row acting in `context` on `host`: the decimal written, or the
    /// formula's `Fixed` (an `Int` counts as that whole number; another type as one).
    pub fn eval<H: EffectHost + ?Sized>(
        &self,
        host: &H,
        context: &RowContext<'_, H::Vocabulary>,
    ) -> Result<Fixed, EvalError> {
        match &self.0 {
            FactorForm::Value(v) => Ok(*v),
            FactorForm::Formula(formula) => {
                let variables = HostVariables { host, context };
                Ok(match formula.eval(&variables)? {
                    Value::Fixed(v) => v,
                    Value::Int(n) => Fixed::from_int(n),
                    _ => Fixed::ONE,
                })
            }
        }
    }
}

/// An amount's value for one row acting on one target: below zero counts as zero.
fn amount_of<H: EffectHost>(
    host: &H,
    row: &CompiledRow<H::Vocabulary>,
    amount: &CompiledAmount,
    context: &RowContext<'_, H::Vocabulary>,
) -> Result<i64, EffectError> {
    amount
        .eval(host, context)
        .map_err(|error| evaluation(row, error))
}

/// Where a row is in content, for error messages.
fn location<V: GameVocabulary>(row: &CompiledRow<V>) -> String {
    format!("{}{}", row.origin.file, row.origin.at("owner"))
}

fn evaluation<V: GameVocabulary>(row: &CompiledRow<V>, error: EvalError) -> EffectError {
    EffectError::Evaluation {
        owner: row.owner_name.to_string(),
        row: row.order,
        at: location(row),
        error,
    }
}

/// The targets of `scope` for `owner` and `event`, in the scope's order.
fn scope_targets<V: GameVocabulary>(
    scope: Scope<V>,
    owner: &OwnerInstance,
    event: &Event<V>,
    seat_count: u16,
    out: &mut Vec<Target>,
) {
    match scope {
        Scope::Self_ => out.push(owner.anchor),
        Scope::Owner => out.extend(owner.seat.map(Target::Seat)),
        Scope::Opponent => {
            if let Some(own) = owner.seat {
                out.extend(
                    (0..seat_count)
                        .map(Seat)
                        .filter(|s| *s != own)
                        .map(Target::Seat),
                );
            }
        }
        Scope::Target => out.extend(event.target),
        Scope::AllSeats => out.extend((0..seat_count).map(|s| Target::Seat(Seat(s)))),
        Scope::ActingSeat => out.extend(event.seat.map(Target::Seat)),
        // The game's scopes: listed by `EffectHost::scope_targets` instead.
        Scope::Game(_) => {}
    }
}
