//! `turnstile play GAME` for any registered game without a terminal front-end of its own (Nim,
//! a team's kit game): driven by the registry alone, through `ErasedMatch` and JSON.
//!
//! Each turn it shows the match's view as JSON, then, for a person's seat, the seat's legal
//! actions numbered from 1 (the resolver's candidates, then the bare kinds such as `skip` and
//! `resign` that candidates leave out); the person types a number, or `q` to quit. Bot seats
//! (`--seat N=bot:NAME`, any bot the game registered, `random` always) choose through the same
//! resolver. Time is read at this edge, as in `play.rs`: ticks since the match began × the tick
//! rate, and a passed deadline is applied as the server would — the game's system `Timeout`,
//! stamped with the deadline — once the next line has been read.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use serde_json::Value;
use turnstile_core::{MatchStatus, Seat, Tick};
use turnstile_runtime::{
    ErasedCommand, ErasedMatch, ErasedSpec, GameRegistry, SeatKind, SeatSpec, DEFAULT_TICK_RATE,
};

use crate::exit::Outcome;

/// Plays `game` from the registry in the terminal, reading standard input.
pub fn run(
    registry: &GameRegistry,
    game: &str,
    seats: &[String],
    seed: Option<String>,
    turn_config: Option<String>,
    seat_count: Option<u16>,
) -> Outcome {
    let start = Instant::now();
    let clock = move || {
        let millis = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        millis.saturating_mul(u64::from(DEFAULT_TICK_RATE)) / 1000
    };
    let seed = seed.unwrap_or_else(|| format!("play-{}", clock()));
    let stdin = io::stdin();
    let stdout = io::stdout();
    let input = stdin.lock();
    let mut out = stdout.lock();
    let setup = Setup {
        game,
        seats,
        seed: &seed,
        turn_config,
        seat_count,
    };
    play_with(registry, setup, input, &mut out, clock)
}

/// What a match is started with.
pub struct Setup<'a> {
    /// The game id.
    pub game: &'a str,
    /// `N=human|bot:NAME` per seat; unnamed seats are human.
    pub seats: &'a [String],
    /// The match seed.
    pub seed: &'a str,
    /// A turn config of the content (for games whose config has `turnConfig`).
    pub turn_config: Option<String>,
    /// How many seats (`--seats`), within the range the content and config allow; the
    /// range's minimum when absent.
    pub seat_count: Option<u16>,
}

/// The player over any input, output and clock (the tests drive it with a script).
pub fn play_with(
    registry: &GameRegistry,
    setup: Setup<'_>,
    input: impl BufRead,
    out: &mut impl Write,
    mut clock: impl FnMut() -> Tick,
) -> Outcome {
    let mut game = match start(registry, &setup) {
        Ok(game) => game,
        Err(outcome) => return outcome,
    };
    let _ = writeln!(
        out,
        "{}: {}; seed {:?}. Type an action's number, or q to quit.",
        setup.game,
        crate::sokoban_cmd::counted(game.seat_count(), "seat", "seats"),
        setup.seed
    );
    let mut lines = input.lines();
    let mut shown = None;
    let mut issued = 0u64;
    loop {
        if shown != Some(game.sequence()) {
            if let Ok(view) = game.view(turnstile_core::Viewer::Spectator) {
                let _ = writeln!(out, "{}", view.view);
            }
            shown = Some(game.sequence());
        }
        if let MatchStatus::Finished { outcome } = game.status() {
            let winners: Vec<String> = outcome.winners.iter().map(Seat::to_string).collect();
            let _ = writeln!(
                out,
                "The match is over: {} (winners: {}).",
                outcome.kind,
                if winners.is_empty() {
                    "none".into()
                } else {
                    winners.join(", ")
                }
            );
            return Outcome::ok();
        }
        let now = clock().max(game.last_tick());
        if let Some(timeout) = game.timeout_command().filter(|t| t.tick <= now) {
            let command = ErasedCommand {
                command_id: timeout.command_id,
                seat: None,
                expected_sequence: game.sequence(),
                expected_step: None,
                tick: timeout.tick,
                action: timeout.action,
            };
            if let Err(refusal) = game.submit(command) {
                return Outcome::check_failed(format!("the timeout was refused: {refusal:?}"));
            }
            let _ = writeln!(out, "The turn ran out of time.");
            continue;
        }
        let Some((seat, choices)) = to_move(game.as_ref(), now) else {
            if game.deadline_tick().is_some() {
                continue; // nobody can act before the deadline: wait for it
            }
            return Outcome::check_failed("the match is running but no seat can act");
        };
        let action = if game.bot_seats().contains(&seat) {
            let Some(action) = game.bot_action(seat, now) else {
                return Outcome::check_failed(format!("the bot of seat {seat} found no move"));
            };
            let _ = writeln!(out, "Seat {seat} (bot) plays {action}.");
            action
        } else {
            for (i, choice) in choices.iter().enumerate() {
                let _ = writeln!(out, "  {}. {choice}", i + 1);
            }
            let _ = write!(out, "Seat {seat}, your action (1-{}): ", choices.len());
            let _ = out.flush();
            let line = match lines.next() {
                Some(Ok(line)) => line,
                Some(Err(e)) => return Outcome::input(format!("cannot read standard input: {e}")),
                None => return Outcome::ok(),
            };
            let typed = line.trim();
            if typed == "q" || typed == "quit" {
                return Outcome::ok();
            }
            match typed
                .parse::<usize>()
                .ok()
                .and_then(|n| choices.get(n.wrapping_sub(1)))
            {
                Some(choice) => choice.clone(),
                None => {
                    let _ = writeln!(out, "Not a choice: type 1 to {}, or q.", choices.len());
                    continue;
                }
            }
        };
        issued += 1;
        let command = ErasedCommand {
            command_id: format!("cli-{issued}"),
            seat: Some(seat),
            expected_sequence: game.sequence(),
            expected_step: None,
            tick: clock().max(game.last_tick()),
            action,
        };
        if let Err(refusal) = game.submit(command) {
            let _ = writeln!(out, "Refused: {refusal:?}");
        }
    }
}

