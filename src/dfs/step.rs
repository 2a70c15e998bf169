//! A propagation step's result: a dead end is a value ([`Contradiction`]) that propagates with `?`.

/// A dead end: some cell has no candidate, some digit has no place in a unit, or a digit is repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// The result of a propagation step.
pub(crate) type Step<T> = Result<T, Contradiction>;
