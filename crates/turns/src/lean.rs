//! The lean form of [`MatchTurns`]: what format-3 state fingerprints hash.
//!
//! The framework's state is mostly defaults — no entity, no pause, no pending joiner, a zero
//! here and an empty list there — and its serde form writes every one of them, so that a
//! snapshot reads back whole. A fingerprint needs none of that: it must only tell apart any two
//! states the rules could ever tell apart. The lean form writes each field *only when it
//! differs from its type's default*, keys in canonical (sorted) order, and nothing else.
//!
//! Why that is complete: every struct here has a fixed set of fields, and a field is either
//! written with its value or absent, which means exactly "equal to the default". Two states
//! that differ in some field therefore differ in the written form. (This is field by field, so
//! `Some(0)` is written as `0` and only `None` is left out — an `Option` never collides.)
//!
//! The lean form is never read back; snapshots keep the full serde form. Must never be used
//! by a receipt of format 1 or 2 (their fingerprints hash the full form, and old replays must
//! re-execute bit for bit).

use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use turnstile_core::determinism::canonical::CanonicalWriter;
use turnstile_core::determinism::CanonicalError;

use crate::data::TurnData;
use crate::order::{Commander, Registration, TurnOrder};
use crate::state::{MatchTurns, TurnClock};

/// [`MatchTurns`] in its lean form ([`MatchTurns::lean`]).
#[derive(Debug, Clone, Copy)]
pub struct LeanTurns<'a>(pub(crate) &'a MatchTurns);

/// Whether `value` is its type's default (what the lean form leaves out).
fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// Writes `$value` under `$key` unless it equals its type's default.
macro_rules! field_unless_default {
    ($object:ident, $key:literal, $value:expr) => {
        if !is_default($value) {
            $object.serialize_field($key, $value)?;
        }
    };
}

impl Serialize for LeanTurns<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("MatchTurns", 2)?;
        object.serialize_field("clock", &LeanClock(&self.0.clock))?;
        object.serialize_field("order", &LeanOrder(&self.0.order))?;
        object.end()
    }
}

struct LeanClock<'a>(&'a TurnClock);

impl Serialize for LeanClock<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let mut object = serializer.serialize_struct("TurnClock", 7)?;
        object.serialize_field("current", &LeanData(&c.current))?;
        field_unless_default!(object, "inProgress", &c.in_progress);
        field_unless_default!(object, "lastTick", &c.last_tick);
        field_unless_default!(object, "pausedTicks", &c.paused_ticks);
        // Every seat is written (its data may be all defaults): the set of seats is state too.
        object.serialize_field("seats", &LeanSeats(c))?;
        field_unless_default!(object, "timeoutsInARow", &c.timeouts_in_a_row);
        field_unless_default!(object, "turnIndex", &c.turn_index);
        object.end()
    }
}

struct LeanSeats<'a>(&'a TurnClock);

impl Serialize for LeanSeats<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (seat, data) in self.0.seats.iter() {
            map.serialize_entry(seat, &LeanData(data))?;
        }
        map.end()
    }
}

struct LeanData<'a>(&'a TurnData);

impl Serialize for LeanData<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let mut object = serializer.serialize_struct("TurnData", 7)?;
        field_unless_default!(object, "config", &d.config);
        field_unless_default!(object, "entity", &d.entity);
        field_unless_default!(object, "number", &d.number);
        field_unless_default!(object, "player", &d.player);
        field_unless_default!(object, "status", &d.status);
        field_unless_default!(object, "ticks", &d.ticks);
        field_unless_default!(object, "type", &d.turn_type);
        object.end()
    }
}

struct LeanOrder<'a>(&'a TurnOrder);

impl Serialize for LeanOrder<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let mut object = serializer.serialize_struct("TurnOrder", 8)?;
        field_unless_default!(object, "acting", &o.acting);
        field_unless_default!(object, "nextRegistration", &o.next_registration);
        if !o.pending.is_empty() {
            object.serialize_field("pending", &LeanRegistrations(&o.pending))?;
        }
        field_unless_default!(object, "recomputeAt", &o.recompute_at);
        if !o.registered.is_empty() {
            object.serialize_field("registered", &LeanRegistrations(&o.registered))?;
        }
        field_unless_default!(object, "remaining", &o.remaining);
        field_unless_default!(object, "round", &o.round);
        field_unless_default!(object, "running", &o.running);
        object.end()
    }
}

struct LeanRegistrations<'a>(&'a [Registration]);

impl Serialize for LeanRegistrations<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut list = serializer.serialize_seq(Some(self.0.len()))?;
        for registration in self.0 {
            list.serialize_element(&LeanRegistration(registration))?;
        }
        list.end()
    }
}

struct LeanRegistration<'a>(&'a Registration);

