//! The native backend's reasoning about the rules beside the units: "must differ" relations and cage
//! mates become extra peers (placing a digit removes it from them, as from a unit's cells), and
//! [`Rules::prune`] — called from the state's propagation at one place — narrows candidates by the
//! non-consecutive pairs and by the cages' sums.
//!
//! Cages prune by the digit combinations that can still reach the sum (as a person solving a killer
//! does with the cage's combination table): a combination must hold every digit already placed in the
//! cage, and its other digits must fit the open cells; each open cell keeps only the digits of some
//! such combination, and a digit that every such combination needs, with a single open cell left to
//! hold it, is placed there. A cage whose combinations are too many to list (long cages on large
//! grids) is pruned by bounds instead: a digit stays only if the rest of the cage can still make up
//! the remainder with distinct digits.
//!
//! A combination fits only if it holds every digit that some unit meeting the cage can put nowhere
//! else, and its missing digits can go to the open cells one each (a matching, found by augmenting
//! paths over bit masks). A cage or sum whose inputs have not changed since it last changed nothing
//! is skipped (exactly, by a copy of the cells), except on a full grid; otherwise its result is
//! looked up by the inputs it depends on in a memo kept for the search (`Memo`), and computed
//! only when missing there.
//!
//! The search also derives constraints of its own from the units, as killer solvers do by "the rule
//! of 45" (every unit's digits add up to N(N+1)/2): in a unit, the cells outside the cages lying
//! wholly inside it add up to the rest (innies, a cage: they differ); when every cell of a unit is in
//! some cage, the cells of those cages outside the unit add up to their sums less the unit's (outies,
//! a cage when they lie in one unit). Over regions of units (one to three adjacent rows or columns,
//! one box or two adjacent ones) the same reasoning gives sums of a few cells that need not differ,
//! possibly with innies added and outies subtracted: these are kept as linear equations with
//! coefficients ±1 and pruned exactly by reachable partial sums (a forward and a backward pass over
//! bit sets, as in the dynamic program of subset sum). Over larger regions (4 to N − 1 lines from
//! either edge, as sigh's optimizer grows its regions) the cages lying mostly inside are taken
//! whole: the region's cells outside them less their cells outside it, the fewest cells of the
//! three ways of counting.
//!
//! Clue sums take part too (little killers: plain sums of digits that may repeat). One lying in a
//! single unit is a cage in effect (its digits differ): pruned by its combinations and counted
//! among the cages of the rule of 45. And as sigh's optimizer does ("sum intersection"), when clue
//! sums and cages meeting a unit cover it (without overlap, other units filling the gaps), their
//! cells outside it add up to their totals less the unit's, less the units and cages lying wholly
//! among those cells: a sum kept when tight (its slack at most a quarter of its range, cells that
//! must differ counted as such) and pruned as a clue sum, by partial sums per group of cells that
//! must differ (`lines.rs`).
//!
//! Non-consecutive pairs: arc consistency and a rule over the units (`consecutive.rs`).

use super::consecutive::{NonConsecutive, all_digits};
use super::lines::ClueRules;
use super::mask::Mask;
pub(crate) use super::narrow::{Narrowed, narrow};
use super::renban::Windows;
use super::step::{Contradiction, Step};
use crate::constraint::{RelationKind, SumRule, sum_range};
use crate::units::Units;

/// For how many of a cage's units [`CageTable::hidden`] keeps the candidates of the open cells
/// outside the cage (for [`CageTable::place_needed`]; beyond, those units are walked).
const AROUND: usize = 8;

/// Per unit meeting a cage: the candidates of its open cells outside the cage (all ones: unknown).
type Around = [u64; AROUND];

/// The most combinations listed for one cage; beyond, it is pruned by bounds.
const MAX_COMBOS: u64 = 4096;

/// Entries of the memo of cage results (see [`Memo`]), a power of two: 4 words each.
const MEMO_ENTRIES: usize = 1 << 12;

/// The rules beside the units, flattened for the search.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    /// Non-consecutive pairs of cells (`consecutive.rs`).
    pairs: NonConsecutive,
    cages: Box<[CageTable]>,
    /// Linear equations the rule of 45 derives over regions of several units.
    sums: Box<[SumTable]>,
    /// The primitives of clues: relation tables, weighted sums, lines, candidate sets
    /// (`lines.rs`).
    pub(crate) clue: ClueRules,
    /// The window rules (renban lines, `renban.rs`), pruned from the state.
    pub(crate) windows: Windows,
    /// Per cage, then per sum: the cells its pruning reads, as a bit set of `words` words.
    inputs: Box<[u64]>,
    /// Per cage: its own cells, as a bit set of `words` words (the rest of its inputs are the
    /// cells of its units outside it, read only through [`CageTable::hidden`] and by
    /// [`CageTable::place_needed`]).
    own: Box<[u64]>,
    /// Words per bit set of cells.
    words: usize,
    /// Cells in the grid.
    cells: usize,
    /// Digits in the grid.
    n: usize,
}

/// The most adjacent rows (or columns) a region of derived linear equations spans.
const MAX_LINES: usize = 3;

/// The most cells a derived linear equation has: more prune little for what they cost (measured
/// on the shared killers: 9 against 6, 7, 11 and 14; BENCHMARKS.md).
const MAX_SUM_CELLS: usize = 9;

/// A linear equation Σ ± x = `total` over a few cells (no distinctness), derived by the rule of 45.
#[derive(Debug, PartialEq, Eq)]
struct SumTable {
    cells: Box<[u32]>,
    /// Bit i: the coefficient of `cells[i]` is −1 (else +1).
    negative: u64,
    total: i32,
}

/// What a cage's combinations are fitted to: the digits placed in it, the digits it must hold
/// (those and the ones its units can put nowhere else), and its open cells' candidates together.
#[derive(Clone, Copy)]
struct Fit {
    placed: u64,
    required: u64,
    union: u64,
}

/// One cage, as the search reads it.
#[derive(Debug, PartialEq, Eq)]
struct CageTable {
    cells: Box<[u32]>,
    sum: u32,
    /// Every set of `cells.len()` distinct digits adding up to `sum` (bit `d − 1` for digit `d`), when
    /// there are at most [`MAX_COMBOS`]; `None`: pruned by bounds.
    combos: Option<Box<[u64]>>,
    /// The units that meet the cage in two cells or more: which cage cells they hold (bit i for
    /// `cells[i]`) and their cells outside the cage.
    seen_by: Box<[(u64, Box<[u32]>)]>,
}

impl CageTable {
    fn new(units: &Units, cells: Vec<u32>, sum: u32) -> CageTable {
        let n = units.shape().n();
        let mut seen_by = Vec::new();
        for unit in units.units() {
            let mask = cells.iter().enumerate().fold(0u64, |m, (i, &c)| {
                let inside = unit.cells.iter().any(|x| x.index() == c as usize);
                m | u64::from(inside) << i
            });
            if mask.count_ones() >= 2 && cells.len() <= 64 {
                let outside: Box<[u32]> = unit
                    .cells
                    .iter()
                    .map(|x| x.index() as u32)
                    .filter(|x| !cells.contains(x))
                    .collect();
                seen_by.push((mask, outside));
            }
        }
        CageTable {
            combos: combinations(n, cells.len(), sum),
            cells: cells.into(),
            sum,
            seen_by: seen_by.into(),
        }
    }
}

impl Rules {
    /// The search's tables of the relations and cages of `units`, if it has any.
    pub(crate) fn build(units: &Units) -> Option<Rules> {
        if !units.has_extras() {
            return None;
        }
        let pairs = NonConsecutive::new(
            units.shape().cells(),
            units.shape().n(),
            units
                .relations()
                .iter()
                .filter(|r| r.kind == RelationKind::NonConsecutive)
                .map(|r| (r.a.index() as u32, r.b.index() as u32))
                .collect(),
            units
                .units()
                .iter()
                .flat_map(|u| u.cells.iter().map(|c| c.index() as u32))
                .collect(),
        );
        let mut cages: Vec<CageTable> = units
            .cages()
            .iter()
            .map(|c| {
                CageTable::new(
                    units,
                    c.cells.iter().map(|c| c.index() as u32).collect(),
                    c.sum,
                )
            })
            .collect();
        // Clue sums inside one unit are cages in effect: pruned by their combinations too.
        for (cells, sum) in hidden_cages(units).into_iter().chain(derived(units)) {
            if !cages.iter().any(|c| *c.cells == *cells && c.sum == sum) {
                cages.push(CageTable::new(units, cells, sum));
            }
        }
        let sums: Box<[SumTable]> = derived_sums(units)
            .into_iter()
            .map(|(cells, negative, total)| SumTable {
                cells: cells.into(),
                negative,
                total,
            })
            .collect();
        let cells = units.shape().cells();
        let words = cells.div_ceil(64);
        let mut inputs = Vec::new();
        let mut add = |read: &mut dyn Iterator<Item = u32>| {
            let from = inputs.len();
            inputs.resize(from + words, 0u64);
            for c in read {
                inputs[from + c as usize / 64] |= 1 << (c % 64);
            }
        };
        for cage in &cages {
            add(&mut cage
                .cells
                .iter()
                .chain(cage.seen_by.iter().flat_map(|(_, o)| o.iter()))
                .copied());
        }
        for sum in &sums {
            add(&mut sum.cells.iter().copied());
        }
        let mut own = Vec::new();
        for cage in &cages {
            let from = own.len();
            own.resize(from + words, 0u64);
            for &c in cage.cells.iter() {
                own[from + c as usize / 64] |= 1 << (c % 64);
            }
        }
        Some(Rules {
            pairs,
            cages: cages.into(),
            sums,
            clue: ClueRules::build(units, &crossing_sums(units)),
            windows: Windows::build(units),
            inputs: inputs.into(),
            own: own.into(),
            words,
            cells,
            n: units.shape().n(),
        })
    }

