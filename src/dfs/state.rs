//! The search state (candidates per cell, digits placed per unit, values), copied by value at each guess,
//! and its propagation: naked singles, hidden singles, fail-fast checks.

use super::mask::Mask;
use super::tables::Tables;

/// A dead end: some cell has no candidate, some digit has no place in a unit, or a digit is repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// The result of a propagation step.
pub(crate) type Step<T> = Result<T, Contradiction>;

/// A partial assignment, fixed-size so that it is copied by value (one `memcpy` per guess).
///
/// `C` is the cell capacity (at least N²) and `U` the unit capacity; entries past the grid's cells and
/// units are never read. Invariant between calls: an open cell's candidates exclude every digit placed in
/// any of its units (eliminations are eager), so `cand` alone tells which digits an open cell may take.
#[derive(Clone, Copy)]
pub(crate) struct State<M: Mask, const C: usize, const U: usize> {
    /// Candidates of each open cell; empty (`ZERO`) once the cell holds a digit.
    cand: [M; C],
    /// The digits placed in each unit.
    placed: [M; U],
    /// Each cell's digit 1..=N, 0 while open.
    vals: [u8; C],
    /// The number of open cells.
    open: u32,
}

impl<M: Mask, const C: usize, const U: usize> State<M, C, U> {
    /// An all-zero state, to be [`reset`](State::reset) before use.
    pub fn blank() -> Self {
        State {
            cand: [M::ZERO; C],
            placed: [M::ZERO; U],
            vals: [0; C],
            open: 0,
        }
    }

    /// The empty grid: every cell open with every digit.
    pub fn reset(&mut self, t: &Tables) {
        self.cand[..t.cells].fill(M::all(t.n));
        self.placed[..t.units].fill(M::ZERO);
        self.vals[..t.cells].fill(0);
        self.open = t.cells as u32;
    }

    /// The cell values, 0 for open cells.
    pub fn values(&self, t: &Tables) -> &[u8] {
        &self.vals[..t.cells]
    }

    /// The candidates of cell `c` (empty once filled).
    #[inline(always)]
    pub fn cand(&self, c: usize) -> M {
        self.cand[c]
    }

    /// Removes 0-based digit `d` from open cell `c`, leaving at least one candidate (a branch's
    /// remaining alternatives). A cell left with one candidate must then be queued by the caller.
    #[inline]
    pub fn remove(&mut self, c: usize, d: u32) {
        debug_assert!(!self.cand[c].at_most_one());
        self.cand[c] &= !M::bit(d);
    }

    /// Puts 0-based digit `d` in cell `c` and removes it from every peer, queueing peers left with a
    /// single candidate.
    ///
    /// # Errors
    /// When `d` is not a candidate of `c` (filled, or excluded) or a peer is left with no candidate.
    #[inline]
    pub fn place(&mut self, t: &Tables, queue: &mut Vec<u16>, c: usize, d: u32) -> Step<()> {
        let b = M::bit(d);
        if self.cand[c] & b == M::ZERO {
            return Err(Contradiction);
        }
        self.cand[c] = M::ZERO;
        self.vals[c] = d as u8 + 1;
        self.open -= 1;
        for &u in t.units_of(c) {
            self.placed[u as usize] |= b;
        }
        // One branch per peer, rarely taken: "the peer had the digit and is left with at most one
        // candidate" is folded into a single test, since whether a peer had the digit is unpredictable.
        let keep = !b;
        for &p in t.peers(c) {
            let m = self.cand[p as usize];
            let left = m & keep;
            self.cand[p as usize] = left;
            if left.without_lowest() | ((m & b) ^ b) == M::ZERO {
                if left == M::ZERO {
                    return Err(Contradiction);
                }
                queue.push(p);
            }
        }
        Ok(())
    }

    /// Places the queued naked singles (and those they create in turn).
    ///
    /// # Errors
    /// When a cell is left without a candidate.
    #[inline]
    fn drain(&mut self, t: &Tables, queue: &mut Vec<u16>) -> Step<()> {
        while let Some(c) = queue.pop() {
            let m = self.cand[c as usize];
            if m != M::ZERO {
                self.place(t, queue, c as usize, m.lowest())?;
            }
        }
        Ok(())
    }

