//! `satdoku check`, `solve --backend both` and `satdoku verify` as users run them, including a faulty
//! backend (switched on by the test hook `SATDOKU_TEST_FAULT`) that the cross-check must catch.

use crate::common::{fixture, json_lines, satdoku};

fn path(name: &str) -> String {
    fixture(name).to_str().unwrap().to_string()
}

#[test]
fn check_pe96_agrees_and_reproduces_the_answer() {
    let out = satdoku()
        .args(["check", "--output", "json", &path("pe96.txt")])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = json_lines(&out.stdout);
    assert_eq!(r.len(), 50);
    let mut sum = 0;
    for rec in &r {
        assert_eq!(rec["status"], "unique");
        assert_eq!(rec["agree"], true);
        assert_eq!(rec["dfs"]["solution"], rec["sat"]["solution"]);
        assert!(rec["dfs"]["micros"].is_u64() && rec["sat"]["micros"].is_u64());
        sum += rec["solution"].as_str().unwrap()[..3]
            .parse::<u32>()
            .unwrap();
    }
    assert_eq!(sum, 24702, "Project Euler 96");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("check (dfs, sat on varisat): 50 puzzles: 50 unique; 0 errors; dfs "),
        "{stderr}"
    );
}

#[test]
fn check_text_report_ends_with_a_summary() {
    let out = satdoku()
        .args(["check", &path("serg-benchmark-head200.txt")])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "several solutions is not a failure of check"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let records: Vec<&str> = text.lines().collect();
    // serg-benchmark: every puzzle has at least two solutions (datasets README, verified).
    assert!(records.len() >= 190, "{}", records.len());
    assert!(
        records
            .iter()
            .all(|l| l.contains(": multiple (2+) (agree;")),
        "{text}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let last = stderr.lines().last().unwrap();
    assert!(
        last.starts_with(&format!(
            "check (dfs, sat on varisat): {} puzzles: {} multiple; 0 errors; dfs ",
            records.len(),
            records.len()
        )),
        "{last}"
    );
    // -q: the same records, no summary.
    let quiet = satdoku()
        .args(["check", "-q", &path("serg-benchmark-head200.txt")])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(quiet.stdout).unwrap().lines().count(),
        records.len()
    );
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "");
}

