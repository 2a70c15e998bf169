//! Running a batch: `jobs` worker threads take rows in small chunks while the calling thread, with
//! the GIL released, waits and looks for signals every 50 ms. On Ctrl-C the workers are stopped
//! through the library's stop flag (`satdoku::stop_when`): no new row starts, and the solves in
//! flight end at their next look at the clock.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use pyo3::prelude::*;

/// The most rows a worker takes at a time: small, so that a stop is seen soon and the last rows
/// balance.
const CHUNK: usize = 8;

/// How often the waiting thread looks for a signal (Ctrl-C).
const POLL: Duration = Duration::from_millis(50);

/// What became of a row's work.
pub enum Done<R> {
    /// It ran.
    Ran(R),
    /// It panicked (a bug): the panic's message.
    Panicked(String),
}

/// The number of worker threads: `jobs`, at most 4 per core (as the CLI's `--jobs`), else every
/// core; never more than there are rows, at least 1.
pub fn workers(jobs: Option<usize>, rows: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = jobs.unwrap_or(cores).clamp(1, cores.saturating_mul(4));
    asked.min(rows.max(1))
}

/// Runs `work` over rows `0..rows` on `jobs` threads. Returns each row's result (`None` for rows
/// not run because the batch was interrupted) and the interruption, if any (the `KeyboardInterrupt`
/// a signal handler raised, or any other exception it raised).
pub fn par_map<R, W>(
    py: Python<'_>,
    rows: usize,
    jobs: usize,
    work: W,
) -> (Vec<Option<Done<R>>>, Option<PyErr>)
where
    R: Send + Sync,
    W: Fn(usize) -> R + Sync,
{
    let slots: Vec<OnceLock<Done<R>>> = (0..rows).map(|_| OnceLock::new()).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let next = AtomicUsize::new(0);
    let finished = Arc::new((Mutex::new(0usize), Condvar::new()));
    let mut interrupted = None;
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let (slots, stop, next, finished, work) = (&slots, &stop, &next, &finished, &work);
            s.spawn(move || {
                satdoku::stop_when(stop, || {
                    'rows: while let Some(taken) = claim(next, rows, jobs) {
                        for (i, slot) in slots.iter().enumerate().take(taken.end).skip(taken.start)
                        {
                            if stop.load(Ordering::Relaxed) {
                                break 'rows;
                            }
                            let done = match catch_unwind(AssertUnwindSafe(|| work(i))) {
                                Ok(r) => Done::Ran(r),
                                Err(p) => Done::Panicked(panic_message(&*p)),
                            };
                            let _ = slot.set(done);
                        }
                    }
                });
                let (count, wake) = &**finished;
                *count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                wake.notify_all();
            });
        }
        let wait = |timeout: Option<Duration>| {
            let (count, wake) = &*finished;
            let guard = count.lock().unwrap_or_else(|e| e.into_inner());
            let guard = match timeout {
                Some(t) => {
                    wake.wait_timeout_while(guard, t, |c| *c < jobs)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                None => wake
                    .wait_while(guard, |c| *c < jobs)
                    .unwrap_or_else(|e| e.into_inner()),
            };
            *guard >= jobs
        };
        while !py.detach(|| wait(Some(POLL))) {
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                interrupted = Some(e);
                // The workers stop at their next look at the flag; wait for them without the GIL.
                py.detach(|| wait(None));
                break;
            }
        }
    });
    let results = slots
        .into_iter()
        .map(|s| s.into_inner())
        .collect::<Vec<_>>();
    (results, interrupted)
}

/// The rows a worker takes next from `0..rows`, `next` being the first not yet taken: an even share
/// of what is left for twice the workers, at least 1 and at most [`CHUNK`], so that a short batch
/// of slow puzzles is spread over all the workers (8 of 10 on one of two threads made ten slow
/// puzzles 1.54x one thread; BENCHMARKS), and a long one goes in chunks of 8. `None` once every
/// row is taken.
pub fn claim(next: &AtomicUsize, rows: usize, jobs: usize) -> Option<std::ops::Range<usize>> {
    let mut start = next.load(Ordering::Relaxed);
    loop {
        if start >= rows {
            return None;
        }
        let share = (rows - start).div_ceil(jobs.max(1).saturating_mul(2));
        let end = start + share.clamp(1, CHUNK);
        match next.compare_exchange_weak(start, end, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(start..end),
            Err(now) => start = now,
        }
    }
}

/// The rows that workers taking turns would claim of a batch of `rows` on `jobs` threads, in
/// order ([`claim`]): for the tests.
#[pyfunction]
pub fn _claims(rows: usize, jobs: usize) -> Vec<(usize, usize)> {
    let next = AtomicUsize::new(0);
    std::iter::from_fn(|| claim(&next, rows, jobs).map(|r| (r.start, r.end))).collect()
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}
