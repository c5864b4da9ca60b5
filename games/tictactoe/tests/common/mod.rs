//! Fixtures shared by the Tic-Tac-Toe tests: the bundled content, matches under a named turn
//! config, and moves by cell.
#![allow(dead_code)]

use std::sync::Arc;

use turnstile_core::{CommandRefusal, ContentBundle, Seat, Tick};
use turnstile_mnk::{Action, Cell, KitState, MatchConfig, Rules};
use turnstile_runtime::testing::{Driver, GameReceipt};
use turnstile_tictactoe::{bundled, StrongBot, TicTacToe};

/// The kit's action of Tic-Tac-Toe, as the tests write commands.
pub type Command = Action<turnstile_mnk::Mnk<turnstile_tictactoe::TicTacToeRules>>;

pub fn bundle() -> Arc<ContentBundle<Rules>> {
    Arc::new(bundled().expect("the bundled content loads"))
}

/// A match under the content's turn config `config` (`untimed`, `timed`, `blitz`), whose
/// driver submits the pending `Timeout` on `time_out`.
pub fn driver(config: &str) -> Driver<TicTacToe> {
    driver_seeded(config, "tests")
}

/// [`driver`] with its own match seed.
pub fn driver_seeded(config: &str, seed: &str) -> Driver<TicTacToe> {
    Driver::new(bundle(), MatchConfig::with_turn_config(config), seed)
        .unwrap()
        .with_timeouts(KitState::pending_timeout)
}

pub fn cell(column: u16, row: u16) -> Cell {
    Cell::new(column, row)
}

/// The cells, for `Moves::play_all`.
pub fn cells(list: &[(u16, u16)]) -> Vec<Cell> {
    list.iter().map(|&(c, r)| cell(c, r)).collect()
}

/// Moves by cell on a Tic-Tac-Toe driver.
pub trait Moves {
    /// `seat` marks `cell` at `tick`, with a fresh command id.
    fn play(
        &mut self,
        seat: u16,
        tick: Tick,
        cell: Cell,
    ) -> Result<GameReceipt<TicTacToe>, CommandRefusal>;
    /// Marks `cells` in turn from the seat to move, each at the turn clock's tick; the error
    /// names the first move refused.
    fn play_all(&mut self, cells: &[Cell]) -> Result<Vec<GameReceipt<TicTacToe>>, String>;
}

impl Moves for Driver<TicTacToe> {
    fn play(
        &mut self,
        seat: u16,
        tick: Tick,
        cell: Cell,
    ) -> Result<GameReceipt<TicTacToe>, CommandRefusal> {
        self.submit(Some(Seat(seat)), tick, Action::Play(cell))
    }

    fn play_all(&mut self, cells: &[Cell]) -> Result<Vec<GameReceipt<TicTacToe>>, String> {
        let mut receipts = Vec::with_capacity(cells.len());
        for (i, cell) in cells.iter().enumerate() {
            let seat = self
                .state()
                .to_move()
                .ok_or_else(|| format!("move {i}: nobody to move"))?;
            let tick = self.state().clock_tick();
            let receipt = self
                .submit(Some(seat), tick, Action::Play(*cell))
                .map_err(|r| format!("move {i} ({cell:?}) refused: {r}"))?;
            receipts.push(receipt);
        }
        Ok(receipts)
    }
}

/// The strong bot's policy seated as a runtime `Bot` (the shipped adapter is
/// `turnstile_samples::MnkStrongBot`; the game's tests need no samples).
pub struct Strong(pub StrongBot);

impl turnstile_runtime::Bot<TicTacToe> for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }

    fn choose(
        &mut self,
        resolver: &turnstile_core::LegalActionResolver<'_, TicTacToe>,
        state: &KitState<turnstile_mnk::Mnk<turnstile_tictactoe::TicTacToeRules>>,
        seat: Seat,
        tick: Tick,
    ) -> Option<Command> {
        self.0.choose(resolver, state, seat, tick)
    }
}
