//! Fuzz target `records`. Record parsers and format detection: any bytes, a forced format or none, through `format::read_all`, `format::prepare` and the `Grid` parsers.
//! The properties are `fuzz_check::records` in tests/fuzz_check.rs, replayed on stable by tests/fuzz_replay.rs.
#![no_main]

#[path = "../../tests/fuzz_check.rs"]
mod fuzz_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_check::records(data));
