//! The backend trait and what a solve returns: `Outcome` (no solution / found / unique / multiple /
//! unknown), `Limits`, `Solutions` (the one place a search's finds become an `Outcome`), `Stats`,
//! the certificate a certifying backend makes with its answer (`Evidence`, `Certification`), and the
//! point at which a search tells its caller it has run long (`Handover`).

use std::cell::{Cell, RefCell};
use std::fmt;
use std::io;
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::grid::{Grid, Shape};
use crate::units::Units;
use crate::verify::Violation;

/// How far a backend may go on one puzzle: how many solutions to count, and a node/conflict budget and
/// a timeout that each apply to one `solve` call (so two backends given the same limits each get the
/// whole of them).
///
/// Built with [`Limits::first`], [`Limits::unique`] or [`Limits::count_to`] and the `with_*` methods;
/// the solution limit is at least 1 by construction.
///
/// ```
/// use std::time::Duration;
/// use satdoku::Limits;
/// let limits = Limits::count_to(0).with_timeout(Some(Duration::MAX));
/// assert_eq!(limits.max_solutions(), 1);
/// assert!(limits.deadline(std::time::Instant::now()).is_none()); // too far away to matter
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    max_solutions: NonZeroU64,
    budget: Option<u64>,
    timeout: Option<Duration>,
}

impl Limits {
    /// Stop at the first solution, no budget, no timeout.
    pub fn first() -> Limits {
        Limits::count_to(1)
    }

    /// Count up to 2 solutions: tells no solution / unique / multiple.
    pub fn unique() -> Limits {
        Limits::count_to(2)
    }

    /// Count up to `k` solutions (`k` is raised to at least 1), no budget, no timeout.
    pub fn count_to(k: u64) -> Limits {
        Limits {
            max_solutions: NonZeroU64::new(k).unwrap_or(NonZeroU64::MIN),
            budget: None,
            timeout: None,
        }
    }

    /// These limits with a budget of search nodes (native backend) or conflicts (SAT solvers that
    /// count them), per solve; `None` for no budget.
    pub fn with_budget(self, budget: Option<u64>) -> Limits {
        Limits { budget, ..self }
    }

    /// These limits with a timeout per solve, counted from the start of each `solve` call; `None` for
    /// none. Any duration is accepted: one too long to represent as an instant means no deadline.
    pub fn with_timeout(self, timeout: Option<Duration>) -> Limits {
        Limits { timeout, ..self }
    }

    /// The solution limit (at least 1): 1 = first solution only, 2 = uniqueness.
    pub fn max_solutions(&self) -> u64 {
        self.max_solutions.get()
    }

    /// Whether solutions are counted (the limit is above 1), so that several solutions is an answer
    /// of its own (`multiple`) rather than one of them.
    pub fn counting(&self) -> bool {
        self.max_solutions() > 1
    }

    /// The node or conflict budget per solve, if any.
    pub fn budget(&self) -> Option<u64> {
        self.budget
    }

    /// The timeout per solve, if any.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The deadline of a solve that starts at `start`: `None` without a timeout, or when the timeout
    /// reaches beyond what an [`Instant`] can represent (it then never expires).
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.timeout.and_then(|t| start.checked_add(t))
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::first()
    }
}

/// A point in a search at which its caller wants to hear of it, once, while the search goes on:
/// after [`Handover::nodes`] search nodes or [`Handover::after`] of the searching thread's CPU
/// time ([`thread_time`]), whichever comes first. A search that takes one
/// ([`Backend::solve_handing_over`]) looks at it where it looks at the clock, so the call comes at
/// most one clock interval late (16 to 1,024 nodes); its CPU time counts from its first clock check
/// past the root (so that a search settled within one interval, most puzzles, never reads the
/// thread's clock, which costs a system call). The auto backend starts its SAT phase there, beside
/// a native search that keeps the work it has done.
///
/// CPU time rather than wall-clock time: a busy machine slows the search's clock, not the point
/// in its work where it hands over.
///
/// ```
/// use std::cell::Cell;
/// use std::time::Duration;
/// use satdoku::{Backend, DfsBackend, Grid, Handover, Limits, Shape, Units};
///
/// let shape = Shape::new(2, 2).unwrap();
/// let calls = Cell::new(0);
/// let hook = || calls.set(calls.get() + 1);
/// let handover = Handover::new(0, Duration::MAX, &hook);
/// // Counting the 288 solutions of the empty 4x4 grid passes node 0: one call, and on to the end.
/// let report = DfsBackend::new()
///     .solve_handing_over(&Units::standard(shape), &Grid::empty(shape), &Limits::count_to(300), &handover)
///     .unwrap()
///     .unwrap();
/// assert_eq!((report.outcome.count(), calls.get()), (288, 1));
/// assert!(handover.fired());
/// ```
pub struct Handover<'a> {
    nodes: u64,
    after: Duration,
    call: &'a dyn Fn(),
    fired: Cell<bool>,
    /// The thread's CPU time at the search's first clock check past its root.
    since: Cell<Option<Duration>>,
    /// Past the point, whether to put the call off ([`Handover::putting_off`]).
    wait: Option<&'a dyn Fn(u64, Duration, f64) -> HandoverCall>,
    /// The search's estimate of the share of its tree done, if it makes one.
    progress: Cell<Option<f64>>,
    /// Whether the search was asked to stop at the call ([`HandoverCall::CallAndStop`]).
    quit: Cell<bool>,
    /// After the call, what hears of the search's progress ([`Handover::watched_by`]).
    watch: Option<&'a dyn Fn(Duration, f64)>,
    /// When the watch may next hear of it.
    next_watch: Cell<Option<Instant>>,
}

