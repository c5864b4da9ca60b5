//! The pure phase reducer: (phase state, pinned sequence, input) → new phase state and the
//! ordered record of what happened — transitions with fingerprints, and effect steps.
//!
//! The reducer owns the cursor and nothing else. It never runs an effect itself: entry and
//! exit effects are references handed, in order, to the host's [`PhaseHost::run_effects`],
//! which runs them on the one effect executor and returns its steps; conditions read the
//! host's variables through [`PhaseHost::variables`]; fingerprints cover the host's state
//! through [`PhaseHost::state_fingerprint`]. Three inputs drive it:
//!
//! | operation | what it does |
//! |---|---|
//! | [`PhaseGraphReducer::enter`] | cursor to the entry phase, its entry effects, then `Automatic` advance |
//! | [`PhaseGraphReducer::command`] | after a legal command was fully computed: its `Command` edge, if one fires, then `Automatic` advance |
//! | [`PhaseGraphReducer::activation_exit`] | `ActivationExit` edges until an `End` phase |
//!
//! Each operation resolves the state against the pinned content first and fails, before
//! anything executes, on any mismatch. An error after that (an ambiguous transition, the
//! automatic limit, a failing host) leaves the host part-way through, exactly as a failing
//! command does anywhere in the engine: the caller applies commands on a copy and discards it.

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::CanonicalError;
use turnstile_core::Fingerprint;
use turnstile_formula::{EvalError, VariableSource};

use crate::definition::{EdgeDefinition, EdgeTrigger, PhaseDefinition, PhaseRole};
use crate::sequence::{CompiledEdge, PhaseCatalog, PhaseSequence};
use crate::state::{PhaseState, PhaseStateError, ResolvedPhase};

/// A command, as the reducer sees it: its type and the tags of the card or ability behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseCommand<'a> {
    /// The command's type (`PLAY_CARD`).
    pub command_type: &'a str,
    /// The tags of the card or ability behind it, and any the host adds once the command is
    /// fully computed (the `priority-window` preset expects `closes_window` on the pass that
    /// closed a response window).
    pub tags: &'a [&'a str],
}

/// Why an activation is ending: the events on which `ActivationExit` fires.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all_fields = "camelCase")]
pub enum ExitReason {
    /// An explicit end-turn action.
    EndTurnAction,
    /// An accepted Skip.
    Skip,
    /// The turn's deadline passed (a system `Timeout`).
    Timeout,
    /// A game rule ended the activation (a stun, a win, a forfeit).
    GameRule {
        /// The rule's stable name.
        rule: String,
    },
}

/// Entry or exit effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EffectMoment {
    /// Run on entering a phase.
    Entry,
    /// Run on leaving a phase.
    Exit,
}

/// What a condition is evaluated about: the host builds its variables from this.
#[derive(Clone, Copy, Debug)]
pub struct EdgeContext<'a> {
    /// The sequence.
    pub sequence_id: &'a str,
    /// The phase the edge leaves (its `order` is `phase_order`).
    pub phase: &'a PhaseDefinition,
    /// The edge whose condition is asked.
    pub edge: &'a EdgeDefinition,
    /// The command behind the current operation, if it is [`PhaseGraphReducer::command`]
    /// (also while `Automatic` edges are followed after it).
    pub command: Option<PhaseCommand<'a>>,
    /// The exit reason, if the operation is [`PhaseGraphReducer::activation_exit`].
    pub exit_reason: Option<&'a ExitReason>,
}

/// A host's refusal or failure (an effect that could not run, a state that has no canonical
/// form), with its own stable code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[error("{message} ({code})")]
pub struct HostFailure {
    /// The host's stable code.
    pub code: String,
    /// What went wrong, for a person.
    pub message: String,
}

impl HostFailure {
    /// A failure.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> HostFailure {
        HostFailure {
            code: code.into(),
            message: message.into(),
        }
    }
}

/// What the reducer needs from the game around it.
pub trait PhaseHost {
    /// One step of the effect executor, as it goes into the receipt.
    type Step;

