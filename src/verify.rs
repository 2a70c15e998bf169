//! The independent checker: [`verify`] accepts only a full grid that keeps every given, holds each
//! digit once in every unit and keeps every relation and cage of the rules, and otherwise names the
//! first rule it breaks ([`Violation`]). It shares nothing with the backends but the rules
//! ([`Units`]).

use thiserror::Error;

use crate::constraint::RelationKind;
use crate::grid::{Cell, Grid, Shape};
use crate::units::{UnitName, Units};

/// The first rule a candidate solution breaks.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// Puzzle, candidate and units are not all of one shape.
    #[error("shape mismatch: the puzzle is {puzzle}, the candidate {candidate}, the units {units}")]
    Shape {
        /// Puzzle shape.
        puzzle: Shape,
        /// Candidate shape.
        candidate: Shape,
        /// Units shape.
        units: Shape,
    },
    /// A cell without a digit.
    #[error("cell {cell} is empty")]
    Empty {
        /// The cell, `rXcY`.
        cell: String,
    },
    /// A value outside 1..=N.
    #[error("cell {cell} holds {value}, outside 1..={n}")]
    OutOfRange {
        /// The cell, `rXcY`.
        cell: String,
        /// The value.
        value: u16,
        /// N.
        n: usize,
    },
    /// A given of the puzzle was changed.
    #[error("given {given} at {cell} was changed to {found}")]
    GivenChanged {
        /// The cell, `rXcY`.
        cell: String,
        /// The puzzle's digit.
        given: u16,
        /// The candidate's digit.
        found: u16,
    },
    /// A digit twice in one unit.
    #[error("{unit} holds {digit} twice, at {first} and {second}")]
    Repeated {
        /// The unit.
        unit: UnitName,
        /// The repeated digit.
        digit: u16,
        /// First cell, `rXcY`.
        first: String,
        /// Second cell, `rXcY`.
        second: String,
    },
    /// Two related cells whose digits break the relation (the same digit a knight's or king's move
    /// apart, consecutive digits side by side).
    #[error("{}", relation_message(*kind, first, second, *a, *b))]
    Relation {
        /// What the relation demands.
        kind: RelationKind,
        /// First cell, `rXcY`.
        first: String,
        /// Second cell, `rXcY`.
        second: String,
        /// The first cell's digit.
        a: u16,
        /// The second cell's digit.
        b: u16,
    },
    /// A digit twice in one killer cage.
    #[error("cage at {anchor} (sum {sum}) holds {digit} twice, at {first} and {second}")]
    CageRepeated {
        /// The cage's first cell, `rXcY`.
        anchor: String,
        /// Its sum.
        sum: u32,
        /// The repeated digit.
        digit: u16,
        /// First cell, `rXcY`.
        first: String,
        /// Second cell, `rXcY`.
        second: String,
    },
    /// A killer cage whose digits add up to another sum.
    #[error("cage at {anchor} (sum {sum}) sums to {found}")]
    CageSum {
        /// The cage's first cell, `rXcY`.
        anchor: String,
        /// Its sum.
        sum: u32,
        /// What its digits add up to.
        found: u32,
    },
}

/// `knight-move cells r2c3 and r4c4 both hold 7`, `orthogonal neighbours r1c1 and r1c2 hold 3 and 4
/// (consecutive)`.
fn relation_message(kind: RelationKind, first: &str, second: &str, a: u16, b: u16) -> String {
    let what = kind.describe();
    if a == b {
        format!("{what} {first} and {second} both hold {a}")
    } else {
        format!("{what} {first} and {second} hold {a} and {b} (consecutive)")
    }
}

