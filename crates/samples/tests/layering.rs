//! ARCHITECTURE.md's layering claims, read from the crate graph: every `Cargo.toml` under
//! `crates/` and `games/`, its `[dependencies]` (what ships; dev-dependencies are the tests'
//! and may reach the runtime's test kit). A new crate or dependency that breaks a claim fails
//! here, naming the edge.

use std::collections::BTreeMap;
use std::path::Path;

/// The engine's building blocks: below the runtime, knowing no game.
const BLOCKS: [&str; 9] = [
    "turnstile-determinism",
    "turnstile-formula",
    "turnstile-core",
    "turnstile-sheets",
    "turnstile-effects",
    "turnstile-turns",
    "turnstile-phases",
    "turnstile-kit",
    "turnstile-lifecycle",
];

/// Package name → (folder it lives in: `crates` or `games`, its turnstile dependencies).
fn graph() -> BTreeMap<String, (String, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut graph = BTreeMap::new();
    for folder in ["crates", "games"] {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        dirs.sort();
        for dir in dirs {
            let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
                continue;
            };
            let (name, deps) = parse(&text);
            graph.insert(name, (folder.to_string(), deps));
        }
    }
    graph
}

/// The package name and the `turnstile-*` names of the `[dependencies]` table.
fn parse(manifest: &str) -> (String, Vec<String>) {
    let (mut name, mut deps, mut section) = (String::new(), Vec::new(), String::new());
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        if section == "[package]" && key == "name" {
            name = line.split('"').nth(1).unwrap_or("").to_string();
        }
        if section == "[dependencies]" && key.starts_with("turnstile-") {
            deps.push(key.to_string());
        }
    }
    (name, deps)
}

#[test]
fn the_crate_graph_keeps_the_layers_architecture_md_claims() {
    let graph = graph();
    assert!(graph.len() >= 20, "found {} crates", graph.len());
    let games: Vec<&String> = graph
        .iter()
        .filter(|(_, (folder, _))| folder == "games")
        .map(|(name, _)| name)
        .collect();
    assert!(games.len() >= 7, "{games:?}");
    let mut broken = Vec::new();
    for (name, (folder, deps)) in &graph {
        for dep in deps {
            let is_game = games.contains(&dep);
            let why = if folder == "games" && !(BLOCKS.contains(&dep.as_str()) || is_game) {
                Some("a game depends only on the engine's blocks (and other games): no runtime, server or store")
            } else if BLOCKS.contains(&name.as_str()) && !BLOCKS.contains(&dep.as_str()) {
                Some("an engine block depends only on other blocks: no game, runtime or server")
            } else if name == "turnstile-core" && dep != "turnstile-determinism" {
                Some("core knows no game and no block above it")
            } else if name == "turnstile-runtime" && dep != "turnstile-core" {
                Some("the runtime knows games only through core's Game trait and the registry")
            } else if (name == "turnstile-server" || name == "turnstile-store") && is_game {
                Some("the server and the store know no game: they get them from a registry")
            } else if name == "turnstile-testkit" {
                Some("the test kit depends on no Turnstile crate")
            } else {
                None
            };
            if let Some(why) = why {
                broken.push(format!("{name} → {dep}: {why}"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // The one place where the games meet the runtime's registry.
    let (_, samples) = &graph["turnstile-samples"];
    assert!(samples.iter().any(|d| d == "turnstile-runtime"));
    assert!(
        games.iter().all(|g| samples.contains(g)),
        "every game is registered"
    );
}

#[test]
fn the_parser_reads_only_the_dependencies_table() {
    let (name, deps) = parse(
        "[package]\nname = \"turnstile-x\"\n[dependencies]\nturnstile-core.workspace = true\n\
         turnstile-kit = { path = \"../kit\" }\nserde = \"1\"\n[dev-dependencies]\n\
         turnstile-runtime.workspace = true\n",
    );
    assert_eq!(name, "turnstile-x");
    assert_eq!(deps, ["turnstile-core", "turnstile-kit"]);
}
