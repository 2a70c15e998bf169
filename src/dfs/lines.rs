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
//!   consistency for the line). A line of a relation on every pair of a few cells (a clique) is
//!   made as consistent by gathering its assignments instead (see [`Clique`]).
//!
//! Digit sets are the low 64 bits of the masks: clues are refused on grids above 64 digits.

use super::digit_peers::DigitPeers;
use super::mask::Mask;
use super::narrow::{
    Narrowed, domain, keep_only, narrow, prune_signed, prune_unless_seen, signature,
};
use super::sandwich::Sandwich;
use super::step::{Contradiction, Step};
use crate::automaton::Layered;
use crate::clue::Clue;
use crate::constraint::SumRule;
use crate::grid::Cell;
use crate::units::Units;

/// A relation's supports: for each digit of the first cell, the digits the second may hold
/// (`forward`), and conversely (`backward`).
#[derive(Debug, PartialEq, Eq)]
struct PairTable {
    forward: Box<[u64]>,
    backward: Box<[u64]>,
}

/// One weighted sum, as the search reads it: its cells split into groups of cells with the same
/// weights that must hold different digits (cells of one row, box or cage).
#[derive(Debug, PartialEq, Eq)]
struct SumProp {
    /// The cells, group after group.
    cells: Box<[u32]>,
    /// Per group, its range of `cells`.
    groups: Box<[(u32, u32)]>,
    /// Per group, per digit: the weight less the group's smallest weight (never negative).
    weights: Box<[Box<[u32]>]>,
    /// Per group: the least its cells can weigh, being different digits (the sum of its size's
    /// smallest weights); partial sums are kept less these floors, so that a bit set spans only
    /// what the groups' sums can range over (a 9-cell diagonal of a 9x9 grid: 54 in three boxes,
    /// one word, against 72 without).
    floors: Box<[u32]>,
    /// Per group: its digits (0-based) from the lightest to the heaviest.
    order: Box<[Box<[u8]>]>,
    /// The allowed totals less the sum of the smallest weights and of the floors, as a bit set of
    /// `words` words.
    totals: Box<[u64]>,
    /// Words of a bit set of partial sums (the range of the sum).
    words: usize,
    /// Words of a subset sum's table before its floor is taken off ([`subset_sums`]): its largest
    /// sum's, over the groups.
    table_words: usize,
    /// The one allowed total (less the smallest weights, floors included), when there is one: what
    /// the bounds of [`SumProp::bounds`] are compared with.
    single: Option<u64>,
    /// When the sum counts one digit (see [`Count`]).
    count: Option<Count>,
    /// Per group, the digits weighing 1, when every weight is 0 or 1 (counts of digits: same
    /// values, look and say, quadruples): then [`SumProp::prune_binary`] reasons in intervals.
    binary: Option<Box<[u64]>>,
    /// Whether its cells are the sum's before it, in the same order (same values' counts, one sum
    /// a digit): then the signature of its inputs is that sum's while nothing has changed.
    same_cells: bool,
}

/// A sum that counts the cells holding one digit, at least once (look and say, quadruples):
/// besides the partial sums, the cells that see every cell of the sum still able to hold
/// the digit cannot hold it while some are missing (a "pointing" elimination, as sigh's
/// `RequiredValues` handler removes the values from the cells that see the whole constraint, here
/// at every node and over the cells still open to the digit).
#[derive(Debug, PartialEq, Eq)]
struct Count {
    /// The digit (0-based).
    digit: usize,
    /// How many of the cells hold it at least.
    total: usize,
}

/// One line, as the search reads it: its graph's nodes numbered layer after layer, each node's
/// edges packed in one word each (four bytes an edge, so that a few long lines stay in cache).
#[derive(Debug, PartialEq, Eq)]
struct LineProp {
    cells: Box<[u32]>,
    /// Per node, where its edges start in `edges` (one more entry than there are nodes).
    first: Box<[u32]>,
    /// Each edge as the number of the node it leads to, shifted left 6, or'ed with its digit.
    edges: Box<[u32]>,
    /// Where each layer's nodes start (layers 0..=L, then the total).
    offset: Box<[usize]>,
    /// Per node, the digits of its edges, when no node has two edges of one digit (then a node's
    /// edge of digit d is found by counting the digits below d, and a pass follows only the edges
    /// of the cell's digits).
    has: Option<Box<[u64]>>,
    /// Whether the line accepts no word.
    empty: bool,
    /// Whether its cells are all different cells, so that its pruning is idempotent.
    simple: bool,
    /// Where its residual supports start, after the lines' before it (see [`LineProp::prune`]);
    /// `None` when it keeps none (a repeated cell, more than [`RESIDUE_CELLS`] cells or more than
    /// 16 digits).
    residues: Option<usize>,
    /// A reasoning of the line's own that replaces the walk, when it has one.
    shortcut: Option<Shortcut>,
}

/// What a line may be reasoned about by instead of its walk.
#[derive(Debug, PartialEq, Eq)]
enum Shortcut {
    /// A sandwich over a whole house: by digit sets (see [`Sandwich`]).
    Sandwich(Sandwich),
    /// A relation on every pair of a few different cells, the earlier cell first (the line of
    /// [`Clue::Pair`] with `all`): by the assignments of its cells (see [`Clique`]), which keeps
    /// what the walk keeps at a fraction of its cost.
    Clique(Clique),
}

/// The most cells of a clique reasoned about by [`Clique`] (its assignments grow as the digits to
/// the power of the cells, the walk's graph as the sets of digits); larger cliques are walked.
const CLIQUE_CELLS: usize = 5;

/// The most digits of a grid whose cliques keep their tables of supports by digit set (`2^n`
/// entries each); above, the supports are gathered digit by digit.
const UNION_DIGITS: usize = 12;

/// A relation's table, for [`LineProp::prune_clique`]: per digit of an earlier cell, the digits a
/// later cell may hold beside it (`forward`), and the union of those over each set of digits of
/// an earlier cell (`later`) or of a later cell (`earlier`, the converse), up to
/// [`UNION_DIGITS`] digits (else empty).
#[derive(Debug, PartialEq, Eq)]
struct Clique {
    forward: Box<[u64]>,
    later: Box<[u16]>,
    earlier: Box<[u16]>,
}

impl Clique {
    /// The clique of `forward` (per digit of an earlier cell, the digits a later one may hold) on
    /// a grid of `n` digits.
    fn new(n: usize, forward: Box<[u64]>) -> Clique {
        let backward: Vec<u64> = (0..n)
            .map(|b| {
                (0..n)
                    .filter(|&a| forward[a] >> b & 1 == 1)
                    .fold(0, |m, a| m | 1 << a)
            })
            .collect();
        let unions = |table: &[u64]| -> Box<[u16]> {
            if n > UNION_DIGITS {
                return Box::default();
            }
            let mut u = vec![0u16; 1 << n];
            for m in 1..u.len() {
                u[m] = u[m & (m - 1)] | table[m.trailing_zeros() as usize] as u16;
            }
            u.into()
        };
        Clique {
            later: unions(&forward),
            earlier: unions(&backward),
            forward,
        }
    }

    /// The digits a later cell may hold beside some digit of `m` of an earlier one.
    #[inline]
    fn later(&self, m: u64) -> u64 {
        match self.later.get(m as usize) {
            Some(&u) => u64::from(u),
            None => supports(&self.forward, m),
        }
    }

    /// The digits of an earlier cell that some digit of `m` of a later one may go beside.
    #[inline]
    fn earlier(&self, m: u64) -> u64 {
        match self.earlier.get(m as usize) {
            Some(&u) => u64::from(u),
            None => {
                let mut s = 0;
                for (a, &f) in self.forward.iter().enumerate() {
                    s |= u64::from(f & m != 0) << a;
                }
                s
            }
        }
    }

    /// Gathers into `seen` the digits of every assignment of cells `j..k` within `allowed` (each
    /// cell's digits already narrowed by `path`, the digits of the cells before it) that allows
    /// every pair, and marks `path` too when there is one; skips the assignments that cannot add
    /// to `seen`. The last two cells are taken together, by digit sets.
    fn gather(
        &self,
        allowed: &[u64; CLIQUE_CELLS],
        path: &mut [u64; CLIQUE_CELLS],
        j: usize,
        k: usize,
        seen: &mut [u64; CLIQUE_CELLS],
    ) {
        if j + 2 == k {
            let (p, q) = (allowed[j], allowed[j + 1]);
            let sp = p & self.earlier(q);
            if sp != 0 {
                seen[j] |= sp;
                seen[j + 1] |= q & self.later(sp);
                for (s, &d) in seen[..j].iter_mut().zip(path.iter()) {
                    *s |= d;
                }
            }
            return;
        }
        let here = allowed[j];
        for mut m in [here & !seen[j], here & seen[j]] {
            while m != 0 {
                let a = m.trailing_zeros() as usize;
                m &= m - 1;
                // Nothing new below: the digits so far and every digit left are seen already.
                if seen[j] >> a & 1 == 1
                    && (0..j).all(|i| seen[i] & path[i] != 0)
                    && (j + 1..k).all(|l| allowed[l] & !seen[l] == 0)
                {
                    continue;
                }
                let mut next = *allowed;
                let f = self.forward[a];
                let mut open = true;
                for x in &mut next[j + 1..k] {
                    *x &= f;
                    open &= *x != 0;
                }
                if open {
                    path[j] = 1 << a;
                    self.gather(&next, path, j + 1, k, seen);
                }
            }
        }
    }
}

/// The most cells of a line that keeps residual supports: a supporting word packs a digit a cell
/// in 4 bits, below the word's mark of presence (bit 63).
const RESIDUE_CELLS: usize = 15;

/// The mark of a residual support that is present (a cleared word is none).
const PRESENT: u64 = 1 << 63;

impl LineProp {
    /// The line of graph `g` over `cells`, on a grid of `n` digits; its residual supports from
    /// `*residues` on, which it moves past them.
    fn new(
        cells: &[crate::grid::Cell],
        g: &Layered,
        n: usize,
        residues: &mut usize,
        shortcut: Option<Shortcut>,
    ) -> LineProp {
        let k = g.len();
        let offset: Box<[usize]> = (0..=k + 1)
            .map(|i| (0..i).map(|j| g.nodes(j)).sum())
            .collect();
        let mut first = vec![0u32; offset[k + 1] + 1];
        let mut edges = Vec::with_capacity(g.edge_count());
        for i in 0..k {
            for e in g.edges(i) {
                first[offset[i] + e.from as usize + 1] += 1;
                edges.push(((offset[i + 1] as u32 + e.to) << 6) | u32::from(e.digit));
            }
        }
        for u in 0..offset[k + 1] {
            first[u + 1] += first[u];
        }
        let mut has = vec![0u64; offset[k + 1]];
        let mut single = true;
        for i in 0..k {
            for e in g.edges(i) {
                let bit = 1u64 << e.digit;
                let h = &mut has[offset[i] + e.from as usize];
                single &= *h & bit == 0;
                *h |= bit;
            }
        }
        let simple = (1..cells.len()).all(|i| !cells[..i].contains(&cells[i]));
        let residues = (simple && shortcut.is_none() && k <= RESIDUE_CELLS && n <= 16).then(|| {
            *residues += k * n;
            *residues - k * n
        });
        LineProp {
            cells: cells.iter().map(|c| c.index() as u32).collect(),
            first: first.into(),
            edges: edges.into(),
            offset,
            has: single.then(|| has.into()),
            empty: g.rejects_all(),
            simple,
            residues,
            shortcut,
        }
    }
}

/// The reasoning by digit sets of a sandwich clue over `cells`, when they are a whole row or
/// column (a unit: their digits differ) and the line is not empty.
fn house_sandwich(units: &Units, cells: &[Cell], clue: &Clue) -> Option<Sandwich> {
    let Clue::Sandwich { sum, .. } = clue else {
        return None;
    };
    let n = units.shape().n();
    let shape = units.shape();
    let same = |key: fn(Cell, crate::grid::Shape) -> usize| {
        cells.iter().all(|&c| key(c, shape) == key(cells[0], shape))
    };
    let house = cells.len() == n
        && (1..n).all(|i| !cells[..i].contains(&cells[i]))
        && (same(|c, s| c.row(s)) || same(|c, s| c.col(s)));
    house
        .then(|| Sandwich::new(n, *sum, |d| units.value(d as u16 + 1)))
        .flatten()
}

