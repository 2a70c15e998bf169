//! Building the backends the command line asks for (with the test fault hook applied).

use anyhow::Result;

use satdoku::{Backend, DfsBackend, Grid, Limits, Report, SolveError, Units};

use super::args::SatArgs;
use super::fault;

/// The native backend.
pub fn dfs() -> Box<dyn Backend> {
    fault::wrap(Box::new(DfsBackend::new()))
}

/// The SAT backend configured by `args`.
///
/// # Errors
/// None yet; encoding options will be validated here.
pub fn sat(_args: &SatArgs) -> Result<Box<dyn Backend>> {
    Ok(fault::wrap(Box::new(PlaceholderSat)))
}

/// TEMPORARY until the SAT backend merges: answers with the DFS under the name `sat`.
struct PlaceholderSat;

impl Backend for PlaceholderSat {
    fn name(&self) -> &'static str {
        "sat"
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        DfsBackend::new().solve(units, puzzle, limits)
    }
}
