//! `Layout`: how a grid was written (format, shape, alphabet, separators), so a solution is written alike.

use std::fmt::Write as _;

use super::Format;
use super::alphabet::{Alphabet, MAX_SYMBOLS};
use crate::grid::{Grid, Shape};

/// How a grid was written, so a solution can be written the same way.
///
/// A reader builds one `Layout` per file (and shape) and shares it among its puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    format: Format,
    shape: Shape,
    alphabet: Alphabet,
    /// The blank character (`.`, or `-` for letters); ints write `0`.
    blank: u8,
    /// Rows on separate lines (block, letters, ints in rows) or the whole grid on one line.
    multiline: bool,
    /// Block: cells separated by spaces.
    spaced: bool,
    /// Block: `|` between boxes and a rule line between bands.
    bars: bool,
    /// Value -> symbol byte (0: the blank; past N: `?`), 128 entries so that `v & 127` needs no
    /// bounds check (a layout with symbols has N ≤ [`MAX_SYMBOLS`] < 128; wider grids are written as
    /// ints): a line is written by one lookup per cell.
    bytes: [u8; 128],
    /// When the symbols are consecutive bytes (`1`…`9`, `A`…`P`): the byte before the first, so that
    /// value v is written `offset + v`, which the compiler turns into vector code.
    offset: Option<u8>,
}

/// The byte before the first symbol, when the symbols of `alphabet` are consecutive bytes.
fn consecutive(alphabet: &Alphabet) -> Option<u8> {
    let symbols = alphabet.symbol_bytes();
    let base = symbols.first()?.checked_sub(1)?;
    symbols
        .iter()
        .zip(1u8..)
        .all(|(&s, v)| base.checked_add(v) == Some(s))
        .then_some(base)
}

/// The value -> symbol byte table of `alphabet` with `blank` for 0.
fn byte_table(alphabet: &Alphabet, blank: u8) -> [u8; 128] {
    let mut table = [b'?'; 128];
    table[0] = blank;
    for (t, &s) in table[1..].iter_mut().zip(alphabet.symbol_bytes()) {
        *t = s;
    }
    table
}

impl Layout {
    /// A plain layout of `format` for `shape`: the default alphabet (`A`… for letters), `.` blank (`-` for
    /// letters, `0` for ints), no separators; ints in rows. Grids wider than any alphabet (N above
    /// [`MAX_SYMBOLS`]) are written as ints whatever the format asked for.
    pub fn new(format: Format, shape: Shape) -> Layout {
        let n = shape.n();
        let format = if n > MAX_SYMBOLS {
            Format::Ints
        } else {
            format
        };
        let (alphabet, blank) = match format {
            Format::Letters => (Alphabet::letters(n), b'-'),
            Format::Ints => (Alphabet::default_for(n), b'0'),
            _ => (Alphabet::default_for(n), b'.'),
        };
        Layout {
            format,
            shape,
            bytes: byte_table(&alphabet, blank),
            offset: consecutive(&alphabet),
            alphabet,
            blank,
            multiline: matches!(format, Format::Block | Format::Letters | Format::Ints),
            spaced: false,
            bars: false,
        }
    }

    /// This layout with another alphabet (ignored by ints).
    pub fn with_alphabet(mut self, alphabet: Alphabet) -> Layout {
        self.bytes = byte_table(&alphabet, self.blank);
        self.offset = consecutive(&alphabet);
        self.alphabet = alphabet;
        self
    }

    /// This layout with separators: in a block, `spaced` puts a space between cells, `bars` puts `|`
    /// between boxes and a `---+---` rule between bands; in the line format, `spaced` puts a space
    /// between rows (a grid pasted as its rows on one line).
    pub fn with_block_style(mut self, spaced: bool, bars: bool) -> Layout {
        self.spaced = spaced;
        self.bars = bars;
        self
    }

    /// The input format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The box shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The symbol alphabet (unused by ints).
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The character written for an empty cell (`0` for ints).
    pub fn blank(&self) -> char {
        if self.format == Format::Ints {
            '0'
        } else {
            self.blank as char
        }
    }

    /// The same alphabet, the whole grid on one line (ints: N² numbers separated by single spaces).
    pub fn as_line(&self) -> Layout {
        let mut l = self.clone();
        l.multiline = false;
        l.spaced = false;
        l.bars = false;
        if l.format != Format::Ints {
            l.format = Format::Line;
        }
        l
    }

