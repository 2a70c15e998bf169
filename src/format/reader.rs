//! `PuzzleReader`: streams one `Record` per input puzzle, errors included, from any `BufRead`.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;

use super::alphabet::Alphabet;
use super::csv;
use super::detect::{
    self, CsvPlan, LOOKAHEAD_BYTES, LOOKAHEAD_LINES, Plan, choose_alphabet, flat_width,
    holds_a_puzzle, is_rule, row_width, shape_hint, square_side,
};
use super::error::{ParseError, ParseErrorKind};
use super::layout::Layout;
use super::lines::{Kind, Line, LineReader, MAX_LINE, OwnedLine, classify, column, first_non_text};
use super::symbols::{SKIP, Symbols};
use super::{Format, Lookahead, ReadOptions};
use crate::grid::{Grid, GridError, MAX_N, Shape};
use crate::units::Units;

/// A puzzle read from the input, with the layout it was written in.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The givens.
    pub grid: Grid,
    /// How it was written; shared by the puzzles of one file.
    pub layout: Arc<Layout>,
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

/// Reads puzzles from a `BufRead`, streaming: the format, grid side and alphabet are decided from a
/// bounded look-ahead (the first 1,000 lines, at most about 1 MiB), then fixed for the whole input.
///
/// Every input puzzle gives exactly one [`Record`], in input order; a malformed one gives an error
/// record and the reader goes on with the next. An input without any puzzle gives one error record
/// ("no puzzle found"). An I/O error gives an error record and ends the iteration.
///
/// # Examples
/// ```
/// use satdoku::format::{PuzzleReader, ReadOptions, Format};
/// let text = "# two puzzles\n\
///     4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
///     52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n";
/// let records: Vec<_> = PuzzleReader::new(text.as_bytes(), "top", ReadOptions::default()).collect();
/// assert_eq!(records.len(), 2);
/// let p = records[1].puzzle.as_ref().unwrap();
/// assert_eq!((records[1].index, records[1].line), (1, 3));
/// assert_eq!(p.layout.format(), Format::Line);
/// assert_eq!(p.grid.filled(), 17);
/// ```
pub struct PuzzleReader<R: BufRead> {
    lines: LineReader<R>,
    options: ReadOptions,
    source: Arc<str>,
    parser: Option<Parser>,
    replay: VecDeque<OwnedLine>,
    pending_io: Option<std::io::Error>,
    out: VecDeque<Record>,
    state: State,
    lookahead: Lookahead,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    Run,
    Done,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader of `reader`, naming it `source` in errors (`<stdin>` for standard input, say).
    pub fn new(reader: R, source: impl Into<Arc<str>>, options: ReadOptions) -> Self {
        PuzzleReader {
            lines: LineReader::new(reader),
            options,
            source: source.into(),
            parser: None,
            replay: VecDeque::new(),
            pending_io: None,
            out: VecDeque::new(),
            state: State::Start,
            lookahead: Lookahead::Full,
        }
    }

    /// This reader deciding from `lookahead` instead of [`Lookahead::Full`]: a terminal's reader should
    /// use [`Lookahead::FirstPuzzle`], so that each answer comes as soon as its puzzle is typed.
    ///
    /// # Examples
    /// ```
    /// use satdoku::format::{Lookahead, PuzzleReader, ReadOptions};
    /// let typed = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    /// let mut reader = PuzzleReader::new(typed.as_bytes(), "<stdin>", ReadOptions::default())
    ///     .with_lookahead(Lookahead::FirstPuzzle);
    /// assert!(reader.next().unwrap().puzzle.is_ok());
    /// ```
    pub fn with_lookahead(mut self, lookahead: Lookahead) -> Self {
        self.lookahead = lookahead;
        self
    }

