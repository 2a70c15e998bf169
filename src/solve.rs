//! The backend trait and what a solve returns: `Outcome` (no solution / found / unique / multiple /
//! unknown), `Limits` and `Stats`.

use std::time::Instant;

use thiserror::Error;

use crate::grid::{Grid, Shape};
use crate::units::Units;

/// How far a backend may go on one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many solutions (at least 1). 1 = first solution only; 2 = uniqueness check.
    pub max_solutions: u64,
    /// Give up (outcome [`Outcome::Unknown`]) after this many search nodes (DFS) or conflicts (SAT).
    pub budget: Option<u64>,
    /// Give up (outcome [`Outcome::Unknown`]) at this instant.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// Stop at the first solution, no budget.
    pub fn first() -> Limits {
        Limits::count_to(1)
    }

    /// Count up to 2 solutions: tells no solution / unique / multiple.
    pub fn unique() -> Limits {
        Limits::count_to(2)
    }

    /// Count up to `k` solutions (`k` is raised to at least 1), no budget.
    pub fn count_to(k: u64) -> Limits {
        Limits {
            max_solutions: k.max(1),
            budget: None,
            deadline: None,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::first()
    }
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Proven: no grid satisfies the givens and units.
    NoSolution,
    /// A solution, found with `max_solutions == 1`: whether it is unique was not asked.
    Found(Grid),
    /// The only solution (proven, `max_solutions >= 2`).
    Unique(Grid),
    /// At least two solutions.
    Multiple {
        /// Two different solutions (the first two found).
        solutions: [Box<Grid>; 2],
        /// Solutions counted: exact when `complete`, else the limit that was reached.
        count: u64,
        /// Whether the search finished, so that `count` is the exact number of solutions.
        complete: bool,
    },
    /// A budget or deadline ran out before the question was answered.
    Unknown {
        /// Solutions found before giving up (fewer than asked for).
        count: u64,
        /// The first solution found, if any.
        first: Option<Box<Grid>>,
    },
}

/// The status words users see, in the CLI and in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// `solved`: a solution found, uniqueness not asked.
    Solved,
    /// `unique`.
    Unique,
    /// `multiple`.
    Multiple,
    /// `none`.
    None,
    /// `unknown`: a limit was hit.
    Unknown,
}

impl Status {
    /// The word: `solved`, `unique`, `multiple`, `none`, `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::None => "none",
            Status::Unknown => "unknown",
        }
    }
}

impl Outcome {
    /// The status word of this outcome.
    pub fn status(&self) -> Status {
        match self {
            Outcome::NoSolution => Status::None,
            Outcome::Found(_) => Status::Solved,
            Outcome::Unique(_) => Status::Unique,
            Outcome::Multiple { .. } => Status::Multiple,
            Outcome::Unknown { .. } => Status::Unknown,
        }
    }

    /// The number of solutions found.
    pub fn count(&self) -> u64 {
        match self {
            Outcome::NoSolution => 0,
            Outcome::Found(_) | Outcome::Unique(_) => 1,
            Outcome::Multiple { count, .. } | Outcome::Unknown { count, .. } => *count,
        }
    }

    /// The solution to print: the one found or the unique one (not one of several).
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Outcome::Found(g) | Outcome::Unique(g) => Some(g),
            _ => None,
        }
    }

    /// Every grid this outcome carries (0, 1 or 2), for verification.
    pub fn grids(&self) -> Vec<&Grid> {
        match self {
            Outcome::NoSolution => vec![],
            Outcome::Found(g) | Outcome::Unique(g) => vec![g],
            Outcome::Multiple { solutions, .. } => solutions.iter().map(|g| &**g).collect(),
            Outcome::Unknown { first, .. } => first.iter().map(|g| &**g).collect(),
        }
    }

    /// Builds the outcome of a search that found `solutions` (in order, at most the limit) and either
    /// finished (`complete`) or stopped at the solution limit, or gave up on a budget (`gave_up`).
    ///
    /// This is the one place that maps counts to statuses, so both backends report alike.
    pub fn from_search(limits: &Limits, mut solutions: Vec<Grid>, gave_up: bool) -> Outcome {
        let count = solutions.len() as u64;
        if gave_up && count < limits.max_solutions && count < 2 {
            return Outcome::Unknown {
                count,
                first: solutions.into_iter().next().map(Box::new),
            };
        }
        match count {
            0 => Outcome::NoSolution,
            1 if limits.max_solutions == 1 => Outcome::Found(solutions.pop().unwrap()),
            1 => Outcome::Unique(solutions.pop().unwrap()),
            _ => {
                let mut it = solutions.into_iter();
                let a = it.next().unwrap();
                let b = it.next().unwrap();
                Outcome::Multiple {
                    solutions: [Box::new(a), Box::new(b)],
                    count,
                    complete: !gave_up && count < limits.max_solutions,
                }
            }
        }
    }
}

