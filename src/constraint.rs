//! The constraints beside the units, as data: [`Variant`]s without data of their own, and the few
//! primitives every rule is lowered into for the backends — pairwise [`Relation`]s (a table of digit
//! pairs), killer [`Cage`]s, weighted [`SumRule`]s, [`LineRule`]s (a layered automaton over a line of
//! cells), [`WindowRule`]s (the set of a line's digits, one of a few) and candidate sets. [`Units`](crate::Units) carries them; the rules builder checks them;
//! each backend and the encoder reason about them in its own way (the verifier checks the rules as
//! setters state them, `clue.rs`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::grid::{Cell, Digit, DigitSet, Shape};

/// A constraint that needs no data beyond the grid's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Variant {
    /// X-sudoku: both main diagonals are units.
    Diagonals,
    /// Windoku (hyper): the windows between the boxes are units; for 9x9 the four 3x3 regions at rows
    /// and columns 2-4 and 6-8 (1-based). Square boxes only.
    Windoku,
    /// Disjoint groups: the cells at the same position in each box form a unit.
    DisjointGroups,
    /// Anti-knight: two cells a chess knight's move apart hold different digits.
    AntiKnight,
    /// Anti-king: two cells diagonally adjacent hold different digits (orthogonal neighbours already
    /// share a row or column).
    AntiKing,
    /// Non-consecutive: orthogonally adjacent cells do not hold consecutive digits.
    NonConsecutive,
    /// Strict kropki: orthogonal neighbours without a kropki dot are neither consecutive nor one
    /// double the other.
    StrictKropki,
    /// Strict XV: orthogonal neighbours without an X or V do not add up to 5 or 10.
    StrictXv,
    /// Anti-taxicab: a cell holding d has no cell holding d at taxicab distance exactly d.
    AntiTaxicab,
    /// Dutch flatmates: each middle digit (5 of 1-9) has the smallest digit directly above it or the
    /// largest directly below.
    DutchFlatmates,
}

impl Variant {
    /// Every variant, in documentation order.
    pub const ALL: [Variant; 10] = [
        Variant::Diagonals,
        Variant::Windoku,
        Variant::DisjointGroups,
        Variant::AntiKnight,
        Variant::AntiKing,
        Variant::NonConsecutive,
        Variant::StrictKropki,
        Variant::StrictXv,
        Variant::AntiTaxicab,
        Variant::DutchFlatmates,
    ];

    /// The name on the command line and in `variant:` lines: `x`, `windoku`, `disjoint-groups`,
    /// `anti-knight`, `anti-king`, `non-consecutive`, `strict-kropki`, `strict-xv`, `anti-taxicab`,
    /// `dutch-flatmates`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Diagonals => "x",
            Variant::Windoku => "windoku",
            Variant::DisjointGroups => "disjoint-groups",
            Variant::AntiKnight => "anti-knight",
            Variant::AntiKing => "anti-king",
            Variant::NonConsecutive => "non-consecutive",
            Variant::StrictKropki => "strict-kropki",
            Variant::StrictXv => "strict-xv",
            Variant::AntiTaxicab => "anti-taxicab",
            Variant::DutchFlatmates => "dutch-flatmates",
        }
    }

    /// The variant of a name or a common alias (`diagonal`, `hyper`, `antiknight`, `anti-consecutive`,
    /// …), in any case.
    pub fn from_name(name: &str) -> Option<Variant> {
        let key: String = name
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Some(match key.as_str() {
            "x" | "diagonal" | "diagonals" | "diag" | "xsudoku" => Variant::Diagonals,
            "windoku" | "hyper" | "hypersudoku" | "window" | "windows" => Variant::Windoku,
            "disjointgroups" | "disjoint" | "dg" => Variant::DisjointGroups,
            "antiknight" | "knight" => Variant::AntiKnight,
            "antiking" | "king" => Variant::AntiKing,
            "nonconsecutive" | "anticonsecutive" | "nonconsec" => Variant::NonConsecutive,
            "strictkropki" => Variant::StrictKropki,
            "strictxv" => Variant::StrictXv,
            "antitaxicab" | "taxicab" => Variant::AntiTaxicab,
            "dutchflatmates" | "flatmates" => Variant::DutchFlatmates,
            _ => return None,
        })
    }

    /// Whether this variant is defined on grids of this shape: windoku needs square boxes of N cells
    /// on a square grid, disjoint groups boxes of N cells, diagonals a square grid.
    pub fn fits(self, shape: Shape) -> bool {
        let square = shape.rows() == shape.cols();
        let full_boxes = shape
            .boxes()
            .is_some_and(|(r, c)| r * c == shape.n() && shape.cells().is_multiple_of(shape.n()));
        match self {
            Variant::Windoku => shape.is_classic() && shape.box_rows() == shape.box_cols(),
            Variant::Diagonals => square,
            Variant::DisjointGroups => shape.boxes().is_some() && (full_boxes || square),
            _ => true,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no variant.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error(
    "unknown variant {given:?}: expected x, windoku, disjoint-groups, anti-knight, anti-king, non-consecutive, strict-kropki, strict-xv, anti-taxicab or dutch-flatmates"
)]
pub struct UnknownVariant {
    /// The text given.
    pub given: String,
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::from_name(s).ok_or_else(|| UnknownVariant {
            given: s.to_string(),
        })
    }
}

