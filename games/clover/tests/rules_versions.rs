//! Clover's rules versions (docs/clover.md, "Rules versions"): a run written under rules this
//! build retired is refused with `rules_retired` before anything of it is re-executed — the
//! fixture is a real file of the release before version 1, whose bundle names two handlers
//! that release had and this one does not — and a run written today records its version and
//! verifies.

use std::sync::Arc;

use turnstile_clover::{Clover, CloverConfig, CloverContent};
use turnstile_core::{ContentBundle, Game};
use turnstile_runtime::{verify, Match, MatchSpec, ReplayError, ReplayFile, SeatSpec};

const RULES0: &str = include_str!("fixtures/rules0-plain.replay.json");

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
    assert_eq!(file.rules, 1);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["rules"], 1, "the file names its version");
    assert_eq!(verify::<Clover>(&file).unwrap().divergence, None);
    let mut newer = file;
    newer.rules = Clover::RULES_VERSION + 1;
    assert_eq!(
        verify::<Clover>(&newer).unwrap_err().code(),
        "rules_unknown"
    );
}
