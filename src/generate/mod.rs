//! Puzzle generation: a random solution grid, givens removed while the puzzle stays unique, and the
//! final answer settled `unique` by both backends; any shape, variants, jigsaw layouts, killers.
//!
//! # How a puzzle is made
//! 1. **Rules**: the variants asked for; for a jigsaw, a random layout of N connected regions of N
//!    cells (grown from the boxes by exchanging cells between neighbouring regions).
//! 2. **Solution**: the native search on the empty grid with a random value order
//!    ([`DfsBackend::randomized`]), which works for every shape and rule; where it stalls (standard
//!    rules on grids of about 100x100 and up), a pattern grid shuffled by the symmetries that keep a
//!    grid solved. With [`Generator::generate_from`], a given grid (completed by the same search if
//!    it is partial).
//! 3. **Clues** (if asked): thermometers along strictly increasing paths of the solution, every
//!    kropki dot, every X and V ([`Generator::thermometers`], [`Generator::kropki`],
//!    [`Generator::xv`]); the strict variants of dots and X/V join the rules with them (the
//!    solution was made without those rules, which the clues placed make true of it).
//!    **Killer cages** (if asked): a random partition of the grid into cages of 2 or 3 cells with
//!    distinct digits, their sums read from the solution.
//! 4. **Removal**: the givens, in a random order of the symmetry's orbits, each removed if the
//!    puzzle stays unique: without a search when the removed cells are naked or hidden singles of
//!    the givens left, else by native searches for another solution within the auto backend's node
//!    budget, and where they run out of it by the SAT backend counting to two. One pass
//!    makes the puzzle minimal (a given that was needed stays needed as others go); with a range
//!    of givens, the pass stops at a number drawn from it. A pure killer drops every given at once.
//!    With easy, medium or hard asked for, a removal must also keep the puzzle within that level
//!    (see [`Generator::difficulty`]): the puzzle is minimal for its level.
//! 5. **Merging cages** (killers): neighbouring cages with no digit in common merge while the
//!    puzzle stays unique, down to a third or a quarter as many cages as cells.
//! 6. **Final answer**: the native backend counts the solutions to two; the [`Difficulty`] is read
//!    from its work; then (unless [`Generator::fast`]) the SAT backend does the same and the two
//!    answers are cross-checked ([`judge`]): both `unique`, the same grid, verified. Where the
//!    native search hits its limit past the hard level's guesses (minimal 16x16 jigsaws and
//!    killers can lie beyond its reach), the SAT backend settles the puzzle alone
//!    ([`Generated::checked_by`] says so).
//!
//! Each attempt draws from its own SplitMix64 stream, seeded by the run's seed, the puzzle's index
//! and the attempt's number; an attempt that misses (a layout without solution, a grid that cannot
//! reach the givens asked for, another difficulty, a check cut short by the timeout) is followed by
//! the next. So a puzzle depends only on (seed, index), never on the threads that made the others.
//!
//! ```
//! use satdoku::generate::{Generator, Symmetry};
//! use satdoku::{Backend, DfsBackend, Limits, Shape, Status};
//! let generator = Generator::new(Shape::new(3, 3).unwrap()).symmetry(Symmetry::Rotational);
//! let made = generator.generate(42, 0).unwrap();
//! assert!(Symmetry::Rotational.holds(&made.puzzle));
//! let count = DfsBackend::new().solve(&made.units, &made.puzzle, &Limits::unique()).unwrap();
//! assert_eq!(count.outcome.status(), Status::Unique);
//! assert_eq!(generator.generate(42, 0).unwrap().puzzle, made.puzzle);
//! ```

mod cages;
mod difficulty;
mod fill;
mod place;
mod reduce;
mod regions;
mod rng;

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::auto::AutoBackend;
use crate::check::{Answer, Problem, Verdict, Verified, judge};
use crate::clue::Clue;
use crate::constraint::Variant;
use crate::dfs::DfsBackend;
use crate::grid::{Cell, Grid, Shape};
use crate::rules::RulesError;
use crate::sat::SatBackend;
use crate::solve::{Backend, Limits, Outcome, SolveError, Status};
use crate::units::Units;
use crate::verify::{Violation, verify};

use difficulty::singles_share;
pub use difficulty::{Difficulty, Level, UnknownLevel};
use place::Placing;
pub use reduce::{Symmetry, Target, UnknownSymmetry};
use rng::Rng;

/// Killer cages: none, cages over the solution with givens where they are needed, or cages alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Killer {
    /// No cages.
    #[default]
    Off,
    /// Cages, then givens removed (to the target) and cages merged while the puzzle stays unique.
    WithGivens,
    /// Cages and no given at all (a grid whose cages alone are not unique is dropped).
    Pure,
}

