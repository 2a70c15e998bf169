//! The byte → digit table a reader parses with: the alphabet's symbols, the blanks, and error reports.

use super::alphabet::Alphabet;
use super::error::ParseErrorKind;

/// Table entry: `|`, skipped between cells.
pub(crate) const SKIP: u8 = 0xFE;
/// Table entry: a symbol of the alphabet's family beyond N (a digit out of range).
pub(crate) const OUT: u8 = 0xFD;
/// Table entry: not a symbol.
pub(crate) const BAD: u8 = 0xFF;

/// Characters always read as a blank cell (besides `0` when it is no symbol).
pub(crate) const BLANKS: &[u8] = b".-_";

/// What the table of the decimal digits 1-9 gives a byte: its digit, 0 for a blank (`0 . - _`), or
/// `None` for any other byte.
fn decimal(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'.' | b'-' | b'_' => Some(0),
        _ => None,
    }
}

/// A parsing table: every byte maps to a digit 1..=N, 0 for a blank, or [`SKIP`], [`OUT`], [`BAD`]
/// (all three have the high bit set, so one OR over a row tells whether any cell is bad).
#[derive(Clone, Debug)]
pub(crate) struct Symbols {
    pub(crate) lut: [u8; 256],
    /// Whether the table is [`decimal`]'s (digits 1-9, blanks `0 . - _`, nothing else): such a row
    /// is read by arithmetic instead of a lookup per byte ([`Symbols::read_plain`]).
    decimal: bool,
    pub(crate) alphabet: Alphabet,
    family: Option<Alphabet>,
    /// The distinct symbols (not blanks) the look-ahead showed, ascending: the advice for `--symbols`.
    file: Vec<u8>,
}

/// [`decimal`]'s values of `field`, appended to `values`; whether some byte is neither a digit nor a
/// blank. No branch per byte: 16 bytes at a time with SSE2 on x86-64 (the value is the byte's distance
/// above `0` where that is at most 9, else 0; the byte is bad unless it is a digit or `. - _`).
fn read_decimal(field: &[u8], values: &mut Vec<u16>) -> bool {
    let (chunks, rest) = field.as_chunks::<16>();
    values.reserve(field.len());
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: SSE2 is enabled on every x86-64 target; each unaligned load reads one 16-byte chunk
    // and each store writes the 32 bytes of `out`.
    let mut bad = unsafe {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8,
            _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_storeu_si128,
            _mm_sub_epi8, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
        };
        let byte = |b: u8| _mm_set1_epi8(b as i8);
        let (zero_digit, nine, zero) = (byte(b'0'), byte(9), _mm_setzero_si128());
        let (dot, dash, under) = (byte(b'.'), byte(b'-'), byte(b'_'));
        let mut bad = 0;
        let mut out = [0u16; 16];
        for c in chunks {
            let v = _mm_loadu_si128(c.as_ptr().cast::<__m128i>());
            let d = _mm_sub_epi8(v, zero_digit);
            let digit = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
            let blank = _mm_or_si128(
                _mm_cmpeq_epi8(v, dot),
                _mm_or_si128(_mm_cmpeq_epi8(v, dash), _mm_cmpeq_epi8(v, under)),
            );
            bad |= _mm_movemask_epi8(_mm_or_si128(digit, blank)) ^ 0xFFFF;
            let d = _mm_and_si128(d, digit);
            let o = out.as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(o, _mm_unpacklo_epi8(d, zero));
            _mm_storeu_si128(o.add(1), _mm_unpackhi_epi8(d, zero));
            values.extend_from_slice(&out);
        }
        bad != 0
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let mut bad = read_decimal_bytes(chunks.as_flattened(), values);
    bad |= read_decimal_bytes(rest, values);
    bad
}

