//! The search state (candidates per cell, digits placed per unit, values) with an undo log instead of
//! copies, and its propagation: naked singles, hidden singles, locked candidates, fail-fast checks;
//! and the choice of the next branch (a cell or a digit's places in a unit).

use std::collections::VecDeque;
use std::time::Instant;

use super::consecutive::NonConsecutive;
use super::mask::Mask;
use super::rules::{Narrowed, Rules};
use super::step::{Contradiction, Step};
use super::tables::{SEED_UNIT, Tables};
use crate::solve::past;

/// Buffers for propagation, reused across nodes: the naked-single queue and the locked-candidate
/// masks (per pair of units).
pub(crate) struct Work<M> {
    /// Cells left with a single candidate, not yet placed.
    pub queue: Vec<u32>,
    /// Per pair: the candidates of the shared cells.
    inter: Vec<M>,
    /// Per pair side (`2 · pair + side`): the candidates of that side's unit outside the shared cells.
    outside: Vec<M>,
    /// What one pass of the variant rules removed: cells and digits.
    removed: Vec<(u32, M)>,
    /// The cells of the cage or sum whose pruning failed last.
    blame: Vec<u32>,
    /// The change detection of the cages, sums and clues (see [`Narrowed::seen`]).
    seen: Vec<u64>,
    /// Room for the clues' sums and lines (see [`Narrowed::scratch`]).
    scratch: Vec<u64>,
    /// Per window rule, what its last narrowing left (`renban.rs`).
    windows_seen: Vec<u64>,
    /// Which propagation this is ([`State::rules`] and [`State::probe_propagate`] each start a
    /// new one), for the window rules' memo: within one, cells only lose candidates.
    windows_epoch: u64,
    marks: Vec<u8>,
    /// Per cell, its seed (1, or under clue rules [`Tables::seeds`]) plus [`Work::unit`] per dead
    /// end it was blamed for in this search, halved now and then under clues (cages: see
    /// [`State::pick_weighted`]); empty without cages.
    pub weights: Vec<u32>,
    /// What a dead end adds to a weight: 1, or under clue rules [`SEED_UNIT`].
    unit: u32,
    /// Per digit, the dead ends right after a branch on it, quartered now and then (see
    /// [`Work::conflict`]); empty without clues ([`Tables::clue_rules`]): killers, jigsaws and
    /// non-consecutive pairs keep plain dom/wdeg.
    values: Vec<u32>,
    /// Dead ends left before the next decay of the weights.
    countdown: u32,
}

impl<M: Mask> Work<M> {
    /// Empty buffers (no allocation).
    pub const fn new() -> Self {
        Work {
            queue: Vec::new(),
            inter: Vec::new(),
            outside: Vec::new(),
            removed: Vec::new(),
            blame: Vec::new(),
            seen: Vec::new(),
            scratch: Vec::new(),
            windows_seen: Vec::new(),
            windows_epoch: 0,
            marks: Vec::new(),
            weights: Vec::new(),
            unit: 1,
            values: Vec::new(),
            countdown: DECAY_EVERY,
        }
    }

    /// A dead end right after the branch that put `digit` in `cell`: both weigh more. Every
    /// [`DECAY_EVERY`] such dead ends the cells' weights are halved and the digits' quartered, so
    /// that they tell where the search has failed lately (sigh's `ConflictScores`, which count
    /// conflicts per cell and per value and decay them alike).
    pub fn conflict(&mut self, cell: usize, digit: u32) {
        self.weights[cell] += self.unit;
        if self.values.is_empty() {
            return;
        }
        self.values[digit as usize] += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = DECAY_EVERY;
            for w in &mut self.weights {
                *w = w.div_ceil(2);
            }
            for v in &mut self.values {
                *v /= 4;
            }
        }
    }

    /// The digit that failed most lately, as a mask, and the bonus a cell holding it gets in
    /// [`State::pick_weighted`] (its count, in weight units): when its count is at least `n` (the
    /// grid side) and more than 1.5 times the smallest nonzero count (as sigh's
    /// `getMaxValueScore`); else (and without clues) `ZERO` and 0.
    pub fn hot_digit(&self, n: usize) -> (M, u64) {
        let (mut max, mut best, mut min) = (0u32, 0u32, u32::MAX);
        for (d, &v) in self.values.iter().enumerate() {
            if v > max {
                max = v;
                best = d as u32;
            }
            if v != 0 && v < min {
                min = v;
            }
        }
        if (max as usize) < n || 2 * u64::from(max) <= 3 * u64::from(min) {
            (M::ZERO, 0)
        } else {
            (M::bit(best), u64::from(max) * u64::from(self.unit))
        }
    }

    /// The buffers a pruning pass writes into, its removals and blame cleared; with the change
    /// detection of the cages, sums and clues (`seen`) or without (the pairs keep their own).
    fn narrowed(&mut self, seen: bool) -> Narrowed<'_, M> {
        self.removed.clear();
        self.blame.clear();
        Narrowed {
            queue: &mut self.queue,
            removed: &mut self.removed,
            blame: &mut self.blame,
            seen: if seen { &mut self.seen } else { &mut [] },
            scratch: &mut self.scratch,
            marks: &mut self.marks,
        }
    }

    /// Sized for `t`, queue empty.
    pub fn prepare(&mut self, t: &Tables) {
        self.queue.clear();
        self.queue.reserve(t.cells);
        self.inter.resize(t.pairs.len(), M::ZERO);
        self.outside.resize(2 * t.pairs.len(), M::ZERO);
        self.weights.clear();
        self.seen.clear();
        self.windows_seen.clear();
        if let Some(rules) = &t.rules {
            self.seen.resize(rules.seen_len(), 0);
            self.windows_seen.resize(rules.windows.memo_len(), 0);
        }
        self.values.clear();
        self.countdown = DECAY_EVERY;
        self.unit = 1;
        if t.weighted && t.seeds.is_empty() {
            self.weights.resize(t.cells, 1);
        } else if t.weighted {
            self.weights.extend_from_slice(&t.seeds);
            self.unit = SEED_UNIT;
        }
        if t.weighted && t.clue_rules {
            self.values.resize(t.n, 0);
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.queue.capacity() * 4
            + (self.inter.capacity() + self.outside.capacity()) * size_of::<M>()
    }
}

/// Dead ends between two decays of the branching weights ([`Work::conflict`]): sigh's figure.
const DECAY_EVERY: u32 = 1 << 14;

/// The `digit` of a log entry that records removed candidates rather than a placement.
const REMOVED: u32 = u32::MAX;

/// One change in the undo log.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    /// The cell placed, or the cell that lost candidates.
    cell: u32,
    /// The 0-based digit placed, or [`REMOVED`].
    digit: u32,
    /// A placement's first entry in `lost`: the peers that lost the digit are `lost[from..]` up to
    /// the next placement's `from`.
    from: u32,
    /// A placement: the cell's candidates before it; a removal: the digits removed.
    mask: M,
}

/// What the search branches on: put `digit` (0-based) in `cell`, or else remove it from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Branch {
    /// The cell.
    pub cell: usize,
    /// The 0-based digit.
    pub digit: u32,
}

