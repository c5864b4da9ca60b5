//! Micro-benchmarks of the hot paths: bare moves, push/undo, planners, dead squares, parsing.
//!
//! The levels are embedded (shared/ may be absent where benchmarks run): XSokoban 1 by
//! Thinking Rabbit (1982, public domain as distributed with XSokoban) and Microban 1–7 by
//! David W. Skinner (freely distributable with credit).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use turnstile_sokoban::{
    apply_lurd, parse_collection, push_path, walk_path, Board, Cell, DeadSquares, Direction, Level,
};

/// XSokoban 1 (Thinking Rabbit): a mid-size level, 19 × 11, six boxes.
const XSOKOBAN_1: &str = "; XSokoban 1
    #####
    #   #
    #$  #
  ###  $##
  #  $ $ #
### # ## #   ######
#   # ## #####  ..#
# $  $          ..#
##### ### #@##  ..#
    #     #########
    #######
";

/// An open warehouse with pillars, for the planners (many routes of equal length).
const WAREHOUSE: &str = "; Warehouse
####################
#@                 #
#  ##   ##   ##    #
#  $     $     $   #
#  ##   ##   ##    #
#                  #
#    ##   ##   ##  #
#  .     .     .   #
#                  #
####################
";

/// Microban 1–7 (David W. Skinner).
const MICROBAN_1_TO_7: &str = "; Microban 1
####
# .#
#  ###
#*@  #
#  $ #
#  ###
####

; Microban 2
######
#    #
# #@ #
# $* #
# .* #
#    #
######

; Microban 3
  ####
###  ####
#     $ #
# #  #$ #
# . .#@ #
#########

; Microban 4
########
#      #
# .**$@#
#      #
#####  #
    ####

; Microban 5
 #######
 #     #
 # .$. #
## $@$ #
#  .$. #
#      #
########

; Microban 6
###### #####
#    ###   #
# $$     #@#
# $ #...   #
#   ########
#####

; Microban 7
#######
#     #
# .$. #
# $.$ #
# .$. #
# $.$ #
#  @  #
#######
";

/// A push-optimal solution of Microban 1 (from shared/data/sokoban/solutions).
const MICROBAN_1_SOLUTION: &str = "dlUrrrdLullddrUluRuulDrddrruLdlUU";

const STEPS_PER_BATCH: u64 = 10_000;

fn xsokoban_1() -> Level {
    parse_collection(XSOKOBAN_1, "xsokoban-1.xsb").levels[0]
        .clone()
        .unwrap()
}

fn cell(level: &Level, x: u16, y: u16) -> Cell {
    level.cell_at(x, y).unwrap()
}

fn step(c: &mut Criterion) {
    let level = xsokoban_1();
    let start = Board::new(&level);
    let mut group = c.benchmark_group("step");
    group.throughput(Throughput::Elements(STEPS_PER_BATCH));

    // Up and down between two floor cells: the bare walking rule.
    group.bench_function("walk_back_and_forth", |b| {
        b.iter_batched(
            || start.clone(),
            |mut board| {
                for _ in 0..STEPS_PER_BATCH / 2 {
                    black_box(board.step(Direction::Up).unwrap());
                    black_box(board.step(Direction::Down).unwrap());
                }
                board
            },
            BatchSize::SmallInput,
        )
    });

    // A push followed by its undo, over and over (counts one push and one undo per pair).
    let mut before_push = start.clone();
    apply_lurd(&mut before_push, "ulllll").unwrap();
    group.bench_function("push_and_undo", |b| {
        b.iter_batched(
            || before_push.clone(),
            |mut board| {
                for _ in 0..STEPS_PER_BATCH / 2 {
                    black_box(board.step(Direction::Left).unwrap());
                    black_box(board.undo().unwrap());
                }
                board
            },
            BatchSize::SmallInput,
        )
    });

    // A move into a wall: the rejection path.
    group.bench_function("rejected_by_wall", |b| {
        b.iter_batched(
            || start.clone(),
            |mut board| {
                for _ in 0..STEPS_PER_BATCH {
                    black_box(board.step(Direction::Left).unwrap_err());
                }
                board
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn plan(c: &mut Criterion) {
    let level = parse_collection(WAREHOUSE, "warehouse.xsb").levels[0]
        .clone()
        .unwrap();
    let board = Board::new(&level);
    let mut group = c.benchmark_group("plan");
    // From the top-left corner to the bottom-right corner.
    let far = cell(&level, 18, 8);
    group.bench_function("walk_path_across_warehouse", |b| {
        b.iter(|| walk_path(black_box(&board), black_box(far)).unwrap())
    });
    // The top-left box to the bottom-right goal.
    let (box_cell, goal) = (cell(&level, 3, 3), cell(&level, 15, 7));
    group.bench_function("push_path_across_warehouse", |b| {
        b.iter(|| push_path(black_box(&board), black_box(box_cell), black_box(goal)).unwrap())
    });
    group.finish();
}

fn setup(c: &mut Criterion) {
    let level = xsokoban_1();
    let mut group = c.benchmark_group("setup");
    group.bench_function("dead_squares_xsokoban_1", |b| {
        b.iter(|| DeadSquares::compute(black_box(&level)))
    });
    group.bench_function("board_new_xsokoban_1", |b| {
        b.iter(|| Board::new(black_box(&level)))
    });
    group.throughput(Throughput::Bytes(MICROBAN_1_TO_7.len() as u64));
    group.bench_function("parse_microban_1_to_7", |b| {
        b.iter(|| parse_collection(black_box(MICROBAN_1_TO_7), "microban.xsb"))
    });
    group.finish();
}

fn lurd(c: &mut Criterion) {
    let collection = parse_collection(MICROBAN_1_TO_7, "microban.xsb");
    let board = Board::new(collection.levels[0].as_ref().unwrap());
    let mut group = c.benchmark_group("lurd");
    group.throughput(Throughput::Elements(MICROBAN_1_SOLUTION.len() as u64));
    group.bench_function("replay_microban_1_solution", |b| {
        b.iter_batched(
            || board.clone(),
            |mut board| {
                assert!(
                    apply_lurd(&mut board, black_box(MICROBAN_1_SOLUTION))
                        .unwrap()
                        .solved
                );
                board
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, step, plan, setup, lurd);
criterion_main!(benches);
