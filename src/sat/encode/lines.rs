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
        let allows = |i: usize, j: usize| r.kind.allows(units.value(i as u16 + 1), units.value(j as u16 + 1));
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
        let cells: Vec<usize> = s.cells.iter().map(|c| c.index()).collect();
        let digits: Vec<i32> = (0..n as i32).collect();
        match unroll(&PartialSums(s), cells.len(), &digits) {
            Ok(graph) => layered(n, &cells, &graph, aux, fixed),
            // Too wide to lay out (never met): no clauses, so the sum would go unchecked; refuse
            // the formula instead.
            Err(_) => fixed.add(&[]),
        }
    }
    for l in units.lines() {
        let cells: Vec<usize> = l.cells.iter().map(|c| c.index()).collect();
        layered(n, &cells, &l.graph, aux, fixed);
    }
}

/// A weighted sum read as an automaton over digit indices: its state is the partial sum.
struct PartialSums<'a>(&'a SumRule);

impl Automaton for PartialSums<'_> {
    type State = i64;

    fn start(&self) -> i64 {
        0
    }

    fn step(&self, s: &i64, i: usize, _: usize, d: i32, out: &mut Vec<i64>) {
        if let Some(&w) = self.0.weights[i].get(d as usize) {
            out.push(s + i64::from(w));
        }
    }

    fn accepts(&self, s: &i64) -> bool {
        self.0.totals.binary_search(&(*s as i32)).is_ok() && i64::from(*s as i32) == *s
    }
}

/// The clauses of a layered graph over `cells` (see the module docs).
fn layered<S: ClauseSink + ?Sized>(
    n: usize,
    cells: &[usize],
    g: &Layered,
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let k = cells.len();
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
        let cell = cells[i];
        // Each edge implies its nodes and its digit.
        for (e, &t) in edges.iter().zip(&edge_vars) {
            if let Some(q) = node(i, e.from) {
                fixed.add(&[!t, q]);
            }
            fixed.add(&[!t, cell_lit_at(n, cell, e.digit as usize)]);
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
        // Each digit of the cell has an edge.
        bucket.clear();
        bucket.resize(n, Vec::new());
        for (j, e) in edges.iter().enumerate() {
            bucket[e.digit as usize].push(j);
        }
        for (d, with) in bucket.iter().enumerate() {
            clause.clear();
            clause.push(!cell_lit_at(n, cell, d));
            clause.extend(with.iter().map(|&j| edge_vars[j]));
            fixed.add(&clause);
        }
    }
}
