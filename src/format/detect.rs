//! Auto-detection from a bounded look-ahead: the format, the grid side N and the symbol alphabet.
//!
//! The reader keeps the first lines of its input (at most [`LOOKAHEAD_LINES`] lines and
//! [`LOOKAHEAD_BYTES`] bytes), decides here, then replays them and streams the rest with the decision
//! fixed: memory does not grow with the file.

use std::fmt;

use super::alphabet::Alphabet;
use super::csv_records;
use super::error::ParseErrorKind;
use super::lines::{
    Kind, OwnedLine, RuleWord, classify, column, first_non_text, note_split, rule_word,
    spaced_rows, trim_start,
};
use super::symbols::BLANKS;
use super::{Format, ReadOptions};
use crate::grid::Shape;

/// At most this many lines are looked at before deciding.
pub(crate) const LOOKAHEAD_LINES: usize = 1000;
/// At most about this many bytes are looked at before deciding.
pub(crate) const LOOKAHEAD_BYTES: usize = 1 << 20;

/// What the look-ahead decided.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) format: Format,
    /// The file's grid side, if any puzzle-like line was seen.
    pub(crate) n: Option<usize>,
    /// The alphabet and what to tell about it (not for ints; `None` when N is not known yet).
    pub(crate) alphabet: Option<Choice>,
    /// Ints: the whole grid on one line.
    pub(crate) ints_line: bool,
    /// Block: spaces between cells.
    pub(crate) spaced: bool,
    /// Block: `|` between boxes.
    pub(crate) bars: bool,
    /// Multi-line grids: the first grid is followed by a blank or header line (or the end), so every
    /// grid ends with one and a row beyond N is an error of that grid.
    pub(crate) separated: bool,
    /// CSV: the header line and the puzzle column.
    pub(crate) csv: Option<CsvPlan>,
    /// The look-ahead holds rule lines of variant puzzles (`cage`, `variant:`, `regions:`,
    /// `solution:`, SudoCue lines): records wait for the rule lines after their grid, and grids end
    /// after N rows (see `variant.rs`).
    pub(crate) trailers: bool,
}

/// The CSV puzzle column.
#[derive(Clone, Debug)]
pub(crate) struct CsvPlan {
    /// The header's line number, if the file has a header.
    pub(crate) header_line: Option<usize>,
    /// 0-based field index.
    pub(crate) column: usize,
    /// Its name, for messages.
    pub(crate) name: String,
}

/// A whole-input error found while detecting: `(line, column, kind)`.
pub(crate) type DetectError = (usize, usize, ParseErrorKind);

pub(crate) fn isqrt(x: usize) -> usize {
    let mut r = (x as f64).sqrt() as usize;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// `Some(m)` if `count` = m² with m ≥ 4 (a possible one-line grid).
pub(crate) fn square_side(count: usize) -> Option<usize> {
    let m = isqrt(count);
    (m >= 4 && m * m == count).then_some(m)
}

/// The box shape two header integers give for a grid of side `n`: `R`, `C` (uio files) or `n`, `1`
/// (sudoku_acs files: box size, then a `1`).
pub(crate) fn shape_hint(a: u32, b: u32, n: usize) -> Option<Shape> {
    let (a, b) = (a as usize, b as usize);
    if a * b == n {
        Shape::new(a, b).ok()
    } else if b == 1 && a * a == n {
        Shape::new(a, a).ok()
    } else {
        None
    }
}

/// The grid part of a line: the first token when a note follows it (see [`note_split`]), else the
/// whole line.
pub(crate) fn grid_part(text: &[u8]) -> &[u8] {
    match note_split(text) {
        Some((start, end, _)) => &text[start..end],
        None => text,
    }
}

/// Characters of a one-line grid (`|` does not count).
pub(crate) fn flat_width(text: &[u8]) -> usize {
    text.iter()
        .filter(|&&b| b != b'|' && b & 0xC0 != 0x80)
        .count()
}

/// Cells of a block row: characters other than spaces, tabs and `|`.
pub(crate) fn row_width(text: &[u8]) -> usize {
    text.iter()
        .filter(|&&b| !matches!(b, b' ' | b'\t' | b'|') && b & 0xC0 != 0x80)
        .count()
}

fn tokens(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|&b| b == b' ' || b == b'\t')
        .filter(|t| !t.is_empty())
}

/// An ints token: an integer, or `.` (blank).
fn int_like(t: &[u8]) -> bool {
    t == b"."
        || (!t.is_empty() && t.iter().all(u8::is_ascii_digit))
        || (t.len() >= 2 && t[0] == b'-' && t[1..].iter().all(u8::is_ascii_digit))
}

fn int_value(t: &[u8]) -> usize {
    if t.iter().all(u8::is_ascii_digit) && !t.is_empty() {
        t.iter().fold(0usize, |a, &b| {
            (a * 10 + usize::from(b - b'0')).min(1 << 20)
        })
    } else {
        0
    }
}

