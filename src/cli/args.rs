//! Command-line arguments (clap derive), validated into typed options before any work starts.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};

use satdoku::Shape;
use satdoku::format::{Alphabet, Format, ReadOptions};

/// The first line of every command's exit-status list.
macro_rules! exit_status {
    () => {
        "Exit status (a run's is the highest of its items', so the list is in order of precedence):\n"
    };
}

/// The exit-status line of a batch command stopped by Ctrl-C or SIGTERM.
macro_rules! exit_interrupted {
    () => {
        "  130  interrupted (Ctrl-C, SIGTERM): what was finished is written, the rest of what was read\n       is marked interrupted; a second Ctrl-C stops at once"
    };
}

const SOLVE_HELP: &str = concat!(
    "\
Text output: one record per puzzle, in input order: the solution in the puzzle's layout, or a status
word in its place: none, multiple (27) or multiple (100+) when counting (the count, exact or a lower
bound), unknown (a limit was hit), error: ... (bad input), internal-error: ... (see exit status 4).

Examples:
  satdoku solve fixtures/pe96.txt                 solve every puzzle, print solutions in the input's layout
  satdoku solve --unique --output json fixtures/top95.txt   prove uniqueness, one JSON object per puzzle
  echo 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... | satdoku solve
  satdoku solve --box 2x3 fixtures/6x6-sample.txt  a 6x6 grid with boxes of 2 rows x 3 columns
  satdoku solve --symbols 0-9a-f fixtures/16x16-hex.csv   force an alphabet (0 is then a value)

",
    exit_status!(),
    "  0    every puzzle solved (and unique, when counting)
  1    some puzzle has no solution, several when counting (--unique, --limit), hit a limit (--timeout,
       --budget), was settled by one backend only (--backend both), or got no certificate (--certify)
  2    bad input or usage (the other puzzles are still solved)
  3    the two backends disagree (--backend both), or an answer contradicts the solution given with
       the puzzle
  4    internal error: a backend returned a grid that the independent verifier rejects (never
       printed as an answer)
",
    exit_interrupted!()
);

const MAIN_HELP: &str = "\
Each command's options, examples and exit statuses: satdoku help COMMAND (or satdoku COMMAND --help).

Examples:
  satdoku solve fixtures/pe96.txt
  satdoku check fixtures/top95.txt
  satdoku verify --puzzles fixtures/16x16-poj3076-sample.txt --solutions fixtures/16x16-poj3076-sample.solution.txt

Exit status: 0 success, 1 a puzzle not answered as asked, 2 bad input or usage, 3 the backends
disagree, 4 internal error, 130 interrupted; each command's help says which it can return.";

/// Solve Sudoku-family grids of any box shape with a native backend and a SAT backend.
#[derive(Debug, Parser)]
#[command(
    name = "satdoku",
    version,
    about,
    after_help = MAIN_HELP,
    disable_help_subcommand = true
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles: one output record per input puzzle, in input order.
    #[command(after_help = SOLVE_HELP)]
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
    /// Make puzzles whose uniqueness both backends settle: any size, variants, jigsaw, killer.
    #[command(after_help = GENERATE_HELP)]
    Generate(GenerateArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Print the man page (roff) to standard output: satdoku.1, or satdoku-COMMAND.1.
    #[command(after_help = MAN_HELP)]
    Man(HelpArgs),
    /// Print the help of satdoku, or of a command.
    #[command(after_help = "Exit status:\n  0    the help was printed\n  2    no such command")]
    Help(HelpArgs),
}

