//! The SAT backend: CNF encodings of the unit model, our own simplification, a small solver layer
//! (varisat, and CaDiCaL with the `cadical` feature), DIMACS out, models in, and certificates (a
//! plain CNF and a checked DRAT proof) for `unique` and `none`.
//!
//! - `vars`: all variable numbering (fixed DIMACS numbering of cell variables, auxiliaries after
//!   N³); [`Lit`] and [`Var`] are our own types.
//! - [`encode()`]: [`Encoding`] × [`Amo`] into any [`ClauseSink`] (in-memory [`Formula`], DIMACS
//!   writer, [`FormulaStats`] counter, a solver).
//! - [`SatBackend`]: the [`Backend`](crate::Backend) built on them, on a [`SatSolver`]; [`Simplify`]
//!   says what our own clause-level code does before the solver.
//! - [`Certifier`]: a [`Certificate`] for a settled puzzle, checked by our own DRAT checker;
//!   [`check_certificate`]: a certificate's files checked against the puzzle's plain CNF.
//! - [`write_dimacs`] / [`formula_stats`]: the formula for external solvers;
//!   [`parse_solver_output`] and [`decode_model`]: their answers back to a grid.

mod backend;
mod certify;
mod decode;
mod dimacs;
mod encode;
mod lit;
mod model;
mod proof;
mod simplify;
mod sink;
mod solver;
mod vars;

pub use backend::{CLAUSE_BUDGET, SatBackend, Simplify};
pub use certify::{
    Certificate, Certifier, CertifyError, CheckError, Settled, check_certificate,
    check_certificate_files, check_drat, check_drat_files,
};
pub use decode::{DecodeError, decode_model};
pub use dimacs::{
    DimacsWriteError, formula_stats, formula_stats_with, givens_string, write_dimacs,
    write_dimacs_with,
};
pub use encode::{
    Amo, CageEncoding, EncodeError, Encoded, Encoding, PredictedSize, UnknownName, amo_size,
    candidates, encode, encode_with,
};
pub use lit::{Lit, Var};
pub use model::{Model, ModelError, SolverAnswer, parse_solver_output};
pub use proof::ProofParseError;
pub use sink::{ClauseSink, Formula, FormulaStats};
pub use solver::{SatSolver, SolverUnavailable};
pub use vars::{
    AuxVars, cell_lit, cell_var, cell_var_count, dimacs_cell, max_dimacs_var, var_cell,
};
