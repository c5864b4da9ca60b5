//! Benchmarks of the phase graph's hot paths: validating a sequence at publish time, and a
//! full activation through the reducer (enter, commands, exit) with a host that does no work,
//! so the numbers are the reducer's own cost (fingerprints included).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use turnstile_core::Fingerprint;
use turnstile_formula::{Value, VariableSource};
use turnstile_phases::{
    load_sequence, phase_condition_schema, presets, EdgeContext, EffectMoment, ExitReason,
    HostFailure, PhaseCatalog, PhaseCommand, PhaseDefinition, PhaseGraphReducer, PhaseHost,
    PhaseOutcome, PhaseRecord, ValidationContext,
};

const EXCLUSIVE: &str = include_str!("../tests/fixtures/valid/exclusive-conditions.json");

/// A host whose state is a counter of effects run.
struct CountingHost {
    effects_run: u64,
}

impl PhaseHost for CountingHost {
    type Step = ();

    fn variables(&self, context: &EdgeContext<'_>) -> impl VariableSource {
        let mut values = [Value::Int(0); 16];
        values[1] = Value::Int(2);
        values[4] = Value::Int(context.phase.order);
        values[13] = Value::Bool(context.command.is_some_and(|c| c.tags.contains(&"spell")));
        values
    }

    fn run_effects(
        &mut self,
        _phase: &PhaseDefinition,
        _moment: EffectMoment,
        effects: &[String],
    ) -> Result<Vec<()>, HostFailure> {
        self.effects_run += effects.len() as u64;
        Ok(Vec::new())
    }

    fn state_fingerprint(&mut self) -> Result<Fingerprint, HostFailure> {
        Fingerprint::of(&self.effects_run)
            .map_err(|e| HostFailure::new("not_canonical", e.to_string()))
    }
}

fn benches(c: &mut Criterion) {
    let schema = phase_condition_schema(
        &["hp", "mana"],
        &["spell", "response", "closes_window"],
        &[],
    )
    .unwrap();
    let context = ValidationContext::new(&schema);

    let mut group = c.benchmark_group("validate");
    for (file, text) in presets::PRESETS
        .into_iter()
        .chain([("exclusive-conditions.json", EXCLUSIVE)])
    {
        group.bench_function(file, |b| {
            b.iter(|| load_sequence(file, black_box(text), &context).unwrap())
        });
    }
    group.finish();

    let mut files = presets::PRESETS.to_vec();
    files.push(("exclusive-conditions.json", EXCLUSIVE));
    let catalog = PhaseCatalog::load(files, &context).unwrap();
    let reducer = PhaseGraphReducer::new(&catalog, Fingerprint::of_bytes(b"bench"));

    let mut group = c.benchmark_group("activation");
    // enter, three commands, exit: one whole activation.
    for sequence in [
        "classic-style",
        "hearthstone-style",
        "priority-window",
        "exclusive-conditions",
    ] {
        let commands: &[(&str, &[&str])] = match sequence {
            "priority-window" => &[
                ("PLAY_CARD", &["spell"]),
                ("PASS_PRIORITY", &[]),
                ("PASS_PRIORITY", &["closes_window"]),
            ],
            _ => &[("PLAY_CARD", &["spell"]), ("POWER", &[]), ("PASS", &[])],
        };
        let initial = reducer.initial_state(sequence).unwrap();
        let activation = |initial| {
            let mut host = CountingHost { effects_run: 0 };
            let mut outcomes = vec![reducer.enter(initial, &mut host).unwrap()];
            for (command_type, tags) in commands {
                let command = PhaseCommand { command_type, tags };
                let state = &outcomes[outcomes.len() - 1].state;
                let next = reducer.command(state, command, &mut host).unwrap();
                outcomes.push(next);
            }
            let state = &outcomes[outcomes.len() - 1].state;
            let exit = reducer
                .activation_exit(state, &ExitReason::EndTurnAction, &mut host)
                .unwrap();
            outcomes.push(exit);
            outcomes
        };
        // Throughput in reducer transitions (edges taken, the entry counted as one), so the
        // report reads transitions per second.
        let transitions = activation(&initial)
            .iter()
            .flat_map(|o: &PhaseOutcome<()>| &o.records)
            .filter(|r| matches!(r, PhaseRecord::Transition(_) | PhaseRecord::Entered { .. }))
            .count();
        group.throughput(Throughput::Elements(transitions as u64));
        group.bench_function(sequence, |b| b.iter(|| activation(black_box(&initial))));
    }
    group.finish();
}

criterion_group!(phases, benches);
criterion_main!(phases);
