//! Fuzz target `vector`. The vector engine: any 81-cell board; solutions valid and keeping the givens, counts agreeing with the reference search and with the bitmask engine; the engine chosen per puzzle likewise.
//! The properties are `fuzz_check::vector` in tests/fuzz_check.rs, replayed on stable by tests/fuzz_replay.rs.
#![no_main]

#[path = "../../tests/fuzz_check.rs"]
mod fuzz_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_check::vector(data));
