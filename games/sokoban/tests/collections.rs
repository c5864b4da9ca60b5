//! The standard collections in shared/data/sokoban: every level loads, and every known solution
//! replays to solved with exactly its stated move and push counts.
//!
//! The data lives outside the repository; when the folder is absent (as it may be on CI) the
//! tests print a notice and pass.

use std::path::{Path, PathBuf};
use turnstile_sokoban::{
    apply_lurd, export_lurd, parse_collection, Board, DeadSquares, Level, ParsedCollection,
};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/sokoban");

/// The folder's files with an extension, sorted, or `None` (with a notice) if it is absent.
fn files(folder: &Path, extension: &str) -> Option<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        eprintln!(
            "notice: {} is absent; skipping the collection tests",
            folder.display()
        );
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    Some(files)
}

fn load(path: &Path) -> ParsedCollection {
    let text = std::fs::read_to_string(path).unwrap();
    parse_collection(&text, path.file_name().unwrap().to_str().unwrap())
}

#[test]
fn every_level_of_every_collection_loads() {
    let Some(files) = files(Path::new(DATA), "xsb") else {
        return;
    };
    assert!(!files.is_empty());
    let mut total = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let collection = load(path);
        let errors: Vec<String> = collection.errors().map(ToString::to_string).collect();
        assert!(errors.is_empty(), "{}", errors.join("\n"));
        // Each level is preceded by exactly one `; name` line (see the data's README).
        let names: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("; ")).collect();
        assert_eq!(collection.levels.len(), names.len(), "{}", path.display());
        for (level, name) in collection.valid_levels().zip(&names) {
            assert_eq!(level.title(), Some(*name));
            check_level(level);
        }
        total += collection.levels.len();
    }
    assert!(total >= 4633, "only {total} levels");
}

/// What must hold for any loaded level: it round-trips through its serde form and sets up.
fn check_level(level: &Level) {
    let rows = level.to_rows();
    let back = Level::from_rows(level.title().map(str::to_string), &rows, "rows").unwrap();
    assert_eq!(&back, level);
    let board = Board::new(level);
    assert!(!board.is_solved(), "{:?} starts solved", level.title());
    let dead = DeadSquares::compute(level);
    for &b in level.boxes() {
        assert!(
            !dead.is_dead(b),
            "{:?}: a box starts on a dead square",
            level.title()
        );
    }
}

#[test]
fn the_dungeon_keeps_its_decorative_box() {
    let path = Path::new(DATA).join("microban.xsb");
    if !path.exists() {
        eprintln!("notice: {} is absent; skipping", path.display());
        return;
    }
    let collection = load(&path);
    let dungeon = collection.levels[154].as_ref().unwrap();
    assert_eq!(dungeon.title(), Some("Microban 155 'The Dungeon'"));
    // Ten sealed boxes on goals plus the one to push, all kept.
    assert_eq!(dungeon.boxes().len(), 11);
    assert_eq!(dungeon.goals().len(), 11);
    let board = Board::new(dungeon);
    let movable = dungeon
        .boxes()
        .iter()
        .filter(|&&b| {
            let target = dungeon
                .goals()
                .into_iter()
                .find(|&g| g != b && !board.has_box(g));
            target.is_some_and(|g| turnstile_sokoban::push_path(&board, b, g).is_ok())
        })
        .count();
    assert_eq!(
        movable, 1,
        "only the one box in the player's region can be pushed"
    );
    assert_eq!(board.to_rows(), dungeon.to_rows());
}

#[test]
fn every_known_solution_replays_with_its_counts() {
    let folder = Path::new(DATA).join("solutions");
    let Some(files) = files(&folder, "tsv") else {
        return;
    };
    assert!(!files.is_empty());
    let mut replayed = 0;
    for path in &files {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let collection_name = format!("{}.xsb", stem.trim_end_matches("-pushopt-bfs"));
        let collection = load(&Path::new(DATA).join(&collection_name));
        let text = std::fs::read_to_string(path).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let columns: Vec<&str> = line.split('\t').collect();
            assert_eq!(columns.len(), 4, "{}: {line}", path.display());
            let index: usize = columns[0].parse().unwrap();
            let moves: u32 = columns[1].parse().unwrap();
            let pushes: u32 = columns[2].parse().unwrap();
            let level = collection.levels[index - 1].as_ref().unwrap();
            let mut board = Board::new(level);
            let outcome = apply_lurd(&mut board, columns[3])
                .unwrap_or_else(|e| panic!("{collection_name} level {index}: {e}"));
            let place = format!("{collection_name} level {index}");
            assert!(outcome.solved && board.is_solved(), "{place} is not solved");
            assert_eq!((board.moves(), board.pushes()), (moves, pushes), "{place}");
            assert_eq!((outcome.moves, outcome.pushes), (moves, pushes), "{place}");
            assert_eq!(export_lurd(&board), columns[3], "{place}");
            replayed += 1;
        }
    }
    assert!(replayed >= 3240, "only {replayed} solutions");
}
