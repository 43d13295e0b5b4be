//! GPT-2's byte-level alphabet, reversed: token characters back to bytes
//! (FORMAT.md section 6, "Byte-level table").

/// The character each byte is written as: the reference the inverse below
/// is tested against.
#[cfg(test)]
const fn byte_to_char() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut next = 0x100u32;
    let mut b = 0;
    while b < 256 {
        let printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
        t[b] = if printable {
            b as u32
        } else {
            next += 1;
            next - 1
        };
        b += 1;
    }
    t
}

/// The byte a token character stands for, or `None`: the inverse of
/// `byte_to_char`. Printable bytes are their own character; the other 68,
/// in byte order, are U+0100 onwards. Computed, not a 648-byte table
/// (about 460 bytes of the gzipped .wasm).
fn char_to_byte(c: u32) -> Option<u8> {
    match c {
        0x21..=0x7e | 0xa1..=0xac | 0xae..=0xff => Some(c as u8),
        0x100..=0x120 => Some((c - 0x100) as u8),        // 0x00..=0x20
        0x121..=0x142 => Some((c - 0x121 + 0x7f) as u8), // 0x7f..=0xa0
        0x143 => Some(0xad),
        _ => None,
    }
}

/// Appends the bytes a token string stands for. Characters outside the
/// table (special tokens' ASCII is inside it; e.g. a literal space is not)
/// are emitted as their own UTF-8.
pub(super) fn decode_token(token: impl Iterator<Item = char>, out: &mut Vec<u8>) {
    for c in token {
        match char_to_byte(c as u32) {
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
    fn char_to_byte_inverts_the_table_and_nothing_else() {
        let t = byte_to_char();
        for c in 0..0x400u32 {
            let want = (0..256).find(|&b| t[b] == c).map(|b| b as u8);
            assert_eq!(char_to_byte(c), want, "U+{c:04X}");
        }
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
