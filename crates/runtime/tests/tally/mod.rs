//! "Tally": a tiny two-seat game that exercises every part of the runtime contract — turns,
//! rule rejections, a random stream, hidden information per seat and an outcome — without the
//! weight of a real sample game.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use turnstile_core::determinism::{StreamTable, Streams};
use turnstile_core::{
    ActionKind, BundleManifest, BundleSource, CommandContext, ContentBundle, ContentProblem, Game,
    Location, MatchSetup, MatchStatus, Outcome, ParamRange, ParamSpec, Rejection, Seat, SetupError,
    Viewer,
};
use turnstile_runtime::{Match, MatchSpec, SeatSpec};

pub struct Tally;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TallyContent {
    pub target: i64,
    pub max_add: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TallyConfig {
    pub target: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TallyState {
    pub total: i64,
    pub to_move: Seat,
    pub target: i64,
    /// Each seat's secret draws.
    pub hands: Vec<Vec<u32>>,
    pub streams: Streams,
    pub winner: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum TallyAction {
    Add { n: i64 },
    Draw,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum TallyEvent {
    Added { seat: Seat, n: i64, total: i64 },
    Drew { seat: Seat, card: Option<u32> },
    Won { seat: Seat },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TallyView {
    pub total: i64,
    pub to_move: Seat,
    pub my_hand: Vec<u32>,
    pub hand_sizes: Vec<u32>,
}

pub const STREAMS: &[&str] = &["deck"];

impl Game for Tally {
    const ID: &'static str = "tally";
    const CONTENT_KINDS: &'static [&'static str] = &["rules"];
    const STREAMS: &'static [&'static str] = STREAMS;
    type Content = TallyContent;
    type Config = TallyConfig;
    type State = TallyState;
    type Action = TallyAction;
    type Event = TallyEvent;
    type View = TallyView;
    type Plan = TallyAction;

    fn load_content(source: &BundleSource) -> Result<TallyContent, Vec<ContentProblem>> {
        let manifest = BundleManifest::read(source, Some(Self::ID), Self::CONTENT_KINDS)?;
        let path = &manifest.files[0].path;
        let content: TallyContent = source.json(path).map_err(|p| vec![p])?;
        let mut problems = Vec::new();
        if content.target < 1 {
            problems.push(ContentProblem::new(
                path.as_str(),
                Location::Pointer {
                    pointer: "/target".into(),
                },
                "bad_target",
                "target must be at least 1",
            ));
        }
        if content.max_add < 1 {
            problems.push(ContentProblem::new(
                path.as_str(),
                Location::Pointer {
                    pointer: "/max_add".into(),
                },
                "bad_max_add",
                "max_add must be at least 1",
            ));
        }
        if problems.is_empty() {
            Ok(content)
        } else {
            Err(problems)
        }
    }

    fn seat_range(_: &TallyContent, _: &TallyConfig) -> (u16, u16) {
        (2, 4)
    }

    fn setup(
        content: &TallyContent,
        setup: MatchSetup<'_, TallyConfig>,
    ) -> Result<TallyState, SetupError> {
        let target = setup.config.target.unwrap_or(content.target);
        if target < 1 {
            return Err(SetupError::new("bad_target", "target must be at least 1"));
        }
        let streams = Streams::new(setup.seed, &StreamTable::new(STREAMS))
            .map_err(|e| SetupError::new("bad_seed", e.to_string()))?;
        Ok(TallyState {
            total: 0,
            to_move: Seat(0),
            target,
            hands: vec![Vec::new(); setup.seats as usize],
            streams,
            winner: None,
        })
    }

    fn legal_actions(content: &TallyContent, state: &TallyState, seat: Seat) -> Vec<ActionKind> {
        if state.winner.is_some() || seat != state.to_move {
            return Vec::new();
        }
        vec![
            ActionKind {
                kind: "add".into(),
                params: vec![ParamSpec {
                    name: "n".into(),
                    range: ParamRange::Integer {
                        min: 1,
                        max: content.max_add,
                    },
                }],
            },
            ActionKind::bare("draw"),
        ]
    }

    fn check(
        content: &TallyContent,
        state: &TallyState,
        ctx: CommandContext,
        action: &TallyAction,
    ) -> Result<TallyAction, Rejection> {
        if state.winner.is_some() {
            return Err(Rejection::new("match_over", "the match is over"));
        }
        if ctx.seat != Some(state.to_move) {
            return Err(Rejection::new("not_your_turn", "another seat is to move"));
        }
        if let TallyAction::Add { n } = action {
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
        _: &TallyContent,
        state: &mut TallyState,
        ctx: CommandContext,
        plan: TallyAction,
    ) -> Vec<TallyEvent> {
        let seat = ctx.seat.expect("checked");
        let mut events = Vec::new();
        match plan {
            TallyAction::Add { n } => {
                state.total += n;
                events.push(TallyEvent::Added {
                    seat,
                    n,
                    total: state.total,
                });
                if state.total >= state.target {
                    state.winner = Some(seat);
                    events.push(TallyEvent::Won { seat });
                }
            }
            TallyAction::Draw => {
                let card = state.streams.below("deck", 100).expect("declared stream");
                state.hands[seat.0 as usize].push(card);
                events.push(TallyEvent::Drew {
                    seat,
                    card: Some(card),
                });
            }
        }
        let seats = state.hands.len() as u16;
        state.to_move = Seat((state.to_move.0 + 1) % seats);
        events
    }

    fn view(_: &TallyContent, state: &TallyState, viewer: Viewer) -> TallyView {
        let my_hand = match viewer {
            Viewer::Seat(s) => state.hands[s.0 as usize].clone(),
            Viewer::Spectator => Vec::new(),
            Viewer::Referee => state.hands.concat(),
        };
        TallyView {
            total: state.total,
            to_move: state.to_move,
            my_hand,
            hand_sizes: state.hands.iter().map(|h| h.len() as u32).collect(),
        }
    }

    fn redact_event(_: &TallyContent, event: &TallyEvent, viewer: Viewer) -> Option<TallyEvent> {
        match (event, viewer) {
            (TallyEvent::Drew { seat, .. }, Viewer::Seat(v)) if *seat != v => {
                Some(TallyEvent::Drew {
                    seat: *seat,
                    card: None,
                })
            }
            (TallyEvent::Drew { seat, .. }, Viewer::Spectator) => Some(TallyEvent::Drew {
                seat: *seat,
                card: None,
            }),
            _ => Some(event.clone()),
        }
    }

    fn status(_: &TallyContent, state: &TallyState) -> MatchStatus {
        match state.winner {
            Some(seat) => MatchStatus::Finished {
                outcome: Outcome {
                    kind: "win".into(),
                    winners: vec![seat],
                },
            },
            None => MatchStatus::Active,
        }
    }
}

pub fn bundle() -> Arc<ContentBundle<TallyContent>> {
    Arc::new(
        ContentBundle::new(
            "tally",
            TallyContent {
                target: 30,
                max_add: 9,
            },
        )
        .unwrap(),
    )
}

pub fn new_match(seed: &str) -> Match<Tally> {
    Match::new(
        bundle(),
        MatchSpec {
            config: TallyConfig { target: None },
            seed: seed.into(),
            seats: vec![SeatSpec::human(), SeatSpec::human()],
            tick_rate: 10,
        },
    )
    .unwrap()
}
