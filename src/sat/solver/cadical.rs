//! The CaDiCaL engine, through the `cadical-sys` crate: a conflict limit per solve, a terminator
//! callback for the deadline, and a proof tracer that records DRAT steps in memory.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use cadical_sys::{CaDiCal, ProofTracer, Status, Terminator};

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
}

/// Stops the solver once the deadline has passed (or it was asked to stop).
struct Deadline(Instant);

impl Terminator for Deadline {
    fn terminated(&mut self) -> bool {
        crate::solve::past(Some(self.0))
    }
}

/// Records the derived clauses as DRAT additions (a RAT clause with its witness literal first, as
/// DRAT wants the pivot), and deletions.
#[derive(Default)]
struct Recorder {
    proof: Proof,
    buf: Vec<Lit>,
    /// A literal that does not fit our numbering (cannot happen with CaDiCaL's default options).
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

impl ProofTracer for Recorder {
    fn add_original_clause(&mut self, _: i64, _: bool, _: &[i32], _: bool) {}

    fn add_derived_clause(&mut self, _: i64, _: bool, witness: i32, clause: &[i32], _: &[i64]) {
        self.convert(witness, clause);
        let buf = std::mem::take(&mut self.buf);
        self.proof.add(&buf);
        self.buf = buf;
    }

    fn delete_clause(&mut self, _: i64, _: bool, clause: &[i32]) {
        self.convert(0, clause);
        let buf = std::mem::take(&mut self.buf);
        self.proof.delete(&buf);
        self.buf = buf;
    }

    fn weaken_minus(&mut self, _: i64, _: &[i32]) {}

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

    fn new(deadline: Option<Instant>, proof: bool) -> Cadical {
        let mut solver = CaDiCal::new();
        let recorder = proof.then(|| Rc::new(RefCell::new(Recorder::default())));
        if let Some(r) = &recorder {
            solver.connect_proof_tracer1(Rc::clone(r), false, false);
        }
        if let Some(d) = deadline {
            solver.connect_terminator(Deadline(d));
        }
        Cadical {
            solver,
            buf: Vec::new(),
            vars: 0,
            proof: recorder,
        }
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
        match self.solver.solve() {
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