/// Why no puzzle was made.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The rules asked for do not fit the grid (windoku on non-square boxes, cages above 64x64, …).
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The grid to start from breaks a rule.
    #[error("the grid to start from breaks a rule: {0}")]
    Invalid(Violation),
    /// The grid to start from has no solution (within the search's budget).
    #[error("no solution grid found for the grid to start from")]
    NoSolution,
    /// Cages asked for on a grid that has cages already.
    #[error("the grid to start from has killer cages already")]
    HasCages,
    /// The target asks for more givens than the grid has cells, or the range is empty.
    #[error("{0}")]
    Target(String),
    /// Clues asked for that cannot fit the grid (more thermometers than it has room for).
    #[error("{0}")]
    Placement(String),
    /// A level the options never make.
    #[error("{0}")]
    Unreachable(String),
    /// Every attempt missed.
    #[error("no puzzle in {attempts} attempt(s): {why}")]
    GaveUp {
        /// Attempts made.
        attempts: u64,
        /// What the attempts missed by, with counts.
        why: String,
    },
    /// The two backends (or the oracle and both backends) contradict each other on a puzzle: a bug
    /// in one of them.
    #[error("the backends disagree on a generated puzzle: {}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Disagree {
        /// What differs.
        problems: Vec<Problem>,
        /// The puzzle.
        puzzle: Box<Grid>,
    },
    /// A backend failed (e.g. returned a grid the verifier rejects, a bug).
    #[error(transparent)]
    Backend(#[from] SolveError),
}

/// A puzzle made, with what is known of it.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The givens.
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
    /// Its rules (with the cages of a killer, the regions of a jigsaw).
    pub units: Arc<Units>,
    /// The run's seed.
    pub seed: u64,
    /// The puzzle's index in the run.
    pub index: u64,
    /// The attempt that made it (1 for the first).
    pub attempts: u64,
    /// How hard it is.
    pub difficulty: Difficulty,
    /// The final answers: the native backend's, then the SAT backend's unless fast.
    pub answers: Vec<Answer>,
}

impl Generated {
    /// The number of givens.
    pub fn givens(&self) -> usize {
        self.puzzle.filled()
    }

    /// The backends that settled the puzzle `unique`: `dfs`, `sat`, or `sat` alone where the
    /// native search hit its limit.
    pub fn checked_by(&self) -> Vec<&'static str> {
        self.answers
            .iter()
            .filter(|a| matches!(&a.report, Ok(r) if r.outcome.status() == Status::Unique))
            .map(|a| a.backend)
            .collect()
    }
}

/// What an attempt made: the puzzle, its solution, its rules, its difficulty, the final answers.
struct Made {
    puzzle: Grid,
    solution: Grid,
    units: Arc<Units>,
    difficulty: Difficulty,
    answers: Vec<Answer>,
}

/// What an attempt missed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Miss {
    /// No solution grid for the layout or rules within the budget.
    NoFill,
    /// Cages without givens that are not unique.
    NotUnique,
    /// More givens left than asked for.
    Givens,
    /// The clues asked for did not fit the solution grid.
    Placement,
    /// Another difficulty.
    Level(Level),
    /// A final check cut short by a limit.
    Unsettled,
}

impl Miss {
    fn describe(self) -> String {
        match self {
            Miss::NoFill => "no solution grid for the rules within the search budget".into(),
            Miss::NotUnique => "cages without givens not unique".into(),
            Miss::Givens => "could not get down to the givens asked for".into(),
            Miss::Placement => "the thermometers asked for did not fit the solution grid".into(),
            Miss::Level(l) => format!("difficulty {l}"),
            Miss::Unsettled => "a final check hit a limit".into(),
        }
    }
}

