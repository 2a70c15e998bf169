//! Shared test fixtures: puzzles with published solutions, typed in once for the unit tests of every
//! module.

use crate::grid::{Grid, Shape};
use crate::units::Units;

/// A full grid of `units` from the empty one, by the native search in the random value order of
/// `seed` (a solution the tests then verify or take givens from).
pub(crate) fn random_solution(units: &Units, seed: u64) -> Grid {
    use crate::{Backend, DfsBackend, Limits};
    DfsBackend::randomized(seed)
        .solve(units, &Grid::empty(units.shape()), &Limits::first())
        .unwrap()
        .outcome
        .solution()
        .unwrap()
        .clone()
}

/// A grid from digit rows (`.` or `0` blank), whitespace ignored.
pub(crate) fn grid(shape: Shape, rows: &str) -> Grid {
    let values = rows
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(10).unwrap_or(0) as u16)
        .collect();
    Grid::from_values(shape, values).unwrap()
}

/// "Platinum Blonde" (unique, hard for logic; see tests/it/common.rs): our simplification leaves
/// work for the SAT solver.
pub(crate) const PLATINUM_BLONDE: &str =
    ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...";

/// The Wikipedia killer (`File:Killersudoku_color.svg`, as copied in sigh/Interactive-Sudoku-Solver,
/// MIT): cages only, no givens; the stated solution is the unique one.
pub(crate) fn wikipedia_killer() -> (Units, Grid) {
    let cages: &[(u32, &str)] = &[
        (3, "11 12"),
        (15, "13 14 15"),
        (25, "21 22 31 32"),
        (17, "23 24"),
        (9, "33 34 44"),
        (22, "16 25 26 35"),
        (4, "17 27"),
        (16, "18 28"),
        (15, "19 29 39 49"),
        (20, "37 38 47"),
        (8, "36 46 56"),
        (17, "45 55 65"),
        (20, "54 64 74"),
        (14, "42 43"),
        (6, "41 51"),
        (13, "52 53 62"),
        (6, "63 72 73"),
        (17, "48 57 58"),
        (27, "61 71 81 91"),
        (8, "82 92"),
        (16, "83 93"),
        (10, "75 84 85 94"),
        (12, "59 69"),
        (6, "67 68"),
        (20, "66 76 77"),
        (15, "86 87"),
        (14, "78 79 88 89"),
        (13, "95 96 97"),
        (17, "98 99"),
    ];
    let shape = Shape::new(3, 3).unwrap();
    let mut b = Units::rules(shape);
    for &(sum, cells) in cages {
        let cells = cells.split(' ').map(|rc| {
            let rc = rc.as_bytes();
            ((rc[0] - b'1') as usize, (rc[1] - b'1') as usize)
        });
        b = b.cage(sum, cells.collect::<Vec<_>>());
    }
    let solution = grid(
        shape,
        "215647398 368952174 794381652 586274931 142593867 973816425 821739546 659428713 437165289",
    );
    (b.build().unwrap(), solution)
}

/// A variant puzzle with its published (or, where the source gave none, independently computed)
/// solution, from sigh/Interactive-Sudoku-Solver (MIT; see `fixtures/variants/`).
pub(crate) struct Published {
    /// The file it came from and its `# src:`.
    pub(crate) name: &'static str,
    pub(crate) units: Units,
    pub(crate) puzzle: Grid,
    pub(crate) solution: Grid,
}