/// A box-rule line of a block grid (`------+-------+------`, `---|---`), as opposed to a row of blanks
/// written with `-`.
pub(crate) fn is_rule(text: &[u8], n: usize, bars: bool) -> bool {
    let t = trim_start(text);
    if t.is_empty() || !t.iter().all(|b| b"-+=| \t".contains(b)) {
        return false;
    }
    let dashes = t.iter().filter(|&&b| b == b'-').count();
    if dashes == 0 && !t.contains(&b'=') {
        return false;
    }
    t.contains(&b'+') || t.contains(&b'=') || t.contains(&b'|') || bars || dashes != n
}

/// Bytes that never decide the alphabet: blanks other than `0`, separators, whitespace.
fn neutral(b: u8) -> bool {
    matches!(b, b'.' | b'-' | b'_' | b'|' | b'+' | b'=' | b' ' | b'\t')
}

/// A decision about a whole input that the reader of the output should hear about, once: how an
/// ambiguous alphabet was read. [`super::PuzzleReader::take_notes`] hands them out.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// `0` is read as a value, the first symbol of the alphabet (`0-9a-f` for 16x16).
    ZeroIsAValue {
        /// The alphabet in use.
        alphabet: Alphabet,
    },
    /// Both `.` (or `-`, `_`) and `0` occur, and `0` is read as a blank too (N ≤ 9).
    ZeroIsABlank {
        /// The alphabet in use.
        alphabet: Alphabet,
    },
    /// No known alphabet covers the file's symbols, but there are exactly N of them: they are read in
    /// the order of their character codes as the digits 1..=N.
    SymbolOrder {
        /// The alphabet in use: the file's symbols, ascending.
        alphabet: Alphabet,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::ZeroIsAValue { alphabet } => {
                write!(f, "reading 0 as a value (alphabet {alphabet})")
            }
            Note::ZeroIsABlank { alphabet } => write!(
                f,
                "reading 0 as a blank, as . is (alphabet {alphabet}; --symbols with a 0 makes it a digit)"
            ),
            Note::SymbolOrder { alphabet } => write!(
                f,
                "reading the file's {n} symbols in character order as the digits 1-{n} (alphabet \
                 {alphabet}; --symbols gives another order)",
                n = alphabet.len()
            ),
        }
    }
}

/// The alphabet chosen for a file, with what is worth telling about it.
#[derive(Clone, Debug)]
pub(crate) struct Choice {
    pub(crate) alphabet: Alphabet,
    pub(crate) note: Option<Note>,
    /// The distinct symbols seen (not `.`, `-`, `_`), ascending.
    pub(crate) symbols: Vec<u8>,
}

/// The distinct characters among `counts` that can be symbols (so not `.`, `-`, `_`), ascending.
pub(crate) fn file_symbols(counts: &[usize; 256]) -> Vec<u8> {
    (0..=255u8)
        .filter(|&b| counts[b as usize] > 0 && b.is_ascii() && Alphabet::can_be_symbol(b))
        .collect()
}

/// Chooses the alphabet for side `n` from the symbols seen in the look-ahead: a forced one; else, when
/// `.` (or `-`, `_`) is a blank and `0` occurs, `0` is a value for N > 9 (`0-9a-f` for 16x16) and a
/// blank for N ≤ 9; a `0` that is the only blank candidate but no more frequent than other symbols (a
/// full `0-9a-f` grid) is tried as a value; a 16x16 grid of letters only is `A-P`; else `1-9` then
/// letters (lower case if the file's letters are). The first candidate that covers every symbol seen
/// wins. If none does, N > 9 (below, `1-9` is the only convention, and another symbol is a typo) and
/// the file uses exactly N symbols besides blanks (or N besides a `0` blank), each seen no more often
/// than N times per grid, those are the alphabet, in character order. Else the first candidate, and the
/// stray symbols are reported as errors.
pub(crate) fn choose_alphabet(n: usize, counts: &[usize; 256], options: &ReadOptions) -> Choice {
    let symbols = file_symbols(counts);
    let choice = |alphabet: Alphabet, note: Option<Note>| Choice {
        alphabet,
        note,
        symbols: symbols.clone(),
    };
    if let Some(a) = &options.symbols {
        return choice(a.clone(), None);
    }
    if options.format == Some(Format::Letters) {
        return choice(Alphabet::letters(n), None);
    }
    let seen = counts.map(|c| c > 0);
    let any = |r: std::ops::RangeInclusive<u8>| r.into_iter().any(|b| seen[b as usize]);
    let digits = any(b'1'..=b'9');
    let lower = any(b'a'..=b'z');
    let upper = any(b'A'..=b'Z');
    let lower_pref = lower && !upper;
    let zero = seen[b'0' as usize];
    let other_blank = BLANKS.iter().any(|&b| seen[b as usize]);
    let zero_value = |a: Alphabet| {
        let note = Note::ZeroIsAValue {
            alphabet: a.clone(),
        };
        (a, Some(note))
    };
    let default = if lower_pref {
        Alphabet::default_lower(n)
    } else {
        Alphabet::default_for(n)
    };
    let mut candidates: Vec<(Alphabet, Option<Note>)> = Vec::with_capacity(4);
    if zero && other_blank {
        if n > 9 {
            // `0` is a value: symbols it does not cover are errors, not a hint that `0` is a blank.
            let (a, note) = zero_value(Alphabet::zero_first(n, lower_pref));
            return choice(a, note);
        }
        let note = Note::ZeroIsABlank {
            alphabet: default.clone(),
        };
        candidates.push((default.clone(), Some(note)));
    } else if zero {
        // `0` is the only candidate blank: if it is no more frequent than the commonest other symbol it
        // behaves as a value (a full `0-9a-f` grid); `0`-first is then tried first, and kept only if it
        // covers every symbol seen (a `g`, or a `9` in a 9x9 grid, shows `0` is a blank after all).
        let zeros = counts[b'0' as usize];
        let most = (0..=255u8)
            .filter(|&b| b != b'0' && !neutral(b))
            .map(|b| counts[b as usize])
            .max()
            .unwrap_or(0);
        if zeros <= most {
            candidates.push(zero_value(Alphabet::zero_first(n, lower_pref)));
        }
    }
    if n == 16 && !digits && (lower || upper) {
        candidates.push((Alphabet::letters(n), None));
    }
    candidates.push((default, None));
    if !(zero && other_blank) {
        candidates.push(zero_value(Alphabet::zero_first(n, lower_pref)));
    }
    let covers = |a: &Alphabet| {
        (0..=255u8).all(|b| {
            !seen[b as usize]
                || neutral(b)
                || (b == b'0' && !a.has_zero())
                || a.digit(b as char).is_some()
        })
    };
    if let Some((a, note)) = candidates.iter().find(|(a, _)| covers(a)) {
        return choice(a.clone(), note.clone());
    }
    if let Some(a) = in_code_order(n, counts, &symbols).filter(|_| n > 9) {
        let note = Note::SymbolOrder {
            alphabet: a.clone(),
        };
        return choice(a, Some(note));
    }
    let (a, note) = candidates.swap_remove(0);
    choice(a, note)
}

