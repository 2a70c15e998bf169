//! Checked answers: [`Verified`] passes a backend's every grid through the independent checker
//! ([`verify`]) before anyone sees it; [`cross_check`] runs two backends and judges whether their
//! answers agree. Neither shares anything with the backends but the rules (`Units`) and the
//! `Backend` trait.

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::grid::Grid;
use crate::solve::{Backend, Limits, Outcome, Report, SolveError, Status};
use crate::units::Units;
use crate::verify::{Violation, verify};

/// A backend whose every answer has passed [`verify`] before it is returned: a grid that breaks a rule
/// becomes [`SolveError::InvalidAnswer`], and a `multiple` answer whose two grids are one becomes
/// [`SolveError::RepeatedSolution`]. The command-line tool wraps every backend in it, so that no grid
/// reaches a user, or counts as a solution, unverified.
///
/// ```
/// use satdoku::{Backend, DfsBackend, Grid, Limits, Shape, Units, Verified};
/// let shape = Shape::new(2, 2).unwrap();
/// let backend = Verified::new(DfsBackend::new());
/// let report = backend.solve(&Units::standard(shape), &Grid::empty(shape), &Limits::first()).unwrap();
/// assert!(report.outcome.solution().is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Verified<B> {
    inner: B,
}

impl<B: Backend> Verified<B> {
    /// `inner`, verified.
    pub fn new(inner: B) -> Verified<B> {
        Verified { inner }
    }

    /// The backend inside.
    pub fn inner(&self) -> &B {
        &self.inner
    }
}

impl<B: Backend> Backend for Verified<B> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The inner backend's answer, if every grid in it passes [`verify`].
    ///
    /// # Errors
    /// The inner backend's errors, [`SolveError::InvalidAnswer`] for a grid that breaks a rule and
    /// [`SolveError::RepeatedSolution`] for a `multiple` answer with one grid twice.
    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        // The inner answer is returned as it came (not taken apart and put together again: a
        // report is large, and this runs once a puzzle).
        let mut answer = self.inner.solve(units, puzzle, limits);
        if let Ok(report) = &answer
            && let Some(e) = self.wrong(units, puzzle, report)
        {
            answer = Err(e);
        }
        answer
    }
}

impl<B: Backend> Verified<B> {
    /// Why `report` (the inner backend's) is wrong: a grid that breaks a rule, or a `multiple`
    /// answer with one grid twice; `None` if it is right.
    fn wrong(&self, units: &Units, puzzle: &Grid, report: &Report) -> Option<SolveError> {
        let backend = self.inner.name();
        for grid in report.outcome.grids() {
            if let Err(violation) = verify(units, puzzle, grid) {
                return Some(SolveError::InvalidAnswer { backend, violation });
            }
        }
        match &report.outcome {
            Outcome::Multiple { solutions, .. } if solutions[0] == solutions[1] => {
                Some(SolveError::RepeatedSolution { backend })
            }
            _ => None,
        }
    }
}

/// How an answer compares with the solution given with its puzzle (a `solution:` block of a variant
/// file): one more witness, independent of both backends.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expected {
    /// The answer is the given solution (for several solutions: one of them is, or neither grid
    /// contradicts it).
    Matches,
    /// The given solution breaks a rule of the puzzle (or changes a given).
    Invalid(Violation),
    /// The answer's solution is another grid than the given one, both valid: the puzzle has more than
    /// one solution, so a `unique` answer is wrong.
    Differs {
        /// The cells where they differ, `rXcY`.
        cells: Vec<String>,
        /// Whether the answer claimed its grid is the only solution.
        unique: bool,
    },
    /// The answer says there is no solution, but the given one is valid.
    Missed,
    /// Nothing to compare: a limit was hit before any solution was found.
    Unsettled,
}

/// Compares `outcome` (an answer to `puzzle` under `units`) with `expected`, the solution given with
/// the puzzle, which is verified first.
pub fn compare_expected(
    units: &Units,
    puzzle: &Grid,
    expected: &Grid,
    outcome: &Outcome,
) -> Expected {
    if let Err(v) = verify(units, puzzle, expected) {
        return Expected::Invalid(v);
    }
    let differs = |g: &Grid, unique: bool| {
        if g == expected {
            Expected::Matches
        } else {
            Expected::Differs {
                cells: g.diff(expected).iter().map(|c| c.name(g.shape())).collect(),
                unique,
            }
        }
    };
    match outcome {
        Outcome::NoSolution => Expected::Missed,
        Outcome::Unique(g) => differs(g, true),
        Outcome::Found(g) => differs(g, false),
        Outcome::Multiple { .. } => Expected::Matches,
        Outcome::Unknown { first: None, .. } => Expected::Unsettled,
        Outcome::Unknown { .. } => Expected::Matches,
    }
}

