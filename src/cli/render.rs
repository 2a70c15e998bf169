//! Rendering shared by the commands: layouts for output, status words with counts, one backend's answer
//! as JSON, and the records of bad input and failed backends.

use std::borrow::Cow;
use std::time::Duration;

use serde_json::{Value, json};

use satdoku::format::{Format, Layout, write_sigh};
use satdoku::{Expected, Grid, Outcome, Report, SolveError, Status, Units, compare_expected};

use super::args::OutputArg;
use super::exit::Exit;
use super::input::{Item, ItemError};
use super::record::{Diagnostic, INTERRUPTED, Place, Record};

/// The layout to print a puzzle's solution in: its own (borrowed, not copied) unless the output asks
/// for another or the input was CSV (printed as lines).
pub fn output_layout(layout: &Layout, output: OutputArg) -> Cow<'_, Layout> {
    match output {
        OutputArg::Line | OutputArg::Sigh if layout.format() != Format::Line => {
            Cow::Owned(layout.as_line())
        }
        OutputArg::Block if !layout.is_multiline() => Cow::Owned(layout.as_block()),
        OutputArg::Same | OutputArg::Json | OutputArg::Pretty if layout.format() == Format::Csv => {
            Cow::Owned(layout.as_line())
        }
        _ => Cow::Borrowed(layout),
    }
}

/// What a status means for the exit code: no solution, a limit hit, or several solutions when they were
/// counted, are 1; a solution is 0.
pub fn status_exit(status: Status, counting: bool) -> Exit {
    match status {
        Status::Solved | Status::Unique => Exit::Success,
        Status::Multiple if !counting => Exit::Success,
        Status::Multiple | Status::None | Status::Unknown => Exit::Unsolved,
    }
}

/// The status word with what is known of the count: `multiple (27)` when the count is exact,
/// `multiple (100+)` when the limit stopped the count, `unknown (1 found)` when a limit stopped the
/// search after a solution; otherwise the bare word.
pub fn status_text(outcome: &Outcome) -> Cow<'static, str> {
    match outcome {
        Outcome::Multiple {
            count, complete, ..
        } => format!("multiple ({count}{})", if *complete { "" } else { "+" }).into(),
        Outcome::Unknown { count, .. } if *count > 0 => format!("unknown ({count} found)").into(),
        // The common case, formatted for every record: no allocation.
        o => Cow::Borrowed(o.status().word()),
    }
}

/// Whether an error means the backend is broken (it returned a grid that the verifier rejects), as
/// opposed to a puzzle it cannot attempt.
pub fn is_internal(e: &SolveError) -> bool {
    matches!(
        e,
        SolveError::InvalidAnswer { .. } | SolveError::RepeatedSolution { .. }
    )
}

/// One backend's answer as JSON: status, count, solution(s), micros, nodes (or the error).
pub fn answer_json(report: &Result<Report, SolveError>, time: Duration, layout: &Layout) -> Value {
    let micros = time.as_micros() as u64;
    match report {
        Err(e) => json!({
            "status": if is_internal(e) { "internal-error" } else { "error" },
            "error": e.to_string(),
            "micros": micros,
        }),
        Ok(report) => {
            let mut v = json!({
                "status": report.outcome.status().word(),
                "count": report.outcome.count(),
                "micros": micros,
                "nodes": report.stats.nodes,
            });
            match &report.outcome {
                Outcome::Multiple {
                    solutions,
                    complete,
                    ..
                } => {
                    v["complete"] = json!(complete);
                    v["solutions"] =
                        json!([layout.compact(&solutions[0]), layout.compact(&solutions[1])]);
                }
                o => {
                    if let Some(g) = o.grids().next() {
                        v["solution"] = json!(layout.compact(g));
                    }
                }
            }
            v
        }
    }
}

