//! Progress on standard error for long runs (only on a terminal): a bar with records done, rate and an
//! ETA when the input's size is known, a spinner otherwise; redrawn by its own thread, so that a single
//! long puzzle still shows its elapsed time. While one unfinished item holds up the ordered output, it
//! says which, for how long and how much work it has taken, instead of an ETA.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use satdoku::WorkCounters;

use super::record::Place;

/// How long the display waits before drawing: short runs finish before it appears.
pub const DELAY: Duration = Duration::from_millis(500);

/// How often the display is redrawn.
const TICK: Duration = Duration::from_millis(200);

/// How long the item next in line must have been worked on before the display says that the output
/// waits on it (and drops the ETA).
const HOLD: Duration = Duration::from_secs(1);

/// Counters shared by the reader, the pipeline and the drawing thread.
#[derive(Default)]
struct Counters {
    /// Input bytes consumed by the reader.
    bytes: Arc<AtomicU64>,
    /// Items the reader has emitted.
    emitted: Arc<AtomicU64>,
    /// Records written (the next item in line is the one of this position).
    done: AtomicU64,
    /// Items worked on to the end (written, or waiting for their turn).
    finished: AtomicU64,
    /// Search nodes and SAT conflicts of the items finished.
    nodes: AtomicU64,
    conflicts: AtomicU64,
    /// The items being worked on, by position.
    running: Mutex<BTreeMap<u64, Running>>,
}

/// An item being worked on.
struct Running {
    start: Instant,
    place: Place,
    /// The work its solves report (search nodes, SAT conflicts).
    work: WorkCounters,
}

struct Inner {
    counters: Counters,
    total_bytes: Option<u64>,
    noun: &'static str,
    start: Instant,
    bar: Mutex<Option<ProgressBar>>,
    stop: AtomicBool,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

/// The progress display of one run (cheap to clone; clones share it).
#[derive(Clone)]
pub struct Progress {
    inner: Option<Arc<Inner>>,
    /// Counters for a disabled display (kept so that callers need not care).
    bytes: Arc<AtomicU64>,
    emitted: Arc<AtomicU64>,
}

/// Work on one item, shown by the display until dropped ([`Progress::working`]).
pub struct Working {
    inner: Option<(Arc<Inner>, u64)>,
}

impl Drop for Working {
    fn drop(&mut self) {
        let Some((inner, position)) = self.inner.take() else {
            return;
        };
        WorkCounters::stop_counting_on_this_thread();
        let c = &inner.counters;
        if let Some(r) = lock(&c.running).remove(&position) {
            c.nodes.fetch_add(r.work.nodes(), Ordering::Relaxed);
            c.conflicts.fetch_add(r.work.conflicts(), Ordering::Relaxed);
        }
        c.finished.fetch_add(1, Ordering::Relaxed);
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Progress {
    /// No display.
    pub fn disabled() -> Progress {
        Progress {
            inner: None,
            bytes: Arc::default(),
            emitted: Arc::default(),
        }
    }

    /// The display for a run over `files`, counting `noun`s: drawn on a terminal standard error unless
    /// `quiet` or puzzles are being typed.
    pub fn for_run(files: &[PathBuf], quiet: bool, noun: &'static str) -> Progress {
        let enabled = !quiet && !super::input::typing(files) && std::io::stderr().is_terminal();
        if !enabled {
            return Progress::disabled();
        }
        Progress::start(super::input::total_bytes(files), noun)
    }

    /// A spinner (no bar: the amount of work is not known from the input's size) counting `noun`s,
    /// drawn on a terminal standard error unless `quiet`.
    pub fn spinner(quiet: bool, noun: &'static str) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress::disabled();
        }
        Progress::start(None, noun)
    }

    /// Starts a display (its thread draws from [`DELAY`] on).
    fn start(total_bytes: Option<u64>, noun: &'static str) -> Progress {
        let counters = Counters::default();
        let (bytes, emitted) = (counters.bytes.clone(), counters.emitted.clone());
        let inner = Arc::new(Inner {
            counters,
            total_bytes,
            noun,
            start: Instant::now(),
            bar: Mutex::new(None),
            stop: AtomicBool::new(false),
            thread: Mutex::new(None),
        });
        // A second Ctrl-C ends the process at once: the line is cleared first, if it can be.
        let on_exit = Arc::clone(&inner);
        super::interrupt::on_exit(move || on_exit.clear_now());
        let drawer = inner.clone();
        let handle = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || drawer.draw_loop())
            .ok();
        *inner.thread.lock().unwrap_or_else(|e| e.into_inner()) = handle;
        Progress {
            inner: Some(inner),
            bytes,
            emitted,
        }
    }

