//! Reading and writing puzzles: line, block, letters, ints and CSV formats, symbol alphabets.
//!
//! [`PuzzleReader`] streams one [`Record`] per input puzzle from any `BufRead`. The format, the grid
//! side N and the symbol alphabet are detected from a bounded look-ahead (or forced with
//! [`ReadOptions`]) and then fixed for the whole input. Each puzzle carries its [`Layout`], so that a
//! solution is written back the way the puzzle came in.
//!
//! Formats:
//! - **line**: one grid per line, N² symbols (`.`, `0`, `-`, `_` blank when `0` is not a symbol), then
//!   optionally whitespace and a note, kept as [`Puzzle::note`]; `#` comments, title lines
//!   (`Gordon F. Royle, ...`) and count lines are skipped, but a line whose first word looks like a
//!   grid is never a title.
//! - **block**: N lines of N symbols, optional `|` between boxes, `---+---` rules and spaces; grids
//!   separated by blank lines or header lines such as `Grid 01`; two leading integer lines give the box
//!   shape (rows, then columns; uio files).
//! - **letters**: a 16x16 block of `A`-`P` with `-` blank (the classic contest format).
//! - **ints**: N lines of N whitespace-separated integers, `0`, `-1` or `.` blank; sudoku_acs header lines
//!   (`n`, then `1`) and `# file:` comments before each grid; or all N² integers on one line.
//! - **csv**: a header and a puzzle column, chosen with `--column` or by name (`puzzle`, `quizzes`, ...)
//!   or by content (the first column holding N² symbols); records are split by the `csv` crate, so a
//!   quoted field may span lines. `--column` on any other format is an error for the input.
//!
//! # How detection decides
//! The reader keeps the first 1,000 lines (at most about 1 MiB), decides, replays them and streams the
//! rest with the decision fixed. (Interactive input can ask for a decision at the first whole puzzle
//! instead: [`Lookahead::FirstPuzzle`].) Blank lines, `#` comments, lone integers of up to three digits (count
//! and box-size headers) and title lines (words with spaces, such as `Grid 01`) are not grid data.
//! - **Format** (unless forced): a first line with commas (followed by another one, or without spaces)
//!   means CSV. Otherwise the most common kind of data line decides: several integer tokens → ints;
//!   several tokens, or `|` with spaces → block; one token of w symbols → a row of a block if w is no
//!   N² of some N ≥ 4 and at most 64, a whole grid on one line if w > 64; for w = 16, 25, 36, 49, 64 a
//!   block when the rows around it hold more than √w distinct symbols (or header lines or `--box` /
//!   `--symbols` say N = w), else a line. A 16x16 block of letters `A`-`P` is the letters format.
//! - **N**: the width of that typical line (its square root for one-line grids). A later grid of
//!   another size is a "mixed sizes" error; N above 400 ([`MAX_N`](crate::MAX_N)) is an error for each
//!   grid, and so is N above 86 ([`MAX_SYMBOLS`], the characters that can be symbols) in any format but
//!   ints.
//! - **Box shape**: `--box`, else two header integers (rows and columns, or `n` and `1`), else
//!   [`Shape::for_side`] (square, or 2x3 for 6, 3x4 for 12); otherwise each grid is an error asking for
//!   `--box`.
//! - **Alphabet** (not for ints): `--symbols`; else, when `.` is a blank and `0` occurs, `0` is a value
//!   above 9x9 (`0-9a-f` for 16x16) and a blank up to 9x9; else a 16x16 file whose givens are letters
//!   only is `A-P`; else `1-9` then `A`, `B`, … (`a`, `b`, … if the file writes lower case; beyond 64
//!   symbols the other punctuation, in code order). A `0` that
//!   is the only blank candidate but no more frequent than other symbols (a full `0-9a-f` grid) is tried
//!   as a value first. Above 9x9, a file of exactly N symbols that none of these covers is read in
//!   character order (`1-9?A-Z`). CSV files count every grid column (puzzles and solutions) for this.
//!   Where the choice was between readings it is a [`Note`], said once ([`PuzzleReader::take_notes`]).
//!   Symbols outside the alphabet are errors whose advice names the exact `--symbols` when the file's
//!   symbols are N.
//! - **Grid ends** (multi-line formats): if the first grid is followed by a blank or header line, every
//!   grid must be, and a row beyond N is that grid's error; else grids are cut every N rows. A blank
//!   or header line inside a grid truncates it.
//!
//! Errors carry `FILE:LINE:COLUMN` (see [`ParseError`]); no input makes the reader panic.
//!
//! ```
//! use satdoku::format::{read_str, ReadOptions, Format};
//! let text = "Grid 01\n003020600\n900305001\n001806400\n008102900\n700000008\n\
//!             006708200\n002609500\n800203009\n005010300\n";
//! let records = read_str(text, "pe96.txt", ReadOptions::default());
//! let puzzle = records[0].puzzle.as_ref().unwrap();
//! assert_eq!(puzzle.layout.format(), Format::Block);
//! let mut out = String::new();
//! puzzle.layout.as_line().write(&puzzle.grid, &mut out);
//! assert_eq!(&out[..9], "..3.2.6..");
//! ```

