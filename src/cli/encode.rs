//! `satdoku encode` (DIMACS out, or formula sizes) and `satdoku decode` (an external solver's model in).

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};

use satdoku::sat::{
    Amo, Encoding, SolverAnswer, decode_model, formula_stats, parse_solver_output, write_dimacs,
};
use satdoku::{Units, verify};

use super::args::{DecodeArgs, EncodeArgs};
use super::input::{Items, Loaded};
use super::solve::{Output, Solved};

/// Runs `satdoku encode`.
///
/// # Errors
/// Bad flag values, unreadable input (exit 2), write failures.
pub fn run_encode(args: EncodeArgs) -> Result<u8> {
    let options = args.input.read_options()?;
    let amo = args.amo.get();
    if args.stats {
        let encodings: Vec<Encoding> = match args.encoding {
            Some(e) => vec![e.get()],
            None => Encoding::ALL.to_vec(),
        };
        return stats(&args, &options, &encodings, amo);
    }
    let encoding = args.encoding.unwrap_or_default().get();
    let mut items = Items::new(&args.input.files, &options);
    match &args.out_dir {
        None => {
            let Some(first) = items.next() else {
                bail!("no puzzle found");
            };
            let loaded = match first.puzzle {
                Ok(l) => l,
                Err(msg) => {
                    eprintln!("satdoku: {msg}");
                    return Ok(2);
                }
            };
            if let Some(second) = items.next() {
                eprintln!(
                    "satdoku: {}:{}: a second puzzle: standard output takes one puzzle; use --out-dir DIR for one file per puzzle",
                    second.source, second.line
                );
                return Ok(2);
            }
            let stdout = io::stdout();
            if let Err(e) = write_dimacs(stdout.lock(), &loaded.units, loaded.grid(), encoding, amo)
            {
                return Err(e).context("writing DIMACS to standard output");
            }
            Ok(0)
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            let (mut written, mut bad) = (0u64, 0u64);
            for item in items {
                match item.puzzle {
                    Err(msg) => {
                        eprintln!("satdoku: {msg}");
                        bad += 1;
                    }
                    Ok(loaded) => {
                        let path = dir.join(format!("puzzle-{}.cnf", item.index));
                        write_file(&path, &loaded.units, loaded.grid(), encoding, amo)?;
                        written += 1;
                    }
                }
            }
            eprintln!(
                "encode: wrote {written} file{} to {} ({encoding}, {amo}); {bad} error{}",
                if written == 1 { "" } else { "s" },
                dir.display(),
                if bad == 1 { "" } else { "s" },
            );
            Ok(if bad > 0 { 2 } else { 0 })
        }
    }
}

fn write_file(
    path: &Path,
    units: &Units,
    grid: &satdoku::Grid,
    encoding: Encoding,
    amo: Amo,
) -> Result<()> {
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    write_dimacs(file, units, grid, encoding, amo)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// `encode --stats`: one tab-separated row per puzzle and encoding, then a total row per encoding.
fn stats(
    args: &EncodeArgs,
    options: &satdoku::format::ReadOptions,
    encodings: &[Encoding],
    amo: Amo,
) -> Result<u8> {
    let stdout = io::stdout();
    let mut out = Output::new(stdout.lock(), false);
    let line = |text: String| Solved {
        text: text.into(),
        multiline: false,
        status: None,
        disagree: false,
    };
    out.record(&line(
        "index\tencoding\tamo\tvariables\tclauses\tliterals\n".to_string(),
    ));
    let mut totals = vec![[0u64; 3]; encodings.len()];
    let mut bad = 0u64;
    for item in Items::new(&args.input.files, options) {
        let loaded = match item.puzzle {
            Ok(l) => l,
            Err(msg) => {
                eprintln!("satdoku: {msg}");
                out.record(&line(format!("{}\terror: {msg}\n", item.index)));
                bad += 1;
                continue;
            }
        };
        for (k, &encoding) in encodings.iter().enumerate() {
            let s = formula_stats(&loaded.units, loaded.grid(), encoding, amo)?;
            totals[k][0] += s.variables;
            totals[k][1] += s.clauses;
            totals[k][2] += s.literals;
            out.record(&line(format!(
                "{}\t{encoding}\t{amo}\t{}\t{}\t{}\n",
                item.index, s.variables, s.clauses, s.literals
            )));
        }
    }
    for (k, encoding) in encodings.iter().enumerate() {
        let [v, c, l] = totals[k];
        out.record(&line(format!("total\t{encoding}\t{amo}\t{v}\t{c}\t{l}\n")));
    }
    out.finish();
    Ok(if bad > 0 { 2 } else { 0 })
}

/// Runs `satdoku decode`.
///
/// # Errors
/// Bad flag values; otherwise problems are reported with an exit code.
pub fn run_decode(args: DecodeArgs) -> Result<u8> {
    let options = args.read.read_options()?;
    let Some(item) = Items::new(std::slice::from_ref(&args.puzzle), &options).nth(args.index)
    else {
        eprintln!(
            "satdoku: {}: no puzzle with index {}",
            args.puzzle.display(),
            args.index
        );
        return Ok(2);
    };
    let Loaded { puzzle, units } = match item.puzzle {
        Ok(l) => l,
        Err(msg) => {
            eprintln!("satdoku: {msg}");
            return Ok(2);
        }
    };
    let model_name = args.model.display().to_string();
    let text = match std::fs::read(&args.model) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("satdoku: {model_name}: cannot read: {e}");
            return Ok(2);
        }
    };
    let model = match parse_solver_output(&text) {
        Ok(SolverAnswer::Satisfiable(m)) => m,
        Ok(SolverAnswer::Unsatisfiable) => {
            eprintln!(
                "satdoku: {model_name}: the solver answered UNSAT: the puzzle has no solution"
            );
            return Ok(1);
        }
        Ok(SolverAnswer::Unknown) => {
            eprintln!("satdoku: {model_name}: the solver gave up (UNKNOWN)");
            return Ok(1);
        }
        Err(e) => {
            eprintln!("satdoku: {model_name}: {e}");
            return Ok(2);
        }
    };
    let grid = match decode_model(&units, &puzzle.grid, &model) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("satdoku: {model_name}: {e}");
            return Ok(2);
        }
    };
    if let Err(v) = verify(&units, &puzzle.grid, &grid) {
        eprintln!("satdoku: {model_name}: the model breaks a rule: {v}");
        return Ok(2);
    }
    let layout = super::solve::output_layout(&puzzle.layout, super::args::OutputArg::Same);
    let mut text = String::new();
    layout.write(&grid, &mut text);
    let stdout = io::stdout();
    let mut lock = stdout.lock();
    if let Err(e) = lock.write_all(text.as_bytes()).and_then(|()| lock.flush())
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        return Err(e).context("writing to standard output");
    }
    Ok(0)
}
