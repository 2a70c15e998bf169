//! The native backend against answers from outside it: planted grids, published counts and puzzles from
//! `../shared/datasets/` (provenance beside each), a brute-force counter for 4x4, and `verify`.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use satdoku::{
    Backend, Cell, DfsBackend, Grid, Limits, Outcome, Shape, Status, Unit, UnitKind, UnitName,
    Units, verify,
};

use crate::common::{Rng, carve, solved};

/// A 9x9 puzzle from one 81-character line (`.` or `0` blank), the layout of the datasets' line files.
fn line(text: &str) -> Grid {
    assert_eq!(text.len(), 81, "{text}");
    let values = text
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => u16::from(b - b'0'),
            b'.' | b'0' => 0,
            _ => panic!("bad symbol {}", b as char),
        })
        .collect();
    Grid::from_values(Shape::new(3, 3).unwrap(), values).unwrap()
}

/// 9 rows of whitespace-separated integers, `-1` blank (the sudoku_acs layout).
fn ints(text: &str) -> Grid {
    let values = text
        .split_whitespace()
        .map(|w| if w == "-1" { 0 } else { w.parse().unwrap() })
        .collect();
    Grid::from_values(Shape::new(3, 3).unwrap(), values).unwrap()
}

fn std9() -> Units {
    Units::standard(Shape::new(3, 3).unwrap())
}

/// Solves with `dfs` and checks every grid returned with `verify`.
fn solve_with(dfs: DfsBackend, units: &Units, puzzle: &Grid, limits: &Limits) -> Outcome {
    let report = dfs.solve(units, puzzle, limits).unwrap();
    for g in report.outcome.grids() {
        verify(units, puzzle, g).unwrap_or_else(|e| panic!("{e}"));
    }
    if let Outcome::Multiple { solutions, .. } = &report.outcome {
        assert_ne!(solutions[0], solutions[1]);
    }
    report.outcome
}

/// Asserts that two outcomes for one puzzle agree: status and count, the grid when it is the only
/// solution, completeness when counting. (Which grids "first" or "multiple" show depends on the order
/// of the search, which differs between the paths.)
fn assert_agree(a: &Outcome, b: &Outcome, what: &str) {
    assert_eq!(a.status(), b.status(), "{what}");
    assert_eq!(a.count(), b.count(), "{what}");
    match (a, b) {
        (Outcome::Unique(x), Outcome::Unique(y)) => assert_eq!(x, y, "{what}"),
        (Outcome::Multiple { complete: x, .. }, Outcome::Multiple { complete: y, .. }) => {
            assert_eq!(x, y, "{what}")
        }
        _ => {}
    }
}

/// Solves with the backend as users get it (the 9x9 fast path for the standard 9x9 units) and checks
/// every grid with `verify`; without a budget or deadline, also on the generic path, which must agree.
fn solve(units: &Units, puzzle: &Grid, limits: &Limits) -> Outcome {
    let outcome = solve_with(DfsBackend::new(), units, puzzle, limits);
    if limits.budget().is_none() && limits.timeout().is_none() {
        let generic = solve_with(DfsBackend::generic_only(), units, puzzle, limits);
        assert_agree(&outcome, &generic, &format!("{:?}", puzzle.values()));
    }
    outcome
}

