//! Canonical forms alone (the minlex and the pattern-first form), one criterion group per dataset: the first
//! `MAX_PUZZLES` puzzles of the 17-clue list and of the forum's hardest in `../shared/data` when they are there (a
//! notice says so when not), else `data/puzzles.txt`. Throughput is counted in puzzles; puzzles are parsed
//! beforehand.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_batch::tools::{Canonicalizer, Form, Transform};
use sudoku_batch::Grid;

/// Most puzzles taken from one file.
const MAX_PUZZLES: usize = 10_000;

fn load(path: &PathBuf) -> Option<Vec<Grid>> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && l.len() >= 81)
            .filter_map(|l| Grid::parse_line(&l.as_bytes()[..81]).ok())
            .take(MAX_PUZZLES)
            .collect(),
    )
}

fn bench(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut sets = Vec::new();
    for name in ["puzzles2_17_clue", "puzzles5_forum_hardest_1905_11+"] {
        match load(&root.join("../shared/data").join(name)) {
            Some(p) => sets.push((name.to_string(), p)),
            None => eprintln!("notice: ../shared/data/{name} not found"),
        }
    }
    if sets.is_empty() {
        let p = load(&root.join("data/puzzles.txt")).expect("data/puzzles.txt");
        sets.push(("puzzles.txt".to_string(), p));
    }
    let mut group = c.benchmark_group("canon");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for (name, puzzles) in &sets {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        let mut work = Canonicalizer::new();
        for (id, form) in [
            ("canon", Form::Minlex),
            ("pattern_first", Form::PatternFirst),
        ] {
            group.bench_with_input(BenchmarkId::new(id, name), puzzles, |b, ps| {
                b.iter(|| {
                    let mut clues = 0;
                    for p in ps {
                        clues += work.canon_as(p, form).expect("valid puzzle").clue_count();
                    }
                    clues
                })
            });
        }
        group.bench_with_input(BenchmarkId::new("shuffle", name), puzzles, |b, ps| {
            b.iter(|| {
                let mut clues = 0;
                for (i, p) in ps.iter().enumerate() {
                    clues += Transform::random(1, i as u64).apply(p).clue_count();
                }
                clues
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
