//! `peer-gen none|rotational SECS`: minimal 9x9 puzzles from the `sudoku` crate's generator
//! (`Sudoku::generate_with_symmetry`, a random solved grid then minimal removal), for SECS seconds
//! of this thread's CPU time; prints `puzzles_per_cpu_sec=…` and the mean givens.

use sudoku::Sudoku;
use sudoku::Symmetry;

fn thread_cpu() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid pointer to a timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn main() {
    let mut args = std::env::args().skip(1);
    let symmetry = match args.next().as_deref() {
        Some("none") => Symmetry::None,
        Some("rotational") => Symmetry::HalfRotation,
        _ => {
            eprintln!("usage: peer-gen none|rotational SECS");
            std::process::exit(2);
        }
    };
    let secs: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let start = thread_cpu();
    let (mut made, mut givens) = (0u64, 0u64);
    while thread_cpu() - start < secs {
        let s = Sudoku::generate_with_symmetry(symmetry);
        givens += s.n_clues() as u64;
        made += 1;
    }
    let cpu = thread_cpu() - start;
    println!(
        "puzzles_per_cpu_sec={:.1} made={made} mean_givens={:.2}",
        made as f64 / cpu,
        givens as f64 / made as f64
    );
}
