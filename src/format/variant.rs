//! Variant puzzles: the rule lines that may follow a puzzle's grid, and SudoCue killer lines.
//!
//! After a grid (any format but CSV), in any order:
//! - a region map (jigsaw): N rows of N region symbols right after a multi-line grid, or a
//!   `regions:` line followed by them (or by one line of N² symbols, or with the N² symbols on the
//!   `regions:` line itself); with a one-line grid also N² region symbols beside it on its line, when
//!   some of them are not digits (`a`-`i`, say). Each symbol names one region of N cells; the regions
//!   replace the boxes.
//! - `cage SUM r1c1 r1c2 …`: a killer cage (1-based rows and columns; commas allowed between cells).
//! - `variant: x windoku …`: variants by name (`jigsaw` and `killer` are accepted as names too; they
//!   need a region map and cages).
//! - `solution:` and the solution in the grid's layout (or N² symbols on the same line): the answer
//!   published with the puzzle, kept as [`Puzzle::expected`].
//! - `expected: solvable` or `expected: unsolvable`: what the source says of the puzzle (the jigsaw
//!   layouts of the shared collection), kept as [`Puzzle::solvable`].
//!
//! A SudoCue killer line (`3x3:d:k:V:V:…`, 81 values for 9x9, each `sum·256 + cage`, `d` for
//! diagonals; the format of sudocue.net, also read by sigh's Interactive Sudoku Solver) is a whole
//! puzzle on one line.
//!
//! When the look-ahead holds rule lines, each record waits for the lines that follow its grid, and
//! its clash check waits for its rules (a jigsaw's givens may repeat within a box).

use std::sync::Arc;

use super::Format;
use super::context::{Context, Emitted, snippet};
use super::error::{ParseError, ParseErrorKind};
use super::layout::Layout;
use super::lines::{Kind, Line, RuleWord, classify, column, rule_word, trim_start};
use super::record::{Puzzle, Record};
use super::sigh::{read_sigh, read_sigh_text};
use super::symbols::SKIP;
use crate::constraint::Variant;
use crate::grid::{Cell, Grid, Shape};
use crate::rules::RulesError;

/// The words of `text` (split at whitespace and commas) with their byte offsets.
fn words(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut i = 0;
    std::iter::from_fn(move || {
        let sep = |b: u8| matches!(b, b' ' | b'\t' | b',');
        while i < text.len() && sep(text[i]) {
            i += 1;
        }
        if i == text.len() {
            return None;
        }
        let s = i;
        while i < text.len() && !sep(text[i]) {
            i += 1;
        }
        Some((s, &text[s..i]))
    })
}

/// A cage line, parsed.
struct CageLine {
    sum: u32,
    /// Where the sum is written.
    sum_at: (usize, usize),
    /// 0-based (row, column) of each cell, and where it is written.
    cells: Vec<((usize, usize), (usize, usize))>,
}

/// A region map, read: each cell's region symbol and where it is written.
#[derive(Default)]
struct Map {
    labels: Vec<String>,
    at: Vec<(usize, usize)>,
}

/// Which section of rows is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Regions,
    Solution,
}

impl Which {
    fn name(self) -> &'static str {
        match self {
            Which::Regions => "region map",
            Which::Solution => "solution",
        }
    }
}

/// Rows of a region map or solution being read.
struct Section {
    which: Which,
    /// Line of the keyword, or of the first row (for the truncation error).
    line: usize,
    /// Rows expected: N, or 1 when the first row holds all N² cells; 0 until the first row.
    expected: usize,
    /// Rows read.
    rows: usize,
    /// What was read: one token per cell, with its position.
    cells: Map,
    /// Whether the rows are kept (false: rule lines without a puzzle, swallowed).
    kept: bool,
    /// The first row of the wrong length.
    error: Option<ParseError>,
}

impl Section {
    fn new(which: Which, line: usize, expected: usize, kept: bool) -> Section {
        Section {
            which,
            line,
            expected,
            rows: 0,
            cells: Map::default(),
            kept,
            error: None,
        }
    }

    fn complete(&self) -> bool {
        self.expected > 0 && self.rows >= self.expected
    }
}

/// A record waiting for its rule lines.
struct Pending {
    record: Record,
    /// The cells' positions, when the clash check waits for the rules.
    positions: Option<Vec<(usize, usize)>>,
    /// Only the grid so far: rows right after it are its region map (multi-line formats).
    after_grid: bool,
    variants: Vec<(Variant, (usize, usize))>,
    /// `jigsaw` or `killer` named in a `variant:` line, and where.
    markers: Vec<(&'static str, (usize, usize))>,
    regions: Option<Map>,
    cages: Vec<CageLine>,
    solution: Option<Map>,
    /// What an `expected:` line says.
    solvable: Option<bool>,
    /// A sigh puzzle: its solution is read in its own alphabet, and its rules are its own.
    sigh: bool,
    /// The first problem with the rule lines.
    error: Option<ParseError>,
}

impl Pending {
    fn new(record: Record, positions: Option<Vec<(usize, usize)>>) -> Pending {
        Pending {
            record,
            positions,
            after_grid: true,
            variants: Vec::new(),
            markers: Vec::new(),
            regions: None,
            cages: Vec::new(),
            solution: None,
            solvable: None,
            sigh: false,
            error: None,
        }
    }