    /// Whether there are non-consecutive pairs (the search then branches by weights: their dead
    /// ends blame the pair's cells).
    pub(crate) fn has_non_consecutive(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// The non-consecutive pairs (for the value order of branches, `consecutive.rs`).
    pub(crate) fn non_consecutive(&self) -> &NonConsecutive {
        &self.pairs
    }

    /// The length of [`Narrowed::seen`] these rules keep their change detection in: a flag per
    /// cage and sum, a signature per clue sum and line, then a copy of the grid's cells, two bit
    /// sets of cells, two words per cage and each cell's digits (see [`Rules::prune`]).
    pub(crate) fn seen_len(&self) -> usize {
        self.cages.len()
            + self.sums.len()
            + self.clue.constraints()
            + self.cells
            + 2 * self.words
            + 2 * self.cages.len()
            + self.cells
            + self.memo_len()
            + self.clue.residue_len()
    }

    /// The words of the memo of cage results in [`Narrowed::seen`] (none when no cage can use it).
    fn memo_len(&self) -> usize {
        let cached = |c: &CageTable| c.combos.is_some() && Memo::fits(self.n, c.cells.len() + 2);
        let sums = |s: &SumTable| Memo::fits(self.n, s.cells.len());
        if self.cages.iter().any(cached) || self.sums.iter().any(sums) {
            4 * MEMO_ENTRIES
        } else {
            0
        }
    }

    /// Whether these rules treat every digit alike: no non-consecutive pairs, no cages (and so no sums
    /// derived from them), no clues but groups; "must differ" relations and groups are peers and do
    /// not tell digits apart.
    pub(crate) fn digit_symmetric(&self) -> bool {
        self.pairs.is_empty()
            && self.cages.is_empty()
            && self.sums.is_empty()
            && self.clue.is_empty()
            && self.windows.is_empty()
    }

    /// For each cell, the cells it must differ from besides its unit peers: its "must differ"
    /// relations (knight, king), its cage mates and the other cells of its groups. Ascending,
    /// without repeats.
    pub(crate) fn extra_peers(units: &Units) -> Vec<Vec<u32>> {
        let mut extra = vec![Vec::new(); units.shape().cells()];
        for r in units.relations().iter().filter(|r| r.kind.is_differ()) {
            extra[r.a.index()].push(r.b.index() as u32);
            extra[r.b.index()].push(r.a.index() as u32);
        }
        for cells in units
            .cages()
            .iter()
            .map(|c| &c.cells)
            .chain(units.groups().iter().map(|g| &g.cells))
        {
            for &a in cells {
                for &b in cells {
                    if a != b {
                        extra[a.index()].push(b.index() as u32);
                    }
                }
            }
        }
        for list in &mut extra {
            list.sort_unstable();
            list.dedup();
        }
        extra
    }

    /// Narrows the candidates `cand` of the open cells (`vals` 0) by the cages, sums and clues (the
    /// non-consecutive pairs propagate on their own: the search's state tells them what changed,
    /// [`NonConsecutive::propagate`]); a cell left with one candidate is queued for placing.
    /// Returns whether a candidate was removed.
    ///
    /// # Errors
    /// A cell left without candidates, placed digits that break a cage, or a cage that no
    /// combination fits.
    pub(crate) fn prune<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let mut changed = false;
        let seen = std::mem::take(&mut out.seen);
        let result = self.prune_sums(n, cand, vals, out, &mut *seen);
        out.seen = seen;
        changed |= result?;
        let base = self.cages.len() + self.sums.len();
        let residues = self.seen_len() - self.clue.residue_len();
        changed |= self.clue.prune(n, cand, vals, out, base, residues)?;
        Ok(changed)
    }

    /// One cage (`k` below the number of cages) or derived sum; on a contradiction its cells are
    /// blamed. For a cage that holds, `last` receives the digits its units can put nowhere else
    /// ([`CageTable::hidden`]) and the digits every fitting combination needs. `now`: each
    /// cell's digits as [`cell_digits`] gives them (empty: read from `cand` and `vals`).
    #[allow(clippy::too_many_arguments)]
    fn prune_one<M: Mask>(
        &self,
        k: usize,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        memo: &mut [u64],
        last: &mut [u64; 2],
        now: &[u64],
    ) -> Step<bool> {
        let (result, cells) = match self.cages.get(k) {
            Some(cage) => {
                let memo = Memo { slots: memo, id: k };
                let mut open = [u64::MAX; AROUND];
                let hidden = match now.is_empty() {
                    true => cage.hidden(n, |c| cell_digits(cand, vals, c), &mut open),
                    false => cage.hidden(n, |c| now[c], &mut open),
                };
                let mut needed = 0;
                let result = cage.prune(n, cand, vals, out, memo, (hidden, &open), &mut needed);
                if result.is_ok() {
                    *last = [hidden, needed];
                }
                (result, &cage.cells)
            }
            None => {
                let sum = &self.sums[k - self.cages.len()];
                let memo = Memo { slots: memo, id: k };
                (sum.prune(n, cand, vals, out, memo), &sum.cells)
            }
        };
        if result.is_err() {
            out.blame.extend_from_slice(cells);
        }
        result
    }

    /// The cages and derived sums, each skipped when it changed nothing last time on the same
    /// inputs (exactly: no hash).
    ///
    /// `seen` holds a copy of the cells as they were at the start of the last pass (an open cell's
    /// candidates, or the complement of a placed digit); a pass first marks the cells that differ
    /// from it (`dirty`) and takes the new copy. A constraint's flag says that its own cells (a
    /// sum's: all its inputs) are as they were when its last evaluation left them unchanged: it
    /// is cleared when one of them is dirty, and set after an evaluation that narrowed none of
    /// them, unless one was narrowed earlier in the same pass (`touched`: then it saw cells other
    /// than the copy). Skipped: flag set, no input dirty or touched. A cage reads the cells of
    /// its units outside it only through the digits they leave to it ([`CageTable::hidden`]) and
    /// in [`CageTable::place_needed`]: when only such cells changed (its flag set to 2 until it
    /// is looked at, even across a pass that stops early), the combinations are not fitted again
    /// if those digits are the ones of its last evaluation (kept per cage after the copy, with
    /// the digits it needed); only the needed digits are placed again. Without room in `seen` (tests) or on grids above 63 digits, nothing is
    /// skipped.
    fn prune_sums<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        seen: &mut [u64],
    ) -> Step<bool> {
        let count = self.cages.len() + self.sums.len();
        if count == 0 {
            // Nothing to prune, nor a copy of the cells to keep (non-consecutive pairs alone).
            return Ok(false);
        }
        let mut changed = false;
        if seen.len() < self.seen_len() || n >= 64 || M::BITS > 64 || cand.len() != self.cells {
            for k in 0..count {
                changed |= self.prune_one(k, n, cand, vals, out, &mut [], &mut [0; 2], &[])?;
            }
            return Ok(changed);
        }
        let words = self.words;
        let (flags, rest) = seen.split_at_mut(count);
        let rest = &mut rest[self.clue.constraints()..];
        let (snap, rest) = rest.split_at_mut(self.cells);
        let (dirty, rest) = rest.split_at_mut(words);
        let (touched, rest) = rest.split_at_mut(words);
        let (lasts, rest) = rest.split_at_mut(2 * self.cages.len());
        let (now, memo) = rest.split_at_mut(self.cells);
        dirty.fill(0);
        touched.fill(0);
        for (c, (s, (&m, &v))) in snap.iter_mut().zip(cand.iter().zip(vals)).enumerate() {
            let key = match v {
                0 => m.low_bits(),
                v => !u64::from(v),
            };
            if *s != key {
                *s = key;
                dirty[c / 64] |= 1 << (c % 64);
            }
            // Kept current through the pass (a cell it narrows is updated below).
            now[c] = cell_digits(cand, vals, c);
        }
        let meets = |a: &[u64], b: &[u64]| a.iter().zip(b).any(|(x, y)| x & y != 0);
        // All flags first: a pass that stops at a contradiction has taken the new copy all the same.
        let cages = self.cages.len();
        let own = |k: usize| match k < cages {
            true => &self.own[k * words..(k + 1) * words],
            false => &self.inputs[k * words..(k + 1) * words],
        };
        // 2: only cells of the cage's units outside it changed (kept until they are looked at,
        // should this pass stop at a contradiction first).
        for (k, flag) in flags.iter_mut().enumerate() {
            if *flag != 0 && meets(own(k), dirty) {
                *flag = 0;
            } else if *flag != 0 && meets(&self.inputs[k * words..(k + 1) * words], dirty) {
                *flag = 2;
            }
        }
        let mut spare = [0u64; 2];
        for (k, flag) in flags.iter_mut().enumerate() {
            let mine = own(k);
            let stale = meets(mine, touched);
            let last: &mut [u64; 2] = match lasts.get_mut(2 * k..2 * k + 2) {
                Some(l) => l.try_into().unwrap_or(&mut spare),
                None => &mut spare,
            };
            let from = out.removed.len();
            let c = if *flag != 0 && !stale {
                let ins = &self.inputs[k * words..(k + 1) * words];
                if *flag != 2 && !meets(ins, touched) {
                    continue;
                }
                // Only cells outside the cage changed.
                let cage = &self.cages[k];
                let mut open = [u64::MAX; AROUND];
                if cage.hidden(n, |c| now[c], &mut open) == last[0] {
                    let placed = cage.place_needed(last[1], &open, cand, vals, out, false);
                    if placed.is_err() {
                        out.blame.extend_from_slice(&cage.cells);
                    }
                    placed?
                } else {
                    self.prune_one(k, n, cand, vals, out, memo, last, now)?
                }
            } else {
                self.prune_one(k, n, cand, vals, out, memo, last, now)?
            };
            let mut narrowed_own = false;
            for &(cell, _) in &out.removed[from..] {
                now[cell as usize] = cand[cell as usize].low_bits();
                let (w, b) = (cell as usize / 64, 1 << (cell % 64));
                touched[w] |= b;
                narrowed_own |= mine[w] & b != 0;
            }
            // An input outside the cage narrowed in this pass (before or by this evaluation): the
            // digits it left were read from cells other than the copy.
            let ins = &self.inputs[k * words..(k + 1) * words];
            *flag = match (narrowed_own || stale, meets(ins, touched)) {
                (true, _) => 0,
                (false, true) => 2,
                (false, false) => 1,
            };
            changed |= c;
        }
        Ok(changed)
    }
}

