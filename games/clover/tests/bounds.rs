//! Values past the integer types the rules hold are refused or listed as far as commands can
//! name them, never cut down to a neighbouring value (`src/indices.rs`).

mod common;

use common::{cards, new_game};
use turnstile_clover::game::Phase;
use turnstile_clover::{bot_action, Clover, CloverAction};
use turnstile_core::{Game, Seat};
use turnstile_effects::{EffectHost, Target};

#[test]
fn an_ante_past_u32_is_refused_and_one_below_1_is_ante_1() {
    let (_, mut s) = new_game("bounds", 1);
    let run = &mut s.run;
    let err = run
        .set_resource(Target::Seat(Seat(0)), "ante", i64::from(u32::MAX) + 1)
        .unwrap_err();
    assert_eq!(err.code, "bad_value");
    assert_eq!(run.ante, 1, "nothing half-applied");
    run.set_resource(Target::Seat(Seat(0)), "ante", 9).unwrap();
    assert_eq!(run.ante, 9);
    run.set_resource(Target::Seat(Seat(0)), "ante", -3).unwrap();
    assert_eq!(run.ante, 1);
}

#[test]
fn the_shop_lists_each_joker_a_command_can_name_once() {
    let (content, mut s) = new_game("bounds", 1);
    s.phase = Phase::Shop;
    let joker = content.content().joker("harlequin").unwrap();
    s.run.jokers = vec![joker; 300];
    let sells: Vec<u8> = Clover::enumerate_actions(&content, &s, Seat(0))
        .into_iter()
        .filter_map(|a| match a {
            CloverAction::Sell { slot } => Some(slot),
            _ => None,
        })
        .collect();
    assert_eq!(
        sells,
        (0..=255).collect::<Vec<u8>>(),
        "slots 0 to 255, once each"
    );
}

#[test]
fn the_bot_plays_a_grown_hand_without_weighing_every_subset() {
    let (content, mut s) = new_game("bounds", 1);
    s.apply(content.content(), &CloverAction::SelectBlind)
        .unwrap();
    let mut hand = Vec::new();
    for _ in 0..5 {
        hand.extend(cards("2S 3H 4C 5D 7S 8H 9C"));
    }
    hand.extend(cards("AS AH AC"));
    s.hand = hand;
    assert_eq!(s.hand.len(), 38);
    let Some(CloverAction::Play { cards }) = bot_action(content.content(), &s) else {
        panic!("the bot plays")
    };
    // It weighs the twelve cards with the most chips: three aces, five 9s, four of the 8s.
    let picked: Vec<u8> = cards.iter().map(|&i| s.hand[usize::from(i)].rank).collect();
    assert!(picked.iter().all(|&r| r >= 8), "{picked:?}");
    s.apply(content.content(), &CloverAction::Play { cards })
        .unwrap();
}
