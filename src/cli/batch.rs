//! An ordered parallel map for batch runs: one thread reads, `jobs` threads work on chunks, the calling
//! thread consumes results in input order. Memory is bounded by the chunks in flight, not the input.
//! An interrupted run hands over every result finished so far and a stub for every item read but not
//! finished, still in input order.

use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel, sync_channel};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Items per chunk handed to a worker: large enough that channel traffic is noise next to solving a
/// 9x9 (a few µs each), small enough that the last chunks balance across workers.
pub const CHUNK: usize = 64;

/// How often the consuming thread looks whether the run was interrupted while it waits for results.
const POLL: Duration = Duration::from_millis(50);

/// Where the results of [`ordered_map`] go, in input order.
pub trait Sink<R, S> {
    /// The result of the next item.
    fn done(&mut self, result: R);
    /// The next item, read but not finished when the run was interrupted: its stub.
    fn cut(&mut self, stub: S);
    /// The run was interrupted, and every item read has been handed over (by [`Sink::done`] or
    /// [`Sink::cut`]): ends the process (the workers may be in the middle of long solves).
    fn interrupted(&mut self) -> !;
}

/// The stubs of the items read and not yet handed to the sink, in input order.
struct Open<S> {
    stubs: VecDeque<S>,
    /// Set once the run is interrupted: what is read from then on is dropped.
    closed: bool,
}

