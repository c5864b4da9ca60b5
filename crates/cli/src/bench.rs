//! `turnstile bench <game|all>`: end-to-end throughput, printed as JSON lines.
//!
//! Each line names the game, what was measured, how many commands, how long they took and the
//! rate: `{game, bench, what, commands, seconds, perSecond}`, where `perSecond` is always
//! commands per second. Lines that measure whole games add `games` and `gamesPerSecond`; the
//! strong bot's line adds `nodes` and `nodesPerSecond` (positions searched). Set-up (parsing
//! content, creating matches, building replay files) happens before the clock starts, so the
//! figures are for the measured work alone. The wall clock lives here, at the edge, and never
//! in rules. Criterion's `cargo bench` owns the micro-benchmarks.
//!
//! Connect Four and Tic-Tac-Toe measure (see `docs/benchmarks.md`):
//!
//! - `random_games_bare`: complete uniformly random games on the bare rules — a fresh state and
//!   the resolver's `apply_into` with one reused event list (the game's real `Game::apply`:
//!   check then commit), no match; at least 10 × N moves, since they are far cheaper than
//!   receipts;
//! - `random_games_receipted`: the same games (same generator, same moves), every move a command
//!   through `Match::submit` — legality, commit, state and view fingerprints, chained receipt
//!   hash, log — with one match per game; at least N moves;
//! - `replay_verify`: the replay files of the same games (built before the clock starts),
//!   held as `ReplayFile` trees and verified with one `Verifier` for the run: typed envelopes,
//!   re-execution, every receipt compared with its logged tree (reading the files is not timed;
//!   the `hotpaths` example's `text` path times `turnstile replay verify`'s reading too);
//! - `strong_bot_nodes`: the strong bot (seat 0) against uniformly random moves on the bare
//!   rules, timing only the bot's `choose` (resolver candidates, position, search): its moves
//!   are the commands, and the positions it searched the nodes;
//! - `receipt_bytes`: canonical bytes per receipted move (counts, not speeds).
//!
//! clover adds `score_hand` and `score_hand_steps` (hands scored per second on the shared
//! five-joker workload, without and with the step list; the hands are the commands) and
//! `bot_runs` (whole greedy-bot runs per second; docs/clover.md, Performance).
//!
//! Every game with shipped content (all of them, through the registry) adds `memory_per_match`:
//! the resident bytes one loaded match adds, a few moves in (`matches`, `bytesPerMatch`).
//!
//! Moves are drawn from PCG32 generators seeded like a bot's (`bot_generator("bench", seat)`),
//! so every run plays the same games.

use crate::exit::Outcome;
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use turnstile_connect4::ConnectFourRules;
use turnstile_core::determinism::Pcg32;
use turnstile_core::{
    CommandContext, CommandEnvelope, ContentBundle, ContentProblem, Game, LegalActionResolver,
    MatchSetup, ReceiptFormat, Seat,
};
use turnstile_mnk::{MatchConfig, MnkGame, Rules, Searchable, StrongBot};
use turnstile_runtime::testing::{random_receipted_game, random_receipted_match, BareGames};
use turnstile_runtime::{bot_generator, verify, Match, MatchSpec, ReplayFile, SeatSpec, Verifier};
// The process's resident memory: the server's own reading (`VmRSS`), one way for both.
use turnstile_runtime::{ErasedCommand, ErasedSpec, GameRegistry, RegisteredGame, SeatKind};
use turnstile_server::metrics::resident_bytes;
use turnstile_sokoban::{
    parse_collection, parse_lurd, Board, Direction, Sokoban, SokobanAction, SokobanConfig,
    SokobanContent,
};
use turnstile_tictactoe::TicTacToeRules;

/// One measured figure.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Figure {
    game: &'static str,
    bench: &'static str,
    what: &'static str,
    commands: u64,
    /// Wall time of the measured path, in seconds with microseconds, as a JSON number.
    seconds: serde_json::Number,
    per_second: u64,
    /// Complete games, when the line measures whole games.
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<u64>,
    /// Complete games per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    games_per_second: Option<u64>,
    /// Positions searched, on the strong bot's line.
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    /// Positions searched per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes_per_second: Option<u64>,
    /// Canonical bytes of the state after each move, on average (what is fingerprinted).
    #[serde(skip_serializing_if = "Option::is_none")]
    state_bytes_per_move: Option<u64>,
    /// Canonical bytes of each move's receipt events, on average (what is hashed).
    #[serde(skip_serializing_if = "Option::is_none")]
    event_bytes_per_move: Option<u64>,
    /// The receipt format the byte figures are for.
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<u64>,
    /// Matches held at once, on the memory line.
    #[serde(skip_serializing_if = "Option::is_none")]
    matches: Option<u64>,
    /// Resident bytes each loaded match adds to the process, on average (the memory line).
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes_per_match: Option<u64>,
}

