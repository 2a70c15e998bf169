//! CSV input: records read by the `csv` crate (RFC 4180: a quoted field may hold commas, quotes and
//! newlines), one puzzle per record from the puzzle column, errors placed at their line and column.
//!
//! Lines come from the reader's bounded line reader, so the look-ahead and the streaming stay as for the
//! other formats: a record is the lines up to the one that leaves no quoted field open; the `csv` crate
//! splits it into fields. A quote still open at the end of the input, past 1 MiB or past 100 lines is
//! that record's error, and reading goes on with the line after its first.

use super::context::{Context, Emitted};
use super::csv_records::{Fields, open_quote_column, still_open, trim};
use super::detect::CsvPlan;
use super::error::ParseErrorKind;
use super::line::parse_flat;
use super::lines::{Kind, Line, MAX_LINE, OwnedLine, classify, column};

/// The most lines one record may span: a quoted field still open after them is unterminated.
const MAX_RECORD_LINES: usize = 100;

/// The byte offset in `raw` (a whole record, its lines joined by `\n`) where field `index` (0-based)
/// starts, at its opening quote if it has one.
fn field_start(raw: &[u8], index: usize) -> Option<usize> {
    let (mut field, mut open, mut at_start) = (0, false, true);
    if index == 0 {
        return Some(0);
    }
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if open {
            if b == b'"' {
                if raw.get(i + 1) == Some(&b'"') {
                    i += 2;
                    continue;
                }
                open = false;
            }
            at_start = false;
        } else if b == b'"' && at_start {
            open = true;
            at_start = false;
        } else if b == b',' {
            field += 1;
            if field == index {
                return Some(i + 1);
            }
            at_start = true;
        } else {
            at_start = false;
        }
        i += 1;
    }
    None
}

/// The byte offset in `raw` of content byte `k` of the field starting at `start` (quotes and the
/// second quote of each `""` are not content).
fn content_offset(raw: &[u8], start: usize, k: usize) -> usize {
    if raw.get(start) != Some(&b'"') {
        return start + k;
    }
    let mut i = start + 1;
    let mut seen = 0;
    while i < raw.len() && seen < k {
        i += if raw[i] == b'"' { 2 } else { 1 };
        seen += 1;
    }
    i.min(raw.len())
}

/// `(line, column)` of byte `offset` of a record whose first line is `first`.
fn place(raw: &[u8], first: usize, offset: usize) -> (usize, usize) {
    let head = &raw[..offset.min(raw.len())];
    let newlines = memchr::memchr_iter(b'\n', head).count();
    let line_start = memchr::memrchr(b'\n', head).map_or(0, |i| i + 1);
    (
        first + newlines,
        column(&raw[line_start..], offset - line_start),
    )
}

/// Reads the puzzle column of each record.
pub(crate) struct CsvParser {
    plan: CsvPlan,
    /// The lines of a record whose quoted field is still open.
    pending: Vec<OwnedLine>,
    /// Their bytes, joined by `\n`.
    raw: Vec<u8>,
    open: bool,
    fields: Fields,
}

impl CsvParser {
    pub(crate) fn new(plan: CsvPlan) -> CsvParser {
        CsvParser {
            plan,
            pending: Vec::new(),
            raw: Vec::new(),
            open: false,
            fields: Fields::new(),
        }
    }

    pub(crate) fn feed(&mut self, ctx: &mut Context, line: Line<'_>, out: &mut Emitted) {
        if !self.open {
            if matches!(classify(line.text), Kind::Blank | Kind::Comment) {
                return;
            }
            if line.too_long() {
                let e = ctx.too_long(&line);
                ctx.emit(line.number, Err(e), out);
                return;
            }
            self.raw.clear();
            self.pending.clear();
        } else {
            self.raw.push(b'\n');
        }
        self.raw.extend_from_slice(line.text);
        self.pending.push(line.to_owned_line());
        self.open = still_open(line.text, self.open);
        // A too long line here continues a record (a first one is reported above).
        if self.open || line.too_long() {
            if line.too_long() || self.raw.len() > MAX_LINE || self.pending.len() > MAX_RECORD_LINES
            {
                self.unterminated(ctx, out);
            }
            return;
        }
        self.record(ctx, out);
    }

    /// At the end of the input: a record still open is unterminated.
    pub(crate) fn end(&mut self, ctx: &mut Context, out: &mut Emitted) {
        while self.open {
            self.unterminated(ctx, out);
        }
    }