    fn fail(&mut self, e: ParseError) {
        self.error.get_or_insert(e);
    }
}

/// The rule-line layer between the reader and the format's parser.
pub(crate) struct Trailers {
    /// Rule lines were seen in the look-ahead: records wait for theirs.
    hold: bool,
    /// Grids span several lines (rows right after one may be its region map).
    multi_line: bool,
    /// `--format sigh`: every line that is no rule line is a sigh puzzle.
    all_sigh: bool,
    pending: Option<Pending>,
    section: Option<Section>,
}

/// What the layer did with a line.
pub(crate) enum Fed {
    /// The line was a rule line or a row of one: done.
    Taken,
    /// The line is the format's: give it to its parser (with the line's kind, so that it need
    /// not classify the line again).
    Pass(Kind),
    /// A rule line arrived: the format's parser must first end any grid it is reading (at this
    /// line), then give the line back with [`Trailers::rule`].
    Interrupt,
}

impl Trailers {
    pub(crate) fn new(hold: bool, multi_line: bool, all_sigh: bool) -> Trailers {
        Trailers {
            hold: hold || all_sigh,
            multi_line,
            all_sigh,
            pending: None,
            section: None,
        }
    }

    /// Looks at a line before the format's parser does.
    pub(crate) fn feed(&mut self, ctx: &mut Context, line: &Line<'_>, out: &mut Emitted) -> Fed {
        let kind = classify(line.text);
        if let Some(section) = &mut self.section {
            match kind {
                Kind::Comment => return Fed::Taken,
                Kind::Data => {
                    section_row(ctx, section, line);
                    if section.complete() {
                        let done = self.section.take();
                        self.close(ctx, done, None);
                    }
                    return Fed::Taken;
                }
                _ => {
                    let done = self.section.take();
                    self.close(ctx, done, Some(line.number));
                }
            }
        }
        match kind {
            Kind::Rule => Fed::Interrupt,
            Kind::Data | Kind::HeaderText if self.all_sigh => Fed::Interrupt,
            Kind::Data => {
                let implicit = self.hold
                    && self.multi_line
                    && self.pending.as_ref().is_some_and(|p| p.after_grid);
                if implicit {
                    let mut section =
                        Section::new(Which::Regions, line.number, ctx.n.unwrap_or(0), true);
                    if let Some(p) = &mut self.pending {
                        p.after_grid = false;
                    }
                    section_row(ctx, &mut section, line);
                    if section.complete() {
                        self.close(ctx, Some(section), None);
                    } else {
                        self.section = Some(section);
                    }
                    Fed::Taken
                } else {
                    if self.pending.is_some() {
                        self.release(ctx, out);
                    }
                    Fed::Pass(kind)
                }
            }
            Kind::Blank | Kind::HeaderText | Kind::HeaderInt(_) => {
                if let Some(p) = &mut self.pending {
                    p.after_grid = false;
                }
                Fed::Pass(kind)
            }
            Kind::Comment => Fed::Pass(kind),
        }
    }

