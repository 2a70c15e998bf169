//! Certificates: every fixture puzzle settled as unique or none (a sample of each collection, so CI
//! stays quick) gets a certificate from every SAT solver compiled in, our checker accepts it, and the
//! third-party DRAT checker `rate` verifies the files (mandatory when SATDOKU_REQUIRE_SOLVERS=1, as
//! in CI; `cargo install rate`). Tampered certificates — a lemma removed from the proof, a given
//! changed in the CNF — are rejected by both. The claims come from the native backend and, for
//! `none`, from puzzles without solution by construction.

use std::path::Path;
use std::process::Command;

use satdoku::format::{Alphabet, ReadOptions};
use satdoku::sat::{
    Certifier, CertifyError, CheckError, SatSolver, check_certificate_files, check_drat_files,
};
use satdoku::{Backend, Cell, DfsBackend, Digit, Grid, Limits, Outcome, Units};

use crate::common::{fixture, fixture_puzzle, fixture_puzzles, platinum_blonde};
use crate::sat::available;

/// What `rate` says of a certificate: `Some(true)` verified, `Some(false)` rejected, `None` when it
/// is not installed (and not required).
pub(crate) fn rate(cnf: &Path, drat: &Path) -> Option<bool> {
    if !available("rate") {
        return None;
    }
    let out = Command::new("rate").arg(cnf).arg(drat).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let verified = text.lines().any(|l| l.trim() == "s VERIFIED");
    // rate exits with 0 exactly when it verified the proof.
    assert_eq!(verified, out.status.success(), "rate: {text}");
    Some(verified)
}

/// What `drat-trim` says of a certificate, when it is installed (it is not required: `rate` is the
/// third-party checker CI runs): `Some(true)` verified. drat-trim warns about, and ignores, the
/// deletion of a clause the CNF does not hold (a clause the solver had shortened).
fn drat_trim(cnf: &Path, drat: &Path) -> Option<bool> {
    let out = Command::new("drat-trim").arg(cnf).arg(drat).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    Some(text.lines().any(|l| l.trim() == "s VERIFIED"))
}

/// The certificate files of puzzle `i` in `dir` (`puzzle-<i>.cnf` and `.drat`, as `--certify`
/// names them): our checker and `rate` accept them.
fn assert_both_checkers_accept(dir: &Path, i: u64, what: &str) {
    let (cnf, drat) = (
        dir.join(format!("puzzle-{i:06}.cnf")),
        dir.join(format!("puzzle-{i:06}.drat")),
    );
    check_drat_files(&cnf, &drat).unwrap_or_else(|e| panic!("{what}: {e}"));
    if let Some(ok) = rate(&cnf, &drat) {
        assert!(ok, "{what}: rate rejects it");
    }
}

fn read(name: &str, options: ReadOptions, take: usize) -> Vec<Grid> {
    fixture_puzzles(name, options).take(take).collect()
}

/// `puzzle` (unique, with solution `solution`) with one more given that makes it unsolvable: the
/// first open cell gets a digit that no peer holds as a given and the solution does not have there.
/// No two equal givens share a unit, yet there is no solution (the only completion of the other
/// givens has another digit in that cell). `None` if every such digit is taken.
fn without_solution(puzzle: &Grid, solution: &Grid, units: &Units) -> Option<Grid> {
    let cell = (0..puzzle.shape().cells())
        .map(Cell::new)
        .find(|&c| puzzle.get(c).is_none())?;
    let n = puzzle.n() as u16;
    let d = (1..=n).find(|&d| {
        Some(d) != solution.get(cell).map(|x| x.get())
            && units
                .peers(cell)
                .iter()
                .all(|&p| puzzle.get(p).map(|x| x.get()) != Some(d))
    })?;
    let mut g = puzzle.clone();
    g.set(cell, Digit::new(d));
    Some(g)
}