/// `count` per second over `took`.
fn rate(count: u64, took: Duration) -> u64 {
    let nanos = took.as_nanos().max(1);
    u64::try_from(u128::from(count) * 1_000_000_000 / nanos).unwrap_or(u64::MAX)
}

impl Figure {
    /// The same figure, counting `games` complete games.
    fn with_games(mut self, games: u64, took: Duration) -> Figure {
        self.games = Some(games);
        self.games_per_second = Some(rate(games, took));
        self
    }

    /// The same figure, counting `nodes` positions searched.
    fn with_nodes(mut self, nodes: u64, took: Duration) -> Figure {
        self.nodes = Some(nodes);
        self.nodes_per_second = Some(rate(nodes, took));
        self
    }
}

fn figure(
    game: &'static str,
    bench: &'static str,
    what: &'static str,
    commands: u64,
    took: Duration,
) -> Figure {
    Figure {
        game,
        bench,
        what,
        commands,
        // Written as the decimal text of whole seconds and microseconds, parsed as a JSON
        // number: no float arithmetic anywhere in the workspace (clippy's float_arithmetic).
        seconds: serde_json::from_str(&format!("{}.{:06}", took.as_secs(), took.subsec_micros()))
            .unwrap_or_else(|_| serde_json::Number::from(took.as_secs())),
        per_second: rate(commands, took),
        games: None,
        games_per_second: None,
        nodes: None,
        nodes_per_second: None,
        state_bytes_per_move: None,
        event_bytes_per_move: None,
        format: None,
        matches: None,
        bytes_per_match: None,
    }
}

/// Runs the benchmarks of one registered game, or of all.
pub fn run(registry: &GameRegistry, game: &str, commands: u64, memory_only: bool) -> Outcome {
    let games: Vec<&str> = match game {
        "all" => registry.ids(),
        g if registry.get(g).is_some() => vec![g],
        other => {
            return Outcome::usage(format!(
                "no benchmark for {other:?}; choose one of {} or all",
                registry.ids().join(", ")
            ))
        }
    };
    for g in games {
        if memory_only {
            let figures = match registry.get(g) {
                Some(registered_game) => memory(registered_game),
                None => Err(format!("{g} is not registered")),
            };
            match figures {
                Ok(figures) => figures.iter().for_each(print_figure),
                Err(why) => return Outcome::input(format!("bench {g}: {why}")),
            }
            continue;
        }
        let figures = match g {
            "sokoban" => sokoban(commands.max(1)),
            "connect4" => mnk::<ConnectFourRules>(turnstile_connect4::bundled(), commands.max(1)),
            "tictactoe" => mnk::<TicTacToeRules>(turnstile_tictactoe::bundled(), commands.max(1)),
            // clover: the registry's generic line, then its own scoring and bot-run lines.
            "clover" => registry
                .get("clover")
                .ok_or_else(|| "clover is not registered".to_owned())
                .and_then(|g| registered(g, commands.max(1)))
                .and_then(|mut lines| {
                    lines.extend(clover(commands.max(1))?);
                    Ok(lines)
                }),
            // Every other registered game with shipped content: the generic benchmark.
            other => match registry.get(other) {
                Some(registered_game) => registered(registered_game, commands.max(1)),
                None => Err(format!("{other} is not registered")),
            },
        };
        let figures = match figures {
            Ok(figures) => figures,
            Err(why) => return Outcome::input(format!("bench {g}: {why}")),
        };
        figures.iter().for_each(print_figure);
        // Every game with shipped content also reports what a loaded match costs in memory,
        // measured by this binary run afresh (`--memory-only`): in this process the memory the
        // benchmarks above freed would be reused and hide the growth.
        match memory_in_fresh_process(g) {
            Ok(line) => println!("{line}"),
            Err(why) => eprintln!("bench {g}: no memory line: {why}"),
        }
    }
    Outcome::ok()
}

