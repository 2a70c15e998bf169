//! The `auto` backend: the native search first; past a node budget that grows with the grid, the
//! SAT backend starts on a second thread while the native search goes on, and the first to settle
//! the puzzle answers. Two independent backends, sharing nothing but the model.

use std::cell::{Cell, OnceCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::dfs::DfsBackend;
use crate::grid::Grid;
use crate::sat::SatBackend;
use crate::solve::{
    AlsoStop, Backend, Handover, HandoverCall, Limits, Outcome, Report, SolveError, WorkCounters,
    also_stop_when, pause_when, stop_flags, stoppable,
};
use crate::units::Units;

/// Native first; when the native search needs more than [`AutoBackend::node_budget`] nodes, the
/// SAT backend beside it, the first to settle answering.
///
/// Most puzzles are settled by the native backend in far fewer nodes; the hard middle (large,
/// half-filled grids) is where a CDCL solver's learning pays, and the budget hands those over
/// early. The native search goes on from where it was (a native phase that cannot hand over is
/// started again from its root beside the SAT backend). The race gives each backend the whole of
/// the time left (rather than a share of it), so that a puzzle one of them settles within the
/// timeout is not left `unknown` for the other's sake. The report says which backend answered
/// ([`AutoBackend::solve_reporting`]).
///
/// # Examples
/// ```
/// use satdoku::{AutoBackend, Backend, Grid, Limits, Shape, Units};
/// let shape = Shape::new(2, 2).unwrap();
/// let auto = AutoBackend::new();
/// let (report, by) = auto
///     .solve_reporting(&Units::standard(shape), &Grid::empty(shape), &Limits::first())
///     .unwrap();
/// assert!(report.outcome.solution().is_some());
/// assert_eq!(by, "dfs");
/// ```
///
/// The phases are any two backends (by default [`DfsBackend`] and [`SatBackend`]), so a caller may
/// configure or wrap them ([`AutoBackend::from_phases`]).
#[derive(Clone, Debug, Default)]
pub struct AutoBackend<D = DfsBackend, S = SatBackend> {
    dfs: D,
    sat: S,
}

impl AutoBackend {
    /// The native backend, then the default SAT backend.
    pub fn new() -> AutoBackend {
        AutoBackend::default()
    }

    /// The native phase's node budget for a grid of `cells` cells: 20,000 plus 40 per cell (23,240
    /// for 9x9, 45,000 for 25x25, 183,840 for 64x64).
    pub fn node_budget(cells: usize) -> u64 {
        20_000 + 40 * cells as u64
    }

    /// The native phase's node budget for `puzzle`: [`AutoBackend::node_budget`], except on a grid
    /// above 32x32 that is not sparse (more than a fifth of its cells given), where it is
    /// 1,000. On such grids the native search settles a puzzle at its root or not
    /// at all (the rkkautsar grids 36x36 to 225x225: 1 node each, or unknown after 20,000-98,000
    /// nodes), so a longer first phase only delays the SAT phase that settles them.
    pub fn first_phase_budget(puzzle: &Grid) -> u64 {
        let cells = puzzle.shape().cells();
        if cells > RACE_DELAY_MIN_CELLS && !puzzle.is_sparse() {
            LARGE_GRID_NODES
        } else {
            AutoBackend::node_budget(cells)
        }
    }

    /// How many times the usual first phase ([`AutoBackend::first_phase_budget`] nodes,
    /// [`AutoBackend::first_phase_time`]) the native search runs before the SAT phase joins it
    /// under `units`: [`NATIVE_RULES_PATIENCE`] when its only rules besides the units are killer
    /// cages and the variants' pairs (anti-knight, anti-king, non-consecutive), the rules the
    /// native search has its own reasoning for (cage combinations, the rule of 45, pair
    /// propagation); else 1.
    ///
    /// On those the SAT backend is the slower one: on `fixtures/variants/killer.txt` it settled
    /// none of the 58 first and took 1.5-10x the native search's time on each it settled; on the
    /// non-consecutive sets, 2-3x in total. A SAT phase beside a native search that wins only
    /// doubles the CPU while it runs, so it starts where the native search has run longer than it
    /// does on most puzzles: a guard against a heavy tail, not a race.
    pub fn patience(units: &Units) -> u32 {
        if units.has_extras() && !units.has_clue_rules() {
            NATIVE_RULES_PATIENCE
        } else {
            1
        }
    }

    /// When the SAT phase joins the native search on `puzzle` if the native search has not passed
    /// its node budget by then (in the native search's CPU time, at a handover; when the native
    /// search is started again from its root, the wall-clock time its first phase may run): at
    /// most a tenth of the timeout, and at most 0.2 s (a node of a large grid costs far more than
    /// one of a small grid, so the node budget alone would let a 400x400 search run for minutes).
    /// A sparse grid (at most a fifth of its cells given) above 1,000 cells gets 200 us per cell
    /// instead (2 s for 100x100, 32 s for 400x400, so it allows for a loaded machine), up to the
    /// whole timeout:
    /// filling a nearly empty giant grid takes the native search a few hundred thousand cheap
    /// nodes, while its SAT encoding (64 million variables at 400x400) only costs time and memory.
    pub fn first_phase_time(timeout: Option<Duration>, puzzle: &Grid) -> Duration {
        let cap = Duration::from_millis(200);
        let cells = puzzle.shape().cells();
        let fill = Duration::from_micros(200 * cells as u64);
        // The size first: counting the givens costs more than an easy 9x9 puzzle's handover.
        if fill > cap && puzzle.is_sparse() {
            return timeout.map_or(fill, |t| t.min(fill));
        }
        timeout.map_or(cap, |t| (t / 10).min(cap))
    }

    /// Whether the handover of a native search under `units` is judged by its progress
    /// ([`AutoBackend::judge`]): under clue rules (lines, sums, relations other than the
    /// variants' pairs, candidate sets: [`Units::has_clue_rules`]), where the usual point hands
    /// over both too late and too soon. Elsewhere (classic grids, killers, the variants' pairs)
    /// the point is fixed ([`AutoBackend::handover_point`]).
    pub fn judged(units: &Units) -> bool {
        units.has_clue_rules() && AutoBackend::patience(units) == 1
    }

    /// The judge of a native search's handover under clue rules, at a clock check past a quarter
    /// of the usual point `(nodes, cpu)` ([`AutoBackend::handover_point`]), given the search's
    /// `n` nodes, its `cpu` time and `done`, its estimate of the share of its tree closed
    /// ([`Handover::putting_off`]). It projects the tree's size as `n / done` nodes (and the
    /// search's time as `cpu / done`), and:
    /// - before the usual point, from a quarter of its nodes on, a search that projects more than
    ///   32 times the point's nodes is lost: the SAT backend takes over alone, the native search
    ///   stopped ([`HandoverCall::CallAndStop`]); otherwise it goes on alone;
    /// - from the usual point to 32 times it (nodes and time), a search that projects to finish
    ///   within 8 times what it has spent (at least an eighth of its tree closed) goes on alone
    ///   ([`HandoverCall::Wait`]);
    /// - else the SAT phase joins it, as at the usual point ([`HandoverCall::Call`]).
    ///
    /// On the puzzles of sigh's corpus the native search passes the usual point on, the
    /// projection was within 2x of the truth from a third of the way (#90: 45,933 nodes, at
    /// 32,000 it projected 45,300; #92 44,539: 44,300; #164 496,475: 397,000 at 256,000, 150,000
    /// at 23,000), and far below it early (#10: 10,031 nodes, projected 255,000 at 4,000). The
    /// two puzzles it called lost (#96: 29 million nodes projected at 6,000, #156: none closed)
    /// the SAT backend settles in 0.5 s and 0.1 s, while a race doubled their CPU; those it let
    /// go on (#90, #92, #148 projected 0.9 s of CPU at 0.2 s) it settled in 0.25-0.65 s alone,
    /// where the race cost 0.3-1.1 s.
    ///
    /// Past the point a race costs twice the shorter side's CPU, so going on alone pays while the
    /// native search's rest is under twice the SAT backend's time: the window is the share done,
    /// not a fixed 5x. The puzzles past the point with at least an eighth done (the share at the
    /// point: #164 0.16, #163 0.32, #282 0.68; never lower after) settle natively in 0.8-2.3 s
    /// of CPU (155,000-496,000 nodes) where the SAT backend takes 1.9 s to over 5 s, so the race
    /// (from 5x the point) cost them up to twice that; #281 (0.22) neither settles in 6 s. The
    /// price: #168 (0.14 done at the point, 54,201 nodes, 0.14 s alone) whose race the SAT
    /// backend won in 0.02 s. The SAT backend's quick puzzles (#96, #156, #166) are called lost
    /// before the point, as before.
    ///
    /// Under a `timeout`, a native search goes on alone for at most half of it (as a patient
    /// handover does, [`AutoBackend::handover_point`]): the SAT phase keeps the other half.
    pub fn judge(
        point: (u64, Duration),
        timeout: Option<Duration>,
        n: u64,
        cpu: Duration,
        done: f64,
    ) -> HandoverCall {
        let (nodes, time) = point;
        if timeout.is_some_and(|t| cpu >= t / 2) {
            return HandoverCall::Call;
        }
        if n < nodes && cpu < time {
            if n >= nodes / EARLY && n as f64 > LOST * nodes as f64 * done {
                return HandoverCall::CallAndStop;
            }
            return HandoverCall::Wait;
        }
        let (late_nodes, late) = (nodes.saturating_mul(LATE), time.saturating_mul(LATE as u32));
        if n < late_nodes && cpu < late && done * SHARE >= 1.0 {
            HandoverCall::Wait
        } else {
            HandoverCall::Call
        }
    }

    /// Where the native search on `puzzle` under `units` hands over to the race (nodes, CPU
    /// time): [`AutoBackend::first_phase_budget`] and [`AutoBackend::first_phase_time`], each times
    /// [`AutoBackend::patience`], the time (when more than the usual) at most half the timeout.
    ///
    /// On a grid above 16x16 (up to 32x32) with no rule besides its units and more than a fifth
    /// of its cells given, the SAT phase joins sooner: after 1,000 nodes or 10 ms of CPU (or the
    /// usual time, if less). The native search settles most such puzzles at their root, but the
    /// hard ones take it 1,000-100,000 nodes (10 us of CPU each on 25x25) where the SAT backend
    /// needs 40-300 ms: on 220 made 25x25 puzzles at 45-65 % fill, the usual phase (45,000 nodes,
    /// 0.2 s) cost 2.2x the CPU in all and 2.5-3x the slowest puzzle's time.
    pub fn handover_point(
        units: &Units,
        puzzle: &Grid,
        timeout: Option<Duration>,
    ) -> (u64, Duration) {
        let cells = puzzle.shape().cells();
        let extras = units.has_extras();
        if !extras && cells <= 256 {
            // The usual phase, the common case in a few steps: a grid this small is never sparse
            // enough for a longer phase (200 us a cell is under 0.2 s), nor large.
            let cap = Duration::from_millis(200);
            return (
                AutoBackend::node_budget(cells),
                timeout.map_or(cap, |t| (t / 10).min(cap)),
            );
        }
        if !extras && cells > 256 && cells <= RACE_DELAY_MIN_CELLS && !puzzle.is_sparse() {
            let usual = AutoBackend::first_phase_time(timeout, puzzle);
            return (CLASSIC_LARGE_NODES, usual.min(CLASSIC_LARGE_TIME));
        }
        let patience = AutoBackend::patience(units);
        if patience == 1 {
            // The usual phase (the common case, in a few steps).
            return (
                AutoBackend::first_phase_budget(puzzle),
                AutoBackend::first_phase_time(timeout, puzzle),
            );
        }
        let nodes = AutoBackend::first_phase_budget(puzzle).saturating_mul(u64::from(patience));
        let usual = AutoBackend::first_phase_time(timeout, puzzle);
        let time = usual.saturating_mul(patience);
        (nodes, timeout.map_or(time, |t| time.min(t / 2).max(usual)))
    }

    /// Whether the race's SAT phase, after running for `sat` (wall-clock time, its pauses left
    /// out), waits while the native search beside it goes on alone, given the native search's
    /// `cpu` time and its estimate `done` of the share of its tree closed
    /// ([`Handover::watched_by`]): while the native search's projected rest, `cpu / done - cpu`,
    /// is under [`PAUSE_RATIO`] times `sat`. The SAT phase goes on again when the projection grows
    /// past that (the estimate is rough early on, and a search that stops closing its tree
    /// projects a longer rest as its time goes by).
    ///
    /// Why 2.5: a race costs twice the shorter side's CPU time, going on alone the native search's
    /// rest `R`. Taking a SAT solver's time to answer as heavy-tailed (the chance that it has not
    /// answered by `t`, having run `S` without, `S / (S + t)`: how CDCL run times spread from one
    /// puzzle or seed to the next), the race's expected cost is `2 S ln(1 + R / S)`, below `R`
    /// only while `R > 2.51 S`. On #281 of sigh's corpus (little killers, no givens) the native
    /// search settles the puzzle in ~9 million nodes while neither SAT solver settles it in
    /// minutes: the race doubled its CPU time.
    pub fn pause_sat(cpu: Duration, done: f64, sat: Duration) -> bool {
        if !(done > 0.0 && done < 1.0) {
            return done >= 1.0;
        }
        let rest = cpu.as_secs_f64() * (1.0 - done) / done;
        rest < PAUSE_RATIO * sat.as_secs_f64()
    }
}

/// A judged handover ([`AutoBackend::judge`]) may come at this fraction of the usual point.
const EARLY: u64 = 4;

/// A judged native search is lost when the tree it projects holds this many times the usual
/// point's nodes ([`AutoBackend::judge`]).
const LOST: f64 = 32.0;

/// A judged native search goes on alone past the usual point up to this many times it
/// ([`AutoBackend::judge`]).
const LATE: u64 = 32;

/// ... while it projects to finish within this many times what it has spent, i.e. while at least
/// the inverse share of its tree is closed ([`AutoBackend::judge`]).
const SHARE: f64 = 8.0;

/// How many times its usual first phase the native search runs under rules it reasons about best
/// ([`AutoBackend::patience`]): 10, so 232,400 nodes or 2 s of CPU on 9x9 (the killers of
/// `fixtures/variants/killer.txt` take 0.01-4 s natively).
const NATIVE_RULES_PATIENCE: u32 = 10;

/// The native phase's node budget on a grid above 16x16, up to 32x32, with no rule besides its
/// units ([`AutoBackend::handover_point`]).
const CLASSIC_LARGE_NODES: u64 = 1_000;

/// The native phase's CPU time on such a grid ([`CLASSIC_LARGE_NODES`]).
const CLASSIC_LARGE_TIME: Duration = Duration::from_millis(10);

/// The native phase's node budget on a grid above 32x32 with more than a fifth of it given
/// ([`AutoBackend::first_phase_budget`]).
const LARGE_GRID_NODES: u64 = 1_000;

/// How long the race's SAT phase runs alone on a grid above 32x32 (at most a quarter of the
/// timeout) before the native search joins it.
const LARGE_GRID_SAT_ALONE: Duration = Duration::from_millis(500);

/// Grids above this many cells (32x32) give their native phase few nodes unless sparse
/// ([`AutoBackend::first_phase_budget`]), and start the race's native search only once the SAT
/// phase has had [`LARGE_GRID_SAT_ALONE`] alone: the SAT phase settles most of them
/// (81x81-rkkautsar-1: 0.65-0.8 s of CPU in all with both racing from the start, 0.25-0.7 s after a
/// native phase of 0.2 s, 0.25-0.3 s now).
const RACE_DELAY_MIN_CELLS: usize = 1024;

/// The race's SAT phase waits while the native search projects to finish within this many times
/// the SAT phase's running time ([`AutoBackend::pause_sat`]).
const PAUSE_RATIO: f64 = 2.5;

/// A deadline far enough to be none, for a solve that must be stoppable (the SAT solvers look at
/// the stop request only when they have a deadline to watch).
const FAR: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

impl<D: Backend, S: Backend> AutoBackend<D, S> {
    /// `dfs` first, then `sat`: e.g. a SAT backend with another encoding or solver.
    pub fn from_phases(dfs: D, sat: S) -> AutoBackend<D, S> {
        AutoBackend { dfs, sat }
    }

    /// Solves `puzzle` and says which backend's answer it is (`dfs` or `sat`; also in the report's
    /// [`Stats::answered_by`](crate::Stats::answered_by)).
    ///
    /// Up to 32x32, the native search runs within `limits` and hands over
    /// ([`Backend::solve_handing_over`]) at [`AutoBackend::handover_point`] (nodes or CPU time;
    /// later under the rules the native search reasons about best, [`AutoBackend::patience`]; under
    /// clue rules, when its progress says so, [`AutoBackend::judge`]): the SAT backend then starts
    /// on a thread of its own, with what is left of the timeout, while the native search goes on
    /// from where it is (unless judged lost); the first to settle the puzzle answers and the other
    /// is stopped. A puzzle settled before the handover costs no thread.
    ///
    /// Above 32x32, or with a native phase that takes no handover, the native phase runs within
    /// the smaller of [`AutoBackend::first_phase_budget`] and `limits`' budget, and within
    /// [`AutoBackend::first_phase_time`]. If it gives up, the SAT backend and (unless `limits`' own
    /// budget is what stopped it) the native backend again, from its root, run on two threads, each
    /// with `limits`' budget and what is left of its timeout; the first to settle the puzzle
    /// answers and the other is stopped.
    ///
    /// Either way, a native search stopped before the SAT phase started (by `limits`' budget, its
    /// timeout or a stop) leaves the SAT backend alone with what is left of the time, and if
    /// neither settles the puzzle the answer is `unknown`, with the first solution either found. A
    /// native phase that refuses the grid as too large ([`SolveError::TooLarge`]) hands it to the
    /// SAT backend with all of `limits`.
    ///
    /// # Errors
    /// A [`SolveError`] from a phase that cannot attempt the puzzle: the native one's (other than
    /// too large), or the SAT one's when the native search cannot go on.
    pub fn solve_reporting(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
    ) -> Result<(Report, &'static str), SolveError> {
        let report = self.settle(units, puzzle, limits)?;
        // Every answer names its backend ([`AutoBackend::answer`]).
        let by = report.stats.answered_by.unwrap_or(self.dfs.name());
        Ok((report, by))
    }

    /// [`AutoBackend::solve_reporting`]'s answer, its backend named in `stats.answered_by`.
    fn settle(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        // Only a timeout needs the start (what is left of it): an easy puzzle without one reads
        // no clock.
        let start = limits.timeout().map(|_| Instant::now());
        if puzzle.shape().cells() <= RACE_DELAY_MIN_CELLS {
            return self.handing_over(units, puzzle, limits, start);
        }
        self.restarting(units, puzzle, limits, start.unwrap_or_else(Instant::now))
    }

    /// The native search, handing over to a race beside the SAT backend when it passes the first
    /// phase's budget or time (see [`AutoBackend::solve_reporting`]); [`AutoBackend::restarting`]
    /// if the native phase takes no handover.
    ///
    /// The SAT phase's thread is started only at the handover, and joined before this returns
    /// (or unwinds): a puzzle settled before the handover pays for no thread and no scope.
    fn handing_over(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        start: Option<Instant>,
    ) -> Result<Report, SolveError> {
        let (nodes, after) = AutoBackend::handover_point(units, puzzle, limits.timeout());
        // Declared before the race, so that it outlives the SAT thread (joined when the race is
        // dropped, at the latest).
        let winner = AtomicU8::new(0);
        // Set while the SAT phase waits for the native search ([`AutoBackend::pause_sat`]); made
        // on first use, so that a puzzle settled before the handover allocates no flag.
        let pause: OnceCell<Arc<AtomicBool>> = OnceCell::new();
        let pause_flag = || pause.get_or_init(|| Arc::new(AtomicBool::new(false)));
        let sat_clock = SatClock::default();
        let race: OnceCell<Race> = OnceCell::new();
        // Called once, by the native search, on its own thread: the SAT phase starts, and the
        // race's flag (which the SAT phase sets when it wins) stops the native search from now.
        let hook = || {
            race.get_or_init(|| {
                let stop = Arc::new(AtomicBool::new(false));
                let mut flags = stop_flags();
                flags.push(Arc::clone(&stop));
                let work = WorkCounters::on_this_thread();
                let sat_limits = time_left(limits, start);
                let (winner, sat_stop, pause) =
                    (&winner, Arc::clone(&stop), Arc::clone(pause_flag()));
                let run = move || {
                    let report = stoppable(flags, work, || {
                        let _pause = pause_when(pause);
                        self.sat.solve(units, puzzle, &sat_limits)
                    });
                    claim(&report, limits, winner, Phase::Sat, &sat_stop);
                    report
                };
                // SAFETY: the thread borrows `self`, `units`, `puzzle`, `limits` and `winner`,
                // which all outlive `race`; the handle lives in `race` (never leaked), and
                // `SatThread` joins it when taken out or dropped (on an unwinding native search
                // too), as `std::thread::scope` would.
                let handle = unsafe { std::thread::Builder::new().spawn_unchecked(run) }
                    .expect("failed to spawn the SAT phase's thread");
                sat_clock.start();
                Race {
                    stop: StopOnPanic(Arc::clone(&stop)),
                    sat: SatThread(Some(handle), Arc::clone(&stop)),
                    watch: also_stop_when(stop),
                }
            });
        };
        let judge = |n: u64, cpu: Duration, done: f64| {
            AutoBackend::judge((nodes, after), limits.timeout(), n, cpu, done)
        };
        // After the call, under clue rules (where the projection was tried: on classic 25x25
        // grids it is far too low, and pausing the SAT phase doubled their CPU time): the SAT
        // phase paused while the native search projects to finish first, and let go again when
        // it no longer does.
        let pauser = |cpu: Duration, done: f64| {
            let hold = AutoBackend::pause_sat(cpu, done, sat_clock.ran());
            let pause = pause_flag();
            if hold != pause.load(Ordering::Relaxed) {
                sat_clock.set_paused(hold);
                pause.store(hold, Ordering::Release);
            }
        };
        let handover = if AutoBackend::judged(units) {
            Handover::new(nodes / EARLY, after / EARLY as u32, &hook)
                .putting_off(&judge)
                .watched_by(&pauser)
        } else {
            Handover::new(nodes, after, &hook)
        };
        let native = self
            .dfs
            .solve_handing_over(units, puzzle, limits, &handover);
        let (native, stop, mut sat, watch) = match (native, race.into_inner()) {
            // The common case, settled before the handover: named and returned as it came.
            (Some(Ok(mut report)), None) if report.outcome.settles(limits) => {
                report.stats.answered_by = Some(self.dfs.name());
                return Ok(report);
            }
            (Some(native), None) => {
                return self.native_alone(native, units, puzzle, limits, start);
            }
            // A native phase that takes no handover (a race it started anyway is stopped first).
            (None, race) => {
                drop(race);
                return self.restarting(units, puzzle, limits, start.unwrap_or_else(Instant::now));
            }
            (Some(native), Some(Race { stop, sat, watch })) => (native, stop, sat, watch),
        };
        drop(watch);
        claim(&native, limits, &winner, Phase::Native, &stop.0);
        // Whatever the native search's end, a paused SAT phase goes on: to its stop, if the
        // native search won.
        if let Some(pause) = pause.get() {
            pause.store(false, Ordering::Release);
        }
        // A native search that gave up (or could not go on) leaves the SAT phase running.
        let sat = sat.join();
        // The race's answer is always its winner's: the first phase to settle the puzzle.
        match (Phase::of(&winner), sat, native) {
            (Some(Phase::Sat), Some(Ok(report)), _) => Ok(self.answer(report, self.sat.name())),
            (Some(Phase::Native), _, Ok(report)) => Ok(self.answer(report, self.dfs.name())),
            (_, sat, native) => self.unsettled(native, sat, None),
        }
    }

    /// The first phase within its budget and time, then (if it gave up) a race in which the native
    /// search starts again from its root (see [`AutoBackend::solve_reporting`]).
    fn restarting(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        start: Instant,
    ) -> Result<Report, SolveError> {
        let own = AutoBackend::first_phase_budget(puzzle);
        let budget = limits.budget().map_or(own, |b| b.min(own));
        let quick = AutoBackend::first_phase_time(limits.timeout(), puzzle);
        let first = self.dfs.solve(
            units,
            puzzle,
            &limits.with_budget(Some(budget)).with_timeout(Some(quick)),
        );
        // The native search goes on unless the user's budget stopped it (it would stop again).
        let again = limits.budget().is_none_or(|b| b > budget);
        let first = match first {
            Ok(report) if again && !report.outcome.settles(limits) => report,
            first => return self.native_alone(first, units, puzzle, limits, Some(start)),
        };
        let race = time_left(limits, Some(start));
        // On a large grid the SAT phase has the first phase's time alone: it settles most of
        // them, and the native search would spend its first moments redoing the first phase's
        // nodes (the same search from the same root).
        let delay = if puzzle.shape().cells() > RACE_DELAY_MIN_CELLS {
            let alone = limits
                .timeout()
                .map_or(LARGE_GRID_SAT_ALONE, |t| LARGE_GRID_SAT_ALONE.min(t / 4));
            alone.max(start.elapsed())
        } else {
            Duration::ZERO
        };
        let (native, sat, winner) = self.race(units, puzzle, &race, delay);
        // The race's answer is always its winner's: the first phase to settle the puzzle.
        match (winner, sat, native) {
            (Some(Phase::Sat), Some(Ok(report)), _) => Ok(self.answer(report, self.sat.name())),
            (Some(Phase::Native), _, Some(Ok(report))) => Ok(self.answer(report, self.dfs.name())),
            (_, sat, native) => self.unsettled(Ok(first), sat, native),
        }
    }

    /// The answer after a native search with no SAT phase beside it: its own if it settles the
    /// puzzle; the SAT backend's with all of `limits` if it refused the grid as too large; its
    /// error; else (stopped by `limits`' budget or timeout, or a stop) the SAT backend's, alone
    /// with what is left of the time.
    fn native_alone(
        &self,
        native: Result<Report, SolveError>,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        start: Option<Instant>,
    ) -> Result<Report, SolveError> {
        match native {
            Ok(report) if report.outcome.settles(limits) => {
                Ok(self.answer(report, self.dfs.name()))
            }
            Ok(report) => {
                let sat = self.sat.solve(units, puzzle, &time_left(limits, start));
                match sat {
                    Ok(r) if r.outcome.settles(limits) => Ok(self.answer(r, self.sat.name())),
                    sat => self.unsettled(Ok(report), Some(sat), None),
                }
            }
            // A native phase that cannot take the grid leaves it to the SAT backend, whole.
            Err(SolveError::TooLarge { .. }) => {
                let report = self.sat.solve(units, puzzle, limits)?;
                Ok(self.answer(report, self.sat.name()))
            }
            Err(e) => Err(e),
        }
    }

    /// Neither phase settled the puzzle: the SAT phase's unknown (or else a native one's: the
    /// race's, then the first), with the most solutions any search found and the first of them.
    /// An error only when no phase has a report: the SAT one's, or else the first's.
    fn unsettled(
        &self,
        first: Result<Report, SolveError>,
        sat: Option<Result<Report, SolveError>>,
        native: Option<Result<Report, SolveError>>,
    ) -> Result<Report, SolveError> {
        let found = [&sat, &native]
            .into_iter()
            .flatten()
            .chain([&first])
            .filter_map(|r| r.as_ref().ok())
            .filter_map(|r| match &r.outcome {
                Outcome::Unknown {
                    count,
                    first: Some(g),
                } => Some((*count, g)),
                _ => None,
            })
            .max_by_key(|(count, _)| *count)
            .map(|(count, g)| (count, g.clone()));
        let (mut report, by) = match (sat, native, first) {
            (Some(Ok(r)), _, _) => (r, self.sat.name()),
            (_, Some(Ok(r)), _) => (r, self.dfs.name()),
            (Some(Err(e)), _, _) => return Err(e),
            (_, _, first) => (first?, self.dfs.name()),
        };
        if let (Outcome::Unknown { count: k, .. }, Some((count, g))) = (&report.outcome, found)
            && count > *k
        {
            report.outcome = Outcome::Unknown {
                count,
                first: Some(g),
            };
        }
        Ok(self.answer(report, by))
    }

    /// `report` as the answer of backend `by`.
    fn answer(&self, mut report: Report, by: &'static str) -> Report {
        report.stats.answered_by = Some(by);
        report
    }

    /// The native and the SAT backend on two threads within `limits`; the first to settle the
    /// puzzle stops the other. The native search starts after `delay` (or as soon as the SAT phase
    /// ends or a stop is asked). Their reports (native, SAT) and the winner, if one settled it.
    #[allow(clippy::type_complexity)]
    fn race(
        &self,
        units: &Units,
        puzzle: &Grid,
        limits: &Limits,
        delay: Duration,
    ) -> (
        Option<Result<Report, SolveError>>,
        Option<Result<Report, SolveError>>,
        Option<Phase>,
    ) {
        // A stop flag of this race alone: setting it stops these two solves and nothing else.
        let stop = Arc::new(AtomicBool::new(false));
        // 0 until one settles the puzzle: 1 native, 2 SAT.
        let winner = AtomicU8::new(0);
        let work = WorkCounters::on_this_thread();
        // The caller's own stop flags ([`crate::stop_when`]) still hold for both phases.
        let mut flags = stop_flags();
        flags.push(Arc::clone(&stop));
        let run = |backend: &dyn Backend, me: Phase| {
            let report = stoppable(flags.clone(), work.clone(), || {
                backend.solve(units, puzzle, limits)
            });
            claim(&report, limits, &winner, me, &stop);
            report
        };
        let sat_done = AtomicBool::new(false);
        let (native, sat) = std::thread::scope(|s| {
            let sat = s.spawn(|| {
                let report = run(&self.sat, Phase::Sat);
                sat_done.store(true, Ordering::Release);
                report
            });
            let until = Instant::now() + delay;
            while Instant::now() < until
                && !sat_done.load(Ordering::Acquire)
                && !flags.iter().any(|f| f.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _stop = StopOnPanic(Arc::clone(&stop));
            // Not started at all when the SAT phase settled the puzzle while it waited.
            let native = (!stop.load(Ordering::Acquire)).then(|| run(&self.dfs, Phase::Native));
            // A backend that cannot attempt the puzzle leaves the race to the other.
            (native, sat.join().ok())
        });
        (native, sat, Phase::of(&winner))
    }
}

/// `limits` with what is left of their timeout since `start` (or a far deadline, so that the
/// solve can be stopped: the SAT solvers look at the stop flags only when they watch a deadline).
/// `start` is `None` only without a timeout, when nothing is left to count.
fn time_left(limits: &Limits, start: Option<Instant>) -> Limits {
    let since = |t: Duration| t.saturating_sub(start.map_or(Duration::ZERO, |s| s.elapsed()));
    let left = limits.timeout().map(since);
    limits.with_timeout(Some(left.unwrap_or(FAR)))
}

/// A race's stop flag, set if this is dropped by a panic: a native search that fails in the race
/// stops the SAT phase, which the thread scope would otherwise wait for (to the end of its
/// timeout, if it has one).
struct StopOnPanic(Arc<AtomicBool>);

impl Drop for StopOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

/// The SAT phase's running time in a handover's race, its pauses left out (wall-clock time: the
/// native search's thread reads it, [`AutoBackend::pause_sat`]). Only the native search's thread
/// touches it.
#[derive(Default)]
struct SatClock {
    /// The time run up to its last pause.
    ran: Cell<Duration>,
    /// Since when it runs, unless paused (or not started).
    since: Cell<Option<Instant>>,
}

impl SatClock {
    /// The SAT phase starts now.
    fn start(&self) {
        self.since.set(Some(Instant::now()));
    }

    /// The time the SAT phase has run.
    fn ran(&self) -> Duration {
        self.ran.get() + self.since.get().map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// The SAT phase pauses (`true`) or goes on.
    fn set_paused(&self, paused: bool) {
        if paused {
            self.ran.set(self.ran());
            self.since.set(None);
        } else {
            self.since.set(Some(Instant::now()));
        }
    }
}

/// The race a handover started: its stop flag (set if the native search panics), the SAT phase's
/// thread and the native search's watch of the flag.
struct Race {
    stop: StopOnPanic,
    sat: SatThread,
    watch: AlsoStop,
}

/// The SAT phase's thread (borrowing the solve's arguments) and its race's stop flag: joined by
/// [`SatThread::join`] or, at the latest, when dropped (the flag set first, so that it stops).
struct SatThread(
    Option<std::thread::JoinHandle<Result<Report, SolveError>>>,
    Arc<AtomicBool>,
);

impl SatThread {
    /// Waits for the SAT phase: its report, `None` if it panicked.
    fn join(&mut self) -> Option<Result<Report, SolveError>> {
        self.0.take().and_then(|h| h.join().ok())
    }
}

impl Drop for SatThread {
    fn drop(&mut self) {
        if let Some(handle) = self.0.take() {
            self.1.store(true, Ordering::Release);
            let _ = handle.join();
        }
    }
}

/// If `report` settles the puzzle under `limits` and no phase has yet (`winner` is 0), `me` wins
/// the race and its `stop` flag is set.
fn claim(
    report: &Result<Report, SolveError>,
    limits: &Limits,
    winner: &AtomicU8,
    me: Phase,
    stop: &AtomicBool,
) {
    let settled = matches!(report, Ok(r) if r.outcome.settles(limits));
    if settled
        && winner
            .compare_exchange(0, me as u8, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    {
        stop.store(true, Ordering::Release);
    }
}

/// The two phases of a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Native = 1,
    Sat = 2,
}

impl Phase {
    /// The winner a race's `winner` names (0 until one settles the puzzle: then 1 or 2).
    fn of(winner: &AtomicU8) -> Option<Phase> {
        match winner.load(Ordering::Acquire) {
            1 => Some(Phase::Native),
            2 => Some(Phase::Sat),
            _ => None,
        }
    }
}

impl<D: Backend, S: Backend> Backend for AutoBackend<D, S> {
    fn name(&self) -> &'static str {
        "auto"
    }

    /// See [`AutoBackend::solve_reporting`]; the report's `stats.answered_by` names the backend.
    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        self.settle(units, puzzle, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;
    use crate::solve::Status;

    /// An easy 9x9 puzzle is the native search's alone: the report of `DfsBackend` itself (outcome,
    /// nodes, guesses), named `dfs`, from `solve` and `solve_reporting` alike, with or without a
    /// timeout (which is when the race reads the clock).
    #[test]
    fn an_easy_9x9_answer_is_the_native_searchs_own() {
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let text =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let values = text.bytes().map(|b| u16::from(b.saturating_sub(b'0')) % 10);
        let puzzle = Grid::from_values(s, values.collect()).unwrap();
        let timed = Limits::count_to(2).with_timeout(Some(Duration::from_secs(600)));
        for limits in [Limits::first(), Limits::count_to(2), timed] {
            let native = DfsBackend::new().solve(&units, &puzzle, &limits).unwrap();
            let auto = AutoBackend::new();
            let (report, by) = auto.solve_reporting(&units, &puzzle, &limits).unwrap();
            assert_eq!((by, report.stats.answered_by), ("dfs", Some("dfs")));
            assert_eq!(report.outcome, native.outcome);
            assert!(report.outcome.settles(&limits));
            let work = |r: &Report| (r.stats.nodes, r.stats.guesses);
            assert_eq!(work(&report), work(&native));
            assert_eq!(auto.solve(&units, &puzzle, &limits).unwrap(), report);
        }
    }

    #[test]
    fn easy_puzzles_stay_native() {
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let (report, by) = AutoBackend::new()
            .solve_reporting(&units, &Grid::empty(s), &Limits::first())
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Solved, "dfs"));
        // Counting 1,000 solutions of the empty grid is well within the native budget.
        let (report, by) = AutoBackend::new()
            .solve_reporting(&units, &Grid::empty(s), &Limits::count_to(1_000))
            .unwrap();
        assert_eq!((report.outcome.count(), by), (1_000, "dfs"));
        assert!(AutoBackend::node_budget(81) < AutoBackend::node_budget(625));
    }

    #[test]
    fn sparse_giant_grids_leave_the_native_phase_more_time() {
        let ms = Duration::from_millis;
        let big = Grid::empty(Shape::new(20, 20).unwrap());
        let small = Grid::empty(Shape::new(3, 3).unwrap());
        assert_eq!(AutoBackend::first_phase_time(None, &big), ms(32_000));
        assert_eq!(
            AutoBackend::first_phase_time(Some(ms(1_000)), &big),
            ms(1_000)
        );
        assert_eq!(AutoBackend::first_phase_time(None, &small), ms(200));
        assert_eq!(
            AutoBackend::first_phase_time(Some(ms(1_000)), &small),
            ms(100)
        );
        // Half given: a puzzle, not a fill; the usual share.
        let s = Shape::new(20, 20).unwrap();
        let values = (0..s.cells())
            .map(|c| if c % 2 == 0 { 1 } else { 0 })
            .collect();
        let half = Grid::from_values(s, values).unwrap();
        assert_eq!(AutoBackend::first_phase_time(None, &half), ms(200));
    }

    #[test]
    fn large_grids_that_are_not_sparse_get_a_short_native_phase() {
        let s = Shape::new(6, 6).unwrap();
        // 36x36, half given: 1,000 nodes; empty (a fill): the full budget.
        let values = (0..s.cells())
            .map(|c| {
                let (r, col) = (c / 36, c % 36);
                if (r + col) % 2 == 0 {
                    ((r * 6 + r / 6 + col) % 36 + 1) as u16
                } else {
                    0
                }
            })
            .collect();
        let half = Grid::from_values(s, values).unwrap();
        assert_eq!(AutoBackend::first_phase_budget(&half), 1_000);
        assert_eq!(
            AutoBackend::first_phase_budget(&Grid::empty(s)),
            AutoBackend::node_budget(1296)
        );
        // 25x25 (625 cells) keeps its budget, given or not.
        let t = Shape::new(5, 5).unwrap();
        assert_eq!(
            AutoBackend::first_phase_budget(&Grid::empty(t)),
            AutoBackend::node_budget(625)
        );
    }

    #[test]
    fn a_native_search_that_gives_up_hands_over_to_sat() {
        // forum-hardest-1905-11plus.txt, first line: needs more than 5 nodes.
        let s = Shape::new(3, 3).unwrap();
        let mut values = vec![0u16; 81];
        let line =
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
        for (i, ch) in line.chars().enumerate() {
            values[i] = ch.to_digit(10).unwrap_or(0) as u16;
        }
        let puzzle = Grid::from_values(s, values).unwrap();
        let units = Units::standard(s);
        let (report, by) = AutoBackend::new()
            .solve_reporting(&units, &puzzle, &Limits::unique().with_budget(Some(5)))
            .unwrap();
        // The user's 5 nodes stop the native phase; varisat has no conflict budget and settles it.
        assert_eq!((report.outcome.status(), by), (Status::Unique, "sat"));
    }
}

#[cfg(test)]
mod race_tests {
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    use super::*;
    use crate::grid::Shape;
    use crate::solve::{Stats, Status, past, stop_requested};
    use crate::verify::verify;

    /// An `unknown` answer with nothing found.
    pub(super) fn unknown() -> Report {
        Report::new(
            Outcome::Unknown {
                count: 0,
                first: None,
            },
            Stats::default(),
        )
    }

    /// What a stand-in's `n`-th `solve` call (from 0) does.
    type Solve =
        Box<dyn Fn(usize, &Units, &Grid, &Limits) -> Result<Report, SolveError> + Send + Sync>;

    /// A stand-in phase of the race: its name and what each `solve` call does; it counts its
    /// calls.
    pub(super) struct StandIn {
        name: &'static str,
        pub(super) calls: AtomicUsize,
        solve: Solve,
    }

    impl StandIn {
        pub(super) fn new(
            name: &'static str,
            solve: impl Fn(usize, &Units, &Grid, &Limits) -> Result<Report, SolveError>
            + Send
            + Sync
            + 'static,
        ) -> StandIn {
            StandIn {
                name,
                calls: AtomicUsize::new(0),
                solve: Box::new(solve),
            }
        }
    }

    impl Backend for StandIn {
        fn name(&self) -> &'static str {
            self.name
        }

        fn solve(
            &self,
            units: &Units,
            puzzle: &Grid,
            limits: &Limits,
        ) -> Result<Report, SolveError> {
            let call = self.calls.fetch_add(1, Ordering::SeqCst);
            (self.solve)(call, units, puzzle, limits)
        }
    }

    /// The node count [`slow_start`] reports after its first solve, to tell its reports apart.
    const SLOW_START_NODES: u64 = 424_242;

    /// The native backend, except that its first solve gives up at once (as if the puzzle needed
    /// more than the first phase's budget).
    fn slow_start() -> StandIn {
        StandIn::new("dfs", |call, units, puzzle, limits| {
            if call == 0 {
                return Ok(unknown());
            }
            let mut report = DfsBackend::new().solve(units, puzzle, limits)?;
            report.stats.nodes = SLOW_START_NODES;
            Ok(report)
        })
    }

    /// How a [`waiter`] ended: stopped (`"stop"`) or at its deadline.
    pub(super) type Ended = Arc<Mutex<Option<&'static str>>>;

    /// A SAT phase that never settles anything: it sets `flag`, if any (a caller's stop that
    /// comes in the middle of the race), waits until it is stopped or its deadline passes, and
    /// records which.
    pub(super) fn waiter(flag: Option<Arc<AtomicBool>>) -> (StandIn, Ended) {
        let ended = Ended::default();
        let record = Arc::clone(&ended);
        let phase = StandIn::new("sat", move |_, _, _, limits| {
            if let Some(flag) = &flag {
                flag.store(true, Ordering::SeqCst);
            }
            let deadline = limits.deadline(Instant::now());
            while !past(deadline) {
                std::thread::sleep(Duration::from_millis(1));
            }
            *record.lock().unwrap() = Some(if stop_requested() { "stop" } else { "deadline" });
            Ok(unknown())
        });
        (phase, ended)
    }

    /// A SAT phase that says "no solution" at once.
    pub(super) fn none_at_once() -> StandIn {
        StandIn::new("sat", |_, _, _, _| {
            Ok(Report::new(Outcome::NoSolution, Stats::default()))
        })
    }

    #[test]
    fn a_large_grids_race_gives_sat_time_alone() {
        // 36x36 (above the delay's threshold): the race's native search waits at least 0.5 s
        // (here the first phase's 0.3 s); the SAT phase settles the puzzle first, and the native
        // search is never called again (counted, not timed).
        let s = Shape::new(6, 6).unwrap();
        // A native phase whose first solve takes 0.3 s and gives up.
        let slow_first = StandIn::new("dfs", |call, _, _, _| {
            if call == 0 {
                std::thread::sleep(Duration::from_millis(300));
            }
            Ok(unknown())
        });
        let auto = AutoBackend::from_phases(slow_first, none_at_once());
        let (report, by) = auto
            .solve_reporting(&Units::standard(s), &Grid::empty(s), &Limits::first())
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::None, "sat"));
        assert_eq!(auto.dfs.calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn the_first_to_settle_answers_and_stops_the_other() {
        // The native search settles the puzzle in the race; the SAT phase, which would have waited
        // for its whole (long) timeout, is stopped instead.
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let (waiter, ended) = waiter(None);
        let auto = AutoBackend::from_phases(slow_start(), waiter);
        let limits = Limits::unique().with_timeout(Some(Duration::from_secs(600)));
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &limits)
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Multiple, "dfs"));
        assert_eq!(report.stats.answered_by, Some("dfs"));
        for g in report.outcome.grids() {
            verify(&units, &Grid::empty(s), g).unwrap();
        }
        assert_eq!(*ended.lock().unwrap(), Some("stop"));
        assert_eq!(auto.dfs.calls.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_grid_too_large_for_the_native_phase_goes_to_sat() {
        // The known bug: auto passed the native backend's refusal on instead of the SAT answer.
        let s = Shape::new(4, 4).unwrap();
        let units = Units::standard(s);
        // A native phase that only takes grids up to 9x9.
        let small = StandIn::new("dfs", |_, units, puzzle, limits| {
            let n = puzzle.shape().n();
            if n > 9 {
                return Err(SolveError::TooLarge {
                    backend: "dfs",
                    n,
                    max: 9,
                });
            }
            DfsBackend::new().solve(units, puzzle, limits)
        });
        let auto = AutoBackend::from_phases(small, SatBackend::default());
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &Limits::first())
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Solved, "sat"));
        verify(&units, &Grid::empty(s), report.outcome.solution().unwrap()).unwrap();
        let s = Shape::new(3, 3).unwrap();
        let (_, by) = auto
            .solve_reporting(&Units::standard(s), &Grid::empty(s), &Limits::first())
            .unwrap();
        assert_eq!(by, "dfs");
    }

    #[test]
    fn the_sat_phase_answers_when_it_settles_first() {
        // The native search gives up in its first phase and (by the user's budget) cannot go on;
        // the SAT backend settles the puzzle alone.
        let s = Shape::new(2, 2).unwrap();
        let units = Units::standard(s);
        let auto = AutoBackend::from_phases(slow_start(), SatBackend::default());
        let limits = Limits::unique().with_budget(Some(10));
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &limits)
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Multiple, "sat"));
        assert_eq!(auto.dfs.calls.load(Ordering::SeqCst), 1);
    }

    /// A native phase that, on every call, reports two solutions of the puzzle it is given and
    /// then a stopped count (as the native search did when its first phase ran out of nodes after
    /// two of six solutions): `multiple`, count 2, not complete.
    fn partial_count() -> StandIn {
        StandIn::new("dfs", |_, units, puzzle, _| {
            // On a thread of its own, which a race's stop does not reach: the stand-in's answer is
            // the same whether it won or lost.
            let two = std::thread::scope(|s| {
                s.spawn(|| DfsBackend::new().solve(units, puzzle, &Limits::unique()))
                    .join()
                    .unwrap()
            })?;
            let Outcome::Multiple { solutions, .. } = two.outcome else {
                panic!("the test puzzle has several solutions")
            };
            Ok(Report {
                outcome: Outcome::Multiple {
                    solutions,
                    count: 2,
                    complete: false,
                },
                stats: Stats::default(),
                certificate: None,
            })
        })
    }

    /// A 4x4 puzzle with several solutions, but fewer than six: the first row and column given.
    fn four_solutions() -> (Units, Grid) {
        let s = Shape::new(2, 2).unwrap();
        let g = Grid::from_values(s, vec![1, 2, 3, 4, 3, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0]).unwrap();
        (Units::standard(s), g)
    }

    #[test]
    fn a_count_cut_short_is_not_an_answer() {
        let (units, puzzle) = four_solutions();
        let limits = Limits::count_to(6);
        let exact = DfsBackend::new().solve(&units, &puzzle, &limits).unwrap();
        assert!(
            matches!(exact.outcome, Outcome::Multiple { count, complete: true, .. } if count > 2),
            "{:?}",
            exact.outcome
        );
        // The native phase (first and in the race) only ever has a partial count; the SAT
        // phase's complete count is the answer.
        let auto = AutoBackend::from_phases(partial_count(), SatBackend::default());
        let (report, by) = auto.solve_reporting(&units, &puzzle, &limits).unwrap();
        assert_eq!(by, "sat");
        assert_eq!(report.outcome.count(), exact.outcome.count());
        assert!(report.outcome.settles(&limits));
        // The first phase, then the race's native search, unless the SAT phase settled the
        // puzzle before the race's native search started (a machine that stalls the test thread).
        assert!((1..=2).contains(&auto.dfs.calls.load(Ordering::SeqCst)));
        // Counting to two, the same partial answer is the answer asked for.
        let (report, by) = auto
            .solve_reporting(&units, &puzzle, &Limits::unique())
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::Multiple, "dfs"));
    }

    #[test]
    fn the_race_answer_is_the_winners() {
        let (units, puzzle) = four_solutions();
        // A SAT phase that settles only after it was told to stop (after the native phase won),
        // and then anyway: a loser that settles too late.
        let late_sat = StandIn::new("sat", |_, units, puzzle, limits| {
            while !stop_requested() {
                std::thread::sleep(Duration::from_millis(1));
            }
            // Settled on a thread of its own, which the stop does not reach.
            let mut report = std::thread::scope(|s| {
                s.spawn(|| SatBackend::default().solve(units, puzzle, limits))
                    .join()
                    .unwrap()
            })?;
            assert!(report.outcome.settles(limits));
            report.stats.nodes = 99;
            Ok(report)
        });
        let auto = AutoBackend::from_phases(slow_start(), late_sat);
        let (report, by) = auto
            .solve_reporting(&units, &puzzle, &Limits::count_to(6))
            .unwrap();
        assert_eq!(by, "dfs");
        assert_eq!(
            report.stats.nodes, SLOW_START_NODES,
            "the winner's own report"
        );
    }

    #[test]
    fn a_race_stop_reaches_no_later_search_on_the_thread() {
        let (units, puzzle) = four_solutions();
        // A race that the SAT phase wins stops the native search on this thread...
        let auto = AutoBackend::from_phases(slow_start(), SatBackend::default());
        let limits = Limits::count_to(6);
        auto.solve_reporting(&units, &puzzle, &limits).unwrap();
        // ... and no later search on it: a stop flag set before a search starts is not its own.
        assert!(!stop_requested());
        let after = DfsBackend::new().solve(&units, &puzzle, &limits).unwrap();
        assert!(after.outcome.settles(&limits), "{:?}", after.outcome);
        // Nor does a stop flag outlive a solve that panicked.
        let flag = Arc::new(AtomicBool::new(true));
        let panicked = std::panic::catch_unwind(|| {
            stoppable(vec![Arc::clone(&flag)], None, || {
                assert!(stop_requested());
                panic!("a backend bug")
            })
        });
        assert!(panicked.is_err());
        assert!(!stop_requested());
        let after = DfsBackend::new().solve(&units, &puzzle, &limits).unwrap();
        assert!(after.outcome.settles(&limits), "{:?}", after.outcome);
    }

    #[test]
    fn a_callers_stop_flag_stops_every_phase_of_the_race() {
        // Counting every 9x9 grid never ends; the caller's flag (set before the solve here, by
        // another thread in real use) must reach the race's native and SAT phases, which have race
        // flags of their own. The timeout lets the SAT solver look at the flags.
        let shape = Shape::new(3, 3).unwrap();
        let units = Units::standard(shape);
        let limits = Limits::count_to(u64::MAX).with_timeout(Some(Duration::from_secs(3600)));
        let flag = Arc::new(AtomicBool::new(true));
        let (report, _) = crate::solve::stop_when(&flag, || {
            AutoBackend::new().solve_reporting(&units, &Grid::empty(shape), &limits)
        })
        .unwrap();
        assert_eq!(report.outcome.status(), Status::Unknown);
        assert!(!stop_requested(), "the flag is this call's only");
        // The SAT backend alone, stopped the same way.
        let sat = crate::solve::stop_when(&flag, || {
            SatBackend::default().solve(&units, &Grid::empty(shape), &limits)
        })
        .unwrap();
        assert_eq!(sat.outcome.status(), Status::Unknown);
    }
}

