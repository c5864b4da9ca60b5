//! The bots through the legality boundary: the perfect bot never loses to the random bot and
//! always draws against itself, takes a win when it has one, blocks one when it must, and
//! chooses the same move for the same seed.

mod common;

use common::{cell, cells, driver, Moves, Strong};
use turnstile_core::Seat;
use turnstile_mnk::search::WIN;
use turnstile_mnk::{MatchConfig, MatchResult, MnkWin};
use turnstile_runtime::testing::Driver;
use turnstile_runtime::{Bot, RandomBot};
use turnstile_tictactoe::{StrongBot, TicTacToe, TicTacToeAction};

fn play(seed: &str, bots: &mut [&mut dyn Bot<TicTacToe>; 2]) -> MatchResult<MnkWin> {
    let mut d = Driver::<TicTacToe>::new(common::bundle(), MatchConfig::default(), seed).unwrap();
    d.play_bots(bots, 0).unwrap();
    d.state().result().cloned().unwrap()
}

/// Seeds `ttt-0` … `ttt-999`; the strong bot takes seat 0 in even matches, seat 1 in odd ones.
#[test]
fn the_strong_bot_never_loses_to_the_random_bot_over_1000_matches() {
    let mut wins = 0;
    for i in 0..1000u16 {
        let seed = format!("ttt-{i}");
        let strong_seat = Seat(i % 2);
        let mut strong = Strong(StrongBot::new(&seed, strong_seat).unwrap());
        let mut random = RandomBot::new(&seed, Seat(1 - strong_seat.0)).unwrap();
        let mut bots: [&mut dyn Bot<TicTacToe>; 2] = if strong_seat.0 == 0 {
            [&mut strong, &mut random]
        } else {
            [&mut random, &mut strong]
        };
        let result = play(&seed, &mut bots);
        match result.winner() {
            Some(seat) => assert_eq!(seat, strong_seat, "{seed}: {result:?}"),
            None => assert_eq!(result, MatchResult::Game(MnkWin::Draw)),
        }
        wins += u32::from(result.winner().is_some());
    }
    assert!(
        wins > 800,
        "a perfect player beats a random one most of the time: {wins}"
    );
}

#[test]
fn the_strong_bot_always_draws_against_itself() {
    for i in 0..200 {
        let seed = format!("mirror-{i}");
        let mut first = Strong(StrongBot::new(&seed, Seat(0)).unwrap());
        let mut second = Strong(StrongBot::new(&seed, Seat(1)).unwrap());
        assert_eq!(
            play(&seed, &mut [&mut first, &mut second]),
            MatchResult::Game(MnkWin::Draw),
            "{seed}"
        );
    }
}

fn choice(d: &Driver<TicTacToe>, seed: &str, seat: u16) -> (Option<TicTacToeAction>, i32) {
    let mut bot = StrongBot::new(seed, Seat(seat)).unwrap();
    let action = bot.choose(&d.game().resolver(), d.state(), Seat(seat), 0);
    (action, bot.last_report().map_or(0, |r| r.score))
}

#[test]
fn the_strong_bot_wins_when_it_can_and_blocks_when_it_must() {
    // Seat 0 holds (0,0) and (1,0) and is to move: it completes the top row at once.
    let mut d = driver("untimed");
    d.play_all(&cells(&[(0, 0), (0, 2), (1, 0), (1, 2)]))
        .unwrap();
    let (action, score) = choice(&d, "win", 0);
    assert_eq!(action, Some(TicTacToeAction::Play(cell(2, 0))));
    assert_eq!(score, WIN - 1);
    // Seat 1 must block the top row rather than start its own.
    let mut d = driver("untimed");
    d.play_all(&cells(&[(0, 0), (1, 1), (1, 0)])).unwrap();
    assert_eq!(
        choice(&d, "block", 1).0,
        Some(TicTacToeAction::Play(cell(2, 0)))
    );
    // Not its turn, or the match over: no move.
    assert_eq!(choice(&d, "block", 0).0, None);
}

#[test]
fn the_same_seed_gets_the_same_move_and_ties_are_drawn_from_it() {
    let d = driver("untimed");
    let picks: Vec<_> = (0..40)
        .map(|i| choice(&d, &format!("tie-{i}"), 0).0.unwrap())
        .collect();
    for (i, pick) in picks.iter().enumerate() {
        assert_eq!(&choice(&d, &format!("tie-{i}"), 0).0.unwrap(), pick);
    }
    // On the empty board every first move draws: the bot spreads its choice over several.
    let distinct: std::collections::BTreeSet<String> =
        picks.iter().map(|a| format!("{a:?}")).collect();
    assert!(distinct.len() > 1, "{distinct:?}");
}
