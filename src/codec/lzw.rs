//! LZW as Go's compress/lzw writes it (FORMAT.md section 4): LSB-first code
//! packing, 8-bit literals, clear 256, end 257, codes from 9 to 12 bits
//! without TIFF's early change. This is the GIF flavour `weezl` implements.

use weezl::{decode::Decoder, BitOrder, LzwStatus};

use crate::error::{corrupt_chunk, Result};

#[derive(Default)]
pub(super) struct LzwState {
    decoder: Option<Decoder>,
}

impl LzwState {
    pub fn decompress(&mut self, input: &[u8], out: &mut [u8]) -> Result<()> {
        let d = self.decoder.get_or_insert_with(|| Decoder::new(BitOrder::Lsb, 8));
        d.reset();
        let (mut inp, mut written) = (0usize, 0usize);
        loop {
            let r = d.decode_bytes(&input[inp..], &mut out[written..]);
            inp += r.consumed_in;
            written += r.consumed_out;
            match r.status {
                Err(_) => return Err(corrupt_chunk(format!("invalid LZW code near input byte {inp}"))),
                Ok(LzwStatus::Done) => break,
                Ok(LzwStatus::NoProgress) => {
                    return Err(corrupt_chunk(format!(
                        "LZW data ends without an end code after {written} bytes ({} recorded)",
                        out.len()
                    )))
                }
                Ok(LzwStatus::Ok) => {
                    if written == out.len() {
                        // Full: the stream must end now, producing nothing more.
                        let mut spare = [0u8; 1];
                        let r = d.decode_bytes(&input[inp..], &mut spare);
                        inp += r.consumed_in;
                        match r.status {
                            Ok(LzwStatus::Done) if r.consumed_out == 0 => break,
                            Err(_) => return Err(corrupt_chunk(format!("invalid LZW code near input byte {inp}"))),
                            _ if r.consumed_out > 0 => {
                                return Err(corrupt_chunk(format!("LZW data decompresses to more than the recorded {} bytes", out.len())))
                            }
                            _ => {
                                return Err(corrupt_chunk("LZW data ends without an end code"))
                            }
                        }
                    }
                }
            }
        }
        if written != out.len() {
            return Err(corrupt_chunk(format!("LZW data gives {written} bytes, the block records {}", out.len())));
        }
        if inp != input.len() {
            return Err(corrupt_chunk(format!("LZW end code after {inp} of the block's {} bytes", input.len())));
        }
        Ok(())
    }
}