/// Creates the match from the game's shipped content and default config.
fn start(registry: &GameRegistry, setup: &Setup<'_>) -> Result<Box<dyn ErasedMatch>, Outcome> {
    let Some(registered) = registry.get(setup.game) else {
        return Err(Outcome::usage(format!(
            "unknown game {:?}; play knows {}",
            setup.game,
            registry.ids().join(", ")
        )));
    };
    let compiled = match registered.builtin_content() {
        Some(Ok(compiled)) => compiled,
        Some(Err(problems)) => {
            return Err(Outcome::input(format!(
                "the shipped {} content is invalid: {problems:?}",
                setup.game
            )))
        }
        None => {
            return Err(Outcome::usage(format!(
                "{} ships no content to play from",
                setup.game
            )))
        }
    };
    let description = registered.describe();
    let mut config = description.default_config.unwrap_or(Value::Null);
    if let Some(id) = &setup.turn_config {
        match &mut config {
            Value::Object(fields) => {
                fields.insert("turnConfig".into(), Value::String(id.clone()));
            }
            _ => config = serde_json::json!({ "turnConfig": id }),
        }
    }
    let (fewest, most) = registered
        .seat_range(&compiled.bundle, &config)
        .map_err(|e| Outcome::usage(format!("the config is refused: {e}")))?;
    let count = match setup.seat_count {
        None => fewest,
        Some(n) if (fewest..=most).contains(&n) => n,
        Some(n) if fewest == most => {
            return Err(Outcome::usage(format!(
                "--seats {n}: {} is played by {fewest} seats",
                setup.game
            )))
        }
        Some(n) => {
            return Err(Outcome::usage(format!(
                "--seats {n}: {} takes {fewest} to {most} seats",
                setup.game
            )))
        }
    };
    let seats = seat_specs(setup.seats, count, &description.bots).map_err(Outcome::usage)?;
    let spec = ErasedSpec {
        config,
        seed: setup.seed.into(),
        seats,
        tick_rate: DEFAULT_TICK_RATE,
    };
    registered
        .new_match(&compiled.bundle, spec)
        .map_err(|e| Outcome::usage(format!("cannot start the match: {e}")))
}

