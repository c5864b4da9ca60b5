//! The face-down bosses (the Shroud, the Gyre, the Brand, the Undertow): which cards each draws
//! face down, that such a card is hidden from its own player everywhere they can look — the
//! view, a preview's view and events, the bot's choice — and that it turns face up as it leaves
//! the hand, so the run's deck never holds one.

mod common;

use common::new_game;
use turnstile_clover::cards::{Card, Enhancement, Suit};
use turnstile_clover::game::{CloverEvent, CloverView, FaceDown, Phase};
use turnstile_clover::run::Blind;
use turnstile_clover::state::Rule;
use turnstile_clover::{Clover, CloverAction, CloverContent, CloverState};
use turnstile_core::determinism::Chance;
use turnstile_core::{CommandContext, Game, LegalActionResolver, Seat, Viewer};

const ME: Viewer = Viewer::Seat(Seat(0));
const CTX: CommandContext = CommandContext {
    seat: Some(Seat(0)),
    tick: 0,
};

/// A run at the boss blind of ante 1 with `boss`, the blind started (its first hand drawn).
fn at_boss(seed: &str, boss: &str) -> (CloverContent, CloverState) {
    let (content, mut s) = new_game(seed, 1);
    s.blind = Blind::Boss;
    s.run.boss = Some(format!("boss:{boss}"));
    s.apply(content.content(), &CloverAction::SelectBlind)
        .unwrap();
    assert_eq!(s.phase, Phase::Playing);
    (content, s)
}

fn down(s: &CloverState) -> Vec<bool> {
    s.hand.iter().map(|c| c.face_down).collect()
}

fn apply(content: &CloverContent, s: &mut CloverState, action: CloverAction) -> Vec<CloverEvent> {
    let events = s.apply(content.content(), &action).unwrap();
    assert!(
        s.cards.iter().chain(&s.deck).all(|c| !c.face_down),
        "the run's deck and the draw pile never hold a face-down card"
    );
    events
}

fn preview(
    content: &CloverContent,
    s: &CloverState,
    action: &CloverAction,
) -> (CloverView, Vec<CloverEvent>) {
    let p = LegalActionResolver::<Clover>::new(content, 1)
        .preview(s, CTX, action, ME)
        .unwrap()
        .unwrap();
    (p.view, p.events)
}

#[test]
fn the_shroud_draws_the_first_hand_face_down_and_nothing_after() {
    let (content, mut s) = at_boss("shroud", "shroud");
    assert_eq!(down(&s), vec![true; 8], "the whole first hand");
    apply(&content, &mut s, CloverAction::Play { cards: vec![0] });
    assert_eq!(
        down(&s),
        [vec![true; 7], vec![false]].concat(),
        "held cards stay face down; the card drawn after the play is face up"
    );
    apply(
        &content,
        &mut s,
        CloverAction::Discard { cards: vec![0, 1] },
    );
    assert_eq!(down(&s), [vec![true; 5], vec![false; 3]].concat());
}

#[test]
fn the_undertow_draws_face_down_only_after_a_hand_is_played() {
    let (content, mut s) = at_boss("undertow", "undertow");
    assert_eq!(down(&s), vec![false; 8], "the first hand is face up");
    apply(
        &content,
        &mut s,
        CloverAction::Discard { cards: vec![0, 1] },
    );
    assert_eq!(down(&s), vec![false; 8], "a discard draws face up");
    apply(
        &content,
        &mut s,
        CloverAction::Play {
            cards: vec![0, 1, 2],
        },
    );
    assert_eq!(down(&s), [vec![false; 5], vec![true; 3]].concat());
}

#[test]
fn the_brand_draws_face_cards_face_down_and_every_card_with_all_faces() {
    let (content, s) = at_boss("brand", "brand");
    for c in &s.hand {
        assert_eq!(c.face_down, c.is_face(false), "{c:?}");
    }
    assert!(s.hand.iter().any(|c| c.face_down) || s.hand.iter().all(|c| !c.is_face(false)));
    // With the rule that makes every card a face card, every card is drawn face down.
    let (content2, mut s2) = new_game("brand", 1);
    drop(content);
    s2.blind = Blind::Boss;
    s2.run.boss = Some("boss:brand".into());
    s2.run
        .jokers
        .push(content2.content().joker("face_pattern").unwrap());
    s2.apply(content2.content(), &CloverAction::SelectBlind)
        .unwrap();
    assert_eq!(s2.run.rule(Rule::AllFaces), 1);
    assert_eq!(down(&s2), vec![true; 8]);
}