const COMPLETIONS_HELP: &str = "\
Examples:
  satdoku completions bash > ~/.local/share/bash-completion/completions/satdoku
  satdoku completions zsh > ~/.zfunc/_satdoku        (a folder on zsh's fpath)
  satdoku completions fish > ~/.config/fish/completions/satdoku.fish

Exit status:
  0    the script was printed
  2    bad usage (an unknown shell)";

const MAN_HELP: &str = "\
Examples:
  satdoku man > ~/.local/share/man/man1/satdoku.1; man satdoku
  satdoku man solve | man -l -                        satdoku-solve.1: the command's options, examples, exit statuses

Exit status:
  0    the page was printed
  2    no such command";

/// Options of `satdoku completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Options of `satdoku help`.
#[derive(Debug, Args)]
pub struct HelpArgs {
    /// The command whose help to print (all of satdoku's when none).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

const GENERATE_HELP: &str = concat!(
    "\
A random solution grid (the native search with a random value order), then givens removed in a random
order while the puzzle stays unique; every puzzle printed has been settled unique by the native and
the SAT backend, cross-checked and verified (--fast: the native backend alone; where the native
count hits its limit past a hard puzzle's guesses, the SAT backend alone: the record says which).
Puzzle K of a run depends only on --seed and K, never on --jobs.

Difficulty (JSON `difficulty`): easy = naked and hidden singles alone fill every blank (with the
variants' relations: anti-knight, non-consecutive, thermometers, dots, ...); medium = no guess of the
native backend (locked candidates, pairs, the variants' reasoning); hard = at most 20 guesses of the
native backend counting to two; extreme = more. --difficulty easy|medium|hard removes a given only
while the puzzle stays unique and within the level (the puzzles are minimal for their level; with
--minimal, minimal puzzles are filtered instead); --difficulty extreme keeps the minimal puzzles that
are extreme. An attempt that ends at another level is replaced; the record of a puzzle not made says
how many attempts were tried and what they missed by.

Clues placed over the solution (--thermo K, --kropki, --xv; up to 16x16) are true of it, and givens
are removed while the puzzle with them stays unique. Such puzzles are written as sigh constraint
strings (`.Thermo~R1C1~R2C2...`, one line a puzzle, whatever the layout: satdoku's own text
layouts have no clue lines), which `satdoku solve` reads back; JSON records carry the string
(`sigh`) and the clues (`clues`).

Examples:
  satdoku generate --count 5 --seed 1                  five minimal 9x9 puzzles
  satdoku generate --size 16 --givens 45%..65% --count 10 --output json
  satdoku generate --symmetry rotational --difficulty hard
  satdoku generate --variant x,anti-knight --count 3
  satdoku generate --jigsaw --count 3
  satdoku generate --killer --no-givens --count 2
  satdoku generate --thermo 4 --count 2 | satdoku solve --unique
  satdoku generate --kropki --variant strict-kropki --count 2
  satdoku generate --xv --variant strict-xv --difficulty medium
  satdoku generate --variant x,anti-knight --difficulty medium --count 2
  satdoku generate --from fixtures/pe96.txt --output line   new puzzles from these grids' solutions
  satdoku generate --count 3 | satdoku solve --unique

",
    exit_status!(),
    "  0    every puzzle asked for was made
  1    some puzzle was not made within --attempts (the record says why), or its certificate was
       not made (--certify)
  2    bad input or usage: a bad flag (nothing is made), or a grid of --from that cannot be read
       (the other grids are still used)
  3    the two backends disagree on some puzzle (it is not printed)
  4    internal error: a backend returned a grid that the independent verifier rejects (never
       printed as a puzzle)
",
    exit_interrupted!()
);

/// Symmetries of the givens, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SymmetryArg {
    /// Any pattern.
    #[default]
    None,
    /// 180° rotation about the centre.
    Rotational,
    /// Reflection in the main diagonal.
    Diagonal,
    /// Reflection in the vertical middle line (left-right).
    Mirror,
}

impl SymmetryArg {
    /// The library's symmetry.
    pub fn get(self) -> satdoku::generate::Symmetry {
        use satdoku::generate::Symmetry;
        match self {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Rotational => Symmetry::Rotational,
            SymmetryArg::Diagonal => Symmetry::Diagonal,
            SymmetryArg::Mirror => Symmetry::Mirror,
        }
    }
}

/// Difficulty levels, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Singles alone solve it.
    Easy,
    /// No guess of the native backend, but more than singles.
    Medium,
    /// At most 20 guesses of the native backend.
    Hard,
    /// More guesses.
    Extreme,
}

impl LevelArg {
    /// The library's level.
    pub fn get(self) -> satdoku::generate::Level {
        use satdoku::generate::Level;
        match self {
            LevelArg::Easy => Level::Easy,
            LevelArg::Medium => Level::Medium,
            LevelArg::Hard => Level::Hard,
            LevelArg::Extreme => Level::Extreme,
        }
    }
}

/// Options of `satdoku generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Grid side N (9 by default; boxes square, or 2x3 for 6, 3x4 for 12); --box RxC gives the box
    /// shape instead.
    #[arg(long, value_name = "N", conflicts_with = "box_shape")]
    pub size: Option<usize>,

    /// Puzzles to make (at least 1).
    #[arg(long, short = 'n', value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,

    /// Seed of the run (default: from the clock, said on standard error unless -q).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Minimal puzzles: no given (no pair of givens, under a symmetry) can be removed and keep the
    /// puzzle unique (the default). With --difficulty, minimal puzzles filtered by level, instead
    /// of puzzles minimal for their level.
    #[arg(long, conflicts_with = "givens")]
    pub minimal: bool,

    /// Stop removing within this range of givens: counts (`30..40`, `30`) or shares of the cells
    /// (`45%..65%`); grids that stay above it are replaced.
    #[arg(long, value_name = "A..B")]
    pub givens: Option<String>,

    /// Symmetry of the givens.
    #[arg(long, value_enum, default_value_t)]
    pub symmetry: SymmetryArg,

    /// Start from the grids of FILE (solutions, or puzzles whose solution is completed at random)
    /// with their rules, one puzzle per grid, instead of random grids.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "jigsaw"])]
    pub from: Option<PathBuf>,

    /// CSV column of the --from file.
    #[arg(long, value_name = "NAME", requires = "from")]
    pub column: Option<String>,

    /// Random jigsaw regions (N connected regions of N cells) in place of the boxes.
    #[arg(long)]
    pub jigsaw: bool,

    /// Killer cages over the solution, merged while the puzzle stays unique; givens only where
    /// they are needed.
    #[arg(long)]
    pub killer: bool,

    /// With --killer: no givens at all (pure killers).
    #[arg(long, requires = "killer")]
    pub no_givens: bool,

    /// K thermometers over the solution: paths of 3 to 6 cells (9x9; N/2 + 2 at most), a king's
    /// step at a time, along which the digits strictly increase from the bulb; no cell on two.
    #[arg(long, value_name = "K", conflicts_with = "from",
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub thermo: Option<u64>,

    /// Every kropki dot of the solution: white between orthogonal neighbours holding consecutive
    /// digits, black where one is double the other (1 beside 2: either). With --variant
    /// strict-kropki, no dot means neither.
    #[arg(long, conflicts_with = "from")]
    pub kropki: bool,

    /// Every X (sum 10) and V (sum 5) of orthogonal neighbours of the solution. With --variant
    /// strict-xv, no mark means neither sum.
    #[arg(long, conflicts_with = "from")]
    pub xv: bool,

    /// Only puzzles of this difficulty: easy, medium and hard ones are made by removing givens only
    /// while the puzzle stays within the level (minimal for the level); extreme ones are the
    /// minimal puzzles that are extreme.
    #[arg(long, value_enum)]
    pub difficulty: Option<LevelArg>,

    /// The final answer by the native backend alone, without the SAT cross-check (the record says
    /// so: `checked` is ["dfs"]).
    #[arg(long)]
    pub fast: bool,

    /// Attempts per puzzle before giving up on it (default 1000; 20,000 with --difficulty extreme
    /// or --minimal --difficulty); with --difficulty it gives up after 50 without a puzzle of the
    /// level (extreme: when most ended two levels or more below it and none nearer).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub attempts: Option<u64>,

    /// Output layout (same: one line per puzzle; with --from, the layout of its grid).
    #[arg(long, value_enum, default_value_t)]
    pub output: OutputArg,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub certify: CertifyArgs,

    #[command(flatten)]
    pub sat: SatArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub run: RunArgs,

    /// Print a summary to standard error even when it is not a terminal.
    #[arg(long, conflicts_with = "quiet")]
    pub summary: bool,
}

const STUDY_HELP: &str = concat!(
    "\
Per file and per backend/encoding: variables, clauses and literals (mean per puzzle), encode time,
solve time (median, p90, max; thread CPU time, one thread), puzzles/s, the share of puzzles that unit
propagation over the CNF alone solves, and how many answers failed verification (every answer is
checked).

Examples:
  satdoku study fixtures/top95.txt fixtures/pe96.txt
  satdoku study --backends sat --encodings extended,pruned --amo sequential --table csv fixtures/top95.txt
  satdoku study --cage-encodings combinations,sequential --timeout 2 fixtures/variants/killer.txt

--timeout and --budget apply to each puzzle of each configuration: a solve they cut short counts in
the row's last column, \"cut by limits\" (its time is the time until the cut).

",
    exit_status!(),
    "  0    every file was read and measured
  1    a limit (--timeout, --budget) cut some solve short (its row counts them)
  2    bad usage, or some puzzle or file could not be read (the others are measured)"
);

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
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [AmoArg::Auto])]
    pub amo: Vec<AmoArg>,

    /// SAT solvers to measure the SAT backend on (cadical needs the `cadical` feature).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [SolverArg::Varisat])]
    pub solvers: Vec<SolverArg>,

    /// Killer cage encodings to measure with the SAT backend (rows then name theirs); default:
    /// combinations only, unnamed.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub cage_encodings: Vec<CageEncodingArg>,

    /// Count to 2 (uniqueness) instead of stopping at the first solution.
    #[arg(long)]
    pub unique: bool,

    /// Measure at most the first N puzzles of each file.
    #[arg(long, value_name = "N")]
    pub max: Option<usize>,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub table: TableArg,

    /// No progress display on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

