//! The primitives of clues as CNF, over the cell variables of the fixed numbering:
//!
//! - **Groups** (cells that differ): for each digit, ¬x(a, d) ∨ ¬x(b, d) for each pair that shares
//!   no unit (the at-most-one clauses of a unit, pairwise).
//! - **Relations** (tables of digit pairs): the support encoding (Kasif 1990; Gent 2002, "Arc
//!   consistency in SAT"): x(a, i) → ∨ x(b, j) over the j that go with i, and the same from b; unit
//!   propagation on it keeps the pair arc-consistent.
//! - **Candidate sets**: ¬x(c, d) for each digit outside the set.
//! - **Weighted sums and lines**: both as a layered graph (a multi-valued decision diagram; a sum's
//!   layers hold its partial sums, as in Abío & Stuckey 2014, "Encoding linear constraints into
//!   SAT"; a line's, its automaton's states), encoded as in Bacchus 2007 ("GAC via unit propagation")
//!   and Quimper & Walsh 2006 ("Global grammar constraints"): a variable per node q(i, s) and per edge
//!   t(e); an edge implies its two nodes and its cell's digit; a node implies one of its outgoing and
//!   one of its incoming edges; a cell's digit implies one of its edges. The first and last layers
//!   have one node each, true. Unit propagation on these clauses removes every digit that no path
//!   through the graph supports.
//!
//! Auxiliary variables are taken sum by sum, then line by line, all of them whatever the givens.

use super::fixed::Fixed;
use crate::automaton::{Automaton, Layered, unroll};
use crate::constraint::SumRule;
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, cell_lit_at};
use crate::units::Units;

/// Writes the clauses of the clues' primitives of `units` (see the module docs).
pub(super) fn encode_clue_rules<S: ClauseSink + ?Sized>(
    units: &Units,
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let shape = units.shape();
    let n = shape.n();
    let x = |cell: usize, d: usize| cell_lit_at(n, cell, d);
    for g in units.groups() {
        for (i, &a) in g.cells.iter().enumerate() {
            for &b in &g.cells[i + 1..] {
                if units.peers(a).binary_search(&b).is_ok() {
                    continue;
                }
                for d in 0..n {
                    fixed.add(&[!x(a.index(), d), !x(b.index(), d)]);
                }
            }
        }
    }
    let mut clause: Vec<Lit> = Vec::new();
    for r in units.relations().iter().filter(|r| !r.kind.is_variant()) {
        let (a, b) = (r.a.index(), r.b.index());
        let allows = |i: usize, j: usize| {
            r.kind
                .allows(units.value(i as u16 + 1), units.value(j as u16 + 1))
        };
        for i in 0..n {
            if (0..n).all(|j| allows(i, j)) {
                continue;
            }
            clause.clear();
            clause.push(!x(a, i));
            clause.extend((0..n).filter(|&j| allows(i, j)).map(|j| x(b, j)));
            fixed.add(&clause);
        }
        for j in 0..n {
            if (0..n).all(|i| allows(i, j)) {
                continue;
            }
            clause.clear();
            clause.push(!x(b, j));
            clause.extend((0..n).filter(|&i| allows(i, j)).map(|i| x(a, i)));
            fixed.add(&clause);
        }
    }
    for &(c, set) in units.candidates() {
        for d in 0..n {
            if set.words()[d / 64] >> (d % 64) & 1 == 0 {
                fixed.add(&[!x(c.index(), d)]);
            }
        }
    }
    for s in units.sums() {
        sum(units, s, aux, fixed);
    }
    for l in units.lines() {
        let labels: Vec<Vec<Lit>> = l
            .cells
            .iter()
            .map(|c| (0..n).map(|d| x(c.index(), d)).collect())
            .collect();
        layered(&labels, &l.graph, aux, fixed);
    }
}

/// The most digit sets a group of a sum is given selectors for; a group with more is read cell by
/// cell.
const MAX_GROUP_SETS: u64 = 1000;