/// Makes unique puzzles: options, the uniqueness oracle of the removal, the two backends of the
/// final answer. Shared by reference among threads.
///
/// Built with [`Generator::new`] and the option methods; [`Generator::generate`] makes puzzle
/// `index` of a run seeded with `seed`.
pub struct Generator {
    shape: Shape,
    variants: Vec<Variant>,
    jigsaw: bool,
    killer: Killer,
    placing: Placing,
    target: Target,
    symmetry: Symmetry,
    difficulty: Option<Level>,
    filter_minimal: bool,
    fast: bool,
    singles: bool,
    limits: Limits,
    attempts: Option<u64>,
    /// The oracle of the removal where no native search has been tried (pure killers).
    oracle: Arc<dyn Backend>,
    /// The oracle where the removal's native searches ran out of budget.
    sat_oracle: Arc<dyn Backend>,
    dfs: Box<dyn Backend>,
    sat: Box<dyn Backend>,
    /// The rules of every puzzle when they need no random layout, built once: one unit list
    /// (one [`Units::id`]) for the whole run, so that the backends' caches of derived tables and
    /// formulas serve every puzzle.
    fixed: OnceLock<Result<Arc<Units>, RulesError>>,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("shape", &self.shape)
            .field("variants", &self.variants)
            .field("jigsaw", &self.jigsaw)
            .field("killer", &self.killer)
            .field("placing", &self.placing)
            .field("target", &self.target)
            .field("symmetry", &self.symmetry)
            .field("difficulty", &self.difficulty)
            .field("filter_minimal", &self.filter_minimal)
            .field("fast", &self.fast)
            .field("limits", &self.limits)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

/// The default timeout of each uniqueness check.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(10);

/// Searches of the removal out of budget after which the budget is a tenth
/// ([`Generator::still_unique`]'s docs).
const OUTS: u32 = 3;

/// The default number of attempts per puzzle.
pub const ATTEMPTS: u64 = 1000;

/// The default number of attempts per puzzle when minimal puzzles are filtered by level (extreme,
/// or [`Generator::filter_minimal`]): about one minimal 9x9 puzzle in 2,500 is extreme, so that
/// 20,000 attempts (3 s of CPU) miss about one time in 3,000. (Easy, medium and hard puzzles are
/// aimed at by the removal and have [`ATTEMPTS`], which they rarely need more than a few of.)
pub const ATTEMPTS_FOR_LEVEL: u64 = 20_000;

/// With a difficulty asked for, the attempts after which the run gives up on a puzzle: for easy,
/// medium and hard, when none of them made one (aimed at by the removal, or common among minimal
/// puzzles, these levels take a few attempts where the options reach them at all); for extreme,
/// when most ended two levels or more below and none nearer (every puzzle easy).
pub const LEVEL_PROBE: u64 = 50;

impl Generator {
    /// Minimal puzzles with the standard rules of `shape`, no symmetry, any difficulty; removal by
    /// the auto backend, the final answer by the native and the SAT backend (both verified), each
    /// check within [`CHECK_TIMEOUT`], at most [`ATTEMPTS`] attempts per puzzle.
    pub fn new(shape: Shape) -> Generator {
        Generator {
            shape,
            variants: Vec::new(),
            jigsaw: false,
            killer: Killer::Off,
            placing: Placing::default(),
            target: Target::Minimal,
            symmetry: Symmetry::None,
            difficulty: None,
            filter_minimal: false,
            fast: false,
            singles: true,
            limits: Limits::unique().with_timeout(Some(CHECK_TIMEOUT)),
            attempts: None,
            oracle: Arc::new(AutoBackend::new()),
            sat_oracle: Arc::new(Verified::new(SatBackend::default())),
            dfs: Box::new(Verified::new(DfsBackend::new())),
            sat: Box::new(Verified::new(SatBackend::default())),
            fixed: OnceLock::new(),
        }
    }

    /// Adds a variant (once).
    pub fn variant(mut self, variant: Variant) -> Generator {
        if !self.variants.contains(&variant) {
            self.variants.push(variant);
            self.fixed = OnceLock::new();
        }
        self
    }

    /// Random jigsaw regions in place of the boxes.
    pub fn jigsaw(mut self, on: bool) -> Generator {
        self.jigsaw = on;
        self.fixed = OnceLock::new();
        self
    }

    /// Killer cages.
    pub fn killer(mut self, killer: Killer) -> Generator {
        self.killer = killer;
        self
    }

    /// Thermometers: `count` of them over the solution, each a path of 3 to 6 cells on 9x9 (N/2 + 2
    /// at most; a king's step at a time) along which the solution's digits strictly increase,
    /// sharing no cell. A solution grid they do not fit is replaced.
    pub fn thermometers(mut self, count: usize) -> Generator {
        self.placing.thermos = count;
        self
    }

    /// Kropki dots: every one of the solution (white between orthogonal neighbours holding
    /// consecutive digits, black where one is double the other; a 1 beside a 2 gets either). With
    /// the variant [`Variant::StrictKropki`] the missing dots say something too: the solution grid
    /// is then made without that rule, which the dots placed make true of it.
    pub fn kropki(mut self, on: bool) -> Generator {
        self.placing.kropki = on;
        self.fixed = OnceLock::new();
        self
    }

    /// X and V: every sum of 10 (X) and 5 (V) of orthogonal neighbours of the solution; with
    /// [`Variant::StrictXv`] as for [`Generator::kropki`].
    pub fn xv(mut self, on: bool) -> Generator {
        self.placing.xv = on;
        self.fixed = OnceLock::new();
        self
    }

    /// How many givens to end with (pure killers have none).
    pub fn target(mut self, target: Target) -> Generator {
        self.target = target;
        self
    }

    /// The symmetry of the givens.
    pub fn symmetry(mut self, symmetry: Symmetry) -> Generator {
        self.symmetry = symmetry;
        self
    }

