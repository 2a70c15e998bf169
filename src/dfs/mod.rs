//! The native backend: bitmask candidates, naked and hidden singles, locked candidates, naked and
//! hidden pairs, failed-literal probing at the root of large grids (and near each branch under
//! non-consecutive pairs), MRV branching, backtracking by copies (small grids) or an undo log
//! (large ones).
//!
//! # Design
//! - **State**: per cell a candidate mask (bit `d − 1` for digit `d`), per unit the mask of digits
//!   placed, per cell its value, changed in place. Each change is logged (a placement: the cell's
//!   candidates and the index of each peer that lost the digit; a removal: the digits removed), and
//!   backtracking undoes the log down to the branch's mark, so memory follows the changes on the
//!   current path, not the grid size times the depth. Nothing is logged before the first branch.
//!   Up to 32x32 a copy of the state per guess (at most 6 KB) is cheaper than the log, and is kept.
//! - **Masks**: the narrowest that holds N digits, chosen per puzzle: `u16` (N ≤ 16), `u32` (≤ 32),
//!   `u64` (≤ 64), then 2, 4 or 7 words of 64 bits (≤ 128, ≤ 256, ≤ 448).
//! - **Propagation** (the classic scheme of Norvig's "Solving Every Sudoku Puzzle", 2006, done with
//!   bitmasks): placing a digit removes it from every peer at once; a peer left with one candidate is
//!   queued (naked single), one left with none is a contradiction. Then each unit is folded into
//!   "digits seen at least once" and "at least twice" masks: a digit neither placed nor seen has no place
//!   (contradiction); a digit seen exactly once is a hidden single. When singles run out, one pass
//!   of locked candidates (pointing and claiming) runs over every pair of units sharing two or more
//!   cells — a row and a box, but equally a diagonal and a box — then singles again; then one pass of
//!   naked and hidden pairs, then singles again (both up to 64x64; above, a pass costs more than it
//!   saves). On grids above 32x32 the root is also probed: each candidate of a two-candidate cell is
//!   tried with the rules above, and one that fails leaves the other. Dead ends are values
//!   (`Contradiction`) propagated with `?`. Large grids fold only the units whose cells changed.
//! - **Variant rules** (`rules.rs`): cells that must differ without sharing a unit (anti-knight and
//!   anti-king pairs, cage mates) are peers in the tables (extra peer lists above 100x100); after
//!   each round of singles, non-consecutive pairs and killer cages prune candidates (cages by the
//!   digit combinations that can still reach the sum and hold what their units need; sums derived
//!   by the rule of 45), then singles again, until neither changes
//!   anything (`State::settle`; removals are logged for the undo like any other). The
//!   non-consecutive pairs go first and look only at what changed: the state marks each cell
//!   that loses a candidate, the pairs revise its neighbours (AC-3), the unit rule the units with
//!   a marked cell, and singles fold only the units marked since their last fold. Below the root,
//!   each node probes the two-candidate pair-neighbours of the cell its depth's branch placed, by
//!   singles and the pairs alone (`Search::probe`).
//! - **Branching**: on the open cell with the fewest candidates (MRV), smallest digit first. The
//!   child puts the digit there, the parent then removes it. Under cages and on jigsaw grids, the
//!   fewest candidates per unit of weight instead (dom/wdeg: a cell weighs one more for each dead
//!   end it was blamed for: the cells of a cage or sum that failed, the cell just branched on).
//!   Under clue rules the weights decay, the digits that fail weigh too, and cells start from
//!   priorities worth less than a dead end (the rules holding them), without restarts.
//!   When every rule treats digits alike (no cages, no non-consecutive pairs), digits that no given
//!   and no decision on the path names are interchangeable: a branch on one of them whose subtree
//!   held no solution removes them all from the cell (only empty subtrees are cut: counts stay
//!   exact).
//! - **Tables**: the unit list is flattened once into `u32` index arrays (unit cells, peers, units of
//!   each cell) and cached per thread by [`Units::id`], so a batch of puzzles builds them once; the
//!   search reads units only through them, so other unit lists (diagonals, regions) work unchanged.
//!   Above 100x100 the peer lists would outgrow the state (740 MB at 400x400): a placement walks the
//!   cell's units instead.
//! - **Empty and sparse giant grids** (`fill.rs`): from 64x64 up, a grid with at most a fifth of
//!   its cells given and no rules beside the units is filled by a search whose node costs only the
//!   eliminations it makes: per unit and digit a count of places (hidden singles without folding),
//!   the first open cell in row-major order, the digit with the fewest places in the cell's units
//!   first, an undo log with a bitset per unit, candidates kept as word planes so that a placement
//!   touches one word per peer. Empty grids up to 400x400 are filled without a dead end; grids
//!   with a few percent of givens are not yet (BENCHMARKS.md, "Empty and sparse giant grids").
//! - **Limits**: the node budget is checked at every node, the deadline on the first node and then
//!   every 1 to 1024 nodes (fewer on larger grids).
//! - **9x9 fast path**: for the standard 9x9 unit list (recognised by content, in any order, once per
//!   [`Units::id`] on each thread), a specialised solver on digit-major bitboards (see `nine.rs`)
//!   replaces the generic one: same outcomes, limits and stats, several times faster. The same
//!   units with anti-king, anti-knight and non-consecutive pairs and nothing else take it too (a
//!   second instance with the pairs as per-cell masks: more nodes than the generic path's probes
//!   and rules leave, each ~15x cheaper). Everything else (other shapes, diagonals, regions, cages)
//!   takes the generic path; [`DfsBackend::generic_only`] forces it.

