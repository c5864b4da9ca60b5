//! The reducer at its boundary: entry, command and exit transitions, priority resolution, the
//! automatic limit, effects order through a recording host, fingerprints, state mismatches
//! failing before anything runs, and the phase filter.

mod common;

use common::{catalog, reasons, revision, RecordingHost};
use turnstile_core::{Fingerprint, Rejection};
use turnstile_phases::{
    phase_fingerprint, presets, EdgeTrigger, EffectMoment, ExitReason, PhaseCommand, PhaseError,
    PhaseGraphReducer, PhaseOutcome, PhaseRecord, PhaseState, PhaseTransition,
};

fn command<'a>(command_type: &'a str, tags: &'a [&'a str]) -> PhaseCommand<'a> {
    PhaseCommand { command_type, tags }
}

/// The records of an outcome, one short line each.
fn lines(outcome: &PhaseOutcome<String>) -> Vec<String> {
    outcome
        .records
        .iter()
        .map(|record| match record {
            PhaseRecord::Entered { from, to, .. } => format!("entered {from} -> {to}"),
            PhaseRecord::Transition(t) => {
                format!(
                    "{:?} {} {} -> {} @{}",
                    t.trigger, t.edge_id, t.from, t.to, t.priority
                )
            }
            PhaseRecord::Effects {
                phase,
                moment,
                steps,
            } => format!("{moment:?} effects of {phase}: {}", steps.join(", ")),
        })
        .collect()
}