    /// Only puzzles of this level; `None` for any. For easy, medium and hard the removal aims at
    /// it: a given is removed only if the puzzle stays unique *and no harder than the level* (easy:
    /// singles, with the variants' relations, still fill every blank; medium: the native backend
    /// still counts to two without a guess; hard: with at most [`Level::HARD_GUESSES`] guesses), so
    /// the puzzle is minimal for its level (a given left may be one that only the level needs), and
    /// an attempt misses only when it ends easier than asked. Extreme puzzles are minimal puzzles
    /// that happen to be extreme (other attempts are dropped). See
    /// [`Generator::filter_minimal`].
    pub fn difficulty(mut self, level: Option<Level>) -> Generator {
        self.difficulty = level;
        self
    }

    /// With a level asked for: make minimal puzzles and keep those of the level (as for extreme),
    /// instead of aiming the removal at it. Slower, often much (minimal variant puzzles are nearly
    /// all extreme), but each puzzle is minimal.
    pub fn filter_minimal(mut self, on: bool) -> Generator {
        self.filter_minimal = on;
        self
    }

    /// The level the removal aims at: the one asked for, unless extreme or filtered.
    fn cap(&self) -> Option<Level> {
        self.difficulty
            .filter(|&l| l != Level::Extreme && !self.filter_minimal)
    }

    /// The final answer by the native backend alone (no SAT cross-check).
    pub fn fast(mut self, on: bool) -> Generator {
        self.fast = on;
        self
    }

    /// Whether to measure the share of the blanks that singles fill on every puzzle (the default),
    /// or only on those the native backend solves without a guess, whose level depends on it
    /// (elsewhere [`Difficulty::singles`] is then `None`; the level is the same). Off saves a tenth
    /// of the time of minimal 9x9 puzzles, when nobody reads the share.
    pub fn singles(mut self, on: bool) -> Generator {
        self.singles = on;
        self
    }

    /// The timeout and budget of each uniqueness check (removal and final answer); the solution
    /// limit is always two. A removal check that hits a limit keeps its given; a final check that
    /// does drops the attempt (so that with tight limits, puzzles depend on the machine's speed).
    pub fn limits(mut self, limits: &Limits) -> Generator {
        self.limits = Limits::unique()
            .with_timeout(limits.timeout())
            .with_budget(limits.budget());
        self
    }

    /// Attempts per puzzle before giving up (at least 1; by default [`ATTEMPTS`], or
    /// [`ATTEMPTS_FOR_LEVEL`] when minimal puzzles are filtered by level). With a difficulty, the
    /// run gives up after [`LEVEL_PROBE`] attempts if the level looks out of reach.
    pub fn attempts(mut self, attempts: u64) -> Generator {
        self.attempts = Some(attempts.max(1));
        self
    }

    /// The most attempts per puzzle.
    pub fn max_attempts(&self) -> u64 {
        self.attempts
            .unwrap_or(if self.difficulty.is_some() && self.cap().is_none() {
                ATTEMPTS_FOR_LEVEL
            } else {
                ATTEMPTS
            })
    }

    /// The uniqueness oracle of the removal, for every question it asks (by default the auto
    /// backend, and the SAT backend alone where the native searches of the removal ran out of
    /// the budget the auto backend's native phase has).
    pub fn with_oracle(mut self, oracle: Arc<dyn Backend>) -> Generator {
        self.sat_oracle = Arc::clone(&oracle);
        self.oracle = oracle;
        self
    }

    /// The two backends of the final answer: the native one (whose work the difficulty is read
    /// from) and the SAT one (skipped when fast). They should verify their answers
    /// ([`Verified`]).
    pub fn with_backends(mut self, dfs: Box<dyn Backend>, sat: Box<dyn Backend>) -> Generator {
        self.dfs = dfs;
        self.sat = sat;
        self
    }

    /// The grid shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether the final answer is the native backend's alone.
    pub fn is_fast(&self) -> bool {
        self.fast
    }

    /// Checks the options against the shape before any work: the variants fit it, cages are
    /// allowed on it, the target is within its cells.
    ///
    /// # Errors
    /// [`GenerateError::Rules`] or [`GenerateError::Target`].
    pub fn check(&self) -> Result<(), GenerateError> {
        self.base_rules(None)?;
        let n = self.shape.n();
        if self.killer != Killer::Off && n > 64 {
            return Err(RulesError::CageGridTooLarge { cage: 0, n }.into());
        }
        if self.killer == Killer::Pure && self.difficulty == Some(Level::Easy) {
            return Err(GenerateError::Unreachable(
                "pure killers are never easy: singles do not read cages, and there is no given"
                    .into(),
            ));
        }
        if self.placing.any() && n > 64 {
            return Err(RulesError::ClueGridTooLarge { n }.into());
        }
        let (shortest, _) = place::thermo_lengths(n);
        let room = self.shape.cells() / shortest;
        if self.placing.thermos > room {
            return Err(GenerateError::Placement(format!(
                "{} thermometers: a {n}x{n} grid holds at most {room} of {shortest} cells or more",
                self.placing.thermos
            )));
        }
        if let Target::Givens { min, max } = self.target {
            let cells = self.shape.cells();
            if min > max || max > cells {
                return Err(GenerateError::Target(format!(
                    "givens {min}..{max}: a {n}x{n} grid has {cells} cells; the range must be \
                     within 0..{cells} and not empty"
                )));
            }
        }
        Ok(())
    }