    /// The counter the input reader adds the bytes it consumes to.
    pub fn bytes_counter(&self) -> Arc<AtomicU64> {
        self.bytes.clone()
    }

    /// The counter of items emitted by the reader.
    pub fn emitted_counter(&self) -> Arc<AtomicU64> {
        self.emitted.clone()
    }

    /// Shows that the item at `position` (0-based, in input order) is being worked on on this
    /// thread, until the returned value is dropped: its solves count their work for the display, so
    /// that a single long puzzle shows its nodes or conflicts as it goes, and says so when the output
    /// waits on it. `place` is asked only when the display is on.
    pub fn working(&self, position: u64, place: impl FnOnce() -> Place) -> Working {
        let Some(inner) = &self.inner else {
            return Working { inner: None };
        };
        let work = WorkCounters::default();
        work.count_on_this_thread();
        let running = Running {
            start: Instant::now(),
            place: place(),
            work,
        };
        lock(&inner.counters.running).insert(position, running);
        Working {
            inner: Some((Arc::clone(inner), position)),
        }
    }

    /// Counts `k` finished records.
    pub fn done(&self, k: u64) {
        if let Some(inner) = &self.inner {
            inner.counters.done.fetch_add(k, Ordering::Relaxed);
        }
    }

    /// Runs `f` with the display cleared (for writing to a terminal it shares).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.inner {
            Some(inner) => {
                let bar = inner.bar.lock().unwrap_or_else(|e| e.into_inner());
                match &*bar {
                    Some(bar) => bar.suspend(f),
                    None => f(),
                }
            }
            None => f(),
        }
    }

    /// Stops and clears the display.
    pub fn finish(&self) {
        if let Some(inner) = &self.inner {
            inner.stop.store(true, Ordering::Relaxed);
            if let Some(handle) = inner
                .thread
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                handle.thread().unpark();
                let _ = handle.join();
            }
            if let Some(bar) = inner.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
                bar.finish_and_clear();
            }
        }
    }
}