#[test]
fn planted_puzzles_of_every_shape() {
    let mut rng = Rng::new(2024);
    // (box rows, box cols, fraction of cells kept, puzzles)
    let cases = [
        (2, 2, 0.3, 40),
        (2, 3, 0.4, 30),
        (3, 2, 0.4, 30),
        (3, 3, 0.4, 30),
        (2, 4, 0.45, 20),
        (3, 4, 0.55, 10),
        (4, 4, 0.6, 8),
        (4, 5, 0.7, 4),
        (5, 5, 0.75, 3),
        (6, 6, 0.85, 2),
        (8, 8, 0.92, 1),
    ];
    for (r, c, keep, count) in cases {
        let shape = Shape::new(r, c).unwrap();
        let units = Units::standard(shape);
        for i in 0..count {
            let planted = solved(shape, &mut rng);
            let puzzle = carve(&planted, keep, &mut rng);
            let limits = Limits::unique();
            let outcome = solve(&units, &puzzle, &limits);
            match &outcome {
                Outcome::Unique(g) => assert_eq!(g, &planted, "{shape} #{i}"),
                Outcome::Multiple { .. } => {}
                other => panic!("{shape} #{i}: {:?}", other.status()),
            }
            // The full grid is its own unique solution.
            assert_eq!(
                solve(&units, &planted, &Limits::unique()),
                Outcome::Unique(planted.clone()),
                "{shape} #{i}"
            );
        }
    }
}

#[test]
fn empty_grids_count_and_stop_at_the_limit() {
    // The number of 4x4 (2x2 boxes) Sudoku grids is 288 (a known result, e.g. OEIS A107739's n = 2 term).
    let s4 = Shape::new(2, 2).unwrap();
    let outcome = solve(
        &Units::standard(s4),
        &Grid::empty(s4),
        &Limits::count_to(1000),
    );
    assert!(
        matches!(
            outcome,
            Outcome::Multiple {
                count: 288,
                complete: true,
                ..
            }
        ),
        "{outcome:?}"
    );
    let s9 = Shape::new(3, 3).unwrap();
    let outcome = solve(&std9(), &Grid::empty(s9), &Limits::count_to(5));
    assert!(matches!(
        outcome,
        Outcome::Multiple {
            count: 5,
            complete: false,
            ..
        }
    ));
    assert_eq!(
        solve(&std9(), &Grid::empty(s9), &Limits::first()).status(),
        Status::Solved
    );
}

/// Solutions of a puzzle by plain enumeration, cell by cell, checking each value against the peers
/// (no propagation), stopping at `cap`: a count that owes nothing to the backend.
fn brute_force_count(units: &Units, puzzle: &Grid, cap: u64) -> u64 {
    fn ok(units: &Units, values: &[u16], cell: usize) -> bool {
        units
            .peers(Cell::new(cell))
            .iter()
            .all(|p| values[p.index()] != values[cell])
    }
    fn go(units: &Units, n: u16, values: &mut Vec<u16>, cell: usize, left: u64) -> u64 {
        if cell == values.len() {
            return 1;
        }
        if values[cell] != 0 {
            return if ok(units, values, cell) {
                go(units, n, values, cell + 1, left)
            } else {
                0
            };
        }
        let mut total = 0;
        for d in 1..=n {
            values[cell] = d;
            if ok(units, values, cell) {
                total += go(units, n, values, cell + 1, left - total);
                if total >= left {
                    break;
                }
            }
        }
        values[cell] = 0;
        total
    }
    let n = puzzle.n() as u16;
    go(units, n, &mut puzzle.values().to_vec(), 0, cap)
}

/// Counts to `cap` with the backend and by brute force; they must agree, and so must the status,
/// which is returned.
fn check_count(units: &Units, puzzle: &Grid, cap: u64, what: &str) -> Status {
    let expect = brute_force_count(units, puzzle, cap);
    let outcome = solve(units, puzzle, &Limits::count_to(cap));
    assert_eq!(outcome.count(), expect, "{what} {:?}", puzzle.values());
    let status = match expect {
        0 => Status::None,
        1 => Status::Unique,
        _ => Status::Multiple,
    };
    assert_eq!(outcome.status(), status, "{what}");
    status
}

/// Asserts that a random test met every count class: none, unique, several.
fn assert_all_statuses(seen: &[Status]) {
    for s in [Status::None, Status::Unique, Status::Multiple] {
        assert!(seen.contains(&s), "no puzzle with status {}", s.word());
    }
}

