//! The rules as setters state them ([`Clue`]: thermometers, arrows, kropki dots, little killers,
//! sandwiches, …), and their lowering into the few primitives the backends reason about: all-different
//! groups, pairwise [`Relation`]s, weighted [`SumRule`]s, [`LineRule`]s (automata over a line,
//! `automaton.rs`) and candidate sets. Each kind of clue is data here: which cells, which relation
//! table, which sum, which automaton; neither backend knows the kinds. The verifier checks the clues
//! as stated, on its own (`verify.rs`).
//!
//! Values are the digits as written: on a grid whose digits run from 0 (a zero-based grid, sigh's
//! `0-8`) digit d has the value d − 1; sums, sandwiches and kropki dots are of values.

use std::collections::HashMap;
use std::sync::Arc;

use crate::automaton::{Automaton, Distinct, Layered, TooLarge, unroll, unroll_within};
use crate::constraint::{LineRule, Relation, RelationKind, SumRule, Variant, WindowRule};
use crate::grid::{Cell, DigitSet, Shape};
use crate::nfa::NfaLine;

/// A rule on some cells, as setters state it (see the module docs for values). Cells are in the
/// order that matters to the rule (a thermometer from its bulb, an arrow from its circle, an outside
/// clue from the side it is written on).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Clue {
    /// The cell holds one of these values (pencilmarks, odd or even cells).
    Candidates {
        /// The cell.
        cell: Cell,
        /// Its allowed values, ascending.
        values: Vec<i32>,
    },
    /// The cells hold different digits.
    AllDifferent {
        /// The cells.
        cells: Vec<Cell>,
    },
    /// One main diagonal holds different digits: r1c1 to rNcN, or (`anti`) r1cN to rNc1.
    Diagonal {
        /// The anti-diagonal rather than the main one.
        anti: bool,
    },
    /// Kropki dots: each orthogonally adjacent pair of the cells (usually two) holds consecutive
    /// values (white) or one value double the other (black).
    Kropki {
        /// A black dot.
        black: bool,
        /// The cells.
        cells: Vec<Cell>,
    },
    /// X (10) and V (5): each orthogonally adjacent pair of the cells adds up to `sum`.
    Xv {
        /// 5 or 10.
        sum: i32,
        /// The cells.
        cells: Vec<Cell>,
    },
    /// Greater than: each cell is above every later cell orthogonally adjacent to it.
    GreaterThan {
        /// The cells.
        cells: Vec<Cell>,
    },
    /// A thermometer: strictly increasing from the bulb.
    Thermo {
        /// The cells, bulb first.
        cells: Vec<Cell>,
    },
    /// Whispers: neighbours on the line differ by at least `diff` (German whispers: 5).
    Whisper {
        /// The least difference.
        diff: i32,
        /// The line.
        cells: Vec<Cell>,
    },
    /// Renban: the line holds a set of consecutive values, each once, in any order.
    Renban {
        /// The line.
        cells: Vec<Cell>,
    },
    /// Palindrome: the line reads the same both ways.
    Palindrome {
        /// The line.
        cells: Vec<Cell>,
    },
    /// Modular line: every run of `modulus` cells holds different values modulo `modulus`.
    Modular {
        /// The modulus.
        modulus: i32,
        /// The line.
        cells: Vec<Cell>,
    },
    /// Entropic line: every run of three cells holds a low (1-3), a middle (4-6) and a high (7-9)
    /// digit.
    Entropic {
        /// The line.
        cells: Vec<Cell>,
    },
    /// Zipper: cells equally far from the middle add up to the same; on an odd line, to the middle
    /// cell.
    Zipper {
        /// The line.
        cells: Vec<Cell>,
    },
    /// Between line: the cells between the two ends hold values strictly between theirs.
    Between {
        /// The line, ends first and last.
        cells: Vec<Cell>,
    },
    /// Lockout line: the ends differ by at least `diff` and the cells between hold values outside
    /// the range from one end to the other.
    Lockout {
        /// The least difference of the ends.
        diff: i32,
        /// The line, ends first and last.
        cells: Vec<Cell>,
    },
    /// Region-sum line: each stretch of the line inside one box (or jigsaw region, on a grid without
    /// boxes) adds up to the same.
    RegionSumLine {
        /// The line.
        cells: Vec<Cell>,
    },
    /// Sum line: the line divides into stretches that each add up to `sum` (`looped`: the line is a
    /// loop, and a stretch may run over its end into its start).
    SumLine {
        /// Each stretch's sum.
        sum: i32,
        /// A closed loop.
        looped: bool,
        /// The line.
        cells: Vec<Cell>,
    },
    /// Arrow: the circle equals the sum along the arrow. A pill arrow's circle is `pill` cells read
    /// as one number, in reading order.
    Arrow {
        /// Cells of the circle (1 for a plain arrow, 2 or 3 for a pill).
        pill: usize,
        /// The circle's cells, then the arrow's.
        cells: Vec<Cell>,
    },
    /// Double arrow: the two ends add up to the cells between them.
    DoubleArrow {
        /// The line, ends first and last.
        cells: Vec<Cell>,
    },
    /// Little killer: the values along a diagonal add up to `sum` (they may repeat).
    LittleKiller {
        /// The sum.
        sum: i32,
        /// The diagonal, from the clue's end.
        cells: Vec<Cell>,
    },
    /// A weighted sum: Σ `coeffs[i]` · value(`cells[i]`) = `sum` (values may repeat).
    Sum {
        /// The total.
        sum: i32,
        /// One coefficient per cell.
        coeffs: Vec<i32>,
        /// The cells.
        cells: Vec<Cell>,
    },
    /// Equal sums: each segment adds up to the same.
    EqualSum {
        /// The segments, each at least one cell.
        segments: Vec<Vec<Cell>>,
    },
    /// Sandwich: the cells between the smallest and the largest value of the row or column (1 and
    /// 9 on a classic grid) add up to `sum`.
    Sandwich {
        /// The sum.
        sum: i32,
        /// The row or column, from the clue's side.
        cells: Vec<Cell>,
    },
    /// Lunchbox: the cells, all different, between the smallest and the largest of them add up to
    /// `sum`.
    Lunchbox {
        /// The sum.
        sum: i32,
        /// The cells, in order.
        cells: Vec<Cell>,
    },
    /// X-sum: the first X cells add up to `sum`, X being the first cell's value.
    XSum {
        /// The sum.
        sum: i32,
        /// The row or column, from the clue's side.
        cells: Vec<Cell>,
    },
    /// Skyscraper: `count` cells are seen from the clue's side, each taller than every one before it
    /// (a 0 is no building).
    Skyscraper {
        /// The buildings seen.
        count: i32,
        /// The row or column, from the clue's side.
        cells: Vec<Cell>,
    },
    /// Hidden skyscraper: the first cell hidden from the clue's side (some earlier cell is at least
    /// as tall) holds `value`.
    HiddenSkyscraper {
        /// The first hidden building's height.
        value: i32,
        /// The row or column, from the clue's side.
        cells: Vec<Cell>,
    },
    /// Numbered room: the X-th cell from the clue's side holds `value` (and no other does), X being
    /// the first cell's value.
    NumberedRoom {
        /// The value.
        value: i32,
        /// The row or column, from the clue's side.
        cells: Vec<Cell>,
    },
    /// Quadruple: the 2x2 cells around a point hold these values (a value listed twice, at least
    /// twice).
    Quad {
        /// The four cells: top-left, top-right, bottom-left, bottom-right.
        cells: Vec<Cell>,
        /// The values.
        values: Vec<i32>,
    },
    /// Indexing: a cell in column c holding k means the k-th cell of its row holds c (column
    /// indexing), or with rows and columns swapped (row indexing).
    Indexing {
        /// Row indexing rather than column indexing.
        rows: bool,
        /// The indexing cells.
        cells: Vec<Cell>,
    },
    /// Counting circles: a value in a circle is the number of circles holding it.
    CountingCircles {
        /// The circles.
        cells: Vec<Cell>,
    },
    /// Same values: the cells, split into `sets` equal runs, hold the same values in each run
    /// (counts included).
    SameValues {
        /// The runs.
        sets: usize,
        /// The cells, run after run.
        cells: Vec<Cell>,
    },
    /// Rellik cage: different values, no one or more of which add up to `sum`.
    Rellik {
        /// The sum no subset reaches.
        sum: i32,
        /// The cells.
        cells: Vec<Cell>,
    },
    /// Value indexing: the second cell's value k points along the rest of the line: its k-th cell
    /// holds the first cell's value.
    ValueIndexing {
        /// The value cell, the control cell, then the indexed cells.
        cells: Vec<Cell>,
    },
    /// Look and say: each listed value appears exactly its count of times among the cells (a count
    /// of 0: not at all); other values are free.
    LookAndSay {
        /// (value, count) pairs, each value once.
        counts: Vec<(i32, i32)>,
        /// The cells.
        cells: Vec<Cell>,
    },
    /// Equality cage: different values, as many even as odd and as many low as high (the lower and
    /// upper halves of the values; the middle value of an odd count is not allowed).
    EqualityCage {
        /// The cells.
        cells: Vec<Cell>,
    },
    /// Every 2x2 square of the grid holds a value of each of three classes: low, middle and high
    /// (1-3, 4-6, 7-9: global entropy), or with `modular`, 1-4-7, 2-5-8 and 3-6-9 (global mod 3).
    Global2x2 {
        /// The classes modulo 3 rather than by thirds.
        modular: bool,
    },
    /// A binary relation given as a table, on each consecutive pair of the cells (or, with `all`,
    /// on every pair, the earlier cell first).
    Pair {
        /// Every pair rather than consecutive ones.
        all: bool,
        /// Per 0-based digit index of the first cell, the set of digit indices the second may hold
        /// (bit j: digit j + 1).
        table: Vec<u64>,
        /// The cells.
        cells: Vec<Cell>,
    },
    /// The values along each segment, read in order (segments joined by a break symbol), form a
    /// word a finite automaton accepts (sigh's `NFA` and `Regex`).
    Nfa {
        /// The automaton.
        nfa: std::sync::Arc<crate::nfa::Nfa>,
        /// The segments, each at least one cell.
        segments: Vec<Vec<Cell>>,
    },
}

