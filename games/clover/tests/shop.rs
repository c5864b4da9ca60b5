//! The shop beyond single cards: booster packs (weights, sizes, the first shop's joker pack,
//! contents drawn on `pack` only when opened, picks), stickers of the stakes 4, 7 and 8,
//! showdown bosses and per-boss blind multipliers, and the cards blue and purple seals create.

mod common;

use common::*;
use turnstile_clover::cards::{Card, Seal, Suit};
use turnstile_clover::game::{OpenPack, Phase, ShopOffer};
use turnstile_clover::run::{self, Blind, PackItem};
use turnstile_clover::state::Stickers;
use turnstile_clover::{Clover, CloverAction, CloverContent, CloverState, Content, RunState};
use turnstile_core::Game;

fn fresh(content: &Content, seed: &str, stake: u8) -> RunState {
    let mut r = RunState::new(seed, stake, "plain").unwrap();
    run::start_run(&mut r, content).unwrap();
    r
}

/// A game standing in the shop with `money`, offering `packs`.
fn in_shop(seed: &str, money: i64, packs: &[&str]) -> (CloverContent, CloverState) {
    let (content, mut s) = new_game(seed, 1);
    s.phase = Phase::Shop;
    s.run.money = money;
    s.packs = packs.iter().map(|p| format!("pack:{p}")).collect();
    (content, s)
}

#[test]
fn the_first_shop_offers_a_joker_pack_and_later_shops_draw_by_weight() {
    let c = content();
    let mut r = fresh(&c, "packs", 1);
    run::enter_shop(&mut r, &c).unwrap();
    let first = run::roll_packs(&mut r, &c).unwrap();
    assert_eq!(first.len(), 2);
    assert_eq!(first[0], "pack:buffoon_normal");
    // Weighted draw: normal Arcana 4 of 22.42 in weight, mega Spectral 0.07.
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..4000 {
        run::enter_shop(&mut r, &c).unwrap();
        for p in run::roll_packs(&mut r, &c).unwrap() {
            *counts.entry(p).or_insert(0u32) += 1;
        }
    }
    let total: u32 = counts.values().sum();
    assert_eq!(total, 8000);
    let arcana = counts["pack:arcana_normal"];
    // 400 / 2242 of 8000 = 1427.
    assert!((1250..1600).contains(&arcana), "{counts:?}");
    let buffoon = counts["pack:buffoon_normal"];
    assert!((330..530).contains(&buffoon), "{counts:?}"); // 120/2242 → 428
    assert!(counts.get("pack:spectral_mega").copied().unwrap_or(0) < 60);
}

#[test]
fn pack_sizes_costs_and_contents_follow_the_catalog() {
    let c = content();
    for (pack, cost, shown, picks) in [
        ("arcana_normal", 4, 3, 1),
        ("celestial_jumbo", 6, 5, 1),
        ("standard_mega", 8, 5, 2),
        ("buffoon_normal", 4, 2, 1),
        ("spectral_jumbo", 6, 4, 1),
    ] {
        let e = &c.catalog[&format!("pack:{pack}")];
        assert_eq!((e.cost, e.shown, e.picks), (cost, shown, picks), "{pack}");
        let mut r = fresh(&c, pack, 1);
        let items = run::pack_contents(&mut r, &c, &format!("pack:{pack}")).unwrap();
        assert_eq!(items.len(), usize::from(shown), "{pack}");
        let holds = e.holds.clone().unwrap();
        let mut seen = Vec::new();
        for item in items {
            match item {
                PackItem::Owned { item, .. } => {
                    assert!(item.starts_with(&format!("{holds}:")), "{pack}: {item}");
                    assert!(!seen.contains(&item), "{pack} shows {item} twice");
                    seen.push(item);
                }
                PackItem::Card { card } => {
                    assert_eq!(holds, "card");
                    assert!((2..=14).contains(&card.rank));
                }
            }
        }
    }
}

