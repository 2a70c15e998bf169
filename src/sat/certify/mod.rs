//! Certificates for `unique` and `none`: clauses of the plain CNF of a puzzle (with, for `unique`,
//! the clause that excludes the solution) and a DRAT proof that they are unsatisfiable, checked
//! here by a checker of our own and checkable by anyone with a standard DRAT checker
//! (`rate p.cnf p.drat`).

mod checker;
mod dimacs_in;
mod subset;

use std::cell::RefCell;
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use thiserror::Error;

pub use self::checker::CheckError;
use self::checker::{Checker, Reason};
use crate::grid::{Cell, Grid, Shape};
use crate::sat::backend::{CLAUSE_BUDGET, Proved, SatBackend, Settlement};
use crate::sat::dimacs::{givens_string, rules_comments};
use crate::sat::encode::{Amo, Encoding, encode};
use crate::sat::lit::Lit;
use crate::sat::proof::{Proof, push_dimacs};
use crate::sat::sink::{ClauseSink, Formula};
use crate::sat::solver::{SatSolver, SolverUnavailable};
use crate::sat::vars::{cell_lit, cell_var_count};
use crate::solve::{Certification, Evidence, Limits, Outcome, Report, Stats, Status};
use crate::units::Units;
use crate::verify::{Violation, verify};

/// Makes [`Certificate`]s: which solver writes the proof, and within which limits.
///
/// ```
/// use satdoku::sat::Certifier;
/// use satdoku::{Backend, DfsBackend, Grid, Limits, Shape, Units};
///
/// let shape = Shape::new(2, 2).unwrap();
/// let puzzle = Grid::from_values(shape, vec![
///     1, 0, 3, 4,
///     3, 4, 0, 2,
///     2, 1, 4, 0,
///     0, 3, 2, 1,
/// ]).unwrap(); // unique: each blank is the one digit its row lacks
/// let units = Units::standard(shape);
/// let outcome = DfsBackend::new().solve(&units, &puzzle, &Limits::unique()).unwrap().outcome;
/// let certificate = Certifier::new().certify(&units, &puzzle, &outcome).unwrap();
/// certificate.check().unwrap(); // our own DRAT checker
/// let (mut cnf, mut drat) = (Vec::new(), Vec::new());
/// certificate.write_cnf(&mut cnf).unwrap();
/// certificate.write_drat(&mut drat).unwrap();
/// satdoku::sat::check_drat(&cnf, &drat).unwrap(); // the same, from the files' bytes
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Certifier {
    solver: SatSolver,
    limits: Limits,
}

/// Why no certificate was made.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum CertifyError {
    /// The outcome is neither `unique` nor `none`: there is nothing to certify.
    #[error("only unique and none can be certified, not {}", status.word())]
    NotSettled {
        /// The outcome's status.
        status: Status,
    },
    /// The puzzle and the unit list are for different shapes.
    #[error("puzzle shape {puzzle} does not match unit list shape {units}")]
    ShapeMismatch {
        /// The puzzle's shape.
        puzzle: Shape,
        /// The unit list's shape.
        units: Shape,
    },
    /// The claimed unique solution is not a solution of the puzzle.
    #[error("the claimed solution is invalid: {violation}")]
    InvalidSolution {
        /// The first rule it breaks.
        violation: Violation,
    },
    /// The claim is false: the solver found a solution where none was claimed, or a second one.
    #[error("the claim is false: {} exists", if *.other { "another solution" } else { "a solution" })]
    Refuted {
        /// A solution (different from the claimed one), verified.
        solution: Box<Grid>,
        /// Whether a unique solution was claimed (so this is a second one).
        other: bool,
    },
    /// The timeout or the conflict budget ran out before the proof was complete.
    #[error("no proof within the limits")]
    Unknown,
    /// The plain encoding of this grid is larger than the SAT backend builds.
    #[error(
        "the certificate's CNF (extended encoding, pairwise) of {n}x{n} grids has {clauses} clauses, over the budget of {budget}"
    )]
    TooLarge {
        /// Grid side.
        n: usize,
        /// Clauses of the plain encoding.
        clauses: u64,
        /// The budget.
        budget: u64,
    },
}

/// Certificates' CNFs of more clauses than this are checked in their reduced form
/// ([`Checker::reduced`]).
const REDUCE_FROM: usize = 100_000;

/// Whether the proof of a certificate of `base` is checked in the reduced form: on large
/// formulas, the lemmas against the plain CNF as its givens leave it (equivalent, far smaller):
/// 20 % less checking on hard 25x25 puzzles; building it costs more than it saves at 9x9
/// (BENCHMARKS.md), and more than it saves for a proof of one step (the empty clause, which the
/// givens' propagation already refutes: most unique 25x25 puzzles).
fn reduced_check(base: &Base, proof: &Proof) -> bool {
    base.formula.len() > REDUCE_FROM && proof.len() > 1
}

/// The plain encoding of the empty grid of one unit list (extended, pairwise), shared by the
/// certificates of its puzzles: the clauses and their DIMACS text.
#[derive(Debug)]
struct Base {
    units_id: u64,
    shape: Shape,
    unit_count: usize,
    /// The largest variable: N³, or more under cages (their auxiliary variables).
    max_var: usize,
    /// The rules beside the units, as comment lines (empty for the standard rules).
    rules: String,
    formula: Formula,
    /// The formula's DIMACS text, and where each clause's line ends in it: a certificate's kept
    /// clauses are copied from it in runs. Made with the base when it has at most
    /// [`PRERENDERED_CLAUSES`] clauses; a larger one (750,000 on 25x25, most of which no
    /// certificate keeps) writes its first [`WRITTEN_BEFORE_TEXT`] certificates clause by clause
    /// and makes the text only then, so that one puzzle does not pay for rendering all of it.
    text: OnceLock<(Vec<u8>, Vec<u32>)>,
    /// Certificates written with this base.
    written: AtomicU64,
    /// The formula indexed for choosing a certificate's clauses.
    index: subset::Index,
    /// The formula's unit clauses (cages' encodings have some; the standard rules none), which a
    /// checker adds after each reset.
    unit_clauses: Vec<u32>,
    /// The formula's clauses, sorted, for checking that a CNF's are among them (made when first
    /// needed).
    members: OnceLock<HashSet<Box<[Lit]>>>,
}

/// The next certificate's id.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The base of the last unit list certified on this thread.
    static BASE: RefCell<Option<Arc<Base>>> = const { RefCell::new(None) };
    /// A checker with a base loaded, reset for each certificate.
    static CHECKER: RefCell<Option<Loaded>> = const { RefCell::new(None) };
    /// The assignment of the last choice of a certificate's clauses.
    static SUBSET: RefCell<subset::Scratch> = RefCell::new(subset::Scratch::default());
}

