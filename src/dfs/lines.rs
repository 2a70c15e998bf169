//! The native backend's reasoning about the primitives clues lower into (besides groups, which are
//! extra peers): relations given as tables of digit pairs, weighted sums and lines (automata), and
//! the cells' candidate sets (applied once, when the givens are loaded).
//!
//! - **Pairs**: arc consistency (Mackworth 1977): a digit of one cell stays only if the other cell
//!   has a candidate that goes with it, read from a per-digit mask of supports.
//! - **Sums**: the partial sums reachable from the left, as bit sets, then from the right: a digit
//!   stays if it links a reachable partial sum to one that can still end in an allowed total (the
//!   dynamic program of subset sum, on bit sets; exact for a single sum, as the search's derived
//!   sums of the rule of 45).
//! - **Lines**: the layered automaton's nodes reachable from the start over the cells' candidates,
//!   then those that reach the end: a digit stays if it labels an edge between the two (Pesant 2004,
//!   "A regular language membership constraint for finite sequences of variables": generalised arc
//!   consistency for the line).
//!
//! Digit sets are the low 64 bits of the masks: clues are refused on grids above 64 digits.

use std::sync::Arc;

use super::mask::Mask;
use super::rules::{Narrowed, narrow};
use super::step::{Contradiction, Step};
use crate::automaton::Layered;
use crate::units::Units;

/// A relation's supports: for each digit of the first cell, the digits the second may hold
/// (`forward`), and conversely (`backward`).
#[derive(Debug, PartialEq, Eq)]
struct PairTable {
    forward: Box<[u64]>,
    backward: Box<[u64]>,
}

/// One weighted sum, as the search reads it.
#[derive(Debug, PartialEq, Eq)]
struct SumProp {
    cells: Box<[u32]>,
    /// Per cell, per digit: the weight less the cell's smallest weight (never negative).
    weights: Box<[Box<[u32]>]>,
    /// The allowed totals less the sum of the smallest weights, as a bit set of `words` words.
    totals: Box<[u64]>,
    /// Words of a bit set of partial sums (the range of the sum).
    words: usize,
}

/// One line, as the search reads it.
#[derive(Debug, PartialEq, Eq)]
struct LineProp {
    cells: Box<[u32]>,
    graph: Arc<Layered>,
}

/// The primitives of clues, flattened for the search.
#[derive(Debug, PartialEq, Eq, Default)]
pub(crate) struct ClueRules {
    /// (first cell, second cell, table).
    pairs: Box<[(u32, u32, u32)]>,
    tables: Box<[PairTable]>,
    sums: Box<[SumProp]>,
    lines: Box<[LineProp]>,
    /// Per cell with one, its candidate set (cell, digits).
    pub candidates: Box<[(u32, u64)]>,
}

impl ClueRules {
    /// The primitives of `units` other than the variants' (those `rules.rs` handles).
    pub(crate) fn build(units: &Units) -> ClueRules {
        let n = units.shape().n();
        let value = |d: usize| units.value(d as u16 + 1);
        let mut kinds = Vec::new();
        let mut tables = Vec::new();
        let mut pairs = Vec::new();
        for r in units.relations().iter().filter(|r| !r.kind.is_variant()) {
            let t = match kinds.iter().position(|&k| k == r.kind) {
                Some(t) => t,
                None => {
                    let mut forward = vec![0u64; n];
                    let mut backward = vec![0u64; n];
                    for (a, f) in forward.iter_mut().enumerate() {
                        for (b, bw) in backward.iter_mut().enumerate() {
                            if r.kind.allows(value(a), value(b)) {
                                *f |= 1 << b;
                                *bw |= 1 << a;
                            }
                        }
                    }
                    kinds.push(r.kind);
                    tables.push(PairTable {
                        forward: forward.into(),
                        backward: backward.into(),
                    });
                    tables.len() - 1
                }
            };
            pairs.push((r.a.index() as u32, r.b.index() as u32, t as u32));
        }
        let sums = units
            .sums()
            .iter()
            .map(|s| {
                let low: Vec<i32> = s
                    .weights
                    .iter()
                    .map(|w| w.iter().copied().min().unwrap_or(0))
                    .collect();
                let weights: Vec<Box<[u32]>> = s
                    .weights
                    .iter()
                    .zip(&low)
                    .map(|(w, &l)| w.iter().map(|&x| (x - l) as u32).collect())
                    .collect();
                let span: u64 = weights
                    .iter()
                    .map(|w| u64::from(w.iter().copied().max().unwrap_or(0)))
                    .sum();
                let words = ((span + 1).div_ceil(64) as usize).max(1);
                let base: i64 = low.iter().map(|&l| i64::from(l)).sum();
                let mut totals = vec![0u64; words];
                for &t in &s.totals {
                    let bit = i64::from(t) - base;
                    if (0..(words * 64) as i64).contains(&bit) {
                        totals[bit as usize / 64] |= 1 << (bit % 64);
                    }
                }
                SumProp {
                    cells: s.cells.iter().map(|c| c.index() as u32).collect(),
                    weights: weights.into(),
                    totals: totals.into(),
                    words,
                }
            })
            .collect();
        let lines = units
            .lines()
            .iter()
            .map(|l| LineProp {
                cells: l.cells.iter().map(|c| c.index() as u32).collect(),
                graph: l.graph.clone(),
            })
            .collect();
        let candidates = units
            .candidates()
            .iter()
            .map(|&(c, set)| (c.index() as u32, set.words()[0]))
            .collect();
        ClueRules {
            pairs: pairs.into(),
            tables: tables.into(),
            sums,
            lines,
            candidates,
        }
    }