impl Clue {
    /// The keyword of the clue's line in satdoku's text format (`thermo`, `little-killer`, …), which
    /// is also how messages name it.
    pub fn keyword(&self) -> &'static str {
        match self {
            Clue::Candidates { .. } => "candidates",
            Clue::AllDifferent { .. } => "all-different",
            Clue::Diagonal { .. } => "diagonal",
            Clue::Kropki { .. } => "kropki",
            Clue::Xv { .. } => "xv",
            Clue::GreaterThan { .. } => "greater",
            Clue::Thermo { .. } => "thermo",
            Clue::Whisper { .. } => "whisper",
            Clue::Renban { .. } => "renban",
            Clue::Palindrome { .. } => "palindrome",
            Clue::Modular { .. } => "modular",
            Clue::Entropic { .. } => "entropic",
            Clue::Zipper { .. } => "zipper",
            Clue::Between { .. } => "between",
            Clue::Lockout { .. } => "lockout",
            Clue::RegionSumLine { .. } => "region-sum",
            Clue::SumLine { .. } => "sum-line",
            Clue::Arrow { .. } => "arrow",
            Clue::DoubleArrow { .. } => "double-arrow",
            Clue::LittleKiller { .. } => "little-killer",
            Clue::Sum { .. } => "sum",
            Clue::EqualSum { .. } => "equal-sum",
            Clue::Sandwich { .. } => "sandwich",
            Clue::Lunchbox { .. } => "lunchbox",
            Clue::XSum { .. } => "x-sum",
            Clue::Skyscraper { .. } => "skyscraper",
            Clue::HiddenSkyscraper { .. } => "hidden-skyscraper",
            Clue::NumberedRoom { .. } => "numbered-room",
            Clue::Quad { .. } => "quad",
            Clue::Indexing { .. } => "indexing",
            Clue::CountingCircles { .. } => "counting-circles",
            Clue::SameValues { .. } => "same-values",
            Clue::Rellik { .. } => "rellik",
            Clue::ValueIndexing { .. } => "value-indexing",
            Clue::LookAndSay { .. } => "look-and-say",
            Clue::EqualityCage { .. } => "equality-cage",
            Clue::Global2x2 { modular: false } => "global-entropy",
            Clue::Global2x2 { modular: true } => "global-mod",
            Clue::Pair { all: false, .. } => "pair",
            Clue::Pair { all: true, .. } => "pair-all",
            Clue::Nfa { .. } => "automaton",
        }
    }

    /// How a message names the clue: its keyword, with the kind of dot or the number it carries
    /// (`kropki white`, `xv 10`, `little-killer 23`).
    pub fn title(&self) -> String {
        let k = self.keyword();
        match self {
            Clue::Kropki { black, .. } => {
                format!("{k} {}", if *black { "black" } else { "white" })
            }
            Clue::Diagonal { anti } => format!("{k} {}", if *anti { "anti" } else { "main" }),
            Clue::Xv { sum, .. }
            | Clue::SumLine { sum, .. }
            | Clue::LittleKiller { sum, .. }
            | Clue::Sum { sum, .. }
            | Clue::Sandwich { sum, .. }
            | Clue::Lunchbox { sum, .. }
            | Clue::XSum { sum, .. }
            | Clue::Rellik { sum, .. } => format!("{k} {sum}"),
            Clue::Whisper { diff, .. } | Clue::Lockout { diff, .. } => format!("{k} {diff}"),
            Clue::Modular { modulus, .. } => format!("{k} {modulus}"),
            Clue::Skyscraper { count, .. } => format!("{k} {count}"),
            Clue::HiddenSkyscraper { value, .. } | Clue::NumberedRoom { value, .. } => {
                format!("{k} {value}")
            }
            Clue::Indexing { rows, .. } => {
                format!("{k} {}", if *rows { "row" } else { "column" })
            }
            Clue::SameValues { sets, .. } => format!("{k} {sets}"),
            Clue::LookAndSay { counts, .. } => {
                let v: Vec<String> = counts.iter().map(|(v, c)| format!("{c}x{v}")).collect();
                format!("{k} {}", v.join(" "))
            }
            Clue::Nfa { nfa, .. } => format!("{k} {}", nfa.name()),
            _ => k.to_string(),
        }
    }

    /// Every cell the clue names (a segment's or pill's cells included), in its order; the diagonal
    /// names none.
    pub fn cells(&self) -> Vec<Cell> {
        match self {
            Clue::Candidates { cell, .. } => vec![*cell],
            Clue::Diagonal { .. } | Clue::Global2x2 { .. } => Vec::new(),
            Clue::EqualSum { segments } | Clue::Nfa { segments, .. } => segments.concat(),
            Clue::AllDifferent { cells }
            | Clue::Kropki { cells, .. }
            | Clue::Xv { cells, .. }
            | Clue::GreaterThan { cells }
            | Clue::Thermo { cells }
            | Clue::Whisper { cells, .. }
            | Clue::Renban { cells }
            | Clue::Palindrome { cells }
            | Clue::Modular { cells, .. }
            | Clue::Entropic { cells }
            | Clue::Zipper { cells }
            | Clue::Between { cells }
            | Clue::Lockout { cells, .. }
            | Clue::RegionSumLine { cells }
            | Clue::SumLine { cells, .. }
            | Clue::Arrow { cells, .. }
            | Clue::DoubleArrow { cells }
            | Clue::LittleKiller { cells, .. }
            | Clue::Sum { cells, .. }
            | Clue::Sandwich { cells, .. }
            | Clue::Lunchbox { cells, .. }
            | Clue::XSum { cells, .. }
            | Clue::Skyscraper { cells, .. }
            | Clue::HiddenSkyscraper { cells, .. }
            | Clue::NumberedRoom { cells, .. }
            | Clue::Quad { cells, .. }
            | Clue::Indexing { cells, .. }
            | Clue::CountingCircles { cells }
            | Clue::SameValues { cells, .. }
            | Clue::Rellik { cells, .. }
            | Clue::ValueIndexing { cells }
            | Clue::LookAndSay { cells, .. }
            | Clue::EqualityCage { cells }
            | Clue::Pair { cells, .. } => cells.clone(),
        }
    }

    /// The orthogonally adjacent pairs of a dot, X/V or greater-than clue's cells, each once, the
    /// earlier cell of the list first (sigh's reading of a clue over more than two cells).
    pub(crate) fn adjacent_pairs(&self, shape: Shape) -> Vec<(Cell, Cell)> {
        let cells = match self {
            Clue::Kropki { cells, .. } | Clue::Xv { cells, .. } | Clue::GreaterThan { cells } => {
                cells
            }
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                if adjacent(shape, a, b) && !out.contains(&(a, b)) && !out.contains(&(b, a)) {
                    out.push((a, b));
                }
            }
        }
        out
    }
}

/// Whether two cells share a side.
pub(crate) fn adjacent(shape: Shape, a: Cell, b: Cell) -> bool {
    let (ra, ca) = (a.row(shape), a.col(shape));
    let (rb, cb) = (b.row(shape), b.col(shape));
    ra.abs_diff(rb) + ca.abs_diff(cb) == 1
}

/// What the lowering of a clue needs to know of the grid.
pub(crate) struct LowerCtx<'a> {
    /// The grid's shape.
    pub shape: Shape,
    /// The value of digit 1 (1, or 0 on a zero-based grid).
    pub base: i32,
    /// The region of each cell (boxes, or jigsaw regions on a grid without boxes), for region-sum
    /// lines; `None` when the grid has neither.
    pub regions: Option<&'a [usize]>,
}

impl LowerCtx<'_> {
    /// The values of the digits, by 0-based digit index.
    pub fn values(&self) -> Vec<i32> {
        (0..self.shape.n() as i32).map(|d| d + self.base).collect()
    }

    /// The digits (as a set) whose values satisfy `keep`.
    fn digits_where(&self, keep: impl Fn(i32) -> bool) -> DigitSet {
        let mut set = DigitSet::EMPTY;
        for d in 1..=self.shape.n() as u16 {
            if keep(i32::from(d) - 1 + self.base)
                && let Some(digit) = crate::grid::Digit::new(d)
            {
                set.insert(digit);
            }
        }
        set
    }
}

/// The primitives the clues lower into.
#[derive(Default)]
pub(crate) struct Lowered {
    /// Cells that hold different digits.
    pub groups: Vec<Vec<Cell>>,
    /// Pairwise relations.
    pub relations: Vec<Relation>,
    /// Weighted sums.
    pub sums: Vec<SumRule>,
    /// Automata over lines.
    pub lines: Vec<LineRule>,
    /// The sets of digits lines hold (renban).
    pub window_rules: Vec<WindowRule>,
    /// Candidate sets of cells (intersected when a cell has several).
    pub candidates: Vec<(Cell, DigitSet)>,
    /// The lines unrolled so far from automata that a key names wholly ([`Lowered::line_shared`]).
    unrolled: HashMap<(LineKey, usize, bool), Arc<Layered>>,
}