fn base_for(units: &Units) -> Arc<Base> {
    BASE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if let Some(b) = &*slot
            && b.units_id == units.id()
        {
            return Arc::clone(b);
        }
        let mut formula = Formula::new();
        // An empty grid of the unit list's own shape, and the default cage encoding (the one the
        // proof's solve uses): encoding cannot fail.
        let max_var = encode(
            units,
            &Grid::empty(units.shape()),
            Encoding::Extended,
            Amo::Pairwise,
            &mut formula,
        )
        .map_or(cell_var_count(units.shape()), |e| e.max_var);
        let text = OnceLock::new();
        if formula.len() <= PRERENDERED_CLAUSES {
            let _ = text.set(render(&formula));
        }
        let b = Arc::new(Base {
            units_id: units.id(),
            shape: units.shape(),
            unit_count: units.units().len(),
            max_var,
            rules: rules_comments(units, crate::sat::CageEncoding::default()),
            index: subset::Index::new(&formula, max_var),
            unit_clauses: (0..formula.len() as u32)
                .filter(|&i| formula.clause(i as usize).len() == 1)
                .collect(),
            formula,
            text,
            written: AtomicU64::new(0),
            members: OnceLock::new(),
        });
        *slot = Some(Arc::clone(&b));
        b
    })
}

/// Bases of at most this many clauses make their DIMACS text at once (9x9: 11,988; 16x16: about
/// 120,000).
const PRERENDERED_CLAUSES: usize = 200_000;

/// A larger base makes its DIMACS text after this many certificates (on 25x25 rendering the whole
/// formula costs about as much as rendering the kept clauses of 20-30 certificates one by one).
const WRITTEN_BEFORE_TEXT: u64 = 16;

/// `formula`'s DIMACS text and where each clause's line ends in it.
fn render(formula: &Formula) -> (Vec<u8>, Vec<u32>) {
    let mut text = Vec::with_capacity(formula.literal_count() * 8);
    let mut ends = Vec::with_capacity(formula.len());
    for c in formula.clauses() {
        for &l in c {
            push_dimacs(&mut text, l);
        }
        text.extend_from_slice(b"0\n");
        ends.push(text.len() as u32);
    }
    (text, ends)
}

/// Appends the lines of clauses `kept` (ascending) of a pre-rendered `text` whose lines end at
/// `ends`, runs of consecutive clauses at once.
fn copy_runs(out: &mut Vec<u8>, kept: &[u32], text: &[u8], ends: &[u32]) {
    let mut k = 0;
    while k < kept.len() {
        let first = kept[k] as usize;
        let mut last = first;
        while k + 1 < kept.len() && kept[k + 1] as usize == last + 1 {
            k += 1;
            last += 1;
        }
        k += 1;
        let start = if first == 0 {
            0
        } else {
            ends[first - 1] as usize
        };
        out.extend_from_slice(&text[start..ends[last] as usize]);
    }
}

/// A certificate: clauses of the plain CNF of a puzzle settled as `unique` or `none` and a DRAT
/// proof that they are unsatisfiable.
///
/// The plain CNF is the extended encoding (Lynce & Ouaknine 2006) with pairwise at-most-one over
/// the cell variables x(r, c, d) = r·N² + c·N + d (every (cell, digit) pair, nothing simplified
/// away), the givens as unit clauses, and for `unique` one more clause: that some cell holds
/// another digit than in the solution. Once [`Certificate::check`] has accepted the proof, the
/// certificate's CNF keeps, of the encoding of the empty grid, the clauses that check used (its
/// core: on 9x9 a fifth to a twentieth of the plain CNF), and its proof is the solver's trimmed to
/// the lemmas the check used; they refute each other by themselves ([`Checker::core`]). Before a
/// check, and where the check finds no core (a large formula whose proof is checked in reduced
/// form), it keeps the clauses that matter once the givens are known: the reason of each literal
/// that unit propagation of the givens assigns, and each clause that this assignment leaves
/// unsatisfied (an equivalent formula), with the solver's proof. Then the givens and the
/// excluding clause. Its clauses being clauses of the plain CNF, its refutation refutes the
/// plain CNF ([`check_certificate`] checks that they are). Unsatisfiable means no solution
/// (`none`), or none but the one given (`unique`: the solution itself is checked by
/// [`crate::verify`]). A DRAT checker needs nothing of ours: `rate p.cnf p.drat` or
/// `drat-trim p.cnf p.drat`.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// Made once per certificate (clones share it): which certificate a loaded checker holds.
    id: u64,
    base: Arc<Base>,
    puzzle: Grid,
    solution: Option<Grid>,
    /// The clauses of the base's formula in the CNF: set by the first accepted check that found
    /// its core, or else when first needed.
    kept: OnceLock<Kept>,
    /// The givens as unit clauses, then the excluding clause.
    extra: Formula,
    proof: Proof,
    solver: SatSolver,
}

impl Certifier {
    /// Proofs by varisat, without limits.
    pub fn new() -> Certifier {
        Certifier::default()
    }

    /// The same, with proofs written by `solver`.
    ///
    /// # Errors
    /// [`SolverUnavailable`] if `solver` is not compiled in.
    pub fn with_solver(self, solver: SatSolver) -> Result<Certifier, SolverUnavailable> {
        Ok(Certifier {
            solver: solver.require()?,
            ..self
        })
    }

    /// The same, with the timeout and conflict budget of `limits` for each certificate (the
    /// solution limit is not used; the budget applies to solvers with a conflict limit).
    pub fn with_limits(self, limits: Limits) -> Certifier {
        Certifier { limits, ..self }
    }

    /// The solver that writes the proofs.
    pub fn solver(&self) -> SatSolver {
        self.solver
    }

    /// The limits of each certificate.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A certificate for `outcome`, the claim that `puzzle` has exactly the solution it names
    /// ([`Outcome::Unique`]) or none ([`Outcome::NoSolution`]) — whoever found it. The claimed
    /// solution is verified; the proof is made by a fresh solve and is not checked here (see
    /// [`Certificate::check`]).
    ///
    /// # Errors
    /// [`CertifyError::NotSettled`] for any other outcome; [`CertifyError::Refuted`] if the claim
    /// is false (with the solution that shows it); [`CertifyError::InvalidSolution`],
    /// [`CertifyError::Unknown`] (limits), [`CertifyError::TooLarge`],
    /// [`CertifyError::ShapeMismatch`].
    pub fn certify(
        &self,
        units: &Units,
        puzzle: &Grid,
        outcome: &Outcome,
    ) -> Result<Certificate, CertifyError> {
        let solution = match outcome {
            Outcome::Unique(g) => Some(g),
            Outcome::NoSolution => None,
            other => {
                return Err(CertifyError::NotSettled {
                    status: other.status(),
                });
            }
        };
        match self.attempt(units, puzzle, solution)? {
            Attempt::Proof(certificate) => Ok(*certificate),
            Attempt::Solution(grid) => Err(CertifyError::Refuted {
                solution: grid,
                other: solution.is_some(),
            }),
        }
    }

