//! CNF encodings of a puzzle under its rules: [`Encoding`] × [`Amo`] for the units, the relations of
//! variants as binary clauses (`relations.rs`) and killer cages in a [`CageEncoding`] (`cages.rs`),
//! written into any [`ClauseSink`].
//!
//! Every encoding reads the [`Units`] list, never rows/columns/boxes directly, so diagonals, windows,
//! groups and jigsaw regions are just more units. Cell variables use the fixed numbering of
//! [`crate::sat::vars`] in the plain encodings and its candidate numbering in the pruned one; the
//! auxiliary variables of the cages come first after them, those of the at-most-one constraints
//! after those. The relations and cages are encoded in the fixed numbering, then each clause is
//! carried over into the formula's numbering (`Fixed`): a literal whose candidate has no variable
//! is false, one of a given cell is decided by the given.
//!
//! # Sizes
//! With N the grid side, |U| the number of units (3N for the standard rules) and A(k) / X(k) the
//! clauses / auxiliary variables of one at-most-one constraint over k literals (see [`amo_size`]:
//! pairwise A = k(k−1)/2, X = 0), the formulas before givens have:
//!
//! | encoding | variables | clauses |
//! |---|---|---|
//! | minimal | N³ + \|U\|·N·X(N) | N² + \|U\|·N·A(N) |
//! | efficient | N³ + (N² + \|U\|·N)·X(N) | N² + (N² + \|U\|·N)·A(N) |
//! | extended | N³ + (N² + \|U\|·N)·X(N) | N² + \|U\|·N + (N² + \|U\|·N)·A(N) |
//!
//! For the standard rules (|U| = 3N) and pairwise: minimal N² + 3N³(N−1)/2, efficient
//! N² + 2N³(N−1), extended 4N² + 2N³(N−1); for 9x9: 8829, 11745 and 11988 clauses over 729
//! variables, the published figures. Each given adds one unit clause. The pruned encoding's size
//! depends on the givens (see [`Encoding::Pruned`]).
//!
//! Relations add N clauses each ("must differ") or 2(N − 1) (non-consecutive), all binary; the
//! pruned encoding drops those the givens satisfy and shortens those they decide. Cages add what
//! [`CageEncoding`] says (no closed form: [`Encoding::predicted_size`] is `None` under cages).

mod amo;
mod cages;
mod choice;
mod efficient;
mod extended;
mod fixed;
mod implied;
mod lines;
mod minimal;
pub(crate) mod pruned;
mod relations;
mod renban;

pub use amo::amo_size;
pub(crate) use amo::at_most_one;
pub use choice::{Amo, CageEncoding, EncodeError, Encoding, PredictedSize, UnknownName};
pub use pruned::candidates;
pub(crate) use pruned::number_candidates;

use choice::Parts;
use fixed::Fixed;

use crate::grid::{Cell, Digit, Grid};
use crate::sat::lit::{Lit, Var};
use crate::sat::sink::{ClauseSink, Formula};
use crate::sat::vars::{AuxVars, CellVars, cell_lit, cell_of_var, digit_index_of_var};
use crate::units::Units;

impl Encoding {
    /// The clause groups of a plain (not pruned) encoding.
    fn parts(self) -> Option<Parts> {
        match self {
            Encoding::Minimal => Some(minimal::PARTS),
            Encoding::Efficient => Some(efficient::PARTS),
            Encoding::Extended => Some(extended::PARTS),
            Encoding::Pruned => None,
        }
    }

