//! The rules of a variant grid beside its units, checked: [`RulesBuilder`] takes variants, jigsaw
//! regions, killer cages (the data of [`constraint`](crate::constraint)) and clues as setters state
//! them ([`Clue`]), lowers the clues (`clue.rs`), and builds the one [`Units`] value every backend
//! receives, or says why it cannot ([`RulesError`]).
//!
//! The all-different constraints stay units (rows, columns, boxes or regions, diagonals, windows,
//! groups): every backend already reasons about units. What is not a unit is kept beside them: the
//! relations between two cells (must differ, or must not hold consecutive digits) and the cages (a sum,
//! distinct digits). Each backend, the encoder and the verifier read these lists and implement their
//! own reasoning about them.

use thiserror::Error;

use crate::clue::{
    Clue, LowerCtx, LowerError, Lowered, combined_sums, lower, lower_variant, plain_sum,
};
use crate::constraint::{Cage, Relation, RelationKind, Variant, sum_range};
use crate::grid::{Cell, DigitSet, Shape};
use crate::units::{Extras, Unit, UnitKind, UnitName, Units, shape_units, together};

/// The largest grid side anti-taxicab is supported on: its pairs of cells (each pair at most a
/// side apart) grow as the square of the cells, and the SAT backend's clauses with them (36x36:
/// ~0.4 GB; 64x64 took 4.4 GB).
pub(crate) const MAX_ANTI_TAXICAB: usize = 36;

/// Why a set of rules cannot be built. Indices are 0-based (regions numbered as given, cages in the
/// order added), so that a reader can point at the text that gave them.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// A variant not defined on this box shape.
    #[error("{variant} needs square boxes (4x4, 9x9, 16x16, …); this grid has {shape} boxes")]
    VariantShape {
        /// The variant.
        variant: Variant,
        /// The grid's box shape.
        shape: Shape,
    },
    /// A variant supported only up to a grid side: 64 where both backends keep its digit sets in
    /// 64-bit words (non-consecutive), 36 for anti-taxicab (its pairs grow as the square of the
    /// cells).
    #[error("{variant} is supported on grids up to {max}x{max}; this grid is {n}x{n}")]
    VariantTooLarge {
        /// The variant.
        variant: Variant,
        /// Grid side.
        n: usize,
        /// The largest side supported.
        max: usize,
    },
    /// A killer cage on a grid of more than 64 digits (both backends keep a cage's digit sets in
    /// 64-bit words).
    #[error("killer cages are supported on grids up to 64x64; this grid is {n}x{n}")]
    CageGridTooLarge {
        /// 0-based cage index (the first cage).
        cage: usize,
        /// Grid side.
        n: usize,
    },
    /// A region map of the wrong length.
    #[error("region map has {found} cells, but a {n}x{n} grid has {}", n * n)]
    RegionCells {
        /// Cells in the map.
        found: usize,
        /// Grid side.
        n: usize,
    },
    /// More regions than N (regions are numbered from 0, so this is the first index ≥ N; on the other
    /// shapes, cells / N).
    #[error("region map has more than {n} regions: a {n}x{n} grid has {n} regions of {n} cells")]
    RegionCount {
        /// The first region index that is too many.
        region: usize,
        /// Grid side.
        n: usize,
    },
    /// A clue that names a cell outside the grid (0-based position in the clue's cell list).
    #[error("{keyword}: cell {position} is outside the grid")]
    ClueCell {
        /// 0-based clue index.
        clue: usize,
        /// The clue's keyword.
        keyword: &'static str,
        /// 0-based position of the cell in the clue's list.
        position: usize,
    },
    /// A clue that cannot hold as stated, or whose line is too complex to lay out.
    #[error("{keyword}: {reason}")]
    Clue {
        /// 0-based clue index.
        clue: usize,
        /// The clue's keyword.
        keyword: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// Clues on a grid of more than 64 digits (the native backend keeps their digit sets in 64-bit
    /// words).
    #[error("clues are supported on grids up to 64x64; this grid has {n} digits")]
    ClueGridTooLarge {
        /// Digits.
        n: usize,
    },
    /// A variant that needs the digits 1 to N, on a zero-based grid.
    #[error("{variant} needs the digits 1-N, not a zero-based grid")]
    VariantBase {
        /// The variant.
        variant: Variant,
    },
    /// A region with other than N cells.
    #[error("region {} has {cells} cells; every region of a {n}x{n} grid has {n}", region + 1)]
    RegionSize {
        /// 0-based region index.
        region: usize,
        /// Its cells.
        cells: usize,
        /// Grid side.
        n: usize,
    },
    /// A cage without cells.
    #[error("cage {} has no cells", cage + 1)]
    CageEmpty {
        /// 0-based cage index.
        cage: usize,
    },
    /// A cage cell outside the grid.
    #[error("cell r{}c{} is outside the {rows}x{cols} grid", row + 1, col + 1)]
    CellOutside {
        /// 0-based cage index.
        cage: usize,
        /// 0-based position of the cell in the cage's list.
        position: usize,
        /// 0-based row given.
        row: usize,
        /// 0-based column given.
        col: usize,
        /// The grid's rows.
        rows: usize,
        /// The grid's columns.
        cols: usize,
    },
    /// A cell listed twice in one cage.
    #[error("cell {cell} is listed twice in one cage")]
    CellTwice {
        /// 0-based cage index.
        cage: usize,
        /// 0-based position of the second mention.
        position: usize,
        /// The cell, `rXcY`.
        cell: String,
    },
    /// More cells than there are digits: they cannot all differ.
    #[error(
        "cage at {anchor} has {cells} cells, but a {n}x{n} grid has only {n} digits to make them distinct"
    )]
    CageTooLarge {
        /// 0-based cage index.
        cage: usize,
        /// Its first cell, `rXcY`.
        anchor: String,
        /// Its cells.
        cells: usize,
        /// Grid side.
        n: usize,
    },
    /// A sum that no set of distinct digits reaches.
    #[error(
        "cage at {anchor} (sum {sum}): {cells} distinct digits of 1-{n} sum to {min}..={max}, never to {sum}"
    )]
    ImpossibleSum {
        /// 0-based cage index.
        cage: usize,
        /// Its first cell, `rXcY`.
        anchor: String,
        /// The sum asked for.
        sum: u32,
        /// Its cells.
        cells: usize,
        /// Grid side.
        n: usize,
        /// The smallest reachable sum.
        min: u32,
        /// The largest reachable sum.
        max: u32,
    },
}