    /// Answers the uniqueness question and certifies the answer in one proof-recording solve,
    /// given `first`, the answer to "a solution?" (solution limit 1): [`Outcome::Found`] or
    /// [`Outcome::NoSolution`]. For a solution `s`, the solve is over the plain formula and the
    /// clause excluding `s`: unsatisfiable makes `s` [`Outcome::Unique`], with its certificate;
    /// a model is a second solution, verified, and the answer [`Outcome::Multiple`] (count 2, not
    /// complete), without certificate. For no solution, the solve is over the plain formula alone
    /// and certifies [`Outcome::NoSolution`]. This is [`Certifier::certify`] with the second solve
    /// of a plain `--unique` answer left out: the certifying solve is that second solve.
    ///
    /// ```
    /// use satdoku::sat::Certifier;
    /// use satdoku::{Backend, Cell, DfsBackend, Grid, Limits, Shape, Status, Units};
    ///
    /// let shape = Shape::new(2, 2).unwrap();
    /// let units = Units::standard(shape);
    /// let first = |puzzle: &Grid| DfsBackend::new().solve(&units, puzzle, &Limits::first()).unwrap().outcome;
    ///
    /// let empty = Grid::empty(shape); // many solutions: the certifying solve finds a second one
    /// let settled = Certifier::new().settle(&units, &empty, &first(&empty)).unwrap();
    /// assert_eq!(settled.outcome.status(), Status::Multiple);
    /// assert!(settled.certificate.is_none());
    ///
    /// let mut puzzle = settled.outcome.grids().next().unwrap().clone();
    /// puzzle.set(Cell::new(0), None); // one blank: unique
    /// let settled = Certifier::new().settle(&units, &puzzle, &first(&puzzle)).unwrap();
    /// assert_eq!(settled.outcome.status(), Status::Unique);
    /// settled.certificate.unwrap().check().unwrap();
    /// ```
    ///
    /// # Errors
    /// [`CertifyError::NotSettled`] if `first` is neither `Found` nor `NoSolution`;
    /// [`CertifyError::Refuted`] if `first` is `NoSolution` and the solve finds a solution (verified);
    /// [`CertifyError::InvalidSolution`] if the found grid is not a solution;
    /// [`CertifyError::Unknown`] (limits, or a model that fails verification: then the uniqueness
    /// question is not answered), [`CertifyError::TooLarge`] (before any solving; see
    /// [`Certifier::fits`]), [`CertifyError::ShapeMismatch`].
    pub fn settle(
        &self,
        units: &Units,
        puzzle: &Grid,
        first: &Outcome,
    ) -> Result<Settled, CertifyError> {
        let found = match first {
            Outcome::Found(g) => Some(g),
            Outcome::NoSolution => None,
            other => {
                return Err(CertifyError::NotSettled {
                    status: other.status(),
                });
            }
        };
        match (self.attempt(units, puzzle, found)?, found) {
            (Attempt::Proof(certificate), Some(s)) => Ok(Settled {
                outcome: Outcome::Unique(s.clone()),
                certificate: Some(*certificate),
                uncertified: None,
                stats: Stats::default(),
            }),
            (Attempt::Proof(certificate), None) => Ok(Settled {
                outcome: Outcome::NoSolution,
                certificate: Some(*certificate),
                uncertified: None,
                stats: Stats::default(),
            }),
            // The blocking clause rules the first grid out; a solver that returns it anyway has a
            // bug, and the question stays open.
            (Attempt::Solution(second), Some(s)) if *second == *s => Err(CertifyError::Unknown),
            (Attempt::Solution(second), Some(s)) => Ok(Settled {
                outcome: Outcome::Multiple {
                    solutions: [Box::new(s.clone()), second],
                    count: 2,
                    complete: false,
                },
                certificate: None,
                uncertified: None,
                stats: Stats::default(),
            }),
            (Attempt::Solution(grid), None) => Err(CertifyError::Refuted {
                solution: grid,
                other: false,
            }),
        }
    }

    /// Answers the uniqueness question about `puzzle` and certifies a `unique` or `none` answer,
    /// the cheapest way we know (one simplification): a first solve, the cheap second solve of a
    /// plain `--unique` answer (the same solver with the first solution blocked, within a few
    /// conflicts), and only if that finds no second solution, the proof over the plain formula
    /// and the clause excluding the first solution. So a puzzle with several solutions pays no
    /// proof. On CaDiCaL, whose proof tracer records from the first solve on, the proof is that
    /// solver's: its second solve goes on past the few conflicts (a unique puzzle pays no other
    /// solve, only the recording); on varisat, whose DRAT output needs a fresh solver given every
    /// clause first, it is one proof-recording solve more.
    ///
    /// The outcome is [`Outcome::Unique`], [`Outcome::NoSolution`], [`Outcome::Multiple`] (count
    /// 2, not complete) or, when a limit ran out, [`Outcome::Unknown`] (with the first solution if
    /// one was found); every grid in it verified. A `unique` or `none` answer comes with its
    /// certificate, or with [`Settled::uncertified`] saying why not (the proof ran out of limits
    /// after the plain solves had settled the question).
    ///
    /// ```
    /// use satdoku::sat::Certifier;
    /// use satdoku::{Cell, Grid, Shape, Status, Units};
    ///
    /// let shape = Shape::new(2, 2).unwrap();
    /// let units = Units::standard(shape);
    /// let settled = Certifier::new().solve_unique(&units, &Grid::empty(shape)).unwrap();
    /// assert_eq!(settled.outcome.status(), Status::Multiple);
    /// assert!(settled.certificate.is_none());
    ///
    /// let mut puzzle = settled.outcome.grids().next().unwrap().clone();
    /// puzzle.set(Cell::new(0), None); // one blank: unique
    /// let settled = Certifier::new().solve_unique(&units, &puzzle).unwrap();
    /// assert_eq!(settled.outcome.status(), Status::Unique);
    /// settled.certificate.unwrap().check().unwrap();
    /// ```
    ///
    /// # Errors
    /// Before any solving: [`CertifyError::TooLarge`], [`CertifyError::ShapeMismatch`]. After:
    /// [`CertifyError::InvalidSolution`] if a solver's grid is not a solution (a bug), and
    /// [`CertifyError::Refuted`] if the proof-recording solve finds a solution where the plain
    /// solve found none (a bug in one of them).
    pub fn solve_unique(&self, units: &Units, puzzle: &Grid) -> Result<Settled, CertifyError> {
        self.fits(units, puzzle)?;
        let (backend, first_fresh) = self.backend(units);
        let checked = |g: &Grid| {
            verify(units, puzzle, g)
                .map_err(|violation| CertifyError::InvalidSolution { violation })
        };
        let (settlement, stats) = backend.settle(units, puzzle, &self.limits, first_fresh);
        let settled = |outcome, certificate, uncertified| Settled {
            outcome,
            certificate,
            uncertified,
            stats,
        };
        Ok(match settlement {
            Settlement::NoSolution(Proved::Refutation(proof)) => settled(
                Outcome::NoSolution,
                Some(self.certificate(units, puzzle, None, proof)),
                None,
            ),
            Settlement::NoSolution(Proved::Unknown) => {
                settled(Outcome::NoSolution, None, Some(CertifyError::Unknown))
            }
            Settlement::NoSolution(Proved::Solution(grid)) => {
                checked(&grid)?;
                return Err(CertifyError::Refuted {
                    solution: grid,
                    other: false,
                });
            }
            Settlement::Unique(grid, proved, known) => {
                checked(&grid)?;
                match proved {
                    Proved::Refutation(proof) => {
                        let certificate = self.certificate(units, puzzle, Some(&grid), proof);
                        settled(Outcome::Unique(*grid), Some(certificate), None)
                    }
                    Proved::Unknown if known => {
                        settled(Outcome::Unique(*grid), None, Some(CertifyError::Unknown))
                    }
                    // Neither the warm solve nor the proof settled it.
                    Proved::Unknown => settled(
                        Outcome::Unknown {
                            count: 1,
                            first: Some(grid),
                        },
                        None,
                        None,
                    ),
                    Proved::Solution(_) => unreachable!("a second solution is Multiple"),
                }
            }
            Settlement::Multiple(first, second) => {
                checked(&first)?;
                checked(&second)?;
                if first == second {
                    // A solver returned the grid its clauses exclude: a bug, the question open.
                    return Err(CertifyError::Unknown);
                }
                settled(
                    Outcome::Multiple {
                        solutions: [first, second],
                        count: 2,
                        complete: false,
                    },
                    None,
                    None,
                )
            }
            Settlement::Unknown(first) => {
                if let Some(g) = &first {
                    checked(g)?;
                }
                settled(
                    Outcome::Unknown {
                        count: first.is_some() as u64,
                        first,
                    },
                    None,
                    None,
                )
            }
        })
    }

