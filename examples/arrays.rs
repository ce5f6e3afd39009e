//! Batches held in memory, the calls behind the Python module: flat arrays of cell values (81 per board, 0 for a
//! blank) or puzzle texts in, answers written into buffers you own, one status code per puzzle instead of an error.
//!
//! Run it from anywhere in the repository: `cargo run --release --example arrays`.

use sudoku_batch::array::{self, Cells, OK};
use sudoku_batch::Threads;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Puzzle texts straight from the shipped file (one per line, `#` comments skipped by hand here).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles.txt");
    let text = std::fs::read_to_string(path)?;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let n = lines.len();

    // 1. Solve every text on all cores: 81 values per solution, a status per puzzle (0 = solved).
    let mut solutions = vec![0u8; 81 * n];
    let mut status = vec![0i8; n];
    array::solve(&lines[..], true, Threads::Auto, &mut solutions, &mut status)?;
    let solved = status.iter().filter(|&&s| s == OK).count();
    println!("{n} puzzles, {solved} solved and proven unique");

    // 2. The same puzzles as one flat array of cells (what a numpy array of shape (n, 81) holds).
    let cells: Vec<u8> = lines
        .iter()
        .flat_map(|l| {
            l.bytes()
                .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        })
        .collect();
    let mut counts = vec![0i64; n];
    array::count(&Cells::new(&cells)?, 2, Threads::Count(1), &mut counts)?;
    assert!(
        counts.iter().all(|&c| c == 1),
        "every shipped puzzle is proper"
    );
    println!("every puzzle counted: exactly one solution each (counting stopped at 2)");

    // 3. Ratings for a person: level, score, guesses, hardest technique.
    let mut ratings = vec![None; n];
    array::rate(&lines[..], Threads::Auto, &mut ratings, &mut status)?;
    if let Some(r) = ratings.iter().flatten().max_by_key(|r| r.score) {
        println!("the hardest to a person: {r} (level score guesses hardest technique)");
    }

    // 4. A status per puzzle, never an error for the batch: a malformed text is code 1.
    let mixed = ["not a puzzle", lines[0]];
    let mut out = vec![0u8; 81 * 2];
    let mut codes = vec![0i8; 2];
    array::solve(&mixed[..], false, Threads::Count(1), &mut out, &mut codes)?;
    assert_eq!(codes, [1, OK]);
    println!("status codes for a bad and a good puzzle: {codes:?}");
    Ok(())
}