/// The sampled fixture puzzles (how many of each collection).
fn sample() -> Vec<(&'static str, Vec<Grid>)> {
    let plain = ReadOptions::default;
    vec![
        (
            "17-clue-head200.txt",
            read("17-clue-head200.txt", plain(), 8),
        ),
        (
            "top1465-head200.txt",
            read("top1465-head200.txt", plain(), 8),
        ),
        (
            "forum-hardest-1905-11plus-head200.txt",
            read("forum-hardest-1905-11plus-head200.txt", plain(), 8),
        ),
        ("top95.txt", read("top95.txt", plain(), 5)),
        (
            "norvig-hardest.txt",
            read("norvig-hardest.txt", plain(), 11),
        ),
        ("pe96.txt", read("pe96.txt", plain(), 5)),
        (
            "9x9-sudoku-acs-logic-solvable.txt",
            read("9x9-sudoku-acs-logic-solvable.txt", plain(), 16),
        ),
        (
            "9x9-sudoku-acs-sample.txt",
            read("9x9-sudoku-acs-sample.txt", plain(), 5),
        ),
        (
            "4x4-rkkautsar-1.txt",
            read("4x4-rkkautsar-1.txt", plain(), 1),
        ),
        (
            "16x16-poj3076-sample.txt",
            read("16x16-poj3076-sample.txt", plain(), 1),
        ),
        (
            "16x16-uio-inf1010.txt",
            read("16x16-uio-inf1010.txt", plain(), 1),
        ),
        (
            "16x16-rkkautsar-1.txt",
            read("16x16-rkkautsar-1.txt", plain(), 1),
        ),
        (
            "16x16-sudoku-acs-sample.txt",
            read("16x16-sudoku-acs-sample.txt", plain(), 5),
        ),
        (
            "25x25-sudoku-acs-sample.txt",
            read("25x25-sudoku-acs-sample.txt", plain(), 2),
        ),
        (
            "25x25-rkkautsar-1.txt",
            read("25x25-rkkautsar-1.txt", plain(), 1),
        ),
        (
            "36x36-uio-inf1010.txt",
            read(
                "36x36-uio-inf1010.txt",
                ReadOptions {
                    symbols: Some(Alphabet::parse("1-9?A-Z").unwrap()),
                    ..ReadOptions::default()
                },
                1,
            ),
        ),
    ]
}

#[test]
fn every_settled_fixture_certifies_and_rate_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let dfs = DfsBackend::new();
    let (mut certified, mut rated) = (0, 0);
    for (name, puzzles) in sample() {
        for (i, puzzle) in puzzles.iter().enumerate() {
            let units = Units::standard(puzzle.shape());
            let outcome = dfs
                .solve(&units, puzzle, &Limits::unique())
                .unwrap()
                .outcome;
            let mut claims = Vec::new();
            match &outcome {
                Outcome::Unique(s) => {
                    claims.push((puzzle.clone(), outcome.clone()));
                    if let Some(none) = without_solution(puzzle, s, &units) {
                        claims.push((none, Outcome::NoSolution));
                    }
                }
                Outcome::NoSolution => claims.push((puzzle.clone(), outcome.clone())),
                _ => continue,
            }
            for (k, (p, claim)) in claims.iter().enumerate() {
                for solver in SatSolver::available() {
                    let what = format!("{name} #{i} claim {k} {solver}");
                    let cert = Certifier::new()
                        .with_solver(solver)
                        .unwrap()
                        .certify(&units, p, claim)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    cert.check().unwrap_or_else(|e| panic!("{what}: {e}"));
                    certified += 1;
                    // The files: ours from the bytes, and rate (all but the 36x36, whose 3.3
                    // million clauses take rate a while, and one solver per 9x9 collection beyond
                    // its first three puzzles, to keep CI quick).
                    if p.n() > 25 || (p.n() == 9 && i >= 3) {
                        continue;
                    }
                    let stem = format!("c{certified}");
                    let (cnf, drat) = cert.write_files(dir.path(), &stem).unwrap();
                    // Its clauses are the puzzle's plain CNF's, and the proof refutes them.
                    check_certificate_files(&units, p, claim.solution(), &cnf, &drat)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    if let Some(ok) = rate(&cnf, &drat) {
                        assert!(ok, "{what}: rate rejects it");
                        rated += 1;
                    }
                    if let Some(ok) = drat_trim(&cnf, &drat) {
                        assert!(ok, "{what}: drat-trim rejects it");
                    }
                }
            }
        }
    }
    eprintln!("certificates: {certified}, verified by rate: {rated}");
    // 66 unique puzzles in the sample (and one of unknown status), 65 of them with a "none"
    // variant (the full grids have none), on each solver.
    assert!(
        certified >= 130 * SatSolver::available().len(),
        "{certified}"
    );
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// A lemma removed from the proof: our checker rejects it (we remove the last lemma whose loss it
/// notices), and so does rate.
#[test]
fn a_proof_without_a_needed_lemma_is_rejected_by_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = platinum_blonde();
    let units = Units::standard(puzzle.shape());
    let outcome = DfsBackend::new()
        .solve(&units, &puzzle, &Limits::unique())
        .unwrap()
        .outcome;
    for solver in SatSolver::available() {
        let cert = Certifier::new()
            .with_solver(solver)
            .unwrap()
            .certify(&units, &puzzle, &outcome)
            .unwrap();
        let (cnf, drat) = cert.write_files(dir.path(), "p").unwrap();
        assert_ne!(
            rate(&cnf, &drat),
            Some(false),
            "{solver}: rate rejects the original"
        );
        let proof = lines(&drat);
        assert_eq!(proof.last().map(String::as_str), Some("0"));
        let tampered = dir.path().join("t.drat");
        let removed = (0..proof.len() - 1).rev().find(|&i| {
            let mut t = proof.clone();
            t.remove(i);
            write_lines(&tampered, &t);
            check_drat_files(&cnf, &tampered).is_err()
        });
        let Some(i) = removed else {
            panic!("{solver}: no single lemma is needed")
        };
        let mut t = proof.clone();
        t.remove(i);
        write_lines(&tampered, &t);
        assert!(matches!(
            check_drat_files(&cnf, &tampered),
            Err(CheckError::Rejected { .. })
        ));
        assert_ne!(
            rate(&cnf, &tampered),
            Some(true),
            "{solver}: rate accepts lemma {i} removed"
        );
        // Only the empty clause left: rejected by both.
        write_lines(&tampered, &["0".to_string()]);
        assert!(check_drat_files(&cnf, &tampered).is_err());
        assert_ne!(rate(&cnf, &tampered), Some(true));
    }
}

