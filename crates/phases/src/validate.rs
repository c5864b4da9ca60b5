//! The publish-time validator: every rule of spec/phases.md ("Publishing"), each problem
//! reported — all of them, never only the first — with the file, a JSON pointer to the
//! sequence, phase or edge at fault, a stable code and a sentence saying why.
//!
//! Rules, in the order they are checked (codes in parentheses):
//!
//! 1. shape: the file parses (`malformed_json`, `invalid_value`) and repeats no key
//!    (`duplicate_key`, which is how a duplicate `entryPhaseId` is caught);
//! 2. limits: `maxAutomaticTransitions` in `1..=1024`
//!    (`max_automatic_transitions_out_of_range`), at most [`MAX_PHASES`] phases
//!    (`too_many_phases`) and [`MAX_EDGES_PER_PHASE`] edges a phase (`too_many_edges`);
//! 3. ids: none empty (`empty_id`), phase ids unique (`duplicate_phase_id`), edge ids unique in
//!    the sequence (`duplicate_edge_id`), `entryPhaseId` present (`missing_entry_phase`) and
//!    naming a phase (`unknown_entry_phase`), edge targets naming a phase
//!    (`unknown_target_phase`), effect references known to the host (`unknown_effect`);
//! 4. things the reducer would never do: edges out of an `End` phase (`end_phase_edge`), exit
//!    effects on an `End` phase (`end_phase_exit_effects`), command filters on an edge that is
//!    not a `Command` edge (`filter_needs_command_trigger`);
//! 5. conditions compile against the context's schema (the formula's own code:
//!    `unknown_variable`, `unexpected_token`, `not_a_condition`...), with line and column;
//! 6. no statically ambiguous edges (`ambiguous_edges`);
//! 7. the graph: no phase unreachable from the entry (`unreachable_phase`), at least one
//!    reachable phase of each role (`missing_role`), no dead end (`dead_end`), no cycle of
//!    `Automatic` edges (`automatic_cycle`), and from every phase an activation can rest in, a
//!    chain of `ActivationExit` edges to an `End` phase (`no_activation_exit`).

use std::collections::BTreeMap;

use turnstile_core::{ContentProblem, Location};
use turnstile_formula::{Formula, VariableSchema};

use crate::definition::{EdgeTrigger, PhaseRole, PhaseSequenceDefinition};
use crate::sequence::{CompiledEdge, CompiledPhase, PhaseSequence};

/// The most phases a sequence may have.
pub const MAX_PHASES: usize = 1024;

/// The most edges one phase may have.
pub const MAX_EDGES_PER_PHASE: usize = 256;

/// The bounds of `maxAutomaticTransitions`, inclusive.
pub const AUTOMATIC_TRANSITIONS_RANGE: (i64, i64) = (1, 1024);

/// What the validator needs from the game: the schema conditions compile against and,
/// optionally, which effect ids its content defines.
#[derive(Clone, Copy)]
pub struct ValidationContext<'a> {
    /// The variables conditions may read (see [`crate::phase_condition_schema`]).
    pub schema: &'a VariableSchema,
    /// Whether the content defines an effect id; `None` leaves effect references unchecked
    /// (the host then resolves them when it runs them).
    pub effect_exists: Option<&'a dyn Fn(&str) -> bool>,
    /// The command types the game has; `None` leaves `allowedActions` and edges'
    /// `commandTypes` unchecked. Publishable content announces no capability the game lacks
    /// (seed 002), so a game passes its types and a preset naming another is refused.
    pub command_types: Option<&'a [&'a str]>,
}

impl<'a> ValidationContext<'a> {
    /// A context that checks conditions against `schema` and leaves effect references to the
    /// host.
    pub fn new(schema: &'a VariableSchema) -> ValidationContext<'a> {
        ValidationContext {
            schema,
            effect_exists: None,
            command_types: None,
        }
    }

    /// The same context, also checking effect references with `effect_exists`.
    pub fn with_effects(self, effect_exists: &'a dyn Fn(&str) -> bool) -> ValidationContext<'a> {
        ValidationContext {
            effect_exists: Some(effect_exists),
            ..self
        }
    }

    /// The same context, also refusing (`unknown_command_type`) an allowed action or an
    /// edge's command type that is not one of `types`.
    pub fn with_command_types(self, types: &'a [&'a str]) -> ValidationContext<'a> {
        ValidationContext {
            command_types: Some(types),
            ..self
        }
    }
}

