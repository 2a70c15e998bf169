//! The grid model: `Shape` (box rows × box columns), `Cell`, `Digit`, `DigitSet` and `Grid`.

use std::fmt;

use thiserror::Error;

/// The largest grid side supported: 400 (20x20 boxes; any box shape R×C with R·C ≤ 400).
pub const MAX_N: usize = 400;

/// The 64-bit words a [`DigitSet`] holds: enough for [`MAX_N`] digits.
const DIGIT_WORDS: usize = MAX_N.div_ceil(64);

/// The shape of a grid: its rows and columns, how many digits its cells hold, and its boxes.
///
/// The classic shapes ([`Shape::new`]) are N×N grids of N digits with boxes of `box_rows` ×
/// `box_cols` cells, N = `box_rows` · `box_cols`: a 6x6 grid with 2x3 boxes has boxes of two rows and
/// three columns. [`Shape::grid`] makes the others, as variant setters use them: rectangular grids
/// (6x8), more digits than a row holds (a 6x6 grid of the digits 1-9), boxes of another size, or no
/// boxes at all. A row, column or box with as many cells as there are digits holds each digit once;
/// a shorter one holds distinct digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Shape {
    rows: u16,
    cols: u16,
    digits: u16,
    /// Box rows and columns; both 0 for a grid without boxes.
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
    /// A shape other than a classic one (N×N cells and digits, boxes of N cells) where a reader
    /// needs one: the readers take a shape from its boxes.
    #[error(
        "a forced shape must be N×N cells with boxes of N, as --box RxC gives; this one is {}",
        describe(.shape)
    )]
    NotClassic {
        /// The shape given.
        shape: Shape,
    },
    /// Text that is not of the form `RxC`.
    #[error("box shape {text:?}: expected RxC, e.g. 3x3 or 2x3")]
    Syntax {
        /// The text given.
        text: String,
    },
    /// A grid of [`Shape::grid`] that cannot be: no rows, too many digits or too few for a row or
    /// column, boxes that do not tile it.
    #[error("a {rows}x{cols} grid of {digits} digits{}: {reason}", boxes.map_or(String::new(), |(r, c)| format!(" with {r}x{c} boxes")))]
    Grid {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Digits asked for.
        digits: usize,
        /// Box rows and columns asked for.
        boxes: Option<(usize, usize)>,
        /// What is wrong.
        reason: &'static str,
    },
}

