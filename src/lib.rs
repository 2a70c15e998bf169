//! satdoku: Sudoku-family grids of any box shape (4x4 to 400x400), solved by two independent backends — a
//! native depth-first search and a SAT encoding solved in-process by `varisat` (or CaDiCaL, with the
//! `cadical` feature) — that must agree.
//!
//! The model, the backends, the verifier and the cross-check are at the crate root; four modules
//! group what is specific to one concern: [`format`](mod@format) (reading and writing puzzles), [`sat`] (the
//! encodings, DIMACS, solver models, certificates), [`generate`] (making puzzles whose uniqueness
//! both backends settle, and their difficulty) and `study` (measuring backends and encodings,
//! feature `study`). Every item has one path.
//!
//! ```
//! use satdoku::{Backend, DfsBackend, Limits, Shape, Grid, Units, verify, Status};
//!
//! // A 4x4 puzzle (2x2 boxes), row-major, 0 = blank.
//! let shape = Shape::new(2, 2).unwrap();
//! let puzzle = Grid::from_values(shape, vec![
//!     1, 0, 0, 0,
//!     0, 0, 1, 0,
//!     0, 1, 0, 0,
//!     0, 0, 0, 1,
//! ]).unwrap();
//! let units = Units::standard(shape);
//! let report = DfsBackend::new().solve(&units, &puzzle, &Limits::unique()).unwrap();
//! assert_eq!(report.outcome.status(), Status::Multiple);
//! for grid in report.outcome.grids() {
//!     verify(&units, &puzzle, grid).unwrap();
//! }
//! ```
#![deny(missing_docs)]

/// The README's Rust examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod auto;
mod automaton;
mod check;
mod clue;
mod constraint;
mod dfs;
pub mod format;
pub mod generate;
mod grid;
mod nfa;
mod rules;
pub mod sat;
mod solve;
#[cfg(feature = "study")]
pub mod study;
#[cfg(test)]
mod testing;
mod units;
mod verify;

pub use auto::AutoBackend;
pub use automaton::{Edge, Layered};
pub use check::{
    Answer, CrossCheck, Expected, Problem, Verdict, Verified, compare_expected, cross_check, judge,
};
pub use clue::Clue;
pub use constraint::{
    Cage, LineRule, Relation, RelationKind, SumRule, UnknownVariant, Variant, WindowRule, sum_range,
};
pub use dfs::DfsBackend;
pub use grid::{Cell, Digit, DigitSet, Grid, GridError, MAX_N, Shape, ShapeError};
pub use nfa::{MAX_STATES, Nfa};
pub use rules::{RulesBuilder, RulesError};
pub use solve::{
    Backend, Certification, Evidence, Handover, HandoverCall, Limits, Outcome, Report, Solutions,
    SolveError, Stats, Status, WorkCounters, stop_when,
};
pub use units::{Clash, Unit, UnitKind, UnitName, Units};
pub use verify::{Violation, verify};
