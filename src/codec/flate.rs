//! Raw DEFLATE (RFC 1951), the payload of the Flate, Gzip and Zlib codecs.

use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

use crate::error::{corrupt_chunk, Result};

/// miniz's inflater state is large (about 11 KB), so it is boxed and reused.
#[derive(Default)]
pub(super) struct Inflater {
    state: Option<Box<DecompressorOxide>>,
}

impl Inflater {
    /// Inflates `input`, which must be one complete raw DEFLATE stream and
    /// nothing else, into exactly `out.len()` bytes.
    pub fn raw_exact(&mut self, input: &[u8], out: &mut [u8]) -> Result<()> {
        let state = self.state.get_or_insert_with(Box::default);
        state.init();
        let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let (status, consumed, written) = decompress(state, input, out, 0, flags);
        match status {
            TINFLStatus::Done => {}
            TINFLStatus::HasMoreOutput => {
                return Err(corrupt_chunk(format!("DEFLATE data decompresses to more than the recorded {} bytes", out.len())))
            }
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(corrupt_chunk(format!(
                    "DEFLATE data ends early: {} of {} input bytes gave {written} bytes, stream not finished",
                    consumed,
                    input.len()
                )))
            }
            _ => {
                return Err(corrupt_chunk(format!(
                    "invalid DEFLATE data near input byte {consumed} ({status:?})"
                )))
            }
        }
        if written != out.len() {
            return Err(corrupt_chunk(format!("DEFLATE data gives {written} bytes, the block records {}", out.len())));
        }
        if consumed != input.len() {
            return Err(corrupt_chunk(format!(
                "DEFLATE stream ends after {consumed} of the block's {} bytes",
                input.len()
            )));
        }
        Ok(())
    }
}
