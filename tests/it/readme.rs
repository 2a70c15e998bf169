//! The README's examples run as written: every command of its `sh` blocks under "Using it", from a
//! directory that holds the repository's fixtures, with `satdoku` on the PATH, and they write only
//! into their scratch folder, `target/demo/`.

use std::path::Path;
use std::process::Command;

/// The commands of the README's `sh` blocks in the section under `heading` (up to the next heading of
/// its level; continuation lines joined, comments dropped).
fn commands_after(readme: &str, heading: &str) -> Vec<String> {
    let start = readme.find(heading).expect("the heading");
    let rest = &readme[start + heading.len()..];
    let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let mut commands = Vec::new();
    for block in section.split("```sh\n").skip(1) {
        let block = &block[..block.find("```").expect("the block's end")];
        commands.extend(commands_of(block));
    }
    commands
}

/// The commands of one `sh` block.
fn commands_of(block: &str) -> Vec<String> {
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
    for command in &commands {
        if command.contains("cadical") && !crate::common::tool_available("cadical") {
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
        if !command.contains('>') && !command.starts_with("mkdir") && !command.contains("--out-dir")
        {
            assert!(!out.stdout.is_empty(), "{command}: no output");
        }
    }
    // Nothing written beside the fixtures but the scratch folder.
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["fixtures", "target"]);
}

/// The README shows the library at work and names every program in `examples/`, saying what it
/// shows (the Rust example itself runs as a doc test of the crate).
#[test]
fn the_library_section_names_every_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("## As a library").expect("the section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    assert!(section.contains("```rust\n"), "no Rust example");
    assert!(section.contains(".solve("), "the example solves nothing");
    for entry in std::fs::read_dir(root.join("examples")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let row = section
            .lines()
            .find(|l| l.starts_with(&format!("| `examples/{name}` |")))
            .unwrap_or_else(|| panic!("examples/{name} is not in the README"));
        assert!(row.len() > name.len() + 30, "{row}");
    }
}
