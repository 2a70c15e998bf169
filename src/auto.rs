//! The `auto` backend: the native search first, within a node budget that grows with the grid; if
//! that runs out, the native search and the SAT backend race on two threads with the rest of the
//! time, and the first to settle the puzzle answers. Two independent backends, sharing nothing but
//! the model.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::dfs::DfsBackend;
use crate::grid::Grid;
use crate::sat::SatBackend;
use crate::solve::{Backend, Limits, Outcome, Report, SolveError, WorkCounters, stoppable};
use crate::units::Units;

/// Native first; when the native search needs more than [`AutoBackend::node_budget`] nodes, the
/// native search again and the SAT backend side by side, the first to settle answering.
///
/// Most puzzles are settled by the native backend in far fewer nodes; the hard middle (large,
/// half-filled grids) is where a CDCL solver's learning pays, and the budget hands those over
/// early. The race that follows gives each backend the whole of the time left (rather than a share
/// of it), so that a puzzle one of them settles within the timeout is not left `unknown` for the
/// other's sake. The report says which backend answered ([`AutoBackend::solve_reporting`]).
///
/// # Examples
/// ```
/// use satdoku::{AutoBackend, Backend, Grid, Limits, Shape, Units};
/// let shape = Shape::new(2, 2).unwrap();
/// let auto = AutoBackend::new();
/// let (report, by) = auto
///     .solve_reporting(&Units::standard(shape), &Grid::empty(shape), &Limits::first())
///     .unwrap();
/// assert!(report.outcome.solution().is_some());
/// assert_eq!(by, "dfs");
/// ```
///
/// The phases are any two backends (by default [`DfsBackend`] and [`SatBackend`]), so a caller may
/// configure or wrap them ([`AutoBackend::from_phases`]).
#[derive(Clone, Debug, Default)]
pub struct AutoBackend<D = DfsBackend, S = SatBackend> {
    dfs: D,
    sat: S,
}

impl AutoBackend {
    /// The native backend, then the default SAT backend.
    pub fn new() -> AutoBackend {
        AutoBackend::default()
    }

    /// The native phase's node budget for a grid of `cells` cells: 20,000 plus 40 per cell (23,240
    /// for 9x9, 45,000 for 25x25, 183,840 for 64x64).
    pub fn node_budget(cells: usize) -> u64 {
        20_000 + 40 * cells as u64
    }

    /// The native phase's share of the timeout: at most a tenth of it, and at most 0.2 s (a node of
    /// a large grid costs far more than one of a small grid, so the node budget alone would let a
    /// 400x400 search run for minutes).
    pub fn first_phase_time(timeout: Option<Duration>) -> Duration {
        let cap = Duration::from_millis(200);
        timeout.map_or(cap, |t| (t / 10).min(cap))
    }
}

/// A deadline far enough to be none, for a solve that must be stoppable (the SAT solvers look at the
/// stop request only when they have a deadline to watch).
const FAR: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

impl<D: Backend, S: Backend> AutoBackend<D, S> {
    /// `dfs` first, then `sat`: e.g. a SAT backend with another encoding or solver.
    pub fn from_phases(dfs: D, sat: S) -> AutoBackend<D, S> {
        AutoBackend { dfs, sat }
    }

