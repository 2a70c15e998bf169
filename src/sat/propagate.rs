//! Our own unit propagation over a CNF [`Formula`], run before varisat sees it: it applies every unit
//! clause and its consequences, then hands back the assignment and the formula that is left.
//!
//! This is plain clause-level Boolean constraint propagation (counter based), not the native backend's
//! propagation: it knows nothing of cells or units. Over the extended or pruned encodings it amounts
//! to naked and hidden singles, which alone solve many easy puzzles.

use varisat::Lit;

use crate::sat::sink::{ClauseSink, Formula};

/// A variable's value: unassigned, true or false.
pub(crate) const UNSET: i8 = 0;
pub(crate) const TRUE: i8 = 1;
pub(crate) const FALSE: i8 = -1;

/// What unit propagation left.
#[derive(Clone, Debug)]
pub(crate) struct Propagated {
    /// Per variable index (fixed numbering): [`UNSET`], [`TRUE`] or [`FALSE`].
    pub(crate) values: Vec<i8>,
    /// The clauses not yet satisfied, without their false literals; each has at least two literals.
    pub(crate) rest: Formula,
}

/// The value of `lit` under `values`.
#[inline]
pub(crate) fn lit_value(values: &[i8], lit: Lit) -> i8 {
    let v = values[lit.var().index()];
    if lit.is_positive() { v } else { -v }
}

/// Propagates the unit clauses of `formula` to a fixpoint. `None` when that exposes a conflict (the
/// formula is unsatisfiable; this includes an empty clause).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn propagate(formula: &Formula) -> Option<Propagated> {
    let mut p = Propagator::default();
    let mut rest = Formula::new();
    p.run(formula, &mut rest).then(|| Propagated {
        values: p.values,
        rest,
    })
}

/// Unit propagation with buffers kept between runs (so that a batch of puzzles allocates once).
#[derive(Clone, Debug, Default)]
pub(crate) struct Propagator {
    /// Occurrence lists by literal code (2·var + negative), compressed-row layout.
    start: Vec<u32>,
    occ: Vec<u32>,
    /// Per clause: literals not yet processed as false.
    left: Vec<u32>,
    /// Per clause: satisfied.
    sat: Vec<bool>,
    trail: Vec<Lit>,
    /// After [`Propagator::run`]: per variable index, [`UNSET`], [`TRUE`] or [`FALSE`].
    pub(crate) values: Vec<i8>,
    /// After [`Propagator::run`]: distinct variables occurring in the formula.
    pub(crate) distinct_vars: u64,
}

