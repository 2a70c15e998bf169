//! `satdoku generate`: puzzles made by `satdoku::generate`, one record each, through the pipeline.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use satdoku::format::{Format, Layout, write_rules, write_sigh};
use satdoku::generate::{GenerateError, Generated, Generator, Killer, Target};
use satdoku::{Limits, Outcome, Shape, SolveError};

use super::args::{GenerateArgs, OutputArg};
use super::backends;
use super::certify::{Certified, Certify};
use super::exit::Exit;
use super::input::{self, Item};
use super::pipeline::Run;
use super::progress::Progress;
use super::record::{Diagnostic, INTERRUPTED, Place, Record};
use super::render::{self, bad_input, json_line, output_layout, sigh_line};
use super::summary::Summary;

/// What one `generate` run needs for each puzzle.
struct Settings {
    generator: Generator,
    seed: u64,
    output: OutputArg,
    /// The layout of puzzles made from random grids.
    layout: Layout,
    certify: Option<Certify>,
}

/// Runs `satdoku generate`.
///
/// # Errors
/// Bad flag values (exit 2).
pub fn run(args: GenerateArgs) -> Result<Exit> {
    let options = args.read.read_options(args.column.as_deref())?;
    let shape = match (args.size, options.shape) {
        (Some(n), _) => Shape::for_side(n).with_context(|| format!("--size {n}"))?,
        (None, Some(shape)) => shape,
        (None, None) => Shape::new(3, 3).expect("3x3 boxes"),
    };
    let target = match &args.givens {
        Some(text) => {
            parse_givens(text, shape.cells()).with_context(|| format!("--givens {text:?}"))?
        }
        None => Target::Minimal,
    };
    let killer = match (args.killer, args.no_givens) {
        (false, _) => Killer::Off,
        (true, false) => Killer::WithGivens,
        (true, true) => Killer::Pure,
    };
    if !args.fast && !args.run.quiet {
        args.limits.warn_if_budget_misses_sat(args.sat.solver());
    }
    let limits = args
        .limits
        .apply(Limits::unique().with_timeout(Some(satdoku::generate::CHECK_TIMEOUT)));
    let certify = Certify::from_args(&args.certify, &args.sat, limits)?;
    let mut generator = Generator::new(shape)
        .jigsaw(args.jigsaw)
        .killer(killer)
        .target(target)
        .symmetry(args.symmetry.get())
        .difficulty(args.difficulty.map(|l| l.get()))
        .filter_minimal(args.minimal)
        .thermometers(args.thermo.map_or(0, |k| k as usize))
        .kropki(args.kropki)
        .xv(args.xv)
        .fast(args.fast)
        .singles(args.output == OutputArg::Json)
        .limits(&limits)
        .with_backends(
            Box::new(backends::dfs()),
            Box::new(backends::sat(&args.sat, certify.as_ref())?),
        );
    for &v in &options.variants {
        generator = generator.variant(v);
    }
    if let Some(k) = args.attempts {
        generator = generator.attempts(k);
    }
    let placing = args.thermo.is_some() || args.kropki || args.xv;
    if args.output == OutputArg::Sigh && args.from.is_none() && shape.n() > 16 {
        bail!(
            "--output sigh: sigh's constraint strings hold grids up to 16x16 ({shape} boxes make \
             {n}x{n})",
            n = shape.n()
        );
    }
    if args.from.is_none() {
        generator.check().map_err(|e| match e {
            GenerateError::Placement(why) => anyhow::anyhow!("--thermo: {why}"),
            GenerateError::Unreachable(why) => anyhow::anyhow!("--difficulty: {why}"),
            e => anyhow::anyhow!("{e}"),
        })?;
    }
    if placing && shape.n() > 16 && args.output != OutputArg::Json {
        bail!(
            "--thermo, --kropki and --xv: puzzles with clues are written as sigh constraint \
             strings, which hold grids up to 16x16 ({shape} boxes make {n}x{n}); use --output json",
            n = shape.n()
        );
    }
    let seed = args.seed.unwrap_or_else(|| {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        if !args.run.quiet {
            super::record::note(format_args!("note: --seed {seed}"));
        }
        seed
    });
    let mut layout = Layout::new(Format::Line, shape);
    if let Some(symbols) = &options.symbols {
        if symbols.len() != shape.n() {
            bail!(
                "--symbols has {} symbols but {shape} grids need {}",
                symbols.len(),
                shape.n()
            );
        }
        layout = layout.with_alphabet(symbols.clone());
    }
    let json = args.output == OutputArg::Json;
    let settings = Settings {
        generator,
        seed,
        output: args.output,
        layout,
        certify,
    };
    let show_summary =
        args.summary || (!args.run.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let files: Vec<PathBuf> = args.from.iter().cloned().collect();
    // Without --from nothing is read: the display counts puzzles only (a path that is no file).
    let progress_files = if files.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        files.clone()
    };
    let run = Run {
        jobs: jobs(&args),
        typing: false,
        gaps: !json,
        progress: Progress::for_run(&progress_files, args.run.quiet, "puzzle"),
        summary: show_summary.then(|| Summary::new("generate", "puzzle")),
        quiet: args.run.quiet,
        interrupted: if args.from.is_some() {
            Box::new(move |place| render::interrupted(place, json, ""))
        } else {
            // Puzzle K not finished: its index and the run's seed say how to make it again.
            Box::new(move |place| {
                let text = if json {
                    json_line(&json!({
                        "index": place.index,
                        "seed": seed,
                        "status": INTERRUPTED,
                    }))
                } else {
                    format!("{INTERRUPTED}\n").into_bytes()
                };
                Record::new(text, INTERRUPTED, Exit::Unsolved)
            })
        },
        noun: "puzzle",
    };
    // Each puzzle is long work of its own (except small standard grids): one per chunk.
    let chunk = if shape.cells() <= 81 && killer == Killer::Off && !args.jigsaw && !placing {
        8
    } else {
        1
    };
    Ok(match args.from {
        None => {
            let count = args.count;
            run.run_chunked(
                chunk,
                |emit| (0..count).for_each(emit),
                |&index| Place {
                    index: index as usize,
                    source: Arc::from("generate"),
                    line: 0,
                    n: Some(shape.n()),
                },
                |_| 1,
                |index| made(&settings, index, None),
            )
        }
        Some(_) => {
            let quiet = args.run.quiet;
            run.run_chunked(
                1,
                |emit| {
                    input::Items::new(&files, &options)
                        .quiet(quiet)
                        .for_each(emit)
                },
                Item::place,
                |_| 1,
                |item: Item| match &item.puzzle {
                    Err(e) => bad_input(&item, e, json, ""),
                    Ok(_) => made(&settings, item.index as u64, Some(&item)),
                },
            )
        }
    })
}

