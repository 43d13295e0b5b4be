//! The footer's logical structs (FORMAT.md section 2), read by field name
//! from the generic gob value: unknown fields are ignored, absent fields are
//! zero, and a field of the wrong kind or out of its Go type's range is a
//! corrupt footer.

use crate::error::{corrupt_footer, Result};
use crate::file::gob::{self, Value};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawColumnSchema {
    pub name: Vec<u8>,
    pub type_tag: u8,
    pub nullable: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawColMeta {
    pub byte_length: i64,
    pub null_count: u32,
    pub min_val: Vec<u8>,
    pub max_val: Vec<u8>,
    pub min_len: u32,
    pub max_len: u32,
    pub encoding: u8,
    pub compress: u8,
    /// 1-based position in the header's digest table; 0 = none.
    pub tokenizer: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawRowGroupMeta {
    pub num_rows: u32,
    pub byte_offset: i64,
    pub columns: Vec<RawColMeta>,
}

/// The footer exactly as stored, before any cross-checks against the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footer {
    pub schema: Vec<RawColumnSchema>,
    pub row_groups: Vec<RawRowGroupMeta>,
}

pub fn decode_footer(bytes: &[u8]) -> Result<Footer> {
    let root = gob::decode_single_value(bytes)?;
    let schema = each(slice(&root, "Footer", "Schema")?, |s| {
        Ok(RawColumnSchema {
            name: bytes_field(s, "ColumnSchema", "Name")?,
            type_tag: uint(s, "ColumnSchema", "Type", u8::MAX as u64)? as u8,
            nullable: boolean(s, "ColumnSchema", "Nullable")?,
        })
    })?;
    let row_groups = each(slice(&root, "Footer", "RowGroups")?, |rg| {
        Ok(RawRowGroupMeta {
            num_rows: uint(rg, "RowGroupMeta", "NumRows", u32::MAX as u64)? as u32,
            byte_offset: int(rg, "RowGroupMeta", "ByteOffset")?,
            columns: each(slice(rg, "RowGroupMeta", "Columns")?, col_meta)?,
        })
    })?;
    Ok(Footer { schema, row_groups })
}

/// `f` of every value, in order, or the first error. (A loop rather than
/// `collect::<Result<Vec<_>>>()`, whose adapter is larger in the `.wasm`.)
fn each<T>(values: &[Value], mut f: impl FnMut(&Value) -> Result<T>) -> Result<Vec<T>> {
    let mut out = Vec::new();
    crate::error::try_room(&mut out, values.len(), "footer values")?;
    for v in values {
        out.push(f(v)?);
    }
    Ok(out)
}

fn col_meta(c: &Value) -> Result<RawColMeta> {
    const S: &str = "ColMeta";
    Ok(RawColMeta {
        byte_length: int(c, S, "ByteLength")?,
        null_count: uint(c, S, "NullCount", u32::MAX as u64)? as u32,
        min_val: bytes_field(c, S, "MinVal")?,
        max_val: bytes_field(c, S, "MaxVal")?,
        min_len: uint(c, S, "MinLen", u32::MAX as u64)? as u32,
        max_len: uint(c, S, "MaxLen", u32::MAX as u64)? as u32,
        encoding: uint(c, S, "Encoding", u8::MAX as u64)? as u8,
        compress: uint(c, S, "Compress", u8::MAX as u64)? as u8,
        tokenizer: int(c, S, "Tokenizer")?,
    })
}

fn struct_of<'a>(v: &'a Value, ty: &str) -> Result<&'a Value> {
    match v {
        Value::Struct(_) => Ok(v),
        _ => Err(corrupt_footer(format!("{ty} is not a struct in the footer's gob stream"))),
    }
}

fn wrong(ty: &str, field: &str, want: &str) -> crate::error::Error {
    corrupt_footer(format!("{ty}.{field} is not {want}"))
}

fn uint(v: &Value, ty: &str, field: &str, max: u64) -> Result<u64> {
    match struct_of(v, ty)?.field(field) {
        None => Ok(0),
        Some(Value::Uint(u)) if *u <= max => Ok(*u),
        Some(Value::Uint(u)) => Err(corrupt_footer(format!("{ty}.{field} = {u} exceeds its type's maximum {max}"))),
        Some(_) => Err(wrong(ty, field, "an unsigned integer")),
    }
}

fn int(v: &Value, ty: &str, field: &str) -> Result<i64> {
    match struct_of(v, ty)?.field(field) {
        None => Ok(0),
        Some(Value::Int(i)) => Ok(*i),
        Some(_) => Err(wrong(ty, field, "a signed integer")),
    }
}

fn boolean(v: &Value, ty: &str, field: &str) -> Result<bool> {
    match struct_of(v, ty)?.field(field) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(wrong(ty, field, "a bool")),
    }
}

fn bytes_field(v: &Value, ty: &str, field: &str) -> Result<Vec<u8>> {
    match struct_of(v, ty)?.field(field) {
        None => Ok(Vec::new()),
        Some(Value::Bytes(b)) => Ok(b.clone()),
        Some(_) => Err(wrong(ty, field, "a string or []byte")),
    }
}

fn slice<'a>(v: &'a Value, ty: &str, field: &str) -> Result<&'a [Value]> {
    match struct_of(v, ty)?.field(field) {
        None => Ok(&[]),
        Some(Value::Slice(items)) => Ok(items),
        Some(_) => Err(wrong(ty, field, "a slice")),
    }
}