/// Builds the rules of a grid: the standard units (or jigsaw regions in place of the boxes), the
/// variants' extra units and relations, and the cages; [`RulesBuilder::build`] validates them.
///
/// ```
/// use satdoku::{Shape, Units, Variant};
/// let shape = Shape::new(3, 3).unwrap();
/// let units = Units::rules(shape)
///     .variant(Variant::Diagonals)
///     .variant(Variant::AntiKnight)
///     .cage(15, [(0, 0), (0, 1), (1, 0)])
///     .build()
///     .unwrap();
/// assert_eq!(units.units().len(), 27 + 2);
/// assert_eq!(units.cages().len(), 1);
/// assert!(!units.relations().is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct RulesBuilder {
    shape: Shape,
    variants: Vec<Variant>,
    regions: Option<Vec<usize>>,
    cages: Vec<(u32, Vec<(usize, usize)>)>,
    clues: Vec<Clue>,
    no_boxes: bool,
    keep_boxes: bool,
    base: i32,
}

impl Units {
    /// A builder of variant rules for grids of `shape` (with nothing added, the standard rules).
    pub fn rules(shape: Shape) -> RulesBuilder {
        RulesBuilder {
            shape,
            variants: Vec::new(),
            regions: None,
            cages: Vec::new(),
            clues: Vec::new(),
            no_boxes: false,
            keep_boxes: false,
            base: 1,
        }
    }
}

