//! The 9x9 fast path: digit-major bitboards (per digit, the 81 cells as three 27-bit bands),
//! band-at-a-time elimination by table, bit-parallel naked singles, MRV on bivalue cells.
//!
//! # Design
//! The ideas are those of the fast bitboard solvers (JCZSolve by Zhou Yundong, 2014, and tdoku by Tom
//! Dillon, 2019, describe them); the code is written afresh here.
//! - **State**: for each digit and band (three rows), a 27-bit mask of the cells that may hold the digit
//!   (a filled cell stays in its own digit's mask only), and per band the open cells: 128 bytes, copied
//!   at each guess. Bit `9·r + c` of band `b` is the cell in row `3·b + r`, column `c`, so band-major bit
//!   order is the grid's reading order.
//! - **Band shrink**: in one band a digit sits once in each row and once in each box, i.e. on one of six
//!   permutations of the 3x3 row-box "triads". A table maps the triads still occupied to those lying on
//!   some permutation (one lookup covers pointing, claiming and box hidden singles inside the band); a
//!   row left with one cell is then a hidden single, and a column alone in its box is taken away from the
//!   other two bands. Only the digit-bands that changed since their last shrink are shrunk, each
//!   from the next band's next digit on, so that one seldom reads what the last one wrote.
//! - **Naked singles**: per band, the nine digit masks folded into "at least once" and "at least twice"
//!   give the empty cells (a contradiction) and the single-candidate ones in a few operations.
//! - **Stack shrink**: the same permutation table, transposed: in a stack (three columns of boxes) a digit
//!   takes one column per band and one band per column (column hidden singles, column-box locking).
//!   Run when the band and cell steps are quiet.
//! - **Branching**: on the cell with two candidates that has the most open peers (else the first with
//!   the fewest candidates; under relations the one of those with the most open peers); smallest
//!   digit first; the parent keeps the other candidates, as on the generic path.
//! - **Pairwise relations** (anti-king, anti-knight, non-consecutive; a second instance of the
//!   search, `K = 5`, so the classic one is compiled without them): per cell, band masks of the
//!   cells that must not share its digit and of those that must not hold a digit next to it, read
//!   from the rules' relation list. A filled cell clears them (`relate`); when the rest is quiet,
//!   a cell whose candidates lie within one of `e` takes `e` from its partners (`windows`), and
//!   two or three places of a digit in a box act on the cells related to all of them
//!   (`box_rule`). Bivalue cells with more open partners are branched on first.
//! - **Two builds**: the search is compiled for the baseline x86-64 and again for CPUs with
//!   POPCNT, BMI1/2, LZCNT and AVX2 (bit counts and scans in one instruction), chosen at run time
//!   per solve; both run the same code.

use super::search::{Bounds, Found, out_of_limits, splitmix};
use super::step::{Contradiction, Step};
use crate::constraint::RelationKind;
use crate::grid::{Grid, Shape, filled_bits};
use crate::solve::{Limits, Report};
use crate::units::Units;

/// The 9 cells of one row of a band.
const ROW: u32 = 0x1ff;
/// Every cell of a band.
const BAND: u32 = (1 << 27) - 1;
/// Bit 0 of each row: multiplying a 9-bit column mask by it repeats the mask in the band's three rows.
const ROWS: u32 = 1 | 1 << 9 | 1 << 18;
/// The other two bands of each band.
const OTHER: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The six permutations of a 3x3 pattern (bit `3·r + k`: row r uses column k), as 9-bit masks.
const PERMUTATIONS: [u16; 6] = {
    let mut out = [0u16; 6];
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut i = 0;
    while i < 6 {
        let mut r = 0;
        while r < 3 {
            out[i] |= 1 << (3 * r + orders[i][r]);
            r += 1;
        }
        i += 1;
    }
    out
};

/// The lookup tables, built at compile time.
struct Tables {
    /// For a 3x3 pattern, the union of the permutations it contains (0: none).
    perm: [u16; 512],
    /// For a band's occupied triads as [`occupied`] folds them, the cells of the triads that lie
    /// on some permutation.
    perm_cells: [u32; 512],
    /// For the 9 columns of a band where a digit may be, those alone in their box (stack).
    lone_cols: [u16; 512],
    /// For each cell of a band, the other cells of its row, column and box in that band (32 entries,
    /// so that a bit index masked by 31 needs no other bounds check; the last 5 are 0).
    band_peers: [u32; 32],
    /// For each cell of a band, the cells of its column in all three rows (32 entries, as above).
    column: [u32; 32],
}

