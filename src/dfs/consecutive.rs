//! The native backend's reasoning about non-consecutive pairs (orthogonal neighbours whose digits
//! must not differ by 1), as a person solving such a puzzle reasons:
//!
//! - **Pairs** are made arc-consistent: a digit of one cell stays only if the other cell has a
//!   candidate that is neither it nor next to it (a placed 5 removes 4 and 6 from its neighbours;
//!   a cell that is 4 or 6 removes 5 from its neighbours).
//! - **Units**: when every place left for digit d in a unit (row, column, box, ...) is a neighbour
//!   of a cell X (or X itself), X cannot hold d − 1 or d + 1: either would leave d no place in the
//!   unit. With the locked candidates of the units (the same question for X holding d itself), this
//!   is every elimination one placement's consequences on one digit of one unit can show.

use super::mask::Mask;
use super::narrow::{Narrowed, narrow};
use super::step::{Contradiction, Step};

/// The non-consecutive pairs of a grid, flattened for the search.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NonConsecutive {
    /// The pairs of cells.
    pairs: Box<[(u32, u32)]>,
    /// The neighbours of cell `c` (the other cells of its pairs) are
    /// `adjacent[start[c] .. start[c + 1]]`, ascending.
    start: Box<[u32]>,
    adjacent: Box<[u32]>,
    /// The cells of the units, `n` a unit; empty above 64 digits (the unit rule reads digit sets
    /// and a unit's positions as 64 bits).
    units: Box<[u32]>,
    /// Per unit, the cells X the unit rule asks about, as ranges of `watch`.
    watch_start: Box<[u32]>,
    /// A cell X and the positions in the unit it covers: X itself if in the unit, and its
    /// neighbours there (bit i: the unit's i-th cell); only cells that cover two or more.
    watch: Box<[(u32, u64)]>,
}

impl NonConsecutive {
    /// The tables for `pairs` on a grid of `cells` cells whose units are `units` (`n` cells each).
    pub(crate) fn new(
        cells: usize,
        n: usize,
        pairs: Vec<(u32, u32)>,
        units: Vec<u32>,
    ) -> NonConsecutive {
        let mut lists = vec![Vec::new(); cells];
        for &(a, b) in &pairs {
            lists[a as usize].push(b);
            lists[b as usize].push(a);
        }
        let mut start = Vec::with_capacity(cells + 1);
        let mut adjacent = Vec::new();
        for mut list in lists {
            list.sort_unstable();
            list.dedup();
            start.push(adjacent.len() as u32);
            adjacent.extend(list);
        }
        start.push(adjacent.len() as u32);
        let mut table = NonConsecutive {
            pairs: pairs.into(),
            start: start.into(),
            adjacent: adjacent.into(),
            units: Box::new([]),
            watch_start: Box::new([]),
            watch: Box::new([]),
        };
        if n > 64 || table.pairs.is_empty() {
            return table;
        }
        // Per unit: every cell of the unit or next to one, and the positions it covers.
        let mut watch_start = vec![0u32];
        let mut watch = Vec::new();
        let mut cover = vec![0u64; cells];
        let mut touched = Vec::new();
        for unit in units.chunks_exact(n) {
            for (i, &c) in unit.iter().enumerate() {
                for &x in std::iter::once(&c).chain(table.adjacent(c as usize)) {
                    if cover[x as usize] == 0 {
                        touched.push(x);
                    }
                    cover[x as usize] |= 1 << i;
                }
            }
            touched.sort_unstable();
            for &x in &touched {
                let m = std::mem::take(&mut cover[x as usize]);
                if m.count_ones() >= 2 {
                    watch.push((x, m));
                }
            }
            touched.clear();
            watch_start.push(watch.len() as u32);
        }
        table.units = units.into();
        table.watch_start = watch_start.into();
        table.watch = watch.into();
        table
    }

    /// Whether there are no pairs.
    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The neighbours of cell `c`.
    fn adjacent(&self, c: usize) -> &[u32] {
        &self.adjacent[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// One pass of both rules (see the module docs); whether a candidate was removed.
    ///
    /// # Errors
    /// Two placed neighbours with consecutive digits, or a cell left without candidates.
    pub(crate) fn prune<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let mut changed = false;
        for &(a, b) in self.pairs.iter() {
            match pair(n, a as usize, b as usize, cand, vals, out) {
                Ok(c) => changed |= c,
                Err(e) => {
                    out.blame.extend_from_slice(&[a, b]);
                    return Err(e);
                }
            }
        }
        // The unit rule once the pairs are settled (it costs more, and they feed it).
        if !changed && !self.units.is_empty() {
            changed |= self.by_units(n, cand, out)?;
        }
        Ok(changed)
    }

    /// The unit rule: a cell next to every place of digit d in a unit (or one of them, next to the
    /// others) loses d − 1 and d + 1. Per unit, the places of each digit as a mask of positions;
    /// per watched cell, the digits whose places it covers.
    fn by_units<M: Mask>(&self, n: usize, cand: &mut [M], out: &mut Narrowed<'_, M>) -> Step<bool> {
        let all = all_digits(n);
        let mut changed = false;
        let mut places = [0u64; 64];
        for (u, unit) in self.units.chunks_exact(n).enumerate() {
            places[..n].fill(0);
            for (i, &c) in unit.iter().enumerate() {
                let mut m = cand[c as usize].low_bits();
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    places[d] |= 1 << i;
                }
            }
            let watch = &self.watch[self.watch_start[u] as usize..self.watch_start[u + 1] as usize];
            for &(x, cover) in watch {
                let x = x as usize;
                // The digits next to X's candidates: those whose places X might cover.
                let mut m = neighbours(cand[x].low_bits()) & all;
                let mut gone = 0u64;
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    // A digit placed in the unit has no places (and takes none from X).
                    if places[d] != 0 && places[d] & !cover == 0 {
                        gone |= neighbours(1 << d);
                    }
                }
                if gone != 0 {
                    changed |= narrow(cand, out, x, !gone)?;
                }
            }
        }
        Ok(changed)
    }
}