#[test]
fn pack_contents_come_from_the_pack_stream_only() {
    let c = content();
    let mut a = fresh(&c, "pack-stream", 1);
    let mut b = fresh(&c, "pack-stream", 1);
    // Drawing on every other stream changes nothing in a pack.
    for name in [
        "shop_slot",
        "shop_rarity",
        "shop_pick",
        "shuffle",
        "card_proc",
        "creation",
        "edition",
    ] {
        b.streams.next_u32(name).unwrap();
    }
    for pack in ["standard_mega", "arcana_jumbo", "celestial_normal"] {
        let pack = format!("pack:{pack}");
        assert_eq!(
            run::pack_contents(&mut a, &c, &pack).unwrap(),
            run::pack_contents(&mut b, &c, &pack).unwrap()
        );
    }
    // ... and opening a pack moves no other stream.
    let mut d = fresh(&c, "pack-stream-2", 1);
    let mut e = fresh(&c, "pack-stream-2", 1);
    run::pack_contents(&mut d, &c, "pack:standard_mega").unwrap();
    for name in [
        "shop_slot",
        "shuffle",
        "card_proc",
        "creation",
        "edition",
        "sticker",
    ] {
        assert_eq!(
            d.streams.next_u32(name).unwrap(),
            e.streams.next_u32(name).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn standard_pack_cards_are_enhanced_sealed_and_editioned_at_the_genres_rates() {
    let c = content();
    let mut r = fresh(&c, "standard-rates", 1);
    let (mut n, mut enhanced, mut sealed, mut edition) = (0, 0, 0, 0);
    for _ in 0..2000 {
        for item in run::pack_contents(&mut r, &c, "pack:standard_jumbo").unwrap() {
            let PackItem::Card { card } = item else {
                panic!("a standard pack holds playing cards")
            };
            n += 1;
            enhanced += i32::from(card.enhancement != Default::default());
            sealed += i32::from(card.seal != Seal::None);
            edition += i32::from(card.edition != Default::default());
            assert_ne!(
                card.edition,
                turnstile_clover::cards::Edition::Negative,
                "no negative playing cards"
            );
        }
    }
    // 40 % enhanced, 20 % sealed, 8 % with an edition (rate 2: 4 + 2.8 + 1.2).
    assert!((3800..4200).contains(&enhanced), "{enhanced}/{n}");
    assert!((1800..2200).contains(&sealed), "{sealed}/{n}");
    assert!((650..950).contains(&edition), "{edition}/{n}");
}

#[test]
fn opening_a_pack_is_a_pack_phase_and_picks_do_what_the_pack_holds() {
    // Celestial: the planet is used at once (its level rises), no consumable slot taken.
    let (content, mut s) = in_shop("open-celestial", 20, &["celestial_normal"]);
    let c = content.content();
    let levels = s.run.levels.clone();
    s.apply(c, &CloverAction::OpenPack { slot: 0 }).unwrap();
    assert_eq!(s.phase, Phase::Pack);
    assert_eq!(s.run.money, 16);
    assert!(s.packs.is_empty());
    let Some(OpenPack {
        items, picks_left, ..
    }) = s.pack.clone()
    else {
        panic!("a pack is open")
    };
    assert_eq!((items.len(), picks_left), (3, 1));
    // Only pack actions (and using consumables) are legal now.
    assert_eq!(
        s.clone()
            .apply(c, &CloverAction::LeaveShop)
            .unwrap_err()
            .code,
        "wrong_phase"
    );
    s.apply(c, &CloverAction::PickPack { index: 1 }).unwrap();
    assert_eq!(s.phase, Phase::Shop, "one pick, then the pack closes");
    assert!(s.pack.is_none());
    assert_eq!(s.run.consumables.len(), 0);
    let raised: usize = s
        .run
        .levels
        .iter()
        .zip(&levels)
        .filter(|(a, b)| a > b)
        .count();
    assert_eq!(raised, 1, "the picked planet levelled its hand");

    // Standard mega: two picks, each card joins the run's deck; the deck is shuffled from it.
    let (content, mut s) = in_shop("open-standard", 20, &["standard_mega"]);
    let c = content.content();
    s.apply(c, &CloverAction::OpenPack { slot: 0 }).unwrap();
    let items = s.pack.as_ref().unwrap().items.clone();
    s.apply(c, &CloverAction::PickPack { index: 0 }).unwrap();
    assert_eq!(s.phase, Phase::Pack, "a mega pack gives two picks");
    s.apply(c, &CloverAction::PickPack { index: 0 }).unwrap();
    assert_eq!(s.phase, Phase::Shop);
    assert_eq!(s.cards.len(), 54);
    for item in &items[..2] {
        let PackItem::Card { card } = item else {
            panic!()
        };
        assert!(s.cards.contains(card));
    }
    s.apply(c, &CloverAction::LeaveShop).unwrap();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    assert_eq!(
        s.deck.len() + s.hand.len(),
        54,
        "the blind deals from 54 cards"
    );

    // Buffoon: the joker takes a slot; without a free slot the pick is refused.
    let (content, mut s) = in_shop("open-buffoon", 20, &["buffoon_normal"]);
    let c = content.content();
    s.apply(c, &CloverAction::OpenPack { slot: 0 }).unwrap();
    s.apply(c, &CloverAction::PickPack { index: 0 }).unwrap();
    assert_eq!(s.run.jokers.len(), 1);
    let (content, mut s) = in_shop("open-buffoon", 20, &["buffoon_normal"]);
    let c = content.content();
    for j in ["harlequin", "rose_pin", "iron_pin", "oak_pin", "ruby_pin"] {
        s.run.jokers.push(c.joker(j).unwrap());
    }
    s.apply(c, &CloverAction::OpenPack { slot: 0 }).unwrap();
    let refused = s
        .clone()
        .apply(c, &CloverAction::PickPack { index: 0 })
        .unwrap_err();
    assert_eq!(refused.code, "no_joker_slot");
    s.apply(c, &CloverAction::SkipPack).unwrap();
    assert_eq!((s.phase, s.run.jokers.len()), (Phase::Shop, 5));

    // Arcana: the tarot acts at once (The Lantern: +$5 when shown and picked).
    let (content, mut s) = in_shop("open-arcana", 4, &["arcana_normal"]);
    let c = content.content();
    s.apply(c, &CloverAction::OpenPack { slot: 0 }).unwrap();
    assert_eq!(s.run.money, 0);
    let items = s.pack.as_ref().unwrap().items.clone();
    if let Some(i) = items
        .iter()
        .position(|i| matches!(i, PackItem::Owned { item, .. } if item == "tarot:lantern"))
    {
        s.apply(
            c,
            &CloverAction::PickPack {
                index: u8::try_from(i).unwrap(),
            },
        )
        .unwrap();
        assert_eq!(s.run.money, 5);
    }

    // Too poor: refused, nothing changed.
    let (content, s) = in_shop("poor", 3, &["arcana_normal"]);
    let mut t = s.clone();
    let refused = t
        .apply(content.content(), &CloverAction::OpenPack { slot: 0 })
        .unwrap_err();
    assert_eq!(refused.code, "not_enough_money");
}

#[test]
fn pack_actions_are_enumerated_for_bots_and_servers() {
    let (content, mut s) = in_shop("enumerate", 20, &["arcana_normal", "buffoon_normal"]);
    let actions = Clover::enumerate_actions(&content, &s, turnstile_core::Seat(0));
    assert!(actions.contains(&CloverAction::OpenPack { slot: 1 }));
    let kinds = Clover::legal_actions(&content, &s, turnstile_core::Seat(0));
    assert!(kinds.iter().any(|k| k.kind == "openPack"));
    s.apply(content.content(), &CloverAction::OpenPack { slot: 0 })
        .unwrap();
    let actions = Clover::enumerate_actions(&content, &s, turnstile_core::Seat(0));
    assert!(actions.contains(&CloverAction::PickPack { index: 2 }));
    assert!(actions.contains(&CloverAction::SkipPack));
    assert!(!actions.contains(&CloverAction::LeaveShop));
    // The view shows the open pack, and the shop's packs only as names.
    let view = serde_json::to_value(Clover::view(
        &content,
        &s,
        turnstile_core::Viewer::Seat(turnstile_core::Seat(0)),
    ))
    .unwrap();
    assert_eq!(view["pack"]["items"].as_array().unwrap().len(), 3);
    assert_eq!(view["packs"][0], "pack:buffoon_normal");
}

#[test]
fn stickers_follow_the_stakes() {
    let c = content();
    let count = |stake: u8| {
        let mut r = fresh(&c, "stickers", stake);
        let mut n = [0u32; 3];
        for _ in 0..1000 {
            let s = run::poll_stickers(&mut r).unwrap();
            n[0] += u32::from(s.eternal);
            n[1] += u32::from(s.perishable);
            n[2] += u32::from(s.rental);
            assert!(
                !(s.eternal && s.perishable),
                "eternal and perishable exclude"
            );
        }
        n
    };
    assert_eq!(count(3), [0, 0, 0]);
    let s4 = count(4);
    assert!(
        (240..360).contains(&s4[0]) && s4[1] == 0 && s4[2] == 0,
        "{s4:?}"
    );
    let s7 = count(7);
    assert!((240..360).contains(&s7[1]), "{s7:?}");
    let s8 = count(8);
    assert!((240..360).contains(&s8[2]), "{s8:?}");
    // Stakes below 4 draw nothing on `sticker`: only the edition's one roll on `edition`.
    let mut a = fresh(&c, "no-draw", 3);
    let mut b = a.clone();
    run::poll_stickers(&mut a).unwrap();
    run::poll_edition(&mut b).unwrap();
    assert_eq!(a.streams, b.streams);
}

#[test]
fn eternal_jokers_cannot_be_sold() {
    let c = content();
    let mut r = fresh(&c, "eternal", 4);
    r.money = 20;
    let eternal = Stickers {
        eternal: true,
        ..Stickers::default()
    };
    run::buy_joker_with(&mut r, &c, "harlequin", eternal).unwrap();
    assert!(r.jokers[0].eternal);
    let err = run::sell_joker(&mut r, &c, 0).unwrap_err();
    assert_eq!(err.code(), "eternal");
    assert_eq!(r.jokers.len(), 1);
}

#[test]
fn rental_jokers_cost_one_dollar_and_three_per_round() {
    let c = content();
    let mut r = fresh(&c, "rental", 8);
    r.money = 10;
    let rental = Stickers {
        rental: true,
        ..Stickers::default()
    };
    run::buy_joker_with(&mut r, &c, "echo_pair", rental).unwrap();
    assert_eq!(r.money, 9, "bought for $1 instead of $8");
    run::start_round(&mut r, &c, Blind::Big).unwrap();
    r.hands_left = 0;
    r.money = 0;
    run::end_round(&mut r, &c, Blind::Big, &[]).unwrap();
    assert_eq!(r.money, 4 - 3, "$4 reward, $3 rent");
}

#[test]
fn perishable_jokers_are_debuffed_after_five_rounds() {
    let c = content();
    let mut r = fresh(&c, "perishable", 7);
    r.money = 10;
    let perishable = Stickers {
        perishable: true,
        ..Stickers::default()
    };
    run::buy_joker_with(&mut r, &c, "harlequin", perishable).unwrap();
    assert_eq!(r.jokers[0].perishable, Some(5));
    let played = cards("2S");
    let plus = |r: &mut RunState| {
        turnstile_clover::score_hand(r, &c, &played, &[], false)
            .unwrap()
            .mult
    };
    let with = plus(&mut r);
    for round in 1..=5 {
        run::start_round(&mut r, &c, Blind::Small).unwrap();
        assert_eq!(plus(&mut r), with, "works in round {round}");
        run::end_round(&mut r, &c, Blind::Small, &[]).unwrap();
    }
    assert!(r.jokers[0].debuffed());
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    assert_eq!(
        plus(&mut r),
        turnstile_core::determinism::Fixed::from_int(1),
        "debuffed: no +4 mult"
    );
    // A debuffed joker's rules leave too (a perishable rule joker).
    let mut r = fresh(&c, "perishable-rule", 7);
    r.money = 10;
    run::buy_joker_with(&mut r, &c, "stone_wall", perishable).unwrap();
    assert_eq!(r.rule(turnstile_clover::state::Rule::HandSize), 6);
    r.jokers[0].perishable = Some(1);
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    run::end_round(&mut r, &c, Blind::Small, &[]).unwrap();
    assert_eq!(r.rule(turnstile_clover::state::Rule::HandSize), 8);
}

#[test]
fn shop_jokers_carry_their_stickers_into_the_run() {
    // Gold-like stake 8: over many shops some offers are rentals, bought for $1.
    let (content, mut s) = new_game("sticker-shop", 8);
    let c = content.content();
    let mut found = false;
    for _ in 0..60 {
        let offers = run::roll_shop(&mut s.run, c).unwrap();
        for item in offers.into_iter().filter(|o| o.starts_with("joker:")) {
            let stickers = run::poll_stickers(&mut s.run).unwrap();
            if stickers.rental {
                s.phase = Phase::Shop;
                s.shop = vec![ShopOffer {
                    item,
                    stickers,
                    card: None,
                }];
                s.run.money = 1;
                s.apply(c, &CloverAction::Buy { slot: 0 }).unwrap();
                assert!(s.run.jokers[0].rental);
                assert_eq!(s.run.money, 0);
                found = true;
                break;
            }
        }
        if found {
            break;
        }
    }
    assert!(found);
}

#[test]
fn boss_blind_multipliers_are_data_on_the_boss() {
    let c = content();
    for (boss, mult) in [
        ("rampart", 4),
        ("needle", 1),
        ("violet_urn", 6),
        ("thorn", 2),
    ] {
        let mut r = fresh(&c, "boss-mult", 1);
        r.boss = Some(format!("boss:{boss}"));
        run::start_round(&mut r, &c, Blind::Boss).unwrap();
        assert_eq!(
            r.rule(turnstile_clover::state::Rule::BossBlindMult),
            mult,
            "{boss}"
        );
    }
    assert_eq!(run::boss_target(2, 1, 4, 1), 3_200);
    assert_eq!(run::boss_target(2, 1, 1, 1), 800);
    assert_eq!(run::boss_target(8, 1, 6, 1), 300_000);
    // The Needle: one hand and x1; through the game.
    let (content, mut s) = new_game("needle", 1);
    s.blind = Blind::Boss;
    s.run.boss = Some("boss:needle".into());
    s.apply(content.content(), &CloverAction::SelectBlind)
        .unwrap();
    assert_eq!((s.target, s.run.hands_left), (300, 1));
}

#[test]
fn showdown_bosses_come_at_antes_8_and_16_and_pay_8() {
    let c = content();
    for ante in [8, 16] {
        for seed in ["a", "b", "c", "d", "e"] {
            let mut r = fresh(&c, seed, 1);
            r.ante = ante;
            let boss = run::choose_boss(&mut r, &c).unwrap();
            assert!(c.catalog[&boss].showdown, "ante {ante}: {boss}");
        }
    }
    for ante in [1, 7, 9] {
        for seed in ["a", "b", "c", "d", "e"] {
            let mut r = fresh(&c, seed, 1);
            r.ante = ante;
            let boss = run::choose_boss(&mut r, &c).unwrap();
            assert!(!c.catalog[&boss].showdown, "ante {ante}: {boss}");
        }
    }
    let mut r = fresh(&c, "showdown-pay", 1);
    r.ante = 8;
    r.boss = Some("boss:violet_urn".into());
    run::start_round(&mut r, &c, Blind::Boss).unwrap();
    r.hands_left = 0;
    r.money = 0;
    run::end_round(&mut r, &c, Blind::Boss, &[]).unwrap();
    assert_eq!(r.money, 8);
    let mut r = fresh(&c, "regular-pay", 1);
    r.boss = Some("boss:thorn".into());
    run::start_round(&mut r, &c, Blind::Boss).unwrap();
    r.hands_left = 0;
    r.money = 0;
    run::end_round(&mut r, &c, Blind::Boss, &[]).unwrap();
    assert_eq!(r.money, 5);
}

#[test]
fn a_blue_seal_held_at_round_end_creates_the_planet_of_the_last_hand() {
    let c = content();
    let mut r = fresh(&c, "blue", 1);
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    turnstile_clover::score_hand(&mut r, &c, &cards("5S 5H 9C 9D"), &[], false).unwrap();
    let blue = Card::new(3, Suit::Clubs).sealed(Seal::Blue);
    run::end_round(&mut r, &c, Blind::Small, &[blue, blue, blue]).unwrap();
    // Two pair's planet, as often as there is room (2 slots).
    assert_eq!(
        r.consumables,
        vec!["planet:twinmoon".to_owned(), "planet:twinmoon".to_owned()]
    );
    // Not held (or no hand played): nothing.
    let mut r = fresh(&c, "blue-none", 1);
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    run::end_round(&mut r, &c, Blind::Small, &[blue]).unwrap();
    assert!(r.consumables.is_empty());
}

#[test]
fn a_purple_seal_discarded_creates_a_real_tarot_when_there_is_room() {
    let (content, mut s) = new_game("purple", 1);
    let c = content.content();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    s.hand[0] = s.hand[0].sealed(Seal::Purple);
    s.hand[1] = s.hand[1].sealed(Seal::Purple);
    s.hand[2] = s.hand[2].sealed(Seal::Purple);
    s.apply(c, &CloverAction::Discard { cards: vec![0, 3] })
        .unwrap();
    assert_eq!(s.run.consumables.len(), 1);
    assert!(c.catalog.contains_key(&s.run.consumables[0]));
    assert!(s.run.consumables[0].starts_with("tarot:"));
    // Two more purple seals, one slot left: one tarot.
    let hand_has = |s: &CloverState| {
        s.hand
            .iter()
            .enumerate()
            .filter(|(_, c)| c.seal == Seal::Purple)
            .map(|(i, _)| u8::try_from(i).unwrap())
            .collect::<Vec<u8>>()
    };
    let purple = hand_has(&s);
    assert_eq!(purple.len(), 2);
    s.apply(c, &CloverAction::Discard { cards: purple })
        .unwrap();
    assert_eq!(s.run.consumables.len(), 2, "room for one more only");
    assert!(s.run.consumables.iter().all(|o| c.catalog.contains_key(o)));
}

#[test]
fn created_jokers_go_to_joker_slots() {
    let c = content();
    let mut r = fresh(&c, "created-joker", 1);
    run::take_tag(&mut r, &c, "buffoon").unwrap();
    assert_eq!(r.jokers.len(), 1);
    assert!(r.consumables.is_empty());
    assert!(c.catalog.contains_key(&format!("joker:{}", r.jokers[0].id)));
}

#[test]
fn a_bot_opens_packs_in_its_runs() {
    use turnstile_clover::bot_action;
    let (content, mut s) = new_game("bot-packs", 1);
    let c = content.content();
    let mut opened = 0;
    for _ in 0..400 {
        let Some(action) = bot_action(c, &s) else {
            break;
        };
        if matches!(action, CloverAction::OpenPack { .. }) {
            opened += 1;
        }
        s.apply(c, &action)
            .unwrap_or_else(|e| panic!("{action:?}: {e:?}"));
    }
    assert!(opened > 0, "the bot never opened a pack");
}

#[test]
fn bot_runs_at_every_new_stake_stay_legal_and_deterministic() {
    use turnstile_clover::bot_action;
    for stake in [4, 7, 8] {
        let play = || {
            let (content, mut s) = new_game("stake-run", stake);
            let c = content.content();
            for _ in 0..400 {
                let Some(action) = bot_action(c, &s) else {
                    break;
                };
                s.apply(c, &action)
                    .unwrap_or_else(|e| panic!("stake {stake}: {action:?}: {e:?}"));
            }
            s
        };
        let a = play();
        assert_eq!(a, play(), "stake {stake}");
        assert!(a.steps >= 5, "stake {stake}: {} commands", a.steps);
    }
}

/// The view prices every offer and pack as `buy` and `openPack` charge it (discounts
/// applied), and the star atlas makes planets and Celestial packs free.
#[test]
fn the_view_prices_offers_as_charged_and_the_star_atlas_gives_planets_away() {
    let (content, mut s) = in_shop("prices", 0, &["celestial_normal", "arcana_normal"]);
    let c = content.content();
    s.shop = ["planet:pebble", "tarot:miser", "joker:harlequin"]
        .iter()
        .map(|item| ShopOffer {
            item: (*item).into(),
            stickers: Stickers::default(),
            card: None,
        })
        .collect();
    s.run.vouchers = vec!["voucher:clearance".into()];
    run::rebuild(&mut s.run, c).unwrap();
    let prices = |s: &CloverState| {
        let v = Clover::view(
            &content,
            s,
            turnstile_core::Viewer::Seat(turnstile_core::Seat(0)),
        );
        (v.shop_prices, v.pack_prices)
    };
    // 25 % off: $3 → $2, $2 → $1 (never below $1), $4 → $3.
    assert_eq!(prices(&s), (vec![2, 2, 1], vec![3, 3]));
    let broke = s
        .clone()
        .apply(c, &CloverAction::Buy { slot: 0 })
        .unwrap_err();
    assert_eq!(broke.code, "not_enough_money");

    s.run.jokers.push(c.joker("star_atlas").unwrap());
    run::rebuild(&mut s.run, c).unwrap();
    assert_eq!(prices(&s), (vec![0, 2, 1], vec![0, 3]));
    // With $0: the planet and the Celestial pack are taken; the tarot is still refused.
    let levels = s.run.levels.clone();
    s.apply(c, &CloverAction::Buy { slot: 0 }).unwrap();
    assert_eq!(s.run.consumables, vec!["planet:pebble".to_owned()]);
    assert_eq!(
        s.clone()
            .apply(c, &CloverAction::Buy { slot: 0 })
            .unwrap_err()
            .code,
        "not_enough_money"
    );
    s.apply(c, &CloverAction::OpenPack { slot: 0 }).unwrap();
    assert_eq!((s.phase, s.run.money), (Phase::Pack, 0));
    assert_eq!(s.run.levels, levels, "nothing used yet");
}

/// The Usurper keeps every boss's rules out of its blind: the Needle's one hand and x1 target
/// and the Rampart's x4 are gone (a plain boss blind: x2), the preview says so, and without the
/// joker the boss acts.
#[test]
fn the_usurper_starts_boss_blinds_without_their_boss() {
    let boss_blind = |boss: &str, usurper: bool| {
        let (content, mut s) = new_game("usurper", 1);
        let c = content.content();
        if usurper {
            s.run.jokers.extend(c.joker("usurper"));
            run::rebuild(&mut s.run, c).unwrap();
        }
        s.blind = Blind::Boss;
        s.run.boss = Some(format!("boss:{boss}"));
        let preview = run::boss_preview_target(&s.run, c, &format!("boss:{boss}"));
        s.apply(c, &CloverAction::SelectBlind).unwrap();
        (s.target, s.run.hands_left, preview, s.run.boss_active)
    };
    assert_eq!(boss_blind("needle", false), (300, 1, 300, true));
    assert_eq!(boss_blind("needle", true), (600, 4, 600, false));
    assert_eq!(boss_blind("rampart", false).0, 1_200);
    assert_eq!(boss_blind("rampart", true).0, 600);
}

/// With the Omen Orb, about one card in five of an Arcana pack is a spectral; without it none
/// is, and the draws are the same as before the voucher existed (no roll without the rule).
#[test]
fn the_omen_orb_puts_spectrals_in_arcana_packs() {
    let c = content();
    let count = |orb: bool| {
        let (mut tarots, mut spectrals) = (0, 0);
        for seed in 0..40 {
            let mut r = fresh(&c, &format!("omen{seed}"), 1);
            if orb {
                r.money = 100;
                run::buy_voucher(&mut r, &c, "crystal").unwrap();
                run::buy_voucher(&mut r, &c, "omen_orb").unwrap();
            }
            for item in run::pack_contents(&mut r, &c, "pack:arcana_mega").unwrap() {
                match item {
                    PackItem::Owned { item, .. } if item.starts_with("tarot:") => tarots += 1,
                    PackItem::Owned { item, .. } if item.starts_with("spectral:") => spectrals += 1,
                    other => panic!("{other:?}"),
                }
            }
        }
        (tarots, spectrals)
    };
    assert_eq!(count(false).1, 0);
    let (tarots, spectrals) = count(true);
    assert_eq!(tarots + spectrals, 200);
    assert!((20..=60).contains(&spectrals), "{spectrals} of 200");
}

/// The Scarlet Vein disables one joker when its blind starts and a fresh one after every hand;
/// the disabled joker does nothing in that hand, and all work again once the blind is over.
#[test]
fn the_scarlet_vein_disables_one_joker_per_hand() {
    use turnstile_clover::game::CloverEvent;
    let (content, mut s) = new_game("scarlet", 1);
    let c = content.content();
    for j in ["harlequin", "quiet_pair", "bells_pair"] {
        s.run.jokers.extend(c.joker(j));
    }
    run::rebuild(&mut s.run, c).unwrap();
    s.blind = Blind::Boss;
    s.run.boss = Some("boss:scarlet_vein".into());
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    for _ in 0..3 {
        let disabled: Vec<usize> = (0..3).filter(|&i| s.run.jokers[i].disabled).collect();
        assert_eq!(disabled.len(), 1, "exactly one joker is disabled");
        let off = format!("joker:{}", s.run.jokers[disabled[0]].id);
        let events = s.apply(c, &CloverAction::Play { cards: vec![0] }).unwrap();
        let steps = events
            .iter()
            .find_map(|e| match e {
                CloverEvent::HandScored { steps, .. } => Some(steps.clone()),
                _ => None,
            })
            .unwrap();
        assert!(!steps.iter().any(|st| *st.owner == *off), "{off} acted");
        assert!(
            steps.iter().any(|st| &*st.owner == "joker:harlequin") || off == "joker:harlequin",
            "the others work"
        );
    }
    // The blind's end clears it.
    run::end_round(&mut s.run, c, Blind::Boss, &[]).unwrap();
    assert!(s.run.jokers.iter().all(|j| !j.disabled));
    // Without the boss nothing is drawn or disabled.
    let streams = s.run.streams.clone();
    assert_eq!(run::disable_a_joker(&mut s.run, c).unwrap(), None);
    assert_eq!(s.run.streams, streams);
}

/// Jokers sell at any moment of a run; the Grappler sold during a boss blind turns the boss off:
/// the Needle's single hand and x1 target become a plain boss blind's four hands and x2.
#[test]
fn the_grappler_sold_mid_blind_turns_the_boss_off() {
    let (content, mut s) = new_game("grappler", 1);
    let c = content.content();
    s.run.jokers.extend(c.joker("grappler"));
    run::rebuild(&mut s.run, c).unwrap();
    s.blind = Blind::Boss;
    s.run.boss = Some("boss:needle".into());
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    assert_eq!((s.target, s.run.hands_left), (300, 1));
    let legal = <Clover as Game>::legal_actions(&content, &s, turnstile_core::Seat(0));
    assert!(
        legal.iter().any(|k| k.kind == "sell"),
        "selling is open mid-blind"
    );
    let money = s.run.money;
    s.apply(c, &CloverAction::Sell { slot: 0 }).unwrap();
    assert!(!s.run.boss_active);
    assert_eq!((s.target, s.run.hands_left), (600, 4));
    assert_eq!(s.run.money, money + 2, "its sell value");
    assert_eq!(s.phase, Phase::Playing);
    // Outside a boss blind it only sells.
    let (content, mut s) = new_game("grappler", 1);
    let c = content.content();
    s.run.jokers.extend(c.joker("grappler"));
    run::rebuild(&mut s.run, c).unwrap();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    let before = (s.target, s.run.hands_left);
    s.apply(c, &CloverAction::Sell { slot: 0 }).unwrap();
    assert_eq!((s.target, s.run.hands_left), before);
    assert!(s.run.jokers.is_empty());
}

#[test]
fn the_cola_can_sold_doubles_the_next_tag() {
    let (content, mut s) = new_game("cola", 1);
    let c = content.content();
    s.run.jokers.extend(c.joker("cola_can"));
    run::rebuild(&mut s.run, c).unwrap();
    s.apply(c, &CloverAction::Sell { slot: 0 }).unwrap();
    assert_eq!(s.run.tag_copies, 1, "sold before the first blind");
    let money = s.run.money;
    run::take_tag(&mut s.run, c, "windfall").unwrap();
    assert_eq!(s.run.money, money + 20);
}

/// The Column debuffs the cards played earlier this ante: the game remembers every card played
/// (as it was after scoring) until the ante ends.
#[test]
fn the_column_debuffs_cards_played_earlier_this_ante() {
    let c = content();
    let score = |column: bool| {
        let mut r = fresh(&c, "column", 1);
        r.ante_played = common::cards("AS");
        if column {
            r.boss = Some("boss:column".into());
        }
        run::start_round(&mut r, &c, Blind::Boss).unwrap();
        turnstile_clover::score_hand(&mut r, &c, &common::cards("AS AH"), &[], true).unwrap()
    };
    assert_eq!(score(false).chips, 32, "10 + 11 + 11");
    assert_eq!(
        score(true).chips,
        21,
        "the ace of spades played before scores nothing"
    );
    // Through the game: played cards are remembered, and forgotten when the ante ends.
    let (content, mut s) = new_game("column-game", 1);
    let c = content.content();
    s.apply(c, &CloverAction::SelectBlind).unwrap();
    let played = s.hand[0];
    s.apply(c, &CloverAction::Play { cards: vec![0] }).unwrap();
    assert_eq!(s.run.ante_played, [played]);
    run::end_round(&mut s.run, c, Blind::Boss, &[]).unwrap();
    assert!(s.run.ante_played.is_empty());
}

/// Shop and pack jokers come with editions at the genre's rates (2 % foil, 1.4 % holographic,
/// 0.3 % polychrome, 0.3 % negative), the Whetstone and the Lustre doubling and quadrupling
/// all but negative; an edition raises the price and what selling pays, and a negative joker
/// is bought with every slot full.
#[test]
fn offered_jokers_come_with_editions_that_cost_more() {
    use turnstile_clover::cards::Edition;
    let c = content();
    let tally = |vouchers: &[&str]| {
        let mut r = fresh(&c, "editions", 1);
        r.money = 100;
        for v in vouchers {
            run::buy_voucher(&mut r, &c, v).unwrap();
        }
        let mut counts = [0u32; 5];
        for _ in 0..4000 {
            counts[run::poll_edition(&mut r).unwrap() as usize] += 1;
        }
        counts
    };
    let base = tally(&[]);
    let [_, foil, holo, poly, negative] = base;
    assert!((50..=110).contains(&foil), "{base:?}");
    assert!((30..=85).contains(&holo), "{base:?}");
    assert!(
        (2..=30).contains(&poly) && (2..=30).contains(&negative),
        "{base:?}"
    );
    let lustre = tally(&["whetstone", "lustre"]);
    assert!(
        lustre[1] > 3 * foil && lustre[2] > 3 * holo,
        "{lustre:?} vs {base:?}"
    );
    // Price and sell value: a $6 joker in foil costs $8 and sells for $4.
    let mut r = fresh(&c, "editions", 1);
    r.money = 50;
    let foil_offer = Stickers {
        edition: Edition::Foil,
        ..Stickers::default()
    };
    let cost = c.catalog["joker:bells_trio"].cost as i64;
    assert_eq!(
        run::offer_price(&r, &c, "joker:bells_trio", foil_offer),
        cost + 2
    );
    run::buy_joker_with(&mut r, &c, "bells_trio", foil_offer).unwrap();
    assert_eq!(r.money, 50 - cost - 2);
    assert_eq!(r.jokers[0].edition, Edition::Foil);
    assert_eq!(r.jokers[0].sell_value, (cost + 2) / 2);
    // A negative joker needs no free slot.
    while (r.jokers.len() as i64) < r.rule(turnstile_clover::state::Rule::JokerSlots) {
        run::buy_joker(&mut r, &c, "harlequin").unwrap();
    }
    assert!(run::buy_joker(&mut r, &c, "quiet_pair").is_err());
    let negative_offer = Stickers {
        edition: Edition::Negative,
        ..Stickers::default()
    };
    run::buy_joker_with(&mut r, &c, "quiet_pair", negative_offer).unwrap();
    assert_eq!(r.jokers.last().unwrap().edition, Edition::Negative);
}

/// The Street Stall stocks playing cards in the shop (plain ones: $1); the Sleight lets them be
/// enhanced, have an edition or a seal; a card bought joins the run's deck. Without the vouchers
/// no slot is a card.
#[test]
fn the_street_stall_sells_playing_cards() {
    use turnstile_clover::cards::Enhancement;
    let stock = |vouchers: &[&str]| {
        let (content, mut s) = in_shop("stall", 100, &[]);
        let c = content.content();
        for v in vouchers {
            run::buy_voucher(&mut s.run, c, v).unwrap();
        }
        let mut cards = Vec::new();
        for _ in 0..30 {
            s.run.money = 100;
            s.apply(c, &CloverAction::Reroll).unwrap();
            cards.extend(s.shop.iter().filter_map(|o| o.card));
        }
        (content, s, cards)
    };
    let (_, _, none) = stock(&[]);
    assert!(none.is_empty());
    let (content, mut s, plain) = stock(&["street_stall"]);
    assert!(plain.len() >= 5, "{} cards in 30 rerolls", plain.len());
    assert!(plain.iter().all(|c| c.enhancement == Enhancement::None));
    let slot = s.shop.iter().position(|o| o.card.is_some());
    if let Some(slot) = slot {
        let card = s.shop[slot].card.unwrap();
        let (money, deck) = (s.run.money, s.cards.len());
        let price = run::offer_price(&s.run, content.content(), "card", s.shop[slot].stickers);
        assert_eq!(price, 1, "a plain card costs $1");
        s.apply(content.content(), &CloverAction::Buy { slot: slot as u8 })
            .unwrap();
        assert_eq!((s.run.money, s.cards.len()), (money - 1, deck + 1));
        assert_eq!(s.cards.last(), Some(&card));
    }
    let (_, _, fancy) = stock(&["street_stall", "sleight"]);
    assert!(
        fancy.iter().any(|c| c.enhancement != Enhancement::None),
        "{fancy:?}"
    );
}