/// Checks that `candidate` solves `puzzle` under `units`: every cell holds a digit in 1..=N, every given
/// is kept, every unit holds each digit exactly once, every relation holds and every cage holds
/// distinct digits adding up to its sum.
///
/// # Errors
/// The first [`Violation`] found, checking cells in reading order, then units, relations and cages in
/// order.
pub fn verify(units: &Units, puzzle: &Grid, candidate: &Grid) -> Result<(), Violation> {
    let shape = units.shape();
    if puzzle.shape() != shape || candidate.shape() != shape {
        return Err(Violation::Shape {
            puzzle: puzzle.shape(),
            candidate: candidate.shape(),
            units: shape,
        });
    }
    let n = shape.n();
    if is_solution(units, puzzle, candidate) {
        return Ok(());
    }
    // Something is wrong: find the first broken rule, in the order documented above.
    let name = |i: usize| Cell::new(i).name(shape);
    for (i, (&given, &value)) in puzzle.values().iter().zip(candidate.values()).enumerate() {
        if value == 0 {
            return Err(Violation::Empty { cell: name(i) });
        }
        if value as usize > n {
            return Err(Violation::OutOfRange {
                cell: name(i),
                value,
                n,
            });
        }
        if given != 0 && given != value {
            return Err(Violation::GivenChanged {
                cell: name(i),
                given,
                found: value,
            });
        }
    }
    // Each unit has N cells, all holding 1..=N: no repeat means a permutation.
    if let Some(clash) = units.find_clash(candidate) {
        return Err(Violation::Repeated {
            unit: clash.unit,
            digit: clash.digit.get(),
            first: clash.first.name(shape),
            second: clash.second.name(shape),
        });
    }
    let values = candidate.values();
    for r in units.relations() {
        let (a, b) = (values[r.a.index()], values[r.b.index()]);
        if !r.kind.allows(a, b) {
            return Err(Violation::Relation {
                kind: r.kind,
                first: r.a.name(shape),
                second: r.b.name(shape),
                a,
                b,
            });
        }
    }
    for cage in units.cages() {
        let anchor = || cage.anchor().name(shape);
        let mut seen: Vec<Option<Cell>> = vec![None; n + 1];
        let mut found = 0u32;
        for &cell in &cage.cells {
            let v = values[cell.index()];
            found += u32::from(v);
            if let Some(first) = seen[v as usize] {
                return Err(Violation::CageRepeated {
                    anchor: anchor(),
                    sum: cage.sum,
                    digit: v,
                    first: first.name(shape),
                    second: cell.name(shape),
                });
            }
            seen[v as usize] = Some(cell);
        }
        if found != cage.sum {
            return Err(Violation::CageSum {
                anchor: anchor(),
                sum: cage.sum,
                found,
            });
        }
    }
    Ok(())
}

/// Whether every relation and cage of `units` holds in `values` (a full grid of digits in range).
fn extras_hold(units: &Units, values: &[u16]) -> bool {
    units
        .relations()
        .iter()
        .all(|r| r.kind.allows(values[r.a.index()], values[r.b.index()]))
        && units.cages().iter().all(|cage| {
            let (mut seen, mut sum) = (0u64, 0u32);
            for c in &cage.cells {
                let v = values[c.index()];
                seen |= 1 << (v.wrapping_sub(1) & 63);
                sum += u32::from(v);
            }
            seen.count_ones() as usize == cage.cells.len() && sum == cage.sum
        })
}

/// Whether `candidate` solves `puzzle` (shapes already checked): a fast test that says only yes or
/// no, run on every answer before anyone sees it. Every given kept (one pass over the cells), then
/// each unit's digits as a bit set: N cells cover all N digits exactly when none is empty and none
/// repeats. Grids of 64x64 and wider go to the detailed checks.
pub(crate) fn is_solution(units: &Units, puzzle: &Grid, candidate: &Grid) -> bool {
    let n = units.shape().n();
    // A grid holds values 0..=N (`Grid` checks); 0 maps to bit 63 below, outside the full mask only
    // while N < 64.
    if n >= 64 {
        return false;
    }
    let (values, givens) = (candidate.values(), puzzle.values());
    // Every given kept: a fold over every cell (no early exit), so that it vectorises.
    let changed = givens
        .iter()
        .zip(values)
        .fold(0u8, |acc, (&g, &v)| acc | u8::from((g != 0) & (g != v)));
    if changed != 0 {
        return false;
    }
    // The unit tests below need no range test of their own: an empty cell (0) sets bit 63, outside the
    // full mask, so its units cannot be full.
    if units.is_standard() {
        let shape = units.shape();
        return match (shape.box_rows(), shape.box_cols()) {
            // The common case with its sizes known to the compiler (loops unrolled).
            (3, 3) => standard_units_full::<9, 9>(values, 3, 3),
            (br, bc) => standard_units_full::<0, 64>(values, br, bc),
        };
    }
    let full = u64::MAX >> (64 - n);
    units.units().iter().all(|unit| {
        unit.cells.iter().fold(0u64, |m, c| {
            m | 1 << (values[c.index()].wrapping_sub(1) & 63)
        }) == full
    }) && (!units.has_extras() || extras_hold(units, values))
}

