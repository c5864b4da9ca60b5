//! What the player is told: each scored hand's step list in its receipt, previews that never
//! reveal a draw, a chance outcome or a new shop, and legal actions with the values each
//! parameter may take.

mod common;

use common::new_game;
use turnstile_clover::cards::{Card, Enhancement};
use turnstile_clover::game::{CloverEvent, CloverView, Phase, ShopOffer};
use turnstile_clover::{score_hand, Clover, CloverAction, CloverContent, CloverState};
use turnstile_core::{
    ActionKind, CommandContext, Game, LegalActionResolver, ParamRange, Seat, Viewer,
};

const ME: Viewer = Viewer::Seat(Seat(0));
const CTX: CommandContext = CommandContext {
    seat: Some(Seat(0)),
    tick: 0,
};

/// A game in its first blind, with a dealt hand.
fn playing(seed: &str) -> (CloverContent, CloverState) {
    let (content, mut state) = new_game(seed, 1);
    state
        .apply(content.content(), &CloverAction::SelectBlind)
        .unwrap();
    assert_eq!(state.phase, Phase::Playing);
    (content, state)
}

fn preview(
    content: &CloverContent,
    state: &CloverState,
    action: CloverAction,
) -> (CloverView, Vec<CloverEvent>) {
    let p = LegalActionResolver::<Clover>::new(content, 1)
        .preview(state, CTX, &action, ME)
        .unwrap()
        .unwrap();
    (p.view, p.events)
}

fn scored(events: &[CloverEvent]) -> &CloverEvent {
    events
        .iter()
        .find(|e| matches!(e, CloverEvent::HandScored { .. }))
        .expect("a scored hand")
}

#[test]
fn a_played_hand_carries_its_step_list_and_the_calculators_score() {
    let (content, mut state) = playing("steps");
    let played = state.hand[..5].to_vec();
    let held = state.hand[5..].to_vec();
    let mut run = state.run.clone();
    run.hands_left -= 1;
    let expected = score_hand(&mut run, content.content(), &played, &held, true).unwrap();
    let events = state
        .apply(
            content.content(),
            &CloverAction::Play {
                cards: vec![0, 1, 2, 3, 4],
            },
        )
        .unwrap();
    let CloverEvent::HandScored {
        hand,
        score,
        chips,
        mult,
        steps,
        ..
    } = scored(&events)
    else {
        unreachable!()
    };
    assert_eq!(*hand, expected.hand);
    assert_eq!(*score, Some(expected.score));
    assert_eq!((*chips, *mult), (Some(expected.chips), Some(expected.mult)));
    assert!(!steps.is_empty(), "the receipt lists the steps");
    assert_eq!(*steps, expected.steps, "in the calculator's order");
    let json = serde_json::to_value(scored(&events)).unwrap();
    assert!(json["steps"][0]["owner"].is_string(), "{json}");
    assert!(json["steps"][0].get("before").is_some(), "{json}");
}

#[test]
fn a_preview_never_shows_the_cards_it_would_draw() {
    let (content, state) = playing("draws");
    let next_card = *state.deck.last().expect("a deck");
    let (view, events) = preview(
        &content,
        &state,
        CloverAction::Discard { cards: vec![0, 1] },
    );
    let kept: Vec<Option<Card>> = state.hand[2..].iter().copied().map(Some).collect();
    assert_eq!(view.hand, kept, "the kept cards only");
    assert!(events
        .iter()
        .any(|e| matches!(e, CloverEvent::Discarded { count: 2 })));
    // Committed, the hand is refilled from the deck: the preview had hidden exactly that.
    let mut committed = state.clone();
    committed
        .apply(
            content.content(),
            &CloverAction::Discard { cards: vec![0, 1] },
        )
        .unwrap();
    assert_eq!(committed.hand.len(), state.hand.len());
    assert!(committed.hand.contains(&next_card));
    assert_eq!(view.hand.len() + 2, committed.hand.len());
}

#[test]
fn a_score_that_rode_on_a_chance_roll_is_not_previewed() {
    let (content, mut state) = playing("lucky");
    for card in &mut state.hand {
        card.enhancement = Enhancement::Lucky;
    }
    let action = CloverAction::Play {
        cards: vec![0, 1, 2, 3, 4],
    };
    let (view, events) = preview(&content, &state, action.clone());
    match scored(&events) {
        CloverEvent::HandScored {
            hand,
            score,
            total,
            steps,
            chance,
            ..
        } => {
            assert!(*chance);
            assert!(hand.is_some(), "the hand type is known without the rolls");
            assert_eq!((*score, *total), (None, None));
            assert!(steps.is_empty());
        }
        _ => unreachable!(),
    }
    assert_eq!(
        view,
        Clover::view(&content, &state, ME),
        "nothing after the rolls is shown"
    );
    // Committed, the same hand has its score and the steps.
    let events = state.clone().apply(content.content(), &action).unwrap();
    assert!(matches!(
        scored(&events),
        CloverEvent::HandScored { score: Some(_), chance: true, steps, .. } if !steps.is_empty()
    ));
}

