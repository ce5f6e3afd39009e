//! The solver alone, one criterion group per dataset: `data/puzzles.txt` and every file of `../shared/data` when it
//! is there (a notice says so when it is not). Throughput is counted in puzzles; each iteration solves every puzzle
//! of the dataset (parsed beforehand), the first solution and then the uniqueness check.
//!
//! Large files are cut to their first `MAX_PUZZLES` puzzles to keep a run short; `sudoku bench` times whole files.

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_batch::bench::Dataset;
use sudoku_batch::Grid;

/// Most puzzles taken from one file.
const MAX_PUZZLES: usize = 10_000;

fn datasets() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("data/puzzles.txt")];
    let shared = root.join("../shared/data");
    match std::fs::read_dir(&shared) {
        Ok(dir) => {
            let mut found: Vec<PathBuf> = dir
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("puzzles"))
                })
                .collect();
            found.sort();
            files.extend(found);
        }
        Err(_) => eprintln!(
            "notice: {} not found; benchmarking data/puzzles.txt only",
            shared.display()
        ),
    }
    files
}

fn load(path: &Path) -> Vec<Grid> {
    let data = Dataset::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    data.lines()
        .take(MAX_PUZZLES)
        .map(|l| Grid::parse_line(l).expect("Dataset keeps parsable records only"))
        .collect()
}

fn bench_solver(c: &mut Criterion) {
    for path in datasets() {
        let puzzles = load(&path);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut group = c.benchmark_group(name);
        group
            .throughput(Throughput::Elements(puzzles.len() as u64))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        group.bench_function(BenchmarkId::new("solve", puzzles.len()), |b| {
            b.iter(|| {
                puzzles
                    .iter()
                    .filter(|p| sudoku_batch::solve(p).is_ok())
                    .count()
            })
        });
        group.bench_function(BenchmarkId::new("solve_unique", puzzles.len()), |b| {
            b.iter(|| {
                puzzles
                    .iter()
                    .filter(|p| sudoku_batch::solve_unique(p).is_ok())
                    .count()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench_solver);
criterion_main!(benches);
