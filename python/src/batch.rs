//! The batch operations: solve (one backend, or both cross-checked), check, verify, certify, each
//! row as the CLI's command treats one puzzle, the results gathered into NumPy arrays (status
//! codes, solutions, counts, work, microseconds) and per-row messages.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use satdoku::sat::{
    Amo, CageEncoding, Certifier, CertifyError, Encoding, SatBackend, SatSolver, Settled, Simplify,
};
use satdoku::{
    Answer, AutoBackend, Backend, DfsBackend, Grid, Limits, Outcome, Report, SolveError, Status,
    Units, Verdict, Verified, compare_expected, judge, verify,
};

use crate::input::{Loaded, Puzzles};
use crate::run::{Done, par_map, workers};

/// The status words, by code: the CLI's JSON `status` words (`solve`, `check`, `verify`), and
/// `not-run` for rows an interruption left.
pub const STATUS_WORDS: [&str; 14] = [
    "solved",
    "unique",
    "multiple",
    "none",
    "unknown",
    "disagree",
    "internal-error",
    "error",
    "not-run",
    "valid",
    "invalid",
    "not-unique",
    "undecided",
    "unconfirmed",
];

/// A status code (an index into [`STATUS_WORDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Code {
    Solved = 0,
    Unique = 1,
    Multiple = 2,
    None = 3,
    Unknown = 4,
    Disagree = 5,
    Internal = 6,
    Error = 7,
    NotRun = 8,
    Valid = 9,
    Invalid = 10,
    NotUnique = 11,
    Undecided = 12,
    Unconfirmed = 13,
}

impl From<Status> for Code {
    fn from(s: Status) -> Code {
        match s {
            Status::Solved => Code::Solved,
            Status::Unique => Code::Unique,
            Status::Multiple => Code::Multiple,
            Status::None => Code::None,
            Status::Unknown => Code::Unknown,
        }
    }
}

/// Which backend answered (the JSON `backend`): codes of the `backend` array.
const BACKENDS: [&str; 4] = ["", "dfs", "sat", "both"];

fn backend_code(name: &str) -> u8 {
    BACKENDS.iter().position(|b| *b == name).unwrap_or(0) as u8
}

/// A backend as the CLI uses it: every grid verified.
type Checked = Verified<Box<dyn Backend>>;

/// What a batch does to each row.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `satdoku solve` with one backend.
    Solve,
    /// `satdoku solve --backend both`.
    SolveBoth,
    /// `satdoku check`.
    Check,
    /// `satdoku verify` (`--unique`: `unique`).
    Verify { unique: bool },
    /// `satdoku solve --unique --certify DIR`, with the SAT backend's certifying solve.
    Certify,
}

/// The backends and limits of a batch.
struct Settings {
    op: Op,
    limits: Limits,
    /// The one backend of `Solve`; the first (native) of the others.
    first: Checked,
    /// The SAT backend, for two-backend operations.
    second: Option<Checked>,
    certifier: Option<Certifier>,
    certify_dir: Option<PathBuf>,
    /// Keep per-row details (texts, certificates) for single-puzzle calls.
    detail: bool,
}

/// The SAT backend with the options given.
fn sat_backend(
    encoding: &str,
    amo: &str,
    simplify: &str,
    cage_encoding: &str,
    solver: SatSolver,
) -> PyResult<SatBackend> {
    let bad = |what: &str, e: &dyn std::fmt::Display| PyValueError::new_err(format!("{what}: {e}"));
    let encoding: Encoding = encoding
        .parse()
        .map_err(|e| bad(&format!("encoding={encoding:?}"), &e))?;
    let amo: Amo = amo.parse().map_err(|e| bad(&format!("amo={amo:?}"), &e))?;
    let simplify: Simplify = simplify
        .parse()
        .map_err(|e| bad(&format!("simplify={simplify:?}"), &e))?;
    let cages: CageEncoding = cage_encoding
        .parse()
        .map_err(|e| bad(&format!("cage_encoding={cage_encoding:?}"), &e))?;
    SatBackend::new(encoding, amo)
        .with_simplify(simplify)
        .with_cages(cages)
        .with_solver(solver)
        .map_err(|e| bad(&format!("sat_solver={:?}", solver.name()), &e))
}

