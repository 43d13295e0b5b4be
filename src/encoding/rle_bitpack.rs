//! RLEBitpack: booleans, one bit each, most significant bit first. Despite
//! the name there is no run-length step.

use super::bits::MsbBits;
use crate::column::Values;
use crate::error::{try_vec, Result};

pub(super) fn decode(n: usize, stream: &[u8]) -> Result<Values> {
    let bits = MsbBits::new(stream, n, 1)?;
    let mut out = try_vec::<u8>(n, "bool values")?;
    bits.for_each(|b| out.push(b as u8));
    Ok(Values::Bool(out))
}
