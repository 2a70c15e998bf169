//! Clausal proofs in DRAT (Wetzler, Heule & Hunt 2014, "DRAT-trim: Efficient checking and trimming
//! using expressive clausal proofs"): a list of clause additions and deletions, read from and written
//! to the text and binary formats that DRAT checkers (`drat-trim`, `rate`) accept.
//!
//! Text: one step per line, the literals as DIMACS numbers ending with `0`, a deletion prefixed by
//! `d`. Binary: a byte `a` (addition) or `d` (deletion), each literal l as the unsigned LEB128 varint
//! of 2·var + (1 if negative), and a 0 byte.

use std::io::{self, Write};

use thiserror::Error;

use crate::sat::lit::Lit;

/// A DRAT proof: clause additions (lemmas) and deletions, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Proof {
    lits: Vec<Lit>,
    /// Per step: the end offset of its literals in `lits`, and whether it is a deletion.
    steps: Vec<(u32, bool)>,
}

/// Why a proof could not be read. Offsets are 0-based byte positions, lines 1-based.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofParseError {
    /// A token that is not a literal (text format).
    #[error("line {line}: {text:?} is not a literal")]
    BadLiteral {
        /// Line number.
        line: usize,
        /// The token.
        text: String,
    },
    /// A literal out of range (either format).
    #[error("line {line}: literal {literal} is out of range")]
    OutOfRange {
        /// Line number (binary format: the step number).
        line: usize,
        /// The literal.
        literal: i64,
    },
    /// A binary step that does not start with `a` or `d`.
    #[error("byte {offset}: expected a step (`a` or `d`), found byte 0x{byte:02x}")]
    BadStep {
        /// Byte offset.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// The last step has no terminating 0.
    #[error("the last step is not terminated by 0")]
    Truncated,
}

impl Proof {
    /// An empty proof.
    pub(crate) fn new() -> Proof {
        Proof::default()
    }

    /// Appends the addition of the clause `lits`.
    pub(crate) fn add(&mut self, lits: &[Lit]) {
        self.push(lits, false);
    }

    /// Appends the deletion of the clause `lits`.
    pub(crate) fn delete(&mut self, lits: &[Lit]) {
        self.push(lits, true);
    }

    fn push(&mut self, lits: &[Lit], deletion: bool) {
        self.lits.extend_from_slice(lits);
        self.steps.push((self.lits.len() as u32, deletion));
    }

