//! The fill search for large, sparse grids: every cell-digit pair kept in incremental counts (the
//! places of each digit in each unit), so that a node costs what its placements change rather than
//! a pass over the grid; cells taken in a fixed order, the digit with the fewest places first.
//!
//! The main search ([`search`](super::search)) reasons harder per node (locked candidates, pairs,
//! probing, most-constrained cell) and pays a pass over the grid for it: right for puzzles whose
//! givens leave few solutions, far too dear on an empty or nearly empty 400x400 grid, whose first
//! solution takes some 160,000 decisions and almost no reasoning. Here a node costs the eliminations
//! its placements make (each cell-digit pair is eliminated at most once along a path) and one look at
//! the cell's candidates:
//! - **Counts**: per unit and digit, the open cells that still hold the digit; an elimination that
//!   leaves one is a hidden single, none (the digit not placed there) a dead end. Naked singles as
//!   usual. No unit is ever folded.
//! - **Order**: the first open cell in row-major order (no scan for the fewest candidates);
//!   among its candidates the digit with the fewest places left in the cell's units, smallest first
//!   on ties: the digit that would soon have no place is placed while it still has one. On an empty
//!   grid this reaches a solution with no dead end at every size tried, square or rectangular boxes
//!   (BENCHMARKS.md, "Large grids"); the givens of a sparse grid are just more eliminations.
//! - **Undo**: a log. A placement logs the cell's candidates and, per unit of the cell, a bitset of
//!   the unit's cells that lost the digit (N bits per unit instead of 4 bytes per peer: 27 MB along
//!   a full 400x400 path instead of 256 MB); a branch's alternative logs the one digit removed.

use super::mask::Mask;
use super::search::{Bounds, Found, out_of_limits};
use super::step::{Contradiction, Step};
use super::tables::Tables;
use crate::grid::{Grid, Shape};
use crate::solve::Limits;

/// The smallest grid side taken by the fill search (when sparse, see [`applies`]).
pub(crate) const FILL_MIN_N: usize = 64;

/// Whether the fill search takes `puzzle`: a grid of side at least [`FILL_MIN_N`] under rows,
/// columns and boxes alone (no extra units such as diagonals or windows, whose empty 64x64 grids
/// its row-major order does not fill, no relations, cages or irregular regions), at most a fifth
/// of whose cells are given. Denser grids are left to the main search, whose reasoning their few
/// solutions need.
pub(crate) fn applies(t: &Tables, puzzle: &Grid) -> bool {
    let givens = puzzle.values().iter().filter(|&&v| v != 0).count();
    t.n >= FILL_MIN_N
        && t.units == 3 * t.n
        && t.rules.is_none()
        && !t.weighted
        && givens * 5 <= t.cells
}

/// A logged change.
#[derive(Clone, Copy)]
struct Entry<M> {
    cell: u32,
    /// The 0-based digit placed or removed.
    digit: u32,
    /// A placement: where its lost-peer bitsets start in [`Fill::lost`]; a removal: [`REMOVAL`].
    from: u32,
    /// A placement: the cell's candidates before it.
    before: M,
}

/// The `from` of a removal.
const REMOVAL: u32 = u32::MAX;

/// A branch on the current path: the log's length before it, the cell and the digit tried.
#[derive(Clone, Copy)]
struct Frame {
    mark: usize,
    cell: usize,
    digit: u32,
}

/// The state of the fill search.
struct Fill<'t, M: Mask> {
    t: &'t Tables,
    /// Grid side.
    n: usize,
    /// 64-bit words per unit in a lost-peer bitset.
    words: usize,
    /// Candidates of each cell; a placed cell keeps none.
    cand: Vec<M>,
    /// The same candidates by 64-digit word, word-major: `plane[w * cells + c]` is word `w` of
    /// `cand[c]`. A placement asks each of its up to 3N peers whether it holds the digit: one word
    /// in a plane of 8 bytes per cell stays in cache where the 56 bytes of a 400-digit mask per cell
    /// do not (400x400 empty: a third less time).
    plane: Vec<u64>,
    vals: Vec<u16>,
    /// Digits placed per unit.
    placed: Vec<M>,
    /// `count[u * n + d]`: the open cells of unit `u` holding digit `d` (not kept up to date for a
    /// digit placed in `u`, where it is never read; undoing restores it).
    count: Vec<u16>,
    open: usize,
    log: Vec<Entry<M>>,
    lost: Vec<u64>,
    /// Cells left with one candidate.
    naked: Vec<u32>,
    /// (unit, digit) left with one place.
    hidden: Vec<(u32, u32)>,
}