/// One position of a sum's layered graph: a cell (its digits are the labels) or a group of cells
/// that hold different digits (the labels are the group's possible sums).
struct Position {
    /// Per label, its weight.
    weights: Vec<i64>,
    /// Per label, its literal.
    lits: Vec<Lit>,
}

/// A weighted sum: its cells grouped as the native backend groups them (alike weights, different
/// digits), each group of two or more cells given the combinations encoding of its digit sets
/// (selectors, as for cages) and a variable per group sum, then the layered graph of partial sums
/// over cells and groups.
pub(super) fn sum<S: ClauseSink + ?Sized>(
    units: &Units,
    s: &SumRule,
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    let x = |cell: usize, d: usize| cell_lit_at(n, cell, d);
    let groups = units.sum_groups(s);
    let mut positions: Vec<Position> = Vec::new();
    let mut clause: Vec<Lit> = Vec::new();
    for (cells, w) in groups {
        let k = cells.len();
        let sets = if k > 1 {
            super::cages::any_sets(n, k, MAX_GROUP_SETS)
        } else {
            None
        };
        let Some(sets) = sets else {
            for c in cells {
                positions.push(Position {
                    weights: w.iter().map(|&v| i64::from(v)).collect(),
                    lits: (0..n).map(|d| x(c.index(), d)).collect(),
                });
            }
            continue;
        };
        // Selectors: one per digit set of k digits, as the combinations encoding of cages
        // (cages.rs): at least one; a selector's digits are in the group, the others not; a
        // cell's digit needs a selector holding it.
        let selectors: Vec<Lit> = sets.iter().map(|_| aux.fresh().positive()).collect();
        fixed.add(&selectors);
        for (&set, &sel) in sets.iter().zip(&selectors) {
            for d in 0..n {
                if set >> d & 1 == 1 {
                    clause.clear();
                    clause.push(!sel);
                    clause.extend(cells.iter().map(|c| x(c.index(), d)));
                    fixed.add(&clause);
                } else {
                    for c in &cells {
                        fixed.add(&[!sel, !x(c.index(), d)]);
                    }
                }
            }
        }
        for c in &cells {
            for d in 0..n {
                clause.clear();
                clause.push(!x(c.index(), d));
                clause.extend(
                    sets.iter()
                        .zip(&selectors)
                        .filter(|&(&set, _)| set >> d & 1 == 1)
                        .map(|(_, &sel)| sel),
                );
                fixed.add(&clause);
            }
        }
        // A variable per group sum, true exactly when a selector of that sum is.
        let weight = |set: u64| -> i64 {
            (0..n)
                .filter(|&d| set >> d & 1 == 1)
                .map(|d| i64::from(w[d]))
                .sum()
        };
        let mut totals: Vec<i64> = sets.iter().map(|&set| weight(set)).collect();
        totals.sort_unstable();
        totals.dedup();
        let lits: Vec<Lit> = totals.iter().map(|_| aux.fresh().positive()).collect();
        for (&t, &y) in totals.iter().zip(&lits) {
            clause.clear();
            clause.push(!y);
            for (&set, &sel) in sets.iter().zip(&selectors) {
                if weight(set) == t {
                    clause.push(sel);
                    fixed.add(&[!sel, y]);
                }
            }
            fixed.add(&clause);
        }
        positions.push(Position {
            weights: totals,
            lits,
        });
    }
    let widest = positions.iter().map(|p| p.weights.len()).max().unwrap_or(0);
    let labels: Vec<i32> = (0..widest as i32).collect();
    let graph = unroll(
        &PartialSums {
            positions: &positions,
            totals: &s.totals,
        },
        positions.len(),
        &labels,
    );
    match graph {
        Ok(graph) => {
            let lits: Vec<Vec<Lit>> = positions.into_iter().map(|p| p.lits).collect();
            layered(&lits, &graph, aux, fixed);
        }
        // Too wide to lay out (never met): refuse the formula rather than leave the sum out.
        Err(_) => fixed.add(&[]),
    }
}

