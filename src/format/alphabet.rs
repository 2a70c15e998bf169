//! Symbol alphabets: which character stands for which digit, written as ranges like `1-9A-G`.

use std::fmt;

use thiserror::Error;

/// The most symbols an alphabet can have: every printable ASCII character that is not a blank, a range
/// dash or a separator of some format (86). Wider grids are read and written as ints.
pub const MAX_SYMBOLS: usize = 86;

/// The default sequence: `1-9`, then `A-Z`, then `a-z`, then `@ $ %` (64 symbols).
const DEFAULT_SEQ: &[u8; 64] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%";
/// The default sequence with lower-case letters first (for files written in lower case).
const DEFAULT_LOWER_SEQ: &[u8; 64] =
    b"123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@$%";
/// `0` as the first value: `0-9`, `A-Z`, `a-z`, `@ $`.
const ZERO_SEQ: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$";
/// `0` first, lower-case letters first (`0-9a-f` for 16x16).
const ZERO_LOWER_SEQ: &[u8; 64] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@$";
/// Letters only: `A-Z`, `a-z`, then `1-9`, `@ $ %` (`A-P` for 16x16, the contest letters format).
const LETTER_SEQ: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz123456789@$%";

/// The families an alphabet may be a prefix of; a symbol further along the same family is reported as
/// "out of range" rather than "unknown".
const FAMILIES: [&[u8; 64]; 5] = [
    DEFAULT_SEQ,
    DEFAULT_LOWER_SEQ,
    ZERO_SEQ,
    ZERO_LOWER_SEQ,
    LETTER_SEQ,
];

/// The symbols of a grid: symbol `i` (0-based) stands for digit `i + 1`.
///
/// Symbols are printable ASCII characters other than the blanks (`.`, `_`), the range dash `-`, and the
/// characters with a meaning in some input format (`#`, `|`, `+`, `,`, `"`, whitespace). Letters match
/// either case unless the alphabet holds both cases of that letter; they are written as given.
#[derive(Clone, PartialEq, Eq)]
pub struct Alphabet {
    /// The symbols in digit order, ASCII.
    symbols: Vec<u8>,
    /// ASCII byte → digit 1..=N, 0 for "not a symbol".
    lookup: [u8; 128],
}

/// Why an alphabet spec cannot be used.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum AlphabetError {
    /// No symbols at all.
    #[error("empty symbol alphabet: give the symbols of digits 1..=N in order, e.g. 1-9A-G")]
    Empty,
    /// A character that cannot be a symbol.
    #[error("{symbol:?} cannot be a symbol: {reason}")]
    BadSymbol {
        /// The character.
        symbol: char,
        /// Why not.
        reason: &'static str,
    },
    /// A symbol listed twice (also through case folding is fine: `a` and `A` are two symbols).
    #[error("symbol {symbol:?} appears twice in the alphabet")]
    Duplicate {
        /// The repeated symbol.
        symbol: char,
    },
    /// A range whose end comes before its start.
    #[error("range {from}-{to} runs backwards")]
    Backwards {
        /// First character.
        from: char,
        /// Last character.
        to: char,
    },
    /// More than [`MAX_SYMBOLS`] symbols.
    #[error(
        "{count} symbols: at most {MAX_SYMBOLS} are supported (printable ASCII); write larger grids as integers (the ints format)"
    )]
    TooMany {
        /// How many symbols the spec lists.
        count: usize,
    },
}

fn reject(c: char) -> Option<&'static str> {
    match c {
        '.' | '_' => Some("it marks a blank cell"),
        '-' => Some("'-' marks a blank cell and writes ranges (A-P)"),
        '#' => Some("it starts a comment"),
        '|' | '+' => Some("it separates boxes"),
        ',' | '"' => Some("it has a meaning in CSV"),
        c if c.is_ascii_graphic() => None,
        _ => Some("symbols must be printable ASCII characters other than space"),
    }
}