/// What names an outside clue's automaton: the clue type and its parameters.
type LineKey = (&'static str, [i32; 4]);

/// Why a clue cannot be lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LowerError {
    /// The automaton of a line grew past [`crate::automaton::MAX_EDGES`].
    TooLarge,
    /// Something the clue needs does not hold (too few cells, a value out of range): the reason.
    Invalid(&'static str),
}

impl From<TooLarge> for LowerError {
    fn from(_: TooLarge) -> LowerError {
        LowerError::TooLarge
    }
}

impl Lowered {
    fn pairs(&mut self, kind: RelationKind, pairs: impl IntoIterator<Item = (Cell, Cell)>) {
        for (a, b) in pairs {
            self.relations.push(Relation { kind, a, b });
        }
    }

    fn line<A: Automaton>(
        &mut self,
        ctx: &LowerCtx<'_>,
        cells: &[Cell],
        automaton: &A,
    ) -> Result<(), LowerError> {
        let graph = unroll(automaton, cells.len(), &ctx.values())?;
        self.lines.push(LineRule {
            cells: cells.to_vec(),
            graph: Arc::new(graph),
            clue: None,
        });
        Ok(())
    }

    /// A line of `automaton` over `cells`; when the cells hold different values (`distinct`: a
    /// whole house, a lunchbox), the automaton is told so ([`Distinct`]) while it stays within
    /// [`DISTINCT_EDGES`], and left as it is past that.
    fn line_of<A: Automaton>(
        &mut self,
        ctx: &LowerCtx<'_>,
        cells: &[Cell],
        automaton: &A,
        distinct: bool,
    ) -> Result<(), LowerError> {
        if distinct {
            let told = Distinct::new(automaton, ctx.base);
            if let Ok(graph) = unroll_within(&told, cells.len(), &ctx.values(), DISTINCT_EDGES) {
                self.lines.push(LineRule {
                    cells: cells.to_vec(),
                    graph: Arc::new(graph),
                    clue: None,
                });
                return Ok(());
            }
        }
        self.line(ctx, cells, automaton)
    }

    /// [`Lowered::line_of`] for an automaton that `key` names wholly: the lines of one puzzle with
    /// the same key, length and `distinct` share one unrolled graph (a puzzle's outside clues
    /// repeat few values: the 36 hidden skyscrapers of a 9x9 puzzle are at most 9 automata, and
    /// unrolling each was a fifth of such a puzzle's time).
    fn line_shared<A: Automaton>(
        &mut self,
        ctx: &LowerCtx<'_>,
        cells: &[Cell],
        automaton: &A,
        distinct: bool,
        key: LineKey,
    ) -> Result<(), LowerError> {
        let key = (key, cells.len(), distinct);
        if let Some(graph) = self.unrolled.get(&key) {
            self.lines.push(LineRule {
                cells: cells.to_vec(),
                graph: Arc::clone(graph),
                clue: None,
            });
            return Ok(());
        }
        self.line_of(ctx, cells, automaton, distinct)?;
        if let Some(line) = self.lines.last() {
            self.unrolled.insert(key, Arc::clone(&line.graph));
        }
        Ok(())
    }

    fn linear(&mut self, ctx: &LowerCtx<'_>, terms: &[(Cell, i32)], total: i32) {
        let (cells, coeffs): (Vec<Cell>, Vec<i32>) = terms.iter().copied().unzip();
        self.sums.push(SumRule::linear(
            cells,
            &coeffs,
            total,
            ctx.shape.n(),
            ctx.base,
        ));
    }

    /// Σ [value of cell = v] over `cells` in `totals`.
    fn count(&mut self, ctx: &LowerCtx<'_>, cells: &[Cell], v: i32, totals: Vec<i32>) {
        let weights = cells
            .iter()
            .map(|_| ctx.values().iter().map(|&x| i32::from(x == v)).collect())
            .collect();
        self.sums.push(SumRule {
            cells: cells.to_vec(),
            weights,
            totals,
        });
    }
}

/// The most records the merging of [`combined_sums`] starts from (sums and cages of plain digits);
/// past it no sums are derived (the merging is quadratic in them).
const MAX_COMBINED_RECORDS: usize = 64;

/// The fewest cells of the smaller of two sums that must each differ from some cell of the other for
/// the two to be worth combining.
const MIN_RELATED_CELLS: usize = 6;

/// One sum of plain values over distinct cells, as [`combined_sums`] weighs it.
struct SumRecord {
    /// The cells, ascending.
    cells: Vec<Cell>,
    total: i64,
    /// What the sum is worth to the backends' reasoning (higher: tighter); see [`combined_sums`].
    score: i64,
    /// A sum of the rules (not derived).
    original: bool,
}

/// Derived sums: the sums of plain values over distinct cells (little killers, cages: `sums`, each
/// (cells, total)) combined two by two into one sum over both, when their cells are disjoint, at
/// least [`MIN_RELATED_CELLS`] cells of the smaller each differ from a cell of the other, and the
/// combined sum is tighter than each of them (or than both together). Tightness is a score over
/// the sum's groups of cells that must differ (`group_sizes`, the backends' grouping): per group
/// of k cells, k·(N − k) less the sum's slack (how far its total is from the nearer of its smallest
/// and largest reachable totals). The best combination is taken first and replaces its two parts,
/// greedily, until none improves. Two little killers of 33 and 31 on the long diagonals of 6x6,
/// say, become one sum of 64 over six boxes' pairs of cells (each at most 11): high digits in
/// every box, which neither sum alone says. The idea (not the code) is sigh's optimizer's combined sums (`optimizer.js`, Interactive
/// Sudoku Solver, MIT). Each derived sum is implied by its parts (the sum of two sums), so adding
/// it keeps every solution.
pub(crate) fn combined_sums(
    n: usize,
    base: i32,
    sums: &[(Vec<Cell>, i64)],
    differ: impl Fn(Cell, Cell) -> bool,
    group_sizes: impl Fn(&SumRule) -> Vec<usize>,
) -> Vec<SumRule> {
    if sums.len() < 2 || sums.len() > MAX_COMBINED_RECORDS {
        return Vec::new();
    }
    let rule = |cells: &[Cell], total: i64| -> Option<SumRule> {
        let total = i32::try_from(total).ok()?;
        Some(SumRule::linear(
            cells.to_vec(),
            &vec![1; cells.len()],
            total,
            n,
            base,
        ))
    };
    let record = |cells: Vec<Cell>, total: i64, original: bool| -> Option<SumRecord> {
        let (n, base) = (n as i64, i64::from(base));
        let (mut low, mut high, mut parts) = (0i64, 0i64, Vec::new());
        for k in group_sizes(&rule(&cells, total)?) {
            let k = k as i64;
            if k > n {
                return None;
            }
            low += k * base + k * (k - 1) / 2;
            high += k * (base + n - 1) - k * (k - 1) / 2;
            parts.push(k * (n - k));
        }
        if total < low || total > high {
            return None;
        }
        let slack = (total - low).min(high - total);
        let score = parts.iter().map(|p| p - slack).sum();
        Some(SumRecord {
            cells,
            total,
            score,
            original,
        })
    };
    let related = |a: &SumRecord, b: &SumRecord| -> bool {
        let (small, big) = if a.cells.len() < b.cells.len() {
            (a, b)
        } else {
            (b, a)
        };
        if small.cells.len() < MIN_RELATED_CELLS
            || small
                .cells
                .iter()
                .any(|c| big.cells.binary_search(c).is_ok())
        {
            return false;
        }
        let linked = small
            .cells
            .iter()
            .filter(|&&c| big.cells.iter().any(|&d| differ(c, d)))
            .count();
        linked >= MIN_RELATED_CELLS
    };
    let combine = |a: &SumRecord, b: &SumRecord| -> Option<SumRecord> {
        if !related(a, b) {
            return None;
        }
        let mut cells = [a.cells.as_slice(), b.cells.as_slice()].concat();
        cells.sort_unstable();
        let c = record(cells, a.total + b.total, false)?;
        let better = (c.score > a.score && c.score > b.score) || c.score > a.score + b.score;
        better.then_some(c)
    };
    // Records by id (`None` once merged into another), and the candidate combinations (ids of
    // the parts, the combined record), each pair weighed once.
    let mut records: Vec<Option<SumRecord>> = Vec::new();
    for (cells, total) in sums {
        let mut cells = cells.clone();
        cells.sort_unstable();
        let before = cells.len();
        cells.dedup();
        if cells.len() != before || records.iter().flatten().any(|r| r.cells == cells) {
            continue;
        }
        if let Some(r) = record(cells, *total, true) {
            records.push(Some(r));
        }
    }
    let mut candidates: Vec<(usize, usize, SumRecord)> = Vec::new();
    for i in 0..records.len() {
        for j in i + 1..records.len() {
            if let (Some(a), Some(b)) = (&records[i], &records[j])
                && let Some(c) = combine(a, b)
            {
                candidates.push((i, j, c));
            }
        }
    }
    loop {
        // Combinations whose parts are gone, or which exist already, drop out.
        candidates.retain(|(i, j, c)| {
            records[*i].is_some()
                && records[*j].is_some()
                && !records.iter().flatten().any(|r| r.cells == c.cells)
        });
        // The best (ties: the first found).
        let Some(at) = (0..candidates.len()).reduce(|a, b| {
            if candidates[b].2.score > candidates[a].2.score {
                b
            } else {
                a
            }
        }) else {
            break;
        };
        let (i, j, c) = candidates.swap_remove(at);
        records[i] = None;
        records[j] = None;
        let id = records.len();
        for (k, other) in records.iter().enumerate() {
            if let Some(o) = other
                && let Some(m) = combine(&c, o)
            {
                candidates.push((id, k, m));
            }
        }
        records.push(Some(c));
    }
    records
        .iter()
        .flatten()
        .filter(|r| !r.original && r.score > 0)
        .filter_map(|r| rule(&r.cells, r.total))
        .collect()
}

/// A sum of plain values (each cell's weights the values, one total) as (cells, total), the form
/// [`combined_sums`] reads: little killers and other sums with unit coefficients.
pub(crate) fn plain_sum(s: &SumRule, base: i32) -> Option<(Vec<Cell>, i64)> {
    let plain = s.totals.len() == 1
        && s.weights
            .iter()
            .all(|w| w.iter().enumerate().all(|(d, &x)| x == d as i32 + base));
    plain.then(|| (s.cells.clone(), i64::from(s.totals[0])))
}

/// Whether `cells` lie in one row or one column (whose cells always differ, on a rectangular grid
/// as well, where a row has fewer cells than digits).
fn one_row_or_col(shape: Shape, cells: &[Cell]) -> bool {
    let same = |key: fn(Shape, Cell) -> usize| {
        cells
            .windows(2)
            .all(|w| key(shape, w[0]) == key(shape, w[1]))
    };
    same(|s, c| c.row(s)) || same(|s, c| c.col(s))
}

/// The consecutive pairs of a line.
fn consecutive(cells: &[Cell]) -> impl Iterator<Item = (Cell, Cell)> + '_ {
    cells.windows(2).map(|w| (w[0], w[1]))
}

/// Every pair of the cells, in order.
fn all_pairs(cells: &[Cell]) -> Vec<(Cell, Cell)> {
    let mut out = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            out.push((a, b));
        }
    }
    out
}

/// Lowers `clue` into `out`.
pub(crate) fn lower(clue: &Clue, ctx: &LowerCtx<'_>, out: &mut Lowered) -> Result<(), LowerError> {
    let sums_before = out.sums.len();
    lower_clue(clue, ctx, out)?;
    // Both backends lay a sum out over the range of its weights (bit sets, partial-sum tables): a
    // range past the bound is refused here, not allocated there.
    if out.sums[sums_before..]
        .iter()
        .any(|s| s.range().1 - s.range().0 > MAX_SUM_SPAN)
    {
        return Err(LowerError::Invalid(
            "needs a sum whose terms span at most 65536 (smaller coefficients)",
        ));
    }
    Ok(())
}

/// The most edges (before pruning) a line told its values differ ([`Distinct`]) may have: a 9x9
/// sandwich or skyscraper has a few thousand; a 16x16 house's sets would pass it (and are then read
/// without them).
const DISTINCT_EDGES: usize = 200_000;

/// The widest range of a weighted sum's possible totals (largest less smallest) a rule may have.
pub(crate) const MAX_SUM_SPAN: i64 = 1 << 16;

