//! Model → grid: [`decode_model`] reads a solver's model with the puzzle alone (in the numbering of the
//! encoding that produced the formula), and reports malformed or contradictory models as errors.

use thiserror::Error;

use crate::grid::{Cell, Digit, Grid, Shape};
use crate::sat::encode::{Encoding, candidates, number_candidates};
use crate::sat::model::Model;
use crate::sat::vars::{CellVars, max_var_after};
use crate::units::Units;

/// Why a model does not describe a grid. Cells are named `rXcY` (1-based).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// The puzzle and the unit list are for different shapes.
    #[error("puzzle shape {puzzle} does not match unit list shape {units}")]
    ShapeMismatch {
        /// The puzzle's shape.
        puzzle: Shape,
        /// The unit list's shape.
        units: Shape,
    },
    /// A literal whose variable no encoding of this grid uses.
    #[error("literal {literal}: variable out of range 1..={max}")]
    VariableOutOfRange {
        /// The literal.
        literal: i64,
        /// The largest variable any encoding of this grid uses.
        max: u64,
    },
    /// A variable given both values.
    #[error("variable {variable} is both true and false")]
    Contradictory {
        /// The variable.
        variable: u64,
    },
    /// Two digits true in one cell.
    #[error("cell {cell} holds both {first} and {second}")]
    TwoDigits {
        /// The cell.
        cell: String,
        /// The smaller digit.
        first: u16,
        /// The larger digit.
        second: u16,
    },
    /// No digit true in an open cell, all its candidates false.
    #[error("cell {cell} holds no digit")]
    NoDigit {
        /// The cell.
        cell: String,
    },
    /// No digit true in an open cell, and the model does not mention one of its candidates: the
    /// model is incomplete.
    #[error("cell {cell}: the model gives no value to variable {variable} (digit {digit})")]
    Missing {
        /// The cell.
        cell: String,
        /// The digit.
        digit: u16,
        /// Its variable.
        variable: u64,
    },
}

