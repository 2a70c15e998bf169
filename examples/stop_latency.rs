//! How soon a solve returns once it is asked to stop (`satdoku::stop_when`, what Ctrl-C sets in the
//! CLI and in the Python package): `cargo run --release --example stop_latency -- [--backend
//! auto|dfs|sat] [--after SECS]... FILE`. For each `--after` (default 0.5 and 2), every puzzle of
//! FILE is solved (first solution) on this thread while another sets the flag after that many
//! seconds; prints the seconds from the flag to the solve's return, and the status.

use std::fs::File;
use std::io::BufReader;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use satdoku::format::{PuzzleReader, ReadOptions};
use satdoku::sat::SatBackend;
use satdoku::{AutoBackend, Backend, DfsBackend, Limits, Units, stop_when};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut backend = "auto".to_string();
    let mut delays = Vec::new();
    let mut file = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--backend" => backend = args.next().expect("--backend NAME"),
            "--after" => delays.push(
                args.next()
                    .expect("--after SECS")
                    .parse::<f64>()
                    .expect("seconds"),
            ),
            _ => file = Some(a),
        }
    }
    if delays.is_empty() {
        delays = vec![0.5, 2.0];
    }
    let file = file.expect("usage: stop_latency [--backend B] [--after SECS]... FILE");
    let backend: Box<dyn Backend + Sync> = match backend.as_str() {
        "dfs" => Box::new(DfsBackend::new()),
        "sat" => Box::new(SatBackend::default()),
        _ => Box::new(AutoBackend::new()),
    };
    let reader = PuzzleReader::new(
        BufReader::new(File::open(&file).expect("reading FILE")),
        file.clone(),
        ReadOptions::default(),
    );
    let puzzles: Vec<_> = reader.filter_map(|r| r.puzzle.ok()).collect();
    for &after in &delays {
        for p in &puzzles {
            let units = Units::standard(p.grid.shape());
            let flag = Arc::new(AtomicBool::new(false));
            let set_at = Arc::new(std::sync::Mutex::new(None::<Instant>));
            let setter = {
                let (flag, set_at) = (Arc::clone(&flag), Arc::clone(&set_at));
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_secs_f64(after));
                    *set_at.lock().unwrap() = Some(Instant::now());
                    flag.store(true, Ordering::Relaxed);
                })
            };
            // A deadline a year away, as the Python package gives: the SAT solvers look at the
            // flag only in a solve with a deadline.
            let limits = Limits::first().with_timeout(Some(Duration::from_secs(365 * 86_400)));
            let report = stop_when(&flag, || backend.solve(&units, &p.grid, &limits));
            let returned = Instant::now();
            flag.store(true, Ordering::Relaxed);
            setter.join().unwrap();
            let set = set_at.lock().unwrap().expect("set");
            let status = report.map_or("error", |r| r.outcome.status().word());
            if returned >= set {
                println!(
                    "{}x{} after {after} s: returned {:.3} s after the flag ({status})",
                    p.grid.shape().n(),
                    p.grid.shape().n(),
                    (returned - set).as_secs_f64()
                );
            } else {
                println!(
                    "{}x{} after {after} s: returned before the flag ({status})",
                    p.grid.shape().n(),
                    p.grid.shape().n()
                );
            }
        }
    }
}
