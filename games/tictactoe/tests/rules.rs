//! Tic-Tac-Toe's rules through `Match::submit`: lines, draws, refusals, resigning, legal actions,
//! candidates, views and status.

mod common;

use common::{cell, cells, driver};
use common::{Command, Moves};
use turnstile_core::{
    ActionKind, Fingerprint, Game, LegalActionResolver, MatchStatus, Outcome, ParamRange,
    ParamSpec, Seat, Viewer,
};
use turnstile_kit::{game_events, turn_begins, turn_ends};
use turnstile_mnk::{KitEvent, MatchResult, MnkEvent, MnkWin, RESIGNED};
use turnstile_tictactoe::{TicTacToe, TicTacToeAction};
use turnstile_turns::TurnEndReason;

const LINES: [[(u16, u16); 3]; 8] = [
    [(0, 0), (1, 0), (2, 0)],
    [(0, 1), (1, 1), (2, 1)],
    [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (0, 1), (0, 2)],
    [(1, 0), (1, 1), (1, 2)],
    [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 1), (2, 2)],
    [(0, 2), (1, 1), (2, 0)],
];

/// A full board with no line: X O X / X O O / O X X.
const DRAW: [(u16, u16); 9] = [
    (0, 0),
    (1, 1),
    (2, 2),
    (1, 0),
    (1, 2),
    (0, 2),
    (2, 0),
    (2, 1),
    (0, 1),
];

#[test]
fn three_in_a_row_wins_on_every_line() {
    for line in LINES {
        // Seat 1 answers on the first two cells off the line; two marks can't make a line.
        let elsewhere: Vec<(u16, u16)> = (0..9)
            .map(|i| (i % 3, i / 3))
            .filter(|c| !line.contains(c))
            .take(2)
            .collect();
        let moves = [line[0], elsewhere[0], line[1], elsewhere[1], line[2]];
        let mut d = driver("untimed");
        let receipts = d.play_all(&cells(&moves)).unwrap();
        let mut expected: Vec<_> = line.iter().map(|&(c, r)| cell(c, r)).collect();
        let won = d.state().result().cloned();
        let Some(MatchResult::Game(MnkWin::Won { seat, line: found })) = won else {
            panic!("{line:?}: no win, result {won:?}");
        };
        assert_eq!(seat, Seat(0));
        if found != expected {
            expected.reverse();
        }
        assert_eq!(found, expected, "the whole line, end to end");
        let last = receipts.last().unwrap();
        assert_eq!(
            game_events(&last.events),
            vec![
                KitEvent::Game(MnkEvent::PiecePlaced {
                    seat: Seat(0),
                    column: line[2].0,
                    row: line[2].1
                }),
                KitEvent::match_ended(MatchResult::Game(MnkWin::Won {
                    seat: Seat(0),
                    line: found
                }))
            ]
        );
        assert_eq!(
            turn_begins(&last.events),
            vec![],
            "no turn begins after the end"
        );
        assert_eq!(
            d.game().status(),
            MatchStatus::Finished {
                outcome: Outcome {
                    kind: "win".into(),
                    winners: vec![Seat(0)]
                }
            }
        );
    }
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let mut d = driver("untimed");
    let receipts = d.play_all(&cells(&DRAW)).unwrap();
    assert_eq!(d.state().result(), Some(&MatchResult::Game(MnkWin::Draw)));
    assert!(game_events(&receipts.last().unwrap().events)
        .contains(&KitEvent::match_ended(MatchResult::Game(MnkWin::Draw))));
    assert_eq!(d.state().board().rows(), vec!["010", "011", "100"]);
    assert_eq!(
        d.game().status(),
        MatchStatus::Finished {
            outcome: Outcome {
                kind: "draw".into(),
                winners: vec![]
            }
        }
    );
    assert!(receipts[..8].iter().all(|r| !game_events(&r.events)
        .contains(&KitEvent::match_ended(MatchResult::Game(MnkWin::Draw)))));
}

