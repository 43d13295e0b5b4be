//! GPT-2's byte-level alphabet, reversed: token characters back to bytes
//! (FORMAT.md section 6, "Byte-level table").

/// The byte character `c` stands for, if any. Bytes printable in Latin-1
/// (other than the soft hyphen) are their own character; the other 68 are
/// U+0100 onwards, in byte order. Worked out rather than looked up: a table
/// over U+0000..U+0143 cost about 0.2 KB of the gzipped wasm.
fn char_to_byte(c: char) -> Option<u8> {
    match c as u32 {
        c @ (0x21..=0x7e | 0xa1..=0xac | 0xae..=0xff) => Some(c as u8),
        c @ 0x100..=0x120 => Some((c - 0x100) as u8),
        c @ 0x121..=0x142 => Some((c - 0x121 + 0x7f) as u8),
        0x143 => Some(0xad),
        _ => None,
    }
}

/// Appends the bytes a token string stands for. Characters outside the
/// table (special tokens' ASCII is inside it; e.g. a literal space is not)
/// are emitted as their own UTF-8.
pub(super) fn decode_token(token: impl Iterator<Item = char>, out: &mut Vec<u8>) {
    for c in token {
        match char_to_byte(c) {
            Some(b) => out.push(b),
            None => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The character each byte is written as, built as GPT-2's
    /// `bytes_to_unicode` does: the printable bytes as themselves, the
    /// others from U+0100 on, in byte order.
    fn byte_to_char() -> [u32; 256] {
        let mut t = [0u32; 256];
        let mut next = 0x100u32;
        for (b, slot) in t.iter_mut().enumerate() {
            let printable = (0x21..=0x7e).contains(&b) || (0xa1..=0xac).contains(&b) || (0xae..=0xff).contains(&b);
            *slot = if printable {
                b as u32
            } else {
                next += 1;
                next - 1
            };
        }
        t
    }

    #[test]
    fn char_to_byte_inverts_the_table() {
        let t = byte_to_char();
        for c in (0..0x400).filter_map(char::from_u32) {
            assert_eq!(char_to_byte(c), t.iter().position(|&x| x == c as u32).map(|b| b as u8), "{:x}", c as u32);
        }
    }

    #[test]
    fn the_table_is_the_documented_bijection() {
        let t = byte_to_char();
        assert_eq!(t[0x20], 0x120, "space is U+0120");
        assert_eq!(t[0x0a], 0x10a, "newline is U+010A");
        assert_eq!(t[0x00], 0x100);
        assert_eq!(t[0x41], 0x41);
        assert_eq!(t[0xad], 0x143, "the 68th remapped byte");
        let mut seen = std::collections::HashSet::new();
        assert!(t.iter().all(|c| seen.insert(*c)), "no two bytes share a character");
    }

    #[test]
    fn tokens_decode_to_bytes() {
        let mut out = Vec::new();
        decode_token("\u{120}hello\u{10a}".chars(), &mut out);
        assert_eq!(out, b" hello\n");
        out.clear();
        decode_token("<|endoftext|>".chars(), &mut out);
        assert_eq!(out, b"<|endoftext|>");
        out.clear();
        decode_token("a b\u{20ac}".chars(), &mut out);
        assert_eq!(out, "a b\u{20ac}".as_bytes());
    }
}
