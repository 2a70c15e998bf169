//! `satdoku encode` and `satdoku decode` with real external SAT solvers (Debian's minisat, picosat,
//! cadical, cryptominisat5): our DIMACS through each solver, decoded, equals our own SAT answer.
//!
//! A missing solver skips its part with a note, unless `SATDOKU_REQUIRE_SOLVERS=1` (set by CI), where
//! it fails.

use std::path::Path;
use std::process::Command;

use crate::common::{fixture, satdoku};

/// Whether `bin` is installed (see [`crate::common::tool_available`]).
fn available(bin: &str) -> bool {
    crate::common::tool_available(bin)
}

/// Runs `solver` on `cnf`, leaving its answer in `out` in the solver's own output format.
fn run_solver(solver: &str, cnf: &Path, out: &Path) {
    let status = match solver {
        // MiniSat writes its result file itself: `SAT` then the literals.
        "minisat" => {
            Command::new("minisat")
                .args(["-verb=0"])
                .arg(cnf)
                .arg(out)
                .output()
                .unwrap()
                .status
        }
        _ => {
            let mut cmd = Command::new(solver);
            match solver {
                "cadical" => {
                    cmd.arg("-q");
                }
                "cryptominisat5" => {
                    cmd.args(["--verb", "0"]);
                }
                _ => {}
            }
            let o = cmd.arg(cnf).output().unwrap();
            std::fs::write(out, &o.stdout).unwrap();
            o.status
        }
    };
    // SAT-competition exit codes: 10 satisfiable, 20 unsatisfiable.
    assert!(
        matches!(status.code(), Some(10) | Some(20)),
        "{solver}: {status}"
    );
}

/// A grid's symbols without layout whitespace, to compare a printed grid with a JSON solution.
fn compact(text: &str) -> String {
    text.split_whitespace().collect()
}

