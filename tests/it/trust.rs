//! The promises around answers (issue 13): every grid verified before anyone sees it, each backend its
//! own limits, no panic on extreme flags or a failing standard error, a closed pipe is success.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::common::{fixture, json_lines, satdoku, top95};

fn path(name: &str) -> String {
    fixture(name).display().to_string()
}

/// A puzzle with 27 solutions: sabuncu3, the 9th puzzle of the logic-solvable set (datasets README),
/// as a line (the file holds ints blocks, `-1` blank).
fn sabuncu3() -> String {
    let text = std::fs::read_to_string(fixture("9x9-sudoku-acs-logic-solvable.txt")).unwrap();
    let rows: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|t| t.len() == 9)
        .map(|t| t.iter().map(|&v| if v == "-1" { "." } else { v }).collect())
        .collect();
    rows[8 * 9..9 * 9].concat()
}

/// Every fault, on every backend, caught by every command: never printed as an answer, reported as an
/// internal error of that backend with exit status 4.
#[test]
fn a_corrupted_grid_is_caught_by_every_command() {
    let unique = top95(3).join("\n") + "\n";
    let several = format!("{}\n", sabuncu3());
    // (fault, input, whether the fault needs counting to show: faults on `multiple` answers)
    let cases = [
        ("wrong-digit", &unique, false),
        ("wrong-second", &several, true),
        ("same-twice", &several, true),
    ];
    for backend in ["dfs", "sat"] {
        for (fault, input, counting) in cases {
            let fault_spec = format!("{backend}:{fault}");
            let count_flag: &[&str] = if counting { &["--unique"] } else { &[] };
            let mut runs: Vec<(String, Vec<String>)> = Vec::new();
            for b in [backend, "both"] {
                let mut args = vec!["solve".to_string(), "--backend".into(), b.into()];
                args.extend(count_flag.iter().map(|s| s.to_string()));
                runs.push((format!("solve --backend {b}"), args));
            }
            runs.push(("check".into(), vec!["check".into()]));
            for (name, args) in runs {
                let out = satdoku()
                    .env("SATDOKU_TEST_FAULT", &fault_spec)
                    .args(&args)
                    .args(["--output", "json"])
                    .write_stdin(input.clone())
                    .output()
                    .unwrap();
                let context = format!("{fault_spec} {name}");
                assert_eq!(out.status.code(), Some(4), "{context}");
                let records = json_lines(&out.stdout);
                assert_eq!(records.len(), input.lines().count(), "{context}");
                for r in &records {
                    assert_eq!(r["status"], "internal-error", "{context}: {r}");
                    assert!(r.get("solution").is_none(), "{context}: printed {r}");
                }
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(
                    stderr.contains(&format!("the {backend} backend")),
                    "{context}: {stderr}"
                );
            }
        }
        // verify --unique: the backends' answers are checked too (the given solution is valid).
        let dir = tempfile::tempdir().unwrap();
        let solutions = dir.path().join("s.txt");
        let solved = satdoku()
            .args(["solve", "-q"])
            .write_stdin(unique.clone())
            .output()
            .unwrap();
        std::fs::write(&solutions, &solved.stdout).unwrap();
        let puzzles = dir.path().join("p.txt");
        std::fs::write(&puzzles, &unique).unwrap();
        let out = satdoku()
            .env("SATDOKU_TEST_FAULT", format!("{backend}:wrong-digit"))
            .args(["verify", "--unique", "--output", "json", "--puzzles"])
            .arg(&puzzles)
            .arg("--solutions")
            .arg(&solutions)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(4), "verify {backend}");
        for r in json_lines(&out.stdout) {
            assert_eq!(r["result"], "internal-error", "{r}");
        }
    }
}

/// Without a fault, the same commands succeed on the same inputs (the test above is about the fault).
#[test]
fn the_fault_free_runs_pass() {
    let out = satdoku()
        .args(["solve", "--backend", "both", "--unique"])
        .write_stdin(format!("{}\n", sabuncu3()))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "multiple (2+)\n");
    assert_eq!(
        out.status.code(),
        Some(1),
        "several solutions when counting"
    );
}