fn print_figure(f: &Figure) {
    println!("{}", serde_json::to_string(f).expect("figures serialize"));
}

/// The memory line of `game`, from `turnstile bench GAME --memory-only` run as a child process
/// (this binary again); its one line as it printed it, or why there is none.
fn memory_in_fresh_process(game: &str) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = std::process::Command::new(exe)
        .args(["bench", game, "--memory-only"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_owned());
    }
    let text = String::from_utf8(out.stdout).map_err(|e| e.to_string())?;
    text.lines()
        .find(|l| l.contains("\"memory_per_match\""))
        .map(str::to_owned)
        .ok_or_else(|| "the game has no shipped content or resident memory cannot be read".into())
}

const MICROBAN: &str = include_str!("../../../games/sokoban/content/levels/microban.xsb");
const SOLUTIONS: &str = include_str!("../../../games/sokoban/tests/data/microban-pushopt-bfs.tsv");

/// The known Microban solutions: (level number, moves).
fn solutions() -> Vec<(u32, Vec<Direction>)> {
    SOLUTIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let level = cols.first()?.parse().ok()?;
            let steps = parse_lurd(cols.get(3)?).ok()?;
            Some((level, steps.into_iter().map(|s| s.direction).collect()))
        })
        .collect()
}

/// Sokoban: the known Microban solutions, played one after another until `commands` moves.
fn sokoban(commands: u64) -> Result<Vec<Figure>, String> {
    let levels: Vec<_> = parse_collection(MICROBAN, "microban.xsb")
        .valid_levels()
        .cloned()
        .collect();
    // The known solutions, cycled until they add up to `commands` moves.
    let known = solutions();
    let mut solutions: Vec<(u32, Vec<Direction>)> = Vec::new();
    let mut total = 0u64;
    for (level, steps) in known.iter().cycle() {
        if total >= commands {
            break;
        }
        total += steps.len() as u64;
        solutions.push((*level, steps.clone()));
    }

    // Bare rules: Board::step alone.
    let mut boards: Vec<(Board, &[Direction])> = solutions
        .iter()
        .map(|(level, steps)| (Board::new(&levels[*level as usize - 1]), steps.as_slice()))
        .collect();
    let start = Instant::now();
    let mut moves = 0u64;
    for (board, steps) in &mut boards {
        for &d in steps.iter() {
            let outcome = board.step(d).expect("known solutions are legal");
            std::hint::black_box(outcome);
        }
        moves += steps.len() as u64;
    }
    let bare = figure(
        "sokoban",
        "bare_moves",
        "Board::step on known solutions",
        moves,
        start.elapsed(),
    );
    drop(boards);

    // Receipted: every move a command through Match::submit, with fingerprints and hashes.
    let bundle = Arc::new(
        ContentBundle::new("sokoban", SokobanContent::single("microban", levels))
            .expect("content fingerprints"),
    );
    let new_match = |level: u32| {
        Match::<Sokoban>::new(
            bundle.clone(),
            MatchSpec {
                config: SokobanConfig {
                    collection: "microban".into(),
                    level,
                    xsb: None,
                    topology: None,
                },
                seed: String::new(),
                seats: vec![SeatSpec::human()],
                tick_rate: 10,
            },
        )
        .expect("bundled levels set up")
    };
    let envelopes: Vec<Vec<CommandEnvelope<SokobanAction>>> = solutions
        .iter()
        .map(|(_, steps)| {
            steps
                .iter()
                .enumerate()
                .map(|(i, &direction)| CommandEnvelope {
                    command_id: format!("m{i}"),
                    seat: Some(Seat(0)),
                    expected_sequence: i as u64,
                    expected_step: None,
                    tick: i as u64,
                    action: SokobanAction::Move { direction },
                })
                .collect()
        })
        .collect();
    let mut matches: Vec<Match<Sokoban>> = solutions
        .iter()
        .map(|(level, _)| new_match(*level))
        .collect();
    let start = Instant::now();
    let mut receipted = 0u64;
    for (m, envelopes) in matches.iter_mut().zip(&envelopes) {
        for envelope in envelopes {
            m.submit(envelope.clone())
                .expect("known solutions are legal");
        }
        receipted += envelopes.len() as u64;
    }
    let with_receipts = figure(
        "sokoban",
        "receipted_commands",
        "Match::submit with fingerprints, view fingerprints and chained receipt hashes",
        receipted,
        start.elapsed(),
    );

    // Replay verification: each match's replay file, bundle decoding and revision included.
    let replays: Vec<ReplayFile> = matches
        .iter()
        .map(|m| ReplayFile::of_match(m).expect("replays serialize"))
        .collect();
    drop(matches);
    let start = Instant::now();
    let mut verified = 0u64;
    for replay in &replays {
        let report = verify::<Sokoban>(replay).expect("replays verify");
        assert!(report.divergence.is_none(), "a fresh replay diverged");
        verified += report.verified;
    }
    let replay = figure(
        "sokoban",
        "replay_verify",
        "turnstile replay verify: typed decode, re-execution and comparison of every receipt",
        verified,
        start.elapsed(),
    );
    Ok(vec![bare, with_receipts, replay])
}