const DECODE_HELP: &str = concat!(
    "\
Standard output holds only the grid, in the puzzle's layout, after the independent verifier has accepted
it. MODEL may be `-` for standard input.

Examples:
  mkdir -p target/demo; head -1 fixtures/top95.txt | satdoku encode > target/demo/p.cnf
  cadical target/demo/p.cnf > target/demo/p.out; satdoku decode --cnf target/demo/p.cnf target/demo/p.out
  satdoku encode --out-dir target/demo/cnf fixtures/top95.txt
  cadical target/demo/cnf/puzzle-000007.cnf > target/demo/p.out
  satdoku decode --puzzle fixtures/top95.txt --index 7 target/demo/p.out

",
    "Exit status:
  0    the model decodes to a valid solution of the puzzle
  1    the solver answered UNSAT (the puzzle has no solution) or UNKNOWN (it gave up)
  2    bad input or usage: a puzzle or model that cannot be read, a model of another puzzle, or a model
       that breaks a rule of the puzzle (the rule is named)"
);

const VERIFY_HELP: &str = concat!(
    "\
Each solution must fill every cell with a digit in range, keep every given of its puzzle, and hold each
digit once in every row, column and box. With --unique, both backends must also prove that the puzzle
has no other solution (each within --timeout / --budget). The reading options apply to both files;
CSV columns are chosen per file (--puzzle-column, --solution-column). Solutions may also be satdoku's
own JSON Lines (`solve --output json`).

Examples:
  satdoku verify --puzzles fixtures/16x16-poj3076-sample.txt --solutions fixtures/16x16-poj3076-sample.solution.txt
  satdoku solve --output json fixtures/top95.txt | satdoku verify --unique --puzzles fixtures/top95.txt --solutions -

",
    exit_status!(),
    "  0    every pair passes
  1    some solution is invalid; with --unique, also one that is not the only solution, or whose
       uniqueness was not decided within the limits or by both backends
  2    bad input or usage, among them files that hold different numbers of grids
  3    (--unique) the two backends disagree on whether a solution is the only one
  4    (--unique) internal error: a backend returned a grid that the independent verifier rejects
",
    exit_interrupted!()
);