mod bands;
mod consecutive;
mod cpu;
mod digit_peers;
mod fill;
mod lines;
mod mask;
mod narrow;
mod nine;
mod renban;
mod rules;
mod sandwich;
mod search;
mod state;
mod step;
mod tables;

use std::cell::Cell;
use std::thread::LocalKey;

use crate::constraint::RelationKind;
use crate::grid::{Grid, Shape};
use crate::solve::{Backend, Handover, Limits, Report, SolveError};
use crate::units::Units;

use mask::{Mask, Wide};
use search::{Bounds, Found, Scratch};
use tables::{Tables, tables_for};

/// The native depth-first-search backend.
///
/// Stateless: per-thread caches hold the tables derived from each unit list and the search buffers, so
/// one value may be shared by many threads.
///
/// # Examples
/// ```
/// use satdoku::{Backend, DfsBackend, Grid, Limits, Shape, Status, Units};
///
/// let shape = Shape::new(2, 2).unwrap();
/// let units = Units::standard(shape);
/// // The empty 4x4 grid has 288 solutions.
/// let report = DfsBackend::new()
///     .solve(&units, &Grid::empty(shape), &Limits::count_to(1000))
///     .unwrap();
/// assert_eq!(report.outcome.status(), Status::Multiple);
/// assert_eq!(report.outcome.count(), 288);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct DfsBackend {
    /// Never take the 9x9 fast path (for tests that compare it with the generic one).
    generic_only: bool,
    /// Branches take a random digit of their cell, from this seed (see [`DfsBackend::randomized`]).
    shuffle: Option<u64>,
}

impl DfsBackend {
    /// A new native backend.
    pub fn new() -> DfsBackend {
        DfsBackend::default()
    }

    /// A native backend that always takes the generic path, even for the standard 9x9 units: for tests
    /// and benchmarks that compare it with the 9x9 fast path.
    #[doc(hidden)]
    pub fn generic_only() -> DfsBackend {
        DfsBackend {
            generic_only: true,
            shuffle: None,
        }
    }

    /// A native backend whose branches try the digits of their cell in a random order, drawn from a
    /// stream seeded by `seed` at the start of each solve (the same seed, puzzle and rules give the
    /// same search): the first solution of an empty grid is then a random solution grid, of any
    /// shape and under any rules. Counts and answers are those of [`DfsBackend::new`]; only which
    /// solution is found first, and the work it takes, change.
    ///
    /// ```
    /// use satdoku::{Backend, DfsBackend, Grid, Limits, Shape, Units};
    /// let shape = Shape::new(3, 3).unwrap();
    /// let units = Units::standard(shape);
    /// let fill = |seed| {
    ///     let r = DfsBackend::randomized(seed).solve(&units, &Grid::empty(shape), &Limits::first());
    ///     r.unwrap().outcome.solution().unwrap().clone()
    /// };
    /// assert_eq!(fill(7), fill(7));
    /// assert_ne!(fill(7), fill(8));
    /// ```
    pub fn randomized(seed: u64) -> DfsBackend {
        DfsBackend {
            generic_only: false,
            shuffle: Some(seed),
        }
    }
}

