//! Turn configs: the content data that says whether a turn is timed, how long, and skippable.
//!
//! A match pins a content revision; its state holds [`TurnConfigId`]s only, resolved here. An id
//! that does not resolve is refused where it enters the state (beginning a turn, adding a
//! commander), before anything runs.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::error::TurnError;
use crate::ids::TurnConfigId;

/// How a kind of turn behaves: content data, written in camelCase JSON.
///
/// ```json
/// { "usesTimer": true, "turnDurationTicks": 300, "isSkippable": true, "forfeitAfterTimeouts": 3 }
/// ```
///
/// Every field defaults (no timer, not skippable); unknown fields are refused, so a typo in
/// content is an error rather than a silently ignored setting. A game with more settings per turn
/// kind keeps them in its own table under the same ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct TurnConfig {
    /// Whether the turn's `ticks` grow while it is `Active`, ending it with `Time` at
    /// `turn_duration_ticks`.
    pub uses_timer: bool,
    /// The turn's length in ticks when `uses_timer`; must be at least 1 then.
    pub turn_duration_ticks: u32,
    /// Whether the owner may `Skip`.
    pub is_skippable: bool,
    /// After this many turns in a row ended by `Time`, the seat is due to forfeit. The framework
    /// counts ([`TurnClock::timeouts_in_a_row`](crate::TurnClock::timeouts_in_a_row)) and answers
    /// [`Turns::forfeit_due`](crate::Turns::forfeit_due); the game decides what forfeiting means.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeit_after_timeouts: Option<u32>,
}

impl TurnConfig {
    /// A timed config of `duration_ticks`, not skippable.
    pub fn timed(duration_ticks: u32) -> Self {
        Self {
            uses_timer: true,
            turn_duration_ticks: duration_ticks,
            ..Self::default()
        }
    }

    /// The same config, skippable.
    pub fn skippable(mut self) -> Self {
        self.is_skippable = true;
        self
    }
}

/// One problem found by [`TurnConfigs::validate`], with the JSON pointer of the offending value
/// inside the configs table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigProblem {
    /// A config id is the empty string.
    #[error("{pointer}: a turn config id must not be empty")]
    EmptyId {
        /// Where, as a JSON pointer.
        pointer: String,
    },
    /// A timed config lasts 0 ticks.
    #[error("{pointer}: a timed turn must last at least 1 tick")]
    ZeroDuration {
        /// Where, as a JSON pointer.
        pointer: String,
    },
    /// `forfeitAfterTimeouts` is 0.
    #[error("{pointer}: forfeitAfterTimeouts must be at least 1")]
    ZeroForfeitThreshold {
        /// Where, as a JSON pointer.
        pointer: String,
    },
    /// `forfeitAfterTimeouts` is set on a config without a timer, which can never time out.
    #[error("{pointer}: forfeitAfterTimeouts needs usesTimer, or no turn can ever time out")]
    ForfeitWithoutTimer {
        /// Where, as a JSON pointer.
        pointer: String,
    },
}

impl ConfigProblem {
    /// The stable code of the problem.
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmptyId { .. } => "empty_turn_config_id",
            Self::ZeroDuration { .. } => "zero_turn_duration",
            Self::ZeroForfeitThreshold { .. } => "zero_forfeit_threshold",
            Self::ForfeitWithoutTimer { .. } => "forfeit_without_timer",
        }
    }

    /// The JSON pointer of the offending value.
    pub fn pointer(&self) -> &str {
        match self {
            Self::EmptyId { pointer }
            | Self::ZeroDuration { pointer }
            | Self::ZeroForfeitThreshold { pointer }
            | Self::ForfeitWithoutTimer { pointer } => pointer,
        }
    }
}

/// The table of turn configs of a content revision: id → config, in id order.
///
/// In JSON it is a plain object: `{ "blitz": { "usesTimer": true, ... }, ... }`.
///
/// Inside, a list sorted by id: a content revision has a handful of configs, and state resolves
/// its config several times per command — first by pointer (an id taken from this table with
/// [`TurnConfigs::id`] shares its text), then by a binary search.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TurnConfigs {
    configs: Vec<(TurnConfigId, TurnConfig)>,
}

impl Serialize for TurnConfigs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for TurnConfigs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<TurnConfigId, TurnConfig>::deserialize(deserializer)?;
        Ok(Self {
            configs: map.into_iter().collect(),
        })
    }
}

impl TurnConfigs {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same table with `config` under `id` (a builder for tests and code-defined content).
    pub fn with(mut self, id: TurnConfigId, config: TurnConfig) -> Self {
        self.insert(id, config);
        self
    }

    /// Puts `config` under `id`, returning the config it replaced.
    pub fn insert(&mut self, id: TurnConfigId, config: TurnConfig) -> Option<TurnConfig> {
        match self.configs.binary_search_by(|(key, _)| key.cmp(&id)) {
            Ok(i) => Some(std::mem::replace(&mut self.configs[i].1, config)),
            Err(i) => {
                self.configs.insert(i, (id, config));
                None
            }
        }
    }

