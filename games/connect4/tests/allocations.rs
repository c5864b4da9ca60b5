//! Heap allocations on the hot paths of a Connect Four match, counted by a global allocator
//! (`stats_alloc`) — counts, not time, so the test is exact on any machine and load.
//!
//! What it pins (issue 14): fingerprinting a state, its view and a receipt's hashed fields with a
//! reused `Fingerprinter` allocates nothing once its buffers have grown (the lean board and the
//! board view are written from the bitboards, no strings built); and a move on the bare rules —
//! the resolver's `apply_into` or `apply_lean_into` with a reused event list — allocates
//! nothing at all until the move that wins: the kit records game and turn events straight into the caller's list
//! (`GameEvents`), and the copy it judges on keeps its per-seat data and the round's
//! commanders inline; and listing a position's moves into a reused list
//! (`Game::enumerate_actions_into`) allocates nothing either.
//!
//! Everything runs in one test function: the allocator is global, and tests of one binary run
//! on several threads.

use std::alloc::System;
use std::sync::Arc;

use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use turnstile_connect4::ConnectFour;
use turnstile_core::determinism::Fingerprinter;
use turnstile_core::{CommandContext, Game, LegalActionResolver, MatchSetup, Seat, Viewer};
use turnstile_mnk::MatchConfig;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Allocations of the move that wins: the line's cells, kept in the state's result and in the
/// `matchEnded` event.
const WINNING_MOVE_CEILING: usize = 2;

/// The columns of a fixed game that ends in a line for seat 0 on move 7.
const GAME: [u16; 7] = [0, 1, 0, 1, 0, 1, 0];

