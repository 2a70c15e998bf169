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
use crate::grid::{Cell, Digit, DigitSet, Grid, MAX_N};
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, cell_lit_at};
use crate::units::Units;

/// The digits each cell may hold given the givens alone: a given cell its given; an open cell every
/// digit that no peer holds as a given. Indexed by cell.
///
/// These are the (cell, digit) pairs that have a variable in the pruned encoding (open cells only).
pub fn candidates(units: &Units, puzzle: &Grid) -> Vec<DigitSet> {
    if units.shape().n() <= 64 {
        candidates_w::<1>(units, puzzle)
    } else {
        candidates_w::<WIDE>(units, puzzle)
    }
}

/// Words of a wide bit set: enough for N ≤ [`MAX_N`] digits (or cells of a unit).
const WIDE: usize = MAX_N.div_ceil(64);

/// A set of up to 64·`W` digits or positions, bit `i` of word `i / 64` for index `i`.
type Bits<const W: usize> = [u64; W];

/// Sets bit `i`.
#[inline(always)]
fn set<const W: usize>(b: &mut Bits<W>, i: usize) {
    b[i / 64] |= 1 << (i % 64);
}

/// Whether bit `i` is set.
#[inline(always)]
fn has<const W: usize>(b: &Bits<W>, i: usize) -> bool {
    b[i / 64] >> (i % 64) & 1 == 1
}

/// The set bits in increasing order.
#[inline(always)]
fn ones<const W: usize>(b: &Bits<W>) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().flat_map(|(w, &word)| {
        let mut m = word;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                64 * w + i
            })
        })
    })
}

fn candidates_w<const W: usize>(units: &Units, puzzle: &Grid) -> Vec<DigitSet> {
    let values = puzzle.values();
    open_candidates::<W>(units, values)
        .into_iter()
        .zip(values)
        .map(|(bits, &v)| match v {
            0 => DigitSet::from_words(&bits),
            v => Digit::new(v).map_or(DigitSet::EMPTY, DigitSet::single),
        })
        .collect()
}

/// Candidate bits (bit d − 1 for digit d) of the open cells; empty for given cells.
fn open_candidates<const W: usize>(units: &Units, values: &[u16]) -> Vec<Bits<W>> {
    let n = units.shape().n();
    let mut all = [0u64; W];
    (0..n).for_each(|i| set(&mut all, i));
    let mut cand: Vec<Bits<W>> = values
        .iter()
        .map(|&v| if v == 0 { all } else { [0; W] })
        .collect();
    for (i, &v) in values.iter().enumerate() {
        if v != 0 {
            let d = usize::from(v - 1);
            let (w, keep) = (d / 64, !(1u64 << (d % 64)));
            if W == 1 {
                for &p in units.peers(Cell::new(i)) {
                    cand[p.index()][w] &= keep;
                }
            } else {
                // Large grids: the units' cells (the given's own cell has no candidates anyway), so
                // that no peer lists are built.
                for &u in units.units_of(Cell::new(i)) {
                    for &p in &units.units()[u as usize].cells {
                        cand[p.index()][w] &= keep;
                    }
                }
            }
        }
    }
    cand
}

/// For unit `u` and position `i` in it, `masks[u·N + i]` has bit `j` set when the cells at positions
/// `i` and `j` of unit `u` also share a unit listed before `u` (so their pairwise clause was already
/// written there). For N ≤ 64.
fn earlier_pair_masks(units: &Units) -> Vec<u64> {
    let n = units.shape().n();
    let mut masks = vec![0u64; units.units().len() * n];
    for (u, unit) in units.units().iter().enumerate() {
        for (i, &a) in unit.cells.iter().enumerate() {
            for (j, &b) in unit.cells.iter().enumerate() {
                if i != j && share_earlier(units, u, a, b) {
                    masks[u * n + i] |= 1 << j;
                }
            }
        }
    }
    masks
}

