//! The CaDiCaL engine, through the `cadical-sys` crate: a conflict limit per solve, a terminator
//! callback for the deadline, and a proof tracer that records DRAT steps in memory.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;
use std::time::Instant;

use cadical_sys::{CaDiCal, Learner, ProofTracer, Status, Terminator};

use super::{Answer, Engine};
use crate::sat::lit::Lit;
use crate::sat::proof::Proof;
use crate::sat::sink::ClauseSink;

/// A fresh CaDiCaL solver.
pub(crate) struct Cadical {
    solver: CaDiCal,
    /// Conversion buffer.
    buf: Vec<i32>,
    /// The largest variable index mentioned, plus one.
    vars: usize,
    proof: Option<Rc<RefCell<Recorder>>>,
    /// Conflicts already shown on a progress display while solving ([`LiveConflicts`]), if one
    /// watches this thread.
    shown: Option<Rc<Cell<u64>>>,
}

/// Counts conflicts into this thread's [`WorkCounters`](crate::WorkCounters) while CaDiCaL
/// searches, so that a progress display moves during one long solve: CaDiCaL asks its learner
/// whether it wants each clause it learns (one per conflict, and a few more); the answer is no, so
/// nothing is copied. [`Cadical::solve`] corrects the estimate when the call returns.
struct LiveConflicts {
    pending: u64,
    shown: Rc<Cell<u64>>,
}

impl LiveConflicts {
    /// Conflicts passed on to the display at once.
    const BATCH: u64 = 64;
}

impl Learner for LiveConflicts {
    fn learning(&mut self, _size: i32) -> bool {
        self.pending += 1;
        if self.pending == Self::BATCH {
            crate::solve::add_conflicts(Self::BATCH);
            self.shown.set(self.shown.get() + Self::BATCH);
            self.pending = 0;
        }
        false
    }

    fn learn(&mut self, _lit: i32) {}
}

/// Stops the solver once the deadline, if any, has passed, or it was asked to stop.
struct Deadline(Option<Instant>);

impl Terminator for Deadline {
    fn terminated(&mut self) -> bool {
        crate::solve::past(self.0)
    }
}

/// Records the derived clauses as DRAT additions (a RAT clause with its witness literal first, as
/// DRAT wants the pivot), and deletions, but not those of clauses that CaDiCaL sets aside to
/// restore if needed (weakened: by variable elimination, substitution, blocked clause
/// elimination). A solver that gets clauses after a solve restores those that a new clause needs
/// (Fazekas, Biere & Scholl 2019) as original clauses, which a DRAT proof cannot add back once
/// deleted; kept, they need not be. Keeping a clause only adds to what each lemma may use: every
/// lemma CaDiCaL derives with its default options is RUP (the only RAT lemmas come from bounded
/// variable addition, `factor`, off by default, whose fresh variable no kept clause holds).
#[derive(Default)]
struct Recorder {
    proof: Proof,
    buf: Vec<Lit>,
    /// The clauses set aside, by CaDiCaL's clause id.
    weakened: HashSet<i64>,
    /// The proof is not DRAT: a literal that does not fit our numbering (cannot happen with
    /// CaDiCaL's default options), or a clause restored that was never set aside (cannot happen
    /// either).
    bad: bool,
}