#[test]
fn refusals_have_stable_codes_and_change_nothing() {
    let mut d = driver("untimed");
    d.play_all(&cells(&[(1, 1)])).unwrap();
    let cases: Vec<(Option<u16>, Command, &str)> = vec![
        (Some(1), Command::Play(cell(1, 1)), "cell_occupied"),
        (Some(1), Command::Play(cell(3, 0)), "out_of_range"),
        (Some(1), Command::Play(cell(0, 3)), "out_of_range"),
        (Some(0), Command::Play(cell(0, 0)), "not_your_turn"),
        (Some(1), Command::Skip, "not_skippable"),
        (Some(0), Command::Skip, "not_your_turn"),
        (Some(2), Command::Play(cell(0, 0)), "unknown_seat"),
        (None, Command::Play(cell(0, 0)), "seat_required"),
        (Some(1), Command::Timeout { turn_index: 2 }, "system_only"),
    ];
    for (seat, command, code) in cases {
        assert_eq!(d.refusal(seat, 0, command).unwrap(), code);
    }
    // Turn refusals come before board refusals: seat 0 on an occupied cell is not its turn.
    assert_eq!(
        d.refusal(Some(0), 0, Command::Play(cell(1, 1))).unwrap(),
        "not_your_turn"
    );
}

#[test]
fn nothing_is_accepted_after_the_end() {
    let won = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)];
    for moves in [&won[..], &DRAW[..]] {
        let mut d = driver("untimed");
        d.play_all(&cells(moves)).unwrap();
        assert!(d.state().result().is_some());
        for seat in [0, 1] {
            for command in [Command::Play(cell(2, 2)), Command::Skip, Command::Resign] {
                assert_eq!(d.refusal(Some(seat), 0, command).unwrap(), "match_over");
            }
        }
        let timeout = Command::Timeout {
            turn_index: d.state().turn_index(),
        };
        assert_eq!(d.refusal(None, 0, timeout).unwrap(), "match_over");
        let resolver = d.game().resolver();
        assert_eq!(d.game().legal_actions(Seat(0)).unwrap(), vec![]);
        assert_eq!(resolver.candidates(d.state(), Seat(1), 0).unwrap(), vec![]);
    }
}

#[test]
fn either_seat_may_resign_at_any_time_and_the_other_wins() {
    for (resigner, after_moves) in [(0u16, 0usize), (1, 0), (0, 3), (1, 3)] {
        let mut d = driver("blitz");
        d.play_all(&cells(&DRAW[..after_moves])).unwrap();
        let to_move = d.state().to_move().unwrap();
        let receipt = d.submit(Some(Seat(resigner)), 0, Command::Resign).unwrap();
        let winner = Seat(1 - resigner);
        assert_eq!(
            d.state().result(),
            Some(&MatchResult::Resigned {
                seat: Seat(resigner)
            })
        );
        assert_eq!(
            game_events(&receipt.events),
            vec![KitEvent::MatchEnded {
                result: MatchResult::Resigned {
                    seat: Seat(resigner)
                },
                winner: Some(winner)
            }]
        );
        // The turn in progress, whoever's it was, ends as resigned; no other begins.
        let index = d.state().turn_index();
        assert_eq!(
            turn_ends(&receipt.events),
            vec![(index, Some(to_move), TurnEndReason::Custom(RESIGNED.into()))]
        );
        assert_eq!(turn_begins(&receipt.events), vec![]);
        assert_eq!(
            d.state().deadline_tick(),
            None,
            "no timer runs after the end"
        );
        assert_eq!(
            d.game().status(),
            MatchStatus::Finished {
                outcome: Outcome {
                    kind: "resigned".into(),
                    winners: vec![winner]
                }
            }
        );
    }
}

fn mark_kind(cells: Vec<[u16; 2]>) -> ActionKind {
    ActionKind {
        kind: "mark".into(),
        params: vec![ParamSpec {
            name: "cell".into(),
            range: ParamRange::Cells { cells },
        }],
    }
}

#[test]
fn legal_actions_are_compact_and_follow_the_turn() {
    let mut d = driver("untimed");
    let all: Vec<[u16; 2]> = (0..9).map(|i| [i % 3, i / 3]).collect();
    assert_eq!(
        d.game().legal_actions(Seat(0)).unwrap(),
        vec![mark_kind(all.clone()), ActionKind::bare("resign")]
    );
    assert_eq!(
        d.game().legal_actions(Seat(1)).unwrap(),
        vec![ActionKind::bare("resign")]
    );
    d.play_all(&cells(&[(1, 1)])).unwrap();
    let open: Vec<[u16; 2]> = all.iter().copied().filter(|c| *c != [1, 1]).collect();
    assert_eq!(
        d.game().legal_actions(Seat(1)).unwrap(),
        vec![mark_kind(open), ActionKind::bare("resign")]
    );
    assert_eq!(
        d.game().legal_actions(Seat(2)).unwrap_err().code(),
        "unknown_seat"
    );
    // Under a skippable config the seat to move may also skip.
    let blitz = driver("blitz");
    assert_eq!(
        blitz.game().legal_actions(Seat(0)).unwrap(),
        vec![
            mark_kind(all),
            ActionKind::bare("skip"),
            ActionKind::bare("resign")
        ]
    );
}

