//! The independent checker: [`verify`] accepts only a full grid that keeps every given, holds each
//! digit once in every unit, different digits in every group, and keeps every relation, cage and clue
//! of the rules, and otherwise names the first rule it breaks ([`Violation`]). It shares nothing with
//! the backends but the rules ([`Units`]): the clues are checked as setters state them, each by its
//! own reading here, not through what they are lowered into for the backends.

use thiserror::Error;

use crate::clue::Clue;
use crate::constraint::{RelationKind, Variant};
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
    /// A clue (or a variant with data of the puzzle, strict kropki say) that the candidate breaks.
    #[error("{clue} at {at}: {detail}")]
    Clue {
        /// The clue as its line names it (`thermo`, `kropki white`, `little-killer 23`).
        clue: String,
        /// Its first cell, `rXcY` (or the cell where the variant breaks).
        at: String,
        /// What is wrong, with the cells and values involved.
        detail: String,
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
    // The common case in a few steps, without the set-up of the detailed checks.
    if solves_classic_9x9(units, puzzle, candidate) {
        return Ok(());
    }
    verify_in_full(units, puzzle, candidate)
}

/// [`verify`] for any shape and rules.
#[inline(never)]
fn verify_in_full(units: &Units, puzzle: &Grid, candidate: &Grid) -> Result<(), Violation> {
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
    for r in units.relations().iter().filter(|r| r.kind.is_variant()) {
        let (a, b) = (values[r.a.index()], values[r.b.index()]);
        if !r.kind.allows(i32::from(a), i32::from(b)) {
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
    let vals: Vec<i32> = values.iter().map(|&d| units.value(d)).collect();
    for clue in units.clues() {
        check_clue(units, clue, &vals).map_err(|(at, detail)| Violation::Clue {
            clue: clue.title(),
            at: at.name(shape),
            detail,
        })?;
    }
    for &v in units.variants() {
        check_variant(units, v, &vals).map_err(|(at, detail)| Violation::Clue {
            clue: v.name().to_string(),
            at: at.name(shape),
            detail,
        })?;
    }
    Ok(())
}

/// A broken clue: the cell to name it by and what is wrong.
type Broken = (Cell, String);

/// `r1c2 (5)`: a cell and its value.
fn show(shape: Shape, c: Cell, vals: &[i32]) -> String {
    format!("{} ({})", c.name(shape), vals[c.index()])
}

/// The first two of `cells` (two cells, not one named twice) holding one value, if any.
fn repeated(cells: &[Cell], vals: &[i32]) -> Option<(Cell, Cell)> {
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if a != b && vals[a.index()] == vals[b.index()] {
                return Some((a, b));
            }
        }
    }
    None
}

/// Whether two cells share a side.
fn sides(shape: Shape, a: Cell, b: Cell) -> bool {
    a.row(shape).abs_diff(b.row(shape)) + a.col(shape).abs_diff(b.col(shape)) == 1
}

/// The pairs of `cells` sharing a side, earlier cell first.
fn side_pairs(shape: Shape, cells: &[Cell]) -> Vec<(Cell, Cell)> {
    let mut out = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if sides(shape, a, b) {
                out.push((a, b));
            }
        }
    }
    out
}

/// The sum of the values of `cells`.
fn total(cells: &[Cell], vals: &[i32]) -> i32 {
    cells.iter().map(|c| vals[c.index()]).sum()
}

/// `cells` joined by spaces, by name.
fn names(shape: Shape, cells: &[Cell]) -> String {
    let v: Vec<String> = cells.iter().map(|c| c.name(shape)).collect();
    v.join(" ")
}

/// Whether `vals` (a line's values in order) divides into stretches adding up to `sum` each,
/// starting at the line's start.
fn stretches(vals: &[i32], sum: i32) -> bool {
    let mut run = 0;
    for &v in vals {
        run += v;
        if run == sum {
            run = 0;
        } else if run > sum {
            return false;
        }
    }
    run == 0
}