/// The digits (bits) next to the digits of `m`.
fn neighbours(m: u64) -> u64 {
    (m << 1) | (m >> 1)
}

/// Every digit of 1..=`n`, as bits.
pub(crate) fn all_digits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// The digits of `other` (open: its candidates) allow in a cell non-consecutive with it: those with a
/// partner neither equal nor next to them.
fn supported(n: usize, other: u64) -> u64 {
    let all = all_digits(n);
    if other.count_ones() >= 4 {
        // Any digit rules out at most three values of the other cell.
        return all;
    }
    let mut ok = 0u64;
    let mut m = other;
    while m != 0 {
        let e = m.trailing_zeros();
        m &= m - 1;
        // Digit e allows every digit but e - 1, e and e + 1 here.
        ok |= all & !((0b111u64 << e) >> 1);
    }
    ok
}

/// One non-consecutive pair.
fn pair<M: Mask>(
    n: usize,
    a: usize,
    b: usize,
    cand: &mut [M],
    vals: &[u16],
    out: &mut Narrowed<'_, M>,
) -> Step<bool> {
    let (va, vb) = (vals[a], vals[b]);
    match (va, vb) {
        (0, 0) => {
            let ka = supported(n, cand[b].low_bits());
            let kb = supported(n, cand[a].low_bits());
            Ok(narrow(cand, out, a, ka)? | narrow(cand, out, b, kb)?)
        }
        (0, v) | (v, 0) => {
            let open = if va == 0 { a } else { b };
            let bit = 1u64 << (v - 1);
            narrow(cand, out, open, !neighbours(bit))
        }
        _ if va.abs_diff(vb) == 1 => Err(Contradiction),
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(m: u64) -> Vec<u32> {
        (0..64).filter(|d| m >> d & 1 == 1).map(|d| d + 1).collect()
    }

    #[test]
    fn supported_digits_of_a_non_consecutive_pair() {
        // The other cell can only be 5: this one cannot be 4, 5 or 6.
        assert_eq!(digits(supported(9, 1 << 4)), [1, 2, 3, 7, 8, 9]);
        // 4 or 6: 5 is next to both; 4 beside 6 (or 6 beside 4) is fine.
        assert_eq!(
            digits(supported(9, 1 << 3 | 1 << 5)),
            [1, 2, 3, 4, 6, 7, 8, 9]
        );
        assert_eq!(supported(9, 0b1111), all_digits(9));
    }

    #[test]
    fn a_cell_next_to_every_place_of_a_digit_loses_its_neighbours() {
        // A row of four cells, 0-1-2-3, each next to the following; one unit, the row. Digit 2
        // can only go in cells 1 and 3 (candidates): both are next to cell 2, which therefore
        // cannot be 1 or 3 (either would leave 2 no place). Cell 0 is next to cell 1 only: it
        // keeps everything.
        let table = NonConsecutive::new(4, 4, vec![(0, 1), (1, 2), (2, 3)], vec![0, 1, 2, 3]);
        let mut cand: Vec<u16> = vec![0b1101, 0b1111, 0b1101, 0b1111];
        let (mut queue, mut removed, mut blame) = (Vec::new(), Vec::new(), Vec::new());
        let (mut scratch, mut marks) = (Vec::new(), Vec::new());
        let mut out = Narrowed {
            queue: &mut queue,
            removed: &mut removed,
            blame: &mut blame,
            seen: &mut [],
            scratch: &mut scratch,
            marks: &mut marks,
        };
        assert_eq!(table.by_units(4, &mut cand, &mut out), Ok(true));
        assert_eq!(digits(u64::from(cand[2])), [4]);
        assert_eq!(digits(u64::from(cand[0])), [1, 3, 4]);
        // Cell 3 holds 2's other place; cell 1 is its only neighbour in the row and does not
        // cover both: it keeps its 1 and 3.
        assert_eq!(digits(u64::from(cand[1])), [1, 2, 3, 4]);
        assert_eq!(out.removed.len(), 1);
    }
}
