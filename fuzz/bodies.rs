//! The fuzz targets' bodies, in one place for the `cargo fuzz` targets and for the ordinary test that
//! replays their corpora (`tests/it/fuzz_corpus.rs`). A body panics when a property breaks: that panic
//! is the finding.
//!
//! Included by path (`#[path = ".../fuzz/bodies.rs"] mod bodies;`) from both crates; it depends on the
//! `satdoku` library only.
#![allow(dead_code)]

use std::sync::OnceLock;

use satdoku::format::{
    Alphabet, Format, Layout, Lookahead, ParseError, PuzzleReader, ReadOptions, Record, read_str,
    write_sigh,
};
use satdoku::{Backend, DfsBackend, Grid, Limits, Outcome, Shape, Units, verify};

/// Every target: the name of its file in `fuzz/fuzz_targets/` and of its folder in `fuzz/corpus/`.
pub const TARGETS: &[&str] = &[
    "parse_auto",
    "parse_line",
    "parse_block",
    "parse_letters",
    "parse_ints",
    "parse_csv",
    "round_trip",
    "noisy_round_trip",
    "solve_check",
    "parse_sigh",
];

/// Runs the body of `target` on `data`.
///
/// # Panics
/// When a property breaks (the finding), or for an unknown target name.
pub fn run(target: &str, data: &[u8]) {
    match target {
        "parse_auto" => parse(data, None),
        "parse_line" => parse(data, Some(Format::Line)),
        "parse_block" => parse(data, Some(Format::Block)),
        "parse_letters" => parse(data, Some(Format::Letters)),
        "parse_ints" => parse(data, Some(Format::Ints)),
        "parse_csv" => parse(data, Some(Format::Csv)),
        "round_trip" => round_trip(data),
        "noisy_round_trip" => noisy_round_trip(data),
        "solve_check" => solve_check(data),
        "parse_sigh" => parse_sigh(data),
        _ => panic!("unknown fuzz target {target:?}"),
    }
}

// ----- parsers -----

/// Alphabets the options byte can pick (1-based; 0 is none).
const SPECS: &[&str] = &[
    "1-4",
    "1-6",
    "1-8",
    "1-9",
    "0-8",
    "1-9A-C",
    "1-9A-G",
    "0-9a-f",
    "0-9A-F",
    "A-P",
    "a-p",
    "1-9A-P",
    "1-9?A-Z",
    "1-9A-Za-z@$%",
    "A-Y",
    "/1-9A-F",
    "1-9a-z",
];

/// CSV columns the options byte can pick (1-based; 0 is none).
const COLUMNS: &[&str] = &[
    "puzzle",
    "quizzes",
    "solutions",
    "1",
    "2",
    "3",
    "5",
    "b",
    "PUZZLE",
    "0",
    "99",
    " quiz ",
];

/// Reader options from the first three bytes, and the rest of `data` as the input text.
///
/// - byte 0, the box shape: 0 none, else `Shape::new(high nibble, low nibble)` (`0x33` is 3x3; an
///   invalid shape is none);
/// - byte 1, the alphabet: 0 none, 1..=17 one of [`SPECS`], 0x80 and up a spec made of the next
///   `byte & 0x1f` bytes (so the alphabet parser is fuzzed too), else none;
/// - byte 2, the CSV column: bits 0-6: 0 none, 1..=12 one of [`COLUMNS`], else none; bit 7 sets
///   `allow_clashes` (how `verify` reads solutions).
///
/// Seeds are a fixture behind three zero bytes.
pub fn options_from(data: &[u8], format: Option<Format>) -> (ReadOptions, &[u8]) {
    let mut options = ReadOptions {
        format,
        ..ReadOptions::default()
    };
    let Some((head, mut rest)) = data.split_first_chunk::<3>() else {
        return (options, &[]);
    };
    let [b, s, c] = *head;
    if b != 0 {
        options.shape = Shape::new(usize::from(b >> 4), usize::from(b & 15)).ok();
    }
    options.symbols = match s {
        0 => None,
        s if usize::from(s) <= SPECS.len() => Alphabet::parse(SPECS[usize::from(s) - 1]).ok(),
        s if s >= 0x80 => {
            let k = usize::from(s & 0x1f).min(rest.len());
            let spec = String::from_utf8_lossy(&rest[..k]).into_owned();
            rest = &rest[k..];
            Alphabet::parse(&spec).ok()
        }
        _ => None,
    };
    options.column = COLUMNS
        .get(usize::from(c & 0x7f).wrapping_sub(1))
        .map(|s| (*s).to_string());
    options.allow_clashes = c & 0x80 != 0;
    (options, rest)
}