impl SumTable {
    /// Keeps each digit of an open cell that some choice of the others' digits completes to the
    /// total: partial sums reachable from the left and from the right, as bit sets.
    fn prune<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        mut memo: Memo<'_>,
    ) -> Step<bool> {
        let k = self.cells.len();
        let digits = |i: usize| -> u64 {
            let c = self.cells[i] as usize;
            cell_digits(cand, vals, c)
        };
        let key = memo.key(n, k, (0..k).map(digits));
        let keep = match key.and_then(|key| memo.get(key)) {
            Some(value) => value,
            None => {
                let keep = self.keep(n, (0..k).map(digits));
                if let Some(key) = key {
                    memo.put(key, keep);
                }
                keep
            }
        };
        // Bit 0: the total is out of reach; then each cell's digits, n bits each.
        if keep & 1 == 1 {
            return Err(Contradiction);
        }
        let mut changed = false;
        for i in (0..k).rev() {
            let c = self.cells[i] as usize;
            let keep = (keep >> (1 + i * n)) as u64 & all_digits(n);
            if vals[c] == 0 {
                changed |= narrow(cand, out, c, keep)?;
            } else if keep == 0 {
                return Err(Contradiction);
            }
        }
        Ok(changed)
    }

    /// The digits each cell (candidates `masks`, in order) keeps, n bits each above bit 0, or 1
    /// when the total is out of reach.
    fn keep(&self, n: usize, masks: impl Iterator<Item = u64>) -> u128 {
        let k = self.cells.len();
        // A subtracted term −x is (N + 1 − x) − (N + 1): its digits mirrored, and the total raised
        // by N + 1, so that every term adds and sums range over 0..=kN (bit t for sum t).
        let mirror = |m: u64| m.reverse_bits() >> (64 - n);
        let mut terms = [0u64; MAX_SUM_CELLS];
        for (i, m) in masks.enumerate() {
            terms[i] = if self.negative >> i & 1 == 1 {
                mirror(m)
            } else {
                m
            };
        }
        let goal = self.total + (self.negative.count_ones() as usize * (n + 1)) as i32;
        // Sums up to kN: in one word when they fit (most sums on 9x9: half the work).
        let keeps = if k * n < 64 {
            Self::reach::<u64>(&terms[..k], goal)
        } else {
            Self::reach::<u128>(&terms[..k], goal)
        };
        let Some(keeps) = keeps else {
            return 1;
        };
        keeps[..k]
            .iter()
            .enumerate()
            .fold(0u128, |all, (i, &keep)| {
                let keep = if self.negative >> i & 1 == 1 {
                    mirror(keep)
                } else {
                    keep
                };
                all | u128::from(keep) << (1 + i * n)
            })
    }

    /// For terms adding up to `goal` (bit d of a term: the value d + 1), the values of each term
    /// that some choice of the others completes to it, or `None` when none does: partial sums
    /// reachable from the left (`forward`) and, from the right, those that can still reach the
    /// goal (`backward`), as bit sets of `W` (bit t for sum t).
    fn reach<W: Word>(terms: &[u64], goal: i32) -> Option<[u64; MAX_SUM_CELLS]> {
        let k = terms.len();
        // forward[i]: sums of the first i terms.
        let mut forward = [W::ZERO; MAX_SUM_CELLS + 1];
        forward[0] = W::ONE;
        for i in 0..k {
            let (from, mut m, mut to) = (forward[i], terms[i], W::ZERO);
            while m != 0 {
                to = to | from << (m.trailing_zeros() + 1);
                m &= m - 1;
            }
            forward[i + 1] = to;
        }
        if !(0..W::BITS as i32).contains(&goal) || (forward[k] >> goal as u32) & W::ONE == W::ZERO {
            return None;
        }
        // backward: sums the first i terms may have for the rest to reach the total.
        let mut backward = W::ONE << goal as u32;
        let mut keeps = [0u64; MAX_SUM_CELLS];
        for i in (0..k).rev() {
            let (mut keep, mut before) = (0u64, W::ZERO);
            let mut m = terms[i];
            while m != 0 {
                let d = m.trailing_zeros();
                m &= m - 1;
                let prev = backward >> (d + 1);
                if prev & forward[i] != W::ZERO {
                    keep |= 1 << d;
                    before = before | prev;
                }
            }
            keeps[i] = keep;
            backward = before;
        }
        Some(keeps)
    }
}

/// An unsigned word as a bit set of sums (`u64`, `u128`).
trait Word:
    Copy
    + PartialEq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
}

impl Word for u64 {
    const ZERO: u64 = 0;
    const ONE: u64 = 1;
    const BITS: u32 = u64::BITS;
}

impl Word for u128 {
    const ZERO: u128 = 0;
    const ONE: u128 = 1;
    const BITS: u32 = u128::BITS;
}

/// The linear equations the rule of 45 gives over regions of several units (see the module docs):
/// cells, the mask of those subtracted, and the total. Only those of at most [`MAX_SUM_CELLS`] cells
/// whose partial sums fit 128 bits; none when cages overlap.
fn derived_sums(units: &Units) -> Vec<(Vec<u32>, u64, i32)> {
    use crate::units::UnitKind;
    let shape = units.shape();
    let (n, cells) = (shape.n(), shape.cells());
    if !shape.is_classic() || units.cages().is_empty() {
        // Regions of rows, columns and boxes of N cells each: the classic shapes only. Without
        // cages a region's sum is its units' (every digit once), which prunes nothing.
        return Vec::new();
    }
    let total = (n * (n + 1) / 2) as i32;
    let mut cage_of: Vec<Option<usize>> = vec![None; cells];
    for (k, cage) in units.cages().iter().enumerate() {
        for c in &cage.cells {
            if cage_of[c.index()].replace(k).is_some() {
                return Vec::new();
            }
        }
    }
    // Regions: runs of 1 to MAX_LINES adjacent rows or columns, single boxes, pairs of boxes side
    // by side (a single unit's innies are a cage of `derived` already; its outies beyond one unit
    // are kept here).
    let of_kind = |kind| -> Vec<&crate::units::Unit> {
        units
            .units()
            .iter()
            .filter(|u| u.name.kind == kind)
            .collect()
    };
    let mut regions: Vec<Vec<&crate::units::Unit>> = Vec::new();
    for kind in [UnitKind::Row, UnitKind::Col] {
        let lines = of_kind(kind);
        for len in 1..=MAX_LINES {
            for start in 0..lines.len().saturating_sub(len - 1) {
                if len < lines.len() {
                    regions.push(lines[start..start + len].to_vec());
                }
            }
        }
    }
    let boxes = of_kind(UnitKind::Block);
    let across = n / shape.box_cols();
    for b in 0..boxes.len() {
        regions.push(vec![boxes[b]]);
        if (b + 1) % across != 0 && b + 1 < boxes.len() {
            regions.push(vec![boxes[b], boxes[b + 1]]);
        }
        if b + across < boxes.len() {
            regions.push(vec![boxes[b], boxes[b + across]]);
        }
    }
    // Larger regions, for the cages mostly inside only (below): runs of more lines from either
    // edge, as sigh's optimizer grows its regions. (Measured on four MATHEMAGIC killers: the
    // cages-mostly-inside equation on the regions above as well, on runs of more lines away from
    // the edges or on the first boxes in reading order cost more per node than they save.)
    let near = regions.len();
    for kind in [UnitKind::Row, UnitKind::Col] {
        let lines = of_kind(kind);
        for len in MAX_LINES + 1..lines.len() {
            regions.push(lines[..len].to_vec());
            regions.push(lines[lines.len() - len..].to_vec());
        }
    }
    let mut out: Vec<(Vec<u32>, u64, i32)> = Vec::new();
    let mut in_region = vec![false; cells];
    for (r, region) in regions.into_iter().enumerate() {
        let members: Vec<usize> = region
            .iter()
            .flat_map(|u| u.cells.iter().map(|c| c.index()))
            .collect();
        members.iter().for_each(|&c| in_region[c] = true);
        let goal = total * region.len() as i32;
        let mut meeting: Vec<usize> = members.iter().filter_map(|&c| cage_of[c]).collect();
        meeting.sort_unstable();
        meeting.dedup();
        let inside = |k: usize| units.cages()[k].cells.iter().all(|c| in_region[c.index()]);
        let inner: i32 = meeting
            .iter()
            .filter(|&&k| inside(k))
            .map(|&k| units.cages()[k].sum as i32)
            .sum();
        let crossing: i32 = meeting
            .iter()
            .filter(|&&k| !inside(k))
            .map(|&k| units.cages()[k].sum as i32)
            .sum();
        // Innies: the region's cells outside its inner cages.
        let innies: Vec<u32> = members
            .iter()
            .filter(|&&c| !cage_of[c].is_some_and(inside))
            .map(|&c| c as u32)
            .collect();
        // Cells in no cage, and the crossing cages' cells outside the region.
        let free: Vec<u32> = members
            .iter()
            .filter(|&&c| cage_of[c].is_none())
            .map(|&c| c as u32)
            .collect();
        let outies: Vec<u32> = meeting
            .iter()
            .filter(|&&k| !inside(k))
            .flat_map(|&k| units.cages()[k].cells.iter())
            .filter(|c| !in_region[c.index()])
            .map(|c| c.index() as u32)
            .collect();
        let mut add = |mut plus: Vec<u32>, minus: Vec<u32>, t: i32| {
            let k = plus.len() + minus.len();
            // Subtracted terms are mirrored in 64-bit masks (`SumTable::prune`).
            if k == 0 || k > MAX_SUM_CELLS || k * n >= 128 || !minus.is_empty() && n >= 64 {
                return;
            }
            let negative = ((1u64 << minus.len()) - 1) << plus.len();
            plus.extend(minus);
            if !out
                .iter()
                .any(|(c, m, s)| *c == plus && *m == negative && *s == t)
            {
                out.push((plus, negative, t));
            }
        };
        if r < near {
            // One unit's innies are a cage of `derived` already.
            if region.len() > 1 {
                add(innies, Vec::new(), goal - inner);
            }
            add(free, outies, goal - inner - crossing);
        } else {
            // The cages mostly inside the region taken whole: its cells outside them less their
            // cells outside it (the fewest cells, when the others are the innies or the outies).
            let mostly = |k: usize| {
                let cage = &units.cages()[k].cells;
                2 * cage.iter().filter(|c| in_region[c.index()]).count() > cage.len()
            };
            let plus: Vec<u32> = members
                .iter()
                .filter(|&&c| !cage_of[c].is_some_and(mostly))
                .map(|&c| c as u32)
                .collect();
            let minus: Vec<u32> = meeting
                .iter()
                .filter(|&&k| mostly(k))
                .flat_map(|&k| units.cages()[k].cells.iter())
                .filter(|c| !in_region[c.index()])
                .map(|c| c.index() as u32)
                .collect();
            let within: i32 = meeting
                .iter()
                .filter(|&&k| mostly(k))
                .map(|&k| units.cages()[k].sum as i32)
                .sum();
            add(plus, minus, goal - within);
        }
        members.iter().for_each(|&c| in_region[c] = false);
    }
    out
}