    /// A rule line, after the format's parser has ended any grid it was reading.
    pub(crate) fn rule(&mut self, ctx: &mut Context, line: &Line<'_>, out: &mut Emitted) {
        let text = line.text;
        let start = text.len() - trim_start(text).len();
        let word = rule_word(&text[start..]);
        if self.all_sigh && word.is_none() || word.is_some_and(|(w, _)| w == RuleWord::Sigh) {
            self.release(ctx, out);
            let record = sigh(ctx, line, start);
            self.take_record(ctx, record, None, out);
            if let Some(p) = &mut self.pending {
                p.sigh = true;
                p.after_grid = false;
            }
            return;
        }
        let Some((word, skip)) = word else {
            return;
        };
        let rest = start + skip;
        let at = |offset: usize| (line.number, column(text, offset));
        if word == RuleWord::SudoCue {
            self.release(ctx, out);
            let record = sudocue(ctx, line, start);
            self.take_record(ctx, record, None, out);
            return;
        }
        let Some(p) = &mut self.pending else {
            let what = match word {
                RuleWord::Cage => "a cage line",
                RuleWord::Variant => "a variant line",
                RuleWord::Regions => "a region map",
                RuleWord::Solution => "a solution",
                RuleWord::SudoCue => "a SudoCue line",
                RuleWord::Expected => "an expected: line",
                RuleWord::Sigh => "a sigh line",
            };
            let (l, c) = at(start);
            let e = ctx.error(l, c, ParseErrorKind::Orphan { what });
            ctx.emit(l, Err(e), out);
            if matches!(word, RuleWord::Regions | RuleWord::Solution)
                && trim_start(&text[rest..]).is_empty()
            {
                self.section = Some(Section::new(Which::Regions, line.number, 0, false));
            }
            return;
        };
        p.after_grid = false;
        match word {
            RuleWord::Cage => match cage_line(ctx, line, rest) {
                Ok(c) => p.cages.push(c),
                Err(e) => p.fail(e),
            },
            RuleWord::Variant => {
                for (offset, w) in words(&text[rest..]) {
                    let name = String::from_utf8_lossy(w);
                    let pos = at(rest + offset);
                    match name.to_ascii_lowercase().as_str() {
                        "jigsaw" | "irregular" => p.markers.push(("jigsaw", pos)),
                        "killer" => p.markers.push(("killer", pos)),
                        _ => match Variant::from_name(&name) {
                            Some(v) => p.variants.push((v, pos)),
                            None => {
                                let kind = ParseErrorKind::UnknownVariant { word: snippet(w) };
                                p.fail(ctx.error(pos.0, pos.1, kind));
                            }
                        },
                    }
                }
            }
            RuleWord::Regions | RuleWord::Solution => {
                let which = if word == RuleWord::Regions {
                    Which::Regions
                } else {
                    Which::Solution
                };
                let taken = match which {
                    Which::Regions => p.regions.is_some(),
                    Which::Solution => p.solution.is_some(),
                };
                if taken {
                    let (l, c) = at(start);
                    let kind = ParseErrorKind::Repeated { what: which.name() };
                    p.fail(ctx.error(l, c, kind));
                }
                let mut section = Section::new(which, line.number, 0, !taken);
                if trim_start(&text[rest..]).is_empty() {
                    self.section = Some(section);
                } else {
                    // The N² cells on the keyword's line (a sigh puzzle's own cells).
                    section.expected = 1;
                    section_cells(ctx, &mut section, line, rest);
                    section.rows = 1;
                    let n = ctx.n.unwrap_or(0);
                    let cells = match &p.record.puzzle {
                        Ok(puzzle) if p.sigh => puzzle.grid.shape().cells(),
                        _ => n * n,
                    };
                    check_row(ctx, &mut section, line, cells);
                    self.close(ctx, Some(section), None);
                }
            }
            RuleWord::Expected => {
                let word = trim_start(&text[rest..]);
                match word.to_ascii_lowercase().as_slice() {
                    b"solvable" => p.solvable = Some(true),
                    b"unsolvable" => p.solvable = Some(false),
                    _ => {
                        let (l, c) = at(text.len() - word.len());
                        let kind = ParseErrorKind::RuleSyntax {
                            what: "expected: line",
                            expected: "solvable or unsolvable",
                            found: snippet(word),
                        };
                        p.fail(ctx.error(l, c, kind));
                    }
                }
            }
            RuleWord::SudoCue | RuleWord::Sigh => {}
        }
    }

    /// Takes the records the format's parser emitted: each waits for its rule lines (when holding) or
    /// goes out at once.
    pub(crate) fn take(&mut self, ctx: &mut Context, emitted: &mut Emitted, out: &mut Emitted) {
        while let Some(record) = emitted.pop_front() {
            let positions = ctx.positions.take();
            self.release(ctx, out);
            if !self.hold && positions.is_none() && plain(&record) {
                out.push_back(record);
                continue;
            }
            self.take_record(ctx, record, positions, out);
        }
    }

    /// Whether nothing waits here: no rule lines expected, no record pending, no section open.
    /// Then [`Trailers::take`] hands on at once every record that [`Trailers::passes`].
    pub(crate) fn idle(&self) -> bool {
        !self.hold && self.pending.is_none() && self.section.is_none()
    }

    /// Whether [`Trailers::take`], with nothing waiting ([`Trailers::idle`]), would hand `record` on
    /// as it is: the reader may then emit it straight to its output.
    pub(crate) fn passes(ctx: &Context, record: &Record) -> bool {
        ctx.positions.is_none() && plain(record)
    }

    fn take_record(
        &mut self,
        ctx: &mut Context,
        record: Record,
        positions: Option<Vec<(usize, usize)>>,
        out: &mut Emitted,
    ) {
        self.pending = Some(Pending::new(record, positions));
        if !self.hold {
            self.release(ctx, out);
        }
    }

    /// At the end of the input: what is still open is ended.
    pub(crate) fn end(&mut self, ctx: &mut Context, last: usize, out: &mut Emitted) {
        let done = self.section.take();
        self.close(ctx, done, Some(last + 1));
        self.release(ctx, out);
    }