fn lower_clue(clue: &Clue, ctx: &LowerCtx<'_>, out: &mut Lowered) -> Result<(), LowerError> {
    let shape = ctx.shape;
    let n = shape.n() as i32;
    let (lo, hi) = (ctx.base, ctx.base + n - 1);
    match clue {
        Clue::Candidates { cell, values } => {
            let set = ctx.digits_where(|v| values.contains(&v));
            out.candidates.push((*cell, set));
        }
        Clue::AllDifferent { cells } => {
            let mut distinct: Vec<Cell> = Vec::with_capacity(cells.len());
            for &c in cells {
                if !distinct.contains(&c) {
                    distinct.push(c);
                }
            }
            out.groups.push(distinct);
        }
        Clue::Diagonal { anti } => {
            if shape.rows() != shape.cols() {
                return Err(LowerError::Invalid("needs a square grid"));
            }
            let k = shape.rows();
            let cells = (0..k)
                .map(|r| Cell::at(shape, r, if *anti { k - 1 - r } else { r }))
                .collect();
            out.groups.push(cells);
        }
        Clue::Kropki { black, .. } => {
            let kind = if *black {
                RelationKind::Double
            } else {
                RelationKind::Consecutive
            };
            out.pairs(kind, clue.adjacent_pairs(shape));
        }
        Clue::Xv { sum, .. } => {
            let sum = u16::try_from(*sum)
                .map_err(|_| LowerError::Invalid("needs a sum of 0 to 65535"))?;
            out.pairs(RelationKind::SumTo(sum), clue.adjacent_pairs(shape));
        }
        Clue::GreaterThan { .. } => out.pairs(RelationKind::Greater, clue.adjacent_pairs(shape)),
        Clue::Thermo { cells } => out.pairs(RelationKind::Less, consecutive(cells)),
        Clue::Whisper { diff, cells } => {
            let d = u16::try_from(*diff)
                .map_err(|_| LowerError::Invalid("needs a difference of 0 to 65535"))?;
            out.pairs(RelationKind::Apart(d), consecutive(cells));
        }
        Clue::Renban { cells } => {
            let k = cells.len();
            let once = cells
                .iter()
                .enumerate()
                .all(|(i, c)| !cells[..i].contains(c));
            if once && k <= shape.n() {
                // Different digits, one of the runs of k: a group (peers) and the runs to choose
                // from. (The pairs "different, less than k apart" are implied: with them as well
                // the native search takes the same nodes on #163-#165 of sigh's corpus, a little
                // slower; the SAT encoder writes their support clauses itself.)
                out.groups.push(cells.clone());
                out.window_rules
                    .push(WindowRule::runs(cells.clone(), shape.n()));
            } else {
                // A cell twice, or more cells than digits: no digits fit (pairs say so).
                let k = u16::try_from(k).unwrap_or(u16::MAX);
                out.pairs(RelationKind::Near(k), all_pairs(cells));
            }
        }
        Clue::Palindrome { cells } => {
            let k = cells.len();
            let pairs = (0..k / 2).map(|i| (cells[i], cells[k - 1 - i]));
            out.pairs(RelationKind::Equal, pairs);
        }
        Clue::Modular { modulus, cells } => {
            let m = u16::try_from(*modulus)
                .ok()
                .filter(|&m| m >= 1)
                .ok_or(LowerError::Invalid("needs a modulus of 1 to 65535"))?;
            let first = &cells[..cells.len().min(m as usize)];
            out.pairs(RelationKind::ModDiffer(m), all_pairs(first));
            for start in 0..m as usize {
                let same: Vec<Cell> = cells
                    .iter()
                    .skip(start)
                    .step_by(m as usize)
                    .copied()
                    .collect();
                out.pairs(RelationKind::ModEqual(m), all_pairs(&same));
            }
        }
        Clue::Entropic { cells } => {
            if n != 9 || ctx.base != 1 {
                return Err(LowerError::Invalid("needs the digits 1-9"));
            }
            let mut pairs = Vec::new();
            for (i, &a) in cells.iter().enumerate() {
                for &b in cells.iter().skip(i + 1).take(2) {
                    pairs.push((a, b));
                }
            }
            out.pairs(RelationKind::OtherThird, pairs);
        }
        Clue::Zipper { cells } => {
            let k = cells.len();
            let pairs: Vec<(Cell, Cell)> =
                (0..k / 2).map(|i| (cells[i], cells[k - 1 - i])).collect();
            if k % 2 == 1 {
                let centre = cells[k / 2];
                for &(a, b) in &pairs {
                    out.linear(ctx, &[(a, 1), (b, 1), (centre, -1)], 0);
                }
            } else {
                for w in pairs.windows(2) {
                    let ((a, b), (c, d)) = (w[0], w[1]);
                    out.linear(ctx, &[(a, 1), (b, 1), (c, -1), (d, -1)], 0);
                }
            }
        }
        Clue::Between { cells } | Clue::Lockout { cells, .. } => {
            if cells.len() < 2 {
                return Err(LowerError::Invalid("needs a line of at least two cells"));
            }
            let lockout = match clue {
                Clue::Lockout { diff, .. } => Some(*diff),
                _ => None,
            };
            out.line(ctx, cells, &Ends { lockout, lo, hi })?;
        }
        Clue::RegionSumLine { cells } => {
            let Some(regions) = ctx.regions else {
                // No regions: nothing to compare (sigh's reading).
                return Ok(());
            };
            let mut segments: Vec<Vec<Cell>> = Vec::new();
            let mut last = usize::MAX;
            for &c in cells {
                let r = regions[c.index()];
                match segments.last_mut() {
                    Some(seg) if r == last => seg.push(c),
                    _ => segments.push(vec![c]),
                }
                last = r;
            }
            equal_sums(ctx, &segments, out);
        }
        Clue::SumLine { sum, looped, cells } => {
            if *sum <= 0 {
                return Err(LowerError::Invalid("needs a positive sum"));
            }
            out.line(
                ctx,
                cells,
                &Segments {
                    sum: *sum,
                    looped: *looped,
                    hi,
                },
            )?;
        }
        Clue::Arrow { pill, cells } => {
            if *pill == 0 || cells.len() <= *pill {
                return Err(LowerError::Invalid("needs more cells than the circle has"));
            }
            let mut circle = cells[..*pill].to_vec();
            circle.sort_unstable();
            let mut terms: Vec<(Cell, i32)> = Vec::new();
            for (k, &c) in circle.iter().enumerate() {
                terms.push((c, -10i32.pow((*pill - 1 - k) as u32)));
            }
            terms.extend(cells[*pill..].iter().map(|&c| (c, 1)));
            out.linear(ctx, &terms, 0);
            if hi > 9 {
                // A pill's other digits are single decimal digits.
                for &c in &circle[1..] {
                    out.candidates.push((c, ctx.digits_where(|v| v <= 9)));
                }
            }
        }
        Clue::DoubleArrow { cells } => {
            if cells.len() < 3 {
                return Err(LowerError::Invalid("needs a line of at least three cells"));
            }
            let k = cells.len();
            let mut terms = vec![(cells[0], 1), (cells[k - 1], 1)];
            terms.extend(cells[1..k - 1].iter().map(|&c| (c, -1)));
            out.linear(ctx, &terms, 0);
        }
        Clue::LittleKiller { sum, cells } => {
            let terms: Vec<(Cell, i32)> = cells.iter().map(|&c| (c, 1)).collect();
            out.linear(ctx, &terms, *sum);
        }
        Clue::Sum { sum, coeffs, cells } => {
            if coeffs.len() != cells.len() {
                return Err(LowerError::Invalid("needs one coefficient per cell"));
            }
            if coeffs.iter().any(|c| i64::from(*c).abs() > MAX_SUM_SPAN) {
                return Err(LowerError::Invalid(
                    "needs a sum whose terms span at most 65536 (smaller coefficients)",
                ));
            }
            let terms: Vec<(Cell, i32)> =
                cells.iter().copied().zip(coeffs.iter().copied()).collect();
            out.linear(ctx, &terms, *sum);
        }
        Clue::EqualSum { segments } => equal_sums(ctx, segments, out),
        Clue::Sandwich { sum, cells } | Clue::Lunchbox { sum, cells } => {
            // A lunchbox's cells differ, and so do a row's or a column's (of fewer cells than digits
            // on a rectangular grid as well).
            let boxed = matches!(clue, Clue::Lunchbox { .. });
            if boxed {
                out.groups.push(cells.clone());
            }
            let house = cells.len() == shape.n();
            let lunch = Lunch {
                sum: *sum,
                lo,
                hi,
                house,
            };
            let key = (clue.keyword(), [*sum, lo, hi, i32::from(house)]);
            let distinct = boxed || one_row_or_col(shape, cells);
            out.line_shared(ctx, cells, &lunch, distinct, key)?;
        }
        Clue::XSum { sum, cells } => {
            let distinct = one_row_or_col(shape, cells);
            let key = (clue.keyword(), [*sum, 0, 0, 0]);
            out.line_shared(ctx, cells, &FirstX { sum: *sum }, distinct, key)?;
        }
        Clue::Skyscraper { count, cells } => {
            let sky = Sky {
                hidden: None,
                count: *count,
            };
            let key = (clue.keyword(), [*count, 0, 0, 0]);
            out.line_shared(ctx, cells, &sky, one_row_or_col(shape, cells), key)?;
        }
        Clue::HiddenSkyscraper { value, cells } => {
            let sky = Sky {
                hidden: Some(*value),
                count: 0,
            };
            // Not told that its cells differ (unlike the skyscraper's count): the clue speaks only
            // of the cells up to the first hidden one, and the product with the digits used was
            // most of the puzzle's time for nothing (corpus #141, #225: one node either way).
            out.line_shared(ctx, cells, &sky, false, (clue.keyword(), [*value, 0, 0, 0]))?;
        }
        Clue::NumberedRoom { value, cells } => {
            select(ctx, cells[0], cells, *value, out);
        }
        Clue::Indexing { rows, cells } => {
            for &control in cells {
                let (line, value) = indexed_line(shape, control, *rows);
                select(ctx, control, &line, value as i32, out);
            }
        }
        Clue::Quad { cells, values } => {
            let mut distinct = values.clone();
            distinct.sort_unstable();
            distinct.dedup();
            // The cells the listed values leave free: a value listed m times is in at most m + free
            // cells, and with none free every cell holds a listed value.
            let free = cells.len().saturating_sub(values.len()) as i32;
            for &v in &distinct {
                let m = values.iter().filter(|&&x| x == v).count() as i32;
                out.count(ctx, cells, v, (m..=m + free).collect());
            }
            if free == 0 {
                let set = ctx.digits_where(|v| distinct.contains(&v));
                out.candidates.extend(cells.iter().map(|&c| (c, set)));
            }
        }
        Clue::CountingCircles { cells } => {
            for v in lo..=hi {
                let totals = if v == 0 { vec![0] } else { vec![0, v] };
                out.count(ctx, cells, v, totals);
            }
        }
        Clue::SameValues { sets, cells } => {
            if *sets == 0 || cells.len() % sets != 0 {
                return Err(LowerError::Invalid("needs cells splitting into equal runs"));
            }
            let size = cells.len() / sets;
            if size == 1 {
                out.pairs(RelationKind::Equal, consecutive(cells));
            } else {
                let runs: Vec<&[Cell]> = cells.chunks(size).collect();
                for run in &runs[1..] {
                    for v in lo..=hi {
                        let mut both: Vec<Cell> = runs[0].to_vec();
                        both.extend_from_slice(run);
                        let weights = both
                            .iter()
                            .enumerate()
                            .map(|(i, _)| {
                                let sign = if i < size { 1 } else { -1 };
                                ctx.values()
                                    .iter()
                                    .map(|&x| sign * i32::from(x == v))
                                    .collect()
                            })
                            .collect();
                        out.sums.push(SumRule {
                            cells: both,
                            weights,
                            totals: vec![0],
                        });
                    }
                }
            }
        }
        Clue::Rellik { sum, cells } => {
            out.groups.push(cells.clone());
            // The digit sets the cage may hold, as windows (the cells one each of a set): the
            // native search then knows which digits the cage must hold (sigh's `Rellik` handler's
            // forced values, by a matching per set); over 128 sets (grids above 9 digits), the
            // subset sums along the cage as a line.
            let once = cells
                .iter()
                .enumerate()
                .all(|(i, c)| !cells[..i].contains(c));
            match rellik_sets(&ctx.values(), cells.len(), *sum, MAX_RELLIK_SETS) {
                Some(windows) if once => out.window_rules.push(WindowRule {
                    cells: cells.clone(),
                    windows,
                }),
                _ => out.line(ctx, cells, &Rellik { sum: *sum })?,
            }
        }
        Clue::ValueIndexing { cells } => {
            if cells.len() < 3 {
                return Err(LowerError::Invalid("needs a line of at least three cells"));
            }
            out.line(ctx, cells, &PointsTo)?;
        }
        Clue::LookAndSay { counts, cells } => {
            for &(v, k) in counts {
                if k == 0 {
                    for &c in cells {
                        out.candidates.push((c, ctx.digits_where(|x| x != v)));
                    }
                } else if (lo..=hi).contains(&v) && k > 0 {
                    out.count(ctx, cells, v, vec![k]);
                } else {
                    return Err(LowerError::Invalid("needs counted values of the grid"));
                }
            }
        }
        Clue::EqualityCage { cells } => {
            if cells.len() % 2 == 1 {
                return Err(LowerError::Invalid("needs an even number of cells"));
            }
            out.groups.push(cells.clone());
            let half = n / 2;
            // Low: the first half of the values; high: the last half; an odd count's middle value
            // is neither.
            let low = |v: i32| v < lo + half;
            let high = |v: i32| v > hi - half;
            for &c in cells {
                out.candidates
                    .push((c, ctx.digits_where(|v| low(v) || high(v))));
            }
            let signed = |f: &dyn Fn(i32) -> i32| -> SumRule {
                SumRule {
                    cells: cells.clone(),
                    weights: cells
                        .iter()
                        .map(|_| ctx.values().iter().map(|&v| f(v)).collect())
                        .collect(),
                    totals: vec![0],
                }
            };
            out.sums.push(signed(&|v| if v % 2 == 0 { 1 } else { -1 }));
            out.sums
                .push(signed(&|v| i32::from(low(v)) - i32::from(high(v))));
        }
        Clue::Global2x2 { modular } => {
            if n != 9 || ctx.base != 1 {
                return Err(LowerError::Invalid("needs the digits 1-9"));
            }
            // One line per square: the classes seen so far, all three by its end (the graph of
            // `square_graph`, by which the native search knows them), unrolled once for all.
            let graph = Arc::new(unroll(&Classes { modular: *modular }, 4, &ctx.values())?);
            for r in 0..shape.rows().saturating_sub(1) {
                for c in 0..shape.cols().saturating_sub(1) {
                    let square = [
                        Cell::at(shape, r, c),
                        Cell::at(shape, r, c + 1),
                        Cell::at(shape, r + 1, c),
                        Cell::at(shape, r + 1, c + 1),
                    ];
                    out.lines.push(LineRule {
                        cells: square.to_vec(),
                        graph: Arc::clone(&graph),
                        clue: None,
                    });
                }
            }
        }
        Clue::Pair { all, table, cells } => {
            let rule = PairTable {
                table,
                base: ctx.base,
            };
            // A table that never allows a digit beside itself makes the cells differ: said as a
            // group too, which the native search reads as peers (its singles see them).
            let differ = (0..n as usize).all(|d| table.get(d).is_none_or(|row| row >> d & 1 == 0));
            if differ && *all {
                out.groups.push(cells.clone());
            } else if differ {
                out.groups.extend(cells.windows(2).map(<[Cell]>::to_vec));
            }
            if *all {
                // One line over all the cells, reading the set of digits so far (every pair at
                // once, which the native search then keeps arc-consistent as a whole, by the
                // clique's assignments when it has a few cells); pair by pair if that grows too
                // large.
                let clique = PairClique { pairs: &rule };
                if let Err(LowerError::TooLarge) = out.line(ctx, cells, &clique) {
                    for (a, b) in all_pairs(cells) {
                        out.line(ctx, &[a, b], &rule)?;
                    }
                }
            } else if cells.len() >= 2 {
                out.line(ctx, cells, &rule)?;
            }
        }
        Clue::Nfa { nfa, segments } => {
            if nfa.digits() != n as usize {
                return Err(LowerError::Invalid(
                    "needs an automaton over the grid's digits",
                ));
            }
            let mut breaks = Vec::new();
            for (k, seg) in segments.iter().enumerate() {
                breaks.extend((0..seg.len()).map(|i| i + 1 == seg.len() && k + 1 < segments.len()));
            }
            let line = NfaLine {
                nfa,
                breaks,
                base: ctx.base,
            };
            out.line(ctx, &segments.concat(), &line)?;
        }
    }
    Ok(())
}

