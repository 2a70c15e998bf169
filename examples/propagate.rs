//! The share of puzzles that unit propagation alone settles, per SAT encoding, without solving them:
//! `study`'s "solved by unit propagation" column for files whose puzzles `study` would take too
//! long to solve (e.g. the killers).
//!
//! `cargo run --release --example propagate -- [--encoding E] [--amo A] [--cage-encodings C,C] FILE`

use std::fs::File;
use std::io::BufReader;

use satdoku::format::{PuzzleReader, ReadOptions};
use satdoku::sat::{Amo, CageEncoding, Encoding, Formula, encode_with};
use satdoku::study::{Propagation, propagate};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut encoding, mut amo) = (Encoding::Pruned, Amo::Auto);
    let mut cages = vec![CageEncoding::Combinations, CageEncoding::Sequential];
    let mut file = None;
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--encoding" => encoding = value().parse().unwrap_or_else(|_| usage()),
            "--amo" => amo = value().parse().unwrap_or_else(|_| usage()),
            "--cage-encodings" => {
                cages = value()
                    .split(',')
                    .map(|c| c.parse().unwrap_or_else(|_| usage()))
                    .collect()
            }
            _ if file.is_none() => file = Some(a),
            _ => usage(),
        }
    }
    let file = file.unwrap_or_else(|| usage());
    let reader = PuzzleReader::new(
        BufReader::new(File::open(&file).expect("reading FILE")),
        file.clone(),
        ReadOptions::default(),
    );
    let puzzles: Vec<_> = reader.filter_map(|r| r.puzzle.ok()).collect();
    let mut formula = Formula::new();
    for cage in cages {
        let (mut solved, mut refuted, mut open, mut failed) = (0, 0, 0, 0);
        for p in &puzzles {
            formula.clear();
            if encode_with(&p.units, &p.grid, encoding, amo, cage, &mut formula).is_err() {
                failed += 1;
                continue;
            }
            match propagate(&formula) {
                Propagation::Solved => solved += 1,
                Propagation::Conflict => refuted += 1,
                Propagation::Open => open += 1,
            }
        }
        println!(
            "{file} {encoding:?}/{amo:?}, cages {cage:?}: {} puzzles: {solved} solved, \
             {refuted} refuted, {open} open by unit propagation alone; {failed} not encoded",
            puzzles.len()
        );
    }
}

fn usage() -> ! {
    eprintln!("usage: propagate [--encoding E] [--amo A] [--cage-encodings C,C] FILE");
    std::process::exit(2)
}
