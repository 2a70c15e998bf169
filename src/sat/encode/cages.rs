//! Killer cages as CNF: distinct digits (binary clauses between cage cells that share no unit) and
//! a sum, in one of two encodings ([`CageEncoding`](super::CageEncoding)).
//!
//! - **Combinations**: one selector variable per set of distinct digits with the cage's size and sum;
//!   at least one selector is true; a true selector bans its missing digits from every cage cell and
//!   asks for each of its digits somewhere in the cage; a cell's digit needs a selector that holds it.
//!   The direct and support encodings of a table constraint (Walsh 2000, "SAT v CSP"; Gent 2002,
//!   "Arc consistency in SAT"), with the table's rows (digit sets) as selectors, as in Bacchus 2007,
//!   "GAC via unit propagation". Size: m selectors for m digit sets; m·k·(N − k) + m·k + k·N + 1
//!   clauses for a cage of k cells.
//! - **Sequential**: the partial sums of the cells taken in order, in the direct encoding: p(i, t) =
//!   "the first i cells add up to t", for the sums t that some i distinct digits reach and that leave
//!   the rest of the cage able to make up the remainder. Clauses go both ways between consecutive
//!   sums: p(i−1, t) ∧ x(cᵢ, v) → p(i, t + v), and p(i, t) ∧ x(cᵢ, v) → p(i−1, t − v); the sum after
//!   the last cell is the cage's. The states are the nodes of the decision diagram of the linear
//!   equation (Abío & Stuckey 2014, "Encoding linear constraints into SAT", after the BDD encoding of
//!   Eén & Sörensson 2006), laid out as a sequential counter of sums (Hölldobler, Manthey & Steinke
//!   2012, "A compact encoding of pseudo-Boolean constraints into SAT"). Size: one variable per state,
//!   about 2N clauses per state.
//!
//! Auxiliary variables are taken in cage order, all of them whatever the givens, so that every
//! encoding of one set of rules numbers them alike (see `vars.rs`).

use super::choice::EncodeError;
use super::fixed::Fixed;
use crate::constraint::{Cage, sum_range};
use crate::grid::Shape;
use crate::sat::lit::Lit;
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, MAX_COMBINATIONS, cell_lit_at};
use crate::units::Units;

/// The digit sets (bit d − 1 for digit d) of `k` distinct digits of 1..=`n` adding up to `sum`, in
/// increasing order of their smallest digits, or `None` past `cap` of them.
pub(super) fn digit_sets(n: usize, k: usize, sum: u32, cap: u64) -> Option<Vec<u64>> {
    let mut out = Vec::new();
    // A stack of (next digit to try, digits chosen, sum so far, set so far).
    let mut chosen: Vec<u32> = Vec::with_capacity(k);
    let mut next = 1u32;
    let n = n as u32;
    loop {
        let partial: u32 = chosen.iter().sum();
        let left = (k - chosen.len()) as u32;
        if left == 0 {
            if partial == sum {
                if out.len() as u64 >= cap {
                    return None;
                }
                out.push(chosen.iter().fold(0u64, |m, &d| m | 1 << (d - 1)));
            }
        } else if next <= n {
            // The smallest and largest sums `left` digits from `next` up can still add.
            let low = left * next + left * (left - 1) / 2;
            let high = if n + 1 >= next + left {
                left * n - left * (left - 1) / 2
            } else {
                0
            };
            if n + 1 >= next + left && partial + low <= sum && sum <= partial + high {
                chosen.push(next);
                next += 1;
                continue;
            }
        }
        // Backtrack: the last digit chosen is replaced by the next one.
        match chosen.pop() {
            Some(d) => next = d + 1,
            None => return Some(out),
        }
    }
}

/// Every set of `k` digits of 1..=`n` (bit d − 1 for digit d), or `None` past `cap` of them (the
/// binomial coefficient, counted first).
pub(super) fn any_sets(n: usize, k: usize, cap: u64) -> Option<Vec<u64>> {
    if k > n {
        return None;
    }
    let mut count = 1u64;
    for i in 0..k as u64 {
        count = count.saturating_mul(n as u64 - i) / (i + 1);
    }
    if count > cap {
        return None;
    }
    let mut out = Vec::with_capacity(count as usize);
    fn walk(n: usize, from: usize, k: usize, set: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(set);
            return;
        }
        for d in from..n {
            if n - d < k {
                break;
            }
            walk(n, d + 1, k - 1, set | 1 << d, out);
        }
    }
    walk(n, 0, k, 0, &mut out);
    Some(out)
}

