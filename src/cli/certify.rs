//! `--certify DIR`: a certificate (plain CNF and DRAT proof) for each puzzle settled as unique or none,
//! checked by our own DRAT checker before it is reported, for every command that settles puzzles.

use std::path::PathBuf;

use anyhow::{Context, Result};

use satdoku::sat::{Certificate, Certifier, CertifyError, Settled};
use satdoku::{Grid, Limits, Outcome, Report, SolveError, Units, verify};

use super::args::{CertifyArgs, SatArgs};
use super::exit::Exit;
use super::pipeline::{Diagnostic, Record};

/// Where certificates go, and the certifier that makes them.
pub struct Certify {
    dir: PathBuf,
    certifier: Certifier,
}

/// What became of one puzzle's certificate.
#[derive(Debug, PartialEq, Eq)]
pub enum Certified {
    /// Nothing to certify (neither unique nor none).
    NotAsked,
    /// Written and checked.
    Yes,
    /// Not made within the limits, or too large: the answer stands, uncertified.
    No(String),
    /// The certifier refuted the answer, or our checker rejected the proof: a bug somewhere.
    Wrong(String),
}

impl Certify {
    /// The certifier `args` ask for, on the SAT solver of `sat`, within `limits`; `None` without
    /// `--certify`.
    ///
    /// # Errors
    /// A directory that cannot be created, a SAT solver this build lacks.
    pub fn from_args(args: &CertifyArgs, sat: &SatArgs, limits: Limits) -> Result<Option<Certify>> {
        let Some(dir) = &args.certify else {
            return Ok(None);
        };
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--certify: creating {}", dir.display()))?;
        let certifier = Certifier::new()
            .with_solver(sat.solver())
            .map_err(|e| anyhow::anyhow!("--sat-solver {}: {e}", sat.solver()))?
            .with_limits(limits);
        Ok(Some(Certify {
            dir: dir.clone(),
            certifier,
        }))
    }

    /// Certifies `outcome` (a verified answer to `puzzle`) as puzzle number `index`, writing
    /// `DIR/puzzle-<index>.cnf` and `.drat` once the proof has been checked.
    pub fn certify(
        &self,
        index: usize,
        units: &Units,
        puzzle: &Grid,
        outcome: &Outcome,
    ) -> Certified {
        if !matches!(outcome, Outcome::Unique(_) | Outcome::NoSolution) {
            return Certified::NotAsked;
        }
        let certificate = match self.certifier.certify(units, puzzle, outcome) {
            Ok(c) => c,
            Err(e @ (CertifyError::Refuted { .. } | CertifyError::InvalidSolution { .. })) => {
                return Certified::Wrong(format!("the certifier refutes the answer: {e}"));
            }
            Err(e) => return Certified::No(format!("no certificate: {e}")),
        };
        self.check_and_write(index, &certificate)
    }

    /// Whether [`Certify::settle`] can answer `puzzle` (the certificate's CNF is within the
    /// budget); if not, the plain answer is certified (or not) the usual way.
    pub fn settles(&self, units: &Units, puzzle: &Grid) -> bool {
        self.certifier.fits(units, puzzle).is_ok()
    }

    /// The answer to `--unique` from `first`, a verified answer with a solution limit of 1 (see
    /// [`Certifier::settle`]): the certifying solve over the formula and the clause excluding the
    /// first solution is the uniqueness question, so no plain second solve is made. Every grid of
    /// the answer is verified here (the second one comes from the certifying solve, not from a
    /// verified backend); `backend` names the solver in the error if one fails.
    pub fn settle(
        &self,
        index: usize,
        units: &Units,
        puzzle: &Grid,
        first: Report,
        backend: &'static str,
    ) -> (Result<Report, SolveError>, Certified) {
        if !matches!(first.outcome, Outcome::Found(_) | Outcome::NoSolution) {
            return (Ok(first), Certified::NotAsked);
        }
        let Report { outcome, stats } = first;
        let (outcome, certified) = match self.certifier.settle(units, puzzle, &outcome) {
            Ok(Settled {
                outcome: settled,
                certificate,
                ..
            }) => {
                for grid in settled.grids() {
                    if let Err(violation) = verify(units, puzzle, grid) {
                        return (
                            Err(SolveError::InvalidAnswer { backend, violation }),
                            Certified::NotAsked,
                        );
                    }
                }
                if let Outcome::Multiple { solutions, .. } = &settled
                    && solutions[0] == solutions[1]
                {
                    return (
                        Err(SolveError::RepeatedSolution { backend }),
                        Certified::NotAsked,
                    );
                }
                let certified = match &certificate {
                    Some(c) => self.check_and_write(index, c),
                    None => Certified::NotAsked,
                };
                (settled, certified)
            }
            Err(e @ (CertifyError::Refuted { .. } | CertifyError::InvalidSolution { .. })) => (
                outcome,
                Certified::Wrong(format!("the certifier refutes the answer: {e}")),
            ),
            Err(e) => {
                let message = format!("no certificate: {e}");
                match outcome {
                    // The certifying solve was the uniqueness question: it stays open.
                    Outcome::Found(g) => (
                        Outcome::Unknown {
                            count: 1,
                            first: Some(Box::new(g)),
                        },
                        Certified::No(format!("{message}; uniqueness not settled")),
                    ),
                    o => (o, Certified::No(message)),
                }
            }
        };
        (Ok(Report { outcome, stats }), certified)
    }

    /// Checks `certificate` with our own checker, then writes it as puzzle number `index`.
    fn check_and_write(&self, index: usize, certificate: &Certificate) -> Certified {
        if let Err(e) = certificate.check() {
            return Certified::Wrong(format!("the certificate's proof does not check: {e}"));
        }
        match certificate.write_files(&self.dir, &format!("puzzle-{index:06}")) {
            Ok(_) => Certified::Yes,
            Err(e) => Certified::No(format!(
                "no certificate: writing to {}: {e}",
                self.dir.display()
            )),
        }
    }
}

impl Certified {
    /// `record` marked with what became of its certificate: counted under `certified`, or a
    /// diagnostic, and the exit status raised (1 uncertified, 4 refuted or unchecked).
    pub fn mark(self, mut record: Record, place: String) -> Record {
        let (exit, message) = match self {
            Certified::NotAsked => return record,
            Certified::Yes => {
                record.certified = true;
                return record;
            }
            Certified::No(m) => (Exit::Unsolved, m),
            Certified::Wrong(m) => (Exit::Internal, m),
        };
        record.exit = record.exit.max(exit);
        if record.diagnostic.is_none() {
            record.diagnostic = Some(Diagnostic {
                place,
                message,
                shown_in_record: false,
            });
        }
        record
    }

    /// The JSON value of `certified`: true, false, or absent (`None`) when nothing was asked.
    pub fn json(&self) -> Option<bool> {
        match self {
            Certified::NotAsked => None,
            Certified::Yes => Some(true),
            Certified::No(_) | Certified::Wrong(_) => Some(false),
        }
    }
}
