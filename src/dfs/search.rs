//! The depth-first search over an explicit stack of copied states: propagate, branch on the MRV cell,
//! backtrack by returning to the parent copy; limits on solutions, nodes and time.

use std::time::Instant;

use super::mask::Mask;
use super::state::{State, Step, Work};
use super::tables::Tables;
use crate::grid::{Grid, Shape};
use crate::solve::{Limits, Solutions, Stats};

/// Buffers reused from one solve to the next on a thread: the state stack, the branch cells and the
/// propagation buffers. Kept small when idle (see [`Scratch::trim`]).
pub(crate) struct Scratch<M: Mask, const C: usize, const U: usize> {
    /// `stack[k]` is the state at depth `k`; a parent holds the alternatives not yet tried.
    stack: Vec<State<M, C, U>>,
    /// `branch[k]`: the cell branched on at depth `k`.
    branch: Vec<u16>,
    /// The naked-single queue and locked-candidate masks.
    work: Work<M>,
}

impl<M: Mask, const C: usize, const U: usize> Default for Scratch<M, C, U> {
    fn default() -> Self {
        Scratch::new()
    }
}

/// Bytes of idle stack a thread keeps between solves.
const KEEP_BYTES: usize = 4 << 20;

impl<M: Mask, const C: usize, const U: usize> Scratch<M, C, U> {
    /// Empty buffers (no allocation).
    pub const fn new() -> Self {
        Scratch {
            stack: Vec::new(),
            branch: Vec::new(),
            work: Work::new(),
        }
    }

    /// Frees the part of the stack beyond [`KEEP_BYTES`], after a deep search on a large grid.
    pub fn trim(&mut self) {
        let keep = (KEEP_BYTES / size_of::<State<M, C, U>>()).max(1);
        if self.stack.capacity() > keep {
            self.stack.truncate(keep);
            self.stack.shrink_to(keep);
        }
    }
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

/// A solve's node budget and deadline, fixed when it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    budget: Option<u64>,
    deadline: Option<Instant>,
}

impl Bounds {
    /// The bounds of a solve under `limits` that starts now.
    pub fn start(limits: &Limits) -> Bounds {
        Bounds {
            budget: limits.budget(),
            deadline: limits.deadline(Instant::now()),
        }
    }
}

/// Whether a search that has visited `nodes` nodes must stop before the next one: the node budget is
/// checked at every node, the deadline when `nodes & clock_mask == 0` (the first node, then every
/// `clock_mask + 1` nodes, since reading the clock costs more than a small node).
#[inline(always)]
pub(crate) fn out_of_limits(bounds: &Bounds, nodes: u64, clock_mask: u64) -> bool {
    bounds.budget.is_some_and(|b| nodes >= b)
        || (nodes & clock_mask == 0 && bounds.deadline.is_some_and(|d| Instant::now() >= d))
}

/// Searches `puzzle` (whose shape matches the tables) within `limits`.
pub(crate) fn run<M: Mask, const C: usize, const U: usize>(
    t: &Tables,
    shape: Shape,
    puzzle: &Grid,
    limits: &Limits,
    bounds: &Bounds,
    scratch: &mut Scratch<M, C, U>,
) -> Found {
    debug_assert!(t.cells <= C && t.units <= U && t.n as u32 <= M::BITS);
    let Scratch {
        stack,
        branch,
        work,
    } = scratch;
    work.prepare(t);
    if stack.is_empty() {
        stack.push(State::blank());
    }
    let mut found = Found::new(limits);
    // The root: givens placed one by one; two equal givens in a unit fail here.
    let root = &mut stack[0];
    root.reset(t);
    for (c, &v) in puzzle.values().iter().enumerate() {
        if v != 0 && root.place(t, &mut work.queue, c, u32::from(v) - 1).is_err() {
            return found;
        }
    }
    // Check the clock on the first node and then every `clock_mask + 1` nodes: fewer nodes between
    // checks on large grids, where a node costs more.
    let clock_mask: u64 = match t.cells {
        0..=81 => 1023,
        82..=256 => 255,
        257..=1024 => 63,
        _ => 15,
    };
    let mut depth = 0;
    // A guess to apply to `stack[depth]` before propagating it.
    let mut pending: Option<(usize, u32)> = None;
    loop {
        if out_of_limits(bounds, found.stats.nodes, clock_mask) {
            found.gave_up = true;
            break;
        }
        found.stats.nodes += 1;
        let state = &mut stack[depth];
        let step: Step<bool> = match pending.take() {
            Some((c, d)) => state
                .place(t, &mut work.queue, c, d)
                .and_then(|()| state.propagate(t, work)),
            None => state.propagate(t, work),
        };
        match step {
            Ok(false) => {
                // Branch: the child takes the smallest candidate of the MRV cell, the parent keeps
                // the rest for when the child's subtree is done.
                let c = state.pick(t);
                let d = state.cand(c).lowest();
                found.stats.guesses += 1;
                if stack.len() == depth + 1 {
                    let copy = stack[depth];
                    stack.push(copy);
                } else {
                    let (below, above) = stack.split_at_mut(depth + 1);
                    above[0] = below[depth];
                }
                stack[depth].remove(c, d);
                if branch.len() == depth {
                    branch.push(c as u16);
                } else {
                    branch[depth] = c as u16;
                }
                depth += 1;
                pending = Some((c, d));
                continue;
            }
            Ok(true) => {
                let values = || {
                    let values = stack[depth]
                        .values(t)
                        .iter()
                        .map(|&v| u16::from(v))
                        .collect();
                    Grid::from_values(shape, values).expect("solver values are 1..=N")
                };
                if found.solutions.add_with(values) {
                    break;
                }
            }
            Err(_) => {}
        }
        // Backtrack to the parent, whose branch cell lost the digit just tried.
        work.queue.clear();
        if depth == 0 {
            break;
        }
        depth -= 1;
        let c = branch[depth] as usize;
        if stack[depth].cand(c).at_most_one() {
            work.queue.push(c as u16);
        }
    }
    found
}
