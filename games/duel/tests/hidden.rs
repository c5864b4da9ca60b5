//! Hidden information: no view, redacted receipt event or preview that a seat receives holds a
//! card in the other seat's hand or deck, or a card the other seat drew (checked for both
//! seats); and committing any previewed action
//! at the same sequence and tick gives exactly the previewed state fingerprint.

mod common;

use proptest::prelude::*;
use turnstile_core::{CommandContext, CommandEnvelope, Game, Seat, Viewer};
use turnstile_duel::{CardInstance, Duel, DuelEvent, DuelState, DuelView};
use turnstile_runtime::{Bot, Match, RandomBot};

fn hidden_things(state: &DuelState, seat: usize) -> Vec<u32> {
    let s = &state.seats[seat];
    s.hand
        .iter()
        .chain(s.deck.iter())
        .map(|c| c.thing)
        .collect()
}

fn shown_things(view: &DuelView) -> Vec<u32> {
    let mut things: Vec<u32> = Vec::new();
    for s in &view.seats {
        let hand: &[CardInstance] = s.hand.as_deref().unwrap_or(&[]);
        things.extend(hand.iter().chain(&s.discard).map(|c| c.thing));
        things.extend(s.board.iter().map(|u| u.thing));
    }
    things.extend(view.stack.iter().map(|e| e.item.thing));
    things
}

/// What `viewer` received hides the other seat's hand, deck and draws.
fn assert_hidden(
    view: &DuelView,
    state: &DuelState,
    events: &[DuelEvent],
    viewer: Seat,
    what: &str,
) {
    let other = 1 - usize::from(viewer.0);
    assert!(
        view.seats[other].hand.is_none(),
        "{what}: seat {other}'s hand shown"
    );
    let hidden = hidden_things(state, other);
    let leaked: Vec<u32> = shown_things(view)
        .into_iter()
        .filter(|t| hidden.contains(t))
        .collect();
    assert!(
        leaked.is_empty(),
        "{what}: seat {other}'s hidden cards {leaked:?} in seat {viewer}'s view"
    );
    let text = serde_json::to_string(view).unwrap();
    assert!(
        !text.contains("\"deck\""),
        "{what}: a deck order in the view"
    );
    for e in events {
        if let DuelEvent::CardDrawn {
            seat,
            card: Some(c),
        } = e
        {
            assert_eq!(
                *seat, viewer,
                "{what}: seat {seat} drew {c} and seat {viewer} was told"
            );
        }
    }
}

fn drive(preset: &str, seed: &str, check_previews: bool) {
    let mut m = Match::<Duel>::new(common::bundle(), common::spec(preset, seed)).unwrap();
    let mut bot = [
        RandomBot::new(seed, Seat(0)).unwrap(),
        RandomBot::new(seed, Seat(1)).unwrap(),
    ];
    for n in 0..400u64 {
        if m.state().result.is_some() {
            break;
        }
        let seat = common::actor(m.state());
        let resolver = m.resolver();
        let action = <RandomBot as Bot<Duel>>::choose(
            &mut bot[usize::from(seat.0)],
            &resolver,
            m.state(),
            seat,
            n,
        )
        .unwrap();
        let ctx = CommandContext {
            seat: Some(seat),
            tick: n,
        };
        // Every preview the acting seat could ask for hides the other seat's cards.
        for candidate in resolver.candidates(m.state(), seat, n).unwrap() {
            let p = resolver
                .preview(m.state(), ctx, &candidate, Viewer::Seat(seat))
                .unwrap()
                .unwrap();
            let mut next = m.state().clone();
            resolver.apply(&mut next, ctx, &candidate).unwrap();
            assert_hidden(&p.view, &next, &p.events, seat, "preview");
        }
        // The match seals state fingerprints (format 2: a salted commitment for a game with
        // hidden information), so the preview is sealed the same way for the sequence it takes.
        let next_sequence = m.sequence() + 1;
        let seal = |next: &_| m.fingerprint_state_at(next_sequence, next);
        let preview = resolver
            .preview_sealed(m.state(), ctx, &action, Viewer::Seat(seat), &seal)
            .unwrap()
            .unwrap();
        // A seat's own preview never shows the cards it would draw.
        let known: Vec<u32> = m.state().seats[usize::from(seat.0)]
            .hand
            .iter()
            .map(|c| c.thing)
            .collect();
        let own = preview.view.seats[usize::from(seat.0)]
            .hand
            .as_ref()
            .unwrap();
        assert!(
            own.iter().all(|c| known.contains(&c.thing)),
            "{preset}/{seed}: a preview showed the seat its own draw at {n}"
        );
        assert!(
            !preview
                .events
                .iter()
                .any(|e| matches!(e, DuelEvent::CardDrawn { card: Some(_), .. })),
            "{preset}/{seed}: a preview event named a drawn card at {n}"
        );
        let content = m.bundle().clone();
        let accepted = m
            .submit(CommandEnvelope {
                command_id: format!("c{n}"),
                seat: Some(seat),
                expected_sequence: m.sequence(),
                expected_step: Some(Duel::step(m.state())),
                tick: n,
                action,
            })
            .unwrap();
        let events_for = |viewer: Seat| -> Vec<DuelEvent> {
            accepted
                .receipt
                .events
                .iter()
                .filter_map(|e| Duel::redact_event(&content.content, e, Viewer::Seat(viewer)))
                .collect()
        };
        let events = [events_for(Seat(0)), events_for(Seat(1))];
        if check_previews {
            assert_eq!(
                &preview.state_fingerprint,
                m.state_fingerprint(),
                "{preset}/{seed}: preview and commit differ at {n}"
            );
        }
        for viewer in [Seat(0), Seat(1)] {
            let view = m.view(Viewer::Seat(viewer));
            let received = &events[usize::from(viewer.0)];
            assert_hidden(&view, m.state(), received, viewer, "view after commit");
        }
        let spectator = m.view(Viewer::Spectator);
        assert!(spectator.seats.iter().all(|s| s.hand.is_none()));
    }
}

