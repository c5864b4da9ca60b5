//! Scoring in the full evaluation order of clover-facts.md, with genre numbers checked by hand.

mod common;

use common::*;
use turnstile_clover::cards::{Edition, Enhancement, Seal};
use turnstile_clover::hands::HandType;
use turnstile_clover::score_hand;
use turnstile_core::determinism::Fixed;

#[test]
fn content_loads_and_reports() {
    let c = content();
    let report = c.report();
    assert!(report.counts["joker"] >= 60, "{:?}", report.counts);
    assert_eq!(report.counts["planet"], 12);
    assert!(report.counts["tarot"] >= 10);
    assert!(report.counts["spectral"] >= 6);
    assert!(report.counts["boss"] >= 10);
    assert!(report.counts["tag"] >= 8);
    assert!(report.counts["voucher"] >= 8);
    assert!(report.counts["deck"] >= 4);
    assert_eq!(report.counts["stake"], 8);
    assert_eq!(report.counts["pack"], 15);
    assert!(c.of_kind("boss").filter(|b| b.showdown).count() >= 3);
    assert!(report.custom_rows <= 3, "{}", report.custom_rows);
    println!("{:?} custom {}", report.counts, report.custom_rows);
}

#[test]
fn plain_pair() {
    // Pair level 1: 10 chips x2; two aces 11+11 -> 32 x 2 = 64.
    let r = score(&content(), &[], "AS AH 3C", "");
    assert_eq!(r.hand, Some(HandType::Pair));
    assert_eq!((r.chips, r.mult, r.score), (32, Fixed::from_int(2), 64));
    assert_eq!(r.scoring, vec![0, 1]);
}

#[test]
fn flush_with_levels_and_jokers_in_order() {
    let c = content();
    let mut run = run_with(&c, &["harlequin", "echo_tide", "rose_pin"]);
    run.levels[HandType::Flush.index()] = 2;
    let played = cards("2H 4H 6H 8H 10H");
    let r = score_hand(&mut run, &c, &played, &[], true).unwrap();
    // Flush level 2: 50 chips, 6 mult. Cards: 30 chips; rose pin +3 mult x5 = +15 -> 21.
    // Jokers: harlequin +4 = 25, echo_tide x2 = 50. 80 x 50 = 4000.
    assert_eq!(r.chips, 80);
    assert_eq!(r.mult, Fixed::from_int(50));
    assert_eq!(r.score, 4000);
    // Steps in order: base first, the last step the echo's xmult.
    assert_eq!(&*r.steps[0].operation, "Base");
    assert_eq!(&*r.steps.last().unwrap().owner, "joker:echo_tide");
}

#[test]
fn per_card_order_chips_mult_xmult_edition() {
    let c = content();
    let mut run = run_with(&c, &[]);
    // A glass, holographic king alone: high card 5 chips x1.
    let card = cards("KS")[0]
        .with(Enhancement::Glass)
        .edition(Edition::Holographic);
    let r = score_hand(&mut run, &c, &[card], &[], true).unwrap();
    // 5+10 chips; mult 1 -> glass x2 = 2 -> holo +10 = 12. 15 x 12 = 180.
    assert_eq!((r.chips, r.mult, r.score), (15, Fixed::from_int(12), 180));
    let ops: Vec<&str> = r.steps.iter().map(|s| &*s.operation).collect();
    assert_eq!(
        ops,
        vec!["Base", "BaseMult", "AddChips", "MulMult", "AddMult"]
    );
}

#[test]
fn red_seal_retriggers_in_place_and_scaling_sees_it() {
    let c = content();
    let mut run = run_with(&c, &["grinning_mask"]);
    let k = cards("KS")[0].sealed(Seal::Red);
    let r = score_hand(&mut run, &c, &[k], &[], true).unwrap();
    // High card: 5 + (10 + 10) chips; mult 1 + 5 + 5 = 11. 25 x 11 = 275.
    assert_eq!((r.chips, r.score), (25, 275));
}

