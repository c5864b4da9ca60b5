//! Duel's rules, one at a time: costs, damage, healing, drawing, statuses with durations
//! (poison ticking out, stun skipping a turn, shield absorbing a hit), units acting at turn
//! start and striking at turn end (units with attack and health), winning at 0 health, fatigue when the deck is out, resigning, and the refresh and
//! draw done by the hook or by the phases.

mod common;

use common::{apply, give, play};
use turnstile_core::{Game, Seat};
use turnstile_duel::{Duel, DuelAction, DuelEvent, UnitInstance};
use turnstile_effects::Target;

fn classic() -> (
    std::sync::Arc<turnstile_core::ContentBundle<turnstile_duel::DuelContent>>,
    turnstile_duel::DuelState,
) {
    // These rules tests follow seats taking turns in seat order: the shipped initiative
    // (the seat with less health goes first from round 2) would reorder them.
    let b = common::fixed_order_bundle();
    let s = common::state(&b.content, "classic-style", "rules");
    (b, s)
}

#[test]
fn a_card_costs_its_mana_and_deals_its_damage() {
    let (b, mut s) = classic();
    give(&mut s, 0, &["fireball"], 3);
    assert_eq!(
        apply(&b.content, &mut s, 0, play(0)).unwrap_err(),
        "not_enough_mana"
    );
    give(&mut s, 0, &["fireball"], 4);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.seats[0].mana, 0);
    assert_eq!(s.seats[1].health, 24);
    assert_eq!(s.seats[0].discard.last().unwrap().card_id, "fireball");
    assert_eq!(
        apply(&b.content, &mut s, 0, play(5)).unwrap_err(),
        "no_such_card"
    );
}

#[test]
fn healing_stops_at_maximum_health() {
    let (b, mut s) = classic();
    s.seats[0].health = 25;
    give(&mut s, 0, &["mend", "mend"], 2);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.seats[0].health, 28);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.seats[0].health, 30);
}

#[test]
fn drawing_takes_the_top_of_the_deck_and_says_which_card() {
    let (b, mut s) = classic();
    give(&mut s, 0, &["insight"], 2);
    let top: Vec<String> = s.seats[0].deck[..2]
        .iter()
        .map(|c| c.card_id.clone())
        .collect();
    let deck = s.seats[0].deck.len();
    let events = apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.seats[0].hand.len(), 2);
    assert_eq!(s.seats[0].deck.len(), deck - 2);
    let drawn: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            DuelEvent::CardDrawn { card, .. } => card.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(drawn, top);
}

fn end_turn(b: &turnstile_duel::DuelContent, s: &mut turnstile_duel::DuelState) {
    let seat = s.active.0;
    apply(b, s, seat, DuelAction::EndTurn).unwrap();
}

#[test]
fn poison_ticks_at_the_end_of_three_of_its_bearers_turns_then_expires() {
    let (b, mut s) = classic();
    give(&mut s, 0, &["venom"], 2);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.statuses.stacks(Target::Seat(Seat(1)), "poison"), 2);
    end_turn(&b.content, &mut s); // seat 0's end: nothing ticks on seat 1
    assert_eq!(s.seats[1].health, 30);
    for expected in [28, 26, 24] {
        assert_eq!(s.active, Seat(1));
        end_turn(&b.content, &mut s); // seat 1's end: poison deals its stacks
        assert_eq!(s.seats[1].health, expected);
        end_turn(&b.content, &mut s);
    }
    assert_eq!(s.statuses.stacks(Target::Seat(Seat(1)), "poison"), 0);
    end_turn(&b.content, &mut s);
    assert_eq!(s.seats[1].health, 24);
}

#[test]
fn a_stunned_seat_skips_its_next_activation() {
    let (b, mut s) = classic();
    give(&mut s, 0, &["stun_bolt"], 3);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    assert_eq!(s.active, Seat(0), "seat 1's activation was skipped");
    assert!(events.iter().any(
        |e| matches!(e, DuelEvent::StatusExpired { seat: Seat(1), status } if status == "stun")
    ));
    // Skipped through the lifecycle's `can_act`: no activation (so no refresh or draw), a
    // `commanderSkipped` event saying why, and the stun counted down by the skipped turn.
    assert!(events.iter().any(|e| matches!(
        e,
        DuelEvent::Turn {
            event: turnstile_turns::TurnEvent::CommanderSkipped {
                reason: turnstile_turns::SkipReason::Stunned,
                ..
            }
        }
    )));
    assert_eq!(s.turn, 2, "the skipped activation is not an activation");
}