const EFFECTS: &str = r#"{
  "sequenceId": "effects", "version": 1, "entryPhaseId": "start", "maxAutomaticTransitions": 4,
  "phases": [
    { "phaseId": "start", "role": "Start", "order": 1,
      "entryEffects": ["s-in"], "exitEffects": ["s-out"],
      "edges": [ { "edgeId": "start-to-action", "targetPhaseId": "action", "trigger": "Automatic" } ] },
    { "phaseId": "action", "role": "Middle", "order": 2, "allowedActions": ["PLAY_CARD"],
      "entryEffects": ["a-in-1", "a-in-2"], "exitEffects": ["a-out"],
      "edges": [ { "edgeId": "action-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "end", "role": "End", "order": 3, "entryEffects": ["e-in"] }
  ]
}"#;

#[test]
fn enter_runs_entry_effects_then_automatic_advance() {
    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let state = reducer.initial_state("hearthstone-style").unwrap();
    assert_eq!(state.cursor, "activation_start");
    let mut host = RecordingHost::new();
    let outcome = reducer.enter(&state, &mut host).unwrap();
    assert_eq!(
        lines(&outcome),
        [
            "entered activation_start -> activation_start",
            "Entry effects of activation_start: ran refresh-resources",
            "Automatic start-to-draw activation_start -> draw @0",
            "Entry effects of draw: ran draw-card",
            "Automatic draw-to-main draw -> main @0",
        ]
    );
    assert_eq!(outcome.state.cursor, "main");
    assert!(!outcome.activation_ended);
    assert_eq!(
        host.log,
        [
            r#"Entry activation_start ["refresh-resources"]"#,
            r#"Entry draw ["draw-card"]"#
        ]
    );
}

#[test]
fn exit_effects_of_the_old_phase_run_before_entry_effects_of_the_new() {
    let catalog = catalog(&[("effects.json", EFFECTS)]);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let mut host = RecordingHost::new();
    let state = reducer.initial_state("effects").unwrap();
    let entered = reducer.enter(&state, &mut host).unwrap();
    assert_eq!(
        lines(&entered),
        [
            "entered start -> start",
            "Entry effects of start: ran s-in",
            "Automatic start-to-action start -> action @0",
            "Exit effects of start: ran s-out",
            "Entry effects of action: ran a-in-1, ran a-in-2",
        ]
    );
    let ended = reducer
        .activation_exit(&entered.state, &ExitReason::EndTurnAction, &mut host)
        .unwrap();
    assert_eq!(
        lines(&ended),
        [
            "ActivationExit action-to-end action -> end @0",
            "Exit effects of action: ran a-out",
            "Entry effects of end: ran e-in",
        ]
    );
    assert!(ended.activation_ended);
    assert_eq!(
        host.log,
        [
            r#"Entry start ["s-in"]"#,
            r#"Exit start ["s-out"]"#,
            r#"Entry action ["a-in-1", "a-in-2"]"#,
            r#"Exit action ["a-out"]"#,
            r#"Entry end ["e-in"]"#,
        ]
    );
}

#[test]
fn fingerprints_cover_host_and_phase_and_chain_between_transitions() {
    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let mut host = RecordingHost::new();
    let state = reducer.initial_state("hearthstone-style").unwrap();
    let before_host = host.own_fingerprint();
    let outcome = reducer.enter(&state, &mut host).unwrap();

    let PhaseRecord::Entered { before, after, .. } = &outcome.records[0] else {
        panic!("enter begins with Entered");
    };
    assert_eq!(*before, phase_fingerprint(before_host, &state).unwrap());
    assert_ne!(before, after);
    let transitions: Vec<&PhaseTransition> = outcome.transitions().collect();
    assert_eq!(transitions.len(), 2);
    // Nothing happens between two transitions of one operation but the transitions.
    assert_eq!(transitions[0].before, *after);
    assert_eq!(transitions[1].before, transitions[0].after);
    // The last `after` is the host as it ended, with the phase state as it ended.
    assert_eq!(
        transitions[1].after,
        phase_fingerprint(host.own_fingerprint(), &outcome.state).unwrap()
    );
    // The reducer asks for the host's fingerprint once per move, not twice.
    assert_eq!(host.fingerprints_taken, 4);
}

const PRIORITIES: &str = r#"{
  "sequenceId": "priorities", "version": 1, "entryPhaseId": "start", "maxAutomaticTransitions": 8,
  "phases": [
    { "phaseId": "start", "role": "Start", "order": 1,
      "edges": [ { "edgeId": "start-to-action", "targetPhaseId": "action", "trigger": "Automatic" } ] },
    { "phaseId": "action", "role": "Middle", "order": 2, "allowedActions": ["PLAY_CARD", "POWER"],
      "edges": [
        { "edgeId": "late-game", "targetPhaseId": "reward", "trigger": "Command", "priority": 2,
          "condition": "round >= 3" },
        { "edgeId": "spell-rush", "targetPhaseId": "reward", "trigger": "Command", "priority": 1,
          "commandTags": ["spell"], "condition": "round < 2" },
        { "edgeId": "spell-calm", "targetPhaseId": "bonus", "trigger": "Command", "priority": 1,
          "commandTags": ["spell"], "condition": "round >= 2" },
        { "edgeId": "played", "targetPhaseId": "bonus", "trigger": "Command",
          "commandTypes": ["PLAY_CARD"] },
        { "edgeId": "tired", "targetPhaseId": "end", "trigger": "Automatic",
          "condition": "actions_taken >= 2" },
        { "edgeId": "action-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "bonus", "role": "Middle", "order": 3,
      "edges": [ { "edgeId": "bonus-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "reward", "role": "Middle", "order": 4,
      "edges": [ { "edgeId": "reward-to-end", "targetPhaseId": "end", "trigger": "ActivationExit",
                   "condition": "round >= 5" } ] },
    { "phaseId": "end", "role": "End", "order": 5 }
  ]
}"#;

fn at(phase: &str, sequence: &str) -> PhaseState {
    PhaseState {
        sequence_id: sequence.into(),
        content_revision: revision(),
        cursor: phase.into(),
    }
}

#[test]
fn the_highest_priority_edge_whose_filters_and_condition_pass_fires() {
    let catalog = catalog(&[("priorities.json", PRIORITIES)]);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let action = at("action", "priorities");
    let fired = |round: i64, command_type: &str, tags: &[&str]| {
        let mut host = RecordingHost {
            round,
            ..RecordingHost::new()
        };
        let outcome = reducer
            .command(&action, command(command_type, tags), &mut host)
            .unwrap();
        outcome
            .transitions()
            .map(|t| t.edge_id.clone())
            .collect::<Vec<_>>()
            .join(",")
    };
    // Priority 2 beats every filter below it once its condition holds.
    assert_eq!(fired(3, "PLAY_CARD", &["spell"]), "late-game");
    // Priority 1: the spell edges, exclusive by their conditions.
    assert_eq!(fired(1, "PLAY_CARD", &["spell"]), "spell-rush");
    assert_eq!(fired(2, "PLAY_CARD", &["spell"]), "spell-calm");
    // Nothing at 1 matches a plain card: priority 0.
    assert_eq!(fired(1, "PLAY_CARD", &[]), "played");
    // No filter matches a POWER without tags and late-game's condition fails: no transition.
    assert_eq!(fired(1, "POWER", &[]), "");
}

/// A condition names the command type as content does everywhere (`command.POWER`), never a
/// per-game integer code: the flag of the judged command's type is true, every other false.
#[test]
fn a_condition_names_the_command_type_it_fires_on() {
    const BY_TYPE: &str = r#"{
  "sequenceId": "by-type", "version": 1, "entryPhaseId": "start", "maxAutomaticTransitions": 8,
  "phases": [
    { "phaseId": "start", "role": "Start", "order": 1,
      "edges": [ { "edgeId": "start-to-action", "targetPhaseId": "action", "trigger": "Automatic" } ] },
    { "phaseId": "action", "role": "Middle", "order": 2, "allowedActions": ["PLAY_CARD", "POWER"],
      "edges": [
        { "edgeId": "powered", "targetPhaseId": "end", "trigger": "Command", "priority": 1,
          "condition": "command.POWER and round >= 2" },
        { "edgeId": "action-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "end", "role": "End", "order": 3 }
  ]
}"#;
    let catalog = catalog(&[("by-type.json", BY_TYPE)]);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let action = at("action", "by-type");
    let fired = |round: i64, command_type: &str| {
        let mut host = RecordingHost {
            round,
            ..RecordingHost::new()
        };
        let outcome = reducer
            .command(&action, command(command_type, &[]), &mut host)
            .unwrap();
        outcome
            .transitions()
            .map(|t| t.edge_id.clone())
            .collect::<Vec<_>>()
            .join(",")
    };
    assert_eq!(fired(2, "POWER"), "powered");
    assert_eq!(fired(2, "PLAY_CARD"), "", "another type's flag is false");
    assert_eq!(
        fired(1, "POWER"),
        "",
        "the rest of the condition still counts"
    );
}

#[test]
fn a_command_without_an_edge_leaves_the_cursor_but_automatic_edges_still_run() {
    let catalog = catalog(&[("priorities.json", PRIORITIES)]);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let action = at("action", "priorities");
    let mut host = RecordingHost::new();
    let outcome = reducer
        .command(&action, command("POWER", &[]), &mut host)
        .unwrap();
    assert_eq!(outcome.state, action);
    assert!(outcome.records.is_empty());

    host.actions_taken = 2;
    let outcome = reducer
        .command(&action, command("POWER", &[]), &mut host)
        .unwrap();
    assert_eq!(lines(&outcome), ["Automatic tired action -> end @0"]);
    assert!(outcome.activation_ended);
}

fn chain(max: u32, hops: usize) -> String {
    let mut phases = vec![format!(
        r#"{{ "phaseId": "p0", "role": "Start", "order": 0,
             "edges": [ {{ "edgeId": "e0", "targetPhaseId": "p1", "trigger": "Automatic" }} ] }}"#
    )];
    for i in 1..hops {
        phases.push(format!(
            r#"{{ "phaseId": "p{i}", "role": "Middle", "order": {i},
                 "edges": [ {{ "edgeId": "e{i}", "targetPhaseId": "p{}", "trigger": "Automatic" }} ] }}"#,
            i + 1
        ));
    }
    phases.push(format!(
        r#"{{ "phaseId": "p{hops}", "role": "Middle", "order": {hops}, "allowedActions": ["PASS"],
             "edges": [ {{ "edgeId": "exit", "targetPhaseId": "end", "trigger": "ActivationExit" }} ] }}"#
    ));
    phases.push(r#"{ "phaseId": "end", "role": "End", "order": 99 }"#.into());
    format!(
        r#"{{ "sequenceId": "chain", "version": 1, "entryPhaseId": "p0",
             "maxAutomaticTransitions": {max}, "phases": [ {} ] }}"#,
        phases.join(",\n")
    )
}

