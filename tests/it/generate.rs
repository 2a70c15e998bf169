//! Generated puzzles, judged without the generator's word: each is unique by a count to two of both
//! backends and its solution passes the verifier; minimal when asked (every given removed in turn
//! gives `multiple`); symmetric as asked; the same from the same seed, at any `--jobs`; `generate |
//! solve --unique` round trips in every text layout, rules included; certificates pass `rate`.

use std::collections::BTreeSet;
use std::sync::Arc;

use satdoku::generate::{GenerateError, Generated, Generator, Killer, Level, Symmetry, Target};
use satdoku::sat::SatBackend;
use satdoku::{
    Backend, Cell, Clue, DfsBackend, Grid, Limits, Outcome, Problem, Report, Shape, SolveError,
    Stats, Status, Units, Variant, verify,
};

use crate::common::{json_lines, satdoku};

/// The one solution of `puzzle` under `units`, by a count to two of the native and the SAT backend
/// (each answer's grid verified); panics, naming `what`, unless both say unique with that grid.
fn unique_by_both(units: &Units, puzzle: &Grid, what: &str) -> Grid {
    let dfs = DfsBackend::new().solve(units, puzzle, &Limits::unique());
    let sat = SatBackend::default().solve(units, puzzle, &Limits::unique());
    let (Ok(dfs), Ok(sat)) = (dfs, sat) else {
        panic!("{what}: a backend failed");
    };
    let (Outcome::Unique(a), Outcome::Unique(b)) = (&dfs.outcome, &sat.outcome) else {
        panic!(
            "{what}: dfs says {}, sat says {}",
            dfs.outcome.status().word(),
            sat.outcome.status().word()
        );
    };
    assert_eq!(a, b, "{what}: different solutions");
    assert_eq!(verify(units, puzzle, a), Ok(()), "{what}");
    a.clone()
}

/// Whether the native backend counts two solutions (or more) for `puzzle`.
fn multiple(units: &Units, puzzle: &Grid) -> bool {
    let r = DfsBackend::new()
        .solve(units, puzzle, &Limits::unique())
        .unwrap();
    r.outcome.count() >= 2
}

/// Checks what any generated puzzle must be: unique by both backends with the solution it came
/// with, givens taken from that solution, the symmetry kept.
fn check(g: &Generated, symmetry: Symmetry, what: &str) {
    let solution = unique_by_both(&g.units, &g.puzzle, what);
    assert_eq!(solution, g.solution, "{what}");
    for (i, &v) in g.puzzle.values().iter().enumerate() {
        assert!(v == 0 || v == solution.values()[i], "{what}: given r{i}");
    }
    assert!(symmetry.holds(&g.puzzle), "{what}: not {symmetry}");
}

/// Removing any given (or any orbit of givens, under a symmetry) leaves several solutions.
fn check_minimal(g: &Generated, symmetry: Symmetry, what: &str) {
    let n = g.puzzle.n();
    let mut seen = BTreeSet::new();
    for i in 0..n * n {
        if g.puzzle.values()[i] == 0 {
            continue;
        }
        let (r, c) = symmetry.image(n, i / n, i % n);
        let orbit = [i, r * n + c];
        if !seen.insert(orbit.iter().min().copied()) {
            continue;
        }
        let mut less = g.puzzle.clone();
        for &j in &orbit {
            less.set(Cell::new(j), None);
        }
        assert!(
            multiple(&g.units, &less),
            "{what}: r{}c{} can go",
            i / n + 1,
            i % n + 1
        );
    }
}

