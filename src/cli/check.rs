//! `satdoku check`: both backends on every puzzle, each within its own limits; they must agree, and every
//! grid must verify.

use anyhow::Result;
use serde_json::{Value, json};

use satdoku::format::Layout;
use satdoku::{Limits, cross_check};

use super::args::{CheckArgs, OutputArg, ReportArg};
use super::backends;
use super::certify::{Certified, Certify};
use super::exit::Exit;
use super::input::{self, Item};
use super::joint::{Joint, joint};
use super::pipeline::Run;
use super::progress::Progress;
use super::record::{Diagnostic, Record};
use super::render::{
    self, answer_json, bad_input, expected, expected_exit, json_line, output_layout,
    solvable_problem, status_text,
};
use super::summary::Summary;

/// Runs `satdoku check`.
///
/// # Errors
/// Bad flag values (exit 2).
pub fn run(args: CheckArgs) -> Result<Exit> {
    let options = args.input.read_options()?;
    if !args.run.quiet {
        args.limits.warn_if_budget_misses_sat(args.sat.solver());
    }
    let limits = args.limits.apply(Limits::count_to(args.limit));
    let certify = Certify::from_args(&args.certify, &args.sat, limits)?;
    let (a, b) = (backends::dfs(), backends::sat(&args.sat, certify.as_ref())?);
    let solver = args.sat.solver();
    let json = args.output == ReportArg::Json;
    let files = &args.input.files;
    let progress = Progress::for_run(files, args.run.quiet, "puzzle");
    let run = Run {
        jobs: args.run.jobs(files),
        typing: input::typing(files),
        gaps: false,
        progress,
        summary: (!args.run.quiet)
            .then(|| Summary::new(format!("check (dfs, sat on {solver})"), "puzzle")),
        quiet: args.run.quiet,
        interrupted: Box::new(move |place| {
            let at = format!("{} {}: ", place.index, place.at());
            render::interrupted(place, json, &at)
        }),
        noun: "puzzle",
    };
    Ok(run.over_puzzles(files, &options, |item: Item| {
        let loaded = match &item.puzzle {
            Ok(l) => l,
            Err(e) => return bad_input(&item, e, json, &format!("{} ", item.index)),
        };
        let check = cross_check(&loaded.units, loaded.grid(), &a, &b, &limits);
        let layout = output_layout(&loaded.puzzle.layout, OutputArg::Same);
        let mut record = render(
            &item,
            &check,
            &layout,
            &limits,
            certify.as_ref(),
            solver.name(),
            json,
        );
        record.times = check.answers.iter().map(|a| (a.backend, a.time)).collect();
        record
    }))
}