/// The table of a relation on every pair of `cells` (a [`Clue::Pair`] with `all`, the earlier
/// cell first) on a grid of `n` digits, when they are a few different cells.
fn clique(n: usize, cells: &[Cell], clue: &Clue) -> Option<Clique> {
    let Clue::Pair {
        all: true,
        table,
        cells: own,
    } = clue
    else {
        return None;
    };
    let few = (2..=CLIQUE_CELLS).contains(&cells.len())
        && cells == own.as_slice()
        && (1..cells.len()).all(|i| !cells[..i].contains(&cells[i]));
    let full = if n >= 64 { u64::MAX } else { (1 << n) - 1 };
    let forward: Box<[u64]> = (0..n)
        .map(|a| table.get(a).map_or(0, |row| row & full))
        .collect();
    few.then(|| Clique::new(n, forward))
}

/// The primitives of clues, flattened for the search.
#[derive(Debug, PartialEq, Eq, Default)]
pub(crate) struct ClueRules {
    /// (first cell, second cell, table).
    pairs: Box<[(u32, u32, u32)]>,
    tables: Box<[PairTable]>,
    sums: Box<[SumProp]>,
    lines: Box<[LineProp]>,
    /// The words of the lines' residual supports.
    residue_len: usize,
    /// The 2x2 squares of global entropy or global mod 3, if any.
    squares: Option<Squares>,
    /// The counting circles, if any.
    circles: Option<Circles>,
    /// The cells' peers, for the counts', squares' and circles' pointing; `None` when none is present
    /// or above [`PeerSets::MAX_WORDS`] words a set.
    peers: Option<PeerSets>,
    /// Per cell with one, its candidate set (cell, digits).
    pub candidates: Box<[(u32, u64)]>,
}

/// Every 2x2 square holds a digit of each of three classes (global entropy: 1-3, 4-6, 7-9; global
/// mod 3: 1-4-7, 2-5-8, 3-6-9). A square's cells keep the classes some cover of all three gives
/// them, read from [`COVER`] (what the square's line, an automaton over the classes, would keep:
/// its walk cost many times more, so the search keeps no line for it). Then, as sigh's
/// `LocalEntropy` handler does, a class not yet placed in a square whose open cells can give it
/// by one digit only needs that digit there: every cell that sees all the square's cells able to
/// hold it loses it (a contradiction there is blamed on the square and the cell, for the search's
/// branching weights).
#[derive(Debug, PartialEq, Eq)]
struct Squares {
    /// Global mod 3 rather than global entropy.
    modular: bool,
    /// The three classes' digits.
    classes: [u64; 3],
    /// Per set of digits, the classes (as bits) it has digits of.
    class_bits: Box<[u8; 512]>,
    /// Each square's cells.
    cells: Box<[[u32; 4]]>,
}

/// Per 2x2 square's classes (three bits a cell: the classes its digits fall in; cell i at bit
/// 3i), the classes each cell keeps in a square holding all three (packed alike; 0 when none
/// does): a class of a cell stays if the other three cells can give the other two classes.
static COVER: [u16; 4096] = cover_table();

const fn cover_table() -> [u16; 4096] {
    let mut table = [0u16; 4096];
    let mut key = 0;
    while key < 4096 {
        // Every assignment of classes to the four cells (base 3), kept when each cell may take
        // its class and the three classes are all there.
        let mut assignment = 0;
        while assignment < 81 {
            let (mut rest, mut seen, mut picked, mut fits) = (assignment, 0, 0u16, true);
            let mut i = 0;
            while i < 4 {
                let bit = 3 * i + rest % 3;
                fits &= key >> bit & 1 == 1;
                seen |= 1 << (rest % 3);
                picked |= 1 << bit;
                rest /= 3;
                i += 1;
            }
            if fits && seen == 7 {
                table[key] |= picked;
            }
            assignment += 1;
        }
        key += 1;
    }
    table
}

/// Per grid cell, its peers (the cells sharing a unit or a difference with it) as a bit set over
/// the grid's cells: what the pointing of counts and squares intersects.
#[derive(Debug, PartialEq, Eq)]
struct PeerSets {
    bits: Box<[u64]>,
    /// Words a set.
    words: usize,
}

impl PeerSets {
    /// The most words a set (grids up to 1,024 cells): the pointing's intersection is a buffer on
    /// the stack.
    const MAX_WORDS: usize = 16;

    fn of(units: &Units) -> Option<PeerSets> {
        let cells = units.shape().cells();
        let words = cells.div_ceil(64);
        if words > Self::MAX_WORDS {
            return None;
        }
        let mut bits = vec![0u64; cells * words];
        for i in 0..cells {
            for p in units.peers(Cell::new(i)) {
                set_bit(&mut bits[i * words..(i + 1) * words], p.index());
            }
        }
        Some(PeerSets {
            bits: bits.into(),
            words,
        })
    }

    /// The peers of cell `c`.
    fn of_cell(&self, c: usize) -> &[u64] {
        &self.bits[c * self.words..(c + 1) * self.words]
    }

    /// The cells that see all of `holders` (the cells able to hold some digits), `None` if there
    /// are none.
    fn seen_by_all(&self, holders: impl Iterator<Item = usize>) -> Option<[u64; Self::MAX_WORDS]> {
        let mut seen = [u64::MAX; Self::MAX_WORDS];
        let mut any = false;
        for c in holders {
            any = true;
            for (a, &p) in seen.iter_mut().zip(self.of_cell(c)) {
                *a &= p;
            }
        }
        any.then_some(seen)
    }

    /// Takes `digits` from every open cell of `seen` ([`PeerSets::seen_by_all`] their holders).
    /// On a contradiction, `blame` (if any) and the cell are blamed.
    fn point<M: Mask>(
        &self,
        seen: Option<[u64; Self::MAX_WORDS]>,
        digits: u64,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        blame: Option<&[u32]>,
    ) -> Step<bool> {
        let Some(seen) = seen else {
            return Ok(false);
        };
        let mut changed = false;
        for (j, &word) in seen[..self.words].iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let x = j * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                if x < cand.len() && vals[x] == 0 {
                    match narrow(cand, out, x, !digits) {
                        Ok(c) => changed |= c,
                        Err(e) => {
                            if let Some(cells) = blame {
                                out.blame.extend_from_slice(cells);
                                out.blame.push(x as u32);
                            }
                            return Err(e);
                        }
                    }
                }
            }
        }
        Ok(changed)
    }
}

impl ClueRules {
    /// The primitives of `units` other than the variants' (those `rules.rs` handles), with the
    /// sums `derived` from them (pruned as the clues' own).
    pub(crate) fn build(units: &Units, derived: &[SumRule]) -> ClueRules {
        let n = units.shape().n();
        let value = |d: usize| units.value(d as u16 + 1);
        let mut kinds = Vec::new();
        let mut tables = Vec::new();
        let mut pairs = Vec::new();
        // `NotBoth` relations are digit peers, cleared as a cell is placed (`digit_peers.rs`).
        let clue_pairs = units
            .relations()
            .iter()
            .filter(|r| !r.kind.is_variant() && !DigitPeers::takes(r));
        for r in clue_pairs {
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
        let squares = Squares::of(units);
        let circles = Circles::of(units);
        let mut sums: Vec<SumProp> = units
            .sums()
            .iter()
            .filter(|s| !circles.as_ref().is_some_and(|c| c.counts(s, value)))
            .chain(derived)
            .map(|s| SumProp::new(units, s))
            .collect();
        for k in 1..sums.len() {
            sums[k].same_cells =
                sums[k].cells == sums[k - 1].cells && sums[k].groups == sums[k - 1].groups;
        }
        let sums = sums.into_boxed_slice();
        let peers =
            if squares.is_some() || circles.is_some() || sums.iter().any(|s| s.count.is_some()) {
                PeerSets::of(units)
            } else {
                None
            };
        let mut residue_len = 0;
        // The squares' own lines are left to `Squares`, which prunes as their walks would.
        let own = squares
            .as_ref()
            .filter(|_| peers.is_some())
            .map(|s| (s, crate::clue::square_graph(s.modular)));
        let lines = units
            .lines()
            .iter()
            .filter(|l| {
                !own.as_ref()
                    .is_some_and(|(s, g)| *l.graph == *g && s.holds(&l.cells))
            })
            .map(|l| {
                let shortcut = l.clue.and_then(|i| {
                    let clue = &units.clues()[i];
                    house_sandwich(units, &l.cells, clue)
                        .map(Shortcut::Sandwich)
                        .or_else(|| clique(n, &l.cells, clue).map(Shortcut::Clique))
                });
                LineProp::new(&l.cells, &l.graph, n, &mut residue_len, shortcut)
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
            residue_len,
            squares,
            circles,
            peers,
            candidates,
        }
    }

    /// Whether there is nothing here.
    pub(crate) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
            && self.sums.is_empty()
            && self.lines.is_empty()
            && self.squares.is_none()
            && self.circles.is_none()
            && self.candidates.is_empty()
    }

    /// The number of sums and lines, each with a signature in [`Narrowed::seen`] (after the
    /// cages' and derived sums' signatures, from `base`).
    pub(crate) fn constraints(&self) -> usize {
        self.sums.len() + self.lines.len()
    }

    /// The words of [`Narrowed::seen`] the lines keep their residual supports in.
    pub(crate) fn residue_len(&self) -> usize {
        self.residue_len
    }

    /// One pass over the pairs, sums and lines; signatures from `out.seen[base..]`, the lines'
    /// residual supports from `out.seen[residues..]` ([`ClueRules::residue_len`] words; none kept
    /// when `out.seen` is shorter).
    pub(crate) fn prune<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        base: usize,
        residues: usize,
    ) -> Step<bool> {
        let mut changed = false;
        for &(a, b, t) in self.pairs.iter() {
            let table = &self.tables[t as usize];
            match pair(table, a as usize, b as usize, cand, vals, out) {
                Ok(c) => changed |= c,
                Err(e) => {
                    out.blame.extend_from_slice(&[a, b]);
                    return Err(e);
                }
            }
        }
        let cached = out.seen.len() >= base + self.constraints();
        let slot = |k: usize| cached.then_some(base + k);
        // The signature of the last sum's inputs, while nothing has changed since it was taken;
        // the last binary sum's reading of its groups, while valid.
        let mut last = None;
        let mut scan = Scan::default();
        for (k, sum) in self.sums.iter().enumerate() {
            let cells = &sum.cells;
            let sig = match last {
                Some(sig) if sum.same_cells => sig,
                _ => {
                    scan.valid = false;
                    slot(k).and_then(|_| signature(cells.iter(), cells, cand, vals, false))
                }
            };
            let c = prune_signed(
                slot(k),
                sig,
                cells.iter(),
                cells,
                cand,
                vals,
                out,
                false,
                |c, o| sum.prune(n, c, vals, o, self.peers.as_ref(), &mut scan),
            )?;
            last = (!c).then_some(sig);
            changed |= c;
        }
        let first_line = self.sums.len();
        let kept = out.seen.len() >= residues + self.residue_len;
        for (k, line) in self.lines.iter().enumerate() {
            let residues = line.residues.filter(|_| kept).map(|r| residues + r);
            let cells = &line.cells;
            changed |= prune_unless_seen(
                slot(first_line + k),
                cells.iter(),
                cells,
                cand,
                vals,
                out,
                line.simple && !matches!(line.shortcut, Some(Shortcut::Sandwich(_))),
                |c, o| match &line.shortcut {
                    Some(Shortcut::Sandwich(s)) => s.prune(cells, c, vals, o),
                    Some(Shortcut::Clique(q)) => line.prune_clique(q, c, vals, o),
                    None => line.prune(n, c, vals, o, residues),
                },
            )?;
        }
        if let (Some(squares), Some(peers)) = (&self.squares, &self.peers) {
            changed |= squares.prune(peers, cand, vals, out)?;
        }
        if let (Some(circles), Some(peers)) = (&self.circles, &self.peers) {
            changed |= circles.prune(peers, cand, vals, out)?;
        }
        Ok(changed)
    }
}

