//! The pairwise relations of variants as binary clauses over the cell variables.
//!
//! - "Must differ" (anti-knight, anti-king): for each digit d, ¬x(a, d) ∨ ¬x(b, d): N clauses a pair,
//!   the at-most-one clauses a unit of two cells would have (Lynce & Ouaknine 2006 write every unit
//!   this way).
//! - Non-consecutive: for each d < N, ¬x(a, d) ∨ ¬x(b, d + 1) and ¬x(a, d + 1) ∨ ¬x(b, d): 2(N − 1)
//!   clauses a pair, the conflict clauses of the direct encoding of a binary constraint (Walsh 2000,
//!   "SAT v CSP": one clause per forbidden pair of values).

use super::fixed::Fixed;
use crate::constraint::{Relation, RelationKind};
use crate::sat::sink::ClauseSink;
use crate::sat::vars::cell_lit_at;

/// Clauses of one relation in a grid of side `n`.
pub(super) fn relation_clauses(n: usize) -> impl Fn(RelationKind) -> u64 {
    move |kind| match kind {
        RelationKind::NonConsecutive => 2 * (n as u64 - 1),
        _ => n as u64,
    }
}

/// Writes the clauses of `relations` (through `fixed`, which drops what the givens decide).
pub(super) fn encode_relations<S: ClauseSink + ?Sized>(
    n: usize,
    relations: &[Relation],
    fixed: &mut Fixed<'_, S>,
) {
    // The relations of the data-free variants; the lowered ones are `lines.rs`'s.
    for r in relations.iter().filter(|r| r.kind.is_variant()) {
        let (a, b) = (r.a.index(), r.b.index());
        let x = |cell, d| cell_lit_at(n, cell, d);
        if r.kind.is_differ() {
            for d in 0..n {
                fixed.add(&[!x(a, d), !x(b, d)]);
            }
        } else {
            for d in 0..n.saturating_sub(1) {
                fixed.add(&[!x(a, d), !x(b, d + 1)]);
                fixed.add(&[!x(a, d + 1), !x(b, d)]);
            }
        }
    }
}