/// Reads `data` (options first, see [`options_from`]) and checks every record:
/// - at least one record, indices 0, 1, 2, … in order, lines within the input;
/// - an error displays as `fuzz:LINE:COLUMN: message` with its own line and column (both ≥ 1);
/// - a puzzle's grid has the layout's shape (the forced one, if any), the forced alphabet, the forced
///   format (block may become letters), and no two equal givens in a unit;
/// - a puzzle written back in its own layout and read with that layout forced gives the same grid.
///
/// Both look-aheads are checked: the full one and the interactive one ([`Lookahead::FirstPuzzle`]).
pub fn parse(data: &[u8], format: Option<Format>) {
    let (options, text) = options_from(data, format);
    for lookahead in [Lookahead::Full, Lookahead::FirstPuzzle] {
        check_records(text, &options, lookahead);
    }
}

fn check_records(text: &[u8], options: &ReadOptions, lookahead: Lookahead) {
    let records: Vec<Record> = PuzzleReader::new(text, "fuzz", options.clone())
        .with_lookahead(lookahead)
        .collect();
    let lines = text.split(|&b| b == b'\n').count();
    assert!(!records.is_empty(), "no record at all");
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r.index, i, "record indices in order");
        assert!(r.line >= 1 && r.line <= lines + 1, "record line {}", r.line);
        match &r.puzzle {
            Err(e) => check_error(e, lines),
            Ok(p) => {
                let layout = &p.layout;
                assert_eq!(p.grid.shape(), layout.shape());
                // A sigh constraint string is a puzzle wherever one can stand, with its own shape,
                // alphabet and layout (one line) whatever is forced (README, "sigh's constraint
                // strings"); a grid of another format is checked in full however its line starts.
                let sigh = layout.format() == Format::Line && starts_like_sigh(text, r.line);
                if let (Some(shape), false) = (options.shape, sigh) {
                    assert_eq!(layout.shape(), shape, "forced --box");
                }
                if let (Some(f), false) = (options.format, sigh) {
                    let ok = layout.format() == f
                        || (f == Format::Block && layout.format() == Format::Letters);
                    assert!(ok, "forced {f}, got {}", layout.format());
                }
                if let (Some(a), false) =
                    (&options.symbols, layout.format() == Format::Ints || sigh)
                {
                    assert_eq!(layout.alphabet(), a, "forced --symbols");
                }
                if let Some(note) = &p.note {
                    assert_eq!(
                        layout.format(),
                        Format::Line,
                        "a note outside the line format"
                    );
                    assert!(!note.is_empty(), "an empty note");
                    let trimmed = note.trim_matches(|c: char| c == ' ' || c == '\t');
                    assert_eq!(trimmed, note.as_str(), "a note with whitespace around it");
                    assert!(!note.contains('\n'), "a note over two lines");
                }
                if !options.allow_clashes {
                    let units = Units::standard(layout.shape());
                    let clash = units.find_clash(&p.grid);
                    assert_eq!(clash, None, "a puzzle with a clash was read");
                }
                rewrite(&p.grid, layout, options.allow_clashes);
            }
        }
    }
}

/// Whether line `line` (1-based) of `text` starts, after blanks, like a sigh constraint string: `.`
/// and a letter or `~` (a superset of what the reader takes for one).
fn starts_like_sigh(text: &[u8], line: usize) -> bool {
    let Some(l) = text.split(|&b| b == b'\n').nth(line.wrapping_sub(1)) else {
        return false;
    };
    let t = l.trim_ascii_start();
    t.first() == Some(&b'.')
        && t.get(1)
            .is_some_and(|&b| b == b'~' || b.is_ascii_alphabetic())
}