    /// Applies naked singles (the queued cells) and hidden singles (a digit with one place in a unit)
    /// until neither applies. Returns whether the grid is full.
    ///
    /// Hidden singles use the "at least once / at least twice" fold over each unit's candidates. Units
    /// are visited round-robin, placing what a unit yields (and the naked singles that follow) at once,
    /// until a whole round of units yields nothing: no unit is folded twice without a change between.
    ///
    /// # Errors
    /// On a cell without candidate or a digit without a place in some unit.
    pub fn propagate(&mut self, t: &Tables, queue: &mut Vec<u16>) -> Step<bool> {
        let all = M::all(t.n);
        self.drain(t, queue)?;
        // Units folded in a row without finding anything.
        let mut quiet = 0;
        let mut u = 0;
        while self.open != 0 && quiet < t.units {
            let cells = t.unit(u);
            let (mut once, mut twice) = (M::ZERO, M::ZERO);
            for &c in cells {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            if once | self.placed[u] != all {
                return Err(Contradiction);
            }
            let mut hidden = once & !twice;
            if hidden == M::ZERO {
                quiet += 1;
            } else {
                while hidden != M::ZERO {
                    let d = hidden.lowest();
                    hidden = hidden.without_lowest();
                    let b = M::bit(d);
                    // Gone if another hidden single of this unit took its only cell.
                    let c = cells
                        .iter()
                        .find(|&&c| self.cand[c as usize] & b != M::ZERO)
                        .ok_or(Contradiction)?;
                    self.place(t, queue, *c as usize, d)?;
                }
                self.drain(t, queue)?;
                quiet = 0;
            }
            u += 1;
            if u == t.units {
                u = 0;
            }
        }
        if self.open != 0 {
            return Ok(false);
        }
        // Eager eliminations keep placed digits distinct inside a unit, so a full unit holds all N
        // digits unless the unit list names a cell twice in one unit.
        if self.placed[..t.units].iter().all(|&p| p == all) {
            Ok(true)
        } else {
            Err(Contradiction)
        }
    }

    /// The open cell with the fewest candidates (first such in cell order), for branching (MRV).
    /// Only called on a propagated state that is not full.
    pub fn pick(&self, t: &Tables) -> usize {
        let mut best = 0;
        let mut best_count = u32::MAX;
        for (c, &m) in self.cand[..t.cells].iter().enumerate() {
            // Filled cells (no candidates) rank last, without a branch on whether a cell is filled.
            let k = m.count() | (u32::from(m == M::ZERO) << 8);
            if k < best_count {
                best = c;
                best_count = k;
                if k <= 2 {
                    break;
                }
            }
        }
        debug_assert!(best_count < 1 << 8, "pick on a full grid");
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::units::Units;

    type S4 = State<u16, 16, 12>;

    fn setup() -> (Tables, S4, Vec<u16>) {
        let t = Tables::build(&Units::standard(Shape::new(2, 2).unwrap()));
        let mut s = S4::blank();
        s.reset(&t);
        (t, s, Vec::with_capacity(16))
    }

    #[test]
    fn place_eliminates_from_peers_only() {
        let (t, mut s, mut q) = setup();
        s.place(&t, &mut q, 0, 2).unwrap();
        assert_eq!(s.cand(0), 0);
        assert_eq!(s.values(&t)[0], 3);
        // r1c2 (peer) lost digit 3; r2c3 (not a peer) kept it.
        assert_eq!(s.cand(1), 0b1011);
        assert_eq!(s.cand(6), 0b1111);
        assert!(q.is_empty());
        // Placing 3 again in a peer is a contradiction, not a panic.
        assert_eq!(s.place(&t, &mut q, 1, 2), Err(Contradiction));
    }

    #[test]
    fn singles_finish_an_easy_grid() {
        // 1 2 | 3 4 / 3 4 | 1 2 / 2 1 | 4 3 / 4 3 | 2 1 with 5 cells blanked.
        let (t, mut s, mut q) = setup();
        let vals = [1, 2, 3, 4, 3, 0, 1, 2, 2, 1, 0, 3, 0, 3, 2, 0];
        for (c, &v) in vals.iter().enumerate() {
            if v != 0 {
                s.place(&t, &mut q, c, v - 1).unwrap();
            }
        }
        assert_eq!(s.propagate(&t, &mut q), Ok(true));
        assert_eq!(
            s.values(&t),
            &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
        );
    }

    #[test]
    fn digit_without_a_place_fails_fast() {
        // Row 1 = _ _ _ 4, r2c2 = 1 (box 1) and r3c3 = 1 (column 3): 1 has no place in row 1, yet each
        // open cell of row 1 keeps two candidates (2 and 3), so only the unit check sees it.
        let (t, mut s, mut q) = setup();
        s.place(&t, &mut q, 3, 3).unwrap();
        s.place(&t, &mut q, 5, 0).unwrap();
        s.place(&t, &mut q, 10, 0).unwrap();
        assert!(q.is_empty());
        assert_eq!(s.cand(0), 0b0110);
        assert_eq!(s.propagate(&t, &mut q), Err(Contradiction));
    }

    #[test]
    fn mrv_picks_the_fewest_candidates() {
        let (t, mut s, mut q) = setup();
        s.place(&t, &mut q, 0, 0).unwrap();
        s.place(&t, &mut q, 15, 1).unwrap();
        // r1c4 sees 1 (row) and 2 (column 4): two candidates, the first such cell.
        assert_eq!(s.pick(&t), 3);
    }
}