static T: Tables = {
    let mut t = Tables {
        perm: [0; 512],
        perm_cells: [0; 512],
        lone_cols: [0; 512],
        band_peers: [0; 32],
        column: [0; 32],
    };
    let mut x = 0usize;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            let three = (x >> (3 * k)) & 7;
            if three.is_power_of_two() {
                t.lone_cols[x] |= (three << (3 * k)) as u16;
            }
            k += 1;
        }
        let mut p = 0;
        while p < 6 {
            let m = PERMUTATIONS[p] as usize;
            if x & m == m {
                t.perm[x] |= m as u16;
            }
            p += 1;
        }
        let folded = folded_index(x);
        let mut tr = 0;
        while tr < 9 {
            if t.perm[x] & (1 << tr) != 0 {
                t.perm_cells[folded] |= 7 << (3 * tr);
            }
            tr += 1;
        }
        x += 1;
    }
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        t.column[i] = ROWS << c;
        let mut j = 0;
        while j < 27 {
            let (r2, c2) = (j / 9, j % 9);
            if j != i && (r2 == r || c2 == c || c2 / 3 == c / 3) {
                t.band_peers[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The triads (row, box) of a band mask that hold a cell, as 9 bits without a table: bit 0 of
/// each triad gathers its three cells, and the three rows' bits (9 apart, 3 apart within a row)
/// fold into bit `r + 3·k` for row r, box k.
#[inline(always)]
fn occupied(a: u32) -> usize {
    // Bit 0 of each of the nine triads.
    const FIRST: u32 = 0o111_111_111;
    let t = (a | a >> 1 | a >> 2) & FIRST;
    ((t | t >> 8 | t >> 16) & 511) as usize
}

/// [`occupied`]'s index of a 3x3 pattern of triads (bit `3·r + k`: row r, box k).
const fn folded_index(x: usize) -> usize {
    let mut folded = 0;
    let mut tr = 0;
    while tr < 9 {
        if x & (1 << tr) != 0 {
            folded |= 1 << (tr / 3 + 3 * (tr % 3));
        }
        tr += 1;
    }
    folded
}

/// The columns (9 bits) where a band mask has at least one cell.
#[inline(always)]
fn columns(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & ROW
}

/// The rows (all 9 bits each) of a band mask that have a cell, without branches: adding 255 to the
/// low 8 bits of a row carries into its 9th bit exactly when one of them is set.
#[inline(always)]
fn nonempty_rows(a: u32) -> u32 {
    const LOW8: u32 = 0xff * ROWS;
    let top = ((a & LOW8) + LOW8) | a;
    ((top >> 8) & ROWS) * ROW
}

/// The first bit of `left` (not 0) at or above bit `from` (< 27), else its lowest: without a
/// branch.
#[inline(always)]
fn after(left: u32, from: u32) -> u32 {
    let above = left & (u32::MAX << (from & 31));
    if above != 0 {
        above.trailing_zeros()
    } else {
        left.trailing_zeros()
    }
}

/// Where the band shrinks' pass looks next after digit-band `i` (< 27): 10 bits on, the next
/// band's next digit (wrapping).
#[inline(always)]
fn next_from(i: u32) -> u32 {
    if i + 10 >= 27 { i + 10 - 27 } else { i + 10 }
}

/// The cell (band, bit) of a nonzero [`Board::key`].
#[inline(always)]
fn cell_of(key: u32) -> (usize, u32) {
    let index = 127 - (key & 127);
    ((index / 27) as usize, index % 27)
}

/// The 0-based digit of cell `bit` from a band's [`Board::planes`] (below 9 whatever the planes).
#[inline(always)]
fn digit(planes: &[u32; 4], bit: u32) -> usize {
    (planes[0] >> bit & 1
        | (planes[1] >> bit & 1) << 1
        | (planes[2] >> bit & 1) << 2
        | (planes[3] >> bit & 1) << 3) as usize
        % 9
}

/// Pairwise relations between cells (anti-king, anti-knight, non-consecutive), as band masks per
/// cell: what a placement clears besides its units. Read from the rules' relation list, so any
/// pattern of pairs works (nothing assumes orthogonal or diagonal neighbours).
pub(crate) struct Relations {
    /// For each cell (row-major), per band, the cells that must not hold its digit.
    same: [[u32; 3]; 81],
    /// For each cell, per band, the cells that must not hold a digit one above or below its own.
    next: [[u32; 3]; 81],
    /// `next` with the cell itself: a digit placed in any of these cells leaves the cell no digit
    /// one away from it.
    near: [[u32; 3]; 81],
    /// Whether any pair is non-consecutive.
    consecutive: bool,
}

/// The relations of the standard rules: none.
static NO_RELATIONS: Relations = Relations {
    same: [[0; 3]; 81],
    next: [[0; 3]; 81],
    near: [[0; 3]; 81],
    consecutive: false,
};

impl Relations {
    /// The band masks of `units`' relations, if each is "must differ" (anti-king, anti-knight) or
    /// non-consecutive; else `None`.
    pub(crate) fn of(units: &Units) -> Option<Box<Relations>> {
        let mut rel = Box::new(Relations {
            same: [[0; 3]; 81],
            next: [[0; 3]; 81],
            near: [[0; 3]; 81],
            consecutive: false,
        });
        for r in units.relations() {
            let (a, b) = (r.a.index(), r.b.index());
            if a >= 81 || b >= 81 {
                return None;
            }
            let next = match r.kind {
                RelationKind::King | RelationKind::Knight => false,
                RelationKind::NonConsecutive => true,
                _ => return None,
            };
            rel.consecutive |= next;
            for (x, y) in [(a, b), (b, a)] {
                rel.same[x][y / 27] |= 1 << (y % 27);
                if next {
                    rel.next[x][y / 27] |= 1 << (y % 27);
                }
            }
        }
        for c in 0..81 {
            rel.near[c] = rel.next[c];
            rel.near[c][c / 27] |= 1 << (c % 27);
        }
        Some(rel)
    }
}

/// A partial assignment of a 9x9 grid, copied by value at each guess. `K` is 0 under the standard
/// units alone, 5 under pairwise relations (then `done` has a mask per band and two of digit-bands).
#[derive(Clone, Copy)]
struct Board<const K: usize> {
    /// `cand[9·b + d]`: the cells of band `b` that may hold 0-based digit `d`, or hold it. Entry 27
    /// is padding (always 0, as in `shrunk`), so that both compare in whole 4-lane vectors.
    cand: [u32; 28],
    /// Each digit-band as its last band shrink left it: those that differ from `cand` are to be
    /// shrunk again (comparing in bulk is cheaper than flagging each change).
    shrunk: [u32; 28],
    /// The open cells of each band.
    open: [u32; 3],
    /// Digit-bands (bit `9·b + d`) changed since the last stack shrink.
    moved: u32,
    /// Under relations: per band, the filled cells whose relations have been applied; then the
    /// digit-bands (bit `9·b + d`) changed since the last unit rule, and since the last windows.
    done: [u32; K],
}

impl<const K: usize> Board<K> {
    /// The empty grid.
    fn new() -> Board<K> {
        Board {
            cand: {
                let mut c = [BAND; 28];
                c[27] = 0;
                c
            },
            shrunk: [0; 28],
            open: [BAND; 3],
            moved: BAND,
            done: [0; K],
        }
    }

    /// The digit-bands changed since their last shrink, as bits `9·b + d`.
    #[inline(always)]
    fn dirty(&self) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        // SAFETY: the intrinsics need SSE2, which this build enables (every x86-64 target does); each
        // unaligned load reads the 16 bytes of a 4-element slice whose bounds the indexing checks.
        unsafe {
            // Seven 4-lane compares, each lane's sign bit gathered into 4 bits.
            use std::arch::x86_64::{
                __m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps,
            };
            let lanes =
                |a: &[u32; 28], k: usize| _mm_loadu_si128(a[k..k + 4].as_ptr().cast::<__m128i>());
            let mut same = 0u32;
            for k in 0..7 {
                let eq = _mm_cmpeq_epi32(lanes(&self.cand, 4 * k), lanes(&self.shrunk, 4 * k));
                same |= (_mm_movemask_ps(_mm_castsi128_ps(eq)) as u32) << (4 * k);
            }
            !same & ((1 << 27) - 1)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let mut dirty = 0;
            for i in 0..27 {
                dirty |= u32::from(self.cand[i] != self.shrunk[i]) << i;
            }
            dirty
        }
    }

    /// Removes the cells `m` from every digit of band `b` but `d`.
    #[inline(always)]
    fn clear_others(&mut self, b: usize, d: usize, m: u32) {
        let own = self.cand[9 * b + d];
        for x in &mut self.cand[9 * b..9 * b + 9] {
            *x &= !m;
        }
        self.cand[9 * b + d] = own;
    }

    /// Puts 0-based digit `d` in cell `bit` of band `b`: the other digits leave the cell, `d` its peers.
    ///
    /// # Errors
    /// When `d` is not a candidate of the cell.
    #[inline]
    fn assign(&mut self, b: usize, bit: u32, d: usize) -> Step<()> {
        let m = 1 << bit;
        if self.cand[9 * b + d] & m == 0 {
            return Err(Contradiction);
        }
        self.clear_others(b, d, m);
        self.fill(b, bit, d);
        Ok(())
    }

    /// Fills a cell whose only candidate is `d`: `d` leaves the cell's peers.
    #[inline(always)]
    fn fill(&mut self, b: usize, bit: u32, d: usize) {
        self.open[b] &= !(1 << bit);
        self.cand[9 * b + d] &= !T.band_peers[bit as usize & 31];
        let col = !T.column[bit as usize & 31];
        for o in OTHER[b] {
            self.cand[9 * o + d] &= col;
        }
    }

    /// Applies the relations of the cells filled since the last call: a cell holding `d` takes `d`
    /// from the cells it must differ from, `d − 1` and `d + 1` from its non-consecutive partners.
    /// Returns whether it took a candidate.
    ///
    /// # Errors
    /// When a related cell is already filled with a digit it may not hold.
    #[inline(always)]
    fn relate(&mut self, rel: &Relations) -> Step<bool> {
        let mut changed = 0;
        for b in 0..3 {
            let new = !self.open[b] & BAND & !self.done[b % K];
            if new == 0 {
                continue;
            }
            self.done[b % K] |= new;
            // A loop over the new cells, each one's digit read from the bit planes (not a loop
            // over the nine digits).
            let planes = self.planes(b);
            let mut s = new;
            while s != 0 {
                let bit = s.trailing_zeros();
                s &= s - 1;
                let d = digit(&planes, bit);
                // A filled cell that lost its digit holds none: nothing to apply.
                if self.cand[9 * b + d] & (1 << bit) == 0 {
                    continue;
                }
                let cell = (27 * b + bit as usize) % 81;
                let (same, next) = (&rel.same[cell], &rel.next[cell]);
                for o in 0..3 {
                    let filled = !self.open[o];
                    let mut clash = self.cand[9 * o + d] & same[o];
                    self.cand[9 * o + d] &= !same[o];
                    if d > 0 {
                        clash |= self.cand[9 * o + d - 1] & next[o];
                        self.cand[9 * o + d - 1] &= !next[o];
                    }
                    if d < 8 {
                        clash |= self.cand[9 * o + d + 1] & next[o];
                        self.cand[9 * o + d + 1] &= !next[o];
                    }
                    if clash & filled != 0 {
                        return Err(Contradiction);
                    }
                    changed |= clash;
                }
            }
        }
        Ok(changed != 0)
    }

    /// The non-consecutive pairs made arc-consistent beyond placements: an open cell whose
    /// candidates all lie within one of `e` (`e − 1`, `e`, `e + 1`) takes `e` from its partners
    /// (a cell that is 4 or 5 takes 4 and 5; one that is 4 or 6 takes 5). Only the bands with a
    /// digit changed since the last call are looked at: the others would take again what they took.
    #[inline(always)]
    fn windows(&mut self, rel: &Relations) {
        let changed = self.done[4 % K];
        self.done[4 % K] = 0;
        for b in 0..3 {
            if (changed >> (9 * b)) & ROW == 0 {
                continue;
            }
            let open = self.open[b];
            // below[k]: the cells with a candidate under k; above[k]: with one at k or over.
            let mut below = [0u32; 10];
            let mut above = [0u32; 10];
            for k in 0..9 {
                below[k + 1] = below[k] | self.cand[9 * b + k];
                above[8 - k] = above[9 - k] | self.cand[9 * b + 8 - k];
            }
            for e in 0..9usize {
                // Candidates under e − 1 or over e + 1.
                let outside = below[e.saturating_sub(1)] | above[(e + 2).min(9)];
                let mut w = open & !outside;
                while w != 0 {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    let next = &rel.next[(27 * b + bit as usize) % 81];
                    for (o, &m) in next.iter().enumerate() {
                        self.cand[9 * o + e] &= !m;
                    }
                }
            }
        }
    }

    /// The relations against the boxes: when every place left for `d` in a box (two or three) is a
    /// partner of a cell X or X itself, X cannot hold `d − 1` or `d + 1`; when every place must
    /// differ from X, X cannot hold `d`. Only the digit-bands changed since the last call are
    /// looked at. (Rows and columns too, or boxes with four places, cost more than they saved
    /// on the tuning set: BENCHMARKS.)
    #[inline(always)]
    fn box_rule(&mut self, rel: &Relations) {
        let moved = self.done[3 % K];
        self.done[3 % K] = 0;
        for b in 0..3 {
            let mut digits = (moved >> (9 * b)) & ROW;
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let a = self.cand[9 * b + d];
                // A box with d filled keeps the filled cell among its places: skipped.
                let a_open = a & self.open[b];
                for k in 0..3 {
                    let boxed = (7 | 7 << 9 | 7 << 18) << (3 * k);
                    let places = a & boxed;
                    let count = places.count_ones();
                    if !(2..=3).contains(&count) || places & !a_open != 0 {
                        continue;
                    }
                    let mut near = [BAND; 3];
                    let mut same = [BAND; 3];
                    let mut m = places;
                    while m != 0 {
                        let bit = m.trailing_zeros();
                        m &= m - 1;
                        let c = (27 * b + bit as usize) % 81;
                        for o in 0..3 {
                            near[o] &= rel.near[c][o];
                            same[o] &= rel.same[c][o];
                        }
                    }
                    for o in 0..3 {
                        self.cand[9 * o + d] &= !same[o];
                        if d > 0 {
                            self.cand[9 * o + d - 1] &= !near[o];
                        }
                        if d < 8 {
                            self.cand[9 * o + d + 1] &= !near[o];
                        }
                    }
                }
            }
        }
    }

    /// Shrinks digit-band `9·b + d` to the triads on some permutation, fills the rows left with one
    /// cell and takes the columns alone in their box away from the other bands.
    #[inline(always)]
    fn shrink_band(&mut self, b: usize, d: usize) -> Step<()> {
        let (b, d) = (b % 3, d % 9);
        let i = 9 * b + d;
        let a = self.cand[i];
        let a = a & T.perm_cells[occupied(a)];
        if a == 0 {
            return Err(Contradiction);
        }
        // Every row is occupied now, so subtracting 1 from each row borrows only inside the row: what
        // is left of a row after clearing its lowest cell is empty exactly for a row with one cell.
        let multi = nonempty_rows(a & a.wrapping_sub(ROWS));
        // The rows' lone cells, filled ones among them (they hold no other digit, so clearing them
        // again changes nothing): `open` is not read on the way from `a` to the writes.
        let new = a & !multi;
        // Unconditional: with nothing new it changes nothing, and the branch would be mispredicted
        // about a third of the time.
        self.open[b] &= !new;
        self.clear_others(b, d, new);
        let lone = !(u32::from(T.lone_cols[columns(a) as usize]) * ROWS);
        for o in [0, 9, 18] {
            self.cand[o + d] &= lone;
        }
        // Its own band lost nothing to its own lone columns; written last, over that.
        self.cand[i] = a;
        self.shrunk[i] = a;
        Ok(())
    }

    /// Fills the cells of band `b` left with one candidate. Returns whether it filled any.
    ///
    /// # Errors
    /// On an open cell without candidates.
    #[inline(always)]
    fn naked(&mut self, b: usize) -> Step<bool> {
        let open = self.open[b];
        if open == 0 {
            return Ok(false);
        }
        let (mut once, mut twice) = (0, 0);
        for &x in &self.cand[9 * b..9 * b + 9] {
            twice |= once & x;
            once |= x;
        }
        if open & !once != 0 {
            return Err(Contradiction);
        }
        let singles = open & !twice;
        if singles == 0 {
            return Ok(false);
        }
        // Each single's digit read from the bit planes, so that the loop runs over the singles and
        // not over the nine digits (whose exits mispredict).
        let planes = self.planes(b);
        let mut s = singles;
        while s != 0 {
            let bit = s.trailing_zeros();
            s &= s - 1;
            let d = digit(&planes, bit);
            // An earlier single of this round (a peer) may have taken the cell's only digit.
            if self.cand[9 * b + d] & (1 << bit) == 0 {
                return Err(Contradiction);
            }
            self.fill(b, bit, d);
        }
        Ok(true)
    }

    /// The bit planes of band `b`'s digits: bit `k` of a cell's 0-based digit is the cell's bit in
    /// plane `k` (for a cell with one candidate; [`digit`] reads it).
    #[inline(always)]
    fn planes(&self, b: usize) -> [u32; 4] {
        let c = &self.cand[9 * b..9 * b + 9];
        [
            c[1] | c[3] | c[5] | c[7],
            c[2] | c[3] | c[6] | c[7],
            c[4] | c[5] | c[6] | c[7],
            c[8],
        ]
    }

    /// The stack shrink of digit `d`: in each stack, the digit's (band, column) pattern is cut to the
    /// permutations it contains.
    ///
    /// # Errors
    /// When a stack has no permutation left (some column or box without a place for `d`).
    #[inline(always)]
    fn shrink_stacks(&mut self, d: usize) -> Step<()> {
        let c = [
            columns(self.cand[d]),
            columns(self.cand[9 + d]),
            columns(self.cand[18 + d]),
        ];
        let mut allowed = [0u32; 3];
        for s in [0, 3, 6] {
            let q = (c[0] >> s) & 7 | ((c[1] >> s) & 7) << 3 | ((c[2] >> s) & 7) << 6;
            let k = u32::from(T.perm[q as usize]);
            if k == 0 {
                return Err(Contradiction);
            }
            allowed[0] |= (k & 7) << s;
            allowed[1] |= ((k >> 3) & 7) << s;
            allowed[2] |= (k >> 6) << s;
        }
        for (b, &a) in allowed.iter().enumerate() {
            self.cand[9 * b + d] &= a * ROWS;
        }
        Ok(())
    }

    /// Propagates to a fixpoint of band shrinks, naked singles and stack shrinks. Returns whether the
    /// grid is full.
    ///
    /// # Errors
    /// On a dead end.
    #[inline(always)]
    fn propagate(&mut self, rel: &Relations) -> Step<bool> {
        loop {
            let mut dirty = self.dirty();
            while dirty != 0 {
                self.moved |= dirty;
                if K > 0 {
                    self.done[3 % K] |= dirty;
                    self.done[4 % K] |= dirty;
                }
                // A digit-band changed again after its shrink in this round is in the next one; one
                // changed before its turn is shrunk once, as it is then.
                // One loop over all 27 (not one a band): its exit is mispredicted once a round.
                // Each shrink writes its band's nine digits and its digit's three bands, so the
                // next one read is the first dirty one from the next band's next digit on (bit
                // i + 10, wrapping): it seldom reads what the last one wrote, and the CPU can run
                // them side by side instead of waiting for each (BENCHMARKS).
                let (mut left, mut from) = (dirty, 0);
                while left != 0 {
                    let i = after(left, from);
                    left &= !(1 << i);
                    self.shrink_band(i as usize / 9, i as usize % 9)?;
                    from = next_from(i);
                }
                dirty = self.dirty();
            }
            // Under relations, after the shrinks (`dirty` is 0): the filled cells' partners, and
            // the shrinks again if they took a candidate.
            if K > 0 && self.relate(rel)? {
                continue;
            }
            if self.open == [0; 3] {
                // Every fill removed its digit from the peers and the other digits from the cell, so
                // a full board is a solution.
                return Ok(true);
            }
            let mut filled = false;
            for b in 0..3 {
                filled |= self.naked(b)?;
            }
            if filled {
                continue;
            }
            let moved = self.moved | self.moved >> 9 | self.moved >> 18;
            self.moved = 0;
            let mut moved = moved & ROW;
            while moved != 0 {
                let d = moved.trailing_zeros() as usize;
                moved &= moved - 1;
                self.shrink_stacks(d)?;
            }
            if K > 0 && rel.consecutive && self.dirty() == 0 {
                self.windows(rel);
            }
            if K > 0 && self.dirty() == 0 {
                self.box_rule(rel);
            }
            if self.dirty() == 0 {
                return Ok(false);
            }
        }
    }

    /// The cell to branch on, as (band, bit): among the cells with two candidates, the one with the
    /// most open peers (first in reading order among equals); without such a cell, the first with the
    /// fewest candidates, or under relations the one of those with the most open peers (fewer
    /// nodes on minimal non-consecutive puzzles: BENCHMARKS). Only called on a propagated board
    /// that is not full (every open cell has two or more candidates).
    ///
    /// A bivalue cell with many open peers propagates furthest either way: on the hard sets this
    /// branches about 40% less often than taking the first bivalue cell.
    #[inline(always)]
    fn pick(&self, rel: &Relations) -> (usize, u32) {
        // The best bivalue cell so far as a key, compared without a branch: its open peers, then
        // 127 less its index (so the first in reading order wins among equals); 0 for none.
        let mut best = 0u32;
        for b in 0..3 {
            let (mut once, mut twice, mut thrice) = (0, 0, 0);
            for &x in &self.cand[9 * b..9 * b + 9] {
                thrice |= twice & x;
                twice |= once & x;
                once |= x;
            }
            best = best.max(self.best_key(rel, b, self.open[b] & twice & !thrice));
        }
        if best != 0 {
            return cell_of(best);
        }
        // No bivalue cell: count candidates bit-sliced (4 bit planes per band), take the smallest count.
        let mut planes = [[0u32; 4]; 3];
        for (b, p) in planes.iter_mut().enumerate() {
            for &x in &self.cand[9 * b..9 * b + 9] {
                let mut carry = x & self.open[b];
                for plane in p.iter_mut() {
                    let next = *plane & carry;
                    *plane ^= carry;
                    carry = next;
                }
            }
        }
        for k in 3..=9u32 {
            let mut best = 0u32;
            for (b, p) in planes.iter().enumerate() {
                let mut eq = self.open[b];
                for (j, plane) in p.iter().enumerate() {
                    eq &= if k >> j & 1 == 1 { *plane } else { !*plane };
                }
                if K == 0 && eq != 0 {
                    return (b, eq.trailing_zeros());
                }
                best = best.max(self.best_key(rel, b, eq));
            }
            if best != 0 {
                return cell_of(best);
            }
        }
        unreachable!("pick on a full or contradictory board")
    }

    /// The largest [`Board::key`] of the cells `cells` of band `b` (0 for none).
    #[inline(always)]
    fn best_key(&self, rel: &Relations, b: usize, cells: u32) -> u32 {
        let (mut best, mut left) = (0, cells);
        while left != 0 {
            let bit = left.trailing_zeros();
            left &= left - 1;
            best = best.max(self.key(rel, b, bit));
        }
        best
    }

    /// [`Board::pick`]'s key of the open cell `bit` of band `b`: its open peers (under
    /// non-consecutive pairs, each open partner counted twice more), then 127 less its index, so
    /// that the larger key wins and the first in reading order among equals; never 0.
    #[inline(always)]
    fn key(&self, rel: &Relations, b: usize, bit: u32) -> u32 {
        let [o1, o2] = OTHER[b % 3];
        let col = T.column[bit as usize & 31];
        let mut degree = (self.open[b % 3] & T.band_peers[bit as usize & 31]).count_ones()
            + (self.open[o1] & col).count_ones()
            + (self.open[o2] & col).count_ones();
        if K > 0 {
            let next = &rel.next[(27 * b + bit as usize) % 81];
            degree += 2
                * ((self.open[0] & next[0]).count_ones()
                    + (self.open[1] & next[1]).count_ones()
                    + (self.open[2] & next[2]).count_ones());
        }
        (degree + 1) << 7 | (127 - (27 * b as u32 + bit))
    }

    /// The smallest candidate digit of a cell.
    fn lowest(&self, b: usize, bit: u32) -> usize {
        (0..9)
            .find(|&d| self.cand[9 * b + d] & (1 << bit) != 0)
            .expect("an open cell of a propagated board has candidates")
    }

    /// The candidate digit of a cell numbered `pick` modulo their count, in increasing order.
    fn random(&self, b: usize, bit: u32, pick: u64) -> usize {
        let mut digits = [0usize; 9];
        let mut k = 0;
        for (d, &m) in self.cand[9 * b..9 * b + 9].iter().enumerate() {
            if m & (1 << bit) != 0 {
                digits[k] = d;
                k += 1;
            }
        }
        digits[(pick % k as u64) as usize]
    }

    /// The values of a full board, row-major, 1-based. Inlined into the search, so that the fast
    /// build's bit scans serve it too.
    #[inline(always)]
    fn values(&self) -> Vec<u16> {
        // Bit `bit` of band `b` is cell `27·b + bit`; the padding past cell 80 lets a bit index
        // masked by 31 need no other bounds check.
        let mut out = [0u16; 27 * 2 + 32];
        for (b, band) in self.cand[..27].chunks_exact(9).enumerate() {
            for (d, &m) in band.iter().enumerate() {
                // A full band holds each digit once in each of its three rows.
                debug_assert_eq!(m.count_ones(), 3);
                let mut m = m;
                for _ in 0..3 {
                    out[27 * b + (m.trailing_zeros() & 31) as usize] = d as u16 + 1;
                    m &= m.wrapping_sub(1);
                }
            }
        }
        out[..81].to_vec()
    }
}

/// The search: what it found (solutions, whether it gave up, the work) and its bounds.
struct Search<'a, const K: usize> {
    /// The pairwise relations (none when `K` is 0).
    rel: &'a Relations,
    bounds: Bounds<'a>,
    found: Found,
    /// The random value order's stream, if branches take a random digit of their cell.
    shuffle: Option<u64>,
}

