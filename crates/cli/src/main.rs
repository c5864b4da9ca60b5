//! `turnstile`: the one binary. Every subcommand lives in its own module; this file only parses
//! the command line and dispatches. Exit codes: 0 success, 1 a check failed, 2 usage, 3 input or
//! I/O error.
#![forbid(unsafe_code)]

mod bench;
mod chaos;
mod clover_cmd;
mod clover_play;
mod content_cmd;
mod content_schemas;
mod duel_play;
mod exit;
mod generic_play;
mod loadtest_cmd;
mod play;
mod publish_cmd;
mod replay_cmd;
mod serve_cmd;
mod sokoban_cmd;
mod sokoban_file;
mod sokoban_solve;
mod sokoban_tui;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use turnstile_runtime::GameRegistry;

/// Turnstile: a deterministic rules engine and authoritative server for turn-based games.
#[derive(Parser)]
#[command(name = "turnstile", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// clover tools: the score calculator.
    Clover {
        #[command(subcommand)]
        command: CloverCommand,
    },
    /// Play a game in the terminal: connect4, tictactoe, duel, clover or any registered game.
    /// Seats are numbered from 0, as in the API; cards and options you type count from 1. Every
    /// seat is a person unless `--seat N=bot:random|bot:strong` says otherwise (clover has one
    /// seat; `--seat 0=bot` lets its greedy bot play the run). Duel takes `--seats 2..4`,
    /// `--clock untimed|standard|blitz` and `--preset`.
    Play {
        /// connect4, tictactoe, duel or clover.
        game: String,
        /// Who sits where, e.g. `--seat 1=bot:strong` (default: a person in every seat; clover's
        /// one seat is a person unless `--seat 0=bot`).
        #[arg(long = "seat")]
        seats: Vec<String>,
        /// The match seed (default: a random one, printed at the start).
        #[arg(long)]
        seed: Option<String>,
        /// A turn config of the game's content, e.g. `timed` (default: the content's own default
        /// turn config, `untimed` for the shipped grid games).
        #[arg(long)]
        turn_config: Option<String>,
        /// Duel's phase preset: classic-style, hearthstone-style or priority-window (default:
        /// classic-style).
        #[arg(long)]
        preset: Option<String>,
        /// How many seats, numbered from 0: Duel 2 to 4, and any other game within the range its
        /// content allows (Pig 2 to 4); default: the fewest the game takes.
        #[arg(long = "seats")]
        seat_count: Option<u16>,
        /// Duel's clock: untimed, standard or blitz (default: the content's, untimed; other
        /// games take `--turn-config`).
        #[arg(long)]
        clock: Option<String>,
        /// clover: write the run's replay file here when it ends or you quit.
        #[arg(long)]
        replay: Option<PathBuf>,
    },
    /// Sokoban level collections: play, check, verify, solve, optimize.
    Sokoban {
        #[command(subcommand)]
        command: SokobanCommand,
    },
    /// Replay files.
    Replay {
        #[command(subcommand)]
        command: ReplayCommand,
    },
    /// Content bundles.
    Content {
        #[command(subcommand)]
        command: ContentCommand,
    },
    /// The server and web client (SQLite `./turnstile.db` by default; prints the database and
    /// the address at start).
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// A SQLite file or a `postgres://` URL.
        #[arg(long, default_value = "./turnstile.db")]
        database: String,
        /// The admin token that may publish content over HTTP (none: publishing is off).
        /// Visible to every user of the machine in `ps`: prefer `TURNSTILE_ADMIN_TOKEN` or
        /// `--admin-token-file`.
        #[arg(long)]
        admin_token: Option<String>,
        /// A file whose contents (one line) are the admin token.
        #[arg(long, value_name = "PATH")]
        admin_token_file: Option<std::path::PathBuf>,
        /// Seconds a client may take to send a request head (also how long an idle
        /// keep-alive connection stays open).
        #[arg(long, value_name = "SECS", default_value_t = 10)]
        header_timeout: u64,
        /// Seconds a connection may go with no byte moving either way before it is closed.
        #[arg(long, value_name = "SECS", default_value_t = 60)]
        idle_timeout: u64,
        /// The most connections open at once (a connection beyond it is closed on accept).
        #[arg(long, value_name = "N", default_value_t = 4096)]
        max_connections: usize,
        /// The most live event streams one token may hold open at once.
        #[arg(long, value_name = "N", default_value_t = 16)]
        streams_per_token: usize,
        /// An origin allowed by CORS (repeatable; none: CORS off).
        #[arg(long = "cors-origin")]
        cors_origin: Vec<String>,
        /// Commands per second per seat token (0: unlimited).
        #[arg(long, default_value_t = 50)]
        command_rate: u32,
        /// Matches created per minute per client address (0: unlimited).
        #[arg(long, default_value_t = 120)]
        create_rate: u32,
        /// Take client addresses from `X-Forwarded-For` (only behind a trusted proxy).
        #[arg(long)]
        trust_forwarded_for: bool,
        /// This node's id in leases (default: `local` on SQLite, random on PostgreSQL).
        #[arg(long)]
        node_id: Option<String>,
        /// Development mode: the debug panel may show a running match's full state (never on
        /// a public server: it reveals hands and decks).
        #[arg(long)]
        dev: bool,
        /// Seconds a timed match's clock waits for every human seat to open the board before
        /// it starts anyway.
        #[arg(long, default_value_t = 30)]
        clock_start_wait: u64,
    },
    /// Bounded load against a server on this machine; prints commands/s and latency as JSON.
    Loadtest {
        /// The server's address, on loopback (127.0.0.1:PORT).
        #[arg(long)]
        addr: String,
        /// Concurrent matches (1 to 5000).
        #[arg(long, default_value_t = 100)]
        matches: u32,
        /// Seconds of load (1 to 600).
        #[arg(long, default_value_t = 10)]
        duration: u64,
    },
    /// Failure campaigns: kill -9 cycles of the server under load, load through several nodes,
    /// and the checks that nothing acknowledged was lost or applied twice.
    Chaos {
        #[command(subcommand)]
        command: chaos::ChaosCommand,
    },
    /// End-to-end throughput of a game's rules, receipts and replays, as JSON lines.
    Bench {
        /// A game id, or `all`.
        game: String,
        /// Commands per measured run (more is steadier, slower).
        #[arg(long, default_value_t = 200_000)]
        commands: u64,
        /// Only the memory line, measured in this process (the bench runs itself this way, so
        /// that the memory of a loaded match is measured in a fresh process).
        #[arg(long, hide = true)]
        memory_only: bool,
    },
}

