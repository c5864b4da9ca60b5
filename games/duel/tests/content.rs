//! Content: the bundled content loads; every broken bundle under tests/fixtures/<case>/ (the
//! bundled content with those files replaced) is refused with exactly the problem lines of
//! its `expected.txt`, each naming file and row and column, or pointer
//! (`TURNSTILE_BLESS=1` rewrites them); content survives a serde round trip with the same
//! revision; the phase-sequence schema mirror reads every preset as the phases crate does.

mod common;

use std::path::{Path, PathBuf};

use turnstile_core::Game;
use turnstile_duel::{content::bundled_source, schema::PhaseSequenceSchema, Duel, DuelContent};
use turnstile_phases::PhaseSequenceDefinition;

fn files_under(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            files_under(&path, &format!("{prefix}{name}/"), out);
        } else if name != "expected.txt" {
            out.push((format!("{prefix}{name}"), path));
        }
    }
}

#[test]
fn the_bundled_content_loads_with_thirty_cards_and_no_custom_rows() {
    let b = common::bundle();
    assert!(b.content.cards.len() >= 30);
    assert_eq!(b.content.effects.table.custom_row_count(), 0);
    assert_eq!(b.content.phases.definitions.len(), 3);
}

#[test]
fn broken_bundles_are_refused_with_every_problem_located() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 6);
    let bless = std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1");
    for case in cases {
        let mut source = bundled_source();
        let mut files = Vec::new();
        files_under(&case, "", &mut files);
        for (path, file) in files {
            source.insert(path, std::fs::read(file).unwrap());
        }
        let problems = Duel::load_content(&source).expect_err("a broken bundle must be refused");
        let mut text: String = problems.iter().map(|p| format!("{p}\n")).collect();
        text = text.replace('\r', "");
        let expected = case.join("expected.txt");
        if bless {
            std::fs::write(&expected, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&expected).unwrap_or_default();
        assert_eq!(committed, text, "{}", case.display());
    }
}

#[test]
fn content_round_trips_through_serde_with_the_same_revision() {
    let b = common::bundle();
    let text = serde_json::to_string(&b.content).unwrap();
    let back: DuelContent = serde_json::from_str(&text).unwrap();
    assert_eq!(back, b.content);
    assert_eq!(back.revision, b.content.revision);
    assert_eq!(
        back.revision, b.revision,
        "the pinned revision is the bundle's"
    );
}

#[test]
fn mirror_reads_every_preset_as_phases_does() {
    for (_, text) in turnstile_phases::presets::PRESETS {
        let real: PhaseSequenceDefinition = serde_json::from_str(text).unwrap();
        let mirror: PhaseSequenceSchema = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_value(&real).unwrap(),
            serde_json::to_value(&mirror).unwrap()
        );
    }
}

/// Duel publishes the engine's three presets as its default content: its copies of
/// `classic-style` and `priority-window` under `content/phases/` are the phases crate's files,
/// byte for byte, so a preset fixed there cannot silently drift here. Its `hearthstone-style`
/// is the engine's plus exactly the comeback branch (docs/duel.md): every phase and edge of the
/// preset, unchanged but for the `draw-to-main` priority made explicit, and the `comeback`
/// phase with the `draw-to-comeback` edge that outranks it.
#[test]
fn the_default_content_publishes_the_three_presets() {
    let source = bundled_source();
    for (file, text) in turnstile_phases::presets::PRESETS {
        let path = format!("phases/{file}");
        let shipped = source
            .files
            .get(&path)
            .unwrap_or_else(|| panic!("{path} is not in the default content"));
        if file == "hearthstone-style.json" {
            continue;
        }
        assert_eq!(
            shipped.as_slice(),
            text.as_bytes(),
            "{path} differs from the preset"
        );
    }
    let bundle = common::bundle();
    for (file, _) in turnstile_phases::presets::PRESETS {
        let id = file.trim_end_matches(".json");
        assert!(
            bundle.content.phases.catalog.get(id).is_some(),
            "{id} is not published"
        );
    }
    let engine: PhaseSequenceDefinition =
        serde_json::from_str(turnstile_phases::presets::HEARTHSTONE_STYLE).unwrap();
    let duel: PhaseSequenceDefinition =
        serde_json::from_slice(&source.files["phases/hearthstone-style.json"]).unwrap();
    let extra: Vec<&str> = duel
        .phases
        .iter()
        .map(|p| p.phase_id.as_str())
        .filter(|id| !engine.phases.iter().any(|p| p.phase_id == *id))
        .collect();
    assert_eq!(extra, ["comeback"]);
    for phase in &engine.phases {
        let ours = duel
            .phases
            .iter()
            .find(|p| p.phase_id == phase.phase_id)
            .unwrap_or_else(|| panic!("phase {} is gone", phase.phase_id));
        assert_eq!(ours.allowed_actions, phase.allowed_actions);
        assert_eq!(ours.entry_effects, phase.entry_effects);
        for edge in &phase.edges {
            assert!(
                ours.edges.iter().any(|e| e.edge_id == edge.edge_id
                    && e.target_phase_id == edge.target_phase_id
                    && e.trigger == edge.trigger
                    && e.priority == edge.priority
                    && e.condition.is_none()),
                "edge {} changed",
                edge.edge_id
            );
        }
        let added: Vec<&str> = ours
            .edges
            .iter()
            .filter(|e| !phase.edges.iter().any(|x| x.edge_id == e.edge_id))
            .map(|e| e.edge_id.as_str())
            .collect();
        let want: &[&str] = if phase.phase_id == "draw" {
            &["draw-to-comeback"]
        } else {
            &[]
        };
        assert_eq!(added, want, "phase {}", phase.phase_id);
    }
}