    /// The same alphabet, one row per line (ints stay ints; a line of letters `A-P` becomes letters).
    pub fn as_block(&self) -> Layout {
        let mut l = self.clone();
        l.multiline = true;
        if matches!(l.format, Format::Line | Format::Csv) {
            l.format = if l.blank == b'-' && l.alphabet == Alphabet::letters(l.shape.n()) {
                Format::Letters
            } else {
                Format::Block
            };
        }
        l
    }

    /// Whether a grid takes several lines (block, letters, ints in rows): the CLI separates such records
    /// by a blank line.
    pub fn is_multiline(&self) -> bool {
        self.multiline
    }

    /// Appends `grid` in this layout, each line ending in `'\n'`; empty cells as the layout's blank (`.`
    /// normally, `-` for letters, `0` for ints). The grid's own shape decides rows and boxes.
    pub fn write(&self, grid: &Grid, out: &mut String) {
        let shape = grid.shape();
        // Rows are `cols` cells long (N on the classic shapes).
        let n = shape.cols();
        let values = grid.values();
        if self.format == Format::Ints {
            for (i, &v) in values.iter().enumerate() {
                if i > 0 {
                    out.push(if self.multiline && i % n == 0 {
                        '\n'
                    } else {
                        ' '
                    });
                }
                let _ = write!(out, "{v}");
            }
            out.push('\n');
            return;
        }
        if !self.multiline && self.spaced && self.format == Format::Line {
            for (r, row) in values.chunks(n.max(1)).enumerate() {
                if r > 0 {
                    out.push(' ');
                }
                out.extend(row.iter().map(|&v| self.sym(v)));
            }
            out.push('\n');
            return;
        }
        if !self.multiline {
            let mut bytes = std::mem::take(out).into_bytes();
            self.write_line(values, &mut bytes);
            *out = String::from_utf8(bytes).expect("alphabets are ASCII");
            return;
        }
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let bars = self.bars && self.format == Format::Block && shape.boxes().is_some();
        let spaced = self.spaced && self.format == Format::Block;
        for (r, row) in values.chunks(n.max(1)).enumerate() {
            if bars && r > 0 && r % br == 0 {
                let seg = if spaced { 2 * bc - 1 } else { bc };
                for b in 0..n / bc {
                    if b > 0 {
                        out.push_str(if spaced { "-+-" } else { "+" });
                    }
                    out.extend(std::iter::repeat_n('-', seg));
                }
                out.push('\n');
            }
            for (c, &v) in row.iter().enumerate() {
                if c > 0 {
                    if bars && c % bc == 0 {
                        out.push_str(if spaced { " | " } else { "|" });
                    } else if spaced {
                        out.push(' ');
                    }
                }
                out.push(self.sym(v));
            }
            out.push('\n');
        }
    }

    /// Appends `grid` in this layout, as [`Layout::write`] does, to a byte buffer (the hot path of batch
    /// runs: a one-line layout is one table lookup per cell, with no UTF-8 check).
    pub fn write_bytes(&self, grid: &Grid, out: &mut Vec<u8>) {
        if !self.multiline && self.format != Format::Ints && !self.spaced {
            self.write_line(grid.values(), out);
        } else {
            let mut text = String::new();
            self.write(grid, &mut text);
            out.extend_from_slice(text.as_bytes());
        }
    }

    /// A one-line layout's symbols for `values`, then `'\n'` (symbols are ASCII).
    fn write_line(&self, values: &[u16], out: &mut Vec<u8>) {
        out.reserve(values.len() + 1);
        let n = self.shape.n() as u16;
        match self.offset {
            // Values past N (never in a grid of this shape) would need the table's `?`: checked first.
            Some(base) if values.iter().fold(0, |m, &v| m.max(v)) <= n => {
                let blank = self.blank;
                // v ≤ N ≤ MAX_SYMBOLS here, so the cast keeps it.
                let sym = |v: u16| {
                    if v == 0 {
                        blank
                    } else {
                        base.wrapping_add(v as u8)
                    }
                };
                // 16 cells at a time into a buffer on the stack (a loop the compiler vectorises),
                // then appended.
                let (chunks, rest) = values.as_chunks::<16>();
                for chunk in chunks {
                    let mut buf = [0u8; 16];
                    for (o, &v) in buf.iter_mut().zip(chunk) {
                        *o = sym(v);
                    }
                    out.extend_from_slice(&buf);
                }
                out.extend(rest.iter().map(|&v| sym(v)));
            }
            _ => out.extend(values.iter().map(|&v| self.bytes[usize::from(v & 127)])),
        }
        out.push(b'\n');
    }

