//! The constraint model, the rules of a grid: units (rows, columns, boxes; diagonals, windows, groups,
//! jigsaw regions) of N cells that hold each digit once, with peers; beside them groups of fewer cells
//! that hold different digits (the rows of a rectangular grid, say), the pairwise relations and killer
//! cages of variants, and the clues of variant puzzles with the primitives they are lowered into (see
//! `rules.rs` and `clue.rs`).
//!
//! Both backends, the encoder and the verifier read this one value; each reasons about it in its own
//! way.

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::clue::Clue;
use crate::constraint::{Cage, LineRule, Relation, SumRule, Variant, WindowRule};
use crate::grid::{Cell, Digit, DigitSet, Grid, Shape, filled_bits};

/// What kind of group a unit is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum UnitKind {
    /// A row, top to bottom.
    Row,
    /// A column, left to right.
    Col,
    /// A box, numbered row-major.
    Block,
    /// A diagonal (X-sudoku): index 0 runs from r1c1 down to rNcN, index 1 from r1cN down to rNc1.
    Diagonal,
    /// A windoku window, numbered row-major.
    Window,
    /// A disjoint group: the cells at one position in every box, numbered by that position.
    Group,
    /// A jigsaw region (in place of a box), numbered as the region map gives them.
    Region,
    /// The cells of a clue that must differ (an all-different clue, a lunchbox, …), numbered by the
    /// clue.
    Clue,
}

/// A unit's identity: its kind and its 0-based number among units of that kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct UnitName {
    /// Row, column or box.
    pub kind: UnitKind,
    /// 0-based number among units of this kind.
    pub index: usize,
}

impl fmt::Display for UnitName {
    /// `row 1`, `column 1`, `box 1`: 1-based, for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.kind {
            UnitKind::Row => "row",
            UnitKind::Col => "column",
            UnitKind::Block => "box",
            UnitKind::Diagonal if self.index == 0 => return f.write_str("main diagonal"),
            UnitKind::Diagonal => return f.write_str("anti-diagonal"),
            UnitKind::Window => "window",
            UnitKind::Group => "disjoint group",
            UnitKind::Region => "region",
            UnitKind::Clue => "the cells of clue",
        };
        write!(f, "{word} {}", self.index + 1)
    }
}

/// A group of N cells that must hold each digit 1..=N exactly once.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Unit {
    /// Which unit this is.
    pub name: UnitName,
    /// Its N cells, in reading order.
    pub cells: Vec<Cell>,
}

/// Two givens with the same digit in one unit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clash {
    /// The unit holding both.
    pub unit: UnitName,
    /// The repeated digit.
    pub digit: Digit,
    /// The first cell holding it (reading order).
    pub first: Cell,
    /// The second cell holding it.
    pub second: Cell,
}

/// The rules of a grid: its unit list, with each cell's units and peers precomputed, and the relations
/// and cages of variants beside it (empty for the standard rules). Every backend receives this one
/// value.
#[derive(Clone, Debug)]
pub struct Units {
    /// Unique per construction (clones share it): lets backends cache tables derived from this list.
    id: u64,
    shape: Shape,
    units: Vec<Unit>,
    /// For each cell, the indices (into `units`) of the units that contain it.
    units_of: Vec<Vec<u32>>,
    /// For each cell, every other cell sharing a unit with it, ascending, without repeats: built on
    /// the first call of [`Units::peers`] (about 1,160 cells per cell at 400x400, 740 MB in all, which
    /// code for large grids avoids by walking the units).
    peers: OnceLock<Vec<Vec<Cell>>>,
    /// Built by [`Units::standard`]: rows, columns and boxes in that order, nothing else.
    standard: bool,
    /// For each cell its three units, when every cell has three (the standard rules) and their
    /// indices fit: the clash check's flat table. Empty otherwise.
    three: Vec<[u8; 3]>,
    /// The data-free variants these rules were built with (sorted), for describing them.
    variants: Vec<Variant>,
    /// Whether jigsaw regions replace the boxes.
    jigsaw: bool,
    /// Pairs of cells that must differ or must not hold consecutive digits (see [`Relation`]).
    relations: Vec<Relation>,
    /// Killer cages.
    cages: Vec<Cage>,
    /// Groups of fewer than N cells holding different digits (checked like units, reasoned about as
    /// "must differ" pairs).
    groups: Vec<Unit>,
    /// The clues of a variant puzzle, as stated (what the verifier checks).
    clues: Vec<Clue>,
    /// What the clues lowered into besides groups and relations: weighted sums, lines, candidate sets
    /// (one per cell, ascending by cell).
    sums: Vec<SumRule>,
    lines: Vec<LineRule>,
    window_rules: Vec<WindowRule>,
    candidates: Vec<(Cell, DigitSet)>,
    /// The value of digit 1: 1, or 0 on a zero-based grid.
    base: i32,
}

