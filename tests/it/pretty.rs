//! `solve --output pretty`: the drawn layout for 4x4, 6x6 (2x3 boxes), 9x9, 16x16 (letters) and 25x25
//! (numbers, right-aligned), compared with snapshots in `tests/it/snapshots/` (each checked by eye
//! when written: box borders where the box shape puts them, one symbol per cell, statuses below).
//! In a pipe there is no colour; the pretty layout is the default only on a terminal.

use crate::common::{fixture, satdoku, top95};

fn snapshot(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/snapshots")
        .join(format!("pretty-{name}.txt"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn pretty_layouts_match_their_snapshots() {
    let cases = [
        ("4x4", Some("4x4-rkkautsar-1.txt")),
        ("6x6", Some("6x6-sample.txt")),
        ("9x9", None),
        ("16x16", Some("16x16-poj3076-sample.txt")),
        ("25x25", Some("25x25-sudoku-acs-sample.txt")),
    ];
    for (name, file) in cases {
        let mut cmd = satdoku();
        cmd.args(["solve", "--unique", "--output", "pretty"]);
        match file {
            Some(f) => cmd.arg(fixture(f)),
            None => cmd.write_stdin(format!("{}\n", top95(1)[0])),
        };
        // NO_COLOR unset: a pipe alone must keep the colour out.
        let out = cmd.env_remove("NO_COLOR").output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains('\x1b'), "{name}: colour in a pipe");
        assert_eq!(text, snapshot(name), "{name}");
    }
}

#[test]
fn the_drawing_holds_the_solution_and_the_box_shape() {
    // Independently of the snapshots: the 6x6 drawing's rows, read back cell by cell, are the
    // solution `--output line` gives, with a border after every 3 columns and every 2 rows.
    let file = fixture("6x6-sample.txt");
    let lines = satdoku()
        .args(["solve", "--output", "line"])
        .arg(&file)
        .output()
        .unwrap();
    let solutions: Vec<String> = String::from_utf8(lines.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let pretty = satdoku()
        .args(["solve", "--output", "pretty"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8(pretty.stdout).unwrap();
    let drawings: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(drawings.len(), solutions.len());
    for (drawing, solution) in drawings.iter().zip(&solutions) {
        let rows: Vec<&str> = drawing.lines().collect();
        // Top rule, 2 rows, rule, 2 rows, rule, 2 rows, bottom rule.
        assert_eq!(rows.len(), 10, "{drawing}");
        for k in [0, 3, 6, 9] {
            assert!(!rows[k].contains(|c: char| c.is_ascii_digit()), "{drawing}");
        }
        let cells: String = rows
            .iter()
            .filter(|r| r.starts_with('│'))
            .map(|r| {
                assert_eq!(r.matches('│').count(), 3, "{r}");
                r.chars().filter(char::is_ascii_digit).collect::<String>()
            })
            .collect();
        assert_eq!(&cells, solution);
    }
}
