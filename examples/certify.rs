//! Certifies every puzzle of a file settled as unique or none, writing `DIR/<k>.cnf` and
//! `DIR/<k>.drat`, and times plain `--unique` against certified `--unique` through the library:
//! `cargo run --release --example certify -- [--solver varisat|cadical] [--max K] [--files] FILE
//! DIR`.
//!
//! Classic puzzles share the standard rules; a puzzle with rules of its own (a killer's `cage`
//! lines, variants, regions) is solved and certified under them. Per puzzle (thread CPU time): the plain SAT backend counting to two; then the certified answer
//! as `--certify` makes it ([`Certifier::solve_unique`]: the answer and, for unique or none, the
//! proof), our check of the certificate, and writing both files. Prints the totals and per-puzzle
//! means on standard error. With `--files`, also (outside the certified time) our check of the
//! two files as written, read back from DIR ([`check_certificate_files`]: the CNF's clauses are
//! the puzzle's plain CNF's, the solution is one, the proof refutes the CNF).

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::time::Duration;

use satdoku::format::{PuzzleReader, ReadOptions};
use satdoku::sat::{Certifier, SatBackend, SatSolver, check_certificate_files};
use satdoku::study::thread_time;
use satdoku::{Backend, Limits, Outcome, Units};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut solver = SatSolver::Varisat;
    let mut max = usize::MAX;
    let mut files = false;
    let mut rest = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--solver" => solver = args.next().expect("--solver NAME").parse().expect("solver"),
            "--max" => max = args.next().expect("--max K").parse().expect("number"),
            "--files" => files = true,
            _ => rest.push(a),
        }
    }
    let [file, dir] = rest.as_slice() else {
        eprintln!("usage: certify [--solver varisat|cadical] [--max K] [--files] FILE DIR");
        std::process::exit(2);
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("creating DIR");
    let backend = SatBackend::default()
        .with_solver(solver)
        .expect("solver compiled in");
    let certifier = Certifier::new()
        .with_solver(solver)
        .expect("solver compiled in");
    let reader = PuzzleReader::new(
        BufReader::new(File::open(file).expect("reading FILE")),
        file.clone(),
        ReadOptions::default(),
    );
    let (mut plain, mut certified) = (Duration::ZERO, Duration::ZERO);
    // Of the certified time: the answer with its proof, checking it, writing the files.
    let (mut making, mut checking, mut writing) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    // Not in the certified time: checking the files as written (`--files`).
    let mut from_files = Duration::ZERO;
    let (mut n, mut settled, mut failed) = (0usize, 0usize, 0usize);
    let mut units: Option<Units> = None;
    for record in reader.take(max) {
        let Ok(p) = record.puzzle else { continue };
        // Classic puzzles share one standard unit list (so the certificates' plain CNF is built
        // once); a puzzle with rules of its own (cages, variants, regions) uses its list.
        let u = if p.units.is_standard() && !p.units.has_extras() {
            let u = units.get_or_insert_with(|| Units::standard(p.grid.shape()));
            if u.shape() != p.grid.shape() {
                *u = Units::standard(p.grid.shape());
            }
            &*u
        } else {
            &p.units
        };
        let t = thread_time();
        let plain_out = backend
            .solve(u, &p.grid, &Limits::unique())
            .expect("solve")
            .outcome;
        plain += thread_time() - t;
        let t = thread_time();
        let mut skipped = Duration::ZERO;
        let made = certifier.solve_unique(u, &p.grid);
        making += thread_time() - t;
        match made {
            Ok(answer) => {
                assert_eq!(plain_out.status(), answer.outcome.status());
                if let Some(cert) = answer.certificate {
                    settled += 1;
                    let t1 = thread_time();
                    let r = cert.check();
                    if let Err(e) = &r {
                        eprintln!("puzzle {n}: check: {e}");
                    }
                    let ok = r.is_ok();
                    let t2 = thread_time();
                    let (cnf, drat) = cert.write_files(&dir, &n.to_string()).expect("writing");
                    checking += t2 - t1;
                    let t3 = thread_time();
                    writing += t3 - t2;
                    failed += usize::from(!ok);
                    if files {
                        let claim = cert.solution();
                        let r = check_certificate_files(u, &p.grid, claim, &cnf, &drat);
                        if let Err(e) = &r {
                            eprintln!("puzzle {n}: files: {e}");
                        }
                        let ok = r.is_ok();
                        failed += usize::from(!ok);
                        skipped = thread_time() - t3;
                        from_files += skipped;
                    }
                } else if matches!(answer.outcome, Outcome::Unique(_) | Outcome::NoSolution) {
                    failed += 1;
                }
            }
            Err(e) => {
                eprintln!("puzzle {n}: {e}");
                failed += 1;
            }
        }
        certified += thread_time() - t - skipped;
        n += 1;
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6 / n.max(1) as f64;
    eprintln!(
        "{file}: {n} puzzles, {settled} certified, {failed} not; {solver}: plain {:.1} µs, certified {:.1} µs per puzzle ({:.2}x; of it answer and proof {:.1}, check {:.1}, write {:.1})",
        us(plain),
        us(certified),
        certified.as_secs_f64() / plain.as_secs_f64().max(1e-12),
        us(making),
        us(checking),
        us(writing),
    );
    if files {
        eprintln!(
            "checking the files as written (not in the certified time): {:.1} µs per puzzle",
            us(from_files)
        );
    }
}
