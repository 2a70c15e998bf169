//! An ordered parallel map for batch runs: one thread reads, `jobs` threads work on chunks, the calling
//! thread consumes results in input order. Memory is bounded by the chunks in flight, not the input.
//! Chunks are as large as the reader gets ahead, up to a few milliseconds of work at the pace of
//! the chunks finished so far: an idle worker takes what has been read so far, so a fast reader
//! hands over full chunks of quick puzzles (little thread traffic per puzzle), slow puzzles are
//! shared among the workers a few at a time, and typed input is solved line by line. An
//! interrupted run hands over every result finished so far and a stub for every item read but
//! not finished, still in input order.

use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most weight per chunk handed to a worker for puzzles to solve (a 9x9 puzzle weighs 1, a larger
/// one its cells over 81; an item heavier than this is a chunk alone): large enough that thread
/// traffic is small next to solving 9x9s of under 2 µs each (BENCHMARKS, "Throughput": 128 cost
/// two jobs on 17-clue about 10 % more), small enough that the last chunks balance across workers
/// and that a slow puzzle holds back few finished ones of its chunk (they are handed over with
/// it). Slower puzzles go in smaller chunks ([`CHUNK_TIME`]).
pub const CHUNK: usize = 512;

/// Chunks per worker, in weight, that may be read and not yet handed to the sink: one slow puzzle (a
/// 64x64 that takes minutes) must not let the results and the input after it pile up, and what is
/// held stays within a few chunks' weight, whatever the grids' size (with two jobs: 8 400x400 grids,
/// not 512).
const WINDOW: usize = 4;

/// The work a worker takes at a time, by the time the chunks finished so far took per item: slow
/// puzzles (a few milliseconds and up) go a few at a time, so that a short file of hard ones is
/// shared among the workers rather than taken whole by the first idle one; fast ones still go
/// in chunks of up to [`CHUNK`] (BENCHMARKS, "Throughput").
const CHUNK_TIME: Duration = Duration::from_millis(5);

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

/// What the reader has read and the consuming thread has not yet handed over.
struct Queue<T, S> {
    /// Full chunks that no worker has taken yet, oldest first, with the weight of each of their items.
    full: VecDeque<(Vec<T>, usize)>,
    /// The chunk being filled, which an idle worker takes as it is.
    forming: Vec<T>,
    /// The weight of each item of `forming` (a different weight starts a chunk).
    each: usize,
    /// The stubs of the items read and not yet handed to the sink, in input order.
    stubs: VecDeque<S>,
    /// Their weights.
    weights: VecDeque<usize>,
    /// The sum of `weights`.
    held: usize,
    /// The length of every chunk taken and not yet handed over, by sequence number from the
    /// consuming thread's next.
    taken: VecDeque<usize>,
    /// The sequence number of the next chunk taken.
    seq: usize,
    /// Workers waiting for items.
    idle: usize,
    /// The reader waits for the sink to catch up.
    reader_waits: bool,
    /// The reader has read everything.
    ended: bool,
    /// Set once the run is interrupted (or nothing takes results any more): what is read from then
    /// on is dropped, and the workers stop taking chunks.
    closed: bool,
    /// Nanoseconds of work per unit of weight, as the chunks finished so far took it (a running
    /// average; 0 before the first).
    pace: u64,
    /// The workers.
    jobs: usize,
}

impl<T, S> Queue<T, S> {
    /// How many items of `weight` a worker takes at most: [`CHUNK_TIME`]'s worth at the pace so
    /// far (one before any chunk is finished), and once everything is read no more than an even
    /// share of what is left, so that the last items are spread over the workers too.
    fn limit(&self, weight: usize) -> usize {
        let mut n = if self.pace == 0 {
            1
        } else {
            let per_item = self.pace.saturating_mul(weight.max(1) as u64);
            (CHUNK_TIME.as_nanos() as u64 / per_item.max(1)).max(1)
        };
        if self.ended {
            let left: usize =
                self.full.iter().map(|(c, _)| c.len()).sum::<usize>() + self.forming.len();
            n = n.min(left.div_ceil(self.jobs.max(1)) as u64);
        }
        usize::try_from(n).unwrap_or(usize::MAX).max(1)
    }
}

/// A worker's chunk in hand: its sequence number and the results so far.
type Slot<R> = Mutex<Option<(usize, Vec<R>)>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn wait<'a, T>(c: &Condvar, g: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    c.wait(g).unwrap_or_else(|e| e.into_inner())
}

