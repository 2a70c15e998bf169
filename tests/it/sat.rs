//! The SAT backend: known answers, round trips through real external solvers, and planted property
//! tests. Every grid a backend returns is checked by `verify`; expected answers come from outside
//! (published counts, published solutions, puzzles unique or unsatisfiable by construction, a
//! brute-force counter written here).

use std::path::Path;
use std::process::Command;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use satdoku::sat::{
    Amo, Encoding, SatBackend, SatSolver, Simplify, SolverAnswer, decode_model,
    parse_solver_output, write_dimacs,
};
use satdoku::{Backend, Cell, Digit, Grid, Limits, Outcome, Shape, Status, Units, verify};

use crate::common::{Rng, carve, solved};

/// A 9x9 grid from an 81-character line (`1`-`9`, anything else blank).
fn grid81(line: &str) -> Grid {
    let v: Vec<u16> = line
        .bytes()
        .map(|b| {
            if b.is_ascii_digit() {
                u16::from(b - b'0')
            } else {
                0
            }
        })
        .collect();
    Grid::from_values(Shape::new(3, 3).unwrap(), v).unwrap()
}

/// Each configuration on every SAT solver compiled in (the test matrix: varisat always, CaDiCaL
/// with the `cadical` feature).
fn on_every_solver(configs: Vec<SatBackend>) -> Vec<SatBackend> {
    SatSolver::available()
        .into_iter()
        .flat_map(|solver| configs.iter().map(move |b| b.with_solver(solver).unwrap()))
        .collect()
}

/// Every encoding × amo × simplification × solver.
fn all_configs() -> Vec<SatBackend> {
    let mut v = Vec::new();
    for e in Encoding::ALL {
        for a in Amo::ALL {
            for s in Simplify::ALL {
                v.push(SatBackend::new(e, a).with_simplify(s));
            }
        }
    }
    on_every_solver(v)
}

/// Configurations cheap enough for grids of side `n` in a debug build: all up to 9x9; above, the
/// pruned encoding with every amo, and one plain encoding with a linear amo; on every solver.
fn configs_for(n: usize) -> Vec<SatBackend> {
    if n <= 9 {
        return all_configs();
    }
    let mut v: Vec<SatBackend> = Amo::ALL
        .into_iter()
        .map(|a| SatBackend::new(Encoding::Pruned, a))
        .collect();
    v.push(SatBackend::new(Encoding::Pruned, Amo::Pairwise).with_simplify(Simplify::None));
    v.push(SatBackend::new(Encoding::Extended, Amo::Product).with_simplify(Simplify::Propagate));
    on_every_solver(v)
}

/// Solves and checks every grid of the outcome with `verify`.
fn solve_checked(b: &SatBackend, units: &Units, puzzle: &Grid, limits: &Limits) -> Outcome {
    let r = b.solve(units, puzzle, limits).unwrap();
    for g in r.outcome.grids() {
        verify(units, puzzle, g).unwrap_or_else(|e| panic!("{b:?}: {e}"));
    }
    r.outcome
}

// ---------------------------------------------------------------------------------------------
// Known answers.

/// sabuncu3 from `/work/shared/datasets/9x9-sudoku-acs-logic-solvable.txt` (huwlloyd-mmu/sudoku_acs
/// instances), rows as there with `-1` as `.`: the dataset README records exactly 27 solutions.
const SABUNCU3_ROWS: [&str; 9] = [
    "842......",
    "...5.17..",
    "......38.",
    "95......2",
    "....5....",
    "...9...46",
    "1....74..",
    "..8.6....",
    "..4....38",
];

#[test]
fn sabuncu3_has_exactly_27_solutions() {
    let puzzle = grid81(&SABUNCU3_ROWS.concat());
    let units = Units::standard(puzzle.shape());
    for b in all_configs() {
        let out = solve_checked(&b, &units, &puzzle, &Limits::count_to(100));
        assert!(
            matches!(
                out,
                Outcome::Multiple {
                    count: 27,
                    complete: true,
                    ..
                }
            ),
            "{b:?}: {:?} {}",
            out.status(),
            out.count()
        );
        // Stopping at 2 reports multiple, not complete.
        let out = solve_checked(&b, &units, &puzzle, &Limits::unique());
        assert!(matches!(
            out,
            Outcome::Multiple {
                count: 2,
                complete: false,
                ..
            }
        ));
    }
}

