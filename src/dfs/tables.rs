//! Flat lookup tables derived from a unit list (unit cells, peers, units of each cell, the unit pairs
//! of locked candidates), cached per thread by [`Units::id`] so a batch of puzzles under one list builds
//! them once. Large grids go without the peer lists (the units are walked instead) and without the
//! pairs (locked candidates do not pay there).

use std::cell::RefCell;
use std::rc::Rc;

use super::digit_peers::DigitPeers;
use super::rules::Rules;
use crate::grid::Cell;
use crate::units::Units;

/// A unit list flattened into arrays of `u32` indices, as the search reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Tables {
    /// Grid side: digits per unit, cells per unit.
    pub n: usize,
    /// Cells in the grid (N²).
    pub cells: usize,
    /// Number of units.
    pub units: usize,
    /// The cells of unit `u` are `unit_cells[u * n .. (u + 1) * n]`.
    pub unit_cells: Box<[u32]>,
    /// The peers of cell `c` are `peers[peer_start[c] .. peer_start[c + 1]]`; both empty when the
    /// lists would exceed [`MAX_PEER_ENTRIES`] (then [`Tables::has_peers`] is false).
    peer_start: Box<[u32]>,
    peers: Box<[u32]>,
    /// The units of cell `c` are `units_of[unit_start[c] .. unit_start[c + 1]]`.
    unit_start: Box<[u32]>,
    units_of: Box<[u32]>,
    /// Pairs of units sharing two or more cells, for locked candidates (none above [`LOCKED_MAX_N`]).
    pub pairs: Box<[Pair]>,
    /// Groups of pair sides whose shared cells are disjoint inside one unit (see [`Group`]).
    pub groups: Box<[Group]>,
    /// The sides the groups point into: `2 · pair + 0` for the pair's unit A, `+ 1` for B.
    pub sides: Box<[u32]>,
    /// The cell lists the pairs and groups point into.
    pub pair_cells: Box<[u32]>,
    /// The relations and cages beside the units, if any (see `rules.rs`).
    pub rules: Option<Rules>,
    /// Whether every rule treats all digits alike (units and "must differ" relations, no cages or
    /// non-consecutive pairs): then digits used by no given and no decision are interchangeable.
    pub symmetric: bool,
    /// Whether the search branches by weights ([`State::pick_weighted`](super::state::State)): under
    /// cages.
    pub weighted: bool,
    /// Whether there are clue rules ([`Units::has_clue_rules`]): the weighted branching then scores
    /// digits too, may branch on a digit's places in a unit, and starts from [`Tables::seeds`].
    pub clue_rules: bool,
    /// Under clue rules, per cell, the weight its branching score starts from (see [`seeds`]);
    /// else empty (all cells start at 1).
    pub seeds: Box<[u32]>,
    /// Without peer lists (large grids): per cell, where its extra peers start in `extra` (the
    /// cells it must differ from besides its units': relations, cage mates), and one more entry.
    /// Empty when there are peer lists (which hold them) or no such cells.
    pub extra_start: Box<[u32]>,
    /// The extra peers, cell after cell.
    pub extra: Box<[u32]>,
    /// Per cell and digit, the cells that lose the digit when the cell takes it (`NotBoth`
    /// relations), if any.
    pub digit_peers: Option<DigitPeers>,
}

/// Some pairs of one unit U whose shared cells are pairwise disjoint, plus the cells of U they leave
/// out (none, for a row and the boxes it crosses). The candidates of U outside one pair's shared cells
/// are then the union of the other pairs' shared cells and the rest: a few ORs instead of a pass over U.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub(crate) struct Group {
    /// A range of `sides`.
    pub sides: (u32, u32),
    /// The cells of U outside every pair of the group, as a range of `pair_cells`.
    pub rest: (u32, u32),
}

