//! `satdoku._satdoku`: the native half of the Python package. Puzzles are read here with the
//! library's readers (the CLI's messages, `FILE:LINE:COLUMN`), or taken from NumPy arrays, and
//! batches run on worker threads with the GIL released; `satdoku/__init__.py` gives them their
//! typed Python face.

mod batch;
mod input;
mod run;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _satdoku(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // NumPy's C API is looked up on first use, by running Python code (its version check): done
    // after a batch, a Ctrl-C pending then raised there and the lookup panicked. Look it up now.
    numpy::PyArray1::<u8>::zeros(m.py(), 0, false);
    m.add_class::<input::Puzzles>()?;
    m.add_function(wrap_pyfunction!(input::read_text, m)?)?;
    m.add_function(wrap_pyfunction!(input::read_file, m)?)?;
    m.add_function(wrap_pyfunction!(input::from_array, m)?)?;
    m.add_function(wrap_pyfunction!(input::from_strings, m)?)?;
    m.add_function(wrap_pyfunction!(batch::run_batch, m)?)?;
    m.add_function(wrap_pyfunction!(run::_claims, m)?)?;
    m.add_function(wrap_pyfunction!(batch::encode, m)?)?;
    m.add_function(wrap_pyfunction!(batch::sat_solvers, m)?)?;
    m.add_function(wrap_pyfunction!(batch::check_drat, m)?)?;
    m.add_function(wrap_pyfunction!(batch::check_certificate, m)?)?;
    m.add("STATUS_WORDS", batch::STATUS_WORDS.to_vec())?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