/// What [`Units::with_extras`] adds to a unit list.
#[derive(Default)]
pub(crate) struct Extras {
    pub variants: Vec<Variant>,
    pub jigsaw: bool,
    pub relations: Vec<Relation>,
    pub cages: Vec<Cage>,
    pub groups: Vec<Unit>,
    pub clues: Vec<Clue>,
    pub sums: Vec<SumRule>,
    pub lines: Vec<LineRule>,
    pub window_rules: Vec<WindowRule>,
    pub candidates: Vec<(Cell, DigitSet)>,
    pub base: i32,
}

impl Units {
    /// The classic rules: N rows, N columns, N boxes (in that order). For the other shapes (see
    /// [`Shape::grid`]) the rows, columns and boxes of N cells, and those of fewer as groups.
    pub fn standard(shape: Shape) -> Units {
        if !shape.is_classic() {
            let (houses, groups) = shape_units(shape, true);
            return Units::from_units(shape, houses).with_extras(Extras {
                groups,
                base: 1,
                ..Extras::default()
            });
        }
        let (units, _) = shape_units(shape, true);
        Units {
            standard: true,
            ..Units::from_units(shape, units)
        }
    }

    /// A unit list from explicit units (each of N distinct cells of the grid).
    ///
    /// # Panics
    /// If a unit does not have exactly N cells or names a cell outside the grid: unit lists are built by
    /// code, not read from users.
    pub fn from_units(shape: Shape, units: Vec<Unit>) -> Units {
        let cells = shape.cells();
        let mut units_of = vec![Vec::new(); cells];
        for (u, unit) in units.iter().enumerate() {
            assert_eq!(unit.cells.len(), shape.n(), "unit {} size", unit.name);
            for cell in &unit.cells {
                assert!(cell.index() < cells, "unit {} leaves the grid", unit.name);
                units_of[cell.index()].push(u as u32);
            }
        }
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let three = units_of
            .iter()
            .map(|u| match u[..] {
                [a, b, c] => Some([
                    u8::try_from(a).ok()?,
                    u8::try_from(b).ok()?,
                    u8::try_from(c).ok()?,
                ]),
                _ => None,
            })
            .collect::<Option<Vec<[u8; 3]>>>()
            .unwrap_or_default();
        Units {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            shape,
            units,
            units_of,
            peers: OnceLock::new(),
            standard: false,
            three,
            variants: Vec::new(),
            jigsaw: false,
            relations: Vec::new(),
            cages: Vec::new(),
            groups: Vec::new(),
            clues: Vec::new(),
            sums: Vec::new(),
            lines: Vec::new(),
            window_rules: Vec::new(),
            candidates: Vec::new(),
            base: 1,
        }
    }

    /// These units with the variants' relations and cages, the groups and the clues beside them
    /// (built by [`Units::rules`](crate::RulesBuilder), which validates them).
    pub(crate) fn with_extras(self, extras: Extras) -> Units {
        Units {
            variants: extras.variants,
            jigsaw: extras.jigsaw,
            relations: extras.relations,
            cages: extras.cages,
            groups: extras.groups,
            clues: extras.clues,
            sums: extras.sums,
            lines: extras.lines,
            window_rules: extras.window_rules,
            candidates: extras.candidates,
            base: extras.base,
            ..self
        }
    }