impl Serialize for LeanRegistration<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut object = serializer.serialize_struct("Registration", 2)?;
        object.serialize_field("commander", &LeanCommander(&r.commander))?;
        field_unless_default!(object, "registration", &r.registration);
        object.end()
    }
}

struct LeanCommander<'a>(&'a Commander);

impl Serialize for LeanCommander<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let mut object = serializer.serialize_struct("Commander", 5)?;
        field_unless_default!(object, "config", &c.config);
        field_unless_default!(object, "entity", &c.entity);
        // The id is always written: it is what the commander is.
        object.serialize_field("id", &c.id)?;
        field_unless_default!(object, "priority", &c.priority);
        field_unless_default!(object, "seat", &c.seat);
        object.end()
    }
}

/// The lean form written by hand: the same bytes as the canonical form of its `Serialize`
/// above (a property test holds them together, `hand_written_form_is_the_serialized_one`),
/// with the keys as literals in canonical order — no ordering bookkeeping, no escaping scan
/// — for the state fingerprint of every format-3 receipt. Values other than integers and
/// booleans (ids, statuses) still go through `serde`, one call each.
impl LeanTurns<'_> {
    /// Appends the canonical bytes of this lean form to `writer`.
    pub fn write_canonical(&self, writer: &mut CanonicalWriter) -> Result<(), CanonicalError> {
        writer.raw(b"{\"clock\":");
        write_clock(&self.0.clock, writer)?;
        writer.raw(b",\"order\":");
        write_order(&self.0.order, writer)?;
        writer.raw(b"}");
        Ok(())
    }
}

/// One field of an object written by hand: its literal key (with the comma before it unless
/// it is the object's first) and then its value.
struct HandObject<'w> {
    writer: &'w mut CanonicalWriter,
    first: bool,
}

impl<'w> HandObject<'w> {
    fn open(writer: &'w mut CanonicalWriter) -> Self {
        writer.raw(b"{");
        HandObject {
            writer,
            first: true,
        }
    }

    /// Writes `,"key":` (or `"key":` first); `key` is the quoted key and colon.
    fn key(&mut self, key: &'static [u8]) -> &mut CanonicalWriter {
        if !self.first {
            self.writer.raw(b",");
        }
        self.first = false;
        self.writer.raw(key);
        self.writer
    }

    fn value_unless_default<T: Serialize + Default + PartialEq>(
        &mut self,
        key: &'static [u8],
        value: &T,
    ) -> Result<(), CanonicalError> {
        if !is_default(value) {
            self.key(key).value(value)?;
        }
        Ok(())
    }

    fn uint_unless_default(&mut self, key: &'static [u8], value: u64) {
        if value != 0 {
            self.key(key).uint(value);
        }
    }

    fn close(self) {
        self.writer.raw(b"}");
    }
}

fn write_clock(c: &TurnClock, writer: &mut CanonicalWriter) -> Result<(), CanonicalError> {
    let mut object = HandObject::open(writer);
    write_data(&c.current, object.key(b"\"current\":"))?;
    if c.in_progress {
        object.key(b"\"inProgress\":").raw(b"true");
    }
    object.uint_unless_default(b"\"lastTick\":", c.last_tick);
    object.uint_unless_default(b"\"pausedTicks\":", c.paused_ticks);
    write_seats(c, object.key(b"\"seats\":"))?;
    object.value_unless_default(b"\"timeoutsInARow\":", &c.timeouts_in_a_row)?;
    object.uint_unless_default(b"\"turnIndex\":", c.turn_index);
    object.close();
    Ok(())
}

/// The seats by number: in canonical (string) order exactly when every seat is below 10 and
/// the table lists them in increasing order, as it does; otherwise the serde form, which sorts.
fn write_seats(c: &TurnClock, writer: &mut CanonicalWriter) -> Result<(), CanonicalError> {
    let mut last = None;
    let in_order = c.seats.iter().all(|(seat, _)| {
        let ok = seat.0 < 10 && last.is_none_or(|l| l < seat.0);
        last = Some(seat.0);
        ok
    });
    if !in_order {
        return writer.value(&LeanSeats(c));
    }
    writer.raw(b"{");
    for (i, (seat, data)) in c.seats.iter().enumerate() {
        if i > 0 {
            writer.raw(b",");
        }
        writer.raw(b"\"");
        writer.uint(u64::from(seat.0));
        writer.raw(b"\":");
        write_data(data, writer)?;
    }
    writer.raw(b"}");
    Ok(())
}

fn write_data(d: &TurnData, writer: &mut CanonicalWriter) -> Result<(), CanonicalError> {
    let mut object = HandObject::open(writer);
    object.value_unless_default(b"\"config\":", &d.config)?;
    object.value_unless_default(b"\"entity\":", &d.entity)?;
    object.uint_unless_default(b"\"number\":", u64::from(d.number));
    object.value_unless_default(b"\"player\":", &d.player)?;
    object.value_unless_default(b"\"status\":", &d.status)?;
    object.uint_unless_default(b"\"ticks\":", u64::from(d.ticks));
    object.value_unless_default(b"\"type\":", &d.turn_type)?;
    object.close();
    Ok(())
}