/// Runs `work` over every item that `produce` emits, on `jobs` threads, the workers taking items of
/// at most `chunk` in weight at a time (an item weighs at least 1; one heavier than `chunk` goes
/// alone; `chunk` 1 for items that are long work each, such as puzzles to generate), and hands each
/// result to `sink` in the order the items were emitted. Returns how many chunks the workers took.
/// At most `4 · jobs · chunk` in weight is read and not yet handed over (and one item more), or
/// `4 · jobs` items if they weigh more.
///
/// `produce` runs on a thread of its own (so it can own a non-`Send` reader, e.g. locked stdin) and
/// calls its argument once per item; `stub` gives an item's weight and keeps what the sink needs of
/// it should it not be finished when `interrupted()` turns true (checked at least every 50 ms), and
/// the sink is then handed, in input order, the result of every finished item and the stub of every
/// other item read, then told [`Sink::interrupted`]. A worker never waits for a chunk to fill: when
/// it has nothing to do it takes the items read so far, so typed input is answered line by line at
/// any `jobs`.
pub fn ordered_map<T, S, R, P, W>(
    jobs: usize,
    chunk: usize,
    produce: P,
    stub: impl Fn(&T) -> (S, usize) + Sync,
    work: W,
    sink: &mut dyn Sink<R, S>,
    interrupted: &dyn Fn() -> bool,
) -> usize
where
    T: Send,
    S: Send,
    R: Send,
    P: FnOnce(&mut dyn FnMut(T)) + Send,
    W: Fn(T) -> R + Sync,
{
    let jobs = jobs.max(1);
    let chunk = chunk.max(1);
    let window = WINDOW.saturating_mul(jobs).saturating_mul(chunk);
    let queue = Mutex::new(Queue {
        full: VecDeque::new(),
        forming: Vec::new(),
        each: 0,
        stubs: VecDeque::new(),
        weights: VecDeque::new(),
        held: 0,
        taken: VecDeque::new(),
        seq: 0,
        idle: 0,
        reader_waits: false,
        ended: false,
        closed: false,
        pace: 0,
        jobs,
    });
    // Workers wait on `ready` for items, the reader on `room` while a window of items is out.
    let (ready, room) = (Condvar::new(), Condvar::new());
    let (done_tx, done_rx) = channel::<(usize, Vec<R>)>();
    // Each worker's chunk in hand and the results it has so far, which an interrupted run hands
    // over; a chunk is sent on with the lock held, so that it is in one place or the other.
    let slots: Vec<Slot<R>> = (0..jobs).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        let (queue, stub, ready, room) = (&queue, &stub, &ready, &room);
        s.spawn(move || {
            produce(&mut |item| {
                let (stub, weight) = stub(&item);
                let weight = weight.max(1);
                let mut q = lock(queue);
                // Behind heavy items (each a chunk alone) still 4 a worker, so that each has work.
                while q.held >= window && q.stubs.len() >= WINDOW * jobs && !q.closed {
                    q.reader_waits = true;
                    q = wait(room, q);
                }
                q.reader_waits = false;
                if q.closed {
                    return;
                }
                q.stubs.push_back(stub);
                q.weights.push_back(weight);
                q.held = q.held.saturating_add(weight);
                // An item of another weight (a grid of another size) starts a chunk, so that the
                // quick ones before a slow one are not handed over only with it.
                if !q.forming.is_empty() && weight != q.each {
                    let full = std::mem::take(&mut q.forming);
                    let each = q.each;
                    q.full.push_back((full, each));
                }
                q.each = weight;
                q.forming.push(item);
                if q.forming.len().saturating_mul(weight) >= chunk {
                    let full = std::mem::take(&mut q.forming);
                    q.full.push_back((full, weight));
                }
                if q.idle > 0 {
                    ready.notify_one();
                }
            });
            lock(queue).ended = true;
            ready.notify_all();
        });
        for slot in &slots {
            let done_tx = done_tx.clone();
            let work = &work;
            s.spawn(move || {
                let _close = CloseOnPanic(queue, ready, room);
                let mut last = None;
                while let Some((seq, items, weight)) = next_chunk(queue, ready, last) {
                    let started = Instant::now();
                    let total = items.len().saturating_mul(weight);
                    *lock(slot) = Some((seq, Vec::with_capacity(items.len())));
                    for item in items {
                        let result = work(item);
                        if let Some((_, results)) = &mut *lock(slot) {
                            results.push(result);
                        }
                    }
                    last = Some((started.elapsed(), total));
                    let mut slot = lock(slot);
                    let Some(chunk) = slot.take() else { continue };
                    if done_tx.send(chunk).is_err() {
                        // Nothing takes results any more: let the reader and the others go.
                        drop(slot);
                        lock(queue).closed = true;
                        room.notify_all();
                        ready.notify_all();
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
                        {
                            let mut q = lock(queue);
                            q.stubs.drain(..results.len());
                            let handed: usize = q.weights.drain(..results.len()).sum();
                            q.held = q.held.saturating_sub(handed);
                            q.taken.pop_front();
                            if q.reader_waits {
                                room.notify_one();
                            }
                        }
                        results.into_iter().for_each(|r| sink.done(r));
                        next += 1;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if interrupted() {
                let (stubs, taken) = {
                    let mut q = lock(queue);
                    q.closed = true;
                    (std::mem::take(&mut q.stubs), std::mem::take(&mut q.taken))
                };
                room.notify_all();
                ready.notify_all();
                // The workers' chunks in hand, held from now on, then every chunk sent before.
                let mut held: Vec<_> = slots.iter().map(lock).collect();
                for (seq, results) in held.iter_mut().filter_map(|s| s.take()) {
                    pending.insert(seq, results);
                }
                while let Ok((seq, results)) = done_rx.try_recv() {
                    pending.insert(seq, results);
                }
                // The stubs left are those of the chunks taken (`next`, `next + 1`, …), then of the
                // items no worker took: each chunk's results so far, then the stubs of the items
                // not finished.
                let mut stubs = stubs.into_iter();
                for (seq, len) in (next..).zip(taken) {
                    let group: Vec<S> = stubs.by_ref().take(len).collect();
                    let results = pending.remove(&seq).unwrap_or_default();
                    let finished = results.len();
                    results.into_iter().for_each(|r| sink.done(r));
                    group.into_iter().skip(finished).for_each(|s| sink.cut(s));
                }
                stubs.for_each(|s| sink.cut(s));
                sink.interrupted();
            }
        }
    });
    lock(&queue).seq
}

/// How much [`in_place`] reads ahead before working on it when records are not shown one by one, in
/// cells of the puzzles read (a puzzle weighs its cells, [`in_place`]'s `weigh`): 64 9x9 puzzles,
/// 21 16x16, 9 25x25, two 64x64, and a grid of 72x72 or more alone, written before the next is
/// read. Reading, solving and writing then each run over a few puzzles in a row, so the code of
/// each stays in the instruction cache (a 9x9 puzzle's whole path is larger than it; BENCHMARKS),
/// and what is held stays small whatever the grids' size.
pub const HOLD: usize = 64 * 81;

/// [`ordered_map`] without threads: each item is worked on on the calling thread, and its result
/// handed to `sink` (for one job over files: no thread traffic per item). Items are read until
/// their weights (`weigh`, at least 1 each) reach `hold` before the first of them is worked on, and
/// their results handed over together (`hold` 1: each item as it is read). `interrupted()` is
/// looked at before and after each item; once it is true, the results finished are handed over,
/// then the item in hand (its work may have been cut short) and every other item read as their
/// stubs, and the sink is told [`Sink::interrupted`].
pub fn in_place<T, S, R, P, W>(
    produce: P,
    stub: impl Fn(&T) -> S,
    work: W,
    sink: &mut dyn Sink<R, S>,
    interrupted: &dyn Fn() -> bool,
    hold: usize,
    weigh: impl Fn(&T) -> usize,
) where
    P: FnOnce(&mut dyn FnMut(T)),
    W: Fn(T) -> R,
{
    let (mut held, mut results): (Vec<T>, Vec<R>) = (Vec::new(), Vec::new());
    let mut weight = 0usize;
    let mut run = |held: &mut Vec<T>, sink: &mut dyn Sink<R, S>| {
        let mut items = held.drain(..);
        while let Some(item) = items.next() {
            let in_hand = stub(&item);
            let result = (!interrupted()).then(|| work(item));
            match result {
                Some(result) if !interrupted() => results.push(result),
                _ => {
                    results.drain(..).for_each(|r| sink.done(r));
                    sink.cut(in_hand);
                    items.for_each(|item| sink.cut(stub(&item)));
                    sink.interrupted();
                }
            }
        }
        results.drain(..).for_each(|r| sink.done(r));
    };
    produce(&mut |item| {
        weight = weight.saturating_add(weigh(&item).max(1));
        held.push(item);
        if weight >= hold {
            weight = 0;
            run(&mut held, sink);
        }
    });
    run(&mut held, sink);
}

/// The next chunk for a worker, its sequence number and the weight of each of its items: the
/// oldest full chunk, else the items read so far, at most [`Queue::limit`] of them; waits while
/// there are none, and `None` once the reader has ended and everything was taken (or the run was
/// closed). `last` is how long the worker's last chunk took and its weight.
fn next_chunk<T, S>(
    queue: &Mutex<Queue<T, S>>,
    ready: &Condvar,
    last: Option<(Duration, usize)>,
) -> Option<(usize, Vec<T>, usize)> {
    let mut q = lock(queue);
    if let Some((took, weight)) = last {
        let sample = u64::try_from(took.as_nanos() / weight.max(1) as u128).unwrap_or(u64::MAX);
        q.pace = if q.pace == 0 {
            sample.max(1)
        } else {
            (q.pace / 4)
                .saturating_mul(3)
                .saturating_add(sample / 4)
                .max(1)
        };
    }
    let (items, weight) = loop {
        if q.closed {
            return None;
        }
        if let Some(weight) = q.full.front().map(|&(_, w)| w) {
            let limit = q.limit(weight);
            let (front, _) = q.full.front_mut().expect("a front chunk");
            if front.len() > limit {
                let rest = front.split_off(limit);
                break (std::mem::replace(front, rest), weight);
            }
            let (chunk, _) = q.full.pop_front().expect("a front chunk");
            break (chunk, weight);
        }
        if !q.forming.is_empty() {
            let weight = q.each;
            let limit = q.limit(weight);
            if q.forming.len() > limit {
                let rest = q.forming.split_off(limit);
                break (std::mem::replace(&mut q.forming, rest), weight);
            }
            break (std::mem::take(&mut q.forming), weight);
        }
        if q.ended {
            return None;
        }
        q.idle += 1;
        q = wait(ready, q);
        q.idle -= 1;
    };
    let seq = q.seq;
    q.seq += 1;
    q.taken.push_back(items.len());
    // Items left for another worker that is waiting.
    if q.idle > 0 && (!q.full.is_empty() || !q.forming.is_empty()) {
        ready.notify_one();
    }
    Some((seq, items, weight))
}

/// Closes the queue if its worker panics, so that the reader and the other workers stop (its chunk
/// will never be handed over; the panic reaches the caller once the other threads are done).
struct CloseOnPanic<'a, T, S>(&'a Mutex<Queue<T, S>>, &'a Condvar, &'a Condvar);

impl<T, S> Drop for CloseOnPanic<'_, T, S> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            lock(self.0).closed = true;
            self.1.notify_all();
            self.2.notify_all();
        }
    }
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
                    CHUNK,
                    |emit| (0..n).for_each(emit),
                    |&i| (i, 1),
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
    fn in_place_keeps_input_order() {
        const H: usize = 128;
        for hold in [0, 1, 3, H] {
            for n in [0, 1, 2, 3, 4, H - 1, H, H + 1, 3 * H + 5] {
                let mut out = Collect(Vec::new(), Arc::default(), Arc::default());
                in_place(
                    |emit| (0..n).for_each(emit),
                    |&i| i,
                    |i: usize| i * 2,
                    &mut out,
                    &|| false,
                    hold,
                    |_| 1,
                );
                assert_eq!(
                    out.0,
                    (0..n).map(|i| Ok(i * 2)).collect::<Vec<_>>(),
                    "hold {hold} n {n}"
                );
            }
        }
    }

    #[test]
    fn in_place_reads_ahead_hold_items_and_works_on_them_in_a_row() {
        // Each item is worked on only once `hold` items are read (or the input ends), and all of
        // them are worked on before any result is handed over.
        let want = [
            "read 0", "read 1", "work 0", "work 1", "done 0", "done 1", "read 2", "read 3",
            "work 2", "work 3", "done 2", "done 3", "read 4", "work 4", "done 4",
        ];
        assert_eq!(in_place_events(5, 2, |_| 1), want);
    }

    #[test]
    fn in_place_reads_ahead_until_the_weights_reach_hold() {
        // Item i weighs i (0 counts as 1): 0-2 weigh 4, 3-4 weigh 7 (the one that passes `hold` is
        // held too), and 5, weighing more than `hold`, is worked on alone; then a heavy item ends
        // the batch it joins.
        let want = [
            "read 0", "read 1", "read 2", "work 0", "work 1", "work 2", "done 0", "done 1",
            "done 2", "read 3", "read 4", "work 3", "work 4", "done 3", "done 4", "read 5",
            "work 5", "done 5",
        ];
        assert_eq!(in_place_events(6, 4, |&i| i), want);
        let heavy = |&i: &usize| if i == 1 { 100 } else { 1 };
        let want = [
            "read 0", "read 1", "work 0", "work 1", "done 0", "done 1", "read 2", "work 2",
            "done 2",
        ];
        assert_eq!(in_place_events(3, 4, heavy), want);
    }

    /// [`in_place`] over items `0..n` with `hold` and `weigh`: what was read, worked on and handed
    /// over, in order.
    fn in_place_events(n: usize, hold: usize, weigh: impl Fn(&usize) -> usize) -> Vec<String> {
        use std::cell::RefCell;
        let events = RefCell::new(Vec::new());
        struct Log<'a>(&'a RefCell<Vec<String>>);
        impl Sink<usize, usize> for Log<'_> {
            fn done(&mut self, result: usize) {
                self.0.borrow_mut().push(format!("done {result}"));
            }
            fn cut(&mut self, stub: usize) {
                self.0.borrow_mut().push(format!("cut {stub}"));
            }
            fn interrupted(&mut self) -> ! {
                unreachable!()
            }
        }
        in_place(
            |emit| {
                (0..n).for_each(|i| {
                    events.borrow_mut().push(format!("read {i}"));
                    emit(i);
                })
            },
            |&i| i,
            |i: usize| {
                events.borrow_mut().push(format!("work {i}"));
                i
            },
            &mut Log(&events),
            &|| false,
            hold,
            weigh,
        );
        events.into_inner()
    }

    #[test]
    fn in_place_cuts_the_item_in_hand_when_interrupted_and_reads_no_further() {
        // The interrupt comes while item 5 is worked on: 0-4 are handed over, 5 is cut, and the
        // items after it are not worked on; read are only those held with it (`hold`), each cut.
        for (hold, read_to, want) in [
            (1, 6, vec![Ok(0), Ok(2), Ok(4), Ok(6), Ok(8), Err(5)]),
            (
                4,
                8,
                vec![Ok(0), Ok(2), Ok(4), Ok(6), Ok(8), Err(5), Err(6), Err(7)],
            ),
            (
                HOLD,
                10,
                vec![
                    Ok(0),
                    Ok(2),
                    Ok(4),
                    Ok(6),
                    Ok(8),
                    Err(5),
                    Err(6),
                    Err(7),
                    Err(8),
                    Err(9),
                ],
            ),
        ] {
            let (got, read) = interrupted_in_place(hold);
            assert_eq!(got, want, "hold {hold}");
            assert_eq!(read, read_to, "hold {hold}");
        }
    }

    /// [`in_place`] over items 0-9 (results twice the item, stubs the item), interrupted while
    /// item 5 is worked on: what the sink got, and how many items were read.
    fn interrupted_in_place(hold: usize) -> (Vec<Result<usize, usize>>, usize) {
        let (asked, read) = (AtomicBool::new(false), AtomicUsize::new(0));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut out = Collect(Vec::new(), Arc::default(), Arc::default());
            in_place(
                |emit| {
                    (0..10).for_each(|i| {
                        read.fetch_add(1, Ordering::SeqCst);
                        emit(i);
                    })
                },
                |&i| i,
                |i: usize| {
                    if i == 5 {
                        asked.store(true, Ordering::SeqCst);
                    }
                    i * 2
                },
                &mut out,
                &|| asked.load(Ordering::SeqCst),
                hold,
                |_| 1,
            );
        }));
        let got = *result
            .expect_err("an interrupted run ends in Sink::interrupted")
            .downcast::<Vec<Result<usize, usize>>>()
            .unwrap();
        (got, read.load(Ordering::SeqCst))
    }

    #[test]
    fn an_interrupt_hands_over_every_finished_result_and_a_stub_for_the_rest() {
        // Item `stuck` does not finish until the sink is told of the interrupt (then the scope can
        // end), which comes once it has started, every item before it is done (some may still be
        // in a worker's hands: the rest of the stuck item's chunk) and, with several jobs, all but
        // at most a chunk of the others.
        for jobs in [1, 2, 3] {
            let (n, stuck) = (3 * CHUNK + 5, CHUNK + 3);
            let started = AtomicBool::new(false);
            let release = Arc::new(AtomicBool::new(false));
            let finished = AtomicUsize::new(0);
            let handed = Arc::new(AtomicUsize::new(0));
            // With one job nothing after the stuck item can finish; with more, all but the rest
            // of its chunk.
            let others = if jobs == 1 { stuck } else { n - CHUNK };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut out = Collect(Vec::new(), Arc::clone(&handed), Arc::clone(&release));
                ordered_map(
                    jobs,
                    CHUNK,
                    |emit| (0..n).for_each(emit),
                    |&i| (i, 1),
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
                    &|| started.load(Ordering::SeqCst) && finished.load(Ordering::SeqCst) >= others,
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
            // Everything before the stuck item is handed over; the stuck item is cut.
            assert!(got[..stuck].iter().all(Result::is_ok), "jobs {jobs}");
            assert_eq!(got.get(stuck), Some(&Err(stuck)), "jobs {jobs}");
            if jobs == 1 {
                // Nothing after it finished.
                assert!(got[stuck..].iter().all(Result::is_err), "jobs 1");
            } else {
                // Every finished item was read, and the finished ones after the stuck item were
                // handed over: what is cut is the rest of the stuck chunk and what was in flight.
                // (The last few items may not have been read when the interrupt came.)
                assert!(
                    got.len() > others && got.len() <= n,
                    "jobs {jobs}: {}",
                    got.len()
                );
                let cut = got[stuck..].iter().filter(|g| g.is_err()).count();
                assert!(cut <= 2 * CHUNK, "jobs {jobs}: {cut} cut");
                assert!(got[stuck..].iter().any(Result::is_ok), "jobs {jobs}");
            }
        }
    }

    /// Runs `ordered_map` with `jobs` over `n` items of `weight` each, item 0 stuck until the
    /// interrupt, which comes once it has started and (with several jobs) `enough` others have
    /// finished; what the sink was handed.
    fn behind_a_stuck_first_item(
        jobs: usize,
        n: usize,
        weight: usize,
        enough: usize,
    ) -> Vec<Result<usize, usize>> {
        let release = Arc::new(AtomicBool::new(false));
        let (started, finished) = (AtomicBool::new(false), AtomicUsize::new(0));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut out = Collect(Vec::new(), Arc::default(), Arc::clone(&release));
            ordered_map(
                jobs,
                CHUNK,
                |emit| (0..n).for_each(emit),
                |&i| (i, weight),
                |i: usize| {
                    if i == 0 {
                        started.store(true, Ordering::SeqCst);
                        while !release.load(Ordering::SeqCst) {
                            std::thread::yield_now();
                        }
                    } else {
                        finished.fetch_add(1, Ordering::SeqCst);
                    }
                    i
                },
                &mut out,
                &|| {
                    started.load(Ordering::SeqCst)
                        && (jobs == 1 || finished.load(Ordering::SeqCst) >= enough)
                },
            );
        }));
        *result
            .expect_err("an interrupted run ends in Sink::interrupted")
            .downcast::<Vec<Result<usize, usize>>>()
            .unwrap()
    }

    #[test]
    fn one_slow_item_holds_back_the_reading_not_the_memory() {
        // Item 0 does not finish until the interrupt; the reader may run at most the window
        // (4 chunks per worker) ahead of it, however long the input.
        for jobs in [1, 2] {
            let window = WINDOW * jobs * CHUNK;
            let got = behind_a_stuck_first_item(jobs, 100 * CHUNK, 1, window - CHUNK);
            assert!(got.len() <= window, "jobs {jobs}: {} read", got.len());
            assert_eq!(got.first(), Some(&Err(0)));
        }
    }

    #[test]
    fn heavy_items_are_chunks_alone_and_the_window_holds_a_few() {
        // Items as heavy as a chunk (a 400x400 grid weighs ~2,000 9x9s): each is a chunk alone, and
        // behind a slow first item the reader holds at most the window's weight, 4 chunks per
        // worker: 4 or 8 grids, not 4 · jobs · CHUNK of them (nor fewer than one a worker: the
        // second worker finishes the 7 others read).
        for jobs in [1, 2] {
            let window = WINDOW * jobs;
            let got = behind_a_stuck_first_item(jobs, 10 * CHUNK, CHUNK, window - 1);
            assert!(got.len() <= window, "jobs {jobs}: {} read", got.len());
            assert_eq!(got.first(), Some(&Err(0)));
        }
    }

    #[test]
    fn a_grid_of_another_size_starts_a_chunk() {
        // 300 light items, then a heavy one that does not finish before the sink has had every
        // light one: none of them may share its chunk (they would be handed over only with it).
        // (A wait of a minute means they do.)
        for jobs in [1, 2] {
            let (n, heavy) = (400, 300);
            let handed = Arc::new(AtomicUsize::new(0));
            let seen = Arc::clone(&handed);
            let mut out = Collect(Vec::new(), handed, Arc::default());
            ordered_map(
                jobs,
                CHUNK,
                |emit| (0..n).for_each(emit),
                |&i| (i, if i == heavy { 51 } else { 1 }),
                |i: usize| {
                    let since = std::time::Instant::now();
                    while i == heavy && seen.load(Ordering::SeqCst) < heavy {
                        assert!(
                            since.elapsed() < Duration::from_secs(60),
                            "jobs {jobs}: light items wait in the heavy one's chunk"
                        );
                        std::thread::yield_now();
                    }
                    i
                },
                &mut out,
                &|| false,
            );
            assert_eq!(out.0, (0..n).map(Ok).collect::<Vec<_>>(), "jobs {jobs}");
        }
    }

    /// Runs `ordered_map` over `n` items that `work` handles; the chunks taken and the results.
    fn chunks_taken(
        jobs: usize,
        n: usize,
        produce: impl FnOnce(&mut dyn FnMut(usize)) + Send,
        work: impl Fn(usize) -> usize + Sync,
        handed: Arc<AtomicUsize>,
    ) -> (usize, Vec<Result<usize, usize>>) {
        let mut out = Collect(Vec::new(), handed, Arc::default());
        let chunks = ordered_map(jobs, CHUNK, produce, |&i| (i, 1), work, &mut out, &|| false);
        assert_eq!(out.0.len(), n);
        (chunks, out.0)
    }

    #[test]
    fn a_fast_reader_hands_over_whole_chunks() {
        // Each item takes longer to work on than to read: the worker finds many read meanwhile and
        // takes them together (one item per chunk costs thread wake-ups per puzzle).
        let n = 4_000;
        let slow = |i: usize| {
            let mut x = i as u64;
            for k in 0..20_000u64 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(k));
            }
            std::hint::black_box(x);
            i
        };
        for jobs in [1, 2] {
            let (chunks, got) =
                chunks_taken(jobs, n, |emit| (0..n).for_each(emit), slow, Arc::default());
            assert!(got.iter().enumerate().all(|(i, g)| *g == Ok(i)));
            assert!(
                chunks <= n / 8,
                "jobs {jobs}: {chunks} chunks for {n} items"
            );
        }
    }

    #[test]
    fn a_short_file_of_slow_items_is_shared_among_the_workers() {
        // 24 items of 3 ms each, all read at once: the first idle worker must not take them all
        // (a file of hard puzzles would then run on one core); each of two workers gets a fair
        // share, whichever thread starts first.
        let n = 24;
        let threads = Mutex::new(Vec::new());
        let (chunks, got) = chunks_taken(
            2,
            n,
            |emit| (0..n).for_each(emit),
            |i| {
                std::thread::sleep(Duration::from_millis(3));
                lock(&threads).push(std::thread::current().id());
                i
            },
            Arc::default(),
        );
        assert!(got.iter().enumerate().all(|(i, g)| *g == Ok(i)));
        let threads = threads.into_inner().unwrap();
        let first = threads[0];
        let by_first = threads.iter().filter(|&&t| t == first).count();
        assert!(
            (n / 4..=n - n / 4).contains(&by_first),
            "{by_first} of {n} items on one worker, in {chunks} chunks"
        );
    }

    #[test]
    fn typed_input_is_answered_line_by_line() {
        // The reader reads item k only once the result of item k - 1 has been handed over (as a
        // person types the next puzzle after seeing the last answer): no item may wait for a
        // chunk to fill. (A wait of a minute means the run would hang.)
        for jobs in [1, 3] {
            let n = 2 * CHUNK + 3;
            let handed = Arc::new(AtomicUsize::new(0));
            let seen = Arc::clone(&handed);
            let (chunks, got) = chunks_taken(
                jobs,
                n,
                move |emit| {
                    for k in 0..n {
                        let since = std::time::Instant::now();
                        while seen.load(Ordering::SeqCst) < k {
                            assert!(
                                since.elapsed() < Duration::from_secs(60),
                                "jobs {jobs}: item {k} waits for a chunk to fill"
                            );
                            std::thread::yield_now();
                        }
                        emit(k);
                    }
                },
                |i| i,
                handed,
            );
            assert!(got.iter().enumerate().all(|(i, g)| *g == Ok(i)));
            assert_eq!(chunks, n, "jobs {jobs}: one item per chunk");
        }
    }
}