/// An error of an input of `lines` lines read as `fuzz`: it displays as `fuzz:LINE:COLUMN: message`
/// with its own line (within the input) and column (both ≥ 1).
fn check_error(e: &ParseError, lines: usize) {
    let shown = e.to_string();
    assert!(
        e.line >= 1 && e.line <= lines + 1 && e.column >= 1,
        "{shown}"
    );
    let prefix = format!("fuzz:{}:{}: ", e.line, e.column);
    assert!(shown.starts_with(&prefix), "{shown}");
    assert!(shown.len() > prefix.len(), "{shown}");
}

/// Writes `grid` in `layout` and reads it back with that layout's format, alphabet and shape forced.
fn rewrite(grid: &Grid, layout: &Layout, allow_clashes: bool) {
    let layout = if layout.format() == Format::Csv {
        layout.as_line()
    } else {
        layout.clone()
    };
    let mut text = String::new();
    layout.write(grid, &mut text);
    // The byte writer (the CLI's) writes the same.
    let mut bytes = Vec::new();
    layout.write_bytes(grid, &mut bytes);
    assert_eq!(bytes, text.as_bytes(), "{layout:?}");
    let options = ReadOptions {
        format: Some(layout.format()),
        symbols: (layout.format() != Format::Ints).then(|| layout.alphabet().clone()),
        // A grid without boxes (a sigh `NoBoxes` puzzle) has no box shape to force: it reads back
        // with the boxes of its size, the same cells.
        shape: Some(layout.shape()).filter(|s| s.box_rows() > 0),
        allow_clashes,
        ..ReadOptions::default()
    };
    let records = satdoku::format::read_str(&text, "again", options);
    assert_eq!(records.len(), 1, "{layout:?} wrote\n{text}");
    match &records[0].puzzle {
        Ok(p) if layout.shape().box_rows() > 0 => {
            assert_eq!(&p.grid, grid, "{layout:?} wrote\n{text}");
        }
        Ok(p) => {
            assert_eq!(
                p.grid.shape().n(),
                grid.shape().n(),
                "{layout:?} wrote\n{text}"
            );
            assert_eq!(p.grid.values(), grid.values(), "{layout:?} wrote\n{text}");
        }
        Err(e) => panic!("{layout:?} wrote\n{text}\nand read back: {e}"),
    }
}

/// Reads `data` as `--format sigh` does (constraint strings, a puzzle a line) and checks every
/// record:
/// - at least one record, indices 0, 1, 2, … in order, lines within the input;
/// - an error displays as `fuzz:LINE:COLUMN: message` with its own line and column (both ≥ 1);
/// - a puzzle's givens do not clash in its own rules;
/// - a puzzle that sigh's serialization can say is written back and read back as one record with
///   the same givens, and writing that again gives the same text (the writer is a fixed point).
///
/// Both look-aheads are read, and must give the same records.
pub fn parse_sigh(data: &[u8]) {
    let options = ReadOptions {
        format: Some(Format::Sigh),
        ..ReadOptions::default()
    };
    let read = |lookahead| -> Vec<Record> {
        PuzzleReader::new(data, "fuzz", options.clone())
            .with_lookahead(lookahead)
            .collect()
    };
    let records = read(Lookahead::Full);
    let again = read(Lookahead::FirstPuzzle);
    let lines = data.split(|&b| b == b'\n').count();
    assert!(!records.is_empty(), "no record at all");
    assert_eq!(records.len(), again.len(), "the look-aheads disagree");
    for (i, (r, s)) in records.iter().zip(&again).enumerate() {
        assert_eq!(r.index, i, "record indices in order");
        assert!(r.line >= 1 && r.line <= lines + 1, "record line {}", r.line);
        match (&r.puzzle, &s.puzzle) {
            (Err(e), Err(f)) => {
                assert_eq!(e.to_string(), f.to_string(), "the look-aheads disagree");
                check_error(e, lines);
            }
            (Ok(p), Ok(q)) => {
                assert_eq!(p.grid, q.grid, "the look-aheads disagree");
                assert_eq!(
                    p.units.find_clash(&p.grid),
                    None,
                    "givens that clash were read"
                );
                let Ok(text) = write_sigh(&p.units, &p.grid) else {
                    continue;
                };
                let back = read_str(&text, "back", options.clone());
                let [b] = &back[..] else {
                    panic!("{text} read back as {} records", back.len());
                };
                let b = match &b.puzzle {
                    Ok(b) => b,
                    Err(e) => panic!("{text} read back as {e}"),
                };
                // The same givens on a grid of the same size. (Not always the same `Shape`: a
                // jigsaw in sigh's one-line form is read on the size's boxes, which its regions
                // replace, and written back with `NoBoxes`, which reads as a shape without boxes.)
                let size = |g: &Grid| (g.shape().rows(), g.shape().cols(), g.shape().n());
                assert_eq!(
                    size(&b.grid),
                    size(&p.grid),
                    "{text} read back on another grid"
                );
                assert_eq!(
                    b.grid.values(),
                    p.grid.values(),
                    "{text} read back with other givens"
                );
                let twice = write_sigh(&b.units, &b.grid);
                assert_eq!(
                    twice.as_deref(),
                    Ok(text.as_str()),
                    "written again differently"
                );
            }
            _ => panic!("the look-aheads disagree on record {i}"),
        }
    }
}