/// The file's own alphabet when it uses exactly N symbols besides blanks (`0` may be one more, a
/// blank), each seen at most N times per grid of the look-ahead (a digit is in each row once): those
/// symbols in the order of their character codes (`1-9?A-Z` for the uio 36x36 files).
fn in_code_order(n: usize, counts: &[usize; 256], symbols: &[u8]) -> Option<Alphabet> {
    if !(4..=super::alphabet::MAX_SYMBOLS).contains(&n) {
        return None;
    }
    // `0` beside N other symbols is a blank only if it is as common as a blank is (the commonest).
    let zeros = counts[b'0' as usize];
    let blank_like = symbols
        .iter()
        .all(|&b| b == b'0' || counts[b as usize] < zeros);
    let set: Vec<u8> = if symbols.len() == n {
        symbols.to_vec()
    } else if symbols.len() == n + 1 && symbols.contains(&b'0') && blank_like {
        symbols.iter().copied().filter(|&b| b != b'0').collect()
    } else {
        return None;
    };
    let cells: usize = (0..=255u8)
        .filter(|&b| Alphabet::can_be_symbol(b) || BLANKS.contains(&b))
        .map(|b| counts[b as usize])
        .sum();
    let grids = cells.div_ceil(n * n).max(1);
    if set
        .iter()
        .any(|&b| counts[b as usize] > n.saturating_mul(grids))
    {
        return None;
    }
    Alphabet::from_symbols(&set)
}

fn mark(counts: &mut [usize; 256], text: &[u8]) {
    for &b in text {
        counts[b as usize] += 1;
    }
}

/// Decides the plan from the look-ahead (`whole`: it holds the entire input).
///
/// # Errors
/// A whole-input problem: binary data or invalid UTF-8 on the first content line, a CSV without the
/// named (or any) puzzle column.
pub(crate) fn detect(
    sample: &[OwnedLine],
    whole: bool,
    options: &ReadOptions,
) -> Result<Plan, DetectError> {
    let trailers = sample.iter().any(|l| classify(&l.text) == Kind::Rule);
    let mut plan = if trailers {
        let mut plan = decide(&without_rule_rows(sample), whole, options)?;
        plan.trailers = true;
        plan.separated = false;
        plan
    } else {
        decide(sample, whole, options)?
    };
    if plan.format == Format::Csv {
        plan.trailers = false;
    }
    if options.column.is_some() && plan.format != Format::Csv && plan.n.is_some() {
        return Err((
            1,
            1,
            ParseErrorKind::ColumnNotCsv {
                format: plan.format,
            },
        ));
    }
    Ok(plan)
}