impl Expected {
    /// A word for reports: `match`, `invalid`, `differs`, `missed`, `unsettled`.
    pub fn word(&self) -> &'static str {
        match self {
            Expected::Matches => "match",
            Expected::Invalid(_) => "invalid",
            Expected::Differs { .. } => "differs",
            Expected::Missed => "missed",
            Expected::Unsettled => "unsettled",
        }
    }

    /// What is wrong, for a report (`None` when nothing is).
    pub fn problem(&self) -> Option<String> {
        match self {
            Expected::Matches | Expected::Unsettled => None,
            Expected::Invalid(v) => Some(format!(
                "the solution given with the puzzle is invalid: {v}"
            )),
            Expected::Differs { cells, unique } => Some(format!(
                "the solution found differs from the one given with the puzzle in {} cell(s): {}{}",
                cells.len(),
                cells.join(" "),
                if *unique {
                    " (both are valid, so the puzzle is not unique)"
                } else {
                    " (both are valid: the puzzle has more than one solution)"
                }
            )),
            Expected::Missed => Some(
                "no solution was found, but the one given with the puzzle is valid".to_string(),
            ),
        }
    }
}

/// What one backend answered in a cross-check, and how long it took.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The backend's name.
    pub backend: &'static str,
    /// Its report, or why it could not attempt the puzzle.
    pub report: Result<Report, SolveError>,
    /// Wall time of its solve call.
    pub time: Duration,
}

/// One way in which two answers to the same puzzle are not the same verified answer.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The statuses differ (e.g. one says unique, the other multiple).
    #[error("status differs: {a_name} says {}, {b_name} says {}", a.word(), b.word())]
    Status {
        /// First backend.
        a_name: &'static str,
        /// Its status.
        a: Status,
        /// Second backend.
        b_name: &'static str,
        /// Its status.
        b: Status,
    },
    /// Both searched to the end but counted different numbers of solutions.
    #[error("solution count differs: {a_name} found {a}, {b_name} found {b}")]
    Count {
        /// First backend.
        a_name: &'static str,
        /// Its count.
        a: u64,
        /// Second backend.
        b_name: &'static str,
        /// Its count.
        b: u64,
    },
    /// Both say unique, with different grids.
    #[error("the unique solutions differ in {} cell(s): {}", cells.len(), cells.join(" "))]
    Differ {
        /// The cells that differ, `rXcY`.
        cells: Vec<String>,
    },
    /// A grid a backend returned fails verification.
    #[error("{backend} returned an invalid grid: {violation}")]
    Invalid {
        /// The backend.
        backend: &'static str,
        /// The first broken rule.
        violation: Violation,
    },
    /// A backend claims several solutions but gave the same grid twice.
    #[error("{backend} claims several solutions but returned the same grid twice")]
    SameTwice {
        /// The backend.
        backend: &'static str,
    },
    /// A backend could not attempt the puzzle.
    #[error("{backend} failed: {error}")]
    Failed {
        /// The backend.
        backend: &'static str,
        /// Why.
        error: SolveError,
    },
}

/// The verdict of a cross-check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both backends gave this status, every grid verified, and a unique solution is the same grid.
    Agree(Status),
    /// At least one backend hit a limit (status unknown) and nothing they returned contradicts the other.
    Inconclusive,
    /// The answers contradict each other or a grid is invalid.
    Disagree(Vec<Problem>),
}

/// Both backends' answers to one puzzle and the verdict.
#[derive(Clone, Debug)]
pub struct CrossCheck {
    /// The two answers, in the order the backends were given.
    pub answers: [Answer; 2],
    /// Whether they agree.
    pub verdict: Verdict,
}

impl CrossCheck {
    /// The agreed status word, `unknown` when inconclusive, or `disagree`.
    pub fn status_word(&self) -> &'static str {
        match &self.verdict {
            Verdict::Agree(s) => s.word(),
            Verdict::Inconclusive => Status::Unknown.word(),
            Verdict::Disagree(_) => "disagree",
        }
    }

    /// The agreed solution, when both found the same unique grid (or both found one, uniqueness not
    /// asked, and the grids are equal).
    pub fn solution(&self) -> Option<&Grid> {
        match (&self.verdict, &self.answers[0].report) {
            (Verdict::Agree(_), Ok(r)) => r.outcome.solution(),
            _ => None,
        }
    }
}

