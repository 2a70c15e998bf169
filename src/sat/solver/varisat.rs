//! The varisat engine. varisat 0.2.2 has no interrupt call and no conflict limit: a deadline stops
//! it through its proof output, which fails once the deadline has passed (varisat then ends the
//! solve at its next step, with no thread left running).

use std::cell::{Cell, RefCell};
use std::io;
use std::rc::Rc;
use std::time::Instant;

use varisat::{ExtendFormula, ProofFormat, Solver};

use super::{Answer, Engine};
use crate::sat::lit::Lit;
use crate::sat::proof::Proof;
use crate::sat::sink::ClauseSink;

/// A fresh varisat solver.
pub(crate) struct Varisat {
    solver: Solver<'static>,
    /// Conversion buffer.
    buf: Vec<varisat::Lit>,
    /// The binary DRAT proof varisat writes, when one was requested.
    proof: Option<Rc<RefCell<Vec<u8>>>>,
    /// For a solver made by [`Engine::new_limited`]: the bytes of its own proof format that
    /// varisat may still write in this solve (`None`: no limit).
    work_left: Option<Rc<Cell<Option<u64>>>>,
}

/// The target of varisat's proof output: keeps the proof if asked to (else nothing) and, once the
/// deadline has passed, fails, which makes varisat stop solving (`SolverError::ProofIoError`).
/// varisat buffers its proof (8 KiB), so the clock is read once per buffer of proof steps.
struct ProofTarget {
    deadline: Option<Instant>,
    keep: Option<Rc<RefCell<Vec<u8>>>>,
    /// Bytes that may still be written before the solve is stopped, if limited: a measure of work
    /// (varisat writes a step for each clause it learns), deterministic where time is not.
    work_left: Option<Rc<Cell<Option<u64>>>>,
}

impl io::Write for ProofTarget {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if crate::solve::past(self.deadline) {
            return Err(io::Error::other("satdoku: deadline passed"));
        }
        if let Some(left) = &self.work_left
            && let Some(bytes) = left.get()
        {
            if bytes < buf.len() as u64 {
                return Err(io::Error::other("satdoku: work limit reached"));
            }
            left.set(Some(bytes - buf.len() as u64));
        }
        if let Some(keep) = &self.keep {
            keep.borrow_mut().extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Bytes of varisat's own proof format taken as one conflict by [`Engine::solve_briefly`] (about
/// what varisat writes per learnt clause on our formulas; its proof is written in buffers of 8 KiB,
/// so the limit is checked at that grain).
const VARISAT_BYTES_PER_CONFLICT: u64 = 64;

#[inline]
fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_code(l.code())
}

#[inline]
fn from_varisat(l: varisat::Lit) -> Lit {
    Lit::from_code(l.code())
}

impl ClauseSink for Varisat {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.buf.clear();
        self.buf.extend(lits.iter().map(|&l| to_varisat(l)));
        self.solver.add_clause(&self.buf);
    }
}

impl Engine for Varisat {
    const FLIP_CELLS: bool = true;

    fn new(deadline: Option<Instant>, proof: bool) -> Varisat {
        let mut solver = Solver::new();
        let keep = proof.then(|| Rc::new(RefCell::new(Vec::new())));
        if proof {
            // DRAT, which external checkers read; only for a formula complete before solving.
            let target = ProofTarget {
                deadline,
                keep: keep.clone(),
                work_left: None,
            };
            solver.write_proof(target, ProofFormat::BinaryDrat);
        } else if deadline.is_some() || crate::solve::stop_watched() {
            // varisat's own format, which allows clauses added between solves (blocking
            // clauses); the proof bookkeeping costs some speed, so only with a deadline or a stop
            // flag to watch.
            let target = ProofTarget {
                deadline,
                keep: None,
                work_left: None,
            };
            solver.write_proof(target, ProofFormat::Varisat);
        }
        Varisat {
            solver,
            buf: Vec::new(),
            proof: keep,
            work_left: None,
        }
    }

    fn new_limited(deadline: Option<Instant>) -> Varisat {
        let mut solver = Solver::new();
        let work_left = Rc::new(Cell::new(None));
        let target = ProofTarget {
            deadline,
            keep: None,
            work_left: Some(Rc::clone(&work_left)),
        };
        // Its own format, which allows clauses added between solves.
        solver.write_proof(target, ProofFormat::Varisat);
        Varisat {
            solver,
            buf: Vec::new(),
            proof: None,
            work_left: Some(work_left),
        }
    }

    fn solve_briefly(&mut self, conflicts: u64) -> Answer {
        if let Some(left) = &self.work_left {
            left.set(Some(conflicts.saturating_mul(VARISAT_BYTES_PER_CONFLICT)));
        }
        let answer = self.solve(None);
        if let Some(left) = &self.work_left {
            left.set(None);
        }
        answer
    }

    #[inline]
    fn add_mapped(&mut self, lits: &[Lit], mut map: impl FnMut(Lit) -> Lit) {
        self.buf.clear();
        self.buf.extend(lits.iter().map(|&l| to_varisat(map(l))));
        self.solver.add_clause(&self.buf);
    }

    fn solve(&mut self, _conflicts: Option<u64>) -> Answer {
        match self.solver.solve() {
            Ok(true) => Answer::Sat,
            Ok(false) => Answer::Unsat,
            Err(_) => Answer::Unknown,
        }
    }

    fn model(&mut self, out: &mut Vec<Lit>) {
        if let Some(model) = self.solver.model() {
            out.extend(model.into_iter().map(from_varisat));
        }
    }

    fn conflicts(&self) -> Option<u64> {
        None
    }

    fn decisions(&self) -> Option<u64> {
        None
    }

    fn take_proof(&mut self) -> Option<Proof> {
        let keep = self.proof.take()?;
        // Flushes varisat's buffer into `keep`; fails if the deadline has passed meanwhile.
        self.solver.close_proof().ok()?;
        let bytes = std::mem::take(&mut *keep.borrow_mut());
        Proof::from_binary_drat(&bytes).ok()
    }
}