impl Shape {
    /// A classic grid with boxes of `rows` × `cols` cells: N×N cells of N digits, N = `rows` ·
    /// `cols`.
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
            rows: n as u16,
            cols: n as u16,
            digits: n as u16,
            box_rows: rows as u16,
            box_cols: cols as u16,
        })
    }

    /// A grid of `rows` × `cols` cells holding the digits 1..=`digits`, with boxes of `boxes` (rows,
    /// columns) or none. A classic shape comes out equal to [`Shape::new`]'s.
    ///
    /// # Errors
    /// [`ShapeError::Grid`] when a side is 0 or above [`MAX_N`], when there are fewer digits than a
    /// row or column has cells or more than [`MAX_N`], or when the boxes do not tile the grid or hold
    /// more cells than there are digits.
    pub fn grid(
        rows: usize,
        cols: usize,
        digits: usize,
        boxes: Option<(usize, usize)>,
    ) -> Result<Shape, ShapeError> {
        let fail = |reason| {
            Err(ShapeError::Grid {
                rows,
                cols,
                digits,
                boxes,
                reason,
            })
        };
        if rows == 0 || cols == 0 || rows > MAX_N || cols > MAX_N {
            return fail("each side must be 1 to 400 cells");
        }
        if digits > MAX_N {
            return fail("at most 400 digits are supported");
        }
        if digits < rows.max(cols) {
            return fail("a row or column has more cells than there are digits");
        }
        let (br, bc) = boxes.unwrap_or((0, 0));
        if boxes.is_some() {
            if br == 0 || bc == 0 || !rows.is_multiple_of(br) || !cols.is_multiple_of(bc) {
                return fail("the boxes do not tile the grid");
            }
            if br * bc > digits {
                return fail("a box has more cells than there are digits");
            }
            if br * bc < 2 {
                return fail("a box must have at least 2 cells");
            }
        }
        Ok(Shape {
            rows: rows as u16,
            cols: cols as u16,
            digits: digits as u16,
            box_rows: br as u16,
            box_cols: bc as u16,
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

    /// Parses `RxC` (also `R×C` or `R*C`), e.g. `3x3`, `2x3`: a classic grid with boxes of R rows and
    /// C columns. Also the other shapes as [`Shape`]'s `Display` writes them:
    /// `ROWSxCOLS~DIGITS~RxC` (boxes) or `ROWSxCOLS~DIGITS~-` (none), e.g. `6x8~8~2x4`.
    ///
    /// # Errors
    /// [`ShapeError::Syntax`] for other text, and the errors of [`Shape::new`] and [`Shape::grid`].
    pub fn parse(text: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax {
            text: text.to_string(),
        };
        let t = text.trim();
        let pair = |t: &str| -> Result<(usize, usize), ShapeError> {
            let (r, c) = t.split_once(['x', 'X', '×', '*']).ok_or_else(syntax)?;
            let r: usize = r.trim().parse().map_err(|_| syntax())?;
            let c: usize = c.trim().parse().map_err(|_| syntax())?;
            Ok((r, c))
        };
        if let Some((dims, rest)) = t.split_once('~') {
            let (rows, cols) = pair(dims)?;
            let (digits, boxes) = rest.split_once('~').ok_or_else(syntax)?;
            let digits: usize = digits.trim().parse().map_err(|_| syntax())?;
            let boxes = match boxes.trim() {
                "-" => None,
                b => Some(pair(b)?),
            };
            return Shape::grid(rows, cols, digits, boxes);
        }
        let (r, c) = pair(t)?;
        Shape::new(r, c)
    }

    /// Checks that this shape fits a grid of side `n`.
    ///
    /// # Errors
    /// [`ShapeError::NotClassic`] for a shape that is not [classic](Shape::is_classic) (a grid
    /// without boxes, say); [`ShapeError::Mismatch`] when `box_rows · box_cols != n`.
    pub fn check_side(self, n: usize) -> Result<Shape, ShapeError> {
        if !self.is_classic() {
            Err(ShapeError::NotClassic { shape: self })
        } else if self.n() == n {
            Ok(self)
        } else {
            Err(ShapeError::Mismatch {
                rows: self.box_rows(),
                cols: self.box_cols(),
                n,
            })
        }
    }

    /// Whether this is a classic shape (of [`Shape::new`]): N×N cells, N digits, boxes of N cells.
    pub fn is_classic(self) -> bool {
        self.rows == self.cols
            && self.rows == self.digits
            && self.box_rows >= 2
            && self.box_cols >= 2
            && self.box_rows * self.box_cols == self.digits
    }

    /// Rows per box (0 for a grid without boxes).
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box (0 for a grid without boxes).
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The box rows and columns, if the grid has boxes.
    pub fn boxes(self) -> Option<(usize, usize)> {
        (self.box_rows > 0).then_some((self.box_rows(), self.box_cols()))
    }

    /// The digits a cell may hold, N (1..=N): for the classic shapes also the grid side and the
    /// cells per unit.
    pub fn n(self) -> usize {
        self.digits as usize
    }

    /// The rows of the grid.
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// The columns of the grid (the length of a row).
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// The number of cells, rows × columns (N² for the classic shapes).
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The 0-based box index of the cell at 0-based (row, col); boxes are numbered row-major. 0 for
    /// a grid without boxes.
    pub fn block_of(self, row: usize, col: usize) -> usize {
        match self.boxes() {
            Some((br, bc)) => (row / br) * (self.cols() / bc) + col / bc,
            None => 0,
        }
    }
}

/// A shape in words, for messages: `9x9 cells of 9 digits without boxes (9x9~9~-)`.
fn describe(shape: &Shape) -> String {
    let boxes = match shape.boxes() {
        Some((r, c)) => format!("with boxes of {r}x{c}"),
        None => "without boxes".to_string(),
    };
    let (rows, cols, digits) = (shape.rows(), shape.cols(), shape.n());
    format!("{rows}x{cols} cells of {digits} digits {boxes} ({shape})")
}

impl fmt::Display for Shape {
    /// Classic shapes by their boxes (`3x3`, `2x3`); the others as `ROWSxCOLS~DIGITS~RxC`, or `~-`
    /// without boxes (`6x8~8~2x4`, `4x7~7~-`), which [`Shape::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_classic() {
            return write!(f, "{}x{}", self.box_rows, self.box_cols);
        }
        write!(f, "{}x{}~{}~", self.rows, self.cols, self.digits)?;
        match self.boxes() {
            Some((r, c)) => write!(f, "{r}x{c}"),
            None => f.write_str("-"),
        }
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
        Cell::new(row * shape.cols() + col)
    }

    /// The 0-based row-major index.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0-based row.
    pub fn row(self, shape: Shape) -> usize {
        self.index() / shape.cols()
    }

    /// The 0-based column.
    pub fn col(self, shape: Shape) -> usize {
        self.index() % shape.cols()
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

/// The filled cells of up to 32 values as bits (bit `j`: `values[j]` is not 0), eight at a time
/// (SSE2 on x86-64: one compare, pack and mask per eight), so that the scanners over givens (the
/// readers' clash check, the 9x9 search's placement) take no branch per cell.
#[inline(always)]
pub(crate) fn filled_bits(values: &[u16]) -> u32 {
    debug_assert!(values.len() <= 32);
    let (groups, rest) = values.as_chunks::<8>();
    let mut m = 0u32;
    for (k, g) in groups.iter().enumerate().take(4) {
        m |= u32::from(filled8(g)) << (8 * k);
    }
    let base = 8 * groups.len();
    for (j, &v) in rest.iter().enumerate() {
        m |= u32::from(v != 0) << ((base + j) & 31);
    }
    m
}

/// [`filled_bits`] of eight values.
#[inline(always)]
fn filled8(g: &[u16; 8]) -> u8 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: SSE2 is enabled on every x86-64 target; the unaligned load reads the 16 bytes of `g`.
    unsafe {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
            _mm_setzero_si128,
        };
        let v = _mm_loadu_si128(g.as_ptr().cast::<__m128i>());
        let zero = _mm_cmpeq_epi16(v, _mm_setzero_si128());
        // Lanes of 0xFFFF (empty) or 0 packed to bytes; the low eight mask bits are the eight cells.
        !(_mm_movemask_epi8(_mm_packs_epi16(zero, zero)) as u8)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        g.iter()
            .enumerate()
            .fold(0u8, |m, (j, &v)| m | u8::from(v != 0) << j)
    }
}

