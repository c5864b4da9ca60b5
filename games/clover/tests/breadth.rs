//! The genre's breadth (issue 12, point 2): one table-driven test per sort of thing, each case
//! naming the thing, its setup and the exact change it must make — so a row that stops
//! acting, or acts with another number, fails the case that names it.

mod common;

use common::*;
use turnstile_clover::cards::{Enhancement, Seal, Suit};
use turnstile_clover::hands::HandType;
use turnstile_clover::run::{self, Blind};
use turnstile_clover::state::{RoundTargets, Rule};
use turnstile_clover::CloverAction;
use turnstile_clover::{score_hand, Content, RunState};
use turnstile_core::determinism::Fixed;

/// A scoring case: `jokers` (each with a counter), a setup, the hand, and the chips and mult
/// it must end with.
struct Scored {
    thing: &'static str,
    jokers: &'static [(&'static str, i64)],
    setup: fn(&mut RunState),
    played: &'static str,
    held: &'static str,
    chips: i64,
    /// Mult in ten-thousandths (`20_000` is ×2).
    mult: i64,
}

fn none(_: &mut RunState) {}

fn last_hand(run: &mut RunState) {
    run.hands_left = 0;
}

/// 20 cards left to draw, 4 steel, 2 stone, 3 nines, 16 enhanced, 48 in all.
fn deck_counts(run: &mut RunState) {
    run.scoring.deck = turnstile_clover::state::DeckCounts {
        left: 20,
        steel: 4,
        stone: 2,
        nines: 3,
        enhanced: 16,
        size: 48,
    };
}

/// High card played 3 times this run, the pair never.
fn high_card_most_played(run: &mut RunState) {
    run.played_counts[0] = 3;
}

/// The pair played 3 times this run, high card once.
fn pair_most_played(run: &mut RunState) {
    run.played_counts[0] = 1;
    run.played_counts[1] = 3;
}

/// Round targets: the card ace of spades, the suit hearts, discards of hearts and of fives,
/// the hand a pair.
fn targets_ace_of_spades_hearts_pair(run: &mut RunState) {
    run.round_targets = RoundTargets {
        card_rank: 14,
        card_suit: Suit::Spades,
        suit: Suit::Hearts,
        discard_suit: Suit::Hearts,
        discard_rank: 5,
        hand: HandType::Pair,
    };
}

fn discard(run: &mut RunState, c: &Content, text: &str) {
    run::discard(run, c, &cards(text)).unwrap();
}

fn rich(run: &mut RunState) {
    run.money = 10;
}

fn run_of(c: &Content, jokers: &[(&str, i64)]) -> RunState {
    let ids: Vec<&str> = jokers.iter().map(|(j, _)| *j).collect();
    let mut run = run_with(c, &ids);
    for (slot, (_, counter)) in jokers.iter().enumerate() {
        run.jokers[slot].counter = *counter;
    }
    run::rebuild(&mut run, c).unwrap();
    run
}

const W: i64 = 10_000;

