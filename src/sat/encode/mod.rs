//! CNF encodings of a puzzle under a unit list: [`Encoding`] × [`Amo`], written into any
//! [`ClauseSink`].
//!
//! Every encoding reads the [`Units`] list, never rows/columns/boxes directly, so a variant is just
//! another unit list. Cell variables use the fixed numbering of [`crate::sat::vars`] in the plain
//! encodings and its candidate numbering in the pruned one.
//!
//! # Sizes
//! With N the grid side, |U| the number of units (3N for the standard rules) and A(k) / X(k) the
//! clauses / auxiliary variables of one at-most-one constraint over k literals (see [`amo_size`]:
//! pairwise A = k(k−1)/2, X = 0), the formulas before givens have:
//!
//! | encoding | variables | clauses |
//! |---|---|---|
//! | minimal | N³ + \|U\|·N·X(N) | N² + \|U\|·N·A(N) |
//! | efficient | N³ + (N² + \|U\|·N)·X(N) | N² + (N² + \|U\|·N)·A(N) |
//! | extended | N³ + (N² + \|U\|·N)·X(N) | N² + \|U\|·N + (N² + \|U\|·N)·A(N) |
//!
//! For the standard rules (|U| = 3N) and pairwise: minimal N² + 3N³(N−1)/2, efficient
//! N² + 2N³(N−1), extended 4N² + 2N³(N−1); for 9x9: 8829, 11745 and 11988 clauses over 729
//! variables, the published figures. Each given adds one unit clause. The pruned encoding's size
//! depends on the givens (see [`Encoding::Pruned`]).

mod amo;
mod efficient;
mod extended;
mod minimal;
pub(crate) mod pruned;

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub use amo::amo_size;
pub(crate) use amo::at_most_one;
pub use pruned::candidates;
pub(crate) use pruned::number_candidates;

use crate::grid::{Cell, Digit, Grid, Shape};
use crate::sat::sink::ClauseSink;
use crate::sat::vars::{AuxVars, CellVars, cell_lit};
use crate::units::Units;

/// A CNF encoding of the Sudoku rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Encoding {
    /// Lynce & Ouaknine 2006, "Sudoku as a SAT Problem" (minimal encoding): each cell holds at least
    /// one digit; each unit holds each digit at most once. 8829 clauses for 9x9.
    Minimal,
    /// Weber 2005, "A SAT-based Sudoku solver": the minimal encoding plus each cell holds at most one
    /// digit. 11745 clauses for 9x9.
    Efficient,
    /// Lynce & Ouaknine 2006 (extended encoding): the efficient encoding plus each unit holds each
    /// digit at least once. 11988 clauses for 9x9.
    Extended,
    /// After Kwon & Jain 2006, "Optimized CNF encoding for Sudoku puzzles": the extended encoding
    /// simplified by the givens while encoding — no variables for (cell, digit) pairs ruled out by a
    /// given in a peer, satisfied clauses dropped, false literals removed — so the formula shrinks
    /// with every given. Only the open candidates have variables, numbered 1, 2, … in row-major
    /// cell order and increasing digit order within a cell. The default: the fastest measured (see
    /// BENCHMARKS.md).
    #[default]
    Pruned,
}

impl Encoding {
    /// Every encoding, in documentation order.
    pub const ALL: [Encoding; 4] = [
        Encoding::Minimal,
        Encoding::Efficient,
        Encoding::Extended,
        Encoding::Pruned,
    ];

    /// The name used on the command line and in DIMACS comments: `minimal`, `efficient`,
    /// `extended`, `pruned`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Minimal => "minimal",
            Encoding::Efficient => "efficient",
            Encoding::Extended => "extended",
            Encoding::Pruned => "pruned",
        }
    }

    /// The clause groups of a plain (not pruned) encoding.
    fn parts(self) -> Option<Parts> {
        match self {
            Encoding::Minimal => Some(minimal::PARTS),
            Encoding::Efficient => Some(efficient::PARTS),
            Encoding::Extended => Some(extended::PARTS),
            Encoding::Pruned => None,
        }
    }

    /// The exact size of this encoding of a puzzle with `givens` givens under `units`, for the plain
    /// encodings (closed form, see the module docs); `None` for [`Encoding::Pruned`], whose size
    /// depends on where the givens are (count it with [`encode`] into a
    /// [`FormulaStats`](crate::sat::FormulaStats)).
    pub fn predicted_size(self, units: &Units, amo: Amo, givens: usize) -> Option<PredictedSize> {
        let parts = self.parts()?;
        let n = units.shape().n() as u64;
        let unit_digits = units.units().len() as u64 * n;
        let (a, x) = amo_size(amo, n as usize);
        let amos = unit_digits + if parts.cell_amo { n * n } else { 0 };
        let alos = n * n + if parts.unit_alo { unit_digits } else { 0 };
        Some(PredictedSize {
            variables: n * n * n + amos * x,
            clauses: alos + amos * a + givens as u64,
            // Every at-most-one clause (of every scheme) is binary.
            literals: alos * n + 2 * amos * a + givens as u64,
        })
    }
}

