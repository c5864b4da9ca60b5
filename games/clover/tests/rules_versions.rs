//! Clover's rules versions (docs/clover.md, "Rules versions"): a run written under rules this
//! build retired is refused with `rules_retired` before anything of it is re-executed — the
//! fixture is a real file of the release before version 1, whose bundle names two handlers
//! that release had and this one does not — a version-1 file is refused the same way rather
//! than reported as tampered with, and a run written today records its version and verifies.

use std::sync::Arc;

use turnstile_clover::{Clover, CloverConfig, CloverContent};
use turnstile_core::{ContentBundle, Game};
use turnstile_runtime::{verify, Match, MatchSpec, ReplayError, ReplayFile, SeatSpec};

const RULES0: &str = include_str!("fixtures/rules0-plain.replay.json");
/// A golden run of this wave under version 1 (commit c3715a6), whose states list every rule.
const RULES1: &str = include_str!("fixtures/rules1-plain.replay.json");

#[test]
fn a_run_of_retired_rules_is_refused_with_its_version_not_as_a_broken_bundle() {
    let file = ReplayFile::parse(RULES0).unwrap();
    assert_eq!(file.rules, 0, "files before version 1 carry no version");
    let e = verify::<Clover>(&file).unwrap_err();
    assert_eq!(
        e,
        ReplayError::RulesRetired {
            game: "clover".into(),
            file: 0,
            oldest: Clover::OLDEST_RULES,
            current: Clover::RULES_VERSION,
        }
    );
    assert_eq!(e.code(), "rules_retired");
    assert!(e.to_string().contains("rules version 0"), "{e}");
}

#[test]
fn without_the_version_check_the_same_file_fails_on_its_bundle() {
    // Why the check runs first: the release before version 1 shipped rows this one refuses,
    // so the bundle alone would have blamed the file ("invalid_bundle").
    let mut file = ReplayFile::parse(RULES0).unwrap();
    file.rules = Clover::RULES_VERSION;
    assert_eq!(
        verify::<Clover>(&file).unwrap_err().code(),
        "invalid_bundle"
    );
}

#[test]
fn a_run_written_today_records_its_rules_and_verifies() {
    let content = CloverContent::shipped().unwrap();
    let bundle = Arc::new(ContentBundle::new("clover", content).unwrap());
    let spec = MatchSpec {
        config: CloverConfig {
            stake: 1,
            deck: "plain".into(),
        },
        seed: "rules".into(),
        seats: vec![SeatSpec::human()],
        tick_rate: 1,
    };
    let m = Match::<Clover>::new(bundle, spec).unwrap();
    let text = ReplayFile::of_match(&m).unwrap().to_json().unwrap();
    let file = ReplayFile::parse(&text).unwrap();
    assert_eq!(file.rules, 2);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["rules"], 2, "the file names its version");
    assert_eq!(verify::<Clover>(&file).unwrap().divergence, None);
    let mut newer = file;
    newer.rules = Clover::RULES_VERSION + 1;
    assert_eq!(
        verify::<Clover>(&newer).unwrap_err().code(),
        "rules_unknown"
    );
}

/// Version 1 wrote every rule's value, so each rule added since changed a run's first
/// fingerprint: without the version check the file "diverges" at its first receipt, which
/// would accuse an honest file; with it the file is refused as retired, naming version 1.
#[test]
fn a_version_1_run_is_retired_not_called_diverged() {
    let file = ReplayFile::parse(RULES1).unwrap();
    assert_eq!(file.rules, 1);
    let e = verify::<Clover>(&file).unwrap_err();
    assert_eq!(e.code(), "rules_retired");
    assert!(e.to_string().contains("rules version 1"), "{e}");
    let mut unchecked = file;
    unchecked.rules = Clover::RULES_VERSION;
    let report = verify::<Clover>(&unchecked).unwrap();
    assert!(
        report.divergence.is_some(),
        "its states list every rule of its day"
    );
}

/// From version 2 a run writes only the rules that differ from their defaults, by name: a
/// fresh run's rules encode as what its deck and stake changed, the encoding reads back to
/// the same values, and the version-1 list form still reads (missing rules at their defaults).
#[test]
fn rules_encode_as_what_differs_from_the_defaults() {
    use turnstile_clover::state::{Rule, RULES};
    let mut run = turnstile_clover::RunState::new("encoding", 1, "plain").unwrap();
    let json = serde_json::to_value(&run).unwrap();
    assert_eq!(
        json["rules"],
        serde_json::json!({}),
        "a bare run changes no rule"
    );
    let at = Rule::HandSize as usize;
    run.rules[at] += 2;
    let json = serde_json::to_value(&run).unwrap();
    assert_eq!(
        json["rules"],
        serde_json::json!({ "hand_size": RULES[at].1 + 2 })
    );
    let back: turnstile_clover::RunState = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.rules, run.rules);
    // The list form of version 1: the first values given, the rest at their defaults.
    let mut old = json.clone();
    old["rules"] = serde_json::json!([9]);
    let back: turnstile_clover::RunState = serde_json::from_value(old).unwrap();
    assert_eq!(back.rule(Rule::HandSize), 9);
    assert_eq!(back.rule(Rule::VoucherSlots), 1);
    // A name no rule has is refused.
    let mut bad = json;
    bad["rules"] = serde_json::json!({ "hand_sise": 9 });
    let e = serde_json::from_value::<turnstile_clover::RunState>(bad).unwrap_err();
    assert!(e.to_string().contains("hand_sise"), "{e}");
}
