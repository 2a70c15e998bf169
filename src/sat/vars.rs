//! All SAT variable numbering in one place: the fixed DIMACS cell variables of the plain encodings,
//! the candidate numbering of the pruned encoding, auxiliaries after the cell variables, and the
//! compact numbering handed to a solver.
//!
//! # The fixed numbering (the plain encodings and certificates)
//! Cell variable x(r, c, d) = "the cell at 0-based row r and column c holds digit d (1..=N)" is
//! DIMACS variable `r·N² + c·N + d`, i.e. `cell.index()·N + d`, so cell variables are exactly 1..=N³.
//! Auxiliary variables are numbered after the cell variables (N³ + 1, N³ + 2, … here) in the order
//! the encoder creates them: first those of the killer cages (cage by cage in the rules' order: one
//! selector per digit set in the combinations encoding, one variable per partial sum in the
//! sequential one; all of them whatever the givens; then the clues' sums and lines, then one
//! selector per window of each window rule, renban), then those of the at-most-one constraints
//! (sequential counter, product encoding). Every encoding of one set of rules thus numbers the cages'
//! variables alike after its cell variables, and a model decodes with the puzzle alone.
//!
//! # The candidate numbering (the pruned encoding)
//! Only the open candidates of the puzzle — (cell, digit) pairs of open cells whose digit no peer
//! holds as a given — have variables, numbered 1, 2, … in row-major cell order and increasing digit
//! order within a cell; auxiliaries follow (the cages' first, as above). It too depends on the puzzle
//! alone, and it keeps the formula of a large grid small: 485,081 cell variables for the 400x400
//! rkkautsar puzzle instead of N³ = 64,000,000 (which an external solver would allocate for).
//!
//! # The compact numbering
//! Our own unit propagation fixes many variables before the solver sees the formula. `Compact`
//! renumbers the variables the solver actually sees densely from 0 and maps them back.

use std::ops::Range;

use crate::grid::{Cell, Digit, Shape};
use crate::sat::lit::{Lit, Var};
use crate::units::Units;

/// The most digit sets the combinations encoding writes for one cage.
pub(crate) const MAX_COMBINATIONS: u64 = 20_000;

/// The most cells an implied sum of the cages (`encode/implied.rs`) is written with.
pub(crate) const MAX_IMPLIED_CELLS: usize = 9;

/// The most digit sets an implied sum is given selectors for (a hidden cage); one with more is
/// written as a weighted sum.
pub(crate) const MAX_IMPLIED_COMBINATIONS: u64 = 1_000;

/// An upper bound on the implied sums of `units` (`encode/implied.rs`): at most three per region,
/// the regions being the units, runs of adjacent rows and of adjacent columns, adjacent boxes and the
/// unions of the first and of the last boxes.
fn implied_sums_bound(units: &Units) -> u64 {
    let n = units.shape().n() as u64;
    3 * (units.units().len() as u64 + n * n + 4 * n)
}

/// The number of cell variables of a grid: one per cell and digit (N³ for the classic shapes).
pub fn cell_var_count(shape: Shape) -> usize {
    shape.cells() * shape.n()
}

/// The fixed DIMACS variable of "`cell` holds `digit`" in a grid of side `n`: `cell.index()·N + d`.
pub fn cell_var(n: usize, cell: Cell, digit: Digit) -> Var {
    Var::from_index(cell_var_index(n, cell.index(), digit.index()))
}

/// The 0-based index of the fixed variable of "cell `cell` holds digit `digit_index + 1`" (cell and
/// digit as 0-based indices): `cell·N + digit_index`, one less than the DIMACS number.
#[inline]
pub(crate) fn cell_var_index(n: usize, cell: usize, digit_index: usize) -> usize {
    cell * n + digit_index
}

/// The positive literal of [`cell_var_index`].
#[inline]
pub(crate) fn cell_lit_at(n: usize, cell: usize, digit_index: usize) -> Lit {
    Lit::from_index(cell_var_index(n, cell, digit_index), true)
}