    /// Whether there is nothing here.
    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
            && self.sums.is_empty()
            && self.lines.is_empty()
            && self.candidates.is_empty()
    }

    /// The number of sums and lines, each with a signature in [`Narrowed::seen`] (after the
    /// cages' and derived sums' signatures, from `base`).
    pub(crate) fn constraints(&self) -> usize {
        self.sums.len() + self.lines.len()
    }

    /// One pass over the pairs, sums and lines; signatures from `out.seen[base..]`.
    pub(crate) fn prune<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        base: usize,
    ) -> Step<bool> {
        let mut changed = false;
        for &(a, b, t) in self.pairs.iter() {
            let table = &self.tables[t as usize];
            changed |= pair(table, a as usize, b as usize, cand, vals, out)?;
        }
        let cached = out.seen.len() >= base + self.constraints();
        for (k, sum) in self.sums.iter().enumerate() {
            let sig = if cached {
                super::rules::signature(sum.cells.iter(), &sum.cells, cand, vals)
            } else {
                None
            };
            if sig.is_some() && sig == Some(out.seen[base + k]) {
                continue;
            }
            match sum.prune(n, cand, vals, out) {
                Ok(c) => {
                    changed |= c;
                    if let (false, Some(s)) = (c, sig) {
                        out.seen[base + k] = s;
                    }
                }
                Err(e) => {
                    out.blame.extend_from_slice(&sum.cells);
                    return Err(e);
                }
            }
        }
        let base = base + self.sums.len();
        for (k, line) in self.lines.iter().enumerate() {
            let sig = if cached {
                super::rules::signature(line.cells.iter(), &line.cells, cand, vals)
            } else {
                None
            };
            if sig.is_some() && sig == Some(out.seen[base + k]) {
                continue;
            }
            match line.prune(cand, vals, out) {
                Ok(c) => {
                    changed |= c;
                    if let (false, Some(s)) = (c, sig) {
                        out.seen[base + k] = s;
                    }
                }
                Err(e) => {
                    out.blame.extend_from_slice(&line.cells);
                    return Err(e);
                }
            }
        }
        Ok(changed)
    }
}

/// The digits cell `c` may hold: its candidates, or its digit once placed.
#[inline]
fn domain<M: Mask>(cand: &[M], vals: &[u16], c: usize) -> u64 {
    match vals[c] {
        0 => cand[c].low_bits(),
        v => 1 << (v - 1),
    }
}

/// Narrows cell `c` to `keep` if open, or fails if its placed digit is not kept.
#[inline]
fn keep_only<M: Mask>(
    cand: &mut [M],
    vals: &[u16],
    out: &mut Narrowed<'_, M>,
    c: usize,
    keep: u64,
) -> Step<bool> {
    match vals[c] {
        0 => narrow(cand, out, c, keep),
        v if keep >> (v - 1) & 1 == 1 => Ok(false),
        _ => Err(Contradiction),
    }
}

/// The union of `table[d]` over the digits d of `m`.
#[inline]
fn supports(table: &[u64], mut m: u64) -> u64 {
    let mut s = 0;
    while m != 0 {
        let d = m.trailing_zeros() as usize;
        m &= m - 1;
        s |= table.get(d).copied().unwrap_or(0);
    }
    s
}

/// One relation made arc-consistent.
fn pair<M: Mask>(
    table: &PairTable,
    a: usize,
    b: usize,
    cand: &mut [M],
    vals: &[u16],
    out: &mut Narrowed<'_, M>,
) -> Step<bool> {
    let da = domain(cand, vals, a);
    let db = domain(cand, vals, b);
    let kb = supports(&table.forward, da);
    let mut changed = keep_only(cand, vals, out, b, kb)?;
    let db = db & kb;
    let ka = supports(&table.backward, db);
    changed |= keep_only(cand, vals, out, a, ka)?;
    Ok(changed)
}

