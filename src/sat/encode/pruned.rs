//! The pruned encoding (after Kwon & Jain 2006): the extended encoding simplified by the givens as it
//! is written, over the candidate numbering (see [`crate::sat::vars`]).
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
//! tests. Work and memory grow with the open candidates, not with N³.

use super::amo::at_most_one;
use super::choice::Amo;
use crate::grid::{Cell, Digit, DigitSet, Grid};
use crate::sat::lit::{Lit, Var};
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, CellVars};
use crate::units::Units;

/// Candidate digits per cell as bit words: `words` 64-bit words per cell, bit `d` (over the
/// words) for digit index `d`.
struct Candidates {
    words: usize,
    bits: Vec<u64>,
}

impl Candidates {
    /// The words of `cell`.
    fn of(&self, cell: usize) -> &[u64] {
        &self.bits[cell * self.words..(cell + 1) * self.words]
    }

    /// The digit indices of `cell`, ascending.
    fn digits(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.of(cell).iter().enumerate().flat_map(|(w, &word)| {
            let mut b = word;
            std::iter::from_fn(move || {
                (b != 0).then(|| {
                    let d = 64 * w + b.trailing_zeros() as usize;
                    b &= b - 1;
                    d
                })
            })
        })
    }
}

/// The candidates of the open cells (none for given cells): every digit that no unit of the cell
/// holds as a given. One pass over the units for their given digits, one over the cells.
fn open_candidates<V: Copy + Into<usize>>(units: &Units, values: &[V]) -> Candidates {
    let n = units.shape().n();
    let words = n.div_ceil(64);
    let mut given = vec![0u64; units.units().len() * words];
    for (u, unit) in units.units().iter().enumerate() {
        let g = &mut given[u * words..(u + 1) * words];
        for c in &unit.cells {
            let v: usize = values[c.index()].into();
            if v != 0 {
                g[(v - 1) / 64] |= 1 << ((v - 1) % 64);
            }
        }
    }
    let all: Vec<u64> = (0..words)
        .map(|w| match n - 64 * w {
            k if k >= 64 => u64::MAX,
            k => (1u64 << k) - 1,
        })
        .collect();
    let mut bits = vec![0u64; values.len() * words];
    for (i, &v) in values.iter().enumerate() {
        if v.into() != 0 {
            continue;
        }
        let cand = &mut bits[i * words..(i + 1) * words];
        cand.copy_from_slice(&all);
        for &u in units.units_of(Cell::new(i)) {
            let g = &given[u as usize * words..(u as usize + 1) * words];
            cand.iter_mut().zip(g).for_each(|(c, &g)| *c &= !g);
        }
    }
    Candidates { words, bits }
}

/// The digits each cell may hold given the givens alone: a given cell its given; an open cell every
/// digit that no peer holds as a given. Indexed by cell.
///
/// These are the (cell, digit) pairs that have a variable in the pruned encoding (open cells only).
pub fn candidates(units: &Units, puzzle: &Grid) -> Vec<DigitSet> {
    let cand = open_candidates(units, puzzle.values());
    (0..puzzle.shape().cells())
        .map(|i| {
            let mut set = DigitSet::EMPTY;
            match puzzle.get(Cell::new(i)) {
                Some(d) => set.insert(d),
                None => cand
                    .digits(i)
                    .filter_map(|d| Digit::new((d + 1) as _))
                    .for_each(|d| set.insert(d)),
            }
            set
        })
        .collect()
}

/// The candidate numbering of `puzzle` (see [`crate::sat::vars`]): its open candidates in cell order.
pub(crate) fn number_candidates(units: &Units, puzzle: &Grid) -> CellVars {
    let mut vars = CellVars::default();
    number(
        &open_candidates(units, puzzle.values()),
        units.shape(),
        &mut vars,
    );
    vars
}

/// Numbers the candidates `cand` of a grid of this shape into `vars`.
fn number(cand: &Candidates, shape: crate::grid::Shape, vars: &mut CellVars) {
    vars.start_candidates(shape);
    for i in 0..shape.cells() {
        for d in cand.digits(i) {
            vars.push(i, d);
        }
    }
    vars.finish();
}

/// Whether cells `a` and `b` share a unit listed before unit `u` (`units_of` lists are ascending).
#[inline]
fn share_earlier_unit(units: &Units, a: Cell, b: Cell, u: u32) -> bool {
    let ub = units.units_of(b);
    units
        .units_of(a)
        .iter()
        .take_while(|&&x| x < u)
        .any(|x| ub.contains(x))
}