fn write_order(o: &TurnOrder, writer: &mut CanonicalWriter) -> Result<(), CanonicalError> {
    let mut object = HandObject::open(writer);
    object.value_unless_default(b"\"acting\":", &o.acting)?;
    object.uint_unless_default(b"\"nextRegistration\":", o.next_registration);
    if !o.pending.is_empty() {
        write_registrations(&o.pending, object.key(b"\"pending\":"))?;
    }
    object.value_unless_default(b"\"recomputeAt\":", &o.recompute_at)?;
    if !o.registered.is_empty() {
        write_registrations(&o.registered, object.key(b"\"registered\":"))?;
    }
    object.value_unless_default(b"\"remaining\":", &o.remaining)?;
    object.uint_unless_default(b"\"round\":", o.round);
    if o.running {
        object.key(b"\"running\":").raw(b"true");
    }
    object.close();
    Ok(())
}

fn write_registrations(
    list: &[Registration],
    writer: &mut CanonicalWriter,
) -> Result<(), CanonicalError> {
    writer.raw(b"[");
    for (i, r) in list.iter().enumerate() {
        if i > 0 {
            writer.raw(b",");
        }
        let mut object = HandObject::open(writer);
        write_commander(&r.commander, object.key(b"\"commander\":"))?;
        object.uint_unless_default(b"\"registration\":", r.registration);
        object.close();
    }
    writer.raw(b"]");
    Ok(())
}

