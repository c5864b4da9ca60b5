//! Pins the published phase-reducer vectors (docs/phase-vectors.json), beside the determinism
//! vectors: for each case, a sequence, a phase state, the host's variables and an operation
//! (`enter`, `command`, `activationExit`), and what the reducer produced — the records (edges
//! taken with their priorities, effect lists run, the `{host, phase}` fingerprints before and
//! after) and the new state. Another implementation of spec/phases.md checks itself against the
//! same file; a change of any byte here fails this test (re-bless with `TURNSTILE_BLESS=1` only
//! when the reducer's documented behaviour changes on purpose, saying why in the commit).

use serde_json::{json, Value};
use turnstile_core::Fingerprint;
use turnstile_formula::{Value as Slot, VariableSource};
use turnstile_phases::{
    command_flags, phase_condition_schema, presets, EdgeContext, EffectMoment, ExitReason,
    HostFailure, PhaseCatalog, PhaseCommand, PhaseDefinition, PhaseGraphReducer, PhaseHost,
    PhaseState, ValidationContext,
};

const TAGS: [&str; 3] = ["spell", "response", "closes_window"];
const COMMAND_TYPES: [&str; 5] = ["PLAY_CARD", "POWER", "PASS", "END_TURN", "PASS_PRIORITY"];

