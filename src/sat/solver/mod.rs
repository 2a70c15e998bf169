//! The solver layer: one small trait, [`Engine`], over the SAT solvers run in-process — varisat, and
//! CaDiCaL with the `cadical` feature — so that the backend and the certificates drive either alike:
//! add clauses (as a [`ClauseSink`]), solve within a deadline and a conflict budget, read the model,
//! and record a DRAT proof where the solver can.

mod varisat;

#[cfg(feature = "cadical")]
mod cadical;

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use crate::sat::encode::UnknownName;
use crate::sat::lit::Lit;
use crate::sat::proof::Proof;
use crate::sat::sink::ClauseSink;

pub(crate) use self::varisat::Varisat;

#[cfg(feature = "cadical")]
pub(crate) use self::cadical::Cadical;
#[cfg(all(test, feature = "cadical"))]
pub(crate) use self::cadical::RESTORED;

/// Which SAT solver the SAT backend (and a certificate's proof) runs in-process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum SatSolver {
    /// varisat 0.2.2 (Jannis Harder; CDCL, pure Rust): always compiled in, the default.
    #[default]
    Varisat,
    /// CaDiCaL 3.0.1 (Armin Biere; CDCL with inprocessing), through the `cadical-sys` crate: compiled
    /// in with the cargo feature `cadical`. It has a conflict limit, so [`Limits::budget`] applies to
    /// it, and an interrupt callback for the deadline.
    ///
    /// [`Limits::budget`]: crate::Limits::budget
    Cadical,
}

impl SatSolver {
    /// Every solver, compiled in or not.
    pub const ALL: [SatSolver; 2] = [SatSolver::Varisat, SatSolver::Cadical];

    /// The name: `varisat`, `cadical`.
    pub fn name(self) -> &'static str {
        match self {
            SatSolver::Varisat => "varisat",
            SatSolver::Cadical => "cadical",
        }
    }

    /// Whether this solver is compiled into this build (`cadical` needs the cargo feature of that
    /// name).
    pub fn is_available(self) -> bool {
        match self {
            SatSolver::Varisat => true,
            SatSolver::Cadical => cfg!(feature = "cadical"),
        }
    }

    /// The solvers compiled into this build, varisat first.
    pub fn available() -> Vec<SatSolver> {
        SatSolver::ALL
            .into_iter()
            .filter(|s| s.is_available())
            .collect()
    }

    /// Whether a solve stops at a conflict budget ([`Limits::budget`](crate::Limits::budget)):
    /// CaDiCaL does; varisat counts no conflicts it would stop at.
    pub fn has_conflict_limit(self) -> bool {
        self == SatSolver::Cadical
    }

    /// `Ok(self)` if compiled in, else the error that says how to get it.
    ///
    /// # Errors
    /// [`SolverUnavailable`] for a solver this build lacks.
    pub fn require(self) -> Result<SatSolver, SolverUnavailable> {
        if self.is_available() {
            Ok(self)
        } else {
            Err(SolverUnavailable { solver: self })
        }
    }
}

impl fmt::Display for SatSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SatSolver {
    type Err = UnknownName;

    /// Any solver's name, compiled in or not (see [`SatSolver::require`]).
    fn from_str(s: &str) -> Result<SatSolver, UnknownName> {
        SatSolver::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName {
                what: "SAT solver",
                given: s.to_string(),
                expected: "varisat, cadical",
            })
    }
}

/// A solver that this build does not include.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "the SAT solver {solver} is not compiled into this build; rebuild with `--features {solver}` \
     (solvers available: {})",
    available_names()
)]
pub struct SolverUnavailable {
    /// The solver asked for.
    pub solver: SatSolver,
}

fn available_names() -> String {
    SatSolver::available()
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a solve call concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// A model was found: read it with [`Engine::model`].
    Sat,
    /// The clauses are unsatisfiable.
    Unsat,
    /// The deadline or the conflict budget ran out, or the solver failed.
    Unknown,
}

/// A fresh solver instance, configured before the first clause: what each solver implements.
///
/// Clauses go in through [`ClauseSink`], in the solver's own numbering (the caller renumbers). With a
/// proof requested, only the clauses added before the first solve may be given (varisat writes DRAT
/// only for a formula that does not change after solving), unless the solver
/// [proves across solves](Engine::PROVES_ACROSS_SOLVES); the proof is read with
/// [`Engine::take_proof`] after the solve that ends unsatisfiable.
pub(crate) trait Engine: ClauseSink {
    /// Whether the caller should flip the polarity of cell variables so that the solver's first
    /// guess about a cell variable places the digit (varisat decides a fresh variable false first;
    /// CaDiCaL true).
    const FLIP_CELLS: bool;

    /// Whether a proof requested at creation stays a DRAT proof of everything the solver derives
    /// through several solves with clauses added between them, so that a solve that ends
    /// unsatisfiable after others is proven from the clauses added in all: CaDiCaL's proof tracer
    /// (the blocking clause is one more original clause); not varisat, whose DRAT output needs
    /// the whole formula before its first solve.
    const PROVES_ACROSS_SOLVES: bool = false;