    /// Ends a section: its cells go to the pending puzzle; cut short (at line `cut`), it is an error.
    fn close(&mut self, ctx: &Context, section: Option<Section>, cut: Option<usize>) {
        let Some(section) = section else { return };
        let Some(p) = &mut self.pending else { return };
        if !section.kept {
            return;
        }
        if let Some(e) = section.error {
            p.fail(e);
            return;
        }
        if !section.complete() {
            let expected = match section.expected {
                0 => ctx.n.unwrap_or(0),
                e => e,
            };
            let kind = ParseErrorKind::TruncatedSection {
                what: section.which.name(),
                expected,
                found: section.rows,
            };
            p.fail(ctx.error(cut.unwrap_or(section.line), 1, kind));
            return;
        }
        match section.which {
            Which::Regions => p.regions = Some(section.cells),
            Which::Solution => p.solution = Some(section.cells),
        }
    }

    /// Sends the pending record out, with its rules.
    fn release(&mut self, ctx: &mut Context, out: &mut Emitted) {
        if let Some(p) = self.pending.take() {
            let Record {
                index,
                line,
                puzzle,
                ..
            } = &p.record;
            let (index, line) = (*index, *line);
            let puzzle = match puzzle {
                Ok(_) => finish(ctx, p),
                Err(e) => Err(e.clone()),
            };
            out.push_back(Record {
                index,
                line,
                puzzle,
            });
        }
    }
}

/// A record that `finish` would hand on as it is: read, with no note (which may be a region map)
/// and no `expected:` line (no clash check deferred is the caller's to see).
fn plain(record: &Record) -> bool {
    record
        .puzzle
        .as_ref()
        .is_ok_and(|p: &Puzzle| p.note.is_none() && p.solvable.is_none())
}

/// Reads one row of a section into its cells; the first row decides whether the section is N rows or
/// one line of N² cells.
fn section_row(ctx: &Context, s: &mut Section, line: &Line<'_>) {
    let before = s.cells.labels.len();
    section_cells(ctx, s, line, 0);
    let n = ctx.n.unwrap_or(0);
    if s.expected == 0 {
        let got = s.cells.labels.len() - before;
        s.expected = if n > 1 && got == n * n { 1 } else { n };
    }
    s.rows += 1;
    let want = if s.expected == 1 { n * n } else { n };
    check_row(ctx, s, line, want);
}

/// Records a row of other than `want` cells (the last row read) as the section's error.
fn check_row(ctx: &Context, s: &mut Section, line: &Line<'_>, want: usize) {
    let in_row = s
        .cells
        .at
        .iter()
        .rev()
        .take_while(|(l, _)| *l == line.number)
        .count();
    if in_row != want && s.error.is_none() {
        let kind = ParseErrorKind::RowLength {
            row: s.rows,
            expected: want,
            found: in_row,
            what: if s.which == Which::Regions {
                "region symbols"
            } else {
                "solution symbols"
            },
        };
        s.error = Some(ctx.error(line.number, column(line.text, line.text.len()), kind));
    }
}

/// The cells of `line` from byte `from`: whitespace-separated numbers for ints, else one symbol per
/// character (`|` and whitespace skipped).
fn section_cells(ctx: &Context, s: &mut Section, line: &Line<'_>, from: usize) {
    let text = line.text;
    if ctx.format == Format::Ints {
        for (offset, w) in words(&text[from..]) {
            s.cells.labels.push(String::from_utf8_lossy(w).into_owned());
            s.cells.at.push((line.number, column(text, from + offset)));
        }
        return;
    }
    let rest = String::from_utf8_lossy(&text[from..]);
    let mut offset = from;
    for ch in rest.chars() {
        if !matches!(ch, ' ' | '\t' | '|') {
            s.cells.labels.push(ch.to_string());
            s.cells.at.push((line.number, column(text, offset)));
        }
        offset += ch.len_utf8();
    }
}

/// Parses `cage SUM cells…` (the rest of the line from byte `rest`).
fn cage_line(ctx: &Context, line: &Line<'_>, rest: usize) -> Result<CageLine, ParseError> {
    let text = line.text;
    let at = |offset: usize| (line.number, column(text, offset));
    let syntax = |offset: usize, expected: &'static str, found: &[u8]| {
        let (l, c) = at(offset);
        ctx.error(
            l,
            c,
            ParseErrorKind::RuleSyntax {
                what: "cage line",
                expected,
                found: snippet(found),
            },
        )
    };
    let mut tokens = words(&text[rest..]).map(|(o, w)| (rest + o, w));
    let Some((sum_offset, sum_text)) = tokens.next() else {
        return Err(syntax(
            text.len(),
            "a sum and cells after `cage`, as in `cage 15 r1c1 r1c2`",
            b"",
        ));
    };
    let sum = std::str::from_utf8(sum_text)
        .ok()
        .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<u32>().ok())
        .ok_or_else(|| {
            syntax(
                sum_offset,
                "the cage's sum (a whole number) after `cage`",
                sum_text,
            )
        })?;
    let n = ctx.n.unwrap_or(0);
    let mut cells = Vec::new();
    for (offset, w) in tokens {
        let Some((r, c)) = cell_name(w) else {
            return Err(syntax(offset, "a cell such as r1c1 (row 1, column 1)", w));
        };
        let pos = at(offset);
        if r == 0 || c == 0 || r > n || c > n {
            let e = RulesError::CellOutside {
                cage: 0,
                position: cells.len(),
                row: r.wrapping_sub(1),
                col: c.wrapping_sub(1),
                rows: n,
                cols: n,
            };
            return Err(ctx.error(pos.0, pos.1, ParseErrorKind::Rules(e)));
        }
        if let Some(&((_, _), _)) = cells.iter().find(|(rc, _)| *rc == (r - 1, c - 1)) {
            let e = RulesError::CellTwice {
                cage: 0,
                position: cells.len(),
                cell: format!("r{r}c{c}"),
            };
            return Err(ctx.error(pos.0, pos.1, ParseErrorKind::Rules(e)));
        }
        cells.push(((r - 1, c - 1), pos));
    }
    if cells.is_empty() {
        return Err(syntax(
            text.len(),
            "the cage's cells (r1c1 r1c2 …) after its sum",
            b"",
        ));
    }
    Ok(CageLine {
        sum,
        sum_at: at(sum_offset),
        cells,
    })
}