/// The record of one cross-checked puzzle: `INDEX FILE:LINE: STATUS (VERDICT; dfs µs, sat µs)` with
/// any problems indented below, or a JSON object with each backend's answer.
fn render(
    item: &Item,
    check: &satdoku::CrossCheck,
    layout: &Layout,
    limits: &Limits,
    certify: Option<&Certify>,
    solver: &str,
    json: bool,
) -> Record {
    let [a, b] = &check.answers;
    let grid = item.puzzle.as_ref().map(|l| l.grid());
    let units = item.puzzle.as_ref().map(|l| &*l.units);
    let (Ok(grid), Ok(units)) = (grid, units) else {
        unreachable!("only read puzzles are checked")
    };
    let joint = joint(units, grid, &check.answers);
    let certified = match (certify, &joint) {
        (Some(c), Joint::Agree(r)) => {
            c.certify(item.index, units, grid, &r.outcome, &check.answers)
        }
        _ => Certified::NotAsked,
    };
    let (word, mut verdict, mut exit, mut problems): (String, &str, Exit, Vec<String>) =
        match &joint {
            Joint::Internal(backend, e) => (
                "internal-error".into(),
                "INVALID ANSWER",
                Exit::Internal,
                vec![format!("{backend}: {e}")],
            ),
            Joint::Failed(e) => ("error".into(), "error", Exit::BadInput, vec![e.to_string()]),
            Joint::Agree(r) => {
                let mut word = status_text(&r.outcome).into_owned();
                if certified == Certified::Yes {
                    word.push_str(", certified");
                }
                (word, "agree", Exit::Success, Vec::new())
            }
            Joint::OneSettled {
                settled,
                report,
                other,
            } => (
                status_text(&report.outcome).into_owned(),
                "not cross-checked",
                Exit::Unsolved,
                vec![format!(
                    "only {settled} settled it; {other} did not within the limits"
                )],
            ),
            Joint::Unknown => ("unknown".into(), "inconclusive", Exit::Unsolved, Vec::new()),
            Joint::Disagree(p) => (
                "disagree".into(),
                "DISAGREE",
                Exit::Disagree,
                p.iter().map(ToString::to_string).collect(),
            ),
        };
    // The solution given with the puzzle, a third witness.
    let given = match &joint {
        Joint::Agree(r) | Joint::OneSettled { report: r, .. } => expected(item, &r.outcome),
        _ => None,
    };
    let said = match &joint {
        Joint::Agree(r) | Joint::OneSettled { report: r, .. } => solvable_problem(item, &r.outcome),
        _ => None,
    };
    if let Some(p) = said {
        exit = exit.max(Exit::Disagree);
        verdict = "DISAGREE WITH THE INPUT";
        problems.push(p);
    }
    if let Some(e) = &given
        && let Some(p) = e.problem()
    {
        let raised = expected_exit(e);
        if raised > exit {
            exit = raised;
            verdict = if raised == Exit::Disagree {
                "DISAGREE WITH THE GIVEN SOLUTION"
            } else {
                verdict
            };
        }
        problems.push(p);
    }
    let summary_word: &'static str = match &joint {
        _ if exit == Exit::Disagree => "disagree",
        Joint::Internal(..) => "internal-error",
        Joint::Failed(_) => "error",
        Joint::Disagree(_) => "disagree",
        Joint::Unknown => "unknown",
        j => j.status().map_or("unknown", |s| s.word()),
    };
    let text = if json {
        let solution = match &joint {
            Joint::Agree(r) | Joint::OneSettled { report: r, .. } => r.outcome.solution(),
            _ => None,
        };
        let mut v = json!({
            "index": item.index,
            "file": &*item.source,
            "line": item.line,
            "status": summary_word,
            "agree": match &joint {
                Joint::Agree(_) => json!(true),
                Joint::Disagree(_) | Joint::Internal(..) => json!(false),
                _ => Value::Null,
            },
            "limit": limits.max_solutions(),
        });
        if let Some(g) = solution {
            v["solution"] = json!(layout.compact(g));
        }
        if let Joint::Agree(r) | Joint::OneSettled { report: r, .. } = &joint {
            v["count"] = json!(r.outcome.count());
        }
        if !problems.is_empty() {
            v["problems"] = json!(problems);
        }
        if let Some(c) = certified.json() {
            v["certified"] = json!(c);
        }
        if let Some(e) = &given {
            v["expected"] = json!(e.word());
        }
        v[a.backend] = answer_json(&a.report, a.time, layout);
        v[b.backend] = answer_json(&b.report, b.time, layout);
        v["sat"]["solver"] = json!(solver);
        json_line(&v)
    } else {
        let mut s = format!(
            "{} {}:{}: {word} ({verdict}; {} {} µs, {} {} µs)\n",
            item.index,
            item.source,
            item.line,
            a.backend,
            a.time.as_micros(),
            b.backend,
            b.time.as_micros(),
        );
        for p in &problems {
            s.push_str(&format!("  - {p}\n"));
        }
        s.into_bytes()
    };
    let mut record = Record::new(text, summary_word, exit);
    let place = format!("{}:{}", item.source, item.line);
    if matches!(joint, Joint::Internal(..) | Joint::Disagree(_)) || exit == Exit::Disagree {
        record.diagnostic = Some(Diagnostic {
            place: place.clone(),
            message: format!("{verdict}: {}", problems.join("; ")),
            shown_in_record: true,
        });
    }
    certified.mark(record, || place)
}