/// A worker's chunk in hand: its sequence number and the results so far.
type Slot<R> = Mutex<Option<(usize, Vec<R>)>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `work` over every item that `produce` emits, on `jobs` threads, and hands each result to
/// `sink` in the order the items were emitted.
///
/// `produce` runs on a thread of its own (so it can own a non-`Send` reader, e.g. locked stdin) and
/// calls its argument once per item; `stub` keeps what the sink needs of an item that is not finished
/// when `interrupted()` turns true (checked at least every 50 ms), and the sink is then handed, in
/// input order, the result of every finished item and the stub of every other item read, then told
/// [`Sink::interrupted`]. With `jobs <= 1` one worker takes the items one by one, with no batching
/// (what `--jobs 1` and interactive input get).
pub fn ordered_map<T, S, R, P, W>(
    jobs: usize,
    produce: P,
    stub: impl Fn(&T) -> S + Sync,
    work: W,
    sink: &mut dyn Sink<R, S>,
    interrupted: &dyn Fn() -> bool,
) where
    T: Send,
    S: Send,
    R: Send,
    P: FnOnce(&mut dyn FnMut(T)) + Send,
    W: Fn(T) -> R + Sync,
{
    let jobs = jobs.max(1);
    let chunk_len = if jobs == 1 { 1 } else { CHUNK };
    // A bounded queue: the reader runs at most 2·jobs chunks ahead of the workers. (Results are as
    // many as the tasks taken; the consuming thread takes them as they come.)
    let (task_tx, task_rx) = sync_channel::<(usize, Vec<T>)>(2 * jobs);
    let (done_tx, done_rx) = channel::<(usize, Vec<R>)>();
    let task_rx = Mutex::new(task_rx);
    // Each worker's chunk in hand and the results it has so far, which an interrupted run hands
    // over; a chunk is sent on with the lock held, so that it is in one place or the other.
    let slots: Vec<Slot<R>> = (0..jobs).map(|_| Mutex::new(None)).collect();
    let open = Mutex::new(Open {
        stubs: VecDeque::new(),
        closed: false,
    });
    std::thread::scope(|s| {
        let (open, stub) = (&open, &stub);
        s.spawn(move || {
            let mut seq = 0;
            let mut chunk = Vec::with_capacity(chunk_len);
            produce(&mut |item| {
                {
                    let mut open = lock(open);
                    if open.closed {
                        return;
                    }
                    open.stubs.push_back(stub(&item));
                }
                chunk.push(item);
                if chunk.len() == chunk_len {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(chunk_len));
                    // A send fails only once every worker has gone; nothing is left to do then.
                    let _ = task_tx.send((seq, full));
                    seq += 1;
                }
            });
            if !chunk.is_empty() {
                let _ = task_tx.send((seq, chunk));
            }
        });
        for slot in &slots {
            let done_tx = done_tx.clone();
            let (task_rx, work) = (&task_rx, &work);
            s.spawn(move || {
                while let Some((seq, items)) = next_task(task_rx) {
                    *lock(slot) = Some((seq, Vec::with_capacity(items.len())));
                    for item in items {
                        let result = work(item);
                        if let Some((_, results)) = &mut *lock(slot) {
                            results.push(result);
                        }
                    }
                    let mut slot = lock(slot);
                    let Some(chunk) = slot.take() else { continue };
                    if done_tx.send(chunk).is_err() {
                        // Nothing takes results any more: empty the queue, so that the reader is
                        // not left waiting to send.
                        drop(slot);
                        while next_task(task_rx).is_some() {}
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // Reorder: results arrive in any order; hand them over by sequence number.
        let mut pending = BTreeMap::new();
        let mut next = 0;
        loop {
            match done_rx.recv_timeout(POLL) {
                Ok((seq, results)) => {
                    pending.insert(seq, results);
                    while let Some(results) = pending.remove(&next) {
                        lock(open).stubs.drain(..results.len());
                        results.into_iter().for_each(|r| sink.done(r));
                        next += 1;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if interrupted() {
                let stubs = {
                    let mut open = lock(open);
                    open.closed = true;
                    std::mem::take(&mut open.stubs)
                };
                // The workers' chunks in hand, held from now on, then every chunk sent before.
                let mut held: Vec<_> = slots.iter().map(lock).collect();
                for (seq, results) in held.iter_mut().filter_map(|s| s.take()) {
                    pending.insert(seq, results);
                }
                while let Ok((seq, results)) = done_rx.try_recv() {
                    pending.insert(seq, results);
                }
                // The stubs left are those of chunks `next`, `next + 1`, …: each chunk's results
                // so far, then the stubs of the items not finished.
                let mut stubs = stubs.into_iter();
                for seq in next.. {
                    let group: Vec<S> = stubs.by_ref().take(chunk_len).collect();
                    if group.is_empty() {
                        break;
                    }
                    let results = pending.remove(&seq).unwrap_or_default();
                    let finished = results.len();
                    results.into_iter().for_each(|r| sink.done(r));
                    group.into_iter().skip(finished).for_each(|s| sink.cut(s));
                }
                sink.interrupted();
            }
        }
    });
}

fn next_task<T>(rx: &Mutex<Receiver<T>>) -> Option<T> {
    // A worker that panicked while holding the lock poisons it; the others still drain the queue.
    let guard = rx.lock().unwrap_or_else(|e| e.into_inner());
    guard.recv().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// Collects what a sink is handed, `Ok(result)` or `Err(stub)`, and counts the results; sets
    /// its flag when interrupted (and ends by a panic that carries what it got).
    struct Collect(Vec<Result<usize, usize>>, Arc<AtomicUsize>, Arc<AtomicBool>);

    impl Sink<usize, usize> for Collect {
        fn done(&mut self, result: usize) {
            self.0.push(Ok(result));
            self.1.fetch_add(1, Ordering::SeqCst);
        }
        fn cut(&mut self, stub: usize) {
            self.0.push(Err(stub));
        }
        fn interrupted(&mut self) -> ! {
            self.2.store(true, Ordering::SeqCst);
            std::panic::panic_any(std::mem::take(&mut self.0))
        }
    }

    #[test]
    fn keeps_input_order_for_any_job_count() {
        for jobs in [1, 2, 3, 8] {
            for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 10 * CHUNK + 7] {
                let mut out = Collect(Vec::new(), Arc::default(), Arc::default());
                ordered_map(
                    jobs,
                    |emit| (0..n).for_each(emit),
                    |&i| i,
                    |i: usize| {
                        // Uneven work, so chunks finish out of order.
                        if i.is_multiple_of(7) {
                            std::thread::yield_now();
                        }
                        i * 2
                    },
                    &mut out,
                    &|| false,
                );
                assert_eq!(
                    out.0,
                    (0..n).map(|i| Ok(i * 2)).collect::<Vec<_>>(),
                    "jobs {jobs} n {n}"
                );
            }
        }
    }

    #[test]
    fn an_interrupt_hands_over_every_finished_result_and_a_stub_for_the_rest() {
        // Item `stuck` does not finish until the sink is told of the interrupt (then the scope can
        // end), which comes once it has started, every item before its chunk has been handed over
        // and every other item is done.
        for jobs in [1, 2, 3] {
            let (n, stuck) = (3 * CHUNK + 5, CHUNK + 3);
            let chunk = if jobs == 1 { 1 } else { CHUNK };
            let hole = stuck / chunk * chunk;
            let started = AtomicBool::new(false);
            let release = Arc::new(AtomicBool::new(false));
            let finished = AtomicUsize::new(0);
            let handed = Arc::new(AtomicUsize::new(0));
            // What finishes: with one job, nothing after the stuck item; with more, all but the rest
            // of its chunk.
            let chunk_end = (hole + chunk).min(n);
            let others = if jobs == 1 {
                stuck
            } else {
                n - (chunk_end - stuck)
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut out = Collect(Vec::new(), Arc::clone(&handed), Arc::clone(&release));
                ordered_map(
                    jobs,
                    |emit| (0..n).for_each(emit),
                    |&i| i,
                    |i: usize| {
                        if i == stuck {
                            started.store(true, Ordering::SeqCst);
                            while !release.load(Ordering::SeqCst) {
                                std::thread::yield_now();
                            }
                        } else {
                            finished.fetch_add(1, Ordering::SeqCst);
                        }
                        i * 2
                    },
                    &mut out,
                    &|| {
                        started.load(Ordering::SeqCst)
                            && handed.load(Ordering::SeqCst) >= hole
                            && finished.load(Ordering::SeqCst) >= others
                    },
                );
            }));
            let got = *result
                .expect_err("an interrupted run ends in Sink::interrupted")
                .downcast::<Vec<Result<usize, usize>>>()
                .unwrap();
            // In input order, one entry per item read, each its result or its stub.
            for (i, g) in got.iter().enumerate() {
                assert!(*g == Ok(2 * i) || *g == Err(i), "jobs {jobs}: {i}: {g:?}");
            }
            // Everything before the stuck item is handed over, even the items of its own chunk;
            // nothing after it in its chunk was started.
            assert!(got[..stuck].iter().all(Result::is_ok), "jobs {jobs}");
            let chunk_end = chunk_end.min(got.len());
            assert!(
                got[stuck..chunk_end].iter().all(Result::is_err),
                "jobs {jobs}"
            );
            if jobs == 1 {
                // Read ahead of the stuck item at most: the queue (2) and the item in hand.
                assert!(got.len() <= stuck + 4, "jobs 1: {}", got.len());
                assert!(got[stuck..].iter().all(Result::is_err), "jobs 1");
            } else {
                // Every item was read; the later chunks' finished items come first in each.
                assert_eq!(got.len(), n, "jobs {jobs}");
                for c in got[chunk_end..].chunks(CHUNK) {
                    let done = c.iter().take_while(|g| g.is_ok()).count();
                    assert!(c[done..].iter().all(Result::is_err), "jobs {jobs}: {c:?}");
                }
                // They were all done: at most the last item of each was not yet handed on.
                let cut = got[chunk_end..].iter().filter(|g| g.is_err()).count();
                assert!(cut <= jobs, "jobs {jobs}: {cut} cut");
            }
        }
    }
}
