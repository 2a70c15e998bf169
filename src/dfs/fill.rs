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
//!   (BENCHMARKS.md, "Empty and sparse giant grids"); the givens of a sparse grid are just more
//!   eliminations, but from 64x64 up a few percent of them already lead it into dead ends it does
//!   not get out of (the same place: what was tried).
//! - **Undo**: a log. A placement logs the cell's candidates and, per unit of the cell, a bitset of
//!   the unit's cells that lost the digit (N bits per unit instead of 4 bytes per peer: 27 MB along
//!   a full 400x400 path instead of 256 MB); a branch's alternative logs the one digit removed.

use std::time::Instant;

use super::bands;
use super::search::{Bounds, Found, out_of_limits};
use super::step::{Contradiction, Step};
use super::tables::Tables;
use crate::grid::{Grid, Shape};
use crate::solve::{Limits, past};

/// The smallest grid side taken by the fill search (when sparse, see [`applies`]).
pub(crate) const FILL_MIN_N: usize = 64;

/// Whether the fill search takes `puzzle`: a grid of side at least [`FILL_MIN_N`] under rows,
/// columns and boxes alone (no extra units such as diagonals or windows, whose empty 64x64 grids
/// its row-major order does not fill, no relations, cages or irregular regions), at most a fifth
/// of whose cells are given. Denser grids are left to the main search, whose reasoning their few
/// solutions need.
pub(crate) fn applies(t: &Tables, puzzle: &Grid) -> bool {
    t.n >= FILL_MIN_N
        && t.n <= 64 * MAX_WORDS
        && t.units == 3 * t.n
        && t.rules.is_none()
        && !t.weighted
        && puzzle.is_sparse()
        && (0..t.cells).all(|c| t.units_of(c).len() == 3)
}

/// The most 64-bit words of a candidate set: N up to 448 (the native backend's widest mask).
const MAX_WORDS: usize = 7;

/// A logged change.
#[derive(Clone, Copy)]
struct Entry {
    cell: u32,
    /// The 0-based digit placed or removed.
    digit: u32,
    /// A placement: where its lost-peer bitsets start in [`Fill::lost`]; a removal: [`REMOVAL`].
    from: u32,
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

/// Placements between two looks at the clock and the stop flags inside one node's propagation
/// (the givens at the root, or singles that cascade): a 400x400 placement walks 1,200 peers.
const PLACEMENTS_PER_LOOK: u32 = 1024;

/// The state of the fill search. Laid out for a placement's walk over its peers, which is where
/// the time goes (64 million eliminations on an empty 400x400 grid): what it touches per peer is
/// one word of a candidate plane, a 2-byte candidate count, and the counts of the peer's other
/// units for the one digit placed, which sit side by side.
struct Fill<'t> {
    t: &'t Tables,
    /// Grid side.
    n: usize,
    /// Cells and units of the grid.
    cells: usize,
    units: usize,
    /// 64-bit words per candidate set (and per lost-peer bitset of a unit).
    words: usize,
    /// The candidates by 64-digit word, word-major: `plane[w * cells + c]` is word `w` of cell
    /// `c`'s candidates (none once placed). A placement asks each of its up to 3N peers whether
    /// it holds the digit: one word in a plane of 8 bytes per cell, not a 56-byte mask per cell.
    plane: Vec<u64>,
    /// Candidates per cell (0 once placed): naked singles and dead cells without reading a mask.
    ncand: Vec<u16>,
    vals: Vec<u16>,
    /// Digits placed per unit, `words` words each.
    placed: Vec<u64>,
    /// `count[d * units + u]`: the open cells of unit `u` holding digit `d`, digit-major so that
    /// a placement's updates (one digit, the units of the peers) fall in a few cache lines (not
    /// kept up to date for a digit placed in `u`, where it is never read; undoing restores it).
    count: Vec<u16>,
    open: usize,
    log: Vec<Entry>,
    lost: Vec<u64>,
    /// Per logged placement, the cell's candidates before it (`words` words), a stack.
    before: Vec<u64>,
    /// Cells left with one candidate.
    naked: Vec<u32>,
    /// (unit, digit) left with one place.
    hidden: Vec<(u32, u32)>,
    /// `others[u * n + i]`: the two units other than `u` of the `i`-th cell of unit `u`, read in
    /// order as a placement walks `u` (where `units_of` of each peer would be a cache miss).
    others: Vec<[u16; 2]>,
    /// When to stop, and placements until the next look at it.
    deadline: Option<Instant>,
    until_look: u32,
    /// Set once the deadline passed or a stop was asked during a propagation (then it fails).
    stopped: bool,
}