/// The seed of every generator the m,n,k benchmarks draw from.
const SEED: &str = "bench";

/// Connect Four or Tic-Tac-Toe: random games bare and receipted, and the strong bot's search.
fn mnk<V: Searchable>(
    bundle: Result<ContentBundle<Rules>, Vec<ContentProblem>>,
    commands: u64,
) -> Result<Vec<Figure>, String> {
    let bundle = Arc::new(bundle.map_err(|problems| format!("{problems:?}"))?);
    let generator = || bot_generator(SEED, Seat(0)).map_err(|e| e.to_string());

    // Bare rules: the resolver's `apply_lean_into` (what a format-3 match runs) on a fresh state
    // per game, until 10 × `commands` moves.
    let mut rng = generator()?;
    let (mut games, mut moves) = (0u64, 0u64);
    let mut bare_games = BareGames::<MnkGame<V>>::new();
    let start = Instant::now();
    while moves < commands.saturating_mul(10) {
        moves += u64::from(bare_games.play(&bundle.content, &MatchConfig::default(), &mut rng)?);
        games += 1;
    }
    let took = start.elapsed();
    let bare = figure(
        V::ID,
        "random_games_bare",
        "complete random games on the bare rules: the resolver's apply_lean_into with one event list and one move list reused from game to game (Game::apply_lean: check then commit, events included, signals never made, as a format-3 match runs it)",
        moves,
        took,
    )
    .with_games(games, took);

    // The same games from the start, every move a command through Match::submit.
    let mut rng = generator()?;
    let (mut games, mut moves) = (0u64, 0u64);
    let start = Instant::now();
    while moves < commands {
        moves += u64::from(random_receipted_game::<MnkGame<V>>(
            bundle.clone(),
            MatchConfig::default(),
            SEED,
            &mut rng,
        )?);
        games += 1;
    }
    let took = start.elapsed();
    let receipted = figure(
        V::ID,
        "random_games_receipted",
        "the same random games through Match::submit: receipts, state and view fingerprints, chained hashes",
        moves,
        took,
    )
    .with_games(games, took);

    // Replay verification: the same games again, each match's replay file (built before the
    // clock starts) verified — typed envelopes, re-execution and comparison of every receipt
    // with the logged tree; at most 100 000 moves, since every file is held at once.
    let mut rng = generator()?;
    let (mut replays, mut logged) = (Vec::new(), 0u64);
    while logged < commands.min(100_000) {
        let game = random_receipted_match::<MnkGame<V>>(
            bundle.clone(),
            MatchConfig::default(),
            SEED,
            &mut rng,
        )?;
        logged += game.sequence();
        replays.push(ReplayFile::of_match(&game).map_err(|e| e.to_string())?);
    }
    // One verifier for the run, as a folder of replays is checked: the embedded bundle every
    // file shares is decoded, validated and fingerprinted once.
    let mut verifier = Verifier::<MnkGame<V>>::new();
    let start = Instant::now();
    let mut verified = 0u64;
    for replay in &replays {
        let report = verifier.verify(replay).map_err(|e| e.to_string())?;
        if let Some(d) = report.divergence {
            return Err(format!("a fresh replay diverged: {d:?}"));
        }
        verified += report.verified;
    }
    let took = start.elapsed();
    let replay = figure(
        V::ID,
        "replay_verify",
        "each game's replay file verified, one Verifier for the run (the shared bundle decoded once): typed envelopes, re-execution, every receipt compared with its logged tree",
        verified,
        took,
    )
    .with_games(replays.len() as u64, took);
    drop(replays);

    let bot = strong_bot::<V>(&bundle.content, (commands / 10_000).clamp(1, 1_000))?;
    let bytes = commands.clamp(1, 20_000);
    let lean = receipt_bytes::<V>(bundle.clone(), bytes, ReceiptFormat::V3)?;
    let before = receipt_bytes::<V>(bundle, bytes, ReceiptFormat::V2)?;
    Ok(vec![bare, receipted, replay, bot, lean, before])
}