#[test]
fn exceeding_max_automatic_transitions_is_a_deterministic_error() {
    // Four Automatic edges in a row: a limit of 4 takes them all, a limit of 3 refuses.
    let text = chain(4, 4);
    let catalog4 = catalog(&[("chain.json", &text)]);
    let reducer = PhaseGraphReducer::new(&catalog4, revision());
    let state = reducer.initial_state("chain").unwrap();
    let outcome = reducer.enter(&state, &mut RecordingHost::new()).unwrap();
    assert_eq!(outcome.transitions().count(), 4);
    assert_eq!(outcome.state.cursor, "p4");

    let text = chain(3, 4);
    let catalog3 = catalog(&[("chain.json", &text)]);
    let reducer = PhaseGraphReducer::new(&catalog3, revision());
    for _ in 0..2 {
        let error = reducer
            .enter(&state, &mut RecordingHost::new())
            .unwrap_err();
        assert_eq!(error.code(), "automatic_limit_exceeded");
        assert_eq!(
            error,
            PhaseError::AutomaticLimitExceeded {
                phase_id: "p3".into(),
                limit: 3
            }
        );
    }
}

#[test]
fn activation_exit_fires_on_every_named_event() {
    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    for sequence in ["classic-style", "hearthstone-style", "priority-window"] {
        for reason in reasons() {
            let mut host = RecordingHost::new();
            let state = reducer.initial_state(sequence).unwrap();
            let entered = reducer.enter(&state, &mut host).unwrap();
            let ended = reducer
                .activation_exit(&entered.state, &reason, &mut host)
                .unwrap();
            assert!(ended.activation_ended, "{sequence} {reason:?}");
            assert_eq!(ended.state.cursor, "activation_end");
            let transitions: Vec<_> = ended.transitions().collect();
            assert_eq!(transitions.len(), 1);
            assert_eq!(transitions[0].trigger, EdgeTrigger::ActivationExit);
        }
    }
}

