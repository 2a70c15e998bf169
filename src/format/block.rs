//! Multi-line grids: the block format (N lines of N symbols, optional spaces, `|` and `---+---` rules),
//! letters (a 16x16 block of `A`-`P`) and ints in rows. Grids are separated by blank or header lines
//! (`Grid 01`), or cut every N rows; two header integers before a grid give its box shape (uio files).

use std::sync::Arc;

use super::Format;
use super::context::{Context, Emitted, garbage};
use super::detect::{is_rule, row_width};
use super::error::{ParseError, ParseErrorKind};
use super::ints::{self, count_tokens};
use super::layout::Layout;
use super::lines::{Kind, Line, classify, column};
use crate::grid::Shape;

/// A grid being read.
struct Block {
    /// Line of its first row.
    start: usize,
    /// Rows expected.
    expected: usize,
    /// Rows read.
    seen: usize,
    values: Vec<u16>,
    /// The first error found; the block is still read to its end.
    err: Option<ParseError>,
    layout: Option<Arc<Layout>>,
}

/// Reads block, letters and ints-in-rows inputs.
pub(crate) struct BlockParser {
    /// Grids end with a blank or header line (learnt from the look-ahead), not just after N rows.
    separated: bool,
    bars: bool,
    block: Option<Block>,
    /// (line, column) of each cell of the block being read.
    positions: Vec<(usize, usize)>,
    /// The last two header integers seen since the last grid.
    hints: [Option<u32>; 2],
}

impl BlockParser {
    pub(crate) fn new(separated: bool, bars: bool) -> BlockParser {
        BlockParser {
            separated,
            bars,
            block: None,
            positions: Vec::new(),
            hints: [None, None],
        }
    }

    pub(crate) fn feed(&mut self, ctx: &mut Context, line: Line<'_>, out: &mut Emitted) {
        let kind = classify(line.text);
        match kind {
            Kind::Comment => return,
            Kind::Blank | Kind::HeaderText | Kind::HeaderInt(_) | Kind::Rule => {
                self.truncate(ctx, line.number, false, out);
                if let Kind::HeaderInt(v) = kind {
                    self.hints = [self.hints[1], Some(v)];
                    ctx.skip_header(&line);
                }
                return;
            }
            Kind::Data => {}
        }
        let ints = ctx.format == Format::Ints;
        let width = if ints {
            count_tokens(line.text)
        } else {
            row_width(line.text)
        };
        let n = match ctx.n {
            Some(n) => n,
            None => {
                ctx.set_n(width, line.text);
                width
            }
        };
        // Letters too: a block of `A`-`P` written with `|` and `---+---` rules is read as letters.
        if matches!(ctx.format, Format::Block | Format::Letters) && is_rule(line.text, n, self.bars)
        {
            return;
        }
        if self.block.is_none() {
            self.start_block(ctx, &line, n, width);
        }
        let Some(mut b) = self.block.take() else {
            return;
        };
        let row = b.seen;
        b.seen += 1;
        if row >= b.expected {
            // Grids of this file end with a blank or header line: a row beyond N belongs to this grid.
            if b.err.is_none() {
                let kind = ParseErrorKind::ExtraRows {
                    expected: b.expected,
                };
                b.err = Some(ctx.error(line.number, 1, kind));
            }
            self.block = Some(b);
            return;
        }
        if b.err.is_none() {
            let r = if line.too_long() {
                Err(ctx.too_long(&line))
            } else if ints {
                let cells = (n, Some(row));
                let positions = &mut self.positions;
                ints::cells(ctx, line.text, line.number, cells, &mut b.values, positions)
            } else {
                self.symbol_row(ctx, &line, n, row, &mut b.values)
            };
            if let Err(e) = r {
                b.err = Some(e);
            }
        }
        if b.seen == b.expected && !self.separated {
            self.complete(ctx, b, out);
        } else {
            self.block = Some(b);
        }
    }