thread_local! {
    /// The last unit list asked about, by [`Units::id`], and which 9x9 path takes it.
    static STANDARD_9X9: Cell<(u64, Nine)> = const { Cell::new((0, Nine::No)) };
    static S16: Cell<Scratch<u16>> = const { Cell::new(Scratch::new()) };
    static S32: Cell<Scratch<u32>> = const { Cell::new(Scratch::new()) };
    static S64: Cell<Scratch<u64>> = const { Cell::new(Scratch::new()) };
    static S128: Cell<Scratch<Wide<2>>> = const { Cell::new(Scratch::new()) };
    static S256: Cell<Scratch<Wide<4>>> = const { Cell::new(Scratch::new()) };
    static S448: Cell<Scratch<Wide<7>>> = const { Cell::new(Scratch::new()) };
}

/// Runs the search with one mask width, with this thread's buffers for it.
fn run_in<M: Mask>(
    buffers: &'static LocalKey<Cell<Scratch<M>>>,
    t: &Tables,
    puzzle: &Grid,
    exclude: &[(usize, u16)],
    limits: &Limits,
    bounds: &Bounds,
) -> Found {
    if fill::applies(t, puzzle) {
        return fill::run(t, puzzle.shape(), puzzle, limits, bounds);
    }
    // Taken out (not borrowed), so a nested solve on this thread simply gets fresh buffers.
    let mut scratch = buffers.take();
    let found = search::run(
        t,
        puzzle.shape(),
        puzzle,
        exclude,
        limits,
        bounds,
        &mut scratch,
    );
    scratch.trim();
    buffers.set(scratch);
    found
}

impl Backend for DfsBackend {
    fn name(&self) -> &'static str {
        "dfs"
    }

    /// Solves by depth-first search: bitmask candidates, singles, locked candidates, branching on a
    /// cell or a digit's places in a unit.
    ///
    /// # Errors
    /// [`SolveError::ShapeMismatch`] when the puzzle is not of the unit list's shape.
    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        self.solve_excluding(units, puzzle, &[], limits)
    }

    /// [`DfsBackend::solve`], firing `handover` at the first look at the clock (every 16 to
    /// 1,024 nodes) past its node count or time; the search goes on as it would without it.
    fn solve_handing_over(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        handover: &Handover<'_>,
    ) -> Option<Result<Report, SolveError>> {
        let bounds = Bounds::start(limits).with_handover(handover);
        Some(self.search(units, puzzle, &[], limits, bounds))
    }
}

impl DfsBackend {
    /// [`Backend::solve`] with each `(cell index, digit)` of `exclude` taken out of that cell's
    /// candidates before the search (a digit excluded from its own given leaves no solution). The
    /// generator's uniqueness test: a puzzle with one solution S stays unique without the given
    /// of cell c if and only if no solution has another digit there, i.e. it has none that
    /// excludes S's digit from c.
    pub(crate) fn solve_excluding(
        &self,
        units: &Units,
        puzzle: &Grid,
        exclude: &[(usize, u16)],
        limits: &Limits,
    ) -> Result<Report, SolveError> {
        self.search(units, puzzle, exclude, limits, Bounds::start(limits))
    }