    /// Solves `puzzle` and says which backend's answer it is (`dfs` or `sat`; also in the report's
    /// [`Stats::answered_by`](crate::Stats::answered_by)).
    ///
    /// The native phase runs within the smaller of [`AutoBackend::node_budget`] and `limits`'
    /// budget, and within [`AutoBackend::first_phase_time`]. If it gives up, the SAT backend and
    /// (unless `limits`' own budget is what stopped it) the native backend again run on two threads,
    /// each with `limits`' budget and what is left of its timeout; the first to settle the puzzle
    /// answers and the other is stopped. If neither settles it, the answer is `unknown`, with the
    /// first solution either found.
    ///
    /// A native phase that refuses the grid as too large ([`SolveError::TooLarge`]) hands it to the
    /// SAT backend with all of `limits`.
    ///
    /// # Errors
    /// A [`SolveError`] from a phase that cannot attempt the puzzle: the native one's (other than
    /// too large), or the SAT one's when the native search cannot go on.
    pub fn solve_reporting(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
    ) -> Result<(Report, &'static str), SolveError> {
        let start = Instant::now();
        let own = AutoBackend::node_budget(puzzle.shape().cells());
        let budget = limits.budget().map_or(own, |b| b.min(own));
        let quick = AutoBackend::first_phase_time(limits.timeout());
        let first = match self.dfs.solve(
            units,
            puzzle,
            &limits.with_budget(Some(budget)).with_timeout(Some(quick)),
        ) {
            Ok(report) => report,
            // A native phase that cannot take the grid leaves it to the SAT backend, whole.
            Err(SolveError::TooLarge { .. }) => {
                let report = self.sat.solve(units, puzzle, limits)?;
                return Ok(self.answer(report, self.sat.name()));
            }
            Err(e) => return Err(e),
        };
        if !matches!(first.outcome, Outcome::Unknown { .. }) {
            return Ok(self.answer(first, self.dfs.name()));
        }
        let left = limits.timeout().map(|t| t.saturating_sub(start.elapsed()));
        let race = limits.with_timeout(Some(left.unwrap_or(FAR)));
        // The native search goes on unless the user's budget stopped it (it would stop again).
        let again = limits.budget().is_none_or(|b| b > budget);
        let (native, sat) = if again {
            self.race(units, puzzle, &race)
        } else {
            (None, Some(self.sat.solve(units, puzzle, &race)))
        };
        let settled = |r: &Option<Result<Report, SolveError>>| matches!(r, Some(Ok(rep)) if !matches!(rep.outcome, Outcome::Unknown { .. }));
        if settled(&sat) {
            let Some(Ok(report)) = sat else {
                unreachable!("settled")
            };
            return Ok(self.answer(report, self.sat.name()));
        }
        if settled(&native) {
            let Some(Ok(report)) = native else {
                unreachable!("settled")
            };
            return Ok(self.answer(report, self.dfs.name()));
        }
        // Neither settled it: the SAT phase's unknown (or the native one's, if the SAT backend
        // could not attempt the puzzle), with the first solution either search found.
        let found = [&sat, &native]
            .into_iter()
            .flatten()
            .filter_map(|r| r.as_ref().ok())
            .chain([&first])
            .find_map(|r| match &r.outcome {
                Outcome::Unknown {
                    count,
                    first: Some(g),
                } => Some((*count, g.clone())),
                _ => None,
            });
        let (mut report, by) = match (sat, native) {
            (Some(Ok(r)), _) => (r, self.sat.name()),
            (_, Some(Ok(r))) => (r, self.dfs.name()),
            (Some(Err(e)), _) => return Err(e),
            _ => (first, self.dfs.name()),
        };
        if let (Outcome::Unknown { count: 0, .. }, Some((count, g))) = (&report.outcome, found) {
            report.outcome = Outcome::Unknown {
                count,
                first: Some(g),
            };
        }
        Ok(self.answer(report, by))
    }

    /// `report` as the answer of backend `by`.
    fn answer(&self, mut report: Report, by: &'static str) -> (Report, &'static str) {
        report.stats.answered_by = Some(by);
        (report, by)
    }

    /// The native and the SAT backend on two threads within `limits`; the first to settle the puzzle
    /// stops the other. Their reports (native, SAT).
    #[allow(clippy::type_complexity)]
    fn race(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
    ) -> (
        Option<Result<Report, SolveError>>,
        Option<Result<Report, SolveError>>,
    ) {
        let stop = Arc::new(AtomicBool::new(false));
        // 0 until one settles the puzzle: 1 native, 2 SAT.
        let winner = AtomicU8::new(0);
        let work = WorkCounters::on_this_thread();
        let run = |backend: &dyn Backend, me: u8| {
            let report = stoppable(&stop, work.clone(), || backend.solve(units, puzzle, limits));
            let settled = matches!(&report, Ok(r) if !matches!(r.outcome, Outcome::Unknown { .. }));
            if settled
                && winner
                    .compare_exchange(0, me, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
            {
                stop.store(true, Ordering::Release);
            }
            report
        };
        std::thread::scope(|s| {
            let sat = s.spawn(|| run(&self.sat, 2));
            let native = run(&self.dfs, 1);
            // A backend that cannot attempt the puzzle leaves the race to the other.
            let sat = sat.join().ok();
            (Some(native), sat)
        })
    }
}

impl<D: Backend, S: Backend> Backend for AutoBackend<D, S> {
    fn name(&self) -> &'static str {
        "auto"
    }

    /// See [`AutoBackend::solve_reporting`]; the report's `stats.answered_by` names the backend.
    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        self.solve_reporting(units, puzzle, limits).map(|(r, _)| r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::solve::Status;

    #[test]
    fn easy_puzzles_stay_native() {
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let (report, by) = AutoBackend::new()
            .solve_reporting(&units, &Grid::empty(s), &Limits::first())
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Solved, "dfs"));
        // Counting 1,000 solutions of the empty grid is well within the native budget.
        let (report, by) = AutoBackend::new()
            .solve_reporting(&units, &Grid::empty(s), &Limits::count_to(1_000))
            .unwrap();
        assert_eq!((report.outcome.count(), by), (1_000, "dfs"));
        assert!(AutoBackend::node_budget(81) < AutoBackend::node_budget(625));
    }

    #[test]
    fn a_native_search_that_gives_up_hands_over_to_sat() {
        // forum-hardest-1905-11plus.txt, first line: needs more than 5 nodes.
        let s = Shape::new(3, 3).unwrap();
        let mut values = vec![0u16; 81];
        let line =
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
        for (i, ch) in line.chars().enumerate() {
            values[i] = ch.to_digit(10).unwrap_or(0) as u16;
        }
        let puzzle = Grid::from_values(s, values).unwrap();
        let units = Units::standard(s);
        let (report, by) = AutoBackend::new()
            .solve_reporting(&units, &puzzle, &Limits::unique().with_budget(Some(5)))
            .unwrap();
        // The user's 5 nodes stop the native phase; varisat has no conflict budget and settles it.
        assert_eq!((report.outcome.status(), by), (Status::Unique, "sat"));
    }
}

