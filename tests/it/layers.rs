//! The crate's imports run one way: no cycle between source files, and the top-level modules in
//! layers (the model at the bottom; answers and the checker; the backends; formats; the CLI on top).
//!
//! Read from the sources themselves: every `use` (and every inline `crate::` / `super::` /
//! `satdoku::` path) outside `#[cfg(test)]` modules and comments is resolved to the file that
//! defines the item, following `pub use` re-exports, so that a path through a front door (`crate::Grid`,
//! `super::Format`) counts as a use of the file behind it. A re-export itself is not a use.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file: its crate (`crate` for the library, `bin` for the binary), its module path
/// (segments after the crate root) and its text with comments and test modules removed.
struct Source {
    file: String,
    krate: &'static str,
    module: Vec<String>,
    code: String,
}

/// Every `.rs` file under `src/`, as library or binary module.
fn sources(root: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    let src = root.join("src");
    // Files that are modules only under `#[cfg(test)]` (`#[cfg(test)] mod tests;`) are tests.
    let test_only: BTreeSet<PathBuf> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            let dir = if path.ends_with("mod.rs")
                || path.ends_with("lib.rs")
                || path.ends_with("main.rs")
            {
                path.parent().unwrap().to_path_buf()
            } else {
                path.with_extension("")
            };
            text.split("#[cfg(test)]")
                .skip(1)
                .filter_map(|after| {
                    let decl = after.trim_start().strip_prefix("mod ")?;
                    let name = decl.split(';').next()?.trim();
                    (!name.contains('{')).then(|| dir.join(format!("{name}.rs")))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    files.retain(|f| !test_only.contains(f));
    files
        .into_iter()
        .map(|path| {
            let rel: PathBuf = path.strip_prefix(&src).unwrap().to_path_buf();
            let mut module: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            // The binary is src/main.rs and the `cli` tree; everything else is the library.
            let krate = if module.first().is_some_and(|m| m == "main" || m == "cli") {
                "bin"
            } else {
                "crate"
            };
            if module == ["lib"] || module == ["main"] {
                module.clear();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            Source {
                file: format!("src/{}", rel.display()),
                krate,
                module,
                code: strip(&text),
            }
        })
        .collect()
}

/// `text` without comments, string and char literals' contents, and `#[cfg(test)]` modules.
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let at = |i: usize, p: &str| b[i..].starts_with(p.as_bytes());
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if at(i, "//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if at(i, "/*") {
            i = (i + 2..b.len())
                .find(|&j| at(j, "*/"))
                .map_or(b.len(), |j| j + 2);
        } else if let Some((open, closing)) = string_start(&b[i..]) {
            // A string literal (raw or not): skipped whole.
            let raw = b[i] == b'r';
            let mut j = i + open;
            while j < b.len() {
                if !raw && b[j] == b'\\' {
                    j += 2;
                    continue;
                }
                if at(j, &closing) {
                    j += closing.len();
                    break;
                }
                j += 1;
            }
            out.extend_from_slice(b"\"\"");
            i = j;
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('x', '\n', '\''); lifetimes ('a) are left alone.
            let mut j = i + if b[i + 1] == b'\\' { 3 } else { 2 };
            while j < b.len() && b[j] != b'\'' {
                j += 1;
            }
            out.extend_from_slice(b"' '");
            i = j + 1;
        } else if at(i, "#[cfg(test)]") {
            // A test module (or test item): skipped to the end of the item.
            let mut j = i + "#[cfg(test)]".len();
            let mut depth = 0usize;
            while j < b.len() {
                match b[j] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            j += 1;
                            break;
                        }
                    }
                    b';' if depth == 0 => {
                        j += 1;
                        break;
                    }
                    _ => {}
                }
                j += 1;
            }
            i = j;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where a string literal starts at the beginning of `s`: the length of its opening (`"`, `r"`,
/// `r#"`, ...) and its closing text.
fn string_start(s: &[u8]) -> Option<(usize, String)> {
    if s.first() == Some(&b'"') {
        return Some((1, "\"".to_string()));
    }
    let rest = s.strip_prefix(b"r")?;
    let hashes = rest.iter().take_while(|&&c| c == b'#').count();
    (rest.get(hashes) == Some(&b'"')).then(|| (2 + hashes, format!("\"{}", "#".repeat(hashes))))
}

/// The paths a `use` tree names (`a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e`); a glob
/// names its module.
fn expand(tree: &str) -> Vec<Vec<String>> {
    fn go(prefix: &[String], s: &str, out: &mut Vec<Vec<String>>) {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        if let Some(open) = s.find('{') {
            let head: Vec<String> = split_path(&s[..open]);
            let inner = &s[open + 1..s.rfind('}').unwrap()];
            let mut p = prefix.to_vec();
            p.extend(head);
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        go(&p, &inner[start..k], out);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            go(&p, &inner[start..], out);
        } else {
            let s = s.split(" as ").next().unwrap();
            let mut p = prefix.to_vec();
            for seg in split_path(s) {
                if seg == "self" || seg == "*" {
                    continue;
                }
                p.push(seg);
            }
            out.push(p);
        }
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

fn split_path(s: &str) -> Vec<String> {
    s.split("::")
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(str::to_string)
        .collect()
}

/// The `use` statements of `code`: (whether it is a re-export, the tree).
fn uses(code: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = find_word(&code[from..], "use") {
        let i = from + p;
        let end = code[i..].find(';').map_or(code.len(), |e| i + e);
        let tree = code[i + 3..end].trim().to_string();
        // `pub use`, `pub(crate) use`, `pub(super) use`.
        let before = code[..i].trim_end();
        let before = match before.strip_suffix(')') {
            Some(b) => b.rfind('(').map_or(b, |open| b[..open].trim_end()),
            None => before,
        };
        out.push((before.ends_with("pub"), tree));
        from = end;
    }
    out
}

/// Inline paths (`crate::a::b`, `super::x`, `satdoku::y`, `child::z` for a child module `child`)
/// outside `use` statements.
fn inline_paths(code: &str, children: &[String]) -> Vec<Vec<String>> {
    let mut without_uses = String::new();
    let mut rest = code;
    while let Some(p) = find_word(rest, "use") {
        without_uses.push_str(&rest[..p]);
        rest = &rest[p..];
        let end = rest.find(';').map_or(rest.len(), |e| e + 1);
        rest = &rest[end..];
    }
    without_uses.push_str(rest);
    let mut out = Vec::new();
    let roots: Vec<String> = ["crate", "super", "satdoku"]
        .iter()
        .map(|r| r.to_string())
        .chain(children.iter().cloned())
        .map(|r| format!("{r}::"))
        .collect();
    for root in &roots {
        let mut from = 0;
        while let Some(p) = without_uses[from..].find(root) {
            let at = from + p;
            from = at + root.len();
            let prev = without_uses[..at].chars().next_back();
            if prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let end = without_uses[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(without_uses.len(), |e| at + e);
            let path = split_path(without_uses[at..end].trim_end_matches(':'));
            out.push(path);
        }
    }
    out
}

fn find_word(s: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = s[from..].find(word) {
        let at = from + p;
        let before = s[..at].chars().next_back();
        let after = s[at + word.len()..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if boundary(before) && boundary(after) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// A module of one crate: (crate, module path).
type Module = (&'static str, Vec<String>);

struct Tree {
    files: BTreeMap<Module, String>,
    /// Re-exports: (module, name) → absolute path (crate, segments).
    exports: BTreeMap<(Module, String), (&'static str, Vec<String>)>,
}

impl Tree {
    /// An absolute path (crate, segments) for `path` as written in module `at`.
    fn absolute(&self, at: &Module, path: &[String]) -> Option<(&'static str, Vec<String>)> {
        let first = path.first()?;
        match first.as_str() {
            "crate" => Some((at.0, path[1..].to_vec())),
            "satdoku" => Some(("crate", path[1..].to_vec())),
            "super" | "self" => {
                let mut base = at.1.clone();
                let mut rest = path;
                while let Some(s) = rest.first() {
                    match s.as_str() {
                        "super" => {
                            base.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                Some((at.0, base))
            }
            // A child module of this one, named as in `use child::Item` (2018 paths).
            name if self
                .files
                .contains_key(&(at.0, [&at.1[..], &[name.to_string()]].concat())) =>
            {
                Some((at.0, [&at.1[..], path].concat()))
            }
            _ => None,
        }
    }

    /// The file that defines the item at the absolute `path`.
    fn file_of(&self, krate: &'static str, path: &[String], depth: usize) -> Option<String> {
        if depth > 16 {
            return None;
        }
        // The longest prefix that is a module file.
        let mut k = path.len();
        loop {
            let m = (krate, path[..k].to_vec());
            if self.files.contains_key(&m) {
                if k == path.len() {
                    return self.files.get(&m).cloned();
                }
                if let Some((c, target)) = self.exports.get(&(m.clone(), path[k].clone())) {
                    let mut full = target.clone();
                    full.extend(path[k + 1..].iter().cloned());
                    return self.file_of(c, &full, depth + 1);
                }
                return self.files.get(&m).cloned();
            }
            if k == 0 {
                return None;
            }
            k -= 1;
        }
    }
}

/// File → files it uses.
fn graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let sources = sources(root);
    let mut tree = Tree {
        files: sources
            .iter()
            .map(|s| ((s.krate, s.module.clone()), s.file.clone()))
            .collect(),
        exports: BTreeMap::new(),
    };
    for s in &sources {
        let at: Module = (s.krate, s.module.clone());
        for (public, t) in uses(&s.code) {
            if !public {
                continue;
            }
            for path in expand(&t) {
                if let (Some(name), Some(abs)) = (path.last(), tree.absolute(&at, &path)) {
                    tree.exports.insert((at.clone(), name.clone()), abs);
                }
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in &sources {
        let at: Module = (s.krate, s.module.clone());
        let mut paths: Vec<Vec<String>> = uses(&s.code)
            .into_iter()
            .filter(|(public, _)| !public)
            .flat_map(|(_, t)| expand(&t))
            .collect();
        let children: Vec<String> = sources
            .iter()
            .filter(|c| c.krate == s.krate && c.module.len() == s.module.len() + 1)
            .filter(|c| c.module.starts_with(&s.module))
            .map(|c| c.module.last().unwrap().clone())
            .collect();
        paths.extend(inline_paths(&s.code, &children));
        let out = edges.entry(s.file.clone()).or_default();
        for path in paths {
            let Some((krate, abs)) = tree.absolute(&at, &path) else {
                continue;
            };
            if let Some(file) = tree.file_of(krate, &abs, 0)
                && file != s.file
            {
                out.insert(file);
            }
        }
    }
    edges
}

/// The strongly connected components of more than one file (Tarjan).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a str) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on.insert(v);
            let edges = self.edges;
            for w in edges.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

/// The layer of a file, bottom up, by its top-level module.
fn layer(file: &str) -> usize {
    let top = file
        .trim_start_matches("src/")
        .split(['/', '.'])
        .next()
        .unwrap();
    match top {
        // The model.
        "grid" | "automaton" | "nfa" => 0,
        // The constraints, and clues as setters state them (lowered into constraints).
        "constraint" | "clue" => 1,
        "units" => 2,
        "rules" => 3,
        // What a solve returns, and the independent checker.
        "verify" | "solve" => 4,
        // The backends, and checked answers over any backend.
        "dfs" | "sat" | "auto" | "check" => 5,
        "study" | "generate" => 6,
        // Formats, the crate's front door, the CLI.
        "format" => 7,
        "lib" | "testing" => 8,
        "cli" | "main" => 9,
        other => panic!("{file}: top-level module {other:?} has no layer in tests/it/layers.rs"),
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_import_cycles_between_files() {
    let edges = graph(&root());
    assert!(edges.len() > 50, "{} files read", edges.len());
    let found = cycles(&edges);
    // Each cycle with the imports inside it, so that the message says what to move.
    let explained: Vec<Vec<String>> = found
        .iter()
        .map(|files| {
            files
                .iter()
                .flat_map(|f| {
                    edges[f]
                        .iter()
                        .filter(|t| files.contains(t))
                        .map(move |t| format!("{f} -> {t}"))
                })
                .collect()
        })
        .collect();
    assert!(found.is_empty(), "import cycles: {explained:#?}");
}

#[test]
fn top_level_modules_import_only_downward() {
    let edges = graph(&root());
    let mut upward = Vec::new();
    for (from, tos) in &edges {
        for to in tos {
            if layer(to) > layer(from) {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(upward.is_empty(), "imports that run upward: {upward:#?}");
}

#[test]
fn the_cycle_check_finds_a_planted_cycle() {
    // Two files that import each other, in a scratch copy of the tree's shape.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("format")).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "mod grid;\nmod format;\npub use grid::Grid;\n",
    )
    .unwrap();
    std::fs::write(src.join("grid.rs"), "pub struct Grid;\n").unwrap();
    std::fs::write(
        src.join("format/mod.rs"),
        "mod a;\nmod b;\npub use a::A;\n// use crate::format::b::B;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("format/a.rs"),
        "use super::b::{B, self as bee};\nuse crate::Grid;\npub struct A(B, Grid);\n",
    )
    .unwrap();
    std::fs::write(
        src.join("format/b.rs"),
        "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::format::A;\n}\nfn f() -> crate::format::A { todo!(\"use crate::format::A;\") }\n",
    )
    .unwrap();
    let edges = graph(dir.path());
    // `crate::Grid` through lib.rs's re-export is a use of grid.rs.
    assert_eq!(
        edges["src/format/a.rs"],
        BTreeSet::from(["src/format/b.rs".to_string(), "src/grid.rs".to_string()]),
    );
    assert_eq!(
        cycles(&edges),
        vec![vec![
            "src/format/a.rs".to_string(),
            "src/format/b.rs".to_string()
        ]]
    );
    // Without the inline use in b.rs, no cycle: the test module's use does not count.
    std::fs::write(
        src.join("format/b.rs"),
        "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::format::A;\n}\n",
    )
    .unwrap();
    assert!(cycles(&graph(dir.path())).is_empty());
}