/// What every receipted move serializes: the canonical bytes of the state after it as its
/// fingerprint hashes it (the lean form from format 3 on) and of its events (which the receipt
/// hash covers), averaged over the same random games as above until `commands` moves, in
/// receipt format `format` — the current one, and format 2 for the figures before signals left
/// receipts (issue 11.4). Measured, not timed.
fn receipt_bytes<V: Searchable>(
    bundle: Arc<ContentBundle<Rules>>,
    commands: u64,
    format: ReceiptFormat,
) -> Result<Figure, String> {
    use turnstile_core::determinism::canonical::to_canonical_string;
    let mut rng = bot_generator(SEED, Seat(0)).map_err(|e| e.to_string())?;
    let (mut moves, mut state_bytes, mut event_bytes) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    while moves < commands {
        let spec = MatchSpec {
            config: MatchConfig::default(),
            seed: SEED.into(),
            seats: vec![SeatSpec::human(); 2],
            tick_rate: 10,
        };
        let mut game =
            Match::<MnkGame<V>>::new_in(bundle.clone(), spec, format).map_err(|e| e.to_string())?;
        while game.state().result().is_none() {
            let seat = game.state().to_move().ok_or("no seat is to move")?;
            let mut actions = MnkGame::<V>::enumerate_actions(&bundle.content, game.state(), seat);
            let n = u32::try_from(actions.len()).map_err(|e| e.to_string())?;
            let action = actions.swap_remove(rng.below(n).map_err(|e| e.to_string())? as usize);
            let envelope = CommandEnvelope {
                command_id: format!("m{moves}"),
                seat: Some(seat),
                expected_sequence: game.sequence(),
                expected_step: None,
                tick: 0,
                action,
            };
            let accepted = game.submit(envelope).map_err(|r| r.to_string())?;
            let events =
                to_canonical_string(&accepted.receipt.events).map_err(|e| e.to_string())?;
            event_bytes += events.len() as u64;
            let state = if format.is_lean() {
                to_canonical_string(&<MnkGame<V> as Game>::fingerprint_form(game.state()))
            } else {
                to_canonical_string(game.state())
            }
            .map_err(|e| e.to_string())?;
            state_bytes += state.len() as u64;
            moves += 1;
        }
    }
    let mut f = figure(
        V::ID,
        "receipt_bytes",
        "canonical bytes per receipted move: the state after it (fingerprinted) and its events (hashed)",
        moves,
        start.elapsed(),
    );
    f.state_bytes_per_move = Some(state_bytes / moves.max(1));
    f.event_bytes_per_move = Some(event_bytes / moves.max(1));
    f.format = Some(format.number());
    Ok(f)
}

/// What the registry-driven lines start from: a game's shipped content, its default config
/// and the fewest seats it takes, every seat a `random` bot.
struct BotTable {
    compiled: turnstile_runtime::CompiledBundle,
    config: serde_json::Value,
    seats: u16,
}

impl BotTable {
    /// `None` for a game that ships no content.
    fn of(game: &dyn RegisteredGame) -> Result<Option<BotTable>, String> {
        let Some(compiled) = game.builtin_content() else {
            return Ok(None);
        };
        let compiled = compiled.map_err(|p| format!("{p:?}"))?;
        let config = game
            .describe()
            .default_config
            .unwrap_or(serde_json::Value::Null);
        let (seats, _) = game
            .seat_range(&compiled.bundle, &config)
            .map_err(|e| e.to_string())?;
        Ok(Some(BotTable {
            compiled,
            config,
            seats,
        }))
    }

