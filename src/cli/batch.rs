//! An ordered parallel map for batch runs: one thread reads, `jobs` threads work on chunks, the calling
//! thread consumes results in input order. Memory is bounded by the chunks in flight, not the input.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Condvar, Mutex};

/// Items per chunk handed to a worker: large enough that channel traffic is noise next to solving a
/// 9x9 (a few µs each), small enough that the last chunks balance across workers.
pub const CHUNK: usize = 64;

/// Chunks per worker that may be read ahead of the first one not yet written.
const WINDOW: usize = 4;

/// Runs `work` over every item that `produce` emits, on `jobs` threads, `chunk` items (at least 1) at
/// a time ([`CHUNK`] for puzzles to solve; 1 for items that are long work each, such as generated
/// puzzles), and hands each result to `consume` in the order the items were emitted.
///
/// `produce` runs on a thread of its own (so it can own a non-`Send` reader, e.g. locked stdin) and
/// calls its argument once per item. With `jobs <= 1` everything runs on the calling thread, item by
/// item, with no batching (what `--jobs 1` and interactive input get).
pub fn ordered_map<T, R, P, W, C>(jobs: usize, chunk: usize, produce: P, work: W, mut consume: C)
where
    T: Send,
    R: Send,
    P: FnOnce(&mut dyn FnMut(T)) + Send,
    W: Fn(T) -> R + Sync,
    C: FnMut(R),
{
    let size = chunk.max(1);
    if jobs <= 1 {
        produce(&mut |item| consume(work(item)));
        return;
    }
    // Bounded queues: the reader runs at most 2·jobs chunks ahead of the workers; and at most
    // WINDOW·jobs chunks ahead of the writer, so that one slow chunk (a puzzle that takes an hour)
    // does not let the results after it pile up in memory while it runs.
    let (task_tx, task_rx) = sync_channel::<(usize, Vec<T>)>(2 * jobs);
    let (done_tx, done_rx) = sync_channel::<(usize, Vec<R>)>(2 * jobs);
    let task_rx = Mutex::new(task_rx);
    let window = WINDOW * jobs;
    // The chunks written so far, and the reader's wait for it to move.
    let written = (Mutex::new(0usize), Condvar::new());
    std::thread::scope(|s| {
        let written = &written;
        s.spawn(move || {
            let mut seq = 0;
            let mut chunk = Vec::with_capacity(size);
            let wait_for_window = |seq: usize| {
                let (lock, moved) = written;
                let mut done = lock.lock().unwrap_or_else(|e| e.into_inner());
                while seq >= *done + window {
                    done = moved.wait(done).unwrap_or_else(|e| e.into_inner());
                }
            };
            produce(&mut |item| {
                chunk.push(item);
                if chunk.len() == size {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(size));
                    wait_for_window(seq);
                    // A send fails only once every worker has gone; nothing is left to do then.
                    let _ = task_tx.send((seq, full));
                    seq += 1;
                }
            });
            if !chunk.is_empty() {
                let _ = task_tx.send((seq, chunk));
            }
        });
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            let (task_rx, work) = (&task_rx, &work);
            s.spawn(move || {
                let _open = OpenOnPanic(written);
                while let Some((seq, items)) = next_task(task_rx) {
                    let results = items.into_iter().map(work).collect();
                    if done_tx.send((seq, results)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // Reorder: results arrive in any order; emit them by sequence number.
        let mut pending = BTreeMap::new();
        let mut next = 0;
        for (seq, results) in done_rx {
            pending.insert(seq, results);
            let before = next;
            while let Some(results) = pending.remove(&next) {
                results.into_iter().for_each(&mut consume);
                next += 1;
            }
            if next != before {
                let (lock, moved) = written;
                let mut done = lock.lock().unwrap_or_else(|e| e.into_inner());
                *done = (*done).max(next);
                moved.notify_one();
            }
        }
    });
}

/// Opens the window for good if a worker panics: its chunk will never be written, and the reader
/// must not wait for it (the panic reaches the caller once the other threads are done).
struct OpenOnPanic<'a>(&'a (Mutex<usize>, Condvar));

impl Drop for OpenOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let (lock, moved) = self.0;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = usize::MAX / 2;
            moved.notify_all();
        }
    }
}

fn next_task<T>(rx: &Mutex<Receiver<T>>) -> Option<T> {
    // A worker that panicked while holding the lock poisons it; the others still drain the queue.
    let guard = rx.lock().unwrap_or_else(|e| e.into_inner());
    guard.recv().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_input_order_for_any_job_count() {
        for (jobs, chunk) in [
            (1, CHUNK),
            (2, CHUNK),
            (3, CHUNK),
            (8, CHUNK),
            (2, 1),
            (3, 5),
        ] {
            for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 10 * CHUNK + 7] {
                let mut out = Vec::new();
                ordered_map(
                    jobs,
                    chunk,
                    |emit| (0..n).for_each(emit),
                    |i: usize| {
                        // Uneven work, so chunks finish out of order.
                        if i.is_multiple_of(7) {
                            std::thread::yield_now();
                        }
                        i * 2
                    },
                    |r| out.push(r),
                );
                assert_eq!(
                    out,
                    (0..n).map(|i| i * 2).collect::<Vec<_>>(),
                    "jobs {jobs} chunk {chunk} n {n}"
                );
            }
        }
    }

    #[test]
    fn one_slow_chunk_holds_the_reader_back() {
        // While item 0 is being worked on, the reader emits no more than the window's chunks.
        use std::sync::atomic::{AtomicUsize, Ordering};
        let jobs = 2;
        let emitted = AtomicUsize::new(0);
        let mut seen_while_slow = 0;
        let mut out = Vec::new();
        ordered_map(
            jobs,
            1,
            |emit| {
                for i in 0..10_000usize {
                    emitted.fetch_add(1, Ordering::SeqCst);
                    emit(i);
                }
            },
            |i: usize| {
                if i == 0 {
                    // Long enough for an unbounded reader to emit everything.
                    for _ in 0..200 {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    return (i, emitted.load(Ordering::SeqCst));
                }
                (i, 0)
            },
            |(i, seen)| {
                if i == 0 {
                    seen_while_slow = seen;
                }
                out.push(i);
            },
        );
        assert_eq!(out, (0..10_000).collect::<Vec<_>>());
        // The window's chunks (WINDOW · jobs = 8), plus one being filled; not the 10,000.
        assert!(seen_while_slow <= 9, "{seen_while_slow}");
        assert!(seen_while_slow >= 2, "{seen_while_slow}");
    }
}
