//! `satdoku solve`: one output record per input puzzle, in input order.

use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::{Value, json};

use satdoku::format::Layout;
use satdoku::{Answer, Backend, Limits, Outcome, Report};

use super::args::{BackendArg, OutputArg, SolveArgs};
use super::backends::{self, Checked};
use super::certify::{Certified, Certify};
use super::exit::Exit;
use super::input::{self, Item};
use super::joint::{Joint, joint};
use super::pipeline::Run;
use super::pretty;
use super::progress::Progress;
use super::record::{Diagnostic, Record};
use super::render::{
    self, answer_json, bad_input, failure, json_line, output_layout, sigh_line, status_exit,
    status_text, with_expected,
};
use super::summary::Summary;

/// Settings of one `solve` run.
struct Settings {
    backends: Vec<Checked>,
    limits: Limits,
    output: OutputArg,
    /// Pretty output in colour.
    colour: bool,
    /// `--certify DIR`.
    certify: Option<Certify>,
    /// Whether solves are timed (JSON records, two backends, or a summary show the times): the clock
    /// is not read otherwise.
    timed: bool,
}

impl Settings {
    fn json(&self) -> bool {
        self.output == OutputArg::Json
    }

    /// Whether a text record with a solution also says its status: when uniqueness or a count was
    /// asked, or a certificate, except with `--output line` (grids alone, to pipe on).
    fn says_status(&self) -> bool {
        (self.limits.counting() || self.certify.is_some()) && self.output != OutputArg::Line
    }
}

/// Runs `satdoku solve`.
///
/// # Errors
/// Bad flag values (exit 2).
pub fn run(args: SolveArgs) -> Result<Exit> {
    let options = args.input.read_options()?;
    let output = args.output.unwrap_or(if io::stdout().is_terminal() {
        OutputArg::Pretty
    } else {
        OutputArg::Same
    });
    if args.backend != BackendArg::Dfs && !args.run.quiet {
        let solver = match args.backend {
            BackendArg::Auto => args.sat.solver_for_auto(),
            _ => args.sat.solver(),
        };
        args.limits.warn_if_budget_misses_sat(solver);
    }
    let limits = args.limits.apply(match (args.unique, args.limit) {
        (true, _) => Limits::unique(),
        (false, Some(k)) => Limits::count_to(k),
        (false, None) => Limits::first(),
    });
    let name = match args.backend {
        BackendArg::Auto => "auto",
        BackendArg::Dfs => "dfs",
        BackendArg::Sat => "sat",
        BackendArg::Both => "both",
    };
    let show_summary = args.summary || (!args.run.quiet && io::stderr().is_terminal());
    let certify = Certify::from_args(&args.certify, &args.sat, limits)?;
    // Under `--certify`, the SAT backend answers `--unique` with the certificate.
    let backends = match args.backend {
        BackendArg::Auto => vec![backends::auto(&args.sat, certify.as_ref())?],
        BackendArg::Dfs => vec![backends::dfs()],
        BackendArg::Sat => vec![backends::sat(&args.sat, certify.as_ref())?],
        BackendArg::Both => vec![backends::dfs(), backends::sat(&args.sat, certify.as_ref())?],
    };
    let settings = Settings {
        certify,
        timed: show_summary || output == OutputArg::Json || backends.len() > 1,
        backends,
        limits,
        output,
        colour: output == OutputArg::Pretty && pretty::colour_on_stdout(),
    };
    let files = &args.input.files;
    let progress = Progress::for_run(files, args.run.quiet, "puzzle");
    let json = settings.json();
    let run = Run {
        jobs: args.run.jobs(files),
        typing: input::typing(files),
        gaps: !settings.json(),
        progress,
        summary: show_summary.then(|| Summary::new(format!("solve ({name})"), "puzzle")),
        quiet: args.run.quiet,
        interrupted: Box::new(move |place| render::interrupted(place, json, "")),
        noun: "puzzle",
    };
    Ok(run.over_puzzles(files, &options, |item| solve_item(&item, &settings)))
}