/// Options of `satdoku verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The puzzles (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub puzzles: PathBuf,

    /// The solutions, in the same order (any supported format, or `solve --output json` records).
    #[arg(long, value_name = "FILE")]
    pub solutions: PathBuf,

    /// Also prove with both backends that each puzzle has no other solution.
    #[arg(long)]
    pub unique: bool,

    #[command(flatten)]
    pub read: ReadArgs,

    /// CSV column of the puzzles file (default: found by name or by shape).
    #[arg(long, value_name = "NAME")]
    pub puzzle_column: Option<String>,

    /// CSV column of the solutions file (default: found by name or by shape).
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,

    #[command(flatten)]
    pub certify: CertifyArgs,

    #[command(flatten)]
    pub sat: SatArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub output: ReportArg,

    #[command(flatten)]
    pub run: RunArgs,
}

const CHECK_HELP: &str = concat!(
    "\
Both backends count solutions up to --limit (default 2), each within its own --timeout / --budget. They
agree when their statuses match (none, unique, multiple), every grid either returns passes the
independent verifier, a unique solution is the same grid from both, and a backend claiming several
solutions gives two different ones. A puzzle that only one backend settles is reported with that
backend's answer and `agree` unknown.

Examples:
  satdoku check fixtures/pe96.txt
  satdoku check --output json --limit 10 fixtures/9x9-sudoku-acs-logic-solvable.txt

",
    exit_status!(),
    "  0    both backends settled every puzzle and agree (whatever the number of solutions)
  1    some puzzle was not settled by both backends (a limit was hit), or got no certificate
  2    bad input or usage (the other puzzles are still checked)
  3    the two backends disagree on some puzzle, or contradict the solution given with it
  4    internal error: a backend returned a grid that the independent verifier rejects
",
    exit_interrupted!()
);

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

    /// What the SAT backend's own clause-level code does before the SAT solver.
    #[arg(long, value_enum, default_value_t)]
    pub simplify: SimplifyArg,

    /// How the SAT encoding writes killer cages' sums.
    #[arg(long, value_enum, default_value_t)]
    pub cage_encoding: CageEncodingArg,

    /// The SAT solver the SAT backend runs in-process (cadical needs a build with `--features
    /// cadical`). Default: varisat; for the auto backend of `solve`, cadical when this build has it.
    #[arg(long, value_enum)]
    pub sat_solver: Option<SolverArg>,
}

