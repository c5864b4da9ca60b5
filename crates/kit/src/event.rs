//! What a kit game's receipts tell clients, and how its matches end: the game's own events and
//! results beside the ones the kit adds (the turn framework's events, `matchEnded`, resignation
//! and forfeit), each in the JSON a derived, tagged enum would have.

use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use turnstile_core::{Outcome, Seat};
use turnstile_turns::{TurnEvent, TurnEventSink};

use crate::{opponent, KitGame, KitWin};

/// How a match ended: the game's own result, or one the kit decides.
///
/// In JSON an object tagged by `kind`: the game's (`{"kind": "won", …}`, `{"kind": "draw"}`),
/// `{"kind": "resigned", "seat": 1}` or `{"kind": "forfeited", "seat": 0, "timeouts": 2}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchResult<W> {
    /// The game ended the match (a line, a full board, the last stone).
    Game(W),
    /// `seat` resigned; the other seat wins.
    Resigned {
        /// Who resigned.
        seat: Seat,
    },
    /// `seat` let its turn time out `timeouts` times in a row, reaching the turn config's
    /// `forfeitAfterTimeouts`; the other seat wins.
    Forfeited {
        /// Who forfeited.
        seat: Seat,
        /// Timeouts in a row.
        timeouts: u32,
    },
}

impl<W: KitWin> MatchResult<W> {
    /// The winning seat, if any.
    pub fn winner(&self) -> Option<Seat> {
        match self {
            MatchResult::Game(win) => win.winner(),
            MatchResult::Resigned { seat } | MatchResult::Forfeited { seat, .. } => {
                Some(opponent(*seat))
            }
        }
    }

    /// The engine's outcome: the game's kind, `resigned` or `timeout`.
    pub fn outcome(&self) -> Outcome {
        let kind = match self {
            MatchResult::Game(win) => win.outcome_kind(),
            MatchResult::Resigned { .. } => "resigned",
            MatchResult::Forfeited { .. } => "timeout",
        };
        Outcome {
            kind: kind.into(),
            winners: self.winner().into_iter().collect(),
        }
    }
}

/// The results the kit decides, in their derived JSON form.
#[derive(Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
enum KitEnd {
    Resigned { seat: Seat },
    Forfeited { seat: Seat, timeouts: u32 },
}

impl<W: Serialize> Serialize for MatchResult<W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            MatchResult::Game(win) => win.serialize(serializer),
            MatchResult::Resigned { seat } => {
                KitEnd::Resigned { seat: *seat }.serialize(serializer)
            }
            MatchResult::Forfeited { seat, timeouts } => KitEnd::Forfeited {
                seat: *seat,
                timeouts: *timeouts,
            }
            .serialize(serializer),
        }
    }
}

impl<'de, W: serde::de::DeserializeOwned> Deserialize<'de> for MatchResult<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        match value.get("kind").and_then(Value::as_str) {
            Some("resigned" | "forfeited") => match KitEnd::deserialize(value) {
                Ok(KitEnd::Resigned { seat }) => Ok(MatchResult::Resigned { seat }),
                Ok(KitEnd::Forfeited { seat, timeouts }) => {
                    Ok(MatchResult::Forfeited { seat, timeouts })
                }
                Err(e) => Err(D::Error::custom(e)),
            },
            _ => W::deserialize(value)
                .map(MatchResult::Game)
                .map_err(D::Error::custom),
        }
    }
}

/// What a receipt of a kit game tells clients, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KitEvent<G: KitGame> {
    /// One of the game's own events (`piecePlaced`, `stonesTaken`).
    Game(G::Event),
    /// The match ended: nothing is accepted after it. `{"type": "matchEnded", "result": …,
    /// "winner": …}`.
    MatchEnded {
        /// How it ended.
        result: MatchResult<G::Win>,
        /// Who won, if anyone.
        winner: Option<Seat>,
    },
    /// Something happened to the turns (began, ended with a reason, status changes, …):
    /// `{"type": "turn", "event": …}`.
    Turn {
        /// The turn framework's event.
        event: TurnEvent<G::Move, ()>,
    },
}

impl<G: KitGame> KitEvent<G> {
    /// The event that ends a match with `result`, naming its winner.
    pub fn match_ended(result: MatchResult<G::Win>) -> Self {
        let winner = result.winner();
        KitEvent::MatchEnded { result, winner }
    }
}

