//! Response windows: priority held apart from the turn, a stack of responses, and passing —
//! spec/phases.md, "Response windows and priority" — as a pure state machine with serde state.
//!
//! The turn owner keeps the turn; **priority** says which seat may act now. With no window
//! open the turn owner holds it. An action that opens a window goes on the stack and priority
//! passes to the next seat in turn order; the seat holding priority responds (an action tagged
//! [`RESPONSE_TAG`], pushed on the stack, priority passing on again) or passes. When every
//! seat has passed in a row, the top of the stack resolves; if entries remain, the window
//! reopens with priority back to the turn owner, otherwise it closes. A command from any other
//! seat than the holder is refused with `no_priority`.
//!
//! The window knows nothing of what the entries mean: it returns the resolved entry and the
//! game resolves it (on the effect executor). It never reads a clock and never chooses.

use serde::{Deserialize, Serialize};
use turnstile_core::{Rejection, Seat};

/// The tag an action must carry to be played as a response.
pub const RESPONSE_TAG: &str = "response";

/// The deepest the stack may grow.
pub const MAX_STACK_DEPTH: usize = 256;

/// One entry on the stack: who put it there, and the game's own description of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StackEntry<T> {
    /// The seat that acted.
    pub seat: Seat,
    /// The action, as the game records it.
    pub item: T,
}

/// A response window's state: the seats in turn order, the turn owner, who holds priority,
/// how many seats have passed in a row, and the stack (bottom first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PriorityWindow<T> {
    seats: Vec<Seat>,
    turn_owner: Seat,
    holder: Seat,
    passes_in_a_row: u32,
    stack: Vec<StackEntry<T>>,
}

/// What a pass led to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all_fields = "camelCase")]
pub enum PassOutcome<T> {
    /// Priority moved on; not every seat has passed yet.
    Passed {
        /// The seat that holds priority now.
        holder: Seat,
    },
    /// Every seat passed in a row: the top of the stack resolves. The game carries it out.
    Resolved {
        /// The entry to resolve.
        entry: StackEntry<T>,
        /// Whether the window stays open for the entries left.
        window: WindowAfter,
    },
}

/// The window after a resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all_fields = "camelCase")]
pub enum WindowAfter {
    /// Entries remain: the window reopens, priority to the turn owner.
    Reopened {
        /// The seat holding priority (the turn owner).
        holder: Seat,
    },
    /// The stack is empty: the window closes, the turn owner holds priority.
    Closed,
}

/// Why a priority command was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(
    tag = "code",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum PriorityError {
    /// The seat does not hold priority.
    #[error("seat {seat} does not hold priority; seat {holder} does")]
    NoPriority {
        /// The seat that tried.
        seat: Seat,
        /// The seat holding priority.
        holder: Seat,
    },
    /// A window is already open: respond or pass instead.
    #[error("a response window is open; respond or pass instead of opening another")]
    WindowOpen,
    /// No window is open: there is nothing to respond to or pass on.
    #[error("no response window is open")]
    WindowClosed,
    /// The action is not tagged for responses.
    #[error("only an action tagged `{RESPONSE_TAG}` can be played as a response")]
    NotAResponse,
    /// The stack is full.
    #[error("the stack holds at most {limit} entries")]
    StackFull {
        /// The limit.
        limit: u32,
    },
    /// A seat not among the window's seats.
    #[error("seat {seat} is not among the seats that take priority")]
    UnknownSeat {
        /// The seat.
        seat: Seat,
    },
    /// A seat listed twice.
    #[error("seat {seat} is listed twice in the turn order")]
    DuplicateSeat {
        /// The seat.
        seat: Seat,
    },
    /// No seats at all.
    #[error("a priority window needs at least one seat")]
    NoSeats,
}

impl PriorityError {
    /// The stable code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            PriorityError::NoPriority { .. } => "no_priority",
            PriorityError::WindowOpen => "window_open",
            PriorityError::WindowClosed => "window_closed",
            PriorityError::NotAResponse => "not_a_response",
            PriorityError::StackFull { .. } => "stack_full",
            PriorityError::UnknownSeat { .. } => "unknown_seat",
            PriorityError::DuplicateSeat { .. } => "duplicate_seat",
            PriorityError::NoSeats => "no_seats",
        }
    }
}

impl From<PriorityError> for Rejection {
    fn from(error: PriorityError) -> Rejection {
        Rejection::new(error.code(), error.to_string())
    }
}

impl<T> PriorityWindow<T> {
    /// A closed window over `seats` (in turn order) with `turn_owner` holding the turn and
    /// priority.
    pub fn new(seats: Vec<Seat>, turn_owner: Seat) -> Result<PriorityWindow<T>, PriorityError> {
        if seats.is_empty() {
            return Err(PriorityError::NoSeats);
        }
        for (i, seat) in seats.iter().enumerate() {
            if seats[..i].contains(seat) {
                return Err(PriorityError::DuplicateSeat { seat: *seat });
            }
        }
        if !seats.contains(&turn_owner) {
            return Err(PriorityError::UnknownSeat { seat: turn_owner });
        }
        Ok(PriorityWindow {
            seats,
            turn_owner,
            holder: turn_owner,
            passes_in_a_row: 0,
            stack: Vec::new(),
        })
    }