#[test]
fn counts_match_brute_force_on_4x4() {
    let shape = Shape::new(2, 2).unwrap();
    let units = Units::standard(shape);
    let mut rng = Rng::new(44);
    let mut seen = Vec::new();
    for i in 0..300 {
        // Random givens, not always consistent: covers none, unique and many.
        let mut puzzle = Grid::empty(shape);
        for _ in 0..rng.below(7) {
            let d = satdoku::Digit::new(1 + rng.below(4) as u16);
            puzzle.set(Cell::new(rng.below(16)), d);
        }
        seen.push(check_count(&units, &puzzle, 1000, &format!("#{i}")));
    }
    assert_all_statuses(&seen);
}

#[test]
fn counts_match_brute_force_on_rectangular_boxes() {
    // 6x6 grids with 2x3 and 3x2 boxes: intersections of 3 and of 2 cells (locked candidates).
    let mut rng = Rng::new(66);
    let mut seen = Vec::new();
    for (r, c) in [(2, 3), (3, 2)] {
        let shape = Shape::new(r, c).unwrap();
        let units = Units::standard(shape);
        for i in 0..60 {
            let planted = solved(shape, &mut rng);
            let keep = 0.3 + 0.3 * rng.below(100) as f64 / 100.0;
            let mut puzzle = carve(&planted, keep, &mut rng);
            // Now and then a wrong given, so that some puzzles have no solution.
            if i % 4 == 3 {
                let d = satdoku::Digit::new(1 + rng.below(6) as u16);
                puzzle.set(Cell::new(rng.below(36)), d);
            }
            seen.push(check_count(&units, &puzzle, 50, &format!("{shape} #{i}")));
        }
    }
    assert_all_statuses(&seen);
}

