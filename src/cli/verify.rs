//! `satdoku verify`: checks solutions produced by another program (or by `satdoku solve --output json`)
//! against their puzzles, pair by pair.

use std::io::{BufRead, Read};
use std::sync::Arc;

use anyhow::{Result, bail};
use serde_json::json;

use satdoku::format::{Format, ReadOptions, read_str};
use satdoku::{Grid, Limits, Outcome, Status, cross_check, verify};

use super::args::{ReportArg, VerifyArgs};
use super::backends::{self, Checked};
use super::certify::{Certified, Certify};
use super::exit::Exit;
use super::input::{Item, Items, Loaded, display_name, open_path};
use super::joint::{Joint, joint};
use super::pipeline::Run;
use super::progress::Progress;
use super::record::{Diagnostic, INTERRUPTED, Place, Record};
use super::render::json_line;
use super::summary::Summary;

/// A solution as given: a grid read from a puzzle file, or a record of `satdoku solve --output json`.
enum Given {
    Grid(Item),
    Json(JsonSolution),
}

/// One JSON Lines record of `satdoku solve --output json`: its `solution` text, or why it has none.
struct JsonSolution {
    source: Arc<str>,
    line: usize,
    solution: Result<String, String>,
}

impl Given {
    fn place(&self) -> String {
        match self {
            Given::Grid(i) => format!("{}:{}", i.source, i.line),
            Given::Json(j) => format!("{}:{}", j.source, j.line),
        }
    }
}

/// One pair: puzzle i and solution i (either may be missing when the files differ in length).
struct Pair {
    index: usize,
    puzzle: Option<Item>,
    solution: Option<Given>,
}

impl Pair {
    /// Where it came from: its puzzle's place, or its solution's when it has no puzzle.
    fn place(&self) -> Place {
        match (&self.puzzle, &self.solution) {
            (Some(p), _) => Place {
                index: self.index,
                ..p.place()
            },
            (None, Some(Given::Grid(s))) => Place {
                index: self.index,
                n: None,
                ..s.place()
            },
            (None, Some(Given::Json(j))) => Place {
                index: self.index,
                source: Arc::clone(&j.source),
                line: j.line,
                n: None,
            },
            (None, None) => Place {
                index: self.index,
                source: "-".into(),
                line: 0,
                n: None,
            },
        }
    }
}

/// The record of a pair that an interrupted run did not judge: `INDEX PUZZLE: interrupted`, or a
/// JSON object with `result` `interrupted`.
fn interrupted(place: &Place, json: bool) -> Record {
    let text = if json {
        json_line(&json!({
            "index": place.index,
            "puzzle": place.at(),
            "result": INTERRUPTED,
        }))
    } else {
        format!("{} {}: {INTERRUPTED}\n", place.index, place.at()).into_bytes()
    };
    Record::new(text, INTERRUPTED, Exit::Unsolved)
}

/// Runs `satdoku verify`.
///
/// # Errors
/// Bad flag values (exit 2).
pub fn run(args: VerifyArgs) -> Result<Exit> {
    let stdin = std::path::Path::new("-");
    if args.puzzles == stdin && args.solutions == stdin {
        bail!(
            "--puzzles and --solutions cannot both be standard input (-): one stream cannot hold \
             both; give one of them as a file"
        );
    }
    let puzzle_options = args.read.read_options(args.puzzle_column.as_deref())?;
    // Solutions are judged by the verifier, which names the broken rule: read them as they are.
    let solution_options = ReadOptions {
        allow_clashes: true,
        ..args.read.read_options(args.solution_column.as_deref())?
    };
    if args.unique && !args.run.quiet {
        args.limits.warn_if_budget_misses_sat(args.sat.solver());
    }
    let limits = args.limits.apply(Limits::unique());
    if args.certify.certify.is_some() && !args.unique {
        anyhow::bail!("--certify needs --unique: only a proven unique solution is certified");
    }
    let certify = Certify::from_args(&args.certify, &args.sat, limits)?;
    let backends = match args.unique {
        true => Some((backends::dfs(), backends::sat(&args.sat, certify.as_ref())?)),
        false => None,
    };
    let json = args.output == ReportArg::Json;
    let files = [args.puzzles.clone(), args.solutions.clone()];
    let progress = Progress::for_run(&files[..1], args.run.quiet, "pair");
    let bytes = progress.bytes_counter();
    let run = Run {
        jobs: args.run.jobs(&files),
        typing: false,
        gaps: false,
        progress,
        summary: (!args.run.quiet).then(|| Summary::new("verify", "pair")),
        quiet: args.run.quiet,
        interrupted: Box::new(move |place| interrupted(place, json)),
        noun: "pair",
    };
    let (puzzles, solutions, quiet) = (&args.puzzles, &args.solutions, args.run.quiet);
    Ok(run.run(
        |emit| {
            let mut p =
                Items::new(std::slice::from_ref(puzzles), &puzzle_options).count_bytes(bytes);
            let mut s = solutions_of(solutions, &solution_options, quiet);
            for index in 0.. {
                let (puzzle, solution) = (p.next(), s.next());
                if puzzle.is_none() && solution.is_none() {
                    break;
                }
                emit(Pair {
                    index,
                    puzzle,
                    solution,
                });
            }
        },
        Pair::place,
        // A pair weighs its puzzle (a solution alone, as a 9x9).
        |pair: &Pair| pair.puzzle.as_ref().map_or(1, Item::weight),
        |pair: Pair| judge_pair(&pair, backends.as_ref(), &limits, certify.as_ref(), json),
    ))
}

