//! The lifecycle and phase features Duel's shipped content uses, each reached through the one
//! resolver as a seat's command would reach it: a conditional phase edge that outranks an
//! unconditional one by priority (`hearthstone-style`'s comeback), a rule change that lingers
//! after its cause has left (Banner Bearer, layer 2 of the rebuild), and a play that turns the
//! activation `Resolving` until it — or the response window's stack — resolves, then ends the
//! turn `Resolved` (Meteor's `ends_turn` tag), and a delayed spell whose channelling makes its
//! owner's next activation a `Countdown` (Doom's `channel` tag).

mod common;

use common::{apply, give, play};
use turnstile_duel::{DuelAction, DuelEvent, DuelState, UnitInstance};
use turnstile_phases::{ExitReason, PhaseRecord};
use turnstile_turns::{TurnEndReason, TurnEvent, TurnStatus};

fn edges_taken(events: &[DuelEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            DuelEvent::Phase { records } => Some(records),
            _ => None,
        })
        .flatten()
        .filter_map(|r| match r {
            PhaseRecord::Transition(t) => Some(t.edge_id.clone()),
            _ => None,
        })
        .collect()
}

fn end_turn(content: &turnstile_duel::DuelContent, s: &mut DuelState) -> Vec<DuelEvent> {
    let seat = s.active.0;
    apply(content, s, seat, DuelAction::EndTurn).unwrap()
}

/// `draw` has two Automatic edges: `draw-to-comeback` (priority 1, `owner.health <= 10`) and
/// `draw-to-main` (priority 0, no condition). The higher one wins whenever its condition
/// holds, and the comeback phase's entry effect gives the seat 1 more mana.
#[test]
fn a_low_health_seat_takes_the_comeback_edge_by_its_higher_priority() {
    let b = common::fixed_order_bundle();
    let mut s = common::state(&b.content, "hearthstone-style", "comeback");
    s.seats[1].health = 10;
    let events = end_turn(&b.content, &mut s);
    assert_eq!(s.active.0, 1);
    let taken = edges_taken(&events);
    assert!(
        taken.iter().any(|e| e == "draw-to-comeback")
            && taken.iter().any(|e| e == "comeback-to-main"),
        "{taken:?}"
    );
    assert!(!taken.iter().any(|e| e == "draw-to-main"), "{taken:?}");
    assert_eq!(s.phase.cursor, "main");
    assert_eq!(
        s.seats[1].mana,
        s.seats[1].max_mana + 1,
        "the comeback mana"
    );

    // At 11 health the condition fails: the unconditional edge below it fires.
    s.seats[0].health = 11;
    let events = end_turn(&b.content, &mut s);
    assert_eq!(s.active.0, 0);
    let taken = edges_taken(&events);
    assert!(taken.iter().any(|e| e == "draw-to-main"), "{taken:?}");
    assert!(!taken.iter().any(|e| e == "draw-to-comeback"), "{taken:?}");
    assert_eq!(s.seats[0].mana, s.seats[0].max_mana);
}

/// Banner Bearer's row records a `Permanent` change of the rule resource `attack_bonus` in the
/// ledger. The bearer then dies in combat; the bonus stays through the rebuild at the next
/// round start (layer 2 re-applied after the reset), and another unit strikes with it.
#[test]
fn banner_bearers_bonus_lingers_after_it_dies() {
    let b = common::fixed_order_bundle();
    let mut s = common::state(&b.content, "classic-style", "banner");
    give(&mut s, 0, &["banner_bearer"], 3);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(s.seats[0].attack_bonus, 1);
    assert_eq!(s.seats[0].board.len(), 1);
    // A 2/1 blocker: the bearer (1 + 1) kills it and dies to its strike back.
    s.seats[1].board.push(UnitInstance {
        thing: 990,
        card_id: "war_drummer".into(),
        health: 1,
    });
    let events = end_turn(&b.content, &mut s);
    assert!(events.iter().any(|e| matches!(
        e,
        DuelEvent::UnitDied { card, .. } if card == "banner_bearer"
    )));
    assert!(s.seats[0].board.is_empty(), "the cause has left");
    end_turn(&b.content, &mut s); // seat 1's end; round 2 starts and rebuilds the rules
    assert_eq!(s.round, 2);
    assert_eq!(
        s.seats[0].attack_bonus, 1,
        "layer 2 keeps it after its cause left"
    );
    // Another unit strikes with the bonus: an ember imp (1) deals 2 to the open seat.
    s.seats[0].board.push(UnitInstance {
        thing: 991,
        card_id: "ember_imp".into(),
        health: 2,
    });
    let health = s.seats[1].health;
    end_turn(&b.content, &mut s);
    assert_eq!(s.seats[1].health, health - 2);
}

fn status_changes(events: &[DuelEvent]) -> Vec<TurnStatus> {
    events
        .iter()
        .filter_map(|e| match e {
            DuelEvent::Turn {
                event: TurnEvent::TurnStatusChanged { current, .. },
            } => Some(*current),
            _ => None,
        })
        .collect()
}

fn ended_resolved(events: &[DuelEvent]) -> bool {
    events.iter().any(|e| {
        matches!(
            e,
            DuelEvent::Turn {
                event: TurnEvent::TurnEnded {
                    reason: TurnEndReason::Resolved,
                    ..
                }
            }
        )
    }) && events.iter().any(|e| {
        matches!(
            e,
            DuelEvent::ActivationEnded { reason: ExitReason::GameRule { rule }, .. } if rule == "resolved"
        )
    })
}

