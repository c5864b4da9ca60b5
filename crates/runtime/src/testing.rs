//! The test kit of every game (feature `testing`): matches driven through `Match::submit` (so
//! every command passes the resolver and yields a receipt) with fresh command ids, refusals that
//! must change nothing, bot games, random command scripts that check the engine's promises,
//! replay verification, golden replay text, and random games on the bare rules and through
//! receipts for the benchmarks.
//!
//! It knows games only through the [`Game`] trait; a game with system actions hands the driver
//! its pending-timeout function. Nothing here reads files or clocks: callers do that at their
//! edge (a golden file's I/O is the test's).

use std::sync::Arc;

use turnstile_core::determinism::Pcg32;
use turnstile_core::receipt::HashedFields;
use turnstile_core::{
    CommandContext, CommandEnvelope, CommandRefusal, ContentBundle, Fingerprint, Game,
    LegalActionResolver, MatchSetup, MatchStatus, Receipt, Seat, Tick, Viewer,
};

use crate::{
    verify, Bot, LogEntry, Match, MatchError, MatchSpec, RandomBot, ReplayError, ReplayFile,
    SeatSpec, VerifyReport, DEFAULT_TICK_RATE,
};

/// A receipt of game `G`.
pub type GameReceipt<G> = Receipt<<G as Game>::Action, <G as Game>::Event>;

/// The system command a server would submit now, if any: (command id, tick, action) — for a
/// timed game, the pending `Timeout` stamped with the deadline.
pub type PendingSystem<G> = fn(&<G as Game>::State) -> Option<(String, Tick, <G as Game>::Action)>;

/// A match and a counter of command ids: submits commands without the caller tracking
/// sequences or inventing ids (`cmd-1`, `cmd-2`, …).
pub struct Driver<G: Game> {
    game: Match<G>,
    issued: u64,
    pending: Option<PendingSystem<G>>,
}

impl<G: Game> Driver<G> {
    /// A new match of the fewest human seats the config allows, at the default tick rate.
    pub fn new(
        bundle: Arc<ContentBundle<G::Content>>,
        config: G::Config,
        seed: &str,
    ) -> Result<Self, MatchError> {
        let (seats, _) = G::seat_range(&bundle.content, &config);
        Self::with_seats(
            bundle,
            config,
            seed,
            vec![SeatSpec::human(); usize::from(seats)],
        )
    }

