//! Command-line arguments (clap derive), validated into typed options before any work starts.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};

use satdoku::Shape;
use satdoku::format::{Alphabet, Format, ReadOptions};

const EXAMPLES: &str = "\
Examples:
  satdoku solve fixtures/pe96.txt                 solve every puzzle, print solutions in the input's layout
  satdoku solve --unique --output json top95.txt  prove uniqueness, one JSON object per puzzle
  echo 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... | satdoku solve
  satdoku solve --box 2x3 six.txt                 a 6x6 grid with boxes of 2 rows x 3 columns
  satdoku solve --symbols 0-9a-f hex.csv          force an alphabet (0 is then a value, '.' the blank)

Exit status (solve):
  0  every puzzle solved (and unique, when counting)
  1  some puzzle has no solution, or several when counting (--unique, --limit), or hit a limit
  2  bad input or usage (the other puzzles are still solved); takes precedence over 1
  3  with --backend both: the backends disagree on some puzzle (takes precedence over 2)";

/// Solve Sudoku-family grids of any box shape with a native backend and a SAT backend.
#[derive(Debug, Parser)]
#[command(name = "satdoku", version, about, after_help = EXAMPLES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles: one output record per input puzzle, in input order.
    #[command(after_help = EXAMPLES)]
    Solve(SolveArgs),
    /// Cross-check: run both backends on every puzzle; they must agree and every grid must verify.
    #[command(after_help = CHECK_HELP)]
    Check(CheckArgs),
    /// Check solutions produced elsewhere: puzzle i against solution i, any format on either side.
    #[command(after_help = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Write puzzles as DIMACS CNF for any SAT solver, or print formula sizes (--stats).
    #[command(after_help = ENCODE_HELP)]
    Encode(EncodeArgs),
    /// Read an external SAT solver's answer to an encoded puzzle and print the grid (verified).
    #[command(after_help = DECODE_HELP)]
    Decode(DecodeArgs),
    /// Measure backends and encodings on puzzle files: sizes, times, propagation; a table per file.
    #[command(after_help = STUDY_HELP)]
    Study(StudyArgs),
}

const STUDY_HELP: &str = "\
Per file and per backend/encoding: variables, clauses and literals (mean per puzzle), encode time,
solve time (median, p90, max; thread CPU time, one thread), puzzles/s, the share of puzzles that unit
propagation over the CNF alone solves, and how many answers failed verification (every answer is
checked).

Examples:
  satdoku study fixtures/top95.txt fixtures/pe96.txt
  satdoku study --backends sat --encodings extended,pruned --amo sequential --table csv big.txt";

/// Backends the study can measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StudyBackendArg {
    /// The native backend.
    Dfs,
    /// The SAT backend, once per encoding.
    Sat,
}

/// Table formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum TableArg {
    /// A Markdown table per file.
    #[default]
    Markdown,
    /// One CSV table, a row per file and configuration.
    Csv,
}

/// Options of `satdoku study`.
#[derive(Debug, Args)]
pub struct StudyArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Backends to measure.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [StudyBackendArg::Dfs, StudyBackendArg::Sat])]
    pub backends: Vec<StudyBackendArg>,

    /// Encodings to measure with the SAT backend.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [EncodingArg::Minimal, EncodingArg::Efficient, EncodingArg::Extended, EncodingArg::Pruned])]
    pub encodings: Vec<EncodingArg>,

    /// At-most-one encodings to measure with the SAT backend.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [AmoArg::Pairwise])]
    pub amo: Vec<AmoArg>,

    /// Count to 2 (uniqueness) instead of stopping at the first solution.
    #[arg(long)]
    pub unique: bool,

    /// Measure at most the first N puzzles of each file.
    #[arg(long, value_name = "N")]
    pub max: Option<usize>,

    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub table: TableArg,
}

const DECODE_HELP: &str = "\
Standard output holds only the grid, in the puzzle's layout, after the independent verifier has accepted
it.

Exit status (decode):
  0  the model decodes to a valid solution
  1  the solver answered UNSAT (no solution) or UNKNOWN
  2  bad input: unreadable puzzle or model, or a model that breaks a rule (named)";

