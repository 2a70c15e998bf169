//! `satdoku encode` (DIMACS out, or formula sizes) and `satdoku decode` (an external solver's model in).

use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::path::Path;

use anyhow::{Context, Result};

use satdoku::sat::{
    Amo, CageEncoding, Encoding, SolverAnswer, decode_model, formula_stats_with,
    parse_solver_output, write_dimacs_with,
};
use satdoku::verify;

use super::args::{DecodeArgs, EncodeArgs, EncodingArg, OutputArg, RunArgs};
use super::exit::Exit;
use super::input::{Item, ItemError, Items, Loaded, display_name, open_path};
use super::pipeline::{Output, Run};
use super::progress::Progress;
use super::record::{Diagnostic, Record, note};
use super::render::{self, bad_input, output_layout};
use super::summary::Summary;

/// Runs `satdoku encode`.
///
/// # Errors
/// Bad flag values (exit 2); a directory that cannot be created.
pub fn run_encode(args: EncodeArgs) -> Result<Exit> {
    let options = args.input.read_options()?;
    let amo = args.amo.get();
    let cages = args.cage_encoding.get();
    let files = &args.input.files;
    let run_args = RunArgs {
        jobs: None,
        quiet: args.quiet,
    };
    if args.stats {
        let encodings: Vec<Encoding> = match args.encoding {
            Some(e) => vec![e.get()],
            None => Encoding::ALL.to_vec(),
        };
        return Ok(stats(&args, &options, &encodings, amo, cages));
    }
    let encoding = args.encoding.unwrap_or_default().get();
    let Some(dir) = &args.out_dir else {
        return Ok(to_stdout(Items::new(files, &options), encoding, amo, cages));
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let progress = Progress::for_run(files, args.quiet, "puzzle");
    let run = Run {
        jobs: run_args.jobs(files),
        typing: false,
        gaps: false,
        progress,
        summary: (!args.quiet).then(|| {
            Summary::new(
                format!("encode ({encoding}, {amo}) to {}", dir.display()),
                "puzzle",
            )
        }),
        quiet: args.quiet,
        interrupted: Box::new(|place| render::interrupted(place, false, "").without_text()),
        noun: "puzzle",
    };
    Ok(run.over_puzzles(files, &options, |item: Item| {
        let loaded = match &item.puzzle {
            Ok(l) => l,
            Err(e) => return bad_input(&item, e, false, "").without_text(),
        };
        let path = dir.join(format!("puzzle-{:06}.cnf", item.index));
        if !args.force && path.exists() {
            return bad_input(
                &item,
                &ItemError {
                    place: path.display().to_string(),
                    message: "is there already (from an earlier run?): not overwritten; \
                          --force replaces it, or choose another --out-dir"
                        .into(),
                },
                false,
                "",
            )
            .without_text();
        }
        match write_file(&path, &item, loaded, (encoding, amo, cages)) {
            Ok(()) => Record::new("", "written", Exit::Success),
            Err(e) => Record::new("", "error", Exit::BadInput).with_diagnostic(Diagnostic {
                place: path.display().to_string(),
                message: format!("{e:#}"),
                shown_in_record: false,
            }),
        }
    }))
}

/// The comment lines that tie a CNF to its source: file, line and index (read back by `decode --cnf`).
fn source_comments(item: &Item) -> String {
    format!(
        "c source {} line {} index {}\n",
        item.source, item.line, item.index
    )
}

/// One puzzle to standard output; a second puzzle is an error (one DIMACS formula per stream).
fn to_stdout(mut items: Items, encoding: Encoding, amo: Amo, cages: CageEncoding) -> Exit {
    let Some(first) = items.next() else {
        return Exit::Success;
    };
    let loaded = match &first.puzzle {
        Ok(l) => l,
        Err(e) => {
            note(e);
            return Exit::BadInput;
        }
    };
    if let Some(second) = items.next() {
        note(format_args!(
            "{}:{}: a second puzzle: standard output takes one puzzle; use --out-dir DIR for one \
             file per puzzle",
            second.source, second.line
        ));
        return Exit::BadInput;
    }
    let mut out = Output::stdout(false);
    out.write(source_comments(&first).as_bytes());
    let mut writer = out.writer();
    if let Err(e) = write_dimacs_with(
        &mut writer,
        &loaded.units,
        loaded.grid(),
        encoding,
        amo,
        cages,
    ) {
        // Write errors end the process inside the writer; what is left is a puzzle that cannot be
        // encoded.
        note(format_args!("{}:{}: {e}", first.source, first.line));
        return Exit::BadInput;
    }
    out.finish();
    Exit::Success
}

/// Writes the CNF of `loaded` to `path`: first under a temporary name beside it, renamed when
/// complete, so that an interrupted run leaves no truncated file under a puzzle's name.
fn write_file(
    path: &Path,
    item: &Item,
    loaded: &Loaded,
    (encoding, amo, cages): (Encoding, Amo, CageEncoding),
) -> Result<()> {
    let partial = path.with_extension("cnf.partial");
    let mut file = io::BufWriter::new(
        File::create(&partial).with_context(|| format!("creating {}", partial.display()))?,
    );
    let written = file
        .write_all(source_comments(item).as_bytes())
        .and_then(|()| file.flush())
        .map_err(anyhow::Error::from)
        .and_then(|()| {
            write_dimacs_with(file, &loaded.units, loaded.grid(), encoding, amo, cages)
                .map(|_| ())
                .map_err(anyhow::Error::from)
        })
        .and_then(|()| std::fs::rename(&partial, path).map_err(anyhow::Error::from));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written.with_context(|| format!("writing {}", path.display()))
}

/// `encode --stats`: one tab-separated row per puzzle and encoding, then a total row per encoding.
fn stats(
    args: &EncodeArgs,
    options: &satdoku::format::ReadOptions,
    encodings: &[Encoding],
    amo: Amo,
    cages: CageEncoding,
) -> Exit {
    let files = &args.input.files;
    let mut out = Output::stdout(false);
    out.write(b"index\tencoding\tamo\tvariables\tclauses\tliterals\n");
    let mut totals = vec![[0u64; 3]; encodings.len()];
    let mut exit = Exit::Success;
    for item in Items::new(files, options) {
        let loaded = match &item.puzzle {
            Ok(l) => l,
            Err(e) => {
                note(e);
                out.write(format!("{}\terror: {e}\n", item.index).as_bytes());
                exit = exit.max(Exit::BadInput);
                continue;
            }
        };
        for (k, &encoding) in encodings.iter().enumerate() {
            match formula_stats_with(&loaded.units, loaded.grid(), encoding, amo, cages) {
                Ok(s) => {
                    totals[k][0] += s.variables;
                    totals[k][1] += s.clauses;
                    totals[k][2] += s.literals;
                    out.write(
                        format!(
                            "{}\t{encoding}\t{amo}\t{}\t{}\t{}\n",
                            item.index, s.variables, s.clauses, s.literals
                        )
                        .as_bytes(),
                    );
                }
                Err(e) => {
                    note(format_args!("{}:{}: {e}", item.source, item.line));
                    exit = exit.max(Exit::BadInput);
                }
            }
        }
    }
    for (k, encoding) in encodings.iter().enumerate() {
        let [v, c, l] = totals[k];
        out.write(format!("total\t{encoding}\t{amo}\t{v}\t{c}\t{l}\n").as_bytes());
    }
    out.finish();
    exit
}

/// The largest solver output `decode` reads for a grid of this shape: 64 MiB, or 12 bytes per cell
/// variable (`-64000000 ` is 10) for grids whose model can be longer (a 400x400 model of all N³ cell
/// variables is about 700 MB).
fn max_model_bytes(shape: satdoku::Shape) -> u64 {
    (64 << 20).max(12 * satdoku::sat::cell_var_count(shape) as u64 + (1 << 20))
}

/// Runs `satdoku decode`.
///
/// # Errors
/// Bad flag values; otherwise problems are reported with an exit code.
pub fn run_decode(args: DecodeArgs) -> Result<Exit> {
    let stdin = Path::new("-");
    let from_stdin = args
        .puzzle
        .iter()
        .map(|p| p.as_path())
        .chain(args.cnf.as_deref())
        .filter(|p| *p == stdin)
        .count();
    if from_stdin + usize::from(args.model == stdin) > 1 {
        anyhow::bail!("only one of --puzzle, --cnf and MODEL can be standard input (-)");
    }
    let options = args.read.read_options(args.column.as_deref())?;
    let mut from_cnf_encoding = None;
    let from_cnf = match &args.cnf {
        Some(path) => match puzzle_of_cnf(path) {
            Ok((grid, source, units, encoding)) => {
                from_cnf_encoding = encoding;
                Some((grid, source, units))
            }
            Err(e) => {
                note(format_args!("{}: {e:#}", display_name(path)));
                return Ok(Exit::BadInput);
            }
        },
        None => None,
    };
    let (puzzle, units, layout) = match args.puzzle.is_empty() {
        false => {
            let Some(item) = Items::new(&args.puzzle, &options).nth(args.index) else {
                let names: Vec<String> = args
                    .puzzle
                    .iter()
                    .map(|p| display_name(p).to_string())
                    .collect();
                note(format_args!(
                    "{}: no puzzle with index {}",
                    names.join(", "),
                    args.index
                ));
                return Ok(Exit::BadInput);
            };
            let loaded = match item.puzzle {
                Ok(l) => l,
                Err(e) => {
                    note(e);
                    return Ok(Exit::BadInput);
                }
            };
            if let Some((cnf_grid, cnf_source, _)) = &from_cnf
                && *cnf_grid != loaded.puzzle.grid
            {
                note(format_args!(
                    "the CNF was encoded from another puzzle ({cnf_source}) than {}:{} \
                     (check --index)",
                    item.source, item.line
                ));
                return Ok(Exit::BadInput);
            }
            let layout = output_layout(&loaded.puzzle.layout, OutputArg::Same).into_owned();
            (loaded.puzzle.grid, loaded.units, layout)
        }
        true => {
            let Some((grid, _, units)) = from_cnf else {
                unreachable!("clap requires --puzzle or --cnf")
            };
            let shape = grid.shape();
            let layout = satdoku::format::Layout::new(satdoku::format::Format::Line, shape);
            (grid, std::sync::Arc::new(units), layout)
        }
    };
    let model_name = display_name(&args.model);
    let text = match read_bounded(&args.model, max_model_bytes(puzzle.shape())) {
        Ok(text) => text,
        Err(e) => {
            note(format_args!("{model_name}: {e}"));
            return Ok(Exit::BadInput);
        }
    };
    let model = match parse_solver_output(&text) {
        Ok(SolverAnswer::Satisfiable(m)) => m,
        Ok(SolverAnswer::Unsatisfiable) => {
            note(format_args!(
                "{model_name}: the solver answered UNSAT: the puzzle has no solution"
            ));
            return Ok(Exit::Unsolved);
        }
        Ok(SolverAnswer::Unknown) => {
            note(format_args!("{model_name}: the solver gave up (UNKNOWN)"));
            return Ok(Exit::Unsolved);
        }
        Err(e) => {
            let hint = if text.contains("MiniSat") || text.contains("Conflicts") {
                "; this looks like MiniSat's screen output: pass its result file (minisat p.cnf \
                 p.out), not what it prints"
            } else {
                ""
            };
            note(format_args!("{model_name}: {e}{hint}"));
            return Ok(Exit::BadInput);
        }
    };
    let encoding = match (args.encoding.map(EncodingArg::get), from_cnf_encoding) {
        (Some(given), Some(written)) if given != written => {
            note(format_args!(
                "--encoding {given}: the CNF says it was written in the {written} encoding"
            ));
            return Ok(Exit::BadInput);
        }
        (Some(e), _) | (None, Some(e)) => e,
        (None, None) => Encoding::default(),
    };
    let (units, puzzle) = (&*units, &puzzle);
    let hint = "(is the model of another puzzle? check --puzzle and --index)";
    let grid = match decode_model(units, puzzle, encoding, &model) {
        Ok(g) => g,
        Err(e) => {
            note(format_args!("{model_name}: {e} {hint}"));
            return Ok(Exit::BadInput);
        }
    };
    if let Err(v) = verify(units, puzzle, &grid) {
        note(format_args!(
            "{model_name}: the model breaks a rule: {v} {hint}"
        ));
        return Ok(Exit::BadInput);
    }
    let mut text = String::new();
    layout.write(&grid, &mut text);
    let mut out = Output::stdout(false);
    out.write(text.as_bytes());
    out.finish();
    Ok(Exit::Success)
}

/// The puzzle a CNF of ours was encoded from, read from its comment lines (`c shape RxC boxes, …` and
/// `c puzzle GIVENS`), where it came from (`c source FILE line L index I`, if present), its rules
/// (`c variant …`, `c regions …`, `c cage …` lines, see `satdoku::sat::write_dimacs_with`) and its
/// encoding (`c encoding NAME, amo …`, if present).
/// A puzzle read back from a CNF's comments: the grid, its source, its rules, its encoding.
type CnfPuzzle = (satdoku::Grid, String, satdoku::Units, Option<Encoding>);

fn puzzle_of_cnf(path: &Path) -> Result<CnfPuzzle> {
    let mut reader = open_path(path).context("cannot read")?;
    let (mut shape, mut givens, mut source) = (None, None, String::from("source unknown"));
    let mut rules: Vec<String> = Vec::new();
    let mut encoding = None;
    let mut line = Vec::new();
    // The comments come before the `p cnf` line; a header longer than this is not ours (a killer
    // has a `c cage` line per cage: up to 4096 on a 64x64 grid).
    for _ in 0..8192 {
        line.clear();
        if (&mut reader)
            .take(1 << 20)
            .read_until(b'\n', &mut line)
            .context("read error")?
            == 0
        {
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end();
        if text.starts_with("p ") {
            break;
        }
        if let Some(rest) = text.strip_prefix("c shape ") {
            let spec = rest.split_whitespace().next().unwrap_or("");
            shape = Some(satdoku::Shape::parse(spec).with_context(|| format!("`{text}`"))?);
        } else if let Some(rest) = text.strip_prefix("c puzzle ") {
            givens = Some(rest.to_string());
        } else if let Some(rest) = text.strip_prefix("c source ") {
            source = rest.to_string();
        } else if ["c variant ", "c regions ", "c cage "]
            .iter()
            .any(|p| text.starts_with(p))
        {
            rules.push(text[2..].to_string());
        } else if let Some(rest) = text.strip_prefix("c encoding ") {
            let name = rest.split(',').next().unwrap_or("");
            encoding = Some(
                name.parse::<Encoding>()
                    .with_context(|| format!("`{text}`"))?,
            );
        }
    }
    let (Some(shape), Some(givens)) = (shape, givens) else {
        anyhow::bail!(
            "no `c shape` and `c puzzle` comment lines: not a CNF written by `satdoku encode`; \
             give the puzzle with --puzzle"
        );
    };
    let n = shape.n();
    let values: Vec<u16> = if givens.contains(' ') {
        givens
            .split_whitespace()
            .map(|t| if t == "." { Some(0) } else { t.parse().ok() })
            .collect::<Option<_>>()
            .context("the `c puzzle` line is not a list of numbers and dots")?
    } else {
        givens
            .chars()
            .map(|c| match c {
                '.' => Some(0),
                c => c.to_digit(36).filter(|&d| d >= 1).map(|d| d as u16),
            })
            .collect::<Option<_>>()
            .context("the `c puzzle` line holds an unexpected symbol")?
    };
    if values.len() != n * n {
        anyhow::bail!(
            "the `c puzzle` line has {} cells, a {n}x{n} grid {}",
            values.len(),
            n * n
        );
    }
    let grid = satdoku::Grid::from_values(shape, values).context("the `c puzzle` line")?;
    let units = rules_of_cnf(shape, &rules)?;
    Ok((grid, source, units, encoding))
}

/// The rules written in a CNF's comment lines: `variant NAMES`, `regions MAP` (a symbol `1`-`9`,
/// `A`-`Z` per cell, or numbers), `cage SUM rXcY…`.
fn rules_of_cnf(shape: satdoku::Shape, lines: &[String]) -> Result<satdoku::Units> {
    let mut b = satdoku::Units::rules(shape);
    let n = shape.n();
    for line in lines {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("variant") => {
                for w in words {
                    b = b.variant(w.parse().with_context(|| format!("`c {line}`"))?);
                }
            }
            Some("regions") => {
                let rest: Vec<&str> = words.collect();
                let map: Vec<usize> = if rest.len() == 1 {
                    rest[0]
                        .chars()
                        .map(|c| c.to_digit(36).filter(|&d| d >= 1).map(|d| d as usize - 1))
                        .collect::<Option<_>>()
                } else {
                    rest.iter()
                        .map(|t| t.parse::<usize>().ok().filter(|&r| r >= 1).map(|r| r - 1))
                        .collect::<Option<_>>()
                }
                .with_context(|| format!("`c regions …`: not a region map of {n}x{n}"))?;
                b = b.regions(map);
            }
            Some("cage") => {
                let sum: u32 = words
                    .next()
                    .and_then(|t| t.parse().ok())
                    .with_context(|| format!("`c {line}`: no sum"))?;
                let cells = words
                    .map(|w| {
                        let w = w.strip_prefix('r')?;
                        let (r, c) = w.split_once('c')?;
                        Some((
                            r.parse::<usize>().ok()?.checked_sub(1)?,
                            c.parse::<usize>().ok()?.checked_sub(1)?,
                        ))
                    })
                    .collect::<Option<Vec<_>>>()
                    .with_context(|| format!("`c {line}`: a cell is not rXcY"))?;
                b = b.cage(sum, cells);
            }
            _ => {}
        }
    }
    b.build().context("the rules in the comment lines")
}

/// The text of `path` (`-` for standard input), at most `limit` bytes.
fn read_bounded(path: &Path, limit: u64) -> Result<String> {
    let reader = open_path(path).context("cannot read")?;
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .context("read error")?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "too large: over {} MiB, more than any model of this grid",
            limit >> 20
        );
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