/// `outcome` compared with the solution given with the item's puzzle, if it has one.
pub fn expected(item: &Item, outcome: &Outcome) -> Option<Expected> {
    let loaded = item.puzzle.as_ref().ok()?;
    let given = loaded.puzzle.expected.as_ref()?;
    Some(compare_expected(
        &loaded.units,
        loaded.grid(),
        given,
        outcome,
    ))
}

/// What a comparison with the given solution means for the exit status: a given solution that breaks
/// a rule is bad input (2); a unique answer that is another grid, or no solution where the given one
/// is valid, contradicts a witness (3, as two backends that disagree); another grid when uniqueness
/// was not asked shows several solutions (1).
pub fn expected_exit(e: &Expected) -> Exit {
    match e {
        Expected::Matches | Expected::Unsettled => Exit::Success,
        Expected::Invalid(_) => Exit::BadInput,
        Expected::Differs { unique: false, .. } => Exit::Unsolved,
        Expected::Differs { unique: true, .. } | Expected::Missed => Exit::Disagree,
        _ => Exit::Disagree,
    }
}

/// What `outcome` contradicts in the item's `expected: solvable|unsolvable` line, if anything: no
/// solution for a puzzle said to have one, or a (verified) solution for one said to have none.
pub fn solvable_problem(item: &Item, outcome: &Outcome) -> Option<String> {
    let said = item.puzzle.as_ref().ok()?.puzzle.solvable?;
    match (said, outcome.status()) {
        (true, Status::None) => {
            Some("no solution was found, but the input says the puzzle has one".to_string())
        }
        (false, Status::Solved | Status::Unique | Status::Multiple) => {
            Some("a solution was found, but the input says the puzzle has none".to_string())
        }
        _ => None,
    }
}

/// `record` of a solved item with the comparison with its given solution (see [`expected`]) or its
/// `expected:` line ([`solvable_problem`]): in JSON an `expected` field (`match`, `differs`, `missed`,
/// `invalid`, `unsettled`, or `solvable`/`unsolvable` with `expected_problem` on a contradiction); a
/// problem raises the exit status (3 for a contradiction) and goes to standard error.
pub fn with_expected(item: &Item, outcome: &Outcome, mut record: Record, json: bool) -> Record {
    if let Some(problem) = solvable_problem(item, outcome) {
        if json && let Ok(mut v) = serde_json::from_slice::<Value>(&record.text) {
            v["expected_problem"] = json!(problem);
            record.text = json_line(&v);
        }
        record.exit = record.exit.max(Exit::Disagree);
        record.word = "disagree";
        record.diagnostic = Some(Diagnostic {
            place: format!("{}:{}", item.source, item.line),
            message: problem,
            shown_in_record: false,
        });
    }
    let Some(e) = expected(item, outcome) else {
        return record;
    };
    if json && let Ok(mut v) = serde_json::from_slice::<Value>(&record.text) {
        v["expected"] = json!(e.word());
        if let Some(p) = e.problem() {
            v["expected_problem"] = json!(p);
        }
        record.text = json_line(&v);
    }
    let exit = expected_exit(&e);
    if exit > record.exit {
        record.exit = exit;
        if exit == Exit::Disagree {
            record.word = "disagree";
        }
    }
    if let Some(p) = e.problem() {
        record.diagnostic = Some(Diagnostic {
            place: format!("{}:{}", item.source, item.line),
            message: p,
            shown_in_record: false,
        });
    }
    record
}

/// The record of a puzzle that an interrupted run did not finish: `interrupted` in place of its
/// answer (`prefix` goes first), or a JSON object with `index`, `file`, `line` and `status`
/// `interrupted`.
pub fn interrupted(place: &Place, json: bool, prefix: &str) -> Record {
    let text = if json {
        json_line(&json!({
            "index": place.index,
            "file": &*place.source,
            "line": place.line,
            "status": INTERRUPTED,
        }))
    } else {
        format!("{prefix}{INTERRUPTED}\n").into_bytes()
    };
    Record::new(text, INTERRUPTED, Exit::Unsolved)
}