/// [`read_decimal`] a byte at a time.
fn read_decimal_bytes(field: &[u8], values: &mut Vec<u16>) -> bool {
    let mut bad = false;
    values.extend(field.iter().map(|&b| {
        let d = b.wrapping_sub(b'0');
        let digit = d <= 9;
        bad |= !digit & !matches!(b, b'.' | b'-' | b'_');
        u16::from(if digit { d } else { 0 })
    }));
    bad
}

impl Symbols {
    /// The table of `alphabet`; `file` lists the symbols the look-ahead showed (see
    /// [`super::detect::file_symbols`]).
    pub(crate) fn new(alphabet: Alphabet, file: Vec<u8>) -> Symbols {
        let mut lut = [BAD; 256];
        let family = alphabet.family();
        if let Some(f) = &family {
            for (b, &d) in f.lookup().iter().enumerate() {
                if d != 0 {
                    lut[b] = OUT;
                }
            }
        }
        for &b in BLANKS {
            lut[b as usize] = 0;
        }
        if !alphabet.has_zero() {
            lut[b'0' as usize] = 0;
        }
        for (b, &d) in alphabet.lookup().iter().enumerate() {
            if d != 0 {
                lut[b] = d;
            }
        }
        lut[b'|' as usize] = SKIP;
        Symbols {
            decimal: (0..=255u8).all(|b| {
                let t = lut[b as usize];
                match decimal(b) {
                    Some(v) => t == v,
                    None => t & 0x80 != 0,
                }
            }),
            lut,
            alphabet,
            family,
            file,
        }
    }

    /// The values of a row of cell symbols without `|` (`values` is emptied first); the offset of the
    /// first byte that is no symbol or blank, if any (then `values` holds an unspecified prefix).
    pub(crate) fn read_plain(&self, field: &[u8], values: &mut Vec<u16>) -> Option<usize> {
        values.clear();
        let bad = if self.decimal {
            read_decimal(field, values)
        } else {
            values.extend(field.iter().map(|&b| u16::from(self.lut[b as usize])));
            values.iter().fold(0u16, |a, &v| a | v) & 0x80 != 0
        };
        if !bad {
            return None;
        }
        field.iter().position(|&b| self.lut[b as usize] & 0x80 != 0)
    }

    /// Whether the table is the decimal one (see [`Symbols::read_plain`]): then a row that reads
    /// without a bad byte has no `|` and no byte outside ASCII either.
    pub(crate) fn is_decimal(&self) -> bool {
        self.decimal
    }

    /// The blank characters, for messages.
    pub(crate) fn blanks(&self) -> String {
        let mut s = String::from(". - _");
        if !self.alphabet.has_zero() {
            s.push_str(" 0");
        }
        s
    }

    /// The error for the bad byte at `offset` of `text` (its table entry is [`OUT`] or [`BAD`]).
    pub(crate) fn error_at(&self, text: &[u8], offset: usize) -> ParseErrorKind {
        let b = text[offset];
        if b >= 0x80 {
            let end = (offset + 4).min(text.len());
            let ch = match std::str::from_utf8(&text[offset..end]) {
                Ok(s) => s.chars().next(),
                Err(e) if e.valid_up_to() > 0 => {
                    std::str::from_utf8(&text[offset..offset + e.valid_up_to()])
                        .ok()
                        .and_then(|s| s.chars().next())
                }
                Err(_) => None,
            };
            return match ch {
                Some(symbol) => self.unknown(symbol),
                None => ParseErrorKind::InvalidUtf8 { byte: b },
            };
        }
        if b < 0x20 || b == 0x7F {
            return ParseErrorKind::Binary { byte: b };
        }
        if self.lut[b as usize] == OUT
            && let Some(value) = self.family.as_ref().and_then(|f| f.digit(b as char))
        {
            return ParseErrorKind::DigitOutOfRange {
                symbol: b as char,
                value: value as usize,
                n: self.alphabet.len(),
                alphabet: self.alphabet.to_string(),
            };
        }
        self.unknown(b as char)
    }

