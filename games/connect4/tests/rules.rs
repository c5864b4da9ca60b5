//! Connect Four's rules through `Match::submit`: gravity, full and missing columns, four in a
//! row in every direction, the draw, legal actions, candidates and the end of the match.

mod common;

use common::{driver, DRAW};
use common::{Command, Moves};
use turnstile_connect4::{bundled_source, ConnectFour, ConnectFourAction, ConnectFourRules};
use turnstile_core::{ActionKind, Game, MatchStatus, ParamRange, ParamSpec, Seat};
use turnstile_kit::game_events;
use turnstile_mnk::{Cell, KitEvent, MatchResult, Mnk, MnkEvent, MnkWin};
use turnstile_runtime::GameRegistry;

fn placed(seat: u16, column: u16, row: u16) -> KitEvent<Mnk<ConnectFourRules>> {
    KitEvent::Game(MnkEvent::PiecePlaced {
        seat: Seat(seat),
        column,
        row,
    })
}

#[test]
fn discs_fall_to_the_lowest_open_cell() {
    let mut d = driver("untimed");
    let receipts = d.play_all(&[3, 3, 3, 4]).unwrap();
    let events: Vec<_> = receipts
        .iter()
        .flat_map(|r| game_events(&r.events))
        .collect();
    assert_eq!(
        events,
        vec![
            placed(0, 3, 5),
            placed(1, 3, 4),
            placed(0, 3, 3),
            placed(1, 4, 5)
        ]
    );
    assert_eq!(
        d.state().board().rows(),
        vec![".......", ".......", ".......", "...0...", "...1...", "...01.."]
    );
}

#[test]
fn four_in_a_row_wins_in_every_direction() {
    /// A direction, the drops that make seat 0 win that way, and the line.
    type Case = (&'static str, &'static [u16], [(u16, u16); 4]);
    let cases: [Case; 4] = [
        (
            "across",
            &[0, 0, 1, 1, 2, 2, 3],
            [(0, 5), (1, 5), (2, 5), (3, 5)],
        ),
        (
            "down",
            &[0, 1, 0, 1, 0, 1, 0],
            [(0, 2), (0, 3), (0, 4), (0, 5)],
        ),
        (
            "diagonal up-right",
            &[0, 1, 1, 2, 3, 2, 2, 3, 6, 3, 3],
            [(0, 5), (1, 4), (2, 3), (3, 2)],
        ),
        (
            "diagonal down-right",
            &[6, 5, 5, 4, 3, 4, 4, 3, 0, 3, 3],
            [(3, 2), (4, 3), (5, 4), (6, 5)],
        ),
    ];
    for (direction, moves, line) in cases {
        let mut d = driver("untimed");
        let receipts = d.play_all(moves).unwrap();
        let (last, earlier) = receipts.split_last().unwrap();
        assert!(
            earlier.iter().all(|r| game_events(&r.events).len() == 1),
            "{direction}"
        );
        let Some(MatchResult::Game(MnkWin::Won { seat, line: found })) =
            d.state().result().cloned()
        else {
            panic!("{direction}: no win: {:?}", d.state().result());
        };
        let mut expected: Vec<Cell> = line.iter().map(|&(c, r)| Cell::new(c, r)).collect();
        if found.first() != expected.first() {
            expected.reverse();
        }
        assert_eq!((seat, &found), (Seat(0), &expected), "{direction}");
        assert_eq!(
            game_events(&last.events)[1],
            KitEvent::match_ended(MatchResult::Game(MnkWin::Won {
                seat: Seat(0),
                line: found
            }))
        );
    }
}

#[test]
fn a_full_board_without_four_in_a_row_is_a_draw() {
    let mut d = driver("untimed");
    let receipts = d.play_all(&DRAW).unwrap();
    assert_eq!(d.state().result(), Some(&MatchResult::Game(MnkWin::Draw)));
    assert_eq!(
        game_events(&receipts[41].events)[1],
        KitEvent::match_ended(MatchResult::Game(MnkWin::Draw))
    );
    assert!(
        matches!(d.game().status(), MatchStatus::Finished { outcome } if outcome.kind == "draw" && outcome.winners.is_empty())
    );
    assert_eq!(d.state().board().rows()[5], "0011001");
}