impl Squares {
    /// The squares of the first global entropy or global mod 3 clue of `units` (on 1-9 only, as
    /// the clue's lowering demands).
    fn of(units: &Units) -> Option<Squares> {
        let modular = units.clues().iter().find_map(|c| match c {
            crate::clue::Clue::Global2x2 { modular } => Some(*modular),
            _ => None,
        })?;
        let shape = units.shape();
        if shape.n() != 9 || units.base() != 1 {
            return None;
        }
        let classes = if modular {
            [0o111, 0o222, 0o444]
        } else {
            [0o7, 0o70, 0o700]
        };
        let (rows, cols) = (shape.rows(), shape.cols());
        let mut cells = Vec::new();
        for r in 0..rows.saturating_sub(1) {
            for c in 0..cols.saturating_sub(1) {
                let at = |r, c| Cell::at(shape, r, c).index() as u32;
                cells.push([at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)]);
            }
        }
        let class_bits = (0..512u64)
            .map(|dom| {
                (0..3)
                    .filter(|&x| dom & classes[x] != 0)
                    .fold(0, |b, x| b | 1 << x)
            })
            .collect::<Vec<u8>>()
            .try_into()
            .expect("512 sets");
        Some(Squares {
            modular,
            classes,
            class_bits: Box::new(class_bits),
            cells: cells.into(),
        })
    }

    /// Whether `cells` are one of the squares, in its order.
    fn holds(&self, cells: &[Cell]) -> bool {
        let Ok(cells) = <[Cell; 4]>::try_from(cells) else {
            return false;
        };
        let at = cells.map(|c| c.index() as u32);
        self.cells.contains(&at)
    }

    /// One pass over the squares (see [`Squares`]).
    fn prune<M: Mask>(
        &self,
        peers: &PeerSets,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let mut changed = false;
        for square in self.cells.iter() {
            // The classes of each cell's digits, and the digits placed and open.
            let (mut key, mut placed, mut open) = (0, 0u64, 0u64);
            for (i, &c) in square.iter().enumerate() {
                let dom = match vals[c as usize] {
                    0 => {
                        let m = cand[c as usize].low_bits();
                        open |= m;
                        m
                    }
                    v => {
                        placed |= 1 << (v - 1);
                        1 << (v - 1)
                    }
                };
                key |= usize::from(self.class_bits[(dom & 511) as usize]) << (3 * i);
            }
            let cover = usize::from(COVER[key]);
            if cover != key {
                for (i, &c) in square.iter().enumerate() {
                    let kept = cover >> (3 * i) & 7;
                    if kept == key >> (3 * i) & 7 {
                        continue;
                    }
                    let keep = (0..3)
                        .filter(|x| kept >> x & 1 == 1)
                        .fold(0, |m, x| m | self.classes[x]);
                    match keep_only(cand, vals, out, c as usize, keep) {
                        Ok(c) => changed |= c,
                        Err(e) => {
                            out.blame.extend_from_slice(square);
                            return Err(e);
                        }
                    }
                }
                open = square
                    .iter()
                    .filter(|&&c| vals[c as usize] == 0)
                    .fold(0, |m, &c| m | cand[c as usize].low_bits());
            }
            for &class in &self.classes {
                let left = open & class;
                if placed & class != 0 || left.count_ones() != 1 {
                    continue;
                }
                let holders = square
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| vals[c] == 0 && cand[c].low_bits() & left != 0);
                let seen = peers.seen_by_all(holders);
                changed |= peers.point(seen, left, cand, vals, out, Some(square))?;
            }
        }
        Ok(changed)
    }
}

/// Counting circles: a digit in a circle is the number of circles holding it. So the digits the
/// circles hold are distinct values adding up to the number of circles, each in exactly as many
/// circles as its value. Besides the per-digit counts (sums with totals 0 or the value), as sigh's
/// `CountingCircles` handler does: the sets of digits that add up to the number of circles, kept
/// when they hold every digit already placed in a circle and only digits each able to fill enough
/// circles (one a group of circles that must differ); the circles keep the digits of such sets,
/// and a digit in all of them must fill exactly its value of circles: with as many cells left for
/// it, it goes in each; with as many groups left, one in each group (placed when the group has
/// one cell for it, else taken from the cells that see all the group's cells for it).
#[derive(Debug, PartialEq, Eq)]
struct Circles {
    /// The circles, group after group (each group's cells must differ).
    cells: Box<[u32]>,
    /// Per group, its range of `cells`.
    groups: Box<[(u32, u32)]>,
    /// Per digit (0-based), its value (how many circles hold it); 0 for digits no circle can hold.
    values: Box<[u32]>,
    /// The sets of digits whose values add up to the number of circles.
    combos: Box<[u64]>,
}

impl Circles {
    /// The most sets of digits listed; beyond, the circles keep only their counts.
    const MAX_COMBOS: usize = 4096;