#[test]
fn norvig_hardest_and_top95_are_unique() {
    // norvig-hardest.txt (Norvig's hardest.txt, all unique per the datasets README): the first three.
    // top95.txt (magictour "top 95", all unique): its first three lines.
    let puzzles = [
        "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        "12..4......5.69.1...9...5.........7.7...52.9..3......2.9.6...5.4..9..8.1..3...9.4",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
        "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    ];
    for p in puzzles {
        let puzzle = line(p);
        assert_eq!(
            solve(&std9(), &puzzle, &Limits::unique()).status(),
            Status::Unique,
            "{p}"
        );
        assert_eq!(
            solve(&std9(), &puzzle, &Limits::first()).status(),
            Status::Solved,
            "{p}"
        );
    }
}

#[test]
fn project_euler_96_first_grid() {
    // pe96.txt, "Grid 01" (Project Euler 96): unique; its solution's top-left three digits read 483
    // (the puzzle statement shows the solved grid; 483 is the first term of the published sum 24702).
    let puzzle = line(concat!(
        "003020600",
        "900305001",
        "001806400",
        "008102900",
        "700000008",
        "006708200",
        "002609500",
        "800203009",
        "005010300"
    ));
    let outcome = solve(&std9(), &puzzle, &Limits::unique());
    let Outcome::Unique(g) = outcome else {
        panic!("{:?}", outcome.status())
    };
    assert_eq!(&g.values()[..3], &[4, 8, 3]);
}

#[test]
fn serg_benchmark_puzzles_have_several_solutions() {
    // serg-benchmark.txt (tdoku's puzzles7_serg_benchmark): every puzzle has >= 2 solutions per the
    // datasets README. Its first four puzzle lines.
    let puzzles = [
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        "8.........95.......76.........428967...573412...691583.....4196....3.748...8..235",
        "8.........95.......76.........426798...571432...893165....5.916...9.8247......583",
        "8.........95.......76.........476298...512437...893165...7.4916.....8742......583",
    ];
    for p in puzzles {
        let outcome = solve(&std9(), &line(p), &Limits::unique());
        assert!(
            matches!(
                outcome,
                Outcome::Multiple {
                    count: 2,
                    complete: false,
                    ..
                }
            ),
            "{p}: {outcome:?}"
        );
    }
}

#[test]
fn sabuncu3_has_27_solutions() {
    // 9x9-sudoku-acs-logic-solvable.txt, "# file: sabuncu3.txt" (huwlloyd-mmu/sudoku_acs): 27 solutions
    // per the datasets README (verified there by a DFS and by CaDiCaL).
    let puzzle = ints(
        "8 4 2 -1 -1 -1 -1 -1 -1
         -1 -1 -1 5 -1 1 7 -1 -1
         -1 -1 -1 -1 -1 -1 3 8 -1
         9 5 -1 -1 -1 -1 -1 -1 2
         -1 -1 -1 -1 5 -1 -1 -1 -1
         -1 -1 -1 9 -1 -1 -1 4 6
         1 -1 -1 -1 -1 7 4 -1 -1
         -1 -1 8 -1 6 -1 -1 -1 -1
         -1 -1 4 -1 -1 -1 -1 3 8",
    );
    let outcome = solve(&std9(), &puzzle, &Limits::count_to(100));
    assert!(
        matches!(
            outcome,
            Outcome::Multiple {
                count: 27,
                complete: true,
                ..
            }
        ),
        "{outcome:?}"
    );
    assert_eq!(outcome.count(), 27);
}

#[test]
fn no_solution_without_panicking() {
    // r1c1 is blank and its peers hold all nine digits: 1-8 in row 1, 9 in column 1 (r4c1). No unit
    // holds a digit twice.
    let mut p = vec![0u16; 81];
    p[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    p[27] = 9;
    let puzzle = Grid::from_values(Shape::new(3, 3).unwrap(), p).unwrap();
    assert!(std9().find_clash(&puzzle).is_none());
    assert_eq!(
        solve(&std9(), &puzzle, &Limits::first()),
        Outcome::NoSolution
    );
    assert_eq!(
        solve(&std9(), &puzzle, &Limits::unique()),
        Outcome::NoSolution
    );

    // Two 5s in row 1.
    let puzzle = line(&format!("5...5{}", ".".repeat(76)));
    assert!(std9().find_clash(&puzzle).is_some());
    assert_eq!(
        solve(&std9(), &puzzle, &Limits::unique()),
        Outcome::NoSolution
    );

    // A full grid with a clash, for several shapes.
    for (r, c) in [(2, 2), (2, 3), (3, 3), (4, 4)] {
        let shape = Shape::new(r, c).unwrap();
        let units = Units::standard(shape);
        let mut g = solved(shape, &mut Rng::new(9));
        let v = g.get(Cell::new(0));
        g.set(Cell::new(1), v);
        assert_eq!(solve(&units, &g, &Limits::unique()), Outcome::NoSolution);
    }
}

#[test]
fn budget_and_deadline_give_unknown() {
    // forum-hardest-1905-11plus.txt, first line: needs far more than 5 nodes.
    let hard =
        line("98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6");
    let limits = Limits::first().with_budget(Some(5));
    let past = Limits::unique().with_timeout(Some(Duration::ZERO));
    // The 9x9 fast path and the generic path alike.
    for dfs in [DfsBackend::new(), DfsBackend::generic_only()] {
        let report = dfs.solve(&std9(), &hard, &limits).unwrap();
        assert_eq!(
            report.outcome,
            Outcome::Unknown {
                count: 0,
                first: None
            }
        );
        assert_eq!(report.stats.nodes, 5);
        let report = dfs.solve(&std9(), &hard, &past).unwrap();
        assert_eq!(report.outcome.status(), Status::Unknown);
        assert_eq!(report.stats.nodes, 0);
        // A budget that the search needs all of is not "unknown".
        let unlimited = dfs.solve(&std9(), &hard, &Limits::unique()).unwrap();
        assert_eq!(unlimited.outcome.status(), Status::Unique);
        let exact = Limits::unique().with_budget(Some(unlimited.stats.nodes));
        let report = dfs.solve(&std9(), &hard, &exact).unwrap();
        assert_eq!(report.outcome, unlimited.outcome);
        assert_eq!(report.stats, unlimited.stats);
        let short = Limits::unique().with_budget(Some(unlimited.stats.nodes - 1));
        let report = dfs.solve(&std9(), &hard, &short).unwrap();
        assert_eq!(report.outcome.status(), Status::Unknown);
    }
    // Even an empty 64x64 grid stops at once.
    let s64 = Shape::new(8, 8).unwrap();
    let start = Instant::now();
    let outcome = solve(&Units::standard(s64), &Grid::empty(s64), &past);
    assert_eq!(outcome.status(), Status::Unknown);
    assert!(start.elapsed() < Duration::from_secs(5));

    // Without limits the same puzzle is unique; with a budget large enough, too.
    let roomy = Limits::unique()
        .with_budget(Some(1_000_000))
        .with_timeout(Some(Duration::from_secs(600)));
    assert_eq!(solve(&std9(), &hard, &roomy).status(), Status::Unique);
}

#[test]
fn unknown_keeps_the_first_solution() {
    // The empty 9x9 grid, counting to 10 with a budget too small to find the second solution.
    let s9 = Shape::new(3, 3).unwrap();
    for dfs in [DfsBackend::new(), DfsBackend::generic_only()] {
        let first = solve_with(dfs, &std9(), &Grid::empty(s9), &Limits::first());
        let nodes = dfs
            .solve(&std9(), &Grid::empty(s9), &Limits::first())
            .unwrap()
            .stats
            .nodes;
        let limits = Limits::count_to(10).with_budget(Some(nodes));
        match solve_with(dfs, &std9(), &Grid::empty(s9), &limits) {
            Outcome::Unknown {
                count: 1,
                first: Some(g),
            } => assert_eq!(Some(&*g), first.solution()),
            other => panic!("{other:?}"),
        }
    }
}

/// Standard 9x9 units plus the two main diagonals (X-Sudoku), as a variant unit list.
fn x_sudoku() -> Units {
    let shape = Shape::new(3, 3).unwrap();
    let mut units = std9().units().to_vec();
    for (index, cells) in [
        (0..9).map(|i| Cell::at(shape, i, i)).collect::<Vec<_>>(),
        (0..9).map(|i| Cell::at(shape, i, 8 - i)).collect(),
    ]
    .into_iter()
    .enumerate()
    {
        // Named as extra "rows": the kind does not matter to the solver or to verify.
        units.push(Unit {
            name: UnitName {
                kind: UnitKind::Row,
                index: 9 + index,
            },
            cells,
        });
    }
    Units::from_units(shape, units)
}

#[test]
fn other_unit_lists_work_unchanged() {
    let units = x_sudoku();
    let shape = units.shape();
    let outcome = solve(&units, &Grid::empty(shape), &Limits::count_to(3));
    assert_eq!(outcome.status(), Status::Multiple);
    // `verify` under these units already checked the diagonals; once more by hand for the main one.
    let g = outcome.grids().next().unwrap().clone();
    let mut main: Vec<u16> = (0..9).map(|i| g.values()[i * 10]).collect();
    main.sort_unstable();
    assert_eq!(main, (1..=9).collect::<Vec<u16>>());
    // A puzzle that is fine for standard rules but breaks a diagonal: two 1s on the main diagonal.
    let mut p = vec![0u16; 81];
    p[0] = 1;
    p[80] = 1;
    let p = Grid::from_values(shape, p).unwrap();
    assert_eq!(
        solve(&std9(), &p, &Limits::first()).status(),
        Status::Solved
    );
    assert_eq!(solve(&units, &p, &Limits::first()), Outcome::NoSolution);
}

#[test]
fn diagonal_4x4_counts_match_brute_force() {
    // 4x4 with both diagonals: each diagonal meets two boxes in two cells (locked candidates apply).
    let shape = Shape::new(2, 2).unwrap();
    let mut units = Units::standard(shape).units().to_vec();
    for (index, cells) in [
        (0..4).map(|i| Cell::at(shape, i, i)).collect::<Vec<_>>(),
        (0..4).map(|i| Cell::at(shape, i, 3 - i)).collect(),
    ]
    .into_iter()
    .enumerate()
    {
        units.push(Unit {
            name: UnitName {
                kind: UnitKind::Row,
                index: 4 + index,
            },
            cells,
        });
    }
    let units = Units::from_units(shape, units);
    let mut rng = Rng::new(4);
    check_count(&units, &Grid::empty(shape), 1000, "empty");
    let mut seen = Vec::new();
    for i in 0..300 {
        let mut puzzle = Grid::empty(shape);
        for _ in 0..rng.below(6) {
            let d = satdoku::Digit::new(1 + rng.below(4) as u16);
            puzzle.set(Cell::new(rng.below(16)), d);
        }
        seen.push(check_count(&units, &puzzle, 1000, &format!("#{i}")));
    }
    assert_all_statuses(&seen);
}

#[test]
fn unusual_unit_lists_do_not_panic() {
    let shape = Shape::new(2, 2).unwrap();
    let std = Units::standard(shape);
    // Many repeated units (more than the ordinary size classes hold): still the 288 grids.
    let mut many = Vec::new();
    for _ in 0..30 {
        many.extend(std.units().iter().cloned());
    }
    let many = Units::from_units(shape, many);
    assert!(many.units().len() > 256);
    let outcome = solve(&many, &Grid::empty(shape), &Limits::count_to(1000));
    assert_eq!(outcome.count(), 288);
    // A unit naming one cell twice cannot hold four different digits: no solution.
    let mut odd = std.units().to_vec();
    odd[0].cells[1] = odd[0].cells[0];
    let odd = Units::from_units(shape, odd);
    assert_eq!(
        solve(&odd, &Grid::empty(shape), &Limits::unique()),
        Outcome::NoSolution
    );
}

/// Shapes for the property test, small enough that low fill fractions stay fast.
const PROP_SHAPES: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (2, 4),
    (4, 2),
    (3, 4),
    (4, 4),
];

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 160,
        rng_seed: RngSeed::Fixed(0x5A7D_0C0D),
        ..ProptestConfig::default()
    })]

    #[test]
    fn planted_puzzles_are_solved_and_verified(
        shape_index in 0..PROP_SHAPES.len(),
        seed in any::<u64>(),
        keep in 0.0f64..=1.0,
        count_to in 1u64..4,
    ) {
        let (r, c) = PROP_SHAPES[shape_index];
        let shape = Shape::new(r, c).unwrap();
        let units = Units::standard(shape);
        let mut rng = Rng::new(seed);
        let planted = solved(shape, &mut rng);
        let puzzle = carve(&planted, keep, &mut rng);
        let limits = Limits::count_to(count_to).with_budget(Some(200_000));
        let report = DfsBackend::new().solve(&units, &puzzle, &limits).unwrap();
        for g in report.outcome.grids() {
            prop_assert_eq!(verify(&units, &puzzle, g), Ok(()));
        }
        // The planted grid is a solution, so "none" would be wrong.
        prop_assert_ne!(report.outcome.status(), Status::None);
        if report.outcome.status() != Status::Unknown {
            prop_assert!(report.outcome.count() >= 1);
            prop_assert!(report.outcome.count() <= count_to);
        }
        if let Outcome::Unique(g) = &report.outcome {
            prop_assert_eq!(g, &planted);
        }
    }
}

