//! Models in: [`parse_solver_output`] reads what an external SAT solver printed — the SAT-competition
//! `s`/`v` lines (CaDiCaL, CryptoMiniSat, PicoSAT) or MiniSat's result file (`SAT` then the literals,
//! or `UNSAT`).

use thiserror::Error;

/// A solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    /// `s SATISFIABLE` / `SAT`, with the model.
    Satisfiable(Model),
    /// `s UNSATISFIABLE` / `UNSAT`.
    Unsatisfiable,
    /// `s UNKNOWN` / `INDET`: the solver gave up.
    Unknown,
}

/// A model as printed: nonzero DIMACS literals, in order (positive = true).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    literals: Vec<i64>,
}

impl Model {
    /// A model from DIMACS literals (zeros are dropped).
    pub fn from_literals(literals: impl IntoIterator<Item = i64>) -> Model {
        Model {
            literals: literals.into_iter().filter(|&l| l != 0).collect(),
        }
    }

    /// The literals, in the order printed.
    pub fn literals(&self) -> &[i64] {
        &self.literals
    }
}

/// Why solver output could not be read. Line numbers are 1-based.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// No answer at all.
    #[error(
        "no solver answer found: expected `s SATISFIABLE` / `s UNSATISFIABLE` lines (SAT competition \
         format) or a MiniSat result file (`SAT` then the model, or `UNSAT`); for MiniSat pass the \
         result file (`minisat in.cnf result.txt`), not its screen output"
    )]
    NoAnswer,
    /// A line that belongs to neither format.
    #[error("line {line}: unexpected {text:?}")]
    UnexpectedLine {
        /// Line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A token that is not an integer literal.
    #[error("line {line}: {text:?} is not a literal")]
    BadLiteral {
        /// Line number.
        line: usize,
        /// The token.
        text: String,
    },
    /// Two status lines.
    #[error("line {line}: a second answer line {text:?}")]
    SecondStatus {
        /// Line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// Values where no model belongs (before the status line, or after an unsatisfiable answer).
    #[error("line {line}: values without a satisfiable answer")]
    StrayValues {
        /// Line number.
        line: usize,
    },
    /// Values after the model's terminating `0`.
    #[error("line {line}: values after the model's terminating 0")]
    AfterEnd {
        /// Line number.
        line: usize,
    },
    /// A satisfiable answer whose model does not end with `0`: the output was cut off.
    #[error("the model is truncated: no terminating 0 after {literals} literals")]
    Truncated {
        /// Literals read.
        literals: usize,
    },
}

/// Which output format is being read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Competition,
    MiniSat,
}

