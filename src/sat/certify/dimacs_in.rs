//! DIMACS CNF in, for checking a certificate from its files: comment lines (`c`), the `p cnf V C`
//! header, then clauses of nonzero literals each ended by `0` (a clause may span lines).

use super::checker::CheckError;
use crate::sat::lit::Lit;
use crate::sat::sink::{ClauseSink, Formula};

fn error(line: usize, message: impl Into<String>) -> CheckError {
    CheckError::Cnf {
        line,
        message: message.into(),
    }
}

/// Reads a DIMACS CNF. The header is required and its clause count must match.
///
/// # Errors
/// [`CheckError::Cnf`] naming the line.
pub(crate) fn parse_cnf(bytes: &[u8]) -> Result<Formula, CheckError> {
    let mut formula = Formula::new();
    let mut header: Option<(usize, u64)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut last_line = 0;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let text = std::str::from_utf8(raw).map_err(|_| error(line, "not UTF-8"))?;
        let t = text.trim();
        if t.is_empty() {
            continue;
        }
        last_line = line;
        if t.starts_with('c') {
            continue;
        }
        if t.starts_with('p') {
            if header.is_some() {
                return Err(error(line, "a second header"));
            }
            let f: Vec<&str> = t.split_whitespace().collect();
            let parsed = match f.as_slice() {
                ["p", "cnf", v, c] => v.parse::<usize>().ok().zip(c.parse::<u64>().ok()),
                _ => None,
            };
            header = Some(parsed.ok_or_else(|| error(line, format!("bad header {t:?}")))?);
            continue;
        }
        let Some((vars, _)) = header else {
            return Err(error(line, "clause before the `p cnf` header"));
        };
        for token in t.split_whitespace() {
            let v: i64 = token
                .parse()
                .map_err(|_| error(line, format!("{token:?} is not a literal")))?;
            if v == 0 {
                formula.add_clause(&clause);
                clause.clear();
                continue;
            }
            if v.unsigned_abs() > vars as u64 {
                return Err(error(
                    line,
                    format!("literal {v} is above the header's {vars} variables"),
                ));
            }
            let lit = isize::try_from(v)
                .ok()
                .and_then(Lit::try_from_dimacs)
                .ok_or_else(|| error(line, format!("literal {v} out of range")))?;
            clause.push(lit);
        }
    }
    let Some((_, count)) = header else {
        return Err(error(last_line.max(1), "no `p cnf` header"));
    };
    if !clause.is_empty() {
        return Err(error(last_line.max(1), "the last clause is not ended by 0"));
    }
    if formula.len() as u64 != count {
        return Err(error(
            last_line.max(1),
            format!(
                "the header says {count} clauses, the file has {}",
                formula.len()
            ),
        ));
    }
    Ok(formula)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_clauses_across_lines() {
        let f = parse_cnf(b"c x\np cnf 3 3\n1 -2 0\n3\n 0 0\n").unwrap();
        assert_eq!(f.len(), 3);
        assert_eq!(f.clause(1), &[Lit::from_dimacs(3)]);
        assert!(f.clause(2).is_empty());
    }

    #[test]
    fn malformed_cnfs_name_the_line() {
        let line = |b: &[u8]| match parse_cnf(b) {
            Err(CheckError::Cnf { line, .. }) => line,
            other => panic!("{other:?}"),
        };
        assert_eq!(line(b"1 0\n"), 1);
        assert_eq!(line(b"p cnf 2 1\n1 x 0\n"), 2);
        assert_eq!(line(b"p cnf 2 1\n1 3 0\n"), 2);
        assert_eq!(line(b"p cnf 2 2\n1 2 0\n"), 2);
        assert_eq!(line(b"p cnf 2 1\n1 2\n"), 2);
        assert_eq!(line(b"p cnf x 1\n"), 1);
        assert_eq!(line(b""), 1);
    }
}