/// `r12c3` (any case) as 1-based (row, column); numbers capped so that they cannot overflow.
fn cell_name(w: &[u8]) -> Option<(usize, usize)> {
    let w = w.to_ascii_lowercase();
    let rest = w.strip_prefix(b"r")?;
    let cpos = rest.iter().position(|&b| b == b'c')?;
    let (r, c) = (&rest[..cpos], &rest[cpos + 1..]);
    let num = |t: &[u8]| -> Option<usize> {
        (!t.is_empty() && t.len() <= 6 && t.iter().all(u8::is_ascii_digit)).then(|| {
            t.iter()
                .fold(0usize, |a, &b| a * 10 + usize::from(b - b'0'))
        })
    };
    Some((num(r)?, num(c)?))
}

/// The region labels beside a one-line puzzle (its note), when the note is exactly N² printable
/// symbols forming N regions of N cells and some symbol is not a digit of `layout`'s alphabet (so it
/// is not a grid). Control characters are never labels: a note holding them is text.
pub(crate) fn regions_beside(note: &str, n: usize, layout: &Layout) -> bool {
    let t = note.trim();
    if n < 2
        || t.chars().count() != n * n
        || t.contains(|c: char| c.is_whitespace() || c.is_control())
    {
        return false;
    }
    let mut labels: Vec<(char, usize)> = Vec::new();
    for ch in t.chars() {
        match labels.iter_mut().find(|(l, _)| *l == ch) {
            Some((_, k)) => *k += 1,
            None => labels.push((ch, 1)),
        }
    }
    labels.len() == n
        && labels.iter().all(|&(_, k)| k == n)
        && labels
            .iter()
            .any(|&(l, _)| layout.alphabet().digit(l).is_none())
}

/// The record of a pending puzzle with its rules built, its clash check done and its solution read.
fn finish(ctx: &mut Context, mut p: Pending) -> Result<Puzzle, ParseError> {
    if let Some(e) = p.error.take() {
        return Err(e);
    }
    let start = p.record.line;
    let Ok(mut puzzle) = std::mem::replace(
        &mut p.record.puzzle,
        Err(ctx.error(start, 1, ParseErrorKind::NoPuzzle)),
    ) else {
        unreachable!("only read puzzles are finished")
    };
    let shape = puzzle.grid.shape();
    let n = shape.n();
    // A region map beside a one-line grid.
    if p.regions.is_none()
        && let Some(note) = &puzzle.note
        && regions_beside(note, n, &puzzle.layout)
    {
        let mut map = Map::default();
        for ch in note.trim().chars() {
            map.labels.push(ch.to_string());
            map.at.push((start, 1));
        }
        p.regions = Some(map);
        puzzle.note = None;
    }
    for &(what, (l, c)) in &p.markers {
        let missing = match what {
            "jigsaw" if p.regions.is_none() => Some("a region map"),
            "killer" if p.cages.is_empty() => Some("cage lines"),
            _ => None,
        };
        if let Some(needs) = missing {
            let kind = ParseErrorKind::MissingData {
                variant: what,
                what: needs,
            };
            return Err(ctx.error(l, c, kind));
        }
    }
    if p.sigh && (!p.variants.is_empty() || p.regions.is_some() || !p.cages.is_empty()) {
        let kind = ParseErrorKind::RuleSyntax {
            what: "sigh puzzle",
            expected: "its rules in its constraint string",
            found: "rule lines after it".into(),
        };
        return Err(ctx.error(start, 1, kind));
    }
    if !p.variants.is_empty() || p.regions.is_some() || !p.cages.is_empty() {
        puzzle.units = Arc::new(build_rules(ctx, &p, shape, start)?);
    }
    if let Some(positions) = &p.positions {
        ctx.clash(&puzzle.units, &puzzle.grid, &puzzle.layout, |c| {
            positions.get(c).copied().unwrap_or((start, 1))
        })?;
    }
    if let Some(map) = &p.solution {
        puzzle.expected = Some(if p.sigh {
            sigh_solution(ctx, map, &puzzle)?
        } else {
            solution(ctx, map, shape)?
        });
    }
    puzzle.solvable = p.solvable;
    Ok(puzzle)
}

