//! [`SatBackend`]: encode, simplify with our own clause-level code, solve with a SAT solver of the
//! solver layer, decode, and count solutions with blocking clauses.

use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use crate::grid::{Cell, Digit, Grid};
#[cfg(test)]
use crate::sat::encode::encode;
use crate::sat::encode::{
    Amo, CageEncoding, EncodeError, Encoding, UnknownName, encode_numbered, encode_with,
};
use crate::sat::lit::Lit;
use crate::sat::proof::Proof;
use crate::sat::simplify::{Simplifier, TRUE, Verdict};
use crate::sat::sink::{Formula, FormulaStats};
use crate::sat::solver::{Answer, Engine, SatSolver, SolverUnavailable, Varisat};
use crate::sat::vars::{CellVars, Compact, cell_lit_at};
use crate::solve::{Backend, Limits, Outcome, Report, Solutions, SolveError, Stats};
use crate::units::Units;

/// The most clauses the backend builds in memory; larger formulas are refused with
/// [`SolveError::FormulaTooLarge`] (each clause costs the encoder and varisat together a few dozen
/// bytes, so this is about a gigabyte).
pub const CLAUSE_BUDGET: u64 = 20_000_000;

/// The largest extended formula (in clauses) kept loaded per unit list for the default
/// configuration: N = 16 with the standard units has 123,904 clauses; N = 25 (751,875) is encoded
/// pruned per puzzle instead.
const BASE_CLAUSES: u64 = 200_000;

/// What our own code does to the formula before the SAT solver sees it. Clause-level only: it shares
/// nothing with the native backend's propagation or search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Simplify {
    /// Nothing: the solver gets the whole encoded formula, givens included (to measure encodings as
    /// they are).
    None,
    /// Unit propagation over the clauses; a conflict proves there is no solution, a complete
    /// assignment is the only solution.
    Propagate,
    /// Unit propagation, then probing of the cell variables: lifting over binary clauses (Le Berre
    /// 2001: both literals of a two-literal clause are tried, what both imply is fixed) and
    /// failed-literal probing (Lynce & Marques-Silva 2003: an open (cell, digit) literal set true
    /// whose propagation conflicts is fixed false), with limits so that puzzles that resist it
    /// reach the solver quickly. The fastest measured, the default.
    #[default]
    Probe,
}

impl Simplify {
    /// Every choice.
    pub const ALL: [Simplify; 3] = [Simplify::None, Simplify::Propagate, Simplify::Probe];

    /// The name: `none`, `propagate`, `probe`.
    pub fn name(self) -> &'static str {
        match self {
            Simplify::None => "none",
            Simplify::Propagate => "propagate",
            Simplify::Probe => "probe",
        }
    }
}

impl fmt::Display for Simplify {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Simplify {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Simplify, UnknownName> {
        Simplify::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName {
                what: "simplification",
                given: s.to_string(),
                expected: "none, propagate, probe",
            })
    }
}

/// The SAT backend: the puzzle as CNF ([`Encoding`] × [`Amo`]) solved by a [`SatSolver`] (varisat
/// 0.2.2 by default).
///
/// Pipeline per puzzle: encode into memory (fixed numbering); simplify with our own clause-level code
/// ([`Simplify`]: a conflict proves there is no solution; a complete assignment is the only
/// solution, found without a solver); hand what is left, renumbered compactly, to a fresh solver;
/// decode each model to a grid and block it (a clause over the cell variables of the cells the
/// solver decided) to count solutions up to [`Limits::max_solutions`].
///
/// The default configuration (pruned, pairwise, with simplification) skips the per-puzzle encoding
/// when the grid is small enough (N ≤ 16 with the standard units): the pruned formula is the
/// extended one simplified by the givens, and unit propagation of the givens as unit clauses over the
/// extended formula does that simplification. So the extended formula is encoded and loaded into
/// the simplifier once per unit list and thread, and each puzzle only resets its counters, assigns
/// its givens and propagates; what is left afterwards is the same formula up to clause order. In
/// that case [`Stats::variables`] and [`Stats::clauses`] count what is left for varisat (zero when
/// simplification solved the puzzle), not the pruned formula.
///
/// Limits: [`Limits::deadline`] interrupts either solver mid-search (varisat through its proof
/// output, CaDiCaL through its terminator callback). [`Limits::budget`] is a conflict budget for the
/// whole solve (all its solver calls) on CaDiCaL; varisat counts no conflicts it could stop at, so
/// there the budget does not apply ([`SatSolver::has_conflict_limit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SatBackend {
    encoding: Encoding,
    amo: Amo,
    /// How killer cages are written.
    cages: CageEncoding,
    simplify: Simplify,
    solver: SatSolver,
    /// Whether the default configuration may run the extended formula kept loaded per unit list
    /// (always, except in tests comparing it with the pruned formula built per puzzle).
    base: bool,
    /// Conflicts the warm second solve of [`SatBackend::settle`] may take:
    /// [`WARM_SECOND_CONFLICTS`] (other values in tests only, which make it go on past them).
    warm: u64,
}

impl Default for SatBackend {
    /// The fastest configuration measured: pruned encoding, pairwise at-most-one, probing.
    fn default() -> SatBackend {
        SatBackend::new(Encoding::default(), Amo::default())
    }
}

impl SatBackend {
    /// A backend using `encoding` and `amo`, with the default simplification ([`Simplify::Probe`]).
    pub fn new(encoding: Encoding, amo: Amo) -> SatBackend {
        SatBackend {
            encoding,
            amo,
            cages: CageEncoding::default(),
            simplify: Simplify::default(),
            solver: SatSolver::default(),
            base: true,
            warm: WARM_SECOND_CONFLICTS,
        }
    }

    /// The same backend with `warm` as the warm second solve's conflicts (tests).
    #[cfg(test)]
    pub(crate) fn with_warm_conflicts(self, warm: u64) -> SatBackend {
        SatBackend { warm, ..self }
    }

    /// The same backend with killer cages in another encoding.
    pub fn with_cages(self, cages: CageEncoding) -> SatBackend {
        SatBackend { cages, ..self }
    }

    /// How killer cages are encoded.
    pub fn cages(&self) -> CageEncoding {
        self.cages
    }

    /// The same backend with another simplification before the solver.
    pub fn with_simplify(self, simplify: Simplify) -> SatBackend {
        SatBackend { simplify, ..self }
    }

    /// The same backend on another SAT solver.
    ///
    /// # Errors
    /// [`SolverUnavailable`] if `solver` is not compiled into this build (CaDiCaL needs the cargo
    /// feature `cadical`; [`SatSolver::available`] lists what is).
    pub fn with_solver(self, solver: SatSolver) -> Result<SatBackend, SolverUnavailable> {
        Ok(SatBackend {
            solver: solver.require()?,
            ..self
        })
    }

    /// The SAT solver.
    pub fn solver(&self) -> SatSolver {
        self.solver
    }

    /// The encoding.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The at-most-one scheme.
    pub fn amo(&self) -> Amo {
        self.amo
    }

    /// What our own code does before the solver.
    pub fn simplify(&self) -> Simplify {
        self.simplify
    }

    /// Refuses formulas over [`CLAUSE_BUDGET`] clauses, and cages the cage encoding cannot write.
    fn check_size(&self, units: &Units, puzzle: &Grid) -> Result<(), SolveError> {
        let givens = puzzle.filled();
        // The pruned encoding is never larger than the extended one: count it only when that matters.
        let bound = match self.encoding {
            Encoding::Pruned => Encoding::Extended,
            e => e,
        };
        let mut clauses = bound
            .predicted_size(units, self.amo, givens)
            .map_or(u64::MAX, |p| p.clauses);
        // No closed form under cages: count (the cages' clauses are few beside the units').
        if clauses > CLAUSE_BUDGET
            && (self.encoding == Encoding::Pruned || !units.cages().is_empty())
        {
            let mut s = FormulaStats::new();
            match encode_with(units, puzzle, self.encoding, self.amo, self.cages, &mut s) {
                Ok(_) => clauses = s.clauses,
                Err(e @ EncodeError::TooManyCombinations { .. }) => {
                    return Err(SolveError::Unsupported {
                        backend: "sat",
                        reason: e.to_string(),
                    });
                }
                Err(_) => {}
            }
        }
        if clauses <= CLAUSE_BUDGET {
            return Ok(());
        }
        let n = units.shape().n();
        Err(SolveError::FormulaTooLarge {
            encoding: format!("{}/{}", self.encoding, self.amo),
            n,
            clauses,
            budget: CLAUSE_BUDGET,
            hint: "try --amo auto, commander or bimander (linear in N), or the dfs backend".into(),
        })
    }
}