/// The look-ahead without the rows that rule lines own, so that region symbols and solutions do not
/// decide the format or the alphabet: the rows after a `regions:` or `solution:` line that has no
/// cells of its own, and in a run of data lines (comments aside) longer than its first line is wide,
/// the rows past that width (a region map right after a grid).
fn without_rule_rows(sample: &[OwnedLine]) -> Vec<OwnedLine> {
    let mut out = Vec::with_capacity(sample.len());
    let mut section = false;
    let mut run: Option<(usize, usize)> = None;
    for l in sample {
        match classify(&l.text) {
            Kind::Comment => {}
            Kind::Data if section => continue,
            Kind::Data => {
                let (width, rows) = run.get_or_insert((row_width(&l.text), 0));
                *rows += 1;
                // The run's first line is kept, however narrow (a line of stray bytes has width 0):
                // it is what the checks of the first content line look at.
                if *rows > (*width).max(1) {
                    continue;
                }
            }
            Kind::Rule => {
                let t = trim_start(&l.text);
                section = matches!(
                    rule_word(t),
                    Some((
                        RuleWord::Regions | RuleWord::Solution,
                        k
                    )) if trim_start(&t[k..]).is_empty()
                );
                run = None;
            }
            _ => {
                section = false;
                run = None;
            }
        }
        out.push(l.clone());
    }
    out
}

/// [`detect`] but for the check of `--column`.
fn decide(sample: &[OwnedLine], whole: bool, options: &ReadOptions) -> Result<Plan, DetectError> {
    let content: Vec<&OwnedLine> = sample
        .iter()
        .filter(|l| !matches!(classify(&l.text), Kind::Blank | Kind::Comment))
        .collect();
    let mut plan = Plan {
        format: options.format.unwrap_or(Format::Line),
        n: None,
        alphabet: None,
        ints_line: false,
        spaced: false,
        bars: false,
        separated: false,
        csv: None,
        trailers: false,
    };
    let Some(first) = content.first() else {
        return Ok(plan);
    };
    // A note after a one-line grid is free text (as on every later line): only the grid part can make
    // the input binary.
    let before_note = |t: &'_ [u8]| -> usize { note_split(t).map_or(t.len(), |(_, _, note)| note) };
    let checked = &first.text[..before_note(&first.text)];
    if let Some((offset, byte, utf8)) = first_non_text(checked) {
        let kind = if utf8 {
            ParseErrorKind::InvalidUtf8 { byte }
        } else {
            ParseErrorKind::Binary { byte }
        };
        return Err((first.number, column(&first.text, offset), kind));
    }
    let has_ws = |t: &[u8]| trim_start(t).iter().any(|&b| b == b' ' || b == b'\t');
    // Commas in a note (`…  unique, certified`, as `solve --unique --certify` writes) make no CSV.
    let comma = |t: &[u8]| t[..before_note(t)].contains(&b',');
    // And at least one complete record (see `csv_look_ahead`). The records, read once, are the CSV
    // plan's too.
    let csv_rows = (comma(&first.text)
        && (!has_ws(&first.text) || content.get(1).is_some_and(|l| comma(&l.text))))
    .then(|| csv_look_ahead(sample, first));
    let csv_like = csv_rows.as_ref().is_some_and(|(r, _)| !r.is_empty());
    let data: Vec<&OwnedLine> = content
        .iter()
        .copied()
        .filter(|l| classify(&l.text) == Kind::Data)
        .collect();
    // The typical data line, found once (a pass over the whole look-ahead).
    let typical_line = std::cell::OnceCell::new();
    let the_typical = || *typical_line.get_or_init(|| typical(&data));
    let format = match options.format {
        Some(f) => f,
        None if csv_like => Format::Csv,
        None => match the_typical() {
            None => Format::Line,
            Some(d) => guess(d, &content, &data, options),
        },
    };
    plan.format = format;
    let forced_n = options.shape.map(Shape::n);
    match format {
        Format::Csv => {
            let (rows, unterminated) = csv_rows.unwrap_or_else(|| csv_look_ahead(sample, first));
            return match unterminated {
                None => detect_csv(&rows, options, plan),
                Some(e) if rows.is_empty() => Err(e),
                // Where the lines after it name no column either, the first line's error is the
                // one to see.
                Some(e) => detect_csv(&rows, options, plan).map_err(|_| e),
            };
        }
        // Each line is a whole puzzle, its own size: nothing to decide.
        Format::Sigh => {}
        Format::Line => {
            // Rows pasted on one line, separated by spaces, when the typical line is so written.
            plan.spaced = the_typical().is_some_and(|d| spaced_rows(&d.text).is_some());
            let width = |l: &OwnedLine| match spaced_rows(&l.text) {
                Some((start, end, _)) if plan.spaced => row_width(&l.text[start..end]),
                _ => flat_width(grid_part(&l.text)),
            };
            plan.n = the_typical()
                .and_then(|d| square_side(width(d)))
                .or_else(|| data.iter().find_map(|l| square_side(width(l))));
            if let Some(n) = plan.n {
                let mut seen = [0usize; 256];
                for l in &data {
                    let text = grid_part(&l.text);
                    if text.len() <= 64 * 64 * 4 {
                        mark(&mut seen, text);
                    }
                }
                plan.alphabet = Some(choose_alphabet(n, &seen, options));
            }
        }
        Format::Block | Format::Letters => {
            let Some(d) = the_typical() else {
                return Ok(plan);
            };
            let n = row_width(&d.text);
            plan.n = Some(n);
            plan.bars = d.text.contains(&b'|');
            plan.spaced = tokens(&d.text).filter(|t| *t != b"|").count() > 1;
            let mut seen = [0usize; 256];
            for l in &data {
                if !is_rule(&l.text, n, plan.bars) {
                    mark(&mut seen, &l.text);
                }
            }
            plan.separated = separated(sample, whole, d, n, |t| {
                matches!(format, Format::Block | Format::Letters) && is_rule(t, n, plan.bars)
            });
            let choice = choose_alphabet(n, &seen, options);
            if n == 16 && choice.alphabet == Alphabet::letters(16) {
                plan.format = Format::Letters;
            }
            plan.alphabet = Some(choice);
        }
        Format::Ints => {
            let Some(d) = the_typical() else {
                return Ok(plan);
            };
            let t = tokens(&d.text).count();
            let single = match (forced_n, square_side(t)) {
                (Some(n), _) => t == n * n && t != n,
                (None, None) => false,
                (None, Some(m)) => {
                    let group = run_of(&data, d, |l| tokens(&l.text).count());
                    let max = group
                        .iter()
                        .flat_map(|l| tokens(&l.text))
                        .map(int_value)
                        .max()
                        .unwrap_or(0);
                    let hinted = header_hint(&content, d, t);
                    !(hinted || max > m || (max == 0 && group.len() == t))
                }
            };
            plan.ints_line = single;
            plan.n = Some(if single { isqrt(t) } else { t });
            if !single {
                plan.separated = separated(sample, whole, d, t, |_| false);
            }
        }
    }
    Ok(plan)
}

