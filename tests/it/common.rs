//! Helpers shared by the integration tests: fixture paths and puzzles, and planted puzzles.
//!
//! Planted puzzles follow the varisat/sudoku-crate idea: build a solved grid from a pattern known to be
//! valid, shuffle it by symmetries that keep it valid (relabel digits, permute rows inside a band, bands,
//! columns inside a stack, stacks), then blank cells. The solution is known without any solver.
#![allow(dead_code)]

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use satdoku::format::{PuzzleReader, ReadOptions};
use satdoku::{Cell, Grid, Shape};

/// The `satdoku` binary under test, with the fault-injection hook switched off.
pub fn satdoku() -> assert_cmd::Command {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("satdoku");
    cmd.env_remove("SATDOKU_TEST_FAULT");
    cmd
}

/// How to install each external program some tests run.
const INSTALL: [(&str, &str); 5] = [
    ("minisat", "apt-get install minisat"),
    ("picosat", "apt-get install picosat"),
    ("cadical", "apt-get install cadical"),
    ("cryptominisat5", "apt-get install cryptominisat"),
    ("rate", "cargo install rate"),
];

/// Whether the external program `bin` (a SAT solver, the DRAT checker `rate`) is installed. When it
/// is not, the tests that need it skip that part, and say so once on the terminal, past `cargo
/// test`'s capture of test output (so that a run that skipped something says so); with
/// `SATDOKU_REQUIRE_SOLVERS=1` (as in CI), a missing program is a failure instead.
pub fn tool_available(bin: &str) -> bool {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let required = std::env::var("SATDOKU_REQUIRE_SOLVERS").as_deref() == Ok("1");
    let found = installed(bin);
    if !found {
        let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
        if !said.iter().any(|b| b == bin) {
            said.push(bin.to_string());
            // Straight to the terminal (the process's file descriptor 2): what a test writes to
            // standard error is captured by the test harness, and shown only if it fails.
            match std::fs::OpenOptions::new().append(true).open("/dev/stderr") {
                Ok(mut fd2) => {
                    let _ = skip_note(bin, required, &mut fd2);
                }
                Err(_) => {
                    let _ = skip_note(bin, required, &mut std::io::stderr());
                }
            }
        }
    }
    found
}

/// Whether `bin` is on the PATH.
fn installed(bin: &str) -> bool {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {bin}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Says on `out` that the tests needing `bin` are skipped (panics instead when `required`).
fn skip_note(bin: &str, required: bool, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let install = INSTALL
        .iter()
        .find(|(b, _)| *b == bin)
        .map_or("install it", |(_, how)| how);
    assert!(
        !required,
        "{bin} is not installed and SATDOKU_REQUIRE_SOLVERS=1 ({install})"
    );
    writeln!(
        out,
        "note: satdoku tests: {bin} is not installed, so the tests that run it skip that part \
         ({install}; SATDOKU_REQUIRE_SOLVERS=1 makes this a failure)"
    )
}

/// Standard output parsed as JSON Lines (panics, naming the line, on anything else).
pub fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l:?}: {e}")))
        .collect()
}

