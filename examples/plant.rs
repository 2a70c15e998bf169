//! Writes planted unique puzzles for benchmarks, in the ints format: a solved grid from a pattern,
//! shuffled (digits relabelled, rows inside bands, bands, columns inside stacks, stacks, transposed),
//! then givens removed in random order while the puzzle stays unique, down to a filled share drawn
//! from a range (puzzles that cannot get that low are skipped):
//! `cargo run --release [--features cadical] --example plant -- BOX COUNT MIN% MAX% SEED > FILE`,
//! e.g. `plant 5 30 45 65 1` for 30 unique 25x25 puzzles 45-65 % filled.
//!
//! Uniqueness is decided by the SAT backend (CaDiCaL when compiled in, else varisat), each answer
//! verified; a check that exceeds 20 s keeps the given. A comment line before each puzzle gives the
//! seed, the givens and the share filled.

use std::time::Duration;

use satdoku::sat::{SatBackend, SatSolver};
use satdoku::{Backend, Cell, Digit, Grid, Limits, Outcome, Shape, Units, verify};

/// SplitMix64: reproducible puzzles from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// A shuffled solved grid: the pattern value(r, c) = (b·(r mod b) + ⌊r/b⌋ + c) mod N + 1 under
/// symmetries that keep it solved.
fn solved(b: usize, rng: &mut Rng) -> Grid {
    let n = b * b;
    let mut digits: Vec<usize> = (1..=n).collect();
    rng.shuffle(&mut digits);
    let order = |rng: &mut Rng| {
        let mut bands: Vec<usize> = (0..b).collect();
        rng.shuffle(&mut bands);
        let mut out = Vec::with_capacity(n);
        for band in bands {
            let mut inner: Vec<usize> = (0..b).collect();
            rng.shuffle(&mut inner);
            out.extend(inner.into_iter().map(|i| band * b + i));
        }
        out
    };
    let rows = order(rng);
    let cols = order(rng);
    let transpose = rng.below(2) == 1;
    let values = (0..n * n)
        .map(|i| {
            let (mut r, mut c) = (rows[i / n], cols[i % n]);
            if transpose {
                std::mem::swap(&mut r, &mut c);
            }
            digits[(b * (r % b) + r / b + c) % n] as _
        })
        .collect();
    Grid::from_values(Shape::new(b, b).expect("box size 2..=20"), values).expect("a valid grid")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [b, count, lo, hi, seed] = args.as_slice() else {
        eprintln!("usage: plant BOX COUNT MIN% MAX% SEED");
        std::process::exit(2);
    };
    let parse = |s: &String| s.parse::<usize>().expect("a number");
    let (b, count, lo, hi, seed) = (parse(b), parse(count), parse(lo), parse(hi), parse(seed));
    let solver = if SatSolver::Cadical.is_available() {
        SatSolver::Cadical
    } else {
        SatSolver::Varisat
    };
    let backend = SatBackend::default()
        .with_solver(solver)
        .expect("available");
    let limits = Limits::unique().with_timeout(Some(Duration::from_secs(20)));
    let mut rng = Rng(seed as u64);
    let mut written = 0;
    let mut tries = 0;
    while written < count {
        tries += 1;
        let solution = solved(b, &mut rng);
        let units = Units::standard(solution.shape());
        let cells = solution.shape().cells();
        let target = cells * (lo + rng.below(hi - lo + 1)) / 100;
        let mut puzzle = solution.clone();
        let mut order: Vec<usize> = (0..cells).collect();
        rng.shuffle(&mut order);
        let mut filled = cells;
        for &i in &order {
            if filled <= target {
                break;
            }
            let cell = Cell::new(i);
            let keep: Option<Digit> = puzzle.get(cell);
            puzzle.set(cell, None);
            let unique = match backend.solve(&units, &puzzle, &limits) {
                Ok(r) => match r.outcome {
                    Outcome::Unique(g) => {
                        verify(&units, &puzzle, &g).expect("a verified answer");
                        true
                    }
                    _ => false,
                },
                Err(_) => false,
            };
            if unique {
                filled -= 1;
            } else {
                puzzle.set(cell, keep);
            }
        }
        if filled > cells * hi / 100 || filled < cells * lo / 100 {
            continue;
        }
        println!(
            "# plant {b} seed {seed} try {tries}: {filled} givens, {:.1}% filled",
            100.0 * filled as f64 / cells as f64
        );
        let n = b * b;
        for r in 0..n {
            let row: Vec<String> = (0..n)
                .map(|c| puzzle.values()[r * n + c].to_string())
                .collect();
            println!("{}", row.join(" "));
        }
        println!();
        written += 1;
    }
}
