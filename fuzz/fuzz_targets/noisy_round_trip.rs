//! Fuzz target `noisy_round_trip`: see `fuzz/bodies.rs` for what it checks.
#![no_main]

#[path = "../bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::run("noisy_round_trip", data));