/// What a handover's judge ([`Handover::putting_off`]) says at a clock check past its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HandoverCall {
    /// Not yet: ask again at the next check.
    Wait,
    /// Call the hook; the search goes on.
    Call,
    /// Call the hook, and the search stops (as if out of its budget).
    CallAndStop,
}

impl<'a> Handover<'a> {
    /// A handover that calls `call` once the search has visited `nodes` nodes or run for `after`
    /// of its thread's CPU time.
    pub fn new(nodes: u64, after: Duration, call: &'a dyn Fn()) -> Handover<'a> {
        Handover {
            nodes,
            after,
            call,
            fired: Cell::new(false),
            since: Cell::new(None),
            wait: None,
            progress: Cell::new(None),
            quit: Cell::new(false),
            watch: None,
            next_watch: Cell::new(None),
        }
    }

    /// This handover, telling `watch(cpu, progress)` after the call, at most every
    /// [`Handover::WATCH_EVERY`] (at the search's clock checks), of the thread's CPU time since the
    /// first check past the root and the search's estimate of the share of its tree done (see
    /// [`Handover::putting_off`]): the auto backend pauses its SAT phase by it while the native
    /// search projects to finish soon. A search that makes no estimate never calls it.
    pub fn watched_by(self, watch: &'a dyn Fn(Duration, f64)) -> Handover<'a> {
        Handover {
            watch: Some(watch),
            ..self
        }
    }

    /// How often, at most, the watch of a handover hears of the search after the call
    /// ([`Handover::watched_by`]).
    pub const WATCH_EVERY: Duration = Duration::from_millis(10);

    /// This handover, judged at each clock check past its point by `wait(nodes, cpu, progress)`
    /// ([`HandoverCall`]): the nodes, the thread's CPU time since the first check past the root (or
    /// since the point), and the search's estimate of the share of its tree already done (0 to 1:
    /// the closed subtrees' shares summed, the branches of a node sharing it alike; Kilby,
    /// Slaney, Thiébaux and Walsh, "Estimating search tree size", AAAI 2006). A search that makes
    /// no estimate calls the hook at the point, unjudged.
    pub fn putting_off(self, wait: &'a dyn Fn(u64, Duration, f64) -> HandoverCall) -> Handover<'a> {
        Handover {
            wait: Some(wait),
            ..self
        }
    }

    /// The search's latest estimate of the share of its tree done, if it makes one.
    pub fn progress(&self) -> Option<f64> {
        self.progress.get()
    }

    /// Records the search's estimate of the share of its tree done.
    pub(crate) fn note_progress(&self, done: f64) {
        self.progress.set(Some(done));
    }

    /// The node count after which the hook is called.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The searching thread's CPU time, from the search's first clock check past its root, after
    /// which the hook is called.
    pub fn after(&self) -> Duration {
        self.after
    }

    /// Calls the hook, unless it was called before.
    pub fn fire(&self) {
        if !self.fired.replace(true) {
            (self.call)();
        }
    }

    /// Whether the hook was called.
    pub fn fired(&self) -> bool {
        self.fired.get()
    }

    /// At a search's clock check after `nodes` nodes: fires the hook if the search is past its
    /// node count or its CPU time (the thread's clock is read only past the root, and only until
    /// the hook has fired).
    pub(crate) fn look(&self, nodes: u64) {
        if self.fired() {
            return self.tell_watch();
        }
        if nodes >= self.nodes {
            return self.fire_unless_waiting(nodes);
        }
        if nodes == 0 || self.after == Duration::MAX {
            return;
        }
        if self.cpu_since_first_check() >= self.after {
            self.fire_unless_waiting(nodes);
        }
    }

    /// The thread's CPU time since the search's first clock check past its root (this one, if it
    /// is the first).
    fn cpu_since_first_check(&self) -> Duration {
        let now = thread_time();
        let since = *self.since.get().get_or_insert(now);
        self.since.set(Some(since));
        now.saturating_sub(since)
    }

    /// After the call: the watch, if any, hears of the search's progress, at most every
    /// [`Handover::WATCH_EVERY`] (the wall clock is read at each look, the thread's CPU time only
    /// then).
    fn tell_watch(&self) {
        let (Some(watch), Some(done)) = (self.watch, self.progress.get()) else {
            return;
        };
        let now = Instant::now();
        if self.next_watch.get().is_some_and(|next| now < next) {
            return;
        }
        self.next_watch.set(Some(now + Handover::WATCH_EVERY));
        watch(self.cpu_since_first_check(), done);
    }

    /// Whether the search was asked to stop at the call ([`HandoverCall::CallAndStop`]).
    pub fn stopping(&self) -> bool {
        self.quit.get()
    }

    /// Past the point: the call, unless the judge puts it off given the search's progress.
    fn fire_unless_waiting(&self, nodes: u64) {
        if let (Some(wait), Some(done)) = (self.wait, self.progress.get()) {
            match wait(nodes, self.cpu_since_first_check(), done) {
                HandoverCall::Wait => return,
                HandoverCall::Call => {}
                HandoverCall::CallAndStop => self.quit.set(true),
            }
        }
        self.fire();
    }
}

impl fmt::Debug for Handover<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handover")
            .field("nodes", &self.nodes)
            .field("after", &self.after)
            .field("fired", &self.fired.get())
            .finish_non_exhaustive()
    }
}

/// The calling thread's CPU time (unix: `CLOCK_THREAD_CPUTIME_ID`), or a monotonic clock where
/// the platform has no thread clock. Only differences mean anything.
pub fn thread_time() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Proven: no grid satisfies the givens and units.
    NoSolution,
    /// A solution, found with a solution limit of 1: whether it is unique was not asked.
    Found(Grid),
    /// The only solution (proven, solution limit of 2 or more).
    Unique(Grid),
    /// At least two solutions.
    Multiple {
        /// Two different solutions (the first two found).
        solutions: [Box<Grid>; 2],
        /// Solutions counted: exact when `complete`, else the limit that was reached.
        count: u64,
        /// Whether the search finished, so that `count` is the exact number of solutions.
        complete: bool,
    },
    /// A budget or deadline ran out before the question was answered.
    Unknown {
        /// Solutions found before giving up (fewer than asked for).
        count: u64,
        /// The first solution found, if any.
        first: Option<Box<Grid>>,
    },
}