#[test]
fn minimal_9x9_puzzles_are_unique_minimal_and_symmetric() {
    let shape = Shape::new(3, 3).unwrap();
    for symmetry in Symmetry::ALL {
        let generator = Generator::new(shape).symmetry(symmetry);
        for index in 0..3 {
            let g = generator.generate(11, index).unwrap();
            let what = format!("{symmetry} #{index}");
            check(&g, symmetry, &what);
            check_minimal(&g, symmetry, &what);
            assert!(
                (17..=40).contains(&g.givens()),
                "{what}: {} givens",
                g.givens()
            );
            assert_eq!(g.checked_by(), ["dfs", "sat"]);
        }
    }
    // A minimal puzzle, each given removed in turn: the SAT backend counts two as well.
    let g = Generator::new(shape).generate(12, 0).unwrap();
    for i in (0..81).filter(|&i| g.puzzle.values()[i] != 0) {
        let mut less = g.puzzle.clone();
        less.set(Cell::new(i), None);
        let r = SatBackend::default()
            .solve(&g.units, &less, &Limits::unique())
            .unwrap();
        assert_eq!(r.outcome.count(), 2, "r{}c{}", i / 9 + 1, i % 9 + 1);
    }
}

#[test]
fn other_shapes_and_ranges_of_givens() {
    // 16x16 and 25x25 at 45-65 % givens, as the benchmarks make them.
    for (r, c, range, count) in [
        (2, 2, None, 2),
        (2, 3, None, 2),
        (3, 4, Some((60, 90)), 2),
        (4, 4, Some((115, 166)), 3),
        (5, 5, Some((281, 406)), 1),
    ] {
        let shape = Shape::new(r, c).unwrap();
        let target = range.map_or(Target::Minimal, |(min, max)| Target::Givens { min, max });
        let generator = Generator::new(shape).target(target);
        for index in 0..count {
            let g = generator.generate(3, index).unwrap();
            let what = format!("{shape} #{index}");
            check(&g, Symmetry::None, &what);
            match range {
                Some((min, max)) => assert!((min..=max).contains(&g.givens()), "{what}"),
                None => check_minimal(&g, Symmetry::None, &what),
            }
        }
    }
}

#[test]
fn variants_jigsaws_and_killers() {
    let shape = Shape::new(3, 3).unwrap();
    let cases: Vec<(&str, Generator)> = vec![
        ("x", Generator::new(shape).variant(Variant::Diagonals)),
        ("windoku", Generator::new(shape).variant(Variant::Windoku)),
        (
            "disjoint",
            Generator::new(shape).variant(Variant::DisjointGroups),
        ),
        (
            "anti-knight",
            Generator::new(shape).variant(Variant::AntiKnight),
        ),
        (
            "anti-king",
            Generator::new(shape).variant(Variant::AntiKing),
        ),
        (
            "non-consecutive",
            Generator::new(shape).variant(Variant::NonConsecutive),
        ),
        ("jigsaw", Generator::new(shape).jigsaw(true)),
        ("killer", Generator::new(shape).killer(Killer::WithGivens)),
        ("pure killer", Generator::new(shape).killer(Killer::Pure)),
        (
            "6x6 jigsaw",
            Generator::new(Shape::new(2, 3).unwrap()).jigsaw(true),
        ),
    ];
    for (what, generator) in cases {
        let g = generator.generate(5, 0).unwrap();
        check(&g, Symmetry::None, what);
        if what.contains("killer") {
            // Cages of distinct digits covering the grid once, their sums the solution's.
            let mut covered = vec![0; g.puzzle.values().len()];
            for cage in g.units.cages() {
                let digits: BTreeSet<u16> = cage
                    .cells
                    .iter()
                    .map(|c| g.solution.values()[c.index()])
                    .collect();
                assert_eq!(digits.len(), cage.cells.len(), "{what}");
                assert_eq!(
                    digits.iter().map(|&d| u32::from(d)).sum::<u32>(),
                    cage.sum,
                    "{what}"
                );
                cage.cells.iter().for_each(|c| covered[c.index()] += 1);
            }
            assert!(covered.iter().all(|&k| k == 1), "{what}");
        }
        if what == "pure killer" {
            assert_eq!(g.givens(), 0);
        } else if !what.contains("killer") {
            check_minimal(&g, Symmetry::None, what);
        }
        if what.contains("jigsaw") {
            let (shape, n) = (g.puzzle.shape(), g.puzzle.n());
            let boxes: Vec<usize> = (0..n * n).map(|i| shape.block_of(i / n, i % n)).collect();
            assert!(g.units.is_jigsaw(), "{what}");
            assert_ne!(g.units.regions(), Some(boxes), "{what}: the boxes");
        }
    }
}

