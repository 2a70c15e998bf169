//! Constraints that killer cages imply together with the units, written as more clauses: the
//! encoder's own derivation from the model, for the unit-propagation strength the plain cage
//! clauses lack.
//!
//! - **Implied sums ("rule of 45")**: a unit holds each of 1..=N once, so a region made of m
//!   disjoint units adds up to m·N(N+1)/2. Take a set Q of disjoint cages meeting the region: the
//!   region's cells outside Q ("innies") minus Q's cells outside the region ("outies") add up to
//!   m·N(N+1)/2 − Σ sums(Q). Regions: every unit of N cells, runs of adjacent rows and of adjacent
//!   columns, pairs of adjacent boxes, and the unions of the first and of the last boxes in reading
//!   order; Q: the cages inside the region, every cage meeting it, and the cages with more than
//!   half their cells in it (the choice of sigh's Interactive Sudoku Solver,
//!   `optimizer.js`, "innie/outie" and "hidden cage" sums). Kept: innies whose cells must all
//!   differ (a hidden cage) of at most [`HIDDEN_CELLS`] cells, other sums of at most [`SUM_CELLS`]
//!   cells with at most [`OUTIES`] subtracted (larger ones cost the solver more per conflict than
//!   they save: BENCHMARKS.md, "SAT on killers"). A hidden cage takes the cages' combinations
//!   encoding (selectors, `cages.rs`: the support encoding of a table constraint, Bacchus 2007,
//!   "GAC via unit propagation") with the clauses below; another sum the weighted sum of clue sums
//!   (`lines.rs`: the decision diagram of the linear equation, Abío & Stuckey 2014, "Encoding
//!   linear constraints into SAT", with a selector group for cells that differ).
//! - **Cage digits**: a variable per cage and digit, y(C, d) = "the cage holds d", equal to the
//!   disjunction of its cells' x(c, d) and to that of the selectors whose digit set holds d (a unit
//!   clause when every set or none does): the "digits needed by every combination" and the
//!   combinations' forcing and excluding of digits, as single literals the solver can learn over.
//! - **House clauses**: for each unit U of N cells meeting a cage C, each digit is in U outside C
//!   or C holds it (x(u₁, d) ∨ … ∨ y(C, d): the unit's at-least-one clause resolved with the cage's
//!   cells), and when C lies in U its digits are nowhere else in U (¬y(C, d) ∨ ¬x(u, d)): the naked
//!   subset a combination is, which unit propagation over the plain clauses does not see (compare
//!   Kwon & Jain 2006, "Optimized CNF encoding for sudoku puzzles", who add what propagation would
//!   derive).
//!
//! Everything here follows from the rules (every solution satisfies it), so the formula keeps
//! exactly its solutions over the cell variables; the auxiliary variables (selectors, cage digits,
//! partial sums) are defined by the cell variables in every solution, and are numbered with the cages' (see
//! `vars.rs`), so a certificate's CNF, which is encoded the same way, contains them too.

use std::collections::HashSet;

use super::cages::{combination_selectors, digit_sets};
use super::fixed::Fixed;
use super::lines;
use crate::constraint::{Cage, SumRule};
use crate::grid::Cell;
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, MAX_IMPLIED_CELLS, MAX_IMPLIED_COMBINATIONS, cell_lit_at};
use crate::units::{Unit, UnitKind, Units};

/// The most cells an implied sum whose cells must all differ and add up (a hidden cage) is kept
/// with.
pub(super) const HIDDEN_CELLS: usize = 4;

/// The most cells another implied sum is kept with (innies and outies together).
pub(super) const SUM_CELLS: usize = 3;

/// The most cells an implied sum subtracts (outies, when there are innies too).
pub(super) const OUTIES: usize = 1;

const _: () = assert!(HIDDEN_CELLS <= MAX_IMPLIED_CELLS && SUM_CELLS <= MAX_IMPLIED_CELLS);

/// An implied linear constraint: Σ coefficient · digit over its cells equals `total`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct ImpliedSum {
    /// The cells adding their digit (ascending).
    pub(super) plus: Vec<Cell>,
    /// The cells subtracting theirs (ascending).
    pub(super) minus: Vec<Cell>,
    /// What they add up to.
    pub(super) total: i64,
}

/// The units that hold every digit once (rows, columns, boxes, regions, diagonals, …; not the
/// cells of a clue).
fn houses(units: &Units) -> Vec<&Unit> {
    let n = units.shape().n();
    units
        .units()
        .iter()
        .filter(|u| u.cells.len() == n && u.name.kind != UnitKind::Clue)
        .collect()
}