/// Two units A and B sharing the cells I (at least two): a digit that A can hold only in I cannot be
/// elsewhere in B, and conversely (locked candidates: pointing and claiming).
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub(crate) struct Pair {
    /// I = A ∩ B, as a range of `pair_cells`.
    pub inter: (u32, u32),
    /// A \ I.
    pub a_rest: (u32, u32),
    /// B \ I.
    pub b_rest: (u32, u32),
}

/// The most peer-list entries kept (16 MB): 100x100 grids (3 million) have them, 144x144 (8.9
/// million) walk their units instead.
const MAX_PEER_ENTRIES: usize = 1 << 22;

/// The largest grid side for which the search runs locked candidates (and the tables hold its pairs).
pub(crate) const LOCKED_MAX_N: usize = 64;

impl Tables {
    /// Flattens `units`.
    pub fn build(units: &Units) -> Tables {
        let shape = units.shape();
        let (n, cells) = (shape.n(), shape.cells());
        let list = units.units();
        let unit_cells = unit_cells(units);
        let mut unit_start = Vec::with_capacity(cells + 1);
        let mut units_of = Vec::new();
        // Cells that must differ besides the unit peers (relations, cage mates) are peers here too.
        let extra = if units.has_extras() {
            Rules::extra_peers(units)
        } else {
            Vec::new()
        };
        for c in 0..cells {
            unit_start.push(units_of.len() as u32);
            units_of.extend_from_slice(units.units_of(crate::grid::Cell::new(c)));
        }
        unit_start.push(units_of.len() as u32);
        // Each cell's units hold at most (N - 1) other cells each: the bound decides without building.
        let (peer_start, peers) = if units_of.len() * (n - 1) <= MAX_PEER_ENTRIES {
            peer_lists(units, &unit_start, &units_of, &extra)
        } else {
            (Vec::new(), Vec::new())
        };
        let (extra_start, extra) = if peer_start.is_empty() && extra.iter().any(|m| !m.is_empty()) {
            let mut start = Vec::with_capacity(cells + 1);
            let mut flat = Vec::new();
            for more in &extra {
                start.push(flat.len() as u32);
                flat.extend_from_slice(more);
            }
            start.push(flat.len() as u32);
            (start, flat)
        } else {
            (Vec::new(), Vec::new())
        };
        let Pairs {
            pairs,
            groups,
            sides,
            cells: pair_cells,
        } = if n <= LOCKED_MAX_N {
            pairs(units)
        } else {
            Pairs::default()
        };
        let rules = Rules::build(units);
        let digit_peers = DigitPeers::of(units);
        Tables {
            n,
            cells,
            symmetric: rules.as_ref().is_none_or(Rules::digit_symmetric) && digit_peers.is_none(),
            weighted: !units.cages().is_empty()
                || units.is_jigsaw()
                || units.has_clue_rules()
                || rules.as_ref().is_some_and(Rules::has_non_consecutive),
            clue_rules: units.has_clue_rules(),
            seeds: seeds(units),
            units: list.len(),
            unit_cells,
            peer_start: peer_start.into(),
            peers: peers.into(),
            unit_start: unit_start.into(),
            units_of: units_of.into(),
            pairs: pairs.into(),
            groups: groups.into(),
            sides: sides.into(),
            pair_cells: pair_cells.into(),
            rules,
            extra_start: extra_start.into(),
            extra: extra.into(),
            digit_peers,
        }
    }

    /// Drops the peer lists, so that the search walks units as on large grids.
    #[cfg(test)]
    pub fn drop_peers(&mut self) {
        self.peer_start = Box::new([]);
        self.peers = Box::new([]);
    }

    /// Whether the tables hold peer lists ([`Tables::peers`]); else walk the units of a cell.
    #[inline(always)]
    pub fn has_peers(&self) -> bool {
        !self.peer_start.is_empty()
    }

    /// The cells of a range of `pair_cells`.
    #[inline(always)]
    pub fn pair_cells(&self, range: (u32, u32)) -> &[u32] {
        &self.pair_cells[range.0 as usize..range.1 as usize]
    }

    /// The sides of a group.
    #[inline(always)]
    pub fn group_sides(&self, g: &Group) -> &[u32] {
        &self.sides[g.sides.0 as usize..g.sides.1 as usize]
    }