    /// Whether a certificate of `puzzle` can be attempted: the shapes match and the plain CNF is
    /// within the clause budget (checked before any solving by [`Certifier::certify`] and
    /// [`Certifier::settle`]).
    ///
    /// # Errors
    /// [`CertifyError::ShapeMismatch`], [`CertifyError::TooLarge`].
    pub fn fits(&self, units: &Units, puzzle: &Grid) -> Result<(), CertifyError> {
        if puzzle.shape() != units.shape() {
            return Err(CertifyError::ShapeMismatch {
                puzzle: puzzle.shape(),
                units: units.shape(),
            });
        }
        let clauses = match Encoding::Extended.predicted_size(units, Amo::Pairwise, puzzle.filled())
        {
            Some(p) => p.clauses,
            // Under cages: count them.
            None => {
                let mut stats = crate::sat::sink::FormulaStats::new();
                match encode(units, puzzle, Encoding::Extended, Amo::Pairwise, &mut stats) {
                    Ok(_) => stats.clauses,
                    Err(_) => u64::MAX,
                }
            }
        };
        if clauses > CLAUSE_BUDGET {
            return Err(CertifyError::TooLarge {
                n: units.shape().n(),
                clauses,
                budget: CLAUSE_BUDGET,
            });
        }
        Ok(())
    }

    /// One proof-recording solve of the plain formula of `puzzle` with, if `solution` is given
    /// (verified first), the clause that excludes it: a certificate (the proof not yet checked),
    /// or a verified solution that shows the formula satisfiable.
    fn attempt(
        &self,
        units: &Units,
        puzzle: &Grid,
        solution: Option<&Grid>,
    ) -> Result<Attempt, CertifyError> {
        self.fits(units, puzzle)?;
        if let Some(s) = solution {
            verify(units, puzzle, s)
                .map_err(|violation| CertifyError::InvalidSolution { violation })?;
        }
        let (backend, first_fresh) = self.backend(units);
        let proof = match backend.prove(units, puzzle, solution, &self.limits, first_fresh) {
            Proved::Refutation(proof) => proof,
            Proved::Unknown => return Err(CertifyError::Unknown),
            Proved::Solution(grid) => {
                // The formula is satisfiable, provided the solver's grid is right.
                return match verify(units, puzzle, &grid) {
                    Ok(()) => Ok(Attempt::Solution(grid)),
                    // A wrong model: no certificate, and no claim refuted either.
                    Err(_) => Err(CertifyError::Unknown),
                };
            }
        };
        Ok(Attempt::Proof(Box::new(
            self.certificate(units, puzzle, solution, proof),
        )))
    }

    /// The SAT backend that makes the proofs, and the first variable (1-based) its proofs may
    /// introduce.
    fn backend(&self, units: &Units) -> (SatBackend, usize) {
        // Pairwise at-most-one: the proof may mention no auxiliary variable (the certificate's plain
        // CNF has none).
        let backend = SatBackend::new(Encoding::Pruned, Amo::Pairwise).with_solver(self.solver);
        // A certifier is only built with a solver compiled in.
        (backend.unwrap_or_default(), base_for(units).max_var + 1)
    }

    /// The certificate of `puzzle` (with `solution` excluded, if given) whose proof is `proof`.
    fn certificate(
        &self,
        units: &Units,
        puzzle: &Grid,
        solution: Option<&Grid>,
        proof: Proof,
    ) -> Certificate {
        let n = units.shape().n();
        let mut extra = Formula::new();
        for i in 0..units.shape().cells() {
            let cell = Cell::new(i);
            if let Some(d) = puzzle.get(cell) {
                extra.add_clause(&[cell_lit(n, cell, d)]);
            }
        }
        let base = base_for(units);
        if let Some(s) = solution {
            // Over every cell, givens included (their literals are false by the unit clauses), so
            // that it is never empty: `rate` 0.3 does not take an empty clause in the CNF.
            let clause: Vec<Lit> = (0..units.shape().cells())
                .map(Cell::new)
                .filter_map(|c| s.get(c).map(|d| !cell_lit(n, c, d)))
                .collect();
            extra.add_clause(&clause);
        }
        let excluding = usize::from(solution.is_some());
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let kept = OnceLock::new();
        if reduced_check(&base, &proof) {
            // Checked in the reduced form, which finds no core: the clauses that matter, chosen
            // from the checker's propagation of the givens, which stays loaded for the check.
            let chosen = SUBSET.with(|cell| {
                let mut own = subset::Scratch::default();
                let mut borrowed = cell.try_borrow_mut();
                let scratch = match &mut borrowed {
                    Ok(s) => &mut **s,
                    Err(_) => &mut own,
                };
                CHECKER
                    .with(|c| {
                        let mut slot = c.try_borrow_mut().ok()?;
                        Loaded::for_base(&mut slot, &base)
                            .load_and_select(id, &base, &extra, excluding, scratch)
                    })
                    .unwrap_or_else(|| base.index.select(&givens(&extra, excluding), scratch))
            });
            let _ = kept.set(Kept::Equivalent(chosen));
        } else {
            // Loaded for the check ([`Certificate::check`]), which finds the clauses to keep.
            CHECKER.with(|c| {
                if let Ok(mut slot) = c.try_borrow_mut() {
                    let loaded = Loaded::for_base(&mut slot, &base);
                    loaded.load(&base, &extra);
                    loaded.ready = Some(id);
                }
            });
        }
        Certificate {
            id,
            base,
            puzzle: puzzle.clone(),
            solution: solution.cloned(),
            kept,
            extra,
            proof,
            solver: self.solver,
        }
    }
}

