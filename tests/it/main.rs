//! The one integration test binary: fixtures, formats, backends, CLI.

mod bad_input;
mod cli;
mod common;
mod formats;