/// Where a move's events are recorded, in the order they happen: the game's own
/// ([`push`](GameEvents::push), from [`KitGame::apply`]), the turn framework's (it is the
/// framework's [`TurnEventSink`]) and the match's end — straight into the list the caller keeps,
/// so a move fills no list of its own.
pub struct GameEvents<'a, G: KitGame> {
    events: &'a mut Vec<KitEvent<G>>,
    /// Whether the turn framework's signals are kept (`Game::apply`) or never made
    /// (`Game::apply_lean`).
    keep_signals: bool,
}

impl<'a, G: KitGame> GameEvents<'a, G> {
    pub(crate) fn new(events: &'a mut Vec<KitEvent<G>>, keep_signals: bool) -> Self {
        GameEvents {
            events,
            keep_signals,
        }
    }

    /// Records one of the game's own events.
    pub fn push(&mut self, event: G::Event) {
        self.events.push(KitEvent::Game(event));
    }

    /// Records the match's end.
    pub(crate) fn record_end(&mut self, result: MatchResult<G::Win>) {
        self.events.push(KitEvent::match_ended(result));
    }
}

impl<G: KitGame> TurnEventSink<G::Move, ()> for GameEvents<'_, G> {
    #[inline]
    fn record(&mut self, event: TurnEvent<G::Move, ()>) {
        debug_assert!(
            self.keep_signals || !event.is_signal(),
            "a signal reached a sink that keeps none"
        );
        self.events.push(KitEvent::Turn { event });
    }

    #[inline]
    fn keeps_signals(&self) -> bool {
        self.keep_signals
    }
}

impl<G: KitGame> KitEvent<G> {
    /// Appends exactly the canonical bytes of this event's `Serialize` form (below): a turn
    /// event by hand (`{"event":…,"type":"turn"}`, the turn framework's own hand-written
    /// writer inside), the game's events and the match's end through `serde`. For the hash of
    /// every receipt; the test driver of `turnstile_runtime::testing` holds the two together
    /// for every event of every kit game's property tests.
    pub fn write_canonical(
        &self,
        writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
    ) -> Result<(), turnstile_core::determinism::CanonicalError> {
        match self {
            KitEvent::Turn { event } => {
                writer.raw(b"{\"event\":");
                event.write_canonical(writer)?;
                writer.raw(b",\"type\":\"turn\"}");
                Ok(())
            }
            other => writer.value(other),
        }
    }
}

/// Keys in canonical (sorted) order, so that fingerprinting a receipt never reorders them.
impl<G: KitGame> Serialize for KitEvent<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            KitEvent::Game(event) => event.serialize(serializer),
            KitEvent::MatchEnded { result, winner } => {
                let mut object = serializer.serialize_struct("KitEvent", 3)?;
                object.serialize_field("result", result)?;
                object.serialize_field("type", "matchEnded")?;
                object.serialize_field("winner", winner)?;
                object.end()
            }
            KitEvent::Turn { event } => {
                let mut object = serializer.serialize_struct("KitEvent", 2)?;
                object.serialize_field("event", event)?;
                object.serialize_field("type", "turn")?;
                object.end()
            }
        }
    }
}

impl<'de, G: KitGame> Deserialize<'de> for KitEvent<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut object = Map::<String, Value>::deserialize(deserializer)?;
        let field = |object: &mut Map<String, Value>, name: &'static str| {
            object
                .remove(name)
                .ok_or_else(|| D::Error::missing_field(name))
        };
        match object.get("type").and_then(Value::as_str) {
            Some("matchEnded") => Ok(KitEvent::MatchEnded {
                result: Deserialize::deserialize(field(&mut object, "result")?)
                    .map_err(D::Error::custom)?,
                winner: Deserialize::deserialize(field(&mut object, "winner")?)
                    .map_err(D::Error::custom)?,
            }),
            Some("turn") => Ok(KitEvent::Turn {
                event: Deserialize::deserialize(field(&mut object, "event")?)
                    .map_err(D::Error::custom)?,
            }),
            _ => G::Event::deserialize(Value::Object(object))
                .map(KitEvent::Game)
                .map_err(D::Error::custom),
        }
    }
}
