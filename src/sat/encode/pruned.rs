//! The pruned encoding (after Kwon & Jain 2006): the extended encoding simplified by the givens as it
//! is written.
//!
//! A pair (cell, digit) gets a variable only if the cell is open and no peer holds the digit as a
//! given; given cells get none. Clauses: for each open cell, at least one and at most one of its
//! candidates; for each unit and each digit not given in it, at least one and at most one of the open
//! cells that may hold it. That is exactly the extended encoding with the givens set, their peers'
//! copies of the digit set false, satisfied clauses dropped and false literals removed. Besides, with
//! pairwise at-most-one a pair of cells sharing two units (a row and a box, say) gets its binary clause
//! once, from the first unit in list order; the other schemes keep one constraint per unit.
//!
//! Givens that already contradict each other (two equal givens in a unit) make an empty clause, and so
//! does an open cell without candidates or a missing digit without a place: the formula is then
//! unsatisfiable at sight. The size depends on the givens: it is pinned for specific puzzles in the
//! tests.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Amo, at_most_one};
use crate::grid::{Cell, DigitSet, Grid};
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, cell_lit_at};
use crate::units::Units;

/// The digits each cell may hold given the givens alone: a given cell its given; an open cell every
/// digit that no peer holds as a given. Indexed by cell.
///
/// These are the (cell, digit) pairs that have a variable in the pruned encoding (open cells only).
pub fn candidates(units: &Units, puzzle: &Grid) -> Vec<DigitSet> {
    let values = puzzle.values();
    open_candidates(units, values)
        .into_iter()
        .zip(values)
        .map(|(bits, &v)| match v {
            0 => DigitSet::from_bits(bits),
            v => DigitSet::from_bits(1 << (v - 1)),
        })
        .collect()
}

/// Candidate bits (bit d − 1 for digit d) of the open cells; 0 for given cells.
fn open_candidates(units: &Units, values: &[u8]) -> Vec<u64> {
    let all = DigitSet::all(units.shape().n()).bits();
    let mut cand: Vec<u64> = values
        .iter()
        .map(|&v| if v == 0 { all } else { 0 })
        .collect();
    for (i, &v) in values.iter().enumerate() {
        if v != 0 {
            let bit = !(1u64 << (v - 1));
            for &p in units.peers(Cell::new(i)) {
                cand[p.index()] &= bit;
            }
        }
    }
    cand
}

/// For unit `u` and position `i` in it, `masks[u·N + i]` has bit `j` set when the cells at positions
/// `i` and `j` of unit `u` also share a unit listed before `u` (so their pairwise clause was already
/// written there).
fn earlier_pair_masks(units: &Units) -> Vec<u64> {
    let n = units.shape().n();
    let mut masks = vec![0u64; units.units().len() * n];
    for (u, unit) in units.units().iter().enumerate() {
        for (i, &a) in unit.cells.iter().enumerate() {
            let ua = units.units_of(a);
            for (j, &b) in unit.cells.iter().enumerate() {
                let ub = units.units_of(b);
                if i != j
                    && ua
                        .iter()
                        .take_while(|&&x| (x as usize) < u)
                        .any(|x| ub.contains(x))
                {
                    masks[u * n + i] |= 1 << j;
                }
            }
        }
    }
    masks
}

thread_local! {
    /// The pair masks of the last unit list seen on this thread, by [`Units::id`].
    static PAIR_MASKS: RefCell<(u64, Rc<Vec<u64>>)> = RefCell::new((0, Rc::new(Vec::new())));
}

/// [`earlier_pair_masks`], cached per unit list.
fn cached_pair_masks(units: &Units) -> Rc<Vec<u64>> {
    PAIR_MASKS.with(|cell| {
        let mut c = cell.borrow_mut();
        if c.0 != units.id() || c.1.is_empty() {
            *c = (units.id(), Rc::new(earlier_pair_masks(units)));
        }
        Rc::clone(&c.1)
    })
}

