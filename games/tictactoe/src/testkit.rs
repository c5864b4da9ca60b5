//! Drivers for the tests, benchmarks and tools of m,n,k-games: matches played through
//! `Match::submit` (so every command passes the resolver and yields a receipt), bot games,
//! random command scripts that check the engine's promises, and replay text for golden files.
//!
//! Nothing here reads files or clocks; callers do that at their edge.

use std::sync::Arc;

use turnstile_core::determinism::Pcg32;
use turnstile_core::{
    CommandContext, CommandEnvelope, CommandRefusal, ContentBundle, Fingerprint, Game,
    LegalActionResolver, MatchSetup, Receipt, Seat, Tick, Viewer,
};
use turnstile_runtime::{
    verify, Bot, Match, MatchError, MatchSpec, RandomBot, ReplayError, ReplayFile, SeatSpec,
    VerifyReport, DEFAULT_TICK_RATE,
};
use turnstile_turns::{TurnEndReason, TurnEvent};

use crate::mnk::{Command, MatchConfig, MnkEvent, MnkGame, MnkState, Rules, Variant};

/// The receipt of an m,n,k-game.
pub type MnkReceipt<V> = Receipt<<V as Variant>::Action, MnkEvent<<V as Variant>::Move>>;

/// A match and a counter of command ids: submits commands without the caller tracking
/// sequences or inventing ids.
pub struct Driver<V: Variant> {
    game: Match<MnkGame<V>>,
    issued: u64,
}

impl<V: Variant> Driver<V> {
    /// A new match of two human seats at the default tick rate.
    pub fn new(
        bundle: Arc<ContentBundle<Rules>>,
        config: MatchConfig,
        seed: &str,
    ) -> Result<Self, MatchError> {
        Self::with_seats(bundle, config, seed, vec![SeatSpec::human(); 2])
    }

    /// A new match with these seat specs.
    pub fn with_seats(
        bundle: Arc<ContentBundle<Rules>>,
        config: MatchConfig,
        seed: &str,
        seats: Vec<SeatSpec>,
    ) -> Result<Self, MatchError> {
        let spec = MatchSpec {
            config,
            seed: seed.into(),
            seats,
            tick_rate: DEFAULT_TICK_RATE,
        };
        Ok(Driver {
            game: Match::new(bundle, spec)?,
            issued: 0,
        })
    }

    /// The match.
    pub fn game(&self) -> &Match<MnkGame<V>> {
        &self.game
    }

    /// The match, to keep.
    pub fn into_game(self) -> Match<MnkGame<V>> {
        self.game
    }

    /// The match's state.
    pub fn state(&self) -> &MnkState {
        self.game.state()
    }

    /// Submits `command` for `seat` (`None`: the system) at `tick`, with a fresh command id.
    pub fn submit(
        &mut self,
        seat: Option<Seat>,
        tick: Tick,
        command: Command<V::Move>,
    ) -> Result<MnkReceipt<V>, CommandRefusal> {
        self.submit_action(seat, tick, V::action(command))
    }

    /// [`Driver::submit`] for a seat's move.
    pub fn play(
        &mut self,
        seat: u16,
        tick: Tick,
        mv: V::Move,
    ) -> Result<MnkReceipt<V>, CommandRefusal> {
        self.submit(Some(Seat(seat)), tick, Command::Play(mv))
    }