/// The clues of `units` read on `solution` by hand (not by the verifier nor the model): each
/// thermometer strictly increases from its bulb along king steps, each dot and X/V holds; with
/// `all_dots` / `all_xv`, every pair of orthogonal neighbours that is consecutive or double has a
/// dot, and every one adding up to 5 or 10 has its mark. Returns the clues of each kind.
fn check_clues(
    units: &Units,
    solution: &Grid,
    all_dots: bool,
    all_xv: bool,
    what: &str,
) -> [usize; 3] {
    let shape = solution.shape();
    let v = |c: &Cell| i32::from(solution.values()[c.index()]);
    let near = |a: &Cell, b: &Cell, king: bool| {
        let (dr, dc) = (
            a.row(shape).abs_diff(b.row(shape)),
            a.col(shape).abs_diff(b.col(shape)),
        );
        if king { dr.max(dc) == 1 } else { dr + dc == 1 }
    };
    let (mut thermos, mut dots, mut marks) = (0, BTreeSet::new(), BTreeSet::new());
    for clue in units.clues() {
        let cells = clue.cells();
        match clue {
            Clue::Thermo { .. } => {
                thermos += 1;
                assert!(cells.len() >= 3, "{what}: {clue:?}");
                for w in cells.windows(2) {
                    assert!(near(&w[0], &w[1], true), "{what}: {clue:?}");
                    assert!(v(&w[0]) < v(&w[1]), "{what}: {clue:?} not increasing");
                }
            }
            Clue::Kropki { black, .. } => {
                let (a, b) = (v(&cells[0]), v(&cells[1]));
                assert!(near(&cells[0], &cells[1], false), "{what}: {clue:?}");
                if *black {
                    assert!(a == 2 * b || b == 2 * a, "{what}: {clue:?}: {a}, {b}");
                } else {
                    assert_eq!(a.abs_diff(b), 1, "{what}: {clue:?}");
                }
                dots.insert((cells[0].index(), cells[1].index()));
            }
            Clue::Xv { sum, .. } => {
                assert!(near(&cells[0], &cells[1], false), "{what}: {clue:?}");
                assert_eq!(v(&cells[0]) + v(&cells[1]), *sum, "{what}: {clue:?}");
                assert!(*sum == 5 || *sum == 10, "{what}");
                marks.insert((cells[0].index(), cells[1].index()));
            }
            other => panic!("{what}: unexpected clue {other:?}"),
        }
    }
    let n = shape.n();
    for i in 0..n * n {
        for j in [i + 1, i + n] {
            if j >= n * n || (j == i + 1 && j % n == 0) {
                continue;
            }
            let (a, b) = (
                i32::from(solution.values()[i]),
                i32::from(solution.values()[j]),
            );
            if all_dots && (a.abs_diff(b) == 1 || a == 2 * b || b == 2 * a) {
                assert!(dots.contains(&(i, j)), "{what}: no dot at {i}-{j}");
            }
            if all_xv && (a + b == 5 || a + b == 10) {
                assert!(marks.contains(&(i, j)), "{what}: no X/V at {i}-{j}");
            }
        }
    }
    [thermos, dots.len(), marks.len()]
}

