//! `turnstile sokoban play`: a level collection in the terminal.
//!
//! Every key press becomes a command envelope submitted to a [`Match`], exactly as a remote
//! client's would be: the terminal is just another client of the runtime. Moving between
//! levels starts a new match; `--replay-out` writes the replay of the level being left.

use crate::exit::Outcome;
use crate::sokoban_file::LevelFile;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;
use turnstile_core::{CommandEnvelope, Seat, Viewer};
use turnstile_runtime::{Match, MatchSpec, ReplayFile, SeatSpec, DEFAULT_TICK_RATE};
use turnstile_sokoban::{Direction, Sokoban, SokobanAction, SokobanEvent, SokobanView};

/// One level being played.
struct Session {
    file: LevelFile,
    /// The level number in the file, from 1.
    number: u32,
    game: Result<Match<Sokoban>, String>,
    started: Instant,
    next_id: u64,
    message: Option<String>,
    dead_warning: bool,
}

impl Session {
    fn open(file: LevelFile, number: u32) -> Session {
        let game = file
            .config(number)
            .map_err(|o| o.message.unwrap_or_default())
            .and_then(|config| {
                Match::new(
                    file.bundle.clone(),
                    MatchSpec {
                        config,
                        seed: String::new(),
                        seats: vec![SeatSpec::human()],
                        tick_rate: DEFAULT_TICK_RATE,
                    },
                )
                .map_err(|e| e.to_string())
            });
        Session {
            file,
            number,
            game,
            started: Instant::now(),
            next_id: 1,
            message: None,
            dead_warning: false,
        }
    }

    fn count(&self) -> u32 {
        self.file.levels.len() as u32
    }

    fn submit(&mut self, action: SokobanAction) {
        let Ok(m) = &mut self.game else { return };
        // Ticks come from a monotonic clock at this edge; the rules never read a clock.
        let elapsed = self.started.elapsed().as_millis() as u64;
        let tick = (elapsed * u64::from(DEFAULT_TICK_RATE) / 1000).max(m.last_tick());
        let envelope = CommandEnvelope {
            command_id: format!("key-{}", self.next_id),
            seat: Some(Seat(0)),
            expected_sequence: m.sequence(),
            expected_step: None,
            tick,
            action,
        };
        self.next_id += 1;
        match m.submit(envelope) {
            Ok(accepted) => {
                let events = &accepted.receipt.events;
                self.message = None;
                if events
                    .iter()
                    .any(|e| matches!(e, SokobanEvent::DeadSquare { .. }))
                {
                    self.dead_warning = true;
                } else if events
                    .iter()
                    .any(|e| matches!(e, SokobanEvent::Undone { .. } | SokobanEvent::Restarted))
                {
                    self.dead_warning = false;
                }
            }
            Err(refusal) => self.message = Some(format!("{refusal}")),
        }
    }

    fn save_replay(&self, out: Option<&Path>) -> Result<(), String> {
        let (Some(out), Ok(m)) = (out, &self.game) else {
            return Ok(());
        };
        if m.sequence() == 0 {
            return Ok(());
        }
        let text = ReplayFile::of_match(m)
            .and_then(|r| r.to_json())
            .map_err(|e| e.to_string())?;
        std::fs::write(out, text + "\n").map_err(|e| format!("cannot write {}: {e}", out.display()))
    }
}

/// What a key asks for.
enum Intent {
    Act(SokobanAction),
    Level(i64),
    Quit,
    Nothing,
}

/// What a key means; a Hexoban board (`hex`) moves with w e / a d / z x for its six
/// directions (north-west, north-east, west, east, south-west, south-east).
fn intent(key: KeyEvent, hex: bool) -> Intent {
    let mv = |direction| Intent::Act(SokobanAction::Move { direction });
    let hex_move = |c: char| match c.to_ascii_lowercase() {
        'w' => Some(Direction::UpLeft),
        'e' => Some(Direction::UpRight),
        'a' => Some(Direction::Left),
        'd' => Some(Direction::Right),
        'z' => Some(Direction::DownLeft),
        'x' => Some(Direction::DownRight),
        _ => None,
    };
    match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Intent::Quit,
        KeyCode::Char('z') if key.modifiers.contains(KeyModifiers::CONTROL) => {
            Intent::Act(SokobanAction::Undo)
        }
        KeyCode::Char(c) if hex && hex_move(c).is_some() => hex_move(c).map_or(Intent::Nothing, mv),
        KeyCode::Left if hex => mv(Direction::Left),
        KeyCode::Right if hex => mv(Direction::Right),
        KeyCode::Up | KeyCode::Char('w') | KeyCode::Char('W') => mv(Direction::Up),
        KeyCode::Right | KeyCode::Char('d') | KeyCode::Char('D') => mv(Direction::Right),
        KeyCode::Down | KeyCode::Char('s') | KeyCode::Char('S') => mv(Direction::Down),
        KeyCode::Left | KeyCode::Char('a') | KeyCode::Char('A') => mv(Direction::Left),
        KeyCode::Char('u') => Intent::Act(SokobanAction::Undo),
        KeyCode::Char('r') => Intent::Act(SokobanAction::Redo),
        KeyCode::Backspace => Intent::Act(SokobanAction::Restart),
        KeyCode::Char('n') | KeyCode::PageDown => Intent::Level(1),
        KeyCode::Char('p') | KeyCode::PageUp => Intent::Level(-1),
        KeyCode::Char('q') | KeyCode::Esc => Intent::Quit,
        _ => Intent::Nothing,
    }
}

