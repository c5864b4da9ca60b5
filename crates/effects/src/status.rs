//! Statuses with stacks and durations (stun, poison, shield), kept in one sorted board that a
//! game holds in its state. The default `ApplyStatus` and `RemoveStatus` operations use it,
//! and `tick` makes statuses expire: one call per bearer at the moment the game ticks statuses
//! (the end of the bearer's turn, say).

use serde::{Deserialize, Serialize};

use crate::host::{Change, Target};

/// One status on one bearer.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusEntry {
    /// Who bears it.
    pub bearer: Target,
    /// Which status.
    pub status: String,
    /// How many stacks, at least 1.
    pub stacks: i64,
    /// How many more ticks it lasts; `None`: until removed.
    pub remaining_turns: Option<u32>,
}

/// Every status in play, sorted by bearer and then status name (so iteration, and the
/// state's canonical form, never depend on the order things happened in).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StatusBoard {
    entries: Vec<StatusEntry>,
}

impl StatusBoard {
    /// An empty board.
    pub fn new() -> StatusBoard {
        StatusBoard::default()
    }

    fn find(&self, bearer: Target, status: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|e| {
            e.bearer
                .cmp(&bearer)
                .then_with(|| e.status.as_str().cmp(status))
        })
    }

    /// The stacks of `status` on `bearer` (0 when it has none).
    pub fn stacks(&self, bearer: Target, status: &str) -> i64 {
        self.find(bearer, status)
            .ok()
            .and_then(|i| self.entries.get(i))
            .map_or(0, |e| e.stacks)
    }

    /// The entry of `status` on `bearer`, if any.
    pub fn get(&self, bearer: Target, status: &str) -> Option<&StatusEntry> {
        self.find(bearer, status)
            .ok()
            .and_then(|i| self.entries.get(i))
    }

    /// Adds `stacks` of `status` to `bearer` (saturating). Its remaining duration becomes
    /// the longer of the one it had and `duration_turns` (`None`, until removed, is the
    /// longest). Adding 0 or fewer stacks changes nothing. The change is in stacks.
    pub fn apply(
        &mut self,
        bearer: Target,
        status: &str,
        stacks: i64,
        duration_turns: Option<u32>,
    ) -> Change {
        match self.find(bearer, status) {
            Ok(i) => {
                let Some(entry) = self.entries.get_mut(i) else {
                    return Change::int(0, 0);
                };
                let before = entry.stacks;
                if stacks > 0 {
                    entry.stacks = entry.stacks.saturating_add(stacks);
                    entry.remaining_turns = match (entry.remaining_turns, duration_turns) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
                Change::int(before, entry.stacks)
            }
            Err(i) => {
                if stacks <= 0 || duration_turns == Some(0) {
                    return Change::int(0, 0);
                }
                self.entries.insert(
                    i,
                    StatusEntry {
                        bearer,
                        status: status.to_owned(),
                        stacks,
                        remaining_turns: duration_turns,
                    },
                );
                Change::int(0, stacks)
            }
        }
    }

    /// Takes `stacks` of `status` off `bearer` (all when `None`); the status goes when none
    /// are left. The change is in stacks.
    pub fn remove(&mut self, bearer: Target, status: &str, stacks: Option<i64>) -> Change {
        let Ok(i) = self.find(bearer, status) else {
            return Change::int(0, 0);
        };
        let Some(entry) = self.entries.get_mut(i) else {
            return Change::int(0, 0);
        };
        let before = entry.stacks;
        let after = match stacks {
            None => 0,
            Some(n) => before.saturating_sub(n.max(0)).max(0),
        };
        if after == 0 {
            self.entries.remove(i);
        } else {
            entry.stacks = after;
        }
        Change::int(before, after)
    }

    /// One tick for `bearer`: every status it bears with a duration loses one turn, and those
    /// at zero are removed. Returns the names of the removed ones, in name order.
    pub fn tick(&mut self, bearer: Target) -> Vec<String> {
        let mut expired = Vec::new();
        self.entries.retain_mut(|e| {
            if e.bearer != bearer {
                return true;
            }
            match e.remaining_turns {
                Some(n) if n <= 1 => {
                    expired.push(e.status.clone());
                    false
                }
                Some(n) => {
                    e.remaining_turns = Some(n - 1);
                    true
                }
                None => true,
            }
        });
        expired
    }

    /// The statuses `bearer` bears, in name order.
    pub fn on(&self, bearer: Target) -> impl Iterator<Item = &StatusEntry> {
        self.entries.iter().filter(move |e| e.bearer == bearer)
    }

    /// Every status in play, by bearer then name.
    pub fn entries(&self) -> &[StatusEntry] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnstile_core::Seat;

    fn seat(n: u16) -> Target {
        Target::Seat(Seat(n))
    }

    #[test]
    fn entries_stay_sorted_by_bearer_then_name() {
        let mut board = StatusBoard::new();
        board.apply(seat(1), "stun", 1, Some(1));
        board.apply(seat(0), "poison", 2, None);
        board.apply(seat(1), "poison", 1, Some(2));
        let order: Vec<(Target, &str)> = board
            .entries()
            .iter()
            .map(|e| (e.bearer, e.status.as_str()))
            .collect();
        assert_eq!(
            order,
            [(seat(0), "poison"), (seat(1), "poison"), (seat(1), "stun")]
        );
    }

    #[test]
    fn ticks_expire_only_the_bearers_timed_statuses() {
        let mut board = StatusBoard::new();
        board.apply(seat(1), "stun", 1, Some(1));
        board.apply(seat(1), "poison", 1, Some(2));
        board.apply(seat(1), "shield", 1, None);
        board.apply(seat(0), "stun", 1, Some(1));
        assert_eq!(board.tick(seat(1)), ["stun"]);
        assert_eq!(board.tick(seat(1)), ["poison"]);
        assert_eq!(board.tick(seat(1)), Vec::<String>::new());
        assert_eq!(board.stacks(seat(1), "shield"), 1);
        assert_eq!(board.stacks(seat(0), "stun"), 1);
    }

    #[test]
    fn nothing_is_added_or_removed_below_zero() {
        let mut board = StatusBoard::new();
        assert_eq!(board.apply(seat(0), "poison", 0, None), Change::int(0, 0));
        assert_eq!(
            board.apply(seat(0), "poison", 3, Some(0)),
            Change::int(0, 0)
        );
        assert!(board.entries().is_empty());
        board.apply(seat(0), "poison", 3, None);
        assert_eq!(board.remove(seat(0), "poison", Some(-5)), Change::int(3, 3));
        assert_eq!(board.remove(seat(0), "poison", Some(10)), Change::int(3, 0));
        assert!(board.entries().is_empty());
        board.apply(seat(0), "poison", i64::MAX, None);
        assert_eq!(
            board.apply(seat(0), "poison", 5, None),
            Change::int(i64::MAX, i64::MAX)
        );
    }
}
