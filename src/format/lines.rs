//! Line input: a bounded line reader (a 10 MB line costs one pass, not memory) and line classification.

use std::io::{self, BufRead};

/// The longest line kept in memory; longer lines are measured, not stored, and reported as too long.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// Reads lines into one reused buffer, without the `\n`, trailing `\r` and whitespace; the first line
/// loses a UTF-8 byte-order mark.
pub(crate) struct LineReader<R> {
    inner: R,
    pub(crate) buf: Vec<u8>,
    /// The 1-based number of the line in `buf`.
    pub(crate) number: usize,
    /// The full length in bytes of the line in `buf` (before truncation and trimming).
    pub(crate) length: usize,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    pub(crate) fn new(inner: R) -> Self {
        LineReader {
            inner,
            buf: Vec::with_capacity(256),
            number: 0,
            length: 0,
            done: false,
        }
    }

    /// Reads the next line into `buf`; `Ok(false)` at the end of the input.
    ///
    /// # Errors
    /// The underlying reader's errors (`Interrupted` is retried); after one, the reader reports the end.
    pub(crate) fn next_line(&mut self) -> io::Result<bool> {
        if self.done {
            return Ok(false);
        }
        self.buf.clear();
        let mut total = 0usize;
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            };
            if chunk.is_empty() {
                self.done = true;
                if !any {
                    return Ok(false);
                }
                break;
            }
            any = true;
            let (take, used, end) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i, i + 1, true),
                None => (chunk.len(), chunk.len(), false),
            };
            let room = MAX_LINE.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            total += take;
            self.inner.consume(used);
            if end {
                break;
            }
        }
        self.number += 1;
        self.length = total;
        let mut end = self.buf.len();
        while end > 0 && matches!(self.buf[end - 1], b' ' | b'\t' | b'\r') {
            end -= 1;
        }
        self.buf.truncate(end);
        if self.number == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        Ok(true)
    }
}

/// A line as parsers see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub(crate) number: usize,
    /// The text, right-trimmed, at most [`MAX_LINE`] bytes.
    pub(crate) text: &'a [u8],
    /// The full length in bytes.
    pub(crate) length: usize,
}

impl Line<'_> {
    pub(crate) fn too_long(&self) -> bool {
        self.length > MAX_LINE
    }
}

/// A line kept for the look-ahead.
#[derive(Clone, Debug)]
pub(crate) struct OwnedLine {
    pub(crate) number: usize,
    pub(crate) text: Vec<u8>,
    pub(crate) length: usize,
}

impl OwnedLine {
    pub(crate) fn as_line(&self) -> Line<'_> {
        Line {
            number: self.number,
            text: &self.text,
            length: self.length,
        }
    }
}

/// What a line is, before any format is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Empty or whitespace only.
    Blank,
    /// Starts with `#` (or `//`).
    Comment,
    /// A lone integer of up to three digits: a count line, or a box-size header (uio, sudoku_acs).
    HeaderInt(u32),
    /// A title line such as `Grid 01` or a citation.
    HeaderText,
    /// Anything else: puzzle data.
    Data,
}

/// Classifies a (right-trimmed) line.
pub(crate) fn classify(text: &[u8]) -> Kind {
    let t = trim_start(text);
    if t.is_empty() {
        return Kind::Blank;
    }
    if t[0] == b'#' || t.starts_with(b"//") {
        return Kind::Comment;
    }
    if t.len() <= 3 && t.iter().all(u8::is_ascii_digit) {
        let v = t.iter().fold(0u32, |a, &b| a * 10 + u32::from(b - b'0'));
        return Kind::HeaderInt(v);
    }
    if is_text(t) {
        return Kind::HeaderText;
    }
    Kind::Data
}