/// A given changed in the CNF so that it becomes satisfiable: the certificate of "none" for
/// Platinum Blonde with a wrong extra given, whose unit clause is turned into the right digit (the
/// unique solution's): no sound checker accepts a refutation of a satisfiable formula.
#[test]
fn a_cnf_with_a_changed_given_is_rejected_by_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    let base = platinum_blonde();
    let units = Units::standard(base.shape());
    let Outcome::Unique(solution) = DfsBackend::new()
        .solve(&units, &base, &Limits::unique())
        .unwrap()
        .outcome
    else {
        panic!("platinum blonde is unique")
    };
    let none = without_solution(&base, &solution, &units).unwrap();
    let wrong = none.get(Cell::new(0)).unwrap().get() as i64;
    let right = solution.get(Cell::new(0)).unwrap().get() as i64;
    for solver in SatSolver::available() {
        let cert = Certifier::new()
            .with_solver(solver)
            .unwrap()
            .certify(&units, &none, &Outcome::NoSolution)
            .unwrap();
        let (cnf, drat) = cert.write_files(dir.path(), "n").unwrap();
        assert_ne!(
            rate(&cnf, &drat),
            Some(false),
            "{solver}: rate rejects the original"
        );
        check_drat_files(&cnf, &drat).unwrap();
        // r1c1 is cell 0: its variables are 1..=9, the given is the unit clause "d 0".
        let mut text = lines(&cnf);
        let at = text
            .iter()
            .position(|l| *l == format!("{wrong} 0"))
            .unwrap();
        text[at] = format!("{right} 0");
        let changed = dir.path().join("changed.cnf");
        write_lines(&changed, &text);
        assert!(check_drat_files(&changed, &drat).is_err(), "{solver}");
        assert_ne!(rate(&changed, &drat), Some(true), "{solver}");
    }
}