    /// The cells sharing a unit with cell `c` (only when [`Tables::has_peers`]).
    #[inline(always)]
    pub fn peers(&self, c: usize) -> &[u32] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }

    /// The extra peers of cell `c` when there are no peer lists (see [`Tables::extra`]).
    #[inline(always)]
    pub fn extra_peers(&self, c: usize) -> &[u32] {
        match self.extra_start.get(c + 1) {
            Some(&end) => &self.extra[self.extra_start[c] as usize..end as usize],
            None => &[],
        }
    }

    /// The units containing cell `c`.
    #[inline(always)]
    pub fn units_of(&self, c: usize) -> &[u32] {
        &self.units_of[self.unit_start[c] as usize..self.unit_start[c + 1] as usize]
    }

    /// The N cells of unit `u`.
    #[inline(always)]
    pub fn unit(&self, u: usize) -> &[u32] {
        &self.unit_cells[u * self.n..(u + 1) * self.n]
    }
}

/// Every cell's peers (the other cells of its units, ascending, once each), flattened.
fn peer_lists(
    units: &Units,
    unit_start: &[u32],
    units_of: &[u32],
    extra: &[Vec<u32>],
) -> (Vec<u32>, Vec<u32>) {
    let cells = units.shape().cells();
    let mut start = Vec::with_capacity(cells + 1);
    let mut peers = Vec::new();
    let mut mark = vec![usize::MAX; cells];
    for c in 0..cells {
        start.push(peers.len() as u32);
        let from = peers.len();
        for &u in &units_of[unit_start[c] as usize..unit_start[c + 1] as usize] {
            for p in &units.units()[u as usize].cells {
                let p = p.index();
                if p != c && mark[p] != c {
                    mark[p] = c;
                    peers.push(p as u32);
                }
            }
        }
        for &p in extra.get(c).map_or(&[][..], |m| &m[..]) {
            if mark[p as usize] != c {
                mark[p as usize] = c;
                peers.push(p);
            }
        }
        peers[from..].sort_unstable();
    }
    start.push(peers.len() as u32);
    (start, peers)
}

/// Appends `cells` to `flat`, returning their range.
fn push(flat: &mut Vec<u32>, cells: &mut dyn Iterator<Item = usize>) -> (u32, u32) {
    let start = flat.len() as u32;
    flat.extend(cells.map(|c| c as u32));
    (start, flat.len() as u32)
}

/// The locked-candidate tables of a unit list.
#[derive(Default)]
struct Pairs {
    pairs: Vec<Pair>,
    groups: Vec<Group>,
    sides: Vec<u32>,
    cells: Vec<u32>,
}