/// Reads a sequence file and validates it: the definition's every problem, or the sequence.
pub fn load_sequence(
    file: &str,
    text: &str,
    context: &ValidationContext<'_>,
) -> Result<PhaseSequence, Vec<ContentProblem>> {
    let (definition, mut problems) = crate::json::read_definition(file, text);
    let Some(definition) = definition else {
        return Err(problems);
    };
    match validate_sequence(file, definition, context) {
        Ok(sequence) if problems.is_empty() => Ok(sequence),
        Ok(_) => Err(problems),
        Err(mut more) => {
            problems.append(&mut more);
            Err(problems)
        }
    }
}

/// Validates a parsed definition read from `file`: the sequence, or every problem found.
pub fn validate_sequence(
    file: &str,
    definition: PhaseSequenceDefinition,
    context: &ValidationContext<'_>,
) -> Result<PhaseSequence, Vec<ContentProblem>> {
    validate(file, definition, context, true)
}

/// [`validate_sequence`] without the static ambiguity rule: only for tests of the reducer's
/// own guard against ties, which validated content can never reach.
#[cfg(test)]
pub(crate) fn validate_allowing_ambiguity(
    file: &str,
    definition: PhaseSequenceDefinition,
    context: &ValidationContext<'_>,
) -> Result<PhaseSequence, Vec<ContentProblem>> {
    validate(file, definition, context, false)
}

fn validate(
    file: &str,
    definition: PhaseSequenceDefinition,
    context: &ValidationContext<'_>,
    check_ambiguity: bool,
) -> Result<PhaseSequence, Vec<ContentProblem>> {
    let mut v = Validator {
        file,
        definition: &definition,
        context,
        check_ambiguity,
        problems: Vec::new(),
    };
    let built = v.run();
    let problems = v.problems;
    match built {
        Some((entry, by_id, phases)) if problems.is_empty() => Ok(PhaseSequence {
            definition,
            entry,
            by_id,
            phases,
        }),
        _ => Err(problems),
    }
}

type Built = (u16, BTreeMap<String, u16>, Vec<CompiledPhase>);

struct Validator<'v> {
    file: &'v str,
    definition: &'v PhaseSequenceDefinition,
    context: &'v ValidationContext<'v>,
    check_ambiguity: bool,
    problems: Vec<ContentProblem>,
}

/// One edge as the graph rules see it.
struct GraphEdge {
    edge: u16,
    target: Option<u16>,
    trigger: EdgeTrigger,
    unconditional: bool,
}

