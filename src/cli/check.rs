//! `satdoku check`: both backends on every puzzle; they must agree, and every grid must verify.

use std::io;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;
use serde_json::{Value, json};

use satdoku::format::Layout;
use satdoku::{Answer, CrossCheck, Limits, Outcome, Verdict, cross_check};

use super::args::{CheckArgs, ReportArg};
use super::backends;
use super::batch;
use super::input::{self, Item, Items};
use super::progress::Progress;
use super::solve::{Output, Solved, output_layout};

/// Counts for the closing summary.
#[derive(Default)]
struct Totals {
    puzzles: u64,
    by_status: std::collections::BTreeMap<&'static str, u64>,
    disagreements: u64,
    errors: u64,
    time: [Duration; 2],
}

/// The rendered record of one puzzle and what the summary needs from it.
struct Checked {
    solved: Solved,
    status: Option<&'static str>,
    disagree: bool,
    time: [Duration; 2],
    /// A message for standard error (bad input), printed in input order.
    diagnostic: Option<String>,
}

/// Runs `satdoku check`.
///
/// # Errors
/// Bad flag values (exit 2).
pub fn run(args: CheckArgs) -> Result<u8> {
    let options = args.input.read_options()?;
    let (a, b) = (backends::dfs(), backends::sat(&args.sat)?);
    args.limits.warn_if_budget_misses_sat();
    let limits = Limits::count_to(args.limit);
    let json = args.output == ReportArg::Json;
    let jobs = batch::jobs(args.jobs, &args.input.files);
    let typing = input::typing(&args.input.files);
    let mut progress = Progress::for_run(&args.input.files, args.quiet);
    let counter = progress.counter();
    let stdout = io::stdout();
    let mut out = Output::new(stdout.lock(), json).flush_each(typing);
    let mut totals = Totals::default();
    let files = &args.input.files;
    batch::ordered_map(
        jobs,
        |emit| {
            Items::new(files, &options)
                .count_bytes(counter)
                .for_each(emit)
        },
        |item: Item| match &item.puzzle {
            Ok(loaded) => {
                let limits = args.limits.apply(limits);
                let check = cross_check(&loaded.units, loaded.grid(), &*a, &*b, &limits);
                let layout = output_layout(&loaded.puzzle.layout, super::args::OutputArg::Same);
                render(&item, &check, &layout, json)
            }
            Err(msg) => Checked {
                diagnostic: Some(msg.clone()),
                solved: error_record(&item, msg, json),
                status: None,
                disagree: false,
                time: [Duration::ZERO; 2],
            },
        },
        |checked| {
            if let Some(msg) = &checked.diagnostic {
                eprintln!("satdoku: {msg}");
            }
            totals.puzzles += 1;
            match checked.status {
                Some(s) => *totals.by_status.entry(s).or_default() += 1,
                None => totals.errors += 1,
            }
            totals.disagreements += checked.disagree as u64;
            totals.time[0] += checked.time[0];
            totals.time[1] += checked.time[1];
            progress.tick();
            out.record(&checked.solved);
        },
    );
    progress.finish();
    let summary = summary_line(&totals, [a.name(), b.name()]);
    if json {
        out.finish();
        if !args.quiet {
            eprintln!("{summary}");
        }
    } else {
        out.record(&Solved {
            text: format!("{summary}\n").into(),
            multiline: false,
            status: None,
            disagree: false,
        });
        out.finish();
    }
    let inconclusive = totals.by_status.get("unknown").copied().unwrap_or(0) > 0;
    Ok(if totals.disagreements > 0 {
        3
    } else if totals.errors > 0 {
        2
    } else if inconclusive {
        1
    } else {
        0
    })
}

fn summary_line(t: &Totals, names: [&str; 2]) -> String {
    let statuses: Vec<String> = t
        .by_status
        .iter()
        .filter(|&(_, &n)| n > 0)
        .map(|(s, n)| format!("{n} {s}"))
        .collect();
    format!(
        "check: {} puzzle{}: {}; {} disagreement{}; {} error{}; {} {:.3} s, {} {:.3} s",
        t.puzzles,
        plural(t.puzzles),
        if statuses.is_empty() {
            "none checked".to_string()
        } else {
            statuses.join(", ")
        },
        t.disagreements,
        plural(t.disagreements),
        t.errors,
        plural(t.errors),
        names[0],
        t.time[0].as_secs_f64(),
        names[1],
        t.time[1].as_secs_f64(),
    )
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One backend's answer as JSON: status, solution(s), count, micros (or the error).
fn answer_json(answer: &Answer, layout: &Layout) -> Value {
    let micros = answer.time.as_micros() as u64;
    match &answer.report {
        Err(e) => json!({ "status": "error", "error": e.to_string(), "micros": micros }),
        Ok(report) => {
            let mut v = json!({
                "status": report.outcome.status().word(),
                "count": report.outcome.count(),
                "micros": micros,
            });
            match &report.outcome {
                Outcome::Multiple { solutions, .. } => {
                    v["solutions"] =
                        json!([layout.compact(&solutions[0]), layout.compact(&solutions[1])]);
                }
                o => {
                    if let Some(g) = o.grids().first() {
                        v["solution"] = json!(layout.compact(g));
                    }
                }
            }
            v
        }
    }
}

#[derive(Serialize)]
struct JsonCheck<'a> {
    index: usize,
    file: &'a str,
    line: usize,
    status: &'a str,
    agree: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    problems: Vec<String>,
    dfs: Value,
    sat: Value,
}

fn render(item: &Item, check: &CrossCheck, layout: &Layout, json: bool) -> Checked {
    let [a, b] = &check.answers;
    let (disagree, problems) = match &check.verdict {
        Verdict::Disagree(p) => (true, p.iter().map(ToString::to_string).collect()),
        _ => (false, Vec::new()),
    };
    let inconclusive = check.verdict == Verdict::Inconclusive;
    let status = check.status_word();
    let text = if json {
        let mut s = serde_json::to_string(&JsonCheck {
            index: item.index,
            file: &item.source,
            line: item.line,
            status,
            agree: !disagree,
            solution: check.solution().map(|g| layout.compact(g)),
            problems,
            dfs: answer_json(a, layout),
            sat: answer_json(b, layout),
        })
        .expect("strings and numbers serialise");
        s.push('\n');
        s
    } else {
        let mut s = format!(
            "{} {}:{}: {} ({}; {} {} µs, {} {} µs)\n",
            item.index,
            item.source,
            item.line,
            status,
            if disagree {
                "DISAGREE"
            } else if inconclusive {
                "inconclusive"
            } else {
                "agree"
            },
            a.backend,
            a.time.as_micros(),
            b.backend,
            b.time.as_micros(),
        );
        for p in &problems {
            s.push_str(&format!("  - {p}\n"));
        }
        s
    };
    Checked {
        solved: Solved {
            text: text.into(),
            multiline: false,
            status: None,
            disagree,
        },
        status: Some(status),
        disagree,
        time: [a.time, b.time],
        diagnostic: None,
    }
}

fn error_record(item: &Item, msg: &str, json: bool) -> Solved {
    let text = if json {
        let mut s = json!({
            "index": item.index,
            "file": &*item.source,
            "line": item.line,
            "status": "error",
            "agree": Value::Null,
            "error": msg,
        })
        .to_string();
        s.push('\n');
        s
    } else {
        format!("{} error: {msg}\n", item.index)
    };
    Solved {
        text: text.into(),
        multiline: false,
        status: None,
        disagree: false,
    }
}