    /// Puzzle number `index` of a run seeded with `seed`: attempts until one succeeds (see the
    /// module documentation), at most the attempts allowed.
    ///
    /// # Errors
    /// [`GenerateError::GaveUp`] when every attempt missed; the rules' errors; a disagreement or a
    /// backend's failure (bugs).
    pub fn generate(&self, seed: u64, index: u64) -> Result<Generated, GenerateError> {
        self.run(seed, index, None)
    }

    /// A puzzle whose solution is `grid` under `units` (a full grid), or a solution of `grid` (a
    /// partial one, completed by the randomized search): the rules are those of `units` (the
    /// generator's variants and jigsaw option are not used; its killer option adds cages).
    ///
    /// # Errors
    /// As [`Generator::generate`]; also [`GenerateError::Invalid`] for a full grid that breaks a
    /// rule, [`GenerateError::NoSolution`] for a partial one without solution, and
    /// [`GenerateError::HasCages`] for cages asked for on rules that have some.
    pub fn generate_from(
        &self,
        units: &Units,
        grid: &Grid,
        seed: u64,
        index: u64,
    ) -> Result<Generated, GenerateError> {
        if units.shape() != grid.shape() {
            return Err(SolveError::ShapeMismatch {
                puzzle: grid.shape(),
                units: units.shape(),
            }
            .into());
        }
        if self.killer != Killer::Off && !units.cages().is_empty() {
            return Err(GenerateError::HasCages);
        }
        if grid.is_full() {
            verify(units, &Grid::empty(units.shape()), grid).map_err(GenerateError::Invalid)?;
        }
        self.run(seed, index, Some((units, grid)))
    }

    fn run(
        &self,
        seed: u64,
        index: u64,
        from: Option<(&Units, &Grid)>,
    ) -> Result<Generated, GenerateError> {
        let mut misses: Vec<(Miss, u64)> = Vec::new();
        let mut made = 0;
        for attempt in 0..self.max_attempts() {
            if attempt == LEVEL_PROBE
                && let Some(level) = self.difficulty
                && (level != Level::Extreme || out_of_reach(level, &misses))
            {
                break;
            }
            made = attempt + 1;
            let mut rng = Rng::new(rng::derive(seed, index, attempt));
            match self.attempt(&mut rng, from)? {
                Ok(made) => {
                    return Ok(Generated {
                        puzzle: made.puzzle,
                        solution: made.solution,
                        units: made.units,
                        seed,
                        index,
                        attempts: attempt + 1,
                        difficulty: made.difficulty,
                        answers: made.answers,
                    });
                }
                Err(Miss::NoFill) if from.is_some() => return Err(GenerateError::NoSolution),
                Err(miss) => match misses.iter_mut().find(|(m, _)| *m == miss) {
                    Some((_, k)) => *k += 1,
                    None => misses.push((miss, 1)),
                },
            }
        }
        misses.sort();
        let mut why: Vec<String> = misses
            .iter()
            .map(|(m, k)| format!("{k} × {}", m.describe()))
            .collect();
        if made < self.max_attempts()
            && let Some(level) = self.difficulty
        {
            why.push(format!(
                "stopped early: {level} looks out of these options' reach"
            ));
        }
        Err(GenerateError::GaveUp {
            attempts: made,
            why: why.join(", "),
        })
    }

    /// The rules before cages: the variants, and a random layout for a jigsaw (the boxes when
    /// `rng` is `None`). Without a jigsaw, the same unit list every time.
    fn base_rules(&self, rng: Option<&mut Rng>) -> Result<Arc<Units>, RulesError> {
        if !self.jigsaw {
            return self
                .fixed
                .get_or_init(|| self.build_rules(None).map(Arc::new))
                .clone();
        }
        self.build_rules(rng).map(Arc::new)
    }

    fn build_rules(&self, rng: Option<&mut Rng>) -> Result<Units, RulesError> {
        let mut b = Units::rules(self.shape);
        for &v in &self.variants {
            if !self.after_placing(v) {
                b = b.variant(v);
            }
        }
        if self.jigsaw {
            let layout = match rng {
                Some(rng) => regions::random_regions(self.shape, rng),
                None => (0..self.shape.cells())
                    .map(|i| {
                        let n = self.shape.n();
                        self.shape.block_of(i / n, i % n)
                    })
                    .collect(),
            };
            b = b.regions(layout);
        }
        b.build()
    }

