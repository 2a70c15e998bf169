//! DIMACS CNF out: [`write_dimacs`] writes a puzzle's formula with comment lines naming the tool,
//! encoding, shape and puzzle, for any external solver; [`formula_stats`] counts it without writing.

use std::io::{self, Write};

use thiserror::Error;

use crate::grid::Grid;
#[cfg(test)]
use crate::sat::encode::encode;
use crate::sat::encode::{Amo, CageEncoding, EncodeError, Encoding, encode_with};
use crate::sat::lit::Lit;
use crate::sat::sink::{ClauseSink, FormulaStats};
use crate::units::Units;

/// Why a DIMACS file could not be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DimacsWriteError {
    /// The puzzle cannot be encoded (shape mismatch).
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// Writing failed.
    #[error("writing DIMACS")]
    Io(#[from] io::Error),
}

/// Variables, clauses and literals of the formula of `puzzle` in `encoding` with `amo`, counted
/// without storing or solving it.
///
/// # Errors
/// [`EncodeError::ShapeMismatch`] if the puzzle is not of the unit list's shape.
pub fn formula_stats(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
) -> Result<FormulaStats, EncodeError> {
    formula_stats_with(units, puzzle, encoding, amo, CageEncoding::default())
}

/// [`formula_stats`] with the cages in `cages`.
///
/// # Errors
/// As [`crate::sat::encode_with`].
pub fn formula_stats_with(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    cages: CageEncoding,
) -> Result<FormulaStats, EncodeError> {
    let mut stats = FormulaStats::new();
    encode_with(units, puzzle, encoding, amo, cages, &mut stats)?;
    Ok(stats)
}

/// The rules beside the standard units as DIMACS comment lines, in the syntax of satdoku's puzzle
/// files (so that `decode --cnf` reads them back): `c variant x windoku`, `c regions …` (the region
/// of each cell, row-major, as one symbol `1`-`9`, `A`-`Z` per cell up to 35 regions, else numbers
/// separated by spaces), `c cage SUM r1c1 …` per cage, and `c cages ENCODING` when there are cages.
/// Empty for the standard rules.
pub(crate) fn rules_comments(units: &Units, cages: CageEncoding) -> String {
    let shape = units.shape();
    let mut out = String::new();
    if !units.variants().is_empty() {
        let names: Vec<&str> = units.variants().iter().map(|v| v.name()).collect();
        out.push_str(&format!("c variant {}\n", names.join(" ")));
    }
    if let Some(regions) = units.regions() {
        const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        let text: String = if shape.n() <= SYMBOLS.len() {
            regions.iter().map(|&r| SYMBOLS[r] as char).collect()
        } else {
            let numbers: Vec<String> = regions.iter().map(|r| (r + 1).to_string()).collect();
            numbers.join(" ")
        };
        out.push_str(&format!("c regions {text}\n"));
    }
    for cage in units.cages() {
        let cells: Vec<String> = cage.cells.iter().map(|c| c.name(shape)).collect();
        out.push_str(&format!("c cage {} {}\n", cage.sum, cells.join(" ")));
    }
    if !units.cages().is_empty() {
        out.push_str(&format!("c cages {cages}\n"));
    }
    out
}

/// The puzzle's givens as one compact string, row-major, `.` for a blank: one character per cell up
/// to N = 35 (`1`-`9`, then `A` = 10 … `Z` = 35), otherwise the numbers separated by spaces.
pub fn givens_string(puzzle: &Grid) -> String {
    const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if puzzle.n() <= SYMBOLS.len() {
        puzzle
            .values()
            .iter()
            .map(|&v| match v {
                0 => '.',
                v => SYMBOLS[v as usize - 1] as char,
            })
            .collect()
    } else {
        let tokens: Vec<String> = puzzle
            .values()
            .iter()
            .map(|&v| match v {
                0 => ".".to_string(),
                v => v.to_string(),
            })
            .collect();
        tokens.join(" ")
    }
}

