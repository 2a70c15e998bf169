//! The one integration test binary: fixtures, formats, backends, CLI.

mod common;
mod dfs;