#[test]
fn candidates_are_every_open_cell_for_the_seat_to_move_only() {
    let mut d = driver("untimed");
    d.play_all(&cells(&[(0, 0), (2, 2)])).unwrap();
    let resolver = d.game().resolver();
    let candidates = resolver.candidates(d.state(), Seat(0), 0).unwrap();
    assert_eq!(candidates.len(), 7);
    assert!(!candidates.contains(&TicTacToeAction::Play(cell(0, 0))));
    assert!(candidates
        .iter()
        .all(|a| matches!(a, TicTacToeAction::Play(_))));
    assert_eq!(resolver.candidates(d.state(), Seat(1), 0).unwrap(), vec![]);
    // The direct enumeration lists the same moves; the resolver keeps those that pass `check`.
    let content = &d.game().bundle().content;
    assert_eq!(
        TicTacToe::enumerate_actions(content, d.state(), Seat(0)),
        candidates
    );
    let other = LegalActionResolver::<TicTacToe>::new(content, 2);
    assert_eq!(other.candidates(d.state(), Seat(0), 0).unwrap(), candidates);
}

#[test]
fn everyone_sees_the_same_view() {
    let mut d = driver("timed");
    d.play_all(&cells(&[(0, 0), (1, 1)])).unwrap();
    let view = d.game().view(Viewer::Spectator);
    assert_eq!(view.board.rows(), vec!["0..", ".1.", "..."]);
    assert_eq!(view.to_move, Some(Seat(0)));
    assert_eq!(view.turn_index, 3);
    assert_eq!(view.deadline_tick, Some(150));
    assert_eq!(view.turn_config.as_ref().map(|c| c.as_str()), Some("timed"));
    assert_eq!(view.result, None);
    let fingerprint = Fingerprint::of(&view).unwrap();
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Referee,
    ] {
        assert_eq!(
            Fingerprint::of(&d.game().view(viewer)).unwrap(),
            fingerprint
        );
    }
    let receipt = d.game().log().last().unwrap().receipt.clone();
    assert_eq!(receipt.views.seats, vec![fingerprint, fingerprint]);
    assert_eq!(
        serde_json::to_value(&view).unwrap()["rows"],
        serde_json::json!(["0..", ".1.", "..."])
    );
}

#[test]
fn actions_and_events_have_camel_case_json() {
    let mark: TicTacToeAction =
        serde_json::from_str(r#"{"type": "mark", "cell": [2, 1]}"#).unwrap();
    assert_eq!(mark, TicTacToeAction::Play(cell(2, 1)));
    assert_eq!(
        serde_json::to_string(&TicTacToeAction::Timeout { turn_index: 4 }).unwrap(),
        r#"{"type":"timeout","turnIndex":4}"#
    );
    for bad in [
        r#"{"type": "mark"}"#,
        r#"{"type": "mark", "cell": [1, 1], "seat": 0}"#,
        r#"{"type": "drop", "column": 1}"#,
    ] {
        assert!(
            serde_json::from_str::<TicTacToeAction>(bad).is_err(),
            "{bad}"
        );
    }
    let mut d = driver("untimed");
    let receipt = d.play_all(&cells(&[(2, 1)])).unwrap().remove(0);
    let events = serde_json::to_value(&receipt.events).unwrap();
    assert!(events
        .as_array()
        .unwrap()
        .contains(&serde_json::json!({"type": "piecePlaced", "seat": 0, "column": 2, "row": 1})));
    assert!(events.as_array().unwrap().contains(&serde_json::json!(
        {"type": "turn", "event": {"type": "turnEnded", "turnIndex": 1, "player": 0, "entity": null, "reason": "play", "ticks": 0}}
    )));
    // Format 3: the framework's bookkeeping (the command's echo, status steps, activation,
    // timer reset) is a signal and stays out of the receipt; the turn events clients render
    // are all that is left of the framework.
    let turn_events: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"]["type"].as_str())
        .collect();
    assert_eq!(turn_events, ["turnEnded", "turnBegan"], "{events}");
}