    /// The circles of the first counting circles clue of `units` (on grids of at most 16 digits,
    /// with at most [`Circles::MAX_COMBOS`] sets of digits).
    fn of(units: &Units) -> Option<Circles> {
        let circles = units.clues().iter().find_map(|c| match c {
            crate::clue::Clue::CountingCircles { cells } => Some(cells),
            _ => None,
        })?;
        let n = units.shape().n();
        let once = (1..circles.len()).all(|i| !circles[..i].contains(&circles[i]));
        if n > 16 || circles.is_empty() || !once {
            return None;
        }
        let k = circles.len() as i32;
        let values: Box<[u32]> = (0..n)
            .map(|d| {
                let v = units.value(d as u16 + 1);
                if (1..=k).contains(&v) { v as u32 } else { 0 }
            })
            .collect();
        let mut combos = Vec::new();
        for set in 1u64..1 << n {
            let mut sum = 0u32;
            let mut m = set;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                if values[d] == 0 {
                    sum = u32::MAX;
                    break;
                }
                sum += values[d];
            }
            if sum == k as u32 {
                combos.push(set);
                if combos.len() > Self::MAX_COMBOS {
                    return None;
                }
            }
        }
        // The groups: the per-digit count's grouping (cells of one unit, then cells that differ).
        let count = SumRule {
            cells: circles.clone(),
            weights: vec![vec![1; n]; circles.len()],
            totals: vec![0],
        };
        let mut cells = Vec::new();
        let mut groups = Vec::new();
        for (g, _) in units.sum_groups(&count) {
            groups.push((cells.len() as u32, (cells.len() + g.len()) as u32));
            cells.extend(g.iter().map(|c| c.index() as u32));
        }
        Some(Circles {
            cells: cells.into(),
            groups: groups.into(),
            values,
            combos: combos.into(),
        })
    }

    /// Whether `sum` is one of the circles' own counts as the clue's lowering makes them (over
    /// every circle, the cells holding the digit of value v number 0 or v), which this reasoning
    /// covers: the search leaves those sums to it. Recognised by shape, not origin: such a sum is
    /// implied by the circles' rule whichever clue made it. `value` gives a 0-based digit's value.
    fn counts(&self, sum: &SumRule, value: impl Fn(usize) -> i32) -> bool {
        let Some(first) = sum.weights.first() else {
            return false;
        };
        let mut digits = first.iter().enumerate().filter(|&(_, &w)| w != 0);
        let (Some((d, 1)), None) = (digits.next().map(|(d, &w)| (d, w)), digits.next()) else {
            return false;
        };
        let v = value(d);
        let totals: &[i32] = if v == 0 { &[0] } else { &[0, v] };
        sum.totals == totals
            && sum.cells.len() == self.cells.len()
            && sum.weights.iter().all(|w| w == first)
            && sum
                .cells
                .iter()
                .all(|c| self.cells.contains(&(c.index() as u32)))
    }

    /// One pass over the circles (see [`Circles`]); a contradiction is blamed on the circles.
    fn prune<M: Mask>(
        &self,
        peers: &PeerSets,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let r = self.prune_unblamed(peers, cand, vals, out);
        if r.is_err() {
            out.blame.extend_from_slice(&self.cells);
        }
        r
    }

    fn prune_unblamed<M: Mask>(
        &self,
        peers: &PeerSets,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let n = self.values.len();
        // Per digit: the groups able to hold it, the circles holding it alone.
        let mut groups_with = [0u32; 16];
        let mut fixed_count = [0u32; 16];
        let (mut all, mut fixed) = (0u64, 0u64);
        for &(a, b) in self.groups.iter() {
            let mut union = 0u64;
            for &c in &self.cells[a as usize..b as usize] {
                let dom = domain(cand, vals, c as usize);
                union |= dom;
                if dom.is_power_of_two() {
                    fixed |= dom;
                    fixed_count[dom.trailing_zeros() as usize] += 1;
                }
            }
            all |= union;
            let mut m = union;
            while m != 0 {
                groups_with[m.trailing_zeros() as usize] += 1;
                m &= m - 1;
            }
        }
        let mut possible = 0u64;
        for d in 0..n {
            let v = self.values[d];
            if v > 0 && groups_with[d] >= v && fixed_count[d] <= v {
                possible |= 1 << d;
            }
        }
        let (mut allowed, mut required) = (0u64, u64::MAX);
        for &c in self.combos.iter() {
            if fixed & !c == 0 && c & !possible == 0 {
                allowed |= c;
                required &= c;
            }
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        let mut changed = false;
        if allowed != all {
            for &c in self.cells.iter() {
                changed |= keep_only(cand, vals, out, c as usize, allowed)?;
            }
        }
        // Each required digit fills exactly its value of circles.
        let mut req = required & allowed;
        while req != 0 {
            let d = req.trailing_zeros() as usize;
            req &= req - 1;
            let bit = 1u64 << d;
            // Counted again: the narrowing above may have left circles with the digit alone.
            let alone = self
                .cells
                .iter()
                .filter(|&&c| domain(cand, vals, c as usize) == bit)
                .count() as u32;
            let Some(needed) = self.values[d].checked_sub(alone) else {
                return Err(Contradiction);
            };
            let open = |cand: &[M], c: u32| {
                vals[c as usize] == 0 && {
                    let m = cand[c as usize].low_bits();
                    m & bit != 0 && m != bit
                }
            };
            let holders = self.cells.iter().filter(|&&c| open(cand, c)).count() as u32;
            if holders < needed {
                return Err(Contradiction);
            }
            if needed == 0 {
                // Its count reached: the count's sum takes it from the other circles.
                continue;
            }
            if holders == needed {
                for &c in self.cells.iter() {
                    if open(cand, c) {
                        changed |= narrow(cand, out, c as usize, bit)?;
                    }
                }
                continue;
            }
            // The groups still open to the digit (none of their circles holding it alone).
            let free = |cand: &[M], g: &(u32, u32)| {
                let cells = &self.cells[g.0 as usize..g.1 as usize];
                let alone = cells.iter().any(|&c| domain(cand, vals, c as usize) == bit);
                !alone && cells.iter().any(|&c| open(cand, c))
            };
            let groups = self.groups.iter().filter(|g| free(cand, g)).count() as u32;
            if groups != needed {
                continue;
            }
            for g in self.groups.iter() {
                if !free(cand, g) {
                    continue;
                }
                let cells = &self.cells[g.0 as usize..g.1 as usize];
                let mut holders = cells.iter().filter(|&&c| open(cand, c));
                let first = holders.next().copied();
                match (first, holders.next()) {
                    (Some(c), None) => changed |= narrow(cand, out, c as usize, bit)?,
                    _ => {
                        let seen = peers.seen_by_all(
                            cells
                                .iter()
                                .filter(|&&c| open(cand, c))
                                .map(|&c| c as usize),
                        );
                        changed |= peers.point(seen, bit, cand, vals, out, None)?;
                    }
                }
            }
        }
        Ok(changed)
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
#[inline]
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
#[allow(clippy::needless_range_loop)] // two arrays indexed at an offset
#[inline]
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
    /// The search's reading of `s`: cells grouped greedily (each joins the first group whose cells
    /// all differ from it and weigh alike), weights made non-negative.
    fn new(units: &Units, s: &SumRule) -> SumProp {
        let groups = units.sum_groups(s);
        let mut cells = Vec::new();
        let mut ranges = Vec::new();
        let mut weights = Vec::new();
        let mut floors = Vec::new();
        let mut order = Vec::new();
        let (mut base, mut span, mut table_words) = (0i64, 0u64, 1usize);
        for (g, w) in &groups {
            let low = w.iter().copied().min().unwrap_or(0);
            let shifted: Box<[u32]> = w.iter().map(|&x| (x - low) as u32).collect();
            // The group's sums range from its size's smallest weights to its largest (each a
            // different digit's); with fewer digits than cells, no sum at all.
            let mut by_weight: Vec<u8> = (0..shifted.len().min(64) as u8).collect();
            by_weight.sort_by_key(|&d| shifted[d as usize]);
            let sorted = by_weight.iter().map(|&d| u64::from(shifted[d as usize]));
            let k = g.len().min(by_weight.len());
            let floor: u64 = sorted.clone().take(k).sum();
            let top: u64 = sorted.clone().rev().take(k).sum();
            let heaviest = sorted.clone().next_back().unwrap_or(0);
            span += top - floor;
            base += g.len() as i64 * i64::from(low) + floor as i64;
            floors.push(floor as u32);
            order.push(by_weight.into_boxed_slice());
            table_words = table_words.max((g.len() as u64 * heaviest + 1).div_ceil(64) as usize);
            ranges.push((cells.len() as u32, (cells.len() + g.len()) as u32));
            cells.extend(g.iter().map(|c| c.index() as u32));
            weights.push(shifted);
        }
        let words = ((span + 1).div_ceil(64) as usize).max(1);
        let mut totals = vec![0u64; words];
        for &t in &s.totals {
            let bit = i64::from(t) - base;
            if (0..(words * 64) as i64).contains(&bit) {
                totals[bit as usize / 64] |= 1 << (bit % 64);
            }
        }
        let ones: u32 = totals.iter().map(|x| x.count_ones()).sum();
        let single = (ones == 1).then(|| {
            let i = totals.iter().position(|&x| x != 0).unwrap_or(0);
            (i * 64) as u64 + u64::from(totals[i].trailing_zeros())
        });
        let count = Count::of(s, &cells);
        let binary = weights
            .iter()
            .all(|w| w.len() <= 64 && w.iter().all(|&x| x <= 1))
            .then(|| {
                weights
                    .iter()
                    .map(|w| {
                        w.iter()
                            .enumerate()
                            .fold(0u64, |m, (d, &x)| m | u64::from(x) << d)
                    })
                    .collect()
            });
        SumProp {
            cells: cells.into(),
            groups: ranges.into(),
            weights: weights.into(),
            floors: floors.into(),
            order: order.into(),
            totals: totals.into(),
            words,
            table_words,
            single,
            count,
            binary,
            same_cells: false,
        }
    }

    /// Keeps each digit of a group's open cells that some choice of different digits for the
    /// group's other open cells (from their candidates' union) and of sums of the other groups
    /// completes to an allowed total.
    fn prune<M: Mask>(
        &self,
        _n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        peers: Option<&PeerSets>,
        scan: &mut Scan,
    ) -> Step<bool> {
        if let Some(ones) = &self.binary {
            return self.prune_binary(ones, cand, vals, out, peers, scan);
        }
        if let Some(t) = self.single {
            // Cheap bounds first: a total out of them fails; far enough inside them, no digit
            // of any cell can be out of reach, and the exact pass below is skipped.
            if let Some((lo, hi, widest)) = self.bounds(cand, vals) {
                if t < lo || t > hi {
                    return Err(Contradiction);
                }
                if t - lo >= widest && hi - t >= widest {
                    return Ok(false);
                }
            }
        }
        let w = self.words;
        let ng = self.groups.len();
        // The buffer is taken out of `out` for the pass (and left empty if it fails). Layout:
        // per group its sums (ng), prefix sums (ng + 1), suffix sums (ng + 1), then working room.
        let mut buffer = std::mem::take(out.scratch);
        buffer.clear();
        let largest = self
            .groups
            .iter()
            .map(|&(a, b)| (b - a) as usize)
            .max()
            .unwrap_or(0);
        // Working room: two sets, one more per digit tried, and the k + 1 sets of a subset sum.
        buffer.resize(
            (3 * ng + 2) * w + (largest + 5) * w.max(self.table_words),
            0,
        );
        let (sums, rest) = buffer.split_at_mut(ng * w);
        let (prefix, rest) = rest.split_at_mut((ng + 1) * w);
        let (suffix, work) = rest.split_at_mut((ng + 1) * w);
        // Per group: placed digits, the union of the open cells' candidates, open cells.
        // (On the stack for up to 16 groups: this runs at every node.)
        let mut on_stack = [(0u64, 0u64, 0usize, 0usize); 16];
        let mut on_heap = Vec::new();
        let info: &mut [(u64, u64, usize, usize)] = if ng <= on_stack.len() {
            &mut on_stack[..ng]
        } else {
            on_heap.resize(ng, (0, 0, 0, 0));
            &mut on_heap
        };
        for (g, &(from, to)) in self.groups.iter().enumerate() {
            let (placed, union, open) =
                read_group(&self.cells[from as usize..to as usize], cand, vals)?;
            let open = open as usize;
            let mut fixed = 0usize;
            let mut m = placed;
            while m != 0 {
                fixed += self.weights[g][m.trailing_zeros() as usize] as usize;
                m &= m - 1;
            }
            let union = union & !placed;
            if (union.count_ones() as usize) < open {
                return Err(Contradiction);
            }
            let dst = &mut sums[g * w..(g + 1) * w];
            let shift = fixed as isize - self.floors[g] as isize;
            subset_sums(union, open, &self.weights[g], shift, dst, work);
            info[g] = (placed, union, open, fixed);
        }
        prefix[0] = 1;
        for g in 0..ng {
            let (done, next) = prefix.split_at_mut((g + 1) * w);
            sumset(&done[g * w..], &sums[g * w..(g + 1) * w], &mut next[..w]);
        }
        suffix[ng * w] = 1;
        for g in (0..ng).rev() {
            let (next, done) = suffix.split_at_mut((g + 1) * w);
            sumset(&done[..w], &sums[g * w..(g + 1) * w], &mut next[g * w..]);
        }
        if !meets_shifted(&prefix[ng * w..], &self.totals, 0) {
            return Err(Contradiction);
        }
        let mut changed = false;
        let (other, work) = work.split_at_mut(w);
        let (need, work) = work.split_at_mut(w);
        for (g, &(from, to)) in self.groups.iter().enumerate() {
            let (_, union, open, fixed) = info[g];
            if open == 0 {
                continue;
            }
            // The other groups' sums, and the sums this group may take for a total to be reached.
            other.iter_mut().for_each(|x| *x = 0);
            sumset(
                &prefix[g * w..(g + 1) * w],
                &suffix[(g + 1) * w..(g + 2) * w],
                other,
            );
            need.iter_mut().for_each(|x| *x = 0);
            let mut r = 0usize;
            while let Some(bit) = next_bit(other, r) {
                or_shifted_right(need, &self.totals, bit);
                r = bit + 1;
            }
            let weights = &self.weights[g];
            let floor = self.floors[g] as isize;
            let mut keep = 0u64;
            let mut m = union;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let at = (fixed + weights[d] as usize) as isize - floor;
                let fits = if open == 1 {
                    // The group's one open cell: its digit's weight must be a sum it may take.
                    usize::try_from(at).is_ok_and(|at| has_bit(need, at))
                } else {
                    let (with, work) = work.split_at_mut(w);
                    subset_sums(union & !(1 << d), open - 1, weights, at, with, work);
                    meets_shifted(need, with, 0)
                };
                if fits {
                    keep |= 1 << d;
                }
            }
            for &c in &self.cells[from as usize..to as usize] {
                if vals[c as usize] == 0 {
                    changed |= narrow(cand, out, c as usize, keep)?;
                }
            }
        }
        *out.scratch = buffer;
        if let (Some(count), Some(peers)) = (&self.count, peers) {
            changed |= count.prune(peers, &self.cells, cand, vals, out)?;
        }
        Ok(changed)
    }
}

/// One group of a sum's cells as it stands: the digits placed in it, the union of its open cells'
/// candidates (placed digits not taken out) and how many cells are open.
///
/// # Errors
/// When two of its cells hold the same digit.
#[inline]
fn read_group<M: Mask>(cells: &[u32], cand: &[M], vals: &[u16]) -> Step<(u64, u64, u64)> {
    let (mut placed, mut union, mut open) = (0u64, 0u64, 0u64);
    for &c in cells {
        match vals[c as usize] {
            0 => {
                union |= cand[c as usize].low_bits();
                open += 1;
            }
            v => {
                let bit = 1u64 << (v - 1);
                if placed & bit != 0 {
                    return Err(Contradiction);
                }
                placed |= bit;
            }
        }
    }
    Ok((placed, union, open))
}

/// What one pass over a binary sum's groups read, per group (placed digits, the open cells'
/// digits, open cells): the same for the next sum over the same cells and groups while nothing
/// changes (same values' counts, one sum a digit), which then reads it instead of the cells.
#[derive(Default)]
struct Scan {
    groups: [(u64, u64, u64); Scan::GROUPS],
    /// Whether `groups` holds the reading of the sum about to be pruned: set by a reading, let go
    /// by [`ClueRules::prune`] before a sum over other cells or after a change.
    valid: bool,
}

impl Scan {
    /// Groups kept (a sum of more is scanned each time).
    const GROUPS: usize = 16;
}

impl SumProp {
    /// [`SumProp::prune`] for a sum whose weights are all 0 or 1 (`ones`: per group, the digits
    /// weighing 1). A group of k open cells whose candidates' union holds z digits of weight 0 and
    /// o of weight 1 sums to every count from max(0, k − z) to min(k, o) (different digits: any
    /// number of the heavy ones in that range), so the sums of groups are intervals and so is
    /// their total: the exact pass's subset sums come down to interval arithmetic, and keep the
    /// same digits (a test compares them).
    fn prune_binary<M: Mask>(
        &self,
        ones: &[u64],
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        peers: Option<&PeerSets>,
        scan: &mut Scan,
    ) -> Step<bool> {
        // Per group: its open cells' union of digits (less those placed), open cells, the sum
        // of its placed cells, and its least and most sums.
        let ng = self.groups.len();
        let keep_scan = ng <= Scan::GROUPS;
        let scanned = scan.valid && keep_scan;
        let mut on_stack = [(0u64, 0u64, 0u64, 0u64, 0u64); 16];
        let mut on_heap = Vec::new();
        let info: &mut [(u64, u64, u64, u64, u64)] = if ng <= on_stack.len() {
            &mut on_stack[..ng]
        } else {
            on_heap.resize(ng, (0, 0, 0, 0, 0));
            &mut on_heap
        };
        let (mut lo, mut hi, mut stray) = (0u64, 0u64, false);
        for (g, &(from, to)) in self.groups.iter().enumerate() {
            let (placed, union, open) = if scanned {
                scan.groups[g]
            } else {
                let (placed, union, open) =
                    read_group(&self.cells[from as usize..to as usize], cand, vals)?;
                if keep_scan {
                    scan.groups[g] = (placed, union, open);
                }
                (placed, union, open)
            };
            // An open cell may still hold a digit placed in its group: narrowed away below.
            stray |= union & placed != 0;
            let union = union & !placed;
            let fixed = u64::from((placed & ones[g]).count_ones());
            let size = u64::from(union.count_ones());
            if size < open {
                return Err(Contradiction);
            }
            let heavy = u64::from((union & ones[g]).count_ones());
            let (least, most) = (
                fixed + open.saturating_sub(size - heavy),
                fixed + open.min(heavy),
            );
            lo += least;
            hi += most;
            info[g] = (union, open, fixed, least, most);
        }
        let floors: u64 = self.floors.iter().map(|&f| u64::from(f)).sum();
        // Whether an allowed total lies in [a, b] (in the sum's units before its floors).
        let reaches = |a: u64, b: u64| {
            let (a, b) = (a.saturating_sub(floors), b.checked_sub(floors));
            b.is_some_and(|b| next_bit(&self.totals, a as usize).is_some_and(|t| t as u64 <= b))
        };
        // Read as the cells are now: the next sum over them takes it while nothing changes
        // (`ClueRules::prune` lets it go otherwise).
        scan.valid = keep_scan;
        if !reaches(lo, hi) {
            return Err(Contradiction);
        }
        // One digit of one group moves the total's least or most by one at most: strictly
        // inside them, the one total stays reachable whatever a cell holds.
        if let Some(t) = self.single
            && !stray
            && lo.saturating_sub(floors) < t
            && t < hi.saturating_sub(floors)
        {
            return Ok(false);
        }
        let mut changed = false;
        for (g, &(from, to)) in self.groups.iter().enumerate() {
            let (union, open, fixed, least, most) = info[g];
            if open == 0 {
                continue;
            }
            let heavy = u64::from((union & ones[g]).count_ones());
            let light = u64::from(union.count_ones()) - heavy;
            let (others_lo, others_hi) = (lo - least, hi - most);
            let mut keep = 0u64;
            // One open cell takes a digit of weight w; the others k − 1 of the rest.
            for (w, digits) in [(0u64, union & !ones[g]), (1, union & ones[g])] {
                if digits == 0 {
                    continue;
                }
                let (z, o) = (light - (1 - w), heavy - w);
                let a = fixed + w + (open - 1).saturating_sub(z);
                let b = fixed + w + (open - 1).min(o);
                if reaches(others_lo + a, others_hi + b) {
                    keep |= digits;
                }
            }
            for &c in &self.cells[from as usize..to as usize] {
                if vals[c as usize] == 0 {
                    changed |= narrow(cand, out, c as usize, keep)?;
                }
            }
        }
        if let (Some(count), Some(peers)) = (&self.count, peers) {
            changed |= count.prune(peers, &self.cells, cand, vals, out)?;
        }
        Ok(changed)
    }
}

