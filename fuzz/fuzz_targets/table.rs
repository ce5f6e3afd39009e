//! Fuzz target `table`. Parquet and Arrow IPC readers: any bytes as a table input give a run that ends with a summary or an error naming the input, never a panic or an abort.
//! The properties are `fuzz_check::table` in tests/fuzz_check.rs, replayed on stable by tests/fuzz_replay.rs.
#![no_main]

#[path = "../../tests/fuzz_check.rs"]
mod fuzz_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_check::table(data));