/// Which clauses of the base's formula a certificate's CNF holds (ascending indices), besides the
/// givens and the excluding clause.
#[derive(Clone, Debug)]
enum Kept {
    /// What our check of the proof used ([`Checker::core`]): an unsatisfiable part of the plain
    /// CNF (a few hundred clauses on 9x9), and the proof trimmed to the lemmas it checked.
    Core(Vec<u32>, Proof),
    /// Those that matter once the givens are known ([`subset`]): an equivalent formula. For a
    /// large formula whose proof is checked in its reduced form, or a certificate written before
    /// it was checked.
    Equivalent(Vec<u32>),
}

impl Kept {
    fn clauses(&self) -> &[u32] {
        match self {
            Kept::Core(k, _) | Kept::Equivalent(k) => k,
        }
    }
}

/// The givens' literals of a certificate's `extra` clauses (the givens' unit clauses, then
/// `excluding` excluding clauses).
fn givens(extra: &Formula, excluding: usize) -> Vec<Lit> {
    extra
        .clauses()
        .take(extra.len() - excluding)
        .filter_map(|c| c.first().copied())
        .collect()
}

/// What one proof-recording solve gave: a certificate, or a (verified) solution.
enum Attempt {
    Proof(Box<Certificate>),
    Solution(Box<Grid>),
}

/// The answer to the uniqueness question that [`Certifier::settle`] found, and its certificate
/// (for `unique` and `none`; the proof not yet checked, see [`Certificate::check`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Settled {
    /// [`Outcome::Unique`], [`Outcome::Multiple`] (count 2, not complete) or
    /// [`Outcome::NoSolution`]; every grid in it verified.
    pub outcome: Outcome,
    /// The certificate of a `unique` or `none` outcome; `None` for `multiple`.
    pub certificate: Option<Certificate>,
    /// Why a `unique` or `none` outcome has no certificate ([`Certifier::solve_unique`] only).
    pub uncertified: Option<CertifyError>,
    /// The work of the solves that settled it ([`Certifier::solve_unique`] only; zero otherwise).
    pub stats: Stats,
}

impl Settled {
    /// The answer as a [`Report`] that carries its certificate, or why a `unique` or `none` answer
    /// has none ([`Certification`]), so that it travels with the answer.
    pub fn into_report(self) -> Report {
        let certificate = match (self.certificate, self.uncertified) {
            (Some(c), _) => Some(Box::new(Certification::Made(Arc::new(c)))),
            (None, Some(why)) => Some(Box::new(Certification::Missing {
                solution: self.outcome.solution().cloned(),
                reason: why.to_string(),
            })),
            (None, None) => None,
        };
        Report {
            certificate,
            ..Report::new(self.outcome, self.stats)
        }
    }
}

impl Evidence for Certificate {
    /// Whether this certificate is of `puzzle` under `units` (the same unit list) and claims
    /// `outcome`: unique with the same solution, or none.
    fn proves(&self, units: &Units, puzzle: &Grid, outcome: &Outcome) -> bool {
        let claim = match outcome {
            Outcome::Unique(g) => Some(g),
            Outcome::NoSolution => None,
            _ => return false,
        };
        self.base.units_id == units.id() && self.puzzle == *puzzle && self.solution() == claim
    }

    fn check(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Ok(Certificate::check(self)?)
    }

    fn write_files(&self, dir: &Path, name: &str) -> io::Result<Vec<PathBuf>> {
        let (cnf, drat) = Certificate::write_files(self, dir, name)?;
        Ok(vec![cnf, drat])
    }
}

impl Certificate {
    /// What is certified: [`Status::Unique`] or [`Status::None`].
    pub fn status(&self) -> Status {
        if self.solution.is_some() {
            Status::Unique
        } else {
            Status::None
        }
    }

    /// The unique solution, for `unique`.
    pub fn solution(&self) -> Option<&Grid> {
        self.solution.as_ref()
    }

    /// The solver that wrote the proof.
    pub fn solver(&self) -> SatSolver {
        self.solver
    }

    /// Clauses in the CNF.
    pub fn clauses(&self) -> usize {
        self.kept().clauses().len() + self.extra.len()
    }

    /// Steps in the proof as written ([`Certificate::write_drat`]).
    pub fn lemmas(&self) -> usize {
        self.written_proof().len()
    }

    /// The proof [`Certificate::write_drat`] writes: trimmed by the check to what it used, with
    /// the CNF of what the check used; the solver's, with the CNF of the clauses that matter.
    fn written_proof(&self) -> &Proof {
        match self.kept() {
            Kept::Core(_, trimmed) => trimmed,
            Kept::Equivalent(_) => &self.proof,
        }
    }