/// The fourth line of `/work/shared/datasets/serg-benchmark.txt` (tdoku's serg_benchmark; the
/// dataset README: every puzzle there has at least two solutions).
const SERG: &str =
    "8.........95.......76.........428967...573412...691583.....4196....3.748...8..235";

#[test]
fn serg_benchmark_puzzle_has_several_solutions() {
    let puzzle = grid81(SERG);
    let units = Units::standard(puzzle.shape());
    for b in all_configs() {
        let out = solve_checked(&b, &units, &puzzle, &Limits::unique());
        assert_eq!(out.status(), Status::Multiple, "{b:?}");
        let [a, c] = match &out {
            Outcome::Multiple { solutions, .. } => [&solutions[0], &solutions[1]],
            _ => unreachable!(),
        };
        assert_ne!(a, c);
        // First-solution mode finds one.
        let out = solve_checked(&b, &units, &puzzle, &Limits::first());
        assert_eq!(out.status(), Status::Solved, "{b:?}");
    }
}

#[test]
fn empty_4x4_has_288_solutions() {
    // 288 = 4! · 12: the known number of 4x4 Sudoku grids.
    let s = Shape::new(2, 2).unwrap();
    let units = Units::standard(s);
    for b in all_configs() {
        let out = solve_checked(&b, &units, &Grid::empty(s), &Limits::count_to(1000));
        assert!(
            matches!(
                out,
                Outcome::Multiple {
                    count: 288,
                    complete: true,
                    ..
                }
            ),
            "{b:?}"
        );
    }
}

/// The sample of the judge problem POJ 3076 (= UVa 1309, SPOJ SUDOKU): 16x16, letters A-P, `-`
/// blank, with its published sample output (`/work/shared/datasets/16x16-poj3076-sample*.txt`).
const POJ3076: [&str; 16] = [
    "--A----C-----O-I",
    "-J--A-B-P-CGF-H-",
    "--D--F-I-E----P-",
    "-G-EL-H----M-J--",
    "----E----C--G---",
    "-I--K-GA-B---E-J",
    "D-GP--J-F----A--",
    "-E---C-B--DP--O-",
    "E--F-M--D--L-K-A",
    "-C--------O-I-L-",
    "H-P-C--F-A--B---",
    "---G-OD---J----H",
    "K---J----H-A-P-L",
    "--B--P--E--K--A-",
    "-H--B--K--FI-C--",
    "--F---C--D--H-N-",
];
const POJ3076_SOLUTION: [&str; 16] = [
    "FPAHMJECNLBDKOGI",
    "OJMIANBDPKCGFLHE",
    "LNDKGFOIJEAHMBPC",
    "BGCELKHPOFIMAJDN",
    "MFHBELPOACKJGNID",
    "CILNKDGAHBMOPEFJ",
    "DOGPIHJMFNLECAKB",
    "JEKAFCNBGIDPLHOM",
    "EBOFPMIJDGHLNKCA",
    "NCJDHBAEKMOFIGLP",
    "HMPLCGKFIAENBDJO",
    "AKIGNODLBPJCEFMH",
    "KDEMJIFNCHGAOPBL",
    "GLBCDPMHEONKJIAF",
    "PHNOBALKMJFIDCEG",
    "IAFJOECGLDPBHMNK",
];

fn letters16(rows: &[&str; 16]) -> Grid {
    let v: Vec<u16> = rows
        .concat()
        .bytes()
        .map(|b| match b {
            b'A'..=b'P' => u16::from(b - b'A') + 1,
            _ => 0,
        })
        .collect();
    Grid::from_values(Shape::new(4, 4).unwrap(), v).unwrap()
}

