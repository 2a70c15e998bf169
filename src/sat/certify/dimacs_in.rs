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

/// Reads a DIMACS CNF. The header is required and its clause count must match. Bytes, not text:
/// numbers are read digit by digit, and the formula is sized from the header.
///
/// # Errors
/// [`CheckError::Cnf`] naming the line.
pub(crate) fn parse_cnf(bytes: &[u8]) -> Result<Formula, CheckError> {
    parse_cnf_lines(bytes).map(|(formula, _)| formula)
}

/// [`parse_cnf`], and the line (1-based) on which each clause ends.
///
/// # Errors
/// As [`parse_cnf`].
pub(crate) fn parse_cnf_lines(bytes: &[u8]) -> Result<(Formula, Vec<usize>), CheckError> {
    let mut formula = Formula::new();
    let mut lines = Vec::new();
    let mut header: Option<(usize, u64)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut last_line = 0;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i + 1;
        let t = raw.trim_ascii();
        if t.is_empty() {
            continue;
        }
        last_line = line;
        match t[0] {
            b'c' => continue,
            b'p' => {
                if header.is_some() {
                    return Err(error(line, "a second header"));
                }
                let text = std::str::from_utf8(t).map_err(|_| error(line, "not UTF-8"))?;
                let f: Vec<&str> = text.split_ascii_whitespace().collect();
                let parsed = match f.as_slice() {
                    ["p", "cnf", v, c] => v.parse::<usize>().ok().zip(c.parse::<u64>().ok()),
                    _ => None,
                };
                let (vars, clauses) =
                    parsed.ok_or_else(|| error(line, format!("bad header {text:?}")))?;
                // Sized from the header, within reason (a header may lie).
                let reserve = clauses.min(1 << 20) as usize;
                formula = Formula::with_capacity(reserve, 3 * reserve);
                header = Some((vars, clauses));
                continue;
            }
            _ => {}
        }
        let Some((vars, _)) = header else {
            return Err(error(line, "clause before the `p cnf` header"));
        };
        for token in t.split(u8::is_ascii_whitespace).filter(|t| !t.is_empty()) {
            let v = literal(token).ok_or_else(|| {
                error(
                    line,
                    format!("{:?} is not a literal", String::from_utf8_lossy(token)),
                )
            })?;
            if v == 0 {
                formula.add_clause(&clause);
                lines.push(line);
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
    Ok((formula, lines))
}

/// A DIMACS literal: an optional sign and decimal digits, at most 18 of them (so that it fits);
/// `None` for anything else.
fn literal(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(d - b'0');
    }
    Some(if negative { -v } else { v })
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
        assert_eq!(line(b"p cnf 2 1\n1 -x 0\n"), 2);
        assert_eq!(line(b"p cnf 2 1\n1 - 0\n"), 2);
        assert_eq!(line(b"p cnf 2 1\n1 2-1 0\n"), 2);
        assert_eq!(line(b"p cnf 2 1\n1 9999999999999999999999 0\n"), 2);
        assert_eq!(line(b""), 1);
    }
}
