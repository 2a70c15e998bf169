//! `--output sigh` (issue 25): `solve` writes each solution as sigh's constraint string (the puzzle's
//! rules, the solution as givens), `generate` each puzzle made; what is written reads back to a
//! unique puzzle with the same solution and the same rules, and the independent checker accepts the
//! written solution under the original puzzle's rules.

use satdoku::format::{ReadOptions, read_str, write_sigh};

use crate::common::{fixture, json_lines, satdoku};

/// A temporary file holding `text`.
fn temp_file(dir: &tempfile::TempDir, name: &str, text: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// A solution's digits as numbers 1..N, whatever its alphabet: `0-9a-f` (the hex CSV's), `A-P`
/// (sigh's 16x16 read back), or digits from 1.
fn values(s: &str) -> Vec<usize> {
    let alphabet = if s.contains('0') {
        "0123456789abcdef"
    } else if s.chars().any(|c| c.is_ascii_uppercase()) {
        "ABCDEFGHIJKLMNOP"
    } else {
        "123456789"
    };
    s.chars().map(|c| 1 + alphabet.find(c).unwrap()).collect()
}

/// `solve --unique --output json` of `path`: its records, each asserted `unique`.
fn solve_unique(path: &str) -> Vec<serde_json::Value> {
    let out = satdoku()
        .args(["solve", "-q", "--unique", "--output", "json", path])
        .output()
        .unwrap();
    let records = json_lines(&out.stdout);
    assert!(
        records.iter().all(|r| r["status"] == "unique"),
        "{path}: {records:?}"
    );
    records
}

/// The same solutions, record for record, whatever their alphabets.
fn assert_same_solutions(a: &[serde_json::Value], b: &[serde_json::Value], file: &str) {
    assert_eq!(a.len(), b.len(), "{file}");
    for (a, b) in a.iter().zip(b) {
        let (a, b) = (a["solution"].as_str(), b["solution"].as_str());
        assert_eq!(values(a.unwrap()), values(b.unwrap()), "{file}");
    }
}

/// Classic grids in blocks, 6x6, 16x16 CSV, killers in satdoku's cage lines, a jigsaw with its region
/// map, and sigh's own strings (thermometers, arrows, kropki, ...): each solution written by
/// `--output sigh` is valid for the original puzzle by `verify`, reads back as a unique puzzle with
/// that solution, and carries the original's rules: its rules with the original givens (and
/// candidate sets) pose the same puzzle (unique, the same solution), a pure killer by its cages
/// alone.
#[test]
fn solve_output_sigh_round_trips_every_input_format() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = std::fs::read_to_string(fixture("variants-sigh/puzzles.txt")).unwrap();
    // The corpus's first ten puzzles (as the README's example), without their published solutions.
    let head: String = corpus
        .lines()
        .take(60)
        .filter(|l| !l.starts_with("solution:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let sigh_head = temp_file(&dir, "head.txt", head.as_bytes());
    let files = [
        fixture("pe96.txt").to_string_lossy().into_owned(),
        fixture("6x6-sample.txt").to_string_lossy().into_owned(),
        fixture("16x16-hex.csv").to_string_lossy().into_owned(),
        fixture("repro/cert-killer.txt")
            .to_string_lossy()
            .into_owned(),
        fixture("variants/jigsaw.txt")
            .to_string_lossy()
            .into_owned(),
        sigh_head,
    ];
    for (k, file) in files.iter().enumerate() {
        let out = satdoku()
            .args(["solve", "-q", "--output", "sigh", file])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{file}");
        let text = String::from_utf8(out.stdout).unwrap();
        let json = satdoku()
            .args(["solve", "-q", "--output", "json", file])
            .output()
            .unwrap();
        let answers = json_lines(&json.stdout);
        assert_eq!(
            text.lines().count(),
            answers.len(),
            "{file}: one record each"
        );
        assert!(answers.len() >= 2 || k == 4, "{file}: {}", answers.len());
        assert!(text.lines().all(|l| l.starts_with('.')), "{file}: {text}");
        let written = temp_file(&dir, &format!("out{k}.txt"), text.as_bytes());

        // The independent checker, under the original puzzle's rules.
        let checked = satdoku()
            .args(["verify", "-q", "--puzzles", file, "--solutions", &written])
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&checked.stdout);
        assert_eq!(checked.status.code(), Some(0), "{file}: {report}");
        assert_eq!(report.matches(": valid").count(), answers.len(), "{report}");

        // Read back: unique, the same solution (as the JSON of the original gives it).
        assert_same_solutions(&answers, &solve_unique(&written), file);

        // `--symbols` names the digits of what is read back: the hex CSV's own alphabet.
        if file.ends_with("16x16-hex.csv") {
            let hex = satdoku()
                .args([
                    "solve",
                    "-q",
                    "--symbols",
                    "0-9a-f",
                    "--output",
                    "line",
                    &written,
                ])
                .output()
                .unwrap();
            let hex = String::from_utf8(hex.stdout).unwrap();
            let expected: Vec<&str> = answers
                .iter()
                .map(|a| a["solution"].as_str().unwrap())
                .collect();
            assert_eq!(hex.lines().collect::<Vec<_>>(), expected);
        }

        // The rules read back are the original's: with the original givens in place of the
        // solution, they have that solution and no other.
        let original = read_str(
            &std::fs::read_to_string(file).unwrap(),
            file,
            ReadOptions::default(),
        );
        assert_eq!(original.len(), answers.len());
        let posed: String = original
            .iter()
            .zip(text.lines())
            .map(|(o, line)| {
                // The original's givens and candidate sets (pencilmarks, odd/even cells), as
                // sigh's givens item.
                let o = o.puzzle.as_ref().unwrap();
                let original = write_sigh(&o.units, &o.grid).unwrap();
                let givens = original.split('.').filter(|i| i.starts_with('~'));
                let rules = line
                    .split('.')
                    .filter(|i| !i.starts_with('~') && !i.is_empty());
                let items: Vec<&str> = rules.chain(givens).collect();
                format!(".{}\n", items.join("."))
            })
            .collect();
        let posed = temp_file(&dir, &format!("posed{k}.txt"), posed.as_bytes());
        assert_same_solutions(&answers, &solve_unique(&posed), file);
    }
}

/// A grid sigh's format cannot hold gets an error record naming it, in its place; the other
/// puzzles are still written; `generate` refuses such a size before it starts.
#[test]
fn output_sigh_refuses_grids_larger_than_sighs() {
    let dir = tempfile::tempdir().unwrap();
    let top = std::fs::read_to_string(fixture("top95.txt")).unwrap();
    let two: String = top.lines().take(2).map(|l| format!("{l}\n")).collect();
    let small = temp_file(&dir, "two.txt", two.as_bytes());
    let large = fixture("25x25-rkkautsar-1.txt");
    let out = satdoku()
        .args(["solve", "-q", "--output", "sigh", &small])
        .arg(&large)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[..2].iter().all(|l| l.starts_with(".~R1C1_")),
        "{text}"
    );
    assert!(
        lines[2].starts_with(&format!("error: {}:1: ", large.display()))
            && lines[2].contains("at most 16 rows"),
        "{text}"
    );

    let out = satdoku()
        .args([
            "generate", "--size", "25", "--output", "sigh", "--seed", "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--output sigh") && err.contains("16x16"),
        "{err}"
    );
}