const VERIFY_HELP: &str = "\
The reading options (--format, --symbols, --box, --column) apply to both files. Each solution must fill
every cell with a digit in range, keep every given of its puzzle, and hold each
digit once in every row, column and box. With --unique, both backends must also prove that the puzzle
has no other solution.

Examples:
  satdoku verify --puzzles fixtures/16x16-poj3076-sample.txt --solutions fixtures/16x16-poj3076-sample.solution.txt
  other-solver < puzzles.txt > answers.txt; satdoku verify --unique --puzzles puzzles.txt --solutions answers.txt

Exit status (verify):
  0  every pair passes
  1  some solution is invalid (or, with --unique, not the only one)
  2  bad input or usage, or the files hold different numbers of grids
  3  with --unique: the backends disagree on some puzzle (takes precedence)";

/// Options of `satdoku verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The puzzles.
    #[arg(long, value_name = "FILE")]
    pub puzzles: PathBuf,

    /// The solutions, in the same order (any supported format).
    #[arg(long, value_name = "FILE")]
    pub solutions: PathBuf,

    /// Also prove with both backends that each puzzle has no other solution.
    #[arg(long)]
    pub unique: bool,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub sat: SatArgs,

    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub output: ReportArg,

    /// Worker threads (default: every core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,

    /// Print no summary on standard error.
    #[arg(long)]
    pub quiet: bool,
}

const CHECK_HELP: &str = "\
Both backends count solutions up to --limit (default 2). They agree when their statuses match (none,
unique, multiple), every grid either returns passes the independent verifier, a unique solution is the
same grid from both, and a backend claiming several solutions gives two different ones.

Examples:
  satdoku check fixtures/pe96.txt
  satdoku check --output json --limit 10 puzzles.txt

Exit status (check):
  0  the backends agree on every puzzle (whatever the number of solutions)
  1  some puzzle could not be decided (a limit was hit)
  2  bad input or usage (the other puzzles are still checked)
  3  the backends disagree on some puzzle, or returned an invalid grid (takes precedence)";

/// How `check` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ReportArg {
    /// A line per puzzle, problems indented below, a summary line at the end.
    #[default]
    Text,
    /// JSON Lines, one object per puzzle; the summary goes to standard error.
    Json,
}

/// SAT backend options.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct SatArgs {
    /// CNF encoding for the SAT backend (default: pruned, the fastest measured).
    #[arg(long, value_enum, default_value_t)]
    pub encoding: EncodingArg,

    /// At-most-one constraints of the SAT encoding.
    #[arg(long, value_enum, default_value_t)]
    pub amo: AmoArg,

    /// What the SAT backend's own clause-level code does before varisat.
    #[arg(long, value_enum, default_value_t)]
    pub simplify: SimplifyArg,
}

/// The CNF encodings (see `satdoku::sat::Encoding` for their sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum EncodingArg {
    /// Lynce & Ouaknine 2006: each cell at least one digit, each unit at most once per digit.
    Minimal,
    /// Weber 2005: minimal + each cell at most one digit.
    Efficient,
    /// Lynce & Ouaknine 2006: efficient + each unit holds each digit at least once.
    Extended,
    /// After Kwon & Jain 2006: extended, simplified by the givens while encoding (the fastest).
    #[default]
    Pruned,
}

/// The at-most-one encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum AmoArg {
    /// Every pair of literals: n(n-1)/2 binary clauses.
    #[default]
    Pairwise,
    /// Sinz 2005 sequential counter: 3n-4 clauses, n-1 auxiliary variables.
    Sequential,
    /// Chen 2010 2-product: about 2n + 4√n clauses.
    Product,
}

/// Clause-level simplification before varisat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SimplifyArg {
    /// None: varisat gets the whole formula.
    None,
    /// Unit propagation over the clauses.
    Propagate,
    /// Unit propagation, then failed-literal probing.
    #[default]
    Probe,
}

impl EncodingArg {
    /// The library's encoding.
    pub fn get(self) -> satdoku::sat::Encoding {
        use satdoku::sat::Encoding;
        match self {
            EncodingArg::Minimal => Encoding::Minimal,
            EncodingArg::Efficient => Encoding::Efficient,
            EncodingArg::Extended => Encoding::Extended,
            EncodingArg::Pruned => Encoding::Pruned,
        }
    }
}