impl Count {
    /// The count `s` is, when it is one: every cell weighs 1 for one digit and 0 for the others,
    /// the smallest total at least 1; `cells`: the sum's cells as [`SumProp`] orders them.
    fn of(s: &SumRule, cells: &[u32]) -> Option<Count> {
        let total = usize::try_from(*s.totals.iter().min()?)
            .ok()
            .filter(|&t| t >= 1)?;
        let first = s.weights.first()?;
        let digit = first.iter().position(|&w| w == 1)?;
        let counts = first
            .iter()
            .enumerate()
            .all(|(d, &w)| w == i32::from(d == digit));
        let once = (1..cells.len()).all(|i| !cells[..i].contains(&cells[i]));
        if !counts || !once || s.weights.iter().any(|w| w != first) || total > s.cells.len() {
            return None;
        }
        Some(Count { digit, total })
    }

    /// While the digit is missing from some of `cells`: every cell that sees all the open cells
    /// still able to hold it loses it; when two or more are missing, so does each of those cells
    /// that sees all the others.
    fn prune<M: Mask>(
        &self,
        peers: &PeerSets,
        cells: &[u32],
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let bit = 1u64 << self.digit;
        let placed = cells
            .iter()
            .filter(|&&c| u64::from(vals[c as usize]) == self.digit as u64 + 1)
            .count();
        if placed >= self.total {
            return Ok(false);
        }
        let holding = |cand: &[M], c: usize| vals[c] == 0 && cand[c].low_bits() & bit != 0;
        let holders = cells
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| holding(cand, c));
        let seen = peers.seen_by_all(holders);
        let mut changed = peers.point(seen, bit, cand, vals, out, None)?;
        if self.total - placed >= 2 {
            for &c in cells {
                let c = c as usize;
                if !holding(cand, c) {
                    continue;
                }
                let seen = peers.of_cell(c);
                let alone = cells.iter().all(|&o| {
                    let o = o as usize;
                    o == c || !holding(cand, o) || has_bit(seen, o)
                });
                if alone {
                    changed |= narrow(cand, out, c, !bit)?;
                }
            }
        }
        Ok(changed)
    }
}

impl SumProp {
    /// Bounds of the sum: per group, its placed digits' weights and the smallest (largest) weights
    /// of as many different digits of its open cells' candidates as it has open cells; and the
    /// widest span of weights in one group's candidates. When the one total is at least that span
    /// inside both bounds, every candidate is taken to go with some choice of the other cells, and
    /// the exact pass is skipped (the bounds reasoning of sums: sigh's sum handler skips its pass
    /// when each side's slack covers a cell's range). `None`: a group has too few digits left, or
    /// an open cell a digit placed in its group (the exact pass settles both).
    fn bounds<M: Mask>(&self, cand: &[M], vals: &[u16]) -> Option<(u64, u64, u64)> {
        let (mut lo, mut hi, mut widest) = (0u64, 0u64, 0u64);
        for (g, &(from, to)) in self.groups.iter().enumerate() {
            let weights = &self.weights[g];
            let weight = |d: usize| u64::from(weights.get(d).copied().unwrap_or(0));
            let (mut placed, mut union, mut open) = (0u64, 0u64, 0usize);
            for &c in &self.cells[from as usize..to as usize] {
                match vals[c as usize] {
                    0 => {
                        union |= cand[c as usize].low_bits();
                        open += 1;
                    }
                    v => {
                        placed |= 1 << (v - 1);
                        lo += weight(v as usize - 1);
                        hi += weight(v as usize - 1);
                    }
                }
            }
            if open == 0 {
                continue;
            }
            if union & placed != 0 {
                // An open cell may still hold a placed digit of its group: the exact pass
                // removes it.
                return None;
            }
            if (union.count_ones() as usize) < open {
                return None;
            }
            // The group's digits lightest first: the first `open` of the union weigh least, the
            // last `open` most.
            let open_weights = self.order[g]
                .iter()
                .filter(|&&d| union >> d & 1 != 0)
                .map(|&d| weight(d as usize));
            let (least, light) = first_and_sum(open_weights.clone(), open);
            let (most, heavy) = first_and_sum(open_weights.rev(), open);
            lo += light;
            hi += heavy;
            widest = widest.max(most - least);
        }
        // In the units of `single`: less the groups' floors (no group weighs less than its own).
        let floors: u64 = self.floors.iter().map(|&f| u64::from(f)).sum();
        Some((lo.saturating_sub(floors), hi.saturating_sub(floors), widest))
    }
}

/// The first of `weights` and the sum of the first `n` (0 and 0 for none).
#[inline]
fn first_and_sum(mut weights: impl Iterator<Item = u64>, n: usize) -> (u64, u64) {
    let first = weights.next().unwrap_or(0);
    (
        first,
        first + weights.take(n.saturating_sub(1)).sum::<u64>(),
    )
}

/// The sums of `k` different digits of `digits` (each d weighing `weights[d]`), plus `shift`, into
/// `dst` (cleared first; sums below 0 or past its end are left out); `work` holds k + 1 bit sets of
/// `dst.len()` words.
fn subset_sums(
    digits: u64,
    k: usize,
    weights: &[u32],
    shift: isize,
    dst: &mut [u64],
    work: &mut [u64],
) {
    let w = dst.len();
    dst.iter_mut().for_each(|x| *x = 0);
    let weight = |d: usize| weights.get(d).copied().unwrap_or(0) as usize;
    if k <= 1 {
        // No digit, or one: the shift, or each digit's weight past it (no table to build).
        if k == 0 {
            set_at(dst, shift);
        }
        let mut m = if k == 0 { 0 } else { digits };
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            set_at(dst, shift + weight(d) as isize);
        }
        return;
    }
    // The sums before the shift reach the k largest weights: at most k times the largest.
    let largest = {
        let mut m = digits;
        let mut top = 0;
        while m != 0 {
            top = top.max(weight(m.trailing_zeros() as usize));
            m &= m - 1;
        }
        top
    };
    if w == 1 && k < 16 && k * largest < 64 {
        // One word: the table on the stack, shifts of whole words.
        let mut b = [0u64; 16];
        b[0] = 1;
        let (mut m, mut seen) = (digits, 0usize);
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            seen += 1;
            let by = weight(d);
            for j in (1..=k.min(seen)).rev() {
                b[j] |= b[j - 1] << by;
            }
        }
        dst[0] = match shift {
            0..64 => b[k] << shift,
            -63..0 => b[k] >> -shift,
            _ => 0,
        };
        return;
    }
    // The table's sets reach the largest sum before the shift.
    let tw = (k * largest + 1).div_ceil(64);
    if work.len() < (k + 1) * tw {
        // No room (never: the caller sizes it for its largest group): every sum, no pruning.
        dst.iter_mut().for_each(|x| *x = u64::MAX);
        return;
    }
    let b = &mut work[..(k + 1) * tw];
    b.iter_mut().for_each(|x| *x = 0);
    b[0] = 1;
    let mut m = digits;
    let mut seen = 0;
    while m != 0 {
        let d = m.trailing_zeros() as usize;
        m &= m - 1;
        seen += 1;
        let by = weight(d);
        for j in (1..=k.min(seen)).rev() {
            let (lower, upper) = b.split_at_mut(j * tw);
            or_shifted(&mut upper[..tw], &lower[(j - 1) * tw..], by);
        }
    }
    let mut r = 0;
    let sums = &b[k * tw..];
    while let Some(bit) = next_bit(sums, r) {
        set_at(dst, bit as isize + shift);
        r = bit + 1;
    }
}

/// Sets bit `i` of `set` if it is one (not below 0 or past the end).
#[inline]
fn set_at(set: &mut [u64], i: isize) {
    if let Ok(i) = usize::try_from(i) {
        set_bit(set, i);
    }
}

/// Sets bit `i` of `set` (a bit beyond it is a sum out of range: left out).
#[inline]
fn set_bit(set: &mut [u64], i: usize) {
    if let Some(word) = set.get_mut(i / 64) {
        *word |= 1 << (i % 64);
    }
}

/// Whether bit `i` of `set` is set.
#[inline]
fn has_bit(set: &[u64], i: usize) -> bool {
    set.get(i / 64)
        .is_some_and(|word| word >> (i % 64) & 1 != 0)
}

/// `dst = a ⊕ b`: every sum of an element of `a` and one of `b` (dst cleared first).
fn sumset(a: &[u64], b: &[u64], dst: &mut [u64]) {
    if let ([a], [b], [dst]) = (a, b, &mut *dst) {
        // One word (sums below 64: most clues on 9x9).
        let (mut acc, mut m) = (0u64, *b);
        while m != 0 {
            acc |= a << m.trailing_zeros();
            m &= m - 1;
        }
        *dst = acc;
        return;
    }
    dst.iter_mut().for_each(|x| *x = 0);
    let mut r = 0usize;
    while let Some(bit) = next_bit(b, r) {
        or_shifted(dst, a, bit);
        r = bit + 1;
    }
}

/// The first set bit of `set` at or after `from`.
#[inline]
fn next_bit(set: &[u64], from: usize) -> Option<usize> {
    let mut i = from / 64;
    if i >= set.len() {
        return None;
    }
    let mut word = set[i] & (u64::MAX << (from % 64));
    loop {
        if word != 0 {
            return Some(i * 64 + word.trailing_zeros() as usize);
        }
        i += 1;
        word = *set.get(i)?;
    }
}

/// `dst |= src >> by` over bit sets of equal length.
#[allow(clippy::needless_range_loop)] // two arrays indexed at an offset
#[inline]
fn or_shifted_right(dst: &mut [u64], src: &[u64], by: usize) {
    let (wd, b) = (by / 64, by % 64);
    for j in 0..dst.len() {
        let hi = j + wd;
        if hi >= src.len() {
            break;
        }
        let mut x = src[hi] >> b;
        if b > 0 && hi + 1 < src.len() {
            x |= src[hi + 1] << (64 - b);
        }
        dst[j] |= x;
    }
}