#[test]
fn placed_thermometers_dots_and_xv_are_true_unique_and_minimal() {
    let shape = Shape::new(3, 3).unwrap();
    let cases: Vec<(&str, Generator)> = vec![
        ("thermo", Generator::new(shape).thermometers(4)),
        ("kropki", Generator::new(shape).kropki(true)),
        (
            "strict kropki",
            Generator::new(shape)
                .kropki(true)
                .variant(Variant::StrictKropki),
        ),
        ("xv", Generator::new(shape).xv(true)),
        (
            "strict xv",
            Generator::new(shape).xv(true).variant(Variant::StrictXv),
        ),
        (
            "thermo, strict xv, x, rotational",
            Generator::new(shape)
                .thermometers(3)
                .xv(true)
                .variant(Variant::StrictXv)
                .variant(Variant::Diagonals)
                .symmetry(Symmetry::Rotational),
        ),
        (
            "6x6 thermo and kropki",
            Generator::new(Shape::new(2, 3).unwrap())
                .thermometers(2)
                .kropki(true),
        ),
    ];
    for (what, generator) in cases {
        let symmetry = if what.contains("rotational") {
            Symmetry::Rotational
        } else {
            Symmetry::None
        };
        for index in 0..2 {
            let what = format!("{what} #{index}");
            let g = generator.generate(8, index).unwrap();
            // Unique by a count to two of both backends; the solution passes the verifier (which
            // checks the clues and the strict rules as stated).
            check(&g, symmetry, &what);
            let [thermos, dots, marks] = check_clues(
                &g.units,
                &g.solution,
                what.contains("kropki"),
                what.contains("xv"),
                &what,
            );
            assert_eq!(
                thermos,
                match what.as_str() {
                    w if w.starts_with("thermo,") => 3,
                    w if w.starts_with("thermo") => 4,
                    w if w.starts_with("6x6") => 2,
                    _ => 0,
                },
                "{what}"
            );
            assert_eq!(dots > 0, what.contains("kropki"), "{what}");
            assert_eq!(marks > 0, what.contains("xv"), "{what}");
            check_minimal(&g, symmetry, &what);
        }
    }
}

#[test]
fn difficulty_with_variants_aims_the_removal_at_the_level() {
    // Minimal x + anti-knight puzzles are nearly all extreme; easy, medium and hard ones are made
    // by removing givens only while the puzzle stays within the level.
    // (Thermometers: singles read their relation both ways, from the bulb and from the tip.)
    let shape = Shape::new(3, 3).unwrap();
    let thermo = || Generator::new(shape).thermometers(4);
    let x_knight = || {
        Generator::new(shape)
            .variant(Variant::Diagonals)
            .variant(Variant::AntiKnight)
    };
    for (rules, level) in [
        ("x, anti-knight", Level::Easy),
        ("x, anti-knight", Level::Medium),
        ("x, anti-knight", Level::Hard),
        ("thermo", Level::Easy),
    ] {
        let generator = if rules == "thermo" {
            thermo()
        } else {
            x_knight()
        }
        .difficulty(Some(level))
        .attempts(20);
        for index in 0..2 {
            let what = format!("{rules} {level} #{index}");
            let g = generator.generate(1, index).unwrap();
            check(&g, Symmetry::None, &what);
            let measure = |p: &Grid| {
                satdoku::generate::Difficulty::measure(&g.units, p, &Limits::unique()).unwrap()
            };
            assert_eq!(measure(&g.puzzle).level, level, "{what}");
            assert_eq!(g.difficulty.level, level, "{what}");
            // Minimal for the level: each given removed makes it ambiguous or harder.
            for i in (0..81).filter(|&i| g.puzzle.values()[i] != 0) {
                let mut less = g.puzzle.clone();
                less.set(Cell::new(i), None);
                assert!(
                    multiple(&g.units, &less) || measure(&less).level > level,
                    "{what}: r{}c{} can go",
                    i / 9 + 1,
                    i % 9 + 1
                );
            }
        }
    }
    // Filtering minimal puzzles instead: the same level, fewer givens or as many.
    let aimed = Generator::new(shape)
        .variant(Variant::Windoku)
        .difficulty(Some(Level::Hard))
        .generate(3, 0)
        .unwrap();
    let filtered = Generator::new(shape)
        .variant(Variant::Windoku)
        .difficulty(Some(Level::Hard))
        .filter_minimal(true)
        .generate(3, 0)
        .unwrap();
    assert_eq!(filtered.difficulty.level, Level::Hard);
    check(&filtered, Symmetry::None, "filtered");
    check_minimal(&filtered, Symmetry::None, "filtered");
    assert_eq!(aimed.difficulty.level, Level::Hard);
}