    /// A new match with these seat specs.
    pub fn with_seats(
        bundle: Arc<ContentBundle<G::Content>>,
        config: G::Config,
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
            pending: None,
        })
    }

    /// The same driver, knowing the game's pending system command (its `Timeout`), for
    /// [`Driver::time_out`] and the scripts.
    pub fn with_timeouts(mut self, pending: PendingSystem<G>) -> Self {
        self.pending = Some(pending);
        self
    }

    /// The match.
    pub fn game(&self) -> &Match<G> {
        &self.game
    }

    /// The match, to keep.
    pub fn into_game(self) -> Match<G> {
        self.game
    }

    /// The match's state.
    pub fn state(&self) -> &G::State {
        self.game.state()
    }

    /// The first seat that has a move (from [`Game::enumerate_actions`]): the seat to move in a
    /// game of alternating turns.
    pub fn to_move(&self) -> Option<Seat> {
        let content = &self.game.bundle().content;
        (0..self.game.seats())
            .map(Seat)
            .find(|&seat| !G::enumerate_actions(content, self.state(), seat).is_empty())
    }

    /// Submits `action` for `seat` (`None`: the system) at `tick`, with a fresh command id.
    pub fn submit(
        &mut self,
        seat: Option<Seat>,
        tick: Tick,
        action: G::Action,
    ) -> Result<GameReceipt<G>, CommandRefusal> {
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
        action: G::Action,
    ) -> Result<GameReceipt<G>, CommandRefusal> {
        self.assert_apply_is_check_then_commit(seat, tick, &action);
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

    /// The promises of [`Game::apply`] and [`Game::apply_lean`], checked before every command a
    /// test submits: on the current state, the resolver's `apply_into` (the game's own
    /// `apply`) accepts or refuses exactly as `check` then `commit`, reaching the same state
    /// with the same events appended after what the list held; `apply_lean_into` (what a
    /// format-3 match runs) does the same with exactly those events that are not signals —
    /// and a refusal leaves both untouched. A disagreement is a defect of the game's `apply`
    /// or `apply_lean`; it panics, failing the test.
    fn assert_apply_is_check_then_commit(
        &self,
        seat: Option<Seat>,
        tick: Tick,
        action: &G::Action,
    ) {
        let content = &self.game.bundle().content;
        let resolver = self.game.resolver();
        let ctx = CommandContext { seat, tick };
        let mut planned_state = self.game.state().clone();
        let planned = resolver
            .check(&planned_state, ctx, action)
            .map(|plan| G::commit(content, &mut planned_state, ctx, plan));
        // The list holds something already, which `apply_into` must keep in front.
        let held: Vec<G::Event> = match &planned {
            Ok(events) => events.iter().take(1).cloned().collect(),
            Err(_) => Vec::new(),
        };
        for lean in [false, true] {
            let name = if lean {
                "Game::apply_lean"
            } else {
                "Game::apply"
            };
            let mut applied_state = self.game.state().clone();
            let mut events = held.clone();
            let applied = if lean {
                resolver.apply_lean_into(&mut applied_state, ctx, action, &mut events)
            } else {
                resolver.apply_into(&mut applied_state, ctx, action, &mut events)
            };
            match (&planned, applied) {
                (Ok(planned_events), Ok(())) => {
                    let expected: Vec<&G::Event> = planned_events
                        .iter()
                        .filter(|event| !lean || !G::is_signal(event))
                        .collect();
                    let recorded: Vec<&G::Event> = events[held.len()..].iter().collect();
                    assert!(
                        events[..held.len()] == held[..] && recorded == expected,
                        "{name} recorded other events than check-then-commit"
                    );
                    assert!(
                        applied_state == planned_state,
                        "{name} reached another state than check-then-commit"
                    );
                }
                (Err(planned), Err(applied)) => {
                    assert_eq!(*planned, applied, "{name} refused otherwise than check");
                    assert!(events == held, "a refused {name} changed the event list");
                    assert!(
                        applied_state == *self.game.state(),
                        "a refused {name} changed the state"
                    );
                }
                (planned, applied) => panic!(
                    "{name} and check-then-commit disagree: {:?} against {:?}",
                    planned.as_ref().map(|_| "accepted"),
                    applied.map(|()| "accepted")
                ),
            }
        }
    }

    /// Submits a command that must be refused and returns the refusal's code; an error if it
    /// was accepted or if refusing it changed the match.
    pub fn refusal(
        &mut self,
        seat: Option<u16>,
        tick: Tick,
        action: G::Action,
    ) -> Result<String, String> {
        let before = self.observe();
        match self.submit(seat.map(Seat), tick, action) {
            Ok(receipt) => Err(format!("accepted as sequence {}", receipt.sequence)),
            Err(refusal) if self.observe() != before => {
                Err(format!("the refusal {} changed the match", refusal.code()))
            }
            Err(refusal) => Ok(refusal.code().to_string()),
        }
    }

    /// What a server does when its timer fires: submits the pending system command (the
    /// `Timeout` with its id `timeout:<turn index>`, stamped with the deadline). `None` if
    /// nothing is pending or the driver knows no timeouts.
    pub fn time_out(&mut self) -> Option<Result<GameReceipt<G>, CommandRefusal>> {
        let (command_id, deadline, action) = (self.pending?)(self.state())?;
        Some(self.submit_as(command_id, None, deadline, action))
    }

    /// Lets the bots play from here to the end of the match, every command stamped `tick`;
    /// `bots[s]` plays seat `s`. An error says why the game could not go on.
    pub fn play_bots(&mut self, bots: &mut [&mut dyn Bot<G>], tick: Tick) -> Result<(), String> {
        while self.is_active() {
            let seat = self.to_move().ok_or("no seat is to move")?;
            let bot = bots
                .get_mut(usize::from(seat.0))
                .ok_or_else(|| format!("no bot for seat {seat}"))?;
            let action = {
                let resolver = self.game.resolver();
                bot.choose(&resolver, self.game.state(), seat, tick)
            };
            let action = action.ok_or_else(|| format!("the bot of seat {seat} found no move"))?;
            self.submit(Some(seat), tick, action)
                .map_err(|r| format!("the bot's move was refused: {r} ({})", r.code()))?;
        }
        Ok(())
    }

    /// Whether the match is still being played.
    pub fn is_active(&self) -> bool {
        matches!(
            G::status(&self.game.bundle().content, self.state()),
            MatchStatus::Active
        )
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
    /// - an accepted legal move commits to exactly the fingerprint its preview promised;
    /// - every receipt's `before` is the previous state fingerprint.
    ///
    /// Each step of `script` is decoded as one of: a legal move from the resolver's candidates
    /// (3 in 8), time passing (1 in 8), the pending system command (1 in 8, when the driver
    /// knows one), or `arbitrary(code, state)`: any command the game's test wants sent (random,
    /// mostly illegal ones — for kit games, `turnstile_kit::arbitrary_command`).
    pub fn run_script(
        &mut self,
        script: &[u32],
        arbitrary: impl Fn(u32, &G::State) -> (Option<Seat>, G::Action),
    ) -> Result<(), String> {
        let mut tick = self.game.last_tick();
        for (step, &code) in script.iter().enumerate() {
            let (op, arg) = (code % 8, code / 8);
            check_hand_written_forms::<G>(
                &self.game.bundle().content,
                self.game.seat_count(),
                self.game.state(),
                self.game.log().last(),
            )
            .map_err(|e| format!("step {step}: {e}"))?;
            check_listings::<G>(
                &self.game.bundle().content,
                self.game.seat_count(),
                self.game.state(),
            )
            .map_err(|e| format!("step {step}: {e}"))?;
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
                4 if self.pending.is_some() => match self.time_out() {
                    Some(submitted) => submitted,
                    None => continue,
                },
                _ => {
                    let (seat, action) = arbitrary(arg, self.state());
                    self.submit(seat, tick, action)
                }
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
    #[allow(clippy::type_complexity)]
    fn legal_move(
        &mut self,
        tick: Tick,
        arg: u32,
    ) -> Result<Option<Result<GameReceipt<G>, CommandRefusal>>, String> {
        let Some(seat) = self.to_move() else {
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
        // The match's own fingerprint rule (salted, lean from format 3 on), as the server's
        // previews use it.
        let next_sequence = self.game.sequence() + 1;
        let seal = |next: &G::State| self.game.fingerprint_state_at(next_sequence, next);
        let promised = resolver
            .preview_sealed(state, ctx, &action, Viewer::Spectator, &seal)
            .map_err(|r| format!("a candidate failed its preview: {r}"))?
            .map_err(|e| e.to_string())?
            .state_fingerprint;
        let submitted = self.submit(Some(seat), tick, action);
        if let Ok(receipt) = &submitted {
            if receipt.after != promised {
                return Err("a committed move differs from its preview".into());
            }
        }
        Ok(Some(submitted))
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Observed {
    fingerprint: Fingerprint,
    recomputed: Option<Fingerprint>,
    sequence: u64,
    log: usize,
    tick: Tick,
}

/// What the hand-written canonical writers must write: exactly the canonical bytes of the
/// `Serialize` forms they stand for — [`Game::write_fingerprint_form`] against
/// [`Game::fingerprint_form`] for `state`, [`Game::write_view`] against [`Game::view`] for
/// each of the `seats` and the spectator, and a receipt's hashed fields written by hand, each
/// event by [`Game::write_event`] ([`HashedFields::write_canonical_with`]), against their
/// derived `Serialize`, for `entry`'s receipt.
pub fn check_hand_written_forms<G: Game>(
    content: &G::Content,
    seats: u16,
    state: &G::State,
    entry: Option<&LogEntry<G>>,
) -> Result<(), String> {
    use turnstile_core::determinism::canonical::{to_canonical_vec, CanonicalWriter};
    let mut writer = CanonicalWriter::new();
    let by_serde = to_canonical_vec(&G::fingerprint_form(state)).map_err(|e| e.to_string())?;
    let by_hand = writer
        .write_with(|w| G::write_fingerprint_form(state, w))
        .map_err(|e| e.to_string())?;
    if by_hand != by_serde.as_slice() {
        return Err(format!(
            "write_fingerprint_form wrote {} where fingerprint_form serializes to {}",
            String::from_utf8_lossy(by_hand),
            String::from_utf8_lossy(&by_serde)
        ));
    }
    let viewers = (0..seats)
        .map(|s| Viewer::Seat(Seat(s)))
        .chain([Viewer::Spectator]);
    for viewer in viewers {
        let by_serde =
            to_canonical_vec(&G::view(content, state, viewer)).map_err(|e| e.to_string())?;
        let by_hand = writer
            .write_with(|w| G::write_view(content, state, viewer, w))
            .map_err(|e| e.to_string())?;
        if by_hand != by_serde.as_slice() {
            return Err(format!(
                "write_view wrote {} where the view of {viewer:?} serializes to {}",
                String::from_utf8_lossy(by_hand),
                String::from_utf8_lossy(&by_serde)
            ));
        }
    }
    if let Some(entry) = entry {
        let r = &entry.receipt;
        let fields = HashedFields {
            action: &r.action,
            after: &r.after,
            before: &r.before,
            command_id: &r.command_id,
            deadline_tick: r.deadline_tick,
            events: &r.events,
            previous: r.previous.as_ref(),
            seat: r.seat,
            sequence: r.sequence,
            tick: r.tick,
        };
        let by_serde = to_canonical_vec(&fields).map_err(|e| e.to_string())?;
        let by_hand = writer
            .write_with(|w| fields.write_canonical_with(w, G::write_event))
            .map_err(|e| e.to_string())?;
        if by_hand != by_serde.as_slice() {
            return Err(format!(
                "receipt {}'s hashed fields by hand are {} but serialize to {}",
                r.sequence,
                String::from_utf8_lossy(by_hand),
                String::from_utf8_lossy(&by_serde)
            ));
        }
    }
    Ok(())
}

/// What [`Game::enumerate_actions_into`] must list for every seat: exactly
/// [`Game::enumerate_actions`]'s actions in the same order, whatever the list held before (it
/// is handed a list still holding the other seats' moves).
pub fn check_listings<G: Game>(
    content: &G::Content,
    seats: u16,
    state: &G::State,
) -> Result<(), String> {
    let mut reused = Vec::new();
    for seat in (0..seats).map(Seat) {
        let listed = G::enumerate_actions(content, state, seat);
        G::enumerate_actions_into(content, state, seat, &mut reused);
        if reused != listed {
            return Err(format!(
                "enumerate_actions_into listed {reused:?} for seat {} where enumerate_actions \
                 lists {listed:?}",
                seat.0
            ));
        }
        // The next seat's listing starts from a list that holds something.
        reused.extend(listed.iter().take(1).cloned());
    }
    Ok(())
}

/// The property every game is tested for: a random `script` (see [`Driver::run_script`]) on
/// the driver's match keeps every promise, and the match's replay re-executes to the same
/// receipts and final fingerprint.
pub fn check_random_script<G: Game>(
    mut driver: Driver<G>,
    script: &[u32],
    arbitrary: impl Fn(u32, &G::State) -> (Option<Seat>, G::Action),
) -> Result<(), String> {
    driver.run_script(script, arbitrary)?;
    let text = replay_text(driver.game()).map_err(|e| e.to_string())?;
    let report = verify_replay_text::<G>(&text)?;
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

/// The first seat with a move, and that move drawn uniformly with one `rng.below(n)`. The
/// moves are listed into `actions`, the caller's list, reused from move to move
/// ([`Game::enumerate_actions_into`]): listing them allocates nothing once it has grown.
fn random_move<G: Game>(
    content: &G::Content,
    state: &G::State,
    seats: u16,
    rng: &mut Pcg32,
    actions: &mut Vec<G::Action>,
) -> Result<(Seat, G::Action), String> {
    for seat in (0..seats).map(Seat) {
        G::enumerate_actions_into(content, state, seat, actions);
        if actions.is_empty() {
            continue;
        }
        let count = u32::try_from(actions.len()).map_err(|e| e.to_string())?;
        let pick = rng.below(count).map_err(|e| e.to_string())?;
        return Ok((seat, actions.swap_remove(pick as usize)));
    }
    Err("no seat has a move".into())
}

fn is_active<G: Game>(content: &G::Content, state: &G::State) -> bool {
    matches!(G::status(content, state), MatchStatus::Active)
}

/// Plays one uniformly random game on the bare rules — a fresh state and the resolver's
/// `apply_lean_into`, as a format-3 match runs every command (events included, signals never
/// made, since its receipts leave them out); no match, receipts or fingerprints — drawing
/// moves from `rng`; returns its moves. [`BareGames`] plays many with the same lists.
///
/// Each move is drawn uniformly from the first seat's non-empty
/// [`enumerate_actions`](Game::enumerate_actions) with one `rng.below(n)`, so
/// [`random_receipted_game`] given a generator in the same state plays exactly the same game.
pub fn random_game<G: Game>(
    content: &G::Content,
    config: &G::Config,
    rng: &mut Pcg32,
) -> Result<u32, String> {
    BareGames::<G>::new().play(content, config, rng)
}

/// [`random_game`] through the resolver's `apply_into`, every signal made and kept (what a
/// format 1–2 match re-executes): the same game, to measure what signals cost.
pub fn random_game_with_signals<G: Game>(
    content: &G::Content,
    config: &G::Config,
    rng: &mut Pcg32,
) -> Result<u32, String> {
    BareGames::<G>::new().play_with_signals(content, config, rng)
}

/// Random games on the bare rules, one after another, with one list for a move's events and
/// one for its choices kept from game to game: once they have grown, a game whose `apply`
/// records in place and whose moves are listed in place allocates nothing for them (what
/// `turnstile bench`'s `random_games_bare` plays; [`random_game`] is one game of it).
#[derive(Debug)]
pub struct BareGames<G: Game> {
    events: Vec<G::Event>,
    actions: Vec<G::Action>,
}

impl<G: Game> Default for BareGames<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> BareGames<G> {
    /// Empty lists; they grow during the first game.
    pub fn new() -> Self {
        Self {
            events: Vec::new(),
            actions: Vec::new(),
        }
    }

    /// One game as [`random_game`] plays it; returns its moves.
    pub fn play(
        &mut self,
        content: &G::Content,
        config: &G::Config,
        rng: &mut Pcg32,
    ) -> Result<u32, String> {
        self.play_game(content, config, rng, false)
    }

    /// One game as [`random_game_with_signals`] plays it; returns its moves.
    pub fn play_with_signals(
        &mut self,
        content: &G::Content,
        config: &G::Config,
        rng: &mut Pcg32,
    ) -> Result<u32, String> {
        self.play_game(content, config, rng, true)
    }

    fn play_game(
        &mut self,
        content: &G::Content,
        config: &G::Config,
        rng: &mut Pcg32,
        signals: bool,
    ) -> Result<u32, String> {
        let (seats, _) = G::seat_range(content, config);
        let setup = MatchSetup {
            config,
            seed: "random-game",
            seats,
        };
        let mut state = G::setup(content, setup).map_err(|e| e.to_string())?;
        let resolver = LegalActionResolver::<G>::new(content, seats);
        let mut moves = 0;
        while is_active::<G>(content, &state) {
            let (seat, action) = random_move::<G>(content, &state, seats, rng, &mut self.actions)?;
            let ctx = CommandContext {
                seat: Some(seat),
                tick: 0,
            };
            self.events.clear();
            let applied = if signals {
                resolver.apply_into(&mut state, ctx, &action, &mut self.events)
            } else {
                resolver.apply_lean_into(&mut state, ctx, &action, &mut self.events)
            };
            applied.map_err(|r| r.to_string())?;
            moves += 1;
        }
        Ok(moves)
    }
}

/// The same game as [`random_game`] with a generator in the same state, played through a match
/// seeded `seed`: every move a command envelope through `Match::submit`, with its receipt, state
/// and view fingerprints and chained hash. Returns the moves.
pub fn random_receipted_game<G: Game>(
    bundle: Arc<ContentBundle<G::Content>>,
    config: G::Config,
    seed: &str,
    rng: &mut Pcg32,
) -> Result<u32, String> {
    let game = random_receipted_match::<G>(bundle, config, seed, rng)?;
    u32::try_from(game.sequence()).map_err(|e| e.to_string())
}

/// [`random_receipted_game`], returning the match it played (its log, for a replay file).
pub fn random_receipted_match<G: Game>(
    bundle: Arc<ContentBundle<G::Content>>,
    config: G::Config,
    seed: &str,
    rng: &mut Pcg32,
) -> Result<Match<G>, String> {
    let (seats, _) = G::seat_range(&bundle.content, &config);
    let spec = MatchSpec {
        config,
        seed: seed.into(),
        seats: vec![SeatSpec::human(); usize::from(seats)],
        tick_rate: DEFAULT_TICK_RATE,
    };
    let mut game = Match::<G>::new(bundle, spec).map_err(|e| e.to_string())?;
    let mut moves = 0u32;
    let mut actions = Vec::new();
    while is_active::<G>(&game.bundle().content, game.state()) {
        let (seat, action) = random_move::<G>(
            &game.bundle().content,
            game.state(),
            seats,
            rng,
            &mut actions,
        )?;
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
    Ok(game)
}

/// Plays one game of `RandomBot`s through a match seeded `seed` — every move a command with a
/// receipt, fingerprints and views, each bot choosing among the resolver's checked candidates;
/// returns its commands.
pub fn random_match<G: Game>(
    bundle: Arc<ContentBundle<G::Content>>,
    config: G::Config,
    seed: &str,
) -> Result<u32, String> {
    let mut driver = Driver::<G>::new(bundle, config, seed).map_err(|e| e.to_string())?;
    let mut bots = (0..driver.game().seats())
        .map(|seat| RandomBot::new(seed, Seat(seat)).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut seats: Vec<&mut dyn Bot<G>> = bots.iter_mut().map(|b| b as &mut dyn Bot<G>).collect();
    driver.play_bots(&mut seats, 0)?;
    u32::try_from(driver.game().sequence()).map_err(|e| e.to_string())
}

/// A golden file's text: `relative` under `manifest_dir` (a test's `env!("CARGO_MANIFEST_DIR")`),
/// after writing `fresh` to it when `TURNSTILE_BLESS=1`. The one file access of the test kit,
/// so that every game's golden replay test is the same two lines.
pub fn read_or_bless(manifest_dir: &str, relative: &str, fresh: &str) -> String {
    let path = std::path::Path::new(manifest_dir).join(relative);
    if std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1") {
        if let Err(e) = std::fs::write(&path, fresh) {
            panic!("{}: {e}", path.display());
        }
    }
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; bless it with TURNSTILE_BLESS=1", path.display()))
}