/// The rules of a pending puzzle: `--variant`s, its `variant:` lines, region map and cages.
fn build_rules(
    ctx: &mut Context,
    p: &Pending,
    shape: Shape,
    start: usize,
) -> Result<crate::units::Units, ParseError> {
    let n = shape.n();
    let mut b = crate::units::Units::rules(shape);
    for &v in &ctx.options.variants {
        b = b.variant(v);
    }
    for &(v, _) in &p.variants {
        b = b.variant(v);
    }
    if let Some(map) = &p.regions {
        // Regions numbered by first appearance, each of N cells.
        let mut names: Vec<(&str, usize, usize)> = Vec::new();
        let mut region = Vec::with_capacity(map.labels.len());
        for (i, label) in map.labels.iter().enumerate() {
            let r = match names.iter().position(|(l, _, _)| l == label) {
                Some(r) => r,
                None => {
                    names.push((label, 0, i));
                    names.len() - 1
                }
            };
            names[r].1 += 1;
            region.push(r);
        }
        if names.len() > n {
            let (label, _, first) = names[n];
            let (l, c) = map.at[first];
            let kind = ParseErrorKind::RegionCount {
                label: label.to_string(),
                n,
            };
            return Err(ctx.error(l, c, kind));
        }
        if let Some(&(label, cells, first)) = names.iter().find(|(_, k, _)| *k != n) {
            let (l, c) = map.at[first];
            let kind = ParseErrorKind::RegionSize {
                label: label.to_string(),
                cells,
                n,
            };
            return Err(ctx.error(l, c, kind));
        }
        b = b.regions(region);
    }
    for cage in &p.cages {
        b = b.cage(cage.sum, cage.cells.iter().map(|&(rc, _)| rc));
    }
    b.build().map_err(|e| {
        let (l, c) = match &e {
            RulesError::VariantShape { variant, .. }
            | RulesError::VariantTooLarge { variant, .. } => p
                .variants
                .iter()
                .find(|(v, _)| v == variant)
                .map_or((start, 1), |&(_, pos)| pos),
            RulesError::CageEmpty { cage }
            | RulesError::CageGridTooLarge { cage, .. }
            | RulesError::CageTooLarge { cage, .. }
            | RulesError::ImpossibleSum { cage, .. } => {
                p.cages.get(*cage).map_or((start, 1), |c| c.sum_at)
            }
            RulesError::CellOutside { cage, position, .. }
            | RulesError::CellTwice { cage, position, .. } => p
                .cages
                .get(*cage)
                .and_then(|c| c.cells.get(*position))
                .map_or((start, 1), |&(_, pos)| pos),
            _ => (start, 1),
        };
        ctx.error(l, c, ParseErrorKind::Rules(e))
    })
}

/// The solution written with a puzzle, read with the file's alphabet.
fn solution(ctx: &Context, map: &Map, shape: Shape) -> Result<Grid, ParseError> {
    let n = shape.n();
    let mut values = Vec::with_capacity(shape.cells());
    for (i, (label, &(l, c))) in map.labels.iter().zip(&map.at).enumerate().take(n * n) {
        let value = if ctx.format == Format::Ints {
            match label.parse::<usize>() {
                Ok(v) if v <= n => v as u16,
                _ => {
                    let kind = ParseErrorKind::ValueOutOfRange {
                        text: snippet(label.as_bytes()),
                        n,
                    };
                    return Err(ctx.error(l, c, kind));
                }
            }
        } else {
            let Some(syms) = &ctx.syms else {
                return Err(ctx.error(l, c, ParseErrorKind::TooLarge { n }));
            };
            let b = label.as_bytes();
            let t = if b.len() == 1 {
                syms.lut[b[0] as usize]
            } else {
                0xFF
            };
            if t & 0x80 != 0 && t != SKIP {
                return Err(ctx.error(l, c, syms.error_at(b, 0)));
            }
            u16::from(t)
        };
        if value == 0 {
            let cell = crate::grid::Cell::new(i).name(shape);
            return Err(ctx.error(l, c, ParseErrorKind::SolutionBlank { cell }));
        }
        values.push(value);
    }
    Grid::from_values(shape, values).map_err(|e| {
        let (l, c) = map.at.first().copied().unwrap_or((1, 1));
        ctx.error(
            l,
            c,
            ParseErrorKind::ValueOutOfRange {
                text: e.to_string(),
                n,
            },
        )
    })
}