    /// The variables a condition reads in `context`, in the slot order of the schema the
    /// sequence was validated with (see [`crate::phase_condition_schema`]).
    fn variables(&self, context: &EdgeContext<'_>) -> impl VariableSource;

    /// Runs `effects` — entry or exit effect references of `phase`, in order — on the effect
    /// executor, returning its steps. Called only when the list is not empty.
    fn run_effects(
        &mut self,
        phase: &PhaseDefinition,
        moment: EffectMoment,
        effects: &[String],
    ) -> Result<Vec<Self::Step>, HostFailure>;

    /// The fingerprint of the host's state as it stands now, phase state aside (the reducer
    /// combines the two; see [`phase_fingerprint`]).
    fn state_fingerprint(&mut self) -> Result<Fingerprint, HostFailure>;
}

/// The fingerprint recorded before and after a transition: the canonical JSON of
/// `{"host": <host state fingerprint>, "phase": <phase state>}`.
pub fn phase_fingerprint(
    host: Fingerprint,
    phase: &PhaseState,
) -> Result<Fingerprint, CanonicalError> {
    #[derive(Serialize)]
    struct Combined<'a> {
        host: Fingerprint,
        phase: &'a PhaseState,
    }
    Fingerprint::of(&Combined { host, phase })
}

/// One transition along an edge, as the receipt records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseTransition {
    /// The edge taken.
    pub edge_id: String,
    /// The phase left.
    pub from: String,
    /// The phase entered.
    pub to: String,
    /// The edge's trigger.
    pub trigger: EdgeTrigger,
    /// The edge's priority.
    pub priority: i64,
    /// [`phase_fingerprint`] before the old phase's exit effects.
    pub before: Fingerprint,
    /// [`phase_fingerprint`] after the new phase's entry effects.
    pub after: Fingerprint,
}

/// One thing an operation did, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all_fields = "camelCase")]
pub enum PhaseRecord<S> {
    /// [`PhaseGraphReducer::enter`] moved the cursor to the entry phase (not along an edge).
    Entered {
        /// Where the cursor was (the previous activation's `End` phase, or the entry phase of
        /// a new state).
        from: String,
        /// The entry phase.
        to: String,
        /// [`phase_fingerprint`] before.
        before: Fingerprint,
        /// [`phase_fingerprint`] after the entry effects.
        after: Fingerprint,
    },
    /// A transition along an edge. Its effects follow it as `Effects` records.
    Transition(PhaseTransition),
    /// The steps of a phase's entry or exit effects.
    Effects {
        /// The phase whose effects ran.
        phase: String,
        /// Entry or exit.
        moment: EffectMoment,
        /// The executor's steps.
        steps: Vec<S>,
    },
}

/// What an operation produced: the new phase state and the ordered record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseOutcome<S> {
    /// The new phase state.
    pub state: PhaseState,
    /// Everything that happened, in order.
    pub records: Vec<PhaseRecord<S>>,
    /// Whether the cursor now rests on an `End` phase: the activation is over.
    pub activation_ended: bool,
}

impl<S> PhaseOutcome<S> {
    /// The transitions, in order.
    pub fn transitions(&self) -> impl Iterator<Item = &PhaseTransition> + '_ {
        self.records.iter().filter_map(|r| match r {
            PhaseRecord::Transition(t) => Some(t),
            _ => None,
        })
    }
}

/// Why an operation failed. [`PhaseError::State`] is always returned before anything ran.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PhaseError {
    /// The state does not resolve against the pinned content; nothing ran.
    #[error(transparent)]
    State(#[from] PhaseStateError),
    /// Several edges fire at the highest priority among those whose condition holds.
    #[error(
        "ambiguous transition in phase `{phase_id}`: {trigger:?} edges {} all fire at priority \
         {priority}; a tie is never resolved by choice",
        edges.join(", ")
    )]
    AmbiguousTransition {
        /// The phase.
        phase_id: String,
        /// The trigger.
        trigger: EdgeTrigger,
        /// The tied priority.
        priority: i64,
        /// The tied edges, in file order.
        edges: Vec<String>,
    },
    /// One more `Automatic` transition would exceed `maxAutomaticTransitions`.
    #[error(
        "more than {limit} automatic transitions in one operation (at phase `{phase_id}`): \
         the sequence's maxAutomaticTransitions"
    )]
    AutomaticLimitExceeded {
        /// Where the next transition would have left from.
        phase_id: String,
        /// The limit.
        limit: u32,
    },
    /// The activation must end, but no `ActivationExit` edge of the phase fires.
    #[error("the activation must end, but no ActivationExit edge of phase `{phase_id}` fires")]
    NoExitEdge {
        /// The phase.
        phase_id: String,
    },
    /// The activation has ended (the cursor is on an `End` phase); enter the next one first.
    #[error("the activation has ended in phase `{phase_id}`; the next one must be entered first")]
    ActivationEnded {
        /// The `End` phase.
        phase_id: String,
    },
    /// A condition could not be evaluated (a division by zero, a broken context).
    #[error("the condition of edge `{edge_id}` failed: {error}")]
    Condition {
        /// The edge.
        edge_id: String,
        /// Why.
        error: EvalError,
    },
    /// The host failed (an effect could not run, a fingerprint could not be taken).
    #[error("the host failed: {0}")]
    Host(HostFailure),
    /// A phase state without a canonical form (a defect, never content's fault).
    #[error("a phase state has no canonical form: {0}")]
    NotCanonical(String),
}

