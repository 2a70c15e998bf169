//! A reproducible difficulty measure that needs no solver of human techniques: how far singles
//! alone get, whether the native backend needs to guess, how many guesses, and the SAT solver's work.

use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;

use crate::constraint::RelationKind;
use crate::dfs::DfsBackend;
use crate::grid::{Cell, Grid};
use crate::solve::{Backend, Limits, Report, SolveError};
use crate::units::Units;

/// Difficulty levels, the ranges of the measure (see [`Difficulty`]), easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Naked and hidden singles alone fill every blank.
    Easy,
    /// Singles alone do not, but the native backend's propagation does (locked candidates, naked
    /// and hidden pairs, the variant rules' reasoning): no guess.
    Medium,
    /// The native backend guesses, at most [`Level::HARD_GUESSES`] times, to prove the puzzle unique.
    Hard,
    /// More guesses than that.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Extreme];

    /// The most guesses (of the native backend counting to two) that a hard puzzle takes; more is
    /// extreme. Calibrated on 9x9 sets of published hardness (BENCHMARKS.md, "Difficulty"): the
    /// median puzzle of the forum's hardest list takes more, the median of top1465 fewer.
    pub const HARD_GUESSES: u64 = 20;

    /// The name: `easy`, `medium`, `hard`, `extreme`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no level.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("unknown difficulty {given:?}: expected easy, medium, hard or extreme")]
pub struct UnknownLevel {
    /// The text given.
    pub given: String,
}

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel {
                given: s.to_string(),
            })
    }
}

/// How hard a unique puzzle is, by measures any build reproduces exactly:
///
/// - `singles`: the share of the blanks that naked and hidden singles fill, repeated until nothing
///   changes (the relations of anti-knight, anti-king and non-consecutive remove candidates as
///   well; cages do not). This is what unit propagation does on the extended CNF encoding (a
///   cell's or a unit's at-least-one clause left with one literal), so it is also the share a SAT
///   solver settles before its first decision on that encoding. Measured up to 64x64 (`None`
///   above).
/// - `nodes` and `guesses`: the native backend's search nodes and guesses when it counts the
///   solutions to two (proving uniqueness): 1 and 0 when its propagation alone solves the puzzle.
/// - `conflicts` and `decisions`: the SAT backend's, when the cross-check ran it and its solver
///   reports them (CaDiCaL; varisat does not).
///
/// The [`Level`] is read from the first two: easy when singles fill every blank, medium when the
/// native backend needs no guess, hard up to [`Level::HARD_GUESSES`] guesses, extreme above.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difficulty {
    /// The level.
    pub level: Level,
    /// The share of the blanks that singles fill (0 to 1; 1 for a puzzle without blanks); `None`
    /// above 64x64, or when not asked for (see [`Generator::singles`](super::Generator::singles)).
    pub singles: Option<f64>,
    /// The native backend's search nodes, counting to two.
    pub nodes: u64,
    /// The native backend's guesses, counting to two.
    pub guesses: u64,
    /// The SAT solver's conflicts, when known.
    pub conflicts: Option<u64>,
    /// The SAT solver's decisions, when known.
    pub decisions: Option<u64>,
}

impl Difficulty {
    /// The measure of `puzzle` from the native backend's report of a count to two (`dfs`) and,
    /// if there is one, the SAT backend's (`sat`).
    pub fn from_reports(
        units: &Units,
        puzzle: &Grid,
        dfs: &Report,
        sat: Option<&Report>,
    ) -> Difficulty {
        Difficulty::measured(units, puzzle, dfs, sat, true)
    }

