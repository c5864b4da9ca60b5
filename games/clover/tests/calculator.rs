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
        code(r#"{"played":[],"jokers":[{"id":"nobody"}]}"#),
        "unknown_joker"
    );
    assert_eq!(
        code(r#"{"played":[],"levels":{"royal":2}}"#),
        "unknown_hand"
    );
    assert_eq!(code(r#"{"played":[],"boss":"nobody"}"#), "unknown_boss");
    let six = r#"{"played":[{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"},{"rank":"2","suit":"spades"}]}"#;
    assert_eq!(code(six), "too_many_cards");
}
