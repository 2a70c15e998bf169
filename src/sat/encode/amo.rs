//! At-most-one constraints over a list of literals: pairwise, sequential counter (Sinz 2005) and
//! 2-product (Chen 2010).
//!
//! Sizes for k literals (A = clauses, X = auxiliary variables):
//! - pairwise: A = k(k−1)/2, X = 0.
//! - sequential counter: A = 3k − 4, X = k − 1 (k ≥ 6; below that pairwise is no larger and is used).
//! - 2-product: p = ⌈√k⌉, q = ⌈k/p⌉; A = 2k + A(p) + A(q), X = p + q + X(p) + X(q), recursively
//!   (k ≥ 7; below that pairwise is no larger and is used).

use super::Amo;
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::AuxVars;

/// Below this many literals the sequential counter falls back to pairwise (which is no larger there).
const SEQUENTIAL_FROM: usize = 6;
/// Below this many literals the product encoding falls back to pairwise.
const PRODUCT_FROM: usize = 7;

/// Clauses and auxiliary variables of one at-most-one constraint over `k` literals.
pub fn amo_size(amo: Amo, k: usize) -> (u64, u64) {
    let pairwise = (k * k.saturating_sub(1) / 2) as u64;
    match amo {
        Amo::Pairwise => (pairwise, 0),
        Amo::Sequential if k < SEQUENTIAL_FROM => (pairwise, 0),
        Amo::Sequential => (3 * k as u64 - 4, k as u64 - 1),
        Amo::Product if k < PRODUCT_FROM => (pairwise, 0),
        Amo::Product => {
            let (p, q) = product_dims(k);
            let (ap, xp) = amo_size(Amo::Product, p);
            let (aq, xq) = amo_size(Amo::Product, q);
            (2 * k as u64 + ap + aq, (p + q) as u64 + xp + xq)
        }
    }
}

/// Rows p = ⌈√k⌉ and columns q = ⌈k/p⌉ of the product grid (p·q ≥ k).
fn product_dims(k: usize) -> (usize, usize) {
    let mut p = (k as f64).sqrt() as usize;
    while p * p < k {
        p += 1;
    }
    while p > 1 && (p - 1) * (p - 1) >= k {
        p -= 1;
    }
    (p, k.div_ceil(p))
}

/// Writes "at most one of `lits` is true" to `sink`, taking auxiliary variables from `aux`.
pub fn at_most_one<S: ClauseSink + ?Sized>(
    lits: &[Lit],
    amo: Amo,
    aux: &mut AuxVars,
    sink: &mut S,
) {
    let k = lits.len();
    match amo {
        Amo::Pairwise => pairwise(lits, sink),
        Amo::Sequential if k < SEQUENTIAL_FROM => pairwise(lits, sink),
        Amo::Sequential => sequential(lits, aux, sink),
        Amo::Product if k < PRODUCT_FROM => pairwise(lits, sink),
        Amo::Product => product(lits, aux, sink),
    }
}

/// ¬xᵢ ∨ ¬xⱼ for every pair i < j.
pub(crate) fn pairwise<S: ClauseSink + ?Sized>(lits: &[Lit], sink: &mut S) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[!a, !b]);
        }
    }
}

/// Sinz 2005, "Towards an optimal CNF encoding of Boolean cardinality constraints", LTseq for ≤ 1:
/// sᵢ = "some of x₁..xᵢ is true"; (¬x₁ ∨ s₁), then for 1 < i < k: (¬xᵢ ∨ sᵢ), (¬sᵢ₋₁ ∨ sᵢ),
/// (¬xᵢ ∨ ¬sᵢ₋₁), and (¬x_k ∨ ¬s_{k−1}). 3k − 4 clauses, k − 1 new variables.
fn sequential<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let k = lits.len();
    let mut prev = aux.fresh().positive();
    sink.add_clause(&[!lits[0], prev]);
    for &x in &lits[1..k - 1] {
        let s = aux.fresh().positive();
        sink.add_clause(&[!x, s]);
        sink.add_clause(&[!prev, s]);
        sink.add_clause(&[!x, !prev]);
        prev = s;
    }
    sink.add_clause(&[!lits[k - 1], !prev]);
}

/// Chen 2010, "A new SAT encoding of the at-most-one constraint": place the k literals on a p × q
/// grid; literal i at row ⌊i/q⌋, column i mod q implies row variable uᵣ and column variable v꜀; then
/// at most one u and at most one v, recursively. 2k clauses plus the two smaller constraints.
fn product<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let (p, q) = product_dims(lits.len());
    let u: Vec<Lit> = (0..p).map(|_| aux.fresh().positive()).collect();
    let v: Vec<Lit> = (0..q).map(|_| aux.fresh().positive()).collect();
    for (i, &x) in lits.iter().enumerate() {
        sink.add_clause(&[!x, u[i / q]]);
        sink.add_clause(&[!x, v[i % q]]);
    }
    at_most_one(&u, Amo::Product, aux, sink);
    at_most_one(&v, Amo::Product, aux, sink);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::sink::{Formula, FormulaStats};
    use crate::sat::solver::testing::satisfiable;

    #[test]
    fn dims() {
        assert_eq!(product_dims(9), (3, 3));
        assert_eq!(product_dims(7), (3, 3));
        assert_eq!(product_dims(10), (4, 3));
        assert_eq!(product_dims(16), (4, 4));
        assert_eq!(product_dims(17), (5, 4));
        assert_eq!(product_dims(64), (8, 8));
    }

    #[test]
    fn sizes_match_what_is_written() {
        for amo in [Amo::Pairwise, Amo::Sequential, Amo::Product] {
            for k in 0..=70 {
                let lits: Vec<Lit> = (1..=k as isize).map(Lit::from_dimacs).collect();
                let mut aux = AuxVars::new(5); // aux from 126 on; k <= 70 stays below
                let mut stats = FormulaStats::new();
                at_most_one(&lits, amo, &mut aux, &mut stats);
                assert_eq!(
                    amo_size(amo, k),
                    (stats.clauses, aux.count() as u64),
                    "{amo} k={k}"
                );
            }
        }
        // Hand-computed: k = 9 sequential 23 clauses / 8 aux; product 2·9 + 3 + 3 = 24 / 6.
        assert_eq!(amo_size(Amo::Sequential, 9), (23, 8));
        assert_eq!(amo_size(Amo::Product, 9), (24, 6));
        assert_eq!(amo_size(Amo::Product, 16), (44, 8));
        assert_eq!(amo_size(Amo::Sequential, 5), (10, 0));
        assert_eq!(amo_size(Amo::Product, 6), (15, 0));
    }

    /// Every assignment of k inputs: satisfiable (aux existentially) exactly when at most one is true.
    #[test]
    fn semantics_by_exhaustion() {
        for amo in [Amo::Pairwise, Amo::Sequential, Amo::Product] {
            for k in [0, 1, 2, 5, 6, 7, 9, 10] {
                let lits: Vec<Lit> = (1..=k as isize).map(Lit::from_dimacs).collect();
                let mut aux = AuxVars::new(3); // aux from 28 on
                let mut f = Formula::new();
                at_most_one(&lits, amo, &mut aux, &mut f);
                for bits in 0u32..(1 << k) {
                    let assume: Vec<Lit> = (0..k)
                        .map(|i| Lit::from_index(i, bits >> i & 1 == 1))
                        .collect();
                    assert_eq!(
                        satisfiable(&f, &assume),
                        bits.count_ones() <= 1,
                        "{amo} k={k} bits={bits:b}"
                    );
                }
            }
        }
    }
}