impl SatArgs {
    /// The SAT solver asked for, else varisat.
    pub fn solver(&self) -> satdoku::sat::SatSolver {
        self.sat_solver.unwrap_or_default().get()
    }

    /// The SAT solver of the auto backend: the one asked for, else CaDiCaL when this build has it
    /// (much faster on the hard grids that reach the SAT phase), else varisat.
    pub fn solver_for_auto(&self) -> satdoku::sat::SatSolver {
        match self.sat_solver {
            Some(s) => s.get(),
            None if satdoku::sat::SatSolver::Cadical.is_available() => {
                satdoku::sat::SatSolver::Cadical
            }
            None => satdoku::sat::SatSolver::Varisat,
        }
    }
}

/// The in-process SAT solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum SolverArg {
    /// varisat 0.2.2 (pure Rust; no conflict budget).
    #[default]
    Varisat,
    /// CaDiCaL 3.0.1 (with the `cadical` feature; --budget is then a conflict budget).
    Cadical,
}

impl SolverArg {
    /// The library's solver.
    pub fn get(self) -> satdoku::sat::SatSolver {
        match self {
            SolverArg::Varisat => satdoku::sat::SatSolver::Varisat,
            SolverArg::Cadical => satdoku::sat::SatSolver::Cadical,
        }
    }
}