/// The regions the rule of 45 is applied to, each as the list of its units (disjoint), without
/// repeats: every unit, runs of adjacent rows and of adjacent columns, adjacent boxes, and the
/// first and last boxes (regions) in reading order.
fn regions(units: &Units) -> Vec<Vec<&Unit>> {
    let shape = units.shape();
    let n = shape.n();
    let houses = houses(units);
    let of = |kind: UnitKind| -> Vec<&Unit> {
        let mut v: Vec<&Unit> = houses
            .iter()
            .copied()
            .filter(|u| u.name.kind == kind)
            .collect();
        v.sort_by_key(|u| u.name.index);
        v
    };
    let mut out: Vec<Vec<&Unit>> = houses.iter().map(|&u| vec![u]).collect();
    for kind in [UnitKind::Row, UnitKind::Col] {
        let lines = of(kind);
        if lines.len() != n {
            continue;
        }
        for len in 2..n {
            for start in 0..=n - len {
                out.push(lines[start..start + len].to_vec());
            }
        }
    }
    for kind in [UnitKind::Block, UnitKind::Region] {
        let boxes = of(kind);
        if boxes.len() != n {
            continue;
        }
        for len in 2..n {
            out.push(boxes[..len].to_vec());
            out.push(boxes[n - len..].to_vec());
        }
        if kind == UnitKind::Block {
            let across = n / shape.box_cols();
            for (i, &b) in boxes.iter().enumerate() {
                if (i + 1) % across != 0 {
                    out.push(vec![b, boxes[i + 1]]);
                }
                if i + across < n {
                    out.push(vec![b, boxes[i + across]]);
                }
            }
        }
    }
    out
}

/// The implied sums of the cages of `units` (see the module docs), without repeats and without
/// those that restate a cage.
pub(super) fn implied_sums(units: &Units, cages: &[Cage]) -> Vec<ImpliedSum> {
    let shape = units.shape();
    let n = shape.n();
    if cages.is_empty() || units.base() != 1 {
        return Vec::new();
    }
    let house_sum = (n * (n + 1) / 2) as i64;
    let mut seen: HashSet<ImpliedSum> = cages
        .iter()
        .map(|c| ImpliedSum {
            plus: c.cells.clone(),
            minus: Vec::new(),
            total: i64::from(c.sum),
        })
        .collect();
    let mut out = Vec::new();
    let mut in_region = vec![false; shape.cells()];
    let mut in_q = vec![false; shape.cells()];
    for region in regions(units) {
        in_region.iter_mut().for_each(|b| *b = false);
        let mut disjoint = true;
        for u in &region {
            for c in &u.cells {
                disjoint &= !std::mem::replace(&mut in_region[c.index()], true);
            }
        }
        if !disjoint {
            continue;
        }
        let total = house_sum * region.len() as i64;
        // Per cage meeting the region: how many of its cells are in it.
        let meeting: Vec<(&Cage, usize)> = cages
            .iter()
            .map(|c| (c, c.cells.iter().filter(|x| in_region[x.index()]).count()))
            .filter(|&(_, inside)| inside > 0)
            .collect();
        let choices: [&dyn Fn(usize, usize) -> bool; 3] = [
            &|inside, size| inside == size,
            &|_, _| true,
            &|inside, size| 2 * inside > size,
        ];
        for choose in choices {
            in_q.iter_mut().for_each(|b| *b = false);
            let mut q_sum = 0i64;
            for &(cage, inside) in &meeting {
                if !choose(inside, cage.cells.len()) || cage.cells.iter().any(|x| in_q[x.index()]) {
                    continue;
                }
                for x in &cage.cells {
                    in_q[x.index()] = true;
                }
                q_sum += i64::from(cage.sum);
            }
            let plus: Vec<Cell> = (0..shape.cells())
                .filter(|&i| in_region[i] && !in_q[i])
                .map(Cell::new)
                .collect();
            let minus: Vec<Cell> = (0..shape.cells())
                .filter(|&i| in_q[i] && !in_region[i])
                .map(Cell::new)
                .collect();
            let (mut plus, mut minus, mut total) = (plus, minus, total - q_sum);
            if minus.len() > plus.len() || (minus.len() == plus.len() && minus < plus) {
                std::mem::swap(&mut plus, &mut minus);
                total = -total;
            }
            let size = plus.len() + minus.len();
            let limit = if minus.is_empty() && all_differ(units, &plus) {
                HIDDEN_CELLS
            } else {
                SUM_CELLS
            };
            if size == 0 || size > limit || minus.len() > OUTIES {
                continue;
            }
            if minus.is_empty() && plus.len() == n && total == house_sum {
                continue;
            }
            let sum = ImpliedSum { plus, minus, total };
            if seen.insert(sum.clone()) {
                out.push(sum);
            }
        }
    }
    out
}

