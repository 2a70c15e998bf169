//! Sandwiches over a whole row or column, reasoned about by the sets of digits between the ends
//! (the idea of sigh's `Lunchbox` handler, Interactive Sudoku Solver, MIT) rather than by walking
//! their automaton, which must track every digit already read to see that the row's digits differ.

use super::mask::Mask;
use super::narrow::{Narrowed, domain, keep_only};
use super::step::Step;

/// The most cells of a house sandwich reasoned about here (its digit sets are listed once).
pub(super) const MAX_CELLS: usize = 16;

/// A sandwich whose cells are a whole house of N cells: the smallest and largest digits (the
/// *ends*) are somewhere in it, and the cells strictly between them hold a set of middle digits
/// whose values add up to the sum. Per pair of positions able to hold the two ends, each set of as
/// many middle digits as cells between them that adds up to the sum is kept when the cells between
/// can hold its digits (each cell one of them, every digit some cell's) and the cells outside those
/// left; the cells take the digits of the kept sets, the ends the end digits of the kept pairs.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Sandwich {
    /// The digits of the ends (the first and last digit).
    ends: u64,
    /// Per number of cells between the ends (0..N − 1), the sets of that many middle digits whose
    /// values add up to the sum.
    combos: Box<[Box<[u64]>]>,
}

impl Sandwich {
    /// The sandwich of `sum` over a house of `n` digits whose digit d (0-based) has the value
    /// `value(d)`; `None` past [`MAX_CELLS`] or below 2 cells.
    pub(super) fn new(n: usize, sum: i32, value: impl Fn(usize) -> i32) -> Option<Sandwich> {
        if !(2..=MAX_CELLS).contains(&n) {
            return None;
        }
        let ends = 1 | 1u64 << (n - 1);
        let mut combos = vec![Vec::new(); n - 1];
        // The middle digits 1..n-1, as bits 1..n-1 of a set.
        for inner in 0u64..1 << (n - 2) {
            let set = inner << 1;
            let total: i32 = (1..n - 1).filter(|&d| set >> d & 1 != 0).map(&value).sum();
            if total == sum {
                combos[set.count_ones() as usize].push(set);
            }
        }
        Some(Sandwich {
            ends,
            combos: combos.into_iter().map(Vec::into_boxed_slice).collect(),
        })
    }

    /// One pass over the house `cells` (see [`Sandwich`]): whether a candidate went; a
    /// contradiction when no placement of the ends is left.
    pub(super) fn prune<M: Mask>(
        &self,
        cells: &[u32],
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let n = cells.len();
        let mut dom = [0u64; MAX_CELLS];
        for (d, &c) in dom.iter_mut().zip(cells) {
            *d = domain(cand, vals, c as usize);
        }
        let dom = &dom[..n];
        let ends = self.ends;
        let (lo, hi) = (1u64, 1u64 << (n - 1));
        let middle = ((1u64 << n) - 1) & !ends;
        let mut support = [0u64; MAX_CELLS];
        for p in 0..n {
            if dom[p] & ends == 0 {
                continue;
            }
            for q in p + 1..n {
                let both = dom[q] & ends;
                // The end digits at p and at q that go together (one each).
                let (at_p, at_q) = match (
                    dom[p] & lo != 0 && both & hi != 0,
                    dom[p] & hi != 0 && both & lo != 0,
                ) {
                    (false, false) => continue,
                    (true, false) => (lo, hi),
                    (false, true) => (hi, lo),
                    (true, true) => (ends, ends),
                };
                let combos = &self.combos[q - p - 1];
                if combos.is_empty() {
                    continue;
                }
                let inner_cells = &dom[p + 1..q];
                let outer_cells = || dom[..p].iter().chain(&dom[q + 1..]);
                let inner_union = inner_cells.iter().fold(0, |a, &d| a | d);
                let outer_union = outer_cells().fold(0, |a, &d| a | d);
                let (mut inner, mut outer, mut found) = (0u64, 0u64, false);
                for &set in combos.iter() {
                    let rest = middle & !set;
                    if set & !inner_union != 0
                        || rest & !outer_union != 0
                        || inner_cells.iter().any(|&d| d & set == 0)
                        || outer_cells().any(|&d| d & rest == 0)
                        || !matched(inner_cells.iter(), set)
                        || !matched(outer_cells(), rest)
                    {
                        continue;
                    }
                    inner |= set;
                    outer |= rest;
                    found = true;
                }
                if !found {
                    continue;
                }
                support[p] |= at_p;
                support[q] |= at_q;
                for s in &mut support[p + 1..q] {
                    *s |= inner;
                }
                for (i, s) in support[..n].iter_mut().enumerate() {
                    if i < p || i > q {
                        *s |= outer;
                    }
                }
            }
        }
        let mut changed = false;
        for (&c, &s) in cells.iter().zip(&support[..n]) {
            changed |= keep_only(cand, vals, out, c as usize, s)?;
        }
        Ok(changed)
    }
}