    /// A new match at sequence 0 with `seed`, bots at every seat.
    fn new_match(
        &self,
        game: &dyn RegisteredGame,
        seed: String,
    ) -> Result<Box<dyn turnstile_runtime::ErasedMatch>, String> {
        let spec = ErasedSpec {
            config: self.config.clone(),
            seed,
            seats: vec![
                SeatSpec {
                    kind: SeatKind::Bot,
                    bot: Some("random".into()),
                };
                usize::from(self.seats)
            ],
            tick_rate: 10,
        };
        game.new_match(&self.compiled.bundle, spec)
            .map_err(|e| e.to_string())
    }
}

/// Any registered game with shipped content, through the registry alone (no per-game code):
/// matches of `random` bots at every seat under the default config, every move a bot's choice
/// through the resolver submitted as JSON through `ErasedMatch::submit` — receipts,
/// fingerprints, hashes and the JSON edge — until `commands` moves.
fn registered(game: &dyn RegisteredGame, commands: u64) -> Result<Vec<Figure>, String> {
    let id = game.id();
    let Some(table) = BotTable::of(game)? else {
        return Ok(Vec::new());
    };
    let (mut games, mut moves) = (0u64, 0u64);
    let mut took = Duration::ZERO;
    while moves < commands {
        let mut erased = table.new_match(game, format!("{SEED}-{games}"))?;
        let start = Instant::now();
        let before = moves;
        while erased.status() == turnstile_core::MatchStatus::Active {
            let tick = erased.last_tick();
            let Some((seat, action)) = (0..table.seats)
                .map(Seat)
                .find_map(|s| erased.bot_action(s, tick).map(|a| (s, a)))
            else {
                break; // no seat can move: a puzzle stuck, or a game waiting on time
            };
            let command = ErasedCommand {
                command_id: format!("m{moves}"),
                seat: Some(seat),
                expected_sequence: erased.sequence(),
                expected_step: None,
                tick,
                action,
            };
            erased.submit(command).map_err(|r| r.to_string())?;
            moves += 1;
        }
        took += start.elapsed();
        games += 1;
        if moves == before && games > 100 {
            return Err("the random bots found no move in 100 matches".into());
        }
    }
    Ok(vec![figure(
        id,
        "random_games_registered",
        "random bots at every seat through the registry: ErasedMatch::submit with JSON actions, receipts, fingerprints, hashes",
        moves,
        took,
    )
    .with_games(games, took)])
}

/// clover's own lines (docs/clover.md, Performance): `score_hand` on the shared workload
/// (five jokers, retriggers, held effects; `turnstile_clover::benchmark`) without and with the
/// step list, hands as commands; and whole greedy-bot runs on the bare state (no match), their
/// commands as commands and the runs as games.
fn clover(commands: u64) -> Result<Vec<Figure>, String> {
    use turnstile_clover::{benchmark, score_hand, CloverContent};
    let shipped = CloverContent::shipped().map_err(|p| format!("{p:?}"))?;
    let content = shipped.content();
    let (base, played, held) = benchmark::scoring_workload(content)?;
    let hands = commands;
    let mut lines = Vec::new();
    for (bench, what, record) in [
        (
            "score_hand",
            "score_hand with five jokers, red seals, a face retrigger and held effects, no step list",
            false,
        ),
        (
            "score_hand_steps",
            "the same hand scored with its step list recorded",
            true,
        ),
    ] {
        let mut run = base.clone();
        let start = Instant::now();
        for _ in 0..hands {
            let receipt = score_hand(&mut run, content, &played, &held, record)
                .map_err(|e| e.to_string())?;
            std::hint::black_box(receipt);
        }
        lines.push(figure("clover", bench, what, hands, start.elapsed()));
    }
    let (mut runs, mut moves) = (0u64, 0u64);
    let start = Instant::now();
    while moves < commands {
        moves += u64::from(benchmark::bot_run(&shipped, &format!("{SEED}-{runs}"))?);
        runs += 1;
    }
    let took = start.elapsed();
    lines.push(
        figure(
            "clover",
            "bot_runs",
            "whole greedy-bot runs on the bare state (no match), each until lost or 400 commands",
            moves,
            took,
        )
        .with_games(runs, took),
    );
    Ok(lines)
}

/// Matches held at once by the memory line.
const MEMORY_MATCHES: u64 = 1_000;

/// Moves played into each match of the memory line before it is measured (a Connect Four match
/// mid-game; a Duel match a few activations in; a clover run a few hands in).
const MEMORY_MOVES: u64 = 10;

