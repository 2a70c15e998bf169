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
pub fn sat(args: &SatArgs) -> Checked {
    let backend =
        SatBackend::new(args.encoding.get(), args.amo.get()).with_simplify(args.simplify.get());
    Verified::new(fault::wrap(Box::new(backend)))
}