#[test]
fn poj3076_16x16_matches_the_published_solution() {
    let puzzle = letters16(&POJ3076);
    let expected = letters16(&POJ3076_SOLUTION);
    let units = Units::standard(puzzle.shape());
    verify(&units, &puzzle, &expected).unwrap();
    for b in configs_for(16) {
        let out = solve_checked(&b, &units, &puzzle, &Limits::unique());
        assert_eq!(out, Outcome::Unique(expected.clone()), "{b:?}");
    }
}

/// "Platinum Blonde", from `/work/shared/datasets/9x9-sudoku-acs-logic-solvable.txt` (rows as
/// there, `-1` as `.`): unique, hard for logic.
const PLATINUM_BLONDE: [&str; 9] = [
    ".......12",
    "........3",
    "..23..4..",
    "..18....5",
    ".6..7.8..",
    ".....9...",
    "..85.....",
    "9...4.5..",
    "47...6...",
];

#[test]
fn a_hard_unique_puzzle_gets_one_answer_from_every_configuration() {
    let puzzle = grid81(&PLATINUM_BLONDE.concat());
    let units = Units::standard(puzzle.shape());
    let mut answers = Vec::new();
    for b in all_configs() {
        match solve_checked(&b, &units, &puzzle, &Limits::unique()) {
            Outcome::Unique(g) => answers.push(g),
            other => panic!("{b:?}: {:?}", other.status()),
        }
    }
    answers.dedup();
    assert_eq!(answers.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Interoperability: our DIMACS through the real Debian solvers, their answers decoded.

/// An external solver and how to run it on a CNF file; returns its answer text.
struct External {
    name: &'static str,
    run: fn(&Path, &Path) -> std::io::Result<String>,
}

fn stdout_of(mut cmd: Command) -> std::io::Result<String> {
    let out = cmd.output()?;
    // Exit codes 10 (SAT) and 20 (UNSAT) are the SAT-competition convention.
    match out.status.code() {
        Some(10 | 20) => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        other => panic!(
            "{cmd:?} exited with {other:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

const EXTERNAL: [External; 4] = [
    External {
        name: "minisat",
        // MiniSat prints statistics; its model goes to the result file named after the input.
        run: |cnf, dir| {
            let result = dir.join("minisat.out");
            let mut cmd = Command::new("minisat");
            cmd.arg("-verb=0").arg(cnf).arg(&result);
            stdout_of(cmd)?;
            std::fs::read_to_string(result)
        },
    },
    External {
        name: "picosat",
        run: |cnf, _| {
            let mut cmd = Command::new("picosat");
            cmd.arg(cnf);
            stdout_of(cmd)
        },
    },
    External {
        name: "cadical",
        run: |cnf, _| {
            let mut cmd = Command::new("cadical");
            cmd.arg("-q").arg(cnf);
            stdout_of(cmd)
        },
    },
    External {
        name: "cryptominisat5",
        run: |cnf, _| {
            let mut cmd = Command::new("cryptominisat5");
            cmd.arg("--verb").arg("0").arg(cnf);
            stdout_of(cmd)
        },
    },
];

/// Whether `bin` is installed (see [`crate::common::tool_available`]).
pub(crate) fn available(bin: &str) -> bool {
    crate::common::tool_available(bin)
}

#[test]
fn external_solvers_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(3);
    let six = Shape::new(2, 3).unwrap();
    let six_solution = solved(six, &mut rng);
    let cases: Vec<(&str, Grid)> = vec![
        // First puzzle line of `/work/shared/datasets/17-clue.txt` (unique).
        (
            "17-clue #1",
            grid81(
                ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            ),
        ),
        ("platinum blonde", grid81(&PLATINUM_BLONDE.concat())),
        ("6x6 forced", forced_puzzle(&six_solution, &mut rng)),
        ("16x16 poj3076", letters16(&POJ3076)),
        ("serg (several solutions)", grid81(SERG)),
        (
            "unsat by construction",
            unsat_puzzle(&grid81_solution(), 0, &mut rng),
        ),
    ];
    let encodings: Vec<(Encoding, Amo)> = vec![
        (Encoding::Minimal, Amo::Pairwise),
        (Encoding::Efficient, Amo::Pairwise),
        (Encoding::Extended, Amo::Pairwise),
        (Encoding::Pruned, Amo::Pairwise),
        (Encoding::Extended, Amo::Sequential),
        (Encoding::Pruned, Amo::Product),
        (Encoding::Pruned, Amo::Commander),
        (Encoding::Pruned, Amo::Bimander),
    ];
    let mut ran = 0;
    for ext in &EXTERNAL {
        if !available(ext.name) {
            continue;
        }
        for (label, puzzle) in &cases {
            let units = Units::standard(puzzle.shape());
            let ours = SatBackend::default()
                .solve(&units, puzzle, &Limits::unique())
                .unwrap()
                .outcome;
            for &(e, a) in &encodings {
                if puzzle.n() > 9 && e != Encoding::Pruned && a == Amo::Pairwise {
                    continue; // keep the 16x16 files small
                }
                let cnf = dir.path().join(format!("{}.cnf", ext.name));
                write_dimacs(std::fs::File::create(&cnf).unwrap(), &units, puzzle, e, a).unwrap();
                let text = (ext.run)(&cnf, dir.path()).unwrap();
                let what = format!("{} on {label}, {e}/{a}", ext.name);
                match parse_solver_output(&text).unwrap_or_else(|err| panic!("{what}: {err}")) {
                    SolverAnswer::Satisfiable(model) => {
                        let grid = decode_model(&units, puzzle, e, &model)
                            .unwrap_or_else(|err| panic!("{what}: {err}"));
                        verify(&units, puzzle, &grid).unwrap_or_else(|err| panic!("{what}: {err}"));
                        match &ours {
                            Outcome::Unique(g) => assert_eq!(&grid, g, "{what}"),
                            Outcome::Multiple { .. } => {}
                            other => panic!("{what}: we said {:?}", other.status()),
                        }
                    }
                    SolverAnswer::Unsatisfiable => {
                        assert_eq!(ours, Outcome::NoSolution, "{what}")
                    }
                    SolverAnswer::Unknown => panic!("{what}: unknown"),
                }
                ran += 1;
            }
        }
    }
    eprintln!("external solver runs: {ran}");
}

// ---------------------------------------------------------------------------------------------
// Planted puzzles.

/// A fixed solved 9x9 grid (the pattern of `common::pattern`, shuffled with a fixed seed).
fn grid81_solution() -> Grid {
    solved(Shape::new(3, 3).unwrap(), &mut Rng::new(81))
}

/// The givens among the peers of `cell`, as a bit set (bit d − 1 for digit d).
fn peer_givens(units: &Units, g: &Grid, cell: Cell) -> u64 {
    units
        .peers(cell)
        .iter()
        .filter_map(|&p| g.get(p))
        .fold(0, |m, d| m | 1 << d.index())
}

/// Blanks cells of `solution` in random order, keeping a blank only while every blank cell stays
/// forced (its peers' givens cover the other N − 1 digits). Unique by construction: each blank
/// cell can only hold its planted digit.
fn forced_puzzle(solution: &Grid, rng: &mut Rng) -> Grid {
    let units = Units::standard(solution.shape());
    let n = solution.n();
    let mut g = solution.clone();
    let mut order: Vec<usize> = (0..solution.shape().cells()).collect();
    rng.shuffle(&mut order);
    let forced = |g: &Grid, c: Cell| peer_givens(&units, g, c).count_ones() as usize == n - 1;
    for i in order {
        let cell = Cell::new(i);
        let d = g.get(cell);
        g.set(cell, None);
        let ok = forced(&g, cell)
            && units
                .peers(cell)
                .iter()
                .all(|&p| g.get(p).is_some() || forced(&g, p));
        if !ok {
            g.set(cell, d);
        }
    }
    g
}

/// A puzzle without solution and without two equal givens in a unit: blank a cell c (planted v),
/// set a peer p in c's row outside c's box to v, and blank the other v's in p's column and box. Then
/// c's peers hold all N digits: its row all but p's old digit w, its column w. `extra_blanks`
/// further cells that are not peers of c are blanked.
fn unsat_puzzle(solution: &Grid, extra_blanks: usize, rng: &mut Rng) -> Grid {
    let shape = solution.shape();
    let units = Units::standard(shape);
    let n = shape.n();
    let c = Cell::new(rng.below(shape.cells()));
    let (row, col) = (c.row(shape), c.col(shape));
    let v = solution.get(c).unwrap();
    let outside: Vec<usize> = (0..n)
        .filter(|&j| shape.block_of(row, j) != shape.block_of(row, col))
        .collect();
    let p = Cell::at(shape, row, outside[rng.below(outside.len())]);
    let mut g = solution.clone();
    g.set(c, None);
    g.set(p, Some(v));
    let (prow, pcol) = (p.row(shape), p.col(shape));
    for i in 0..shape.cells() {
        let q = Cell::new(i);
        let (r, cc) = (q.row(shape), q.col(shape));
        let in_p_units = cc == pcol || shape.block_of(r, cc) == shape.block_of(prow, pcol);
        if q != p && in_p_units && g.get(q) == Some(v) {
            g.set(q, None);
        }
    }
    let mut others: Vec<usize> = (0..shape.cells())
        .filter(|&i| {
            Cell::new(i) != c && Cell::new(i) != p && !units.peers(c).contains(&Cell::new(i))
        })
        .collect();
    rng.shuffle(&mut others);
    for &i in others.iter().take(extra_blanks) {
        g.set(Cell::new(i), None);
    }
    assert_eq!(peer_givens(&units, &g, c).count_ones() as usize, n);
    g
}

/// Counts solutions up to `cap` by plain backtracking over the unit list: independent of both
/// backends.
fn brute_force_count(units: &Units, puzzle: &Grid, cap: u64) -> u64 {
    fn go(units: &Units, g: &mut Grid, cap: u64, found: &mut u64) {
        let Some(i) = g.values().iter().position(|&v| v == 0) else {
            *found += 1;
            return;
        };
        let cell = Cell::new(i);
        let used = peer_givens(units, g, cell);
        for d in 1..=g.n() as u16 {
            if used >> (d - 1) & 1 == 0 {
                g.set(cell, Digit::new(d));
                go(units, g, cap, found);
                g.set(cell, None);
                if *found >= cap {
                    return;
                }
            }
        }
    }
    let mut g = puzzle.clone();
    let mut found = 0;
    go(units, &mut g, cap, &mut found);
    found
}

/// Larger grids (issue 15): planted puzzles of 25x25, 36x36 and 64x64 on every pruned
/// configuration (every at-most-one scheme) and solver. A forced puzzle has exactly its planted
/// solution; a carved one (70 % of the cells kept, up to 36x36) gets the same status and count
/// (counting to 3) from the native backend and every configuration, each grid verified.
#[test]
fn planted_large_grids_agree_with_the_native_backend() {
    for (r, c, seed) in [(5, 5, 11u64), (6, 6, 12), (8, 8, 13)] {
        let shape = Shape::new(r, c).unwrap();
        let units = Units::standard(shape);
        let mut rng = Rng::new(seed);
        let solution = solved(shape, &mut rng);
        let configs: Vec<SatBackend> = configs_for(shape.n())
            .into_iter()
            .filter(|b| b.encoding() == Encoding::Pruned)
            .collect();
        let forced = forced_puzzle(&solution, &mut rng);
        assert!(forced.filled() < shape.cells(), "{shape}");
        for b in &configs {
            let out = solve_checked(b, &units, &forced, &Limits::unique());
            assert_eq!(out, Outcome::Unique(solution.clone()), "{shape} {b:?}");
        }
        if shape.n() > 36 {
            continue;
        }
        let carved = carve(&solution, 0.7, &mut rng);
        let limits = Limits::count_to(3);
        let native = satdoku::DfsBackend::new()
            .solve(&units, &carved, &limits)
            .unwrap()
            .outcome;
        for g in native.grids() {
            verify(&units, &carved, g).unwrap();
        }
        assert_ne!(native.status(), Status::Unknown, "{shape}");
        for b in &configs {
            let out = solve_checked(b, &units, &carved, &limits);
            assert_eq!(out.status(), native.status(), "{shape} {b:?}");
            assert_eq!(out.count(), native.count(), "{shape} {b:?}");
        }
    }
}

/// Shapes for the property tests, kept fast in a debug build.
const SHAPES: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)];

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x05A7_D0C0),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(12))]

    /// Every configuration accepts exactly the planted solution of a puzzle unique by construction.
    #[test]
    fn forced_puzzles_have_exactly_the_planted_solution(seed in any::<u64>(), s in 0..SHAPES.len()) {
        let shape = Shape::new(SHAPES[s].0, SHAPES[s].1).unwrap();
        let mut rng = Rng::new(seed);
        let solution = solved(shape, &mut rng);
        let puzzle = forced_puzzle(&solution, &mut rng);
        let units = Units::standard(shape);
        for b in configs_for(shape.n()) {
            let out = solve_checked(&b, &units, &puzzle, &Limits::unique());
            prop_assert_eq!(&out, &Outcome::Unique(solution.clone()), "{:?}", b);
        }
    }

    /// Every configuration rejects a puzzle unsatisfiable by construction.
    #[test]
    fn unsat_puzzles_have_no_solution(seed in any::<u64>(), s in 0..SHAPES.len(), extra in 0usize..40) {
        let shape = Shape::new(SHAPES[s].0, SHAPES[s].1).unwrap();
        let mut rng = Rng::new(seed);
        let solution = solved(shape, &mut rng);
        let puzzle = unsat_puzzle(&solution, extra, &mut rng);
        let units = Units::standard(shape);
        prop_assert!(units.find_clash(&puzzle).is_none());
        for b in configs_for(shape.n()) {
            let out = solve_checked(&b, &units, &puzzle, &Limits::unique());
            prop_assert_eq!(out, Outcome::NoSolution, "{:?}", b);
        }
    }

    /// On small grids, solution counts agree with brute force (capped), for random carvings that may
    /// have one, several or (with a wrong given) no solution.
    #[test]
    fn counts_agree_with_brute_force(seed in any::<u64>(), s in 0usize..3, keep in 0.2f64..0.7, wrong in any::<bool>()) {
        let shape = Shape::new(SHAPES[s].0, SHAPES[s].1).unwrap();
        let mut rng = Rng::new(seed);
        let solution = solved(shape, &mut rng);
        let mut puzzle = carve(&solution, keep, &mut rng);
        let units = Units::standard(shape);
        if wrong {
            // Change one given to a digit its units lack: no clash, but maybe no solution.
            let filled: Vec<usize> = (0..shape.cells()).filter(|&i| puzzle.values()[i] != 0).collect();
            if let Some(&i) = filled.first() {
                let used = peer_givens(&units, &puzzle, Cell::new(i));
                if let Some(d) = (1..=shape.n() as u16).find(|&d| used >> (d - 1) & 1 == 0 && Some(d) != puzzle.get(Cell::new(i)).map(|x| x.get())) {
                    puzzle.set(Cell::new(i), Digit::new(d));
                }
            }
        }
        prop_assume!(units.find_clash(&puzzle).is_none());
        let cap = 40;
        let expected = brute_force_count(&units, &puzzle, cap);
        for b in configs_for(shape.n()) {
            let out = solve_checked(&b, &units, &puzzle, &Limits::count_to(cap));
            prop_assert_eq!(out.count(), expected, "{:?}", b);
            let complete = matches!(out, Outcome::Multiple { complete: true, .. } | Outcome::Unique(_) | Outcome::NoSolution);
            prop_assert_eq!(complete, expected < cap, "{:?}", b);
        }
    }
}
