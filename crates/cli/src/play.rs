//! `turnstile play connect4|tictactoe [--seat N=human|bot:random|bot:strong]...`: a
//! line-based game in the terminal, between people at one keyboard and bots (Duel's own
//! screen, with `--seats`, `--clock` and `--preset`, is in `duel_play.rs`).
//!
//! Every move is a command envelope submitted to a real `Match`, so it passes the same resolver
//! and yields the same receipts as on the server; bots choose through that resolver too. The
//! content is each game's bundle, embedded at compile time, so this works from any directory.
//!
//! Time: with an untimed turn config every command is stamped tick 0. With a timer, ticks are
//! read at this edge from a monotonic clock (time since the match began × the tick rate), and a
//! deadline that has passed is applied as the server would — a system `Timeout` stamped with the
//! deadline tick — **only when the next line has been read**: the prompt blocks, so a turn does
//! not end on its own while a person is thinking, only as soon as they answer.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use turnstile_connect4::ConnectFourRules;
use turnstile_core::{CommandEnvelope, CommandRefusal, Seat, Tick};
use turnstile_mnk::{
    self as mnk, Action, Board, Cell, MatchConfig, MatchResult, Mnk, MnkGame, MnkWin, Searchable,
    StrongBot, Variant,
};
use turnstile_runtime::{Bot, Match, MatchSpec, RandomBot, SeatKind, SeatSpec, DEFAULT_TICK_RATE};
use turnstile_tictactoe::TicTacToeRules;

use crate::exit::Outcome;

/// The games `play` knows.
const GAMES: &str = "connect4, tictactoe";

/// Plays `game` in the terminal. `seats` are the `--seat N=WHO` arguments (seats numbered from
/// 0; unnamed seats are human), `seed` the match seed (a fresh one when absent, printed so the
/// match can be played again), `turn_config` one of the content's turn configs.
pub fn play(
    game: &str,
    seats: &[String],
    seed: Option<String>,
    turn_config: Option<String>,
) -> Outcome {
    let players = match parse_seats(seats) {
        Ok(players) => players,
        Err(message) => return Outcome::usage(message),
    };
    let seed = seed.unwrap_or_else(fresh_seed);
    let config = turn_config
        .as_deref()
        .map_or_else(MatchConfig::default, MatchConfig::with_turn_config);
    match game {
        "connect4" => {
            run::<ConnectFourRules>(turnstile_connect4::bundled(), players, &seed, config)
        }
        "tictactoe" => {
            run::<TicTacToeRules>(turnstile_tictactoe::bundled(), players, &seed, config)
        }
        other => Outcome::usage(format!("unknown game {other:?}; play knows {GAMES}")),
    }
}

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Player {
    Human,
    RandomBot,
    StrongBot,
}

impl Player {
    fn spec(self) -> SeatSpec {
        let bot = |name: &str| SeatSpec {
            kind: SeatKind::Bot,
            bot: Some(name.into()),
        };
        match self {
            Player::Human => SeatSpec::human(),
            Player::RandomBot => bot("random"),
            Player::StrongBot => bot("strong"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::RandomBot => "bot:random",
            Player::StrongBot => "bot:strong",
        }
    }
}

/// Parses `N=human|bot:random|bot:strong` for seats 0 and 1; unnamed seats are human.
fn parse_seats(args: &[String]) -> Result<[Player; 2], String> {
    let mut players = [None, None];
    for arg in args {
        let (seat, who) = arg
            .split_once('=')
            .ok_or_else(|| format!("--seat {arg:?}: expected N=human|bot:random|bot:strong"))?;
        let index = match seat.trim().parse::<usize>() {
            Ok(index) if index < players.len() => index,
            _ => return Err(format!("--seat {arg:?}: the seats are 0 and 1")),
        };
        let player = match who.trim() {
            "human" => Player::Human,
            "bot:random" => Player::RandomBot,
            "bot:strong" => Player::StrongBot,
            other => {
                return Err(format!(
                    "--seat {arg:?}: unknown player {other:?}; expected human, bot:random or bot:strong"
                ))
            }
        };
        if players[index].replace(player).is_some() {
            return Err(format!("--seat {index} is given twice"));
        }
    }
    Ok(players.map(|p| p.unwrap_or(Player::Human)))
}

/// A seed for a match started without one, from the wall clock at this edge (never inside the
/// match: the seed is an input like any other, and it is printed).
pub(crate) fn fresh_seed() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("play-{nanos}")
}

