//! Random solution grids: the native search with a random value order, for any shape and rules;
//! for the standard rules of grids where that search stalls, a pattern grid shuffled by symmetries.

use super::rng::Rng;
use crate::dfs::DfsBackend;
use crate::grid::{Grid, Shape};
use crate::solve::{Backend, Limits, Outcome};
use crate::units::Units;

/// Tries of the randomized search before giving up (or falling back to the pattern).
const TRIES: usize = 4;

/// The node budget of one try of the randomized search on a grid of `cells` cells: an empty grid
/// takes about one node per open cell when no digit has to be taken back (measured: 45 nodes for
/// 9x9, 480 for 25x25, 3,900 for 64x64), so twice that and a margin.
fn budget(cells: usize) -> u64 {
    1_000 + 2 * cells as u64
}

/// A random solution of `start` (a partial grid, or the empty grid) under `units`, or `None` when
/// the randomized search finds none within its budget in [`TRIES`] tries (and, for the standard
/// rules on an empty grid, the shuffled pattern is used instead, so this never fails there).
pub(crate) fn random_solution(units: &Units, start: &Grid, rng: &mut Rng) -> Option<Grid> {
    let limits = Limits::first().with_budget(Some(budget(units.shape().cells())));
    for _ in 0..TRIES {
        let backend = DfsBackend::randomized(rng.next_u64());
        // Under the standard rules any first row starts a solution: a random one saves the search
        // its first N nodes.
        let mut first = start.clone();
        if units.is_standard() && start.filled() == 0 {
            let n = units.shape().n();
            let mut row: Vec<u16> = (1..=n as u16).collect();
            rng.shuffle(&mut row);
            for (c, v) in row.into_iter().enumerate() {
                first.set(crate::grid::Cell::new(c), crate::grid::Digit::new(v));
            }
        }
        match backend.solve(units, &first, &limits).map(|r| r.outcome) {
            Ok(Outcome::Found(g)) => return Some(g),
            // No solution at all: more tries will not find one.
            Ok(Outcome::NoSolution) | Err(_) => return None,
            Ok(_) => {}
        }
    }
    (units.is_standard() && start.filled() == 0).then(|| shuffled_pattern(units.shape(), rng))
}

/// The pattern grid value(r, c) = (C·(r mod R) + ⌊r/R⌋ + c) mod N + 1 for boxes of R rows and C
/// columns (each row a shift of 1..N; a box's R rows are shifted by C·i + q, which with its C
/// columns covers N consecutive values), under symmetries that keep a grid solved: digits relabelled,
/// rows permuted inside their band and bands permuted, columns inside their stack and stacks, and
/// for square boxes a transposition.
pub(crate) fn shuffled_pattern(shape: Shape, rng: &mut Rng) -> Grid {
    let (br, bc, n) = (shape.box_rows(), shape.box_cols(), shape.n());
    let mut digits: Vec<u16> = (1..=n as u16).collect();
    rng.shuffle(&mut digits);
    // `groups` groups of `size` lines each: the groups permuted, and the lines inside each.
    let order = |rng: &mut Rng, groups: usize, size: usize| {
        let mut outer: Vec<usize> = (0..groups).collect();
        rng.shuffle(&mut outer);
        let mut out = Vec::with_capacity(n);
        for g in outer {
            let mut inner: Vec<usize> = (0..size).collect();
            rng.shuffle(&mut inner);
            out.extend(inner.into_iter().map(|i| g * size + i));
        }
        out
    };
    // Rows come in bands of R rows (C bands); columns in stacks of C columns (R stacks).
    let rows = order(rng, bc, br);
    let cols = order(rng, br, bc);
    let transpose = br == bc && rng.below(2) == 1;
    let values = (0..n * n)
        .map(|i| {
            let (mut r, mut c) = (rows[i / n], cols[i % n]);
            if transpose {
                std::mem::swap(&mut r, &mut c);
            }
            digits[(bc * (r % br) + r / br + c) % n]
        })
        .collect();
    Grid::from_values(shape, values).expect("digits 1..=N")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::Variant;
    use crate::verify::verify;

    #[test]
    fn patterns_are_solutions_of_every_box_shape() {
        let mut rng = Rng::new(3);
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (3, 4),
            (4, 4),
            (2, 5),
            (5, 5),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let units = Units::standard(shape);
            let a = shuffled_pattern(shape, &mut rng);
            let b = shuffled_pattern(shape, &mut rng);
            assert_eq!(verify(&units, &Grid::empty(shape), &a), Ok(()), "{shape}");
            assert_ne!(a, b, "{shape}");
        }
    }

    #[test]
    fn random_solutions_follow_the_rules_and_the_seed() {
        let shape = Shape::new(3, 3).unwrap();
        let units = Units::rules(shape)
            .variant(Variant::Diagonals)
            .variant(Variant::AntiKnight)
            .build()
            .unwrap();
        let empty = Grid::empty(shape);
        let a = random_solution(&units, &empty, &mut Rng::new(5)).unwrap();
        assert_eq!(verify(&units, &empty, &a), Ok(()));
        assert_eq!(
            random_solution(&units, &empty, &mut Rng::new(5)).as_ref(),
            Some(&a)
        );
        assert_ne!(random_solution(&units, &empty, &mut Rng::new(6)), Some(a));
        // A start with no solution (two 1s in row 1) has none.
        let mut bad = empty.clone();
        bad.set(crate::grid::Cell::new(0), crate::grid::Digit::new(1));
        bad.set(crate::grid::Cell::new(1), crate::grid::Digit::new(1));
        assert_eq!(random_solution(&units, &bad, &mut Rng::new(5)), None);
    }
}