    /// [`Difficulty::from_reports`]; with `singles` false, the share of singles only where the
    /// native backend needed no guess (where the level depends on it: a puzzle that singles solve
    /// needs no guess), `None` elsewhere.
    pub(crate) fn measured(
        units: &Units,
        puzzle: &Grid,
        dfs: &Report,
        sat: Option<&Report>,
        singles: bool,
    ) -> Difficulty {
        let singles = if singles || dfs.stats.guesses == 0 {
            singles_share(units, puzzle)
        } else {
            None
        };
        let (nodes, guesses) = (dfs.stats.nodes, dfs.stats.guesses);
        let level = if singles == Some(1.0) {
            Level::Easy
        } else if guesses == 0 {
            Level::Medium
        } else if guesses <= Level::HARD_GUESSES {
            Level::Hard
        } else {
            Level::Extreme
        };
        let mut d = Difficulty {
            level,
            singles,
            nodes,
            guesses,
            conflicts: None,
            decisions: None,
        };
        if let Some(sat) = sat {
            d.add_sat(sat);
        }
        d
    }

    /// Adds the SAT backend's conflicts and decisions from its report, if its solver counts them
    /// (one that does not leaves both at zero).
    pub(crate) fn add_sat(&mut self, sat: &Report) {
        if sat.stats.conflicts + sat.stats.guesses > 0 {
            self.conflicts = Some(sat.stats.conflicts);
            self.decisions = Some(sat.stats.guesses);
        }
    }

    /// Measures `puzzle` (any puzzle, unique or not): singles, then the native backend counting to
    /// two within `limits`' budget and timeout (no SAT figures).
    ///
    /// # Errors
    /// The native backend's, e.g. a puzzle whose shape is not that of `units`.
    ///
    /// # Examples
    /// ```
    /// use satdoku::generate::{Difficulty, Level};
    /// use satdoku::{Grid, Limits, Shape, Units};
    /// let shape = Shape::new(3, 3).unwrap();
    /// let line = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    /// let values = line.bytes().map(|b| if b == b'.' { 0 } else { u16::from(b - b'0') }).collect();
    /// let puzzle = Grid::from_values(shape, values).unwrap();
    /// let d = Difficulty::measure(&Units::standard(shape), &puzzle, &Limits::unique()).unwrap();
    /// assert_eq!(d.level, Level::Extreme);
    /// ```
    pub fn measure(
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
    ) -> Result<Difficulty, SolveError> {
        let limits = Limits::unique()
            .with_budget(limits.budget())
            .with_timeout(limits.timeout());
        let report = DfsBackend::new().solve(units, puzzle, &limits)?;
        Ok(Difficulty::from_reports(units, puzzle, &report, None))
    }
}

/// The share of the blanks of `puzzle` that naked and hidden singles fill (with the relations'
/// eliminations), up to 64x64; 1 when there is no blank. A contradiction stops the count.
pub(crate) fn singles_share(units: &Units, puzzle: &Grid) -> Option<f64> {
    let n = units.shape().n();
    if n > 64 {
        return None;
    }
    let blanks = puzzle.values().iter().filter(|&&v| v == 0).count();
    if blanks == 0 {
        return Some(1.0);
    }
    let filled = TABLES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.as_ref().is_none_or(|t| t.id != units.id()) {
            *cache = Some(Tables::new(units));
        }
        let t = cache.as_ref().expect("just built");
        Singles::new(t).run(puzzle.values())
    });
    Some(filled as f64 / blanks as f64)
}

thread_local! {
    /// The flat tables of the last unit list measured on this thread (a run measures many puzzles
    /// under one list).
    static TABLES: RefCell<Option<Tables>> = const { RefCell::new(None) };
}

/// A unit list flattened for [`Singles`]: each unit's cells, each cell's peers (cells sharing a
/// unit) and related cells.
struct Tables {
    id: u64,
    n: usize,
    /// Unit `u`'s cells: `unit_cells[u * n..(u + 1) * n]`.
    unit_cells: Vec<u16>,
    /// Cell `c`'s peers: `peers[peer_at[c]..peer_at[c + 1]]`.
    peers: Vec<u16>,
    peer_at: Vec<usize>,
    /// For each cell the cells related to it, the relation, and whether the cell is the
    /// relation's first (a thermometer's `Less` reads one way).
    related: Vec<Vec<(u16, RelationKind, bool)>>,
    /// The value of digit 1 (1, or 0 on a zero-based grid): relations are of values.
    base: i32,
}