/// What the terminal needs to know about a game beyond its rules.
trait Terminal: Searchable {
    /// What a person types for a move.
    const PROMPT: &'static str;
    /// A typed move, if the line is one.
    fn parse_move(line: &str) -> Option<Self::Move>;
    /// A move in words.
    fn describe(mv: &Self::Move) -> String;
    /// The board as text.
    fn render(board: &Board) -> String;
}

/// `X` for seat 0, `O` for seat 1.
fn glyph(seat: Option<Seat>) -> char {
    match seat {
        None => '.',
        Some(Seat(0)) => 'X',
        Some(_) => 'O',
    }
}

impl Terminal for ConnectFourRules {
    const PROMPT: &'static str = "column 1-7";

    fn parse_move(line: &str) -> Option<u16> {
        let column: u16 = line.parse().ok()?;
        (1..=Self::WIDTH).contains(&column).then(|| column - 1)
    }

    fn describe(column: &u16) -> String {
        format!("drops a disc in column {}", column + 1)
    }

    fn render(board: &Board) -> String {
        let mut text = String::new();
        for row in 0..board.height() {
            text.push('|');
            for column in 0..board.width() {
                text.push(' ');
                text.push(glyph(board.get(Cell::new(column, row))));
            }
            text.push_str(" |\n");
        }
        text.push_str(&format!(
            "+{}+\n ",
            "-".repeat(usize::from(board.width()) * 2 + 1)
        ));
        for column in 1..=board.width() {
            text.push_str(&format!(" {column}"));
        }
        text.push('\n');
        text
    }
}

impl Terminal for TicTacToeRules {
    const PROMPT: &'static str = "cell 1-9";

    fn parse_move(line: &str) -> Option<Cell> {
        let number: u16 = line.parse().ok()?;
        (1..=9)
            .contains(&number)
            .then(|| Cell::new((number - 1) % 3, (number - 1) / 3))
    }

    fn describe(cell: &Cell) -> String {
        format!("marks cell {}", cell.row * 3 + cell.column + 1)
    }

    /// Open cells show the number that marks them.
    fn render(board: &Board) -> String {
        let rows: Vec<String> = (0..3u16)
            .map(|row| {
                let cells: Vec<String> = (0..3u16)
                    .map(|column| match board.get(Cell::new(column, row)) {
                        None => (row * 3 + column + 1).to_string(),
                        holder => glyph(holder).to_string(),
                    })
                    .collect();
                format!(" {}\n", cells.join(" | "))
            })
            .collect();
        rows.join("---+---+---\n")
    }
}

/// The match's clock at this edge: tick 0 throughout when no timer runs.
struct EdgeClock {
    start: Instant,
    timed: bool,
    tick_rate: u32,
}

impl EdgeClock {
    /// The tick to stamp now; never before the match's last receipt.
    fn now(&self, last: Tick) -> Tick {
        if !self.timed {
            return last;
        }
        let millis = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        last.max(millis.saturating_mul(u64::from(self.tick_rate)) / 1000)
    }
}

/// A seat's player, with its bot if it has one.
enum Seated<V: Variant> {
    Human,
    Bot(Box<dyn Bot<MnkGame<V>>>),
}