impl Inner {
    /// Stops drawing and clears the display, unless another thread holds it (it may be stuck writing
    /// to the terminal).
    fn clear_now(&self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut bar) = self.bar.try_lock()
            && let Some(bar) = bar.take()
        {
            bar.finish_and_clear();
        }
    }

    fn draw_loop(&self) {
        while !self.stop.load(Ordering::Relaxed) {
            std::thread::park_timeout(TICK);
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            if self.start.elapsed() < DELAY {
                continue;
            }
            let mut bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
            let bar = bar.get_or_insert_with(|| self.make_bar());
            let (fraction, message) = self.status();
            if let Some(f) = fraction {
                bar.set_position((f * 1000.0) as u64);
            }
            bar.set_message(message);
            bar.tick();
        }
    }

    fn make_bar(&self) -> ProgressBar {
        let target = ProgressDrawTarget::stderr_with_hz(5);
        let (len, template) = match self.total_bytes {
            Some(_) => (Some(1000), "{bar:30} {msg}"),
            None => (None, "{spinner} {msg}"),
        };
        let bar = ProgressBar::with_draw_target(len, target);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar
    }

    /// The share of the run done (when the input's size is known) and the message: records done,
    /// rate, elapsed time, work units, and an ETA, or what the output waits on.
    fn status(&self) -> (Option<f64>, String) {
        let c = &self.counters;
        let done = c.done.load(Ordering::Relaxed);
        let emitted = c.emitted.load(Ordering::Relaxed);
        let bytes = c.bytes.load(Ordering::Relaxed);
        let finished = c.finished.load(Ordering::Relaxed);
        let (mut nodes, mut conflicts) = (
            c.nodes.load(Ordering::Relaxed),
            c.conflicts.load(Ordering::Relaxed),
        );
        // The item next in line, if it is being worked on and has been for a while.
        let mut waiting = None;
        for (&position, r) in lock(&c.running).iter() {
            nodes += r.work.nodes();
            conflicts += r.work.conflicts();
            let long = r.start.elapsed();
            if position == done && long >= HOLD {
                waiting = Some((r.place.clone(), long, r.work.nodes(), r.work.conflicts()));
            }
        }
        let secs = self.start.elapsed().as_secs_f64();
        // The reader runs ahead of the workers: estimate the number of items in the whole input from
        // the items it has emitted per byte read, and measure progress in finished items.
        let fraction = match self.total_bytes {
            Some(total) if total > 0 && bytes > 0 && emitted > 0 => {
                let estimated = emitted as f64 * total as f64 / bytes as f64;
                Some((done as f64 / estimated).clamp(0.0, 1.0))
            }
            Some(_) => Some(0.0),
            None => None,
        };
        let mut message = format!(
            "{done} {}{}, {:.0}/s, {}",
            self.noun,
            plural(done),
            done as f64 / secs.max(1e-9),
            clock(secs)
        );
        if nodes > 0 {
            message.push_str(&format!(", {} nodes", human(nodes)));
        }
        if conflicts > 0 {
            message.push_str(&format!(", {} conflicts", human(conflicts)));
        }
        match waiting {
            Some((place, long, nodes, conflicts)) => {
                // An ETA from the finished items means nothing while one item holds the output.
                let size = place.n.map_or(String::new(), |n| format!("{n}x{n}, "));
                message.push_str(&format!(
                    "; waiting on {} {} ({size}{}) for {}",
                    self.noun,
                    place.index + 1,
                    place.at(),
                    clock(long.as_secs_f64())
                ));
                if nodes > 0 {
                    message.push_str(&format!(", {} nodes", human(nodes)));
                }
                if conflicts > 0 {
                    message.push_str(&format!(", {} conflicts", human(conflicts)));
                }
                let ready = finished.saturating_sub(done);
                if ready > 0 {
                    message.push_str(&format!(
                        "; {ready} later {}{} ready",
                        self.noun,
                        plural(ready)
                    ));
                }
            }
            None => {
                if let Some(f) = fraction
                    && f > 0.0
                {
                    let eta = secs * (1.0 - f) / f;
                    message.push_str(&format!(", eta {}", clock(eta)));
                }
            }
        }
        (fraction, message)
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `950`, `12k`, `1.2M`, `3.4G`: a count in at most four characters or so.
fn human(n: u64) -> String {
    if n < 10_000 {
        return n.to_string();
    }
    let (size, unit) = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|&(size, _)| n as f64 >= size)
        .unwrap_or((1.0, ""));
    let v = n as f64 / size;
    if v < 10.0 {
        format!("{v:.1}{unit}")
    } else {
        format!("{v:.0}{unit}")
    }
}