/// Whether every pair of `cells` must differ.
fn all_differ(units: &Units, cells: &[Cell]) -> bool {
    cells
        .iter()
        .enumerate()
        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| units.must_differ(a, b)))
}

/// The house clauses of a cage over its "holds d" literals `holds` (see the module docs): for each
/// unit of N cells meeting the cage, each digit is in the unit outside the cage or the cage holds it;
/// a unit holding the whole cage has the cage's digits nowhere else.
fn house_clauses<S: ClauseSink + ?Sized>(
    units: &Units,
    cells: &[Cell],
    holds: &[Lit],
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    let mut clause = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    for c in cells {
        for &u in units.units_of(*c) {
            let unit = &units.units()[u as usize];
            if unit.cells.len() != n || unit.name.kind == UnitKind::Clue || seen.contains(&u) {
                continue;
            }
            seen.push(u);
            let outside: Vec<Cell> = unit
                .cells
                .iter()
                .copied()
                .filter(|x| !cells.contains(x))
                .collect();
            if outside.is_empty() {
                continue;
            }
            let holds_all = cells.iter().all(|x| unit.cells.contains(x));
            for (d, &y) in holds.iter().enumerate() {
                clause.clear();
                clause.extend(outside.iter().map(|x| cell_lit_at(n, x.index(), d)));
                clause.push(y);
                fixed.add(&clause);
                if holds_all {
                    for x in &outside {
                        fixed.add(&[!y, !cell_lit_at(n, x.index(), d)]);
                    }
                }
            }
        }
    }
}

/// A variable per digit, "the cage holds d": true exactly when a cell of the cage holds d, and
/// exactly when the selected digit set holds d (a unit clause when every set or none holds d).
/// Returns them in digit order.
fn cage_digits<S: ClauseSink + ?Sized>(
    n: usize,
    cells: &[Cell],
    sets: &[u64],
    selectors: &[Lit],
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) -> Vec<Lit> {
    let mut clause = Vec::new();
    let holds: Vec<Lit> = (0..n).map(|_| aux.fresh().positive()).collect();
    let every = sets.iter().fold(u64::MAX, |a, &s| a & s);
    let some = sets.iter().fold(0, |a, &s| a | s);
    for (d, &y) in holds.iter().enumerate() {
        clause.clear();
        clause.push(!y);
        clause.extend(cells.iter().map(|c| cell_lit_at(n, c.index(), d)));
        fixed.add(&clause);
        for c in cells {
            fixed.add(&[!cell_lit_at(n, c.index(), d), y]);
        }
        clause.clear();
        clause.push(!y);
        for (&set, &s) in sets.iter().zip(selectors) {
            if set >> d & 1 == 1 {
                clause.push(s);
                fixed.add(&[!s, y]);
            } else {
                fixed.add(&[!s, !y]);
            }
        }
        fixed.add(&clause);
        if !sets.is_empty() && every >> d & 1 == 1 {
            fixed.add(&[y]);
        } else if some >> d & 1 == 0 {
            fixed.add(&[!y]);
        }
    }
    holds
}

/// The combinations encoding of one cage (or hidden cage) with its digits and house clauses.
fn cage_with_houses<S: ClauseSink + ?Sized>(
    units: &Units,
    cage: &Cage,
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    let (sets, selectors) = combination_selectors(n, cage, aux, fixed);
    let holds = cage_digits(n, &cage.cells, &sets, &selectors, aux, fixed);
    house_clauses(units, &cage.cells, &holds, fixed);
}