#[test]
fn retrigger_jokers() {
    let c = content();
    // Mirror court retriggers faces: KS KH pair: 10 + 2x(10+10) = 50 chips x 2 = 100.
    assert_eq!(score(&c, &["mirror_court"], "KS KH", "").score, 100);
    // Encore: first card twice more: AS AH -> 10 + 11*3 + 11 = 54 x 2.
    assert_eq!(score(&c, &["encore"], "AS AH", "").score, 108);
    // Undertow: 2s retrigger: 2S 2H -> 10 + 4 + 4 = 18 x 2.
    assert_eq!(score(&c, &["undertow"], "2S 2H", "").score, 36);
}

#[test]
fn held_cards_and_mimic_only_when_effective() {
    let c = content();
    // Crown keeper: x1.5 per held king. Pair of 2s: 14 chips x2; two kings held: x1.5 x1.5 = 4.5.
    let r = score(&c, &["crown_keeper"], "2S 2H", "KS KH 3C");
    assert_eq!(r.mult, Fixed::from_raw(45_000));
    assert_eq!(r.score, 63);
    // With mimic: each king repeats: x1.5^4 = 5.0625 -> 2 * 5.0625 = 10.125.
    let r = score(&c, &["crown_keeper", "mimic"], "2S 2H", "KS KH 3C");
    assert_eq!(r.mult, Fixed::from_raw(101_250));
    // The 3C produced no effect, so mimic did not repeat it: no Retrigger step for card 2002.
    assert_eq!(
        r.steps
            .iter()
            .filter(|s| &*s.operation == "Retrigger")
            .count(),
        2
    );
    // Steel held x1.5 and a red seal repeats it.
    let mut run = run_with(&c, &[]);
    let steel = cards("5D")[0].with(Enhancement::Steel).sealed(Seal::Red);
    let r = score_hand(&mut run, &c, &cards("2S 2H"), &[steel], true).unwrap();
    assert_eq!(r.mult, Fixed::from_raw(45_000));
}

#[test]
fn joker_editions_split_around_the_effect() {
    let c = content();
    let mut run = run_with(&c, &["harlequin"]);
    run.jokers[0].edition = Edition::Polychrome;
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    // (2 + 4) x 1.5 = 9 mult; 32 chips -> 288.
    assert_eq!(r.score, 288);
    run.jokers[0].edition = Edition::Holographic;
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(16));
    let owners: Vec<&str> = r.steps.iter().map(|s| &*s.owner).collect();
    assert_eq!(
        owners[owners.len() - 2..],
        ["edition:holographic", "joker:harlequin"]
    );
}

#[test]
fn joker_on_joker_and_copies() {
    let c = content();
    // collector_card: uncommon jokers x1.5 right after their effect. spiral is uncommon.
    let r = score(&c, &["spiral", "collector_card"], "AS AH", "");
    // mult 2 + 8 + 8 = 18, x1.5 = 27. chips 32 -> 864.
    assert_eq!(r.score, 864);
    // tracing_paper copies harlequin to its right: +4 +4.
    let r = score(&c, &["tracing_paper", "harlequin"], "AS AH", "");
    assert_eq!(r.mult, Fixed::from_int(10));
    // echo_chamber copies the leftmost.
    let r = score(&c, &["harlequin", "echo_chamber"], "AS AH", "");
    assert_eq!(r.mult, Fixed::from_int(10));
}

#[test]
fn detection_rule_jokers() {
    let c = content();
    assert_eq!(
        score(&c, &["four_leaf"], "2S 4S 6S 8S 10H", "").hand,
        Some(HandType::Flush)
    );
    assert_eq!(
        score(&c, &["stepping_stone"], "2S 4H 6C 8D 10S", "").hand,
        Some(HandType::Straight)
    );
    assert_eq!(
        score(&c, &["smudged_pane"], "2H 4D 6H 8D 10H", "").hand,
        Some(HandType::Flush)
    );
    assert_eq!(
        score(&c, &["splash_zone"], "AS AH 3C", "").scoring,
        vec![0, 1, 2]
    );
    // Every card a face: grinning mask +5 on a 2.
    assert_eq!(
        score(&c, &["face_pattern", "grinning_mask"], "2S", "").mult,
        Fixed::from_int(6)
    );
}