fn parse_solver(name: Option<&str>, auto: bool) -> PyResult<SatSolver> {
    match name {
        Some(s) => s
            .parse::<SatSolver>()
            .map_err(|e| PyValueError::new_err(format!("sat_solver={s:?}: {e}"))),
        // The auto backend's SAT phase: CaDiCaL when this build has it, as the CLI's.
        None if auto && SatSolver::Cadical.is_available() => Ok(SatSolver::Cadical),
        None => Ok(SatSolver::Varisat),
    }
}

/// One row's result.
#[derive(Default)]
struct RowOut {
    code: u8,
    solution: Option<Grid>,
    count: u64,
    complete: bool,
    nodes: u64,
    guesses: u64,
    conflicts: u64,
    micros: u64,
    backend: u8,
    /// `check` and `both`: 1 agree, 0 disagree, -1 unknown.
    agree: i8,
    /// Two-backend operations: each backend's status code, micros and nodes (dfs, sat).
    each: [(u8, u64, u64); 2],
    /// `certify`: 1 certified, 0 not, -1 not asked.
    certified: i8,
    /// The error, problems or violation, for rows that have one.
    message: Option<String>,
    detail: Option<Detail>,
}

/// What single-puzzle calls show beyond the arrays.
#[derive(Default)]
struct Detail {
    /// The solution(s) in the puzzle's layout, compact (the JSON's `solution` / `solutions`).
    texts: Vec<String>,
    /// The second solution of a `multiple` answer.
    second: Option<Grid>,
    /// The comparison with the solution given with the puzzle (`expected`), and its problem.
    expected: Option<(&'static str, Option<String>)>,
    note: Option<String>,
    cnf: Option<Vec<u8>>,
    drat: Option<Vec<u8>>,
    /// `verify --unique`: another solution, when there is one.
    other: Option<Grid>,
}

fn micros(d: Duration) -> u64 {
    d.as_micros().min(u64::MAX as u128) as u64
}

fn is_internal(e: &SolveError) -> bool {
    matches!(
        e,
        SolveError::InvalidAnswer { .. } | SolveError::RepeatedSolution { .. }
    )
}

/// A report's status, work and grids into `out`.
fn fill(out: &mut RowOut, report: &Report, loaded: &Loaded, detail: bool) {
    let o = &report.outcome;
    out.code = Code::from(o.status()) as u8;
    out.count = o.count();
    out.complete = match o {
        Outcome::Multiple { complete, .. } => *complete,
        Outcome::Unknown { .. } => false,
        _ => true,
    };
    out.nodes = report.stats.nodes;
    out.guesses = report.stats.guesses;
    out.conflicts = report.stats.conflicts;
    out.solution = match o {
        Outcome::Found(g) | Outcome::Unique(g) => Some(g.clone()),
        Outcome::Multiple { solutions, .. } => Some((*solutions[0]).clone()),
        _ => None,
    };
    if detail {
        let d = out.detail.get_or_insert_with(Detail::default);
        let layout = &loaded.layout;
        d.texts = match o {
            Outcome::Multiple { solutions, .. } => {
                solutions.iter().map(|g| layout.compact(g)).collect()
            }
            o => o
                .solution()
                .map(|g| layout.compact(g))
                .into_iter()
                .collect(),
        };
        if let Outcome::Multiple { solutions, .. } = o {
            d.second = Some((*solutions[1]).clone());
        }
        d.note = loaded.note.clone();
        if let Some(given) = &loaded.expected {
            let e = compare_expected(&loaded.units, &loaded.grid, given, o);
            d.expected = Some((e.word(), e.problem()));
        }
    }
}

/// The joint answer of two backends, as the CLI decides it (`src/cli/joint.rs`): the status code,
/// the report it comes from, whether they agree (1, 0, -1 unknown), and the problems.
fn joint<'a>(
    units: &Units,
    puzzle: &Grid,
    answers: &'a [Answer; 2],
) -> (Code, Option<&'a Report>, i8, Vec<String>) {
    for a in answers {
        if let Err(e) = &a.report
            && is_internal(e)
        {
            return (Code::Internal, None, 0, vec![format!("{}: {e}", a.backend)]);
        }
    }
    let settled = |a: &'a Answer| match &a.report {
        Ok(r) if r.outcome.status() != Status::Unknown => Some(r),
        _ => None,
    };
    let one = |r: &'a Report, settled: &Answer, other: &Answer| {
        (
            Code::from(r.outcome.status()),
            Some(r),
            -1,
            vec![format!(
                "only {} settled it; {} did not within the limits",
                settled.backend, other.backend
            )],
        )
    };
    let [a, b] = answers;
    match (&a.report, &b.report) {
        (Err(e), Err(_)) => return (Code::Error, None, -1, vec![e.to_string()]),
        (Err(_), Ok(_)) => {
            return match settled(b) {
                Some(r) => one(r, b, a),
                None => (Code::Unknown, None, -1, Vec::new()),
            };
        }
        (Ok(_), Err(_)) => {
            return match settled(a) {
                Some(r) => one(r, a, b),
                None => (Code::Unknown, None, -1, Vec::new()),
            };
        }
        (Ok(_), Ok(_)) => {}
    }
    match judge(units, puzzle, answers) {
        Verdict::Agree(_) => match &a.report {
            Ok(r) => (Code::from(r.outcome.status()), Some(r), 1, Vec::new()),
            Err(_) => (Code::Unknown, None, -1, Vec::new()),
        },
        Verdict::Disagree(problems) => (
            Code::Disagree,
            None,
            0,
            problems.iter().map(ToString::to_string).collect(),
        ),
        Verdict::Inconclusive => match (settled(a), settled(b)) {
            (Some(r), None) => one(r, a, b),
            (None, Some(r)) => one(r, b, a),
            _ => (Code::Unknown, None, -1, Vec::new()),
        },
    }
}

