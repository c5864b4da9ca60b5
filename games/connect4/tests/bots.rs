//! The bots through the legality boundary: full matches through `Match::submit`, the strong
//! bot's strength against the random bot, and the determinism of its choices.

mod common;

use std::sync::Arc;

use common::{Moves, Strong};
use turnstile_connect4::{bundled, ConnectFour, StrongBot};
use turnstile_core::Seat;
use turnstile_mnk::{MatchConfig, MatchResult, MnkWin};
use turnstile_runtime::testing::Driver;
use turnstile_runtime::{Bot, RandomBot, SeatSpec};

fn seats(strong: u16) -> Vec<SeatSpec> {
    let bot = |name: &str| SeatSpec {
        kind: turnstile_runtime::SeatKind::Bot,
        bot: Some(name.into()),
    };
    let mut seats = vec![bot("random"), bot("random")];
    seats[usize::from(strong)] = bot("strong");
    seats
}

/// The strong bot never loses to the random bot over 1000 seeded matches (seeds `c4-0` …
/// `c4-999`), taking seat 0 in even matches and seat 1 in odd ones.
#[test]
fn strong_never_loses_to_random_over_1000_matches() {
    let bundle = Arc::new(bundled().unwrap());
    let (mut wins, mut draws) = (0, 0);
    for i in 0..1000u32 {
        let seed = format!("c4-{i}");
        let strong_seat = Seat((i % 2) as u16);
        let mut strong = Strong(StrongBot::new(&seed, strong_seat).unwrap());
        let mut random = RandomBot::new(&seed, Seat(1 - strong_seat.0)).unwrap();
        let mut driver = Driver::<ConnectFour>::with_seats(
            bundle.clone(),
            MatchConfig::default(),
            &seed,
            seats(strong_seat.0),
        )
        .unwrap();
        let mut bots: [&mut dyn Bot<ConnectFour>; 2] = if strong_seat.0 == 0 {
            [&mut strong, &mut random]
        } else {
            [&mut random, &mut strong]
        };
        driver.play_bots(&mut bots, 0).unwrap();
        let result = driver.state().result().unwrap();
        match result.winner() {
            Some(seat) if seat == strong_seat => wins += 1,
            None => draws += 1,
            Some(_) => panic!(
                "{seed}: the strong bot lost: {result:?}\n{:#?}",
                driver.state().board().rows()
            ),
        }
        assert!(matches!(
            result,
            MatchResult::Game(MnkWin::Won { .. }) | MatchResult::Game(MnkWin::Draw)
        ));
    }
    eprintln!("strong bot against random: {wins} wins, {draws} draws, 0 losses in 1000 matches");
}

fn choice(moves: &[u16], seed: &str) -> (Option<u16>, i32) {
    let bundle = Arc::new(bundled().unwrap());
    let mut d = Driver::<ConnectFour>::new(bundle, MatchConfig::default(), "tactics").unwrap();
    d.play_all(moves).unwrap();
    let seat = d.state().to_move().unwrap();
    let mut bot = StrongBot::new(seed, seat).unwrap();
    let action = bot.choose(&d.game().resolver(), d.state(), seat, 0);
    let column = action.map(|a| match a {
        turnstile_connect4::ConnectFourAction::Play(column) => column,
        other => panic!("the bot chose {other:?}"),
    });
    (column, bot.last_report().unwrap().score)
}

#[test]
fn the_strong_bot_takes_a_win_blocks_a_threat_and_sees_a_double_threat() {
    // Seat 0 has three across the bottom (0, 1, 2): it completes them in column 3.
    let (column, score) = choice(&[0, 0, 1, 1, 2, 5], "win");
    assert_eq!(column, Some(3));
    assert_eq!(score, turnstile_mnk::search::WIN - 1);
    // Seat 1 must block column 3 (seat 0 threatens 0-1-2-3 across the bottom).
    assert_eq!(choice(&[0, 6, 1, 6, 2], "block").0, Some(3));
    // Seat 0 holds 2 and 3 with 1 and 4 open on both sides: dropping in 1 or 4 makes two
    // threats at once, a forced win.
    let (column, score) = choice(&[2, 2, 3, 3], "double");
    assert!(matches!(column, Some(1) | Some(4)), "{column:?}");
    assert!(score > turnstile_mnk::search::WIN - 10, "{score}");
}

#[test]
fn the_same_seed_gets_the_same_move() {
    for i in 0..20 {
        let seed = format!("same-{i}");
        assert_eq!(choice(&[3, 3], &seed), choice(&[3, 3], &seed));
    }
}