/// The solution written with a sigh puzzle, in the puzzle's own alphabet (sigh's: digits from its
/// smallest value, or letters above 9).
fn sigh_solution(ctx: &Context, map: &Map, puzzle: &Puzzle) -> Result<Grid, ParseError> {
    let shape = puzzle.grid.shape();
    let alphabet = puzzle.layout.alphabet();
    let mut values = Vec::with_capacity(shape.cells());
    for (i, (label, &(l, c))) in map.labels.iter().zip(&map.at).enumerate() {
        let digit = label
            .chars()
            .next()
            .filter(|_| label.chars().count() == 1)
            .and_then(|ch| alphabet.digit(ch));
        match digit {
            Some(d) => values.push(d),
            None => {
                let kind = if matches!(label.as_str(), "." | "0" | "-" | "_")
                    && alphabet.digit('0').is_none()
                {
                    ParseErrorKind::SolutionBlank {
                        cell: crate::grid::Cell::new(i).name(shape),
                    }
                } else {
                    ParseErrorKind::ValueOutOfRange {
                        text: snippet(label.as_bytes()),
                        n: shape.n(),
                    }
                };
                return Err(ctx.error(l, c, kind));
            }
        }
    }
    Grid::from_values(shape, values).map_err(|e| {
        let (l, c) = map.at.first().copied().unwrap_or((1, 1));
        let kind = ParseErrorKind::ValueOutOfRange {
            text: e.to_string(),
            n: shape.n(),
        };
        ctx.error(l, c, kind)
    })
}

/// A sigh puzzle on one line (a constraint string, or with `--format sigh` sigh's other one-line
/// forms): its own shape, alphabet and rules, whatever the file's.
fn sigh(ctx: &mut Context, line: &Line<'_>, start: usize) -> Record {
    let text = line.text;
    let index = ctx.emitted;
    ctx.emitted += 1;
    // sigh's one-line forms first, as sigh reads them (a grid of dots is no constraint string),
    // unless the line is a constraint string by its look.
    let line_text = &text[start..];
    let read = match super::sigh::looks_like_sigh(line_text) {
        true => read_sigh(line_text),
        false => read_sigh_text(line_text).unwrap_or_else(|| read_sigh(line_text)),
    };
    let puzzle = match read {
        Ok(r) => {
            // `--symbols` names the digits of the output when it has as many as the grid.
            let layout = match &ctx.options.symbols {
                Some(a) if a.len() == r.grid.n() => {
                    Layout::new(Format::Line, r.grid.shape()).with_alphabet(a.clone())
                }
                _ => super::sigh::layout(r.grid.shape(), r.units.base()),
            };
            // Givens that clash are an error, as in every other format, placed at the second.
            let shape = r.grid.shape();
            let locate = |i: usize| {
                let at = super::sigh::given_offset(line_text, shape, Cell::new(i));
                (line.number, column(text, start + at))
            };
            if let Err(e) = ctx.clash(&r.units, &r.grid, &layout, locate) {
                return Record {
                    index,
                    line: line.number,
                    puzzle: Err(e),
                };
            }
            Ok(Puzzle {
                grid: r.grid,
                layout: Arc::new(layout),
                note: None,
                units: Arc::new(r.units),
                expected: None,
                solvable: None,
            })
        }
        Err((offset, kind)) => Err(ctx.error(line.number, column(text, start + offset), kind)),
    };
    Record {
        index,
        line: line.number,
        puzzle,
    }
}

