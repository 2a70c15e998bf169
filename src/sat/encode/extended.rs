//! The extended encoding (Lynce & Ouaknine 2006): the efficient encoding plus each unit holds each
//! digit at least once.
//!
//! Size before givens: N³ + (N² + |U|·N)·X(N) variables, N² + |U|·N + (N² + |U|·N)·A(N) clauses (A,
//! X: one at-most-one constraint, see [`super::amo_size`]). Standard rules, pairwise:
//! 4N² + 2N³(N−1).

use super::choice::Parts;

/// Cell and unit at-least-one and at-most-one.
pub(super) const PARTS: Parts = Parts {
    cell_amo: true,
    unit_alo: true,
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
        let e = Encoding::Extended;
        // 9x9: the published 729 variables and 11988 clauses; 324·9 + 2·11664 literals.
        assert_eq!(counts(s(3, 3), e, Amo::Pairwise), (729, 11988, 26244));
        assert_eq!(counts(s(3, 3), e, Amo::Sequential).0, 3321);
        assert_eq!(counts(s(3, 3), e, Amo::Sequential).1, 7776);
        assert_eq!(counts(s(3, 3), e, Amo::Product).0, 2673);
        assert_eq!(counts(s(3, 3), e, Amo::Product).1, 8100);
        for amo in Amo::ALL {
            assert_eq!(counts(s(2, 2), e, amo), (64, 448, 1024));
        }
        assert_eq!(counts(s(2, 3), e, Amo::Pairwise).1, 2304);
        assert_eq!(counts(s(2, 3), e, Amo::Product).1, 2304);
        assert_eq!(counts(s(2, 3), e, Amo::Sequential).0, 936);
        assert_eq!(counts(s(2, 3), e, Amo::Sequential).1, 2160);
        assert_eq!(counts(s(4, 4), e, Amo::Pairwise), (4096, 123904, 262144));
        assert_eq!(counts(s(4, 4), e, Amo::Sequential).1, 46080);
        assert_eq!(counts(s(4, 4), e, Amo::Product).1, 46080);
        // Commander: 9 literals 21 clauses / 3 variables, 16 literals 45 / 5; bimander 31 / 3 and
        // 56 / 3 (see amo.rs); 324 (9x9) and 1024 (16x16) at-most-one constraints, and 9·324 or
        // 16·1024 literals in the at-least-one clauses.
        assert_eq!(counts(s(3, 3), e, Amo::Commander), (1701, 7128, 16524));
        assert_eq!(counts(s(3, 3), e, Amo::Bimander), (1701, 10368, 23004));
        assert_eq!(counts(s(4, 4), e, Amo::Commander), (9216, 47104, 108544));
        assert_eq!(counts(s(4, 4), e, Amo::Bimander), (7168, 58368, 131072));
    }
}