/// The size of a plain encoding, from its closed form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredictedSize {
    /// Variables (cell and auxiliary).
    pub variables: u64,
    /// Clauses, givens included.
    pub clauses: u64,
    /// Literal occurrences.
    pub literals: u64,
}

/// How the at-most-one constraints are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Amo {
    /// One binary clause per pair: k(k−1)/2 clauses, no new variables. Grows as N⁴ over the grid.
    Pairwise,
    /// Sinz 2005, "Towards an optimal CNF encoding of Boolean cardinality constraints" (sequential
    /// counter): 3k − 4 clauses and k − 1 new variables (pairwise below 6 literals).
    Sequential,
    /// Chen 2010, "A new SAT encoding of the at-most-one constraint" (2-product): about 2k + 4√k
    /// clauses and 2√k new variables (pairwise below 7 literals).
    Product,
    /// Klieber & Kwon 2007, "Efficient CNF encoding for selecting 1 from N objects" (commander
    /// encoding, its at-most-one part, groups of three): about 3k clauses and k/2 new variables
    /// (pairwise below 7 literals).
    Commander,
    /// Nguyen & Mai 2015, "A new method to encode the at-most-one constraint into SAT" (bimander
    /// encoding, groups of two): ⌊k/2⌋ + k·⌈log₂(k/2)⌉ clauses and ⌈log₂(k/2)⌉ new variables
    /// (pairwise below 7 literals).
    Bimander,
    /// Chosen by the constraint's size k (measured, see BENCHMARKS.md): pairwise up to 16
    /// literals, where it is the fastest and no larger than a few dozen clauses; the commander
    /// encoding above, which keeps large units linear. The default.
    #[default]
    Auto,
}

impl Amo {
    /// Every at-most-one scheme.
    pub const ALL: [Amo; 6] = [
        Amo::Pairwise,
        Amo::Sequential,
        Amo::Product,
        Amo::Commander,
        Amo::Bimander,
        Amo::Auto,
    ];

    /// The name: `pairwise`, `sequential`, `product`, `commander`, `bimander`, `auto`.
    pub fn name(self) -> &'static str {
        match self {
            Amo::Auto => "auto",
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
            Amo::Product => "product",
            Amo::Commander => "commander",
            Amo::Bimander => "bimander",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Amo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the choices.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("unknown {what} {given:?}; expected one of: {expected}")]
pub struct UnknownName {
    /// `encoding` or `amo`.
    pub what: &'static str,
    /// The text given.
    pub given: String,
    /// The choices, comma-separated.
    pub expected: &'static str,
}

impl FromStr for Encoding {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Encoding, UnknownName> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName {
                what: "encoding",
                given: s.to_string(),
                expected: "minimal, efficient, extended, pruned",
            })
    }
}

impl FromStr for Amo {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Amo, UnknownName> {
        Amo::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName {
                what: "amo",
                given: s.to_string(),
                expected: "pairwise, sequential, product, commander, bimander, auto",
            })
    }
}

/// Why a puzzle cannot be encoded.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The puzzle and the unit list are for different shapes.
    #[error("puzzle shape {puzzle} does not match unit list shape {units}")]
    ShapeMismatch {
        /// The puzzle's shape.
        puzzle: Shape,
        /// The unit list's shape.
        units: Shape,
    },
}

/// What an encoder produced besides its clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Encoded {
    /// Cell variables (DIMACS 1 ..= `cell_vars`): N³ in the fixed numbering, the open candidates in
    /// the pruned encoding's.
    pub cell_vars: usize,
    /// Auxiliary variables created (DIMACS `cell_vars` + 1 ..= `cell_vars` + `aux_vars`).
    pub aux_vars: usize,
    /// The largest DIMACS variable number the encoding may mention: `cell_vars` + `aux_vars`.
    pub max_var: usize,
}

/// Writes the CNF of `puzzle` under `units` in `encoding` with `amo` into `sink`. The plain encodings
/// use the fixed numbering and end with one unit clause per given; the pruned one uses the candidate
/// numbering (see [`Encoding::Pruned`]), folds the givens in, and writes an empty clause when the
/// givens already contradict each other.
///
/// # Errors
/// [`EncodeError::ShapeMismatch`] if the puzzle is not of the unit list's shape.
pub fn encode<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    sink: &mut S,
) -> Result<Encoded, EncodeError> {
    encode_numbered(units, puzzle, encoding, amo, &mut CellVars::default(), sink)
}