/// The clue sums that are plain sums of digits: each cell adds its digit's value, one total, no
/// cell twice. Cells ascending, and the total.
fn plain_sums(units: &Units) -> Vec<(Vec<u32>, i64)> {
    let n = units.shape().n();
    let plain = |w: &Vec<i32>| {
        w.len() == n
            && w.iter()
                .enumerate()
                .all(|(d, &x)| x == units.value(d as u16 + 1))
    };
    let mut out = Vec::new();
    for s in units.sums() {
        if s.totals.len() != 1 || !s.weights.iter().all(plain) {
            continue;
        }
        let mut cells: Vec<u32> = s.cells.iter().map(|c| c.index() as u32).collect();
        cells.sort_unstable();
        if cells.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        out.push((cells, i64::from(s.totals[0])));
    }
    out
}

/// The plain clue sums (little killers) whose cells all lie in one unit: cages in effect (their
/// digits differ), as sigh's optimizer reads a sum inside a house. Cells ascending, and the total;
/// none on grids whose digits are not 1..=N.
fn hidden_cages(units: &Units) -> Vec<(Vec<u32>, u32)> {
    if units.value(1) != 1 {
        return Vec::new();
    }
    plain_sums(units)
        .into_iter()
        .filter(|(cells, _)| {
            cells.len() >= 2
                && units
                    .units_of(crate::grid::Cell::new(cells[0] as usize))
                    .iter()
                    .any(|&u| {
                        let unit = &units.units()[u as usize].cells;
                        cells
                            .iter()
                            .all(|&c| unit.iter().any(|x| x.index() == c as usize))
                    })
        })
        .filter_map(|(cells, t)| Some((cells, u32::try_from(t).ok()?)))
        .collect()
}

/// Sums the rule of 45 derives across a unit from the clue sums crossing it (sigh's optimizer's
/// "sum intersection"): when plain clue sums (little killers) and cages meeting a unit, taken
/// without overlap and with other units filling the gaps, cover it, their cells outside the unit
/// add up to their totals less the unit's; units and cages lying wholly among those cells are then
/// taken out with their totals. Kept only when that sum is tight for its cells (its slack at most a
/// quarter of its range, counting the cells that must differ as such, as sigh keeps them), and
/// only when a clue sum takes part (killers alone have the cages' own rule of 45).
fn crossing_sums(units: &Units) -> Vec<SumRule> {
    let shape = units.shape();
    let (n, cells) = (shape.n(), shape.cells());
    let plain = plain_sums(units);
    if plain.is_empty() {
        return Vec::new();
    }
    let values: Vec<i64> = (1..=n as u16).map(|d| i64::from(units.value(d))).collect();
    let unit_total: i64 = values.iter().sum();
    let as_cells = |list: &[crate::grid::Cell]| -> Vec<u32> {
        let mut v: Vec<u32> = list.iter().map(|c| c.index() as u32).collect();
        v.sort_unstable();
        v
    };
    // The pieces of known total: clue sums first, then cages (true: a clue sum).
    let mut pieces: Vec<(Vec<u32>, i64, bool)> =
        plain.into_iter().map(|(c, t)| (c, t, true)).collect();
    pieces.extend(
        units
            .cages()
            .iter()
            .map(|c| (as_cells(&c.cells), i64::from(c.sum), false)),
    );
    // Regions of known total whose digits differ (units, cages), smallest first: taken out of
    // the cells outside the unit when they lie wholly among them.
    let mut whole: Vec<(Vec<u32>, i64)> = units
        .units()
        .iter()
        .map(|u| (as_cells(&u.cells), unit_total))
        .chain(
            units
                .cages()
                .iter()
                .map(|c| (as_cells(&c.cells), i64::from(c.sum))),
        )
        .collect();
    whole.sort_by_key(|(c, _)| c.len());
    let mut out: Vec<SumRule> = Vec::new();
    let mut found: Vec<(Vec<u32>, i64)> = Vec::new();
    let mut in_unit = vec![false; cells];
    let mut covered = vec![false; cells];
    for (u, unit) in units.units().iter().enumerate() {
        let base = as_cells(&unit.cells);
        base.iter().for_each(|&c| in_unit[c as usize] = true);
        covered.iter_mut().for_each(|x| *x = false);
        let (mut total, mut clue) = (0i64, false);
        // The pieces meeting the unit, those overlapping fewest others first (greedy packing, as
        // sigh's optimizer picks them).
        let mut meeting: Vec<&(Vec<u32>, i64, bool)> = pieces
            .iter()
            .filter(|(piece, _, _)| piece.iter().any(|&c| in_unit[c as usize]))
            .collect();
        let overlaps = |a: &[u32]| {
            meeting
                .iter()
                .filter(|(b, _, _)| b.as_slice() != a && b.iter().any(|c| a.contains(c)))
                .count()
        };
        let counts: Vec<usize> = meeting.iter().map(|(p, _, _)| overlaps(p)).collect();
        let mut order: Vec<usize> = (0..meeting.len()).collect();
        order.sort_by_key(|&i| counts[i]);
        meeting = order.into_iter().map(|i| meeting[i]).collect();
        for (piece, t, is_clue) in meeting {
            if !piece.iter().any(|&c| covered[c as usize]) {
                piece.iter().for_each(|&c| covered[c as usize] = true);
                total += t;
                clue |= is_clue;
            }
        }
        let gap = |covered: &[bool]| base.iter().any(|&c| !covered[c as usize]);
        if clue && gap(&covered) {
            // Fill the gaps with other units meeting the unit in two cells or more, apart from
            // the cells taken.
            for (g, other) in units.units().iter().enumerate() {
                let free = other.cells.iter().all(|c| !covered[c.index()]);
                let meet = other.cells.iter().filter(|c| in_unit[c.index()]).count();
                if g != u && free && meet >= 2 {
                    other.cells.iter().for_each(|c| covered[c.index()] = true);
                    total += unit_total;
                    if !gap(&covered) {
                        break;
                    }
                }
            }
        }
        base.iter().for_each(|&c| in_unit[c as usize] = false);
        if !clue || gap(&covered) {
            continue;
        }
        base.iter().for_each(|&c| covered[c as usize] = false);
        total -= unit_total;
        for (region, t) in &whole {
            if region.iter().all(|&c| covered[c as usize]) {
                region.iter().for_each(|&c| covered[c as usize] = false);
                total -= t;
            }
        }
        let rest: Vec<u32> = (0..cells as u32).filter(|&c| covered[c as usize]).collect();
        if rest.is_empty() || found.iter().any(|(c, t)| *c == rest && *t == total) {
            continue;
        }
        found.push((rest.clone(), total));
        let Ok(goal) = i32::try_from(total) else {
            continue;
        };
        let rule = SumRule::linear(
            rest.iter()
                .map(|&c| crate::grid::Cell::new(c as usize))
                .collect(),
            &vec![1; rest.len()],
            goal,
            n,
            units.value(1),
        );
        // The sum's bounds with the digits of each group of cells that must differ apart.
        let (mut lo, mut hi) = (0i64, 0i64);
        for (group, _) in units.sum_groups(&rule) {
            let k = group.len().min(n);
            lo += values[..k].iter().sum::<i64>() + (group.len() - k) as i64 * values[0];
            hi += values[n - k..].iter().sum::<i64>() + (group.len() - k) as i64 * values[n - 1];
        }
        let (range, slack) = (hi - lo, (total - lo).min(hi - total));
        if slack >= 0 && (range == 0 || range <= 4 * slack) {
            continue;
        }
        out.push(rule);
    }
    out
}

