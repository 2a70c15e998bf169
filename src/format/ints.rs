//! The ints format: whitespace-separated integers, `0`, `-1` or `.` blank; N per line (the rows are
//! read by the block reader) or a whole grid of N² on one line.

use super::context::{Context, Emitted, snippet};
use super::detect::square_side;
use super::error::{ParseError, ParseErrorKind};
use super::lines::{Kind, Line, classify, column, first_non_text};

/// One ints token: a value 1..=n, 0 for a blank (`0`, `-1`, `.`, `-`, `_`).
fn int_token(tok: &[u8], n: usize) -> Result<u16, ParseErrorKind> {
    match tok {
        b"." | b"-" | b"_" | b"-1" => Ok(0),
        _ if tok.iter().all(u8::is_ascii_digit) => {
            let v = tok.iter().fold(0usize, |a, &b| {
                (a * 10 + usize::from(b - b'0')).min(1 << 20)
            });
            if v <= n {
                // n is at most MAX_N, so v fits.
                Ok(v as u16)
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

/// The number of whitespace-separated tokens of `text`.
pub(crate) fn count_tokens(text: &[u8]) -> usize {
    text.split(|&b| b == b' ' || b == b'\t')
        .filter(|t| !t.is_empty())
        .count()
}

/// Reads the integers of row `row` (0-based) of a grid of side `n` from `text` (line `line`), or with
/// `row` = `None` those of a whole grid on one line. Values go to `values`, each cell's
/// `(line, column)` to `positions`.
pub(crate) fn cells(
    ctx: &Context,
    text: &[u8],
    line: usize,
    (n, row): (usize, Option<usize>),
    values: &mut Vec<u16>,
    positions: &mut Vec<(usize, usize)>,
) -> Result<(), ParseError> {
    let expect = if row.is_some() { n } else { n * n };
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
        positions.push((line, s + 1));
    }
    if count != expect {
        let at = column(text, extra.unwrap_or(text.len()));
        let kind = match row {
            Some(r) => ParseErrorKind::RowLength {
                row: r + 1,
                expected: expect,
                found: count,
                what: "numbers",
            },
            None => match square_side(count).filter(|&m| m != n) {
                Some(m) => {
                    return Err(ctx.error(
                        line,
                        column(text, 0),
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
        return Err(ctx.error(line, at, kind));
    }
    if let Some((s, k)) = first_err {
        return Err(ctx.error(line, column(text, s), k));
    }
    Ok(())
}

/// Ints with a whole grid on each line.
#[derive(Default)]
pub(crate) struct IntsLineParser {
    positions: Vec<(usize, usize)>,
}

impl IntsLineParser {
    pub(crate) fn feed(&mut self, ctx: &mut Context, line: Line<'_>, out: &mut Emitted) {
        match classify(line.text) {
            Kind::Data => {}
            Kind::HeaderInt(_) => return ctx.skip_header(&line),
            _ => return,
        }
        let Some(n) = ctx.n else {
            return;
        };
        let r = if line.too_long() {
            Err(ctx.too_long(&line))
        } else {
            match ctx.layout(n, None) {
                Err(k) => Err(ctx.error(line.number, 1, k)),
                Ok(layout) => {
                    self.positions.clear();
                    let mut values = Vec::with_capacity(n * n);
                    let text = line.text;
                    let number = line.number;
                    cells(
                        ctx,
                        text,
                        number,
                        (n, None),
                        &mut values,
                        &mut self.positions,
                    )
                    .and_then(|()| {
                        let positions = &self.positions;
                        ctx.finish(
                            layout,
                            values,
                            |c| positions.get(c).copied().unwrap_or((number, 1)),
                            number,
                        )
                    })
                }
            }
        };
        ctx.emit(line.number, r, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, ReadOptions, read_str};

    #[test]
    fn tokens() {
        assert_eq!(int_token(b"7", 9), Ok(7));
        assert_eq!(int_token(b"-1", 9), Ok(0));
        assert_eq!(int_token(b".", 9), Ok(0));
        assert_eq!(int_token(b"0", 9), Ok(0));
        assert!(matches!(
            int_token(b"10", 9),
            Err(ParseErrorKind::ValueOutOfRange { .. })
        ));
        assert!(matches!(
            int_token(b"-2", 9),
            Err(ParseErrorKind::ValueOutOfRange { .. })
        ));
        assert!(matches!(
            int_token(b"x", 9),
            Err(ParseErrorKind::NotAnInteger { .. })
        ));
        assert!(matches!(
            int_token(b"99999999999999999999999", 64),
            Err(ParseErrorKind::ValueOutOfRange { .. })
        ));
        assert_eq!(count_tokens(b" 1\t2  3 "), 3);
    }

    #[test]
    fn a_grid_per_line_and_its_errors() {
        let text = "1 0 0 0 0 0 1 0 0 1 0 0 0 0 0 1\n1 0 0 0 0 0 1 0 0 1 0 0 0 0 0\n";
        let records = read_str(text, "i", ReadOptions::default());
        assert_eq!(records.len(), 2);
        let p = records[0].puzzle.as_ref().unwrap();
        assert_eq!(p.layout.format(), Format::Ints);
        assert!(!p.layout.is_multiline());
        assert_eq!(p.grid.filled(), 4);
        let e = records[1].puzzle.as_ref().unwrap_err();
        assert!(
            matches!(e.kind, ParseErrorKind::WrongLength { found: 15, .. }),
            "{e}"
        );
        assert_eq!((e.line, e.column), (2, 30));
        // A clash is placed at the second number.
        let text = "1 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0\n";
        let options = ReadOptions {
            format: Some(Format::Ints),
            ..ReadOptions::default()
        };
        let e = read_str(text, "i", options)[0].puzzle.clone().unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
        assert!(e.to_string().contains("column 1 has 1 twice"), "{e}");
    }
}