#[test]
fn shared_across_threads() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    let dfs = DfsBackend::new();
    send_sync(&dfs);
    // Two threads, one backend and one unit list, different shapes interleaved: each thread keeps its
    // own cached tables and buffers; every answer verified.
    let units = [
        Units::standard(Shape::new(3, 3).unwrap()),
        Units::standard(Shape::new(2, 3).unwrap()),
    ];
    std::thread::scope(|scope| {
        for t in 0..2u64 {
            let (dfs, units) = (&dfs, &units);
            scope.spawn(move || {
                let mut rng = Rng::new(100 + t);
                for i in 0..200 {
                    let u = &units[i % 2];
                    let planted = solved(u.shape(), &mut rng);
                    let puzzle = carve(&planted, 0.4, &mut rng);
                    let r = dfs.solve(u, &puzzle, &Limits::first()).unwrap();
                    verify(u, &puzzle, r.outcome.solution().unwrap()).unwrap();
                }
            });
        }
    });
}

#[test]
fn a_zero_solution_limit_counts_as_one() {
    let s9 = Shape::new(3, 3).unwrap();
    let limits = Limits::count_to(0);
    assert_eq!(
        solve(&std9(), &Grid::empty(s9), &limits).status(),
        Status::Solved
    );
}

/// A random symmetry of 9x9 grids (relabel digits, permute bands, rows in a band, stacks, columns in
/// a stack, maybe transpose): it maps puzzles to puzzles with the same number of solutions.
fn shuffle9(rng: &mut Rng) -> impl Fn(&Grid) -> Grid {
    let mut relabel: Vec<u16> = (1..=9).collect();
    rng.shuffle(&mut relabel);
    let mut lines = [[0usize; 9]; 2];
    for l in &mut lines {
        let mut blocks = [0, 1, 2];
        rng.shuffle(&mut blocks);
        for (i, &b) in blocks.iter().enumerate() {
            let mut inner = [0, 1, 2];
            rng.shuffle(&mut inner);
            for (j, &k) in inner.iter().enumerate() {
                l[3 * i + j] = 3 * b + k;
            }
        }
    }
    let transpose = rng.below(2) == 1;
    move |g: &Grid| {
        let values = (0..81)
            .map(|i| {
                let (mut r, mut c) = (lines[0][i / 9], lines[1][i % 9]);
                if transpose {
                    std::mem::swap(&mut r, &mut c);
                }
                match g.values()[9 * r + c] {
                    0 => 0,
                    v => relabel[v as usize - 1],
                }
            })
            .collect();
        Grid::from_values(g.shape(), values).unwrap()
    }
}

