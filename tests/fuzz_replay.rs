//! Replays the committed fuzz corpus (`fuzz/corpus/TARGET/`) through the same property checks as the fuzz targets
//! (`fuzz_check`), on the stable toolchain: every input the fuzzer kept, and every crash it found (saved there as
//! a regression input), is checked on each `cargo test`.

use std::path::PathBuf;

use crate::fuzz_check;

/// Every file of `fuzz/corpus/TARGET/`, sorted by name; at least one.
fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .collect::<Vec<_>>();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
        .into_iter()
        .map(|p| {
            let data = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, data)
        })
        .collect()
}

/// Runs `check` on every corpus file of `target`, naming the file that fails.
fn replay(target: &str, check: fn(&[u8])) {
    for (path, data) in corpus(target) {
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            panic!("{} fails its fuzz property check", path.display());
        }
    }
}

#[test]
fn records_corpus() {
    replay("records", fuzz_check::records);
}

#[test]
fn batch_corpus() {
    replay("batch", fuzz_check::batch);
}

#[test]
fn solver_corpus() {
    replay("solver", fuzz_check::solver);
}

#[test]
fn vector_corpus() {
    replay("vector", fuzz_check::vector);
}

#[test]
fn bench_reader_corpus() {
    replay("bench_reader", fuzz_check::bench_reader);
}

#[test]
fn table_corpus() {
    replay("table", fuzz_check::table);
}