impl Alphabet {
    /// Parses a spec of ranges and single characters, e.g. `A-P`, `1-9A-G`, `0-9a-f`, `1-9?A-Z`.
    ///
    /// # Errors
    /// [`AlphabetError`] for an empty spec, a character that cannot be a symbol, a repeated symbol, a
    /// backwards range, or more than [`MAX_SYMBOLS`] symbols.
    ///
    /// # Examples
    /// ```
    /// use satdoku::format::Alphabet;
    /// let a = Alphabet::parse("0-9a-f").unwrap();
    /// assert_eq!(a.len(), 16);
    /// assert_eq!(a.digit('0'), Some(1));
    /// assert_eq!(a.digit('F'), Some(16));
    /// assert_eq!(a.symbol(11), 'a');
    /// ```
    pub fn parse(spec: &str) -> Result<Alphabet, AlphabetError> {
        let chars: Vec<char> = spec.trim().chars().collect();
        let mut symbols: Vec<u8> = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if i + 2 < chars.len() && chars[i + 1] == '-' && c != '-' {
                let to = chars[i + 2];
                if let Some(reason) = reject(to) {
                    return Err(AlphabetError::BadSymbol { symbol: to, reason });
                }
                if let Some(reason) = reject(c) {
                    return Err(AlphabetError::BadSymbol { symbol: c, reason });
                }
                if to < c {
                    return Err(AlphabetError::Backwards { from: c, to });
                }
                for x in c..=to {
                    if let Some(reason) = reject(x) {
                        return Err(AlphabetError::BadSymbol { symbol: x, reason });
                    }
                    symbols.push(x as u8);
                    if symbols.len() > MAX_SYMBOLS {
                        break;
                    }
                }
                i += 3;
            } else {
                if let Some(reason) = reject(c) {
                    return Err(AlphabetError::BadSymbol { symbol: c, reason });
                }
                symbols.push(c as u8);
                i += 1;
            }
            if symbols.len() > MAX_SYMBOLS {
                // Count the rest cheaply for the message.
                return Err(AlphabetError::TooMany {
                    count: symbols.len() + chars.len().saturating_sub(i),
                });
            }
        }
        if symbols.is_empty() {
            return Err(AlphabetError::Empty);
        }
        let mut seen = [false; 128];
        for &s in &symbols {
            if seen[s as usize] {
                return Err(AlphabetError::Duplicate { symbol: s as char });
            }
            seen[s as usize] = true;
        }
        Ok(Alphabet::from_ascii(symbols))
    }

    /// The alphabet of `symbols` in the order given, if they are distinct characters that can be
    /// symbols, at most [`MAX_SYMBOLS`].
    pub(crate) fn from_symbols(symbols: &[u8]) -> Option<Alphabet> {
        let ok = !symbols.is_empty()
            && symbols.len() <= MAX_SYMBOLS
            && symbols.iter().all(|&b| reject(b as char).is_none())
            && (1..symbols.len()).all(|i| !symbols[..i].contains(&symbols[i]));
        ok.then(|| Alphabet::from_ascii(symbols.to_vec()))
    }

    /// Whether `b` can be a symbol of some alphabet.
    pub(crate) fn can_be_symbol(b: u8) -> bool {
        reject(b as char).is_none()
    }

    /// Builds the lookup table for distinct ASCII symbols.
    fn from_ascii(symbols: Vec<u8>) -> Alphabet {
        let mut lookup = [0u8; 128];
        for (i, &s) in symbols.iter().enumerate() {
            lookup[s as usize] = i as u8 + 1;
        }
        // Case folding: a letter also matches its other case unless that case is a symbol itself.
        for (i, &s) in symbols.iter().enumerate() {
            let other = if s.is_ascii_uppercase() {
                s.to_ascii_lowercase()
            } else {
                s.to_ascii_uppercase()
            };
            if other != s && lookup[other as usize] == 0 && !symbols.contains(&other) {
                lookup[other as usize] = i as u8 + 1;
            }
        }
        Alphabet { symbols, lookup }
    }

    /// The first `n` symbols of a family sequence.
    /// Beyond 64 it goes on with the other characters that can be symbols, in code order, up to
    /// [`MAX_SYMBOLS`].
    fn prefix(seq: &[u8; 64], n: usize) -> Alphabet {
        let mut symbols = seq[..n.min(64)].to_vec();
        if n > 64 {
            let rest = (33..127u8).filter(|&b| Alphabet::can_be_symbol(b) && !seq.contains(&b));
            symbols.extend(rest.take(n - 64));
        }
        Alphabet::from_ascii(symbols)
    }

    /// The default alphabet for an N×N grid: `1-9`, then `A`, `B`, `C`, … (`1-9A-G` for 16x16). Beyond 35
    /// symbols it goes on with `a-z`, then `@`, `$`, `%`; beyond 64, `0` and the other punctuation that
    /// can be a symbol, in code order. `n` above [`MAX_SYMBOLS`] is taken as [`MAX_SYMBOLS`].
    ///
    /// # Examples
    /// ```
    /// use satdoku::format::Alphabet;
    /// assert_eq!(Alphabet::default_for(9).to_string(), "1-9");
    /// assert_eq!(Alphabet::default_for(12).to_string(), "1-9A-C");
    /// assert_eq!(Alphabet::default_for(16).to_string(), "1-9A-G");
    /// ```
    pub fn default_for(n: usize) -> Alphabet {
        Alphabet::prefix(DEFAULT_SEQ, n)
    }

    /// The default alphabet written with lower-case letters (`1-9a-g` for 16x16).
    pub(crate) fn default_lower(n: usize) -> Alphabet {
        Alphabet::prefix(DEFAULT_LOWER_SEQ, n)
    }

    /// `0` as the first value: `0-9` then letters (`0-9A-F` or, with `lower`, `0-9a-f` for 16x16).
    pub(crate) fn zero_first(n: usize, lower: bool) -> Alphabet {
        Alphabet::prefix(if lower { ZERO_LOWER_SEQ } else { ZERO_SEQ }, n)
    }

    /// Letters from `A` (`A-P` for 16x16, as in the classic contest format).
    pub(crate) fn letters(n: usize) -> Alphabet {
        Alphabet::prefix(LETTER_SEQ, n)
    }

    /// The number of symbols (the grid side N this alphabet serves).
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether the alphabet has no symbols (never true for a parsed alphabet).
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The symbol of `digit` (1..=N). A digit outside 1..=N is shown as `?`.
    pub fn symbol(&self, digit: u16) -> char {
        match digit
            .checked_sub(1)
            .and_then(|i| self.symbols.get(i as usize))
        {
            Some(&s) => s as char,
            None => '?',
        }
    }

    /// The digit (1..=N) of a symbol, matching letters in either case unless both cases are symbols.
    pub fn digit(&self, ch: char) -> Option<u16> {
        if ch.is_ascii() {
            match self.lookup[ch as usize] {
                0 => None,
                d => Some(u16::from(d)),
            }
        } else {
            None
        }
    }

    /// The raw lookup table (ASCII byte → digit, 0 for none).
    /// The symbols in digit order (digit d is `symbol_bytes()[d - 1]`), all ASCII.
    pub(crate) fn symbol_bytes(&self) -> &[u8] {
        &self.symbols
    }

    pub(crate) fn lookup(&self) -> &[u8; 128] {
        &self.lookup
    }

    /// The longest known alphabet (64 symbols) this one is a prefix of, if any: symbols found further
    /// along it are "out of range" for this grid rather than unknown.
    ///
    /// The family is cut before its second case of letters when this alphabet fits before it, so that
    /// letters keep matching either case; an alphabet without letters extends over digits only.
    pub(crate) fn family(&self) -> Option<Alphabet> {
        let f = FAMILIES.iter().find(|f| f.starts_with(&self.symbols))?;
        let first_letter = f.iter().position(u8::is_ascii_alphabetic).unwrap_or(64);
        let second_case = f[first_letter..]
            .iter()
            .position(|b| {
                b.is_ascii_alphabetic()
                    && b.is_ascii_lowercase() != f[first_letter].is_ascii_lowercase()
            })
            .map_or(64, |i| i + first_letter);
        let has_letters = self.symbols.iter().any(u8::is_ascii_alphabetic);
        let cut = if !has_letters {
            first_letter
        } else if self.len() <= second_case {
            second_case
        } else {
            64
        };
        Some(Alphabet::from_ascii(f[..cut.max(self.len())].to_vec()))
    }

    /// Whether `0` is one of the symbols.
    pub(crate) fn has_zero(&self) -> bool {
        self.lookup[b'0' as usize] != 0
    }
}

