//! sigh's corpus (issue 25): the 342 puzzles of `fixtures/variants-sigh/puzzles.txt`, read in sigh's
//! own serialization, one record each; every one of a supported kind with a published solution is
//! settled by both backends, unique, and its answer is the published solution (an answer from
//! outside), which the independent checker accepts; every other one is an error naming the sigh type
//! that is not supported.
//!
//! The corpus and its solutions are sigh's (MIT, `fixtures/variants-sigh/LICENSE-…`).

use satdoku::format::{Format, ReadOptions, Record, read_str, write_sigh};
use satdoku::sat::{Certifier, SatBackend, SatSolver, check_drat_files};
use satdoku::{Backend, DfsBackend, Grid, Limits, Outcome, Status, verify};

use crate::certify::rate;
use crate::common::fixture;

/// The corpus, read as `--format sigh` reads it.
pub(crate) fn corpus() -> Vec<Record> {
    let name = "variants-sigh/puzzles.txt";
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    let options = ReadOptions {
        format: Some(Format::Sigh),
        ..ReadOptions::default()
    };
    read_str(&text, name, options)
}

/// The corpus's `# N: name` lines, one per puzzle, in order.
fn names() -> Vec<String> {
    std::fs::read_to_string(fixture("variants-sigh/puzzles.txt"))
        .unwrap()
        .lines()
        .filter(|l| {
            l.strip_prefix("# ")
                .and_then(|r| r.split_once(':'))
                .is_some_and(|(k, _)| k.parse::<usize>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

/// Puzzles (by corpus index) that took a backend more than a second, or that a backend did not settle
/// in 10 s (2026-11-26, one at a time, the machine loaded): left to the ignored test.
/// 87, 88 (global entropy), 90, 92 (pair tables on every pair), 122 and 123 (look and say) were
/// added with those types (the native search took 2 to 30 s on each, the machine at load 9).
/// 143 and 144 (pill arrows through six boxes) left the list when sums were grouped by units.
const SLOW: &[usize] = &[
    18, 28, 35, 72, 82, 87, 88, 90, 92, 96, 117, 119, 120, 122, 123, 124, 127, 128, 139, 158, 159,
    161, 162, 163, 164, 166, 167, 170, 172, 226, 263, 271,
];

/// How one supported puzzle with a published solution went on one backend.
enum Settled {
    /// Unique, and the published solution, which the checker accepts.
    Published,
    /// Not settled within the time given (a limit, not an assertion).
    Unknown,
}

/// Both backends on one supported puzzle with a published solution, each given `seconds`: an error
/// for any answer but the published one (a unique other grid, none, several).
fn settle(index: usize, record: &Record, seconds: u64) -> Result<[Settled; 2], String> {
    let p = record.puzzle.as_ref().map_err(|e| e.to_string())?;
    let published = p.expected.as_ref().ok_or("no published solution")?;
    verify(&p.units, &p.grid, published).map_err(|v| format!("the published solution: {v}"))?;
    let limits = Limits::unique().with_timeout(Some(std::time::Duration::from_secs(seconds)));
    let backends: [(&str, Box<dyn Backend>); 2] = [
        ("dfs", Box::new(DfsBackend::new())),
        ("sat", Box::new(SatBackend::default())),
    ];
    let mut out = [Settled::Unknown, Settled::Unknown];
    for (k, (name, b)) in backends.into_iter().enumerate() {
        let r = b
            .solve(&p.units, &p.grid, &limits)
            .map_err(|e| format!("{name}: {e}"))?;
        out[k] = match &r.outcome {
            Outcome::Unique(g) if g.values() == published.values() => {
                verify(&p.units, &p.grid, g).map_err(|v| format!("{name}: {v}"))?;
                Settled::Published
            }
            Outcome::Unknown { .. } => Settled::Unknown,
            other => return Err(format!("{name} at {index}: {:?}", other.status())),
        };
    }
    Ok(out)
}

/// The corpus's puzzles: one record each; the supported ones with a published solution (but the
/// slow ones) settled by both backends with that solution; the others errors naming a sigh type.
#[test]
fn the_sigh_corpus_on_both_backends() {
    let records = corpus();
    let names = names();
    assert_eq!(records.len(), 342);
    assert_eq!(names.len(), 342);
    let (mut solved, mut unsupported, mut failures) = (0, 0, Vec::new());
    for (i, (r, name)) in records.iter().zip(&names).enumerate() {
        let published = r.puzzle.as_ref().is_ok_and(|p| p.expected.is_some());
        match &r.puzzle {
            Err(e) => {
                assert!(e.to_string().contains("is not supported"), "{name}: {e}");
                unsupported += 1;
                continue;
            }
            Ok(_) if !published || SLOW.contains(&i) || DISPUTED.contains(&i) => continue,
            Ok(_) => {}
        }
        // 30 s: a limit, not an assertion; each took under a second when measured.
        match settle(i, r, 30) {
            Ok([Settled::Published, Settled::Published]) => solved += 1,
            Ok(_) => failures.push(format!("{name}: not settled in 30 s")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(unsupported, 48, "{solved} solved");
    assert!(
        solved >= SOLVED_FAST,
        "{solved} solved, {unsupported} unsupported"
    );
}

/// Puzzles whose published solution is not the only one under the rules as stated: #233 (0-indexed
/// sums and indexing) has a second solution, `037654821…`, which our checker accepts and which sigh's
/// own engine accepts when given as givens, but its search misses: its `Sandwich` on a 0-based grid
/// remaps the sums per distance for the offset and not the distances allowed (`_distances =
/// distanceRange[sum]` in `handlers.js`), so row 5's second sandwich is cut. Both backends must say
/// several solutions, one of them the published one. #148 (a sandwich snipe: thirteen sandwich
/// clues of 18, no givens) has two solutions, as sigh's engine counts too; its published solution
/// is one of them.
const DISPUTED: &[usize] = &[148, 233];

#[test]
fn the_disputed_puzzle_has_two_solutions_on_both_backends() {
    let records = corpus();
    for &i in DISPUTED {
        let p = records[i].puzzle.as_ref().unwrap();
        let published = p.expected.as_ref().unwrap();
        for b in [
            Box::new(DfsBackend::new()) as Box<dyn Backend>,
            Box::new(SatBackend::default()),
        ] {
            let r = b.solve(&p.units, &p.grid, &Limits::unique()).unwrap();
            let Outcome::Multiple { solutions, .. } = &r.outcome else {
                panic!("{i}: {:?}", r.outcome.status());
            };
            for g in solutions {
                verify(&p.units, &p.grid, g).unwrap();
            }
            assert_ne!(solutions[0], solutions[1]);
        }
        verify(&p.units, &p.grid, published).unwrap();
    }
}

/// The fast supported puzzles with a published solution (of the 250 with one): all of them.
const SOLVED_FAST: usize = 168;

/// The slow ones (`cargo test --release -- --ignored sigh_slow`; about 10 minutes): each backend
/// given 60 s; a backend that answers gives the published solution, and how many settle is printed.
#[test]
#[ignore = "slow: about 10 minutes"]
fn sigh_slow_puzzles_agree_with_the_published_solutions() {
    let records = corpus();
    let names = names();
    let (mut both, mut one, mut failures) = (0, 0, Vec::new());
    for &i in SLOW {
        match settle(i, &records[i], 60) {
            Ok([Settled::Published, Settled::Published]) => both += 1,
            Ok([Settled::Published, _]) => {
                one += 1;
                eprintln!("{}: only dfs settled it in 60 s", names[i]);
            }
            Ok([_, Settled::Published]) => {
                one += 1;
                eprintln!("{}: only sat settled it in 60 s", names[i]);
            }
            Ok(_) => eprintln!("{}: neither backend settled it in 60 s", names[i]),
            Err(e) => failures.push(format!("{}: {e}", names[i])),
        }
    }
    eprintln!("of {}: {both} settled by both, {one} by one", SLOW.len());
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Reads one constraint string as `--format sigh` does.
pub(crate) fn read_one(text: &str) -> Record {
    let options = ReadOptions {
        format: Some(Format::Sigh),
        ..ReadOptions::default()
    };
    read_str(text, "written", options).remove(0)
}

/// Every puzzle read is written back in sigh's serialization, and what is written reads back to the
/// same givens and the same string; the published solution passes the independent checker under the
/// rules read back (so no rule was lost or changed on the way).
#[test]
fn supported_puzzles_round_trip_through_sighs_serialization() {
    let (mut written, mut checked, mut failures) = (0, 0, Vec::new());
    for (r, name) in corpus().iter().zip(names()) {
        let Ok(p) = &r.puzzle else { continue };
        let s1 = match write_sigh(&p.units, &p.grid) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let back = read_one(&s1);
        let q = match &back.puzzle {
            Ok(q) => q,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        // The givens (a grid without boxes may keep its shape's box size or not: no unit uses it).
        assert_eq!(q.grid.values(), p.grid.values(), "{name}: {s1}");
        // The same items, maybe in another order (both diagonals are one variant, read back as two
        // diagonal clues).
        let s2 = write_sigh(&q.units, &q.grid).unwrap();
        let items = |s: &str| {
            let mut v: Vec<String> = s.split('.').map(str::to_string).collect();
            v.sort();
            v
        };
        assert_eq!(items(&s1), items(&s2), "{name}");
        written += 1;
        if let Some(published) = &p.expected {
            let published = Grid::from_values(q.grid.shape(), published.values().to_vec()).unwrap();
            verify(&q.units, &q.grid, &published).unwrap_or_else(|v| panic!("{name}: {s1}: {v}"));
            checked += 1;
        }
    }
    eprintln!("{written} written, {checked} checked; {failures:#?}");
    assert_eq!(failures, ROUND_TRIP_FAILS, "{written} written");
    assert!(
        written >= 250 && checked >= 160,
        "{written} written, {checked} checked"
    );
}

/// Puzzles sigh's serialization as written here does not round-trip (known, not yet fixed).
const ROUND_TRIP_FAILS: &[&str] = &[];

/// One puzzle of each supported sigh type (the first fast one with a type not seen before: every
/// type read, every shape but 16x16).
const CERTIFIED: &[usize] = &[
    3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 19, 21, 22, 23, 24, 25, 26, 29, 31, 32, 33, 34,
    36, 37, 38, 40, 42, 43, 44, 48, 52, 61, 78, 86, 105, 131, 141, 181, 182, 183, 184, 185, 186,
    187, 195, 204, 210, 212,
    213, // look and say, equality cage, global entropy and mod 3, pair
    // tables (consecutive and every pair), a regular expression and an automaton.
    14, 20, 27, 45, 46, 55, 91, 135,
    // Renban and thermometers (renban's window selectors).
    165,
];

/// Certificates for variant puzzles: the claim is the published solution (from outside), unique;
/// on every SAT solver, both from a proof-recording solve of that claim ([`Certifier::certify`]) and
/// from the solver that answers the uniqueness question ([`Certifier::solve_unique`]), our DRAT
/// checker and the third-party `rate` accept each certificate. Among them the sum and line types
/// whose encodings have auxiliary variables (zipper lines, lunchbox, rellik cages, pill arrows,
/// little killers, X-sums, numbered rooms, killer cages on 5x10 and 7x7), which got no
/// certificate, or one that did not check, before those variables were carried into the
/// certificate's numbering.
#[test]
fn published_variant_solutions_certify_and_rate_agrees() {
    let records = corpus();
    let names = names();
    let dir = tempfile::tempdir().unwrap();
    let (mut certified, mut rated, mut failures) = (0, 0, Vec::new());
    for &i in CERTIFIED {
        let p = records[i]
            .puzzle
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", names[i]));
        let published = p.expected.clone().unwrap();
        for solver in SatSolver::available() {
            let certifier = Certifier::new().with_solver(solver).unwrap();
            let claimed = certifier
                .certify(&p.units, &p.grid, &Outcome::Unique(published.clone()))
                .map_err(|e| e.to_string());
            let settled = match certifier.solve_unique(&p.units, &p.grid) {
                Ok(s)
                    if s.outcome.status() == Status::Unique
                        && s.outcome.solution().map(Grid::values) == Some(published.values()) =>
                {
                    s.certificate
                        .ok_or_else(|| format!("not certified: {:?}", s.uncertified))
                }
                Ok(s) => Err(format!("settled as {}", s.outcome.status().word())),
                Err(e) => Err(e.to_string()),
            };
            for (how, cert) in [("certify", claimed), ("solve_unique", settled)] {
                let what = format!("{} ({solver}, {how})", names[i]);
                let cert = match cert {
                    Ok(c) => c,
                    Err(e) => {
                        failures.push(format!("{what}: {e}"));
                        continue;
                    }
                };
                if let Err(e) = cert.check() {
                    failures.push(format!("{what}: {e}"));
                    continue;
                }
                let (cnf, drat) = cert
                    .write_files(dir.path(), &format!("p{i}-{solver}-{how}"))
                    .unwrap();
                check_drat_files(&cnf, &drat).unwrap_or_else(|e| panic!("{what}: {e}"));
                certified += 1;
                if let Some(ok) = rate(&cnf, &drat) {
                    assert!(ok, "{what}: rate rejects it");
                    rated += 1;
                }
            }
        }
    }
    eprintln!("variant certificates: {certified}, verified by rate: {rated}");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// #144 (a pill arrow of 32 cells through six boxes, no givens): its sum is bounded by grouping
/// its cells by boxes (8 + 6 + 5 + 4 + 3 + 3 + 2 + 1 cells: at least 98, the largest two-digit
/// pill), which settles the whole grid without a guess; grouped by rows, as before, neither
/// backend settled it in 20 s. The native search's node count pins the reasoning.
#[test]
fn a_pill_arrow_grouped_by_boxes_is_settled_at_the_root() {
    let record = corpus().remove(144);
    let p = record.puzzle.as_ref().unwrap();
    let published = p.expected.as_ref().unwrap();
    let report = DfsBackend::new()
        .solve(&p.units, &p.grid, &Limits::unique())
        .unwrap();
    assert_eq!(report.stats.nodes, 1);
    match &report.outcome {
        Outcome::Unique(g) => assert_eq!(g.values(), published.values()),
        other => panic!("{:?}", other.status()),
    }
    let sat = SatBackend::default()
        .solve(&p.units, &p.grid, &Limits::unique())
        .unwrap();
    assert!(matches!(&sat.outcome, Outcome::Unique(g) if g.values() == published.values()));
}

/// Renban lines are reasoned about by their windows (`dfs/renban.rs`): the native search settles
/// #163 (17 renban lines, two givens) and #165 (renban and thermometers) within node budgets, with
/// the published solutions. Main before the windows took 984,038 and 1,830,050 nodes (the lines as
/// pairs "different, less than k apart"); with them 236,094 and 12,811.
#[test]
fn renban_puzzles_within_node_budgets() {
    let records = corpus();
    settled_natively_within(&records, &[(163, 300_000), (165, 20_000)]);
}

/// #139 (14 rellik cages and three white dots, no givens; sigh takes 1,229 nodes): with the cages
/// as the digit sets they may hold (windows), the native search settles it at the root (main at
/// `1bc508c`, the cages as subset-sum lines, took 3,788,834 nodes); both backends give the
/// published solution.
#[test]
fn rellik_cages_as_digit_sets_settle_139_at_the_root() {
    let records = corpus();
    let p = records[139].puzzle.as_ref().unwrap();
    let published = p.expected.as_ref().unwrap();
    let limits = Limits::unique().with_budget(Some(100));
    let report = DfsBackend::new().solve(&p.units, &p.grid, &limits).unwrap();
    assert!(report.stats.nodes <= 10, "{:?}", report.stats);
    assert!(matches!(&report.outcome, Outcome::Unique(g) if g.values() == published.values()));
    let sat = SatBackend::default()
        .solve(&p.units, &p.grid, &Limits::unique())
        .unwrap();
    assert!(matches!(&sat.outcome, Outcome::Unique(g) if g.values() == published.values()));
}

/// Two little killers on 6x6 diagonals, tight enough to be combined into one derived sum (the rules
/// then hold three sums): both backends count as enumeration does (the derived sum keeps every
/// solution), with and without cells given.
#[test]
fn combined_little_killers_count_as_enumeration_on_6x6() {
    // 33 and 31 on the two main diagonals (at most 34 each): 792 grids without givens (counted by
    // the native search: too many to enumerate here), a few off the diagonals given.
    let rules = ".Shape~6x6.LittleKiller~33~R1C1.LittleKiller~31~R1C6";
    let r = read_one(rules);
    assert_eq!(r.puzzle.as_ref().unwrap().units.sums().len(), 3);
    let cases = [
        format!("{rules}.~R1C2_3~R3C1_3~R4C6_3~R6C3_1"),
        // Three cells of one solution, 634125/152364/316452/425613/263541/541236.
        format!("{rules}.~R1C2_3~R2C6_4~R5C1_2"),
        // None: with a 1 beside R1C1 in its box, the first diagonal makes at most 30 (its boxes'
        // pairs at most 6 + 1 and 6 + 5, its two middle cells 6 each).
        format!("{rules}.~R2C2_1~R1C2_3"),
    ];
    let counts: Vec<u64> = cases
        .iter()
        .map(|text| crate::sigh_types::counts_agree(text, 1000))
        .collect();
    assert!(counts[0] > 0 && counts[1] > 0, "{counts:?}");
    assert_eq!(counts[2], 0);
}

/// #157 (eight little killers of 49, no solution; sigh settles it in about 1,600 nodes): settled as
/// none by both backends, the native search within 100,000 nodes (about 19,000 measured; it did
/// not settle it in 1.1 million before the little killers were combined).
#[test]
fn eight_little_killers_of_49_have_no_solution() {
    let records = corpus();
    let p = records[157].puzzle.as_ref().unwrap();
    let limits = Limits::unique().with_budget(Some(100_000));
    let r = DfsBackend::new().solve(&p.units, &p.grid, &limits).unwrap();
    assert_eq!(r.outcome.status(), Status::None, "{:?}", r.stats);
    let r = SatBackend::default()
        .solve(
            &p.units,
            &p.grid,
            &Limits::unique().with_timeout(Some(std::time::Duration::from_secs(60))),
        )
        .unwrap();
    assert_eq!(r.outcome.status(), Status::None);
}

/// #148 ("Sandwich snipe 18": every row and column but three a sandwich of 18, no givens; two
/// solutions): a sandwich on a house is told that the house's digits differ, so its 18 is made of 3
/// or 4 different digits between the 1 and the 9, not of up to 7 repeated ones. The native search,
/// reasoning about each house sandwich by the positions of its ends and the sets of digits between
/// them (each set kept only when the cells between, and those outside, can take its digits all
/// different), settles it as `multiple` within 3,000 nodes (2,193 measured; main at `f56a3f1`,
/// walking the sandwiches' distinct automata, 5,821; at `f6318bd` it had not settled it after
/// 500,000), and the SAT backend, reading the line graphs, within 60 s. Both solutions pass the
/// independent checker, and one is the published one.
#[test]
fn a_sandwich_snipe_settles_as_multiple_within_a_node_budget() {
    let records = corpus();
    let p = records[148].puzzle.as_ref().unwrap();
    let published = p.expected.as_ref().unwrap();
    let limits = Limits::unique().with_budget(Some(3_000));
    let r = DfsBackend::new().solve(&p.units, &p.grid, &limits).unwrap();
    assert_eq!(r.outcome.status(), Status::Multiple, "{:?}", r.stats);
    assert!(r.stats.nodes <= 3_000, "{:?}", r.stats);
    let grids: Vec<_> = r.outcome.grids().collect();
    assert_eq!(grids.len(), 2);
    assert_ne!(grids[0].values(), grids[1].values());
    for g in &grids {
        verify(&p.units, &p.grid, g).unwrap();
    }
    assert!(grids.iter().any(|g| g.values() == published.values()));
    let sat = SatBackend::default()
        .solve(
            &p.units,
            &p.grid,
            &Limits::unique().with_timeout(Some(std::time::Duration::from_secs(60))),
        )
        .unwrap();
    assert_eq!(sat.outcome.status(), Status::Multiple);
}

/// Sandwiches, lunchboxes, x-sums and (hidden) skyscrapers, on a house and off one, counted by
/// enumeration (the independent checker over every grid) and by both backends: on 4x4 without
/// givens (288 grids), 0-based too, and on 6x6 with two rows of a known grid given (634125 152364
/// 316452 425613 263541 541236, 2x3 boxes: the clues are read off it, so at least it counts).
#[test]
fn outside_clues_count_as_enumeration_on_4x4_and_6x6() {
    let four = [
        ".Shape~4x4.Sandwich~2~R1.Sandwich~0~C2",
        ".Shape~4x4.Sandwich~5~R2.Sandwich~3~C4",
        ".Shape~4x4~0-3.Sandwich~1~R1.Sandwich~2~C3",
        ".Shape~4x4.Lunchbox~2~R1C1~R1C2~R2C2",
        ".Shape~4x4.Lunchbox~0~R1C1~R2C1~R3C1~R4C1.Lunchbox~3~R2C2~R2C3~R3C3",
        ".Shape~4x4.Skyscraper~R1~2~2.Skyscraper~C1~3~",
        ".Shape~4x4~0-3.Skyscraper~R2~2~.Skyscraper~C3~~1",
        ".Shape~4x4.XSum~R1~5~.XSum~C3~~6",
        ".Shape~4x4.HiddenSkyscraper~R1~2~.HiddenSkyscraper~C2~~3",
    ];
    let mut seen = Vec::new();
    for text in four {
        let k = crate::sigh_types::counts_agree(text, 300);
        assert!(k > 0 && k < 288, "{text}: {k}");
        seen.push(k);
    }
    eprintln!("4x4 counts: {seen:?}");
    let given = ".~R1C1_6~R1C2_3~R1C3_4~R1C4_1~R1C5_2~R1C6_5\
                 ~R2C1_1~R2C2_5~R2C3_2~R2C4_3~R2C5_6~R2C6_4";
    let six = [
        ".Sandwich~0~R4.Sandwich~5~C5",
        ".Skyscraper~R5~2~4.Skyscraper~C6~2~",
        ".Lunchbox~4~R6C1~R6C2~R6C3~R5C3.XSum~R3~10~",
        ".Sandwich~0~R4.Skyscraper~R5~2~4.Lunchbox~4~R6C1~R6C2~R6C3~R5C3.XSum~R3~10~",
    ];
    for clues in six {
        let text = format!(".Shape~6x6{clues}{given}");
        let k = crate::sigh_types::counts_agree(&text, 100_000);
        assert!(k >= 1, "{text}");
        seen.push(k);
    }
    eprintln!("counts: {seen:?}");
}

/// Outside clues along the rows and columns of rectangular grids with more digits than a row has
/// cells (the row's digits still differ, which the lines are told): counted by enumeration and by
/// both backends, on 3x3 grids of digits 1-4 without givens (576 grids).
#[test]
fn outside_clues_on_short_rows_count_as_enumeration() {
    let texts = [
        ".Shape~3x3~4.Skyscraper~R1~2~1.Skyscraper~C2~3~",
        ".Shape~3x3~4.HiddenSkyscraper~R2~3~.HiddenSkyscraper~C1~~2",
        ".Shape~3x3~4.XSum~R1~6~.XSum~C3~~8",
        ".Shape~3x3~4.Sandwich~0~R1.Sandwich~2~C2",
        ".Shape~3x3~4.Skyscraper~R1~2~.Skyscraper~C3~2~2.XSum~R3~8~",
    ];
    let mut seen = Vec::new();
    for text in texts {
        let k = crate::sigh_types::counts_agree(text, 600);
        assert!(k > 0, "{text}");
        seen.push(k);
    }
    eprintln!("counts: {seen:?}");
}

/// #189 (7x7 of digits 1-9, skyscrapers along the rows of seven cells): the skyscraper lines told
/// the row's digits differ settle it within a few hundred nodes (main at `421e3d8`: 7,943).
#[test]
fn skyscrapers_on_short_rows_settle_189() {
    settled_natively_within(&corpus(), &[(189, 300)]);
}

/// Each corpus puzzle `i` of `budgets` settled by the native search as `unique` with its published
/// solution, within its node budget.
pub(crate) fn settled_natively_within(records: &[Record], budgets: &[(usize, u64)]) {
    for &(i, budget) in budgets {
        let p = records[i].puzzle.as_ref().unwrap();
        let published = p.expected.as_ref().unwrap();
        let limits = Limits::unique().with_budget(Some(budget));
        let report = DfsBackend::new().solve(&p.units, &p.grid, &limits).unwrap();
        match &report.outcome {
            Outcome::Unique(g) => assert_eq!(g.values(), published.values(), "#{i}"),
            other => panic!(
                "#{i}: {:?} after {} nodes",
                other.status(),
                report.stats.nodes
            ),
        }
        assert!(report.stats.nodes <= budget, "#{i}: {}", report.stats.nodes);
    }
}

/// Under clues the native search branches by value-aware conflict scores (sigh's
/// `ConflictScores`: the digit that failed most lately weighs on the cells holding it, weights
/// decay) and, when its cell has more than two candidates, on a digit's two places in a unit
/// (sigh's `CandidateFinders.House`). Main at `421e3d8` took 12,214 nodes on #131 (whispers,
/// disjoint sets, greater-than), 4,971 on #222 (arrows, digits 0-8), 192,492 on #88 (skyscrapers,
/// global entropy), 69,683 on #35 (disjoint sets, little killers) and 121,438 on #90 (white and
/// black dots); with the scores 1,416, 888, 44,392, 44,056 and 63,762.
#[test]
fn value_aware_conflict_scores_within_node_budgets() {
    let records = corpus();
    settled_natively_within(
        &records,
        &[
            (131, 4_000),
            (222, 2_500),
            (88, 90_000),
            (35, 55_000),
            (90, 95_000),
        ],
    );
}

/// Under clues the native search does not restart (its weights decay instead, as in sigh's engine)
/// and its weights start from cell priorities worth less than one dead end (the sizes of the units,
/// lines, cages, sums and relations holding a cell, as sigh seeds its conflict scores): main at
/// `646d167` (restarts, all weights 1) took 50,335 nodes on #82 (cages, diagonals, little
/// killers), 32,626 on #124 (counting circles, cages, white dots) and 16,761 on #87 (thermometers,
/// skyscrapers, global entropy); now 11,753, 2,747 and 5,649.
#[test]
fn seeded_weights_without_restarts_within_node_budgets() {
    let records = corpus();
    settled_natively_within(&records, &[(82, 20_000), (124, 6_000), (87, 10_000)]);
}

/// #164 ("Hard renban 2": renban lines, thermometers, anti-king), the largest loss to sigh left
/// (sigh: 95k guesses, 2.0 s): the native search settles it with the published solution in
/// 496,475 nodes (main at `e6bc06d`), 428,757 of them before the first solution. Search-order
/// variants measured at 400k-1.1M nodes (no rule blame, no digit-in-unit branches, other value
/// orders, restarts, other decay intervals: BENCHMARKS.md, History, "Variants and killers"); this
/// budget guards against a branching change that makes it worse.
#[test]
fn hard_renban_2_settles_natively_within_a_node_budget() {
    settled_natively_within(&corpus(), &[(164, 560_000)]);
}

/// Counting circles reasoned about natively, as sigh's `CountingCircles` handler does (the digit
/// sets adding up to the number of circles; a digit every such set holds fills exactly its value of
/// circles, placed or pointed per group of circles that must differ): main at `1263168` took 2,747
/// nodes on #124 (Santorini: circles, cages, white dots), 259 on #29 (Clockwork), 33 on #181 (4x4)
/// and 11 on #230 (digits 0-8, whispers); with the sets 43, 11, 1 and 5.
#[test]
fn counting_circles_settle_within_node_budgets() {
    settled_natively_within(&corpus(), &[(124, 200), (29, 60), (181, 4), (230, 8)]);
}