#[test]
fn fast_path_agrees_with_the_generic_path_on_planted_puzzles() {
    // `solve` runs both paths and asserts that they agree; here on 2,600 planted 9x9 puzzles from empty
    // to full, counting to 1, 2, 10 or 100 solutions, a quarter of them with one given overwritten by a
    // random digit (a clash, no solution, or other solutions).
    let s9 = Shape::new(3, 3).unwrap();
    let units = std9();
    let mut rng = Rng::new(99);
    let mut seen = Vec::new();
    let mut complete_counts = 0;
    let keeps = [
        0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.7, 1.0,
    ];
    for (k, &keep) in keeps.iter().enumerate() {
        for i in 0..200 {
            let planted = solved(s9, &mut rng);
            let mut puzzle = carve(&planted, keep, &mut rng);
            if i % 4 == 3 {
                let d = satdoku::Digit::new(1 + rng.below(9) as u16);
                puzzle.set(Cell::new(rng.below(81)), d);
            }
            let limits = Limits::count_to([1, 2, 10, 100][(i + k) % 4]);
            let outcome = solve(&units, &puzzle, &limits);
            if i % 4 != 3 && outcome.status() == Status::Unique {
                assert_eq!(outcome.solution(), Some(&planted), "keep {keep} #{i}");
            }
            if let Outcome::Multiple { complete: true, .. } = outcome {
                complete_counts += 1;
            }
            seen.push(outcome.status());
        }
    }
    assert_all_statuses(&seen);
    assert!(seen.contains(&Status::Solved));
    assert!(complete_counts > 10, "{complete_counts} exact counts");
}