/// Where certificates go (`--certify DIR`).
#[derive(Debug, Args, Clone, Default)]
pub struct CertifyArgs {
    /// For each puzzle settled as unique or none, write a certificate, DIR/puzzle-<index>.cnf and
    /// .drat (a plain CNF and a DRAT proof that it is unsatisfiable), checked before it is reported.
    #[arg(long, value_name = "DIR")]
    pub certify: Option<PathBuf>,
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

/// The killer cage encodings (see `satdoku::sat::CageEncoding` for their sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum CageEncodingArg {
    /// One selector per digit set of the cage's size and sum (table constraint; Bacchus 2007).
    #[default]
    Combinations,
    /// The cage's partial sums, one variable per reachable sum (Abío & Stuckey 2014).
    Sequential,
    /// Combinations, with the sums the cages imply over units and runs of units (rule of 45) and
    /// each combination's digits banned from the rest of a unit holding the cage.
    Implied,
}

impl CageEncodingArg {
    /// The library's cage encoding.
    pub fn get(self) -> satdoku::sat::CageEncoding {
        match self {
            CageEncodingArg::Combinations => satdoku::sat::CageEncoding::Combinations,
            CageEncodingArg::Sequential => satdoku::sat::CageEncoding::Sequential,
            CageEncodingArg::Implied => satdoku::sat::CageEncoding::Implied,
        }
    }
}

/// The at-most-one encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum AmoArg {
    /// Every pair of literals: n(n-1)/2 binary clauses.
    Pairwise,
    /// Sinz 2005 sequential counter: 3n-4 clauses, n-1 auxiliary variables.
    Sequential,
    /// Chen 2010 2-product: about 2n + 4√n clauses.
    Product,
    /// Klieber & Kwon 2007 commander (groups of 3): about 3n clauses, n/2 auxiliary variables.
    Commander,
    /// Nguyen & Mai 2015 bimander (groups of 2): about n·log2(n/2) clauses, log2(n/2) auxiliary
    /// variables.
    Bimander,
    /// Chosen per constraint: pairwise up to 16 literals, commander above (the default).
    #[default]
    Auto,
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
            AmoArg::Commander => Amo::Commander,
            AmoArg::Bimander => Amo::Bimander,
            AmoArg::Auto => Amo::Auto,
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

const ENCODE_HELP: &str = concat!(
    "\
Variables: the plain encodings number x(r, c, d) = r*N*N + c*N + d for 0-based row r and column c and
digit d in 1..N; pruned numbers only the open candidates, in row-major cell order and digit order
within a cell. A model decodes with the puzzle and the encoding alone (`decode --cnf` reads both from
the comment lines); auxiliary variables come after the cell variables. The comment lines name the
tool, encoding, shape, and the puzzle's file, line and index.

Examples:
  satdoku encode --out-dir target/demo/cnf fixtures/top95.txt   one file per puzzle: puzzle-000000.cnf, ...
  head -1 fixtures/top95.txt | satdoku encode           a single puzzle to standard output
  satdoku encode --stats fixtures/pe96.txt            variables, clauses, literals per encoding

",
    exit_status!(),
    "  0    every puzzle was encoded
  2    bad input or usage: a puzzle that cannot be read or encoded, a file that cannot be written, or
       (--out-dir) a file that is there already, without --force
",
    exit_interrupted!()
);

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

    /// How killer cages' sums are written.
    #[arg(long, value_enum, default_value_t)]
    pub cage_encoding: CageEncodingArg,

    /// Write one file per puzzle, DIR/puzzle-<index>.cnf (index 0-based, 6 digits), instead of a
    /// single puzzle to standard output. A file that is there already is an error (its puzzle's),
    /// unless --force.
    #[arg(long, value_name = "DIR", conflicts_with = "stats")]
    pub out_dir: Option<PathBuf>,

    /// With --out-dir: replace files that are there already.
    #[arg(long, requires = "out_dir")]
    pub force: bool,

    /// Print variables, clauses and literals per puzzle and encoding, and their totals, without
    /// solving.
    #[arg(long)]
    pub stats: bool,

    /// No summary on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Options of `satdoku decode`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("which").required(true).multiple(true).args(["puzzle", "cnf"])))]
