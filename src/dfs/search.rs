//! The depth-first search: propagate, branch (a cell or a digit's places in a unit), backtrack; by a
//! copy of the state per guess on small grids, by an undo log on large ones; limits on solutions,
//! nodes and time.

use std::time::Instant;

use super::consecutive::NonConsecutive;
use super::mask::Mask;
use super::state::{Branch, State, Work};
use super::step::{Contradiction, Step};
use super::tables::Tables;
use crate::grid::{Grid, Shape};
use crate::solve::{Handover, Limits, Solutions, Stats, add_nodes, past};

/// Buffers reused from one solve to the next on a thread: the state, the open branches and the
/// propagation buffers. Kept small when idle (see [`Scratch::trim`]).
pub(crate) struct Scratch<M: Mask> {
    /// `stack[0]` is the state (changed in place, with its undo log, on large grids); small grids
    /// keep `stack[k]`, the state at depth `k`, whose branch cell lost the digit its child took.
    stack: Vec<State<M>>,
    /// The branches taken on the current path (see [`Open`]).
    branches: Vec<Open<M>>,
    /// The naked-single queue and locked-candidate masks.
    work: Work<M>,
}

impl<M: Mask> Default for Scratch<M> {
    fn default() -> Self {
        Scratch::new()
    }
}

/// Bytes of buffers a thread keeps between solves.
const KEEP_BYTES: usize = 4 << 20;

impl<M: Mask> Scratch<M> {
    /// Empty buffers (no allocation).
    pub const fn new() -> Self {
        Scratch {
            stack: Vec::new(),
            branches: Vec::new(),
            work: Work::new(),
        }
    }

    /// Frees the buffers if they hold more than [`KEEP_BYTES`], after a large grid.
    pub fn trim(&mut self) {
        let bytes = self.stack.iter().map(State::bytes).sum::<usize>()
            + self.work.bytes()
            + self.branches.capacity() * size_of::<Open<M>>();
        if bytes > KEEP_BYTES {
            *self = Scratch::new();
        }
    }
}

/// A branch on the current path, with what backtracking to its node needs: the state's log mark
/// before it (unused when copying), the solutions counted before it, and the digits interchangeable
/// at its node (see [`Search::back`]).
#[derive(Clone, Copy)]
struct Open<M> {
    mark: usize,
    branch: Branch,
    count: u64,
    free: M,
    /// The share of the tree still open at its node when it was taken, and its child's share.
    left: f64,
    child: f64,
}

/// What a search found: the solutions (two kept, all counted), whether a limit stopped it, and the
/// work.
pub(crate) struct Found {
    /// The solutions found.
    pub solutions: Solutions,
    /// Whether a node budget or the deadline stopped the search.
    pub gave_up: bool,
    /// Nodes and guesses.
    pub stats: Stats,
}

impl Found {
    /// Nothing found yet.
    pub fn new(limits: &Limits) -> Found {
        Found {
            solutions: Solutions::new(limits),
            gave_up: false,
            stats: Stats::default(),
        }
    }
}

/// A solve's node budget and deadline, fixed when it starts, the seed of its value order when
/// branches try digits in a random order ([`DfsBackend::randomized`](super::DfsBackend::randomized)),
/// and the handover its caller asked for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds<'a> {
    budget: Option<u64>,
    deadline: Option<Instant>,
    shuffle: Option<u64>,
    handover: Option<&'a Handover<'a>>,
}

impl Bounds<'static> {
    /// The bounds of a solve under `limits` that starts now; smallest digit first, no handover.
    pub fn start(limits: &Limits) -> Bounds<'static> {
        Bounds {
            budget: limits.budget(),
            // The clock is read only for a timeout (a 9x9 solve costs a few clock reads otherwise).
            deadline: limits
                .timeout()
                .and_then(|_| limits.deadline(Instant::now())),
            shuffle: None,
            handover: None,
        }
    }
}

impl Bounds<'_> {
    /// These bounds with branches that take a random digit of their cell, drawn from a SplitMix64
    /// stream started at `seed` (`None`: the smallest digit).
    pub fn with_shuffle(self, seed: Option<u64>) -> Self {
        Bounds {
            shuffle: seed,
            ..self
        }
    }

    /// These bounds with `handover`: the search fires it at the first look at the clock past its
    /// node count or its CPU time ([`out_of_limits`], [`Handover`]).
    pub fn with_handover<'h>(self, handover: &'h Handover<'h>) -> Bounds<'h> {
        Bounds {
            budget: self.budget,
            deadline: self.deadline,
            shuffle: self.shuffle,
            handover: Some(handover),
        }
    }

    /// When the solve must stop, if it has a deadline.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The seed of the random value order, if branches take a random digit.
    pub fn shuffle(&self) -> Option<u64> {
        self.shuffle
    }
}