/// `42s`, `3m05s`, `2h03m`.
fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inner(total: Option<u64>) -> Inner {
        Inner {
            counters: Counters::default(),
            total_bytes: total,
            noun: "puzzle",
            start: Instant::now() - Duration::from_secs(10),
            bar: Mutex::new(None),
            stop: AtomicBool::new(false),
            thread: Mutex::new(None),
        }
    }

    #[test]
    fn eta_counts_finished_items_not_bytes_read_ahead() {
        // 1,000 bytes in all; the reader has read 500 of them and emitted 50 items (10 bytes each),
        // but only 10 are finished after 10 s: 10 % done, so about 90 s to go.
        let i = inner(Some(1000));
        i.counters.bytes.store(500, Ordering::Relaxed);
        i.counters.emitted.store(50, Ordering::Relaxed);
        i.counters.done.store(10, Ordering::Relaxed);
        let (fraction, message) = i.status();
        let f = fraction.unwrap();
        assert!((f - 0.1).abs() < 1e-9, "{f}");
        assert!(message.contains("eta 1m30s"), "{message}");
        assert!(message.starts_with("10 puzzles, 1/s, 10s"), "{message}");
    }

    /// Runs a search that counts its nodes into this thread's counters; returns how many it made.
    fn search() -> u64 {
        let shape = satdoku::Shape::new(4, 4).unwrap();
        let report = satdoku::Backend::solve(
            &satdoku::DfsBackend::new(),
            &satdoku::Units::standard(shape),
            &satdoku::Grid::empty(shape),
            &satdoku::Limits::count_to(5_000),
        )
        .unwrap();
        report.stats.nodes
    }

    fn place(index: usize, n: usize) -> Place {
        Place {
            index,
            source: "big.txt".into(),
            line: 7,
            n: Some(n),
        }
    }

    #[test]
    fn a_spinner_without_a_size_still_shows_time_and_work() {
        let i = Arc::new(inner(None));
        // A solve on a thread working on an item counts its nodes into the display's counters.
        let progress = Progress {
            inner: Some(Arc::clone(&i)),
            bytes: Arc::default(),
            emitted: Arc::default(),
        };
        let working = progress.working(0, || place(0, 16));
        let made = search();
        // (Just started, whatever the machine's speed: the ETA-or-waiting choice is tested below.)
        lock(&i.counters.running).get_mut(&0).unwrap().start = Instant::now();
        let (_, message) = i.status();
        let nodes = lock(&i.counters.running)[&0].work.nodes();
        // Counted every 256 nodes on a 16x16 grid: all but the last few.
        assert!(nodes > 0 && nodes <= made, "{nodes}");
        assert!(made - nodes < 256);
        assert_eq!(
            message,
            format!("0 puzzles, 0/s, 10s, {} nodes", human(nodes))
        );
        // Once finished, its work is kept in the totals.
        drop(working);
        let (fraction, message) = i.status();
        assert_eq!(fraction, None);
        assert_eq!(
            message,
            format!("0 puzzles, 0/s, 10s, {} nodes", human(nodes))
        );
        assert_eq!(i.counters.finished.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_long_item_that_holds_the_output_is_named_instead_of_an_eta() {
        let i = Arc::new(inner(Some(1000)));
        i.counters.bytes.store(1000, Ordering::Relaxed);
        i.counters.emitted.store(146, Ordering::Relaxed);
        // 95 written; the 96th (position 95) started 41 s ago; 45 after it are finished.
        i.counters.done.store(95, Ordering::Relaxed);
        i.counters.finished.store(140, Ordering::Relaxed);
        let progress = Progress {
            inner: Some(Arc::clone(&i)),
            bytes: Arc::default(),
            emitted: Arc::default(),
        };
        let working = progress.working(95, || place(95, 64));
        let nodes = search();
        lock(&i.counters.running).get_mut(&95).unwrap().start -= Duration::from_secs(41);
        let (_, message) = i.status();
        let counted = lock(&i.counters.running)[&95].work.nodes();
        assert!(
            message.ends_with(&format!(
                "; waiting on puzzle 96 (64x64, big.txt:7) for 41s, {} nodes; \
                 45 later puzzles ready",
                human(counted)
            )),
            "{message}"
        );
        assert!(!message.contains("eta"), "{message}");
        assert!(counted > 0 && counted <= nodes);
        // An item next in line that has only just started leaves the ETA.
        lock(&i.counters.running).get_mut(&95).unwrap().start = Instant::now();
        let (_, message) = i.status();
        assert!(message.contains(", eta "), "{message}");
        assert!(!message.contains("waiting"), "{message}");
        drop(working);
    }

    #[test]
    fn counts_in_short() {
        assert_eq!(human(950), "950");
        assert_eq!(human(9_999), "9999");
        assert_eq!(human(12_345), "12k");
        assert_eq!(human(1_234_567), "1.2M");
        assert_eq!(human(41_000_000), "41M");
        assert_eq!(human(3_400_000_000), "3.4G");
    }

    #[test]
    fn clock_format() {
        assert_eq!(clock(4.4), "4s");
        assert_eq!(clock(185.0), "3m05s");
        assert_eq!(clock(7380.0), "2h03m");
    }
}