/// `--certify DIR` on every command that settles puzzles: each unique or none answer gets a checked
/// certificate that `rate` accepts, reported in JSON; a false `none` claim, which no grid can show
/// wrong, is caught by the certifier (exit 4).
#[test]
fn the_commands_certify_what_they_settle() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = fixture("norvig-hardest.txt");
    let solve_dir = dir.path().join("solve");
    let out = crate::common::satdoku()
        .args(["solve", "--unique", "--output", "json", "--certify"])
        .arg(&solve_dir)
        .arg(&puzzles)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let records = crate::common::json_lines(&out.stdout);
    assert_eq!(records.len(), 11);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["certified"], true, "{r}");
        assert_both_checkers_accept(&solve_dir, i as u64, &format!("puzzle {i}"));
    }
    // check: the agreed status, certified, in text.
    let out = crate::common::satdoku()
        .args(["check", "--certify"])
        .arg(dir.path().join("check"))
        .arg(&puzzles)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches(": unique, certified (agree;").count(),
        11,
        "{text}"
    );
    // verify --unique --certify: the given solutions, proven the only ones.
    let solutions = dir.path().join("s.txt");
    let solved = crate::common::satdoku()
        .arg("solve")
        .arg(&puzzles)
        .output()
        .unwrap();
    std::fs::write(&solutions, &solved.stdout).unwrap();
    let out = crate::common::satdoku()
        .args(["verify", "--unique", "--certify"])
        .arg(dir.path().join("verify"))
        .arg("--puzzles")
        .arg(&puzzles)
        .arg("--solutions")
        .arg(&solutions)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches(": valid, unique, certified").count(),
        11,
        "{text}"
    );
    // A backend that claims "none" for a solvable puzzle returns no grid to verify; the certifier
    // finds the solution that refutes it.
    let out = crate::common::satdoku()
        .env("SATDOKU_TEST_FAULT", "dfs:claim-none")
        .args(["solve", "--unique", "--output", "json", "--certify"])
        .arg(dir.path().join("fault"))
        .arg(&puzzles)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    for r in crate::common::json_lines(&out.stdout) {
        assert_eq!(r["certified"], false, "{r}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("the certifier refutes the answer"));
}

/// A lemma that does not follow, inserted first into a certificate's proof where the refutation
/// uses it: the unit clause putting, in an open cell, the digit of a given in the same row. It
/// contradicts that given at once (so the conflict rests on it), and it is neither RUP nor RAT:
/// both checkers reject the proof, whatever follows.
#[test]
fn a_used_lemma_that_does_not_follow_is_rejected_by_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = platinum_blonde();
    let units = Units::standard(puzzle.shape());
    let outcome = DfsBackend::new()
        .solve(&units, &puzzle, &Limits::unique())
        .unwrap()
        .outcome;
    // Row 1 is ".......12": r1c1 (cell 0) is open, r1c8 holds 1. x(r, c, d) = 81r + 9c + d.
    assert_eq!(puzzle.get(Cell::new(7)).map(|d| d.get()), Some(1));
    assert_eq!(puzzle.get(Cell::new(0)), None);
    let bogus = "1 0";
    for solver in SatSolver::available() {
        let cert = Certifier::new()
            .with_solver(solver)
            .unwrap()
            .certify(&units, &puzzle, &outcome)
            .unwrap();
        let (cnf, drat) = cert.write_files(dir.path(), "p").unwrap();
        let mut proof = lines(&drat);
        proof.insert(0, bogus.to_string());
        let tampered = dir.path().join("t.drat");
        write_lines(&tampered, &proof);
        assert!(
            matches!(
                check_drat_files(&cnf, &tampered),
                Err(CheckError::Rejected { step: 1 })
            ),
            "{solver}"
        );
        assert_ne!(rate(&cnf, &tampered), Some(true), "{solver}");
    }
}

/// Backward checking, as our checker and `rate` (like DRAT-trim) do it, on small formulas:
/// a lemma that does not follow is accepted when the refutation does not use it, or comes after
/// the conflict; rejected when it is used; deleting the clause that implies a value at the top
/// level cannot make room for a contradiction of that value. Both checkers agree on each.
#[test]
fn both_checkers_check_the_lemmas_the_refutation_uses() {
    let dir = tempfile::tempdir().unwrap();
    // The eight clauses over 1-3 (unsatisfiable), then (5 6), (5 -6) (which imply 5), (7 8).
    let mut cnf = String::from("p cnf 8 11\n");
    for bits in 0..8 {
        for x in 1..=3 {
            let neg = bits >> (x - 1) & 1 == 1;
            cnf += &format!("{} ", if neg { -x } else { x });
        }
        cnf += "0\n";
    }
    cnf += "5 6 0\n5 -6 0\n7 8 0\n";
    let refutation = "1 2 0\n1 0\n2 0\n0\n";
    let cases = [
        // (-7) is neither RUP nor RAT, and unused.
        (cnf.as_str(), format!("-7 0\n{refutation}"), true),
        // After the conflict (which (2) brings): never looked at.
        (
            cnf.as_str(),
            "1 2 0\n1 0\n2 0\n-7 0\n-7 -8 0\n0\n".to_string(),
            true,
        ),
        // (-5) contradicts (5 6), (5 -6) at once: used, and it does not follow.
        (cnf.as_str(), format!("-5 0\n{refutation}"), false),
        // F = (-2): (5 2) is RAT on the fresh 5 and implies 5; its deletion is ignored (rate
        // honours it, and then 5 is no longer implied); either way (-5) and the empty clause do
        // not both follow.
        (
            "p cnf 5 1\n-2 0\n",
            "5 2 0\nd 5 2 0\n-5 0\n0\n".to_string(),
            false,
        ),
    ];
    for (k, (cnf, drat, accepted)) in cases.iter().enumerate() {
        let (c, d) = (dir.path().join("f.cnf"), dir.path().join("f.drat"));
        std::fs::write(&c, cnf).unwrap();
        std::fs::write(&d, drat).unwrap();
        assert_eq!(check_drat_files(&c, &d).is_ok(), *accepted, "case {k}");
        if let Some(ok) = rate(&c, &d) {
            assert_eq!(ok, *accepted, "case {k}: rate");
        }
    }
}

