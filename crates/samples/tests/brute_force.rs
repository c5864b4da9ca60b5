//! The brute-force test of hidden information (docs/commitments.md): for every sample game, what
//! every seat and the spectator receive — receipts, timelines, the redacted replay, previews,
//! views — is attacked by trying every value of every redacted field against every fingerprint
//! the viewer holds. Format 2 must give nothing away; the same attack run against the format-1
//! fixtures of the previous release (`tests/fixtures/format1/`) must recover that release's
//! leaks, which shows the attack bites.
//!
//! The attack knows no game: it finds what was redacted by walking the JSON of the full receipt
//! beside the viewer's copy, whatever the event kind, and takes the values a field may hold from
//! every value the same key holds anywhere in the game's full receipts and states (every card
//! id; for a list, every value per element).

use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use turnstile_core::{Fingerprint, Seat, Viewer};
use turnstile_runtime::{
    ErasedCommand, ErasedMatch, ErasedSpec, GameRegistry, ReplayEntry, SeatKind, SeatSpec,
};

/// Combinations tried per receipt at most (the true one always among them).
const MAX_COMBINATIONS: usize = 4096;

/// The values each JSON key takes anywhere: the attacker's dictionary.
#[derive(Default)]
struct Dictionary {
    by_key: BTreeMap<String, BTreeSet<String>>,
}

impl Dictionary {
    fn learn(&mut self, value: &Value) {
        self.walk(None, value);
    }

    fn walk(&mut self, key: Option<&str>, value: &Value) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    self.walk(Some(k), v);
                }
            }
            Value::Array(items) => {
                for item in items {
                    self.walk(key, item);
                }
            }
            leaf => {
                if let Some(key) = key {
                    self.by_key
                        .entry(key.to_owned())
                        .or_default()
                        .insert(leaf.to_string());
                }
            }
        }
    }

    /// Every candidate for a leaf under `key` (as JSON values).
    fn candidates(&self, key: &str) -> Vec<Value> {
        let mut out: Vec<Value> = self
            .by_key
            .get(key)
            .map(|set| {
                set.iter()
                    .filter_map(|t| serde_json::from_str(t).ok())
                    .collect()
            })
            .unwrap_or_default();
        out.push(Value::Null);
        out
    }
}

/// One redacted place in a viewer's copy of an event: a JSON pointer into the event, the key it
/// sits under (for the dictionary), and the true value (so the true combination is always
/// tried).
#[derive(Debug, Clone)]
struct Slot {
    pointer: String,
    key: String,
    truth: Value,
}

/// Finds every place where `shown` differs from `full`, recursing into objects and into lists of
/// equal length; a list shown shorter or longer (or not at all) is redacted element by element.
fn slots(full: &Value, shown: &Value, pointer: &str, key: &str, out: &mut Vec<Slot>) {
    match (full, shown) {
        (Value::Object(f), Value::Object(s)) => {
            for (k, fv) in f {
                let sv = s.get(k).unwrap_or(&Value::Null);
                slots(fv, sv, &format!("{pointer}/{k}"), k, out);
            }
        }
        (Value::Array(f), Value::Array(s)) if f.len() == s.len() => {
            for (i, (fv, sv)) in f.iter().zip(s).enumerate() {
                slots(fv, sv, &format!("{pointer}/{i}"), key, out);
            }
        }
        (Value::Array(f), _) if full != shown => {
            for (i, fv) in f.iter().enumerate() {
                slots(fv, &Value::Null, &format!("{pointer}/{i}"), key, out);
            }
        }
        (Value::Object(_), _) if full != shown => {
            slots(full, &json!({}), pointer, key, out);
        }
        _ if full != shown => out.push(Slot {
            pointer: pointer.to_owned(),
            key: key.to_owned(),
            truth: full.clone(),
        }),
        _ => {}
    }
}

fn set_pointer(target: &mut Value, pointer: &str, value: Value) {
    let mut at = target;
    let parts: Vec<&str> = pointer.split('/').skip(1).collect();
    for (n, part) in parts.iter().enumerate() {
        let last = n + 1 == parts.len();
        if let Ok(i) = part.parse::<usize>() {
            if !at.is_array() {
                *at = json!([]);
            }
            let list = at.as_array_mut().unwrap();
            while list.len() <= i {
                list.push(Value::Null);
            }
            if last {
                list[i] = value;
                return;
            }
            at = &mut list[i];
        } else {
            if !at.is_object() {
                *at = json!({});
            }
            let map = at.as_object_mut().unwrap();
            if last {
                map.insert((*part).to_owned(), value);
                return;
            }
            at = map.entry((*part).to_owned()).or_insert(Value::Null);
        }
    }
}

