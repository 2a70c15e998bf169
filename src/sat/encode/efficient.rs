//! The efficient encoding (Weber 2005): the minimal encoding plus each cell at most one digit.
//!
//! Size before givens: N³ + (N² + |U|·N)·X(N) variables, N² + (N² + |U|·N)·A(N) clauses (A, X: one
//! at-most-one constraint, see [`super::amo_size`]). Standard rules, pairwise: N² + 2N³(N−1).

use super::choice::Parts;

/// Cell at-least-one and at-most-one, unit at-most-one.
pub(super) const PARTS: Parts = Parts {
    cell_amo: true,
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
        let e = Encoding::Efficient;
        // 9x9: the published 729 variables and 11745 clauses.
        assert_eq!(counts(s(3, 3), e, Amo::Pairwise), (729, 11745, 24057));
        // 324 constraints: sequential 23 clauses / 8 variables each, product 24 / 6.
        assert_eq!(counts(s(3, 3), e, Amo::Sequential).0, 3321);
        assert_eq!(counts(s(3, 3), e, Amo::Sequential).1, 7533);
        assert_eq!(counts(s(3, 3), e, Amo::Product).0, 2673);
        assert_eq!(counts(s(3, 3), e, Amo::Product).1, 7857);
        for amo in Amo::ALL {
            assert_eq!(counts(s(2, 2), e, amo), (64, 400, 832));
        }
        assert_eq!(counts(s(2, 3), e, Amo::Pairwise).1, 2196);
        assert_eq!(counts(s(2, 3), e, Amo::Product).1, 2196);
        assert_eq!(counts(s(2, 3), e, Amo::Sequential).0, 936);
        assert_eq!(counts(s(2, 3), e, Amo::Sequential).1, 2052);
        assert_eq!(counts(s(4, 4), e, Amo::Pairwise).1, 123136);
        assert_eq!(counts(s(4, 4), e, Amo::Sequential).0, 19456);
        assert_eq!(counts(s(4, 4), e, Amo::Sequential).1, 45312);
        assert_eq!(counts(s(4, 4), e, Amo::Product).0, 12288);
        assert_eq!(counts(s(4, 4), e, Amo::Product).1, 45312);
        // Commander: 21 clauses / 3 variables per 9-literal constraint, 45 / 5 per 16; bimander
        // 31 / 3 and 56 / 3 (see amo.rs).
        assert_eq!(counts(s(3, 3), e, Amo::Commander), (1701, 6885, 14337));
        assert_eq!(counts(s(3, 3), e, Amo::Bimander), (1701, 10125, 20817));
        assert_eq!(counts(s(4, 4), e, Amo::Commander), (9216, 46336, 96256));
        assert_eq!(counts(s(4, 4), e, Amo::Bimander), (7168, 57600, 118784));
    }
}
