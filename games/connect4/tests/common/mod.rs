//! Fixtures shared by the Connect Four tests: the bundled content, matches under a named turn
//! config, and moves by column.
#![allow(dead_code)]

use std::sync::Arc;

use turnstile_connect4::{bundled, ConnectFour, StrongBot};
use turnstile_core::{CommandRefusal, ContentBundle, Seat, Tick};
use turnstile_mnk::{Action, KitState, MatchConfig, Rules};
use turnstile_runtime::testing::{Driver, GameReceipt};

/// The kit's action of Connect Four, as the tests write commands.
pub type Command = Action<turnstile_mnk::Mnk<turnstile_connect4::ConnectFourRules>>;

pub fn bundle() -> Arc<ContentBundle<Rules>> {
    Arc::new(bundled().expect("the bundled content loads"))
}

/// A match under the content's turn config `config` (`untimed`, `timed`, `blitz`), whose
/// driver submits the pending `Timeout` on `time_out`.
pub fn driver(config: &str) -> Driver<ConnectFour> {
    driver_seeded(config, "tests")
}

/// [`driver`] with its own match seed.
pub fn driver_seeded(config: &str, seed: &str) -> Driver<ConnectFour> {
    Driver::new(bundle(), MatchConfig::with_turn_config(config), seed)
        .unwrap()
        .with_timeouts(KitState::pending_timeout)
}

/// A full board without four in a row, as drop columns from the first move: every row is
/// `0011001` or `1100110`, alternating up the board.
pub const DRAW: [u16; 42] = [
    4, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5, 0, 0,
    0, 0, 0, 6, 6, 6, 6, 6, 6, 0,
];

/// Moves by column on a Connect Four driver.
pub trait Moves {
    /// `seat` drops a disc into `column` at `tick`, with a fresh command id.
    fn play(
        &mut self,
        seat: u16,
        tick: Tick,
        column: u16,
    ) -> Result<GameReceipt<ConnectFour>, CommandRefusal>;
    /// Drops into `columns` in turn from the seat to move, each at the turn clock's tick; the
    /// error names the first move refused.
    fn play_all(&mut self, columns: &[u16]) -> Result<Vec<GameReceipt<ConnectFour>>, String>;
}

impl Moves for Driver<ConnectFour> {
    fn play(
        &mut self,
        seat: u16,
        tick: Tick,
        column: u16,
    ) -> Result<GameReceipt<ConnectFour>, CommandRefusal> {
        self.submit(Some(Seat(seat)), tick, Action::Play(column))
    }

    fn play_all(&mut self, columns: &[u16]) -> Result<Vec<GameReceipt<ConnectFour>>, String> {
        let mut receipts = Vec::with_capacity(columns.len());
        for (i, column) in columns.iter().enumerate() {
            let seat = self
                .state()
                .to_move()
                .ok_or_else(|| format!("move {i}: nobody to move"))?;
            let tick = self.state().clock_tick();
            let receipt = self
                .submit(Some(seat), tick, Action::Play(*column))
                .map_err(|r| format!("move {i} ({column:?}) refused: {r}"))?;
            receipts.push(receipt);
        }
        Ok(receipts)
    }
}

/// The strong bot's policy seated as a runtime `Bot` (the shipped adapter is
/// `turnstile_samples::MnkStrongBot`; the game's tests need no samples).
pub struct Strong(pub StrongBot);

impl turnstile_runtime::Bot<ConnectFour> for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }

    fn choose(
        &mut self,
        resolver: &turnstile_core::LegalActionResolver<'_, ConnectFour>,
        state: &KitState<turnstile_mnk::Mnk<turnstile_connect4::ConnectFourRules>>,
        seat: Seat,
        tick: Tick,
    ) -> Option<Command> {
        self.0.choose(resolver, state, seat, tick)
    }
}
