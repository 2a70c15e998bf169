//! The one integration test binary: fixtures, formats, backends, CLI, bad input, fuzz corpora.

mod auto_race;
mod bad_input;
mod certify;
mod check_cli;
mod cli;
mod common;
mod dfs;
mod differential;
mod encode_cli;
mod fixtures;
mod formats;
mod fuzz_corpus;
mod generate;
mod interrupt;
mod large;
mod layers;
mod lookahead;
mod noisy_input;
mod pretty;
mod readme;
mod sat;
mod sigh;
mod sigh_fuzz;
mod study_cli;
mod trust;
mod variants;