    fn unknown(&self, symbol: char) -> ParseErrorKind {
        ParseErrorKind::UnknownSymbol {
            symbol,
            alphabet: self.alphabet.to_string(),
            blanks: self.blanks(),
            advice: self.advice(symbol),
        }
    }

    /// What to do about an unknown `symbol`, from the symbols the file uses: the exact `--symbols` when
    /// they are N, else how many there are against the N a grid needs.
    fn advice(&self, symbol: char) -> String {
        let n = self.alphabet.len();
        let mut set = self.file.clone();
        if let Ok(b) = u8::try_from(symbol)
            && Alphabet::can_be_symbol(b)
            && !set.contains(&b)
        {
            set.push(b);
            set.sort_unstable();
        }
        if !self.alphabet.has_zero() {
            // `0` is a blank here.
            set.retain(|&b| b != b'0');
        }
        let spec = match Alphabet::from_symbols(&set) {
            Some(a) => a.to_string(),
            None => String::from_utf8_lossy(&set).into_owned(),
        };
        let k = set.len();
        if k == n {
            format!("if the file's {n} symbols {spec} are its digits, pass --symbols {spec}")
        } else if k > n {
            format!(
                "the file uses {k} symbols besides blanks ({spec}), but {n}x{n} grids have {n}: \
                 correct the stray ones, or give the {n} digit symbols in order with --symbols"
            )
        } else {
            format!(
                "the file uses {k} symbols besides blanks ({spec}), fewer than the {n} of {n}x{n} \
                 grids: give all {n} in digit order with --symbols"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_decimal_matches_a_byte_at_a_time() {
        // Each byte value at each position of rows of 0 to 40 bytes: the values and the verdict.
        for len in 0..=40usize {
            for at in 0..len {
                for b in 0..=255u8 {
                    let row: Vec<u8> = (0..len)
                        .map(|i| if i == at { b } else { b"0.123456789-_"[i % 13] })
                        .collect();
                    let (mut fast, mut slow) = (Vec::new(), Vec::new());
                    let bad = read_decimal(&row, &mut fast);
                    assert_eq!(bad, read_decimal_bytes(&row, &mut slow), "{len} {at} {b}");
                    assert_eq!(bad, decimal(b).is_none(), "{len} {at} {b}");
                    if !bad {
                        assert_eq!(fast, slow, "{len} {at} {b}");
                    }
                }
            }
        }
    }

    /// The arithmetic reading of the decimal table gives what the table gives, for every byte in
    /// every position of a row; the other tables are read by lookup, as before.
    #[test]
    fn plain_rows_read_as_the_table_says() {
        let cases = [
            (Alphabet::default_for(9), true),
            (Alphabet::default_for(4), false),
            (Alphabet::default_for(16), false),
            (Alphabet::zero_first(9, false), false),
            (Alphabet::letters(9), false),
        ];
        for (alphabet, decimal) in cases {
            let syms = Symbols::new(alphabet.clone(), Vec::new());
            assert_eq!(syms.decimal, decimal, "{alphabet:?}");
            let mut values = Vec::new();
            for b in 0..=255u8 {
                if b == b'|' {
                    continue;
                }
                for at in [0, 7, 16, 80] {
                    let mut row = b"4.3-_0916253847519362847385261947513629847513986257".repeat(2);
                    row.truncate(81);
                    row[at] = b;
                    let bad = syms.read_plain(&row, &mut values);
                    let first = row.iter().position(|&x| syms.lut[x as usize] & 0x80 != 0);
                    assert_eq!(bad, first, "{alphabet:?} byte {b} at {at}");
                    if bad.is_none() {
                        let by_table: Vec<u16> = row
                            .iter()
                            .map(|&x| u16::from(syms.lut[x as usize]))
                            .collect();
                        assert_eq!(values, by_table, "{alphabet:?} byte {b} at {at}");
                    }
                }
            }
        }
    }
}