impl Tables {
    fn new(units: &Units) -> Tables {
        let n = units.shape().n();
        let cells = units.shape().cells();
        let unit_cells = units
            .units()
            .iter()
            .flat_map(|u| u.cells.iter().map(|c| c.index() as u16))
            .collect();
        let (mut peers, mut peer_at) = (Vec::new(), vec![0]);
        let mut mark = vec![usize::MAX; cells];
        for c in 0..cells {
            for &u in units.units_of(Cell::new(c)) {
                for p in &units.units()[u as usize].cells {
                    let p = p.index();
                    if p != c && mark[p] != c {
                        mark[p] = c;
                        peers.push(p as u16);
                    }
                }
            }
            peer_at.push(peers.len());
        }
        let mut related = vec![
            Vec::new();
            if units.relations().is_empty() {
                0
            } else {
                cells
            }
        ];
        for r in units.relations() {
            related[r.a.index()].push((r.b.index() as u16, r.kind, true));
            related[r.b.index()].push((r.a.index() as u16, r.kind, false));
        }
        Tables {
            id: units.id(),
            n,
            unit_cells,
            peers,
            peer_at,
            related,
            base: units.base(),
        }
    }
}

/// Naked and hidden singles over masks of up to 64 digits (bit `d - 1` for digit `d`).
struct Singles<'a> {
    t: &'a Tables,
    cand: Vec<u64>,
    values: Vec<u16>,
    queue: Vec<(u16, u16)>,
}

impl<'a> Singles<'a> {
    fn new(t: &'a Tables) -> Singles<'a> {
        let cells = t.peer_at.len() - 1;
        Singles {
            t,
            cand: vec![all(t.n); cells],
            values: vec![0; cells],
            queue: Vec::new(),
        }
    }

    /// Places the givens of `puzzle`, then singles until nothing changes: the blanks filled.
    /// Naked singles are queued as they appear (a peer left with one candidate); hidden singles
    /// are looked for, unit by unit, once the naked ones have run out.
    fn run(mut self, puzzle: &[u16]) -> usize {
        let mut givens = 0;
        for (i, &v) in puzzle.iter().enumerate() {
            if v != 0 {
                self.queue.push((i as u16, v));
                givens += 1;
            }
        }
        let n = self.t.n;
        let mut placed = 0;
        while let Some(k) = self.drain() {
            placed += k;
            // Hidden singles: a digit of a unit seen in one open cell only.
            for unit in self.t.unit_cells.chunks_exact(n) {
                let (mut once, mut twice, mut done) = (0u64, 0u64, 0u64);
                for &c in unit {
                    let m = self.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                    let v = self.values[c as usize];
                    done |= u64::from(v != 0) << (v.max(1) - 1);
                }
                let mut hidden = once & !twice & !done;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    if let Some(&c) = unit.iter().find(|&&c| self.cand[c as usize] & bit != 0) {
                        self.queue.push((c, bit.trailing_zeros() as u16 + 1));
                    }
                }
            }
            if self.queue.is_empty() {
                break;
            }
        }
        // The givens were placed first; they are not blanks filled.
        placed.saturating_sub(givens)
    }

    /// Places what is queued, and the naked singles that appear meanwhile: the cells filled, or
    /// `None` on a contradiction (the count then stops at the drains before this one).
    fn drain(&mut self) -> Option<usize> {
        let mut filled = 0;
        while let Some((i, v)) = self.queue.pop() {
            let i = usize::from(i);
            let bit = 1u64 << (v - 1);
            match self.values[i] {
                0 if self.cand[i] & bit != 0 => {}
                w if w == v => continue,
                _ => return None,
            }
            self.values[i] = v;
            self.cand[i] = 0;
            filled += 1;
            let mut dead = false;
            for &p in &self.t.peers[self.t.peer_at[i]..self.t.peer_at[i + 1]] {
                dead |= self.take(usize::from(p), bit);
            }
            if let Some(related) = self.t.related.get(i) {
                let value = |d: u16| i32::from(d) - 1 + self.t.base;
                for &(j, kind, first) in related {
                    let mut gone = 0u64;
                    for d in 1..=self.t.n as u16 {
                        let (a, b) = if first {
                            (value(v), value(d))
                        } else {
                            (value(d), value(v))
                        };
                        if !kind.allows(a, b) {
                            gone |= 1u64 << (d - 1);
                        }
                    }
                    dead |= self.take(usize::from(j), gone);
                }
            }
            if dead {
                return None;
            }
        }
        Some(filled)
    }