    /// Checks the proof against the CNF with our own DRAT checker, which shares no code with the
    /// solvers: backward, as DRAT-trim does (Wetzler, Heule & Hunt 2014), checking by RUP or RAT
    /// the lemmas the refutation uses, from the last to the first; a lemma nothing uses is not
    /// checked (a proof with a wrong but unused lemma is accepted, by DRAT-trim and `rate` too).
    /// The CNF checked is the plain CNF (the encoding of the empty grid, loaded once per unit list,
    /// with the givens and the excluding clause). An accepted check records what it used, which
    /// [`Certificate::write_cnf`] and [`Certificate::write_drat`] then write (the first accepted
    /// check's, as the certificate is not changed afterwards): the clauses and the lemmas every
    /// derivation it accepted went through, a refutation by themselves. Where it finds none, they
    /// write the part of the plain CNF that matters, on which unit propagation makes the same
    /// deductions from any assignment (the clauses left out are satisfied by what the givens
    /// propagate), with the solver's proof. To check the files as written, [`check_certificate`].
    ///
    /// # Errors
    /// [`CheckError::Rejected`] naming the last used lemma that does not follow, or
    /// [`CheckError::Incomplete`].
    pub fn check(&self) -> Result<(), CheckError> {
        CHECKER.with(|cell| {
            let Ok(mut slot) = cell.try_borrow_mut() else {
                // Re-entered (cannot happen): a checker of its own.
                let mut own = Loaded::new(&self.base);
                own.load(&self.base, &self.extra);
                return self.check_with(&mut own.checker, &mut own.reduced);
            };
            let loaded = Loaded::for_base(&mut slot, &self.base);
            // Loaded with this CNF by `Certifier::certificate` and nothing checked since: the
            // state a reset and loading would give.
            if loaded.ready.take() != Some(self.id) {
                loaded.load(&self.base, &self.extra);
            }
            self.check_with(&mut loaded.checker, &mut loaded.reduced)?;
            if !reduced_check(&self.base, &self.proof)
                && self.kept.get().is_none()
                && let Some((core, trimmed)) = loaded.core()
            {
                let _ = self.kept.set(Kept::Core(core, trimmed));
            }
            Ok(())
        })
    }

    /// The clauses of the base's formula in the CNF: what the check used, once checked; before,
    /// those that matter once the givens are known (chosen now, and kept).
    fn kept(&self) -> &Kept {
        self.kept.get_or_init(|| {
            let givens = givens(&self.extra, usize::from(self.solution.is_some()));
            let chosen = SUBSET.with(|cell| match cell.try_borrow_mut() {
                Ok(mut s) => self.base.index.select(&givens, &mut s),
                Err(_) => self
                    .base
                    .index
                    .select(&givens, &mut subset::Scratch::default()),
            });
            Kept::Equivalent(chosen)
        })
    }

    /// [`Certificate::check`] on `checker` loaded with the CNF; `reduced` is reused for the
    /// reduced checker.
    fn check_with(&self, checker: &mut Checker, reduced: &mut Checker) -> Result<(), CheckError> {
        if reduced_check(&self.base, &self.proof) {
            checker.reduce_into(reduced);
            Ok(reduced.check(self.proof.steps())?)
        } else {
            Ok(checker.check(self.proof.steps())?)
        }
    }

    /// Writes the CNF in DIMACS, with comment lines saying what it is and how to check it.
    ///
    /// # Errors
    /// What writing to `out` returns.
    pub fn write_cnf<W: Write>(&self, mut out: W) -> io::Result<()> {
        // The comments and header, the base's text, the givens and the excluding clause: one
        // vectored write (one system call for a file), the base's text not copied.
        let mut w = Vec::with_capacity(1024);
        let kept = self.kept();
        let shape = self.base.shape;
        let n = shape.n();
        writeln!(
            w,
            "c satdoku {} certificate: {}",
            env!("CARGO_PKG_VERSION"),
            match self.status() {
                Status::Unique => "the puzzle has exactly the solution below",
                _ => "the puzzle has no solution",
            }
        )?;
        writeln!(
            w,
            "c this CNF is unsatisfiable; the DRAT proof beside it shows it (rate FILE.cnf FILE.drat)"
        )?;
        writeln!(
            w,
            "c encoding extended (Lynce & Ouaknine 2006), pairwise at-most-one: {} of the {} clauses of the empty grid's, then the givens as unit clauses{}",
            kept.clauses().len(),
            self.base.formula.len(),
            if self.solution.is_some() {
                ", then the clause excluding the solution"
            } else {
                ""
            }
        )?;
        match kept {
            Kept::Core(..) => writeln!(
                w,
                "c kept: the clauses our check of the proof used (the proof's core: they alone are unsatisfiable)"
            )?,
            Kept::Equivalent(_) => writeln!(
                w,
                "c kept: the clause that implied each literal unit propagation of the givens assigns, and each clause that assignment leaves unsatisfied (an equivalent CNF)"
            )?,
        }
        writeln!(
            w,
            "c each clause{} is one of the puzzle's plain CNF (satdoku encode --encoding extended --amo pairwise), so that one is unsatisfiable too",
            if self.solution.is_some() {
                " but the last"
            } else {
                ""
            }
        )?;
        writeln!(
            w,
            "c shape {shape} boxes, {n}x{n} grid, {} units",
            self.base.unit_count
        )?;
        writeln!(w, "c puzzle {}", givens_string(&self.puzzle))?;
        w.write_all(self.base.rules.as_bytes())?;
        if let Some(s) = &self.solution {
            writeln!(w, "c solution {}", givens_string(s))?;
        }
        writeln!(
            w,
            "c cell variable x(r,c,d) = r*{} + c*{n} + d for 0-based row r, column c and digit d in 1..{n}",
            n * n
        )?;
        writeln!(w, "p cnf {} {}", self.base.max_var, self.clauses())?;
        let mut extra = Vec::with_capacity(8 * self.extra.literal_count() + 4 * self.extra.len());
        for c in self.extra.clauses() {
            for &l in c {
                push_dimacs(&mut extra, l);
            }
            extra.extend_from_slice(b"0\n");
        }
        let kept = kept.clauses();
        let mut lines = Vec::with_capacity(16 * kept.len());
        let written = self.base.written.fetch_add(1, Ordering::Relaxed);
        let text = match self.base.text.get() {
            None if written >= WRITTEN_BEFORE_TEXT => {
                Some(self.base.text.get_or_init(|| render(&self.base.formula)))
            }
            text => text,
        };
        if let Some((text, ends)) = text {
            copy_runs(&mut lines, kept, text, ends);
        } else {
            for &i in kept {
                for &l in self.base.formula.clause(i as usize) {
                    push_dimacs(&mut lines, l);
                }
                lines.extend_from_slice(b"0\n");
            }
        }
        let mut parts = [
            io::IoSlice::new(&w),
            io::IoSlice::new(&lines),
            io::IoSlice::new(&extra),
        ];
        let mut parts = &mut parts[..];
        while !parts.is_empty() {
            match out.write_vectored(parts) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => io::IoSlice::advance_slices(&mut parts, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        out.flush()
    }

    /// Writes the proof as text DRAT (one lemma per line, ending with the empty clause).
    ///
    /// # Errors
    /// What writing to `out` returns.
    pub fn write_drat<W: Write>(&self, out: W) -> io::Result<()> {
        self.written_proof().write_text(out)
    }

    /// Writes `DIR/NAME.cnf` and `DIR/NAME.drat` and returns their paths. `name` is a file name
    /// chosen by the caller (no directory part).
    ///
    /// # Errors
    /// An I/O error, or [`io::ErrorKind::InvalidInput`] for a name that is empty, `.` or `..`, or
    /// holds a path separator.
    pub fn write_files(&self, dir: &Path, name: &str) -> io::Result<(PathBuf, PathBuf)> {
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("certificate name {name:?} is not a plain file name"),
            ));
        }
        let cnf = dir.join(format!("{name}.cnf"));
        let drat = dir.join(format!("{name}.drat"));
        self.write_cnf(File::create(&cnf)?)?;
        self.write_drat(File::create(&drat)?)?;
        Ok((cnf, drat))
    }
}