/// Work done by a backend on one puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes visited (DFS: states propagated; SAT: solver calls).
    pub nodes: u64,
    /// Branching decisions (DFS: guesses; SAT: decisions, when the solver reports them).
    pub guesses: u64,
    /// SAT conflicts, when known.
    pub conflicts: u64,
    /// Variables in the formula (SAT only).
    pub variables: u64,
    /// Clauses in the formula (SAT only).
    pub clauses: u64,
}

/// An outcome with the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// What was found.
    pub outcome: Outcome,
    /// How much work it took.
    pub stats: Stats,
}

/// Why a backend could not attempt a puzzle (as opposed to finding it has no solution).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// The puzzle and the unit list are for different shapes.
    #[error("puzzle shape {puzzle} does not match unit list shape {units}")]
    ShapeMismatch {
        /// The puzzle's shape.
        puzzle: Shape,
        /// The unit list's shape.
        units: Shape,
    },
    /// The backend does not handle grids this large.
    #[error("the {backend} backend supports grids up to {max}x{max}, this one is {n}x{n}")]
    TooLarge {
        /// Backend name.
        backend: &'static str,
        /// Grid side.
        n: usize,
        /// Largest side supported.
        max: usize,
    },
    /// The formula would exceed the memory budget.
    #[error(
        "the {encoding} encoding of {n}x{n} grids needs about {clauses} clauses, over the budget of {budget}; {hint}"
    )]
    FormulaTooLarge {
        /// Encoding name.
        encoding: String,
        /// Grid side.
        n: usize,
        /// Estimated clause count.
        clauses: u64,
        /// Budget in clauses.
        budget: u64,
        /// What to use instead.
        hint: String,
    },
}

/// A way of solving puzzles. The CLI and the cross-check depend on this trait only.
///
/// Implementations share the grid and unit model with each other and nothing else.
pub trait Backend: Send + Sync {
    /// A short name for reports: `dfs`, `sat`.
    fn name(&self) -> &'static str;

    /// Solves `puzzle` under `units` within `limits`.
    ///
    /// # Errors
    /// [`SolveError`] when the backend cannot attempt this puzzle (wrong shape, too large); a puzzle
    /// without solution is `Ok` with [`Outcome::NoSolution`].
    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(v: u8) -> Grid {
        let s = Shape::new(2, 2).unwrap();
        let mut vals = vec![0; 16];
        vals[0] = v;
        Grid::from_values(s, vals).unwrap()
    }

    #[test]
    fn statuses_from_counts() {
        let first = Limits::first();
        let two = Limits::unique();
        assert_eq!(
            Outcome::from_search(&first, vec![], false).status(),
            Status::None
        );
        assert_eq!(
            Outcome::from_search(&first, vec![g(1)], false).status(),
            Status::Solved
        );
        assert_eq!(
            Outcome::from_search(&two, vec![g(1)], false).status(),
            Status::Unique
        );
        let m = Outcome::from_search(&two, vec![g(1), g(2)], false);
        assert_eq!(m.status(), Status::Multiple);
        assert!(matches!(
            m,
            Outcome::Multiple {
                count: 2,
                complete: false,
                ..
            }
        ));
        let m5 = Outcome::from_search(&Limits::count_to(5), vec![g(1), g(2), g(3)], false);
        assert!(matches!(
            m5,
            Outcome::Multiple {
                count: 3,
                complete: true,
                ..
            }
        ));
        assert_eq!(
            Outcome::from_search(&two, vec![g(1)], true).status(),
            Status::Unknown
        );
        assert_eq!(
            Outcome::from_search(&first, vec![], true).status(),
            Status::Unknown
        );
        // Two solutions already prove "multiple", even if a budget then ran out.
        let m = Outcome::from_search(&Limits::count_to(9), vec![g(1), g(2)], true);
        assert!(matches!(
            m,
            Outcome::Multiple {
                count: 2,
                complete: false,
                ..
            }
        ));
    }
}
