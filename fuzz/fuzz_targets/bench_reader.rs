//! Fuzz target `bench_reader`. The line reader of `sudoku bench`: any bytes, read in blocks with oversized lines passed over, give the records that splitting the text in memory gives.
//! The properties are `fuzz_check::bench_reader` in tests/fuzz_check.rs, replayed on stable by tests/fuzz_replay.rs.
#![no_main]

#[path = "../../tests/fuzz_check.rs"]
mod fuzz_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_check::bench_reader(data));