/// Whether the look-ahead `sample` already holds one whole puzzle of the kind it shows, so that an
/// interactive reader may decide now ([`super::Lookahead::FirstPuzzle`]): a grid line (two when its
/// width could also be a block row of 16 … 64 cells and neither `--format` nor `--box` says which),
/// a CSV row with a grid, or N rows of an N-wide block. A whole-input error needs no more input.
pub(crate) fn holds_a_puzzle(sample: &[OwnedLine], options: &ReadOptions) -> bool {
    let plan = match detect(sample, false, options) {
        Ok(plan) => plan,
        Err(_) => return true,
    };
    let Some(n) = plan.n else {
        return false;
    };
    let data: Vec<&OwnedLine> = sample
        .iter()
        .filter(|l| classify(&l.text) == Kind::Data)
        .collect();
    let one_line = plan.format == Format::Line || (plan.format == Format::Ints && plan.ints_line);
    if plan.format == Format::Csv {
        true
    } else if one_line {
        // n ≤ 8: the line's n² cells could also be one row of an n²-wide block.
        let ambiguous = n <= 8
            && options.shape.is_none()
            && (plan.format == Format::Ints || options.format.is_none());
        data.len() >= if ambiguous { 2 } else { 1 }
    } else {
        let rows = data
            .iter()
            .filter(|l| plan.format == Format::Ints || !is_rule(&l.text, n, plan.bars))
            .count();
        rows >= n
    }
}

/// The line that shows the file's shape: the first data line of the most common kind (token count, and
/// width for one-token lines), so that one broken first row does not decide for the whole file. Lines
/// of fewer than 4 cells (no grid has rows that short) decide only when there is nothing else; between
/// kinds equally common, a whole one-line grid or a row of a side with a default box shape wins, then
/// the first.
fn typical<'a>(data: &[&'a OwnedLine]) -> Option<&'a OwnedLine> {
    let mut kinds: std::collections::HashMap<(usize, usize), (usize, usize)> =
        std::collections::HashMap::new();
    for (i, l) in data.iter().enumerate() {
        let text = grid_part(&l.text);
        let t = tokens(text).count();
        let key = (t, if t == 1 { flat_width(text) } else { 0 });
        kinds.entry(key).or_insert((i, 0)).1 += 1;
    }
    kinds
        .iter()
        .max_by_key(|&(&(t, w), &(first, count))| {
            let cells = if t == 1 { w } else { t };
            let standard = (t == 1 && square_side(w).is_some()) || Shape::for_side(cells).is_ok();
            (cells >= 4, count, standard, std::cmp::Reverse(first))
        })
        .map(|(_, &(first, _))| data[first])
}

