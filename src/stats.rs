//! Footer statistics decoded to typed values (FORMAT.md, "Statistics").
//! They are reported as the writer stored them, never recomputed: the
//! inspector compares them with decoded data instead.

use crate::types::ColumnType;

#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float32(f32),
    Float64(f64),
    Bytes(Vec<u8>),
}

impl Scalar {
    /// Decodes a raw statistic. `None` when it is empty (gob cannot tell an
    /// empty minimum from an absent one) or not the type's width.
    pub fn decode(ty: ColumnType, raw: &[u8]) -> Option<Scalar> {
        if raw.is_empty() {
            return None;
        }
        if let Some(w) = ty.width() {
            if raw.len() != w {
                return None;
            }
        }
        let mut b = [0u8; 8];
        let w = raw.len().min(8);
        b[..w].copy_from_slice(&raw[..w]);
        let u = u64::from_le_bytes(b);
        use ColumnType::*;
        Some(match ty {
            Bool => Scalar::Bool(raw[0] != 0),
            Int8 => Scalar::Int(u as u8 as i8 as i64),
            Int16 => Scalar::Int(u as u16 as i16 as i64),
            Int32 => Scalar::Int(u as u32 as i32 as i64),
            Int64 => Scalar::Int(u as i64),
            Uint8 | Uint16 | Uint32 | Uint64 => Scalar::Uint(u),
            Float32 => Scalar::Float32(f32::from_bits(u as u32)),
            Float64 => Scalar::Float64(f64::from_bits(u)),
            Bytes | String => Scalar::Bytes(raw.to_vec()),
        })
    }
}