/// A partial assignment, changed in place; an undo log takes it back to any earlier mark.
///
/// Invariant between calls: an open cell's candidates exclude every digit placed in any of its units
/// (eliminations are eager), so `cand` alone tells which digits an open cell may take.
///
/// Large grids backtrack through the log (a copy per guess costs 38 KB per level of a 64x64 grid): a
/// placement logs the cell's candidates and the 4-byte index of each peer that lost the digit, a
/// removal the digits removed; undoing puts them back. Memory is thus proportional to the changes
/// along the current path, never to the grid times the depth; nothing is logged before the first
/// branch (the givens and the root's propagation are never undone). Small grids copy the state per
/// guess instead ([`State::copy_from`]), with the log off: cheaper there than logging.
pub(crate) struct State<M: Mask> {
    /// Candidates of each open cell; empty (`ZERO`) once the cell holds a digit.
    cand: Vec<M>,
    /// The digits placed in each unit.
    placed: Vec<M>,
    /// Each cell's digit 1..=N, 0 while open.
    vals: Vec<u16>,
    /// The number of open cells.
    open: u32,
    /// The undo log, oldest first.
    log: Vec<Entry<M>>,
    /// The peers that lost a placed digit, per logged placement; only `lost[..lost_len]` is in use
    /// (the rest is room, written without a branch per peer).
    lost: Vec<u32>,
    lost_len: usize,
    /// Whether changes are logged (not before the first branch).
    logging: bool,
    /// Large grids and non-consecutive pairs: singles fold only the units whose cells changed since
    /// their last fold (`dirty`, listed in `to_fold`), rather than every unit in turn until a whole
    /// round finds nothing. First marked, first folded: a unit waiting its turn gathers more
    /// changes before its one fold (on 400x400-rkkautsar-1, 293,000 folds instead of 347,000 last
    /// marked first; 1.25 -> 1.06 s).
    marked: bool,
    dirty: Vec<bool>,
    to_fold: VecDeque<u32>,
    /// Under non-consecutive pairs, a bit per cell: the cells changed since the pairs last looked
    /// at them (`changed`) and since the unit rule last ran (`pending`); see
    /// [`NonConsecutive::propagate`]. Empty otherwise.
    changed: Vec<u64>,
    pending: Vec<u64>,
    /// Large grids: singles look at the clock and the stop flags ([`State::watch`]).
    look: bool,
    /// Large grids: when the solve must stop ([`State::watch`]); singles look at it and at the stop
    /// flags every [`FOLDS_PER_LOOK`] folds, for the propagation of one node can take a second
    /// (400x400-rkkautsar-1's root settles the grid).
    deadline: Option<Instant>,
    /// Units folded since the last [`State::reset`].
    folds: u64,
    /// In a probe's propagation ([`State::probe_propagate`]): the non-consecutive pairs leave out
    /// their unit rule.
    probing: bool,
    /// Whether a look found the time up: the propagation then fails, and the search must give up
    /// rather than read the failure as a dead end.
    stopped: bool,
    /// The placed cell and the digit peer it left without a candidate, on such a dead end.
    clash: Option<(u32, u32)>,
}

/// Folds between two looks at the clock and the stop flags (400x400: about 100 us).
const FOLDS_PER_LOOK: u64 = 256;

impl<M: Mask> State<M> {
    /// An empty state (no allocation), to be [`reset`](State::reset) before use.
    pub const fn new() -> Self {
        State {
            cand: Vec::new(),
            placed: Vec::new(),
            vals: Vec::new(),
            open: 0,
            log: Vec::new(),
            lost: Vec::new(),
            lost_len: 0,
            logging: false,
            marked: false,
            dirty: Vec::new(),
            to_fold: VecDeque::new(),
            changed: Vec::new(),
            pending: Vec::new(),
            look: false,
            deadline: None,
            folds: 0,
            probing: false,
            stopped: false,
            clash: None,
        }
    }

    /// The empty grid: every cell open with every digit; the log empty and off. `large`: fold only
    /// the units that changed (see [`State::singles`]; also under non-consecutive pairs) and look
    /// at the clock while folding.
    pub fn reset(&mut self, t: &Tables, large: bool) {
        self.cand.clear();
        self.cand.resize(t.cells, M::all(t.n));
        self.placed.clear();
        self.placed.resize(t.units, M::ZERO);
        self.vals.clear();
        self.vals.resize(t.cells, 0);
        self.open = t.cells as u32;
        self.log.clear();
        self.lost_len = 0;
        self.logging = false;
        let nc = t.rules.as_ref().is_some_and(Rules::has_non_consecutive);
        self.marked = large || nc;
        self.look = large;
        self.dirty.clear();
        self.to_fold.clear();
        self.changed.clear();
        self.pending.clear();
        self.deadline = None;
        self.folds = 0;
        self.stopped = false;
        if self.marked {
            self.dirty.resize(t.units, true);
            self.to_fold.extend(0..t.units as u32);
        }
        if nc {
            // Every cell changed: the first propagation looks at every pair and unit.
            let words = t.cells.div_ceil(64);
            self.changed.resize(words, u64::MAX);
            self.changed[words - 1] = u64::MAX >> (64 * words - t.cells);
            self.pending.resize(words, 0);
        }
    }