/// `grid` as one line of 81 characters, `.` for a blank (9x9 only).
fn line_of(grid: &Grid) -> String {
    grid.values()
        .iter()
        .map(|&v| {
            if v == 0 {
                '.'
            } else {
                char::from(b'0' + v as u8)
            }
        })
        .collect()
}

/// Unique, multiple and none puzzles from the norvig-hardest fixture: each as given (unique), with
/// its givens blanked from the last until the native backend finds several solutions, and with one
/// given more that leaves none. Each with the native backend's `--unique` answer.
fn three_kinds() -> Vec<(Grid, Outcome)> {
    let dfs = DfsBackend::new();
    let mut out = Vec::new();
    for puzzle in read("norvig-hardest.txt", ReadOptions::default(), 4) {
        let units = Units::standard(puzzle.shape());
        let answer = |g: &Grid| dfs.solve(&units, g, &Limits::unique()).unwrap().outcome;
        let unique = answer(&puzzle);
        let Outcome::Unique(s) = &unique else {
            continue;
        };
        let none = without_solution(&puzzle, s, &units).unwrap();
        out.push((none.clone(), answer(&none)));
        let mut several = puzzle.clone();
        for i in (0..81).rev().map(Cell::new) {
            if several.get(i).is_some() {
                several.set(i, None);
                if matches!(answer(&several), Outcome::Multiple { .. }) {
                    break;
                }
            }
        }
        out.push((several.clone(), answer(&several)));
        out.push((puzzle, unique));
    }
    out
}

/// The certifying solve that answers `--unique` (after a first solution) gives the native backend's
/// answer on unique, multiple and none puzzles, on every SAT solver: the same unique grid with a
/// certificate both checkers accept, two different verified grids for multiple, a certificate for
/// none.
#[test]
fn settling_by_the_certifying_solve_agrees_with_the_plain_answer() {
    let dir = tempfile::tempdir().unwrap();
    let dfs = DfsBackend::new();
    let kinds = three_kinds();
    let statuses: Vec<_> = kinds.iter().map(|(_, o)| o.status()).collect();
    for status in [
        satdoku::Status::Unique,
        satdoku::Status::Multiple,
        satdoku::Status::None,
    ] {
        assert!(statuses.contains(&status), "{statuses:?}");
    }
    for (i, (puzzle, plain)) in kinds.iter().enumerate() {
        let units = Units::standard(puzzle.shape());
        let first = dfs.solve(&units, puzzle, &Limits::first()).unwrap().outcome;
        for solver in SatSolver::available() {
            let what = format!("puzzle {i} ({}) {solver}", plain.status().word());
            let settled = Certifier::new()
                .with_solver(solver)
                .unwrap()
                .settle(&units, puzzle, &first)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(settled.outcome.status(), plain.status(), "{what}");
            match (&settled.outcome, plain) {
                (Outcome::Unique(a), Outcome::Unique(b)) => assert_eq!(a, b, "{what}"),
                (Outcome::Multiple { solutions, .. }, _) => {
                    assert_ne!(solutions[0], solutions[1], "{what}");
                    for g in solutions {
                        satdoku::verify(&units, puzzle, g)
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                    }
                    assert!(settled.certificate.is_none(), "{what}");
                }
                _ => {}
            }
            if let Some(cert) = &settled.certificate {
                assert_eq!(cert.status(), plain.status(), "{what}");
                cert.check().unwrap_or_else(|e| panic!("{what}: {e}"));
                let (cnf, drat) = cert
                    .write_files(dir.path(), &format!("s{i}-{solver}"))
                    .unwrap();
                if let Some(ok) = rate(&cnf, &drat) {
                    assert!(ok, "{what}: rate rejects it");
                }
            } else {
                assert_eq!(plain.status(), satdoku::Status::Multiple, "{what}");
            }
        }
    }
    // A "none" first answer for a solvable puzzle is refuted by the certifying solve.
    let (puzzle, _) = kinds
        .iter()
        .find(|(_, o)| matches!(o, Outcome::Unique(_)))
        .unwrap();
    let units = Units::standard(puzzle.shape());
    let e = Certifier::new()
        .settle(&units, puzzle, &Outcome::NoSolution)
        .unwrap_err();
    assert!(
        matches!(e, CertifyError::Refuted { other: false, .. }),
        "{e}"
    );
}

