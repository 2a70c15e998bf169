//! At-most-one constraints over a list of literals: pairwise, sequential counter (Sinz 2005),
//! 2-product (Chen 2010), commander (Klieber & Kwon 2007) and bimander (Nguyen & Mai 2015).
//!
//! Sizes for k literals (A = clauses, X = auxiliary variables; every clause is binary):
//! - pairwise: A = k(k−1)/2, X = 0.
//! - sequential counter: A = 3k − 4, X = k − 1 (k ≥ 6; below that pairwise is no larger and is used).
//! - 2-product: p = ⌈√k⌉, q = ⌈k/p⌉; A = 2k + A(p) + A(q), X = p + q + X(p) + X(q), recursively
//!   (k ≥ 7; below that pairwise is no larger and is used).
//! - commander: groups of three (the last may hold one or two), one commander per group of two or
//!   more (a single literal is its own); A = Σ (pairs in the group + its size) + A(m), X = (groups of
//!   two or more) + X(m) over the m commanders, recursively: about 3k clauses and k/2 variables
//!   (k ≥ 7; below that pairwise is used).
//! - bimander: m = ⌈k/2⌉ groups of two (the last may hold one) and b = ⌈log₂ m⌉ bits;
//!   A = ⌊k/2⌋ + k·b, X = b (k ≥ 7; below that pairwise is no larger and is used).

use super::choice::Amo;
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::AuxVars;

/// Below this many literals the sequential counter falls back to pairwise (which is no larger there).
const SEQUENTIAL_FROM: usize = 6;
/// Below this many literals the product encoding falls back to pairwise.
const PRODUCT_FROM: usize = 7;
/// Below this many literals the commander encoding falls back to pairwise (at 6 it is no smaller).
const COMMANDER_FROM: usize = 7;
/// The commander encoding's group size: Klieber & Kwon's recommended three.
const COMMANDER_GROUP: usize = 3;
/// Below this many literals the bimander encoding falls back to pairwise (at 6 it is no smaller).
const BIMANDER_FROM: usize = 7;
/// The bimander encoding's group size: two, i.e. m = ⌈k/2⌉ groups, the choice Nguyen & Mai
/// measured best.
const BIMANDER_GROUP: usize = 2;

/// [`Amo::Auto`] writes constraints of up to this many literals pairwise, longer ones with the
/// commander encoding. Measured on hard 25x25 puzzles and 64x64-rkkautsar-2 (BENCHMARKS.md): any
/// threshold from 12 to 25 is as fast (within noise), 6 is 15 % slower; pairwise costs k(k−1)/2
/// clauses, so the large units of grids from 81x81 up must be linear. With 16, every grid up to
/// 16x16 is all pairwise.
pub(crate) const AUTO_PAIRWISE_UPTO: usize = 16;

impl Amo {
    /// The scheme this one uses for a constraint over `k` literals: itself, except for
    /// [`Amo::Auto`].
    pub(crate) fn resolve(self, k: usize) -> Amo {
        match self {
            Amo::Auto if k <= AUTO_PAIRWISE_UPTO => Amo::Pairwise,
            Amo::Auto => Amo::Commander,
            other => other,
        }
    }
}

/// Clauses and auxiliary variables of one at-most-one constraint over `k` literals.
pub fn amo_size(amo: Amo, k: usize) -> (u64, u64) {
    let pairwise = (k * k.saturating_sub(1) / 2) as u64;
    match amo.resolve(k) {
        Amo::Auto => unreachable!("resolved"),
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
        Amo::Commander if k < COMMANDER_FROM => (pairwise, 0),
        Amo::Commander => {
            let (mut clauses, mut vars) = (0u64, 0u64);
            for g in (0..k)
                .step_by(COMMANDER_GROUP)
                .map(|i| (k - i).min(COMMANDER_GROUP))
            {
                if g > 1 {
                    clauses += (g * (g - 1) / 2 + g) as u64;
                    vars += 1;
                }
            }
            let (a, x) = amo_size(Amo::Commander, k.div_ceil(COMMANDER_GROUP));
            (clauses + a, vars + x)
        }
        Amo::Bimander if k < BIMANDER_FROM => (pairwise, 0),
        Amo::Bimander => {
            let bits = bimander_bits(k) as u64;
            let pairs = (0..k)
                .step_by(BIMANDER_GROUP)
                .map(|i| {
                    let g = (k - i).min(BIMANDER_GROUP);
                    (g * (g - 1) / 2) as u64
                })
                .sum::<u64>();
            (pairs + k as u64 * bits, bits)
        }
    }
}

