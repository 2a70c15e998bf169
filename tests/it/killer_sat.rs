//! The SAT backend's implied cage constraints (`CageEncoding::Implied`, issue 26): on small killers
//! made from planted grids (random cages, some cells left out of cages, a few givens, some cage sums
//! made wrong), the solution counts of every cage encoding and of the native backend equal those of a
//! brute-force counter written here, so the implied sums and clauses never remove a solution (nor
//! let one in); and they are really there (the formula grows).

use satdoku::sat::{Amo, CageEncoding, Encoding, SatBackend, formula_stats_with};
use satdoku::{Backend, Cell, DfsBackend, Digit, Grid, Limits, Shape, Units, verify};

use crate::common::{Rng, solved};

/// Cages over `solution`: each grown from the first cell not yet caged through random neighbours
/// (right, down, left, up) up to a random size of 1..=`max`, digits distinct; a cell is left out of
/// every cage with probability `loose`. Sums from the solution, one made wrong (plus one) if `wrong`.
fn random_cages(
    solution: &Grid,
    max: usize,
    loose: usize,
    wrong: bool,
    rng: &mut Rng,
) -> Vec<(u32, Vec<(usize, usize)>)> {
    let shape = solution.shape();
    let n = shape.n();
    let mut taken = vec![false; n * n];
    let mut cages = Vec::new();
    for start in 0..n * n {
        if taken[start] {
            continue;
        }
        taken[start] = true;
        if rng.below(100) < loose {
            continue;
        }
        let size = 1 + rng.below(max);
        let mut cells = vec![start];
        let mut digits = vec![solution.values()[start]];
        while cells.len() < size {
            let mut next: Vec<usize> = Vec::new();
            for &c in &cells {
                let (r, col) = (c / n, c % n);
                let around = [
                    (r, col + 1),
                    (r + 1, col),
                    (r, col.wrapping_sub(1)),
                    (r.wrapping_sub(1), col),
                ];
                for (rr, cc) in around {
                    if rr < n && cc < n && !taken[rr * n + cc] {
                        next.push(rr * n + cc);
                    }
                }
            }
            next.retain(|&c| !digits.contains(&solution.values()[c]));
            if next.is_empty() {
                break;
            }
            let c = next[rng.below(next.len())];
            taken[c] = true;
            cells.push(c);
            digits.push(solution.values()[c]);
        }
        let sum: u32 = digits.iter().map(|&d| u32::from(d)).sum();
        cages.push((sum, cells.iter().map(|&c| (c / n, c % n)).collect()));
    }
    if wrong && !cages.is_empty() {
        let i = rng.below(cages.len());
        cages[i].0 += 1;
    }
    cages
}

/// Counts the solutions of `puzzle` under `units` (rows, columns, boxes and cages) up to `cap`, by
/// plain backtracking in reading order that checks each unit and each cage (distinct digits, their
/// sum) as cells fill: independent of both backends.
fn brute_force_count(units: &Units, puzzle: &Grid, cap: u64) -> u64 {
    fn ok(units: &Units, g: &Grid, cell: Cell) -> bool {
        let v = g.values();
        let d = v[cell.index()];
        if units.peers(cell).iter().any(|p| v[p.index()] == d) {
            return false;
        }
        units
            .cages()
            .iter()
            .filter(|c| c.cells.contains(&cell))
            .all(|c| {
                let filled: Vec<u16> = c
                    .cells
                    .iter()
                    .map(|x| v[x.index()])
                    .filter(|&x| x != 0)
                    .collect();
                let sum: u32 = filled.iter().map(|&x| u32::from(x)).sum();
                let mut seen = filled.clone();
                seen.sort_unstable();
                seen.dedup();
                seen.len() == filled.len()
                    && if filled.len() == c.cells.len() {
                        sum == c.sum
                    } else {
                        sum < c.sum
                    }
            })
    }
    fn go(units: &Units, g: &mut Grid, cap: u64, found: &mut u64) {
        let Some(i) = g.values().iter().position(|&v| v == 0) else {
            *found += 1;
            return;
        };
        let cell = Cell::new(i);
        for d in 1..=g.n() as u16 {
            g.set(cell, Digit::new(d));
            if ok(units, g, cell) {
                go(units, g, cap, found);
            }
            g.set(cell, None);
            if *found >= cap {
                return;
            }
        }
    }
    let mut g = puzzle.clone();
    for i in 0..g.values().len() {
        if g.values()[i] != 0 && !ok(units, &g, Cell::new(i)) {
            return 0;
        }
    }
    let mut found = 0;
    go(units, &mut g, cap, &mut found);
    found
}