#[test]
fn the_gyre_rolls_one_in_seven_on_boss_proc_for_every_card_drawn() {
    // The same draw replayed by hand: one roll of 1/7 on `boss_proc` per card, in draw order.
    let (content, mut s) = new_game("gyre", 1);
    s.blind = Blind::Boss;
    s.run.boss = Some("boss:gyre".into());
    let mut probe = s.clone();
    s.apply(content.content(), &CloverAction::SelectBlind)
        .unwrap();
    let mut expected = Vec::new();
    // The blind's start draws on other streams (the shuffle) but not on `boss_proc` before the
    // hand; replay the rolls from the stream as it stood.
    for _ in 0..8 {
        expected.push(
            probe
                .run
                .streams
                .roll("boss_proc", Chance::new(1, 7).unwrap())
                .unwrap(),
        );
    }
    assert_eq!(down(&s), expected);
    assert_eq!(
        s.run.streams.get("boss_proc").unwrap(),
        probe.run.streams.get("boss_proc").unwrap(),
        "exactly one draw per card"
    );
    // Forced outcome: the chance multiplied by 7 (chance doubling ×7) is certain.
    let (content, mut s) = new_game("gyre", 1);
    s.blind = Blind::Boss;
    s.run.boss = Some("boss:gyre".into());
    for _ in 0..3 {
        s.run
            .jokers
            .push(content.content().joker("loaded_dice").unwrap());
    }
    s.apply(content.content(), &CloverAction::SelectBlind)
        .unwrap();
    assert_eq!(s.run.rule(Rule::ChanceFactor), 8);
    assert_eq!(down(&s), vec![true; 8], "8/7: every card");
}

