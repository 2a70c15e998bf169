//! Solves every puzzle of a file with the SAT backend on a chosen solver, printing one status word
//! per puzzle: `cargo run --release --features cadical --example solve_sat -- [--solver
//! varisat|cadical] [--unique] [--timeout SECS] FILE`. A whole-process stand-in for
//! `satdoku solve --backend sat --sat-solver S`, written before the command line had that flag.

use std::fs::File;
use std::io::BufReader;
use std::time::Duration;

use satdoku::format::{PuzzleReader, ReadOptions};
use satdoku::sat::{SatBackend, SatSolver};
use satdoku::{Backend, Limits, Units, verify};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut solver = SatSolver::Varisat;
    let mut limits = Limits::first();
    let mut timeout = None;
    let mut file = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--solver" => solver = args.next().expect("--solver NAME").parse().expect("solver"),
            "--unique" => limits = Limits::unique(),
            "--timeout" => {
                let secs: f64 = args
                    .next()
                    .expect("--timeout SECS")
                    .parse()
                    .expect("seconds");
                timeout = Some(Duration::from_secs_f64(secs));
            }
            _ => file = Some(a),
        }
    }
    let file = file.expect("usage: solve_sat [--solver S] [--unique] [--timeout SECS] FILE");
    let limits = limits.with_timeout(timeout);
    let backend = SatBackend::default()
        .with_solver(solver)
        .expect("solver compiled in");
    let reader = PuzzleReader::new(
        BufReader::new(File::open(&file).expect("reading FILE")),
        file.clone(),
        ReadOptions::default(),
    );
    for record in reader {
        let Ok(p) = record.puzzle else {
            println!("error");
            continue;
        };
        let units = Units::standard(p.grid.shape());
        let r = backend.solve(&units, &p.grid, &limits).expect("solve");
        for g in r.outcome.grids() {
            verify(&units, &p.grid, g).expect("a valid grid");
        }
        println!("{}", r.outcome.status().word());
    }
}