/// An N×N grid of cells, each empty or holding a digit 1..=N.
///
/// A puzzle is a grid of givens; a solution is a full grid.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    shape: Shape,
    /// A boxed slice, not a `Vec` (never grows): a smaller `Grid`, and so smaller puzzles and
    /// answers to move.
    values: Box<[u16]>,
}

impl Grid {
    /// An empty grid.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            values: vec![0; shape.cells()].into_boxed_slice(),
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
        // A reduction the compiler vectorises; the position is looked for only on failure. This
        // runs for every parsed puzzle and every returned solution.
        // (A saturating subtraction, not a maximum: SSE2 has the one on 16-bit lanes, not the other.)
        let n = u16::try_from(shape.n()).unwrap_or(u16::MAX);
        if values.iter().fold(0u16, |m, &v| m | v.saturating_sub(n)) != 0 {
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
        Ok(Grid {
            shape,
            values: values.into_boxed_slice(),
        })
    }

    /// A grid of `values`, which the caller knows to be N² values of 0..=N (a search's own board):
    /// [`Grid::from_values`] without its checks, which a release build skips (a debug build
    /// asserts them). Every answer is still checked by the independent checker.
    pub(crate) fn from_search(shape: Shape, values: Vec<u16>) -> Grid {
        debug_assert!(values.len() == shape.cells());
        debug_assert!(values.iter().all(|&v| usize::from(v) <= shape.n()));
        Grid {
            shape,
            values: values.into_boxed_slice(),
        }
    }

    /// The box shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The digits N a cell may hold (the grid side, for the classic shapes).
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