/// One JSON Lines record: `value` and a newline.
pub fn json_line(value: &Value) -> Vec<u8> {
    let mut s = value.to_string();
    s.push('\n');
    s.into_bytes()
}

/// The record of an item that could not be read: `error: FILE:LINE:COLUMN: message` in place of its
/// answer (`prefix` goes first, e.g. the index in `check`'s report), or a JSON object with `status`
/// `error`; the same message goes to standard error.
pub fn bad_input(item: &Item, error: &ItemError, json: bool, prefix: &str) -> Record {
    let text = if json {
        json_line(&json!({
            "index": item.index,
            "file": &*item.source,
            "line": item.line,
            "status": "error",
            "error": error.to_string(),
        }))
    } else {
        format!("{prefix}error: {error}\n").into_bytes()
    };
    Record::new(text, "error", Exit::BadInput).with_diagnostic(error.diagnostic(true))
}

/// A grid under its rules as one line of sigh's constraint string, or the error record of a puzzle
/// that sigh's format cannot hold (`error: PLACE: …`, exit 2), `place` naming the puzzle.
pub fn sigh_line(units: &Units, grid: &Grid, place: String) -> Result<Vec<u8>, Box<Record>> {
    match write_sigh(units, grid) {
        Ok(line) => Ok(format!("{line}\n").into_bytes()),
        Err(e) => Err(Box::new(
            Record::new(format!("error: {place}: {e}\n"), "error", Exit::BadInput).with_diagnostic(
                Diagnostic {
                    place,
                    message: e.to_string(),
                    shown_in_record: true,
                },
            ),
        )),
    }
}

/// The record of a puzzle a backend could not answer: `internal-error: …` (exit 4) when the backend
/// returned a grid the verifier rejects, else `error: …` (exit 2: the puzzle is too large for it, say).
pub fn failure(item: &Item, error: &SolveError, json: bool, prefix: &str) -> Record {
    let internal = is_internal(error);
    let word = if internal { "internal-error" } else { "error" };
    let place = format!("{}:{}", item.source, item.line);
    let text = if json {
        json_line(&json!({
            "index": item.index,
            "file": &*item.source,
            "line": item.line,
            "status": word,
            "error": format!("{place}: {error}"),
        }))
    } else {
        format!("{prefix}{word}: {place}: {error}\n").into_bytes()
    };
    let exit = if internal {
        Exit::Internal
    } else {
        Exit::BadInput
    };
    Record::new(text, word, exit).with_diagnostic(Diagnostic {
        place,
        message: error.to_string(),
        shown_in_record: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use satdoku::{Grid, Shape};

    #[test]
    fn counts_in_status_words() {
        let s = Shape::new(2, 2).unwrap();
        let g = || Box::new(Grid::empty(s));
        let exact = Outcome::Multiple {
            solutions: [g(), g()],
            count: 27,
            complete: true,
        };
        let bound = Outcome::Multiple {
            solutions: [g(), g()],
            count: 100,
            complete: false,
        };
        assert_eq!(status_text(&exact), "multiple (27)");
        assert_eq!(status_text(&bound), "multiple (100+)");
        assert_eq!(status_text(&Outcome::NoSolution), "none");
        let partial = Outcome::Unknown {
            count: 1,
            first: None,
        };
        assert_eq!(status_text(&partial), "unknown (1 found)");
    }

    #[test]
    fn exits_by_status() {
        assert_eq!(status_exit(Status::Multiple, false), Exit::Success);
        assert_eq!(status_exit(Status::Multiple, true), Exit::Unsolved);
        assert_eq!(status_exit(Status::Unique, true), Exit::Success);
        assert_eq!(status_exit(Status::None, false), Exit::Unsolved);
        assert_eq!(status_exit(Status::Unknown, false), Exit::Unsolved);
    }
}