impl AmoArg {
    /// The library's at-most-one encoding.
    pub fn get(self) -> satdoku::sat::Amo {
        use satdoku::sat::Amo;
        match self {
            AmoArg::Pairwise => Amo::Pairwise,
            AmoArg::Sequential => Amo::Sequential,
            AmoArg::Product => Amo::Product,
        }
    }
}

impl SimplifyArg {
    /// The library's simplification setting.
    pub fn get(self) -> satdoku::sat::Simplify {
        use satdoku::sat::Simplify;
        match self {
            SimplifyArg::None => Simplify::None,
            SimplifyArg::Propagate => Simplify::Propagate,
            SimplifyArg::Probe => Simplify::Probe,
        }
    }
}

const ENCODE_HELP: &str = "\
Variables: x(r, c, d) = r*N*N + c*N + d for 0-based row r and column c and digit d in 1..N, the same
for every encoding, so a model decodes with the puzzle alone; auxiliary variables come after N^3.

Examples:
  satdoku encode fixtures/top95.txt --out-dir cnf/        one DIMACS file per puzzle: cnf/puzzle-<index>.cnf
  echo 4.....8.5.3.......... | satdoku encode > p.cnf       a single puzzle to standard output
  satdoku encode --stats fixtures/pe96.txt                variables, clauses, literals per encoding
  cadical p.cnf > p.out; satdoku decode --puzzle p.txt p.out";

/// Options of `satdoku encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// The encoding (default: pruned; with --stats and no --encoding: every encoding).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,

    /// At-most-one constraints.
    #[arg(long, value_enum, default_value_t)]
    pub amo: AmoArg,

    /// Write one file per puzzle, DIR/puzzle-<index>.cnf, instead of a single puzzle to stdout.
    #[arg(long, value_name = "DIR", conflicts_with = "stats")]
    pub out_dir: Option<PathBuf>,

    /// Print variables, clauses and literals per puzzle and encoding, and their totals, without
    /// solving.
    #[arg(long)]
    pub stats: bool,
}

/// Options of `satdoku decode`.
#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The puzzle the model answers.
    #[arg(long, value_name = "FILE")]
    pub puzzle: PathBuf,

    /// Which puzzle of FILE (0-based), as numbered by `encode --out-dir`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub index: usize,

    /// The solver's output: SAT-competition `s`/`v` lines, or MiniSat's result file.
    #[arg(value_name = "MODEL")]
    pub model: PathBuf,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// Options of `satdoku check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Count solutions up to K with each backend (K >= 1).
    #[arg(long, value_name = "K", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    #[command(flatten)]
    pub sat: SatArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub output: ReportArg,

    /// Worker threads (default: every core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,

    /// With JSON output, print no summary on standard error.
    #[arg(long)]
    pub quiet: bool,
}

/// Where puzzles come from and how to read them (shared by every command that reads puzzle files).
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Puzzle files; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// How to read puzzle files: format, alphabet, box shape, CSV column.
#[derive(Debug, Args, Clone)]
pub struct ReadArgs {
    /// Input format (auto-detected by default, for each file).
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,

    /// Symbol alphabet for digits 1..N, as ranges and characters, e.g. `A-P`, `1-9A-G`, `0-9a-f`.
    #[arg(long, value_name = "S")]
    pub symbols: Option<String>,

    /// Box shape, rows x columns, e.g. `2x3`; needed when N is not a square (6 and 12 have defaults).
    #[arg(long = "box", value_name = "RxC")]
    pub box_shape: Option<String>,

    /// CSV column holding the grids (default: found by name or by shape).
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
}

/// The input formats, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Detect from the input.
    Auto,
    /// One puzzle per line, N² symbols.
    Line,
    /// N lines of N symbols per puzzle.
    Block,
    /// 16 lines of letters A-P, `-` blank.
    Letters,
    /// N lines of N whitespace-separated integers.
    Ints,
    /// CSV with a header row.
    Csv,
}

/// How to print results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum OutputArg {
    /// Each solution in the layout its puzzle came in (CSV input gives lines).
    #[default]
    Same,
    /// One line per puzzle.
    Line,
    /// N lines per puzzle, records separated by a blank line.
    Block,
    /// JSON Lines: one object per input puzzle.
    Json,
}