impl PhaseError {
    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            PhaseError::State(e) => e.code(),
            PhaseError::AmbiguousTransition { .. } => "ambiguous_transition",
            PhaseError::AutomaticLimitExceeded { .. } => "automatic_limit_exceeded",
            PhaseError::NoExitEdge { .. } => "no_exit_edge",
            PhaseError::ActivationEnded { .. } => "activation_ended",
            PhaseError::Condition { .. } => "condition_failed",
            PhaseError::Host(_) => "host_failure",
            PhaseError::NotCanonical(_) => "not_canonical",
        }
    }
}

impl From<HostFailure> for PhaseError {
    fn from(failure: HostFailure) -> PhaseError {
        PhaseError::Host(failure)
    }
}

/// The reducer over one pinned content: a catalog of sequences and its revision.
#[derive(Clone, Copy, Debug)]
pub struct PhaseGraphReducer<'c> {
    catalog: &'c PhaseCatalog,
    revision: Fingerprint,
}

impl<'c> PhaseGraphReducer<'c> {
    /// The reducer over `catalog`, pinned at content `revision`.
    pub fn new(catalog: &'c PhaseCatalog, revision: Fingerprint) -> PhaseGraphReducer<'c> {
        PhaseGraphReducer { catalog, revision }
    }

    /// The pinned revision.
    pub fn revision(&self) -> Fingerprint {
        self.revision
    }

    /// A new match's phase state for `sequence_id`: the cursor on the entry phase, not yet
    /// entered (call [`PhaseGraphReducer::enter`] to begin the first activation).
    pub fn initial_state(&self, sequence_id: &str) -> Result<PhaseState, PhaseStateError> {
        let sequence =
            self.catalog
                .get(sequence_id)
                .ok_or_else(|| PhaseStateError::UnknownSequence {
                    sequence_id: sequence_id.to_owned(),
                })?;
        Ok(PhaseState {
            sequence_id: sequence_id.to_owned(),
            content_revision: self.revision,
            cursor: sequence.entry_phase().phase_id.clone(),
        })
    }

    /// Resolves `state` against the pinned content (see [`ResolvedPhase::resolve`]).
    pub fn resolve(&self, state: &PhaseState) -> Result<ResolvedPhase<'c>, PhaseStateError> {
        ResolvedPhase::resolve(self.catalog, self.revision, state)
    }

    /// Begins an activation: the cursor moves to the entry phase (from wherever it was,
    /// normally the previous activation's `End` phase), the entry phase's entry effects run,
    /// then `Automatic` edges are followed until none fires.
    pub fn enter<H: PhaseHost>(
        &self,
        state: &PhaseState,
        host: &mut H,
    ) -> Result<PhaseOutcome<H::Step>, PhaseError> {
        let resolved = self.resolve(state)?;
        let mut run = Run::new(resolved, state, host, None, None);
        let before = run.fingerprint()?;
        let entry = run.sequence.entry;
        run.index = entry;
        run.state.cursor = run.sequence.phase_at(entry).phase_id.clone();
        let steps = run.effects(entry, EffectMoment::Entry)?;
        let after = run.fingerprint()?;
        run.last = Some(after);
        run.records.push(PhaseRecord::Entered {
            from: state.cursor.clone(),
            to: run.state.cursor.clone(),
            before,
            after,
        });
        run.push_effects(entry, EffectMoment::Entry, steps);
        run.settle()?;
        Ok(run.finish())
    }

