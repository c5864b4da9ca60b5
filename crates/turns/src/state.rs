//! The match's turn state: the turn clock (current turn, per-seat data, turn index, ticks) and the
//! commander turn order, serializable and comparable so the runtime can fingerprint it.
//!
//! Everything here is read-only or validation; every change goes through a
//! [`Turns`](crate::Turns) handle, so the lifecycle rules (turn index, signals, accumulation)
//! can't be bypassed.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smallvec::SmallVec;
use std::collections::{BTreeMap, BTreeSet};
use turnstile_core::{Seat, Tick};

use crate::command::TurnCommand;
use crate::config::{TurnConfig, TurnConfigs};
use crate::data::{TurnData, TurnStatus, TurnType};
use crate::error::TurnError;
use crate::event::{TurnEvent, TurnEventSink};
use crate::order::{RecomputeAt, TurnOrder};
use crate::turns::{TurnSignals, Turns};

/// Time and turn bookkeeping of a match.
///
/// Fields are declared in the order canonical JSON writes their keys (sorted), so that
/// fingerprinting, done for every receipt, never has to reorder them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct TurnClock {
    pub(crate) current: TurnData,
    pub(crate) in_progress: bool,
    pub(crate) last_tick: Tick,
    pub(crate) paused_ticks: u64,
    pub(crate) seats: SeatTable,
    pub(crate) timeouts_in_a_row: BTreeMap<Seat, u32>,
    pub(crate) turn_index: u64,
}

impl TurnClock {
    /// A clock at tick 0 with fresh data for each seat and no turn begun.
    pub fn new(seats: impl IntoIterator<Item = Seat>) -> Self {
        Self {
            seats: SeatTable::new(seats),
            ..Self::default()
        }
    }

    /// The global current turn.
    pub fn current(&self) -> &TurnData {
        &self.current
    }

    /// A seat's accumulated data.
    pub fn seat(&self, seat: Seat) -> Option<&TurnData> {
        self.seats.get(&seat)
    }

    /// Every seat's data, in seat order.
    pub fn seats(&self) -> impl Iterator<Item = (Seat, &TurnData)> {
        self.seats.iter().map(|(seat, data)| (*seat, data))
    }

    /// The match-wide turn index: 0 before the first turn, raised each time a turn begins.
    pub fn turn_index(&self) -> u64 {
        self.turn_index
    }

    /// Whether the turn with [`turn_index`](Self::turn_index) has begun and not ended (it may be
    /// `Active`, `Resolving`, or paused `Inactive`).
    pub fn turn_in_progress(&self) -> bool {
        self.in_progress
    }

    /// The tick the clock stands at: the last tick it was advanced to.
    pub fn last_tick(&self) -> Tick {
        self.last_tick
    }

    /// Total ticks that did not count because the match was not served (see `ClockResumed`).
    pub fn paused_ticks(&self) -> u64 {
        self.paused_ticks
    }

    /// How many of the seat's turns in a row ended with `Time` (reset by any other end).
    pub fn timeouts_in_a_row(&self, seat: Seat) -> u32 {
        self.timeouts_in_a_row.get(&seat).copied().unwrap_or(0)
    }

