//! The native backend: bitmask candidates, naked and hidden singles, MRV branching, backtracking.

use crate::grid::Grid;
use crate::solve::{Backend, Limits, Report, SolveError};
use crate::units::Units;

/// The native depth-first-search backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct DfsBackend;

impl DfsBackend {
    /// A new native backend.
    pub fn new() -> DfsBackend {
        DfsBackend
    }
}

impl Backend for DfsBackend {
    fn name(&self) -> &'static str {
        "dfs"
    }

    fn solve(
        &self,
        _units: &Units,
        _puzzle: &Grid,
        _limits: &Limits,
    ) -> Result<Report, SolveError> {
        unimplemented!("native backend: being written")
    }
}
