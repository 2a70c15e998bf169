//! What the reader gives: one [`Record`] per input puzzle, holding the [`Puzzle`] (givens, layout,
//! rules, what the input says of it) or the reason it could not be read.

use std::sync::Arc;

use super::error::ParseError;
use super::layout::Layout;
use crate::grid::Grid;
use crate::units::Units;

/// A puzzle read from the input, with the layout it was written in.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The givens.
    pub grid: Grid,
    /// How it was written; shared by the puzzles of one file.
    pub layout: Arc<Layout>,
    /// The text after the grid on its line, as written (`# SE 11.9`, `hard`): line format only.
    pub note: Option<String>,
    /// The rules: the standard units of the grid's shape, with the `--variant`s and what the
    /// puzzle's own rule lines add (a region map, cages, a `variant:` line). Puzzles without rule
    /// lines of their own share one value per shape.
    pub units: Arc<Units>,
    /// The solution written with the puzzle (a `solution:` block), if any: an answer from outside to
    /// compare with, not checked here.
    pub expected: Option<Grid>,
    /// What the input says of the puzzle (`expected: solvable` / `unsolvable`), if anything.
    pub solvable: Option<bool>,
}

/// One input puzzle: read, or the reason it could not be.
#[derive(Clone, Debug)]
pub struct Record {
    /// 0-based puzzle index in this source.
    pub index: usize,
    /// 1-based line where the puzzle starts (its first grid row; for CSV the row's line).
    pub line: usize,
    /// The puzzle, or what is wrong with it.
    pub puzzle: Result<Puzzle, ParseError>,
}