    /// Groups of fewer than N cells that hold different digits: the rows, columns or boxes of a
    /// shape with more digits than they have cells, and what clues ask to differ.
    pub fn groups(&self) -> &[Unit] {
        &self.groups
    }

    /// The clues of a variant puzzle, as stated.
    pub fn clues(&self) -> &[Clue] {
        &self.clues
    }

    /// The weighted sums the clues lowered into.
    pub fn sums(&self) -> &[SumRule] {
        &self.sums
    }

    /// The lines (automata) the clues lowered into.
    pub fn lines(&self) -> &[LineRule] {
        &self.lines
    }

    /// The window rules (renban lines) the clues lowered into.
    pub fn window_rules(&self) -> &[WindowRule] {
        &self.window_rules
    }

    /// The candidate sets the clues lowered into: at most one per cell, ascending by cell.
    pub fn candidates(&self) -> &[(Cell, DigitSet)] {
        &self.candidates
    }

    /// The value of digit 1: 1, or 0 on a zero-based grid (whose digits are written 0 to N − 1).
    pub fn base(&self) -> i32 {
        self.base
    }

    /// The value of 1-based digit `d` (see [`Units::base`]).
    pub fn value(&self, d: u16) -> i32 {
        i32::from(d) - 1 + self.base
    }

    /// The pairwise relations (anti-knight, anti-king, non-consecutive), each pair once with `a < b`;
    /// "must differ" pairs that already share a unit are left out. Empty for the standard rules.
    pub fn relations(&self) -> &[Relation] {
        &self.relations
    }

    /// The killer cages. Empty for the standard rules.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The data-free variants these rules were built with (diagonals, windoku, …), in documentation
    /// order.
    pub fn variants(&self) -> &[Variant] {
        &self.variants
    }

    /// Whether jigsaw regions replace the boxes.
    pub fn is_jigsaw(&self) -> bool {
        self.jigsaw
    }

    /// Whether there are rules besides the units: relations, cages, groups or what clues lowered
    /// into.
    pub fn has_extras(&self) -> bool {
        !self.relations.is_empty()
            || !self.cages.is_empty()
            || !self.groups.is_empty()
            || !self.sums.is_empty()
            || !self.lines.is_empty()
            || !self.window_rules.is_empty()
            || !self.candidates.is_empty()
    }

    /// Whether there is more than units, "must differ" relations and cages (the rules the native
    /// backend knew before clues): groups, other relations, sums, lines or candidate sets.
    pub fn has_clue_rules(&self) -> bool {
        !self.groups.is_empty()
            || !self.sums.is_empty()
            || !self.lines.is_empty()
            || !self.window_rules.is_empty()
            || !self.candidates.is_empty()
            || self.relations.iter().any(|r| !r.kind.is_variant())
    }

    /// The region of each cell (row-major, 0-based in unit order), when jigsaw regions replace the
    /// boxes.
    pub fn regions(&self) -> Option<Vec<usize>> {
        if !self.jigsaw {
            return None;
        }
        let mut map = vec![0; self.shape.cells()];
        for unit in &self.units {
            if unit.name.kind == UnitKind::Region {
                unit.cells
                    .iter()
                    .for_each(|c| map[c.index()] = unit.name.index);
            }
        }
        Some(map)
    }

    /// An identifier unique to this unit list (clones keep it): backends may key caches of derived
    /// tables on it, so that a batch of puzzles under one list builds them once.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Whether this list was built by [`Units::standard`]: the N rows, N columns and N boxes, in that
    /// order (a checker may then test them arithmetically). A list built with [`Units::from_units`]
    /// says `false`, whatever its units.
    pub fn is_standard(&self) -> bool {
        self.standard
    }

