//! The encoding study: for each backend/encoding/SAT solver (and cage encoding, for killer puzzles),
//! formula sizes, encode and solve times (median, p90, max), puzzles per second, and the share of
//! puzzles that propagation alone solves (unit propagation over the CNF for the SAT backend, the
//! native backend's own propagation without a guess for it).
//!
//! Times are the thread's CPU time where the platform gives it (Linux `CLOCK_THREAD_CPUTIME_ID`),
//! which a busy neighbour on a shared machine disturbs far less than wall time. Every timed answer is
//! checked by [`crate::verify`]; failures are counted in the table, never hidden.

mod propagate;

use std::fmt::Write as _;
use std::time::Duration;

use crate::dfs::DfsBackend;
use crate::grid::Grid;
use crate::sat::{
    Amo, CLAUSE_BUDGET, CageEncoding, Encoding, Formula, SatBackend, SatSolver, encode_with,
};
use crate::solve::{Backend, Limits};
use crate::units::Units;
use crate::verify::verify;

pub use crate::solve::thread_time;
pub use propagate::{Propagation, propagate};

/// One configuration to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The native backend.
    Dfs,
    /// The SAT backend with this encoding and at-most-one encoding, on varisat (the default
    /// solver; the same as `SatOn(e, a, SatSolver::Varisat)`).
    Sat(Encoding, Amo),
    /// The SAT backend with this encoding and at-most-one encoding, on this SAT solver (one not
    /// compiled in fails on every puzzle: check [`SatSolver::is_available`] first).
    SatOn(Encoding, Amo, SatSolver),
    /// As [`Subject::SatOn`], with killer cages in this cage encoding (labelled with it).
    SatCages(Encoding, Amo, SatSolver, CageEncoding),
}

impl Subject {
    /// `dfs`, or `sat` with the encoding and at-most-one names.
    pub fn label(&self) -> (String, String) {
        match self {
            Subject::Dfs => ("dfs".into(), "-".into()),
            Subject::Sat(e, a) | Subject::SatOn(e, a, _) => ("sat".into(), format!("{e}/{a}")),
            Subject::SatCages(e, a, _, c) => ("sat".into(), format!("{e}/{a}/{c}")),
        }
    }

    /// The cage encoding, for the SAT backend.
    fn cages(&self) -> CageEncoding {
        match self {
            Subject::SatCages(_, _, _, c) => *c,
            _ => CageEncoding::default(),
        }
    }

    /// The SAT solver, for the SAT backend.
    pub fn solver(&self) -> Option<SatSolver> {
        match self {
            Subject::Dfs => None,
            Subject::Sat(..) => Some(SatSolver::Varisat),
            Subject::SatOn(_, _, s) | Subject::SatCages(_, _, s, _) => Some(*s),
        }
    }

    /// The encoding and at-most-one scheme, for the SAT backend.
    fn encoding(&self) -> Option<(Encoding, Amo)> {
        match self {
            Subject::Dfs => None,
            Subject::Sat(e, a) | Subject::SatOn(e, a, _) | Subject::SatCages(e, a, _, _) => {
                Some((*e, *a))
            }
        }
    }
}

/// Median, 90th percentile and maximum of per-puzzle times.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// Median.
    pub median: Duration,
    /// 90th percentile (nearest rank).
    pub p90: Duration,
    /// Maximum.
    pub max: Duration,
    /// Sum over all puzzles.
    pub total: Duration,
}

impl Spread {
    /// The spread of `times` (sorted in place).
    pub fn of(times: &mut [Duration]) -> Spread {
        if times.is_empty() {
            return Spread::default();
        }
        times.sort_unstable();
        let rank =
            |q: f64| times[((q * times.len() as f64).ceil() as usize).clamp(1, times.len()) - 1];
        Spread {
            median: rank(0.5),
            p90: rank(0.9),
            max: times[times.len() - 1],
            total: times.iter().sum(),
        }
    }
}

