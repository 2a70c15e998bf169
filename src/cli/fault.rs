//! A test hook: a backend wrapper that corrupts answers on purpose, so tests can show that `check` and
//! `solve --backend both` catch a faulty backend. Switched on only by the environment variable
//! `SATDOKU_TEST_FAULT=<backend>:<fault>` (not shown in `--help`); faults: `wrong-digit` (changes one
//! digit of every grid returned), `claim-unique` (reports a multi-solution puzzle as unique),
//! `claim-none` (reports no solution whatever it found).

use satdoku::{Backend, Digit, Grid, Limits, Outcome, Report, SolveError, Units};

/// The environment variable that switches a fault on.
pub const VAR: &str = "SATDOKU_TEST_FAULT";

/// What to break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    WrongDigit,
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

fn corrupt(grid: &Grid) -> Grid {
    let mut g = grid.clone();
    let first = satdoku::Cell::new(0);
    let v = g.get(first).map_or(1, |d| d.get() % g.n() as u8 + 1);
    g.set(first, Digit::new(v));
    g
}

impl Backend for Faulty {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        let mut report = self.inner.solve(units, puzzle, limits)?;
        report.outcome = match (self.fault, report.outcome) {
            (Fault::WrongDigit, Outcome::Found(g)) => Outcome::Found(corrupt(&g)),
            (Fault::WrongDigit, Outcome::Unique(g)) => Outcome::Unique(corrupt(&g)),
            (Fault::ClaimUnique, Outcome::Multiple { solutions, .. }) => {
                let [first, _] = solutions;
                Outcome::Unique(*first)
            }
            (Fault::ClaimNone, _) => Outcome::NoSolution,
            (_, o) => o,
        };
        Ok(report)
    }
}