pub struct DecodeArgs {
    /// The puzzle file the model answers (`-` for standard input); repeat it for several files, in the
    /// order they were given to `encode`: --index then counts across them, as `encode` did.
    #[arg(long, value_name = "FILE")]
    pub puzzle: Vec<PathBuf>,

    /// The CNF that `satdoku encode` wrote for the puzzle: the puzzle is taken from its comment lines
    /// (with --puzzle too, the two must be the same puzzle).
    #[arg(long, value_name = "FILE")]
    pub cnf: Option<PathBuf>,

    /// Which puzzle (0-based, across the --puzzle files), as numbered by `encode --out-dir`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub index: usize,

    /// The encoding the CNF was written in, which decides the variable numbering (default: the
    /// CNF's own `c encoding` line with --cnf, else pruned, as `encode` writes by default).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,

    /// The solver's output: SAT-competition `s`/`v` lines, or MiniSat's result file; `-` for standard
    /// input.
    #[arg(value_name = "MODEL")]
    pub model: PathBuf,

    #[command(flatten)]
    pub read: ReadArgs,

    /// CSV column of the puzzle file.
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
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
    pub certify: CertifyArgs,

    #[command(flatten)]
    pub sat: SatArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub output: ReportArg,

    #[command(flatten)]
    pub run: RunArgs,
}

/// Worker threads and quiet: how a batch command runs.
#[derive(Debug, Args, Clone, Copy)]
pub struct RunArgs {
    /// Worker threads (default: every core; 1 when reading puzzles typed at a terminal). At most 4
    /// per core are started.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,

    /// Quiet: no progress display, no summary, no notes on standard error (errors are still reported).
    #[arg(long, short = 'q')]
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

    /// CSV column holding the grids (default: found by name or by shape); CSV input only.
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
}

/// How to read puzzle files: format, alphabet, box shape.
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

    /// Variant rules for every puzzle, comma-separated: x (both diagonals), windoku, disjoint-groups,
    /// anti-knight, anti-king, non-consecutive. Puzzles may add their own (a `variant:` line, a region
    /// map, `cage` lines: see README).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub variant: Vec<String>,
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
    /// sigh's puzzle strings, one puzzle a line (`.Thermo~R1C1~R1C2…`, or sigh's one-line grids,
    /// short killers, pencilmarks).
    Sigh,
}

/// How to print results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum OutputArg {
    /// Each solution in the layout its puzzle came in (CSV input gives lines).
    #[default]
    Same,
    /// Each solution drawn in boxes, for people; the givens told apart by colour on a terminal
    /// (not with NO_COLOR). The default when standard output is a terminal.
    Pretty,
    /// One line per puzzle.
    Line,
    /// N lines per puzzle, records separated by a blank line.
    Block,
    /// JSON Lines: one object per input puzzle.
    Json,
    /// sigh's constraint string, one line per puzzle (grids up to 16x16): `solve` writes the
    /// puzzle's rules with its solution as the givens, `generate` the puzzle made.
    Sigh,
}

/// Which solver answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum BackendArg {
    /// The native search first, within a node budget that grows with the grid; then the SAT backend
    /// with the rest of the time (the record says which answered).
    #[default]
    Auto,
    /// The native depth-first search.
    Dfs,
    /// The SAT encoding solved by varisat.
    Sat,
    /// Both, cross-checked: a puzzle is answered only if they agree (exit 3 otherwise).
    Both,
}

/// Per-puzzle limits: past them a puzzle gets status `unknown` and the run goes on.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct LimitArgs {
    /// Give up on a puzzle after SECS seconds (status `unknown`); with two backends, each gets SECS.
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<std::time::Duration>,

    /// Give up on a puzzle after N search nodes of the native backend, or N conflicts of CaDiCaL
    /// (varisat exposes no conflict count: it is bounded by --timeout only); with two backends, each
    /// gets N.
    #[arg(long, value_name = "N")]
    pub budget: Option<u64>,
}

