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
//! [`Simplify::Probe`], the fastest combination measured. Thread CPU µs per puzzle, first solution,
//! mean over the first 1000 puzzles of each set, release build, 2-core shared machine, measured
//! back to back with the naive varisat baseline (`shared/peers/varisat-naive`, `--mode fresh`:
//! extended CNF, fresh solver, givens as unit clauses) on 2026-11-22:
//!
//! | configuration | 17-clue | top1465 | forum-hardest-1905-11plus |
//! |---|---:|---:|---:|
//! | naive varisat baseline | 470 | 602 | 906 |
//! | extended / pairwise / none | 569 | 669 | 889 |
//! | pruned / pairwise / none | 225 | 259 | 360 |
//! | pruned / pairwise / propagate | 126 | 254 | 373 |
//! | **pruned / pairwise / probe** | **63** (median 56) | **141** | **397** |
//! | pruned / product / probe | 67 | 148 | 443 |
//! | pruned / sequential / probe | 72 | 177 | 467 |
//! | extended / pairwise / probe | 128 | 344 | 544 |
//! | minimal / pairwise / probe | 840 | 657 | 2055 |
//! | efficient / pairwise / probe | 795 | 641 | 1974 |
//!
//! Pruning matters because varisat's set-up cost grows with the clause count (a fresh solver loads
//! 11,988 extended clauses in about 370 µs here); probing matters because it settles 99.9% of the
//! 17-clue and 98% of the top1465 sample without varisat. The hardest set resists probing (it has
//! no failed literal) and is solved fastest with no simplification at all, 10% ahead of the
//! default. The minimal and efficient encodings, though smaller, are 5-10x slower for varisat.

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
