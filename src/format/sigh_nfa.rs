//! sigh's encodings of custom rules (read for the format only, from its `js/nfa_builder.js`,
//! `js/util.js` and `js/sudoku_constraint.js`): automata (`NFA~…`, a bit stream in URL-safe
//! base64), regular expressions (`Regex~…`, the pattern in URL-safe base64) and binary relation
//! keys (`Pair~…`, `PairX~…`, and the legacy `Binary~…`, `BinaryX~…`: the table of digit pairs,
//! six bits a character). Each is turned into satdoku's own [`Nfa`] or table.

use crate::nfa::{MAX_STATES, Nfa};

/// URL-safe base64's alphabet (RFC 4648 §5).
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The 6-bit value of a base64 character.
fn sextet(b: u8) -> Option<u8> {
    BASE64.iter().position(|&c| c == b).map(|i| i as u8)
}

/// Decodes unpadded URL-safe base64 (a trailing `=` is allowed).
fn base64(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in s.as_bytes() {
        acc = acc << 6 | u32::from(sextet(b)?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Reads bits most significant first, as sigh's `BitReader` writes them.
struct Bits<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn left(&self) -> usize {
        self.bytes.len() * 8 - self.at
    }

    fn read(&mut self, n: usize) -> Option<u32> {
        if n > 32 || n > self.left() {
            return None;
        }
        let mut v = 0u32;
        for _ in 0..n {
            let bit = self.bytes[self.at / 8] >> (7 - self.at % 8) & 1;
            v = v << 1 | u32::from(bit);
            self.at += 1;
        }
        Some(v)
    }
}

/// Bits needed to write `n` (0 for 0).
fn bits_for(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

/// Reads sigh's serialized automaton (`NFASerializer`) for a grid of `digits` digits: a header
/// (format, state bits, symbol count, start and accept counts), then per state its transitions
/// (plain: a count and (symbol, target) pairs; packed: a mask of symbols and one target each).
/// Symbol index `digits` is the segment break.
///
/// # Errors
/// What is malformed.
pub(crate) fn decode_nfa(encoded: &str, digits: usize) -> Result<Nfa, &'static str> {
    let name = "automaton";
    if encoded.is_empty() {
        // sigh's empty automaton: no states, nothing accepted.
        return Nfa::new(name.into(), digits, 1, &[], &[], &[]);
    }
    let bytes = base64(encoded).ok_or("an automaton in URL-safe base64")?;
    let mut r = Bits {
        bytes: &bytes,
        at: 0,
    };
    let truncated = "a complete automaton (its bits end early)";
    let format = r.read(2).ok_or(truncated)?;
    if format > 1 {
        return Err("an automaton of a known format (plain or packed)");
    }
    let state_bits = r.read(4).ok_or(truncated)? as usize + 1;
    let symbols = r.read(4).ok_or(truncated)? as usize + 1;
    let starts = r.read(state_bits).ok_or(truncated)? as usize;
    let accepts = r.read(state_bits).ok_or(truncated)? as usize;
    if starts == 0 || starts > 32 {
        return Err("an automaton of 1 to 32 start states");
    }
    let start_accepts = r.read(starts).ok_or(truncated)?;
    let mut transitions: Vec<(u32, usize, u32)> = Vec::new();
    let mut state = 0u32;
    if format == 0 {
        let count_bits = r.read(4).ok_or(truncated)? as usize;
        let symbol_bits = bits_for(symbols - 1);
        while count_bits > 0 && r.left() >= count_bits {
            let k = r.read(count_bits).ok_or(truncated)?;
            for _ in 0..k {
                let sym = r.read(symbol_bits).ok_or(truncated)? as usize;
                let to = r.read(state_bits).ok_or(truncated)?;
                transitions.push((state, sym, to));
            }
            state += 1;
            if transitions.len() > MAX_STATES * 64 {
                return Err("an automaton of at most 4096 states");
            }
        }
    } else {
        while r.left() >= symbols {
            let mask = r.read(symbols).ok_or(truncated)?;
            for sym in (0..symbols).filter(|s| mask >> s & 1 == 1) {
                let to = r.read(state_bits).ok_or(truncated)?;
                transitions.push((state, sym, to));
            }
            state += 1;
        }
    }
    let accept_ids: Vec<u32> = (0..starts as u32)
        .filter(|i| start_accepts >> i & 1 == 1)
        .chain((0..accepts as u32).map(|i| starts as u32 + i))
        .collect();
    let start_ids: Vec<u32> = (0..starts as u32).collect();
    let states = transitions
        .iter()
        .flat_map(|&(a, _, b)| [a, b])
        .chain(accept_ids.iter().copied())
        .chain(start_ids.iter().copied())
        .max()
        .map_or(1, |m| m as usize + 1);
    let name = format!("{name} of {states} states");
    Nfa::new(name, digits, states, &start_ids, &accept_ids, &transitions)
}

/// A regular expression's syntax tree.
enum Re {
    /// One cell: any of these digit indices.
    Set(Vec<bool>),
    Concat(Vec<Re>),
    Alt(Vec<Re>),
    /// min, max (None: unbounded).
    Repeat(Box<Re>, usize, Option<usize>),
}

/// A recursive-descent parser of sigh's regular expressions: literals (`0`-`9`, then letters for
/// 10 up), `.`, classes `[…]` with ranges and `^`, groups, `|`, and `*`, `+`, `?`, `{n}`, `{n,}`,
/// `{n,m}`.
struct Parser<'a> {
    p: &'a [u8],
    at: usize,
    digits: usize,
    base: i32,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.p.get(self.at).copied()
    }

    fn expr(&mut self, depth: usize) -> Result<Re, String> {
        if depth > 100 {
            return Err("a regular expression nested at most 100 deep".into());
        }
        let mut alts = vec![self.seq(depth)?];
        while self.peek() == Some(b'|') {
            self.at += 1;
            alts.push(self.seq(depth)?);
        }
        Ok(if alts.len() == 1 {
            alts.remove(0)
        } else {
            Re::Alt(alts)
        })
    }

    fn seq(&mut self, depth: usize) -> Result<Re, String> {
        let mut parts = Vec::new();
        while let Some(c) = self.peek() {
            if c == b'|' || c == b')' {
                break;
            }
            let mut node = self.primary(depth)?;
            loop {
                let (min, max) = match self.peek() {
                    Some(b'*') => (0, None),
                    Some(b'+') => (1, None),
                    Some(b'?') => (0, Some(1)),
                    Some(b'{') => {
                        self.at += 1;
                        let min = self.number()?.ok_or("a number after `{`")?;
                        let max = if self.peek() == Some(b',') {
                            self.at += 1;
                            self.number()?
                        } else {
                            Some(min)
                        };
                        if self.peek() != Some(b'}') {
                            return Err(format!("`}}` at {}", self.at));
                        }
                        if max.is_some_and(|m| m < min) {
                            return Err("a repeat whose maximum is at least its minimum".into());
                        }
                        (min, max)
                    }
                    _ => break,
                };
                self.at += 1;
                node = Re::Repeat(Box::new(node), min, max);
            }
            parts.push(node);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Re::Concat(parts)
        })
    }

    fn number(&mut self) -> Result<Option<usize>, String> {
        let from = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if from == self.at {
            return Ok(None);
        }
        let t = std::str::from_utf8(&self.p[from..self.at]).unwrap_or("");
        t.parse::<usize>()
            .ok()
            .filter(|&k| k <= 256)
            .map(Some)
            .ok_or_else(|| "a repeat count of at most 256".into())
    }

    /// The digit index of a literal character.
    fn digit(&self, c: u8) -> Result<usize, String> {
        let v = match c {
            b'0'..=b'9' => i32::from(c - b'0'),
            b'A'..=b'Z' => i32::from(c - b'A') + 10,
            b'a'..=b'z' => i32::from(c - b'a') + 10,
            _ => return Err(format!("a digit or letter, not `{}`", c as char)),
        };
        usize::try_from(v - self.base)
            .ok()
            .filter(|&d| d < self.digits)
            .ok_or_else(|| format!("`{}`, a value outside the grid's", c as char))
    }

    fn primary(&mut self, depth: usize) -> Result<Re, String> {
        let c = self.peek().ok_or("more pattern")?;
        self.at += 1;
        match c {
            b'(' => {
                let e = self.expr(depth + 1)?;
                if self.peek() != Some(b')') {
                    return Err(format!("`)` at {}", self.at));
                }
                self.at += 1;
                Ok(e)
            }
            b'.' => Ok(Re::Set(vec![true; self.digits])),
            b'[' => {
                let negated = self.peek() == Some(b'^');
                if negated {
                    self.at += 1;
                }
                let mut set = vec![false; self.digits];
                let mut any = false;
                while let Some(a) = self.peek().filter(|&c| c != b']') {
                    self.at += 1;
                    let b = if self.peek() == Some(b'-') {
                        self.at += 1;
                        let b = self.peek().ok_or("the end of a range")?;
                        self.at += 1;
                        b
                    } else {
                        a
                    };
                    if b < a {
                        return Err("a range that does not run backwards".into());
                    }
                    for ch in a..=b {
                        set[self.digit(ch)?] = true;
                        any = true;
                    }
                }
                if self.peek() != Some(b']') || !any {
                    return Err("a class of at least one character closed by `]`".into());
                }
                self.at += 1;
                if negated {
                    set.iter_mut().for_each(|b| *b = !*b);
                }
                Ok(Re::Set(set))
            }
            b'*' | b'+' | b'?' | b'{' | b'|' | b')' => Err(format!(
                "something to repeat before `{}` at {}",
                c as char,
                self.at - 1
            )),
            _ => {
                let mut set = vec![false; self.digits];
                set[self.digit(c)?] = true;
                Ok(Re::Set(set))
            }
        }
    }
}

