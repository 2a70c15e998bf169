//! CSV records out of lines: where a record ends (a quoted field may span lines) and its fields, split
//! by the `csv` crate. Shared by detection (which looks at the first records) and the CSV parser.

use std::io::{Cursor, SeekFrom};

use super::lines::{Kind, MAX_LINE, OwnedLine, classify, column};

/// Whether a record that is inside a quoted field before `line` (`open`) still is after it: a quote
/// opens a field only at the field's start; inside one, `""` is a quote and a lone `"` closes it.
pub(crate) fn still_open(line: &[u8], open: bool) -> bool {
    if !open && memchr::memchr(b'"', line).is_none() {
        return false;
    }
    scan_quotes(line, open).0
}

/// The offset of the quote that leaves `line` (read from outside any field) inside a quoted field,
/// if one does.
pub(crate) fn last_open_quote(line: &[u8]) -> Option<usize> {
    match scan_quotes(line, false) {
        (true, quote) => quote,
        (false, _) => None,
    }
}

/// The 1-based column of the quote that leaves `line` inside a quoted field, if one does: where an
/// unterminated quoted field is reported, by detection and by the parser alike.
pub(crate) fn open_quote_column(line: &[u8]) -> Option<usize> {
    last_open_quote(line).map(|quote| column(line, quote))
}

/// Reads `line` starting inside a quoted field or not (`open`): whether it ends inside one, and the
/// offset of the last quote that opened a field.
fn scan_quotes(line: &[u8], mut open: bool) -> (bool, Option<usize>) {
    let (mut at_start, mut quote) = (!open, None);
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if open {
            if b == b'"' {
                if line.get(i + 1) == Some(&b'"') {
                    i += 2;
                    continue;
                }
                open = false;
            }
        } else if b == b'"' && at_start {
            open = true;
            quote = Some(i);
        }
        at_start = b == b',' && !open;
        i += 1;
    }
    (open, quote)
}

/// A record: the number of its first line, and its fields.
pub(crate) type Record = (usize, Vec<Vec<u8>>);

/// A CSV record parser: the `csv` crate's reader, reused for every record (it is pointed at the next
/// record's bytes by a seek).
pub(crate) struct Fields {
    reader: csv::Reader<Cursor<Vec<u8>>>,
    pub(crate) record: csv::ByteRecord,
}

impl Fields {
    pub(crate) fn new() -> Fields {
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(Cursor::new(Vec::new()));
        Fields {
            reader,
            record: csv::ByteRecord::new(),
        }
    }

    /// Splits `raw` (one whole record) into fields: `Ok(false)` for an empty record.
    pub(crate) fn split(&mut self, raw: &[u8]) -> Result<bool, csv::Error> {
        let data = self.reader.get_mut().get_mut();
        data.clear();
        data.extend_from_slice(raw);
        self.reader
            .seek_raw(SeekFrom::Start(0), csv::Position::new())?;
        self.reader.read_byte_record(&mut self.record)
    }
}

/// A field's content without the spaces and tabs around it: `(start, end)` in the field.
pub(crate) fn trim(field: &[u8]) -> (usize, usize) {
    let start = field
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(field.len());
    let end = field
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |i| i + 1);
    (start, end)
}

/// The records of look-ahead lines (blank and comment lines between records left out): each record's
/// first line and its fields, without the spaces around them. For detection.
pub(crate) fn records(lines: &[OwnedLine]) -> Vec<Record> {
    let mut fields = Fields::new();
    let mut out = Vec::new();
    let mut raw = Vec::new();
    let mut first = 0;
    let mut open = false;
    for l in lines {
        if !open {
            if matches!(classify(&l.text), Kind::Blank | Kind::Comment) {
                continue;
            }
            raw.clear();
            first = l.number;
        } else {
            raw.push(b'\n');
        }
        raw.extend_from_slice(&l.text);
        open = still_open(&l.text, open);
        if open && raw.len() <= MAX_LINE {
            continue;
        }
        open = false;
        if let Ok(true) = fields.split(&raw) {
            let row = fields
                .record
                .iter()
                .map(|f| {
                    let (s, e) = trim(f);
                    f[s..e].to_vec()
                })
                .collect();
            out.push((first, row));
        }
    }
    out
}