/// The verifier's own reading of a clue, on the candidate's values `vals` (see `clue.rs` for each
/// rule as stated).
fn check_clue(units: &Units, clue: &Clue, vals: &[i32]) -> Result<(), Broken> {
    let shape = units.shape();
    let val = |c: Cell| vals[c.index()];
    let show = |c: Cell| show(shape, c, vals);
    let first = clue.cells().first().copied().unwrap_or(Cell::new(0));
    let fail = |at: Cell, detail: String| Err((at, detail));
    match clue {
        Clue::Candidates { cell, values } => {
            if !values.contains(&val(*cell)) {
                let list: Vec<String> = values.iter().map(i32::to_string).collect();
                return fail(
                    *cell,
                    format!("{} is none of {}", show(*cell), list.join(" ")),
                );
            }
        }
        Clue::AllDifferent { cells }
        | Clue::Lunchbox { cells, .. }
        | Clue::Rellik { cells, .. }
            if repeated(cells, vals).is_some() =>
        {
            let (a, b) = repeated(cells, vals).unwrap_or((first, first));
            return fail(first, format!("{} and {} hold the same", show(a), show(b)));
        }
        Clue::AllDifferent { .. } => {}
        Clue::Diagonal { anti } => {
            let k = shape.rows();
            let cells: Vec<Cell> = (0..k)
                .map(|r| Cell::at(shape, r, if *anti { k - 1 - r } else { r }))
                .collect();
            if let Some((a, b)) = repeated(&cells, vals) {
                return fail(
                    cells[0],
                    format!("{} and {} hold the same", show(a), show(b)),
                );
            }
        }
        Clue::Kropki { black, cells } => {
            for (a, b) in side_pairs(shape, cells) {
                let (x, y) = (val(a), val(b));
                let ok = if *black {
                    x == 2 * y || y == 2 * x
                } else {
                    (x - y).abs() == 1
                };
                if !ok {
                    let what = if *black {
                        "neither is double the other"
                    } else {
                        "not consecutive"
                    };
                    return fail(a, format!("{} and {}: {what}", show(a), show(b)));
                }
            }
        }
        Clue::Xv { sum, cells } => {
            for (a, b) in side_pairs(shape, cells) {
                if val(a) + val(b) != *sum {
                    return fail(
                        a,
                        format!("{} and {} do not add up to {sum}", show(a), show(b)),
                    );
                }
            }
        }
        Clue::GreaterThan { cells } => {
            for (a, b) in side_pairs(shape, cells) {
                if val(a) <= val(b) {
                    return fail(a, format!("{} is not above {}", show(a), show(b)));
                }
            }
        }
        Clue::Thermo { cells } => {
            for w in cells.windows(2) {
                if val(w[1]) <= val(w[0]) {
                    return fail(first, format!("{} is not above {}", show(w[1]), show(w[0])));
                }
            }
        }
        Clue::Whisper { diff, cells } => {
            for w in cells.windows(2) {
                if (val(w[1]) - val(w[0])).abs() < *diff {
                    return fail(
                        first,
                        format!(
                            "{} and {} differ by less than {diff}",
                            show(w[0]),
                            show(w[1])
                        ),
                    );
                }
            }
        }
        Clue::Renban { cells } => {
            if let Some((a, b)) = repeated(cells, vals) {
                return fail(first, format!("{} and {} hold the same", show(a), show(b)));
            }
            let lo = cells.iter().map(|&c| val(c)).min().unwrap_or(0);
            let hi = cells.iter().map(|&c| val(c)).max().unwrap_or(0);
            if hi - lo + 1 != cells.len() as i32 {
                return fail(
                    first,
                    format!("its values run from {lo} to {hi}, not consecutive"),
                );
            }
        }
        Clue::Palindrome { cells } => {
            let k = cells.len();
            for i in 0..k / 2 {
                let (a, b) = (cells[i], cells[k - 1 - i]);
                if val(a) != val(b) {
                    return fail(first, format!("{} and {} differ", show(a), show(b)));
                }
            }
        }
        Clue::Modular { modulus, cells } => {
            let m = *modulus as usize;
            for start in 0..cells.len() {
                let window = &cells[start..(start + m).min(cells.len())];
                for (i, &a) in window.iter().enumerate() {
                    for &b in &window[i + 1..] {
                        if val(a).rem_euclid(*modulus) == val(b).rem_euclid(*modulus) {
                            return fail(
                                first,
                                format!("{} and {} are equal modulo {modulus}", show(a), show(b)),
                            );
                        }
                    }
                }
            }
        }
        Clue::Entropic { cells } => {
            let third = |v: i32| (v - 1).div_euclid(3);
            for start in 0..cells.len() {
                let window = &cells[start..(start + 3).min(cells.len())];
                for (i, &a) in window.iter().enumerate() {
                    for &b in &window[i + 1..] {
                        if third(val(a)) == third(val(b)) {
                            return fail(
                                first,
                                format!("{} and {} are in the same third", show(a), show(b)),
                            );
                        }
                    }
                }
            }
        }
        Clue::Zipper { cells } => {
            let k = cells.len();
            let target = if k % 2 == 1 {
                val(cells[k / 2])
            } else {
                val(cells[0]) + val(cells[k - 1])
            };
            for i in 0..k / 2 {
                let (a, b) = (cells[i], cells[k - 1 - i]);
                if val(a) + val(b) != target {
                    return fail(
                        first,
                        format!("{} and {} do not add up to {target}", show(a), show(b)),
                    );
                }
            }
        }
        Clue::Between { cells } | Clue::Lockout { cells, .. } => {
            let (a, b) = (cells[0], cells[cells.len() - 1]);
            let (lo, hi) = (val(a).min(val(b)), val(a).max(val(b)));
            if let Clue::Lockout { diff, .. } = clue
                && hi - lo < *diff
            {
                return fail(
                    first,
                    format!(
                        "the ends {} and {} differ by less than {diff}",
                        show(a),
                        show(b)
                    ),
                );
            }
            for &m in &cells[1..cells.len() - 1] {
                let inside = lo < val(m) && val(m) < hi;
                let outside = val(m) < lo || val(m) > hi;
                let bad = match clue {
                    Clue::Lockout { .. } => !outside,
                    _ => !inside,
                };
                if bad {
                    let side = if matches!(clue, Clue::Lockout { .. }) {
                        "not outside"
                    } else {
                        "not between"
                    };
                    return fail(
                        first,
                        format!("{} is {side} the ends {} and {}", show(m), show(a), show(b)),
                    );
                }
            }
        }
        Clue::RegionSumLine { cells } => {
            let region = |c: Cell| -> Option<usize> {
                match units.regions() {
                    Some(map) => Some(map[c.index()]),
                    None if !units
                        .units()
                        .iter()
                        .chain(units.groups())
                        .any(|u| u.name.kind == crate::UnitKind::Block) =>
                    {
                        None
                    }
                    None => Some(shape.block_of(c.row(shape), c.col(shape))),
                }
            };
            if cells.iter().any(|&c| region(c).is_none()) {
                return Ok(());
            }
            let mut sums: Vec<(Cell, i32)> = Vec::new();
            let mut last = None;
            for &c in cells {
                let r = region(c);
                match sums.last_mut() {
                    Some((_, s)) if r == last => *s += val(c),
                    _ => sums.push((c, val(c))),
                }
                last = r;
            }
            if let Some(&(c, s)) = sums.iter().find(|(_, s)| *s != sums[0].1) {
                return fail(
                    first,
                    format!(
                        "the stretch from {} adds up to {s}, the first to {}",
                        c.name(shape),
                        sums[0].1
                    ),
                );
            }
        }
        Clue::SumLine { sum, looped, cells } => {
            let line: Vec<i32> = cells.iter().map(|&c| val(c)).collect();
            let k = line.len();
            let ok = if *looped {
                (0..k).any(|s| {
                    let turned: Vec<i32> = (0..k).map(|j| line[(s + j) % k]).collect();
                    stretches(&turned, *sum)
                })
            } else {
                stretches(&line, *sum)
            };
            if !ok {
                return fail(first, format!("does not divide into stretches of {sum}"));
            }
        }
        Clue::Arrow { pill, cells } => {
            let mut circle = cells[..*pill].to_vec();
            circle.sort_unstable();
            let number = circle
                .iter()
                .fold(0i64, |acc, &c| acc * 10 + i64::from(val(c)));
            let along = i64::from(total(&cells[*pill..], vals));
            if number != along {
                return fail(
                    first,
                    format!("the circle holds {number}, the arrow adds up to {along}"),
                );
            }
        }
        Clue::DoubleArrow { cells } => {
            let k = cells.len();
            let ends = val(cells[0]) + val(cells[k - 1]);
            let mids = total(&cells[1..k - 1], vals);
            if ends != mids {
                return fail(
                    first,
                    format!("the ends add up to {ends}, the cells between to {mids}"),
                );
            }
        }
        Clue::LittleKiller { sum, cells } => {
            let t = total(cells, vals);
            if t != *sum {
                return fail(first, format!("{} add up to {t}", names(shape, cells)));
            }
        }
        Clue::Sum { sum, coeffs, cells } => {
            let t: i64 = cells
                .iter()
                .zip(coeffs)
                .map(|(&c, &k)| i64::from(k) * i64::from(val(c)))
                .sum();
            if t != i64::from(*sum) {
                return fail(first, format!("the weighted sum is {t}"));
            }
        }
        Clue::EqualSum { segments } => {
            let sums: Vec<i32> = segments.iter().map(|s| total(s, vals)).collect();
            if let Some(i) = sums.iter().position(|&t| t != sums[0]) {
                return fail(
                    segments[i][0],
                    format!(
                        "this segment adds up to {}, the first to {}",
                        sums[i], sums[0]
                    ),
                );
            }
        }
        Clue::Sandwich { sum, cells } | Clue::Lunchbox { sum, cells } => {
            let lo = cells.iter().map(|&c| val(c)).min().unwrap_or(0);
            let hi = cells.iter().map(|&c| val(c)).max().unwrap_or(0);
            let at = |v: i32| cells.iter().position(|&c| val(c) == v).unwrap_or(0);
            let (i, j) = (at(lo).min(at(hi)), at(lo).max(at(hi)));
            let t = total(&cells[(i + 1).min(j)..j], vals);
            if t != *sum {
                return fail(
                    first,
                    format!(
                        "the cells between {} and {} add up to {t}",
                        show(cells[i]),
                        show(cells[j])
                    ),
                );
            }
        }
        Clue::XSum { sum, cells } => {
            let x = val(cells[0]);
            if x < 1 || x as usize > cells.len() {
                return fail(
                    first,
                    format!("{} counts no cells of the line", show(first)),
                );
            }
            let t = total(&cells[..x as usize], vals);
            if t != *sum {
                return fail(first, format!("the first {x} cells add up to {t}"));
            }
        }
        Clue::Skyscraper { count, cells } => {
            let (mut top, mut seen) = (0, 0);
            for &c in cells {
                if val(c) > top {
                    top = val(c);
                    seen += 1;
                }
            }
            if seen != *count {
                return fail(first, format!("{seen} buildings are seen"));
            }
        }
        Clue::HiddenSkyscraper { value, cells } => {
            let hidden =
                (1..cells.len()).find(|&i| cells[..i].iter().any(|&c| val(c) >= val(cells[i])));
            match hidden {
                Some(i) if val(cells[i]) == *value => {}
                Some(i) => {
                    return fail(
                        first,
                        format!("the first hidden building is {}", show(cells[i])),
                    );
                }
                None => return fail(first, "no building is hidden".to_string()),
            }
        }
        Clue::NumberedRoom { value, cells } => {
            if let Err(detail) = selects(shape, cells[0], cells, *value, vals) {
                return fail(first, detail);
            }
        }
        Clue::Indexing { rows, cells } => {
            for &control in cells {
                let (line, value) = crate::clue::indexed_line(shape, control, *rows);
                if let Err(detail) = selects(shape, control, &line, value as i32, vals) {
                    return fail(control, detail);
                }
            }
        }
        Clue::Quad { cells, values } => {
            for &v in values {
                let want = values.iter().filter(|&&x| x == v).count();
                let have = cells.iter().filter(|&&c| val(c) == v).count();
                if have < want {
                    return fail(
                        first,
                        format!("{v} is in the quadruple {have} times, not {want}"),
                    );
                }
            }
        }
        Clue::CountingCircles { cells } => {
            for &c in cells {
                let k = cells.iter().filter(|&&x| val(x) == val(c)).count() as i32;
                if k != val(c) {
                    return fail(first, format!("{} is in {k} circles", show(c)));
                }
            }
        }
        Clue::SameValues { sets, cells } => {
            let size = cells.len() / (*sets).max(1);
            let sorted = |run: &[Cell]| {
                let mut v: Vec<i32> = run.iter().map(|&c| val(c)).collect();
                v.sort_unstable();
                v
            };
            let runs: Vec<&[Cell]> = cells.chunks(size.max(1)).collect();
            if let Some(run) = runs.iter().find(|r| sorted(r) != sorted(runs[0])) {
                return fail(
                    run[0],
                    format!(
                        "these cells hold {:?}, the first run {:?}",
                        sorted(run),
                        sorted(runs[0])
                    ),
                );
            }
        }
        Clue::Rellik { sum, cells } => {
            let k = cells.len();
            for m in 1u32..(1 << k.min(20)) {
                let subset: Vec<Cell> = (0..k)
                    .filter(|&i| m >> i & 1 == 1)
                    .map(|i| cells[i])
                    .collect();
                if total(&subset, vals) == *sum {
                    return fail(first, format!("{} add up to {sum}", names(shape, &subset)));
                }
            }
        }
        Clue::ValueIndexing { cells } => {
            let k = val(cells[1]);
            if k < 1 || k as usize > cells.len() - 2 {
                return fail(first, format!("{} points past the line", show(cells[1])));
            }
            let target = cells[1 + k as usize];
            if val(target) != val(cells[0]) {
                return fail(
                    first,
                    format!(
                        "{} points at {}, not {}",
                        show(cells[1]),
                        show(target),
                        show(cells[0])
                    ),
                );
            }
        }
        Clue::LookAndSay { counts, cells } => {
            for &(v, k) in counts {
                let have = cells.iter().filter(|&&c| val(c) == v).count() as i32;
                if have != k {
                    return fail(first, format!("{v} is in its cells {have} times, not {k}"));
                }
            }
        }
        Clue::EqualityCage { cells } => {
            if let Some((a, b)) = repeated(cells, vals) {
                return fail(first, format!("{} and {} hold the same", show(a), show(b)));
            }
            let n = shape.n() as i32;
            let (lo, hi) = (units.value(1), units.value(shape.n() as u16));
            let even = cells.iter().filter(|&&c| val(c) % 2 == 0).count();
            let low = cells.iter().filter(|&&c| val(c) < lo + n / 2).count();
            let high = cells.iter().filter(|&&c| val(c) > hi - n / 2).count();
            if 2 * even != cells.len() {
                return fail(
                    first,
                    format!("{even} of its {} cells are even", cells.len()),
                );
            }
            if 2 * low != cells.len() || 2 * high != cells.len() {
                return fail(
                    first,
                    format!("{low} of its {} cells are low, {high} high", cells.len()),
                );
            }
        }
        Clue::Global2x2 { modular } => {
            let class = |v: i32| if *modular { (v - 1) % 3 } else { (v - 1) / 3 };
            for r in 0..shape.rows().saturating_sub(1) {
                for c in 0..shape.cols().saturating_sub(1) {
                    let square = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
                        .map(|(r, c)| Cell::at(shape, r, c));
                    for k in 0..3 {
                        if !square.iter().any(|&x| class(val(x)) == k) {
                            return fail(
                                square[0],
                                format!(
                                    "the 2x2 square from {} holds no value of class {}",
                                    square[0].name(shape),
                                    if *modular {
                                        ["1 4 7", "2 5 8", "3 6 9"][k as usize]
                                    } else {
                                        ["1-3", "4-6", "7-9"][k as usize]
                                    }
                                ),
                            );
                        }
                    }
                }
            }
        }
        Clue::Pair { all, table, cells } => {
            let pairs: Vec<(Cell, Cell)> = if *all {
                let mut v = Vec::new();
                for (i, &a) in cells.iter().enumerate() {
                    v.extend(cells[i + 1..].iter().map(|&b| (a, b)));
                }
                v
            } else {
                cells.windows(2).map(|w| (w[0], w[1])).collect()
            };
            let digit = |c: Cell| (vals[c.index()] - units.value(1)) as usize;
            for (a, b) in pairs {
                let allowed = digit(b) < 64
                    && table
                        .get(digit(a))
                        .is_some_and(|row| row >> digit(b) & 1 == 1);
                if !allowed {
                    return fail(
                        a,
                        format!(
                            "{} and {}: a pair the table does not allow",
                            show(a),
                            show(b)
                        ),
                    );
                }
            }
        }
        Clue::Nfa { nfa, segments } => {
            let base = units.value(1);
            let words: Vec<Vec<u16>> = segments
                .iter()
                .map(|seg| seg.iter().map(|&c| (val(c) - base) as u16).collect())
                .collect();
            if !nfa.accepts(&words) {
                let line: Vec<String> = segments
                    .concat()
                    .iter()
                    .map(|&c| val(c).to_string())
                    .collect();
                return fail(first, format!("the automaton rejects {}", line.join(" ")));
            }
        }
    }
    Ok(())
}