/// Distinct variables occurring in `f`.
fn distinct_vars(f: &Formula) -> u64 {
    let mut seen = vec![false; f.max_var()];
    let mut count = 0;
    for l in f.flat_lits() {
        let s = &mut seen[l.var().index()];
        if !*s {
            *s = true;
            count += 1;
        }
    }
    count
}

/// Buffers kept per thread between puzzles, so that a batch allocates once.
#[derive(Default)]
struct Scratch {
    formula: Formula,
    rest: Formula,
    simplifier: Simplifier,
    /// The extended formula of the unit list `base_units` (by [`Units::id`]), loaded as a base.
    base: Simplifier,
    base_units: Option<u64>,
    /// A puzzle's givens as unit literals, for the loaded base.
    givens: Vec<Lit>,
    /// The numbering of the cell variables of `formula` (and so of `rest`).
    vars: CellVars,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Backend for SatBackend {
    fn name(&self) -> &'static str {
        "sat"
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        if puzzle.shape() != units.shape() {
            return Err(SolveError::ShapeMismatch {
                puzzle: puzzle.shape(),
                units: units.shape(),
            });
        }
        self.check_size(units, puzzle)?;
        let deadline = limits.deadline(Instant::now());
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => Ok(self.solve_with(units, puzzle, limits, deadline, &mut scratch)),
            // Re-entered on this thread (cannot happen today): use fresh buffers.
            Err(_) => Ok(self.solve_with(units, puzzle, limits, deadline, &mut Scratch::default())),
        })
    }
}

impl SatBackend {
    /// Whether this configuration runs the extended encoding, loaded once per unit list, under
    /// each puzzle's givens (see [`SatBackend`]): the pruned encoding with pairwise at-most-one and
    /// simplification, when the extended formula is small enough to keep.
    fn uses_base(&self, units: &Units) -> bool {
        self.base
            && self.encoding == Encoding::Pruned
            && self.amo.resolve(units.shape().n()) == Amo::Pairwise
            && self.simplify != Simplify::None
            && Encoding::Extended
                .predicted_size(units, Amo::Pairwise, 0)
                .is_some_and(|p| p.clauses <= BASE_CLAUSES)
    }

    /// Whether varisat is spared the units' at-least-one clauses longer than
    /// [`UNIT_ALO_KEPT_UPTO`] (see [`varisat_order`]): in the default configuration, whose formula
    /// has every open cell's at-least-one and at-most-one clauses and every unit's at-most-one
    /// clauses, which imply them, on grids up to [`DROP_LONG_UNIT_ALO_UPTO`]. Not under variant
    /// rules: a cage's clauses, simplified, may look the same (a digit somewhere in the cage) without
    /// being implied; and on jigsaw regions and extra units the solver needs those clauses (varisat
    /// took over 20 s instead of 0.03 s to refute empty jigsaw layouts of the shared collection
    /// without them).
    fn drops_long_unit_alo(&self, units: &Units) -> bool {
        self.encoding == Encoding::Pruned
            && matches!(self.amo, Amo::Pairwise | Amo::Auto)
            && self.simplify != Simplify::None
            && units.shape().n() <= DROP_LONG_UNIT_ALO_UPTO
            && units.cages().is_empty()
            && units.relations().is_empty()
            && units.variants().is_empty()
            && !units.is_jigsaw()
            && !units.has_clue_rules()
    }

