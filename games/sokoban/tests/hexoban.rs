//! Hexoban (issue 15, point 8): the `.hsb` format, six-direction rules, undo, and the shipped
//! collection, whose committed solutions must verify and which the solver must solve.

use turnstile_sokoban::solver::{solve, start_position, SolveOptions};
use turnstile_sokoban::{
    apply_lurd, export_lurd, parse_hex_collection, parse_level_file, Board, Direction, Level,
    MoveRejection, Topology,
};

const COLLECTION: &str = include_str!("../content/levels/hexoban-turnstile.hsb");

/// The shipped levels with the `Solution:` line each carries.
fn shipped() -> Vec<(Level, String)> {
    let parsed = parse_hex_collection(COLLECTION, "hexoban-turnstile.hsb");
    let solutions: Vec<String> = COLLECTION
        .lines()
        .filter_map(|l| l.strip_prefix("Solution: "))
        .map(str::to_owned)
        .collect();
    let levels: Vec<Level> = parsed
        .levels
        .into_iter()
        .map(|l| l.expect("every shipped Hexoban level is valid"))
        .collect();
    assert_eq!(levels.len(), solutions.len(), "one solution per level");
    levels.into_iter().zip(solutions).collect()
}

#[test]
fn every_shipped_level_is_hexagonal_and_its_solution_verifies() {
    let levels = shipped();
    assert!(levels.len() >= 9, "{}", levels.len());
    for (level, solution) in &levels {
        assert_eq!(level.topology(), Topology::Hex);
        let mut board = Board::new(level);
        let outcome = apply_lurd(&mut board, solution)
            .unwrap_or_else(|e| panic!("{:?}: {solution}: {e}", level.title()));
        assert!(
            outcome.solved,
            "{:?} is not solved by {solution}",
            level.title()
        );
        assert_eq!(export_lurd(&board), *solution);
        let pushes = solution.chars().filter(char::is_ascii_uppercase).count() as u32;
        assert_eq!(
            (outcome.moves, outcome.pushes),
            (solution.len() as u32, pushes)
        );
    }
}

#[test]
fn the_solver_solves_every_shipped_level_and_its_solutions_verify() {
    for (level, _) in shipped() {
        let options = SolveOptions {
            node_budget: 200_000,
            ..SolveOptions::default()
        };
        let outcome = solve(&level, &start_position(&level), &options).unwrap();
        let solution = outcome
            .solution()
            .unwrap_or_else(|| panic!("{:?} not solved: {outcome:?}", level.title()));
        let mut board = Board::new(&level);
        let replayed = apply_lurd(&mut board, &solution.lurd).unwrap();
        assert!(replayed.solved, "{:?}: {}", level.title(), solution.lurd);
    }
}

#[test]
fn hex_moves_go_six_ways_and_undo() {
    let level = &shipped()[0].0; // # @ $ . #
    let mut board = Board::new(level);
    assert_eq!(board.directions(), &Direction::HEX);
    // The square board's up and down do not exist here; walls stand on every diagonal.
    assert_eq!(
        board.step(Direction::Up),
        Err(MoveRejection::NoSuchDirection)
    );
    assert_eq!(board.step(Direction::UpLeft), Err(MoveRejection::Wall));
    assert_eq!(board.step(Direction::Left), Err(MoveRejection::Wall));
    let before = board.position();
    let push = board.step(Direction::Right).unwrap();
    assert!(push.pushed() && push.solved);
    assert_eq!(push.lurd(), 'R');
    // The player moved two grid columns: east on the .hsb layout.
    assert_eq!(push.player_to.0, push.player_from.0 + 2);
    board.undo().unwrap();
    assert_eq!(board.position(), before);
    // Hexoban letters: u is north-west, d south-east, n north-east, s south-west.
    assert_eq!(
        Topology::Hex.read_letter('n'),
        Some((Direction::UpRight, false))
    );
    assert_eq!(
        Topology::Hex.read_letter('D'),
        Some((Direction::DownRight, true))
    );
    assert_eq!(Topology::Square.read_letter('n'), None);
}

#[test]
fn a_character_between_hex_cells_is_reported_at_its_line_and_column() {
    // Line 2 has `$` at column 4, an entry between cells (cells there are at odd columns).
    let text = "; bad\n # # # #\n# @$  . #\n # # # #\n";
    let parsed = parse_level_file(text, "bad.hsb");
    let errors = parsed.levels[0].as_ref().unwrap_err();
    let located: Vec<(u32, u32, &str)> = errors
        .iter()
        .map(|e| (e.line, e.column, e.code()))
        .collect();
    assert!(located.contains(&(3, 4, "hex_off_lattice")), "{located:?}");
}

#[test]
fn an_open_hex_level_is_refused_where_it_leaks() {
    // The east end of the middle row has no wall: the player's region touches the outside.
    let text = " # # # #\n# @ $ .\n # # # #\n";
    let errors = parse_hex_collection(text, "open.hsb")
        .levels
        .remove(0)
        .unwrap_err();
    assert!(
        errors.iter().any(|e| e.code() == "open_region"),
        "{errors:?}"
    );
}

#[test]
fn a_hex_level_round_trips_through_its_serde_form() {
    for (level, _) in shipped() {
        let json = serde_json::to_value(&level).unwrap();
        assert_eq!(json["topology"], "hex");
        let back: Level = serde_json::from_value(json).unwrap();
        assert_eq!(back, level);
    }
    // A square level's form has no topology field, so its fingerprint did not change.
    let square = turnstile_sokoban::parse_collection("#####\n#@$.#\n#####\n", "s.xsb");
    let json = serde_json::to_value(square.levels[0].as_ref().unwrap()).unwrap();
    assert!(json.get("topology").is_none(), "{json}");
}