    /// The grid shape these units are for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// All units.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The indices into [`Units::units`] of the units containing `cell`.
    pub fn units_of(&self, cell: Cell) -> &[u32] {
        &self.units_of[cell.index()]
    }

    /// Whether cells `a` and `b` must hold different digits: they share a unit, a group or a cage.
    pub fn must_differ(&self, a: Cell, b: Cell) -> bool {
        a != b
            && (self.peers(a).binary_search(&b).is_ok()
                || together(self.groups().iter().map(|g| &g.cells[..]), a, b)
                || together(self.cages().iter().map(|c| &c.cells[..]), a, b))
    }

    /// The cells of `sum` in groups whose digits must differ, with each group's weights. Cells that
    /// weigh alike are grouped largest unit first: the unit holding the most of them still left
    /// makes a group (which then takes any other such cell that differs from all of its cells),
    /// until no unit holds two; each cell left then joins, in order, the first group whose cells
    /// all differ from it and weigh alike. Large groups are what bound a sum: a pill arrow of 32
    /// cells through six boxes has the smallest sum 98 when grouped by boxes (the largest two-digit
    /// pill: everything follows), 80 when each cell joins the first group it fits, in line order.
    pub fn sum_groups<'s>(&self, sum: &'s SumRule) -> Vec<(Vec<Cell>, &'s Vec<i32>)> {
        let mut groups: Vec<(Vec<Cell>, &Vec<i32>)> = Vec::new();
        // Cells not grouped yet, as indices into the sum.
        let mut left: Vec<usize> = (0..sum.cells.len()).collect();
        loop {
            // The (unit, weights) holding the most cells left: (count, unit, a cell's index).
            let mut counts: Vec<(usize, u32, usize)> = Vec::new();
            for &i in &left {
                let c = sum.cells[i];
                for &u in self.units_of(c) {
                    let same = |&(_, v, j): &(usize, u32, usize)| {
                        v == u && sum.weights[j] == sum.weights[i]
                    };
                    match counts.iter_mut().find(|e| same(e)) {
                        Some(e) => e.0 += 1,
                        None => counts.push((1, u, i)),
                    }
                }
            }
            let Some(&(count, unit, rep)) =
                counts.iter().max_by_key(|e| (e.0, std::cmp::Reverse(e.1)))
            else {
                break;
            };
            if count < 2 {
                break;
            }
            let w = &sum.weights[rep];
            let mut cells: Vec<Cell> = Vec::new();
            left.retain(|&i| {
                let c = sum.cells[i];
                let fits = &sum.weights[i] == w
                    && self.units[unit as usize].cells.contains(&c)
                    && !cells.contains(&c);
                if fits {
                    cells.push(c);
                }
                !fits
            });
            left.retain(|&i| {
                let c = sum.cells[i];
                let fits = &sum.weights[i] == w && cells.iter().all(|&x| self.must_differ(x, c));
                if fits {
                    cells.push(c);
                }
                !fits
            });
            groups.push((cells, w));
        }
        for i in left {
            let (c, w) = (sum.cells[i], &sum.weights[i]);
            match groups
                .iter_mut()
                .find(|(cells, gw)| *gw == w && cells.iter().all(|&x| self.must_differ(x, c)))
            {
                Some((cells, _)) => cells.push(c),
                None => groups.push((vec![c], w)),
            }
        }
        groups
    }

    /// The cells sharing at least one unit with `cell` (not `cell` itself), ascending.
    ///
    /// The first call builds the lists of every cell: cheap up to 64x64, but about 740 MB at 400x400,
    /// where walking [`Units::units_of`] and each unit's cells does without them.
    pub fn peers(&self, cell: Cell) -> &[Cell] {
        &self.peers.get_or_init(|| self.build_peers())[cell.index()]
    }

    /// Every cell's peers (see [`Units::peers`]).
    fn build_peers(&self) -> Vec<Vec<Cell>> {
        let cells = self.units_of.len();
        let mut mark = vec![usize::MAX; cells];
        (0..cells)
            .map(|i| {
                let mut p = Vec::new();
                for &u in &self.units_of[i] {
                    for &c in &self.units[u as usize].cells {
                        if c.index() != i && mark[c.index()] != i {
                            mark[c.index()] = i;
                            p.push(c);
                        }
                    }
                }
                p.sort_unstable();
                p
            })
            .collect()
    }

    /// The first pair of equal givens in one unit, in unit order then reading order, if any: the one
    /// clash check of the crate (the readers reject such puzzles, the verifier names the repeated digit
    /// of a candidate solution with it).
    ///
    /// A first pass runs over the givens only, one bit mask per unit, so a clash-free puzzle costs a
    /// few operations per given; only a grid with a clash is scanned again in unit order to name the
    /// first pair. Values outside 1..=N are not digits and are ignored.
    pub fn find_clash(&self, grid: &Grid) -> Option<Clash> {
        if grid.shape() != self.shape || (self.groups.is_empty() && !self.has_clash(grid.values()))
        {
            return None;
        }
        let mut seen: Vec<Option<Cell>> = vec![None; self.shape.n() + 1];
        for unit in self.units.iter().chain(&self.groups) {
            seen.iter_mut().for_each(|s| *s = None);
            for &cell in &unit.cells {
                if let Some(d) = grid.get(cell) {
                    let Some(slot) = seen.get_mut(d.get() as usize) else {
                        continue;
                    };
                    match *slot {
                        Some(first) => {
                            return Some(Clash {
                                unit: unit.name,
                                digit: d,
                                first,
                                second: cell,
                            });
                        }
                        None => *slot = Some(cell),
                    }
                }
            }
        }
        None
    }

    /// Whether some unit holds a value of 1..=N twice: the givens in reading order, one mask per unit.
    fn has_clash(&self, values: &[u16]) -> bool {
        if self.shape.n() > 64 {
            return self.has_clash_wide(values);
        }
        if self.standard && (self.shape.box_rows(), self.shape.box_cols()) == (3, 3) {
            return has_clash_9x9(values);
        }
        // The masks live on the stack, no larger than needed (27 units for 9x9, 192 for 64x64).
        match self.units.len() {
            0..=32 => self.has_clash_in::<32>(values),
            33..=192 => self.has_clash_in::<192>(values),
            _ => self.has_clash_in::<0>(values),
        }
    }

    /// [`Units::has_clash`] with `K` masks on the stack (`K` = 0: on the heap), for N ≤ 64.
    fn has_clash_in<const K: usize>(&self, values: &[u16]) -> bool {
        let mut stack = [0u64; K];
        let mut heap = Vec::new();
        let seen: &mut [u64] = if K == 0 {
            heap.resize(self.units.len(), 0);
            &mut heap
        } else {
            &mut stack[..]
        };
        let mut dup = 0u64;
        each_given(values, |cell, v| {
            let bit = 1u64.checked_shl(u32::from(v) - 1).unwrap_or(0);
            if let Some(units) = self.three.get(cell) {
                for &u in units {
                    if let Some(mask) = seen.get_mut(usize::from(u)) {
                        dup |= *mask & bit;
                        *mask |= bit;
                    }
                }
            } else {
                for &u in self.units_of.get(cell).map_or(&[][..], Vec::as_slice) {
                    if let Some(mask) = seen.get_mut(u as usize) {
                        dup |= *mask & bit;
                        *mask |= bit;
                    }
                }
            }
        });
        dup != 0
    }

    /// [`Units::has_clash`] for N > 64: ⌈N/64⌉ words of mask per unit, on the heap.
    fn has_clash_wide(&self, values: &[u16]) -> bool {
        let n = self.shape.n();
        let words = n.div_ceil(64);
        let mut seen = vec![0u64; self.units.len() * words];
        for (cell, &v) in values.iter().enumerate() {
            if v == 0 || usize::from(v) > n {
                continue;
            }
            let (w, bit) = (usize::from(v - 1) / 64, 1u64 << ((v - 1) % 64));
            for &u in self.units_of.get(cell).map_or(&[][..], Vec::as_slice) {
                if let Some(mask) = seen.get_mut(u as usize * words + w) {
                    if *mask & bit != 0 {
                        return true;
                    }
                    *mask |= bit;
                }
            }
        }
        false
    }
}