/// Whether the level being played is a Hexoban one.
fn is_hex(session: &Session) -> bool {
    session
        .game
        .as_ref()
        .is_ok_and(|m| m.view(Viewer::Spectator).topology.is_some())
}

/// Plays the file from level `start`.
pub fn play(path: &Path, start: u32, replay_out: Option<&Path>) -> Outcome {
    let file = match LevelFile::read(path) {
        Ok(file) => file,
        Err(outcome) => return outcome,
    };
    let count = file.levels.len() as u32;
    if count == 0 {
        return Outcome::check_failed(format!("{}: no levels", path.display()));
    }
    if !(1..=count).contains(&start) {
        return Outcome::usage(format!(
            "level {start} does not exist: the file has levels 1 to {count}"
        ));
    }
    if !std::io::stdout().is_terminal() {
        return Outcome::input(
            "sokoban play needs a terminal; use `sokoban verify` to check a solution",
        );
    }
    let mut terminal = ratatui::init();
    let result = run(&mut terminal, Session::open(file, start), replay_out);
    ratatui::restore();
    match result {
        Ok(()) => Outcome::ok(),
        Err(e) => Outcome::input(e),
    }
}

fn run(
    terminal: &mut DefaultTerminal,
    mut session: Session,
    out: Option<&Path>,
) -> Result<(), String> {
    loop {
        terminal
            .draw(|frame| draw(frame, &session))
            .map_err(|e| e.to_string())?;
        let Event::Key(key) = event::read().map_err(|e| e.to_string())? else {
            continue;
        };
        if key.kind != KeyEventKind::Press {
            continue;
        }
        match intent(key, is_hex(&session)) {
            Intent::Quit => return session.save_replay(out),
            Intent::Act(action) => session.submit(action),
            Intent::Level(delta) => {
                let target = i64::from(session.number) + delta;
                if (1..=i64::from(session.count())).contains(&target) {
                    session.save_replay(out)?;
                    let file = session.file;
                    session = Session::open(file, target as u32);
                }
            }
            Intent::Nothing => {}
        }
    }
}

fn cell_span(c: char) -> Span<'static> {
    let (text, style) = match c {
        '#' => ("██", Style::new().fg(Color::Gray)),
        '.' => ("··", Style::new().fg(Color::Yellow)),
        '$' => (
            "[]",
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        ),
        '*' => (
            "[]",
            Style::new()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD),
        ),
        '@' => (
            "@@",
            Style::new()
                .fg(Color::LightCyan)
                .add_modifier(Modifier::BOLD),
        ),
        '+' => (
            "@@",
            Style::new().fg(Color::LightCyan).bg(Color::Rgb(80, 70, 0)),
        ),
        _ => ("  ", Style::new()),
    };
    Span::styled(text, style)
}

fn board_lines(view: &SokobanView) -> Vec<Line<'static>> {
    view.rows
        .iter()
        .map(|row| Line::from(row.chars().map(cell_span).collect::<Vec<_>>()))
        .collect()
}