/// [`encode`], leaving the numbering of the cell variables in `vars`.
pub(crate) fn encode_numbered<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    vars: &mut CellVars,
    sink: &mut S,
) -> Result<Encoded, EncodeError> {
    if puzzle.shape() != units.shape() {
        return Err(EncodeError::ShapeMismatch {
            puzzle: puzzle.shape(),
            units: units.shape(),
        });
    }
    let n = units.shape().n();
    let aux_vars = match encoding.parts() {
        Some(parts) => {
            *vars = CellVars::fixed(n);
            let mut aux = AuxVars::new(n);
            encode_plain(units, puzzle, parts, amo, &mut aux, sink);
            aux.count()
        }
        None => pruned::encode_pruned(units, puzzle, amo, vars, sink),
    };
    Ok(Encoded {
        cell_vars: vars.count(),
        aux_vars,
        max_var: vars.count() + aux_vars,
    })
}

/// Clause groups of the plain encodings. Cell at-least-one and unit at-most-one are always present.
#[derive(Clone, Copy, Debug)]
struct Parts {
    /// Each cell at most one digit (efficient, extended).
    cell_amo: bool,
    /// Each unit each digit at least once (extended).
    unit_alo: bool,
}

/// The plain encodings: per cell (at least one digit, then at most one), per unit and digit (at
/// least one position, then at most one), then the givens as unit clauses.
fn encode_plain<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    parts: Parts,
    amo: Amo,
    aux: &mut AuxVars,
    sink: &mut S,
) {
    let shape = units.shape();
    let n = shape.n();
    let digits: Vec<Digit> = (1..=n as u16).filter_map(Digit::new).collect();
    let mut lits = Vec::with_capacity(n);
    for i in 0..shape.cells() {
        let cell = Cell::new(i);
        lits.clear();
        lits.extend(digits.iter().map(|&d| cell_lit(n, cell, d)));
        sink.add_clause(&lits);
        if parts.cell_amo {
            at_most_one(&lits, amo, aux, sink);
        }
    }
    for unit in units.units() {
        for &d in &digits {
            lits.clear();
            lits.extend(unit.cells.iter().map(|&c| cell_lit(n, c, d)));
            if parts.unit_alo {
                sink.add_clause(&lits);
            }
            at_most_one(&lits, amo, aux, sink);
        }
    }
    for i in 0..shape.cells() {
        let cell = Cell::new(i);
        if let Some(d) = puzzle.get(cell) {
            sink.add_clause(&[cell_lit(n, cell, d)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::sink::FormulaStats;

    /// Counts of the empty puzzle: (variables, clauses, literals).
    pub(super) fn counts(shape: Shape, e: Encoding, amo: Amo) -> (u64, u64, u64) {
        let units = Units::standard(shape);
        let mut s = FormulaStats::new();
        let enc = encode(&units, &Grid::empty(shape), e, amo, &mut s).unwrap();
        assert_eq!(s.max_var as usize, enc.max_var, "{e} {amo} {shape}");
        (s.variables, s.clauses, s.literals)
    }

    #[test]
    fn names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(e.name().parse::<Encoding>().unwrap(), e);
        }
        for a in Amo::ALL {
            assert_eq!(a.to_string().parse::<Amo>().unwrap(), a);
        }
        assert_eq!(" Extended".parse::<Encoding>().unwrap(), Encoding::Extended);
        let e = "tiny".parse::<Encoding>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown encoding \"tiny\"; expected one of: minimal, efficient, extended, pruned"
        );
        assert!("pair".parse::<Amo>().is_err());
    }

    /// The closed forms of the module docs agree with what the encoders write, for every plain
    /// encoding × amo on every box shape up to 5x5, with and without givens.
    #[test]
    fn closed_forms_match_the_encoders() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (3, 3),
            (3, 4),
            (4, 4),
            (4, 5),
            (5, 5),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let units = Units::standard(shape);
            let mut puzzle = Grid::empty(shape);
            puzzle.set(Cell::new(0), Digit::new(1));
            puzzle.set(Cell::new(shape.cells() - 1), Digit::new(2));
            for e in [Encoding::Minimal, Encoding::Efficient, Encoding::Extended] {
                for amo in Amo::ALL {
                    let mut s = FormulaStats::new();
                    encode(&units, &puzzle, e, amo, &mut s).unwrap();
                    let p = e.predicted_size(&units, amo, 2).unwrap();
                    assert_eq!(
                        (p.variables, p.clauses, p.literals),
                        (s.variables, s.clauses, s.literals),
                        "{e} {amo} {shape}"
                    );
                }
            }
        }
        let units = Units::standard(Shape::new(3, 3).unwrap());
        assert!(
            Encoding::Pruned
                .predicted_size(&units, Amo::Pairwise, 0)
                .is_none()
        );
    }

    #[test]
    fn shape_mismatch_is_an_error() {
        let units = Units::standard(Shape::new(2, 2).unwrap());
        let puzzle = Grid::empty(Shape::new(2, 3).unwrap());
        let mut s = FormulaStats::new();
        for e in Encoding::ALL {
            assert!(matches!(
                encode(&units, &puzzle, e, Amo::Pairwise, &mut s),
                Err(EncodeError::ShapeMismatch { .. })
            ));
        }
    }
}
