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

    /// A copy to keep.
    pub(crate) fn to_owned_line(self) -> OwnedLine {
        OwnedLine {
            number: self.number,
            text: self.text.to_vec(),
            length: self.length,
        }
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
    /// A rule line of a variant puzzle (`cage …`, `variant: …`, `regions:`, `solution:`) or a
    /// SudoCue killer line (`3x3:d:k:…`): see `variant.rs`.
    Rule,
    /// Anything else: puzzle data.
    Data,
}

/// Classifies a (right-trimmed) line.
pub(crate) fn classify(text: &[u8]) -> Kind {
    // The common line first: a grid of digits and dots. It is no header (a count has at most 3
    // digits, a title a space), no comment and no rule line (every rule word has a letter, `~` or
    // `:`), so it is data; the tests below would take a few hundred steps to say so.
    if text.len() > 3 && digits_and_dots(text) {
        return Kind::Data;
    }
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
    if rule_word(t).is_some() {
        return Kind::Rule;
    }
    // A grid with a note after it (`4.....8.5…  # SE 11.9`), or pasted as its rows, is no title,
    // whatever the note says.
    if memchr::memchr2(b' ', b'\t', t).is_some()
        && grid_token(t).is_none()
        && spaced_rows(t).is_none()
        && is_text(t)
    {
        return Kind::HeaderText;
    }
    Kind::Data
}

/// Whether every byte of `text` is a digit or `.`: 16 bytes at a time (SSE2 on x86-64), no early exit.
fn digits_and_dots(text: &[u8]) -> bool {
    let ok = |b: u8| (b == b'.') | b.is_ascii_digit();
    let (chunks, rest) = text.as_chunks::<16>();
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: SSE2 is enabled on every x86-64 target; each unaligned load reads one 16-byte chunk.
    let bad = unsafe {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
            _mm_or_si128, _mm_set1_epi8, _mm_sub_epi8,
        };
        let (dot, zero, nine) = (
            _mm_set1_epi8(b'.' as i8),
            _mm_set1_epi8(b'0' as i8),
            _mm_set1_epi8(9),
        );
        let mut bad = 0;
        for c in chunks {
            let v = _mm_loadu_si128(c.as_ptr().cast::<__m128i>());
            // A digit is a byte whose distance above `0` is at most 9 (unsigned, wrapping).
            let d = _mm_sub_epi8(v, zero);
            let digit = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
            let good = _mm_or_si128(digit, _mm_cmpeq_epi8(v, dot));
            bad |= _mm_movemask_epi8(good) ^ 0xFFFF;
        }
        bad != 0
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let bad = !chunks.as_flattened().iter().fold(true, |a, &b| a & ok(b));
    !bad && rest.iter().fold(true, |a, &b| a & ok(b))
}

/// The fewest cells a one-line grid has (4x4).
const SHORTEST_GRID: usize = 16;

/// Whether `b` may be a cell of a grid written on one line: a symbol of some alphabet (printable
/// ASCII but `#`, `+`, `,`, `"`), a blank or `|`.
fn grid_byte(b: u8) -> bool {
    b.is_ascii_graphic() && !b"#+,\"".contains(&b)
}

/// Whether `token` (letters) holds N² of them, N different ones N times each: the signature of a
/// full grid (a 16x16 solution in A-P, say), which no word of a title has.
fn full_grid(token: &[u8]) -> bool {
    let n = token.len().isqrt();
    let mut count = [0usize; 256];
    for &b in token {
        count[usize::from(b)] += 1;
    }
    n * n == token.len() && count.iter().all(|&k| k == 0 || k == n)
}

/// The length in bytes of the first token of `t` (which starts with it) when that token looks like a
/// whole grid on one line: at least 16 cells of symbols, blanks and `|`, and not all letters unless
/// a full grid ([`full_grid`]), so that no long word of a title qualifies.
fn grid_token(t: &[u8]) -> Option<usize> {
    let len = memchr::memchr2(b' ', b'\t', t).unwrap_or(t.len());
    let token = &t[..len];
    let cells = token.iter().filter(|&&b| b != b'|').count();
    let words_only = token.iter().all(u8::is_ascii_alphabetic) && !full_grid(token);
    (cells >= SHORTEST_GRID && token.iter().all(|&b| grid_byte(b)) && !words_only).then_some(len)
}

