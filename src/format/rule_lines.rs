//! Writing a puzzle's rules beside its grid, as the reader reads them back: a `variant:` line, a
//! region map, `cage` lines.

use super::Format;
use super::alphabet::Alphabet;
use super::layout::Layout;
use crate::units::Units;

/// Writes the rules of `units` beyond the standard ones, one line each, in the syntax the reader
/// takes after a grid of `layout` (see [`format`](crate::format)'s rule lines): `variant: x
/// windoku` for the variants without data; for a jigsaw, `regions:` followed by the region of each
/// cell (row-major) as one symbol per cell on the same line (`a`, `b`, … up to 26 regions, else the
/// default alphabet), or with the ints format N rows of N numbers 1..N after it; `cage SUM r1c1 r1c2
/// …` per cage. Nothing for the standard rules.
///
/// ```
/// use satdoku::format::{Format, Layout, read_str, write_rules, ReadOptions};
/// use satdoku::{Shape, Units, Variant};
/// let shape = Shape::new(2, 2).unwrap();
/// let units = Units::rules(shape).variant(Variant::Diagonals).cage(3, [(0, 0), (0, 1)]).build().unwrap();
/// let mut text = b"1...............\n".to_vec();
/// write_rules(&units, &Layout::new(Format::Line, shape), &mut text);
/// assert_eq!(String::from_utf8_lossy(&text), "1...............\nvariant: x\ncage 3 r1c1 r1c2\n");
/// let read = read_str(std::str::from_utf8(&text).unwrap(), "t", ReadOptions::default());
/// assert_eq!(read[0].puzzle.as_ref().unwrap().units.cages(), units.cages());
/// ```
pub fn write_rules(units: &Units, layout: &Layout, out: &mut Vec<u8>) {
    let shape = units.shape();
    let n = shape.n();
    if !units.variants().is_empty() {
        let names: Vec<&str> = units.variants().iter().map(|v| v.name()).collect();
        out.extend_from_slice(format!("variant: {}\n", names.join(" ")).as_bytes());
    }
    if let Some(regions) = units.regions() {
        if layout.format() == Format::Ints {
            out.extend_from_slice(b"regions:\n");
            for row in regions.chunks(n) {
                let numbers: Vec<String> = row.iter().map(|r| (r + 1).to_string()).collect();
                out.extend_from_slice(numbers.join(" ").as_bytes());
                out.push(b'\n');
            }
        } else {
            let symbols: Vec<char> = if n <= 26 {
                ('a'..='z').take(n).collect()
            } else {
                let alphabet = Alphabet::default_for(n);
                (1..=n as u16).map(|v| alphabet.symbol(v)).collect()
            };
            out.extend_from_slice(b"regions: ");
            let map: String = regions.iter().map(|&r| symbols[r]).collect();
            out.extend_from_slice(map.as_bytes());
            out.push(b'\n');
        }
    }
    for cage in units.cages() {
        let cells: Vec<String> = cage.cells.iter().map(|c| c.name(shape)).collect();
        out.extend_from_slice(format!("cage {} {}\n", cage.sum, cells.join(" ")).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::Variant;
    use crate::format::{ReadOptions, read_str};
    use crate::grid::{Grid, Shape};

    /// A jigsaw layout of 6x6 (2x3 boxes) other than the boxes: the boxes with two cells swapped
    /// between the first two regions (r2c3 and r2c4: still connected).
    fn layout6() -> Vec<usize> {
        let shape = Shape::new(2, 3).unwrap();
        let mut map: Vec<usize> = (0..36).map(|i| shape.block_of(i / 6, i % 6)).collect();
        map.swap(8, 9);
        map
    }

    #[test]
    fn rules_read_back_in_every_layout() {
        let shape = Shape::new(2, 3).unwrap();
        let units = Units::rules(shape)
            .variant(Variant::AntiKing)
            .regions(layout6())
            .cage(11, [(5, 4), (5, 5)])
            .build()
            .unwrap();
        let mut grid = Grid::empty(shape);
        grid.set(crate::grid::Cell::new(0), crate::grid::Digit::new(2));
        for format in [Format::Line, Format::Block, Format::Ints] {
            let layout = Layout::new(format, shape);
            let mut text = Vec::new();
            layout.write_bytes(&grid, &mut text);
            write_rules(&units, &layout, &mut text);
            // Twice, separated by a blank line, as the CLI writes records with rule lines.
            let mut twice = text.clone();
            twice.push(b'\n');
            twice.extend_from_slice(&text);
            let text = String::from_utf8(twice).unwrap();
            let read = read_str(&text, "t", ReadOptions::default());
            assert_eq!(read.len(), 2, "{format}:\n{text}");
            for r in &read {
                let p = r
                    .puzzle
                    .as_ref()
                    .unwrap_or_else(|e| panic!("{format}: {e}\n{text}"));
                assert_eq!(p.grid, grid, "{format}");
                assert_eq!(p.units.regions(), units.regions(), "{format}");
                assert_eq!(p.units.cages(), units.cages(), "{format}");
                assert_eq!(p.units.variants(), units.variants(), "{format}");
            }
        }
    }

    #[test]
    fn standard_rules_write_nothing() {
        let shape = Shape::new(3, 3).unwrap();
        let mut out = Vec::new();
        write_rules(
            &Units::standard(shape),
            &Layout::new(Format::Line, shape),
            &mut out,
        );
        assert!(out.is_empty());
    }
}