impl<'t> Fill<'t> {
    fn new(t: &'t Tables, deadline: Option<Instant>) -> Self {
        let n = t.n;
        let words = n.div_ceil(64);
        let max_units = (0..t.cells).map(|c| t.units_of(c).len()).max().unwrap_or(0);
        let all = |w: usize| match n.saturating_sub(64 * w) {
            0 => 0,
            k if k >= 64 => u64::MAX,
            k => (1 << k) - 1,
        };
        Fill {
            t,
            n,
            cells: t.cells,
            units: t.units,
            words,
            plane: (0..words)
                .flat_map(|w| std::iter::repeat_n(all(w), t.cells))
                .collect(),
            ncand: vec![n as u16; t.cells],
            vals: vec![0; t.cells],
            placed: vec![0; t.units * words],
            count: vec![n as u16; t.units * n],
            open: t.cells,
            // A path places each cell at most once: room for all of it up front (no copies).
            log: Vec::with_capacity(t.cells + 1),
            lost: Vec::with_capacity(t.cells * max_units * words),
            before: Vec::with_capacity(t.cells * words),
            naked: Vec::new(),
            hidden: Vec::new(),
            others: (0..t.units)
                .flat_map(|u| t.unit(u).iter().map(move |&c| (u, c as usize)))
                .map(|(u, c)| {
                    let mut o = t.units_of(c).iter().filter(|&&v| v as usize != u);
                    let mut next = || o.next().map_or(0, |&v| v as u16);
                    [next(), next()]
                })
                .collect(),
            deadline,
            until_look: PLACEMENTS_PER_LOOK,
            stopped: false,
        }
    }

    /// Whether open cell `c` holds 0-based digit `d`.
    #[inline(always)]
    fn holds(&self, c: usize, d: u32) -> bool {
        self.plane[(d / 64) as usize * self.cells + c] >> (d % 64) & 1 != 0
    }

    /// Whether 0-based digit `d` is placed in unit `u`.
    #[inline(always)]
    fn placed_in(&self, u: u32, d: u32) -> bool {
        self.placed[u as usize * self.words + (d / 64) as usize] >> (d % 64) & 1 != 0
    }

    /// The candidates of cell `c`, word by word.
    #[inline(always)]
    fn cand(&self, c: usize) -> [u64; MAX_WORDS] {
        std::array::from_fn(|w| {
            if w < self.words {
                self.plane[w * self.cells + c]
            } else {
                0
            }
        })
    }

    /// One place fewer for digit `d` in the units of cell `c`: hidden singles queued; whether some
    /// unit is left without a place for a digit it lacks. Every unit is counted before returning,
    /// so that the undo stays exact.
    #[inline(always)]
    fn fewer(&mut self, c: usize, d: u32) -> bool {
        let t = self.t;
        self.fewer_in(t.units_of(c).iter().copied(), d)
    }