/// `dst |= src << by` over bit sets of equal length.
fn or_shifted(dst: &mut [u64], src: &[u64], by: usize) {
    let (w, b) = (by / 64, by % 64);
    for i in (w..dst.len()).rev() {
        let j = i - w;
        let mut x = src[j] << b;
        if b > 0 && j > 0 {
            x |= src[j - 1] >> (64 - b);
        }
        dst[i] |= x;
    }
}

/// Whether `a` and `b << by` share a bit.
fn meets_shifted(a: &[u64], b: &[u64], by: usize) -> bool {
    let (w, s) = (by / 64, by % 64);
    for i in w..a.len() {
        let j = i - w;
        let mut x = b[j] << s;
        if s > 0 && j > 0 {
            x |= b[j - 1] >> (64 - s);
        }
        if a[i] & x != 0 {
            return true;
        }
    }
    false
}

impl SumProp {
    /// Keeps each digit that links a partial sum reachable from the left to one from which the rest
    /// can reach an allowed total.
    fn prune<M: Mask>(
        &self,
        _n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let k = self.cells.len();
        let w = self.words;
        // forward[i]: partial sums of the first i cells (less their smallest weights). The buffer
        // is taken out of `out` for the pass (and left empty if it fails).
        let mut buffer = std::mem::take(out.scratch);
        let scratch = &mut buffer;
        scratch.clear();
        scratch.resize((k + 1) * w + 2 * w, 0);
        let (forward, rest) = scratch.split_at_mut((k + 1) * w);
        let (back, next) = rest.split_at_mut(w);
        forward[0] = 1;
        for i in 0..k {
            let (done, todo) = forward.split_at_mut((i + 1) * w);
            let src = &done[i * w..];
            let dst = &mut todo[..w];
            let mut m = domain(cand, vals, self.cells[i] as usize);
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(&by) = self.weights[i].get(d) {
                    or_shifted(dst, src, by as usize);
                }
            }
        }
        // back: the partial sums after i cells from which an allowed total is reachable.
        for (b, (&f, &t)) in back
            .iter_mut()
            .zip(forward[k * w..].iter().zip(self.totals.iter()))
        {
            *b = f & t;
        }
        if back.iter().all(|&x| x == 0) {
            return Err(Contradiction);
        }
        let mut changed = false;
        for i in (0..k).rev() {
            let c = self.cells[i] as usize;
            let src = &forward[i * w..(i + 1) * w];
            let mut keep = 0u64;
            let mut m = domain(cand, vals, c);
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let Some(&by) = self.weights[i].get(d) else {
                    continue;
                };
                if meets_shifted(back, src, by as usize) {
                    keep |= 1 << d;
                }
            }
            changed |= keep_only(cand, vals, out, c, keep)?;
            // The partial sums before cell i that lead on: back >> weight, over the digits kept.
            next.iter_mut().for_each(|x| *x = 0);
            let mut m = keep;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let by = self.weights[i][d] as usize;
                let (wd, b) = (by / 64, by % 64);
                for j in 0..w {
                    let hi = j + wd;
                    if hi >= w {
                        break;
                    }
                    let mut x = back[hi] >> b;
                    if b > 0 && hi + 1 < w {
                        x |= back[hi + 1] << (64 - b);
                    }
                    next[j] |= x;
                }
            }
            for (b, (&x, &f)) in back.iter_mut().zip(next.iter().zip(src)) {
                *b = x & f;
            }
        }
        *out.scratch = buffer;
        Ok(changed)
    }
}