#[test]
fn the_same_seed_and_index_give_the_same_puzzle() {
    let shape = Shape::new(3, 3).unwrap();
    let a = Generator::new(shape).jigsaw(true);
    let b = Generator::new(shape).jigsaw(true);
    let (x, y) = (a.generate(9, 4).unwrap(), b.generate(9, 4).unwrap());
    assert_eq!(
        (&x.puzzle, x.units.regions()),
        (&y.puzzle, y.units.regions())
    );
    assert_ne!(x.puzzle, a.generate(9, 5).unwrap().puzzle);
    assert_ne!(x.puzzle, a.generate(10, 4).unwrap().puzzle);
}

#[test]
fn from_a_solution_grid_keeps_it() {
    let shape = Shape::new(3, 3).unwrap();
    let units = Arc::new(Units::standard(shape));
    let solution = crate::common::solved(shape, &mut crate::common::Rng::new(8));
    let g = Generator::new(shape)
        .generate_from(&units, &solution, 1, 0)
        .unwrap();
    assert_eq!(g.solution, solution);
    check(&g, Symmetry::None, "from");
    // A grid that breaks a rule is refused.
    let mut bad = solution.clone();
    bad.set(Cell::new(0), solution.get(Cell::new(1)));
    assert!(
        Generator::new(shape)
            .generate_from(&units, &bad, 1, 0)
            .is_err()
    );
}

#[test]
fn difficulty_levels_filter_and_can_be_measured_again() {
    let shape = Shape::new(3, 3).unwrap();
    for level in [Level::Easy, Level::Hard] {
        let g = Generator::new(shape)
            .difficulty(Some(level))
            .generate(2, 0)
            .unwrap();
        assert_eq!(g.difficulty.level, level);
        let again =
            satdoku::generate::Difficulty::measure(&g.units, &g.puzzle, &Limits::unique()).unwrap();
        assert_eq!(again.level, level);
        assert_eq!(
            (again.nodes, again.guesses),
            (g.difficulty.nodes, g.difficulty.guesses)
        );
    }
    // No 4x4 puzzle needs 20 guesses: the attempts run out.
    let e = Generator::new(Shape::new(2, 2).unwrap())
        .difficulty(Some(Level::Extreme))
        .attempts(5)
        .generate(1, 0)
        .unwrap_err();
    assert!(e.to_string().contains("5 attempt"), "{e}");
}

/// The native backend under a node budget of its own (whatever the limits say), for a final answer
/// that cannot reach every puzzle; or a backend that answers `none` to everything.
enum Final {
    Capped(u64),
    SaysNone,
}

impl Backend for Final {
    fn name(&self) -> &'static str {
        match self {
            Final::Capped(_) => "dfs",
            Final::SaysNone => "sat",
        }
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        match *self {
            Final::Capped(nodes) => {
                DfsBackend::new().solve(units, puzzle, &limits.with_budget(Some(nodes)))
            }
            Final::SaysNone => Ok(Report::new(Outcome::NoSolution, Stats::default())),
        }
    }
}