/// The status words users see, in the CLI and in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// `solved`: a solution found, uniqueness not asked.
    Solved,
    /// `unique`.
    Unique,
    /// `multiple`.
    Multiple,
    /// `none`.
    None,
    /// `unknown`: a limit was hit.
    Unknown,
}

impl Status {
    /// The word: `solved`, `unique`, `multiple`, `none`, `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::None => "none",
            Status::Unknown => "unknown",
        }
    }
}

impl Outcome {
    /// The status word of this outcome.
    pub fn status(&self) -> Status {
        match self {
            Outcome::NoSolution => Status::None,
            Outcome::Found(_) => Status::Solved,
            Outcome::Unique(_) => Status::Unique,
            Outcome::Multiple { .. } => Status::Multiple,
            Outcome::Unknown { .. } => Status::Unknown,
        }
    }

    /// Whether this outcome answers the question `limits` ask: not [`Outcome::Unknown`], and not a
    /// count of several solutions cut short below the solution limit (which
    /// [`Solutions::finish`] never makes, but a [`Backend`] of another crate might).
    pub fn settles(&self, limits: &Limits) -> bool {
        match self {
            Outcome::Unknown { .. } => false,
            Outcome::Multiple {
                count, complete, ..
            } => *complete || *count >= limits.max_solutions(),
            _ => true,
        }
    }

    /// The number of solutions found.
    pub fn count(&self) -> u64 {
        match self {
            Outcome::NoSolution => 0,
            Outcome::Found(_) | Outcome::Unique(_) => 1,
            Outcome::Multiple { count, .. } | Outcome::Unknown { count, .. } => *count,
        }
    }

    /// The solution to print: the one found or the unique one (not one of several).
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Outcome::Found(g) | Outcome::Unique(g) => Some(g),
            _ => None,
        }
    }

    /// Every grid this outcome carries (0, 1 or 2), for verification: without building a list.
    pub fn grids(&self) -> impl Iterator<Item = &Grid> + '_ {
        let (a, b): (Option<&Grid>, Option<&Grid>) = match self {
            Outcome::NoSolution => (None, None),
            Outcome::Found(g) | Outcome::Unique(g) => (Some(g), None),
            Outcome::Multiple { solutions, .. } => (Some(&solutions[0]), Some(&solutions[1])),
            Outcome::Unknown { first, .. } => (first.as_deref(), None),
        };
        a.into_iter().chain(b)
    }
}

/// What a search has found so far: the first two solutions and how many it has counted. Backends feed
/// it each solution they find and ask it when to stop; [`Solutions::finish`] is the one place where
/// counts become an [`Outcome`], so every backend maps them to statuses alike. It keeps two grids
/// whatever the count.
#[derive(Clone, Debug)]
pub struct Solutions {
    max: u64,
    first: Option<Grid>,
    second: Option<Grid>,
    count: u64,
}

impl Solutions {
    /// Nothing found yet, counting up to the solution limit of `limits`.
    pub fn new(limits: &Limits) -> Solutions {
        Solutions {
            max: limits.max_solutions(),
            first: None,
            second: None,
            count: 0,
        }
    }

    /// Counts a solution, built by `make` only if it is one of the first two (the others are not
    /// kept). Returns whether the solution limit is now reached, so the search must stop.
    pub fn add_with(&mut self, make: impl FnOnce() -> Grid) -> bool {
        if self.count < 2 {
            let grid = make();
            if self.count == 0 {
                self.first = Some(grid);
            } else {
                self.second = Some(grid);
            }
        }
        self.count = self.count.saturating_add(1);
        self.is_full()
    }