/// The pairs of units sharing at least two cells, grouped per unit into sets of disjoint
/// intersections (greedily, first fit: a row's boxes form one group; a box's rows one, its columns
/// another).
fn pairs(units: &Units) -> Pairs {
    let list = units.units();
    let cells = units.shape().cells();
    let mut out = Pairs {
        pairs: Vec::new(),
        groups: Vec::new(),
        sides: Vec::new(),
        cells: Vec::new(),
    };
    let flat = &mut out.cells;
    // For each unit, the sides it takes part in.
    let mut sides_of: Vec<Vec<u32>> = vec![Vec::new(); list.len()];
    let mut shared = vec![0u32; list.len()];
    let mut in_a = vec![false; cells];
    let mut in_b = vec![false; cells];
    for (a, unit_a) in list.iter().enumerate() {
        shared.iter_mut().for_each(|s| *s = 0);
        for cell in &unit_a.cells {
            for &b in units.units_of(*cell) {
                if b as usize > a {
                    shared[b as usize] += 1;
                }
            }
        }
        unit_a.cells.iter().for_each(|c| in_a[c.index()] = true);
        for (b, unit_b) in list.iter().enumerate().skip(a + 1) {
            if shared[b] < 2 {
                continue;
            }
            unit_b.cells.iter().for_each(|c| in_b[c.index()] = true);
            let cells_a = unit_a.cells.iter().map(|c| c.index());
            let cells_b = unit_b.cells.iter().map(|c| c.index());
            let inter = push(flat, &mut cells_b.clone().filter(|&c| in_a[c]));
            let a_rest = push(flat, &mut cells_a.filter(|&c| !in_b[c]));
            let b_rest = push(flat, &mut cells_b.filter(|&c| !in_a[c]));
            unit_b.cells.iter().for_each(|c| in_b[c.index()] = false);
            let p = out.pairs.len() as u32;
            out.pairs.push(Pair {
                inter,
                a_rest,
                b_rest,
            });
            sides_of[a].push(2 * p);
            sides_of[b].push(2 * p + 1);
        }
        unit_a.cells.iter().for_each(|c| in_a[c.index()] = false);
    }
    // Group each unit's sides: first fit by disjoint shared cells.
    for (u, unit) in list.iter().enumerate() {
        let mut groups: Vec<(Vec<u32>, Vec<bool>)> = Vec::new();
        for &side in &sides_of[u] {
            let pair = out.pairs[(side / 2) as usize];
            let shared: Vec<usize> = out.cells[pair.inter.0 as usize..pair.inter.1 as usize]
                .iter()
                .map(|&c| c as usize)
                .collect();
            let fit = groups
                .iter()
                .position(|(_, used)| shared.iter().all(|&c| !used[c]));
            let g = match fit {
                Some(g) => g,
                None => {
                    groups.push((Vec::new(), vec![false; cells]));
                    groups.len() - 1
                }
            };
            groups[g].0.push(side);
            shared.iter().for_each(|&c| groups[g].1[c] = true);
        }
        for (members, used) in groups {
            let start = out.sides.len() as u32;
            out.sides.extend(&members);
            let sides = (start, out.sides.len() as u32);
            let rest = push(
                &mut out.cells,
                &mut unit.cells.iter().map(|c| c.index()).filter(|&c| !used[c]),
            );
            out.groups.push(Group { sides, rest });
        }
    }
    out
}

/// Every unit's cells, concatenated (each unit has exactly N cells).
fn unit_cells(units: &Units) -> Box<[u32]> {
    units
        .units()
        .iter()
        .flat_map(|u| u.cells.iter().map(|c| c.index() as u32))
        .collect()
}

/// Unit lists remembered per thread.
const CACHE_SIZE: usize = 8;

thread_local! {
    /// Recently used tables, most recent first, each with the unit-list ids it serves.
    static CACHE: RefCell<Vec<(Vec<u64>, Rc<Tables>)>> = const { RefCell::new(Vec::new()) };
}

/// The tables of `units`, from this thread's cache or built now.
///
/// Looked up by [`Units::id`]; on a miss, an entry with the same shape and the same unit cells (a list
/// rebuilt per puzzle by a careless caller) is reused rather than rebuilt, when neither has relations
/// or cages (those differ from puzzle to puzzle under the same units).
pub(crate) fn tables_for(units: &Units) -> Rc<Tables> {
    let id = units.id();
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(i) = cache.iter().position(|(ids, _)| ids.contains(&id)) {
            let entry = cache.remove(i);
            let tables = Rc::clone(&entry.1);
            cache.insert(0, entry);
            return tables;
        }
        let shape = units.shape();
        let cells = unit_cells(units);
        let plain = !units.has_extras();
        if let Some(i) = cache.iter().position(|(_, t)| {
            plain
                && t.rules.is_none()
                && t.n == shape.n()
                && t.cells == shape.cells()
                && t.unit_cells == cells
        }) {
            let mut entry = cache.remove(i);
            if entry.0.len() < 16 {
                entry.0.push(id);
            } else {
                entry.0 = vec![id];
            }
            let tables = Rc::clone(&entry.1);
            cache.insert(0, entry);
            return tables;
        }
        let tables = Rc::new(Tables::build(units));
        cache.insert(0, (vec![id], Rc::clone(&tables)));
        cache.truncate(CACHE_SIZE);
        tables
    })
}