/// Thompson's construction (Thompson 1968, "Regular expression search algorithm"): states joined
/// by ε-moves, removed at the end by closing over them.
struct Thompson {
    eps: Vec<Vec<u32>>,
    moves: Vec<(u32, usize, u32)>,
}

impl Thompson {
    fn state(&mut self) -> Result<u32, String> {
        if self.eps.len() >= MAX_STATES * 4 {
            return Err("a regular expression of fewer states".into());
        }
        self.eps.push(Vec::new());
        Ok(self.eps.len() as u32 - 1)
    }

    /// The fragment of `re`: (entry, exit).
    fn build(&mut self, re: &Re) -> Result<(u32, u32), String> {
        match re {
            Re::Set(set) => {
                let (a, b) = (self.state()?, self.state()?);
                for (d, _) in set.iter().enumerate().filter(|(_, on)| **on) {
                    self.moves.push((a, d, b));
                }
                Ok((a, b))
            }
            Re::Concat(parts) => {
                let s = self.state()?;
                let mut end = s;
                for p in parts {
                    let (a, b) = self.build(p)?;
                    self.eps[end as usize].push(a);
                    end = b;
                }
                Ok((s, end))
            }
            Re::Alt(options) => {
                let (s, e) = (self.state()?, self.state()?);
                for o in options {
                    let (a, b) = self.build(o)?;
                    self.eps[s as usize].push(a);
                    self.eps[b as usize].push(e);
                }
                Ok((s, e))
            }
            Re::Repeat(child, min, max) => {
                let s = self.state()?;
                let mut end = s;
                for _ in 0..*min {
                    let (a, b) = self.build(child)?;
                    self.eps[end as usize].push(a);
                    end = b;
                }
                match max {
                    None => {
                        let (a, b) = self.build(child)?;
                        self.eps[end as usize].push(a);
                        self.eps[b as usize].push(end);
                    }
                    Some(max) => {
                        for _ in *min..*max {
                            let (a, b) = self.build(child)?;
                            let e = self.state()?;
                            self.eps[end as usize].push(a);
                            self.eps[end as usize].push(e);
                            self.eps[b as usize].push(e);
                            end = e;
                        }
                    }
                }
                Ok((s, end))
            }
        }
    }