impl RulesBuilder {
    /// Adds a variant (once; adding it again changes nothing).
    pub fn variant(mut self, variant: Variant) -> RulesBuilder {
        if !self.variants.contains(&variant) {
            self.variants.push(variant);
        }
        self
    }

    /// Jigsaw: the region of each cell (row-major, numbered 0..N; on the other shapes 0..cells / N),
    /// replacing the boxes. Each region has N cells.
    pub fn regions(mut self, region_of_cell: Vec<usize>) -> RulesBuilder {
        self.regions = Some(region_of_cell);
        self
    }

    /// Keep the boxes beside jigsaw regions ([`RulesBuilder::regions`] replaces them otherwise): the
    /// regions are extra units.
    pub fn keep_boxes(mut self) -> RulesBuilder {
        self.keep_boxes = true;
        self
    }

    /// No boxes: rows and columns only (and what else is added).
    pub fn no_boxes(mut self) -> RulesBuilder {
        self.no_boxes = true;
        self
    }

    /// A zero-based grid: digit d has the value d − 1 (digits written 0 to N − 1), which the clues'
    /// values are.
    pub fn zero_based(mut self) -> RulesBuilder {
        self.base = 0;
        self
    }

    /// Adds a clue (its cells of this builder's shape).
    pub fn clue(mut self, clue: Clue) -> RulesBuilder {
        self.clues.push(clue);
        self
    }

    /// Adds a killer cage: distinct digits in `cells` (0-based row, column) adding up to `sum`.
    pub fn cage(
        mut self,
        sum: u32,
        cells: impl IntoIterator<Item = (usize, usize)>,
    ) -> RulesBuilder {
        self.cages.push((sum, cells.into_iter().collect()));
        self
    }