#[test]
fn a_face_down_card_shows_as_null_and_nothing_of_it_reaches_the_player() {
    let (content, s) = at_boss("hidden", "shroud");
    let view = Clover::view(&content, &s, ME);
    assert_eq!(view.hand, vec![None; 8]);
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(
        json["hand"],
        serde_json::Value::Array(vec![serde_json::Value::Null; 8])
    );
    // The attacker's test: change what a face-down card is (rank, suit, enhancement, edition,
    // seal); nothing the player is shown may change — the view, and the preview of every
    // action they could take now.
    let mut other = s.clone();
    other.hand[0] = Card {
        rank: if s.hand[0].rank == 14 { 2 } else { 14 },
        suit: if s.hand[0].suit == Suit::Hearts {
            Suit::Spades
        } else {
            Suit::Hearts
        },
        enhancement: Enhancement::Gold,
        perma_bonus: 30,
        ..s.hand[0]
    };
    other.hand[1].enhancement = Enhancement::Steel;
    assert_eq!(
        Clover::view(&content, &s, ME),
        Clover::view(&content, &other, ME)
    );
    let actions = [
        CloverAction::Play { cards: vec![0] },
        CloverAction::Play { cards: vec![0, 1] },
        CloverAction::Play {
            cards: vec![2, 3, 4, 5, 6],
        },
        CloverAction::Discard { cards: vec![0] },
        CloverAction::Discard {
            cards: vec![0, 1, 2],
        },
        CloverAction::Resign,
    ];
    for action in &actions {
        assert_eq!(
            preview(&content, &s, action),
            preview(&content, &other, action),
            "{action:?}"
        );
    }
    // A played face-down card hides the hand's type and score.
    let (_, events) = preview(&content, &s, &CloverAction::Play { cards: vec![0, 1] });
    let CloverEvent::HandScored {
        hand,
        score,
        steps,
        face_down,
        revealed,
        ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!(
        (*hand, *score, steps.len(), *face_down, revealed.len()),
        (None, None, 0, FaceDown::Played, 0)
    );
    assert_eq!(events.len(), 1, "nothing after the score: {events:?}");
}

#[test]
fn face_down_held_cards_hide_the_score_but_not_the_hand() {
    // The Undertow's cards after a play are face down; the first hand's are not.
    let (content, mut s) = at_boss("held", "undertow");
    apply(&content, &mut s, CloverAction::Play { cards: vec![0] });
    let up: Vec<u8> = (0..s.hand.len())
        .filter(|&i| !s.hand[i].face_down)
        .map(|i| u8::try_from(i).unwrap())
        .collect();
    assert_eq!(up.len(), 7);
    let play = CloverAction::Play {
        cards: up[..2].to_vec(),
    };
    let mut committed = s.clone();
    let real = committed.apply(content.content(), &play).unwrap();
    let CloverEvent::HandScored {
        hand: real_hand, ..
    } = &real[0]
    else {
        panic!()
    };
    let (view, events) = preview(&content, &s, &play);
    let CloverEvent::HandScored {
        hand,
        score,
        total,
        face_down,
        ..
    } = &events[0]
    else {
        panic!("{events:?}")
    };
    assert_eq!((*hand, *score, *total), (*real_hand, None, None));
    assert_eq!(*face_down, FaceDown::Held);
    assert_eq!(view, Clover::view(&content, &s, ME), "the run as it stands");
    // A preview with every card face up shows the score, as before.
    let mut open = s.clone();
    for c in &mut open.hand {
        c.face_down = false;
    }
    let (_, events) = preview(&content, &open, &play);
    assert!(matches!(
        &events[0],
        CloverEvent::HandScored {
            score: Some(_),
            face_down: FaceDown::None,
            ..
        }
    ));
}

#[test]
fn playing_a_face_down_card_reveals_it_in_the_event_and_scores_what_it_is() {
    let (content, s) = at_boss("reveal", "shroud");
    let mut open = s.clone();
    for c in &mut open.hand {
        c.face_down = false;
    }
    let play = CloverAction::Play {
        cards: vec![4, 1, 2],
    };
    let mut hidden = s.clone();
    let events = apply(&content, &mut hidden, play.clone());
    let plain = open.apply(content.content(), &play).unwrap();
    let (
        CloverEvent::HandScored {
            hand,
            score,
            face_down,
            revealed,
            ..
        },
        CloverEvent::HandScored {
            hand: hand2,
            score: score2,
            face_down: face_down2,
            revealed: revealed2,
            ..
        },
    ) = (&events[0], &plain[0])
    else {
        panic!()
    };
    assert_eq!(
        (hand, score),
        (hand2, score2),
        "face down scores as face up"
    );
    assert_eq!(*face_down, FaceDown::Played);
    assert_eq!(*face_down2, FaceDown::None);
    assert_eq!(
        *revealed,
        vec![
            s.hand[1].face_up(),
            s.hand[2].face_up(),
            s.hand[4].face_up()
        ],
        "in hand order"
    );
    assert!(revealed2.is_empty());
}

#[test]
fn selling_the_boss_off_turns_the_hand_face_up() {
    let (content, mut s) = new_game("grapple", 1);
    s.blind = Blind::Boss;
    s.run.boss = Some("boss:shroud".into());
    s.run
        .jokers
        .push(content.content().joker("grappler").unwrap());
    s.apply(content.content(), &CloverAction::SelectBlind)
        .unwrap();
    assert_eq!(down(&s), vec![true; 8]);
    apply(&content, &mut s, CloverAction::Sell { slot: 0 });
    assert!(!s.run.boss_active);
    assert_eq!(down(&s), vec![false; 8]);
}

#[test]
fn the_bot_plays_from_what_it_sees() {
    let (content, s) = at_boss("bot", "shroud");
    let mut other = s.clone();
    for c in &mut other.hand {
        c.rank = 14;
        c.enhancement = Enhancement::Steel;
    }
    let a = turnstile_clover::game::bot_action(content.content(), &s);
    assert_eq!(
        a,
        turnstile_clover::game::bot_action(content.content(), &other)
    );
    assert_eq!(
        a,
        Some(CloverAction::Play {
            cards: vec![0, 1, 2, 3, 4]
        })
    );
    // Some face up: it picks among those only.
    let (content, mut s) = at_boss("bot", "undertow");
    apply(&content, &mut s, CloverAction::Play { cards: vec![0] });
    let Some(CloverAction::Play { cards }) =
        turnstile_clover::game::bot_action(content.content(), &s)
    else {
        panic!()
    };
    assert!(cards.iter().all(|&i| !s.hand[usize::from(i)].face_down));
}

#[test]
fn the_four_bosses_come_from_ante_2() {
    let content = CloverContent::shipped().unwrap();
    for id in ["shroud", "gyre", "brand", "undertow"] {
        let entry = content
            .content()
            .catalog
            .get(&format!("boss:{id}"))
            .unwrap_or_else(|| panic!("boss:{id}"));
        assert_eq!(entry.min_ante, Some(2), "{id}");
        assert!(!entry.showdown);
    }
}
