//! The `satdoku` binary as users run it: outputs, JSON Lines, exit codes, bad input in batches.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use predicates::prelude::*;

use satdoku::{Grid, Shape, Units, verify};

use crate::common::{fixture, json_lines, satdoku};

/// The first puzzle of tdoku's 17-clue list (`shared/datasets/17-clue.txt`; unique, per its README).
const CLUE17: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

/// No solution: r1c1's row holds 2-9 and its column a 1, with no two equal givens in a unit.
fn no_solution() -> String {
    format!(".23456789{}{}", "1........", ".".repeat(63))
}

/// An 81-character line (digits, `.` blank) as a 9x9 grid; test-side reading, independent of the CLI.
fn grid9(line: &str) -> Grid {
    let values = line
        .trim()
        .chars()
        .map(|c| c.to_digit(10).map_or(0, |d| d as u16))
        .collect();
    Grid::from_values(Shape::new(3, 3).unwrap(), values).unwrap()
}

#[test]
fn pe96_blocks_give_the_project_euler_answer() {
    let out = satdoku()
        .args(["solve", fixture("pe96.txt").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(blocks.len(), 50);
    let units = Units::standard(Shape::new(3, 3).unwrap());
    let mut sum = 0;
    for block in blocks {
        let rows: Vec<&str> = block.lines().collect();
        assert_eq!(rows.len(), 9, "{block}");
        let g = grid9(&rows.concat());
        verify(&units, &Grid::empty(g.shape()), &g).unwrap();
        sum += rows[0][..3].parse::<u32>().unwrap();
    }
    // Project Euler problem 96's published answer.
    assert_eq!(sum, 24702);
}

#[test]
fn pe96_json_lines_one_per_puzzle() {
    let out = satdoku()
        .args(["solve", "--unique", "--output", "json"])
        .arg(fixture("pe96.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), 50);
    let mut sum = 0;
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["index"], i as u64);
        // Each `Grid NN` header is followed by the puzzle: 10 lines per puzzle.
        assert_eq!(r["status"], "unique");
        assert_eq!(r["count"], 1);
        let sol = r["solution"].as_str().unwrap();
        assert_eq!(sol.len(), 81);
        sum += sol[..3].parse::<u32>().unwrap();
        assert!(r["micros"].is_u64());
    }
    assert_eq!(sum, 24702);
}

#[test]
fn letters_in_letters_out_matches_published_solution() {
    let out = satdoku()
        .arg("solve")
        .arg(fixture("16x16-poj3076-sample.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let expected = std::fs::read_to_string(fixture("16x16-poj3076-sample.solution.txt")).unwrap();
    let norm = |s: &str| s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    assert_eq!(
        norm(&String::from_utf8(out.stdout).unwrap()),
        norm(&expected)
    );
}

#[test]
fn stdin_by_default_and_by_dash() {
    for args in [vec!["solve"], vec!["solve", "-"]] {
        let out = satdoku()
            .args(&args)
            .write_stdin(format!("{CLUE17}\n"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        let g = grid9(&text);
        verify(&Units::standard(g.shape()), &grid9(CLUE17), &g).unwrap();
        assert!(
            out.stderr.is_empty(),
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_bad_line_is_reported_in_place_and_the_others_solved() {
    let input = format!("{CLUE17}\n{}\n{CLUE17}\n", &CLUE17[..80]);
    let out = satdoku().arg("solve").write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], lines[2]);
    assert!(lines[1].starts_with("error: <stdin>:2:"), "{}", lines[1]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("<stdin>:2:"), "{stderr}");
}

#[test]
fn json_has_exactly_one_object_per_puzzle_errors_included() {
    let input = format!(
        "# a comment\n{CLUE17}\n{}x\n\n{}\n",
        &CLUE17[..80],
        no_solution()
    );
    let out = satdoku()
        .args(["solve", "--output", "json"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "bad input outranks no solution");
    let r = json_lines(&out.stdout);
    assert_eq!(r.len(), 3);
    assert_eq!(
        r.iter()
            .map(|v| v["index"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [0, 1, 2]
    );
    assert_eq!(
        r.iter()
            .map(|v| v["line"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [2, 3, 5]
    );
    assert_eq!(r[0]["status"], "solved");
    assert!(r[0].get("count").is_none(), "no count when not counting");
    assert_eq!(r[1]["status"], "error");
    assert!(
        r[1]["error"].as_str().unwrap().starts_with("<stdin>:3:81:"),
        "{}",
        r[1]
    );
    assert!(r[1].get("solution").is_none());
    assert_eq!(r[2]["status"], "none");
    assert!(r[2].get("solution").is_none());
}

#[test]
fn exit_codes() {
    let run = |args: &[&str], input: String| {
        satdoku()
            .arg("solve")
            .args(args)
            .write_stdin(input)
            .output()
            .unwrap()
            .status
            .code()
    };
    let empty = ".".repeat(81);
    assert_eq!(run(&[], format!("{CLUE17}\n")), Some(0));
    assert_eq!(run(&["--unique"], format!("{CLUE17}\n")), Some(0));
    assert_eq!(run(&[], format!("{}\n", no_solution())), Some(1));
    assert_eq!(
        run(&[], format!("{empty}\n")),
        Some(0),
        "several, not counting"
    );
    assert_eq!(run(&["--unique"], format!("{empty}\n")), Some(1));
    assert_eq!(run(&["--limit", "3"], format!("{empty}\n")), Some(1));
    assert_eq!(run(&[], String::new()), Some(2), "empty input");
    assert_eq!(
        run(&["--limit", "0"], format!("{CLUE17}\n")),
        Some(2),
        "usage"
    );
    assert_eq!(
        run(&["--box", "3"], format!("{CLUE17}\n")),
        Some(2),
        "usage"
    );
}

#[test]
fn multiple_is_reported_with_both_solutions() {
    let out = satdoku()
        .args(["solve", "--limit", "5", "--output", "json"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .output()
        .unwrap();
    let r = &json_lines(&out.stdout)[0];
    assert_eq!(r["status"], "multiple");
    assert_eq!(r["count"], 5);
    assert_eq!(r["complete"], false);
    let sols = r["solutions"].as_array().unwrap();
    let units = Units::standard(Shape::new(3, 3).unwrap());
    let (a, b) = (
        grid9(sols[0].as_str().unwrap()),
        grid9(sols[1].as_str().unwrap()),
    );
    assert_ne!(a, b);
    for g in [&a, &b] {
        verify(&units, &Grid::empty(g.shape()), g).unwrap();
    }
    let plain = satdoku()
        .args(["solve", "--unique"])
        .write_stdin(format!("{}\n", ".".repeat(81)))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(plain.stdout).unwrap(), "multiple (2+)\n");
}

#[test]
fn sabuncu3_has_27_solutions() {
    // 9x9-sudoku-acs-logic-solvable.txt: the 9th puzzle is sabuncu3, 27 solutions (datasets README,
    // verified there by an independent DFS and CaDiCaL).
    let out = satdoku()
        .args(["solve", "--limit", "100", "--output", "json"])
        .arg(fixture("9x9-sudoku-acs-logic-solvable.txt"))
        .output()
        .unwrap();
    let r = json_lines(&out.stdout);
    assert_eq!(r.len(), 16);
    assert_eq!(r[8]["status"], "multiple");
    assert_eq!(r[8]["count"], 27);
    assert_eq!(r[8]["complete"], true);
    for (i, rec) in r.iter().enumerate() {
        if i != 8 {
            assert_eq!(rec["status"], "unique", "puzzle {i}");
        }
    }
    assert_eq!(
        out.status.code(),
        Some(1),
        "several solutions while counting"
    );
}

#[test]
fn a_missing_file_is_one_error_record_and_the_next_file_is_solved() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
    std::fs::write(&good, format!("{CLUE17}\n")).unwrap();
    let missing = dir.path().join("missing.txt");
    let out = satdoku()
        .args(["solve", "--output", "json"])
        .arg(&missing)
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let r = json_lines(&out.stdout);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0]["status"], "error");
    assert!(r[0]["error"].as_str().unwrap().contains("missing.txt"));
    assert_eq!(r[1]["status"], "solved");
    assert_eq!(r[1]["index"], 1);
    assert!(r[1]["file"].as_str().unwrap().ends_with("good.txt"));
}

#[test]
fn help_documents_exit_codes_and_version_prints() {
    satdoku()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Exit status").and(predicate::str::contains("2    bad input")),
        );
    satdoku()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("satdoku "));
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("satdoku"))
        .arg("solve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..20_000 {
            if writeln!(stdin, "{CLUE17}").is_err() {
                break;
            }
        }
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first.trim().len(), 81);
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_timeout_gives_unknown_and_the_run_goes_on() {
    // 64x64-rkkautsar-1 has several solutions, but neither the native backend nor varisat (the
    // SAT backend's default solver) settles it within minutes (CaDiCaL takes 3-18 s: BENCHMARKS):
    // under a short timeout both must say `unknown`, and the next puzzle must still be solved.
    let dir = tempfile::tempdir().unwrap();
    let tiny = dir.path().join("tiny.txt");
    std::fs::write(&tiny, "1 0 0 0\n0 0 1 0\n0 1 0 0\n0 0 0 1\n").unwrap();
    for backend in ["dfs", "sat"] {
        let out = satdoku()
            .args([
                "solve",
                "--unique",
                "--output",
                "json",
                "--timeout",
                "0.5",
                "--backend",
                backend,
            ])
            .arg(fixture("64x64-rkkautsar-1.txt"))
            .arg(&tiny)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{backend}");
        let r = json_lines(&out.stdout);
        assert_eq!(r.len(), 2, "{backend}");
        assert_eq!(r[0]["status"], "unknown", "{backend}");
        assert!(r[0].get("solution").is_none());
        // The 4x4 has several solutions (it is the crate documentation's example).
        assert_eq!(r[1]["status"], "multiple", "{backend}");
    }
}

#[test]
fn a_node_budget_gives_unknown_for_dfs_and_says_it_does_not_bound_sat() {
    // The first forum-hardest puzzle needs guesses, so one node is not enough for the native
    // backend; the SAT backend has no node count, solves it, and the run says why.
    let first = std::fs::read_to_string(fixture("forum-hardest-1905-11plus-head200.txt")).unwrap();
    let first = first
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
        .to_string();
    let run = |backend: &str| {
        satdoku()
            .args([
                "solve",
                "--budget",
                "1",
                "--output",
                "json",
                "--backend",
                backend,
            ])
            .write_stdin(format!("{first}\n"))
            .output()
            .unwrap()
    };
    let dfs = run("dfs");
    assert_eq!(dfs.status.code(), Some(1));
    assert_eq!(json_lines(&dfs.stdout)[0]["status"], "unknown");
    // Only the note that the other backend may settle it.
    let note = String::from_utf8_lossy(&dfs.stderr);
    assert!(
        note.contains("--backend sat or auto may settle it"),
        "{note}"
    );
    assert!(!note.contains("--timeout"), "{note}");
    let sat = run("sat");
    assert_eq!(sat.status.code(), Some(0));
    let r = json_lines(&sat.stdout);
    assert_eq!(r[0]["status"], "solved");
    let grid = grid9(r[0]["solution"].as_str().unwrap());
    verify(
        &Units::standard(Shape::new(3, 3).unwrap()),
        &grid9(&first),
        &grid,
    )
    .unwrap();
    let note = String::from_utf8_lossy(&sat.stderr);
    assert!(
        note.contains("--budget") && note.contains("--timeout"),
        "{note}"
    );
}

#[test]
fn a_count_line_heads_a_file_but_among_puzzles_is_an_error() {
    // Norvig's copies start with a count line; the same text later in the file is a bad puzzle,
    // reported in place rather than dropped.
    let out = satdoku()
        .args(["solve", "--output", "json"])
        .write_stdin(format!("95\n{CLUE17}\n123\nGrid 07\n{CLUE17}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let r = json_lines(&out.stdout);
    let statuses: Vec<&str> = r.iter().map(|v| v["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["solved", "error", "error", "solved"]);
    assert!(
        r[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("<stdin>:3:4: wrong length"),
        "{}",
        r[1]
    );
    assert!(
        r[2]["error"].as_str().unwrap().starts_with("<stdin>:4:"),
        "{}",
        r[2]
    );
}

#[test]
fn a_formula_over_the_memory_budget_is_refused_with_a_way_out() {
    // An empty 64x64 grid under the extended pairwise encoding: 4N² + 2N³(N-1) = 33,046,528 clauses
    // (about 1.1 GB in varisat), over the budget: refused at once, naming the alternatives.
    let out = satdoku()
        .args([
            "solve",
            "--backend",
            "sat",
            "--encoding",
            "extended",
            "--amo",
            "pairwise",
            "--output",
            "json",
        ])
        .write_stdin(format!("{}\n", ".".repeat(4096)))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let r = &json_lines(&out.stdout)[0];
    assert_eq!(r["status"], "error");
    let e = r["error"].as_str().unwrap();
    assert!(
        e.contains("33046528 clauses") && e.contains("--amo auto"),
        "{e}"
    );
}

/// `solve` runs the auto backend by default: the native search settles easy puzzles (JSON `backend`
/// says so); past its node budget (here the user's 3 nodes) the SAT backend answers. A single backend
/// that hits a limit suggests the other.
#[test]
fn auto_is_the_default_and_says_who_answered() {
    let hard =
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6\n";
    let out = satdoku()
        .args(["solve", "--unique", "--output", "json"])
        .write_stdin(hard)
        .output()
        .unwrap();
    let r = &json_lines(&out.stdout)[0];
    assert_eq!(
        (r["status"].as_str(), r["backend"].as_str()),
        (Some("unique"), Some("dfs"))
    );
    // varisat, which no conflict budget stops (CaDiCaL, the auto backend's solver when compiled in,
    // would count the 3 as conflicts).
    let out = satdoku()
        .args(["solve", "--unique", "--budget", "3", "--output", "json"])
        .args(["--sat-solver", "varisat"])
        .write_stdin(hard)
        .output()
        .unwrap();
    let r = &json_lines(&out.stdout)[0];
    assert_eq!(
        (r["status"].as_str(), r["backend"].as_str()),
        (Some("unique"), Some("sat"))
    );
    assert_eq!(out.status.code(), Some(0));
    let out = satdoku()
        .args(["solve", "--backend", "dfs", "--budget", "3"])
        .write_stdin(hard)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "unknown\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--backend sat or auto may settle it"));
}

/// In text, a solution found while counting or certifying says its status after the grid: on the
/// grid's line for one-line puzzles, on a line below multi-line grids; `--output line` leaves the
/// grids alone, to pipe on.
#[test]
fn text_output_says_unique_and_certified_after_the_grid() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    let puzzles = crate::common::top95(3);
    let out = satdoku()
        .args(["solve", "--unique", "--certify"])
        .arg(&certs)
        .write_stdin(puzzles.join("\n") + "\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let units = Units::standard(Shape::new(3, 3).unwrap());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (line, puzzle) in lines.iter().zip(&puzzles) {
        let (grid, status) = line.split_at(81);
        assert_eq!(status, "  unique, certified", "{line}");
        verify(&units, &grid9(puzzle), &grid9(grid)).unwrap();
    }
    // --output line: the grids alone, which read back as puzzles (solved already).
    let out = satdoku()
        .args(["solve", "--unique", "--output", "line"])
        .write_stdin(puzzles.join("\n") + "\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().all(|l| l.len() == 81), "{text}");
    let again = satdoku()
        .args(["solve", "--unique", "--output", "json"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    let records = json_lines(&again.stdout);
    assert_eq!(records.len(), 3);
    for (r, line) in records.iter().zip(&lines) {
        assert_eq!(r["solution"].as_str(), Some(&line[..81]));
        assert_eq!(r["status"], "unique");
    }
    // Multi-line grids: the status on a line of its own below each grid (pe96: all unique).
    let out = satdoku()
        .args(["solve", "--limit", "10"])
        .arg(fixture("pe96.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(blocks.len(), 50);
    for block in blocks {
        let rows: Vec<&str> = block.lines().collect();
        assert_eq!(rows.len(), 10, "{block}");
        assert_eq!(rows[9], "unique");
    }
    // Not counting, no status: the grid alone, as before.
    let out = satdoku()
        .arg("solve")
        .write_stdin(format!("{}\n", puzzles[0]))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end().len(), 81);
}

/// Each command's `--help` lists the exit statuses it can return, and no other; `help` takes `--help`.
#[test]
fn help_lists_only_the_statuses_each_command_returns() {
    let statuses = |command: &str| -> Vec<(u32, String)> {
        let out = satdoku().args([command, "--help"]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}");
        let text = String::from_utf8(out.stdout).unwrap();
        let section = &text[text.find("Exit status").expect(command)..];
        let mut list: Vec<(u32, String)> = Vec::new();
        for line in section.lines().skip(1) {
            let t = line.trim_start();
            match t.split_once(' ') {
                Some((code, rest)) if code.parse::<u32>().is_ok() && line.starts_with("  ") => {
                    list.push((code.parse().unwrap(), rest.trim().to_string()))
                }
                _ if line.starts_with("     ") => {
                    let last = list.last_mut().expect(command);
                    last.1.push(' ');
                    last.1.push_str(t);
                }
                _ => break,
            }
        }
        list
    };
    let codes = |command: &str| statuses(command).iter().map(|s| s.0).collect::<Vec<_>>();
    assert_eq!(codes("solve"), [0, 1, 2, 3, 4, 130]);
    assert_eq!(codes("check"), [0, 1, 2, 3, 4, 130]);
    assert_eq!(codes("verify"), [0, 1, 2, 3, 4, 130]);
    assert_eq!(codes("encode"), [0, 2, 130]);
    assert_eq!(codes("decode"), [0, 1, 2]);
    assert_eq!(codes("study"), [0, 1, 2]);
    for command in ["solve", "check", "verify", "encode", "decode", "study"] {
        for (code, words) in statuses(command) {
            assert!(!words.contains("not used"), "{command} {code}: {words}");
            // Each line says what its own status means, and no other status's number.
            assert!(!words.contains("(2)"), "{command} {code}: {words}");
            if code == 1 {
                assert!(!words.contains("breaks a rule"), "{command}: {words}");
            }
        }
    }
    let decode = statuses("decode");
    assert!(decode[2].1.contains("breaks a rule"), "{decode:?}");
    let verify = statuses("verify");
    assert!(
        verify[2].1.contains("different numbers of grids"),
        "{verify:?}"
    );
    // `help`: of satdoku, of a command, and of itself.
    let out = satdoku().args(["help", "--help"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: satdoku help"));
    let out = satdoku().args(["help", "decode"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: satdoku decode"));
    let out = satdoku().args(["help", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Shell completions and the man pages, generated from the command-line definition: every command
/// is in them.
#[test]
fn completions_and_man_pages_cover_every_command() {
    let commands = ["solve", "check", "verify", "encode", "decode", "study"];
    for (shell, head) in [
        ("bash", "_satdoku()"),
        ("zsh", "#compdef satdoku"),
        ("fish", "complete -c satdoku"),
    ] {
        let out = satdoku().args(["completions", shell]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(head), "{shell}");
        for c in commands {
            assert!(text.contains(c), "{shell}: {c}");
        }
        // The options of a command, e.g. solve's --unique and its --output choices.
        assert!(
            text.contains("unique") && text.contains("pretty"),
            "{shell}"
        );
    }
    let out = satdoku().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let page = satdoku().arg("man").output().unwrap();
    assert_eq!(page.status.code(), Some(0));
    let page = String::from_utf8(page.stdout).unwrap();
    assert!(page.contains(".TH satdoku 1"), "{page}");
    for c in commands {
        assert!(page.contains(c), "{c}");
        let sub = satdoku().args(["man", c]).output().unwrap();
        assert_eq!(sub.status.code(), Some(0));
        let sub = String::from_utf8(sub.stdout).unwrap();
        assert!(sub.contains(&format!(".TH satdoku-{c} 1")), "{sub}");
        assert!(sub.contains("Exit status"), "{c}");
    }
    assert_eq!(
        satdoku()
            .args(["man", "nope"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn one_job_over_a_file_gives_one_record_per_puzzle_in_order_across_its_batches() {
    // With one job over files, 9x9 puzzles are read, solved and written 64 at a time (a bad line
    // weighs less): over 300 lines, with bad lines and a puzzle without a solution at and beside
    // the batches' edges, the records are the threaded path's, one per line, in input order, and
    // every grid solves its puzzle.
    let text = std::fs::read_to_string(fixture("17-clue-head200.txt")).unwrap();
    let puzzles: Vec<&str> = text
        .lines()
        .filter(|l| l.len() == 81 && !l.starts_with('#'))
        .collect();
    assert!(puzzles.len() >= 100);
    let (n, bad, none) = (300, [63, 64, 127, 128, 129, 255, 256, 299], 130);
    let lines: Vec<String> = (0..n)
        .map(|i| match i {
            _ if bad.contains(&i) => puzzles[i % puzzles.len()][..80].to_string(),
            _ if i == none => no_solution(),
            _ => puzzles[i % puzzles.len()].to_string(),
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let run = |jobs: &str| {
        satdoku()
            .args(["solve", "--backend", "dfs", "--jobs", jobs])
            .arg(&file)
            .output()
            .unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.status.code(), Some(2), "bad input sets the exit code");
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(two.status.code(), Some(2));
    let out = String::from_utf8(one.stdout).unwrap();
    let records: Vec<&str> = out.lines().collect();
    assert_eq!(records.len(), n, "{out}");
    let units = Units::standard(Shape::new(3, 3).unwrap());
    for (i, r) in records.iter().enumerate() {
        if bad.contains(&i) {
            let at = format!("error: {}:{}:", file.display(), i + 1);
            assert!(r.starts_with(&at), "line {}: {r}", i + 1);
        } else if i == none {
            assert_eq!(*r, "none", "line {}", i + 1);
        } else {
            let (puzzle, solution) = (grid9(&lines[i]), grid9(r));
            assert!(
                verify(&units, &puzzle, &solution).is_ok(),
                "line {}: {r}",
                i + 1
            );
        }
    }
}