    /// Plays `moves` in turn from the seat to move, all at the turn clock's tick; the error names
    /// the first move refused.
    pub fn play_all(&mut self, moves: &[V::Move]) -> Result<Vec<MnkReceipt<V>>, String> {
        let mut receipts = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let seat = self
                .state()
                .to_move()
                .ok_or_else(|| format!("move {i}: nobody to move"))?;
            let tick = self.state().clock_tick();
            let receipt = self
                .submit(Some(seat), tick, Command::Play(mv.clone()))
                .map_err(|r| format!("move {i} ({mv:?}) refused: {r}"))?;
            receipts.push(receipt);
        }
        Ok(receipts)
    }

    /// Submits a command that must be refused and returns the refusal's code; an error if it
    /// was accepted or if refusing it changed the match.
    pub fn refusal(
        &mut self,
        seat: Option<u16>,
        tick: Tick,
        command: Command<V::Move>,
    ) -> Result<String, String> {
        let before = self.observe();
        match self.submit(seat.map(Seat), tick, command) {
            Ok(receipt) => Err(format!("accepted as sequence {}", receipt.sequence)),
            Err(refusal) if self.observe() != before => {
                Err(format!("the refusal {} changed the match", refusal.code()))
            }
            Err(refusal) => Ok(refusal.code().to_string()),
        }
    }

    /// Submits an action with a fresh command id.
    pub fn submit_action(
        &mut self,
        seat: Option<Seat>,
        tick: Tick,
        action: V::Action,
    ) -> Result<MnkReceipt<V>, CommandRefusal> {
        self.issued += 1;
        let command_id = format!("cmd-{}", self.issued);
        self.submit_as(command_id, seat, tick, action)
    }

    /// Submits an action under `command_id`, at the match's current sequence.
    pub fn submit_as(
        &mut self,
        command_id: String,
        seat: Option<Seat>,
        tick: Tick,
        action: V::Action,
    ) -> Result<MnkReceipt<V>, CommandRefusal> {
        let envelope = CommandEnvelope {
            command_id,
            seat,
            expected_sequence: self.game.sequence(),
            expected_step: None,
            tick,
            action,
        };
        self.game.submit(envelope).map(|a| a.receipt.clone())
    }

    /// What a server does when its timer fires: submits the pending system `Timeout` with its
    /// id `timeout:<turn index>`, stamped with the deadline. `None` if no turn can time out.
    pub fn time_out(&mut self) -> Option<Result<MnkReceipt<V>, CommandRefusal>> {
        let (command_id, deadline, command) = self.state().pending_timeout::<V::Move>()?;
        Some(self.submit_as(command_id, None, deadline, V::action(command)))
    }

    /// Lets the bots play from here to the end of the match, every command stamped `tick`;
    /// `bots[s]` plays seat `s`. An error says why the game could not go on.
    pub fn play_bots(
        &mut self,
        bots: &mut [&mut dyn Bot<MnkGame<V>>; 2],
        tick: Tick,
    ) -> Result<(), String> {
        while self.state().result().is_none() {
            let seat = self.state().to_move().ok_or("no seat is to move")?;
            let action = {
                let resolver = self.game.resolver();
                bots[usize::from(seat.0)].choose(&resolver, self.game.state(), seat, tick)
            };
            let action = action.ok_or_else(|| format!("the bot of seat {seat} found no move"))?;
            self.submit_action(Some(seat), tick, action)
                .map_err(|r| format!("the bot's move was refused: {r} ({})", r.code()))?;
        }
        Ok(())
    }

    /// Everything a refusal must leave unchanged.
    fn observe(&self) -> Observed {
        Observed {
            fingerprint: *self.game.state_fingerprint(),
            recomputed: Fingerprint::of(self.game.state()).ok(),
            sequence: self.game.sequence(),
            log: self.game.log().len(),
            tick: self.game.last_tick(),
        }
    }

    /// Runs a random command script and checks the engine's promises on every step:
    ///
    /// - a refused command leaves the state (and its fingerprint), the sequence, the log and the
    ///   tick exactly as they were;
    /// - an accepted move commits to exactly the fingerprint its preview promised;
    /// - every receipt's `before` is the previous state fingerprint.
    ///
    /// Each step of `script` is decoded as one of: a legal move from the resolver's candidates
    /// (3 in 8), time passing (1 in 8), the pending `Timeout` or a random one, a random move from
    /// `arbitrary` by a random seat (seat 2 does not exist), a `Skip` by either seat, or rarely a
    /// `Resign`.
    pub fn run_script(
        &mut self,
        script: &[u32],
        arbitrary: impl Fn(u32) -> V::Move,
    ) -> Result<(), String> {
        let mut tick = self.game.last_tick();
        for (step, &code) in script.iter().enumerate() {
            let (op, arg) = (code % 8, code / 8);
            let before = self.observe();
            let submitted = match op {
                0..=2 => match self.legal_move(tick, arg)? {
                    Some(submitted) => submitted,
                    None => continue,
                },
                3 => {
                    tick += u64::from(arg % 48);
                    continue;
                }
                4 if arg % 2 == 0 => match self.time_out() {
                    Some(submitted) => submitted,
                    None => continue,
                },
                4 => {
                    let turn_index = u64::from(arg / 2) % (self.state().turn_index() + 2);
                    self.submit(None, tick, Command::Timeout { turn_index })
                }
                5 => self.submit(
                    Some(Seat((arg % 3) as u16)),
                    tick,
                    Command::Play(arbitrary(arg / 3)),
                ),
                6 => self.submit(Some(Seat((arg % 2) as u16)), tick, Command::Skip),
                _ if arg % 16 == 0 => {
                    self.submit(Some(Seat((arg / 16 % 2) as u16)), tick, Command::Resign)
                }
                _ => self.submit(None, tick, Command::Play(arbitrary(arg))),
            };
            match submitted {
                Ok(receipt) if receipt.before != before.fingerprint => {
                    return Err(format!(
                        "step {step}: the receipt's `before` is not the previous state"
                    ));
                }
                Ok(receipt) => tick = tick.max(receipt.tick),
                Err(refusal) if self.observe() != before => {
                    return Err(format!(
                        "step {step}: the refusal {} changed the match",
                        refusal.code()
                    ));
                }
                Err(_) => {}
            }
        }
        Ok(())
    }

    /// A legal move of the seat to move at `tick`, chosen by `arg` among the resolver's
    /// candidates, previewed and then submitted; the receipt must match the preview.
    fn legal_move(
        &mut self,
        tick: Tick,
        arg: u32,
    ) -> Result<Option<Result<MnkReceipt<V>, CommandRefusal>>, String> {
        let Some(seat) = self.state().to_move() else {
            return Ok(None);
        };
        let resolver = self.game.resolver();
        let state = self.game.state();
        let candidates = resolver
            .candidates(state, seat, tick)
            .map_err(|r| r.to_string())?;
        if candidates.is_empty() {
            return Ok(None);
        }
        let action = candidates[arg as usize % candidates.len()].clone();
        let ctx = CommandContext {
            seat: Some(seat),
            tick,
        };
        let promised = resolver
            .preview(state, ctx, &action, Viewer::Spectator)
            .map_err(|r| format!("a candidate failed its preview: {r}"))?
            .map_err(|e| e.to_string())?
            .state_fingerprint;
        let submitted = self.submit_action(Some(seat), tick, action);
        if let Ok(receipt) = &submitted {
            if receipt.after != promised {
                return Err("a committed move differs from its preview".into());
            }
        }
        Ok(Some(submitted))
    }
}