/// A puzzle whose final native answer hits its limit past the hard level's guesses is settled by
/// the SAT backend alone (extreme, `checked` says `sat`), where it used to be thrown away (minimal
/// 16x16 jigsaws took minutes, killers never came); below that level, or when fast, it is still a
/// miss; a SAT answer that contradicts the oracle is still a disagreement.
#[test]
fn a_puzzle_beyond_the_native_limit_is_settled_by_sat_alone() {
    let shape = Shape::new(4, 4).unwrap();
    // Minimal 16x16 puzzles take 39 to 4865 nodes counting to two (seed 5): about half pass 300.
    let capped = |nodes| {
        Generator::new(shape).with_backends(
            Box::new(Final::Capped(nodes)),
            Box::new(SatBackend::default()),
        )
    };
    let mut alone = None;
    for index in 0..6 {
        let g = capped(300).generate(5, index).unwrap();
        check(&g, Symmetry::None, "capped");
        match g.checked_by()[..] {
            ["dfs", "sat"] => assert!(g.difficulty.nodes <= 300),
            ["sat"] => {
                assert_eq!(g.difficulty.level, Level::Extreme);
                assert!(g.difficulty.guesses > Level::HARD_GUESSES);
                alone.get_or_insert(index);
            }
            ref other => panic!("checked by {other:?}"),
        }
    }
    let alone = alone.expect("a puzzle beyond 300 nodes among six");
    // Without the SAT backend (fast), or with a limit below the hard level's guesses (15 nodes
    // make 7 guesses), the puzzle is a miss, and the attempts run out.
    for g in [capped(300).fast(true), capped(15)] {
        let e = g.attempts(1).generate(5, alone).unwrap_err();
        assert!(e.to_string().contains("a final check hit a limit"), "{e}");
    }
    // The SAT backend's `none` against the oracle's `unique` is a disagreement, not a miss.
    let e = Generator::new(shape)
        .with_backends(Box::new(Final::Capped(300)), Box::new(Final::SaysNone))
        .generate(5, alone)
        .unwrap_err();
    assert!(
        matches!(&e, GenerateError::Disagree { problems, .. } if problems.iter().any(|p| matches!(p,
            Problem::Status { a: Status::Unique, b_name: "sat", b: Status::None, .. }))),
        "{e}"
    );
}

