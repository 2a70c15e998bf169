//! The minimal encoding (Lynce & Ouaknine 2006): each cell at least one digit; each unit each digit
//! at most once.
//!
//! Size before givens: N³ + |U|·N·X(N) variables, N² + |U|·N·A(N) clauses (A, X: one at-most-one
//! constraint, see [`super::amo_size`]). Standard rules, pairwise: N² + 3N³(N−1)/2 clauses.
//!
//! Its models are exactly the solutions although cells have no at-most-one clause: a unit's N cells
//! hold at least N digit occurrences and, each digit being there at most once, at most N.

use super::choice::Parts;

/// Cell at-least-one and unit at-most-one only.
pub(super) const PARTS: Parts = Parts {
    cell_amo: false,
    unit_alo: false,
};

#[cfg(test)]
mod tests {
    use super::super::tests::counts;
    use super::super::{Amo, Encoding};
    use crate::grid::Shape;

    fn s(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn pinned_counts() {
        let m = Encoding::Minimal;
        // 9x9: the published 729 variables and 8829 clauses; 81·9 + 2·8748 literals.
        assert_eq!(counts(s(3, 3), m, Amo::Pairwise), (729, 8829, 18225));
        // Sequential: 243 constraints of 23 clauses and 8 new variables.
        assert_eq!(counts(s(3, 3), m, Amo::Sequential).0, 2673);
        assert_eq!(counts(s(3, 3), m, Amo::Sequential).1, 5670);
        // Product: 243 constraints of 24 clauses and 6 new variables.
        assert_eq!(counts(s(3, 3), m, Amo::Product).0, 2187);
        assert_eq!(counts(s(3, 3), m, Amo::Product).1, 5913);
        // 4x4: 16 + 48·6; every amo is pairwise at 4 literals.
        for amo in Amo::ALL {
            assert_eq!(counts(s(2, 2), m, amo), (64, 304, 640));
        }
        // 6x6 (2x3 boxes): 36 + 108·15; sequential 36 + 108·14 with 108·5 new variables.
        assert_eq!(counts(s(2, 3), m, Amo::Pairwise).1, 1656);
        assert_eq!(counts(s(2, 3), m, Amo::Product).1, 1656);
        assert_eq!(counts(s(2, 3), m, Amo::Sequential).0, 756);
        assert_eq!(counts(s(2, 3), m, Amo::Sequential).1, 1548);
        // 16x16: 256 + 768·120; sequential / product 256 + 768·44.
        assert_eq!(counts(s(4, 4), m, Amo::Pairwise).0, 4096);
        assert_eq!(counts(s(4, 4), m, Amo::Pairwise).1, 92416);
        assert_eq!(counts(s(4, 4), m, Amo::Sequential).0, 15616);
        assert_eq!(counts(s(4, 4), m, Amo::Sequential).1, 34048);
        assert_eq!(counts(s(4, 4), m, Amo::Product).0, 10240);
        assert_eq!(counts(s(4, 4), m, Amo::Product).1, 34048);
        // Commander: 243 (9x9) / 768 (16x16) constraints of 21 clauses and 3 new variables / 45
        // and 5; bimander 31 and 3 / 56 and 3 (see amo.rs).
        assert_eq!(counts(s(3, 3), m, Amo::Commander), (1458, 5184, 10935));
        assert_eq!(counts(s(3, 3), m, Amo::Bimander), (1458, 7614, 15795));
        assert_eq!(counts(s(4, 4), m, Amo::Commander), (7936, 34816, 73216));
        assert_eq!(counts(s(4, 4), m, Amo::Bimander), (6400, 43264, 90112));
    }
}
