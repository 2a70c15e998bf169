//! A test hook: a backend wrapper that corrupts answers on purpose, so tests can show that every command
//! catches a faulty backend. Switched on only by the environment variable
//! `SATDOKU_TEST_FAULT=<backend>:<fault>` (not shown in `--help`); faults: `wrong-digit` (changes one
//! digit of every grid returned), `wrong-second` (changes one digit of the second grid of a `multiple`
//! answer), `same-twice` (a `multiple` answer with its first grid twice), `claim-unique` (reports a
//! multi-solution puzzle as unique), `claim-none` (reports no solution whatever it found).

use satdoku::{Backend, Cell, Digit, Grid, Handover, Limits, Outcome, Report, SolveError, Units};

/// The environment variable that switches a fault on.
pub const VAR: &str = "SATDOKU_TEST_FAULT";

/// What to break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    WrongDigit,
    WrongSecond,
    SameTwice,
    ClaimUnique,
    ClaimNone,
}

/// Wraps `backend` in a faulty one if the environment asks for a fault on a backend of its name.
pub fn wrap(backend: Box<dyn Backend>) -> Box<dyn Backend> {
    let Ok(spec) = std::env::var(VAR) else {
        return backend;
    };
    let Some((name, fault)) = spec.split_once(':') else {
        return backend;
    };
    let fault = match fault {
        "wrong-digit" => Fault::WrongDigit,
        "wrong-second" => Fault::WrongSecond,
        "same-twice" => Fault::SameTwice,
        "claim-unique" => Fault::ClaimUnique,
        "claim-none" => Fault::ClaimNone,
        _ => return backend,
    };
    if name != backend.name() {
        return backend;
    }
    Box::new(Faulty {
        inner: backend,
        fault,
    })
}

struct Faulty {
    inner: Box<dyn Backend>,
    fault: Fault,
}

/// `grid` with its first cell's digit changed (a given, in most puzzles).
fn corrupt(grid: &Grid) -> Grid {
    let mut g = grid.clone();
    let first = Cell::new(0);
    let v = g.get(first).map_or(1, |d| d.get() % g.n() as u16 + 1);
    g.set(first, Digit::new(v));
    g
}

impl Backend for Faulty {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        self.inner
            .solve(units, puzzle, limits)
            .map(|report| self.spoil(report))
    }

    /// The inner backend's handover, spoiled the same way: the auto backend races a faulty phase
    /// as it races the real one, not by the restart kept for phases without a handover.
    fn solve_handing_over(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        handover: &Handover<'_>,
    ) -> Option<Result<Report, SolveError>> {
        let result = self
            .inner
            .solve_handing_over(units, puzzle, limits, handover)?;
        Some(result.map(|report| self.spoil(report)))
    }
}

impl Faulty {
    /// `report` with its answer broken as the fault says.
    fn spoil(&self, mut report: Report) -> Report {
        report.outcome = match (self.fault, report.outcome) {
            (Fault::WrongDigit, Outcome::Found(g)) => Outcome::Found(corrupt(&g)),
            (Fault::WrongDigit, Outcome::Unique(g)) => Outcome::Unique(corrupt(&g)),
            (
                Fault::WrongDigit,
                Outcome::Multiple {
                    solutions: [a, b],
                    count,
                    complete,
                },
            ) => Outcome::Multiple {
                solutions: [Box::new(corrupt(&a)), b],
                count,
                complete,
            },
            (
                Fault::WrongSecond,
                Outcome::Multiple {
                    solutions: [a, b],
                    count,
                    complete,
                },
            ) => Outcome::Multiple {
                solutions: [a, Box::new(corrupt(&b))],
                count,
                complete,
            },
            (
                Fault::SameTwice,
                Outcome::Multiple {
                    solutions: [a, _],
                    count,
                    complete,
                },
            ) => Outcome::Multiple {
                solutions: [a.clone(), a],
                count,
                complete,
            },
            (Fault::ClaimUnique, Outcome::Multiple { solutions, .. }) => {
                let [first, _] = solutions;
                Outcome::Unique(*first)
            }
            (Fault::ClaimNone, _) => Outcome::NoSolution,
            (_, o) => o,
        };
        report
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell as Counter;
    use std::time::Duration;

    use satdoku::{DfsBackend, Shape};

    use super::*;

    /// A faulty native backend still takes the auto backend's handover (and fires it), and its
    /// answer is spoiled on that path too: without the handover the auto backend would race it by
    /// the restart kept for phases that have none, which is not what the real backend does.
    #[test]
    fn a_faulty_backend_takes_the_handover_and_spoils_its_answer() {
        let shape = Shape::new(2, 2).unwrap();
        let (units, empty) = (Units::standard(shape), Grid::empty(shape));
        let faulty = Faulty {
            inner: Box::new(DfsBackend::new()),
            fault: Fault::ClaimNone,
        };
        let calls = Counter::new(0);
        let call = || calls.set(calls.get() + 1);
        let handover = Handover::new(0, Duration::MAX, &call);
        let report = faulty
            .solve_handing_over(&units, &empty, &Limits::count_to(300), &handover)
            .expect("the native backend takes a handover")
            .unwrap();
        assert_eq!(report.outcome, Outcome::NoSolution);
        assert_eq!(calls.get(), 1);
        assert!(handover.fired());
    }
}