/// The 9x9 variant puzzles without cages of the shared collection: X, windoku, anti-knight,
/// non-consecutive, jigsaw, and the mixes (anti-knight + anti-king, anti-knight + non-consecutive,
/// X + windoku).
pub(crate) fn published_variants() -> Vec<Published> {
    use crate::constraint::Variant;
    let shape = Shape::new(3, 3).unwrap();
    let region = |map: &str| -> Vec<usize> {
        let mut labels: Vec<char> = Vec::new();
        map.chars()
            .map(|c| match labels.iter().position(|&l| l == c) {
                Some(i) => i,
                None => {
                    labels.push(c);
                    labels.len() - 1
                }
            })
            .collect()
    };
    let mut out = Vec::new();
    // http://forum.enjoysudoku.com/the-hardest-sudokus-new-thread-t6539-645.html
    let mut b = Units::rules(shape);
    b = b.variant(Variant::Diagonals);
    out.push(Published {
        name: "x.txt: Sudoku X",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            "..1...2....23....44........5.3....6..1......5..6..........78.......9.....7...1.9.",
        ),
        solution: grid(
            shape,
            "681945237792316584435827619523784961817639425946152873369478152158293746274561398",
        ),
    });
    // https://www.sudocue.net/windoku.php?id=fa4ce900-69cc-45d2-8b2d-1cae750c3a95
    let mut b = Units::rules(shape);
    b = b.variant(Variant::Windoku);
    out.push(Published {
        name: "windoku.txt: Windoku",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            "..............5.1.....2...6......4....5...6...8...73.....214....7......2..6....4.",
        ),
        solution: grid(
            shape,
            "792861534463975218158423796327196485945382671681547329539214867874639152216758943",
        ),
    });
    // https://www.youtube.com/watch?v=mTdhTfAhOI8 https://sudokupad.app/RPBnQFRLR8
    let mut b = Units::rules(shape);
    b = b.variant(Variant::AntiKnight);
    out.push(Published {
        name: "anti-knight.txt: Anti-knights move",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            ".3..41..7...5........8.9...6......7.........4.4.......3............6..5..643.....",
        ),
        solution: grid(
            shape,
            "536241897978536241421879635613485972789623514245917368357198426892764153164352789",
        ),
    });
    // http://forum.enjoysudoku.com/sudokuncexplainer-to-solve-and-rate-sudoku-non-consecutive-t36949.html#p285907
    let mut b = Units::rules(shape);
    b = b.variant(Variant::NonConsecutive);
    out.push(Published {
        name: "non-consecutive.txt: Anti-consectutive, hard",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            ".3.........6.........5...7.......................................................",
        ),
        solution: grid(
            shape,
            "531729486796384251248516973463852719825197364179463528617935842384271695952648137",
        ),
    });
    // https://www.youtube.com/watch?v=wuduuLVGKDQ https://sudokupad.app/fTbNFPQ44g
    let mut b = Units::rules(shape);
    b = b.regions(region(
        "aaaaaaabcdeffafabcdeffffbbcdeffbbbbcdeeeggcbcddegggcccddeegggghdiiiihhhhiiiiihhhh",
    ));
    out.push(Published {
        name: "jigsaw.txt: Jigsaw",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            "3.......71.......5....68.....5.19......9.............28....3......235..1.......9.",
        ),
        solution: grid(
            shape,
            "364891527189374265542168739625719843213987456937456182876523914498235671751642398",
        ),
    });
    // http://forum.enjoysudoku.com/x-sudoku-extreme-t34714-30.html?hilit=windoku#p309418
    let mut b = Units::rules(shape);
    b = b.variant(Variant::Diagonals);
    b = b.variant(Variant::Windoku);
    out.push(Published {
        name: "mixed.txt: X-Windoku",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            ".......1.....2...3.........4....3.......5...6....1.........78......6........32...",
        ),
        solution: grid(
            shape,
            "932674518678521943541398267469283751217459386853716429326147895794865132185932674",
        ),
    });
    // https://www.reddit.com/r/sudoku/comments/gk8si6/antiking_antiknight_sudoku_to_compliment_the/
    let mut b = Units::rules(shape);
    b = b.variant(Variant::AntiKnight);
    b = b.variant(Variant::AntiKing);
    out.push(Published {
        name: "mixed.txt: Anti-knight Anti-king",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            "1.....567234.....8...............................................................",
        ),
        solution: grid(
            shape,
            "198234567234567198567198234982345671345671982671982345823456719456719823719823456",
        ),
    });
    // https://rishipuri.blogspot.com/2013/02/antiknight-nonconsecutive-sudoku-2013-2.html
    let mut b = Units::rules(shape);
    b = b.variant(Variant::AntiKnight);
    b = b.variant(Variant::NonConsecutive);
    out.push(Published {
        name: "mixed.txt: Anti-knight Anti-consecutive",
        units: b.build().unwrap(),
        puzzle: grid(
            shape,
            ".....................4.7.....6...5.............4...3.....2.5.....................",
        ),
        solution: grid(
            shape,
            "973518264425963718861427953316842597758396142294751386649275831182639475537184629",
        ),
    });
    out
}
