//! The one integration test binary: fixtures, formats, backends, CLI.

mod cli;
mod common;
mod formats;