fn timed(backend: &dyn Backend, units: &Units, grid: &Grid, limits: &Limits) -> Answer {
    let start = Instant::now();
    let report = backend.solve(units, grid, limits);
    Answer {
        backend: backend.name(),
        report,
        time: start.elapsed(),
    }
}

fn each(a: &Answer) -> (u8, u64, u64) {
    match &a.report {
        Ok(r) => (
            Code::from(r.outcome.status()) as u8,
            micros(a.time),
            r.stats.nodes,
        ),
        Err(e) if is_internal(e) => (Code::Internal as u8, micros(a.time), 0),
        Err(_) => (Code::Error as u8, micros(a.time), 0),
    }
}

impl Settings {
    /// One row's work.
    fn row(&self, puzzles: &Puzzles, solutions: Option<&Puzzles>, i: usize) -> RowOut {
        let mut out = RowOut {
            agree: -1,
            certified: -1,
            ..RowOut::default()
        };
        let loaded = match puzzles.row(i) {
            Ok(l) => l,
            Err(e) => {
                out.code = Code::Error as u8;
                out.message = Some(e);
                return out;
            }
        };
        let (units, grid) = (&*loaded.units, &loaded.grid);
        let place = puzzles.place(i);
        match self.op {
            Op::Solve => {
                let a = timed(&self.first, units, grid, &self.limits);
                out.micros = micros(a.time);
                match &a.report {
                    Ok(r) => {
                        fill(&mut out, r, &loaded, self.detail);
                        out.backend = backend_code(r.stats.answered_by.unwrap_or(a.backend));
                    }
                    Err(e) => {
                        out.code = if is_internal(e) {
                            Code::Internal
                        } else {
                            Code::Error
                        } as u8;
                        out.message = Some(format!("{place}: {e}"));
                    }
                }
            }
            Op::SolveBoth | Op::Check => {
                let second = self.second.as_ref().expect("two backends");
                let answers = [
                    timed(&self.first, units, grid, &self.limits),
                    timed(second, units, grid, &self.limits),
                ];
                let (code, report, agree, problems) = joint(units, grid, &answers);
                if let Some(r) = report {
                    fill(&mut out, r, &loaded, self.detail);
                }
                out.code = code as u8;
                out.agree = agree;
                out.backend = backend_code("both");
                out.each = [each(&answers[0]), each(&answers[1])];
                out.micros = micros(answers[0].time + answers[1].time);
                out.nodes = out.each[0].2 + out.each[1].2;
                if !problems.is_empty() {
                    out.message = Some(format!("{place}: {}", problems.join("; ")));
                }
            }
            Op::Verify { unique } => self.verify_row(&mut out, &loaded, solutions, i, unique),
            Op::Certify => self.certify_row(&mut out, &loaded, i, &place),
        }
        out
    }

