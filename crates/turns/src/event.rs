//! Events: what a receipt tells clients about turns. They never feed back into rules.
//!
//! Game logic reacts to [signals](crate::TurnSignals), called synchronously inside the
//! transition; events are the record of what happened, for rendering and logs.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};
use turnstile_core::{Seat, Tick};

use crate::data::{TurnEndReason, TurnStatus, TurnType};
use crate::ids::{CommanderId, EntityId};
use crate::order::SkipReason;

/// Where a [`Turns`](crate::Turns) handle records the events it emits, in the order they
/// happen.
///
/// A handle records into a list of its own unless it is given another sink
/// ([`MatchTurns::turns_into`](crate::MatchTurns::turns_into)): a game whose own event type
/// wraps turn events gives its event list, so each event is written once, where the receipt
/// reads it, and no second list is filled, drained and moved per command.
pub trait TurnEventSink<P, S> {
    /// Records `event` after every event recorded before it.
    fn record(&mut self, event: TurnEvent<P, S>);

    /// Whether this sink keeps *signals* ([`TurnEvent::is_signal`]): when it answers `false`
    /// the framework never makes them, so a caller that would drop them anyway (a format-3
    /// receipt leaves them out) pays for neither building nor dropping them. Everything else
    /// the framework does is the same either way; only the list differs, by exactly the
    /// signals. The answer must not change while the sink is lent to a [`Turns`](crate::Turns).
    fn keeps_signals(&self) -> bool {
        true
    }

    /// Records a signal made by `make`, only if this sink keeps signals.
    // `#[inline]`: called on every status change of every turn, and a sink that keeps no
    // signals makes it a test of one constant; thin LTO left it a call of its own (55
    // instructions a bare Connect Four move, measured with callgrind).
    #[inline]
    fn record_signal(&mut self, make: impl FnOnce() -> TurnEvent<P, S>)
    where
        Self: Sized,
    {
        if self.keeps_signals() {
            let event = make();
            debug_assert!(event.is_signal(), "record_signal given a non-signal event");
            self.record(event);
        }
    }
}

impl<P, S> TurnEventSink<P, S> for Vec<TurnEvent<P, S>> {
    fn record(&mut self, event: TurnEvent<P, S>) {
        self.push(event);
    }
}

/// A sink that keeps nothing: for operations whose events nobody reads, such as building a
/// match's starting turn state (no receipt records the setup), so they fill no list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DiscardEvents;

impl<P, S> TurnEventSink<P, S> for DiscardEvents {
    fn record(&mut self, _event: TurnEvent<P, S>) {}

    fn keeps_signals(&self) -> bool {
        false
    }
}