/// Whether every row, column and box of `values` (an N×N grid with boxes of `br`×`bc` cells, values
/// in any range) holds every digit: one pass over the cells. `K` is N when known at compile time,
/// else 0; `CAP` (at least N, at most 64) sizes the masks.
fn standard_units_full<const K: usize, const CAP: usize>(
    values: &[u16],
    br: usize,
    bc: usize,
) -> bool {
    let n = if K > 0 { K } else { br * bc };
    let full = u64::MAX >> (64 - n);
    let mut cols = [0u64; CAP];
    // A band of `br` rows at a time: its boxes are the `br` runs of `bc` columns.
    for band in values.chunks_exact(br * n) {
        let mut boxes = [0u64; CAP];
        for row in band.chunks_exact(n) {
            let mut m = 0u64;
            for (c, &v) in row.iter().enumerate() {
                let bit = 1u64 << (v.wrapping_sub(1) & 63);
                m |= bit;
                cols[c % CAP] |= bit;
                boxes[(c / bc) % CAP] |= bit;
            }
            if m != full {
                return false;
            }
        }
        if boxes[..br].iter().any(|&m| m != full) {
            return false;
        }
    }
    cols[..n].iter().all(|&m| m == full)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A published 4x4 grid, checked by hand: rows 1234 / 3412 / 2143 / 4321.
    #[test]
    fn grids_above_64() {
        // The pattern solution (value(r, c) = (C·(r mod R) + ⌊r / R⌋ + c) mod N + 1) of 9x9 and 2x40
        // boxes: valid; with a given changed, or two cells of a row swapped, not.
        for (br, bc) in [(9, 9), (2, 40), (20, 20)] {
            let shape = Shape::new(br, bc).unwrap();
            let n = shape.n();
            let values: Vec<u16> = (0..n * n)
                .map(|i| ((bc * (i / n % br) + i / n / br + i % n) % n + 1) as u16)
                .collect();
            let solution = Grid::from_values(shape, values.clone()).unwrap();
            let units = Units::standard(shape);
            let mut puzzle = Grid::empty(shape);
            puzzle.set(Cell::new(n + 1), solution.get(Cell::new(n + 1)));
            assert_eq!(verify(&units, &puzzle, &solution), Ok(()), "{shape}");
            let mut changed = values.clone();
            changed[n + 1] = changed[n + 2];
            changed[n + 2] = values[n + 1];
            let changed = Grid::from_values(shape, changed).unwrap();
            assert!(
                matches!(
                    verify(&units, &puzzle, &changed),
                    Err(Violation::GivenChanged { .. })
                ),
                "{shape}"
            );
            let e = verify(&units, &Grid::empty(shape), &changed).unwrap_err();
            assert!(
                matches!(e, Violation::Repeated { unit, .. } if unit.kind == crate::units::UnitKind::Col),
                "{shape}: {e}"
            );
        }
    }

    fn solved4() -> Grid {
        let v = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        Grid::from_values(Shape::new(2, 2).unwrap(), v.to_vec()).unwrap()
    }

    /// The fast test and the detailed checks agree on every grid near a solution: each cell set to
    /// every value 0..=N in turn, under the standard units and under the same units built by hand.
    #[test]
    fn the_fast_test_agrees_with_the_detailed_checks() {
        let s = solved4();
        let shape = s.shape();
        let standard = Units::standard(shape);
        let by_hand = Units::from_units(shape, standard.units().to_vec());
        assert!(standard.is_standard() && !by_hand.is_standard());
        let mut puzzle = s.clone();
        puzzle.set(Cell::new(3), None);
        for cell in 0..16 {
            for v in 0..=4u16 {
                let mut g = s.clone();
                g.set(Cell::new(cell), crate::grid::Digit::new(v));
                for units in [&standard, &by_hand] {
                    for p in [&puzzle, &Grid::empty(shape)] {
                        let fast = is_solution(units, p, &g);
                        assert_eq!(fast, verify(units, p, &g).is_ok(), "cell {cell} = {v}");
                        assert_eq!(
                            fast,
                            g == s && (p.values()[cell] == 0 || v == s.values()[cell])
                        );
                    }
                }
            }
        }
    }
    /// Variant rules: the verifier names the broken relation or cage.
    #[test]
    fn names_broken_relations_and_cages() {
        use crate::constraint::Variant;
        let s = solved4();
        let shape = s.shape();
        let empty = Grid::empty(shape);
        // 1234 / 3412 / 2143 / 4321: r1c1 = 1 and r2c3 = 1 are a knight's move apart.
        let knight = Units::rules(shape)
            .variant(Variant::AntiKnight)
            .build()
            .unwrap();
        assert_eq!(
            verify(&knight, &empty, &s).unwrap_err().to_string(),
            "knight-move cells r1c1 and r2c3 both hold 1"
        );
        // r1c1 = 1 and r1c2 = 2 are consecutive side by side.
        let nc = Units::rules(shape)
            .variant(Variant::NonConsecutive)
            .build()
            .unwrap();
        assert_eq!(
            verify(&nc, &empty, &s).unwrap_err().to_string(),
            "orthogonal neighbours r1c1 and r1c2 hold 1 and 2 (consecutive)"
        );
        // A cage r1c1 r2c1 (1 + 3 = 4) said to sum to 5.
        let cage = Units::rules(shape)
            .cage(5, [(0, 0), (1, 0)])
            .build()
            .unwrap();
        assert_eq!(
            verify(&cage, &empty, &s).unwrap_err().to_string(),
            "cage at r1c1 (sum 5) sums to 4"
        );
        // A cage over r1c1 and r2c4 (1 and 2) holding... each distinct; r1c1 and r3c2 hold 1 twice.
        let twice = Units::rules(shape).cage(2, [(0, 0), (2, 1)]).build();
        assert!(
            twice.is_err(),
            "a sum of 2 for two cells is refused when built"
        );
        let twice = Units::rules(shape)
            .cage(3, [(0, 0), (2, 1)])
            .build()
            .unwrap();
        assert_eq!(
            verify(&twice, &empty, &s).unwrap_err().to_string(),
            "cage at r1c1 (sum 3) holds 1 twice, at r1c1 and r3c2"
        );
        // The diagonals of this grid repeat: 1 4 4 1.
        let x = Units::rules(shape)
            .variant(Variant::Diagonals)
            .build()
            .unwrap();
        assert_eq!(
            verify(&x, &empty, &s).unwrap_err().to_string(),
            "main diagonal holds 4 twice, at r2c2 and r3c3"
        );
        // And the rules that do hold: a correct cage.
        let ok = Units::rules(shape)
            .cage(4, [(0, 0), (1, 0)])
            .build()
            .unwrap();
        assert_eq!(verify(&ok, &empty, &s), Ok(()));
        assert!(is_solution(&ok, &empty, &s));
        assert!(!is_solution(&cage, &empty, &s));
    }

    #[test]
    fn accepts_a_solution_and_its_puzzle() {
        let s = solved4();
        let u = Units::standard(s.shape());
        let mut puzzle = s.clone();
        for i in [0, 5, 6, 10, 15] {
            puzzle.set(Cell::new(i), None);
        }
        assert_eq!(verify(&u, &puzzle, &s), Ok(()));
        assert_eq!(verify(&u, &s, &s), Ok(()));
    }

    #[test]
    fn rejects_each_broken_rule() {
        let s = solved4();
        let shape = s.shape();
        let u = Units::standard(shape);
        let empty = Grid::empty(shape);

        let mut hole = s.clone();
        hole.set(Cell::new(7), None);
        assert_eq!(
            verify(&u, &empty, &hole).unwrap_err().to_string(),
            "cell r2c4 is empty"
        );

        let mut puzzle = empty.clone();
        puzzle.set(Cell::new(0), crate::grid::Digit::new(2));
        assert_eq!(
            verify(&u, &puzzle, &s).unwrap_err().to_string(),
            "given 2 at r1c1 was changed to 1"
        );

        // Swap two digits in row 1: columns then hold repeats.
        let mut v = s.values().to_vec();
        v.swap(0, 1);
        let bad = Grid::from_values(shape, v).unwrap();
        assert_eq!(
            verify(&u, &empty, &bad).unwrap_err().to_string(),
            "column 1 holds 2 twice, at r1c1 and r3c1"
        );

        let other = Grid::empty(Shape::new(2, 3).unwrap());
        assert!(matches!(
            verify(&u, &empty, &other),
            Err(Violation::Shape { .. })
        ));
    }
}