#[cfg(test)]
mod handover_tests {
    use std::sync::Mutex;

    use std::sync::atomic::AtomicU64;

    use super::race_tests::{StandIn, none_at_once, unknown, waiter};
    use super::*;
    use crate::grid::Shape;
    use crate::solve::{Stats, Status, stop_requested, stop_when};

    /// Counts `solve` on the empty 9x9 grid up to `k` solutions, which takes at least `k`
    /// nodes: a search that runs past the handover for as long as a test asks.
    fn count_empty_9x9<B: Backend>(backend: &B, k: u64) -> Report {
        let s = Shape::new(3, 3).unwrap();
        let limits = Limits::count_to(k).with_timeout(Some(Duration::from_secs(600)));
        backend
            .solve(&Units::standard(s), &Grid::empty(s), &limits)
            .unwrap()
    }

    /// The native backend, recording the nodes this thread's counters ([`WorkCounters`]) held
    /// and the time when it fired its handover (on the native search's own thread, where the SAT
    /// phase is started).
    #[derive(Default)]
    struct Recording {
        fired: Mutex<Vec<(u64, Instant)>>,
    }

    impl Backend for Recording {
        fn name(&self) -> &'static str {
            "dfs"
        }

        fn solve(
            &self,
            units: &Units,
            puzzle: &Grid,
            limits: &Limits,
        ) -> Result<Report, SolveError> {
            DfsBackend::new().solve(units, puzzle, limits)
        }

