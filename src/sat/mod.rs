//! The SAT backend: CNF encodings of the unit model, solved with `varisat`; DIMACS out, models in.
//!
//! - [`vars`]: all variable numbering (fixed DIMACS numbering of cell variables, auxiliaries after N³).
//! - [`encode()`]: [`Encoding`] × [`Amo`] into any [`ClauseSink`] (in-memory [`Formula`], varisat
//!   solver, DIMACS writer, [`FormulaStats`] counter).
//! - [`SatBackend`]: the [`Backend`](crate::Backend) built on them; [`Simplify`] says what our own
//!   clause-level code does before varisat.
//! - [`write_dimacs`] / [`formula_stats`]: the formula for external solvers;
//!   [`parse_solver_output`] and [`decode_model`]: their answers back to a grid.
//!
//! # Default configuration
//! [`SatBackend::default`] is the pruned encoding with pairwise at-most-one and
//! [`Simplify::Probe`], the fastest combination measured on the 9x9 benchmark sets (17-clue,
//! top1465, forum-hardest): pruning shrinks the formula varisat must load (its set-up cost grows
//! with the clause count), and probing solves most easy and medium puzzles before varisat is needed.

mod decode;
mod dimacs;
pub mod encode;
mod model;
mod simplify;
pub mod sink;
mod solver;
pub mod vars;

pub use decode::{DecodeError, decode_model};
pub use dimacs::{DimacsWriteError, formula_stats, givens_string, write_dimacs};
pub use encode::{
    Amo, EncodeError, Encoded, Encoding, PredictedSize, UnknownName, amo_size, candidates, encode,
};
pub use model::{Model, ModelError, SolverAnswer, parse_solver_output};
pub use sink::{ClauseSink, Formula, FormulaStats};
pub use solver::{CLAUSE_BUDGET, SatBackend, Simplify};
pub use varisat::{Lit, Var};