/// The format of the typical data line `d`, when not forced and not CSV.
fn guess(
    d: &OwnedLine,
    content: &[&OwnedLine],
    data: &[&OwnedLine],
    options: &ReadOptions,
) -> Format {
    let text = grid_part(&d.text);
    let toks: Vec<&[u8]> = tokens(text).collect();
    let bars = text.contains(&b'|');
    // Ints when every line of this many tokens holds integers only: a spaced block row of blanks
    // (`. . . .`) or of digits alone is no proof, a letter in another row of the grid is.
    let all_ints = || {
        data.iter()
            .filter(|l| tokens(&l.text).count() == toks.len())
            .all(|l| !l.text.contains(&b'|') && tokens(&l.text).all(int_like))
    };
    if toks.len() >= 2 && !bars && all_ints() {
        return Format::Ints;
    }
    if toks.len() >= 2 && spaced_grid(d, content, data, options) {
        return Format::Line;
    }
    if toks.len() >= 2 {
        return Format::Block;
    }
    let w = flat_width(text);
    let known_n = options
        .shape
        .map(Shape::n)
        .or(options.symbols.as_ref().map(Alphabet::len));
    if let Some(n) = known_n {
        if w == n {
            return Format::Block;
        }
        if w == n * n {
            return Format::Line;
        }
    }
    let Some(m) = square_side(w) else {
        return if w <= 64 { Format::Block } else { Format::Line };
    };
    if w > 64 {
        return Format::Line;
    }
    // 16, 25, 36, 49 or 64 symbols: a row of a block, or a whole small grid on one line.
    let group = run_of(data, d, |l| flat_width(grid_part(&l.text)));
    let mut seen = [0usize; 256];
    for l in &group {
        mark(&mut seen, grid_part(&l.text));
    }
    let distinct = (0..=255u8)
        .filter(|&b| seen[b as usize] > 0 && !neutral(b) && b != b'0')
        .count();
    if header_hint(content, d, w) || distinct > m || (distinct == 0 && group.len() == w) {
        Format::Block
    } else {
        Format::Line
    }
}

/// Whether the data line `d` is a whole grid pasted as its N rows of N symbols (`53..7.... 6..195...
/// …`) rather than one row of an N²-wide block written in box groups: `--box` or `--symbols` say N,
/// no header says N², and the lines around it hold no more than N distinct symbols (an N²-wide block
/// needs N² of them) or are too few to be an N²-wide block.
fn spaced_grid(
    d: &OwnedLine,
    content: &[&OwnedLine],
    data: &[&OwnedLine],
    options: &ReadOptions,
) -> bool {
    let Some((start, end, _)) = spaced_rows(&d.text) else {
        return false;
    };
    let k = row_width(&d.text[start..end]);
    let k = isqrt(k);
    let known_n = options
        .shape
        .map(Shape::n)
        .or(options.symbols.as_ref().map(Alphabet::len));
    if let Some(n) = known_n {
        return n == k;
    }
    if header_hint(content, d, k * k) {
        return false;
    }
    let group = run_of(data, d, |l| row_width(&l.text));
    let mut seen = [0usize; 256];
    for l in &group {
        mark(&mut seen, &l.text);
    }
    let distinct = (0..=255u8)
        .filter(|&b| seen[b as usize] > 0 && !neutral(b) && b != b'0')
        .count();
    if group.len() < k * k {
        // Too few lines for an N²-wide block: a grid, unless it holds far more symbols than N (the
        // start of a block cut short), so that a stray symbol is reported at its column.
        return distinct <= 2 * k;
    }
    distinct <= k && distinct > 0
}

/// Whether the grid starting at `d` (N rows, not counting comments and `skip` lines) is followed by a
/// blank or header line, or ends the input.
fn separated(
    sample: &[OwnedLine],
    whole: bool,
    d: &OwnedLine,
    n: usize,
    skip: impl Fn(&[u8]) -> bool,
) -> bool {
    let Some(start) = sample.iter().position(|l| l.number == d.number) else {
        return false;
    };
    let mut rows = 0;
    for l in &sample[start..] {
        match classify(&l.text) {
            Kind::Comment => {}
            Kind::Data if skip(&l.text) => {}
            Kind::Data if rows < n => rows += 1,
            Kind::Data => return false,
            _ => return rows == n,
        }
    }
    // The look-ahead ended: separated only if it was the end of the input.
    rows == n && whole
}

/// The consecutive data lines from `d` on with the same `width` (a block's rows, or one-line grids).
fn run_of<'a>(
    data: &[&'a OwnedLine],
    d: &OwnedLine,
    width: impl Fn(&OwnedLine) -> usize,
) -> Vec<&'a OwnedLine> {
    let w = width(d);
    let start = data.iter().position(|l| l.number == d.number).unwrap_or(0);
    let mut run: Vec<&OwnedLine> = Vec::new();
    for l in &data[start..] {
        if let Some(prev) = run.last()
            && l.number != prev.number + 1
        {
            break;
        }
        if width(l) != w {
            break;
        }
        run.push(l);
    }
    run
}

/// Whether the two header integers just before `d` give a box shape for side `n`.
fn header_hint(content: &[&OwnedLine], d: &OwnedLine, n: usize) -> bool {
    let pos = content
        .iter()
        .position(|l| l.number == d.number)
        .unwrap_or(0);
    let ints: Vec<u32> = content[..pos]
        .iter()
        .rev()
        .map_while(|l| match classify(&l.text) {
            Kind::HeaderInt(v) => Some(v),
            _ => None,
        })
        .take(2)
        .collect();
    matches!(ints[..], [b, a] if shape_hint(a, b, n).is_some())
}

/// Names a puzzle column goes by, in order of preference.
const PUZZLE_NAMES: &[&str] = &[
    "puzzle", "puzzles", "quizzes", "quiz", "sudoku", "grid", "board", "problem", "question",
    "givens", "clues",
];

/// Whether a CSV field holds a one-line grid: N² (N ≥ 4) symbol-like characters.
fn grid_like(field: &[u8]) -> bool {
    square_side(field.len()).is_some()
        && field
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"._-?@$%*".contains(&b))
}

