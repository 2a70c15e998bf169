//! Removing givens while the puzzle stays unique: the symmetry's orbits of cells, a cheap test for
//! removals that cannot cost uniqueness, and the one pass that makes a puzzle minimal.

use std::fmt;
use std::str::FromStr;

use super::rng::Rng;
use crate::grid::{Cell, Grid, Shape};
use crate::units::Units;

/// Which cells are given together: the pattern of givens is symmetric under this map (a given's
/// image is a given, a blank's a blank).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Symmetry {
    /// Any pattern.
    #[default]
    None,
    /// 180° rotation about the centre: r, c ↔ N−1−r, N−1−c.
    Rotational,
    /// Reflection in the main diagonal: r, c ↔ c, r.
    Diagonal,
    /// Reflection in the vertical middle line: r, c ↔ r, N−1−c.
    Mirror,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 4] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Diagonal,
        Symmetry::Mirror,
    ];

    /// The name: `none`, `rotational`, `diagonal`, `mirror`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The image of cell (`r`, `c`) of an N×N grid.
    pub fn image(self, n: usize, r: usize, c: usize) -> (usize, usize) {
        match self {
            Symmetry::None => (r, c),
            Symmetry::Rotational => (n - 1 - r, n - 1 - c),
            Symmetry::Diagonal => (c, r),
            Symmetry::Mirror => (r, n - 1 - c),
        }
    }

    /// Whether the givens of `puzzle` keep this symmetry.
    pub fn holds(self, puzzle: &Grid) -> bool {
        let n = puzzle.n();
        let v = puzzle.values();
        (0..n * n).all(|i| {
            let (r, c) = self.image(n, i / n, i % n);
            (v[i] == 0) == (v[r * n + c] == 0)
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no symmetry.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("unknown symmetry {given:?}: expected none, rotational, diagonal or mirror")]
pub struct UnknownSymmetry {
    /// The text given.
    pub given: String,
}

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;

    fn from_str(s: &str) -> Result<Symmetry, UnknownSymmetry> {
        Symmetry::ALL
            .into_iter()
            .find(|y| y.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownSymmetry {
                given: s.to_string(),
            })
    }
}

/// A cell and its image under a symmetry (once when it is its own image).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Orbit {
    pair: [usize; 2],
    len: usize,
}

impl Orbit {
    /// Its cells (one or two).
    pub fn cells(&self) -> &[usize] {
        &self.pair[..self.len]
    }
}

/// The orbits of the cells under `symmetry` (each cell and its image, once), in a random order.
pub(crate) fn orbits(shape: Shape, symmetry: Symmetry, rng: &mut Rng) -> Vec<Orbit> {
    let n = shape.n();
    let mut out: Vec<Orbit> = (0..n * n)
        .filter_map(|i| {
            let (r, c) = symmetry.image(n, i / n, i % n);
            let j = r * n + c;
            match j.cmp(&i) {
                std::cmp::Ordering::Less => None,
                std::cmp::Ordering::Equal => Some(Orbit {
                    pair: [i, i],
                    len: 1,
                }),
                std::cmp::Ordering::Greater => Some(Orbit {
                    pair: [i, j],
                    len: 2,
                }),
            }
        })
        .collect();
    rng.shuffle(&mut out);
    out
}

/// How many givens to end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// As few as the removal pass leaves: no given (no orbit of givens, under a symmetry) can be
    /// removed and keep the puzzle unique.
    Minimal,
    /// Between `min` and `max` givens (inclusive): the pass stops at a number drawn from the range;
    /// a grid that cannot get down to `max` is dropped.
    Givens {
        /// The fewest givens.
        min: usize,
        /// The most givens.
        max: usize,
    },
}

/// The digits given in each unit of `units` (flat, `words` 64-bit words per unit), kept up to date
/// while givens are removed, for [`Present::forced`].
pub(crate) struct Present<'a> {
    units: &'a Units,
    words: usize,
    bits: Vec<u64>,
}