/// A SudoCue killer line (`RxC:FLAGS:k:V:…`): an empty grid of that box shape with its cages (each
/// value `sum·256 + id`; a sum of 0 is no cage) and, for the flag `d`, both diagonals.
fn sudocue(ctx: &mut Context, line: &Line<'_>, start: usize) -> Record {
    let text = line.text;
    let number = line.number;
    let syntax = |ctx: &Context, offset: usize, expected: &'static str, found: &[u8]| {
        ctx.error(
            number,
            column(text, offset),
            ParseErrorKind::RuleSyntax {
                what: "SudoCue killer line",
                expected,
                found: snippet(found),
            },
        )
    };
    let record = |ctx: &mut Context, puzzle| {
        let index = ctx.emitted;
        ctx.emitted += 1;
        Record {
            index,
            line: number,
            puzzle,
        }
    };
    // Fields with their offsets.
    let mut fields: Vec<(usize, &[u8])> = Vec::new();
    let mut s = start;
    for part in text[start..].split(|&b| b == b':') {
        fields.push((s, part));
        s += part.len() + 1;
    }
    if fields.last().is_some_and(|(_, f)| f.is_empty()) {
        fields.pop();
    }
    let shape_text = String::from_utf8_lossy(fields[0].1);
    let shape = match Shape::parse(&shape_text) {
        Ok(s) => s,
        Err(e) => {
            let kind = ParseErrorKind::Shape(e);
            let err = ctx.error(number, column(text, start), kind);
            return record(ctx, Err(err));
        }
    };
    let n = shape.n();
    let values = &fields[3.min(fields.len())..];
    if values.len() != n * n {
        let err = syntax(
            ctx,
            text.len(),
            "one value per cell (N² of them) after RxC:FLAGS:k:",
            format!("{} values", values.len()).as_bytes(),
        );
        return record(ctx, Err(err));
    }
    match ctx.n {
        Some(m) if m != n => {
            let kind = ParseErrorKind::MixedSizes {
                found: n,
                expected: m,
            };
            let err = ctx.error(number, column(text, start), kind);
            return record(ctx, Err(err));
        }
        Some(_) => {}
        None => ctx.set_n(n, b""),
    }
    let layout = match ctx.layout(n, Some((shape.box_rows() as u32, shape.box_cols() as u32))) {
        Ok(l) => l,
        Err(kind) => {
            let err = ctx.error(number, column(text, start), kind);
            return record(ctx, Err(err));
        }
    };
    // Cage id -> (sum, cells); the sum is each cell's value / 256.
    let mut cages: Vec<(u32, u32, Vec<usize>, usize)> = Vec::new();
    for (cell, &(offset, v)) in values.iter().enumerate() {
        let Some(value) = std::str::from_utf8(v)
            .ok()
            .filter(|t| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u32>().ok())
        else {
            let err = syntax(ctx, offset, "a whole number (sum · 256 + cage)", v);
            return record(ctx, Err(err));
        };
        let (sum, id) = (value / 256, value % 256);
        if sum == 0 {
            continue;
        }
        match cages.iter_mut().find(|c| c.1 == id) {
            Some(c) if c.0 == sum => c.2.push(cell),
            Some(_) => {
                let err = syntax(ctx, offset, "the same sum in every cell of one cage", v);
                return record(ctx, Err(err));
            }
            None => cages.push((sum, id, vec![cell], offset)),
        }
    }
    let mut b = crate::units::Units::rules(shape);
    for &v in &ctx.options.variants {
        b = b.variant(v);
    }
    if fields.get(1).is_some_and(|(_, f)| f.contains(&b'd')) {
        b = b.variant(Variant::Diagonals);
    }
    for (sum, _, cells, _) in &cages {
        b = b.cage(*sum, cells.iter().map(|&c| (c / n, c % n)));
    }
    let units = match b.build() {
        Ok(u) => Arc::new(u),
        Err(e) => {
            let offset = match &e {
                RulesError::CageTooLarge { cage, .. } | RulesError::ImpossibleSum { cage, .. } => {
                    cages.get(*cage).map_or(start, |c| c.3)
                }
                _ => start,
            };
            let err = ctx.error(number, column(text, offset), ParseErrorKind::Rules(e));
            return record(ctx, Err(err));
        }
    };
    let puzzle = Puzzle {
        grid: Grid::empty(shape),
        layout,
        note: None,
        units,
        expected: None,
        solvable: None,
    };
    record(ctx, Ok(puzzle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_words() {
        assert_eq!(rule_word(b"cage 3 r1c1"), Some((RuleWord::Cage, 4)));
        assert_eq!(rule_word(b"Variant: x"), Some((RuleWord::Variant, 8)));
        assert_eq!(rule_word(b"solution:"), Some((RuleWord::Solution, 9)));
        assert_eq!(rule_word(b"3x3:d:k:1:2"), Some((RuleWord::SudoCue, 0)));
        assert_eq!(rule_word(b"3x3::k:1"), Some((RuleWord::SudoCue, 0)));
        assert_eq!(rule_word(b"3x3:d:j:1"), None);
        assert_eq!(rule_word(b"cages"), None);
        assert_eq!(rule_word(b"123456789"), None);
        assert_eq!(cell_name(b"R10c2"), Some((10, 2)));
        assert_eq!(cell_name(b"r1"), None);
        assert_eq!(cell_name(b"a1"), None);
    }

    /// Through the reader: top95's first 9x9 line with a note beside it.
    fn beside(note: &str) -> (Option<String>, bool) {
        let grid =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let text = format!("{grid}  {note}\n");
        let r = super::super::read_str(&text, "t", super::super::ReadOptions::default());
        let p = r[0].puzzle.as_ref().expect("read");
        (p.note.clone(), p.units.regions().is_some())
    }

    /// The nine boxes as a region map, each cell labelled by `label(box)`.
    fn boxes(label: impl Fn(usize) -> char) -> String {
        (0..81).map(|i| label(i / 27 * 3 + i % 9 / 3)).collect()
    }

    #[test]
    fn a_region_map_beside_a_line_has_printable_labels() {
        // Nine labels of nine cells, none a digit: a jigsaw region map, no note.
        assert_eq!(beside(&boxes(|b| (b'a' + b as u8) as char)), (None, true));
        // The same map in control characters is a note.
        let control = boxes(|b| (0x10 + b as u8) as char);
        assert_eq!(beside(&control), (Some(control.clone()), false));
        // All labels digits: not a map (a note here).
        assert!(!beside(&boxes(|b| (b'1' + b as u8) as char)).1);
    }
}