    /// The exact size of this encoding of a puzzle with `givens` givens under `units`, for the plain
    /// encodings (closed form, see the module docs; relations included); `None` for
    /// [`Encoding::Pruned`], whose size depends on where the givens are, and for rules with cages
    /// (count either with [`encode`] into a [`FormulaStats`](crate::sat::FormulaStats)).
    pub fn predicted_size(self, units: &Units, amo: Amo, givens: usize) -> Option<PredictedSize> {
        let parts = self.parts()?;
        if !units.cages().is_empty() || units.has_clue_rules() {
            return None;
        }
        let n = units.shape().n() as u64;
        let unit_digits = units.units().len() as u64 * n;
        let (a, x) = amo_size(amo, n as usize);
        let amos = unit_digits + if parts.cell_amo { n * n } else { 0 };
        let alos = n * n + if parts.unit_alo { unit_digits } else { 0 };
        let per = relations::relation_clauses(n as usize);
        let relations: u64 = units.relations().iter().map(|r| per(r.kind)).sum();
        Some(PredictedSize {
            variables: n * n * n + amos * x,
            clauses: alos + amos * a + relations + givens as u64,
            // Every at-most-one clause (of every scheme) is binary, and so is every relation clause.
            literals: alos * n + 2 * amos * a + 2 * relations + givens as u64,
        })
    }
}

/// What an encoder produced besides its clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Encoded {
    /// Cell variables (DIMACS 1 ..= `cell_vars`): N³ in the fixed numbering, the open candidates in
    /// the pruned encoding's.
    pub cell_vars: usize,
    /// Auxiliary variables created (DIMACS `cell_vars` + 1 ..= `cell_vars` + `aux_vars`).
    pub aux_vars: usize,
    /// The largest DIMACS variable number the encoding may mention: `cell_vars` + `aux_vars`.
    pub max_var: usize,
}

/// Writes the CNF of `puzzle` under `units` in `encoding` with `amo` into `sink`, cages (if any) in
/// the default [`CageEncoding`]. The plain encodings use the fixed numbering and end with one unit
/// clause per given; the pruned one uses the candidate numbering (see [`Encoding::Pruned`]), folds
/// the givens in, and writes an empty clause when the givens already contradict each other.
///
/// # Errors
/// [`EncodeError::ShapeMismatch`] if the puzzle is not of the unit list's shape.
pub fn encode<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    sink: &mut S,
) -> Result<Encoded, EncodeError> {
    encode_with(units, puzzle, encoding, amo, CageEncoding::default(), sink)
}

/// [`encode`] with the cages in `cages`. The relations and cages are written after the units'
/// clauses (and the givens); their auxiliary variables are numbered first after the cell variables,
/// all of them whatever the givens, so that every encoding of one set of rules numbers them alike.
///
/// # Errors
/// [`EncodeError::ShapeMismatch`] if the puzzle is not of the unit list's shape;
/// [`EncodeError::TooManyCombinations`] for a cage the combinations encoding cannot list.
pub fn encode_with<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    cages: CageEncoding,
    sink: &mut S,
) -> Result<Encoded, EncodeError> {
    encode_numbered(
        units,
        puzzle,
        encoding,
        amo,
        cages,
        &mut CellVars::default(),
        sink,
    )
}

/// [`encode_with`], leaving the numbering of the cell variables in `vars`.
pub(crate) fn encode_numbered<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    encoding: Encoding,
    amo: Amo,
    cages: CageEncoding,
    vars: &mut CellVars,
    sink: &mut S,
) -> Result<Encoded, EncodeError> {
    if puzzle.shape() != units.shape() {
        return Err(EncodeError::ShapeMismatch {
            puzzle: puzzle.shape(),
            units: units.shape(),
        });
    }
    let all = units.cages();
    if cages != CageEncoding::Sequential && !all.is_empty() {
        cages::check_combinations(units, all)?;
    }
    let n = units.shape().n();
    // The rules first, in the fixed numbering (their auxiliaries from N³ + 1), into a buffer: their
    // auxiliaries come first after the cell variables, and the pruned numbering is known only once
    // the units are encoded. Each clause is then carried over into the formula's numbering.
    let mut rules = Formula::new();
    let mut rules_aux = AuxVars::for_shape(units.shape());
    if units.has_extras() {
        let mut fixed = Fixed { sink: &mut rules };
        relations::encode_relations(n, units.relations(), &mut fixed);
        match cages {
            CageEncoding::Combinations => {
                cages::combinations(units, all, &mut rules_aux, &mut fixed)
            }
            CageEncoding::Sequential => cages::sequential(units, all, &mut rules_aux, &mut fixed),
            CageEncoding::Implied => {
                implied::combinations_implied(units, all, &mut rules_aux, &mut fixed)
            }
        }
        lines::encode_clue_rules(units, &mut rules_aux, &mut fixed);
        renban::encode_windows(units, &mut rules_aux, &mut fixed);
    }
    let rules_aux = rules_aux.count();
    let aux_vars = match encoding.parts() {
        Some(parts) => {
            *vars = CellVars::fixed(units.shape());
            let mut aux = AuxVars::after(vars.count() + rules_aux);
            encode_plain(units, puzzle, parts, amo, &mut aux, sink);
            rules_aux + aux.count()
        }
        None => rules_aux + pruned::encode_pruned(units, puzzle, amo, vars, rules_aux, sink),
    };
    vars.set_rules_aux(rules_aux);
    if !rules.is_empty() {
        let mut kept = Vec::new();
        for clause in rules.clauses() {
            if carry_over(n, puzzle.values(), vars, clause, &mut kept) {
                sink.add_clause(&kept);
            }
        }
    }
    Ok(Encoded {
        cell_vars: vars.count(),
        aux_vars,
        max_var: vars.count() + aux_vars,
    })
}

