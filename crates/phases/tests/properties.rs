//! Property tests: random command and exit sequences on the presets (and a fixture with
//! conditions) never panic, keep every invariant of an outcome, and are deterministic — the
//! same inputs give the same transitions, records and fingerprints, run after run.

mod common;

use common::{catalog, reasons, revision, RecordingHost, COMMAND_TYPES, TAGS};
use proptest::prelude::*;
use turnstile_phases::{
    presets, PhaseCommand, PhaseGraphReducer, PhaseOutcome, PhaseRecord, PhaseRole, PhaseState,
};

const EXCLUSIVE: &str = include_str!("fixtures/valid/exclusive-conditions.json");

#[derive(Clone, Debug)]
enum Op {
    Enter,
    Command {
        command_type: usize,
        tags: Vec<usize>,
    },
    Exit {
        reason: usize,
    },
    /// The game moved on: the variables conditions read change.
    Advance {
        round: i64,
        actions_taken: i64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => Just(Op::Enter),
        5 => (0..COMMAND_TYPES.len(), proptest::collection::vec(0..TAGS.len(), 0..3))
            .prop_map(|(command_type, tags)| Op::Command { command_type, tags }),
        2 => (0..4usize).prop_map(|reason| Op::Exit { reason }),
        2 => (0..6i64, 0..5i64).prop_map(|(round, actions_taken)| Op::Advance { round, actions_taken }),
    ]
}

/// Checks what every successful outcome must satisfy.
fn check_outcome(
    reducer: &PhaseGraphReducer<'_>,
    outcome: &PhaseOutcome<String>,
) -> Result<(), TestCaseError> {
    let resolved = reducer.resolve(&outcome.state);
    prop_assert!(resolved.is_ok(), "the new state resolves");
    let role = resolved.unwrap().phase().role;
    prop_assert_eq!(outcome.activation_ended, role == PhaseRole::End);
    let mut last_after = None;
    for record in &outcome.records {
        match record {
            PhaseRecord::Entered { after, .. } => last_after = Some(*after),
            PhaseRecord::Transition(t) => {
                if let Some(previous) = last_after {
                    prop_assert_eq!(t.before, previous, "transitions chain");
                }
                last_after = Some(t.after);
            }
            PhaseRecord::Effects { .. } => {}
        }
    }
    Ok(())
}

/// Runs `ops` from a fresh state, as the runtime would: each operation on a copy of the host,
/// kept only when it succeeds. Returns one line per operation.
fn run(
    reducer: &PhaseGraphReducer<'_>,
    sequence: &str,
    ops: &[Op],
) -> Result<Vec<String>, TestCaseError> {
    let mut state: PhaseState = reducer.initial_state(sequence).unwrap();
    let mut host = RecordingHost::new();
    let mut trace = Vec::new();
    for op in ops {
        let mut copy = host.clone();
        let result = match op {
            Op::Enter => reducer.enter(&state, &mut copy),
            Op::Command { command_type, tags } => {
                let tags: Vec<&str> = tags.iter().map(|&t| TAGS[t]).collect();
                let command = PhaseCommand {
                    command_type: COMMAND_TYPES[*command_type],
                    tags: &tags,
                };
                reducer.command(&state, command, &mut copy)
            }
            Op::Exit { reason } => reducer.activation_exit(&state, &reasons()[*reason], &mut copy),
            Op::Advance {
                round,
                actions_taken,
            } => {
                host.round = *round;
                host.actions_taken = *actions_taken;
                trace.push(format!("advance {round} {actions_taken}"));
                continue;
            }
        };
        match result {
            Ok(outcome) => {
                check_outcome(reducer, &outcome)?;
                trace.push(serde_json::to_string(&outcome).unwrap());
                state = outcome.state;
                host = copy;
            }
            Err(error) => {
                // A valid state never fails resolution.
                prop_assert!(
                    !matches!(error, turnstile_phases::PhaseError::State(_)),
                    "{error}"
                );
                trace.push(format!("{} {error}", error.code()));
            }
        }
    }
    Ok(trace)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_sequences_are_deterministic_and_keep_invariants(
        sequence in 0..4usize,
        ops in proptest::collection::vec(op(), 0..40),
    ) {
        let mut files: Vec<(&str, &str)> = presets::PRESETS.to_vec();
        files.push(("exclusive-conditions.json", EXCLUSIVE));
        let catalog = catalog(&files);
        let reducer = PhaseGraphReducer::new(&catalog, revision());
        let id = ["classic-style", "hearthstone-style", "priority-window", "exclusive-conditions"][sequence];
        let first = run(&reducer, id, &ops)?;
        let second = run(&reducer, id, &ops)?;
        prop_assert_eq!(first, second);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Loading never panics: any preset, cut short and with bytes replaced, is either valid or
    /// reported as problems.
    #[test]
    fn loading_mangled_content_never_panics(
        preset in 0..3usize,
        cut in any::<prop::sample::Index>(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), b' '..=b'~'), 0..6),
    ) {
        let mut bytes = presets::PRESETS[preset].1.as_bytes().to_vec();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        let text = String::from_utf8_lossy(&bytes);
        let schema = common::schema();
        let context = turnstile_phases::ValidationContext::new(&schema);
        if let Err(problems) = turnstile_phases::load_sequence("mangled.json", &text, &context) {
            prop_assert!(!problems.is_empty());
        }
    }
}
