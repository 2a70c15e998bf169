//! A DRAT proof checker of our own, sharing no code with the solvers or with our simplification:
//! forward checking, each lemma verified as it is added, by reverse unit propagation (RUP) and
//! otherwise as a resolution asymmetric tautology (RAT) on its first literal (Wetzler, Heule & Hunt
//! 2014, "DRAT-trim: Efficient checking and trimming using expressive clausal proofs"; RAT:
//! Järvisalo, Heule & Biere 2012, "Inprocessing rules").
//!
//! Deletions of lemmas are carried out (a solver deletes most of what it learns, and checking each
//! lemma against every one ever learnt costs the most); deletions of the formula's own clauses and of
//! unit clauses are ignored, as DRAT-trim does. Each step keeps satisfiability: deleting a clause
//! does, keeping the top-level consequences of a deleted clause does (they held before), and RUP or
//! RAT against the clauses present does; so a proof accepted here refutes the formula.
//! Propagation: binary clauses as implication lists, longer ones with two watched literals;
//! top-level assignments are kept between checks.

use std::collections::HashMap;

use crate::sat::lit::Lit;

const UNSET: i8 = 0;
const TRUE: i8 = 1;
const FALSE: i8 = -1;

/// Why a lemma was rejected, or the refutation is incomplete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// The lemma at this 0-based step of the proof is neither RUP nor RAT.
    Lemma(usize),
    /// The proof ends without deriving the empty clause.
    NoEmptyClause,
}

/// The clause database and assignment of a check.
#[derive(Clone, Debug, Default)]
pub(crate) struct Checker {
    /// Every clause added, literals flat: clause i is `lits[start[i]..start[i + 1]]`.
    lits: Vec<Lit>,
    start: Vec<u32>,
    /// Literal code -> literals that become true when it is true (binary clauses).
    imp: Vec<Vec<Lit>>,
    /// Literal code -> long clauses watching that literal (its first or second literal).
    watches: Vec<Vec<u32>>,
    /// Per variable: [`UNSET`], [`TRUE`] or [`FALSE`].
    values: Vec<i8>,
    trail: Vec<Lit>,
    /// Trail entries processed by propagation.
    head: usize,
    /// Whether the clauses are contradictory by unit propagation alone.
    inconsistent: bool,
    /// Whether a lemma of the empty clause was verified.
    refuted: bool,
    /// Scratch: literal marks and a clause buffer.
    mark: Vec<u32>,
    stamp: u32,
    buf: Vec<Lit>,
    resolvent: Vec<Lit>,
    /// A snapshot (see [`Checker::save_base`]): clause count and implication list lengths.
    base: Option<Base>,
    /// Literal codes whose implication list grew since the snapshot.
    touched: Vec<u32>,
    /// Per clause: deleted (only lemmas are).
    deleted: Vec<bool>,
    /// The lemmas present, by their sorted literal codes: clause indices.
    lemmas: HashMap<Vec<u32>, Vec<u32>>,
}

#[derive(Clone, Debug)]
struct Base {
    clauses: usize,
    imp_len: Vec<u32>,
    inconsistent: bool,
}

impl Checker {
    /// An empty checker.
    pub(crate) fn new() -> Checker {
        Checker::default()
    }

    #[inline]
    fn value(&self, l: Lit) -> i8 {
        let v = self.values[l.index()];
        if l.is_positive() { v } else { -v }
    }

    /// Makes room for variables up to `index`.
    fn grow(&mut self, index: usize) {
        if index >= self.values.len() {
            let n = (index + 1).max(2 * self.values.len());
            self.values.resize(n, UNSET);
            self.imp.resize_with(2 * n, Vec::new);
            self.watches.resize_with(2 * n, Vec::new);
            self.mark.resize(2 * n, 0);
            if let Some(b) = &mut self.base {
                b.imp_len.resize(2 * n, 0);
            }
        }
    }

    #[inline]
    fn assign(&mut self, l: Lit) {
        self.values[l.index()] = if l.is_positive() { TRUE } else { FALSE };
        self.trail.push(l);
    }