    fn verify_row(
        &self,
        out: &mut RowOut,
        loaded: &Loaded,
        solutions: Option<&Puzzles>,
        i: usize,
        unique: bool,
    ) {
        let (units, grid) = (&*loaded.units, &loaded.grid);
        let mut set = |code: Code, message: String| {
            out.code = code as u8;
            out.message = Some(message);
        };
        let solution = match solutions.map(|s| s.row(i)) {
            None => return set(Code::Error, format!("no solution given for puzzle {i}")),
            Some(Err(e)) => return set(Code::Error, e),
            Some(Ok(s)) => s.grid.clone(),
        };
        if grid.shape() != solution.shape() {
            return set(
                Code::Invalid,
                format!(
                    "invalid: the solution is {0}x{0}, the puzzle {1}x{1}",
                    solution.n(),
                    grid.n()
                ),
            );
        }
        if let Err(v) = verify(units, grid, &solution) {
            return set(Code::Invalid, format!("invalid: {v}"));
        }
        out.solution = Some(solution.clone());
        if !unique {
            out.code = Code::Valid as u8;
            return;
        }
        let second = self.second.as_ref().expect("two backends");
        let answers = [
            timed(&self.first, units, grid, &self.limits),
            timed(second, units, grid, &self.limits),
        ];
        out.each = [each(&answers[0]), each(&answers[1])];
        out.micros = micros(answers[0].time + answers[1].time);
        let (code, report, agree, problems) = joint(units, grid, &answers);
        out.agree = agree;
        let status = report.map(|r| r.outcome.status());
        match (code, status) {
            (_, Some(Status::Multiple)) => {
                if let Some(Outcome::Multiple { solutions, .. }) = report.map(|r| &r.outcome) {
                    let other = solutions.iter().find(|g| ***g != solution);
                    if self.detail {
                        out.detail.get_or_insert_with(Detail::default).other =
                            other.map(|g| (**g).clone());
                    }
                }
                set(
                    Code::NotUnique,
                    "valid, but not unique: another solution exists".into(),
                )
            }
            (_, Some(Status::Unique)) if agree == 1 => {
                out.code = Code::Valid as u8;
            }
            (_, Some(Status::Unique)) => set(
                Code::Unconfirmed,
                format!(
                    "valid; unique according to one backend only: {}",
                    problems.join("; ")
                ),
            ),
            (Code::Unknown, _) => set(
                Code::Undecided,
                "valid, but uniqueness was not decided within the limits".into(),
            ),
            (Code::Error, _) => set(
                Code::Error,
                format!(
                    "valid, but uniqueness cannot be decided: {}",
                    problems.join("; ")
                ),
            ),
            (Code::Disagree, _) => set(
                Code::Disagree,
                format!(
                    "valid, but the backends disagree on uniqueness: {}",
                    problems.join("; ")
                ),
            ),
            _ => set(
                Code::Internal,
                format!(
                    "valid, but the backends found no solution (or another status) for a puzzle \
                     with a verified solution{}",
                    if problems.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", problems.join("; "))
                    }
                ),
            ),
        }
    }

    fn certify_row(&self, out: &mut RowOut, loaded: &Loaded, i: usize, place: &str) {
        let (units, grid) = (&*loaded.units, &loaded.grid);
        let certifier = self.certifier.as_ref().expect("a certifier");
        let start = Instant::now();
        let settled = certifier.solve_unique(units, grid);
        out.micros = micros(start.elapsed());
        out.backend = backend_code("sat");
        let Settled {
            outcome,
            certificate,
            uncertified,
            stats,
            ..
        } = match settled {
            Ok(s) => s,
            Err(CertifyError::InvalidSolution { violation }) => {
                out.code = Code::Internal as u8;
                out.message = Some(format!(
                    "{place}: internal error: the sat backend returned an invalid grid: {violation}"
                ));
                return;
            }
            Err(e) => {
                // Too large to certify, or no proof within the limits: the plain answer stands
                // uncertified (`certified` 0), as the CLI's.
                match self.first.solve(units, grid, &self.limits) {
                    Ok(r) => {
                        fill(out, &r, loaded, self.detail);
                        out.certified = 0;
                        out.message = Some(format!("{place}: no certificate: {e}"));
                    }
                    Err(se) => {
                        out.code = if is_internal(&se) {
                            Code::Internal
                        } else {
                            Code::Error
                        } as u8;
                        out.message = Some(format!("{place}: {se}"));
                    }
                }
                return;
            }
        };
        // Every grid verified, as a `Verified` backend's.
        for g in outcome.grids() {
            if let Err(v) = verify(units, grid, g) {
                out.code = Code::Internal as u8;
                out.message = Some(format!(
                    "{place}: internal error: the sat backend returned an invalid grid: {v}"
                ));
                return;
            }
        }
        let report = Report::new(outcome, stats);
        fill(out, &report, loaded, self.detail);
        match (certificate, uncertified) {
            (Some(c), _) => {
                if let Err(e) = c.check() {
                    out.code = Code::Internal as u8;
                    out.certified = 0;
                    out.message = Some(format!(
                        "{place}: the certificate's proof does not check: {e}"
                    ));
                    return;
                }
                if let Some(dir) = &self.certify_dir
                    && let Err(e) = c.write_files(dir, &format!("puzzle-{i:06}"))
                {
                    out.certified = 0;
                    out.message = Some(format!(
                        "{place}: no certificate: writing to {}: {e}",
                        dir.display()
                    ));
                    return;
                }
                out.certified = 1;
                if self.detail {
                    let (mut cnf, mut drat) = (Vec::new(), Vec::new());
                    if c.write_cnf(&mut cnf).is_ok() && c.write_drat(&mut drat).is_ok() {
                        let d = out.detail.get_or_insert_with(Detail::default);
                        d.cnf = Some(cnf);
                        d.drat = Some(drat);
                    }
                }
            }
            (None, Some(e)) => {
                out.certified = 0;
                out.message = Some(format!("{place}: no certificate: {e}"));
            }
            // `multiple`: nothing to certify.
            (None, None) => {}
        }
    }
}

