//! Parse errors: where (`FILE:LINE:COLUMN`) and what, one variant per class of bad input.

use std::fmt;
use std::sync::Arc;

use thiserror::Error;

use crate::grid::{Cell, Shape, ShapeError};
use crate::rules::RulesError;
use crate::units::UnitName;

/// A malformed puzzle, with its position: `Display` gives `FILE:LINE:COLUMN: message`, the compilers'
/// shape. Lines and columns are 1-based; columns count characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The source name given to the reader (`<stdin>` for standard input, by the caller's choice).
    pub source: Arc<str>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.source, self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for ParseError {}

/// What is wrong with a puzzle (or with the whole input), carrying the offending text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input holds no puzzle: it is empty, or holds only blank lines, comments and headers.
    #[error("no puzzle found: the input is empty or holds only comments and headers")]
    NoPuzzle,
    /// A one-line puzzle with the wrong number of symbols for the file's grid side.
    #[error("wrong length: expected {expected} symbols for {n}x{n}, found {found}")]
    WrongLength {
        /// The file's grid side.
        n: usize,
        /// N².
        expected: usize,
        /// Symbols found.
        found: usize,
    },
    /// A one-line puzzle whose length is no N² (and the file's N is not known yet).
    #[error(
        "wrong length: expected N² symbols for an NxN grid (81 for 9x9, 256 for 16x16, ...), found {found}"
    )]
    NotSquare {
        /// Symbols found.
        found: usize,
    },
    /// A row of a multi-line grid with the wrong number of cells.
    #[error("wrong row length: expected {expected} {what} in row {row}, found {found}")]
    RowLength {
        /// 1-based row of the grid.
        row: usize,
        /// N.
        expected: usize,
        /// Cells found.
        found: usize,
        /// `symbols` or `numbers`.
        what: &'static str,
    },
    /// A character that is not a symbol of the alphabet in use, nor a blank.
    #[error(
        "unknown symbol {symbol:?}: the symbols in use are {alphabet} (blanks: {blanks}); {advice}"
    )]
    UnknownSymbol {
        /// The character.
        symbol: char,
        /// The alphabet in use, as a spec.
        alphabet: String,
        /// The blank characters accepted.
        blanks: String,
        /// What the file's symbols say about `--symbols`: the exact spec to pass when the file uses
        /// exactly N symbols besides blanks, else how many it uses.
        advice: String,
    },
    /// A symbol that stands for a digit above N (e.g. `7` in a 4x4 grid).
    #[error(
        "digit out of range: {symbol:?} is {value}, but {n}x{n} grids have digits {alphabet} \
         (use --symbols if the file has another alphabet)"
    )]
    DigitOutOfRange {
        /// The character.
        symbol: char,
        /// The value it stands for.
        value: usize,
        /// The grid side.
        n: usize,
        /// The alphabet in use.
        alphabet: String,
    },
    /// An integer outside 1..=N (ints format).
    #[error("digit out of range: {text} in {n}x{n} (expected 1..={n}, or 0, -1 or . for a blank)")]
    ValueOutOfRange {
        /// The number as written.
        text: String,
        /// The grid side.
        n: usize,
    },
    /// A token that is not an integer (ints format).
    #[error("expected an integer (or 0, -1 or . for a blank), found {text:?}")]
    NotAnInteger {
        /// The token.
        text: String,
    },
    /// Two equal givens in one unit; the position is the second one's.
    #[error("{unit} has {symbol} twice, at {} and {}", first.name(*shape), second.name(*shape))]
    Clash {
        /// The unit: `row 1`, `column 3`, `box 5`.
        unit: UnitName,
        /// The repeated digit, as written.
        symbol: String,
        /// The first cell (shown as `r1c2`).
        first: Cell,
        /// The second cell (shown as `r1c7`).
        second: Cell,
        /// The grid's box shape, to name the cells.
        shape: Shape,
    },
    /// A puzzle whose side differs from the file's (decided from the look-ahead).
    #[error(
        "mixed sizes in one file: this puzzle is {found}x{found}, but the file's puzzles are {expected}x{expected}"
    )]
    MixedSizes {
        /// This puzzle's side.
        found: usize,
        /// The file's side.
        expected: usize,
    },
    /// No box shape for this grid side, or a `--box` that does not fit it.
    #[error("bad box shape: {0}")]
    Shape(ShapeError),
    /// A line of N symbols read as the first row of an NxN grid whose side has no default box
    /// shape: more often a one-line puzzle of the wrong length.
    #[error(
        "bad box shape: {n}x{n} grids have no default box shape; give one with --box RxC (rows x columns); this line of {n} symbols was read as such a grid's first row (a one-line puzzle has N² symbols: 81 for 9x9, 256 for 16x16, ...)"
    )]
    RowWithoutShape {
        /// The row's length.
        n: usize,
    },
    /// A grid side above [`MAX_N`](crate::MAX_N).
    #[error("grid too large: {n}x{n} has N above {max} (the largest supported is {max}x{max})", max = crate::MAX_N)]
    TooLarge {
        /// The grid side.
        n: usize,
    },
    /// A grid written with one symbol per cell whose side is above the longest alphabet.
    #[error(
        "grid too large for symbols: {n}x{n} needs {n} symbols, but at most {max} characters can be symbols; write it as integers (the ints format)",
        max = super::alphabet::MAX_SYMBOLS
    )]
    TooManySymbols {
        /// The grid side.
        n: usize,
    },
    /// A multi-line grid cut short, by a blank or header line or by the end of the input.
    #[error("truncated puzzle{}: expected {expected} rows, found {found}", if *.at_end { " at end of file" } else { "" })]
    Truncated {
        /// N.
        expected: usize,
        /// Rows found.
        found: usize,
        /// Whether the input ended (else a blank or header line cut it).
        at_end: bool,
    },
    /// More than N rows before the blank or header line that ends a grid.
    #[error(
        "too many rows: expected {expected} rows, then a blank or header line before the next grid"
    )]
    ExtraRows {
        /// N.
        expected: usize,
    },
    /// `--column NAME` names no column of the CSV header.
    #[error("CSV has no column named {name:?} (columns: {columns})")]
    MissingColumn {
        /// The name asked for.
        name: String,
        /// The header's columns, comma-separated.
        columns: String,
    },
    /// No CSV column is named like a puzzle column or holds grids.
    #[error(
        "CSV has no puzzle column: none is named puzzle, quizzes, quiz, ... and none holds N² symbols; \
         choose one with --column NAME (columns: {columns})"
    )]
    NoPuzzleColumn {
        /// The header's columns, comma-separated.
        columns: String,
    },
    /// A CSV row too short to have the puzzle column.
    #[error("CSV row has {found} field(s), but the puzzle column {name:?} is field {index}")]
    MissingField {
        /// Fields in the row.
        found: usize,
        /// The puzzle column's name.
        name: String,
        /// Its 1-based position.
        index: usize,
    },
    /// A CSV field whose opening quote is not closed by the end of the input, nor within the longest
    /// record kept (1 MiB); the reader goes on with the next line.
    #[error(
        "unterminated quoted field: expected a closing '\"' (a quoted field may span lines, up to 1 MiB)"
    )]
    UnterminatedQuote,
    /// A line too short for any grid, where no grid came before.
    #[error(
        "too short for any grid: found {found} symbol(s), expected N² on one line (16 for 4x4, 81 for \
         9x9, ...) or N rows of N (N ≥ 4)"
    )]
    TooShort {
        /// Symbols (or numbers) on the line.
        found: usize,
    },
    /// `--column` on an input that is not CSV.
    #[error(
        "--column applies to CSV input only; this input is {format} format (force CSV with --format csv)"
    )]
    ColumnNotCsv {
        /// The format the input was read as.
        format: super::Format,
    },
    /// Bytes that are not UTF-8.
    #[error("invalid UTF-8 (byte 0x{byte:02x}): expected a text file of puzzles")]
    InvalidUtf8 {
        /// The first bad byte.
        byte: u8,
    },
    /// Binary data (NUL or other control bytes) where text was expected.
    #[error("binary data (byte 0x{byte:02x}): expected a text file of puzzles")]
    Binary {
        /// The first control byte.
        byte: u8,
    },
    /// A line longer than any puzzle line can be.
    #[error("line of {length} bytes is too long: no puzzle line is longer than {limit} bytes")]
    LineTooLong {
        /// The line's length in bytes.
        length: usize,
        /// The limit.
        limit: usize,
    },
    /// A forced alphabet whose size is not the grid side.
    #[error("--symbols {alphabet} gives {len} symbols, but the puzzle is {n}x{n} and needs {n}")]
    AlphabetSize {
        /// The alphabet, as a spec.
        alphabet: String,
        /// Its size.
        len: usize,
        /// The grid side.
        n: usize,
    },
    /// A rule line (`cage`, `variant:`, `regions:`, `solution:`, a SudoCue killer line) that does not
    /// parse.
    #[error("{what}: expected {expected}, found {found:?}")]
    RuleSyntax {
        /// The kind of line.
        what: &'static str,
        /// What should be there.
        expected: &'static str,
        /// What is there (cut after 40 characters).
        found: String,
    },
    /// A variant name in a `variant:` line that is no variant.
    #[error(
        "unknown variant {word:?}: expected x, windoku, disjoint-groups, anti-knight, anti-king, non-consecutive (or jigsaw, killer)"
    )]
    UnknownVariant {
        /// The word.
        word: String,
    },
    /// Rules that do not fit the grid or cannot hold: a variant for other boxes, a cage cell outside
    /// the grid or listed twice, a cage with more cells than digits or a sum no distinct digits reach.
    #[error("{0}")]
    Rules(RulesError),
    /// Something of a known format that satdoku does not read (a sigh constraint type, say).
    #[error("{what} is not supported")]
    Unsupported {
        /// What it is: `constraint type 'Indexing'`.
        what: String,
    },
    /// A region map with more than N distinct region symbols.
    #[error("region map has more than {n} regions: {label:?} is region {}, a {n}x{n} grid has {n}", n + 1)]
    RegionCount {
        /// The first symbol too many.
        label: String,
        /// The grid side.
        n: usize,
    },
    /// A region of other than N cells.
    #[error("region {label:?} has {cells} cells; every region of a {n}x{n} grid has {n}")]
    RegionSize {
        /// The region's symbol.
        label: String,
        /// Its cells.
        cells: usize,
        /// The grid side.
        n: usize,
    },
    /// A region map or solution cut short by another line or the end of the input.
    #[error("truncated {what}: expected {expected} rows, found {found}")]
    TruncatedSection {
        /// `region map` or `solution`.
        what: &'static str,
        /// Rows expected.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// Rule lines with no puzzle grid before them.
    #[error("{what} with no puzzle before it: rule lines follow the grid of their puzzle")]
    Orphan {
        /// What was found.
        what: &'static str,
    },
    /// A second region map or solution for one puzzle.
    #[error("a second {what} for one puzzle")]
    Repeated {
        /// `region map` or `solution`.
        what: &'static str,
    },
    /// A `variant:` word that needs data the puzzle does not have.
    #[error("variant {variant} needs {what}, but the puzzle has none")]
    MissingData {
        /// `jigsaw` or `killer`.
        variant: &'static str,
        /// `a region map` or `cage lines`.
        what: &'static str,
    },
    /// A blank in the solution given with a puzzle.
    #[error("the solution given with the puzzle has a blank at {cell}")]
    SolutionBlank {
        /// The cell, `rXcY`.
        cell: String,
    },
    /// Reading the input failed; the reader stops.
    #[error("read error: {message}")]
    Io {
        /// The I/O error's message.
        message: String,
    },
}