    /// `base` with the clues placed over the solution, and the variants about them.
    fn with_clues(&self, base: &Units, clues: Vec<Clue>) -> Result<Units, RulesError> {
        let mut b = cages::rules_of(base);
        for &v in &self.variants {
            if self.after_placing(v) {
                b = b.variant(v);
            }
        }
        for clue in clues {
            b = b.clue(clue);
        }
        b.build()
    }

    /// Whether `v` is a variant about the clues placed (strict kropki with kropki dots placed,
    /// strict XV with X and V): it joins the rules with the clues, after the solution grid is made
    /// without it (the clues placed make it true of the grid).
    fn after_placing(&self, v: Variant) -> bool {
        (v == Variant::StrictKropki && self.placing.kropki)
            || (v == Variant::StrictXv && self.placing.xv)
    }

    /// Whether removing the givens of `cells` (already blank in `puzzle`) keeps the puzzle: unique,
    /// and with a level to aim at, no harder than it (see [`Generator::difficulty`]).
    fn keeps(
        &self,
        units: &Units,
        puzzle: &Grid,
        solution: &Grid,
        cells: &[usize],
        outs: &mut u32,
    ) -> bool {
        let guesses = match self.cap() {
            None => return self.still_unique(units, puzzle, solution, cells, outs),
            // Singles that fill every blank prove the puzzle unique.
            Some(Level::Easy) => return singles_share(units, puzzle) == Some(1.0),
            Some(Level::Medium) => 0,
            Some(_) => Level::HARD_GUESSES,
        };
        // The count to two the final answer makes (so the same guesses), stopped past the level:
        // a guess makes two nodes (nodes = 2 · guesses + 1), and a margin.
        let limits = Limits::unique()
            .with_budget(Some(4 * guesses + 16))
            .with_timeout(self.limits.timeout());
        matches!(
            DfsBackend::new().solve(units, puzzle, &limits),
            Ok(r) if matches!(r.outcome, Outcome::Unique(_)) && r.stats.guesses <= guesses
        )
    }

    /// Whether `puzzle`, whose solutions other than `solution` (if any) each differ from it in one
    /// of `cells`, is unique: for each of those cells, the native search looks for a solution
    /// without `solution`'s digit there and with `solution`'s digits in the cells before it
    /// (within the auto backend's node budget); none anywhere means unique. Cheaper than counting
    /// to two: where the puzzle is unique, the searches explore only what differs from
    /// `solution`; where it is not, they stop at the first other solution. A search that runs out
    /// of budget leaves the question to the SAT backend alone (`sat_oracle`, counting to two: the
    /// auto backend's native phase would spend the same budget again); except with a
    /// range of givens and no level asked for, where no minimality is promised: the removal is then
    /// refused (with a tenth of the budget), which keeps the puzzles within the native search's
    /// reach and each removal's cost bounded in nodes (25x25 at 45-65 %: without this, a removal
    /// could cost the oracle's full timeout, and the final check of the puzzle made hit its limit).
    ///
    /// `outs` counts the searches of this attempt that ran out of budget: past [`OUTS`], the
    /// puzzle is taken to be beyond the native search's reach (removals only make it harder) and
    /// the budget is a tenth, enough for the searches that settle at once (most take one node).
    /// On a minimal 25x25 (seed 77) 263 of 375 searches ran out of 45,000 nodes and then asked the
    /// SAT backend, which found a second solution for 243 of them: 89 s of 297 s.
    fn still_unique(
        &self,
        units: &Units,
        puzzle: &Grid,
        solution: &Grid,
        cells: &[usize],
        outs: &mut u32,
    ) -> bool {
        let size = units.shape().cells();
        let refuse_hard = matches!(self.target, Target::Givens { .. }) && self.difficulty.is_none();
        let budget =
            AutoBackend::node_budget(size) / if refuse_hard || *outs >= OUTS { 10 } else { 1 };
        // Up to 16x16 the budget bounds a search to a few tens of milliseconds: no clock needed.
        let limits = Limits::first()
            .with_budget(Some(self.limits.budget().map_or(budget, |b| b.min(budget))))
            .with_timeout(self.limits.timeout().filter(|_| size > 256));
        // Another solution differs in the first cell; or agrees there and differs in the second
        // (searched with the first one's given back, a smaller search); and so on.
        let mut partial = None;
        for (k, &c) in cells.iter().enumerate() {
            if k > 0 {
                let p: &mut Grid = partial.get_or_insert_with(|| puzzle.clone());
                let before = cells[k - 1];
                p.set(Cell::new(before), solution.get(Cell::new(before)));
            }
            let exclude = [(c, solution.values()[c])];
            match DfsBackend::new()
                .solve_excluding(units, partial.as_ref().unwrap_or(puzzle), &exclude, &limits)
                .map(|r| r.outcome)
            {
                Ok(Outcome::NoSolution) => {}
                Ok(Outcome::Found(_)) => return false,
                _ if refuse_hard => return false,
                // Out of budget: the auto backend's native phase would spend the same again.
                other => {
                    *outs += u32::from(matches!(other, Ok(Outcome::Unknown { .. })));
                    return self.unique_by(&*self.sat_oracle, units, puzzle);
                }
            }
        }
        true
    }