/// What a dead end adds to a cell's branching weight under clue rules, against the cell priorities
/// of [`seeds`], which thus weigh less than one dead end: they order cells the conflicts have not
/// told apart yet.
pub(crate) const SEED_UNIT: u32 = 256;

/// Under clue rules, per cell, [`SEED_UNIT`] plus its priority: the sizes of the units, groups,
/// renban lines, lines and relations holding it, and per cage or sum `max(2N - size, N)` (plus the
/// size for a cage). As sigh's engine seeds its conflict scores with cell priorities
/// (`optimizer.js`, `_computeCellPriorities`: each handler adds its priority, by default its size,
/// sums favouring small cages) so that the search starts where the rules meet; here the priority
/// weighs less than a dead end (a tie-breaker among cells with the same weight per candidate).
/// Empty without clue rules: killers, jigsaws and non-consecutive pairs keep plain dom/wdeg.
fn seeds(units: &Units) -> Box<[u32]> {
    if !units.has_clue_rules() {
        return Box::new([]);
    }
    let n = units.shape().n() as u32;
    let mut w = vec![SEED_UNIT; units.shape().cells()];
    let mut add = |cells: &[Cell], p: u32| {
        for c in cells {
            w[c.index()] += p;
        }
    };
    let sum = |len: u32| (2 * n).saturating_sub(len).max(n);
    for u in units.units() {
        add(&u.cells, u.cells.len() as u32);
    }
    for g in units.groups() {
        add(&g.cells, g.cells.len() as u32);
    }
    for l in units.window_rules() {
        add(&l.cells, l.cells.len() as u32);
    }
    for l in units.lines() {
        add(&l.cells, l.cells.len() as u32);
    }
    for c in units.cages() {
        let len = c.cells.len() as u32;
        add(&c.cells, sum(len) + len);
    }
    for s in units.sums() {
        add(&s.cells, sum(s.cells.len() as u32));
    }
    for r in units.relations().iter().filter(|r| !r.kind.is_variant()) {
        add(&[r.a, r.b], 2);
    }
    w.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    #[test]
    fn flat_tables_match_the_unit_list() {
        let units = Units::standard(Shape::new(2, 3).unwrap());
        let t = Tables::build(&units);
        assert_eq!((t.n, t.cells, t.units), (6, 36, 18));
        // 2x3 boxes: each row crosses 2 boxes in 3 cells, each column 3 boxes in 2 cells.
        assert_eq!(t.pairs.len(), 6 * 2 + 6 * 3);
        // Rows: one group each; columns: one; boxes: their rows, their columns.
        assert_eq!(t.groups.len(), 6 + 6 + 2 * 6);
        assert!(t.groups.iter().all(|g| g.rest.0 == g.rest.1));
        for c in 0..36 {
            let cell = crate::grid::Cell::new(c);
            let peers: Vec<usize> = t.peers(c).iter().map(|&p| p as usize).collect();
            let expect: Vec<usize> = units.peers(cell).iter().map(|p| p.index()).collect();
            assert_eq!(peers, expect);
            assert_eq!(t.units_of(c).len(), 3);
            for &u in t.units_of(c) {
                assert!(t.unit(u as usize).contains(&(c as u32)));
            }
        }
    }

    #[test]
    fn cache_reuses_by_id_and_by_content() {
        let shape = Shape::new(3, 3).unwrap();
        let a = Units::standard(shape);
        let t1 = tables_for(&a);
        let t2 = tables_for(&a.clone());
        assert!(Rc::ptr_eq(&t1, &t2));
        // A separately built but identical list reuses the same tables.
        let b = Units::standard(shape);
        assert_ne!(a.id(), b.id());
        assert!(Rc::ptr_eq(&t1, &tables_for(&b)));
        // A different shape does not.
        let c = Units::standard(Shape::new(2, 2).unwrap());
        assert!(!Rc::ptr_eq(&t1, &tables_for(&c)));
    }
}