pub(super) fn encode_pruned<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    amo: Amo,
    aux: &mut AuxVars,
    sink: &mut S,
) {
    let n = units.shape().n();
    if units.find_clash(puzzle).is_some() {
        sink.add_clause(&[]);
        return;
    }
    let values = puzzle.values();
    let cand = open_candidates(units, values);
    let mut lits: Vec<Lit> = Vec::with_capacity(n);
    for (i, &bits) in cand.iter().enumerate() {
        if values[i] != 0 {
            continue;
        }
        lits.clear();
        let mut b = bits;
        while b != 0 {
            lits.push(cell_lit_at(n, i, b.trailing_zeros() as usize));
            b &= b - 1;
        }
        sink.add_clause(&lits);
        at_most_one(&lits, amo, aux, sink);
    }
    let masks = if amo == Amo::Pairwise {
        cached_pair_masks(units)
    } else {
        Rc::new(Vec::new())
    };
    // Per digit bit: the positions (in the current unit) of the open cells that may hold it.
    let mut places = vec![0u64; n];
    let mut positions: Vec<usize> = Vec::with_capacity(n);
    for (u, unit) in units.units().iter().enumerate() {
        let mut given = 0u64;
        places.iter_mut().for_each(|p| *p = 0);
        for (pos, &c) in unit.cells.iter().enumerate() {
            let v = values[c.index()];
            if v != 0 {
                given |= 1 << (v - 1);
            }
            let mut b = cand[c.index()];
            while b != 0 {
                places[b.trailing_zeros() as usize] |= 1 << pos;
                b &= b - 1;
            }
        }
        for (bit, &at) in places.iter().enumerate() {
            if given >> bit & 1 == 1 {
                continue;
            }
            lits.clear();
            positions.clear();
            let mut m = at;
            while m != 0 {
                let pos = m.trailing_zeros() as usize;
                lits.push(cell_lit_at(n, unit.cells[pos].index(), bit));
                positions.push(pos);
                m &= m - 1;
            }
            sink.add_clause(&lits);
            if amo == Amo::Pairwise {
                for (a, &pa) in positions.iter().enumerate() {
                    let earlier = masks[u * n + pa];
                    for (b, &pb) in positions.iter().enumerate().skip(a + 1) {
                        if earlier >> pb & 1 == 0 {
                            sink.add_clause(&[!lits[a], !lits[b]]);
                        }
                    }
                }
            } else {
                at_most_one(&lits, amo, aux, sink);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::grid::{Digit, Shape};
    use crate::sat::encode::{Encoding, encode};
    use crate::sat::sink::{Formula, FormulaStats};
    use crate::sat::vars::var_cell;

    /// A 9x9 17-clue puzzle: the first puzzle line of `/work/shared/datasets/17-clue.txt` (tdoku's copy of
    /// the 17-clue list, Royle et al.).
    pub(crate) const P17: &str =
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

    pub(crate) fn grid81(s: &str) -> Grid {
        let v = s
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        Grid::from_values(Shape::new(3, 3).unwrap(), v).unwrap()
    }

    fn stats(units: &Units, g: &Grid, e: Encoding, amo: Amo) -> (u64, u64, u64) {
        let mut s = FormulaStats::new();
        encode(units, g, e, amo, &mut s).unwrap();
        (s.variables, s.clauses, s.literals)
    }

    /// The extended encoding with the givens' consequences applied (given true; the given cell's
    /// other digits and the peers' copies false), satisfied clauses dropped, false literals removed:
    /// as a set of sorted clauses. Independent of `encode_pruned`.
    fn simplified_extended(units: &Units, g: &Grid) -> BTreeSet<Vec<isize>> {
        let n = units.shape().n();
        let mut f = Formula::new();
        encode(units, g, Encoding::Extended, Amo::Pairwise, &mut f).unwrap();
        let value = |l: Lit| -> Option<bool> {
            let (cell, d) = var_cell(n, l.var()).unwrap();
            let truth = if let Some(gd) = g.get(cell) {
                Some(gd == d)
            } else if units.peers(cell).iter().any(|&p| g.get(p) == Some(d)) {
                Some(false)
            } else {
                None
            };
            truth.map(|t| t == l.is_positive())
        };
        f.clauses()
            .filter(|c| !c.iter().any(|&l| value(l) == Some(true)))
            .map(|c| {
                let mut v: Vec<isize> = c
                    .iter()
                    .filter(|&&l| value(l).is_none())
                    .map(|l| l.to_dimacs())
                    .collect();
                v.sort_unstable();
                v
            })
            .collect()
    }

    #[test]
    fn pruned_is_extended_simplified_by_the_givens() {
        let units = Units::standard(Shape::new(3, 3).unwrap());
        let g = grid81(P17);
        let mut f = Formula::new();
        encode(&units, &g, Encoding::Pruned, Amo::Pairwise, &mut f).unwrap();
        let ours: Vec<Vec<isize>> = f
            .clauses()
            .map(|c| {
                let mut v: Vec<isize> = c.iter().map(|l| l.to_dimacs()).collect();
                v.sort_unstable();
                v
            })
            .collect();
        let ours_set: BTreeSet<Vec<isize>> = ours.iter().cloned().collect();
        assert_eq!(ours_set, simplified_extended(&units, &g));
        // No binary at-most-one clause twice (the pairwise de-duplication). Positive binary clauses
        // may repeat: a digit with two places left in a row, both in one box, has two such clauses.
        let binary: Vec<&Vec<isize>> = ours.iter().filter(|c| c.len() == 2 && c[1] < 0).collect();
        let distinct: BTreeSet<&Vec<isize>> = binary.iter().copied().collect();
        assert_eq!(binary.len(), distinct.len());
    }

    #[test]
    fn pinned_counts_for_a_17_clue_puzzle() {
        let units = Units::standard(Shape::new(3, 3).unwrap());
        let g = grid81(P17);
        // Candidates left by the 17 givens = pruned variables.
        let cand = candidates(&units, &g);
        let open: u64 = (0..81)
            .filter(|&i| g.get(Cell::new(i)).is_none())
            .map(|i| cand[i].len() as u64)
            .sum();
        let p = stats(&units, &g, Encoding::Pruned, Amo::Pairwise);
        assert_eq!(p.0, open);
        assert_eq!(p, PINNED_17_PAIRWISE);
        assert_eq!(
            stats(&units, &g, Encoding::Pruned, Amo::Sequential),
            PINNED_17_SEQUENTIAL
        );
        assert_eq!(
            stats(&units, &g, Encoding::Pruned, Amo::Product),
            PINNED_17_PRODUCT
        );
        // Versus the extended encoding with 17 unit clauses.
        assert_eq!(
            stats(&units, &g, Encoding::Extended, Amo::Pairwise),
            (729, 11988 + 17, 26244 + 17)
        );
    }

    /// Pinned from the encoder; the pairwise figure is also checked clause by clause against the
    /// simplified extended encoding above, and its variable count against the candidate count.
    const PINNED_17_PAIRWISE: (u64, u64, u64) = (312, 2646, 6028);
    const PINNED_17_SEQUENTIAL: (u64, u64, u64) = (848, 2735, 6206);
    const PINNED_17_PRODUCT: (u64, u64, u64) = (594, 2904, 6544);

    /// 4x4, worked by hand. Givens r1c1 = 1 and r4c4 = 2 (row-major: 1 . . . / . . . . / . . . . /
    /// . . . 2).
    #[test]
    fn pinned_counts_4x4_by_hand() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let mut g = Grid::empty(s);
        g.set(Cell::new(0), Digit::new(1));
        g.set(Cell::new(15), Digit::new(2));
        // Variables: 14 open cells × 4 digits = 56, minus digit 1 at the 7 peers of r1c1 (row 1,
        // column 1, box 1: 3 + 3 + 1) and digit 2 at the 7 peers of r4c4: 56 − 14 = 42.
        let (vars, clauses, _) = stats(&units, &g, Encoding::Pruned, Amo::Pairwise);
        assert_eq!(vars, 42);
        assert!(clauses > 0);
        // Clauses: cells 14 at-least-one + 44 pairs (ten cells of 3 candidates, two of 4, two of 2);
        // units 12 × 4 digits − 6 given = 42 at-least-one; binary at-most-one, once per pair of peers
        // that may both hold the digit: digits 3 and 4 are open in all 14 cells, 56 peer pairs of the
        // grid minus the 14 touching a given cell = 42 each; digits 1 and 2 have 7 places and 11
        // peer pairs each. 14 + 44 + 42 + 42 + 42 + 11 + 11 = 206.
        // Literals: 42 + 2·44 + (42 + 42 + 21 + 21) + 2·106 = 468.
        assert_eq!(clauses, 206);
        assert_eq!(
            stats(&units, &g, Encoding::Pruned, Amo::Pairwise),
            (42, 206, 468)
        );
    }

    #[test]
    fn clash_gives_an_empty_clause() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let mut g = Grid::empty(s);
        g.set(Cell::new(0), Digit::new(1));
        g.set(Cell::new(3), Digit::new(1));
        let mut f = Formula::new();
        encode(&units, &g, Encoding::Pruned, Amo::Pairwise, &mut f).unwrap();
        assert_eq!(f.len(), 1);
        assert!(f.clause(0).is_empty());
    }

    #[test]
    fn no_candidate_gives_an_empty_clause() {
        // r1c1 open, its row holds 2, 3, 4 and its column 1: no candidate left.
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let g = Grid::from_values(s, vec![0, 2, 3, 4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let mut f = Formula::new();
        encode(&units, &g, Encoding::Pruned, Amo::Pairwise, &mut f).unwrap();
        assert!(f.clauses().any(|c| c.is_empty()));
        assert!(candidates(&units, &g)[0].is_empty());
    }
}