#[test]
fn no_seat_sees_the_other_seats_hand_deck_or_draws() {
    for preset in common::PRESETS {
        drive(preset, "hidden", false);
    }
}

#[test]
fn a_drawn_card_is_told_to_its_drawer_only() {
    let b = common::bundle();
    let mut s = common::state(&b.content, "classic-style", "draw");
    let events = common::apply(&b.content, &mut s, 0, turnstile_duel::DuelAction::EndTurn).unwrap();
    let drawn = events
        .iter()
        .find(|e| matches!(e, DuelEvent::CardDrawn { seat: Seat(1), .. }))
        .unwrap();
    let to = |v| Duel::redact_event(&b.content, drawn, v).unwrap();
    assert!(matches!(
        to(Viewer::Seat(Seat(1))),
        DuelEvent::CardDrawn { card: Some(_), .. }
    ));
    assert!(matches!(
        to(Viewer::Seat(Seat(0))),
        DuelEvent::CardDrawn { card: None, .. }
    ));
    assert!(matches!(
        to(Viewer::Spectator),
        DuelEvent::CardDrawn { card: None, .. }
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn committing_a_previewed_action_gives_the_previewed_fingerprint(seed in "[a-z0-9]{1,10}", preset in 0usize..3) {
        drive(common::PRESETS[preset], &seed, true);
    }
}

/// At 3 and 4 seats, no redacted event names another seat's draw and no view shows another
/// seat's hand, for any seat or a spectator, all through a scripted match.
#[test]
fn hands_stay_hidden_at_every_seat_count() {
    for seats in [3u16, 4] {
        let mut script = common::Script::new("priority-window", "blitz", seats);
        script.config.late_seats = vec![seats - 1];
        let m = common::scripted_match(&script, "hidden");
        let content = &m.bundle().content;
        let viewers: Vec<Viewer> = (0..seats)
            .map(|s| Viewer::Seat(Seat(s)))
            .chain([Viewer::Spectator])
            .collect();
        for entry in m.log() {
            for event in &entry.receipt.events {
                for viewer in &viewers {
                    if let Some(DuelEvent::CardDrawn { seat, card }) =
                        Duel::redact_event(content, event, *viewer)
                    {
                        if *viewer != Viewer::Seat(seat) {
                            assert!(card.is_none(), "{viewer:?} sees a draw of {seat:?}");
                        }
                    }
                }
            }
        }
        for viewer in &viewers {
            let view = Duel::view(content, m.state(), *viewer);
            for (i, s) in view.seats.iter().enumerate() {
                let own = *viewer == Viewer::Seat(Seat(i as u16));
                assert_eq!(
                    s.hand.is_some(),
                    own,
                    "{seats} seats: {viewer:?} and seat {i}"
                );
            }
        }
    }
}