#[cfg(test)]
mod race_tests {
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    use super::*;
    use crate::check::verify;
    use crate::grid::Shape;
    use crate::solve::{Stats, Status, past, stop_requested};

    /// The native backend, except that its first solve gives up at once (as if the puzzle needed
    /// more than the first phase's budget).
    #[derive(Default)]
    struct SlowStart {
        calls: AtomicUsize,
    }

    impl Backend for SlowStart {
        fn name(&self) -> &'static str {
            "dfs"
        }

        fn solve(
            &self,
            units: &Units,
            puzzle: &Grid,
            limits: &Limits,
        ) -> Result<Report, SolveError> {
            if self.calls.fetch_add(1, Ordering::SeqCst) == 0 {
                return Ok(Report {
                    outcome: Outcome::Unknown {
                        count: 0,
                        first: None,
                    },
                    stats: Stats::default(),
                });
            }
            DfsBackend::new().solve(units, puzzle, limits)
        }
    }

    /// A SAT phase that never settles anything: it waits until it is stopped or its deadline
    /// passes, and records which.
    #[derive(Default)]
    struct Waiter {
        ended_by: Mutex<Option<&'static str>>,
    }

    impl Backend for Waiter {
        fn name(&self) -> &'static str {
            "sat"
        }

        fn solve(&self, _: &Units, _: &Grid, limits: &Limits) -> Result<Report, SolveError> {
            let deadline = limits.deadline(Instant::now());
            while !past(deadline) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let why = if stop_requested() { "stop" } else { "deadline" };
            *self.ended_by.lock().unwrap() = Some(why);
            Ok(Report {
                outcome: Outcome::Unknown {
                    count: 0,
                    first: None,
                },
                stats: Stats::default(),
            })
        }
    }

    #[test]
    fn the_first_to_settle_answers_and_stops_the_other() {
        // The native search settles the puzzle in the race; the SAT phase, which would have waited
        // for its whole (long) timeout, is stopped instead.
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let auto = AutoBackend::from_phases(SlowStart::default(), Waiter::default());
        let limits = Limits::unique().with_timeout(Some(Duration::from_secs(600)));
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &limits)
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Multiple, "dfs"));
        assert_eq!(report.stats.answered_by, Some("dfs"));
        for g in report.outcome.grids() {
            verify(&units, &Grid::empty(s), g).unwrap();
        }
        assert_eq!(auto.sat.ended_by.lock().unwrap().as_deref(), Some("stop"));
        assert_eq!(auto.dfs.calls.load(Ordering::SeqCst), 2);
    }

    /// A native phase that only takes grids up to 9x9.
    struct Small;

    impl Backend for Small {
        fn name(&self) -> &'static str {
            "dfs"
        }

        fn solve(
            &self,
            units: &Units,
            puzzle: &Grid,
            limits: &Limits,
        ) -> Result<Report, SolveError> {
            let n = puzzle.shape().n();
            if n > 9 {
                return Err(SolveError::TooLarge {
                    backend: "dfs",
                    n,
                    max: 9,
                });
            }
            DfsBackend::new().solve(units, puzzle, limits)
        }
    }

    #[test]
    fn a_grid_too_large_for_the_native_phase_goes_to_sat() {
        // The known bug: auto passed the native backend's refusal on instead of the SAT answer.
        let s = Shape::new(4, 4).unwrap();
        let units = Units::standard(s);
        let auto = AutoBackend::from_phases(Small, SatBackend::default());
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &Limits::first())
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Solved, "sat"));
        verify(&units, &Grid::empty(s), report.outcome.solution().unwrap()).unwrap();
        let s = Shape::new(3, 3).unwrap();
        let (_, by) = auto
            .solve_reporting(&Units::standard(s), &Grid::empty(s), &Limits::first())
            .unwrap();
        assert_eq!(by, "dfs");
    }

    #[test]
    fn the_sat_phase_answers_when_it_settles_first() {
        // The native search gives up in its first phase and (by the user's budget) cannot go on;
        // the SAT backend settles the puzzle alone.
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let auto = AutoBackend::from_phases(SlowStart::default(), SatBackend::default());
        let limits = Limits::unique().with_budget(Some(10));
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &limits)
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Multiple, "sat"));
        assert_eq!(auto.dfs.calls.load(Ordering::SeqCst), 1);
    }
}
