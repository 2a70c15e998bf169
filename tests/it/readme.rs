//! The README's examples run as written: every command of its `sh` blocks under "Using it", from a
//! directory that holds the repository's fixtures, with `satdoku` on the PATH.

use std::path::Path;
use std::process::Command;

/// The commands of the README's first `sh` block after `heading` (continuation lines joined, comments
/// dropped).
fn commands_after(readme: &str, heading: &str) -> Vec<String> {
    let start = readme.find(heading).expect("the heading");
    let rest = &readme[start..];
    let block = rest.split("```sh\n").nth(1).expect("an sh block");
    let block = &block[..block.find("```").expect("the block's end")];
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in block.lines() {
        let line = match line.find("  #") {
            Some(i) => &line[..i],
            None => line,
        };
        let line = line.trim_end();
        if let Some(head) = line.strip_suffix('\\') {
            current.push_str(head);
            continue;
        }
        current.push_str(line);
        if !current.trim().is_empty() {
            commands.push(current.trim().to_string());
        }
        current.clear();
    }
    commands
}

/// Whether an external program the example needs is missing here (and may be, outside CI).
fn missing(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .map_or(true, |o| !o.status.success())
}

#[test]
fn every_example_in_using_it_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let commands = commands_after(&readme, "## Using it");
    assert!(commands.len() >= 12, "{commands:#?}");
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("fixtures"), dir.path().join("fixtures")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin!("satdoku");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let required = std::env::var_os("SATDOKU_REQUIRE_SOLVERS").is_some();
    for command in &commands {
        if command.contains("cadical") && missing("cadical") {
            assert!(!required, "cadical is required in CI");
            continue;
        }
        let out = Command::new("sh")
            .args(["-c", command])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env_remove("SATDOKU_TEST_FAULT")
            .output()
            .unwrap();
        // 1 is an answer too (several solutions when counting), not a broken example.
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{command}: {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        if !command.contains('>') {
            assert!(!out.stdout.is_empty(), "{command}: no output");
        }
    }
}