    /// The steps in order: (is a deletion, clause).
    pub(crate) fn steps(&self) -> impl Iterator<Item = (bool, &[Lit])> + '_ {
        let mut start = 0usize;
        self.steps.iter().map(move |&(end, deletion)| {
            let c = &self.lits[start..end as usize];
            start = end as usize;
            (deletion, c)
        })
    }

    /// The number of steps.
    pub(crate) fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the last addition is the empty clause.
    pub(crate) fn ends_with_empty_clause(&self) -> bool {
        self.steps()
            .filter(|(d, _)| !d)
            .last()
            .is_some_and(|(_, c)| c.is_empty())
    }

    /// Removes step `i` (for tests that tamper with a proof).
    #[cfg(test)]
    pub(crate) fn remove_step(&mut self, i: usize) {
        let steps: Vec<(bool, Vec<Lit>)> = self.steps().map(|(d, c)| (d, c.to_vec())).collect();
        *self = Proof::new();
        for (k, (d, c)) in steps.into_iter().enumerate() {
            if k != i {
                self.push(&c, d);
            }
        }
    }

    /// Reads a proof in either format: binary if a byte that text DRAT cannot hold (anything but
    /// digits, `-`, `d` and white space) occurs in the first 1024 bytes.
    ///
    /// # Errors
    /// A [`ProofParseError`] naming the line or byte.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Proof, ProofParseError> {
        let text = |b: &u8| b.is_ascii_digit() || b"-d \t\r\n".contains(b);
        if bytes.iter().take(1024).all(text) {
            Proof::from_text_drat(bytes)
        } else {
            Proof::from_binary_drat(bytes)
        }
    }

    /// Reads text DRAT (lines starting with `c` are comments).
    ///
    /// # Errors
    /// A [`ProofParseError`] naming the line.
    pub(crate) fn from_text_drat(bytes: &[u8]) -> Result<Proof, ProofParseError> {
        let mut proof = Proof::new();
        let mut clause: Vec<Lit> = Vec::new();
        let mut deletion = false;
        let mut open = false;
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let line_no = i + 1;
            let text = String::from_utf8_lossy(line);
            let mut tokens = text.split_whitespace().peekable();
            if tokens.peek() == Some(&"c") {
                continue;
            }
            for token in tokens {
                if token == "d" && !open {
                    deletion = true;
                    open = true;
                    continue;
                }
                let value: i64 = token.parse().map_err(|_| ProofParseError::BadLiteral {
                    line: line_no,
                    text: token.to_string(),
                })?;
                if value == 0 {
                    proof.push(&clause, deletion);
                    clause.clear();
                    deletion = false;
                    open = false;
                    continue;
                }
                let lit = isize::try_from(value)
                    .ok()
                    .and_then(Lit::try_from_dimacs)
                    .ok_or(ProofParseError::OutOfRange {
                        line: line_no,
                        literal: value,
                    })?;
                clause.push(lit);
                open = true;
            }
        }
        if open {
            return Err(ProofParseError::Truncated);
        }
        Ok(proof)
    }

    /// Reads binary DRAT.
    ///
    /// # Errors
    /// A [`ProofParseError`] naming the byte or step.
    pub(crate) fn from_binary_drat(bytes: &[u8]) -> Result<Proof, ProofParseError> {
        let mut proof = Proof::new();
        let mut clause: Vec<Lit> = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let deletion = match bytes[i] {
                b'a' => false,
                b'd' => true,
                byte => return Err(ProofParseError::BadStep { offset: i, byte }),
            };
            i += 1;
            clause.clear();
            loop {
                // Unsigned LEB128.
                let mut value: u64 = 0;
                let mut shift = 0;
                loop {
                    let Some(&b) = bytes.get(i) else {
                        return Err(ProofParseError::Truncated);
                    };
                    i += 1;
                    if shift < 64 {
                        value |= u64::from(b & 0x7f) << shift;
                    }
                    shift += 7;
                    if b & 0x80 == 0 {
                        break;
                    }
                }
                if value == 0 {
                    break;
                }
                let out_of_range = || ProofParseError::OutOfRange {
                    line: proof.len() + 1,
                    literal: value as i64,
                };
                // 2·var + sign with var ≥ 1: code = value − 2.
                if value < 2 || value - 2 > 2 * crate::sat::Var::MAX_INDEX as u64 + 1 {
                    return Err(out_of_range());
                }
                clause.push(Lit::from_code((value - 2) as usize));
            }
            proof.push(&clause, deletion);
        }
        Ok(proof)
    }

    /// Writes the proof as text DRAT.
    ///
    /// # Errors
    /// What writing to `out` returns.
    pub(crate) fn write_text<W: Write>(&self, out: W) -> io::Result<()> {
        // Sized for the whole proof when it is small (one write), at most 64 KiB.
        let size = 8 * self.lits.len() + 4 * self.steps.len();
        let mut w = io::BufWriter::with_capacity(size.clamp(64, 1 << 16), out);
        let mut line = Vec::with_capacity(256);
        for (deletion, clause) in self.steps() {
            line.clear();
            if deletion {
                line.extend_from_slice(b"d ");
            }
            for &l in clause {
                push_dimacs(&mut line, l);
            }
            line.extend_from_slice(b"0\n");
            w.write_all(&line)?;
        }
        w.flush()
    }
}