/// Writes the DIMACS CNF of `puzzle` under `units` in `encoding` with `amo` to `out`, and returns its
/// size.
///
/// The header comments name the tool and version, the encoding, the shape and the puzzle (see
/// [`givens_string`]) and the variable numbering; the `p cnf` line declares the largest variable
/// mentioned (MiniSat warns about any other count), then one clause per line. The pruned encoding
/// numbers only the open candidates; a model decodes with the puzzle and the encoding
/// ([`crate::sat::decode_model`]).
/// The formula is encoded twice (once to count for the header, once to write), so nothing is held in
/// memory.
///
/// # Errors
/// [`DimacsWriteError::Encode`] for a shape mismatch, [`DimacsWriteError::Io`] if writing fails.
pub fn write_dimacs<W: Write>(
    out: W,
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
) -> Result<FormulaStats, DimacsWriteError> {
    write_dimacs_with(out, units, puzzle, encoding, amo, CageEncoding::default())
}

/// [`write_dimacs`] with the cages in `cages`; the rules beside the units are described in comment
/// lines after the puzzle's (see `rules_comments`), so that `satdoku decode --cnf` can check a model
/// against them.
///
/// # Errors
/// As [`write_dimacs`], and [`EncodeError::TooManyCombinations`].
pub fn write_dimacs_with<W: Write>(
    out: W,
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    cages: CageEncoding,
) -> Result<FormulaStats, DimacsWriteError> {
    let mut stats = FormulaStats::new();
    let enc = encode_with(units, puzzle, encoding, amo, cages, &mut stats)?;
    let shape = units.shape();
    let n = shape.n();
    let mut w = io::BufWriter::new(out);
    writeln!(
        w,
        "c satdoku {}: a Sudoku-family puzzle as CNF",
        env!("CARGO_PKG_VERSION")
    )?;
    writeln!(w, "c encoding {encoding}, amo {amo}")?;
    writeln!(
        w,
        "c shape {shape} boxes, {n}x{n} grid, {} units",
        units.units().len()
    )?;
    writeln!(w, "c puzzle {}", givens_string(puzzle))?;
    w.write_all(rules_comments(units, cages).as_bytes())?;
    if encoding == Encoding::Pruned {
        writeln!(
            w,
            "c cell variables: the open candidates, numbered in row-major cell order and increasing digit order within a cell: 1..{}",
            enc.cell_vars
        )?;
    } else {
        writeln!(
            w,
            "c cell variable x(r,c,d) = r*{} + c*{n} + d for 0-based row r, column c and digit d in 1..{n}: 1..{}",
            n * n,
            enc.cell_vars
        )?;
    }
    writeln!(
        w,
        "c auxiliary variables: {} (from {})",
        enc.aux_vars,
        enc.cell_vars + 1
    )?;
    writeln!(
        w,
        "c size: {} variables used, {} clauses, {} literals",
        stats.variables, stats.clauses, stats.literals
    )?;
    writeln!(w, "p cnf {} {}", stats.max_var, stats.clauses)?;
    let mut sink = DimacsSink {
        out: &mut w,
        error: None,
        line: String::new(),
    };
    encode_with(units, puzzle, encoding, amo, cages, &mut sink)?;
    if let Some(e) = sink.error {
        return Err(e.into());
    }
    w.flush()?;
    Ok(stats)
}

/// Writes clauses as DIMACS lines, keeping the first I/O error.
struct DimacsSink<'a, W: Write> {
    out: &'a mut W,
    error: Option<io::Error>,
    line: String,
}