/// The next number of a SplitMix64 stream (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014): the random value order of a randomized search.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Whether a search that has visited `nodes` nodes must stop before the next one: the node budget is
/// checked at every node, the deadline (and a request to stop) when `nodes & clock_mask == 0` (the
/// first node, then every `clock_mask + 1` nodes, since reading the clock costs more than a small
/// node). The handover, if any, is looked at with the deadline.
#[inline(always)]
pub(crate) fn out_of_limits(bounds: &Bounds, nodes: u64, clock_mask: u64) -> bool {
    bounds.budget.is_some_and(|b| nodes >= b)
        || (nodes & clock_mask == 0 && checkpoint(bounds, nodes, clock_mask))
}

/// At a clock check: counts the nodes since the last one for progress displays
/// ([`WorkCounters`](crate::WorkCounters)), fires the handover once the search is past its node
/// count or its time, and says whether the deadline has passed or the search was asked to stop
/// (the handover's hook may have asked for a stop of its own first).
#[cold]
fn checkpoint(bounds: &Bounds, nodes: u64, clock_mask: u64) -> bool {
    if nodes > 0 {
        add_nodes(clock_mask + 1);
    }
    if let Some(handover) = bounds.handover {
        handover.look(nodes);
        if handover.stopping() {
            return true;
        }
    }
    past(bounds.deadline)
}

/// How often a search over `t` reads the clock: on the first node and then every `mask + 1`
/// nodes. Fewer nodes between checks on large grids, where a node costs more, and under variant
/// rules, whose pruning makes a 9x9 node cost up to a few hundred microseconds (sigh's corpus):
/// 1,024 such nodes overran a 5 s timeout by half a second.
pub(crate) fn clock_mask(t: &Tables) -> u64 {
    let by_size = match t.cells {
        0..=81 => 1023,
        82..=256 => 255,
        257..=1024 => 63,
        1025..=4096 => 15,
        _ => 0,
    };
    if t.rules.is_some() {
        by_size.min(15)
    } else {
        by_size
    }
}

/// The largest grid (in cells) searched by copying the state per guess: up to 32x32 a copy (at most 6
/// KB) costs less than logging each change and undoing it (25x25: 11% fewer seconds side by side).
const COPY_MAX_CELLS: usize = 1024;

/// Searches `puzzle` (whose shape matches the tables) within `limits`.
pub(crate) fn run<M: Mask>(
    t: &Tables,
    shape: Shape,
    puzzle: &Grid,
    exclude: &[(usize, u16)],
    limits: &Limits,
    bounds: &Bounds,
    scratch: &mut Scratch<M>,
) -> Found {
    debug_assert!(t.n as u32 <= M::BITS);
    let Scratch {
        stack,
        branches,
        work,
    } = scratch;
    work.prepare(t);
    branches.clear();
    if stack.is_empty() {
        stack.push(State::new());
    }
    let mut found = Found::new(limits);
    // Digits no given (and no exclusion) names are interchangeable when every rule treats digits
    // alike.
    let free = if t.symmetric {
        let given = puzzle
            .values()
            .iter()
            .chain(exclude.iter().map(|(_, v)| v))
            .filter(|&&v| v != 0)
            .fold(M::ZERO, |m, &v| m | M::bit(u32::from(v) - 1));
        M::all(t.n) & !given
    } else {
        M::ZERO
    };
    // The root: givens placed one by one; two equal givens in a unit fail here. Then the excluded
    // digits leave their cells.
    let root = &mut stack[0];
    root.reset(t, t.cells > COPY_MAX_CELLS);
    if root.load(t, puzzle.values(), &mut work.queue).is_err() {
        return found;
    }
    for &(c, v) in exclude {
        let (m, b) = (root.cand(c), M::bit(u32::from(v) - 1));
        if puzzle.values()[c] == v || m == b {
            return found;
        }
        if m & b != M::ZERO {
            root.remove_all(t, c, b);
            if root.cand(c).at_most_one() {
                work.queue.push(c as u32);
            }
        }
    }
    let mut search = Search {
        t,
        shape,
        bounds,
        clock_mask: clock_mask(t),
        found: &mut found,
        branches,
        work,
        free,
        shuffle: bounds.shuffle,
        probe: t
            .rules
            .as_ref()
            .map(|r| r.non_consecutive())
            .filter(|p| !p.is_empty()),
        left: 1.0,
        done: 0.0,
    };
    if t.cells <= COPY_MAX_CELLS {
        search.by_copies(stack);
    } else {
        search.by_log(&mut stack[0]);
    }
    found
}

