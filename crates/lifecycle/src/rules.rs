//! The lifecycle as content: which turn configs (clocks) a match may choose, the initiative
//! formula, when it is recomputed, and the effects the round hooks run. A game declares all of
//! it in data and validates it at load with [`LifecycleRules::validate`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use turnstile_formula::{Formula, Type, VariableSchema};
use turnstile_turns::{RecomputeAt, TurnConfigId, TurnConfigs};

/// How a game's matches run, as content (camelCase JSON; unknown fields refused):
///
/// ```json
/// { "clocks": { "untimed": { "isSkippable": true },
///               "blitz": { "usesTimer": true, "turnDurationTicks": 150, "isSkippable": true,
///                          "forfeitAfterTimeouts": 3 } },
///   "defaultClock": "untimed",
///   "initiative": "owner.health * 10 - seat",
///   "recomputeAt": "everyRound",
///   "startRoundEffects": ["round-start"],
///   "endRoundEffects": [] }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LifecycleRules {
    /// The turn configs a match may choose as its clock, by id.
    #[schemars(with = "BTreeMap<String, TurnConfigSchema>")]
    pub clocks: TurnConfigs,
    /// The clock of a match whose config names none.
    #[schemars(with = "String")]
    pub default_clock: TurnConfigId,
    /// The initiative formula: a commander's priority (higher acts first; ties break by
    /// registration order, then id). Absent: every commander has priority 0, so seats act in
    /// seat order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<String>,
    /// When initiative is recomputed: `never`, `everyRound` (at the round boundary, before the
    /// round's order is fixed) or `everyActivation`.
    #[serde(default)]
    #[schemars(with = "String")]
    pub recompute_at: RecomputeAt,
    /// Effects the `StartRound` hook runs, in order, before the round's first activation.
    #[serde(default)]
    pub start_round_effects: Vec<String>,
    /// Effects the `EndRound` hook runs, in order, after the round's last activation.
    #[serde(default)]
    pub end_round_effects: Vec<String>,
}

/// The JSON Schema mirror of `turnstile_turns::TurnConfig` (that crate has no schema support).
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub(crate) struct TurnConfigSchema {
    /// Whether the turn's ticks grow while it is active, ending it with `Time`.
    #[serde(default)]
    uses_timer: bool,
    /// The turn's length in ticks when timed (1 or more).
    #[serde(default)]
    turn_duration_ticks: u32,
    /// Whether the owner may skip.
    #[serde(default)]
    is_skippable: bool,
    /// After this many timeouts in a row the seat forfeits.
    #[serde(default)]
    forfeit_after_timeouts: Option<u32>,
}

/// One problem of a lifecycle definition: where (a JSON pointer inside it), a stable code, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LifecycleProblem {
    /// The JSON pointer inside the lifecycle object (`/clocks/blitz/turnDurationTicks`).
    pub pointer: String,
    /// Stable code, `snake_case`.
    pub code: String,
    /// What is wrong, for a person.
    pub message: String,
}

impl LifecycleRules {
    /// Every problem at once: each clock's (`zero_turn_duration`, ...), a default clock that
    /// names no clock (`unknown_clock`), an initiative formula that does not compile against the
    /// game's `schema` or is not an integer (`bad_initiative`).
    pub fn validate(&self, schema: &VariableSchema) -> Vec<LifecycleProblem> {
        let mut problems = Vec::new();
        if let Err(found) = self.clocks.validate() {
            for p in found {
                problems.push(LifecycleProblem {
                    pointer: format!("/clocks{}", p.pointer()),
                    code: p.code().into(),
                    message: p.to_string(),
                });
            }
        }
        if self.clocks.get(&self.default_clock).is_none() {
            problems.push(LifecycleProblem {
                pointer: "/defaultClock".into(),
                code: "unknown_clock".into(),
                message: format!(
                    "the default clock `{}` is not one of the clocks {:?}",
                    self.default_clock,
                    self.clock_ids()
                ),
            });
        }
        if let Some(text) = &self.initiative {
            match Formula::compile(text, schema) {
                Ok(f) if f.ty() != Type::Int => problems.push(LifecycleProblem {
                    pointer: "/initiative".into(),
                    code: "bad_initiative".into(),
                    message: format!("the initiative `{text}` is not an integer formula"),
                }),
                Ok(_) => {}
                Err(e) => problems.push(LifecycleProblem {
                    pointer: "/initiative".into(),
                    code: "bad_initiative".into(),
                    message: format!("the initiative `{text}` does not compile: {e}"),
                }),
            }
        }
        problems
    }

    /// The clock ids, in id order.
    pub fn clock_ids(&self) -> Vec<&str> {
        self.clocks.iter().map(|(id, _)| id.as_str()).collect()
    }

    /// The content's own copy of clock `id` (so ids in state share its text), or
    /// `unknown_clock`.
    pub fn clock(&self, id: Option<&str>) -> Result<TurnConfigId, LifecycleProblem> {
        let Some(id) = id else {
            return Ok(self.default_clock.clone());
        };
        self.clocks
            .id(&TurnConfigId::new(id))
            .cloned()
            .ok_or_else(|| LifecycleProblem {
                pointer: String::new(),
                code: "unknown_clock".into(),
                message: format!(
                    "the content has no clock `{id}`; it has {:?}",
                    self.clock_ids()
                ),
            })
    }
}
