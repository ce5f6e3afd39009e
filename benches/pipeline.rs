//! The batch pipeline by stage on one thread, for the parse / solve / format / write split of BENCHMARKS.md:
//! each benchmark adds one stage to the one before, so the differences are the stages' costs.
//!
//! Input: `../shared/data/puzzles0_dense_100k` (easy puzzles, where everything but solving weighs most), or when it
//! is missing `data/puzzles.txt` repeated to 100,000 puzzles.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_batch::batch::Job;
use sudoku_batch::batch::{self, BatchOptions, InputSpec};
use sudoku_batch::output::{Sink, Target};
use sudoku_batch::tools::Solve;
use sudoku_batch::Grid;
use sudoku_batch::Threads;
use sudoku_batch::{Failure, TextLayout};

fn input() -> (InputSpec, u64) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data/puzzles0_dense_100k");
    let text = match std::fs::read(&shared) {
        Ok(_) => return (InputSpec::Path(shared), 100_000),
        Err(_) => {
            eprintln!(
                "notice: {} not found; using data/puzzles.txt",
                shared.display()
            );
            std::fs::read(root.join("data/puzzles.txt")).unwrap()
        }
    };
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| l.len() >= 81 && !l.starts_with(b"#"))
        .collect();
    let mut data = Vec::new();
    for i in 0..100_000 {
        data.extend_from_slice(lines[i % lines.len()]);
        data.push(b'\n');
    }
    (
        InputSpec::Bytes {
            name: "puzzles".into(),
            data,
        },
        100_000,
    )
}

fn run_job<J: Job>(spec: &InputSpec, job: &J, out: &std::path::Path) {
    let opts = BatchOptions {
        threads: Threads::Count(1),
        ..BatchOptions::default()
    };
    let s = batch::run_batch(
        vec![spec.clone()],
        &Target::File(out.to_path_buf()),
        job,
        &opts,
        &mut (),
    )
    .unwrap();
    assert_eq!(s.counts.failures(), 0);
}

fn stages(c: &mut Criterion) {
    let (spec, n) = input();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let mut g = c.benchmark_group("pipeline_dense_100k_j1");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n));

    // Read, split into records, parse; every record answered with an empty line.
    let parse_only = |_: &Grid, _: TextLayout, _: &mut Vec<u8>| -> Result<(), Failure> { Ok(()) };
    g.bench_function("1_read_parse", |b| {
        b.iter(|| run_job(&spec, &parse_only, &out))
    });

    // ... and solve, the solution thrown away.
    let solve_only = |p: &Grid, _: TextLayout, _: &mut Vec<u8>| -> Result<(), Failure> {
        std::hint::black_box(sudoku_batch::solve(p)?);
        Ok(())
    };
    g.bench_function("2_read_parse_solve", |b| {
        b.iter(|| run_job(&spec, &solve_only, &out))
    });

    // ... and format the solutions into the output and write them (the whole `sudoku solve -j1 -o`).
    g.bench_function("3_read_parse_solve_format_write", |b| {
        b.iter(|| run_job(&spec, &Solve::default(), &out))
    });

    // Writing alone: the output's bytes to a file, flushed, synced and renamed.
    let bytes = vec![b'1'; n as usize * 82];
    g.bench_function("4_write_only", |b| {
        b.iter(|| {
            let mut sink = Sink::create(&Target::File(out.clone())).unwrap();
            for chunk in bytes.chunks(256 * 1024) {
                sink.write_all(chunk).unwrap();
            }
            sink.finish().unwrap();
        })
    });
    g.finish();
}

criterion_group!(benches, stages);
criterion_main!(benches);