    /// Propagates the trail from `head`; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let l = self.trail[self.head];
            self.head += 1;
            // Binary clauses.
            for k in 0..self.imp[l.code()].len() {
                let m = self.imp[l.code()][k];
                match self.value(m) {
                    TRUE => {}
                    FALSE => return false,
                    _ => self.assign(m),
                }
            }
            // Long clauses watching ¬l, which just became false.
            let falsified = !l;
            let mut list = std::mem::take(&mut self.watches[falsified.code()]);
            let mut i = 0;
            let mut conflict = false;
            while i < list.len() {
                let c = list[i] as usize;
                if self.deleted.get(c) == Some(&true) {
                    list.swap_remove(i);
                    continue;
                }
                let (s, e) = (self.start[c] as usize, self.start[c + 1] as usize);
                // Keep the false watch second.
                if self.lits[s] == falsified {
                    self.lits.swap(s, s + 1);
                }
                let other = self.lits[s];
                if self.value(other) == TRUE {
                    i += 1;
                    continue;
                }
                // A replacement watch among the rest.
                let mut moved = false;
                for k in s + 2..e {
                    let m = self.lits[k];
                    if self.value(m) != FALSE {
                        self.lits.swap(s + 1, k);
                        self.watches[m.code()].push(c as u32);
                        list.swap_remove(i);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                i += 1;
                match self.value(other) {
                    FALSE => {
                        conflict = true;
                        break;
                    }
                    UNSET => self.assign(other),
                    _ => {}
                }
            }
            self.watches[falsified.code()] = list;
            if conflict {
                return false;
            }
        }
        true
    }

    /// Undoes the trail down to `mark` (assignments made since a top-level point).
    fn undo(&mut self, mark: usize) {
        for &l in &self.trail[mark..] {
            self.values[l.index()] = UNSET;
        }
        self.trail.truncate(mark);
        self.head = mark;
    }

    /// Adds a clause to the database (an original clause, or a lemma already verified), and
    /// propagates at the top level.
    pub(crate) fn add_clause(&mut self, clause: &[Lit]) {
        if let Some(top) = clause.iter().map(|l| l.index()).max() {
            self.grow(top);
        }
        // Without repeated literals; a tautology is stored (for RAT scans) but never propagates.
        self.stamp += 1;
        self.buf.clear();
        let mut tautology = false;
        for &l in clause {
            if self.mark[(!l).code()] == self.stamp {
                tautology = true;
            }
            if self.mark[l.code()] != self.stamp {
                self.mark[l.code()] = self.stamp;
                self.buf.push(l);
            }
        }
        let id = self.start.len().saturating_sub(1) as u32;
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.lits.extend_from_slice(&self.buf);
        self.start.push(self.lits.len() as u32);
        if tautology || self.inconsistent {
            return;
        }
        let (s, e) = (self.start[id as usize] as usize, self.lits.len());
        // Not false literals to the front.
        let mut open = 0;
        let mut satisfied = false;
        for k in s..e {
            match self.value(self.lits[k]) {
                FALSE => {}
                v => {
                    satisfied |= v == TRUE;
                    self.lits.swap(s + open, k);
                    open += 1;
                }
            }
        }
        if satisfied {
            // True at the top level for good: nothing to watch.
            return;
        }
        match (e - s, open) {
            (_, 0) => self.inconsistent = true,
            (_, 1) => {
                let l = self.lits[s];
                self.assign(l);
                if !self.propagate() {
                    self.inconsistent = true;
                }
            }
            (2, _) => {
                let (a, b) = (self.lits[s], self.lits[s + 1]);
                for (x, y) in [(a, b), (b, a)] {
                    let code = (!x).code();
                    if let Some(base) = &self.base
                        && self.imp[code].len() as u32 == base.imp_len[code]
                    {
                        self.touched.push(code as u32);
                    }
                    self.imp[code].push(y);
                }
            }
            _ => {
                self.watches[self.lits[s].code()].push(id);
                self.watches[self.lits[s + 1].code()].push(id);
            }
        }
    }

