//! Building the backends the command line asks for: each one verified (`satdoku::Verified`), with
//! the test fault hook inside the verification, so that a corrupted answer is caught like a real bug.

use satdoku::sat::SatBackend;
use satdoku::{Backend, DfsBackend, Verified};

use super::args::SatArgs;
use super::fault;

/// A backend as every command uses it: verified.
pub type Checked = Verified<Box<dyn Backend>>;

/// The native backend.
pub fn dfs() -> Checked {
    Verified::new(fault::wrap(Box::new(DfsBackend::new())))
}

/// The SAT backend configured by `args`.
///
/// # Errors
/// A SAT solver this build lacks (a usage error naming the feature to build with).
pub fn sat(args: &SatArgs) -> anyhow::Result<Checked> {
    let backend = SatBackend::new(args.encoding.get(), args.amo.get())
        .with_simplify(args.simplify.get())
        .with_solver(args.sat_solver.get())
        .map_err(|e| anyhow::anyhow!("--sat-solver {}: {e}", args.sat_solver.get()))?;
    Ok(Verified::new(fault::wrap(Box::new(backend))))
}