    /// The rules, validated.
    ///
    /// # Errors
    /// A [`RulesError`] naming the first problem: a variant that does not fit the box shape, a region
    /// map that does not partition the grid into N regions of N cells, a cage that is empty, leaves
    /// the grid, lists a cell twice, has more cells than digits, or has a sum no distinct digits reach.
    pub fn build(self) -> Result<Units, RulesError> {
        let shape = self.shape;
        let n = shape.n();
        for &v in &self.variants {
            if !v.fits(shape) {
                return Err(RulesError::VariantShape { variant: v, shape });
            }
            let digit_sets = matches!(
                v,
                Variant::NonConsecutive
                    | Variant::StrictKropki
                    | Variant::StrictXv
                    | Variant::AntiTaxicab
                    | Variant::DutchFlatmates
            );
            let max = if v == Variant::AntiTaxicab {
                MAX_ANTI_TAXICAB
            } else {
                64
            };
            if digit_sets && n > max {
                return Err(RulesError::VariantTooLarge { variant: v, n, max });
            }
            if matches!(v, Variant::AntiTaxicab | Variant::DutchFlatmates) && self.base != 1 {
                return Err(RulesError::VariantBase { variant: v });
            }
        }
        if !self.cages.is_empty() && n > 64 {
            return Err(RulesError::CageGridTooLarge { cage: 0, n });
        }
        if !self.clues.is_empty() && n > 64 {
            return Err(RulesError::ClueGridTooLarge { n });
        }
        let cages = self.checked_cages()?;
        self.check_clues()?;
        let plain = self.variants.is_empty()
            && self.regions.is_none()
            && cages.is_empty()
            && self.clues.is_empty()
            && !self.no_boxes
            && self.base == 1;
        if plain {
            return Ok(Units::standard(shape));
        }
        let boxes = (self.regions.is_none() || self.keep_boxes) && !self.no_boxes;
        let (mut units, mut groups) = shape_units(shape, boxes);
        // The regions of each cell that region-sum lines follow: the boxes, else the jigsaw's.
        let box_map = || -> Vec<usize> {
            (0..shape.cells())
                .map(|i| {
                    let c = Cell::new(i);
                    shape.block_of(c.row(shape), c.col(shape))
                })
                .collect()
        };
        let mut region_map: Option<Vec<usize>> = None;
        if let (Some(regions), false) = (&self.regions, boxes && shape.boxes().is_some()) {
            units.extend(region_units(shape, regions)?);
            region_map = Some(regions.clone());
        } else if let Some(regions) = &self.regions {
            // Regions beside the boxes: region-sum lines follow the boxes.
            units.extend(region_units(shape, regions)?);
            region_map = Some(box_map());
        } else if boxes && shape.boxes().is_some() {
            region_map = Some(box_map());
        }
        let mut variants = self.variants.clone();
        variants.sort_unstable();
        for &v in &variants {
            let (full, part): (Vec<Unit>, Vec<Unit>) = variant_units(shape, v)
                .into_iter()
                .partition(|u| u.cells.len() == n);
            units.extend(full);
            groups.extend(part);
        }
        // The clues, lowered.
        let ctx = LowerCtx {
            shape,
            base: self.base,
            regions: region_map.as_deref(),
        };
        let mut lowered = Lowered::default();
        for (i, clue) in self.clues.iter().enumerate() {
            let (before, lines) = (lowered.groups.len(), lowered.lines.len());
            lower(clue, &ctx, &mut lowered).map_err(|e| clue_error(i, clue, e))?;
            if let [line] = &mut lowered.lines[lines..] {
                line.clue = Some(i);
            }
            // A diagonal clue is a diagonal unit (of N cells) or group.
            for (k, mut cells) in lowered.groups.drain(before..).enumerate() {
                // A cell named twice is one cell that differs from the others.
                let mut seen = Vec::with_capacity(cells.len());
                cells.retain(|c| {
                    let first = !seen.contains(c);
                    seen.push(*c);
                    first
                });
                let kind = match clue {
                    Clue::Diagonal { .. } => UnitKind::Diagonal,
                    _ => UnitKind::Clue,
                };
                let index = match clue {
                    Clue::Diagonal { anti } => usize::from(*anti),
                    _ => i + k,
                };
                let unit = Unit {
                    name: UnitName { kind, index },
                    cells,
                };
                if unit.cells.len() == n {
                    units.push(unit);
                } else {
                    groups.push(unit);
                }
            }
        }
        let base = Units::from_units(shape, units);
        // Cells that hold different digits whatever the variants (`Units::must_differ` of the
        // rules being built): a unit's, a group's, a cage's.
        let differ = |a: Cell, b: Cell| {
            base.must_differ(a, b)
                || together(groups.iter().map(|g| &g.cells[..]), a, b)
                || together(cages.iter().map(|c| &c.cells[..]), a, b)
        };
        for &v in &variants {
            lower_variant(v, &ctx, &self.clues, &differ, &mut lowered).map_err(|e| {
                RulesError::Clue {
                    clue: 0,
                    keyword: v.name(),
                    reason: match e {
                        LowerError::TooLarge => {
                            "needs lines simple enough to lay out (their automata grew too large)"
                        }
                        LowerError::Invalid(r) => r,
                    },
                }
            })?;
        }
        let mut relations = Vec::new();
        for &v in &variants {
            relations.extend(variant_relations(&base, v));
        }
        relations.extend(lowered.relations);
        // One candidate set per cell: the intersection of what the clues allow.
        let mut candidates: Vec<(Cell, DigitSet)> = Vec::new();
        lowered.candidates.sort_by_key(|&(c, _)| c);
        for (c, set) in lowered.candidates {
            match candidates.last_mut() {
                Some((last, have)) if *last == c => {
                    for d in have.iter() {
                        if !set.contains(d) {
                            have.remove(d);
                        }
                    }
                }
                _ => candidates.push((c, set)),
            }
        }
        // Derived sums, implied by the rules: sums of plain values combined two by two.
        let mut plain: Vec<(Vec<Cell>, i64)> = lowered
            .sums
            .iter()
            .filter_map(|s| plain_sum(s, self.base))
            .collect();
        if self.base == 1 {
            plain.extend(cages.iter().map(|c| (c.cells.clone(), i64::from(c.sum))));
        }
        let derived = combined_sums(
            n,
            self.base,
            &plain,
            |a, b| base.must_differ(a, b),
            |s| base.sum_groups(s).iter().map(|(g, _)| g.len()).collect(),
        );
        lowered.sums.extend(derived);
        Ok(base.with_extras(Extras {
            variants,
            jigsaw: self.regions.is_some(),
            relations,
            cages,
            groups,
            clues: self.clues,
            sums: lowered.sums,
            lines: lowered.lines,
            window_rules: lowered.window_rules,
            candidates,
            base: self.base,
        }))
    }

