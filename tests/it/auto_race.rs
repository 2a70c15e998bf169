//! The auto backend under several jobs: counts to a limit are always complete (issue: a stopped
//! native search's partial count was once reported as the answer, 1-2 records a run).

use std::collections::BTreeMap;

use crate::common::{fixture, json_lines, satdoku};

/// Each record's (status, count), by index, of `solve --limit LIMIT --output json` on `file`.
fn counts(file: &str, limit: u32, extra: &[&str]) -> BTreeMap<u64, (String, u64)> {
    let out = satdoku()
        .args(["solve", "-q", "--output", "json", "--timeout", "120"])
        .args(["--limit", &limit.to_string()])
        .args(extra)
        .arg(fixture(file))
        .output()
        .unwrap();
    let records = json_lines(&out.stdout);
    let mut counts = BTreeMap::new();
    for r in &records {
        let status = r["status"].as_str().unwrap().to_string();
        let count = r["count"].as_u64().unwrap();
        // Every count is exact, or the limit itself.
        if status == "multiple" {
            assert!(
                r["complete"] == true || count == u64::from(limit),
                "{file} {extra:?}: a count cut short: {r}"
            );
        } else {
            assert!(
                status == "unique" || status == "none",
                "{file} {extra:?}: not settled: {r}"
            );
        }
        counts.insert(r["index"].as_u64().unwrap(), (status, count));
    }
    counts
}

#[test]
fn auto_counts_are_complete_under_several_jobs() {
    for (file, limit, runs) in [
        ("repro/auto-limit-w16-windoku.txt", 6, 2),
        ("repro/auto-limit-combo9.txt", 7, 3),
    ] {
        // The SAT backend alone, for the counts to compare with.
        let sat = counts(file, limit, &["--backend", "sat", "--jobs", "2"]);
        assert!(sat.len() >= 60, "{file}: {} records", sat.len());
        for jobs in ["2", "8"] {
            for run in 0..runs {
                let auto = counts(file, limit, &["--backend", "auto", "--jobs", jobs]);
                assert_eq!(auto, sat, "{file}, --jobs {jobs}, run {run}");
            }
        }
    }
}
