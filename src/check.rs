//! The independent checker: `verify(units, puzzle, candidate)` accepts only a full grid that keeps every
//! given and holds each digit once in every unit. It shares nothing with the backends but the unit list.

use thiserror::Error;

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
        value: u8,
        /// N.
        n: usize,
    },
    /// A given of the puzzle was changed.
    #[error("given {given} at {cell} was changed to {found}")]
    GivenChanged {
        /// The cell, `rXcY`.
        cell: String,
        /// The puzzle's digit.
        given: u8,
        /// The candidate's digit.
        found: u8,
    },
    /// A digit twice in one unit.
    #[error("{unit} holds {digit} twice, at {first} and {second}")]
    Repeated {
        /// The unit.
        unit: UnitName,
        /// The repeated digit.
        digit: u8,
        /// First cell, `rXcY`.
        first: String,
        /// Second cell, `rXcY`.
        second: String,
    },
}

/// Checks that `candidate` solves `puzzle` under `units`: every cell holds a digit in 1..=N, every given
/// is kept, and every unit holds each digit exactly once.
///
/// # Errors
/// The first [`Violation`] found, checking cells in reading order, then units in order.
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
    let mut seen_at = vec![usize::MAX; n + 1];
    for unit in units.units() {
        seen_at.iter_mut().for_each(|s| *s = usize::MAX);
        for &cell in &unit.cells {
            let v = candidate.values()[cell.index()] as usize;
            if seen_at[v] != usize::MAX {
                return Err(Violation::Repeated {
                    unit: unit.name,
                    digit: v as u8,
                    first: name(seen_at[v]),
                    second: cell.name(shape),
                });
            }
            seen_at[v] = cell.index();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A published 4x4 grid, checked by hand: rows 1234 / 3412 / 2143 / 4321.
    fn solved4() -> Grid {
        let v = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        Grid::from_values(Shape::new(2, 2).unwrap(), v.to_vec()).unwrap()
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