impl<'a> Present<'a> {
    /// The digits given in each unit of `puzzle`.
    pub fn new(units: &'a Units, puzzle: &Grid) -> Present<'a> {
        let words = units.shape().n().div_ceil(64);
        let mut p = Present {
            units,
            words,
            bits: vec![0; units.units().len() * words],
        };
        for (i, &v) in puzzle.values().iter().enumerate() {
            if v != 0 {
                p.toggle(i, v);
            }
        }
        p
    }

    /// Adds (or removes) digit `v` of cell `i` to (from) its units.
    pub fn toggle(&mut self, i: usize, v: u16) {
        let (w, bit) = (usize::from(v - 1) / 64, 1u64 << ((v - 1) % 64));
        for &u in self.units.units_of(Cell::new(i)) {
            self.bits[u as usize * self.words + w] ^= bit;
        }
    }

    fn has(&self, unit: usize, v: u16) -> bool {
        let (w, bit) = (usize::from(v - 1) / 64, 1u64 << ((v - 1) % 64));
        self.bits[unit * self.words + w] & bit != 0
    }

    /// Whether the blank cell `i` of `puzzle` (whose solution digit is `v`) can hold nothing but
    /// `v` by the givens of its units alone: every other digit is given in one of its units (a naked
    /// single), or in one of its units every other blank cell sees a given `v` (a hidden single).
    /// Then every solution of `puzzle` has `v` there, and removing that given kept the puzzle unique
    /// (the rules besides the units can only remove more candidates).
    pub fn forced(&self, puzzle: &Grid, i: usize, v: u16) -> bool {
        let n = self.units.shape().n();
        let cell_units = self.units.units_of(Cell::new(i));
        // Naked single: the digits given in the cell's units are all but `v`.
        let mut seen = [0u64; 7];
        let seen = &mut seen[..self.words];
        for &u in cell_units {
            for (s, b) in seen.iter_mut().zip(&self.bits[u as usize * self.words..]) {
                *s |= b;
            }
        }
        let count: u32 = seen.iter().map(|w| w.count_ones()).sum();
        if count as usize == n - 1 && seen[usize::from(v - 1) / 64] >> ((v - 1) % 64) & 1 == 0 {
            return true;
        }
        // Hidden single: in some unit, every other blank sees a `v`.
        cell_units.iter().any(|&u| {
            self.units.units()[u as usize].cells.iter().all(|c| {
                let j = c.index();
                j == i
                    || puzzle.values()[j] != 0
                    || self
                        .units
                        .units_of(*c)
                        .iter()
                        .any(|&w| self.has(w as usize, v))
            })
        })
    }
}

/// The two-digit unavoidable sets of a solution grid, and how many givens each still holds: a
/// puzzle without a given in one of them has a second solution, so a removal that would empty one
/// is refused without a search.
///
/// For two digits a and b, the cells holding them split into the sets that every unit links: a
/// unit's a-cell and b-cell go together. Swapping a and b in such a set keeps every unit's digits
/// (each unit has both of its a and b cells in it, or neither), so the swapped grid is another
/// solution of any puzzle with no given there. (The classic deadly rectangle is the smallest, of
/// four cells; Gary McGuire, Bastian Tugemann and Gilles Civario's search for 16-clue puzzles,
/// 2012, is built on unavoidable sets.) Only where every rule is a unit: a relation or a cage may
/// not survive the swap.
pub(crate) struct Unavoidable {
    /// The set of each cell for each other digit: `sets[cell * (n - 1) + k]`, the k-th other digit.
    sets: Vec<u32>,
    n: usize,
    /// The givens each set still holds.
    givens: Vec<u32>,
}

impl Unavoidable {
    /// The two-digit unavoidable sets of `solution` under `units`, each holding every cell as a
    /// given; `None` when the rules have relations or cages.
    pub fn new(units: &Units, solution: &Grid) -> Option<Unavoidable> {
        if units.has_extras() {
            return None;
        }
        let n = units.shape().n();
        let values = solution.values();
        let cells = values.len();
        // For each unit, the cell of each digit; for each digit, its cells.
        let mut at = vec![0u32; units.units().len() * n];
        for (u, unit) in units.units().iter().enumerate() {
            for c in &unit.cells {
                at[u * n + usize::from(values[c.index()]) - 1] = c.index() as u32;
            }
        }
        let mut of_digit: Vec<Vec<u32>> = vec![Vec::with_capacity(n); n];
        for (i, &v) in values.iter().enumerate() {
            of_digit[usize::from(v) - 1].push(i as u32);
        }
        let mut sets = vec![0u32; cells * (n - 1)];
        let mut givens: Vec<u32> = Vec::new();
        let mut set_of = vec![u32::MAX; cells];
        let mut stack: Vec<u32> = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                // Each set: the cells reached from one of them through the units, going from an
                // a-cell to its units' b-cells and back.
                for &start in of_digit[a].iter().chain(&of_digit[b]) {
                    if set_of[start as usize] != u32::MAX {
                        continue;
                    }
                    let id = givens.len() as u32;
                    givens.push(0);
                    set_of[start as usize] = id;
                    stack.push(start);
                    while let Some(x) = stack.pop() {
                        givens[id as usize] += 1;
                        let d = usize::from(values[x as usize]) - 1;
                        let other = if d == a { b } else { a };
                        for &u in units.units_of(Cell::new(x as usize)) {
                            let y = at[u as usize * n + other];
                            if set_of[y as usize] == u32::MAX {
                                set_of[y as usize] = id;
                                stack.push(y);
                            }
                        }
                    }
                }
                for (d, other) in [(a, b), (b, a)] {
                    // The slot of digit `other` among the other digits of a cell holding `d`.
                    let k = if other < d { other } else { other - 1 };
                    for &i in &of_digit[d] {
                        sets[i as usize * (n - 1) + k] = set_of[i as usize];
                        set_of[i as usize] = u32::MAX;
                    }
                }
            }
        }
        Some(Unavoidable { sets, n, givens })
    }

    fn of(&self, cell: usize) -> &[u32] {
        &self.sets[cell * (self.n - 1)..(cell + 1) * (self.n - 1)]
    }

    /// Whether removing the givens of `cells` would leave some set without a given.
    pub fn empties(&self, cells: &[usize]) -> bool {
        match cells {
            [one] => self.of(*one).iter().any(|&s| self.givens[s as usize] == 1),
            _ => cells.iter().any(|&i| {
                self.of(i).iter().any(|&s| {
                    let inside = cells.iter().filter(|&&j| self.of(j).contains(&s)).count();
                    self.givens[s as usize] as usize <= inside
                })
            }),
        }
    }

    /// The givens of `cells` are gone.
    pub fn remove(&mut self, cells: &[usize]) {
        for &i in cells {
            for k in 0..self.n - 1 {
                let s = self.sets[i * (self.n - 1) + k];
                self.givens[s as usize] -= 1;
            }
        }
    }
}