fn run<V: Terminal>(
    bundle: Result<turnstile_core::ContentBundle<mnk::Rules>, Vec<turnstile_core::ContentProblem>>,
    players: [Player; 2],
    seed: &str,
    config: MatchConfig,
) -> Outcome {
    let bundle = match bundle {
        Ok(bundle) => Arc::new(bundle),
        Err(problems) => {
            let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Outcome::input(format!(
                "the embedded {} content is invalid:\n{}",
                V::ID,
                list.join("\n")
            ));
        }
    };
    let rules = &bundle.content;
    let chosen = config
        .turn_config
        .clone()
        .unwrap_or_else(|| rules.default_turn_config.clone());
    let Some(turn_config) = rules.turn_configs.get(&chosen) else {
        let known: Vec<&str> = rules
            .turn_configs
            .iter()
            .map(|(id, _)| id.as_str())
            .collect();
        return Outcome::usage(format!(
            "unknown turn config {chosen:?}; {} has {}",
            V::ID,
            known.join(", ")
        ));
    };
    let clock = EdgeClock {
        start: Instant::now(),
        timed: turn_config.uses_timer,
        tick_rate: DEFAULT_TICK_RATE,
    };
    let spec = MatchSpec {
        config,
        seed: seed.into(),
        seats: players.iter().map(|p| p.spec()).collect(),
        tick_rate: clock.tick_rate,
    };
    let mut game = match Match::<MnkGame<V>>::new(bundle.clone(), spec) {
        Ok(game) => game,
        Err(e) => return Outcome::usage(format!("cannot start the match: {e} ({})", e.code())),
    };
    let mut seated = Vec::with_capacity(2);
    for (index, player) in players.iter().enumerate() {
        let seat = Seat(index as u16);
        let bot: Result<Seated<V>, _> = match player {
            Player::Human => Ok(Seated::Human),
            Player::RandomBot => RandomBot::new(seed, seat).map(|b| Seated::Bot(Box::new(b))),
            Player::StrongBot => StrongBot::<V>::new(seed, seat)
                .map(|b| Seated::Bot(Box::new(turnstile_samples::MnkStrongBot(b)))),
        };
        match bot {
            Ok(bot) => seated.push(bot),
            Err(e) => return Outcome::usage(format!("seed {seed:?}: {e}")),
        }
    }
    println!(
        "{}: seat 0 (X) {} against seat 1 (O) {}; turn config {chosen}; seed {seed:?}",
        V::ID,
        players[0].name(),
        players[1].name()
    );
    println!(
        "Type a {}, `s` to skip (when the config allows), `r` to resign, `q` to quit.",
        V::PROMPT
    );
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut issued = 0u64;
    let mut submit = |game: &mut Match<MnkGame<V>>,
                      id: Option<String>,
                      seat: Option<Seat>,
                      tick: Tick,
                      action: Action<Mnk<V>>| {
        issued += 1;
        let envelope = CommandEnvelope {
            command_id: id.unwrap_or_else(|| format!("cli-{issued}")),
            seat,
            expected_sequence: game.sequence(),
            expected_step: None,
            tick,
            action,
        };
        game.submit(envelope).map(|_| ())
    };
    let mut shown = None;
    loop {
        let state = game.state();
        if shown != Some(game.sequence()) {
            print!("\n{}", V::render(state.board()));
            shown = Some(game.sequence());
        }
        if let Some(result) = state.result() {
            println!("{}", describe_result(result));
            return Outcome::ok();
        }
        // A deadline passed while the last line was awaited: time the turn out, as a server.
        if let Some((id, deadline, command)) = state.pending_timeout() {
            if deadline <= clock.now(game.last_tick()) {
                let seat = game.state().to_move();
                if let Err(refusal) = submit(&mut game, Some(id), None, deadline, command) {
                    return Outcome::check_failed(format!("the timeout was refused: {refusal}"));
                }
                println!(
                    "Seat {} ran out of time.",
                    seat.map_or_else(|| "?".into(), |s| s.to_string())
                );
                continue;
            }
        }
        let Some(seat) = state.to_move() else {
            return Outcome::check_failed("the match is running but no seat is to move");
        };
        let tick = clock.now(game.last_tick());
        match &mut seated[usize::from(seat.0)] {
            Seated::Bot(bot) => {
                let Some(action) = bot.choose(&game.resolver(), game.state(), seat, tick) else {
                    return Outcome::check_failed(format!("the bot of seat {seat} found no move"));
                };
                let said = match &action {
                    Action::Play(mv) => V::describe(mv),
                    other => format!("{other:?}"),
                };
                if let Err(refusal) = submit(&mut game, None, Some(seat), tick, action) {
                    return Outcome::check_failed(format!("the bot's move was refused: {refusal}"));
                }
                println!("Seat {seat} ({}) {said}.", glyph(Some(seat)));
            }
            Seated::Human => {
                let left = state
                    .deadline_tick()
                    .map(|d| {
                        format!(
                            ", {}s left",
                            d.saturating_sub(tick) / u64::from(clock.tick_rate)
                        )
                    })
                    .unwrap_or_default();
                print!(
                    "Seat {seat} ({}), your move ({}{left}): ",
                    glyph(Some(seat)),
                    V::PROMPT
                );
                let _ = io::stdout().flush();
                let line = match lines.next() {
                    Some(Ok(line)) => line,
                    Some(Err(e)) => {
                        return Outcome::input(format!("cannot read standard input: {e}"))
                    }
                    None => {
                        println!();
                        return Outcome::ok();
                    }
                };
                let command = match line.trim() {
                    "q" | "quit" => return Outcome::ok(),
                    "r" | "resign" => Action::Resign,
                    "s" | "skip" => Action::Skip,
                    typed => match V::parse_move(typed) {
                        Some(mv) => Action::Play(mv),
                        None => {
                            println!("Not a move: type a {}, s, r or q.", V::PROMPT);
                            continue;
                        }
                    },
                };
                let tick = clock.now(game.last_tick());
                if game.state().deadline_tick().is_some_and(|d| d <= tick) {
                    println!("Too late: the turn's time ran out.");
                    continue; // the loop times the turn out first
                }
                if let Err(refusal) = submit(&mut game, None, Some(seat), tick, command) {
                    println!("Refused: {}", refusal_text(&refusal));
                }
            }
        }
    }
}

