//! The grid model: `Shape` (box rows × box columns), `Cell`, `Digit`, `DigitSet` and `Grid`.

use std::fmt;

use thiserror::Error;

/// The largest grid side supported: 400 (20x20 boxes; any box shape R×C with R·C ≤ 400).
pub const MAX_N: usize = 400;

/// The 64-bit words a [`DigitSet`] holds: enough for [`MAX_N`] digits.
const DIGIT_WORDS: usize = MAX_N.div_ceil(64);

/// A box shape of `box_rows` × `box_cols`; the grid is N×N with N = `box_rows` · `box_cols`.
///
/// Boxes are `box_rows` cells tall and `box_cols` cells wide, so a 6x6 grid with 2x3 boxes has boxes of
/// two rows and three columns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Shape {
    box_rows: u16,
    box_cols: u16,
}

/// Why a box shape cannot be used.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A box side below 2.
    #[error("box {rows}x{cols}: each box side must be at least 2")]
    TooSmall {
        /// Box rows asked for.
        rows: usize,
        /// Box columns asked for.
        cols: usize,
    },
    /// N = rows·cols above [`MAX_N`].
    #[error("box {rows}x{cols} gives {n}x{n} grids; the largest supported is {MAX_N}x{MAX_N}")]
    TooLarge {
        /// Box rows asked for.
        rows: usize,
        /// Box columns asked for.
        cols: usize,
        /// The grid side they give.
        n: usize,
    },
    /// A grid side that no default box shape fits (not a square, not 6 or 12).
    #[error("{n}x{n} grids have no default box shape; give one with --box RxC (rows x columns)")]
    NoDefault {
        /// The grid side.
        n: usize,
    },
    /// A box shape whose product is not the grid side found in the input.
    #[error("box {rows}x{cols} gives {}x{} grids, but the puzzle is {n}x{n}", rows * cols, rows * cols)]
    Mismatch {
        /// Box rows asked for.
        rows: usize,
        /// Box columns asked for.
        cols: usize,
        /// The grid side found.
        n: usize,
    },
    /// Text that is not of the form `RxC`.
    #[error("box shape {text:?}: expected RxC, e.g. 3x3 or 2x3")]
    Syntax {
        /// The text given.
        text: String,
    },
}

impl Shape {
    /// A box of `rows` × `cols` cells.
    ///
    /// # Errors
    /// [`ShapeError::TooSmall`] if a side is below 2, [`ShapeError::TooLarge`] if N exceeds [`MAX_N`].
    pub fn new(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        if rows < 2 || cols < 2 {
            return Err(ShapeError::TooSmall { rows, cols });
        }
        let n = rows.saturating_mul(cols);
        if n > MAX_N {
            return Err(ShapeError::TooLarge { rows, cols, n });
        }
        // Both sides are at most MAX_N / 2 here.
        Ok(Shape {
            box_rows: rows as u16,
            box_cols: cols as u16,
        })
    }

    /// The default box shape for a grid side: square boxes where N is a square, 2x3 for 6 and 3x4 for 12.
    ///
    /// # Errors
    /// [`ShapeError::NoDefault`] for other sides (they need `--box`), [`ShapeError::TooLarge`] above
    /// [`MAX_N`].
    pub fn for_side(n: usize) -> Result<Shape, ShapeError> {
        if n > MAX_N {
            let r = (n as f64).sqrt() as usize;
            return Err(ShapeError::TooLarge {
                rows: r,
                cols: n / r.max(1),
                n,
            });
        }
        match n {
            6 => Shape::new(2, 3),
            12 => Shape::new(3, 4),
            _ => {
                let r = (1..=20).find(|r| r * r == n);
                match r {
                    Some(r) if r >= 2 => Shape::new(r, r),
                    _ => Err(ShapeError::NoDefault { n }),
                }
            }
        }
    }

    /// Parses `RxC` (also `R×C` or `R*C`), e.g. `3x3`, `2x3`.
    ///
    /// # Errors
    /// [`ShapeError::Syntax`] for other text, and the errors of [`Shape::new`].
    pub fn parse(text: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax {
            text: text.to_string(),
        };
        let t = text.trim();
        let (r, c) = t.split_once(['x', 'X', '×', '*']).ok_or_else(syntax)?;
        let r: usize = r.trim().parse().map_err(|_| syntax())?;
        let c: usize = c.trim().parse().map_err(|_| syntax())?;
        Shape::new(r, c)
    }