    /// The seats, in turn order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The seat whose turn it is.
    pub fn turn_owner(&self) -> Seat {
        self.turn_owner
    }

    /// The seat holding priority: the only one whose commands are accepted.
    pub fn holder(&self) -> Seat {
        self.holder
    }

    /// Whether a response window is open (the stack is not empty).
    pub fn is_open(&self) -> bool {
        !self.stack.is_empty()
    }

    /// The stack, bottom first; the last entry resolves first.
    pub fn stack(&self) -> &[StackEntry<T>] {
        &self.stack
    }

    /// How many seats have passed in a row since the last push or resolution.
    pub fn passes_in_a_row(&self) -> u32 {
        self.passes_in_a_row
    }

    /// Whether `seat` may command now: `no_priority` unless it holds priority.
    pub fn check(&self, seat: Seat) -> Result<(), PriorityError> {
        if seat == self.holder {
            Ok(())
        } else {
            Err(PriorityError::NoPriority {
                seat,
                holder: self.holder,
            })
        }
    }

    fn next_after(&self, seat: Seat) -> Result<Seat, PriorityError> {
        let at = self
            .seats
            .iter()
            .position(|s| *s == seat)
            .ok_or(PriorityError::UnknownSeat { seat })?;
        Ok(self.seats[(at + 1) % self.seats.len()])
    }

    fn push(&mut self, seat: Seat, item: T) -> Result<Seat, PriorityError> {
        if self.stack.len() >= MAX_STACK_DEPTH {
            return Err(PriorityError::StackFull {
                limit: MAX_STACK_DEPTH as u32,
            });
        }
        let next = self.next_after(seat)?;
        self.stack.push(StackEntry { seat, item });
        self.holder = next;
        self.passes_in_a_row = 0;
        Ok(next)
    }

    /// `seat` (holding priority, no window open) took an action that opens a window: it goes
    /// on the stack and priority passes to the next seat in turn order, which is returned.
    pub fn open(&mut self, seat: Seat, item: T) -> Result<Seat, PriorityError> {
        self.check(seat)?;
        if self.is_open() {
            return Err(PriorityError::WindowOpen);
        }
        self.push(seat, item)
    }

    /// `seat` (holding priority in an open window) responds with an action carrying `tags`,
    /// which must include [`RESPONSE_TAG`]: it goes on the stack and priority passes to the
    /// next seat in turn order, which is returned.
    pub fn respond(&mut self, seat: Seat, tags: &[&str], item: T) -> Result<Seat, PriorityError> {
        self.check(seat)?;
        if !self.is_open() {
            return Err(PriorityError::WindowClosed);
        }
        if !tags.contains(&RESPONSE_TAG) {
            return Err(PriorityError::NotAResponse);
        }
        self.push(seat, item)
    }

    /// `seat` (holding priority in an open window) passes. Once every seat has passed in a
    /// row, the top of the stack resolves: it is returned, and the window reopens (priority to
    /// the turn owner) or closes.
    pub fn pass(&mut self, seat: Seat) -> Result<PassOutcome<T>, PriorityError> {
        self.check(seat)?;
        if !self.is_open() {
            return Err(PriorityError::WindowClosed);
        }
        let next = self.next_after(seat)?;
        let passes = self.passes_in_a_row.saturating_add(1);
        if usize::try_from(passes).is_ok_and(|passes| passes < self.seats.len()) {
            self.passes_in_a_row = passes;
            self.holder = next;
            return Ok(PassOutcome::Passed { holder: next });
        }
        let Some(entry) = self.stack.pop() else {
            return Err(PriorityError::WindowClosed);
        };
        self.passes_in_a_row = 0;
        self.holder = self.turn_owner;
        let window = if self.stack.is_empty() {
            WindowAfter::Closed
        } else {
            WindowAfter::Reopened {
                holder: self.turn_owner,
            }
        };
        Ok(PassOutcome::Resolved { entry, window })
    }

    /// A new turn for `owner`, who takes priority. Refused while a window is open.
    pub fn begin_turn(&mut self, owner: Seat) -> Result<(), PriorityError> {
        if self.is_open() {
            return Err(PriorityError::WindowOpen);
        }
        if !self.seats.contains(&owner) {
            return Err(PriorityError::UnknownSeat { seat: owner });
        }
        self.turn_owner = owner;
        self.holder = owner;
        self.passes_in_a_row = 0;
        Ok(())
    }

    /// The activation ended with a window open (a Timeout, a game rule): the window closes,
    /// the turn owner holds priority, and the unresolved entries are returned, bottom first,
    /// for the game to dispose of.
    pub fn abandon(&mut self) -> Vec<StackEntry<T>> {
        self.holder = self.turn_owner;
        self.passes_in_a_row = 0;
        std::mem::take(&mut self.stack)
    }
}