fn write_commander(c: &Commander, writer: &mut CanonicalWriter) -> Result<(), CanonicalError> {
    let mut object = HandObject::open(writer);
    object.value_unless_default(b"\"config\":", &c.config)?;
    object.value_unless_default(b"\"entity\":", &c.entity)?;
    object.key(b"\"id\":").value(&c.id)?;
    if c.priority != 0 {
        object.key(b"\"priority\":").int(i64::from(c.priority));
    }
    object.value_unless_default(b"\"seat\":", &c.seat)?;
    object.close();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{CommanderId, TurnConfigId};
    use crate::TurnStatus;
    use turnstile_core::Seat;

    fn lean(turns: &MatchTurns) -> String {
        serde_json::to_string(&turns.lean()).unwrap()
    }

    #[test]
    fn a_fresh_match_leaves_out_every_default() {
        let turns = MatchTurns::new([Seat(0), Seat(1)]);
        assert_eq!(
            lean(&turns),
            r#"{"clock":{"current":{},"seats":{"0":{"player":0},"1":{"player":1}}},"order":{}}"#
        );
    }

    #[test]
    fn a_field_at_a_value_other_than_its_default_is_written() {
        // Each change below is one the rules can read; each must change the lean form, and
        // `Some(0)` must differ from `None`.
        let base = MatchTurns::new([Seat(0), Seat(1)]);
        let mut changes: Vec<MatchTurns> = Vec::new();
        let mut t = base.clone();
        t.clock.in_progress = true;
        changes.push(t);
        let mut t = base.clone();
        t.clock.last_tick = 1;
        changes.push(t);
        let mut t = base.clone();
        t.clock.paused_ticks = 1;
        changes.push(t);
        let mut t = base.clone();
        t.clock.timeouts_in_a_row.insert(Seat(0), 0);
        changes.push(t);
        let mut t = base.clone();
        t.clock.turn_index = 1;
        changes.push(t);
        let mut t = base.clone();
        t.clock.current.player = Some(Seat(0));
        changes.push(t);
        let mut t = base.clone();
        t.clock.current.status = TurnStatus::Active;
        changes.push(t);
        let mut t = base.clone();
        t.clock.current.config = Some(TurnConfigId::new("blitz"));
        changes.push(t);
        let mut t = base.clone();
        t.clock.current.ticks = 3;
        changes.push(t);
        let mut t = base.clone();
        t.clock.seats.get_mut(&Seat(1)).unwrap().number = 1;
        changes.push(t);
        let mut t = base.clone();
        t.order.acting = Some(CommanderId::new("seat-0"));
        changes.push(t);
        let mut t = base.clone();
        t.order.round = 1;
        changes.push(t);
        let mut t = base.clone();
        t.order.running = true;
        changes.push(t);
        let mut t = base.clone();
        t.order.remaining.push(CommanderId::new("seat-1"));
        changes.push(t);
        let mut forms: Vec<String> = changes.iter().map(lean).collect();
        forms.push(lean(&base));
        let count = forms.len();
        forms.sort();
        forms.dedup();
        assert_eq!(forms.len(), count, "two different states share a lean form");
    }

    /// Random turn data: every field at its default or not, ids and custom types with
    /// characters that need escaping.
    fn data() -> impl proptest::strategy::Strategy<Value = TurnData> {
        use crate::{TurnStatus, TurnType};
        use proptest::prelude::*;
        (
            proptest::option::of("[a-z\"\\\n]{0,6}"),
            proptest::option::of(any::<u64>()),
            any::<u32>(),
            proptest::option::of(0u16..12),
            0u8..3,
            prop_oneof![Just(0u32), any::<u32>()],
            prop_oneof![
                Just(TurnType::Play),
                Just(TurnType::Countdown),
                "[a-z\"]{0,4}".prop_map(TurnType::Custom)
            ],
        )
            .prop_map(
                |(config, entity, number, player, status, ticks, turn_type)| TurnData {
                    config: config.map(TurnConfigId::new),
                    entity: entity.map(crate::EntityId),
                    number,
                    player: player.map(Seat),
                    status: [
                        TurnStatus::Inactive,
                        TurnStatus::Active,
                        TurnStatus::Resolving,
                    ][usize::from(status)],
                    ticks,
                    turn_type,
                },
            )
    }

    fn registration() -> impl proptest::strategy::Strategy<Value = Registration> {
        use proptest::prelude::*;
        (
            proptest::option::of("[a-z]{0,4}"),
            proptest::option::of(any::<u64>()),
            "[a-z0-9\"-]{0,8}",
            prop_oneof![Just(0i32), any::<i32>()],
            proptest::option::of(0u16..12),
            prop_oneof![Just(0u64), any::<u64>()],
        )
            .prop_map(|(config, entity, id, priority, seat, registration)| {
                let mut commander = Commander::new(id, seat.map(Seat), priority);
                commander.config = config.map(TurnConfigId::new);
                commander.entity = entity.map(crate::EntityId);
                Registration {
                    commander,
                    registration,
                }
            })
    }

    proptest::proptest! {
        /// The lean form written by hand is, byte for byte, the canonical form of its
        /// `Serialize` (which sorts whatever it is given): over random turn states with every
        /// field at its default or not, up to twelve seats (seat 10 and on sort as text, so
        /// the hand-written path hands those to `serde`), and ids that need escaping.
        #[test]
        fn hand_written_form_is_the_serialized_one(
            seats in 0u16..12,
            current in data(),
            seat_data in proptest::collection::vec(data(), 12),
            in_progress in proptest::prelude::any::<bool>(),
            last_tick in proptest::prelude::prop_oneof![proptest::strategy::Just(0u64), proptest::prelude::any::<u64>()],
            paused_ticks in proptest::prelude::prop_oneof![proptest::strategy::Just(0u64), 0u64..100],
            timeouts in proptest::collection::btree_map(0u16..12, 0u32..3, 0..3),
            turn_index in proptest::prelude::prop_oneof![proptest::strategy::Just(0u64), proptest::prelude::any::<u64>()],
            acting in proptest::option::of("[a-z\"]{0,4}"),
            next_registration in 0u64..4,
            pending in proptest::collection::vec(registration(), 0..3),
            registered in proptest::collection::vec(registration(), 0..4),
            remaining in proptest::collection::vec("[a-z]{0,3}", 0..3),
            round in 0u64..3,
            running in proptest::prelude::any::<bool>(),
        ) {
            let mut turns = MatchTurns::new((0..seats).map(Seat));
            turns.clock.current = current;
            for (seat, data) in (0..seats).zip(seat_data) {
                if let Some(slot) = turns.clock.seats.get_mut(&Seat(seat)) {
                    *slot = data;
                }
            }
            turns.clock.in_progress = in_progress;
            turns.clock.last_tick = last_tick;
            turns.clock.paused_ticks = paused_ticks;
            turns.clock.timeouts_in_a_row = timeouts.into_iter().map(|(s, n)| (Seat(s), n)).collect();
            turns.clock.turn_index = turn_index;
            turns.order.acting = acting.map(CommanderId::new);
            turns.order.next_registration = next_registration;
            turns.order.pending = pending;
            turns.order.registered = std::sync::Arc::new(registered);
            turns.order.remaining = remaining.into_iter().map(CommanderId::new).collect();
            turns.order.round = round;
            turns.order.running = running;

            let by_serde =
                turnstile_core::determinism::canonical::to_canonical_vec(&turns.lean()).unwrap();
            let mut writer = CanonicalWriter::new();
            let by_hand = writer.write_with(|w| turns.lean().write_canonical(w)).unwrap();
            proptest::prop_assert_eq!(
                String::from_utf8_lossy(by_hand),
                String::from_utf8_lossy(&by_serde)
            );
        }
    }
}
