//! The native backend's reasoning about window rules (renban lines: the k cells hold one of the
//! runs of k consecutive digits), by the windows still open, as a solver reads a renban line.
//!
//! A window stays open while the line's cells can hold its digits one each: every cell has a
//! candidate in it and the cells and its digits admit a perfect matching (augmenting paths over
//! bit masks, Hopcroft & Karp's idea in its simplest form). A renban line of up to ten cells
//! settles all its runs at once instead: subset tables over the line's cells whose entries are
//! masks of runs (one bit per run), so one pass of word operations serves every run. Then
//!
//! - each cell keeps only digits of some open window: this bounds the line (no digit further than
//!   k − 1 from any cell's candidates) and is at least as strong as arc consistency on the pairs
//!   "different and less than k apart";
//! - a digit in every open window must be on the line: with one cell left that can hold it, it goes
//!   there (a hidden single within the line); with several, a cell off the line that must differ
//!   from all of them (a peer in a unit, a relation, a group) loses it, as a cage's required digits
//!   do in a killer.
//!
//! The same reasoning as the valid/required values of sigh's `BinaryPairwise` handler for renban
//! (`handlers.js`: hidden singles and required-value exclusions), computed here from the windows.
//! Digit sets are the low 64 bits of the masks (clues are refused above 64 digits).

use super::mask::Mask;
use super::narrow::{Narrowed, domain, keep_only, signature_of as signature};
use super::step::{Contradiction, Step};
use crate::units::Units;

/// One window rule, as the search reads it.
#[derive(Debug, PartialEq, Eq)]
struct Line {
    /// The cells (at most 64).
    cells: Box<[u32]>,
    /// The windows, as digit masks.
    windows: Box<[u64]>,
    /// When the windows are runs of consecutive digits (renban) and the line has at most
    /// [`SUBSETS`] cells: bit x for the run from digit x (0-based), worked out all at once
    /// ([`starts`]); 0 otherwise.
    starts: u64,
    /// The cells off the line that must differ from two or more of its cells: (cell, which of
    /// the line's cells it must differ from, bit i for `cells[i]`).
    watchers: Box<[(u32, u64)]>,
    /// On lines of at most [`BY_HOLDERS`] cells, the watchers by the set of the line's cells they
    /// must differ from all of: those of set h (bit i for `cells[i]`) are
    /// `seeing[index[h]..index[h + 1]]` (empty `index` on longer lines: [`Line::watchers`] are
    /// scanned).
    index: Box<[u32]>,
    seeing: Box<[u32]>,
}

/// Lines of at most this many cells list their watchers by each set of their cells
/// ([`Line::index`]).
const BY_HOLDERS: usize = 6;

/// [`Line::index`] and [`Line::seeing`] of a line of `k` cells with `watchers`.
fn by_holders(k: usize, watchers: &[(u32, u64)]) -> (Box<[u32]>, Box<[u32]>) {
    if k > BY_HOLDERS {
        return (Box::new([]), Box::new([]));
    }
    let (mut index, mut seeing) = (vec![0u32], Vec::new());
    for h in 0..1u64 << k {
        seeing.extend(watchers.iter().filter(|w| w.1 & h == h).map(|w| w.0));
        index.push(seeing.len() as u32);
    }
    (index.into(), seeing.into())
}

/// The window rules of a grid, flattened for the search.
#[derive(Debug, PartialEq, Eq, Default)]
pub(crate) struct Windows {
    lines: Box<[Line]>,
}