/// A NumPy array from a vector.
fn array<'py, T: numpy::Element>(py: Python<'py>, v: Vec<T>) -> Bound<'py, PyArray1<T>> {
    PyArray1::from_vec(py, v)
}

/// Runs one operation over every row of `puzzles` and returns its arrays and messages as a dict.
///
/// `op`: `solve`, `check`, `verify`, `certify`. `backend` (solve): `auto`, `dfs`, `sat`, `both`.
#[pyfunction]
#[pyo3(signature = (puzzles, op, *, backend="auto", max_solutions=1, timeout=None, budget=None,
    encoding="pruned", amo="auto", simplify="probe", cage_encoding="combinations", sat_solver=None,
    jobs=None, detail=false, solutions=None, unique=false, certify_dir=None))]
#[allow(clippy::too_many_arguments)]
pub fn run_batch<'py>(
    py: Python<'py>,
    puzzles: &Puzzles,
    op: &str,
    backend: &str,
    max_solutions: u64,
    timeout: Option<f64>,
    budget: Option<u64>,
    encoding: &str,
    amo: &str,
    simplify: &str,
    cage_encoding: &str,
    sat_solver: Option<&str>,
    jobs: Option<usize>,
    detail: bool,
    solutions: Option<&Puzzles>,
    unique: bool,
    certify_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let timeout = match timeout {
        None => None,
        Some(t) if t.is_nan() || t < 0.0 => {
            return Err(PyValueError::new_err(format!(
                "timeout={t}: expected a positive number of seconds"
            )));
        }
        Some(t) => Some(Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX)),
    };
    // Without a timeout the solves still stop on Ctrl-C: they run under the stop flag.
    let limits = Limits::count_to(max_solutions)
        .with_budget(budget)
        .with_timeout(timeout);
    let dfs = || -> Checked { Verified::new(Box::new(DfsBackend::new())) };
    let sat_with = |solver| -> PyResult<SatBackend> {
        sat_backend(encoding, amo, simplify, cage_encoding, solver)
    };
    let sat = || -> PyResult<Checked> {
        Ok(Verified::new(Box::new(sat_with(parse_solver(
            sat_solver, false,
        )?)?)))
    };
    let (op, first, second) = match op {
        "solve" => match backend {
            "auto" => {
                let sat = sat_with(parse_solver(sat_solver, true)?)?;
                let auto: Checked =
                    Verified::new(Box::new(AutoBackend::from_phases(DfsBackend::new(), sat)));
                (Op::Solve, auto, None)
            }
            "dfs" => (Op::Solve, dfs(), None),
            "sat" => (Op::Solve, sat()?, None),
            "both" => (Op::SolveBoth, dfs(), Some(sat()?)),
            b => {
                return Err(PyValueError::new_err(format!(
                    "backend={b:?}: expected auto, dfs, sat or both"
                )));
            }
        },
        "check" => (Op::Check, dfs(), Some(sat()?)),
        "verify" => (Op::Verify { unique }, dfs(), Some(sat()?)),
        "certify" => (Op::Certify, sat()?, None),
        o => return Err(PyValueError::new_err(format!("unknown operation {o:?}"))),
    };
    if let Op::Verify { .. } = op {
        match solutions {
            Some(s) if s.len() != puzzles.len() => {
                return Err(PyValueError::new_err(format!(
                    "{} puzzles but {} solutions: give one solution per puzzle",
                    puzzles.len(),
                    s.len()
                )));
            }
            None => return Err(PyValueError::new_err("verify needs solutions")),
            _ => {}
        }
    }
    let certifier = match op {
        Op::Certify => Some(
            Certifier::new()
                .with_solver(parse_solver(sat_solver, false)?)
                .map_err(|e| PyValueError::new_err(e.to_string()))?
                .with_limits(limits),
        ),
        _ => None,
    };
    if let Some(dir) = &certify_dir {
        std::fs::create_dir_all(dir).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("creating {}: {e}", dir.display()))
        })?;
    }
    let settings = Settings {
        op,
        limits,
        first,
        second,
        certifier,
        certify_dir,
        detail,
    };
    let rows = puzzles.len();
    let jobs = workers(jobs, rows);
    let (results, interrupted) = par_map(py, rows, jobs, |i| settings.row(puzzles, solutions, i));
    gather(py, puzzles.n(), results, interrupted, detail)
}