    /// The pending record's quoted field is never closed: its first line is the error, at the quote
    /// left open, and the lines after it are read again as records of their own.
    fn unterminated(&mut self, ctx: &mut Context, out: &mut Emitted) {
        self.open = false;
        let mut lines = std::mem::take(&mut self.pending).into_iter();
        let Some(first) = lines.next() else {
            return;
        };
        let at = open_quote_column(&first.text).unwrap_or(1);
        let e = ctx.error(first.number, at, ParseErrorKind::UnterminatedQuote);
        if self.plan.header_line != Some(first.number) {
            ctx.emit(first.number, Err(e), out);
        }
        for l in lines {
            self.feed(ctx, l.as_line(), out);
        }
    }

    /// Parses the complete record in `raw` (lines `pending`).
    fn record(&mut self, ctx: &mut Context, out: &mut Emitted) {
        let Some(first) = self.pending.first().map(|l| l.number) else {
            return;
        };
        if self.plan.header_line == Some(first) {
            return;
        }
        let column_index = self.plan.column;
        let raw = &self.raw;
        let r = match self.fields.split(raw) {
            Err(e) => Err(ctx.error(
                first,
                1,
                ParseErrorKind::Io {
                    message: format!("CSV: {e}"),
                },
            )),
            Ok(_) => match self.fields.record.get(column_index) {
                None => {
                    let (line, col) = place(raw, first, raw.len());
                    Err(ctx.error(
                        line,
                        col,
                        ParseErrorKind::MissingField {
                            found: self.fields.record.len(),
                            name: self.plan.name.clone(),
                            index: column_index + 1,
                        },
                    ))
                }
                Some(field) => {
                    let (s, e) = trim(field);
                    let start = field_start(raw, column_index).unwrap_or(0);
                    let at = |k: usize| place(raw, first, content_offset(raw, start, s + k));
                    parse_flat(ctx, &field[s..e], &at, first)
                }
            },
        };
        ctx.emit(first, r, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::csv_records::{last_open_quote, records};

    #[test]
    fn quotes_open_and_close() {
        assert!(!still_open(b"a,b,c", false));
        assert!(still_open(b"1,\"abc", false));
        assert!(!still_open(b"def\",2", true));
        assert!(still_open(b"x \"\" y", true), "an escaped quote");
        assert!(!still_open(b"1,ab\"c,3", false), "a quote inside a field");
        assert!(!still_open(b"\"a,\"\"b\"\"\",c", false));
        assert_eq!(last_open_quote(b"1,2,\"abc"), Some(4));
        assert_eq!(last_open_quote(b"1,\"a\",3"), None);
    }

    #[test]
    fn fields_and_their_places() {
        let raw = b"1,\"a \"\"q\"\" \nb\",  4.3.,x";
        assert_eq!(field_start(raw, 0), Some(0));
        assert_eq!(field_start(raw, 1), Some(2));
        assert_eq!(field_start(raw, 2), Some(15));
        assert_eq!(field_start(raw, 4), None);
        // Content byte 3 of field 1 (`q`, after the escaped quote) is raw byte 7, on the first line.
        assert_eq!(content_offset(raw, 2, 3), 7);
        assert_eq!(place(raw, 10, 7), (10, 8));
        // `b` is on the record's second line, column 1.
        assert_eq!(place(raw, 10, 12), (11, 1));
        let mut f = Fields::new();
        assert!(f.split(raw).unwrap());
        let got: Vec<&[u8]> = f.record.iter().collect();
        assert_eq!(got, [&b"1"[..], b"a \"q\" \nb", b"  4.3.", b"x"]);
        assert_eq!(trim(b"  4.3. "), (2, 6));
        // The reader is reused: the next record replaces the last.
        assert!(f.split(b"p,q").unwrap());
        assert_eq!(f.record.len(), 2);
    }

    #[test]
    fn records_join_quoted_newlines() {
        let lines: Vec<OwnedLine> = ["id,puzzle,note", "1,abc,\"two", "lines\"", "2,def,x"]
            .iter()
            .enumerate()
            .map(|(i, t)| OwnedLine {
                number: i + 1,
                text: t.as_bytes().to_vec(),
                length: t.len(),
            })
            .collect();
        let r = records(&lines);
        assert_eq!(r.len(), 3);
        assert_eq!(r[1].0, 2);
        assert_eq!(r[1].1[2], b"two\nlines");
        assert_eq!((r[2].0, &r[2].1[1][..]), (4, &b"def"[..]));
    }
}