#[derive(Subcommand)]
enum CloverCommand {
    /// Score a played hand described in JSON (FILE, or - for standard input) and print the
    /// score receipt: hand, scoring cards, chips, mult, score and every step.
    Score {
        /// The hand description (see docs/clover.md), or `-`.
        file: String,
        /// Print the receipt as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum SokobanCommand {
    /// Play a level collection in the terminal (arrows/WASD, u undo, r redo, Backspace restart,
    /// n/p next/previous level, q quit).
    Play {
        /// An XSB or Hexoban (.hsb) collection, or a numeric-grid level file.
        file: PathBuf,
        /// The level to start at, from 1 in file order.
        #[arg(long, default_value_t = 1)]
        level: u32,
        /// Write the replay of the last level played to this file when leaving it.
        #[arg(long)]
        replay_out: Option<PathBuf>,
    },
    /// Validate every level of the files; one line per invalid level and a summary.
    Check {
        /// XSB or Hexoban (.hsb) collections, or numeric-grid files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Replay a LURD solution on a level; exit 0 only if it solves it.
    Verify {
        /// An XSB or Hexoban (.hsb) collection, or a numeric-grid level file.
        file: PathBuf,
        /// The level, from 1 in file order.
        #[arg(long)]
        level: u32,
        /// The moves in LURD notation (lower case walks, upper case pushes).
        #[arg(long)]
        solution: String,
        /// Also write the match's replay file here.
        #[arg(long)]
        replay_out: Option<PathBuf>,
    },
    /// Solve levels: per level, solved or not, the LURD solution, moves, pushes, time, nodes.
    /// Exit 0 when every level asked for is solved, 1 otherwise.
    Solve {
        /// An XSB or Hexoban (.hsb) collection, or a numeric-grid level file.
        file: PathBuf,
        /// Only this level, from 1 in file order (default: every level, with a progress bar).
        #[arg(long)]
        level: Option<u32>,
        /// Solve for the fewest pushes or moves (proven optimal; for small levels).
        #[arg(long, value_enum)]
        optimal: Option<sokoban_solve::Metric>,
        /// One JSON object per level on standard output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        budget: SolverBudget,
    },
    /// Shorten a LURD solution: loops cut, walks re-planned, then an optimal search bounded by
    /// it. Exit 0 with the (verified) best solution found, 1 if the given one does not solve.
    Optimize {
        /// An XSB or Hexoban (.hsb) collection, or a numeric-grid level file.
        file: PathBuf,
        /// The level, from 1 in file order.
        #[arg(long)]
        level: u32,
        /// The solution to shorten, in LURD.
        #[arg(long)]
        solution: String,
        /// What to minimize (the other count breaks ties).
        #[arg(long, value_enum, default_value = "moves")]
        metric: sokoban_solve::Metric,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        budget: SolverBudget,
    },
}

/// The solver's budget flags.
#[derive(clap::Args)]
struct SolverBudget {
    /// Seconds per level.
    #[arg(long, default_value_t = 10)]
    time_limit: u64,
    /// Parallel searches per level (a portfolio of strategies; results may differ run to run).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Memory for the search's tables, in GiB (e.g. 2 or 0.5); running out is "not solved".
    #[arg(long, default_value = "1")]
    memory_limit: String,
    /// Nodes per level and thread (default: no limit but time and memory).
    #[arg(long)]
    nodes: Option<u64>,
}

impl SolverBudget {
    fn budget(self) -> sokoban_solve::Budget {
        sokoban_solve::Budget {
            time_limit: self.time_limit,
            nodes: self.nodes,
            memory_limit: self.memory_limit,
            threads: self.threads,
        }
    }
}

#[derive(Subcommand)]
enum ReplayCommand {
    /// Re-execute a replay file; exit 0 when every fingerprint and receipt hash matches, 1 on a
    /// divergence, 3 when the file is unreadable or of an unknown format or game.
    Verify {
        /// The replay file.
        file: PathBuf,
    },
}

#[derive(Subcommand)]
enum ContentCommand {
    /// Load a bundle folder and report every problem; exit 1 on any problem, 3 when unreadable.
    Validate {
        /// The bundle folder (holding bundle.json).
        dir: PathBuf,
    },
    /// Write the JSON Schemas of every content file type (default into docs/schemas).
    Schema {
        /// The folder to write them into.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print a game's content counts per kind and its number of Custom effect rows.
    Report {
        /// The game id.
        game: String,
    },
    /// Publish a bundle folder as its game's current revision, through a server or straight
    /// into a database; running matches keep their revision.
    Publish {
        /// The bundle folder (holding bundle.json).
        dir: PathBuf,
        /// A running server's base URL (with --admin-token).
        #[arg(long, requires = "admin_token", conflicts_with = "database")]
        server: Option<String>,
        /// The server's admin token.
        #[arg(long)]
        admin_token: Option<String>,
        /// A SQLite file or a `postgres://` URL.
        #[arg(long, required_unless_present = "server")]
        database: Option<String>,
    },
}

/// The games this binary serves.
fn registry() -> GameRegistry {
    turnstile_samples::registry()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let registry = registry();
    let outcome = match cli.command {
        Command::Clover {
            command: CloverCommand::Score { file, json },
        } => clover_cmd::score(&file, json),
        Command::Play {
            game,
            seats,
            seed,
            turn_config,
            preset,
            seat_count,
            clock,
            replay,
        } => match game.as_str() {
            "clover" => clover_play::run(&seats, seed, replay.as_deref()),
            _ if replay.is_some() => exit::Outcome::usage("--replay is for clover"),
            "duel" if turn_config.is_some() => {
                exit::Outcome::usage("Duel's turn configs are its clocks: use --clock")
            }
            "duel" => duel_play::run(duel_play::DuelPlay {
                seats: &seats,
                seat_count,
                seed: &seed.unwrap_or_else(play::fresh_seed),
                preset,
                clock,
            }),
            _ if clock.is_some() || preset.is_some() => {
                exit::Outcome::usage("--clock and --preset are Duel's")
            }
            "connect4" | "tictactoe" if seat_count.is_some_and(|n| n != 2) => {
                exit::Outcome::usage(format!("--seats: {game} is played by 2 seats"))
            }
            "connect4" | "tictactoe" => play::play(&game, &seats, seed, turn_config),
            // Every other registered game: the registry's generic terminal player.
            _ => generic_play::run(&registry, &game, &seats, seed, turn_config, seat_count),
        },
        Command::Sokoban { command } => match command {
            SokobanCommand::Play {
                file,
                level,
                replay_out,
            } => sokoban_tui::play(&file, level, replay_out.as_deref()),
            SokobanCommand::Check { files } => sokoban_cmd::check(&files),
            SokobanCommand::Verify {
                file,
                level,
                solution,
                replay_out,
            } => sokoban_cmd::verify(&file, level, &solution, replay_out.as_deref()),
            SokobanCommand::Solve {
                file,
                level,
                optimal,
                json,
                budget,
            } => sokoban_solve::solve(&sokoban_solve::SolveArgs {
                file: &file,
                level,
                budget: budget.budget(),
                optimal,
                json,
            }),
            SokobanCommand::Optimize {
                file,
                level,
                solution,
                metric,
                json,
                budget,
            } => sokoban_solve::optimize(&file, level, &solution, metric, &budget.budget(), json),
        },
        Command::Replay {
            command: ReplayCommand::Verify { file },
        } => replay_cmd::verify(&registry, &file),
        Command::Content {
            command: ContentCommand::Validate { dir },
        } => content_cmd::validate(&registry, &dir),
        Command::Content {
            command: ContentCommand::Schema { out },
        } => content_cmd::schema(out.as_deref()),
        Command::Content {
            command: ContentCommand::Report { game },
        } => content_cmd::report(&registry, &game),
        Command::Content {
            command:
                ContentCommand::Publish {
                    dir,
                    server,
                    admin_token,
                    database,
                },
        } => publish_cmd::run(
            &dir,
            match (server, admin_token, database) {
                (Some(url), Some(admin_token), _) => {
                    publish_cmd::Target::Server { url, admin_token }
                }
                (_, _, Some(database)) => publish_cmd::Target::Database(database),
                _ => {
                    return exit::Outcome::usage("give --server URL --admin-token T, or --database")
                        .finish()
                }
            },
        ),
        Command::Serve {
            addr,
            database,
            admin_token,
            admin_token_file,
            header_timeout,
            idle_timeout,
            max_connections,
            streams_per_token,
            cors_origin,
            command_rate,
            create_rate,
            trust_forwarded_for,
            node_id,
            dev,
            clock_start_wait,
        } => serve_cmd::run(serve_cmd::ServeArgs {
            addr,
            database,
            admin_token,
            admin_token_file,
            admin_token_env: std::env::var_os(serve_cmd::ADMIN_TOKEN_ENV),
            header_timeout,
            idle_timeout,
            max_connections,
            streams_per_token,
            cors_origins: cors_origin,
            command_rate,
            create_rate,
            trust_forwarded_for,
            node_id,
            dev,
            clock_start_wait,
        }),
        Command::Loadtest {
            addr,
            matches,
            duration,
        } => loadtest_cmd::run(loadtest_cmd::LoadArgs {
            addr,
            matches,
            duration_s: duration,
        }),
        Command::Bench {
            game,
            commands,
            memory_only,
        } => bench::run(&registry, &game, commands, memory_only),
        Command::Chaos { command } => chaos::run(&registry, command),
    };
    outcome.finish()
}