impl LineProp {
    /// Keeps each digit that labels an edge between a node reachable from the start and one that
    /// reaches the end, over the cells' candidates (`n` digits).
    ///
    /// With `residues` (where this line's `k·n` words start in [`Narrowed::seen`]): residual
    /// supports (Lecoutre and Hemery 2007, "A study of residual supports in arc consistency"): per
    /// cell and digit, a word the line accepts that puts the digit there, left by the last walk.
    /// When every digit of every cell still has its word within the cells' digits, the walk would
    /// remove nothing and is skipped; else it runs and leaves a word for each digit it keeps. The
    /// words are checked, never trusted, so stale ones (from another branch) cost a walk only.
    fn prune<M: Mask>(
        &self,
        n: usize,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
        residues: Option<usize>,
    ) -> Step<bool> {
        let k = self.cells.len();
        if self.empty {
            return Err(Contradiction);
        }
        // On the stack for lines short enough to keep residues (most lines, walked or skipped
        // at every pass): a heap buffer per pass cost more than the short walks themselves.
        let mut short = [0u64; RESIDUE_CELLS];
        let long: Vec<u64>;
        let doms: &[u64] = if k <= RESIDUE_CELLS {
            for (d, &c) in short.iter_mut().zip(self.cells.iter()) {
                *d = domain(cand, vals, c as usize);
            }
            &short[..k]
        } else {
            long = self
                .cells
                .iter()
                .map(|&c| domain(cand, vals, c as usize))
                .collect();
            &long
        };
        if let Some(r) = residues
            && supported(&out.seen[r..r + k * n], doms, n)
        {
            return Ok(false);
        }
        // Node marks per layer, as bytes: bit 0 reachable from the start, bit 1 reaching the end.
        // The buffers are taken out of `out` for the pass (and left empty if it fails).
        let mut buffer = std::mem::take(out.marks);
        let scratch = &mut buffer;
        scratch.clear();
        let offset = &self.offset;
        scratch.resize(offset[k + 1], 0);
        scratch[0] = 1;
        let nodes = offset[k + 1];
        let track = residues.is_some();
        // With residues, `links`: per node the edge that first reached it (low half: the node it
        // came from, shifted left 6, or'ed with the digit) and the first edge by which it reaches
        // the end (high half, as `edges` packs it).
        // The nodes reached, layer after layer (layer i's from `starts[i]`), so that both passes
        // follow the nodes still reachable, not the whole graph (most of a long line's graph is
        // dead once a few of its cells are placed). All three in one reused buffer: a line's walk
        // is short, and two heap buffers a walk cost more than a tenth of it.
        let mut buffer64 = std::mem::take(out.scratch);
        buffer64.clear();
        buffer64.resize(if track { nodes } else { 0 } + nodes + k + 2, 0);
        let (links, rest) = buffer64.split_at_mut(if track { nodes } else { 0 });
        let (live, starts) = rest.split_at_mut(nodes);
        let mut len = 1;
        starts[1] = 1;
        for (i, &dom) in doms.iter().enumerate() {
            for j in starts[i] as usize..starts[i + 1] as usize {
                let u = live[j] as usize;
                self.each_edge(u, dom, |e| {
                    let to = (e >> 6) as usize;
                    if scratch[to] == 0 {
                        scratch[to] = 1;
                        live[len] = to as u64;
                        len += 1;
                        if track {
                            links[to] = u64::from(((u as u32) << 6) | (e & 63));
                        }
                    }
                });
            }
            if len as u64 == starts[i + 1] {
                return Err(Contradiction);
            }
            starts[i + 2] = len as u64;
        }
        scratch[offset[k]] |= 2;
        let mut changed = false;
        for i in (0..k).rev() {
            let mut keep = 0u64;
            // With residues, per digit kept the first edge giving it (from, packed edge).
            let mut via = [(0u32, 0u32); 16];
            for &u in &live[starts[i] as usize..starts[i + 1] as usize] {
                let u = u as usize;
                self.each_edge(u, doms[i], |e| {
                    let d = e & 63;
                    if scratch[(e >> 6) as usize] & 2 == 2 {
                        if track {
                            if keep >> d & 1 == 0 {
                                via[d as usize] = (u as u32, e);
                            }
                            if scratch[u] & 2 == 0 {
                                links[u] |= u64::from(e) << 32;
                            }
                        }
                        keep |= 1 << d;
                        scratch[u] |= 2;
                    }
                });
            }
            if let Some(r) = residues {
                let mut m = keep;
                while m != 0 {
                    let d = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let (u, e) = via[d];
                    out.seen[r + i * n + d] = word(links, i, u, e, k);
                }
            }
            changed |= keep_only(cand, vals, out, self.cells[i] as usize, keep)?;
        }
        *out.marks = buffer;
        *out.scratch = buffer64;
        Ok(changed)
    }
}

impl LineProp {
    /// The line of a clique (see [`Shortcut::Clique`]) made generalised arc-consistent, as its
    /// walk would: a digit of a cell stays if some assignment of all the cells puts it there with
    /// every pair allowed. The assignments are gathered in order (see [`Clique::gather`]), those
    /// that can show a digit not yet seen only, so that a pass where most digits stay is short.
    fn prune_clique<M: Mask>(
        &self,
        clique: &Clique,
        cand: &mut [M],
        vals: &[u16],
        out: &mut Narrowed<'_, M>,
    ) -> Step<bool> {
        let k = self.cells.len();
        let mut doms = [0u64; CLIQUE_CELLS];
        for (d, &c) in doms.iter_mut().zip(self.cells.iter()) {
            *d = domain(cand, vals, c as usize);
        }
        let mut seen = [0u64; CLIQUE_CELLS];
        clique.gather(&doms, &mut [0; CLIQUE_CELLS], 0, k, &mut seen);
        if seen[0] == 0 {
            return Err(Contradiction);
        }
        let mut changed = false;
        for (&c, &keep) in self.cells.iter().zip(seen.iter()) {
            changed |= keep_only(cand, vals, out, c as usize, keep)?;
        }
        Ok(changed)
    }

    /// Calls `f` with each edge of node `u` whose digit is in `dom`.
    #[inline(always)]
    fn each_edge(&self, u: usize, dom: u64, mut f: impl FnMut(u32)) {
        let from = self.first[u] as usize;
        match &self.has {
            Some(has) => {
                let h = has[u];
                let mut m = h & dom;
                while m != 0 {
                    let below = h & ((m & m.wrapping_neg()) - 1);
                    m &= m - 1;
                    f(self.edges[from + below.count_ones() as usize]);
                }
            }
            None => {
                for &e in &self.edges[from..self.first[u + 1] as usize] {
                    if dom >> (e & 63) & 1 == 1 {
                        f(e);
                    }
                }
            }
        }
    }
}

/// The word of a line of `k` cells through edge `e` (packed as [`LineProp::edges`]) from node `u`
/// of layer `i`: back to the start by the edges that first reached each node, on to the end by
/// the first edges found reaching it (`links`, as [`LineProp::prune`] keeps them); a digit a cell
/// in 4 bits, marked [`PRESENT`].
fn word(links: &[u64], i: usize, u: u32, e: u32, k: usize) -> u64 {
    let mut w = PRESENT | u64::from(e & 63) << (4 * i);
    let mut node = u as usize;
    for j in (0..i).rev() {
        let back = links[node] as u32;
        w |= u64::from(back & 63) << (4 * j);
        node = (back >> 6) as usize;
    }
    let mut node = (e >> 6) as usize;
    for j in i + 1..k {
        let on = (links[node] >> 32) as u32;
        w |= u64::from(on & 63) << (4 * j);
        node = (on >> 6) as usize;
    }
    w
}

