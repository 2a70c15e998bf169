//! The line format: one grid of N² symbols per line, optionally followed by whitespace and a note
//! (`…  # SE 11.9`, a rating, a name), which the puzzle keeps. Also the one-line grid parser that CSV
//! fields use.

use super::context::{Context, Emitted, garbage};
use super::detect::{flat_width, square_side};
use super::error::{ParseError, ParseErrorKind};
use std::borrow::Cow;

use super::lines::{Kind, Line, classify, column, note_split, spaced_rows, trim_start};
use super::record::Puzzle;
use super::symbols::SKIP;

/// Feeds one line of a line-format input; `kind`: its [`classify`], when the caller has it.
pub(crate) fn feed(ctx: &mut Context, line: Line<'_>, kind: Option<Kind>, out: &mut Emitted) {
    match kind.unwrap_or_else(|| classify(line.text)) {
        Kind::Data => {}
        Kind::Blank | Kind::Comment => return,
        // A count or title line heads some files (Norvig's copies, Royle's list); among puzzles the
        // same text is a malformed puzzle, reported rather than dropped.
        Kind::HeaderInt(_) if ctx.emitted == 0 => return ctx.skip_header(&line),
        Kind::HeaderText if ctx.emitted == 0 => return,
        Kind::HeaderInt(_) | Kind::HeaderText | Kind::Rule => {}
    }
    let r = if line.too_long() {
        Err(ctx.too_long(&line))
    } else {
        let text = line.text;
        let spaced = if ctx.spaced { spaced_rows(text) } else { None };
        let (start, end, note) = match (spaced, note_split(text)) {
            (Some(rows), _) => rows,
            (None, Some((start, end, note))) => (start, end, Some(note)),
            (None, None) => (text.len() - trim_start(text).len(), text.len(), None),
        };
        // Rows pasted on one line are read as one grid without the spaces between them; `at` still
        // names the column of the line as written.
        let (field, offsets): (Cow<[u8]>, Vec<usize>) = if spaced.is_some() {
            let offsets: Vec<usize> = (start..end)
                .filter(|&i| !matches!(text[i], b' ' | b'\t'))
                .collect();
            (offsets.iter().map(|&i| text[i]).collect(), offsets)
        } else {
            (Cow::Borrowed(&text[start..end]), Vec::new())
        };
        let at = |k: usize| {
            let i = offsets.get(k).copied().unwrap_or(start + k);
            (line.number, column(text, i))
        };
        // A note as long as the grid may be its region map (`variant.rs`): the clash check then
        // waits for the rules.
        let beside = note.is_some_and(|n| text.len() - n == end - start);
        let defer = ctx.defer_clash;
        ctx.defer_clash |= beside;
        let r = parse_flat(ctx, &field, &at, line.number).map(|mut p| {
            if let Some(n) = note {
                p.note = Some(String::from_utf8_lossy(&text[n..]).into_owned());
            }
            p
        });
        ctx.defer_clash = defer;
        r
    };
    ctx.emit(line.number, r, out);
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

/// Parses a whole grid written on one line, `field`; `at` gives the line and column of a byte offset
/// of `field`, and `line` is the record's line.
pub(crate) fn parse_flat(
    ctx: &mut Context,
    field: &[u8],
    at: &dyn Fn(usize) -> (usize, usize),
    line: usize,
) -> Result<Puzzle, ParseError> {
    let error = |ctx: &Context, offset: usize, kind: ParseErrorKind| {
        let (l, c) = at(offset);
        ctx.error(l, c, kind)
    };
    // With the decimal symbols one vector pass reads the values and finds no bad byte (so no `|` and
    // nothing outside ASCII) in the common line; any other line takes the checks below.
    // Room for every cell at once: the grid keeps this buffer.
    let mut values = Vec::with_capacity(field.len());
    let read = ctx
        .syms
        .as_ref()
        .is_some_and(|s| s.is_decimal() && s.read_plain(field, &mut values).is_none());
    let plain = read || (field.is_ascii() && memchr::memchr(b'|', field).is_none());
    let count = if plain {
        field.len()
    } else {
        flat_width(field)
    };
    let n = match ctx.n {
        Some(n) => n,
        None => match square_side(count) {
            Some(m) => {
                ctx.set_n(m, field);
                m
            }
            None => {
                if let Some((offset, kind)) = garbage(field) {
                    return Err(error(ctx, offset, kind));
                }
                return Err(error(ctx, 0, ParseErrorKind::NotSquare { found: count }));
            }
        },
    };
    let n2 = n * n;
    if count != n2 {
        if let Some((offset, kind)) = garbage(field) {
            return Err(error(ctx, offset, kind));
        }
        if let Some(m) = square_side(count).filter(|&m| m != n) {
            let kind = ParseErrorKind::MixedSizes {
                found: m,
                expected: n,
            };
            return Err(error(ctx, 0, kind));
        }
        let offset = if count > n2 {
            nth_symbol(field, n2)
        } else {
            field.len()
        };
        let kind = ParseErrorKind::WrongLength {
            n,
            expected: n2,
            found: count,
        };
        return Err(error(ctx, offset, kind));
    }
    let layout = match ctx.layout(n, None) {
        Ok(l) => l,
        Err(k) => return Err(error(ctx, 0, k)),
    };
    let Some(syms) = &ctx.syms else {
        return Err(ctx.error(line, 1, ParseErrorKind::TooLarge { n }));
    };
    let bad = if read {
        None
    } else if plain {
        syms.read_plain(field, &mut values)
    } else {
        values.clear();
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
            values.push(u16::from(t));
        }
        bad
    };
    if let Some(i) = bad {
        let kind = syms.error_at(field, i);
        return Err(error(ctx, i, kind));
    }
    let locate = |cell: usize| at(if plain { cell } else { nth_symbol(field, cell) });
    ctx.finish(layout, values, locate, line)
}

