//! Building the backends the command line asks for (with the test fault hook applied).

use anyhow::Result;

use satdoku::sat::SatBackend;
use satdoku::{Backend, DfsBackend};

use super::args::SatArgs;
use super::fault;

/// The native backend.
pub fn dfs() -> Box<dyn Backend> {
    fault::wrap(Box::new(DfsBackend::new()))
}

/// The SAT backend configured by `args`.
///
/// # Errors
/// None at present (every combination of options is valid); kept fallible for options that need
/// checking against each other.
pub fn sat(args: &SatArgs) -> Result<Box<dyn Backend>> {
    let backend =
        SatBackend::new(args.encoding.get(), args.amo.get()).with_simplify(args.simplify.get());
    Ok(fault::wrap(Box::new(backend)))
}
