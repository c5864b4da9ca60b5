//! Rules are rebuilt, never accumulated: the four layers at the six points, idempotent;
//! bosses only while their blind is played; tags `OnUse` / `OnShopEnter` / `OnBossDefeated`;
//! the seed's three failure stories; streams kept apart.

mod common;

use common::*;
use turnstile_clover::run::{self, Blind};
use turnstile_clover::RunState;

fn fresh(content: &turnstile_clover::Content) -> RunState {
    let mut r = RunState::new("rules-seed", 1, "plain").unwrap();
    run::start_run(&mut r, content).unwrap();
    r
}

#[test]
fn story_1_a_joker_bought_in_the_shop_applies_its_rule() {
    let c = content();
    let mut r = fresh(&c);
    r.money = 100;
    assert_eq!(r.rule(turnstile_clover::state::Rule::HandSize), 8);
    run::buy_joker(&mut r, &c, "stone_wall").unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::HandSize),
        6,
        "the rule applies at once after buying"
    );
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::HandSize),
        6,
        "and still next round"
    );
    run::sell_joker(&mut r, &c, 0).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::HandSize),
        8,
        "gone with its cause"
    );
    run::buy_joker(&mut r, &c, "four_leaf").unwrap();
    let played = cards("2S 4S 6S 8S 10H");
    let rec = turnstile_clover::score_hand(&mut r, &c, &played, &[], false).unwrap();
    assert_eq!(rec.hand, Some(turnstile_clover::hands::HandType::Flush));
}

#[test]
fn story_2_boss_effects_apply_while_their_blind_is_played_only() {
    let c = content();
    let mut r = fresh(&c);
    r.boss = Some("boss:needle".into());
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::Hands),
        4,
        "not during the small blind"
    );
    run::end_round(&mut r, &c, Blind::Small, &[]).unwrap();
    run::start_round(&mut r, &c, Blind::Boss).unwrap();
    assert_eq!(r.rule(turnstile_clover::state::Rule::Hands), 1);
    assert_eq!(r.hands_left, 1);
    run::end_round(&mut r, &c, Blind::Boss, &[]).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::Hands),
        4,
        "gone once beaten"
    );
    // Every boss applies something while active: a rule, or (the toll, the withering, the
    // yoke) a row of the scoring, tested in tests/breadth.rs.
    for boss in c.of_kind("boss") {
        let owner = format!("boss:{}", boss.id);
        if c.effects.rows().iter().any(|r| {
            r.owner.as_str() == owner && r.trigger != turnstile_clover::vocabulary::Trigger::Passive
        }) {
            continue;
        }
        let mut r = fresh(&c);
        let before = r.rules.clone();
        r.boss = Some(format!("boss:{}", boss.id));
        run::start_round(&mut r, &c, Blind::Boss).unwrap();
        assert_ne!(r.rules, before, "{} changes no rule", boss.id);
    }
}

#[test]
fn story_3_a_tag_does_not_apply_forever() {
    let c = content();
    let mut r = fresh(&c);
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    run::end_round(&mut r, &c, Blind::Small, &[]).unwrap();
    // Taken between rounds: +3 hand size for the next round only.
    run::take_tag(&mut r, &c, "juggle").unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::HandSize),
        8,
        "not at once"
    );
    run::start_round(&mut r, &c, Blind::Big).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::HandSize),
        11,
        "the next round"
    );
    run::end_round(&mut r, &c, Blind::Big, &[]).unwrap();
    run::start_round(&mut r, &c, Blind::Boss).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::HandSize),
        8,
        "and never again"
    );
}