impl<const K: usize> Search<'_, K> {
    /// Searches below `board` (not yet propagated). Returns whether to stop: the solution limit was
    /// reached or a limit ran out.
    fn search(&mut self, board: &mut Board<K>) -> bool {
        self.step::<false>(board)
    }

    /// [`Search::search`] compiled for the CPU features of [`super::cpu::fast_cpu`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    fn search_fast(&mut self, board: &mut Board<K>) -> bool {
        self.step::<true>(board)
    }

    /// [`Search::search`] on the `FAST` build or the baseline one.
    #[inline(always)]
    fn descend<const FAST: bool>(&mut self, board: &mut Board<K>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: `FAST` only under `run_fast`, entered when `fast_cpu` found the features
            // `search_fast` is compiled for.
            return unsafe { self.search_fast(board) };
        }
        self.search(board)
    }

    /// The search's body; its recursion stays on the `FAST` build it was entered on.
    #[inline(always)]
    fn step<const FAST: bool>(&mut self, board: &mut Board<K>) -> bool {
        loop {
            // The generic path's limit checks, with its clock interval for 81 cells.
            if out_of_limits(&self.bounds, self.found.stats.nodes, 1023) {
                self.found.gave_up = true;
                return true;
            }
            self.found.stats.nodes += 1;
            match board.propagate(self.rel) {
                Err(Contradiction) => return false,
                Ok(true) => {
                    let grid = || {
                        let shape = Shape::new(3, 3).expect("3x3 is a valid box shape");
                        let values = board.values();
                        // A full board's values are 1..=9 (its digits d + 1, d < 9).
                        Grid::from_search(shape, values)
                    };
                    return self.found.solutions.add_with(grid);
                }
                Ok(false) => {}
            }
            let (b, bit) = board.pick(self.rel);
            let d = match &mut self.shuffle {
                None => board.lowest(b, bit),
                Some(rng) => board.random(b, bit, splitmix(rng)),
            };
            self.found.stats.guesses += 1;
            let mut child = *board;
            child
                .assign(b, bit, d)
                .expect("the digit is a candidate of the cell");
            if self.descend::<FAST>(&mut child) {
                return true;
            }
            // The parent keeps the other candidates and is propagated again (a node of its own).
            board.cand[9 * b + d] &= !(1 << bit);
        }
    }
}

