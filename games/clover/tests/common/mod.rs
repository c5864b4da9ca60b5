//! Shared helpers of clover's tests: cards from short text, a run with jokers, scoring.
#![allow(dead_code)]

use turnstile_clover::cards::{Card, Suit};
use turnstile_clover::{
    score_hand, Clover, CloverConfig, CloverContent, CloverState, Content, RunState, ScoreReceipt,
};
use turnstile_core::{Game, MatchSetup};

/// The shipped content (loads or panics with its problems).
pub fn content() -> Content {
    Content::shipped().unwrap_or_else(|p| panic!("{p:#?}"))
}

/// Cards from `AS 10H QD`.
pub fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| {
            let (rank, suit) = t.split_at(t.len() - 1);
            let rank = match rank {
                "A" => 14,
                "K" => 13,
                "Q" => 12,
                "J" => 11,
                r => r.parse().unwrap(),
            };
            let suit = match suit {
                "S" => Suit::Spades,
                "H" => Suit::Hearts,
                "C" => Suit::Clubs,
                _ => Suit::Diamonds,
            };
            Card::new(rank, suit)
        })
        .collect()
}

/// A fresh run holding `jokers`, rules rebuilt.
pub fn run_with(content: &Content, jokers: &[&str]) -> RunState {
    let mut run = RunState::new("test-seed", 1, "plain").unwrap();
    for j in jokers {
        run.jokers
            .push(content.joker(j).unwrap_or_else(|| panic!("no joker {j}")));
    }
    turnstile_clover::run::rebuild(&mut run, content).unwrap();
    run.hands_left = 3;
    run.discards_left = 3;
    run
}

/// Scores `played` / `held` with `jokers`.
pub fn score(content: &Content, jokers: &[&str], played: &str, held: &str) -> ScoreReceipt {
    let mut run = run_with(content, jokers);
    score_hand(&mut run, content, &cards(played), &cards(held), true).unwrap()
}

/// A new game on the plain deck at `stake`, set up as a match would be.
pub fn new_game(seed: &str, stake: u8) -> (CloverContent, CloverState) {
    let content = CloverContent::shipped().unwrap();
    let config = CloverConfig {
        stake,
        deck: "plain".into(),
    };
    let state = Clover::setup(
        &content,
        MatchSetup {
            config: &config,
            seed,
            seats: 1,
        },
    )
    .unwrap();
    (content, state)
}
