//! GPT-2's byte-level alphabet, reversed: token characters back to bytes
//! (FORMAT.md section 6, "Byte-level table").

/// The character each byte is written as.
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

/// Inverse of `byte_to_char` over U+0000..U+0143: the byte, or -1.
const fn char_to_byte() -> [i16; 0x144] {
    let fwd = byte_to_char();
    let mut t = [-1i16; 0x144];
    let mut b = 0;
    while b < 256 {
        t[fwd[b] as usize] = b as i16;
        b += 1;
    }
    t
}

static CHAR_TO_BYTE: [i16; 0x144] = char_to_byte();

/// Appends the bytes a token string stands for. Characters outside the
/// table (special tokens' ASCII is inside it; e.g. a literal space is not)
/// are emitted as their own UTF-8.
pub(super) fn decode_token(token: impl Iterator<Item = char>, out: &mut Vec<u8>) {
    for c in token {
        match CHAR_TO_BYTE.get(c as usize) {
            Some(&b) if b >= 0 => out.push(b as u8),
            _ => {
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