impl LineProp {
    /// Keeps each digit that labels an edge between a node reachable from the start and one that
    /// reaches the end, over the cells' candidates.
    fn prune<M: Mask>(&self, cand: &mut [M], vals: &[u16], out: &mut Narrowed<'_, M>) -> Step<bool> {
        let g = &*self.graph;
        let k = g.len();
        if g.rejects_all() {
            return Err(Contradiction);
        }
        // Node marks per layer, as bytes: bit 0 reachable from the start, bit 1 reaching the end.
        // The buffer is taken out of `out` for the pass (and left empty if it fails).
        let mut buffer = std::mem::take(out.marks);
        let scratch = &mut buffer;
        scratch.clear();
        let mut offset = Vec::with_capacity(k + 2);
        let mut total = 0;
        for i in 0..=k {
            offset.push(total);
            total += g.nodes(i);
        }
        offset.push(total);
        scratch.resize(total, 0);
        scratch[0] = 1;
        let doms: Vec<u64> = self
            .cells
            .iter()
            .map(|&c| domain(cand, vals, c as usize))
            .collect();
        for (i, &dom) in doms.iter().enumerate() {
            let (from, to) = (offset[i], offset[i + 1]);
            for e in g.edges(i) {
                if dom >> e.digit & 1 == 1 && scratch[from + e.from as usize] & 1 == 1 {
                    scratch[to + e.to as usize] |= 1;
                }
            }
        }
        if scratch[offset[k]] & 1 == 0 {
            return Err(Contradiction);
        }
        scratch[offset[k]] |= 2;
        let mut changed = false;
        for i in (0..k).rev() {
            let (from, to) = (offset[i], offset[i + 1]);
            let mut keep = 0u64;
            for e in g.edges(i) {
                if doms[i] >> e.digit & 1 == 1
                    && scratch[from + e.from as usize] & 1 == 1
                    && scratch[to + e.to as usize] & 2 == 2
                {
                    keep |= 1 << e.digit;
                    scratch[from + e.from as usize] |= 2;
                }
            }
            changed |= keep_only(cand, vals, out, self.cells[i] as usize, keep)?;
        }
        *out.marks = buffer;
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clue::Clue;
    use crate::grid::{Cell, Shape};

    #[derive(Default)]
    struct Bufs {
        queue: Vec<u32>,
        removed: Vec<(u32, u16)>,
        blame: Vec<u32>,
        seen: Vec<u64>,
        scratch: Vec<u64>,
        marks: Vec<u8>,
    }

    impl Bufs {
        fn narrowed(&mut self) -> Narrowed<'_, u16> {
            Narrowed {
                queue: &mut self.queue,
                removed: &mut self.removed,
                blame: &mut self.blame,
                seen: &mut self.seen,
                scratch: &mut self.scratch,
                marks: &mut self.marks,
            }
        }
    }

    fn rules(clues: Vec<Clue>) -> (Units, ClueRules) {
        let shape = Shape::new(2, 2).unwrap();
        let mut b = Units::rules(shape);
        for c in clues {
            b = b.clue(c);
        }
        let units = b.build().unwrap();
        let r = ClueRules::build(&units);
        (units, r)
    }

    fn at(r: usize, c: usize) -> Cell {
        Cell::at(Shape::new(2, 2).unwrap(), r, c)
    }

    #[test]
    fn a_little_killer_prunes_by_partial_sums() {
        // r1c1 + r2c2 + r3c3 = 11 on 1-4 (values may repeat): each cell is at least 3.
        let (_, r) = rules(vec![Clue::LittleKiller {
            sum: 11,
            cells: vec![at(0, 0), at(1, 1), at(2, 2)],
        }]);
        let mut cand = vec![0b1111u16; 16];
        let vals = vec![0u16; 16];
        let mut bufs = Bufs::default();
        let mut out = bufs.narrowed();
        assert_eq!(r.prune(4, &mut cand, &vals, &mut out, 0), Ok(true));
        assert_eq!((cand[0], cand[5], cand[10]), (0b1100, 0b1100, 0b1100));
        // With r1c1 placed as 3, the others are 4 and 4.
        let mut vals = vec![0u16; 16];
        vals[0] = 3;
        assert_eq!(r.prune(4, &mut cand, &vals, &mut out, 0), Ok(true));
        assert_eq!((cand[5], cand[10]), (0b1000, 0b1000));
        vals[5] = 3;
        assert_eq!(r.prune(4, &mut cand, &vals, &mut out, 0), Err(Contradiction));
    }

    #[test]
    fn a_thermometer_and_a_between_line() {
        // A thermometer r1c1 < r1c2 < r1c3: r1c1 1-2, r1c2 2-3, r1c3 3-4.
        let (_, r) = rules(vec![Clue::Thermo {
            cells: vec![at(0, 0), at(0, 1), at(0, 2)],
        }]);
        let mut cand = vec![0b1111u16; 16];
        let vals = vec![0u16; 16];
        let mut bufs = Bufs::default();
        let mut out = bufs.narrowed();
        while r.prune(4, &mut cand, &vals, &mut out, 0).unwrap() {}
        assert_eq!((cand[0], cand[1], cand[2]), (0b0011, 0b0110, 0b1100));
        // A between line r2c1 r2c2 r2c3: its middle is 2 or 3, the ends anything but.
        let (_, r) = rules(vec![Clue::Between {
            cells: vec![at(1, 0), at(1, 1), at(1, 2)],
        }]);
        let mut cand = vec![0b1111u16; 16];
        while r.prune(4, &mut cand, &vals, &mut out, 0).unwrap() {}
        assert_eq!(cand[5], 0b0110);
        assert_eq!((cand[4], cand[6]), (0b1111, 0b1111));
        cand[5] = 0b0010;
        while r.prune(4, &mut cand, &vals, &mut out, 0).unwrap() {}
        assert_eq!((cand[4], cand[6]), (0b1101, 0b1101));
    }
}
