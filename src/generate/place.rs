//! Clues placed over a solution grid so that they are true of it: thermometers along strictly
//! increasing paths, every kropki dot, every X and V.

use super::rng::Rng;
use crate::clue::Clue;
use crate::grid::{Cell, Grid, Shape};

/// What to place over the solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Placing {
    /// Thermometers (none when 0).
    pub thermos: usize,
    /// Every kropki dot of the solution.
    pub kropki: bool,
    /// Every X and V of the solution.
    pub xv: bool,
}

impl Placing {
    /// Whether anything is placed.
    pub fn any(self) -> bool {
        self.thermos > 0 || self.kropki || self.xv
    }
}

/// The clues of `placing` over `solution`, or `None` when the thermometers asked for do not fit
/// (the attempt is then replaced).
pub(crate) fn place(placing: Placing, solution: &Grid, rng: &mut Rng) -> Option<Vec<Clue>> {
    let mut clues = Vec::new();
    if placing.thermos > 0 {
        let paths = thermometers(solution, rng, placing.thermos)?;
        clues.extend(paths.into_iter().map(|cells| Clue::Thermo {
            cells: cells.into_iter().map(Cell::new).collect(),
        }));
    }
    if placing.kropki {
        clues.extend(kropki(solution, rng));
    }
    if placing.xv {
        clues.extend(xv(solution));
    }
    Some(clues)
}

/// The shortest and the longest thermometer on a grid of side `n`: 3 to 6 cells on 9x9 (at most
/// `n`, the longest strictly increasing run).
pub(crate) fn thermo_lengths(n: usize) -> (usize, usize) {
    let lo = 3.min(n);
    (lo, (n / 2 + 2).clamp(lo, n))
}

/// Tries per thermometer asked for before the placement gives up.
const THERMO_TRIES: usize = 40;

/// `count` thermometers over `solution` sharing no cell: each grown from a random cell, a cell at a
/// time (a king's step, onto a cell of a larger digit at the tip or of a smaller one at the bulb,
/// chosen at random), to a length drawn from [`thermo_lengths`]; one that stops short of the
/// shortest length is dropped. Each path bulb first, strictly increasing in `solution`.
pub(crate) fn thermometers(
    solution: &Grid,
    rng: &mut Rng,
    count: usize,
) -> Option<Vec<Vec<usize>>> {
    let shape = solution.shape();
    let values = solution.values();
    let cells = values.len();
    let (lo, hi) = thermo_lengths(shape.n());
    let mut used = vec![false; cells];
    let mut out: Vec<Vec<usize>> = Vec::with_capacity(count);
    let mut ends: Vec<(usize, bool)> = Vec::new();
    for _ in 0..count * THERMO_TRIES {
        if out.len() == count {
            break;
        }
        let want = rng.between(lo, hi);
        let start = rng.below(cells);
        if used[start] {
            continue;
        }
        let mut path = std::collections::VecDeque::from([start]);
        while path.len() < want {
            // (cell, at the tip): the free neighbours that extend either end.
            ends.clear();
            let (bulb, tip) = (path[0], path[path.len() - 1]);
            for j in kings(shape, tip) {
                if !used[j] && !path.contains(&j) && values[j] > values[tip] {
                    ends.push((j, true));
                }
            }
            for j in kings(shape, bulb) {
                if !used[j] && !path.contains(&j) && values[j] < values[bulb] {
                    ends.push((j, false));
                }
            }
            if ends.is_empty() {
                break;
            }
            match ends[rng.below(ends.len())] {
                (j, true) => path.push_back(j),
                (j, false) => path.push_front(j),
            }
        }
        if path.len() >= lo {
            path.iter().for_each(|&i| used[i] = true);
            out.push(path.into_iter().collect());
        }
    }
    (out.len() == count).then_some(out)
}

/// Every kropki dot of `solution`: white between orthogonal neighbours holding consecutive digits,
/// black where one is double the other; a 1 beside a 2 (both) gets either, at random.
pub(crate) fn kropki(solution: &Grid, rng: &mut Rng) -> Vec<Clue> {
    let mut out = Vec::new();
    for (a, b) in neighbour_pairs(solution.shape()) {
        let (x, y) = (solution.values()[a], solution.values()[b]);
        let white = x.abs_diff(y) == 1;
        let black = x == 2 * y || y == 2 * x;
        let black = match (white, black) {
            (false, false) => continue,
            (true, true) => rng.below(2) == 0,
            (_, black) => black,
        };
        out.push(Clue::Kropki {
            black,
            cells: vec![Cell::new(a), Cell::new(b)],
        });
    }
    out
}