/// The cell index of the cell variable of 0-based index `var_index` (below N³).
#[inline]
pub(crate) fn cell_of_var(n: usize, var_index: usize) -> usize {
    var_index / n
}

/// The 0-based digit index (digit − 1) of the cell variable of 0-based index `var_index`.
#[inline]
pub(crate) fn digit_index_of_var(n: usize, var_index: usize) -> usize {
    var_index % n
}

/// The 0-based indices of the cell variables of cell `cell` (one per digit, in digit order).
#[inline]
pub(crate) fn cell_vars(n: usize, cell: usize) -> Range<usize> {
    cell * n..cell * n + n
}

/// The literal "`cell` holds `digit`" (positive) in the fixed numbering.
pub fn cell_lit(n: usize, cell: Cell, digit: Digit) -> Lit {
    cell_var(n, cell, digit).positive()
}

/// The cell and digit of a fixed-numbering variable, or `None` for an auxiliary variable (above the
/// cell variables).
pub fn var_cell(shape: Shape, var: Var) -> Option<(Cell, Digit)> {
    let n = shape.n();
    let i = var.index();
    if i >= cell_var_count(shape) {
        return None;
    }
    let digit = Digit::new((digit_index_of_var(n, i) + 1) as u16)?;
    Some((Cell::new(cell_of_var(n, i)), digit))
}

/// The cell and digit of a 1-based DIMACS variable number, `None` if it is 0 or above N³.
pub fn dimacs_cell(shape: Shape, var: u64) -> Option<(Cell, Digit)> {
    if var == 0 || var > cell_var_count(shape) as u64 {
        return None;
    }
    var_cell(shape, Var::from_index(var as usize - 1))
}

/// An upper bound on the DIMACS variables any of our encodings of these rules uses: N³ cell
/// variables, the cages' (at most the combinations encoding's cap of digit sets, or k·(k·N + 1)
/// partial sums, for a cage of k cells) plus, at most, N − 1 sequential-counter variables for each
/// of the N² cell and |U|·N unit at-most-one constraints (the sequential counter is the hungriest
/// auxiliary scheme).
pub fn max_dimacs_var(units: &Units) -> u64 {
    max_var_after(units, cell_var_count(units.shape()) as u64)
}

/// The same bound after `cell_vars` cell variables (of either numbering): the rules' auxiliaries
/// (cages, sums, lines, window selectors), then the at-most-one constraints'.
pub(crate) fn max_var_after(units: &Units, cell_vars: u64) -> u64 {
    let n = units.shape().n() as u64;
    let amo_constraints = units.shape().cells() as u64 + units.units().len() as u64 * n;
    // Lines: a variable per node and per edge; sums: per partial sum of each layer and per digit
    // from it (bounded by the sum's range).
    let lines: u64 = units
        .lines()
        .iter()
        .map(|l| {
            (l.graph.edge_count() + (0..=l.graph.len()).map(|i| l.graph.nodes(i)).sum::<usize>())
                as u64
        })
        .sum();
    let sums: u64 = units
        .sums()
        .iter()
        .map(|s| {
            let (lo, hi) = s.range();
            (s.cells.len() as u64 + 1) * (hi - lo + 1).unsigned_abs() * (n + 1)
        })
        .sum();
    let cages: u64 = units
        .cages()
        .iter()
        .map(|c| {
            let k = c.cells.len() as u64;
            MAX_COMBINATIONS.max(k * (k * n + 1))
        })
        .sum();
    // Implied sums: selectors of a hidden cage, or a weighted sum of at most MAX_IMPLIED_CELLS
    // cells (selectors of its groups, a variable per group sum, per node and per edge of its
    // partial sums, which lie within ±k·N).
    let implied = if units.cages().is_empty() {
        0
    } else {
        // Each cage's and hidden cage's digit variables, then the sums.
        let digits = (units.cages().len() as u64 + implied_sums_bound(units)) * n;
        let k = MAX_IMPLIED_CELLS as u64;
        let per = MAX_IMPLIED_COMBINATIONS
            .max(2 * 1000 + (k + 1) * (2 * k * n + 1) * (n + 1) + k * n * n);
        digits + implied_sums_bound(units) * per
    };
    // Window rules (renban): a selector per window.
    let windows: u64 = units
        .window_rules()
        .iter()
        .map(|r| r.windows.len() as u64)
        .sum();
    cell_vars + cages + implied + lines + sums + windows + amo_constraints * (n - 1)
}