/// Worker threads: `--jobs` (at most 4 per core) or every core. Nothing is typed at a terminal.
fn jobs(args: &GenerateArgs) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    args.run
        .jobs
        .map_or(cores, |n| (n as usize).min(cores.saturating_mul(4)))
}

/// `A..B`, `A` (exactly), or shares `A%..B%` of `cells`, as a target of givens.
fn parse_givens(text: &str, cells: usize) -> Result<Target> {
    let number = |t: &str| -> Result<usize> {
        let t = t.trim();
        match t.strip_suffix('%') {
            Some(p) => {
                let p: f64 = p
                    .trim()
                    .parse()
                    .context("expected a percentage, e.g. 45%")?;
                if !(0.0..=100.0).contains(&p) {
                    bail!("{t}: a share of the cells is 0% to 100%");
                }
                Ok((p / 100.0 * cells as f64).round() as usize)
            }
            None => t.parse().context("expected a number of givens, e.g. 30"),
        }
    };
    let (min, max) = match text.split_once("..") {
        Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
        None => {
            let k = number(text)?;
            (k, k)
        }
    };
    if min > max || max > cells {
        bail!("the range must be within 0..{cells} (the cells of the grid) and not empty");
    }
    Ok(Target::Givens { min, max })
}

/// The record of puzzle `index`: made from a random grid, or from `item`'s grid.
fn made(settings: &Settings, index: u64, item: Option<&Item>) -> Record {
    let start = Instant::now();
    let generated = match item.and_then(|i| i.puzzle.as_ref().ok()) {
        Some(loaded) => {
            settings
                .generator
                .generate_from(&loaded.units, loaded.grid(), settings.seed, index)
        }
        None => settings.generator.generate(settings.seed, index),
    };
    let time = start.elapsed();
    let place = match item {
        Some(i) => format!("{}:{}", i.source, i.line),
        None => format!("puzzle {index}"),
    };
    match generated {
        Ok(g) => {
            let certified = match &settings.certify {
                Some(c) => c.certify(
                    index as usize,
                    &g.units,
                    &g.puzzle,
                    &Outcome::Unique(g.solution.clone()),
                    &[],
                ),
                None => Certified::NotAsked,
            };
            let layout = match item.and_then(|i| i.puzzle.as_ref().ok()) {
                Some(loaded) => Arc::clone(&loaded.puzzle.layout),
                None => Arc::new(settings.layout.clone()),
            };
            let record = render(settings, &g, &layout, item, time, &certified);
            certified.mark(record, || place)
        }
        Err(e) => failed(settings, index, item, &e, place),
    }
}