    /// The entry under `id`, if any: by pointer first, then by text.
    fn entry(&self, id: &TurnConfigId) -> Option<&(TurnConfigId, TurnConfig)> {
        if let Some(entry) = self.configs.iter().find(|(key, _)| key.shares_text(id)) {
            return Some(entry);
        }
        let i = self.configs.binary_search_by(|(key, _)| key.cmp(id)).ok()?;
        self.configs.get(i)
    }

    /// The config under `id`, if any.
    pub fn get(&self, id: &TurnConfigId) -> Option<&TurnConfig> {
        self.entry(id).map(|(_, config)| config)
    }

    /// The config under `id`, or [`TurnError::UnknownTurnConfig`].
    pub fn resolve(&self, id: &TurnConfigId) -> Result<&TurnConfig, TurnError> {
        self.get(id)
            .ok_or_else(|| TurnError::UnknownTurnConfig { id: id.clone() })
    }

    /// The table's own copy of `id`, if it holds that config: state that names its configs with
    /// these copies resolves them fastest.
    pub fn id(&self, id: &TurnConfigId) -> Option<&TurnConfigId> {
        self.entry(id).map(|(key, _)| key)
    }

    /// Resolves an optional id: `None` stays `None` (a turn without config), an unknown id is an
    /// error.
    pub fn resolve_optional(
        &self,
        id: Option<&TurnConfigId>,
    ) -> Result<Option<&TurnConfig>, TurnError> {
        id.map(|id| self.resolve(id)).transpose()
    }

    /// The configs in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&TurnConfigId, &TurnConfig)> {
        self.configs.iter().map(|(id, config)| (id, config))
    }

    /// How many configs the table holds.
    pub fn len(&self) -> usize {
        self.configs.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.configs.is_empty()
    }

    /// Checks every config and reports every problem at once, in id order.
    pub fn validate(&self) -> Result<(), Vec<ConfigProblem>> {
        let mut problems = Vec::new();
        for (id, config) in self.iter() {
            let base = format!("/{}", escape_pointer(id.as_str()));
            if id.as_str().is_empty() {
                problems.push(ConfigProblem::EmptyId {
                    pointer: base.clone(),
                });
            }
            if config.uses_timer && config.turn_duration_ticks == 0 {
                problems.push(ConfigProblem::ZeroDuration {
                    pointer: format!("{base}/turnDurationTicks"),
                });
            }
            match config.forfeit_after_timeouts {
                Some(0) => problems.push(ConfigProblem::ZeroForfeitThreshold {
                    pointer: format!("{base}/forfeitAfterTimeouts"),
                }),
                Some(_) if !config.uses_timer => {
                    problems.push(ConfigProblem::ForfeitWithoutTimer {
                        pointer: format!("{base}/forfeitAfterTimeouts"),
                    })
                }
                _ => {}
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

/// Escapes one JSON pointer token (RFC 6901: `~` → `~0`, `/` → `~1`).
fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_reports_every_problem_with_its_pointer() {
        let configs = TurnConfigs::new()
            .with(TurnConfigId::new(""), TurnConfig::default())
            .with(TurnConfigId::new("a/b"), TurnConfig::timed(0))
            .with(
                TurnConfigId::new("c"),
                TurnConfig {
                    forfeit_after_timeouts: Some(2),
                    ..TurnConfig::default()
                },
            )
            .with(
                TurnConfigId::new("d"),
                TurnConfig {
                    forfeit_after_timeouts: Some(0),
                    ..TurnConfig::timed(5)
                },
            )
            .with(TurnConfigId::new("ok"), TurnConfig::timed(5).skippable());
        let problems = configs.validate().unwrap_err();
        let found: Vec<(&str, &str)> = problems.iter().map(|p| (p.code(), p.pointer())).collect();
        assert_eq!(
            found,
            vec![
                ("empty_turn_config_id", "/"),
                ("zero_turn_duration", "/a~1b/turnDurationTicks"),
                ("forfeit_without_timer", "/c/forfeitAfterTimeouts"),
                ("zero_forfeit_threshold", "/d/forfeitAfterTimeouts"),
            ]
        );
    }

    #[test]
    fn config_json_is_camel_case_and_refuses_unknown_fields() {
        let config: TurnConfig =
            serde_json::from_str(r#"{"usesTimer":true,"turnDurationTicks":30,"isSkippable":true}"#)
                .unwrap();
        assert_eq!(config, TurnConfig::timed(30).skippable());
        assert_eq!(
            serde_json::to_string(&config).unwrap(),
            r#"{"usesTimer":true,"turnDurationTicks":30,"isSkippable":true}"#
        );
        assert!(serde_json::from_str::<TurnConfig>(r#"{"usesTimers":true}"#).is_err());
    }
}
