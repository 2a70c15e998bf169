//! What two backends' answers to one puzzle come to, for every command that runs both (`solve
//! --backend both`, `check`, `verify --unique`): one decision, so the commands cannot drift apart.

use satdoku::{Answer, Grid, Problem, Report, SolveError, Status, Units, Verdict, judge};

use super::render::is_internal;

/// The joint answer of two backends.
#[derive(Debug)]
pub enum Joint<'a> {
    /// A backend returned a grid that the verifier rejects (a bug): its name and error.
    Internal(&'static str, &'a SolveError),
    /// Both settled the puzzle and agree: the first backend's report.
    Agree(&'a Report),
    /// One backend settled it; the other hit a limit or could not attempt it, so nothing confirms
    /// the answer: the one that settled, its report, and the other.
    OneSettled {
        /// The backend that settled the puzzle.
        settled: &'static str,
        /// Its report.
        report: &'a Report,
        /// The other backend.
        other: &'static str,
    },
    /// Neither settled it within the limits.
    Unknown,
    /// Neither could attempt it (both refused the puzzle): the first error.
    Failed(&'a SolveError),
    /// They contradict each other.
    Disagree(Vec<Problem>),
}

impl Joint<'_> {
    /// The status this comes to, if it settles the puzzle (agreed, or settled by one backend).
    pub fn status(&self) -> Option<Status> {
        match self {
            Joint::Agree(r) | Joint::OneSettled { report: r, .. } => Some(r.outcome.status()),
            _ => None,
        }
    }
}

/// Decides what `answers` (verified backends' answers to `puzzle`) come to.
pub fn joint<'a>(units: &Units, puzzle: &Grid, answers: &'a [Answer; 2]) -> Joint<'a> {
    for a in answers {
        if let Err(e) = &a.report
            && is_internal(e)
        {
            return Joint::Internal(a.backend, e);
        }
    }
    let settled = |a: &'a Answer| match &a.report {
        Ok(r) if r.outcome.status() != Status::Unknown => Some(r),
        _ => None,
    };
    let [a, b] = answers;
    match (&a.report, &b.report) {
        (Err(e), Err(_)) => return Joint::Failed(e),
        (Err(_), Ok(_)) | (Ok(_), Err(_)) => {
            let (one, other) = if a.report.is_ok() { (a, b) } else { (b, a) };
            return match settled(one) {
                Some(report) => Joint::OneSettled {
                    settled: one.backend,
                    report,
                    other: other.backend,
                },
                None => Joint::Unknown,
            };
        }
        (Ok(_), Ok(_)) => {}
    }
    match judge(units, puzzle, answers) {
        Verdict::Agree(_) => match &a.report {
            Ok(r) => Joint::Agree(r),
            Err(_) => Joint::Unknown,
        },
        Verdict::Disagree(problems) => Joint::Disagree(problems),
        Verdict::Inconclusive => match (settled(a), settled(b)) {
            (Some(report), None) => Joint::OneSettled {
                settled: a.backend,
                report,
                other: b.backend,
            },
            (None, Some(report)) => Joint::OneSettled {
                settled: b.backend,
                report,
                other: a.backend,
            },
            _ => Joint::Unknown,
        },
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use satdoku::{Grid, Limits, Outcome, Shape, Solutions, Stats};

    use super::*;

    fn answer(backend: &'static str, report: Result<Report, SolveError>) -> Answer {
        Answer {
            backend,
            report,
            time: Duration::ZERO,
        }
    }

    fn report(outcome: Outcome) -> Result<Report, SolveError> {
        Ok(Report::new(outcome, Stats::default()))
    }

    #[test]
    fn one_settled_answer_is_kept_and_flagged() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let solved =
            Grid::from_values(s, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
        let mut puzzle = solved.clone();
        puzzle.set(satdoku::Cell::new(0), None);
        let mut found = Solutions::new(&Limits::unique());
        found.add(solved);
        let unique = found.finish(false);
        let unknown = Solutions::new(&Limits::unique()).finish(true);
        let answers = [
            answer("dfs", report(unknown.clone())),
            answer("sat", report(unique.clone())),
        ];
        match joint(&units, &puzzle, &answers) {
            Joint::OneSettled { settled, other, .. } => {
                assert_eq!((settled, other), ("sat", "dfs"))
            }
            j => panic!("{j:?}"),
        }
        let both = [
            answer("dfs", report(unknown.clone())),
            answer("sat", report(unknown)),
        ];
        assert!(matches!(joint(&units, &puzzle, &both), Joint::Unknown));
        let agree = [
            answer("dfs", report(unique.clone())),
            answer("sat", report(unique)),
        ];
        assert_eq!(
            joint(&units, &puzzle, &agree).status(),
            Some(Status::Unique)
        );
        let nothing = [
            answer("dfs", report(Outcome::NoSolution)),
            answer("sat", report(Outcome::NoSolution)),
        ];
        assert_eq!(
            joint(&units, &puzzle, &nothing).status(),
            Some(Status::None)
        );
        let internal = [
            answer("dfs", report(Outcome::NoSolution)),
            answer("sat", Err(SolveError::RepeatedSolution { backend: "sat" })),
        ];
        assert!(matches!(
            joint(&units, &puzzle, &internal),
            Joint::Internal("sat", _)
        ));
    }
}
