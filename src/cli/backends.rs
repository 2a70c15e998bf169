//! Building the backends the command line asks for: each one verified (`satdoku::Verified`), with
//! the test fault hook inside the verification, so that a corrupted answer is caught like a real bug.

use satdoku::sat::SatBackend;
use satdoku::{AutoBackend, Backend, DfsBackend, Verified};

use super::args::SatArgs;
use super::certify::Certify;
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
/// Under `--certify`, its SAT phase answers `--unique` with the certificate
/// ([`Certify::sat_backend`]).
///
/// # Errors
/// A SAT solver this build lacks.
pub fn auto(args: &SatArgs, certify: Option<&Certify>) -> anyhow::Result<Checked> {
    let dfs = fault::wrap(Box::new(DfsBackend::new()));
    let sat = certifying(sat_backend(args, args.solver_for_auto())?, certify);
    let sat = fault::wrap(sat);
    Ok(Verified::new(Box::new(AutoBackend::from_phases(dfs, sat))))
}

fn sat_backend(args: &SatArgs, solver: satdoku::sat::SatSolver) -> anyhow::Result<SatBackend> {
    SatBackend::new(args.encoding.get(), args.amo.get())
        .with_simplify(args.simplify.get())
        .with_cages(args.cage_encoding.get())
        .with_solver(solver)
        .map_err(|e| anyhow::anyhow!("--sat-solver {solver}: {e}"))
}

fn certifying(sat: SatBackend, certify: Option<&Certify>) -> Box<dyn Backend> {
    match certify {
        Some(c) => c.sat_backend(sat),
        None => Box::new(sat),
    }
}

/// The SAT backend configured by `args`; under `--certify`, answering `--unique` with the
/// certificate ([`Certify::sat_backend`]).
///
/// # Errors
/// A SAT solver this build lacks (a usage error naming the feature to build with).
pub fn sat(args: &SatArgs, certify: Option<&Certify>) -> anyhow::Result<Checked> {
    let sat = certifying(sat_backend(args, args.solver())?, certify);
    Ok(Verified::new(fault::wrap(sat)))
}