/// `solve --unique --backend sat --certify` (the certifying solve answers uniqueness) reports the
/// native backend's statuses on unique, multiple and none puzzles, certifies unique and none (files
/// that both checkers accept), and prints two different valid grids for multiple.
#[test]
fn solve_with_the_sat_backend_settles_by_the_certifying_solve() {
    let dir = tempfile::tempdir().unwrap();
    let kinds = three_kinds();
    let input = dir.path().join("kinds.txt");
    let text: String = kinds.iter().map(|(g, _)| line_of(g) + "\n").collect();
    std::fs::write(&input, text).unwrap();
    for solver in SatSolver::available() {
        let certs = dir.path().join(format!("certs-{solver}"));
        let out = crate::common::satdoku()
            .args(["solve", "--unique", "--backend", "sat", "--output", "json"])
            .args(["--sat-solver", &solver.to_string(), "--certify"])
            .arg(&certs)
            .arg(&input)
            .output()
            .unwrap();
        // Multiple (and none) answers exit with 1; nothing worse.
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let records = crate::common::json_lines(&out.stdout);
        assert_eq!(records.len(), kinds.len());
        for (i, (r, (puzzle, plain))) in records.iter().zip(&kinds).enumerate() {
            let what = format!("puzzle {i} {solver}: {r}");
            assert_eq!(r["status"], plain.status().word(), "{what}");
            let (cnf, drat) = (
                certs.join(format!("puzzle-{i:06}.cnf")),
                certs.join(format!("puzzle-{i:06}.drat")),
            );
            match plain {
                Outcome::Multiple { .. } => {
                    assert!(r.get("certified").is_none(), "{what}");
                    assert!(!cnf.exists(), "{what}");
                    let units = Units::standard(puzzle.shape());
                    let grids: Vec<Grid> = r["solutions"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| {
                            let s = s.as_str().unwrap();
                            let values = s.bytes().map(|b| u16::from(b - b'0')).collect();
                            Grid::from_values(puzzle.shape(), values).unwrap()
                        })
                        .collect();
                    assert_eq!(grids.len(), 2, "{what}");
                    assert_ne!(grids[0], grids[1], "{what}");
                    for g in &grids {
                        satdoku::verify(&units, puzzle, g)
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                    }
                }
                _ => {
                    assert_eq!(r["certified"], true, "{what}");
                    if let Outcome::Unique(s) = plain {
                        assert_eq!(r["solution"], line_of(s).as_str(), "{what}");
                    }
                    check_drat_files(&cnf, &drat).unwrap_or_else(|e| panic!("{what}: {e}"));
                    if let Some(ok) = rate(&cnf, &drat) {
                        assert!(ok, "{what}: rate rejects it");
                    }
                }
            }
        }
    }
}

/// The cheapest certifying answer ([`Certifier::solve_unique`]: a first solve, the warm second
/// solve, a proof-recording solve only when no second solution turned up) gives the native
/// backend's answer on unique, multiple and none puzzles, on every SAT solver: the unique grid with
/// a certificate both checkers accept, two different verified grids and no certificate for
/// multiple, a certificate for none.
#[test]
fn solve_unique_certifies_what_it_settles() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (puzzle, plain)) in three_kinds().iter().enumerate() {
        let units = Units::standard(puzzle.shape());
        for solver in SatSolver::available() {
            let what = format!("puzzle {i} ({}) {solver}", plain.status().word());
            let settled = Certifier::new()
                .with_solver(solver)
                .unwrap()
                .solve_unique(&units, puzzle)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(settled.outcome.status(), plain.status(), "{what}");
            assert!(settled.uncertified.is_none(), "{what}");
            match (&settled.outcome, plain) {
                (Outcome::Unique(a), Outcome::Unique(b)) => assert_eq!(a, b, "{what}"),
                (Outcome::Multiple { solutions, .. }, _) => {
                    assert_ne!(solutions[0], solutions[1], "{what}");
                    // Two solutions take two solver calls at least: their work is reported.
                    assert!(settled.stats.nodes >= 2, "{what}: {:?}", settled.stats);
                    for g in solutions {
                        satdoku::verify(&units, puzzle, g)
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                    }
                }
                _ => {}
            }
            match &settled.certificate {
                Some(cert) => {
                    assert_eq!(cert.status(), plain.status(), "{what}");
                    cert.check().unwrap_or_else(|e| panic!("{what}: {e}"));
                    let (cnf, drat) = cert
                        .write_files(dir.path(), &format!("u{i}-{solver}"))
                        .unwrap();
                    if let Some(ok) = rate(&cnf, &drat) {
                        assert!(ok, "{what}: rate rejects it");
                    }
                }
                None => assert_eq!(plain.status(), satdoku::Status::Multiple, "{what}"),
            }
        }
    }
}

