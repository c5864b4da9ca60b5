//! The score calculator's JSON format (docs/clover.md): the documented example scores as
//! documented, and bad input is refused with stable codes.

mod common;

use turnstile_clover::calculator::{render_text, score_json_text};

#[test]
fn the_documented_example_scores_as_documented() {
    let c = common::content();
    let text = include_str!("../examples/flush.json");
    let (_, receipt) = score_json_text(text, &c).unwrap();
    assert_eq!((receipt.chips, receipt.score), (111, 29220));
    assert_eq!(receipt.steps.len(), 29);
    let out = render_text(&receipt);
    assert!(out.starts_with("hand: flush\n"));
    assert!(out.contains("28. edition:polychrome row 1 OnJokerDone MulMult: x175.5 -> x263.25"));
    let json = serde_json::to_value(&receipt).unwrap();
    assert_eq!(json["mult"], 2_632_500);
}

#[test]
fn bad_input_has_stable_codes() {
    let c = common::content();
    let code = |t: &str| score_json_text(t, &c).unwrap_err().code;
    assert_eq!(code("{"), "bad_json");
    assert_eq!(
        code(r#"{"played":[{"rank":"1","suit":"spades"}]}"#),
        "bad_rank"
    );
    assert_eq!(
        code(r#"{"played":[{"rank":"2","suit":"spades"}],"jokers":[{"id":"nobody"}]}"#),
        "unknown_joker"
    );
    assert_eq!(
        code(r#"{"played":[{"rank":"2","suit":"spades"}],"levels":{"royal":2}}"#),
        "unknown_hand"
    );
    assert_eq!(
        code(r#"{"played":[{"rank":"2","suit":"spades"}],"boss":"nobody"}"#),
        "unknown_boss"
    );
    let six = r#"{"played":[{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"}]}"#;
    assert_eq!(code(six), "too_many_cards");
}

/// One pair of eights, scored with `extra` fields merged into the description.
fn pair_with(extra: serde_json::Value) -> serde_json::Value {
    let mut input = serde_json::json!({
        "played": [{"rank": "8", "suit": "spades"}, {"rank": "8", "suit": "hearts"}]
    });
    for (k, v) in extra.as_object().unwrap() {
        input[k] = v.clone();
    }
    input
}

fn score(input: &serde_json::Value) -> turnstile_clover::score::ScoreReceipt {
    let c = common::content();
    score_json_text(&input.to_string(), &c).unwrap().1
}

fn refusal(input: &serde_json::Value) -> turnstile_clover::calculator::CalcError {
    let c = common::content();
    score_json_text(&input.to_string(), &c).unwrap_err()
}

#[test]
fn hand_names_have_one_spelling_in_text_json_and_levels() {
    let three = serde_json::json!({"played": [
        {"rank": "9", "suit": "spades"}, {"rank": "9", "suit": "hearts"}, {"rank": "9", "suit": "clubs"}
    ]});
    let base = score(&three);
    assert!(render_text(&base).starts_with("hand: three_of_a_kind\n"));
    assert_eq!(
        serde_json::to_value(&base).unwrap()["hand"],
        "three_of_a_kind"
    );
    let mut levelled = three.clone();
    levelled["levels"] = serde_json::json!({"three_of_a_kind": 3});
    assert!(score(&levelled).score > base.score, "the level is read");
    // The JSON spelling of earlier releases is refused, naming the one spelling.
    levelled["levels"] = serde_json::json!({"threeOfAKind": 3});
    let e = refusal(&levelled);
    assert_eq!(e.code, "unknown_hand");
    assert!(e.message.contains("`three_of_a_kind`"), "{}", e.message);
}

#[test]
fn an_error_code_is_printed_once() {
    let six =
        serde_json::json!({"played": vec![serde_json::json!({"rank": "2", "suit": "spades"}); 6]});
    let e = refusal(&six);
    assert_eq!(e.code, "too_many_cards");
    assert_eq!(e.to_string().matches("too_many_cards").count(), 1, "{e}");
}

#[test]
fn an_empty_hand_is_an_error_not_nothing() {
    let e = refusal(&serde_json::json!({"played": []}));
    assert_eq!(e.code, "no_cards_played");
}

#[test]
fn omitted_fields_fire_no_joker_by_accident() {
    // Last Stand gives +15 mult when no discards remain: an omitted `discardsLeft` is the
    // deck's full discards, so it stays quiet; an explicit 0 fires it.
    let quiet = score(&pair_with(
        serde_json::json!({"jokers": [{"id": "last_stand"}]}),
    ));
    let fired = score(&pair_with(
        serde_json::json!({"jokers": [{"id": "last_stand"}], "discardsLeft": 0}),
    ));
    assert_eq!(
        fired.mult.raw() - quiet.mult.raw(),
        15 * 10_000,
        "mult in ten-thousandths"
    );
    // Spare Hands gives +30 chips per remaining discard: the default is the plain deck's 3.
    let spare = score(&pair_with(
        serde_json::json!({"jokers": [{"id": "spare_hands"}]}),
    ));
    let plain = score(&pair_with(serde_json::json!({})));
    assert_eq!(spare.chips - plain.chips, 90);
}

#[test]
fn times_played_feeds_the_jokers_that_count_them() {
    // Lantern: +mult equal to the times this poker hand was played (this one included).
    let first = score(&pair_with(
        serde_json::json!({"jokers": [{"id": "lantern"}]}),
    ));
    let fifth = score(&pair_with(
        serde_json::json!({"jokers": [{"id": "lantern"}], "timesPlayed": {"pair": 4}}),
    ));
    assert_eq!(fifth.mult.raw() - first.mult.raw(), 4 * 10_000);
    let e = refusal(&pair_with(serde_json::json!({"timesPlayed": {"pairs": 1}})));
    assert_eq!(e.code, "unknown_hand");
}

#[test]
fn unknown_ids_name_the_nearest_valid_ones() {
    let e = refusal(&pair_with(
        serde_json::json!({"jokers": [{"id": "harlequinn"}]}),
    ));
    assert_eq!(e.code, "unknown_joker");
    assert!(
        e.message.contains("did you mean `harlequin`"),
        "{}",
        e.message
    );
    let e = refusal(&pair_with(serde_json::json!({"boss": "milstone"})));
    assert_eq!(e.code, "unknown_boss");
    assert!(e.message.contains("`millstone`"), "{}", e.message);
    let e = refusal(&pair_with(
        serde_json::json!({"consumables": ["planet:pebbel"]}),
    ));
    assert_eq!(e.code, "unknown_consumable");
    assert!(e.message.contains("`planet:pebble`"), "{}", e.message);
    let e = refusal(&pair_with(
        serde_json::json!({"vouchers": ["nobody_at_all"]}),
    ));
    assert_eq!(e.code, "unknown_voucher");
    // Held consumables are accepted by their catalog key.
    score(&pair_with(
        serde_json::json!({"consumables": ["planet:pebble"]}),
    ));
}

#[test]
fn a_card_marked_debuffed_scores_no_chips() {
    let plain = score(&pair_with(serde_json::json!({})));
    let mut input = pair_with(serde_json::json!({}));
    input["played"][1]["debuffed"] = serde_json::json!(true);
    let marked = score(&input);
    assert_eq!(
        plain.chips - marked.chips,
        8,
        "the debuffed eight adds none of its 8 chips"
    );
}

#[test]
fn a_suit_debuffing_boss_debuffs_wild_cards_and_they_count_for_no_suit() {
    // A Wild eight of hearts under The Bramble (clubs debuffed): Wild is every suit, clubs
    // included, so it is debuffed and scores none of its chips.
    let mut input = pair_with(serde_json::json!({}));
    input["played"][1]["enhancement"] = serde_json::json!("wild");
    let free = score(&input);
    input["boss"] = serde_json::json!("bramble");
    let under_boss = score(&input);
    assert_eq!(free.chips - under_boss.chips, 8, "{:?}", under_boss.steps);
    // A plain eight of hearts is not a club: the boss leaves it alone.
    let plain = score(&pair_with(serde_json::json!({"boss": "bramble"})));
    assert_eq!(plain.chips, free.chips);
}

/// The round's card and suit change a score (the effigy's and the relic's targets), so the
/// input names them; omitted, they are the ace of spades and spades.
#[test]
fn the_rounds_card_and_suit_are_input() {
    let effigy = serde_json::json!({"jokers": [{"id": "effigy"}, {"id": "relic"}]});
    // 8S 8H, a pair of eights: 26 chips x2. Defaults (the ace of spades, spades): only the
    // relic's suit matches the 8S: x3.
    let r = score(&pair_with(effigy.clone()));
    assert_eq!((r.chips, r.mult.floor_int()), (26, 3));
    // The round's card the eight of hearts, the suit hearts: the 8H is both, x2 x1.5.
    let mut input = pair_with(effigy.clone());
    input["roundCard"] = serde_json::json!({"rank": "8", "suit": "hearts"});
    input["roundSuit"] = serde_json::json!("hearts");
    assert_eq!(score(&input).mult.floor_int(), 6);
    // Neither eight: the card a king of clubs, the suit diamonds.
    input["roundCard"] = serde_json::json!({"rank": "K", "suit": "clubs"});
    input["roundSuit"] = serde_json::json!("diamonds");
    assert_eq!(score(&input).mult.floor_int(), 2);
    input["roundCard"] = serde_json::json!({"rank": "1", "suit": "clubs"});
    let e = refusal(&input);
    assert_eq!(e.code, "bad_rank");
    assert!(e.message.starts_with("roundCard:"), "{}", e.message);
}