/// Something that happened to the turn state. `P` and `S` are the game's `Play` and `Skip`
/// command data. In JSON: `{"type": "turnEnded", "turnIndex": 3, ...}`.
///
/// Events about type, status, activation and timer reset describe the [`TurnData`](crate::TurnData)
/// the operation was called on; emitted by [`Turns`](crate::Turns), that is always the match's
/// current turn.
///
/// Serialized by hand, with the same JSON as the derived form, writing each object's keys in
/// canonical (sorted) order — `"type"` among them, not first — so that fingerprinting a receipt
/// never has to reorder them; `serializes_like_the_derived_form` checks every variant.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TurnEvent<P = (), S = ()> {
    /// The turn's type really changed.
    TurnTypeChanged {
        /// The type before.
        previous: TurnType,
        /// The type now.
        current: TurnType,
    },
    /// The turn's status really changed.
    TurnStatusChanged {
        /// The status before.
        previous: TurnStatus,
        /// The status now.
        current: TurnStatus,
    },
    /// The turn became `Active` (a new turn, or a turn resumed after a resolution or a pause).
    TurnActivated {
        /// The turn's owner.
        player: Option<Seat>,
        /// The turn's entity.
        entity: Option<EntityId>,
    },
    /// The turn's ticks went back to 0 (a reset).
    TurnTimerReset,
    /// A new turn began: the match's turn index was raised. Paired with exactly one
    /// [`TurnEvent::TurnEnded`] with the same index.
    TurnBegan {
        /// The match-wide turn index of the new turn (what a `Timeout` names).
        turn_index: u64,
        /// The turn's owner.
        player: Option<Seat>,
        /// The turn's entity.
        entity: Option<EntityId>,
    },
    /// A turn ended.
    TurnEnded {
        /// The match-wide index of the turn that ended.
        turn_index: u64,
        /// The turn's owner.
        player: Option<Seat>,
        /// The turn's entity.
        entity: Option<EntityId>,
        /// Why it ended.
        reason: TurnEndReason,
        /// The turn's active timed ticks.
        ticks: u32,
    },
    /// A `Play` command was accepted.
    PlayCommandReceived {
        /// Who played.
        seat: Seat,
        /// The game's play data.
        data: P,
    },
    /// A `Skip` command was accepted.
    SkipCommandReceived {
        /// Who skipped.
        seat: Seat,
        /// The game's skip data.
        data: S,
    },
    /// A new round of the turn order began.
    RoundStarted {
        /// The round's number, from 1.
        round: u64,
    },
    /// A pending commander joined the loop at a round boundary.
    CommanderJoined {
        /// The commander.
        commander: CommanderId,
        /// The first round it takes part in.
        round: u64,
    },
    /// A commander left the turn order.
    CommanderRemoved {
        /// The commander.
        commander: CommanderId,
    },
    /// A commander's turn came but it could not act.
    CommanderSkipped {
        /// The commander.
        commander: CommanderId,
        /// Why, as the game said.
        reason: SkipReason,
    },
    /// A commander's priority changed.
    CommanderPriorityChanged {
        /// The commander.
        commander: CommanderId,
        /// The priority before.
        previous: i32,
        /// The priority now.
        current: i32,
    },
    /// A whole round went by with no commander able to act; the loop waits for the game.
    TurnOrderStalled {
        /// The round in which nobody acted.
        round: u64,
    },
    /// The clock resumed after an outage; the outage does not count against anyone.
    ClockResumed {
        /// The tick from which the outage no longer counts.
        outage_start_tick: Tick,
        /// The tick at which the clock resumed.
        takeover_tick: Tick,
        /// How far every running deadline moved.
        shift_ticks: u64,
    },
}

impl<P, S> TurnEvent<P, S> {
    /// Whether this event is a *signal*: bookkeeping that only the rules need, which receipts
    /// of format 3 leave out (docs/turns.md, "Which events are signals"). A turn's type and
    /// status changes, its activation and timer reset, and the "command received" echoes of
    /// the receipt's own action are signals; what a client renders — a turn began or ended
    /// and why, rounds, commanders joining, leaving, skipped or reprioritized, a stalled loop,
    /// a resumed clock — stays an event.
    pub fn is_signal(&self) -> bool {
        matches!(
            self,
            TurnEvent::TurnTypeChanged { .. }
                | TurnEvent::TurnStatusChanged { .. }
                | TurnEvent::TurnActivated { .. }
                | TurnEvent::TurnTimerReset
                | TurnEvent::PlayCommandReceived { .. }
                | TurnEvent::SkipCommandReceived { .. }
        )
    }
}

impl<P: Serialize, S: Serialize> TurnEvent<P, S> {
    /// Appends exactly the canonical bytes of this event's `Serialize` form: the events every
    /// turn of every match records (a turn beginning and ending) by hand, keys as literals in
    /// canonical order; every other event through `serde`. For the hash of every receipt; a
    /// property test (`hand_written_events_are_the_serialized_ones`) holds the two together.
    pub fn write_canonical(
        &self,
        writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
    ) -> Result<(), turnstile_core::determinism::CanonicalError> {
        let optional = |writer: &mut turnstile_core::determinism::canonical::CanonicalWriter,
                        value: Option<u64>| match value {
            Some(value) => writer.uint(value),
            None => writer.raw(b"null"),
        };
        match self {
            TurnEvent::TurnBegan {
                turn_index,
                player,
                entity,
            } => {
                writer.raw(b"{\"entity\":");
                optional(writer, entity.map(|e| e.0));
                writer.raw(b",\"player\":");
                optional(writer, player.map(|p| u64::from(p.0)));
                writer.raw(b",\"turnIndex\":");
                writer.uint(*turn_index);
                writer.raw(b",\"type\":\"turnBegan\"}");
            }
            TurnEvent::TurnEnded {
                turn_index,
                player,
                entity,
                reason,
                ticks,
            } => {
                writer.raw(b"{\"entity\":");
                optional(writer, entity.map(|e| e.0));
                writer.raw(b",\"player\":");
                optional(writer, player.map(|p| u64::from(p.0)));
                writer.raw(b",\"reason\":");
                writer.value(reason)?;
                writer.raw(b",\"ticks\":");
                writer.uint(u64::from(*ticks));
                writer.raw(b",\"turnIndex\":");
                writer.uint(*turn_index);
                writer.raw(b",\"type\":\"turnEnded\"}");
            }
            other => writer.value(other)?,
        }
        Ok(())
    }
}