/// A checker with a base's plain CNF loaded and saved, but for its unit clauses (a saved base
/// assigns nothing; they are added after each reset).
#[derive(Debug)]
struct Loaded {
    /// The base (held, so that its address is never another base's while this lives).
    base: Arc<Base>,
    checker: Checker,
    /// Per clause stored in the saved base: its index in the base's formula.
    ids: Vec<u32>,
    /// Per literal code a, the checker's implications of a (the base's binary clauses (¬a ∨ m))
    /// as indices in the base's formula, flat: a's are `imp_ids[imp_start[a]..imp_start[a + 1]]`,
    /// in the checker's order; for the reasons [`Checker::add_units`] finds.
    imp_ids: Vec<u32>,
    imp_start: Vec<u32>,
    /// The certificate (its [`Certificate::id`]) whose clauses [`Loaded::load_and_select`] loaded
    /// on top of the base, when nothing was checked since.
    ready: Option<u64>,
    /// The reduced checker of the last check of a large formula, kept for its allocations
    /// ([`Checker::reduce_into`]).
    reduced: Checker,
    /// Scratch for [`Loaded::core`]: a bit per clause of the base.
    core_bits: Vec<u64>,
}

impl Loaded {
    fn new(base: &Arc<Base>) -> Loaded {
        let mut checker = Checker::new();
        let mut ids = Vec::new();
        // The binary clauses of two variables from the index's implication lists (sorted, so that
        // saving the base sorts them cheaply), the others one by one.
        let two_vars = |c: &[Lit]| matches!(*c, [a, b] if a.index() != b.index());
        for (i, c) in base.formula.clauses().enumerate() {
            if c.len() != 1 && !two_vars(c) {
                checker.add_clause(c);
                ids.resize(checker.stored(), i as u32);
            }
        }
        for code in 0..2 * (base.max_var + 1) {
            let a = Lit::from_code(code);
            checker.add_implications(a, base.index.implied_by(a).iter().map(|&(m, _)| m));
        }
        checker.save_base();
        // The checker's implications of a are the literals of the index's, each once, in the same
        // order (both ascending by code): the first clause of each.
        let codes = 2 * (base.max_var + 1);
        let mut imp_ids = Vec::with_capacity(base.formula.len() * 2);
        let mut imp_start = Vec::with_capacity(codes + 1);
        imp_start.push(0);
        for code in 0..codes {
            let a = Lit::from_code(code);
            let mut clauses = base.index.implied_by(a).iter().peekable();
            for &m in checker.implications(a) {
                while clauses.next_if(|&&(x, _)| x != m).is_some() {}
                // Always there (the same clauses); `u32::MAX` would send the lookup to the index.
                imp_ids.push(clauses.peek().map_or(u32::MAX, |&&(_, c)| c));
            }
            imp_start.push(imp_ids.len() as u32);
        }
        Loaded {
            base: Arc::clone(base),
            checker,
            ids,
            imp_ids,
            imp_start,
            ready: None,
            reduced: Checker::new(),
            core_bits: Vec::new(),
        }
    }

    /// The checker in `slot`, made for `base` unless it is.
    fn for_base<'a>(slot: &'a mut Option<Loaded>, base: &Arc<Base>) -> &'a mut Loaded {
        if slot.as_ref().is_none_or(|l| !Arc::ptr_eq(&l.base, base)) {
            *slot = Some(Loaded::new(base));
        }
        slot.as_mut().expect("just made")
    }

    /// Resets the checker to the base, then adds the base's unit clauses and `extra`.
    fn load(&mut self, base: &Base, extra: &Formula) {
        self.ready = None;
        self.checker.reset_to_base();
        let units = extra.clauses().take_while(|c| c.len() == 1).count();
        self.checker.add_units(
            base.unit_clauses
                .iter()
                .map(|&c| base.formula.clause(c as usize)[0])
                .chain(extra.clauses().take(units).map(|c| c[0])),
        );
        for c in extra.clauses().skip(units) {
            self.checker.add_clause(c);
        }
    }

    /// What the checker's last check used of the base's formula ([`Checker::core`]) as indices in
    /// it, ascending (the givens and the excluding clause are left out: a certificate writes them
    /// all); `None` if that check found none, or used a binary clause not the base's.
    fn core(&mut self) -> Option<(Vec<u32>, Proof)> {
        let saved = self.ids.len();
        let (base, ids) = (&self.base, &self.ids);
        let checker::Core {
            clauses: used,
            binaries,
            proof: trimmed,
        } = self.checker.core()?;
        // A bit per clause of the base (repeats are common: a binary reason met in many checks).
        let bits = &mut self.core_bits;
        bits.clear();
        bits.resize(base.formula.len().div_ceil(64), 0);
        let mut set = |i: u32| bits[i as usize / 64] |= 1 << (i % 64);
        for &c in used {
            let c = c as usize;
            if let Some(&i) = ids.get(c) {
                set(i);
            } else if let Some(&i) = base.unit_clauses.get(c - saved) {
                set(i);
            }
        }
        for &(x, y) in binaries {
            // (x ∨ y): y among what ¬x implies.
            set(base.index.binary_clause(!x, y)?);
        }
        let mut out = Vec::with_capacity(used.len() + binaries.len());
        for (w, &word) in bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                out.push((w * 64) as u32 + word.trailing_zeros());
                word &= word - 1;
            }
        }
        Some((out, trimmed))
    }

    /// Loads the CNF of certificate `id` (the base's unit clauses, `extra`: the givens, then the
    /// excluding clause if any, its last `excluding` clauses) and chooses its kept clauses from
    /// the checker's propagation of the givens (see [`subset`]): one propagation for both. `None`
    /// when the givens propagate to a conflict (or a reason is not the base's), left to
    /// [`subset::Index::select`].
    fn load_and_select(
        &mut self,
        id: u64,
        base: &Base,
        extra: &Formula,
        excluding: usize,
        scratch: &mut subset::Scratch,
    ) -> Option<Vec<u32>> {
        self.ready = None;
        let checker = &mut self.checker;
        checker.reset_to_base();
        let saved = self.ids.len();
        let givens = extra.len() - excluding;
        // The givens are unit clauses (one literal each).
        checker.add_units(
            base.unit_clauses
                .iter()
                .map(|&c| base.formula.clause(c as usize)[0])
                .chain(extra.clauses().take(givens).map(|c| c[0])),
        );
        if checker.is_inconsistent() {
            return None;
        }
        // The reasons as clauses of the base's formula: its long clauses by their place in the
        // checker, its unit clauses added after the saved base, its binary clauses by their
        // literals; the givens' unit clauses are no reason to keep.
        let units = &base.unit_clauses;
        let mut missing = false;
        let (imp_ids, imp_start) = (&self.imp_ids, &self.imp_start);
        let reasons = checker.top_level().filter_map(|(l, r)| {
            let c = match r {
                Reason::Clause(id) if (id as usize) < saved => Some(self.ids[id as usize]),
                Reason::Clause(id) => units.get(id as usize - saved).copied(),
                Reason::Binary(a) => {
                    // Where `add_units` found it in a's implications (checked: l is there); the
                    // index's lookup otherwise.
                    let k = checker.binary_position(l) as usize;
                    let (s, e) = match imp_start.get(a.code()..a.code() + 2) {
                        Some(&[s, e]) => (s as usize, e as usize),
                        _ => (0, 0),
                    };
                    let c = match imp_ids.get(s + k) {
                        Some(&c)
                            if s + k < e
                                && c != u32::MAX
                                && checker.implications(a).get(k) == Some(&l) =>
                        {
                            Some(c)
                        }
                        _ => base.index.binary_clause(a, l),
                    };
                    missing |= c.is_none();
                    c
                }
                Reason::Assumed => None,
            };
            c.map(|c| (l, c))
        });
        let given_lits = extra
            .clauses()
            .take(givens)
            .filter_map(|c| c.first().copied());
        let kept = base.index.select_from(
            given_lits,
            reasons,
            |l| checker.is_open(l),
            |l| checker.is_true(l),
            scratch,
        );
        if missing {
            return None;
        }
        for c in extra.clauses().skip(givens) {
            checker.add_clause(c);
        }
        self.ready = Some(id);
        Some(kept)
    }
}