/// `generate --output sigh` writes each puzzle made (killers: cages and givens) as a constraint
/// string that reads back as a unique puzzle, whose solution the independent checker accepts.
#[test]
fn generate_output_sigh_reads_back_unique() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--count", "3", "--seed", "7"][..],
        &["--killer", "--count", "2", "--seed", "5"],
        &["--size", "6", "--count", "2", "--seed", "3", "--jigsaw"],
    ] {
        let out = satdoku()
            .args(["generate", "-q", "--output", "sigh"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let count: usize = args[1 + args.iter().position(|a| *a == "--count").unwrap()]
            .parse()
            .unwrap();
        assert_eq!(text.lines().count(), count, "{args:?}: {text}");
        assert!(text.lines().all(|l| l.starts_with('.')), "{text}");
        let written = temp_file(&dir, "made.txt", text.as_bytes());
        let back = solve_unique(&written);
        assert_eq!(back.len(), count);
        let solutions: String = back
            .iter()
            .map(|b| format!("{}\n", b["solution"].as_str().unwrap()))
            .collect();
        let solutions = temp_file(&dir, "solutions.txt", solutions.as_bytes());
        let checked = satdoku()
            .args([
                "verify",
                "-q",
                "--puzzles",
                &written,
                "--solutions",
                &solutions,
            ])
            .output()
            .unwrap();
        assert_eq!(
            checked.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&checked.stdout)
        );
    }
}
