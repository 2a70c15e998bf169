//! `satdoku study`: a table per file of backends and encodings measured side by side.

use std::path::PathBuf;

use anyhow::Result;

use satdoku::Limits;
use satdoku::study::{self, Subject};

use super::args::{StudyArgs, StudyBackendArg, TableArg};
use super::exit::Exit;
use super::input::Items;
use super::pipeline::Output;
use super::progress::Progress;
use super::record::note;

/// Runs `satdoku study`.
///
/// # Errors
/// Bad flag values.
pub fn run(args: StudyArgs) -> Result<Exit> {
    let options = args.input.read_options()?;
    let limits = args.limits.apply(if args.unique {
        Limits::unique()
    } else {
        Limits::first()
    });
    let mut subjects = Vec::new();
    for b in &args.backends {
        match b {
            StudyBackendArg::Dfs => subjects.push(Subject::Dfs),
            StudyBackendArg::Sat => {
                for solver in &args.solvers {
                    let solver = solver
                        .get()
                        .require()
                        .map_err(|e| anyhow::anyhow!("--solvers: {e}"))?;
                    for e in &args.encodings {
                        for a in &args.amo {
                            if args.cage_encodings.is_empty() {
                                subjects.push(Subject::SatOn(e.get(), a.get(), solver));
                            }
                            for c in &args.cage_encodings {
                                subjects.push(Subject::SatCages(e.get(), a.get(), solver, c.get()));
                            }
                        }
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
    // A spinner with the elapsed time, the puzzles measured (one per puzzle and configuration), the
    // work of the one being solved, and which one it is when it takes long.
    let progress = Progress::spinner(args.quiet, "puzzle");
    let mut position = 0u64;
    let mut exit = Exit::Success;
    let mut csv_header_written = false;
    let mut out = Output::stdout(false).with_progress(&progress);
    for (k, file) in files.iter().enumerate() {
        let mut puzzles = Vec::new();
        let mut errors = 0usize;
        for item in Items::new(std::slice::from_ref(file), &options) {
            if args.max.is_some_and(|m| puzzles.len() >= m) {
                break;
            }
            let place = item.place();
            match item.puzzle {
                Ok(l) => puzzles.push((l.puzzle.grid, l.units, place)),
                Err(e) => {
                    progress.suspend(|| note(&e));
                    errors += 1;
                }
            }
        }
        if errors > 0 {
            exit = exit.max(Exit::BadInput);
        }
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
            let refs: Vec<_> = puzzles.iter().map(|(g, u, _)| (g.clone(), &**u)).collect();
            let rows: Vec<_> = subjects
                .iter()
                .map(|&s| {
                    let mut working = None;
                    let mut each = |k: Option<usize>| match k {
                        Some(k) => {
                            working = Some(progress.working(position, || puzzles[k].2.clone()));
                        }
                        None => {
                            working = None;
                            position += 1;
                            progress.done(1);
                        }
                    };
                    let row = study::measure_with(s, &refs, &limits, &mut each);
                    if row.cut > 0 {
                        exit = exit.max(Exit::Unsolved);
                    }
                    row
                })
                .collect();
            match args.table {
                TableArg::Markdown => {
                    let shapes: std::collections::BTreeSet<String> = puzzles
                        .iter()
                        .map(|(g, _, _)| format!("{}x{}", g.n(), g.n()))
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
        out.write(text.as_bytes());
    }
    out.finish();
    progress.finish();
    Ok(exit)
}
