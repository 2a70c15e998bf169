//! Issue 14's property: any puzzle written in any supported format, with any mix of CRLF line ends, a
//! byte-order mark, trailing notes, tabs and the comment and header lines the format allows, reads back
//! by detection alone (`--box` only for shapes without a default) as the same puzzles in the same
//! order, one record per puzzle. Puzzles are planted: solved grids (`common::solved`) with cells
//! blanked.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use satdoku::format::{Format, Layout, ReadOptions, read_str};
use satdoku::{Grid, Shape};

use crate::common::{Rng, carve, solved};

const SHAPES: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (3, 4),
    (4, 3),
    (4, 4),
    (5, 5),
];

/// How the puzzles are written.
#[derive(Clone, Copy, Debug)]
enum Style {
    Line,
    Block { spaced: bool, bars: bool },
    Letters,
    IntsRows,
    IntsLine,
    Csv,
}

const STYLES: [Style; 9] = [
    Style::Line,
    Style::Block {
        spaced: false,
        bars: false,
    },
    Style::Block {
        spaced: true,
        bars: false,
    },
    Style::Block {
        spaced: false,
        bars: true,
    },
    Style::Block {
        spaced: true,
        bars: true,
    },
    Style::Letters,
    Style::IntsRows,
    Style::IntsLine,
    Style::Csv,
];

/// The noise added to a file, one flag per bit.
#[derive(Clone, Copy, Debug)]
struct Noise(u8);

impl Noise {
    fn crlf(self) -> bool {
        self.0 & 1 != 0
    }
    fn bom(self) -> bool {
        self.0 & 2 != 0
    }
    fn comments(self) -> bool {
        self.0 & 4 != 0
    }
    fn notes(self) -> bool {
        self.0 & 8 != 0
    }
    fn tabs(self) -> bool {
        self.0 & 16 != 0
    }
    fn headers(self) -> bool {
        self.0 & 32 != 0
    }
}

const NOTES: [&str; 4] = ["# SE 11.9", "hard", "; rated 3", "#7 from the forum"];

/// `puzzles` written in `style` with `noise`, and the note each one should read back with.
fn write(
    puzzles: &[Grid],
    shape: Shape,
    style: Style,
    noise: Noise,
) -> (String, Vec<Option<&'static str>>) {
    let mut lines: Vec<String> = Vec::new();
    let mut notes = Vec::new();
    if noise.comments() {
        lines.push("# written by the noisy-input property".into());
    }
    let layout = match style {
        Style::Line | Style::Csv => Layout::new(Format::Line, shape),
        Style::Block { spaced, bars } => {
            Layout::new(Format::Block, shape).with_block_style(spaced, bars)
        }
        Style::Letters => Layout::new(Format::Letters, shape),
        Style::IntsRows => Layout::new(Format::Ints, shape),
        Style::IntsLine => Layout::new(Format::Ints, shape).as_line(),
    };
    if let Style::Csv = style {
        lines.push("id,puzzle,comment".into());
    }
    for (i, p) in puzzles.iter().enumerate() {
        let mut text = String::new();
        layout.write(p, &mut text);
        let mut rows: Vec<String> = text.lines().map(str::to_string).collect();
        let mut note = None;
        match style {
            Style::Line => {
                if noise.notes() {
                    let n = NOTES[i % NOTES.len()];
                    let gap = if noise.tabs() { "\t" } else { "  " };
                    rows[0] = format!("{}{gap}{n}", rows[0]);
                    note = Some(n);
                } else if noise.tabs() {
                    rows[0] = format!("\t{}", rows[0]);
                }
            }
            Style::Csv => {
                // A quoted grid field now and then, and a comment spanning two lines.
                let grid = if i % 2 == 1 {
                    format!("\"{}\"", rows[0])
                } else {
                    rows[0].clone()
                };
                let comment = if noise.notes() {
                    format!("\"line one, \"\"quoted\"\"\nline two of {i}\"")
                } else {
                    format!("puzzle {i}")
                };
                rows = format!("{i},{grid},{comment}")
                    .lines()
                    .map(str::to_string)
                    .collect();
            }
            Style::Block { .. } | Style::Letters | Style::IntsRows if noise.tabs() => {
                for r in &mut rows {
                    *r = r.replace(' ', "\t");
                }
            }
            Style::IntsLine if noise.tabs() => rows[0] = rows[0].replace(' ', "\t"),
            _ => {}
        }
        notes.push(note);
        let multiline = layout.is_multiline();
        if multiline && noise.headers() {
            lines.push(format!("Grid {:02}", i + 1));
        }
        lines.extend(rows);
        if multiline {
            lines.push(String::new());
        }
        if noise.comments() && i % 2 == 0 {
            lines.push(format!("# after puzzle {i}"));
        }
    }
    let end = if noise.crlf() { "\r\n" } else { "\n" };
    let mut out = String::new();
    if noise.bom() {
        out.push('\u{feff}');
    }
    for l in &lines {
        out.push_str(l);
        out.push_str(end);
    }
    (out, notes)
}

fn config() -> Config {
    Config {
        cases: 256,
        rng_seed: RngSeed::Fixed(0x1414_0E15_E000_0014),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn noisy_files_read_back_unchanged(
        which in 0..SHAPES.len(),
        style in 0..STYLES.len(),
        noise in any::<u8>(),
        count in 1..5usize,
        keep in 0.3f64..=1.0,
        seed in any::<u64>(),
    ) {
        let style = STYLES[style];
        // Letters are 16x16 only.
        let (r, c) = if matches!(style, Style::Letters) { (4, 4) } else { SHAPES[which] };
        let shape = Shape::new(r, c).unwrap();
        let mut rng = Rng::new(seed);
        // At least one given each: an empty grid cannot show the format it is written in (16 blanks
        // on a line are also one row of a 16x16 block).
        let puzzles: Vec<Grid> = (0..count)
            .map(|_| {
                let full = solved(shape, &mut rng);
                let mut p = carve(&full, keep, &mut rng);
                if p.filled() == 0 {
                    let first = satdoku::Cell::new(0);
                    p.set(first, full.get(first));
                }
                p
            })
            .collect();
        let (text, notes) = write(&puzzles, shape, style, Noise(noise));
        let options = ReadOptions {
            shape: (Shape::for_side(shape.n()).ok() != Some(shape)).then_some(shape),
            ..ReadOptions::default()
        };
        let records = read_str(&text, "noisy", options);
        prop_assert_eq!(records.len(), puzzles.len(), "{:?} {:?}\n{}", style, Noise(noise), text);
        for (i, (r, (p, note))) in records.iter().zip(puzzles.iter().zip(&notes)).enumerate() {
            prop_assert_eq!(r.index, i);
            let got = r.puzzle.as_ref().map_err(|e| {
                TestCaseError::fail(format!("{style:?} {:?}: {e}\n{text}", Noise(noise)))
            })?;
            prop_assert_eq!(&got.grid, p, "{:?} {:?}\n{}", style, Noise(noise), text);
            prop_assert_eq!(got.note.as_deref(), *note);
        }
    }
}
