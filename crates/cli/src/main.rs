//! `turnstile`: the one binary. Every subcommand lives in its own module; this file only parses
//! the command line and dispatches. Exit codes: 0 success, 1 a check failed, 2 usage, 3 input or
//! I/O error.
#![forbid(unsafe_code)]

mod bench;
mod content_cmd;
mod exit;
mod play;
mod replay_cmd;
mod sokoban_cmd;
mod sokoban_file;
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
    /// Play a two-seat game in the terminal: connect4 or tictactoe. Seats are numbered from 0;
    /// each `--seat N=human|bot:random|bot:strong` (default human).
    Play {
        /// connect4 or tictactoe.
        game: String,
        /// Who sits where, e.g. `--seat 1=bot:strong`.
        #[arg(long = "seat")]
        seats: Vec<String>,
        /// The match seed (random when absent; printed at the start).
        #[arg(long)]
        seed: Option<String>,
        /// A turn config of the game's content (e.g. a timed one).
        #[arg(long)]
        turn_config: Option<String>,
    },
    /// Sokoban level collections: play, check, verify.
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
    /// End-to-end throughput of a game's rules, receipts and replays, as JSON lines.
    Bench {
        /// A game id, or `all`.
        game: String,
        /// Commands per measured run (more is steadier, slower).
        #[arg(long, default_value_t = 200_000)]
        commands: u64,
    },
}

#[derive(Subcommand)]
enum SokobanCommand {
    /// Play a level collection in the terminal (arrows/WASD, u undo, r redo, Backspace restart,
    /// n/p next/previous level, q quit).
    Play {
        /// An XSB collection or a numeric-grid level file.
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
        /// XSB collections or numeric-grid files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Replay a LURD solution on a level; exit 0 only if it solves it.
    Verify {
        /// An XSB collection or a numeric-grid level file.
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
}

/// The games this binary serves.
fn registry() -> GameRegistry {
    let mut registry = GameRegistry::new();
    registry.register::<turnstile_sokoban::Sokoban>();
    registry.register::<turnstile_connect4::ConnectFour>();
    registry.register::<turnstile_tictactoe::TicTacToe>();
    registry
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let registry = registry();
    let outcome = match cli.command {
        Command::Play {
            game,
            seats,
            seed,
            turn_config,
        } => play::play(&game, &seats, seed, turn_config),
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
        },
        Command::Replay {
            command: ReplayCommand::Verify { file },
        } => replay_cmd::verify(&registry, &file),
        Command::Content {
            command: ContentCommand::Validate { dir },
        } => content_cmd::validate(&registry, &dir),
        Command::Bench { game, commands } => bench::run(&game, commands),
    };
    outcome.finish()
}
