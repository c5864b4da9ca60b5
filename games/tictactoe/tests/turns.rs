//! Turns and time in an m,n,k match (shown on Tic-Tac-Toe, shared with Connect Four): deadlines,
//! late commands, the system `Timeout`, forfeits, skips, and match setup from turn configs.
//!
//! The content's configs: `untimed` (no timer), `timed` (150 ticks, forfeit after 3 timeouts in
//! a row), `blitz` (30 ticks, skippable, forfeit after 2).

mod common;

use common::{bundle, cell, driver};
use common::{Command, Moves};
use turnstile_core::{Game, Seat};
use turnstile_kit::{game_events, turn_begins, turn_ends};
use turnstile_mnk::{KitEvent, MatchConfig, MatchResult};
use turnstile_runtime::testing::Driver;
use turnstile_runtime::{Match, MatchSpec, SeatSpec};
use turnstile_tictactoe::{TicTacToe, TicTacToeAction};
use turnstile_turns::TurnEndReason;

fn timeout(turn_index: u64) -> Command {
    Command::Timeout { turn_index }
}

#[test]
fn the_deadline_is_exposed_and_a_command_at_it_is_late() {
    let mut d = driver("blitz");
    assert_eq!(d.state().deadline_tick(), Some(30));
    assert_eq!(TicTacToe::deadline_tick(d.state()), Some(30));
    assert_eq!(driver("untimed").state().deadline_tick(), None);
    // Exactly at the deadline the timer has already ended the turn: seat 0 is too late.
    assert_eq!(
        d.refusal(Some(0), 30, Command::Play(cell(1, 1))).unwrap(),
        "not_your_turn"
    );
    // One tick earlier it is in time; seat 1's turn then runs until 29 + 30.
    d.play(0, 29, cell(1, 1)).unwrap();
    assert_eq!(d.state().to_move(), Some(Seat(1)));
    assert_eq!(d.state().deadline_tick(), Some(59));
}

#[test]
fn a_command_after_a_deadline_carries_that_turns_end_in_its_receipt() {
    let mut d = driver("blitz");
    d.play(0, 0, cell(1, 1)).unwrap(); // turn 2 (seat 1) runs until tick 30
                                       // Seat 1 never moves; at tick 40 seat 0 moves in turn 3, which began at 30.
    let receipt = d.play(0, 40, cell(0, 0)).unwrap();
    assert_eq!(
        turn_ends(&receipt.events),
        vec![
            (2, Some(Seat(1)), TurnEndReason::Time),
            (3, Some(Seat(0)), TurnEndReason::Play)
        ]
    );
    assert_eq!(
        turn_begins(&receipt.events),
        vec![(3, Some(Seat(0))), (4, Some(Seat(1)))]
    );
    assert_eq!(
        d.state().deadline_tick(),
        Some(70),
        "turn 4 began at tick 40"
    );
    let clock = d.state().turns().clock();
    assert_eq!(
        clock.seat(Seat(1)).unwrap().ticks,
        30,
        "seat 1 used its whole turn"
    );
    assert_eq!(clock.timeouts_in_a_row(Seat(1)), 1);
}

#[test]
fn a_timeout_ends_the_turn_and_passes_it() {
    let mut d = driver("blitz");
    assert_eq!(d.refusal(None, 29, timeout(1)).unwrap(), "timeout_not_due");
    let receipt = d.time_out().unwrap().unwrap();
    assert_eq!(receipt.command_id, "timeout:1");
    assert_eq!((receipt.seat, receipt.tick), (None, 30));
    assert_eq!(
        turn_ends(&receipt.events),
        vec![(1, Some(Seat(0)), TurnEndReason::Time)]
    );
    assert_eq!(turn_begins(&receipt.events), vec![(2, Some(Seat(1)))]);
    assert_eq!(d.state().to_move(), Some(Seat(1)));
    assert_eq!(d.state().deadline_tick(), Some(60));
    assert!(
        d.state().board().rows().iter().all(|r| r == "..."),
        "the seat lost its turn, nothing else"
    );
    assert_eq!(
        d.refusal(Some(0), 31, Command::Play(cell(0, 0))).unwrap(),
        "not_your_turn"
    );
    d.play(1, 31, cell(0, 0)).unwrap();
}

#[test]
fn stale_unknown_and_misdirected_timeouts_are_refused() {
    let mut d = driver("blitz");
    d.play(0, 5, cell(1, 1)).unwrap();
    // Turn 1 ended with the play: a node that saw it time out is too late.
    assert_eq!(d.refusal(None, 30, timeout(1)).unwrap(), "stale_timeout");
    assert_eq!(d.refusal(None, 30, timeout(0)).unwrap(), "unknown_turn");
    assert_eq!(d.refusal(None, 30, timeout(3)).unwrap(), "unknown_turn");
    assert_eq!(d.refusal(Some(1), 35, timeout(2)).unwrap(), "system_only");
    // Untimed turns never time out.
    let mut untimed = driver("untimed");
    assert_eq!(untimed.state().pending_timeout(), None);
    assert_eq!(
        untimed.refusal(None, 1_000_000, timeout(1)).unwrap(),
        "timeout_not_due"
    );
    // The right one goes through, and a second node racing with the same id gets its receipt.
    let first = d.time_out().unwrap().unwrap();
    assert_eq!(
        turn_ends(&first.events),
        vec![(2, Some(Seat(1)), TurnEndReason::Time)]
    );
    let again = d
        .submit_as(
            "timeout:2".into(),
            None,
            35,
            TicTacToeAction::Timeout { turn_index: 2 },
        )
        .unwrap();
    assert_eq!(again, first);
}