#[test]
fn flint_style_boss_halves_base() {
    let c = content();
    let mut run = run_with(&c, &[]);
    run.boss = Some("boss:millstone".into());
    run.boss_active = true;
    turnstile_clover::run::rebuild(&mut run, &c).unwrap();
    // Flush level 1: 35 chips, 4 mult -> 18, 2. Cards 2+4+6+8+10 = 30 -> 48 x 2.
    let r = score_hand(&mut run, &c, &cards("2H 4H 6H 8H 10H"), &[], true).unwrap();
    assert_eq!(r.score, 96);
}

#[test]
fn saturation_is_reported() {
    let c = content();
    let mut run = run_with(&c, &[]);
    run.levels[HandType::FlushFive.index()] = u32::MAX;
    let r = score_hand(&mut run, &c, &cards("AS AS AS AS AS"), &[], true).unwrap();
    assert!(r.saturated);
    assert_eq!(r.score, i64::MAX);
}

#[test]
fn misc_jokers() {
    let c = content();
    let s = |j: &str, p: &str, h: &str| score(&c, &[j], p, h);
    assert_eq!(s("bells_pair", "AS AH", "").mult, Fixed::from_int(10));
    assert_eq!(s("quiet_pair", "AS AH", "").chips, 82);
    assert_eq!(s("echo_pair", "AS AH", "").mult, Fixed::from_int(4));
    assert_eq!(
        s("lady_in_waiting", "AS AH", "QS").mult,
        Fixed::from_int(15)
    );
    assert_eq!(s("painted_face", "KS", "").chips, 45);
    assert_eq!(s("even_keel", "8S 8H", "").mult, Fixed::from_int(10));
    assert_eq!(s("odd_fellow", "9S 9H", "").chips, 10 + 18 + 62);
    assert_eq!(s("ace_scholar", "AS", "").chips, 5 + 11 + 20);
    assert_eq!(s("spiral", "8S", "").mult, Fixed::from_int(9));
    assert_eq!(s("ten_four", "4S", "").chips, 5 + 4 + 10);
    assert_eq!(s("first_impression", "KS KH", "").mult, Fixed::from_int(4));
    assert_eq!(s("royal_guard", "KS QH", "").mult, Fixed::from_int(2));
    assert_eq!(s("half_measure", "AS", "").mult, Fixed::from_int(21));
    assert_eq!(s("assembly", "AS", "").mult, Fixed::from_int(4));
    assert_eq!(s("spare_hands", "AS", "").chips, 5 + 11 + 90);
    assert_eq!(s("nightboard", "AS", "2S 3C").mult, Fixed::from_int(3));
    assert_eq!(s("nightboard", "AS", "2S 3H").mult, Fixed::from_int(1));
    assert_eq!(s("clenched_fist", "AS", "5S 9C").mult, Fixed::from_int(11));
    assert_eq!(s("bouquet", "2S 3H 4C 5D 6S", "").mult, Fixed::from_int(12));
    assert_eq!(s("double_vision", "2C 2H", "").mult, Fixed::from_int(4));
    assert_eq!(s("stone_wall", "AS", "").chips, 5 + 11 + 250);
    assert_eq!(s("ruby_pin", "AD", "").mult, Fixed::from_int(4));
    assert_eq!(s("iron_pin", "AS", "").mult, Fixed::from_int(4));
    assert_eq!(s("oak_pin", "AC", "").mult, Fixed::from_int(4));
    for (id, hand, m) in [
        ("trio", "AS AH AC", 12),
        ("knot", "AS AH 3C 3D", 10),
        ("ladder", "2S 3H 4C 5D 6S", 12),
        ("tide", "2S 4S 6S 8S 10S", 10),
    ] {
        let base = score(&c, &[], hand, "").mult;
        assert_eq!(
            s(&format!("bells_{id}"), hand, "").mult,
            base.saturating_add(Fixed::from_int(m)),
            "{id}"
        );
        assert!(
            s(&format!("quiet_{id}"), hand, "").chips > score(&c, &[], hand, "").chips,
            "{id}"
        );
        assert!(s(&format!("echo_{id}"), hand, "").mult > base, "{id}");
    }
}