/// One row of the table: a subject measured over a set of puzzles.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What was measured.
    pub subject: Subject,
    /// Puzzles measured.
    pub puzzles: usize,
    /// Mean variables, clauses and literals per puzzle (SAT only; over the puzzles whose formula
    /// is within [`CLAUSE_BUDGET`], `None` if none is).
    pub size: Option<[f64; 3]>,
    /// Time to encode a puzzle into an in-memory formula (SAT only).
    pub encode: Option<Spread>,
    /// Time of the backend's solve call (for SAT: encoding, simplification and varisat).
    pub solve: Spread,
    /// Share of puzzles that propagation alone solves: unit propagation over the formula (SAT), or
    /// the native backend's propagation before any guess (`None` if nothing was measured).
    pub propagation: Option<f64>,
    /// Answers that failed verification, or where the backend returned an error.
    pub failures: usize,
    /// Puzzles whose solve a limit (timeout, budget) cut short: their answer is `unknown`.
    pub cut: usize,
}

impl Row {
    /// Puzzles per second of solve time.
    pub fn per_second(&self) -> f64 {
        let secs = self.solve.total.as_secs_f64();
        if secs > 0.0 {
            self.puzzles as f64 / secs
        } else {
            0.0
        }
    }
}

/// Measures `subject` over `puzzles` (each with its unit list), solving within `limits`.
pub fn measure(subject: Subject, puzzles: &[(Grid, &Units)], limits: &Limits) -> Row {
    measure_with(subject, puzzles, limits, &mut |_| {})
}

/// [`measure`], telling `each` of every puzzle: its index before it is measured, `None` once it is
/// (for a progress display).
pub fn measure_with(
    subject: Subject,
    puzzles: &[(Grid, &Units)],
    limits: &Limits,
    each: &mut dyn FnMut(Option<usize>),
) -> Row {
    let backend: Option<Box<dyn Backend>> = match (subject.encoding(), subject.solver()) {
        (Some((e, a)), Some(s)) => SatBackend::new(e, a)
            .with_cages(subject.cages())
            .with_solver(s)
            .ok()
            .map(|b| Box::new(b) as Box<dyn Backend>),
        _ => Some(Box::new(DfsBackend::new())),
    };
    let mut solve_times = Vec::with_capacity(puzzles.len());
    let mut encode_times = Vec::new();
    let mut sizes = [0f64; 3];
    let mut propagated = 0usize;
    let mut failures = 0usize;
    let mut cut = 0usize;
    let mut formula = Formula::new();
    let sat_subject = subject.encoding().is_some();
    let mut encoded = 0usize;
    for (k, (puzzle, units)) in puzzles.iter().enumerate() {
        each(Some(k));
        if let Some((e, a)) = subject.encoding()
            && e.predicted_size(units, a, puzzle.filled())
                .is_none_or(|p| p.clauses <= CLAUSE_BUDGET)
        {
            // A plain formula over the backend's budget is not built here either (the backend
            // refuses it, which counts as a failure): it could exhaust memory.
            encoded += 1;
            formula.clear();
            let t = thread_time();
            let encoded = encode_with(units, puzzle, e, a, subject.cages(), &mut formula);
            encode_times.push(thread_time().saturating_sub(t));
            if encoded.is_ok() {
                let stats = formula.stats();
                sizes[0] += stats.variables as f64;
                sizes[1] += stats.clauses as f64;
                sizes[2] += stats.literals as f64;
                if propagate(&formula) != Propagation::Open {
                    propagated += 1;
                }
            }
        }
        let Some(backend) = &backend else {
            failures += 1;
            each(None);
            continue;
        };
        let t = thread_time();
        let report = backend.solve(units, puzzle, limits);
        solve_times.push(thread_time().saturating_sub(t));
        match report {
            Ok(r) => {
                if r.outcome.status() == crate::Status::Unknown {
                    cut += 1;
                }
                if !sat_subject && r.stats.guesses == 0 {
                    propagated += 1;
                }
                if r.outcome.grids().any(|g| verify(units, puzzle, g).is_err()) {
                    failures += 1;
                }
            }
            Err(_) => failures += 1,
        }
        each(None);
    }
    let n = encoded.max(1) as f64;
    let sat = subject.encoding().is_some();
    Row {
        subject,
        puzzles: puzzles.len(),
        size: (sat && encoded > 0).then(|| sizes.map(|x| x / n)),
        encode: (sat && encoded > 0).then(|| Spread::of(&mut encode_times)),
        solve: Spread::of(&mut solve_times),
        // SAT subjects: the share of formulas unit propagation settles; the native backend: the
        // share of puzzles solved without a guess.
        propagation: if sat {
            (encoded > 0).then(|| propagated as f64 / n)
        } else {
            (!puzzles.is_empty()).then(|| propagated as f64 / puzzles.len() as f64)
        },
        failures,
        cut,
    }
}

