//! `satdoku verify`: checks solutions produced by another program against their puzzles, pair by pair.

use std::io;

use anyhow::Result;
use serde_json::{Value, json};

use satdoku::format::ReadOptions;
use satdoku::{Grid, Limits, Outcome, Status, Verdict, cross_check, verify};

use super::args::{ReportArg, VerifyArgs};
use super::backends;
use super::batch;
use super::input::{Item, Items};
use super::solve::{Output, Solved};

/// What became of one pair.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PairResult {
    /// Valid (and unique, when asked).
    Pass,
    /// The solution breaks a rule, or another solution exists under `--unique`.
    Fail,
    /// Either side could not be read, or the files hold different numbers of grids.
    Bad,
    /// Under `--unique`, the two backends disagree.
    Disagree,
}

struct Pair {
    index: usize,
    puzzle: Option<Item>,
    solution: Option<Item>,
}

/// Runs `satdoku verify`.
///
/// # Errors
/// Bad flag values (exit 2).
pub fn run(args: VerifyArgs) -> Result<u8> {
    let options = args.read.read_options()?;
    let backends = if args.unique {
        Some((backends::dfs(), backends::sat(&args.sat)?))
    } else {
        None
    };
    let json = args.output == ReportArg::Json;
    let stdout = io::stdout();
    let mut out = Output::new(stdout.lock(), json);
    let mut counts = [0u64; 4];
    let (puzzles, solutions) = (args.puzzles.clone(), args.solutions.clone());
    batch::ordered_map(
        batch::jobs(args.jobs, &[puzzles.clone(), solutions.clone()]),
        |emit| {
            let mut p = Items::new(&[puzzles], &options);
            // Solutions are judged by the verifier, which names the broken rule: read them as they are.
            let solution_options = ReadOptions {
                allow_clashes: true,
                ..options.clone()
            };
            let mut s = Items::new(&[solutions], &solution_options);
            let mut index = 0;
            loop {
                let (a, b) = (p.next(), s.next());
                if a.is_none() && b.is_none() {
                    break;
                }
                emit(Pair {
                    index,
                    puzzle: a,
                    solution: b,
                });
                index += 1;
            }
        },
        |pair: Pair| judge_pair(&pair, backends.as_ref().map(|(a, b)| (&**a, &**b)), json),
        |(result, solved, diagnostic): (PairResult, Solved, Option<String>)| {
            if let Some(d) = diagnostic {
                eprintln!("satdoku: {d}");
            }
            counts[result as usize] += 1;
            out.record(&solved);
        },
    );
    out.finish();
    let [pass, fail, bad, disagree] = counts;
    if !args.quiet {
        eprintln!(
            "verify: {} pair{}: {pass} valid{}, {fail} invalid, {bad} unreadable{}",
            pass + fail + bad + disagree,
            if pass + fail + bad + disagree == 1 {
                ""
            } else {
                "s"
            },
            if args.unique { " and unique" } else { "" },
            if disagree > 0 {
                format!(", {disagree} where the backends disagree")
            } else {
                String::new()
            },
        );
    }
    Ok(if disagree > 0 {
        3
    } else if bad > 0 {
        2
    } else if fail > 0 {
        1
    } else {
        0
    })
}

fn where_(item: &Option<Item>) -> String {
    match item {
        Some(i) => format!("{}:{}", i.source, i.line),
        None => "-".to_string(),
    }
}