impl Windows {
    /// The window rules of `units` (none on grids above 64 digits, where clues are refused).
    pub(crate) fn build(units: &Units) -> Windows {
        let rules = units.window_rules();
        if rules.is_empty() || units.shape().n() > 64 {
            return Windows::default();
        }
        // Who must differ from whom besides the unit peers: "must differ" relations and groups.
        let cells = units.shape().cells();
        let mut extra: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for r in units.relations().iter().filter(|r| r.kind.is_differ()) {
            extra[r.a.index()].push(r.b.index() as u32);
            extra[r.b.index()].push(r.a.index() as u32);
        }
        for g in units.groups() {
            for a in &g.cells {
                extra[a.index()].extend(g.cells.iter().map(|b| b.index() as u32));
            }
        }
        let lines = rules
            .iter()
            .filter(|r| r.cells.len() <= 64)
            .map(|r| {
                let line: Vec<u32> = r.cells.iter().map(|c| c.index() as u32).collect();
                let mut seen = vec![0u64; cells];
                for (i, &c) in r.cells.iter().enumerate() {
                    let peers = units.peers(c).iter().map(|p| p.index() as u32);
                    for p in peers.chain(extra[c.index()].iter().copied()) {
                        seen[p as usize] |= 1 << i;
                    }
                }
                let watchers = seen
                    .iter()
                    .enumerate()
                    .filter(|&(x, m)| m.count_ones() >= 2 && !line.contains(&(x as u32)))
                    .map(|(x, &m)| (x as u32, m))
                    .collect();
                let windows: Box<[u64]> = r.windows.iter().map(|w| w.words()[0]).collect();
                let watchers: Box<[(u32, u64)]> = watchers;
                let (index, seeing) = by_holders(line.len(), &watchers);
                Line {
                    starts: starts_of(&windows, line.len()),
                    cells: line.into(),
                    windows,
                    watchers,
                    index,
                    seeing,
                }
            })
            .collect();
        Windows { lines }
    }

    /// Whether there is no window rule.
    pub(crate) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The words of memo the lines keep (see [`Windows::prune`]).
    pub(crate) fn memo_len(&self) -> usize {
        3 * self.lines.len()
    }

    /// One pass over the lines (see the module docs); whether it removed a candidate. `memo` holds,
    /// per line, the signature of its cells when it was last narrowed to its windows (0: none), the
    /// digits they required, so that the windows are not worked out again on the same cells, and
    /// the `epoch` (the propagation: within one, cells only lose candidates) in which the required
    /// digits were last placed on those cells, so that they are not placed again.
    ///
    /// # Errors
    /// A line with no window open; its cells are blamed.
    pub(crate) fn prune<M: Mask>(
        &self,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        memo: &mut [u64],
        epoch: u64,
    ) -> Step<bool> {
        let mut changed = false;
        for (line, memo) in self.lines.iter().zip(memo.chunks_exact_mut(3)) {
            match line.prune(cand, vals, out, memo, epoch) {
                Ok(c) => changed |= c,
                Err(e) => {
                    out.blame.extend_from_slice(&line.cells);
                    return Err(e);
                }
            }
        }
        Ok(changed)
    }
}

impl Line {
    /// Prunes the line: its cells to the digits of open windows (unless `memo`, the signature of
    /// its cells' digits and its required digits when it was last pruned, matches them: then they
    /// are as that left them, the pruning reading nothing else), then the digits every open window
    /// requires (unless they were placed on the same cells earlier in this `epoch`: the cells off
    /// the line that lost them then cannot have them back). `memo` is updated.
    fn prune<M: Mask>(
        &self,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        memo: &mut [u64],
        epoch: u64,
    ) -> Step<bool> {
        if self.cells.len() <= 16 {
            self.prune_in::<M, 16>(cand, vals, out, memo, epoch)
        } else {
            self.prune_in::<M, 64>(cand, vals, out, memo, epoch)
        }
    }

    /// [`Line::prune`] with room for `N` cells (short lines clear less memory).
    fn prune_in<M: Mask, const N: usize>(
        &self,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        memo: &mut [u64],
        epoch: u64,
    ) -> Step<bool> {
        let mut dom = [0u64; N];
        for (d, &c) in dom.iter_mut().zip(self.cells.iter()) {
            *d = domain(cand, vals, c as usize);
        }
        let dom = &mut dom[..self.cells.len()];
        let mut changed = false;
        let required = if memo[0] == signature(dom) {
            if memo[2] == epoch {
                return Ok(false);
            }
            memo[1]
        } else {
            let required;
            (changed, required) = self.windows::<M, N>(dom, cand, vals, out)?;
            memo[0] = signature(dom);
            memo[1] = required;
            required
        };
        // Placed on these cells in this epoch, unless placing them narrows the line (a hidden
        // single): its cells then have another signature.
        memo[2] = epoch;
        Ok(self.place_required(dom, cand, vals, out, required)? || changed)
    }