    /// Reads the look-ahead and decides the plan.
    fn start(&mut self) {
        let mut sample = Vec::new();
        let mut bytes = 0;
        let mut whole = false;
        let max_lines = match self.lookahead {
            Lookahead::Full => LOOKAHEAD_LINES,
            // Enough for a 64x64 block with rules and headers; bounds the repeated detection.
            Lookahead::FirstPuzzle => 200,
        };
        while sample.len() < max_lines && bytes < LOOKAHEAD_BYTES {
            match self.lines.next_line() {
                Ok(true) => {
                    bytes += self.lines.buf.len() + 1;
                    let data = classify(&self.lines.buf) == Kind::Data;
                    sample.push(OwnedLine {
                        number: self.lines.number,
                        text: self.lines.buf.clone(),
                        length: self.lines.length,
                    });
                    if data
                        && self.lookahead == Lookahead::FirstPuzzle
                        && holds_a_puzzle(&sample, &self.options)
                    {
                        break;
                    }
                }
                Ok(false) => {
                    whole = true;
                    break;
                }
                Err(e) => {
                    self.pending_io = Some(e);
                    break;
                }
            }
        }
        match detect::detect(&sample, whole, &self.options) {
            Ok(plan) => {
                self.parser = Some(Parser::new(plan, &self.options, self.source.clone()));
                self.replay = sample.into();
                self.state = State::Run;
            }
            Err((line, column, kind)) => {
                self.out.push_back(Record {
                    index: 0,
                    line,
                    puzzle: Err(ParseError {
                        source: self.source.clone(),
                        line,
                        column,
                        kind,
                    }),
                });
                self.state = State::Done;
            }
        }
    }

    fn io_error(&mut self, e: &std::io::Error) {
        let index = self.parser.as_ref().map_or(0, |p| p.emitted);
        let line = self.lines.number + 1;
        self.out.push_back(Record {
            index,
            line,
            puzzle: Err(ParseError {
                source: self.source.clone(),
                line,
                column: 1,
                kind: ParseErrorKind::Io {
                    message: e.to_string(),
                },
            }),
        });
        self.state = State::Done;
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        loop {
            if let Some(r) = self.out.pop_front() {
                return Some(r);
            }
            match self.state {
                State::Done => return None,
                State::Start => {
                    self.start();
                    continue;
                }
                State::Run => {}
            }
            let Some(parser) = self.parser.as_mut() else {
                self.state = State::Done;
                continue;
            };
            if let Some(l) = self.replay.pop_front() {
                parser.feed(l.as_line(), &mut self.out);
                continue;
            }
            if let Some(e) = self.pending_io.take() {
                self.io_error(&e);
                continue;
            }
            match self.lines.next_line() {
                Ok(true) => {
                    let line = Line {
                        number: self.lines.number,
                        text: &self.lines.buf,
                        length: self.lines.length,
                    };
                    parser.feed(line, &mut self.out);
                }
                Ok(false) => {
                    parser.end(self.lines.number, &mut self.out);
                    if parser.emitted == 0 {
                        let e = parser.error(1, 1, ParseErrorKind::NoPuzzle);
                        parser.emit(1, Err(e), &mut self.out);
                    }
                    self.state = State::Done;
                }
                Err(e) => self.io_error(&e),
            }
        }
    }
}

/// Reads every puzzle of `text` (a convenience for tests and small inputs).
pub fn read_str(text: &str, source: &str, options: ReadOptions) -> Vec<Record> {
    PuzzleReader::new(text.as_bytes(), source, options).collect()
}

/// At most this many characters of offending text are quoted in a message.
const SNIPPET: usize = 40;

fn snippet(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(&bytes[..bytes.len().min(SNIPPET * 4)]);
    let mut out: String = s.chars().take(SNIPPET).collect();
    if out.len() < bytes.len() {
        out.push('…');
    }
    out
}

/// Binary data or invalid UTF-8 in `text[start..end]`: `(offset in text, error)`. A line of garbage is
/// reported as such rather than as a grid of the wrong length.
fn garbage(text: &[u8], start: usize, end: usize) -> Option<(usize, ParseErrorKind)> {
    let (offset, byte, utf8) = first_non_text(text.get(start..end)?)?;
    let kind = if utf8 {
        ParseErrorKind::InvalidUtf8 { byte }
    } else {
        ParseErrorKind::Binary { byte }
    };
    Some((start + offset, kind))
}