/// Solves one item with the configured backend(s) and renders its record.
fn solve_item(item: &Item, settings: &Settings) -> Record {
    let json = settings.json();
    let loaded = match &item.puzzle {
        Ok(l) => l,
        Err(e) => return bad_input(item, e, json, ""),
    };
    let (units, grid) = (&*loaded.units, loaded.grid());
    let layout = output_layout(&loaded.puzzle.layout, settings.output);
    let answer = |b: &Checked| {
        let start = settings.timed.then(Instant::now);
        let report = b.solve(units, grid, &settings.limits);
        Answer {
            backend: b.name(),
            report,
            time: start.map_or(Duration::ZERO, |s| s.elapsed()),
        }
    };
    match settings.backends.as_slice() {
        [one] => {
            let a = answer(one);
            match &a.report {
                Ok(report) => {
                    let mut record = certified(item, report, &a, None, &layout, settings);
                    let other = match a.backend {
                        "dfs" => Some("sat"),
                        "sat" => Some("dfs"),
                        _ => None,
                    };
                    if let Some(other) = other
                        && report.outcome.status() == satdoku::Status::Unknown
                        && record.diagnostic.is_none()
                    {
                        record.diagnostic = Some(Diagnostic {
                            place: format!("{}:{}", item.source, item.line),
                            message: format!(
                                "note: {} did not settle it within the limits; --backend {other} \
                                 or auto may settle it",
                                a.backend
                            ),
                            shown_in_record: false,
                        });
                    }
                    with_times(record, std::slice::from_ref(&a), settings)
                }
                Err(e) => with_times(
                    failure(item, e, json, ""),
                    std::slice::from_ref(&a),
                    settings,
                ),
            }
        }
        [first, second] => {
            let answers = [answer(first), answer(second)];
            let record = match joint(units, grid, &answers) {
                Joint::Internal(_, e) => failure(item, e, json, ""),
                Joint::Failed(e) => failure(item, e, json, ""),
                Joint::Agree(report) => {
                    certified(item, report, &answers[0], Some(&answers), &layout, settings)
                }
                Joint::OneSettled {
                    settled,
                    report,
                    other,
                } => {
                    let answer = answers.iter().find(|a| a.backend == settled);
                    let answer = answer.unwrap_or(&answers[0]);
                    let mut r = certified(item, report, answer, Some(&answers), &layout, settings);
                    // Verified, but not cross-checked: the run cannot claim full success.
                    r.exit = r.exit.max(Exit::Unsolved);
                    r.diagnostic = Some(Diagnostic {
                        place: format!("{}:{}", item.source, item.line),
                        message: format!(
                            "only {settled} settled this puzzle ({other} did not, within the \
                             limits): the answer is verified but not cross-checked"
                        ),
                        shown_in_record: false,
                    });
                    r
                }
                Joint::Unknown => {
                    let unknown = Report::new(
                        Outcome::Unknown {
                            count: 0,
                            first: None,
                        },
                        Default::default(),
                    );
                    answered(
                        item,
                        &unknown,
                        &answers[0],
                        Some(&answers),
                        &layout,
                        settings,
                        &Certified::NotAsked,
                    )
                }
                Joint::Disagree(problems) => disagreement(item, &problems, &answers, &layout, json),
            };
            with_times(record, &answers, settings)
        }
        _ => unreachable!("one or two backends"),
    }
}

fn with_times(mut record: Record, answers: &[Answer], settings: &Settings) -> Record {
    if settings.timed {
        record.times = answers.iter().map(|a| (a.backend, a.time)).collect();
    }
    record
}

/// [`answered`], with a certificate for a unique or none answer under `--certify`, and compared with
/// the solution given with the puzzle, if any.
fn certified(
    item: &Item,
    report: &Report,
    answer: &Answer,
    both: Option<&[Answer; 2]>,
    layout: &Layout,
    settings: &Settings,
) -> Record {
    let certified = match (&settings.certify, &item.puzzle) {
        (Some(c), Ok(l)) => {
            let answers = both.map_or(std::slice::from_ref(answer), |b| &b[..]);
            c.certify(item.index, &l.units, l.grid(), &report.outcome, answers)
        }
        _ => Certified::NotAsked,
    };
    let record = answered(item, report, answer, both, layout, settings, &certified);
    let record = certified.mark(record, || format!("{}:{}", item.source, item.line));
    with_expected(item, &report.outcome, record, settings.json())
}