/// Appends `text` to the file at `path` of `source`, on a line of its own.
fn append(source: &mut turnstile_core::BundleSource, path: &str, text: &str) {
    let mut bytes = source.files[path].clone();
    if !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(text.as_bytes());
    source.insert(path, bytes);
}

/// An effect row of `effects/cards.tsv` from `(column, value)` pairs, the other cells empty,
/// in the file's own column order.
fn effect_row(source: &turnstile_core::BundleSource, cells: &[(&str, &str)]) -> String {
    let text = std::str::from_utf8(&source.files["effects/cards.tsv"]).unwrap();
    let header = text.lines().next().unwrap();
    let row: Vec<&str> = header
        .split('\t')
        .map(|column| {
            cells
                .iter()
                .find(|(c, _)| *c == column)
                .map_or("", |(_, v)| *v)
        })
        .collect();
    format!("{}\n", row.join("\t"))
}

/// The issue's "done when": a designer adds a card (a row, its effect rows, a deck entry) and a
/// phase sequence (a file and its manifest line), and a match chooses that sequence in its
/// config — data alone, no code — and the card plays as its rows say under it.
#[test]
fn a_designer_adds_a_card_and_a_phase_sequence_by_editing_data_alone() {
    let mut source = bundled_source();
    append(
        &mut source,
        "cards.tsv",
        "frost_nova\tFrost Nova\t4\tSpell\t\t\tspell response\tDeal 2 damage and stun the opponent.\n",
    );
    let damage = effect_row(
        &source,
        &[
            ("owner", "card:frost_nova"),
            ("order", "0"),
            ("trigger", "OnCardPlayed"),
            ("condition.$type", "Always"),
            ("operation.$type", "Damage"),
            ("operation.amount", "2"),
            ("scope", "Opponent"),
            ("duration", "Permanent"),
        ],
    );
    let stun = effect_row(
        &source,
        &[
            ("owner", "card:frost_nova"),
            ("order", "1"),
            ("trigger", "OnCardPlayed"),
            ("condition.$type", "Always"),
            ("operation.$type", "ApplyStatus"),
            ("operation.status", "stun"),
            ("operation.stacks", "1"),
            ("operation.durationTurns", "1"),
            ("scope", "Opponent"),
            ("duration", "Permanent"),
        ],
    );
    append(&mut source, "effects/cards.tsv", &(damage + &stun));
    let mut decks: serde_json::Value = serde_json::from_slice(&source.files["decks.json"]).unwrap();
    decks[0]["cards"]
        .as_array_mut()
        .unwrap()
        .push("frost_nova".into());
    source.insert("decks.json", serde_json::to_vec_pretty(&decks).unwrap());
    let quick =
        turnstile_phases::presets::CLASSIC_STYLE.replace("\"classic-style\"", "\"quick-style\"");
    source.insert("phases/quick-style.json", quick.into_bytes());
    let mut manifest: serde_json::Value =
        serde_json::from_slice(&source.files["bundle.json"]).unwrap();
    manifest["files"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(
            { "id": "phases-quick-style", "kind": "phases", "path": "phases/quick-style.json" }
        ));
    source.insert("bundle.json", serde_json::to_vec_pretty(&manifest).unwrap());

    let content = Duel::load_content(&source).unwrap_or_else(|p| panic!("{p:#?}"));
    assert_eq!(content.phases.definitions.len(), 4);
    let config: turnstile_duel::DuelConfig =
        serde_json::from_str(r#"{ "phaseSequence": "quick-style" }"#).unwrap();
    let mut state = Duel::setup(
        &content,
        turnstile_core::MatchSetup {
            config: &config,
            seed: "designer",
            seats: 2,
        },
    )
    .unwrap();
    assert_eq!(state.phase.sequence_id, "quick-style");
    common::give(&mut state, 0, &["frost_nova"], 4);
    common::apply(&content, &mut state, 0, common::play(0)).unwrap();
    assert_eq!(state.seats[1].health, 28);
    assert_eq!(
        state.statuses.stacks(
            turnstile_effects::Target::Seat(turnstile_core::Seat(1)),
            "stun"
        ),
        1
    );

    // And a config naming a sequence the content does not publish is refused at setup,
    // naming the ones it does.
    let config: turnstile_duel::DuelConfig =
        serde_json::from_str(r#"{ "phaseSequence": "quick-stlye" }"#).unwrap();
    let refused = Duel::setup(
        &content,
        turnstile_core::MatchSetup {
            config: &config,
            seed: "designer",
            seats: 2,
        },
    )
    .unwrap_err();
    assert_eq!(refused.code, "unknown_sequence");
    assert!(
        refused.message.contains("quick-style"),
        "{}",
        refused.message
    );
}

/// Duel's committed JSON Schemas (docs/schemas/) are its types' (the CLI's `schemas` test checks
/// every game's; this one is Duel's alone, so it runs with the game's tests).
/// `TURNSTILE_BLESS=1` rewrites them.
#[test]
fn duels_committed_schemas_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas");
    for entry in turnstile_duel::SCHEMAS {
        let document = entry.document();
        let path = dir.join(document.file_name());
        if std::env::var_os("TURNSTILE_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, document.to_text()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap();
        assert!(
            document.is_current(&committed),
            "{} is stale: TURNSTILE_BLESS=1 cargo test -p turnstile-duel --test content",
            path.display()
        );
    }
}