fn fingerprints_in(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::String(s) if s.starts_with("sha256:") => {
            out.insert(s.clone());
        }
        Value::Object(map) => map.values().for_each(|v| fingerprints_in(v, out)),
        Value::Array(items) => items.iter().for_each(|v| fingerprints_in(v, out)),
        _ => {}
    }
}

fn strings_in(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Object(map) => map.values().for_each(|v| strings_in(v, out)),
        Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        _ => {}
    }
}

fn fp(value: &Value) -> String {
    Fingerprint::of(value).unwrap().to_string()
}

/// The receipt hash as a holder of `receipt` recomputes it with `events` in place of the list
/// the hash covers.
fn receipt_hash(receipt: &Value, events: &Value) -> String {
    let hashed = json!({
        "sequence": receipt["sequence"], "commandId": receipt["commandId"],
        "seat": receipt["seat"], "tick": receipt["tick"], "action": receipt["action"],
        "events": events, "before": receipt["before"], "after": receipt["after"],
        "previous": receipt["previous"],
    });
    fp(&hashed)
}

/// What one viewer received over a match.
struct Material {
    viewer: String,
    /// Redacted receipts, from every route that serves them (timeline, per sequence, the
    /// redacted replay, the stream's redactor).
    receipts: Vec<Value>,
    /// Previews: `{sequence, stateFingerprint, viewFingerprint, events, view}`.
    previews: Vec<Value>,
    /// Views as served (`{sequence, view, fingerprint}`).
    views: Vec<Value>,
}

/// A hidden value confirmed by a fingerprint the viewer holds.
#[derive(Debug)]
#[allow(dead_code)] // read through Debug when a recovery is reported
struct Recovery {
    viewer: String,
    sequence: u64,
    what: String,
}

impl Recovery {
    fn describe(&self) -> String {
        format!(
            "{} at sequence {}: {}",
            self.viewer, self.sequence, self.what
        )
    }
}

/// Tries every value of every redacted field of every receipt the viewer holds, and the true
/// hidden states and other seats' views, against every fingerprint the viewer holds.
/// `full[i]` is the full receipt with sequence `i + 1`; `states[n]` the full state after
/// sequence `n`; `hidden_views[n]` the fingerprints of views the viewer may not see.
fn attack(
    material: &Material,
    hidden_information: bool,
    full: &[Value],
    states: &[Value],
    hidden_views: &[Vec<String>],
    dictionary: &Dictionary,
) -> Vec<Recovery> {
    let mut targets = BTreeSet::new();
    for v in material
        .receipts
        .iter()
        .chain(&material.previews)
        .chain(&material.views)
    {
        fingerprints_in(v, &mut targets);
    }
    let mut found = Vec::new();
    // The states and other seats' views: an attacker who guessed every hidden part right could
    // confirm the guess if any of these fingerprints were among the viewer's.
    // (A game without hidden information shows the whole state: confirming it is no leak.)
    for (n, state) in states.iter().enumerate().filter(|_| hidden_information) {
        if targets.contains(&fp(state)) {
            found.push(Recovery {
                viewer: material.viewer.clone(),
                sequence: n as u64,
                what: "the full state (plain fingerprint)".into(),
            });
        }
    }
    for (n, views) in hidden_views.iter().enumerate() {
        for v in views {
            if targets.contains(v) {
                found.push(Recovery {
                    viewer: material.viewer.clone(),
                    sequence: n as u64,
                    what: "another viewer's view".into(),
                });
            }
        }
    }
    let mut seen = BTreeSet::new();
    for shown in &material.receipts {
        let sequence = shown["sequence"].as_u64().unwrap();
        if !seen.insert(fp(shown)) {
            continue;
        }
        let truth = &full[usize::try_from(sequence - 1).unwrap()];
        found.extend(attack_receipt(
            &material.viewer,
            shown,
            truth,
            &targets,
            dictionary,
        ));
    }
    found
}