/// The cages the rule of 45 derives from the units (see the module docs): cells ascending, and sums.
/// None when cages overlap (a cell in two cages). Clue sums lying in one unit ([`hidden_cages`])
/// count as cages here.
fn derived(units: &Units) -> Vec<(Vec<u32>, u32)> {
    let cells = units.shape().cells();
    let n = units.shape().n() as u32;
    let total = n * (n + 1) / 2;
    let mut pieces: Vec<(Vec<u32>, u32)> = units
        .cages()
        .iter()
        .map(|c| (c.cells.iter().map(|x| x.index() as u32).collect(), c.sum))
        .collect();
    let mut cage_of: Vec<Option<usize>> = vec![None; cells];
    for (k, (cage, _)) in pieces.iter().enumerate() {
        for &c in cage {
            if cage_of[c as usize].replace(k).is_some() {
                return Vec::new();
            }
        }
    }
    for (cage, sum) in hidden_cages(units) {
        if cage.iter().all(|&c| cage_of[c as usize].is_none()) {
            cage.iter()
                .for_each(|&c| cage_of[c as usize] = Some(pieces.len()));
            pieces.push((cage, sum));
        }
    }
    let cage_cells = |k: usize| {
        pieces[k]
            .0
            .iter()
            .map(|&c| crate::grid::Cell::new(c as usize))
    };
    let cage_sum = |k: usize| pieces[k].1;
    let in_one_unit = |set: &[u32]| {
        set.first().is_some_and(|&first| {
            units
                .units_of(crate::grid::Cell::new(first as usize))
                .iter()
                .any(|&u| {
                    let unit = &units.units()[u as usize].cells;
                    set.iter()
                        .all(|&c| unit.iter().any(|x| x.index() == c as usize))
                })
        })
    };
    let mut out = Vec::new();
    let mut in_unit = vec![false; cells];
    for unit in units.units() {
        unit.cells.iter().for_each(|c| in_unit[c.index()] = true);
        // The cages meeting this unit, and whether each lies wholly inside it.
        let mut meeting: Vec<usize> = unit
            .cells
            .iter()
            .filter_map(|c| cage_of[c.index()])
            .collect();
        meeting.sort_unstable();
        meeting.dedup();
        let inside = |k: usize| cage_cells(k).all(|c| in_unit[c.index()]);
        // Innies.
        let inner: u32 = meeting
            .iter()
            .filter(|&&k| inside(k))
            .map(|&k| cage_sum(k))
            .sum();
        let rest: Vec<u32> = unit
            .cells
            .iter()
            .filter(|c| !cage_of[c.index()].is_some_and(inside))
            .map(|c| c.index() as u32)
            .collect();
        if !rest.is_empty() && rest.len() < unit.cells.len() && inner < total {
            let mut rest = rest;
            rest.sort_unstable();
            out.push((rest, total - inner));
        }
        // Outies.
        let covered = unit.cells.iter().all(|c| cage_of[c.index()].is_some());
        if covered {
            let sum: u32 = meeting.iter().map(|&k| cage_sum(k)).sum();
            let mut outside: Vec<u32> = meeting
                .iter()
                .flat_map(|&k| cage_cells(k))
                .filter(|c| !in_unit[c.index()])
                .map(|c| c.index() as u32)
                .collect();
            outside.sort_unstable();
            if !outside.is_empty() && sum > total && in_one_unit(&outside) {
                out.push((outside, sum - total));
            }
        }
        unit.cells.iter().for_each(|c| in_unit[c.index()] = false);
    }
    out
}

/// A cell's candidates if it is open, else its digit's bit (without a branch: which cells are
/// open is hard to predict).
#[inline(always)]
fn cell_digits<M: Mask>(cand: &[M], vals: &[u16], c: usize) -> u64 {
    let v = u32::from(vals[c]);
    let open = 0u64.wrapping_sub(u64::from(v == 0));
    let placed = 1u64.wrapping_shl(v.wrapping_sub(1)) & !open;
    cand[c].low_bits() & open | placed
}

/// Whether the open cells, whose candidates are `opens`, can take the digits `missing` (as many as
/// there are cells) one each: a perfect matching, by augmenting paths (Kuhn's algorithm) over bit
/// masks. If so, adds to `support[i]` the digits cell i takes in some such matching: its own in the
/// matching found, and a digit d held by cell j there when j can pass its digit on along a chain of
/// cells back to i (an alternating cycle: Régin's filtering of all-different, 1994, on a few cells
/// as bit sets of reachable cells).
fn supports(opens: &[u64], missing: u64, support: &mut [u64]) -> bool {
    let k = opens.len();
    let mut easy = true;
    for &m in opens {
        let m = m & missing;
        if m == 0 {
            return false;
        }
        easy &= m == missing;
    }
    if easy {
        // Every cell can take every digit.
        support.iter_mut().for_each(|s| *s |= missing);
        return true;
    }
    // owner[d]: the open cell (index into `opens`) that digit d is matched to (when `used` has d).
    // Each cell takes a free digit if it has one, else a path of reassignments is searched.
    let mut owner = [0u8; 64];
    let mut used = 0u64;
    fn augment(
        i: usize,
        opens: &[u64],
        missing: u64,
        owner: &mut [u8; 64],
        used: &mut u64,
        seen: &mut u64,
    ) -> bool {
        let m = opens[i] & missing & !*seen;
        let free = m & !*used;
        if free != 0 {
            let d = free.trailing_zeros() as usize;
            *used |= 1 << d;
            owner[d] = i as u8;
            return true;
        }
        let mut m = m;
        *seen |= m;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            if augment(owner[d] as usize, opens, missing, owner, used, seen) {
                owner[d] = i as u8;
                return true;
            }
        }
        false
    }
    let matched = (0..k).all(|i| {
        let mut seen = 0u64;
        augment(i, opens, missing, &mut owner, &mut used, &mut seen)
    });
    if !matched {
        return false;
    }
    // reach[i]: the cells whose digit cell i can take, then (closed) the cells i reaches so.
    let mut buf = [0u64; 16];
    let mut heap = Vec::new();
    let reach: &mut [u64] = if k <= buf.len() {
        &mut buf[..k]
    } else {
        heap.resize(k, 0);
        &mut heap[..]
    };
    for (i, r) in reach.iter_mut().enumerate() {
        let mut m = opens[i] & missing;
        while m != 0 {
            let j = owner[m.trailing_zeros() as usize];
            m &= m - 1;
            if j as usize != i {
                *r |= 1 << j;
            }
        }
    }
    // Warshall's closure, without branches.
    for via in 0..k {
        let row = reach[via];
        for r in reach.iter_mut() {
            *r |= row & 0u64.wrapping_sub(*r >> via & 1);
        }
    }
    // The digit of each cell in the matching.
    let mut mate = [0u64; 64];
    let mut m = missing;
    while m != 0 {
        let d = m.trailing_zeros();
        m &= m - 1;
        mate[owner[d as usize] as usize] = 1 << d;
    }
    for i in 0..k {
        // The digits of the cells that reach i, and i's own.
        let mut back = mate[i];
        for (j, &r) in reach.iter().enumerate() {
            back |= mate[j] & 0u64.wrapping_sub(r >> i & 1);
        }
        support[i] |= opens[i] & back;
    }
    true
}

/// The sum of the `k` smallest digits in the digit set `m` (bit d is digit d + 1), or of all of them
/// if it has fewer.
fn lowest_sum(mut m: u64, k: usize) -> u32 {
    let mut sum = 0;
    for _ in 0..k {
        if m == 0 {
            break;
        }
        sum += m.trailing_zeros() + 1;
        m &= m - 1;
    }
    sum
}

/// The sum of the `k` largest digits in the digit set `m`, or of all of them if it has fewer.
fn highest_sum(mut m: u64, k: usize) -> u32 {
    let mut sum = 0;
    for _ in 0..k {
        if m == 0 {
            break;
        }
        let top = 63 - m.leading_zeros();
        sum += top + 1;
        m &= !(1 << top);
    }
    sum
}

impl CageTable {
    /// The digits some unit meeting the cage in two cells or more can put nowhere else (none for
    /// a cage pruned by bounds, which does not read them), from each cell's `digits` (its
    /// candidates, or its digit). `open[j]` receives the digits of the cells of unit `seen_by[j]`
    /// outside the cage (for the first [`AROUND`] units): a superset of its open cells'
    /// candidates.
    fn hidden(&self, n: usize, digits: impl Fn(usize) -> u64, open: &mut Around) -> u64 {
        if self.combos.is_none() {
            return 0;
        }
        let mut hidden = 0u64;
        for (j, (_, outside)) in self.seen_by.iter().enumerate() {
            let elsewhere = outside.iter().fold(0, |m, &c| m | digits(c as usize));
            hidden |= !elsewhere;
            if let Some(o) = open.get_mut(j) {
                *o = elsewhere;
            }
        }
        hidden & all_digits(n)
    }