/// The cell variables of one formula: the fixed numbering (every (cell, digit) pair), or the
/// candidate numbering of the pruned encoding (see the module docs). Variable indices are 0-based;
/// digits are 0-based digit indices (digit − 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CellVars {
    n: usize,
    /// Cells of the grid.
    cells: usize,
    /// Empty for the fixed numbering. Otherwise, per cell, the index of its first variable, and one
    /// more entry: the number of cell variables.
    first: Vec<u32>,
    /// Candidate numbering: per variable, its cell and its digit index.
    cell: Vec<u32>,
    digit: Vec<u16>,
    /// Auxiliary variables of the rules (cages, sums, lines), numbered first after the cell
    /// variables and alike in every numbering ([`CellVars::set_rules_aux`]).
    rules_aux: usize,
}

impl CellVars {
    /// The fixed numbering of a grid of this shape.
    pub(crate) fn fixed(shape: Shape) -> CellVars {
        CellVars {
            n: shape.n(),
            cells: shape.cells(),
            ..CellVars::default()
        }
    }

    /// Starts a candidate numbering of a grid of this shape (reusing the allocations): add the
    /// candidates with [`CellVars::push`], cell by cell in order, then [`CellVars::finish`].
    pub(crate) fn start_candidates(&mut self, shape: Shape) {
        self.n = shape.n();
        self.cells = shape.cells();
        self.first.clear();
        self.cell.clear();
        self.digit.clear();
        self.rules_aux = 0;
        self.first.reserve(self.cells + 1);
        self.first.push(0);
    }

    /// Adds the next candidate: `digit` (0-based) of `cell`, which is the last cell pushed or a later
    /// one. Returns its variable.
    pub(crate) fn push(&mut self, cell: usize, digit: usize) -> Var {
        let v = self.cell.len() as u32;
        while self.first.len() <= cell {
            self.first.push(v);
        }
        self.cell.push(cell as u32);
        self.digit.push(digit as u16);
        Var::from_index(v as usize)
    }

    /// Closes a candidate numbering: the cells after the last pushed have no variables.
    pub(crate) fn finish(&mut self) {
        let v = self.cell.len() as u32;
        while self.first.len() <= self.cells {
            self.first.push(v);
        }
    }

    /// A candidate numbering of the pairs `(cell, digit index)`, in cell order (a test helper).
    #[cfg(test)]
    pub(crate) fn from_pairs(shape: Shape, pairs: &[(usize, usize)]) -> CellVars {
        let mut c = CellVars::default();
        c.start_candidates(shape);
        for &(cell, d) in pairs {
            c.push(cell, d);
        }
        c.finish();
        c
    }

    /// Records that the formula's first `count` auxiliary variables (after the cell variables) are
    /// the rules' (cages, sums, lines): in the same order in every numbering, so that
    /// [`CellVars::to_fixed`] carries them over.
    pub(crate) fn set_rules_aux(&mut self, count: usize) {
        self.rules_aux = count;
    }

    /// Whether this is the fixed numbering.
    pub(crate) fn is_fixed(&self) -> bool {
        self.first.is_empty()
    }

    /// The number of cell variables (they are the indices `0..count`).
    pub(crate) fn count(&self) -> usize {
        if self.is_fixed() {
            self.cells * self.n
        } else {
            self.cell.len()
        }
    }

    /// The indices of the variables of `cell` (in digit order).
    pub(crate) fn cell_range(&self, cell: usize) -> Range<usize> {
        if self.is_fixed() {
            cell_vars(self.n, cell)
        } else {
            self.first[cell] as usize..self.first[cell + 1] as usize
        }
    }

