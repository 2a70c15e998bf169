//! `--output pretty` (the default on a terminal): a solution drawn for people, with box borders for
//! any box shape, symbols right-aligned whatever their width, and the givens told apart from the
//! digits found where the terminal shows colour.

use std::io::IsTerminal;

use satdoku::Grid;
use satdoku::format::{Format, Layout};

/// The givens: bold.
const GIVEN: &str = "\x1b[1m";
/// The digits found: cyan.
const FOUND: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

/// Whether pretty output on standard output is in colour: only on a terminal, never when
/// `NO_COLOR` is set to anything (no-color.org) or the terminal is `dumb`.
pub fn colour_on_stdout() -> bool {
    colour(
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
        std::env::var_os("TERM").as_deref(),
    )
}

fn colour(
    terminal: bool,
    no_color: Option<&std::ffi::OsStr>,
    term: Option<&std::ffi::OsStr>,
) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty()) && term.is_none_or(|t| t != "dumb")
}

/// `solution` of `puzzle` drawn in boxes, in `layout`'s symbols (numbers for the ints format), the
/// givens in bold and the rest in cyan when `colour`; a final newline.
pub fn draw(layout: &Layout, puzzle: &Grid, solution: &Grid, colour: bool) -> String {
    let shape = solution.shape();
    let (n, box_rows, box_cols) = (shape.n(), shape.box_rows(), shape.box_cols());
    let ints = layout.format() == Format::Ints;
    let symbol = |v: u16| -> String {
        match v {
            0 => ".".to_string(),
            v if ints => v.to_string(),
            v => layout.alphabet().symbol(v).to_string(),
        }
    };
    let width = (1..=n as u16)
        .map(|v| symbol(v).chars().count())
        .max()
        .unwrap_or(1);
    // A box is `box_cols` cells, each a space and the symbol, and a space before its right edge.
    let segment = "─".repeat(box_cols * (width + 1) + 1);
    let rule = |left: &str, join: &str, right: &str| {
        let boxes = vec![segment.as_str(); n / box_cols];
        format!("{left}{}{right}\n", boxes.join(join))
    };
    let mut out = rule("┌", "┬", "┐");
    for r in 0..n {
        if r > 0 && r % box_rows == 0 {
            out.push_str(&rule("├", "┼", "┤"));
        }
        out.push('│');
        for c in 0..n {
            let i = r * n + c;
            let v = solution.values()[i];
            let text = format!(" {:>width$}", symbol(v));
            if colour {
                let style = if puzzle.values()[i] != 0 {
                    GIVEN
                } else {
                    FOUND
                };
                out.push(' ');
                out.push_str(style);
                out.push_str(&text[1..]);
                out.push_str(RESET);
            } else {
                out.push_str(&text);
            }
            if (c + 1) % box_cols == 0 {
                out.push_str(" │");
            }
        }
        out.push('\n');
    }
    out.push_str(&rule("└", "┴", "┘"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use satdoku::Shape;
    use std::ffi::OsStr;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        let (tty, term) = (true, Some(OsStr::new("xterm")));
        assert!(colour(tty, None, term));
        assert!(colour(tty, Some(OsStr::new("")), term));
        assert!(!colour(tty, Some(OsStr::new("1")), term));
        assert!(!colour(false, None, term));
        assert!(!colour(tty, None, Some(OsStr::new("dumb"))));
    }

    #[test]
    fn givens_in_bold_the_rest_in_cyan() {
        let shape = Shape::new(2, 2).unwrap();
        let solution =
            Grid::from_values(shape, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
        let mut puzzle = solution.clone();
        for i in 1..16 {
            puzzle.set(satdoku::Cell::new(i), None);
        }
        let layout = Layout::new(Format::Line, shape);
        let plain = draw(&layout, &puzzle, &solution, false);
        assert!(!plain.contains('\x1b'));
        let coloured = draw(&layout, &puzzle, &solution, true);
        let first = coloured.lines().nth(1).unwrap();
        assert!(
            first.starts_with(&format!("│ {GIVEN}1{RESET} {FOUND}2{RESET} │")),
            "{first:?}"
        );
        // The same drawing once the colours are taken out.
        let stripped = coloured
            .replace(GIVEN, "")
            .replace(FOUND, "")
            .replace(RESET, "");
        assert_eq!(stripped, plain);
    }
}