#[test]
fn scaling_jokers_grow() {
    let c = content();
    let mut run = run_with(&c, &["sprout", "square_peg", "sprinter", "lantern"]);
    score_hand(&mut run, &c, &cards("2S 3H 4C 5D"), &[], true).unwrap();
    score_hand(&mut run, &c, &cards("2S 3H 4C 5D 6S"), &[], true).unwrap();
    assert_eq!(run.jokers[0].counter, 2);
    assert_eq!(run.jokers[1].counter, 4);
    assert_eq!(run.jokers[2].counter, 15);
}

#[test]
fn lucky_and_glass_roll_on_card_proc_and_loaded_dice_doubles() {
    let c = content();
    let mut hits = 0;
    let mut broke = 0;
    for seed in 0..200 {
        let mut run = turnstile_clover::RunState::new(&format!("s{seed}"), 1, "plain").unwrap();
        turnstile_clover::run::rebuild(&mut run, &c).unwrap();
        let lucky = cards("AS")[0].with(Enhancement::Lucky);
        let glass = cards("AH")[0].with(Enhancement::Glass);
        let r = score_hand(&mut run, &c, &[lucky, glass], &[], true).unwrap();
        if r.steps
            .iter()
            .any(|s| &*s.owner == "enhancement:lucky" && &*s.operation == "AddMult")
        {
            hits += 1;
        }
        broke += r.destroyed.len();
    }
    assert!((20..=60).contains(&hits), "{hits}");
    assert!((25..=80).contains(&broke), "{broke}");
    let mut doubled = 0;
    for seed in 0..200 {
        let mut run = turnstile_clover::RunState::new(&format!("s{seed}"), 1, "plain").unwrap();
        run.jokers.push(c.joker("loaded_dice").unwrap());
        turnstile_clover::run::rebuild(&mut run, &c).unwrap();
        let lucky = cards("AS")[0].with(Enhancement::Lucky);
        let r = score_hand(&mut run, &c, &[lucky], &[], true).unwrap();
        if r.steps
            .iter()
            .any(|s| &*s.owner == "enhancement:lucky" && &*s.operation == "AddMult")
        {
            doubled += 1;
        }
    }
    assert!(doubled > hits, "{doubled} vs {hits}");
}

#[test]
fn stone_cards_always_score_and_debuffs_skip() {
    let c = content();
    let mut run = run_with(&c, &[]);
    let stone = cards("2D")[0].with(Enhancement::Stone);
    let r = score_hand(&mut run, &c, &[cards("AS")[0], stone], &[], true).unwrap();
    assert_eq!(r.scoring, vec![0, 1]);
    assert_eq!(r.chips, 5 + 11 + 50);
    run.boss = Some("boss:thorn".into());
    run.boss_active = true;
    turnstile_clover::run::rebuild(&mut run, &c).unwrap();
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert_eq!(r.chips, 10 + 11);
    run.boss = Some("boss:demand".into());
    turnstile_clover::run::rebuild(&mut run, &c).unwrap();
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    assert!(r.not_allowed);
    assert_eq!(r.score, 0);
}

#[test]
fn plasma_deck_balances() {
    let c = content();
    let mut run = turnstile_clover::RunState::new("p", 1, "plasma").unwrap();
    turnstile_clover::run::rebuild(&mut run, &c).unwrap();
    let r = score_hand(&mut run, &c, &cards("AS AH"), &[], true).unwrap();
    // 32 chips, 2 mult -> 17 and 17 -> 289.
    assert_eq!(r.score, 289);
    assert_eq!(run.rule(turnstile_clover::state::Rule::BlindMultiplier), 2);
}

#[test]
fn same_hand_same_receipt() {
    let c = content();
    let a = score(&c, &["smudge", "harlequin"], "AS AH", "KS");
    let b = score(&c, &["smudge", "harlequin"], "AS AH", "KS");
    assert_eq!(a, b);
}

