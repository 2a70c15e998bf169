//! Line constraints as automata: an [`Automaton`] reads the values along a line of cells, and
//! [`unroll`] lays it out over the line as a [`Layered`] graph (an MDD: layer i holds the states after
//! i cells, an edge per state and digit), keeping only the states on some accepted word. Both backends
//! read that graph, each in its own way (the native search by forward and backward reachability over
//! its candidates, Pesant 2004; the encoder as clauses, Bacchus 2007), so a new kind of line is a new
//! automaton: data, not code in either backend.

use std::cell::RefCell;
use std::hash::Hash;

use rustc_hash::FxHashMap;

/// A finite automaton over the values of a line, told where it is on the line (which lets a line's
/// ends be read apart from its middle).
pub(crate) trait Automaton {
    /// A state; equal states are merged within a layer.
    type State: Clone + Eq + Hash;

    /// The state before the first cell.
    fn start(&self) -> Self::State;

    /// Pushes onto `out` the states after reading `value` at 0-based position `i` of a line of `len`
    /// cells from state `s` (none: the value is not allowed there; several: a choice).
    fn step(&self, s: &Self::State, i: usize, len: usize, value: i32, out: &mut Vec<Self::State>);

    /// Whether a word may end in `s`.
    fn accepts(&self, s: &Self::State) -> bool;
}

/// One edge of a [`Layered`] graph: from a node of layer i, on a digit, to a node of layer i + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The node of layer i.
    pub from: u32,
    /// The 0-based digit index (digit − 1).
    pub digit: u16,
    /// The node of layer i + 1.
    pub to: u32,
}

/// `A` over a line whose cells hold different values (a whole row or column, a lunchbox's cells):
/// the states also carry the set of values read so far, and a value read twice is refused. The line
/// then says, besides `A`, that its values differ, which `A` alone cannot see: a sandwich's sum of
/// repeated digits, a skyscraper count that needs two equal heights (the digit sets that make a
/// sandwich's sum, by the gap between the 1 and the 9, are what sigh's `Lunchbox` handler reasons
/// over). On a house of N ≤ 9 cells this stays small (at most 2^N sets a layer, times `A`'s
/// states); past `budget` edges the caller keeps `A` alone.
pub(crate) struct Distinct<'a, A: Automaton> {
    /// The automaton.
    inner: &'a A,
    /// The smallest value (bit 0 of the sets).
    lo: i32,
    /// `inner`'s next states, reused from step to step (one allocation a line, not one a step).
    scratch: RefCell<Vec<A::State>>,
}

impl<'a, A: Automaton> Distinct<'a, A> {
    /// `inner` over distinct values, the smallest `lo`.
    pub fn new(inner: &'a A, lo: i32) -> Self {
        Distinct {
            inner,
            lo,
            scratch: RefCell::new(Vec::new()),
        }
    }
}

impl<A: Automaton> Automaton for Distinct<'_, A> {
    type State = (A::State, u64);

    fn start(&self) -> Self::State {
        (self.inner.start(), 0)
    }

    fn step(&self, s: &Self::State, i: usize, len: usize, v: i32, out: &mut Vec<Self::State>) {
        let (inner, seen) = s;
        // Values past 64 from the smallest are not tracked (clues are refused on such grids).
        let bit = u32::try_from(v - self.lo)
            .ok()
            .and_then(|k| 1u64.checked_shl(k))
            .unwrap_or(0);
        if seen & bit != 0 {
            return;
        }
        let mut next = self.scratch.borrow_mut();
        next.clear();
        self.inner.step(inner, i, len, v, &mut next);
        out.extend(next.drain(..).map(|t| (t, seen | bit)));
    }

    fn accepts(&self, s: &Self::State) -> bool {
        self.inner.accepts(&s.0)
    }
}

/// An automaton unrolled over a line of L cells: layers 0..=L of nodes, layer 0 the start alone and
/// layer L one accepting node, and per position the edges between consecutive layers. Every node and
/// edge lies on a path from the start to the end, so the digits of a cell that label some edge of its
/// position are exactly those the line allows there when the other cells are free. A line that
/// accepts no word has no edges at all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layered {
    /// Nodes per layer, layers 0..=L.
    nodes: Vec<u32>,
    /// Per position 0..L, its edges, sorted by (from, digit, to).
    edges: Vec<Vec<Edge>>,
}