    /// Whether at most a fifth of the cells are filled: a grid to fill rather than a puzzle to
    /// solve (the native backend's fill search and the `auto` backend's phases treat it so).
    pub fn is_sparse(&self) -> bool {
        self.filled() * 5 <= self.values.len()
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

    /// A grid is its shape and a boxed slice (every puzzle and answer moves a few of them).
    #[test]
    fn a_grid_is_small() {
        assert!(size_of::<Grid>() <= 32, "{} bytes", size_of::<Grid>());
        let g = Grid::from_values(Shape::new(2, 2).unwrap(), vec![1; 16]).unwrap();
        assert_eq!((g.values().len(), g.filled()), (16, 16));
    }

    #[test]
    fn filled_bits_names_the_nonzero_values() {
        // Every length up to 32, with a pattern of zeros, small and large values in each lane.
        for len in 0..=32usize {
            for seed in 0..8u16 {
                let values: Vec<u16> = (0..len as u16)
                    .map(|j| match (j * 7 + seed) % 5 {
                        0 | 3 => 0,
                        1 => 1,
                        2 => 9,
                        _ => 0x8000 + j,
                    })
                    .collect();
                let expected = values
                    .iter()
                    .enumerate()
                    .fold(0u32, |m, (j, &v)| m | u32::from(v != 0) << j);
                assert_eq!(filled_bits(&values), expected, "{values:?}");
            }
        }
    }

    #[test]
    fn a_grid_with_at_most_a_fifth_filled_is_sparse() {
        let s = Shape::new(2, 2).unwrap();
        let with = |k: usize| {
            let values = (0..16)
                .map(|i| if i < k { (i % 4 + 1) as u16 } else { 0 })
                .collect();
            Grid::from_values(s, values).unwrap()
        };
        // 16 cells: 3 given (under a fifth) is sparse, 4 is not.
        assert!(Grid::empty(s).is_sparse());
        assert!(with(3).is_sparse());
        assert!(!with(4).is_sparse());
    }

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
    fn other_shapes() {
        // A classic shape made by `grid` is the classic shape.
        assert_eq!(
            Shape::grid(9, 9, 9, Some((3, 3))).unwrap(),
            Shape::new(3, 3).unwrap()
        );
        let s = Shape::grid(6, 8, 8, Some((2, 4))).unwrap();
        assert!(!s.is_classic());
        assert_eq!((s.rows(), s.cols(), s.n(), s.cells()), (6, 8, 8, 48));
        assert_eq!(s.to_string(), "6x8~8~2x4");
        assert_eq!(Shape::parse("6x8~8~2x4").unwrap(), s);
        // Row-major with 8 columns; boxes 2 rows by 4 columns, 2 across.
        let c = Cell::at(s, 2, 5);
        assert_eq!(
            (c.index(), c.row(s), c.col(s), c.name(s)),
            (21, 2, 5, "r3c6".into())
        );
        assert_eq!(s.block_of(2, 5), 3);
        let free = Shape::grid(4, 7, 7, None).unwrap();
        assert_eq!(free.to_string(), "4x7~7~-");
        assert_eq!(Shape::parse("4x7~7~-").unwrap(), free);
        assert_eq!(free.boxes(), None);
        // 6x6 of the digits 1-9 with 3x3 boxes (each box holds all nine).
        assert!(Shape::grid(6, 6, 9, Some((3, 3))).is_ok());
        for (r, c, d, b) in [
            (6, 6, 5, None),
            (0, 4, 4, None),
            (6, 6, 9, Some((4, 3))),
            (4, 4, 4, Some((2, 3))),
            (4, 4, 401, None),
        ] {
            assert!(
                matches!(Shape::grid(r, c, d, b), Err(ShapeError::Grid { .. })),
                "{r}x{c} {d} {b:?}"
            );
        }
        assert_eq!(
            Shape::grid(6, 6, 5, None).unwrap_err().to_string(),
            "a 6x6 grid of 5 digits: a row or column has more cells than there are digits"
        );
        assert!(Shape::parse("6x8~8").is_err());
        assert!(Shape::new(3, 3).unwrap().check_side(9).is_ok());
        // A grid without boxes is no shape a reader can be forced to, whatever its side: said so,
        // not as a box of 0x0.
        let boxless = Shape::grid(9, 9, 9, None).unwrap();
        let e = boxless.check_side(9).unwrap_err();
        assert!(matches!(e, ShapeError::NotClassic { .. }), "{e:?}");
        let m = e.to_string();
        assert!(m.contains("9x9~9~-") && m.contains("without boxes"), "{m}");
        assert!(!m.contains("0x0"), "{m}");
        let e = Shape::grid(6, 8, 8, Some((2, 4))).unwrap().check_side(8);
        assert!(e.unwrap_err().to_string().contains("boxes of 2x4"));
        assert!(s.check_side(8).is_err());
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