/// The rows' results as arrays: `status` (u8 codes), `solution` (B, N*N; u8 up to N = 255),
/// `count`, `complete`, `nodes`, `guesses`, `conflicts`, `micros`, `backend`, `agree`,
/// `dfs_status`/`sat_status`/`dfs_micros`/`sat_micros`/`dfs_nodes`/`sat_nodes`, `certified`;
/// `messages` ({row: message}); `details` (a list of dicts, with `detail`); `interrupted` (the
/// exception, if a signal stopped the batch).
fn gather<'py>(
    py: Python<'py>,
    n: usize,
    results: Vec<Option<Done<RowOut>>>,
    interrupted: Option<PyErr>,
    detail: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let rows = results.len();
    let cells = n * n;
    let mut status = Vec::with_capacity(rows);
    let mut solution16 = vec![0u16; rows * cells];
    let mut count = Vec::with_capacity(rows);
    let mut complete = Vec::with_capacity(rows);
    let mut nodes = Vec::with_capacity(rows);
    let mut guesses = Vec::with_capacity(rows);
    let mut conflicts = Vec::with_capacity(rows);
    let mut micros = Vec::with_capacity(rows);
    let mut backend = Vec::with_capacity(rows);
    let mut agree = Vec::with_capacity(rows);
    let mut certified = Vec::with_capacity(rows);
    let mut each: [(Vec<u8>, Vec<u64>, Vec<u64>); 2] = Default::default();
    let messages = PyDict::new(py);
    let details = PyList::empty(py);
    for (i, r) in results.into_iter().enumerate() {
        let out = match r {
            Some(Done::Ran(out)) => out,
            Some(Done::Panicked(m)) => RowOut {
                code: Code::Internal as u8,
                message: Some(format!("internal error: a panic in row {i}: {m}")),
                agree: -1,
                certified: -1,
                ..RowOut::default()
            },
            None => RowOut {
                code: Code::NotRun as u8,
                agree: -1,
                certified: -1,
                ..RowOut::default()
            },
        };
        status.push(out.code);
        if let Some(g) = &out.solution
            && g.values().len() == cells
        {
            solution16[i * cells..(i + 1) * cells].copy_from_slice(g.values());
        }
        count.push(out.count);
        complete.push(out.complete);
        nodes.push(out.nodes);
        guesses.push(out.guesses);
        conflicts.push(out.conflicts);
        micros.push(out.micros);
        backend.push(out.backend);
        agree.push(out.agree);
        certified.push(out.certified);
        for (k, e) in out.each.iter().enumerate() {
            each[k].0.push(e.0);
            each[k].1.push(e.1);
            each[k].2.push(e.2);
        }
        if let Some(m) = &out.message {
            messages.set_item(i, m)?;
        }
        if detail {
            let d = PyDict::new(py);
            if let Some(x) = out.detail {
                d.set_item("texts", x.texts)?;
                if let Some(g) = x.second {
                    d.set_item("second", g.values().to_vec())?;
                }
                if let Some((word, problem)) = x.expected {
                    d.set_item("expected", word)?;
                    d.set_item("expected_problem", problem)?;
                }
                d.set_item("note", x.note)?;
                if let Some(c) = x.cnf {
                    d.set_item("cnf", PyBytes::new(py, &c))?;
                }
                if let Some(c) = x.drat {
                    d.set_item("drat", PyBytes::new(py, &c))?;
                }
                if let Some(g) = x.other {
                    d.set_item("other", g.values().to_vec())?;
                }
            }
            details.append(d)?;
        }
    }
    let out = PyDict::new(py);
    out.set_item("status", array(py, status))?;
    let solution = if n <= 255 {
        let small: Vec<u8> = solution16.iter().map(|&v| v as u8).collect();
        array(py, small).reshape([rows, cells])?.into_any()
    } else {
        array(py, solution16).reshape([rows, cells])?.into_any()
    };
    out.set_item("solution", solution)?;
    out.set_item("count", array(py, count))?;
    out.set_item("complete", array(py, complete))?;
    out.set_item("nodes", array(py, nodes))?;
    out.set_item("guesses", array(py, guesses))?;
    out.set_item("conflicts", array(py, conflicts))?;
    out.set_item("micros", array(py, micros))?;
    out.set_item("backend", array(py, backend))?;
    out.set_item("agree", array(py, agree))?;
    out.set_item("certified", array(py, certified))?;
    let [(ds, dm, dn), (ss, sm, sn)] = each;
    out.set_item("dfs_status", array(py, ds))?;
    out.set_item("dfs_micros", array(py, dm))?;
    out.set_item("dfs_nodes", array(py, dn))?;
    out.set_item("sat_status", array(py, ss))?;
    out.set_item("sat_micros", array(py, sm))?;
    out.set_item("sat_nodes", array(py, sn))?;
    out.set_item("messages", messages)?;
    out.set_item("n", n)?;
    if detail {
        out.set_item("details", details)?;
    }
    out.set_item("interrupted", interrupted.map(|e| e.into_value(py)))?;
    Ok(out)
}

