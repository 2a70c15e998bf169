//! `--certify DIR`: a certificate (plain CNF and DRAT proof) for each puzzle settled as unique or none,
//! checked by our own DRAT checker before it is reported, for every command that settles puzzles.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};

use satdoku::sat::{Certificate, Certifier, CertifyError, SatBackend, Settled};
use satdoku::{Backend, Grid, Limits, Outcome, Report, SolveError, Units};

use super::args::{CertifyArgs, SatArgs};
use super::exit::Exit;
use super::record::{Diagnostic, Record};

/// Where certificates go, and the certifier that makes them.
pub struct Certify {
    dir: PathBuf,
    certifier: Certifier,
    /// What [`CertifyingSat`] found out about certificates while answering, for [`Certify::certify`].
    stash: Arc<Stash>,
}

/// Certificates (or why none) that [`CertifyingSat`] made while answering, by unit list and puzzle,
/// until [`Certify::certify`] takes them.
type Stash = Mutex<HashMap<(u64, Vec<u16>), Stashed>>;

/// Entries kept at most: more are only left by answers that were never certified (the other
/// backend disagreed, or won a race), so the stash is emptied then.
const STASH_MAX: usize = 1024;

/// What the certifying SAT backend left for [`Certify::certify`].
#[derive(Debug)]
enum Stashed {
    /// The certificate of its `unique` or `none` answer (the unique solution in it).
    Made(Box<Certificate>),
    /// Its answer `none` (or `unique`, with that solution) is not certified: why.
    Not(Option<Grid>, String),
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
            stash: Arc::default(),
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
        let key = (units.id(), puzzle.values().to_vec());
        let stashed = self.stash.lock().map_or(None, |mut s| s.remove(&key));
        match stashed {
            // Made by the answer's own solves (the answer is the certificate's claim).
            Some(Stashed::Made(c)) if c.solution() == outcome.solution() => {
                return self.check_and_write(index, &c);
            }
            Some(Stashed::Not(s, why)) if s.as_ref() == outcome.solution() => {
                return Certified::No(why);
            }
            _ => {}
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

impl Certify {
    /// `sat` as `--certify` runs it: see [`CertifyingSat`]. `sat` must be the default
    /// configuration (with any solver); a configured one answers alone, certified afterwards.
    pub fn sat_backend(&self, sat: SatBackend) -> Box<dyn Backend> {
        let certifier = Certifier::new()
            .with_solver(sat.solver())
            .map(|c| c.with_limits(self.certifier.limits()));
        match certifier {
            Ok(certifier) if SatBackend::default().with_solver(sat.solver()) == Ok(sat) => {
                Box::new(CertifyingSat {
                    sat,
                    certifier,
                    stash: Arc::clone(&self.stash),
                })
            }
            _ => Box::new(sat),
        }
    }
}

/// The SAT backend answering `--unique` under `--certify`, for every command (`solve` with any
/// backend that runs it, `check`, `verify --unique`): the answer and its certificate the cheapest
/// way ([`Certifier::solve_unique`]: a first solve, the warm second solve, and a proof-recording
/// solve only when no second solution turned up), the certificate left for [`Certify::certify`]
/// to check and write once the command has settled the answer. Other questions (first solution,
/// counting past two) and grids too large to certify go to the plain SAT backend.
pub struct CertifyingSat {
    sat: SatBackend,
    certifier: Certifier,
    stash: Arc<Stash>,
}

impl Backend for CertifyingSat {
    fn name(&self) -> &'static str {
        self.sat.name()
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        if limits.max_solutions() != 2 || self.certifier.fits(units, puzzle).is_err() {
            return self.sat.solve(units, puzzle, limits);
        }
        let (report, stashed) = match self
            .certifier
            .with_limits(*limits)
            .solve_unique(units, puzzle)
        {
            Ok(Settled {
                outcome,
                certificate,
                uncertified,
                stats,
                ..
            }) => {
                let stashed = match (certificate, uncertified) {
                    (Some(c), _) => Some(Stashed::Made(Box::new(c))),
                    (None, Some(e)) => Some(Stashed::Not(
                        outcome.solution().cloned(),
                        format!("no certificate: {e}"),
                    )),
                    (None, None) => None,
                };
                (Report { outcome, stats }, stashed)
            }
            Err(CertifyError::InvalidSolution { violation }) => {
                return Err(SolveError::InvalidAnswer {
                    backend: self.name(),
                    violation,
                });
            }
            // A solver bug (the plain and the proof-recording solve contradict each other), or a
            // grid that does not fit after all: the plain backend answers, certified afterwards.
            Err(_) => return self.sat.solve(units, puzzle, limits),
        };
        if let Some(stashed) = stashed
            && let Ok(mut stash) = self.stash.lock()
        {
            if stash.len() >= STASH_MAX {
                stash.clear();
            }
            stash.insert((units.id(), puzzle.values().to_vec()), stashed);
        }
        Ok(report)
    }
}