// ----- writers -----

/// Shapes for generated grids.
const GRID_SHAPES: &[(usize, usize)] = &[
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (2, 4),
    (4, 2),
    (3, 4),
    (4, 3),
    (4, 4),
    (4, 5),
    (5, 5),
    (6, 6),
    (8, 8),
];

/// Symbol sequences for generated alphabets (the first N symbols are used).
const SEQUENCES: &[&str] = &[
    "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%",
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@$",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz123456789@$%",
    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ@$",
    "!$%&'()*/:;<=>?@[\\]^`{}~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd",
];

/// A grid without clashes from bytes: byte 0 picks the shape, then each `(cell, value)` group puts digit
/// `value mod N + 1` in that cell unless the cell is taken or the digit clashes. Cells take one byte
/// (two, big-endian, for grids of more than 256 cells), taken mod N².
pub fn grid_from(data: &[u8]) -> Option<Grid> {
    let (&b, rest) = data.split_first()?;
    let (r, c) = GRID_SHAPES[usize::from(b) % GRID_SHAPES.len()];
    let shape = Shape::new(r, c).ok()?;
    let (n, cells) = (shape.n(), shape.cells());
    let mut values = vec![0u16; cells];
    let (mut rows, mut cols, mut boxes) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
    let step = if cells > 256 { 3 } else { 2 };
    for group in rest.chunks_exact(step) {
        let (cell, v) = match group {
            [hi, lo, v] => ((usize::from(*hi) << 8 | usize::from(*lo)) % cells, *v),
            [c, v] => (usize::from(*c) % cells, *v),
            _ => continue,
        };
        let d = usize::from(v) % n;
        let bit = 1u64 << d;
        let (row, col) = (cell / n, cell % n);
        let bx = shape.block_of(row, col);
        if values[cell] != 0 || (rows[row] | cols[col] | boxes[bx]) & bit != 0 {
            continue;
        }
        values[cell] = d as u16 + 1;
        rows[row] |= bit;
        cols[col] |= bit;
        boxes[bx] |= bit;
    }
    Grid::from_values(shape, values).ok()
}

