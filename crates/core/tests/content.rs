//! Content bundle manifests: every problem is reported, each with its file and JSON pointer.

use turnstile_core::content::{revision_of, BundleManifest, BundleSource, ContentBundle};
use turnstile_core::Location;

fn source(manifest: &str, files: &[&str]) -> BundleSource {
    let mut s = BundleSource::new();
    s.insert("bundle.json", manifest.as_bytes().to_vec());
    for f in files {
        s.insert(*f, b"x".to_vec());
    }
    s
}

/// Reads a manifest and renders its problems as `pointer code` lines.
fn check(manifest: &str, files: &[&str], expected: &[&str]) {
    let got = match BundleManifest::read(&source(manifest, files), Some("sokoban"), &["levels"]) {
        Ok(_) => Vec::new(),
        Err(problems) => problems
            .iter()
            .map(|p| {
                assert_eq!(p.file, "bundle.json");
                format!("{} {}", p.at, p.code)
            })
            .collect(),
    };
    assert_eq!(got, expected, "manifest {manifest}");
}

#[test]
fn a_valid_manifest_reads() {
    check(
        r#"{"game":"sokoban","files":[{"id":"a","kind":"levels","path":"levels/a.xsb"}]}"#,
        &["levels/a.xsb"],
        &[],
    );
}

#[test]
fn every_manifest_problem_is_reported_at_once() {
    check(
        r#"{"game":"chess","files":[
            {"id":"a","kind":"levels","path":"a.xsb"},
            {"id":"a","kind":"cards","path":"../b.xsb"},
            {"id":"","kind":"levels","path":"missing.xsb"}]}"#,
        &["a.xsb"],
        &[
            "#/game wrong_game",
            "#/files/1/id duplicate_id",
            "#/files/1/kind unknown_kind",
            "#/files/1/path bad_path",
            "#/files/2/id empty_id",
            "#/files/2/path missing_file",
        ],
    );
}

#[test]
fn malformed_json_is_reported_with_line_and_column() {
    let err = BundleManifest::read(&source("{\n  \"game\": ,", &[]), None, &[]).unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].code, "malformed_json");
    assert_eq!(
        err[0].at,
        Location::LineColumn {
            line: 2,
            column: 11
        }
    );
}

#[test]
fn unknown_manifest_fields_are_rejected() {
    let err = BundleManifest::read(
        &source(r#"{"game":"x","files":[],"extra":1}"#, &[]),
        None,
        &[],
    )
    .unwrap_err();
    assert_eq!(err[0].code, "invalid_value");
    assert!(err[0].message.contains("extra"), "{}", err[0].message);
}

#[test]
fn a_missing_manifest_or_non_utf8_file_is_a_problem() {
    let err = BundleManifest::read(&BundleSource::new(), None, &[]).unwrap_err();
    assert_eq!(
        (err[0].file.as_str(), err[0].code.as_str()),
        ("bundle.json", "missing_file")
    );
    let mut s = BundleSource::new();
    s.insert("bundle.json", vec![0xff, 0xfe]);
    assert_eq!(
        BundleManifest::read(&s, None, &[]).unwrap_err()[0].code,
        "not_utf8"
    );
}

#[test]
fn the_revision_covers_meaning_not_formatting() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct C {
        b: u32,
        a: Vec<String>,
    }
    let one: C = serde_json::from_str(r#"{"a":["x"],"b":1}"#).unwrap();
    let two: C = serde_json::from_str("{ \"b\" : 1,\n \"a\" : [ \"x\" ] }").unwrap();
    let three: C = serde_json::from_str(r#"{"a":["x"],"b":2}"#).unwrap();
    let r1 = revision_of("g", &one).unwrap();
    assert_eq!(r1, revision_of("g", &two).unwrap());
    assert_ne!(r1, revision_of("g", &three).unwrap());
    assert_ne!(r1, revision_of("h", &one).unwrap());
    assert_eq!(ContentBundle::new("g", one).unwrap().revision, r1);
    // The revision is the fingerprint of {"content":…,"game":…} in canonical form.
    assert_eq!(
        r1,
        turnstile_core::Fingerprint::of_bytes(br#"{"content":{"a":["x"],"b":1},"game":"g"}"#)
    );
}