/// What a relation between two cells demands, of their values (the digits as written: on a
/// zero-based grid digit 1 is the value 0; see [`Units::base`](crate::Units::base)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RelationKind {
    /// A knight's move apart (anti-knight): different digits.
    Knight,
    /// Diagonally adjacent (anti-king): different digits.
    King,
    /// Orthogonally adjacent (non-consecutive): digits that differ by more than 1.
    NonConsecutive,
    /// A white kropki dot: consecutive values.
    Consecutive,
    /// A black kropki dot: one value double the other.
    Double,
    /// No kropki dot under strict kropki: neither consecutive nor double.
    NoDot,
    /// An X (10) or V (5): values adding up to this.
    SumTo(u16),
    /// No X or V under strict XV: values adding up to neither 5 nor 10.
    NoXv,
    /// The first value above the second (greater-than sign).
    Greater,
    /// The first value below the second (thermometer neighbours).
    Less,
    /// Values at least this far apart (whispers; German whispers: 5).
    Apart(u16),
    /// Equal values (palindrome, same values).
    Equal,
    /// Different values less than this far apart (renban of this many cells).
    Near(u16),
    /// Values in different thirds (1-3, 4-6, 7-9: entropic lines).
    OtherThird,
    /// Values different modulo this (modular lines).
    ModDiffer(u16),
    /// Values equal modulo this (modular lines).
    ModEqual(u16),
    /// The first is `when` exactly when the second is `then` (indexing: a control cell selects the
    /// cell holding a value).
    Selects {
        /// The first cell's value that selects the second cell.
        when: i32,
        /// The value the selected cell holds.
        then: i32,
    },
    /// Not both this value (anti-taxicab: cells this far apart).
    NotBoth(u16),
}

impl RelationKind {
    /// Whether the relation only asks for different digits (as opposed to non-consecutive ones).
    pub fn is_differ(self) -> bool {
        matches!(self, RelationKind::Knight | RelationKind::King)
    }

    /// Whether the relation comes from a data-free variant (anti-knight, anti-king, non-consecutive),
    /// which the verifier checks as such; the others are lowered from rules it checks as stated.
    pub fn is_variant(self) -> bool {
        matches!(
            self,
            RelationKind::Knight | RelationKind::King | RelationKind::NonConsecutive
        )
    }

    /// Whether values `a` and `b` may stand in two cells so related (first, second).
    pub fn allows(self, a: i32, b: i32) -> bool {
        let consecutive = (a - b).abs() == 1;
        let double = a == 2 * b || b == 2 * a;
        match self {
            RelationKind::Knight | RelationKind::King => a != b,
            RelationKind::NonConsecutive => !consecutive,
            RelationKind::Consecutive => consecutive,
            RelationKind::Double => double,
            RelationKind::NoDot => !consecutive && !double,
            RelationKind::SumTo(s) => a + b == i32::from(s),
            RelationKind::NoXv => a + b != 5 && a + b != 10,
            RelationKind::Greater => a > b,
            RelationKind::Less => a < b,
            RelationKind::Apart(d) => (a - b).abs() >= i32::from(d),
            RelationKind::Equal => a == b,
            RelationKind::Near(k) => a != b && (a - b).abs() < i32::from(k),
            RelationKind::OtherThird => (a - 1).div_euclid(3) != (b - 1).div_euclid(3),
            RelationKind::ModDiffer(m) => a.rem_euclid(i32::from(m)) != b.rem_euclid(i32::from(m)),
            RelationKind::ModEqual(m) => a.rem_euclid(i32::from(m)) == b.rem_euclid(i32::from(m)),
            RelationKind::Selects { when, then } => (a == when) == (b == then),
            RelationKind::NotBoth(d) => !(a == i32::from(d) && b == i32::from(d)),
        }
    }

    /// Whether the relation treats every digit alike (holds of two digits exactly when it holds of
    /// their images under any relabelling): only "must differ".
    pub fn is_symmetric_in_digits(self) -> bool {
        self.is_differ()
    }