/// Pair of aces (`AS AH 3C`): 10 + 11 + 11 = 32 chips, ×2 — the baseline most cases change.
const SCORED: &[Scored] = &[
    // A 52-card start, 48 now: four lost, +16.
    Scored {
        thing: "landslide",
        jokers: &[("landslide", 0)],
        setup: |r| {
            deck_counts(r);
            r.deck_start = 52;
        },
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 18 * W,
    },
    // A bare run (the calculator) does not know its deck: nothing lost.
    Scored {
        thing: "landslide (no deck told)",
        jokers: &[("landslide", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    // Six mult gathered from destroyed neighbours: 2 + 6.
    Scored {
        thing: "ritual_knife",
        jokers: &[("ritual_knife", 6)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 8 * W,
    },
    // Four jokers sold: x2.
    Scored {
        thing: "bonfire",
        jokers: &[("bonfire", 4)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 4 * W,
    },
    // The round's card is the ace of spades: only the AS is it (x2); the AH is the wrong suit.
    Scored {
        thing: "effigy",
        jokers: &[("effigy", 0)],
        setup: targets_ace_of_spades_hearts_pair,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 4 * W,
    },
    // The round's suit is hearts: the AH scores x1.5.
    Scored {
        thing: "relic",
        jokers: &[("relic", 0)],
        setup: targets_ace_of_spades_hearts_pair,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 3 * W,
    },
    Scored {
        thing: "relic (no scored card of the suit)",
        jokers: &[("relic", 0)],
        setup: targets_ace_of_spades_hearts_pair,
        played: "AS AC 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    // Nine chips gathered from three discarded cards of the round's suit.
    Scored {
        thing: "keep",
        jokers: &[("keep", 9)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 41,
        mult: 2 * W,
    },
    // Two hands in a row without the most played hand (high card, played 3 times), and this
    // pair is a third: x1.6.
    Scored {
        thing: "monolith",
        jokers: &[("monolith", 2)],
        setup: high_card_most_played,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 32_000,
    },
    Scored {
        thing: "monolith (the most played hand resets it)",
        jokers: &[("monolith", 2)],
        setup: pair_most_played,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    Scored {
        thing: "echo_quartet",
        jokers: &[("echo_quartet", 0)],
        setup: none,
        played: "AS AH AC AD 3C",
        held: "",
        chips: 60 + 44,
        mult: 28 * W,
    },
    Scored {
        thing: "echo_quartet (no quartet)",
        jokers: &[("echo_quartet", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    Scored {
        thing: "flint_arrow",
        jokers: &[("flint_arrow", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32 + 50,
        mult: 2 * W,
    },
    Scored {
        thing: "black_agate",
        jokers: &[("black_agate", 0)],
        setup: none,
        played: "AC AH 3C",
        held: "",
        chips: 32,
        mult: 9 * W,
    },
    Scored {
        thing: "tightrope",
        jokers: &[("tightrope", 0)],
        setup: last_hand,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 6 * W,
    },
    Scored {
        thing: "tightrope (not last)",
        jokers: &[("tightrope", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    Scored {
        thing: "twilight",
        jokers: &[("twilight", 0)],
        setup: last_hand,
        played: "AS AH 3C",
        held: "",
        chips: 10 + 44,
        mult: 2 * W,
    },
    Scored {
        thing: "twilight (not last)",
        jokers: &[("twilight", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    // 5 slots, 1 joker: 4 empty + itself = ×5.
    Scored {
        thing: "hollow_frame",
        jokers: &[("hollow_frame", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 10 * W,
    },
    Scored {
        thing: "hollow_frame (two jokers)",
        jokers: &[("hollow_frame", 0), ("harlequin", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 12 * W,
    },
    Scored {
        thing: "bullhorn",
        jokers: &[("bullhorn", 0)],
        setup: rich,
        played: "AS AH 3C",
        held: "",
        chips: 32 + 20,
        mult: 2 * W,
    },
    Scored {
        thing: "shoestring",
        jokers: &[("shoestring", 0)],
        setup: rich,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 6 * W,
    },
    Scored {
        thing: "bus_rider (no face)",
        jokers: &[("bus_rider", 2)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 5 * W,
    },
    Scored {
        thing: "bus_rider (face resets)",
        jokers: &[("bus_rider", 5)],
        setup: none,
        played: "KS KH",
        held: "",
        chips: 30,
        mult: 2 * W,
    },
    Scored {
        thing: "melting_cone",
        jokers: &[("melting_cone", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 132,
        mult: 2 * W,
    },
    Scored {
        thing: "melting_cone (melted 4)",
        jokers: &[("melting_cone", 4)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 112,
        mult: 2 * W,
    },
    Scored {
        thing: "melting_cone (gone)",
        jokers: &[("melting_cone", 30)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    Scored {
        thing: "kettle_corn",
        jokers: &[("kettle_corn", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 22 * W,
    },
    Scored {
        thing: "kettle_corn (2 rounds)",
        jokers: &[("kettle_corn", 2)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 14 * W,
    },
    // Two pair: 20 + 11 + 11 + 3 + 3 = 48 chips; the counter goes 0 -> 2 before it adds.
    Scored {
        thing: "patched_trousers",
        jokers: &[("patched_trousers", 0)],
        setup: none,
        played: "AS AH 3C 3D 5S",
        held: "",
        chips: 48,
        mult: 4 * W,
    },
    Scored {
        thing: "patched_trousers (pair only)",
        jokers: &[("patched_trousers", 4)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 6 * W,
    },
    // Pair of twos: 10 + 2 + 2, each 2 adds 8 to the counter first: +16.
    Scored {
        thing: "wee_one",
        jokers: &[("wee_one", 0)],
        setup: none,
        played: "2S 2H",
        held: "",
        chips: 14 + 16,
        mult: 2 * W,
    },
    Scored {
        thing: "open_road",
        jokers: &[("open_road", 2)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 4 * W,
    },
    Scored {
        thing: "old_skull",
        jokers: &[("old_skull", 46)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 6 * W,
    },
    Scored {
        thing: "palm_reader",
        jokers: &[("palm_reader", 3)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 5 * W,
    },
    Scored {
        thing: "star_map",
        jokers: &[("star_map", 10)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 4 * W,
    },
    Scored {
        thing: "star_map (3 planets)",
        jokers: &[("star_map", 3)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 26_000,
    },
    Scored {
        thing: "punch_card (6th hand)",
        jokers: &[("punch_card", 5)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 8 * W,
    },
    Scored {
        thing: "punch_card (1st hand)",
        jokers: &[("punch_card", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    Scored {
        thing: "fizz",
        jokers: &[("fizz", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 10 + 44,
        mult: 2 * W,
    },
    Scored {
        thing: "fizz (flat)",
        jokers: &[("fizz", 10)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    Scored {
        thing: "green_banana",
        jokers: &[("green_banana", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 17 * W,
    },
    Scored {
        thing: "blue_banana",
        jokers: &[("blue_banana", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 6 * W,
    },
    Scored {
        thing: "deep_blue",
        jokers: &[("deep_blue", 0)],
        setup: deck_counts,
        played: "AS AH 3C",
        held: "",
        chips: 32 + 40,
        mult: 2 * W,
    },
    Scored {
        thing: "steelworks",
        jokers: &[("steelworks", 0)],
        setup: deck_counts,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 36_000,
    },
    Scored {
        thing: "quarry",
        jokers: &[("quarry", 0)],
        setup: deck_counts,
        played: "AS AH 3C",
        held: "",
        chips: 32 + 50,
        mult: 2 * W,
    },
    Scored {
        thing: "licence",
        jokers: &[("licence", 0)],
        setup: deck_counts,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 6 * W,
    },
    Scored {
        thing: "licence (15 enhanced)",
        jokers: &[("licence", 0)],
        setup: |r| {
            deck_counts(r);
            r.scoring.deck.enhanced = 15
        },
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 2 * W,
    },
    Scored {
        thing: "noodle_bowl",
        jokers: &[("noodle_bowl", 0)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 4 * W,
    },
    Scored {
        thing: "noodle_bowl (50 discarded)",
        jokers: &[("noodle_bowl", 50)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 3 * W,
    },
    Scored {
        thing: "old_reel",
        jokers: &[("old_reel", 4)],
        setup: none,
        played: "AS AH 3C",
        held: "",
        chips: 32,
        mult: 4 * W,
    },
    // High card ace: 5 + 11 x1; the lowest held card (a 5) adds 2 x 5 in the held step.
    Scored {
        thing: "clenched_fist",
        jokers: &[("clenched_fist", 0)],
        setup: none,
        played: "AS",
        held: "9C 5S",
        chips: 16,
        mult: 11 * W,
    },
    // ... and ties go to the rightmost lowest card; a lone stone-free hand of kings: +20.
    Scored {
        thing: "clenched_fist (kings)",
        jokers: &[("clenched_fist", 0)],
        setup: none,
        played: "AS",
        held: "KC KS",
        chips: 16,
        mult: 21 * W,
    },
    // Mimic repeats a held card that produced an effect: the fist's +10 twice.
    Scored {
        thing: "clenched_fist + mimic",
        jokers: &[("clenched_fist", 0), ("mimic", 0)],
        setup: none,
        played: "AS",
        held: "9C 5S",
        chips: 16,
        mult: 21 * W,
    },
];

#[test]
fn scoring_things_change_the_score_by_their_numbers() {
    let c = content();
    let mut failures = Vec::new();
    for case in SCORED {
        let mut run = run_of(&c, case.jokers);
        (case.setup)(&mut run);
        let r = score_hand(&mut run, &c, &cards(case.played), &cards(case.held), true).unwrap();
        if (r.chips, r.mult) != (case.chips, Fixed::from_raw(case.mult)) {
            failures.push(format!(
                "{}: chips {} mult {} (want {} and {})",
                case.thing,
                r.chips,
                r.mult,
                case.chips,
                Fixed::from_raw(case.mult)
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_red_seal_repeats_the_lowest_held_card_joker_in_the_held_step() {
    let c = content();
    let mut run = run_of(&c, &[("clenched_fist", 0), ("crown_keeper", 0)]);
    let mut held = cards("KS 5S");
    held[1].seal = Seal::Red;
    // High card 16 x1. Held: the king's x1.5 (crown keeper) -> 1.5; the five: +10 twice
    // (red seal) -> 21.5. In the old joker slot the +10 came after the x1.5 and once.
    let r = score_hand(&mut run, &c, &cards("AS"), &held, true).unwrap();
    assert_eq!(r.mult, Fixed::from_raw(215_000));
    assert!(r
        .steps
        .iter()
        .any(|s| &*s.owner == "joker:clenched_fist" && &*s.trigger == "OnCardHeld"));
}

/// A state case: jokers, what is done with them, and what must hold after.
struct After {
    thing: &'static str,
    jokers: &'static [(&'static str, i64)],
    act: fn(&mut RunState, &Content),
    check: fn(&RunState, &RunState) -> bool,
    want: &'static str,
}

fn pair(run: &mut RunState, c: &Content) {
    score_hand(run, c, &cards("AS AH 3C"), &[], true).unwrap();
}

fn end_small(run: &mut RunState, c: &Content) {
    run::end_round(run, c, Blind::Small, &[]).unwrap();
}

fn end_boss(run: &mut RunState, c: &Content) {
    run::end_round(run, c, Blind::Boss, &[]).unwrap();
}

fn use_card(run: &mut RunState, c: &Content, card: &str) {
    run.consumables.push(card.into());
    let at = run.consumables.len() - 1;
    run::use_consumable(run, c, at).unwrap();
}

fn money(run: &RunState) -> i64 {
    run.money
}

const AFTER: &[After] = &[
    After {
        thing: "bonfire",
        jokers: &[("bonfire", 0), ("harlequin", 0)],
        act: |r, c| run::sell_joker(r, c, 1).unwrap(),
        check: |_, a| a.jokers.len() == 1 && a.jokers[0].counter == 1,
        want: "counter 1 after another joker is sold",
    },
    After {
        thing: "bonfire resets",
        jokers: &[("bonfire", 3)],
        act: end_boss,
        check: |_, a| a.jokers[0].counter == 0,
        want: "counter 0 after a boss blind",
    },
    After {
        thing: "bonfire (a small blind)",
        jokers: &[("bonfire", 3)],
        act: end_small,
        check: |_, a| a.jokers[0].counter == 3,
        want: "counter 3",
    },
    After {
        thing: "daydream",
        jokers: &[("daydream", 0), ("loaded_dice", 0)],
        act: |r, c| run::pack_opened(r, c).unwrap(),
        check: |_, a| a.consumables.len() == 1 && a.consumables[0].starts_with("tarot:"),
        want: "a tarot, certain with a chance doubler",
    },
    After {
        thing: "keep",
        jokers: &[("keep", 0)],
        act: |r, c| {
            targets_ace_of_spades_hearts_pair(r);
            discard(r, c, "2H 5H 3C KH")
        },
        check: |_, a| a.jokers[0].counter == 9,
        want: "+3 chips for each of the three discarded hearts",
    },
    After {
        thing: "keep (the counter stays across rounds)",
        jokers: &[("keep", 12)],
        act: end_small,
        check: |_, a| a.jokers[0].counter == 12,
        want: "counter 12",
    },
    After {
        thing: "rebate",
        jokers: &[("rebate", 0)],
        act: |r, c| {
            targets_ace_of_spades_hearts_pair(r);
            discard(r, c, "5S 5H 3C")
        },
        check: |b, a| money(a) == money(b) + 10,
        want: "$5 for each of the two discarded fives",
    },
    After {
        thing: "masquerade",
        jokers: &[("masquerade", 0)],
        act: |r, c| discard(r, c, "KS QH JC 3D"),
        check: |b, a| money(a) == money(b) + 5,
        want: "$5 once for a discard of three faces among four cards",
    },
    After {
        thing: "masquerade (two faces)",
        jokers: &[("masquerade", 0)],
        act: |r, c| discard(r, c, "KS QH 4C 3D"),
        check: |b, a| money(a) == money(b),
        want: "nothing for two faces",
    },
    After {
        thing: "ritual_knife",
        jokers: &[("ritual_knife", 0), ("bells_pair", 0)],
        act: |r, c| run::start_round(r, c, Blind::Small).unwrap(),
        check: |b, a| {
            a.jokers.len() == 1
                && b.jokers[1].sell_value > 0
                && a.jokers[0].counter == 2 * b.jokers[1].sell_value
        },
        want: "its right neighbour destroyed, twice its sell value gained as mult",
    },
    After {
        thing: "ritual_knife (eternal neighbour)",
        jokers: &[("ritual_knife", 0), ("bells_pair", 0)],
        act: |r, c| {
            r.jokers[1].eternal = true;
            run::start_round(r, c, Blind::Small).unwrap()
        },
        check: |_, a| a.jokers.len() == 2 && a.jokers[0].counter == 0,
        want: "an eternal neighbour stays and gives nothing",
    },
    After {
        thing: "ritual_knife (last slot)",
        jokers: &[("bells_pair", 0), ("ritual_knife", 3)],
        act: |r, c| run::start_round(r, c, Blind::Small).unwrap(),
        check: |_, a| a.jokers.len() == 2 && a.jokers[1].counter == 3,
        want: "nothing to its right: nothing happens",
    },
    After {
        thing: "errand_list",
        jokers: &[("errand_list", 0)],
        act: |r, c| {
            targets_ace_of_spades_hearts_pair(r);
            pair(r, c)
        },
        check: |b, a| money(a) == money(b) + 4,
        want: "$4 for the round's hand, a pair",
    },
    After {
        thing: "errand_list (another hand)",
        jokers: &[("errand_list", 0)],
        act: |r, c| {
            targets_ace_of_spades_hearts_pair(r);
            score_hand(r, c, &cards("AS KH 3C"), &[], true)
                .map(|_| ())
                .unwrap()
        },
        check: |b, a| money(a) == money(b),
        want: "nothing for a high card",
    },
    After {
        thing: "rough_stone",
        jokers: &[("rough_stone", 0)],
        act: |r, c| {
            score_hand(r, c, &cards("AD AH 3C"), &[], true)
                .map(|_| ())
                .unwrap()
        },
        check: |b, a| money(a) == money(b) + 1,
        want: "$1 for the scored diamond",
    },
    After {
        thing: "spirit_board",
        jokers: &[("spirit_board", 0)],
        act: |r, c| {
            score_hand(r, c, &cards("2H 3H 4H 5H 6H"), &[], true)
                .map(|_| ())
                .unwrap()
        },
        check: |_, a| a.consumables.len() == 1 && a.consumables[0].starts_with("spectral:"),
        want: "a spectral card for a straight tide",
    },
    After {
        thing: "spirit_board (flush only)",
        jokers: &[("spirit_board", 0)],
        act: |r, c| {
            score_hand(r, c, &cards("2H 3H 4H 5H 9H"), &[], true)
                .map(|_| ())
                .unwrap()
        },
        check: |_, a| a.consumables.is_empty(),
        want: "nothing",
    },
    After {
        thing: "wanderer",
        jokers: &[("wanderer", 0)],
        act: pair,
        check: |_, a| a.consumables.len() == 1 && a.consumables[0].starts_with("tarot:"),
        want: "a tarot at $4",
    },
    After {
        thing: "wanderer (rich)",
        jokers: &[("wanderer", 0)],
        act: |r, c| {
            r.money = 5;
            pair(r, c)
        },
        check: |_, a| a.consumables.is_empty(),
        want: "nothing at $5",
    },
    After {
        thing: "card_reader",
        jokers: &[("card_reader", 0)],
        act: |r, c| run::start_round(r, c, Blind::Small).unwrap(),
        check: |_, a| a.consumables.len() == 1 && a.consumables[0].starts_with("tarot:"),
        want: "a tarot when the blind starts",
    },
    After {
        thing: "bullion",
        jokers: &[("bullion", 0)],
        act: |r, c| {
            let mut played = cards("AS AH 3C");
            played[0] = played[0].with(Enhancement::Gold);
            score_hand(r, c, &played, &[], true).map(|_| ()).unwrap()
        },
        check: |b, a| money(a) == money(b) + 4,
        want: "$4 for the scored gold card",
    },
    After {
        thing: "bullion (no gold card)",
        jokers: &[("bullion", 0)],
        act: pair,
        check: |b, a| money(a) == money(b),
        want: "nothing",
    },
    After {
        thing: "rabble",
        jokers: &[("rabble", 0)],
        act: |r, c| run::start_round(r, c, Blind::Small).unwrap(),
        check: |_, a| a.jokers.len() == 3 && a.jokers[1..].iter().all(|j| j.rarity == 1),
        want: "two common jokers when the blind starts",
    },
    After {
        thing: "rabble (one slot free)",
        jokers: &[
            ("rabble", 0),
            ("harlequin", 0),
            ("bells_pair", 0),
            ("quiet_pair", 0),
        ],
        act: |r, c| run::start_round(r, c, Blind::Small).unwrap(),
        check: |_, a| a.jokers.len() == 5 && a.jokers[4].rarity == 1,
        want: "one common joker: the slots are full",
    },
    After {
        thing: "plate_spinner",
        jokers: &[("plate_spinner", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::HandSize) == 9,
        want: "hand size 9",
    },
    After {
        thing: "tippler",
        jokers: &[("tippler", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::Discards) == 4,
        want: "4 discards",
    },
    After {
        thing: "minstrel",
        jokers: &[("minstrel", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::HandSize) == 10 && a.rule(Rule::Hands) == 3,
        want: "hand size 10, 3 hands",
    },
    After {
        thing: "merry_fool",
        jokers: &[("merry_fool", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::HandSize) == 7 && a.rule(Rule::Discards) == 6,
        want: "hand size 7, 6 discards",
    },
    After {
        thing: "bean_sprout",
        jokers: &[("bean_sprout", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::HandSize) == 13,
        want: "hand size 13",
    },
    After {
        thing: "bean_sprout (2 rounds)",
        jokers: &[("bean_sprout", 0)],
        act: |r, c| {
            end_small(r, c);
            end_small(r, c)
        },
        check: |_, a| a.rule(Rule::HandSize) == 11 && a.jokers[0].counter == 2,
        want: "hand size 11",
    },
    After {
        thing: "bean_sprout (spent)",
        jokers: &[("bean_sprout", 9)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::HandSize) == 8,
        want: "hand size 8",
    },
    After {
        thing: "melting_cone melts",
        jokers: &[("melting_cone", 0)],
        act: |r, c| {
            pair(r, c);
            pair(r, c)
        },
        check: |_, a| a.jokers[0].counter == 2,
        want: "counter 2",
    },
    After {
        thing: "kettle_corn pops",
        jokers: &[("kettle_corn", 0)],
        act: end_small,
        check: |_, a| a.jokers[0].counter == 1,
        want: "counter 1",
    },
    After {
        thing: "open_road resets",
        jokers: &[("open_road", 3)],
        act: end_small,
        check: |_, a| a.jokers[0].counter == 0,
        want: "counter 0 after the round",
    },
    After {
        thing: "palm_reader counts tarots",
        jokers: &[("palm_reader", 0)],
        act: |r, c| {
            use_card(r, c, "tarot:lantern");
            use_card(r, c, "planet:pebble")
        },
        check: |_, a| a.jokers[0].counter == 1,
        want: "counter 1 (the planet does not count)",
    },
    After {
        thing: "star_map counts planets",
        jokers: &[("star_map", 0)],
        act: |r, c| {
            use_card(r, c, "tarot:lantern");
            use_card(r, c, "planet:pebble")
        },
        check: |_, a| a.jokers[0].counter == 1,
        want: "counter 1 (the tarot does not count)",
    },
    After {
        thing: "old_reel counts skips",
        jokers: &[("old_reel", 0)],
        act: |r, c| run::take_tag(r, c, "windfall").unwrap(),
        check: |_, a| a.jokers[0].counter == 1,
        want: "counter 1",
    },
    // End of round on a small blind with 3 hands left at $4: $3 reward + $3 for the hands;
    // a joker's `OnRoundEnd` money comes first, so interest ($1 per $5) counts it.
    After {
        thing: "skyrocket",
        jokers: &[("skyrocket", 0)],
        act: end_small,
        check: |b, a| money(a) == money(b) + 1 + 3 + 3 + 1,
        want: "$1 more (and $1 interest on $5)",
    },
    After {
        thing: "skyrocket (2 bosses)",
        jokers: &[("skyrocket", 2)],
        act: end_small,
        check: |b, a| money(a) == money(b) + 5 + 3 + 3 + 1,
        want: "$5 more (and $1 interest on $9)",
    },
    After {
        thing: "skyrocket grows on a boss",
        jokers: &[("skyrocket", 0)],
        act: end_boss,
        check: |_, a| a.jokers[0].counter == 1,
        want: "counter 1",
    },
    After {
        thing: "patience",
        jokers: &[("patience", 0)],
        act: end_small,
        check: |b, a| money(a) == money(b) + 6 + 3 + 3 + 2,
        want: "$6 for 3 unused discards (and $2 interest on $10)",
    },
    After {
        thing: "patience (a discard used)",
        jokers: &[("patience", 0)],
        act: |r, c| {
            r.discards_left = 2;
            end_small(r, c)
        },
        check: |b, a| money(a) == money(b) + 3 + 3,
        want: "nothing",
    },
    After {
        thing: "green_banana (scores)",
        jokers: &[("green_banana", 0)],
        act: pair,
        check: |_, a| a.jokers.len() == 1,
        want: "still there after a hand",
    },
    After {
        thing: "safecracker",
        jokers: &[("safecracker", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::Hands) == 7 && a.rule(Rule::Discards) == 0,
        want: "7 hands, no discards",
    },
    After {
        thing: "moonshot",
        jokers: &[("moonshot", 0)],
        act: |r, c| {
            r.money = 20;
            end_small(r, c)
        },
        check: |_, a| a.money == 20 + 3 + 3 + 8,
        want: "$2 interest per $5",
    },
    After {
        thing: "tab_card",
        jokers: &[("tab_card", 0)],
        act: |r, c| {
            r.money = 0;
            run::buy_joker(r, c, "harlequin").unwrap()
        },
        check: |_, a| a.money == -2 && a.jokers.len() == 2,
        want: "bought on credit",
    },
    After {
        thing: "tab_card (the limit)",
        jokers: &[("tab_card", 0)],
        act: |r, c| {
            r.money = -19;
            let _ = run::buy_joker(r, c, "harlequin");
        },
        check: |_, a| a.money == -19 && a.jokers.len() == 1,
        want: "refused past -$20",
    },
    After {
        thing: "clown_car",
        jokers: &[("clown_car", 0)],
        act: |_, _| {},
        check: |_, a| {
            run::reroll_price(a, 0) == 0
                && run::reroll_price(a, 1) == 5
                && run::reroll_price(a, 2) == 6
        },
        want: "the first reroll free",
    },
    After {
        thing: "melting_cone melts away",
        jokers: &[("melting_cone", 19)],
        act: pair,
        check: |_, a| a.jokers.is_empty(),
        want: "gone after its 20th hand",
    },
    After {
        thing: "kettle_corn is eaten",
        jokers: &[("kettle_corn", 4)],
        act: end_small,
        check: |_, a| a.jokers.is_empty(),
        want: "gone after 5 rounds",
    },
    After {
        thing: "fizz goes flat",
        jokers: &[("fizz", 9)],
        act: pair,
        check: |_, a| a.jokers.is_empty(),
        want: "gone after 10 hands",
    },
    After {
        thing: "bean_sprout wilts",
        jokers: &[("bean_sprout", 4)],
        act: end_small,
        check: |_, a| a.jokers.is_empty() && a.rule(Rule::HandSize) == 8,
        want: "gone after 5 rounds, its hand size with it",
    },
    After {
        thing: "an eternal melting_cone stays",
        jokers: &[("melting_cone", 19)],
        act: |r, c| {
            r.jokers[0].eternal = true;
            pair(r, c)
        },
        check: |_, a| a.jokers.len() == 1,
        want: "eternal: never destroyed",
    },
    After {
        thing: "ninth_cloud",
        jokers: &[("ninth_cloud", 0)],
        act: |r, c| {
            deck_counts(r);
            end_small(r, c)
        },
        check: |b, a| money(a) == money(b) + 3 + 3 + 3 + 1,
        want: "$3 for 3 nines (and $1 interest on $7)",
    },
    After {
        thing: "flip_card",
        jokers: &[("flip_card", 0)],
        act: |r, c| {
            r.money = 20;
            run::reroll_shop(r, c, 0).unwrap();
            run::reroll_shop(r, c, 1).unwrap();
        },
        check: |_, a| a.jokers[0].counter == 4,
        want: "counter 4 after two rerolls",
    },
    After {
        thing: "red_ticket",
        jokers: &[("red_ticket", 0)],
        act: |r, c| run::skip_pack(r, c).unwrap(),
        check: |_, a| a.jokers[0].counter == 3,
        want: "counter 3 after a skipped pack",
    },
    After {
        thing: "ringmaster",
        jokers: &[("ringmaster", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::Duplicates) == 1,
        want: "owned jokers offered again",
    },
    After {
        thing: "loaded_dice",
        jokers: &[("loaded_dice", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::ChanceFactor) == 2,
        want: "chances x2",
    },
    After {
        thing: "loaded_dice x2 multiplies",
        jokers: &[("loaded_dice", 0), ("loaded_dice", 0)],
        act: |_, _| {},
        check: |_, a| a.rule(Rule::ChanceFactor) == 4,
        want: "chances x4",
    },
];

#[test]
fn things_change_the_run_by_their_numbers() {
    let c = content();
    let mut failures = Vec::new();
    for case in AFTER {
        let mut run = run_of(&c, case.jokers);
        let before = run.clone();
        (case.act)(&mut run, &c);
        if !(case.check)(&before, &run) {
            failures.push(format!(
                "{}: want {}; money {} -> {}, consumables {:?}, counters {:?}",
                case.thing,
                case.want,
                before.money,
                run.money,
                run.consumables,
                run.jokers.iter().map(|j| j.counter).collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A chance doubled twice is certain: the 1-in-4 level-up of the star chart always fires
/// with two loaded dice (forced outcome, whatever the seed), and never without a roll.
#[test]
fn two_chance_doublers_make_a_quarter_certain() {
    let c = content();
    for seed in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        let mut run = RunState::new(seed, 1, "plain").unwrap();
        for j in ["loaded_dice", "loaded_dice", "star_chart"] {
            run.jokers.push(c.joker(j).unwrap());
        }
        run::rebuild(&mut run, &c).unwrap();
        let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
        assert_eq!(run.levels[1], 2, "seed {seed}");
        // Level 2 pair: 25 chips + 22, x3.
        assert_eq!((r.chips, r.mult), (47, Fixed::from_int(3)), "seed {seed}");
    }
}

/// A consumable used on chosen cards: the thing, the cards, and what they must be after.
struct UsedOnCase {
    thing: &'static str,
    on: &'static str,
    check: fn(&run::UsedOn) -> bool,
}

const USED_ON: &[UsedOnCase] = &[
    UsedOnCase {
        thing: "tarot:conjurer",
        on: "AS KH",
        check: |u| u.cards.iter().all(|c| c.enhancement == Enhancement::Lucky),
    },
    UsedOnCase {
        thing: "tarot:matron",
        on: "AS KH",
        check: |u| u.cards.iter().all(|c| c.enhancement == Enhancement::Mult),
    },
    UsedOnCase {
        thing: "tarot:abbot",
        on: "AS KH",
        check: |u| u.cards.iter().all(|c| c.enhancement == Enhancement::Bonus),
    },
    UsedOnCase {
        thing: "tarot:twins",
        on: "AS",
        check: |u| u.cards[0].enhancement == Enhancement::Wild,
    },
    UsedOnCase {
        thing: "tarot:carriage",
        on: "AS",
        check: |u| u.cards[0].enhancement == Enhancement::Steel,
    },
    UsedOnCase {
        thing: "tarot:verdict",
        on: "AS",
        check: |u| u.cards[0].enhancement == Enhancement::Glass,
    },
    UsedOnCase {
        thing: "tarot:fiend",
        on: "AS",
        check: |u| u.cards[0].enhancement == Enhancement::Gold,
    },
    UsedOnCase {
        thing: "tarot:spire",
        on: "AS",
        check: |u| u.cards[0].enhancement == Enhancement::Stone,
    },
    UsedOnCase {
        thing: "tarot:dawn",
        on: "AS KC 2D",
        check: |u| u.cards.iter().all(|c| c.suit == Suit::Hearts),
    },
    UsedOnCase {
        thing: "tarot:night",
        on: "AS KH 2D",
        check: |u| u.cards.iter().all(|c| c.suit == Suit::Clubs),
    },
    // An ace goes round to a 2; a king becomes an ace.
    UsedOnCase {
        thing: "tarot:might",
        on: "AS KH",
        check: |u| u.cards[0].rank == 2 && u.cards[1].rank == 14,
    },
    UsedOnCase {
        thing: "tarot:gallows",
        on: "AS KH",
        check: |u| u.destroyed == vec![0, 1],
    },
    UsedOnCase {
        thing: "spectral:amulet",
        on: "AS",
        check: |u| u.cards[0].seal == Seal::Gold,
    },
    UsedOnCase {
        thing: "spectral:echo_seal",
        on: "AS",
        check: |u| u.cards[0].seal == Seal::Red,
    },
    UsedOnCase {
        thing: "spectral:reverie",
        on: "AS",
        check: |u| u.cards[0].seal == Seal::Blue,
    },
    UsedOnCase {
        thing: "spectral:channel",
        on: "AS",
        check: |u| u.cards[0].seal == Seal::Purple,
    },
];

#[test]
fn card_changing_consumables_change_the_chosen_cards() {
    let c = content();
    let mut failures = Vec::new();
    for case in USED_ON {
        let mut run = run_of(&c, &[]);
        run.consumables.push(case.thing.into());
        let used = run::use_consumable_on(&mut run, &c, 0, &cards(case.on)).unwrap();
        if !(case.check)(&used) || !run.consumables.is_empty() {
            failures.push(format!("{}: {:?}", case.thing, used));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // Too many, none, or cards for a consumable that takes none: refused, nothing spent.
    let mut run = run_of(&c, &[]);
    run.consumables.push("tarot:twins".into());
    let e = run::use_consumable_on(&mut run, &c, 0, &cards("AS KH")).unwrap_err();
    assert_eq!(e.code(), "no_targets");
    assert_eq!(
        run::use_consumable(&mut run, &c, 0).unwrap_err().code(),
        "no_targets"
    );
    run.consumables = vec!["tarot:lantern".into()];
    let e = run::use_consumable_on(&mut run, &c, 0, &cards("AS")).unwrap_err();
    assert_eq!(e.code(), "bad_targets");
    assert_eq!(run.consumables.len(), 1);
}

#[test]
fn a_tarot_used_on_hand_cards_changes_the_hand_and_the_deck() {
    let (content, mut s) = new_game("tarot-hand", 1);
    let c = content.content();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    s.run.consumables = vec!["tarot:twins".into(), "tarot:gallows".into()];
    let first = s.hand[0];
    s.apply(
        c,
        &CloverAction::Use {
            index: 0,
            cards: vec![0],
        },
    )
    .unwrap();
    assert_eq!(s.hand[0].enhancement, Enhancement::Wild);
    assert_eq!((s.hand[0].rank, s.hand[0].suit), (first.rank, first.suit));
    assert_eq!(
        s.cards
            .iter()
            .filter(|c| c.enhancement == Enhancement::Wild)
            .count(),
        1
    );
    let size = s.hand.len();
    s.apply(
        c,
        &CloverAction::Use {
            index: 0,
            cards: vec![1, 2],
        },
    )
    .unwrap();
    assert_eq!(s.hand.len(), size - 2);
    assert_eq!(s.cards.len(), 50);
    // Outside a blind, cards cannot be chosen.
    let (content, mut s) = new_game("tarot-shop", 1);
    s.run.consumables = vec!["tarot:twins".into()];
    let e = s
        .apply(
            content.content(),
            &CloverAction::Use {
                index: 0,
                cards: vec![0],
            },
        )
        .unwrap_err();
    assert_eq!(e.code, "wrong_phase");
}

/// A rule case: the owner (a voucher, a deck's rows being present), and the rules after.
struct Rules {
    thing: &'static str,
    vouchers: &'static [&'static str],
    deck: &'static str,
    want: &'static [(Rule, i64)],
}

const RULES: &[Rules] = &[
    Rules {
        thing: "overstock_plus",
        vouchers: &["overstock", "overstock_plus"],
        deck: "plain",
        want: &[(Rule::ShopSlots, 4)],
    },
    Rules {
        thing: "reroll_glut",
        vouchers: &["bargain_reroll", "reroll_glut"],
        deck: "plain",
        want: &[(Rule::RerollCost, 1)],
    },
    Rules {
        thing: "long_reach",
        vouchers: &["grabber", "long_reach"],
        deck: "plain",
        want: &[(Rule::Hands, 6)],
    },
    Rules {
        thing: "recycler",
        vouchers: &["wasteful", "recycler"],
        deck: "plain",
        want: &[(Rule::Discards, 5)],
    },
    Rules {
        thing: "money_orchard",
        vouchers: &["seed_money", "money_orchard"],
        deck: "plain",
        want: &[(Rule::InterestCap, 75)],
    },
    Rules {
        thing: "paint_palette",
        vouchers: &["paint_brush", "paint_palette"],
        deck: "plain",
        want: &[(Rule::HandSize, 10)],
    },
    Rules {
        thing: "recast",
        vouchers: &["recast"],
        deck: "plain",
        want: &[(Rule::BossRerolls, 1)],
    },
    Rules {
        thing: "rewrite",
        vouchers: &["recast", "rewrite"],
        deck: "plain",
        want: &[(Rule::BossRerolls, 2)],
    },
    Rules {
        thing: "tarot_stall",
        vouchers: &["tarot_stall"],
        deck: "plain",
        want: &[(Rule::TarotWeight, 10)],
    },
    Rules {
        thing: "tarot_emporium",
        vouchers: &["tarot_stall", "tarot_emporium"],
        deck: "plain",
        want: &[(Rule::TarotWeight, 32)],
    },
    Rules {
        thing: "star_stall",
        vouchers: &["star_stall"],
        deck: "plain",
        want: &[(Rule::PlanetWeight, 10)],
    },
    Rules {
        thing: "star_emporium",
        vouchers: &["star_stall", "star_emporium"],
        deck: "plain",
        want: &[(Rule::PlanetWeight, 32)],
    },
    Rules {
        thing: "observatory",
        vouchers: &["observatory"],
        deck: "plain",
        want: &[(Rule::Observatory, 1)],
    },
    Rules {
        thing: "glyph",
        vouchers: &["glyph"],
        deck: "plain",
        want: &[(Rule::Hands, 3)],
    },
    Rules {
        thing: "rune",
        vouchers: &["rune"],
        deck: "plain",
        want: &[(Rule::Discards, 2)],
    },
    Rules {
        thing: "deck:canvas",
        vouchers: &[],
        deck: "canvas",
        want: &[(Rule::HandSize, 10), (Rule::JokerSlots, 4)],
    },
    Rules {
        thing: "telescope",
        vouchers: &["telescope"],
        deck: "plain",
        want: &[(Rule::Telescope, 1)],
    },
    Rules {
        thing: "deck:nebula",
        vouchers: &[],
        deck: "nebula",
        want: &[(Rule::Telescope, 1), (Rule::ConsumableSlots, 1)],
    },
    Rules {
        thing: "deck:verdant",
        vouchers: &[],
        deck: "verdant",
        want: &[
            (Rule::HandReward, 2),
            (Rule::DiscardReward, 1),
            (Rule::Interest, 0),
        ],
    },
    Rules {
        thing: "deck:starlit",
        vouchers: &[],
        deck: "starlit",
        want: &[
            (Rule::TarotWeight, 10),
            (Rule::PlanetWeight, 10),
            (Rule::ShopSlots, 3),
        ],
    },
    Rules {
        thing: "deck:phantom",
        vouchers: &[],
        deck: "phantom",
        want: &[(Rule::SpectralWeight, 2)],
    },
    Rules {
        thing: "deck:hollow",
        vouchers: &[],
        deck: "hollow",
        want: &[(Rule::DeckShape, 1)],
    },
    Rules {
        thing: "deck:chequer",
        vouchers: &[],
        deck: "chequer",
        want: &[(Rule::DeckShape, 2)],
    },
    Rules {
        thing: "deck:tumble",
        vouchers: &[],
        deck: "tumble",
        want: &[(Rule::DeckShape, 3)],
    },
];

/// The telescope puts the most played hand's planet first in a Celestial pack, with no draw
/// (the rest of the pack is what the stream gives); before any hand it changes nothing.
#[test]
fn the_telescope_shows_the_most_played_hands_planet() {
    let c = content();
    let first = |vouchers: &[&str], counts: &[(usize, u32)]| {
        let mut run = run_of(&c, &[]);
        run.vouchers = vouchers.iter().map(|v| format!("voucher:{v}")).collect();
        for &(hand, times) in counts {
            run.played_counts[hand] = times;
        }
        run::rebuild(&mut run, &c).unwrap();
        run::pack_contents(&mut run, &c, "pack:celestial_normal").unwrap()
    };
    let planet = |hand: usize| c.pools.planet_of_hand[hand].clone().unwrap();
    let owned = |items: &[run::PackItem]| -> Vec<String> {
        items
            .iter()
            .map(|i| match i {
                run::PackItem::Owned { item, .. } => item.clone(),
                run::PackItem::Card { .. } => String::new(),
            })
            .collect()
    };
    // Pair played 3 times, high card twice: the pair's planet, then two others.
    let shown = owned(&first(&["telescope"], &[(0, 2), (1, 3)]));
    assert_eq!(shown.len(), 3);
    assert_eq!(shown[0], planet(1));
    assert!(!shown[1..].contains(&planet(1)));
    // A tie goes to the higher hand.
    assert_eq!(
        owned(&first(&["telescope"], &[(0, 3), (1, 3)]))[0],
        planet(1)
    );
    // No hand played yet, or no telescope: the pack as the stream draws it.
    assert_eq!(owned(&first(&["telescope"], &[])), owned(&first(&[], &[])));
    // Whichever hand is the most played, its planet comes first.
    for hand in 0..c.pools.planet_of_hand.len() {
        if c.pools.planet_of_hand[hand].is_some() {
            assert_eq!(owned(&first(&["telescope"], &[(hand, 1)]))[0], planet(hand));
        }
    }
}

#[test]
fn vouchers_and_decks_set_their_rules() {
    let c = content();
    let mut failures = Vec::new();
    for case in RULES {
        let mut run = RunState::new("rules", 1, case.deck).unwrap();
        run::start_run(&mut run, &c).unwrap();
        run.vouchers = case
            .vouchers
            .iter()
            .map(|v| format!("voucher:{v}"))
            .collect();
        run::rebuild(&mut run, &c).unwrap();
        for (rule, want) in case.want {
            if run.rule(*rule) != *want {
                failures.push(format!(
                    "{}: {} is {}, want {want}",
                    case.thing,
                    rule.name(),
                    run.rule(*rule)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn second_tier_vouchers_wait_for_the_first() {
    let c = content();
    for seed in 0..200 {
        let mut run = RunState::new(&format!("v{seed}"), 1, "plain").unwrap();
        let v = run::roll_voucher(&mut run, &c).unwrap().unwrap();
        let id = v.trim_start_matches("voucher:");
        let entry = c.catalog.get(&v).unwrap();
        assert!(
            entry.requires.is_none(),
            "{id} offered without {:?}",
            entry.requires
        );
    }
    let mut run = RunState::new("v", 1, "plain").unwrap();
    run.vouchers = c
        .of_kind("voucher")
        .filter(|e| e.requires.is_none() && e.id != "overstock")
        .map(|e| format!("voucher:{}", e.id))
        .collect();
    // Everything but overstock (and the tier twos) is owned: overstock it is, never its plus.
    for _ in 0..20 {
        let v = run::roll_voucher(&mut run.clone(), &c).unwrap().unwrap();
        assert!(
            v == "voucher:overstock" || c.catalog[&v].requires.is_some(),
            "{v}"
        );
        assert_ne!(v, "voucher:overstock_plus");
    }
}

/// The blank does nothing of its own: it is the antimatter's first tier, so with everything
/// else owned the shop offers the blank, and only once it is owned the antimatter.
#[test]
fn the_blank_opens_the_antimatter() {
    let c = content();
    let mut run = RunState::new("v", 1, "plain").unwrap();
    run.vouchers = c
        .of_kind("voucher")
        .filter(|e| e.id != "blank" && e.id != "antimatter")
        .map(|e| format!("voucher:{}", e.id))
        .collect();
    for _ in 0..5 {
        let v = run::roll_voucher(&mut run, &c).unwrap();
        assert_eq!(v.as_deref(), Some("voucher:blank"));
    }
    run::rebuild(&mut run, &c).unwrap();
    let before = run.rules.clone();
    run.vouchers.push("voucher:blank".into());
    run::rebuild(&mut run, &c).unwrap();
    assert_eq!(run.rules, before, "the blank changes no rule");
    let v = run::roll_voucher(&mut run, &c).unwrap();
    assert_eq!(v.as_deref(), Some("voucher:antimatter"));
}

#[test]
fn glyph_and_rune_set_the_ante_back_when_bought() {
    let c = content();
    let mut run = run_of(&c, &[]);
    run.ante = 3;
    run.money = 30;
    run::buy_voucher(&mut run, &c, "glyph").unwrap();
    assert_eq!((run.ante, run.rule(Rule::Hands)), (2, 3));
    run::buy_voucher(&mut run, &c, "rune").unwrap();
    assert_eq!((run.ante, run.rule(Rule::Discards)), (1, 2));
    // Rebuilding does not set it back again: the ante moved once, at the purchase.
    run::rebuild(&mut run, &c).unwrap();
    assert_eq!(run.ante, 1);
}

#[test]
fn observatory_multiplies_by_each_held_planet_of_the_hand() {
    let c = content();
    let mut run = run_of(&c, &[]);
    run.consumables = vec![
        "planet:pebble".into(),
        "planet:pebble".into(),
        "planet:trine".into(),
    ];
    let plain = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert_eq!(plain.mult, Fixed::from_int(2));
    run.vouchers.push("voucher:observatory".into());
    run::rebuild(&mut run, &c).unwrap();
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    // x1.5 twice (two pair-planets held), the trio's planet does nothing: 2 -> 4.5.
    assert_eq!(r.mult, Fixed::from_raw(45_000));
}

#[test]
fn decks_shape_the_starting_deck() {
    let deck = |id: &str, seed: &str| {
        let content = turnstile_clover::CloverContent::shipped().unwrap();
        <turnstile_clover::Clover as turnstile_core::Game>::setup(
            &content,
            turnstile_core::MatchSetup {
                config: &turnstile_clover::CloverConfig {
                    stake: 1,
                    deck: id.into(),
                },
                seed,
                seats: 1,
            },
        )
        .unwrap()
    };
    let hollow = deck("hollow", "d");
    assert_eq!(hollow.cards.len(), 40);
    assert!(hollow.cards.iter().all(|c| !(11..=13).contains(&c.rank)));
    let chequer = deck("chequer", "d");
    assert_eq!(
        chequer
            .cards
            .iter()
            .filter(|c| c.suit == Suit::Spades)
            .count(),
        26
    );
    assert_eq!(
        chequer
            .cards
            .iter()
            .filter(|c| c.suit == Suit::Hearts)
            .count(),
        26
    );
    let tumble = deck("tumble", "d");
    assert_eq!(tumble.cards.len(), 52);
    assert_eq!(
        tumble.cards,
        deck("tumble", "d").cards,
        "the same seed, the same deck"
    );
    assert_ne!(tumble.cards, deck("tumble", "e").cards);
    assert_ne!(tumble.cards, deck("plain", "d").cards);
    let conjure = deck("conjure", "d");
    assert_eq!(conjure.run.consumables.len(), 2);
    assert!(conjure
        .run
        .consumables
        .iter()
        .all(|c| c.starts_with("tarot:")));
    let phantom = deck("phantom", "d");
    assert!(
        phantom.run.consumables.len() == 1 && phantom.run.consumables[0].starts_with("spectral:")
    );
    // Verdant: $2 per unused hand, $1 per unused discard, no interest ($20 held).
    let c = content();
    let mut run = RunState::new("verdant", 1, "verdant").unwrap();
    run::start_run(&mut run, &c).unwrap();
    run.money = 20;
    run.hands_left = 2;
    run.discards_left = 3;
    run::end_round(&mut run, &c, Blind::Big, &[]).unwrap();
    assert_eq!(run.money, 20 + 4 + 4 + 3);
}

#[test]
fn tags_pay_and_create() {
    let c = content();
    let mut run = run_of(&c, &[]);
    run::take_tag(&mut run, &c, "thrift").unwrap();
    assert_eq!(run.money, 8);
    run.money = 50;
    run::take_tag(&mut run, &c, "thrift").unwrap();
    assert_eq!(run.money, 90);
    run.played_counts[1] = 3;
    run.played_counts[4] = 2;
    run::take_tag(&mut run, &c, "handy").unwrap();
    assert_eq!(run.money, 95);
    run::take_tag(&mut run, &c, "top_up").unwrap();
    assert_eq!(run.jokers.len(), 2);
    assert!(run.jokers.iter().all(|j| j.rarity == 1));
    run::take_tag(&mut run, &c, "uncommon").unwrap();
    run::take_tag(&mut run, &c, "rare").unwrap();
    assert_eq!((run.jokers[2].rarity, run.jokers[3].rarity), (2, 3));
    run::take_tag(&mut run, &c, "ethereal").unwrap();
    assert!(run.consumables.len() == 1 && run.consumables[0].starts_with("spectral:"));
}

#[test]
fn bosses_act_before_the_jokers() {
    let c = content();
    let boss = |id: &str| {
        let mut run = run_of(&c, &[]);
        run.boss = Some(format!("boss:{id}"));
        run.boss_active = true;
        run::rebuild(&mut run, &c).unwrap();
        run
    };
    // The toll: $1 per card played.
    let mut run = boss("toll");
    score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(run.money, 1);
    // The withering: a level-2 pair scores as level 1, and stays there.
    let mut run = boss("withering");
    run.levels[1] = 2;
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert_eq!(
        (r.chips, r.mult, run.levels[1]),
        (32, Fixed::from_int(2), 1)
    );
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert_eq!((r.chips, run.levels[1]), (32, 1), "never below level 1");
    // The yoke: the most played hand takes every dollar; another hand does not.
    let mut run = boss("yoke");
    run.money = 12;
    run.played_counts[1] = 3;
    score_hand(&mut run, &c, &cards("AS KH"), &[], true).unwrap();
    assert_eq!(run.money, 12);
    score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert_eq!(run.money, 0);
}

#[test]
fn spectrals_create_and_change_the_run() {
    use turnstile_effects::StepKind;
    let c = content();
    // Residue: a permanent change whose cause is gone — layer 2 of every later rebuild.
    let mut run = run_of(&c, &[]);
    run.consumables.push("spectral:residue".into());
    run::use_consumable(&mut run, &c, 0).unwrap();
    for _ in 0..3 {
        let steps = run::rebuild(&mut run, &c).unwrap();
        assert_eq!(
            (run.rule(Rule::JokerSlots), run.rule(Rule::HandSize)),
            (6, 7)
        );
        assert_eq!(
            steps
                .iter()
                .filter(|s| s.kind == StepKind::Lingering)
                .count(),
            2
        );
    }
    // Revenant: a rare joker, and no money left.
    let mut run = run_of(&c, &[]);
    run.money = 30;
    run.consumables.push("spectral:revenant".into());
    run::use_consumable(&mut run, &c, 0).unwrap();
    assert_eq!(
        (run.jokers.len(), run.jokers[0].rarity, run.money),
        (1, 3, 0)
    );
    // Soulstone: a legendary joker.
    let mut run = run_of(&c, &[]);
    run.consumables.push("spectral:soulstone".into());
    run::use_consumable(&mut run, &c, 0).unwrap();
    assert_eq!(run.jokers[0].rarity, 4);
}

#[test]
fn stakes_are_layer_one() {
    let c = content();
    let mut run = RunState::new("stake", 5, "plain").unwrap();
    let steps = run::rebuild(&mut run, &c).unwrap();
    // Stake 5 takes a discard, stake 3 sets scaling 2 — yet no rebuild step is a stake's:
    // they are the defaults the layers start from.
    assert_eq!(
        (run.rule(Rule::Discards), run.rule(Rule::BlindScaling)),
        (2, 2)
    );
    assert!(
        steps.iter().all(|s| !s.owner.starts_with("stake:")),
        "{steps:?}"
    );
    // A deck's rows build on them (layer 3): the crimson deck's extra discard.
    let mut run = RunState::new("stake", 5, "crimson").unwrap();
    run::rebuild(&mut run, &c).unwrap();
    assert_eq!(run.rule(Rule::Discards), 3);
}

#[test]
fn the_boss_is_known_when_the_ante_starts_and_can_be_rerolled_with_a_voucher() {
    use turnstile_clover::game::CloverView;
    use turnstile_core::{Game, Seat, Viewer};
    let (content, mut s) = new_game("boss-preview", 1);
    let c = content.content();
    let view = |s: &turnstile_clover::CloverState| -> CloverView {
        turnstile_clover::Clover::view(&content, s, Viewer::Seat(Seat(0)))
    };
    let boss = s
        .run
        .boss
        .clone()
        .expect("the first ante's boss is chosen at the start");
    let v = view(&s);
    assert_eq!(v.blinds.len(), 3);
    assert_eq!(v.blinds[2].boss.as_deref(), Some(boss.as_str()));
    assert_eq!(v.blinds[0].target, 300);
    assert_eq!(v.blinds[1].target, 450);
    assert_eq!(
        v.blinds[2].target,
        run::boss_preview_target(&s.run, c, &boss)
    );
    assert!(v.blinds[2].name.is_some());
    assert_eq!(v.boss_reroll_cost, None);
    // Without a voucher: refused.
    let e = s.apply(c, &CloverAction::RerollBoss).unwrap_err();
    assert_eq!(e.code, "no_boss_reroll");
    // Recast: once per ante, $10, never the same boss.
    s.run.vouchers.push("voucher:recast".into());
    run::rebuild(&mut s.run, c).unwrap();
    s.run.money = 25;
    assert_eq!(view(&s).boss_reroll_cost, Some(10));
    let before = s.run.streams.clone();
    s.apply(c, &CloverAction::RerollBoss).unwrap();
    assert_ne!(s.run.streams, before, "drawn on the run's boss stream");
    let second = s.run.boss.clone().unwrap();
    assert_ne!(second, boss);
    assert_eq!(s.run.money, 15);
    assert_eq!(view(&s).boss_reroll_cost, None);
    assert_eq!(
        s.apply(c, &CloverAction::RerollBoss).unwrap_err().code,
        "boss_reroll_spent"
    );
    // Rewrite: as often as paid for.
    s.run.vouchers.push("voucher:rewrite".into());
    run::rebuild(&mut s.run, c).unwrap();
    s.apply(c, &CloverAction::RerollBoss).unwrap();
    assert_eq!(s.run.money, 5);
    assert_eq!(
        s.apply(c, &CloverAction::RerollBoss).unwrap_err().code,
        "not_enough_money"
    );
    // The same seed rerolls to the same boss (the run's own stream).
    let (_, mut t) = new_game("boss-preview", 1);
    t.run.vouchers.push("voucher:recast".into());
    run::rebuild(&mut t.run, c).unwrap();
    t.run.money = 25;
    t.apply(c, &CloverAction::RerollBoss).unwrap();
    assert_eq!(t.run.boss.as_deref(), Some(second.as_str()));
    // The boss blind plays the boss that was shown.
    let shown = s.run.boss.clone();
    s.apply(c, &CloverAction::SkipBlind).unwrap();
    s.apply(c, &CloverAction::SkipBlind).unwrap();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    assert_eq!(s.run.boss, shown);
    assert!(s.run.boss_active);
}

/// Spoiling is a chance at each round's end: forced with certainty by four chance doublers
/// (1/6 x 16 >= 1), and without them a real chance (some seeds keep it, some lose it).
#[test]
fn a_banana_spoils_on_its_chance() {
    let c = content();
    let mut run = run_of(
        &c,
        &[
            ("loaded_dice", 0),
            ("loaded_dice", 0),
            ("loaded_dice", 0),
            ("green_banana", 0),
        ],
    );
    run.jokers.push(c.joker("loaded_dice").unwrap());
    run::rebuild(&mut run, &c).unwrap();
    assert_eq!(run.rule(Rule::ChanceFactor), 16);
    run::end_round(&mut run, &c, Blind::Small, &[]).unwrap();
    assert!(run.jokers.iter().all(|j| j.id != "green_banana"), "spoiled");
    let kept = (0..40)
        .filter(|i| {
            let mut run = RunState::new(&format!("banana{i}"), 1, "plain").unwrap();
            run.jokers.push(c.joker("green_banana").unwrap());
            run::rebuild(&mut run, &c).unwrap();
            run::end_round(&mut run, &c, Blind::Small, &[]).unwrap();
            !run.jokers.is_empty()
        })
        .count();
    assert!((20..40).contains(&kept), "{kept} of 40 kept");
}

#[test]
fn the_game_tells_the_rows_what_its_deck_holds() {
    use turnstile_clover::game::CloverEvent;
    let chips = |joker: Option<&str>| {
        let (content, mut s) = new_game("deck-counts", 1);
        let c = content.content();
        s.run.jokers.extend(joker.and_then(|j| c.joker(j)));
        s.apply(c, &CloverAction::SelectBlind).unwrap();
        let left = s.deck.len() as i64;
        let events = s.apply(c, &CloverAction::Play { cards: vec![0] }).unwrap();
        let chips = events.iter().find_map(|e| match e {
            CloverEvent::HandScored { chips, .. } => *chips,
            _ => None,
        });
        (chips.unwrap(), left)
    };
    let (plain, left) = chips(None);
    let (blue, _) = chips(Some("deep_blue"));
    assert_eq!(left, 44);
    assert_eq!(
        blue - plain,
        2 * left,
        "+2 chips for each of the 44 cards left"
    );
}

#[test]
fn discounts_lower_every_shop_price() {
    let c = content();
    let mut run = run_of(&c, &[]);
    run.vouchers = vec!["voucher:clearance".into()];
    run::rebuild(&mut run, &c).unwrap();
    // A $8 joker at 25 % off: $6; at 50 %: $4; a $1 joker never below $1.
    assert_eq!(
        run::joker_price(&run, &c, "echo_pair", Default::default()),
        6
    );
    run.vouchers.push("voucher:liquidation".into());
    run::rebuild(&mut run, &c).unwrap();
    assert_eq!(
        run::joker_price(&run, &c, "echo_pair", Default::default()),
        4
    );
    assert_eq!(
        run::joker_price(&run, &c, "tab_card", Default::default()),
        1
    );
    run.money = 10;
    run::buy_voucher(&mut run, &c, "overstock").unwrap();
    assert_eq!(run.money, 5, "a $10 voucher for $5");
}

#[test]
fn the_ringmaster_lets_owned_jokers_come_again() {
    let c = content();
    // Own every common joker: without the ringmaster no common is offered; with it, some are.
    let commons: Vec<&str> = c
        .of_kind("joker")
        .filter(|e| e.rarity == 1)
        .map(|e| e.id.as_str())
        .collect();
    let offered = |ring: bool| {
        let mut run = RunState::new("ring", 1, "plain").unwrap();
        for id in &commons {
            run.jokers.push(c.joker(id).unwrap());
        }
        if ring {
            run.jokers.push(c.joker("ringmaster").unwrap());
        }
        run::rebuild(&mut run, &c).unwrap();
        (0..30)
            .flat_map(|_| run::roll_shop(&mut run, &c).unwrap())
            .filter(|o| commons.iter().any(|id| *o == format!("joker:{id}")))
            .count()
    };
    assert_eq!(offered(false), 0);
    assert!(offered(true) > 0);
}

#[test]
fn round_memory_bosses_and_the_card_shark() {
    let c = content();
    let boss = |id: &str, jokers: &[&str]| {
        let mut run = run_with(&c, jokers);
        run.boss = Some(format!("boss:{id}"));
        run::start_round(&mut run, &c, Blind::Boss).unwrap();
        run
    };
    // The mirror: a repeat scores nothing.
    let mut run = boss("mirror", &[]);
    assert_eq!(
        score_hand(&mut run, &c, &cards("AS AH"), &[], true)
            .unwrap()
            .score,
        64
    );
    let again = score_hand(&mut run, &c, &cards("KS KH"), &[], true).unwrap();
    assert!(again.not_allowed && again.score == 0);
    assert_eq!(
        score_hand(&mut run, &c, &cards("AS"), &[], true)
            .unwrap()
            .score,
        16
    );
    // The gag: only the round's first hand type.
    let mut run = boss("gag", &[]);
    score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert!(
        score_hand(&mut run, &c, &cards("AS"), &[], true)
            .unwrap()
            .not_allowed
    );
    assert!(
        !score_hand(&mut run, &c, &cards("KS KH"), &[], true)
            .unwrap()
            .not_allowed
    );
    // A new round forgets.
    run::start_round(&mut run, &c, Blind::Boss).unwrap();
    assert!(
        !score_hand(&mut run, &c, &cards("AS"), &[], true)
            .unwrap()
            .not_allowed
    );
    // The card shark: x3 on a repeat, not on the first.
    let mut run = run_with(&c, &["card_shark"]);
    run::start_round(&mut run, &c, Blind::Small).unwrap();
    assert_eq!(
        score_hand(&mut run, &c, &cards("AS AH"), &[], true)
            .unwrap()
            .mult,
        Fixed::from_int(2)
    );
    assert_eq!(
        score_hand(&mut run, &c, &cards("AS AH"), &[], true)
            .unwrap()
            .mult,
        Fixed::from_int(6)
    );
}

#[test]
fn the_snare_and_the_coil_change_the_draw() {
    let at_boss = |seed: &str, boss: &str| {
        // Straight to the boss blind (skipping would take tags that change the hand size).
        let (content, mut s) = new_game(seed, 1);
        s.blind = Blind::Boss;
        s.run.boss = Some(format!("boss:{boss}"));
        s.apply(content.content(), &CloverAction::SelectBlind)
            .unwrap();
        (content, s)
    };
    let (content, mut s) = at_boss("snare", "snare");
    let deck = s.deck.len();
    s.apply(content.content(), &CloverAction::Play { cards: vec![0] })
        .unwrap();
    // One played, two snared: three cards drawn to fill the hand again.
    assert_eq!((s.hand.len(), deck - s.deck.len()), (8, 3));
    let (content, mut s) = at_boss("coil", "coil");
    s.apply(content.content(), &CloverAction::Play { cards: vec![0] })
        .unwrap();
    assert_eq!(s.hand.len(), 7 + 3, "exactly 3 drawn, past the hand size");
    s.apply(
        content.content(),
        &CloverAction::Discard {
            cards: vec![0, 1, 2, 3, 4],
        },
    )
    .unwrap();
    assert_eq!(s.hand.len(), 10 - 5 + 3);
}

#[test]
fn speed_and_garbage_tags_count_the_run() {
    let c = content();
    let mut run = run_of(&c, &[]);
    run.skips = 2;
    run::take_tag(&mut run, &c, "speed").unwrap();
    assert_eq!(run.money, 4 + 10);
    run.discards_left = 3;
    run::end_round(&mut run, &c, Blind::Small, &[]).unwrap();
    assert_eq!(run.unused_discards, 3);
    let before = run.money;
    run::take_tag(&mut run, &c, "garbage").unwrap();
    assert_eq!(run.money, before + 3);
    // Skipping a blind counts.
    let (content, mut s) = new_game("skips", 1);
    s.apply(content.content(), &CloverAction::SkipBlind)
        .unwrap();
    assert_eq!(s.run.skips, 1);
}

/// A Wild card is every suit for the round's card and suit; debuffed, it is none; a stone card
/// is never the round's card.
#[test]
fn round_targets_read_wild_debuffed_and_stone_cards_as_the_genre_does() {
    let c = content();
    let mut wild = cards("AD AH 3C");
    wild[0].enhancement = Enhancement::Wild;
    // The wild AD counts as the ace of spades (x2) ...
    let mut run = run_of(&c, &[("effigy", 0)]);
    targets_ace_of_spades_hearts_pair(&mut run);
    let r = score_hand(&mut run, &c, &wild, &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(4));
    // ... and as a heart for the relic, beside the AH: x1.5 twice.
    let mut run = run_of(&c, &[("relic", 0)]);
    targets_ace_of_spades_hearts_pair(&mut run);
    let r = score_hand(&mut run, &c, &wild, &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_raw(45_000));
    // Under a boss that debuffs diamonds the wild AD is no suit and does not score: the AH
    // alone is multiplied.
    let mut run = run_of(&c, &[("relic", 0)]);
    targets_ace_of_spades_hearts_pair(&mut run);
    run.rules[turnstile_clover::state::rule_index("debuff_diamonds").unwrap()] = 1;
    let r = score_hand(&mut run, &c, &wild, &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(3));
    // A stone card is no rank: never the round's card.
    let mut stone = cards("AS AH 3C");
    stone[0].enhancement = Enhancement::Stone;
    let mut run = run_of(&c, &[("effigy", 0)]);
    targets_ace_of_spades_hearts_pair(&mut run);
    let r = score_hand(&mut run, &c, &stone, &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(1));
}

/// The round's targets are drawn on their own stream when the run starts and at every
/// round's end: from the run's own cards, the suit and the hand always change, and the same
/// seed draws the same targets.
#[test]
fn round_targets_are_drawn_from_the_deck_and_change_every_round() {
    let c = content();
    let mut run = run_of(&c, &[]);
    // A deck of one seven of diamonds among stone cards: the card, the discarded suit and
    // rank can only be it.
    let mut deck = cards("7D KS QH");
    deck[1].enhancement = Enhancement::Stone;
    deck[2].enhancement = Enhancement::Stone;
    let mut seen_suits = Vec::new();
    let mut seen_hands = Vec::new();
    for _ in 0..12 {
        let before = run.round_targets;
        run::draw_round_targets(&mut run, &deck).unwrap();
        let t = run.round_targets;
        assert_eq!((t.card_rank, t.card_suit), (7, Suit::Diamonds));
        assert_eq!((t.discard_rank, t.discard_suit), (7, Suit::Diamonds));
        assert_ne!(t.suit, before.suit, "the suit changes every round");
        assert_ne!(t.hand, before.hand, "the hand changes every round");
        // Secret hands are not targets until played.
        assert!(HandType::ALL.iter().position(|h| *h == t.hand).unwrap() < 9);
        seen_suits.push(t.suit);
        seen_hands.push(t.hand);
    }
    assert!(
        seen_hands
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            > 2
    );
    // The same seed draws the same targets.
    let mut again = run_of(&c, &[]);
    let mut replayed = Vec::new();
    for _ in 0..12 {
        run::draw_round_targets(&mut again, &deck).unwrap();
        replayed.push(again.round_targets.suit);
    }
    assert_eq!(replayed, seen_suits, "the same seed draws the same targets");
    // A five of a kind played once makes it a target like the others.
    let mut run = run_of(&c, &[]);
    run.played_counts[HandType::FiveOfAKind.index()] = 1;
    let hands: std::collections::BTreeSet<HandType> = (0..200)
        .map(|_| {
            run::draw_round_targets(&mut run, &deck).unwrap();
            run.round_targets.hand
        })
        .collect();
    assert!(hands.contains(&HandType::FiveOfAKind), "{hands:?}");
    assert!(!hands.contains(&HandType::FlushFive), "{hands:?}");
}

/// Through the game: the view shows the round's targets from the start, a beaten blind
/// draws new ones, and a discard pays the rebate for the round's rank.
#[test]
fn the_game_draws_and_shows_the_round_targets() {
    let (content, state) = new_game("targets", 1);
    let view = <turnstile_clover::Clover as turnstile_core::Game>::view(
        &content,
        &state,
        turnstile_core::Viewer::Seat(turnstile_core::Seat(0)),
    );
    assert_eq!(view.round_targets, state.run.round_targets);
    // Not the fallback: drawn from the plain deck (the default is the ace of spades and a
    // high card; the first draw always changes the suit away from spades).
    assert_ne!(view.round_targets.suit, Suit::Spades);
}

/// Sell values: half the catalog cost (at least $1), raised by the nest egg and the gift box
/// at every round's end, paid when sold, and read by the cutlass.
#[test]
fn sell_values_grow_are_paid_and_are_read() {
    let c = content();
    // harlequin costs $2 (sells for $1), the nest egg $4 ($2), the gift box $6 ($3).
    let mut run = run_of(&c, &[("harlequin", 0), ("nest_egg", 0), ("gift_box", 0)]);
    let values = |r: &RunState| r.jokers.iter().map(|j| j.sell_value).collect::<Vec<_>>();
    assert_eq!(values(&run), [1, 2, 3]);
    end_small(&mut run, &c);
    // The egg +3 for itself, the box +1 for every joker.
    assert_eq!(values(&run), [2, 6, 4]);
    end_small(&mut run, &c);
    assert_eq!(values(&run), [3, 10, 5]);
    // Selling the egg pays its grown value.
    let before = run.money;
    run::sell_joker(&mut run, &c, 1).unwrap();
    assert_eq!(run.money, before + 10);
    // The cutlass adds the others' sell values as mult: 3 + 5 = 8 on the pair's 2 (the
    // harlequin's +4 first): 2 + 4 + 8 = 14.
    run.jokers.push(c.joker("cutlass").unwrap());
    run::rebuild(&mut run, &c).unwrap();
    let r = score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(14));
    // A rental joker sells for half the rental price ($1).
    let mut run = run_of(&c, &[]);
    run.money = 10;
    let stickers = turnstile_clover::state::Stickers {
        rental: true,
        ..Default::default()
    };
    run::buy_joker_with(&mut run, &c, "nest_egg", stickers).unwrap();
    assert_eq!(run.jokers[0].sell_value, 1);
}

/// Guarded chances: each roll is made only for the cards its formula names (no draw for the
/// others), and with enough chance doublers it is certain (forced outcome, whatever the seed).
#[test]
fn guarded_chance_jokers_roll_only_for_their_cards() {
    let c = content();
    let joker_proc = |r: &RunState| format!("{:?}", r.streams.get("joker_proc").unwrap());
    // Certain: one doubler makes 1 in 2 sure, two make 1 in 4 sure.
    let mut run = run_of(&c, &[("calling_card", 0), ("loaded_dice", 0)]);
    let before = run.money;
    score_hand(&mut run, &c, &cards("KS KH 3C"), &[], true).unwrap();
    assert_eq!(
        run.money,
        before + 4,
        "calling card: $2 for each scored king"
    );
    let mut run = run_of(&c, &[("garnet_eye", 0), ("loaded_dice", 0)]);
    let r = score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(
        r.mult,
        Fixed::from_int(3),
        "garnet eye: x1.5 for the scored heart"
    );
    let mut run = run_of(&c, &[("valet_stand", 0), ("loaded_dice", 0)]);
    let before = run.money;
    score_hand(&mut run, &c, &cards("AS AH"), &cards("KS QD 3C"), true).unwrap();
    assert_eq!(
        run.money,
        before + 2,
        "valet stand: $1 for each held face card"
    );
    let mut run = run_of(
        &c,
        &[("eight_ball", 0), ("loaded_dice", 0), ("loaded_dice", 0)],
    );
    score_hand(&mut run, &c, &cards("8S 8H 3C"), &[], true).unwrap();
    assert_eq!(
        run.consumables.len(),
        2,
        "eight ball: a tarot for each scored 8"
    );
    assert!(run.consumables.iter().all(|t| t.starts_with("tarot:")));
    // The guard fails for every card: no roll at all.
    for (joker, played, held) in [
        ("calling_card", "AS AH 3C", ""),
        ("garnet_eye", "AS AC 3C", ""),
        ("valet_stand", "AS AH", "2S 3D"),
        ("eight_ball", "AS AH 3C", ""),
    ] {
        let mut run = run_of(&c, &[(joker, 0)]);
        let before = joker_proc(&run);
        score_hand(&mut run, &c, &cards(played), &cards(held), true).unwrap();
        assert_eq!(
            joker_proc(&run),
            before,
            "{joker}: rolled for a card it ignores"
        );
    }
    // The guard holds: one draw per card it names.
    let mut run = run_of(&c, &[("calling_card", 0)]);
    let mut mirror = run.streams.get("joker_proc").unwrap().clone();
    let half = turnstile_core::determinism::Chance::new(1, 2).unwrap();
    let hits = (0..2).filter(|_| half.roll(&mut mirror)).count() as i64;
    let before = run.money;
    score_hand(&mut run, &c, &cards("KS KH 3C"), &[], true).unwrap();
    assert_eq!(run.streams.get("joker_proc").unwrap(), &mirror);
    assert_eq!(run.money, before + 2 * hits);
}

/// Twin paths: a tarot for a ladder (straight) with a scored ace, none without the ace.
#[test]
fn twin_paths_needs_a_ladder_and_an_ace() {
    let c = content();
    let mut run = run_of(&c, &[("twin_paths", 0)]);
    score_hand(&mut run, &c, &cards("AS 2H 3C 4D 5S"), &[], true).unwrap();
    assert_eq!(run.consumables.len(), 1);
    assert!(run.consumables[0].starts_with("tarot:"));
    let mut run = run_of(&c, &[("twin_paths", 0)]);
    score_hand(&mut run, &c, &cards("2H 3C 4D 5S 6H"), &[], true).unwrap();
    assert!(run.consumables.is_empty());
    let mut run = run_of(&c, &[("twin_paths", 0)]);
    score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert!(run.consumables.is_empty());
}

/// The orbiter pays $1 at a round's end for each different planet used this run (the same
/// planet twice counts once).
#[test]
fn the_orbiter_counts_different_planets_used() {
    let c = content();
    let planets: Vec<String> = c
        .of_kind("planet")
        .take(2)
        .map(|e| format!("planet:{}", e.id))
        .collect();
    let ended = |jokers: &[(&str, i64)]| {
        let mut run = run_of(&c, jokers);
        for p in [&planets[0], &planets[0], &planets[1]] {
            use_card(&mut run, &c, p);
        }
        assert_eq!(run.planets_used, {
            let mut used = planets.clone();
            used.sort();
            used
        });
        // No money, so the $2 cannot reach a $5 of interest (the round's end pays the
        // jokers' money before it counts interest).
        run.money = 0;
        end_small(&mut run, &c);
        run.money
    };
    assert_eq!(ended(&[("orbiter", 0)]), ended(&[]) + 2);
}

/// The game tells the rows how many cards the deck had at the start.
#[test]
fn the_game_remembers_the_decks_starting_size() {
    let (_, state) = new_game("deck-start", 1);
    assert_eq!(state.run.deck_start, state.cards.len() as i64);
    assert_eq!(state.run.deck_start, 52);
}

#[test]
fn the_wayfarer_gives_each_scored_card_chips_it_keeps() {
    let c = content();
    let mut run = run_of(&c, &[("wayfarer", 0)]);
    // This hand: the aces score their rank chips (the bonus comes after them): 10 + 11 + 11.
    let first = score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(first.chips, 32);
    let after: Vec<u32> = run.scoring.played.iter().map(|c| c.perma_bonus).collect();
    assert_eq!(
        after,
        [5, 5, 0],
        "the scoring aces gain 5, the unscored three nothing"
    );
    // Played again, the aces bring their 5 each: 10 + 16 + 16.
    let again = run.scoring.played.clone();
    let second = score_hand(&mut run, &c, &again, &[], true).unwrap();
    assert_eq!(second.chips, 42);
    assert_eq!(run.scoring.played[0].perma_bonus, 10);
}

#[test]
fn a_card_changed_while_it_scores_stays_changed_in_the_runs_deck() {
    let (content, mut s) = new_game("wayfarer-deck", 1);
    let c = content.content();
    s.run.jokers.extend(c.joker("wayfarer"));
    run::rebuild(&mut s.run, c).unwrap();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    let played = s.hand[0];
    let before = s.cards.iter().filter(|k| **k == played).count();
    s.apply(c, &CloverAction::Play { cards: vec![0] }).unwrap();
    let mut kept = played;
    kept.perma_bonus += 5;
    assert_eq!(s.cards.len(), 52, "no card gained or lost");
    assert_eq!(s.cards.iter().filter(|k| **k == kept).count(), 1);
    assert_eq!(
        s.cards.iter().filter(|k| **k == played).count(),
        before - 1,
        "the played card is replaced, not copied"
    );
}

#[test]
fn the_gilt_mask_gilds_scoring_faces_before_they_score() {
    let c = content();
    let mut run = run_of(&c, &[("gilt_mask", 0)]);
    let mut played = cards("KS KH 3C");
    played[0] = played[0].with(Enhancement::Bonus);
    let r = score_hand(&mut run, &c, &played, &[], true).unwrap();
    // The bonus king is gold before it scores, so its +30 is gone: 10 + 10 + 10.
    assert_eq!(r.chips, 30);
    let now: Vec<Enhancement> = run.scoring.played.iter().map(|c| c.enhancement).collect();
    assert_eq!(
        now,
        [Enhancement::Gold, Enhancement::Gold, Enhancement::None],
        "the two scoring kings, not the unscored three"
    );
    // No face scored: nothing changes.
    let mut run = run_of(&c, &[("gilt_mask", 0)]);
    score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert!(run
        .scoring
        .played
        .iter()
        .all(|c| c.enhancement == Enhancement::None));
}

#[test]
fn the_leech_strips_enhancements_before_scoring_and_grows() {
    let c = content();
    let mut run = run_of(&c, &[("leech", 0)]);
    let mut played = cards("AS AH 3C");
    played[0] = played[0].with(Enhancement::Mult);
    played[1] = played[1].with(Enhancement::Bonus);
    played[2] = played[2].with(Enhancement::Glass);
    let r = score_hand(&mut run, &c, &played, &[], true).unwrap();
    // Stripped before scoring: 10 + 11 + 11 chips, mult 2 x (1 + 2 x 0.1); the unscored glass
    // three keeps its enhancement.
    assert_eq!(r.chips, 32);
    assert_eq!(r.mult, Fixed::from_raw(24_000));
    assert_eq!(run.jokers[0].counter, 2);
    assert_eq!(run.scoring.played[2].enhancement, Enhancement::Glass);
    assert!(run.scoring.played[..2]
        .iter()
        .all(|c| c.enhancement == Enhancement::None));
    // Later hands keep the x1.2 and plain cards add nothing.
    let r = score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(
        (r.mult, run.jokers[0].counter),
        (Fixed::from_raw(24_000), 2)
    );
}

/// The Alley Cat grows once per evaluation in which a lucky card pays: forced with three chance
/// doublers (1/5 x 8 >= 1), so both lucky aces pay and the cat's x1.5 applies in the joker step.
#[test]
fn the_alley_cat_grows_when_lucky_cards_pay() {
    let c = content();
    let mut run = run_of(
        &c,
        &[
            ("alley_cat", 0),
            ("loaded_dice", 0),
            ("loaded_dice", 0),
            ("loaded_dice", 0),
        ],
    );
    assert_eq!(run.rule(Rule::ChanceFactor), 8);
    let mut played = cards("AS AH 3C");
    played[0] = played[0].with(Enhancement::Lucky);
    played[1] = played[1].with(Enhancement::Lucky);
    let r = score_hand(&mut run, &c, &played, &[], true).unwrap();
    assert_eq!(run.jokers[0].counter, 2, "one per paying evaluation");
    // 2 + 20 + 20 = 42, x(1 + 2 x 0.25) = 63.
    assert_eq!((r.chips, r.mult), (32, Fixed::from_int(63)));
    // Plain cards pay nothing: the cat keeps its counter.
    score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(run.jokers[0].counter, 2);
}

/// The Glazier grows x0.75 for each glass card that breaks after scoring: forced with two
/// chance doublers (1/4 x 4 = 1); the growth applies from the next hand.
#[test]
fn the_glazier_grows_when_glass_breaks() {
    let c = content();
    let mut run = run_of(
        &c,
        &[("glazier", 0), ("loaded_dice", 0), ("loaded_dice", 0)],
    );
    let mut played = cards("AS AH 3C");
    played[0] = played[0].with(Enhancement::Glass);
    played[1] = played[1].with(Enhancement::Glass);
    let r = score_hand(&mut run, &c, &played, &[], true).unwrap();
    assert_eq!(r.destroyed.len(), 2);
    // 2 x2 x2 = 8; the glazier was still x1.
    assert_eq!(r.mult, Fixed::from_int(8));
    assert_eq!(run.jokers[0].counter, 6);
    let r = score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(5), "2 x (1 + 6 x 0.25)");
    // Glass that holds does not count.
    let mut run = run_of(&c, &[("glazier", 0)]);
    score_hand(&mut run, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(run.jokers[0].counter, 0);
}

/// The Last Breath saves a run whose last hand reached a quarter of the blind: it destroys
/// itself and gains `rescue`; a second copy stays, an eternal one never saves, and below 25 %
/// nothing happens.
#[test]
fn the_last_breath_saves_a_run_once_at_a_quarter_of_the_blind() {
    let c = content();
    let mut r = run_of(&c, &[("last_breath", 0), ("last_breath", 0)]);
    assert_eq!(run::round_lost(&mut r, &c, 24).unwrap(), None);
    assert_eq!(r.jokers.len(), 2, "below 25 %: nothing");
    assert_eq!(
        run::round_lost(&mut r, &c, 25).unwrap().as_deref(),
        Some("joker:last_breath")
    );
    assert_eq!(r.jokers.len(), 1, "one copy is spent, the other stays");
    let mut r = run_of(&c, &[("last_breath", 0)]);
    r.jokers[0].eternal = true;
    assert_eq!(
        run::round_lost(&mut r, &c, 90).unwrap(),
        None,
        "an eternal one never leaves"
    );
    assert_eq!(r.jokers.len(), 1);
}

#[test]
fn a_saved_run_goes_to_the_shop_without_the_blind_reward() {
    use turnstile_clover::game::{CloverEvent, Phase};
    let last_hand = |joker: Option<&str>| {
        let (content, mut s) = new_game("last-breath", 1);
        let c = content.content();
        s.run.jokers.extend(joker.and_then(|j| c.joker(j)));
        run::rebuild(&mut s.run, c).unwrap();
        s.apply(c, &CloverAction::SelectBlind).unwrap();
        s.run.hands_left = 1;
        s.scored = s.target / 4;
        let money = s.run.money;
        let events = s.apply(c, &CloverAction::Play { cards: vec![0] }).unwrap();
        (s, events, money)
    };
    let (lost, events, _) = last_hand(None);
    assert_eq!(lost.phase, Phase::Lost);
    assert!(events.iter().any(|e| matches!(e, CloverEvent::RunLost)));
    let (saved, events, money) = last_hand(Some("last_breath"));
    assert_eq!(saved.phase, Phase::Shop);
    assert!(saved.run.jokers.is_empty(), "the joker is spent");
    assert!(events
        .iter()
        .any(|e| matches!(e, CloverEvent::RunSaved { by } if by == "joker:last_breath")));
    assert!(events
        .iter()
        .any(|e| matches!(e, CloverEvent::BlindBeaten { .. })));
    assert!(!events.iter().any(|e| matches!(e, CloverEvent::RunLost)));
    // No blind reward ($3 for the small blind); no hands left, and interest on under $5 is 0.
    assert_eq!(saved.run.money, money);
}

/// The edition tags create a joker of their edition at once; a full row of jokers refuses the
/// foil one, and the negative one still fits and brings its slot.
#[test]
fn edition_tags_create_jokers_of_their_edition() {
    use turnstile_clover::cards::Edition;
    let c = content();
    let mut run = run_of(&c, &[]);
    for (tag, edition) in [
        ("foil", Edition::Foil),
        ("holographic", Edition::Holographic),
        ("polychrome", Edition::Polychrome),
    ] {
        let before = run.jokers.len();
        run::take_tag(&mut run, &c, tag).unwrap();
        assert_eq!(run.jokers.len(), before + 1, "{tag}");
        assert_eq!(run.jokers[before].edition, edition, "{tag}");
    }
    let slots = run.rule(Rule::JokerSlots);
    while (run.jokers.len() as i64) < slots {
        run::take_tag(&mut run, &c, "top_up").unwrap();
    }
    let full = run.jokers.len();
    run::take_tag(&mut run, &c, "foil").unwrap();
    assert_eq!(run.jokers.len(), full, "no room: nothing created");
    run::take_tag(&mut run, &c, "negative").unwrap();
    assert_eq!(run.jokers.len(), full + 1);
    assert_eq!(run.jokers[full].edition, Edition::Negative);
    assert_eq!(
        run.rule(Rule::JokerSlots),
        slots + 1,
        "its slot comes with it"
    );
}

/// A game with `jokers`, its first blind started.
fn playing_with(
    seed: &str,
    jokers: &[&str],
) -> (
    turnstile_clover::CloverContent,
    turnstile_clover::CloverState,
) {
    let (content, mut s) = new_game(seed, 1);
    let c = content.content();
    for j in jokers {
        s.run.jokers.extend(c.joker(j));
    }
    run::rebuild(&mut s.run, c).unwrap();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    (content, s)
}

#[test]
fn the_marble_bust_adds_a_stone_card_to_the_deck_each_blind() {
    let (_, s) = playing_with("marble", &["marble_bust"]);
    assert_eq!(s.cards.len(), 53);
    assert_eq!(s.cards.iter().filter(|c| c.is_stone()).count(), 1);
    assert_eq!(
        s.deck.len() + s.hand.len(),
        53,
        "shuffled into this blind's draw pile"
    );
    let (_, plain) = playing_with("marble", &[]);
    assert_eq!(plain.cards.len(), 52);
}

#[test]
fn the_charter_deals_a_sealed_card_into_the_hand() {
    let (_, s) = playing_with("charter", &["charter"]);
    let size = s.run.rule(Rule::HandSize) as usize;
    assert_eq!(s.hand.len(), size + 1, "beyond the hand size");
    let new = s.hand[size];
    assert_ne!(new.seal, Seal::None);
    assert_eq!(s.cards.len(), 53);
    assert_eq!(
        s.deck.len() + s.hand.len(),
        53,
        "not in the draw pile as well"
    );
}

#[test]
fn the_helix_copies_a_single_card_first_hand_into_deck_and_hand() {
    let (content, mut s) = playing_with("helix", &["helix"]);
    let c = content.content();
    let played = s.hand[0];
    s.apply(c, &CloverAction::Play { cards: vec![0] }).unwrap();
    assert_eq!(s.cards.len(), 53);
    assert_eq!(s.cards.iter().filter(|k| **k == played).count(), 2);
    assert!(s.hand.contains(&played), "the copy is in the hand");
    // The second hand of the round: no copy.
    s.apply(c, &CloverAction::Play { cards: vec![0] }).unwrap();
    assert_eq!(s.cards.len(), 53);
    // A first hand of two cards: no copy either.
    let (content, mut s) = playing_with("helix", &["helix"]);
    s.apply(content.content(), &CloverAction::Play { cards: vec![0, 1] })
        .unwrap();
    assert_eq!(s.cards.len(), 52);
}

#[test]
fn the_mirage_grows_for_every_card_added() {
    let (content, mut s) = playing_with("mirage", &["mirage", "marble_bust", "charter"]);
    assert_eq!(s.run.jokers[0].counter, 2, "a stone card and a sealed card");
    // x1.5 in the joker step: a single card's high card, 1 x 1.5.
    let events = s
        .apply(content.content(), &CloverAction::Play { cards: vec![0] })
        .unwrap();
    let mult = events.iter().find_map(|e| match e {
        turnstile_clover::game::CloverEvent::HandScored { mult, .. } => *mult,
        _ => None,
    });
    assert_eq!(mult, Some(Fixed::from_raw(15_000)));
}

#[test]
fn twinning_adds_two_copies_of_the_chosen_card() {
    let (content, mut s) = playing_with("twinning", &[]);
    let c = content.content();
    s.run.consumables.push("spectral:twinning".into());
    let chosen = s.hand[2];
    let size = s.hand.len();
    s.apply(
        c,
        &CloverAction::Use {
            index: 0,
            cards: vec![2],
        },
    )
    .unwrap();
    assert_eq!(s.hand.len(), size + 2);
    assert_eq!(s.hand.iter().filter(|k| **k == chosen).count(), 3);
    assert_eq!(s.cards.len(), 54);
    assert!(s.run.consumables.is_empty());
}

#[test]
fn the_barter_slip_trades_a_lone_first_discard_for_money() {
    let c = content();
    let mut r = run_of(&c, &[("barter_slip", 0)]);
    let money = r.money;
    r.discards_left -= 1;
    discard(&mut r, &c, "5S");
    assert_eq!(r.money, money + 3);
    assert_eq!(r.scoring.destroyed_held, [0]);
    // The second discard of the round, or two cards: nothing.
    r.discards_left -= 1;
    discard(&mut r, &c, "6S");
    assert_eq!(r.money, money + 3);
    let mut r = run_of(&c, &[("barter_slip", 0)]);
    r.discards_left -= 1;
    discard(&mut r, &c, "5S 6H");
    assert_eq!((r.money, r.scoring.destroyed_held.len()), (money, 0));
    // Through the game: the card leaves the run's deck.
    let (content, mut s) = playing_with("barter", &["barter_slip"]);
    let gone = s.hand[0];
    s.apply(content.content(), &CloverAction::Discard { cards: vec![0] })
        .unwrap();
    assert_eq!(s.cards.len(), 51);
    assert!(!s.cards.contains(&gone));
}

#[test]
fn the_ember_pipe_levels_the_first_discards_poker_hand() {
    let c = content();
    let mut r = run_of(&c, &[("ember_pipe", 0)]);
    let pair = HandType::Pair.index();
    let before = r.levels[pair];
    r.discards_left -= 1;
    discard(&mut r, &c, "5S 5H 3C");
    assert_eq!(
        r.levels[pair],
        before + 1,
        "once for the discard, not per card"
    );
    r.discards_left -= 1;
    discard(&mut r, &c, "7S 7H 3C");
    assert_eq!(r.levels[pair], before + 1, "only the round's first discard");
}

#[test]
fn the_seers_eye_trades_a_lone_first_six_for_a_spectral() {
    let c = content();
    let mut r = run_of(&c, &[("seers_eye", 0)]);
    let receipt = score_hand(&mut r, &c, &cards("6S"), &[], true).unwrap();
    assert_eq!(receipt.destroyed, [0]);
    assert!(r.consumables.len() == 1 && r.consumables[0].starts_with("spectral:"));
    // Two sixes, or a later hand of the round: nothing.
    let mut r = run_of(&c, &[("seers_eye", 0)]);
    let receipt = score_hand(&mut r, &c, &cards("6S 6H"), &[], true).unwrap();
    assert!(receipt.destroyed.is_empty() && r.consumables.is_empty());
    let mut r = run_of(&c, &[("seers_eye", 0)]);
    r.hands_left -= 1;
    let receipt = score_hand(&mut r, &c, &cards("6S"), &[], true).unwrap();
    assert!(receipt.destroyed.is_empty() && r.consumables.is_empty());
}

/// The Headsman hears every destroyed playing card: glass kings breaking (forced by two chance
/// doublers) and a queen traded away by the Barter Slip; a destroyed six counts for nothing.
#[test]
fn the_headsman_grows_for_every_face_card_destroyed() {
    let c = content();
    let mut r = run_of(
        &c,
        &[("headsman", 0), ("loaded_dice", 0), ("loaded_dice", 0)],
    );
    let mut played = cards("KS KH 3C");
    played[0] = played[0].with(Enhancement::Glass);
    played[1] = played[1].with(Enhancement::Glass);
    score_hand(&mut r, &c, &played, &[], true).unwrap();
    assert_eq!(r.jokers[0].counter, 2);
    let next = score_hand(&mut r, &c, &cards("AS AH 3C"), &[], true).unwrap();
    assert_eq!(next.mult, Fixed::from_int(6), "2 x (1 + 2)");
    let mut r = run_of(&c, &[("headsman", 0), ("barter_slip", 0)]);
    r.discards_left -= 1;
    discard(&mut r, &c, "QS");
    assert_eq!(r.jokers[0].counter, 1);
    let mut r = run_of(&c, &[("headsman", 0), ("barter_slip", 0)]);
    r.discards_left -= 1;
    discard(&mut r, &c, "6S");
    assert_eq!(r.jokers[0].counter, 0);
}

#[test]
fn the_phantom_sold_after_two_rounds_copies_another_joker() {
    let c = content();
    let mut r = run_of(&c, &[("phantom", 0), ("harlequin", 0)]);
    run::end_round(&mut r, &c, Blind::Small, &[]).unwrap();
    assert_eq!(r.jokers[0].counter, 1);
    let mut early = r.clone();
    run::sell_joker(&mut early, &c, 0).unwrap();
    assert_eq!(early.jokers.len(), 1, "one round is not enough");
    run::end_round(&mut r, &c, Blind::Big, &[]).unwrap();
    run::sell_joker(&mut r, &c, 0).unwrap();
    let ids: Vec<&str> = r.jokers.iter().map(|j| j.id.as_str()).collect();
    assert_eq!(ids, ["harlequin", "harlequin"]);
    // A full row: the copy takes the slot the phantom frees.
    let mut r = run_of(
        &c,
        &[
            ("phantom", 2),
            ("harlequin", 0),
            ("bells_pair", 0),
            ("quiet_pair", 0),
            ("echo_pair", 0),
        ],
    );
    assert_eq!(r.rule(Rule::JokerSlots), 5);
    run::sell_joker(&mut r, &c, 0).unwrap();
    assert_eq!(r.jokers.len(), 5);
    assert!(r.jokers.iter().all(|j| j.id != "phantom"));
}

/// Kinfolk, Grave Call and Chant destroy one card of the whole hand at random and bring
/// enhanced cards of their ranks into hand and deck; Pyre destroys five and pays $20. Each is
/// refused outside a blind, where there is no hand to act on.
#[test]
fn hand_spectrals_destroy_at_random_and_bring_new_cards() {
    for (spectral, count, ranks) in [
        ("kinfolk", 3, &[11u8, 12, 13][..]),
        ("grave_call", 2, &[14u8][..]),
        ("chant", 4, &[2u8, 3, 4, 5, 6, 7, 8, 9, 10][..]),
    ] {
        let (content, mut s) = playing_with(spectral, &[]);
        let c = content.content();
        let before: Vec<_> = s.hand.clone();
        s.run.consumables.push(format!("spectral:{spectral}"));
        s.apply(
            c,
            &CloverAction::Use {
                index: 0,
                cards: vec![],
            },
        )
        .unwrap();
        assert_eq!(s.hand.len(), before.len() - 1 + count, "{spectral}");
        assert_eq!(s.cards.len(), 52 - 1 + count, "{spectral}");
        let kept = before.len() - 1;
        for new in &s.hand[kept..] {
            assert!(ranks.contains(&new.rank), "{spectral}: {new:?}");
            assert_ne!(new.enhancement, Enhancement::None, "{spectral}");
        }
        let gone: Vec<_> = before.iter().filter(|c| !s.hand.contains(c)).collect();
        assert_eq!(gone.len(), 1, "{spectral}: one old card destroyed");
        assert!(!s.cards.contains(gone[0]), "{spectral}: it left the deck");
    }
    let (content, mut s) = playing_with("pyre", &[]);
    let c = content.content();
    let money = s.run.money;
    let size = s.hand.len();
    s.run.consumables.push("spectral:pyre".into());
    s.apply(
        c,
        &CloverAction::Use {
            index: 0,
            cards: vec![],
        },
    )
    .unwrap();
    assert_eq!((s.hand.len(), s.cards.len()), (size - 5, 47));
    assert_eq!(s.run.money, money + 20);
    // In the shop: refused, nothing changed.
    let (content, mut s) = new_game("pyre-shop", 1);
    s.phase = turnstile_clover::game::Phase::Shop;
    s.run.consumables.push("spectral:kinfolk".into());
    let err = s
        .apply(
            content.content(),
            &CloverAction::Use {
                index: 0,
                cards: vec![],
            },
        )
        .unwrap_err();
    assert_eq!(err.code, "wrong_phase");
    assert_eq!(s.run.consumables.len(), 1);
}

/// The random pick is a real draw: over seeds, Pyre leaves different hands.
#[test]
fn the_random_hand_pick_depends_on_the_seed() {
    let mut kept = std::collections::BTreeSet::new();
    for seed in 0..6 {
        let (content, mut s) = playing_with("pyre-seed", &[]);
        s.run.streams = turnstile_clover::RunState::new(&format!("pyre{seed}"), 1, "plain")
            .unwrap()
            .streams;
        s.run.consumables.push("spectral:pyre".into());
        s.apply(
            content.content(),
            &CloverAction::Use {
                index: 0,
                cards: vec![],
            },
        )
        .unwrap();
        kept.insert(format!("{:?}", s.hand));
    }
    assert!(kept.len() > 1);
}