/// A sum read as an automaton over its positions' labels: its state is the partial sum.
struct PartialSums<'a> {
    positions: &'a [Position],
    totals: &'a [i32],
}

impl Automaton for PartialSums<'_> {
    type State = i64;

    fn start(&self) -> i64 {
        0
    }

    fn step(&self, s: &i64, i: usize, _: usize, label: i32, out: &mut Vec<i64>) {
        if let Some(&w) = self.positions[i].weights.get(label as usize) {
            out.push(s + w);
        }
    }

    fn accepts(&self, s: &i64) -> bool {
        i32::try_from(*s).is_ok_and(|t| self.totals.binary_search(&t).is_ok())
    }
}

/// The clauses of a layered graph whose position i reads the labels `labels[i]` (a cell's digits,
/// or a group's sums: one literal per label; see the module docs).
#[allow(clippy::needless_range_loop)] // position i indexes the graph's layers and the labels
fn layered<S: ClauseSink + ?Sized>(
    labels: &[Vec<Lit>],
    g: &Layered,
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let k = labels.len();
    if k == 0 {
        return;
    }
    // Node variables of layers 1..k−1 (layers 0 and k are a single true node).
    let mut node_base: Vec<Option<Lit>> = vec![None; k + 1];
    for (i, slot) in node_base.iter_mut().enumerate().take(k).skip(1) {
        for j in 0..g.nodes(i) {
            let v = aux.fresh().positive();
            if j == 0 {
                *slot = Some(v);
            }
        }
    }
    let node = |i: usize, s: u32| -> Option<Lit> {
        node_base[i].map(|base| Lit::from_index(base.index() + s as usize, true))
    };
    let mut clause: Vec<Lit> = Vec::new();
    // Per node of layer i + 1 (and per digit), the edges into it: buckets of edge indices.
    let mut bucket: Vec<Vec<usize>> = Vec::new();
    for i in 0..k {
        let edges = g.edges(i);
        let edge_vars: Vec<Lit> = edges.iter().map(|_| aux.fresh().positive()).collect();
        let label = |d: usize| labels[i][d];
        // Each edge implies its nodes and its digit.
        for (e, &t) in edges.iter().zip(&edge_vars) {
            if let Some(q) = node(i, e.from) {
                fixed.add(&[!t, q]);
            }
            fixed.add(&[!t, label(e.digit as usize)]);
            if let Some(q) = node(i + 1, e.to) {
                fixed.add(&[!t, q]);
            }
        }
        // Each node of layer i has an outgoing edge (layer 0's node is true: some edge is taken).
        // The edges are sorted by their node of layer i.
        let mut at = 0;
        for s in 0..g.nodes(i) as u32 {
            clause.clear();
            clause.extend(node(i, s).map(|q| !q));
            while at < edges.len() && edges[at].from == s {
                clause.push(edge_vars[at]);
                at += 1;
            }
            fixed.add(&clause);
        }
        // Each node of layer i + 1 has an incoming edge.
        bucket.clear();
        bucket.resize(g.nodes(i + 1), Vec::new());
        for (j, e) in edges.iter().enumerate() {
            bucket[e.to as usize].push(j);
        }
        for (s, into) in bucket.iter().enumerate() {
            clause.clear();
            clause.extend(node(i + 1, s as u32).map(|q| !q));
            clause.extend(into.iter().map(|&j| edge_vars[j]));
            fixed.add(&clause);
        }
        // Each label of the position (a digit of the cell) has an edge.
        bucket.clear();
        bucket.resize(labels[i].len(), Vec::new());
        for (j, e) in edges.iter().enumerate() {
            bucket[e.digit as usize].push(j);
        }
        for (d, with) in bucket.iter().enumerate() {
            clause.clear();
            clause.push(!label(d));
            clause.extend(with.iter().map(|&j| edge_vars[j]));
            fixed.add(&clause);
        }
    }
}