    /// The variable of digit index `digit` in `cell`, if it has one.
    pub(crate) fn var(&self, cell: usize, digit: usize) -> Option<Var> {
        if self.is_fixed() {
            return (digit < self.n && cell < self.cells)
                .then(|| Var::from_index(cell_var_index(self.n, cell, digit)));
        }
        let range = self.cell_range(cell);
        let digits = &self.digit[range.clone()];
        digits
            .binary_search(&(digit as u16))
            .ok()
            .map(|k| Var::from_index(range.start + k))
    }

    /// The positive literal of [`CellVars::var`].
    pub(crate) fn lit(&self, cell: usize, digit: usize) -> Option<Lit> {
        self.var(cell, digit).map(Var::positive)
    }

    /// The cell and digit index of cell variable `var`, `None` for an auxiliary variable.
    #[inline]
    pub(crate) fn cell_digit(&self, var: usize) -> Option<(usize, usize)> {
        if self.is_fixed() {
            (var < self.cells * self.n)
                .then(|| (cell_of_var(self.n, var), digit_index_of_var(self.n, var)))
        } else {
            Some((*self.cell.get(var)? as usize, self.digit[var] as usize))
        }
    }

    /// The literal of the fixed numbering with the same meaning as `lit`: a cell variable's, or
    /// one of the rules' auxiliary variables (the same variable after the N³ cell variables, see
    /// [`CellVars::set_rules_aux`]); `None` for any other auxiliary variable (an at-most-one
    /// constraint's, which the fixed numbering of another encoding need not have).
    pub(crate) fn to_fixed(&self, lit: Lit) -> Option<Lit> {
        let i = lit.var().index();
        let fixed = match self.cell_digit(i) {
            Some((cell, digit)) => cell_var_index(self.n, cell, digit),
            None => {
                let k = i.checked_sub(self.count())?;
                if k >= self.rules_aux {
                    return None;
                }
                self.cells * self.n + k
            }
        };
        Some(Var::from_index(fixed).lit(lit.is_positive()))
    }
}

/// Hands out auxiliary variables after the cell variables (N³ + 1, N³ + 2, … in the fixed numbering),
/// in order.
#[derive(Clone, Debug)]
pub struct AuxVars {
    first: usize,
    next: usize,
}

impl AuxVars {
    /// Auxiliary variables for a classic grid of side `n` in the fixed numbering, starting at DIMACS
    /// N³ + 1.
    pub fn new(n: usize) -> AuxVars {
        AuxVars::after(n * n * n)
    }

    /// Auxiliary variables for a grid of this shape in the fixed numbering, after its cell
    /// variables.
    pub fn for_shape(shape: Shape) -> AuxVars {
        AuxVars::after(cell_var_count(shape))
    }

    /// Auxiliary variables after `cell_vars` cell variables: DIMACS `cell_vars + 1` on.
    pub(crate) fn after(cell_vars: usize) -> AuxVars {
        let first = cell_vars + 1;
        AuxVars { first, next: first }
    }

    /// A fresh auxiliary variable.
    pub fn fresh(&mut self) -> Var {
        let v = Var::from_dimacs(self.next as isize);
        self.next += 1;
        v
    }

    /// How many auxiliary variables were handed out.
    pub fn count(&self) -> usize {
        self.next - self.first
    }
}

/// A dense renumbering of some fixed-numbering variables, from 0, in order of first [`Compact::map`],
/// optionally with the polarity of cell variables flipped.
///
/// Flipping is a pure renaming (compact yᵢ = ¬x): it matters because varisat decides a fresh variable
/// false first. With cell variables flipped, its first guess about a (cell, digit) pair is "the cell
/// holds the digit", which propagates far more than "it does not".
#[derive(Clone, Debug, Default)]
pub(crate) struct Compact {
    /// Fixed variable index -> compact index + 1 (0 = not mapped).
    to_compact: Vec<u32>,
    /// Compact index -> fixed variable.
    to_fixed: Vec<Var>,
    /// Fixed variables at or below this DIMACS number (the cell variables) are flipped.
    flip_upto: usize,
}