    /// The search within `bounds` (which this backend's value order completes).
    fn search(
        &self,
        units: &Units,
        puzzle: &Grid,
        exclude: &[(usize, u16)],
        limits: &Limits,
        bounds: Bounds<'_>,
    ) -> Result<Report, SolveError> {
        let shape = units.shape();
        if puzzle.shape() != shape {
            return Err(SolveError::ShapeMismatch {
                puzzle: puzzle.shape(),
                units: shape,
            });
        }
        let bounds = bounds.with_shuffle(self.shuffle);
        // The 9x9 path makes its report itself, from the search's own fields (not a copy of them).
        if !self.generic_only {
            match nine_rules(units) {
                Nine::Classic => return Ok(nine::run(puzzle, None, exclude, limits, &bounds)),
                Nine::Related => {
                    if let Some(rel) = nine::Relations::of(units) {
                        let rel = Some(&*rel);
                        return Ok(nine::run(puzzle, rel, exclude, limits, &bounds));
                    }
                }
                Nine::No => {}
            }
        }
        let found = run_generic(units, puzzle, exclude, limits, &bounds);
        Ok(Report::new(
            found.solutions.finish(found.gave_up),
            found.stats,
        ))
    }
}

/// Which 9x9 fast path, if any, takes `units`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Nine {
    /// None: the generic path.
    No,
    /// The rows, columns and 3x3 boxes of a 9x9 grid and nothing else.
    Classic,
    /// Those units and pairwise relations (anti-king, anti-knight, non-consecutive), nothing else.
    Related,
}

/// Whether `units` are the rows, columns and 3x3 boxes of a 9x9 grid (in any order, each unit's cells in
/// any order) and nothing else (no relations, no cages): the rules of the fast path.
#[cfg(test)]
fn is_standard_9x9(units: &Units) -> bool {
    nine_rules(units) == Nine::Classic
}

/// Which 9x9 path takes `units`: the standard 9x9 units (in any order, each unit's cells in any
/// order), alone or with anti-king, anti-knight and non-consecutive pairs only. Decided once per
/// [`Units::id`] on each thread.
fn nine_rules(units: &Units) -> Nine {
    let id = units.id();
    let (last, answer) = STANDARD_9X9.get();
    if last == id {
        return answer;
    }
    let standard = units.shape() == Shape::new(3, 3).expect("3x3 is a valid box shape")
        && units.units().len() == 27
        && {
            let sets = |u: &Units| {
                let mut sets: Vec<u128> = u
                    .units()
                    .iter()
                    .map(|unit| unit.cells.iter().fold(0u128, |s, c| s | 1 << c.index()))
                    .collect();
                sets.sort_unstable();
                sets
            };
            sets(units) == sets(&Units::standard(units.shape()))
        };
    let only_pairs = units.cages().is_empty()
        && units.groups().is_empty()
        && units.sums().is_empty()
        && units.lines().is_empty()
        && units.window_rules().is_empty()
        && units.candidates().is_empty()
        && units.relations().iter().all(|r| {
            matches!(
                r.kind,
                RelationKind::King | RelationKind::Knight | RelationKind::NonConsecutive
            )
        });
    let answer = match (standard, units.has_extras(), only_pairs) {
        (true, false, _) => Nine::Classic,
        (true, true, true) => Nine::Related,
        _ => Nine::No,
    };
    STANDARD_9X9.set((id, answer));
    answer
}