#[test]
fn external_solvers_round_trip_through_our_dimacs() {
    let solvers: Vec<&str> = ["minisat", "picosat", "cadical", "cryptominisat5"]
        .into_iter()
        .filter(|s| available(s))
        .collect();
    if solvers.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A few puzzles of several shapes and layouts: 9x9 lines, a 16x16 letters grid, a 4x4 ints grid.
    let cases = [
        ("norvig-hardest.txt", 3usize),
        ("16x16-poj3076-sample.txt", 1),
        ("4x4-rkkautsar-1.txt", 1),
        ("pe96.txt", 2),
    ];
    for (file, take) in cases {
        let puzzles = fixture(file);
        for encoding in ["minimal", "efficient", "extended", "pruned"] {
            for amo in ["pairwise", "sequential", "product", "commander", "bimander"] {
                let cnf_dir = dir.path().join(format!("{file}-{encoding}-{amo}"));
                satdoku()
                    .args(["encode", "--encoding", encoding, "--amo", amo, "--out-dir"])
                    .arg(&cnf_dir)
                    .arg(&puzzles)
                    .assert()
                    .success();
                let ours = satdoku()
                    .args(["solve", "--backend", "sat", "--output", "json"])
                    .args(["--encoding", encoding, "--amo", amo])
                    .arg(&puzzles)
                    .output()
                    .unwrap();
                let ours: Vec<String> = String::from_utf8(ours.stdout)
                    .unwrap()
                    .lines()
                    .map(|l| {
                        let v: serde_json::Value = serde_json::from_str(l).unwrap();
                        compact(v["solution"].as_str().unwrap())
                    })
                    .collect();
                for index in 0..take {
                    let cnf = cnf_dir.join(format!("puzzle-{index:06}.cnf"));
                    // One external solver per combination keeps the test quick; rotate through them.
                    let solver = solvers[(index + encoding.len() + amo.len()) % solvers.len()];
                    let answer = dir.path().join("answer.txt");
                    run_solver(solver, &cnf, &answer);
                    let decoded = satdoku()
                        .args(["decode", "--encoding", encoding])
                        .args(["--index", &index.to_string(), "--puzzle"])
                        .arg(&puzzles)
                        .arg(&answer)
                        .output()
                        .unwrap();
                    assert_eq!(
                        decoded.status.code(),
                        Some(0),
                        "{solver} {file}#{index} {encoding}/{amo}: {}",
                        String::from_utf8_lossy(&decoded.stderr)
                    );
                    // Every fixture here is unique (fixtures/README.md), so the answers must match.
                    assert_eq!(
                        compact(&String::from_utf8(decoded.stdout).unwrap()),
                        ours[index],
                        "{solver} {file}#{index} {encoding}/{amo}"
                    );
                    // With --cnf alone the CNF's comment lines say the encoding (the grid is
                    // printed in the default symbols: the letters file reads otherwise).
                    let by_cnf = satdoku()
                        .args(["decode", "--cnf"])
                        .arg(&cnf)
                        .arg(&answer)
                        .output()
                        .unwrap();
                    let what = format!("--cnf: {solver} {file}#{index} {encoding}/{amo}");
                    assert_eq!(by_cnf.status.code(), Some(0), "{what}");
                    if !file.contains("poj3076") {
                        let got = compact(&String::from_utf8(by_cnf.stdout).unwrap());
                        assert_eq!(got, ours[index], "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_external_solver_on_one_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = fixture("top95.txt");
    satdoku()
        .args(["encode", "--out-dir"])
        .arg(dir.path())
        .arg(&puzzles)
        .assert()
        .success();
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 95);
    let ours = satdoku().arg("solve").arg(&puzzles).output().unwrap();
    let first = String::from_utf8(ours.stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    for solver in ["minisat", "picosat", "cadical", "cryptominisat5"] {
        if !available(solver) {
            continue;
        }
        let answer = dir.path().join(format!("{solver}.out"));
        run_solver(solver, &dir.path().join("puzzle-000000.cnf"), &answer);
        let decoded = satdoku()
            .arg("decode")
            .arg("--puzzle")
            .arg(&puzzles)
            .arg(&answer)
            .output()
            .unwrap();
        assert_eq!(decoded.status.code(), Some(0), "{solver}");
        assert_eq!(
            String::from_utf8(decoded.stdout).unwrap().trim_end(),
            first,
            "{solver}"
        );
    }
}

#[test]
fn an_unsat_answer_is_no_solution_and_a_bad_model_is_named() {
    // No solution: r1c1's row holds 2-9 and its column a 1.
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.txt");
    std::fs::write(
        &puzzle,
        format!(".23456789{}{}\n", "1........", ".".repeat(63)),
    )
    .unwrap();
    let cnf = dir.path().join("p.cnf");
    let out = satdoku().arg("encode").arg(&puzzle).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    std::fs::write(&cnf, &out.stdout).unwrap();
    if available("cadical") {
        let answer = dir.path().join("a.txt");
        run_solver("cadical", &cnf, &answer);
        let decoded = satdoku()
            .arg("decode")
            .arg("--puzzle")
            .arg(&puzzle)
            .arg(&answer)
            .output()
            .unwrap();
        assert_eq!(decoded.status.code(), Some(1));
        assert!(decoded.stdout.is_empty());
        assert!(String::from_utf8_lossy(&decoded.stderr).contains("UNSAT"));
    }
    // A hand-made model that puts 1 and 2 in r1c1 of an empty 4x4 grid: x(0,0,1) = 1, x(0,0,2) = 2.
    let empty = dir.path().join("e.txt");
    std::fs::write(&empty, "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n").unwrap();
    let model = dir.path().join("m.txt");
    std::fs::write(&model, "s SATISFIABLE\nv 1 2 0\n").unwrap();
    let decoded = satdoku()
        .arg("decode")
        .arg("--puzzle")
        .arg(&empty)
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(decoded.status.code(), Some(2));
    assert!(decoded.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&decoded.stderr);
    assert!(
        stderr.contains("r1c1") && stderr.contains("m.txt"),
        "{stderr}"
    );
}

#[test]
fn stats_pin_the_published_9x9_counts() {
    // An empty 9x9 grid: no givens, so the counts are the published ones before clues (Lynce &
    // Ouaknine 2006; Weber 2005): 729 variables; 8829 / 11745 / 11988 clauses.
    let out = satdoku()
        .args(["encode", "--stats"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let row = |enc: &str| -> Vec<String> {
        text.lines()
            .find(|l| l.starts_with(&format!("0\t{enc}\t")))
            .unwrap_or_else(|| panic!("{text}"))
            .split('\t')
            .map(String::from)
            .collect()
    };
    assert_eq!(row("minimal")[3..5], ["729", "8829"]);
    assert_eq!(row("efficient")[3..5], ["729", "11745"]);
    assert_eq!(row("extended")[3..5], ["729", "11988"]);
    // Pruned with no givens prunes no candidate, but writes each clause once: the extended encoding
    // repeats the binary clause of two cells that share a row and a box, or a column and a box, for each
    // digit: 18 such pairs per box, 9 boxes, 9 digits = 1458 repeats. 11988 - 1458 = 10530.
    assert_eq!(row("pruned")[3..5], ["729", "10530"]);

    let two = satdoku()
        .arg("encode")
        .arg(fixture("pe96.txt"))
        .output()
        .unwrap();
    assert_eq!(two.status.code(), Some(2), "two puzzles need --out-dir");
}

/// The hand-offs between `encode` and `decode` (issue 14): file names that sort, the source in the
/// comments, `decode --cnf` without the puzzle file, the index across several input files, and a
/// model of another puzzle or MiniSat's screen output named for what they are.
#[test]
fn encode_and_decode_fit_together() {
    if !available("minisat") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (fixture("top95.txt"), fixture("pe96.txt"));
    let cnf = dir.path().join("cnf");
    satdoku()
        .args(["encode", "-q", "--out-dir"])
        .arg(&cnf)
        .arg(&a)
        .arg(&b)
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(&cnf)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 145);
    assert_eq!(names[7], "puzzle-000007.cnf");
    assert_eq!(names[100], "puzzle-000100.cnf");
    // Index 96 is the second puzzle of pe96.txt (top95 has 95): its source line is in the comments.
    let file = cnf.join("puzzle-000096.cnf");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with(&format!("c source {} line 12 index 96\n", b.display())),
        "{}",
        &text[..200]
    );
    let model = dir.path().join("m.out");
    run_solver("minisat", &file, &model);
    // Our own answer for that puzzle, in its block layout.
    let ours = satdoku().arg("solve").arg(&b).output().unwrap();
    let ours = String::from_utf8(ours.stdout).unwrap();
    let second = ours.split("\n\n").nth(1).unwrap().trim_end().to_string();
    // --puzzle twice: the index counts across the files, as encode did.
    let decoded = satdoku()
        .args(["decode", "--index", "96", "--puzzle"])
        .arg(&a)
        .arg("--puzzle")
        .arg(&b)
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(decoded.status.code(), Some(0), "{decoded:?}");
    assert_eq!(
        String::from_utf8(decoded.stdout).unwrap().trim_end(),
        second
    );
    // --cnf alone: the puzzle comes from the CNF's comments (printed as a line).
    let decoded = satdoku()
        .args(["decode", "--cnf"])
        .arg(&file)
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(decoded.status.code(), Some(0), "{decoded:?}");
    assert_eq!(
        String::from_utf8(decoded.stdout).unwrap().trim_end(),
        compact(&second)
    );
    // --cnf with the wrong --index: another puzzle, said so.
    let wrong = satdoku()
        .args(["decode", "--index", "95", "--puzzle"])
        .arg(&a)
        .arg("--puzzle")
        .arg(&b)
        .arg("--cnf")
        .arg(&file)
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("encoded from another puzzle"),
        "{wrong:?}"
    );
    // MiniSat's screen output instead of its result file: a hint to pass the file.
    let screen = Command::new("minisat").arg(&file).output().unwrap();
    let screen_file = dir.path().join("screen.txt");
    std::fs::write(&screen_file, &screen.stdout).unwrap();
    let out = satdoku()
        .args(["decode", "--cnf"])
        .arg(&file)
        .arg(&screen_file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("pass its result file"),
        "{out:?}"
    );
    // An --encoding that contradicts the CNF's own comment line is refused.
    let out = satdoku()
        .args(["decode", "--encoding", "extended", "--cnf"])
        .arg(&file)
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--encoding extended: the CNF says it was written in the pruned encoding"),
        "{out:?}"
    );
    // A CNF that is not ours cannot stand in for the puzzle.
    let foreign = dir.path().join("f.cnf");
    std::fs::write(&foreign, "p cnf 1 1\n1 0\n").unwrap();
    let out = satdoku()
        .args(["decode", "--cnf"])
        .arg(&foreign)
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a CNF written by"));
}

/// `decode` reads a model with a size bound: an endless input is an error, not an exhausted memory.
#[test]
fn an_endless_model_is_refused() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let out = satdoku()
        .args(["decode", "--puzzle"])
        .arg(fixture("top95.txt"))
        .arg("/dev/zero")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("too large: over 64 MiB"),
        "{out:?}"
    );
}

/// `encode --out-dir` does not overwrite a file that is there already: that puzzle is an error
/// naming the file (the others are written), unless `--force`.
#[test]
fn out_dir_refuses_to_overwrite_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cnf");
    std::fs::create_dir(&out).unwrap();
    let earlier = out.join("puzzle-000001.cnf");
    std::fs::write(&earlier, "c from an earlier run\n").unwrap();
    let run = |force: bool| {
        let mut cmd = satdoku();
        cmd.args(["encode", "--out-dir"]).arg(&out);
        if force {
            cmd.arg("--force");
        }
        cmd.write_stdin(crate::common::top95(3).join("\n") + "\n")
            .output()
            .unwrap()
    };
    let refused = run(false);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains(&format!("{}: is there already", earlier.display()))
            && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&earlier).unwrap(),
        "c from an earlier run\n"
    );
    for k in [0, 2] {
        assert!(out.join(format!("puzzle-00000{k}.cnf")).exists());
    }
    let forced = run(true);
    assert_eq!(forced.status.code(), Some(0));
    assert!(std::fs::read_to_string(&earlier).unwrap().contains("p cnf"));
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}