/// The two-digit numbers 00 to 99, for writing numbers two digits at a time.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends `l` as a DIMACS number and a space: built right to left two digits at a time, then
/// appended at once (most of writing a certificate's CNF and proof).
#[inline]
pub(crate) fn push_dimacs(out: &mut Vec<u8>, l: Lit) {
    // A sign, at most 20 digits, a space (ending at END), and room for an 8-byte copy after.
    const END: usize = 22;
    let mut buf = [0u8; END + 8];
    let mut k = END - 1;
    buf[k] = b' ';
    let mut v = l.var().to_dimacs() as u64;
    while v >= 100 {
        let r = (v % 100) as usize;
        v /= 100;
        k -= 2;
        buf[k..k + 2].copy_from_slice(&PAIRS[2 * r..2 * r + 2]);
    }
    if v >= 10 {
        k -= 2;
        buf[k..k + 2].copy_from_slice(&PAIRS[2 * v as usize..2 * v as usize + 2]);
    } else {
        k -= 1;
        buf[k] = b'0' + v as u8;
    }
    if l.is_negative() {
        k -= 1;
        buf[k] = b'-';
    }
    let n = END - k;
    if n <= 8 {
        // Variables below 10 million: one copy of a fixed 8 bytes, cut back to the number's.
        let len = out.len();
        let chunk: [u8; 8] = buf[k..k + 8].try_into().expect("8 bytes");
        out.extend_from_slice(&chunk);
        out.truncate(len + n);
    } else {
        out.extend_from_slice(&buf[k..END]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(v: &[isize]) -> Vec<Lit> {
        v.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    fn sample() -> Proof {
        let mut p = Proof::new();
        p.add(&lits(&[1, -2]));
        p.delete(&lits(&[3, 4, -5]));
        p.add(&lits(&[-130]));
        p.add(&[]);
        p
    }

    #[test]
    fn dimacs_numbers_of_every_length() {
        let mut out = Vec::new();
        let vars = [
            1, 9, 10, 99, 100, 101, 999, 1000, 12345, 123_456, 999_999, 1_234_567, 9_999_999,
            10_000_000,
        ];
        for &v in &vars {
            push_dimacs(&mut out, Lit::from_dimacs(v));
            push_dimacs(&mut out, Lit::from_dimacs(-v));
        }
        let expected: String = vars.iter().map(|v| format!("{v} -{v} ")).collect();
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn text_round_trip() {
        let p = sample();
        let mut out = Vec::new();
        p.write_text(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            "1 -2 0\nd 3 4 -5 0\n-130 0\n0\n"
        );
        assert_eq!(Proof::parse(&out).unwrap(), p);
        assert!(p.ends_with_empty_clause());
        assert_eq!(p.len(), 4);
        // Comments and several steps on one line.
        assert_eq!(
            Proof::from_text_drat(b"c x\n1 -2 0 d 3 4 -5 0\n-130 0 0\n").unwrap(),
            p
        );
    }

    #[test]
    fn binary_as_written_by_drat_solvers() {
        // a 1 -2 0 / d 3 4 -5 0 / a -130 0 / a 0: 2·var + sign, LEB128 (-130 = 261 = 0x85 0x02).
        let bytes = [
            b'a', 2, 5, 0, b'd', 6, 8, 11, 0, b'a', 0x85, 0x02, 0, b'a', 0,
        ];
        assert_eq!(Proof::parse(&bytes).unwrap(), sample());
    }

    #[test]
    fn malformed_proofs_are_errors() {
        assert_eq!(
            Proof::from_text_drat(b"1 2"),
            Err(ProofParseError::Truncated)
        );
        assert!(matches!(
            Proof::from_text_drat(b"1 0\n2 x 0\n"),
            Err(ProofParseError::BadLiteral { line: 2, .. })
        ));
        assert!(matches!(
            Proof::from_text_drat(b"99999999999 0\n"),
            Err(ProofParseError::OutOfRange { line: 1, .. })
        ));
        assert_eq!(
            Proof::from_binary_drat(&[b'a', 2]),
            Err(ProofParseError::Truncated)
        );
        assert!(matches!(
            Proof::from_binary_drat(&[b'x', 2, 0]),
            Err(ProofParseError::BadStep { offset: 0, .. })
        ));
        assert!(matches!(
            Proof::from_binary_drat(&[b'a', 1, 0]),
            Err(ProofParseError::OutOfRange { .. })
        ));
        // An overlong varint is out of range, not a panic; an unterminated one is truncated.
        let long = [
            b'a', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0,
        ];
        assert!(matches!(
            Proof::from_binary_drat(&long),
            Err(ProofParseError::OutOfRange { line: 1, .. })
        ));
        assert_eq!(
            Proof::from_binary_drat(&[b'a', 0xff]),
            Err(ProofParseError::Truncated)
        );
    }
}