#[test]
fn timeouts_in_a_row_forfeit_the_match() {
    let mut d = driver("blitz"); // forfeit after 2
    d.time_out().unwrap().unwrap(); // seat 0, turn 1, at 30
    d.play(1, 35, cell(1, 1)).unwrap(); // seat 1 plays in turn 2
    let receipt = d.time_out().unwrap().unwrap(); // seat 0, turn 3, at 65
    assert_eq!(receipt.tick, 65);
    assert_eq!(
        d.state().result(),
        Some(&MatchResult::Forfeited {
            seat: Seat(0),
            timeouts: 2
        })
    );
    assert_eq!(
        game_events(&receipt.events),
        vec![KitEvent::MatchEnded {
            result: MatchResult::Forfeited {
                seat: Seat(0),
                timeouts: 2
            },
            winner: Some(Seat(1))
        }]
    );
    assert_eq!(turn_begins(&receipt.events), vec![], "the loop stopped");
    assert_eq!(d.state().deadline_tick(), None);
    let outcome = d.game().status();
    assert_eq!(
        serde_json::to_value(outcome).unwrap(),
        serde_json::json!({"status": "finished", "outcome": {"kind": "timeout", "winners": [1]}})
    );
    assert_eq!(
        d.refusal(Some(1), 70, Command::Play(cell(0, 0))).unwrap(),
        "match_over"
    );
}

#[test]
fn a_turn_played_in_between_resets_the_count() {
    let mut d = driver("blitz");
    d.time_out().unwrap().unwrap(); // seat 0 times out
    d.play(1, 30, cell(1, 1)).unwrap();
    d.play(0, 31, cell(0, 0)).unwrap(); // seat 0 plays: the count starts again
    d.play(1, 32, cell(2, 2)).unwrap();
    d.time_out().unwrap().unwrap(); // seat 0 times out once more, once in a row
    assert_eq!(d.state().result(), None);
    assert_eq!(d.state().to_move(), Some(Seat(1)));
}

#[test]
fn a_jump_over_several_deadlines_ends_each_turn_at_its_own() {
    let mut d = driver("blitz");
    // Nobody moves: seat 0 times out at 30, seat 1 at 60, seat 0 again at 90 and forfeits.
    // A command stamped later finds the match over, and changes nothing.
    assert_eq!(
        d.refusal(Some(1), 100, Command::Play(cell(0, 0))).unwrap(),
        "match_over"
    );
    assert_eq!(
        d.refusal(Some(1), 100, Command::Resign).unwrap(),
        "match_over"
    );
    // The server's timeouts then record it turn by turn.
    let ticks: Vec<u64> = (0..3)
        .map(|_| d.time_out().unwrap().unwrap().tick)
        .collect();
    assert_eq!(ticks, vec![30, 60, 90]);
    assert_eq!(
        d.state().result(),
        Some(&MatchResult::Forfeited {
            seat: Seat(0),
            timeouts: 2
        })
    );
}

#[test]
fn skip_is_accepted_only_under_a_skippable_config() {
    let mut untimed = driver("untimed");
    assert_eq!(
        untimed.refusal(Some(0), 0, Command::Skip).unwrap(),
        "not_skippable"
    );
    let mut timed = driver("timed");
    assert_eq!(
        timed.refusal(Some(0), 0, Command::Skip).unwrap(),
        "not_skippable"
    );
    let mut blitz = driver("blitz");
    assert_eq!(
        blitz.refusal(Some(1), 0, Command::Skip).unwrap(),
        "not_your_turn"
    );
    let receipt = blitz.submit(Some(Seat(0)), 10, Command::Skip).unwrap();
    assert_eq!(
        turn_ends(&receipt.events),
        vec![(1, Some(Seat(0)), TurnEndReason::Skip)]
    );
    assert_eq!(turn_begins(&receipt.events), vec![(2, Some(Seat(1)))]);
    assert_eq!(blitz.state().deadline_tick(), Some(40));
    assert_eq!(blitz.state().turns().clock().timeouts_in_a_row(Seat(0)), 0);
}

