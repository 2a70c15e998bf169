//! The study's own small unit propagator over a CNF (independent of the SAT backend's simplifier):
//! does unit propagation alone satisfy every clause?

use crate::sat::{Formula, Lit};

/// What unit propagation alone does to a formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagation {
    /// Some clause became false: the formula is unsatisfiable.
    Conflict,
    /// Every clause is satisfied: propagation alone decides the puzzle.
    Solved,
    /// Clauses remain open: search is needed.
    Open,
}

/// Runs unit propagation to a fixed point over `formula` (counter-based: each clause tracks its
/// unassigned literals; a clause with one left forces it).
pub fn propagate(formula: &Formula) -> Propagation {
    let vars = formula.max_var() + 1;
    let clauses: Vec<&[Lit]> = formula.clauses().collect();
    // Occurrence lists by literal code (2·var + negative).
    let code = |l: Lit| 2 * l.var().index() + l.is_negative() as usize;
    let mut occurs: Vec<Vec<u32>> = vec![Vec::new(); 2 * vars];
    for (i, c) in clauses.iter().enumerate() {
        for &l in *c {
            occurs[code(l)].push(i as u32);
        }
    }
    let mut open: Vec<u32> = clauses.iter().map(|c| c.len() as u32).collect();
    let mut satisfied = vec![false; clauses.len()];
    // 0 unassigned, 1 true, -1 false, by variable.
    let mut value = vec![0i8; vars];
    let mut queue: Vec<Lit> = Vec::new();
    for c in &clauses {
        match c.len() {
            0 => return Propagation::Conflict,
            1 => queue.push(c[0]),
            _ => {}
        }
    }
    while let Some(lit) = queue.pop() {
        let v = lit.var().index();
        let want = if lit.is_positive() { 1 } else { -1 };
        match value[v] {
            x if x == want => continue,
            0 => value[v] = want,
            _ => return Propagation::Conflict,
        }
        for &i in &occurs[code(lit)] {
            satisfied[i as usize] = true;
        }
        for &i in &occurs[code(!lit)] {
            let i = i as usize;
            open[i] -= 1;
            if satisfied[i] {
                continue;
            }
            match open[i] {
                0 => return Propagation::Conflict,
                1 => {
                    // The one literal left unassigned (others are false) is forced.
                    let forced = clauses[i]
                        .iter()
                        .copied()
                        .find(|l| value[l.var().index()] == 0);
                    match forced {
                        Some(l) => queue.push(l),
                        None => return Propagation::Conflict,
                    }
                }
                _ => {}
            }
        }
    }
    if satisfied.iter().all(|&s| s) {
        Propagation::Solved
    } else {
        Propagation::Open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::ClauseSink;

    fn formula(clauses: &[&[isize]]) -> Formula {
        let mut f = Formula::new();
        for c in clauses {
            let lits: Vec<Lit> = c.iter().map(|&x| Lit::from_dimacs(x)).collect();
            f.add_clause(&lits);
        }
        f
    }

    #[test]
    fn decides_small_formulas() {
        assert_eq!(
            propagate(&formula(&[&[1], &[-1, 2], &[-2, 3]])),
            Propagation::Solved
        );
        assert_eq!(
            propagate(&formula(&[&[1], &[-1, 2], &[-2]])),
            Propagation::Conflict
        );
        assert_eq!(
            propagate(&formula(&[&[1, 2], &[-1, -2]])),
            Propagation::Open
        );
        assert_eq!(propagate(&formula(&[&[]])), Propagation::Conflict);
        // A clause satisfied early stays satisfied when its other literals become false.
        assert_eq!(
            propagate(&formula(&[&[1], &[1, 2], &[-2]])),
            Propagation::Solved
        );
    }
}