/// The turns that `events` record ending, as (turn index, player, reason).
pub fn turn_ends<M>(events: &[MnkEvent<M>]) -> Vec<(u64, Option<Seat>, TurnEndReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            MnkEvent::Turn {
                event:
                    TurnEvent::TurnEnded {
                        turn_index,
                        player,
                        reason,
                        ..
                    },
            } => Some((*turn_index, *player, reason.clone())),
            _ => None,
        })
        .collect()
}

/// The turns that `events` record beginning, as (turn index, player).
pub fn turn_begins<M>(events: &[MnkEvent<M>]) -> Vec<(u64, Option<Seat>)> {
    events
        .iter()
        .filter_map(|e| match e {
            MnkEvent::Turn {
                event:
                    TurnEvent::TurnBegan {
                        turn_index, player, ..
                    },
            } => Some((*turn_index, *player)),
            _ => None,
        })
        .collect()
}

/// The game's own events among `events` (the turn framework's left out).
pub fn game_events<M: Clone>(events: &[MnkEvent<M>]) -> Vec<MnkEvent<M>> {
    events
        .iter()
        .filter(|e| !matches!(e, MnkEvent::Turn { .. }))
        .cloned()
        .collect()
}

#[derive(Debug, PartialEq, Eq)]
struct Observed {
    fingerprint: Fingerprint,
    recomputed: Option<Fingerprint>,
    sequence: u64,
    log: usize,
    tick: Tick,
}

/// Plays one uniformly random game on the bare rules — a fresh state and the resolver's
/// `apply`, no match, receipts or fingerprints — drawing moves from `rng`; returns its moves.
///
/// Each move is drawn uniformly from the seat's [`enumerate_actions`](Game::enumerate_actions)
/// with one `rng.below(n)`, so [`random_receipted_game`] given a generator in the same state
/// plays exactly the same game.
pub fn random_game<V: Variant>(rules: &Rules, rng: &mut Pcg32) -> Result<u32, String> {
    let setup = MatchSetup {
        config: &MatchConfig::default(),
        seed: "random-game",
        seats: 2,
    };
    let mut state = MnkGame::<V>::setup(rules, setup).map_err(|e| e.to_string())?;
    let resolver = LegalActionResolver::<MnkGame<V>>::new(rules, 2);
    let mut moves = 0;
    while state.result().is_none() {
        let seat = state.to_move().ok_or("no seat is to move")?;
        let action = random_action::<V>(rules, &state, seat, rng)?;
        let ctx = CommandContext {
            seat: Some(seat),
            tick: 0,
        };
        resolver
            .apply(&mut state, ctx, &action)
            .map_err(|r| r.to_string())?;
        moves += 1;
    }
    Ok(moves)
}

