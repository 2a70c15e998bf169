//! `satdoku study`: the table's rows, sizes that follow from published counts, and no failed answer.

use crate::common::{fixture, satdoku};

#[test]
fn study_csv_rows_and_sizes() {
    let pe96 = fixture("pe96.txt");
    let out = satdoku()
        .args(["study", "--table", "csv"])
        .arg(&pe96)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0][..4], ["file", "backend", "encoding", "puzzles"]);
    // dfs, then sat with each of the four encodings (the default at-most-one, auto: pairwise for
    // constraints of 9 literals, so the published sizes below hold).
    let configs: Vec<(&str, &str)> = rows[1..].iter().map(|r| (r[1], r[2])).collect();
    assert_eq!(
        configs,
        [
            ("dfs", "-"),
            ("sat", "minimal/auto"),
            ("sat", "efficient/auto"),
            ("sat", "extended/auto"),
            ("sat", "pruned/auto"),
        ]
    );
    let column = |name: &str| rows[0].iter().position(|h| *h == name).unwrap();
    for r in &rows[1..] {
        assert_eq!(r[column("puzzles")], "50");
        assert_eq!(r[column("verify failures")], "0");
    }
    // The givens of PE96, counted here from the file: each plain encoding adds one unit clause per
    // given to its published size (8829 / 11745 / 11988 clauses for 9x9).
    let givens: usize = std::fs::read_to_string(&pe96)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("Grid"))
        .map(|l| l.bytes().filter(|b| (b'1'..=b'9').contains(b)).count())
        .sum();
    let mean = |base: usize| format!("{:.0}", base as f64 + givens as f64 / 50.0);
    let clauses = column("clauses");
    assert_eq!(rows[2][clauses], mean(8829));
    assert_eq!(rows[3][clauses], mean(11745));
    assert_eq!(rows[4][clauses], mean(11988));
    // Pruning by the givens leaves fewer variables than the 729 of the plain encodings.
    assert!(rows[5][column("variables")].parse::<u32>().unwrap() < 729);
}

#[test]
fn study_skips_a_file_it_cannot_read_and_measures_the_others() {
    let pe96 = fixture("pe96.txt");
    for table in ["markdown", "csv"] {
        let out = satdoku()
            .args([
                "study",
                "--backends",
                "dfs",
                "--table",
                table,
                "no-such-file.txt",
            ])
            .arg(&pe96)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{table}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("no-such-file.txt: cannot read"), "{stderr}");
        let text = String::from_utf8(out.stdout).unwrap();
        // No row of zeros for the missing file; PE96 measured in full.
        assert!(!text.contains("| dfs | - | 0 |"), "{text}");
        let rows: Vec<&str> = text.lines().filter(|l| l.contains("dfs")).collect();
        assert_eq!(rows.len(), 1, "{text}");
        assert!(rows[0].contains("50"), "{text}");
        if table == "csv" {
            assert!(text.starts_with("file,backend,"), "{text}");
        } else {
            assert!(
                text.contains("### no-such-file.txt\n\nno puzzles read; 1 unreadable"),
                "{text}"
            );
        }
    }
}

/// `--timeout` bounds each puzzle of each configuration: a 64x64 that neither backend settles in
/// minutes is cut (counted in the row's `cut by limits`, exit 1), and the next file is measured in
/// full.
#[test]
fn study_timeout_cuts_a_long_puzzle_and_says_so() {
    let out = satdoku()
        .args(["study", "--backends", "dfs,sat", "--encodings", "pruned"])
        .args(["--timeout", "0.3", "--table", "csv"])
        .arg(fixture("64x64-rkkautsar-1.txt"))
        .arg(fixture("top95.txt"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    let cut = rows[0].iter().position(|h| *h == "cut by limits").unwrap();
    let puzzles = rows[0].iter().position(|h| *h == "puzzles").unwrap();
    let got: Vec<(bool, &str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[0].ends_with("64x64-rkkautsar-1.txt"), r[puzzles], r[cut]))
        .collect();
    assert_eq!(
        got,
        [
            (true, "1", "1"),
            (true, "1", "1"),
            (false, "95", "0"),
            (false, "95", "0")
        ]
    );
}
