//! Raw DEFLATE (RFC 1951), the payload of the Flate, Gzip and Zlib codecs.

use super::inflate;
use crate::error::Result;

/// The decoder's tables (about 16 KB) are boxed, built on first use and
/// reused across blocks and calls.
#[derive(Default)]
pub(super) struct Inflater {
    tables: Option<Box<inflate::Tables>>,
}

impl Inflater {
    /// Inflates `input`, which must be one complete raw DEFLATE stream and
    /// nothing else, into exactly `out.len()` bytes.
    pub fn raw_exact(&mut self, input: &[u8], out: &mut [u8]) -> Result<()> {
        let tables = self.tables.get_or_insert_with(inflate::Tables::new_boxed);
        inflate::inflate(tables, input, out)
    }
}
