//! What every format's parser shares: the input's decisions (grid side, alphabet, layout, notes), the
//! records it emits, and turning a grid's cells into a checked [`Puzzle`].

use std::collections::VecDeque;
use std::sync::Arc;

use super::alphabet::Alphabet;
use super::alphabet::MAX_SYMBOLS;
use super::detect::{Note, Plan, choose_alphabet, shape_hint};
use super::error::{ParseError, ParseErrorKind};
use super::layout::Layout;
use super::lines::{Line, MAX_LINE, first_non_text};
use super::record::{Puzzle, Record};
use super::symbols::Symbols;
use super::{Format, ReadOptions};
use crate::grid::{Grid, GridError, MAX_N, Shape, ShapeError};
use crate::rules::RulesError;
use crate::units::Units;

/// The records a parser has emitted and the reader has not handed out yet.
pub(crate) type Emitted = VecDeque<Record>;

/// The state every parser of one input shares.
pub(crate) struct Context {
    pub(crate) format: Format,
    /// The input's grid side, once known.
    pub(crate) n: Option<usize>,
    /// The parsing table of the alphabet (not for ints).
    pub(crate) syms: Option<Symbols>,
    pub(crate) options: ReadOptions,
    source: Arc<str>,
    /// Records emitted so far (the next record's index).
    pub(crate) emitted: usize,
    /// Decisions not yet handed out ([`super::PuzzleReader::take_notes`]).
    pub(crate) notes: Vec<Note>,
    /// The first lone integer line skipped before any puzzle, `(line, its width)`: if no puzzle comes,
    /// the input was a line too short for any grid (`echo 123`), not an empty one.
    pub(crate) skipped: Option<(usize, usize)>,
    /// Layout style learnt from the look-ahead.
    pub(crate) spaced: bool,
    bars: bool,
    ints_line: bool,
    layout: Option<Arc<Layout>>,
    /// The rules of the last shape read (the standard units and `--variant`), shared by its puzzles.
    rules: Option<(Shape, Result<Arc<Units>, RulesError>)>,
    /// Whether rule lines may follow a puzzle (see `variant.rs`): its clash check then waits for its
    /// rules, and [`Context::finish`] keeps the cells' positions in `positions`.
    pub(crate) defer_clash: bool,
    /// The position of each cell of the last puzzle finished, when the clash check is deferred.
    pub(crate) positions: Option<Vec<(usize, usize)>>,
}

impl Context {
    pub(crate) fn new(plan: &Plan, options: &ReadOptions, source: Arc<str>) -> Context {
        let mut notes = Vec::new();
        let syms = match (plan.format, plan.n, &plan.alphabet) {
            (Format::Ints, _, _) | (_, None, _) => None,
            (_, Some(_), Some(choice)) => {
                notes.extend(choice.note.clone());
                Some(Symbols::new(
                    choice.alphabet.clone(),
                    choice.symbols.clone(),
                ))
            }
            (_, Some(n), None) => Some(Symbols::new(Alphabet::default_for(n), Vec::new())),
        };
        Context {
            format: plan.format,
            n: plan.n,
            syms,
            options: options.clone(),
            source,
            emitted: 0,
            notes,
            skipped: None,
            spaced: plan.spaced,
            bars: plan.bars,
            ints_line: plan.ints_line,
            layout: None,
            rules: None,
            defer_clash: plan.trailers,
            positions: None,
        }
    }

    /// The rules of puzzles of `shape` without rule lines of their own: the standard units with the
    /// `--variant`s, built once per shape.
    ///
    /// # Errors
    /// A variant that does not fit the shape.
    pub(crate) fn rules(&mut self, shape: Shape) -> Result<Arc<Units>, RulesError> {
        if let Some((s, r)) = &self.rules
            && *s == shape
        {
            return r.clone();
        }
        let built = self
            .options
            .variants
            .iter()
            .fold(Units::rules(shape), |b, &v| b.variant(v))
            .build()
            .map(Arc::new);
        self.rules = Some((shape, built.clone()));
        built
    }