/// Whether the cells of digit sets `doms` can each take a different digit of `set` (as many cells
/// as digits, at most [`MAX_CELLS`]): a perfect matching, by augmenting paths (Kuhn 1955).
fn matched<'a>(doms: impl Iterator<Item = &'a u64>, set: u64) -> bool {
    let mut cells = [0u64; MAX_CELLS];
    let mut k = 0;
    for &d in doms {
        cells[k] = d & set;
        k += 1;
    }
    // The cell holding each digit, or none.
    let mut owner = [u8::MAX; 64];
    (0..k).all(|c| augment(&cells, &mut owner, c, &mut 0))
}

/// Finds a digit for cell `c`, moving the cells that hold the digits it tries (not those in
/// `tried`) along: Kuhn's augmenting path.
fn augment(cells: &[u64], owner: &mut [u8; 64], c: usize, tried: &mut u64) -> bool {
    let mut m = cells[c] & !*tried;
    while m != 0 {
        let d = m.trailing_zeros() as usize;
        m &= m - 1;
        *tried |= 1 << d;
        if owner[d] == u8::MAX || augment(cells, owner, owner[d] as usize, tried) {
            owner[d] = c as u8;
            return true;
        }
        m &= !*tried;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every permutation of the digits 1..=n (0-based digit indices), as a row.
    fn rows(n: usize) -> Vec<Vec<u16>> {
        fn fill(row: &mut Vec<u16>, n: usize, out: &mut Vec<Vec<u16>>) {
            if row.len() == n {
                out.push(row.clone());
                return;
            }
            for d in 0..n as u16 {
                if !row.contains(&d) {
                    row.push(d);
                    fill(row, n, out);
                    row.pop();
                }
            }
        }
        let mut out = Vec::new();
        fill(&mut Vec::new(), n, &mut out);
        out
    }

    /// The rule as stated, on a row of 0-based digits whose values are d + base.
    fn sandwich(row: &[u16], sum: i32, base: i32) -> bool {
        let n = row.len() as u16;
        let i = row.iter().position(|&d| d == 0).unwrap();
        let j = row.iter().position(|&d| d == n - 1).unwrap();
        let (a, b) = (i.min(j), i.max(j));
        row[a + 1..b]
            .iter()
            .map(|&d| i32::from(d) + base)
            .sum::<i32>()
            == sum
    }

    #[test]
    fn a_house_sandwich_removes_only_what_no_row_uses() {
        // Rows of 4 to 7 cells (every permutation), random sums, random states around a row of
        // the sandwich (or around none): the pass keeps every row that fits the state and the
        // sandwich, fails only when none fits, and does narrow.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| crate::dfs::search::splitmix(&mut seed) % m;
        let (mut narrowed, mut failed, mut states) = (0, 0, 0);
        for n in 4..=7usize {
            let all = rows(n);
            for _ in 0..40 {
                let base = next(2) as i32;
                let top = (1..n as i32 - 1).map(|d| d + base).sum::<i32>();
                let sum = next(top as u64 + 2) as i32;
                let fits: Vec<&Vec<u16>> = all.iter().filter(|r| sandwich(r, sum, base)).collect();
                let s = Sandwich::new(n, sum, |d| d as i32 + base).unwrap();
                let cells: Vec<u32> = (0..n as u32).collect();
                for _ in 0..60 {
                    let planted = (!fits.is_empty() && next(4) != 0)
                        .then(|| fits[next(fits.len() as u64) as usize]);
                    let (mut cand, mut vals) = (vec![0u16; n], vec![0u16; n]);
                    for c in 0..n {
                        let wide = next(1 << n) as u16 | next(1 << n) as u16;
                        cand[c] = wide | planted.map_or(0, |r| 1 << r[c]);
                        if cand[c] == 0 {
                            cand[c] = 1 << next(n as u64);
                        }
                        if cand[c].count_ones() == 1 && next(2) == 0 {
                            vals[c] = cand[c].trailing_zeros() as u16 + 1;
                        }
                    }
                    let fits_state =
                        |cand: &[u16], r: &[u16]| (0..n).all(|c| cand[c] >> r[c] & 1 == 1);
                    let before: Vec<&&Vec<u16>> =
                        fits.iter().filter(|r| fits_state(&cand, r)).collect();
                    let mut got = cand.clone();
                    let mut bufs = crate::dfs::narrow::Buffers::default();
                    states += 1;
                    match s.prune(&cells, &mut got, &vals, &mut bufs.narrowed()) {
                        Err(_) => {
                            assert!(before.is_empty(), "{n} {sum} {base} {cand:?} {vals:?}");
                            failed += 1;
                        }
                        Ok(changed) => {
                            for r in &before {
                                assert!(fits_state(&got, r), "{n} {sum} {base} {cand:?} {r:?}");
                            }
                            assert_eq!(changed, got != cand);
                            narrowed += usize::from(changed);
                        }
                    }
                }
            }
        }
        assert!(
            narrowed > states / 4 && failed > states / 20,
            "{narrowed} {failed} of {states}"
        );
    }
}