#[test]
fn the_match_config_chooses_among_the_contents_turn_configs() {
    let new = |config: MatchConfig, seats: usize| {
        Match::<TicTacToe>::new(
            bundle(),
            MatchSpec {
                config,
                seed: "setup".into(),
                seats: vec![SeatSpec::human(); seats],
                tick_rate: 10,
            },
        )
    };
    let default = new(MatchConfig::default(), 2).unwrap();
    let current = default.state().turns().clock().current().clone();
    assert_eq!(current.config.unwrap().as_str(), "untimed");
    assert_eq!(
        (current.player, default.state().turn_index()),
        (Some(Seat(0)), 1)
    );
    let err = new(MatchConfig::with_turn_config("marathon"), 2).unwrap_err();
    assert_eq!(err.code(), "unknown_turn_config");
    assert_eq!(
        new(MatchConfig::default(), 3).unwrap_err().code(),
        "seat_count"
    );
    let config: MatchConfig = serde_json::from_str(r#"{"turnConfig": "blitz"}"#).unwrap();
    assert_eq!(config, MatchConfig::with_turn_config("blitz"));
    assert!(serde_json::from_str::<MatchConfig>(r#"{"turnConfigs": "blitz"}"#).is_err());
    assert_eq!(
        serde_json::to_string(&MatchConfig::default()).unwrap(),
        "{}"
    );
}

#[test]
fn a_state_read_back_is_checked_against_the_content() {
    let d = driver("blitz");
    let content = &d.game().bundle().content;
    let mut state = d.state().clone();
    TicTacToe::attach(content, &mut state).unwrap();
    let mut json = serde_json::to_value(&state).unwrap();
    json["board"]["width"] = serde_json::json!(4);
    let mut wide = serde_json::from_value(json).unwrap();
    assert_eq!(
        TicTacToe::attach(content, &mut wide).unwrap_err().code,
        "inconsistent_state"
    );
    let mut json = serde_json::to_value(&state).unwrap();
    json["deadlineTick"] = serde_json::json!(31);
    let mut late = serde_json::from_value(json).unwrap();
    assert_eq!(
        TicTacToe::attach(content, &mut late).unwrap_err().code,
        "inconsistent_state"
    );
    let mut other = bundle().content.clone();
    other.turn_configs = turnstile_turns::TurnConfigs::new();
    assert_eq!(
        TicTacToe::attach(&other, &mut state).unwrap_err().code,
        "unknown_turn_config"
    );
}

#[test]
fn drivers_number_their_commands() {
    let mut d: Driver<TicTacToe> = driver("untimed");
    let first = d.play(0, 0, cell(0, 0)).unwrap();
    let second = d.play(1, 0, cell(1, 0)).unwrap();
    assert_eq!(
        (first.command_id.as_str(), second.command_id.as_str()),
        ("cmd-1", "cmd-2")
    );
    assert_eq!(second.sequence, 2);
}

#[test]
fn clock_resumed_moves_the_running_deadline_by_the_outage_and_is_system_only() {
    let mut d = driver("blitz");
    d.play(0, 10, cell(1, 1)).unwrap(); // turn 2 (seat 1) runs until tick 40
    assert_eq!(d.state().deadline_tick(), Some(40));
    let resumed = |last_heartbeat_tick, takeover_tick| Command::ClockResumed {
        last_heartbeat_tick,
        takeover_tick,
    };
    assert_eq!(
        d.refusal(Some(1), 25, resumed(20, 90)).unwrap(),
        "system_only",
        "a seat can't move the clock"
    );
    // The previous node's last heartbeat was at 20; another node took over at 90. Seat 1 had
    // 20 ticks left when the outage began, and still has them.
    let receipt = d.submit(None, 90, resumed(20, 90)).unwrap();
    assert!(
        receipt.events.iter().any(|e| matches!(
            e,
            KitEvent::Turn {
                event: turnstile_turns::TurnEvent::ClockResumed {
                    outage_start_tick: 20,
                    takeover_tick: 90,
                    shift_ticks: 70,
                }
            }
        )),
        "the receipt records the shift: {:?}",
        receipt.events
    );
    assert_eq!(d.state().deadline_tick(), Some(110));
    assert_eq!(
        turn_ends(&receipt.events),
        vec![],
        "no turn ended in the outage"
    );
    // The turn is still seat 1's, and a move at 109 is in time.
    d.play(1, 109, cell(0, 0)).unwrap();
    assert_eq!(d.state().to_move(), Some(Seat(0)));
}

#[test]
fn a_deadline_that_passed_before_the_outage_still_ends_its_turn() {
    let mut d = driver("blitz");
    d.play(0, 10, cell(1, 1)).unwrap(); // seat 1's turn runs until tick 40
                                        // The last heartbeat was at 50: the deadline passed while the match was still served.
    let receipt = d
        .submit(
            None,
            120,
            Command::ClockResumed {
                last_heartbeat_tick: 50,
                takeover_tick: 120,
            },
        )
        .unwrap();
    assert_eq!(
        turn_ends(&receipt.events),
        vec![(2, Some(Seat(1)), TurnEndReason::Time)]
    );
    // Turn 3 (seat 0) began at 40 and had 20 ticks left at 50: its deadline is 120 + 20.
    assert_eq!(d.state().to_move(), Some(Seat(0)));
    assert_eq!(d.state().deadline_tick(), Some(140));
}
