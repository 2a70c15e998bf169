//! Where encoders write clauses: one trait, [`ClauseSink`], for an in-memory [`Formula`], a SAT
//! solver, a DIMACS writer or a mere counter ([`FormulaStats`]).
//!
//! The idea is varisat's `ExtendFormula`: an encoder is written once and does not care where its
//! clauses go. Literals are always in the fixed numbering of [`super::vars`].

use crate::sat::lit::Lit;

/// A destination for clauses.
pub trait ClauseSink {
    /// Adds one clause: the disjunction of `lits` (empty = false). Literals use the fixed numbering.
    fn add_clause(&mut self, lits: &[Lit]);
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    fn add_clause(&mut self, lits: &[Lit]) {
        (**self).add_clause(lits);
    }
}

/// A CNF formula in memory: clauses stored flat, in the order they were added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Formula {
    lits: Vec<Lit>,
    /// End offset (into `lits`) of each clause.
    ends: Vec<u32>,
    /// One more than the largest variable index seen (= the DIMACS header's variable count).
    var_bound: usize,
}

impl Formula {
    /// An empty formula.
    pub fn new() -> Formula {
        Formula::default()
    }

    /// An empty formula with room for `clauses` clauses of `lits` literals in all.
    pub fn with_capacity(clauses: usize, lits: usize) -> Formula {
        Formula {
            lits: Vec::with_capacity(lits),
            ends: Vec::with_capacity(clauses),
            var_bound: 0,
        }
    }

    /// Removes every clause, keeping the allocations.
    pub fn clear(&mut self) {
        self.lits.clear();
        self.ends.clear();
        self.var_bound = 0;
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no clauses.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The largest DIMACS variable number mentioned (0 if none): the `p cnf` header's count.
    pub fn max_var(&self) -> usize {
        self.var_bound
    }

    /// The total number of literals.
    pub fn literal_count(&self) -> usize {
        self.lits.len()
    }

    /// Clause `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn clause(&self, i: usize) -> &[Lit] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.lits[start..self.ends[i] as usize]
    }

    /// The clauses in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&end| {
            let c = &self.lits[start..end as usize];
            start = end as usize;
            c
        })
    }

    /// All literals, clause after clause.
    pub(crate) fn flat_lits(&self) -> &[Lit] {
        &self.lits
    }

    /// Variables, clauses and literals of this formula.
    pub fn stats(&self) -> FormulaStats {
        let mut s = FormulaStats::default();
        for c in self.clauses() {
            s.add_clause(c);
        }
        s
    }
}

impl ClauseSink for Formula {
    fn add_clause(&mut self, lits: &[Lit]) {
        for &l in lits {
            self.var_bound = self.var_bound.max(l.var().index() + 1);
        }
        self.lits.extend_from_slice(lits);
        self.ends.push(self.lits.len() as u32);
    }
}

impl Formula {
    /// Adds the binary clauses (`a` ∨ b) for each b of `others`.
    pub(crate) fn add_binaries(&mut self, a: Lit, others: &[Lit]) {
        let Some(top) = others.iter().map(|b| b.var().index()).max() else {
            return;
        };
        self.var_bound = self.var_bound.max(a.var().index().max(top) + 1);
        self.lits.reserve(2 * others.len());
        self.ends.reserve(others.len());
        for &b in others {
            self.lits.push(a);
            self.lits.push(b);
            self.ends.push(self.lits.len() as u32);
        }
    }
}

/// The size of a formula, counted without storing it.
///
/// As a [`ClauseSink`] it counts what an encoder writes; `+=` sums the counts of several formulas
/// (for totals over a file). Equality compares the four counts.
#[derive(Clone, Debug, Default)]
pub struct FormulaStats {
    /// Distinct variables occurring in some clause.
    pub variables: u64,
    /// The largest DIMACS variable number occurring (the `p cnf` header's variable count).
    pub max_var: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences over all clauses.
    pub literals: u64,
    /// Bit per variable index: seen.
    seen: Vec<u64>,
}

impl FormulaStats {
    /// Statistics of an empty formula.
    pub fn new() -> FormulaStats {
        FormulaStats::default()
    }

    fn counts(&self) -> (u64, u64, u64, u64) {
        (self.variables, self.max_var, self.clauses, self.literals)
    }
}

impl PartialEq for FormulaStats {
    fn eq(&self, other: &FormulaStats) -> bool {
        self.counts() == other.counts()
    }
}

impl Eq for FormulaStats {}

impl std::ops::AddAssign<&FormulaStats> for FormulaStats {
    /// Adds the counts of another formula (`max_var` becomes the larger of the two); the sum no
    /// longer counts distinct variables of later clauses, so add only finished statistics.
    fn add_assign(&mut self, other: &FormulaStats) {
        self.variables += other.variables;
        self.max_var = self.max_var.max(other.max_var);
        self.clauses += other.clauses;
        self.literals += other.literals;
        self.seen.clear();
    }
}

impl ClauseSink for FormulaStats {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.literals += lits.len() as u64;
        for &l in lits {
            let i = l.var().index();
            self.max_var = self.max_var.max(i as u64 + 1);
            let (w, b) = (i / 64, i % 64);
            if w >= self.seen.len() {
                self.seen.resize(w + 1, 0);
            }
            if self.seen[w] >> b & 1 == 0 {
                self.seen[w] |= 1 << b;
                self.variables += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(x: isize) -> Lit {
        Lit::from_dimacs(x)
    }

    #[test]
    fn formula_keeps_clauses_and_counts() {
        let mut f = Formula::new();
        f.add_clause(&[l(1), l(-3)]);
        f.add_clause(&[]);
        f.add_clause(&[l(7)]);
        assert_eq!(f.len(), 3);
        assert_eq!(f.clause(0), &[l(1), l(-3)]);
        assert!(f.clause(1).is_empty());
        assert_eq!(f.clauses().nth(2).unwrap(), &[l(7)]);
        assert_eq!(f.max_var(), 7);
        let s = f.stats();
        assert_eq!(
            (s.variables, s.max_var, s.clauses, s.literals),
            (3, 7, 3, 3)
        );
    }

    #[test]
    fn binaries_are_clauses_of_two() {
        let mut f = Formula::new();
        f.add_clause(&[l(2), l(3), l(4)]);
        f.add_binaries(l(-5), &[l(1), l(-9)]);
        f.add_binaries(l(6), &[]);
        let mut g = Formula::new();
        g.add_clause(&[l(2), l(3), l(4)]);
        g.add_clause(&[l(-5), l(1)]);
        g.add_clause(&[l(-5), l(-9)]);
        assert_eq!(f, g);
        assert_eq!(f.max_var(), 9);
    }
}
