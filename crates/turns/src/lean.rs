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
}