    /// Takes `digits` from open cell `p`: queues it if one candidate is left; whether none is.
    #[inline]
    fn take(&mut self, p: usize, digits: u64) -> bool {
        let m = self.cand[p];
        if self.values[p] != 0 || m & digits == 0 {
            return false;
        }
        let left = m & !digits;
        self.cand[p] = left;
        if left != 0 && left & (left - 1) == 0 {
            self.queue
                .push((p as u16, left.trailing_zeros() as u16 + 1));
        }
        left == 0
    }
}

/// Digits 1..=n as a mask.
fn all(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::testing::grid;

    fn nine(line: &str) -> Grid {
        grid(Shape::new(3, 3).unwrap(), &line.replace('.', "0"))
    }

    #[test]
    fn singles_fill_an_easy_puzzle_and_not_a_hard_one() {
        let units = Units::standard(Shape::new(3, 3).unwrap());
        // Project Euler 96, grid 01: singles alone solve it.
        let easy = nine(
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
        );
        assert_eq!(singles_share(&units, &easy), Some(1.0));
        let d = Difficulty::measure(&units, &easy, &Limits::unique()).unwrap();
        assert_eq!((d.level, d.guesses), (Level::Easy, 0));
        // top95 #1: singles fill few cells, the native backend's propagation all of them.
        let medium = nine(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let share = singles_share(&units, &medium).unwrap();
        assert!(share < 0.5, "{share}");
        let d = Difficulty::measure(&units, &medium, &Limits::unique()).unwrap();
        assert_eq!((d.level, d.guesses), (Level::Medium, 0), "{d:?}");
        // The first of the forum's hardest (rated above 11): many guesses.
        let extreme = nine(
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        );
        let d = Difficulty::measure(&units, &extreme, &Limits::unique()).unwrap();
        assert_eq!(d.level, Level::Extreme, "{d:?}");
        assert!(d.singles.unwrap() < share);
    }

    #[test]
    fn a_full_grid_is_easy_and_a_contradiction_fills_nothing() {
        let shape = Shape::new(2, 2).unwrap();
        let units = Units::standard(shape);
        assert_eq!(
            singles_share(&units, &grid(shape, "1234 3412 2143 4321")),
            Some(1.0)
        );
        // Two blanks in row 1, both needing a 4: the second placement contradicts.
        let clash = grid(shape, "1200 0034 0000 0000");
        assert!(singles_share(&units, &clash).unwrap() < 1.0);
    }

    #[test]
    fn relations_read_each_way() {
        // A thermometer along row 1 of 4x4 (r1c1 < r1c2 < r1c3 < r1c4), the tip's 4 given: read
        // from the tip it leaves r1c3 the digits below 4 (read the other way, none, a
        // contradiction); the columns' singles then fill the row.
        let shape = Shape::new(2, 2).unwrap();
        let thermo = crate::clue::Clue::Thermo {
            cells: (0..4).map(Cell::new).collect(),
        };
        let units = Units::rules(shape).clue(thermo).build().unwrap();
        let puzzle = grid(shape, "0004 3412 2143 4321");
        assert_eq!(singles_share(&units, &puzzle), Some(1.0));
        let d = Difficulty::measure(&units, &puzzle, &Limits::unique()).unwrap();
        assert_eq!(d.level, Level::Easy);
    }

    #[test]
    fn levels_parse_and_order() {
        assert_eq!("Hard".parse::<Level>(), Ok(Level::Hard));
        assert!("brutal".parse::<Level>().is_err());
        assert!(Level::Easy < Level::Medium && Level::Hard < Level::Extreme);
    }
}