/// The DIMACS CNF of row `row` of `puzzles` (the `encode` command's file), as bytes.
#[pyfunction]
#[pyo3(signature = (puzzles, row, *, encoding="pruned", amo="auto", cage_encoding="combinations"))]
pub fn encode<'py>(
    py: Python<'py>,
    puzzles: &Puzzles,
    row: usize,
    encoding: &str,
    amo: &str,
    cage_encoding: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    if row >= puzzles.len() {
        return Err(PyValueError::new_err(format!(
            "row {row} of {}",
            puzzles.len()
        )));
    }
    let loaded = puzzles.row(row).map_err(PyValueError::new_err)?;
    let bad = |what: String| PyValueError::new_err(what);
    let encoding: Encoding = encoding
        .parse()
        .map_err(|e| bad(format!("encoding={encoding:?}: {e}")))?;
    let amo: Amo = amo.parse().map_err(|e| bad(format!("amo={amo:?}: {e}")))?;
    let cages: CageEncoding = cage_encoding
        .parse()
        .map_err(|e| bad(format!("cage_encoding={cage_encoding:?}: {e}")))?;
    let mut out = Vec::new();
    let written = py.detach(|| {
        satdoku::sat::write_dimacs_with(&mut out, &loaded.units, &loaded.grid, encoding, amo, cages)
            .map(|_| ())
    });
    written.map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", puzzles.place(row))))?;
    Ok(PyBytes::new(py, &out))
}

