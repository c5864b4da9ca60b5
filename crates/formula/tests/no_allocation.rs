//! Proves that evaluating a compiled formula allocates nothing: a counting global allocator
//! (the one `unsafe` in this crate's targets, allowed for this file alone) counts the
//! allocations of the current thread around a batch of evaluations.

#![allow(unsafe_code)]

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::{context, schema};
use turnstile_formula::{Formula, Value};

thread_local! {
    /// Allocations made by this thread; const-initialized, so reading it never allocates.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// thread-local `Cell` without a destructor, touched through `try_with`, which neither
// allocates nor panics (it gives up silently while the thread is being torn down).
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded with the caller's arguments.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// How many allocations `f` makes on this thread.
fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_allocations() {
    // Without this, a broken counter would make the real test pass vacuously.
    let n = allocations_during(|| {
        let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(16));
        drop(v);
    });
    assert_eq!(n, 1);
}

#[test]
fn evaluation_allocates_nothing() {
    let schema = schema();
    let formulas: Vec<Formula> = [
        "round >= 3 and source.hp > 0",
        "tag_spell or turn % 2 == 0",
        "run.money * source.mult >= 37.5",
        "not (tag_fire and b) or -(i / 2) * f % 3.5 != source.mult",
        // deep enough to use the largest stack
        "1 + (2 + (3 + (4 + (5 + (6 + (7 + (8 + (9 + (10 + (11 + (12 + (13 + (14 + (15 + (16 + (17 + round))))))))))))))))",
        "9223372036854775807 + turn > 0",
        // an evaluation error that carries no name allocates nothing either
        "round / (turn - turn) > 0",
    ]
    .iter()
    .map(|text| Formula::compile(text, &schema).unwrap())
    .collect();
    assert!(formulas.iter().any(|f| f.max_stack() > 16));
    let mut values = context();
    let mut results = [None; 7];
    let n = allocations_during(|| {
        for turn in 0..1000 {
            values[0] = Value::Int(turn);
            for (formula, result) in formulas.iter().zip(results.iter_mut()) {
                *result = Some(std::hint::black_box(formula).eval(&values).is_ok());
                let _ = formula.eval_reporting(&values);
                if formula.is_condition() {
                    let _ = formula.eval_bool(&values[..]);
                }
            }
        }
    });
    assert_eq!(n, 0, "evaluations allocated {n} times");
    assert_eq!(
        results[6],
        Some(false),
        "the last one is a division by zero"
    );
    assert!(results[..6].iter().all(|r| *r == Some(true)));
}