    /// Whether `oracle` settles `puzzle` as unique.
    fn unique_by(&self, oracle: &dyn Backend, units: &Units, puzzle: &Grid) -> bool {
        matches!(
            oracle.solve(units, puzzle, &self.limits).map(|r| r.outcome),
            Ok(Outcome::Unique(_))
        )
    }

    /// One attempt: a puzzle, or what it missed by.
    fn attempt(
        &self,
        rng: &mut Rng,
        from: Option<(&Units, &Grid)>,
    ) -> Result<Result<Made, Miss>, GenerateError> {
        let shape = from.map_or(self.shape, |(u, _)| u.shape());
        let base = match from {
            Some((units, _)) => Arc::new(units.clone()),
            None => self.base_rules(Some(rng))?,
        };
        let solution = match from {
            Some((_, g)) if g.is_full() => g.clone(),
            Some((_, g)) => match fill::random_solution(&base, g, rng) {
                Some(s) => s,
                None => return Ok(Err(Miss::NoFill)),
            },
            None => match fill::random_solution(&base, &Grid::empty(shape), rng) {
                Some(s) => s,
                None => return Ok(Err(Miss::NoFill)),
            },
        };
        // Clues over the solution (not on a grid to start from: its rules are its own).
        let base = if self.placing.any() && from.is_none() {
            let Some(clues) = place::place(self.placing, &solution, rng) else {
                return Ok(Err(Miss::Placement));
            };
            Arc::new(self.with_clues(&base, clues)?)
        } else {
            base
        };
        let max_cage = cages::max_cage(shape.n());
        let mut cage_list = Vec::new();
        let mut units = if self.killer == Killer::Off {
            Arc::clone(&base)
        } else {
            cage_list = cages::partition(&solution, rng, max_cage);
            Arc::new(cages::with_cages(&base, &cage_list, &solution)?)
        };
        let mut puzzle = solution.clone();
        let mut outs = 0;
        if self.killer == Killer::Pure {
            puzzle = Grid::empty(shape);
            if !self.unique_by(&*self.oracle, &units, &puzzle) {
                return Ok(Err(Miss::NotUnique));
            }
        } else {
            let orbits = reduce::orbits(shape, self.symmetry, rng);
            let (stop_at, min) = match self.target {
                Target::Minimal => (0, 0),
                Target::Givens { min, max } => (rng.between(min, max), min),
            };
            let left = reduce::remove(
                &units,
                &mut puzzle,
                &solution,
                &orbits,
                stop_at,
                min,
                &mut |p, removed| self.keeps(&units, p, &solution, removed, &mut outs),
            );
            if let Target::Givens { max, .. } = self.target
                && left > max
            {
                return Ok(Err(Miss::Givens));
            }
        }
        if self.killer != Killer::Off {
            let cells = shape.cells();
            let goal = cells * 10 / rng.between(30, 40);
            let mut rejected: HashSet<(Vec<usize>, Vec<usize>)> = HashSet::new();
            while cage_list.len() > goal {
                let mut pairs = cages::mergeable(&cage_list, &solution, max_cage);
                pairs.retain(|&(a, b)| {
                    !rejected.contains(&(cage_list[a].clone(), cage_list[b].clone()))
                });
                if pairs.is_empty() {
                    break;
                }
                let (a, b) = pairs[rng.below(pairs.len())];
                let mut merged = cage_list.clone();
                let taken = merged.remove(b);
                merged[a].extend(taken);
                merged[a].sort_unstable();
                let candidate = cages::with_cages(&base, &merged, &solution)?;
                // A solution of the merged cages that agrees with `solution` on the new cage
                // meets the old two as well: every other solution differs in the new cage.
                if self.keeps(&candidate, &puzzle, &solution, &merged[a], &mut outs) {
                    cage_list = merged;
                    units = Arc::new(candidate);
                } else {
                    rejected.insert((cage_list[a].clone(), cage_list[b].clone()));
                }
            }
        }
        self.settle(units, puzzle, solution)
    }