fn attack_receipt(
    viewer: &str,
    shown: &Value,
    truth: &Value,
    targets: &BTreeSet<String>,
    dictionary: &Dictionary,
) -> Vec<Recovery> {
    let sequence = shown["sequence"].as_u64().unwrap();
    let full_events = truth["events"].as_array().unwrap();
    let shown_events = shown["events"].as_array().unwrap();
    // The attacker's starting point: its own copy of the events, aligned with the full list when
    // it has as many; an event it was not shown at all is a slot as a whole.
    let base: Vec<Value> = if shown_events.len() == full_events.len() {
        shown_events.clone()
    } else {
        vec![Value::Null; full_events.len()]
    };
    let mut all_slots = Vec::new();
    for (i, (f, s)) in full_events.iter().zip(base.iter()).enumerate() {
        let mut here = Vec::new();
        slots(f, s, "", "", &mut here);
        for slot in here {
            all_slots.push((i, slot));
        }
    }
    if all_slots.is_empty() {
        return Vec::new();
    }
    let domains: Vec<Vec<Value>> = all_slots
        .iter()
        .map(|(_, slot)| {
            let mut d = dictionary.candidates(&slot.key);
            if !d.contains(&slot.truth) {
                d.push(slot.truth.clone());
            }
            d
        })
        .collect();
    // Every combination up to the cap, the true one first.
    let mut combinations: Vec<Vec<Value>> =
        vec![all_slots.iter().map(|(_, s)| s.truth.clone()).collect()];
    let mut index = vec![0usize; domains.len()];
    'outer: while combinations.len() < MAX_COMBINATIONS {
        combinations.push(
            index
                .iter()
                .zip(&domains)
                .map(|(&i, d)| d[i].clone())
                .collect(),
        );
        for (i, d) in index.iter_mut().zip(&domains) {
            *i += 1;
            if *i < d.len() {
                continue 'outer;
            }
            *i = 0;
        }
        break;
    }
    let sealed = shown.get("sealed").and_then(Value::as_array);
    let mut found = Vec::new();
    for combination in combinations {
        let mut events = base.clone();
        for ((event, slot), value) in all_slots.iter().zip(&combination) {
            set_pointer(&mut events[*event], &slot.pointer, value.clone());
        }
        let mut digests = vec![receipt_hash(shown, &Value::Array(events.clone()))];
        for e in &events {
            digests.push(fp(e));
        }
        if let Some(sealed) = sealed {
            // Guess that a commitment hides the plain event: put the guess in its place.
            let mut guessed = sealed.clone();
            for (i, e) in events.iter().enumerate() {
                if guessed
                    .get(i)
                    .is_some_and(|s| s.get("commitment").is_some())
                {
                    guessed[i] = e.clone();
                    digests.push(fp(&json!({"salt": Value::Null, "value": e})));
                }
            }
            digests.push(receipt_hash(shown, &Value::Array(guessed)));
        }
        if digests.iter().any(|d| targets.contains(d)) {
            found.push(Recovery {
                viewer: viewer.to_owned(),
                sequence,
                what: all_slots
                    .iter()
                    .zip(&combination)
                    .map(|((e, s), v)| format!("events[{e}]{}={v}", s.pointer))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
            break;
        }
    }
    found
}

/// Every string leaf with the key it sits under.
fn keyed_strings(key: Option<&str>, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(s) => {
            if let Some(k) = key {
                out.push((k.to_owned(), s.clone()));
            }
        }
        Value::Object(map) => map.iter().for_each(|(k, v)| keyed_strings(Some(k), v, out)),
        Value::Array(items) => items.iter().for_each(|v| keyed_strings(key, v, out)),
        _ => {}
    }
}

/// Strings a viewer could not know before a preview: in the full state, not in its view.
fn hidden_strings(state: &Value, view: &Value) -> BTreeSet<String> {
    let mut in_state = BTreeSet::new();
    strings_in(state, &mut in_state);
    let mut in_view = BTreeSet::new();
    strings_in(view, &mut in_view);
    in_state.difference(&in_view).cloned().collect()
}

fn viewers(seats: u16) -> Vec<(String, Viewer)> {
    let mut out: Vec<(String, Viewer)> = (0..seats)
        .map(|s| (format!("seat{s}"), Viewer::Seat(Seat(s))))
        .collect();
    out.push(("spectator".into(), Viewer::Spectator));
    out
}

/// A played match of one game and everything each viewer received.
struct Played {
    full: Vec<Value>,
    states: Vec<Value>,
    materials: Vec<Material>,
    hidden_views: BTreeMap<String, Vec<Vec<String>>>,
    preview_leaks: Vec<String>,
}