    /// After a legal command has been fully computed: the highest-priority `Command` edge
    /// whose filters match the command and whose condition holds fires (a tie is
    /// [`PhaseError::AmbiguousTransition`]); none firing leaves the cursor. Then `Automatic`
    /// edges are followed, since the command may have made their conditions true.
    pub fn command<H: PhaseHost>(
        &self,
        state: &PhaseState,
        command: PhaseCommand<'_>,
        host: &mut H,
    ) -> Result<PhaseOutcome<H::Step>, PhaseError> {
        let resolved = self.resolve(state)?;
        let mut run = Run::new(resolved, state, host, Some(command), None);
        run.refuse_if_ended()?;
        if let Some(edge) = run.choose(EdgeTrigger::Command)? {
            run.transition(edge)?;
        }
        run.settle()?;
        Ok(run.finish())
    }

    /// The activation is ending (`reason`): `ActivationExit` edges are followed — the
    /// highest-priority one whose condition holds, at each phase — until the cursor reaches an
    /// `End` phase. Hops after the first count against `maxAutomaticTransitions`.
    pub fn activation_exit<H: PhaseHost>(
        &self,
        state: &PhaseState,
        reason: &ExitReason,
        host: &mut H,
    ) -> Result<PhaseOutcome<H::Step>, PhaseError> {
        let resolved = self.resolve(state)?;
        let mut run = Run::new(resolved, state, host, None, Some(reason));
        run.refuse_if_ended()?;
        let mut first = true;
        while run.role() != PhaseRole::End {
            let Some(edge) = run.choose(EdgeTrigger::ActivationExit)? else {
                return Err(PhaseError::NoExitEdge {
                    phase_id: run.state.cursor.clone(),
                });
            };
            if !first {
                run.count_automatic()?;
            }
            first = false;
            run.transition(edge)?;
        }
        Ok(run.finish())
    }
}

/// One operation in progress.
struct Run<'c, 'h, 'i, H: PhaseHost> {
    sequence: &'c PhaseSequence,
    index: u16,
    state: PhaseState,
    host: &'h mut H,
    command: Option<PhaseCommand<'i>>,
    exit_reason: Option<&'i ExitReason>,
    records: Vec<PhaseRecord<H::Step>>,
    /// The fingerprint after the last transition, valid until the host is called mutably.
    last: Option<Fingerprint>,
    automatic: u32,
}

impl<'c, 'h, 'i, H: PhaseHost> Run<'c, 'h, 'i, H> {
    fn new(
        resolved: ResolvedPhase<'c>,
        state: &PhaseState,
        host: &'h mut H,
        command: Option<PhaseCommand<'i>>,
        exit_reason: Option<&'i ExitReason>,
    ) -> Self {
        Run {
            sequence: resolved.sequence,
            index: resolved.index,
            state: state.clone(),
            host,
            command,
            exit_reason,
            records: Vec::new(),
            last: None,
            automatic: 0,
        }
    }

    fn role(&self) -> PhaseRole {
        self.sequence.phase_at(self.index).role
    }

    fn refuse_if_ended(&self) -> Result<(), PhaseError> {
        if self.role() == PhaseRole::End {
            return Err(PhaseError::ActivationEnded {
                phase_id: self.state.cursor.clone(),
            });
        }
        Ok(())
    }

    fn fingerprint(&mut self) -> Result<Fingerprint, PhaseError> {
        let host = self.host.state_fingerprint()?;
        phase_fingerprint(host, &self.state).map_err(|e| PhaseError::NotCanonical(e.to_string()))
    }

    fn count_automatic(&mut self) -> Result<(), PhaseError> {
        let limit = self.sequence.max_automatic_transitions();
        if self.automatic >= limit {
            return Err(PhaseError::AutomaticLimitExceeded {
                phase_id: self.state.cursor.clone(),
                limit,
            });
        }
        self.automatic += 1;
        Ok(())
    }

