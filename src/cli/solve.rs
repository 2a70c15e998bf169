//! `satdoku solve`: one output record per input puzzle, in input order.

use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use satdoku::format::{Format, Layout};
use satdoku::{Backend, Grid, Limits, Outcome, Problem, Report, Status, Verdict, cross_check};

use super::args::{BackendArg, LimitArgs, OutputArg, SolveArgs};
use super::backends;
use super::batch;
use super::exit::Tally;
use super::input::{self, Item, Items};
use super::progress::Progress;
use super::summary::Summary;

/// What the solve of one item produced, ready to print.
pub struct Solved {
    /// The record's text, including its final newline.
    pub text: Vec<u8>,
    /// Whether it is a multi-line record (blocks are separated by a blank line).
    pub multiline: bool,
    /// The status, or `None` for bad input or a disagreement.
    pub status: Option<Status>,
    /// The backends disagreed (`--backend both`).
    pub disagree: bool,
}

/// The backend(s) answering.
pub enum Backends {
    /// One backend.
    One(Box<dyn Backend>),
    /// Both, cross-checked.
    Both(Box<dyn Backend>, Box<dyn Backend>),
}

impl Backends {
    fn name(&self) -> &'static str {
        match self {
            Backends::One(b) => b.name(),
            Backends::Both(..) => "both",
        }
    }
}

/// Settings of one `solve` run.
pub struct Settings {
    backend: Backends,
    limits: Limits,
    per_puzzle: LimitArgs,
    output: OutputArg,
}

impl Settings {
    fn counting(&self) -> bool {
        self.limits.counting()
    }
}

/// Runs `satdoku solve`.
///
/// # Errors
/// Bad flag values (exit 2) and write errors other than a closed pipe.
pub fn run(args: SolveArgs) -> Result<u8> {
    let options = args.input.read_options()?;
    let backend = match args.backend {
        BackendArg::Dfs => Backends::One(backends::dfs()),
        BackendArg::Sat => Backends::One(backends::sat(&args.sat)?),
        BackendArg::Both => Backends::Both(backends::dfs(), backends::sat(&args.sat)?),
    };
    if args.backend != BackendArg::Dfs {
        args.limits.warn_if_budget_misses_sat();
    }
    let limits = match (args.unique, args.limit) {
        (true, _) => Limits::unique(),
        (false, Some(k)) => Limits::count_to(k),
        (false, None) => Limits::first(),
    };
    let settings = Settings {
        backend,
        limits,
        per_puzzle: args.limits,
        output: args.output,
    };
    let show_summary = args.summary || (!args.quiet && io::stderr().is_terminal());
    let jobs = batch::jobs(args.jobs, &args.input.files);
    let typing = input::typing(&args.input.files);
    let mut progress = Progress::for_run(&args.input.files, args.quiet);
    let counter = progress.counter();
    let mut summary = Summary::new();
    let mut tally = Tally::default();
    let stdout = io::stdout();
    let mut out = Output::new(stdout.lock(), settings.output == OutputArg::Json).flush_each(typing);
    let (files, counting) = (&args.input.files, settings.counting());
    batch::ordered_map(
        jobs,
        |emit| {
            Items::new(files, &options)
                .count_bytes(counter)
                .for_each(emit)
        },
        |item| {
            let solved = solve_item(&item, &settings);
            (item.puzzle.err(), solved)
        },
        |(bad, solved)| {
            if let Some(msg) = bad {
                // Bad input: also a diagnostic on stderr, in the compilers' shape.
                eprintln!("satdoku: {msg}");
            }
            match solved.status {
                Some(s) => tally.status(s, counting),
                None if solved.disagree => tally.disagree = true,
                None => tally.bad_input = true,
            }
            summary.add(solved.status, solved.disagree);
            progress.tick();
            out.record(&solved);
        },
    );
    progress.finish();
    out.finish();
    if show_summary {
        eprintln!("{}", summary.line(settings.backend.name()));
    }
    Ok(tally.code())
}

/// Writes records to standard output, a blank line between multi-line records.
///
/// A closed pipe (`| head`) ends the process at once with success and nothing more printed; any other
/// write error ends it with status 2.
pub struct Output<W: Write> {
    out: io::BufWriter<W>,
    json: bool,
    first: bool,
    previous_multiline: bool,
    flush_each: bool,
}

impl<W: Write> Output<W> {
    /// Buffered output to `w`.
    pub fn new(w: W, json: bool) -> Output<W> {
        Output {
            out: io::BufWriter::with_capacity(1 << 16, w),
            json,
            first: true,
            previous_multiline: false,
            flush_each: false,
        }
    }

    /// Flushes after every record (when answers must appear as puzzles are typed).
    pub fn flush_each(mut self, on: bool) -> Output<W> {
        self.flush_each = on;
        self
    }

    /// Writes one record.
    pub fn record(&mut self, solved: &Solved) {
        let gap = !self.json && !self.first && (self.previous_multiline || solved.multiline);
        let result = if gap {
            self.out.write_all(b"\n")
        } else {
            Ok(())
        };
        let mut result = result.and_then(|()| self.out.write_all(&solved.text));
        if self.flush_each {
            result = result.and_then(|()| self.out.flush());
        }
        if let Err(e) = result {
            write_failed(e);
        }
        self.first = false;
        self.previous_multiline = solved.multiline;
    }