/// The auxiliary variables the cages of `units` take in `cages` (an upper bound for combinations
/// that cannot be listed; for the implied encoding, those of its cages alone).
#[cfg(test)]
pub(crate) fn cage_aux_vars(units: &Units, cages: CageEncoding) -> u64 {
    let n = units.shape().n();
    units
        .cages()
        .iter()
        .map(|c| match cages {
            // The implied encoding's cage selectors; its implied sums' come after them.
            CageEncoding::Combinations | CageEncoding::Implied => {
                cages::digit_sets(n, c.cells.len(), c.sum, crate::sat::vars::MAX_COMBINATIONS)
                    .map_or(crate::sat::vars::MAX_COMBINATIONS, |s| s.len() as u64)
            }
            CageEncoding::Sequential => cages::sequential_vars(n, c),
        })
        .sum()
}

/// Carries `clause` of the rules (fixed numbering, auxiliaries from N³ + 1) over into the numbering
/// `vars` into `kept`: in the fixed numbering unchanged; in the candidate numbering (the pruned
/// encoding, which has no variables for what the givens decide) a literal of a given cell is true or
/// false, one of a digit that is no candidate of its open cell is false, the others take their
/// candidate's variable (from [`CellVars::lit`]) and auxiliaries move down to follow the cell
/// variables. Returns false when the clause is satisfied (dropped); false literals are left out.
fn carry_over<V: Copy + Into<usize>>(
    n: usize,
    givens: &[V],
    vars: &CellVars,
    clause: &[Lit],
    kept: &mut Vec<Lit>,
) -> bool {
    kept.clear();
    if vars.is_fixed() {
        kept.extend_from_slice(clause);
        return true;
    }
    let cell_vars = givens.len() * n;
    for &l in clause {
        let i = l.var().index();
        if i >= cell_vars {
            kept.push(Var::from_index(i - cell_vars + vars.count()).lit(l.is_positive()));
            continue;
        }
        let (cell, d) = (cell_of_var(n, i), digit_index_of_var(n, i));
        let value = match givens[cell].into() {
            0 => match vars.lit(cell, d) {
                Some(lit) => {
                    kept.push(if l.is_positive() { lit } else { !lit });
                    continue;
                }
                None => false,
            },
            v => v - 1 == d,
        };
        if value == l.is_positive() {
            return false;
        }
    }
    true
}