/// The byte offset of the `k`-th (0-based) cell symbol of a one-line grid (`|` skipped), or the end.
fn nth_symbol(field: &[u8], k: usize) -> usize {
    let mut seen = 0;
    for (i, &b) in field.iter().enumerate() {
        if b == b'|' || b & 0xC0 == 0x80 {
            continue;
        }
        if seen == k {
            return i;
        }
        seen += 1;
    }
    field.len()
}

/// One ints token: a value 1..=n, 0 for a blank (`0`, `-1`, `.`, `-`, `_`).
fn int_token(tok: &[u8], n: usize) -> Result<u8, ParseErrorKind> {
    match tok {
        b"." | b"-" | b"_" | b"-1" => Ok(0),
        _ if tok.iter().all(u8::is_ascii_digit) => {
            let v = tok.iter().fold(0usize, |a, &b| {
                (a * 10 + usize::from(b - b'0')).min(1 << 20)
            });
            if v <= n {
                Ok(v as u8)
            } else {
                Err(ParseErrorKind::ValueOutOfRange {
                    text: snippet(tok),
                    n,
                })
            }
        }
        [b'-', rest @ ..] if !rest.is_empty() && rest.iter().all(u8::is_ascii_digit) => {
            Err(ParseErrorKind::ValueOutOfRange {
                text: snippet(tok),
                n,
            })
        }
        _ => match first_non_text(tok) {
            Some((_, byte, true)) => Err(ParseErrorKind::InvalidUtf8 { byte }),
            Some((_, byte, false)) => Err(ParseErrorKind::Binary { byte }),
            None => Err(ParseErrorKind::NotAnInteger { text: snippet(tok) }),
        },
    }
}

/// `BIT[v]`: the mask of digit `v` (bit `v - 1`), 0 for a blank or anything above 64.
const BIT: [u64; 128] = {
    let mut t = [0u64; 128];
    let mut v = 1;
    while v <= 64 {
        t[v] = 1 << (v - 1);
        v += 1;
    }
    t
};

/// The most cells a grid has (64 × 64).
const CELLS: usize = MAX_N * MAX_N;

/// Per-shape tables for the fast clash test, and the unit list for naming a clash.
struct Checker {
    shape: Shape,
    /// Row, column and box of each cell (fixed size: indexing needs no bounds checks).
    cells: Box<[[u8; 4]; CELLS]>,
    /// Scratch: the digits seen so far in each row, column and box (N of each are used).
    seen: Box<[[u64; MAX_N]; 3]>,
    units: Option<Units>,
}

/// A multi-line grid being read.
struct Block {
    /// Line of its first row.
    start: usize,
    /// Rows expected.
    expected: usize,
    /// Rows read.
    seen: usize,
    values: Vec<u8>,
    /// The first error found; the block is still read to its end.
    err: Option<ParseError>,
    layout: Option<Arc<Layout>>,
}

/// The format-specific state machine, fed one line at a time.
pub(crate) struct Parser {
    format: Format,
    ints_line: bool,
    n: Option<usize>,
    syms: Option<Symbols>,
    options: ReadOptions,
    spaced: bool,
    bars: bool,
    /// Grids end with a blank or header line (learnt from the look-ahead), not just after N rows.
    separated: bool,
    csv: Option<CsvPlan>,
    source: Arc<str>,
    /// Records emitted so far (the next record's index).
    pub(crate) emitted: usize,
    layout: Option<Arc<Layout>>,
    checker: Option<Checker>,
    block: Option<Block>,
    /// (line, column) of each cell of the block being read.
    positions: Vec<(usize, usize)>,
    /// The last two header integers seen since the last grid.
    hints: [Option<u32>; 2],
    fields: Vec<(usize, usize)>,
}