/// A made puzzle's record: the grid and its rule lines, or a JSON object.
fn render(
    settings: &Settings,
    g: &Generated,
    layout: &Layout,
    item: Option<&Item>,
    time: Duration,
    certified: &Certified,
) -> Record {
    let layout = output_layout(layout, settings.output);
    if settings.output == OutputArg::Json {
        let d = &g.difficulty;
        let mut v = json!({
            "index": g.index,
            "seed": g.seed,
            "status": "unique",
            "size": format!("{}x{}", g.puzzle.n(), g.puzzle.n()),
            "box": g.puzzle.shape().to_string(),
            "givens": g.givens(),
            "puzzle": layout.compact(&g.puzzle),
            "solution": layout.compact(&g.solution),
            "checked": g.checked_by(),
            "difficulty": {
                "level": d.level.name(),
                "singles": d.singles,
                "nodes": d.nodes,
                "guesses": d.guesses,
                "conflicts": d.conflicts,
                "decisions": d.decisions,
            },
            "attempts": g.attempts,
            "micros": time.as_micros() as u64,
        });
        if let Some(item) = item {
            v["file"] = json!(&*item.source);
            v["line"] = json!(item.line);
        }
        let units = &g.units;
        if !units.variants().is_empty() {
            v["variants"] = json!(
                units
                    .variants()
                    .iter()
                    .map(|x| x.name())
                    .collect::<Vec<_>>()
            );
        }
        if let Some(regions) = units.regions() {
            v["regions"] = json!(regions);
        }
        if !units.clues().is_empty() {
            let shape = g.puzzle.shape();
            let clues: Vec<Value> = units
                .clues()
                .iter()
                .map(|c| {
                    let cells: Vec<String> = c.cells().iter().map(|x| x.name(shape)).collect();
                    json!({"clue": c.title(), "cells": cells})
                })
                .collect();
            v["clues"] = json!(clues);
            if let Ok(text) = write_sigh(units, &g.puzzle) {
                v["sigh"] = json!(text);
            }
        }
        if !units.cages().is_empty() {
            let shape = g.puzzle.shape();
            let cages: Vec<Value> = units
                .cages()
                .iter()
                .map(|c| {
                    let cells: Vec<String> = c.cells.iter().map(|x| x.name(shape)).collect();
                    json!({"sum": c.sum, "cells": cells})
                })
                .collect();
            v["cages"] = json!(cages);
        }
        if let Some(c) = certified.json() {
            v["certified"] = json!(c);
        }
        return Record::new(json_line(&v), "unique", Exit::Success);
    }
    if !g.units.clues().is_empty() || settings.output == OutputArg::Sigh {
        // Clues have no lines in satdoku's layouts: the whole puzzle as a sigh constraint string,
        // which the reader takes in any file.
        return match sigh_line(&g.units, &g.puzzle, format!("puzzle {}", g.index)) {
            Ok(line) => Record::new(line, "unique", Exit::Success),
            Err(record) => *record,
        };
    }
    let mut text = Vec::with_capacity(g.puzzle.values().len() + 64);
    layout.write_bytes(&g.puzzle, &mut text);
    let before = text.len();
    write_rules(&g.units, &layout, &mut text);
    let mut record = Record::new(text, "unique", Exit::Success);
    record.multiline = layout.is_multiline() || record.text.len() > before;
    record
}

/// The record of a puzzle that was not made.
fn failed(
    settings: &Settings,
    index: u64,
    item: Option<&Item>,
    error: &GenerateError,
    place: String,
) -> Record {
    let (word, exit) = match error {
        GenerateError::GaveUp { .. } => ("unknown", Exit::Unsolved),
        GenerateError::Disagree { .. } => ("disagree", Exit::Disagree),
        GenerateError::Backend(
            SolveError::InvalidAnswer { .. } | SolveError::RepeatedSolution { .. },
        ) => ("internal-error", Exit::Internal),
        _ => ("error", Exit::BadInput),
    };
    let text = if settings.output == OutputArg::Json {
        let mut v = json!({
            "index": index,
            "seed": settings.seed,
            "status": word,
            "error": format!("{place}: {error}"),
        });
        if let Some(item) = item {
            v["file"] = json!(&*item.source);
            v["line"] = json!(item.line);
        }
        json_line(&v)
    } else {
        format!("{word}: {place}: {error}\n").into_bytes()
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

    #[test]
    fn givens_ranges() {
        assert_eq!(
            parse_givens("30..40", 81).unwrap(),
            Target::Givens { min: 30, max: 40 }
        );
        assert_eq!(
            parse_givens("25", 81).unwrap(),
            Target::Givens { min: 25, max: 25 }
        );
        assert_eq!(
            parse_givens("45%..65%", 256).unwrap(),
            Target::Givens { min: 115, max: 166 }
        );
        assert!(parse_givens("40..30", 81).is_err());
        assert!(parse_givens("10..90", 81).is_err());
        assert!(parse_givens("lots", 81).is_err());
        assert!(parse_givens("120%", 81).is_err());
    }
}