/// The look-ahead's CSV records (line number, fields). Where the first line's quote never closes
/// in it, the records of the lines after that line, as the CSV parser reads them after reporting
/// it (the quote swallows the input into one field, from which no column could be read), with
/// that line's error.
fn csv_look_ahead(
    sample: &[OwnedLine],
    first: &OwnedLine,
) -> (Vec<csv_records::Record>, Option<DetectError>) {
    let rows = csv_records::records(sample);
    let open = rows
        .is_empty()
        .then(|| csv_records::open_quote_column(&first.text))
        .flatten();
    let Some(at) = open else {
        return (rows, None);
    };
    let after = sample
        .iter()
        .position(|l| l.number == first.number)
        .map_or(sample.len(), |i| i + 1);
    let e = (first.number, at, ParseErrorKind::UnterminatedQuote);
    (csv_records::records(&sample[after..]), Some(e))
}

fn detect_csv(
    records: &[csv_records::Record],
    options: &ReadOptions,
    mut plan: Plan,
) -> Result<Plan, DetectError> {
    let Some((first_line, first)) = records.first() else {
        return Ok(plan);
    };
    let header: Vec<String> = first
        .iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_string())
        .collect();
    let has_header = !first.iter().any(|f| grid_like(f));
    let rows = &records[usize::from(has_header)..];
    let columns = header.join(", ");
    let by_name = |name: &str| header.iter().position(|h| h.eq_ignore_ascii_case(name));
    let column = if let Some(name) = &options.column {
        let name = name.trim();
        let found = if has_header { by_name(name) } else { None };
        match found.or_else(|| {
            name.parse::<usize>()
                .ok()
                .filter(|&k| k >= 1 && k <= header.len())
                .map(|k| k - 1)
        }) {
            Some(c) => c,
            None => {
                return Err((
                    *first_line,
                    1,
                    ParseErrorKind::MissingColumn {
                        name: name.to_string(),
                        columns,
                    },
                ));
            }
        }
    } else {
        let named = if has_header {
            PUZZLE_NAMES.iter().find_map(|n| by_name(n))
        } else {
            None
        };
        let shaped = || {
            rows.iter()
                .take(20)
                .find_map(|(_, fields)| fields.iter().position(|f| grid_like(f)))
        };
        match named.or_else(shaped) {
            Some(c) => c,
            None => {
                return Err((*first_line, 1, ParseErrorKind::NoPuzzleColumn { columns }));
            }
        }
    };
    let name = if has_header {
        header.get(column).cloned().unwrap_or_default()
    } else {
        format!("{}", column + 1)
    };
    let mut seen = [0usize; 256];
    let mut n = None;
    // The alphabet is the file's: every column holding grids of the puzzle column's size counts (a
    // solutions column written without blanks must not decide it alone).
    for (_, fields) in rows {
        let Some(f) = fields.get(column) else {
            continue;
        };
        if n.is_none() {
            n = square_side(flat_width(f));
        }
        mark(&mut seen, f);
        for (i, g) in fields.iter().enumerate() {
            if i != column && g.len() == f.len() && grid_like(g) {
                mark(&mut seen, g);
            }
        }
    }
    plan.n = n;
    plan.alphabet = n.map(|n| choose_alphabet(n, &seen, options));
    plan.csv = Some(CsvPlan {
        header_line: has_header.then_some(*first_line),
        column,
        name,
    });
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &str) -> Vec<OwnedLine> {
        text.lines()
            .enumerate()
            .map(|(i, l)| OwnedLine {
                number: i + 1,
                text: l.trim_end().as_bytes().to_vec(),
                length: l.len(),
            })
            .collect()
    }

    fn plan(text: &str) -> Plan {
        detect(&sample(text), true, &ReadOptions::default()).unwrap()
    }

    #[test]
    fn line_and_block() {
        let p = plan(
            "# c\n4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
        );
        assert_eq!((p.format, p.n), (Format::Line, Some(9)));
        let p = plan("Grid 01\n003020600\n900305001\n");
        assert_eq!((p.format, p.n), (Format::Block, Some(9)));
        let p = plan("4\n4\n..2.31D.....7E6.\n8E.9.....D.6B.A.\n");
        assert_eq!((p.format, p.n), (Format::Block, Some(16)));
        assert_eq!(p.alphabet.unwrap().alphabet.to_string(), "1-9A-G");
        let p = plan("--A----C-----O-I\n-J--A-B-P-CGF-H-\n");
        assert_eq!(p.format, Format::Letters);
        let p = plan("1.3.\n..21\n");
        assert_eq!((p.format, p.n), (Format::Block, Some(4)));
        let p = plan("1..4.......3.2..\n2..1.....3..4...\n");
        assert_eq!((p.format, p.n), (Format::Line, Some(4)));
    }

    #[test]
    fn ints() {
        let p = plan("# file: a\n3\n1\n-1\t5\t-1\t-1\t-1\t-1\t-1\t-1\t-1\t\n");
        assert_eq!((p.format, p.n, p.ints_line), (Format::Ints, Some(9), false));
        let p = plan("1 0 0 0 0 0 1 0 0 1 0 0 0 0 0 1\n");
        assert_eq!((p.format, p.n, p.ints_line), (Format::Ints, Some(4), true));
        let p = plan("0 15 0 1 0 2 10 14 12 0 0 0 0 0 0 0\n");
        assert_eq!(
            (p.format, p.n, p.ints_line),
            (Format::Ints, Some(16), false)
        );
    }

    #[test]
    fn alphabets() {
        let p = plan(
            "b2.7...f6e...3.d...9b.2.....f1.6.a.c..7.4.8...e..8.3..1...fca.42..e.....16a...3.3........4.f8.6b...d2....b..74...b840..d7.93e......f37.45..90dc...c8..a....b4...49.5e.d........a.d...6c1.....7..91.e74...f..3.d..3...9.2.1..5.0.f.4b.....3.d1...5.d...fe9...2.b4\n",
        );
        assert_eq!(p.n, Some(16));
        assert_eq!(p.alphabet.unwrap().alphabet.to_string(), "0-9a-f");
        let mut seen = [0usize; 256];
        mark(&mut seen, b"0.12");
        // `0` beside `.` in a 9x9 file is a blank, and said so.
        let c = choose_alphabet(9, &seen, &ReadOptions::default());
        assert_eq!(c.alphabet.to_string(), "1-9");
        assert!(matches!(c.note, Some(Note::ZeroIsABlank { .. })));
        mark(&mut seen, b"9");
        assert_eq!(
            choose_alphabet(9, &seen, &ReadOptions::default())
                .alphabet
                .to_string(),
            "1-9"
        );
        // `0` as the only blank, and rarer than the other symbols: a full `0-8` grid.
        let mut seen = [0usize; 256];
        mark(&mut seen, b"012345678");
        let c = choose_alphabet(9, &seen, &ReadOptions::default());
        assert_eq!(c.alphabet.to_string(), "0-8");
        assert!(matches!(c.note, Some(Note::ZeroIsAValue { .. })));
        // The commonest symbol `0` is a blank.
        mark(&mut seen, b"0000000000");
        assert_eq!(
            choose_alphabet(9, &seen, &ReadOptions::default())
                .alphabet
                .to_string(),
            "1-9"
        );
    }

    #[test]
    fn a_first_line_whose_quote_never_closes() {
        // The quote swallows the input into one unfinished field. The CSV parser reports that line
        // and reads the lines after it as records of their own, so the plan's column is found in
        // those (before: a CSV plan without a column, and rows read as lines under a CSV layout).
        let grid =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let text = format!("\"id,puzzle\n1,{grid}\n2,{grid}\n");
        let forced = ReadOptions {
            format: Some(Format::Csv),
            ..ReadOptions::default()
        };
        for options in [ReadOptions::default(), forced.clone()] {
            let p = detect(&sample(&text), true, &options).unwrap();
            assert_eq!((p.format, p.n), (Format::Csv, Some(9)));
            let c = p.csv.unwrap();
            assert_eq!((c.column, c.header_line), (1, None));
        }
        // With nothing after it, or nothing holding a puzzle, the line's error is the input's, at
        // the quote left open.
        for text in ["\",b\n", "\",b\n1,2\n", "a,\"b\n"] {
            let e = detect(&sample(text), true, &forced).unwrap_err();
            assert_eq!(
                (e.0, e.2.clone()),
                (1, ParseErrorKind::UnterminatedQuote),
                "{text:?}"
            );
            assert_eq!(e.1, text.find('"').unwrap() + 1, "{text:?}");
        }
        // A quote that closes on the line is CSV as before.
        let p = plan(&format!("\"id, note\",puzzle\n1,{grid}\n"));
        assert_eq!(p.format, Format::Csv);
        assert_eq!(p.csv.unwrap().header_line, Some(1));
    }

    #[test]
    fn csv_columns() {
        let p = plan(
            "DIFFICULTY,VOLUME,BOOK,NUMBER,PUZZLE\nEZ,1,1,1,205007006400960020000080045980074000570802069000630057750020000060051002300400508\n",
        );
        assert_eq!(p.format, Format::Csv);
        let c = p.csv.unwrap();
        assert_eq!((c.column, c.header_line), (4, Some(1)));
        let s = sample("a,b\n1,2\n");
        let e = detect(&s, true, &ReadOptions::default()).unwrap_err();
        assert!(matches!(e.2, ParseErrorKind::NoPuzzleColumn { .. }));
        let o = ReadOptions {
            column: Some("nope".into()),
            ..ReadOptions::default()
        };
        let e = detect(&s, true, &o).unwrap_err();
        assert!(matches!(e.2, ParseErrorKind::MissingColumn { .. }));
    }

    #[test]
    fn rules() {
        assert!(is_rule(b"------+-------+------", 9, false));
        assert!(is_rule(b"---------------------", 9, false));
        assert!(!is_rule(b"---------", 9, false));
        assert!(is_rule(b"---------", 9, true));
        assert!(!is_rule(b"1-3", 3, false));
    }
}