impl Validator<'_> {
    fn report(&mut self, pointer: String, code: &str, message: String) {
        self.problems.push(ContentProblem::new(
            self.file,
            Location::Pointer { pointer },
            code,
            message,
        ));
    }

    fn sequence_name(&self) -> String {
        format!("sequence `{}`", self.definition.sequence_id)
    }

    fn phase_name(&self, phase: usize) -> String {
        format!(
            "sequence `{}`, phase `{}`",
            self.definition.sequence_id, self.definition.phases[phase].phase_id
        )
    }

    fn edge_name(&self, phase: usize, edge: usize) -> String {
        format!(
            "sequence `{}`, phase `{}`, edge `{}`",
            self.definition.sequence_id,
            self.definition.phases[phase].phase_id,
            self.definition.phases[phase].edges[edge].edge_id
        )
    }

    fn run(&mut self) -> Option<Built> {
        let def = self.definition;

        // 2. Limits.
        let (low, high) = AUTOMATIC_TRANSITIONS_RANGE;
        if !(low..=high).contains(&def.max_automatic_transitions) {
            self.report(
                "/maxAutomaticTransitions".into(),
                "max_automatic_transitions_out_of_range",
                format!(
                    "{}: maxAutomaticTransitions is {}, but it must be between {low} and {high}",
                    self.sequence_name(),
                    def.max_automatic_transitions
                ),
            );
        }
        if def.phases.len() > MAX_PHASES {
            self.report(
                "/phases".into(),
                "too_many_phases",
                format!(
                    "{}: {} phases; a sequence may have at most {MAX_PHASES}",
                    self.sequence_name(),
                    def.phases.len()
                ),
            );
            return None;
        }
        let mut too_many_edges = false;
        for (p, phase) in def.phases.iter().enumerate() {
            if phase.edges.len() > MAX_EDGES_PER_PHASE {
                too_many_edges = true;
                self.report(
                    format!("/phases/{p}/edges"),
                    "too_many_edges",
                    format!(
                        "{}: {} edges; a phase may have at most {MAX_EDGES_PER_PHASE}",
                        self.phase_name(p),
                        phase.edges.len()
                    ),
                );
            }
        }
        if too_many_edges {
            return None;
        }

        // 3. Ids.
        if def.sequence_id.is_empty() {
            self.report(
                "/sequenceId".into(),
                "empty_id",
                "the sequence's sequenceId is empty; a match's phase state names its sequence by this id"
                    .into(),
            );
        }
        let mut by_id: BTreeMap<String, u16> = BTreeMap::new();
        for (p, phase) in def.phases.iter().enumerate() {
            if phase.phase_id.is_empty() {
                self.report(
                    format!("/phases/{p}/phaseId"),
                    "empty_id",
                    format!("{}: the phase id is empty", self.phase_name(p)),
                );
                continue;
            }
            match by_id.get(&phase.phase_id) {
                Some(&first) => self.report(
                    format!("/phases/{p}/phaseId"),
                    "duplicate_phase_id",
                    format!(
                        "{}: the id is already used by /phases/{first}; a cursor must name one phase",
                        self.phase_name(p)
                    ),
                ),
                None => {
                    // Indices fit: at most MAX_PHASES phases.
                    by_id.insert(phase.phase_id.clone(), p as u16);
                }
            }
        }
        let entry = if def.entry_phase_id.is_empty() {
            self.report(
                "/entryPhaseId".into(),
                "missing_entry_phase",
                format!(
                    "{}: entryPhaseId is missing or empty; every activation must know where it begins",
                    self.sequence_name()
                ),
            );
            None
        } else {
            let found = by_id.get(&def.entry_phase_id).copied();
            if found.is_none() {
                self.report(
                    "/entryPhaseId".into(),
                    "unknown_entry_phase",
                    format!(
                        "{}: entryPhaseId `{}` names no phase of the sequence",
                        self.sequence_name(),
                        def.entry_phase_id
                    ),
                );
            }
            found
        };

        let mut edge_ids: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut graph: Vec<Vec<GraphEdge>> = Vec::with_capacity(def.phases.len());
        let mut conditions: Vec<Vec<Option<Result<Formula, ()>>>> = Vec::new();
        for (p, phase) in def.phases.iter().enumerate() {
            // 4. Things the reducer would never do.
            if phase.role == PhaseRole::End && !phase.edges.is_empty() {
                self.report(
                    format!("/phases/{p}/edges"),
                    "end_phase_edge",
                    format!(
                        "{}: an End phase ends the activation, so the reducer never follows an \
                         edge out of it; remove its {} edge(s) or give the phase another role",
                        self.phase_name(p),
                        phase.edges.len()
                    ),
                );
            }
            if phase.role == PhaseRole::End && !phase.exit_effects.is_empty() {
                self.report(
                    format!("/phases/{p}/exitEffects"),
                    "end_phase_exit_effects",
                    format!(
                        "{}: an activation never leaves an End phase (the next one enters the \
                         entry phase afresh), so these exit effects would never run",
                        self.phase_name(p)
                    ),
                );
            }
            if let Some(exists) = self.context.effect_exists {
                for (list, effects) in [
                    ("entryEffects", &phase.entry_effects),
                    ("exitEffects", &phase.exit_effects),
                ] {
                    for (k, effect) in effects.iter().enumerate() {
                        if !exists(effect) {
                            self.report(
                                format!("/phases/{p}/{list}/{k}"),
                                "unknown_effect",
                                format!(
                                    "{}: {list} names effect `{effect}`, which the content does not define",
                                    self.phase_name(p)
                                ),
                            );
                        }
                    }
                }
            }

            if let Some(types) = self.context.command_types {
                for (k, action) in phase.allowed_actions.iter().enumerate() {
                    if !types.contains(&action.as_str()) {
                        self.report(
                            format!("/phases/{p}/allowedActions/{k}"),
                            "unknown_command_type",
                            format!(
                                "{}: allowedActions names `{action}`, a command type the game does \
                                 not have (it has {}); content must not announce what the game \
                                 cannot do",
                                self.phase_name(p),
                                types.join(", ")
                            ),
                        );
                    }
                }
                for (e, edge) in phase.edges.iter().enumerate() {
                    for (k, command) in edge.command_types.iter().enumerate() {
                        if !types.contains(&command.as_str()) {
                            self.report(
                                format!("/phases/{p}/edges/{e}/commandTypes/{k}"),
                                "unknown_command_type",
                                format!(
                                    "{}: commandTypes names `{command}`, a command type the game \
                                     does not have (it has {}); the edge could never fire on it",
                                    self.edge_name(p, e),
                                    types.join(", ")
                                ),
                            );
                        }
                    }
                }
            }

            let mut phase_graph = Vec::with_capacity(phase.edges.len());
            let mut phase_conditions = Vec::with_capacity(phase.edges.len());
            for (e, edge) in phase.edges.iter().enumerate() {
                let pointer = format!("/phases/{p}/edges/{e}");
                if edge.edge_id.is_empty() {
                    self.report(
                        format!("{pointer}/edgeId"),
                        "empty_id",
                        format!("{}: the edge id is empty", self.edge_name(p, e)),
                    );
                } else if let Some(&(fp, fe)) = edge_ids.get(edge.edge_id.as_str()) {
                    self.report(
                        format!("{pointer}/edgeId"),
                        "duplicate_edge_id",
                        format!(
                            "{}: the id is already used by /phases/{fp}/edges/{fe}; a transition must name one edge",
                            self.edge_name(p, e)
                        ),
                    );
                } else {
                    edge_ids.insert(edge.edge_id.as_str(), (p, e));
                }
                let target = by_id.get(&edge.target_phase_id).copied();
                if target.is_none() {
                    self.report(
                        format!("{pointer}/targetPhaseId"),
                        "unknown_target_phase",
                        format!(
                            "{}: targetPhaseId `{}` names no phase of the sequence",
                            self.edge_name(p, e),
                            edge.target_phase_id
                        ),
                    );
                }
                if edge.trigger != EdgeTrigger::Command && edge.has_filter() {
                    let field = if edge.command_types.is_empty() {
                        "commandTags"
                    } else {
                        "commandTypes"
                    };
                    self.report(
                        format!("{pointer}/{field}"),
                        "filter_needs_command_trigger",
                        format!(
                            "{}: command filters apply only to Command edges, and this is an {} \
                             edge; the filter would be ignored",
                            self.edge_name(p, e),
                            edge.trigger.name()
                        ),
                    );
                }
                // 5. Conditions.
                let condition = edge.condition.as_ref().map(|text| {
                    text.compile_condition(self.context.schema)
                        .map_err(|error| {
                            self.report(
                                format!("{pointer}/condition"),
                                error.code(),
                                format!(
                                    "{}: condition `{}` does not compile: {error}",
                                    self.edge_name(p, e),
                                    text.as_str()
                                ),
                            );
                        })
                });
                phase_graph.push(GraphEdge {
                    edge: e as u16,
                    target,
                    trigger: edge.trigger,
                    unconditional: edge.condition.is_none(),
                });
                phase_conditions.push(condition);
            }
            graph.push(phase_graph);
            conditions.push(phase_conditions);
        }

        // 6. Static ambiguity.
        for (p, phase) in def.phases.iter().enumerate() {
            for j in 0..phase.edges.len() {
                for i in 0..j {
                    let (a, b) = (&phase.edges[i], &phase.edges[j]);
                    if !self.check_ambiguity || a.trigger != b.trigger || a.priority != b.priority {
                        continue;
                    }
                    if a.trigger == EdgeTrigger::Command && !a.filters_overlap(b) {
                        continue;
                    }
                    let why = match (&conditions[p][i], &conditions[p][j]) {
                        (Some(Err(())), _) | (_, Some(Err(()))) => continue,
                        (Some(Ok(x)), Some(Ok(y))) => {
                            if x.exclusive_with(y) {
                                continue;
                            }
                            format!(
                                "conditions `{}` and `{}` are not provably exclusive (the \
                                 validator proves only `X` against `not X`, or one variable \
                                 against constants whose ranges do not meet)",
                                x.source(),
                                y.source()
                            )
                        }
                        (None, None) => "neither has a condition".to_owned(),
                        (None, Some(_)) => format!(
                            "`{}` has no condition, so it can fire whenever `{}` can",
                            a.edge_id, b.edge_id
                        ),
                        (Some(_), None) => format!(
                            "`{}` has no condition, so it can fire whenever `{}` can",
                            b.edge_id, a.edge_id
                        ),
                    };
                    let filters = if a.trigger == EdgeTrigger::Command {
                        ", their command filters overlap"
                    } else {
                        ""
                    };
                    self.report(
                        format!("/phases/{p}/edges/{j}"),
                        "ambiguous_edges",
                        format!(
                            "{}: edges `{}` and `{}` are both {} edges of priority {}{filters}, \
                             and {why}; give them different priorities or exclusive conditions",
                            self.phase_name(p),
                            a.edge_id,
                            b.edge_id,
                            a.trigger.name(),
                            a.priority
                        ),
                    );
                }
            }
        }

        // 7. The graph.
        let n = def.phases.len();
        let is_first = |p: usize| by_id.get(&def.phases[p].phase_id) == Some(&(p as u16));
        if let Some(entry) = entry {
            let mut reachable = vec![false; n];
            let mut queue = vec![entry];
            reachable[usize::from(entry)] = true;
            while let Some(p) = queue.pop() {
                for edge in &graph[usize::from(p)] {
                    if let Some(t) = edge.target {
                        if !reachable[usize::from(t)] {
                            reachable[usize::from(t)] = true;
                            queue.push(t);
                        }
                    }
                }
            }
            for (p, &reached) in reachable.iter().enumerate() {
                if !reached && is_first(p) {
                    self.report(
                        format!("/phases/{p}"),
                        "unreachable_phase",
                        format!(
                            "{}: no chain of edges leads here from the entry phase `{}`",
                            self.phase_name(p),
                            def.entry_phase_id
                        ),
                    );
                }
            }
            for role in PhaseRole::ALL {
                if !(0..n).any(|p| reachable[p] && def.phases[p].role == role) {
                    self.report(
                        "/phases".into(),
                        "missing_role",
                        format!(
                            "{}: no phase reachable from the entry has role {}; a sequence \
                             needs at least one reachable Start, Middle and End phase",
                            self.sequence_name(),
                            role.name()
                        ),
                    );
                }
            }
        }

        let mut dead = vec![false; n];
        for p in 0..n {
            let leaves = graph[p]
                .iter()
                .any(|edge| edge.target.is_some_and(|t| usize::from(t) != p));
            if def.phases[p].role != PhaseRole::End && !leaves {
                dead[p] = true;
                self.report(
                    format!("/phases/{p}"),
                    "dead_end",
                    format!(
                        "{}: a {} phase with no edge to another phase; an activation that \
                         reaches it could never leave or end",
                        self.phase_name(p),
                        def.phases[p].role.name()
                    ),
                );
            }
        }

        for cycle in automatic_cycles(&graph) {
            let (first_phase, first_edge) = cycle[0];
            let mut phases = String::new();
            let mut edges = String::new();
            for (k, &(phase, edge)) in cycle.iter().enumerate() {
                if k > 0 {
                    edges.push_str(", ");
                }
                phases.push_str(&format!("`{}` → ", def.phases[usize::from(phase)].phase_id));
                edges.push_str(&format!(
                    "`{}`",
                    def.phases[usize::from(phase)].edges[usize::from(edge)].edge_id
                ));
            }
            phases.push_str(&format!(
                "`{}`",
                def.phases[usize::from(first_phase)].phase_id
            ));
            self.report(
                format!("/phases/{first_phase}/edges/{first_edge}"),
                "automatic_cycle",
                format!(
                    "{}: phases {phases} form a cycle of Automatic edges ({edges}); the reducer \
                     could go round it with no input, so it is refused even if conditions \
                     would break it at run time",
                    self.sequence_name()
                ),
            );
        }

        // Which phases reach an End phase by ActivationExit edges alone.
        let mut can_exit: Vec<bool> = def
            .phases
            .iter()
            .map(|phase| phase.role == PhaseRole::End)
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for p in 0..n {
                if !can_exit[p]
                    && graph[p].iter().any(|edge| {
                        edge.trigger == EdgeTrigger::ActivationExit
                            && edge.target.is_some_and(|t| can_exit[usize::from(t)])
                    })
                {
                    can_exit[p] = true;
                    changed = true;
                }
            }
        }
        for p in 0..n {
            // A phase with an unconditional Automatic edge never holds the cursor: some
            // Automatic edge always fires there. Every other non-End phase can.
            let rests = def.phases[p].role != PhaseRole::End
                && !graph[p]
                    .iter()
                    .any(|edge| edge.trigger == EdgeTrigger::Automatic && edge.unconditional);
            if rests && !can_exit[p] && !dead[p] {
                self.report(
                    format!("/phases/{p}"),
                    "no_activation_exit",
                    format!(
                        "{}: an activation can rest here, but no chain of ActivationExit edges \
                         leads from it to an End phase, so an end-turn action, Skip or Timeout \
                         could not end the activation",
                        self.phase_name(p)
                    ),
                );
            }
        }

        if !self.problems.is_empty() {
            return None;
        }
        let entry = entry?;
        let mut phases = Vec::with_capacity(n);
        for (p, phase) in def.phases.iter().enumerate() {
            let mut compiled = CompiledPhase::default();
            let mut order: Vec<usize> = (0..phase.edges.len()).collect();
            // Stable: file order among equal priorities.
            order.sort_by_key(|&e| core::cmp::Reverse(phase.edges[e].priority));
            for e in order {
                let edge = CompiledEdge {
                    edge: e as u16,
                    target: graph[p][e].target?,
                    condition: conditions[p][e].take().transpose().ok()?,
                };
                match phase.edges[e].trigger {
                    EdgeTrigger::Automatic => compiled.automatic.push(edge),
                    EdgeTrigger::Command => compiled.command.push(edge),
                    EdgeTrigger::ActivationExit => compiled.activation_exit.push(edge),
                }
            }
            phases.push(compiled);
        }
        Some((entry, by_id, phases))
    }
}