/// For each band of a 9x9 grid and each of its 27 cells (padded to 32) the bits of the cell's row
/// (0-8), column (9-17) and box (18-26).
const UNIT_BITS_9X9: [[u32; 32]; 3] = {
    let mut t = [[0u32; 32]; 3];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[i / 27][i % 27] = 1 << r | 1 << (9 + c) | 1 << (18 + r / 3 * 3 + c / 3);
        i += 1;
    }
    t
};

/// [`Units::has_clash`] for the standard 9x9 units: per digit the units it was seen in, each given
/// adding the bits of its row, column and box (a table). A band at a time: its givens as a bit mask
/// ([`filled_bits`]), then a few steps per given.
fn has_clash_9x9(values: &[u16]) -> bool {
    let (bands, _) = values.as_chunks::<27>();
    let mut seen = [0u32; 16];
    let mut dup = 0u32;
    for (band, bits) in bands.iter().zip(&UNIT_BITS_9X9) {
        let mut filled = filled_bits(band);
        while filled != 0 {
            let j = (filled.trailing_zeros() & 31) as usize;
            filled &= filled - 1;
            // A 9x9 grid's values are at most 9 (`Grid` checks): the mask only keeps the index in range.
            let v = band.get(j).map_or(0, |&v| usize::from(v) & 15);
            let m = &mut seen[v];
            dup |= *m & bits[j];
            *m |= bits[j];
        }
    }
    dup != 0
}