fn micros(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us >= 100.0 {
        format!("{us:.0}")
    } else {
        format!("{us:.1}")
    }
}

fn opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map_or_else(|| "-".to_string(), f)
}

/// The columns of both table formats (the solver last, so that the earlier columns keep their
/// places).
const COLUMNS: [&str; 16] = [
    "backend",
    "encoding",
    "puzzles",
    "variables",
    "clauses",
    "literals",
    "encode µs (median)",
    "solve µs median",
    "solve µs p90",
    "solve µs max",
    "puzzles/s",
    "solved by unit propagation",
    "verify failures",
    "total s",
    "solver",
    "cut by limits",
];

fn cells(row: &Row) -> [String; 16] {
    let (backend, encoding) = row.subject.label();
    [
        backend,
        encoding,
        row.puzzles.to_string(),
        opt(row.size.map(|s| s[0]), |x| format!("{x:.0}")),
        opt(row.size.map(|s| s[1]), |x| format!("{x:.0}")),
        opt(row.size.map(|s| s[2]), |x| format!("{x:.0}")),
        row.encode.map_or("-".into(), |e| micros(e.median)),
        micros(row.solve.median),
        micros(row.solve.p90),
        micros(row.solve.max),
        format!("{:.0}", row.per_second()),
        opt(row.propagation, |p| format!("{:.1}%", 100.0 * p)),
        row.failures.to_string(),
        format!("{:.3}", row.solve.total.as_secs_f64()),
        row.subject
            .solver()
            .map_or("-", SatSolver::name)
            .to_string(),
        row.cut.to_string(),
    ]
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = format!("| {} |\n", COLUMNS.join(" | "));
    let _ = writeln!(
        s,
        "|{}",
        COLUMNS
            .iter()
            .enumerate()
            .map(|(i, _)| if i < 2 { "---|" } else { "---:|" })
            .collect::<String>()
    );
    for row in rows {
        let _ = writeln!(s, "| {} |", cells(row).join(" | "));
    }
    s
}