/// Every cycle made only of `Automatic` edges, one per strongly connected component: the
/// component's first phase (in file order) and a shortest way round back to it, as
/// `(phase, edge)` steps.
fn automatic_cycles(graph: &[Vec<GraphEdge>]) -> Vec<Vec<(u16, u16)>> {
    let n = graph.len();
    let successors = |p: usize| {
        graph[p].iter().filter_map(|edge| {
            (edge.trigger == EdgeTrigger::Automatic)
                .then_some(edge.target)
                .flatten()
                .map(|t| (edge.edge, t))
        })
    };
    // Tarjan's algorithm, iteratively, so no content can exhaust the stack.
    let mut index: Vec<Option<u32>> = vec![None; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut components: Vec<Vec<usize>> = Vec::new();
    let mut next_index = 0u32;
    for root in 0..n {
        if index[root].is_some() {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = Some(next_index);
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut child)) = calls.last_mut() {
            if let Some((_, w)) = successors(v).nth(*child) {
                *child += 1;
                let w = usize::from(w);
                match index[w] {
                    None => {
                        index[w] = Some(next_index);
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        calls.push((w, 0));
                    }
                    Some(iw) if on_stack[w] => low[v] = low[v].min(iw),
                    Some(_) => {}
                }
            } else {
                calls.pop();
                if Some(low[v]) == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    components.push(component);
                }
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[v]);
                }
            }
        }
    }

    let mut cycles = Vec::new();
    for component in components {
        let mut members = vec![false; n];
        for &p in &component {
            members[p] = true;
        }
        let start = *component.iter().min().unwrap_or(&0);
        let has_cycle =
            component.len() > 1 || successors(start).any(|(_, t)| usize::from(t) == start);
        if !has_cycle {
            continue;
        }
        // Breadth-first from `start` inside the component, back to `start`.
        let mut came_from: Vec<Option<(usize, u16)>> = vec![None; n];
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closing: Option<(usize, u16)> = None;
        'search: while let Some(p) = queue.pop_front() {
            for (edge, t) in successors(p) {
                let t = usize::from(t);
                if !members[t] {
                    continue;
                }
                if t == start {
                    closing = Some((p, edge));
                    break 'search;
                }
                if came_from[t].is_none() {
                    came_from[t] = Some((p, edge));
                    queue.push_back(t);
                }
            }
        }
        let Some((mut p, edge)) = closing else {
            continue;
        };
        let mut steps = vec![(p as u16, edge)];
        while p != start {
            let Some((from, edge)) = came_from[p] else {
                break;
            };
            steps.push((from as u16, edge));
            p = from;
        }
        steps.reverse();
        cycles.push(steps);
    }
    cycles.sort();
    cycles
}
