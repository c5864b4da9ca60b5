//! "Vault": a tiny two-seat game with hidden information, made for the redaction tests. Seats
//! take turns; `draw` gives the seat a secret word (`SECRET<seat>x<n>`) that only it may see;
//! `add` raises a public total; reaching the target wins; `resign` ends it.
//!
//! Every secret is spelled so that a test can scan any response for another seat's secrets:
//! `SECRET1x` must never reach seat 0, nor any `SECRET` a spectator.

use serde::{Deserialize, Serialize};
use turnstile_core::determinism::{StreamTable, Streams};
use turnstile_core::{
    ActionKind, BundleManifest, BundleSource, CommandContext, ContentProblem, Game, MatchSetup,
    MatchStatus, Outcome, ParamRange, ParamSpec, Rejection, Seat, SetupError, Viewer,
};

pub struct Vault;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VaultContent {
    pub target: i64,
    pub max_add: i64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VaultConfig {
    #[serde(default)]
    pub target: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VaultState {
    pub total: i64,
    pub to_move: Seat,
    pub target: i64,
    pub secrets: Vec<Vec<String>>,
    pub streams: Streams,
    pub result: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type", deny_unknown_fields)]
pub enum VaultAction {
    Add { n: i64 },
    Draw,
    Resign,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum VaultEvent {
    Added { seat: Seat, n: i64, total: i64 },
    Drew { seat: Seat, secret: Option<String> },
    Ended { outcome: Outcome },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VaultView {
    pub total: i64,
    pub to_move: Seat,
    pub my_secrets: Vec<String>,
    pub secret_counts: Vec<u32>,
}

const STREAMS: &[&str] = &["vault"];

impl Game for Vault {
    const ID: &'static str = "vault";
    const CONTENT_KINDS: &'static [&'static str] = &["rules"];
    const STREAMS: &'static [&'static str] = STREAMS;
    type Content = VaultContent;
    type Config = VaultConfig;
    type State = VaultState;
    type Action = VaultAction;
    type Event = VaultEvent;
    type View = VaultView;
    type Plan = VaultAction;

    fn load_content(source: &BundleSource) -> Result<VaultContent, Vec<ContentProblem>> {
        let manifest = BundleManifest::read(source, Some(Self::ID), Self::CONTENT_KINDS)?;
        let content: VaultContent = source.json(&manifest.files[0].path).map_err(|p| vec![p])?;
        if content.target < 1 || content.max_add < 1 {
            return Err(vec![ContentProblem::new(
                manifest.files[0].path.as_str(),
                turnstile_core::Location::File,
                "bad_rules",
                "target and maxAdd must be at least 1",
            )]);
        }
        Ok(content)
    }

    fn seat_range(_: &VaultContent, _: &VaultConfig) -> (u16, u16) {
        (2, 2)
    }

    fn setup(
        content: &VaultContent,
        setup: MatchSetup<'_, VaultConfig>,
    ) -> Result<VaultState, SetupError> {
        let streams = Streams::new(setup.seed, &StreamTable::new(STREAMS))
            .map_err(|e| SetupError::new("bad_seed", e.to_string()))?;
        Ok(VaultState {
            total: 0,
            to_move: Seat(0),
            target: setup.config.target.unwrap_or(content.target),
            secrets: vec![Vec::new(); usize::from(setup.seats)],
            streams,
            result: None,
        })
    }

    fn legal_actions(content: &VaultContent, state: &VaultState, seat: Seat) -> Vec<ActionKind> {
        if state.result.is_some() {
            return Vec::new();
        }
        let mut kinds = vec![ActionKind::bare("resign")];
        if seat == state.to_move {
            kinds.push(ActionKind {
                kind: "add".into(),
                params: vec![ParamSpec {
                    name: "n".into(),
                    range: ParamRange::Integer {
                        min: 1,
                        max: content.max_add,
                    },
                }],
            });
            kinds.push(ActionKind::bare("draw"));
        }
        kinds
    }

    fn enumerate_actions(
        content: &VaultContent,
        state: &VaultState,
        seat: Seat,
    ) -> Vec<VaultAction> {
        if state.result.is_some() || seat != state.to_move {
            return Vec::new();
        }
        let mut actions: Vec<VaultAction> = (1..=content.max_add)
            .map(|n| VaultAction::Add { n })
            .collect();
        actions.push(VaultAction::Draw);
        actions
    }

    fn check(
        content: &VaultContent,
        state: &VaultState,
        ctx: CommandContext,
        action: &VaultAction,
    ) -> Result<VaultAction, Rejection> {
        if state.result.is_some() {
            return Err(Rejection::new("match_over", "the match is over"));
        }
        if matches!(action, VaultAction::Resign) {
            return Ok(action.clone());
        }
        if ctx.seat != Some(state.to_move) {
            return Err(Rejection::new("not_your_turn", "another seat is to move"));
        }
        if let VaultAction::Add { n } = action {
            if !(1..=content.max_add).contains(n) {
                return Err(Rejection::new(
                    "out_of_range",
                    format!("n must be 1..={}", content.max_add),
                ));
            }
        }
        Ok(action.clone())
    }

    fn commit(
        _: &VaultContent,
        state: &mut VaultState,
        ctx: CommandContext,
        plan: VaultAction,
    ) -> Vec<VaultEvent> {
        let Some(seat) = ctx.seat else {
            return Vec::new();
        };
        let seats = u16::try_from(state.secrets.len()).unwrap_or(2);
        let mut events = Vec::new();
        match plan {
            VaultAction::Add { n } => {
                state.total += n;
                events.push(VaultEvent::Added {
                    seat,
                    n,
                    total: state.total,
                });
                if state.total >= state.target {
                    let outcome = Outcome {
                        kind: "win".into(),
                        winners: vec![seat],
                    };
                    state.result = Some(outcome.clone());
                    events.push(VaultEvent::Ended { outcome });
                }
            }
            VaultAction::Draw => {
                let n = state.streams.below("vault", 1_000_000).unwrap_or(0);
                let secret = format!("SECRET{}x{n:06}", seat.0);
                state.secrets[usize::from(seat.0)].push(secret.clone());
                events.push(VaultEvent::Drew {
                    seat,
                    secret: Some(secret),
                });
            }
            VaultAction::Resign => {
                let outcome = Outcome {
                    kind: "resigned".into(),
                    winners: (0..seats).map(Seat).filter(|s| *s != seat).collect(),
                };
                state.result = Some(outcome.clone());
                events.push(VaultEvent::Ended { outcome });
                return events;
            }
        }
        state.to_move = Seat((state.to_move.0 + 1) % seats);
        events
    }

    fn view(_: &VaultContent, state: &VaultState, viewer: Viewer) -> VaultView {
        let my_secrets = match viewer {
            Viewer::Seat(s) => state
                .secrets
                .get(usize::from(s.0))
                .cloned()
                .unwrap_or_default(),
            Viewer::Spectator => Vec::new(),
            Viewer::Referee => state.secrets.concat(),
        };
        VaultView {
            total: state.total,
            to_move: state.to_move,
            my_secrets,
            secret_counts: state.secrets.iter().map(|h| h.len() as u32).collect(),
        }
    }

    fn redact_event(_: &VaultContent, event: &VaultEvent, viewer: Viewer) -> Option<VaultEvent> {
        match (event, viewer) {
            (VaultEvent::Drew { seat, .. }, Viewer::Seat(v)) if *seat != v => {
                Some(VaultEvent::Drew {
                    seat: *seat,
                    secret: None,
                })
            }
            (VaultEvent::Drew { seat, .. }, Viewer::Spectator) => Some(VaultEvent::Drew {
                seat: *seat,
                secret: None,
            }),
            _ => Some(event.clone()),
        }
    }

    fn status(_: &VaultContent, state: &VaultState) -> MatchStatus {
        match &state.result {
            Some(outcome) => MatchStatus::Finished {
                outcome: outcome.clone(),
            },
            None => MatchStatus::Active,
        }
    }
}

pub fn source() -> BundleSource {
    let mut source = BundleSource::new();
    source.insert(
        "bundle.json",
        br#"{"game": "vault", "files": [{"id": "rules", "kind": "rules", "path": "rules.json"}]}"#
            .to_vec(),
    );
    source.insert("rules.json", br#"{"target": 1000, "maxAdd": 9}"#.to_vec());
    source
}
