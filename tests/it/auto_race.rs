//! The auto backend under several jobs: counts to a limit are always complete (issue: a stopped
//! native search's partial count was once reported as the answer, 1-2 records a run). Where the
//! native search hands over to the race, by the puzzle's rules (issue 26).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use satdoku::format::{ReadOptions, read_str};
use satdoku::sat::SatBackend;
use satdoku::study::thread_time;
use satdoku::{
    AutoBackend, Backend, Cell, Clue, DfsBackend, Grid, Handover, Limits, Report, Shape,
    SolveError, Status, Units, Variant,
};

use crate::common::{fixture, json_lines, satdoku};

/// Each record's (status, count), by index, of `solve --limit LIMIT --output json` on `file`.
fn counts(file: &str, limit: u32, extra: &[&str]) -> BTreeMap<u64, (String, u64)> {
    let out = satdoku()
        .args(["solve", "-q", "--output", "json", "--timeout", "120"])
        .args(["--limit", &limit.to_string()])
        .args(extra)
        .arg(fixture(file))
        .output()
        .unwrap();
    let records = json_lines(&out.stdout);
    let mut counts = BTreeMap::new();
    for r in &records {
        let status = r["status"].as_str().unwrap().to_string();
        let count = r["count"].as_u64().unwrap();
        // Every count is exact, or the limit itself.
        if status == "multiple" {
            assert!(
                r["complete"] == true || count == u64::from(limit),
                "{file} {extra:?}: a count cut short: {r}"
            );
        } else {
            assert!(
                status == "unique" || status == "none",
                "{file} {extra:?}: not settled: {r}"
            );
        }
        counts.insert(r["index"].as_u64().unwrap(), (status, count));
    }
    counts
}

#[test]
fn auto_counts_are_complete_under_several_jobs() {
    for (file, limit, runs) in [
        ("repro/auto-limit-w16-windoku.txt", 6, 2),
        ("repro/auto-limit-combo9.txt", 7, 3),
    ] {
        // The SAT backend alone, for the counts to compare with.
        let sat = counts(file, limit, &["--backend", "sat", "--jobs", "2"]);
        assert!(sat.len() >= 60, "{file}: {} records", sat.len());
        for jobs in ["2", "8"] {
            for run in 0..runs {
                let auto = counts(file, limit, &["--backend", "auto", "--jobs", jobs]);
                assert_eq!(auto, sat, "{file}, --jobs {jobs}, run {run}");
            }
        }
    }
}

#[test]
fn killers_and_the_variants_pairs_hand_over_after_ten_first_phases() {
    let s = Shape::new(3, 3).unwrap();
    let empty = Grid::empty(s);
    let minute = Some(Duration::from_secs(60));
    let point = |u: &Units| AutoBackend::handover_point(u, &empty, minute);
    // The usual first phase on 9x9: 23,240 nodes or 0.2 s of the native search's CPU time.
    let usual = (23_240, Duration::from_millis(200));
    let patient = (232_400, Duration::from_secs(2));
    assert_eq!(point(&Units::standard(s)), usual);
    let diagonals = Units::rules(s).variant(Variant::Diagonals).build().unwrap();
    assert_eq!(point(&diagonals), usual, "more units only");
    let killer = Units::rules(s).cage(3, [(0, 0), (0, 1)]).build().unwrap();
    assert_eq!(point(&killer), patient);
    for v in [
        Variant::NonConsecutive,
        Variant::AntiKnight,
        Variant::AntiKing,
    ] {
        let pairs = Units::rules(s).variant(v).build().unwrap();
        assert_eq!(point(&pairs), patient, "{v:?}");
    }
    // A clue's rules beside the cage (a white kropki dot): the usual race.
    let dot = Clue::Kropki {
        black: false,
        cells: vec![Cell::at(s, 4, 4), Cell::at(s, 4, 5)],
    };
    let dotted = Units::rules(s)
        .cage(3, [(0, 0), (0, 1)])
        .clue(dot)
        .build()
        .unwrap();
    assert_eq!(point(&dotted), usual);
    // Under a short timeout the longer phase takes at most half of it.
    let second = Some(Duration::from_secs(1));
    assert_eq!(
        AutoBackend::handover_point(&killer, &empty, second),
        (232_400, Duration::from_millis(500))
    );
    assert_eq!(
        AutoBackend::handover_point(&Units::standard(s), &empty, second),
        (23_240, Duration::from_millis(100))
    );
}