/// Reads a solver's output: SAT-competition lines (`c` comments, one `s` status line, `v` value
/// lines ending with `0`) or a MiniSat result file (`SAT`, `UNSAT` or `INDET`, then for `SAT` the
/// literals ending with `0`). Blank lines are ignored.
///
/// # Errors
/// A [`ModelError`] naming the line for anything else, including a model without its terminating `0`.
pub fn parse_solver_output(text: &str) -> Result<SolverAnswer, ModelError> {
    let mut format = None;
    let mut status: Option<SolverAnswer> = None;
    let mut literals = Vec::new();
    let mut ended = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        let (first, rest) = match t.split_once(char::is_whitespace) {
            Some((a, b)) => (a, b.trim()),
            None => (t, ""),
        };
        let fmt = *format.get_or_insert(match first {
            "SAT" | "UNSAT" | "INDET" if rest.is_empty() => Format::MiniSat,
            _ => Format::Competition,
        });
        let values: &str = match (fmt, first) {
            (Format::Competition, "c") => continue,
            (Format::Competition, "s") | (Format::MiniSat, "SAT" | "UNSAT" | "INDET")
                if status.is_none() =>
            {
                let word = if fmt == Format::Competition {
                    rest
                } else {
                    first
                };
                status = Some(match word {
                    "SATISFIABLE" | "SAT" => SolverAnswer::Satisfiable(Model::default()),
                    "UNSATISFIABLE" | "UNSAT" => SolverAnswer::Unsatisfiable,
                    "UNKNOWN" | "INDETERMINATE" | "INDET" => SolverAnswer::Unknown,
                    _ => {
                        return Err(ModelError::UnexpectedLine {
                            line,
                            text: raw.to_string(),
                        });
                    }
                });
                continue;
            }
            (Format::Competition, "s") | (Format::MiniSat, "SAT" | "UNSAT" | "INDET") => {
                return Err(ModelError::SecondStatus {
                    line,
                    text: raw.to_string(),
                });
            }
            (Format::Competition, "v") => rest,
            (Format::MiniSat, _) if status.is_some() => t,
            _ => {
                return Err(ModelError::UnexpectedLine {
                    line,
                    text: raw.to_string(),
                });
            }
        };
        if !matches!(status, Some(SolverAnswer::Satisfiable(_))) {
            return Err(ModelError::StrayValues { line });
        }
        for token in values.split_whitespace() {
            let lit: i64 = token.parse().map_err(|_| ModelError::BadLiteral {
                line,
                text: token.to_string(),
            })?;
            if ended {
                return Err(ModelError::AfterEnd { line });
            }
            if lit == 0 {
                ended = true;
            } else {
                literals.push(lit);
            }
        }
    }
    match status {
        None => Err(ModelError::NoAnswer),
        Some(SolverAnswer::Satisfiable(_)) if !ended => Err(ModelError::Truncated {
            literals: literals.len(),
        }),
        Some(SolverAnswer::Satisfiable(_)) => Ok(SolverAnswer::Satisfiable(Model { literals })),
        Some(other) => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sat(lits: &[i64]) -> SolverAnswer {
        SolverAnswer::Satisfiable(Model::from_literals(lits.iter().copied()))
    }

    #[test]
    fn competition_format_as_printed_by_cadical_and_picosat() {
        // Shapes copied from real runs: cadical wraps v lines, comments before the status.
        let cadical = "c CaDiCaL\nc\ns SATISFIABLE\nv 1 -2 3\nv -4 0\nc total time\n";
        assert_eq!(parse_solver_output(cadical).unwrap(), sat(&[1, -2, 3, -4]));
        let picosat = "s SATISFIABLE\nv -1 2 3 0\n";
        assert_eq!(parse_solver_output(picosat).unwrap(), sat(&[-1, 2, 3]));
        assert_eq!(
            parse_solver_output("s UNSATISFIABLE\n").unwrap(),
            SolverAnswer::Unsatisfiable
        );
        assert_eq!(
            parse_solver_output("c x\ns UNKNOWN\n").unwrap(),
            SolverAnswer::Unknown
        );
        // An empty formula's model.
        assert_eq!(
            parse_solver_output("s SATISFIABLE\nv 0\n").unwrap(),
            sat(&[])
        );
        // CRLF line ends and trailing spaces (cryptominisat ends v lines with a space).
        assert_eq!(
            parse_solver_output("s SATISFIABLE\r\nv -1 2 \r\nv 3 0\r\n").unwrap(),
            sat(&[-1, 2, 3])
        );
    }

    #[test]
    fn minisat_result_file() {
        assert_eq!(
            parse_solver_output("SAT\n-1 2 3 0\n").unwrap(),
            sat(&[-1, 2, 3])
        );
        assert_eq!(
            parse_solver_output("UNSAT\n").unwrap(),
            SolverAnswer::Unsatisfiable
        );
        assert_eq!(
            parse_solver_output("INDET\n").unwrap(),
            SolverAnswer::Unknown
        );
        // MiniSat's answer for a formula without variables: "SAT" then " 0".
        assert_eq!(parse_solver_output("SAT\n 0\n").unwrap(), sat(&[]));
    }

    #[test]
    fn malformed_outputs_are_errors_with_lines() {
        use ModelError::*;
        assert_eq!(parse_solver_output(""), Err(NoAnswer));
        assert_eq!(parse_solver_output("c only comments\n"), Err(NoAnswer));
        // MiniSat's screen output instead of its result file.
        assert!(matches!(
            parse_solver_output("WARNING: for repeatability\nSATISFIABLE\n"),
            Err(UnexpectedLine { line: 1, .. })
        ));
        assert!(matches!(
            parse_solver_output("s SATISFIABLE\nv 1 x2 0\n"),
            Err(BadLiteral { line: 2, ref text }) if text == "x2"
        ));
        assert_eq!(
            parse_solver_output("s SATISFIABLE\nv 1 2\n"),
            Err(Truncated { literals: 2 })
        );
        assert_eq!(parse_solver_output("SAT\n"), Err(Truncated { literals: 0 }));
        assert_eq!(
            parse_solver_output("s SATISFIABLE\nv 1 0\nv 2 0\n"),
            Err(AfterEnd { line: 3 })
        );
        assert!(matches!(
            parse_solver_output("s SATISFIABLE\ns UNSATISFIABLE\n"),
            Err(SecondStatus { line: 2, .. })
        ));
        assert_eq!(
            parse_solver_output("v 1 0\ns SATISFIABLE\n"),
            Err(StrayValues { line: 1 })
        );
        assert_eq!(
            parse_solver_output("s UNSATISFIABLE\nv 1 0\n"),
            Err(StrayValues { line: 2 })
        );
        assert!(matches!(
            parse_solver_output("s MAYBE\n"),
            Err(UnexpectedLine { line: 1, .. })
        ));
        assert!(matches!(
            parse_solver_output("s SATISFIABLE\nhello\n"),
            Err(UnexpectedLine { line: 2, .. })
        ));
        assert!(matches!(
            parse_solver_output("s SATISFIABLE\nv 99999999999999999999 0\n"),
            Err(BadLiteral { .. })
        ));
    }
}