    /// The error for a final answer of `backend` that contradicts the oracle's `unique` on
    /// `puzzle`, whose `solution` is valid: another grid, several, none.
    fn contradicts(
        &self,
        backend: &'static str,
        outcome: &Outcome,
        solution: &Grid,
        puzzle: Grid,
    ) -> GenerateError {
        let problem = match outcome.grids().next() {
            Some(g) if outcome.status() != Status::Multiple && g != solution => Problem::Differ {
                cells: g.diff(solution).iter().map(|c| c.name(g.shape())).collect(),
            },
            _ => Problem::Status {
                a_name: self.oracle.name(),
                a: Status::Unique,
                b_name: backend,
                b: outcome.status(),
            },
        };
        GenerateError::Disagree {
            problems: vec![problem],
            puzzle: Box::new(puzzle),
        }
    }

    /// The final answer on a puzzle the oracle found unique: the native backend, the difficulty,
    /// then the SAT backend and the cross-check.
    fn settle(
        &self,
        units: Arc<Units>,
        puzzle: Grid,
        solution: Grid,
    ) -> Result<Result<Made, Miss>, GenerateError> {
        let answer = |backend: &dyn Backend| {
            let start = Instant::now();
            let report = backend.solve(&units, &puzzle, &self.limits);
            Answer {
                backend: backend.name(),
                report,
                time: start.elapsed(),
            }
        };
        let dfs = answer(&*self.dfs);
        let dfs_report = match &dfs.report {
            Ok(r) => r.clone(),
            Err(e) => return Err(e.clone().into()),
        };
        // A native search cut short past the hard level's guesses leaves the puzzle to the SAT
        // backend alone (not when fast): minimal puzzles of 16x16 jigsaws and killers, made with
        // the SAT backend's help, can lie beyond the native search's reach. Its difficulty is then
        // extreme, from the nodes and guesses spent by the limit.
        let native_settled = match &dfs_report.outcome {
            Outcome::Unique(g) if *g == solution => true,
            Outcome::Unknown { first, .. } if first.as_deref().is_none_or(|g| *g == solution) => {
                if self.fast || dfs_report.stats.guesses <= Level::HARD_GUESSES {
                    return Ok(Err(Miss::Unsettled));
                }
                false
            }
            other => return Err(self.contradicts(dfs.backend, other, &solution, puzzle)),
        };
        let mut difficulty = Difficulty::measured(&units, &puzzle, &dfs_report, None, self.singles);
        if self.difficulty.is_some_and(|l| l != difficulty.level) {
            return Ok(Err(Miss::Level(difficulty.level)));
        }
        if self.fast {
            return Ok(Ok(Made {
                puzzle,
                solution,
                units,
                difficulty,
                answers: vec![dfs],
            }));
        }
        let sat = answer(&*self.sat);
        // A backend that failed (a grid the verifier rejects is a bug; a grid too large for the
        // SAT backend is not) is its own error, not a disagreement.
        let sat_report = match &sat.report {
            Ok(r) => r.clone(),
            Err(e) => return Err(e.clone().into()),
        };
        let answers = [dfs, sat];
        match judge(&units, &puzzle, &answers) {
            Verdict::Agree(Status::Unique) => {}
            Verdict::Inconclusive if native_settled => return Ok(Err(Miss::Unsettled)),
            // The native search is cut short: the SAT backend's answer alone, against the oracle.
            Verdict::Inconclusive => match &sat_report.outcome {
                Outcome::Unique(g) if *g == solution => {}
                Outcome::Unknown { .. } => return Ok(Err(Miss::Unsettled)),
                other => {
                    return Err(self.contradicts(answers[1].backend, other, &solution, puzzle));
                }
            },
            Verdict::Agree(status) => {
                let problems = vec![Problem::Status {
                    a_name: self.oracle.name(),
                    a: Status::Unique,
                    b_name: "both",
                    b: status,
                }];
                return Err(GenerateError::Disagree {
                    problems,
                    puzzle: Box::new(puzzle),
                });
            }
            Verdict::Disagree(problems) => {
                return Err(GenerateError::Disagree {
                    problems,
                    puzzle: Box::new(puzzle),
                });
            }
        }
        difficulty.add_sat(&sat_report);
        Ok(Ok(Made {
            puzzle,
            solution,
            units,
            difficulty,
            answers: answers.to_vec(),
        }))
    }
}

/// Whether the misses so far say that `level` is out of reach: most attempts ended at another
/// level, and none within one step of it (see [`LEVEL_PROBE`]).
fn out_of_reach(level: Level, misses: &[(Miss, u64)]) -> bool {
    let step = |l: Level| Level::ALL.iter().position(|&x| x == l).unwrap_or(0);
    let (mut at_levels, mut all) = (0, 0);
    for &(miss, k) in misses {
        all += k;
        if let Miss::Level(l) = miss {
            if step(l).abs_diff(step(level)) <= 1 {
                return false;
            }
            at_levels += k;
        }
    }
    at_levels * 2 > all
}