mod alphabet;
mod block;
mod context;
mod csv;
mod csv_records;
mod detect;
mod error;
mod ints;
mod layout;
mod line;
mod lines;
mod reader;
mod record;
mod rule_lines;
mod sigh;
mod sigh_nfa;
mod symbols;
mod variant;

use std::fmt;
use std::str::FromStr;

pub use alphabet::{Alphabet, AlphabetError, MAX_SYMBOLS};
pub use detect::Note;
pub use error::{ParseError, ParseErrorKind};
pub use layout::Layout;
pub use reader::{PuzzleReader, read_str};
pub use record::{Puzzle, Record};
pub use rule_lines::write_rules;
pub use sigh::{SighWriteError, write_sigh};

use crate::grid::Shape;

/// An input (and output) format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// One grid per line.
    Line,
    /// N lines of N symbols.
    Block,
    /// A block of letters `A`-`P` with `-` blank (16x16).
    Letters,
    /// Whitespace-separated integers, N per line.
    Ints,
    /// A CSV column.
    Csv,
    /// sigh's puzzle strings, one puzzle a line: a constraint string (`.Thermo~R1C1~R1C2…`), or
    /// sigh's other one-line forms (a grid, a killer in its short or long form, pencilmarks).
    /// Constraint strings are also read, one per line, in a file of any other format.
    Sigh,
}

impl Format {
    /// Every format, in the order above.
    pub const ALL: [Format; 6] = [
        Format::Line,
        Format::Block,
        Format::Letters,
        Format::Ints,
        Format::Csv,
        Format::Sigh,
    ];

    /// `line`, `block`, `letters`, `ints`, `csv` or `sigh`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Block => "block",
            Format::Letters => "letters",
            Format::Ints => "ints",
            Format::Csv => "csv",
            Format::Sigh => "sigh",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is none of `line`, `block`, `letters`, `ints`, `csv`, `sigh`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?}: expected line, block, letters, ints, csv or sigh")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// How much input a [`PuzzleReader`] reads before it decides the format, the grid side and the alphabet
/// (set with [`PuzzleReader::with_lookahead`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Lookahead {
    /// The first 1,000 lines (at most about 1 MiB), or the whole input if it is shorter: the best
    /// decision, for files and pipes. Nothing comes out before that much is read.
    #[default]
    Full,
    /// Decides as soon as the lines read hold one whole puzzle of the kind they show — one grid line,
    /// or N rows of an N-wide block — so that a person typing at a terminal sees each answer as soon as
    /// its puzzle is complete. A first line of 16, 25, 36, 49 or 64 symbols (or numbers) may be a row
    /// of a block or a whole 4x4 … 8x8 grid: then a second line is waited for, unless `--format` or
    /// `--box` settles it. It decides after 200 lines at the latest. The decision sees less, so it can
    /// be worse than [`Lookahead::Full`]'s: e.g. the alphabet is chosen from the first puzzle alone,
    /// and grids are cut every N rows.
    FirstPuzzle,
}

/// What the caller forces instead of detecting.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The format; `None` detects it.
    pub format: Option<Format>,
    /// The symbol alphabet (`--symbols`); ignored by ints.
    pub symbols: Option<Alphabet>,
    /// The box shape (`--box`); needed for sides without a default (not a square, 6 or 12).
    pub shape: Option<Shape>,
    /// The CSV column (`--column`): a header name (any case) or a 1-based number.
    pub column: Option<String>,
    /// Read grids with two equal digits in a unit as they are, instead of as an error. For candidate
    /// solutions that a checker is about to judge (`satdoku verify`); puzzles leave it `false`.
    pub allow_clashes: bool,
    /// Variants for every puzzle (`--variant`), besides those a puzzle's `variant:` line names.
    pub variants: Vec<crate::constraint::Variant>,
}