#[test]
fn tags_fire_at_their_moment() {
    let c = content();
    let mut r = fresh(&c);
    let money = r.money;
    run::take_tag(&mut r, &c, "windfall").unwrap();
    assert_eq!(r.money, money + 10);
    assert!(r.tags.is_empty(), "spent at once");
    run::take_tag(&mut r, &c, "orbit").unwrap();
    assert_eq!(r.levels[1], 4);
    run::take_tag(&mut r, &c, "d6").unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::RerollCost),
        5,
        "waits for the shop"
    );
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    run::end_round(&mut r, &c, Blind::Small, &[]).unwrap();
    run::enter_shop(&mut r, &c).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::RerollCost),
        0,
        "free rerolls in this shop"
    );
    assert!(r.tags.is_empty());
    run::start_round(&mut r, &c, Blind::Big).unwrap();
    assert_eq!(
        r.rule(turnstile_clover::state::Rule::RerollCost),
        5,
        "until the next round starts"
    );
    run::take_tag(&mut r, &c, "investment").unwrap();
    r.boss = Some("boss:shackle".into());
    run::end_round(&mut r, &c, Blind::Big, &[]).unwrap();
    let before = r.money;
    run::start_round(&mut r, &c, Blind::Boss).unwrap();
    run::end_round(&mut r, &c, Blind::Boss, &[]).unwrap();
    assert!(r.money >= before + 25 + 5);
    assert!(r.tags.is_empty());
    for tag in ["buffoon", "charm", "meteor", "coupon"] {
        run::take_tag(&mut r, &c, tag).unwrap();
    }
}

#[test]
fn rebuilding_is_idempotent_and_layered() {
    let c = content();
    let mut r = fresh(&c);
    r.money = 100;
    run::buy_voucher(&mut r, &c, "paint_brush").unwrap();
    run::buy_joker(&mut r, &c, "stone_wall").unwrap();
    let once = r.rules.clone();
    run::rebuild(&mut r, &c).unwrap();
    run::rebuild(&mut r, &c).unwrap();
    assert_eq!(r.rules, once);
    assert_eq!(r.rule(turnstile_clover::state::Rule::HandSize), 7);
    for v in [
        "overstock",
        "bargain_reroll",
        "crystal",
        "grabber",
        "wasteful",
        "seed_money",
        "antimatter",
    ] {
        let before = r.rules.clone();
        r.money = 100;
        run::buy_voucher(&mut r, &c, v).unwrap();
        assert_ne!(r.rules, before, "{v}");
    }
}

#[test]
fn decks_and_stakes() {
    let c = content();
    let mk = |deck: &str, stake: u8| {
        let mut r = RunState::new("d", stake, deck).unwrap();
        run::start_run(&mut r, &c).unwrap();
        r
    };
    assert_eq!(
        mk("crimson", 1).rule(turnstile_clover::state::Rule::Discards),
        4
    );
    assert_eq!(mk("azure", 1).rule(turnstile_clover::state::Rule::Hands), 5);
    assert_eq!(mk("amber", 1).money, 14);
    let onyx = mk("onyx", 1);
    assert_eq!(
        (
            onyx.rule(turnstile_clover::state::Rule::JokerSlots),
            onyx.rule(turnstile_clover::state::Rule::Hands)
        ),
        (6, 3)
    );
    assert_eq!(
        mk("plain", 2).rule(turnstile_clover::state::Rule::SmallBlindReward),
        0
    );
    assert_eq!(
        mk("plain", 3).rule(turnstile_clover::state::Rule::BlindScaling),
        2
    );
    assert_eq!(
        mk("plain", 5).rule(turnstile_clover::state::Rule::Discards),
        2
    );
    assert_eq!(run::blind_target(1, 1, Blind::Small, 1), 300);
    assert_eq!(run::blind_target(2, 1, Blind::Big, 1), 1200);
    assert_eq!(run::blind_target(8, 2, Blind::Boss, 2), 400_000);
    assert_eq!(run::blind_target(0, 1, Blind::Small, 1), 100);
    // Endless antes follow the genre's formula to ante 15 (no longer ante 12's value held),
    // then leave `i64`.
    assert_eq!(run::blind_target(12, 1, Blind::Small, 1), 300_000_000);
    assert_eq!(run::blind_target(13, 1, Blind::Small, 1), 47_000_000_000);
    assert_eq!(
        run::blind_target(14, 2, Blind::Small, 1),
        58_000_000_000_000
    );
    assert_eq!(
        run::blind_target(15, 3, Blind::Boss, 1),
        600_000_000_000_000_000
    );
    assert_eq!(run::blind_target(16, 1, Blind::Small, 1), i64::MAX);
    assert_eq!(
        run::blind_target(15, 3, Blind::Boss, 20),
        i64::MAX,
        "saturates"
    );
}