/// `--timeout` applies to each backend on its own: the native backend uses all of it on
/// 64x64-rkkautsar-2, and the SAT backend still has its whole timeout (about 1 s is enough for it to
/// prove several solutions on an idle machine). With one shared deadline the SAT backend would get
/// nothing and the answer would be `unknown`.
#[test]
fn each_backend_gets_its_own_timeout() {
    let out = satdoku()
        .args(["check", "--timeout", "4", "--output", "json"])
        .arg(path("64x64-rkkautsar-2.txt"))
        .output()
        .unwrap();
    let r = &json_lines(&out.stdout)[0];
    let micros = |b: &str| r[b]["micros"].as_u64().unwrap();
    for b in ["dfs", "sat"] {
        match r[b]["status"].as_str().unwrap() {
            "multiple" => {}
            // A backend that gave up had the whole timeout to itself.
            "unknown" => assert!(micros(b) >= 4_000_000, "{b}: {r}"),
            other => panic!("{b} says {other}: {r}"),
        }
    }
    if r["sat"]["status"] == "multiple" {
        assert_eq!(r["status"], "multiple", "{r}");
    }
    if r["dfs"]["status"] == "unknown" {
        // At most one backend settled it: not a full check.
        assert_eq!(out.status.code(), Some(1));
    }
}

/// A node budget bounds the native backend; the SAT backend settles the puzzle, so it is answered
/// (verified, flagged as not cross-checked) rather than `unknown`.
#[test]
fn one_settled_backend_answers_with_a_flag() {
    let hard = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    for args in [
        &["check", "--budget", "3", "--output", "json"][..],
        &[
            "solve",
            "--backend",
            "both",
            "--unique",
            "--budget",
            "3",
            "--output",
            "json",
        ][..],
    ] {
        let out = satdoku()
            .args(args)
            .write_stdin(format!("{hard}\n"))
            .output()
            .unwrap();
        let r = &json_lines(&out.stdout)[0];
        assert_eq!(r["status"], "unique", "{args:?}: {r}");
        assert_eq!(r["dfs"]["status"], "unknown", "{args:?}: {r}");
        assert!(r["agree"].is_null(), "{args:?}: {r}");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
    }
    // verify --unique takes the same limits.
    let dir = tempfile::tempdir().unwrap();
    let (p, s) = (dir.path().join("p.txt"), dir.path().join("s.txt"));
    std::fs::write(&p, format!("{hard}\n")).unwrap();
    let solved = satdoku().arg("solve").arg(&p).output().unwrap();
    std::fs::write(&s, &solved.stdout).unwrap();
    let out = satdoku()
        .args(["verify", "--unique", "--budget", "3", "--puzzles"])
        .arg(&p)
        .arg("--solutions")
        .arg(&s)
        .args(["--output", "json"])
        .output()
        .unwrap();
    let r = &json_lines(&out.stdout)[0];
    assert_eq!(r["result"], "unconfirmed", "{r}");
    assert_eq!(out.status.code(), Some(1));
    let out = satdoku()
        .args(["verify", "--unique", "--budget", "1000000", "--puzzles"])
        .arg(&p)
        .arg("--solutions")
        .arg(&s)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("valid, unique"));
}