/// The plain encodings: per cell (at least one digit, then at most one), per unit and digit (at
/// least one position, then at most one), then the givens as unit clauses.
fn encode_plain<S: ClauseSink + ?Sized>(
    units: &Units,
    puzzle: &Grid,
    parts: Parts,
    amo: Amo,
    aux: &mut AuxVars,
    sink: &mut S,
) {
    let shape = units.shape();
    let n = shape.n();
    let digits: Vec<Digit> = (1..=n as u16).filter_map(Digit::new).collect();
    let mut lits = Vec::with_capacity(n);
    for i in 0..shape.cells() {
        let cell = Cell::new(i);
        lits.clear();
        lits.extend(digits.iter().map(|&d| cell_lit(n, cell, d)));
        sink.add_clause(&lits);
        if parts.cell_amo {
            at_most_one(&lits, amo, aux, sink);
        }
    }
    for unit in units.units() {
        for &d in &digits {
            lits.clear();
            lits.extend(unit.cells.iter().map(|&c| cell_lit(n, c, d)));
            if parts.unit_alo {
                sink.add_clause(&lits);
            }
            at_most_one(&lits, amo, aux, sink);
        }
    }
    for i in 0..shape.cells() {
        let cell = Cell::new(i);
        if let Some(d) = puzzle.get(cell) {
            sink.add_clause(&[cell_lit(n, cell, d)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::sat::sink::FormulaStats;

    /// Counts of the empty puzzle: (variables, clauses, literals).
    pub(super) fn counts(shape: Shape, e: Encoding, amo: Amo) -> (u64, u64, u64) {
        let units = Units::standard(shape);
        let mut s = FormulaStats::new();
        let enc = encode(&units, &Grid::empty(shape), e, amo, &mut s).unwrap();
        assert_eq!(s.max_var as usize, enc.max_var, "{e} {amo} {shape}");
        (s.variables, s.clauses, s.literals)
    }

    #[test]
    fn names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(e.name().parse::<Encoding>().unwrap(), e);
        }
        for a in Amo::ALL {
            assert_eq!(a.to_string().parse::<Amo>().unwrap(), a);
        }
        assert_eq!(" Extended".parse::<Encoding>().unwrap(), Encoding::Extended);
        let e = "tiny".parse::<Encoding>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown encoding \"tiny\"; expected one of: minimal, efficient, extended, pruned"
        );
        assert!("pair".parse::<Amo>().is_err());
    }

    /// The closed forms of the module docs agree with what the encoders write, for every plain
    /// encoding × amo on every box shape up to 5x5, with and without givens.
    #[test]
    fn closed_forms_match_the_encoders() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (3, 3),
            (3, 4),
            (4, 4),
            (4, 5),
            (5, 5),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let units = Units::standard(shape);
            let mut puzzle = Grid::empty(shape);
            puzzle.set(Cell::new(0), Digit::new(1));
            puzzle.set(Cell::new(shape.cells() - 1), Digit::new(2));
            for e in [Encoding::Minimal, Encoding::Efficient, Encoding::Extended] {
                for amo in Amo::ALL {
                    let mut s = FormulaStats::new();
                    encode(&units, &puzzle, e, amo, &mut s).unwrap();
                    let p = e.predicted_size(&units, amo, 2).unwrap();
                    assert_eq!(
                        (p.variables, p.clauses, p.literals),
                        (s.variables, s.clauses, s.literals),
                        "{e} {amo} {shape}"
                    );
                }
            }
        }
        let units = Units::standard(Shape::new(3, 3).unwrap());
        assert!(
            Encoding::Pruned
                .predicted_size(&units, Amo::Pairwise, 0)
                .is_none()
        );
    }

    /// A 2-cell cage summing to 3 on the empty 4x4 grid (r1c1 and r2c2, one box), counted by hand
    /// (see `cages.rs`): combinations, one selector {1, 2}: the at-least-one clause, 2 clauses asking
    /// for its digits, 2 cells × 2 digits banned, 2 cells × 4 digits supported = 15; sequential, sums
    /// 1 and 2 after the first cell: 4 + 6 clauses there, 6 + 4 at the last = 20.
    #[test]
    fn pinned_cage_counts_4x4() {
        let s = Shape::new(2, 2).unwrap();
        let units = Units::rules(s).cage(3, [(0, 0), (1, 1)]).build().unwrap();
        for (cages, aux, clauses) in [
            (CageEncoding::Combinations, 1, 448 + 15),
            (CageEncoding::Sequential, 2, 448 + 20),
        ] {
            let mut st = FormulaStats::new();
            let e = encode_with(
                &units,
                &Grid::empty(s),
                Encoding::Extended,
                Amo::Pairwise,
                cages,
                &mut st,
            )
            .unwrap();
            assert_eq!((e.aux_vars, st.clauses), (aux, clauses), "{cages}");
            assert_eq!(cage_aux_vars(&units, cages), aux as u64);
            // The cages' variables come first after the cell variables.
            assert_eq!(st.max_var as usize, 64 + aux);
        }
        // The killer of `testing`: every encoding numbers its cage variables alike, first.
        let (killer, _) = crate::testing::wikipedia_killer();
        for cages in CageEncoding::ALL {
            let want = cage_aux_vars(&killer, cages) as usize;
            for e in Encoding::ALL {
                for amo in Amo::ALL {
                    let mut st = FormulaStats::new();
                    let enc = encode_with(
                        &killer,
                        &Grid::empty(killer.shape()),
                        e,
                        amo,
                        cages,
                        &mut st,
                    )
                    .unwrap();
                    assert!(enc.aux_vars >= want, "{e} {amo} {cages}");
                }
            }
        }
    }

    /// Relations have a closed form: anti-knight on 9x9 adds N binary clauses per knight pair that
    /// shares no unit; non-consecutive 2(N − 1) per orthogonal pair.
    #[test]
    fn relations_in_the_closed_form() {
        use crate::constraint::Variant;
        let s = Shape::new(3, 3).unwrap();
        for v in [
            Variant::AntiKnight,
            Variant::AntiKing,
            Variant::NonConsecutive,
            Variant::Diagonals,
        ] {
            let units = Units::rules(s).variant(v).build().unwrap();
            for e in [Encoding::Minimal, Encoding::Efficient, Encoding::Extended] {
                for amo in Amo::ALL {
                    let mut st = FormulaStats::new();
                    encode(&units, &Grid::empty(s), e, amo, &mut st).unwrap();
                    let p = e.predicted_size(&units, amo, 0).unwrap();
                    assert_eq!(
                        (p.variables, p.clauses, p.literals),
                        (st.variables, st.clauses, st.literals),
                        "{v} {e} {amo}"
                    );
                }
            }
        }
        let nc = Units::rules(s)
            .variant(Variant::NonConsecutive)
            .build()
            .unwrap();
        let p = Encoding::Extended
            .predicted_size(&nc, Amo::Pairwise, 0)
            .unwrap();
        assert_eq!(p.clauses, 11988 + 144 * 16);
        let (killer, _) = crate::testing::wikipedia_killer();
        assert!(
            Encoding::Extended
                .predicted_size(&killer, Amo::Pairwise, 0)
                .is_none()
        );
    }

    #[test]
    fn too_many_combinations_is_an_error() {
        // Eight cells summing to 260 in a 64x64 grid: far more than 20,000 digit sets.
        let s = Shape::new(8, 8).unwrap();
        let units = Units::rules(s)
            .cage(260, (0..8).map(|c| (0, c)))
            .build()
            .unwrap();
        let mut st = FormulaStats::new();
        let e = encode_with(
            &units,
            &Grid::empty(s),
            Encoding::Pruned,
            Amo::Sequential,
            CageEncoding::Combinations,
            &mut st,
        )
        .unwrap_err();
        assert!(
            matches!(e, EncodeError::TooManyCombinations { cage: 0, .. }),
            "{e}"
        );
        assert_eq!(st.clauses, 0, "nothing written");
        assert_eq!(
            "Sequential".parse::<CageEncoding>().unwrap(),
            CageEncoding::Sequential
        );
        assert!("tree".parse::<CageEncoding>().is_err());
    }

    #[test]
    fn shape_mismatch_is_an_error() {
        let units = Units::standard(Shape::new(2, 2).unwrap());
        let puzzle = Grid::empty(Shape::new(2, 3).unwrap());
        let mut s = FormulaStats::new();
        for e in Encoding::ALL {
            assert!(matches!(
                encode(&units, &puzzle, e, Amo::Pairwise, &mut s),
                Err(EncodeError::ShapeMismatch { .. })
            ));
        }
    }
}
