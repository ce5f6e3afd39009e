//! Proves that solving allocates nothing per puzzle: a counting global allocator wraps the system one, counts the
//! allocations made on the current thread, and the count must not move while `solve`, `solve_unique` and
//! `count_solutions` run over hard puzzles, puzzles with several solutions, none, or clashing givens.
//!
//! A test binary of its own, because a global allocator replaces the allocator of the whole binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sudoku_batch::{Grid, SolveError};

/// The system allocator, counting every allocation and reallocation made on the calling thread.
struct Counting;

thread_local! {
    // `const` initialisation: reading it never allocates, so the allocator may use it.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn note_allocation() {
    // `try_with`: a thread being torn down has no counter left; its allocations are not ours to count.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so `System`'s guarantees are
// `Counting`'s; the only addition is a thread-local counter that itself never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as our caller's (a non-zero-sized layout).
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: `ptr` and `layout` come from this allocator, that is from `System`, as our caller promises.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`, as our caller promises.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while `f` runs.
fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

fn puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Grid::parse_line(l.as_bytes()).unwrap())
        .collect()
}

#[test]
fn the_counter_sees_allocations() {
    // Without this, a broken counter would make the real test pass for nothing.
    let n = allocations_during(|| {
        std::hint::black_box(Box::new([0u8; 64]));
    });
    assert!(n >= 1);
}

#[test]
fn solving_allocates_nothing() {
    // Parsed before counting: the puzzles (hardest ones included), several solutions, no solution, clashes.
    let hard = puzzles(include_str!("../data/puzzles.txt"));
    let several = puzzles(include_str!("../data/several_solutions.txt"));
    let none = puzzles(include_str!("../data/no_solution.txt"));
    let mut clash = Grid::EMPTY;
    clash.set(0, 5);
    clash.set(80, 5);
    clash.set(8, 5);
    assert!(hard.len() >= 100 && !several.is_empty() && !none.is_empty());

    let mut outcomes = [0u32; 4];
    let n = allocations_during(|| {
        for p in hard
            .iter()
            .chain(&several)
            .chain(&none)
            .chain([&clash, &Grid::EMPTY])
        {
            let first = sudoku_batch::solve(p);
            let unique = sudoku_batch::solve_unique(p);
            let count = sudoku_batch::count_solutions(p, 1000);
            let kind = match unique {
                Ok(_) => 0,
                Err(SolveError::MultipleSolutions { .. }) => 1,
                Err(SolveError::NoSolution) => 2,
                Err(SolveError::InvalidGivens(_)) => 3,
                Err(e) => panic!("a kind of solver error this test does not know: {e}"),
            };
            outcomes[kind] += 1;
            let _ = std::hint::black_box((first, count));
        }
    });
    assert_eq!(n, 0, "the solver allocated {n} times");
    // Every kind of outcome was exercised.
    assert!(outcomes.iter().all(|&k| k > 0), "{outcomes:?}");
}

#[test]
fn canon_and_shuffle_allocate_nothing_once_warm() {
    use sudoku_batch::tools::{Canonicalizer, Form, Transform};
    let mut all = puzzles(include_str!("../data/puzzles.txt"));
    all.extend(puzzles(include_str!("../data/puzzles.solutions.txt")));
    let mut work = Canonicalizer::new();
    let forms = [Form::Minlex, Form::PatternFirst];
    // Warm-up: the candidate buffers grow to the largest need of these records.
    for p in &all {
        for form in forms {
            work.canon_as(p, form).unwrap();
        }
    }
    let n = allocations_during(|| {
        for (i, p) in all.iter().enumerate() {
            let shuffled = Transform::random(5, i as u64).apply(p);
            for form in forms {
                let c = work.canon_as(&shuffled, form).unwrap();
                assert_eq!(c.clue_count(), p.clue_count());
            }
        }
    });
    assert_eq!(n, 0, "allocations while canonicalising warm");
}
