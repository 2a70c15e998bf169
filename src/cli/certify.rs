//! `--certify DIR`: a certificate (plain CNF and DRAT proof) for each puzzle settled as unique or none,
//! checked by our own DRAT checker before it is reported, for every command that settles puzzles.

use std::path::PathBuf;

use anyhow::{Context, Result};

use satdoku::sat::{Certifier, CertifyError, SatBackend};
use satdoku::{
    Answer, Backend, Certification, Evidence, Grid, Limits, Outcome, Report, SolveError, Units,
};

use super::args::{CertifyArgs, SatArgs};
use super::exit::Exit;
use super::record::{Diagnostic, Record};

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
    /// `DIR/puzzle-<index>.cnf` and `.drat` once the proof has been checked. A certificate that
    /// came with the reports of `answers` (made by [`CertifyingSat`] as it answered) is used if it
    /// is about `outcome`; otherwise one is made now.
    pub fn certify(
        &self,
        index: usize,
        units: &Units,
        puzzle: &Grid,
        outcome: &Outcome,
        answers: &[Answer],
    ) -> Certified {
        if !matches!(outcome, Outcome::Unique(_) | Outcome::NoSolution) {
            return Certified::NotAsked;
        }
        let came = answers
            .iter()
            .filter_map(|a| a.report.as_ref().ok()?.certificate.as_deref())
            .find(|c| c.is_about(units, puzzle, outcome));
        match came {
            Some(Certification::Made(c)) => return self.check_and_write(index, &**c),
            Some(Certification::Missing { reason, .. }) => {
                return Certified::No(format!("no certificate: {reason}"));
            }
            None => {}
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
    fn check_and_write(&self, index: usize, certificate: &dyn Evidence) -> Certified {
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
    pub fn mark(self, mut record: Record, place: impl FnOnce() -> String) -> Record {
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
                place: place(),
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
                Box::new(CertifyingSat { sat, certifier })
            }
            _ => Box::new(sat),
        }
    }
}

/// The SAT backend answering `--unique` under `--certify`, for every command (`solve` with any
/// backend that runs it, `check`, `verify --unique`): the answer and its certificate the cheapest
/// way ([`Certifier::solve_unique`]: a first solve, the warm second solve, and a proof-recording
/// solve only when no second solution turned up), the certificate carried in its report for
/// [`Certify::certify`] to check and write once the command has settled the answer. Other
/// questions (first solution, counting past two) and grids too large to certify go to the plain
/// SAT backend.
pub struct CertifyingSat {
    sat: SatBackend,
    certifier: Certifier,
}

impl Backend for CertifyingSat {
    fn name(&self) -> &'static str {
        self.sat.name()
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        if limits.max_solutions() != 2 || self.certifier.fits(units, puzzle).is_err() {
            return self.sat.solve(units, puzzle, limits);
        }
        match self
            .certifier
            .with_limits(*limits)
            .solve_unique(units, puzzle)
        {
            Ok(settled) => Ok(settled.into_report()),
            Err(CertifyError::InvalidSolution { violation }) => Err(SolveError::InvalidAnswer {
                backend: self.name(),
                violation,
            }),
            // A solver bug (the plain and the proof-recording solve contradict each other), or a
            // grid that does not fit after all: the plain backend answers, certified afterwards.
            Err(_) => self.sat.solve(units, puzzle, limits),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use satdoku::{Shape, Stats};

    use super::*;

    /// "Platinum Blonde" (unique; our simplification leaves it to the solver).
    fn platinum() -> Grid {
        let text =
            ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...";
        let values = text
            .bytes()
            .map(|b| b.saturating_sub(b'0') as u16 % 10)
            .collect();
        Grid::from_values(Shape::new(3, 3).unwrap(), values).unwrap()
    }

    fn answer(backend: &'static str, report: Report) -> Answer {
        Answer {
            backend,
            report: Ok(report),
            time: Duration::ZERO,
        }
    }

    /// The certificate that travels in an answer's report is the one checked and written: with a
    /// certifier of its own that can make none (a timeout of zero, on a puzzle that needs the
    /// solver), an answer is certified when a report (the second backend's) carries its
    /// certificate, and not otherwise; a certificate of another puzzle is not taken for this one;
    /// a certificate missing for the same claim is reported with its reason.
    #[test]
    fn the_certificate_in_the_report_is_the_one_used() {
        let dir = tempfile::tempdir().unwrap();
        let puzzle = platinum();
        let units = Units::standard(puzzle.shape());
        let settled = Certifier::new().solve_unique(&units, &puzzle).unwrap();
        let outcome = settled.outcome.clone();
        assert!(matches!(outcome, Outcome::Unique(_)));
        let certify = Certify {
            dir: dir.path().to_path_buf(),
            certifier: Certifier::new()
                .with_limits(Limits::unique().with_timeout(Some(Duration::ZERO))),
        };
        let plain = answer("dfs", Report::new(outcome.clone(), Stats::default()));
        let answers = [plain.clone(), answer("sat", settled.clone().into_report())];
        let cnf = |i: usize| dir.path().join(format!("puzzle-{i:06}.cnf"));
        assert_eq!(
            certify.certify(0, &units, &puzzle, &outcome, &answers),
            Certified::Yes
        );
        assert!(cnf(0).exists());
        // Without it, the certifier's own attempt runs out of time.
        let Certified::No(why) = certify.certify(1, &units, &puzzle, &outcome, &answers[..1])
        else {
            panic!("certified without a certificate")
        };
        assert!(why.contains("no proof within the limits"), "{why}");
        assert!(!cnf(1).exists());
        // Another puzzle (a given taken away, so several solutions) and the same claim: not this
        // certificate.
        let mut other = puzzle.clone();
        other.set(satdoku::Cell::new(7), None);
        assert!(matches!(
            certify.certify(2, &units, &other, &outcome, &answers),
            Certified::No(_) | Certified::Wrong(_)
        ));
        assert!(!cnf(2).exists());
        // Missing for this claim: its reason, without another attempt.
        let missing = Report {
            certificate: Some(Box::new(Certification::Missing {
                solution: outcome.solution().cloned(),
                reason: "the reason given".into(),
            })),
            ..Report::new(outcome.clone(), Stats::default())
        };
        assert_eq!(
            certify.certify(3, &units, &puzzle, &outcome, &[answer("sat", missing)]),
            Certified::No("no certificate: the reason given".into())
        );
    }
}
