//! Building the backends the command line asks for: each one verified (`satdoku::Verified`), with
//! the test fault hook inside the verification, so that a corrupted answer is caught like a real bug.

use satdoku::sat::SatBackend;
use satdoku::{AutoBackend, Backend, DfsBackend, Verified};

use super::args::SatArgs;
use super::fault;

/// A backend as every command uses it: verified.
pub type Checked = Verified<Box<dyn Backend>>;

/// The native backend.
pub fn dfs() -> Checked {
    Verified::new(fault::wrap(Box::new(DfsBackend::new())))
}

/// The auto backend: the native one, then the SAT backend configured by `args` (CaDiCaL by default
/// when compiled in; each with the fault hook, so that a test can corrupt either phase).
///
/// # Errors
/// A SAT solver this build lacks.
pub fn auto(args: &SatArgs) -> anyhow::Result<Checked> {
    let dfs = fault::wrap(Box::new(DfsBackend::new()));
    let sat = fault::wrap(Box::new(sat_backend(args, args.solver_for_auto())?));
    Ok(Verified::new(Box::new(AutoBackend::from_phases(dfs, sat))))
}

fn sat_backend(args: &SatArgs, solver: satdoku::sat::SatSolver) -> anyhow::Result<SatBackend> {
    SatBackend::new(args.encoding.get(), args.amo.get())
        .with_simplify(args.simplify.get())
        .with_solver(solver)
        .map_err(|e| anyhow::anyhow!("--sat-solver {solver}: {e}"))
}

/// The SAT backend configured by `args`.
///
/// # Errors
/// A SAT solver this build lacks (a usage error naming the feature to build with).
pub fn sat(args: &SatArgs) -> anyhow::Result<Checked> {
    Ok(Verified::new(fault::wrap(Box::new(sat_backend(
        args,
        args.solver(),
    )?))))
}