impl Compact {
    /// An empty map for fixed variables with index below `fixed_vars`.
    pub(crate) fn new(fixed_vars: usize) -> Compact {
        Compact {
            to_compact: vec![0; fixed_vars],
            to_fixed: Vec::new(),
            flip_upto: 0,
        }
    }

    /// The same, flipping the polarity of the cell variables (DIMACS 1..=`cell_vars`).
    pub(crate) fn flipping_cells(fixed_vars: usize, cell_vars: usize) -> Compact {
        Compact {
            flip_upto: cell_vars,
            ..Compact::new(fixed_vars)
        }
    }

    fn flipped(&self, fixed: Var) -> bool {
        fixed.index() < self.flip_upto
    }

    /// The compact literal of a fixed-numbering literal, creating the compact variable if needed.
    pub(crate) fn map(&mut self, lit: Lit) -> Lit {
        let i = lit.var().index();
        if i >= self.to_compact.len() {
            self.to_compact.resize(i + 1, 0);
        }
        let slot = &mut self.to_compact[i];
        if *slot == 0 {
            self.to_fixed.push(lit.var());
            *slot = self.to_fixed.len() as u32;
        }
        let index = *slot as usize - 1;
        Lit::from_index(index, lit.is_positive() != self.flipped(lit.var()))
    }

    /// The fixed-numbering literal of a compact literal (undoing any flip).
    pub(crate) fn unmap(&self, lit: Lit) -> Lit {
        let fixed = self.to_fixed[lit.var().index()];
        fixed.lit(lit.is_positive() != self.flipped(fixed))
    }

    /// The compact variable of a fixed variable, if it was mapped.
    pub(crate) fn get(&self, var: Var) -> Option<Var> {
        match self.to_compact.get(var.index()) {
            Some(&s) if s != 0 => Some(Var::from_index(s as usize - 1)),
            _ => None,
        }
    }

    /// The compact literal of a fixed-numbering literal whose variable was mapped, else `None`.
    pub(crate) fn lookup(&self, lit: Lit) -> Option<Lit> {
        let v = self.get(lit.var())?;
        Some(v.lit(lit.is_positive() != self.flipped(lit.var())))
    }

    /// [`Compact::unmap`], or `None` for a compact variable never mapped (one a solver introduced).
    pub(crate) fn try_unmap(&self, lit: Lit) -> Option<Lit> {
        (lit.var().index() < self.to_fixed.len()).then(|| self.unmap(lit))
    }

    /// A variable a solver introduced (compact index at or past [`Compact::len`]) as a fresh variable
    /// of its own: DIMACS `first_fresh` for the first such, and so on.
    pub(crate) fn fresh(&self, lit: Lit, first_fresh: usize) -> Lit {
        let k = lit.var().index() - self.to_fixed.len();
        Lit::from_index(first_fresh - 1 + k, lit.is_positive())
    }

    /// How many variables are mapped.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn len(&self) -> usize {
        self.to_fixed.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_numbering_matches_the_issue_formula() {
        let s = Shape::new(3, 3).unwrap();
        let n = 9;
        // x(r, c, d) = r·N² + c·N + d.
        for (r, c, d) in [
            (0, 0, 1),
            (0, 0, 9),
            (0, 1, 1),
            (1, 0, 1),
            (8, 8, 9),
            (4, 7, 3),
        ] {
            let v = cell_var(n, Cell::at(s, r, c), Digit::new(d).unwrap());
            assert_eq!(v.to_dimacs() as usize, r * 81 + c * 9 + d as usize);
            assert_eq!(
                var_cell(s, v),
                Some((Cell::at(s, r, c), Digit::new(d).unwrap()))
            );
            assert_eq!(
                dimacs_cell(s, v.to_dimacs() as u64),
                Some((Cell::at(s, r, c), Digit::new(d).unwrap()))
            );
        }
        assert_eq!(
            cell_var(n, Cell::new(80), Digit::new(9).unwrap()).to_dimacs(),
            729
        );
        assert_eq!(var_cell(s, Var::from_dimacs(730)), None);
        assert_eq!(dimacs_cell(s, 0), None);
        assert_eq!(dimacs_cell(s, 730), None);
        let mut aux = AuxVars::new(n);
        assert_eq!(aux.fresh().to_dimacs(), 730);
        assert_eq!(aux.fresh().to_dimacs(), 731);
        assert_eq!(aux.count(), 2);
    }