/// The rows as CSV, each prefixed by `file`; `header` adds the header line.
pub fn csv(file: &str, rows: &[Row], header: bool) -> String {
    let quote = |f: &str| {
        if f.contains([',', '"', '\n']) {
            format!("\"{}\"", f.replace('"', "\"\""))
        } else {
            f.to_string()
        }
    };
    let mut s = String::new();
    if header {
        let _ = writeln!(s, "file,{}", COLUMNS.map(quote).join(","));
    }
    for row in rows {
        let _ = writeln!(
            s,
            "{},{}",
            quote(file),
            cells(row).map(|c| quote(&c)).join(",")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    #[test]
    fn spread_by_nearest_rank() {
        let mut t: Vec<Duration> = (1..=10).rev().map(Duration::from_micros).collect();
        let s = Spread::of(&mut t);
        assert_eq!(s.median, Duration::from_micros(5));
        assert_eq!(s.p90, Duration::from_micros(9));
        assert_eq!(s.max, Duration::from_micros(10));
        assert_eq!(s.total, Duration::from_micros(55));
        assert_eq!(Spread::of(&mut []), Spread::default());
    }

    fn md_solver_column_ok(row: &Row) -> bool {
        markdown(std::slice::from_ref(row))
            .lines()
            .nth(2)
            .is_some_and(|l| l.ends_with("| varisat | 0 |"))
    }

    #[test]
    fn measures_and_tabulates() {
        // The first Project Euler 96 grid (unique; its solution starts 483).
        let rows = [
            "003020600",
            "900305001",
            "001806400",
            "008102900",
            "700000008",
            "006708200",
            "002609500",
            "800203009",
            "005010300",
        ];
        let values = rows.concat().bytes().map(|b| u16::from(b - b'0')).collect();
        let shape = Shape::new(3, 3).unwrap();
        let puzzle = Grid::from_values(shape, values).unwrap();
        let units = Units::standard(shape);
        let puzzles = vec![(puzzle, &units)];
        let limits = Limits::unique();
        let dfs = measure(Subject::Dfs, &puzzles, &limits);
        assert_eq!((dfs.puzzles, dfs.failures), (1, 0));
        // The native backend's own propagation solves this easy grid without a guess.
        assert!(dfs.size.is_none() && dfs.propagation == Some(1.0));
        let ext = measure(
            Subject::Sat(Encoding::Extended, Amo::Pairwise),
            &puzzles,
            &limits,
        );
        assert_eq!(ext.failures, 0);
        let [vars, clauses, _] = ext.size.unwrap();
        // 729 variables; 11988 clauses plus one unit clause per given (32 givens).
        assert_eq!((vars, clauses), (729.0, 11988.0 + 32.0));
        // An easy puzzle: propagation over the extended encoding (hidden singles are its unit
        // clauses) solves it.
        assert_eq!(ext.propagation, Some(1.0));
        assert!(md_solver_column_ok(&ext));
        for solver in SatSolver::ALL {
            let row = measure(
                Subject::SatOn(Encoding::Pruned, Amo::Pairwise, solver),
                &puzzles,
                &limits,
            );
            // A solver not compiled in fails every puzzle rather than measuring another.
            let expected = if solver.is_available() { 0 } else { 1 };
            assert_eq!(row.failures, expected, "{solver}");
            let line = csv("f", &[row], false);
            assert!(
                line.trim_end().ends_with(&format!("{},0", solver.name())),
                "{line}"
            );
        }
        let md = markdown(&[dfs, ext.clone()]);
        assert_eq!(md.lines().count(), 4);
        assert!(
            md.lines()
                .nth(3)
                .unwrap()
                .starts_with("| sat | extended/pairwise | 1 | 729 | 12020 |")
        );
        let c = csv("pe96.txt", &[ext], true);
        assert!(c.starts_with("file,backend,encoding,"));
        assert!(
            c.lines()
                .nth(1)
                .unwrap()
                .starts_with("pe96.txt,sat,extended/pairwise,1,729,12020,")
        );
    }

    /// A plain formula over the budget (the extended pairwise encoding of an empty 64x64 grid,
    /// 33 million clauses) is neither built by the study nor solved: a failure, and no size.
    #[test]
    fn a_formula_over_the_budget_is_a_failure_not_a_measurement() {
        let shape = Shape::new(8, 8).unwrap();
        let units = Units::standard(shape);
        let puzzles = vec![(Grid::empty(shape), &units)];
        let row = measure(
            Subject::Sat(Encoding::Extended, Amo::Pairwise),
            &puzzles,
            &Limits::first(),
        );
        assert_eq!((row.puzzles, row.failures), (1, 1));
        assert_eq!((row.size, row.propagation), (None, None));
        assert!(markdown(&[row]).contains("| sat | extended/pairwise | 1 | - | - | - |"));
    }
}