    /// Counts `solution` (see [`Solutions::add_with`]).
    pub fn add(&mut self, solution: Grid) -> bool {
        self.add_with(|| solution)
    }

    /// Solutions counted so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether the solution limit is reached.
    pub fn is_full(&self) -> bool {
        self.count >= self.max
    }

    /// The outcome of a search that found these solutions and then either finished or reached the
    /// solution limit (`gave_up == false`), or gave up on a budget or deadline (`gave_up == true`).
    ///
    /// A search that gave up before reaching the solution limit has not answered the question
    /// asked, whatever it found: its outcome is [`Outcome::Unknown`] with the count so far (a
    /// count of 2 when 6 were asked for is not an answer). So an [`Outcome::Multiple`] count is
    /// either exact (`complete`) or the solution limit itself.
    pub fn finish(self, gave_up: bool) -> Outcome {
        let complete = !gave_up && self.count < self.max;
        match (self.first, self.second) {
            (first, _) if gave_up && self.count < self.max => Outcome::Unknown {
                count: self.count,
                first: first.map(Box::new),
            },
            (Some(a), Some(b)) => Outcome::Multiple {
                solutions: [Box::new(a), Box::new(b)],
                count: self.count,
                complete,
            },
            (None, _) => Outcome::NoSolution,
            (Some(a), None) if self.max == 1 => Outcome::Found(a),
            (Some(a), None) => Outcome::Unique(a),
        }
    }
}

/// Counters that solves add their work to now and then (the native backend every 16 to 1,024
/// nodes, when it looks at the clock; the SAT backend after each solver call), so that another
/// thread can show how a long solve is getting on. Clones share the counters.
///
/// ```
/// use satdoku::{Backend, DfsBackend, Grid, Limits, Shape, Units, WorkCounters};
/// let counters = WorkCounters::default();
/// counters.count_on_this_thread();
/// let shape = Shape::new(3, 3).unwrap();
/// DfsBackend::new().solve(&Units::standard(shape), &Grid::empty(shape), &Limits::count_to(5_000)).unwrap();
/// assert!(counters.nodes() > 0);
/// WorkCounters::stop_counting_on_this_thread();
/// ```
#[derive(Clone, Debug, Default)]
pub struct WorkCounters {
    nodes: Arc<AtomicU64>,
    conflicts: Arc<AtomicU64>,
}

impl WorkCounters {
    /// Makes every solve on this thread (and the threads a solve starts) add to these counters.
    pub fn count_on_this_thread(&self) {
        WATCH.with(|w| w.borrow_mut().work = Some(self.clone()));
    }

    /// Solves on this thread no longer count their work.
    pub fn stop_counting_on_this_thread() {
        WATCH.with(|w| w.borrow_mut().work = None);
    }

    /// The counters solves on this thread add to, if any.
    pub(crate) fn on_this_thread() -> Option<WorkCounters> {
        WATCH.with(|w| w.borrow().work.clone())
    }

    /// Search nodes counted so far (native backend).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// SAT conflicts counted so far (solvers that report them: CaDiCaL).
    pub fn conflicts(&self) -> u64 {
        self.conflicts.load(Ordering::Relaxed)
    }
}

/// Adds `k` search nodes to this thread's [`WorkCounters`], if any.
#[inline]
pub(crate) fn add_nodes(k: u64) {
    WATCH.with(|w| {
        if let Some(c) = &w.borrow().work {
            c.nodes.fetch_add(k, Ordering::Relaxed);
        }
    });
}

/// Adds `k` SAT conflicts to this thread's [`WorkCounters`], if any.
#[cfg_attr(not(feature = "cadical"), allow(dead_code))]
pub(crate) fn add_conflicts(k: u64) {
    WATCH.with(|w| {
        if let Some(c) = &w.borrow().work {
            c.conflicts.fetch_add(k, Ordering::Relaxed);
        }
    });
}

/// Takes `k` SAT conflicts back from this thread's [`WorkCounters`], if any (a solver that shows an
/// estimate while it searches corrects it when it knows the count).
#[cfg_attr(not(feature = "cadical"), allow(dead_code))]
pub(crate) fn take_back_conflicts(k: u64) {
    WATCH.with(|w| {
        if let Some(c) = &w.borrow().work {
            c.conflicts.fetch_sub(k, Ordering::Relaxed);
        }
    });
}

/// What another thread may see of, or ask of, the solve running on this thread.
#[derive(Default)]
struct Watch {
    /// Setting any of them stops the solve ([`stoppable`]): a race's own flag, and any flags of
    /// the caller's ([`stop_when`]) that the race's solves must still obey.
    stop: Vec<Arc<AtomicBool>>,
    /// Where the solve counts its work.
    work: Option<WorkCounters>,
    /// While this is set, the solve waits where it looks at its stop flags ([`pause_when`]).
    pause: Option<Arc<AtomicBool>>,
}

thread_local! {
    static WATCH: RefCell<Watch> = RefCell::new(Watch::default());
}