    /// The current turn's config, if it has one.
    pub fn current_config<'c>(
        &self,
        configs: &'c TurnConfigs,
    ) -> Result<Option<&'c TurnConfig>, TurnError> {
        configs.resolve_optional(self.current.config.as_ref())
    }

    /// Whether the current turn's timer runs: it is `Active` and its config uses a timer.
    pub fn timer_running(&self, configs: &TurnConfigs) -> Result<bool, TurnError> {
        Ok(self.timed_config(configs)?.is_some())
    }

    pub(crate) fn timed_config<'c>(
        &self,
        configs: &'c TurnConfigs,
    ) -> Result<Option<&'c TurnConfig>, TurnError> {
        if self.current.status != TurnStatus::Active {
            return Ok(None);
        }
        Ok(self.current_config(configs)?.filter(|c| c.uses_timer))
    }

    /// The tick at which the current turn ends with `Time`, if its timer runs.
    ///
    /// `last_tick + max(turn_duration_ticks − ticks, 1)`: a command stamped at this tick or later
    /// is judged after the turn has ended (the timer is checked first within a tick). The `max`
    /// mirrors the seed's per-frame update, which adds a tick before comparing.
    pub fn deadline_tick(&self, configs: &TurnConfigs) -> Result<Option<Tick>, TurnError> {
        Ok(self.timed_config(configs)?.map(|config| {
            let remaining = config
                .turn_duration_ticks
                .saturating_sub(self.current.ticks)
                .max(1);
            self.last_tick.saturating_add(u64::from(remaining))
        }))
    }

    /// Whether a `Timeout` naming `turn_index` may still apply: `stale_timeout` if that turn has
    /// already ended, `unknown_turn` if it has not begun. (Whether its deadline has passed is
    /// checked by [`Turns::timeout`](crate::Turns::timeout), which knows the timeout's tick.)
    pub fn check_timeout(&self, turn_index: u64) -> Result<(), TurnError> {
        if turn_index == 0 || turn_index > self.turn_index {
            return Err(TurnError::UnknownTurn {
                turn_index,
                current: self.turn_index,
            });
        }
        if turn_index < self.turn_index || !self.in_progress {
            return Err(TurnError::StaleTimeout { turn_index });
        }
        Ok(())
    }
}

/// Each seat's data, in seat order: a sorted list (a match has a handful of seats), written in
/// JSON as the map `{"0": {...}, "1": {...}}`. Cheaper to copy and drop than a `BTreeMap`, which
/// matters because the state is copied for every command judged on a copy; up to
/// [`INLINE_SEATS`] seats it lives inside the state, so that copy allocates nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SeatTable(SmallVec<[(Seat, TurnData); INLINE_SEATS]>);

/// Seats whose data a state holds without a heap allocation: the two of every two-seat game.
/// More seats work alike, their table on the heap.
const INLINE_SEATS: usize = 2;

impl SeatTable {
    fn new(seats: impl IntoIterator<Item = Seat>) -> Self {
        let mut table: SmallVec<[(Seat, TurnData); INLINE_SEATS]> = seats
            .into_iter()
            .map(|seat| (seat, TurnData::for_seat(seat)))
            .collect();
        // Seat order, each seat once (a seat named twice has the same fresh data twice).
        table.sort_by_key(|(seat, _)| *seat);
        table.dedup_by_key(|(seat, _)| *seat);
        Self(table)
    }

    fn position(&self, seat: Seat) -> Option<usize> {
        self.0.binary_search_by_key(&seat, |(s, _)| *s).ok()
    }

    pub(crate) fn get(&self, seat: &Seat) -> Option<&TurnData> {
        self.position(*seat).map(|i| &self.0[i].1)
    }

    pub(crate) fn get_mut(&mut self, seat: &Seat) -> Option<&mut TurnData> {
        self.position(*seat).map(|i| &mut self.0[i].1)
    }

    pub(crate) fn contains_key(&self, seat: &Seat) -> bool {
        self.position(*seat).is_some()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Seat, &TurnData)> {
        self.0.iter().map(|(seat, data)| (seat, data))
    }
}

impl Serialize for SeatTable {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for SeatTable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::<Seat, TurnData>::deserialize(deserializer)
            .map(|map| Self(map.into_iter().collect()))
    }
}

/// Everything the framework keeps for one match: the [`TurnClock`] and the [`TurnOrder`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct MatchTurns {
    pub(crate) clock: TurnClock,
    pub(crate) order: TurnOrder,
}

impl MatchTurns {
    /// A match with these seats (each with fresh data), no turn begun, an empty turn order that
    /// never recomputes priorities.
    pub fn new(seats: impl IntoIterator<Item = Seat>) -> Self {
        Self {
            clock: TurnClock::new(seats),
            order: TurnOrder::default(),
        }
    }