/// A whole grid pasted on one line as its rows, separated by whitespace (`53..7.... 6..195... …`):
/// the byte range of the N rows and, if more text follows, the offset where that note starts. The
/// first token's width N (at least 4) says how many rows of N symbols make the grid; `None` when the
/// line does not start so. (Whether such a line is a grid or one row of an N²-wide block with box
/// groups is for detection to decide.)
pub(crate) fn spaced_rows(text: &[u8]) -> Option<(usize, usize, Option<usize>)> {
    let start = text.len() - trim_start(text).len();
    let mut at = start;
    let mut k = 0;
    let mut width = None;
    while at < text.len() {
        let len = memchr::memchr2(b' ', b'\t', &text[at..]).unwrap_or(text.len() - at);
        let token = &text[at..at + len];
        if !token.iter().all(|&b| grid_byte(b) && b != b'|') {
            return None;
        }
        let w = *width.get_or_insert(len);
        if len != w || w < 4 {
            return None;
        }
        k += 1;
        at += len;
        if k == w {
            let rest = trim_start(&text[at..]);
            let note = (!rest.is_empty()).then(|| text.len() - rest.len());
            return Some((start, at, note));
        }
        at = text.len() - trim_start(&text[at..]).len();
    }
    None
}

/// A one-line grid followed by a note (`4.....8.5…  # SE 11.9`, `… hard`, `… ; rated 3`): the byte
/// range of the grid and the offset where the note starts, when the first token of the (right-trimmed)
/// line looks like a grid and whitespace and more text follow. Tokens all as wide as the first and at
/// most 32 cells wide are the box groups of a block row (`ABCD EFGH …`), not a grid and a note.
pub(crate) fn note_split(text: &[u8]) -> Option<(usize, usize, usize)> {
    let start = text.len() - trim_start(text).len();
    // The common line, a grid alone, has no whitespace after its start: no note, decided by one scan.
    memchr::memchr2(b' ', b'\t', &text[start..])?;
    let len = grid_token(&text[start..])?;
    let end = start + len;
    let rest = trim_start(&text[end..]);
    if rest.is_empty() {
        return None;
    }
    let groups = rest
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|t| !t.is_empty())
        .all(|t| t.len() == len);
    if groups && len <= 32 {
        return None;
    }
    Some((start, end, text.len() - rest.len()))
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

/// The keyword of a rule line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuleWord {
    /// `cage SUM cells…`
    Cage,
    /// `variant: names…`
    Variant,
    /// `regions:`
    Regions,
    /// `solution:`
    Solution,
    /// `RxC:d:k:values…`
    SudoCue,
    /// `expected: solvable` or `expected: unsolvable` (the jigsaw layouts of the shared collection)
    Expected,
    /// A sigh constraint string, `.Type~…` (a whole puzzle on one line: see `sigh.rs`).
    Sigh,
}