#[test]
fn check_counts_sabuncu3_with_both_backends() {
    let out = satdoku()
        .args(["check", "--limit", "100", "--output", "json"])
        .arg(fixture("9x9-sudoku-acs-logic-solvable.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let r = json_lines(&out.stdout);
    assert_eq!(r[8]["status"], "multiple");
    assert_eq!(r[8]["dfs"]["count"], 27);
    assert_eq!(r[8]["sat"]["count"], 27);
}

#[test]
fn a_wrong_digit_is_an_internal_error_with_exit_4() {
    for backend in ["dfs", "sat"] {
        let out = satdoku()
            .env("SATDOKU_TEST_FAULT", format!("{backend}:wrong-digit"))
            .args(["check", "--output", "json", &path("top95.txt")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(4), "{backend}");
        let r = json_lines(&out.stdout);
        assert_eq!(r.len(), 95);
        for rec in &r {
            assert_eq!(rec["status"], "internal-error");
            assert_eq!(rec["agree"], false);
            assert_eq!(rec[backend]["status"], "internal-error");
            let problems: Vec<&str> = rec["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            assert!(
                problems
                    .iter()
                    .any(|p| p
                        .contains(&format!("the {backend} backend returned an invalid grid: "))),
                "{problems:?}"
            );
        }
    }
}

#[test]
fn a_false_unique_claim_is_caught() {
    let out = satdoku()
        .env("SATDOKU_TEST_FAULT", "sat:claim-unique")
        .args(["check", &path("serg-benchmark-head200.txt")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  - status differs: dfs says multiple, sat says unique"),
        "{text}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.lines().last().unwrap().contains(" disagree;"),
        "{stderr}"
    );
}

#[test]
fn solve_with_both_backends() {
    let out = satdoku()
        .args(["solve", "--backend", "both", &path("pe96.txt")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let sum: u32 = String::from_utf8(out.stdout)
        .unwrap()
        .split("\n\n")
        .map(|b| b[..3].parse::<u32>().unwrap())
        .sum();
    assert_eq!(sum, 24702);

    let out = satdoku()
        .env("SATDOKU_TEST_FAULT", "dfs:claim-none")
        .args(["solve", "--backend", "both", &path("top95.txt")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 95);
    assert!(
        text.lines()
            .all(|l| l.starts_with("disagree: status differs: dfs says none, sat says solved")),
        "{text}"
    );
}

#[test]
fn check_reports_bad_input_per_puzzle() {
    let input = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n12345678\n";
    let out = satdoku()
        .args(["check", "--output", "json"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let r = json_lines(&out.stdout);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["status"], "unique");
    assert_eq!(r[1]["status"], "error");
    assert!(
        r[1]["error"].as_str().unwrap().starts_with("<stdin>:2:"),
        "{}",
        r[1]
    );
}

#[test]
fn verify_accepts_the_published_solution_and_proves_it_unique() {
    let out = satdoku()
        .args(["verify", "--unique", "--output", "json"])
        .args(["--puzzles", &path("16x16-poj3076-sample.txt")])
        .args(["--solutions", &path("16x16-poj3076-sample.solution.txt")])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = json_lines(&out.stdout);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["valid"], true);
    assert_eq!(r[0]["unique"], true);
}

#[test]
fn verify_names_the_first_broken_rule() {
    let dir = tempfile::tempdir().unwrap();
    let solution = std::fs::read_to_string(fixture("16x16-poj3076-sample.solution.txt")).unwrap();
    // Swap the first two letters of the first row: the row stays a permutation, the columns do not,
    // and r1c2 held a given (`A` is at r1c3 in the puzzle, so r1c1/r1c2 are blanks: check columns).
    let mut rows: Vec<String> = solution.lines().map(String::from).collect();
    let mut first: Vec<char> = rows[0].chars().collect();
    first.swap(0, 1);
    rows[0] = first.into_iter().collect();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, rows.join("\n") + "\n").unwrap();
    let out = satdoku()
        .args(["verify", "--puzzles", &path("16x16-poj3076-sample.txt")])
        .arg("--solutions")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(": invalid: column 1 holds "), "{text}");
}

#[test]
fn verify_finds_another_solution_under_unique() {
    // The first serg-benchmark puzzle has several solutions; give one of them and ask for uniqueness.
    let puzzles = fixture("serg-benchmark-head200.txt");
    let first_puzzle = std::fs::read_to_string(&puzzles)
        .unwrap()
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
        .to_string();
    let solved = satdoku()
        .arg("solve")
        .write_stdin(format!("{first_puzzle}\n"))
        .output()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (p, s) = (dir.path().join("p.txt"), dir.path().join("s.txt"));
    std::fs::write(&p, format!("{first_puzzle}\n")).unwrap();
    std::fs::write(&s, &solved.stdout).unwrap();
    let out = satdoku()
        .args(["verify", "--unique", "--output", "json"])
        .arg("--puzzles")
        .arg(&p)
        .arg("--solutions")
        .arg(&s)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r = &json_lines(&out.stdout)[0];
    assert_eq!(r["valid"], true);
    assert_eq!(r["unique"], false);
    let other = r["other_solution"].as_str().unwrap();
    assert_eq!(other.len(), 81);
    assert_ne!(other, String::from_utf8(solved.stdout).unwrap().trim());
}

#[test]
fn verify_reports_unpaired_grids() {
    let out = satdoku()
        .args([
            "verify",
            "--puzzles",
            &path("pe96.txt"),
            "--solutions",
            &path("16x16-poj3076-sample.solution.txt"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 50, "one record per pair");
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("invalid: the solution is 16x16 (16 digits), the puzzle 9x9 (9 digits)"),
        "{text}"
    );
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .contains("no solution given for puzzle 1"),
        "{text}"
    );
}

/// `verify --solutions` reads `solve --output json` records directly, from a file or standard input;
/// a record without a solution is that pair's error, and the others are judged.
#[test]
fn verify_reads_solves_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("p.txt");
    // top95 #1 and #2, then the empty 9x9 grid (several solutions: no `solution` under --unique).
    let lines = crate::common::top95(2);
    std::fs::write(
        &puzzles,
        format!("{}\n{}\n{}\n", lines[0], lines[1], ".".repeat(81)),
    )
    .unwrap();
    let solved = satdoku()
        .args(["solve", "--unique", "--output", "json"])
        .arg(&puzzles)
        .output()
        .unwrap();
    let out = satdoku()
        .args(["verify", "--output", "json", "--puzzles"])
        .arg(&puzzles)
        .args(["--solutions", "-"])
        .write_stdin(solved.stdout.clone())
        .output()
        .unwrap();
    let r = json_lines(&out.stdout);
    let results: Vec<&str> = r.iter().map(|r| r["result"].as_str().unwrap()).collect();
    assert_eq!(results, ["valid", "valid", "error"]);
    assert!(
        r[2]["message"]
            .as_str()
            .unwrap()
            .contains("the record has no solution (status multiple)"),
        "{}",
        r[2]
    );
    assert_eq!(out.status.code(), Some(2));
    // The same records as a file, and a changed digit in one of them is caught.
    let text = String::from_utf8(solved.stdout).unwrap();
    let first = &json_lines(text.as_bytes())[0];
    let good = first["solution"].as_str().unwrap();
    let bad: String = good
        .chars()
        .enumerate()
        .map(|(i, ch)| {
            if i == 80 {
                if ch == '1' { '2' } else { '1' }
            } else {
                ch
            }
        })
        .collect();
    let file = dir.path().join("s.jsonl");
    std::fs::write(&file, text.replacen(good, &bad, 1)).unwrap();
    let out = satdoku()
        .args(["verify", "--puzzles"])
        .arg(&puzzles)
        .arg("--solutions")
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines().next().unwrap().contains(": invalid: "),
        "{text}"
    );
}

/// `--sat-solver`: CaDiCaL when compiled in (named in check's records, with --budget as its conflict
/// budget and no note about it), else a usage error that says how to build it.
#[test]
fn the_sat_solver_is_chosen_on_the_command_line() {
    let out = satdoku()
        .args([
            "check",
            "--sat-solver",
            "cadical",
            "--budget",
            "100000",
            "--output",
            "json",
        ])
        .arg(path("top95.txt"))
        .output()
        .unwrap();
    if cfg!(feature = "cadical") {
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        for r in json_lines(&out.stdout) {
            assert_eq!(r["sat"]["solver"], "cadical", "{r}");
            assert_eq!(r["agree"], true, "{r}");
        }
        assert!(!String::from_utf8_lossy(&out.stderr).contains("--budget counts"));
    } else {
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--features cadical"));
    }
    let varisat = satdoku()
        .args(["check", "--budget", "100000", "--output", "json"])
        .arg(path("top95.txt"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&varisat.stderr).contains("--budget counts"));
    assert_eq!(json_lines(&varisat.stdout)[0]["sat"]["solver"], "varisat");
}