    /// Prunes by the combinations (or bounds), with what [`CageTable::hidden`] gave; `needed`
    /// receives the digits every fitting combination needs.
    #[allow(clippy::too_many_arguments)]
    fn prune<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        memo: Memo<'_>,
        (hidden, around): (u64, &Around),
        needed: &mut u64,
    ) -> Step<bool> {
        let (mut placed, mut placed_sum, mut open, mut union) = (0u64, 0u32, 0usize, 0u64);
        for &c in self.cells.iter() {
            match vals[c as usize] {
                0 => {
                    open += 1;
                    union |= cand[c as usize].low_bits();
                }
                v => {
                    placed |= 1 << (v - 1);
                    placed_sum += u32::from(v);
                }
            }
        }
        if open == 0 {
            return if placed_sum == self.sum {
                Ok(false)
            } else {
                Err(Contradiction)
            };
        }
        let rest = self.sum.checked_sub(placed_sum).ok_or(Contradiction)?;
        match &self.combos {
            Some(combos) => {
                let required = placed | hidden;
                let fit = Fit {
                    placed,
                    required,
                    union,
                };
                self.by_combos(n, combos, fit, around, cand, vals, out, memo, needed)
            }
            None => self.by_bounds(n, rest, open, union, cand, vals, out),
        }
    }

    /// Keeps the digits of the combinations that hold every placed digit and whose other digits the
    /// open cells can take; places a digit every such combination needs where only one cell can take it.
    #[allow(clippy::too_many_arguments)]
    fn by_combos<M: Mask>(
        &self,
        n: usize,
        combos: &[u64],
        Fit {
            placed,
            required,
            union,
        }: Fit,
        open: &Around,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        mut memo: Memo<'_>,
        needed_out: &mut u64,
    ) -> Step<bool> {
        // `required`: the digits the cage must hold, those placed in it and those that a unit
        // meeting it can hold nowhere else. The open cells' candidates, once for all the combinations, and the digits each can take
        // in some fitting combination.
        let mut buf = [[0u64; 16]; 2];
        let mut heap = [Vec::new(), Vec::new()];
        let [opens, support]: [&mut [u64]; 2] = if self.cells.len() <= 16 {
            let [a, b] = &mut buf;
            [&mut a[..], &mut b[..]]
        } else {
            let [a, b] = &mut heap;
            a.resize(self.cells.len(), 0);
            b.resize(self.cells.len(), 0);
            [&mut a[..], &mut b[..]]
        };
        let mut k = 0;
        for &c in self.cells.iter() {
            if vals[c as usize] == 0 {
                opens[k] = cand[c as usize].low_bits();
                k += 1;
            }
        }
        let (opens, support) = (&opens[..k], &mut support[..k]);
        let masks = self.cells.iter().map(|&c| match vals[c as usize] {
            0 => cand[c as usize].low_bits(),
            _ => 0,
        });
        let fields = [placed, required].into_iter().chain(masks);
        let key = memo.key(n, self.cells.len() + 2, fields);
        let needed = match key.and_then(|key| memo.get(key)) {
            Some(value) => Memo::unpack(n, value, support),
            None => {
                let needed = Self::fit(combos, placed, required, union, opens, support);
                if let Some(key) = key {
                    memo.put(key, Memo::pack(n, needed, support));
                }
                needed
            }
        };
        if needed == u64::MAX {
            return Err(Contradiction);
        }
        *needed_out = needed;
        let mut changed = false;
        let mut i = 0;
        for &c in self.cells.iter() {
            if vals[c as usize] == 0 {
                changed |= narrow(cand, out, c as usize, support[i])?;
                i += 1;
            }
        }
        self.place_needed(needed, open, cand, vals, out, changed)
    }

    /// The digits each open cell (candidates `opens`) takes in some combination that holds
    /// `required` and whose digits beside `placed` the open cells can take one each, added to
    /// `support`; returns the digits every such combination holds (`u64::MAX`: none fits).
    fn fit(
        combos: &[u64],
        placed: u64,
        required: u64,
        union: u64,
        opens: &[u64],
        support: &mut [u64],
    ) -> u64 {
        let mut needed = u64::MAX;
        for &combo in combos {
            if combo & required != required {
                continue;
            }
            let missing = combo & !placed;
            if missing & !union != 0
                || needed & missing == needed
                    && opens
                        .iter()
                        .zip(&*support)
                        .all(|(o, s)| o & missing & !s == 0)
            {
                // Digits out of reach, or a combination that would add nothing to what is known.
                continue;
            }
            // The open cells must be able to take the missing digits one each.
            if supports(opens, missing, support) {
                needed &= missing;
                if needed == 0 && opens.iter().zip(&*support).all(|(o, s)| o == s) {
                    // Every candidate is supported and no digit is needed: the rest can add
                    // nothing.
                    break;
                }
            }
        }
        needed
    }

    /// After the open cells were narrowed to their support: a digit every fitting combination
    /// needs leaves the rest of a unit that holds all its places in the cage. (One with a single
    /// place left is already there: the support follows every perfect matching, so that cell
    /// supports only that digit.)
    fn place_needed<M: Mask>(
        &self,
        needed: u64,
        open: &Around,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        mut changed: bool,
    ) -> Step<bool> {
        if needed == 0 {
            return Ok(changed);
        }
        for (j, (mask, outside)) in self.seen_by.iter().enumerate() {
            // The needed digits no open cage cell outside the unit can take, when some open cell
            // of the unit outside the cage (`open`: a superset of their candidates) may hold one.
            let rest = open.get(j).copied().unwrap_or(u64::MAX);
            if needed & rest == 0 {
                continue;
            }
            let elsewhere = self.cells.iter().enumerate().fold(0u64, |m, (i, &c)| {
                let beyond = vals[c as usize] == 0 && mask >> i & 1 == 0;
                m | cand[c as usize].low_bits() & 0u64.wrapping_sub(u64::from(beyond))
            });
            let confined = needed & !elsewhere & rest;
            if confined != 0 {
                for &c in outside.iter() {
                    if vals[c as usize] == 0 {
                        changed |= narrow(cand, out, c as usize, !confined)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Keeps a digit d of an open cell only if the other `open − 1` open cells can make up `rest − d`
    /// with distinct digits of their candidates (bounded by the smallest and largest such digits).
    #[allow(clippy::too_many_arguments)]
    fn by_bounds<M: Mask>(
        &self,
        n: usize,
        rest: u32,
        open: usize,
        union: u64,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let union = union & all_digits(n);
        if (union.count_ones() as usize) < open {
            return Err(Contradiction);
        }
        let others = open - 1;
        let mut changed = false;
        for &c in self.cells.iter() {
            if vals[c as usize] != 0 {
                continue;
            }
            let mut keep = 0u64;
            let mut m = cand[c as usize].low_bits();
            while m != 0 {
                let d = m.trailing_zeros();
                m &= m - 1;
                let value = d + 1;
                let pool = union & !(1 << d);
                let (low, high) = (lowest_sum(pool, others), highest_sum(pool, others));
                if value + low <= rest && rest <= value + high {
                    keep |= 1 << d;
                }
            }
            changed |= narrow(cand, out, c as usize, keep)?;
        }
        Ok(changed)
    }
}

/// A memo of cage results, kept in [`Narrowed::seen`] for the whole search: what
/// [`CageTable::fit`] gave for a cage (`id`), its placed digits, the digits it must hold and its
/// cells' candidates (0 for a placed cell) — all that result depends on — in a table of
/// [`MEMO_ENTRIES`] entries, one place per key (a newer result replaces an older one). Each entry
/// is four words: the key (with the cage's index plus one on top, so never 0: an empty entry),
/// then the result (bit 0 set: no combination fits; else the digits needed, then each open cell's
/// support, `n` bits each, above bit 0). Empty `slots` (no room): nothing is kept.
struct Memo<'a> {
    slots: &'a mut [u64],
    id: usize,
}

impl Memo<'_> {
    /// Whether a key of `fields` masks of `n` digits fits 128 bits beside the constraint's index
    /// (16 bits).
    fn fits(n: usize, fields: usize) -> bool {
        16 + fields * n <= 128
    }

    /// The key of a constraint's `fields` masks (of `n` digits), when it fits and there is room.
    fn key(&self, n: usize, fields: usize, masks: impl Iterator<Item = u64>) -> Option<u128> {
        if self.slots.len() < 4 * MEMO_ENTRIES || !Memo::fits(n, fields) || self.id >= 0xFFFF {
            return None;
        }
        Some(masks.fold(self.id as u128 + 1, |key, m| key << n | u128::from(m)))
    }

    /// The entry a key goes to (word index).
    fn slot(key: u128) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        4 * (h >> (64 - MEMO_ENTRIES.trailing_zeros())) as usize
    }

    fn get(&self, key: u128) -> Option<u128> {
        let e = &self.slots[Memo::slot(key)..][..4];
        (u128::from(e[0]) | u128::from(e[1]) << 64 == key)
            .then(|| u128::from(e[2]) | u128::from(e[3]) << 64)
    }

    fn put(&mut self, key: u128, value: u128) {
        let e = &mut self.slots[Memo::slot(key)..][..4];
        e.copy_from_slice(&[
            key as u64,
            (key >> 64) as u64,
            value as u64,
            (value >> 64) as u64,
        ]);
    }

    /// A result of [`CageTable::fit`] as an entry's value.
    fn pack(n: usize, needed: u64, support: &[u64]) -> u128 {
        if needed == u64::MAX {
            return 1;
        }
        let v = support
            .iter()
            .rev()
            .fold(u128::from(needed), |v, &s| v << n | u128::from(s));
        v << 1
    }

    /// An entry's value back as the digits needed (returned) and the supports.
    fn unpack(n: usize, value: u128, support: &mut [u64]) -> u64 {
        if value & 1 == 1 {
            return u64::MAX;
        }
        let mask = (1u128 << n) - 1;
        let mut v = value >> 1;
        for s in support.iter_mut() {
            *s = (v & mask) as u64;
            v >>= n;
        }
        v as u64
    }
}

/// Every set of `k` distinct digits of 1..=`n` adding up to `sum`, as bit masks, if there are at most
/// [`MAX_COMBOS`] (counted first, without listing them).
fn combinations(n: usize, k: usize, sum: u32) -> Option<Box<[u64]>> {
    let (min, max) = sum_range(k, n)?;
    if !(min..=max).contains(&sum) {
        return Some(Box::new([]));
    }
    // count[j][s]: sets of j distinct digits among those considered so far, adding up to s (capped).
    let s = sum as usize;
    let mut count = vec![vec![0u64; s + 1]; k + 1];
    count[0][0] = 1;
    for d in 1..=n {
        for j in (1..=k).rev() {
            for t in (d..=s).rev() {
                count[j][t] = (count[j][t] + count[j - 1][t - d]).min(MAX_COMBOS + 1);
            }
        }
    }
    if count[k][s] > MAX_COMBOS {
        return None;
    }
    let mut out = Vec::with_capacity(count[k][s] as usize);
    fn walk(n: u32, from: u32, k: usize, rest: u32, set: u64, out: &mut Vec<u64>) {
        if k == 0 {
            if rest == 0 {
                out.push(set);
            }
            return;
        }
        for d in from..=n {
            if d > rest {
                break;
            }
            walk(n, d + 1, k - 1, rest - d, set | 1 << (d - 1), out);
        }
    }
    walk(n as u32, 1, k, sum, 0, &mut out);
    Some(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfs::narrow::Buffers as Bufs;

    fn digits(m: u64) -> Vec<u32> {
        (0..64).filter(|d| m >> d & 1 == 1).map(|d| d + 1).collect()
    }

    /// A 4x4 grid with one two-cell cage: its units and the native backend's rules.
    fn one_cage_4x4(sum: u32, cells: [(usize, usize); 2]) -> (Units, Rules) {
        let shape = crate::grid::Shape::new(2, 2).unwrap();
        let units = Units::rules(shape).cage(sum, cells).build().unwrap();
        let rules = Rules::build(&units).unwrap();
        (units, rules)
    }

    /// 9x9 with the cages of a hard killer's first rows (and, with `more`, one more 5-cell cage).
    fn first_rows_killer(more: bool) -> Units {
        let shape = crate::grid::Shape::new(3, 3).unwrap();
        let mut b = Units::rules(shape)
            .cage(27, [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)])
            .cage(22, [(0, 4), (0, 5), (0, 6), (0, 7), (1, 5)])
            .cage(30, [(0, 8), (1, 7), (1, 8), (2, 8), (3, 8)])
            .cage(22, [(1, 1), (1, 2), (1, 3), (1, 4), (2, 3)])
            .cage(19, [(1, 6), (2, 6), (3, 5), (3, 6), (4, 5)])
            .cage(27, [(2, 0), (2, 1), (2, 2), (3, 0), (4, 0)]);
        if more {
            b = b.cage(28, [(2, 4), (2, 5), (3, 2), (3, 3), (3, 4)]);
        }
        b.cage(5, [(4, 4)]).build().unwrap()
    }

    #[test]
    fn the_memo_gives_what_the_pruning_gives() {
        // 9x9 with the cages of a hard killer's first rows and a derived sum or two: every cage
        // and sum pruned on seeded random states with the memo and without it narrows the same
        // cells to the same digits and fails alike; each state is pruned twice with the memo, so
        // that the second answer comes from it.
        let units = first_rows_killer(false);
        let rules = Rules::build(&units).unwrap();
        assert!(!rules.sums.is_empty() && rules.memo_len() > 0);
        let mut slots = vec![0u64; rules.memo_len()];
        let mut seed = 7u64;
        let (mut fails, mut total) = (0, 0);
        for _ in 0..3000 {
            let mut cand = vec![0u16; 81];
            let mut vals = vec![0u16; 81];
            for c in 0..81 {
                let r = crate::dfs::search::splitmix(&mut seed);
                if r.is_multiple_of(7) {
                    vals[c] = (r >> 8) as u16 % 9 + 1;
                } else {
                    cand[c] = ((r >> 16) as u16 & 0x1FF) | 1 << ((r >> 32) % 9);
                }
            }
            for k in 0..rules.cages.len() + rules.sums.len() {
                let run = |cand: &mut Vec<u16>, slots: &mut [u64]| {
                    let mut bufs = Bufs::default();
                    let mut out = bufs.narrowed();
                    let memo = Memo { slots, id: k };
                    let step = match rules.cages.get(k) {
                        Some(cage) => {
                            let digits = |c| cell_digits(cand, &vals, c);
                            let hidden = cage.hidden(9, digits, &mut [u64::MAX; AROUND]);
                            let around = (hidden, &[u64::MAX; AROUND]);
                            cage.prune(9, cand, &vals, &mut out, memo, around, &mut 0)
                        }
                        None => {
                            rules.sums[k - rules.cages.len()].prune(9, cand, &vals, &mut out, memo)
                        }
                    };
                    (step, bufs.removed)
                };
                let mut plain = cand.clone();
                let expected = run(&mut plain, &mut []);
                for round in 0..2 {
                    let mut memoized = cand.clone();
                    assert_eq!(run(&mut memoized, &mut slots), expected, "{k} {round}");
                    if expected.0.is_ok() {
                        assert_eq!(memoized, plain, "{k} {round}");
                    }
                }
                fails += usize::from(expected.0.is_err());
                total += 1;
            }
        }
        // Both outcomes were seen, and the memo was filled.
        assert!(fails > 0 && fails < total, "{fails} of {total}");
        assert!(slots.iter().any(|&w| w != 0));
    }

    #[test]
    fn combinations_of_known_cages() {
        // The classic killer table: 2 cells summing to 3 is {1,2}; 3 cells to 6 is {1,2,3}; 2 cells
        // to 10 are {1,9} {2,8} {3,7} {4,6}; 9 cells to 45 is every digit.
        let c = combinations(9, 2, 3).unwrap();
        assert_eq!(
            c.iter().map(|&m| digits(m)).collect::<Vec<_>>(),
            [vec![1, 2]]
        );
        assert_eq!(combinations(9, 2, 10).unwrap().len(), 4);
        assert_eq!(combinations(9, 9, 45).unwrap().len(), 1);
        assert_eq!(combinations(9, 3, 6).unwrap().len(), 1);
        assert_eq!(combinations(9, 2, 2).unwrap().len(), 0);
        // Every listed set has k digits adding up to the sum.
        for k in 1..=9 {
            for s in 1..=45 {
                for &m in combinations(9, k, s).unwrap().iter() {
                    assert_eq!(m.count_ones() as usize, k);
                    assert_eq!(digits(m).iter().sum::<u32>(), s);
                }
            }
        }
        // A long cage on a 64x64 grid has too many to list.
        assert!(combinations(64, 8, 260).is_none());
    }

    #[test]
    fn a_cage_holds_the_digits_its_units_can_put_nowhere_else() {
        // 4x4: a cage r1c1 r1c2 = 5 is {1, 4} or {2, 3}. Once r1c3 and r1c4 cannot hold 4, row 1 must
        // put its 4 in the cage: {1, 4}, so the cage cells lose 2 and 3.
        let (_, rules) = one_cage_4x4(5, [(0, 0), (0, 1)]);
        let mut cand = vec![0b1111u16; 16];
        let vals = vec![0u16; 16];
        let mut bufs = Bufs::default();
        let mut out = bufs.narrowed();
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut out), Ok(false));
        cand[2] = 0b0111;
        cand[3] = 0b0111;
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut out), Ok(true));
        assert_eq!((cand[0], cand[1]), (0b1001, 0b1001));
        // And with 1 gone from the cage too, nothing is left.
        cand[0] = 0b1000;
        cand[1] = 0b1000;
        assert_eq!(
            rules.prune(4, &mut cand, &vals, &mut out),
            Err(Contradiction)
        );
        // The failing cage's cells are blamed (for the branching weights).
        assert_eq!(*out.blame, [0, 1]);
    }

    #[test]
    fn a_pass_that_skips_removes_what_a_full_pass_removes() {
        // The cages of a hard killer's first rows: a seeded walk of states as the search makes
        // them (a few cells narrowed or placed, the pass's removals kept; back to an earlier
        // state at random or after a contradiction), each pruned by a pass that skips unchanged
        // cages and sums (with `seen`, kept over the walk) and by one that evaluates all of them:
        // the same removals in the same order, and the same outcome.
        let units = first_rows_killer(true);
        let rules = Rules::build(&units).unwrap();
        let mut kept = Bufs::with_seen(vec![0u64; rules.seen_len()]);
        let mut seed = 11u64;
        let mut stack: Vec<(Vec<u16>, Vec<u16>)> = Vec::new();
        let (mut cand, mut vals) = (vec![0x1FFu16; 81], vec![0u16; 81]);
        let (mut fails, mut changes) = (0, 0);
        for step in 0..20_000 {
            let r = crate::dfs::search::splitmix(&mut seed);
            if r.is_multiple_of(4) && !stack.is_empty() {
                (cand, vals) = stack.pop().unwrap();
            } else {
                stack.push((cand.clone(), vals.clone()));
                for i in 0..=(r >> 8) % 3 {
                    let c = (r >> (16 + 8 * i)) as usize % 81;
                    if vals[c] != 0 {
                        continue;
                    }
                    let m = cand[c];
                    if (r >> 40).is_multiple_of(3) {
                        vals[c] = m.trailing_zeros() as u16 + 1;
                    } else {
                        let narrower = m & (r >> 44) as u16;
                        cand[c] = if narrower == 0 { m } else { narrower };
                    }
                }
            }
            let mut plain = cand.clone();
            let mut full = Bufs::default();
            let expected = rules.prune(9, &mut plain, &vals, &mut full.narrowed());
            kept.removed.clear();
            let got = rules.prune(9, &mut cand, &vals, &mut kept.narrowed());
            assert_eq!(
                got, expected,
                "step {step} {:?} {:?} {:?}",
                full.blame, full.removed, kept.removed
            );
            assert_eq!(kept.removed, full.removed, "step {step}");
            match got {
                Ok(c) => {
                    assert_eq!(cand, plain, "step {step}");
                    changes += usize::from(c);
                }
                Err(_) => {
                    fails += 1;
                    if let Some(back) = stack.pop() {
                        (cand, vals) = back;
                    }
                }
            }
        }
        assert!(fails > 100 && changes > 100, "{fails} {changes}");
    }

    #[test]
    fn unchanged_inputs_skip_a_cage_but_a_full_grid_is_checked() {
        // With signatures: a second pass over the same candidates skips the cage; a full grid
        // that breaks the sum still fails.
        let (_, rules) = one_cage_4x4(3, [(0, 0), (1, 1)]);
        let mut cand = vec![0b1111u16; 16];
        let mut bufs = Bufs::with_seen(vec![0u64; rules.seen_len()]);
        let mut out = bufs.narrowed();
        let vals = vec![0u16; 16];
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut out), Ok(true));
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut out), Ok(false));
        assert!(out.seen.iter().any(|&s| s != 0));
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut out), Ok(false));
        let mut full = vec![1u16; 16];
        full[5] = 3;
        let mut none = vec![0u16; 16];
        assert_eq!(
            rules.prune(4, &mut none, &full, &mut out),
            Err(Contradiction)
        );
    }

    #[test]
    fn a_cage_prunes_by_its_combinations() {
        // A 2-cell cage summing to 3 in a 4x4 grid: both cells are 1 or 2.
        let (units, rules) = one_cage_4x4(3, [(0, 0), (1, 1)]);
        let mut cand = vec![0b1111u16; 16];
        let vals = vec![0u16; 16];
        let mut bufs = Bufs::default();
        let mut queue = bufs.narrowed();
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut queue), Ok(true));
        assert_eq!((cand[0], cand[5]), (0b11, 0b11));
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut queue), Ok(false));
        // r1c1 can no longer be 1: r2c2 must be (1 is needed and has one place).
        cand[0] = 0b10;
        assert_eq!(rules.prune(4, &mut cand, &vals, &mut queue), Ok(true));
        assert_eq!(cand[5], 0b01);
        // Placed 2 and 2 cannot be: the sum is wrong once both are placed.
        let mut vals = vec![0u16; 16];
        vals[0] = 1;
        vals[5] = 1;
        assert_eq!(
            rules.prune(4, &mut cand, &vals, &mut queue),
            Err(Contradiction)
        );
        assert_eq!(
            Rules::extra_peers(&units)[0],
            vec![5],
            "cage mates are peers"
        );
    }

    #[test]
    fn the_rule_of_45_derives_innies_and_outies() {
        // 4x4 (digits add up to 10 per unit): row 1 holds a cage r1c1 r1c2 = 3 and r1c3 (alone in
        // no cage): innie r1c3 + r1c4 = 7. A cage r2c1 r2c2 r2c3 r2c4 r3c1 = 14 covers row 2: its
        // outie r3c1 = 4.
        let shape = crate::grid::Shape::new(2, 2).unwrap();
        let units = Units::rules(shape)
            .cage(3, [(0, 0), (0, 1)])
            .cage(14, [(1, 0), (1, 1), (1, 2), (1, 3), (2, 0)])
            .build();
        // Five cells cannot hold distinct digits of 1-4: the builder refuses that cage.
        assert!(units.is_err());
        let units = Units::rules(shape)
            .cage(3, [(0, 0), (0, 1)])
            .cage(7, [(1, 0), (1, 1), (2, 0)])
            .cage(5, [(1, 2), (1, 3)])
            .build()
            .unwrap();
        let d = derived(&units);
        // Row 1: r1c3 r1c4 add up to 7.
        assert!(d.contains(&(vec![2, 3], 7)), "{d:?}");
        // Row 2 is covered by the cages of 7 and 5; r3c1 sticks out: 7 + 5 − 10 = 2.
        assert!(d.contains(&(vec![8], 2)), "{d:?}");
    }

    #[test]
    fn little_killers_inside_a_unit_are_cages_and_sums_across_a_unit_are_derived() {
        // 4x4: a little killer r1c2 r2c1 = 5 lies in box 1 (a cage in effect), and one along the
        // main diagonal r1c1 r2c2 r3c3 r4c4 = 12 crosses it. Box 1 is covered by the two: r3c3 and
        // r4c4 (both in box 4) add up to 5 + 12 − 10 = 7; in box 1, r1c1 + r2c2 = 10 − 5.
        let shape = crate::grid::Shape::new(2, 2).unwrap();
        let at = |r: usize, c: usize| crate::grid::Cell::at(shape, r, c);
        let killer = |sum: i32, cells: &[(usize, usize)]| crate::clue::Clue::LittleKiller {
            sum,
            cells: cells.iter().map(|&(r, c)| at(r, c)).collect(),
        };
        let units = Units::rules(shape)
            .clue(killer(5, &[(0, 1), (1, 0)]))
            .clue(killer(12, &[(0, 0), (1, 1), (2, 2), (3, 3)]))
            .build()
            .unwrap();
        assert_eq!(hidden_cages(&units), vec![(vec![1, 4], 5)]);
        assert!(derived(&units).contains(&(vec![0, 5], 5)));
        let crossing: Vec<(Vec<usize>, Vec<i32>)> = crossing_sums(&units)
            .iter()
            .map(|s| {
                (
                    s.cells.iter().map(|c| c.index()).collect(),
                    s.totals.clone(),
                )
            })
            .collect();
        assert_eq!(crossing, vec![(vec![10, 15], vec![7])]);
        // A total with slack (r3c3 + r4c4 = 5: 1 + 4 or 2 + 3) is not worth a sum of its own.
        let units = Units::rules(shape)
            .clue(killer(5, &[(0, 1), (1, 0)]))
            .clue(killer(10, &[(0, 0), (1, 1), (2, 2), (3, 3)]))
            .build()
            .unwrap();
        assert!(crossing_sums(&units).is_empty());
    }

    #[test]
    fn sums_over_runs_of_lines_from_the_edges_hold_on_a_published_solution() {
        // MATHEMAGIC_KILLERS#0 (fixtures/variants/killer.txt) and its solution there: every
        // derived equation holds on it, and the runs of 4 to 8 lines from an edge add some.
        let cages: [(u32, &str); 17] = [
            (27, "11 12 13 14 21"),
            (22, "15 16 17 18 26"),
            (30, "19 28 29 39 49"),
            (22, "22 23 24 25 34"),
            (19, "27 37 46 47 56"),
            (27, "31 32 33 41 51"),
            (28, "35 36 43 44 45"),
            (27, "38 48 57 58 68"),
            (25, "42 52 53 62 72"),
            (27, "54 63 64 73 83"),
            (5, "55"),
            (22, "59 69 77 78 79"),
            (25, "61 71 81 82 91"),
            (31, "65 66 67 74 75"),
            (21, "76 85 86 87 88"),
            (20, "84 92 93 94 95"),
            (27, "89 96 97 98 99"),
        ];
        let solution =
            "296718435385246197714395286952487613647153928138629574469871352573962841821534769";
        let mut rules = Units::rules(crate::grid::Shape::new(3, 3).unwrap());
        for (sum, cells) in cages {
            let at = |rc: &str| {
                let d: Vec<usize> = rc.bytes().map(|b| usize::from(b - b'1')).collect();
                (d[0], d[1])
            };
            rules = rules.cage(sum, cells.split(' ').map(at).collect::<Vec<_>>());
        }
        let units = rules.build().unwrap();
        let digit = |c: u32| i32::from(solution.as_bytes()[c as usize] - b'0');
        let sums = derived_sums(&units);
        for (cells, negative, total) in &sums {
            let value: i32 = cells
                .iter()
                .enumerate()
                .map(|(i, &c)| match negative >> i & 1 {
                    1 => -digit(c),
                    _ => digit(c),
                })
                .sum();
            assert_eq!(value, *total, "{cells:?} {negative:b}");
        }
        // Rows 1-8: the cages mostly inside them are all but the 20 and the 27 of row 9; the
        // cells of those two in rows 1-8 (r8c4, r8c9) less the cells of the others in row 9
        // (r9c1, of the 25): 8 × 45 − (405 − 20 − 27) = 2 (9 + 1 − 8 in the solution).
        assert!(sums.contains(&(vec![66, 71, 72], 0b100, 2)), "{sums:?}");
        assert!(sums.len() > 20, "{}", sums.len());
    }

    #[test]
    fn a_combination_needs_a_matching() {
        let matches = |opens: &[u64], missing| supports(opens, missing, &mut vec![0; opens.len()]);
        // Three open cells whose candidates are {1, 2}, {1, 2}, {1, 2}: {1, 2, 3} does not fit,
        // although every cell can take a digit of it.
        assert!(!matches(&[0b011, 0b011, 0b011], 0b111));
        assert!(matches(&[0b011, 0b011, 0b100], 0b111));
        // Two cells that can only take 1, one that takes 2 or 3: no.
        assert!(!matches(&[0b001, 0b001, 0b110], 0b111));
        // A cell without any of the digits: no; digits beyond `missing` do not count.
        assert!(!matches(&[0b011, 0b100, 0b1000], 0b111));
        assert!(!matches(&[0b1011, 0b1011, 0b1011], 0b111));
        // Every digit everywhere, and a chain that needs an augmenting path.
        assert!(matches(&[0b111, 0b111, 0b111], 0b111));
        assert!(matches(&[0b011, 0b001, 0b110], 0b111));
    }

    #[test]
    fn a_combination_supports_only_the_digits_of_its_matchings() {
        // {1, 2}, {1, 2}, {1, 2, 3} taking {1, 2, 3}: the first two hold 1 and 2 between them (a
        // naked pair inside the cage), so the third can only be 3.
        let mut support = vec![0; 3];
        assert!(supports(&[0b011, 0b011, 0b111], 0b111, &mut support));
        assert_eq!(support, [0b011, 0b011, 0b100]);
        // Supports add up over combinations; digits beyond `missing` are never supported.
        assert!(supports(&[0b1011, 0b1011, 0b1111], 0b1011, &mut support));
        assert_eq!(support, [0b1011, 0b1011, 0b1111]);
        // {1, 2}, {2, 3}, {1, 3}, {1, 2, 3, 4} taking 1-4: the fourth is 4, and the first three
        // form a cycle, each keeping both its digits.
        let mut support = vec![0; 4];
        assert!(supports(
            &[0b0011, 0b0110, 0b0101, 0b1111],
            0b1111,
            &mut support
        ));
        assert_eq!(support, [0b0011, 0b0110, 0b0101, 0b1000]);
        // A chain without a cycle: {1}, {1, 2}, {2, 3}: only 1, 2, 3 in that order.
        let mut support = vec![0; 3];
        assert!(supports(&[0b001, 0b011, 0b110], 0b111, &mut support));
        assert_eq!(support, [0b001, 0b010, 0b100]);
        // No matching: nothing is added.
        let mut support = vec![0; 3];
        assert!(!supports(&[0b011, 0b011, 0b011], 0b111, &mut support));
        assert_eq!(support, [0, 0, 0]);
    }

    #[test]
    fn lowest_and_highest_sums_of_digit_sets() {
        for m in [0u64, 0b1, 0b1011_0110, u64::MAX, 1 << 63 | 1] {
            let ds: Vec<u32> = (0..64)
                .filter(|&d| m >> d & 1 == 1)
                .map(|d| d + 1)
                .collect();
            for k in 0..5 {
                assert_eq!(
                    lowest_sum(m, k),
                    ds.iter().take(k).sum::<u32>(),
                    "{m:b} {k}"
                );
                assert_eq!(
                    highest_sum(m, k),
                    ds.iter().rev().take(k).sum::<u32>(),
                    "{m:b} {k}"
                );
            }
        }
    }

    #[test]
    fn bounds_prune_when_combinations_are_too_many() {
        // 3 open cells, the rest 6: only 1, 2, 3 fit (any 4 would need the other two to sum to 2).
        let table = CageTable {
            cells: vec![0, 1, 2].into(),
            sum: 6,
            combos: None,
            seen_by: Box::new([]),
        };
        let mut cand = vec![0b1_1111_1111u16; 3];
        let mut bufs = Bufs::default();
        let mut queue = bufs.narrowed();
        let memo = Memo {
            slots: &mut [],
            id: 0,
        };
        assert_eq!(
            table.prune(
                9,
                &mut cand,
                &[0, 0, 0],
                &mut queue,
                memo,
                (0, &[0; AROUND]),
                &mut 0
            ),
            Ok(true)
        );
        assert!(cand.iter().all(|&m| m == 0b111));
    }
}