/// Every command that certifies, with every backend choice that runs the SAT backend (`solve`
/// with `sat`, `both`, and `auto` with a node budget of 1 so that its SAT phase answers; `check`;
/// `verify --unique`), reports the native backend's statuses on unique, multiple and none puzzles,
/// certifies unique and none (files both checkers accept) and writes nothing for multiple.
#[test]
fn every_certifying_command_answers_through_the_certifying_sat_backend() {
    let dir = tempfile::tempdir().unwrap();
    let kinds = three_kinds();
    let input = dir.path().join("kinds.txt");
    let text: String = kinds.iter().map(|(g, _)| line_of(g) + "\n").collect();
    std::fs::write(&input, text).unwrap();
    // The given solutions for verify: the native answer's (first) grid; none for a `none` puzzle.
    let solutions = dir.path().join("solutions.txt");
    let text: String = kinds
        .iter()
        .map(|(g, o)| o.grids().next().map_or(line_of(g), line_of) + "\n")
        .collect();
    std::fs::write(&solutions, text).unwrap();
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "--unique", "--output", "json"];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let mut runs: Vec<(String, Vec<String>)> = Vec::new();
    for solver in SatSolver::available() {
        let s = solver.to_string();
        runs.push((
            format!("solve sat {s}"),
            solve(&["--backend", "sat", "--sat-solver", &s]),
        ));
        runs.push((
            format!("solve both {s}"),
            solve(&["--backend", "both", "--sat-solver", &s]),
        ));
        runs.push((
            format!("check {s}"),
            ["check", "--output", "json", "--sat-solver", &s]
                .map(String::from)
                .to_vec(),
        ));
    }
    // varisat: a budget of 1 stops the native phase, and varisat has no conflict limit.
    runs.push((
        "solve auto varisat, budget 1".into(),
        solve(&["--budget", "1", "--sat-solver", "varisat"]),
    ));
    let mut sat_answered = 0;
    for (k, (name, args)) in runs.iter().enumerate() {
        let certs = dir.path().join(format!("certs-{k}"));
        let out = crate::common::satdoku()
            .args(args)
            .arg("--certify")
            .arg(&certs)
            .arg(&input)
            .output()
            .unwrap();
        let expected_exit = if name.starts_with("check") { 0 } else { 1 };
        assert_eq!(out.status.code(), Some(expected_exit), "{name}: {out:?}");
        let records = crate::common::json_lines(&out.stdout);
        assert_eq!(records.len(), kinds.len(), "{name}");
        for (i, (r, (_, plain))) in records.iter().zip(&kinds).enumerate() {
            let what = format!("{name}, puzzle {i}: {r}");
            assert_eq!(r["status"], plain.status().word(), "{what}");
            sat_answered += usize::from(r["backend"] == "sat");
            let (cnf, drat) = (
                certs.join(format!("puzzle-{i:06}.cnf")),
                certs.join(format!("puzzle-{i:06}.drat")),
            );
            if matches!(plain, Outcome::Multiple { .. }) {
                assert!(r.get("certified").is_none(), "{what}");
                assert!(!cnf.exists() && !drat.exists(), "{what}");
                continue;
            }
            assert_eq!(r["certified"], true, "{what}");
            if let Outcome::Unique(s) = plain {
                assert_eq!(r["solution"], line_of(s).as_str(), "{what}");
            }
            check_drat_files(&cnf, &drat).unwrap_or_else(|e| panic!("{what}: {e}"));
            if let Some(ok) = rate(&cnf, &drat) {
                assert!(ok, "{what}: rate rejects it");
            }
        }
    }
    assert!(sat_answered > 0, "the auto run never reached its SAT phase");
    // verify --unique --certify: unique certified, multiple not unique and uncertified.
    for solver in SatSolver::available() {
        let certs = dir.path().join(format!("verify-{solver}"));
        let out = crate::common::satdoku()
            .args(["verify", "--unique", "--output", "json", "--sat-solver"])
            .arg(solver.to_string())
            .arg("--certify")
            .arg(&certs)
            .arg("--puzzles")
            .arg(&input)
            .arg("--solutions")
            .arg(&solutions)
            .output()
            .unwrap();
        let records = crate::common::json_lines(&out.stdout);
        assert_eq!(records.len(), kinds.len(), "{out:?}");
        for (i, (r, (_, plain))) in records.iter().zip(&kinds).enumerate() {
            let what = format!("verify {solver}, puzzle {i}: {r}");
            let cnf = certs.join(format!("puzzle-{i:06}.cnf"));
            let drat = certs.join(format!("puzzle-{i:06}.drat"));
            match plain {
                Outcome::Unique(_) => {
                    assert_eq!(r["certified"], true, "{what}");
                    check_drat_files(&cnf, &drat).unwrap_or_else(|e| panic!("{what}: {e}"));
                    if let Some(ok) = rate(&cnf, &drat) {
                        assert!(ok, "{what}: rate rejects it");
                    }
                }
                _ => {
                    assert_ne!(r["certified"], true, "{what}");
                    assert!(!cnf.exists(), "{what}");
                }
            }
        }
    }
}