impl Layered {
    /// The number of cells L.
    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// Whether the line has no cells.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// The nodes of layer `i` (0..=L).
    pub fn nodes(&self, i: usize) -> usize {
        self.nodes[i] as usize
    }

    /// The edges from layer `i` to layer `i + 1` (i below L).
    pub fn edges(&self, i: usize) -> &[Edge] {
        &self.edges[i]
    }

    /// Whether no word is accepted (no edges).
    pub fn rejects_all(&self) -> bool {
        self.edges.iter().any(Vec::is_empty)
    }

    /// Edges in all.
    pub fn edge_count(&self) -> usize {
        self.edges.iter().map(Vec::len).sum()
    }

    /// Whether the digits `digits` (0-based indices, one per cell) spell an accepted word.
    pub fn accepts(&self, digits: &[u16]) -> bool {
        if digits.len() != self.len() {
            return false;
        }
        let mut here: Vec<bool> = vec![true; self.nodes.first().map_or(0, |&n| n as usize)];
        for (i, &d) in digits.iter().enumerate() {
            let mut next = vec![false; self.nodes[i + 1] as usize];
            for e in &self.edges[i] {
                if e.digit == d && here[e.from as usize] {
                    next[e.to as usize] = true;
                }
            }
            here = next;
        }
        here.iter().any(|&b| b)
    }
}

/// Why an automaton could not be unrolled: its layers hold too many edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooLarge {
    /// The budget exceeded.
    pub edges: usize,
}

/// The most edges an unrolled line may have (before pruning).
pub(crate) const MAX_EDGES: usize = 2_000_000;

/// Unrolls `automaton` over a line of `values.len()`-digit cells of length `len`: digit index d has
/// value `values[d]`. States reached from the start are numbered layer by layer in the order found
/// (so that the result does not depend on hashing), then the nodes that reach no accepting state at
/// layer L are dropped and the accepting states merged into one.
///
/// # Errors
/// [`TooLarge`] when the layers would hold more than [`MAX_EDGES`] edges.
pub(crate) fn unroll<A: Automaton>(
    automaton: &A,
    len: usize,
    values: &[i32],
) -> Result<Layered, TooLarge> {
    unroll_within(automaton, len, values, MAX_EDGES)
}