/// `N=human|bot:NAME` for seats 0 to `count − 1`; unnamed seats are human.
fn seat_specs(args: &[String], count: u16, bots: &[String]) -> Result<Vec<SeatSpec>, String> {
    let mut seats = vec![None; usize::from(count)];
    for arg in args {
        let (seat, who) = arg
            .split_once('=')
            .ok_or_else(|| format!("--seat {arg:?}: expected N=human|bot:NAME"))?;
        let index = seat
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|i| *i < seats.len())
            .ok_or_else(|| format!("--seat {arg:?}: the seats are 0 to {}", count - 1))?;
        let spec = match who.trim() {
            "human" => SeatSpec::human(),
            bot => match bot.strip_prefix("bot:") {
                Some(name) if name == "random" || bots.iter().any(|b| b == name) => SeatSpec {
                    kind: SeatKind::Bot,
                    bot: Some(name.into()),
                },
                _ => {
                    return Err(format!(
                        "--seat {arg:?}: unknown player; expected human or bot:NAME, NAME one of random{}",
                        bots.iter().map(|b| format!(", {b}")).collect::<String>()
                    ))
                }
            },
        };
        if seats[index].replace(spec).is_some() {
            return Err(format!("--seat {index} is given twice"));
        }
    }
    Ok(seats
        .into_iter()
        .map(|s| s.unwrap_or_else(SeatSpec::human))
        .collect())
}

/// The first seat that can act at `tick`, with its choices: the resolver's candidates, then
/// each bare legal kind (`skip`, `resign`) they leave out.
fn to_move(game: &dyn ErasedMatch, tick: Tick) -> Option<(Seat, Vec<Value>)> {
    (0..game.seat_count()).map(Seat).find_map(|seat| {
        let mut choices = game.candidates(seat, tick).ok()?;
        if choices.is_empty() {
            return None;
        }
        for kind in game.legal_actions(seat).ok()? {
            let bare = serde_json::json!({ "type": kind.kind });
            if kind.params.is_empty() && !choices.contains(&bare) {
                choices.push(bare);
            }
        }
        Some((seat, choices))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_script(game: &str, seats: &[&str], script: &str) -> (Outcome, String) {
        run_seated(game, seats, None, script)
    }

    fn run_seated(
        game: &str,
        seats: &[&str],
        seat_count: Option<u16>,
        script: &str,
    ) -> (Outcome, String) {
        let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
        let setup = Setup {
            game,
            seats: &seats,
            seed: "generic",
            turn_config: None,
            seat_count,
        };
        let mut out = Vec::new();
        let outcome = play_with(&crate::registry(), setup, script.as_bytes(), &mut out, || 0);
        (outcome, String::from_utf8(out).unwrap())
    }

    /// Nim has no front-end of its own: the registry's player lists its takes from 1 and plays
    /// a whole match against the random bot when the person always types `1`.
    #[test]
    fn nim_is_played_to_the_end_through_the_registry_alone() {
        let (outcome, out) = run_script("nim", &["1=bot:random"], &"1\n".repeat(30));
        assert_eq!(outcome.code, 0, "{out}");
        assert!(
            out.contains("  1. {\"count\":1,\"type\":\"take\"}"),
            "{out}"
        );
        assert!(out.contains("{\"type\":\"resign\"}"), "{out}");
        assert!(out.contains("Seat 1 (bot) plays"), "{out}");
        assert!(out.contains("The match is over: win"), "{out}");
    }

    #[test]
    fn bad_seats_and_unknown_games_are_usage_errors() {
        let (outcome, _) = run_script("nim", &["2=human"], "");
        assert_eq!(outcome.code, crate::exit::USAGE);
        let (outcome, _) = run_script("nim", &["1=bot:genius"], "");
        assert_eq!(outcome.code, crate::exit::USAGE);
        let (outcome, _) = run_script("chess", &[], "");
        assert_eq!(outcome.code, crate::exit::USAGE);
    }

    /// `--seats` picks a count inside the range the game's content allows (Pig: 2 to 4), and a
    /// count outside it is a usage error that names the range, for every registered game.
    #[test]
    fn seats_are_chosen_within_the_content_s_range() {
        let (outcome, out) = run_seated("pig", &["1=bot:random", "2=bot:random"], Some(3), "q\n");
        assert_eq!(outcome.code, 0, "{out}");
        assert!(out.contains("3 seats"), "{out}");
        let (outcome, out) = run_seated("pig", &["3=bot:random"], Some(4), "q\n");
        assert_eq!(outcome.code, 0, "{out}");
        assert!(out.contains("4 seats"), "{out}");
        let (outcome, _) = run_seated("pig", &[], Some(5), "");
        assert_eq!(outcome.code, crate::exit::USAGE);
        let message = outcome.message.unwrap_or_default();
        assert!(message.contains("2 to 4"), "{message}");
        let (outcome, _) = run_seated("nim", &[], Some(3), "");
        assert_eq!(outcome.code, crate::exit::USAGE);
        // without --seats, the range's minimum
        let (_, out) = run_seated("pig", &[], None, "q\n");
        assert!(out.contains("2 seats"), "{out}");
    }
}