    /// How the verifier names a pair of such cells: `knight-move cells`, `king-move cells`,
    /// `orthogonal neighbours`; `related cells` for the lowered relations.
    pub fn describe(self) -> &'static str {
        match self {
            RelationKind::Knight => "knight-move cells",
            RelationKind::King => "king-move cells",
            RelationKind::NonConsecutive => "orthogonal neighbours",
            _ => "related cells",
        }
    }
}

/// Two cells and what must hold between their values (of the variants: `a < b`, in reading order;
/// of lowered rules: in the rule's order, which matters for the asymmetric kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Relation {
    /// The demand.
    pub kind: RelationKind,
    /// The first cell.
    pub a: Cell,
    /// The second cell.
    pub b: Cell,
}

/// A killer cage: distinct digits in `cells` that add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    /// The sum of its digits.
    pub sum: u32,
    /// Its cells, ascending (reading order), each once.
    pub cells: Vec<Cell>,
}

impl Cage {
    /// The cell that names the cage: its first in reading order (`cage at r1c1`).
    pub fn anchor(&self) -> Cell {
        self.cells[0]
    }
}

/// The smallest and largest sums of `k` distinct digits of 1..=`n` (`None` when `k > n`).
pub fn sum_range(k: usize, n: usize) -> Option<(u32, u32)> {
    (k <= n).then(|| {
        let (k, n) = (k as u32, n as u32);
        (k * (k + 1) / 2, k * (2 * n - k + 1) / 2)
    })
}

/// A weighted sum over cells: Σ `weights[i][d − 1]` over the cells' digits d is one of `totals`. Cells
/// may repeat digits (little killers, arrows) and a cell may appear more than once. Linear sums of
/// values (with coefficients: arrows, pill arrows, zippers) and counts of a digit (counting circles,
/// quadruples) are both of this form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SumRule {
    /// The cells, in the rule's order.
    pub cells: Vec<Cell>,
    /// Per cell, what each digit (index d − 1) adds.
    pub weights: Vec<Vec<i32>>,
    /// The totals allowed, ascending, without repeats.
    pub totals: Vec<i32>,
}

impl SumRule {
    /// The sum of `coeffs[i] · value(dᵢ)` equal to `total`, with value(d) = d − 1 + `base`.
    pub fn linear(cells: Vec<Cell>, coeffs: &[i32], total: i32, n: usize, base: i32) -> SumRule {
        let weights = coeffs
            .iter()
            .map(|&c| (0..n as i32).map(|d| c * (d + base)).collect())
            .collect();
        SumRule {
            cells,
            weights,
            totals: vec![total],
        }
    }

    /// The smallest and largest sum the weights can make (any digits).
    pub fn range(&self) -> (i64, i64) {
        self.weights.iter().fold((0, 0), |(lo, hi), w| {
            let min = w.iter().copied().min().unwrap_or(0);
            let max = w.iter().copied().max().unwrap_or(0);
            (lo + i64::from(min), hi + i64::from(max))
        })
    }
}

/// A line of cells whose digits, read in order, form a word of a regular language: the language
/// given as its layered automaton over the line ([`Layered`](crate::automaton::Layered)), a
/// *regular* constraint (Pesant 2004, "A regular language membership constraint for finite sequences
/// of variables"). Between lines, sandwiches, skyscrapers and many more are of this form.
#[derive(Clone, Debug)]
pub struct LineRule {
    /// The cells, in the line's order.
    pub cells: Vec<Cell>,
    /// The automaton unrolled over the line: only states on some accepted word are kept.
    pub graph: std::sync::Arc<crate::automaton::Layered>,
    /// The index of the clue it lowers (in the rules' clues), when it is that clue's only line:
    /// what lets the native backend reason about a sandwich by its sum rather than its automaton.
    pub clue: Option<usize>,
}

/// Cells whose digits, all different, make up one of a few sets of as many digits (*windows*): a
/// renban line's k cells hold one of the runs of k consecutive digits, in any order
/// ([`WindowRule::runs`]). Both backends reason about the choice of window: a digit in no window
/// still open leaves the line, a digit in every one of them must be on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WindowRule {
    /// The cells, each once.
    pub cells: Vec<Cell>,
    /// The sets the cells' digits may make up, each of `cells.len()` digits, ascending by their
    /// lowest digit.
    pub windows: Vec<DigitSet>,
}

impl WindowRule {
    /// `cells` holding a run of consecutive digits of 1..=`n` (renban): the n − k + 1 runs of k =
    /// `cells.len()` digits (none when k > n).
    pub fn runs(cells: Vec<Cell>, n: usize) -> WindowRule {
        let k = cells.len();
        let windows = (1..=(n + 1).saturating_sub(k))
            .map(|low| {
                let mut w = DigitSet::EMPTY;
                for d in (low..low + k).filter_map(|d| Digit::new(d as u16)) {
                    w.insert(d);
                }
                w
            })
            .collect();
        WindowRule { cells, windows }
    }
}