    /// Whether `clause` is a RUP consequence: setting all its literals false propagates to a
    /// conflict.
    fn rup(&mut self, clause: &[Lit]) -> bool {
        if self.inconsistent {
            return true;
        }
        let mark = self.trail.len();
        let mut conflict = false;
        for &l in clause {
            self.grow(l.index());
            match self.value(l) {
                TRUE => {
                    conflict = true;
                    break;
                }
                FALSE => {}
                _ => self.assign(!l),
            }
        }
        let result = conflict || !self.propagate();
        self.undo(mark);
        result
    }

    /// Whether `clause` is RAT on its first literal p: for every clause D holding ¬p, the resolvent
    /// `clause` ∪ (D \ {¬p}) is a tautology or a RUP consequence.
    fn rat(&mut self, clause: &[Lit]) -> bool {
        let Some(&pivot) = clause.first() else {
            return false;
        };
        let negated = !pivot;
        for c in 0..self.start.len().saturating_sub(1) {
            let (s, e) = (self.start[c] as usize, self.start[c + 1] as usize);
            if self.deleted.get(c) == Some(&true) || !self.lits[s..e].contains(&negated) {
                continue;
            }
            let mut resolvent = std::mem::take(&mut self.resolvent);
            resolvent.clear();
            resolvent.extend_from_slice(clause);
            resolvent.extend(self.lits[s..e].iter().filter(|&&l| l != negated));
            self.stamp += 1;
            let mut tautology = false;
            for &l in &resolvent {
                self.grow(l.index());
                tautology |= self.mark[(!l).code()] == self.stamp;
                self.mark[l.code()] = self.stamp;
            }
            let ok = tautology || self.rup(&resolvent);
            self.resolvent = resolvent;
            if !ok {
                return false;
            }
        }
        true
    }

    /// Checks the lemma `clause` (RUP, else RAT) and adds it. False if it is neither.
    pub(crate) fn add_lemma(&mut self, clause: &[Lit]) -> bool {
        if !(self.rup(clause) || self.rat(clause)) {
            return false;
        }
        if clause.is_empty() {
            self.refuted = true;
        }
        let id = self.start.len().saturating_sub(1) as u32;
        self.add_clause(clause);
        if clause.len() >= 2 {
            let key = self.key(clause);
            self.lemmas.entry(key).or_default().push(id);
        }
        true
    }

    /// The sorted, de-duplicated literal codes of `clause`.
    fn key(&self, clause: &[Lit]) -> Vec<u32> {
        let mut key: Vec<u32> = clause.iter().map(|l| l.code() as u32).collect();
        key.sort_unstable();
        key.dedup();
        key
    }

    /// Deletes one copy of the lemma `clause`, if one is present (anything else is ignored: the
    /// formula's own clauses and unit clauses stay).
    pub(crate) fn delete_lemma(&mut self, clause: &[Lit]) {
        let key = self.key(clause);
        let Some(id) = self.lemmas.get_mut(&key).and_then(Vec::pop) else {
            return;
        };
        let id = id as usize;
        if self.deleted.len() <= id {
            self.deleted.resize(id + 1, false);
        }
        self.deleted[id] = true;
        let (s, e) = (self.start[id] as usize, self.start[id + 1] as usize);
        if e - s == 2 {
            // A binary lemma lives in the implication lists, after the base's entries.
            let (a, b) = (self.lits[s], self.lits[s + 1]);
            for (x, y) in [(a, b), (b, a)] {
                let code = (!x).code();
                let from = self
                    .base
                    .as_ref()
                    .map_or(0, |base| base.imp_len[code] as usize);
                if let Some(k) = self.imp[code][from..].iter().rposition(|&m| m == y) {
                    self.imp[code].swap_remove(from + k);
                }
            }
        }
    }