#[test]
fn a_score_without_chance_is_previewed_exactly() {
    let (content, state) = playing("plain-preview");
    let action = CloverAction::Play { cards: vec![0] };
    let (_, events) = preview(&content, &state, action.clone());
    let committed = state.clone().apply(content.content(), &action).unwrap();
    assert!(matches!(
        scored(&events),
        CloverEvent::HandScored {
            chance: false,
            score: Some(_),
            ..
        }
    ));
    assert_eq!(scored(&events), scored(&committed));
}

#[test]
fn a_reroll_is_previewed_without_the_new_shop() {
    let (content, mut state) = new_game("reroll", 1);
    state.phase = Phase::Shop;
    state.run.money = 50;
    state.shop = vec![ShopOffer {
        item: "planet:ember".into(),
        stickers: Default::default(),
        card: None,
    }];
    let (view, events) = preview(&content, &state, CloverAction::Reroll);
    assert_eq!(view, Clover::view(&content, &state, ME));
    assert!(events.is_empty(), "{events:?}");
    let mut committed = state.clone();
    committed
        .apply(content.content(), &CloverAction::Reroll)
        .unwrap();
    assert_ne!(committed.shop, state.shop, "a reroll does draw a new shop");
}

fn kind<'a>(kinds: &'a [ActionKind], name: &str) -> Option<&'a ActionKind> {
    kinds.iter().find(|k| k.kind == name)
}

#[test]
fn legal_actions_carry_the_values_each_parameter_may_take() {
    let (content, mut state) = playing("legal");
    let kinds = Clover::legal_actions(&content, &state, Seat(0));
    let play = kind(&kinds, "play").expect("play");
    assert_eq!(
        play.params[0].range,
        ParamRange::SubsetOf {
            items: (0..8i64).map(turnstile_core::ParamValue::Int).collect(),
            min: 1,
            max: 5
        }
    );
    assert!(kind(&kinds, "discard").is_some());
    assert!(
        kind(&kinds, "use").is_none(),
        "no consumables: nothing to use"
    );
    // A tarot that changes hand cards is listed during a blind (its cards are the player's
    // choice); one that changes none, beside it, as well; the first one is refused without
    // cards, so listing only what is accepted "as it is" would hide it from every client.
    state.run.consumables = vec!["tarot:twins".into(), "planet:ember".into()];
    let kinds = Clover::legal_actions(&content, &state, Seat(0));
    let used = kind(&kinds, "use").expect("use");
    assert_eq!(
        used.params[0].range,
        ParamRange::OneOf {
            values: vec![
                turnstile_core::ParamValue::Int(0),
                turnstile_core::ParamValue::Int(1)
            ]
        }
    );
    state.run.consumables.clear();
    state.run.discards_left = 0;
    let kinds = Clover::legal_actions(&content, &state, Seat(0));
    assert!(kind(&kinds, "discard").is_none(), "no discards left");

    // In the shop, only what the money allows.
    let (content, mut shop) = new_game("legal-shop", 1);
    shop.phase = Phase::Shop;
    shop.shop = vec![
        ShopOffer {
            item: "planet:ember".into(),
            stickers: Default::default(),
            card: None,
        },
        ShopOffer {
            item: "joker:harlequin".into(),
            stickers: Default::default(),
            card: None,
        },
    ];
    shop.packs = Vec::new();
    shop.run.money = 0;
    let kinds = Clover::legal_actions(&content, &shop, Seat(0));
    let names: Vec<&str> = kinds.iter().map(|k| k.kind.as_str()).collect();
    assert_eq!(
        names,
        ["leaveShop", "resign"],
        "broke: only leaving (or resigning)"
    );
    shop.run.money = 100;
    let kinds = Clover::legal_actions(&content, &shop, Seat(0));
    let buy = kind(&kinds, "buy").expect("buy");
    assert_eq!(
        buy.params[0].range,
        ParamRange::OneOf {
            values: vec![0i64.into(), 1i64.into()]
        }
    );
    assert!(kind(&kinds, "reroll").is_some());
    // Every listed value is accepted by the rules.
    for (action, name) in [
        (CloverAction::Buy { slot: 0 }, "buy 0"),
        (CloverAction::Buy { slot: 1 }, "buy 1"),
        (CloverAction::Reroll, "reroll"),
    ] {
        assert!(
            Clover::check(&content, &shop, CTX, &action).is_ok(),
            "{name}"
        );
    }
}