/// The rule keyword `t` (left-trimmed) starts with, and the offset after it.
pub(crate) fn rule_word(t: &[u8]) -> Option<(RuleWord, usize)> {
    if super::sigh::looks_like_sigh(t) {
        return Some((RuleWord::Sigh, 0));
    }
    let lower = |k: &[u8]| t.len() >= k.len() && t[..k.len()].eq_ignore_ascii_case(k);
    for (word, key) in [
        (RuleWord::Variant, &b"variants:"[..]),
        (RuleWord::Variant, b"variant:"),
        (RuleWord::Regions, b"regions:"),
        (RuleWord::Regions, b"region:"),
        (RuleWord::Solution, b"solution:"),
        (RuleWord::Expected, b"expected:"),
    ] {
        if lower(key) {
            return Some((word, key.len()));
        }
    }
    if lower(b"cage") && matches!(t.get(4), Some(b' ' | b'\t')) {
        return Some((RuleWord::Cage, 4));
    }
    // RxC:…:k:
    let digits = |from: usize| t[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let r = digits(0);
    if r > 0 && matches!(t.get(r), Some(b'x' | b'X')) {
        let c = digits(r + 1);
        let colon = r + 1 + c;
        if c > 0 && t.get(colon) == Some(&b':') {
            let mut parts = t[colon + 1..].splitn(3, |&b| b == b':');
            let _flags = parts.next();
            if parts.next() == Some(b"k") {
                return Some((RuleWord::SudoCue, 0));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_dots_sees_every_byte() {
        // Each byte value at each position of lines of 0 to 40 bytes (16-byte chunks and the rest).
        for len in 0..=40usize {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut line = vec![b'5'; len];
                    line[at] = b;
                    let expected = b == b'.' || b.is_ascii_digit();
                    assert_eq!(digits_and_dots(&line), expected, "{len} {at} {b}");
                }
            }
        }
        assert!(digits_and_dots(b""));
    }

    #[test]
    fn a_full_grid_of_letters_keeps_its_note_and_a_long_title_word_stays_text() {
        // A full 4x4 grid in A-D (each letter four times) and a note with a lower-case word: data,
        // the note split off (found by the noisy_round_trip fuzz target; a 16x16 solution in A-P
        // with such a note was skipped as a title).
        let line = b"ACDBBDCADABCCBAD  hard";
        assert_eq!(classify(line), Kind::Data);
        assert_eq!(note_split(line), Some((0, 16, 18)));
        // Sixteen letters, not four of each: a word, so the line is a title.
        let title = b"SUDOKUCOLLECTION  of puzzles";
        assert_eq!(classify(title), Kind::HeaderText);
        assert_eq!(note_split(title), None);
        assert!(full_grid(b"abcdbadccdabdcba"));
        assert!(!full_grid(b"abcdbadccdabdcbb"));
        assert!(!full_grid(b"responsibilities"));
    }

    #[test]
    fn digits_and_dots_are_data_beyond_three_characters() {
        let grid =
            b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        assert_eq!(classify(grid), Kind::Data);
        assert_eq!(
            classify(&grid.map(|b| if b == b'.' { b'0' } else { b })),
            Kind::Data
        );
        assert_eq!(classify(b"1234"), Kind::Data);
        assert_eq!(classify(b"...."), Kind::Data);
        // Up to three digits: a count; the other kinds are left to the full test.
        assert_eq!(classify(b"95"), Kind::HeaderInt(95));
        assert_eq!(classify(b"# 4.....8.5"), Kind::Comment);
        assert_eq!(classify(b"9x9:d:k:1234"), Kind::Rule);
        assert_eq!(classify(b".~R1C1_5"), Kind::Rule);
        assert_eq!(classify(b"   "), Kind::Blank);
    }

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
        // A grid and a note is data, whatever words the note has.
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        for note in ["hard", "# comment", "; note", "  # SE 11.9"] {
            assert_eq!(
                classify(format!("{p} {note}").as_bytes()),
                Kind::Data,
                "{note}"
            );
        }
        // Rule lines of variant puzzles.
        for rule in [
            "cage 15 r1c1 r1c2",
            "variant: x windoku",
            "solution:",
            "Regions:",
            "3x3:d:k:1",
        ] {
            assert_eq!(classify(rule.as_bytes()), Kind::Rule, "{rule}");
        }
        assert_eq!(classify(b"caged 15"), Kind::HeaderText);
        // A title with a long word is still a title.
        assert_eq!(
            classify(b"Characterization of hard puzzles"),
            Kind::HeaderText
        );
    }

    #[test]
    fn notes_after_one_line_grids() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let text = format!("  {p} \t# SE 11.9");
        let (s, e, n) = note_split(text.as_bytes()).unwrap();
        assert_eq!((&text[s..e], &text[n..]), (p, "# SE 11.9"));
        assert_eq!(note_split(p.as_bytes()), None, "no note");
        // Box groups of a block row are no note, nor is a row of numbers.
        assert_eq!(note_split(b"ABCDEFGHIJKLMNOP ABCDEFGHIJKLMNOP"), None);
        assert_eq!(note_split(b"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"), None);
        assert_eq!(note_split(b"Grid 01"), None);
        // A puzzle and its solution on one line: the solution is the note.
        let pair = format!("{p} {}", "1".repeat(81));
        assert_eq!(note_split(pair.as_bytes()).map(|(_, e, _)| e), Some(81));
        // A grid of the wrong length still splits: its error is a wrong length, not a lost title.
        let short = format!("{} hard", &p[1..]);
        assert_eq!(note_split(short.as_bytes()).map(|(_, e, _)| e), Some(80));
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