#[test]
fn hot_paths_allocate_what_they_must_and_no_more() {
    let bundle = Arc::new(turnstile_connect4::bundled().unwrap());
    let rules = &bundle.content;
    let resolver = LegalActionResolver::<ConnectFour>::new(rules, 2);
    let config = MatchConfig::default();
    let fresh = || {
        let setup = MatchSetup {
            config: &config,
            seed: "allocations",
            seats: 2,
        };
        ConnectFour::setup(rules, setup).unwrap()
    };
    let play = |state: &mut <ConnectFour as Game>::State| {
        for column in GAME {
            let seat = state.to_move().unwrap();
            let action = turnstile_mnk::Action::Play(column);
            let ctx = CommandContext {
                seat: Some(seat),
                tick: 0,
            };
            std::hint::black_box(resolver.apply(state, ctx, &action).unwrap());
        }
    };

    // Warm-up: every buffer and lazily built table grows once.
    let mut fingerprinter = Fingerprinter::new();
    let mut state = fresh();
    play(&mut state);
    let mid = {
        let mut s = fresh();
        let ctx = CommandContext {
            seat: Some(Seat(0)),
            tick: 0,
        };
        resolver
            .apply(&mut s, ctx, &turnstile_mnk::Action::Play(3))
            .unwrap();
        s
    };
    let view = ConnectFour::view(rules, &mid, Viewer::Spectator);
    // A few rounds: the writer's memo of field names starts with its second value.
    for _ in 0..3 {
        fingerprinter
            .fingerprint(&ConnectFour::fingerprint_form(&mid))
            .unwrap();
        fingerprinter.fingerprint(&view).unwrap();
    }

    // Fingerprinting: nothing at all.
    let region = Region::new(GLOBAL);
    for _ in 0..100 {
        std::hint::black_box(
            fingerprinter
                .fingerprint(&ConnectFour::fingerprint_form(&mid))
                .unwrap(),
        );
        std::hint::black_box(fingerprinter.fingerprint(&view).unwrap());
    }
    let fingerprints = region.change();
    assert_eq!(
        fingerprints.allocations, 0,
        "fingerprinting a state and its view allocated: {fingerprints:?}"
    );

    // Building the view: nothing (the rows are written from the board when serialized).
    let region = Region::new(GLOBAL);
    for _ in 0..100 {
        std::hint::black_box(ConnectFour::view(rules, &mid, Viewer::Spectator));
    }
    assert_eq!(region.change().allocations, 0, "building a view allocated");

    // Bare moves through `apply_into` (every signal made) and `apply_lean_into` (what a
    // format-3 match runs: no signals made) with one reused event list: none at all while the
    // game goes on; the winning move builds its line (kept in the result and in `matchEnded`).
    for lean in [false, true] {
        let games = 100;
        let mut states: Vec<_> = (0..games).map(|_| fresh()).collect();
        let mut events = Vec::with_capacity(32);
        let (mut steady, mut winning) = (0, 0);
        for state in &mut states {
            for (i, column) in GAME.into_iter().enumerate() {
                let seat = state.to_move().unwrap();
                let ctx = CommandContext {
                    seat: Some(seat),
                    tick: 0,
                };
                events.clear();
                let action = turnstile_mnk::Action::Play(column);
                let region = Region::new(GLOBAL);
                if lean {
                    resolver.apply_lean_into(state, ctx, &action, &mut events)
                } else {
                    resolver.apply_into(state, ctx, &action, &mut events)
                }
                .unwrap();
                let allocations = region.change().allocations;
                if i + 1 < GAME.len() {
                    steady += allocations;
                } else {
                    winning += allocations;
                }
            }
            assert!(state.result().is_some(), "the fixed game ends in a line");
        }
        assert_eq!(
            steady, 0,
            "bare moves (lean: {lean}) that do not end the game allocated"
        );
        assert!(
            winning <= WINNING_MOVE_CEILING * games,
            "{games} winning moves (lean: {lean}) allocated {winning} times, more than \
             {WINNING_MOVE_CEILING} each"
        );
    }

    // Listing the moves into a reused list (`enumerate_actions_into`, what the random games of
    // `turnstile bench` do before every move): nothing once the list has grown. The positions
    // of the fixed game are played first, outside the counted region.
    let mut positions = vec![fresh()];
    for column in &GAME[..GAME.len() - 1] {
        let mut next = positions.last().unwrap().clone();
        let seat = next.to_move().unwrap();
        let ctx = CommandContext {
            seat: Some(seat),
            tick: 0,
        };
        resolver
            .apply(&mut next, ctx, &turnstile_mnk::Action::Play(*column))
            .unwrap();
        positions.push(next);
    }
    let mut listed = Vec::new();
    ConnectFour::enumerate_actions_into(rules, &positions[0], Seat(0), &mut listed);
    assert_eq!(listed.len(), 7, "an empty board lists every column");
    let region = Region::new(GLOBAL);
    let mut total = 0;
    for (position, column) in positions.iter().zip(GAME) {
        let seat = position.to_move().unwrap();
        ConnectFour::enumerate_actions_into(rules, position, seat, &mut listed);
        total += listed.len();
        assert!(listed.contains(&turnstile_mnk::Action::Play(column)));
    }
    assert_eq!(
        region.change().allocations,
        0,
        "listing moves into a reused list allocated"
    );
    assert!(
        total >= GAME.len() * 6,
        "every position lists its open columns"
    );

    // The resolver's `apply`, which returns a new list of events: that list, and nothing else.
    let mut state = fresh();
    let region = Region::new(GLOBAL);
    for column in &GAME[..GAME.len() - 1] {
        let seat = state.to_move().unwrap();
        let ctx = CommandContext {
            seat: Some(seat),
            tick: 0,
        };
        std::hint::black_box(
            resolver
                .apply(&mut state, ctx, &turnstile_mnk::Action::Play(*column))
                .unwrap(),
        );
    }
    let moves = GAME.len() as u64 - 1;
    let allocations = region.change().allocations as u64;
    assert!(
        allocations <= moves * 4,
        "{moves} moves through `apply` allocated {allocations} times: more than their event lists"
    );
}