/// Which solver answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum BackendArg {
    /// The native depth-first search.
    #[default]
    Dfs,
    /// The SAT encoding solved by varisat.
    Sat,
    /// Both, cross-checked: a puzzle is answered only if they agree (exit 3 otherwise).
    Both,
}

/// Per-puzzle limits: past them a puzzle gets status `unknown` and the run goes on.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct LimitArgs {
    /// Give up on a puzzle after SECS seconds (status `unknown`).
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<std::time::Duration>,

    /// Give up on a puzzle after N search nodes of the native backend (varisat exposes no conflict
    /// count, so the SAT backend is bounded by --timeout only).
    #[arg(long, value_name = "N")]
    pub budget: Option<u64>,
}

fn parse_secs(s: &str) -> std::result::Result<std::time::Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("expected seconds, e.g. 2 or 0.5, got {s:?}"))?;
    std::time::Duration::try_from_secs_f64(secs)
        .map_err(|_| format!("expected a positive number of seconds, got {s:?}"))
}

/// Options of `satdoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Count solutions up to 2 and report unique / multiple / none.
    #[arg(long, conflicts_with = "limit")]
    pub unique: bool,

    /// Count solutions up to K (K >= 1; 1 = first solution only).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    /// Output layout.
    #[arg(long, value_enum, default_value_t)]
    pub output: OutputArg,

    /// Solver backend.
    #[arg(long, value_enum, default_value_t)]
    pub backend: BackendArg,

    #[command(flatten)]
    pub sat: SatArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Worker threads (default: every core; 1 when reading puzzles typed at a terminal).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,

    /// Print a summary (puzzles, statuses, time, puzzles/s) to standard error even when it is not a
    /// terminal.
    #[arg(long, conflicts_with = "quiet")]
    pub summary: bool,

    /// Print no summary.
    #[arg(long)]
    pub quiet: bool,
}

impl LimitArgs {
    /// Says on standard error that `--budget` does not bound the SAT backend, when it is given to a
    /// run that uses that backend (it still bounds the native one).
    pub fn warn_if_budget_misses_sat(&self) {
        if self.budget.is_some() {
            eprintln!(
                "satdoku: note: --budget counts the native backend's search nodes; the SAT backend \
                 (varisat, which counts no conflicts it would show) is bounded by --timeout only"
            );
        }
    }

    /// `base` with this budget, and a deadline of now + timeout (call when a puzzle starts).
    pub fn apply(&self, base: satdoku::Limits) -> satdoku::Limits {
        base.with_budget(self.budget.or(base.budget()))
            .with_timeout(self.timeout.or(base.timeout()))
    }
}

impl ReadArgs {
    /// Validates `--symbols`, `--box` and `--format` into reader options.
    ///
    /// # Errors
    /// A message naming the flag whose value is wrong.
    pub fn read_options(&self) -> Result<ReadOptions> {
        let symbols = match &self.symbols {
            Some(s) => Some(Alphabet::parse(s).with_context(|| format!("--symbols {s:?}"))?),
            None => None,
        };
        let shape = match &self.box_shape {
            Some(s) => Some(Shape::parse(s).with_context(|| format!("--box {s:?}"))?),
            None => None,
        };
        if let (Some(a), Some(sh)) = (&symbols, shape)
            && a.len() != sh.n()
        {
            bail!(
                "--symbols has {} symbols but --box {sh} needs {}",
                a.len(),
                sh.n()
            );
        }
        let format = match self.format {
            FormatArg::Auto => None,
            FormatArg::Line => Some(Format::Line),
            FormatArg::Block => Some(Format::Block),
            FormatArg::Letters => Some(Format::Letters),
            FormatArg::Ints => Some(Format::Ints),
            FormatArg::Csv => Some(Format::Csv),
        };
        Ok(ReadOptions {
            format,
            symbols,
            shape,
            column: self.column.clone(),
            allow_clashes: false,
        })
    }
}

impl InputArgs {
    /// The reader options (see [`ReadArgs::read_options`]).
    ///
    /// # Errors
    /// A message naming the flag whose value is wrong.
    pub fn read_options(&self) -> Result<ReadOptions> {
        self.read.read_options()
    }
}