/// Calls `f` with each filled cell and its value, in reading order: 32 cells at a time, the filled
/// ones as a bit mask ([`filled_bits`]), then one step per given, so that a 17-clue grid costs 17
/// steps and no branch per cell.
#[inline(always)]
fn each_given(values: &[u16], mut f: impl FnMut(usize, u16)) {
    for (k, chunk) in values.chunks(32).enumerate() {
        let mut filled = filled_bits(chunk);
        while filled != 0 {
            let j = filled.trailing_zeros() as usize;
            filled &= filled - 1;
            if let Some(&v) = chunk.get(j) {
                f(32 * k + j, v);
            }
        }
    }
}

/// The rows, columns and boxes of `shape` (in that order), split into those of N cells (each digit
/// once) and those of fewer (different digits); `boxes`: with the boxes.
pub(crate) fn shape_units(shape: Shape, boxes: bool) -> (Vec<Unit>, Vec<Unit>) {
    let (rows, cols, n) = (shape.rows(), shape.cols(), shape.n());
    let mut all = Vec::with_capacity(rows + cols + n);
    for r in 0..rows {
        all.push(Unit {
            name: UnitName {
                kind: UnitKind::Row,
                index: r,
            },
            cells: (0..cols).map(|c| Cell::at(shape, r, c)).collect(),
        });
    }
    for c in 0..cols {
        all.push(Unit {
            name: UnitName {
                kind: UnitKind::Col,
                index: c,
            },
            cells: (0..rows).map(|r| Cell::at(shape, r, c)).collect(),
        });
    }
    if let (true, Some((br, bc))) = (boxes, shape.boxes()) {
        let across = cols / bc;
        for b in 0..(rows / br) * across {
            let (top, left) = ((b / across) * br, (b % across) * bc);
            all.push(Unit {
                name: UnitName {
                    kind: UnitKind::Block,
                    index: b,
                },
                cells: (0..br * bc)
                    .map(|i| Cell::at(shape, top + i / bc, left + i % bc))
                    .collect(),
            });
        }
    }
    all.into_iter().partition(|u| u.cells.len() == n)
}

