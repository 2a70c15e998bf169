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
    /// Per unit, the most positions one watched cell covers.
    most: Box<[u32]>,
    /// Per unit, its cells and watched cells as words of a bitset over the cells (word index,
    /// bits), as ranges of `scope`: whether a unit has a pending cell is a few ANDs.
    scope_start: Box<[u32]>,
    scope: Box<[(u32, u64)]>,
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
            most: Box::new([]),
            scope_start: Box::new([]),
            scope: Box::new([]),
        };
        if n > 64 || table.pairs.is_empty() {
            return table;
        }
        // Per unit: every cell of the unit or next to one, and the positions it covers.
        let mut watch_start = vec![0u32];
        let mut watch = Vec::new();
        let mut cover = vec![0u64; cells];
        let mut touched = Vec::new();
        let mut most = Vec::new();
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
            let from = *watch_start.last().expect("starts at 0") as usize;
            most.push(
                watch[from..]
                    .iter()
                    .map(|(_, m)| m.count_ones())
                    .max()
                    .unwrap_or(0),
            );
            watch_start.push(watch.len() as u32);
        }
        let mut scope_start = vec![0u32];
        let mut scope = Vec::new();
        let mut words = vec![0u64; cells.div_ceil(64)];
        for (u, unit) in units.chunks_exact(n).enumerate() {
            let watched = &watch[watch_start[u] as usize..watch_start[u + 1] as usize];
            for c in unit.iter().chain(watched.iter().map(|(x, _)| x)) {
                words[*c as usize >> 6] |= 1 << (c & 63);
            }
            for (w, bits) in words.iter_mut().enumerate() {
                if *bits != 0 {
                    scope.push((w as u32, std::mem::take(bits)));
                }
            }
            scope_start.push(scope.len() as u32);
        }
        table.scope_start = scope_start.into();
        table.scope = scope.into();
        table.units = units.into();
        table.watch_start = watch_start.into();
        table.watch = watch.into();
        table.most = most.into();
        table
    }

    /// Whether there are no pairs.
    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The neighbours of cell `c`.
    pub(crate) fn adjacent(&self, c: usize) -> &[u32] {
        &self.adjacent[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// The digit of `choices` (the candidates of `cell`, open) a branch on `cell` tries first: the
    /// least constraining one (Haralick and Elliott, "Increasing tree search efficiency for
    /// constraint satisfaction problems", 1980), the one that takes the fewest candidates from
    /// the other cells: digit d from the peers `peers` (the cells sharing a unit with `cell`)
    /// and d − 1 and d + 1 from its neighbours. The smallest such digit on a tie. `cand` gives
    /// a cell's candidates (empty when filled).
    pub(crate) fn least_constraining<M: Mask>(
        &self,
        cell: usize,
        choices: M,
        peers: &[u32],
        cand: impl Fn(usize) -> M,
    ) -> u32 {
        let near = self
            .adjacent(cell)
            .iter()
            .fold(0u64, |m, &c| m | cand(c as usize).low_bits());
        let mut best = (u32::MAX, choices.lowest());
        let mut left = choices;
        while left != M::ZERO {
            let d = left.lowest();
            left = left.without_lowest();
            let bit = M::bit(d);
            let mut cost = peers
                .iter()
                .filter(|&&p| cand(p as usize) & bit != M::ZERO)
                .count() as u32;
            if neighbours(1 << d) & near != 0 {
                cost += self
                    .adjacent(cell)
                    .iter()
                    .map(|&c| (neighbours(1 << d) & cand(c as usize).low_bits()).count_ones())
                    .sum::<u32>();
            }
            if cost < best.0 {
                best = (cost, d);
            }
        }
        best.1
    }

    /// Both rules (see the module docs) where something changed: `changed` holds the cells whose
    /// candidates or value changed since they were last looked at (a bit per cell, consumed), and
    /// `pending` those changed since the unit rule last ran (`None`: no unit rule, as in a probe's
    /// propagation). The pairs are made arc-consistent by
    /// a worklist (AC-3, Mackworth, "Consistency in networks of relations", 1977): a changed cell
    /// narrows its neighbours, a narrowed neighbour is changed in turn. Once no pair narrows a
    /// cell, the unit rule runs on the units with a pending cell (or a pending watched cell).
    /// Whether a candidate was removed; the cells narrowed are marked changed and pending.
    ///
    /// The rules are monotone, so with singles between calls they reach the same fixpoint as a
    /// pass over every pair and unit each time, with work in proportion to what changed.
    ///
    /// # Errors
    /// Two placed neighbours with consecutive digits, or a cell left without candidates (the
    /// pair's cells are blamed).
    pub(crate) fn propagate<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        changed: &mut [u64],
        mut pending: Option<&mut [u64]>,
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let mut narrowed = false;
        let mut w = 0;
        while w < changed.len() {
            if changed[w] == 0 {
                w += 1;
                continue;
            }
            let c = w * 64 + changed[w].trailing_zeros() as usize;
            changed[w] &= changed[w] - 1;
            if let Some(pending) = pending.as_deref_mut() {
                pending[w] |= 1 << (c & 63);
            }
            for &x in self.adjacent(c) {
                let x = x as usize;
                match revise(x, c, cand, vals, out) {
                    Ok(false) => {}
                    Ok(true) => {
                        narrowed = true;
                        changed[x >> 6] |= 1 << (x & 63);
                        // Back to the narrowed cell's word if it comes before.
                        w = w.min(x >> 6);
                    }
                    Err(e) => {
                        out.blame.extend_from_slice(&[c as u32, x as u32]);
                        return Err(e);
                    }
                }
            }
        }
        let Some(pending) = pending else {
            return Ok(narrowed);
        };
        if narrowed || self.units.is_empty() {
            return Ok(narrowed);
        }
        let from = out.removed.len();
        let result = self.by_units(n, cand, pending, out);
        pending.iter_mut().for_each(|w| *w = 0);
        for &(c, _) in &out.removed[from..] {
            changed[c as usize >> 6] |= 1 << (c & 63);
        }
        result
    }

    /// The unit rule: a cell next to every place of digit d in a unit (or one of them, next to the
    /// others) loses d − 1 and d + 1. Per watched cell X of a unit, the digits left in the unit
    /// (some cell's candidate) that no cell of the unit outside X's cover can hold: their places
    /// are all covered: the places of the digits few enough for that are gathered once per unit
    /// (a bit per position), and a watched cell looks only at the digits next to its candidates.
    /// Only the units with a cell or a watched cell in `pending` (a bit per cell) are looked at.
    fn by_units<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        pending: &[u64],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let mut changed = false;
        let mut local = [0u64; 64];
        // Per digit of `few`: its places in the unit (bit i: the unit's i-th cell).
        let mut places = [0u64; 64];
        for (u, unit) in self.units.chunks_exact(n).enumerate() {
            let scope = &self.scope[self.scope_start[u] as usize..self.scope_start[u + 1] as usize];
            if scope
                .iter()
                .all(|&(w, bits)| pending[w as usize] & bits == 0)
            {
                continue;
            }
            let watch = &self.watch[self.watch_start[u] as usize..self.watch_start[u + 1] as usize];
            // The unit's candidates as they are before any of its watched cells is narrowed, and
            // how many places each digit has (bit-sliced: ones, twos, fours; `many` from 8).
            let (mut ones, mut twos, mut fours, mut many) = (0u64, 0u64, 0u64, 0u64);
            for (l, &c) in local.iter_mut().zip(unit) {
                let m = cand[c as usize].low_bits();
                *l = m;
                let one = ones & m;
                ones ^= m;
                let two = twos & one;
                twos ^= one;
                many |= fours & two;
                fours ^= two;
            }
            // The digits with a place, but few enough for one watched cell to cover them all.
            let most = self.most[u];
            let k = |bit: u32| if most >> bit & 1 == 1 { u64::MAX } else { 0 };
            let above = if most >= 8 {
                0
            } else {
                many | (fours & !k(2))
                    | (!(fours ^ k(2)) & ((twos & !k(1)) | (!(twos ^ k(1)) & ones & !k(0))))
            };
            let few = (ones | twos | fours | many) & !above;
            if few == 0 {
                continue;
            }
            for (i, &l) in local[..n].iter().enumerate() {
                let mut m = l & few;
                while m != 0 {
                    places[m.trailing_zeros() as usize] |= 1 << i;
                    m &= m - 1;
                }
            }
            for &(x, cover) in watch {
                let x = x as usize;
                // The digits next to X's candidates (those whose places X might cover) whose
                // places X covers.
                let mut near = neighbours(cand[x].low_bits()) & few;
                let mut covered = 0u64;
                while near != 0 {
                    let d = near.trailing_zeros();
                    near &= near - 1;
                    if places[d as usize] & !cover == 0 {
                        covered |= 1 << d;
                    }
                }
                if covered != 0 {
                    changed |= narrow(cand, out, x, !neighbours(covered))?;
                }
            }
            let mut clear = few;
            while clear != 0 {
                places[clear.trailing_zeros() as usize] = 0;
                clear &= clear - 1;
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

/// The digits a cell non-consecutive with a cell of candidates `other` (open) cannot hold: those
/// next to or equal to every candidate of `other` (none once `other` spans more than three
/// digits; every digit when `other` is empty). Branch-free but for the span test, and without a
/// population count (not an instruction of the baseline x86-64 target).
fn unsupported(other: u64) -> u64 {
    if other == 0 {
        return u64::MAX;
    }
    let (lo, hi) = (other.trailing_zeros(), 63 - other.leading_zeros());
    if hi - lo > 2 {
        return 0;
    }
    // Digit e rules out e - 1, e and e + 1; the digits ruled out by the lowest and the highest
    // candidate are ruled out by those between.
    let window = |e: u32| {
        let bit = 1u64 << e;
        bit | bit << 1 | bit >> 1
    };
    window(lo) & window(hi)
}

/// The pair of neighbours `x` and `c`, after a change in `c`: `x` keeps the digits that a
/// candidate (or the value) of `c` supports. Whether `x` lost a candidate.
///
/// # Errors
/// Both placed with consecutive digits, or `x` left without candidates.
#[inline(always)]
fn revise<M: Mask>(
    x: usize,
    c: usize,
    cand: &mut [M],
    vals: &[u16],
    out: &mut Narrowed<'_, M>,
) -> Step<bool> {
    match (vals[x], vals[c]) {
        (0, 0) => {
            let gone = unsupported(cand[c].low_bits()) & cand[x].low_bits();
            if gone == 0 {
                return Ok(false);
            }
            narrow(cand, out, x, !gone)
        }
        (0, v) => narrow(cand, out, x, !neighbours(1u64 << (v - 1))),
        // Placed: its digit was checked against `c`'s candidates when it was placed.
        (_, 0) => Ok(false),
        (w, v) if w.abs_diff(v) == 1 => Err(Contradiction),
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
    fn unsupported_digits_of_a_non_consecutive_pair() {
        // The other cell can only be 5: this one cannot be 4, 5 or 6.
        assert_eq!(digits(unsupported(1 << 4)), [4, 5, 6]);
        // 4 or 6: 5 is next to both; 4 beside 6 (or 6 beside 4) is fine.
        assert_eq!(digits(unsupported(1 << 3 | 1 << 5)), [5]);
        // 4 or 5: neither 4 nor 5 has a partner; 4, 5, 6: only 5 is next to all three.
        assert_eq!(digits(unsupported(1 << 3 | 1 << 4)), [4, 5]);
        assert_eq!(digits(unsupported(0b111 << 3)), [5]);
        // 1 or 9 rule out only two digits; the 64th digit of a 64x64 grid is its own neighbour.
        assert_eq!(digits(unsupported(1)), [1, 2]);
        assert_eq!(digits(unsupported(1 << 63)), [63, 64]);
        // Spread over more than three digits (4 and 7): no digit is next to both.
        assert_eq!(unsupported(1 << 3 | 1 << 6), 0);
        assert_eq!(unsupported(0b1111), 0);
        assert_eq!(unsupported(0), u64::MAX);
    }

    /// `f` with empty propagation buffers: its result and what it removed (cells and digits).
    fn with_out<R>(f: impl FnOnce(&mut Narrowed<'_, u16>) -> R) -> (R, Vec<(u32, u16)>) {
        let mut bufs = crate::dfs::narrow::Buffers::default();
        let result = f(&mut bufs.narrowed());
        (result, bufs.removed)
    }

    /// One pass of the unit rule of `table` over `cand` (`n` digits), which must not fail: what it
    /// removed (cells and digits).
    fn by_units(table: &NonConsecutive, n: usize, cand: &mut [u16]) -> Vec<(u32, u16)> {
        let pending = vec![u64::MAX; cand.len().div_ceil(64)];
        let (changed, removed) = with_out(|out| table.by_units(n, cand, &pending, out).unwrap());
        assert_eq!(changed, !removed.is_empty());
        removed
    }

    /// [`NonConsecutive::propagate`] of `table` over `cand` and `vals` from the cells `changed`
    /// (bits; `pending` none): its result, what it removed, and the cells left changed and
    /// pending.
    fn propagate(
        table: &NonConsecutive,
        n: usize,
        cand: &mut [u16],
        vals: &[u16],
        changed: u64,
    ) -> (Step<bool>, Vec<(u32, u16)>, u64, u64) {
        let (mut changed, mut pending) = ([changed], [0u64]);
        let (result, removed) =
            with_out(|out| table.propagate(n, cand, vals, &mut changed, Some(&mut pending), out));
        (result, removed, changed[0], pending[0])
    }

    #[test]
    fn a_change_propagates_along_the_pairs_to_a_fixpoint() {
        // A path 0-1-2-3 of 9 digits, no units. Cell 0 is placed with 5: cell 1 (4, 6 or 7) keeps
        // 7, which takes 6 to 8 from cell 2 (6 to 9): 9 is left, which takes 8 and 9 from cell 3.
        // All in one call, from cell 0 alone being changed; every cell looked at is then pending.
        let table = NonConsecutive::new(4, 9, vec![(0, 1), (1, 2), (2, 3)], Vec::new());
        let mut cand: Vec<u16> = vec![0, 0b1101 << 3, 0b1111 << 5, 0b1_1111_1111];
        let vals = [5, 0, 0, 0];
        let (result, removed, changed, pending) = propagate(&table, 9, &mut cand, &vals, 0b0001);
        assert_eq!(result, Ok(true));
        assert_eq!(digits(u64::from(cand[1])), [7]);
        assert_eq!(digits(u64::from(cand[2])), [9]);
        assert_eq!(digits(u64::from(cand[3])), [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(removed.len(), 3);
        assert_eq!((changed, pending), (0, 0b1111));
        // Nothing changed: nothing is looked at, even a pair left inconsistent (cell 2 can only
        // be 9, cell 3 may still be 8 here). The state marks every change; this is the contract.
        cand[3] |= 1 << 7;
        let (result, removed, ..) = propagate(&table, 9, &mut cand, &vals, 0);
        assert_eq!((result, removed.len()), (Ok(false), 0));
        // Two placed neighbours with consecutive digits fail, and the pair is blamed.
        let vals = [5, 6, 0, 0];
        let (result, ..) = propagate(&table, 9, &mut cand, &vals, 0b0010);
        assert_eq!(result, Err(Contradiction));
    }

    #[test]
    fn a_cell_next_to_every_place_of_a_digit_loses_its_neighbours() {
        // A row of four cells, 0-1-2-3, each next to the following; one unit, the row. Digit 2
        // can only go in cells 1 and 3 (candidates): both are next to cell 2, which therefore
        // cannot be 1 or 3 (either would leave 2 no place). Cell 0 is next to cell 1 only: it
        // keeps everything.
        let table = NonConsecutive::new(4, 4, vec![(0, 1), (1, 2), (2, 3)], vec![0, 1, 2, 3]);
        let mut cand: Vec<u16> = vec![0b1101, 0b1111, 0b1101, 0b1111];
        let removed = by_units(&table, 4, &mut cand);
        assert_eq!(digits(u64::from(cand[2])), [4]);
        assert_eq!(digits(u64::from(cand[0])), [1, 3, 4]);
        // Cell 3 holds 2's other place; cell 1 is its only neighbour in the row and does not
        // cover both: it keeps its 1 and 3.
        assert_eq!(digits(u64::from(cand[1])), [1, 2, 3, 4]);
        assert_eq!(removed.len(), 1);
    }

    #[test]
    fn without_pending_cells_the_pairs_propagate_without_the_unit_rule() {
        // The row of the test above, every cell changed: with the unit rule (a probe's
        // propagation leaves it out, `pending` None) cell 2 loses 1 and 3; without it nothing
        // goes, for every pair is arc-consistent.
        let table = NonConsecutive::new(4, 4, vec![(0, 1), (1, 2), (2, 3)], vec![0, 1, 2, 3]);
        let start: Vec<u16> = vec![0b1101, 0b1111, 0b1101, 0b1111];
        let vals = [0u16; 4];
        for units in [true, false] {
            let mut cand = start.clone();
            let (mut changed, mut pending) = ([0b1111u64], [0u64]);
            let pending = units.then_some(&mut pending[..]);
            let (result, _) =
                with_out(|out| table.propagate(4, &mut cand, &vals, &mut changed, pending, out));
            assert_eq!(result, Ok(units));
            let left = if units { vec![4] } else { vec![1, 3, 4] };
            assert_eq!(digits(u64::from(cand[2])), left);
        }
    }

    /// Cells 0..9 of a 3x3 box (one unit), row by row, each next to the cells beside and below.
    fn box_table() -> NonConsecutive {
        let mut pairs = Vec::new();
        for c in 0..9u32 {
            if c % 3 < 2 {
                pairs.push((c, c + 1));
            }
            if c < 6 {
                pairs.push((c, c + 3));
            }
        }
        NonConsecutive::new(9, 9, pairs, (0..9).collect())
    }

    #[test]
    fn the_centre_of_a_box_covers_five_places() {
        // The centre (4) and its four neighbours (1, 3, 5, 7) are the only places of 5: the
        // centre cannot be 4 or 6. The places of 8 are those five and cell 0: not covered, so the
        // centre keeps 7 and 9; no other cell covers all places of either.
        let table = box_table();
        let all = 0b1_1111_1111u16;
        let mut cand = vec![all; 9];
        for c in [0, 2, 6, 8] {
            cand[c] &= !(1 << 4);
        }
        for c in [2, 6, 8] {
            cand[c] &= !(1 << 7);
        }
        let removed = by_units(&table, 9, &mut cand);
        assert_eq!(digits(u64::from(cand[4])), [1, 2, 3, 5, 7, 8, 9]);
        assert_eq!(removed, [(4, 0b10_1000)]);
    }

    #[test]
    fn a_branch_tries_the_least_constraining_digit_first() {
        // The centre of the box can be 2 or 5 (bits 1 and 4). Its neighbours: cell 1 can be 1 or
        // 3, cell 3 7 or 8, cells 5 and 7 9; the corners 5 (peers of the centre in the box).
        // 2 takes 1 and 3 from cell 1; 5 takes 5 from four peers: 2 first. Without the corners'
        // 5s, 5 takes nothing and goes first, although it is the larger digit.
        let table = box_table();
        let mut cand = vec![0u16; 9];
        cand[4] = 1 << 1 | 1 << 4;
        cand[1] = 1 << 0 | 1 << 2;
        cand[3] = 1 << 6 | 1 << 7;
        cand[5] = 1 << 8;
        cand[7] = 1 << 8;
        for c in [0, 2, 6, 8] {
            cand[c] = 1 << 4;
        }
        let peers: Vec<u32> = (0..9).filter(|&c| c != 4).collect();
        let order = |cand: &[u16]| table.least_constraining(4, cand[4], &peers, |c| cand[c]);
        assert_eq!(order(&cand), 1);
        for c in [0, 2, 6, 8] {
            cand[c] = 1 << 5;
        }
        assert_eq!(order(&cand), 4);
    }

    /// The unit rule by its definition, digit by digit: per unit (its candidates taken before any
    /// of its cells is narrowed) and per cell X in the unit or next to it, in the order of the
    /// watch lists, every digit with a place in the unit whose places are all X or next to X
    /// takes its neighbours from X.
    fn by_units_by_definition(
        table: &NonConsecutive,
        n: usize,
        cand: &mut [u16],
    ) -> Result<Vec<(u32, u16)>, Contradiction> {
        let mut removed = Vec::new();
        for (u, unit) in table.units.chunks_exact(n).enumerate() {
            let before: Vec<u64> = unit.iter().map(|&c| u64::from(cand[c as usize])).collect();
            let range = table.watch_start[u] as usize..table.watch_start[u + 1] as usize;
            for &(x, _) in &table.watch[range] {
                let x = x as usize;
                let covers = |c: u32| c as usize == x || table.adjacent(x).contains(&c);
                let mut covered = 0u64;
                for d in 0..n {
                    let places: Vec<u32> = (0..n)
                        .filter(|&i| before[i] >> d & 1 == 1)
                        .map(|i| unit[i])
                        .collect();
                    if !places.is_empty() && places.iter().all(|&c| covers(c)) {
                        covered |= 1 << d;
                    }
                }
                let keep = cand[x] & !(neighbours(covered) as u16);
                if keep == 0 {
                    return Err(Contradiction);
                }
                if keep != cand[x] {
                    removed.push((x as u32, cand[x] & !keep));
                    cand[x] = keep;
                }
            }
        }
        Ok(removed)
    }

    #[test]
    fn the_unit_rule_removes_what_its_definition_removes() {
        // A 9x9 grid's rows, columns and boxes, each cell next to the cells beside and below it;
        // random candidates (seeded), a few cells with one to three candidates. The bitwise rule
        // removes the same digits from the same cells, and fails where the definition fails.
        let (mut pairs, mut units) = (Vec::new(), Vec::new());
        for c in 0..81u32 {
            if c % 9 < 8 {
                pairs.push((c, c + 1));
            }
            if c < 72 {
                pairs.push((c, c + 9));
            }
        }
        for i in 0..9u32 {
            units.extend((0..9).map(|j| 9 * i + j));
            units.extend((0..9).map(|j| i + 9 * j));
            units.extend((0..9).map(|j| (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3));
        }
        let table = NonConsecutive::new(81, 9, pairs, units);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let (mut removals, mut failures) = (0, 0);
        for _ in 0..2000 {
            let sparse = next() % 4;
            let cand: Vec<u16> = (0..81)
                .map(|_| {
                    let mut m = (next() & 0x1FF) as u16;
                    for _ in 0..sparse {
                        m &= (next() & 0x1FF) as u16;
                    }
                    if m == 0 { 1 << (next() % 9) } else { m }
                })
                .collect();
            let mut expected = cand.clone();
            let want = by_units_by_definition(&table, 9, &mut expected);
            let mut got = cand.clone();
            let pending = vec![u64::MAX; 2];
            let (result, removed) = with_out(|out| table.by_units(9, &mut got, &pending, out));
            match want {
                Ok(want) => {
                    assert_eq!(result, Ok(!want.is_empty()));
                    assert_eq!((removed, &got), (want.clone(), &expected));
                    removals += want.len();
                }
                Err(_) => {
                    assert_eq!(result, Err(Contradiction));
                    failures += 1;
                }
            }
        }
        // Both outcomes are exercised.
        assert!(removals > 1000 && failures > 10, "{removals} {failures}");
    }
}