#[test]
fn fast_path_agrees_on_unsatisfiable_and_clashing_puzzles() {
    let s9 = Shape::new(3, 3).unwrap();
    let units = std9();
    let mut rng = Rng::new(7);
    // r1c1 blank, its row holding 1-8 and its column 9: no digit fits, yet no unit repeats a digit.
    let mut base = vec![0u16; 81];
    base[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    base[27] = 9;
    let base = Grid::from_values(s9, base).unwrap();
    for i in 0..300 {
        let mut puzzle = shuffle9(&mut rng)(&base);
        // More random givens, where they clash with nothing.
        for _ in 0..rng.below(20) {
            let c = Cell::new(rng.below(81));
            let d = satdoku::Digit::new(1 + rng.below(9) as u16);
            let before = puzzle.get(c);
            puzzle.set(c, d);
            if before.is_some() || units.find_clash(&puzzle).is_some() {
                puzzle.set(c, before);
            }
        }
        assert!(units.find_clash(&puzzle).is_none());
        for limits in [Limits::first(), Limits::unique(), Limits::count_to(50)] {
            assert_eq!(solve(&units, &puzzle, &limits), Outcome::NoSolution, "#{i}");
        }
    }
    // Two equal givens in one unit, at every density: no solution on either path.
    for i in 0..300 {
        let planted = solved(s9, &mut rng);
        let mut puzzle = carve(&planted, rng.below(100) as f64 / 100.0, &mut rng);
        let (a, b) = loop {
            let unit = &units.units()[rng.below(27)];
            let (a, b) = (unit.cells[rng.below(9)], unit.cells[rng.below(9)]);
            if a != b {
                break (a, b);
            }
        };
        let d = satdoku::Digit::new(1 + rng.below(9) as u16);
        puzzle.set(a, d);
        puzzle.set(b, d);
        assert!(units.find_clash(&puzzle).is_some());
        assert_eq!(
            solve(&units, &puzzle, &Limits::unique()),
            Outcome::NoSolution,
            "#{i}"
        );
    }
}

#[test]
fn fast_path_agrees_on_shuffled_dataset_puzzles() {
    // Unique puzzles under random symmetries, counted to 3 on both paths (which must agree, see
    // `solve`): forum-hardest-1905-11plus.txt's first three lines; top95.txt's first two.
    let puzzles = [
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        "98.7..6..75..4......3..8.7.8....9.5..3.2..1.....4....6.7...4.3....8..4......1...2",
        "98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    ];
    let mut rng = Rng::new(5);
    for p in puzzles {
        let puzzle = line(p);
        for _ in 0..20 {
            let shuffled = shuffle9(&mut rng)(&puzzle);
            assert_eq!(
                solve(&std9(), &shuffled, &Limits::count_to(3)).status(),
                Status::Unique
            );
        }
    }
    // serg-benchmark.txt's first puzzle (several solutions), shuffled, counted to 1000: exact counts.
    let serg =
        line("8.........95.......76.........426798...571243...893165......916....3.487....1.532");
    for _ in 0..20 {
        let shuffled = shuffle9(&mut rng)(&serg);
        assert_eq!(
            solve(&std9(), &shuffled, &Limits::count_to(1000)).status(),
            Status::Multiple
        );
    }
    // The standard units listed in another order, each unit's cells reversed: the same answers.
    let shape = Shape::new(3, 3).unwrap();
    let mut reordered = std9().units().to_vec();
    reordered.reverse();
    reordered.iter_mut().for_each(|u| u.cells.reverse());
    let reordered = Units::from_units(shape, reordered);
    for p in puzzles {
        let puzzle = line(p);
        let a = solve(&reordered, &puzzle, &Limits::unique());
        assert_eq!(a, solve(&std9(), &puzzle, &Limits::unique()));
    }
}