impl Propagator {
    /// Propagates the unit clauses of `formula` to a fixpoint. Returns `false` on a conflict (the
    /// formula is unsatisfiable; this includes an empty clause). Otherwise [`Propagator::values`]
    /// holds the assignment and `rest` (cleared first) the clauses not yet satisfied, without their
    /// false literals; each has at least two literals.
    pub(crate) fn run(&mut self, formula: &Formula, rest: &mut Formula) -> bool {
        rest.clear();
        let nv = formula.max_var();
        let lits = formula.flat_lits();
        let ends = formula.ends();
        let nc = ends.len();

        let start = &mut self.start;
        start.clear();
        start.resize(2 * nv + 1, 0);
        for l in lits {
            start[l.code() + 1] += 1;
        }
        self.distinct_vars = start[1..]
            .chunks(2)
            .filter(|c| c[0] != 0 || c.get(1).is_some_and(|&x| x != 0))
            .count() as u64;
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        // Fill each list from its end, leaving `start` as the list starts.
        let occ = &mut self.occ;
        occ.clear();
        occ.resize(lits.len(), 0);
        for ci in (0..nc).rev() {
            let b = if ci == 0 { 0 } else { ends[ci - 1] as usize };
            for l in &lits[b..ends[ci] as usize] {
                let slot = &mut start[l.code() + 1];
                *slot -= 1;
                occ[*slot as usize] = ci as u32;
            }
        }
        // Now start[code + 1] is the start of code's list; shift so start[code] is.
        start.remove(0);
        start.push(lits.len() as u32);

        let clause = |ci: usize| -> &[Lit] {
            let b = if ci == 0 { 0 } else { ends[ci - 1] as usize };
            &lits[b..ends[ci] as usize]
        };

        let values = &mut self.values;
        values.clear();
        values.resize(nv, UNSET);
        let left = &mut self.left;
        left.clear();
        let sat = &mut self.sat;
        sat.clear();
        sat.resize(nc, false);
        let trail = &mut self.trail;
        trail.clear();

        // Sets `l` true; false on conflict.
        fn assign(values: &mut [i8], trail: &mut Vec<Lit>, l: Lit) -> bool {
            match lit_value(values, l) {
                TRUE => true,
                FALSE => false,
                _ => {
                    values[l.var().index()] = if l.is_positive() { TRUE } else { FALSE };
                    trail.push(l);
                    true
                }
            }
        }

        for ci in 0..nc {
            let c = clause(ci);
            left.push(c.len() as u32);
            match c {
                [] => return false,
                [l] if !assign(values, trail, *l) => return false,
                _ => {}
            }
        }

        let mut head = 0;
        while head < trail.len() {
            let l = trail[head];
            head += 1;
            let code = l.code();
            for &ci in &occ[start[code] as usize..start[code + 1] as usize] {
                sat[ci as usize] = true;
            }
            let neg = (!l).code();
            for &ci in &occ[start[neg] as usize..start[neg + 1] as usize] {
                let ci = ci as usize;
                if sat[ci] {
                    continue;
                }
                left[ci] -= 1;
                if left[ci] > 1 {
                    continue;
                }
                // At most one literal not yet processed as false: look at the current values.
                let mut unit = None;
                let mut open = 0;
                for &m in clause(ci) {
                    match lit_value(values, m) {
                        TRUE => {
                            open = usize::MAX;
                            break;
                        }
                        UNSET => {
                            open += 1;
                            unit = Some(m);
                        }
                        _ => {}
                    }
                }
                match (open, unit) {
                    (usize::MAX, _) => sat[ci] = true,
                    (0, _) => return false,
                    (1, Some(m)) if !assign(values, trail, m) => return false,
                    _ => {}
                }
            }
        }

        let mut buf: Vec<Lit> = Vec::new();
        for (ci, &done) in sat.iter().enumerate() {
            if done {
                continue;
            }
            buf.clear();
            buf.extend(
                clause(ci)
                    .iter()
                    .copied()
                    .filter(|&m| lit_value(values, m) == UNSET),
            );
            rest.add_clause(&buf);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(clauses: &[&[isize]]) -> Formula {
        let mut f = Formula::new();
        for c in clauses {
            let v: Vec<Lit> = c.iter().map(|&x| Lit::from_dimacs(x)).collect();
            f.add_clause(&v);
        }
        f
    }

    #[test]
    fn chains_and_simplifies() {
        // 1; 1 → 2; 2 → 3 ∨ 4; 4 ∨ 5 ∨ -1.
        let p = propagate(&f(&[&[1], &[-1, 2], &[-2, 3, 4], &[4, 5, -1]])).unwrap();
        assert_eq!(&p.values[..5], &[TRUE, TRUE, UNSET, UNSET, UNSET]);
        let rest: Vec<Vec<isize>> = p
            .rest
            .clauses()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        assert_eq!(rest, vec![vec![3, 4], vec![4, 5]]);
    }

    #[test]
    fn conflicts() {
        assert!(propagate(&f(&[&[1], &[-1]])).is_none());
        assert!(propagate(&f(&[&[]])).is_none());
        assert!(propagate(&f(&[&[1], &[-1, 2], &[-1, -2]])).is_none());
        // Exactly-one of 1, 2, 3 with 1 and 2 forced false by units: 3 is forced, and then -3 clashes.
        assert!(propagate(&f(&[&[1, 2, 3], &[-1], &[-2], &[-3, 4], &[-4]])).is_none());
    }

    #[test]
    fn satisfied_formula_leaves_nothing() {
        let p = propagate(&f(&[&[1], &[-2], &[1, 2], &[2, -3], &[3, 1, 4]])).unwrap();
        assert_eq!(p.values[2], FALSE);
        assert!(p.rest.is_empty());
        // A repeated literal and a tautology do not confuse the counters.
        let p = propagate(&f(&[&[-1], &[1, 1, 2], &[3, -3]])).unwrap();
        assert_eq!(p.values[1], TRUE);
        assert!(
            p.rest.is_empty()
                || p.rest
                    .clauses()
                    .all(|c| c == [Lit::from_dimacs(3), Lit::from_dimacs(-3)])
        );
    }
}