/// The solutions of `path`: satdoku's JSON Lines when the file starts with `{`, else puzzle grids.
fn solutions_of(
    path: &std::path::Path,
    options: &ReadOptions,
    quiet: bool,
) -> Box<dyn Iterator<Item = Given>> {
    let name = display_name(path);
    let mut reader = match open_path(path) {
        Ok(r) => r,
        // The puzzle reader reports the file it cannot open, as for any other input.
        Err(_) => {
            return Box::new(
                Items::new(&[path.to_path_buf()], options)
                    .quiet(quiet)
                    .map(Given::Grid),
            );
        }
    };
    let json = reader
        .fill_buf()
        .map(|b| b.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'{'))
        .unwrap_or(false);
    if json {
        Box::new(JsonLines {
            reader,
            source: name,
            line: 0,
        })
    } else {
        Box::new(
            Items::from_reader(&name, reader, options)
                .quiet(quiet)
                .map(Given::Grid),
        )
    }
}

/// The records of a JSON Lines file, one per non-blank line.
struct JsonLines {
    reader: Box<dyn BufRead>,
    source: Arc<str>,
    line: usize,
}

/// The longest JSON line read (a 400x400 record with two solutions is about 1.3 MB).
const MAX_JSON_LINE: u64 = 8 << 20;

impl Iterator for JsonLines {
    type Item = Given;

    fn next(&mut self) -> Option<Given> {
        loop {
            let mut buf = Vec::new();
            let read = (&mut self.reader)
                .take(MAX_JSON_LINE + 1)
                .read_until(b'\n', &mut buf);
            self.line += 1;
            let solution = match read {
                Ok(0) => return None,
                Err(e) => Err(format!("read error: {e}")),
                Ok(_) if buf.len() as u64 > MAX_JSON_LINE => {
                    // Skip the rest of the line, then report it.
                    let mut rest = Vec::new();
                    let _ = self.reader.read_until(b'\n', &mut rest);
                    Err(format!("line too long: over {MAX_JSON_LINE} bytes"))
                }
                Ok(_) => {
                    if buf.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    parse_record(&buf)
                }
            };
            return Some(Given::Json(JsonSolution {
                source: self.source.clone(),
                line: self.line,
                solution,
            }));
        }
    }
}

/// The `solution` of one `satdoku solve --output json` record, or why it has none.
fn parse_record(line: &[u8]) -> Result<String, String> {
    let v: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| format!("not a JSON record: {e}"))?;
    match v.get("solution").and_then(|s| s.as_str()) {
        Some(s) => Ok(s.to_string()),
        None => Err(format!(
            "the record has no solution (status {})",
            v.get("status")
                .and_then(|s| s.as_str())
                .unwrap_or("missing")
        )),
    }
}

/// A JSON record's solution text read as a grid of `puzzle`'s shape and alphabet.
fn read_json_solution(text: &str, source: &str, puzzle: &Loaded) -> Result<Grid, String> {
    let layout = &puzzle.puzzle.layout;
    let ints = layout.format() == Format::Ints;
    let options = ReadOptions {
        format: Some(if ints { Format::Ints } else { Format::Line }),
        symbols: (!ints).then(|| layout.alphabet().clone()),
        shape: Some(puzzle.grid().shape()),
        allow_clashes: true,
        ..ReadOptions::default()
    };
    let records = read_str(text, source, options);
    match records.into_iter().next().map(|r| r.puzzle) {
        Some(Ok(p)) => Ok(p.grid),
        Some(Err(e)) => Err(format!("the solution cannot be read: {}", e.kind)),
        None => Err("the record's solution is empty".into()),
    }
}