/// A binary relation as a table on every pair of a line, the earlier cell first: the set of digit
/// indices read so far (a digit read must go with each).
struct PairClique<'a> {
    pairs: &'a PairTable<'a>,
}

impl Automaton for PairClique<'_> {
    /// The digit indices read, as bits.
    type State = u64;

    fn start(&self) -> u64 {
        0
    }

    fn step(&self, s: &u64, _: usize, _: usize, v: i32, out: &mut Vec<u64>) {
        let Ok(d) = u16::try_from(v - self.pairs.base) else {
            return;
        };
        if d >= 64 {
            return;
        }
        let fits = (0..64u16)
            .filter(|p| s >> p & 1 == 1)
            .all(|p| self.pairs.allows(p, d));
        if fits {
            out.push(s | 1 << d);
        }
    }

    fn accepts(&self, _: &u64) -> bool {
        true
    }
}

impl PairTable<'_> {
    /// Whether digit index `b` may follow digit index `a`.
    fn allows(&self, a: u16, b: u16) -> bool {
        self.table
            .get(usize::from(a))
            .is_some_and(|row| b < 64 && row >> b & 1 == 1)
    }
}

/// Global entropy and global mod 3 over one 2x2 square: the classes of the values seen (low,
/// middle, high; or by their remainder modulo 3), all three at the end.
struct Classes {
    modular: bool,
}

impl Automaton for Classes {
    /// The classes seen, as bits.
    type State = u8;

    fn start(&self) -> u8 {
        0
    }

    fn step(&self, s: &u8, _: usize, _: usize, v: i32, out: &mut Vec<u8>) {
        let class = if self.modular {
            (v - 1).rem_euclid(3)
        } else {
            (v - 1).div_euclid(3)
        };
        if (0..3).contains(&class) {
            out.push(s | 1 << class);
        }
    }

    fn accepts(&self, s: &u8) -> bool {
        *s == 7
    }
}

/// The line of one 2x2 square of global entropy (or, with `modular`, global mod 3) over the
/// digits 1-9: the graph every square's line of a `Global2x2` clue has.
pub(crate) fn square_graph(modular: bool) -> Layered {
    unroll(&Classes { modular }, 4, &(1..=9).collect::<Vec<i32>>())
        .expect("four cells of nine digits unroll within the limit")
}

/// A binary relation as a table, on each consecutive pair of a line: the last digit read.
struct PairTable<'a> {
    /// Per digit index of the first cell, the digit indices the second may hold.
    table: &'a [u64],
    /// The value of digit index 0.
    base: i32,
}

impl Automaton for PairTable<'_> {
    /// The last digit index read.
    type State = Option<u16>;

    fn start(&self) -> Self::State {
        None
    }

    fn step(&self, s: &Self::State, _: usize, _: usize, v: i32, out: &mut Vec<Self::State>) {
        let Ok(d) = u16::try_from(v - self.base) else {
            return;
        };
        let ok = match *s {
            None => true,
            Some(p) => self.allows(p, d),
        };
        if ok {
            out.push(Some(d));
        }
    }

    fn accepts(&self, s: &Self::State) -> bool {
        s.is_some()
    }
}

