//! The one action type of every kit game: the game's move, and the commands every turn-based
//! game has (skip, resign, and the system's timeout and clock resumption), with their JSON
//! written once here instead of an enum and its mappings per game.

use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use turnstile_core::{Seat, Tick};

use crate::state::KitState;
use crate::KitGame;

/// An action of a kit game, as JSON: the move `{"type": PLAY_KIND, PLAY_FIELD: …}` (Tic-Tac-Toe's
/// `{"type": "mark", "cell": [1, 2]}`), `{"type": "skip"}`, `{"type": "resign"}`, and the
/// system's `{"type": "timeout", "turnIndex": 7}` and
/// `{"type": "clockResumed", "lastHeartbeatTick": 40, "takeoverTick": 95}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action<G: KitGame> {
    /// Play a move: the turn framework's `Play`, with the game's move as its data.
    Play(G::Move),
    /// Give up the rest of the turn, when the turn config is skippable.
    Skip,
    /// Give up the match; the other seat wins. Either seat, at any time.
    Resign,
    /// The system's `Timeout` for the turn with this match-wide index (command id
    /// `timeout:<turn index>`; the runtime does not check the id, the rules check the index).
    Timeout {
        /// The turn the server saw time out.
        turn_index: u64,
    },
    /// The system's `ClockResumed` (command id `clock-resumed:<sequence>`), recorded by a node
    /// that took the match over after an outage: every running deadline moves later by
    /// `takeover_tick − max(last_heartbeat_tick, clock tick)`, so the outage counts against
    /// no one.
    ClockResumed {
        /// The previous node's last heartbeat tick: where the outage began.
        last_heartbeat_tick: Tick,
        /// The tick at which the new node took over.
        takeover_tick: Tick,
    },
}

impl<G: KitGame> Action<G> {
    /// Whether only the system may submit this action (`timeout`, `clockResumed`).
    pub fn is_system(&self) -> bool {
        matches!(self, Action::Timeout { .. } | Action::ClockResumed { .. })
    }
}

/// Keys are written in canonical (sorted) order, so fingerprinting never reorders them.
impl<G: KitGame> Serialize for Action<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Action::Play(mv) => {
                let mut object = serializer.serialize_struct("Action", 2)?;
                if G::PLAY_FIELD < "type" {
                    object.serialize_field(G::PLAY_FIELD, mv)?;
                    object.serialize_field("type", G::PLAY_KIND)?;
                } else {
                    object.serialize_field("type", G::PLAY_KIND)?;
                    object.serialize_field(G::PLAY_FIELD, mv)?;
                }
                object.end()
            }
            other => Common::from_action(other)
                .ok_or_else(|| serde::ser::Error::custom("unreachable"))?
                .serialize(serializer),
        }
    }
}

/// The commands every kit game shares, in their derived JSON form.
#[derive(Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
enum Common {
    Skip,
    Resign,
    Timeout {
        turn_index: u64,
    },
    ClockResumed {
        last_heartbeat_tick: Tick,
        takeover_tick: Tick,
    },
}

impl Common {
    fn from_action<G: KitGame>(action: &Action<G>) -> Option<Common> {
        Some(match action {
            Action::Play(_) => return None,
            Action::Skip => Common::Skip,
            Action::Resign => Common::Resign,
            Action::Timeout { turn_index } => Common::Timeout {
                turn_index: *turn_index,
            },
            Action::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => Common::ClockResumed {
                last_heartbeat_tick: *last_heartbeat_tick,
                takeover_tick: *takeover_tick,
            },
        })
    }

    fn into_action<G: KitGame>(self) -> Action<G> {
        match self {
            Common::Skip => Action::Skip,
            Common::Resign => Action::Resign,
            Common::Timeout { turn_index } => Action::Timeout { turn_index },
            Common::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            } => Action::ClockResumed {
                last_heartbeat_tick,
                takeover_tick,
            },
        }
    }
}

const COMMON: [&str; 4] = ["skip", "resign", "timeout", "clockResumed"];

impl<'de, G: KitGame> Deserialize<'de> for Action<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut object = Map::<String, Value>::deserialize(deserializer)?;
        let kind = match object.get("type") {
            Some(Value::String(kind)) => kind.clone(),
            Some(_) => return Err(D::Error::custom("the action's \"type\" must be a string")),
            None => return Err(D::Error::missing_field("type")),
        };
        if kind == G::PLAY_KIND {
            object.remove("type");
            let mv = object
                .remove(G::PLAY_FIELD)
                .ok_or_else(|| D::Error::missing_field(G::PLAY_FIELD))?;
            if let Some(key) = object.keys().next() {
                return Err(D::Error::unknown_field(key, &[G::PLAY_FIELD]));
            }
            return G::Move::deserialize(mv)
                .map(Action::Play)
                .map_err(D::Error::custom);
        }
        if !COMMON.contains(&kind.as_str()) {
            return Err(D::Error::custom(format!(
                "unknown action type {kind:?}; {} takes {:?}, \"skip\", \"resign\", \"timeout\" or \"clockResumed\"",
                G::ID,
                G::PLAY_KIND
            )));
        }
        Common::deserialize(Value::Object(object))
            .map(Common::into_action)
            .map_err(D::Error::custom)
    }
}

/// A random command for property tests, decoded from `code`: mostly a move from `arbitrary`
/// (often an illegal one) by a seat that may not exist (seat 2), else a `Skip` by either seat,
/// a due or stale `Timeout`, or rarely a `Resign`. Legal moves and time passing are the test
/// driver's part; this is the rest of what a client or a faulty server could send.
pub fn arbitrary_command<G: KitGame>(
    code: u32,
    state: &KitState<G>,
    arbitrary: impl Fn(u32) -> G::Move,
) -> (Option<Seat>, Action<G>) {
    let (op, arg) = (code % 4, code / 4);
    let seat = |n: u32| Some(Seat((n % 2) as u16));
    match op {
        0 => (
            Some(Seat((arg % 3) as u16)),
            Action::Play(arbitrary(arg / 3)),
        ),
        1 => (seat(arg), Action::Skip),
        2 => {
            let turn_index = u64::from(arg / 2) % (state.turn_index() + 2);
            (None, Action::Timeout { turn_index })
        }
        _ if arg % 16 == 0 => (seat(arg / 16), Action::Resign),
        _ => (None, Action::Play(arbitrary(arg))),
    }
}