/// What became of one pair: the summary word, the exit, the message, another solution if found, and
/// its certificate.
struct Judged {
    word: &'static str,
    exit: Exit,
    message: String,
    other: Option<Grid>,
    certified: Certified,
}

impl Judged {
    fn new(word: &'static str, exit: Exit, message: impl Into<String>) -> Judged {
        Judged {
            word,
            exit,
            message: message.into(),
            other: None,
            certified: Certified::NotAsked,
        }
    }
}

fn judge_pair(
    pair: &Pair,
    backends: Option<&(Checked, Checked)>,
    limits: &Limits,
    certify: Option<&Certify>,
    json: bool,
) -> Record {
    let judged = judge(pair, backends, limits, certify);
    let puzzle_place = pair
        .puzzle
        .as_ref()
        .map_or("-".to_string(), |i| format!("{}:{}", i.source, i.line));
    let solution_place = pair.solution.as_ref().map_or("-".to_string(), Given::place);
    let layout = pair
        .puzzle
        .as_ref()
        .and_then(|p| p.puzzle.as_ref().ok())
        .map(|l| super::render::output_layout(&l.puzzle.layout, super::args::OutputArg::Same));
    let text = if json {
        let mut v = json!({
            "index": pair.index,
            "puzzle": puzzle_place,
            "solution": solution_place,
            "result": judged.word,
            "valid": match judged.word {
                "error" => serde_json::Value::Null,
                "invalid" => json!(false),
                _ => json!(true),
            },
            "message": judged.message,
        });
        if backends.is_some() && judged.exit != Exit::BadInput {
            v["unique"] = match judged.word {
                "valid" => json!(true),
                "not-unique" => json!(false),
                _ => serde_json::Value::Null,
            };
        }
        if let (Some(g), Some(l)) = (&judged.other, &layout) {
            v["other_solution"] = json!(l.compact(g));
        }
        if let Some(c) = judged.certified.json() {
            v["certified"] = json!(c);
        }
        json_line(&v)
    } else {
        let mut s = format!(
            "{} {puzzle_place} {solution_place}: {}\n",
            pair.index, judged.message
        );
        if let (Some(g), Some(l)) = (&judged.other, &layout) {
            s.push_str(&format!("  another solution: {}\n", l.compact(g)));
        }
        s.into_bytes()
    };
    let mut record = Record::new(text, judged.word, judged.exit);
    let certified = judged.certified;
    if judged.exit >= Exit::BadInput {
        record.diagnostic = Some(Diagnostic {
            // Input errors carry their own position.
            place: if judged.exit == Exit::BadInput {
                String::new()
            } else {
                format!("pair {}", pair.index)
            },
            message: judged.message,
            shown_in_record: true,
        });
    }
    certified.mark(record, || format!("pair {}", pair.index))
}