/// Writes the pruned encoding of `puzzle` into `sink`, numbering its cell variables in `vars` (a
/// candidate numbering, rebuilt here); its auxiliary variables follow the `taken` that come first
/// after the cell variables (the cages'). Returns the number of its own auxiliary variables.
pub(super) fn encode_pruned<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    amo: Amo,
    vars: &mut CellVars,
    taken: usize,
    sink: &mut S,
) -> usize {
    let n = units.shape().n();
    let values = puzzle.values();
    let cand = open_candidates(units, values);
    number(&cand, units.shape(), vars);
    if units.find_clash(puzzle).is_some() {
        sink.add_clause(&[]);
        return 0;
    }
    let mut aux = AuxVars::after(vars.count() + taken);
    let mut lits: Vec<Lit> = Vec::with_capacity(n);
    for (i, &v) in values.iter().enumerate() {
        if Into::<usize>::into(v) != 0 {
            continue;
        }
        lits.clear();
        lits.extend(vars.cell_range(i).map(|v| Var::from_index(v).positive()));
        sink.add_clause(&lits);
        at_most_one(&lits, amo, &mut aux, sink);
    }
    // Per unit: the positions of the open cells that may hold each digit, bucketed by digit (CSR).
    let mut given = vec![false; n];
    let mut start = vec![0u32; n + 1];
    let mut places: Vec<(u32, Lit)> = Vec::new();
    let mut cells: Vec<Cell> = Vec::with_capacity(n);
    for (u, unit) in units.units().iter().enumerate() {
        given.iter_mut().for_each(|g| *g = false);
        start.iter_mut().for_each(|s| *s = 0);
        for c in &unit.cells {
            let v: usize = values[c.index()].into();
            if v != 0 {
                given[v - 1] = true;
            }
            for d in cand.digits(c.index()) {
                start[d + 1] += 1;
            }
        }
        for d in 0..n {
            start[d + 1] += start[d];
        }
        places.clear();
        places.resize(start[n] as usize, (0, Lit::from_index(0, true)));
        for (pos, c) in unit.cells.iter().enumerate() {
            // The cell's variables were numbered in the order of its digits.
            for (d, v) in cand.digits(c.index()).zip(vars.cell_range(c.index())) {
                let slot = &mut start[d];
                places[*slot as usize] = (pos as u32, Var::from_index(v).positive());
                *slot += 1;
            }
        }
        // `start[d]` is now the end of digit d's bucket, and `start[d - 1]` its start.
        let mut begin = 0usize;
        for d in 0..n {
            let end = start[d] as usize;
            let bucket = &places[begin..end];
            begin = end;
            if given[d] {
                continue;
            }
            lits.clear();
            lits.extend(bucket.iter().map(|&(_, l)| l));
            sink.add_clause(&lits);
            if amo.resolve(lits.len()) == Amo::Pairwise {
                cells.clear();
                cells.extend(bucket.iter().map(|&(pos, _)| unit.cells[pos as usize]));
                for (a, &ca) in cells.iter().enumerate() {
                    for (b, &cb) in cells.iter().enumerate().skip(a + 1) {
                        if !share_earlier_unit(units, ca, cb, u as u32) {
                            sink.add_clause(&[!lits[a], !lits[b]]);
                        }
                    }
                }
            } else {
                at_most_one(&lits, amo, &mut aux, sink);
            }
        }
    }
    aux.count()
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
        crate::testing::grid(Shape::new(3, 3).unwrap(), s)
    }

    fn stats(units: &Units, g: &Grid, e: Encoding, amo: Amo) -> (u64, u64, u64) {
        let mut s = FormulaStats::new();
        encode(units, g, e, amo, &mut s).unwrap();
        (s.variables, s.clauses, s.literals)
    }

    /// The extended encoding with the givens' consequences applied (given true; the given cell's
    /// other digits and the peers' copies false), satisfied clauses dropped, false literals removed,
    /// and the variables left renumbered from 1 in increasing order (cell order, then digit order:
    /// the candidate numbering): as a set of sorted clauses. Independent of `encode_pruned`.
    fn simplified_extended(units: &Units, g: &Grid) -> BTreeSet<Vec<isize>> {
        simplified_extended_clauses(units, g).into_iter().collect()
    }

    /// [`simplified_extended`] as a list, in encoding order, duplicates kept.
    fn simplified_extended_clauses(units: &Units, g: &Grid) -> Vec<Vec<isize>> {
        let n = units.shape().n();
        let mut f = Formula::new();
        encode(units, g, Encoding::Extended, Amo::Pairwise, &mut f).unwrap();
        let value = |l: Lit| -> Option<bool> {
            let (cell, d) = var_cell(units.shape(), l.var()).unwrap();
            let truth = if let Some(gd) = g.get(cell) {
                Some(gd == d)
            } else if units.peers(cell).iter().any(|&p| g.get(p) == Some(d)) {
                Some(false)
            } else {
                None
            };
            truth.map(|t| t == l.is_positive())
        };
        // Fixed DIMACS number -> candidate number, for the variables left open.
        let mut renumber = vec![0isize; n * n * n + 1];
        let mut next = 0;
        for (x, slot) in renumber.iter_mut().enumerate().skip(1) {
            if value(Lit::from_dimacs(x as isize)).is_none() {
                next += 1;
                *slot = next;
            }
        }
        f.clauses()
            .filter(|c| !c.iter().any(|&l| value(l) == Some(true)))
            .map(|c| {
                let mut v: Vec<isize> = c
                    .iter()
                    .filter(|&&l| value(l).is_none())
                    .map(|l| renumber[l.var().to_dimacs() as usize] * l.to_dimacs().signum())
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
    const PINNED_17_COMMANDER: (u64, u64, u64) = (422, 2688, 6112);
    const PINNED_17_BIMANDER: (u64, u64, u64) = (409, 2806, 6348);
    const PINNED_25_COMMANDER: (u64, u64, u64) = (4502, 22952, 52708);
    const PINNED_25_BIMANDER: (u64, u64, u64) = (4218, 27266, 61336);

    /// `fixtures/25x25-rkkautsar-1.txt` (ints, `0` blank).
    fn rkkautsar25() -> Grid {
        let v = include_str!("../../../fixtures/25x25-rkkautsar-1.txt")
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        Grid::from_values(Shape::new(5, 5).unwrap(), v).unwrap()
    }

    /// For the schemes other than pairwise (one at-most-one constraint per cell and per unit-digit,
    /// no de-duplication), the size follows from the constraint sizes k, read off the simplified
    /// extended encoding independently of `encode_pruned` (each constraint has exactly one
    /// all-positive at-least-one clause, over its k literals), and [`amo_size`] (checked against
    /// hand-computed figures in amo.rs): variables = open candidates + Σ X(k), clauses = constraints
    /// + Σ A(k), literals = Σ k + 2 Σ A(k) (every at-most-one clause is binary).
    #[test]
    fn sizes_follow_from_the_constraint_sizes() {
        use crate::sat::encode::amo_size;
        let units9 = Units::standard(Shape::new(3, 3).unwrap());
        let units25 = Units::standard(Shape::new(5, 5).unwrap());
        let g25 = rkkautsar25();
        for (units, g, (pinned_amo, pinned)) in [
            (&units9, grid81(P17), (Amo::Commander, PINNED_17_COMMANDER)),
            (&units9, grid81(P17), (Amo::Bimander, PINNED_17_BIMANDER)),
            (&units25, g25.clone(), (Amo::Commander, PINNED_25_COMMANDER)),
            (&units25, g25, (Amo::Bimander, PINNED_25_BIMANDER)),
        ] {
            let clauses = simplified_extended_clauses(units, &g);
            let open = clauses.iter().flatten().map(|l| l.abs()).max().unwrap_or(0) as u64;
            let sizes: Vec<usize> = clauses
                .iter()
                .filter(|c| c.iter().all(|&l| l > 0))
                .map(Vec::len)
                .collect();
            for amo in [Amo::Sequential, Amo::Product, Amo::Commander, Amo::Bimander] {
                let (mut vars, mut count, mut lits) = (open, sizes.len() as u64, 0u64);
                for &k in &sizes {
                    let (a, x) = amo_size(amo, k);
                    vars += x;
                    count += a;
                    lits += k as u64 + 2 * a;
                }
                assert_eq!(
                    stats(units, &g, Encoding::Pruned, amo),
                    (vars, count, lits),
                    "{amo}"
                );
            }
            let amo = pinned_amo;
            assert_eq!(stats(units, &g, Encoding::Pruned, amo), pinned, "{amo}");
        }
    }

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
