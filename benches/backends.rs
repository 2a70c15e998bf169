//! Criterion benches: group `solve` (backend/encoding × dataset sample) and group `encode` (encoding +
//! DIMACS writing per encoding).
//!
//! The 9x9 samples are the fixtures shipped with the project (the first 200 lines of tdoku's 17-clue,
//! top1465 and forum-hardest-1905-11plus lists). The 16x16 and 25x25 samples come from the shared
//! dataset collection, whose licence does not allow copying them into the project: set
//! `SATDOKU_DATASETS` to the directory holding `16x16-krazydad.csv` and
//! `25x25-sudoku-acs-general.txt` (default `../shared/datasets` next to the project, if it exists);
//! without it those ids are skipped with a note.
//!
//! Inputs are loaded outside the timed loop, and every answer of every configuration is checked once
//! by `satdoku::verify` before timing.
//!
//! Run: `cargo bench` (all), `cargo bench -- solve/dfs` (a filter).

use std::fs::File;
use std::hint::black_box;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use satdoku::format::{PuzzleReader, ReadOptions};
use satdoku::sat::{Amo, Encoding};
use satdoku::sat::{SatBackend, write_dimacs};
use satdoku::{Backend, DfsBackend, Grid, Limits, Status, Units, verify};

/// A named sample of puzzles, all of one shape.
struct Sample {
    name: &'static str,
    units: Units,
    puzzles: Vec<Grid>,
}

fn read(
    path: &Path,
    max: usize,
    keep: impl Fn(&Grid, &Units) -> bool,
) -> Option<(Units, Vec<Grid>)> {
    let file = File::open(path).ok()?;
    let mut units: Option<Units> = None;
    let mut puzzles = Vec::new();
    let reader = PuzzleReader::new(
        BufReader::new(file),
        path.display().to_string(),
        ReadOptions::default(),
    );
    for record in reader {
        let Ok(p) = record.puzzle else { continue };
        let u = units.get_or_insert_with(|| Units::standard(p.grid.shape()));
        if keep(&p.grid, u) {
            puzzles.push(p.grid);
        }
        if puzzles.len() == max {
            break;
        }
    }
    Some((units?, puzzles))
}

fn datasets_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SATDOKU_DATASETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"));
    dir.is_dir().then_some(dir)
}

fn samples() -> Vec<Sample> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    for (name, file) in [
        ("17-clue", "17-clue-head200.txt"),
        ("top1465", "top1465-head200.txt"),
        ("forum-hardest", "forum-hardest-1905-11plus-head200.txt"),
    ] {
        let (units, puzzles) = read(&fixtures.join(file), 200, |_, _| true).expect("fixture");
        out.push(Sample {
            name,
            units,
            puzzles,
        });
    }
    match datasets_dir() {
        Some(dir) => {
            // Every krazydad 16x16 puzzle is unique (datasets README); take the first 50.
            if let Some((units, puzzles)) = read(&dir.join("16x16-krazydad.csv"), 50, |_, _| true) {
                out.push(Sample {
                    name: "16x16",
                    units,
                    puzzles,
                });
            }
            // Unique instances of the 25x25 sudoku_acs set: among those with at least 60% givens (where
            // the datasets README finds them unique), the ones both backends prove unique before timing
            // (with a node budget, so a hard one is skipped rather than waited for).
            let unique = |g: &Grid, u: &Units| {
                let limits = Limits::unique().with_budget(Some(100_000));
                g.filled() * 10 >= g.shape().cells() * 6
                    && [&DfsBackend::new() as &dyn Backend, &SatBackend::default()]
                        .iter()
                        .all(|b| matches!(b.solve(u, g, &limits), Ok(r) if r.outcome.status() == Status::Unique))
            };
            if let Some((units, puzzles)) =
                read(&dir.join("25x25-sudoku-acs-general.txt"), 20, unique)
            {
                out.push(Sample {
                    name: "25x25",
                    units,
                    puzzles,
                });
            }
        }
        None => eprintln!(
            "note: set SATDOKU_DATASETS to the shared datasets directory for the 16x16 and 25x25 samples"
        ),
    }
    out
}

/// The configurations measured: the native backend and the SAT backend per encoding.
fn backends() -> Vec<(String, Box<dyn Backend>)> {
    let mut v: Vec<(String, Box<dyn Backend>)> = vec![("dfs".into(), Box::new(DfsBackend::new()))];
    for e in Encoding::ALL {
        v.push((
            format!("sat-{e}"),
            Box::new(SatBackend::new(e, Amo::Pairwise)),
        ));
    }
    v
}

fn solve_all(backend: &dyn Backend, sample: &Sample, limits: &Limits) {
    for p in &sample.puzzles {
        black_box(backend.solve(&sample.units, black_box(p), limits).ok());
    }
}

fn bench_solve(c: &mut Criterion) {
    let samples = samples();
    let limits = Limits::first();
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    for sample in &samples {
        group.throughput(Throughput::Elements(sample.puzzles.len() as u64));
        for (name, backend) in backends() {
            // Large grids: the plain encodings of a 25x25 are ~750k clauses each; measure pruned only.
            if sample.units.shape().n() > 16 && name.starts_with("sat-") && name != "sat-pruned" {
                continue;
            }
            for p in &sample.puzzles {
                let r = backend.solve(&sample.units, p, &limits).expect("solvable");
                for g in r.outcome.grids() {
                    verify(&sample.units, p, g).expect("every answer verified before timing");
                }
            }
            group.bench_with_input(BenchmarkId::new(name, sample.name), sample, |b, s| {
                b.iter(|| solve_all(&*backend, s, &limits))
            });
        }
    }
    group.finish();
}

fn bench_encode(c: &mut Criterion) {
    let samples = samples();
    let mut group = c.benchmark_group("encode");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    for sample in samples.iter().filter(|s| s.units.shape().n() <= 16) {
        group.throughput(Throughput::Elements(sample.puzzles.len() as u64));
        for e in Encoding::ALL {
            group.bench_with_input(
                BenchmarkId::new(e.to_string(), sample.name),
                sample,
                |b, s| {
                    let mut buf = Vec::with_capacity(1 << 20);
                    b.iter(|| {
                        for p in &s.puzzles {
                            buf.clear();
                            black_box(write_dimacs(&mut buf, &s.units, p, e, Amo::Pairwise).ok());
                        }
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench_solve, bench_encode);
criterion_main!(benches);