fn parse_secs(s: &str) -> std::result::Result<std::time::Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("expected seconds, e.g. 2 or 0.5, got {s:?}"))?;
    if secs.is_nan() || secs < 0.0 {
        return Err(format!("expected a positive number of seconds, got {s:?}"));
    }
    // Beyond what a Duration holds (about 584 billion years) is as good as no timeout at all.
    Ok(std::time::Duration::try_from_secs_f64(secs).unwrap_or(std::time::Duration::MAX))
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

    /// Output layout (default: pretty on a terminal, else same).
    #[arg(long, value_enum)]
    pub output: Option<OutputArg>,

    /// Solver backend.
    #[arg(long, value_enum, default_value_t)]
    pub backend: BackendArg,

    #[command(flatten)]
    pub certify: CertifyArgs,

    #[command(flatten)]
    pub sat: SatArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub run: RunArgs,

    /// Print a summary (puzzles, statuses, time, puzzles/s) to standard error even when it is not a
    /// terminal.
    #[arg(long, conflicts_with = "quiet")]
    pub summary: bool,
}

impl LimitArgs {
    /// Says on standard error that `--budget` does not bound the SAT backend, when it is given to a
    /// run that uses that backend (it still bounds the native one).
    pub fn warn_if_budget_misses_sat(&self, solver: satdoku::sat::SatSolver) {
        if self.budget.is_some() && !solver.has_conflict_limit() {
            super::record::note(
                "note: --budget counts the native backend's search nodes; the SAT backend \
                 (varisat, which counts no conflicts it would show) is bounded by --timeout only",
            );
        }
    }

    /// `base` with this budget and timeout (each applies to every backend's solve on its own).
    pub fn apply(&self, base: satdoku::Limits) -> satdoku::Limits {
        base.with_budget(self.budget.or(base.budget()))
            .with_timeout(self.timeout.or(base.timeout()))
    }
}

impl RunArgs {
    /// The number of worker threads for reading `files`: `--jobs`, capped at 4 per core (with a note),
    /// else every core, or 1 when puzzles are typed at a terminal.
    pub fn jobs(&self, files: &[PathBuf]) -> usize {
        // Up to 4 jobs are never more than 4 per core: no need to ask how many cores (which reads
        // the cgroup files), a few system calls off every short run.
        if let Some(n @ 1..=4) = self.jobs {
            return n as usize;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        match self.jobs {
            Some(n) => {
                let cap = cores.saturating_mul(4);
                if n as usize > cap {
                    if !self.quiet {
                        super::record::note(format_args!(
                            "note: --jobs {n} is more than 4 per core; using {cap} ({cores} cores)"
                        ));
                    }
                    cap
                } else {
                    n as usize
                }
            }
            None if super::input::typing(files) => 1,
            None => cores,
        }
    }
}

impl ReadArgs {
    /// Validates `--symbols`, `--box` and `--format` into reader options, with `column` for CSV.
    ///
    /// # Errors
    /// A message naming the flag whose value is wrong.
    pub fn read_options(&self, column: Option<&str>) -> Result<ReadOptions> {
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
        let variants = self
            .variant
            .iter()
            .map(|v| {
                v.parse::<satdoku::Variant>()
                    .with_context(|| format!("--variant {v:?}"))
            })
            .collect::<Result<Vec<_>>>()?;
        let format = match self.format {
            FormatArg::Auto => None,
            FormatArg::Line => Some(Format::Line),
            FormatArg::Block => Some(Format::Block),
            FormatArg::Letters => Some(Format::Letters),
            FormatArg::Ints => Some(Format::Ints),
            FormatArg::Csv => Some(Format::Csv),
            FormatArg::Sigh => Some(Format::Sigh),
        };
        Ok(ReadOptions {
            format,
            symbols,
            shape,
            column: column.map(str::to_string),
            allow_clashes: false,
            variants,
        })
    }
}

impl InputArgs {
    /// The reader options (see [`ReadArgs::read_options`]).
    ///
    /// # Errors
    /// A message naming the flag whose value is wrong.
    pub fn read_options(&self) -> Result<ReadOptions> {
        self.read.read_options(self.column.as_deref())
    }
}