fn judge_pair(
    pair: &Pair,
    backends: Option<(&dyn satdoku::Backend, &dyn satdoku::Backend)>,
    json: bool,
) -> (PairResult, Solved, Option<String>) {
    let (result, valid, message, other): (PairResult, Option<bool>, String, Option<Grid>) =
        match (&pair.puzzle, &pair.solution) {
            (None, _) => (
                PairResult::Bad,
                None,
                format!("solution {} has no puzzle", pair.index),
                None,
            ),
            (Some(_), None) => (
                PairResult::Bad,
                None,
                format!("no solution given for puzzle {}", pair.index),
                None,
            ),
            (Some(p), Some(s)) => match (&p.puzzle, &s.puzzle) {
                (Err(e), _) | (_, Err(e)) => (PairResult::Bad, None, e.clone(), None),
                (Ok(loaded), Ok(solution)) => {
                    let (puzzle, solution, units) =
                        (&loaded.puzzle, &solution.puzzle, &*loaded.units);
                    if puzzle.grid.shape() != solution.grid.shape() {
                        (
                            PairResult::Fail,
                            Some(false),
                            format!(
                                "invalid: the solution is {}x{}, the puzzle {}x{}",
                                solution.grid.n(),
                                solution.grid.n(),
                                puzzle.grid.n(),
                                puzzle.grid.n()
                            ),
                            None,
                        )
                    } else if let Err(v) = verify(units, &puzzle.grid, &solution.grid) {
                        (PairResult::Fail, Some(false), format!("invalid: {v}"), None)
                    } else if let Some((a, b)) = backends {
                        let check = cross_check(units, &puzzle.grid, a, b, &Limits::unique());
                        match (&check.verdict, &check.answers[0].report) {
                            (Verdict::Agree(Status::Unique), _) => {
                                (PairResult::Pass, Some(true), "valid, unique".into(), None)
                            }
                            (Verdict::Agree(Status::Multiple), Ok(r)) => {
                                let other = match &r.outcome {
                                    Outcome::Multiple { solutions, .. } => solutions
                                        .iter()
                                        .find(|g| ***g != solution.grid)
                                        .map(|g| (**g).clone()),
                                    _ => None,
                                };
                                (
                                    PairResult::Fail,
                                    Some(true),
                                    "valid, but not unique: another solution exists".into(),
                                    other,
                                )
                            }
                            (Verdict::Disagree(problems), _) => (
                                PairResult::Disagree,
                                Some(true),
                                format!(
                                    "valid, but the backends disagree on uniqueness: {}",
                                    problems
                                        .iter()
                                        .map(ToString::to_string)
                                        .collect::<Vec<_>>()
                                        .join("; ")
                                ),
                                None,
                            ),
                            _ => (
                                PairResult::Fail,
                                Some(true),
                                "valid, but uniqueness could not be decided".into(),
                                None,
                            ),
                        }
                    } else {
                        (PairResult::Pass, Some(true), "valid".into(), None)
                    }
                }
            },
        };
    let layout = pair
        .solution
        .as_ref()
        .and_then(|s| s.puzzle.as_ref().ok())
        .map(|l| l.puzzle.layout.clone());
    let text = if json {
        let mut v = json!({
            "index": pair.index,
            "puzzle": where_(&pair.puzzle),
            "solution": where_(&pair.solution),
            "valid": valid,
            "result": match result {
                PairResult::Pass => "pass",
                PairResult::Fail => "fail",
                PairResult::Bad => "error",
                PairResult::Disagree => "disagree",
            },
            "message": message,
        });
        if backends.is_some() && result != PairResult::Bad {
            v["unique"] = Value::Bool(result == PairResult::Pass);
        }
        if let (Some(g), Some(l)) = (&other, &layout) {
            v["other_solution"] = json!(l.compact(g));
        }
        let mut s = v.to_string();
        s.push('\n');
        s
    } else {
        let mut s = format!(
            "{} {} {}: {message}\n",
            pair.index,
            where_(&pair.puzzle),
            where_(&pair.solution)
        );
        if let (Some(g), Some(l)) = (&other, &layout) {
            s.push_str(&format!("  another solution: {}\n", l.compact(g)));
        }
        s
    };
    let diagnostic = (result == PairResult::Bad).then(|| message.clone());
    (
        result,
        Solved {
            text: text.into(),
            multiline: false,
            status: None,
            disagree: result == PairResult::Disagree,
        },
        diagnostic,
    )
}