    /// Every clue names cells of the grid (a line may pass a cell twice: a loop, say).
    fn check_clues(&self) -> Result<(), RulesError> {
        let cells = self.shape.cells();
        for (i, clue) in self.clues.iter().enumerate() {
            let keyword = clue.keyword();
            if let Some(position) = clue.cells().iter().position(|c| c.index() >= cells) {
                return Err(RulesError::ClueCell {
                    clue: i,
                    keyword,
                    position,
                });
            }
        }
        Ok(())
    }

    fn checked_cages(&self) -> Result<Vec<Cage>, RulesError> {
        let n = self.shape.n();
        let mut out = Vec::with_capacity(self.cages.len());
        for (cage, (sum, cells)) in self.cages.iter().enumerate() {
            if cells.is_empty() {
                return Err(RulesError::CageEmpty { cage });
            }
            let mut list: Vec<Cell> = Vec::with_capacity(cells.len());
            for (position, &(row, col)) in cells.iter().enumerate() {
                let (rows, cols) = (self.shape.rows(), self.shape.cols());
                if row >= rows || col >= cols {
                    return Err(RulesError::CellOutside {
                        cage,
                        position,
                        row,
                        col,
                        rows,
                        cols,
                    });
                }
                let cell = Cell::at(self.shape, row, col);
                if list.contains(&cell) {
                    return Err(RulesError::CellTwice {
                        cage,
                        position,
                        cell: cell.name(self.shape),
                    });
                }
                list.push(cell);
            }
            list.sort_unstable();
            let anchor = list[0].name(self.shape);
            let Some((min, max)) = sum_range(list.len(), n) else {
                return Err(RulesError::CageTooLarge {
                    cage,
                    anchor,
                    cells: list.len(),
                    n,
                });
            };
            if !(min..=max).contains(sum) {
                return Err(RulesError::ImpossibleSum {
                    cage,
                    anchor,
                    sum: *sum,
                    cells: list.len(),
                    n,
                    min,
                    max,
                });
            }
            out.push(Cage {
                sum: *sum,
                cells: list,
            });
        }
        Ok(out)
    }
}

/// A clue's lowering error as a [`RulesError`].
fn clue_error(clue: usize, c: &Clue, e: LowerError) -> RulesError {
    RulesError::Clue {
        clue,
        keyword: c.keyword(),
        reason: match e {
            LowerError::TooLarge => {
                "needs a line simple enough to lay out (its automaton grew too large)"
            }
            LowerError::Invalid(r) => r,
        },
    }
}

/// The jigsaw regions as units, numbered as given: cells / N regions of N cells (N of them on the
/// classic shapes).
fn region_units(shape: Shape, regions: &[usize]) -> Result<Vec<Unit>, RulesError> {
    let n = shape.n();
    if regions.len() != shape.cells() {
        return Err(RulesError::RegionCells {
            found: regions.len(),
            n,
        });
    }
    let count = shape.cells() / n;
    let mut cells: Vec<Vec<Cell>> = vec![Vec::with_capacity(n); count];
    for (i, &r) in regions.iter().enumerate() {
        match cells.get_mut(r) {
            Some(list) => list.push(Cell::new(i)),
            None => {
                return Err(RulesError::RegionCount {
                    region: r,
                    n: count,
                });
            }
        }
    }
    if let Some((region, list)) = cells.iter().enumerate().find(|(_, l)| l.len() != n) {
        return Err(RulesError::RegionSize {
            region,
            cells: list.len(),
            n,
        });
    }
    Ok(cells
        .into_iter()
        .enumerate()
        .map(|(index, cells)| Unit {
            name: UnitName {
                kind: UnitKind::Region,
                index,
            },
            cells,
        })
        .collect())
}

