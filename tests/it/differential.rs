//! Differential tests: the native and SAT backends on generated puzzles whose status is known by
//! construction (never from either backend), over several box shapes; the SAT backend on every SAT
//! solver compiled in (a matrix: each generated puzzle goes through each solver).
//!
//! - unique: a planted solution with blanks only where the remaining givens force the digit (each blank
//!   cell's peers hold the other N-1 digits), so the planted grid is the only solution;
//! - several: a planted solution with every given of two digits removed (swapping those two digits in
//!   the planted grid gives a second solution);
//! - none: a planted solution where one blank cell `c`'s peers are all given and a peer `p` in c's row,
//!   in another stack, is changed to c's digit (with that digit removed from p's column and box so no
//!   unit holds two equal givens): `c` has no candidate left;
//! - random: a planted solution with random blanks: at least one solution (the planted one).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use satdoku::sat::{SatBackend, SatSolver};
use satdoku::{
    Backend, Cell, DfsBackend, Digit, Grid, Limits, Outcome, Shape, Status, Units, Verdict,
    cross_check, verify,
};

use crate::common::{Rng, carve, solved};

/// The shapes the issue names: 4x4, 6x6 (2x3), 9x9, 12x12 (3x4), 16x16.
const SHAPES: [(usize, usize); 5] = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)];

/// What a generated puzzle is known to have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Planted {
    Unique,
    Several,
    None,
    AtLeastOne,
}

/// Blanks cells of `solution` in random order, each only if afterwards every blank cell still has all
/// other N-1 digits among its peers' givens (so each blank is forced by the givens alone).
fn forced_unique(solution: &Grid, units: &Units, rng: &mut Rng, tries: usize) -> Grid {
    let shape = solution.shape();
    let n = shape.n();
    let mut puzzle = solution.clone();
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    rng.shuffle(&mut order);
    let forced = |g: &Grid, cell: Cell| {
        let mut seen = vec![false; n + 1];
        for &p in units.peers(cell) {
            if let Some(d) = g.get(p) {
                seen[d.get() as usize] = true;
            }
        }
        seen[1..].iter().filter(|&&s| s).count() == n - 1
    };
    for &i in order.iter().take(tries) {
        let cell = Cell::new(i);
        let saved = puzzle.get(cell);
        puzzle.set(cell, None);
        // The new blank and every blank peer must stay forced.
        let ok = forced(&puzzle, cell)
            && units
                .peers(cell)
                .iter()
                .all(|&p| puzzle.get(p).is_some() || forced(&puzzle, p));
        if !ok {
            puzzle.set(cell, saved);
        }
    }
    puzzle
}

/// `solution` carved at `keep`, then every given of two digits removed: at least two solutions.
fn several(solution: &Grid, keep: f64, rng: &mut Rng) -> Grid {
    let n = solution.n() as u16;
    let a = 1 + rng.below(n as usize) as u16;
    let b = 1 + (a as usize % n as usize) as u16;
    let mut puzzle = carve(solution, keep, rng);
    for i in 0..puzzle.shape().cells() {
        let cell = Cell::new(i);
        if matches!(puzzle.get(cell), Some(d) if d.get() == a || d.get() == b) {
            puzzle.set(cell, None);
        }
    }
    puzzle
}

/// A puzzle with no solution and no two equal givens in a unit (see the module docs).
fn contradiction(solution: &Grid, units: &Units, keep: f64, rng: &mut Rng) -> Grid {
    let shape = solution.shape();
    let (n, bc) = (shape.n(), shape.box_cols());
    let mut puzzle = carve(solution, keep, rng);
    let (r, col) = (rng.below(n), rng.below(n));
    let c = Cell::at(shape, r, col);
    // p: same row, another stack (box column band).
    let other_stacks: Vec<usize> = (0..n).filter(|&x| x / bc != col / bc).collect();
    let p = Cell::at(shape, r, other_stacks[rng.below(other_stacks.len())]);
    let v = solution.get(c).unwrap();
    for &q in units.peers(c) {
        puzzle.set(q, solution.get(q));
    }
    puzzle.set(c, None);
    // Remove v from p's column and box (those cells are not peers of c), then put v at p.
    for &q in units.peers(p) {
        if q.row(shape) != r && puzzle.get(q) == Some(v) {
            puzzle.set(q, None);
        }
    }
    puzzle.set(p, Some(v));
    puzzle
}