const EXITS: &str = r#"{
  "sequenceId": "exits", "version": 1, "entryPhaseId": "start", "maxAutomaticTransitions": 1,
  "phases": [
    { "phaseId": "start", "role": "Start", "order": 1,
      "edges": [ { "edgeId": "start-to-action", "targetPhaseId": "action", "trigger": "Automatic" } ] },
    { "phaseId": "action", "role": "Middle", "order": 2, "allowedActions": ["PASS"],
      "edges": [
        { "edgeId": "to-cleanup", "targetPhaseId": "cleanup", "trigger": "ActivationExit", "priority": 1,
          "condition": "round >= 2" },
        { "edgeId": "straight-out", "targetPhaseId": "end", "trigger": "ActivationExit",
          "condition": "round >= 1" },
        { "edgeId": "to-long", "targetPhaseId": "long-1", "trigger": "Command" } ] },
    { "phaseId": "cleanup", "role": "Middle", "order": 3, "entryEffects": ["sweep"],
      "edges": [ { "edgeId": "cleanup-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "long-1", "role": "Middle", "order": 4,
      "edges": [ { "edgeId": "long-1-out", "targetPhaseId": "long-2", "trigger": "ActivationExit" } ] },
    { "phaseId": "long-2", "role": "Middle", "order": 5,
      "edges": [ { "edgeId": "long-2-out", "targetPhaseId": "long-3", "trigger": "ActivationExit" } ] },
    { "phaseId": "long-3", "role": "Middle", "order": 6,
      "edges": [ { "edgeId": "long-3-out", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "end", "role": "End", "order": 7 }
  ]
}"#;

#[test]
fn activation_exit_chains_through_middle_phases_to_an_end_phase() {
    let catalog = catalog(&[("exits.json", EXITS)]);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let mut host = RecordingHost {
        round: 2,
        ..RecordingHost::new()
    };
    let reason = ExitReason::GameRule {
        rule: "stunned".into(),
    };
    let outcome = reducer
        .activation_exit(&at("action", "exits"), &reason, &mut host)
        .unwrap();
    assert_eq!(
        lines(&outcome),
        [
            "ActivationExit to-cleanup action -> cleanup @1",
            "Entry effects of cleanup: ran sweep",
            "ActivationExit cleanup-to-end cleanup -> end @0",
        ]
    );
    // The host saw the reason when asked for the condition.
    assert_eq!(
        host.asked.borrow()[0],
        r#"to-cleanup GameRule { rule: "stunned" }"#
    );

    // Round 1: the lower-priority exit is the one whose condition holds.
    host.round = 1;
    let outcome = reducer
        .activation_exit(&at("action", "exits"), &ExitReason::Timeout, &mut host)
        .unwrap();
    assert_eq!(
        lines(&outcome),
        ["ActivationExit straight-out action -> end @0"]
    );

    // Round 0: no exit edge fires.
    host.round = 0;
    let error = reducer
        .activation_exit(&at("action", "exits"), &ExitReason::Skip, &mut host)
        .unwrap_err();
    assert_eq!(error.code(), "no_exit_edge");

    // Three hops: the two after the first exceed a limit of 1.
    let error = reducer
        .activation_exit(&at("long-1", "exits"), &ExitReason::Skip, &mut host)
        .unwrap_err();
    assert_eq!(error.code(), "automatic_limit_exceeded");
}

#[test]
fn an_ended_activation_takes_no_command_or_exit_until_entered_again() {
    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let mut host = RecordingHost::new();
    let end = at("activation_end", "classic-style");
    let error = reducer
        .command(&end, command("PLAY_CARD", &[]), &mut host)
        .unwrap_err();
    assert_eq!(error.code(), "activation_ended");
    let error = reducer
        .activation_exit(&end, &ExitReason::Timeout, &mut host)
        .unwrap_err();
    assert_eq!(error.code(), "activation_ended");
    assert!(host.log.is_empty());

    let outcome = reducer.enter(&end, &mut host).unwrap();
    assert_eq!(
        lines(&outcome),
        [
            "entered activation_end -> activation_start",
            "Automatic start-to-action activation_start -> action @0",
        ]
    );
}

#[test]
fn a_state_that_does_not_resolve_fails_before_anything_runs() {
    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let good = at("main", "hearthstone-style");
    let cases = [
        (
            PhaseState {
                sequence_id: "chess-style".into(),
                ..good.clone()
            },
            "unknown_sequence",
        ),
        (
            PhaseState {
                content_revision: Fingerprint::of_bytes(b"another revision"),
                ..good.clone()
            },
            "revision_mismatch",
        ),
        (
            PhaseState {
                cursor: "upkeep".into(),
                ..good.clone()
            },
            "unknown_cursor",
        ),
    ];
    for (state, code) in cases {
        let mut host = RecordingHost::new();
        let results = [
            reducer.enter(&state, &mut host).map(|_| ()),
            reducer
                .command(&state, command("PLAY_CARD", &["spell"]), &mut host)
                .map(|_| ()),
            reducer
                .activation_exit(&state, &ExitReason::Timeout, &mut host)
                .map(|_| ()),
        ];
        for result in results {
            let error = result.unwrap_err();
            assert_eq!(error.code(), code);
            assert!(matches!(error, PhaseError::State(_)));
        }
        assert_eq!(reducer.resolve(&state).unwrap_err().code(), code);
        // Nothing ran: no effect, no condition, not even a fingerprint.
        assert!(host.log.is_empty());
        assert!(host.asked.borrow().is_empty());
        assert_eq!(host.fingerprints_taken, 0);
    }
}

#[test]
fn condition_and_host_failures_are_typed_errors() {
    let divide = r#"{
      "sequenceId": "divide", "version": 1, "entryPhaseId": "start", "maxAutomaticTransitions": 2,
      "phases": [
        { "phaseId": "start", "role": "Start", "order": 1, "entryEffects": ["boom"],
          "edges": [ { "edgeId": "start-to-action", "targetPhaseId": "action", "trigger": "Automatic" } ] },
        { "phaseId": "action", "role": "Middle", "order": 2,
          "edges": [
            { "edgeId": "ratio", "targetPhaseId": "end", "trigger": "Command", "condition": "run.hp / run.mana > 1" },
            { "edgeId": "action-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
        { "phaseId": "end", "role": "End", "order": 3 }
      ]
    }"#;
    let catalog = catalog(&[("divide.json", divide)]);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let error = reducer
        .command(
            &at("action", "divide"),
            command("PASS", &[]),
            &mut RecordingHost::new(),
        )
        .unwrap_err();
    assert_eq!(error.code(), "condition_failed");
    assert!(error.to_string().contains("division by zero"), "{error}");

    let mut host = RecordingHost {
        failing_effect: Some("boom".into()),
        ..RecordingHost::new()
    };
    let state = reducer.initial_state("divide").unwrap();
    let error = reducer.enter(&state, &mut host).unwrap_err();
    assert_eq!(error.code(), "host_failure");
}

#[test]
fn the_phase_filter_allows_by_type_or_by_tag() {
    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let resolved = reducer.resolve(&at("action", "classic-style")).unwrap();
    let filter = resolved.filter();
    assert_eq!(filter.allows("PLAY_CARD", &[]), Ok(()));
    assert_eq!(filter.allows("END_TURN", &["unit"]), Ok(()));
    assert_eq!(filter.allows("CAST", &["fire", "spell"]), Ok(()));
    let rejection = filter.allows("ATTACK", &["unit"]).unwrap_err();
    assert_eq!(rejection.code(), "action_not_allowed_in_phase");
    assert_eq!(
        rejection.to_string(),
        "`ATTACK` is not allowed in phase `action` of sequence `classic-style`: the phase \
         allows it neither by type nor by a tag (its tags: unit)"
    );
    let rejection: Rejection = rejection.into();
    assert_eq!(rejection.code, "action_not_allowed_in_phase");

    // Phases that list nothing allow nothing: the activation has ended.
    let end = reducer
        .resolve(&at("activation_end", "classic-style"))
        .unwrap();
    assert!(end.filter().allows("PLAY_CARD", &["spell"]).is_err());

    // In a response window only passing and responses are allowed.
    let window = reducer
        .resolve(&at("response_window", "priority-window"))
        .unwrap()
        .filter();
    assert!(window.allows("PASS_PRIORITY", &[]).is_ok());
    assert!(window.allows("PLAY_CARD", &["response"]).is_ok());
    assert!(window.allows("PLAY_CARD", &["spell"]).is_err());
}

#[test]
fn the_priority_window_preset_opens_and_closes_on_tagged_commands() {
    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let mut host = RecordingHost::new();
    let state = reducer.initial_state("priority-window").unwrap();
    let state = reducer.enter(&state, &mut host).unwrap().state;
    assert_eq!(state.cursor, "action");
    let state = reducer
        .command(&state, command("PLAY_CARD", &["spell"]), &mut host)
        .unwrap()
        .state;
    assert_eq!(state.cursor, "response_window");
    // A response and a pass that does not close the window stay in it.
    let state = reducer
        .command(&state, command("PLAY_CARD", &["response"]), &mut host)
        .unwrap()
        .state;
    let state = reducer
        .command(&state, command("PASS_PRIORITY", &[]), &mut host)
        .unwrap()
        .state;
    assert_eq!(state.cursor, "response_window");
    let state = reducer
        .command(
            &state,
            command("PASS_PRIORITY", &[presets::CLOSES_WINDOW_TAG]),
            &mut host,
        )
        .unwrap()
        .state;
    assert_eq!(state.cursor, "action");
}

#[test]
fn state_and_records_serialize_in_camel_case() {
    let state = at("action", "classic-style");
    let json = serde_json::to_string(&state).unwrap();
    assert_eq!(
        json,
        format!(
            r#"{{"sequenceId":"classic-style","contentRevision":"{}","cursor":"action"}}"#,
            revision()
        )
    );
    assert_eq!(serde_json::from_str::<PhaseState>(&json).unwrap(), state);
    assert!(serde_json::from_str::<PhaseState>(
        r#"{"sequenceId":"a","contentRevision":"x","cursor":"b"}"#
    )
    .is_err());

    let catalog = catalog(&presets::PRESETS);
    let reducer = PhaseGraphReducer::new(&catalog, revision());
    let mut host = RecordingHost::new();
    let outcome = reducer
        .enter(&reducer.initial_state("classic-style").unwrap(), &mut host)
        .unwrap();
    let value = serde_json::to_value(&outcome).unwrap();
    let transition = &value["records"][1];
    assert_eq!(transition["kind"], "Transition");
    assert_eq!(transition["edgeId"], "start-to-action");
    assert_eq!(transition["from"], "activation_start");
    assert_eq!(transition["to"], "action");
    assert_eq!(transition["trigger"], "Automatic");
    assert_eq!(transition["priority"], 0);
    assert!(transition["before"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
    assert_eq!(value["activationEnded"], false);
    let back: PhaseOutcome<String> = serde_json::from_value(value).unwrap();
    assert_eq!(back, outcome);

    let reason = serde_json::to_string(&ExitReason::GameRule {
        rule: "stunned".into(),
    })
    .unwrap();
    assert_eq!(reason, r#"{"kind":"GameRule","rule":"stunned"}"#);
    assert_eq!(
        serde_json::to_string(&EffectMoment::Entry).unwrap(),
        r#""Entry""#
    );
}
