//! The fuzz targets' properties (`fuzz_check`, shared with fuzz/fuzz_targets/) replayed on stable over the
//! committed corpus (`fuzz_replay`), so `cargo test` checks every input the fuzzers ever kept.

mod fuzz_check;
mod fuzz_replay;