    /// The states reachable from `s` by ε-moves (itself included).
    fn closure(&self, s: u32) -> Vec<u32> {
        let mut seen = vec![false; self.eps.len()];
        let mut stack = vec![s];
        seen[s as usize] = true;
        let mut out = Vec::new();
        while let Some(x) = stack.pop() {
            out.push(x);
            for &y in &self.eps[x as usize] {
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    stack.push(y);
                }
            }
        }
        out
    }
}

/// Compiles one of sigh's regular expressions (whitespace dropped) over a grid of `digits` digits
/// whose digit index 0 is the value `base`: the whole line must match.
///
/// # Errors
/// What is malformed, or a character naming a value outside the grid.
pub(crate) fn compile_regex(pattern: &str, digits: usize, base: i32) -> Result<Nfa, String> {
    let p: Vec<u8> = pattern
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let mut parser = Parser {
        p: &p,
        at: 0,
        digits,
        base,
    };
    let re = parser.expr(0)?;
    if parser.at != p.len() {
        return Err(format!("the end of the pattern at {}", parser.at));
    }
    let mut t = Thompson {
        eps: Vec::new(),
        moves: Vec::new(),
    };
    let (entry, exit) = t.build(&re)?;
    // Without ε-moves: s moves on d to t when some state of s's closure moves on d to t; s accepts
    // when its closure holds the exit.
    let mut by_from: Vec<Vec<(usize, u32)>> = vec![Vec::new(); t.eps.len()];
    for &(a, d, b) in &t.moves {
        by_from[a as usize].push((d, b));
    }
    let mut moves = Vec::new();
    let mut accepts = Vec::new();
    for s in 0..t.eps.len() as u32 {
        let close = t.closure(s);
        if close.contains(&exit) {
            accepts.push(s);
        }
        for &x in &close {
            for &(d, b) in &by_from[x as usize] {
                moves.push((s, d, b));
            }
        }
    }
    // Keep the states reachable from the entry, renumbered.
    let mut keep = vec![u32::MAX; t.eps.len()];
    let mut order = vec![entry];
    keep[entry as usize] = 0;
    let mut i = 0;
    moves.sort_unstable();
    moves.dedup();
    while i < order.len() {
        let s = order[i];
        i += 1;
        let from = moves.partition_point(|m| m.0 < s);
        for &(_, _, b) in moves[from..].iter().take_while(|m| m.0 == s) {
            if keep[b as usize] == u32::MAX {
                keep[b as usize] = order.len() as u32;
                order.push(b);
            }
        }
    }
    if order.len() > MAX_STATES {
        return Err("a regular expression of at most 4096 states".into());
    }
    let moves: Vec<(u32, usize, u32)> = moves
        .iter()
        .filter(|m| keep[m.0 as usize] != u32::MAX)
        .map(|&(a, d, b)| (keep[a as usize], d, keep[b as usize]))
        .collect();
    let accepts: Vec<u32> = accepts
        .iter()
        .filter(|&&s| keep[s as usize] != u32::MAX)
        .map(|&s| keep[s as usize])
        .collect();
    let name = format!("regex {}", String::from_utf8_lossy(&p));
    Nfa::new(name, digits, order.len(), &[0], &accepts, &moves).map_err(str::to_string)
}