/// The sums the first `i` of `k` cells may reach in a cage of sum `sum` (N = `n`): at least the
/// smallest sum of i distinct digits and what the other k − i cannot make up, at most the largest and
/// what leaves them enough.
fn sum_window(n: usize, k: usize, sum: u32, i: usize) -> (u32, u32) {
    let (lo_i, hi_i) = sum_range(i, n).unwrap_or((0, 0));
    let (lo_r, hi_r) = sum_range(k - i, n).unwrap_or((0, 0));
    (
        lo_i.max(sum.saturating_sub(hi_r)),
        hi_i.min(sum.saturating_sub(lo_r)),
    )
}

/// Checks that the combinations encoding can be written for every cage (not too many digit sets).
pub(super) fn check_combinations(units: &Units, cages: &[Cage]) -> Result<(), EncodeError> {
    let n = units.shape().n();
    for (i, cage) in cages.iter().enumerate() {
        if digit_sets(n, cage.cells.len(), cage.sum, MAX_COMBINATIONS).is_none() {
            return Err(EncodeError::TooManyCombinations {
                cage: i,
                anchor: cage.anchor().name(units.shape()),
                max: MAX_COMBINATIONS,
            });
        }
    }
    Ok(())
}

/// Pairs of cage cells that share no unit: their digits differ by the cage alone.
pub(super) fn distinct<S: ClauseSink + ?Sized>(
    units: &Units,
    cage: &Cage,
    fixed: &mut Fixed<'_, S>,
) {
    let n = units.shape().n();
    for (i, &a) in cage.cells.iter().enumerate() {
        for &b in &cage.cells[i + 1..] {
            if units.peers(a).binary_search(&b).is_ok() {
                continue;
            }
            for d in 0..n {
                fixed.add(&[!cell_lit_at(n, a.index(), d), !cell_lit_at(n, b.index(), d)]);
            }
        }
    }
}

/// The combinations encoding of every cage (see the module docs).
pub(super) fn combinations<S: ClauseSink + ?Sized>(
    units: &Units,
    cages: &[Cage],
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    for cage in cages {
        distinct(units, cage, fixed);
        combination_selectors(units.shape().n(), cage, aux, fixed);
    }
}

/// The selectors of one cage (see the module docs), without the distinctness of its cells: its
/// digit sets and their selectors, in the same order.
pub(super) fn combination_selectors<S: ClauseSink + ?Sized>(
    n: usize,
    cage: &Cage,
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) -> (Vec<u64>, Vec<Lit>) {
    let mut clause: Vec<Lit> = Vec::new();
    let k = cage.cells.len();
    // Checked by `check_combinations` before anything is written.
    let sets = digit_sets(n, k, cage.sum, MAX_COMBINATIONS).unwrap_or_default();
    let selectors: Vec<Lit> = sets.iter().map(|_| aux.fresh().positive()).collect();
    fixed.add(&selectors);
    for (&set, &s) in sets.iter().zip(&selectors) {
        for d in 0..n {
            let in_set = set >> d & 1 == 1;
            if in_set {
                clause.clear();
                clause.push(!s);
                clause.extend(cage.cells.iter().map(|c| cell_lit_at(n, c.index(), d)));
                fixed.add(&clause);
            } else {
                for c in &cage.cells {
                    fixed.add(&[!s, !cell_lit_at(n, c.index(), d)]);
                }
            }
        }
    }
    for c in &cage.cells {
        for d in 0..n {
            clause.clear();
            clause.push(!cell_lit_at(n, c.index(), d));
            clause.extend(
                sets.iter()
                    .zip(&selectors)
                    .filter(|&(&set, _)| set >> d & 1 == 1)
                    .map(|(_, &s)| s),
            );
            fixed.add(&clause);
        }
    }
    (sets, selectors)
}