#[test]
fn extreme_flag_values_neither_panic_nor_exhaust_memory() {
    let puzzle = top95(1).join("\n") + "\n";
    for args in [
        &["solve", "--timeout", "1e19"][..],
        &["solve", "--timeout", "1e300", "--backend", "both"],
        &["check", "--timeout", "18446744073709551615"],
        &["solve", "--jobs", "4294967295"],
        &[
            "solve",
            "--budget",
            "18446744073709551615",
            "--limit",
            "18446744073709551615",
        ],
    ] {
        let out = satdoku()
            .args(args)
            .write_stdin(puzzle.clone())
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0..=1)),
            "{args:?}: {:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
    for bad in ["-1", "nan", "soon"] {
        let out = satdoku()
            .args(["solve", &format!("--timeout={bad}")])
            .write_stdin(puzzle.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--timeout {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--timeout"));
    }
    let out = satdoku()
        .args(["solve", "--jobs", "4294967295"])
        .write_stdin(puzzle)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("more than 4 per core"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A standard error that cannot be written to (`2>/dev/full`) stops nothing: every record is on
/// standard output and the exit status is the usual one.
#[test]
fn a_failing_standard_error_loses_no_record() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let input = format!("{}\nnot a puzzle line\n{}\n", top95(1)[0], top95(2)[1]);
    let mut child = satdoku_std()
        .args(["solve", "--summary"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(full)
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("error: <stdin>:2:")
    );
}

/// The binary as a plain `std::process::Command` (for stream plumbing `assert_cmd` does not offer).
fn satdoku_std() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("satdoku"));
    cmd.env_remove("SATDOKU_TEST_FAULT");
    cmd
}

/// Every command that writes to standard output stops quietly, with status 0, when its reader goes
/// away (`| head -1`).
#[test]
fn a_closed_pipe_is_success_for_every_command() {
    // A 25x25 puzzle's DIMACS is megabytes: far more than a pipe holds, so the write must fail.
    let big = path("25x25-rkkautsar-1.txt");
    let runs: [&[&str]; 2] = [&["encode", &big], &["encode", "--stats", &big]];
    for args in runs {
        let mut child = satdoku_std()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn both_inputs_from_one_stream_is_a_usage_error_and_decode_reads_stdin() {
    let out = satdoku()
        .args(["verify", "--puzzles", "-", "--solutions", "-"])
        .write_stdin("")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot both be standard input"));
    // decode MODEL=-: a model read from standard input. The empty 4x4 has solutions; a model that
    // sets one digit per cell of a known solution, in the fixed numbering of the plain encodings,
    // decodes to it.
    let solved = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let literals: Vec<String> = solved
        .iter()
        .enumerate()
        .map(|(cell, d)| (cell * 4 + d).to_string())
        .collect();
    let model = format!("s SATISFIABLE\nv {} 0\n", literals.join(" "));
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.txt");
    std::fs::write(&puzzle, "1...\n....\n....\n...1\n").unwrap();
    let out = satdoku()
        .args(["decode", "--encoding", "extended", "--puzzle"])
        .arg(&puzzle)
        .arg("-")
        .write_stdin(model)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "1234\n3412\n2143\n4321\n"
    );
}

/// Counting prints what is known of the count: exact, or a lower bound when the limit stopped it.
#[test]
fn text_output_shows_counts() {
    let puzzle = format!("{}\n", sabuncu3());
    for (limit, want) in [("100", "multiple (27)\n"), ("10", "multiple (10+)\n")] {
        for backend in ["dfs", "sat"] {
            let out = satdoku()
                .args(["solve", "--limit", limit, "--backend", backend])
                .write_stdin(puzzle.clone())
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{backend}");
        }
    }
}

/// Every subcommand's help lists its exit statuses, 0 to 4.
#[test]
fn every_subcommand_documents_its_exit_codes() {
    // Each command lists the statuses it can return (see cli::help_lists_only_the_statuses_...).
    let codes: [(&str, &[&str]); 6] = [
        ("solve", &["0", "1", "2", "3", "4", "130"]),
        ("check", &["0", "1", "2", "3", "4", "130"]),
        ("verify", &["0", "1", "2", "3", "4", "130"]),
        ("encode", &["0", "2", "130"]),
        ("decode", &["0", "1", "2"]),
        ("study", &["0", "1", "2"]),
    ];
    for (command, codes) in codes {
        let out = satdoku().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("Exit status"), "{command}");
        for code in codes {
            let line = format!("\n  {code} ");
            assert!(help.contains(&line), "{command} --help lacks {code:?}");
        }
        if command != "decode" {
            assert!(help.contains("-q, --quiet"), "{command} --help lacks -q");
        }
    }
}