    /// Encodes and simplifies `puzzle` (see [`Simplify`]): no solution, or the puzzle with what was
    /// fixed filled in and the clauses left for a solver (none when simplification solved it). With
    /// `lemmas`, also what probing derived, as DRAT lemmas in the fixed numbering.
    fn simplified<'s>(
        &self,
        units: &Units,
        puzzle: &Grid,
        scratch: &'s mut Scratch,
        stats: &mut Stats,
        lemmas: bool,
    ) -> (Simplified<'s>, Option<Proof>) {
        let n = units.shape().n();
        let Scratch {
            formula,
            rest,
            simplifier,
            base,
            base_units,
            givens,
            vars,
        } = scratch;

        // What simplification fixed goes into `grid`; `rest` is what is left for the solver.
        let mut grid = puzzle.clone();
        let (verdict, values, proof): (Verdict, &[i8], Option<Proof>) = if self.uses_base(units) {
            *vars = CellVars::fixed(units.shape());
            if *base_units != Some(units.id()) {
                formula.clear();
                // The shapes were checked by the caller, so encoding cannot fail.
                let empty = Grid::empty(units.shape());
                let _ = encode_with(
                    units,
                    &empty,
                    Encoding::Extended,
                    Amo::Pairwise,
                    self.cages,
                    formula,
                );
                base.load_base(formula);
                *base_units = Some(units.id());
            }
            givens.clear();
            givens.extend(
                puzzle
                    .values()
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| v != 0)
                    .map(|(i, &v)| cell_lit_at(n, i, v as usize - 1)),
            );
            base.record_lemmas(lemmas);
            let verdict = base.run_with_units(givens, self.probe_vars(vars), rest);
            let proof = base.take_lemmas();
            base.record_lemmas(false);
            stats.variables = base.distinct_vars - base.assigned() as u64;
            stats.clauses = rest.len() as u64;
            (verdict, &base.values, proof)
        } else {
            formula.clear();
            // The shapes were checked by the caller, so encoding cannot fail.
            let _ = encode_numbered(
                units,
                puzzle,
                self.encoding,
                self.amo,
                self.cages,
                vars,
                formula,
            );
            stats.clauses = formula.len() as u64;
            // Asked to stop (the encoding of a giant grid takes a second): the formula as it is,
            // as with `--simplify none`; the solve then stops at its first look at the flag.
            if self.simplify == Simplify::None || crate::solve::stop_requested() {
                stats.variables = distinct_vars(formula);
                (Verdict::Unchanged, &[], lemmas.then(Proof::new))
            } else {
                #[cfg(test)]
                SIMPLIFIER_RUNS.with(|n| n.set(n.get() + 1));
                simplifier.record_lemmas(lemmas);
                let verdict = simplifier.run(formula, self.probe_vars(vars), rest);
                // Probing's lemmas, over the formula's numbering, in the certificate's (fixed) one.
                let proof = simplifier.take_lemmas().map(|p| to_fixed(&p, vars));
                simplifier.record_lemmas(false);
                stats.variables = simplifier.distinct_vars;
                (verdict, &simplifier.values, proof)
            }
        };
        let rest: &Formula = match verdict {
            Verdict::Conflict => return (Simplified::NoSolution, proof),
            Verdict::Unchanged => formula,
            Verdict::Simplified => {
                // Cell variables come first: a true one puts its digit in its cell.
                let cell_vars = vars.count().min(values.len());
                for (i, &v) in values[..cell_vars].iter().enumerate() {
                    if v == TRUE
                        && let Some((cell, d)) = vars.cell_digit(i)
                    {
                        grid.set(Cell::new(cell), Digit::new((d + 1) as _));
                    }
                }
                rest
            }
        };
        (Simplified::Rest(grid, rest, vars), proof)
    }

    /// How many variables probing tries: the cell variables (they come first), with
    /// [`Simplify::Probe`].
    fn probe_vars(&self, vars: &CellVars) -> usize {
        match self.simplify {
            Simplify::Probe => vars.count(),
            _ => 0,
        }
    }

    fn solve_with(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        deadline: Option<Instant>,
        scratch: &mut Scratch,
    ) -> Report {
        let mut stats = Stats::default();
        let (grid, rest, vars) = match self.simplified(units, puzzle, scratch, &mut stats, false).0
        {
            Simplified::NoSolution => {
                return Report::new(Outcome::NoSolution, stats);
            }
            Simplified::Rest(grid, rest, vars) => (grid, rest, vars),
        };
        let mut solutions = Solutions::new(limits);
        let mut gave_up = false;
        if rest.is_empty() {
            // Propagation assigned every cell: the only solution (an empty clause set has one model
            // over the cell variables, and blocking it leaves an empty clause).
            solutions.add(grid);
        } else if crate::solve::past(deadline) {
            // Encoding and simplifying a giant grid take seconds before a solver looks at the
            // clock or the stop flag: look here too.
            gave_up = true;
        } else {
            let order = varisat_order(units, rest, vars, self.drops_long_unit_alo(units));
            stats.clauses = order.len() as u64;
            let run = Search {
                vars,
                rest,
                order: &order,
                base: &grid,
                budget: limits.budget(),
                deadline,
            };
            gave_up = match self.solver {
                #[cfg(feature = "cadical")]
                SatSolver::Cadical => {
                    run.run::<crate::sat::solver::Cadical>(&mut solutions, &mut stats)
                }
                // Without the feature a backend cannot be built with CaDiCaL (`with_solver`).
                _ => run.run::<Varisat>(&mut solutions, &mut stats),
            };
        }
        Report::new(solutions.finish(gave_up), stats)
    }

    /// A DRAT refutation, in the fixed numbering, of the plain extended encoding of `puzzle` (its
    /// givens as unit clauses) together with, if `excluded` is given, the clause that excludes that
    /// grid (over every cell); or a solution (another one than `excluded`) that shows
    /// there is none; or [`Proved::Unknown`] when a limit ran out. Variables the solver's proof
    /// introduces get numbers from `first_fresh` (1-based) on.
    ///
    /// The proof is made on the simplified formula (see [`SatBackend`]) and extended to the plain
    /// one: the lemmas of probing first (each a RUP consequence of the plain formula and the
    /// lemmas before it, [`Simplifier::record_lemmas`]), then the solver's lemmas renumbered back
    /// (RUP for the clauses left after simplification, so RUP for the plain formula once its unit
    /// propagation has made the same assignments), then the empty clause. The solve is a fresh
    /// solver given every clause before it starts, as varisat's DRAT output requires.
    pub(crate) fn prove(
        &self,
        units: &Units,
        puzzle: &Grid,
        excluded: Option<&Grid>,
        limits: &Limits,
        first_fresh: usize,
    ) -> Proved {
        let deadline = limits.deadline(Instant::now());
        let job = Prove {
            units,
            puzzle,
            excluded,
            budget: limits.budget(),
            deadline,
            first_fresh,
            warm: self.warm,
        };
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.prove_with(&job, &mut scratch),
            Err(_) => self.prove_with(&job, &mut Scratch::default()),
        })
    }

    /// Answers the uniqueness question about `puzzle` and proves the answer when it is `unique` or
    /// `none`, with one simplification: a first solve, then the cheap second solve of a plain
    /// `--unique` answer (the same solver, warm, with the first solution blocked; within
    /// [`WARM_SECOND_CONFLICTS`] conflicts' worth of work), and only when
    /// that does not find a second solution the proof. On CaDiCaL, whose proof tracer records
    /// from the first solve on, that is the same solver going on (a unique puzzle pays no other
    /// solve); on varisat, the proof-recording solve of [`SatBackend::prove`] (a fresh solver over
    /// what simplification left, and the clause excluding the first solution). Puzzles with
    /// several solutions so pay no proof-recording solve. With the settlement, the work of all its
    /// solves.
    pub(crate) fn settle(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        first_fresh: usize,
    ) -> (Settlement, Stats) {
        let deadline = limits.deadline(Instant::now());
        let job = Prove {
            units,
            puzzle,
            excluded: None,
            budget: limits.budget(),
            deadline,
            first_fresh,
            warm: self.warm,
        };
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.settle_with(job, &mut scratch),
            Err(_) => self.settle_with(job, &mut Scratch::default()),
        })
    }

    /// Simplification recording its lemmas: the puzzle with what was fixed, the clauses left, their
    /// cell numbering and the lemmas so far; or, on a conflict, the refutation (the lemmas and the
    /// empty clause).
    fn simplified_proving<'s>(
        &self,
        job: &Prove<'_>,
        scratch: &'s mut Scratch,
        stats: &mut Stats,
    ) -> Result<(Grid, &'s Formula, &'s CellVars, Proof), Proof> {
        let (simplified, lemmas) = self.simplified(job.units, job.puzzle, scratch, stats, true);
        let mut proof = lemmas.unwrap_or_default();
        match simplified {
            Simplified::NoSolution => {
                proof.add(&[]);
                Err(proof)
            }
            Simplified::Rest(grid, rest, vars) => Ok((grid, rest, vars, proof)),
        }
    }

    fn settle_with(&self, job: Prove<'_>, scratch: &mut Scratch) -> (Settlement, Stats) {
        let mut stats = Stats::default();
        let (grid, rest, vars, mut proof) = match self.simplified_proving(&job, scratch, &mut stats)
        {
            Ok(rest) => rest,
            Err(refutation) => {
                return (
                    Settlement::NoSolution(Proved::Refutation(refutation)),
                    stats,
                );
            }
        };
        if rest.is_empty() {
            // Every cell assigned by propagation: the only solution, and propagation falsifies
            // the clause that excludes it.
            proof.add(&[]);
            let settled = Settlement::Unique(Box::new(grid), Proved::Refutation(proof), true);
            return (settled, stats);
        }
        let order = varisat_order(job.units, rest, vars, self.drops_long_unit_alo(job.units));
        let settled = match self.solver {
            #[cfg(feature = "cadical")]
            SatSolver::Cadical => job
                .settle::<crate::sat::solver::Cadical>(rest, vars, &order, grid, proof, &mut stats),
            _ => job.settle::<Varisat>(rest, vars, &order, grid, proof, &mut stats),
        };
        (settled, stats)
    }

    fn prove_with(&self, job: &Prove<'_>, scratch: &mut Scratch) -> Proved {
        let mut stats = Stats::default();
        let (grid, rest, vars, mut proof) = match self.simplified_proving(job, scratch, &mut stats)
        {
            Ok(rest) => rest,
            Err(refutation) => return Proved::Refutation(refutation),
        };
        if rest.is_empty() {
            // Every cell assigned by propagation: the only solution. If it is the excluded one,
            // propagation falsifies the excluding clause.
            return match job.excluded {
                Some(s) if *s == grid => {
                    proof.add(&[]);
                    Proved::Refutation(proof)
                }
                _ => Proved::Solution(Box::new(grid)),
            };
        }
        let order = varisat_order(job.units, rest, vars, self.drops_long_unit_alo(job.units));
        match self.solver {
            #[cfg(feature = "cadical")]
            SatSolver::Cadical => {
                job.run::<crate::sat::solver::Cadical>(rest, vars, &order, grid, proof, &mut stats)
            }
            _ => job.run::<Varisat>(rest, vars, &order, grid, proof, &mut stats),
        }
    }
}

/// What simplification left of a puzzle.
enum Simplified<'s> {
    /// A conflict: no solution.
    NoSolution,
    /// The puzzle with what was fixed filled in, the clauses left (none: solved), and the numbering
    /// of their cell variables.
    Rest(Grid, &'s Formula, &'s CellVars),
}

/// The lemmas of `proof` (over the variables of `vars`) in the fixed numbering, deletions left out
/// (which keeps a DRAT proof valid). The rules' auxiliary variables (cages, sums, lines) carry over
/// ([`CellVars::to_fixed`]); a lemma over an at-most-one constraint's auxiliary variable, which the
/// certificate's plain CNF does not have, is left out: a later step that needs it then fails the
/// check (the certifier uses pairwise at-most-one, which has none).
fn to_fixed(proof: &Proof, vars: &CellVars) -> Proof {
    let mut out = Proof::new();
    let mut buf = Vec::new();
    'steps: for (deletion, clause) in proof.steps() {
        if deletion {
            continue;
        }
        buf.clear();
        for &l in clause {
            match vars.to_fixed(l) {
                Some(x) => buf.push(x),
                None => continue 'steps,
            }
        }
        out.add(&buf);
    }
    out
}

