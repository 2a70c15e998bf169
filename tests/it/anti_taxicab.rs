//! Anti-taxicab (a digit d never in two cells d apart, rows plus columns): solution counts by the
//! test's own enumeration (filtered by the independent checker) against both backends, on square,
//! box-less, jigsaw and rectangular grids; the pairs the lowering keeps (none that a unit, group or
//! cage already keeps apart); a planted error the checker names; #126 and #44 within node budgets.

use satdoku::sat::SatBackend;
use satdoku::{
    Backend, Cell, DfsBackend, Grid, Limits, RelationKind, RulesBuilder, Shape, Units, Variant,
    verify,
};

use crate::common::swap_digits;
use crate::sigh::{corpus, settled_natively_within};

/// Every completion of `puzzle` whose rows and columns hold different digits (the test's own
/// search), kept when the independent checker accepts it under `units`: how many.
fn enumerate(units: &Units, puzzle: &Grid) -> u64 {
    let shape = puzzle.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let digits = shape.n() as u16;
    fn go(
        i: usize,
        values: &mut Vec<u16>,
        units: &Units,
        puzzle: &Grid,
        (rows, cols, digits): (usize, usize, u16),
    ) -> u64 {
        if i == rows * cols {
            let g = Grid::from_values(puzzle.shape(), values.clone()).unwrap();
            return u64::from(verify(units, puzzle, &g).is_ok());
        }
        let (r, c) = (i / cols, i % cols);
        let free = |d: u16, values: &[u16]| {
            (0..cols).all(|k| k == c || values[r * cols + k] != d)
                && (0..rows).all(|k| k == r || values[k * cols + c] != d)
        };
        if puzzle.values()[i] != 0 {
            return go(i + 1, values, units, puzzle, (rows, cols, digits));
        }
        let mut total = 0;
        for d in 1..=digits {
            if free(d, values) {
                values[i] = d;
                total += go(i + 1, values, units, puzzle, (rows, cols, digits));
                values[i] = 0;
            }
        }
        total
    }
    let mut values = puzzle.values().to_vec();
    go(0, &mut values, units, puzzle, (rows, cols, digits))
}

/// Counts by enumeration and by both backends (each counting to `cap`): equal; the count.
fn counts_agree(name: &str, units: &Units, puzzle: &Grid, cap: u64) -> u64 {
    let expect = enumerate(units, puzzle);
    assert!(expect < cap, "{name}: raise the cap above {expect}");
    let backends: [(&str, Box<dyn Backend>); 2] = [
        ("dfs", Box::new(DfsBackend::new())),
        ("sat", Box::new(SatBackend::default())),
    ];
    for (b, backend) in backends {
        let r = backend
            .solve(units, puzzle, &Limits::count_to(cap))
            .unwrap();
        assert_eq!(r.outcome.count(), expect, "{b}: {name}");
        for g in r.outcome.grids() {
            verify(units, puzzle, g).unwrap_or_else(|v| panic!("{b}: {name}: {v}"));
        }
    }
    expect
}

/// `shape`'s grid with the first rows of `top` given (row-major digits, 0 for blank).
fn given(shape: Shape, top: &[u16]) -> Grid {
    let mut values = vec![0; shape.cells()];
    values[..top.len()].copy_from_slice(top);
    Grid::from_values(shape, values).unwrap()
}

/// A jigsaw of 5x5 (rows of region numbers) with anti-taxicab grids.
const JIGSAW_5X5: [&str; 5] = ["03221", "03221", "03421", "03441", "03441"];

fn jigsaw_5x5() -> Vec<usize> {
    JIGSAW_5X5
        .iter()
        .flat_map(|r| r.bytes().map(|b| usize::from(b - b'0')))
        .collect()
}

