//! The varisat engine. varisat 0.2.2 has no interrupt call and no conflict limit: a deadline stops
//! it through its proof output, which fails once the deadline has passed (varisat then ends the
//! solve at its next step, with no thread left running).

use std::cell::RefCell;
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
}

/// The target of varisat's proof output: keeps the proof if asked to (else nothing) and, once the
/// deadline has passed, fails, which makes varisat stop solving (`SolverError::ProofIoError`).
/// varisat buffers its proof (8 KiB), so the clock is read once per buffer of proof steps.
struct ProofTarget {
    deadline: Option<Instant>,
    keep: Option<Rc<RefCell<Vec<u8>>>>,
}

impl io::Write for ProofTarget {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if crate::solve::past(self.deadline) {
            return Err(io::Error::other("satdoku: deadline passed"));
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
            };
            solver.write_proof(target, ProofFormat::BinaryDrat);
        } else if deadline.is_some() {
            // varisat's own format, which allows clauses added between solves (blocking
            // clauses); the proof bookkeeping costs some speed, so only with a deadline.
            let target = ProofTarget {
                deadline,
                keep: None,
            };
            solver.write_proof(target, ProofFormat::Varisat);
        }
        Varisat {
            solver,
            buf: Vec::new(),
            proof: keep,
        }
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