    /// A fresh solver that stops at `deadline` (checked while it searches) and, if `proof`, records
    /// a DRAT proof of what it derives.
    fn new(deadline: Option<Instant>, proof: bool) -> Self;

    /// A fresh solver without proof whose [`Engine::solve_briefly`] stops after about the work
    /// asked for, also where [`Engine::solve`] has no conflict limit (varisat: by the size of its
    /// own proof output, which costs a few percent of speed).
    fn new_limited(deadline: Option<Instant>) -> Self
    where
        Self: Sized,
    {
        Self::new(deadline, false)
    }

    /// Solves within about `conflicts` conflicts' worth of work ([`Answer::Unknown`] after), on a
    /// solver made by [`Engine::new_limited`]. The answer is deterministic.
    fn solve_briefly(&mut self, conflicts: u64) -> Answer {
        self.solve(Some(conflicts))
    }

    /// Whether [`Engine::favour_solutions`] changes anything (CaDiCaL; varisat has no such mode).
    const CAN_FAVOUR_SOLUTIONS: bool = false;

    /// Called on a fresh solver before its first clause: tunes it for a long search for a
    /// solution in a large, loosely constrained grid. CaDiCaL then stays in its stable mode
    /// (target phases, rare restarts) instead of alternating it with its focused mode: on
    /// 64x64-rkkautsar-1 that is 57 thousand decisions to a first solution instead of 2.6
    /// million (BENCHMARKS, "Stretch: 64x64-rkkautsar-1").
    fn favour_solutions(&mut self) {}

    /// Adds the clause of the literals `lits` renumbered by `map` (saves the caller a buffer).
    fn add_mapped(&mut self, lits: &[Lit], map: impl FnMut(Lit) -> Lit);

    /// Solves the clauses added so far, giving up after `conflicts` more conflicts where the solver
    /// supports a conflict limit.
    fn solve(&mut self, conflicts: Option<u64>) -> Answer;

    /// After [`Answer::Sat`]: appends the model to `out`, one literal per variable, in variable
    /// order (so `out[i]` is variable i's literal).
    fn model(&mut self, out: &mut Vec<Lit>);

    /// Conflicts so far, if the solver reports them.
    fn conflicts(&self) -> Option<u64>;

    /// Decisions so far, if the solver reports them.
    fn decisions(&self) -> Option<u64>;

    /// After a solve with a proof requested that ended unsatisfiable: the proof, in the solver's
    /// numbering (additions of derived clauses, and deletions). `None` if no proof was requested
    /// or it could not be recorded.
    fn take_proof(&mut self) -> Option<Proof>;
}

#[cfg(test)]
pub(crate) mod testing {
    //! Test helpers: whether a formula is satisfiable, by varisat through the solver layer.

    use super::{Answer, Engine, Varisat};
    use crate::sat::lit::Lit;
    use crate::sat::sink::{ClauseSink, Formula};

    /// Whether `formula` together with the unit clauses `units` is satisfiable.
    pub(crate) fn satisfiable(formula: &Formula, units: &[Lit]) -> bool {
        let mut s = Varisat::new(None, false);
        for c in formula.clauses() {
            s.add_clause(c);
        }
        for &u in units {
            s.add_clause(&[u]);
        }
        s.solve(None) == Answer::Sat
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::lit::Var;

    /// Pigeonhole: `n + 1` pigeons in `n` holes, unsatisfiable and hard for resolution.
    fn pigeonhole<E: Engine>(solver: &mut E, n: usize) {
        let p = |i: usize, j: usize| Var::from_index(i * n + j).lit(true);
        for i in 0..=n {
            let clause: Vec<Lit> = (0..n).map(|j| p(i, j)).collect();
            solver.add_clause(&clause);
        }
        for j in 0..n {
            for a in 0..=n {
                for b in a + 1..=n {
                    solver.add_clause(&[!p(a, j), !p(b, j)]);
                }
            }
        }
    }

    fn brief_solves_stop<E: Engine>() {
        // A little work is not enough to refute 9 pigeons in 8 holes.
        let mut s = E::new_limited(None);
        pigeonhole(&mut s, 8);
        assert_eq!(s.solve_briefly(1), Answer::Unknown);
        // Without a limit that matters, the same solve finishes.
        let mut s = E::new_limited(None);
        pigeonhole(&mut s, 5);
        assert_eq!(s.solve_briefly(u64::MAX / 1024), Answer::Unsat);
        // After a first, unlimited solve, a brief one on a warm solver still answers.
        let mut s = E::new_limited(None);
        let (a, b) = (Var::from_index(0).lit(true), Var::from_index(1).lit(true));
        s.add_clause(&[a, b]);
        assert_eq!(s.solve(None), Answer::Sat);
        s.add_clause(&[!a]);
        assert_eq!(s.solve_briefly(1), Answer::Sat);
        s.add_clause(&[!b]);
        assert_eq!(s.solve_briefly(1), Answer::Unsat);
    }

    #[test]
    fn brief_solves_stop_on_varisat() {
        brief_solves_stop::<Varisat>();
    }

    #[cfg(feature = "cadical")]
    #[test]
    fn brief_solves_stop_on_cadical() {
        brief_solves_stop::<Cadical>();
    }
}