/// The cases: (name, the geometry's rules, puzzle, cap).
type Case = (&'static str, Box<dyn Fn() -> RulesBuilder>, Grid, u64);

fn cases() -> Vec<Case> {
    let four = Shape::new(2, 2).unwrap();
    let six = Shape::new(2, 3).unwrap();
    let five = Shape::grid(5, 5, 5, None).unwrap();
    let rect = Shape::grid(4, 5, 5, None).unwrap();
    vec![
        (
            "4x4",
            Box::new(move || Units::rules(four)),
            Grid::empty(four),
            300,
        ),
        (
            "6x6, two rows given",
            Box::new(move || Units::rules(six)),
            given(six, &[1, 2, 3, 4, 6, 5, 6, 4, 5, 2, 1, 3]),
            100_000,
        ),
        (
            "6x6 without boxes, two rows given",
            Box::new(move || Units::rules(six).no_boxes()),
            given(six, &[6, 1, 5, 4, 2, 3, 3, 2, 6, 1, 4, 5]),
            100_000,
        ),
        (
            "5x5 without boxes",
            Box::new(move || Units::rules(five)),
            Grid::empty(five),
            100_000,
        ),
        (
            "5x5 jigsaw",
            Box::new(move || Units::rules(five).regions(jigsaw_5x5())),
            Grid::empty(five),
            100_000,
        ),
        (
            "4x5 rectangle, digits 1-5",
            Box::new(move || Units::rules(rect)),
            Grid::empty(rect),
            100_000,
        ),
    ]
}

/// Both backends count as the enumeration, under every geometry the lowering must read from the
/// unit list (boxes, none, jigsaw regions, columns shorter than the rows).
#[test]
fn anti_taxicab_counts_as_enumeration() {
    let mut counts = Vec::new();
    for (name, rules, puzzle, cap) in cases() {
        let plain = enumerate(&rules().build().unwrap(), &puzzle);
        let units = rules().variant(Variant::AntiTaxicab).build().unwrap();
        let k = counts_agree(name, &units, &puzzle, cap);
        // The rule cuts some grids (on 4x4: all).
        assert!(k < plain, "{name}: {k} of {plain}");
        counts.push((name, k, plain));
    }
    eprintln!("anti-taxicab counts (with, without): {counts:?}");
    assert!(counts.iter().filter(|c| c.1 > 0).count() >= 5, "{counts:?}");
}

/// The pairs of cells `d` apart (1 <= d <= digits), less those sharing a row, a column, a box
/// (by the shape's arithmetic) or a region of `regions`: what the lowering keeps.
fn expected_pairs(
    shape: Shape,
    boxes: bool,
    regions: Option<&[usize]>,
) -> Vec<(usize, usize, u16)> {
    let (rows, cols) = (shape.rows(), shape.cols());
    let top = shape.n();
    let block = |i: usize| {
        let (r, c) = (i / cols, i % cols);
        match (regions, boxes.then(|| shape.boxes()).flatten()) {
            (Some(m), _) => Some(m[i]),
            (None, Some((br, bc))) => Some(r / br * (cols / bc) + c / bc),
            (None, None) => None,
        }
    };
    let mut out = Vec::new();
    for a in 0..rows * cols {
        for b in a + 1..rows * cols {
            let (ra, ca, rb, cb) = (a / cols, a % cols, b / cols, b % cols);
            let d = ra.abs_diff(rb) + ca.abs_diff(cb);
            let shared = ra == rb || ca == cb || (block(a).is_some() && block(a) == block(b));
            if (1..=top).contains(&d) && !shared {
                out.push((a, b, d as u16));
            }
        }
    }
    out
}

/// The lowering keeps exactly the pairs no unit or group already keeps apart, each with its
/// distance: 2,010 on 9x9 (of 2,820 pairs 1 to 9 apart), fewer again under the diagonals.
#[test]
fn anti_taxicab_keeps_only_pairs_no_unit_keeps_apart() {
    let lowered = |units: &Units| -> Vec<(usize, usize, u16)> {
        let mut v: Vec<_> = units
            .relations()
            .iter()
            .map(|r| match r.kind {
                RelationKind::NotBoth(d) => (r.a.index(), r.b.index(), d),
                k => panic!("{k:?}"),
            })
            .collect();
        v.sort_unstable();
        v
    };
    let nine = Shape::new(3, 3).unwrap();
    let six = Shape::new(2, 3).unwrap();
    let anti = |b: RulesBuilder| b.variant(Variant::AntiTaxicab).build().unwrap();
    let all_nine = expected_pairs(nine, false, None).len()
        + (0..81)
            .flat_map(|a: usize| (a + 1..81).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                let d = (a / 9).abs_diff(b / 9) + (a % 9).abs_diff(b % 9);
                (1..=9).contains(&d) && (a / 9 == b / 9 || a % 9 == b % 9)
            })
            .count();
    assert_eq!(all_nine, 2_820);
    let standard = lowered(&anti(Units::rules(nine)));
    assert_eq!(standard, expected_pairs(nine, true, None));
    // 2,820 less the 324 in rows, 324 in columns and 162 more in boxes.
    assert_eq!(standard.len(), 2_010);
    assert_eq!(
        lowered(&anti(Units::rules(six).no_boxes())),
        expected_pairs(six, false, None)
    );
    let five = Shape::grid(5, 5, 5, None).unwrap();
    let jig = jigsaw_5x5();
    assert_eq!(
        lowered(&anti(Units::rules(five).regions(jig.clone()))),
        expected_pairs(five, false, Some(&jig))
    );
    // Columns of 4 on a 4x5 rectangle are groups, not units: left out all the same.
    let rect = Shape::grid(4, 5, 5, None).unwrap();
    assert_eq!(
        lowered(&anti(Units::rules(rect))),
        expected_pairs(rect, false, None)
    );
    // Under the diagonals (#44) and a cage, their pairs go too; none left shares a unit.
    let records = corpus();
    let p44 = records[44].puzzle.as_ref().unwrap();
    let kept = lowered(&p44.units);
    assert!(kept.len() < standard.len(), "{}", kept.len());
    let caged = anti(Units::rules(nine).cage(10, [(2, 2), (3, 3)]));
    let caged = lowered(&caged);
    assert_eq!(caged.len(), standard.len() - 1);
    assert!(standard.contains(&(20, 30, 2)) && !caged.contains(&(20, 30, 2)));
    for (a, b, _) in kept {
        assert!(!p44.units.must_differ(Cell::new(a), Cell::new(b)));
    }
}