/// Whether cells `a` and `b` are both in one of `sets` (groups, cages: cells that must differ).
pub(crate) fn together<'s>(mut sets: impl Iterator<Item = &'s [Cell]>, a: Cell, b: Cell) -> bool {
    sets.any(|cells| cells.contains(&a) && cells.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_9x9() {
        let u = Units::standard(Shape::new(3, 3).unwrap());
        assert_eq!(u.units().len(), 27);
        for i in 0..81 {
            assert_eq!(u.peers(Cell::new(i)).len(), 20);
            assert_eq!(u.units_of(Cell::new(i)).len(), 3);
        }
        // Box 5 (0-based 4) is the centre: rows 4-6, columns 4-6 (1-based).
        let centre = &u.units()[18 + 4];
        assert_eq!(centre.name.to_string(), "box 5");
        assert_eq!(centre.cells[0], Cell::at(u.shape(), 3, 3));
        assert_eq!(centre.cells[8], Cell::at(u.shape(), 5, 5));
    }

    #[test]
    fn rectangular_boxes() {
        // 6x6, boxes 2 rows x 3 columns.
        let s = Shape::new(2, 3).unwrap();
        let u = Units::standard(s);
        let b1 = &u.units()[12 + 1];
        let expect: Vec<Cell> = [(0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5)]
            .iter()
            .map(|&(r, c)| Cell::at(s, r, c))
            .collect();
        assert_eq!(b1.cells, expect);
        // Peers: row 5 + col 5 + box 6 - overlaps = 5 + 5 + 5 - 2 - 1 = ... count directly.
        assert_eq!(u.peers(Cell::new(0)).len(), 5 + 5 + (6 - 1 - 2 - 1));
        // Every cell is in exactly one box.
        let mut count = [0; 36];
        for unit in &u.units()[12..] {
            for c in &unit.cells {
                count[c.index()] += 1;
            }
        }
        assert!(count.iter().all(|&c| c == 1));
    }

    #[test]
    fn every_supported_shape_partitions() {
        for r in 2..=8 {
            for c in 2..=8 {
                let Ok(s) = Shape::new(r, c) else { continue };
                let u = Units::standard(s);
                let n = s.n();
                // Peers: row (n-1) + column (n-1) + box cells outside own row and column.
                let expect = 2 * (n - 1) + (n - r - c + 1);
                assert!(
                    (0..s.cells()).all(|i| u.peers(Cell::new(i)).len() == expect),
                    "{s}"
                );
            }
        }
    }

    #[test]
    fn clash_names_unit_and_cells() {
        let s = Shape::new(2, 2).unwrap();
        let u = Units::standard(s);
        let mut g = Grid::empty(s);
        g.set(Cell::at(s, 0, 0), Digit::new(3));
        g.set(Cell::at(s, 1, 1), Digit::new(3));
        let clash = u.find_clash(&g).unwrap();
        assert_eq!(clash.unit.to_string(), "box 1");
        assert_eq!(clash.first.name(s), "r1c1");
        assert_eq!(clash.second.name(s), "r2c2");
        g.set(Cell::at(s, 1, 1), Digit::new(4));
        assert!(u.find_clash(&g).is_none());
    }

    #[test]
    fn clash_check_above_64() {
        // 100x100 (10x10 boxes): digit 99 twice in box 1 (not in one row or column), digit 65 once in
        // each of two rows, a value 1..=64 in another word of the mask.
        let s = Shape::new(10, 10).unwrap();
        let u = Units::standard(s);
        let mut g = Grid::empty(s);
        g.set(Cell::at(s, 0, 0), Digit::new(65));
        g.set(Cell::at(s, 1, 0), Digit::new(1));
        g.set(Cell::at(s, 5, 50), Digit::new(65));
        assert!(u.find_clash(&g).is_none());
        g.set(Cell::at(s, 2, 3), Digit::new(99));
        g.set(Cell::at(s, 7, 8), Digit::new(99));
        let clash = u.find_clash(&g).unwrap();
        assert_eq!(clash.unit.to_string(), "box 1");
        assert_eq!(clash.digit.get(), 99);
        assert_eq!(
            (clash.first.name(s), clash.second.name(s)),
            ("r3c4".into(), "r8c9".into())
        );
        // 2x200 boxes: 400 digits, 400 units of each kind.
        let s = Shape::new(2, 200).unwrap();
        let u = Units::standard(s);
        let mut g = Grid::empty(s);
        g.set(Cell::at(s, 399, 0), Digit::new(400));
        g.set(Cell::at(s, 0, 0), Digit::new(400));
        assert_eq!(u.find_clash(&g).unwrap().unit.to_string(), "column 1");
    }

    /// The 9x9 table path against the general one (the same units built by hand): every pair of
    /// givens in a 9x9 grid, each digit pair, clash or not; and a published solution with one cell
    /// changed to each value.
    #[test]
    fn clash_check_9x9_agrees_with_the_general_path() {
        let s = Shape::new(3, 3).unwrap();
        let standard = Units::standard(s);
        let by_hand = Units::from_units(s, standard.units().to_vec());
        assert!(standard.is_standard() && !by_hand.is_standard());
        let mut clashes = 0;
        for a in 0..81 {
            for b in (a + 1)..81 {
                for (x, y) in [(1, 1), (5, 5), (9, 9), (3, 7)] {
                    let mut g = Grid::empty(s);
                    g.set(Cell::new(a), Digit::new(x));
                    g.set(Cell::new(b), Digit::new(y));
                    let fast = standard.find_clash(&g);
                    assert_eq!(fast, by_hand.find_clash(&g), "cells {a}, {b}: {x}, {y}");
                    clashes += usize::from(fast.is_some());
                }
            }
        }
        // Each cell has 20 peers: 810 pairs of peers, each clashing for the three equal digits.
        assert_eq!(clashes, 810 * 3);
        // Project Euler 96, grid 01's published solution.
        let solved = Grid::from_values(
            s,
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
                .bytes()
                .map(|b| u16::from(b - b'0'))
                .collect(),
        )
        .unwrap();
        assert!(standard.find_clash(&solved).is_none());
        for cell in 0..81 {
            for v in 0..=9 {
                let mut g = solved.clone();
                g.set(Cell::new(cell), Digit::new(v));
                let fast = standard.find_clash(&g);
                assert_eq!(fast, by_hand.find_clash(&g), "cell {cell} = {v}");
                assert_eq!(fast.is_some(), v != 0 && v != solved.values()[cell]);
            }
        }
    }

    #[test]
    fn clash_check_on_every_path() {
        // Standard units (the flat three-units table), a unit list with a cell in four units (the
        // general path), and the first clash in unit order when there are several.
        let s = Shape::new(2, 2).unwrap();
        let mut g = Grid::empty(s);
        g.set(Cell::at(s, 3, 0), Digit::new(2));
        g.set(Cell::at(s, 3, 3), Digit::new(2));
        g.set(Cell::at(s, 0, 3), Digit::new(2));
        let clash = Units::standard(s).find_clash(&g).unwrap();
        assert_eq!(clash.unit.to_string(), "row 4");
        assert_eq!(
            (clash.first.name(s), clash.second.name(s)),
            ("r4c1".into(), "r4c4".into())
        );
        let mut units = Units::standard(s).units().to_vec();
        let diagonal = (0..4).map(|i| Cell::at(s, i, i)).collect();
        units.push(Unit {
            name: UnitName {
                kind: UnitKind::Block,
                index: 4,
            },
            cells: diagonal,
        });
        let x = Units::from_units(s, units);
        let mut d = Grid::empty(s);
        d.set(Cell::at(s, 0, 0), Digit::new(1));
        d.set(Cell::at(s, 3, 3), Digit::new(1));
        assert!(Units::standard(s).find_clash(&d).is_none());
        assert_eq!(x.find_clash(&d).unwrap().unit.to_string(), "box 5");
        // A grid of another shape has no clash under these units.
        assert!(
            x.find_clash(&Grid::empty(Shape::new(3, 3).unwrap()))
                .is_none()
        );
    }
}