fn refusal_text(refusal: &CommandRefusal) -> String {
    match refusal {
        CommandRefusal::Rule(rejection) => format!("{} ({})", rejection.message, rejection.code),
        other => format!("{other} ({})", other.code()),
    }
}

fn describe_result(result: &MatchResult<MnkWin>) -> String {
    let name = |seat: Seat| format!("seat {seat} ({})", glyph(Some(seat)));
    match result {
        MatchResult::Game(MnkWin::Won { seat, .. }) => format!("{} wins.", name(*seat)),
        MatchResult::Game(MnkWin::Draw) => "A draw.".into(),
        MatchResult::Resigned { seat } => {
            format!(
                "{} resigned; {} wins.",
                name(*seat),
                name(mnk::opponent(*seat))
            )
        }
        MatchResult::Forfeited { seat, timeouts } => format!(
            "{} ran out of time {timeouts} turns in a row and forfeits; {} wins.",
            name(*seat),
            name(mnk::opponent(*seat))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn seats_default_to_human_and_bad_ones_are_usage_errors() {
        assert_eq!(parse_seats(&[]).unwrap(), [Player::Human, Player::Human]);
        assert_eq!(
            parse_seats(&args(&["1=bot:strong"])).unwrap(),
            [Player::Human, Player::StrongBot]
        );
        assert_eq!(
            parse_seats(&args(&["0=bot:random", "1=human"])).unwrap(),
            [Player::RandomBot, Player::Human]
        );
        for bad in [["2=human"], ["1=bot:weak"], ["1"], ["x=human"]] {
            assert!(parse_seats(&args(&bad)).is_err(), "{bad:?}");
        }
        assert!(parse_seats(&args(&["1=human", "1=bot:strong"])).is_err());
        assert_eq!(play("chess", &[], None, None).code, crate::exit::USAGE);
        assert_eq!(
            play("connect4", &args(&["3=human"]), None, None).code,
            crate::exit::USAGE
        );
        assert_eq!(
            play("connect4", &[], None, Some("marathon".into())).code,
            crate::exit::USAGE
        );
    }

    #[test]
    fn moves_are_typed_from_1() {
        assert_eq!(ConnectFourRules::parse_move("1"), Some(0));
        assert_eq!(ConnectFourRules::parse_move("7"), Some(6));
        assert_eq!(ConnectFourRules::parse_move("8"), None);
        assert_eq!(ConnectFourRules::parse_move("0"), None);
        assert_eq!(TicTacToeRules::parse_move("6"), Some(Cell::new(2, 1)));
        assert_eq!(TicTacToeRules::parse_move("10"), None);
        assert_eq!(TicTacToeRules::describe(&Cell::new(2, 1)), "marks cell 6");
    }

    #[test]
    fn bots_play_a_whole_match_to_the_end() {
        let outcome = play(
            "connect4",
            &args(&["0=bot:strong", "1=bot:random"]),
            Some("cli-test".into()),
            None,
        );
        assert_eq!(outcome.code, crate::exit::OK);
        let outcome = play(
            "tictactoe",
            &args(&["0=bot:strong", "1=bot:strong"]),
            Some("cli-test".into()),
            Some("blitz".into()),
        );
        assert_eq!(outcome.code, crate::exit::OK);
    }
}