/// The extra units of a variant (none for the relation variants).
fn variant_units(shape: Shape, variant: Variant) -> Vec<Unit> {
    let n = shape.n();
    let (br, bc) = (shape.box_rows(), shape.box_cols());
    let unit = |kind, index, cells: Vec<Cell>| Unit {
        name: UnitName { kind, index },
        cells,
    };
    match variant {
        Variant::Diagonals => {
            // A square grid: its side (N on the classic shapes).
            let k = shape.rows();
            vec![
                unit(
                    UnitKind::Diagonal,
                    0,
                    (0..k).map(|i| Cell::at(shape, i, i)).collect(),
                ),
                unit(
                    UnitKind::Diagonal,
                    1,
                    (0..k).map(|i| Cell::at(shape, i, k - 1 - i)).collect(),
                ),
            ]
        }
        Variant::Windoku => {
            // Square boxes of side b: windows of b x b starting at 1, b + 2, 2b + 3, … (0-based), one
            // row and column of gap between them and at the edges; (b - 1)² windows.
            let b = br;
            let starts: Vec<usize> = (0..b.saturating_sub(1)).map(|k| 1 + k * (b + 1)).collect();
            let mut out = Vec::new();
            for &top in &starts {
                for &left in &starts {
                    let cells = (0..n)
                        .map(|i| Cell::at(shape, top + i / b, left + i % b))
                        .collect();
                    out.push(unit(UnitKind::Window, out.len(), cells));
                }
            }
            out
        }
        Variant::DisjointGroups => {
            // Position (r, c) inside each box; boxes row-major, `across` of them side by side.
            let across = shape.cols() / bc.max(1);
            let boxes = shape.cells() / (br * bc).max(1);
            (0..br * bc)
                .map(|g| {
                    let (r, c) = (g / bc, g % bc);
                    let cells = (0..boxes)
                        .map(|b| Cell::at(shape, (b / across) * br + r, (b % across) * bc + c))
                        .collect();
                    unit(UnitKind::Group, g, cells)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The relations of a variant: every pair of cells at the variant's offsets that does not already
/// share a unit of `units` (non-consecutive pairs always share a row or column and are all kept: they
/// ask for more than different digits).
fn variant_relations(units: &Units, variant: Variant) -> Vec<Relation> {
    let shape = units.shape();
    let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
    let (kind, offsets): (RelationKind, &[(isize, isize)]) = match variant {
        Variant::AntiKnight => (RelationKind::Knight, &[(1, -2), (1, 2), (2, -1), (2, 1)]),
        Variant::AntiKing => (RelationKind::King, &[(1, -1), (1, 1)]),
        Variant::NonConsecutive => (RelationKind::NonConsecutive, &[(0, 1), (1, 0)]),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            for &(dr, dc) in offsets {
                let (r2, c2) = (r + dr, c + dc);
                if !(0..rows).contains(&r2) || !(0..cols).contains(&c2) {
                    continue;
                }
                let a = Cell::at(shape, r as usize, c as usize);
                let b = Cell::at(shape, r2 as usize, c2 as usize);
                if kind.is_differ() && units.peers(a).binary_search(&b).is_ok() {
                    continue;
                }
                out.push(Relation {
                    kind,
                    a: a.min(b),
                    b: a.max(b),
                });
            }
        }
    }
    out.sort_unstable_by_key(|r| (r.a, r.b));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn names_and_aliases() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        assert_eq!("Diagonal".parse::<Variant>().unwrap(), Variant::Diagonals);
        assert_eq!("hyper".parse::<Variant>().unwrap(), Variant::Windoku);
        assert_eq!(
            "anti_consecutive".parse::<Variant>().unwrap(),
            Variant::NonConsecutive
        );
        let e = "thermo".parse::<Variant>().unwrap_err();
        assert!(
            e.to_string().starts_with("unknown variant \"thermo\""),
            "{e}"
        );
    }

    #[test]
    fn digit_set_rules_stop_at_64x64() {
        // 64x64 (8x8 boxes) takes them; 81x81 (9x9 boxes) is refused with a named error, while
        // the rules without digit sets (knight, king, diagonals) still build there.
        assert!(
            Units::rules(s(8, 8))
                .variant(Variant::NonConsecutive)
                .cage(3, [(0, 0), (0, 1)])
                .build()
                .is_ok()
        );
        let e = Units::rules(s(9, 9))
            .variant(Variant::NonConsecutive)
            .build()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "non-consecutive is supported on grids up to 64x64; this grid is 81x81"
        );
        let e = Units::rules(s(9, 9))
            .cage(3, [(0, 0), (0, 1)])
            .build()
            .unwrap_err();
        assert_eq!(e, RulesError::CageGridTooLarge { cage: 0, n: 81 });
        assert!(
            Units::rules(s(9, 9))
                .variant(Variant::AntiKnight)
                .variant(Variant::AntiKing)
                .variant(Variant::Diagonals)
                .build()
                .is_ok()
        );
    }

    #[test]
    fn nothing_added_is_the_standard_list() {
        let u = Units::rules(s(3, 3)).build().unwrap();
        assert!(u.is_standard());
        assert!(!u.has_extras());
    }

    #[test]
    fn windoku_windows_of_9x9_and_16x16() {
        let u = Units::rules(s(3, 3))
            .variant(Variant::Windoku)
            .build()
            .unwrap();
        let windows: Vec<&Unit> = u
            .units()
            .iter()
            .filter(|u| u.name.kind == UnitKind::Window)
            .collect();
        assert_eq!(windows.len(), 4);
        // The first window: rows and columns 2-4 (1-based).
        let names: Vec<String> = windows[0].cells.iter().map(|c| c.name(s(3, 3))).collect();
        assert_eq!(names[0], "r2c2");
        assert_eq!(names[8], "r4c4");
        assert_eq!(windows[3].cells[0].name(s(3, 3)), "r6c6");
        assert_eq!(windows[3].cells[8].name(s(3, 3)), "r8c8");
        let u16 = Units::rules(s(4, 4))
            .variant(Variant::Windoku)
            .build()
            .unwrap();
        assert_eq!(u16.units().len(), 48 + 9);
        let e = Units::rules(s(2, 3))
            .variant(Variant::Windoku)
            .build()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "windoku needs square boxes (4x4, 9x9, 16x16, …); this grid has 2x3 boxes"
        );
    }

    #[test]
    fn diagonals_and_disjoint_groups() {
        let shape = s(2, 3);
        let u = Units::rules(shape)
            .variant(Variant::DisjointGroups)
            .variant(Variant::Diagonals)
            .build()
            .unwrap();
        // Diagonals come before groups (variants in documentation order), after rows, cols, boxes.
        assert_eq!(u.units()[18].name.to_string(), "main diagonal");
        assert_eq!(u.units()[19].name.to_string(), "anti-diagonal");
        assert_eq!(u.units()[19].cells[0].name(shape), "r1c6");
        // Group 1: the top-left cell of every box of 2 rows x 3 columns.
        let g = &u.units()[20];
        assert_eq!(g.name.to_string(), "disjoint group 1");
        let names: Vec<String> = g.cells.iter().map(|c| c.name(shape)).collect();
        assert_eq!(names, ["r1c1", "r1c4", "r3c1", "r3c4", "r5c1", "r5c4"]);
        // Every group is a partition of the grid.
        let mut count = [0; 36];
        for unit in &u.units()[20..] {
            unit.cells.iter().for_each(|c| count[c.index()] += 1);
        }
        assert!(count.iter().all(|&k| k == 1));
    }

    #[test]
    fn relations_skip_pairs_that_share_a_unit() {
        let shape = s(3, 3);
        let u = Units::rules(shape)
            .variant(Variant::AntiKnight)
            .build()
            .unwrap();
        let at = |r, c| Cell::at(shape, r, c);
        // r1c1 and r2c3 share box 1: no relation; r1c1 and r3c2 share box 1 too; r2c3 and r1c5 do not.
        let has = |a: Cell, b: Cell| {
            u.relations()
                .iter()
                .any(|r| (r.a, r.b) == (a.min(b), a.max(b)))
        };
        assert!(!has(at(0, 0), at(1, 2)));
        assert!(has(at(1, 2), at(0, 4)));
        assert!(
            u.relations()
                .iter()
                .all(|r| r.kind == RelationKind::Knight && r.a < r.b)
        );
        // The knight's moves of r5c5 (centre) all leave its box: 8 of them.
        let centre = at(4, 4);
        let k = u
            .relations()
            .iter()
            .filter(|r| r.a == centre || r.b == centre)
            .count();
        assert_eq!(k, 8);
        let nc = Units::rules(shape)
            .variant(Variant::NonConsecutive)
            .build()
            .unwrap();
        // 2 · 9 · 8 orthogonal pairs.
        assert_eq!(nc.relations().len(), 144);
    }

    #[test]
    fn regions_are_validated() {
        let shape = s(2, 2);
        let good = vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
        let u = Units::rules(shape).regions(good.clone()).build().unwrap();
        assert_eq!(u.units()[8].name.to_string(), "region 1");
        assert!(u.is_jigsaw() && !u.is_standard());
        let mut bad = good.clone();
        bad[3] = 0;
        let e = Units::rules(shape).regions(bad).build().unwrap_err();
        assert_eq!(
            e,
            RulesError::RegionSize {
                region: 0,
                cells: 5,
                n: 4
            }
        );
        let mut five = good.clone();
        five[15] = 4;
        assert!(matches!(
            Units::rules(shape).regions(five).build(),
            Err(RulesError::RegionCount { region: 4, n: 4 })
        ));
        assert!(matches!(
            Units::rules(shape).regions(good[..15].to_vec()).build(),
            Err(RulesError::RegionCells { found: 15, n: 4 })
        ));
    }

    #[test]
    fn cages_are_validated() {
        let shape = s(3, 3);
        let build = |sum, cells: &[(usize, usize)]| {
            Units::rules(shape).cage(sum, cells.iter().copied()).build()
        };
        let u = build(3, &[(0, 1), (0, 0)]).unwrap();
        assert_eq!(u.cages()[0].anchor().name(shape), "r1c1");
        assert_eq!(
            build(2, &[(0, 0), (0, 1)]).unwrap_err().to_string(),
            "cage at r1c1 (sum 2): 2 distinct digits of 1-9 sum to 3..=17, never to 2"
        );
        assert_eq!(
            build(5, &[(0, 0), (9, 0)]).unwrap_err().to_string(),
            "cell r10c1 is outside the 9x9 grid"
        );
        assert!(matches!(
            build(5, &[(0, 0), (0, 0)]),
            Err(RulesError::CellTwice { position: 1, .. })
        ));
        assert!(matches!(
            build(5, &[]),
            Err(RulesError::CageEmpty { cage: 0 })
        ));
        let ten: Vec<(usize, usize)> = (0..10).map(|i| (i % 9, i / 9)).collect();
        assert!(matches!(
            build(45, &ten),
            Err(RulesError::CageTooLarge { cells: 10, .. })
        ));
        // A 6x8 grid of 8 digits: row 7 is outside though 7 <= 8, column 8 inside.
        let wide = Shape::grid(6, 8, 8, None).unwrap();
        let build =
            |cells: &[(usize, usize)]| Units::rules(wide).cage(10, cells.iter().copied()).build();
        assert_eq!(
            build(&[(0, 0), (6, 0)]).unwrap_err().to_string(),
            "cell r7c1 is outside the 6x8 grid"
        );
        assert_eq!(build(&[(5, 6), (5, 7)]).unwrap().cages()[0].cells.len(), 2);
        assert_eq!(sum_range(9, 9), Some((45, 45)));
        assert_eq!(sum_range(1, 64), Some((1, 64)));
        assert_eq!(sum_range(3, 2), None);
    }
}
