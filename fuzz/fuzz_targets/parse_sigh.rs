//! Fuzz target `parse_sigh`: see `fuzz/bodies.rs` for what it checks.
#![no_main]

#[path = "../bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::run("parse_sigh", data));