/// Runs `f` (a solve) so that setting any of `flags` stops it as if its deadline had passed: the
/// auto backend races its two phases on two threads and stops the one that lost. Backends look at
/// the flags wherever they look at the clock ([`stop_requested`]). `flags` and `work` become this
/// thread's meanwhile (`work`: those of the thread that started the race); a race passes on the
/// flags of the thread that started it ([`stop_flags`]) with its own.
pub(crate) fn stoppable<R>(
    flags: Vec<Arc<AtomicBool>>,
    work: Option<WorkCounters>,
    f: impl FnOnce() -> R,
) -> R {
    /// Puts this thread's previous watch back when the solve ends, even by a panic, so that no
    /// later solve on this thread sees this flag.
    struct Restore(Option<Watch>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(previous) = self.0.take() {
                WATCH.with(|w| *w.borrow_mut() = previous);
            }
        }
    }
    let watch = Watch {
        stop: flags,
        work,
        pause: None,
    };
    let previous = WATCH.with(|w| std::mem::replace(&mut *w.borrow_mut(), watch));
    let _restore = Restore(Some(previous));
    f()
}

/// The stop flags of the solve running on this thread (see [`stoppable`]).
pub(crate) fn stop_flags() -> Vec<Arc<AtomicBool>> {
    WATCH.with(|w| w.borrow().stop.clone())
}

/// Adds `flag` to the stop flags of the solve running on this thread, from now until the guard
/// is dropped (even by a panic): a race that starts in the middle of a search (the auto
/// backend's handover) makes the search stoppable by its flag only then.
pub(crate) fn also_stop_when(flag: Arc<AtomicBool>) -> AlsoStop {
    WATCH.with(|w| w.borrow_mut().stop.push(Arc::clone(&flag)));
    AlsoStop(flag)
}

/// Takes its flag out of this thread's stop flags when dropped ([`also_stop_when`]).
pub(crate) struct AlsoStop(Arc<AtomicBool>);

impl Drop for AlsoStop {
    fn drop(&mut self) {
        WATCH.with(|w| {
            let stop = &mut w.borrow_mut().stop;
            if let Some(i) = stop.iter().rposition(|f| Arc::ptr_eq(f, &self.0)) {
                stop.remove(i);
            }
        });
    }
}

/// Runs `f` so that every solve it makes on this thread stops once `flag` is set, as if its
/// deadline had passed: the solve returns [`Outcome::Unknown`] (with what it found so far), so a
/// caller can stop work in flight from another thread — a batch that its user interrupts, say.
/// It holds for the solves that `f` makes on this thread, and for the threads those start (the
/// auto backend's race).
///
/// The native backend looks at `flag` wherever it looks at the clock (every 16 to 1,024 search
/// nodes), the SAT solvers while they search (varisat through its proof output, CaDiCaL through
/// its terminator).
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::AtomicBool;
/// use satdoku::{Backend, DfsBackend, Grid, Limits, Shape, Status, Units, stop_when};
///
/// let shape = Shape::new(3, 3).unwrap();
/// let units = Units::standard(shape);
/// let flag = Arc::new(AtomicBool::new(true)); // set from another thread, in real use
/// // Counting every 9x9 grid would take years; the flag stops the search at its first look.
/// let report = stop_when(&flag, || {
///     DfsBackend::new().solve(&units, &Grid::empty(shape), &Limits::count_to(u64::MAX))
/// })
/// .unwrap();
/// assert_eq!(report.outcome.status(), Status::Unknown);
/// ```
pub fn stop_when<R>(flag: &Arc<AtomicBool>, f: impl FnOnce() -> R) -> R {
    let mut flags = stop_flags();
    flags.push(Arc::clone(flag));
    stoppable(flags, WorkCounters::on_this_thread(), f)
}

/// Whether the solves on this thread have stop flags to watch ([`stop_when`]): the SAT solvers
/// then look at them even without a deadline.
pub(crate) fn stop_watched() -> bool {
    WATCH.with(|w| !w.borrow().stop.is_empty())
}

/// Makes the solve running on this thread wait, while `flag` is set, wherever it looks at its stop
/// flags ([`stop_requested`]), until the flag is cleared or a stop flag set; from now until the
/// guard is dropped (even by a panic). A paused thread sleeps: the auto backend pauses its SAT
/// phase so while the native search beside it projects to finish first.
pub(crate) fn pause_when(flag: Arc<AtomicBool>) -> PauseWhen {
    let previous = WATCH.with(|w| w.borrow_mut().pause.replace(flag));
    PauseWhen(previous)
}

/// Puts back this thread's previous pause flag when dropped ([`pause_when`]).
pub(crate) struct PauseWhen(Option<Arc<AtomicBool>>);

impl Drop for PauseWhen {
    fn drop(&mut self) {
        WATCH.with(|w| w.borrow_mut().pause = self.0.take());
    }
}

/// How long a paused solve sleeps between looks at its flags ([`pause_when`]).
const PAUSED_SLEEP: Duration = Duration::from_millis(2);

/// Whether the solve running on this thread was asked to stop ([`stoppable`]); while it is paused
/// ([`pause_when`]), this waits.
#[inline]
pub(crate) fn stop_requested() -> bool {
    WATCH.with(|w| {
        let w = w.borrow();
        let stopped = || w.stop.iter().any(|f| f.load(Ordering::Relaxed));
        if let Some(pause) = &w.pause {
            while pause.load(Ordering::Acquire) && !stopped() {
                std::thread::sleep(PAUSED_SLEEP);
            }
        }
        stopped()
    })
}