    fn start_block(&mut self, ctx: &mut Context, line: &Line<'_>, n: usize, width: usize) {
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
            let kind = ParseErrorKind::MixedSizes {
                found: width,
                expected: n,
            };
            b.err = Some(ctx.error(line.number, 1, kind));
        } else if n < 4 {
            // No grid has rows this short (`echo 123`, `1 2`).
            let kind = ParseErrorKind::TooShort { found: width };
            b.err = Some(ctx.error(line.number, column(line.text, line.text.len()), kind));
            b.expected = 1;
        } else {
            match ctx.layout(n, hint) {
                Ok(l) => {
                    b.values.reserve_exact(n * n);
                    b.layout = Some(l);
                }
                Err(k) => b.err = Some(ctx.error(line.number, 1, k)),
            }
        }
        self.block = Some(b);
    }

    /// One row of symbols (spaces, tabs and `|` between cells are skipped).
    fn symbol_row(
        &mut self,
        ctx: &Context,
        line: &Line<'_>,
        n: usize,
        row: usize,
        values: &mut Vec<u16>,
    ) -> Result<(), ParseError> {
        let text = line.text;
        let Some(syms) = &ctx.syms else {
            return Err(ctx.error(line.number, 1, ParseErrorKind::TooLarge { n }));
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
            values.push(u16::from(t));
            self.positions.push((line.number, i + 1));
        }
        if count != n {
            if let Some((at, kind)) = garbage(text) {
                return Err(ctx.error(line.number, column(text, at), kind));
            }
            return Err(ctx.error(
                line.number,
                column(text, extra.unwrap_or(text.len())),
                ParseErrorKind::RowLength {
                    row: row + 1,
                    expected: n,
                    found: count,
                    what: "symbols",
                },
            ));
        }
        if let Some(i) = bad {
            return Err(ctx.error(line.number, column(text, i), syms.error_at(text, i)));
        }
        Ok(())
    }

    fn complete(&mut self, ctx: &mut Context, b: Block, out: &mut Emitted) {
        let r = match (b.err, b.layout) {
            (Some(e), _) => Err(e),
            (None, Some(layout)) => {
                let positions = &self.positions;
                let start = b.start;
                ctx.finish(
                    layout,
                    b.values,
                    |c| positions.get(c).copied().unwrap_or((start, 1)),
                    start,
                )
            }
            (None, None) => Err(ctx.error(
                b.start,
                1,
                ParseErrorKind::TooLarge {
                    n: ctx.n.unwrap_or(0),
                },
            )),
        };
        ctx.emit(b.start, r, out);
    }

    /// Ends the block being read, if any: complete if it has its N rows, else truncated at line `at`
    /// (or with its earlier error).
    fn truncate(&mut self, ctx: &mut Context, at: usize, at_end: bool, out: &mut Emitted) {
        if let Some(b) = self.block.take() {
            if b.seen >= b.expected {
                self.complete(ctx, b, out);
                return;
            }
            let e = match b.err {
                Some(e) => e,
                None => ctx.error(
                    at,
                    1,
                    ParseErrorKind::Truncated {
                        expected: b.expected,
                        found: b.seen,
                        at_end,
                    },
                ),
            };
            ctx.emit(b.start, Err(e), out);
        }
    }

    /// A rule line at line `at` (see `variant.rs`): the block being read ends there, as at a blank
    /// line.
    pub(crate) fn interrupt(&mut self, ctx: &mut Context, at: usize, out: &mut Emitted) {
        self.truncate(ctx, at, false, out);
    }

    /// At the end of the input (after line `last`): a block still open is truncated.
    pub(crate) fn end(&mut self, ctx: &mut Context, last: usize, out: &mut Emitted) {
        self.truncate(ctx, last + 1, true, out);
    }
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, ParseErrorKind, ReadOptions, read_str};
    use crate::grid::Shape;

    fn read(text: &str) -> Vec<crate::format::Record> {
        read_str(text, "b", ReadOptions::default())
    }

    #[test]
    fn grids_with_headers_rules_and_bars() {
        let text = "Grid 01\n12|34\n34|12\n--+--\n21|43\n43|21\nGrid 02\n1...\n..1.\n.1..\n...1\n";
        let records = read(text);
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].line, records[1].line), (2, 8));
        let p = records[0].puzzle.as_ref().unwrap();
        assert_eq!(p.layout.format(), Format::Block);
        assert!(p.grid.is_full());
        assert_eq!(records[1].puzzle.as_ref().unwrap().grid.filled(), 4);
    }

    #[test]
    fn header_integers_give_the_box_shape() {
        // An 8x8 grid has no default box shape; `4` then `2` (uio: box rows, then columns) give one.
        let rows = [
            "12345678", "34567812", "56781234", "78123456", "23456781", "45678123", "67812345",
            "81234567",
        ];
        let text = format!("4\n2\n{}\n", rows.join("\n"));
        let records = read(&text);
        assert_eq!(records.len(), 1);
        let p = records[0].puzzle.as_ref().unwrap();
        assert_eq!(p.layout.shape(), Shape::new(4, 2).unwrap());
        assert!(p.grid.is_full());
        // Without them, the grid asks for --box.
        let e = read(&format!("{}\n", rows.join("\n")))[0]
            .puzzle
            .clone()
            .unwrap_err();
        assert!(
            matches!(e.kind, ParseErrorKind::RowWithoutShape { n: 8 }),
            "{e}"
        );
    }

    #[test]
    fn truncated_and_extra_rows() {
        let records = read("Grid 1\n1234\n3412\n\nGrid 2\n1...\n..1.\n.1..\n...1\n");
        assert_eq!(records.len(), 2);
        let e = records[0].puzzle.as_ref().unwrap_err();
        assert!(
            matches!(e.kind, ParseErrorKind::Truncated { found: 2, .. }),
            "{e}"
        );
        assert_eq!(e.line, 4);
        assert!(records[1].puzzle.is_ok());
        let records = read("1...\n..1.\n.1..\n...1\n\n1...\n..1.\n.1..\n...1\n1...\n");
        assert_eq!(records.len(), 2);
        let e = records[1].puzzle.as_ref().unwrap_err();
        assert!(
            matches!(e.kind, ParseErrorKind::ExtraRows { expected: 4 }),
            "{e}"
        );
        assert_eq!(e.line, 10);
    }

    #[test]
    fn rows_too_short_for_any_grid() {
        for (text, column) in [("1 2\n", 4), ("abc\n", 4), ("1.3\n", 4)] {
            let records = read(text);
            assert_eq!(records.len(), 1, "{text}");
            let e = records[0].puzzle.as_ref().unwrap_err();
            assert!(
                matches!(e.kind, ParseErrorKind::TooShort { found: 2 | 3 }),
                "{text}: {e}"
            );
            assert_eq!((e.line, e.column), (1, column), "{text}");
        }
    }
}