/// What [`SatBackend::prove`] found.
#[derive(Debug)]
pub(crate) enum Proved {
    /// A DRAT refutation in the fixed numbering, ending with the empty clause.
    Refutation(Proof),
    /// A solution (not the excluded grid): the formula is satisfiable.
    Solution(Box<Grid>),
    /// A limit ran out, or the solver gave no proof.
    Unknown,
}

/// What [`SatBackend::settle`] found. Grids are the solver's, not yet verified.
pub(crate) enum Settlement {
    /// No solution: the refutation of the plain formula (or why there is none).
    NoSolution(Proved),
    /// A solution, and the proof over the formula and the clause excluding it: a refutation makes
    /// it unique ([`Proved::Solution`] does not occur here); and whether uniqueness is known
    /// without it (propagation, or the warm second solve found no other).
    Unique(Box<Grid>, Proved, bool),
    /// Two different solutions.
    Multiple(Box<Grid>, Box<Grid>),
    /// A limit ran out: after the first solution, if one was found.
    Unknown(Option<Box<Grid>>),
}

/// Conflicts the warm second solve of [`SatBackend::settle`] may take ([`Engine::solve_briefly`];
/// on varisat measured by its proof output) before the proof-recording solve takes over (on
/// CaDiCaL, before the same solver goes on without that limit, a new solver call): puzzles
/// with several solutions give a second one within far fewer, and a hard unique puzzle's
/// refutation is not done twice. Measured on the 16x16 set (every 10th of sudoku-acs): its 132
/// puzzles with several solutions that reach the solver gave the second one within 17 conflicts on
/// CaDiCaL, 205 of varisat's measure (their first solve: 60 and 776 at most); the refutations of
/// forum-hardest-1106's unique puzzles take up to 224 and 686. `--certify` CPU time (one run,
/// shared machine), varisat: 16x16 set 0.45 s with no warm solve, 0.31 with 1,000 or unlimited;
/// hard 25x25 11.1 s with 1,000, 13.0 unlimited.
pub(crate) const WARM_SECOND_CONFLICTS: u64 = 256;

#[cfg(test)]
thread_local! {
    /// Runs of the simplifier on a per-puzzle formula on this thread: what tests count.
    static SIMPLIFIER_RUNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Fresh proof-recording solves ([`Prove::run`]) made on this thread: what tests count.
    pub(crate) static FRESH_PROOF_SOLVES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One certifying solve: see [`SatBackend::prove`].
#[derive(Clone, Copy)]
struct Prove<'a> {
    units: &'a Units,
    puzzle: &'a Grid,
    excluded: Option<&'a Grid>,
    budget: Option<u64>,
    deadline: Option<Instant>,
    first_fresh: usize,
    /// Conflicts the warm second solve may take ([`WARM_SECOND_CONFLICTS`]).
    warm: u64,
}

impl Prove<'_> {
    /// [`SatBackend::settle`] after simplification: the first and the warm second solve on one
    /// solver of type `E`, then, unless a second solution was found, the proof; the work of each
    /// solve goes into `stats`.
    ///
    /// On a solver that [proves across solves](Engine::PROVES_ACROSS_SOLVES) (CaDiCaL), that
    /// solver records its proof from the start: a first solve that ends unsatisfiable is
    /// the refutation of the puzzle, and a second that does (within the warm solve's conflicts or
    /// continued past them) the refutation of the puzzle with its first solution excluded, the
    /// blocking clause being the excluding clause less the literals that top-level propagation of
    /// the plain formula makes false. Otherwise (varisat), or if the solver gives no proof, the
    /// proof is a fresh proof-recording solve, [`Prove::run`].
    fn settle<E: Engine>(
        self,
        rest: &Formula,
        vars: &CellVars,
        order: &[usize],
        base: Grid,
        proof: Proof,
        stats: &mut Stats,
    ) -> Settlement {
        let mut compact = if E::FLIP_CELLS {
            Compact::flipping_cells(rest.max_var(), vars.count())
        } else {
            Compact::new(rest.max_var())
        };
        let traced = E::PROVES_ACROSS_SOLVES;
        stats.nodes += 1;
        let first = solve_first(
            |favour| {
                let mut solver = if traced {
                    E::new(self.deadline, true)
                } else {
                    E::new_limited(self.deadline)
                };
                if favour {
                    solver.favour_solutions();
                }
                for &i in order {
                    solver.add_mapped(rest.clause(i), |l| compact.map(l));
                }
                Some(solver)
            },
            favours_solutions(self.puzzle),
            self.budget,
            self.deadline,
            stats,
        );
        let Some((mut solver, first, spent)) = first else {
            unreachable!("the solver is made without a deadline check")
        };
        // What is left of the budget after a solver given up on.
        let budget = self.budget.map(|b| b.saturating_sub(spent));
        let grid_of = |solver: &mut E, compact: &Compact, blocking: &mut Vec<Lit>| {
            let mut model = Vec::new();
            solver.model(&mut model);
            let mut grid = base.clone();
            blocking.clear();
            for &l in &model {
                let x = compact.unmap(l);
                if x.is_positive()
                    && let Some((cell, d)) = vars.cell_digit(x.var().index())
                {
                    grid.set(Cell::new(cell), Digit::new((d + 1) as _));
                    blocking.push(!l);
                }
            }
            grid
        };
        let mut blocking = Vec::new();
        let first = match first {
            Answer::Unknown => {
                add_work(stats, &solver);
                return Settlement::Unknown(None);
            }
            Answer::Unsat => {
                add_work(stats, &solver);
                // No solution: the refutation is this solve's, or comes from a fresh solver that
                // records it.
                if traced && let Some(steps) = solver.take_proof() {
                    let proved = self.refutation(proof, &steps, &compact, vars);
                    return Settlement::NoSolution(proved);
                }
                drop(solver);
                let proved = self.run::<E>(rest, vars, order, base, proof, stats);
                return Settlement::NoSolution(proved);
            }
            Answer::Sat => grid_of(&mut solver, &compact, &mut blocking),
        };
        if blocking.is_empty() {
            // Nothing was left to vary (cannot happen: `rest` is not empty).
            add_work(stats, &solver);
            return Settlement::Unknown(Some(Box::new(first)));
        }
        solver.add_clause(&blocking);
        let used = solver.conflicts().unwrap_or(0);
        let left = budget.map(|b| b.saturating_sub(used));
        if left == Some(0) {
            add_work(stats, &solver);
            return Settlement::Unknown(Some(Box::new(first)));
        }
        let warm = left.map_or(self.warm, |l| l.min(self.warm));
        stats.nodes += 1;
        let mut answer = solver.solve_briefly(warm);
        if traced && answer == Answer::Unknown && !crate::solve::past(self.deadline) {
            // Out of the warm solve's conflicts: the same solver goes on, recording still.
            let spent = solver.conflicts().unwrap_or(0);
            stats.nodes += 1;
            answer = solver.solve(budget.map(|b| b.saturating_sub(spent)));
        }
        add_work(stats, &solver);
        match answer {
            Answer::Sat => {
                let second = grid_of(&mut solver, &compact, &mut blocking);
                return Settlement::Multiple(Box::new(first), Box::new(second));
            }
            Answer::Unsat if traced => {
                if let Some(steps) = solver.take_proof() {
                    let proved = self.refutation(proof, &steps, &compact, vars);
                    return Settlement::Unique(Box::new(first), proved, true);
                }
            }
            Answer::Unknown if traced || crate::solve::past(self.deadline) => {
                return Settlement::Unknown(Some(Box::new(first)));
            }
            // Unsatisfiable, or out of its few conflicts: the proof-recording solve decides.
            Answer::Unsat | Answer::Unknown => {}
        }
        let known = answer == Answer::Unsat;
        let spent = solver.conflicts().unwrap_or(0);
        drop(solver);
        let job = Prove {
            excluded: Some(&first),
            budget: budget.map(|b| b.saturating_sub(spent)),
            ..self
        };
        let proved = job.run::<E>(rest, vars, order, base, proof, stats);
        match proved {
            Proved::Solution(second) => Settlement::Multiple(Box::new(first.clone()), second),
            p => Settlement::Unique(Box::new(first.clone()), p, known),
        }
    }

    /// Solves `rest` (its clauses `order`) and the excluding clause with a fresh solver of type
    /// `E` that records a proof; `proof` holds the lemmas so far; the solve's work goes into
    /// `stats`.
    fn run<E: Engine>(
        &self,
        rest: &Formula,
        vars: &CellVars,
        order: &[usize],
        base: Grid,
        proof: Proof,
        stats: &mut Stats,
    ) -> Proved {
        let mut compact = if E::FLIP_CELLS {
            Compact::flipping_cells(rest.max_var(), vars.count())
        } else {
            Compact::new(rest.max_var())
        };
        #[cfg(test)]
        FRESH_PROOF_SOLVES.with(|n| n.set(n.get() + 1));
        let mut solver = E::new(self.deadline, true);
        for &i in order {
            solver.add_mapped(rest.clause(i), |l| compact.map(l));
        }
        if let Some(excluded) = self.excluded {
            // Its digits in the cells still open; the others are true already.
            let mut clause = Vec::new();
            for (i, &v) in excluded.values().iter().enumerate() {
                if v != 0
                    && self.puzzle.values()[i] == 0
                    && let Some(x) = vars.lit(i, v as usize - 1)
                    && let Some(c) = compact.lookup(!x)
                {
                    clause.push(c);
                }
            }
            solver.add_clause(&clause);
        }
        stats.nodes += 1;
        let answer = solver.solve(self.budget);
        add_work(stats, &solver);
        match answer {
            Answer::Sat => {
                let mut model = Vec::new();
                solver.model(&mut model);
                let mut grid = base;
                for &l in &model {
                    let x = compact.unmap(l);
                    if x.is_positive()
                        && let Some((cell, d)) = vars.cell_digit(x.var().index())
                    {
                        grid.set(Cell::new(cell), Digit::new((d + 1) as _));
                    }
                }
                Proved::Solution(Box::new(grid))
            }
            Answer::Unsat => match solver.take_proof() {
                Some(steps) => self.refutation(proof, &steps, &compact, vars),
                None => Proved::Unknown,
            },
            Answer::Unknown => Proved::Unknown,
        }
    }

    /// The refutation made of `proof` (the lemmas so far, in the fixed numbering) and `steps`, a
    /// solver's proof over the variables of `compact` (the formula's, renumbered back; the
    /// solver's own fresh ones from [`Prove::first_fresh`] on), ending with the empty clause.
    fn refutation(
        &self,
        mut proof: Proof,
        steps: &Proof,
        compact: &Compact,
        vars: &CellVars,
    ) -> Proved {
        let mut buf = Vec::new();
        for (deletion, clause) in steps.steps() {
            buf.clear();
            for &l in clause {
                // Variables of the formula to the fixed numbering; the solver's own fresh.
                let fixed = match compact.try_unmap(l) {
                    Some(x) => vars.to_fixed(x),
                    None => Some(compact.fresh(l, self.first_fresh)),
                };
                let Some(fixed) = fixed else {
                    return Proved::Unknown;
                };
                buf.push(fixed);
            }
            if deletion {
                proof.delete(&buf);
            } else {
                proof.add(&buf);
            }
        }
        if !proof.ends_with_empty_clause() {
            proof.add(&[]);
        }
        Proved::Refutation(proof)
    }
}