impl Parser {
    fn new(plan: Plan, options: &ReadOptions, source: Arc<str>) -> Parser {
        let syms = match (plan.format, plan.n) {
            (Format::Ints, _) | (_, None) => None,
            (_, Some(n)) => Some(Symbols::new(
                plan.alphabet
                    .clone()
                    .unwrap_or_else(|| Alphabet::default_for(n)),
            )),
        };
        Parser {
            format: plan.format,
            ints_line: plan.ints_line,
            n: plan.n,
            syms,
            options: options.clone(),
            spaced: plan.spaced,
            bars: plan.bars,
            separated: plan.separated,
            csv: plan.csv,
            source,
            emitted: 0,
            layout: None,
            checker: None,
            block: None,
            positions: Vec::new(),
            hints: [None, None],
            fields: Vec::new(),
        }
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
        out: &mut VecDeque<Record>,
    ) {
        out.push_back(Record {
            index: self.emitted,
            line,
            puzzle,
        });
        self.emitted += 1;
    }

    fn feed(&mut self, line: Line<'_>, out: &mut VecDeque<Record>) {
        match self.format {
            Format::Line => self.feed_line(line, out),
            Format::Csv => self.feed_csv(line, out),
            Format::Ints if self.ints_line => self.feed_ints_line(line, out),
            Format::Block | Format::Letters | Format::Ints => self.feed_block(line, out),
        }
    }

    /// At the end of the input (after line `last`): a block still open is truncated.
    fn end(&mut self, last: usize, out: &mut VecDeque<Record>) {
        self.truncate(last + 1, true, out);
    }

    fn too_long(&self, line: &Line<'_>) -> ParseError {
        self.error(
            line.number,
            1,
            ParseErrorKind::LineTooLong {
                length: line.length,
                limit: MAX_LINE,
            },
        )
    }

    /// Fixes N (and the alphabet) from the first puzzle-like text, when the look-ahead had none.
    fn set_n(&mut self, n: usize, text: &[u8]) {
        self.n = Some(n);
        if self.format != Format::Ints {
            let mut seen = [0usize; 256];
            for &b in text {
                seen[b as usize] += 1;
            }
            self.syms = Some(Symbols::new(choose_alphabet(n, &seen, &self.options)));
        }
    }

