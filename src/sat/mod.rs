//! The SAT backend: CNF encodings of the unit model, solved with `varisat`; DIMACS out, models in.

pub mod encode;
mod simplify;
pub mod sink;
mod solver;
pub mod vars;

pub use encode::{
    Amo, EncodeError, Encoded, Encoding, PredictedSize, UnknownName, amo_size, candidates, encode,
};
pub use sink::{ClauseSink, Formula, FormulaStats};
pub use solver::{CLAUSE_BUDGET, SatBackend, Simplify};
pub use varisat::{Lit, Var};
