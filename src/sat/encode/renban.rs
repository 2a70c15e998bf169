//! Window rules (renban lines) as CNF, over the cell variables of the fixed numbering: a selector
//! variable w(s) per window W(s) of the rule, and
//!
//! - exactly one window: w(1) ∨ … ∨ w(m), and ¬w(s) ∨ ¬w(t) for each pair;
//! - a window keeps the cells inside it: w(s) → ¬x(c, d) for each cell c and digit d ∉ W(s);
//! - a digit needs a window: x(c, d) → ∨ w(s) over the windows holding d (so a digit no open
//!   window holds leaves every cell of the line);
//! - a window's digits are on the line: w(s) → ∨ x(c, d) over the line's cells, for each d ∈ W(s)
//!   (so a digit every open window holds, with one cell left for it, goes there);
//! - pairs: x(a, i) → ∨ x(b, j) over the j ≠ i that share a window with i, for each two cells
//!   (for runs: digits less than k apart), the support encoding of the pair (Kasif 1990; Gent 2002),
//!   implied by the windows but not reached through the selectors by unit propagation (on #163 of
//!   sigh's corpus, varisat 4.7 s without them, 1.6 s with).
//!
//! The cells' distinctness is the group the rule comes with (`lines.rs`). This is the support
//! encoding of the table of windows, decomposed through one selector per tuple of the table as in
//! Bacchus 2007 ("GAC via unit propagation", CP 2007), with the occurrence clauses of the *among*
//! decomposition (Bessiere, Hebrard, Hnich, Kiziltan & Walsh 2005, "Among, common and disjoint
//! constraints") for the digits a window requires. Unit propagation on it does what the native
//! propagator's windows do (`dfs/renban.rs`) except its matching test, which the group's
//! at-most-one clauses and the solver's search cover.
//!
//! Auxiliary variables: one per window, rule by rule, after the lines' ([`crate::sat::vars`]).

use super::fixed::Fixed;
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, cell_lit_at};
use crate::units::Units;

/// Writes the clauses of the window rules of `units` (see the module docs).
pub(super) fn encode_windows<S: ClauseSink + ?Sized>(
    units: &Units,
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    let x = |cell: usize, d: usize| cell_lit_at(n, cell, d);
    let has = |w: &crate::grid::DigitSet, d: usize| w.words()[d / 64] >> (d % 64) & 1 == 1;
    let mut clause: Vec<Lit> = Vec::new();
    for rule in units.window_rules() {
        let w: Vec<Lit> = rule
            .windows
            .iter()
            .map(|_| aux.fresh().positive())
            .collect();
        fixed.add(&w);
        for (s, &ws) in w.iter().enumerate() {
            for &wt in &w[s + 1..] {
                fixed.add(&[!ws, !wt]);
            }
        }
        for (s, window) in rule.windows.iter().enumerate() {
            for c in &rule.cells {
                for d in (0..n).filter(|&d| !has(window, d)) {
                    fixed.add(&[!w[s], !x(c.index(), d)]);
                }
            }
            for d in (0..n).filter(|&d| has(window, d)) {
                clause.clear();
                clause.push(!w[s]);
                clause.extend(rule.cells.iter().map(|c| x(c.index(), d)));
                fixed.add(&clause);
            }
        }
        // Pairs: a digit of one cell needs, in each other cell, a digit sharing a window with it
        // (for runs: different and less than k apart) — the support encoding of the pair (Gent
        // 2002), implied by the windows but not found by unit propagation through the selectors.
        for &a in &rule.cells {
            for &b in rule.cells.iter().filter(|&&b| b != a) {
                for i in 0..n {
                    clause.clear();
                    clause.push(!x(a.index(), i));
                    let with = (0..n)
                        .filter(|&j| j != i && rule.windows.iter().any(|w| has(w, i) && has(w, j)));
                    clause.extend(with.map(|j| x(b.index(), j)));
                    // Every other digit: the cell's own clauses and the group say as much.
                    if clause.len() < n {
                        fixed.add(&clause);
                    }
                }
            }
        }
        for c in &rule.cells {
            for d in 0..n {
                let holding = rule
                    .windows
                    .iter()
                    .enumerate()
                    .filter(|(_, win)| has(win, d));
                clause.clear();
                clause.push(!x(c.index(), d));
                clause.extend(holding.map(|(s, _)| w[s]));
                fixed.add(&clause);
            }
        }
    }
}