    /// The edge of `trigger` that fires at the cursor, if any: the first priority group, from
    /// the highest, in which any edge passes its filters and condition; two or more passing
    /// in that group is an ambiguity.
    fn choose(&self, trigger: EdgeTrigger) -> Result<Option<&'c CompiledEdge>, PhaseError> {
        let sequence = self.sequence;
        let phase = sequence.phase_at(self.index);
        let edges = sequence.compiled(self.index).edges(trigger);
        let mut start = 0;
        while start < edges.len() {
            let priority = sequence.edge_at(self.index, &edges[start]).priority;
            let end = edges[start..]
                .iter()
                .position(|e| sequence.edge_at(self.index, e).priority != priority)
                .map_or(edges.len(), |k| start + k);
            let mut chosen: Option<&'c CompiledEdge> = None;
            let mut tied: Vec<String> = Vec::new();
            for compiled in &edges[start..end] {
                let edge = sequence.edge_at(self.index, compiled);
                if let Some(command) = self.command {
                    if trigger == EdgeTrigger::Command
                        && !edge.matches_command(command.command_type, command.tags)
                    {
                        continue;
                    }
                }
                let holds = match &compiled.condition {
                    None => true,
                    Some(condition) => {
                        let context = EdgeContext {
                            sequence_id: sequence.sequence_id(),
                            phase,
                            edge,
                            command: self.command,
                            exit_reason: self.exit_reason,
                        };
                        let variables = self.host.variables(&context);
                        condition
                            .eval_bool(&variables)
                            .map_err(|error| PhaseError::Condition {
                                edge_id: edge.edge_id.clone(),
                                error,
                            })?
                    }
                };
                if !holds {
                    continue;
                }
                match chosen {
                    None => chosen = Some(compiled),
                    Some(first) => {
                        if tied.is_empty() {
                            tied.push(sequence.edge_at(self.index, first).edge_id.clone());
                        }
                        tied.push(edge.edge_id.clone());
                    }
                }
            }
            if !tied.is_empty() {
                return Err(PhaseError::AmbiguousTransition {
                    phase_id: phase.phase_id.clone(),
                    trigger,
                    priority,
                    edges: tied,
                });
            }
            if chosen.is_some() {
                return Ok(chosen);
            }
            start = end;
        }
        Ok(None)
    }

    fn effects(&mut self, phase: u16, moment: EffectMoment) -> Result<Vec<H::Step>, PhaseError> {
        let definition = self.sequence.phase_at(phase);
        let effects = match moment {
            EffectMoment::Entry => &definition.entry_effects,
            EffectMoment::Exit => &definition.exit_effects,
        };
        if effects.is_empty() {
            return Ok(Vec::new());
        }
        self.last = None;
        Ok(self.host.run_effects(definition, moment, effects)?)
    }

    fn push_effects(&mut self, phase: u16, moment: EffectMoment, steps: Vec<H::Step>) {
        let definition = self.sequence.phase_at(phase);
        let effects = match moment {
            EffectMoment::Entry => &definition.entry_effects,
            EffectMoment::Exit => &definition.exit_effects,
        };
        if !effects.is_empty() {
            self.records.push(PhaseRecord::Effects {
                phase: definition.phase_id.clone(),
                moment,
                steps,
            });
        }
    }

    /// Exit effects of the current phase, the cursor moved, entry effects of the new one.
    fn transition(&mut self, edge: &'c CompiledEdge) -> Result<(), PhaseError> {
        let before = match self.last.take() {
            Some(fingerprint) => fingerprint,
            None => self.fingerprint()?,
        };
        let from = self.index;
        let definition = self.sequence.edge_at(from, edge);
        let exit_steps = self.effects(from, EffectMoment::Exit)?;
        self.index = edge.target;
        self.state.cursor = self.sequence.phase_at(edge.target).phase_id.clone();
        let entry_steps = self.effects(edge.target, EffectMoment::Entry)?;
        let after = self.fingerprint()?;
        self.last = Some(after);
        self.records.push(PhaseRecord::Transition(PhaseTransition {
            edge_id: definition.edge_id.clone(),
            from: self.sequence.phase_at(from).phase_id.clone(),
            to: self.state.cursor.clone(),
            trigger: definition.trigger,
            priority: definition.priority,
            before,
            after,
        }));
        self.push_effects(from, EffectMoment::Exit, exit_steps);
        self.push_effects(edge.target, EffectMoment::Entry, entry_steps);
        Ok(())
    }

    /// Follows `Automatic` edges until none fires (or the cursor is on an `End` phase, which
    /// has none).
    fn settle(&mut self) -> Result<(), PhaseError> {
        while self.role() != PhaseRole::End {
            let Some(edge) = self.choose(EdgeTrigger::Automatic)? else {
                break;
            };
            self.count_automatic()?;
            self.transition(edge)?;
        }
        Ok(())
    }

    fn finish(self) -> PhaseOutcome<H::Step> {
        let activation_ended = self.role() == PhaseRole::End;
        PhaseOutcome {
            state: self.state,
            records: self.records,
            activation_ended,
        }
    }
}