impl Recorder {
    fn convert(&mut self, witness: i32, clause: &[i32]) {
        self.buf.clear();
        let mut push = |x: i32| match Lit::try_from_dimacs(x as isize) {
            Some(l) => self.buf.push(l),
            None => self.bad = true,
        };
        if witness != 0 && clause.contains(&witness) {
            push(witness);
        }
        for &x in clause {
            if witness == 0 || x != witness {
                push(x);
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Clauses CaDiCaL restored under a proof on this thread: what tests count.
    pub(crate) static RESTORED: Cell<usize> = const { Cell::new(0) };
}

impl ProofTracer for Recorder {
    fn add_original_clause(&mut self, id: i64, _: bool, _: &[i32], restored: bool) {
        // A restored clause is still in the proof: its deletion was left out.
        #[cfg(test)]
        if restored {
            RESTORED.with(|n| n.set(n.get() + 1));
        }
        self.bad |= restored && !self.weakened.contains(&id);
    }

    fn add_derived_clause(&mut self, _: i64, _: bool, witness: i32, clause: &[i32], _: &[i64]) {
        self.convert(witness, clause);
        let buf = std::mem::take(&mut self.buf);
        self.proof.add(&buf);
        self.buf = buf;
    }

    fn delete_clause(&mut self, id: i64, _: bool, clause: &[i32]) {
        if self.weakened.contains(&id) {
            return;
        }
        self.convert(0, clause);
        let buf = std::mem::take(&mut self.buf);
        self.proof.delete(&buf);
        self.buf = buf;
    }

    fn weaken_minus(&mut self, id: i64, _: &[i32]) {
        self.weakened.insert(id);
    }

    fn strengthen(&mut self, _: i64) {}

    fn finalize_clause(&mut self, _: i64, _: &[i32]) {}

    fn add_assumption(&mut self, _: i32) {}

    fn add_constraint(&mut self, _: &[i32]) {}

    fn reset_assumptions(&mut self) {}

    fn add_assumption_clause(&mut self, _: i64, _: &[i32], _: &[i64]) {}

    fn conclude_sat(&mut self, _: i32, _: &[i32]) {}

    fn conclude_unsat(&mut self, _: i32, _: &[i64]) {}

    fn conclude_unknown(&mut self, _: &[i32]) {}
}

impl ClauseSink for Cadical {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.add_mapped(lits, |l| l);
    }
}

impl Engine for Cadical {
    const FLIP_CELLS: bool = false;

    const PROVES_ACROSS_SOLVES: bool = true;

    const CAN_FAVOUR_SOLUTIONS: bool = true;

    fn new(deadline: Option<Instant>, proof: bool) -> Cadical {
        let mut solver = CaDiCal::new();
        let recorder = proof.then(|| Rc::new(RefCell::new(Recorder::default())));
        if let Some(r) = &recorder {
            solver.connect_proof_tracer1(Rc::clone(r), false, false);
        }
        if deadline.is_some() || crate::solve::stop_watched() {
            solver.connect_terminator(Deadline(deadline));
        }
        let shown = crate::solve::WorkCounters::on_this_thread().map(|_| {
            let shown = Rc::new(Cell::new(0));
            solver.connect_learner(LiveConflicts {
                pending: 0,
                shown: Rc::clone(&shown),
            });
            shown
        });
        Cadical {
            solver,
            buf: Vec::new(),
            vars: 0,
            proof: recorder,
            shown,
        }
    }

    fn favour_solutions(&mut self) {
        // An option CaDiCaL knows, set in its configuring state (before any clause): cannot fail.
        let known = self.solver.set("stabilizeonly", 1);
        debug_assert!(known, "CaDiCaL has the option stabilizeonly");
    }

    #[inline]
    fn add_mapped(&mut self, lits: &[Lit], mut map: impl FnMut(Lit) -> Lit) {
        if lits.is_empty() {
            self.solver.add(0);
            return;
        }
        self.buf.clear();
        for &l in lits {
            let l = map(l);
            self.vars = self.vars.max(l.index() + 1);
            // Variables fit an i32 by construction (`Var::MAX_INDEX`).
            self.buf.push(l.to_dimacs() as i32);
        }
        self.solver.clause6(&self.buf);
    }

    fn solve(&mut self, conflicts: Option<u64>) -> Answer {
        if let Some(c) = conflicts {
            // CaDiCaL's limit is an int: a larger budget is no limit in practice.
            let c = i32::try_from(c).unwrap_or(i32::MAX);
            self.solver.limit("conflicts", c);
        }
        let before = (self.conflicts(), self.shown.as_ref().map(|s| s.get()));
        let status = self.solver.solve();
        // For progress displays: this call's conflicts, less the estimate shown while it ran (CaDiCaL
        // also learns clauses outside conflicts, so the estimate may be above the count).
        if let (Some(was), Some(now)) = (before.0, self.conflicts()) {
            let live = match (&self.shown, before.1) {
                (Some(s), Some(b)) => s.get() - b,
                _ => 0,
            };
            let count = now.saturating_sub(was);
            if count >= live {
                crate::solve::add_conflicts(count - live);
            } else {
                crate::solve::take_back_conflicts(live - count);
            }
        }
        match status {
            Status::SATISFIABLE => Answer::Sat,
            Status::UNSATISFIABLE => Answer::Unsat,
            Status::UNKNOWN => Answer::Unknown,
        }
    }

    fn model(&mut self, out: &mut Vec<Lit>) {
        for i in 0..self.vars {
            let v = (i + 1) as i32;
            out.push(Lit::from_index(i, self.solver.val(v) > 0));
        }
    }

    fn conflicts(&self) -> Option<u64> {
        u64::try_from(self.solver.get_statistic_value("conflicts")).ok()
    }

    fn decisions(&self) -> Option<u64> {
        u64::try_from(self.solver.get_statistic_value("decisions")).ok()
    }

    fn take_proof(&mut self) -> Option<Proof> {
        let recorder = self.proof.take()?;
        self.solver.disconnect_proof_tracer1();
        let mut r = recorder.borrow_mut();
        if r.bad {
            return None;
        }
        Some(std::mem::take(&mut r.proof))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WorkCounters;

    #[test]
    fn live_conflicts_reach_the_display_in_batches() {
        let counters = WorkCounters::default();
        counters.count_on_this_thread();
        let shown = Rc::new(Cell::new(0));
        let mut live = LiveConflicts {
            pending: 0,
            shown: Rc::clone(&shown),
        };
        for _ in 0..150 {
            assert!(!live.learning(3), "no clause is copied");
        }
        WorkCounters::stop_counting_on_this_thread();
        assert_eq!((counters.conflicts(), shown.get()), (128, 128));
    }

    /// The recorder leaves out the deletions of clauses set aside (weakened), so that a clause
    /// restored later is still in the proof; the other deletions stay; a restored clause that was
    /// never set aside makes the proof unusable.
    #[test]
    fn set_aside_clauses_stay_in_the_proof() {
        let mut r = Recorder::default();
        r.add_original_clause(1, false, &[1, -3], false);
        r.add_derived_clause(7, true, 0, &[1, 2], &[]);
        r.weaken_minus(1, &[1, -3]);
        r.delete_clause(1, false, &[1, -3]);
        r.delete_clause(7, true, &[1, 2]);
        r.add_original_clause(1, false, &[1, -3], true);
        assert!(!r.bad);
        let steps: Vec<(bool, Vec<isize>)> = r
            .proof
            .steps()
            .map(|(d, c)| (d, c.iter().map(|l| l.to_dimacs()).collect()))
            .collect();
        assert_eq!(steps, [(false, vec![1, 2]), (true, vec![1, 2])]);
        r.add_original_clause(9, false, &[4], true);
        assert!(r.bad);
    }
}