    /// Flushes what is buffered.
    pub fn finish(&mut self) {
        if let Err(e) = self.out.flush() {
            write_failed(e);
        }
    }
}

fn write_failed(e: io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("satdoku: writing to standard output: {e}");
    std::process::exit(2);
}

/// The layout to print a puzzle's solution in: its own (borrowed, not copied) unless the output asks
/// for another or the input was CSV (printed as lines).
pub fn output_layout(layout: &Layout, output: OutputArg) -> Cow<'_, Layout> {
    match output {
        OutputArg::Line if layout.format() != Format::Line => Cow::Owned(layout.as_line()),
        OutputArg::Block if !layout.is_multiline() => Cow::Owned(layout.as_block()),
        OutputArg::Same | OutputArg::Json if layout.format() == Format::Csv => {
            Cow::Owned(layout.as_line())
        }
        _ => Cow::Borrowed(layout),
    }
}

/// One JSON Lines record.
#[derive(Serialize)]
struct JsonRecord<'a> {
    index: usize,
    file: &'a str,
    line: usize,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<[String; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    micros: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guesses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn json_line(record: &JsonRecord<'_>) -> String {
    let mut s = serde_json::to_string(record).expect("a record of strings and numbers serialises");
    s.push('\n');
    s
}

/// Solves one item and renders its output record.
pub fn solve_item(item: &Item, settings: &Settings) -> Solved {
    let json = settings.output == OutputArg::Json;
    let (puzzle, units) = match &item.puzzle {
        Ok(l) => (&l.puzzle, &*l.units),
        Err(msg) => return error_record(item, msg, json),
    };
    // Only JSON records carry the time: the clock is not read otherwise.
    let start = json.then(Instant::now);
    let limits = settings.per_puzzle.apply(settings.limits);
    let result = match &settings.backend {
        Backends::One(b) => b.solve(units, &puzzle.grid, &limits),
        Backends::Both(a, b) => {
            let check = cross_check(units, &puzzle.grid, &**a, &**b, &limits);
            match check.verdict {
                Verdict::Agree(_) => check.answers[0].report.clone(),
                Verdict::Inconclusive => Ok(Report {
                    outcome: Outcome::Unknown {
                        count: 0,
                        first: None,
                    },
                    stats: Default::default(),
                }),
                Verdict::Disagree(problems) => return disagreement(item, &problems, json),
            }
        }
    };
    let micros = start.map_or(0, |s| s.elapsed().as_micros() as u64);
    let report = match result {
        Ok(r) => r,
        Err(e) => return error_record(item, &format!("{}:{}: {e}", item.source, item.line), json),
    };
    let layout = output_layout(&puzzle.layout, settings.output);
    let status = report.outcome.status();
    if json {
        let text = json_line(&json_of(item, &report, &layout, settings, micros));
        Solved {
            text: text.into(),
            multiline: false,
            status: Some(status),
            disagree: false,
        }
    } else {
        match report.outcome.solution() {
            Some(grid) => {
                let mut text = Vec::with_capacity(grid.values().len() + 1);
                layout.write_bytes(grid, &mut text);
                Solved {
                    text,
                    multiline: layout.is_multiline(),
                    status: Some(status),
                    disagree: false,
                }
            }
            None => Solved {
                text: format!("{}\n", status.word()).into(),
                multiline: false,
                status: Some(status),
                disagree: false,
            },
        }
    }
}

fn json_of<'a>(
    item: &'a Item,
    report: &Report,
    layout: &Layout,
    settings: &Settings,
    micros: u64,
) -> JsonRecord<'a> {
    let compact = |g: &Grid| layout.compact(g);
    let (count, complete, solutions) = match &report.outcome {
        Outcome::Multiple {
            solutions,
            count,
            complete,
        } => (
            Some(*count),
            Some(*complete),
            Some([compact(&solutions[0]), compact(&solutions[1])]),
        ),
        o if settings.counting() => (Some(o.count()), None, None),
        _ => (None, None, None),
    };
    JsonRecord {
        index: item.index,
        file: &item.source,
        line: item.line,
        status: report.outcome.status().word(),
        count,
        complete,
        solution: report.outcome.solution().map(compact),
        solutions,
        micros: Some(micros),
        nodes: Some(report.stats.nodes),
        guesses: Some(report.stats.guesses),
        error: None,
    }
}

fn disagreement(item: &Item, problems: &[Problem], json: bool) -> Solved {
    let words: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let text = if json {
        let mut s = serde_json::json!({
            "index": item.index,
            "file": &*item.source,
            "line": item.line,
            "status": "disagree",
            "problems": words,
        })
        .to_string();
        s.push('\n');
        s
    } else {
        format!("disagree: {}\n", words.join("; "))
    };
    Solved {
        text: text.into(),
        multiline: false,
        status: None,
        disagree: true,
    }
}

fn error_record(item: &Item, msg: &str, json: bool) -> Solved {
    let text = if json {
        json_line(&JsonRecord {
            index: item.index,
            file: &item.source,
            line: item.line,
            status: "error",
            count: None,
            complete: None,
            solution: None,
            solutions: None,
            micros: None,
            nodes: None,
            guesses: None,
            error: Some(msg.to_string()),
        })
    } else {
        format!("error: {msg}\n")
    };
    Solved {
        text: text.into(),
        multiline: false,
        status: None,
        disagree: false,
    }
}