/// Grids of this many cells and more (36x36 and up) may get a solver tuned to find solutions
/// ([`solve_first`]): there a first solution can take CaDiCaL millions of conflicts in its default
/// mode. On smaller grids the tuning gained nothing measurable (BENCHMARKS).
const FAVOUR_SOLUTIONS_FROM_CELLS: usize = 36 * 36;

/// Conflicts the first solve of a large grid gets in the solver's default mode before a fresh
/// solver tuned to find solutions takes over: CaDiCaL settles 81x81-rkkautsar-1 and its
/// relabellings in 2,000-5,000 conflicts in its default mode, faster there than tuned (above all
/// on the unsatisfiable second solve of `--unique`), and 10,000 conflicts of 64x64-rkkautsar-1
/// cost about a second (BENCHMARKS).
const DEFAULT_MODE_CONFLICTS: u64 = 10_000;

/// Whether `puzzle` is large enough for [`solve_first`] to switch solvers.
fn favours_solutions(puzzle: &Grid) -> bool {
    puzzle.values().len() >= FAVOUR_SOLUTIONS_FROM_CELLS
}

/// The first solve, on a solver from `fresh(favour)` (loaded with every clause, or `None` when
/// the deadline passed while loading). With `large` set and a solver that can
/// [favour solutions](Engine::favour_solutions), the default mode gets
/// [`DEFAULT_MODE_CONFLICTS`] of the budget first; if that does not settle it, a fresh solver so
/// tuned gets the rest. Returns the solver that answered (to go on with), its answer, and the
/// conflicts of a solver given up on (counted in the caller's budget); that solver's work goes
/// into `stats`.
fn solve_first<E: Engine>(
    mut fresh: impl FnMut(bool) -> Option<E>,
    large: bool,
    budget: Option<u64>,
    deadline: Option<Instant>,
    stats: &mut Stats,
) -> Option<(E, Answer, u64)> {
    let mut solver = fresh(false)?;
    if !(large && E::CAN_FAVOUR_SOLUTIONS) {
        let answer = solver.solve(budget);
        return Some((solver, answer, 0));
    }
    let trial = budget.map_or(DEFAULT_MODE_CONFLICTS, |b| b.min(DEFAULT_MODE_CONFLICTS));
    let answer = solver.solve(Some(trial));
    let spent = solver.conflicts().unwrap_or(0);
    let left = budget.map(|b| b.saturating_sub(spent));
    if answer != Answer::Unknown || left == Some(0) || crate::solve::past(deadline) {
        return Some((solver, answer, 0));
    }
    add_work(stats, &solver);
    drop(solver);
    let mut solver = fresh(true)?;
    stats.nodes += 1;
    let answer = solver.solve(left);
    Some((solver, answer, spent))
}

/// Adds the conflicts and decisions `solver` made (where it counts them) to `stats`.
fn add_work<E: Engine>(stats: &mut Stats, solver: &E) {
    stats.conflicts += solver.conflicts().unwrap_or(0);
    stats.guesses += solver.decisions().unwrap_or(0);
}

/// The units' at-least-one clauses that varisat gets when they may be left out
/// ([`varisat_order`]): those of at most this many literals.
///
/// Measured side by side on the hardest sets (forum-hardest and its 1106 set, first solution and
/// counting to two): leaving out those of 5 or more literals saves 5-9% of the CPU time, of 6 or
/// more 1-4%; leaving out those of 4 as well nearly doubles it. top1465, 17-clue and 16x16 stay
/// within noise.
const UNIT_ALO_KEPT_UPTO: usize = 4;

/// The largest grid side on which the long unit at-least-one clauses are left out
/// ([`UNIT_ALO_KEPT_UPTO`]). They are implied, but not by unit propagation: without them a solver
/// finds no hidden single by propagation and must learn each. At 9x9 leaving them out saves time
/// (above); on hard 25x25 puzzles it made the search 4.5x slower on varisat and 3.3x on CaDiCaL,
/// on 64x64-rkkautsar-2 8x and 4x (BENCHMARKS.md).
const DROP_LONG_UNIT_ALO_UPTO: usize = 9;