    /// Checks a proof's steps in order against the clauses added so far: every addition must be a
    /// lemma ([`Checker::add_lemma`]; deletions are ignored), and some lemma the empty clause.
    pub(crate) fn check<'a>(
        &mut self,
        steps: impl IntoIterator<Item = (bool, &'a [Lit])>,
    ) -> Result<(), Rejection> {
        for (i, (deletion, clause)) in steps.into_iter().enumerate() {
            if deletion {
                self.delete_lemma(clause);
                continue;
            }
            if !self.add_lemma(clause) {
                return Err(Rejection::Lemma(i));
            }
        }
        if self.refuted {
            Ok(())
        } else {
            Err(Rejection::NoEmptyClause)
        }
    }

    /// Remembers the clauses added so far as a base that [`Checker::reset_to_base`] returns to, so
    /// that one formula can be checked under many sets of further clauses. The base must not have
    /// assigned anything (no unit clauses).
    pub(crate) fn save_base(&mut self) {
        debug_assert!(self.trail.is_empty());
        self.base = Some(Base {
            clauses: self.start.len().saturating_sub(1),
            imp_len: self.imp.iter().map(|v| v.len() as u32).collect(),
            inconsistent: self.inconsistent,
        });
        self.touched.clear();
    }

    /// Drops every clause and assignment added since [`Checker::save_base`] (nothing if no base was
    /// saved).
    pub(crate) fn reset_to_base(&mut self) {
        let Some(base) = self.base.take() else {
            return;
        };
        self.undo(0);
        for &code in &self.touched {
            self.imp[code as usize].truncate(base.imp_len[code as usize] as usize);
        }
        self.touched.clear();
        let end = self.start[base.clauses] as usize;
        self.start.truncate(base.clauses + 1);
        self.lits.truncate(end);
        // Long clauses' watches, afresh: the first two literals of each (none is assigned).
        for w in &mut self.watches {
            w.clear();
        }
        for c in 0..base.clauses {
            let (s, e) = (self.start[c] as usize, self.start[c + 1] as usize);
            if e - s > 2 && !self.is_tautology(s, e) {
                self.watches[self.lits[s].code()].push(c as u32);
                self.watches[self.lits[s + 1].code()].push(c as u32);
            }
        }
        self.inconsistent = base.inconsistent;
        self.refuted = false;
        self.deleted.clear();
        self.lemmas.clear();
        self.base = Some(base);
    }

    /// A checker of the clauses added so far simplified by the top-level assignment: satisfied
    /// clauses and tautologies dropped, false literals removed, the assignment kept as unit
    /// clauses. The two formulas are equivalent, and unit propagation from any assignment reaches
    /// the same conclusions in both, so a lemma is RUP in one exactly when it is in the other (and
    /// RAT with respect to an equivalent formula keeps satisfiability all the same); but where the
    /// top level settles most of a large formula (a certificate's plain CNF under its givens), each
    /// check in the reduced one scans far fewer clauses.
    pub(crate) fn reduced(&mut self) -> Checker {
        let mut out = Checker::new();
        if let Some(top) = self.values.len().checked_sub(1) {
            out.grow(top);
        }
        if self.inconsistent {
            out.add_clause(&[]);
            return out;
        }
        let mut buf = Vec::new();
        for c in 0..self.start.len().saturating_sub(1) {
            let (s, e) = (self.start[c] as usize, self.start[c + 1] as usize);
            buf.clear();
            let mut satisfied = false;
            for &l in &self.lits[s..e] {
                match self.value(l) {
                    TRUE => {
                        satisfied = true;
                        break;
                    }
                    FALSE => {}
                    _ => buf.push(l),
                }
            }
            if satisfied || self.is_tautology(s, e) {
                continue;
            }
            out.add_clause(&buf);
        }
        for &l in &self.trail {
            out.add_clause(&[l]);
        }
        out
    }