    /// Narrows the cells (digit sets `dom`, kept up to date) to the digits some open window gives
    /// them; the digits every open window holds.
    fn windows<M: Mask, const N: usize>(
        &self,
        dom: &mut [u64],
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<(bool, u64)> {
        let k = self.cells.len();
        // Per cell, the digits some open window supports (GAC: a perfect matching through them).
        let mut support = [0u64; N];
        let (mut open, mut required) = (0u64, u64::MAX);
        if self.starts != 0 {
            // All windows at once: `open` has bit x when the run from digit x is open.
            open = starts(dom, self.starts, &mut support[..k]);
            if open != 0 {
                let run = (1u64 << k) - 1;
                required = run << open.trailing_zeros() & run << (63 - open.leading_zeros());
            }
        } else {
            let union = dom.iter().fold(0, |a, &d| a | d);
            for &w in self.windows.iter() {
                if union & w == w && supports(dom, w, &mut support[..k]) {
                    open |= w;
                    required &= w;
                }
            }
        }
        if open == 0 {
            return Err(Contradiction);
        }
        let mut changed = false;
        for (i, &c) in self.cells.iter().enumerate() {
            if dom[i] & !support[i] != 0 {
                changed |= keep_only(cand, vals, out, c as usize, support[i])?;
                dom[i] &= support[i];
            }
        }
        Ok((changed, required))
    }

    /// Each `required` digit: placed on the one cell of the line left for it, or removed from the
    /// cells off the line that must differ from all of the line's cells that may hold it (but
    /// those a cell of the line holds alone).
    fn place_required<M: Mask>(
        &self,
        dom: &mut [u64],
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        required: u64,
    ) -> Step<bool> {
        let mut changed = false;
        // A digit a cell of the line holds alone is placed there or about to be: the cells that
        // must differ from that cell lose it by the placement.
        let alone = dom
            .iter()
            .filter(|&&d| d & d.wrapping_sub(1) == 0)
            .fold(0, |a, &d| a | d);
        let mut req = required & !alone;
        while req != 0 {
            let bit = req & req.wrapping_neg();
            req &= req - 1;
            let mut holders = 0u64;
            for (i, &d) in dom.iter().enumerate() {
                if d & bit != 0 {
                    holders |= 1 << i;
                }
            }
            match holders.count_ones() {
                0 => return Err(Contradiction),
                1 => {
                    let i = holders.trailing_zeros() as usize;
                    changed |= keep_only(cand, vals, out, self.cells[i] as usize, bit)?;
                    dom[i] = bit;
                }
                _ if !self.index.is_empty() => {
                    let h = holders as usize;
                    let (from, to) = (self.index[h] as usize, self.index[h + 1] as usize);
                    for &x in &self.seeing[from..to] {
                        if domain(cand, vals, x as usize) & bit != 0 {
                            changed |= keep_only(cand, vals, out, x as usize, !bit)?;
                        }
                    }
                }
                _ => {
                    for &(x, sees) in self.watchers.iter() {
                        if sees & holders == holders && domain(cand, vals, x as usize) & bit != 0 {
                            changed |= keep_only(cand, vals, out, x as usize, !bit)?;
                        }
                    }
                }
            }
        }
        Ok(changed)
    }
}

/// Lines of runs with at most this many cells are worked out by subset tables ([`starts`], 2^k
/// words each).
const SUBSETS: usize = 10;

/// The starts of `windows` (bit x for the run from digit x) when each is a run of `k` <= [`SUBSETS`]
/// digits; 0 otherwise.
fn starts_of(windows: &[u64], k: usize) -> u64 {
    let run = (1u64 << k.min(63)) - 1;
    let runs = (1..=SUBSETS).contains(&k)
        && windows
            .iter()
            .all(|&w| w != 0 && w == run << w.trailing_zeros());
    match runs {
        true => windows.iter().fold(0, |a, &w| a | 1 << w.trailing_zeros()),
        false => 0,
    }
}

/// The runs among `starts` (bit x: the k = `dom.len()` digits from x) that the cells with digit
/// sets `dom` can hold one each, all runs at once; each cell's digits in some such assignment are
/// added to its `support`. By subset tables of start masks: `head[s]`, the runs whose offsets `s`
/// the first |s| cells can hold one each, `tail[s]` the same for the last |s| cells; cell i may
/// hold offset e of run x when, for some s of i offsets without e, `head[s]` and `tail` of the
/// other offsets both have x.
fn starts(dom: &[u64], starts: u64, support: &mut [u64]) -> u64 {
    match dom.len() {
        0 => starts_in::<16>(dom, starts, support),
        1 => {
            support[0] |= starts & dom[0];
            starts & dom[0]
        }
        2 => orders(dom, starts, support, &[[0, 1], [1, 0]]),
        3 => orders(dom, starts, support, &ORDERS_3),
        4 => orders(dom, starts, support, &ORDERS_4),
        5..=6 => starts_in::<64>(dom, starts, support),
        7..=8 => starts_in::<256>(dom, starts, support),
        _ => starts_in::<1024>(dom, starts, support),
    }
}

/// The orders of the offsets 0..3 of a run of three digits along a line.
const ORDERS_3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The orders of the offsets 0..4 of a run of four digits along a line.
const ORDERS_4: [[u8; 4]; 24] = {
    let mut all = [[0u8; 4]; 24];
    let mut n = 0;
    let mut x = 0;
    while x < 256 {
        let o = [
            (x & 3) as u8,
            (x >> 2 & 3) as u8,
            (x >> 4 & 3) as u8,
            (x >> 6) as u8,
        ];
        let seen = 1u8 << o[0] | 1 << o[1] | 1 << o[2] | 1 << o[3];
        if seen == 0b1111 {
            all[n] = o;
            n += 1;
        }
        x += 1;
    }
    all
};

/// [`starts`] for lines of `K` <= 4 cells, by every order of the run's offsets along the line
/// (`orders`: cell i takes offset `o[i]`): the starts x whose run fits an order (each cell i has
/// digit x + o[i]) are open, and the order gives each cell its digit of them. A few word operations
/// per order, where the subset tables cost hundreds.
#[inline]
fn orders<const K: usize>(
    dom: &[u64],
    starts: u64,
    support: &mut [u64],
    orders: &[[u8; K]],
) -> u64 {
    // shifted[i][e]: the starts x with digit x + e in cell i's set.
    let mut shifted = [[0u64; K]; K];
    for (row, &d) in shifted.iter_mut().zip(dom) {
        for (e, s) in row.iter_mut().enumerate() {
            *s = starts & d >> e;
        }
    }
    let mut open = 0;
    let mut got = [0u64; K];
    for o in orders {
        let mut fit = u64::MAX;
        for i in 0..K {
            fit &= shifted[i][o[i] as usize];
        }
        open |= fit;
        for i in 0..K {
            got[i] |= fit << o[i];
        }
    }
    for (s, g) in support.iter_mut().zip(got) {
        *s |= g;
    }
    open
}

/// [`starts`] with room for `S` subsets.
fn starts_in<const S: usize>(dom: &[u64], starts: u64, support: &mut [u64]) -> u64 {
    let k = dom.len();
    let full = (1usize << k) - 1;
    let mut head = [0u64; S];
    let mut tail = [0u64; S];
    head[0] = starts;
    tail[0] = starts;
    for s in 1..=full {
        let n = s.count_ones() as usize;
        let (dh, dt) = (dom[n - 1], dom[k - n]);
        let (mut h, mut t, mut r) = (0, 0, s);
        while r != 0 {
            let e = r.trailing_zeros();
            r &= r - 1;
            h |= head[s ^ 1 << e] & dh >> e;
            t |= tail[s ^ 1 << e] & dt >> e;
        }
        head[s] = h;
        tail[s] = t;
    }
    let open = head[full];
    if open == 0 {
        return 0;
    }
    for s in (0..full).filter(|&s| head[s] != 0) {
        let i = s.count_ones() as usize;
        let (h, mut r) = (head[s], full ^ s);
        while r != 0 {
            let e = r.trailing_zeros();
            r &= r - 1;
            support[i] |= (h & dom[i] >> e & tail[full ^ s ^ 1 << e]) << e;
        }
    }
    open
}

/// Whether the cells with digit sets `dom` can hold the digits of `window` one each (as many cells
/// as digits): if so, each cell's digits of the window that some such assignment gives it are added
/// to `support`. A perfect matching, then for each other digit of a cell a matching that gives the
/// cell that digit (augmenting paths; the lines are short).
fn supports(dom: &[u64], window: u64, support: &mut [u64]) -> bool {
    let mut owner = [u8::MAX; 64];
    if !matching(dom, window, &mut owner) {
        return false;
    }
    take(&owner, window, support);
    let mut trial = [0u64; 64];
    let trial = &mut trial[..dom.len()];
    for i in 0..dom.len() {
        let mut rest = dom[i] & window & !support[i];
        while rest != 0 {
            let d = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            trial.copy_from_slice(dom);
            trial[i] = 1 << d;
            let mut o = [u8::MAX; 64];
            if matching(trial, window, &mut o) {
                take(&o, window, support);
            }
        }
    }
    true
}

/// Adds the digits of a matching (`owner`: digit to cell) to the cells' `support`.
fn take(owner: &[u8; 64], window: u64, support: &mut [u64]) {
    let mut w = window;
    while w != 0 {
        let e = w.trailing_zeros() as usize;
        w &= w - 1;
        if let Some(s) = support.get_mut(owner[e] as usize) {
            *s |= 1 << e;
        }
    }
}

/// A perfect matching of the cells with digit sets `dom` to the digits of `window` (as many), in
/// `owner` (digit to cell); whether there is one.
fn matching(dom: &[u64], window: u64, owner: &mut [u8; 64]) -> bool {
    if dom.iter().any(|&d| d & window == 0) {
        return false;
    }
    for i in 0..dom.len() {
        let mut visited = 0u64;
        if !augment(i, dom, window, owner, &mut visited) {
            return false;
        }
    }
    true
}

/// Finds cell `i` a digit of `window`, moving other cells along an augmenting path.
fn augment(i: usize, dom: &[u64], window: u64, owner: &mut [u8; 64], visited: &mut u64) -> bool {
    loop {
        let free = dom[i] & window & !*visited;
        if free == 0 {
            return false;
        }
        let d = free.trailing_zeros() as usize;
        *visited |= 1 << d;
        let o = owner[d];
        if o == u8::MAX || augment(o as usize, dom, window, owner, visited) {
            owner[d] = i as u8;
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fits(dom: &[u64], window: u64) -> Option<Vec<u64>> {
        let mut support = vec![0; dom.len()];
        supports(dom, window, &mut support).then_some(support)
    }

    #[test]
    fn a_perfect_matching_or_none() {
        // Three cells, window {1, 2, 3}: {1}, {1, 2}, {2, 3} fit; {1}, {1, 2}, {1, 2} do not.
        assert!(fits(&[0b001, 0b011, 0b110], 0b111).is_some());
        assert!(fits(&[0b001, 0b011, 0b011], 0b111).is_none());
        assert!(fits(&[0b001, 0b010, 0b1000], 0b111).is_none());
    }

    #[test]
    fn supports_are_the_digits_of_some_matching() {
        // {4, 5}, {4, 5}, {3, 4, 5, 6} in the window {4, 5, 6}: the third cell can only be 6; the
        // digit 3 is outside the window.
        let (four, five, six) = (1 << 3, 1 << 4, 1 << 5);
        let dom = [four | five, four | five, 1 << 2 | four | five | six];
        let s = fits(&dom, four | five | six).unwrap();
        assert_eq!(s, vec![four | five, four | five, six]);
        // {1}, {1, 2}, {1, 2, 3} in {1, 2, 3}: exactly 1, 2, 3.
        let s = fits(&[0b001, 0b011, 0b111], 0b111).unwrap();
        assert_eq!(s, vec![0b001, 0b010, 0b100]);
    }

    /// The search's seeded generator as a closure (reproducible).
    fn seeded(mut seed: u64) -> impl FnMut() -> u64 {
        move || crate::dfs::search::splitmix(&mut seed)
    }

    /// Each cell's digits in some assignment of the window's digits one each, by trying every
    /// assignment (`None`: no assignment).
    fn brute(dom: &[u64], window: u64) -> Option<Vec<u64>> {
        let digits: Vec<u64> = (0..64)
            .map(|e| 1 << e)
            .filter(|b| window & b != 0)
            .collect();
        let mut support = vec![0; dom.len()];
        let mut any = false;
        let mut pick = vec![0usize; dom.len()];
        loop {
            let used = pick.iter().fold(0u64, |a, &j| a | digits[j]);
            let fits = pick.iter().zip(dom).all(|(&j, &d)| d & digits[j] != 0);
            if used.count_ones() as usize == dom.len() && fits {
                any = true;
                for (s, &j) in support.iter_mut().zip(&pick) {
                    *s |= digits[j];
                }
            }
            // The next assignment (odometer).
            let mut i = 0;
            while i < pick.len() && pick[i] + 1 == digits.len() {
                pick[i] = 0;
                i += 1;
            }
            if i == pick.len() {
                break;
            }
            pick[i] += 1;
        }
        any.then_some(support)
    }

    /// Some of the runs of `k` digits of 1..=`n`, as starts (bit x: the run from digit x): all of
    /// them every other draw.
    fn some_starts(next: &mut impl FnMut() -> u64, k: usize, n: usize) -> u64 {
        let all = (1u64 << (n - k + 1)) - 1;
        match next() % 2 {
            0 => all,
            _ => all & next(),
        }
    }

    /// What [`starts`] gives, run by run with `each` (a window's supports, or none).
    fn run_by_run(
        dom: &[u64],
        starts: u64,
        support: &mut [u64],
        mut each: impl FnMut(&[u64], u64, &mut [u64]) -> bool,
    ) -> u64 {
        let run = (1u64 << dom.len()) - 1;
        let mut open = 0;
        for x in (0..64).filter(|x| starts >> x & 1 == 1) {
            if each(dom, run << x, support) {
                open |= 1 << x;
            }
        }
        open
    }

    #[test]
    fn all_runs_at_once_give_what_every_assignment_gives() {
        let mut next = seeded(0x5eed_fa10);
        for trial in 0..3000 {
            let k = 1 + trial % 5;
            let n = k + (next() % 5) as usize;
            let st = some_starts(&mut next, k, n);
            let dom: Vec<u64> = (0..k)
                .map(|_| (next() | next() & next()) & ((1 << n) - 1))
                .collect();
            let mut got = vec![0; k];
            let open = starts(&dom, st, &mut got);
            let mut want = vec![0; k];
            let want_open = run_by_run(&dom, st, &mut want, |dom, w, support| {
                let Some(s) = brute(dom, w) else {
                    return false;
                };
                support.iter_mut().zip(s).for_each(|(a, b)| *a |= b);
                true
            });
            assert_eq!((open, got), (want_open, want), "{dom:?} from {st:b}");
        }
    }

    #[test]
    fn all_runs_at_once_and_matchings_agree() {
        // The two ways to a line's supports, on lines of 1 to 10 cells, into supports already
        // holding digits: the same runs open and the same supports.
        let mut next = seeded(0xfa10_0001);
        for trial in 0..20_000 {
            let k = 1 + trial % SUBSETS;
            let n = k + (next() % 8) as usize;
            let st = some_starts(&mut next, k, n);
            let dom: Vec<u64> = (0..k).map(|_| (next() | next()) & ((1 << n) - 1)).collect();
            let before: Vec<u64> = (0..k).map(|_| next() & next() & ((1 << n) - 1)).collect();
            let (mut a, mut b) = (before.clone(), before.clone());
            let open = starts(&dom, st, &mut a);
            assert_eq!(open, run_by_run(&dom, st, &mut b, supports), "{dom:?}");
            assert_eq!(a, b, "{dom:?} from {st:b}");
        }
    }

    /// A 9x9 grid with renban lines `lines` (cells as (row, column), 0-based) and its windows.
    fn windows_of(lines: &[&[(usize, usize)]]) -> Windows {
        use crate::clue::Clue;
        use crate::grid::{Cell, Shape};
        let shape = Shape::new(3, 3).unwrap();
        let mut b = Units::rules(shape);
        for line in lines {
            let cells = line.iter().map(|&(r, c)| Cell::at(shape, r, c)).collect();
            b = b.clue(Clue::Renban { cells });
        }
        Windows::build(&b.build().unwrap())
    }

    /// Passes of `w` over `cand` until one removes nothing; the outcome. With `memo` kept from
    /// pass to pass in one `epoch`, or fresh for each pass (`None`).
    fn to_fixpoint(w: &Windows, cand: &mut [u16], memo: Option<(&mut [u64], u64)>) -> Step<()> {
        let vals = vec![0u16; cand.len()];
        let mut bufs = crate::dfs::narrow::Buffers::default();
        match memo {
            Some((memo, epoch)) => {
                while w.prune(cand, &vals, &mut bufs.narrowed(), memo, epoch)? {}
            }
            None => {
                let fresh = || vec![0u64; w.memo_len()];
                while w.prune(cand, &vals, &mut bufs.narrowed(), &mut fresh(), 1)? {}
            }
        }
        Ok(())
    }

    #[test]
    fn required_digits_leave_the_watchers_again_in_a_new_epoch() {
        // R1C1 {4, 5} and R1C2 {4, 5, 6} on a renban of two: 5 is required and both may hold it,
        // so R1C3 (in their row and box) loses it.
        let w = windows_of(&[&[(0, 0), (0, 1)]]);
        let mut cand = vec![0x1ffu16; 81];
        cand[0] = 0b11000;
        cand[1] = 0b111000;
        let mut memo = vec![0u64; w.memo_len()];
        to_fixpoint(&w, &mut cand, Some((&mut memo, 1))).unwrap();
        assert_eq!(cand[2], 0x1ff & !0b10000);
        assert_eq!(cand[9 * 4 + 4], 0x1ff, "R5C5 sees neither");
        // Back in another branch where R1C3 still has the 5, the line's cells as they were: in the
        // same epoch the memo says the 5 was placed already; in a new one it is placed again.
        cand[2] = 0x1ff;
        to_fixpoint(&w, &mut cand, Some((&mut memo, 1))).unwrap();
        assert_eq!(cand[2], 0x1ff);
        to_fixpoint(&w, &mut cand, Some((&mut memo, 2))).unwrap();
        assert_eq!(cand[2], 0x1ff & !0b10000);
    }

    #[test]
    fn the_epoch_memo_removes_what_fresh_passes_remove() {
        // Renban lines of 2, 3 and 4 cells crossing boxes: along random narrowings within one
        // epoch (cells only lose candidates), passes with the memo end where passes without it do.
        let w = windows_of(&[
            &[(1, 0), (0, 1)],
            &[(2, 1), (1, 2), (0, 3)],
            &[(3, 3), (4, 4), (5, 5), (6, 6)],
            &[(2, 2), (2, 3)],
        ]);
        let near: Vec<usize> = (0..81).filter(|c| c % 9 < 7 && c / 9 < 7).collect();
        let mut next = seeded(0xe90c_0001);
        for trial in 0..400u64 {
            let mut a = vec![0x1ffu16; 81];
            let mut b = a.clone();
            let mut memo = vec![0u64; w.memo_len()];
            for _ in 0..12 {
                for _ in 0..(1 + next() % 6) {
                    let c = near[(next() % near.len() as u64) as usize];
                    let keep = (next() | next()) as u16 & 0x1ff;
                    if a[c] & keep != 0 && a[c] == b[c] {
                        a[c] &= keep;
                        b[c] &= keep;
                    }
                }
                let ra = to_fixpoint(&w, &mut a, Some((&mut memo, trial + 1)));
                let rb = to_fixpoint(&w, &mut b, None);
                assert_eq!(ra.is_ok(), rb.is_ok(), "trial {trial}");
                if ra.is_err() {
                    break;
                }
                assert_eq!(a, b, "trial {trial}");
            }
        }
    }

    #[test]
    fn runs_are_worked_out_at_once_and_other_windows_one_by_one() {
        let runs = [0b111, 0b1110, 0b11100];
        assert_eq!(starts_of(&runs, 3), 0b111);
        assert_eq!(starts_of(&[0b1011, 0b1110], 3), 0);
        assert_eq!(starts_of(&[(1 << 11) - 1], 11), 0);
    }
}