        fn solve_handing_over(
            &self,
            units: &Units,
            puzzle: &Grid,
            limits: &Limits,
            handover: &Handover<'_>,
        ) -> Option<Result<Report, SolveError>> {
            let hook = || {
                let nodes = WorkCounters::on_this_thread().map_or(0, |w| w.nodes());
                self.fired.lock().unwrap().push((nodes, Instant::now()));
                handover.fire();
            };
            let recorded = Handover::new(handover.nodes(), handover.after(), &hook);
            DfsBackend::new().solve_handing_over(units, puzzle, limits, &recorded)
        }
    }

    #[test]
    fn the_native_search_goes_on_past_the_handover() {
        // 40,000 solutions: past the 9x9 budget of 23,240 nodes. The SAT phase starts once,
        // from the handover, and never settles; the native search wins with the same search as
        // the native backend's alone (no restart: the same nodes in all).
        let budget = AutoBackend::node_budget(81);
        let alone = count_empty_9x9(&DfsBackend::new(), 40_000);
        assert!(alone.stats.nodes > budget);
        let (waiter, ended) = waiter(None);
        let auto = AutoBackend::from_phases(Recording::default(), waiter);
        let counters = WorkCounters::default();
        counters.count_on_this_thread();
        let start = Instant::now();
        let report = count_empty_9x9(&auto, 40_000);
        WorkCounters::stop_counting_on_this_thread();
        assert_eq!(report.outcome.count(), 40_000);
        assert_eq!(report.stats.answered_by, Some("dfs"));
        assert_eq!(report.stats.nodes, alone.stats.nodes);
        // Counted over the whole solve (at clock checks, every 1,024 nodes): the native search's
        // nodes once, not the first phase's and then a restarted search's.
        let total = counters.nodes();
        assert!(
            total <= alone.stats.nodes && total + 1024 > alone.stats.nodes,
            "{total} nodes counted, {} alone",
            alone.stats.nodes
        );
        assert_eq!(auto.sat.calls.load(Ordering::SeqCst), 1);
        assert_eq!(
            *ended.lock().unwrap(),
            Some("stop"),
            "the winner stops the SAT phase"
        );
        // The handover (and so the SAT phase) came at the first clock check (every 1,024 nodes on
        // 9x9) past the budget, unless the native phase's time ran out first (a stalled machine).
        let fired = auto.dfs.fired.lock().unwrap().clone();
        let [(nodes, at)] = fired[..] else {
            panic!("fired {fired:?}")
        };
        let quick = AutoBackend::first_phase_time(
            Some(Duration::from_secs(600)),
            &Grid::empty(Shape::new(3, 3).unwrap()),
        );
        assert!(
            (budget..budget + 1024).contains(&nodes) || at - start >= quick,
            "the handover came at {nodes} nodes"
        );
        assert!(!stop_requested());
    }

    #[test]
    fn a_puzzle_settled_before_the_handover_starts_no_sat_phase() {
        let (waiter, _) = waiter(None);
        let auto = AutoBackend::from_phases(DfsBackend::new(), waiter);
        let report = count_empty_9x9(&auto, 100);
        assert_eq!(report.outcome.count(), 100);
        assert_eq!(report.stats.answered_by, Some("dfs"));
        assert_eq!(auto.sat.calls.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn the_sat_phase_stops_the_native_search_it_joined() {
        // Counting every 9x9 grid never ends natively; the SAT phase settles at once (a stand-in's
        // answer) and its race flag stops the native search, and no later search on the thread.
        let auto = AutoBackend::from_phases(DfsBackend::new(), none_at_once());
        let s = Shape::new(3, 3).unwrap();
        let units = Units::standard(s);
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &Limits::count_to(u64::MAX))
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::None, "sat"));
        assert!(!stop_requested());
        assert_eq!(count_empty_9x9(&DfsBackend::new(), 5).outcome.count(), 5);
    }

    #[test]
    fn a_callers_stop_in_the_race_stops_both_phases() {
        // The caller's flag is set by the SAT phase once the race has started: the native search,
        // which runs on the caller's thread, and the SAT phase both stop.
        let flag = Arc::new(AtomicBool::new(false));
        let (waiter, ended) = waiter(Some(Arc::clone(&flag)));
        let auto = AutoBackend::from_phases(DfsBackend::new(), waiter);
        let report = stop_when(&flag, || count_empty_9x9(&auto, u64::MAX));
        assert_eq!(report.outcome.status(), Status::Unknown);
        assert!(
            report.outcome.count() > 0,
            "the native search's count so far"
        );
        assert_eq!(auto.sat.calls.load(Ordering::SeqCst), 1);
        assert_eq!(*ended.lock().unwrap(), Some("stop"));
        assert!(!stop_requested());
    }

    /// A native phase that only hands over, as `script` says: a test's scripted native search.
    struct Scripted<F>(F);

    /// A [`Scripted`] native phase (the closure's type spelled out for the compiler).
    fn scripted<F>(script: F) -> Scripted<F>
    where
        F: Fn(&Handover<'_>) -> Option<Result<Report, SolveError>> + Send + Sync,
    {
        Scripted(script)
    }

    impl<F> Backend for Scripted<F>
    where
        F: Fn(&Handover<'_>) -> Option<Result<Report, SolveError>> + Send + Sync,
    {
        fn name(&self) -> &'static str {
            "dfs"
        }

        fn solve(&self, _: &Units, _: &Grid, _: &Limits) -> Result<Report, SolveError> {
            unreachable!("auto hands this phase over")
        }

        fn solve_handing_over(
            &self,
            _: &Units,
            _: &Grid,
            _: &Limits,
            handover: &Handover<'_>,
        ) -> Option<Result<Report, SolveError>> {
            (self.0)(handover)
        }
    }

    /// A SAT phase that fails (a bug).
    struct PanickingSat;

    impl Backend for PanickingSat {
        fn name(&self) -> &'static str {
            "sat"
        }

        fn solve(&self, _: &Units, _: &Grid, _: &Limits) -> Result<Report, SolveError> {
            panic!("a SAT backend bug")
        }
    }

    #[test]
    fn a_sat_phase_that_panics_leaves_the_race_to_the_native_search() {
        // 40,000 solutions: past the 9x9 budget, so the SAT phase starts (once) and panics. Its
        // thread is joined, its panic taken as no report; the native answer stands, and the
        // race's flag is gone.
        let auto = AutoBackend::from_phases(Recording::default(), PanickingSat);
        let report = count_empty_9x9(&auto, 40_000);
        assert_eq!(auto.dfs.fired.lock().unwrap().len(), 1, "one handover");
        assert_eq!(report.outcome.count(), 40_000);
        assert_eq!(report.stats.answered_by, Some("dfs"));
        assert!(!stop_requested());
    }

    #[test]
    fn the_judge_follows_the_projected_tree() {
        use HandoverCall::{Call, CallAndStop, Wait};
        let ms = Duration::from_millis;
        let point = (23_240, ms(200));
        let judge = |n, cpu, done| AutoBackend::judge(point, None, n, cpu, done);
        // Before a quarter of the point's nodes nothing is lost, however little is done.
        assert_eq!(judge(5_809, ms(150), 0.0), Wait);
        // From there, a tree projected above 32 times the point's nodes (743,680) is lost.
        assert_eq!(judge(5_810, ms(10), 0.0), CallAndStop);
        assert_eq!(judge(7_437, ms(10), 0.01), CallAndStop);
        assert_eq!(judge(7_436, ms(10), 0.01), Wait);
        // Past the point: on alone while at least an eighth of the tree is closed (it projects
        // to finish within 8 times its nodes and time so far), up to 32 times the point
        // (743,680 nodes, 6.4 s), both in nodes and in time.
        assert_eq!(judge(23_240, ms(100), 0.125), Wait);
        assert_eq!(judge(23_240, ms(100), 0.124), Call);
        // #164 at the point (0.16 done, projecting 6.2 times the point) goes on alone; #168
        // (0.14) too, #166 at 32,000 nodes (0.045) races.
        assert_eq!(judge(23_240, ms(100), 0.16), Wait);
        assert_eq!(judge(23_240, ms(58), 0.141), Wait);
        assert_eq!(judge(32_000, ms(150), 0.045), Call);
        assert_eq!(judge(371_840, ms(1750), 0.811), Wait);
        assert_eq!(judge(743_679, ms(6399), 0.125), Wait);
        assert_eq!(judge(743_679, ms(6399), 0.124), Call);
        // Past 32 times the point, the race, whatever the projection.
        assert_eq!(judge(743_680, ms(100), 1.0), Call);
        assert_eq!(judge(50_000, ms(6400), 1.0), Call);
        // Under a timeout, alone for at most half of it, before the point too.
        let timed = |t, n, cpu, done| AutoBackend::judge(point, Some(ms(t)), n, cpu, done);
        assert_eq!(timed(4_000, 371_840, ms(1999), 0.811), Wait);
        assert_eq!(timed(4_000, 371_840, ms(2000), 0.811), Call);
        assert_eq!(timed(300, 10_000, ms(149), 0.5), Wait);
        assert_eq!(timed(300, 10_000, ms(150), 0.5), Call);
        assert_eq!(timed(60_000, 743_679, ms(6399), 0.125), Wait);
    }

    #[test]
    fn only_clue_rules_are_judged() {
        let s = Shape::new(3, 3).unwrap();
        assert!(!AutoBackend::judged(&Units::standard(s)));
        let killer = Units::rules(s).cage(3, [(0, 0), (0, 1)]).build().unwrap();
        assert!(!AutoBackend::judged(&killer));
        let dot = crate::Clue::Kropki {
            black: false,
            cells: vec![crate::Cell::at(s, 4, 4), crate::Cell::at(s, 4, 5)],
        };
        let dotted = Units::rules(s).clue(dot).build().unwrap();
        assert!(AutoBackend::judged(&dotted));
    }

    #[test]
    fn plain_grids_up_to_16x16_hand_over_at_the_usual_point() {
        // The handover point's short way for small plain grids is the general rule's answer:
        // the first phase's budget (20,000 + 40 a cell) and time (a tenth of the timeout, at
        // most 0.2 s), patience 1.
        let ms = Duration::from_millis;
        for (br, bc) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)] {
            let s = Shape::new(br, bc).unwrap();
            let units = Units::standard(s);
            let cells = s.cells() as u64;
            for timeout in [None, Some(ms(10)), Some(ms(1000)), Some(ms(60_000))] {
                let time = timeout.map_or(ms(200), |t| (t / 10).min(ms(200)));
                let empty = Grid::empty(s);
                let point = AutoBackend::handover_point(&units, &empty, timeout);
                assert_eq!(point, (20_000 + 40 * cells, time), "{br}x{bc}, {timeout:?}");
                let general = (
                    AutoBackend::first_phase_budget(&empty)
                        * u64::from(AutoBackend::patience(&units)),
                    AutoBackend::first_phase_time(timeout, &empty),
                );
                assert_eq!(point, general, "{br}x{bc}, {timeout:?}");
            }
        }
    }

    #[test]
    fn the_sat_phase_waits_while_the_native_search_projects_to_finish() {
        let ms = Duration::from_millis;
        // Half the tree closed after 10 s: 10 s to go, against 2.5 times the SAT phase's time.
        assert!(!AutoBackend::pause_sat(ms(10_000), 0.5, ms(3_999)));
        assert!(AutoBackend::pause_sat(ms(10_000), 0.5, ms(4_001)));
        // A tenth closed: 90 s to go; the SAT phase waits once it has run for 36 s.
        assert!(!AutoBackend::pause_sat(ms(10_000), 0.1, ms(35_000)));
        assert!(AutoBackend::pause_sat(ms(10_000), 0.1, ms(37_000)));
        // A search that stops closing its tree projects a longer rest as its time goes by: the
        // SAT phase goes on again.
        assert!(AutoBackend::pause_sat(ms(10_000), 0.5, ms(5_000)));
        assert!(!AutoBackend::pause_sat(ms(15_000), 0.5, ms(5_000)));
        // Nothing closed yet: no projection, the SAT phase runs; all closed: it waits.
        assert!(!AutoBackend::pause_sat(ms(10_000), 0.0, ms(100_000)));
        assert!(AutoBackend::pause_sat(ms(10), 1.0, Duration::ZERO));
    }

    /// A SAT phase that never settles anything: it counts its looks at its stop flags (as a SAT
    /// solver looks at its terminator) in `looks` until it is stopped.
    fn spinner(looks: Arc<AtomicU64>) -> StandIn {
        StandIn::new("sat", move |_, _, _, _| {
            while !stop_requested() {
                looks.fetch_add(1, Ordering::SeqCst);
            }
            Ok(unknown())
        })
    }

    /// A native search under clue rules that hands over, then projects to finish at once (the
    /// SAT phase beside it must wait: its looks stop), then projects a long rest (the SAT phase
    /// must go on), then settles the puzzle.
    fn projects_to_finish(
        looks: Arc<AtomicU64>,
    ) -> Scripted<impl Fn(&Handover<'_>) -> Option<Result<Report, SolveError>> + Send + Sync> {
        scripted(move |handover| {
            let looks = || looks.load(Ordering::SeqCst);
            // Until the SAT phase has looked (it has run a while).
            handover.fire();
            while looks() == 0 {
                std::thread::yield_now();
            }
            handover.note_progress(0.999);
            handover.look(1);
            std::thread::sleep(Duration::from_millis(20));
            let paused = looks();
            std::thread::sleep(Duration::from_millis(50));
            assert!(looks() <= paused + 1, "the SAT phase went on looking");
            // A long rest projected (a millisecond of CPU time, a thousandth done: a second to
            // go), heard after the watch's interval: the SAT phase goes on.
            let cpu = crate::solve::thread_time();
            while crate::solve::thread_time() < cpu + Duration::from_millis(1) {}
            handover.note_progress(0.001);
            std::thread::sleep(Handover::WATCH_EVERY);
            handover.look(2);
            let waited = Instant::now();
            while looks() <= paused + 1 {
                assert!(waited.elapsed() < Duration::from_secs(60), "still paused");
                std::thread::yield_now();
            }
            Some(Ok(Report::new(Outcome::NoSolution, Stats::default())))
        })
    }

    #[test]
    fn a_paused_sat_phase_waits_and_goes_on_again() {
        let s = Shape::new(3, 3).unwrap();
        let dot = crate::Clue::Kropki {
            black: false,
            cells: vec![crate::Cell::at(s, 4, 4), crate::Cell::at(s, 4, 5)],
        };
        let units = Units::rules(s).clue(dot).build().unwrap();
        assert!(AutoBackend::judged(&units));
        let looks = Arc::new(AtomicU64::new(0));
        let auto = AutoBackend::from_phases(
            projects_to_finish(Arc::clone(&looks)),
            spinner(Arc::clone(&looks)),
        );
        let (report, by) = auto
            .solve_reporting(&units, &Grid::empty(s), &Limits::count_to(2))
            .unwrap();
        assert_eq!((report.outcome.status(), by), (Status::None, "dfs"));
        assert_eq!(auto.sat.calls.load(Ordering::SeqCst), 1);
        assert!(!stop_requested());
    }

    #[test]
    fn a_native_panic_in_the_race_stops_the_sat_phase() {
        // Else the panic would wait for the SAT phase's whole timeout (none here: forever).
        let (waiter, ended) = waiter(None);
        let auto = AutoBackend::from_phases(
            scripted(|handover| {
                handover.fire();
                panic!("a native search bug")
            }),
            waiter,
        );
        let panicked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| count_empty_9x9(&auto, 2)));
        assert!(panicked.is_err());
        assert_eq!(*ended.lock().unwrap(), Some("stop"));
        assert!(!stop_requested(), "the race's flag is gone with it");
    }
}