/// The sequential (partial sums) encoding of every cage (see the module docs).
pub(super) fn sequential<S: ClauseSink + ?Sized>(
    units: &Units,
    cages: &[Cage],
    aux: &mut AuxVars,
    fixed: &mut Fixed<'_, S>,
) {
    let shape: Shape = units.shape();
    let n = shape.n();
    for cage in cages {
        distinct(units, cage, fixed);
        let k = cage.cells.len();
        // state[i]: the window of sums after i cells and the variable of its first sum (levels 1 to
        // k − 1; level 0 is the sum 0 and level k the cage's sum, both true).
        let windows: Vec<(u32, u32)> = (0..=k).map(|i| sum_window(n, k, cage.sum, i)).collect();
        let mut first: Vec<Option<Lit>> = vec![None; k + 1];
        for (i, slot) in first.iter_mut().enumerate().take(k).skip(1) {
            let (lo, hi) = windows[i];
            for t in lo..=hi {
                let v = aux.fresh().positive();
                if t == lo {
                    *slot = Some(v);
                }
            }
        }
        // The literal of p(i, t): `Ok(None)` when the state is true (levels 0 and k), `Err(())` when
        // the sum is outside the window (false), else the variable.
        let state = |i: usize, t: u32| -> Result<Option<Lit>, ()> {
            let (lo, hi) = windows[i];
            if t < lo || t > hi {
                return Err(());
            }
            if i == 0 || i == k {
                return Ok(None);
            }
            match first[i] {
                Some(base) => Ok(Some(Lit::from_index(
                    base.index() + (t - lo) as usize,
                    true,
                ))),
                None => Err(()),
            }
        };
        for (i, c) in cage.cells.iter().enumerate() {
            let level = i + 1;
            let x = |v: u32| cell_lit_at(n, c.index(), v as usize - 1);
            let (lo_prev, hi_prev) = windows[i];
            // Forward: from each sum before this cell and each digit.
            for t in lo_prev..=hi_prev {
                let Ok(prev) = state(i, t) else { continue };
                for v in 1..=n as u32 {
                    let mut clause = Vec::with_capacity(3);
                    clause.extend(prev.map(|p| !p));
                    clause.push(!x(v));
                    match state(level, t + v) {
                        Ok(None) => continue,
                        Ok(Some(next)) => clause.push(next),
                        Err(()) => {}
                    }
                    fixed.add(&clause);
                }
            }
            // Backward: from each sum after this cell and each digit.
            let (lo, hi) = windows[level];
            for t in lo..=hi {
                let Ok(here) = state(level, t) else { continue };
                for v in 1..=n as u32 {
                    let mut clause = Vec::with_capacity(3);
                    clause.extend(here.map(|p| !p));
                    clause.push(!x(v));
                    match t.checked_sub(v).map(|p| state(i, p)) {
                        Some(Ok(None)) => continue,
                        Some(Ok(Some(prev))) => clause.push(prev),
                        _ => {}
                    }
                    fixed.add(&clause);
                }
            }
        }
    }
}

/// The auxiliary variables the sequential encoding takes for `cage` (N = `n`).
#[cfg(test)]
pub(super) fn sequential_vars(n: usize, cage: &Cage) -> u64 {
    let k = cage.cells.len();
    (1..k)
        .map(|i| {
            let (lo, hi) = sum_window(n, k, cage.sum, i);
            if hi >= lo { u64::from(hi - lo + 1) } else { 0 }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_sets_match_the_killer_table() {
        let digits =
            |m: u64| -> Vec<u32> { (0..64).filter(|d| m >> d & 1 == 1).map(|d| d + 1).collect() };
        assert_eq!(
            digit_sets(9, 2, 10, 100)
                .unwrap()
                .iter()
                .map(|&m| digits(m))
                .collect::<Vec<_>>(),
            [vec![1, 9], vec![2, 8], vec![3, 7], vec![4, 6]]
        );
        assert_eq!(digit_sets(9, 3, 24, 100).unwrap().len(), 1, "7 8 9");
        assert_eq!(digit_sets(9, 9, 45, 100).unwrap().len(), 1);
        assert_eq!(digit_sets(9, 4, 20, 100).unwrap().len(), 12);
        assert_eq!(digit_sets(4, 2, 8, 100).unwrap().len(), 0);
        // Against brute force over every subset, 9x9 and 6x6.
        for n in [6usize, 9] {
            for k in 1..=n {
                for sum in 1..=45u32 {
                    let brute: Vec<u64> = (0u64..1 << n)
                        .filter(|m| m.count_ones() as usize == k)
                        .filter(|&m| digits(m).iter().sum::<u32>() == sum)
                        .collect();
                    let mut ours = digit_sets(n, k, sum, 1000).unwrap();
                    ours.sort_unstable();
                    assert_eq!(ours, brute, "n {n} k {k} sum {sum}");
                }
            }
        }
        assert!(digit_sets(64, 8, 260, MAX_COMBINATIONS).is_none());
    }

    #[test]
    fn sum_windows_of_a_three_cell_cage() {
        // 3 cells summing to 6 (only 1 2 3): after one cell 1..=3, after two 3..=5.
        assert_eq!(sum_window(9, 3, 6, 0), (0, 0));
        assert_eq!(sum_window(9, 3, 6, 1), (1, 3));
        assert_eq!(sum_window(9, 3, 6, 2), (3, 5));
        assert_eq!(sum_window(9, 3, 6, 3), (6, 6));
        let shape = Shape::new(3, 3).unwrap();
        let cage = Cage {
            sum: 6,
            cells: vec![crate::grid::Cell::at(shape, 0, 0); 3],
        };
        assert_eq!(sequential_vars(9, &cage), 6);
    }
}
