//! Canonical forms: two records are essentially the same puzzle (equal up to the symmetries of the grid and a
//! relabelling of the digits) exactly when their canonical forms are equal. Shows both conventions, checks that a
//! shuffled copy gets the same form, and keeps one record per class the way `sudoku dedupe` does.
//!
//! Run it from anywhere in the repository: `cargo run --release --example canon`.

use std::collections::HashSet;

use sudoku_batch::tools::{Canonicalizer, Form, Key, Transform};
use sudoku_batch::Grid;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles.txt");
    let text = std::fs::read_to_string(path)?;
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::parse)
        .collect::<Result<_, _>>()?;

    // One canonicalizer reused for every record: it allocates nothing once warm.
    let mut canon = Canonicalizer::new();
    let first = puzzles[0];
    let minlex = canon.canon_as(&first, Form::Minlex)?;
    let forum = canon.canon_as(&first, Form::PatternFirst)?;
    let mut line = [0u8; 81];
    minlex.write_line(&mut line, Form::Minlex.blank());
    println!("puzzle       {}", first.to_line());
    println!("minlex form  {}", String::from_utf8_lossy(&line));
    forum.write_line(&mut line, Form::PatternFirst.blank());
    println!("forum form   {}", String::from_utf8_lossy(&line));

    // A random symmetry of the grid changes the text but not the class.
    let shuffled = Transform::random(7, 0).apply(&first);
    assert_ne!(shuffled, first);
    assert_eq!(canon.canon(&shuffled)?, minlex);
    assert_eq!(canon.canon_as(&shuffled, Form::PatternFirst)?, forum);
    println!("shuffled     {} (same forms)", shuffled.to_line());

    // Dedupe: the first record of each class, by the 32-byte key of its minlex form.
    let mut seen = HashSet::new();
    let mut copies = puzzles.clone();
    copies.extend(
        puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| Transform::random(1, i as u64).apply(p)),
    );
    let kept = copies
        .iter()
        .filter(|p| {
            let form = canon
                .canon(p)
                .expect("the shipped puzzles have no clashing givens");
            seen.insert(Key::of(&form).expect("a canonical form has a key"))
        })
        .count();
    println!(
        "{} records ({} puzzles and a shuffled copy of each): {kept} kept",
        copies.len(),
        puzzles.len()
    );
    assert!(kept <= puzzles.len());
    Ok(())
}