fn judge(
    pair: &Pair,
    backends: Option<&(Checked, Checked)>,
    limits: &Limits,
    certify: Option<&Certify>,
) -> Judged {
    let bad = |m: String| Judged::new("error", Exit::BadInput, m);
    let (puzzle, given) = match (&pair.puzzle, &pair.solution) {
        (None, _) => return bad(format!("solution {} has no puzzle", pair.index)),
        (Some(_), None) => return bad(format!("no solution given for puzzle {}", pair.index)),
        (Some(p), Some(s)) => (p, s),
    };
    let loaded = match &puzzle.puzzle {
        Ok(l) => l,
        Err(e) => return bad(e.to_string()),
    };
    let solution = match given {
        Given::Grid(item) => match &item.puzzle {
            Ok(s) => s.grid().clone(),
            Err(e) => return bad(e.to_string()),
        },
        Given::Json(j) => {
            let place = format!("{}:{}", j.source, j.line);
            let text = match &j.solution {
                Ok(t) => t,
                Err(e) => return bad(format!("{place}: {e}")),
            };
            match read_json_solution(text, &j.source, loaded) {
                Ok(g) => g,
                Err(e) => return bad(format!("{place}: {e}")),
            }
        }
    };
    let (grid, units) = (loaded.grid(), &*loaded.units);
    // The same rows, columns and digits is the same grid: the boxes are the puzzle's rules, and a
    // solution written without them (sigh's `NoBoxes` for a jigsaw) is judged under the puzzle's.
    let (p, s) = (grid.shape(), solution.shape());
    let solution = match Grid::from_values(p, solution.values().to_vec()) {
        Ok(g) if (p.rows(), p.cols(), p.n()) == (s.rows(), s.cols(), s.n()) => g,
        _ => {
            let message = format!(
                "invalid: the solution is {}x{} ({} digits), the puzzle {}x{} ({} digits)",
                s.rows(),
                s.cols(),
                s.n(),
                p.rows(),
                p.cols(),
                p.n()
            );
            return Judged::new("invalid", Exit::Unsolved, message);
        }
    };
    if let Err(v) = verify(units, grid, &solution) {
        return Judged::new("invalid", Exit::Unsolved, format!("invalid: {v}"));
    }
    let Some((a, b)) = backends else {
        return Judged::new("valid", Exit::Success, "valid");
    };
    let check = cross_check(units, grid, a, b, limits);
    let other_than = |o: &Outcome| match o {
        Outcome::Multiple { solutions, .. } => solutions
            .iter()
            .find(|g| ***g != solution)
            .map(|g| (**g).clone()),
        _ => None,
    };
    match joint(units, grid, &check.answers) {
        Joint::Agree(r) | Joint::OneSettled { report: r, .. }
            if r.outcome.status() == Status::Multiple =>
        {
            // Two verified solutions prove it, whether or not the other backend finished.
            Judged {
                other: other_than(&r.outcome),
                ..Judged::new(
                    "not-unique",
                    Exit::Unsolved,
                    "valid, but not unique: another solution exists",
                )
            }
        }
        Joint::Agree(r) if r.outcome.status() == Status::Unique => {
            let certified = match certify {
                Some(c) => c.certify(pair.index, units, grid, &r.outcome, &check.answers),
                None => Certified::NotAsked,
            };
            let message = match certified {
                Certified::Yes => "valid, unique, certified",
                _ => "valid, unique",
            };
            Judged {
                certified,
                ..Judged::new("valid", Exit::Success, message)
            }
        }
        Joint::OneSettled {
            settled,
            report,
            other,
        } if report.outcome.status() == Status::Unique => Judged::new(
            "unconfirmed",
            Exit::Unsolved,
            format!(
                "valid; unique according to {settled} only ({other} did not settle it within \
                 the limits)"
            ),
        ),
        Joint::Agree(_) | Joint::OneSettled { .. } => Judged::new(
            "internal-error",
            Exit::Internal,
            "valid, but the backends found no solution (or another status) for a puzzle with a \
             verified solution",
        ),
        Joint::Unknown => Judged::new(
            "undecided",
            Exit::Unsolved,
            "valid, but uniqueness was not decided within the limits",
        ),
        Joint::Failed(e) => bad(format!("valid, but uniqueness cannot be decided: {e}")),
        Joint::Internal(backend, e) => Judged::new(
            "internal-error",
            Exit::Internal,
            format!("valid, but {backend} failed: {e}"),
        ),
        Joint::Disagree(problems) => Judged::new(
            "disagree",
            Exit::Disagree,
            format!(
                "valid, but the backends disagree on uniqueness: {}",
                problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_records_give_their_solution_or_say_why_not() {
        assert_eq!(
            parse_record(br#"{"index":0,"status":"unique","solution":"12"}"#),
            Ok("12".into())
        );
        assert_eq!(
            parse_record(br#"{"index":0,"status":"multiple"}"#),
            Err("the record has no solution (status multiple)".into())
        );
        assert!(
            parse_record(b"{oops")
                .unwrap_err()
                .starts_with("not a JSON record")
        );
    }

    #[test]
    fn json_lines_are_numbered_and_long_lines_refused() {
        let text = format!(
            "{{\"solution\":\"1\"}}\n\n{}\n{{\"solution\":\"2\"}}\n",
            "x".repeat(MAX_JSON_LINE as usize + 5)
        );
        let lines = JsonLines {
            reader: Box::new(std::io::Cursor::new(text.into_bytes())),
            source: "j".into(),
            line: 0,
        };
        let got: Vec<(usize, Result<String, String>)> = lines
            .map(|g| match g {
                Given::Json(j) => (j.line, j.solution),
                Given::Grid(_) => unreachable!(),
            })
            .collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], (1, Ok("1".into())));
        assert_eq!(got[1].0, 3);
        assert!(got[1].1.as_ref().unwrap_err().starts_with("line too long"));
        assert_eq!(got[2], (4, Ok("2".into())));
    }

    #[test]
    fn pairs_without_a_partner_are_errors() {
        let pair = Pair {
            index: 3,
            puzzle: None,
            solution: None,
        };
        let j = judge(&pair, None, &Limits::unique(), None);
        assert_eq!((j.word, j.exit), ("error", Exit::BadInput));
        assert_eq!(j.message, "solution 3 has no puzzle");
    }
}