impl<'t, M: Mask> Fill<'t, M> {
    fn new(t: &'t Tables) -> Self {
        let n = t.n;
        let max_units = (0..t.cells).map(|c| t.units_of(c).len()).max().unwrap_or(0);
        Fill {
            t,
            n,
            words: n.div_ceil(64),
            cand: vec![M::all(n); t.cells],
            plane: (0..n.div_ceil(64))
                .flat_map(|w| {
                    let word = M::all(n).word(w);
                    std::iter::repeat_n(word, t.cells)
                })
                .collect(),
            vals: vec![0; t.cells],
            placed: vec![M::ZERO; t.units],
            count: vec![n as u16; t.units * n],
            open: t.cells,
            // A path places each cell at most once: room for all of it up front (no copies).
            log: Vec::with_capacity(t.cells + 1),
            lost: Vec::with_capacity(t.cells * max_units * n.div_ceil(64)),
            naked: Vec::new(),
            hidden: Vec::new(),
        }
    }

    /// Sets the candidates of cell `c`, in both layouts.
    #[inline(always)]
    fn set(&mut self, c: usize, m: M) {
        self.cand[c] = m;
        let cells = self.t.cells;
        for w in 0..self.words {
            self.plane[w * cells + c] = m.word(w);
        }
    }

    /// One place fewer for digit `d` in the units of cell `c`: hidden singles queued; whether some
    /// unit is left without a place for a digit it lacks. Every unit is counted before returning,
    /// so that the undo stays exact.
    #[inline(always)]
    fn fewer(&mut self, c: usize, d: u32) -> bool {
        self.fewer_except(c, d, u32::MAX)
    }

    /// [`Fill::fewer`] except in unit `skip`, where `d` is placed (its count is never read there).
    #[inline(always)]
    fn fewer_except(&mut self, c: usize, d: u32, skip: u32) -> bool {
        let mut dead = false;
        for &u in self.t.units_of(c) {
            if u == skip {
                continue;
            }
            let i = u as usize * self.n + d as usize;
            self.count[i] -= 1;
            let k = self.count[i];
            if k <= 1 && !self.placed[u as usize].has(d) {
                if k == 0 {
                    dead = true;
                } else {
                    self.hidden.push((u, d));
                }
            }
        }
        dead
    }

    /// Puts 0-based digit `d` in open cell `c` and removes it from the cell's units, logged.
    fn place(&mut self, c: usize, d: u32) -> Step<()> {
        let t = self.t;
        let b = M::bit(d);
        let before = self.cand[c];
        if !before.has(d) {
            return Err(Contradiction);
        }
        let from = self.lost.len();
        self.log.push(Entry {
            cell: c as u32,
            digit: d,
            from: from as u32,
            before,
        });
        let units = t.units_of(c);
        self.lost.resize(from + units.len() * self.words, 0);
        self.set(c, M::ZERO);
        self.vals[c] = d as u16 + 1;
        self.open -= 1;
        for &u in units {
            self.placed[u as usize] |= b;
        }
        let mut dead = false;
        let rest = before & !b;
        for w in 0..self.words {
            let mut bits = rest.word(w);
            while bits != 0 {
                let e = 64 * w as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                dead |= self.fewer(c, e);
            }
        }
        if dead {
            return Err(Contradiction);
        }
        let (word, bit) = ((d / 64) as usize * t.cells, d % 64);
        for (k, &u) in units.iter().enumerate() {
            let bits = from + k * self.words;
            for (i, &p) in t.unit(u as usize).iter().enumerate() {
                let p = p as usize;
                if self.plane[word + p] >> bit & 1 == 0 {
                    continue;
                }
                self.plane[word + p] &= !(1 << bit);
                let left = self.cand[p] & !b;
                self.cand[p] = left;
                self.lost[bits + i / 64] |= 1 << (i % 64);
                if self.fewer_except(p, d, u) || left == M::ZERO {
                    return Err(Contradiction);
                }
                if left.at_most_one() {
                    self.naked.push(p as u32);
                }
            }
        }
        Ok(())
    }