/// The path of a file under `fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// The puzzles of a fixture, read as they are asked for (test-side reading through the library's
/// reader); panics on a record that is not a puzzle, naming it.
pub fn fixture_puzzles(name: &str, options: ReadOptions) -> impl Iterator<Item = Grid> {
    let file = File::open(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    PuzzleReader::new(BufReader::new(file), name, options)
        .map(|r| r.puzzle.unwrap_or_else(|e| panic!("{e}")).grid)
}

/// The one puzzle of a fixture.
pub fn fixture_puzzle(name: &str) -> Grid {
    let mut puzzles = fixture_puzzles(name, ReadOptions::default());
    let first = puzzles
        .next()
        .unwrap_or_else(|| panic!("{name}: no puzzle"));
    assert!(puzzles.next().is_none(), "{name}: more than one puzzle");
    first
}

/// A 9x9 grid from 81 characters, digits as givens and anything else blank.
pub fn grid81(line: &str) -> Grid {
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

/// "Platinum Blonde", from `/work/shared/datasets/9x9-sudoku-acs-logic-solvable.txt` (rows as
/// there, `-1` as `.`): unique, hard for logic; our simplification leaves it to the SAT solver.
pub const PLATINUM_BLONDE: [&str; 9] = [
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

/// [`PLATINUM_BLONDE`] as a grid.
pub fn platinum_blonde() -> Grid {
    grid81(&PLATINUM_BLONDE.concat())
}

/// The first `k` puzzles of top95 (all unique), one per line.
pub fn top95(k: usize) -> Vec<String> {
    std::fs::read_to_string(fixture("top95.txt"))
        .unwrap()
        .lines()
        .take(k)
        .map(str::to_string)
        .collect()
}

/// A small seeded generator (SplitMix64), so that every test run sees the same puzzles.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `v` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// The pattern solution: value(r, c) = (C·(r mod R) + ⌊r / R⌋ + c) mod N + 1 for boxes of R rows and C
/// columns. Every row is a shift of 1..N, the shifts of the N rows are distinct, and a box's R rows have
/// shifts C·i + q that, with its C consecutive columns, cover N consecutive values.
pub fn pattern(shape: Shape) -> Grid {
    let (r_, c_, n) = (shape.box_rows(), shape.box_cols(), shape.n());
    let values = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((c_ * (r % r_) + r / r_ + c) % n + 1) as u16
        })
        .collect();
    Grid::from_values(shape, values).unwrap()
}

/// A random solved grid of `shape`: the pattern under random validity-keeping symmetries.
pub fn solved(shape: Shape, rng: &mut Rng) -> Grid {
    let (br, bc, n) = (shape.box_rows(), shape.box_cols(), shape.n());
    let base = pattern(shape);
    // Digit relabelling.
    let mut relabel: Vec<u16> = (1..=n as u16).collect();
    rng.shuffle(&mut relabel);
    // Rows: bands of `br` rows (there are `bc` bands); permute bands and rows inside each band.
    let mut bands: Vec<usize> = (0..bc).collect();
    rng.shuffle(&mut bands);
    let mut rows = Vec::with_capacity(n);
    for &b in &bands {
        let mut inner: Vec<usize> = (0..br).collect();
        rng.shuffle(&mut inner);
        rows.extend(inner.iter().map(|i| b * br + i));
    }
    // Columns: stacks of `bc` columns (there are `br` stacks).
    let mut stacks: Vec<usize> = (0..br).collect();
    rng.shuffle(&mut stacks);
    let mut cols = Vec::with_capacity(n);
    for &s in &stacks {
        let mut inner: Vec<usize> = (0..bc).collect();
        rng.shuffle(&mut inner);
        cols.extend(inner.iter().map(|i| s * bc + i));
    }
    let transpose = br == bc && rng.below(2) == 1;
    let values = (0..n * n)
        .map(|i| {
            let (mut r, mut c) = (rows[i / n], cols[i % n]);
            if transpose {
                std::mem::swap(&mut r, &mut c);
            }
            relabel[base.values()[r * n + c] as usize - 1]
        })
        .collect();
    Grid::from_values(shape, values).unwrap()
}

/// `solution` with each cell kept with probability `keep` (0.0..=1.0), the rest blanked.
pub fn carve(solution: &Grid, keep: f64, rng: &mut Rng) -> Grid {
    let mut g = solution.clone();
    for i in 0..solution.shape().cells() {
        if (rng.next_u64() as f64 / u64::MAX as f64) >= keep {
            g.set(Cell::new(i), None);
        }
    }
    g
}

/// `grid` with digits `a` and `b` swapped everywhere (a planted error for the checker's messages).
pub fn swap_digits(grid: &Grid, a: u16, b: u16) -> Grid {
    let moved: Vec<u16> = grid
        .values()
        .iter()
        .map(|&d| match d {
            d if d == a => b,
            d if d == b => a,
            d => d,
        })
        .collect();
    Grid::from_values(grid.shape(), moved).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use satdoku::{Units, verify};

    #[test]
    fn a_missing_program_is_said_to_be_skipped_or_fails_when_required() {
        let bin = "no-such-solver-xyz";
        assert!(!installed(bin));
        assert!(installed("sh"));
        let mut out = Vec::new();
        skip_note(bin, false, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(bin) && text.contains("skip"), "{text}");
        let mut out = Vec::new();
        skip_note("rate", false, &mut out).unwrap();
        assert!(
            String::from_utf8(out)
                .unwrap()
                .contains("cargo install rate")
        );
        let required = std::panic::catch_unwind(|| skip_note(bin, true, &mut Vec::new()));
        assert!(required.is_err());
    }

    #[test]
    fn planted_grids_are_valid_for_every_shape() {
        let mut rng = Rng::new(7);
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (2, 4),
            (3, 4),
            (4, 4),
            (4, 5),
            (5, 5),
            (8, 8),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let units = Units::standard(shape);
            for _ in 0..5 {
                let g = solved(shape, &mut rng);
                verify(&units, &Grid::empty(shape), &g).unwrap();
                let p = carve(&g, 0.5, &mut rng);
                verify(&units, &p, &g).unwrap();
            }
        }
    }
}