/// Checks a DRAT proof (text or binary) against a DIMACS CNF with our own checker: the check of
/// [`Certificate::check`], from the files' bytes.
///
/// # Errors
/// A [`CheckError`]: unreadable CNF or proof, a lemma that does not follow, no empty clause.
pub fn check_drat(cnf: &[u8], drat: &[u8]) -> Result<(), CheckError> {
    refutes(&dimacs_in::parse_cnf(cnf)?, drat)
}

/// Whether the DRAT proof `drat` refutes `formula`, by our checker.
fn refutes(formula: &Formula, drat: &[u8]) -> Result<(), CheckError> {
    let proof = Proof::parse(drat)?;
    let mut checker = Checker::new();
    for c in formula.clauses() {
        checker.add_clause(c);
    }
    Ok(checker.check(proof.steps())?)
}

/// [`check_drat`] on two files.
///
/// # Errors
/// As [`check_drat`], and [`CheckError::Io`] if a file cannot be read.
pub fn check_drat_files(cnf: &Path, drat: &Path) -> Result<(), CheckError> {
    check_drat(&read(cnf)?, &read(drat)?)
}

/// Checks the files of a certificate of `puzzle` under `units` that claims `solution` is its only
/// solution (`Some`) or that it has none (`None`), trusting nothing in them but their clauses and
/// lemmas: `solution` is a solution of the puzzle ([`crate::verify`]); every clause of the CNF is
/// a clause of the puzzle's plain CNF (the extended encoding with pairwise at-most-one of the empty
/// grid, as [`crate::sat::encode`] makes it, or a given's unit clause), or for `unique` the clause
/// excluding `solution` (over every cell); and the DRAT proof refutes the CNF ([`check_drat`]).
/// Then the plain CNF, which holds every clause of this one, is unsatisfiable too. The comment
/// lines are not read: the puzzle is the caller's.
///
/// # Errors
/// [`CheckError::Claim`] for a solution that is none (or a puzzle of another shape than the unit
/// list); [`CheckError::Cnf`] naming the line of a clause not in the plain CNF, or of what cannot
/// be read; what [`check_drat`] returns.
pub fn check_certificate(
    units: &Units,
    puzzle: &Grid,
    solution: Option<&Grid>,
    cnf: &[u8],
    drat: &[u8],
) -> Result<(), CheckError> {
    if puzzle.shape() != units.shape() {
        return Err(CheckError::Claim {
            message: format!(
                "puzzle shape {} does not match unit list shape {}",
                puzzle.shape(),
                units.shape()
            ),
        });
    }
    if let Some(s) = solution {
        verify(units, puzzle, s).map_err(|violation| CheckError::Claim {
            message: format!("the claimed solution is invalid: {violation}"),
        })?;
    }
    let (formula, lines) = dimacs_in::parse_cnf_lines(cnf)?;
    let base = base_for(units);
    let members = base.members.get_or_init(|| {
        base.formula
            .clauses()
            .map(|c| sorted(c.iter().copied()))
            .collect()
    });
    let n = units.shape().n();
    let cells = || (0..units.shape().cells()).map(Cell::new);
    let givens: HashSet<Lit> = cells()
        .filter_map(|c| puzzle.get(c).map(|d| cell_lit(n, c, d)))
        .collect();
    let excluding =
        solution.map(|s| sorted(cells().filter_map(|c| s.get(c).map(|d| !cell_lit(n, c, d)))));
    for (clause, &line) in formula.clauses().zip(&lines) {
        let key = sorted(clause.iter().copied());
        let given = matches!(*key, [l] if givens.contains(&l));
        if !(given || members.contains(&key) || excluding.as_ref() == Some(&key)) {
            return Err(CheckError::Cnf {
                line,
                message: format!(
                    "the clause is not one of the puzzle's plain CNF{}",
                    if solution.is_some() {
                        " nor the one excluding the solution"
                    } else {
                        ""
                    }
                ),
            });
        }
    }
    refutes(&formula, drat)
}

/// [`check_certificate`] on two files.
///
/// # Errors
/// As [`check_certificate`], and [`CheckError::Io`] if a file cannot be read.
pub fn check_certificate_files(
    units: &Units,
    puzzle: &Grid,
    solution: Option<&Grid>,
    cnf: &Path,
    drat: &Path,
) -> Result<(), CheckError> {
    check_certificate(units, puzzle, solution, &read(cnf)?, &read(drat)?)
}

fn read(path: &Path) -> Result<Vec<u8>, CheckError> {
    std::fs::read(path).map_err(|source| CheckError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// A clause's literals without repeats, in order: the same key for the same clause however written.
fn sorted(lits: impl Iterator<Item = Lit>) -> Box<[Lit]> {
    let mut v: Vec<Lit> = lits.collect();
    v.sort_unstable();
    v.dedup();
    v.into_boxed_slice()
}

#[cfg(test)]
mod tests;