/// [`unroll`] within `budget` edges (before pruning) rather than [`MAX_EDGES`].
///
/// # Errors
/// [`TooLarge`] when the layers would hold more than `budget` edges.
pub(crate) fn unroll_within<A: Automaton>(
    automaton: &A,
    len: usize,
    values: &[i32],
    budget: usize,
) -> Result<Layered, TooLarge> {
    // Forward: the states of each layer, and the edges between them.
    let mut states: Vec<Vec<A::State>> = vec![vec![automaton.start()]];
    let mut edges: Vec<Vec<Edge>> = Vec::with_capacity(len);
    let mut total = 0usize;
    let mut out = Vec::new();
    // Reused across layers (cleared, its capacity kept); the numbering does not depend on hashing.
    // rustc's Fx hash, not SipHash: SipHash was most of the cost of unrolling a [`Distinct`] line,
    // and the states come from the puzzle, not from an adversary that could pick colliding keys.
    let mut index: FxHashMap<A::State, u32> = FxHashMap::default();
    for i in 0..len {
        index.clear();
        // Sized as the layer before (lines' layers grow or shrink gradually).
        let mut next: Vec<A::State> = Vec::with_capacity(states[i].len());
        let mut layer = Vec::with_capacity(edges.last().map_or(values.len(), Vec::len));
        for (from, s) in states[i].iter().enumerate() {
            for (d, &v) in values.iter().enumerate() {
                out.clear();
                automaton.step(s, i, len, v, &mut out);
                for t in out.drain(..) {
                    let to = *index.entry(t.clone()).or_insert_with(|| {
                        next.push(t);
                        (next.len() - 1) as u32
                    });
                    layer.push(Edge {
                        from: from as u32,
                        digit: d as u16,
                        to,
                    });
                }
            }
            // Within the layer too: one layer alone may grow past any budget (a loop's states).
            if total + layer.len() > budget {
                return Err(TooLarge { edges: budget });
            }
        }
        total += layer.len();
        edges.push(layer);
        states.push(next);
    }
    // Backward: which nodes reach an accepting state at layer L.
    let mut alive: Vec<Vec<bool>> = states.iter().map(|l| vec![false; l.len()]).collect();
    for (k, s) in states[len].iter().enumerate() {
        alive[len][k] = automaton.accepts(s);
    }
    for i in (0..len).rev() {
        for e in &edges[i] {
            if alive[i + 1][e.to as usize] {
                alive[i][e.from as usize] = true;
            }
        }
    }
    // Layer 0's start must itself be alive, else nothing is accepted.
    if !alive[0][0] {
        return Ok(Layered {
            nodes: vec![1; len + 1],
            edges: vec![Vec::new(); len],
        });
    }
    // Renumber the live nodes; the accepting ones of layer L become node 0.
    let mut renumber: Vec<Vec<u32>> = Vec::with_capacity(len + 1);
    let mut nodes = Vec::with_capacity(len + 1);
    for (i, live) in alive.iter().enumerate() {
        let mut map = vec![u32::MAX; live.len()];
        let mut k = 0u32;
        for (j, &a) in live.iter().enumerate() {
            if a {
                map[j] = if i == len { 0 } else { k };
                k += 1;
            }
        }
        nodes.push(if i == len { 1 } else { k });
        renumber.push(map);
    }
    let edges = edges
        .into_iter()
        .enumerate()
        .map(|(i, layer)| {
            let mut kept: Vec<Edge> = layer
                .into_iter()
                .filter(|e| alive[i][e.from as usize] && alive[i + 1][e.to as usize])
                .map(|e| Edge {
                    from: renumber[i][e.from as usize],
                    digit: e.digit,
                    to: renumber[i + 1][e.to as usize],
                })
                .collect();
            kept.sort_unstable_by_key(|e| (e.from, e.digit, e.to));
            kept.dedup();
            kept
        })
        .collect();
    Ok(Layered { nodes, edges }.reduced())
}