/// Whether a solve with this deadline must stop now: the deadline has passed, or it was asked to.
#[inline]
pub(crate) fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d) || stop_requested()
}

/// Work done by a backend on one puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes visited (DFS: states propagated; SAT: solver calls).
    pub nodes: u64,
    /// Branching decisions (DFS: guesses; SAT: decisions, when the solver reports them).
    pub guesses: u64,
    /// SAT conflicts, when known.
    pub conflicts: u64,
    /// Variables in the formula (SAT only).
    pub variables: u64,
    /// Clauses in the formula (SAT only).
    pub clauses: u64,
    /// The backend that produced the answer, when a backend hands puzzles to others (the auto
    /// backend: `dfs` or `sat`); `None` for a backend that answers itself.
    pub answered_by: Option<&'static str>,
}

/// An outcome with the work it took, and its certificate when the backend made one as it answered.
///
/// Built with [`Report::new`] (no certificate) by backends that only answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// What was found.
    pub outcome: Outcome,
    /// How much work it took.
    pub stats: Stats,
    /// For a backend that certifies as it answers (the SAT backend under `--certify`): the
    /// certificate of a `unique` or `none` outcome, or why it has none; `None` otherwise. It
    /// travels with the outcome through every wrapper; one that changes the outcome (a test's
    /// fault injection) leaves it as it was, so [`Certification::is_about`] tells whether it is
    /// about the outcome in hand. Boxed: it is rare, and a small `Report` is cheap to move.
    pub certificate: Option<Box<Certification>>,
}

impl Report {
    /// `outcome` with the work it took, without certificate.
    pub fn new(outcome: Outcome, stats: Stats) -> Report {
        Report {
            outcome,
            stats,
            certificate: None,
        }
    }
}

/// Evidence that an answer is right which anyone can check without trusting the backend that
/// found it: for the SAT backend, a [`Certificate`](crate::sat::Certificate) (the plain CNF of the
/// puzzle and a DRAT proof that it is unsatisfiable). Defined here, below the backends, so that a
/// [`Report`] can carry it whichever backend made it.
pub trait Evidence: fmt::Debug + Send + Sync {
    /// Whether this proves `outcome` ([`Outcome::Unique`] with its solution, or
    /// [`Outcome::NoSolution`]) of `puzzle` under `units`.
    fn proves(&self, units: &Units, puzzle: &Grid, outcome: &Outcome) -> bool;

    /// Checks it with a checker that shares no code with the backends.
    ///
    /// # Errors
    /// Why it does not check (for a DRAT proof: the first lemma that does not follow, or no
    /// refutation at all).
    fn check(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>>;

    /// Writes it as files `name.*` in `dir` (`name` a plain file name) and returns their paths.
    ///
    /// # Errors
    /// An I/O error, or [`io::ErrorKind::InvalidInput`] for a name that is not a plain file name.
    fn write_files(&self, dir: &Path, name: &str) -> io::Result<Vec<PathBuf>>;
}

/// What a certifying backend made of the certificate of its answer ([`Report::certificate`]).
#[derive(Clone, Debug)]
pub enum Certification {
    /// The certificate, not yet checked ([`Evidence::check`]).
    Made(Arc<dyn Evidence>),
    /// The answer is `unique` with `solution` (or `none`, for `None`) but has no certificate: a
    /// limit ran out before the proof was complete. Why, in words.
    Missing {
        /// The unique solution claimed; `None` for a claim of no solution.
        solution: Option<Grid>,
        /// Why there is no certificate.
        reason: String,
    },
}

impl Certification {
    /// Whether this is about `outcome` of `puzzle` under `units`: a certificate that proves it, or
    /// the reason why the same claim has none.
    pub fn is_about(&self, units: &Units, puzzle: &Grid, outcome: &Outcome) -> bool {
        match self {
            Certification::Made(evidence) => evidence.proves(units, puzzle, outcome),
            Certification::Missing { solution, .. } => {
                matches!(outcome, Outcome::Unique(_) | Outcome::NoSolution)
                    && outcome.solution() == solution.as_ref()
            }
        }
    }
}

impl PartialEq for Certification {
    /// The same certificate (not an equal one), or the same reason for the same claim.
    fn eq(&self, other: &Certification) -> bool {
        match (self, other) {
            (Certification::Made(a), Certification::Made(b)) => Arc::ptr_eq(a, b),
            (
                Certification::Missing { solution, reason },
                Certification::Missing {
                    solution: s,
                    reason: r,
                },
            ) => (solution, reason) == (s, r),
            _ => false,
        }
    }
}

impl Eq for Certification {}

/// Why a backend could not attempt a puzzle (as opposed to finding it has no solution).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// The puzzle and the unit list are for different shapes.
    #[error("puzzle shape {puzzle} does not match unit list shape {units}")]
    ShapeMismatch {
        /// The puzzle's shape.
        puzzle: Shape,
        /// The unit list's shape.
        units: Shape,
    },
    /// The backend does not handle grids this large.
    #[error("the {backend} backend supports grids up to {max}x{max}, this one is {n}x{n}")]
    TooLarge {
        /// Backend name.
        backend: &'static str,
        /// Grid side.
        n: usize,
        /// Largest side supported.
        max: usize,
    },
    /// The formula would exceed the memory budget.
    #[error(
        "the {encoding} encoding of {n}x{n} grids needs about {clauses} clauses, over the budget of {budget}; {hint}"
    )]
    FormulaTooLarge {
        /// Encoding name.
        encoding: String,
        /// Grid side.
        n: usize,
        /// Estimated clause count.
        clauses: u64,
        /// Budget in clauses.
        budget: u64,
        /// What to use instead.
        hint: String,
    },
    /// The backend cannot take these rules in its configuration (e.g. a cage with more digit
    /// combinations than the combinations encoding lists).
    #[error("the {backend} backend cannot take this puzzle: {reason}")]
    Unsupported {
        /// Backend name.
        backend: &'static str,
        /// Why, and what to do instead.
        reason: String,
    },
    /// The backend returned a grid that the independent verifier rejects: a bug in that backend,
    /// caught before anyone sees the grid (see [`Verified`](crate::Verified)).
    #[error("internal error: the {backend} backend returned an invalid grid: {violation}")]
    InvalidAnswer {
        /// Backend name.
        backend: &'static str,
        /// The first rule the grid breaks.
        violation: Violation,
    },
    /// The backend claimed several solutions but returned the same grid twice.
    #[error(
        "internal error: the {backend} backend claimed several solutions but returned one grid twice"
    )]
    RepeatedSolution {
        /// Backend name.
        backend: &'static str,
    },
}

