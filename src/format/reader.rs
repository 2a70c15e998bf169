//! `PuzzleReader`: streams one `Record` per input puzzle, errors included, from any `BufRead`.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;

use super::block::BlockParser;
use super::context::{Context, Emitted};
use super::csv::CsvParser;
use super::detect::{self, LOOKAHEAD_BYTES, LOOKAHEAD_LINES, Note, Plan, holds_a_puzzle};
use super::error::{ParseError, ParseErrorKind};
use super::ints::IntsLineParser;
use super::line;
use super::lines::{Kind, Line, LineReader, OwnedLine, classify};
use super::record::Record;
use super::variant::{Fed, Trailers};
use super::{Format, Lookahead, ReadOptions};

/// Reads puzzles from a `BufRead`, streaming: the format, grid side and alphabet are decided from a
/// bounded look-ahead (the first 1,000 lines, at most about 1 MiB), then fixed for the whole input.
///
/// Every input puzzle gives exactly one [`Record`], in input order; a malformed one gives an error
/// record and the reader goes on with the next. An input without any puzzle gives one error record
/// ("no puzzle found", or "too short for any grid" when its only line was too short). An I/O error
/// gives an error record and ends the iteration.
///
/// Decisions about the whole input that a person should hear of — how an ambiguous alphabet is read
/// ([`Note`]) — are made once, before the first record, and handed out by
/// [`PuzzleReader::take_notes`].
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
    out: Emitted,
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
                self.parser = Some(Parser::new(&plan, &self.options, self.source.clone()));
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

    /// The decisions about this input not handed out yet, each once: read them after a call of
    /// `next` (they are made before the first record), e.g. to print `note: FILE: reading 0 as a value
    /// (alphabet 0-9a-f)` once per file. Most inputs have none; a decision made later (when the
    /// look-ahead held no grid) comes with the record that made it.
    ///
    /// # Examples
    /// ```
    /// use satdoku::format::{Note, PuzzleReader, ReadOptions};
    /// let hex = "b2.7...f6e...3.d...9b.2.....f1.6.a.c..7.4.8...e..8.3..1...fca.42..e.....16a...3.3\
    ///     ........4.f8.6b...d2....b..74...b840..d7.93e......f37.45..90dc...c8..a....b4...49.5e.d...\
    ///     .....a.d...6c1.....7..91.e74...f..3.d..3...9.2.1..5.0.f.4b.....3.d1...5.d...fe9...2.b4\n";
    /// let mut reader = PuzzleReader::new(hex.as_bytes(), "hex.txt", ReadOptions::default());
    /// assert!(reader.next().unwrap().puzzle.is_ok());
    /// let notes = reader.take_notes();
    /// assert_eq!(notes[0].to_string(), "reading 0 as a value (alphabet 0-9a-f)");
    /// assert!(matches!(notes[0], Note::ZeroIsAValue { .. }));
    /// assert!(reader.take_notes().is_empty(), "said once");
    /// ```
    pub fn take_notes(&mut self) -> Vec<Note> {
        match &mut self.parser {
            Some(p) => std::mem::take(&mut p.ctx.notes),
            None => Vec::new(),
        }
    }

    fn io_error(&mut self, e: &std::io::Error) {
        let index = self.parser.as_ref().map_or(0, |p| p.ctx.emitted);
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

/// The parser of the input's format.
enum Body {
    Line,
    Block(BlockParser),
    IntsLine(IntsLineParser),
    Csv(CsvParser),
}

/// The parser of one input: the shared context, the rule-line layer (`variant.rs`) and the format's
/// own state, fed one line at a time.
struct Parser {
    ctx: Context,
    body: Body,
    trailers: Trailers,
    /// What the format's parser emitted, before the rule-line layer takes it.
    emitted: Emitted,
}

impl Parser {
    fn new(plan: &Plan, options: &ReadOptions, source: Arc<str>) -> Parser {
        let body = match (plan.format, &plan.csv) {
            (Format::Line | Format::Sigh, _) => Body::Line,
            (Format::Csv, Some(csv)) => Body::Csv(CsvParser::new(csv.clone())),
            // A CSV plan without a column comes from an input without rows: nothing to read.
            (Format::Csv, None) => Body::Line,
            (Format::Ints, _) if plan.ints_line => Body::IntsLine(IntsLineParser::default()),
            (Format::Block | Format::Letters | Format::Ints, _) => {
                Body::Block(BlockParser::new(plan.separated, plan.bars))
            }
        };
        let multi_line = matches!(body, Body::Block(_));
        Parser {
            ctx: Context::new(plan, options, source),
            body,
            trailers: Trailers::new(plan.trailers, multi_line, plan.format == Format::Sigh),
            emitted: Emitted::new(),
        }
    }

    fn feed(&mut self, line: Line<'_>, out: &mut Emitted) {
        let ctx = &mut self.ctx;
        if matches!(self.body, Body::Csv(_)) {
            // CSV records carry no rule lines.
            return Self::body_feed(&mut self.body, ctx, line, None, out);
        }
        match self.trailers.feed(ctx, &line, out) {
            Fed::Taken => {}
            Fed::Pass(kind) if self.trailers.idle() => {
                // Nothing waits for rule lines: a plain record goes straight out (the common case,
                // one 9x9 line after another), without a stop in `emitted`; anything else takes the
                // rule-line layer's way, as below.
                let before = out.len();
                Self::body_feed(&mut self.body, ctx, line, Some(kind), out);
                let emitted = out.len() - before;
                if emitted == 0
                    || emitted == 1 && out.back().is_some_and(|r| Trailers::passes(ctx, r))
                {
                    return;
                }
                self.emitted.extend(out.drain(before..));
                self.trailers.take(ctx, &mut self.emitted, out);
            }
            Fed::Pass(kind) => {
                Self::body_feed(&mut self.body, ctx, line, Some(kind), &mut self.emitted);
                self.trailers.take(ctx, &mut self.emitted, out);
            }
            Fed::Interrupt => {
                // A rule line ends any grid being read, as a blank line would.
                if let Body::Block(b) = &mut self.body {
                    b.interrupt(ctx, line.number, &mut self.emitted);
                }
                self.trailers.take(ctx, &mut self.emitted, out);
                self.trailers.rule(ctx, &line, out);
            }
        }
    }

    /// Gives `line` to the format's parser; `kind`: the line's [`classify`], when already known.
    fn body_feed(
        body: &mut Body,
        ctx: &mut Context,
        line: Line<'_>,
        kind: Option<Kind>,
        out: &mut Emitted,
    ) {
        match body {
            Body::Line => line::feed(ctx, line, kind, out),
            Body::Block(b) => b.feed(ctx, line, out),
            Body::IntsLine(p) => p.feed(ctx, line, out),
            Body::Csv(c) => c.feed(ctx, line, out),
        }
    }

    /// At the end of the input (after line `last`).
    fn end(&mut self, last: usize, out: &mut Emitted) {
        let ctx = &mut self.ctx;
        match &mut self.body {
            Body::Block(b) => b.end(ctx, last, &mut self.emitted),
            Body::Csv(c) => c.end(ctx, out),
            Body::Line | Body::IntsLine(_) => {}
        }
        self.trailers.take(ctx, &mut self.emitted, out);
        self.trailers.end(ctx, last, out);
        ctx.end(out);
    }
}