/// One search's fixed inputs and what it has found.
struct Search<'a, M: Mask> {
    t: &'a Tables,
    shape: Shape,
    bounds: &'a Bounds<'a>,
    clock_mask: u64,
    found: &'a mut Found,
    branches: &'a mut Vec<Open<M>>,
    work: &'a mut Work<M>,
    /// The digits interchangeable at the current node: used by no given and named by no decision
    /// on the path to it (`ZERO` unless [`Tables::symmetric`]).
    free: M,
    /// The state of the random value order's stream, if digits are tried in a random order.
    shuffle: Option<u64>,
    /// Under non-consecutive pairs, their tables: each node below the root probes the two-digit
    /// neighbours of the cell its branch placed ([`Search::probe`]).
    probe: Option<&'a NonConsecutive>,
    /// The share of the tree still open at the current node, and the share closed: each branch of
    /// a node (each candidate of its branch cell when it is taken) weighs alike, the estimate of
    /// progress the handover reads ([`Handover::progress`]).
    left: f64,
    done: f64,
}

impl<M: Mask> Search<'_, M> {
    /// Counts a node; whether a limit stops the search first.
    #[inline(always)]
    fn stop(&mut self) -> bool {
        if let Some(h) = self.bounds.handover {
            h.note_progress(self.done);
        }
        if out_of_limits(self.bounds, self.found.stats.nodes, self.clock_mask) {
            self.found.gave_up = true;
            return true;
        }
        self.found.stats.nodes += 1;
        false
    }

    /// Takes the pending branch, if any, and propagates: whether the grid is full.
    #[inline(always)]
    fn node(&mut self, state: &mut State<M>, pending: Option<Branch>) -> Step<bool> {
        let (t, work) = (self.t, &mut *self.work);
        match pending {
            Some(b) => state
                .place(t, &mut work.queue, b.cell, b.digit)
                .and_then(|()| state.propagate(t, work)),
            None => state.propagate(t, work),
        }
    }

    /// Counts the full grid of `state` as a solution; whether the search must stop.
    fn solution(&mut self, state: &State<M>) -> bool {
        let shape = self.shape;
        let values =
            || Grid::from_values(shape, state.values().to_vec()).expect("solver values are 1..=N");
        self.found.solutions.add_with(values)
    }

    /// What to branch on: by weights under cages, else by the fewest candidates; the cell's
    /// smallest digit, under non-consecutive pairs its least constraining one
    /// ([`NonConsecutive::least_constraining`](super::consecutive::NonConsecutive)), or a random
    /// one of its digits in a randomized search.
    #[inline(always)]
    fn pick(&mut self, state: &State<M>) -> Branch {
        let t = self.t;
        let (mut b, house) = if self.work.weights.is_empty() {
            (state.pick(), false)
        } else {
            let hot = self.work.hot_digit(t.n);
            state.pick_weighted(t, &self.work.weights, hot)
        };
        if house {
            return b;
        }
        if let Some(pairs) = t.rules.as_ref().map(|r| r.non_consecutive())
            && !pairs.is_empty()
        {
            let peers = if t.has_peers() { t.peers(b.cell) } else { &[] };
            b.digit =
                pairs.least_constraining(b.cell, state.cand(b.cell), peers, |c| state.cand(c));
        }
        if let Some(rng) = &mut self.shuffle {
            let mut cand = state.cand(b.cell);
            for _ in 0..splitmix(rng) % u64::from(cand.count()) {
                cand = cand.without_lowest();
            }
            b.digit = cand.lowest();
        }
        b
    }

    /// A dead end right after `tried`: its cell weighs more in the branching under cages.
    #[inline(always)]
    fn blame(&mut self, tried: Option<Branch>) {
        if let (Some(b), false) = (tried, self.work.weights.is_empty()) {
            self.work.conflict(b.cell, b.digit);
        }
    }

    /// Opens a branch at the current node: records it and leaves its digit out of the child's
    /// interchangeable digits.
    fn open(&mut self, mark: usize, branch: Branch, ways: u32) {
        self.found.stats.guesses += 1;
        let child = self.left / f64::from(ways.max(1));
        self.branches.push(Open {
            mark,
            branch,
            count: self.found.solutions.count(),
            free: self.free,
            left: self.left,
            child,
        });
        self.left = child;
        self.free &= !M::bit(branch.digit);
    }

    /// A leaf (a dead end or a solution): the current node's open share is closed.
    #[inline(always)]
    fn close(&mut self) {
        self.done += self.left;
        self.left = 0.0;
    }

    /// Back at the node of `open`, whose subtree is closed, with `cut` more of its branches cut
    /// ([`Search::back`]): whether the node is done (`done`, its branch cell out of digits).
    #[inline(always)]
    fn closed(&mut self, open: &Open<M>, cut: u32, done: bool) {
        let cut = open.child * f64::from(cut);
        self.done += cut;
        self.left = (open.left - open.child - cut).max(0.0);
        if done {
            self.close();
        }
    }

    /// Back at the node of `open` after its branch's subtree, whose branch cell has the candidates
    /// `cand`: the digits that cell loses. The branch digit; and when that digit was interchangeable
    /// at the node with others (no given and no decision on the path names them, and the rules
    /// treat digits alike, so permuting them maps the node's solutions onto its solutions) and its
    /// subtree held no solution, those others, which can hold none either: value symmetry breaking
    /// for interchangeable values (Van Hentenryck, Flener, Pearson and Ågren, "Tractable symmetry
    /// breaking for CSPs with interchangeable values", IJCAI 2003). Only subtrees without a solution
    /// are cut, so counts stay exact; an empty jigsaw layout without a solution is refuted by
    /// trying one new digit per cell rather than all of them. Sets the node's interchangeable digits:
    /// removing the branch digit alone names it.
    fn back(&mut self, open: &Open<M>, cand: M) -> M {
        let bit = M::bit(open.branch.digit);
        self.free = open.free;
        if open.free & bit == M::ZERO {
            return bit;
        }
        if self.found.solutions.count() == open.count {
            (cand & open.free) | bit
        } else {
            self.free = open.free & !bit;
            bit
        }
    }

    /// Failed-literal probing (Lynce and Marques-Silva 2003; "nishio" to Sudoku players),
    /// restricted to where it pays: at the node of `stack[depth]` (propagated, not full), the open
    /// neighbours with two candidates of `cell`, the cell placed by the branch into this depth
    /// (at each node of the depth: back there after a subtree, they are probed again). Each of their digits
    /// is placed in a copy (the state above, not yet in use) and propagated by singles and the
    /// pairs ([`State::probe_propagate`]: no unit rule, locked candidates or naked pairs, which
    /// made a probe cost as much as a node); one that fails leaves the node, which propagates
    /// again. One pass. Whether the grid is full.
    ///
    /// On 48 fresh puzzles (4 seeds) this halved the nodes for 0.4 probes a node and cut the CPU
    /// by a quarter; probing every two-digit cell at every node cut the nodes 3-8x but cost 3-13
    /// probes a node, each as dear as a node (BENCHMARKS.md).
    ///
    /// # Errors
    /// Both digits of a neighbour failed, or what the failures removed leads to a dead end.
    fn probe(
        &mut self,
        pairs: &NonConsecutive,
        stack: &mut Vec<State<M>>,
        depth: usize,
        cell: usize,
    ) -> Step<bool> {
        let t = self.t;
        if stack.len() == depth + 1 {
            stack.push(State::new());
        }
        let (below, above) = stack.split_at_mut(depth + 1);
        let (state, copy) = (&mut below[depth], &mut above[0]);
        for &c in pairs.adjacent(cell) {
            let c = c as usize;
            let m = state.cand(c);
            if m.count() != 2 {
                continue;
            }
            for d in [m.lowest(), m.without_lowest().lowest()] {
                let b = M::bit(d);
                if state.cand(c) & b == M::ZERO {
                    continue;
                }
                copy.copy_from(state);
                let failed = copy
                    .place(t, &mut self.work.queue, c, d)
                    .and_then(|()| copy.probe_propagate(t, self.work))
                    .is_err();
                self.work.queue.clear();
                if !failed {
                    continue;
                }
                if state.cand(c) == b {
                    return Err(Contradiction);
                }
                state.remove(t, c, d);
                if state.cand(c).at_most_one() {
                    self.work.queue.push(c as u32);
                }
                if state.propagate(t, self.work)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The search by copies: the child of a branch is a copy of its parent with the digit placed;
    /// the parent keeps the copy without it, for when the child's subtree is done.
    ///
    /// No restarts: under clues the weights decay instead, as in sigh's engine, which never
    /// restarts. Without the restarts from the root (and with [`Tables::seeds`]) sigh's corpus took
    /// 0.91x the nodes (geometric mean; #82 50,335 → 11,753, #124 32,626 → 2,747).
    fn by_copies(&mut self, stack: &mut Vec<State<M>>) {
        let t = self.t;
        let mut depth = 0;
        let mut pending: Option<Branch> = None;
        'search: loop {
            if self.stop() {
                break;
            }
            let tried = pending;
            let mut step = self.node(&mut stack[depth], pending.take());
            // Below the root: the cell the branch into this depth placed.
            if let (Ok(false), Some(pairs), Some(into)) = (
                step,
                self.probe,
                depth.checked_sub(1).map(|k| self.branches[k].branch),
            ) {
                step = self.probe(pairs, stack, depth, into.cell);
            }
            match step {
                Ok(false) => {
                    let b = self.pick(&stack[depth]);
                    if stack.len() == depth + 1 {
                        stack.push(State::new());
                    }
                    let (below, above) = stack.split_at_mut(depth + 1);
                    above[0].copy_from(&below[depth]);
                    let ways = below[depth].cand(b.cell).count();
                    below[depth].remove(t, b.cell, b.digit);
                    self.branches.truncate(depth);
                    self.open(0, b, ways);
                    depth += 1;
                    pending = Some(b);
                    continue;
                }
                Ok(true) => {
                    self.close();
                    if self.solution(&stack[depth]) {
                        break;
                    }
                }
                Err(_) => {
                    self.close();
                    self.blame(tried);
                }
            }
            // Back to the parent, whose branch cell lost the digit just tried (and those it cut);
            // a parent left without a candidate there is done too.
            self.work.queue.clear();
            loop {
                if depth == 0 {
                    break 'search;
                }
                depth -= 1;
                let open = self.branches[depth];
                let c = open.branch.cell;
                let cand = stack[depth].cand(c);
                let gone = self.back(&open, cand) & cand;
                self.closed(&open, gone.count(), gone == cand);
                if gone == cand {
                    continue;
                }
                if gone != M::ZERO {
                    stack[depth].remove_all(t, c, gone);
                }
                if stack[depth].cand(c).at_most_one() {
                    self.work.queue.push(c as u32);
                }
                break;
            }
        }
    }

    /// The search in place: a branch marks the log and places the digit; backtracking undoes the
    /// log to the mark and removes the digit instead. The root is also probed
    /// ([`State::probe`]).
    fn by_log(&mut self, state: &mut State<M>) {
        let t = self.t;
        let mut pending: Option<Branch> = None;
        let mut root = true;
        state.watch(self.bounds.deadline);
        'search: loop {
            if self.stop() {
                break;
            }
            let tried = pending;
            let mut step = self.node(state, pending.take());
            if root && matches!(step, Ok(false)) {
                let deadline = self.bounds.deadline;
                step = state
                    .probe(t, self.work, &mut || past(deadline))
                    .and_then(|()| state.full(t));
            }
            root = false;
            if state.stopped() {
                self.found.gave_up = true;
                break;
            }
            match step {
                Ok(false) => {
                    let b = self.pick(state);
                    state.start_logging();
                    let ways = state.cand(b.cell).count();
                    self.open(state.mark(), b, ways);
                    pending = Some(b);
                    continue;
                }
                Ok(true) => {
                    self.close();
                    if self.solution(state) {
                        break;
                    }
                }
                Err(_) => {
                    self.close();
                    self.blame(tried);
                }
            }
            // Back to the last branch: its state as it was, without the digit just tried (and those
            // it cut); a node left without a candidate there is done too.
            self.work.queue.clear();
            loop {
                let Some(open) = self.branches.pop() else {
                    break 'search;
                };
                state.undo(t, open.mark);
                state.clean();
                let c = open.branch.cell;
                let cand = state.cand(c);
                let gone = self.back(&open, cand) & cand;
                // Here the branch digit is still a candidate, and counts among those gone.
                self.closed(&open, gone.count().saturating_sub(1), gone == cand);
                if gone == cand {
                    continue;
                }
                state.remove_all(t, c, gone);
                if state.cand(c).at_most_one() {
                    self.work.queue.push(c as u32);
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::units::Units;

    #[test]
    fn variant_searches_read_the_clock_every_16_nodes() {
        // A plain 9x9 search reads it every 1,024 nodes (a node costs about a microsecond); under
        // cages or non-consecutive pairs a node can cost a few hundred, so every 16.
        let shape = Shape::new(3, 3).unwrap();
        let plain = Tables::build(&Units::standard(shape));
        assert_eq!(clock_mask(&plain), 1023);
        let nc = Units::rules(shape)
            .variant(crate::constraint::Variant::NonConsecutive)
            .build()
            .unwrap();
        assert_eq!(clock_mask(&Tables::build(&nc)), 15);
        let big = Tables::build(&Units::standard(Shape::new(5, 5).unwrap()));
        assert_eq!(clock_mask(&big), 63);
    }
}