/// Writes the combinations encoding of `cages` (as `cages.rs` does) with their digits and house
/// clauses, then the implied sums (see the module docs).
pub(super) fn combinations_implied<S: ClauseSink + ?Sized>(
    units: &Units,
    cages: &[Cage],
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    for cage in cages {
        super::cages::distinct(units, cage, fixed);
        cage_with_houses(units, cage, aux, fixed);
    }
    for sum in implied_sums(units, cages) {
        let hidden = sum.minus.is_empty()
            && all_differ(units, &sum.plus)
            && u32::try_from(sum.total).is_ok_and(|t| {
                digit_sets(n, sum.plus.len(), t, MAX_IMPLIED_COMBINATIONS).is_some()
            });
        if hidden {
            let cage = Cage {
                sum: sum.total as u32,
                cells: sum.plus,
            };
            cage_with_houses(units, &cage, aux, fixed);
            continue;
        }
        let mut cells = sum.plus.clone();
        cells.extend_from_slice(&sum.minus);
        let weights: Vec<Vec<i32>> = cells
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let sign = if i < sum.plus.len() { 1 } else { -1 };
                (1..=n as i32).map(|d| sign * d).collect()
            })
            .collect();
        let Ok(total) = i32::try_from(sum.total) else {
            fixed.add(&[]);
            continue;
        };
        let rule = SumRule {
            cells,
            weights,
            totals: vec![total],
        };
        lines::sum(units, &rule, aux, fixed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Shape};
    use crate::sat::encode::{Amo, CageEncoding, Encoding, encode_with};
    use crate::sat::sink::FormulaStats;

    /// Σ plus − Σ minus of `sum` on `solution`.
    fn value(sum: &ImpliedSum, solution: &Grid) -> i64 {
        let v = |c: &Cell| i64::from(solution.values()[c.index()]);
        sum.plus.iter().map(v).sum::<i64>() - sum.minus.iter().map(v).sum::<i64>()
    }

    /// Every implied sum of the Wikipedia killer holds on its published solution, and there are
    /// some of both kinds: a hidden cage, and one with outies.
    #[test]
    fn implied_sums_hold_on_the_published_solution() {
        let (units, solution) = crate::testing::wikipedia_killer();
        let sums = implied_sums(&units, units.cages());
        for s in &sums {
            assert_eq!(value(s, &solution), s.total, "{s:?}");
            assert!(s.plus.len() + s.minus.len() <= HIDDEN_CELLS.max(SUM_CELLS));
            assert!(s.minus.len() <= OUTIES);
            assert!(s.minus.len() <= s.plus.len());
        }
        assert!(
            sums.iter()
                .any(|s| s.minus.is_empty() && all_differ(&units, &s.plus))
        );
        assert!(sums.iter().any(|s| !s.minus.is_empty()));
        // No repeats, no restated cage.
        let distinct: HashSet<&ImpliedSum> = sums.iter().collect();
        assert_eq!(distinct.len(), sums.len());
        for c in units.cages() {
            assert!(!sums.iter().any(|s| s.minus.is_empty() && s.plus == c.cells));
        }
    }

    /// On 4x4 a cage of three cells of row 1 summing to 6 leaves r1c4 = 10 − 6 = 4 (an innie), and a
    /// cage r1c4 + r2c4 = 7 then gives r2c4 = 3 through the region "column 4".
    #[test]
    fn innies_of_a_row_on_4x4() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::rules(s)
            .cage(6, [(0, 0), (0, 1), (0, 2)])
            .cage(7, [(0, 3), (1, 3)])
            .build()
            .unwrap();
        let sums = implied_sums(&units, units.cages());
        let name = |c: &Cell| c.name(s);
        let show: Vec<(Vec<String>, Vec<String>, i64)> = sums
            .iter()
            .map(|x| {
                (
                    x.plus.iter().map(name).collect(),
                    x.minus.iter().map(name).collect(),
                    x.total,
                )
            })
            .collect();
        let want = |p: &[&str], m: &[&str], t: i64| {
            let own = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
            (own(p), own(m), t)
        };
        assert!(show.contains(&want(&["r1c4"], &[], 4)), "{show:?}");
        assert!(show.contains(&want(&["r2c4"], &[], 3)), "{show:?}");
        // The first cage is in row 1 and every digit set of it ({1, 2, 3}) holds 1, 2 and 3: they
        // are banned from r1c4 as unit clauses, which the solver sees as r1c4 = 4 at once.
        let solve = |cages| {
            let mut st = FormulaStats::new();
            encode_with(
                &units,
                &Grid::empty(s),
                Encoding::Extended,
                Amo::Pairwise,
                cages,
                &mut st,
            )
            .unwrap();
            st
        };
        let (plain, implied) = (
            solve(CageEncoding::Combinations),
            solve(CageEncoding::Implied),
        );
        assert!(implied.clauses > plain.clauses);
    }
}