/// Writes an arbitrary clash-free grid in a layout chosen by the bytes and reads it back with format,
/// alphabet and shape forced: the same grid, in one record.
///
/// Byte 0 picks the layout (line, block plain / spaced / bars / both, letters, ints in rows, ints on one
/// line), byte 1 the alphabet sequence; the rest builds the grid (see [`grid_from`]).
pub fn round_trip(data: &[u8]) {
    let Some((&[style, seq], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let Some(grid) = grid_from(rest) else {
        return;
    };
    let shape = grid.shape();
    let n = shape.n();
    let sequence = SEQUENCES[usize::from(seq) % SEQUENCES.len()];
    let Ok(alphabet) = Alphabet::parse(&sequence[..n]) else {
        panic!("sequence {sequence:?} has no {n} symbols");
    };
    let layout = match style % 8 {
        0 => Layout::new(Format::Line, shape),
        1 => Layout::new(Format::Block, shape),
        2 => Layout::new(Format::Block, shape).with_block_style(true, false),
        3 => Layout::new(Format::Block, shape).with_block_style(false, true),
        4 => Layout::new(Format::Block, shape).with_block_style(true, true),
        5 => Layout::new(Format::Letters, shape),
        6 => Layout::new(Format::Ints, shape),
        _ => Layout::new(Format::Ints, shape).as_line(),
    };
    let layout = if matches!(layout.format(), Format::Letters | Format::Ints) {
        layout
    } else {
        layout.with_alphabet(alphabet)
    };
    // Several copies in one input: records must stay apart.
    let copies = 1 + usize::from(style >> 6);
    let mut text = String::new();
    let mut bytes = Vec::new();
    for _ in 0..copies {
        layout.write(&grid, &mut text);
        // The byte writer (the CLI's) appends the same.
        layout.write_bytes(&grid, &mut bytes);
        assert_eq!(bytes, text.as_bytes(), "{layout:?}");
        if layout.is_multiline() {
            text.push('\n');
            bytes.push(b'\n');
        }
    }
    let options = ReadOptions {
        format: Some(layout.format()),
        symbols: (layout.format() != Format::Ints).then(|| layout.alphabet().clone()),
        shape: Some(shape),
        ..ReadOptions::default()
    };
    let records = satdoku::format::read_str(&text, "rt", options);
    assert_eq!(records.len(), copies, "{layout:?} wrote\n{text}");
    for r in &records {
        match &r.puzzle {
            Ok(p) => {
                assert_eq!(p.grid, grid, "{layout:?} wrote\n{text}");
                assert_eq!(p.layout.shape(), shape);
            }
            Err(e) => panic!("{layout:?} wrote\n{text}\nand read back: {e}"),
        }
    }
}

/// Notes written after a one-line grid begin with one of these (the empty one leaves the note bare).
const NOTE_PREFIXES: &[&str] = &["# ", "; ", "", "rated ", "#"];

/// Text from fuzz bytes for a note or a CSV comment: invalid UTF-8 replaced, at most `lines` newlines
/// (`\r` dropped, since CRLF is a choice of its own).
fn fuzz_text(bytes: &[u8], lines: usize) -> String {
    let mut newlines = 0;
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|&c| c != '\r')
        .filter(|&c| {
            newlines += usize::from(c == '\n');
            c != '\n' || newlines <= lines
        })
        .collect()
}

/// Writes a clash-free grid (several times) as a line-format file with a note after each grid, or as
/// a CSV file with the grid in a `puzzle` column (quoted or not) and a comment column whose quoted
/// text may span lines, with CRLF line ends, a byte-order mark and comment lines as the bytes say;
/// reads it back with format, alphabet and shape forced: one record per grid, the same grids in
/// order, and each note as written (without the whitespace around it).
///
/// Byte 0: bit 0 CSV (else line), bit 1 CRLF, bit 2 BOM, bit 3 comment lines, bit 4 a tab before the
/// note, bits 5-7 the note's prefix ([`NOTE_PREFIXES`]) and the quoting of the grid field. Byte 1: the
/// alphabet sequence. Byte 2: the note's length `k`; the next `k` bytes are the note (or comment); the
/// rest builds the grid ([`grid_from`]), written `1 + (byte 1 >> 6)` times.
pub fn noisy_round_trip(data: &[u8]) {
    let Some((&[flags, seq, k], rest)) = data.split_first_chunk::<3>() else {
        return;
    };
    let k = usize::from(k).min(rest.len());
    let (note_bytes, rest) = rest.split_at(k);
    let Some(grid) = grid_from(rest) else {
        return;
    };
    let (csv, crlf, bom, comments, tab) = (
        flags & 1 != 0,
        flags & 2 != 0,
        flags & 4 != 0,
        flags & 8 != 0,
        flags & 16 != 0,
    );
    let prefix = NOTE_PREFIXES[usize::from(flags >> 5) % NOTE_PREFIXES.len()];
    let shape = grid.shape();
    let n = shape.n();
    let sequence = SEQUENCES[usize::from(seq) % SEQUENCES.len()];
    let Ok(alphabet) = Alphabet::parse(&sequence[..n]) else {
        panic!("sequence {sequence:?} has no {n} symbols");
    };
    let layout = Layout::new(Format::Line, shape).with_alphabet(alphabet.clone());
    let mut cells = String::new();
    layout.write(&grid, &mut cells);
    let cells = cells.trim_end().to_string();
    let copies = 1 + usize::from(seq >> 6);
    let mut lines: Vec<String> = Vec::new();
    let mut want_notes: Vec<Option<String>> = Vec::new();
    if comments {
        lines.push("# noisy round trip".into());
    }
    if csv {
        lines.push("id,puzzle,comment".into());
        let comment = fuzz_text(note_bytes, 20).replace('"', "\"\"");
        for i in 0..copies {
            let field = if flags & 32 != 0 {
                format!("\"{cells}\"")
            } else {
                cells.clone()
            };
            lines.push(format!("{i},{field},\"{comment}\""));
            want_notes.push(None);
            if comments {
                lines.push(format!("# after {i}"));
            }
        }
    } else {
        let note = format!("{prefix}{}", fuzz_text(note_bytes, 0));
        let note = note.trim_matches(|c: char| c == ' ' || c == '\t');
        // Tokens all as wide as the grid (at most 32 cells) would be the box groups of a block row.
        let width = cells.len();
        let groups = note
            .split([' ', '\t'])
            .filter(|t| !t.is_empty())
            .all(|t| t.len() == width);
        if groups && width <= 32 && !note.is_empty() {
            return;
        }
        // N² printable symbols of N labels, N each, one of them no digit: the grid's jigsaw region
        // map written beside it (README, "Variants"), not a note.
        let chars: Vec<char> = note.chars().collect();
        let labels: std::collections::BTreeSet<char> = chars.iter().copied().collect();
        if chars.len() == n * n
            && labels.iter().all(|c| !c.is_whitespace() && !c.is_control())
            && labels.len() == n
            && labels
                .iter()
                .all(|&l| chars.iter().filter(|&&c| c == l).count() == n)
            && labels.iter().any(|&l| alphabet.digit(l).is_none())
        {
            return;
        }
        for i in 0..copies {
            let gap = if tab { "\t" } else { "  " };
            if note.is_empty() {
                lines.push(cells.clone());
                want_notes.push(None);
            } else {
                lines.push(format!("{cells}{gap}{note}"));
                want_notes.push(Some(note.to_string()));
            }
            if comments && i % 2 == 0 {
                lines.push("# between".into());
            }
        }
    }
    let mut text = String::new();
    if bom {
        text.push('\u{feff}');
    }
    let end = if crlf { "\r\n" } else { "\n" };
    for l in &lines {
        text.push_str(&l.replace('\n', end));
        text.push_str(end);
    }
    let options = ReadOptions {
        format: Some(if csv { Format::Csv } else { Format::Line }),
        symbols: Some(alphabet),
        shape: Some(shape),
        ..ReadOptions::default()
    };
    let records = satdoku::format::read_str(&text, "noisy", options);
    assert_eq!(records.len(), copies, "wrote\n{text}");
    for (r, want) in records.iter().zip(&want_notes) {
        match &r.puzzle {
            Ok(p) => {
                assert_eq!(p.grid, grid, "wrote\n{text}");
                assert_eq!(&p.note, want, "wrote\n{text}");
            }
            Err(e) => panic!("wrote\n{text}\nand read back: {e}"),
        }
    }
}

// ----- solving -----

/// Every solution of the empty 4x4 grid (288), by plain backtracking: an oracle that shares no code with
/// the backends.
fn all_4x4() -> &'static [[u16; 16]] {
    static ALL: OnceLock<Vec<[u16; 16]>> = OnceLock::new();
    ALL.get_or_init(|| {
        fn fill(g: &mut [u16; 16], i: usize, out: &mut Vec<[u16; 16]>) {
            if i == 16 {
                out.push(*g);
                return;
            }
            let (r, c) = (i / 4, i % 4);
            for v in 1..=4u16 {
                let clash = (0..16).any(|j| {
                    j < i && g[j] == v && {
                        let (r2, c2) = (j / 4, j % 4);
                        r2 == r || c2 == c || (r2 / 2 == r / 2 && c2 / 2 == c / 2)
                    }
                });
                if !clash {
                    g[i] = v;
                    fill(g, i + 1, out);
                    g[i] = 0;
                }
            }
        }
        let mut out = Vec::new();
        fill(&mut [0; 16], 0, &mut out);
        out
    })
}

