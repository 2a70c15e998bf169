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
//!   `optimizer.js`, "innie/outie" and "hidden cage" sums). A sum of at most [`MAX_CELLS`] cells
//!   is kept. Innies whose cells must all differ are a hidden cage and take the cages'
//!   combinations encoding (selectors, `cages.rs`: the support encoding of a table constraint,
//!   Bacchus 2007, "GAC via unit propagation"); the others a weighted sum as clue sums do
//!   (`lines.rs`: the decision diagram of the linear equation, Abío & Stuckey 2014, "Encoding
//!   linear constraints into SAT", with a selector group for cells that differ).
//! - **House clauses of a combination**: a cage that lies in a unit holds exactly its selected
//!   digits, so a selector bans each of its digits from the unit's other cells (¬s ∨ ¬x(u, d)), and a
//!   digit in every digit set of the cage is banned there outright (¬x(u, d)): the naked subset a
//!   combination is, which unit propagation over the plain clauses does not see (compare Kwon & Jain
//!   2006, "Optimized CNF encoding for sudoku puzzles", who add what propagation would derive).
//!
//! Everything here follows from the rules (every solution satisfies it), so the formula keeps
//! exactly its solutions over the cell variables; the auxiliary variables (selectors, partial sums)
//! are defined by the cell variables in every solution, and are numbered with the cages' (see
//! `vars.rs`), so a certificate's CNF, which is encoded the same way, contains them too.

use std::collections::HashSet;

use super::cages::{combination_selectors, digit_sets};
use super::fixed::Fixed;
use super::lines;
use crate::constraint::{Cage, SumRule};
use crate::grid::Cell;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, MAX_IMPLIED_CELLS, MAX_IMPLIED_COMBINATIONS, cell_lit_at};
use crate::units::{Unit, UnitKind, Units};

/// The most cells an implied sum is kept with (innies and outies together).
pub(super) const MAX_CELLS: usize = MAX_IMPLIED_CELLS;

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
fn regions<'u>(units: &'u Units) -> Vec<Vec<&'u Unit>> {
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
        for (ci, choose) in choices.into_iter().enumerate() {
            if std::env::var("IMP_Q")
                .ok()
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(7)
                >> ci
                & 1
                == 0
            {
                continue;
            }
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
                limits().0
            } else {
                limits().1
            };
            if size == 0 || size > limit.min(MAX_CELLS) || minus.len() > limits().2 {
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

/// (hidden cage cells, other sum cells, negative cells): tuning.
fn limits() -> (usize, usize, usize) {
    let get = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    (get("IMP_H", 9), get("IMP_P", 6), get("IMP_M", 2))
}

/// Whether every pair of `cells` must differ.
fn all_differ(units: &Units, cells: &[Cell]) -> bool {
    cells
        .iter()
        .enumerate()
        .all(|(i, &a)| cells[i + 1..].iter().all(|&b| units.must_differ(a, b)))
}

/// The units of N cells holding every one of `cells`.
fn houses_holding<'u>(units: &'u Units, cells: &[Cell]) -> Vec<&'u Unit> {
    let n = units.shape().n();
    let Some(&first) = cells.first() else {
        return Vec::new();
    };
    units
        .units_of(first)
        .iter()
        .map(|&u| &units.units()[u as usize])
        .filter(|u| u.cells.len() == n && u.name.kind != UnitKind::Clue)
        .filter(|u| cells.iter().all(|c| u.cells.contains(c)))
        .collect()
}

/// The house clauses of a cage's selectors (see the module docs).
fn house_clauses<S: ClauseSink + ?Sized>(
    units: &Units,
    cells: &[Cell],
    sets: &[u64],
    selectors: &[crate::sat::lit::Lit],
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    if std::env::var("IMP_HC").is_ok_and(|v| v == "0") {
        return;
    }
    if std::env::var("IMP_N").is_ok_and(|v| v == "1") {
        // A unit meeting the cage holds each digit: outside the cage, or in a selected combination.
        let mut clause = Vec::new();
        let mut seen: Vec<u32> = Vec::new();
        for c in cells {
            for &u in units.units_of(*c) {
                let unit = &units.units()[u as usize];
                if unit.cells.len() != n || unit.name.kind == UnitKind::Clue || seen.contains(&u) {
                    continue;
                }
                seen.push(u);
                if unit.cells.iter().all(|x| cells.contains(x)) {
                    continue;
                }
                for d in 0..n {
                    clause.clear();
                    clause.extend(
                        unit.cells
                            .iter()
                            .filter(|x| !cells.contains(x))
                            .map(|x| cell_lit_at(n, x.index(), d)),
                    );
                    clause.extend(
                        sets.iter()
                            .zip(selectors)
                            .filter(|&(&set, _)| set >> d & 1 == 1)
                            .map(|(_, &s)| s),
                    );
                    fixed.add(&clause);
                }
            }
        }
    }
    let every = sets.iter().fold(u64::MAX, |a, &s| a & s);
    for house in houses_holding(units, cells) {
        for &u in house.cells.iter().filter(|u| !cells.contains(u)) {
            for d in 0..n {
                let x = cell_lit_at(n, u.index(), d);
                if every >> d & 1 == 1 && !sets.is_empty() {
                    fixed.add(&[!x]);
                    continue;
                }
                for (&set, &s) in sets.iter().zip(selectors) {
                    if set >> d & 1 == 1 {
                        fixed.add(&[!s, !x]);
                    }
                }
            }
        }
    }
}

/// Writes the combinations encoding of `cages` (as `cages.rs` does) with their house clauses, then
/// the implied sums (see the module docs).
pub(super) fn combinations_implied<S: ClauseSink + ?Sized>(
    units: &Units,
    cages: &[Cage],
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    for cage in cages {
        super::cages::distinct(units, cage, fixed);
        let (sets, selectors) = combination_selectors(n, cage, aux, fixed);
        house_clauses(units, &cage.cells, &sets, &selectors, fixed);
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
            let (sets, selectors) = combination_selectors(n, &cage, aux, fixed);
            house_clauses(units, &cage.cells, &sets, &selectors, fixed);
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