/// Whether every digit of every cell (`doms`, none empty) still has its residual support
/// (`words`, `n` per cell) within the cells' digits. (Falling back on another of the line's
/// words that fits, when a digit's own does not, saved no time.)
fn supported(words: &[u64], doms: &[u64], n: usize) -> bool {
    let fits = |w: u64| {
        w & PRESENT != 0
            && doms
                .iter()
                .enumerate()
                .all(|(j, &dom)| dom >> (w >> (4 * j) & 15) & 1 == 1)
    };
    let mut last = 0;
    for (i, &dom) in doms.iter().enumerate() {
        if dom == 0 {
            return false;
        }
        let mut m = dom;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let w = words[i * n + d];
            if w & PRESENT != 0 && w == last {
                continue;
            }
            if !fits(w) {
                return false;
            }
            last = w;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clue::Clue;
    use crate::dfs::narrow::Buffers as Bufs;
    use crate::grid::{Cell, Shape};

    /// The sums of `k` different digits of `digits` plus `shift`, by enumerating the subsets.
    fn sums_by_enumeration(digits: u64, k: usize, weights: &[u32], shift: isize) -> u128 {
        let list: Vec<usize> = (0..64).filter(|d| digits >> d & 1 != 0).collect();
        let mut out = 0u128;
        for subset in 0u32..1 << list.len() {
            if subset.count_ones() as usize == k {
                let sum: usize = (0..list.len())
                    .filter(|i| subset >> i & 1 != 0)
                    .map(|i| weights[list[i]] as usize)
                    .sum();
                let at = shift + sum as isize;
                if (0..128).contains(&at) {
                    out |= 1 << at;
                }
            }
        }
        out
    }

    #[test]
    fn subset_sums_and_sumsets_in_one_word_agree_with_two_words_and_enumeration() {
        // A small generator (xorshift) for digit sets, weights and shifts of 9x9 clues.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut work = vec![0u64; 64];
        for _ in 0..2_000 {
            let digits = next() & 0x1ff;
            // Weights up to 15 (tables of more than a word), shifts down as well as up (a group's
            // sums less its floor).
            let weights: Vec<u32> = (0..9).map(|_| (next() % 16) as u32).collect();
            let k = (next() % 7) as usize;
            let shift = (next() % 40) as isize - 20;
            let (mut one, mut two) = ([0u64; 1], [0u64; 2]);
            subset_sums(digits, k, &weights, shift, &mut one, &mut work);
            subset_sums(digits, k, &weights, shift, &mut two, &mut work);
            let want = sums_by_enumeration(digits, k, &weights, shift);
            assert_eq!(
                u128::from(one[0]),
                want & u128::from(u64::MAX),
                "{digits:b} {k}"
            );
            assert_eq!(u128::from(two[0]) | u128::from(two[1]) << 64, want);
            let (a, b) = (next() & 0xffff_ffff, next() & 0xffff_ffff);
            let mut one = [0u64; 1];
            sumset(&[a], &[b], &mut one);
            let mut two = [0u64; 2];
            sumset(&[a, 0], &[b, 0], &mut two);
            assert_eq!(one[0], two[0]);
            let slow = (0..32)
                .filter(|i| b >> i & 1 != 0)
                .fold(0u64, |acc, i| acc | a << i);
            assert_eq!(one[0], slow);
        }
    }

    fn rules(clues: Vec<Clue>) -> (Units, ClueRules) {
        let shape = Shape::new(2, 2).unwrap();
        let mut b = Units::rules(shape);
        for c in clues {
            b = b.clue(c);
        }
        let units = b.build().unwrap();
        let r = ClueRules::build(&units, &[]);
        (units, r)
    }

    fn at(r: usize, c: usize) -> Cell {
        Cell::at(Shape::new(2, 2).unwrap(), r, c)
    }

    #[test]
    fn residual_supports_skip_only_walks_that_would_remove_nothing() {
        // Lines of 4x4 (a sandwich and a skyscraper on rows, told their digits differ; an x-sum
        // on a column; a between line across boxes): along random narrowings, placings and
        // returns to earlier states (stale residues), the pass with signatures and residual
        // supports leaves the candidates and the outcome of the pass without them.
        let (_, r) = rules(vec![
            Clue::Sandwich {
                sum: 5,
                cells: (0..4).map(|c| at(1, c)).collect(),
            },
            Clue::Skyscraper {
                count: 2,
                cells: (0..4).map(|c| at(2, 3 - c)).collect(),
            },
            Clue::XSum {
                sum: 6,
                cells: (0..4).map(|row| at(row, 0)).collect(),
            },
            Clue::Between {
                cells: vec![at(0, 1), at(1, 2), at(2, 3), at(3, 2)],
            },
        ]);
        assert!(r.residue_len() > 0);
        let mut kept = Bufs {
            seen: vec![0; r.constraints() + r.residue_len()],
            ..Bufs::default()
        };
        let mut plain = Bufs::default();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| crate::dfs::search::splitmix(&mut seed) % m;
        let (mut skipped, mut walks) = (0, 0);
        let mut saved: Vec<(Vec<u16>, Vec<u16>)> = Vec::new();
        let (mut cand, mut vals) = (vec![0b1111u16; 16], vec![0u16; 16]);
        for _ in 0..4000 {
            match next(8) {
                0 if !saved.is_empty() => {
                    let i = next(saved.len() as u64) as usize;
                    (cand, vals) = saved[i].clone();
                }
                1 => (cand, vals) = (vec![0b1111u16; 16], vec![0u16; 16]),
                _ => {
                    let c = next(16) as usize;
                    if vals[c] == 0 {
                        let bits: Vec<u16> = (0..4).filter(|d| cand[c] >> d & 1 == 1).collect();
                        if bits.len() > 1 {
                            cand[c] &= !(1 << bits[next(bits.len() as u64) as usize]);
                        } else if next(2) == 0 {
                            vals[c] = bits[0] + 1;
                        }
                    }
                }
            }
            let mut want = cand.clone();
            let expected = r.prune(4, &mut want, &vals, &mut plain.narrowed(), 0, 0);
            let before = kept.seen.clone();
            let mut got = cand.clone();
            let result = r.prune(4, &mut got, &vals, &mut kept.narrowed(), 0, r.constraints());
            assert_eq!(result.is_err(), expected.is_err(), "{cand:?} {vals:?}");
            if let Ok(changed) = expected {
                assert_eq!((&got, result), (&want, Ok(changed)), "{cand:?} {vals:?}");
                walks += 1;
                skipped += usize::from(!changed && before == kept.seen);
                cand = got;
                if next(4) == 0 {
                    saved.push((cand.clone(), vals.clone()));
                }
            } else {
                (cand, vals) = (vec![0b1111u16; 16], vec![0u16; 16]);
            }
        }
        // Some passes were skipped (by a signature or the residues), and not all.
        assert!(skipped > 100 && skipped < walks, "{skipped} of {walks}");
    }

    #[test]
    fn a_clique_keeps_exactly_the_digits_of_its_assignments() {
        // Relations on every pair of 2-6 cells of 9x9 (random tables, some not symmetric, some
        // letting a digit repeat), over random candidates and placed digits: one pass keeps
        // what enumerating every assignment of the cells keeps, or fails when there is none.
        // Up to five cells by the cliques' search (the shortcut), six by the walk.
        let shape = Shape::new(3, 3).unwrap();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| crate::dfs::search::splitmix(&mut seed) % m;
        let mut bufs = Bufs::default();
        let (mut cliques, mut failures) = (0, 0);
        for round in 0..3000 {
            let k = 2 + round % 5;
            let mut cells: Vec<Cell> = Vec::new();
            while cells.len() < k {
                let c = Cell::new(next(81) as usize);
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            let table: Vec<u64> = (0..9)
                .map(|_| {
                    (0..9)
                        .filter(|_| next(10) < 7)
                        .fold(0u64, |m, d| m | 1 << d)
                })
                .collect();
            let units = Units::rules(shape)
                .clue(Clue::Pair {
                    all: true,
                    table: table.clone(),
                    cells: cells.clone(),
                })
                .build()
                .unwrap();
            let r = ClueRules::build(&units, &[]);
            let [line] = &r.lines[..] else {
                panic!("one line")
            };
            let by_search = matches!(line.shortcut, Some(Shortcut::Clique(_)));
            assert_eq!(by_search, k <= CLIQUE_CELLS);
            cliques += usize::from(by_search);
            let (mut cand, mut vals) = (vec![0x1ffu16; 81], vec![0u16; 81]);
            for &c in &cells {
                if next(4) == 0 {
                    vals[c.index()] = next(9) as u16 + 1;
                    cand[c.index()] = 0;
                } else {
                    cand[c.index()] = (0..9).filter(|_| next(10) < 6).fold(0, |m, d| m | 1 << d);
                    if cand[c.index()] == 0 {
                        cand[c.index()] = 1 << next(9);
                    }
                }
            }
            let doms: Vec<u64> = cells
                .iter()
                .map(|c| domain(&cand, &vals, c.index()))
                .collect();
            let mut want = vec![0u64; k];
            let mut digits = vec![0usize; k];
            'all: loop {
                let fits = (0..k).all(|i| {
                    doms[i] >> digits[i] & 1 == 1
                        && (0..i).all(|h| table[digits[h]] >> digits[i] & 1 == 1)
                });
                if fits {
                    for (w, &d) in want.iter_mut().zip(&digits) {
                        *w |= 1 << d;
                    }
                }
                for d in digits.iter_mut().rev() {
                    *d += 1;
                    if *d < 9 {
                        continue 'all;
                    }
                    *d = 0;
                }
                break;
            }
            let mut got = cand.clone();
            let result = r.prune(9, &mut got, &vals, &mut bufs.narrowed(), 0, 0);
            if want[0] == 0 {
                assert_eq!(result, Err(Contradiction), "{table:?} {doms:?}");
                failures += 1;
                continue;
            }
            assert!(result.is_ok(), "{table:?} {doms:?}");
            for (i, c) in cells.iter().enumerate() {
                assert_eq!(
                    domain(&got, &vals, c.index()),
                    want[i],
                    "{table:?} {doms:?} {i}"
                );
            }
        }
        assert!(
            cliques == 2400 && failures > 100 && failures < 2000,
            "{failures}"
        );
    }

    #[test]
    fn binary_sums_narrow_as_the_subset_sums_do() {
        // Counts of one digit over random 9x9 cells (same values' two runs, weighing +1 and -1,
        // to a total of 0; or one run to a few totals, as look and say or counting circles), on
        // random candidates and placements: the interval pass and the subset sums' exact pass
        // keep the same digits and fail alike.
        let shape = Shape::new(3, 3).unwrap();
        let units = Units::rules(shape).build().unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut narrowed, mut failed) = (0, 0);
        for round in 0..4_000 {
            let size = 2 + (next() % 10) as usize;
            let mut cells: Vec<Cell> = Vec::new();
            while cells.len() < size {
                let c = Cell::new((next() % 81) as usize);
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            let digit = (next() % 9) as usize;
            let two_runs = round % 2 == 0;
            let weights = (0..size)
                .map(|i| {
                    let sign = if two_runs && i >= size / 2 { -1 } else { 1 };
                    (0..9).map(|d| sign * i32::from(d == digit)).collect()
                })
                .collect();
            let totals = if two_runs {
                vec![0]
            } else {
                let a = (next() % 4) as i32;
                if next() % 2 == 0 {
                    vec![a]
                } else {
                    vec![a, a + 2]
                }
            };
            let rule = SumRule {
                cells: cells.clone(),
                weights,
                totals,
            };
            let binary = SumProp::new(&units, &rule);
            assert!(binary.binary.is_some());
            let mut exact = SumProp::new(&units, &rule);
            exact.binary = None;
            // Candidates of a few digits (the digit itself more often than not), some placed.
            let mut cand = vec![0u16; 81];
            let mut vals = vec![0u16; 81];
            for &c in &cells {
                let i = c.index();
                let mut m = (next() & 0x1ff) as u16 | 1 << (next() % 9);
                if next() % 3 != 0 {
                    m |= 1 << digit;
                }
                // Placed digits as the search leaves them: none twice in a unit.
                let d = (next() % 9) as u16;
                let clash = cells.iter().any(|&o| {
                    let (a, b) = (o.index(), i);
                    vals[a] == d + 1
                        && (a / 9 == b / 9
                            || a % 9 == b % 9
                            || (a / 27, a % 9 / 3) == (b / 27, b % 9 / 3))
                });
                if next() % 4 == 0 && !clash {
                    vals[i] = d + 1;
                    m = 1 << d;
                }
                cand[i] = m;
            }
            let run = |p: &SumProp| {
                let mut cand = cand.clone();
                let mut bufs = Bufs::default();
                let mut out = bufs.narrowed();
                let r = p.prune(9, &mut cand, &vals, &mut out, None, &mut Scan::default());
                (r, cand)
            };
            let (a, b) = (run(&binary), run(&exact));
            assert_eq!(a.0.is_err(), b.0.is_err(), "{rule:?} {cand:?} {vals:?}");
            if a.0.is_ok() {
                assert_eq!(a, b, "{rule:?} {cand:?} {vals:?}");
                narrowed += usize::from(a.0 == Ok(true));
            } else {
                failed += 1;
            }
        }
        // Both outcomes occur often enough to matter.
        assert!(narrowed > 200 && failed > 200, "{narrowed} {failed}");
    }

    #[test]
    fn sums_over_the_same_cells_share_one_reading_while_nothing_changes() {
        // Same values over two runs of three 4x4 cells: one count a digit, over the same cells.
        // One pass of the rules (the later counts reading the earlier's signature and groups)
        // narrows as the counts pruned one by one on their own readings, on random states.
        let runs = [at(0, 0), at(1, 2), at(2, 1), at(3, 3), at(0, 3), at(2, 2)];
        let (_, r) = rules(vec![Clue::SameValues {
            sets: 2,
            cells: runs.to_vec(),
        }]);
        assert_eq!(r.sums.len(), 4);
        assert!(
            r.sums[1..]
                .iter()
                .all(|s| s.same_cells && s.binary.is_some())
        );
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut shared = 0;
        for _ in 0..3_000 {
            let mut cand = vec![0b1111u16; 16];
            let mut vals = vec![0u16; 16];
            for c in runs {
                let i = c.index();
                cand[i] = (next() & 0b1111) as u16 | 1 << (next() % 4);
                if next() % 5 == 0 {
                    let d = cand[i].trailing_zeros() as u16;
                    let clash = runs.iter().any(|&o| vals[o.index()] == d + 1);
                    if !clash {
                        vals[i] = d + 1;
                        cand[i] = 1 << d;
                    }
                }
            }
            let mut one = cand.clone();
            let mut bufs = Bufs::with_seen(vec![0; r.constraints()]);
            let mut out = bufs.narrowed();
            let a = r.prune(4, &mut one, &vals, &mut out, 0, 0);
            let mut each = cand.clone();
            let mut b = Ok(false);
            for sum in r.sums.iter() {
                let mut bufs = Bufs::default();
                let mut out = bufs.narrowed();
                match sum.prune(4, &mut each, &vals, &mut out, None, &mut Scan::default()) {
                    Ok(c) => b = b.map(|x| x | c),
                    Err(e) => {
                        b = Err(e);
                        break;
                    }
                }
            }
            assert_eq!(a.is_err(), b.is_err(), "{cand:?} {vals:?}");
            if a.is_ok() {
                assert_eq!((a, &one), (b, &each), "{cand:?} {vals:?}");
                shared += usize::from(a == Ok(false));
            }
        }
        assert!(shared > 100, "{shared}");
    }

    #[test]
    fn a_little_killer_prunes_by_partial_sums() {
        // r1c1 + r2c2 + r3c3 = 11 on 1-4 (values may repeat along the diagonal, but r1c1 and r2c2
        // share a box): r1c1 and r2c2 differ, so they are at most 3 + 4 together and r3c3 is 4;
        // then r1c1 and r2c2 are 3 and 4 in some order.
        let (_, r) = rules(vec![Clue::LittleKiller {
            sum: 11,
            cells: vec![at(0, 0), at(1, 1), at(2, 2)],
        }]);
        let mut cand = vec![0b1111u16; 16];
        let vals = vec![0u16; 16];
        let mut bufs = Bufs::default();
        let mut out = bufs.narrowed();
        assert_eq!(r.prune(4, &mut cand, &vals, &mut out, 0, 0), Ok(true));
        assert_eq!((cand[0], cand[5], cand[10]), (0b1100, 0b1100, 0b1000));
        // With r1c1 placed as 3, the others are 4 and 4.
        let mut vals = vec![0u16; 16];
        vals[0] = 3;
        assert_eq!(r.prune(4, &mut cand, &vals, &mut out, 0, 0), Ok(true));
        assert_eq!((cand[5], cand[10]), (0b1000, 0b1000));
        vals[5] = 3;
        assert_eq!(
            r.prune(4, &mut cand, &vals, &mut out, 0, 0),
            Err(Contradiction)
        );
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
        while r.prune(4, &mut cand, &vals, &mut out, 0, 0).unwrap() {}
        assert_eq!((cand[0], cand[1], cand[2]), (0b0011, 0b0110, 0b1100));
        // A between line r2c1 r2c2 r2c3: its middle is 2 or 3, the ends anything but.
        let (_, r) = rules(vec![Clue::Between {
            cells: vec![at(1, 0), at(1, 1), at(1, 2)],
        }]);
        let mut cand = vec![0b1111u16; 16];
        while r.prune(4, &mut cand, &vals, &mut out, 0, 0).unwrap() {}
        assert_eq!(cand[5], 0b0110);
        assert_eq!((cand[4], cand[6]), (0b1111, 0b1111));
        cand[5] = 0b0010;
        while r.prune(4, &mut cand, &vals, &mut out, 0, 0).unwrap() {}
        assert_eq!((cand[4], cand[6]), (0b1101, 0b1101));
    }

    #[test]
    fn a_count_takes_its_digit_from_the_cells_seeing_all_its_places() {
        // One 3 in r1c1 r1c2: the rest of row 1 and of the first box lose 3.
        let (_, r) = rules(vec![Clue::LookAndSay {
            counts: vec![(3, 1)],
            cells: vec![at(0, 0), at(0, 1)],
        }]);
        let mut cand = vec![0b1111u16; 16];
        let vals = vec![0u16; 16];
        let mut bufs = Bufs::default();
        let mut out = bufs.narrowed();
        while r.prune(4, &mut cand, &vals, &mut out, 0, 0).unwrap() {}
        for c in [2, 3, 4, 5] {
            assert_eq!(cand[c], 0b1011, "cell {c}");
        }
        assert_eq!((cand[0], cand[1], cand[8]), (0b1111, 0b1111, 0b1111));
        // With 3 placed in r1c2, nothing more is required.
        let mut cand = vec![0b1111u16; 16];
        let mut vals = vec![0u16; 16];
        vals[1] = 3;
        cand[1] = 0b0100;
        while r.prune(4, &mut cand, &vals, &mut out, 0, 0).unwrap() {}
        assert_eq!(cand[8], 0b1111);
        // Two 1s in r1c1 r1c2 r3c3: r1c1 and r1c2 share a row, so r3c3 is 1 (the partial sums), and
        // r1c3, seeing all three, loses 1; r1c4 does not see r3c3.
        let (_, r) = rules(vec![Clue::LookAndSay {
            counts: vec![(1, 2)],
            cells: vec![at(0, 0), at(0, 1), at(2, 2)],
        }]);
        let mut cand = vec![0b1111u16; 16];
        let vals = vec![0u16; 16];
        while r.prune(4, &mut cand, &vals, &mut out, 0, 0).unwrap() {}
        assert_eq!(cand[10], 0b0001);
        assert_eq!((cand[2], cand[3]), (0b1110, 0b1111));
    }

    #[test]
    fn an_entropy_square_needs_a_class_left_with_one_digit() {
        let shape = Shape::new(3, 3).unwrap();
        let units = Units::rules(shape)
            .clue(Clue::Global2x2 { modular: false })
            .build()
            .unwrap();
        let r = ClueRules::build(&units, &[]);
        // The top-left square (r1c1 r1c2 r2c1 r2c2) can get a low digit only as 2, in r1c1 or
        // r1c2: the rest of row 1 and of box 1 lose 2; nothing else does.
        let mut cand = vec![0b1_1111_1111u16; 81];
        for c in [0, 1] {
            cand[c] = 0b1_1111_1010;
        }
        for c in [9, 10] {
            cand[c] = 0b1_1111_1000;
        }
        let vals = vec![0u16; 81];
        let mut bufs = Bufs::default();
        let mut out = bufs.narrowed();
        r.prune(9, &mut cand, &vals, &mut out, 0, 0).unwrap();
        for c in [2, 3, 8, 11, 18, 20] {
            assert_eq!(cand[c] & 0b10, 0, "cell {c}");
        }
        for c in [0, 1, 27, 28, 12] {
            assert_ne!(cand[c] & 0b10, 0, "cell {c}");
        }
    }

    /// A square's cells keep what some assignment of their digits holding all three classes uses
    /// (by enumerating every assignment: what the square's line, an automaton over the classes,
    /// keeps), and the square fails when none is left: on every combination of classes the four
    /// cells may take, each cell given a random part of each of its classes' digits (a single
    /// digit placed at times), global entropy and global mod 3 alike. The squares keep no line of
    /// their own.
    #[test]
    fn entropy_squares_keep_what_an_assignment_uses() {
        let shape = Shape::new(3, 3).unwrap();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| crate::dfs::search::splitmix(&mut seed) % m;
        for modular in [false, true] {
            let units = Units::rules(shape)
                .clue(Clue::Global2x2 { modular })
                .build()
                .unwrap();
            let r = ClueRules::build(&units, &[]);
            assert!(r.lines.is_empty() && r.squares.is_some());
            let classes: [u64; 3] = if modular {
                [0o111, 0o222, 0o444]
            } else {
                [0o7, 0o70, 0o700]
            };
            let class_of = |d: usize| classes.iter().position(|&m| m >> d & 1 == 1).unwrap();
            // The top-left square, and one in the middle (across four boxes).
            for square in [[0usize, 1, 9, 10], [29, 30, 38, 39]] {
                let (mut fails, mut narrowed) = (0, 0);
                for key in 0..4096usize {
                    if (0..4).any(|i| key >> (3 * i) & 7 == 0) {
                        continue;
                    }
                    let (mut cand, mut vals) = (vec![0x1FFu16; 81], vec![0u16; 81]);
                    for (i, &c) in square.iter().enumerate() {
                        let mut dom = 0u64;
                        for (x, &m) in classes.iter().enumerate() {
                            if key >> (3 * i + x) & 1 == 1 {
                                let part = m & next(512);
                                dom |= if part == 0 {
                                    m & m.wrapping_neg()
                                } else {
                                    part
                                };
                            }
                        }
                        cand[c] = dom as u16;
                        if dom.count_ones() == 1 && next(2) == 0 {
                            vals[c] = dom.trailing_zeros() as u16 + 1;
                        }
                    }
                    // Every assignment of the square's digits holding the three classes.
                    let mut used = [0u16; 4];
                    let at = &cand;
                    let digits = |c: usize| (0..9).filter(move |d| at[c] >> d & 1 == 1);
                    for a in digits(square[0]) {
                        for b in digits(square[1]) {
                            for c in digits(square[2]) {
                                for d in digits(square[3]) {
                                    let seen =
                                        [a, b, c, d].iter().fold(0, |s, &x| s | 1 << class_of(x));
                                    if seen == 7 {
                                        for (u, x) in used.iter_mut().zip([a, b, c, d]) {
                                            *u |= 1 << x;
                                        }
                                    }
                                }
                            }
                        }
                    }
                    let mut by_squares = cand.clone();
                    let mut bufs = Bufs::default();
                    let squares = r.prune(9, &mut by_squares, &vals, &mut bufs.narrowed(), 0, 0);
                    let none = used.contains(&0);
                    assert_eq!(squares.is_err(), none, "key {key:o}");
                    if none {
                        fails += 1;
                        continue;
                    }
                    for (i, &c) in square.iter().enumerate() {
                        let kept = if vals[c] == 0 { by_squares[c] } else { cand[c] };
                        assert_eq!(kept, used[i], "key {key:o}, cell {c}");
                        narrowed += usize::from(kept != cand[c]);
                    }
                }
                assert!(fails > 100 && narrowed > 1000, "{fails} {narrowed}");
            }
        }
    }

    /// Every 4x4 sudoku, by backtracking.
    fn all_4x4() -> Vec<[u16; 16]> {
        fn fill(g: &mut [u16; 16], i: usize, out: &mut Vec<[u16; 16]>) {
            if i == 16 {
                out.push(*g);
                return;
            }
            let (r, c) = (i / 4, i % 4);
            for d in 1..=4 {
                let clash = (0..i).any(|j| {
                    let (rj, cj) = (j / 4, j % 4);
                    g[j] == d && (rj == r || cj == c || (rj / 2 == r / 2 && cj / 2 == c / 2))
                });
                if !clash {
                    g[i] = d;
                    fill(g, i + 1, out);
                }
            }
            g[i] = 0;
        }
        let mut out = Vec::new();
        fill(&mut [0; 16], 0, &mut out);
        out
    }

    /// The rule by enumeration: each circle's digit v is in exactly v of the circles of `g`.
    fn circles_count_right(circles: &[usize], g: &[u16; 16]) -> bool {
        circles.iter().all(|&c| {
            let v = g[c];
            circles.iter().filter(|&&x| g[x] == v).count() == usize::from(v)
        })
    }

    #[test]
    fn counting_circles_alone_refuse_every_full_grid_that_miscounts() {
        // The search leaves the clue's own count sums to the circles' pass (none is built): so on
        // a full grid that pass alone must fail exactly when some circle's digit is not in as many
        // circles as its value. Every 4x4 grid against random circles.
        let grids = all_4x4();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| crate::dfs::search::splitmix(&mut seed) % m;
        let (mut fitting, mut refused) = (0, 0);
        for _ in 0..40 {
            let mut circles: Vec<usize> = (0..16).filter(|_| next(3) == 0).collect();
            if circles.is_empty() {
                circles.push(next(16) as usize);
            }
            let (units, r) = rules(vec![Clue::CountingCircles {
                cells: circles.iter().map(|&c| at(c / 4, c % 4)).collect(),
            }]);
            assert!(!units.sums().is_empty(), "the model keeps its count sums");
            assert!(r.sums.is_empty(), "the search leaves them to the circles");
            let (Some(circ), Some(peers)) = (&r.circles, &r.peers) else {
                panic!("no circles");
            };
            for g in &grids {
                let fits = circles_count_right(&circles, g);
                let mut cand: Vec<u16> = g.iter().map(|&d| 1 << (d - 1)).collect();
                let vals: Vec<u16> = g.to_vec();
                let mut bufs = Bufs::default();
                let ok = circ
                    .prune(peers, &mut cand, &vals, &mut bufs.narrowed())
                    .is_ok();
                assert_eq!(ok, fits, "{circles:?} {g:?}");
                fitting += usize::from(fits);
                refused += usize::from(!ok);
            }
        }
        assert!(fitting > 0 && refused > 0, "{fitting} {refused}");
    }

    #[test]
    fn counting_circles_remove_only_what_no_solution_uses() {
        // Random circles on 4x4 and random states around a solution of them (or around none):
        // the circles' pass keeps every solution that fits the state (in every cell, the circles'
        // and the cells the pointing narrows), fails only when none fits, and does narrow.
        let grids = all_4x4();
        assert_eq!(grids.len(), 288);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| crate::dfs::search::splitmix(&mut seed) % m;
        let (mut narrowed, mut failed, mut states) = (0, 0, 0);
        for _ in 0..300 {
            let mut circles: Vec<usize> = (0..16).filter(|_| next(3) == 0).collect();
            if circles.is_empty() {
                circles.push(next(16) as usize);
            }
            let fits = |g: &[u16; 16]| circles_count_right(&circles, g);
            let solutions: Vec<&[u16; 16]> = grids.iter().filter(|g| fits(g)).collect();
            let (_, r) = rules(vec![Clue::CountingCircles {
                cells: circles.iter().map(|&c| at(c / 4, c % 4)).collect(),
            }]);
            let (Some(circ), Some(peers)) = (&r.circles, &r.peers) else {
                panic!("no circles");
            };
            for _ in 0..40 {
                let planted = (!solutions.is_empty() && next(4) != 0)
                    .then(|| solutions[next(solutions.len() as u64) as usize]);
                let (mut cand, mut vals) = (vec![0u16; 16], vec![0u16; 16]);
                for c in 0..16 {
                    cand[c] = (next(16) as u16) | planted.map_or(0, |g| 1 << (g[c] - 1));
                    if cand[c] == 0 {
                        cand[c] = 1 << next(4);
                    }
                    if cand[c].count_ones() == 1 && next(2) == 0 {
                        vals[c] = cand[c].trailing_zeros() as u16 + 1;
                    }
                }
                let fits_state =
                    |cand: &[u16], g: &[u16; 16]| (0..16).all(|c| cand[c] >> (g[c] - 1) & 1 == 1);
                let before: Vec<&&[u16; 16]> =
                    solutions.iter().filter(|g| fits_state(&cand, g)).collect();
                let mut got = cand.clone();
                let mut bufs = Bufs::default();
                let result = circ.prune(peers, &mut got, &vals, &mut bufs.narrowed());
                states += 1;
                match result {
                    Err(_) => {
                        assert!(before.is_empty(), "{circles:?} {cand:?} {vals:?}");
                        failed += 1;
                    }
                    Ok(changed) => {
                        for g in &before {
                            assert!(fits_state(&got, g), "{circles:?} {cand:?} {vals:?} {g:?}");
                        }
                        assert_eq!(changed, got != cand);
                        narrowed += usize::from(changed);
                    }
                }
            }
        }
        assert!(
            narrowed > states / 10 && failed > 0,
            "{narrowed} {failed} of {states}"
        );
    }
}