impl Layered {
    /// The same words with equivalent nodes merged: bottom-up, the nodes of a layer whose edges
    /// (digit and target, the targets already merged) are the same accept the same rest of a
    /// word, and become one node, numbered in the order of their first member (a reduced ordered
    /// MDD when the automaton is deterministic). An automaton's states often tell more than the rest
    /// of the line needs (Dutch flatmates keep the digit above, where only whether it was the top one
    /// matters): merging leaves fewer nodes and edges for both backends to walk or encode.
    fn reduced(mut self) -> Layered {
        let len = self.len();
        let mut below: Vec<u32> = (0..self.nodes[len]).collect();
        // Per layer, reused: the nodes' edges as (digit, target), and each node's run in it.
        let mut signatures: Vec<(u16, u32)> = Vec::new();
        let mut runs: Vec<(u32, usize, usize)> = Vec::new();
        let mut fingerprints: Vec<u64> = Vec::new();
        for i in (0..len).rev() {
            let layer = &mut self.edges[i];
            let mut moved = false;
            for e in layer.iter_mut() {
                let to = below[e.to as usize];
                moved |= to != e.to;
                e.to = to;
            }
            if moved {
                // Still in order by (from, digit): only targets of one node and digit may now be out
                // of order, or equal.
                for group in layer.chunk_by_mut(|a, b| a.from == b.from && a.digit == b.digit) {
                    group.sort_unstable_by_key(|e| e.to);
                }
                layer.dedup();
            }
            if i == 0 {
                break;
            }
            // Nodes with the same edges have the same fingerprint (a function of their edges): when
            // no two fingerprints are equal, no node merges, and the layer stays as it is.
            fingerprints.clear();
            fingerprints.extend(layer.chunk_by(|a, b| a.from == b.from).map(|run| {
                run.iter().fold(run.len() as u64, |h, e| {
                    let edge = u64::from(e.digit) << 32 | u64::from(e.to);
                    h.wrapping_add(edge.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29))
                })
            }));
            fingerprints.sort_unstable();
            if fingerprints.windows(2).all(|w| w[0] != w[1])
                && fingerprints.len() == self.nodes[i] as usize
            {
                below = (0..self.nodes[i]).collect();
                continue;
            }
            // Per node of layer i (its edges are contiguous, sorted by `from`): its class, numbered
            // in node order.
            signatures.clear();
            runs.clear();
            for run in layer.chunk_by(|a, b| a.from == b.from) {
                let first = signatures.len();
                signatures.extend(run.iter().map(|e| (e.digit, e.to)));
                runs.push((run[0].from, first, signatures.len()));
            }
            let nodes = self.nodes[i] as usize;
            let mut map = vec![u32::MAX; nodes];
            // Whether a node is the first of its class, whose edges the class keeps.
            let mut first_of = vec![false; nodes];
            let mut ids: FxHashMap<&[(u16, u32)], u32> = FxHashMap::default();
            ids.reserve(runs.len());
            for &(node, first, end) in &runs {
                let next = ids.len() as u32;
                let id = *ids.entry(&signatures[first..end]).or_insert(next);
                map[node as usize] = id;
                first_of[node as usize] = id == next;
            }
            // A node without edges (a line that accepts nothing) keeps a class of its own.
            let mut count = ids.len() as u32;
            for m in map.iter_mut().filter(|m| **m == u32::MAX) {
                *m = count;
                count += 1;
            }
            // The other members' edges are the first's: dropped. Classes are numbered in the order
            // of their first members, so the edges stay in order.
            layer.retain(|e| first_of[e.from as usize]);
            for e in layer.iter_mut() {
                e.from = map[e.from as usize];
            }
            self.nodes[i] = count;
            below = map;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strictly increasing values (a thermometer).
    struct Rising;

    impl Automaton for Rising {
        type State = i32;
        fn start(&self) -> i32 {
            i32::MIN
        }
        fn step(&self, s: &i32, _: usize, _: usize, v: i32, out: &mut Vec<i32>) {
            if v > *s {
                out.push(v);
            }
        }
        fn accepts(&self, _: &i32) -> bool {
            true
        }
    }

    /// Ends with the value it started with (a choice at the first cell of what the last must be).
    struct SameEnds;

    impl Automaton for SameEnds {
        type State = Option<i32>;
        fn start(&self) -> Option<i32> {
            None
        }
        fn step(&self, s: &Option<i32>, i: usize, len: usize, v: i32, out: &mut Vec<Option<i32>>) {
            match s {
                None => out.push(Some(v)),
                Some(first) if i + 1 < len || v == *first => out.push(Some(*first)),
                Some(_) => {}
            }
        }
        fn accepts(&self, s: &Option<i32>) -> bool {
            s.is_some()
        }
    }

    #[test]
    fn a_thermometer_keeps_only_reachable_digits() {
        // Three cells rising through 1-4: the first cell 1 or 2, the last 3 or 4.
        let g = unroll(&Rising, 3, &[1, 2, 3, 4]).unwrap();
        let digits = |i: usize| {
            let mut d: Vec<u16> = g.edges(i).iter().map(|e| e.digit + 1).collect();
            d.sort_unstable();
            d.dedup();
            d
        };
        assert_eq!(digits(0), [1, 2]);
        assert_eq!(digits(1), [2, 3]);
        assert_eq!(digits(2), [3, 4]);
        assert_eq!((g.nodes(0), g.nodes(3)), (1, 1));
        assert!(g.accepts(&[0, 1, 3]));
        assert!(!g.rejects_all());
        // Five cells cannot rise through four digits.
        assert!(unroll(&Rising, 5, &[1, 2, 3, 4]).unwrap().rejects_all());
    }

    /// Every word is its own state: the first layers are cheap, and the one that would pass the
    /// budget stops as it passes it, not after it is laid out (found by fuzzing the sigh reader:
    /// a loop sum line of sum 2³¹ asked for 3 GB in one layer).
    struct Words;

    impl Automaton for Words {
        type State = Vec<i32>;
        fn start(&self) -> Vec<i32> {
            Vec::new()
        }
        fn step(&self, s: &Vec<i32>, _: usize, _: usize, v: i32, out: &mut Vec<Vec<i32>>) {
            let mut t = s.clone();
            t.push(v);
            out.push(t);
        }
        fn accepts(&self, _: &Vec<i32>) -> bool {
            true
        }
    }

    #[test]
    fn a_line_past_the_budget_is_too_large() {
        let values: Vec<i32> = (1..=16).collect();
        // 16⁵ = 1,048,576 edges in layer 5 alone, 1,118,480 in all: within the budget.
        assert!(unroll(&Words, 5, &values).is_ok());
        assert_eq!(
            unroll(&Words, 6, &values).unwrap_err(),
            TooLarge { edges: MAX_EDGES }
        );
    }

    #[test]
    fn distinct_refuses_repeats_by_brute_force() {
        // Rising is already distinct; SameEnds never is (its ends are equal): nothing passes.
        let d = Distinct::new(&SameEnds, 1);
        assert!(unroll(&d, 3, &[1, 2, 3]).unwrap().rejects_all());
        // Words of 3 over 1-4: every word of different values, 4·3·2 of them.
        let d = Distinct::new(&Words, 1);
        let g = unroll(&d, 3, &[1, 2, 3, 4]).unwrap();
        for w in 0..64u16 {
            let w = [w / 16, w / 4 % 4, w % 4];
            let differ = w[0] != w[1] && w[1] != w[2] && w[0] != w[2];
            assert_eq!(g.accepts(&w), differ, "{w:?}");
        }
        // Past a budget of edges: too large, where the plain graph is not.
        assert_eq!(
            unroll_within(&d, 3, &[1, 2, 3, 4], 20).unwrap_err(),
            TooLarge { edges: 20 }
        );
    }

    /// Every word is its own state, accepted when its sum is a multiple of 3: the states tell far
    /// more than the rest of a word needs (its sum mod 3).
    struct ThreeDivides;

    impl Automaton for ThreeDivides {
        type State = Vec<i32>;
        fn start(&self) -> Vec<i32> {
            Vec::new()
        }
        fn step(&self, s: &Vec<i32>, _: usize, _: usize, v: i32, out: &mut Vec<Vec<i32>>) {
            Words.step(s, 0, 0, v, out);
        }
        fn accepts(&self, s: &Vec<i32>) -> bool {
            s.iter().sum::<i32>() % 3 == 0
        }
    }

    #[test]
    fn equivalent_nodes_are_merged_and_every_word_kept() {
        // 4⁴ words of 1-4: unrolled as words, 1 + 4 + 16 + 64 nodes before the last layer; merged,
        // each layer keeps one node per sum mod 3 that can still end at 0 mod 3.
        let g = unroll(&ThreeDivides, 4, &[1, 2, 3, 4]).unwrap();
        assert_eq!(
            (0..=4).map(|i| g.nodes(i)).collect::<Vec<_>>(),
            [1, 3, 3, 3, 1]
        );
        assert_eq!(g.edge_count(), 4 + 12 + 12 + 4);
        for w in 0..256u16 {
            let d = [w / 64, w / 16 % 4, w / 4 % 4, w % 4];
            let sum: u16 = d.iter().map(|&x| x + 1).sum();
            assert_eq!(g.accepts(&d), sum.is_multiple_of(3), "{d:?}");
        }
        // A thermometer's states are all needed: nothing merges (3 cells rising through 1-4).
        let t = unroll(&Rising, 3, &[1, 2, 3, 4]).unwrap();
        assert_eq!(
            (0..=3).map(|i| t.nodes(i)).collect::<Vec<_>>(),
            [1, 2, 2, 1]
        );
    }

    #[test]
    fn equal_ends_by_brute_force() {
        // Every word of length 3 over 1-3 against the automaton's graph.
        let g = unroll(&SameEnds, 3, &[1, 2, 3]).unwrap();
        for w in 0..27u16 {
            let d = [w / 9, w / 3 % 3, w % 3];
            assert_eq!(g.accepts(&d), d[0] == d[2], "{d:?}");
        }
        assert_eq!(g.edge_count(), 3 + 9 + 3);
    }
}