/// What one loaded match costs in memory: [`MEMORY_MATCHES`] matches of the registered game,
/// each with up to [`MEMORY_MOVES`] moves of `random` bots submitted through the registry (its
/// log, receipts, snapshots and state, as a server holds them), all held at once; the growth of
/// the process's resident memory divided by their number. Resident memory, not a sum of
/// allocations: it includes the allocator's own overhead, as a server's would, and is measured
/// by the operating system, so the allocator itself stays uninstrumented for the timed lines.
/// No line where resident memory cannot be read, or for a game without shipped content.
fn memory(game: &dyn RegisteredGame) -> Result<Vec<Figure>, String> {
    let id = game.id();
    let Some(table) = BotTable::of(game)? else {
        return Ok(Vec::new());
    };
    let Some(before) = resident_bytes() else {
        return Ok(Vec::new());
    };
    let start = Instant::now();
    let mut held = Vec::new();
    let mut moves = 0u64;
    for n in 0..MEMORY_MATCHES {
        let mut erased = table.new_match(game, format!("{SEED}-memory-{n}"))?;
        for i in 0..MEMORY_MOVES {
            if erased.status() != turnstile_core::MatchStatus::Active {
                break;
            }
            let tick = erased.last_tick();
            let Some((seat, action)) = (0..table.seats)
                .map(Seat)
                .find_map(|s| erased.bot_action(s, tick).map(|a| (s, a)))
            else {
                break;
            };
            let command = ErasedCommand {
                command_id: format!("m{i}"),
                seat: Some(seat),
                expected_sequence: erased.sequence(),
                expected_step: None,
                tick,
                action,
            };
            erased.submit(command).map_err(|r| r.to_string())?;
            moves += 1;
        }
        held.push(erased);
    }
    let took = start.elapsed();
    let after = resident_bytes().unwrap_or(before);
    drop(held);
    let mut f = figure(
        id,
        "memory_per_match",
        "resident bytes per loaded match: matches of random bots through the registry, each a few moves in, all held at once",
        moves,
        took,
    );
    f.matches = Some(MEMORY_MATCHES);
    f.bytes_per_match = Some(after.saturating_sub(before) / MEMORY_MATCHES);
    Ok(vec![f])
}

/// `games` games of the strong bot (seat 0) against uniformly random moves (seat 1) on the bare
/// rules, timing only the bot's choices.
fn strong_bot<V: Searchable>(rules: &Rules, games: u64) -> Result<Figure, String> {
    let resolver = LegalActionResolver::<MnkGame<V>>::new(rules, 2);
    let mut bot = StrongBot::<V>::new(SEED, Seat(0)).map_err(|e| e.to_string())?;
    let mut rng: Pcg32 = bot_generator(SEED, Seat(1)).map_err(|e| e.to_string())?;
    let (mut choices, mut nodes, mut took) = (0u64, 0u64, Duration::ZERO);
    for _ in 0..games {
        let setup = MatchSetup {
            config: &MatchConfig::default(),
            seed: SEED,
            seats: 2,
        };
        let mut state = MnkGame::<V>::setup(rules, setup).map_err(|e| e.to_string())?;
        while state.result().is_none() {
            let seat = state.to_move().ok_or("no seat is to move")?;
            let action = if seat == Seat(0) {
                let start = Instant::now();
                let action = bot.choose(&resolver, &state, seat, 0);
                took += start.elapsed();
                choices += 1;
                nodes += bot.last_report().map_or(0, |r| r.nodes);
                action.ok_or("the strong bot found no move")?
            } else {
                let mut actions = MnkGame::<V>::enumerate_actions(rules, &state, seat);
                let n = u32::try_from(actions.len()).map_err(|e| e.to_string())?;
                let pick = rng.below(n).map_err(|e| e.to_string())?;
                actions.swap_remove(pick as usize)
            };
            let ctx = CommandContext {
                seat: Some(seat),
                tick: 0,
            };
            resolver
                .apply(&mut state, ctx, &action)
                .map_err(|r| r.to_string())?;
        }
    }
    Ok(figure(
        V::ID,
        "strong_bot_nodes",
        "the strong bot's choices against random moves: candidates, position and bounded alpha-beta search",
        choices,
        took,
    )
    .with_nodes(nodes, took))
}