    /// From now on, singles on a large grid stop (fail, with [`State::stopped`] set) once
    /// `deadline` passes or the solve is asked to stop.
    pub fn watch(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether a propagation was cut short by the deadline or a stop flag ([`State::watch`]).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Units folded since the last [`State::reset`] (large grids).
    #[cfg(test)]
    pub fn folds(&self) -> u64 {
        self.folds
    }

    /// Marks the units of cell `c` for folding (large grids, non-consecutive pairs), and the cell
    /// as changed for the pairs (when `changed` is kept).
    #[inline(always)]
    fn touch(
        dirty: &mut [bool],
        to_fold: &mut VecDeque<u32>,
        changed: &mut [u64],
        t: &Tables,
        c: usize,
    ) {
        State::<M>::touch_units(dirty, to_fold, t, c);
        if let Some(w) = changed.get_mut(c >> 6) {
            *w |= 1 << (c & 63);
        }
    }

    /// Marks the units of cell `c` for folding.
    #[inline(always)]
    fn touch_units(dirty: &mut [bool], to_fold: &mut VecDeque<u32>, t: &Tables, c: usize) {
        for &u in t.units_of(c) {
            if !dirty[u as usize] {
                dirty[u as usize] = true;
                to_fold.push_back(u);
            }
        }
    }

    /// Forgets the units marked for folding: after a dead end, on the way back to a propagated state.
    pub fn clean(&mut self) {
        for u in self.to_fold.drain(..) {
            self.dirty[u as usize] = false;
        }
    }

    /// Puts the givens `values` (0 for an open cell) into a [`reset`](State::reset) state at once:
    /// each unit's placed digits, then each open cell's candidates from its units, queueing cells
    /// left with one. Cheaper than placing the givens one by one, which on a 400x400 grid walks
    /// 1,200 peers per given.
    ///
    /// # Errors
    /// When a unit holds a given twice or an open cell has no candidate.
    pub fn load(&mut self, t: &Tables, values: &[u16], queue: &mut Vec<u32>) -> Step<()> {
        for u in 0..t.units {
            let mut placed = M::ZERO;
            for &c in t.unit(u) {
                let v = values[c as usize];
                if v != 0 {
                    let b = M::bit(u32::from(v) - 1);
                    if placed & b != M::ZERO {
                        return Err(Contradiction);
                    }
                    placed |= b;
                }
            }
            self.placed[u] = placed;
        }
        let all = M::all(t.n);
        for (c, &v) in values.iter().enumerate() {
            if v != 0 {
                self.cand[c] = M::ZERO;
                self.vals[c] = v;
                self.open -= 1;
                continue;
            }
            let m = t
                .units_of(c)
                .iter()
                .fold(all, |m, &u| m & !self.placed[u as usize]);
            self.cand[c] = m;
            if m.at_most_one() {
                if m == M::ZERO {
                    return Err(Contradiction);
                }
                queue.push(c as u32);
            }
        }
        if let Some(rules) = &t.rules {
            self.load_extra_peers(t, values, queue)?;
            // Candidate sets of clues: a given must be one of them, an open cell keeps only them.
            for &(c, keep) in rules.clue.candidates.iter() {
                let c = c as usize;
                match values[c] {
                    0 => {
                        let left = self.cand[c] & M::from_low_bits(keep);
                        if left == M::ZERO {
                            return Err(Contradiction);
                        }
                        if left != self.cand[c] && left.at_most_one() {
                            queue.push(c as u32);
                        }
                        self.cand[c] = left;
                    }
                    v if keep >> (v - 1) & 1 == 0 => return Err(Contradiction),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Under variant rules, what [`State::load`] does for the units, for the cells that must differ
    /// without sharing a unit (relations, cage mates): a given leaves them, and two equal givens so
    /// related are a contradiction.
    fn load_extra_peers(&mut self, t: &Tables, values: &[u16], queue: &mut Vec<u32>) -> Step<()> {
        for (c, &v) in values.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let b = M::bit(u32::from(v) - 1);
            // With peer lists the extra peers are among them (unit peers hold no equal given: load
            // checked the units).
            let peers = if t.has_peers() {
                t.peers(c)
            } else {
                t.extra_peers(c)
            };
            let digit_peers = t.digit_peers.as_ref();
            let near = digit_peers.map_or(&[][..], |dp| dp.of_cell(c, u32::from(v) - 1));
            for &p in peers.iter().chain(near) {
                let p = p as usize;
                if values[p] == v {
                    return Err(Contradiction);
                }
                let m = self.cand[p];
                if m & b != M::ZERO {
                    let left = m & !b;
                    self.cand[p] = left;
                    if left == M::ZERO {
                        return Err(Contradiction);
                    }
                    if left.at_most_one() {
                        queue.push(p as u32);
                    }
                }
            }
        }
        Ok(())
    }

    /// Becomes a copy of `other`'s assignment (not of its log, which stays off): a child state of the
    /// copying search, reusing this one's buffers.
    pub fn copy_from(&mut self, other: &State<M>) {
        self.cand.clone_from(&other.cand);
        self.placed.clone_from(&other.placed);
        self.vals.clone_from(&other.vals);
        self.open = other.open;
        self.marked = other.marked;
        self.look = false;
        self.dirty.clone_from(&other.dirty);
        self.to_fold.clone_from(&other.to_fold);
        self.changed.clone_from(&other.changed);
        self.pending.clone_from(&other.pending);
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        (self.cand.capacity() + self.placed.capacity()) * size_of::<M>()
            + self.vals.capacity() * 2
            + self.log.capacity() * size_of::<Entry<M>>()
            + self.lost.capacity() * 4
    }

    /// The cell values, 0 for open cells.
    pub fn values(&self) -> &[u16] {
        &self.vals
    }

    /// The candidates of cell `c` (empty once filled).
    #[inline(always)]
    pub fn cand(&self, c: usize) -> M {
        self.cand[c]
    }

    /// Starts logging changes (at the first branch).
    pub fn start_logging(&mut self) {
        self.logging = true;
    }

    /// A mark to [`undo`](State::undo) back to.
    #[inline]
    pub fn mark(&self) -> usize {
        self.log.len()
    }

    /// Takes back every change logged since `mark`.
    pub fn undo(&mut self, t: &Tables, mark: usize) {
        while self.log.len() > mark {
            let Some(e) = self.log.pop() else { break };
            let c = e.cell as usize;
            if e.digit == REMOVED {
                self.cand[c] |= e.mask;
                continue;
            }
            let b = M::bit(e.digit);
            for &p in &self.lost[e.from as usize..self.lost_len] {
                self.cand[p as usize] |= b;
            }
            self.lost_len = e.from as usize;
            self.cand[c] = e.mask;
            self.vals[c] = 0;
            self.open += 1;
            let gone = !b;
            for &u in t.units_of(c) {
                self.placed[u as usize] &= gone;
            }
        }
    }

    /// Removes the digits `digits` (some of them candidates) from open cell `c`, logged.
    #[inline]
    fn take(&mut self, t: &Tables, c: usize, digits: M) {
        let m = self.cand[c];
        if self.marked {
            State::<M>::touch(&mut self.dirty, &mut self.to_fold, &mut self.changed, t, c);
        }
        if self.logging {
            self.log.push(Entry {
                cell: c as u32,
                digit: REMOVED,
                from: 0,
                mask: m & digits,
            });
        }
        self.cand[c] = m & !digits;
    }

    /// Removes 0-based digit `d` from open cell `c`, leaving at least one candidate (a branch's
    /// remaining alternatives). A cell left with one candidate must then be queued by the caller.
    #[inline]
    pub fn remove(&mut self, t: &Tables, c: usize, d: u32) {
        debug_assert!(!self.cand[c].at_most_one());
        self.take(t, c, M::bit(d));
    }

    /// Removes the candidates `digits` from open cell `c`, leaving at least one (a branch's digit and
    /// those interchangeable with it). A cell left with one candidate must then be queued by the
    /// caller.
    #[inline]
    pub fn remove_all(&mut self, t: &Tables, c: usize, digits: M) {
        debug_assert!(self.cand[c] & !digits != M::ZERO);
        self.take(t, c, digits);
    }

    /// Puts 0-based digit `d` in cell `c` and removes it from every peer, queueing peers left with a
    /// single candidate.
    ///
    /// # Errors
    /// When `d` is not a candidate of `c` (filled, or excluded) or a peer is left with no candidate.
    /// What was changed until then is logged all the same.
    #[inline]
    pub fn place(&mut self, t: &Tables, queue: &mut Vec<u32>, c: usize, d: u32) -> Step<()> {
        let b = M::bit(d);
        let m = self.cand[c];
        if m & b == M::ZERO {
            return Err(Contradiction);
        }
        if self.logging {
            self.log.push(Entry {
                cell: c as u32,
                digit: d,
                from: self.lost_len as u32,
                mask: m,
            });
        }
        self.cand[c] = M::ZERO;
        self.vals[c] = d as u16 + 1;
        self.open -= 1;
        for &u in t.units_of(c) {
            self.placed[u as usize] |= b;
        }
        if self.marked {
            State::<M>::touch(&mut self.dirty, &mut self.to_fold, &mut self.changed, t, c);
        }
        if t.has_peers() {
            self.lose(t, t.peers(c), b, queue)?;
        } else {
            // Large grids: each unit in turn (a peer in two units of `c` is seen twice; the second
            // time it no longer has the digit). The cell itself has no candidates left.
            for &u in t.units_of(c) {
                self.lose(t, t.unit(u as usize), b, queue)?;
            }
            // Variant rules: the cells that must differ from `c` besides its units'.
            if !t.extra.is_empty() {
                self.lose(t, t.extra_peers(c), b, queue)?;
            }
        }
        // The cells that may not hold `d` beside it (anti-taxicab); a cell left without a
        // candidate there is blamed with `c` ([`State::settle`]), as the clue pairs' were.
        if let Some(dp) = &t.digit_peers {
            let near = dp.of_cell(c, d);
            if self.lose(t, near, b, queue).is_err() {
                let empty = near
                    .iter()
                    .find(|&&p| self.vals[p as usize] == 0 && self.cand[p as usize] == M::ZERO);
                self.clash = empty.map(|&p| (c as u32, p));
                return Err(Contradiction);
            }
        }
        Ok(())
    }

    /// Removes digit bit `b` from `peers`, logging those that had it (when logging), queueing those
    /// left with one candidate.
    #[inline(always)]
    fn lose(&mut self, t: &Tables, peers: &[u32], b: M, queue: &mut Vec<u32>) -> Step<()> {
        let keep = !b;
        // Local slices, so that the compiler keeps the log's length in a register (a store through
        // `cand` could otherwise be the length).
        let cand = &mut self.cand[..];
        if !self.marked {
            for &p in peers {
                let m = cand[p as usize];
                let left = m & keep;
                cand[p as usize] = left;
                // One branch, rarely taken: "the peer had the digit and is left with at most one"
                // (whether a peer had the digit is unpredictable).
                if left.without_lowest() | ((m & b) ^ b) == M::ZERO {
                    if left == M::ZERO {
                        return Err(Contradiction);
                    }
                    queue.push(p);
                }
            }
            return Ok(());
        }
        // Large grids: the units of a peer that lost the digit are marked for folding, and the peer
        // is logged when logging.
        let need = self.lost_len + peers.len();
        if self.lost.len() < need {
            let grown = (2 * self.lost.len()).max(need);
            self.lost.resize(grown, 0);
        }
        let lost = &mut self.lost[..];
        let (dirty, to_fold) = (&mut self.dirty[..], &mut self.to_fold);
        let changed = &mut self.changed[..];
        let logging = self.logging;
        let mut len = self.lost_len;
        let mut result = Ok(());
        let d = b.lowest();
        for &p in peers {
            if !cand[p as usize].has(d) {
                // Most peers, late in a large grid: one word read and no store, so that their cache
                // lines stay clean.
                continue;
            }
            let m = cand[p as usize];
            let left = m & keep;
            cand[p as usize] = left;
            lost[len] = p;
            len += usize::from(logging);
            State::<M>::touch(dirty, to_fold, changed, t, p as usize);
            if left.at_most_one() {
                if left == M::ZERO {
                    result = Err(Contradiction);
                    break;
                }
                queue.push(p);
            }
        }
        self.lost_len = len;
        result
    }

    /// Places the queued naked singles (and those they create in turn).
    ///
    /// # Errors
    /// When a cell is left without a candidate.
    #[inline]
    fn drain(&mut self, t: &Tables, queue: &mut Vec<u32>) -> Step<()> {
        while let Some(c) = queue.pop() {
            let m = self.cand[c as usize];
            if m != M::ZERO {
                self.place(t, queue, c as usize, m.lowest())?;
            }
        }
        Ok(())
    }

    /// Propagates: singles to a fixpoint (see [`singles`](State::singles)), then one pass of locked
    /// candidates and, if it removed something, singles again. Returns whether the grid is full.
    ///
    /// A single locked pass per node, rather than alternating to a full fixpoint, measured about 8%
    /// faster on hard 9x9 sets for the same number of guesses (the extra passes rarely find more).
    /// Further rules go between the two: each runs on the state singles left and, if it removed a
    /// candidate, singles run again.
    ///
    /// # Errors
    /// On a cell without candidate or a digit without a place in some unit.
    pub fn propagate(&mut self, t: &Tables, work: &mut Work<M>) -> Step<bool> {
        self.rules(t, work)?;
        self.full(t)
    }

    /// A probe's propagation ([`Search::probe`](super::search)): singles and the variant rules
    /// to a fixpoint, the non-consecutive pairs without their unit rule, and neither locked
    /// candidates nor naked pairs. Weaker than [`State::propagate`], and several times cheaper.
    ///
    /// # Errors
    /// As [`State::propagate`].
    pub fn probe_propagate(&mut self, t: &Tables, work: &mut Work<M>) -> Step<()> {
        self.probing = true;
        work.windows_epoch += 1;
        let result = self.settle(t, work);
        self.probing = false;
        result
    }

    /// Whether every cell holds a digit (a solution, unless a unit lacks a digit: an error).
    ///
    /// # Errors
    /// A full grid with a unit that lacks a digit.
    pub fn full(&self, t: &Tables) -> Step<bool> {
        if self.open != 0 {
            return Ok(false);
        }
        // Eager eliminations keep placed digits distinct inside a unit, so a full unit holds all N
        // digits unless the unit list names a cell twice in one unit.
        let all = M::all(t.n);
        if self.placed.iter().all(|&p| p == all) {
            Ok(true)
        } else {
            Err(Contradiction)
        }
    }

    /// Singles, then the stronger rules, each followed by singles when it removed a candidate.
    fn rules(&mut self, t: &Tables, work: &mut Work<M>) -> Step<()> {
        #[cfg(target_arch = "x86_64")]
        if super::cpu::fast_cpu() {
            // SAFETY: the CPU has the features `rules_fast` is compiled for.
            return unsafe { self.rules_fast(t, work) };
        }
        self.rules_body(t, work)
    }

    /// [`State::rules`] compiled for the features of [`super::cpu::fast_cpu`] (the same code, with
    /// bit counts and scans in single instructions).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    fn rules_fast(&mut self, t: &Tables, work: &mut Work<M>) -> Step<()> {
        self.rules_body(t, work)
    }

    /// The body of [`State::rules`].
    #[inline(always)]
    fn rules_body(&mut self, t: &Tables, work: &mut Work<M>) -> Step<()> {
        work.windows_epoch += 1;
        self.settle(t, work)?;
        if self.open != 0 && !t.pairs.is_empty() && self.locked(t, work)? {
            self.settle(t, work)?;
        }
        if t.n <= 64 && self.open != 0 && self.pairs(t, &mut work.queue)? {
            self.settle(t, work)?;
        }
        Ok(())
    }

    /// Singles (see [`singles`](State::singles)), then, under variant rules, their pruning (relations
    /// and cages, `rules.rs`) and singles again until neither changes anything. The one place where
    /// the rules beside the units enter the propagation; it also checks them on a full grid.
    ///
    /// # Errors
    /// As [`singles`](State::singles), and a relation or cage that cannot hold.
    ///
    /// Non-consecutive pairs go first, on the cells that changed
    /// ([`NonConsecutive::propagate`]); the other rules run once they change nothing.
    #[inline(always)]
    fn settle(&mut self, t: &Tables, work: &mut Work<M>) -> Step<()> {
        self.blamed_singles(t, work)?;
        if let Some(rules) = &t.rules {
            let pairs = rules.non_consecutive();
            loop {
                let changed = (!pairs.is_empty() && self.prune_pairs(t, pairs, work)?)
                    || (!rules.windows.is_empty() && self.prune_windows(t, rules, work)?)
                    || self.prune_rules(t, rules, work)?;
                if !changed {
                    break;
                }
                self.blamed_singles(t, work)?;
            }
        }
        Ok(())
    }

    /// Singles; a dead end on a digit peer weighs on both cells (see [`State::place`]).
    #[inline(always)]
    fn blamed_singles(&mut self, t: &Tables, work: &mut Work<M>) -> Step<()> {
        let result = self.singles(t, &mut work.queue);
        if let Some((a, b)) = self.clash.take()
            && !work.weights.is_empty()
        {
            work.weights[a as usize] += work.unit;
            work.weights[b as usize] += work.unit;
        }
        result
    }

    /// The non-consecutive pairs' propagation from the cells changed since it last ran; what it
    /// removed is recorded as [`State::prune_rules`] records it. Whether it removed a candidate.
    ///
    /// # Errors
    /// A pair that cannot hold; what was removed until then is logged all the same.
    fn prune_pairs(
        &mut self,
        t: &Tables,
        pairs: &NonConsecutive,
        work: &mut Work<M>,
    ) -> Step<bool> {
        let mut out = work.narrowed(false);
        let result = pairs.propagate(
            t.n,
            &mut self.cand[..t.cells],
            &self.vals[..t.cells],
            &mut self.changed,
            (!self.probing).then_some(&mut self.pending[..]),
            &mut out,
        );
        // The pairs marked the cells they narrowed themselves.
        self.record(t, work, &result, false);
        result
    }

    /// One pass of the variant rules' pruning; what it removed is logged (when logging) and marks
    /// the cells' units for folding (large grids, non-consecutive pairs), as any other removal.
    /// Whether it removed a candidate.
    ///
    /// # Errors
    /// A relation or cage that cannot hold; what was removed until then is logged all the same.
    fn prune_rules(&mut self, t: &Tables, rules: &Rules, work: &mut Work<M>) -> Step<bool> {
        let mut out = work.narrowed(true);
        let result = rules.prune(
            t.n,
            &mut self.cand[..t.cells],
            &self.vals[..t.cells],
            &mut out,
        );
        self.record(t, work, &result, true);
        result
    }

    /// One pass of the window rules (renban lines, `renban.rs`), recorded as
    /// [`State::prune_rules`] records its pass. Whether it removed a candidate.
    ///
    /// # Errors
    /// A line with no window left; what was removed until then is logged all the same.
    fn prune_windows(&mut self, t: &Tables, rules: &Rules, work: &mut Work<M>) -> Step<bool> {
        let mut seen = std::mem::take(&mut work.windows_seen);
        let epoch = work.windows_epoch;
        let mut out = work.narrowed(false);
        let result = rules.windows.prune(
            &mut self.cand[..t.cells],
            &self.vals[..t.cells],
            &mut out,
            &mut seen,
            epoch,
        );
        work.windows_seen = seen;
        self.record(t, work, &result, true);
        result
    }

    /// Records what a pass of the rules removed (`work.removed`): logged (when logging), the cells'
    /// units marked for folding, and the cells marked changed for the non-consecutive pairs
    /// (`mark_changed`); on a contradiction, the blamed cells weigh more.
    fn record(&mut self, t: &Tables, work: &mut Work<M>, result: &Step<bool>, mark_changed: bool) {
        for &(c, mask) in work.removed.iter() {
            if self.marked {
                let c = c as usize;
                if mark_changed {
                    State::<M>::touch(&mut self.dirty, &mut self.to_fold, &mut self.changed, t, c);
                } else {
                    State::<M>::touch_units(&mut self.dirty, &mut self.to_fold, t, c);
                }
            }
            if self.logging {
                self.log.push(Entry {
                    cell: c,
                    digit: REMOVED,
                    from: 0,
                    mask,
                });
            }
        }
        if result.is_err() && !work.weights.is_empty() {
            for &c in work.blame.iter() {
                work.weights[c as usize] += work.unit;
            }
        }
    }

    /// Failed-literal probing (Lynce & Marques-Silva 2003, on the Sudoku encoding; "nishio" to
    /// Sudoku players) on the cells with two candidates: each candidate is placed and propagated
    /// ([`State::rules`]) and undone; one that fails leaves the cell the other. Passes repeat while
    /// they settle cells, until `stop` says the time is up (checked every 64 probes). For large
    /// grids, at the root of the search: the 144x144 rkkautsar puzzle with `0` blanks is settled so
    /// without a guess.
    ///
    /// # Errors
    /// When both candidates of a cell fail, or what a settled cell implies does.
    pub fn probe(
        &mut self,
        t: &Tables,
        work: &mut Work<M>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Step<()> {
        let mut probes = 0u64;
        while self.open != 0 && self.probe_pass(t, work, &mut probes, stop)? {}
        Ok(())
    }

    /// One pass of [`State::probe`]; whether it settled a cell.
    fn probe_pass(
        &mut self,
        t: &Tables,
        work: &mut Work<M>,
        probes: &mut u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Step<bool> {
        let was = self.logging;
        let mut changed = false;
        for c in 0..t.cells {
            let m = self.cand[c];
            if m.count() != 2 {
                continue;
            }
            *probes += 1;
            if probes.is_multiple_of(64) && stop() {
                return Ok(false);
            }
            for d in [m.lowest(), m.without_lowest().lowest()] {
                self.logging = true;
                let mark = self.log.len();
                let failed = self
                    .place(t, &mut work.queue, c, d)
                    .and_then(|()| self.rules(t, work))
                    .is_err();
                work.queue.clear();
                self.undo(t, mark);
                self.clean();
                self.logging = was;
                if failed {
                    changed = true;
                    self.remove(t, c, d);
                    work.queue.push(c as u32);
                    self.rules(t, work)?;
                    break;
                }
            }
        }
        Ok(changed)
    }

    /// Applies naked singles (the queued cells) and hidden singles (a digit with one place in a unit)
    /// until neither applies or the grid is full.
    ///
    /// Hidden singles use the "at least once / at least twice" fold over each unit's candidates. Units
    /// are visited round-robin, placing what a unit yields (and the naked singles that follow) at once,
    /// until a whole round of units yields nothing: no unit is folded twice without a change between.
    ///
    /// # Errors
    /// On a cell without candidate or a digit without a place in some unit.
    fn singles(&mut self, t: &Tables, queue: &mut Vec<u32>) -> Step<()> {
        if self.marked {
            return self.singles_marked(t, queue);
        }
        let all = M::all(t.n);
        self.drain(t, queue)?;
        // Units folded in a row without finding anything.
        let mut quiet = 0;
        let mut u = 0;
        while self.open != 0 && quiet < t.units {
            let (hidden, cells) = self.fold(t, u, all)?;
            if hidden == M::ZERO {
                quiet += 1;
            } else {
                self.place_hidden(t, queue, hidden, cells)?;
                quiet = 0;
            }
            u += 1;
            if u == t.units {
                u = 0;
            }
        }
        Ok(())
    }

    /// [`State::singles`] on large grids and under non-consecutive pairs: the units marked since
    /// their last fold, until none is (each fold is the same as in the round-robin).
    ///
    /// # Errors
    /// On a cell without candidate or a digit without a place in some unit.
    fn singles_marked(&mut self, t: &Tables, queue: &mut Vec<u32>) -> Step<()> {
        let all = M::all(t.n);
        self.drain(t, queue)?;
        while let Some(u) = self.to_fold.pop_front() {
            self.folds += 1;
            if self.look
                && (self.stopped
                    || (self.folds.is_multiple_of(FOLDS_PER_LOOK) && past(self.deadline)))
            {
                self.stopped = true;
                self.to_fold.push_front(u);
                return Err(Contradiction);
            }
            let u = u as usize;
            self.dirty[u] = false;
            let (hidden, cells) = self.fold(t, u, all)?;
            // The queue is empty here: drained above and by each placing of hidden singles.
            if hidden != M::ZERO {
                self.place_hidden(t, queue, hidden, cells)?;
            }
        }
        Ok(())
    }

    /// Places the hidden singles `hidden` of a unit with `cells` (each digit in its one cell), then
    /// drains the queue.
    ///
    /// # Errors
    /// When another hidden single of the unit took a digit's only cell, or on what placing finds.
    fn place_hidden(
        &mut self,
        t: &Tables,
        queue: &mut Vec<u32>,
        mut hidden: M,
        cells: &[u32],
    ) -> Step<()> {
        while hidden != M::ZERO {
            let d = hidden.lowest();
            hidden = hidden.without_lowest();
            let b = M::bit(d);
            let c = cells
                .iter()
                .find(|&&c| self.cand[c as usize] & b != M::ZERO)
                .ok_or(Contradiction)?;
            self.place(t, queue, *c as usize, d)?;
        }
        self.drain(t, queue)
    }

    /// Folds unit `u`: its hidden singles (digits with one place) and its cells.
    ///
    /// # Errors
    /// When a digit neither placed nor a candidate has no place in the unit.
    #[inline(always)]
    fn fold<'t>(&self, t: &'t Tables, u: usize, all: M) -> Step<(M, &'t [u32])> {
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
        Ok((once & !twice, cells))
    }

    /// One pass of naked pairs (two cells of a unit with the same two candidates: no other cell of
    /// the unit has them) and hidden pairs (two digits with the same two places in a unit: those
    /// cells have no other candidate), for N ≤ 64 (a unit's positions fit a `u64`). Returns
    /// whether a candidate was removed. The pair rules of every Sudoku player's book (e.g. Andrew
    /// Stuart, "The Logic of Sudoku", 2007).
    #[inline(always)]
    fn pairs(&mut self, t: &Tables, queue: &mut Vec<u32>) -> Step<bool> {
        let mut changed = false;
        // Per digit: the positions (in the unit) of its places, for the digits with two.
        let mut pos = [0u64; 64];
        let mut pairs: [(M, u64); 64] = [(M::ZERO, 0); 64];
        for u in 0..t.units {
            let cells = t.unit(u);
            {
                let mut seen = 0;
                for (i, &c) in cells.iter().enumerate() {
                    let m = self.cand[c as usize];
                    if m.count() != 2 {
                        continue;
                    }
                    match pairs[..seen].iter().find(|p| p.0 == m) {
                        Some(&(_, at)) => {
                            let both = at | 1 << i;
                            for (k, &o) in cells.iter().enumerate() {
                                if both >> k & 1 == 0 && self.cand[o as usize] & m != M::ZERO {
                                    changed = true;
                                    self.take(t, o as usize, m);
                                    let left = self.cand[o as usize];
                                    if left.at_most_one() {
                                        if left == M::ZERO {
                                            return Err(Contradiction);
                                        }
                                        queue.push(o);
                                    }
                                }
                            }
                        }
                        None => {
                            pairs[seen] = (m, 1 << i);
                            seen += 1;
                        }
                    }
                }
            }
            {
                let (mut once, mut twice, mut more) = (M::ZERO, M::ZERO, M::ZERO);
                for &c in cells {
                    let m = self.cand[c as usize];
                    more |= twice & m;
                    twice |= once & m;
                    once |= m;
                }
                let two = twice & !more;
                if two.without_lowest() == M::ZERO {
                    continue;
                }
                for (i, &c) in cells.iter().enumerate() {
                    let mut m = self.cand[c as usize] & two;
                    while m != M::ZERO {
                        pos[m.lowest() as usize] |= 1 << i;
                        m = m.without_lowest();
                    }
                }
                let mut rest = two;
                while rest != M::ZERO {
                    let d = rest.lowest();
                    rest = rest.without_lowest();
                    let at = pos[d as usize];
                    let mut others = rest;
                    while others != M::ZERO {
                        let e = others.lowest();
                        others = others.without_lowest();
                        if pos[e as usize] == at {
                            let keep = M::bit(d) | M::bit(e);
                            let mut cells_at = at;
                            while cells_at != 0 {
                                let c = cells[cells_at.trailing_zeros() as usize] as usize;
                                cells_at &= cells_at - 1;
                                let extra = self.cand[c] & !keep;
                                if extra != M::ZERO {
                                    changed = true;
                                    self.take(t, c, extra);
                                }
                            }
                        }
                    }
                }
                let mut clear = two;
                while clear != M::ZERO {
                    pos[clear.lowest() as usize] = 0;
                    clear = clear.without_lowest();
                }
            }
        }
        Ok(changed)
    }

    /// One pass of locked candidates (pointing and claiming) over every pair of units A, B sharing
    /// cells I: a digit whose candidates in A all lie in I is removed from B \ I, and conversely.
    /// Returns whether a candidate was removed.
    ///
    /// The masks are taken once at the start of the pass; removals during it only shrink candidates,
    /// and no digit is placed, so each removal stays sound.
    #[inline(always)]
    fn locked(&mut self, t: &Tables, work: &mut Work<M>) -> Step<bool> {
        let Work {
            queue,
            inter,
            outside,
            ..
        } = work;
        for (p, pair) in t.pairs.iter().enumerate() {
            inter[p] = self.or(t.pair_cells(pair.inter));
        }
        for g in t.groups.iter() {
            // Each side's "outside" = the rest of the unit | the other sides' shared cells.
            let sides = t.group_sides(g);
            let mut acc = self.or(t.pair_cells(g.rest));
            for &s in sides {
                outside[s as usize] = acc;
                acc |= inter[(s / 2) as usize];
            }
            let mut acc = M::ZERO;
            for &s in sides.iter().rev() {
                outside[s as usize] |= acc;
                acc |= inter[(s / 2) as usize];
            }
        }
        let mut changed = false;
        for (p, pair) in t.pairs.iter().enumerate() {
            let m = inter[p];
            let (out_a, out_b) = (outside[2 * p], outside[2 * p + 1]);
            let lock_a = m & !out_a;
            if lock_a & out_b != M::ZERO {
                changed |= self.strip(t, queue, pair.b_rest, lock_a)?;
            }
            let lock_b = m & !out_b;
            if lock_b & out_a != M::ZERO {
                changed |= self.strip(t, queue, pair.a_rest, lock_b)?;
            }
        }
        Ok(changed)
    }

    /// The union of the candidates of `cells`.
    #[inline(always)]
    fn or(&self, cells: &[u32]) -> M {
        cells
            .iter()
            .fold(M::ZERO, |acc, &c| acc | self.cand[c as usize])
    }

    /// Removes `digits` from the cells of a pair range. Returns whether a candidate was removed.
    fn strip(&mut self, t: &Tables, queue: &mut Vec<u32>, r: (u32, u32), digits: M) -> Step<bool> {
        let mut changed = false;
        for &c in t.pair_cells(r) {
            let m = self.cand[c as usize];
            if m & digits != M::ZERO {
                changed = true;
                self.take(t, c as usize, digits);
                let left = self.cand[c as usize];
                if left.at_most_one() {
                    if left == M::ZERO {
                        return Err(Contradiction);
                    }
                    queue.push(c);
                }
            }
        }
        Ok(changed)
    }

    /// What to branch on under cages: the open cell with the fewest candidates per unit of weight
    /// (`weights`: a seed plus a unit per dead end the cell was blamed for, decayed: see
    /// [`Work::weights`]), smallest digit first. The "dom/wdeg" heuristic of Boussemart, Hemery, Lecoutre and Sais ("Boosting
    /// systematic search by weighting constraints", ECAI 2004), with weights on cells: a cell of a
    /// cage that keeps failing is decided early. A cell holding the digit `hot.0` that failed most
    /// lately weighs `hot.1 / 5` more ([`Work::hot_digit`]). When that cell has more than two
    /// candidates, a digit with two places left in a unit, one of them weighing at least twice the
    /// cell's weight per candidate, is branched on instead, at its heavier place (sigh's
    /// `CandidateFinders.House`); under clues only ([`Tables::clue_rules`]: on killers it took 4-5x
    /// the nodes). Whether the branch is such a digit's place.
    pub fn pick_weighted(&self, t: &Tables, weights: &[u32], hot: (M, u64)) -> (Branch, bool) {
        let (hot_digit, bonus) = hot;
        let (mut best, mut best_count, mut best_score) = (usize::MAX, 1u64, 0u64);
        for (c, &m) in self.cand.iter().enumerate() {
            if m == M::ZERO {
                continue;
            }
            let k = u64::from(m.count());
            let mut s = 5 * u64::from(weights[c]);
            if m & hot_digit != M::ZERO {
                s += bonus;
            }
            // s / k > best_score / best_count.
            if best == usize::MAX || s * best_count > best_score * k {
                best = c;
                best_count = k;
                best_score = s;
            }
        }
        debug_assert!(best != usize::MAX, "pick on a full grid");
        let cell = Branch {
            cell: best,
            digit: self.cand[best].lowest(),
        };
        if best_count <= 2 || !t.clue_rules {
            return (cell, false);
        }
        // The house branch's score is half its heavier place's weight; the cell's, its weight per
        // candidate: num / den.
        let (mut num, mut den) = (u64::from(weights[best]), best_count);
        let mut house = None;
        for u in 0..t.units {
            let cells = t.unit(u);
            let (mut all, mut twice, mut thrice) = (M::ZERO, M::ZERO, M::ZERO);
            for &c in cells {
                let m = self.cand[c as usize];
                thrice |= twice & m;
                twice |= all & m;
                all |= m;
            }
            let mut two = twice & !thrice;
            while two != M::ZERO {
                let d = two.lowest();
                two = two.without_lowest();
                let (mut at, mut w) = (usize::MAX, 0u32);
                for &c in cells {
                    let c = c as usize;
                    if self.cand[c] & M::bit(d) != M::ZERO && weights[c] > w {
                        at = c;
                        w = weights[c];
                    }
                }
                // w / 2 >= num / den.
                if u64::from(w) * den >= 2 * num {
                    house = Some(Branch { cell: at, digit: d });
                    num = u64::from(w);
                    den = 2;
                }
            }
        }
        match house {
            Some(b) => (b, true),
            None => (cell, false),
        }
    }

    /// What to branch on, on a propagated state that is not full: the open cell with the fewest
    /// candidates (first such in cell order, MRV) and its smallest digit.
    ///
    /// Branching on a digit's places in a unit when no cell has two candidates (a digit with two
    /// places is as much a choice between two) was measured and dropped: with the pair rules it
    /// changed nothing on hard 25x25 puzzles and took 1.06x to 2.4x the time on the 16x16
    /// sudoku_acs set and 15x on the empty 64x64 grid (BENCHMARKS.md).
    pub fn pick(&self) -> Branch {
        let mut best = 0;
        let mut best_count = u32::MAX;
        for (c, &m) in self.cand.iter().enumerate() {
            // Filled cells (no candidates) rank last, without a branch on whether a cell is filled.
            let k = m.count() | (u32::from(m == M::ZERO) << 16);
            if k < best_count {
                best = c;
                best_count = k;
                if k <= 2 {
                    break;
                }
            }
        }
        debug_assert!(best_count < 1 << 16, "pick on a full grid");
        Branch {
            cell: best,
            digit: self.cand[best].lowest(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::units::Units;

    fn setup(shape: Shape) -> (Tables, State<u16>, Work<u16>) {
        let t = Tables::build(&Units::standard(shape));
        let mut s = State::new();
        s.reset(&t, false);
        let mut w = Work::new();
        w.prepare(&t);
        (t, s, w)
    }

    fn setup4() -> (Tables, State<u16>, Work<u16>) {
        setup(Shape::new(2, 2).unwrap())
    }

    /// fixtures/100x100-rkkautsar-1.txt (ints, `0` blank), whose root propagation settles most of
    /// the grid.
    fn rkkautsar_100() -> (Tables, Vec<u16>) {
        let text = include_str!("../../fixtures/100x100-rkkautsar-1.txt");
        let values: Vec<u16> = text
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(values.len(), 10_000);
        let t = Tables::build(&Units::standard(Shape::new(10, 10).unwrap()));
        (t, values)
    }

    #[test]
    fn a_stop_cuts_the_root_propagation_of_a_large_grid_short() {
        // Unwatched, the root's singles fill the grid with thousands of folds; with the stop flag
        // set, they fail after at most one look's worth of folds and say they were stopped (not a
        // dead end). Counted in folds, not time.
        let (t, values) = rkkautsar_100();
        let run = || {
            let mut s = State::<super::super::mask::Wide<2>>::new();
            s.reset(&t, true);
            s.watch(None);
            let mut w = Work::new();
            w.prepare(&t);
            s.load(&t, &values, &mut w.queue).unwrap();
            let step = s.propagate(&t, &mut w);
            (step, s.stopped(), s.folds(), s.open)
        };
        let (step, stopped, folds, settled) = run();
        assert!(step.is_ok());
        assert!(!stopped);
        assert!(folds > 4 * FOLDS_PER_LOOK, "{folds} folds");
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (step, stopped, folds, open) = crate::solve::stop_when(&flag, run);
        assert_eq!(step, Err(Contradiction));
        assert!(stopped);
        assert_eq!(folds, FOLDS_PER_LOOK);
        assert!(open > settled, "{open} open cells against {settled}");
    }

    #[test]
    fn extra_peers_without_peer_lists_on_large_grids() {
        // 121x121 anti-knight: no peer lists (above 100x100), so the knight cells are kept apart.
        let shape = Shape::new(11, 11).unwrap();
        let units = Units::rules(shape)
            .variant(crate::constraint::Variant::AntiKnight)
            .build()
            .unwrap();
        let t = Tables::build(&units);
        assert!(!t.has_peers());
        let at = |r: usize, c: usize| r * 121 + c;
        // r1c1's knight cells share its box: unit peers already. r11c11's reach other boxes.
        assert!(t.extra_peers(at(0, 0)).is_empty());
        assert!(t.extra_peers(at(10, 10)).contains(&(at(11, 12) as u32)));
        assert!(!t.extra_peers(at(10, 10)).contains(&(at(11, 11) as u32)));
        let mut s: State<crate::dfs::mask::Wide<2>> = State::new();
        let mut w: Work<crate::dfs::mask::Wide<2>> = Work::new();
        w.prepare(&t);
        s.reset(&t, true);
        // A given leaves its knight cells, not the other cells outside its units (the cells
        // around r11c11, a box corner, are in other boxes).
        type W2 = crate::dfs::mask::Wide<2>;
        let has = |s: &State<W2>, c: usize, d: u32| s.cand(c) & W2::bit(d) != W2::ZERO;
        let mut values = vec![0u16; 121 * 121];
        values[at(10, 10)] = 3;
        s.load(&t, &values, &mut w.queue).unwrap();
        assert!(!has(&s, at(11, 12), 2) && !has(&s, at(12, 11), 2));
        assert!(has(&s, at(11, 11), 2) && has(&s, at(12, 12), 2));
        // Two equal givens a knight's move apart are a contradiction at load.
        values[at(11, 12)] = 3;
        s.reset(&t, true);
        assert_eq!(s.load(&t, &values, &mut w.queue), Err(Contradiction));
        // A placement reaches the knight cells too, logged and undone.
        values[at(11, 12)] = 0;
        s.reset(&t, true);
        s.load(&t, &values, &mut w.queue).unwrap();
        s.start_logging();
        let mark = s.mark();
        s.place(&t, &mut w.queue, at(21, 21), 8).unwrap();
        assert!(!has(&s, at(22, 23), 8) && !has(&s, at(23, 22), 8));
        assert!(has(&s, at(22, 22), 8));
        s.undo(&t, mark);
        s.clean();
        assert!(has(&s, at(22, 23), 8) && has(&s, at(21, 21), 8));
    }

    #[test]
    fn place_eliminates_from_peers_only() {
        let (t, mut s, mut q) = setup4();
        s.place(&t, &mut q.queue, 0, 2).unwrap();
        assert_eq!(s.cand(0), 0);
        assert_eq!(s.values()[0], 3);
        // r1c2 (peer) lost digit 3; r2c3 (not a peer) kept it.
        assert_eq!(s.cand(1), 0b1011);
        assert_eq!(s.cand(6), 0b1111);
        assert!(q.queue.is_empty());
        // Placing 3 again in a peer is a contradiction, not a panic.
        assert_eq!(s.place(&t, &mut q.queue, 1, 2), Err(Contradiction));
    }

    #[test]
    fn undo_restores_every_change() {
        // Placements, a removal and locked candidates, logged and undone in steps, on both ways of
        // reaching peers (lists, units).
        for with_peers in [true, false] {
            let (mut t, mut s, mut w) = setup(Shape::new(3, 3).unwrap());
            if !with_peers {
                t.drop_peers();
            }
            s.reset(&t, true);
            s.place(&t, &mut w.queue, 0, 0).unwrap();
            s.start_logging();
            let snapshot =
                |s: &State<u16>| (s.cand.clone(), s.placed.clone(), s.vals.clone(), s.open);
            let root = snapshot(&s);
            let m0 = s.mark();
            s.place(&t, &mut w.queue, 40, 4).unwrap();
            s.remove(&t, 80, 8);
            let after = snapshot(&s);
            let m1 = s.mark();
            for (c, d) in [(9, 2), (10, 3), (11, 4), (18, 5), (19, 6), (20, 7)] {
                s.place(&t, &mut w.queue, c, d - 1).unwrap();
            }
            assert_eq!(s.locked(&t, &mut w), Ok(true));
            // A contradiction half way through a placement: 8 in r1c2 leaves r1c3 with 9 alone, then
            // 9 in r4c3 empties it; undone all the same.
            s.place(&t, &mut w.queue, 1, 7).unwrap();
            assert_eq!(s.cand(2), 1 << 8);
            assert!(s.cand(29) & 1 << 8 != 0);
            assert_eq!(s.place(&t, &mut w.queue, 29, 8), Err(Contradiction));
            s.undo(&t, m1);
            s.clean();
            assert!(snapshot(&s) == after, "peers {with_peers}");
            s.undo(&t, m0);
            assert!(snapshot(&s) == root, "peers {with_peers}");
            // Propagated from there, it is a state like any other.
            assert!(s.propagate(&t, &mut w).is_ok());
        }
    }

    #[test]
    fn singles_finish_an_easy_grid() {
        // 1 2 | 3 4 / 3 4 | 1 2 / 2 1 | 4 3 / 4 3 | 2 1 with 5 cells blanked.
        let (t, mut s, mut q) = setup4();
        let vals = [1, 2, 3, 4, 3, 0, 1, 2, 2, 1, 0, 3, 0, 3, 2, 0];
        for (c, &v) in vals.iter().enumerate() {
            if v != 0 {
                s.place(&t, &mut q.queue, c, v - 1).unwrap();
            }
        }
        assert_eq!(s.propagate(&t, &mut q), Ok(true));
        assert_eq!(
            s.values(),
            &[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
        );
    }

    #[test]
    fn digit_without_a_place_fails_fast() {
        // Row 1 = _ _ _ 4, r2c2 = 1 (box 1) and r3c3 = 1 (column 3): 1 has no place in row 1, yet each
        // open cell of row 1 keeps two candidates (2 and 3), so only the unit check sees it.
        let (t, mut s, mut q) = setup4();
        s.place(&t, &mut q.queue, 3, 3).unwrap();
        s.place(&t, &mut q.queue, 5, 0).unwrap();
        s.place(&t, &mut q.queue, 10, 0).unwrap();
        assert!(q.queue.is_empty());
        assert_eq!(s.cand(0), 0b0110);
        assert_eq!(s.propagate(&t, &mut q), Err(Contradiction));
    }

    #[test]
    fn locked_candidates_point_out_of_a_box() {
        // 9x9, box 1 rows 2-3 filled with 2-7: digit 1 can go in box 1 only in row 1, so it leaves the
        // rest of row 1 (pointing). Digit 8 likewise, and 9.
        let (t, mut s, mut w) = setup(Shape::new(3, 3).unwrap());
        for (c, d) in [(9, 2), (10, 3), (11, 4), (18, 5), (19, 6), (20, 7)] {
            s.place(&t, &mut w.queue, c, d - 1).unwrap();
        }
        assert_eq!(s.cand(4), 0b1_1111_1111);
        assert_eq!(s.locked(&t, &mut w), Ok(true));
        // r1c5 now holds only 2-7; r4c5 keeps 1, 8, 9; box 1's row 1 keeps them too.
        assert_eq!(s.cand(4), 0b0_0111_1110);
        assert_eq!(s.cand(31), 0b1_1111_1111);
        assert_eq!(s.cand(0), 0b1_1000_0001);
        // A second pass finds nothing new.
        assert_eq!(s.locked(&t, &mut w), Ok(false));
    }

    #[test]
    fn mrv_picks_the_fewest_candidates() {
        let (t, mut s, mut q) = setup4();
        s.place(&t, &mut q.queue, 0, 0).unwrap();
        s.place(&t, &mut q.queue, 15, 1).unwrap();
        // r1c4 sees 1 (row) and 2 (column 4): two candidates, the first such cell.
        assert_eq!(s.pick(), Branch { cell: 3, digit: 2 });
    }

    #[test]
    fn pairs_remove_candidates() {
        // 4x4, by hand: r1c1 and r1c2 keep only 1 and 2 (a naked pair of row 1 and box 1), so
        // r1c3, r1c4 (row 1) and r2c1, r2c2 (box 1) lose them.
        let (t, mut s, mut w) = setup4();
        s.take(&t, 0, 0b1100);
        s.take(&t, 1, 0b1100);
        assert_eq!(s.pairs(&t, &mut w.queue), Ok(true));
        assert_eq!((s.cand(2), s.cand(3)), (0b1100, 0b1100));
        assert_eq!((s.cand(4), s.cand(5)), (0b1100, 0b1100));
        assert_eq!((s.cand(0), s.cand(8)), (0b0011, 0b1111));
        // Hidden pair: in column 1 of a fresh grid, 1 and 2 may go only in r1c1 and r2c1 (not in
        // r3c1, r4c1), which hold 3 and 4 too: those go.
        let (t, mut s, mut w) = setup4();
        for c in [8, 12] {
            s.take(&t, c, 0b0011);
        }
        assert_eq!(s.pairs(&t, &mut w.queue), Ok(true));
        assert_eq!((s.cand(0), s.cand(4)), (0b0011, 0b0011));
        assert_eq!(s.cand(8), 0b1100);
        // The same pass then finds r1c1, r2c1 a naked pair of box 1: r1c2 loses 1 and 2; r1c3 keeps
        // them (row 1 has them in three cells).
        assert_eq!((s.cand(1), s.cand(2)), (0b1100, 0b1111));
    }
}