/// The lines of `generate`'s standard output.
fn generate(args: &[&str]) -> (i32, String) {
    let out = satdoku().arg("generate").args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn cli_output_is_the_same_at_any_jobs() {
    // (--jobs 4 on any machine: up to 4 threads per core are allowed.)
    let base = ["--count", "20", "--seed", "77", "-q"];
    let (code, one) = generate(&[&base[..], &["--jobs", "1"]].concat());
    assert_eq!(code, 0);
    let (_, four) = generate(&[&base[..], &["--jobs", "4"]].concat());
    let (_, three) = generate(&[&base[..], &["--jobs", "3", "--symmetry", "none"]].concat());
    assert_eq!(one, four);
    assert_eq!(one, three);
    assert_eq!(one.lines().count(), 20);
    for extra in [
        &["--jigsaw", "--count", "3"][..],
        &["--killer", "--no-givens", "--count", "2"],
        &[
            "--size", "16", "--givens", "45%..65%", "--count", "4", "--output", "json",
        ],
        &["--thermo", "3", "--xv", "--count", "3"],
        &["--kropki", "--variant", "strict-kropki", "--count", "3"],
        &[
            "--variant",
            "x,anti-knight",
            "--difficulty",
            "medium",
            "--count",
            "2",
            "--output",
            "json",
        ],
    ] {
        let (_, a) = generate(&[extra, &["--seed", "4", "-q", "--jobs", "1"]].concat());
        let (_, b) = generate(&[extra, &["--seed", "4", "-q", "--jobs", "4"]].concat());
        // JSON records carry their wall time: compare them without it.
        let strip = |text: &str| -> Vec<serde_json::Value> {
            text.lines()
                .map(|l| {
                    let mut v: serde_json::Value =
                        serde_json::from_str(l).unwrap_or(serde_json::Value::String(l.into()));
                    if let Some(o) = v.as_object_mut() {
                        o.remove("micros");
                    }
                    v
                })
                .collect()
        };
        assert!(!a.is_empty(), "{extra:?}");
        assert_eq!(strip(&a), strip(&b), "{extra:?}");
    }
}

#[test]
fn cli_generate_then_solve_round_trips() {
    let cases: &[&[&str]] = &[
        &["--count", "3"],
        &["--count", "2", "--output", "block"],
        &["--count", "2", "--size", "4", "--symmetry", "mirror"],
        &["--count", "2", "--jigsaw", "--variant", "anti-king"],
        &["--count", "1", "--killer", "--no-givens"],
        &["--count", "1", "--killer", "--output", "block"],
        &[
            "--count", "2", "--size", "16", "--givens", "55%..65%", "--fast",
        ],
        &["--count", "2", "--thermo", "4"],
        &["--count", "2", "--kropki", "--output", "block"],
        &["--count", "2", "--kropki", "--variant", "strict-kropki"],
        &[
            "--count",
            "2",
            "--xv",
            "--variant",
            "strict-xv",
            "--output",
            "line",
        ],
        &[
            "--count", "1", "--size", "6", "--thermo", "2", "--xv", "--jigsaw",
        ],
        &[
            "--count", "1", "--size", "16", "--thermo", "4", "--givens", "60%..70%", "--fast",
        ],
    ];
    for case in cases {
        // The JSON records give the solutions to compare with.
        let mut json_case: Vec<&str> = case.to_vec();
        if let Some(at) = json_case.iter().position(|a| *a == "--output") {
            json_case.drain(at..at + 2);
        }
        let out = satdoku()
            .arg("generate")
            .args(&json_case)
            .args(["--seed", "21", "--output", "json", "-q"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{case:?}: {out:?}");
        let records = json_lines(&out.stdout);
        // The same puzzles in the case's text layout, solved.
        let text = satdoku()
            .arg("generate")
            .args(*case)
            .args(["--seed", "21", "-q"])
            .output()
            .unwrap();
        let solved = satdoku()
            .args(["solve", "--unique", "--output", "json"])
            .write_stdin(text.stdout.clone())
            .output()
            .unwrap();
        assert_eq!(
            solved.status.code(),
            Some(0),
            "{case:?}:\n{}",
            String::from_utf8_lossy(&text.stdout)
        );
        let answers = json_lines(&solved.stdout);
        assert_eq!(answers.len(), records.len(), "{case:?}");
        // Clues are written as sigh constraint strings, one a line, in any layout; JSON has both.
        if case
            .iter()
            .any(|a| ["--thermo", "--kropki", "--xv"].contains(a))
        {
            let text = String::from_utf8_lossy(&text.stdout);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), records.len(), "{case:?}");
            for (line, made) in lines.iter().zip(&records) {
                assert_eq!(made["sigh"].as_str(), Some(*line), "{case:?}");
                assert!(!made["clues"].as_array().unwrap().is_empty(), "{case:?}");
            }
        }
        for (made, answer) in records.iter().zip(&answers) {
            assert_eq!(answer["status"], "unique", "{case:?}");
            // A 16x16 sigh puzzle's solution comes in sigh's alphabet, A-P for 1-16.
            let sigh16 = |text: &str| -> String {
                let ours = "123456789ABCDEFG".as_bytes();
                text.bytes()
                    .map(|b| ours[usize::from(b - b'A')] as char)
                    .collect()
            };
            let solution = answer["solution"].as_str().unwrap();
            let solution = if made["sigh"].is_string() && solution.len() == 256 {
                sigh16(solution)
            } else {
                solution.to_string()
            };
            assert_eq!(solution, made["solution"].as_str().unwrap(), "{case:?}");
            let fast = case.contains(&"--fast");
            let checked: Vec<&str> = made["checked"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(
                checked,
                if fast {
                    vec!["dfs"]
                } else {
                    vec!["dfs", "sat"]
                },
                "{case:?}"
            );
            assert!(made["difficulty"]["level"].is_string() && made["givens"].is_u64());
        }
    }
}

#[test]
fn cli_certificates_pass_our_checker_and_rate() {
    let dir = tempfile::tempdir().unwrap();
    for (sub, extra) in [
        ("plain", &[][..]),
        ("killer", &["--killer", "--no-givens"][..]),
        ("jigsaw", &["--jigsaw", "--symmetry", "rotational"][..]),
        ("variant", &["--variant", "x,anti-knight"][..]),
        (
            "clues",
            &[
                "--thermo",
                "3",
                "--kropki",
                "--xv",
                "--variant",
                "strict-xv",
            ][..],
        ),
        ("16x16", &["--size", "16", "--givens", "45%..65%"][..]),
    ] {
        let certs = dir.path().join(sub);
        let out = satdoku()
            .args([
                "generate",
                "--count",
                "2",
                "--seed",
                "6",
                "--output",
                "json",
                "-q",
                "--certify",
            ])
            .arg(&certs)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        for r in json_lines(&out.stdout) {
            assert_eq!(r["certified"], true, "{r}");
            let i = r["index"].as_u64().unwrap();
            let (cnf, drat) = (
                certs.join(format!("puzzle-{i:06}.cnf")),
                certs.join(format!("puzzle-{i:06}.drat")),
            );
            assert!(
                satdoku::sat::check_drat_files(&cnf, &drat).is_ok(),
                "{sub} {i}"
            );
            if let Some(ok) = crate::certify::rate(&cnf, &drat) {
                assert!(ok, "rate rejects {sub} {i}");
            }
        }
    }
}

#[test]
fn cli_faulty_backends_and_bad_flags() {
    // The cross-check is the product: a SAT backend that claims "none" is a disagreement (3), one
    // that returns a broken grid an internal error (4); nothing is printed as a puzzle.
    for (fault, code, word) in [
        ("sat:claim-none", 3, "disagree"),
        ("sat:wrong-digit", 4, "internal-error"),
    ] {
        let out = satdoku()
            .env("SATDOKU_TEST_FAULT", fault)
            .args(["generate", "--seed", "1", "-q"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{fault}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).starts_with(word),
            "{fault}"
        );
    }
    // --fast leaves the SAT backend out.
    let out = satdoku()
        .env("SATDOKU_TEST_FAULT", "sat:claim-none")
        .args(["generate", "--seed", "1", "-q", "--fast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Bad flags: exit 2 with a message naming the flag, before any work (no panic, no allocation
    // by the size asked for).
    for (bad, flag) in [
        (&["--givens", "90..100"][..], "--givens"),
        (&["--givens", "90..10"], "--givens"),
        (&["--givens", "30..20"], "--givens"),
        (&["--givens", "0..99999999999999999999"], "--givens"),
        (&["--givens", "150%"], "--givens"),
        (&["--count", "0"], "--count"),
        (&["--count", "99999999999999999999"], "--count"),
        (&["--size", "1000000"], "--size"),
        (&["--size", "99999999999999999999"], "--size"),
        (&["--box", "4000000000x4000000000"], "--box"),
        (&["--box", "2x3", "--variant", "windoku"], "windoku"),
        (&["--size", "10"], "--size"),
        (&["--killer", "--size", "81"], "killer"),
        (&["--attempts", "0"], "--attempts"),
        (&["--thermo", "30"], "--thermo"),
        (&["--thermo", "0"], "--thermo"),
        (&["--thermo", "2", "--size", "25"], "--thermo"),
        (&["--kropki", "--from", "fixtures/pe96.txt"], "--kropki"),
        (
            &["--killer", "--no-givens", "--difficulty", "easy"],
            "--difficulty",
        ),
    ] {
        let out = satdoku().arg("generate").args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag), "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
    // The largest --count streams: the first puzzles come out at once, nothing is made ahead.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_satdoku"))
        .args(["generate", "--count", "18446744073709551615", "--seed", "2"])
        .args(["-q", "--jobs", "2", "--size", "4"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    for _ in 0..3 {
        let line = lines.next().unwrap().unwrap();
        assert_eq!(line.len(), 16, "{line}");
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // A level no 4x4 puzzle has: the attempts run out (1), the record says why.
    let (code, text) = generate(&[
        "--size",
        "4",
        "--difficulty",
        "extreme",
        "--attempts",
        "3",
        "-q",
    ]);
    assert_eq!(code, 1);
    assert!(
        text.starts_with("unknown: puzzle 0: no puzzle in 3 attempt(s)"),
        "{text}"
    );
    // Without --attempts, a level out of reach is given up on early, and the record says so.
    let (code, text) = generate(&["--size", "4", "--difficulty", "extreme", "-q"]);
    assert_eq!(code, 1);
    assert!(
        text.starts_with("unknown: puzzle 0: no puzzle in 50 attempt(s)")
            && text.contains("stopped early"),
        "{text}"
    );
}
