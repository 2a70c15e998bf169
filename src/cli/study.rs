//! `satdoku study`: a table per file of backends and encodings measured side by side.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};

use satdoku::Limits;
use satdoku::study::{self, Subject};

use super::args::{StudyArgs, StudyBackendArg, TableArg};
use super::input::Items;

/// Runs `satdoku study`.
///
/// # Errors
/// Bad flag values; write failures.
pub fn run(args: StudyArgs) -> Result<u8> {
    let options = args.input.read_options()?;
    let limits = if args.unique {
        Limits::unique()
    } else {
        Limits::first()
    };
    let mut subjects = Vec::new();
    for b in &args.backends {
        match b {
            StudyBackendArg::Dfs => subjects.push(Subject::Dfs),
            StudyBackendArg::Sat => {
                for e in &args.encodings {
                    for a in &args.amo {
                        subjects.push(Subject::Sat(e.get(), a.get()));
                    }
                }
            }
        }
    }
    let files: Vec<PathBuf> = if args.input.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.input.files.clone()
    };
    let mut bad = false;
    let mut csv_header_written = false;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for (k, file) in files.iter().enumerate() {
        let mut puzzles = Vec::new();
        let mut errors = 0usize;
        for item in Items::new(std::slice::from_ref(file), &options) {
            if args.max.is_some_and(|m| puzzles.len() >= m) {
                break;
            }
            match item.puzzle {
                Ok(l) => puzzles.push((l.puzzle.grid, l.units)),
                Err(msg) => {
                    eprintln!("satdoku: {msg}");
                    errors += 1;
                }
            }
        }
        bad |= errors > 0;
        let name = file.display().to_string();
        let sep = if k > 0 { "\n" } else { "" };
        let text = if puzzles.is_empty() {
            // Nothing to measure: a row of zeros would read like a measurement.
            match args.table {
                TableArg::Markdown => {
                    format!("{sep}### {name}\n\nno puzzles read; {errors} unreadable\n")
                }
                TableArg::Csv => String::new(),
            }
        } else {
            let refs: Vec<_> = puzzles.iter().map(|(g, u)| (g.clone(), &**u)).collect();
            let rows: Vec<_> = subjects
                .iter()
                .map(|&s| study::measure(s, &refs, &limits))
                .collect();
            match args.table {
                TableArg::Markdown => {
                    let shapes: std::collections::BTreeSet<String> = puzzles
                        .iter()
                        .map(|(g, _)| format!("{}x{}", g.n(), g.n()))
                        .collect();
                    format!(
                        "{sep}### {name}\n\n{} puzzles ({}), {}; {errors} unreadable\n\n{}",
                        puzzles.len(),
                        shapes.into_iter().collect::<Vec<_>>().join(", "),
                        if args.unique {
                            "counting to 2"
                        } else {
                            "first solution"
                        },
                        study::markdown(&rows)
                    )
                }
                TableArg::Csv => {
                    let header = !csv_header_written;
                    csv_header_written = true;
                    study::csv(&name, &rows, header)
                }
            }
        };
        if let Err(e) = out.write_all(text.as_bytes()) {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Ok(0);
            }
            return Err(e).context("writing to standard output");
        }
    }
    Ok(if bad { 2 } else { 0 })
}