#[cfg(test)]
mod tests {
    //! The reducer's guard against ties. Validated content cannot tie (the static rule refuses
    //! overlapping edges of one priority unless their conditions are exclusive), so these
    //! sequences are built without that one rule.

    use turnstile_formula::{Type, Value, VariableSchema};

    use super::*;
    use crate::validate::{validate_allowing_ambiguity, ValidationContext};

    struct Host {
        round: i64,
    }

    impl PhaseHost for Host {
        type Step = ();

        fn variables(&self, _context: &EdgeContext<'_>) -> impl VariableSource {
            [Value::Int(self.round)]
        }

        fn run_effects(
            &mut self,
            _phase: &PhaseDefinition,
            _moment: EffectMoment,
            _effects: &[String],
        ) -> Result<Vec<()>, HostFailure> {
            Ok(Vec::new())
        }

        fn state_fingerprint(&mut self) -> Result<Fingerprint, HostFailure> {
            Ok(Fingerprint::of_bytes(b"host"))
        }
    }

    const TIED: &str = r#"{
      "sequenceId": "tied", "version": 1, "entryPhaseId": "start", "maxAutomaticTransitions": 4,
      "phases": [
        { "phaseId": "start", "role": "Start", "order": 1,
          "edges": [ { "edgeId": "go", "targetPhaseId": "action", "trigger": "Automatic" } ] },
        { "phaseId": "action", "role": "Middle", "order": 2,
          "edges": [
            { "edgeId": "top", "targetPhaseId": "end", "trigger": "Command", "priority": 5,
              "condition": "round < 2" },
            { "edgeId": "early", "targetPhaseId": "end", "trigger": "Command", "condition": "round < 3" },
            { "edgeId": "small", "targetPhaseId": "end", "trigger": "Command", "condition": "round < 5" },
            { "edgeId": "any", "targetPhaseId": "end", "trigger": "Command", "commandTypes": ["X"],
              "condition": "round > 4" },
            { "edgeId": "leave", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
        { "phaseId": "end", "role": "End", "order": 3 }
      ]
    }"#;

    #[test]
    fn a_tie_at_the_highest_priority_that_holds_is_an_error_never_a_choice() {
        let schema = VariableSchema::from_declarations([("round", Type::Int)]).unwrap();
        let context = ValidationContext::new(&schema);
        let (definition, problems) = crate::json::read_definition("tied.json", TIED);
        assert!(problems.is_empty());
        let sequence =
            validate_allowing_ambiguity("tied.json", definition.unwrap(), &context).unwrap();
        let mut catalog = PhaseCatalog::new();
        catalog.insert("tied.json", sequence).unwrap();
        let revision = Fingerprint::of_bytes(b"r");
        let reducer = PhaseGraphReducer::new(&catalog, revision);
        let state = PhaseState {
            sequence_id: "tied".into(),
            content_revision: revision,
            cursor: "action".into(),
        };
        let x = PhaseCommand {
            command_type: "X",
            tags: &[],
        };
        let y = PhaseCommand {
            command_type: "Y",
            tags: &[],
        };
        // Round 2: `early` and `small` both hold at priority 0.
        let error = reducer
            .command(&state, x, &mut Host { round: 2 })
            .unwrap_err();
        assert_eq!(error.code(), "ambiguous_transition");
        assert_eq!(
            error,
            PhaseError::AmbiguousTransition {
                phase_id: "action".into(),
                trigger: EdgeTrigger::Command,
                priority: 0,
                edges: vec!["early".into(), "small".into()],
            }
        );
        // Round 4: only `small` holds.
        let outcome = reducer.command(&state, x, &mut Host { round: 4 }).unwrap();
        assert_eq!(outcome.transitions().next().unwrap().edge_id, "small");
        // Round 6: only `any` holds — and only for a command its filter matches.
        let outcome = reducer.command(&state, x, &mut Host { round: 6 }).unwrap();
        assert_eq!(outcome.transitions().next().unwrap().edge_id, "any");
        let outcome = reducer.command(&state, y, &mut Host { round: 6 }).unwrap();
        assert_eq!(outcome.transitions().count(), 0);
        // Round 1: priority 5 holds and wins; the tie below it is never looked at.
        let outcome = reducer.command(&state, x, &mut Host { round: 1 }).unwrap();
        assert_eq!(outcome.transitions().next().unwrap().edge_id, "top");
    }
}