fn draw(frame: &mut Frame, session: &Session) {
    let [title_area, board_area, status_area, help_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(3),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    let level = &session.file.levels[session.number as usize - 1];
    let title = match level {
        Ok(level) => level.title().unwrap_or("untitled").to_owned(),
        Err(_) => "invalid level".to_owned(),
    };
    frame.render_widget(
        Paragraph::new(format!(
            " {title} — level {} of {} ({})",
            session.number,
            session.count(),
            session.file.id
        ))
        .bold(),
        title_area,
    );
    let view = session
        .game
        .as_ref()
        .ok()
        .map(|m| m.view(Viewer::Seat(Seat(0))));
    match (&session.game, &view) {
        (Ok(_), Some(view)) => {
            let lines = board_lines(view);
            let area = centered(board_area, view.width.saturating_mul(2), lines.len() as u16);
            frame.render_widget(Paragraph::new(lines), area);
        }
        (Err(why), _) => frame.render_widget(
            Paragraph::new(why.as_str())
                .wrap(Wrap { trim: false })
                .block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title("cannot play this level"),
                ),
            board_area,
        ),
        (Ok(_), None) => {}
    }
    let mut status: Vec<Line> = Vec::new();
    if let Some(view) = &view {
        status.push(Line::from(format!(
            " {}   {}",
            crate::sokoban_cmd::counted(view.moves, "move", "moves"),
            crate::sokoban_cmd::counted(view.pushes, "push", "pushes")
        )));
        if view.solved {
            status.push(
                Line::from(format!(
                    " SOLVED in {}, {} — n: next level",
                    crate::sokoban_cmd::counted(view.moves, "move", "moves"),
                    crate::sokoban_cmd::counted(view.pushes, "push", "pushes")
                ))
                .green()
                .bold(),
            );
            status.push(Line::from(format!(" {}", view.lurd)));
        } else if session.dead_warning {
            status.push(
                Line::from(" a box is stuck on a dead square — undo (u) or restart (Backspace)")
                    .yellow(),
            );
        }
    }
    if let Some(message) = &session.message {
        status.push(Line::from(format!(" {message}")).red());
    }
    frame.render_widget(Paragraph::new(status), status_area);
    frame.render_widget(
        Paragraph::new(if is_hex(session) {
            "w e / a d / z x move (NW NE / W E / SW SE) · u undo · r redo · Backspace restart · n/p level · q quit"
        } else {
            "arrows/WASD move · u undo · r redo · Backspace restart · n/p level · q quit"
        })
        .alignment(Alignment::Center)
        .dim(),
        help_area,
    );
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

#[cfg(test)]
mod tests {
    //! The terminal front-end without a terminal: keys become the same commands a remote client
    //! sends, and the frame is drawn into ratatui's test backend.
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    fn direction(intent: Intent) -> Option<Direction> {
        match intent {
            Intent::Act(SokobanAction::Move { direction }) => Some(direction),
            _ => None,
        }
    }

    #[test]
    fn six_directions_on_a_hex_board_four_on_a_square_one() {
        let hex: Vec<_> = "weadzx"
            .chars()
            .map(|c| direction(intent(key(c), true)))
            .collect();
        assert_eq!(
            hex,
            [
                Direction::UpLeft,
                Direction::UpRight,
                Direction::Left,
                Direction::Right,
                Direction::DownLeft,
                Direction::DownRight
            ]
            .map(Some)
        );
        let square: Vec<_> = "wasd"
            .chars()
            .map(|c| direction(intent(key(c), false)))
            .collect();
        assert_eq!(
            square,
            [
                Direction::Up,
                Direction::Left,
                Direction::Down,
                Direction::Right
            ]
            .map(Some)
        );
    }

    /// A shipped Hexoban level played from the keyboard: its known solution, typed as keys,
    /// solves it, and the frame says so with the hex board's own help line.
    #[test]
    fn a_hexoban_level_is_solved_from_the_keyboard_and_drawn() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../games/sokoban/content/levels/hexoban-turnstile.hsb");
        let file = LevelFile::read(&path).unwrap_or_else(|o| panic!("{:?}", o.message));
        let mut session = Session::open(file, 2);
        assert!(is_hex(&session));
        // "DsRN": south-east push, south-west walk, east push, north-east push.
        for c in "DsRN".chars() {
            let typed = match c.to_ascii_lowercase() {
                'l' => 'a',
                'r' => 'd',
                'u' => 'w',
                'n' => 'e',
                's' => 'z',
                'd' => 'x',
                other => panic!("not a Hexoban letter: {other}"),
            };
            match intent(key(typed), true) {
                Intent::Act(action) => session.submit(action),
                _ => panic!("{typed} is a move on a hex board"),
            }
            assert_eq!(session.message, None, "after {c}");
        }
        let view = session.game.as_ref().unwrap().view(Viewer::Seat(Seat(0)));
        assert!(view.solved);
        assert_eq!((view.moves, view.pushes), (4, 3));
        let mut terminal = Terminal::new(TestBackend::new(110, 24)).unwrap();
        terminal.draw(|frame| draw(frame, &session)).unwrap();
        let screen: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|cell| cell.symbol())
            .collect();
        assert!(screen.contains("SOLVED in 4 moves, 3 pushes"), "{screen}");
        assert!(screen.contains("(NW NE / W E / SW SE)"), "{screen}");
        assert!(screen.contains("Two Steps Down"), "{screen}");
    }
}