/// The certificates `solve_unique` makes on every SAT solver for puzzles that need the solver —
/// on CaDiCaL from the solver that found the first solution, going on past the warm solve's
/// limit where it must and restoring clauses it had set aside (the planted 25x25: about 4,000
/// conflicts, 50 clauses restored) — are accepted by our checker from the files and by `rate`.
#[test]
fn certificates_from_the_answering_solver_pass_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    let mut puzzles = vec![
        ("platinum blonde".to_string(), platinum_blonde()),
        (
            "25x25-planted-hard.txt".to_string(),
            fixture_puzzle("25x25-planted-hard.txt"),
        ),
    ];
    let hardest = "forum-hardest-1905-11plus-head200.txt";
    for (i, p) in fixture_puzzles(hardest, ReadOptions::default())
        .take(4)
        .enumerate()
    {
        puzzles.push((format!("{hardest} #{i}"), p));
    }
    for (k, (name, puzzle)) in puzzles.iter().enumerate() {
        let units = Units::standard(puzzle.shape());
        for solver in SatSolver::available() {
            let what = format!("{name} {solver}");
            let settled = Certifier::new()
                .with_solver(solver)
                .unwrap()
                .solve_unique(&units, puzzle)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let Outcome::Unique(s) = &settled.outcome else {
                panic!("{what}: {:?}", settled.outcome.status())
            };
            satdoku::verify(&units, puzzle, s).unwrap();
            let cert = settled.certificate.expect("a certificate");
            let (cnf, drat) = cert
                .write_files(dir.path(), &format!("a{k}-{solver}"))
                .unwrap();
            check_drat_files(&cnf, &drat).unwrap_or_else(|e| panic!("{what}: {e}"));
            if let Some(ok) = rate(&cnf, &drat) {
                assert!(ok, "{what}: rate rejects it");
            }
        }
    }
}

/// Pure killers (cages only, no givens; `fixtures/repro/cert-killer.txt`), whose proofs mention the
/// cages' auxiliary variables: `solve --unique --certify` on every SAT solver, through the SAT
/// backend and the default one, certifies each as unique, and both checkers accept the files.
/// (Before the cages' variables were carried into the certificate's numbering, 3 of the 13 got a
/// certificate, and one of those was rejected.)
#[test]
fn pure_killers_certify_on_every_solver_and_rate_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = fixture("repro/cert-killer.txt");
    let mut runs = vec![("auto".to_string(), vec![])];
    for solver in SatSolver::available() {
        let s = solver.to_string();
        runs.push((
            format!("sat {s}"),
            vec![
                "--backend".to_string(),
                "sat".into(),
                "--sat-solver".into(),
                s,
            ],
        ));
    }
    for (k, (name, extra)) in runs.iter().enumerate() {
        let certs = dir.path().join(format!("run-{k}"));
        let out = crate::common::satdoku()
            .args(["solve", "--unique", "--output", "json", "--certify"])
            .arg(&certs)
            .args(extra)
            .arg(&puzzles)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {out:?}");
        let records = crate::common::json_lines(&out.stdout);
        assert_eq!(records.len(), 13, "{name}");
        for (i, r) in records.iter().enumerate() {
            let what = format!("{name}, killer {i}: {r}");
            assert_eq!(r["status"], "unique", "{what}");
            assert_eq!(r["certified"], true, "{what}");
            assert_both_checkers_accept(&certs, i as u64, &what);
        }
    }
}

/// `generate --killer --no-givens --certify`: every pure killer made is certified, and both
/// checkers accept its files.
#[test]
fn generated_killers_are_certified_and_rate_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("killers");
    let out = crate::common::satdoku()
        .args([
            "generate",
            "--killer",
            "--no-givens",
            "--count",
            "3",
            "--seed",
            "7",
            "--output",
            "json",
            "-q",
            "--certify",
        ])
        .arg(&certs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let records = crate::common::json_lines(&out.stdout);
    assert_eq!(records.len(), 3, "{out:?}");
    for r in records {
        assert_eq!(r["certified"], true, "{r}");
        let i = r["index"].as_u64().unwrap();
        assert_both_checkers_accept(&certs, i, &format!("killer {i}"));
    }
}