/// The backend the DFS is cross-checked against: the SAT backend in its default configuration.
fn other_backend() -> Option<Box<dyn Backend>> {
    Some(Box::new(satdoku::sat::SatBackend::default()))
}

/// Solves an arbitrary small puzzle with the DFS and checks the answer.
///
/// Byte 0: bits 0-1 pick the shape (2x2, 2x3, 3x2, 3x3), bit 2 keeps clashing givens (else they are
/// skipped), bits 3-4 the solution limit (1, 2, 3 or 300). Then pairs `(cell, value)` place digits.
///
/// Checks: every grid returned passes [`verify`]; the status fits the limit (found only when one
/// solution was asked, unique only when two or more); several solutions are two different grids and a
/// count within the limit; givens that clash give no solution; a 4x4 puzzle's answer matches the count
/// of the 288 solved 4x4 grids that keep its givens; and [`satdoku::cross_check`] of the DFS against
/// `satdoku::sat::SatBackend::default()` (counting to at most 3) finds no disagreement.
pub fn solve_check(data: &[u8]) {
    let Some((&b, rest)) = data.split_first() else {
        return;
    };
    let (r, c) = [(2, 2), (2, 3), (3, 2), (3, 3)][usize::from(b & 3)];
    let shape = Shape::new(r, c).expect("valid shape");
    let n = shape.n();
    let keep_clashes = b & 4 != 0;
    let max = [1, 2, 3, 300][usize::from(b >> 3 & 3)];
    let units = Units::standard(shape);
    let mut values = vec![0u16; shape.cells()];
    for pair in rest.chunks_exact(2) {
        let cell = usize::from(pair[0]) % shape.cells();
        let d = u16::from(pair[1] % n as u8) + 1;
        let clashes = || {
            units
                .peers(satdoku::Cell::new(cell))
                .iter()
                .any(|p| values[p.index()] == d)
        };
        if keep_clashes || !clashes() {
            values[cell] = d;
        }
    }
    let puzzle = Grid::from_values(shape, values).expect("digits in range");
    let limits = Limits::count_to(max).with_budget(Some(2_000_000));
    let report = DfsBackend::new()
        .solve(&units, &puzzle, &limits)
        .unwrap_or_else(|e| panic!("the DFS refused a {n}x{n} puzzle: {e}"));
    let outcome = &report.outcome;
    for g in outcome.grids() {
        if let Err(v) = verify(&units, &puzzle, g) {
            panic!("the DFS returned an invalid grid ({v}) for\n{puzzle:?}\n{g:?}");
        }
    }
    match outcome {
        Outcome::Found(_) => assert_eq!(max, 1, "found is for one solution asked"),
        Outcome::Unique(_) => assert!(max >= 2, "unique needs two solutions asked"),
        Outcome::Multiple {
            solutions, count, ..
        } => {
            assert_ne!(solutions[0], solutions[1], "two equal grids under multiple");
            assert!(
                *count >= 2 && *count <= max,
                "count {count} for limit {max}"
            );
        }
        Outcome::NoSolution | Outcome::Unknown { .. } => {}
    }
    if units.find_clash(&puzzle).is_some() {
        assert_eq!(outcome, &Outcome::NoSolution, "clashing givens solved");
    }
    if n == 4 {
        let matching: Vec<&[u16; 16]> = all_4x4()
            .iter()
            .filter(|s| {
                puzzle
                    .values()
                    .iter()
                    .zip(s.iter())
                    .all(|(&p, &v)| p == 0 || p == v)
            })
            .collect();
        let exact = matching.len() as u64;
        match outcome {
            Outcome::NoSolution => assert_eq!(exact, 0, "none, but {exact} exist"),
            Outcome::Found(_) => assert!(exact >= 1),
            Outcome::Unique(g) => {
                assert_eq!(exact, 1, "unique, but {exact} exist");
                assert_eq!(g.values(), &matching[0][..]);
            }
            Outcome::Multiple {
                count, complete, ..
            } => {
                assert_eq!(*count, exact.min(max), "{exact} exist");
                assert_eq!(*complete, exact < max, "{exact} exist, limit {max}");
            }
            Outcome::Unknown { .. } => panic!("a 4x4 puzzle hit the budget"),
        }
    }
    if let Some(other) = other_backend() {
        // At most 3 solutions: the SAT backend counts by re-solving with each solution blocked.
        let limits = Limits::count_to(max.min(3));
        let check = satdoku::cross_check(&units, &puzzle, &DfsBackend::new(), &*other, &limits);
        if let satdoku::Verdict::Disagree(problems) = &check.verdict {
            panic!("the backends disagree on\n{puzzle:?}: {problems:?}");
        }
    }
}