    /// Checks that no unit of `units` holds a given twice; the error is placed where the second one
    /// is written (`locate` gives the line and column of a cell).
    pub(crate) fn clash(
        &self,
        units: &Units,
        grid: &Grid,
        layout: &Layout,
        locate: impl Fn(usize) -> (usize, usize),
    ) -> Result<(), ParseError> {
        if self.options.allow_clashes {
            return Ok(());
        }
        let Some(c) = units.find_clash(grid) else {
            return Ok(());
        };
        let symbol = if layout.format() == Format::Ints {
            c.digit.get().to_string()
        } else {
            layout.alphabet().symbol(c.digit.get()).to_string()
        };
        let (l, col) = locate(c.second.index());
        Err(self.error(
            l,
            col,
            ParseErrorKind::Clash {
                unit: c.unit,
                symbol,
                first: c.first,
                second: c.second,
                shape: grid.shape(),
            },
        ))
    }

    pub(crate) fn error(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            source: self.source.clone(),
            line,
            column,
            kind,
        }
    }

    pub(crate) fn emit(
        &mut self,
        line: usize,
        puzzle: Result<Puzzle, ParseError>,
        out: &mut Emitted,
    ) {
        out.push_back(Record {
            index: self.emitted,
            line,
            puzzle,
        });
        self.emitted += 1;
    }

    pub(crate) fn too_long(&self, line: &Line<'_>) -> ParseError {
        self.error(
            line.number,
            1,
            ParseErrorKind::LineTooLong {
                length: line.length,
                limit: MAX_LINE,
            },
        )
    }

    /// Remembers a lone integer line skipped before any puzzle (a count or box-size header).
    pub(crate) fn skip_header(&mut self, line: &Line<'_>) {
        if self.emitted == 0 && self.skipped.is_none() {
            self.skipped = Some((line.number, line.text.len()));
        }
    }

    /// At the end of the input: if nothing was emitted, the one record that says why.
    pub(crate) fn end(&mut self, out: &mut Emitted) {
        if self.emitted > 0 {
            return;
        }
        let e = match self.skipped {
            Some((line, width)) => {
                self.error(line, width + 1, ParseErrorKind::TooShort { found: width })
            }
            None => self.error(1, 1, ParseErrorKind::NoPuzzle),
        };
        let line = e.line;
        self.emit(line, Err(e), out);
    }

    /// Fixes N (and the alphabet) from the first puzzle-like text, when the look-ahead had none.
    pub(crate) fn set_n(&mut self, n: usize, text: &[u8]) {
        self.n = Some(n);
        if self.format != Format::Ints {
            let mut seen = [0usize; 256];
            for &b in text {
                seen[b as usize] += 1;
            }
            let choice = choose_alphabet(n, &seen, &self.options);
            self.notes.extend(choice.note);
            self.syms = Some(Symbols::new(choice.alphabet, choice.symbols));
        }
    }

    /// The layout for a grid of side `n` (and the header hint), shared while the shape stays.
    pub(crate) fn layout(
        &mut self,
        n: usize,
        hint: Option<(u32, u32)>,
    ) -> Result<Arc<Layout>, ParseErrorKind> {
        if n > MAX_N {
            return Err(ParseErrorKind::TooLarge { n });
        }
        if n > MAX_SYMBOLS && self.format != Format::Ints {
            return Err(ParseErrorKind::TooManySymbols { n });
        }
        if self.format != Format::Ints
            && let Some(a) = &self.options.symbols
            && a.len() != n
        {
            return Err(ParseErrorKind::AlphabetSize {
                alphabet: a.to_string(),
                len: a.len(),
                n,
            });
        }
        let shape = match self.options.shape {
            Some(s) => s.check_side(n).map_err(ParseErrorKind::Shape)?,
            None => match hint.and_then(|(a, b)| shape_hint(a, b, n)) {
                Some(s) => s,
                None => Shape::for_side(n).map_err(|e| match (e, self.format) {
                    (ShapeError::NoDefault { n }, Format::Block) => {
                        ParseErrorKind::RowWithoutShape { n }
                    }
                    (e, _) => ParseErrorKind::Shape(e),
                })?,
            },
        };
        if let Some(l) = &self.layout
            && l.shape() == shape
        {
            return Ok(Arc::clone(l));
        }
        let alphabet = match &self.syms {
            Some(s) => s.alphabet.clone(),
            None => Alphabet::default_for(n),
        };
        let mut l = Layout::new(self.format, shape)
            .with_alphabet(alphabet)
            .with_block_style(self.spaced, self.bars);
        if self.format == Format::Ints && self.ints_line {
            l = l.as_line();
        }
        let l = Arc::new(l);
        self.layout = Some(Arc::clone(&l));
        Ok(l)
    }

    /// Builds the grid with the shape's rules ([`Context::rules`]), rejecting equal givens in a unit
    /// (reported where the second one is written: `locate` gives the line and column of a cell) unless
    /// rule lines may follow ([`Context::defer_clash`]).
    pub(crate) fn finish(
        &mut self,
        layout: Arc<Layout>,
        values: Vec<u16>,
        locate: impl Fn(usize) -> (usize, usize),
        line: usize,
    ) -> Result<Puzzle, ParseError> {
        let shape = layout.shape();
        let grid = match Grid::from_values(shape, values) {
            Ok(g) => g,
            Err(e) => {
                // Not reachable: lengths and values are checked before. Reported, never a panic.
                let kind = match e {
                    GridError::Size {
                        expected, found, ..
                    } => ParseErrorKind::WrongLength {
                        n: shape.n(),
                        expected,
                        found,
                    },
                    _ => ParseErrorKind::ValueOutOfRange {
                        text: e.to_string(),
                        n: shape.n(),
                    },
                };
                return Err(self.error(line, 1, kind));
            }
        };
        let units = self
            .rules(shape)
            .map_err(|e| self.error(line, 1, ParseErrorKind::Rules(e)))?;
        if self.defer_clash {
            // Rule lines may still change the rules: `variant.rs` checks when they are known.
            self.positions = Some((0..shape.cells()).map(&locate).collect());
        } else {
            self.clash(&units, &grid, &layout, locate)?;
        }
        Ok(Puzzle {
            grid,
            layout,
            note: None,
            units,
            expected: None,
            solvable: None,
        })
    }
}

