//! Killer cages over a solution grid: a random partition into small cages of distinct digits, and
//! the pairs of neighbouring cages that may merge into one.

use super::rng::Rng;
use crate::grid::{Grid, Shape};
use crate::rules::RulesBuilder;
use crate::units::Units;

/// The largest cage the generator makes on a grid of side `n`: 5 cells for 9x9 (half the digits
/// and one), 9 for 16x16.
pub(crate) fn max_cage(n: usize) -> usize {
    (n / 2 + 1).min(n)
}

/// A random partition of the grid into cages of orthogonally connected cells holding distinct
/// digits of `solution`: cages of 2 cells, a quarter of them 3, grown from the cells in a random
/// order; a cell left alone joins a neighbouring cage when one can take it (below `max` cells, its
/// digit not in it), else stays a cage of one. Small cages say much about the grid, so that the
/// puzzle is unique with few or no givens; merging them afterwards takes information away.
pub(crate) fn partition(solution: &Grid, rng: &mut Rng, max: usize) -> Vec<Vec<usize>> {
    let shape = solution.shape();
    let n = shape.n();
    let values = solution.values();
    let mut cage_of = vec![usize::MAX; n * n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    let mut frontier = Vec::new();
    for &start in &order {
        if cage_of[start] != usize::MAX {
            continue;
        }
        let want = if rng.below(4) == 0 { 3 } else { 2 }.min(max);
        let id = cages.len();
        let mut cage = vec![start];
        cage_of[start] = id;
        while cage.len() < want {
            frontier.clear();
            for &c in &cage {
                for j in neighbours(shape, c) {
                    if cage_of[j] == usize::MAX
                        && !cage.iter().any(|&k| values[k] == values[j])
                        && !frontier.contains(&j)
                    {
                        frontier.push(j);
                    }
                }
            }
            if frontier.is_empty() {
                break;
            }
            let j = frontier[rng.below(frontier.len())];
            cage_of[j] = id;
            cage.push(j);
        }
        cages.push(cage);
    }
    // Cells alone: into a neighbouring cage that can take them.
    for id in 0..cages.len() {
        if cages[id].len() != 1 {
            continue;
        }
        let cell = cages[id][0];
        let mut hosts: Vec<usize> = neighbours(shape, cell)
            .map(|j| cage_of[j])
            .filter(|&h| {
                h != id
                    && cages[h].len() < max
                    && !cages[h].iter().any(|&k| values[k] == values[cell])
            })
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        if hosts.is_empty() {
            continue;
        }
        let host = hosts[rng.below(hosts.len())];
        cages[host].push(cell);
        cages[id].clear();
        cage_of[cell] = host;
    }
    cages.retain(|c| !c.is_empty());
    for c in &mut cages {
        c.sort_unstable();
    }
    cages
}

/// The sum of each cage's digits in `solution`.
pub(crate) fn sums(cages: &[Vec<usize>], solution: &Grid) -> Vec<u32> {
    cages
        .iter()
        .map(|c| c.iter().map(|&i| u32::from(solution.values()[i])).sum())
        .collect()
}

/// The pairs of cages `(i, j)`, `i < j`, that touch orthogonally, hold no digit of `solution` in
/// common, and have at most `max` cells together: those that may merge into one cage.
pub(crate) fn mergeable(cages: &[Vec<usize>], solution: &Grid, max: usize) -> Vec<(usize, usize)> {
    let shape = solution.shape();
    let n = shape.n();
    let mut cage_of = vec![usize::MAX; n * n];
    for (id, c) in cages.iter().enumerate() {
        for &i in c {
            cage_of[i] = id;
        }
    }
    let digits = |c: &[usize]| -> Vec<u16> {
        let mut d: Vec<u16> = c.iter().map(|&i| solution.values()[i]).collect();
        d.sort_unstable();
        d
    };
    let mut pairs = Vec::new();
    for (id, c) in cages.iter().enumerate() {
        for &i in c {
            for j in neighbours(shape, i) {
                let other = cage_of[j];
                if other != usize::MAX && other > id {
                    pairs.push((id, other));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs.retain(|&(a, b)| {
        cages[a].len() + cages[b].len() <= max && {
            let (da, db) = (digits(&cages[a]), digits(&cages[b]));
            !da.iter().any(|d| db.binary_search(d).is_ok())
        }
    });
    pairs
}

/// A builder holding the rules of `base`: its variants, regions, cages and clues (and digits from
/// 0 when it has them), to add more to.
pub(crate) fn rules_of(base: &Units) -> RulesBuilder {
    let shape = base.shape();
    let mut b = Units::rules(shape);
    for &v in base.variants() {
        b = b.variant(v);
    }
    if let Some(regions) = base.regions() {
        b = b.regions(regions);
    }
    for cage in base.cages() {
        b = b.cage(
            cage.sum,
            cage.cells.iter().map(|c| (c.row(shape), c.col(shape))),
        );
    }
    for clue in base.clues() {
        b = b.clue(clue.clone());
    }
    if base.base() == 0 {
        b = b.zero_based();
    }
    b
}

/// `base` (the rules without these cages) with these cages over `solution`.
pub(crate) fn with_cages(
    base: &Units,
    cages: &[Vec<usize>],
    solution: &Grid,
) -> Result<Units, crate::rules::RulesError> {
    let n = base.shape().n();
    let mut b = rules_of(base);
    for (cage, sum) in cages.iter().zip(sums(cages, solution)) {
        b = b.cage(sum, cage.iter().map(|&i| (i / n, i % n)));
    }
    b.build()
}

/// The orthogonal neighbours of cell `i`.
fn neighbours(shape: Shape, i: usize) -> impl Iterator<Item = usize> {
    let n = shape.n();
    let (r, c) = (i / n, i % n);
    [
        (r > 0).then(|| i - n),
        (r + 1 < n).then(|| i + n),
        (c > 0).then(|| i - 1),
        (c + 1 < n).then(|| i + 1),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::fill::shuffled_pattern;

    #[test]
    fn partitions_cover_the_grid_with_connected_cages_of_distinct_digits() {
        let mut rng = Rng::new(2);
        let shape = Shape::new(3, 3).unwrap();
        let solution = shuffled_pattern(shape, &mut rng);
        let cages = partition(&solution, &mut rng, max_cage(9));
        let mut seen = vec![0; 81];
        for c in &cages {
            assert!((1..=5).contains(&c.len()), "{c:?}");
            let mut d: Vec<u16> = c.iter().map(|&i| solution.values()[i]).collect();
            d.sort_unstable();
            d.dedup();
            assert_eq!(d.len(), c.len(), "repeated digit in {c:?}");
            c.iter().for_each(|&i| seen[i] += 1);
        }
        assert!(seen.iter().all(|&k| k == 1));
        let units = with_cages(&Units::standard(shape), &cages, &solution).unwrap();
        assert_eq!(units.cages().len(), cages.len());
        assert_eq!(
            crate::verify::verify(&units, &Grid::empty(shape), &solution),
            Ok(())
        );
        for (a, b) in mergeable(&cages, &solution, 5) {
            assert!(a < b && cages[a].len() + cages[b].len() <= 5);
        }
        assert!(!mergeable(&cages, &solution, 5).is_empty());
    }
}