/// A title line: words separated by spaces, one of them a word with a lower-case letter beyond `f`
/// (`Grid 01`, `Gordon F. Royle, A collection ...`). Grid rows never have such words: their letters
/// are single symbols, upper case, or the hex digits `a-f`.
fn is_text(t: &[u8]) -> bool {
    if memchr::memchr2(b' ', b'\t', t).is_none() {
        return false;
    }
    t.split(|&b| b == b' ' || b == b'\t').any(|word| {
        let w = match word.last() {
            Some(b':' | b',' | b'.' | b';') => &word[..word.len() - 1],
            _ => word,
        };
        w.len() >= 2
            && w.iter().all(u8::is_ascii_alphabetic)
            && w.iter().any(|&b| (b'g'..=b'z').contains(&b))
    })
}

pub(crate) fn trim_start(t: &[u8]) -> &[u8] {
    let i = t
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(t.len());
    &t[i..]
}

/// The 1-based character column of byte offset `offset` in `text`.
pub(crate) fn column(text: &[u8], offset: usize) -> usize {
    let head = &text[..offset.min(text.len())];
    if head.is_ascii() {
        offset + 1
    } else {
        head.iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1
    }
}

/// The first byte of `text` that starts no valid UTF-8 sequence, or a control byte (NUL and others, not
/// tab): `(offset, byte, is_utf8_error)`.
pub(crate) fn first_non_text(text: &[u8]) -> Option<(usize, u8, bool)> {
    let ctrl = text
        .iter()
        .position(|&b| b < 0x20 && b != b'\t' || b == 0x7F);
    let utf8 = match std::str::from_utf8(text) {
        Ok(_) => None,
        Err(e) => Some(e.valid_up_to()),
    };
    match (ctrl, utf8) {
        (Some(c), Some(u)) if u < c => Some((u, text[u], true)),
        (Some(c), _) => Some((c, text[c], false)),
        (None, Some(u)) => Some((u, text[u], true)),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(classify(b""), Kind::Blank);
        assert_eq!(classify(b"  \t"), Kind::Blank);
        assert_eq!(classify(b"# file: x.txt"), Kind::Comment);
        assert_eq!(classify(b"4"), Kind::HeaderInt(4));
        assert_eq!(classify(b"100"), Kind::HeaderInt(100));
        assert_eq!(classify(b"Grid 01"), Kind::HeaderText);
        assert_eq!(
            classify(b"Gordon F. Royle, A collection of 49,151 distinct Sudoku"),
            Kind::HeaderText
        );
        assert_eq!(classify(b"003020600"), Kind::Data);
        assert_eq!(classify(b"--A----C-----O-I"), Kind::Data);
        assert_eq!(classify(b"ABCD EFGH IJKL MNOP"), Kind::Data);
        assert_eq!(classify(b"b2.7 fe.. 6e.3 .d.."), Kind::Data);
        assert_eq!(classify(b"1 2 3 | 4 5 6 | 7 8 9"), Kind::Data);
        assert_eq!(classify(b"-1\t-1\t7\t"), Kind::Data);
        assert_eq!(classify(b"1234"), Kind::Data);
    }

    #[test]
    fn reader_trims_and_bounds() {
        let text = b"\xEF\xBB\xBFab \r\ncd\t\n\nlast";
        let mut r = LineReader::new(&text[..]);
        let mut got = Vec::new();
        while r.next_line().unwrap() {
            got.push((r.number, String::from_utf8(r.buf.clone()).unwrap()));
        }
        assert_eq!(
            got,
            vec![
                (1, "ab".to_string()),
                (2, "cd".to_string()),
                (3, String::new()),
                (4, "last".to_string())
            ]
        );
        let long = vec![b'1'; MAX_LINE + 10];
        let mut r = LineReader::new(std::io::BufReader::with_capacity(1000, &long[..]));
        assert!(r.next_line().unwrap());
        assert_eq!(r.buf.len(), MAX_LINE);
        assert_eq!(r.length, MAX_LINE + 10);
        assert!(!r.next_line().unwrap());
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(column(b"abc", 2), 3);
        assert_eq!(column("é.x".as_bytes(), 3), 3);
        assert_eq!(first_non_text(b"ab\0c"), Some((2, 0, false)));
        assert_eq!(first_non_text(b"ab\xffc"), Some((2, 0xff, true)));
        assert_eq!(first_non_text(b"a\tb"), None);
    }
}