    /// Checks that this shape fits a grid of side `n`.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when `box_rows · box_cols != n`.
    pub fn check_side(self, n: usize) -> Result<Shape, ShapeError> {
        if self.n() == n {
            Ok(self)
        } else {
            Err(ShapeError::Mismatch {
                rows: self.box_rows(),
                cols: self.box_cols(),
                n,
            })
        }
    }

    /// Rows per box.
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The grid side N (= digits per unit = cells per unit).
    pub fn n(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// The number of cells, N².
    pub fn cells(self) -> usize {
        self.n() * self.n()
    }

    /// The 0-based box index of the cell at 0-based (row, col); boxes are numbered row-major.
    pub fn block_of(self, row: usize, col: usize) -> usize {
        // There are box_cols boxes down and box_rows boxes across.
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

/// A cell, by its 0-based row-major index (`row · N + col`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u32);

impl Cell {
    /// The cell with 0-based row-major index `index` (below [`MAX_N`]²).
    pub fn new(index: usize) -> Cell {
        debug_assert!(index < MAX_N * MAX_N);
        Cell(index as u32)
    }

    /// The cell at 0-based `row`, `col` of a grid of this shape.
    pub fn at(shape: Shape, row: usize, col: usize) -> Cell {
        Cell::new(row * shape.n() + col)
    }

    /// The 0-based row-major index.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0-based row.
    pub fn row(self, shape: Shape) -> usize {
        self.index() / shape.n()
    }

    /// The 0-based column.
    pub fn col(self, shape: Shape) -> usize {
        self.index() % shape.n()
    }

    /// `r<row>c<col>`, 1-based, the usual Sudoku notation (`r1c1` is the top-left cell).
    pub fn name(self, shape: Shape) -> String {
        format!("r{}c{}", self.row(shape) + 1, self.col(shape) + 1)
    }
}

/// A digit 1..=N. Shown to users through a symbol alphabet (see the `format` module).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Digit(u16);

impl Digit {
    /// The digit `value`, if it is in 1..=[`MAX_N`].
    pub fn new(value: u16) -> Option<Digit> {
        (1..=MAX_N as u16).contains(&value).then_some(Digit(value))
    }

    /// The digit `value`, if it is in 1..=N for this shape.
    pub fn new_checked(value: u16, shape: Shape) -> Option<Digit> {
        (value >= 1 && (value as usize) <= shape.n()).then_some(Digit(value))
    }

    /// The value 1..=N.
    pub fn get(self) -> u16 {
        self.0
    }

    /// The 0-based index (value − 1), e.g. for bit positions.
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of digits 1..=[`MAX_N`], bit `d − 1` for digit `d` (a fixed array of 64-bit words).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DigitSet([u64; DIGIT_WORDS]);

impl DigitSet {
    /// No digits.
    pub const EMPTY: DigitSet = DigitSet([0; DIGIT_WORDS]);

    /// Every digit 1..=n (`n` above [`MAX_N`] is taken as [`MAX_N`]).
    pub fn all(n: usize) -> DigitSet {
        let n = n.min(MAX_N);
        let mut words = [0; DIGIT_WORDS];
        for (w, word) in words.iter_mut().enumerate() {
            let bits = n.saturating_sub(64 * w).min(64);
            *word = if bits == 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            };
        }
        DigitSet(words)
    }

    /// The set of the one digit `d`.
    pub fn single(d: Digit) -> DigitSet {
        let mut s = DigitSet::EMPTY;
        s.insert(d);
        s
    }

    /// The set with these raw bits (as [`DigitSet::words`]; bits past [`MAX_N`] are dropped).
    pub fn from_words(words: &[u64]) -> DigitSet {
        let mut s = DigitSet::EMPTY;
        for (to, &from) in s.0.iter_mut().zip(words) {
            *to = from;
        }
        s.0[DIGIT_WORDS - 1] &= DigitSet::all(MAX_N).0[DIGIT_WORDS - 1];
        s
    }

    /// The raw bits, 64 digits per word: bit `i` of word `w` is digit `64·w + i + 1`.
    pub fn words(&self) -> &[u64] {
        &self.0
    }

    /// Whether `d` is in the set.
    pub fn contains(self, d: Digit) -> bool {
        let i = d.index();
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds `d`.
    pub fn insert(&mut self, d: Digit) {
        let i = d.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes `d`.
    pub fn remove(&mut self, d: Digit) {
        let i = d.index();
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// The number of digits in the set.
    pub fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The digits in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Digit> {
        let mut w = 0;
        let mut bits = self.0[0];
        std::iter::from_fn(move || {
            while bits == 0 {
                w += 1;
                bits = *self.0.get(w)?;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(Digit((64 * w + i + 1) as u16))
        })
    }
}

/// Why values cannot form a grid.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum GridError {
    /// Wrong number of values for the shape.
    #[error("expected {expected} cells for a {shape} box grid, got {found}")]
    Size {
        /// The shape.
        shape: Shape,
        /// N².
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A value above N.
    #[error("value {value} at {cell} is out of range 1..={n}")]
    OutOfRange {
        /// The cell, as `rXcY`.
        cell: String,
        /// The value.
        value: u16,
        /// N.
        n: usize,
    },
}

/// An N×N grid of cells, each empty or holding a digit 1..=N.
///
/// A puzzle is a grid of givens; a solution is a full grid.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    shape: Shape,
    values: Vec<u16>,
}

impl Grid {
    /// An empty grid.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            values: vec![0; shape.cells()],
        }
    }

    /// A grid from row-major values, `0` for empty, 1..=N for a digit.
    ///
    /// # Errors
    /// [`GridError::Size`] if there are not N² values, [`GridError::OutOfRange`] for a value above N.
    pub fn from_values(shape: Shape, values: Vec<u16>) -> Result<Grid, GridError> {
        if values.len() != shape.cells() {
            return Err(GridError::Size {
                shape,
                expected: shape.cells(),
                found: values.len(),
            });
        }
        // A max-reduction the compiler vectorises; the position is looked for only on failure. This
        // runs for every parsed puzzle and every returned solution.
        if values.iter().fold(0u16, |m, &v| m.max(v)) as usize > shape.n() {
            let i = values
                .iter()
                .position(|&v| v as usize > shape.n())
                .unwrap_or_default();
            return Err(GridError::OutOfRange {
                cell: Cell::new(i).name(shape),
                value: values[i],
                n: shape.n(),
            });
        }
        Ok(Grid { shape, values })
    }

    /// The box shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The grid side N.
    pub fn n(&self) -> usize {
        self.shape.n()
    }

    /// The digit in `cell`, if any.
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        Digit::new(self.values[cell.index()])
    }

    /// Puts `digit` in `cell` (or empties it with `None`).
    ///
    /// # Panics
    /// If the digit is above N or the cell outside the grid.
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        let v = digit.map_or(0, Digit::get);
        assert!(v as usize <= self.n(), "digit {v} above N = {}", self.n());
        self.values[cell.index()] = v;
    }

    /// The row-major values, `0` for an empty cell.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// The number of filled cells.
    pub fn filled(&self) -> usize {
        self.values.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The cells where `self` and `other` hold different values (both grids of one shape).
    pub fn diff(&self, other: &Grid) -> Vec<Cell> {
        self.values
            .iter()
            .zip(&other.values)
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, _)| Cell::new(i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_from_side() {
        assert_eq!(Shape::for_side(9).unwrap(), Shape::new(3, 3).unwrap());
        assert_eq!(Shape::for_side(6).unwrap().to_string(), "2x3");
        assert_eq!(Shape::for_side(12).unwrap().to_string(), "3x4");
        assert_eq!(Shape::for_side(64).unwrap().to_string(), "8x8");
        assert_eq!(Shape::for_side(4).unwrap().to_string(), "2x2");
        assert!(matches!(
            Shape::for_side(8),
            Err(ShapeError::NoDefault { n: 8 })
        ));
        assert_eq!(Shape::for_side(100).unwrap().to_string(), "10x10");
        assert_eq!(Shape::for_side(400).unwrap().to_string(), "20x20");
        assert!(matches!(
            Shape::for_side(441),
            Err(ShapeError::TooLarge { n: 441, .. })
        ));
        assert!(matches!(
            Shape::for_side(200),
            Err(ShapeError::NoDefault { n: 200 })
        ));
        assert!(Shape::for_side(1).is_err());
    }

    #[test]
    fn shape_parse_and_errors() {
        assert_eq!(Shape::parse("2x3").unwrap().n(), 6);
        assert_eq!(Shape::parse(" 4X5 ").unwrap().n(), 20);
        assert!(matches!(Shape::parse("3"), Err(ShapeError::Syntax { .. })));
        assert!(matches!(
            Shape::parse("1x9"),
            Err(ShapeError::TooSmall { .. })
        ));
        assert_eq!(Shape::parse("9x9").unwrap().n(), 81);
        assert_eq!(Shape::parse("2x200").unwrap().n(), 400);
        assert!(matches!(
            Shape::parse("21x20"),
            Err(ShapeError::TooLarge { n: 420, .. })
        ));
        assert!(matches!(
            Shape::parse("99999999999x99999999999"),
            Err(ShapeError::TooLarge { .. })
        ));
        let e = Shape::parse("2x3").unwrap().check_side(9).unwrap_err();
        assert_eq!(
            e.to_string(),
            "box 2x3 gives 6x6 grids, but the puzzle is 9x9"
        );
    }

    #[test]
    fn block_numbering_rectangular() {
        // 6x6 with 2x3 boxes: boxes are 2 rows tall, 3 columns wide, 2 across and 3 down.
        let s = Shape::new(2, 3).unwrap();
        assert_eq!(s.block_of(0, 0), 0);
        assert_eq!(s.block_of(0, 3), 1);
        assert_eq!(s.block_of(1, 5), 1);
        assert_eq!(s.block_of(2, 0), 2);
        assert_eq!(s.block_of(5, 5), 5);
    }

    #[test]
    fn digit_set() {
        let mut s = DigitSet::EMPTY;
        s.insert(Digit::new(1).unwrap());
        s.insert(Digit::new(64).unwrap());
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().map(Digit::get).collect::<Vec<_>>(), vec![1, 64]);
        assert_eq!(DigitSet::all(64).len(), 64);
        assert_eq!(DigitSet::all(9).len(), 9);
        // Past one word: 65, 128, 400 digits.
        for n in [65, 128, 129, 400] {
            let all = DigitSet::all(n);
            assert_eq!(all.len(), n);
            assert_eq!(all.iter().count(), n);
            assert_eq!(all.iter().last().map(Digit::get), Some(n as u16));
        }
        let mut wide = DigitSet::single(Digit::new(400).unwrap());
        wide.insert(Digit::new(65).unwrap());
        wide.insert(Digit::new(2).unwrap());
        assert_eq!(
            wide.iter().map(Digit::get).collect::<Vec<_>>(),
            vec![2, 65, 400]
        );
        assert!(wide.contains(Digit::new(65).unwrap()));
        wide.remove(Digit::new(65).unwrap());
        assert!(!wide.contains(Digit::new(65).unwrap()));
        assert_eq!(wide.words()[6], 1 << 15);
        assert!(Digit::new(401).is_none());
        assert!(Digit::new(0).is_none());
        assert!(Digit::new_checked(10, Shape::new(3, 3).unwrap()).is_none());
    }

    #[test]
    fn grid_values_checked() {
        let s = Shape::new(2, 2).unwrap();
        assert!(Grid::from_values(s, vec![0; 15]).is_err());
        let mut v = vec![0; 16];
        v[5] = 5;
        assert_eq!(
            Grid::from_values(s, v).unwrap_err().to_string(),
            "value 5 at r2c2 is out of range 1..=4"
        );
        let mut g = Grid::empty(s);
        g.set(Cell::at(s, 3, 2), Digit::new(4));
        assert_eq!(g.values()[14], 4);
        assert_eq!(g.filled(), 1);
        assert_eq!(g.diff(&Grid::empty(s)), vec![Cell::new(14)]);
    }
}
