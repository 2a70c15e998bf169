//! The constraints beside the units, as data: [`Variant`]s without data of their own, pairwise
//! [`Relation`]s and killer [`Cage`]s. [`Units`](crate::Units) carries them; the rules builder checks
//! them; each backend, the encoder and the verifier reason about them in its own way.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::grid::{Cell, Shape};

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
}

impl Variant {
    /// Every variant, in documentation order.
    pub const ALL: [Variant; 6] = [
        Variant::Diagonals,
        Variant::Windoku,
        Variant::DisjointGroups,
        Variant::AntiKnight,
        Variant::AntiKing,
        Variant::NonConsecutive,
    ];

    /// The name on the command line and in `variant:` lines: `x`, `windoku`, `disjoint-groups`,
    /// `anti-knight`, `anti-king`, `non-consecutive`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Diagonals => "x",
            Variant::Windoku => "windoku",
            Variant::DisjointGroups => "disjoint-groups",
            Variant::AntiKnight => "anti-knight",
            Variant::AntiKing => "anti-king",
            Variant::NonConsecutive => "non-consecutive",
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
            _ => return None,
        })
    }

    /// Whether this variant is defined on grids of this box shape (windoku needs square boxes).
    pub fn fits(self, shape: Shape) -> bool {
        match self {
            Variant::Windoku => shape.box_rows() == shape.box_cols(),
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
    "unknown variant {given:?}: expected x, windoku, disjoint-groups, anti-knight, anti-king or non-consecutive"
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

/// What a relation between two cells demands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RelationKind {
    /// A knight's move apart (anti-knight): different digits.
    Knight,
    /// Diagonally adjacent (anti-king): different digits.
    King,
    /// Orthogonally adjacent (non-consecutive): digits that differ by more than 1.
    NonConsecutive,
}

impl RelationKind {
    /// Whether the relation only asks for different digits (as opposed to non-consecutive ones).
    pub fn is_differ(self) -> bool {
        matches!(self, RelationKind::Knight | RelationKind::King)
    }

    /// Whether digits `a` and `b` may stand in two cells so related.
    pub fn allows(self, a: u16, b: u16) -> bool {
        match self {
            RelationKind::Knight | RelationKind::King => a != b,
            RelationKind::NonConsecutive => a.abs_diff(b) != 1,
        }
    }

    /// How the verifier names a pair of such cells: `knight-move cells`, `king-move cells`,
    /// `orthogonal neighbours`.
    pub fn describe(self) -> &'static str {
        match self {
            RelationKind::Knight => "knight-move cells",
            RelationKind::King => "king-move cells",
            RelationKind::NonConsecutive => "orthogonal neighbours",
        }
    }
}

/// Two cells (`a < b`) and what must hold between their digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Relation {
    /// The demand.
    pub kind: RelationKind,
    /// The first cell (reading order).
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
