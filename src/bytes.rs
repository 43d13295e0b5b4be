//! A bounds-checked cursor over a byte slice. Every read names what it was
//! reading, so a short stream reports "ends inside the dictionary size at
//! byte 4" instead of an index panic.

use crate::error::{Error, ErrorKind, Result};

pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    kind: ErrorKind,
    /// What the bytes are, for messages: "encoded stream", "chunk header".
    context: &'static str,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8], kind: ErrorKind, context: &'static str) -> Self {
        Reader { buf, pos: 0, kind, context }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn rest(&self) -> &'a [u8] {
        &self.buf[self.pos..]
    }

    pub fn error(&self, message: impl AsRef<str>) -> Error {
        Error::new(self.kind, format!("{} at byte {} of the {}", message.as_ref(), self.pos, self.context))
    }

    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(format!("{what} needs {n} bytes but only {} remain", self.remaining())));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// Takes `count` items of `width` bytes, checking the product first.
    pub fn take_array(&mut self, count: usize, width: usize, what: &str) -> Result<&'a [u8]> {
        match count.checked_mul(width) {
            Some(n) => self.take(n, what),
            None => Err(self.error(format!("{what}: {count} items of {width} bytes overflow"))),
        }
    }

    pub fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    pub fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A little-endian uint32 used as a count or length.
    pub fn len32(&mut self, what: &str) -> Result<usize> {
        self.u32(what).map(|v| v as usize)
    }
}

/// The uint32 at `b[at..at + 4]`, which the caller checked is inside `b`.
/// One range check and one load (a check per byte kept four loads apart).
#[inline]
pub(crate) fn le_u32(b: &[u8], at: usize) -> u32 {
    let c = &b[at..at + 4];
    u32::from_le_bytes([c[0], c[1], c[2], c[3]])
}

/// The uint32s of `b`, in order (a last partial word is left out): for
/// arrays of them walked whole, with no index to check per word.
#[inline]
pub(crate) fn le_u32s(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Number of bits needed to write `v` (0 for 0).
#[inline]
pub(crate) fn bits_needed(v: u64) -> u32 {
    64 - v.leading_zeros()
}