fn play(registry: &GameRegistry, game: &str, seed: &str, commands: usize) -> Played {
    let g = registry.get(game).unwrap();
    let bundle = g.builtin_content().unwrap().unwrap().bundle;
    let config = g.describe().default_config.unwrap_or(Value::Null);
    let (min, max) = g.seat_range(&bundle, &config).unwrap();
    let seats = min.max(2).min(max);
    let spec = ErasedSpec {
        config,
        seed: seed.into(),
        seats: (0..seats)
            .map(|_| SeatSpec {
                kind: SeatKind::Bot,
                bot: Some("random".into()),
            })
            .collect(),
        tick_rate: 10,
    };
    let mut m: Box<dyn ErasedMatch> = g.new_match(&bundle, spec).unwrap();
    let viewers = viewers(seats);
    let mut materials: Vec<Material> = viewers
        .iter()
        .map(|(name, _)| Material {
            viewer: name.clone(),
            receipts: Vec::new(),
            previews: Vec::new(),
            views: Vec::new(),
        })
        .collect();
    let mut states = vec![m.snapshot().unwrap()["state"].clone()];
    let mut hidden_views: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut preview_leaks = Vec::new();
    let record_views =
        |m: &dyn ErasedMatch,
         materials: &mut Vec<Material>,
         hidden_views: &mut BTreeMap<String, Vec<Vec<String>>>| {
            let all: Vec<String> = viewers
                .iter()
                .map(|(_, v)| m.view(*v).unwrap().fingerprint.to_string())
                .collect();
            for (((name, v), material), own) in viewers.iter().zip(materials.iter_mut()).zip(&all) {
                let view = m.view(*v).unwrap();
                material
                    .views
                    .push(json!({"sequence": m.sequence(), "view": view.view,
                "fingerprint": view.fingerprint.to_string()}));
                // Views this viewer may not see: every other one that is not its own.
                hidden_views
                    .entry(name.clone())
                    .or_default()
                    .push(all.iter().filter(|f| *f != own).cloned().collect());
            }
        };
    record_views(m.as_ref(), &mut materials, &mut hidden_views);
    let mut n = 0;
    let mut idle = 0;
    while n < commands && m.status() == turnstile_core::MatchStatus::Active && idle < 4 {
        let mut moved = false;
        for seat in m.bot_seats() {
            let tick = m.last_tick() + 1;
            let Some(action) = m.bot_action(seat, tick) else {
                continue;
            };
            // The seat previews its action first, as a client would.
            if let Ok(p) = m.preview(&action, seat, tick) {
                let (_, viewer) = &viewers[usize::from(seat.0)];
                let view = m.view(*viewer).unwrap().view;
                let hidden = hidden_strings(states.last().unwrap(), &view);
                materials[usize::from(seat.0)].previews.push(json!({
                    "hidden": hidden.iter().collect::<Vec<_>>(),
                    "sequence": m.sequence(), "stateFingerprint": p.state_fingerprint.to_string(),
                    "viewFingerprint": p.view_fingerprint.to_string(), "events": p.events, "view": p.view,
                }));
            }
            let sequence = m.sequence();
            let accepted = m.submit(ErasedCommand {
                command_id: format!("c{sequence}"),
                seat: Some(seat),
                expected_sequence: sequence,
                expected_step: None,
                tick,
                action,
            });
            if accepted.is_ok() {
                moved = true;
                n += 1;
                states.push(m.snapshot().unwrap()["state"].clone());
                record_views(m.as_ref(), &mut materials, &mut hidden_views);
                break;
            }
        }
        idle = if moved { 0 } else { idle + 1 };
    }
    let full_file = m.full_replay().unwrap();
    // The keys under which the game ever hides a value from a viewer (found by diffing every
    // receipt against every viewer's copy): a preview must show no value under such a key that
    // the viewer could not already see (Duel's `card` of a draw, and of a burn).
    let mut redacted_keys = BTreeSet::new();
    for (i, entry) in full_file.entries.iter().enumerate() {
        for (_, viewer) in &viewers {
            let shown = m.receipt(i as u64 + 1, *viewer).unwrap();
            let (full_events, shown_events) = (&entry.receipt["events"], &shown["events"]);
            let mut found = Vec::new();
            if full_events.as_array().map(Vec::len) == shown_events.as_array().map(Vec::len) {
                slots(full_events, shown_events, "", "events", &mut found);
            }
            redacted_keys.extend(found.into_iter().map(|s| s.key));
        }
    }
    for (material, (name, _)) in materials.iter_mut().zip(&viewers) {
        for p in &mut material.previews {
            let hidden: BTreeSet<String> = p["hidden"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect();
            let mut shown = Vec::new();
            keyed_strings(None, &p["events"], &mut shown);
            keyed_strings(None, &p["view"], &mut shown);
            for (key, value) in shown {
                if redacted_keys.contains(&key) && hidden.contains(&value) {
                    preview_leaks.push(format!(
                        "{name} at {}: a preview shows {key}={value:?}, hidden before",
                        p["sequence"]
                    ));
                }
            }
            p.as_object_mut().unwrap().remove("hidden");
        }
    }
    let full: Vec<Value> = full_file
        .entries
        .iter()
        .map(|e| e.receipt.clone())
        .collect();
    for ((_, viewer), material) in viewers.iter().zip(materials.iter_mut()) {
        let timeline = m.timeline(0, 10_000, *viewer);
        let redactor = m.redactor();
        for (i, receipt) in full.iter().enumerate() {
            material
                .receipts
                .push(m.receipt(i as u64 + 1, *viewer).unwrap());
            material
                .receipts
                .push(redactor.redact(receipt, *viewer).unwrap());
        }
        material.receipts.extend(timeline);
        let replay = m.replay(*viewer).unwrap();
        assert_eq!(replay["redacted"], true);
        assert!(replay["seed"].is_null(), "a redacted replay holds no seed");
        for e in replay["entries"].as_array().unwrap() {
            material.receipts.push(e["receipt"].clone());
        }
        // The redacted replay verifies as far as its viewer can check it.
        let report = turnstile_runtime::verify_redacted(&replay).unwrap();
        assert!(report.divergence.is_none(), "{game}: {report:?}");
        assert_eq!(report.verified as usize, full.len());
    }
    // The full replay, released at the end, verifies bit for bit.
    let report = registry.verify_replay(&full_file).unwrap();
    assert!(report.divergence.is_none(), "{game}: {report:?}");
    Played {
        full,
        states,
        materials,
        hidden_views,
        preview_leaks,
    }
}

fn dictionary_of(played: &[&Played]) -> Dictionary {
    let mut d = Dictionary::default();
    for p in played {
        for r in &p.full {
            d.learn(&r["events"]);
        }
        for s in &p.states {
            d.learn(s);
        }
    }
    d
}

#[test]
fn no_hidden_value_of_any_sample_game_can_be_recovered() {
    let registry = turnstile_samples::registry();
    let mut report = Vec::new();
    for game in registry.ids() {
        let runs: Vec<Played> = (0..2)
            .map(|i| play(&registry, game, &format!("brute-{game}-{i}"), 40))
            .collect();
        let dictionary = dictionary_of(&runs.iter().collect::<Vec<_>>());
        let hidden = registry.get(game).unwrap().describe().hidden_information;
        let mut slots_tried = 0;
        for run in &runs {
            for material in &run.materials {
                let found = attack(
                    material,
                    hidden,
                    &run.full,
                    &run.states,
                    &run.hidden_views[&material.viewer],
                    &dictionary,
                );
                assert!(
                    found.is_empty(),
                    "{game}: recovered {:?}",
                    found
                        .iter()
                        .take(5)
                        .map(Recovery::describe)
                        .collect::<Vec<_>>()
                );
                slots_tried += material.receipts.len();
            }
            assert!(
                run.preview_leaks.is_empty(),
                "{game}: {:?}",
                run.preview_leaks
            );
        }
        report.push(format!("{game}: {slots_tried} receipts attacked"));
    }
    eprintln!("{}", report.join("\n"));
    assert!(report.len() >= 5, "{report:?}");
}

/// Everything Duel's and clover's viewers received from the previous release, and the full
/// replays released when those matches ended (tests/fixtures/format1/, see its README).
fn format1_fixture() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/format1/viewers.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Re-executes a format-1 log to recover the full states (the attacker's best guesses), as far
/// as this build's rules still re-execute it (a game rebuilt since stops early, or at once; the
/// attack on the receipts needs no states).
fn states_of(registry: &GameRegistry, full: &Value) -> Vec<Value> {
    let file: turnstile_runtime::ReplayFile = serde_json::from_value(full.clone()).unwrap();
    assert_eq!(file.format, 1);
    let g = registry.get(&file.game).unwrap();
    let Ok(bundle) = g.load_bundle(&file.bundle, Some(&file.revision)) else {
        return Vec::new();
    };
    let spec = ErasedSpec {
        config: file.config.clone(),
        seed: file.seed.clone(),
        seats: file.seats.clone(),
        tick_rate: file.tick_rate,
    };
    let Ok(mut m) = g.new_match(&bundle, spec) else {
        return Vec::new();
    };
    let mut states = vec![m.snapshot().unwrap()["state"].clone()];
    for entry in &file.entries {
        if m.apply_entries(std::slice::from_ref::<ReplayEntry>(entry))
            .is_err()
        {
            break;
        }
        states.push(m.snapshot().unwrap()["state"].clone());
    }
    states
}

#[test]
fn the_attack_recovers_the_leaks_of_format_1() {
    let registry = turnstile_samples::registry();
    let fixture = format1_fixture();
    // Duel: the redacted draws. (clover's format-1 log no longer re-executes here — this release
    // renamed its hand types — and its receipts redact no field: its format-1 leak is the plain
    // state fingerprint, which the format-2 test covers.)
    {
        let game = "duel";
        let f = &fixture[game];
        let full: Vec<Value> = f["full"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["receipt"].clone())
            .collect();
        let states = states_of(&registry, &f["full"]);
        let mut dictionary = Dictionary::default();
        for r in &full {
            dictionary.learn(&r["events"]);
        }
        for s in &states {
            dictionary.learn(s);
        }
        let mut recovered = BTreeMap::new();
        for (viewer, got) in f["viewers"].as_object().unwrap() {
            let mut receipts: Vec<Value> = got["timeline"]["receipts"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            for e in got["replay"]["entries"].as_array().into_iter().flatten() {
                receipts.push(e["receipt"].clone());
            }
            for line in got["stream"].as_str().unwrap_or_default().lines() {
                if let Some(data) = line.strip_prefix("data:") {
                    if let Ok(v) = serde_json::from_str::<Value>(data.trim()) {
                        receipts.push(v);
                    }
                }
            }
            let previews: Vec<Value> = got["previews"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| p["preview"].clone())
                .collect();
            let material = Material {
                viewer: viewer.clone(),
                receipts,
                previews,
                views: vec![got["match"].clone()],
            };
            let found = attack(&material, true, &full, &states, &[], &dictionary);
            recovered.insert(viewer.clone(), found);
        }
        let total: usize = recovered.values().map(Vec::len).sum();
        for (viewer, found) in &recovered {
            eprintln!(
                "{game} format 1, {viewer}: {} recoveries, e.g. {:?}",
                found.len(),
                found.first()
            );
        }
        assert!(
            total > 0,
            "{game}: the attack must recover format 1's leaks"
        );
        if game == "duel" {
            // Seat 0 recovers the other seat's hidden draws, the spectator every draw.
            for viewer in ["seat0", "seat1", "spectator"] {
                let draws = recovered[viewer]
                    .iter()
                    .filter(|r| r.what.contains("/card="))
                    .count();
                assert!(
                    draws > 0,
                    "{viewer} recovers hidden draws: {:?}",
                    recovered[viewer]
                );
            }
        }
    }
}

/// Every format-1 replay file of the previous release (its golden replays, copied before they
/// were re-blessed as format 2, and the full replays its server released) still verifies.
#[test]
fn format_1_replay_files_still_verify() {
    let registry = turnstile_samples::registry();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/format1");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(format!("{dir}/replays"))
        .unwrap()
        .chain(std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".replay.json"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "{files:?}");
    let mut games = BTreeSet::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = turnstile_runtime::ReplayFile::parse(&text).unwrap();
        assert_eq!(file.format, 1, "{}", path.display());
        match registry.verify_replay(&file) {
            Ok(report) if report.divergence.is_none() => {
                assert_eq!(report.verified as usize, file.entries.len());
                games.insert(file.game.clone());
            }
            // A game whose rules changed in this release (Duel rebuilt on the match lifecycle,
            // clover's hand types renamed) cannot re-execute its old log: the verifier says so
            // — a typed error or the first divergence — and never answers a false "ok".
            Ok(report) => assert!(report.verified < file.entries.len() as u64),
            // clover's rules versions retired version 0 (every file before 1): the
            // verifier refuses such a file by its version before re-executing anything.
            Err(e) if file.game == "clover" => {
                assert_eq!(e.code(), "rules_retired", "{}: {e}", path.display())
            }
            Err(e) => assert!(
                ["invalid_entry", "setup_failed", "invalid_bundle"].contains(&e.code()),
                "{}: {e}",
                path.display()
            ),
        }
    }
    // Sokoban's rules did not change: its format-1 files verify under format-1 rules.
    assert!(games.contains("sokoban"), "{games:?}");
}
