//! Using the library on its own, without the `sudoku` binary: solve a file of puzzles into a `Vec`, count the
//! solutions of a puzzle, generate boards, and run the batch pipeline over a file with an observer of your own.
//!
//! Run it from the repository root: `cargo run --release --example library`.

use std::path::Path;

use sudoku_batch::batch::{self, BatchOptions, InputSpec};
use sudoku_batch::generate::PatternFill;
use sudoku_batch::output::Target;
use sudoku_batch::Grid;
use sudoku_batch::{tools::Solve, Failure, Observer, Position};

/// Counts failed records instead of printing them.
#[derive(Default)]
struct Tally {
    failed: Vec<(String, Position, String)>,
}

impl Observer for Tally {
    fn failure(&mut self, input: &str, at: Position, failure: &Failure) {
        self.failed
            .push((input.to_string(), at, failure.to_string()));
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Every record of a file (any format the CLI reads), solved into a Vec in input order.
    let text = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles.txt"))?;
    let records = batch::read_all(&text, None)?;
    let solutions: Vec<Grid> = records
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .filter_map(|p| sudoku_batch::solve(p).ok().map(|s| s.solution))
        .collect();
    println!(
        "{} records, {} solved; the first solution: {}",
        records.len(),
        solutions.len(),
        solutions[0].to_line()
    );

    // 2. Count the solutions of a puzzle, up to a limit (the search stops there).
    let empty_row: Grid = format!("123456789{}", ".".repeat(72)).parse()?;
    let count = sudoku_batch::count_solutions(&empty_row, 1000)?;
    println!(
        "a board with only its first row given has at least {} solutions",
        count.solutions
    );

    // 3. Solved boards: board i of the pattern method, distinct for every i (first digit 5, seed 0).
    let pattern = PatternFill::new(Some(5), 0);
    for i in 0..3 {
        let board = pattern.board(i);
        assert!(board.is_valid_solution());
        println!("board {i}: {}", board.to_line());
    }

    // 4. The file pipeline (memory map, chunks, all cores, ordered output) with your own observer.
    let dir = std::env::temp_dir().join(format!("sudoku-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let out = dir.join("solutions.txt");
    let mut tally = Tally::default();
    let bad = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/bad.txt"));
    let summary = batch::run_batch(
        vec![InputSpec::Path(bad.into())],
        &Target::File(out.clone()),
        &Solve::default(),
        &BatchOptions::default(),
        &mut tally,
    )?;
    println!(
        "data/bad.txt: {} records, {} solved, {} failed; the first failure: {:?}",
        summary.counts.records,
        summary.counts.solved(),
        summary.counts.failures(),
        tally.failed.first()
    );
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