/// Without a response window, Meteor resolves at once: the activation goes `Resolving` and
/// ends `Resolved` in the same command, and the next seat acts.
#[test]
fn meteor_resolves_at_once_and_its_turn_ends_resolved() {
    let b = common::fixed_order_bundle();
    let mut s = common::state(&b.content, "classic-style", "meteor");
    give(&mut s, 0, &["meteor", "spark"], 9);
    let events = apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert!(
        status_changes(&events).contains(&TurnStatus::Resolving),
        "{events:?}"
    );
    assert!(ended_resolved(&events));
    assert_eq!(s.seats[1].health, 20);
    assert_eq!(s.active.0, 1, "the turn ended when Meteor resolved");
}

/// Under `priority-window` Meteor goes on the stack: the activation stays `Resolving` (its
/// clock stopped, its owner refused) while the other seat holds priority, and ends `Resolved`
/// when the stack has resolved.
#[test]
fn a_stacked_meteor_keeps_the_turn_resolving_until_the_stack_resolves() {
    let b = common::fixed_order_bundle();
    let mut s = common::state(&b.content, "priority-window", "meteor");
    give(&mut s, 0, &["meteor", "spark"], 9);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert_eq!(
        s.lifecycle.turns.clock().current().status,
        TurnStatus::Resolving
    );
    assert_eq!(s.deadline_tick, None);
    assert!(s.priority.is_open());
    assert_eq!(s.active.0, 0);
    assert!(apply(&b.content, &mut s.clone(), 0, DuelAction::EndTurn).is_err());
    let events = apply(&b.content, &mut s, 1, DuelAction::PassPriority).unwrap();
    assert!(!ended_resolved(&events));
    // Priority is back with the owner: passing (a window command) is taken while Resolving.
    assert_eq!(s.priority.holder().0, 0);
    let events = apply(&b.content, &mut s, 0, DuelAction::PassPriority).unwrap();
    assert!(ended_resolved(&events), "{events:?}");
    assert_eq!(s.seats[1].health, 20);
    assert_eq!(s.active.0, 1);
    assert_eq!(
        s.lifecycle.turns.clock().current().status,
        TurnStatus::Active
    );
}

/// A play without `ends_turn` leaves the activation `Active`: the owner keeps acting.
#[test]
fn other_plays_leave_the_activation_active() {
    let b = common::fixed_order_bundle();
    let mut s = common::state(&b.content, "classic-style", "spark");
    give(&mut s, 0, &["spark", "spark"], 2);
    let events = apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert!(status_changes(&events).is_empty());
    assert_eq!(s.active.0, 0);
    apply(&b.content, &mut s, 0, play(0)).unwrap();
}

/// Doom (`channel`) is set aside when played; its controller's next activation is a
/// `Countdown` (a `PLAY_CARD` is refused with `not_play_turn`, ending it is allowed), and when
/// that activation ends the card resolves — one activation of its owner later.
#[test]
fn a_channelled_doom_makes_the_next_turn_a_countdown_and_resolves_when_it_ends() {
    use turnstile_turns::TurnType;
    let b = common::fixed_order_bundle();
    let mut s = common::state(&b.content, "classic-style", "doom");
    give(&mut s, 0, &["doom", "doom"], 8);
    let events = apply(&b.content, &mut s, 0, play(0)).unwrap();
    assert!(events
        .iter()
        .any(|e| matches!(e, DuelEvent::CardChanneled { card, .. } if card == "doom")));
    assert_eq!(s.seats[1].health, 30, "nothing resolved yet");
    assert_eq!(
        apply(&b.content, &mut s.clone(), 0, play(0)),
        Err("already_channeling".to_owned())
    );
    end_turn(&b.content, &mut s); // seat 0's Play activation ends: Doom waits
    assert_eq!(s.seats[1].health, 30);
    let events = end_turn(&b.content, &mut s); // seat 1's; seat 0's countdown begins
    assert!(events.iter().any(|e| matches!(
        e,
        DuelEvent::Turn {
            event: TurnEvent::TurnTypeChanged {
                current: TurnType::Countdown,
                ..
            }
        }
    )));
    assert_eq!(s.active.0, 0);
    assert_eq!(
        s.lifecycle.turns.clock().current().turn_type,
        TurnType::Countdown
    );
    s.seats[0].mana = 8;
    assert_eq!(
        apply(&b.content, &mut s.clone(), 0, play(0)),
        Err("not_play_turn".to_owned())
    );
    let legal: Vec<DuelAction> = <turnstile_duel::Duel as turnstile_core::Game>::enumerate_actions(
        &b.content,
        &s,
        turnstile_core::Seat(0),
    );
    assert_eq!(
        legal,
        vec![DuelAction::EndTurn],
        "only ending the countdown"
    );
    let events = end_turn(&b.content, &mut s); // the countdown ends: Doom resolves
    assert!(events
        .iter()
        .any(|e| matches!(e, DuelEvent::CardResolved { card, .. } if card == "doom")));
    assert_eq!(s.seats[1].health, 20);
    assert!(s.seats[0].channel.is_none());
    // Seat 0's next activation is a Play turn again.
    end_turn(&b.content, &mut s);
    assert_eq!(s.active.0, 0);
    assert_eq!(
        s.lifecycle.turns.clock().current().turn_type,
        TurnType::Play
    );
}