    /// [`Fill::fewer`] in `units`.
    #[inline(always)]
    fn fewer_in(&mut self, units: impl IntoIterator<Item = u32>, d: u32) -> bool {
        let mut dead = false;
        let row = d as usize * self.units;
        for u in units {
            let i = row + u as usize;
            self.count[i] -= 1;
            let k = self.count[i];
            if k <= 1 && !self.placed_in(u, d) {
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
        if self.until_look == 0 {
            self.until_look = PLACEMENTS_PER_LOOK;
            if past(self.deadline) {
                self.stopped = true;
            }
        }
        self.until_look -= 1;
        if self.stopped || !self.holds(c, d) {
            return Err(Contradiction);
        }
        let before = self.cand(c);
        let from = self.lost.len();
        self.log.push(Entry {
            cell: c as u32,
            digit: d,
            from: from as u32,
        });
        let units = t.units_of(c);
        self.lost.resize(from + units.len() * self.words, 0);
        for (w, &x) in before.iter().enumerate().take(self.words) {
            self.before.push(x);
            self.plane[w * self.cells + c] = 0;
        }
        self.ncand[c] = 0;
        self.vals[c] = d as u16 + 1;
        self.open -= 1;
        let (word, bit) = ((d / 64) as usize, d % 64);
        for &u in units {
            self.placed[u as usize * self.words + word] |= 1 << bit;
        }
        let mut dead = false;
        for (w, &x) in before.iter().enumerate().take(self.words) {
            let mut bits = if w == word { x & !(1 << bit) } else { x };
            while bits != 0 {
                let e = 64 * w as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                dead |= self.fewer(c, e);
            }
        }
        if dead {
            return Err(Contradiction);
        }
        let plane = word * self.cells;
        for (k, &u) in units.iter().enumerate() {
            let bits = from + k * self.words;
            let at = u as usize * self.n;
            for (i, &p) in t.unit(u as usize).iter().enumerate() {
                let p = p as usize;
                if self.plane[plane + p] >> bit & 1 == 0 {
                    continue;
                }
                self.plane[plane + p] &= !(1 << bit);
                self.ncand[p] -= 1;
                let left = self.ncand[p];
                self.lost[bits + i / 64] |= 1 << (i % 64);
                let [v, w] = self.others[at + i];
                if self.fewer_in([u32::from(v), u32::from(w)], d) || left == 0 {
                    return Err(Contradiction);
                }
                if left == 1 {
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
        });
        self.plane[(d / 64) as usize * self.cells + c] &= !(1 << (d % 64));
        self.ncand[c] -= 1;
        let left = self.ncand[c];
        if self.fewer(c, d) || left == 0 {
            return Err(Contradiction);
        }
        if left == 1 {
            self.naked.push(c as u32);
        }
        Ok(())
    }

    /// Takes back every change logged since `mark`.
    fn undo(&mut self, mark: usize) {
        let t = self.t;
        let (units, cells, words) = (self.units, self.cells, self.words);
        while self.log.len() > mark {
            let Some(e) = self.log.pop() else { break };
            let (c, d) = (e.cell as usize, e.digit);
            let (word, bit) = ((d / 64) as usize, d % 64);
            let row = d as usize * units;
            if e.from == REMOVAL {
                self.plane[word * cells + c] |= 1 << bit;
                self.ncand[c] += 1;
                for &u in t.units_of(c) {
                    self.count[row + u as usize] += 1;
                }
                continue;
            }
            let from = e.from as usize;
            for (k, &u) in t.units_of(c).iter().enumerate() {
                let unit = t.unit(u as usize);
                let at = u as usize * self.n;
                for w in 0..words {
                    let mut bits = self.lost[from + k * words + w];
                    while bits != 0 {
                        let i = 64 * w + bits.trailing_zeros() as usize;
                        let p = unit[i] as usize;
                        bits &= bits - 1;
                        self.plane[word * cells + p] |= 1 << bit;
                        self.ncand[p] += 1;
                        for v in self.others[at + i] {
                            self.count[row + v as usize] += 1;
                        }
                    }
                }
                self.placed[u as usize * words + word] &= !(1 << bit);
            }
            self.lost.truncate(from);
            let at = self.before.len() - words;
            let mut k = 0u16;
            for w in 0..words {
                let x = self.before[at + w];
                self.plane[w * cells + c] = x;
                k += x.count_ones() as u16;
                let mut bits = if w == word { x & !(1 << bit) } else { x };
                while bits != 0 {
                    let e = (64 * w + bits.trailing_zeros() as usize) * units;
                    bits &= bits - 1;
                    for &u in t.units_of(c) {
                        self.count[e + u as usize] += 1;
                    }
                }
            }
            self.before.truncate(at);
            self.ncand[c] = k;
            self.vals[c] = 0;
            self.open += 1;
        }
    }

    /// Places the queued naked and hidden singles, and those they make, until none is left.
    fn singles(&mut self) -> Step<()> {
        loop {
            if let Some(c) = self.naked.pop() {
                let c = c as usize;
                if self.vals[c] == 0 {
                    match self.ncand[c] {
                        0 => return Err(Contradiction),
                        1 => {
                            let m = self.cand(c);
                            let w = m.iter().position(|&x| x != 0).ok_or(Contradiction)?;
                            self.place(c, 64 * w as u32 + m[w].trailing_zeros())?;
                        }
                        _ => {}
                    }
                }
            } else if let Some((u, d)) = self.hidden.pop() {
                if self.placed_in(u, d) {
                    continue;
                }
                let cells = self.t.unit(u as usize);
                let c = cells
                    .iter()
                    .find(|&&c| self.holds(c as usize, d))
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
        let m = self.cand(c);
        let (mut best, mut best_score) = (u32::MAX, u32::MAX);
        for (w, &x) in m.iter().enumerate().take(self.words) {
            let mut bits = x;
            while bits != 0 {
                let d = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let row = d * self.units;
                let score: u32 = units
                    .iter()
                    .map(|&u| u32::from(self.count[row + u as usize]))
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
pub(crate) fn run(
    t: &Tables,
    shape: Shape,
    puzzle: &Grid,
    limits: &Limits,
    bounds: &Bounds,
) -> Found {
    assert!(t.n <= 64 * MAX_WORDS, "the fill search takes N up to 448");
    let mut found = Found::new(limits);
    if limits.max_solutions() == 1 && puzzle.values().iter().any(|&v| v != 0) {
        // A first solution only, with givens: built from matchings if it can be, else the search
        // below (which fills an empty grid without a dead end).
        let (budget, deadline) = (limits.budget(), bounds.deadline());
        let mut stop = |nodes: u64| budget.is_some_and(|b| nodes >= b) || past(deadline);
        let built = bands::build(puzzle, bounds.shuffle().unwrap_or(0), &mut stop);
        found.stats.nodes += built.nodes;
        if let Some(grid) = built.grid {
            found.solutions.add_with(|| grid);
            return found;
        }
        if built.stopped {
            found.gave_up = true;
            return found;
        }
    }
    let mut s = Fill::new(t, bounds.deadline());
    for (c, &v) in puzzle.values().iter().enumerate() {
        if v != 0 && s.place(c, u32::from(v) - 1).is_err() {
            found.gave_up = s.stopped;
            return found;
        }
    }
    let clock_mask = if t.cells <= 4096 { 63 } else { 15 };
    let mut frames: Vec<Frame> = Vec::new();
    // The first open cell is at or past this one (the cell of the last branch on the path).
    let mut cursor = 0;
    'search: loop {
        if s.stopped || out_of_limits(bounds, found.stats.nodes, clock_mask) {
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
        if s.stopped {
            found.gave_up = true;
            break;
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
        run(&t, puzzle.shape(), puzzle, limits, &Bounds::start(limits))
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
    fn a_stop_cuts_the_givens_and_the_search_short() {
        // 64x64 with the first 40 rows of the pattern solution given (2,560 givens, more than two
        // looks' worth of placements): with the stop flag set, placing the givens stops at the
        // first look, the search gives up without a node and says so (unknown, not none).
        let shape = Shape::new(8, 8).unwrap();
        let units = Units::standard(shape);
        let t = tables_for(&units);
        let values: Vec<u16> = (0..64 * 64)
            .map(|c| {
                let (r, k) = (c / 64, c % 64);
                if r < 40 {
                    ((8 * (r % 8) + r / 8 + k) % 64 + 1) as u16
                } else {
                    0
                }
            })
            .collect();
        let stopped_after = |values: &[u16]| {
            let mut s = Fill::new(&t, None);
            for (c, &v) in values.iter().enumerate() {
                if v != 0 && s.place(c, u32::from(v) - 1).is_err() {
                    break;
                }
            }
            (s.stopped, t.cells - s.open)
        };
        assert_eq!(stopped_after(&values), (false, 40 * 64));
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (stopped, placed) = crate::solve::stop_when(&flag, || stopped_after(&values));
        assert!(stopped);
        assert_eq!(placed, PLACEMENTS_PER_LOOK as usize);
        let puzzle = Grid::from_values(shape, values).unwrap();
        let found = crate::solve::stop_when(&flag, || search(&units, &puzzle, &Limits::first()));
        assert!(found.gave_up);
        assert_eq!(found.stats.nodes, 0);
        assert_eq!(found.solutions.count(), 0);
    }

    #[test]
    fn a_first_solution_of_a_sparse_grid_is_built_and_a_clash_is_still_none() {
        // The pattern solution of 64x64 with every 19th cell kept (216 givens, 5 %): the builder
        // answers (verified here), in far fewer nodes than the fill search's dead ends took.
        let shape = Shape::new(8, 8).unwrap();
        let units = Units::standard(shape);
        let values: Vec<u16> = (0..64 * 64)
            .map(|c| {
                let (r, k) = (c / 64, c % 64);
                if c % 19 == 0 {
                    ((8 * (r % 8) + r / 8 + k) % 64 + 1) as u16
                } else {
                    0
                }
            })
            .collect();
        let puzzle = Grid::from_values(shape, values).unwrap();
        let found = search(&units, &puzzle, &Limits::first());
        assert!(!found.gave_up);
        let outcome = found.solutions.finish(false);
        let solution = outcome.solution().expect("a solution");
        assert_eq!(crate::verify::verify(&units, &puzzle, solution), Ok(()));
        assert!(found.stats.nodes <= 1_000, "{} nodes", found.stats.nodes);
        // Two 7s in one column: the builder finds nothing, and the complete search says none.
        let mut values = vec![0u16; 64 * 64];
        values[5] = 7;
        values[5 + 64 * 30] = 7;
        let clash = Grid::from_values(shape, values).unwrap();
        let found = search(&units, &clash, &Limits::first());
        assert!(!found.gave_up);
        assert_eq!(found.solutions.count(), 0);
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