#[test]
fn classic_grids_above_16x16_hand_over_after_1000_nodes() {
    let minute = Some(Duration::from_secs(60));
    let point = |u: &Units, g: &Grid| AutoBackend::handover_point(u, g, minute);
    let s = Shape::new(5, 5).unwrap();
    let empty = Grid::empty(s);
    // A 25x25 puzzle at 45-65 % fill: the SAT phase joins after 1,000 nodes or 10 ms.
    let text = std::fs::read_to_string(fixture("25x25-planted-hard.txt")).unwrap();
    let records = read_str(&text, "25x25-planted-hard.txt", ReadOptions::default());
    let p = records[0].puzzle.as_ref().unwrap();
    assert_eq!(p.grid.shape(), s);
    let early = (1_000, Duration::from_millis(10));
    assert_eq!(point(&p.units, &p.grid), early);
    // The same grid with the same givens under the plain units.
    assert_eq!(point(&Units::standard(s), &p.grid), early);
    // A short timeout still caps the time at a tenth of it.
    let short = Some(Duration::from_millis(50));
    assert_eq!(
        AutoBackend::handover_point(&p.units, &p.grid, short),
        (1_000, Duration::from_millis(5))
    );
    // A sparse 25x25 grid (here empty) keeps the usual first phase (20,000 + 40 per cell nodes,
    // 0.2 s): the native search fills it; so does a 16x16 puzzle.
    let usual = |cells: u64| (20_000 + 40 * cells, Duration::from_millis(200));
    assert_eq!(point(&Units::standard(s), &empty), usual(625));
    let s16 = Shape::new(4, 4).unwrap();
    let mut g16 = Grid::empty(s16);
    // Every third cell given (86 of 256), from the pattern grid r * 4 + r / 4 + c (rows within a
    // band shifted by 4, bands by 1): the handover reads only the shape and the fill.
    for c in (0..256).step_by(3) {
        let (r, col) = (c / 16, c % 16);
        let d = ((r % 4) * 4 + r / 4 + col) % 16 + 1;
        g16.set(Cell::at(s16, r, col), satdoku::Digit::new(d as u16));
    }
    assert!(!g16.is_sparse());
    assert_eq!(point(&Units::standard(s16), &g16), usual(256));
    // Killer cages or the variants' pairs on 25x25: the patient phase (10x 45,000 nodes, 2 s).
    let patient = (450_000, Duration::from_secs(2));
    let killer = Units::rules(s).cage(3, [(0, 0), (0, 1)]).build().unwrap();
    assert_eq!(point(&killer, &empty), patient);
    let knight = Units::rules(s)
        .variant(Variant::AntiKnight)
        .build()
        .unwrap();
    assert_eq!(point(&knight, &empty), patient);
}

/// The SAT backend, counting how often the race starts it.
#[derive(Default)]
struct CountedSat {
    calls: AtomicUsize,
}

impl Backend for CountedSat {
    fn name(&self) -> &'static str {
        "sat"
    }

    fn solve(&self, units: &Units, puzzle: &Grid, limits: &Limits) -> Result<Report, SolveError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        SatBackend::default().solve(units, puzzle, limits)
    }
}