    /// Removes 0-based digit `d` from open cell `c` (a branch's alternative), logged.
    fn remove(&mut self, c: usize, d: u32) -> Step<()> {
        self.log.push(Entry {
            cell: c as u32,
            digit: d,
            from: REMOVAL,
            before: M::ZERO,
        });
        let left = self.cand[c] & !M::bit(d);
        self.set(c, left);
        if self.fewer(c, d) || left == M::ZERO {
            return Err(Contradiction);
        }
        if left.at_most_one() {
            self.naked.push(c as u32);
        }
        Ok(())
    }

    /// Takes back every change logged since `mark`.
    fn undo(&mut self, mark: usize) {
        let t = self.t;
        let n = self.n;
        while self.log.len() > mark {
            let Some(e) = self.log.pop() else { break };
            let (c, d) = (e.cell as usize, e.digit);
            let b = M::bit(d);
            if e.from == REMOVAL {
                self.set(c, self.cand[c] | b);
                for &u in t.units_of(c) {
                    self.count[u as usize * n + d as usize] += 1;
                }
                continue;
            }
            let from = e.from as usize;
            for (k, &u) in t.units_of(c).iter().enumerate() {
                let cells = t.unit(u as usize);
                for w in 0..self.words {
                    let mut bits = self.lost[from + k * self.words + w];
                    while bits != 0 {
                        let p = cells[64 * w + bits.trailing_zeros() as usize] as usize;
                        bits &= bits - 1;
                        self.cand[p] |= b;
                        self.plane[(d / 64) as usize * t.cells + p] |= 1 << (d % 64);
                        for &v in t.units_of(p) {
                            if v != u {
                                self.count[v as usize * n + d as usize] += 1;
                            }
                        }
                    }
                }
                self.placed[u as usize] &= !b;
            }
            self.lost.truncate(from);
            let rest = e.before & !b;
            for &u in t.units_of(c) {
                let row = &mut self.count[u as usize * n..(u as usize + 1) * n];
                for w in 0..self.words {
                    let mut bits = rest.word(w);
                    while bits != 0 {
                        row[64 * w + bits.trailing_zeros() as usize] += 1;
                        bits &= bits - 1;
                    }
                }
            }
            self.set(c, e.before);
            self.vals[c] = 0;
            self.open += 1;
        }
    }

    /// Places the queued naked and hidden singles, and those they make, until none is left.
    fn singles(&mut self) -> Step<()> {
        loop {
            if let Some(c) = self.naked.pop() {
                let m = self.cand[c as usize];
                if self.vals[c as usize] == 0 {
                    if m == M::ZERO {
                        return Err(Contradiction);
                    }
                    if m.at_most_one() {
                        self.place(c as usize, m.lowest())?;
                    }
                }
            } else if let Some((u, d)) = self.hidden.pop() {
                if self.placed[u as usize].has(d) {
                    continue;
                }
                let cells = self.t.unit(u as usize);
                let c = cells
                    .iter()
                    .find(|&&c| self.cand[c as usize].has(d))
                    .ok_or(Contradiction)?;
                self.place(*c as usize, d)?;
            } else {
                return Ok(());
            }
        }
    }

    /// The digit to try first in open cell `c`: the fewest places left in the cell's units, the
    /// smallest on ties.
    fn choose(&self, c: usize) -> u32 {
        let units = self.t.units_of(c);
        let m = self.cand[c];
        let (mut best, mut best_score) = (m.lowest(), u32::MAX);
        for w in 0..self.words {
            let mut bits = m.word(w);
            while bits != 0 {
                let d = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let score: u32 = units
                    .iter()
                    .map(|&u| u32::from(self.count[u as usize * self.n + d]))
                    .sum();
                if score < best_score {
                    best = d as u32;
                    best_score = score;
                }
            }
        }
        best
    }

    /// The first open cell from `from` on (there is one: the grid is not full).
    fn next_open(&self, from: usize) -> usize {
        (from..self.t.cells)
            .find(|&c| self.vals[c] == 0)
            .expect("an open cell past the last branch")
    }
}

