//! The one integration test binary: fixtures, formats, backends, CLI.

mod check_cli;
mod cli;
mod common;
mod dfs;
mod differential;
mod encode_cli;
mod fixtures;
mod formats;
mod sat;
mod study_cli;