#[test]
fn end_of_round_money_and_interest() {
    let c = content();
    let mut r = fresh(&c);
    r.money = 23;
    run::start_round(&mut r, &c, Blind::Big).unwrap();
    r.hands_left = 2;
    run::end_round(&mut r, &c, Blind::Big, &[]).unwrap();
    // $4 reward + $2 hands + $4 interest.
    assert_eq!(r.money, 33);
    r.money = 100;
    r.jokers.push(c.joker("golden_ticket").unwrap());
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    r.hands_left = 0;
    let gold = cards("5S")[0].with(turnstile_clover::cards::Enhancement::Gold);
    run::end_round(&mut r, &c, Blind::Small, &[gold]).unwrap();
    assert_eq!(r.money, 100 + 4 + 3 + 3 + 5);
}

#[test]
fn a_shop_reroll_changes_no_shuffle_and_no_proc() {
    let c = content();
    let mut a = fresh(&c);
    let mut b = fresh(&c);
    b.money = 100;
    run::roll_shop(&mut b, &c).unwrap();
    run::reroll_shop(&mut b, &c, 0).unwrap();
    run::reroll_shop(&mut b, &c, 1).unwrap();
    assert_eq!(run::shuffled_deck(&mut a), run::shuffled_deck(&mut b));
    for name in ["card_proc", "joker_proc", "misprint", "boss", "tag", "pack"] {
        assert_eq!(
            a.streams.next_u32(name).unwrap(),
            b.streams.next_u32(name).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn shop_offers_follow_the_catalog() {
    let c = content();
    let mut r = fresh(&c);
    let mut jokers = 0;
    let mut total = 0;
    for _ in 0..300 {
        for offer in run::roll_shop(&mut r, &c).unwrap() {
            total += 1;
            assert!(c.catalog.contains_key(&offer));
            if offer.starts_with("joker:") {
                jokers += 1;
            }
        }
    }
    // 20/28 of slots are jokers.
    assert!(
        (jokers * 100 / total) > 60 && (jokers * 100 / total) < 82,
        "{jokers}/{total}"
    );
}

#[test]
fn consumables_do_what_they_say() {
    let c = content();
    let mut r = fresh(&c);
    for planet in c.of_kind("planet") {
        r.consumables.push(format!("planet:{}", planet.id));
        run::use_consumable(&mut r, &c, 0).unwrap();
    }
    assert!(r.levels.iter().all(|l| *l == 2), "{:?}", r.levels);
    r.money = 10;
    r.consumables.push("tarot:miser".into());
    run::use_consumable(&mut r, &c, 0).unwrap();
    assert_eq!(r.money, 20);
    r.consumables.push("spectral:void".into());
    run::use_consumable(&mut r, &c, 0).unwrap();
    assert!(r.levels.iter().all(|l| *l == 3));
    r.consumables.push("tarot:sage".into());
    run::use_consumable(&mut r, &c, 0).unwrap();
    assert_eq!(r.consumables.len(), 2);
    let all: Vec<String> = c
        .of_kind("tarot")
        .chain(c.of_kind("spectral"))
        .map(|e| format!("{}:{}", e.kind, e.id))
        .collect();
    for owner in all {
        let mut r = fresh(&c);
        r.consumables.push(owner.clone());
        // A card-changing one is used on as many cards as it takes.
        let on: Vec<turnstile_clover::cards::Card> = common::cards("AS KH QD JC 10S")
            .into_iter()
            .take(usize::from(run::targets_of(&c, &owner)))
            .collect();
        run::use_consumable_on(&mut r, &c, 0, &on).unwrap_or_else(|e| panic!("{owner}: {e}"));
    }
}

#[test]
fn buying_and_selling_fire_their_rows() {
    let c = content();
    let mut r = fresh(&c);
    r.money = 20;
    run::buy_joker(&mut r, &c, "grand_entrance").unwrap();
    assert_eq!(r.consumables.len(), 1);
    assert!(
        r.consumables[0].starts_with("tarot:") && c.catalog.contains_key(&r.consumables[0]),
        "a real tarot: {:?}",
        r.consumables
    );
    run::buy_joker(&mut r, &c, "parting_gift").unwrap();
    let m = r.money;
    run::sell_joker(&mut r, &c, 1).unwrap();
    assert_eq!(r.money, m + 5 + 1);
    r.money = 0;
    assert_eq!(
        run::buy_joker(&mut r, &c, "harlequin").unwrap_err().code(),
        "not_enough_money"
    );
}

#[test]
fn the_sixth_stake_scales_blinds_by_three() {
    let c = content();
    let mut r = RunState::new("s6", 6, "plain").unwrap();
    run::start_run(&mut r, &c).unwrap();
    assert_eq!(r.rule(turnstile_clover::state::Rule::BlindScaling), 3);
    assert_eq!(r.rule(turnstile_clover::state::Rule::SmallBlindReward), 0);
    assert_eq!(r.rule(turnstile_clover::state::Rule::Discards), 2);
    assert_eq!(
        run::blind_target(
            3,
            r.rule(turnstile_clover::state::Rule::BlindScaling),
            Blind::Small,
            1
        ),
        3_200
    );
}

#[test]
fn the_shop_offers_a_voucher_and_buying_it_rebuilds() {
    let c = content();
    let mut r = fresh(&c);
    let offers = run::enter_shop(&mut r, &c).unwrap();
    let voucher = offers
        .iter()
        .find(|o| o.starts_with("voucher:"))
        .expect("a voucher");
    r.money = 10;
    let before = r.rules.clone();
    run::buy_voucher(&mut r, &c, voucher.split_once(':').unwrap().1).unwrap();
    assert_ne!(r.rules, before);
    assert_eq!(r.money, 0);
}

#[test]
fn the_typed_rules_are_the_rule_resources_in_order() {
    use turnstile_clover::state::{rule_index, Rule, RULES};
    assert_eq!(Rule::ALL.len(), RULES.len());
    for (i, rule) in Rule::ALL.iter().enumerate() {
        assert_eq!(rule.name(), RULES[i].0);
        assert_eq!(*rule as usize, i);
        assert_eq!(rule_index(rule.name()), Some(i));
    }
    // A rebuilt run reads every rule at its default through its typed name.
    let content = turnstile_clover::Content::shipped().unwrap();
    let r = fresh(&content);
    assert_eq!(r.rule(Rule::HandSize), 8);
    assert_eq!(r.rule(Rule::JokerSlots), 5);
    assert_eq!(r.rule(Rule::InterestCap), 25);
}

/// The voucher tag waits for the next shop, which then offers two different vouchers; the shop
/// after it offers one again.
#[test]
fn the_voucher_tag_adds_a_voucher_to_the_next_shop() {
    let c = content();
    let mut r = fresh(&c);
    let vouchers = |offers: &[String]| offers.iter().filter(|o| o.starts_with("voucher:")).count();
    run::take_tag(&mut r, &c, "voucher").unwrap();
    assert_eq!(r.tags, ["tag:voucher"], "it waits for the shop");
    run::start_round(&mut r, &c, Blind::Small).unwrap();
    run::end_round(&mut r, &c, Blind::Small, &[]).unwrap();
    let offers = run::enter_shop(&mut r, &c).unwrap();
    assert_eq!(vouchers(&offers), 2);
    let drawn: Vec<&String> = offers
        .iter()
        .filter(|o| o.starts_with("voucher:"))
        .collect();
    assert_ne!(drawn[0], drawn[1], "two different vouchers");
    assert!(r.tags.is_empty(), "spent");
    run::start_round(&mut r, &c, Blind::Big).unwrap();
    run::end_round(&mut r, &c, Blind::Big, &[]).unwrap();
    let offers = run::enter_shop(&mut r, &c).unwrap();
    assert_eq!(vouchers(&offers), 1);
}

/// The boss tag draws the ante's boss again at once, never the same one.
#[test]
fn the_boss_tag_redraws_the_antes_boss() {
    let c = content();
    for seed in 0..20 {
        let mut r = RunState::new(&format!("boss-tag{seed}"), 1, "plain").unwrap();
        run::rebuild(&mut r, &c).unwrap();
        let first = run::choose_boss(&mut r, &c).unwrap();
        run::take_tag(&mut r, &c, "boss").unwrap();
        let now = r.boss.clone().unwrap();
        assert_ne!(now, first, "seed {seed}");
        assert!(now.starts_with("boss:"));
        assert!(r.tags.is_empty(), "spent at once");
    }
}

#[test]
fn skipping_for_the_boss_tag_tells_the_new_boss() {
    use turnstile_clover::game::CloverEvent;
    use turnstile_clover::CloverAction;
    // Skip blinds until a seed draws the boss tag.
    for seed in 0..200 {
        let (content, mut s) = new_game(&format!("skip-boss{seed}"), 1);
        let c = content.content();
        let before = s.run.boss.clone();
        let events = s.apply(c, &CloverAction::SkipBlind).unwrap();
        let took_boss = events
            .iter()
            .any(|e| matches!(e, CloverEvent::BlindSkipped { tag } if tag == "boss"));
        if !took_boss {
            continue;
        }
        assert_ne!(s.run.boss, before);
        assert!(events.iter().any(
            |e| matches!(e, CloverEvent::BossRerolled { boss, .. } if Some(boss) == s.run.boss.as_ref())
        ));
        return;
    }
    panic!("no seed of 200 drew the boss tag");
}

/// A double tag waits for the next tag, which then comes twice; two doubles make it come three
/// times; a placed tag (the coupon) is placed twice.
#[test]
fn the_double_tag_doubles_the_next_tag() {
    let c = content();
    let mut r = fresh(&c);
    let money = r.money;
    run::take_tag(&mut r, &c, "double").unwrap();
    assert_eq!((r.tag_copies, r.money), (1, money), "it waits");
    run::take_tag(&mut r, &c, "windfall").unwrap();
    assert_eq!((r.tag_copies, r.money), (0, money + 20));
    run::take_tag(&mut r, &c, "double").unwrap();
    run::take_tag(&mut r, &c, "double").unwrap();
    run::take_tag(&mut r, &c, "windfall").unwrap();
    assert_eq!((r.tag_copies, r.money), (0, money + 50), "10 three times");
    run::take_tag(&mut r, &c, "double").unwrap();
    run::take_tag(&mut r, &c, "coupon").unwrap();
    assert_eq!(r.tags, ["tag:coupon", "tag:coupon"]);
}

/// Thing ids are typed: each kind round-trips, an index past its kind's span names nothing
/// (rather than a thing of the next kind), and ids outside the three kinds decode to none.
#[test]
fn thing_ids_decode_to_their_kind_and_never_alias() {
    use turnstile_clover::state::Thing;
    use turnstile_effects::{Target, ThingId};
    for thing in [
        Thing::Played(0),
        Thing::Played(4),
        Thing::Held(7),
        Thing::Slot(0),
        Thing::Slot(9),
    ] {
        assert_eq!(Thing::of(thing.target()), Some(thing));
    }
    assert_eq!(Thing::of(Thing::Played(1000).target()), None, "not Held(0)");
    assert_eq!(Thing::of(Thing::Slot(5000).target()), None);
    assert_eq!(Thing::of(Target::Thing(ThingId(999))), None);
    assert_eq!(Thing::of(Target::Thing(ThingId(4000))), None);
    assert_eq!(Thing::of(Target::Seat(turnstile_core::Seat(0))), None);
    // The ids the step lists and the web client read.
    assert_eq!(Thing::Held(3).target(), Target::Thing(ThingId(2003)));
}
