//! The sink the rules' encoders (relations, cages) write into: clauses in the fixed numbering,
//! carried over into the formula's numbering by the encoder that owns it.

use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;

/// The sink the rules' encoders write into: clauses in the fixed numbering, auxiliaries from N³ + 1.
pub(super) struct Fixed<'a, S: ClauseSink + ?Sized> {
    pub(super) sink: &'a mut S,
}

impl<S: ClauseSink + ?Sized> Fixed<'_, S> {
    /// Adds `lits`.
    pub(super) fn add(&mut self, lits: &[Lit]) {
        self.sink.add_clause(lits);
    }
}