fn generate(shape: Shape, kind: Planted, seed: u64, keep: f64) -> (Grid, Grid) {
    let mut rng = Rng::new(seed);
    let units = Units::standard(shape);
    let solution = solved(shape, &mut rng);
    let puzzle = match kind {
        Planted::Unique => forced_unique(&solution, &units, &mut rng, shape.cells()),
        Planted::Several => several(&solution, keep, &mut rng),
        Planted::None => contradiction(&solution, &units, keep, &mut rng),
        Planted::AtLeastOne => carve(&solution, keep, &mut rng),
    };
    (solution, puzzle)
}

/// Runs both backends through `cross_check` and checks the verdict against the planted expectation.
fn check_planted(shape: Shape, kind: Planted, seed: u64, keep: f64) -> Result<(), TestCaseError> {
    let (solution, puzzle) = generate(shape, kind, seed, keep);
    let units = Units::standard(shape);
    prop_assert!(
        units.find_clash(&puzzle).is_none(),
        "generator made a clash"
    );
    for solver in SatSolver::available() {
        check_planted_on(shape, kind, seed, &solution, &puzzle, &units, solver)?;
    }
    Ok(())
}

/// [`check_planted`] with the SAT backend on `solver`.
fn check_planted_on(
    shape: Shape,
    kind: Planted,
    seed: u64,
    solution: &Grid,
    puzzle: &Grid,
    units: &Units,
    solver: SatSolver,
) -> Result<(), TestCaseError> {
    let dfs = DfsBackend::new();
    let sat = SatBackend::default().with_solver(solver).unwrap();
    let check = cross_check(units, puzzle, &dfs, &sat, &Limits::unique());
    let Verdict::Agree(status) = check.verdict.clone() else {
        return Err(TestCaseError::fail(format!(
            "{shape} {kind:?} seed {seed} {solver}: {:?}",
            check.verdict
        )));
    };
    match kind {
        Planted::Unique => {
            prop_assert_eq!(status, Status::Unique);
            prop_assert_eq!(check.solution(), Some(solution));
        }
        Planted::Several => prop_assert_eq!(status, Status::Multiple),
        Planted::None => prop_assert_eq!(status, Status::None),
        Planted::AtLeastOne => {
            prop_assert!(matches!(status, Status::Unique | Status::Multiple));
            if status == Status::Unique {
                prop_assert_eq!(check.solution(), Some(solution));
            }
        }
    }
    // Independent of the verdict logic: every grid verifies.
    for answer in &check.answers {
        let report = answer.report.as_ref().unwrap();
        for g in report.outcome.grids() {
            prop_assert!(verify(units, puzzle, g).is_ok());
        }
    }
    Ok(())
}

fn runner(cases: u32, seed: u8) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

fn kind() -> impl Strategy<Value = Planted> {
    prop_oneof![
        Just(Planted::Unique),
        Just(Planted::Several),
        Just(Planted::None),
        Just(Planted::AtLeastOne),
    ]
}

#[test]
fn backends_agree_on_planted_puzzles_small_shapes() {
    runner(200, 1)
        .run(
            &(0..3usize, kind(), any::<u64>(), 0.15f64..0.9),
            |(s, kind, seed, keep)| {
                let (r, c) = SHAPES[s];
                check_planted(Shape::new(r, c).unwrap(), kind, seed, keep)
            },
        )
        .unwrap();
}

#[test]
fn backends_agree_on_planted_puzzles_large_shapes() {
    // 12x12 and 16x16: keep enough givens that neither backend meets a phase-transition monster.
    runner(60, 2)
        .run(
            &(3..5usize, kind(), any::<u64>(), 0.55f64..0.9),
            |(s, kind, seed, keep)| {
                let (r, c) = SHAPES[s];
                check_planted(Shape::new(r, c).unwrap(), kind, seed, keep)
            },
        )
        .unwrap();
}

