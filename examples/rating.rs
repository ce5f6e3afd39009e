//! Rating puzzles for a person: the level and score of a puzzle, and the human-style solving path behind it, step by
//! step (what `sudoku rate` and `sudoku explain` print).
//!
//! Run it from anywhere in the repository: `cargo run --release --example rating`.

use sudoku_batch::human::{rate, Event, Explainer, Level};
use sudoku_batch::{batch, Grid};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Any file the batch subcommands read (lines, grids, CSV), through the library's reader.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/grid.txt");
    let puzzles: Vec<Grid> = batch::read_all(&std::fs::read(path)?, None)?
        .into_iter()
        .filter_map(|(_, record)| record.ok())
        .collect();

    // 1. One rating per puzzle; count the levels.
    let mut levels = [0usize; Level::ALL.len()];
    for p in &puzzles {
        levels[rate(p)?.level as usize] += 1;
    }
    let tally: Vec<String> = Level::ALL
        .iter()
        .map(|&l| format!("{} {l}", levels[l as usize]))
        .collect();
    println!("{} puzzles: {}", puzzles.len(), tally.join(", "));

    // 2. The path of the easiest puzzle, step by step, as a person would take it.
    let easiest = puzzles
        .iter()
        .min_by_key(|p| rate(p).map(|r| r.score).unwrap_or(u32::MAX))
        .expect("the file has puzzles");
    let rating = rate(easiest)?;
    println!("{} -> {rating}", easiest.to_line());
    for event in Explainer::new(easiest)?.take(5) {
        if let Event::Step { step, .. } = event {
            println!("  {step}");
        }
    }
    println!("  ...");
    Ok(())
}