#[test]
fn a_shield_absorbs_a_whole_hit_and_loses_a_stack() {
    let (b, mut s) = classic();
    give(&mut s, 0, &["shield_up", "ritual"], 3);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.statuses.stacks(Target::Seat(Seat(0)), "shield"), 1);
    apply(&b.content, &mut s, 0, play(0)).unwrap(); // ritual: 2 damage to itself, absorbed
    assert_eq!(s.seats[0].health, 30);
    assert_eq!(s.statuses.stacks(Target::Seat(Seat(0)), "shield"), 0);
}

#[test]
fn a_unit_stays_on_the_board_and_acts_at_the_start_of_its_owners_turn() {
    let (b, mut s) = classic();
    give(&mut s, 0, &["ember_imp"], 2);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.seats[0].board.len(), 1);
    end_turn(&b.content, &mut s); // seat 0's end: the imp strikes the empty board's seat
    assert_eq!(s.seats[1].health, 29);
    end_turn(&b.content, &mut s); // seat 0's start: the imp's own row deals 1
    assert_eq!(s.seats[1].health, 28);
    assert_eq!(s.seats[0].board[0].health, 2, "nothing struck it back");
}

fn unit(thing: u32, card: &str, health: i64) -> UnitInstance {
    UnitInstance {
        thing,
        card_id: card.into(),
        health,
    }
}