    #[test]
    fn compact_round_trip() {
        let mut c = Compact::new(10);
        let a = c.map(Var::from_index(7).negative());
        let b = c.map(Var::from_index(3).positive());
        let a2 = c.map(Var::from_index(7).positive());
        assert_eq!(a.var(), a2.var());
        assert!(a.is_negative() && a2.is_positive());
        assert_eq!(a.var().index(), 0);
        assert_eq!(b.var().index(), 1);
        assert_eq!(c.unmap(b), Var::from_index(3).positive());
        assert_eq!(c.get(Var::from_index(3)), Some(b.var()));
        assert_eq!(c.get(Var::from_index(4)), None);
        assert_eq!(c.get(Var::from_index(400)), None);
        assert_eq!(c.unmap(a), Var::from_index(7).negative());
        assert_eq!(c.unmap(!b), Var::from_index(3).negative());
        // Flipping cell variables: the compact literal has the other sign, unmap restores it.
        let mut f = Compact::flipping_cells(10, 5);
        let x = f.map(Var::from_index(2).positive());
        let aux = f.map(Var::from_index(6).positive());
        assert!(x.is_negative() && aux.is_positive());
        assert_eq!(f.unmap(x), Var::from_index(2).positive());
        assert_eq!(f.unmap(aux), Var::from_index(6).positive());
        // Growing past the initial size works.
        let z = c.map(Var::from_index(20).positive());
        assert_eq!(c.unmap(z), Var::from_index(20).positive());
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn candidate_numbering() {
        // 4x4: cell 0 has digits 1 and 3 (indices 0, 2), cell 1 none, cell 2 digit 4, others none.
        let c = CellVars::from_pairs(Shape::new(2, 2).unwrap(), &[(0, 0), (0, 2), (2, 3)]);
        assert!(!c.is_fixed());
        assert_eq!(c.count(), 3);
        assert_eq!(c.cell_range(0), 0..2);
        assert_eq!(c.cell_range(1), 2..2);
        assert_eq!(c.cell_range(2), 2..3);
        assert_eq!(c.cell_range(15), 3..3);
        assert_eq!(c.var(0, 2), Some(Var::from_index(1)));
        assert_eq!(c.var(0, 1), None);
        assert_eq!(c.var(2, 3), Some(Var::from_index(2)));
        assert_eq!(c.var(5, 0), None);
        assert_eq!(c.cell_digit(1), Some((0, 2)));
        assert_eq!(c.cell_digit(2), Some((2, 3)));
        assert_eq!(c.cell_digit(3), None);
        // x(r1c3, 4) in the fixed numbering: 2·4 + 4 = DIMACS 12.
        assert_eq!(
            c.to_fixed(Var::from_index(2).negative()),
            Some(Var::from_dimacs(12).negative())
        );
        assert_eq!(c.to_fixed(Var::from_index(3).positive()), None);
        // With two rules' auxiliaries: they follow the 64 cell variables of the fixed numbering,
        // and a third auxiliary (an at-most-one constraint's) has no fixed variable.
        let mut c = c;
        c.set_rules_aux(2);
        assert_eq!(
            c.to_fixed(Var::from_index(4).negative()),
            Some(Var::from_dimacs(66).negative())
        );
        assert_eq!(c.to_fixed(Var::from_index(5).positive()), None);
        let f = CellVars::fixed(Shape::new(3, 3).unwrap());
        assert!(f.is_fixed());
        assert_eq!(f.count(), 729);
        assert_eq!(f.var(80, 8).map(|v| v.to_dimacs()), Some(729));
        assert_eq!(f.cell_digit(728), Some((80, 8)));
        assert_eq!(f.cell_digit(729), None);
        assert_eq!(f.cell_range(1), 9..18);
        let l = Var::from_index(100).positive();
        assert_eq!(f.to_fixed(l), Some(l));
    }
}