/// Whether cells `a` and `b` share a unit listed before unit `u`.
#[inline]
fn share_earlier(units: &Units, u: usize, a: Cell, b: Cell) -> bool {
    let ub = units.units_of(b);
    units
        .units_of(a)
        .iter()
        .take_while(|&&x| (x as usize) < u)
        .any(|x| ub.contains(x))
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
    if units.find_clash(puzzle).is_some() {
        sink.add_clause(&[]);
        return;
    }
    if units.shape().n() <= 64 {
        encode_pruned_w::<1, S>(units, puzzle, amo, aux, sink);
    } else {
        encode_pruned_w::<WIDE, S>(units, puzzle, amo, aux, sink);
    }
}

/// [`encode_pruned`] with `W` words per candidate set (1 for N ≤ 64: the pair masks are then
/// precomputed; wider grids test each pair's earlier units as they are written).
fn encode_pruned_w<const W: usize, S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    amo: Amo,
    aux: &mut AuxVars,
    sink: &mut S,
) {
    let n = units.shape().n();
    let values = puzzle.values();
    let cand = open_candidates::<W>(units, values);
    let mut lits: Vec<Lit> = Vec::with_capacity(n);
    for (i, bits) in cand.iter().enumerate() {
        if values[i] != 0 {
            continue;
        }
        lits.clear();
        lits.extend(ones(bits).map(|d| cell_lit_at(n, i, d)));
        sink.add_clause(&lits);
        at_most_one(&lits, amo, aux, sink);
    }
    let masks = if amo == Amo::Pairwise && W == 1 {
        cached_pair_masks(units)
    } else {
        Rc::new(Vec::new())
    };
    // Per digit: the positions (in the current unit) of the open cells that may hold it.
    let mut places: Vec<Bits<W>> = vec![[0; W]; n];
    let mut positions: Vec<usize> = Vec::with_capacity(n);
    for (u, unit) in units.units().iter().enumerate() {
        let mut given = [0u64; W];
        places.iter_mut().for_each(|p| *p = [0; W]);
        for (pos, &c) in unit.cells.iter().enumerate() {
            let v = values[c.index()];
            if v != 0 {
                set(&mut given, usize::from(v - 1));
            }
            for d in ones(&cand[c.index()]) {
                set(&mut places[d], pos);
            }
        }
        for (bit, at) in places.iter().enumerate() {
            if has(&given, bit) {
                continue;
            }
            lits.clear();
            positions.clear();
            for pos in ones(at) {
                lits.push(cell_lit_at(n, unit.cells[pos].index(), bit));
                positions.push(pos);
            }
            sink.add_clause(&lits);
            if amo == Amo::Pairwise {
                for (a, &pa) in positions.iter().enumerate() {
                    let earlier = masks.get(u * n + pa).copied();
                    for (b, &pb) in positions.iter().enumerate().skip(a + 1) {
                        let written = match earlier {
                            Some(m) => m >> pb & 1 == 1,
                            None => share_earlier(units, u, unit.cells[pa], unit.cells[pb]),
                        };
                        if !written {
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
            .map(|b| {
                if b.is_ascii_digit() {
                    u16::from(b - b'0')
                } else {
                    0
                }
            })
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
    fn the_wide_path_writes_the_same_formula() {
        // The path for N > 64 (several words per set, pairs tested as written) on grids that the
        // one-word path also encodes: the same clauses in the same order, the same candidates.
        let s4 = Shape::new(2, 2).unwrap();
        let four = vec![1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2];
        for g in [grid81(P17), Grid::from_values(s4, four).unwrap()] {
            let shape = g.shape();
            let units = Units::standard(shape);
            for amo in [Amo::Pairwise, Amo::Sequential, Amo::Product] {
                let clauses = |wide: bool| {
                    let mut f = Formula::new();
                    let mut aux = AuxVars::new(shape.n());
                    if wide {
                        encode_pruned_w::<WIDE, _>(&units, &g, amo, &mut aux, &mut f);
                    } else {
                        encode_pruned_w::<1, _>(&units, &g, amo, &mut aux, &mut f);
                    }
                    f.clauses().map(<[Lit]>::to_vec).collect::<Vec<_>>()
                };
                let one = clauses(false);
                assert!(!one.is_empty());
                assert_eq!(clauses(true), one, "{shape} {amo}");
            }
            assert_eq!(
                candidates_w::<WIDE>(&units, &g),
                candidates_w::<1>(&units, &g)
            );
        }
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