/// At most this many characters of offending text are quoted in a message.
const SNIPPET: usize = 40;

/// `bytes` as text for a message, cut after [`SNIPPET`] characters.
pub(crate) fn snippet(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(&bytes[..bytes.len().min(SNIPPET * 4)]);
    let mut out: String = s.chars().take(SNIPPET).collect();
    if out.len() < bytes.len() {
        out.push('…');
    }
    out
}

/// Binary data or invalid UTF-8 in `text`: `(offset, error)`. A line of garbage is reported as such
/// rather than as a grid of the wrong length.
pub(crate) fn garbage(text: &[u8]) -> Option<(usize, ParseErrorKind)> {
    let (offset, byte, utf8) = first_non_text(text)?;
    let kind = if utf8 {
        ParseErrorKind::InvalidUtf8 { byte }
    } else {
        ParseErrorKind::Binary { byte }
    };
    Some((offset, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_are_cut() {
        assert_eq!(snippet(b"abc"), "abc");
        let long = "x".repeat(100);
        assert_eq!(snippet(long.as_bytes()).chars().count(), SNIPPET + 1);
        assert!(snippet(long.as_bytes()).ends_with('…'));
    }

    #[test]
    fn garbage_is_found() {
        assert_eq!(garbage(b"12.4"), None);
        assert_eq!(
            garbage(b"12\x00"),
            Some((2, ParseErrorKind::Binary { byte: 0 }))
        );
        assert_eq!(
            garbage(b"1\xff"),
            Some((1, ParseErrorKind::InvalidUtf8 { byte: 0xff }))
        );
    }
}