impl<W: Write> ClauseSink for DimacsSink<'_, W> {
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.error.is_some() {
            return;
        }
        use std::fmt::Write as _;
        self.line.clear();
        for l in lits {
            let _ = write!(self.line, "{} ", l.to_dimacs());
        }
        self.line.push_str("0\n");
        if let Err(e) = self.out.write_all(self.line.as_bytes()) {
            self.error = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Digit, Shape};
    use crate::sat::sink::Formula;

    #[test]
    fn header_comments_and_clauses() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let mut g = Grid::empty(s);
        g.set(Cell::new(0), Digit::new(1));
        g.set(Cell::new(15), Digit::new(2));
        let mut out = Vec::new();
        let stats = write_dimacs(&mut out, &units, &g, Encoding::Extended, Amo::Pairwise).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("c satdoku "));
        assert!(text.contains("c encoding extended, amo pairwise\n"));
        assert!(text.contains("c shape 2x2 boxes, 4x4 grid, 12 units\n"));
        assert!(text.contains("c puzzle 1..............2\n"));
        assert!(text.contains("c cell variable x(r,c,d) = r*16 + c*4 + d"));
        // 448 clauses of the empty grid + 2 givens.
        assert!(text.contains("\np cnf 64 450\n"));
        assert_eq!(stats.clauses, 450);
        let clauses: Vec<&str> = lines
            .iter()
            .copied()
            .skip_while(|l| !l.starts_with("p cnf"))
            .skip(1)
            .collect();
        assert_eq!(clauses.len(), 450);
        assert!(clauses.iter().all(|l| l.ends_with(" 0") || *l == "0"));
        // The givens are the last two clauses: x(0,0,1) = 1 and x(3,3,2) = 3·16 + 3·4 + 2 = 62.
        assert_eq!(clauses[448], "1 0");
        assert_eq!(clauses[449], "62 0");
        // Same clauses as the in-memory formula.
        let mut f = Formula::new();
        encode(&units, &g, Encoding::Extended, Amo::Pairwise, &mut f).unwrap();
        let mem: Vec<String> = f
            .clauses()
            .map(|c| {
                let mut s: String = c.iter().map(|l| format!("{} ", l.to_dimacs())).collect();
                s.push('0');
                s
            })
            .collect();
        assert_eq!(clauses, mem);
        assert_eq!(
            formula_stats(&units, &g, Encoding::Extended, Amo::Pairwise).unwrap(),
            stats
        );
    }

    #[test]
    fn header_declares_auxiliary_variables_and_pruned_candidates() {
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let g = Grid::empty(s);
        let mut out = Vec::new();
        write_dimacs(&mut out, &units, &g, Encoding::Minimal, Amo::Sequential).unwrap();
        let text = String::from_utf8(out).unwrap();
        // 729 + 243 · 8 auxiliary variables, 5670 clauses (pinned in minimal.rs).
        assert!(text.contains("\np cnf 2673 5670\n"), "{}", &text[..600]);
        assert!(text.contains("c auxiliary variables: 1944 (from 730)\n"));
        // Pruned: a full grid has no clause at all.
        let full = Grid::from_values(
            Shape::new(2, 2).unwrap(),
            vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1],
        )
        .unwrap();
        let mut out = Vec::new();
        let units4 = Units::standard(full.shape());
        write_dimacs(&mut out, &units4, &full, Encoding::Pruned, Amo::Pairwise).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("p cnf 0 0\n"));
        // Pruned, 4x4 with r1c1 = 1 and r4c4 = 2: 42 candidates and 206 clauses (worked by hand in
        // pruned.rs), numbered 1..42 with nothing above.
        let mut g = Grid::empty(units4.shape());
        g.set(Cell::new(0), Digit::new(1));
        g.set(Cell::new(15), Digit::new(2));
        let mut out = Vec::new();
        write_dimacs(&mut out, &units4, &g, Encoding::Pruned, Amo::Pairwise).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("c cell variables: the open candidates"));
        assert!(text.contains(": 1..42\n"));
        assert!(text.contains("c auxiliary variables: 0 (from 43)\n"));
        assert!(text.contains("\np cnf 42 206\n"), "{text}");
    }

    #[test]
    fn givens_strings() {
        let s16 = Shape::new(4, 4).unwrap();
        let mut g = Grid::empty(s16);
        g.set(Cell::new(0), Digit::new(16));
        g.set(Cell::new(1), Digit::new(9));
        g.set(Cell::new(2), Digit::new(10));
        let t = givens_string(&g);
        assert_eq!(t.len(), 256);
        assert!(t.starts_with("G9A."));
        let s36 = Shape::new(6, 6).unwrap();
        let mut g = Grid::empty(s36);
        g.set(Cell::new(1), Digit::new(36));
        assert!(givens_string(&g).starts_with(". 36 . "));
    }

    #[test]
    fn write_errors_are_reported() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let e = write_dimacs(
            Broken,
            &units,
            &Grid::empty(s),
            Encoding::Extended,
            Amo::Pairwise,
        )
        .unwrap_err();
        assert!(matches!(e, DimacsWriteError::Io(_)));
        let other = Grid::empty(Shape::new(2, 3).unwrap());
        let e =
            write_dimacs(Vec::new(), &units, &other, Encoding::Pruned, Amo::Pairwise).unwrap_err();
        assert!(matches!(e, DimacsWriteError::Encode(_)));
    }
}