/// Searches a 9x9 `puzzle` under the standard units (and `rel`'s pairs, if any) within `limits`.
pub(crate) fn run(
    puzzle: &Grid,
    rel: Option<&Relations>,
    exclude: &[(usize, u16)],
    limits: &Limits,
    bounds: &Bounds,
) -> Report {
    let args = (puzzle, exclude, limits, bounds);
    #[cfg(target_arch = "x86_64")]
    if super::cpu::fast_cpu() {
        // SAFETY: the CPU has every feature `run_fast` is compiled for.
        return unsafe { run_fast(rel, args) };
    }
    match rel {
        None => run_with::<0, false>(&NO_RELATIONS, args),
        Some(rel) => run_with::<5, false>(rel, args),
    }
}

/// What [`run`] passes on: the puzzle, the excluded digits, the limits and the bounds.
type Args<'a, 'b> = (&'a Grid, &'a [(usize, u16)], &'a Limits, &'a Bounds<'b>);

/// [`run`] compiled for the features of [`super::cpu::fast_cpu`] (the same code; only the
/// instructions differ).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
fn run_fast(rel: Option<&Relations>, args: Args<'_, '_>) -> Report {
    match rel {
        None => run_with::<0, true>(&NO_RELATIONS, args),
        Some(rel) => run_with::<5, true>(rel, args),
    }
}

/// [`run`] on boards with `K` relation masks per band; `FAST` under [`run_fast`].
#[inline(always)]
fn run_with<const K: usize, const FAST: bool>(rel: &Relations, args: Args<'_, '_>) -> Report {
    let (puzzle, exclude, limits, bounds) = args;
    debug_assert_eq!(puzzle.shape(), Shape::new(3, 3).unwrap());
    let mut search = Search::<K> {
        rel,
        bounds: *bounds,
        found: Found::new(limits),
        shuffle: bounds.shuffle(),
    };
    let mut board = Board::<K>::new();
    // Givens placed one by one, each taking its digit from its peers; two equal givens in a unit
    // fail here. Each band's givens are found as a bit mask first ([`filled_bits`]: no branch per
    // cell: which cells hold givens is unpredictable), and the other digits leave them all at once
    // after (not given by given: each would wait for the last one's writes to the same band).
    let mut clash = false;
    for (b, band) in puzzle.values().chunks_exact(27).enumerate() {
        let filled = filled_bits(band);
        let mut given = [0u32; 9];
        let mut left = filled;
        while left != 0 {
            let bit = left.trailing_zeros();
            left &= left - 1;
            let d = usize::from(band[bit as usize % 27]).wrapping_sub(1) % 9;
            clash |= board.cand[9 * b + d] & (1 << bit) == 0;
            board.fill(b, bit, d);
            given[d] |= 1 << bit;
        }
        for (x, &g) in board.cand[9 * b..9 * b + 9].iter_mut().zip(&given) {
            *x &= !filled | g;
        }
    }
    // Excluded digits leave their (open) cells; one excluded from its given is a dead end.
    for &(i, v) in exclude {
        let (b, bit, d) = (i / 27, (i % 27) as u32, usize::from(v) - 1);
        clash |= puzzle.values()[i] == v;
        board.cand[9 * b + d] &= !(1 << bit);
    }
    if !clash {
        search.descend::<FAST>(&mut board);
    }
    let Found {
        solutions,
        gave_up,
        stats,
    } = search.found;
    Report::new(solutions.finish(gave_up), stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3x3 pattern (bit `3·r + k`) of row `r` → column `k` for each row.
    fn pattern(cols: [usize; 3]) -> u16 {
        (0..3).map(|r| 1 << (3 * r + cols[r])).sum()
    }

    #[test]
    fn permutation_table() {
        // All nine triads: every permutation, so all survive; one permutation: itself.
        assert_eq!(T.perm[511], 511);
        assert_eq!(T.perm[pattern([2, 0, 1]) as usize], pattern([2, 0, 1]));
        // Two permutations' union plus a stray triad: the stray one goes.
        let two = pattern([0, 1, 2]) | pattern([1, 0, 2]);
        assert_eq!(T.perm[(two | 1 << 5) as usize], two);
        // A row with no triad, or two rows confined to one box: no permutation.
        assert_eq!(T.perm[0b000_111_111], 0);
        assert_eq!(T.perm[0b111_001_001], 0);
        // The cell masks follow the triads.
        assert_eq!(
            T.perm_cells[folded_index(pattern([0, 1, 2]).into())],
            7 | 7 << 12 | 7 << 24
        );
        // r1c2 and r1c9 (boxes 1 and 3 of row 1): folded bits 0 and 6.
        assert_eq!(occupied(1 << 1 | 1 << 8), 0b1_000_001);
        // Every band mask of a few cells: the triads found one by one, folded.
        let mut rng = 3u64;
        for _ in 0..5000 {
            let a = (splitmix(&mut rng) & splitmix(&mut rng)) as u32 & BAND;
            let mut p = 0;
            for tr in 0..9 {
                if a >> (3 * tr) & 7 != 0 {
                    p |= 1 << tr;
                }
            }
            assert_eq!(occupied(a), folded_index(p), "{a:#b}");
        }
        assert_eq!(T.lone_cols[0b100_011_010], 0b100_000_010);
        // r1c1's band peers: its row (8), its box's other 4 cells, its column's 2: 14 in all.
        assert_eq!(T.band_peers[0].count_ones(), 14);
        assert_eq!(T.band_peers[0] & 1, 0);
    }

    #[test]
    fn assign_clears_the_cell_and_the_peers() {
        let mut b = Board::<0>::new();
        // Digit 5 (0-based 4) in r2c5: band 0, bit 13.
        b.assign(0, 13, 4).unwrap();
        assert_eq!(b.open[0] & 1 << 13, 0);
        for d in 0..9 {
            assert_eq!(b.cand[d] & 1 << 13 != 0, d == 4);
        }
        // Digit 5 left row 2, box 2 and column 5 (also in bands 1 and 2) but not r1c1 or r5c1.
        assert_eq!(b.cand[4] & (ROW << 9 | 7 << 3 | 7 << 21), 1 << 13);
        assert_eq!(b.cand[9 + 4] & ROWS << 4, 0);
        assert_eq!(b.cand[18 + 4] & ROWS << 4, 0);
        assert_ne!(b.cand[4] & 1, 0);
        assert_ne!(b.cand[9 + 4] & 1 << 9, 0);
        // Digit 5 again in a peer (r2c1) is a contradiction, digit 6 there is not.
        assert_eq!(b.assign(0, 9, 4), Err(Contradiction));
        b.assign(0, 9, 5).unwrap();
    }

    #[test]
    fn propagation_finds_hidden_and_naked_singles() {
        // Row 1 = 1..8 and an empty r1c9: a naked single (9), filled by propagation alone.
        let mut b = Board::<0>::new();
        for c in 0..8 {
            b.assign(0, c, c as usize).unwrap();
        }
        assert_eq!(b.propagate(&NO_RELATIONS), Ok(false));
        assert_eq!(b.open[0] & 1 << 8, 0);
        assert_ne!(b.cand[8] & 1 << 8, 0);
        // Digit 1 in r4c2, r7c3, r2c4, r3c7: in box 1 only r1c1 is left for it (hidden single), given
        // r2 and r3 hold 1 elsewhere and columns 2 and 3 too.
        let mut b = Board::<0>::new();
        for (band, bit) in [(1, 1), (2, 2), (0, 12), (0, 24)] {
            b.assign(band, bit, 0).unwrap();
        }
        assert_eq!(b.propagate(&NO_RELATIONS), Ok(false));
        assert_eq!(b.cand[0] & 7, 1);
        assert_eq!(b.open[0] & 1, 0);
    }

    #[test]
    fn pick_prefers_a_bivalue_cell() {
        let mut b = Board::<0>::new();
        // r1c1 keeps digits 1 and 2 only.
        for d in 2..9 {
            b.cand[d] &= !1;
        }
        assert_eq!(b.pick(&NO_RELATIONS), (0, 0));
        assert_eq!(b.lowest(0, 0), 0);
    }

    #[test]
    fn nonempty_rows_matches_a_row_by_row_test() {
        // Every pattern of one row, in each of the three rows, with the other rows varied.
        for x in 0..512u32 {
            for (r, others) in [(0, 0x155 << 9), (9, 1 << 26), (18, 0)] {
                let a = x << r | others;
                let mut want = 0;
                for s in [0, 9, 18] {
                    if a & ROW << s != 0 {
                        want |= ROW << s;
                    }
                }
                assert_eq!(nonempty_rows(a), want, "{a:#x}");
            }
        }
    }

    #[test]
    fn the_shrink_order_visits_each_dirty_band_once_and_leaves_the_last_one_alone() {
        // The order of `propagate`'s pass.
        let order = |dirty: u32| {
            let (mut left, mut from, mut out) = (dirty, 0, Vec::new());
            while left != 0 {
                let i = after(left, from);
                assert!(left >> i & 1 == 1);
                left &= !(1 << i);
                out.push(i);
                from = next_from(i);
            }
            out
        };
        let all = order((1 << 27) - 1);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..27).collect::<Vec<_>>());
        // With every digit-band dirty, each shrink's band and digit differ from the last one's.
        for w in all.windows(2) {
            assert!(w[0] / 9 != w[1] / 9 && w[0] % 9 != w[1] % 9, "{w:?}");
        }
        let mut rng = 11u64;
        for _ in 0..500 {
            let dirty = splitmix(&mut rng) as u32 & ((1 << 27) - 1);
            let mut seen = order(dirty);
            assert_eq!(seen.len(), dirty.count_ones() as usize);
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.iter().fold(0, |m, &i| m | 1 << i), dirty);
        }
    }

    #[test]
    fn dirty_names_exactly_the_changed_digit_bands() {
        let mut b = Board::<0>::new();
        b.shrunk = b.cand;
        assert_eq!(b.dirty(), 0);
        for i in [0, 3, 4, 8, 13, 26] {
            b.cand[i] &= !1;
        }
        assert_eq!(b.dirty(), 1 | 1 << 3 | 1 << 4 | 1 << 8 | 1 << 13 | 1 << 26);
    }

    /// `windows` looks only at the bands changed since its last run: at every quiet board of the
    /// first few thousand nodes of searches under non-consecutive pairs (sparse givens of a
    /// solution, every candidate of the branching cell tried), running it on all three bands
    /// takes nothing more. Fails if a band's change is not recorded for the windows.
    #[test]
    fn windows_on_the_changed_bands_leaves_nothing_for_the_others() {
        use crate::{Units, Variant};
        /// Checks every quiet board below `board`, within `budget` nodes.
        fn walk(board: &mut Board<5>, rel: &Relations, budget: &mut u32) {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            if board.propagate(rel) != Ok(false) {
                return;
            }
            let mut all = *board;
            all.done[4] = BAND;
            all.windows(rel);
            assert_eq!(all.cand, board.cand);
            let (b, bit) = board.pick(rel);
            for d in 0..9 {
                if board.cand[9 * b + d] & (1 << bit) != 0 {
                    let mut child = *board;
                    child.assign(b, bit, d).unwrap();
                    walk(&mut child, rel, budget);
                }
            }
        }
        let s9 = Shape::new(3, 3).unwrap();
        let units = Units::rules(s9)
            .variant(Variant::NonConsecutive)
            .build()
            .unwrap();
        let rel = Relations::of(&units).unwrap();
        for seed in 1..=4 {
            let full = crate::testing::random_solution(&units, seed);
            let mut board = Board::<5>::new();
            for i in (0..81).step_by(11) {
                let d = usize::from(full.values()[i] - 1);
                board.assign(i / 27, (i % 27) as u32, d).unwrap();
            }
            walk(&mut board, &rel, &mut 3_000);
        }
    }

    #[test]
    fn excluded_digits_count_alike_on_both_paths_under_relations() {
        use crate::{DfsBackend, Limits, Units, Variant};
        let s9 = Shape::new(3, 3).unwrap();
        for v in [Variant::NonConsecutive, Variant::AntiKing] {
            let units = Units::rules(s9).variant(v).build().unwrap();
            let full = crate::testing::random_solution(&units, 5);
            // Ten givens of the solution, then each of cells 0..20 with its digit excluded (a
            // given among them excluded from itself: no solution).
            let mut values = vec![0u16; 81];
            for i in (0..81).step_by(8) {
                values[i] = full.values()[i];
            }
            let puzzle = Grid::from_values(s9, values).unwrap();
            for i in 0..20 {
                let exclude = [(i, full.values()[i])];
                let limits = Limits::count_to(30);
                let count = |dfs: DfsBackend| {
                    let r = dfs.solve_excluding(&units, &puzzle, &exclude, &limits);
                    let o = r.unwrap().outcome;
                    if let Some(g) = o.solution() {
                        crate::verify::verify(&units, &puzzle, g).unwrap();
                        assert_ne!(g.values()[i], full.values()[i]);
                    }
                    o.count()
                };
                assert_eq!(
                    count(DfsBackend::new()),
                    count(DfsBackend::generic_only()),
                    "{v:?} {i}"
                );
            }
        }
    }
}