/// The number of solutions a backend reports, up to `cap`, each grid verified.
fn count(backend: &dyn Backend, units: &Units, puzzle: &Grid, cap: u64) -> u64 {
    let limits = Limits::count_to(cap);
    let out = backend.solve(units, puzzle, &limits).unwrap().outcome;
    for g in out.grids() {
        verify(units, puzzle, g).unwrap();
    }
    assert!(out.settles(&limits), "{out:?}");
    out.count().min(cap)
}

/// Random small killers (4x4, 6x6 both ways): every cage encoding of the SAT backend and the native
/// backend count as brute force does (counting to 12), with and without a wrong sum, with cells left
/// out of cages and a few givens; the implied encoding adds clauses to most of them.
#[test]
fn implied_cage_constraints_keep_every_solution_on_small_killers() {
    let cap = 12;
    let mut grew = 0;
    let mut puzzles = 0;
    let mut none = 0;
    let mut several = 0;
    for (r, c, seeds) in [(2, 2, 0..60u64), (2, 3, 100..130), (3, 2, 200..230)] {
        let shape = Shape::new(r, c).unwrap();
        for seed in seeds {
            let mut rng = Rng::new(seed);
            let solution = solved(shape, &mut rng);
            let loose = [0, 0, 10, 30][rng.below(4)];
            let wrong = rng.below(4) == 0;
            let max = 2 + rng.below(4);
            let mut rules = Units::rules(shape);
            for (sum, cells) in random_cages(&solution, max, loose, wrong, &mut rng) {
                rules = rules.cage(sum, cells);
            }
            let Ok(units) = rules.build() else {
                continue; // a wrong sum no digits can make: refused when read
            };
            let mut puzzle = Grid::empty(shape);
            for _ in 0..rng.below(3) {
                let i = rng.below(shape.cells());
                puzzle.set(Cell::new(i), Digit::new(solution.values()[i]));
            }
            let expect = brute_force_count(&units, &puzzle, cap);
            let what = format!("{shape} seed {seed}: {:?}", units.cages());
            assert_eq!(
                count(&DfsBackend::new(), &units, &puzzle, cap),
                expect,
                "dfs {what}"
            );
            for cages in CageEncoding::ALL {
                let sat = SatBackend::default().with_cages(cages);
                assert_eq!(count(&sat, &units, &puzzle, cap), expect, "{cages} {what}");
            }
            let clauses = |cages| {
                formula_stats_with(&units, &puzzle, Encoding::Extended, Amo::Pairwise, cages)
                    .unwrap()
                    .clauses
            };
            if clauses(CageEncoding::Implied) > clauses(CageEncoding::Combinations) {
                grew += 1;
            }
            puzzles += 1;
            none += usize::from(expect == 0);
            several += usize::from(expect > 1);
        }
    }
    // The puzzles are of every kind, and the implied clauses are there in most.
    assert!(puzzles >= 100, "{puzzles}");
    assert!(
        none >= 10 && several >= 10,
        "none {none}, several {several} of {puzzles}"
    );
    assert!(
        grew * 4 >= puzzles * 3,
        "implied clauses in {grew} of {puzzles}"
    );
}