fn strikes(events: &[DuelEvent]) -> Vec<(u32, Option<u32>, i64)> {
    events
        .iter()
        .filter_map(|e| match e {
            DuelEvent::UnitAttacked {
                unit,
                defender,
                damage,
                ..
            } => Some((*unit, *defender, *damage)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_unit_strikes_the_opposing_seat_at_the_end_of_its_controllers_turn_when_no_unit_blocks() {
    let (b, mut s) = classic();
    give(&mut s, 0, &["war_drummer"], 5);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.seats[0].board, vec![unit(900, "war_drummer", 4)]);
    assert_eq!(s.seats[1].health, 30, "a unit does not strike as it enters");
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    assert_eq!(strikes(&events), vec![(900, None, 2)]);
    assert_eq!(s.seats[1].health, 28);
}

#[test]
fn units_strike_the_first_opposing_unit_which_strikes_back_and_dies_at_zero_health() {
    let (b, mut s) = classic();
    s.seats[1].board = vec![unit(990, "ember_imp", 2), unit(991, "plague_rat", 2)];
    s.seats[0].board = vec![unit(980, "war_drummer", 4), unit(981, "ember_imp", 1)];
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    // The drummer (2) kills the imp (2) and takes 1 back; the second imp (1) strikes the
    // rat, now first, and dies to its 1 back.
    assert_eq!(
        strikes(&events),
        vec![(980, Some(990), 2), (981, Some(991), 1)]
    );
    assert_eq!(s.seats[0].board, vec![unit(980, "war_drummer", 3)]);
    assert_eq!(s.seats[1].board, vec![unit(991, "plague_rat", 1)]);
    let died: Vec<(Seat, u32)> = events
        .iter()
        .filter_map(|e| match e {
            DuelEvent::UnitDied { seat, unit, .. } => Some((*seat, *unit)),
            _ => None,
        })
        .collect();
    assert_eq!(died, vec![(Seat(1), 990), (Seat(0), 981)]);
    assert_eq!(s.seats[1].discard.last().unwrap().thing, 990);
    assert_eq!(s.seats[0].discard.last().unwrap().thing, 981);
    assert_eq!(
        s.seats[1].health, 30,
        "a blocked strike does not reach the seat"
    );
}

#[test]
fn a_stunned_seats_units_do_not_strike_in_its_skipped_activation() {
    let (b, mut s) = classic();
    s.seats[1].board = vec![unit(990, "war_drummer", 4)];
    give(&mut s, 0, &["stun_bolt"], 3);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    assert_eq!(s.active, Seat(0), "seat 1's activation was skipped");
    assert!(strikes(&events).is_empty(), "{events:?}");
}

#[test]
fn a_shield_absorbs_a_units_strike_on_its_seat() {
    let (b, mut s) = classic();
    // The golem strikes for 1 and its own row only draws, so only combat touches seat 1.
    s.seats[0].board = vec![unit(980, "library_golem", 5)];
    end_turn(&b.content, &mut s);
    assert_eq!(s.seats[1].health, 29);
    give(&mut s, 1, &["shield_up"], 3);
    apply(&b.content, &mut s, 1, play(0)).unwrap();
    end_turn(&b.content, &mut s);
    assert_eq!(s.statuses.stacks(Target::Seat(Seat(1)), "shield"), 1);
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    assert_eq!(strikes(&events), vec![(980, None, 0)]);
    assert_eq!(s.seats[1].health, 29);
    assert_eq!(s.statuses.stacks(Target::Seat(Seat(1)), "shield"), 0);
}

#[test]
fn a_seat_at_zero_health_loses_and_nothing_more_is_accepted() {
    let (b, mut s) = classic();
    s.seats[1].health = 3;
    give(&mut s, 0, &["lightning_bolt", "spark"], 5);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    let status = Duel::status(&b.content, &s);
    assert!(format!("{status:?}").contains("health_zero"), "{status:?}");
    assert_eq!(s.result.as_ref().unwrap().winners, vec![Seat(0)]);
    assert_eq!(
        apply(&b.content, &mut s, 0, play(0)).unwrap_err(),
        "match_over"
    );
}

#[test]
fn drawing_from_an_empty_deck_deals_growing_fatigue() {
    let (b, mut s) = classic();
    s.seats[1].deck.clear();
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    assert!(events.iter().any(|e| matches!(
        e,
        DuelEvent::Fatigue {
            seat: Seat(1),
            damage: 1
        }
    )));
    assert_eq!(s.seats[1].health, 29);
    end_turn(&b.content, &mut s);
    end_turn(&b.content, &mut s);
    assert_eq!(s.seats[1].health, 27);
    assert_eq!(s.seats[1].fatigue, 2);
}

#[test]
fn either_seat_may_resign_at_any_time() {
    let (b, mut s) = classic();
    apply(&b.content, &mut s, 1, DuelAction::Resign).unwrap();
    assert_eq!(s.result.as_ref().unwrap().kind, "resign");
    assert_eq!(s.result.as_ref().unwrap().winners, vec![Seat(0)]);
}

#[test]
fn refresh_and_draw_happen_once_under_every_preset() {
    let b = common::bundle();
    for preset in common::PRESETS {
        let mut s = common::state(&b.content, preset, "refresh");
        assert_eq!((s.seats[0].max_mana, s.seats[0].mana), (1, 1), "{preset}");
        assert_eq!(s.seats[0].hand.len(), 4, "{preset}: 3 dealt + 1 drawn");
        end_turn(&b.content, &mut s);
        assert_eq!((s.seats[1].max_mana, s.seats[1].mana), (1, 1), "{preset}");
        assert_eq!(s.seats[1].hand.len(), 5, "{preset}: 4 dealt + 1 drawn");
        end_turn(&b.content, &mut s);
        assert_eq!((s.seats[0].max_mana, s.seats[0].mana), (2, 2), "{preset}");
    }
}

#[test]
fn under_hearthstone_style_the_phases_run_refresh_and_draw_on_the_executor() {
    let b = common::bundle();
    let mut s = common::state(&b.content, "hearthstone-style", "phases");
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    let text = serde_json::to_string(&events).unwrap();
    assert!(text.contains("\"effect:refresh-resources\""), "{text}");
    assert!(text.contains("\"effect:draw-card\""), "{text}");
    assert!(text.contains("start-to-draw"), "{text}");
    assert_eq!(s.phase.cursor, "main");
}

#[test]
fn fatigue_to_zero_loses_before_a_turn_start_heal() {
    let (b, mut s) = classic();
    // Seat 1 at 1 health with an empty deck and a Healing Totem (heal 2 at its turn start):
    // the fatigue draw of its activation brings it to 0, and that ends the match then.
    s.seats[1].health = 1;
    s.seats[1].deck.clear();
    s.seats[1].board.push(unit(900, "healing_totem", 4));
    let events = apply(&b.content, &mut s, 0, DuelAction::EndTurn).unwrap();
    assert_eq!(s.seats[1].health, 0, "{events:?}");
    let result = s.result.as_ref().expect("the match is over");
    assert_eq!(result.winners, vec![Seat(0)]);
    assert_eq!(result.kind, "health_zero");
}