#[test]
fn generators_do_what_they_claim() {
    // The constructions, checked by brute force on 4x4 where every completion can be enumerated.
    let shape = Shape::new(2, 2).unwrap();
    let units = Units::standard(shape);
    let all = all_4x4(&units);
    assert_eq!(all.len(), 288, "the number of 4x4 Sudoku grids");
    for seed in 0..200 {
        let count = |p: &Grid| all.iter().filter(|g| verify(&units, p, g).is_ok()).count();
        assert_eq!(
            count(&generate(shape, Planted::Unique, seed, 0.5).1),
            1,
            "seed {seed}"
        );
        assert!(
            count(&generate(shape, Planted::Several, seed, 0.5).1) >= 2,
            "seed {seed}"
        );
        assert_eq!(
            count(&generate(shape, Planted::None, seed, 0.5).1),
            0,
            "seed {seed}"
        );
        assert!(
            count(&generate(shape, Planted::AtLeastOne, seed, 0.5).1) >= 1,
            "seed {seed}"
        );
    }
}

/// Every valid 4x4 grid, by exhaustive enumeration (independent of both backends).
fn all_4x4(units: &Units) -> Vec<Grid> {
    let mut out = Vec::new();
    let mut values = [0u16; 16];
    fn fill(i: usize, values: &mut [u16; 16], units: &Units, out: &mut Vec<Grid>) {
        if i == 16 {
            out.push(Grid::from_values(units.shape(), values.to_vec()).unwrap());
            return;
        }
        for d in 1..=4u16 {
            if units
                .peers(Cell::new(i))
                .iter()
                .all(|p| values[p.index()] != d)
            {
                values[i] = d;
                fill(i + 1, values, units, out);
                values[i] = 0;
            }
        }
    }
    fill(0, &mut values, units, &mut out);
    out
}

/// A backend that lies (test-only), to show the cross-check can fail.
struct Liar {
    inner: DfsBackend,
    lie: Lie,
}

#[derive(Clone, Copy)]
enum Lie {
    WrongDigit,
    ClaimUnique,
}

impl Backend for Liar {
    fn name(&self) -> &'static str {
        "liar"
    }

    fn solve(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
    ) -> Result<satdoku::Report, satdoku::SolveError> {
        let mut r = self.inner.solve(units, puzzle, limits)?;
        r.outcome = match (self.lie, r.outcome) {
            (Lie::WrongDigit, Outcome::Unique(mut g)) => {
                let c = Cell::new(0);
                let d = g.get(c).unwrap().get() % g.n() as u16 + 1;
                g.set(c, Digit::new(d));
                Outcome::Unique(g)
            }
            (Lie::ClaimUnique, Outcome::Multiple { solutions, .. }) => {
                let [a, _] = solutions;
                Outcome::Unique(*a)
            }
            (_, o) => o,
        };
        Ok(r)
    }
}

#[test]
fn a_lying_backend_is_caught() {
    let shape = Shape::new(3, 3).unwrap();
    let units = Units::standard(shape);
    let sat = SatBackend::default();
    for seed in 0..20 {
        let (_, unique) = generate(shape, Planted::Unique, seed, 0.5);
        let liar = Liar {
            inner: DfsBackend::new(),
            lie: Lie::WrongDigit,
        };
        let v = cross_check(&units, &unique, &liar, &sat, &Limits::unique()).verdict;
        assert!(matches!(v, Verdict::Disagree(_)), "seed {seed}: {v:?}");

        let (_, several) = generate(shape, Planted::Several, seed, 0.5);
        let liar = Liar {
            inner: DfsBackend::new(),
            lie: Lie::ClaimUnique,
        };
        let v = cross_check(&units, &several, &liar, &sat, &Limits::unique()).verdict;
        assert!(matches!(v, Verdict::Disagree(_)), "seed {seed}: {v:?}");
    }
}