#[test]
fn a_killer_past_the_usual_budget_but_within_its_own_starts_no_sat_phase() {
    // killer.txt's fifth puzzle: 24,171 native nodes (past the usual 23,240) and about 1.5 s of
    // CPU in a release build, within the killers' 232,400 nodes and 2 s.
    let text = std::fs::read_to_string(fixture("variants/killer.txt")).unwrap();
    let records = read_str(&text, "killer.txt", ReadOptions::default());
    let p = records[4].puzzle.as_ref().unwrap();
    let limits = Limits::unique().with_timeout(Some(Duration::from_secs(60)));
    let sat = CountedSat::default();
    let auto = AutoBackend::from_phases(DfsBackend::new(), &sat);
    let cpu = thread_time();
    let (report, by) = auto.solve_reporting(&p.units, &p.grid, &limits).unwrap();
    let cpu = thread_time() - cpu;
    assert_eq!((report.outcome.status(), by), (Status::Unique, "dfs"));
    assert_eq!(report.outcome.solution(), p.expected.as_ref());
    let (nodes, after) = AutoBackend::handover_point(&p.units, &p.grid, limits.timeout());
    assert!(
        report.stats.nodes > AutoBackend::node_budget(81) && report.stats.nodes < nodes,
        "{} nodes",
        report.stats.nodes
    );
    // No SAT phase, unless the native search's own CPU time passed the handover (a debug build).
    let calls = sat.calls.load(Ordering::SeqCst);
    assert!(
        calls == 0 || cpu >= after,
        "{calls} SAT phases after {cpu:?}"
    );
}

/// The native search on corpus puzzle `index` under the auto backend's judged handover by nodes
/// alone (the usual point's time never reached, so the test reads no clock's verdict): its report,
/// the hook's calls, whether it was asked to stop, and each progress estimate the judge saw.
fn judged(index: usize) -> (Report, u32, bool, Vec<f64>) {
    let p = crate::sigh::corpus().remove(index).puzzle.unwrap();
    assert!(AutoBackend::judged(&p.units), "#{index}");
    let nodes = AutoBackend::handover_point(&p.units, &p.grid, None).0;
    let point = (nodes, Duration::MAX);
    let calls = std::cell::Cell::new(0);
    let seen = std::cell::RefCell::new(Vec::new());
    let hook = || calls.set(calls.get() + 1);
    let judge = |n, cpu, done| {
        seen.borrow_mut().push(done);
        AutoBackend::judge(point, None, n, cpu, done)
    };
    let handover = Handover::new(nodes / 4, Duration::MAX, &hook).putting_off(&judge);
    let report = DfsBackend::new()
        .solve_handing_over(&p.units, &p.grid, &Limits::unique(), &handover)
        .unwrap()
        .unwrap();
    (report, calls.get(), handover.stopping(), seen.into_inner())
}

#[test]
fn a_lost_native_search_leaves_the_puzzle_to_sat_alone() {
    // sigh's #166 (thermometers): the native search takes some 300,000 nodes, the SAT backend a
    // few milliseconds. Past a quarter of the usual point (5,810 nodes) it has closed almost
    // none of its tree: lost, it calls the SAT phase and stops.
    let (report, calls, stopped, seen) = judged(166);
    assert_eq!(report.outcome.status(), Status::Unknown);
    assert_eq!((calls, stopped), (1, true));
    assert!(
        (5_810..23_240).contains(&report.stats.nodes),
        "{}",
        report.stats.nodes
    );
    assert!(seen.iter().all(|&d| d < 23_240.0 / 743_680.0), "{seen:?}");
    // The auto backend answers by SAT, with the published solution.
    let p = crate::sigh::corpus().remove(166).puzzle.unwrap();
    let (auto, by) = AutoBackend::new()
        .solve_reporting(&p.units, &p.grid, &Limits::unique())
        .unwrap();
    assert_eq!((by, auto.outcome.status()), ("sat", Status::Unique));
    assert_eq!(auto.outcome.solution(), p.expected.as_ref());
}

#[test]
fn a_native_search_about_to_finish_goes_on_alone() {
    // sigh's #90 (white kropki dots everywhere): past the usual point (23,240 nodes) the native
    // search projects to finish within 5 times it, and does, alone: no SAT phase.
    let (report, calls, stopped, seen) = judged(90);
    assert_eq!(report.outcome.status(), Status::Unique);
    let p = crate::sigh::corpus().remove(90).puzzle.unwrap();
    assert_eq!(report.outcome.solution(), p.expected.as_ref());
    assert_eq!((calls, stopped), (0, false));
    assert!(
        (23_240..116_200).contains(&report.stats.nodes),
        "{}",
        report.stats.nodes
    );
    // The estimate only grows, within 0 and 1.
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(seen.iter().all(|d| (0.0..=1.0).contains(d)), "{seen:?}");
}
