//! A recording host shared by the reducer's tests: it logs every effect run and every
//! condition asked, fingerprints its log, and offers the standard phase variables.

#![allow(dead_code)]

use std::cell::RefCell;

use turnstile_core::Fingerprint;
use turnstile_formula::{Value, VariableSchema, VariableSource};
use turnstile_phases::{
    command_flags, phase_condition_schema, EdgeContext, EffectMoment, ExitReason, HostFailure,
    PhaseCatalog, PhaseDefinition, PhaseHost, ValidationContext,
};

/// The resources and tags of the test schema.
pub const RESOURCES: [&str; 2] = ["hp", "mana"];
/// Tags the test schema declares as `tag_*` flags.
pub const TAGS: [&str; 3] = ["spell", "response", "closes_window"];
/// The command types of the test schema, offered as `command.<TYPE>` flags.
pub const COMMAND_TYPES: [&str; 6] = [
    "PLAY_CARD",
    "POWER",
    "PASS",
    "END_TURN",
    "PASS_PRIORITY",
    "ATTACK",
];

pub fn schema() -> VariableSchema {
    phase_condition_schema(&RESOURCES, &TAGS, &COMMAND_TYPES).unwrap()
}

pub fn revision() -> Fingerprint {
    Fingerprint::of_bytes(b"phases test content")
}

/// Loads sequences given as `(file, text)`, panicking with every problem.
pub fn catalog(files: &[(&str, &str)]) -> PhaseCatalog {
    let schema = schema();
    PhaseCatalog::load(files.iter().copied(), &ValidationContext::new(&schema)).unwrap_or_else(
        |problems| {
            panic!(
                "{}",
                problems
                    .iter()
                    .map(|p| format!("{p}\n"))
                    .collect::<String>()
            )
        },
    )
}

#[derive(Clone, Debug, Default)]
pub struct RecordingHost {
    pub round: i64,
    pub actions_taken: i64,
    pub mana: i64,
    /// Every effect list run: `Entry action [a, b]`.
    pub log: Vec<String>,
    /// Every condition asked: `edge-id` plus the exit reason, if any.
    pub asked: RefCell<Vec<String>>,
    pub fingerprints_taken: u32,
    /// An effect id whose run fails.
    pub failing_effect: Option<String>,
}

impl RecordingHost {
    pub fn new() -> RecordingHost {
        RecordingHost::default()
    }

    /// The host part of the fingerprint, as `state_fingerprint` computes it.
    pub fn own_fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&(&self.log, self.round, self.actions_taken, self.mana)).unwrap()
    }
}

impl PhaseHost for RecordingHost {
    type Step = String;

    fn variables(&self, context: &EdgeContext<'_>) -> impl VariableSource {
        self.asked.borrow_mut().push(match context.exit_reason {
            Some(reason) => format!("{} {reason:?}", context.edge.edge_id),
            None => context.edge.edge_id.clone(),
        });
        let mut values = vec![
            Value::Int(1),
            Value::Int(self.round),
            Value::Int(1),
            Value::Int(self.actions_taken),
            Value::Int(context.phase.order),
        ];
        for _scope in 0..4 {
            values.push(Value::Int(10)); // hp
            values.push(Value::Int(self.mana));
        }
        for tag in TAGS {
            values.push(Value::Bool(
                context.command.is_some_and(|c| c.tags.contains(&tag)),
            ));
        }
        values.extend(command_flags(
            &COMMAND_TYPES,
            context.command.map(|c| c.command_type),
        ));
        values
    }

    fn run_effects(
        &mut self,
        phase: &PhaseDefinition,
        moment: EffectMoment,
        effects: &[String],
    ) -> Result<Vec<String>, HostFailure> {
        if let Some(failing) = &self.failing_effect {
            if effects.contains(failing) {
                return Err(HostFailure::new(
                    "effect_failed",
                    format!("effect `{failing}` failed"),
                ));
            }
        }
        self.log
            .push(format!("{moment:?} {} {effects:?}", phase.phase_id));
        Ok(effects.iter().map(|e| format!("ran {e}")).collect())
    }

    fn state_fingerprint(&mut self) -> Result<Fingerprint, HostFailure> {
        self.fingerprints_taken += 1;
        Ok(self.own_fingerprint())
    }
}

/// Every exit reason the spec names.
pub fn reasons() -> [ExitReason; 4] {
    [
        ExitReason::EndTurnAction,
        ExitReason::Skip,
        ExitReason::Timeout,
        ExitReason::GameRule {
            rule: "stunned".into(),
        },
    ]
}
