//! The one integration test binary: fixtures, formats, backends, CLI, bad input, fuzz corpora.

mod bad_input;
mod cli;
mod common;
mod formats;
mod fuzz_corpus;
mod lookahead;