/// Lowers the data-free variants that are clues in all but name (strict kropki and XV, anti-taxicab,
/// Dutch flatmates) into `out`; the others are units and relations of `rules.rs`. `differ` tells
/// the pairs of cells the rules already keep apart (a shared unit, group or cage): anti-taxicab
/// leaves those out, for no two of them can hold one digit anyway.
pub(crate) fn lower_variant(
    v: Variant,
    ctx: &LowerCtx<'_>,
    clues: &[Clue],
    differ: &dyn Fn(Cell, Cell) -> bool,
    out: &mut Lowered,
) -> Result<(), LowerError> {
    let shape = ctx.shape;
    let (rows, cols) = (shape.rows(), shape.cols());
    // Every pair of orthogonal neighbours, the upper or left cell first.
    let neighbours = || {
        (0..rows).flat_map(move |r| {
            (0..cols).flat_map(move |c| {
                let a = Cell::at(shape, r, c);
                let right = (c + 1 < cols).then(|| (a, Cell::at(shape, r, c + 1)));
                let down = (r + 1 < rows).then(|| (a, Cell::at(shape, r + 1, c)));
                right.into_iter().chain(down)
            })
        })
    };
    let marked = |keep: fn(&Clue) -> bool| -> Vec<(Cell, Cell)> {
        clues
            .iter()
            .filter(|c| keep(c))
            .flat_map(|c| c.adjacent_pairs(shape))
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect()
    };
    match v {
        Variant::StrictKropki | Variant::StrictXv => {
            let (kind, dots) = if v == Variant::StrictKropki {
                (
                    RelationKind::NoDot,
                    marked(|c| matches!(c, Clue::Kropki { .. })),
                )
            } else {
                (RelationKind::NoXv, marked(|c| matches!(c, Clue::Xv { .. })))
            };
            let pairs: Vec<(Cell, Cell)> = neighbours().filter(|p| !dots.contains(p)).collect();
            out.pairs(kind, pairs);
        }
        Variant::AntiTaxicab => {
            let top = shape.n() as i32 + ctx.base - 1;
            for a in 0..shape.cells() {
                let ca = Cell::new(a);
                for b in a + 1..shape.cells() {
                    let cb = Cell::new(b);
                    let d = ca.row(shape).abs_diff(cb.row(shape))
                        + ca.col(shape).abs_diff(cb.col(shape));
                    if (1..=top as usize).contains(&d) && !differ(ca, cb) {
                        out.relations.push(Relation {
                            kind: RelationKind::NotBoth(d as u16),
                            a: ca,
                            b: cb,
                        });
                    }
                }
            }
        }
        Variant::DutchFlatmates => {
            let n = shape.n() as i32;
            let flat = Flatmates {
                mid: (n + 1) / 2,
                top: 1,
                bottom: n,
            };
            for c in 0..cols {
                let column: Vec<Cell> = (0..rows).map(|r| Cell::at(shape, r, c)).collect();
                out.line(ctx, &column, &flat)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Dutch flatmates down a column: a `mid` needs `top` directly above it or `bottom` directly below.
struct Flatmates {
    mid: i32,
    top: i32,
    bottom: i32,
}

impl Automaton for Flatmates {
    /// (the value above, whether it is a `mid` still waiting for `bottom` below it).
    type State = (i32, bool);

    fn start(&self) -> Self::State {
        (i32::MIN, false)
    }

    fn step(&self, s: &Self::State, _: usize, _: usize, v: i32, out: &mut Vec<Self::State>) {
        let (above, waiting) = *s;
        if waiting && v != self.bottom {
            return;
        }
        out.push((v, v == self.mid && above != self.top));
    }

    fn accepts(&self, s: &Self::State) -> bool {
        !s.1
    }
}

/// Equal sums of segments: each against the first (single cells as equal values).
fn equal_sums(ctx: &LowerCtx<'_>, segments: &[Vec<Cell>], out: &mut Lowered) {
    let Some((first, rest)) = segments.split_first() else {
        return;
    };
    for seg in rest {
        if first.len() == 1 && seg.len() == 1 {
            out.pairs(RelationKind::Equal, [(first[0], seg[0])]);
            continue;
        }
        let mut terms: Vec<(Cell, i32)> = first.iter().map(|&c| (c, 1)).collect();
        terms.extend(seg.iter().map(|&c| (c, -1)));
        out.linear(ctx, &terms, 0);
    }
}

/// Indexing: `control` holding k (1..=len) means `line[k − 1]` holds `value`, and no other cell of the
/// line does: one relation per cell of the line, and the control's values kept to 1..=len.
fn select(ctx: &LowerCtx<'_>, control: Cell, line: &[Cell], value: i32, out: &mut Lowered) {
    let len = line.len() as i32;
    let mut own = ctx.digits_where(|k| (1..=len).contains(&k));
    for (i, &cell) in line.iter().enumerate() {
        let when = i as i32 + 1;
        if cell == control {
            // The control selecting itself: it holds `value` exactly when it holds `when`.
            own = ctx.digits_where(|k| own_contains(ctx, own, k) && ((k == when) == (k == value)));
        } else {
            out.relations.push(Relation {
                kind: RelationKind::Selects { when, then: value },
                a: control,
                b: cell,
            });
        }
    }
    out.candidates.push((control, own));
}

/// Whether the digit of value `v` is in `set`.
fn own_contains(ctx: &LowerCtx<'_>, set: DigitSet, v: i32) -> bool {
    u16::try_from(v - ctx.base + 1)
        .ok()
        .and_then(crate::grid::Digit::new)
        .is_some_and(|d| set.contains(d))
}

/// The line an indexing clue's control cell indexes, and the value it indexes by: with `rows`, the
/// control's column, by its row number (1-based); else its row, by its column number.
pub(crate) fn indexed_line(shape: Shape, control: Cell, rows: bool) -> (Vec<Cell>, usize) {
    let (r, c) = (control.row(shape), control.col(shape));
    if rows {
        (
            (0..shape.rows()).map(|i| Cell::at(shape, i, c)).collect(),
            r + 1,
        )
    } else {
        (
            (0..shape.cols()).map(|i| Cell::at(shape, r, i)).collect(),
            c + 1,
        )
    }
}

/// Between and lockout lines: the first cell chooses the last cell's value (a pair of ends that fit:
/// distinct for a between line with cells between them, at least `lockout` apart for a lockout
/// line); each cell between is strictly between the ends (between) or strictly outside them
/// (lockout); the last cell must be the chosen value.
struct Ends {
    lockout: Option<i32>,
    /// The smallest and largest values.
    lo: i32,
    hi: i32,
}

impl Automaton for Ends {
    /// The first and last values, once chosen.
    type State = Option<(i32, i32)>;

    fn start(&self) -> Self::State {
        None
    }

    fn step(&self, s: &Self::State, i: usize, len: usize, v: i32, out: &mut Vec<Self::State>) {
        match *s {
            None => {
                for last in self.lo..=self.hi {
                    let fits = match self.lockout {
                        Some(d) => (v - last).abs() >= d,
                        None => len == 2 || v != last,
                    };
                    if fits {
                        out.push(Some((v, last)));
                    }
                }
            }
            Some((first, last)) => {
                let (lo, hi) = (first.min(last), first.max(last));
                let ok = if i + 1 == len {
                    v == last
                } else if self.lockout.is_some() {
                    v < lo || v > hi
                } else {
                    lo < v && v < hi
                };
                if ok {
                    out.push(*s);
                }
            }
        }
    }

    fn accepts(&self, s: &Self::State) -> bool {
        s.is_some()
    }
}

/// Sum lines: the running sum of the current stretch; a stretch that reaches `sum` ends. A loop
/// first chooses how much of the stretch running over its end lies at its start (`carry`): that
/// much is read first, and at the end the last stretch must make up the rest.
struct Segments {
    sum: i32,
    looped: bool,
    /// The largest value: a carry is at most the line's cells at it.
    hi: i32,
}

impl Automaton for Segments {
    /// (carry still to read at the start, the carry, the running sum).
    type State = (i32, i32, i32);

    fn start(&self) -> Self::State {
        (-1, 0, 0)
    }

    fn step(&self, s: &Self::State, _: usize, len: usize, v: i32, out: &mut Vec<Self::State>) {
        let (left, carry, run) = *s;
        if left < 0 {
            // The first cell: choose the carry (0 for a line that is no loop), no more than the
            // line's cells can hold (a sum of 2³¹ asked for 2³¹ states here before).
            let most = self.hi.max(0).saturating_mul(len.min(1 << 16) as i32);
            let carries = if self.looped {
                0..self.sum.min(most.saturating_add(1))
            } else {
                0..1
            };
            for c in carries {
                self.advance((c, c, 0), v, out);
            }
            return;
        }
        self.advance((left, carry, run), v, out);
    }

    fn accepts(&self, s: &Self::State) -> bool {
        let (left, carry, run) = *s;
        left == 0 && (carry + run == self.sum || carry == 0 && run == 0)
    }
}

impl Segments {
    fn advance(&self, (left, carry, run): (i32, i32, i32), v: i32, out: &mut Vec<(i32, i32, i32)>) {
        if left > 0 {
            // Still reading the carry: it must be made up exactly before the first stretch starts.
            if v <= left {
                out.push((left - v, carry, 0));
            }
            return;
        }
        let next = run + v;
        if next < self.sum {
            out.push((0, carry, next));
        } else if next == self.sum {
            out.push((0, carry, 0));
        }
    }
}

/// Sandwiches and lunchboxes: the first cell chooses the smallest and largest values (`lo` and `hi`
/// of the digits when the line is a whole house, which holds them all); every cell lies between them;
/// the cells between the two cells that hold them add up to `sum`. Repeated values are for the
/// groups to forbid, or for [`Distinct`] around it.
struct Lunch {
    sum: i32,
    lo: i32,
    hi: i32,
    house: bool,
}

impl Automaton for Lunch {
    /// (smallest, largest, phase: 0 before either, 1 after one, 2 after both; the running sum in
    /// phase 1), or nothing before the first cell.
    type State = Option<(i32, i32, u8, i32)>;

    fn start(&self) -> Self::State {
        None
    }

    fn step(&self, s: &Self::State, _: usize, _: usize, v: i32, out: &mut Vec<Self::State>) {
        match *s {
            None => {
                if self.house {
                    self.read((self.lo, self.hi, 0, 0), v, out);
                } else {
                    for a in self.lo..=self.hi {
                        for b in a + 1..=self.hi {
                            self.read((a, b, 0, 0), v, out);
                        }
                    }
                }
            }
            Some(t) => self.read(t, v, out),
        }
    }

    fn accepts(&self, s: &Self::State) -> bool {
        matches!(s, Some((_, _, 2, _)))
    }
}

impl Lunch {
    /// Reads `v` in state (a, b, phase, run): before either end (phase 0) a < b are the smallest and
    /// largest; once one end is read (phase 1), a is that end and b the other.
    fn read(
        &self,
        (a, b, phase, run): (i32, i32, u8, i32),
        v: i32,
        out: &mut Vec<Option<(i32, i32, u8, i32)>>,
    ) {
        if v < a.min(b) || v > a.max(b) {
            return;
        }
        let end = v == a || v == b;
        match (phase, end) {
            (0, false) => out.push(Some((a, b, 0, 0))),
            // One end: which one is told by the state's order, kept as (end seen, other end).
            (0, true) => out.push(Some((v, if v == a { b } else { a }, 1, 0))),
            // Values are never negative: a sum past the target stays past it.
            (1, false) if run + v <= self.sum => {
                out.push(Some((a, b, 1, run + v)));
            }
            // The other end: the sum must be made up.
            (1, true) if v == b && run == self.sum => {
                out.push(Some((a.min(b), a.max(b), 2, 0)));
            }
            (2, false) => out.push(Some((a, b, 2, 0))),
            _ => {}
        }
    }
}

/// X-sums: the first cell's value X; the first X cells add up to `sum`.
struct FirstX {
    sum: i32,
}

impl Automaton for FirstX {
    /// (cells still to add, running sum), or nothing before the first cell.
    type State = Option<(i32, i32)>;

    fn start(&self) -> Self::State {
        None
    }

    fn step(&self, s: &Self::State, _: usize, len: usize, v: i32, out: &mut Vec<Self::State>) {
        match *s {
            None => {
                if (1..=len as i32).contains(&v) && v <= self.sum {
                    out.push(Some((v - 1, v)));
                }
            }
            Some((0, run)) => out.push(Some((0, run))),
            Some((left, run)) => {
                if run + v <= self.sum {
                    out.push(Some((left - 1, run + v)));
                }
            }
        }
    }

    fn accepts(&self, s: &Self::State) -> bool {
        matches!(s, Some((0, run)) if *run == self.sum)
    }
}

/// Skyscrapers: the tallest so far and the buildings seen (`count` at the end); or, for hidden
/// skyscrapers, whether the first hidden one (no taller than the tallest before it) was `hidden`.
struct Sky {
    hidden: Option<i32>,
    count: i32,
}

impl Automaton for Sky {
    /// (tallest so far, seen so far or 1 once the first hidden one was found).
    type State = (i32, i32);

    fn start(&self) -> Self::State {
        (i32::MIN, 0)
    }

    fn step(&self, s: &Self::State, _: usize, _: usize, v: i32, out: &mut Vec<Self::State>) {
        let (top, seen) = *s;
        match self.hidden {
            None => {
                // A 0 is no building: never seen, hides nothing.
                let top0 = top.max(0);
                if v > top0 {
                    if seen < self.count {
                        out.push((v, seen + 1));
                    }
                } else {
                    out.push((top0, seen));
                }
            }
            Some(target) => {
                if seen == 1 {
                    out.push((top, 1));
                } else if v > top {
                    out.push((v, 0));
                } else if v == target {
                    out.push((top, 1));
                }
            }
        }
    }

    fn accepts(&self, s: &Self::State) -> bool {
        match self.hidden {
            None => s.1 == self.count,
            Some(_) => s.1 == 1,
        }
    }
}

/// The most digit sets a rellik cage is lowered into (see [`rellik_sets`]); 126 on 9 digits.
const MAX_RELLIK_SETS: usize = 128;

/// The sets of `k` different digits (indices into `values`, the digits' values) of which no one or
/// more add up to `sum`, ascending by their lowest digit; `None` when there are more than `cap` (or
/// the values are negative or the sum beyond 127, left to the [`Rellik`] automaton).
fn rellik_sets(values: &[i32], k: usize, sum: i32, cap: usize) -> Option<Vec<DigitSet>> {
    if !(0..128).contains(&sum)
        || values.iter().any(|&v| v < 0)
        || k > values.len()
        || values.len() > 64
    {
        return None;
    }
    // Depth first over the digits in order, carrying the subset sums reached (bit t: some one or
    // more chosen digits add up to t ≤ sum); a set is kept when no subset reaches `sum`.
    fn walk(
        values: &[i32],
        from: usize,
        left: usize,
        (chosen, reach): (u64, u128),
        sum: i32,
        out: &mut Vec<u64>,
        cap: usize,
    ) -> bool {
        if left == 0 {
            out.push(chosen);
            return out.len() <= cap;
        }
        let keep = if sum >= 127 {
            u128::MAX
        } else {
            (1u128 << (sum + 1)) - 1
        };
        for d in from..=values.len() - left {
            let v = values[d];
            let single = if v <= sum { 1u128 << v } else { 0 };
            let shifted = if v < 128 { reach << v } else { 0 };
            let next = (reach | shifted | single) & keep;
            if next >> sum & 1 == 0
                && !walk(
                    values,
                    d + 1,
                    left - 1,
                    (chosen | 1 << d, next),
                    sum,
                    out,
                    cap,
                )
            {
                return false;
            }
        }
        true
    }
    let mut sets = Vec::new();
    if !walk(values, 0, k, (0, 0), sum, &mut sets, cap) {
        return None;
    }
    let mut windows: Vec<DigitSet> = sets.iter().map(|&m| DigitSet::from_words(&[m])).collect();
    windows.sort_by_key(|w| w.words()[0].trailing_zeros());
    Some(windows)
}

/// Rellik cages: the subset sums reached so far (bit t: some one or more cells add up to t ≤
/// `sum`), never `sum` itself.
struct Rellik {
    sum: i32,
}

impl Automaton for Rellik {
    type State = u128;

    fn start(&self) -> u128 {
        0
    }

    fn step(&self, s: &u128, _: usize, _: usize, v: i32, out: &mut Vec<u128>) {
        if !(0..128).contains(&self.sum) || v < 0 {
            out.push(*s);
            return;
        }
        let keep = if self.sum >= 127 {
            u128::MAX
        } else {
            (1u128 << (self.sum + 1)) - 1
        };
        let single = if v <= self.sum { 1u128 << v } else { 0 };
        let shifted = if v < 128 { s << v } else { 0 };
        let next = (s | shifted | single) & keep;
        if next >> self.sum & 1 == 0 {
            out.push(next);
        }
    }

    fn accepts(&self, _: &u128) -> bool {
        true
    }
}

/// Value indexing: the first cell's value, the second's index k (1..=the cells after it); the
/// k-th cell after the second holds the first's value.
struct PointsTo;

impl Automaton for PointsTo {
    /// (value, index) as read so far.
    type State = (Option<i32>, Option<i32>);

    fn start(&self) -> Self::State {
        (None, None)
    }

    fn step(&self, s: &Self::State, i: usize, len: usize, v: i32, out: &mut Vec<Self::State>) {
        match *s {
            (None, _) => out.push((Some(v), None)),
            (Some(x), None) => {
                if (1..=(len as i32 - 2)).contains(&v) {
                    out.push((Some(x), Some(v)));
                }
            }
            (Some(x), Some(k)) => {
                if i as i32 - 1 != k || v == x {
                    out.push(*s);
                }
            }
        }
    }

    fn accepts(&self, s: &Self::State) -> bool {
        s.1.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::Layered;

    fn values(from: i32, to: i32) -> Vec<i32> {
        (from..=to).collect()
    }

    #[test]
    fn rellik_sets_are_the_sets_without_a_subset_of_the_sum() {
        // Against every set of digits of 1-9 (and 0-8), its subsets' sums worked out one by one.
        for base in [0, 1] {
            let vals = values(base, base + 8);
            for k in 0..=9 {
                for sum in 0..=25 {
                    let subset_sum = |m: u32, sub: u32| -> i32 {
                        (0..9)
                            .filter(|d| (m & sub) >> d & 1 == 1)
                            .map(|d| vals[d])
                            .sum()
                    };
                    let expect: Vec<u64> = (0u32..512)
                        .filter(|m| m.count_ones() as usize == k)
                        .filter(|&m| {
                            (1u32..512).all(|sub| sub & !m != 0 || subset_sum(m, sub) != sum)
                        })
                        .map(u64::from)
                        .collect();
                    let mut got: Vec<u64> = rellik_sets(&vals, k, sum, 200)
                        .unwrap()
                        .iter()
                        .map(|w| w.words()[0])
                        .collect();
                    let lows: Vec<u32> = got.iter().map(|w| w.trailing_zeros()).collect();
                    assert!(lows.is_sorted(), "{k} {sum}");
                    got.sort_unstable();
                    assert_eq!(got, expect, "base {base}, {k} digits, sum {sum}");
                }
            }
        }
        // 126 sets of five digits of 1-9 avoid 50; with a cap of 100, none are given.
        assert_eq!(rellik_sets(&values(1, 9), 5, 50, 200).unwrap().len(), 126);
        assert!(rellik_sets(&values(1, 9), 5, 50, 100).is_none());
        assert!(rellik_sets(&values(1, 9), 5, 200, 200).is_none());
    }

    /// Every word of `len` values of 1..=`n` (as digit indices) that `graph` accepts, against a
    /// predicate on the values.
    fn agrees<A: Automaton>(a: &A, len: usize, n: i32, base: i32, pred: impl Fn(&[i32]) -> bool) {
        let vals = values(base, base + n - 1);
        let g = unroll(a, len, &vals).unwrap();
        let total = (n as usize).pow(len as u32);
        for w in 0..total {
            let mut digits = vec![0u16; len];
            let mut x = w;
            for d in digits.iter_mut().rev() {
                *d = (x % n as usize) as u16;
                x /= n as usize;
            }
            let word: Vec<i32> = digits.iter().map(|&d| vals[d as usize]).collect();
            assert_eq!(g.accepts(&digits), pred(&word), "{word:?}");
        }
    }

    #[test]
    fn between_and_lockout_automata() {
        let ends = |lockout| Ends {
            lockout,
            lo: 1,
            hi: 6,
        };
        agrees(&ends(None), 4, 6, 1, |w| {
            let (lo, hi) = (w[0].min(w[3]), w[0].max(w[3]));
            w[1..3].iter().all(|&x| lo < x && x < hi)
        });
        agrees(&ends(Some(3)), 4, 6, 1, |w| {
            let (lo, hi) = (w[0].min(w[3]), w[0].max(w[3]));
            hi - lo >= 3 && w[1..3].iter().all(|&x| x < lo || x > hi)
        });
        // Two cells alone: any ends for a between line.
        agrees(
            &Ends {
                lockout: None,
                lo: 1,
                hi: 4,
            },
            2,
            4,
            1,
            |_| true,
        );
    }

    #[test]
    fn sum_line_automata() {
        // Stretches of 5 over values 1-4, and as a loop (over values 0-3 too).
        let cuts = |w: &[i32], s: i32, looped: bool| {
            let k = w.len();
            let starts: Vec<usize> = if looped { (0..k).collect() } else { vec![0] };
            starts.iter().any(|&start| {
                let mut run = 0;
                for j in 0..k {
                    run += w[(start + j) % k];
                    if run == s {
                        run = 0;
                    } else if run > s {
                        return false;
                    }
                }
                run == 0
            })
        };
        for looped in [false, true] {
            for base in [0, 1] {
                let hi = base + 3;
                agrees(&Segments { sum: 5, looped, hi }, 5, 4, base, |w| {
                    cuts(w, 5, looped)
                });
            }
        }
    }

    #[test]
    fn lunchbox_and_sandwich_automata() {
        // The cells strictly between the smallest and largest value add up to the sum (digits that
        // repeat are for the groups to forbid; the automaton only needs the ends once each).
        let lunch = |w: &[i32], s: i32| {
            let (min, max) = (*w.iter().min().unwrap(), *w.iter().max().unwrap());
            let (Some(i), Some(j)) = (
                w.iter().position(|&x| x == min),
                w.iter().position(|&x| x == max),
            ) else {
                return false;
            };
            let once = w.iter().filter(|&&x| x == min).count() == 1
                && w.iter().filter(|&&x| x == max).count() == 1;
            let (a, b) = (i.min(j), i.max(j));
            once && min < max && w[a + 1..b].iter().sum::<i32>() == s
        };
        let differ = |w: &[i32]| (1..w.len()).all(|i| !w[..i].contains(&w[i]));
        for s in [0, 3, 5, 7] {
            for base in [0, 1] {
                let lunchbox = Lunch {
                    sum: s,
                    lo: base,
                    hi: base + 4,
                    house: false,
                };
                agrees(&lunchbox, 4, 5, base, |w| lunch(w, s));
                let told = Distinct::new(&lunchbox, base);
                agrees(&told, 4, 5, base, |w| lunch(w, s) && differ(w));
            }
        }
        // A house holds 1 and N: the same with the ends fixed; told that the house's values differ,
        // a value outside may not repeat one inside (1 3 4 3 has 3 between the ends, but is no house):
        // the block 1 3 4 either way round at either end, the other cell 2 (or 3 if repeats pass).
        let house = Lunch {
            sum: 3,
            lo: 1,
            hi: 4,
            house: true,
        };
        let told = Distinct::new(&house, 1);
        agrees(&house, 4, 4, 1, |w| {
            lunch(w, 3) && w.contains(&1) && w.contains(&4)
        });
        agrees(&told, 4, 4, 1, |w| lunch(w, 3) && differ(w));
        // Counted apart from the predicate: the words of each graph.
        let words = |g: &Layered| {
            (0..256u16)
                .filter(|w| g.accepts(&[w >> 6, w >> 4 & 3, w >> 2 & 3, w & 3]))
                .count()
        };
        assert_eq!(words(&unroll(&house, 4, &values(1, 4)).unwrap()), 8);
        assert_eq!(words(&unroll(&told, 4, &values(1, 4)).unwrap()), 4);
    }

    #[test]
    fn outside_clue_automata_told_the_values_differ() {
        // On a house of 5 (a permutation of 1-5), each skyscraper count and x-sum against the
        // words by brute force; and the counts of permutations by how many are seen from one side
        // (the unsigned Stirling numbers of the first kind, c(5, k): 24, 50, 35, 10, 1).
        let differ = |w: &[i32]| (1..w.len()).all(|i| !w[..i].contains(&w[i]));
        let seen = |w: &[i32]| {
            let mut top = 0;
            w.iter()
                .filter(|&&x| {
                    let taller = x > top;
                    top = top.max(x);
                    taller
                })
                .count() as i32
        };
        for (count, stirling) in [(1, 24), (2, 50), (3, 35), (4, 10), (5, 1)] {
            let sky = Sky {
                hidden: None,
                count,
            };
            let told = Distinct::new(&sky, 1);
            agrees(&told, 5, 5, 1, |w| differ(w) && seen(w) == count);
            let g = unroll(&told, 5, &values(1, 5)).unwrap();
            let mut permutations = 0;
            for w in 0..3125u16 {
                let d = [w / 625, w / 125 % 5, w / 25 % 5, w / 5 % 5, w % 5];
                permutations += usize::from(g.accepts(&d));
            }
            assert_eq!(permutations, stirling, "{count} seen");
        }
        for sum in [3, 9, 14] {
            let first = FirstX { sum };
            let told = Distinct::new(&first, 1);
            agrees(&told, 5, 5, 1, |w| {
                differ(w) && w[..w[0] as usize].iter().sum::<i32>() == sum
            });
        }
    }

    #[test]
    fn a_hidden_skyscraper_on_a_house_is_not_unrolled_with_the_digits_used() {
        // Its line is the clue's small automaton (the row's group says the digits differ): the
        // product with the set of digits used had 1,823 edges here, and its unrolling and walks
        // were most of a hidden-skyscraper puzzle's time.
        let shape = Shape::new(3, 3).unwrap();
        let ctx = LowerCtx {
            shape,
            base: 1,
            regions: None,
        };
        let cells: Vec<Cell> = (0..9).map(|c| Cell::at(shape, 4, c)).collect();
        let mut out = Lowered::default();
        let clue = Clue::HiddenSkyscraper { value: 6, cells };
        lower(&clue, &ctx, &mut out).unwrap();
        assert_eq!(out.lines.len(), 1);
        let edges = out.lines[0].graph.edge_count();
        assert!(edges < 600, "{edges} edges");
    }

    #[test]
    fn outside_clues_of_one_automaton_share_its_unrolled_line() {
        // Hidden skyscrapers on every row from the left and the right, values 1-9 in turn: 18
        // lines, 9 automata; a sandwich and a lunchbox of one sum are two (one is told that its
        // cells differ), and so are skyscrapers of one count on lines of two lengths.
        let shape = Shape::new(3, 3).unwrap();
        let ctx = LowerCtx {
            shape,
            base: 1,
            regions: None,
        };
        let row = |r: usize| -> Vec<Cell> { (0..9).map(|c| Cell::at(shape, r, c)).collect() };
        let mut out = Lowered::default();
        for r in 0..9 {
            let value = r as i32 % 9 + 1;
            for cells in [row(r), row(r).into_iter().rev().collect()] {
                lower(&Clue::HiddenSkyscraper { value, cells }, &ctx, &mut out).unwrap();
            }
        }
        lower(
            &Clue::Sandwich {
                sum: 10,
                cells: row(0),
            },
            &ctx,
            &mut out,
        )
        .unwrap();
        lower(
            &Clue::Lunchbox {
                sum: 10,
                cells: row(0),
            },
            &ctx,
            &mut out,
        )
        .unwrap();
        for cells in [row(1), row(1)[..5].to_vec()] {
            lower(&Clue::Skyscraper { count: 3, cells }, &ctx, &mut out).unwrap();
        }
        let graphs = |lines: &[LineRule]| {
            let mut distinct: Vec<&Arc<Layered>> = Vec::new();
            for l in lines {
                if !distinct.iter().any(|g| Arc::ptr_eq(g, &l.graph)) {
                    distinct.push(&l.graph);
                }
            }
            distinct.len()
        };
        assert_eq!(out.lines.len(), 22);
        assert_eq!(graphs(&out.lines[..18]), 9);
        assert_eq!(graphs(&out.lines[18..]), 4);
        // The shared line is the one its clue unrolls alone.
        let mut alone = Lowered::default();
        let clue = Clue::HiddenSkyscraper {
            value: 1,
            cells: row(0).into_iter().rev().collect(),
        };
        lower(&clue, &ctx, &mut alone).unwrap();
        assert_eq!(*alone.lines[0].graph, *out.lines[1].graph);
        assert!(Arc::ptr_eq(&out.lines[0].graph, &out.lines[1].graph));
    }

    #[test]
    fn outside_clue_automata() {
        agrees(&FirstX { sum: 6 }, 4, 4, 1, |w| {
            let x = w[0] as usize;
            x <= 4 && w[..x].iter().sum::<i32>() == 6
        });
        for count in 1..=4 {
            for base in [0, 1] {
                agrees(
                    &Sky {
                        hidden: None,
                        count,
                    },
                    4,
                    4,
                    base,
                    |w| {
                        let mut top = 0;
                        let mut seen = 0;
                        for &x in w {
                            if x > top {
                                seen += 1;
                                top = x;
                            }
                        }
                        seen == count
                    },
                );
            }
        }
        for target in 1..=4 {
            agrees(
                &Sky {
                    hidden: Some(target),
                    count: 0,
                },
                4,
                4,
                1,
                |w| {
                    (1..4)
                        .find(|&i| w[..i].iter().any(|&x| x >= w[i]))
                        .is_some_and(|i| w[i] == target)
                },
            );
        }
        agrees(&PointsTo, 5, 4, 1, |w| {
            let k = w[1];
            (1..=3).contains(&k) && w[1 + k as usize] == w[0]
        });
    }

    #[test]
    fn rellik_automaton() {
        agrees(&Rellik { sum: 5 }, 3, 5, 1, |w| {
            (1u32..8).all(|m| {
                (0..3)
                    .filter(|&i| m >> i & 1 == 1)
                    .map(|i| w[i])
                    .sum::<i32>()
                    != 5
            })
        });
    }

    /// The cells of a 6x6 diagonal (2x3 boxes) from (`row`, `col`) going (`dr`, `dc`).
    fn diagonal(row: usize, col: usize, dr: isize, dc: isize) -> Vec<Cell> {
        let shape = Shape::new(2, 3).unwrap();
        let (mut r, mut c) = (row as isize, col as isize);
        let mut out = Vec::new();
        while (0..6).contains(&r) && (0..6).contains(&c) {
            out.push(Cell::at(shape, r as usize, c as usize));
            r += dr;
            c += dc;
        }
        out
    }

    /// Combined sums on 6x6 diagonals (cells of one diagonal never share a row or column, so its
    /// groups are its boxes; the test groups any sum by boxes).
    fn combined(sums: &[(Vec<Cell>, i64)]) -> Vec<SumRule> {
        let shape = Shape::new(2, 3).unwrap();
        let block = |c: Cell| shape.block_of(c.row(shape), c.col(shape));
        let differ = |a: Cell, b: Cell| {
            a != b
                && (a.row(shape) == b.row(shape)
                    || a.col(shape) == b.col(shape)
                    || block(a) == block(b))
        };
        let groups = |s: &SumRule| {
            let mut per_box = [0usize; 6];
            for &c in &s.cells {
                per_box[block(c)] += 1;
            }
            per_box.into_iter().filter(|&k| k > 0).collect()
        };
        combined_sums(6, 1, sums, differ, groups)
    }

    #[test]
    fn two_tight_diagonals_combine_and_loose_ones_do_not() {
        // The two long diagonals of 6x6 (groups of 2, 1, 1 and 2 cells: totals 8 to 34): 33 and
        // 31 are tight (scores 22 and 14); together 64 of at most 66 in six boxes of two (score
        // 36): one derived sum.
        let main = diagonal(0, 0, 1, 1);
        let anti = diagonal(0, 5, 1, -1);
        let out = combined(&[(main.clone(), 33), (anti.clone(), 31)]);
        assert_eq!(out.len(), 1, "{out:?}");
        let mut cells = [main.clone(), anti.clone()].concat();
        cells.sort_unstable();
        assert_eq!(out[0].cells, cells);
        assert_eq!(out[0].totals, vec![64]);
        assert!(
            out[0]
                .weights
                .iter()
                .all(|w| *w == (1..=6).collect::<Vec<i32>>())
        );
        // Middling totals: nothing gained together.
        assert!(combined(&[(main.clone(), 20), (anti.clone(), 21)]).is_empty());
        // Too few cells to be related (a diagonal of 5), or the same cells twice.
        assert!(combined(&[(main.clone(), 33), (diagonal(0, 4, 1, -1), 28)]).is_empty());
        assert!(combined(&[(main.clone(), 33), (main, 33)]).is_empty());
    }

    #[test]
    fn only_plain_sums_are_read() {
        let cells = diagonal(0, 8, 1, -1);
        let plain = SumRule::linear(cells.clone(), &[1; 9], 49, 9, 1);
        assert_eq!(plain_sum(&plain, 1), Some((cells.clone(), 49)));
        let mut coeffs = [1; 9];
        coeffs[0] = -10;
        assert_eq!(
            plain_sum(&SumRule::linear(cells.clone(), &coeffs, 0, 9, 1), 1),
            None
        );
        let zero_based = SumRule::linear(cells.clone(), &[1; 9], 40, 9, 0);
        assert_eq!(plain_sum(&zero_based, 1), None);
        assert_eq!(plain_sum(&zero_based, 0), Some((cells, 40)));
    }
}