/// Every X (a sum of 10) and V (5) between orthogonal neighbours of `solution`.
pub(crate) fn xv(solution: &Grid) -> Vec<Clue> {
    let mut out = Vec::new();
    for (a, b) in neighbour_pairs(solution.shape()) {
        let sum = i32::from(solution.values()[a]) + i32::from(solution.values()[b]);
        if sum == 5 || sum == 10 {
            out.push(Clue::Xv {
                sum,
                cells: vec![Cell::new(a), Cell::new(b)],
            });
        }
    }
    out
}

/// Each pair of orthogonal neighbours once, the upper or left cell first, in reading order.
fn neighbour_pairs(shape: Shape) -> impl Iterator<Item = (usize, usize)> {
    let (rows, cols) = (shape.rows(), shape.cols());
    (0..rows * cols).flat_map(move |i| {
        let (r, c) = (i / cols, i % cols);
        let right = (c + 1 < cols).then_some((i, i + 1));
        let down = (r + 1 < rows).then_some((i, i + cols));
        right.into_iter().chain(down)
    })
}

/// The cells a king's step from cell `i` (the eight around it, inside the grid).
fn kings(shape: Shape, i: usize) -> impl Iterator<Item = usize> {
    let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
    let (r, c) = (i as isize / cols, i as isize % cols);
    (-1..=1).flat_map(move |dr| {
        (-1..=1).filter_map(move |dc| {
            let (y, x) = (r + dr, c + dc);
            ((dr, dc) != (0, 0) && (0..rows).contains(&y) && (0..cols).contains(&x))
                .then_some((y * cols + x) as usize)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::fill::shuffled_pattern;
    use crate::rules::RulesBuilder;
    use crate::units::Units;
    use crate::verify::verify;

    fn with(shape: Shape, clues: &[Clue], extra: impl Fn(RulesBuilder) -> RulesBuilder) -> Units {
        let mut b = extra(Units::rules(shape));
        for c in clues {
            b = b.clue(c.clone());
        }
        b.build().unwrap()
    }

    #[test]
    fn placed_clues_hold_on_the_solution() {
        let shape = Shape::new(3, 3).unwrap();
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let solution = shuffled_pattern(shape, &mut rng);
            let thermos = thermometers(&solution, &mut rng, 4).expect("4 thermometers fit 9x9");
            assert_eq!(thermos.len(), 4);
            let mut seen = std::collections::HashSet::new();
            for t in &thermos {
                assert!((3..=6).contains(&t.len()), "{t:?}");
                for w in t.windows(2) {
                    assert!(solution.values()[w[0]] < solution.values()[w[1]]);
                    let (a, b) = (Cell::new(w[0]), Cell::new(w[1]));
                    assert!(a.row(shape).abs_diff(b.row(shape)) <= 1);
                    assert!(a.col(shape).abs_diff(b.col(shape)) <= 1);
                }
                assert!(t.iter().all(|&i| seen.insert(i)), "overlap");
            }
            let clues = place(
                Placing {
                    thermos: 4,
                    kropki: true,
                    xv: true,
                },
                &solution,
                &mut Rng::new(seed),
            )
            .unwrap();
            // The independent verifier, with every dot and X/V shown (the strict forms).
            let units = with(shape, &clues, |b| {
                b.variant(crate::constraint::Variant::StrictKropki)
                    .variant(crate::constraint::Variant::StrictXv)
            });
            assert_eq!(verify(&units, &Grid::empty(shape), &solution), Ok(()));
            // Removing one dot breaks the strict rule: the dots are all there is.
            let dots: Vec<&Clue> = clues
                .iter()
                .filter(|c| matches!(c, Clue::Kropki { .. }))
                .collect();
            assert!(!dots.is_empty());
            let fewer: Vec<Clue> = clues
                .iter()
                .filter(|c| !std::ptr::eq(*c, dots[0]))
                .cloned()
                .collect();
            let units = with(shape, &fewer, |b| {
                b.variant(crate::constraint::Variant::StrictKropki)
            });
            assert!(verify(&units, &Grid::empty(shape), &solution).is_err());
        }
    }

    #[test]
    fn too_many_thermometers_do_not_fit() {
        let shape = Shape::new(2, 2).unwrap();
        let mut rng = Rng::new(1);
        let solution = shuffled_pattern(shape, &mut rng);
        // 16 cells hold at most 5 thermometers of 3.
        assert!(thermometers(&solution, &mut rng, 6).is_none());
        assert_eq!(thermo_lengths(9), (3, 6));
        assert_eq!(thermo_lengths(4), (3, 4));
    }
}
