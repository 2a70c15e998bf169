//! Ctrl-C (a real SIGINT to the child process): the records finished are written, in input order, the
//! rest of what was read is marked `interrupted`, the summary is printed, and the exit status is 130;
//! a second Ctrl-C ends the process at once.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use satdoku::{Grid, Shape, Units, verify};

use crate::common::fixture;

/// Sends `signal` (`INT`, `TERM`) to `child`.
fn signal(child: &Child, signal: &str) {
    let status = Command::new("sh")
        .args(["-c", &format!("kill -{signal} {}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
}

/// A child process that is killed when dropped: a test that fails halfway (an assertion, a
/// timeout) must not leave satdoku running a 64x64 for minutes beside the other tests.
struct Killed(Child);

impl std::ops::Deref for Killed {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Killed {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts satdoku with `args`, standard output piped and standard input and error as given.
fn satdoku(args: &[OsString], stdin: Stdio, stderr: Stdio) -> Killed {
    Killed(
        Command::new(assert_cmd::cargo::cargo_bin!("satdoku"))
            .args(args)
            .env_remove("SATDOKU_TEST_FAULT")
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap(),
    )
}

/// The words of `line` (split at spaces), with the fixtures' paths of `files` after them.
fn words(line: &str, files: &[&str]) -> Vec<OsString> {
    let args = line.split_whitespace().map(OsString::from);
    args.chain(files.iter().map(|f| fixture(f).into_os_string()))
        .collect()
}

/// Waits for `child` to end, for at most `limit` (a hang is a failure, not a wait forever).
fn wait(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the process did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Lines of `reader`, sent one by one as they come.
fn lines_of(reader: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Where each puzzle of `file` starts (1-based line) and its givens when it is a 9x9 on one line:
/// read here, independently of satdoku's reader.
fn puzzles_of(file: &str) -> Vec<(PathBuf, usize, Option<String>)> {
    let path = fixture(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    if file == "pe96.txt" {
        // `Grid NN` and 9 rows per puzzle.
        return (0..50)
            .map(|k| {
                let rows = lines[10 * k + 1..10 * k + 10].concat();
                (path.clone(), 10 * k + 2, Some(rows))
            })
            .collect();
    }
    if file.starts_with("64x64") {
        return vec![(path, 1, None)];
    }
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (path.clone(), i + 1, Some(l[..81].to_string())))
        .collect()
}

fn grid9(text: &str) -> Grid {
    let values = text
        .chars()
        .map(|c| c.to_digit(10).map_or(0, |d| d as u16))
        .collect();
    Grid::from_values(Shape::new(3, 3).unwrap(), values).unwrap()
}

#[test]
fn ctrl_c_keeps_every_finished_answer_and_marks_the_rest_interrupted() {
    // 392 quick puzzles, then a 64x64 that the native backend does not settle in minutes (see
    // cli::a_timeout_gives_unknown_and_the_run_goes_on), then 1,200 quick ones on standard input.
    let files = [
        "17-clue-head200.txt",
        "17-clue-head200.txt",
        "64x64-rkkautsar-1.txt",
    ];
    let mut expected: Vec<_> = files.iter().flat_map(|f| puzzles_of(f)).collect();
    let stuck = expected.len() - 1;
    let quick: Vec<String> = expected[..stuck]
        .iter()
        .cycle()
        .take(1200)
        .map(|(_, _, g)| g.clone().unwrap())
        .collect();
    for (k, givens) in quick.iter().enumerate() {
        expected.push((PathBuf::from("<stdin>"), k + 1, Some(givens.clone())));
    }
    let mut args = words(
        "solve --backend dfs --output json --summary --jobs 2",
        &files,
    );
    args.push("-".into());
    let mut child = satdoku(&args, Stdio::piped(), Stdio::piped());
    // More than a pipe holds: once written, satdoku has read the files before standard input, the
    // 64x64 among them.
    let mut stdin = child.stdin.take().unwrap();
    let input: String = quick.iter().map(|g| format!("{g}\n")).collect();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let stdout = lines_of(child.stdout.take().unwrap());
    let stderr = lines_of(child.stderr.take().unwrap());
    // The answers before the 64x64 fill more than the output buffer, so that some reach us while it
    // is still working: those are finished, whenever the signal comes.
    let mut records = Vec::new();
    while records.len() < 200 {
        match stdout.recv_timeout(Duration::from_secs(120)) {
            Ok(line) => records.push(line),
            Err(e) => panic!("no output: {e}"),
        }
    }
    signal(&child, "INT");
    let status = wait(&mut child, Duration::from_secs(60));
    records.extend(stdout.iter());
    let stderr: Vec<String> = stderr.iter().collect();
    assert_eq!(status.code(), Some(130), "{stderr:#?}");
    let records: Vec<serde_json::Value> = records
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    // One record per puzzle read, in input order, each where its puzzle is.
    assert!(records.len() > stuck && records.len() <= expected.len());
    let units = Units::standard(Shape::new(3, 3).unwrap());
    let mut solved = 0;
    for (i, r) in records.iter().enumerate() {
        let (path, line, givens) = &expected[i];
        assert_eq!(r["index"], i as u64, "{r}");
        assert_eq!(r["file"].as_str(), path.to_str(), "{r}");
        assert_eq!(r["line"], *line as u64, "{r}");
        match r["status"].as_str().unwrap() {
            "solved" => {
                let solution = grid9(r["solution"].as_str().unwrap());
                verify(&units, &grid9(givens.as_ref().unwrap()), &solution)
                    .unwrap_or_else(|v| panic!("{r}: {v}"));
                solved += 1;
            }
            "interrupted" => assert!(i >= 200, "record {i} was already out: {r}"),
            s => panic!("status {s}: {r}"),
        }
    }
    assert_eq!(records[stuck]["status"], "interrupted");
    // What was said: the records written for the puzzles read, and the summary.
    let n = records.len();
    let note = format!("{n} records written for the {n} puzzles read");
    assert!(stderr.iter().any(|l| l.contains(&note)), "{stderr:#?}");
    let summary = format!(
        "solve (dfs): {n} puzzles: {solved} solved, {} interrupted; 0 errors",
        n - solved
    );
    assert!(
        stderr.iter().any(|l| l.starts_with(&summary)),
        "{summary}\n{stderr:#?}"
    );
}

#[test]
fn a_second_ctrl_c_ends_a_run_that_cannot_finish_at_once() {
    // Puzzles on standard input that is never closed, and an output nobody reads: once the pipe is
    // full, the run can neither end nor write what the first Ctrl-C asks for.
    let line = |k: usize| {
        let text = std::fs::read_to_string(fixture("17-clue-head200.txt")).unwrap();
        let puzzles: Vec<String> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        puzzles[k % puzzles.len()].clone()
    };
    let input: String = (0..2000).map(|k| format!("{}\n", line(k))).collect();
    let args = words("solve --backend dfs --output json", &[]);
    let mut child = satdoku(&args, Stdio::piped(), Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    // More than a pipe holds: once 100 kB are written, satdoku is reading (and so listening for
    // signals), and has read more than its output pipe can take the answers of. (It stops reading
    // when the answers it cannot write reach its read-ahead window, so the rest waits: written from a
    // thread of its own, which ends when the pipe closes.)
    let written = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&written);
    std::thread::spawn(move || {
        for l in input.lines() {
            if stdin.write_all(format!("{l}\n").as_bytes()).is_err() {
                break;
            }
            count.fetch_add(l.len() + 1, Ordering::SeqCst);
        }
        // Never closed while satdoku runs: keep the pipe open until it ends.
        std::thread::sleep(Duration::from_secs(120));
    });
    let since = Instant::now();
    while written.load(Ordering::SeqCst) < 100_000 {
        assert!(
            since.elapsed() < Duration::from_secs(60),
            "satdoku does not read"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let stderr = lines_of(child.stderr.take().unwrap());
    signal(&child, "INT");
    // The first Ctrl-C is answered at once; the run then waits on its output.
    let said = stderr.recv_timeout(Duration::from_secs(60)).unwrap();
    assert!(said.contains("again to stop at once"), "{said}");
    signal(&child, "INT");
    let status = wait(&mut child, Duration::from_secs(60));
    assert_eq!(status.code(), Some(130));
}

#[test]
fn ctrl_c_with_one_job_over_files_stops_the_solve_in_hand() {
    // With one job and only files, puzzles are solved on the reading thread: the first Ctrl-C
    // must still stop the 64x64 in hand (which the native backend does not settle in minutes),
    // keep the 400 answers before it and mark it `interrupted`.
    let files = [
        "17-clue-head200.txt",
        "17-clue-head200.txt",
        "64x64-rkkautsar-1.txt",
    ];
    let expected: Vec<_> = files.iter().flat_map(|f| puzzles_of(f)).collect();
    let stuck = expected.len() - 1;
    let args = words(
        "solve --backend dfs --output json --summary --jobs 1",
        &files,
    );
    let mut child = satdoku(&args, Stdio::null(), Stdio::piped());
    let stdout = lines_of(child.stdout.take().unwrap());
    let stderr = lines_of(child.stderr.take().unwrap());
    // The answers before the 64x64 fill more than the output buffer: once some arrive, the
    // process is solving (and listening for signals).
    match stdout.recv_timeout(Duration::from_secs(120)) {
        Ok(line) => assert!(line.contains("\"solved\""), "{line}"),
        Err(e) => panic!("no output: {e}"),
    }
    // Give it time to reach the 64x64 (the 400 quick ones take milliseconds).
    std::thread::sleep(Duration::from_millis(500));
    signal(&child, "INT");
    let status = wait(&mut child, Duration::from_secs(60));
    let records: Vec<String> = stdout.iter().collect();
    let stderr: Vec<String> = stderr.iter().collect();
    assert_eq!(status.code(), Some(130), "{stderr:#?}");
    // The first record was read above: every other one is here, the 64x64's last.
    assert_eq!(records.len(), stuck, "{stderr:#?}");
    let last: serde_json::Value = serde_json::from_str(&records[stuck - 1]).unwrap();
    assert_eq!(last["status"], "interrupted", "{last}");
    assert_eq!(last["index"], stuck as u64);
    let solved = records[..stuck - 1]
        .iter()
        .filter(|l| l.contains("\"solved\""))
        .count();
    assert_eq!(solved, stuck - 1);
    let summary = format!(
        "solve (dfs): {} puzzles: {} solved, 1 interrupted; 0 errors",
        stuck + 1,
        stuck
    );
    assert!(
        stderr.iter().any(|l| l.starts_with(&summary)),
        "{summary}\n{stderr:#?}"
    );
}

#[test]
fn one_job_over_files_writes_a_giant_grid_before_reading_on() {
    // With one job over files, puzzles are read a few at a time, but a grid of 72x72 or more is
    // worked on and written alone: the 100x100's record arrives while the 64x64 after it (which no
    // backend settles in seconds, see cli::a_timeout_gives_unknown_and_the_run_goes_on) is still
    // being worked on, not when the run ends.
    let args = words(
        "solve --output json --jobs 1 --timeout 40",
        &["100x100-rkkautsar-1.txt", "64x64-rkkautsar-1.txt"],
    );
    let mut child = satdoku(&args, Stdio::null(), Stdio::null());
    let stdout = lines_of(child.stdout.take().unwrap());
    let first = stdout.recv_timeout(Duration::from_secs(30));
    let running = child.try_wait().unwrap().is_none();
    // Ended or not, it is stopped and reaped here.
    let _ = child.kill();
    let _ = child.wait();
    let first = first.expect("the 100x100's record while the 64x64 is worked on");
    assert!(
        running,
        "the run had ended before its first record was read"
    );
    let r: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(r["index"], 0, "{first}");
    assert_eq!(r["status"], "solved", "{first}");
}
