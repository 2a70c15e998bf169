//! The `auto` backend: the native search first, within a node budget that grows with the grid; if
//! that runs out, the SAT backend takes over with the rest of the time. Two independent backends in
//! sequence, sharing nothing but the model.

use std::time::Instant;

use crate::dfs::DfsBackend;
use crate::grid::Grid;
use crate::sat::SatBackend;
use crate::solve::{Backend, Limits, Outcome, Report, SolveError, Stats};
use crate::units::Units;

/// Native first, SAT when the native search needs more than [`AutoBackend::node_budget`] nodes.
///
/// Most puzzles up to 16x16 are settled by the native backend in far fewer nodes; the hard middle
/// (large, half-filled grids) is where a CDCL solver's learning pays, and the budget hands those over
/// early. The report says which backend answered ([`AutoBackend::solve_reporting`]).
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
    /// for 9x9, 45,000 for 25x25, 183,840 for 64x64): a few milliseconds to a few tenths of a second
    /// of native search before the SAT backend is asked.
    pub fn node_budget(cells: usize) -> u64 {
        20_000 + 40 * cells as u64
    }
}

impl<D: Backend, S: Backend> AutoBackend<D, S> {
    /// `dfs` first, then `sat`: e.g. a SAT backend with another encoding or solver.
    pub fn from_phases(dfs: D, sat: S) -> AutoBackend<D, S> {
        AutoBackend { dfs, sat }
    }

    /// Solves `puzzle` and says which backend's answer it is (`dfs` or `sat`; also in the report's
    /// [`Stats::answered_by`](crate::Stats::answered_by)).
    ///
    /// The native phase runs within the smaller of [`AutoBackend::node_budget`] and `limits`'
    /// budget; if it gives up, the SAT phase runs with `limits`' budget and what is left of its
    /// timeout. An `unknown` from the SAT phase is the answer (with the native phase's first
    /// solution, if it found one and the SAT phase found none).
    ///
    /// # Errors
    /// A [`SolveError`] from a phase that cannot attempt the puzzle: the native one's, or the SAT
    /// one's when the native phase gave up.
    pub fn solve_reporting(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
    ) -> Result<(Report, &'static str), SolveError> {
        let start = Instant::now();
        let own = AutoBackend::node_budget(puzzle.shape().cells());
        let budget = limits.budget().map_or(own, |b| b.min(own));
        let first = self
            .dfs
            .solve(units, puzzle, &limits.with_budget(Some(budget)))?;
        if !matches!(first.outcome, Outcome::Unknown { .. }) {
            let mut first = first;
            first.stats.answered_by = Some(self.dfs.name());
            return Ok((first, self.dfs.name()));
        }
        let remaining = limits.timeout().map(|t| t.saturating_sub(start.elapsed()));
        let second = self.sat.solve(
            units,
            puzzle,
            &limits.with_timeout(remaining.or(limits.timeout())),
        )?;
        match (&second.outcome, first.outcome) {
            // Neither settled it: keep what the native phase found, if the SAT phase found less.
            (
                Outcome::Unknown { count: 0, .. },
                Outcome::Unknown {
                    count,
                    first: Some(g),
                },
            ) => Ok((
                Report {
                    outcome: Outcome::Unknown {
                        count,
                        first: Some(g),
                    },
                    stats: Stats {
                        answered_by: Some(self.sat.name()),
                        ..second.stats
                    },
                },
                self.sat.name(),
            )),
            _ => {
                let mut second = second;
                second.stats.answered_by = Some(self.sat.name());
                Ok((second, self.sat.name()))
            }
        }
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