    /// The grid as one string for JSON: row-major symbols without separators (ints: the numbers separated
    /// by single spaces, `0` for empty).
    pub fn compact(&self, grid: &Grid) -> String {
        let values = grid.values();
        if self.format == Format::Ints {
            let mut s = String::with_capacity(values.len() * 3);
            for (i, &v) in values.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                let _ = write!(s, "{v}");
            }
            s
        } else {
            values.iter().map(|&v| self.sym(v)).collect()
        }
    }

    fn sym(&self, v: u16) -> char {
        self.sym_byte(v) as char
    }

    fn sym_byte(&self, v: u16) -> u8 {
        if v == 0 {
            self.blank
        } else {
            self.alphabet.symbol(v) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid4() -> Grid {
        let s = Shape::new(2, 2).unwrap();
        Grid::from_values(s, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 0, 1]).unwrap()
    }

    #[test]
    fn bytes_match_the_text_in_every_layout() {
        let g = grid4();
        let s = g.shape();
        let letters = Alphabet::letters(4);
        let layouts = [
            Layout::new(Format::Line, s),
            Layout::new(Format::Line, s).with_alphabet(letters.clone()),
            // Not consecutive: written through the table.
            Layout::new(Format::Line, s).with_alphabet(Alphabet::parse("1A2B").unwrap()),
            Layout::new(Format::Line, s).with_alphabet(Alphabet::zero_first(4, false)),
            Layout::new(Format::Letters, s).as_line(),
            Layout::new(Format::Block, s).with_block_style(true, true),
            Layout::new(Format::Ints, s),
            Layout::new(Format::Ints, s).as_line(),
            Layout::new(Format::Csv, s),
        ];
        for layout in layouts {
            let mut text = String::new();
            layout.write(&g, &mut text);
            let mut bytes = b"kept ".to_vec();
            layout.write_bytes(&g, &mut bytes);
            assert_eq!(bytes, format!("kept {text}").into_bytes(), "{layout:?}");
        }
        // The letters line writes the blank as `-`, the digits line as `.`.
        let mut bytes = Vec::new();
        Layout::new(Format::Letters, s)
            .as_line()
            .write_bytes(&g, &mut bytes);
        assert_eq!(bytes, b"ABCDCDABBADCDC-A\n");
        let mut bytes = Vec::new();
        Layout::new(Format::Line, s)
            .with_alphabet(Alphabet::parse("1A2B").unwrap())
            .write_bytes(&g, &mut bytes);
        assert_eq!(bytes, b"1A2B2B1AA1B2B2.1\n");
    }

    #[test]
    fn writes_each_layout() {
        let g = grid4();
        let s = g.shape();
        let mut out = String::new();
        Layout::new(Format::Line, s).write(&g, &mut out);
        assert_eq!(out, "12343412214343.1\n");
        out.clear();
        Layout::new(Format::Block, s)
            .with_block_style(true, true)
            .write(&g, &mut out);
        assert_eq!(
            out,
            "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | . 1\n"
        );
        out.clear();
        Layout::new(Format::Block, s)
            .with_block_style(false, true)
            .write(&g, &mut out);
        assert_eq!(out, "12|34\n34|12\n--+--\n21|43\n43|.1\n");
        out.clear();
        Layout::new(Format::Letters, s).write(&g, &mut out);
        assert_eq!(out, "ABCD\nCDAB\nBADC\nDC-A\n");
        out.clear();
        let ints = Layout::new(Format::Ints, s);
        ints.write(&g, &mut out);
        assert_eq!(out, "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 0 1\n");
        out.clear();
        ints.as_line().write(&g, &mut out);
        assert_eq!(out, "1 2 3 4 3 4 1 2 2 1 4 3 4 3 0 1\n");
        assert_eq!(ints.compact(&g), "1 2 3 4 3 4 1 2 2 1 4 3 4 3 0 1");
        assert_eq!(
            Layout::new(Format::Letters, s).compact(&g),
            "ABCDCDABBADCDC-A"
        );
    }

    #[test]
    fn line_and_block_conversions() {
        let s = Shape::new(4, 4).unwrap();
        let letters = Layout::new(Format::Letters, s);
        let line = letters.as_line();
        assert_eq!(line.format(), Format::Line);
        assert!(!line.is_multiline());
        assert_eq!(line.as_block().format(), Format::Letters);
        let csv = Layout::new(Format::Csv, s);
        assert!(!csv.is_multiline());
        assert_eq!(csv.as_block().format(), Format::Block);
        assert_eq!(
            Layout::new(Format::Ints, s).as_line().format(),
            Format::Ints
        );
        assert!(Layout::new(Format::Ints, s).is_multiline());
        assert!(!Layout::new(Format::Ints, s).as_line().is_multiline());
    }
}