/// The order in which `rest`'s clauses go to varisat, as clause indices: first the cells'
/// at-least-one clauses (positive literals of one cell's variables), then every other clause in
/// encoding order, except (if `drop_long_unit_alo`) the units' at-least-one clauses (positive
/// literals of cell variables of several cells) longer than [`UNIT_ALO_KEPT_UPTO`].
///
/// Those are implied by the rest when each open cell has its at-least-one and at-most-one clauses
/// and each unit its at-most-one clauses (over the digits and cells still open): in a unit with m
/// open cells and so m digits still to place, every open cell holds exactly one of them and no
/// digit twice, so each digit is placed once. Leaving them out changes no model, only how varisat
/// gets there: a long at-least-one clause rarely propagates and costs loading and watching.
///
/// varisat numbers its variables in the order they first occur and, until conflicts give them
/// activity, decides the first one and then the most recently created ones; every decision places
/// a digit (cell variables are flipped). So the order of the cells' clauses is its first decision
/// order. We want it to start in the most constrained part of the grid and to stay local: the units
/// are taken by fewest open candidates in all, and each unit's cells not yet taken follow in the
/// unit's order (a static, unit-wise version of the minimum-remaining-values rule). Measured on the
/// hardest set, as published and with every puzzle randomly relabelled, permuted and transposed:
/// 10-15% less varisat time than row-major order, the same in either orientation (ordering cells
/// alone by candidates gained 3-5%).
fn varisat_order(
    units: &Units,
    rest: &Formula,
    vars: &CellVars,
    drop_long_unit_alo: bool,
) -> Vec<usize> {
    let n = units.shape().n();
    let cell_var_end = vars.count();
    // Per cell: its at-least-one clause and that clause's length (0: none).
    let mut alo = vec![(0usize, 0usize); n * n];
    let mut dropped = vec![false; rest.len()];
    for (i, c) in rest.clauses().enumerate() {
        if c.len() < 2
            || !c
                .iter()
                .all(|&l| l.is_positive() && l.index() < cell_var_end)
        {
            continue;
        }
        let Some((cell, _)) = vars.cell_digit(c[0].index()) else {
            continue;
        };
        let range = vars.cell_range(cell);
        if c.iter().all(|l| range.contains(&l.index())) {
            alo[cell] = (c.len(), i);
        } else if drop_long_unit_alo && c.len() > UNIT_ALO_KEPT_UPTO {
            dropped[i] = true;
        }
    }
    let mut by_total: Vec<(usize, usize)> = units
        .units()
        .iter()
        .enumerate()
        .map(|(u, unit)| (unit.cells.iter().map(|c| alo[c.index()].0).sum(), u))
        .filter(|&(total, _)| total > 0)
        .collect();
    by_total.sort_unstable();
    let mut cells = Vec::with_capacity(n * n);
    for &(_, u) in &by_total {
        for c in &units.units()[u].cells {
            let slot = &mut alo[c.index()];
            if slot.0 > 0 {
                cells.push(slot.1);
                slot.0 = 0;
            }
        }
    }
    let mut order = Vec::with_capacity(rest.len());
    if let Some((&best, others)) = cells.split_first() {
        for &i in std::iter::once(&best).chain(others.iter().rev()) {
            dropped[i] = true;
            order.push(i);
        }
    }
    // The cells' clauses are taken; `dropped` now marks what is not to follow.
    order.extend((0..rest.len()).filter(|&i| !dropped[i]));
    order
}

/// One solver run over what simplification left: the clauses `order` of `rest`, in that order.
struct Search<'a> {
    /// The numbering of the cell variables of `rest`.
    vars: &'a CellVars,
    rest: &'a Formula,
    order: &'a [usize],
    /// The puzzle with what simplification fixed filled in.
    base: &'a Grid,
    /// Conflicts allowed over all solver calls (solvers with a conflict limit only).
    budget: Option<u64>,
    deadline: Option<Instant>,
}

