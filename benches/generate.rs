//! Generation benchmarks: boards per second of the pattern method and of the random method, filling a
//! preformatted buffer in memory (no I/O). The whole tool is timed by `scripts/bench-generate.sh`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_batch::generate::PatternFill;
use sudoku_batch::internals::BoardTemplate;
use sudoku_batch::internals::RandomFill;
use sudoku_batch::Format;

fn pattern(c: &mut Criterion) {
    let mut g = c.benchmark_group("pattern_fill");
    let boards = 4096;
    g.throughput(Throughput::Elements(boards as u64));
    for (name, format, first) in [
        ("grid_first_fixed", Format::Grid, Some(1)),
        ("grid_first_free", Format::Grid, None),
        ("line_first_fixed", Format::Line, Some(1)),
    ] {
        let gen = PatternFill::new(first, 1);
        let layout = BoardTemplate::new(format, boards);
        let mut buf = Vec::new();
        layout.lay_out(boards, false, &mut buf);
        let mut start = 0u64;
        g.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                gen.fill(start, boards, &layout, &mut buf);
                start += boards as u64;
            })
        });
    }
    g.finish();
}

fn layout(c: &mut Criterion) {
    let mut g = c.benchmark_group("lay_out");
    let boards = 4096;
    g.throughput(Throughput::Elements(boards as u64));
    let layout = BoardTemplate::new(Format::Grid, boards);
    let mut buf = Vec::with_capacity(boards * layout.stride);
    g.bench_function("grid", |b| {
        b.iter(|| {
            buf.clear();
            layout.lay_out(boards, false, &mut buf);
        })
    });
    g.finish();
}

fn random(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_board");
    g.throughput(Throughput::Elements(1));
    let gen = RandomFill::new(Some(1), 1);
    let mut i = 0u64;
    g.bench_function("first_fixed", |b| {
        b.iter(|| {
            i += 1;
            gen.board(i, 0)
        })
    });
    g.finish();
}

criterion_group!(benches, pattern, layout, random);
criterion_main!(benches);