/// Indexing: `control` holding k selects the k-th cell of `line`, which holds `value`; no other
/// cell of the line does.
fn selects(
    shape: Shape,
    control: Cell,
    line: &[Cell],
    value: i32,
    vals: &[i32],
) -> Result<(), String> {
    let k = vals[control.index()];
    for (i, &c) in line.iter().enumerate() {
        if (vals[c.index()] == value) != (i as i32 + 1 == k) {
            return Err(format!(
                "{} selects cell {k} of the line, but {} holds {}",
                show(shape, control, vals),
                c.name(shape),
                vals[c.index()]
            ));
        }
    }
    Ok(())
}

/// The variants with data of the puzzle (strict kropki and XV) or of their own (anti-taxicab,
/// Dutch flatmates), read on their own.
fn check_variant(units: &Units, v: Variant, vals: &[i32]) -> Result<(), Broken> {
    let shape = units.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let val = |c: Cell| vals[c.index()];
    let show = |c: Cell| show(shape, c, vals);
    let marked = |a: Cell, b: Cell, xv: bool| {
        units.clues().iter().any(|clue| match clue {
            Clue::Kropki { cells, .. } if !xv => cells.contains(&a) && cells.contains(&b),
            Clue::Xv { cells, .. } if xv => cells.contains(&a) && cells.contains(&b),
            _ => false,
        })
    };
    match v {
        Variant::StrictKropki | Variant::StrictXv => {
            let xv = v == Variant::StrictXv;
            for r in 0..rows {
                for c in 0..cols {
                    let a = Cell::at(shape, r, c);
                    let next = [(r, c + 1), (r + 1, c)];
                    for (r2, c2) in next {
                        if r2 >= rows || c2 >= cols {
                            continue;
                        }
                        let b = Cell::at(shape, r2, c2);
                        if marked(a, b, xv) {
                            continue;
                        }
                        let (x, y) = (val(a), val(b));
                        let bad = if xv {
                            x + y == 5 || x + y == 10
                        } else {
                            (x - y).abs() == 1 || x == 2 * y || y == 2 * x
                        };
                        if bad {
                            let what = if xv {
                                "add up to 5 or 10"
                            } else {
                                "are consecutive or one double the other"
                            };
                            return Err((
                                a,
                                format!("{} and {} {what} without a mark", show(a), show(b)),
                            ));
                        }
                    }
                }
            }
        }
        Variant::AntiTaxicab => {
            for a in 0..shape.cells() {
                for b in a + 1..shape.cells() {
                    let (ca, cb) = (Cell::new(a), Cell::new(b));
                    let d = ca.row(shape).abs_diff(cb.row(shape))
                        + ca.col(shape).abs_diff(cb.col(shape));
                    if val(ca) == val(cb) && d as i32 == val(ca) {
                        return Err((ca, format!("{} and {} are {d} apart", show(ca), show(cb))));
                    }
                }
            }
        }
        Variant::DutchFlatmates => {
            let n = shape.n() as i32;
            let mid = (n + 1) / 2;
            for r in 0..rows {
                for c in 0..cols {
                    let x = Cell::at(shape, r, c);
                    if val(x) != mid {
                        continue;
                    }
                    let above = r > 0 && val(Cell::at(shape, r - 1, c)) == 1;
                    let below = r + 1 < rows && val(Cell::at(shape, r + 1, c)) == n;
                    if !above && !below {
                        return Err((x, format!("{} has neither 1 above nor {n} below", show(x))));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether every relation and cage of `units` holds in `values` (a full grid of digits in range).
fn extras_hold(units: &Units, values: &[u16]) -> bool {
    units.relations().iter().all(|r| {
        r.kind.allows(
            i32::from(values[r.a.index()]),
            i32::from(values[r.b.index()]),
        )
    }) && units.cages().iter().all(|cage| {
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
            (3, 3) => full_9x9(values),
            (br, bc) => standard_units_full(values, br, bc),
        };
    }
    if units.has_clue_rules() || !units.clues().is_empty() || units.base() != 1 {
        // Clues, groups and zero-based grids take the detailed checks.
        return false;
    }
    let full = u64::MAX >> (64 - n);
    units.units().iter().all(|unit| {
        unit.cells.iter().fold(0u64, |m, c| {
            m | 1 << (values[c.index()].wrapping_sub(1) & 63)
        }) == full
    }) && (!units.has_extras() || extras_hold(units, values))
}

/// Whether `candidate` solves `puzzle` under the classic 9x9 units (what [`is_solution`] says of
/// them, with the sizes known to the compiler); `false` for any other shape or rules, which the
/// detailed checks then decide.
#[inline]
fn solves_classic_9x9(units: &Units, puzzle: &Grid, candidate: &Grid) -> bool {
    let shape = units.shape();
    if !units.is_standard()
        || (shape.box_rows(), shape.box_cols()) != (3, 3)
        || puzzle.shape() != shape
        || candidate.shape() != shape
    {
        return false;
    }
    let (Ok(givens), Ok(values)) = (
        <&[u16; 81]>::try_from(puzzle.values()),
        <&[u16; 81]>::try_from(candidate.values()),
    ) else {
        return false;
    };
    // Every given kept: a fold over every cell (no early exit), so that it vectorises (one signed
    // min a word: a given g is kept when g = 0 or g ^ v = 0, i.e. min(g, g ^ v) = 0 for g, v below
    // 2^15; a larger value is negative as a signed word and goes to the detailed checks).
    let changed = givens.iter().zip(values).fold(0i16, |acc, (&g, &v)| {
        acc | (g.cast_signed()).min((g ^ v).cast_signed())
    });
    changed == 0 && full_9x9(values)
}

/// For each cell of a 9x9 grid the bits of its row (0-8), column (9-17) and box (18-26).
const UNIT_BITS_9X9: [[u32; 9]; 9] = {
    let mut t = [[0u32; 9]; 9];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[r][c] = 1 << r | 1 << (9 + c) | 1 << (18 + r / 3 * 3 + c / 3);
        i += 1;
    }
    t
};

/// Whether every row, column and box of a 9x9 grid (values 0..=9) holds every digit: per digit the
/// units it was seen in. The 81 cells bring 243 (digit, unit) marks for 243 pairs, so every digit
/// seen in all 27 units means each pair exactly once; an empty cell marks digit 0, which is not
/// looked at, and leaves some pair unmarked.
#[inline]
fn full_9x9(values: &[u16]) -> bool {
    let (rows @ [_, _, _, _, _, _, _, _, _], []) = values.as_chunks::<9>() else {
        return false;
    };
    let mut seen = [0u32; 16];
    // Each row by a call of its own, so that all 81 steps are unrolled with their bits as
    // constants (one load, one mask and one OR a cell).
    #[inline(always)]
    fn mark(seen: &mut [u32; 16], row: &[u16; 9], r: usize) {
        for (&v, &b) in row.iter().zip(&UNIT_BITS_9X9[r]) {
            seen[usize::from(v) & 15] |= b;
        }
    }
    mark(&mut seen, &rows[0], 0);
    mark(&mut seen, &rows[1], 1);
    mark(&mut seen, &rows[2], 2);
    mark(&mut seen, &rows[3], 3);
    mark(&mut seen, &rows[4], 4);
    mark(&mut seen, &rows[5], 5);
    mark(&mut seen, &rows[6], 6);
    mark(&mut seen, &rows[7], 7);
    mark(&mut seen, &rows[8], 8);
    seen[1..=9].iter().all(|&m| m == (1 << 27) - 1)
}

/// Whether every row, column and box of `values` (an N×N grid with boxes of `br`×`bc` cells, values
/// in any range) holds every digit: one pass over the cells (N < 64).
fn standard_units_full(values: &[u16], br: usize, bc: usize) -> bool {
    const CAP: usize = 64;
    let n = br * bc;
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
    /// Project Euler 96 grid 01's published solution, with the standard 9x9 units and the same
    /// units built by hand (which take the general checks).
    fn pe96_01() -> (Shape, Grid, Units, Units) {
        let shape = Shape::new(3, 3).unwrap();
        let s = Grid::from_values(
            shape,
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
                .bytes()
                .map(|b| u16::from(b - b'0'))
                .collect(),
        )
        .unwrap();
        let standard = Units::standard(shape);
        let by_hand = Units::from_units(shape, standard.units().to_vec());
        (shape, s, standard, by_hand)
    }

    /// The 9x9 path (per digit the units it was seen in) against the detailed checks: Project Euler
    /// 96 grid 01's published solution, with each cell set to each value 0..=9, and with each pair
    /// of cells swapped (the same digits, in the wrong places unless equal).
    #[test]
    fn the_9x9_fast_test_agrees_with_the_detailed_checks() {
        let (shape, s, standard, by_hand) = pe96_01();
        let empty = Grid::empty(shape);
        assert!(is_solution(&standard, &empty, &s));
        for cell in 0..81 {
            for v in 0..=9u16 {
                let mut g = s.clone();
                g.set(Cell::new(cell), crate::grid::Digit::new(v));
                let fast = is_solution(&standard, &empty, &g);
                assert_eq!(
                    fast,
                    verify(&by_hand, &empty, &g).is_ok(),
                    "cell {cell} = {v}"
                );
                assert_eq!(fast, v == s.values()[cell]);
            }
        }
        for a in 0..81 {
            for b in (a + 1)..81 {
                let mut values = s.values().to_vec();
                values.swap(a, b);
                let g = Grid::from_values(shape, values).unwrap();
                let fast = is_solution(&standard, &empty, &g);
                assert_eq!(fast, verify(&by_hand, &empty, &g).is_ok(), "swap {a}, {b}");
                assert_eq!(fast, g == s);
            }
        }
    }

    /// The classic 9x9 path of [`verify`] agrees with the general checks (the same units built by
    /// hand) on every one-cell change of an answer and of a given, and is not taken for other units.
    #[test]
    fn the_classic_9x9_path_agrees_with_the_general_checks() {
        let (shape, s, standard, by_hand) = pe96_01();
        // Every third cell given.
        let givens = s.values().iter().enumerate();
        let puzzle = Grid::from_values(
            shape,
            givens
                .map(|(i, &v)| if i % 3 == 0 { v } else { 0 })
                .collect(),
        )
        .unwrap();
        assert!(solves_classic_9x9(&standard, &puzzle, &s));
        assert!(
            !solves_classic_9x9(&by_hand, &puzzle, &s),
            "other units: the general checks"
        );
        for cell in 0..81 {
            for v in 0..=9u16 {
                let mut g = s.clone();
                g.set(Cell::new(cell), crate::grid::Digit::new(v));
                let general = verify(&by_hand, &puzzle, &g).is_ok();
                assert_eq!(general, v == s.values()[cell], "cell {cell} = {v}");
                assert_eq!(solves_classic_9x9(&standard, &puzzle, &g), general);
                assert_eq!(verify(&standard, &puzzle, &g).is_ok(), general);
                // A given changed (or blanked) instead.
                let mut p = puzzle.clone();
                p.set(Cell::new(cell), crate::grid::Digit::new(v));
                let general = verify(&by_hand, &p, &s).is_ok();
                assert_eq!(
                    general,
                    v == 0 || v == s.values()[cell],
                    "given {cell} = {v}"
                );
                assert_eq!(solves_classic_9x9(&standard, &p, &s), general);
                assert_eq!(verify(&standard, &p, &s).is_ok(), general);
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