/// The published solution of #126 with two digits swapped (rows, columns, boxes still hold): the
/// checker names the anti-taxicab pair for some swap, even where the lowering dropped nothing.
#[test]
fn a_planted_taxicab_error_is_named() {
    let records = corpus();
    let p = records[126].puzzle.as_ref().unwrap();
    let solution = p.expected.clone().unwrap();
    let shape = solution.shape();
    let units = Units::rules(shape)
        .variant(Variant::AntiTaxicab)
        .build()
        .unwrap();
    let empty = Grid::empty(shape);
    verify(&units, &empty, &solution).unwrap();
    let mut named = 0;
    for (a, b) in (1..=9u16).flat_map(|a| (a + 1..=9).map(move |b| (a, b))) {
        let g = swap_digits(&solution, a, b);
        if let Err(v) = verify(&units, &empty, &g) {
            let message = v.to_string();
            assert!(message.contains("apart"), "{a}<->{b}: {message}");
            named += 1;
        }
    }
    assert!(named > 0, "no swap breaks the rule");
}

/// #126 (arrows) and #44 (diagonals) settle natively within node budgets (main at `0beef39`: 257
/// and 3 nodes, the pairs as clue tables; as digit peers cleared on placement, a dead end there
/// blamed on both cells: 283 and 3).
#[test]
fn anti_taxicab_corpus_within_node_budgets() {
    settled_natively_within(&corpus(), &[(126, 350), (44, 10)]);
}

/// A sparse anti-taxicab puzzle (made here: `satdoku generate --variant anti-taxicab -n 20 --seed
/// 4242`, the seventh) settles natively within a node budget, as the SAT backend has it: a dead
/// end on a digit peer weighs on both cells in the branching (main at `0beef39`, the pairs as
/// clue tables blamed so: 20,047 nodes; digit peers without that blame: 138,065; with it: 20,783).
#[test]
fn a_digit_peer_dead_end_weighs_on_both_cells() {
    let text = ".........1.........3..........9......1....9.......2.7.............5..........6...";
    let shape = Shape::new(3, 3).unwrap();
    let values: Vec<u16> = text
        .bytes()
        .map(|b| u16::from(b.saturating_sub(b'0')))
        .collect();
    let puzzle = Grid::from_values(shape, values).unwrap();
    assert_eq!(puzzle.values().iter().filter(|&&v| v != 0).count(), 9);
    let units = Units::rules(shape)
        .variant(Variant::AntiTaxicab)
        .build()
        .unwrap();
    let limits = Limits::unique().with_budget(Some(40_000));
    let native = DfsBackend::new().solve(&units, &puzzle, &limits).unwrap();
    let sat = SatBackend::default()
        .solve(&units, &puzzle, &Limits::unique())
        .unwrap();
    let (satdoku::Outcome::Unique(g), satdoku::Outcome::Unique(s)) =
        (&native.outcome, &sat.outcome)
    else {
        panic!(
            "{:?} after {} nodes",
            native.outcome.status(),
            native.stats.nodes
        );
    };
    assert_eq!(g, s);
    verify(&units, &puzzle, g).unwrap();
    assert!(native.stats.nodes <= 40_000, "{}", native.stats.nodes);
}

/// Anti-taxicab pairs grow as the square of the cells: past 36x36 the rules are refused with the
/// limit named, rather than built into gigabytes of pairs (64x64 took 4.4 GB in the SAT backend).
#[test]
fn anti_taxicab_past_36x36_is_refused_with_the_limit() {
    for (side, ok) in [(6, true), (36, true), (49, false), (64, false)] {
        let b = (side as f64).sqrt() as usize;
        let shape = Shape::new(b, b).unwrap();
        let built = Units::rules(shape).variant(Variant::AntiTaxicab).build();
        match built {
            Ok(_) => assert!(ok, "{side}x{side} built"),
            Err(e) => {
                assert!(!ok, "{side}x{side}: {e}");
                let message = e.to_string();
                assert!(message.contains("up to 36x36"), "{message}");
                assert!(message.contains(&format!("{side}x{side}")), "{message}");
            }
        }
    }
}