/// The SAT solvers this build has (`varisat`, and `cadical` with the `cadical` feature).
#[pyfunction]
pub fn sat_solvers() -> Vec<&'static str> {
    SatSolver::available()
        .into_iter()
        .map(|s| s.name())
        .collect()
}

/// Checks a DRAT proof that the CNF is unsatisfiable with satdoku's own checker (as
/// `satdoku::sat::check_drat`): raises `ValueError` naming what fails.
#[pyfunction]
pub fn check_drat(py: Python<'_>, cnf: Vec<u8>, drat: Vec<u8>) -> PyResult<()> {
    py.detach(|| satdoku::sat::check_drat(&cnf, &drat))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Checks a certificate of `puzzle` (its first row) as `satdoku::sat::check_certificate` does:
/// `solution`, if given, solves the puzzle; every clause of `cnf` is one of the puzzle's plain
/// CNF's, a given's unit clause, or the one excluding `solution`; and `drat` refutes `cnf`.
/// Raises `ValueError` naming what fails.
#[pyfunction]
#[pyo3(signature = (puzzle, cnf, drat, solution=None))]
pub fn check_certificate(
    py: Python<'_>,
    puzzle: &Puzzles,
    cnf: Vec<u8>,
    drat: Vec<u8>,
    solution: Option<&Puzzles>,
) -> PyResult<()> {
    let loaded = only_row(puzzle, "puzzle")?;
    let solved = solution.map(|s| only_row(s, "solution")).transpose()?;
    py.detach(|| {
        satdoku::sat::check_certificate(
            &loaded.units,
            &loaded.grid,
            solved.as_ref().map(|s| &s.grid),
            &cnf,
            &drat,
        )
    })
    .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The one puzzle of `p`, or why there is not exactly one.
fn only_row<'a>(
    p: &'a Puzzles,
    what: &str,
) -> PyResult<std::borrow::Cow<'a, crate::input::Loaded>> {
    if p.len() != 1 {
        return Err(PyValueError::new_err(format!(
            "{what}: one puzzle expected, {} given",
            p.len()
        )));
    }
    p.row(0).map_err(PyValueError::new_err)
}