/// A way of solving puzzles. The CLI and the cross-check depend on this trait only.
///
/// Implementations share the grid and unit model with each other and nothing else.
pub trait Backend: Send + Sync {
    /// A short name for reports: `dfs`, `sat`.
    fn name(&self) -> &'static str;

    /// Solves `puzzle` under `units` within `limits`.
    ///
    /// # Errors
    /// [`SolveError`] when the backend cannot attempt this puzzle (wrong shape, too large); a puzzle
    /// without solution is `Ok` with [`Outcome::NoSolution`].
    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError>;

    /// [`Backend::solve`], calling `handover`'s hook once when the search passes its node count
    /// or its time, and going on: the auto backend starts its SAT phase there, and stops this
    /// search through the stop flags ([`stop_when`]) if the SAT phase settles the puzzle first.
    ///
    /// `None` (the default) for a backend that takes no handover: it has done nothing, and the
    /// caller solves otherwise (the auto backend: a first phase within a node budget, then both
    /// phases from the start).
    ///
    /// # Errors
    /// As [`Backend::solve`].
    fn solve_handing_over(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        handover: &Handover<'_>,
    ) -> Option<Result<Report, SolveError>> {
        let _ = (units, puzzle, limits, handover);
        None
    }
}

impl<B: Backend + ?Sized> Backend for Box<B> {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        (**self).solve(units, puzzle, limits)
    }

    fn solve_handing_over(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        handover: &Handover<'_>,
    ) -> Option<Result<Report, SolveError>> {
        (**self).solve_handing_over(units, puzzle, limits, handover)
    }
}