impl Search<'_> {
    /// Solves with a fresh solver of type `E`, counting each solution (over `base`) and blocking it,
    /// until unsatisfiable or the limits are reached. Returns whether it gave up (deadline, budget
    /// or solver error).
    fn run<E: Engine>(&self, solutions: &mut Solutions, stats: &mut Stats) -> bool {
        let vars = self.vars;
        let mut compact = if E::FLIP_CELLS {
            Compact::flipping_cells(self.rest.max_var(), vars.count())
        } else {
            Compact::new(self.rest.max_var())
        };
        let budget = self.budget;
        if crate::solve::past(self.deadline) || budget == Some(0) {
            return true;
        }
        stats.nodes += 1;
        let first = solve_first(
            |favour| {
                let mut solver = E::new(self.deadline, false);
                if favour {
                    solver.favour_solutions();
                }
                // Loading millions of clauses (225x225 and up) takes a second or more: the clock
                // and the stop flag are read between blocks of clauses.
                for block in self.order.chunks(1 << 16) {
                    if crate::solve::past(self.deadline) {
                        return None;
                    }
                    for &i in block {
                        solver.add_mapped(self.rest.clause(i), |l| compact.map(l));
                    }
                }
                Some(solver)
            },
            favours_solutions(self.base),
            budget,
            self.deadline,
            stats,
        );
        let Some((mut solver, first, spent)) = first else {
            return true;
        };
        // The work so far, a solver given up on included; this solver's is counted on top.
        let before = *stats;
        let mut first = Some(first);
        let mut buf: Vec<Lit> = Vec::new();
        let mut model: Vec<Lit> = Vec::new();
        let gave_up = loop {
            let answer = match first.take() {
                Some(answer) => answer,
                None => {
                    if crate::solve::past(self.deadline) {
                        break true;
                    }
                    let used = spent + solver.conflicts().unwrap_or(0);
                    let conflicts = match budget {
                        Some(b) => match b.checked_sub(used) {
                            Some(left) if left > 0 => Some(left),
                            _ => break true,
                        },
                        None => None,
                    };
                    stats.nodes += 1;
                    solver.solve(conflicts)
                }
            };
            if let Some(c) = solver.conflicts() {
                // (Progress displays got this call's conflicts from the engine.)
                stats.conflicts = before.conflicts + c;
            }
            match answer {
                Answer::Sat => {}
                Answer::Unsat => break false,
                Answer::Unknown => break true,
            }
            model.clear();
            solver.model(&mut model);
            if model.is_empty() {
                break true;
            }
            // The blocking clause: not all of the digits placed by the solver again.
            buf.clear();
            for &l in &model {
                let fixed = compact.unmap(l);
                if fixed.is_positive() && fixed.index() < vars.count() {
                    buf.push(!l);
                }
            }
            let full = solutions.add_with(|| {
                let mut grid = self.base.clone();
                for &l in &buf {
                    if let Some((cell, d)) = vars.cell_digit(compact.unmap(!l).var().index()) {
                        grid.set(Cell::new(cell), Digit::new((d + 1) as _));
                    }
                }
                grid
            });
            if full || buf.is_empty() {
                // The limit is reached, or nothing was left to vary: this was the only solution.
                break false;
            }
            solver.add_clause(&buf);
        };
        stats.conflicts = before.conflicts + solver.conflicts().unwrap_or(0);
        stats.guesses = before.guesses + solver.decisions().unwrap_or(0);
        gave_up
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::solve::Status;
    use crate::verify::verify;

    /// Every encoding × amo × simplification × solver compiled in.
    fn all_backends() -> Vec<SatBackend> {
        let mut v = Vec::new();
        for solver in SatSolver::available() {
            for e in Encoding::ALL {
                for a in Amo::ALL {
                    for p in Simplify::ALL {
                        let b = SatBackend::new(e, a).with_simplify(p);
                        v.push(b.with_solver(solver).unwrap());
                    }
                }
            }
        }
        v
    }

    #[test]
    fn empty_4x4_has_288_solutions() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        for b in all_backends() {
            let r = b
                .solve(&units, &Grid::empty(s), &Limits::count_to(1000))
                .unwrap();
            assert!(
                matches!(
                    r.outcome,
                    Outcome::Multiple {
                        count: 288,
                        complete: true,
                        ..
                    }
                ),
                "{b:?}: {:?}",
                r.outcome.count()
            );
            for g in r.outcome.grids() {
                verify(&units, &Grid::empty(s), g).unwrap();
            }
        }
    }

    /// The published variant puzzles and the killer of `testing`: every encoding × amo ×
    /// simplification × solver × cage encoding finds the published solution, and only it. (Three
    /// of them, which take varisat a good part of a second in some configurations, only in the
    /// default one and on every solver: every configuration meets them in `tests/it/variants.rs`.)
    #[test]
    fn variants_solve_to_their_published_solutions() {
        let (killer, solution) = crate::testing::wikipedia_killer();
        let mut cases = vec![(
            "killer".to_string(),
            killer.clone(),
            Grid::empty(killer.shape()),
            solution,
        )];
        for p in crate::testing::published_variants() {
            cases.push((p.name.to_string(), p.units, p.puzzle, p.solution));
        }
        for (name, units, puzzle, solution) in &cases {
            verify(units, puzzle, solution).unwrap();
            let slow = ["Sudoku X", "X-Windoku", "Anti-consectutive"];
            let backends = if slow.iter().any(|s| name.contains(s)) {
                SatSolver::available()
                    .into_iter()
                    .map(|s| SatBackend::default().with_solver(s).unwrap())
                    .collect()
            } else {
                all_backends()
            };
            for b in backends {
                for cages in CageEncoding::ALL {
                    if units.cages().is_empty() && cages != CageEncoding::default() {
                        continue;
                    }
                    let b = b.with_cages(cages);
                    let r = b.solve(units, puzzle, &Limits::unique()).unwrap();
                    assert_eq!(
                        r.outcome,
                        Outcome::Unique(solution.clone()),
                        "{name}: {b:?}"
                    );
                }
            }
        }
    }

    /// Under the relations and extra units of variants, the default configuration keeps the
    /// extended formula loaded (relations included) and agrees with the pruned formula built per
    /// puzzle, also with a given taken away (so that counts may go past one); on the puzzles with
    /// ten givens or more (those with fewer take varisat long to count).
    #[test]
    fn loaded_base_agrees_under_variants() {
        for p in crate::testing::published_variants() {
            assert!(SatBackend::default().uses_base(&p.units), "{}", p.name);
            if p.puzzle.filled() < 10 {
                continue;
            }
            let mut fewer = p.puzzle.clone();
            if let Some(cell) = (0..81).find(|&c| p.puzzle.values()[c] != 0) {
                fewer.set(Cell::new(cell), None);
            }
            let with = SatBackend::default();
            let without = SatBackend {
                base: false,
                ..with
            };
            let limits = Limits::count_to(20);
            for g in [&p.puzzle, &fewer] {
                let a = with.solve(&p.units, g, &limits).unwrap().outcome;
                let b = without.solve(&p.units, g, &limits).unwrap().outcome;
                assert_eq!(
                    (a.status(), a.count()),
                    (b.status(), b.count()),
                    "{}",
                    p.name
                );
                for s in a.grids().chain(b.grids()) {
                    verify(&p.units, g, s).unwrap();
                }
            }
        }
    }

    #[test]
    fn clash_and_shape_mismatch() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let mut g = Grid::empty(s);
        g.set(Cell::new(0), crate::grid::Digit::new(1));
        g.set(Cell::new(1), crate::grid::Digit::new(1));
        for b in all_backends() {
            let r = b.solve(&units, &g, &Limits::unique()).unwrap();
            assert_eq!(r.outcome.status(), Status::None, "{b:?}");
        }
        let other = Grid::empty(Shape::new(2, 3).unwrap());
        assert!(matches!(
            SatBackend::default().solve(&units, &other, &Limits::first()),
            Err(SolveError::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn too_large_is_refused_with_a_hint() {
        let s = Shape::new(8, 8).unwrap();
        let units = Units::standard(s);
        let b = SatBackend::new(Encoding::Extended, Amo::Pairwise);
        let e = b
            .solve(&units, &Grid::empty(s), &Limits::first())
            .unwrap_err();
        assert!(
            matches!(e, SolveError::FormulaTooLarge { n: 64, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("--amo auto"));
    }

    /// The default configuration (extended formula kept loaded, givens as units) and the pruned
    /// formula built per puzzle agree on every status and count, with verified answers.
    #[test]
    fn loaded_base_agrees_with_the_pruned_formula() {
        let files = [
            include_str!("../../fixtures/forum-hardest-1905-11plus-head200.txt"),
            include_str!("../../fixtures/serg-benchmark-head200.txt"),
            include_str!("../../fixtures/top95.txt"),
        ];
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let puzzles = files.iter().flat_map(|f| {
            f.lines()
                .filter(|l| !l.starts_with('#') && l.trim().len() >= 81)
                .take(40)
        });
        for (i, line) in puzzles.enumerate() {
            let puzzle = crate::testing::grid(s, &line[..81]);
            for simplify in [Simplify::Propagate, Simplify::Probe] {
                let with = SatBackend::default().with_simplify(simplify);
                let without = SatBackend {
                    base: false,
                    ..with
                };
                for limits in [Limits::unique(), Limits::count_to(3)] {
                    let a = with.solve(&units, &puzzle, &limits).unwrap().outcome;
                    let b = without.solve(&units, &puzzle, &limits).unwrap().outcome;
                    assert_eq!(a.status(), b.status(), "puzzle {i} {simplify}");
                    assert_eq!(a.count(), b.count(), "puzzle {i} {simplify}");
                    for g in a.grids().chain(b.grids()) {
                        verify(&units, &puzzle, g).unwrap();
                    }
                }
            }
        }
    }

    /// Over the empty 9x9 grid's extended formula every unit's at-least-one clause has 9 literals:
    /// all 243 are left out when allowed, and nothing else is.
    #[test]
    fn long_unit_alo_clauses_are_left_out() {
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let mut f = Formula::new();
        encode(
            &units,
            &Grid::empty(s),
            Encoding::Extended,
            Amo::Pairwise,
            &mut f,
        )
        .unwrap();
        assert_eq!(f.len(), 11988);
        let all = varisat_order(&units, &f, &CellVars::fixed(units.shape()), false);
        let kept = varisat_order(&units, &f, &CellVars::fixed(units.shape()), true);
        assert_eq!(all.len(), 11988);
        assert_eq!(kept.len(), 11988 - 243);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert!(sorted.iter().copied().eq(0..f.len()));
        assert!(kept.iter().all(|&i| {
            let c = f.clause(i);
            c.len() == 2
                || c.iter()
                    .all(|l| l.var().index() / 9 == c[0].var().index() / 9)
        }));
    }

    /// With givens taken away from hard puzzles (so that long unit clauses remain and there are
    /// several solutions), the default configuration, which leaves the long unit at-least-one
    /// clauses out, counts as many solutions as varisat on the whole extended formula (all of
    /// them: fewer than the limit), and those it keeps are valid.
    #[test]
    fn leaving_long_unit_clauses_out_keeps_every_solution() {
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let reference =
            SatBackend::new(Encoding::Extended, Amo::Pairwise).with_simplify(Simplify::None);
        let lines = include_str!("../../fixtures/forum-hardest-1905-11plus-head200.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && l.trim().len() >= 81);
        let mut several = 0;
        for (i, line) in lines.take(6).enumerate() {
            let mut v = crate::testing::grid(s, &line[..81]).values().to_vec();
            // Blank the first given.
            if let Some(cell) = (0..81).find(|&c| v[c] != 0) {
                v[cell] = 0;
            }
            let puzzle = Grid::from_values(s, v).unwrap();
            let limits = Limits::count_to(1000);
            let want = reference.solve(&units, &puzzle, &limits).unwrap().outcome;
            let got = SatBackend::default()
                .solve(&units, &puzzle, &limits)
                .unwrap()
                .outcome;
            assert_eq!(got.status(), want.status(), "puzzle {i}");
            assert_eq!(got.count(), want.count(), "puzzle {i}");
            assert!(
                matches!(
                    got,
                    Outcome::Unique(_) | Outcome::Multiple { complete: true, .. }
                ),
                "puzzle {i}: {got:?}"
            );
            for g in got.grids() {
                verify(&units, &puzzle, g).unwrap();
            }
            several += usize::from(got.count() > 1);
        }
        // 2 to 313 solutions each.
        assert_eq!(several, 6);
    }

    #[test]
    fn past_deadline_is_unknown_unless_propagation_decides() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let limits = Limits::unique().with_timeout(Some(std::time::Duration::ZERO));
        for solver in SatSolver::available() {
            let b = SatBackend::default().with_solver(solver).unwrap();
            let r = b.solve(&units, &Grid::empty(s), &limits).unwrap();
            assert_eq!(r.outcome.status(), Status::Unknown);
            assert_eq!(r.stats.nodes, 0);
            // One blank cell: propagation settles it before any deadline check.
            let mut g =
                Grid::from_values(s, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
            let full = g.clone();
            g.set(crate::grid::Cell::new(5), None);
            let r = b.solve(&units, &g, &limits).unwrap();
            assert_eq!(r.outcome, Outcome::Unique(full));
        }
    }

    /// A deadline in the middle of a search stops either solver: the empty 9x9 grid counted to a
    /// million would take minutes; with a 100 ms timeout the answer is unknown, with the count
    /// reached so far, well within a second.
    #[test]
    fn a_deadline_stops_a_long_count() {
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let limits =
            Limits::count_to(1_000_000).with_timeout(Some(std::time::Duration::from_millis(100)));
        for solver in SatSolver::available() {
            let b = SatBackend::default().with_solver(solver).unwrap();
            let start = Instant::now();
            let r = b.solve(&units, &Grid::empty(s), &limits).unwrap();
            assert!(
                matches!(r.outcome, Outcome::Unknown { count, first: Some(_) } if count > 0),
                "{solver}: {:?}",
                r.outcome.status()
            );
            assert!(r.outcome.count() < 1_000_000);
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "{solver}"
            );
        }
    }

    /// A stop flag set in the middle of a search stops either solver without any deadline (the
    /// CLI's single-job run and the Python batches watch Ctrl-C that way): the empty 9x9 grid
    /// counted to a million, stopped from another thread once it has begun, is unknown with the
    /// count reached so far.
    #[test]
    fn a_stop_flag_stops_a_long_count_without_a_deadline() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let limits = Limits::count_to(1_000_000);
        assert_eq!(limits.deadline(Instant::now()), None);
        for solver in SatSolver::available() {
            let b = SatBackend::default().with_solver(solver).unwrap();
            let flag = Arc::new(AtomicBool::new(false));
            let setter = {
                let flag = Arc::clone(&flag);
                std::thread::spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    flag.store(true, Ordering::Relaxed);
                })
            };
            let r = crate::solve::stop_when(&flag, || b.solve(&units, &Grid::empty(s), &limits));
            setter.join().unwrap();
            let r = r.unwrap();
            assert!(
                matches!(r.outcome, Outcome::Unknown { count, .. } if count < 1_000_000),
                "{solver}: {:?} {}",
                r.outcome.status(),
                r.outcome.count()
            );
        }
    }

    /// A solve asked to stop before it starts (Ctrl-C in a batch of giant grids) neither
    /// simplifies nor starts a solver: its formula is left as `--simplify none` leaves it, and it
    /// answers unknown at once. Simplifying and loading a 225x225 grid took seconds without a look
    /// at the flag.
    #[test]
    fn a_stop_before_simplification_skips_it_and_the_solver() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let shape = Shape::new(5, 5).unwrap();
        let units = Units::standard(shape);
        let mut puzzle = Grid::empty(shape);
        // The first row but its last cell: propagation fills it in.
        for i in 0..24 {
            puzzle.set(Cell::new(i), Digit::new(i as u16 + 1));
        }
        let limits = Limits::first().with_timeout(Some(std::time::Duration::from_secs(3600)));
        let plain = SatBackend::default().with_simplify(Simplify::None);
        let unsimplified = plain.solve(&units, &puzzle, &limits).unwrap().stats.clauses;
        let normal = SatBackend::default()
            .solve(&units, &puzzle, &limits)
            .unwrap();
        assert_eq!(normal.outcome.status(), Status::Solved);
        assert!(
            normal.stats.clauses < unsimplified,
            "{} {unsimplified}",
            normal.stats.clauses
        );
        let flag = Arc::new(AtomicBool::new(true));
        let runs = SIMPLIFIER_RUNS.with(|n| n.get());
        let stopped = crate::solve::stop_when(&flag, || {
            SatBackend::default()
                .solve(&units, &puzzle, &limits)
                .unwrap()
        });
        assert_eq!(
            SIMPLIFIER_RUNS.with(|n| n.get()),
            runs,
            "simplified after the stop"
        );
        assert_eq!(stopped.outcome.status(), Status::Unknown);
        assert_eq!(stopped.stats.clauses, unsimplified);
        assert_eq!(stopped.stats.nodes, 0);
    }

    /// CaDiCaL stops at the conflict budget: a hard 9x9 (Platinum Blonde, which needs search)
    /// with a budget of 1 conflict is unknown, without a budget unique; varisat ignores the
    /// budget.
    #[test]
    fn the_conflict_budget_applies_to_solvers_with_a_conflict_limit() {
        let puzzle =
            crate::testing::grid(Shape::new(3, 3).unwrap(), crate::testing::PLATINUM_BLONDE);
        let units = Units::standard(puzzle.shape());
        for solver in SatSolver::available() {
            let b = SatBackend::default()
                .with_simplify(Simplify::None)
                .with_solver(solver)
                .unwrap();
            let tight = Limits::unique().with_budget(Some(1));
            let r = b.solve(&units, &puzzle, &tight).unwrap();
            let free = b.solve(&units, &puzzle, &Limits::unique()).unwrap();
            assert_eq!(free.outcome.status(), Status::Unique, "{solver}");
            if solver.has_conflict_limit() {
                assert_eq!(r.outcome.status(), Status::Unknown, "{solver}");
                assert!(free.stats.conflicts > 1, "{solver}");
            } else {
                assert_eq!(r.outcome.status(), Status::Unique, "{solver}");
            }
        }
    }

    /// A progress display watching the thread (WorkCounters) sees every conflict of the solver
    /// that counts them (CaDiCaL: live while it searches, the rest when a call returns), once.
    #[test]
    fn work_counters_see_each_conflict_once() {
        let s = Shape::new(4, 4).unwrap();
        let units = Units::standard(s);
        for solver in SatSolver::available() {
            let b = SatBackend::default()
                .with_simplify(Simplify::None)
                .with_solver(solver)
                .unwrap();
            let counters = crate::WorkCounters::default();
            counters.count_on_this_thread();
            let r = b
                .solve(&units, &Grid::empty(s), &Limits::count_to(300))
                .unwrap();
            crate::WorkCounters::stop_counting_on_this_thread();
            assert_eq!(counters.conflicts(), r.stats.conflicts, "{solver}");
            if solver.has_conflict_limit() {
                assert!(r.stats.conflicts > 0, "{solver}");
            }
        }
    }

    /// Counting keeps two grids and a count (issue 13): every solution goes through
    /// [`Solutions::add_with`], which builds only the first two grids; here the count of the empty
    /// 4x4 (all 288 grids, the known number) and of the empty 6x6 (up to a limit of 2,000; it has
    /// 28,200) reaches far past two, and the outcome carries exactly two different verified grids.
    #[test]
    fn counting_keeps_two_grids() {
        for (r, c, limit, count, complete) in
            [(2, 2, 1_000_000, 288u64, true), (2, 3, 2_000, 2_000, false)]
        {
            let s = Shape::new(r, c).unwrap();
            let units = Units::standard(s);
            let b = SatBackend::default();
            let out = b
                .solve(&units, &Grid::empty(s), &Limits::count_to(limit))
                .unwrap()
                .outcome;
            match &out {
                Outcome::Multiple {
                    solutions,
                    count: k,
                    complete: c,
                } => {
                    assert_eq!((*k, *c), (count, complete), "{s}");
                    assert_ne!(solutions[0], solutions[1]);
                }
                o => panic!("{s}: {:?}", o.status()),
            }
            assert_eq!(out.grids().count(), 2);
            for g in out.grids() {
                verify(&units, &Grid::empty(s), g).unwrap();
            }
        }
    }
}