/// Reads sigh's regular expression argument: URL-safe base64, or (older strings) URL-encoded
/// text when it holds `%`.
pub(crate) fn regex_pattern(arg: &str) -> Option<String> {
    if arg.contains('%') {
        return percent_decode(arg);
    }
    String::from_utf8(base64(arg)?).ok()
}

/// Decodes `%XX` escapes (URL encoding).
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Reads a binary relation key (sigh's `fnToBinaryKey`): bit k of the key, six bits a character,
/// least significant first, says whether the first cell's digit k / N + 1 goes with the second's
/// digit k % N + 1. `legacy` keys (`Binary`, `BinaryX`) have `-` and `_` swapped.
///
/// # Errors
/// A character outside URL-safe base64.
pub(crate) fn pair_table(key: &str, digits: usize, legacy: bool) -> Option<Vec<u64>> {
    let mut table = vec![0u64; digits];
    for (k, b) in key.bytes().enumerate() {
        let b = match (legacy, b) {
            (true, b'-') => b'_',
            (true, b'_') => b'-',
            _ => b,
        };
        let six = sextet(b)?;
        for bit in 0..6 {
            let at = k * 6 + bit;
            if six >> bit & 1 == 1 {
                let (i, j) = (at / digits, at % digits);
                if i < digits && j < 64 {
                    table[i] |= 1 << j;
                }
            }
        }
    }
    Some(table)
}

/// Writes a table as sigh's binary relation key (see [`pair_table`]).
pub(crate) fn pair_key(table: &[u64], digits: usize) -> String {
    let mut sextets: Vec<u8> = Vec::new();
    for at in 0..digits * digits {
        let (i, j) = (at / digits, at % digits);
        if at % 6 == 0 {
            sextets.push(0);
        }
        if table.get(i).is_some_and(|row| j < 64 && row >> j & 1 == 1)
            && let Some(last) = sextets.last_mut()
        {
            *last |= 1 << (at % 6);
        }
    }
    while sextets.last() == Some(&0) {
        sextets.pop();
    }
    sextets
        .iter()
        .map(|&s| BASE64[s as usize] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word of `len` digits of 1..=9 a regex accepts, by a predicate.
    fn agrees(pattern: &str, len: usize, pred: impl Fn(&[u16]) -> bool) {
        let nfa = compile_regex(pattern, 9, 1).unwrap();
        for w in 0..9usize.pow(len as u32) {
            let mut x = w;
            let word: Vec<u16> = (0..len)
                .map(|_| {
                    let d = (x % 9) as u16;
                    x /= 9;
                    d
                })
                .collect();
            assert_eq!(
                nfa.accepts(std::slice::from_ref(&word)),
                pred(&word),
                "{pattern} {word:?}"
            );
        }
    }

    #[test]
    fn regular_expressions_match_whole_lines() {
        // Digit index d is the value d + 1.
        agrees("[124578]*3.*", 3, |w| {
            let i = w
                .iter()
                .position(|&d| d + 1 == 3 || d + 1 == 6 || d + 1 == 9);
            i.is_some_and(|i| w[i] + 1 == 3)
        });
        agrees("(12|2.3|3..4)*", 4, |w| {
            let v: Vec<u16> = w.iter().map(|d| d + 1).collect();
            fn parse(v: &[u16]) -> bool {
                v.is_empty()
                    || v.len() >= 2 && v[0] == 1 && v[1] == 2 && parse(&v[2..])
                    || v.len() >= 3 && v[0] == 2 && v[2] == 3 && parse(&v[3..])
                    || v.len() >= 4 && v[0] == 3 && v[3] == 4 && parse(&v[4..])
            }
            parse(&v)
        });
        agrees("[^5]{2,3}", 3, |w| w.iter().all(|&d| d != 4));
        agrees("1?2+", 3, |w| w[0] <= 1 && w[1..].iter().all(|&d| d == 1));
        // Zero-based grids: `0` is digit index 0.
        let z = compile_regex("0.", 9, 0).unwrap();
        assert!(z.accepts(&[vec![0, 5]]));
        assert!(!z.accepts(&[vec![1, 5]]));
    }

    #[test]
    fn bad_regular_expressions_are_errors() {
        for bad in [
            "(1", "1)", "[", "[]", "*1", "1{3,2}", "a", "[5-1]", "1{999}", "x",
        ] {
            assert!(compile_regex(bad, 9, 1).is_err(), "{bad}");
        }
        // 0 is no value of a 1-9 grid.
        assert!(compile_regex("0", 9, 1).is_err());
    }

    #[test]
    fn keys_round_trip_and_read_as_sigh_writes_them() {
        // "Consecutive" on 9 digits, as sigh's fnToBinaryKey writes it (bit (i − 1)·9 + j − 1).
        let table: Vec<u64> = (0..9usize)
            .map(|i| {
                (0..9usize)
                    .filter(|j| i.abs_diff(*j) == 1)
                    .fold(0, |row, j| row | 1 << j)
            })
            .collect();
        let key = pair_key(&table, 9);
        assert_eq!(pair_table(&key, 9, false).unwrap(), table);
        // The legacy form swaps `-` and `_`.
        let legacy: String = key
            .chars()
            .map(|c| match c {
                '-' => '_',
                '_' => '-',
                c => c,
            })
            .collect();
        assert_eq!(pair_table(&legacy, 9, true).unwrap(), table);
        assert!(pair_table("a+b", 9, false).is_none());
    }

    #[test]
    fn automata_decode_or_fail_cleanly() {
        // Every truncation of a real one (corpus puzzle 135's first) decodes or is an error.
        let enc = "TgRAEv-IiIiIiAyMDmaA9ERQ-qqrD9mZmc_u7u7w_4iIiIn_zMzMzIg";
        let full = decode_nfa(enc, 9).unwrap();
        assert!(full.states() > 1);
        for k in 0..enc.len() {
            let _ = decode_nfa(&enc[..k], 9);
        }
        assert!(decode_nfa("!!", 9).is_err());
    }
}
