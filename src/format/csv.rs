//! CSV fields (RFC 4180 quoting, one record per line) with byte positions, so errors keep their column.

/// Splits `text` into fields, pushing each field's content range into `out` (inside the quotes for a
/// quoted field, without surrounding spaces), and stops after field `upto` (0-based).
///
/// # Errors
/// The byte offset of an opening quote that is not closed on this line.
pub(crate) fn fields(text: &[u8], upto: usize, out: &mut Vec<(usize, usize)>) -> Result<(), usize> {
    out.clear();
    let mut i = 0;
    loop {
        // Skip leading spaces.
        while i < text.len() && text[i] == b' ' {
            i += 1;
        }
        if i < text.len() && text[i] == b'"' {
            let open = i;
            let start = i + 1;
            let mut j = start;
            let end = loop {
                match memchr::memchr(b'"', &text[j..]) {
                    None => return Err(open),
                    Some(k) => {
                        let q = j + k;
                        if text.get(q + 1) == Some(&b'"') {
                            j = q + 2;
                        } else {
                            break q;
                        }
                    }
                }
            };
            out.push((start, end));
            i = end + 1;
            match memchr::memchr(b',', &text[i..]) {
                Some(k) => i += k + 1,
                None => return Ok(()),
            }
        } else {
            let start = i;
            let stop = memchr::memchr(b',', &text[i..]).map_or(text.len(), |k| i + k);
            let mut end = stop;
            while end > start && text[end - 1] == b' ' {
                end -= 1;
            }
            out.push((start, end));
            if stop == text.len() {
                return Ok(());
            }
            i = stop + 1;
        }
        if out.len() > upto {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(t: &str) -> Result<Vec<&str>, usize> {
        let mut r = Vec::new();
        fields(t.as_bytes(), usize::MAX, &mut r)?;
        Ok(r.iter().map(|&(s, e)| &t[s..e]).collect())
    }

    #[test]
    fn splits() {
        assert_eq!(split("a,b,c").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(split("a,,c,").unwrap(), vec!["a", "", "c", ""]);
        assert_eq!(split("\"x,y\", z ").unwrap(), vec!["x,y", "z"]);
        assert_eq!(split("\"a\"\"b\",c").unwrap(), vec!["a\"\"b", "c"]);
        assert_eq!(split("ab,\"cd"), Err(3));
        assert_eq!(split("").unwrap(), vec![""]);
        let mut r = Vec::new();
        fields(b"a,b,c,d", 1, &mut r).unwrap();
        assert_eq!(r.len(), 2);
    }
}