/// The bits b = ⌈log₂ m⌉ of the bimander encoding of `k` literals (m = ⌈k/2⌉ groups).
fn bimander_bits(k: usize) -> u32 {
    let m = k.div_ceil(BIMANDER_GROUP);
    usize::BITS - (m.max(1) - 1).leading_zeros()
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
    match amo.resolve(k) {
        Amo::Auto => unreachable!("resolved"),
        Amo::Pairwise => pairwise(lits, sink),
        Amo::Sequential if k < SEQUENTIAL_FROM => pairwise(lits, sink),
        Amo::Sequential => sequential(lits, aux, sink),
        Amo::Product if k < PRODUCT_FROM => pairwise(lits, sink),
        Amo::Product => product(lits, aux, sink),
        Amo::Commander if k < COMMANDER_FROM => pairwise(lits, sink),
        Amo::Commander => commander(lits, aux, sink),
        Amo::Bimander if k < BIMANDER_FROM => pairwise(lits, sink),
        Amo::Bimander => bimander(lits, aux, sink),
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

/// Klieber & Kwon 2007, "Efficient CNF encoding for selecting 1 from N objects" (commander
/// encoding), its at-most-one part: the literals in groups of three; within a group at most one
/// (pairwise), and each literal implies the group's commander c (¬xᵢ ∨ c); then at most one
/// commander, recursively. A group of one literal is its own commander. The exactly-one version's
/// clause c → (some literal of the group) only ties c down and is left out: without it the
/// encoding still admits exactly the assignments with at most one true literal.
fn commander<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let mut commanders = Vec::with_capacity(lits.len().div_ceil(COMMANDER_GROUP));
    for group in lits.chunks(COMMANDER_GROUP) {
        if let [single] = group {
            commanders.push(*single);
            continue;
        }
        let c = aux.fresh().positive();
        pairwise(group, sink);
        for &x in group {
            sink.add_clause(&[!x, c]);
        }
        commanders.push(c);
    }
    at_most_one(&commanders, Amo::Commander, aux, sink);
}

/// Nguyen & Mai 2015, "A new method to encode the at-most-one constraint into SAT" (bimander
/// encoding): the literals in m groups of two, at most one per group (pairwise), and the binary
/// encoding of the group index on b = ⌈log₂ m⌉ new variables: each literal of group i implies bit j
/// of i (¬x ∨ bⱼ, or ¬x ∨ ¬bⱼ). Two true literals in different groups would need two different
/// indices on the same bits.
fn bimander<S: ClauseSink + ?Sized>(lits: &[Lit], aux: &mut AuxVars, sink: &mut S) {
    let bits: Vec<Lit> = (0..bimander_bits(lits.len()))
        .map(|_| aux.fresh().positive())
        .collect();
    for (i, group) in lits.chunks(BIMANDER_GROUP).enumerate() {
        pairwise(group, sink);
        for &x in group {
            for (j, &b) in bits.iter().enumerate() {
                let bit = if i >> j & 1 == 1 { b } else { !b };
                sink.add_clause(&[!x, bit]);
            }
        }
    }
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
        for amo in Amo::ALL {
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
        // Commander, k = 9: three groups of three, 3 + 3 clauses each, then pairwise over the three
        // commanders: 18 + 3 = 21 clauses, 3 variables. k = 7: groups 3, 3, 1: 12 + 3 = 15, 2.
        assert_eq!(amo_size(Amo::Commander, 9), (21, 3));
        assert_eq!(amo_size(Amo::Commander, 7), (15, 2));
        // k = 25: 8 groups of three and one single: 48 clauses, 8 variables; 9 commanders: 21, 3.
        assert_eq!(amo_size(Amo::Commander, 25), (69, 11));
        assert_eq!(amo_size(Amo::Commander, 6), (15, 0));
        // Bimander, k = 9: 5 groups (4 pairs and a single), 3 bits: 4 + 9·3 = 31 clauses.
        assert_eq!(amo_size(Amo::Bimander, 9), (31, 3));
        // k = 16: 8 groups, 3 bits: 8 + 48 = 56. k = 7: 4 groups, 2 bits: 3 + 14 = 17.
        assert_eq!(amo_size(Amo::Bimander, 16), (56, 3));
        assert_eq!(amo_size(Amo::Bimander, 7), (17, 2));
        assert_eq!(amo_size(Amo::Bimander, 6), (15, 0));
    }

    /// Every assignment of k inputs: satisfiable (aux existentially) exactly when at most one is true.
    #[test]
    fn semantics_by_exhaustion() {
        for amo in Amo::ALL {
            for k in [0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12] {
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

    /// Larger k, up to the recursion levels of commander (k ≥ 19) and product (k ≥ 37): the inputs
    /// occur only negatively, so a model stays a model when a true input is made false, and it is
    /// enough that every assignment with at most two true inputs is satisfiable exactly when at
    /// most one is.
    #[test]
    fn semantics_up_to_two_true_inputs() {
        for amo in Amo::ALL {
            for k in [13, 19, 20, 27, 37, 50, 64, 70] {
                let lits: Vec<Lit> = (1..=k as isize).map(Lit::from_dimacs).collect();
                let mut aux = AuxVars::new(5); // aux from 126 on
                let mut f = Formula::new();
                at_most_one(&lits, amo, &mut aux, &mut f);
                assert!(
                    f.clauses()
                        .flatten()
                        .all(|l| l.index() >= k || l.is_negative()),
                    "{amo} k={k}"
                );
                let assignment = |a: Option<usize>, b: Option<usize>| -> Vec<Lit> {
                    (0..k)
                        .map(|i| Lit::from_index(i, Some(i) == a || Some(i) == b))
                        .collect()
                };
                assert!(satisfiable(&f, &assignment(None, None)), "{amo} k={k}");
                for i in 0..k {
                    assert!(
                        satisfiable(&f, &assignment(Some(i), None)),
                        "{amo} k={k} {i}"
                    );
                    for j in i + 1..k {
                        assert!(
                            !satisfiable(&f, &assignment(Some(i), Some(j))),
                            "{amo} k={k} {i} {j}"
                        );
                    }
                }
            }
        }
    }
}