/// Removes givens of `puzzle` (a unique puzzle whose solution is `solution`) orbit by orbit, in
/// the order of `orbits`, keeping each removal after which `unique` (given the puzzle and the
/// cells just emptied) says the puzzle is still unique, or after which every removed cell is
/// [forced](Present::forced), without asking; a removal that would leave an
/// [unavoidable set](Unavoidable) without a given is refused without asking. Stops at `stop_at`
/// givens and never goes below `min`. Returns the givens left.
///
/// One pass makes the puzzle minimal: a removal that made the puzzle ambiguous also does so once
/// other givens are gone (fewer givens never mean fewer solutions), so no orbit kept on the way
/// could be removed at the end.
pub(crate) fn remove(
    units: &Units,
    puzzle: &mut Grid,
    solution: &Grid,
    orbits: &[Orbit],
    stop_at: usize,
    min: usize,
    unique: &mut dyn FnMut(&Grid, &[usize]) -> bool,
) -> usize {
    let mut present = Present::new(units, puzzle);
    let mut givens = puzzle.filled();
    // Only from a full grid: the sets' counts start at their sizes.
    let mut sets = if givens == puzzle.values().len() {
        Unavoidable::new(units, solution)
    } else {
        None
    };
    for orbit in orbits {
        if givens <= stop_at {
            break;
        }
        let cells = orbit.cells();
        let vals = [puzzle.values()[cells[0]], puzzle.values()[orbit.pair[1]]];
        let vals = &vals[..cells.len()];
        if vals.contains(&0)
            || givens - cells.len() < min
            || sets.as_ref().is_some_and(|u| u.empties(cells))
        {
            continue;
        }
        for (&i, &v) in cells.iter().zip(vals) {
            puzzle.set(Cell::new(i), None);
            present.toggle(i, v);
        }
        let kept = cells
            .iter()
            .zip(vals)
            .all(|(&i, &v)| present.forced(puzzle, i, v))
            || unique(puzzle, cells);
        if kept {
            givens -= cells.len();
            if let Some(u) = &mut sets {
                u.remove(cells);
            }
        } else {
            for (&i, &v) in cells.iter().zip(vals) {
                puzzle.set(Cell::new(i), crate::grid::Digit::new(v));
                present.toggle(i, v);
            }
        }
        debug_assert!(cells.iter().all(|&i| {
            let v = puzzle.values()[i];
            v == 0 || v == solution.values()[i]
        }));
    }
    givens
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfs::DfsBackend;
    use crate::generate::fill::shuffled_pattern;
    use crate::solve::{Backend, Limits, Status};

    #[test]
    fn orbits_pair_cells_with_their_images() {
        let shape = Shape::new(3, 3).unwrap();
        let mut rng = Rng::new(1);
        assert_eq!(orbits(shape, Symmetry::None, &mut rng).len(), 81);
        let rot = orbits(shape, Symmetry::Rotational, &mut rng);
        assert_eq!(rot.len(), 41);
        assert!(rot.iter().any(|o| o.cells() == [40]));
        assert!(rot.iter().any(|o| o.cells() == [0, 80]));
        assert_eq!(orbits(shape, Symmetry::Diagonal, &mut rng).len(), 45);
        assert_eq!(orbits(shape, Symmetry::Mirror, &mut rng).len(), 45);
        assert_eq!("Mirror".parse::<Symmetry>(), Ok(Symmetry::Mirror));
        assert!("spiral".parse::<Symmetry>().is_err());
    }

    #[test]
    fn forced_cells_are_forced_and_one_pass_is_minimal() {
        let shape = Shape::new(3, 3).unwrap();
        let units = Units::standard(shape);
        let mut rng = Rng::new(9);
        let solution = shuffled_pattern(shape, &mut rng);
        let dfs = DfsBackend::new();
        let unique = |p: &Grid| {
            dfs.solve(&units, p, &Limits::unique())
                .unwrap()
                .outcome
                .status()
                == Status::Unique
        };
        // A full grid less one cell: a naked single.
        let mut one = solution.clone();
        one.set(Cell::new(10), None);
        let present = Present::new(&units, &one);
        assert!(present.forced(&one, 10, solution.values()[10]));
        // Minimal, symmetric.
        let mut puzzle = solution.clone();
        let orbits = orbits(shape, Symmetry::Rotational, &mut rng);
        let left = remove(
            &units,
            &mut puzzle,
            &solution,
            &orbits,
            0,
            0,
            &mut |p, _| unique(p),
        );
        assert_eq!(left, puzzle.filled());
        assert!(Symmetry::Rotational.holds(&puzzle));
        assert!(unique(&puzzle));
        for o in &orbits {
            if puzzle.values()[o.cells()[0]] == 0 {
                continue;
            }
            let mut less = puzzle.clone();
            o.cells().iter().for_each(|&i| less.set(Cell::new(i), None));
            assert!(!unique(&less), "orbit {o:?} could go");
        }
    }

    #[test]
    fn forced_removals_keep_the_puzzle_unique() {
        // On puzzles half way down: wherever `forced` says a removal is safe, the search agrees.
        let shape = Shape::new(3, 3).unwrap();
        let units = Units::standard(shape);
        let dfs = DfsBackend::new();
        let unique = |p: &Grid| {
            dfs.solve(&units, p, &Limits::unique())
                .unwrap()
                .outcome
                .status()
                == Status::Unique
        };
        let (mut forced, mut searched) = (0, 0);
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let solution = shuffled_pattern(shape, &mut rng);
            let mut puzzle = solution.clone();
            let orbits = orbits(shape, Symmetry::None, &mut rng);
            remove(
                &units,
                &mut puzzle,
                &solution,
                &orbits,
                40,
                0,
                &mut |p, _| unique(p),
            );
            for i in 0..81 {
                let v = puzzle.values()[i];
                if v == 0 {
                    continue;
                }
                let mut less = puzzle.clone();
                less.set(Cell::new(i), None);
                if Present::new(&units, &less).forced(&less, i, v) {
                    assert!(unique(&less), "seed {seed}, cell {i}");
                    forced += 1;
                } else {
                    searched += 1;
                }
            }
        }
        assert!(forced > 0 && searched > 0, "{forced} {searched}");
    }

    #[test]
    fn unavoidable_sets_swap_into_other_solutions() {
        // Each set, its two digits swapped, is another solution (by the verifier); a puzzle whose
        // givens miss a set is not unique (by the native search); every cell is in one set per
        // other digit.
        let dfs = DfsBackend::new();
        for (r, c) in [(2, 3), (3, 3), (2, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let units = Units::standard(shape);
            let n = shape.n();
            for seed in 0..5 {
                let mut rng = Rng::new(seed);
                let solution = shuffled_pattern(shape, &mut rng);
                let sets = Unavoidable::new(&units, &solution).unwrap();
                let mut cells_of: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
                for i in 0..shape.cells() {
                    assert_eq!(sets.of(i).len(), n - 1);
                    for &s in sets.of(i) {
                        cells_of.entry(s).or_default().push(i);
                    }
                }
                for (s, cells) in &cells_of {
                    assert_eq!(sets.givens[*s as usize] as usize, cells.len());
                    let digits: std::collections::BTreeSet<u16> =
                        cells.iter().map(|&i| solution.values()[i]).collect();
                    assert_eq!(digits.len(), 2, "set {s}: {digits:?}");
                    let (a, b) = (*digits.first().unwrap(), *digits.last().unwrap());
                    let mut swapped = solution.clone();
                    for &i in cells {
                        let v = if solution.values()[i] == a { b } else { a };
                        swapped.set(Cell::new(i), crate::grid::Digit::new(v));
                    }
                    assert_ne!(swapped, solution);
                    let blank = Grid::empty(shape);
                    crate::verify::verify(&units, &blank, &swapped)
                        .unwrap_or_else(|e| panic!("{r}x{c} seed {seed} set {s}: {e:?}"));
                }
                // The smallest set emptied: several solutions; `empties` says so beforehand.
                let (_, smallest) = cells_of.iter().min_by_key(|(_, c)| c.len()).unwrap();
                assert!(sets.empties(smallest));
                let mut puzzle = solution.clone();
                smallest
                    .iter()
                    .for_each(|&i| puzzle.set(Cell::new(i), None));
                let out = dfs.solve(&units, &puzzle, &Limits::unique()).unwrap();
                assert_eq!(out.outcome.status(), Status::Multiple);
                // One cell of it alone empties no set (each has four cells or more).
                assert!(smallest.len() >= 4 && !sets.empties(&smallest[..1]));
            }
        }
    }
}