impl fmt::Display for Alphabet {
    /// The spec form, runs of three or more consecutive characters written as ranges: `1-9A-G`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.symbols;
        let mut i = 0;
        while i < s.len() {
            let mut j = i;
            while j + 1 < s.len() && s[j + 1] == s[j] + 1 {
                j += 1;
            }
            if j >= i + 2 {
                write!(f, "{}-{}", s[i] as char, s[j] as char)?;
            } else {
                for &c in &s[i..=j] {
                    write!(f, "{}", c as char)?;
                }
            }
            i = j + 1;
        }
        Ok(())
    }
}

impl fmt::Debug for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Alphabet({self})")
    }
}

impl std::str::FromStr for Alphabet {
    type Err = AlphabetError;

    fn from_str(s: &str) -> Result<Alphabet, AlphabetError> {
        Alphabet::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_from_the_issue() {
        for (spec, len, first, last) in [
            ("A-P", 16, 'A', 'P'),
            ("1-9A-G", 16, '1', 'G'),
            ("0-9a-f", 16, '0', 'f'),
            ("1-9?A-Z", 36, '1', 'Z'),
            ("1-4", 4, '1', '4'),
        ] {
            let a = Alphabet::parse(spec).unwrap();
            assert_eq!(a.len(), len, "{spec}");
            assert_eq!(a.symbol(1), first);
            assert_eq!(a.symbol(len as u16), last);
            assert_eq!(a.to_string(), spec);
        }
        let uio = Alphabet::parse("1-9?A-Z").unwrap();
        assert_eq!(uio.digit('?'), Some(10));
        assert_eq!(uio.digit('A'), Some(11));
        assert_eq!(uio.digit('z'), Some(36), "case-insensitive");
    }

    #[test]
    fn case_folding_only_when_unambiguous() {
        let hex = Alphabet::parse("0-9a-f").unwrap();
        assert_eq!(hex.digit('B'), Some(12));
        assert_eq!(hex.symbol(12), 'b');
        let both = Alphabet::default_for(64);
        assert_eq!(both.digit('A'), Some(10));
        assert_eq!(both.digit('a'), Some(36));
        assert_eq!(both.symbol(64), '%');
        assert_eq!(both.digit('.'), None);
        assert_eq!(both.digit('é'), None);
    }

    #[test]
    fn bad_specs() {
        assert_eq!(Alphabet::parse(""), Err(AlphabetError::Empty));
        assert!(matches!(
            Alphabet::parse("1-9."),
            Err(AlphabetError::BadSymbol { symbol: '.', .. })
        ));
        assert!(matches!(
            Alphabet::parse("9-1"),
            Err(AlphabetError::Backwards { .. })
        ));
        assert!(matches!(
            Alphabet::parse("1-9A1"),
            Err(AlphabetError::Duplicate { symbol: '1' })
        ));
        assert!(matches!(
            Alphabet::parse("!-~"),
            Err(AlphabetError::BadSymbol { .. })
        ));
        // 66 symbols are fine now; more than every usable character needs a repeat.
        assert_eq!(Alphabet::parse("0-9A-Za-z@$%&").unwrap().len(), 66);
        assert!(matches!(
            Alphabet::parse("0-9A-Za-z0-9A-Za-z"),
            Err(AlphabetError::TooMany { .. })
        ));
        let widest = Alphabet::default_for(MAX_SYMBOLS + 10);
        assert_eq!(widest.len(), MAX_SYMBOLS);
        assert_eq!(Alphabet::parse(&widest.to_string()).unwrap(), widest);
        assert_eq!(widest.symbol(64), '%');
        assert_eq!(widest.symbol(65), '!');
        assert_eq!(widest.digit('~'), Some(MAX_SYMBOLS as u16));
        assert_eq!(Alphabet::zero_first(70, false).len(), 70);
        assert!(matches!(
            Alphabet::parse("-A"),
            Err(AlphabetError::BadSymbol { symbol: '-', .. })
        ));
        assert!(matches!(
            Alphabet::parse("A-"),
            Err(AlphabetError::BadSymbol { symbol: '-', .. })
        ));
        assert!(matches!(
            Alphabet::parse("1 2"),
            Err(AlphabetError::BadSymbol { symbol: ' ', .. })
        ));
    }

    #[test]
    fn defaults_and_families() {
        assert_eq!(Alphabet::default_for(4).to_string(), "1-4");
        assert_eq!(Alphabet::default_for(25).to_string(), "1-9A-P");
        assert_eq!(Alphabet::zero_first(16, true).to_string(), "0-9a-f");
        assert_eq!(Alphabet::zero_first(16, false).to_string(), "0-9A-F");
        assert_eq!(Alphabet::letters(16).to_string(), "A-P");
        assert_eq!(Alphabet::default_lower(16).to_string(), "1-9a-g");
        let fam = Alphabet::default_for(4).family().unwrap();
        assert_eq!(fam.digit('7'), Some(7));
        assert_eq!(
            fam.digit('A'),
            None,
            "no letters beyond a digits-only alphabet"
        );
        let fam = Alphabet::default_for(16).family().unwrap();
        assert_eq!(fam.digit('h'), Some(17));
        assert_eq!(fam.len(), 35);
        assert!(Alphabet::parse("1-9?A-Z").unwrap().family().is_none());
        assert_eq!(Alphabet::default_for(9).symbol(0), '?');
        assert_eq!(Alphabet::default_for(9).symbol(10), '?');
    }
}