#[test]
fn full_and_missing_columns_are_refused() {
    let mut d = driver("untimed");
    d.play_all(&[0, 0, 0, 0, 0, 0]).unwrap();
    assert_eq!(
        d.refusal(Some(0), 0, Command::Play(0)).unwrap(),
        "column_full"
    );
    assert_eq!(
        d.refusal(Some(0), 0, Command::Play(7)).unwrap(),
        "out_of_range"
    );
    assert_eq!(
        d.refusal(Some(0), 0, Command::Play(u16::MAX)).unwrap(),
        "out_of_range"
    );
    assert_eq!(
        d.refusal(Some(1), 0, Command::Play(1)).unwrap(),
        "not_your_turn"
    );
    assert_eq!(
        d.refusal(Some(0), 0, Command::Skip).unwrap(),
        "not_skippable"
    );
}

#[test]
fn nothing_is_accepted_after_the_end() {
    let mut d = driver("untimed");
    d.play_all(&[0, 1, 0, 1, 0, 1, 0]).unwrap();
    for seat in [0, 1] {
        for command in [Command::Play(4), Command::Skip, Command::Resign] {
            assert_eq!(d.refusal(Some(seat), 0, command).unwrap(), "match_over");
        }
    }
    assert_eq!(d.game().legal_actions(Seat(1)).unwrap(), vec![]);
}

fn drop_kind(range: ParamRange) -> ActionKind {
    ActionKind {
        kind: "drop".into(),
        params: vec![ParamSpec {
            name: "column".into(),
            range,
        }],
    }
}

#[test]
fn legal_drops_are_a_range_of_open_columns() {
    let mut d = driver("untimed");
    let resign = ActionKind::bare("resign");
    assert_eq!(
        d.game().legal_actions(Seat(0)).unwrap(),
        vec![
            drop_kind(ParamRange::Integer { min: 0, max: 6 }),
            resign.clone()
        ]
    );
    assert_eq!(
        d.game().legal_actions(Seat(1)).unwrap(),
        vec![resign.clone()]
    );
    d.play_all(&[0, 0, 0, 0, 0, 0]).unwrap();
    assert_eq!(
        d.game().legal_actions(Seat(0)).unwrap()[0],
        drop_kind(ParamRange::Integer { min: 1, max: 6 })
    );
    d.play_all(&[3, 3, 3, 3, 3, 3]).unwrap();
    let values = [1i64, 2, 4, 5, 6]
        .map(turnstile_core::ParamValue::Int)
        .to_vec();
    assert_eq!(
        d.game().legal_actions(Seat(0)).unwrap(),
        vec![drop_kind(ParamRange::OneOf { values }), resign]
    );
    let candidates = d
        .game()
        .resolver()
        .candidates(d.state(), Seat(0), 0)
        .unwrap();
    let columns: Vec<u16> = candidates
        .iter()
        .map(|a| match a {
            ConnectFourAction::Play(column) => *column,
            other => panic!("only drops are candidates, not {other:?}"),
        })
        .collect();
    assert_eq!(columns, vec![1, 2, 4, 5, 6]);
    let skippable = driver("blitz");
    assert_eq!(
        skippable.game().legal_actions(Seat(0)).unwrap()[1],
        ActionKind::bare("skip")
    );
}

#[test]
fn actions_have_camel_case_json_and_the_registry_knows_the_game() {
    let drop: ConnectFourAction = serde_json::from_str(r#"{"type": "drop", "column": 3}"#).unwrap();
    assert_eq!(drop, ConnectFourAction::Play(3));
    assert!(
        serde_json::from_str::<ConnectFourAction>(r#"{"type": "drop", "column": -1}"#).is_err()
    );
    assert!(
        serde_json::from_str::<ConnectFourAction>(r#"{"type": "mark", "cell": [0, 0]}"#).is_err()
    );
    let mut registry = GameRegistry::new();
    registry.register::<ConnectFour>();
    let (game, _) = registry.validate_content(&bundled_source()).unwrap();
    assert_eq!(game, "connect4");
    assert_eq!(ConnectFour::ID, "connect4");
}