/// Runs both backends on `puzzle` and compares their answers.
///
/// They agree when their statuses match, every grid either returns passes [`verify`], when unique (or
/// when both searched exhaustively) the counts and the unique grids are identical, and a backend that
/// claims several solutions gives two different valid grids. Under `multiple` the two backends' example
/// solutions may differ. A backend that hit a limit (`unknown`) makes the check inconclusive unless
/// something it returned is already wrong.
pub fn cross_check(
    units: &Units,
    puzzle: &Grid,
    a: &dyn Backend,
    b: &dyn Backend,
    limits: &Limits,
) -> CrossCheck {
    let answer = |backend: &dyn Backend| {
        let start = Instant::now();
        let report = backend.solve(units, puzzle, limits);
        Answer {
            backend: backend.name(),
            report,
            time: start.elapsed(),
        }
    };
    let answers = [answer(a), answer(b)];
    let verdict = judge(units, puzzle, &answers);
    CrossCheck { answers, verdict }
}

/// Compares two answers to `puzzle` (see [`cross_check`]).
pub fn judge(units: &Units, puzzle: &Grid, answers: &[Answer; 2]) -> Verdict {
    let mut problems = Vec::new();
    let mut outcomes = Vec::with_capacity(2);
    for answer in answers {
        match &answer.report {
            Err(error) => problems.push(Problem::Failed {
                backend: answer.backend,
                error: error.clone(),
            }),
            Ok(report) => {
                for grid in report.outcome.grids() {
                    if let Err(violation) = verify(units, puzzle, grid) {
                        problems.push(Problem::Invalid {
                            backend: answer.backend,
                            violation,
                        });
                    }
                }
                if let Outcome::Multiple { solutions, .. } = &report.outcome
                    && solutions[0] == solutions[1]
                {
                    problems.push(Problem::SameTwice {
                        backend: answer.backend,
                    });
                }
                outcomes.push((answer.backend, &report.outcome));
            }
        }
    }
    let mut inconclusive = false;
    if let [(a_name, a), (b_name, b)] = outcomes[..] {
        let (sa, sb) = (a.status(), b.status());
        inconclusive = sa == Status::Unknown || sb == Status::Unknown;
        if !inconclusive && sa != sb {
            problems.push(Problem::Status {
                a_name,
                a: sa,
                b_name,
                b: sb,
            });
        } else {
            if let (Outcome::Unique(x), Outcome::Unique(y)) = (a, b)
                && x != y
            {
                let shape = x.shape();
                problems.push(Problem::Differ {
                    cells: x.diff(y).iter().map(|c| c.name(shape)).collect(),
                });
            }
            // A finished search knows the exact count; finding more than that is a contradiction
            // (this also catches two finished searches with different counts).
            let exact = |o: &Outcome| match o {
                Outcome::NoSolution | Outcome::Unique(_) => true,
                Outcome::Multiple { complete, .. } => *complete,
                Outcome::Found(_) | Outcome::Unknown { .. } => false,
            };
            for ((x_name, x), (y_name, y)) in
                [((a_name, a), (b_name, b)), ((b_name, b), (a_name, a))]
            {
                if exact(x) && y.count() > x.count() {
                    problems.push(Problem::Count {
                        a_name: x_name,
                        a: x.count(),
                        b_name: y_name,
                        b: y.count(),
                    });
                }
            }
        }
    }
    if problems.is_empty() && inconclusive {
        return Verdict::Inconclusive;
    }
    if problems.is_empty() {
        match outcomes.first() {
            Some((_, o)) => Verdict::Agree(o.status()),
            None => Verdict::Inconclusive,
        }
    } else {
        Verdict::Disagree(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Shape};

    #[test]
    fn answers_against_a_given_solution() {
        let (puzzle, a, b) = two_solutions();
        let units = Units::standard(a.shape());
        let c = |o: &Outcome| compare_expected(&units, &puzzle, &a, o);
        assert_eq!(c(&Outcome::Unique(a.clone())), Expected::Matches);
        assert!(
            matches!(c(&Outcome::Unique(b.clone())), Expected::Differs { unique: true, ref cells } if cells.len() == 8)
        );
        assert!(matches!(
            c(&Outcome::Found(b.clone())),
            Expected::Differs { unique: false, .. }
        ));
        assert_eq!(c(&Outcome::NoSolution), Expected::Missed);
        assert_eq!(
            c(&Outcome::Unknown {
                count: 0,
                first: None
            }),
            Expected::Unsettled
        );
        let mut bad = a.clone();
        bad.set(Cell::new(0), crate::grid::Digit::new(4));
        let e = compare_expected(&units, &puzzle, &bad, &Outcome::Unique(a.clone()));
        assert!(matches!(e, Expected::Invalid(_)), "{e:?}");
        assert!(
            e.problem()
                .unwrap()
                .starts_with("the solution given with the puzzle is invalid")
        );
        assert_eq!(Expected::Missed.word(), "missed");
    }

    fn solved4() -> Grid {
        let v = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        Grid::from_values(Shape::new(2, 2).unwrap(), v.to_vec()).unwrap()
    }

    fn answer(backend: &'static str, outcome: Outcome) -> Answer {
        Answer {
            backend,
            report: Ok(Report::new(outcome, Default::default())),
            time: Duration::ZERO,
        }
    }

    /// The empty 4x4 puzzle and two different solutions of it: the second swaps digits 1 and 2 everywhere
    /// (a relabelling keeps a grid valid).
    fn two_solutions() -> (Grid, Grid, Grid) {
        let a = solved4();
        let swapped: Vec<u16> = a
            .values()
            .iter()
            .map(|&v| match v {
                1 => 2,
                2 => 1,
                v => v,
            })
            .collect();
        let b = Grid::from_values(a.shape(), swapped).unwrap();
        (Grid::empty(a.shape()), a, b)
    }

    #[test]
    fn judge_agreement_and_each_problem() {
        let (puzzle, a, b) = two_solutions();
        let units = Units::standard(a.shape());
        let multiple = |x: &Grid, y: &Grid, count, complete| Outcome::Multiple {
            solutions: [Box::new(x.clone()), Box::new(y.clone())],
            count,
            complete,
        };
        let j =
            |x: Outcome, y: Outcome| judge(&units, &puzzle, &[answer("dfs", x), answer("sat", y)]);

        assert_eq!(
            j(multiple(&a, &b, 2, false), multiple(&b, &a, 2, false)),
            Verdict::Agree(Status::Multiple)
        );
        assert_eq!(
            j(Outcome::NoSolution, Outcome::NoSolution),
            Verdict::Agree(Status::None)
        );
        let solved = solved4();
        let full_units = Units::standard(solved.shape());
        assert_eq!(
            judge(
                &full_units,
                &solved,
                &[
                    answer("dfs", Outcome::Unique(solved.clone())),
                    answer("sat", Outcome::Unique(solved.clone()))
                ]
            ),
            Verdict::Agree(Status::Unique)
        );

        // Status differs.
        let v = j(Outcome::Unique(a.clone()), multiple(&a, &b, 2, false));
        let Verdict::Disagree(p) = v else {
            panic!("{v:?}")
        };
        assert_eq!(
            p[0].to_string(),
            "status differs: dfs says unique, sat says multiple"
        );

        // Unique but different grids.
        let v = j(Outcome::Unique(a.clone()), Outcome::Unique(b.clone()));
        let Verdict::Disagree(p) = v else {
            panic!("{v:?}")
        };
        assert!(
            matches!(&p[0], Problem::Differ { cells } if cells.len() == 8),
            "{p:?}"
        );

        // An invalid grid: a wrong digit.
        let mut bad = a.clone();
        bad.set(Cell::new(0), crate::grid::Digit::new(4));
        let v = j(Outcome::Found(bad), Outcome::Found(a.clone()));
        let Verdict::Disagree(p) = v else {
            panic!("{v:?}")
        };
        assert!(
            matches!(&p[0], Problem::Invalid { backend: "dfs", .. }),
            "{p:?}"
        );

        // Several claimed, same grid twice.
        let v = j(multiple(&a, &a, 2, false), multiple(&a, &b, 2, false));
        let Verdict::Disagree(p) = v else {
            panic!("{v:?}")
        };
        assert_eq!(p, vec![Problem::SameTwice { backend: "dfs" }]);

        // Exhaustive counts that differ, and a finished count exceeded by the other side.
        let v = j(multiple(&a, &b, 3, true), multiple(&a, &b, 4, true));
        assert!(
            matches!(v, Verdict::Disagree(ref p) if matches!(p[0], Problem::Count { a: 3, b: 4, .. })),
            "{v:?}"
        );
        let v = j(multiple(&a, &b, 3, true), multiple(&a, &b, 5, false));
        assert!(matches!(v, Verdict::Disagree(_)), "{v:?}");

        // A limit hit: inconclusive, unless the other side's exact count is already exceeded.
        let unknown = Outcome::Unknown {
            count: 0,
            first: None,
        };
        assert_eq!(
            j(unknown.clone(), Outcome::NoSolution),
            Verdict::Inconclusive
        );
        let v = j(
            Outcome::NoSolution,
            Outcome::Unknown {
                count: 1,
                first: Some(Box::new(a.clone())),
            },
        );
        assert!(
            matches!(v, Verdict::Disagree(ref p) if matches!(p[0], Problem::Count { .. })),
            "{v:?}"
        );

        // A backend that cannot attempt the puzzle.
        let failed = Answer {
            backend: "sat",
            report: Err(SolveError::TooLarge {
                backend: "sat",
                n: 4,
                max: 3,
            }),
            time: Duration::ZERO,
        };
        let v = judge(
            &units,
            &puzzle,
            &[answer("dfs", Outcome::NoSolution), failed],
        );
        assert!(
            matches!(v, Verdict::Disagree(ref p) if matches!(p[0], Problem::Failed { .. })),
            "{v:?}"
        );
    }
}
