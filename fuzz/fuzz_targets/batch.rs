//! Fuzz target `batch`. The chunker and batch pipeline: any bytes as a file, chunked, threaded and mapped as the first bytes say, give the bytes of the sequential one-chunk run.
//! The properties are `fuzz_check::batch` in tests/fuzz_check.rs, replayed on stable by tests/fuzz_replay.rs.
#![no_main]

#[path = "../../tests/fuzz_check.rs"]
mod fuzz_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_check::batch(data));