    fn is_tautology(&mut self, s: usize, e: usize) -> bool {
        self.stamp += 1;
        let mut t = false;
        for k in s..e {
            let l = self.lits[k];
            t |= self.mark[(!l).code()] == self.stamp;
            self.mark[l.code()] = self.stamp;
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[isize]) -> Vec<Lit> {
        v.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    fn checker(clauses: &[&[isize]]) -> Checker {
        let mut k = Checker::new();
        for cl in clauses {
            k.add_clause(&c(cl));
        }
        k
    }

    /// The eight clauses of all sign patterns over three variables: unsatisfiable.
    fn all_eight() -> Vec<Vec<isize>> {
        let mut v = Vec::new();
        for bits in 0..8 {
            v.push(
                (1..=3)
                    .map(|x| if bits >> (x - 1) & 1 == 1 { x } else { -x })
                    .collect(),
            );
        }
        v
    }

    #[test]
    fn a_resolution_refutation_checks() {
        let f = all_eight();
        let refs: Vec<&[isize]> = f.iter().map(|v| v.as_slice()).collect();
        let mut k = checker(&refs);
        // (1 2), (1), (2), then the empty clause: each RUP.
        let proof = [c(&[1, 2]), c(&[1]), c(&[2]), c(&[])];
        assert_eq!(k.check(proof.iter().map(|p| (false, p.as_slice()))), Ok(()));
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_rejected() {
        // (1 2) (¬1 2) (1 ¬2): satisfiable (1 = 2 = true); the unit ¬2 is not RUP, nor RAT on ¬2
        // (resolving with (¬1 2) gives (¬2 ¬1), not RUP).
        let mut k = checker(&[&[1, 2], &[-1, 2], &[1, -2]]);
        assert!(!k.add_lemma(&c(&[-2])));
        // And no empty clause without a refutation.
        let mut k = checker(&[&[1, 2], &[-1, 2], &[1, -2]]);
        assert_eq!(
            k.check([(false, &c(&[2])[..])]),
            Err(Rejection::NoEmptyClause)
        );
        let mut k = checker(&[&[1, 2], &[-1, 2], &[1, -2]]);
        assert_eq!(
            k.check([(false, &c(&[2])[..]), (false, &[][..])]),
            Err(Rejection::Lemma(1))
        );
    }

    #[test]
    fn rat_on_a_fresh_variable_is_accepted() {
        // Extended resolution: x4 ↔ (1 ∧ 2) by (¬4 1), (¬4 2), (4 ¬1 ¬2): each RAT on its first
        // literal over the fresh variable 4, none RUP.
        let mut k = checker(&[&[1, 3], &[2, -3]]);
        assert!(!k.rup(&c(&[-4, 1])));
        assert!(k.add_lemma(&c(&[-4, 1])));
        assert!(k.add_lemma(&c(&[-4, 2])));
        assert!(k.add_lemma(&c(&[4, -1, -2])));
        // A RAT clause whose pivot clashes with a clause that blocks it: (4) is not RAT now.
        assert!(!k.add_lemma(&c(&[4])));
    }

    #[test]
    fn long_clauses_propagate_through_watches() {
        // (1 2 3 4) with ¬1 ¬2 ¬3 forces 4; with (¬4 5) and (¬5) a conflict.
        let mut k = checker(&[&[1, 2, 3, 4], &[-4, 5]]);
        assert!(!k.rup(&c(&[1, 2, 3])));
        k.add_clause(&c(&[-5]));
        assert!(k.rup(&c(&[1, 2, 3])));
        assert!(k.add_lemma(&c(&[1, 2, 3])));
        // Units at the top level: ¬1 and ¬2 make (1 2 3) a unit; then ¬3 is inconsistent.
        k.add_clause(&c(&[-1]));
        k.add_clause(&c(&[-2]));
        assert!(!k.inconsistent);
        k.add_clause(&c(&[-3]));
        assert!(k.inconsistent);
        assert!(k.add_lemma(&[]));
    }

    #[test]
    fn a_base_is_reused() {
        let f = all_eight();
        let mut k = Checker::new();
        for cl in f.iter().skip(1) {
            k.add_clause(&c(cl));
        }
        // Seven of eight: satisfiable only by (-1 -2 -3) (the one clause left out was (-1 -2 -3)).
        k.save_base();
        for _ in 0..3 {
            k.reset_to_base();
            assert!(!k.add_lemma(&[]));
            k.reset_to_base();
            k.add_clause(&c(&[-1, -2, -3]));
            assert!(k.add_lemma(&c(&[1, 2])));
            assert!(k.add_lemma(&c(&[1])));
            assert!(k.add_lemma(&c(&[2])));
            assert_eq!(k.check([(false, &[][..])]), Ok(()));
        }
        k.reset_to_base();
        k.add_clause(&c(&[1]));
        assert!(!k.add_lemma(&[]));
    }

    /// The reduced checker accepts and rejects what the full one does: a refutation of the eight
    /// clauses over 1-3 once 4 (a unit) has settled a clause, a lemma that does not follow.
    #[test]
    fn the_reduced_checker_agrees() {
        let mut clauses = all_eight();
        clauses.push(vec![4]);
        clauses.push(vec![-4, 5, 6]);
        clauses.push(vec![4, 1, 2, 3]);
        let refs: Vec<&[isize]> = clauses.iter().map(Vec::as_slice).collect();
        let proof: Vec<Vec<Lit>> = vec![c(&[1, 2]), c(&[1]), c(&[2]), c(&[])];
        let steps = || proof.iter().map(|l| (false, l.as_slice()));
        let mut full = checker(&refs);
        assert_eq!(full.check(steps()), Ok(()));
        let mut reduced = checker(&refs).reduced();
        assert_eq!(reduced.check(steps()), Ok(()));
        // (¬5) is neither RUP nor RAT (the resolvent with (5 ∨ 6) is not RUP); with 4 true,
        // (¬4 ∨ 5 ∨ 6) gives (5 ∨ 6) by RUP.
        for mut k in [checker(&refs), checker(&refs).reduced()] {
            assert_eq!(
                k.check([(false, c(&[-5]).as_slice())]),
                Err(Rejection::Lemma(0))
            );
        }
        let mut reduced = checker(&refs).reduced();
        assert_eq!(
            reduced.check([(false, c(&[5, 6]).as_slice())]),
            Err(Rejection::NoEmptyClause)
        );
        // A lemma with a literal true at the top level is RUP in both.
        let mut reduced = checker(&refs).reduced();
        assert_eq!(
            reduced.check([(false, c(&[4, 7]).as_slice())]),
            Err(Rejection::NoEmptyClause)
        );
    }

    /// A deleted lemma no longer counts. F = (1 ∨ 2 ∨ 3), (1 ∨ 2 ∨ ¬3), (¬1 ∨ 4), (¬1 ∨ ¬4),
    /// (¬2 ∨ 5), (¬2 ∨ ¬5). (1 ∨ 2) is RUP; with it (1) is RUP (¬1 gives 2, then 5 and ¬5), but
    /// not from F alone, nor RAT on 1 (the resolvent (1 ∨ 4) is not RUP). The same with the long
    /// lemma (1 ∨ 2 ∨ 6) and then (1 ∨ 6). Deleting a clause that is not a lemma changes nothing.
    #[test]
    fn deleted_lemmas_are_gone() {
        let f: [&[isize]; 6] = [
            &[1, 2, 3],
            &[1, 2, -3],
            &[-1, 4],
            &[-1, -4],
            &[-2, 5],
            &[-2, -5],
        ];
        for (lemma, then) in [(vec![1, 2], vec![1]), (vec![1, 2, 6], vec![1, 6])] {
            for delete in [false, true] {
                let mut proof = vec![(false, c(&lemma))];
                if delete {
                    let mut reversed = lemma.clone();
                    reversed.reverse();
                    proof.push((true, c(&reversed)));
                }
                proof.push((true, c(&[-1, 4])));
                proof.push((false, c(&then)));
                let mut k = checker(&f);
                let result = k.check(proof.iter().map(|(d, l)| (*d, l.as_slice())));
                let expected = if delete {
                    Err(Rejection::Lemma(proof.len() - 1))
                } else {
                    Err(Rejection::NoEmptyClause)
                };
                assert_eq!(result, expected, "{lemma:?} delete {delete}");
            }
        }
    }
}
