//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// The path of a file under `fixtures/`.
#[allow(dead_code)]
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}
