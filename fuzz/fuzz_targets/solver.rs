//! Fuzz target `solver`. The solver: any 81-cell board; solutions valid and keeping the givens, counts agreeing with a reference search.
//! The properties are `fuzz_check::solver` in tests/fuzz_check.rs, replayed on stable by tests/fuzz_replay.rs.
#![no_main]

#[path = "../../tests/fuzz_check.rs"]
mod fuzz_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_check::solver(data));