impl<B: Backend + ?Sized> Backend for &B {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        (**self).solve(units, puzzle, limits)
    }

    fn solve_handing_over(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        handover: &Handover<'_>,
    ) -> Option<Result<Report, SolveError>> {
        (**self).solve_handing_over(units, puzzle, limits, handover)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every answer's `Report` moves through the wrappers by value (auto, verification, the CLI):
    /// small enough to be copied inline (no `memcpy` call), its rare certificate boxed.
    #[test]
    fn a_report_is_small() {
        assert!(size_of::<Report>() <= 128, "{} bytes", size_of::<Report>());
    }

    fn g(v: u16) -> Grid {
        let s = Shape::new(2, 2).unwrap();
        let mut vals = vec![0; 16];
        vals[0] = v;
        Grid::from_values(s, vals).unwrap()
    }

    #[test]
    fn a_handover_counts_the_searchs_cpu_time_from_its_first_check_past_the_root() {
        let calls = Cell::new(0);
        let hook = || calls.set(calls.get() + 1);
        // Its time is a microsecond: the root's check never fires it, the first check past the
        // root only starts its clock, and the next after a millisecond of this thread's CPU does.
        let h = Handover::new(u64::MAX, Duration::from_micros(1), &hook);
        h.look(0);
        assert_eq!((calls.get(), h.since.get()), (0, None));
        h.look(16);
        let since = h.since.get().expect("the clock started");
        if calls.get() == 0 {
            while thread_time() < since + Duration::from_millis(1) {
                std::hint::black_box(g(1));
            }
            h.look(32);
        }
        assert_eq!(calls.get(), 1);
        h.look(48);
        assert_eq!(calls.get(), 1, "once");
        // By nodes, at the root too; a handover with no time never reads the clock.
        let h = Handover::new(16, Duration::MAX, &hook);
        h.look(0);
        assert_eq!(calls.get(), 1);
        h.look(16);
        assert_eq!((calls.get(), h.since.get()), (2, None));
        let h = Handover::new(0, Duration::MAX, &hook);
        h.look(0);
        assert_eq!(calls.get(), 3);
    }

    #[test]
    fn a_judged_handover_calls_when_its_judge_says_so() {
        let calls = Cell::new(0);
        let hook = || calls.set(calls.get() + 1);
        let judge = |n: u64, _: Duration, done: f64| match (n, done) {
            (..32, _) => HandoverCall::Wait,
            (_, 0.5) => HandoverCall::CallAndStop,
            _ => HandoverCall::Call,
        };
        // A search that makes no estimate is not judged: the call at the point.
        let h = Handover::new(16, Duration::MAX, &hook).putting_off(&judge);
        h.look(16);
        assert_eq!((calls.get(), h.stopping()), (1, false));
        // Judged: put off, then called, and the search asked to stop.
        let h = Handover::new(16, Duration::MAX, &hook).putting_off(&judge);
        h.note_progress(0.5);
        h.look(16);
        assert_eq!((calls.get(), h.fired(), h.stopping()), (1, false, false));
        h.look(32);
        assert_eq!(
            (calls.get(), h.stopping(), h.progress()),
            (2, true, Some(0.5))
        );
        let h = Handover::new(16, Duration::MAX, &hook).putting_off(&judge);
        h.note_progress(0.25);
        h.look(48);
        assert_eq!((calls.get(), h.stopping()), (3, false));
    }

    fn finish(limits: &Limits, found: Vec<Grid>, gave_up: bool) -> Outcome {
        let mut s = Solutions::new(limits);
        for grid in found {
            s.add(grid);
        }
        s.finish(gave_up)
    }

    #[test]
    fn statuses_from_counts() {
        let first = Limits::first();
        let two = Limits::unique();
        assert_eq!(finish(&first, vec![], false).status(), Status::None);
        assert_eq!(finish(&first, vec![g(1)], false).status(), Status::Solved);
        assert_eq!(finish(&two, vec![g(1)], false).status(), Status::Unique);
        let m = finish(&two, vec![g(1), g(2)], false);
        assert_eq!(m.status(), Status::Multiple);
        assert!(matches!(
            m,
            Outcome::Multiple {
                count: 2,
                complete: false,
                ..
            }
        ));
        let m5 = finish(&Limits::count_to(5), vec![g(1), g(2), g(3)], false);
        assert!(matches!(
            m5,
            Outcome::Multiple {
                count: 3,
                complete: true,
                ..
            }
        ));
        assert_eq!(finish(&two, vec![g(1)], true).status(), Status::Unknown);
        assert_eq!(finish(&first, vec![], true).status(), Status::Unknown);
        // A first solution answers a first-solution question even if a limit then ran out.
        assert_eq!(finish(&first, vec![g(1)], true).status(), Status::Solved);
        // Two solutions of the nine asked for, then a budget ran out: the count is not an answer.
        let m = finish(&Limits::count_to(9), vec![g(1), g(2)], true);
        assert!(
            matches!(
                m,
                Outcome::Unknown {
                    count: 2,
                    first: Some(_)
                }
            ),
            "{m:?}"
        );
        assert!(!m.settles(&Limits::count_to(9)));
        // Two of two, then a budget ran out: "multiple" is the answer to the question asked.
        let m = finish(&two, vec![g(1), g(2)], true);
        assert!(matches!(m, Outcome::Multiple { count: 2, .. }), "{m:?}");
        assert!(m.settles(&two));
    }

    #[test]
    fn solutions_keep_two_grids_and_a_count() {
        let mut s = Solutions::new(&Limits::count_to(1_000));
        let mut built = 0;
        for k in 0..999u64 {
            let stop = s.add_with(|| {
                built += 1;
                g(1 + (k % 4) as u16)
            });
            assert!(!stop, "stopped early at {k}");
        }
        assert_eq!(built, 2, "only the first two solutions are built");
        assert!(s.add(g(1)), "the 1000th solution reaches the limit");
        match s.finish(false) {
            Outcome::Multiple {
                count,
                complete,
                solutions,
            } => {
                assert_eq!((count, complete), (1_000, false));
                assert_eq!((&*solutions[0], &*solutions[1]), (&g(1), &g(2)));
            }
            o => panic!("expected multiple, got {o:?}"),
        }
    }

    #[test]
    fn a_zero_limit_is_a_limit_of_one() {
        let zero = Limits::count_to(0);
        assert_eq!(zero.max_solutions(), 1);
        assert!(!zero.counting());
        // Not "unique": a limit of 0 cannot turn a first solution into a uniqueness claim.
        assert_eq!(finish(&zero, vec![g(1)], false).status(), Status::Solved);
    }

    #[test]
    fn extreme_timeouts_saturate() {
        let now = Instant::now();
        let never = Limits::first().with_timeout(Some(Duration::MAX));
        assert_eq!(never.deadline(now), None);
        let soon = Limits::first().with_timeout(Some(Duration::from_millis(5)));
        assert_eq!(soon.deadline(now), Some(now + Duration::from_millis(5)));
        assert_eq!(Limits::first().deadline(now), None);
    }
}