#[test]
fn every_joker_acts_somewhere() {
    // Each joker either shows a step of its own in one of these probe hands, changes a rule,
    // copies another, or has rows for a later moment (buy, sell, discard, round end) tested in
    // tests/rules.rs.
    let c = content();
    let probes = [
        ("AS AH", "KS QH 5C"),
        ("2S 3H 4C 5D 6S", "KS"),
        ("2H 4H 6H 8H 10H", "2C"),
        ("KS KH KC 4D 4S", "QS"),
        ("AC AD AH AS 10C", "2S"),
        ("3S 3H 9C 9D", "8S"),
        ("JS", "QS KD"),
        ("2H 3H 4H 5H 6H", "9C"),
        ("AS 2H 3C 4D 5S", "KS"),
        ("6S", "QS"),
    ];
    // Rows of other moments are tested where those moments happen (tests/breadth.rs).
    let later = [
        "OnSell",
        "OnBuy",
        "OnDiscard",
        "OnRoundEnd",
        "OnRoundStart",
        "OnUse",
        "OnBossDefeated",
        "OnPackOpened",
        "OnJokerSold",
        "OnRoundLost",
        "OnCardAdded",
    ];
    for joker in c.of_kind("joker") {
        let owner = format!("joker:{}", joker.id);
        if let Some(copies) = joker.copies {
            let order: [&str; 2] = match copies {
                turnstile_clover::state::Copies::Leftmost => ["harlequin", &joker.id],
                _ => [&joker.id, "harlequin"],
            };
            let r = score(&c, &order, "AS AH", "");
            assert_eq!(r.mult, Fixed::from_int(10), "{owner}");
            continue;
        }
        let base = run_with(&c, &[]);
        let with = run_with(&c, &[&joker.id]);
        if with.rules != base.rules {
            continue;
        }
        let rows: Vec<_> = c
            .effects
            .rows()
            .iter()
            .filter(|r| r.owner.as_str() == owner)
            .collect();
        assert!(!rows.is_empty(), "{owner} has no rows");
        if rows.iter().all(|r| later.contains(&r.trigger.name())) {
            continue;
        }
        let mut acted = false;
        for (played, held) in probes {
            for i in 0..8 {
                // Partners: an uncommon joker (for jokers acting on jokers), a held-card effect (for
                // held retriggers).
                let mut run = run_with(&c, &[&joker.id, "spiral", "crown_keeper"]);
                run.discards_left = 0;
                // Every other try is the round's last hand (jokers of the last hand).
                if i % 2 == 1 {
                    run.hands_left = 0;
                }
                // A deck with some of everything the `deck.*` variables count.
                run.scoring.deck = turnstile_clover::state::DeckCounts {
                    left: 10,
                    steel: 1,
                    stone: 1,
                    nines: 1,
                    enhanced: 16,
                    size: 40,
                };
                // Half the tries lead with a gold card (jokers of scored gold cards).
                let text = played;
                let mut played = cards(text);
                if i % 4 >= 2 {
                    played[0] = played[0].with(Enhancement::Gold);
                }
                let r = score_hand(&mut run, &c, &played, &cards(held), true).unwrap();
                acted |= r.steps.iter().any(|s| &*s.owner == owner.as_str());
                // Chance rows: try other seeds.
                run.streams =
                    turnstile_clover::RunState::new(&format!("{owner}{text}{i}"), 1, "plain")
                        .unwrap()
                        .streams;
                let r = score_hand(&mut run, &c, &played, &cards(held), true).unwrap();
                acted |= r.steps.iter().any(|s| &*s.owner == owner.as_str());
            }
        }
        assert!(acted, "{owner} never acted in the probe hands");
    }
}

#[test]
fn last_stand_and_lantern() {
    let c = content();
    let mut run = run_with(&c, &["last_stand"]);
    run.discards_left = 0;
    let r = score_hand(&mut run, &c, &cards("AS"), &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(16));
    let mut run = run_with(&c, &["lantern"]);
    score_hand(&mut run, &c, &cards("AS"), &[], true).unwrap();
    let r = score_hand(&mut run, &c, &cards("AS"), &[], true).unwrap();
    assert_eq!(r.mult, Fixed::from_int(3));
}