/// Decodes `model`, a model of the formula of `puzzle` under `units` in `encoding` (any at-most-one
/// scheme), into the solution grid: the fixed numbering x(r, c, d) = r·N² + c·N + d for the plain
/// encodings; for the pruned one the candidate numbering, the open candidates (pairs of an open
/// cell and a digit no peer holds as a given) numbered 1, 2, … in row-major cell order and
/// increasing digit order within a cell. Both depend on the puzzle alone.
///
/// Given cells keep their givens and their variables are not read; for an open cell only the digits
/// no peer holds as a given are read. The pruned encoding has no variable for the others, and in the
/// fixed numbering they occur in no clause that propagation leaves open: solvers give such
/// variables any value (MiniSat false, CaDiCaL true). Exactly one of an open cell's candidates must
/// be true. Auxiliary variables are ignored. The grid is not checked against the rules here: pass
/// it to [`crate::verify`].
///
/// # Errors
/// A [`DecodeError`] for a literal out of range, a variable both true and false, an open cell with
/// two digits, with none, or with none and a candidate the model leaves out, or a shape mismatch.
/// Never panics.
pub fn decode_model(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    model: &Model,
) -> Result<Grid, DecodeError> {
    let shape = units.shape();
    if puzzle.shape() != shape {
        return Err(DecodeError::ShapeMismatch {
            puzzle: puzzle.shape(),
            units: shape,
        });
    }
    let vars = match encoding {
        Encoding::Pruned => number_candidates(units, puzzle),
        _ => CellVars::fixed(shape),
    };
    let cell_vars = vars.count() as u64;
    let max = max_var_after(units, cell_vars);
    // Values of the cell variables: 0 unknown, 1 true, -1 false.
    let mut value = vec![0i8; cell_vars as usize + 1];
    for &lit in model.literals() {
        let var = lit.unsigned_abs();
        if var == 0 || var > max {
            return Err(DecodeError::VariableOutOfRange { literal: lit, max });
        }
        if var > cell_vars {
            continue;
        }
        let v = if lit > 0 { 1 } else { -1 };
        let slot = &mut value[var as usize];
        if *slot == -v {
            return Err(DecodeError::Contradictory { variable: var });
        }
        *slot = v;
    }
    let cand = candidates(units, puzzle);
    let mut grid = puzzle.clone();
    for (i, cands) in cand.iter().enumerate() {
        let cell = Cell::new(i);
        if puzzle.get(cell).is_some() {
            continue;
        }
        let mut found: Option<Digit> = None;
        let mut missing: Option<(Digit, u64)> = None;
        for d in cands.iter() {
            // Every candidate has a variable in either numbering.
            let Some(var) = vars.var(i, d.index()) else {
                continue;
            };
            let var = var.to_dimacs() as u64;
            match value[var as usize] {
                1 => {
                    if let Some(first) = found {
                        return Err(DecodeError::TwoDigits {
                            cell: cell.name(shape),
                            first: first.get(),
                            second: d.get(),
                        });
                    }
                    found = Some(d);
                }
                0 => missing = missing.or(Some((d, var))),
                _ => {}
            }
        }
        match (found, missing) {
            (Some(d), _) => grid.set(cell, Some(d)),
            (None, Some((d, variable))) => {
                return Err(DecodeError::Missing {
                    cell: cell.name(shape),
                    digit: d.get(),
                    variable,
                });
            }
            (None, None) => {
                return Err(DecodeError::NoDigit {
                    cell: cell.name(shape),
                });
            }
        }
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::verify;

    /// rows 1234 / 3412 / 2143 / 4321, checked by hand.
    fn solved4() -> Grid {
        let v = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        Grid::from_values(Shape::new(2, 2).unwrap(), v.to_vec()).unwrap()
    }

    /// The full model of a grid: every cell variable, true for its digit.
    fn model_of(g: &Grid) -> Vec<i64> {
        let n = g.n() as i64;
        (0..g.shape().cells() as i64)
            .flat_map(|i| {
                let v = g.values()[i as usize] as i64;
                (1..=n).map(move |d| if d == v { i * n + d } else { -(i * n + d) })
            })
            .collect()
    }

    #[test]
    fn decodes_a_full_model() {
        let s = solved4();
        let units = Units::standard(s.shape());
        let mut puzzle = s.clone();
        for i in [1, 6, 11, 12] {
            puzzle.set(Cell::new(i), None);
        }
        let m = Model::from_literals(model_of(&s));
        let g = decode_model(&units, &puzzle, Encoding::Extended, &m).unwrap();
        assert_eq!(g, s);
        verify(&units, &puzzle, &g).unwrap();
        // Auxiliary variables are ignored.
        let mut lits = model_of(&s);
        lits.push(65);
        lits.push(-70);
        assert_eq!(
            decode_model(
                &units,
                &puzzle,
                Encoding::Extended,
                &Model::from_literals(lits)
            )
            .unwrap(),
            s
        );
    }

    #[test]
    fn free_variables_of_ruled_out_pairs_are_ignored() {
        // CaDiCaL sets unconstrained variables true: all variables true except the solution's
        // alternatives among candidates.
        let s = solved4();
        let units = Units::standard(s.shape());
        let mut puzzle = s.clone();
        puzzle.set(Cell::new(0), None); // r1c1 = 1; its peers hold 2, 3, 4 as givens
        let mut lits: Vec<i64> = (1..=64).collect();
        // r1c1's only candidate is 1 (variable 1): true. Everything else true too.
        let g = decode_model(
            &units,
            &puzzle,
            Encoding::Extended,
            &Model::from_literals(lits.clone()),
        )
        .unwrap();
        assert_eq!(g, s);
        lits[0] = -1;
        assert_eq!(
            decode_model(
                &units,
                &puzzle,
                Encoding::Extended,
                &Model::from_literals(lits)
            ),
            Err(DecodeError::NoDigit {
                cell: "r1c1".into()
            })
        );
    }

    #[test]
    fn malformed_models() {
        let s = solved4();
        let units = Units::standard(s.shape());
        let empty = Grid::empty(s.shape());
        let full = model_of(&s);
        let dec = |lits: Vec<i64>| {
            decode_model(
                &units,
                &empty,
                Encoding::Extended,
                &Model::from_literals(lits),
            )
        };

        // Two digits in r1c1: 1 and 2.
        let mut two = full.clone();
        two[1] = 2;
        assert_eq!(
            dec(two),
            Err(DecodeError::TwoDigits {
                cell: "r1c1".into(),
                first: 1,
                second: 2
            })
        );
        // No digit in r1c1.
        let mut none = full.clone();
        none[0] = -1;
        assert_eq!(
            dec(none),
            Err(DecodeError::NoDigit {
                cell: "r1c1".into()
            })
        );
        // Truncated: only the first 10 literals (r1c1, r1c2 and half of r1c3).
        assert_eq!(
            dec(full[..10].to_vec()),
            Err(DecodeError::Missing {
                cell: "r1c3".into(),
                digit: 3,
                variable: 11
            })
        );
        // Out of range: 4x4 has 64 cell variables and at most (16 + 48) · 3 auxiliary ones.
        let max = 64 + 64 * 3;
        assert_eq!(
            dec(vec![max as i64 + 1]),
            Err(DecodeError::VariableOutOfRange {
                literal: max as i64 + 1,
                max
            })
        );
        assert!(matches!(
            dec(vec![i64::MIN]),
            Err(DecodeError::VariableOutOfRange { .. })
        ));
        // Contradictory.
        let mut both = full.clone();
        both.push(-1);
        assert_eq!(dec(both), Err(DecodeError::Contradictory { variable: 1 }));
        // Variables of given cells are not read (the pruned formula has none: MiniSat says false).
        let mut puzzle = s.clone();
        puzzle.set(Cell::new(5), None);
        let mut lits = full.clone();
        lits[0] = -1;
        assert_eq!(
            decode_model(
                &units,
                &puzzle,
                Encoding::Extended,
                &Model::from_literals(lits)
            ),
            Ok(s.clone())
        );
        // Shape mismatch.
        let other = Grid::empty(Shape::new(2, 3).unwrap());
        assert!(matches!(
            decode_model(&units, &other, Encoding::Pruned, &Model::default()),
            Err(DecodeError::ShapeMismatch { .. })
        ));
    }

    /// The candidate numbering, worked by hand on a 4x4: the solution 1234 / 3412 / 2143 / 4321
    /// with r1c1, r1c2, r1c3, r2c1 and r3c1 open. r1c1 sees only 4 as a given (row, column and
    /// box): candidates 1, 2, 3 (variables 1-3). r1c2 sees 4, 1, 3: 2 (variable 4). r1c3 sees 4,
    /// 1, 2: 3 (5). r2c1 sees 4, 1, 2: 3 (6). r3c1 sees 1, 4, 3: 2 (7).
    #[test]
    fn decodes_the_candidate_numbering() {
        let s = solved4();
        let units = Units::standard(s.shape());
        let mut puzzle = s.clone();
        for i in [0, 1, 2, 4, 8] {
            puzzle.set(Cell::new(i), None);
        }
        let m = Model::from_literals(vec![1, -2, -3, 4, 5, 6, 7]);
        assert_eq!(
            decode_model(&units, &puzzle, Encoding::Pruned, &m),
            Ok(s.clone())
        );
        // Read in the fixed numbering instead, the same literals leave r1c3 (variables 9-12) open.
        assert!(decode_model(&units, &puzzle, Encoding::Extended, &m).is_err());
        // Two digits in r1c1; variables 8 and up are auxiliary, and out of range far above.
        let two = Model::from_literals(vec![1, 2, -3, 4, 5, 6, 7]);
        assert!(matches!(
            decode_model(&units, &puzzle, Encoding::Pruned, &two),
            Err(DecodeError::TwoDigits {
                first: 1,
                second: 2,
                ..
            })
        ));
        let aux = Model::from_literals(vec![1, -2, -3, 4, 5, 6, 7, 8, -9]);
        assert_eq!(decode_model(&units, &puzzle, Encoding::Pruned, &aux), Ok(s));
        assert!(matches!(
            decode_model(
                &units,
                &puzzle,
                Encoding::Pruned,
                &Model::from_literals(vec![1000])
            ),
            Err(DecodeError::VariableOutOfRange { .. })
        ));
    }
}
