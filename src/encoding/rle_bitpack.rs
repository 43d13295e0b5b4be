//! RLEBitpack: booleans, one bit each, most significant bit first. Despite
//! the name there is no run-length step.

use super::bits::MsbBits;
use crate::column::Values;
use crate::error::Result;
use crate::types::ColumnType;

pub(super) fn decode(n: usize, stream: &[u8], kept: Option<Values>) -> Result<Values> {
    // Checks that the stream is exactly ceil(n / 8) bytes.
    MsbBits::new(stream, n, 1)?;
    // Eight values per byte, spread to eight bytes by one multiply (the byte
    // copied into every lane), a mask (lane j keeps bit 7 - j), then each
    // lane's bit carried to 0 or 1. The last byte's padding bits are not
    // values.
    let spread = |b: u8| {
        let v = (b as u64 * 0x0101_0101_0101_0101) & 0x0102_0408_1020_4080;
        (((v + 0x7f7f_7f7f_7f7f_7f7f) >> 7) & 0x0101_0101_0101_0101).to_le_bytes()
    };
    super::fixed_filled(ColumnType::Bool, n, kept, |room| {
        let Some((whole, rest)) = room.split_at_mut_checked(n / 8 * 8) else { return false };
        for (o, &b) in super::uninit_values::<8>(whole).iter_mut().zip(stream) {
            o.write(spread(b));
        }
        // The last n % 8 values, from the last byte when there are any.
        let tail = match stream.get(n / 8) {
            Some(&b) => spread(b).get(..rest.len()).is_some_and(|v| super::put(rest, 0, v)),
            None => rest.is_empty(),
        };
        // The stream is exactly ceil(n / 8) bytes, so every whole byte's
        // values were written too.
        tail && stream.len() == n.div_ceil(8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::testkit::{damage, read_msb, Rng};

    /// Random bit streams of every length, damaged: exactly the values a
    /// bit-at-a-time reading gives, or an error where the length is wrong.
    #[test]
    fn decodes_as_a_plain_reading_does() {
        let mut rng = Rng(0x3c6e_f372_fe94_f82b);
        for case in 0..3000 {
            let n = if rng.below(4) == 0 { rng.below(5000) } else { rng.below(40) };
            let clean = rng.bytes(n.div_ceil(8));
            let s = damage(&mut rng, clean);
            match (read_msb(&s, n, 1), decode(n, &s, None)) {
                (Some(want), Ok(Values::Bool(got))) => {
                    let want: Vec<u8> = want.iter().map(|&v| v as u8).collect();
                    assert_eq!(got, want, "case {case}: {n} values");
                }
                (None, Err(_)) => {}
                (want, got) => {
                    panic!("case {case}: {n} values: reference {:?}, decoder {:?}", want.is_some(), got.is_ok())
                }
            }
        }
    }
}