impl<P: Serialize, S: Serialize> Serialize for TurnEvent<P, S> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        /// Writes `{"k": v, …}` with the keys as given (already sorted), then ends it.
        macro_rules! object {
            ($($key:literal: $value:expr),+ $(,)?) => {{
                let mut object = serializer.serialize_struct("TurnEvent", [$($key),+].len())?;
                $(object.serialize_field($key, $value)?;)+
                object.end()
            }};
        }
        match self {
            TurnEvent::TurnTypeChanged { previous, current } => object!(
                "current": current, "previous": previous, "type": "turnTypeChanged",
            ),
            TurnEvent::TurnStatusChanged { previous, current } => object!(
                "current": current, "previous": previous, "type": "turnStatusChanged",
            ),
            TurnEvent::TurnActivated { player, entity } => object!(
                "entity": entity, "player": player, "type": "turnActivated",
            ),
            TurnEvent::TurnTimerReset => object!("type": "turnTimerReset"),
            TurnEvent::TurnBegan {
                turn_index,
                player,
                entity,
            } => object!(
                "entity": entity, "player": player, "turnIndex": turn_index, "type": "turnBegan",
            ),
            TurnEvent::TurnEnded {
                turn_index,
                player,
                entity,
                reason,
                ticks,
            } => object!(
                "entity": entity,
                "player": player,
                "reason": reason,
                "ticks": ticks,
                "turnIndex": turn_index,
                "type": "turnEnded",
            ),
            TurnEvent::PlayCommandReceived { seat, data } => object!(
                "data": data, "seat": seat, "type": "playCommandReceived",
            ),
            TurnEvent::SkipCommandReceived { seat, data } => object!(
                "data": data, "seat": seat, "type": "skipCommandReceived",
            ),
            TurnEvent::RoundStarted { round } => object!("round": round, "type": "roundStarted"),
            TurnEvent::CommanderJoined { commander, round } => object!(
                "commander": commander, "round": round, "type": "commanderJoined",
            ),
            TurnEvent::CommanderRemoved { commander } => object!(
                "commander": commander, "type": "commanderRemoved",
            ),
            TurnEvent::CommanderSkipped { commander, reason } => object!(
                "commander": commander, "reason": reason, "type": "commanderSkipped",
            ),
            TurnEvent::CommanderPriorityChanged {
                commander,
                previous,
                current,
            } => object!(
                "commander": commander,
                "current": current,
                "previous": previous,
                "type": "commanderPriorityChanged",
            ),
            TurnEvent::TurnOrderStalled { round } => object!(
                "round": round, "type": "turnOrderStalled",
            ),
            TurnEvent::ClockResumed {
                outage_start_tick,
                takeover_tick,
                shift_ticks,
            } => object!(
                "outageStartTick": outage_start_tick,
                "shiftTicks": shift_ticks,
                "takeoverTick": takeover_tick,
                "type": "clockResumed",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{TurnEndReason, TurnStatus, TurnType};
    use crate::ids::{CommanderId, EntityId};
    use crate::order::SkipReason;

    type Event = TurnEvent<[u16; 2], Option<u8>>;

    /// The derived, internally tagged form the hand-written `Serialize` must match.
    #[derive(Serialize)]
    #[serde(
        tag = "type",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )]
    enum Derived {
        TurnTypeChanged {
            previous: TurnType,
            current: TurnType,
        },
        TurnStatusChanged {
            previous: TurnStatus,
            current: TurnStatus,
        },
        TurnActivated {
            player: Option<Seat>,
            entity: Option<EntityId>,
        },
        TurnTimerReset,
        TurnBegan {
            turn_index: u64,
            player: Option<Seat>,
            entity: Option<EntityId>,
        },
        TurnEnded {
            turn_index: u64,
            player: Option<Seat>,
            entity: Option<EntityId>,
            reason: TurnEndReason,
            ticks: u32,
        },
        PlayCommandReceived {
            seat: Seat,
            data: [u16; 2],
        },
        SkipCommandReceived {
            seat: Seat,
            data: Option<u8>,
        },
        RoundStarted {
            round: u64,
        },
        CommanderJoined {
            commander: CommanderId,
            round: u64,
        },
        CommanderRemoved {
            commander: CommanderId,
        },
        CommanderSkipped {
            commander: CommanderId,
            reason: SkipReason,
        },
        CommanderPriorityChanged {
            commander: CommanderId,
            previous: i32,
            current: i32,
        },
        TurnOrderStalled {
            round: u64,
        },
        ClockResumed {
            outage_start_tick: Tick,
            takeover_tick: Tick,
            shift_ticks: u64,
        },
    }

    #[test]
    fn serializes_like_the_derived_form() {
        let id = || CommanderId::new("hero");
        let custom = || TurnType::Custom("shop".into());
        let pairs: Vec<(Event, Derived)> = vec![
            (
                TurnEvent::TurnTypeChanged {
                    previous: TurnType::Play,
                    current: custom(),
                },
                Derived::TurnTypeChanged {
                    previous: TurnType::Play,
                    current: custom(),
                },
            ),
            (
                TurnEvent::TurnStatusChanged {
                    previous: TurnStatus::Active,
                    current: TurnStatus::Resolving,
                },
                Derived::TurnStatusChanged {
                    previous: TurnStatus::Active,
                    current: TurnStatus::Resolving,
                },
            ),
            (
                TurnEvent::TurnActivated {
                    player: Some(Seat(1)),
                    entity: Some(EntityId(7)),
                },
                Derived::TurnActivated {
                    player: Some(Seat(1)),
                    entity: Some(EntityId(7)),
                },
            ),
            (TurnEvent::TurnTimerReset, Derived::TurnTimerReset),
            (
                TurnEvent::TurnBegan {
                    turn_index: 3,
                    player: None,
                    entity: None,
                },
                Derived::TurnBegan {
                    turn_index: 3,
                    player: None,
                    entity: None,
                },
            ),
            (
                TurnEvent::TurnEnded {
                    turn_index: 3,
                    player: Some(Seat(0)),
                    entity: None,
                    reason: TurnEndReason::Custom("resigned".into()),
                    ticks: 12,
                },
                Derived::TurnEnded {
                    turn_index: 3,
                    player: Some(Seat(0)),
                    entity: None,
                    reason: TurnEndReason::Custom("resigned".into()),
                    ticks: 12,
                },
            ),
            (
                TurnEvent::PlayCommandReceived {
                    seat: Seat(0),
                    data: [2, 1],
                },
                Derived::PlayCommandReceived {
                    seat: Seat(0),
                    data: [2, 1],
                },
            ),
            (
                TurnEvent::SkipCommandReceived {
                    seat: Seat(1),
                    data: Some(4),
                },
                Derived::SkipCommandReceived {
                    seat: Seat(1),
                    data: Some(4),
                },
            ),
            (
                TurnEvent::RoundStarted { round: 2 },
                Derived::RoundStarted { round: 2 },
            ),
            (
                TurnEvent::CommanderJoined {
                    commander: id(),
                    round: 2,
                },
                Derived::CommanderJoined {
                    commander: id(),
                    round: 2,
                },
            ),
            (
                TurnEvent::CommanderRemoved { commander: id() },
                Derived::CommanderRemoved { commander: id() },
            ),
            (
                TurnEvent::CommanderSkipped {
                    commander: id(),
                    reason: SkipReason::Stunned,
                },
                Derived::CommanderSkipped {
                    commander: id(),
                    reason: SkipReason::Stunned,
                },
            ),
            (
                TurnEvent::CommanderPriorityChanged {
                    commander: id(),
                    previous: 1,
                    current: -2,
                },
                Derived::CommanderPriorityChanged {
                    commander: id(),
                    previous: 1,
                    current: -2,
                },
            ),
            (
                TurnEvent::TurnOrderStalled { round: 5 },
                Derived::TurnOrderStalled { round: 5 },
            ),
            (
                TurnEvent::ClockResumed {
                    outage_start_tick: 10,
                    takeover_tick: 40,
                    shift_ticks: 30,
                },
                Derived::ClockResumed {
                    outage_start_tick: 10,
                    takeover_tick: 40,
                    shift_ticks: 30,
                },
            ),
        ];
        for (event, derived) in pairs {
            let ours = serde_json::to_value(&event).unwrap();
            assert_eq!(ours, serde_json::to_value(&derived).unwrap());
            let back: Event = serde_json::from_value(ours).unwrap();
            assert_eq!(back, event);
            // Keys come out sorted, the order canonical JSON needs.
            let text = serde_json::to_string(&event).unwrap();
            let keys: Vec<&str> = text
                .split('"')
                .skip(1)
                .step_by(2)
                .filter(|k| {
                    [
                        "current",
                        "previous",
                        "type",
                        "entity",
                        "player",
                        "turnIndex",
                        "reason",
                        "ticks",
                        "data",
                        "seat",
                        "round",
                        "commander",
                        "outageStartTick",
                        "shiftTicks",
                        "takeoverTick",
                    ]
                    .contains(k)
                })
                .collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            assert_eq!(keys, sorted, "{text}");
        }
    }

    fn reason() -> impl proptest::strategy::Strategy<Value = TurnEndReason> {
        use proptest::prelude::*;
        prop_oneof![
            Just(TurnEndReason::Time),
            Just(TurnEndReason::Skip),
            Just(TurnEndReason::Play),
            Just(TurnEndReason::Resolved),
            Just(TurnEndReason::Removed),
            "[a-z\"\\\n]{0,5}".prop_map(TurnEndReason::Custom),
        ]
    }

    fn event() -> impl proptest::strategy::Strategy<Value = Event> {
        use proptest::prelude::*;
        // Integers at both sides of 2^53, where the canonical rule quotes them.
        let big = prop_oneof![0u64..20, any::<u64>(), (1u64 << 53) - 2..(1u64 << 53) + 2];
        let player = proptest::option::of(any::<u16>().prop_map(Seat));
        let entity = proptest::option::of(big.clone().prop_map(EntityId));
        prop_oneof![
            (big.clone(), player.clone(), entity.clone()).prop_map(
                |(turn_index, player, entity)| TurnEvent::TurnBegan {
                    turn_index,
                    player,
                    entity,
                }
            ),
            (big, player.clone(), entity, reason(), any::<u32>()).prop_map(
                |(turn_index, player, entity, reason, ticks)| TurnEvent::TurnEnded {
                    turn_index,
                    player,
                    entity,
                    reason,
                    ticks,
                }
            ),
            any::<u64>().prop_map(|round| TurnEvent::RoundStarted { round }),
            Just(TurnEvent::TurnTimerReset),
            (player, any::<[u16; 2]>()).prop_map(|(seat, data)| TurnEvent::PlayCommandReceived {
                seat: seat.unwrap_or(Seat(0)),
                data,
            }),
        ]
    }

    proptest::proptest! {
        /// The events written by hand (a turn beginning, a turn ending) and the ones handed to
        /// `serde` are, byte for byte, the canonical form of the `Serialize` form.
        #[test]
        fn hand_written_events_are_the_serialized_ones(events in proptest::collection::vec(event(), 1..6)) {
            let mut writer = turnstile_core::determinism::canonical::CanonicalWriter::new();
            for event in &events {
                let by_serde =
                    turnstile_core::determinism::canonical::to_canonical_vec(event).unwrap();
                let by_hand = writer.write_with(|w| event.write_canonical(w)).unwrap();
                proptest::prop_assert_eq!(
                    String::from_utf8_lossy(by_hand),
                    String::from_utf8_lossy(&by_serde)
                );
            }
        }
    }
}