    /// The same match, with the turn order recomputing priorities at `recompute_at`.
    pub fn with_priority_recompute(mut self, recompute_at: RecomputeAt) -> Self {
        self.order.recompute_at = recompute_at;
        self
    }

    /// This state in its lean form, for fingerprints of receipt format 3: every field that
    /// differs from its default, nothing else (crate::lean explains why that is complete).
    pub fn lean(&self) -> crate::LeanTurns<'_> {
        crate::LeanTurns(self)
    }

    /// The clock.
    pub fn clock(&self) -> &TurnClock {
        &self.clock
    }

    /// The turn order.
    pub fn order(&self) -> &TurnOrder {
        &self.order
    }

    /// Whether any turn of this match can run a timer: the current turn, or a turn of a
    /// registered or pending commander, names a config with `usesTimer` (a config that does not
    /// resolve counts as timed, so the clock keeps running and the error surfaces where it is
    /// judged).
    ///
    /// A game whose every turn config is fixed when the match is made (the kit, Duel) advances
    /// the clock only when this holds: in an untimed match the tick decides nothing, so leaving
    /// it out of the state makes the state independent of *when* a command arrives — a
    /// previewed action and the same action committed later reach the same state fingerprint
    /// (docs/turns.md, "Previews and ticks").
    pub fn can_time_out(&self, configs: &TurnConfigs) -> bool {
        // No config: no timer; an unknown one counts as timed. Looked up with `get`, not
        // `resolve`: nothing here reports the error, so none is built.
        let timed = |id: Option<&crate::TurnConfigId>| {
            id.is_some_and(|id| configs.get(id).is_none_or(|c| c.uses_timer))
        };
        let current = self.clock.current.config.as_ref();
        if timed(current) {
            return true;
        }
        // Asked before every command of a kit match, whose commanders take their turns under
        // the current turn's config: a config that is the current one (the same shared text,
        // or none like it) was just answered, so only the others are looked up.
        let same_as_current = |id: Option<&crate::TurnConfigId>| match (id, current) {
            (Some(id), Some(current)) => id.shares_text(current),
            (None, None) => true,
            _ => false,
        };
        let other_timed = |list: &[crate::Registration]| {
            list.iter().any(|r| {
                let config = r.commander.config.as_ref();
                !same_as_current(config) && timed(config)
            })
        };
        other_timed(&self.order.registered) || other_timed(&self.order.pending)
    }

    /// A handle to change the state, resolving configs in `configs` (the pinned content). `P` and
    /// `S` are the game's `Play` and `Skip` data.
    pub fn turns<'a, P, S>(&'a mut self, configs: &'a TurnConfigs) -> Turns<'a, P, S> {
        Turns::new(self, configs)
    }

    /// A handle like [`turns`](Self::turns) that records its events into `sink` instead of a
    /// list of its own (see [`TurnEventSink`]); [`Turns::into_sink`] gives it back.
    pub fn turns_into<'a, P, S, K: TurnEventSink<P, S>>(
        &'a mut self,
        configs: &'a TurnConfigs,
        sink: K,
    ) -> Turns<'a, P, S, K> {
        Turns::with_sink(self, configs, sink)
    }

    /// Shorthand: advances the clock to `tick` (see [`Turns::advance_to`]) and returns the events.
    pub fn advance_to<P, S, G>(
        &mut self,
        tick: Tick,
        configs: &TurnConfigs,
        signals: &mut G,
    ) -> Result<Vec<TurnEvent<P, S>>, TurnError>
    where
        P: Clone,
        S: Clone,
        G: TurnSignals<P, S> + ?Sized,
    {
        let mut turns = self.turns(configs);
        turns.advance_to(signals, tick)?;
        Ok(turns.into_events())
    }

    /// Whether `seat` may send `command` now, without applying it: the check the legality resolver
    /// and [`Turns::command`] share. Checks, in order: `turn_not_active` (the turn is `Inactive`),
    /// `not_your_turn`, `resolving`, then `not_play_turn` for a `Play` or `not_skippable` for a
    /// `Skip`.
    pub fn check_command<P, S>(
        &self,
        configs: &TurnConfigs,
        seat: Seat,
        command: &TurnCommand<P, S>,
    ) -> Result<(), TurnError> {
        match command {
            TurnCommand::Play(_) => self.check_play(seat),
            TurnCommand::Skip(_) => self.check_skip(configs, seat),
        }
    }

    /// Whether `seat` may `Play` now.
    pub fn check_play(&self, seat: Seat) -> Result<(), TurnError> {
        self.check_owner(seat)?;
        if self.clock.current.turn_type != TurnType::Play {
            return Err(TurnError::NotPlayTurn);
        }
        Ok(())
    }

    /// Whether `seat` may `Skip` now.
    pub fn check_skip(&self, configs: &TurnConfigs, seat: Seat) -> Result<(), TurnError> {
        self.check_owner(seat)?;
        match self.clock.current_config(configs)? {
            Some(config) if config.is_skippable => Ok(()),
            _ => Err(TurnError::NotSkippable),
        }
    }

    fn check_owner(&self, seat: Seat) -> Result<(), TurnError> {
        let current = &self.clock.current;
        if current.status == TurnStatus::Inactive {
            return Err(TurnError::TurnNotActive);
        }
        if current.player != Some(seat) {
            return Err(TurnError::NotYourTurn { seat });
        }
        if current.status == TurnStatus::Resolving {
            return Err(TurnError::Resolving);
        }
        Ok(())
    }

    /// Checks a state against the pinned content and the framework's invariants — run it on a
    /// state loaded from storage, before anything executes. Every config id must resolve; an
    /// `Active` or `Resolving` turn must be in progress; seats must be known; commander ids unique;
    /// the round and the acting commander must name registered commanders.
    pub fn verify(&self, configs: &TurnConfigs) -> Result<(), TurnError> {
        let clock = &self.clock;
        let inconsistent = |detail: &str| TurnError::InconsistentState {
            detail: detail.to_owned(),
        };
        configs.resolve_optional(clock.current.config.as_ref())?;
        for (seat, data) in clock.seats.iter() {
            configs.resolve_optional(data.config.as_ref())?;
            if data.player != Some(*seat) {
                return Err(inconsistent("a seat's data names another player"));
            }
        }
        if let Some(seat) = clock.current.player {
            if !clock.seats.contains_key(&seat) {
                return Err(TurnError::UnknownSeat { seat });
            }
        }
        if clock.current.status != TurnStatus::Inactive && !clock.in_progress {
            return Err(inconsistent(
                "the current turn is active but not in progress",
            ));
        }
        if clock.in_progress && clock.turn_index == 0 {
            return Err(inconsistent("a turn is in progress at turn index 0"));
        }
        let order = &self.order;
        let mut ids = BTreeSet::new();
        let mut registrations = BTreeSet::new();
        for registration in order.registered.iter().chain(order.pending.iter()) {
            let commander = &registration.commander;
            if !ids.insert(&commander.id) {
                return Err(TurnError::DuplicateCommander {
                    id: commander.id.clone(),
                });
            }
            if !registrations.insert(registration.registration)
                || registration.registration >= order.next_registration
            {
                return Err(inconsistent("registration numbers are not unique"));
            }
            configs.resolve_optional(commander.config.as_ref())?;
            if let Some(seat) = commander.seat {
                if !clock.seats.contains_key(&seat) {
                    return Err(TurnError::UnknownSeat { seat });
                }
            }
        }
        let mut remaining = BTreeSet::new();
        for id in &order.remaining {
            if order.find_registered(id).is_none() || !remaining.insert(id) {
                return Err(inconsistent("the round names an unregistered commander"));
            }
        }
        if let Some(acting) = &order.acting {
            if order.find_registered(acting).is_none() || !clock.in_progress {
                return Err(inconsistent(
                    "the acting commander is not registered or not in a turn",
                ));
            }
        }
        Ok(())
    }
}