/// The generic path: the narrowest mask that holds N digits.
fn run_generic(
    units: &Units,
    puzzle: &Grid,
    exclude: &[(usize, u16)],
    limits: &Limits,
    bounds: &Bounds,
) -> Found {
    let t = tables_for(units);
    let (p, x) = (puzzle, exclude);
    match units.shape().n() {
        0..=16 => run_in(&S16, &t, p, x, limits, bounds),
        17..=32 => run_in(&S32, &t, p, x, limits, bounds),
        33..=64 => run_in(&S64, &t, p, x, limits, bounds),
        65..=128 => run_in(&S128, &t, p, x, limits, bounds),
        129..=256 => run_in(&S256, &t, p, x, limits, bounds),
        _ => run_in(&S448, &t, p, x, limits, bounds),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::solve::{Outcome, Status};

    fn grid(shape: Shape, rows: &str) -> Grid {
        let values = rows
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_digit(10).unwrap() as u16)
            .collect();
        Grid::from_values(shape, values).unwrap()
    }

    #[test]
    fn shape_mismatch_is_an_error() {
        let units = Units::standard(Shape::new(2, 2).unwrap());
        let puzzle = Grid::empty(Shape::new(2, 3).unwrap());
        assert!(matches!(
            DfsBackend::new().solve(&units, &puzzle, &Limits::first()),
            Err(SolveError::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn counts_beyond_two_and_completeness() {
        let shape = Shape::new(2, 2).unwrap();
        let units = Units::standard(shape);
        let empty = Grid::empty(shape);
        let dfs = DfsBackend::new();
        let r = dfs.solve(&units, &empty, &Limits::count_to(288)).unwrap();
        assert!(matches!(
            r.outcome,
            Outcome::Multiple {
                count: 288,
                complete: false,
                ..
            }
        ));
        let r = dfs.solve(&units, &empty, &Limits::count_to(289)).unwrap();
        assert!(matches!(
            r.outcome,
            Outcome::Multiple {
                count: 288,
                complete: true,
                ..
            }
        ));
        assert!(r.stats.guesses > 0 && r.stats.nodes > r.stats.guesses);
    }

    #[test]
    fn full_and_clashing_grids() {
        let shape = Shape::new(2, 2).unwrap();
        let units = Units::standard(shape);
        let dfs = DfsBackend::new();
        let full = grid(shape, "1234 3412 2143 4321");
        let r = dfs.solve(&units, &full, &Limits::unique()).unwrap();
        assert_eq!(r.outcome, Outcome::Unique(full));
        let clash = grid(shape, "1001 0000 0000 0000");
        let r = dfs.solve(&units, &clash, &Limits::unique()).unwrap();
        assert_eq!(r.outcome.status(), Status::None);
    }

    #[test]
    fn the_standard_9x9_units_are_recognised_in_any_order() {
        let s9 = Shape::new(3, 3).unwrap();
        let std = Units::standard(s9);
        assert!(is_standard_9x9(&std));
        // Asked again (cached by id) and for a clone.
        assert!(is_standard_9x9(&std.clone()));
        let mut reordered = std.units().to_vec();
        reordered.rotate_left(5);
        reordered.iter_mut().for_each(|u| u.cells.reverse());
        assert!(is_standard_9x9(&Units::from_units(s9, reordered)));
        // Not: another shape, an extra unit, a unit swapped for another.
        assert!(!is_standard_9x9(&Units::standard(
            Shape::new(2, 2).unwrap()
        )));
        let mut extra = std.units().to_vec();
        extra.push(extra[0].clone());
        assert!(!is_standard_9x9(&Units::from_units(s9, extra)));
        let mut swapped = std.units().to_vec();
        swapped[0] = swapped[1].clone();
        assert!(!is_standard_9x9(&Units::from_units(s9, swapped)));
        assert!(is_standard_9x9(&std));
    }

    /// Every grid satisfying `units` (4x4 only), by brute force: the counts to compare with.
    fn every_grid(units: &Units) -> Vec<Vec<u16>> {
        fn fill(units: &Units, at: usize, g: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
            if at == g.len() {
                out.push(g.clone());
                return;
            }
            for d in 1..=4 {
                let clash = units.units().iter().any(|u| {
                    u.cells.iter().any(|c| c.index() == at)
                        && u.cells.iter().any(|c| g[c.index()] == d)
                });
                if !clash {
                    g[at] = d;
                    fill(units, at + 1, g, out);
                    g[at] = 0;
                }
            }
        }
        let mut out = Vec::new();
        fill(units, 0, &mut vec![0; 16], &mut out);
        out
    }

    #[test]
    fn counts_stay_exact_with_interchangeable_digits() {
        // Digits no given names are interchangeable, and a subtree without a solution cuts the
        // others; counts must not change. 4x4 puzzles with 0 to 4 givens (some of them
        // unsolvable), with and without the diagonals, against brute force.
        let shape = Shape::new(2, 2).unwrap();
        let plain = Units::standard(shape);
        let x = Units::rules(shape)
            .variant(crate::constraint::Variant::Diagonals)
            .build()
            .unwrap();
        let dfs = DfsBackend::new();
        for units in [plain, x] {
            let grids = every_grid(&units);
            assert!(!grids.is_empty());
            let mut seed = 7u64;
            let mut next = |k: u64| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) % k
            };
            let mut unsolvable = 0;
            for _ in 0..200 {
                let mut values = vec![0u16; 16];
                for _ in 0..next(5) {
                    values[next(16) as usize] = next(4) as u16 + 1;
                }
                let expected = grids
                    .iter()
                    .filter(|g| values.iter().zip(g.iter()).all(|(&v, &d)| v == 0 || v == d))
                    .count() as u64;
                unsolvable += u64::from(expected == 0);
                let puzzle = Grid::from_values(shape, values).unwrap();
                let r = dfs.solve(&units, &puzzle, &Limits::count_to(1000)).unwrap();
                assert_eq!(r.outcome.count(), expected, "{puzzle:?}");
            }
            assert!(unsolvable > 0);
        }
    }

    #[test]
    fn a_killer_without_givens_has_its_published_solution() {
        let (units, solution) = crate::testing::wikipedia_killer();
        let shape = units.shape();
        crate::verify::verify(&units, &Grid::empty(shape), &solution).unwrap();
        let r = DfsBackend::new()
            .solve(&units, &Grid::empty(shape), &Limits::unique())
            .unwrap();
        assert_eq!(r.outcome, Outcome::Unique(solution));
        // The standard 9x9 fast path is not taken under cages.
        assert!(!is_standard_9x9(&units));
    }

    #[test]
    fn a_handover_fires_once_at_its_node_count_and_the_search_goes_on() {
        // Counting solutions of empty grids: the hook sees the nodes counted so far
        // (`WorkCounters`, added at each clock check), which must be past the handover's count by
        // less than one clock interval; the search's answer and work are those of a plain solve.
        let s9 = Shape::new(3, 3).unwrap();
        let nc = Units::rules(s9)
            .variant(crate::constraint::Variant::NonConsecutive)
            .build()
            .unwrap();
        let cases = [
            (DfsBackend::new(), Units::standard(s9), 23_240, 1024, 40_000),
            (
                DfsBackend::generic_only(),
                Units::standard(s9),
                5_000,
                1024,
                20_000,
            ),
            // The 9x9 path under relations too: 1,024 nodes between clock checks.
            (DfsBackend::new(), nc, 700, 1024, 5_000),
        ];
        for (dfs, units, at, interval, k) in cases {
            let empty = Grid::empty(units.shape());
            let limits = Limits::count_to(k);
            let plain = dfs.solve(&units, &empty, &limits).unwrap();
            assert!(plain.stats.nodes > at + interval);
            let counters = crate::WorkCounters::default();
            counters.count_on_this_thread();
            let seen = std::cell::RefCell::new(Vec::new());
            let hook = || seen.borrow_mut().push(counters.nodes());
            // After the call, a watch hears of the share of the tree done, as it grows.
            let heard = std::cell::RefCell::new(Vec::new());
            let watch = |_, done| heard.borrow_mut().push((seen.borrow().len(), done));
            let handover = Handover::new(at, std::time::Duration::MAX, &hook).watched_by(&watch);
            let report = dfs
                .solve_handing_over(&units, &empty, &limits, &handover)
                .unwrap()
                .unwrap();
            crate::WorkCounters::stop_counting_on_this_thread();
            assert_eq!(report, plain);
            let seen = seen.into_inner();
            assert_eq!(seen.len(), 1, "{seen:?}");
            assert!((at..at + interval).contains(&seen[0]), "{seen:?}");
            let heard = heard.into_inner();
            // The 9x9 path makes no estimate of its progress: the watch hears nothing.
            assert_eq!(
                heard.is_empty(),
                nine_rules(&units) != Nine::No && !dfs.generic_only
            );
            assert!(heard.iter().all(|&(calls, _)| calls == 1), "{heard:?}");
            assert!(heard.iter().all(|&(_, done)| done > 0.0 && done < 1.0));
            assert!(heard.is_sorted_by(|a, b| a.1 <= b.1), "{heard:?}");
            // A handover past the end of the search never fires.
            let late = Handover::new(
                plain.stats.nodes + interval,
                std::time::Duration::MAX,
                &|| panic!("fired"),
            )
            .watched_by(&|_, _| panic!("watched before the call"));
            let again = dfs.solve_handing_over(&units, &empty, &limits, &late);
            assert_eq!(again.unwrap().unwrap(), plain);
            assert!(!late.fired());
        }
    }

    #[test]
    fn every_size_class_is_used() {
        let dfs = DfsBackend::new();
        for (r, c) in [(3, 3), (4, 4), (4, 5), (6, 6)] {
            let shape = Shape::new(r, c).unwrap();
            let units = Units::standard(shape);
            let r = dfs
                .solve(&units, &Grid::empty(shape), &Limits::first())
                .unwrap();
            let g = r.outcome.solution().unwrap();
            crate::verify::verify(&units, &Grid::empty(shape), g).unwrap();
        }
    }

    /// The builds for CPUs with POPCNT/BMI/AVX2 (`cpu::fast_cpu`) search as the baseline ones do:
    /// the same outcomes, nodes and guesses on hard 9x9 (the 9x9 path), 16x16, 25x25, killers,
    /// jigsaws, and 9x9 under non-consecutive, anti-king and anti-knight pairs (the 9x9 path with
    /// relations), first solution and counts.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_fast_cpu_builds_search_as_the_baseline_ones_do() {
        use crate::Variant;
        use crate::format::{ReadOptions, read_str};
        if !cpu::fast_cpu() {
            eprintln!("this CPU lacks POPCNT/BMI/AVX2: only the baseline builds run here");
            return;
        }
        let mut guesses = 0;
        // Both builds on one puzzle; the baseline's report.
        let mut both = |name: &str, units: &Units, grid: &Grid, limits: &Limits| {
            let run = |baseline: bool| {
                cpu::BASELINE.with(|b| b.set(baseline));
                let r = DfsBackend::new().solve(units, grid, limits);
                cpu::BASELINE.with(|b| b.set(false));
                r.unwrap()
            };
            let (fast, slow) = (run(false), run(true));
            assert_eq!(fast, slow, "{name}");
            assert!(slow.stats.nodes > 0);
            guesses += slow.stats.guesses;
            slow
        };
        let files = [
            ("t", include_str!("../../fixtures/top1465-head200.txt"), 200),
            (
                "h",
                include_str!("../../fixtures/forum-hardest-1905-11plus-head200.txt"),
                200,
            ),
            (
                "16",
                include_str!("../../fixtures/16x16-sudoku-acs-sample.txt"),
                40,
            ),
            (
                "25",
                include_str!("../../fixtures/25x25-sudoku-acs-sample.txt"),
                8,
            ),
            (
                "k",
                include_str!("../../fixtures/variants/killer-sudocue.txt"),
                6,
            ),
            ("j", include_str!("../../fixtures/variants/jigsaw.txt"), 10),
            (
                "nc",
                include_str!("../../fixtures/variants/non-consecutive.txt"),
                4,
            ),
        ];
        for (name, text, take) in files {
            let records = read_str(text, name, ReadOptions::default());
            let mut solved = 0;
            for r in records.iter().take(take) {
                let p = r.puzzle.as_ref().unwrap();
                for limits in [Limits::first(), Limits::count_to(2)] {
                    let name = format!("{name} line {}", r.line);
                    let slow = both(&name, &p.units, &p.grid, &limits);
                    solved += usize::from(slow.outcome.solution().is_some());
                }
            }
            assert!(solved > 0, "{name}: the sample has solutions");
        }
        // Under relations: puzzles of 12 givens from random solutions, counted to 30.
        let s9 = Shape::new(3, 3).unwrap();
        for v in [
            Variant::NonConsecutive,
            Variant::AntiKing,
            Variant::AntiKnight,
        ] {
            let units = Units::rules(s9).variant(v).build().unwrap();
            for seed in 0..6 {
                let full = crate::testing::random_solution(&units, seed);
                let values = (0..81).map(|i| {
                    if (i + seed as usize).is_multiple_of(7) {
                        full.values()[i]
                    } else {
                        0
                    }
                });
                let puzzle = Grid::from_values(s9, values.collect()).unwrap();
                both(
                    &format!("{v:?} {seed}"),
                    &units,
                    &puzzle,
                    &Limits::count_to(30),
                );
            }
        }
        assert!(
            guesses > 1000,
            "the samples make the search guess ({guesses})"
        );
    }
}