/// The same game as [`random_game`] with a generator in the same state, played through a match
/// seeded `seed`: every move a command envelope through `Match::submit`, with its receipt, state
/// and view fingerprints and chained hash. Returns the moves.
pub fn random_receipted_game<V: Variant>(
    bundle: Arc<ContentBundle<Rules>>,
    seed: &str,
    rng: &mut Pcg32,
) -> Result<u32, String> {
    let spec = MatchSpec {
        config: MatchConfig::default(),
        seed: seed.into(),
        seats: vec![SeatSpec::human(); 2],
        tick_rate: DEFAULT_TICK_RATE,
    };
    let mut game = Match::<MnkGame<V>>::new(bundle, spec).map_err(|e| e.to_string())?;
    let mut moves = 0u32;
    while game.state().result().is_none() {
        let seat = game.state().to_move().ok_or("no seat is to move")?;
        let action = random_action::<V>(&game.bundle().content, game.state(), seat, rng)?;
        let envelope = CommandEnvelope {
            command_id: format!("m{moves}"),
            seat: Some(seat),
            expected_sequence: game.sequence(),
            expected_step: None,
            tick: 0,
            action,
        };
        game.submit(envelope).map_err(|r| r.to_string())?;
        moves += 1;
    }
    Ok(moves)
}

/// One of `seat`'s moves, drawn uniformly with one `rng.below(n)`.
fn random_action<V: Variant>(
    rules: &Rules,
    state: &MnkState,
    seat: Seat,
    rng: &mut Pcg32,
) -> Result<V::Action, String> {
    let mut actions = MnkGame::<V>::enumerate_actions(rules, state, seat);
    let count = u32::try_from(actions.len()).map_err(|e| e.to_string())?;
    let pick = rng.below(count).map_err(|e| e.to_string())?;
    Ok(actions.swap_remove(pick as usize))
}

/// Plays one game of two `RandomBot`s through a match seeded `seed` — every move a command
/// with a receipt, fingerprints and views, each bot choosing among the resolver's checked
/// candidates; returns its moves.
pub fn random_match<V: Variant>(
    bundle: Arc<ContentBundle<Rules>>,
    seed: &str,
) -> Result<u32, String> {
    let bot = |seat| RandomBot::new(seed, Seat(seat)).map_err(|e| e.to_string());
    let (mut first, mut second) = (bot(0)?, bot(1)?);
    let mut driver =
        Driver::<V>::new(bundle, MatchConfig::default(), seed).map_err(|e| e.to_string())?;
    driver.play_bots(&mut [&mut first, &mut second], 0)?;
    u32::try_from(driver.game().sequence()).map_err(|e| e.to_string())
}

/// The property every m,n,k-game is tested for: a random `script` (see [`Driver::run_script`])
/// on a fresh match under turn config `config` keeps every promise, and the match's replay
/// re-executes to the same receipts and final fingerprint.
pub fn check_random_script<V: Variant>(
    bundle: Arc<ContentBundle<Rules>>,
    config: &str,
    seed: &str,
    script: &[u32],
    arbitrary: impl Fn(u32) -> V::Move,
) -> Result<(), String> {
    let mut driver = Driver::<V>::new(bundle, MatchConfig::with_turn_config(config), seed)
        .map_err(|e| e.to_string())?;
    driver.run_script(script, arbitrary)?;
    let text = replay_text(driver.game()).map_err(|e| e.to_string())?;
    let report = verify_replay_text::<MnkGame<V>>(&text)?;
    let game = driver.game();
    if report.verified != game.sequence()
        || report.final_fingerprint.as_ref() != Some(game.state_fingerprint())
    {
        return Err(format!(
            "the replay verified {} of {} receipts, ending at {:?}",
            report.verified,
            game.sequence(),
            report.final_fingerprint
        ));
    }
    Ok(())
}

/// Checks a golden replay: `committed` (the file's text) must be byte for byte the replay of
/// `game`, and must verify to `game`'s final fingerprint.
pub fn check_golden<G: Game>(committed: &str, game: &Match<G>) -> Result<VerifyReport, String> {
    let text = replay_text(game).map_err(|e| e.to_string())?;
    if committed != text {
        return Err(
            "the golden replay differs from the scripted match: a fingerprint changed. \
                    If that is deliberate, explain it and bless with TURNSTILE_BLESS=1"
                .into(),
        );
    }
    let report = verify_replay_text::<G>(committed)?;
    if report.final_fingerprint.as_ref() != Some(game.state_fingerprint()) {
        return Err("the golden replay verifies to another final state".into());
    }
    Ok(report)
}

/// A match's replay file as committed to a golden file: canonical, indented, one final newline.
pub fn replay_text<G: Game>(game: &Match<G>) -> Result<String, ReplayError> {
    let mut text = ReplayFile::of_match(game)?.to_json()?;
    text.push('\n');
    Ok(text)
}

/// Parses and verifies replay text; a divergence is an error naming it.
pub fn verify_replay_text<G: Game>(text: &str) -> Result<VerifyReport, String> {
    let file = ReplayFile::parse(text).map_err(|e| e.to_string())?;
    let report = verify::<G>(&file).map_err(|e| e.to_string())?;
    match &report.divergence {
        Some(divergence) => Err(format!("the replay diverges: {divergence}")),
        None => Ok(report),
    }
}
