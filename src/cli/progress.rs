//! Progress on standard error for long runs (only on a terminal): a bar with records done, rate and an
//! ETA when the input's size is known, a spinner otherwise; redrawn by its own thread, so that a single
//! long puzzle still shows its elapsed time.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use satdoku::WorkCounters;

/// How long the display waits before drawing: short runs finish before it appears.
pub const DELAY: Duration = Duration::from_millis(500);

/// How often the display is redrawn.
const TICK: Duration = Duration::from_millis(200);

/// Counters shared by the reader, the pipeline and the drawing thread.
#[derive(Default)]
struct Counters {
    /// Input bytes consumed by the reader.
    bytes: Arc<AtomicU64>,
    /// Items the reader has emitted.
    emitted: Arc<AtomicU64>,
    /// Records finished.
    done: AtomicU64,
    /// Work reported by the solves running (search nodes, SAT conflicts).
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
    work: WorkCounters,
}

impl Progress {
    /// No display.
    pub fn disabled() -> Progress {
        Progress {
            inner: None,
            bytes: Arc::default(),
            emitted: Arc::default(),
            work: WorkCounters::default(),
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

    /// Starts a display (its thread draws from [`DELAY`] on).
    fn start(total_bytes: Option<u64>, noun: &'static str) -> Progress {
        let counters = Counters::default();
        let (bytes, emitted, work) = (
            counters.bytes.clone(),
            counters.emitted.clone(),
            counters.work.clone(),
        );
        let inner = Arc::new(Inner {
            counters,
            total_bytes,
            noun,
            start: Instant::now(),
            bar: Mutex::new(None),
            stop: AtomicBool::new(false),
            thread: Mutex::new(None),
        });
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
            work,
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

    /// Makes the solves on this thread count their work for the display (nothing when it is off):
    /// a single long puzzle then shows its nodes or conflicts as it goes.
    pub fn count_work_on_this_thread(&self) {
        if self.inner.is_some() {
            self.work.count_on_this_thread();
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
    /// rate, elapsed time, work units, ETA.
    fn status(&self) -> (Option<f64>, String) {
        let c = &self.counters;
        let done = c.done.load(Ordering::Relaxed);
        let emitted = c.emitted.load(Ordering::Relaxed);
        let bytes = c.bytes.load(Ordering::Relaxed);
        let (nodes, conflicts) = (c.work.nodes(), c.work.conflicts());
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
            if done == 1 { "" } else { "s" },
            done as f64 / secs.max(1e-9),
            clock(secs)
        );
        if nodes > 0 {
            message.push_str(&format!(", {nodes} nodes"));
        }
        if conflicts > 0 {
            message.push_str(&format!(", {conflicts} conflicts"));
        }
        if let Some(f) = fraction
            && f > 0.0
        {
            let eta = secs * (1.0 - f) / f;
            message.push_str(&format!(", eta {}", clock(eta)));
        }
        (fraction, message)
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

    #[test]
    fn a_spinner_without_a_size_still_shows_time_and_work() {
        let i = inner(None);
        // A solve on this thread counts its nodes into the display's counters.
        i.counters.work.count_on_this_thread();
        let shape = satdoku::Shape::new(4, 4).unwrap();
        let report = satdoku::Backend::solve(
            &satdoku::DfsBackend::new(),
            &satdoku::Units::standard(shape),
            &satdoku::Grid::empty(shape),
            &satdoku::Limits::count_to(5_000),
        )
        .unwrap();
        satdoku::WorkCounters::stop_counting_on_this_thread();
        let nodes = i.counters.work.nodes();
        // Counted every 256 nodes on a 16x16 grid: all but the last few.
        assert!(nodes > 0 && nodes <= report.stats.nodes, "{nodes}");
        assert!(report.stats.nodes - nodes < 256);
        let (fraction, message) = i.status();
        assert_eq!(fraction, None);
        assert_eq!(message, format!("0 puzzles, 0/s, 10s, {nodes} nodes"));
    }

    #[test]
    fn clock_format() {
        assert_eq!(clock(4.4), "4s");
        assert_eq!(clock(185.0), "3m05s");
        assert_eq!(clock(7380.0), "2h03m");
    }
}