/// The record of a settled (or unknown) puzzle: its solution in the puzzle's layout, or the status
/// word with its count; in JSON an object with the status, the solution(s), whether it is
/// certified, and with two backends each one's answer.
fn answered(
    item: &Item,
    report: &Report,
    answer: &Answer,
    both: Option<&[Answer; 2]>,
    layout: &Layout,
    settings: &Settings,
    certified: &Certified,
) -> Record {
    let status = report.outcome.status();
    let exit = status_exit(status, settings.limits.counting());
    let mut record = if settings.json() {
        let mut v = json!({
            "index": item.index,
            "file": &*item.source,
            "line": item.line,
            "status": status.word(),
            "backend": if both.is_some() {
                "both"
            } else {
                report.stats.answered_by.unwrap_or(answer.backend)
            },
        });
        if let Some(c) = certified.json() {
            v["certified"] = json!(c);
        }
        if let Ok(Some(note)) = item.puzzle.as_ref().map(|l| &l.puzzle.note) {
            v["note"] = json!(note);
        }
        let compact = |g: &satdoku::Grid| layout.compact(g);
        match &report.outcome {
            Outcome::Multiple {
                solutions,
                count,
                complete,
            } => {
                v["count"] = json!(count);
                v["complete"] = json!(complete);
                v["solutions"] = json!([compact(&solutions[0]), compact(&solutions[1])]);
            }
            o => {
                if settings.limits.counting() || matches!(o, Outcome::Unknown { .. }) {
                    v["count"] = json!(o.count());
                }
                if let Some(g) = o.solution() {
                    v["solution"] = json!(compact(g));
                }
            }
        }
        match both {
            None => {
                v["micros"] = json!(answer.time.as_micros() as u64);
                v["nodes"] = json!(report.stats.nodes);
                v["guesses"] = json!(report.stats.guesses);
            }
            Some(answers) => {
                v["agree"] = match (answers[0].report.as_ref(), answers[1].report.as_ref()) {
                    (Ok(a), Ok(b)) if a.outcome.status() == b.outcome.status() => json!(true),
                    _ => Value::Null,
                };
                for a in answers {
                    v[a.backend] = answer_json(&a.report, a.time, layout);
                }
            }
        }
        Record::new(json_line(&v), status.word(), exit)
    } else {
        // The status and what became of the certificate, appended to the record's text.
        let push_status = |text: &mut Vec<u8>| {
            text.extend_from_slice(status_text(&report.outcome).as_bytes());
            text.extend_from_slice(match certified {
                Certified::NotAsked => b"",
                Certified::Yes => b", certified",
                Certified::No(_) | Certified::Wrong(_) => b", not certified",
            });
        };
        match report.outcome.solution() {
            Some(grid) => {
                // Room for the grid, its newline and a status word ("  unique, certified").
                let mut text = Vec::with_capacity(grid.values().len() + 24);
                if settings.output == OutputArg::Sigh
                    && let Ok(loaded) = &item.puzzle
                {
                    let place = format!("{}:{}", item.source, item.line);
                    match sigh_line(&loaded.units, grid, place) {
                        Ok(line) => text = line,
                        Err(record) => return *record,
                    }
                } else if settings.output == OutputArg::Pretty {
                    let puzzle = item.puzzle.as_ref().map(|l| l.grid());
                    let puzzle = puzzle.unwrap_or(grid);
                    let drawn = pretty::draw(layout, puzzle, grid, settings.colour);
                    text.extend_from_slice(drawn.as_bytes());
                } else {
                    layout.write_bytes(grid, &mut text);
                }
                // The status the question asked for (uniqueness, a count, a certificate) after the
                // grid: on its line, or on a line below; never with `--output line`, whose lines are
                // grids alone (to pipe on).
                if settings.says_status() {
                    if layout.is_multiline() || settings.output == OutputArg::Pretty {
                        push_status(&mut text);
                        text.push(b'\n');
                    } else if text.last() == Some(&b'\n') {
                        text.pop();
                        text.extend_from_slice(b"  ");
                        push_status(&mut text);
                        text.push(b'\n');
                    }
                }
                let mut r = Record::new(text, status.word(), exit);
                r.multiline = layout.is_multiline() || settings.output == OutputArg::Pretty;
                r
            }
            None => {
                let mut text = Vec::new();
                push_status(&mut text);
                text.push(b'\n');
                Record::new(text, status.word(), exit)
            }
        }
    };
    record.exit = exit;
    record
}

fn disagreement(
    item: &Item,
    problems: &[satdoku::Problem],
    answers: &[Answer; 2],
    layout: &Layout,
    json: bool,
) -> Record {
    let words: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let text = if json {
        let mut v = json!({
            "index": item.index,
            "file": &*item.source,
            "line": item.line,
            "status": "disagree",
            "backend": "both",
            "agree": false,
            "problems": words,
        });
        for a in answers {
            v[a.backend] = answer_json(&a.report, a.time, layout);
        }
        json_line(&v)
    } else {
        format!("disagree: {}\n", words.join("; ")).into_bytes()
    };
    Record::new(text, "disagree", Exit::Disagree).with_diagnostic(Diagnostic {
        place: format!("{}:{}", item.source, item.line),
        message: format!("the backends disagree: {}", words.join("; ")),
        shown_in_record: true,
    })
}
