//! The choices an encoding is made of ([`Encoding`], [`Amo`], [`CageEncoding`]), by name, and why a
//! puzzle cannot be encoded ([`EncodeError`]): what the encoders and their callers share.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::grid::Shape;

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

/// How a killer cage's sum is written (its digits' distinctness is binary clauses either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum CageEncoding {
    /// One selector per set of distinct digits with the cage's size and sum: the direct and support
    /// encodings of a table constraint (Walsh 2000, "SAT v CSP"; Gent 2002, "Arc consistency in
    /// SAT"; selectors as in Bacchus 2007, "GAC via unit propagation"). At most
    /// 20,000 digit sets per cage (long cages of large grids need [`CageEncoding::Sequential`]).
    /// The default: it reasons about a cage's sum and distinct digits together, and was much the
    /// faster measured (see BENCHMARKS.md).
    #[default]
    Combinations,
    /// The partial sums of the cage's cells in order, each a variable per reachable sum, linked both
    /// ways by each cell's digit: the decision-diagram encoding of a linear equation (Abío & Stuckey
    /// 2014, "Encoding linear constraints into SAT"; Eén & Sörensson 2006) laid out as a sequential
    /// counter of sums (Hölldobler, Manthey & Steinke 2012). Linear in the cage's size and sum,
    /// whatever the number of digit sets.
    Sequential,
    /// [`CageEncoding::Combinations`] and what the cages imply with the units: the sums of the rule
    /// of 45 over units and unions of adjacent units (innies and outies; hidden cages as more
    /// selectors, others as weighted sums), and clauses that ban a selected combination's digits
    /// from the rest of a unit holding the cage (see `encode/implied.rs` for the sources).
    Implied,
}

impl CageEncoding {
    /// Every cage encoding.
    pub const ALL: [CageEncoding; 3] = [
        CageEncoding::Combinations,
        CageEncoding::Sequential,
        CageEncoding::Implied,
    ];

    /// The name: `combinations`, `sequential`, `implied`.
    pub fn name(self) -> &'static str {
        match self {
            CageEncoding::Combinations => "combinations",
            CageEncoding::Sequential => "sequential",
            CageEncoding::Implied => "implied",
        }
    }
}

impl fmt::Display for CageEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CageEncoding {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<CageEncoding, UnknownName> {
        CageEncoding::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName {
                what: "cage encoding",
                given: s.to_string(),
                expected: "combinations, sequential, implied",
            })
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
    /// A cage with more digit sets than the combinations encoding writes.
    #[error(
        "cage at {anchor} has more than {max} digit combinations; use the sequential cage encoding"
    )]
    TooManyCombinations {
        /// 0-based cage index.
        cage: usize,
        /// Its first cell, `rXcY`.
        anchor: String,
        /// The most written.
        max: u64,
    },
}

/// Clause groups of the plain encodings. Cell at-least-one and unit at-most-one are always present.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts {
    /// Each cell at most one digit (efficient, extended).
    pub cell_amo: bool,
    /// Each unit each digit at least once (extended).
    pub unit_alo: bool,
}