/// Searches `puzzle` (whose shape matches the tables) within `limits` by the fill search.
pub(crate) fn run<M: Mask>(
    t: &Tables,
    shape: Shape,
    puzzle: &Grid,
    limits: &Limits,
    bounds: &Bounds,
) -> Found {
    debug_assert!(t.n as u32 <= M::BITS);
    let mut found = Found::new(limits);
    let mut s = Fill::<M>::new(t);
    for (c, &v) in puzzle.values().iter().enumerate() {
        if v != 0 && s.place(c, u32::from(v) - 1).is_err() {
            return found;
        }
    }
    let clock_mask = if t.cells <= 4096 { 63 } else { 15 };
    let mut frames: Vec<Frame> = Vec::new();
    // The first open cell is at or past this one (the cell of the last branch on the path).
    let mut cursor = 0;
    'search: loop {
        if out_of_limits(bounds, found.stats.nodes, clock_mask) {
            found.gave_up = true;
            break;
        }
        found.stats.nodes += 1;
        let step = s.singles();
        if step.is_ok() {
            if s.open == 0 {
                let values = || Grid::from_values(shape, s.vals.clone()).expect("values 1..=N");
                if found.solutions.add_with(values) {
                    break;
                }
            } else {
                let c = s.next_open(cursor);
                let d = s.choose(c);
                cursor = c;
                frames.push(Frame {
                    mark: s.log.len(),
                    cell: c,
                    digit: d,
                });
                found.stats.guesses += 1;
                if s.place(c, d).is_ok() {
                    continue;
                }
            }
        }
        // A dead end (or a solution counted): back to the last branch, without its digit.
        loop {
            s.naked.clear();
            s.hidden.clear();
            let Some(f) = frames.pop() else {
                break 'search;
            };
            s.undo(f.mark);
            cursor = f.cell;
            if s.remove(f.cell, f.digit).is_ok() {
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfs::tables::tables_for;
    use crate::grid::Shape;
    use crate::solve::Outcome;
    use crate::units::Units;

    fn search(units: &Units, puzzle: &Grid, limits: &Limits) -> Found {
        let t = tables_for(units);
        run::<u64>(&t, puzzle.shape(), puzzle, limits, &Bounds::start(limits))
    }

    #[test]
    fn every_4x4_grid_is_counted_once() {
        // The empty 4x4 grid has 288 solutions (a known count): the search and its undo log visit
        // each exactly once.
        let shape = Shape::new(2, 2).unwrap();
        let units = Units::standard(shape);
        let found = search(&units, &Grid::empty(shape), &Limits::count_to(1_000));
        let outcome = found.solutions.finish(found.gave_up);
        assert!(matches!(
            outcome,
            Outcome::Multiple {
                count: 288,
                complete: true,
                ..
            }
        ));
    }

    #[test]
    fn only_sparse_grids_of_rows_columns_and_boxes_from_64x64() {
        use crate::constraint::Variant;
        let big = Shape::new(8, 8).unwrap();
        let empty = Grid::empty(big);
        assert!(applies(&tables_for(&Units::standard(big)), &empty));
        let x = Units::rules(big)
            .variant(Variant::Diagonals)
            .build()
            .unwrap();
        assert!(!applies(&tables_for(&x), &empty));
        let small = Shape::new(7, 7).unwrap();
        assert!(!applies(
            &tables_for(&Units::standard(small)),
            &Grid::empty(small)
        ));
        // A quarter of the cells given: a puzzle for the main search (clashes do not matter here).
        let values = (0..big.cells()).map(|c| u16::from(c % 4 == 0)).collect();
        assert!(!applies(
            &tables_for(&Units::standard(big)),
            &Grid::from_values(big, values).unwrap()
        ));
    }

    #[test]
    fn clashing_givens_and_dead_ends_are_none() {
        let shape = Shape::new(3, 3).unwrap();
        let units = Units::standard(shape);
        // Two 1s in row 1.
        let mut values = vec![0u16; 81];
        values[0] = 1;
        values[5] = 1;
        let clash = Grid::from_values(shape, values).unwrap();
        let found = search(&units, &clash, &Limits::unique());
        assert_eq!(found.solutions.count(), 0);
        assert!(!found.gave_up);
        // r1c1 open, but 1..8 in its row and 9 in its column: no candidate, found by propagation
        // at the root.
        let mut values = vec![0u16; 81];
        values[1..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        values[27] = 9;
        let dead = Grid::from_values(shape, values).unwrap();
        let found = search(&units, &dead, &Limits::unique());
        assert_eq!(found.solutions.count(), 0);
        assert!(!found.gave_up);
    }
}