    /// The layout for a grid of side `n` (and the header hint), shared while the shape stays.
    fn layout(
        &mut self,
        n: usize,
        hint: Option<(u32, u32)>,
    ) -> Result<Arc<Layout>, ParseErrorKind> {
        if n > MAX_N {
            return Err(ParseErrorKind::TooLarge { n });
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
                None => Shape::for_side(n).map_err(ParseErrorKind::Shape)?,
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

    /// Whether two givens clash in a row, column or box, by row, column and box bit masks.
    fn has_clash(&mut self, shape: Shape, values: &[u8]) -> bool {
        let n = shape.n();
        if self.checker.as_ref().map(|c| c.shape) != Some(shape) {
            let mut cells = Box::new([[0u8; 4]; CELLS]);
            for (i, cell) in cells.iter_mut().enumerate().take(n * n) {
                let (r, c) = (i / n, i % n);
                *cell = [r as u8, c as u8, shape.block_of(r, c) as u8, 0];
            }
            self.checker = Some(Checker {
                shape,
                cells,
                seen: Box::new([[0; MAX_N]; 3]),
                units: None,
            });
        }
        let Some(checker) = self.checker.as_mut() else {
            return false;
        };
        let [rows, cols, boxes] = &mut *checker.seen;
        for unit in [&mut *rows, &mut *cols, &mut *boxes] {
            unit[..n].fill(0);
        }
        let mut dup = 0u64;
        // 16 cells at a time, the filled ones as a bit mask, then one check per given: a 17-clue grid
        // costs 17 checks and no branch per cell.
        let mut check = |start: usize, chunk: &[u8]| {
            let mut filled = chunk
                .iter()
                .enumerate()
                .fold(0u32, |m, (j, &v)| m | u32::from(v != 0) << j);
            while filled != 0 {
                let i = (start + filled.trailing_zeros() as usize) & (CELLS - 1);
                filled &= filled - 1;
                let [r, c, b, _] = checker.cells[i];
                let bit = BIT[values.get(i).map_or(0, |&v| v as usize & 127)];
                let (r, c, b) = (r as usize & 63, c as usize & 63, b as usize & 63);
                dup |= (rows[r] | cols[c] | boxes[b]) & bit;
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[b] |= bit;
            }
        };
        let chunks = values.chunks_exact(16);
        let tail = chunks.remainder();
        for (k, chunk) in chunks.enumerate() {
            check(16 * k, chunk);
        }
        check(values.len() - tail.len(), tail);
        dup != 0
    }

    /// Builds the grid, rejecting equal givens in a unit (reported where the second one is written).
    fn finish(
        &mut self,
        layout: Arc<Layout>,
        values: Vec<u8>,
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
        if !self.options.allow_clashes
            && self.has_clash(shape, grid.values())
            && let Some(checker) = self.checker.as_mut()
        {
            let units = checker.units.get_or_insert_with(|| Units::standard(shape));
            if let Some(c) = units.find_clash(&grid) {
                let symbol = if layout.format() == Format::Ints {
                    c.digit.get().to_string()
                } else {
                    layout.alphabet().symbol(c.digit.get()).to_string()
                };
                let (l, col) = locate(c.second.index());
                return Err(self.error(
                    l,
                    col,
                    ParseErrorKind::Clash {
                        unit: c.unit,
                        symbol,
                        first: c.first,
                        second: c.second,
                        shape,
                    },
                ));
            }
        }
        Ok(Puzzle { grid, layout })
    }

    // ----- line format and CSV: a whole grid in one field -----

    fn feed_line(&mut self, line: Line<'_>, out: &mut VecDeque<Record>) {
        match classify(line.text) {
            Kind::Data => {}
            Kind::Blank | Kind::Comment => return,
            // A count or title line heads some files (Norvig's copies, Royle's list); among puzzles
            // the same text is a malformed puzzle, reported rather than dropped.
            Kind::HeaderInt(_) | Kind::HeaderText if self.emitted == 0 => return,
            Kind::HeaderInt(_) | Kind::HeaderText => {}
        }
        let r = if line.too_long() {
            Err(self.too_long(&line))
        } else {
            let start = line.text.len() - super::lines::trim_start(line.text).len();
            self.parse_flat(line.text, start, line.text.len(), line.number)
        };
        self.emit(line.number, r, out);
    }

    fn feed_csv(&mut self, line: Line<'_>, out: &mut VecDeque<Record>) {
        let Some(plan) = &self.csv else {
            return;
        };
        if plan.header_line == Some(line.number)
            || matches!(classify(line.text), Kind::Blank | Kind::Comment)
        {
            return;
        }
        let column = plan.column;
        let r = if line.too_long() {
            Err(self.too_long(&line))
        } else {
            let mut fields = std::mem::take(&mut self.fields);
            let r = match csv::fields(line.text, column, &mut fields) {
                Err(off) => Err(self.error(
                    line.number,
                    column_of(line.text, off),
                    ParseErrorKind::UnterminatedQuote,
                )),
                Ok(()) => match fields.get(column) {
                    Some(&(s, e)) => self.parse_flat(line.text, s, e, line.number),
                    None => {
                        let name = self
                            .csv
                            .as_ref()
                            .map(|p| p.name.clone())
                            .unwrap_or_default();
                        Err(self.error(
                            line.number,
                            column_of(line.text, line.text.len()),
                            ParseErrorKind::MissingField {
                                found: fields.len(),
                                name,
                                index: column + 1,
                            },
                        ))
                    }
                },
            };
            self.fields = fields;
            r
        };
        self.emit(line.number, r, out);
    }

    /// Parses the one-line grid `text[start..end]`.
    fn parse_flat(
        &mut self,
        text: &[u8],
        start: usize,
        end: usize,
        line: usize,
    ) -> Result<Puzzle, ParseError> {
        let field = &text[start..end];
        let plain = field.is_ascii() && memchr::memchr(b'|', field).is_none();
        let count = if plain {
            field.len()
        } else {
            flat_width(field)
        };
        let n = match self.n {
            Some(n) => n,
            None => match square_side(count) {
                Some(m) => {
                    self.set_n(m, field);
                    m
                }
                None => {
                    if let Some((at, kind)) = garbage(text, start, end) {
                        return Err(self.error(line, column_of(text, at), kind));
                    }
                    return Err(self.error(
                        line,
                        column_of(text, start),
                        ParseErrorKind::NotSquare { found: count },
                    ));
                }
            },
        };
        let n2 = n * n;
        if count != n2 {
            if let Some((at, kind)) = garbage(text, start, end) {
                return Err(self.error(line, column_of(text, at), kind));
            }
            if let Some(m) = square_side(count).filter(|&m| m != n) {
                return Err(self.error(
                    line,
                    column_of(text, start),
                    ParseErrorKind::MixedSizes {
                        found: m,
                        expected: n,
                    },
                ));
            }
            let at = if count > n2 {
                start + nth_symbol(field, n2)
            } else {
                end
            };
            return Err(self.error(
                line,
                column_of(text, at),
                ParseErrorKind::WrongLength {
                    n,
                    expected: n2,
                    found: count,
                },
            ));
        }
        let layout = match self.layout(n, None) {
            Ok(l) => l,
            Err(k) => return Err(self.error(line, column_of(text, start), k)),
        };
        let Some(syms) = &self.syms else {
            return Err(self.error(line, 1, ParseErrorKind::TooLarge { n }));
        };
        let mut values = Vec::with_capacity(n2);
        let bad = if plain {
            values.extend(field.iter().map(|&b| syms.lut[b as usize]));
            if values.iter().fold(0u8, |a, &v| a | v) & 0x80 != 0 {
                values.iter().position(|&v| v & 0x80 != 0)
            } else {
                None
            }
        } else {
            let mut bad = None;
            for (i, &b) in field.iter().enumerate() {
                let t = syms.lut[b as usize];
                if t == SKIP {
                    continue;
                }
                if t & 0x80 != 0 {
                    bad = Some(i);
                    break;
                }
                values.push(t);
            }
            bad
        };
        if let Some(i) = bad {
            let kind = syms.error_at(field, i);
            return Err(self.error(line, column_of(text, start + i), kind));
        }
        let locate = |cell: usize| {
            let off = if plain { cell } else { nth_symbol(field, cell) };
            (line, column_of(text, start + off))
        };
        self.finish(layout, values, locate, line)
    }

    // ----- multi-line grids: block, letters, ints -----

    fn feed_block(&mut self, line: Line<'_>, out: &mut VecDeque<Record>) {
        let kind = classify(line.text);
        match kind {
            Kind::Comment => return,
            Kind::Blank | Kind::HeaderText | Kind::HeaderInt(_) => {
                self.truncate(line.number, false, out);
                if let Kind::HeaderInt(v) = kind {
                    self.hints = [self.hints[1], Some(v)];
                }
                return;
            }
            Kind::Data => {}
        }
        let ints = self.format == Format::Ints;
        let width = if ints {
            count_tokens(line.text)
        } else {
            row_width(line.text)
        };
        let n = match self.n {
            Some(n) => n,
            None => {
                self.set_n(width, line.text);
                width
            }
        };
        // Letters too: a block of `A`-`P` written with `|` and `---+---` rules is read as letters.
        if matches!(self.format, Format::Block | Format::Letters)
            && is_rule(line.text, n, self.bars)
        {
            return;
        }
        if self.block.is_none() {
            self.start_block(&line, n, width);
        }
        let Some(mut b) = self.block.take() else {
            return;
        };
        let row = b.seen;
        b.seen += 1;
        if row >= b.expected {
            // Grids of this file end with a blank or header line: a row beyond N belongs to this grid.
            if b.err.is_none() {
                b.err = Some(self.error(
                    line.number,
                    1,
                    ParseErrorKind::ExtraRows {
                        expected: b.expected,
                    },
                ));
            }
            self.block = Some(b);
            return;
        }
        if b.err.is_none() {
            let r = if line.too_long() {
                Err(self.too_long(&line))
            } else if ints {
                self.ints_cells(line.text, line.number, n, n, Some(row), &mut b.values)
            } else {
                self.symbol_row(&line, n, row, &mut b.values)
            };
            if let Err(e) = r {
                b.err = Some(e);
            }
        }
        if b.seen == b.expected && !self.separated {
            self.complete(b, out);
        } else {
            self.block = Some(b);
        }
    }

    fn start_block(&mut self, line: &Line<'_>, n: usize, width: usize) {
        let hint = match self.hints {
            [Some(a), Some(b)] => Some((a, b)),
            _ => None,
        };
        self.hints = [None, None];
        self.positions.clear();
        let mut b = Block {
            start: line.number,
            expected: n,
            seen: 0,
            values: Vec::new(),
            err: None,
            layout: None,
        };
        if width != n && width >= 4 && Shape::for_side(width).is_ok() {
            b.expected = width;
            b.err = Some(self.error(
                line.number,
                1,
                ParseErrorKind::MixedSizes {
                    found: width,
                    expected: n,
                },
            ));
        } else {
            match self.layout(n, hint) {
                Ok(l) => {
                    b.values.reserve_exact(n * n);
                    b.layout = Some(l);
                }
                Err(k) => b.err = Some(self.error(line.number, 1, k)),
            }
        }
        self.block = Some(b);
    }

    /// One row of symbols (spaces, tabs and `|` between cells are skipped).
    fn symbol_row(
        &mut self,
        line: &Line<'_>,
        n: usize,
        row: usize,
        values: &mut Vec<u8>,
    ) -> Result<(), ParseError> {
        let text = line.text;
        let Some(syms) = &self.syms else {
            return Err(self.error(line.number, 1, ParseErrorKind::TooLarge { n }));
        };
        let mut count = 0;
        let mut bad = None;
        let mut extra = None;
        for (i, &b) in text.iter().enumerate() {
            if b & 0xC0 == 0x80 || matches!(b, b' ' | b'\t' | b'|') {
                continue;
            }
            count += 1;
            if count > n {
                extra.get_or_insert(i);
                continue;
            }
            let t = syms.lut[b as usize];
            if t & 0x80 != 0 && bad.is_none() {
                bad = Some(i);
            }
            values.push(t);
            self.positions.push((line.number, i + 1));
        }
        if count != n {
            if let Some((at, kind)) = garbage(text, 0, text.len()) {
                return Err(self.error(line.number, column_of(text, at), kind));
            }
            return Err(self.error(
                line.number,
                column_of(text, extra.unwrap_or(text.len())),
                ParseErrorKind::RowLength {
                    row: row + 1,
                    expected: n,
                    found: count,
                    what: "symbols",
                },
            ));
        }
        if let Some(i) = bad {
            return Err(self.error(line.number, column_of(text, i), syms.error_at(text, i)));
        }
        Ok(())
    }

    /// `expect` integers of a grid of side `n`: a row (`row` = Some) or a whole one-line grid.
    fn ints_cells(
        &mut self,
        text: &[u8],
        line: usize,
        n: usize,
        expect: usize,
        row: Option<usize>,
        values: &mut Vec<u8>,
    ) -> Result<(), ParseError> {
        let mut count = 0;
        let mut first_err: Option<(usize, ParseErrorKind)> = None;
        let mut extra = None;
        let mut i = 0;
        while i < text.len() {
            while i < text.len() && matches!(text[i], b' ' | b'\t') {
                i += 1;
            }
            if i == text.len() {
                break;
            }
            let s = i;
            while i < text.len() && !matches!(text[i], b' ' | b'\t') {
                i += 1;
            }
            count += 1;
            if count > expect {
                extra.get_or_insert(s);
                continue;
            }
            let v = match int_token(&text[s..i], n) {
                Ok(v) => v,
                Err(k) => {
                    if first_err.is_none() {
                        first_err = Some((s, k));
                    }
                    0
                }
            };
            values.push(v);
            self.positions.push((line, s + 1));
        }
        if count != expect {
            let at = column_of(text, extra.unwrap_or(text.len()));
            let kind = match row {
                Some(r) => ParseErrorKind::RowLength {
                    row: r + 1,
                    expected: expect,
                    found: count,
                    what: "numbers",
                },
                None => match square_side(count).filter(|&m| m != n) {
                    Some(m) => {
                        return Err(self.error(
                            line,
                            column_of(text, 0),
                            ParseErrorKind::MixedSizes {
                                found: m,
                                expected: n,
                            },
                        ));
                    }
                    None => ParseErrorKind::WrongLength {
                        n,
                        expected: expect,
                        found: count,
                    },
                },
            };
            return Err(self.error(line, at, kind));
        }
        if let Some((s, k)) = first_err {
            return Err(self.error(line, column_of(text, s), k));
        }
        Ok(())
    }

    fn feed_ints_line(&mut self, line: Line<'_>, out: &mut VecDeque<Record>) {
        if classify(line.text) != Kind::Data {
            return;
        }
        let n = match self.n {
            Some(n) => n,
            None => return,
        };
        let r = if line.too_long() {
            Err(self.too_long(&line))
        } else {
            match self.layout(n, None) {
                Err(k) => Err(self.error(line.number, 1, k)),
                Ok(layout) => {
                    self.positions.clear();
                    let mut values = Vec::with_capacity(n * n);
                    match self.ints_cells(line.text, line.number, n, n * n, None, &mut values) {
                        Err(e) => Err(e),
                        Ok(()) => {
                            let positions = std::mem::take(&mut self.positions);
                            let r = self.finish(
                                layout,
                                values,
                                |c| positions.get(c).copied().unwrap_or((line.number, 1)),
                                line.number,
                            );
                            self.positions = positions;
                            r
                        }
                    }
                }
            }
        };
        self.emit(line.number, r, out);
    }

    fn complete(&mut self, b: Block, out: &mut VecDeque<Record>) {
        let r = match (b.err, b.layout) {
            (Some(e), _) => Err(e),
            (None, Some(layout)) => {
                let positions = std::mem::take(&mut self.positions);
                let start = b.start;
                let r = self.finish(
                    layout,
                    b.values,
                    |c| positions.get(c).copied().unwrap_or((start, 1)),
                    start,
                );
                self.positions = positions;
                r
            }
            (None, None) => Err(self.error(
                b.start,
                1,
                ParseErrorKind::TooLarge {
                    n: self.n.unwrap_or(0),
                },
            )),
        };
        self.emit(b.start, r, out);
    }

    /// Ends the block being read, if any: complete if it has its N rows, else truncated at line `at`
    /// (or with its earlier error).
    fn truncate(&mut self, at: usize, at_end: bool, out: &mut VecDeque<Record>) {
        if let Some(b) = self.block.take() {
            if b.seen >= b.expected {
                self.complete(b, out);
                return;
            }
            let e = match b.err {
                Some(e) => e,
                None => self.error(
                    at,
                    1,
                    ParseErrorKind::Truncated {
                        expected: b.expected,
                        found: b.seen,
                        at_end,
                    },
                ),
            };
            self.emit(b.start, Err(e), out);
        }
    }
}

fn count_tokens(text: &[u8]) -> usize {
    text.split(|&b| b == b' ' || b == b'\t')
        .filter(|t| !t.is_empty())
        .count()
}

fn column_of(text: &[u8], offset: usize) -> usize {
    column(text, offset)
}