#[cfg(test)]
mod tests {
    use crate::format::{ParseErrorKind, ReadOptions, read_str};

    const P1: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const P2: &str =
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";

    fn read(text: &str) -> Vec<crate::format::Record> {
        read_str(text, "t", ReadOptions::default())
    }

    #[test]
    fn a_note_after_the_grid_is_kept() {
        for note in ["hard", "# comment", "; note", "# SE 11.9"] {
            let records = read(&format!("{P1} {note}\n{P2}\t  {note}\n"));
            assert_eq!(records.len(), 2, "{note}");
            for r in &records {
                let p = r.puzzle.as_ref().unwrap();
                assert_eq!(p.note.as_deref(), Some(note));
                assert_eq!(p.grid.filled(), 17);
            }
        }
        let records = read(&format!("{P1}\n"));
        assert_eq!(records[0].puzzle.as_ref().unwrap().note, None);
    }

    #[test]
    fn positions_in_a_line_with_a_note() {
        let bad = format!("  {}x{} hard\n", &P1[..10], &P1[11..]);
        let records = read(&format!("{P1}\n{bad}"));
        let e = records[1].puzzle.as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 13));
        assert!(
            matches!(e.kind, ParseErrorKind::UnknownSymbol { symbol: 'x', .. }),
            "{e}"
        );
        // One symbol short, then a note: the error is where the 81st symbol should be.
        let records = read(&format!("{P1}\n{} # rated\n", &P1[1..]));
        let e = records[1].puzzle.as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (2, 81));
        assert!(
            matches!(e.kind, ParseErrorKind::WrongLength { found: 80, .. }),
            "{e}"
        );
    }

    #[test]
    fn bars_between_boxes_are_skipped() {
        let barred: String = P1
            .as_bytes()
            .chunks(3)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("|");
        let records = read(&format!("{barred}\n"));
        let p = records[0].puzzle.as_ref().unwrap();
        assert_eq!(p.grid.filled(), 17);
    }
}