/// A sequence with what the presets lack: conditional edges at several priorities, a condition
/// naming a command type, an Automatic edge whose condition a command makes true.
const RANKED: &str = r#"{
  "sequenceId": "ranked", "version": 1, "entryPhaseId": "start", "maxAutomaticTransitions": 8,
  "phases": [
    { "phaseId": "start", "role": "Start", "order": 1, "entryEffects": ["ready"],
      "edges": [
        { "edgeId": "start-to-rush", "targetPhaseId": "rush", "trigger": "Automatic", "priority": 1,
          "condition": "round >= 3" },
        { "edgeId": "start-to-action", "targetPhaseId": "action", "trigger": "Automatic" } ] },
    { "phaseId": "rush", "role": "Middle", "order": 2, "entryEffects": ["hurry"],
      "edges": [ { "edgeId": "rush-to-action", "targetPhaseId": "action", "trigger": "Automatic" } ] },
    { "phaseId": "action", "role": "Middle", "order": 3, "allowedActions": ["PLAY_CARD", "POWER"],
      "exitEffects": ["tidy"],
      "edges": [
        { "edgeId": "power-late", "targetPhaseId": "bonus", "trigger": "Command", "priority": 2,
          "condition": "command.POWER and round >= 2" },
        { "edgeId": "spell", "targetPhaseId": "bonus", "trigger": "Command", "priority": 1,
          "commandTags": ["spell"] },
        { "edgeId": "tired", "targetPhaseId": "end", "trigger": "Automatic",
          "condition": "actions_taken >= 2" },
        { "edgeId": "action-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "bonus", "role": "Middle", "order": 4, "entryEffects": ["reward"],
      "edges": [ { "edgeId": "bonus-to-end", "targetPhaseId": "end", "trigger": "ActivationExit" } ] },
    { "phaseId": "end", "role": "End", "order": 5 }
  ]
}"#;

/// The vectors' host: its state is `{"actionsTaken", "effectsRun", "round"}`, fingerprinted as
/// canonical JSON; a run effect list appends `"<Entry|Exit> <phase> <effect>"` per effect and
/// returns the step `"ran <effect>"` for each.
struct VectorHost {
    round: i64,
    actions_taken: i64,
    effects_run: Vec<String>,
}

impl PhaseHost for VectorHost {
    type Step = String;

    fn variables(&self, context: &EdgeContext<'_>) -> impl VariableSource {
        let mut values = vec![
            Slot::Int(1),
            Slot::Int(self.round),
            Slot::Int(1),
            Slot::Int(self.actions_taken),
            Slot::Int(context.phase.order),
        ];
        for tag in TAGS {
            values.push(Slot::Bool(
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
        for effect in effects {
            self.effects_run
                .push(format!("{moment:?} {} {effect}", phase.phase_id));
        }
        Ok(effects.iter().map(|e| format!("ran {e}")).collect())
    }

    fn state_fingerprint(&mut self) -> Result<Fingerprint, HostFailure> {
        Fingerprint::of(&json!({
            "actionsTaken": self.actions_taken,
            "effectsRun": self.effects_run,
            "round": self.round,
        }))
        .map_err(|e| HostFailure::new("not_canonical", e.to_string()))
    }
}

fn files() -> Vec<(&'static str, &'static str)> {
    let mut files = presets::PRESETS.to_vec();
    files.push(("ranked.json", RANKED));
    files
}

fn vectors() -> Value {
    let schema = phase_condition_schema(&[], &TAGS, &COMMAND_TYPES).unwrap();
    let catalog = PhaseCatalog::load(files(), &ValidationContext::new(&schema)).unwrap();
    let revision = Fingerprint::of_bytes(b"phase vectors");
    let reducer = PhaseGraphReducer::new(&catalog, revision);
    let at = |sequence: &str, cursor: &str| PhaseState {
        sequence_id: sequence.into(),
        content_revision: revision,
        cursor: cursor.into(),
    };
    let cases: Vec<(&str, &str, i64, i64, Value)> = vec![
        (
            "hearthstone-style",
            "activation_end",
            1,
            0,
            json!({"op": "enter"}),
        ),
        (
            "classic-style",
            "action",
            1,
            0,
            json!({"op": "activationExit", "reason": {"kind": "EndTurnAction"}}),
        ),
        (
            "priority-window",
            "action",
            1,
            1,
            json!({"op": "command", "type": "PLAY_CARD", "tags": ["spell"]}),
        ),
        (
            "priority-window",
            "response_window",
            1,
            2,
            json!({"op": "command", "type": "PASS_PRIORITY", "tags": []}),
        ),
        (
            "priority-window",
            "response_window",
            1,
            3,
            json!({"op": "command", "type": "PASS_PRIORITY", "tags": ["closes_window"]}),
        ),
        (
            "priority-window",
            "response_window",
            1,
            2,
            json!({"op": "activationExit", "reason": {"kind": "Timeout"}}),
        ),
        ("ranked", "end", 1, 0, json!({"op": "enter"})),
        ("ranked", "end", 3, 0, json!({"op": "enter"})),
        (
            "ranked",
            "action",
            2,
            1,
            json!({"op": "command", "type": "POWER", "tags": ["spell"]}),
        ),
        (
            "ranked",
            "action",
            1,
            1,
            json!({"op": "command", "type": "POWER", "tags": ["spell"]}),
        ),
        (
            "ranked",
            "action",
            1,
            1,
            json!({"op": "command", "type": "PLAY_CARD", "tags": []}),
        ),
        (
            "ranked",
            "action",
            1,
            2,
            json!({"op": "command", "type": "PLAY_CARD", "tags": []}),
        ),
        (
            "ranked",
            "bonus",
            1,
            1,
            json!({"op": "activationExit", "reason": {"kind": "Skip"}}),
        ),
        (
            "ranked",
            "action",
            1,
            1,
            json!({"op": "activationExit", "reason": {"kind": "GameRule", "rule": "stunned"}}),
        ),
    ];
    let mut out = Vec::new();
    for (sequence, cursor, round, actions_taken, op) in cases {
        let state = at(sequence, cursor);
        let mut host = VectorHost {
            round,
            actions_taken,
            effects_run: Vec::new(),
        };
        let outcome = match op["op"].as_str().unwrap() {
            "enter" => reducer.enter(&state, &mut host),
            "command" => {
                let tags: Vec<&str> = op["tags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap())
                    .collect();
                let command = PhaseCommand {
                    command_type: op["type"].as_str().unwrap(),
                    tags: &tags,
                };
                reducer.command(&state, command, &mut host)
            }
            _ => {
                let reason: ExitReason = serde_json::from_value(op["reason"].clone()).unwrap();
                reducer.activation_exit(&state, &reason, &mut host)
            }
        }
        .unwrap();
        out.push(json!({
            "from": state,
            "host": {"round": round, "actionsTaken": actions_taken},
            "operation": op,
            "outcome": outcome,
            "effectsRun": host.effects_run,
        }));
    }
    let sequences: Vec<Value> = files()
        .into_iter()
        .map(|(_, text)| serde_json::from_str(text).unwrap())
        .collect();
    json!({
        "about": "Published vectors of Turnstile's phase reducer (spec/phases.md; docs/phases.md, \
                  \"Published vectors\"). Conditions read, in slot order: turn (1), round, \
                  activation (1), actions_taken, phase_order, tag_spell, tag_response, \
                  tag_closes_window, then command.<TYPE> for each of commandTypes. The host's \
                  state is {actionsTaken, effectsRun, round}; its fingerprint is that object's \
                  canonical JSON fingerprint, and each record's before/after is the fingerprint \
                  of {host, phase}. Regenerate with TURNSTILE_BLESS=1 cargo test -p \
                  turnstile-phases --test vectors.",
        "format": "turnstile-phase-vectors/1",
        "revision": revision.to_string(),
        "tags": TAGS,
        "commandTypes": COMMAND_TYPES,
        "sequences": sequences,
        "cases": out,
    })
}

#[test]
fn the_published_phase_vectors_hold() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/phase-vectors.json");
    let computed = vectors();
    if std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1") {
        let text = serde_json::to_string_pretty(&computed).unwrap() + "\n";
        std::fs::write(path, text).unwrap();
    }
    let published: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("docs/phase-vectors.json"))
            .unwrap();
    assert_eq!(published, computed);
    // The vectors reach what they exist for: a conditional edge outranking an unconditional
    // one, a condition naming a command type, and an Automatic edge fired after a command.
    let edges: Vec<String> = published["cases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["outcome"]["records"].as_array().unwrap().clone())
        .filter_map(|r| r["edgeId"].as_str().map(str::to_owned))
        .collect();
    for edge in [
        "start-to-rush",
        "power-late",
        "spell",
        "tired",
        "window-closes",
    ] {
        assert!(
            edges.iter().any(|e| e == edge),
            "no case takes {edge}: {edges:?}"
        );
    }
}
